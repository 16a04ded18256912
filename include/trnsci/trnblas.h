/*
 * trnblas.h — dense linear algebra (the cuBLAS v2 analog).
 *
 * Matrices are column-major with leading dimensions, as in cuBLAS and LAPACK.
 * Scalars (alpha, beta) are host pointers. Routines are asynchronous with
 * respect to the host: they return once the daemon has validated and queued
 * the op on the handle's stream; invalid arguments are reported at once.
 */
#ifndef TRNSCI_TRNBLAS_H
#define TRNSCI_TRNBLAS_H

#include <trnsci/trn_complex.h>
#include <trnsci/trnsci.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Values are those of cublasStatus_t. */
typedef enum trnblasStatus_t {
    TRNBLAS_STATUS_SUCCESS = 0,
    TRNBLAS_STATUS_NOT_INITIALIZED = 1, /* no daemon reachable */
    TRNBLAS_STATUS_ALLOC_FAILED = 3,
    TRNBLAS_STATUS_INVALID_VALUE = 7,
    TRNBLAS_STATUS_ARCH_MISMATCH = 8,
    TRNBLAS_STATUS_MAPPING_ERROR = 11,
    TRNBLAS_STATUS_EXECUTION_FAILED = 13,
    TRNBLAS_STATUS_INTERNAL_ERROR = 14,
    TRNBLAS_STATUS_NOT_SUPPORTED = 15,
    TRNBLAS_STATUS_LICENSE_ERROR = 16,
} trnblasStatus_t;

typedef enum trnblasOperation_t {
    TRNBLAS_OP_N = 0,
    TRNBLAS_OP_T = 1,
    TRNBLAS_OP_C = 2,
} trnblasOperation_t;

typedef struct trnblasContext *trnblasHandle_t;

/* Creates a handle bound to the default stream. Initialises the runtime. */
trnblasStatus_t trnblasCreate(trnblasHandle_t *handle);
trnblasStatus_t trnblasDestroy(trnblasHandle_t handle);
trnblasStatus_t trnblasSetStream(trnblasHandle_t handle, trnsciStream_t streamId);
trnblasStatus_t trnblasGetStream(trnblasHandle_t handle, trnsciStream_t *streamId);
/* Library version, encoded as cublasGetVersion's: major*10000 + minor*100 + patch. */
trnblasStatus_t trnblasGetVersion(trnblasHandle_t handle, int *version);
/* Name of a status code; never NULL. */
const char *trnblasGetStatusName(trnblasStatus_t status);
const char *trnblasGetStatusString(trnblasStatus_t status);

/* C = alpha op(A) op(B) + beta C. op(A) is m×k, op(B) is k×n, C is m×n.
 * lda >= max(1, transa == N ? m : k), ldb >= max(1, transb == N ? k : n),
 * ldc >= max(1, m). */
trnblasStatus_t trnblasSgemm(trnblasHandle_t handle, trnblasOperation_t transa,
                             trnblasOperation_t transb, int m, int n, int k, const float *alpha,
                             const float *A, int lda, const float *B, int ldb, const float *beta,
                             float *C, int ldc);
trnblasStatus_t trnblasDgemm(trnblasHandle_t handle, trnblasOperation_t transa,
                             trnblasOperation_t transb, int m, int n, int k, const double *alpha,
                             const double *A, int lda, const double *B, int ldb, const double *beta,
                             double *C, int ldc);
trnblasStatus_t trnblasCgemm(trnblasHandle_t handle, trnblasOperation_t transa,
                             trnblasOperation_t transb, int m, int n, int k,
                             const trnComplex *alpha, const trnComplex *A, int lda,
                             const trnComplex *B, int ldb, const trnComplex *beta, trnComplex *C,
                             int ldc);
trnblasStatus_t trnblasZgemm(trnblasHandle_t handle, trnblasOperation_t transa,
                             trnblasOperation_t transb, int m, int n, int k,
                             const trnDoubleComplex *alpha, const trnDoubleComplex *A, int lda,
                             const trnDoubleComplex *B, int ldb, const trnDoubleComplex *beta,
                             trnDoubleComplex *C, int ldc);

#ifdef __cplusplus
}
#endif

#endif
