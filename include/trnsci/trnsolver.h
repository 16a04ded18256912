/*
 * trnsolver.h — dense linear solvers, eigenproblems and SVDs (the cuSOLVER
 * Dn analog), trnsci's extensions (inverse square root, mixed-precision
 * refinement) and Krylov solvers.
 *
 * Conventions, as in cuSOLVER:
 *  - Matrices are column-major with leading dimensions, in device memory.
 *    S/D/C/Z are float, double, trnComplex and trnDoubleComplex; eigenvalues
 *    and singular values are real (float for S/C, double for D/Z).
 *  - Every routine is asynchronous with respect to the host: it returns once
 *    the daemon has validated and queued the op on the handle's stream.
 *    Invalid arguments are reported at once (TRNSOLVER_STATUS_INVALID_VALUE,
 *    and trnsciGetLastErrorMessage() names the argument and the rule); the
 *    op is then not queued and devInfo is not written.
 *  - devInfo (an int in device memory, required) is written in stream order
 *    with LAPACK's meaning: 0 success; i > 0 a numerical result (potrf: the
 *    leading minor of order i is not positive definite; getrf: U(i,i) is
 *    exactly zero; syevd/gesvd: i off-diagonal elements did not converge;
 *    sygvd: i <= n as syevd, i > n: B's leading minor of order i - n is not
 *    positive definite; syevj: n + 1, gesvdj: min(m,n) + 1: no convergence
 *    within the sweeps). A numerical result is not an error: the call
 *    succeeds and nothing is reported at synchronisation. Non-finite input
 *    to an eigenvalue or SVD routine gives info = -(position of the matrix in
 *    the parameter list, not counting handle), as LAPACKE reports it.
 *  - Workspace belongs to the daemon: every typed *_bufferSize reports 0,
 *    and the Workspace / work / lwork arguments are accepted and not used
 *    (any value, NULL included, is fine). The 64-bit generic API
 *    (trnsolverDnX*) reports and uses its own sizes (see there), and so do
 *    sygvdx/hegvdx and gesvdaStridedBatched, whose host outputs travel
 *    through their work arrays.
 *  - A handle is bound to a stream (trnsolverDnSetStream); it holds no
 *    device memory and may be used from several threads; syevjInfo_t and
 *    gesvdjInfo_t objects may not be used concurrently.
 * Deviations from cuSOLVER are listed in docs/rosetta.md; the numerics of
 * each routine (algorithms, stopping rules, defaults) in docs/numerics.md.
 */
#ifndef TRNSCI_TRNSOLVER_H
#define TRNSCI_TRNSOLVER_H

#include <trnsci/trnblas.h>
#include <trnsci/trnsparse.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Values are those of cusolverStatus_t. */
typedef enum trnsolverStatus_t {
    TRNSOLVER_STATUS_SUCCESS = 0,
    TRNSOLVER_STATUS_NOT_INITIALIZED = 1, /* NULL handle, or no daemon reachable */
    TRNSOLVER_STATUS_ALLOC_FAILED = 2,    /* out of memory, or a daemon queue limit */
    TRNSOLVER_STATUS_INVALID_VALUE = 3,   /* a bad argument (see the message) */
    TRNSOLVER_STATUS_ARCH_MISMATCH = 4,
    TRNSOLVER_STATUS_MAPPING_ERROR = 5,
    TRNSOLVER_STATUS_EXECUTION_FAILED = 6,
    TRNSOLVER_STATUS_INTERNAL_ERROR = 7,
    TRNSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED = 8,
    TRNSOLVER_STATUS_NOT_SUPPORTED = 9,
    TRNSOLVER_STATUS_ZERO_PIVOT = 10,
    TRNSOLVER_STATUS_INVALID_LICENSE = 11,
    TRNSOLVER_STATUS_IRS_PARAMS_NOT_INITIALIZED = 12,
    TRNSOLVER_STATUS_IRS_PARAMS_INVALID = 13,
    TRNSOLVER_STATUS_IRS_PARAMS_INVALID_PREC = 14,
    TRNSOLVER_STATUS_IRS_PARAMS_INVALID_REFINE = 15,
    TRNSOLVER_STATUS_IRS_PARAMS_INVALID_MAXITER = 16,
    TRNSOLVER_STATUS_IRS_INTERNAL_ERROR = 20,
    TRNSOLVER_STATUS_IRS_NOT_SUPPORTED = 21,
    TRNSOLVER_STATUS_IRS_OUT_OF_RANGE = 22,
    TRNSOLVER_STATUS_IRS_NRHS_NOT_SUPPORTED_FOR_REFINE_GMRES = 23,
    TRNSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED = 25,
    TRNSOLVER_STATUS_IRS_INFOS_NOT_DESTROYED = 26,
    TRNSOLVER_STATUS_IRS_MATRIX_SINGULAR = 30,
    TRNSOLVER_STATUS_INVALID_WORKSPACE = 31,
} trnsolverStatus_t;

/* Values are those of cusolverEigMode_t and cusolverEigType_t. */
typedef enum trnsolverEigMode_t {
    TRNSOLVER_EIG_MODE_NOVECTOR = 0,
    TRNSOLVER_EIG_MODE_VECTOR = 1,
} trnsolverEigMode_t;

typedef enum trnsolverEigType_t {
    TRNSOLVER_EIG_TYPE_1 = 1, /* A x = lambda B x */
    TRNSOLVER_EIG_TYPE_2 = 2, /* A B x = lambda x */
    TRNSOLVER_EIG_TYPE_3 = 3, /* B A x = lambda x */
} trnsolverEigType_t;

/* cusolver_int_t: the integer of the legacy API's sizes and pivots (int
 * in the LP64 libraries trnsci mirrors). */
typedef int trnsolver_int_t;

/* Values are those of cusolver_common.h's enums of the mixed-precision
 * (IRS) solvers and the norms, for code that names them. Which refinement
 * and precisions trnsci's IRS routines take is said where they are
 * declared; code that only names the values compiles. */
typedef enum trnsolverNorm_t {
    TRNSOLVER_INF_NORM = 104,
    TRNSOLVER_MAX_NORM = 105,
    TRNSOLVER_ONE_NORM = 106,
    TRNSOLVER_FRO_NORM = 107,
} trnsolverNorm_t;

typedef enum trnsolverIRSRefinement_t {
    TRNSOLVER_IRS_REFINE_NOT_SET = 1100,
    TRNSOLVER_IRS_REFINE_NONE = 1101,
    TRNSOLVER_IRS_REFINE_CLASSICAL = 1102,
    TRNSOLVER_IRS_REFINE_CLASSICAL_GMRES = 1103,
    TRNSOLVER_IRS_REFINE_GMRES = 1104,
    TRNSOLVER_IRS_REFINE_GMRES_GMRES = 1105,
    TRNSOLVER_IRS_REFINE_GMRES_NOPCOND = 1106,
    TRNSOLVER_PREC_DD = 1150,
    TRNSOLVER_PREC_SS = 1151,
    TRNSOLVER_PREC_SHT = 1152,
} trnsolverIRSRefinement_t;

typedef enum trnsolverPrecType_t {
    TRNSOLVER_R_8I = 1201,
    TRNSOLVER_R_8U = 1202,
    TRNSOLVER_R_64F = 1203,
    TRNSOLVER_R_32F = 1204,
    TRNSOLVER_R_16F = 1205,
    TRNSOLVER_R_16BF = 1206,
    TRNSOLVER_R_TF32 = 1207,
    TRNSOLVER_R_AP = 1208,
    TRNSOLVER_C_8I = 1211,
    TRNSOLVER_C_8U = 1212,
    TRNSOLVER_C_64F = 1213,
    TRNSOLVER_C_32F = 1214,
    TRNSOLVER_C_16F = 1215,
    TRNSOLVER_C_16BF = 1216,
    TRNSOLVER_C_TF32 = 1217,
    TRNSOLVER_C_AP = 1218,
} trnsolverPrecType_t;

/* cusolverStorevMode_t and cusolverDirectMode_t (their values keep
 * cuSOLVER's CUBLAS_ prefix, renamed TRNBLAS_). */
typedef enum trnsolverStorevMode_t {
    TRNBLAS_STOREV_COLUMNWISE = 0,
    TRNBLAS_STOREV_ROWWISE = 1,
} trnsolverStorevMode_t;

typedef enum trnsolverDirectMode_t {
    TRNBLAS_DIRECT_FORWARD = 0,
    TRNBLAS_DIRECT_BACKWARD = 1,
} trnsolverDirectMode_t;

typedef struct trnsolverDnContext *trnsolverDnHandle_t;

/* The parameters (and results) of syevj/heevj and gesvdj, as cuSOLVER's. */
typedef struct syevjInfo *syevjInfo_t;
typedef struct gesvdjInfo *gesvdjInfo_t;

/* ---- handle ------------------------------------------------------------------ */

/* Creates a handle bound to the default stream. Initialises the runtime. */
trnsolverStatus_t trnsolverDnCreate(trnsolverDnHandle_t *handle);
trnsolverStatus_t trnsolverDnDestroy(trnsolverDnHandle_t handle);
trnsolverStatus_t trnsolverDnSetStream(trnsolverDnHandle_t handle, trnsciStream_t streamId);
trnsolverStatus_t trnsolverDnGetStream(trnsolverDnHandle_t handle, trnsciStream_t *streamId);
/* cusolverDeterministicMode_t and its handle setting. Every trnsolver kernel
 * is deterministic whatever the mode: the work of a call is split by the
 * request and the configured core count only, never by load, and no
 * kernel reduces in a data-dependent order, so results are bitwise the
 * same run to run (docs/numerics.md). The mode is stored and reported; the
 * default is DETERMINISTIC_RESULTS, as in cuSOLVER; a value other than the
 * two gives INVALID_VALUE. */
typedef enum trnsolverDeterministicMode_t {
    TRNSOLVER_DETERMINISTIC_RESULTS = 1,
    TRNSOLVER_ALLOW_NON_DETERMINISTIC_RESULTS = 2,
} trnsolverDeterministicMode_t;
trnsolverStatus_t trnsolverDnSetDeterministicMode(trnsolverDnHandle_t handle,
                                                  trnsolverDeterministicMode_t mode);
trnsolverStatus_t trnsolverDnGetDeterministicMode(trnsolverDnHandle_t handle,
                                                  trnsolverDeterministicMode_t *mode);
/* Library version: major * 10000 + minor * 100 + patch. */
trnsolverStatus_t trnsolverGetVersion(int *version);
/* Name and description of a status (extension: cuSOLVER has neither);
 * never NULL. */
const char *trnsolverGetStatusName(trnsolverStatus_t status);
const char *trnsolverGetStatusString(trnsolverStatus_t status);

/* ---- Cholesky ------------------------------------------------------------------
 * potrf: A = L L^H (uplo LOWER) or U^H U (UPPER), in place, only the uplo
 * triangle read and written; devInfo = i > 0 when the leading minor of order
 * i is not positive definite. potrs: solves A X = B with that factor.
 * potri: A^-1 from the factor, in the uplo triangle. */

trnsolverStatus_t trnsolverDnSpotrf_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, float *A, int lda, int *Lwork);
trnsolverStatus_t trnsolverDnDpotrf_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, double *A, int lda, int *Lwork);
trnsolverStatus_t trnsolverDnCpotrf_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, trnComplex *A, int lda, int *Lwork);
trnsolverStatus_t trnsolverDnZpotrf_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, trnDoubleComplex *A, int lda, int *Lwork);
trnsolverStatus_t trnsolverDnSpotrf(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    float *A, int lda, float *Workspace, int Lwork, int *devInfo);
trnsolverStatus_t trnsolverDnDpotrf(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    double *A, int lda, double *Workspace, int Lwork, int *devInfo);
trnsolverStatus_t trnsolverDnCpotrf(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    trnComplex *A, int lda, trnComplex *Workspace, int Lwork,
                                    int *devInfo);
trnsolverStatus_t trnsolverDnZpotrf(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    trnDoubleComplex *A, int lda, trnDoubleComplex *Workspace,
                                    int Lwork, int *devInfo);

trnsolverStatus_t trnsolverDnSpotrs(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    int nrhs, const float *A, int lda, float *B, int ldb,
                                    int *devInfo);
trnsolverStatus_t trnsolverDnDpotrs(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    int nrhs, const double *A, int lda, double *B, int ldb,
                                    int *devInfo);
trnsolverStatus_t trnsolverDnCpotrs(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    int nrhs, const trnComplex *A, int lda, trnComplex *B, int ldb,
                                    int *devInfo);
trnsolverStatus_t trnsolverDnZpotrs(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    int nrhs, const trnDoubleComplex *A, int lda,
                                    trnDoubleComplex *B, int ldb, int *devInfo);

trnsolverStatus_t trnsolverDnSpotri_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, float *A, int lda, int *lwork);
trnsolverStatus_t trnsolverDnDpotri_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, double *A, int lda, int *lwork);
trnsolverStatus_t trnsolverDnCpotri_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, trnComplex *A, int lda, int *lwork);
trnsolverStatus_t trnsolverDnZpotri_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, trnDoubleComplex *A, int lda, int *lwork);
trnsolverStatus_t trnsolverDnSpotri(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    float *A, int lda, float *work, int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnDpotri(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    double *A, int lda, double *work, int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnCpotri(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    trnComplex *A, int lda, trnComplex *work, int lwork,
                                    int *devInfo);
trnsolverStatus_t trnsolverDnZpotri(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    trnDoubleComplex *A, int lda, trnDoubleComplex *work, int lwork,
                                    int *devInfo);

/* Batched Cholesky: Aarray (and Barray) are device arrays of batchSize
 * device pointers, read when the call is made (not when the op runs; see
 * docs/rosetta.md). potrfBatched writes infoArray[i] for matrix i;
 * potrsBatched takes nrhs = 1 only (as cuSOLVER) and writes one info. The
 * daemon splits a batch over its cores; each matrix is factored whole, so
 * the result does not depend on the split. */
trnsolverStatus_t trnsolverDnSpotrfBatched(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                           int n, float *Aarray[], int lda, int *infoArray,
                                           int batchSize);
trnsolverStatus_t trnsolverDnDpotrfBatched(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                           int n, double *Aarray[], int lda, int *infoArray,
                                           int batchSize);
trnsolverStatus_t trnsolverDnCpotrfBatched(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                           int n, trnComplex *Aarray[], int lda, int *infoArray,
                                           int batchSize);
trnsolverStatus_t trnsolverDnZpotrfBatched(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                           int n, trnDoubleComplex *Aarray[], int lda,
                                           int *infoArray, int batchSize);
trnsolverStatus_t trnsolverDnSpotrsBatched(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                           int n, int nrhs, float *Aarray[], int lda,
                                           float *Barray[], int ldb, int *info, int batchSize);
trnsolverStatus_t trnsolverDnDpotrsBatched(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                           int n, int nrhs, double *Aarray[], int lda,
                                           double *Barray[], int ldb, int *info, int batchSize);
trnsolverStatus_t trnsolverDnCpotrsBatched(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                           int n, int nrhs, trnComplex *Aarray[], int lda,
                                           trnComplex *Barray[], int ldb, int *info, int batchSize);
trnsolverStatus_t trnsolverDnZpotrsBatched(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                           int n, int nrhs, trnDoubleComplex *Aarray[], int lda,
                                           trnDoubleComplex *Barray[], int ldb, int *info,
                                           int batchSize);

/* ---- LU --------------------------------------------------------------------------
 * getrf: P A = L U with partial pivoting (devIpiv: min(m,n) 1-based row
 * interchanges, as LAPACK), or without pivoting when devIpiv is NULL;
 * devInfo = i > 0 when U(i,i) is exactly zero. getrs: solves op(A) X = B
 * with those factors (devIpiv NULL: factors without pivoting). */

trnsolverStatus_t trnsolverDnSgetrf_bufferSize(trnsolverDnHandle_t handle, int m, int n, float *A,
                                               int lda, int *Lwork);
trnsolverStatus_t trnsolverDnDgetrf_bufferSize(trnsolverDnHandle_t handle, int m, int n, double *A,
                                               int lda, int *Lwork);
trnsolverStatus_t trnsolverDnCgetrf_bufferSize(trnsolverDnHandle_t handle, int m, int n,
                                               trnComplex *A, int lda, int *Lwork);
trnsolverStatus_t trnsolverDnZgetrf_bufferSize(trnsolverDnHandle_t handle, int m, int n,
                                               trnDoubleComplex *A, int lda, int *Lwork);
trnsolverStatus_t trnsolverDnSgetrf(trnsolverDnHandle_t handle, int m, int n, float *A, int lda,
                                    float *Workspace, int *devIpiv, int *devInfo);
trnsolverStatus_t trnsolverDnDgetrf(trnsolverDnHandle_t handle, int m, int n, double *A, int lda,
                                    double *Workspace, int *devIpiv, int *devInfo);
trnsolverStatus_t trnsolverDnCgetrf(trnsolverDnHandle_t handle, int m, int n, trnComplex *A,
                                    int lda, trnComplex *Workspace, int *devIpiv, int *devInfo);
trnsolverStatus_t trnsolverDnZgetrf(trnsolverDnHandle_t handle, int m, int n, trnDoubleComplex *A,
                                    int lda, trnDoubleComplex *Workspace, int *devIpiv,
                                    int *devInfo);
trnsolverStatus_t trnsolverDnSgetrs(trnsolverDnHandle_t handle, trnblasOperation_t trans, int n,
                                    int nrhs, const float *A, int lda, const int *devIpiv, float *B,
                                    int ldb, int *devInfo);
trnsolverStatus_t trnsolverDnDgetrs(trnsolverDnHandle_t handle, trnblasOperation_t trans, int n,
                                    int nrhs, const double *A, int lda, const int *devIpiv,
                                    double *B, int ldb, int *devInfo);
trnsolverStatus_t trnsolverDnCgetrs(trnsolverDnHandle_t handle, trnblasOperation_t trans, int n,
                                    int nrhs, const trnComplex *A, int lda, const int *devIpiv,
                                    trnComplex *B, int ldb, int *devInfo);
trnsolverStatus_t trnsolverDnZgetrs(trnsolverDnHandle_t handle, trnblasOperation_t trans, int n,
                                    int nrhs, const trnDoubleComplex *A, int lda,
                                    const int *devIpiv, trnDoubleComplex *B, int ldb, int *devInfo);

/* ---- QR ---------------------------------------------------------------------------
 * geqrf: A = Q R (Householder; TAU: min(m,n) scalars). orgqr (ungqr for
 * complex types): the first n columns of Q from k reflectors, m >= n >= k.
 * ormqr (unmqr): C = op(Q) C (side LEFT) or C op(Q) (RIGHT); trans is
 * OP_N or OP_T (real) / OP_C (complex). */

trnsolverStatus_t trnsolverDnSgeqrf_bufferSize(trnsolverDnHandle_t handle, int m, int n, float *A,
                                               int lda, int *lwork);
trnsolverStatus_t trnsolverDnDgeqrf_bufferSize(trnsolverDnHandle_t handle, int m, int n, double *A,
                                               int lda, int *lwork);
trnsolverStatus_t trnsolverDnCgeqrf_bufferSize(trnsolverDnHandle_t handle, int m, int n,
                                               trnComplex *A, int lda, int *lwork);
trnsolverStatus_t trnsolverDnZgeqrf_bufferSize(trnsolverDnHandle_t handle, int m, int n,
                                               trnDoubleComplex *A, int lda, int *lwork);
trnsolverStatus_t trnsolverDnSgeqrf(trnsolverDnHandle_t handle, int m, int n, float *A, int lda,
                                    float *TAU, float *Workspace, int Lwork, int *devInfo);
trnsolverStatus_t trnsolverDnDgeqrf(trnsolverDnHandle_t handle, int m, int n, double *A, int lda,
                                    double *TAU, double *Workspace, int Lwork, int *devInfo);
trnsolverStatus_t trnsolverDnCgeqrf(trnsolverDnHandle_t handle, int m, int n, trnComplex *A,
                                    int lda, trnComplex *TAU, trnComplex *Workspace, int Lwork,
                                    int *devInfo);
trnsolverStatus_t trnsolverDnZgeqrf(trnsolverDnHandle_t handle, int m, int n, trnDoubleComplex *A,
                                    int lda, trnDoubleComplex *TAU, trnDoubleComplex *Workspace,
                                    int Lwork, int *devInfo);

trnsolverStatus_t trnsolverDnSorgqr_bufferSize(trnsolverDnHandle_t handle, int m, int n, int k,
                                               const float *A, int lda, const float *tau,
                                               int *lwork);
trnsolverStatus_t trnsolverDnDorgqr_bufferSize(trnsolverDnHandle_t handle, int m, int n, int k,
                                               const double *A, int lda, const double *tau,
                                               int *lwork);
trnsolverStatus_t trnsolverDnCungqr_bufferSize(trnsolverDnHandle_t handle, int m, int n, int k,
                                               const trnComplex *A, int lda, const trnComplex *tau,
                                               int *lwork);
trnsolverStatus_t trnsolverDnZungqr_bufferSize(trnsolverDnHandle_t handle, int m, int n, int k,
                                               const trnDoubleComplex *A, int lda,
                                               const trnDoubleComplex *tau, int *lwork);
trnsolverStatus_t trnsolverDnSorgqr(trnsolverDnHandle_t handle, int m, int n, int k, float *A,
                                    int lda, const float *tau, float *work, int lwork, int *info);
trnsolverStatus_t trnsolverDnDorgqr(trnsolverDnHandle_t handle, int m, int n, int k, double *A,
                                    int lda, const double *tau, double *work, int lwork, int *info);
trnsolverStatus_t trnsolverDnCungqr(trnsolverDnHandle_t handle, int m, int n, int k, trnComplex *A,
                                    int lda, const trnComplex *tau, trnComplex *work, int lwork,
                                    int *info);
trnsolverStatus_t trnsolverDnZungqr(trnsolverDnHandle_t handle, int m, int n, int k,
                                    trnDoubleComplex *A, int lda, const trnDoubleComplex *tau,
                                    trnDoubleComplex *work, int lwork, int *info);

trnsolverStatus_t trnsolverDnSormqr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side,
                                               trnblasOperation_t trans, int m, int n, int k,
                                               const float *A, int lda, const float *tau,
                                               const float *C, int ldc, int *lwork);
trnsolverStatus_t trnsolverDnDormqr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side,
                                               trnblasOperation_t trans, int m, int n, int k,
                                               const double *A, int lda, const double *tau,
                                               const double *C, int ldc, int *lwork);
trnsolverStatus_t trnsolverDnCunmqr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side,
                                               trnblasOperation_t trans, int m, int n, int k,
                                               const trnComplex *A, int lda, const trnComplex *tau,
                                               const trnComplex *C, int ldc, int *lwork);
trnsolverStatus_t trnsolverDnZunmqr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side,
                                               trnblasOperation_t trans, int m, int n, int k,
                                               const trnDoubleComplex *A, int lda,
                                               const trnDoubleComplex *tau,
                                               const trnDoubleComplex *C, int ldc, int *lwork);
trnsolverStatus_t trnsolverDnSormqr(trnsolverDnHandle_t handle, trnblasSideMode_t side,
                                    trnblasOperation_t trans, int m, int n, int k, const float *A,
                                    int lda, const float *tau, float *C, int ldc, float *work,
                                    int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnDormqr(trnsolverDnHandle_t handle, trnblasSideMode_t side,
                                    trnblasOperation_t trans, int m, int n, int k, const double *A,
                                    int lda, const double *tau, double *C, int ldc, double *work,
                                    int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnCunmqr(trnsolverDnHandle_t handle, trnblasSideMode_t side,
                                    trnblasOperation_t trans, int m, int n, int k,
                                    const trnComplex *A, int lda, const trnComplex *tau,
                                    trnComplex *C, int ldc, trnComplex *work, int lwork,
                                    int *devInfo);
trnsolverStatus_t trnsolverDnZunmqr(trnsolverDnHandle_t handle, trnblasSideMode_t side,
                                    trnblasOperation_t trans, int m, int n, int k,
                                    const trnDoubleComplex *A, int lda, const trnDoubleComplex *tau,
                                    trnDoubleComplex *C, int ldc, trnDoubleComplex *work, int lwork,
                                    int *devInfo);

/* ---- symmetric / Hermitian eigenproblems -----------------------------------------
 * syevd (heevd): A = V diag(W) V^H by divide and conquer (LAPACK), W
 * ascending; jobz VECTOR puts V in A, NOVECTOR leaves A's contents
 * unspecified. sygvd (hegvd): the generalised problem of itype with B
 * positive definite; with VECTOR, A receives the B-orthonormal eigenvectors
 * and B its Cholesky factor. */

trnsolverStatus_t trnsolverDnSsyevd_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                               trnblasFillMode_t uplo, int n, const float *A,
                                               int lda, const float *W, int *lwork);
trnsolverStatus_t trnsolverDnDsyevd_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                               trnblasFillMode_t uplo, int n, const double *A,
                                               int lda, const double *W, int *lwork);
trnsolverStatus_t trnsolverDnCheevd_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                               trnblasFillMode_t uplo, int n, const trnComplex *A,
                                               int lda, const float *W, int *lwork);
trnsolverStatus_t trnsolverDnZheevd_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                               trnblasFillMode_t uplo, int n,
                                               const trnDoubleComplex *A, int lda, const double *W,
                                               int *lwork);
trnsolverStatus_t trnsolverDnSsyevd(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                    trnblasFillMode_t uplo, int n, float *A, int lda, float *W,
                                    float *work, int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnDsyevd(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                    trnblasFillMode_t uplo, int n, double *A, int lda, double *W,
                                    double *work, int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnCheevd(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                    trnblasFillMode_t uplo, int n, trnComplex *A, int lda, float *W,
                                    trnComplex *work, int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnZheevd(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                    trnblasFillMode_t uplo, int n, trnDoubleComplex *A, int lda,
                                    double *W, trnDoubleComplex *work, int lwork, int *devInfo);

trnsolverStatus_t trnsolverDnSsygvd_bufferSize(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                               trnsolverEigMode_t jobz, trnblasFillMode_t uplo,
                                               int n, const float *A, int lda, const float *B,
                                               int ldb, const float *W, int *lwork);
trnsolverStatus_t trnsolverDnDsygvd_bufferSize(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                               trnsolverEigMode_t jobz, trnblasFillMode_t uplo,
                                               int n, const double *A, int lda, const double *B,
                                               int ldb, const double *W, int *lwork);
trnsolverStatus_t trnsolverDnChegvd_bufferSize(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                               trnsolverEigMode_t jobz, trnblasFillMode_t uplo,
                                               int n, const trnComplex *A, int lda,
                                               const trnComplex *B, int ldb, const float *W,
                                               int *lwork);
trnsolverStatus_t trnsolverDnZhegvd_bufferSize(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                               trnsolverEigMode_t jobz, trnblasFillMode_t uplo,
                                               int n, const trnDoubleComplex *A, int lda,
                                               const trnDoubleComplex *B, int ldb, const double *W,
                                               int *lwork);
trnsolverStatus_t trnsolverDnSsygvd(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                    trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,
                                    float *A, int lda, float *B, int ldb, float *W, float *work,
                                    int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnDsygvd(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                    trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,
                                    double *A, int lda, double *B, int ldb, double *W, double *work,
                                    int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnChegvd(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                    trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,
                                    trnComplex *A, int lda, trnComplex *B, int ldb, float *W,
                                    trnComplex *work, int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnZhegvd(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                    trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,
                                    trnDoubleComplex *A, int lda, trnDoubleComplex *B, int ldb,
                                    double *W, trnDoubleComplex *work, int lwork, int *devInfo);

/* ---- Jacobi eigensolver (syevj / heevj) ------------------------------------------
 * Cyclic Jacobi: stops when the off-diagonal Frobenius norm is at most
 * tolerance * ||A||_F (default: the type's machine epsilon; smaller values
 * are raised to it) or after max_sweeps (default 100; info = n + 1).
 * Eigenvalues ascend (always, as cuSOLVER's syevj); VECTOR puts the
 * eigenvectors in A. The residual (that off-diagonal norm) and the sweeps
 * executed are written to the params object's own device memory in stream
 * order; trnsolverDnXsyevjGetResidual / GetSweeps read them back (waiting
 * for the device, like a trnsciMemcpy) and refer to the latest syevj run
 * with these params. */

trnsolverStatus_t trnsolverDnCreateSyevjInfo(syevjInfo_t *info);
trnsolverStatus_t trnsolverDnDestroySyevjInfo(syevjInfo_t info);
trnsolverStatus_t trnsolverDnXsyevjSetTolerance(syevjInfo_t info, double tolerance);
trnsolverStatus_t trnsolverDnXsyevjSetMaxSweeps(syevjInfo_t info, int max_sweeps);
/* Accepted and stored; like cuSOLVER, syevj sorts regardless. */
trnsolverStatus_t trnsolverDnXsyevjSetSortEig(syevjInfo_t info, int sort_eig);
trnsolverStatus_t trnsolverDnXsyevjGetResidual(trnsolverDnHandle_t handle, syevjInfo_t info,
                                               double *residual);
trnsolverStatus_t trnsolverDnXsyevjGetSweeps(trnsolverDnHandle_t handle, syevjInfo_t info,
                                             int *executed_sweeps);

trnsolverStatus_t trnsolverDnSsyevj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                               trnblasFillMode_t uplo, int n, const float *A,
                                               int lda, const float *W, int *lwork,
                                               syevjInfo_t params);
trnsolverStatus_t trnsolverDnDsyevj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                               trnblasFillMode_t uplo, int n, const double *A,
                                               int lda, const double *W, int *lwork,
                                               syevjInfo_t params);
trnsolverStatus_t trnsolverDnCheevj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                               trnblasFillMode_t uplo, int n, const trnComplex *A,
                                               int lda, const float *W, int *lwork,
                                               syevjInfo_t params);
trnsolverStatus_t trnsolverDnZheevj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                               trnblasFillMode_t uplo, int n,
                                               const trnDoubleComplex *A, int lda, const double *W,
                                               int *lwork, syevjInfo_t params);
trnsolverStatus_t trnsolverDnSsyevj(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                    trnblasFillMode_t uplo, int n, float *A, int lda, float *W,
                                    float *work, int lwork, int *info, syevjInfo_t params);
trnsolverStatus_t trnsolverDnDsyevj(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                    trnblasFillMode_t uplo, int n, double *A, int lda, double *W,
                                    double *work, int lwork, int *info, syevjInfo_t params);
trnsolverStatus_t trnsolverDnCheevj(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                    trnblasFillMode_t uplo, int n, trnComplex *A, int lda, float *W,
                                    trnComplex *work, int lwork, int *info, syevjInfo_t params);
trnsolverStatus_t trnsolverDnZheevj(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                    trnblasFillMode_t uplo, int n, trnDoubleComplex *A, int lda,
                                    double *W, trnDoubleComplex *work, int lwork, int *info,
                                    syevjInfo_t params);

/* ---- SVD -------------------------------------------------------------------------
 * gesvd: A = U diag(S) V^H by QR iteration (LAPACK), m >= n (as cuSOLVER),
 * S descending; jobu / jobvt 'A' (all columns of U / rows of VT), 'S'
 * (the first min(m,n)), 'O' (overwrite A), 'N' (none), not both 'O'. rwork
 * (min(m,n) - 1 reals, may be NULL) receives the unconverged superdiagonal
 * when info > 0. */

trnsolverStatus_t trnsolverDnSgesvd_bufferSize(trnsolverDnHandle_t handle, int m, int n,
                                               int *lwork);
trnsolverStatus_t trnsolverDnDgesvd_bufferSize(trnsolverDnHandle_t handle, int m, int n,
                                               int *lwork);
trnsolverStatus_t trnsolverDnCgesvd_bufferSize(trnsolverDnHandle_t handle, int m, int n,
                                               int *lwork);
trnsolverStatus_t trnsolverDnZgesvd_bufferSize(trnsolverDnHandle_t handle, int m, int n,
                                               int *lwork);
trnsolverStatus_t trnsolverDnSgesvd(trnsolverDnHandle_t handle, signed char jobu, signed char jobvt,
                                    int m, int n, float *A, int lda, float *S, float *U, int ldu,
                                    float *VT, int ldvt, float *work, int lwork, float *rwork,
                                    int *devInfo);
trnsolverStatus_t trnsolverDnDgesvd(trnsolverDnHandle_t handle, signed char jobu, signed char jobvt,
                                    int m, int n, double *A, int lda, double *S, double *U, int ldu,
                                    double *VT, int ldvt, double *work, int lwork, double *rwork,
                                    int *devInfo);
trnsolverStatus_t trnsolverDnCgesvd(trnsolverDnHandle_t handle, signed char jobu, signed char jobvt,
                                    int m, int n, trnComplex *A, int lda, float *S, trnComplex *U,
                                    int ldu, trnComplex *VT, int ldvt, trnComplex *work, int lwork,
                                    float *rwork, int *devInfo);
trnsolverStatus_t trnsolverDnZgesvd(trnsolverDnHandle_t handle, signed char jobu, signed char jobvt,
                                    int m, int n, trnDoubleComplex *A, int lda, double *S,
                                    trnDoubleComplex *U, int ldu, trnDoubleComplex *VT, int ldvt,
                                    trnDoubleComplex *work, int lwork, double *rwork, int *devInfo);

/* gesvdj: one-sided Jacobi, any m and n; S descending; VECTOR returns U
 * (m x m, or m x min(m,n) with econ = 1) and V (not V^H: n x n, or
 * n x min(m,n)). Stops when the internal residual (the Frobenius norm of
 * the off-diagonal of U^H A V) is at most tolerance * ||A||_F, or after
 * max_sweeps (info = min(m,n) + 1). Residual and sweeps as syevj's. */

trnsolverStatus_t trnsolverDnCreateGesvdjInfo(gesvdjInfo_t *info);
trnsolverStatus_t trnsolverDnDestroyGesvdjInfo(gesvdjInfo_t info);
trnsolverStatus_t trnsolverDnXgesvdjSetTolerance(gesvdjInfo_t info, double tolerance);
trnsolverStatus_t trnsolverDnXgesvdjSetMaxSweeps(gesvdjInfo_t info, int max_sweeps);
/* Accepted and stored; like cuSOLVER, gesvdj sorts regardless. */
trnsolverStatus_t trnsolverDnXgesvdjSetSortEig(gesvdjInfo_t info, int sort_svd);
trnsolverStatus_t trnsolverDnXgesvdjGetResidual(trnsolverDnHandle_t handle, gesvdjInfo_t info,
                                                double *residual);
trnsolverStatus_t trnsolverDnXgesvdjGetSweeps(trnsolverDnHandle_t handle, gesvdjInfo_t info,
                                              int *executed_sweeps);

trnsolverStatus_t trnsolverDnSgesvdj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                                int econ, int m, int n, const float *A, int lda,
                                                const float *S, const float *U, int ldu,
                                                const float *V, int ldv, int *lwork,
                                                gesvdjInfo_t params);
trnsolverStatus_t trnsolverDnDgesvdj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                                int econ, int m, int n, const double *A, int lda,
                                                const double *S, const double *U, int ldu,
                                                const double *V, int ldv, int *lwork,
                                                gesvdjInfo_t params);
trnsolverStatus_t trnsolverDnCgesvdj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                                int econ, int m, int n, const trnComplex *A,
                                                int lda, const float *S, const trnComplex *U,
                                                int ldu, const trnComplex *V, int ldv, int *lwork,
                                                gesvdjInfo_t params);
trnsolverStatus_t trnsolverDnZgesvdj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                                int econ, int m, int n, const trnDoubleComplex *A,
                                                int lda, const double *S, const trnDoubleComplex *U,
                                                int ldu, const trnDoubleComplex *V, int ldv,
                                                int *lwork, gesvdjInfo_t params);
trnsolverStatus_t trnsolverDnSgesvdj(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int econ,
                                     int m, int n, float *A, int lda, float *S, float *U, int ldu,
                                     float *V, int ldv, float *work, int lwork, int *info,
                                     gesvdjInfo_t params);
trnsolverStatus_t trnsolverDnDgesvdj(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int econ,
                                     int m, int n, double *A, int lda, double *S, double *U,
                                     int ldu, double *V, int ldv, double *work, int lwork,
                                     int *info, gesvdjInfo_t params);
trnsolverStatus_t trnsolverDnCgesvdj(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int econ,
                                     int m, int n, trnComplex *A, int lda, float *S, trnComplex *U,
                                     int ldu, trnComplex *V, int ldv, trnComplex *work, int lwork,
                                     int *info, gesvdjInfo_t params);
trnsolverStatus_t trnsolverDnZgesvdj(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int econ,
                                     int m, int n, trnDoubleComplex *A, int lda, double *S,
                                     trnDoubleComplex *U, int ldu, trnDoubleComplex *V, int ldv,
                                     trnDoubleComplex *work, int lwork, int *info,
                                     gesvdjInfo_t params);

/* ==== 64-bit generic API (cusolverDnX*) ===============================================
 * cuSOLVER's generic routines: int64_t sizes, the element types named by
 * trnsciDataType_t arguments, a trnsolverDnParams_t, and two workspaces
 * (device and host) whose sizes the _bufferSize companion reports.
 * Conventions beyond those of the typed routines above:
 *  - Types: TRNSCI_R_32F, R_64F, C_32F or C_64F (S, D, C, Z). Every matrix
 *    type and computeType must equal dataTypeA, and W / S (eigenvalues,
 *    singular values) must be its real type, as cuSOLVER's tables list;
 *    another type or combination gives TRNSOLVER_STATUS_NOT_SUPPORTED with a
 *    message naming the argument.
 *  - Sizes: negative m, n, nrhs or leading dimensions give
 *    TRNSOLVER_STATUS_INVALID_VALUE; values above INT_MAX give
 *    TRNSOLVER_STATUS_NOT_SUPPORTED naming the argument (trnsci's kernels
 *    take 32-bit sizes). The rules of the typed routine then apply.
 *  - Workspace: the reported sizes are what the call needs. Every routine
 *    needs 0 host bytes; Xgetrf needs min(m,n) * 4 device bytes (the 32-bit
 *    pivots, widened into ipiv in stream order), Xsyevdx, Xgesvdr and
 *    Xtrtri room for their full results (see there), the others 0 device
 *    bytes.
 *    A buffer smaller than the size reported gives INVALID_VALUE; a buffer
 *    of a needed size must be device memory (bufferOnDevice) and is then
 *    used; buffers not needed are not read (any value, NULL included).
 *  - params: NULL means the defaults, as in cuSOLVER's samples; the
 *    algorithm a params selects is accepted and does not change the result
 *    (one LAPACK algorithm per routine, see docs/rosetta.md).
 *  - info is an int in device memory written in stream order, as above. */

/* Values are those of cusolverDnFunction_t and cusolverAlgMode_t. */
typedef enum trnsolverDnFunction_t {
    TRNSOLVERDN_GETRF = 0,
    TRNSOLVERDN_POTRF = 1,
    TRNSOLVERDN_SYEVBATCHED = 2,
} trnsolverDnFunction_t;

typedef enum trnsolverAlgMode_t {
    TRNSOLVER_ALG_0 = 0,
    TRNSOLVER_ALG_1 = 1,
    TRNSOLVER_ALG_2 = 2,
} trnsolverAlgMode_t;

/* The options of the generic routines: a host object. */
typedef struct trnsolverDnParams *trnsolverDnParams_t;

trnsolverStatus_t trnsolverDnCreateParams(trnsolverDnParams_t *params);
trnsolverStatus_t trnsolverDnDestroyParams(trnsolverDnParams_t params);
/* Selects algo for function: GETRF takes ALG_0 (default) or ALG_1, POTRF
 * and SYEVBATCHED take ALG_0; anything else gives INVALID_VALUE. Stored;
 * trnsci runs one algorithm per routine whatever is selected. */
trnsolverStatus_t trnsolverDnSetAdvOptions(trnsolverDnParams_t params,
                                           trnsolverDnFunction_t function, trnsolverAlgMode_t algo);

/* Xpotrf / Xpotrs: potrf / potrs (see Cholesky above). */
trnsolverStatus_t trnsolverDnXpotrf_bufferSize(trnsolverDnHandle_t handle,
                                               trnsolverDnParams_t params, trnblasFillMode_t uplo,
                                               int64_t n, trnsciDataType_t dataTypeA, const void *A,
                                               int64_t lda, trnsciDataType_t computeType,
                                               size_t *workspaceInBytesOnDevice,
                                               size_t *workspaceInBytesOnHost);
trnsolverStatus_t trnsolverDnXpotrf(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                    trnblasFillMode_t uplo, int64_t n, trnsciDataType_t dataTypeA,
                                    void *A, int64_t lda, trnsciDataType_t computeType,
                                    void *bufferOnDevice, size_t workspaceInBytesOnDevice,
                                    void *bufferOnHost, size_t workspaceInBytesOnHost, int *info);
trnsolverStatus_t trnsolverDnXpotrs(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                    trnblasFillMode_t uplo, int64_t n, int64_t nrhs,
                                    trnsciDataType_t dataTypeA, const void *A, int64_t lda,
                                    trnsciDataType_t dataTypeB, void *B, int64_t ldb, int *info);

/* Xgetrf / Xgetrs: getrf / getrs (see LU above) with 64-bit pivots
 * (min(m,n) int64_t, 1-based; NULL: no pivoting, as cuSOLVER). Xgetrs
 * narrows the pivots into a stream-ordered temporary (trnsciMallocAsync on
 * the handle's stream, freed in stream order): it may return
 * TRNSOLVER_STATUS_ALLOC_FAILED when that allocation fails. */
trnsolverStatus_t trnsolverDnXgetrf_bufferSize(trnsolverDnHandle_t handle,
                                               trnsolverDnParams_t params, int64_t m, int64_t n,
                                               trnsciDataType_t dataTypeA, const void *A,
                                               int64_t lda, trnsciDataType_t computeType,
                                               size_t *workspaceInBytesOnDevice,
                                               size_t *workspaceInBytesOnHost);
trnsolverStatus_t trnsolverDnXgetrf(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                    int64_t m, int64_t n, trnsciDataType_t dataTypeA, void *A,
                                    int64_t lda, int64_t *ipiv, trnsciDataType_t computeType,
                                    void *bufferOnDevice, size_t workspaceInBytesOnDevice,
                                    void *bufferOnHost, size_t workspaceInBytesOnHost, int *info);
trnsolverStatus_t trnsolverDnXgetrs(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                    trnblasOperation_t trans, int64_t n, int64_t nrhs,
                                    trnsciDataType_t dataTypeA, const void *A, int64_t lda,
                                    const int64_t *ipiv, trnsciDataType_t dataTypeB, void *B,
                                    int64_t ldb, int *info);

/* Xgeqrf: geqrf (see QR above); tau has dataTypeA. */
trnsolverStatus_t trnsolverDnXgeqrf_bufferSize(trnsolverDnHandle_t handle,
                                               trnsolverDnParams_t params, int64_t m, int64_t n,
                                               trnsciDataType_t dataTypeA, const void *A,
                                               int64_t lda, trnsciDataType_t dataTypeTau,
                                               const void *tau, trnsciDataType_t computeType,
                                               size_t *workspaceInBytesOnDevice,
                                               size_t *workspaceInBytesOnHost);
trnsolverStatus_t trnsolverDnXgeqrf(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                    int64_t m, int64_t n, trnsciDataType_t dataTypeA, void *A,
                                    int64_t lda, trnsciDataType_t dataTypeTau, void *tau,
                                    trnsciDataType_t computeType, void *bufferOnDevice,
                                    size_t workspaceInBytesOnDevice, void *bufferOnHost,
                                    size_t workspaceInBytesOnHost, int *info);

/* Xsyevd: syevd / heevd (see the eigenproblems above); W has the real type
 * of dataTypeA. */
trnsolverStatus_t trnsolverDnXsyevd_bufferSize(
    trnsolverDnHandle_t handle, trnsolverDnParams_t params, trnsolverEigMode_t jobz,
    trnblasFillMode_t uplo, int64_t n, trnsciDataType_t dataTypeA, const void *A, int64_t lda,
    trnsciDataType_t dataTypeW, const void *W, trnsciDataType_t computeType,
    size_t *workspaceInBytesOnDevice, size_t *workspaceInBytesOnHost);
trnsolverStatus_t trnsolverDnXsyevd(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                    trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int64_t n,
                                    trnsciDataType_t dataTypeA, void *A, int64_t lda,
                                    trnsciDataType_t dataTypeW, void *W,
                                    trnsciDataType_t computeType, void *bufferOnDevice,
                                    size_t workspaceInBytesOnDevice, void *bufferOnHost,
                                    size_t workspaceInBytesOnHost, int *info);

/* Xgeev: the eigenvalues of the general n x n A and, with jobvr VECTOR,
 * its right eigenvectors (unit 2-norm, largest component real; LAPACK's
 * geev). jobvl must be NOVECTOR (VECTOR is NOT_SUPPORTED, as cuSOLVER's;
 * VL is not referenced, ldvl >= 1). dataTypeA = dataTypeVL = dataTypeVR =
 * computeType, one of R_32F, R_64F, C_32F, C_64F. dataTypeW: for complex A
 * A's type; for real A the complex type of its precision (n complex
 * eigenvalues) or A's type (2n reals: the real parts, then the imaginary
 * parts). A real A's VR holds a complex pair's vectors as LAPACK does
 * (VR(:,j) +- i VR(:,j+1)). A is overwritten. info: 0, -i for the i-th
 * argument (not counting the handle; a non-finite A gives -6), or i > 0
 * when the QR algorithm failed (W(i+1:n) converged, VR not written).
 * Both workspace sizes are 0 (protocol 1.15). */
trnsolverStatus_t trnsolverDnXgeev_bufferSize(
    trnsolverDnHandle_t handle, trnsolverDnParams_t params, trnsolverEigMode_t jobvl,
    trnsolverEigMode_t jobvr, int64_t n, trnsciDataType_t dataTypeA, const void *A, int64_t lda,
    trnsciDataType_t dataTypeW, const void *W, trnsciDataType_t dataTypeVL, const void *VL,
    int64_t ldvl, trnsciDataType_t dataTypeVR, const void *VR, int64_t ldvr,
    trnsciDataType_t computeType, size_t *workspaceInBytesOnDevice, size_t *workspaceInBytesOnHost);
trnsolverStatus_t trnsolverDnXgeev(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                   trnsolverEigMode_t jobvl, trnsolverEigMode_t jobvr, int64_t n,
                                   trnsciDataType_t dataTypeA, void *A, int64_t lda,
                                   trnsciDataType_t dataTypeW, void *W, trnsciDataType_t dataTypeVL,
                                   void *VL, int64_t ldvl, trnsciDataType_t dataTypeVR, void *VR,
                                   int64_t ldvr, trnsciDataType_t computeType, void *bufferOnDevice,
                                   size_t workspaceInBytesOnDevice, void *bufferOnHost,
                                   size_t workspaceInBytesOnHost, int *info);

/* XsyevBatched: batchSize problems of Xsyevd stored one after another
 * (A_i at A + i * lda * n elements, lda >= n; W_i at W + i * n; info[i]),
 * each solved by syevd / heevd (cuSOLVER may use another algorithm: the
 * results agree to rounding, not bitwise). Each span must lie in one
 * device allocation; the batch is then queued whole (batchSize ops) or,
 * on bad input, not at all. */
trnsolverStatus_t trnsolverDnXsyevBatched_bufferSize(
    trnsolverDnHandle_t handle, trnsolverDnParams_t params, trnsolverEigMode_t jobz,
    trnblasFillMode_t uplo, int64_t n, trnsciDataType_t dataTypeA, const void *A, int64_t lda,
    trnsciDataType_t dataTypeW, const void *W, trnsciDataType_t computeType,
    size_t *workspaceInBytesOnDevice, size_t *workspaceInBytesOnHost, int64_t batchSize);
trnsolverStatus_t trnsolverDnXsyevBatched(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                          trnsolverEigMode_t jobz, trnblasFillMode_t uplo,
                                          int64_t n, trnsciDataType_t dataTypeA, void *A,
                                          int64_t lda, trnsciDataType_t dataTypeW, void *W,
                                          trnsciDataType_t computeType, void *bufferOnDevice,
                                          size_t workspaceInBytesOnDevice, void *bufferOnHost,
                                          size_t workspaceInBytesOnHost, int *info,
                                          int64_t batchSize);

/* Values are those of cusolverEigRange_t. */
typedef enum trnsolverEigRange_t {
    TRNSOLVER_EIG_RANGE_ALL = 1001,
    TRNSOLVER_EIG_RANGE_I = 1002, /* the il-th to the iu-th eigenvalues (1-based, ascending) */
    TRNSOLVER_EIG_RANGE_V = 1003, /* the eigenvalues in (*vl, *vu] */
} trnsolverEigRange_t;

/* Xsyevdx: the selected eigenvalues (ascending) in the first *h_meig
 * elements of W and, with VECTOR, their eigenvectors in the first *h_meig
 * columns of A. vl and vu point to host values of dataTypeW (read for
 * RANGE_V only). h_meig (host) is written before the call returns. All
 * eigenpairs are computed by syevd / heevd on a copy of A in the device
 * workspace (n * n elements of dataTypeA, then n of dataTypeW; none for
 * RANGE_ALL, which works in place); the selection is copied out in stream
 * order. RANGE_V waits for the handle's stream to count the eigenvalues
 * (it returns once they are known); RANGE_I and RANGE_ALL do not wait.
 * With NOVECTOR and RANGE_I/V, A is left as it was. */
trnsolverStatus_t trnsolverDnXsyevdx_bufferSize(
    trnsolverDnHandle_t handle, trnsolverDnParams_t params, trnsolverEigMode_t jobz,
    trnsolverEigRange_t range, trnblasFillMode_t uplo, int64_t n, trnsciDataType_t dataTypeA,
    const void *A, int64_t lda, void *vl, void *vu, int64_t il, int64_t iu, int64_t *h_meig,
    trnsciDataType_t dataTypeW, const void *W, trnsciDataType_t computeType,
    size_t *workspaceInBytesOnDevice, size_t *workspaceInBytesOnHost);
trnsolverStatus_t trnsolverDnXsyevdx(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                     trnsolverEigMode_t jobz, trnsolverEigRange_t range,
                                     trnblasFillMode_t uplo, int64_t n, trnsciDataType_t dataTypeA,
                                     void *A, int64_t lda, void *vl, void *vu, int64_t il,
                                     int64_t iu, int64_t *h_meig, trnsciDataType_t dataTypeW,
                                     void *W, trnsciDataType_t computeType, void *bufferOnDevice,
                                     size_t workspaceInBytesOnDevice, void *bufferOnHost,
                                     size_t workspaceInBytesOnHost, int *info);

/* The legacy selected-eigenvalue routines (cusolverDn<t>syevdx, <t>heevdx):
 * Xsyevdx with default params, A's type as the compute type and W of its
 * real type; lwork counts elements of A's type; *meig is written on the
 * host as Xsyevdx writes *h_meig. */
trnsolverStatus_t trnsolverDnSsyevdx_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                                trnsolverEigRange_t range, trnblasFillMode_t uplo,
                                                int n, const float *A, int lda, float vl, float vu,
                                                int il, int iu, int *meig, const float *W,
                                                int *lwork);
trnsolverStatus_t trnsolverDnDsyevdx_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                                trnsolverEigRange_t range, trnblasFillMode_t uplo,
                                                int n, const double *A, int lda, double vl,
                                                double vu, int il, int iu, int *meig,
                                                const double *W, int *lwork);
trnsolverStatus_t trnsolverDnCheevdx_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                                trnsolverEigRange_t range, trnblasFillMode_t uplo,
                                                int n, const trnComplex *A, int lda, float vl,
                                                float vu, int il, int iu, int *meig, const float *W,
                                                int *lwork);
trnsolverStatus_t trnsolverDnZheevdx_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                                trnsolverEigRange_t range, trnblasFillMode_t uplo,
                                                int n, const trnDoubleComplex *A, int lda,
                                                double vl, double vu, int il, int iu, int *meig,
                                                const double *W, int *lwork);
trnsolverStatus_t trnsolverDnSsyevdx(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                     trnsolverEigRange_t range, trnblasFillMode_t uplo, int n,
                                     float *A, int lda, float vl, float vu, int il, int iu,
                                     int *meig, float *W, float *work, int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnDsyevdx(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                     trnsolverEigRange_t range, trnblasFillMode_t uplo, int n,
                                     double *A, int lda, double vl, double vu, int il, int iu,
                                     int *meig, double *W, double *work, int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnCheevdx(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                     trnsolverEigRange_t range, trnblasFillMode_t uplo, int n,
                                     trnComplex *A, int lda, float vl, float vu, int il, int iu,
                                     int *meig, float *W, trnComplex *work, int lwork,
                                     int *devInfo);
trnsolverStatus_t trnsolverDnZheevdx(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                     trnsolverEigRange_t range, trnblasFillMode_t uplo, int n,
                                     trnDoubleComplex *A, int lda, double vl, double vu, int il,
                                     int iu, int *meig, double *W, trnDoubleComplex *work,
                                     int lwork, int *devInfo);

/* Batched Jacobi eigensolvers (cusolverDn<t>syevjBatched, <t>heevjBatched):
 * batchSize matrices A_i at A + i*lda*n, their eigenvalues at W + i*n and
 * info[i]; n <= 32 and lda >= max(1, n), as in cuSOLVER (else
 * INVALID_VALUE). Each matrix is one <t>syevj / <t>heevj queued in order on
 * the handle's stream, sharing the workspace (lwork: syevj's for one
 * matrix) and params. A matrix refused part way leaves the ones before it
 * queued. */
trnsolverStatus_t trnsolverDnSsyevjBatched_bufferSize(trnsolverDnHandle_t handle,
                                                      trnsolverEigMode_t jobz,
                                                      trnblasFillMode_t uplo, int n, const float *A,
                                                      int lda, const float *W, int *lwork,
                                                      syevjInfo_t params, int batchSize);
trnsolverStatus_t
trnsolverDnDsyevjBatched_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                    trnblasFillMode_t uplo, int n, const double *A, int lda,
                                    const double *W, int *lwork, syevjInfo_t params, int batchSize);
trnsolverStatus_t
trnsolverDnCheevjBatched_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                    trnblasFillMode_t uplo, int n, const trnComplex *A, int lda,
                                    const float *W, int *lwork, syevjInfo_t params, int batchSize);
trnsolverStatus_t trnsolverDnZheevjBatched_bufferSize(trnsolverDnHandle_t handle,
                                                      trnsolverEigMode_t jobz,
                                                      trnblasFillMode_t uplo, int n,
                                                      const trnDoubleComplex *A, int lda,
                                                      const double *W, int *lwork,
                                                      syevjInfo_t params, int batchSize);
trnsolverStatus_t trnsolverDnSsyevjBatched(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                           trnblasFillMode_t uplo, int n, float *A, int lda,
                                           float *W, float *work, int lwork, int *info,
                                           syevjInfo_t params, int batchSize);
trnsolverStatus_t trnsolverDnDsyevjBatched(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                           trnblasFillMode_t uplo, int n, double *A, int lda,
                                           double *W, double *work, int lwork, int *info,
                                           syevjInfo_t params, int batchSize);
trnsolverStatus_t trnsolverDnCheevjBatched(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                           trnblasFillMode_t uplo, int n, trnComplex *A, int lda,
                                           float *W, trnComplex *work, int lwork, int *info,
                                           syevjInfo_t params, int batchSize);
trnsolverStatus_t trnsolverDnZheevjBatched(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                           trnblasFillMode_t uplo, int n, trnDoubleComplex *A,
                                           int lda, double *W, trnDoubleComplex *work, int lwork,
                                           int *info, syevjInfo_t params, int batchSize);

/* Xgesvd: gesvd (see SVD above; m >= n); S has the real type of dataTypeA,
 * U and VT have dataTypeA. */
trnsolverStatus_t trnsolverDnXgesvd_bufferSize(
    trnsolverDnHandle_t handle, trnsolverDnParams_t params, signed char jobu, signed char jobvt,
    int64_t m, int64_t n, trnsciDataType_t dataTypeA, const void *A, int64_t lda,
    trnsciDataType_t dataTypeS, const void *S, trnsciDataType_t dataTypeU, const void *U,
    int64_t ldu, trnsciDataType_t dataTypeVT, const void *VT, int64_t ldvt,
    trnsciDataType_t computeType, size_t *workspaceInBytesOnDevice, size_t *workspaceInBytesOnHost);
trnsolverStatus_t trnsolverDnXgesvd(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                    signed char jobu, signed char jobvt, int64_t m, int64_t n,
                                    trnsciDataType_t dataTypeA, void *A, int64_t lda,
                                    trnsciDataType_t dataTypeS, void *S, trnsciDataType_t dataTypeU,
                                    void *U, int64_t ldu, trnsciDataType_t dataTypeVT, void *VT,
                                    int64_t ldvt, trnsciDataType_t computeType,
                                    void *bufferOnDevice, size_t workspaceInBytesOnDevice,
                                    void *bufferOnHost, size_t workspaceInBytesOnHost, int *info);

/* Xgesvdp: A = U diag(S) V^H (V, not V^H) for any m and n, S descending;
 * jobz VECTOR returns U (m x m, or m x min(m,n) with econ = 1) and V
 * (n x n, or n x min(m,n)). trnsci runs gesvdj (one-sided Jacobi, default
 * tolerance and sweeps; info = min(m,n) + 1 when it does not converge)
 * instead of cuSOLVER's polar decomposition, and *h_err_sigma (host) is
 * gesvdj's residual, the Frobenius norm of the off-diagonal of U^H A V: a
 * bound on the perturbation of the singular values. Writing it waits for
 * the device, so the call returns when the SVD is done. */
trnsolverStatus_t trnsolverDnXgesvdp_bufferSize(
    trnsolverDnHandle_t handle, trnsolverDnParams_t params, trnsolverEigMode_t jobz, int econ,
    int64_t m, int64_t n, trnsciDataType_t dataTypeA, const void *A, int64_t lda,
    trnsciDataType_t dataTypeS, const void *S, trnsciDataType_t dataTypeU, const void *U,
    int64_t ldu, trnsciDataType_t dataTypeV, const void *V, int64_t ldv,
    trnsciDataType_t computeType, size_t *workspaceInBytesOnDevice, size_t *workspaceInBytesOnHost);
trnsolverStatus_t
trnsolverDnXgesvdp(trnsolverDnHandle_t handle, trnsolverDnParams_t params, trnsolverEigMode_t jobz,
                   int econ, int64_t m, int64_t n, trnsciDataType_t dataTypeA, void *A, int64_t lda,
                   trnsciDataType_t dataTypeS, void *S, trnsciDataType_t dataTypeU, void *U,
                   int64_t ldu, trnsciDataType_t dataTypeV, void *V, int64_t ldv,
                   trnsciDataType_t computeType, void *bufferOnDevice,
                   size_t workspaceInBytesOnDevice, void *bufferOnHost,
                   size_t workspaceInBytesOnHost, int *d_info, double *h_err_sigma);

/* Xgesvdr: the k leading singular values (Srand, descending) and, with
 * jobu / jobv 'S' ('N': not computed), their left (Urand, m x k) and right
 * (Vrand, n x k: V, not V^H) singular vectors; 1 <= k, k + p <= min(m,n),
 * niters >= 0. trnsci computes the exact SVD (gesvdj, economy size) of A,
 * which it overwrites, into the device workspace ((m + n) min(m,n)
 * elements of dataTypeA, then min(m,n) of dataTypeSrand) and copies the
 * leading k triplets out in stream order: the result is the exact rank-k
 * truncation (p and niters do not change it), at the cost of a full SVD. */
trnsolverStatus_t trnsolverDnXgesvdr_bufferSize(
    trnsolverDnHandle_t handle, trnsolverDnParams_t params, signed char jobu, signed char jobv,
    int64_t m, int64_t n, int64_t k, int64_t p, int64_t niters, trnsciDataType_t dataTypeA,
    const void *A, int64_t lda, trnsciDataType_t dataTypeSrand, const void *Srand,
    trnsciDataType_t dataTypeUrand, const void *Urand, int64_t ldUrand,
    trnsciDataType_t dataTypeVrand, const void *Vrand, int64_t ldVrand,
    trnsciDataType_t computeType, size_t *workspaceInBytesOnDevice, size_t *workspaceInBytesOnHost);
trnsolverStatus_t trnsolverDnXgesvdr(
    trnsolverDnHandle_t handle, trnsolverDnParams_t params, signed char jobu, signed char jobv,
    int64_t m, int64_t n, int64_t k, int64_t p, int64_t niters, trnsciDataType_t dataTypeA, void *A,
    int64_t lda, trnsciDataType_t dataTypeSrand, void *Srand, trnsciDataType_t dataTypeUrand,
    void *Urand, int64_t ldUrand, trnsciDataType_t dataTypeVrand, void *Vrand, int64_t ldVrand,
    trnsciDataType_t computeType, void *bufferOnDevice, size_t workspaceInBytesOnDevice,
    void *bufferOnHost, size_t workspaceInBytesOnHost, int *d_info);

/* Xtrtri: the inverse of the uplo triangle of A, in place (the other
 * triangle untouched; with diag UNIT the diagonal is taken as 1 and not
 * read or written). info = i > 0 when A(i,i) is exactly zero, A then
 * unchanged. No params argument, as cuSOLVER's. trnsci reads the diagonal
 * back first (so the call waits for the device when diag is NON_UNIT),
 * then solves T X = I with trnblas's trsm into the device workspace
 * (n * n elements of dataTypeA) and copies X's triangle into A in stream
 * order (n copies). */
trnsolverStatus_t trnsolverDnXtrtri_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               trnblasDiagType_t diag, int64_t n,
                                               trnsciDataType_t dataTypeA, void *A, int64_t lda,
                                               size_t *workspaceInBytesOnDevice,
                                               size_t *workspaceInBytesOnHost);
trnsolverStatus_t trnsolverDnXtrtri(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                    trnblasDiagType_t diag, int64_t n, trnsciDataType_t dataTypeA,
                                    void *A, int64_t lda, void *bufferOnDevice,
                                    size_t workspaceInBytesOnDevice, void *bufferOnHost,
                                    size_t workspaceInBytesOnHost, int *devInfo);

/* ==== trnsci extensions (not in cuSOLVER) ============================================
 * Iterative routines report how they ended in a trnsolverIterResult_t in
 * device memory (devResult, may be NULL), written in stream order like
 * devInfo: read it with trnsciMemcpy after the call. Their controls are a
 * trnsolverIterParams_t (NULL: every default). */

/* The iteration record: 16 bytes, the same layout on every platform. */
typedef struct trnsolverIterResult_t {
    int iterations;  /* iterations executed (see each routine) */
    int status;      /* a trnsolverIterStatus_t */
    double residual; /* the final residual (see each routine) */
} trnsolverIterResult_t;

typedef enum trnsolverIterStatus_t {
    TRNSOLVER_ITER_CONVERGED = 0,
    TRNSOLVER_ITER_MAX_ITERS = 1,      /* the tolerance was not reached */
    TRNSOLVER_ITER_BREAKDOWN = 2,      /* the method broke down (e.g. CG on a non-SPD matrix) */
    TRNSOLVER_ITER_NONFINITE = 3,      /* a NaN or an infinity appeared */
    TRNSOLVER_ITER_FALLBACK = 4,       /* refinement: solved by the FP64 factorisation */
    TRNSOLVER_ITER_PRECOND_FAILED = 5, /* the preconditioner could not be built; x unchanged */
} trnsolverIterStatus_t;

typedef enum trnsolverPrecond_t {
    TRNSOLVER_PRECOND_NONE = 0,
    TRNSOLVER_PRECOND_JACOBI = 1,
    TRNSOLVER_PRECOND_BLOCK_JACOBI = 2, /* diagonal blocks of blockSize, LU-factorised */
    TRNSOLVER_PRECOND_SSOR = 3,         /* symmetric SOR with relaxation omega in (0, 2) */
} trnsolverPrecond_t;

/* Controls of the iterative routines: a host object, read when a routine
 * is called. Zero values mean the routine's default (docs/numerics.md). */
typedef struct trnsolverIterParams *trnsolverIterParams_t;

trnsolverStatus_t trnsolverCreateIterParams(trnsolverIterParams_t *params);
trnsolverStatus_t trnsolverDestroyIterParams(trnsolverIterParams_t params);
/* The stopping tolerance (>= 0, finite; 0: default). */
trnsolverStatus_t trnsolverIterParamsSetTolerance(trnsolverIterParams_t params, double tolerance);
/* The iteration limit (>= 0; 0: default). */
trnsolverStatus_t trnsolverIterParamsSetMaxIters(trnsolverIterParams_t params, int maxIters);
/* GMRES's restart length m (>= 0; 0: default, 30; gmresIr: 50). */
trnsolverStatus_t trnsolverIterParamsSetRestart(trnsolverIterParams_t params, int restart);
/* The Krylov solvers' preconditioner; blockSize (block-Jacobi, 0: 32) and
 * omega (SSOR, 0: 1) apply to the kinds that use them. */
trnsolverStatus_t trnsolverIterParamsSetPreconditioner(trnsolverIterParams_t params,
                                                       trnsolverPrecond_t precond, int blockSize,
                                                       double omega);

/* X = A^(-1/2) for a symmetric positive definite n x n A (both triangles
 * read) by the coupled Newton–Schulz iteration, GEMMs only. iterations:
 * Newton–Schulz steps; residual: ||I - X A X||_F / sqrt(n). Default
 * tolerance 1000 u (on ||I - Z Y||_F / sqrt(n)), max 100 iterations. */
trnsolverStatus_t trnsolverDnSinvSqrtSpd(trnsolverDnHandle_t handle, int n, const float *A, int lda,
                                         float *X, int ldx, trnsolverIterParams_t params,
                                         trnsolverIterResult_t *devResult);
trnsolverStatus_t trnsolverDnDinvSqrtSpd(trnsolverDnHandle_t handle, int n, const double *A,
                                         int lda, double *X, int ldx, trnsolverIterParams_t params,
                                         trnsolverIterResult_t *devResult);

/* A X = B for a symmetric positive definite A (uplo triangle read) in
 * double precision: FP32 Cholesky factorisation, FP64 residuals, iterative
 * refinement (LAPACK dsposv's scheme). iterations: refinement steps;
 * residual: the normwise backward error max_j ||b_j - A x_j||_inf /
 * (||A||_inf ||x_j||_inf + ||b_j||_inf), at most tolerance (default
 * sqrt(n) u_64) on convergence. Falls back to an FP64 Cholesky solve
 * (status FALLBACK) when the FP32 factorisation fails or max iterations
 * (default 30) pass; devInfo > 0 when A is not positive definite even
 * then (X unspecified). */
trnsolverStatus_t trnsolverDnDSsolveSpd(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                        int nrhs, const double *A, int lda, const double *B,
                                        int ldb, double *X, int ldx, trnsolverIterParams_t params,
                                        trnsolverIterResult_t *devResult, int *devInfo);

/* A X = B for a general A in double precision by GMRES-based iterative
 * refinement: FP32 LU with partial pivoting, each correction from FP64
 * GMRES(restart) preconditioned by that LU. iterations: the most
 * refinement steps any column took; residual, tolerance, fallback (FP64
 * LU) and devInfo (> 0: exactly singular) as trnsolverDnDSsolveSpd. */
trnsolverStatus_t trnsolverDnDSgmresIr(trnsolverDnHandle_t handle, int n, int nrhs, const double *A,
                                       int lda, const double *B, int ldb, double *X, int ldx,
                                       trnsolverIterParams_t params,
                                       trnsolverIterResult_t *devResult, int *devInfo);

/* ---- Krylov solvers -------------------------------------------------------------
 * The operator A of a Krylov solver: a dense n x n matrix or a trnsparse
 * CSR / BSR matrix in device memory, read when each solve runs (the
 * operator keeps the pointers, never the data). */
typedef struct trnsolverOperator *trnsolverOperator_t;

trnsolverStatus_t trnsolverCreateDenseOperatorS(trnsolverOperator_t *op, int n, const float *A,
                                                int lda);
trnsolverStatus_t trnsolverCreateDenseOperatorD(trnsolverOperator_t *op, int n, const double *A,
                                                int lda);
/* A sparse operator from a trnsparse matrix descriptor: CSR or BSR, square
 * (rows = cols = n elements; BSR with square or rectangular blocks), value
 * type TRNSCI_R_32F (use with the S solvers) or TRNSCI_R_64F (D), 32- or
 * 64-bit indices, base 0 or 1. The descriptor's fields (sizes and device
 * pointers) are copied now, so it may be destroyed afterwards; the arrays
 * are read when each solve runs, and bad contents (row offsets that are
 * not the base first, decrease or pass nnz; a column index outside
 * [base, n - 1 + base]) fail that solve with TRNSOLVER_STATUS_INVALID_VALUE
 * at the next synchronize, with a message naming the array and position.
 * Needs protocol 1.5 (TRNSOLVER_STATUS_NOT_SUPPORTED from an older daemon
 * at the solver call). */
trnsolverStatus_t trnsolverCreateSparseOperator(trnsolverOperator_t *op,
                                                trnsparseConstSpMatDescr_t matA);
/* Frees a dense or sparse operator (not the matrix it names). */
trnsolverStatus_t trnsolverDestroyOperator(trnsolverOperator_t op);

/* A x = b: x (n values in device memory) holds the initial guess and
 * receives the solution; the operator's type must match (S: float, D:
 * double). CG needs A symmetric positive definite (its preconditioners are
 * then symmetric positive definite too), GMRES and BiCGStab take any
 * non-singular A. They stop when ||b - A x||_2 / ||b||_2
 * <= tolerance (default 1e-5 for S, 1e-10 for D) or after max iterations
 * (default 10 n; GMRES counts its inner steps). residual: that relative
 * residual, recomputed from the returned x. Inner products are accumulated
 * in double (S) or compensated (D). */
trnsolverStatus_t trnsolverScg(trnsolverDnHandle_t handle, trnsolverOperator_t A, const float *b,
                               float *x, trnsolverIterParams_t params,
                               trnsolverIterResult_t *devResult);
trnsolverStatus_t trnsolverDcg(trnsolverDnHandle_t handle, trnsolverOperator_t A, const double *b,
                               double *x, trnsolverIterParams_t params,
                               trnsolverIterResult_t *devResult);
trnsolverStatus_t trnsolverSgmres(trnsolverDnHandle_t handle, trnsolverOperator_t A, const float *b,
                                  float *x, trnsolverIterParams_t params,
                                  trnsolverIterResult_t *devResult);
trnsolverStatus_t trnsolverDgmres(trnsolverDnHandle_t handle, trnsolverOperator_t A,
                                  const double *b, double *x, trnsolverIterParams_t params,
                                  trnsolverIterResult_t *devResult);
trnsolverStatus_t trnsolverSbicgstab(trnsolverDnHandle_t handle, trnsolverOperator_t A,
                                     const float *b, float *x, trnsolverIterParams_t params,
                                     trnsolverIterResult_t *devResult);
trnsolverStatus_t trnsolverDbicgstab(trnsolverDnHandle_t handle, trnsolverOperator_t A,
                                     const double *b, double *x, trnsolverIterParams_t params,
                                     trnsolverIterResult_t *devResult);

/* ---- symmetric indefinite, row interchanges, U U^H (protocol 1.14) ---------------
 *
 * <t>sytrf: Bunch-Kaufman P A P^T = L D L^T (uplo LOWER) or U D U^T
 * (UPPER) of the symmetric n x n A, in place in A's uplo triangle; D has
 * 1x1 and 2x2 blocks. For C and Z, A is complex symmetric (A = A^T, not
 * Hermitian), as cuSOLVER's and LAPACK's csytrf. ipiv (n int, 1-based) has
 * LAPACK's convention: ipiv[k] > 0, a 1x1 block with rows k+1 and ipiv[k]
 * interchanged; ipiv[k] = ipiv[k+1] < 0 (lower; ipiv[k-1] = ipiv[k] upper),
 * a 2x2 block with row -ipiv[k] interchanged. ipiv NULL: no pivoting (1x1
 * blocks only, not stable), as cuSOLVER. devInfo: 0, or i > 0 when D(i,i)
 * is exactly zero (the factorisation is complete, D is singular).
 * <t>sytri: A := inv(A) (its uplo triangle) from sytrf's output; info i > 0
 * when D(i,i) is zero (A is then unchanged).
 * trnsolverDnXsytrs: solves A X = B with sytrf's factors and 64-bit
 * pivots (their low 32 bits are used: as Xgetrs, a stream-ordered
 * temporary holds them narrowed).
 * <t>laswp: LAPACK's laswp: row interchanges k1..k2 (1-based) of the
 * lda x n array A, row i with row devIpiv[k1-1 + (i-k1)*incx] (incx < 0
 * runs backwards, 0 does nothing); every devIpiv entry must be in
 * [1, lda] (else the launch's error is INVALID_VALUE, reported at the next
 * synchronising call). No devInfo.
 * <t>lauum: A := U U^H (UPPER) or L^H L (LOWER) of the triangle of A, in
 * that triangle; devInfo 0.
 * The _bufferSize calls report 0: the daemon owns the workspace
 * (docs/rosetta.md). */

trnsolverStatus_t trnsolverDnSsytrf_bufferSize(trnsolverDnHandle_t handle, int n, float *A, int lda,
                                               int *lwork);
trnsolverStatus_t trnsolverDnDsytrf_bufferSize(trnsolverDnHandle_t handle, int n, double *A,
                                               int lda, int *lwork);
trnsolverStatus_t trnsolverDnCsytrf_bufferSize(trnsolverDnHandle_t handle, int n, trnComplex *A,
                                               int lda, int *lwork);
trnsolverStatus_t trnsolverDnZsytrf_bufferSize(trnsolverDnHandle_t handle, int n,
                                               trnDoubleComplex *A, int lda, int *lwork);
trnsolverStatus_t trnsolverDnSsytrf(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    float *A, int lda, int *ipiv, float *work, int lwork,
                                    int *devInfo);
trnsolverStatus_t trnsolverDnDsytrf(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    double *A, int lda, int *ipiv, double *work, int lwork,
                                    int *devInfo);
trnsolverStatus_t trnsolverDnCsytrf(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    trnComplex *A, int lda, int *ipiv, trnComplex *work, int lwork,
                                    int *devInfo);
trnsolverStatus_t trnsolverDnZsytrf(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    trnDoubleComplex *A, int lda, int *ipiv, trnDoubleComplex *work,
                                    int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnSsytri_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, float *A, int lda, const int *ipiv,
                                               int *lwork);
trnsolverStatus_t trnsolverDnDsytri_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, double *A, int lda, const int *ipiv,
                                               int *lwork);
trnsolverStatus_t trnsolverDnCsytri_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, trnComplex *A, int lda, const int *ipiv,
                                               int *lwork);
trnsolverStatus_t trnsolverDnZsytri_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, trnDoubleComplex *A, int lda, const int *ipiv,
                                               int *lwork);
trnsolverStatus_t trnsolverDnSsytri(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    float *A, int lda, const int *ipiv, float *work, int lwork,
                                    int *devInfo);
trnsolverStatus_t trnsolverDnDsytri(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    double *A, int lda, const int *ipiv, double *work, int lwork,
                                    int *devInfo);
trnsolverStatus_t trnsolverDnCsytri(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    trnComplex *A, int lda, const int *ipiv, trnComplex *work,
                                    int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnZsytri(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    trnDoubleComplex *A, int lda, const int *ipiv,
                                    trnDoubleComplex *work, int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnXsytrs_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int64_t n, int64_t nrhs, trnsciDataType_t dataTypeA,
                                               const void *A, int64_t lda, const int64_t *ipiv,
                                               trnsciDataType_t dataTypeB, void *B, int64_t ldb,
                                               size_t *workspaceInBytesOnDevice,
                                               size_t *workspaceInBytesOnHost);
trnsolverStatus_t trnsolverDnXsytrs(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                    int64_t nrhs, trnsciDataType_t dataTypeA, const void *A,
                                    int64_t lda, const int64_t *ipiv, trnsciDataType_t dataTypeB,
                                    void *B, int64_t ldb, void *bufferOnDevice,
                                    size_t workspaceInBytesOnDevice, void *bufferOnHost,
                                    size_t workspaceInBytesOnHost, int *info);
trnsolverStatus_t trnsolverDnSlaswp(trnsolverDnHandle_t handle, int n, float *A, int lda, int k1,
                                    int k2, const int *devIpiv, int incx);
trnsolverStatus_t trnsolverDnDlaswp(trnsolverDnHandle_t handle, int n, double *A, int lda, int k1,
                                    int k2, const int *devIpiv, int incx);
trnsolverStatus_t trnsolverDnClaswp(trnsolverDnHandle_t handle, int n, trnComplex *A, int lda,
                                    int k1, int k2, const int *devIpiv, int incx);
trnsolverStatus_t trnsolverDnZlaswp(trnsolverDnHandle_t handle, int n, trnDoubleComplex *A, int lda,
                                    int k1, int k2, const int *devIpiv, int incx);
trnsolverStatus_t trnsolverDnSlauum_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, float *A, int lda, int *lwork);
trnsolverStatus_t trnsolverDnDlauum_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, double *A, int lda, int *lwork);
trnsolverStatus_t trnsolverDnClauum_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, trnComplex *A, int lda, int *lwork);
trnsolverStatus_t trnsolverDnZlauum_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, trnDoubleComplex *A, int lda, int *lwork);
trnsolverStatus_t trnsolverDnSlauum(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    float *A, int lda, float *work, int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnDlauum(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    double *A, int lda, double *work, int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnClauum(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    trnComplex *A, int lda, trnComplex *work, int lwork,
                                    int *devInfo);
trnsolverStatus_t trnsolverDnZlauum(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    trnDoubleComplex *A, int lda, trnDoubleComplex *work, int lwork,
                                    int *devInfo);

/* <t>gesvdjBatched: the SVD of batchSize m x n matrices (m, n <= 32, as
 * cuSOLVER) stored one after another (matrix i at A + i*lda*n; S + i*min(m,n),
 * U + i*ldu*m, V + i*ldv*n, info + i), each as <t>gesvdj with econ = 0 (full
 * U and V): one gesvdj per matrix queued in order on the handle's stream.
 * Singular values are sorted descending whatever SetSortEig says, and
 * params' residual and sweeps are those of the last matrix (cuSOLVER's are
 * not defined for the batched routine). */
trnsolverStatus_t trnsolverDnSgesvdjBatched_bufferSize(trnsolverDnHandle_t handle,
                                                       trnsolverEigMode_t jobz, int m, int n,
                                                       const float *A, int lda, const float *S,
                                                       const float *U, int ldu, const float *V,
                                                       int ldv, int *lwork, gesvdjInfo_t params,
                                                       int batchSize);
trnsolverStatus_t trnsolverDnDgesvdjBatched_bufferSize(trnsolverDnHandle_t handle,
                                                       trnsolverEigMode_t jobz, int m, int n,
                                                       const double *A, int lda, const double *S,
                                                       const double *U, int ldu, const double *V,
                                                       int ldv, int *lwork, gesvdjInfo_t params,
                                                       int batchSize);
trnsolverStatus_t trnsolverDnCgesvdjBatched_bufferSize(trnsolverDnHandle_t handle,
                                                       trnsolverEigMode_t jobz, int m, int n,
                                                       const trnComplex *A, int lda, const float *S,
                                                       const trnComplex *U, int ldu,
                                                       const trnComplex *V, int ldv, int *lwork,
                                                       gesvdjInfo_t params, int batchSize);
trnsolverStatus_t
trnsolverDnZgesvdjBatched_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int m,
                                     int n, const trnDoubleComplex *A, int lda, const double *S,
                                     const trnDoubleComplex *U, int ldu, const trnDoubleComplex *V,
                                     int ldv, int *lwork, gesvdjInfo_t params, int batchSize);
trnsolverStatus_t trnsolverDnSgesvdjBatched(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                            int m, int n, float *A, int lda, float *S, float *U,
                                            int ldu, float *V, int ldv, float *work, int lwork,
                                            int *info, gesvdjInfo_t params, int batchSize);
trnsolverStatus_t trnsolverDnDgesvdjBatched(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                            int m, int n, double *A, int lda, double *S, double *U,
                                            int ldu, double *V, int ldv, double *work, int lwork,
                                            int *info, gesvdjInfo_t params, int batchSize);
trnsolverStatus_t trnsolverDnCgesvdjBatched(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                            int m, int n, trnComplex *A, int lda, float *S,
                                            trnComplex *U, int ldu, trnComplex *V, int ldv,
                                            trnComplex *work, int lwork, int *info,
                                            gesvdjInfo_t params, int batchSize);
trnsolverStatus_t trnsolverDnZgesvdjBatched(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                            int m, int n, trnDoubleComplex *A, int lda, double *S,
                                            trnDoubleComplex *U, int ldu, trnDoubleComplex *V,
                                            int ldv, trnDoubleComplex *work, int lwork, int *info,
                                            gesvdjInfo_t params, int batchSize);

/* <t>sytrd / <t>hetrd: Householder reduction A = Q T Q^H of the symmetric
 * (Hermitian) A's uplo triangle to real tridiagonal T: d (n reals) its
 * diagonal, e (n-1 reals) its off-diagonal, the n-1 reflectors in A and
 * tau as LAPACK stores them (LOWER: Q = H(1) ... H(n-1), UPPER: Q =
 * H(n-1) ... H(1)). <t>orgtr / <t>ungtr: A := Q (n x n) from them.
 * <t>ormtr / <t>unmtr: C := op(Q) C (LEFT, Q of order m) or C op(Q) (RIGHT,
 * order n), op N or T (real) / C (complex). devInfo 0 (protocol 1.14). */
trnsolverStatus_t trnsolverDnSsytrd_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, const float *A, int lda, const float *d,
                                               const float *e, const float *tau, int *lwork);
trnsolverStatus_t trnsolverDnSsytrd(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    float *A, int lda, float *d, float *e, float *tau, float *work,
                                    int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnDsytrd_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, const double *A, int lda, const double *d,
                                               const double *e, const double *tau, int *lwork);
trnsolverStatus_t trnsolverDnDsytrd(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    double *A, int lda, double *d, double *e, double *tau,
                                    double *work, int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnChetrd_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, const trnComplex *A, int lda, const float *d,
                                               const float *e, const trnComplex *tau, int *lwork);
trnsolverStatus_t trnsolverDnChetrd(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    trnComplex *A, int lda, float *d, float *e, trnComplex *tau,
                                    trnComplex *work, int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnZhetrd_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, const trnDoubleComplex *A, int lda,
                                               const double *d, const double *e,
                                               const trnDoubleComplex *tau, int *lwork);
trnsolverStatus_t trnsolverDnZhetrd(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    trnDoubleComplex *A, int lda, double *d, double *e,
                                    trnDoubleComplex *tau, trnDoubleComplex *work, int lwork,
                                    int *devInfo);
trnsolverStatus_t trnsolverDnSorgtr_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, const float *A, int lda, const float *tau,
                                               int *lwork);
trnsolverStatus_t trnsolverDnSorgtr(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    float *A, int lda, const float *tau, float *work, int lwork,
                                    int *devInfo);
trnsolverStatus_t trnsolverDnDorgtr_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, const double *A, int lda, const double *tau,
                                               int *lwork);
trnsolverStatus_t trnsolverDnDorgtr(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    double *A, int lda, const double *tau, double *work, int lwork,
                                    int *devInfo);
trnsolverStatus_t trnsolverDnCungtr_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, const trnComplex *A, int lda,
                                               const trnComplex *tau, int *lwork);
trnsolverStatus_t trnsolverDnCungtr(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    trnComplex *A, int lda, const trnComplex *tau, trnComplex *work,
                                    int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnZungtr_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int n, const trnDoubleComplex *A, int lda,
                                               const trnDoubleComplex *tau, int *lwork);
trnsolverStatus_t trnsolverDnZungtr(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                    trnDoubleComplex *A, int lda, const trnDoubleComplex *tau,
                                    trnDoubleComplex *work, int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnSormtr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side,
                                               trnblasFillMode_t uplo, trnblasOperation_t trans,
                                               int m, int n, const float *A, int lda,
                                               const float *tau, const float *C, int ldc,
                                               int *lwork);
trnsolverStatus_t trnsolverDnSormtr(trnsolverDnHandle_t handle, trnblasSideMode_t side,
                                    trnblasFillMode_t uplo, trnblasOperation_t trans, int m, int n,
                                    float *A, int lda, float *tau, float *C, int ldc, float *work,
                                    int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnDormtr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side,
                                               trnblasFillMode_t uplo, trnblasOperation_t trans,
                                               int m, int n, const double *A, int lda,
                                               const double *tau, const double *C, int ldc,
                                               int *lwork);
trnsolverStatus_t trnsolverDnDormtr(trnsolverDnHandle_t handle, trnblasSideMode_t side,
                                    trnblasFillMode_t uplo, trnblasOperation_t trans, int m, int n,
                                    double *A, int lda, double *tau, double *C, int ldc,
                                    double *work, int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnCunmtr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side,
                                               trnblasFillMode_t uplo, trnblasOperation_t trans,
                                               int m, int n, const trnComplex *A, int lda,
                                               const trnComplex *tau, const trnComplex *C, int ldc,
                                               int *lwork);
trnsolverStatus_t trnsolverDnCunmtr(trnsolverDnHandle_t handle, trnblasSideMode_t side,
                                    trnblasFillMode_t uplo, trnblasOperation_t trans, int m, int n,
                                    trnComplex *A, int lda, trnComplex *tau, trnComplex *C, int ldc,
                                    trnComplex *work, int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnZunmtr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side,
                                               trnblasFillMode_t uplo, trnblasOperation_t trans,
                                               int m, int n, const trnDoubleComplex *A, int lda,
                                               const trnDoubleComplex *tau,
                                               const trnDoubleComplex *C, int ldc, int *lwork);
trnsolverStatus_t trnsolverDnZunmtr(trnsolverDnHandle_t handle, trnblasSideMode_t side,
                                    trnblasFillMode_t uplo, trnblasOperation_t trans, int m, int n,
                                    trnDoubleComplex *A, int lda, trnDoubleComplex *tau,
                                    trnDoubleComplex *C, int ldc, trnDoubleComplex *work, int lwork,
                                    int *devInfo);

/* <t>gebrd: Householder reduction Q^H A P = B of the m x n A (m >= n, as
 * cuSOLVER requires; m < n is INVALID_VALUE) to real upper bidiagonal B:
 * D (n reals) its diagonal, E (n - 1 reals) its superdiagonal; Q =
 * H(1) ... H(n) and P = G(1) ... G(n-1) as reflectors in A and TAUQ, TAUP
 * (n each, TAUP(n) = 0) as LAPACK stores them. <t>orgbr / <t>ungbr: A (m x
 * n) := Q's first n columns (side LEFT: m >= n >= min(m, k), k the
 * columns gebrd reduced) or P^H's first m rows (side RIGHT: n >= m >=
 * min(n, k), k the rows gebrd reduced), from A and tau (TAUQ or TAUP).
 * devInfo 0; _bufferSize reports 0 (protocol 1.15). */
trnsolverStatus_t trnsolverDnSgebrd_bufferSize(trnsolverDnHandle_t handle, int m, int n,
                                               int *Lwork);
trnsolverStatus_t trnsolverDnDgebrd_bufferSize(trnsolverDnHandle_t handle, int m, int n,
                                               int *Lwork);
trnsolverStatus_t trnsolverDnCgebrd_bufferSize(trnsolverDnHandle_t handle, int m, int n,
                                               int *Lwork);
trnsolverStatus_t trnsolverDnZgebrd_bufferSize(trnsolverDnHandle_t handle, int m, int n,
                                               int *Lwork);
trnsolverStatus_t trnsolverDnSgebrd(trnsolverDnHandle_t handle, int m, int n, float *A, int lda,
                                    float *D, float *E, float *TAUQ, float *TAUP, float *Work,
                                    int Lwork, int *devInfo);
trnsolverStatus_t trnsolverDnDgebrd(trnsolverDnHandle_t handle, int m, int n, double *A, int lda,
                                    double *D, double *E, double *TAUQ, double *TAUP, double *Work,
                                    int Lwork, int *devInfo);
trnsolverStatus_t trnsolverDnCgebrd(trnsolverDnHandle_t handle, int m, int n, trnComplex *A,
                                    int lda, float *D, float *E, trnComplex *TAUQ, trnComplex *TAUP,
                                    trnComplex *Work, int Lwork, int *devInfo);
trnsolverStatus_t trnsolverDnZgebrd(trnsolverDnHandle_t handle, int m, int n, trnDoubleComplex *A,
                                    int lda, double *D, double *E, trnDoubleComplex *TAUQ,
                                    trnDoubleComplex *TAUP, trnDoubleComplex *Work, int Lwork,
                                    int *devInfo);
trnsolverStatus_t trnsolverDnSorgbr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side,
                                               int m, int n, int k, const float *A, int lda,
                                               const float *tau, int *lwork);
trnsolverStatus_t trnsolverDnDorgbr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side,
                                               int m, int n, int k, const double *A, int lda,
                                               const double *tau, int *lwork);
trnsolverStatus_t trnsolverDnCungbr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side,
                                               int m, int n, int k, const trnComplex *A, int lda,
                                               const trnComplex *tau, int *lwork);
trnsolverStatus_t trnsolverDnZungbr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side,
                                               int m, int n, int k, const trnDoubleComplex *A,
                                               int lda, const trnDoubleComplex *tau, int *lwork);
trnsolverStatus_t trnsolverDnSorgbr(trnsolverDnHandle_t handle, trnblasSideMode_t side, int m,
                                    int n, int k, float *A, int lda, const float *tau, float *work,
                                    int lwork, int *info);
trnsolverStatus_t trnsolverDnDorgbr(trnsolverDnHandle_t handle, trnblasSideMode_t side, int m,
                                    int n, int k, double *A, int lda, const double *tau,
                                    double *work, int lwork, int *info);
trnsolverStatus_t trnsolverDnCungbr(trnsolverDnHandle_t handle, trnblasSideMode_t side, int m,
                                    int n, int k, trnComplex *A, int lda, const trnComplex *tau,
                                    trnComplex *work, int lwork, int *info);
trnsolverStatus_t trnsolverDnZungbr(trnsolverDnHandle_t handle, trnblasSideMode_t side, int m,
                                    int n, int k, trnDoubleComplex *A, int lda,
                                    const trnDoubleComplex *tau, trnDoubleComplex *work, int lwork,
                                    int *info);

/* ---- mixed-precision iterative refinement solvers (cuSOLVER's IRS) --------------------
 *
 * A X = B for a general n x n A (LU with partial pivoting) in a lower
 * precision, refined in the main precision (the type of A, B, X) until every
 * column satisfies ||b - A x||_inf <= ||x||_inf ||A||_inf tol, tol by
 * default sqrt(n) times the main precision's unit roundoff (LAPACK's
 * xLAMCH('E')) and at most 50 iterations. The lower formats binary16 (H, K),
 * bfloat16 (B, E) and TF32 (X, Y) are emulated: A is rounded to the format
 * and factorised in FP32 arithmetic (docs/numerics.md). When refinement
 * fails, X is solved again by an LU in the main precision (the fallback,
 * on by default). A and B are only read (cuSOLVER may overwrite A); X may
 * be B (it is solved from a copy of B) but must not overlap A.
 *
 * iter / niters (host output; the call waits for the handle's stream):
 * > 0 refinement steps; 0 for a main-precision solve (DD, SS, ZZ, CC) or
 * refinement NONE; < 0 refinement failed and (unless disabled) the fallback
 * solved: -2 an entry of A overflows the lowest format, -3 the
 * low-precision LU found a zero pivot, -5 a non-finite residual, -maxiters
 * no convergence. d_info (device): 0, or i > 0 when U(i,i) of the
 * main-precision LU is exactly zero. dipiv (device, may be NULL): the n
 * pivots (1-based) of the LU X came from.
 *
 * dWorkspace is device memory of lwork_bytes >= what _bufferSize returns:
 * it carries the iteration record and residual history back (16 bytes +
 * 16 (maxiters + 1)). Refinement GMRES, CLASSICAL_GMRES and GMRES_GMRES
 * all solve each correction A d = r by GMRES(min(n, 50, maxiters)) in
 * double (complex) arithmetic right-preconditioned by the low-precision LU,
 * to a relative residual of 1e-4 (GMRES_NOPCOND: without the LU); iter
 * then counts GMRES steps, as cuSOLVER's total niters. TolInner and
 * MaxItersInner are stored but unused. Protocol 1.14. */
typedef struct trnsolverDnIRSParams *trnsolverDnIRSParams_t;
typedef struct trnsolverDnIRSInfos *trnsolverDnIRSInfos_t;
/* DD: the LU in FP64 (a plain LU solve). */
trnsolverStatus_t trnsolverDnDDgesv_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                               trnsolver_int_t nrhs, double *dA,
                                               trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                               double *dB, trnsolver_int_t lddb, double *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnDDgesv(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                    trnsolver_int_t nrhs, double *dA, trnsolver_int_t ldda,
                                    trnsolver_int_t *dipiv, double *dB, trnsolver_int_t lddb,
                                    double *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* DS: the LU in FP32. */
trnsolverStatus_t trnsolverDnDSgesv_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                               trnsolver_int_t nrhs, double *dA,
                                               trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                               double *dB, trnsolver_int_t lddb, double *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnDSgesv(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                    trnsolver_int_t nrhs, double *dA, trnsolver_int_t ldda,
                                    trnsolver_int_t *dipiv, double *dB, trnsolver_int_t lddb,
                                    double *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* DH: the LU in binary16. */
trnsolverStatus_t trnsolverDnDHgesv_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                               trnsolver_int_t nrhs, double *dA,
                                               trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                               double *dB, trnsolver_int_t lddb, double *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnDHgesv(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                    trnsolver_int_t nrhs, double *dA, trnsolver_int_t ldda,
                                    trnsolver_int_t *dipiv, double *dB, trnsolver_int_t lddb,
                                    double *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* DB: the LU in bfloat16. */
trnsolverStatus_t trnsolverDnDBgesv_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                               trnsolver_int_t nrhs, double *dA,
                                               trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                               double *dB, trnsolver_int_t lddb, double *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnDBgesv(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                    trnsolver_int_t nrhs, double *dA, trnsolver_int_t ldda,
                                    trnsolver_int_t *dipiv, double *dB, trnsolver_int_t lddb,
                                    double *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* DX: the LU in TF32. */
trnsolverStatus_t trnsolverDnDXgesv_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                               trnsolver_int_t nrhs, double *dA,
                                               trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                               double *dB, trnsolver_int_t lddb, double *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnDXgesv(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                    trnsolver_int_t nrhs, double *dA, trnsolver_int_t ldda,
                                    trnsolver_int_t *dipiv, double *dB, trnsolver_int_t lddb,
                                    double *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* SS: the LU in FP32 (a plain LU solve). */
trnsolverStatus_t trnsolverDnSSgesv_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                               trnsolver_int_t nrhs, float *dA,
                                               trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                               float *dB, trnsolver_int_t lddb, float *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnSSgesv(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                    trnsolver_int_t nrhs, float *dA, trnsolver_int_t ldda,
                                    trnsolver_int_t *dipiv, float *dB, trnsolver_int_t lddb,
                                    float *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* SH: the LU in binary16. */
trnsolverStatus_t trnsolverDnSHgesv_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                               trnsolver_int_t nrhs, float *dA,
                                               trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                               float *dB, trnsolver_int_t lddb, float *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnSHgesv(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                    trnsolver_int_t nrhs, float *dA, trnsolver_int_t ldda,
                                    trnsolver_int_t *dipiv, float *dB, trnsolver_int_t lddb,
                                    float *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* SB: the LU in bfloat16. */
trnsolverStatus_t trnsolverDnSBgesv_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                               trnsolver_int_t nrhs, float *dA,
                                               trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                               float *dB, trnsolver_int_t lddb, float *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnSBgesv(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                    trnsolver_int_t nrhs, float *dA, trnsolver_int_t ldda,
                                    trnsolver_int_t *dipiv, float *dB, trnsolver_int_t lddb,
                                    float *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* SX: the LU in TF32. */
trnsolverStatus_t trnsolverDnSXgesv_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                               trnsolver_int_t nrhs, float *dA,
                                               trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                               float *dB, trnsolver_int_t lddb, float *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnSXgesv(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                    trnsolver_int_t nrhs, float *dA, trnsolver_int_t ldda,
                                    trnsolver_int_t *dipiv, float *dB, trnsolver_int_t lddb,
                                    float *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* ZZ: the LU in complex FP64 (a plain LU solve). */
trnsolverStatus_t trnsolverDnZZgesv_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                               trnsolver_int_t nrhs, trnDoubleComplex *dA,
                                               trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                               trnDoubleComplex *dB, trnsolver_int_t lddb,
                                               trnDoubleComplex *dX, trnsolver_int_t lddx,
                                               void *dWorkspace, size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnZZgesv(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                    trnsolver_int_t nrhs, trnDoubleComplex *dA,
                                    trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                    trnDoubleComplex *dB, trnsolver_int_t lddb,
                                    trnDoubleComplex *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* ZC: the LU in complex FP32. */
trnsolverStatus_t trnsolverDnZCgesv_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                               trnsolver_int_t nrhs, trnDoubleComplex *dA,
                                               trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                               trnDoubleComplex *dB, trnsolver_int_t lddb,
                                               trnDoubleComplex *dX, trnsolver_int_t lddx,
                                               void *dWorkspace, size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnZCgesv(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                    trnsolver_int_t nrhs, trnDoubleComplex *dA,
                                    trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                    trnDoubleComplex *dB, trnsolver_int_t lddb,
                                    trnDoubleComplex *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* ZK: the LU in complex binary16. */
trnsolverStatus_t trnsolverDnZKgesv_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                               trnsolver_int_t nrhs, trnDoubleComplex *dA,
                                               trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                               trnDoubleComplex *dB, trnsolver_int_t lddb,
                                               trnDoubleComplex *dX, trnsolver_int_t lddx,
                                               void *dWorkspace, size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnZKgesv(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                    trnsolver_int_t nrhs, trnDoubleComplex *dA,
                                    trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                    trnDoubleComplex *dB, trnsolver_int_t lddb,
                                    trnDoubleComplex *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* ZE: the LU in complex bfloat16. */
trnsolverStatus_t trnsolverDnZEgesv_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                               trnsolver_int_t nrhs, trnDoubleComplex *dA,
                                               trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                               trnDoubleComplex *dB, trnsolver_int_t lddb,
                                               trnDoubleComplex *dX, trnsolver_int_t lddx,
                                               void *dWorkspace, size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnZEgesv(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                    trnsolver_int_t nrhs, trnDoubleComplex *dA,
                                    trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                    trnDoubleComplex *dB, trnsolver_int_t lddb,
                                    trnDoubleComplex *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* ZY: the LU in complex TF32. */
trnsolverStatus_t trnsolverDnZYgesv_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                               trnsolver_int_t nrhs, trnDoubleComplex *dA,
                                               trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                               trnDoubleComplex *dB, trnsolver_int_t lddb,
                                               trnDoubleComplex *dX, trnsolver_int_t lddx,
                                               void *dWorkspace, size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnZYgesv(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                    trnsolver_int_t nrhs, trnDoubleComplex *dA,
                                    trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                    trnDoubleComplex *dB, trnsolver_int_t lddb,
                                    trnDoubleComplex *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* CC: the LU in complex FP32 (a plain LU solve). */
trnsolverStatus_t trnsolverDnCCgesv_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                               trnsolver_int_t nrhs, trnComplex *dA,
                                               trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                               trnComplex *dB, trnsolver_int_t lddb, trnComplex *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnCCgesv(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                    trnsolver_int_t nrhs, trnComplex *dA, trnsolver_int_t ldda,
                                    trnsolver_int_t *dipiv, trnComplex *dB, trnsolver_int_t lddb,
                                    trnComplex *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* CK: the LU in complex binary16. */
trnsolverStatus_t trnsolverDnCKgesv_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                               trnsolver_int_t nrhs, trnComplex *dA,
                                               trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                               trnComplex *dB, trnsolver_int_t lddb, trnComplex *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnCKgesv(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                    trnsolver_int_t nrhs, trnComplex *dA, trnsolver_int_t ldda,
                                    trnsolver_int_t *dipiv, trnComplex *dB, trnsolver_int_t lddb,
                                    trnComplex *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* CE: the LU in complex bfloat16. */
trnsolverStatus_t trnsolverDnCEgesv_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                               trnsolver_int_t nrhs, trnComplex *dA,
                                               trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                               trnComplex *dB, trnsolver_int_t lddb, trnComplex *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnCEgesv(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                    trnsolver_int_t nrhs, trnComplex *dA, trnsolver_int_t ldda,
                                    trnsolver_int_t *dipiv, trnComplex *dB, trnsolver_int_t lddb,
                                    trnComplex *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* CY: the LU in complex TF32. */
trnsolverStatus_t trnsolverDnCYgesv_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                               trnsolver_int_t nrhs, trnComplex *dA,
                                               trnsolver_int_t ldda, trnsolver_int_t *dipiv,
                                               trnComplex *dB, trnsolver_int_t lddb, trnComplex *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnCYgesv(trnsolverDnHandle_t handle, trnsolver_int_t n,
                                    trnsolver_int_t nrhs, trnComplex *dA, trnsolver_int_t ldda,
                                    trnsolver_int_t *dipiv, trnComplex *dB, trnsolver_int_t lddb,
                                    trnComplex *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* The expert interface's settings. Create gives: main precision unset
 * (it must be set), lowest = main, refinement NOT_SET (it must be set),
 * tol 0 (the default above), maxiters 50, fallback enabled. Set functions
 * on NULL give IRS_PARAMS_NOT_INITIALIZED; a tolerance must be finite and
 * >= 0 (0: the default), maxiters >= 1, maxiters_inner <= maxiters
 * (IRS_PARAMS_INVALID). Precisions are checked when a solver is called. */
trnsolverStatus_t trnsolverDnIRSParamsCreate(trnsolverDnIRSParams_t *params_ptr);
trnsolverStatus_t trnsolverDnIRSParamsDestroy(trnsolverDnIRSParams_t params);
trnsolverStatus_t
trnsolverDnIRSParamsSetRefinementSolver(trnsolverDnIRSParams_t params,
                                        trnsolverIRSRefinement_t refinement_solver);
trnsolverStatus_t
trnsolverDnIRSParamsSetSolverMainPrecision(trnsolverDnIRSParams_t params,
                                           trnsolverPrecType_t solver_main_precision);
trnsolverStatus_t
trnsolverDnIRSParamsSetSolverLowestPrecision(trnsolverDnIRSParams_t params,
                                             trnsolverPrecType_t solver_lowest_precision);
trnsolverStatus_t
trnsolverDnIRSParamsSetSolverPrecisions(trnsolverDnIRSParams_t params,
                                        trnsolverPrecType_t solver_main_precision,
                                        trnsolverPrecType_t solver_lowest_precision);
trnsolverStatus_t trnsolverDnIRSParamsSetTol(trnsolverDnIRSParams_t params, double val);
trnsolverStatus_t trnsolverDnIRSParamsSetTolInner(trnsolverDnIRSParams_t params, double val);
trnsolverStatus_t trnsolverDnIRSParamsSetMaxIters(trnsolverDnIRSParams_t params,
                                                  trnsolver_int_t maxiters);
trnsolverStatus_t trnsolverDnIRSParamsSetMaxItersInner(trnsolverDnIRSParams_t params,
                                                       trnsolver_int_t maxiters_inner);
trnsolverStatus_t trnsolverDnIRSParamsGetMaxIters(trnsolverDnIRSParams_t params,
                                                  trnsolver_int_t *maxiters);
trnsolverStatus_t trnsolverDnIRSParamsEnableFallback(trnsolverDnIRSParams_t params);
trnsolverStatus_t trnsolverDnIRSParamsDisableFallback(trnsolverDnIRSParams_t params);

/* The results of one IRSXgesv or IRSXgels call: niters (as iter above), outer niters
 * (reported equal to niters for every refinement), the maxiters it ran
 * with, and, when
 * RequestResidual was called before it, the residual history: a host
 * array of (maxiters + 1) x 2 doubles, row k = (k, max_j ||b_j - A
 * x_j||_inf after k steps), rows past |niters| zero, owned by infos
 * (GetResidualHistory without RequestResidual: INVALID_VALUE). */
trnsolverStatus_t trnsolverDnIRSInfosCreate(trnsolverDnIRSInfos_t *infos_ptr);
trnsolverStatus_t trnsolverDnIRSInfosDestroy(trnsolverDnIRSInfos_t infos);
trnsolverStatus_t trnsolverDnIRSInfosGetNiters(trnsolverDnIRSInfos_t infos,
                                               trnsolver_int_t *niters);
trnsolverStatus_t trnsolverDnIRSInfosGetOuterNiters(trnsolverDnIRSInfos_t infos,
                                                    trnsolver_int_t *outer_niters);
trnsolverStatus_t trnsolverDnIRSInfosGetMaxIters(trnsolverDnIRSInfos_t infos,
                                                 trnsolver_int_t *maxiters);
trnsolverStatus_t trnsolverDnIRSInfosRequestResidual(trnsolverDnIRSInfos_t infos);
trnsolverStatus_t trnsolverDnIRSInfosGetResidualHistory(trnsolverDnIRSInfos_t infos,
                                                        void **residual_history);

/* The expert solver: the precisions, refinement, tolerance, maxiters and
 * fallback of gesv_irs_params; results into gesv_irs_infos (may be NULL)
 * and *niters. */
trnsolverStatus_t trnsolverDnIRSXgesv_bufferSize(trnsolverDnHandle_t handle,
                                                 trnsolverDnIRSParams_t params, trnsolver_int_t n,
                                                 trnsolver_int_t nrhs, size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnIRSXgesv(trnsolverDnHandle_t handle,
                                      trnsolverDnIRSParams_t gesv_irs_params,
                                      trnsolverDnIRSInfos_t gesv_irs_infos, trnsolver_int_t n,
                                      trnsolver_int_t nrhs, void *dA, trnsolver_int_t ldda,
                                      void *dB, trnsolver_int_t lddb, void *dX,
                                      trnsolver_int_t lddx, void *dWorkspace, size_t lwork_bytes,
                                      trnsolver_int_t *niters, trnsolver_int_t *d_info);

/* ---- IRS least squares: <t1><t2>gels, IRSXgels --------------------------------------------
 *
 * min ||A X - B||_2 for a full-rank m x n A with m >= n (overdetermined or
 * square; m < n is INVALID_VALUE, as in cuSOLVER), B m x nrhs, X n x nrhs
 * (lddb >= max(1, m), lddx >= max(1, n)). A Householder QR of A rounded to
 * the lowest format is computed in FP32 arithmetic, and X refined in the
 * main precision on the augmented system [I A; A^H 0] [r; x] = [b; 0]
 * (docs/numerics.md, "IRS gels") until every column satisfies
 * ||A^H (b - A x)||_inf <= tol ||A||_1 (||A||_inf ||x||_inf + ||b||_inf),
 * tol and maxiters as for gesv. The fallback is a QR solve in the main
 * precision. iter / niters: as gesv's, -3 meaning that the low-precision R
 * has a zero (or non-finite) diagonal entry. d_info: 0, or i > 0 when
 * R(i,i) of the main-precision QR is exactly zero (A is rank-deficient; X
 * is not written), as LAPACK's gels. A and B are only read; X may be B
 * (B's first n rows then receive X). Workspace, params and infos as for
 * gesv; the residual history's second column is max_j ||A^H (b_j - A
 * x_j)||_inf. Refinement GMRES, CLASSICAL_GMRES, GMRES_GMRES and
 * GMRES_NOPCOND run the classical refinement for gels. Protocol 1.15. */
/* DD: the QR in FP64 (a plain QR solve). */
trnsolverStatus_t trnsolverDnDDgels_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                               trnsolver_int_t n, trnsolver_int_t nrhs, double *dA,
                                               trnsolver_int_t ldda, double *dB,
                                               trnsolver_int_t lddb, double *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnDDgels(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                    trnsolver_int_t n, trnsolver_int_t nrhs, double *dA,
                                    trnsolver_int_t ldda, double *dB, trnsolver_int_t lddb,
                                    double *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* DS: the QR in FP32. */
trnsolverStatus_t trnsolverDnDSgels_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                               trnsolver_int_t n, trnsolver_int_t nrhs, double *dA,
                                               trnsolver_int_t ldda, double *dB,
                                               trnsolver_int_t lddb, double *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnDSgels(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                    trnsolver_int_t n, trnsolver_int_t nrhs, double *dA,
                                    trnsolver_int_t ldda, double *dB, trnsolver_int_t lddb,
                                    double *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* DH: the QR in binary16. */
trnsolverStatus_t trnsolverDnDHgels_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                               trnsolver_int_t n, trnsolver_int_t nrhs, double *dA,
                                               trnsolver_int_t ldda, double *dB,
                                               trnsolver_int_t lddb, double *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnDHgels(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                    trnsolver_int_t n, trnsolver_int_t nrhs, double *dA,
                                    trnsolver_int_t ldda, double *dB, trnsolver_int_t lddb,
                                    double *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* DB: the QR in bfloat16. */
trnsolverStatus_t trnsolverDnDBgels_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                               trnsolver_int_t n, trnsolver_int_t nrhs, double *dA,
                                               trnsolver_int_t ldda, double *dB,
                                               trnsolver_int_t lddb, double *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnDBgels(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                    trnsolver_int_t n, trnsolver_int_t nrhs, double *dA,
                                    trnsolver_int_t ldda, double *dB, trnsolver_int_t lddb,
                                    double *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* DX: the QR in TF32. */
trnsolverStatus_t trnsolverDnDXgels_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                               trnsolver_int_t n, trnsolver_int_t nrhs, double *dA,
                                               trnsolver_int_t ldda, double *dB,
                                               trnsolver_int_t lddb, double *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnDXgels(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                    trnsolver_int_t n, trnsolver_int_t nrhs, double *dA,
                                    trnsolver_int_t ldda, double *dB, trnsolver_int_t lddb,
                                    double *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* SS: the QR in FP32 (a plain QR solve). */
trnsolverStatus_t trnsolverDnSSgels_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                               trnsolver_int_t n, trnsolver_int_t nrhs, float *dA,
                                               trnsolver_int_t ldda, float *dB,
                                               trnsolver_int_t lddb, float *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnSSgels(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                    trnsolver_int_t n, trnsolver_int_t nrhs, float *dA,
                                    trnsolver_int_t ldda, float *dB, trnsolver_int_t lddb,
                                    float *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* SH: the QR in binary16. */
trnsolverStatus_t trnsolverDnSHgels_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                               trnsolver_int_t n, trnsolver_int_t nrhs, float *dA,
                                               trnsolver_int_t ldda, float *dB,
                                               trnsolver_int_t lddb, float *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnSHgels(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                    trnsolver_int_t n, trnsolver_int_t nrhs, float *dA,
                                    trnsolver_int_t ldda, float *dB, trnsolver_int_t lddb,
                                    float *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* SB: the QR in bfloat16. */
trnsolverStatus_t trnsolverDnSBgels_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                               trnsolver_int_t n, trnsolver_int_t nrhs, float *dA,
                                               trnsolver_int_t ldda, float *dB,
                                               trnsolver_int_t lddb, float *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnSBgels(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                    trnsolver_int_t n, trnsolver_int_t nrhs, float *dA,
                                    trnsolver_int_t ldda, float *dB, trnsolver_int_t lddb,
                                    float *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* SX: the QR in TF32. */
trnsolverStatus_t trnsolverDnSXgels_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                               trnsolver_int_t n, trnsolver_int_t nrhs, float *dA,
                                               trnsolver_int_t ldda, float *dB,
                                               trnsolver_int_t lddb, float *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnSXgels(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                    trnsolver_int_t n, trnsolver_int_t nrhs, float *dA,
                                    trnsolver_int_t ldda, float *dB, trnsolver_int_t lddb,
                                    float *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* ZZ: the QR in complex FP64 (a plain QR solve). */
trnsolverStatus_t trnsolverDnZZgels_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                               trnsolver_int_t n, trnsolver_int_t nrhs,
                                               trnDoubleComplex *dA, trnsolver_int_t ldda,
                                               trnDoubleComplex *dB, trnsolver_int_t lddb,
                                               trnDoubleComplex *dX, trnsolver_int_t lddx,
                                               void *dWorkspace, size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnZZgels(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                    trnsolver_int_t n, trnsolver_int_t nrhs, trnDoubleComplex *dA,
                                    trnsolver_int_t ldda, trnDoubleComplex *dB,
                                    trnsolver_int_t lddb, trnDoubleComplex *dX,
                                    trnsolver_int_t lddx, void *dWorkspace, size_t lwork_bytes,
                                    trnsolver_int_t *iter, trnsolver_int_t *d_info);
/* ZC: the QR in complex FP32. */
trnsolverStatus_t trnsolverDnZCgels_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                               trnsolver_int_t n, trnsolver_int_t nrhs,
                                               trnDoubleComplex *dA, trnsolver_int_t ldda,
                                               trnDoubleComplex *dB, trnsolver_int_t lddb,
                                               trnDoubleComplex *dX, trnsolver_int_t lddx,
                                               void *dWorkspace, size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnZCgels(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                    trnsolver_int_t n, trnsolver_int_t nrhs, trnDoubleComplex *dA,
                                    trnsolver_int_t ldda, trnDoubleComplex *dB,
                                    trnsolver_int_t lddb, trnDoubleComplex *dX,
                                    trnsolver_int_t lddx, void *dWorkspace, size_t lwork_bytes,
                                    trnsolver_int_t *iter, trnsolver_int_t *d_info);
/* ZK: the QR in complex binary16. */
trnsolverStatus_t trnsolverDnZKgels_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                               trnsolver_int_t n, trnsolver_int_t nrhs,
                                               trnDoubleComplex *dA, trnsolver_int_t ldda,
                                               trnDoubleComplex *dB, trnsolver_int_t lddb,
                                               trnDoubleComplex *dX, trnsolver_int_t lddx,
                                               void *dWorkspace, size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnZKgels(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                    trnsolver_int_t n, trnsolver_int_t nrhs, trnDoubleComplex *dA,
                                    trnsolver_int_t ldda, trnDoubleComplex *dB,
                                    trnsolver_int_t lddb, trnDoubleComplex *dX,
                                    trnsolver_int_t lddx, void *dWorkspace, size_t lwork_bytes,
                                    trnsolver_int_t *iter, trnsolver_int_t *d_info);
/* ZE: the QR in complex bfloat16. */
trnsolverStatus_t trnsolverDnZEgels_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                               trnsolver_int_t n, trnsolver_int_t nrhs,
                                               trnDoubleComplex *dA, trnsolver_int_t ldda,
                                               trnDoubleComplex *dB, trnsolver_int_t lddb,
                                               trnDoubleComplex *dX, trnsolver_int_t lddx,
                                               void *dWorkspace, size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnZEgels(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                    trnsolver_int_t n, trnsolver_int_t nrhs, trnDoubleComplex *dA,
                                    trnsolver_int_t ldda, trnDoubleComplex *dB,
                                    trnsolver_int_t lddb, trnDoubleComplex *dX,
                                    trnsolver_int_t lddx, void *dWorkspace, size_t lwork_bytes,
                                    trnsolver_int_t *iter, trnsolver_int_t *d_info);
/* ZY: the QR in complex TF32. */
trnsolverStatus_t trnsolverDnZYgels_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                               trnsolver_int_t n, trnsolver_int_t nrhs,
                                               trnDoubleComplex *dA, trnsolver_int_t ldda,
                                               trnDoubleComplex *dB, trnsolver_int_t lddb,
                                               trnDoubleComplex *dX, trnsolver_int_t lddx,
                                               void *dWorkspace, size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnZYgels(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                    trnsolver_int_t n, trnsolver_int_t nrhs, trnDoubleComplex *dA,
                                    trnsolver_int_t ldda, trnDoubleComplex *dB,
                                    trnsolver_int_t lddb, trnDoubleComplex *dX,
                                    trnsolver_int_t lddx, void *dWorkspace, size_t lwork_bytes,
                                    trnsolver_int_t *iter, trnsolver_int_t *d_info);
/* CC: the QR in complex FP32 (a plain QR solve). */
trnsolverStatus_t trnsolverDnCCgels_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                               trnsolver_int_t n, trnsolver_int_t nrhs,
                                               trnComplex *dA, trnsolver_int_t ldda, trnComplex *dB,
                                               trnsolver_int_t lddb, trnComplex *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnCCgels(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                    trnsolver_int_t n, trnsolver_int_t nrhs, trnComplex *dA,
                                    trnsolver_int_t ldda, trnComplex *dB, trnsolver_int_t lddb,
                                    trnComplex *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* CK: the QR in complex binary16. */
trnsolverStatus_t trnsolverDnCKgels_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                               trnsolver_int_t n, trnsolver_int_t nrhs,
                                               trnComplex *dA, trnsolver_int_t ldda, trnComplex *dB,
                                               trnsolver_int_t lddb, trnComplex *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnCKgels(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                    trnsolver_int_t n, trnsolver_int_t nrhs, trnComplex *dA,
                                    trnsolver_int_t ldda, trnComplex *dB, trnsolver_int_t lddb,
                                    trnComplex *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* CE: the QR in complex bfloat16. */
trnsolverStatus_t trnsolverDnCEgels_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                               trnsolver_int_t n, trnsolver_int_t nrhs,
                                               trnComplex *dA, trnsolver_int_t ldda, trnComplex *dB,
                                               trnsolver_int_t lddb, trnComplex *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnCEgels(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                    trnsolver_int_t n, trnsolver_int_t nrhs, trnComplex *dA,
                                    trnsolver_int_t ldda, trnComplex *dB, trnsolver_int_t lddb,
                                    trnComplex *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* CY: the QR in complex TF32. */
trnsolverStatus_t trnsolverDnCYgels_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                               trnsolver_int_t n, trnsolver_int_t nrhs,
                                               trnComplex *dA, trnsolver_int_t ldda, trnComplex *dB,
                                               trnsolver_int_t lddb, trnComplex *dX,
                                               trnsolver_int_t lddx, void *dWorkspace,
                                               size_t *lwork_bytes);
trnsolverStatus_t trnsolverDnCYgels(trnsolverDnHandle_t handle, trnsolver_int_t m,
                                    trnsolver_int_t n, trnsolver_int_t nrhs, trnComplex *dA,
                                    trnsolver_int_t ldda, trnComplex *dB, trnsolver_int_t lddb,
                                    trnComplex *dX, trnsolver_int_t lddx, void *dWorkspace,
                                    size_t lwork_bytes, trnsolver_int_t *iter,
                                    trnsolver_int_t *d_info);
/* The expert least-squares solver: as IRSXgesv, with gels_irs_params and
 * gels_irs_infos (may be NULL). */
trnsolverStatus_t trnsolverDnIRSXgels_bufferSize(trnsolverDnHandle_t handle,
                                                 trnsolverDnIRSParams_t params, trnsolver_int_t m,
                                                 trnsolver_int_t n, trnsolver_int_t nrhs,
                                                 size_t *lwork_bytes);
trnsolverStatus_t
trnsolverDnIRSXgels(trnsolverDnHandle_t handle, trnsolverDnIRSParams_t gels_irs_params,
                    trnsolverDnIRSInfos_t gels_irs_infos, trnsolver_int_t m, trnsolver_int_t n,
                    trnsolver_int_t nrhs, void *dA, trnsolver_int_t ldda, void *dB,
                    trnsolver_int_t lddb, void *dX, trnsolver_int_t lddx, void *dWorkspace,
                    size_t lwork_bytes, trnsolver_int_t *niters, trnsolver_int_t *d_info);
/* ---- selected generalised eigenpairs, generalised Jacobi, batched rank-r SVD -------
 * (protocol 1.15)
 *
 * sygvdx (hegvdx): the generalised problem of itype (as sygvd) with a
 * selection: range ALL, I (the il-th to the iu-th eigenvalues, 1-based,
 * ascending; il = 1, iu = 0 when n = 0) or V (those in (vl, vu]). The
 * selected eigenvalues go to the first *h_meig elements of W and, with
 * VECTOR, their B-orthonormal eigenvectors to the first *h_meig columns of
 * A; B receives its Cholesky factor. devInfo as sygvd's (i > n: B's leading
 * minor of order i - n is not positive definite). *h_meig (host) is written
 * before the call returns: RANGE_ALL n and RANGE_I iu - il + 1 at once;
 * RANGE_V waits for the handle's stream and reads the count the daemon
 * wrote into work (0 when devInfo != 0), so work must hold the lwork
 * elements _bufferSize reports (1). */
trnsolverStatus_t trnsolverDnSsygvdx_bufferSize(trnsolverDnHandle_t handle,
                                                trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                                trnsolverEigRange_t range, trnblasFillMode_t uplo,
                                                int n, const float *A, int lda, const float *B,
                                                int ldb, float vl, float vu, int il, int iu,
                                                int *h_meig, const float *W, int *lwork);
trnsolverStatus_t trnsolverDnDsygvdx_bufferSize(trnsolverDnHandle_t handle,
                                                trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                                trnsolverEigRange_t range, trnblasFillMode_t uplo,
                                                int n, const double *A, int lda, const double *B,
                                                int ldb, double vl, double vu, int il, int iu,
                                                int *h_meig, const double *W, int *lwork);
trnsolverStatus_t trnsolverDnChegvdx_bufferSize(trnsolverDnHandle_t handle,
                                                trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                                trnsolverEigRange_t range, trnblasFillMode_t uplo,
                                                int n, const trnComplex *A, int lda,
                                                const trnComplex *B, int ldb, float vl, float vu,
                                                int il, int iu, int *h_meig, const float *W,
                                                int *lwork);
trnsolverStatus_t trnsolverDnZhegvdx_bufferSize(trnsolverDnHandle_t handle,
                                                trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                                trnsolverEigRange_t range, trnblasFillMode_t uplo,
                                                int n, const trnDoubleComplex *A, int lda,
                                                const trnDoubleComplex *B, int ldb, double vl,
                                                double vu, int il, int iu, int *h_meig,
                                                const double *W, int *lwork);
trnsolverStatus_t trnsolverDnSsygvdx(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                     trnsolverEigMode_t jobz, trnsolverEigRange_t range,
                                     trnblasFillMode_t uplo, int n, float *A, int lda, float *B,
                                     int ldb, float vl, float vu, int il, int iu, int *h_meig,
                                     float *W, float *work, int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnDsygvdx(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                     trnsolverEigMode_t jobz, trnsolverEigRange_t range,
                                     trnblasFillMode_t uplo, int n, double *A, int lda, double *B,
                                     int ldb, double vl, double vu, int il, int iu, int *h_meig,
                                     double *W, double *work, int lwork, int *devInfo);
trnsolverStatus_t trnsolverDnChegvdx(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                     trnsolverEigMode_t jobz, trnsolverEigRange_t range,
                                     trnblasFillMode_t uplo, int n, trnComplex *A, int lda,
                                     trnComplex *B, int ldb, float vl, float vu, int il, int iu,
                                     int *h_meig, float *W, trnComplex *work, int lwork,
                                     int *devInfo);
trnsolverStatus_t trnsolverDnZhegvdx(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                     trnsolverEigMode_t jobz, trnsolverEigRange_t range,
                                     trnblasFillMode_t uplo, int n, trnDoubleComplex *A, int lda,
                                     trnDoubleComplex *B, int ldb, double vl, double vu, int il,
                                     int iu, int *h_meig, double *W, trnDoubleComplex *work,
                                     int lwork, int *devInfo);

/* sygvj (hegvj): the generalised problem of itype by Jacobi: B = L L^H (or
 * U^H U), then syevj on M = L^-1 A L^-H (itype 1) or L^H A L (itype 2, 3)
 * with params' tolerance and max_sweeps, and the eigenvectors transformed
 * back (B-orthonormal; B^-1-orthonormal for itype 3) into A; B receives
 * its Cholesky factor. trnsolverDnXsyevjGetResidual / GetSweeps report
 * syevj's residual on M (not on A, as cuSOLVER's) and its sweeps. info: 0;
 * n + 1: no convergence within max_sweeps; n + i: B's leading minor of
 * order i is not positive definite (nothing else written; GetSweeps is 0);
 * so n + 1 means either, told apart by GetSweeps. */
trnsolverStatus_t trnsolverDnSsygvj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                               trnsolverEigMode_t jobz, trnblasFillMode_t uplo,
                                               int n, const float *A, int lda, const float *B,
                                               int ldb, const float *W, int *lwork,
                                               syevjInfo_t params);
trnsolverStatus_t trnsolverDnDsygvj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                               trnsolverEigMode_t jobz, trnblasFillMode_t uplo,
                                               int n, const double *A, int lda, const double *B,
                                               int ldb, const double *W, int *lwork,
                                               syevjInfo_t params);
trnsolverStatus_t trnsolverDnChegvj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                               trnsolverEigMode_t jobz, trnblasFillMode_t uplo,
                                               int n, const trnComplex *A, int lda,
                                               const trnComplex *B, int ldb, const float *W,
                                               int *lwork, syevjInfo_t params);
trnsolverStatus_t trnsolverDnZhegvj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                               trnsolverEigMode_t jobz, trnblasFillMode_t uplo,
                                               int n, const trnDoubleComplex *A, int lda,
                                               const trnDoubleComplex *B, int ldb, const double *W,
                                               int *lwork, syevjInfo_t params);
trnsolverStatus_t trnsolverDnSsygvj(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                    trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,
                                    float *A, int lda, float *B, int ldb, float *W, float *work,
                                    int lwork, int *info, syevjInfo_t params);
trnsolverStatus_t trnsolverDnDsygvj(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                    trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,
                                    double *A, int lda, double *B, int ldb, double *W, double *work,
                                    int lwork, int *info, syevjInfo_t params);
trnsolverStatus_t trnsolverDnChegvj(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                    trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,
                                    trnComplex *A, int lda, trnComplex *B, int ldb, float *W,
                                    trnComplex *work, int lwork, int *info, syevjInfo_t params);
trnsolverStatus_t trnsolverDnZhegvj(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                    trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,
                                    trnDoubleComplex *A, int lda, trnDoubleComplex *B, int ldb,
                                    double *W, trnDoubleComplex *work, int lwork, int *info,
                                    syevjInfo_t params);

/* gesvdaStridedBatched: for each of batchSize tall matrices A_i (m x n,
 * m >= n, at d_A + i strideA elements; not modified) its rank (1 <= rank
 * <= n) largest singular values, descending, at d_S + i strideS and, with
 * jobz VECTOR, the corresponding left and right singular vectors in the
 * first rank columns of U_i (m x rank, at d_U + i strideU) and V_i (n x
 * rank, at d_V + i strideV). Strides must be at least lda * n, rank,
 * ldu * rank and ldv * rank. Computed by LAPACK's gesvd on each matrix
 * (not cuSOLVER's Gram-matrix approximation: small singular values keep
 * their accuracy). d_info[i]: 0; n + 1 when the QR iteration did not
 * converge; -5 when A_i holds a NaN or an infinity. h_R_nrmF (host, may be
 * NULL) receives ||A_i - U_i diag(S_i) V_i^H||_F for each matrix (the rank-r
 * truncation's residual); it is read back after waiting for the handle's
 * stream from d_work, which must then hold the lwork elements _bufferSize
 * reports (batchSize doubles); with NULL the call does not wait. */
trnsolverStatus_t trnsolverDnSgesvdaStridedBatched_bufferSize(
    trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int rank, int m, int n, const float *d_A,
    int lda, long long int strideA, const float *d_S, long long int strideS, const float *d_U,
    int ldu, long long int strideU, const float *d_V, int ldv, long long int strideV, int *lwork,
    int batchSize);
trnsolverStatus_t trnsolverDnDgesvdaStridedBatched_bufferSize(
    trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int rank, int m, int n, const double *d_A,
    int lda, long long int strideA, const double *d_S, long long int strideS, const double *d_U,
    int ldu, long long int strideU, const double *d_V, int ldv, long long int strideV, int *lwork,
    int batchSize);
trnsolverStatus_t trnsolverDnCgesvdaStridedBatched_bufferSize(
    trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int rank, int m, int n,
    const trnComplex *d_A, int lda, long long int strideA, const float *d_S, long long int strideS,
    const trnComplex *d_U, int ldu, long long int strideU, const trnComplex *d_V, int ldv,
    long long int strideV, int *lwork, int batchSize);
trnsolverStatus_t trnsolverDnZgesvdaStridedBatched_bufferSize(
    trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int rank, int m, int n,
    const trnDoubleComplex *d_A, int lda, long long int strideA, const double *d_S,
    long long int strideS, const trnDoubleComplex *d_U, int ldu, long long int strideU,
    const trnDoubleComplex *d_V, int ldv, long long int strideV, int *lwork, int batchSize);
trnsolverStatus_t trnsolverDnSgesvdaStridedBatched(
    trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int rank, int m, int n, const float *d_A,
    int lda, long long int strideA, float *d_S, long long int strideS, float *d_U, int ldu,
    long long int strideU, float *d_V, int ldv, long long int strideV, float *d_work, int lwork,
    int *d_info, double *h_R_nrmF, int batchSize);
trnsolverStatus_t trnsolverDnDgesvdaStridedBatched(
    trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int rank, int m, int n, const double *d_A,
    int lda, long long int strideA, double *d_S, long long int strideS, double *d_U, int ldu,
    long long int strideU, double *d_V, int ldv, long long int strideV, double *d_work, int lwork,
    int *d_info, double *h_R_nrmF, int batchSize);
trnsolverStatus_t
trnsolverDnCgesvdaStridedBatched(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int rank,
                                 int m, int n, const trnComplex *d_A, int lda,
                                 long long int strideA, float *d_S, long long int strideS,
                                 trnComplex *d_U, int ldu, long long int strideU, trnComplex *d_V,
                                 int ldv, long long int strideV, trnComplex *d_work, int lwork,
                                 int *d_info, double *h_R_nrmF, int batchSize);
trnsolverStatus_t trnsolverDnZgesvdaStridedBatched(
    trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int rank, int m, int n,
    const trnDoubleComplex *d_A, int lda, long long int strideA, double *d_S, long long int strideS,
    trnDoubleComplex *d_U, int ldu, long long int strideU, trnDoubleComplex *d_V, int ldv,
    long long int strideV, trnDoubleComplex *d_work, int lwork, int *d_info, double *h_R_nrmF,
    int batchSize);

#ifdef __cplusplus
}
#endif

#endif
