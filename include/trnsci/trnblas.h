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

/* Values are those of cublasFillMode_t (used by trnsolver). */
typedef enum trnblasFillMode_t {
    TRNBLAS_FILL_MODE_LOWER = 0,
    TRNBLAS_FILL_MODE_UPPER = 1,
    TRNBLAS_FILL_MODE_FULL = 2,
} trnblasFillMode_t;

/* Values are those of cublasSideMode_t (used by trnsolver). */
typedef enum trnblasSideMode_t {
    TRNBLAS_SIDE_LEFT = 0,
    TRNBLAS_SIDE_RIGHT = 1,
} trnblasSideMode_t;

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
