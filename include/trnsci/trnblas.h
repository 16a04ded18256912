/*
 * trnblas.h — dense linear algebra (the cuBLAS v2 analog).
 *
 * Matrices are column-major with leading dimensions, as in cuBLAS and LAPACK.
 * Scalars (alpha, beta, c, s) are host pointers read during the call, or, in
 * device pointer mode (trnblasSetPointerMode), device pointers read when the
 * op runs; GEMM in device pointer mode gives TRNBLAS_STATUS_NOT_SUPPORTED.
 * Routines are asynchronous with respect to the host: they return once the
 * daemon has validated and queued the op on the handle's stream; invalid
 * arguments are reported at once. Level 1 reductions (dot, nrm2, asum,
 * i?amax, i?amin) in host pointer mode wait for the handle's stream and
 * return the value in host memory, as cuBLAS does; in device pointer mode the
 * result is a device pointer written in stream order. A handle is not for
 * concurrent use by several threads (host-mode results go through one
 * scratch buffer).
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

/* Values are those of cublasPointerMode_t. */
typedef enum trnblasPointerMode_t {
    TRNBLAS_POINTER_MODE_HOST = 0,
    TRNBLAS_POINTER_MODE_DEVICE = 1,
} trnblasPointerMode_t;

typedef struct trnblasContext *trnblasHandle_t;

/* Creates a handle bound to the default stream. Initialises the runtime. */
trnblasStatus_t trnblasCreate(trnblasHandle_t *handle);
trnblasStatus_t trnblasDestroy(trnblasHandle_t handle);
trnblasStatus_t trnblasSetStream(trnblasHandle_t handle, trnsciStream_t streamId);
trnblasStatus_t trnblasGetStream(trnblasHandle_t handle, trnsciStream_t *streamId);
trnblasStatus_t trnblasSetPointerMode(trnblasHandle_t handle, trnblasPointerMode_t mode);
trnblasStatus_t trnblasGetPointerMode(trnblasHandle_t handle, trnblasPointerMode_t *mode);
/* Library version, encoded as cublasGetVersion's: major*10000 + minor*100 + patch. */
trnblasStatus_t trnblasGetVersion(trnblasHandle_t handle, int *version);
/* Name of a status code; never NULL. */
const char *trnblasGetStatusName(trnblasStatus_t status);
const char *trnblasGetStatusString(trnblasStatus_t status);

/* ---- Level 1 (cuBLAS v2 parameter lists) --------------------------------
 * n <= 0 does nothing (reductions give 0). A vector with increment inc spans
 * |inc|*(n-1)+1 elements from its pointer; with inc < 0 it is traversed from
 * its last element, as in reference BLAS. scal, nrm2, asum, i?amax and i?amin
 * do nothing (result 0) when incx <= 0. i?amax/i?amin return a 1-based index
 * of the first extreme |re| + |im|. */

trnblasStatus_t trnblasSaxpy(trnblasHandle_t handle, int n, const float *alpha, const float *x,
                             int incx, float *y, int incy);
trnblasStatus_t trnblasDaxpy(trnblasHandle_t handle, int n, const double *alpha, const double *x,
                             int incx, double *y, int incy);
trnblasStatus_t trnblasCaxpy(trnblasHandle_t handle, int n, const trnComplex *alpha,
                             const trnComplex *x, int incx, trnComplex *y, int incy);
trnblasStatus_t trnblasZaxpy(trnblasHandle_t handle, int n, const trnDoubleComplex *alpha,
                             const trnDoubleComplex *x, int incx, trnDoubleComplex *y, int incy);
trnblasStatus_t trnblasSscal(trnblasHandle_t handle, int n, const float *alpha, float *x, int incx);
trnblasStatus_t trnblasDscal(trnblasHandle_t handle, int n, const double *alpha, double *x,
                             int incx);
trnblasStatus_t trnblasCscal(trnblasHandle_t handle, int n, const trnComplex *alpha, trnComplex *x,
                             int incx);
trnblasStatus_t trnblasZscal(trnblasHandle_t handle, int n, const trnDoubleComplex *alpha,
                             trnDoubleComplex *x, int incx);
trnblasStatus_t trnblasCsscal(trnblasHandle_t handle, int n, const float *alpha, trnComplex *x,
                              int incx);
trnblasStatus_t trnblasZdscal(trnblasHandle_t handle, int n, const double *alpha,
                              trnDoubleComplex *x, int incx);
trnblasStatus_t trnblasScopy(trnblasHandle_t handle, int n, const float *x, int incx, float *y,
                             int incy);
trnblasStatus_t trnblasDcopy(trnblasHandle_t handle, int n, const double *x, int incx, double *y,
                             int incy);
trnblasStatus_t trnblasCcopy(trnblasHandle_t handle, int n, const trnComplex *x, int incx,
                             trnComplex *y, int incy);
trnblasStatus_t trnblasZcopy(trnblasHandle_t handle, int n, const trnDoubleComplex *x, int incx,
                             trnDoubleComplex *y, int incy);
trnblasStatus_t trnblasSswap(trnblasHandle_t handle, int n, float *x, int incx, float *y, int incy);
trnblasStatus_t trnblasDswap(trnblasHandle_t handle, int n, double *x, int incx, double *y,
                             int incy);
trnblasStatus_t trnblasCswap(trnblasHandle_t handle, int n, trnComplex *x, int incx, trnComplex *y,
                             int incy);
trnblasStatus_t trnblasZswap(trnblasHandle_t handle, int n, trnDoubleComplex *x, int incx,
                             trnDoubleComplex *y, int incy);
trnblasStatus_t trnblasSdot(trnblasHandle_t handle, int n, const float *x, int incx, const float *y,
                            int incy, float *result);
trnblasStatus_t trnblasDdot(trnblasHandle_t handle, int n, const double *x, int incx,
                            const double *y, int incy, double *result);
trnblasStatus_t trnblasCdotu(trnblasHandle_t handle, int n, const trnComplex *x, int incx,
                             const trnComplex *y, int incy, trnComplex *result);
trnblasStatus_t trnblasCdotc(trnblasHandle_t handle, int n, const trnComplex *x, int incx,
                             const trnComplex *y, int incy, trnComplex *result);
trnblasStatus_t trnblasZdotu(trnblasHandle_t handle, int n, const trnDoubleComplex *x, int incx,
                             const trnDoubleComplex *y, int incy, trnDoubleComplex *result);
trnblasStatus_t trnblasZdotc(trnblasHandle_t handle, int n, const trnDoubleComplex *x, int incx,
                             const trnDoubleComplex *y, int incy, trnDoubleComplex *result);
trnblasStatus_t trnblasSnrm2(trnblasHandle_t handle, int n, const float *x, int incx,
                             float *result);
trnblasStatus_t trnblasDnrm2(trnblasHandle_t handle, int n, const double *x, int incx,
                             double *result);
trnblasStatus_t trnblasScnrm2(trnblasHandle_t handle, int n, const trnComplex *x, int incx,
                              float *result);
trnblasStatus_t trnblasDznrm2(trnblasHandle_t handle, int n, const trnDoubleComplex *x, int incx,
                              double *result);
trnblasStatus_t trnblasSasum(trnblasHandle_t handle, int n, const float *x, int incx,
                             float *result);
trnblasStatus_t trnblasDasum(trnblasHandle_t handle, int n, const double *x, int incx,
                             double *result);
trnblasStatus_t trnblasScasum(trnblasHandle_t handle, int n, const trnComplex *x, int incx,
                              float *result);
trnblasStatus_t trnblasDzasum(trnblasHandle_t handle, int n, const trnDoubleComplex *x, int incx,
                              double *result);
trnblasStatus_t trnblasIsamax(trnblasHandle_t handle, int n, const float *x, int incx, int *result);
trnblasStatus_t trnblasIdamax(trnblasHandle_t handle, int n, const double *x, int incx,
                              int *result);
trnblasStatus_t trnblasIcamax(trnblasHandle_t handle, int n, const trnComplex *x, int incx,
                              int *result);
trnblasStatus_t trnblasIzamax(trnblasHandle_t handle, int n, const trnDoubleComplex *x, int incx,
                              int *result);
trnblasStatus_t trnblasIsamin(trnblasHandle_t handle, int n, const float *x, int incx, int *result);
trnblasStatus_t trnblasIdamin(trnblasHandle_t handle, int n, const double *x, int incx,
                              int *result);
trnblasStatus_t trnblasIcamin(trnblasHandle_t handle, int n, const trnComplex *x, int incx,
                              int *result);
trnblasStatus_t trnblasIzamin(trnblasHandle_t handle, int n, const trnDoubleComplex *x, int incx,
                              int *result);
/* x := c x + s y, y := c y - conj(s) x (s real for S, D, Cs, Zd). */
trnblasStatus_t trnblasSrot(trnblasHandle_t handle, int n, float *x, int incx, float *y, int incy,
                            const float *c, const float *s);
trnblasStatus_t trnblasDrot(trnblasHandle_t handle, int n, double *x, int incx, double *y, int incy,
                            const double *c, const double *s);
trnblasStatus_t trnblasCrot(trnblasHandle_t handle, int n, trnComplex *x, int incx, trnComplex *y,
                            int incy, const float *c, const trnComplex *s);
trnblasStatus_t trnblasZrot(trnblasHandle_t handle, int n, trnDoubleComplex *x, int incx,
                            trnDoubleComplex *y, int incy, const double *c,
                            const trnDoubleComplex *s);
trnblasStatus_t trnblasCsrot(trnblasHandle_t handle, int n, trnComplex *x, int incx, trnComplex *y,
                             int incy, const float *c, const float *s);
trnblasStatus_t trnblasZdrot(trnblasHandle_t handle, int n, trnDoubleComplex *x, int incx,
                             trnDoubleComplex *y, int incy, const double *c, const double *s);

/* Values are those of cublasFillMode_t, cublasDiagType_t and cublasSideMode_t.
 * No routine takes TRNBLAS_FILL_MODE_FULL (TRNBLAS_STATUS_INVALID_VALUE). */
typedef enum trnblasFillMode_t {
    TRNBLAS_FILL_MODE_LOWER = 0,
    TRNBLAS_FILL_MODE_UPPER = 1,
    TRNBLAS_FILL_MODE_FULL = 2,
} trnblasFillMode_t;

typedef enum trnblasDiagType_t {
    TRNBLAS_DIAG_NON_UNIT = 0,
    TRNBLAS_DIAG_UNIT = 1,
} trnblasDiagType_t;

typedef enum trnblasSideMode_t {
    TRNBLAS_SIDE_LEFT = 0,
    TRNBLAS_SIDE_RIGHT = 1,
} trnblasSideMode_t;

/* ---- Level 2 (cuBLAS v2 parameter lists) --------------------------------
 * Column-major matrices with leading dimensions, as in cuBLAS. Increments may
 * be negative (a vector of n elements spans |inc|*(n-1)+1 elements from its
 * pointer, traversed from its last element when inc < 0, as in reference
 * BLAS) but not 0 (TRNBLAS_STATUS_INVALID_VALUE). Nothing is done for an
 * empty shape. Scalars as for Level 1 (host or device pointer mode); with
 * alpha = 0 in host pointer mode A and x are not read (and the rank updates
 * do nothing); beta = 0 sets y without reading it. */

/* y = alpha op(A) x + beta y; A is m x n, lda >= max(1, m); x has n elements
 * (m with a transpose) and y m (n). */
trnblasStatus_t trnblasSgemv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n,
                             const float *alpha, const float *A, int lda, const float *x, int incx,
                             const float *beta, float *y, int incy);
trnblasStatus_t trnblasDgemv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n,
                             const double *alpha, const double *A, int lda, const double *x,
                             int incx, const double *beta, double *y, int incy);
trnblasStatus_t trnblasCgemv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n,
                             const trnComplex *alpha, const trnComplex *A, int lda,
                             const trnComplex *x, int incx, const trnComplex *beta, trnComplex *y,
                             int incy);
trnblasStatus_t trnblasZgemv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n,
                             const trnDoubleComplex *alpha, const trnDoubleComplex *A, int lda,
                             const trnDoubleComplex *x, int incx, const trnDoubleComplex *beta,
                             trnDoubleComplex *y, int incy);
/* gemv with A banded: kl sub- and ku super-diagonals in band storage (column j
 * of A in rows ku - j + i of column j of the array, for the rows i of the band),
 * lda >= kl + ku + 1. */
trnblasStatus_t trnblasSgbmv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n, int kl,
                             int ku, const float *alpha, const float *A, int lda, const float *x,
                             int incx, const float *beta, float *y, int incy);
trnblasStatus_t trnblasDgbmv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n, int kl,
                             int ku, const double *alpha, const double *A, int lda, const double *x,
                             int incx, const double *beta, double *y, int incy);
trnblasStatus_t trnblasCgbmv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n, int kl,
                             int ku, const trnComplex *alpha, const trnComplex *A, int lda,
                             const trnComplex *x, int incx, const trnComplex *beta, trnComplex *y,
                             int incy);
trnblasStatus_t trnblasZgbmv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n, int kl,
                             int ku, const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                             int lda, const trnDoubleComplex *x, int incx,
                             const trnDoubleComplex *beta, trnDoubleComplex *y, int incy);
/* y = alpha A x + beta y, A symmetric n x n (only the uplo triangle is read);
 * C and Z too, as in cuBLAS. */
trnblasStatus_t trnblasSsymv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const float *alpha, const float *A, int lda, const float *x, int incx,
                             const float *beta, float *y, int incy);
trnblasStatus_t trnblasDsymv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const double *alpha, const double *A, int lda, const double *x,
                             int incx, const double *beta, double *y, int incy);
trnblasStatus_t trnblasCsymv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const trnComplex *alpha, const trnComplex *A, int lda,
                             const trnComplex *x, int incx, const trnComplex *beta, trnComplex *y,
                             int incy);
trnblasStatus_t trnblasZsymv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const trnDoubleComplex *alpha, const trnDoubleComplex *A, int lda,
                             const trnDoubleComplex *x, int incx, const trnDoubleComplex *beta,
                             trnDoubleComplex *y, int incy);
/* y = alpha A x + beta y, A Hermitian (the uplo triangle; the imaginary parts
 * of its diagonal are taken as 0). */
trnblasStatus_t trnblasChemv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const trnComplex *alpha, const trnComplex *A, int lda,
                             const trnComplex *x, int incx, const trnComplex *beta, trnComplex *y,
                             int incy);
trnblasStatus_t trnblasZhemv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const trnDoubleComplex *alpha, const trnDoubleComplex *A, int lda,
                             const trnDoubleComplex *x, int incx, const trnDoubleComplex *beta,
                             trnDoubleComplex *y, int incy);
/* x = op(A) x, A triangular n x n (uplo; diag UNIT: the diagonal is taken as
 * ones and not read). */
trnblasStatus_t trnblasStrmv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const float *A, int lda, float *x, int incx);
trnblasStatus_t trnblasDtrmv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const double *A, int lda, double *x, int incx);
trnblasStatus_t trnblasCtrmv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const trnComplex *A, int lda, trnComplex *x, int incx);
trnblasStatus_t trnblasZtrmv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const trnDoubleComplex *A, int lda, trnDoubleComplex *x, int incx);
/* Solves op(A) z = x and overwrites x with z; A as for trmv. No test for
 * singularity is made (a zero diagonal gives infinities or NaNs). */
trnblasStatus_t trnblasStrsv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const float *A, int lda, float *x, int incx);
trnblasStatus_t trnblasDtrsv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const double *A, int lda, double *x, int incx);
trnblasStatus_t trnblasCtrsv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const trnComplex *A, int lda, trnComplex *x, int incx);
trnblasStatus_t trnblasZtrsv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const trnDoubleComplex *A, int lda, trnDoubleComplex *x, int incx);
/* A = alpha x y^T + A (geru), A = alpha x y^H + A (gerc); A is m x n, x has m
 * elements and y n. */
trnblasStatus_t trnblasSger(trnblasHandle_t handle, int m, int n, const float *alpha,
                            const float *x, int incx, const float *y, int incy, float *A, int lda);
trnblasStatus_t trnblasDger(trnblasHandle_t handle, int m, int n, const double *alpha,
                            const double *x, int incx, const double *y, int incy, double *A,
                            int lda);
trnblasStatus_t trnblasCgeru(trnblasHandle_t handle, int m, int n, const trnComplex *alpha,
                             const trnComplex *x, int incx, const trnComplex *y, int incy,
                             trnComplex *A, int lda);
trnblasStatus_t trnblasCgerc(trnblasHandle_t handle, int m, int n, const trnComplex *alpha,
                             const trnComplex *x, int incx, const trnComplex *y, int incy,
                             trnComplex *A, int lda);
trnblasStatus_t trnblasZgeru(trnblasHandle_t handle, int m, int n, const trnDoubleComplex *alpha,
                             const trnDoubleComplex *x, int incx, const trnDoubleComplex *y,
                             int incy, trnDoubleComplex *A, int lda);
trnblasStatus_t trnblasZgerc(trnblasHandle_t handle, int m, int n, const trnDoubleComplex *alpha,
                             const trnDoubleComplex *x, int incx, const trnDoubleComplex *y,
                             int incy, trnDoubleComplex *A, int lda);
/* A = alpha x x^T + A, the uplo triangle of A symmetric n x n; C and Z too. */
trnblasStatus_t trnblasSsyr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                            const float *alpha, const float *x, int incx, float *A, int lda);
trnblasStatus_t trnblasDsyr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                            const double *alpha, const double *x, int incx, double *A, int lda);
trnblasStatus_t trnblasCsyr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                            const trnComplex *alpha, const trnComplex *x, int incx, trnComplex *A,
                            int lda);
trnblasStatus_t trnblasZsyr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                            const trnDoubleComplex *alpha, const trnDoubleComplex *x, int incx,
                            trnDoubleComplex *A, int lda);
/* A = alpha (x y^T + y x^T) + A, the uplo triangle; C and Z too. */
trnblasStatus_t trnblasSsyr2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const float *alpha, const float *x, int incx, const float *y, int incy,
                             float *A, int lda);
trnblasStatus_t trnblasDsyr2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const double *alpha, const double *x, int incx, const double *y,
                             int incy, double *A, int lda);
trnblasStatus_t trnblasCsyr2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const trnComplex *alpha, const trnComplex *x, int incx,
                             const trnComplex *y, int incy, trnComplex *A, int lda);
trnblasStatus_t trnblasZsyr2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const trnDoubleComplex *alpha, const trnDoubleComplex *x, int incx,
                             const trnDoubleComplex *y, int incy, trnDoubleComplex *A, int lda);
/* A = alpha x x^H + A with alpha real, the uplo triangle of A Hermitian; the
 * diagonal's imaginary parts are set to 0 (unless alpha = 0). */
trnblasStatus_t trnblasCher(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                            const float *alpha, const trnComplex *x, int incx, trnComplex *A,
                            int lda);
trnblasStatus_t trnblasZher(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                            const double *alpha, const trnDoubleComplex *x, int incx,
                            trnDoubleComplex *A, int lda);
/* A = alpha x y^H + conj(alpha) y x^H + A, the uplo triangle; the diagonal's
 * imaginary parts are set to 0 (unless alpha = 0). */
trnblasStatus_t trnblasCher2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const trnComplex *alpha, const trnComplex *x, int incx,
                             const trnComplex *y, int incy, trnComplex *A, int lda);
trnblasStatus_t trnblasZher2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const trnDoubleComplex *alpha, const trnDoubleComplex *x, int incx,
                             const trnDoubleComplex *y, int incy, trnDoubleComplex *A, int lda);

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

/* ---- Level 3 beyond GEMM (cuBLAS v2 parameter lists) --------------------
 * Scalars as for Level 2 (host or device pointer mode). With alpha = 0 in
 * host pointer mode A and B are not read; beta = 0 sets C without reading it;
 * an empty shape does nothing. syrk, herk, syr2k and her2k read and write
 * only the uplo triangle of C. Large ops run on several cores, cut into the
 * same output tiles whatever the core count, so results are bitwise
 * reproducible. */

/* C = alpha A B + beta C (side LEFT, A m x m) or alpha B A + beta C (RIGHT, A
 * n x n), A symmetric (the uplo triangle); B and C are m x n. */
trnblasStatus_t trnblasSsymm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             int m, int n, const float *alpha, const float *A, int lda,
                             const float *B, int ldb, const float *beta, float *C, int ldc);
trnblasStatus_t trnblasDsymm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             int m, int n, const double *alpha, const double *A, int lda,
                             const double *B, int ldb, const double *beta, double *C, int ldc);
trnblasStatus_t trnblasCsymm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             int m, int n, const trnComplex *alpha, const trnComplex *A, int lda,
                             const trnComplex *B, int ldb, const trnComplex *beta, trnComplex *C,
                             int ldc);
trnblasStatus_t trnblasZsymm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             int m, int n, const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                             int lda, const trnDoubleComplex *B, int ldb,
                             const trnDoubleComplex *beta, trnDoubleComplex *C, int ldc);
/* symm with A Hermitian (the imaginary parts of its diagonal taken as 0). */
trnblasStatus_t trnblasChemm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             int m, int n, const trnComplex *alpha, const trnComplex *A, int lda,
                             const trnComplex *B, int ldb, const trnComplex *beta, trnComplex *C,
                             int ldc);
trnblasStatus_t trnblasZhemm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             int m, int n, const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                             int lda, const trnDoubleComplex *B, int ldb,
                             const trnDoubleComplex *beta, trnDoubleComplex *C, int ldc);
/* C = alpha op(A) op(A)^T + beta C, the uplo triangle of C n x n; op(A) is
 * n x k (trans OP_N: A is n x k, lda >= max(1, n); OP_T: k x n, lda >= max(1, k);
 * OP_C only for S and D). */
trnblasStatus_t trnblasSsyrk(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, int n, int k, const float *alpha,
                             const float *A, int lda, const float *beta, float *C, int ldc);
trnblasStatus_t trnblasDsyrk(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, int n, int k, const double *alpha,
                             const double *A, int lda, const double *beta, double *C, int ldc);
trnblasStatus_t trnblasCsyrk(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, int n, int k, const trnComplex *alpha,
                             const trnComplex *A, int lda, const trnComplex *beta, trnComplex *C,
                             int ldc);
trnblasStatus_t trnblasZsyrk(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, int n, int k, const trnDoubleComplex *alpha,
                             const trnDoubleComplex *A, int lda, const trnDoubleComplex *beta,
                             trnDoubleComplex *C, int ldc);
/* C = alpha op(A) op(A)^H + beta C with alpha and beta real, the uplo
 * triangle (trans OP_N or OP_C); the diagonal's imaginary parts are set to 0. */
trnblasStatus_t trnblasCherk(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, int n, int k, const float *alpha,
                             const trnComplex *A, int lda, const float *beta, trnComplex *C,
                             int ldc);
trnblasStatus_t trnblasZherk(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, int n, int k, const double *alpha,
                             const trnDoubleComplex *A, int lda, const double *beta,
                             trnDoubleComplex *C, int ldc);
/* C = alpha (op(A) op(B)^T + op(B) op(A)^T) + beta C, the uplo triangle; A and
 * B as A of syrk. */
trnblasStatus_t trnblasSsyr2k(trnblasHandle_t handle, trnblasFillMode_t uplo,
                              trnblasOperation_t trans, int n, int k, const float *alpha,
                              const float *A, int lda, const float *B, int ldb, const float *beta,
                              float *C, int ldc);
trnblasStatus_t trnblasDsyr2k(trnblasHandle_t handle, trnblasFillMode_t uplo,
                              trnblasOperation_t trans, int n, int k, const double *alpha,
                              const double *A, int lda, const double *B, int ldb,
                              const double *beta, double *C, int ldc);
trnblasStatus_t trnblasCsyr2k(trnblasHandle_t handle, trnblasFillMode_t uplo,
                              trnblasOperation_t trans, int n, int k, const trnComplex *alpha,
                              const trnComplex *A, int lda, const trnComplex *B, int ldb,
                              const trnComplex *beta, trnComplex *C, int ldc);
trnblasStatus_t trnblasZsyr2k(trnblasHandle_t handle, trnblasFillMode_t uplo,
                              trnblasOperation_t trans, int n, int k, const trnDoubleComplex *alpha,
                              const trnDoubleComplex *A, int lda, const trnDoubleComplex *B,
                              int ldb, const trnDoubleComplex *beta, trnDoubleComplex *C, int ldc);
/* C = alpha op(A) op(B)^H + conj(alpha) op(B) op(A)^H + beta C with beta real,
 * the uplo triangle (trans OP_N or OP_C). */
trnblasStatus_t trnblasCher2k(trnblasHandle_t handle, trnblasFillMode_t uplo,
                              trnblasOperation_t trans, int n, int k, const trnComplex *alpha,
                              const trnComplex *A, int lda, const trnComplex *B, int ldb,
                              const float *beta, trnComplex *C, int ldc);
trnblasStatus_t trnblasZher2k(trnblasHandle_t handle, trnblasFillMode_t uplo,
                              trnblasOperation_t trans, int n, int k, const trnDoubleComplex *alpha,
                              const trnDoubleComplex *A, int lda, const trnDoubleComplex *B,
                              int ldb, const double *beta, trnDoubleComplex *C, int ldc);
/* Solves op(A) X = alpha B (side LEFT, A m x m) or X op(A) = alpha B (RIGHT, A
 * n x n) and overwrites B (m x n) with X; A triangular as for trmv. No test
 * for singularity is made. */
trnblasStatus_t trnblasStrsm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n,
                             const float *alpha, const float *A, int lda, float *B, int ldb);
trnblasStatus_t trnblasDtrsm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n,
                             const double *alpha, const double *A, int lda, double *B, int ldb);
trnblasStatus_t trnblasCtrsm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n,
                             const trnComplex *alpha, const trnComplex *A, int lda, trnComplex *B,
                             int ldb);
trnblasStatus_t trnblasZtrsm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n,
                             const trnDoubleComplex *alpha, const trnDoubleComplex *A, int lda,
                             trnDoubleComplex *B, int ldb);
/* C = alpha op(A) B (LEFT) or alpha B op(A) (RIGHT), A triangular; out of place
 * as in cuBLAS (pass C = B, ldc = ldb, for BLAS's in-place form). */
trnblasStatus_t trnblasStrmm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n,
                             const float *alpha, const float *A, int lda, const float *B, int ldb,
                             float *C, int ldc);
trnblasStatus_t trnblasDtrmm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n,
                             const double *alpha, const double *A, int lda, const double *B,
                             int ldb, double *C, int ldc);
trnblasStatus_t trnblasCtrmm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n,
                             const trnComplex *alpha, const trnComplex *A, int lda,
                             const trnComplex *B, int ldb, trnComplex *C, int ldc);
trnblasStatus_t trnblasZtrmm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n,
                             const trnDoubleComplex *alpha, const trnDoubleComplex *A, int lda,
                             const trnDoubleComplex *B, int ldb, trnDoubleComplex *C, int ldc);
/* C = alpha op(A) + beta op(B), all m x n after the operations (cuBLAS
 * extension). A is not read when alpha = 0, B not when beta = 0. In place: C = A
 * needs ldc = lda and transa OP_N, C = B ldc = ldb and transb OP_N
 * (TRNBLAS_STATUS_INVALID_VALUE otherwise). */
trnblasStatus_t trnblasSgeam(trnblasHandle_t handle, trnblasOperation_t transa,
                             trnblasOperation_t transb, int m, int n, const float *alpha,
                             const float *A, int lda, const float *beta, const float *B, int ldb,
                             float *C, int ldc);
trnblasStatus_t trnblasDgeam(trnblasHandle_t handle, trnblasOperation_t transa,
                             trnblasOperation_t transb, int m, int n, const double *alpha,
                             const double *A, int lda, const double *beta, const double *B, int ldb,
                             double *C, int ldc);
trnblasStatus_t trnblasCgeam(trnblasHandle_t handle, trnblasOperation_t transa,
                             trnblasOperation_t transb, int m, int n, const trnComplex *alpha,
                             const trnComplex *A, int lda, const trnComplex *beta,
                             const trnComplex *B, int ldb, trnComplex *C, int ldc);
trnblasStatus_t trnblasZgeam(trnblasHandle_t handle, trnblasOperation_t transa,
                             trnblasOperation_t transb, int m, int n, const trnDoubleComplex *alpha,
                             const trnDoubleComplex *A, int lda, const trnDoubleComplex *beta,
                             const trnDoubleComplex *B, int ldb, trnDoubleComplex *C, int ldc);
/* C = diag(x) A (mode LEFT, x has m elements) or A diag(x) (RIGHT, n
 * elements); A and C m x n; any incx (0 repeats x[0]; negative: reference BLAS
 * order). C may be A with ldc = lda (cuBLAS extension). */
trnblasStatus_t trnblasSdgmm(trnblasHandle_t handle, trnblasSideMode_t mode, int m, int n,
                             const float *A, int lda, const float *x, int incx, float *C, int ldc);
trnblasStatus_t trnblasDdgmm(trnblasHandle_t handle, trnblasSideMode_t mode, int m, int n,
                             const double *A, int lda, const double *x, int incx, double *C,
                             int ldc);
trnblasStatus_t trnblasCdgmm(trnblasHandle_t handle, trnblasSideMode_t mode, int m, int n,
                             const trnComplex *A, int lda, const trnComplex *x, int incx,
                             trnComplex *C, int ldc);
trnblasStatus_t trnblasZdgmm(trnblasHandle_t handle, trnblasSideMode_t mode, int m, int n,
                             const trnDoubleComplex *A, int lda, const trnDoubleComplex *x,
                             int incx, trnDoubleComplex *C, int ldc);

#ifdef __cplusplus
}
#endif

#endif
