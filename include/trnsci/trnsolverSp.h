/*
 * trnsolverSp.h — trnsolver's sparse direct solvers, cuSOLVER's cusolverSp.h
 * renamed (cusolverSp → trnsolverSp): the handle, csrlsvqr and csrlsvchol
 * (and their Host forms), and the batched QR solve csrqrsvBatched with its
 * csrqrInfo_t. Real and complex, single and double precision (tol is real:
 * float for S and C, double for D and Z); the matrix descriptor is
 * trnsparse's legacy trnsparseMatDescr_t (type GENERAL, index base 0 or 1),
 * the arrays 32-bit CSR. Protocol 1.14; the complex types 1.15.
 *
 * The solvers expand A to a dense matrix in the daemon and factorise it with
 * LAPACK (O(m^2) memory, O(m^3) time; m <= 8192, else
 * TRNSOLVER_STATUS_NOT_SUPPORTED), so `reorder` is accepted (0..3) and
 * changes nothing. csrlsvqr: QR without pivoting, singularity = the first
 * j (0-based) with |R(j,j)| <= tol. csrlsvchol: Cholesky of A's lower
 * triangle (for C and Z, of the Hermitian matrix it defines: the imaginary
 * parts of diagonal entries are ignored), singularity = the first j with L(j,j) <= tol or where the
 * factorisation breaks down. singularity = -1 when A is not singular; x is
 * then the solution, else left as it was. singularity is a host output: the
 * call waits for the handle's stream (as cuSOLVER's does).
 */
#ifndef TRNSCI_TRNSOLVERSP_H
#define TRNSCI_TRNSOLVERSP_H

#include <stddef.h>

#include "trnsci/trnsci.h"
#include "trnsci/trnsolver.h"
#include "trnsci/trnsparse.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct trnsolverSpContext *trnsolverSpHandle_t;
/* The batched QR's analysis record (cuSOLVER names it without a prefix). */
typedef struct csrqrInfo *csrqrInfo_t;

/* The handle: a stream (default 0). NULL handle: NOT_INITIALIZED. */
trnsolverStatus_t trnsolverSpCreate(trnsolverSpHandle_t *handle);
trnsolverStatus_t trnsolverSpDestroy(trnsolverSpHandle_t handle);
trnsolverStatus_t trnsolverSpSetStream(trnsolverSpHandle_t handle, trnsciStream_t streamId);
trnsolverStatus_t trnsolverSpGetStream(trnsolverSpHandle_t handle, trnsciStream_t *streamId);

/* A x = b, A m x m in CSR (device pointers; the Host forms take host
 * pointers and stage them through device memory). */
trnsolverStatus_t trnsolverSpScsrlsvqr(trnsolverSpHandle_t handle, int m, int nnz,
                                       const trnsparseMatDescr_t descrA, const float *csrVal,
                                       const int *csrRowPtr, const int *csrColInd, const float *b,
                                       float tol, int reorder, float *x, int *singularity);
trnsolverStatus_t trnsolverSpDcsrlsvqr(trnsolverSpHandle_t handle, int m, int nnz,
                                       const trnsparseMatDescr_t descrA, const double *csrVal,
                                       const int *csrRowPtr, const int *csrColInd, const double *b,
                                       double tol, int reorder, double *x, int *singularity);
trnsolverStatus_t trnsolverSpScsrlsvchol(trnsolverSpHandle_t handle, int m, int nnz,
                                         const trnsparseMatDescr_t descrA, const float *csrVal,
                                         const int *csrRowPtr, const int *csrColInd, const float *b,
                                         float tol, int reorder, float *x, int *singularity);
trnsolverStatus_t trnsolverSpDcsrlsvchol(trnsolverSpHandle_t handle, int m, int nnz,
                                         const trnsparseMatDescr_t descrA, const double *csrVal,
                                         const int *csrRowPtr, const int *csrColInd,
                                         const double *b, double tol, int reorder, double *x,
                                         int *singularity);
trnsolverStatus_t trnsolverSpScsrlsvqrHost(trnsolverSpHandle_t handle, int m, int nnz,
                                           const trnsparseMatDescr_t descrA, const float *csrValA,
                                           const int *csrRowPtrA, const int *csrColIndA,
                                           const float *b, float tol, int reorder, float *x,
                                           int *singularity);
trnsolverStatus_t trnsolverSpDcsrlsvqrHost(trnsolverSpHandle_t handle, int m, int nnz,
                                           const trnsparseMatDescr_t descrA, const double *csrValA,
                                           const int *csrRowPtrA, const int *csrColIndA,
                                           const double *b, double tol, int reorder, double *x,
                                           int *singularity);
trnsolverStatus_t trnsolverSpScsrlsvcholHost(trnsolverSpHandle_t handle, int m, int nnz,
                                             const trnsparseMatDescr_t descrA, const float *csrVal,
                                             const int *csrRowPtr, const int *csrColInd,
                                             const float *b, float tol, int reorder, float *x,
                                             int *singularity);
trnsolverStatus_t trnsolverSpDcsrlsvcholHost(trnsolverSpHandle_t handle, int m, int nnz,
                                             const trnsparseMatDescr_t descrA, const double *csrVal,
                                             const int *csrRowPtr, const int *csrColInd,
                                             const double *b, double tol, int reorder, double *x,
                                             int *singularity);

/* Batched QR solves: batchSize systems sharing A's structure, values
 * csrValA + j nnzA, b + j m, x + j m. Square (m == n) only (else
 * NOT_SUPPORTED); each system is one csrlsvqr (tol 0) queued on the
 * handle's stream, so the call returns without waiting. Analysis records
 * the structure; BufferInfo reports 0 internal bytes and a 1-byte
 * workspace (the daemon allocates its own). */
trnsolverStatus_t trnsolverSpCreateCsrqrInfo(csrqrInfo_t *info);
trnsolverStatus_t trnsolverSpDestroyCsrqrInfo(csrqrInfo_t info);
trnsolverStatus_t trnsolverSpXcsrqrAnalysisBatched(trnsolverSpHandle_t handle, int m, int n,
                                                   int nnzA, const trnsparseMatDescr_t descrA,
                                                   const int *csrRowPtrA, const int *csrColIndA,
                                                   csrqrInfo_t info);
trnsolverStatus_t trnsolverSpScsrqrBufferInfoBatched(trnsolverSpHandle_t handle, int m, int n,
                                                     int nnzA, const trnsparseMatDescr_t descrA,
                                                     const float *csrValA, const int *csrRowPtrA,
                                                     const int *csrColIndA, int batchSize,
                                                     csrqrInfo_t info, size_t *internalDataInBytes,
                                                     size_t *workspaceInBytes);
trnsolverStatus_t trnsolverSpDcsrqrBufferInfoBatched(trnsolverSpHandle_t handle, int m, int n,
                                                     int nnzA, const trnsparseMatDescr_t descrA,
                                                     const double *csrValA, const int *csrRowPtrA,
                                                     const int *csrColIndA, int batchSize,
                                                     csrqrInfo_t info, size_t *internalDataInBytes,
                                                     size_t *workspaceInBytes);
trnsolverStatus_t trnsolverSpScsrqrsvBatched(trnsolverSpHandle_t handle, int m, int n, int nnzA,
                                             const trnsparseMatDescr_t descrA, const float *csrValA,
                                             const int *csrRowPtrA, const int *csrColIndA,
                                             const float *b, float *x, int batchSize,
                                             csrqrInfo_t info, void *pBuffer);
trnsolverStatus_t trnsolverSpDcsrqrsvBatched(trnsolverSpHandle_t handle, int m, int n, int nnzA,
                                             const trnsparseMatDescr_t descrA,
                                             const double *csrValA, const int *csrRowPtrA,
                                             const int *csrColIndA, const double *b, double *x,
                                             int batchSize, csrqrInfo_t info, void *pBuffer);

/* The complex types of the solvers above (protocol 1.15): as S and D, with
 * the conjugate transpose where those use the transpose (Q^H b), |R(j,j)|
 * the modulus, and Cholesky of the Hermitian matrix A's lower triangle
 * defines. */
trnsolverStatus_t trnsolverSpCcsrlsvqr(trnsolverSpHandle_t handle, int m, int nnz,
                                       const trnsparseMatDescr_t descrA, const trnComplex *csrVal,
                                       const int *csrRowPtr, const int *csrColInd,
                                       const trnComplex *b, float tol, int reorder, trnComplex *x,
                                       int *singularity);
trnsolverStatus_t trnsolverSpCcsrlsvchol(trnsolverSpHandle_t handle, int m, int nnz,
                                         const trnsparseMatDescr_t descrA, const trnComplex *csrVal,
                                         const int *csrRowPtr, const int *csrColInd,
                                         const trnComplex *b, float tol, int reorder, trnComplex *x,
                                         int *singularity);
trnsolverStatus_t trnsolverSpCcsrlsvqrHost(trnsolverSpHandle_t handle, int m, int nnz,
                                           const trnsparseMatDescr_t descrA,
                                           const trnComplex *csrVal, const int *csrRowPtr,
                                           const int *csrColInd, const trnComplex *b, float tol,
                                           int reorder, trnComplex *x, int *singularity);
trnsolverStatus_t trnsolverSpCcsrlsvcholHost(trnsolverSpHandle_t handle, int m, int nnz,
                                             const trnsparseMatDescr_t descrA,
                                             const trnComplex *csrVal, const int *csrRowPtr,
                                             const int *csrColInd, const trnComplex *b, float tol,
                                             int reorder, trnComplex *x, int *singularity);
trnsolverStatus_t trnsolverSpZcsrlsvqr(trnsolverSpHandle_t handle, int m, int nnz,
                                       const trnsparseMatDescr_t descrA,
                                       const trnDoubleComplex *csrVal, const int *csrRowPtr,
                                       const int *csrColInd, const trnDoubleComplex *b, double tol,
                                       int reorder, trnDoubleComplex *x, int *singularity);
trnsolverStatus_t trnsolverSpZcsrlsvchol(trnsolverSpHandle_t handle, int m, int nnz,
                                         const trnsparseMatDescr_t descrA,
                                         const trnDoubleComplex *csrVal, const int *csrRowPtr,
                                         const int *csrColInd, const trnDoubleComplex *b,
                                         double tol, int reorder, trnDoubleComplex *x,
                                         int *singularity);
trnsolverStatus_t trnsolverSpZcsrlsvqrHost(trnsolverSpHandle_t handle, int m, int nnz,
                                           const trnsparseMatDescr_t descrA,
                                           const trnDoubleComplex *csrVal, const int *csrRowPtr,
                                           const int *csrColInd, const trnDoubleComplex *b,
                                           double tol, int reorder, trnDoubleComplex *x,
                                           int *singularity);
trnsolverStatus_t trnsolverSpZcsrlsvcholHost(trnsolverSpHandle_t handle, int m, int nnz,
                                             const trnsparseMatDescr_t descrA,
                                             const trnDoubleComplex *csrVal, const int *csrRowPtr,
                                             const int *csrColInd, const trnDoubleComplex *b,
                                             double tol, int reorder, trnDoubleComplex *x,
                                             int *singularity);
trnsolverStatus_t trnsolverSpCcsrqrBufferInfoBatched(
    trnsolverSpHandle_t handle, int m, int n, int nnzA, const trnsparseMatDescr_t descrA,
    const trnComplex *csrValA, const int *csrRowPtrA, const int *csrColIndA, int batchSize,
    csrqrInfo_t info, size_t *internalDataInBytes, size_t *workspaceInBytes);
trnsolverStatus_t trnsolverSpCcsrqrsvBatched(trnsolverSpHandle_t handle, int m, int n, int nnzA,
                                             const trnsparseMatDescr_t descrA,
                                             const trnComplex *csrValA, const int *csrRowPtrA,
                                             const int *csrColIndA, const trnComplex *b,
                                             trnComplex *x, int batchSize, csrqrInfo_t info,
                                             void *pBuffer);
trnsolverStatus_t trnsolverSpZcsrqrBufferInfoBatched(
    trnsolverSpHandle_t handle, int m, int n, int nnzA, const trnsparseMatDescr_t descrA,
    const trnDoubleComplex *csrValA, const int *csrRowPtrA, const int *csrColIndA, int batchSize,
    csrqrInfo_t info, size_t *internalDataInBytes, size_t *workspaceInBytes);
trnsolverStatus_t trnsolverSpZcsrqrsvBatched(trnsolverSpHandle_t handle, int m, int n, int nnzA,
                                             const trnsparseMatDescr_t descrA,
                                             const trnDoubleComplex *csrValA, const int *csrRowPtrA,
                                             const int *csrColIndA, const trnDoubleComplex *b,
                                             trnDoubleComplex *x, int batchSize, csrqrInfo_t info,
                                             void *pBuffer);

#ifdef __cplusplus
}
#endif

#endif
