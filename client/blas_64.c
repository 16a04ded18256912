/*
 * blas_64.c — the ILP64 forms of trnblas (cuBLAS 12's *_64 routines): the
 * same routines with int64_t sizes, increments, leading dimensions, batch
 * counts and index results.
 *
 * trnsci's wire messages carry 32-bit dimensions, so each _64 routine is
 * the 32-bit one when every such argument fits in int; an argument that
 * does not is refused with TRNBLAS_STATUS_NOT_SUPPORTED and a message
 * naming it and its value, before anything is sent. Scalars, strides (long
 * long already) and pointers are passed through unchanged, so checks,
 * pointer modes and results are those of the 32-bit routine.
 */
#include <inttypes.h>
#include <limits.h>

#include "client/blas_internal.h"

/* Whether v fits in int; if not, records the error naming routine and arg. */
static int fits(const char *routine, const char *arg, int64_t v, int *out) {
    if (v < INT_MIN || v > INT_MAX) {
        (void)trn_fail(trnsciErrorNotSupported,
                       "%s: %s = %" PRId64 " does not fit in 32 bits (trnsci's sizes, "
                       "increments and leading dimensions are 32-bit int)",
                       routine, arg, v);
        return 0;
    }
    *out = (int)v;
    return 1;
}

/* Declares arg_, the int value of the int64_t argument arg, returning
 * TRNBLAS_STATUS_NOT_SUPPORTED from the routine when it does not fit. */
#define FIT(arg)                                                                                   \
    int arg##_;                                                                                    \
    if (!fits(__func__, #arg, arg, &arg##_))                                                       \
    return TRNBLAS_STATUS_NOT_SUPPORTED

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define LOW_INT_OFFSET 4
#else
#define LOW_INT_OFFSET 0
#endif

/* i?amax, i?amin: the 32-bit routine f's int index widened into the
 * int64_t *result. In host pointer mode it goes through a local int. In
 * device pointer mode result is device memory: its 8 bytes are zeroed in
 * stream order and f writes the low-order int (the index is never
 * negative), so the value is complete in stream order, as with cuBLAS. A
 * NULL handle or result reaches f, which reports it. */
#define INDEX64(f, handle, n, x, incx, result)                                                     \
    do {                                                                                           \
        if (!(handle) || !(result) || (handle)->mode == TRNBLAS_POINTER_MODE_HOST) {               \
            int r32_ = 0;                                                                          \
            const trnblasStatus_t st_ = f(handle, n, x, incx, (result) ? &r32_ : NULL);            \
            if (st_ == TRNBLAS_STATUS_SUCCESS)                                                     \
                *(result) = r32_;                                                                  \
            return st_;                                                                            \
        }                                                                                          \
        const trnsciError_t e_ = trnsciMemsetAsync(result, 0, sizeof(int64_t), (handle)->stream);  \
        if (e_ != trnsciSuccess)                                                                   \
            return trn_blas_status(e_);                                                            \
        return f(handle, n, x, incx, (int *)(void *)((char *)(result) + LOW_INT_OFFSET));          \
    } while (0)

/* ---- Helpers (cublasSetMatrix_64, ...): elemSize too must fit. */

trnblasStatus_t trnblasSetMatrix_64(int64_t rows, int64_t cols, int64_t elemSize, const void *A,
                                    int64_t lda, void *B, int64_t ldb) {
    FIT(rows);
    FIT(cols);
    FIT(elemSize);
    FIT(lda);
    FIT(ldb);
    return trnblasSetMatrix(rows_, cols_, elemSize_, A, lda_, B, ldb_);
}

trnblasStatus_t trnblasGetMatrix_64(int64_t rows, int64_t cols, int64_t elemSize, const void *A,
                                    int64_t lda, void *B, int64_t ldb) {
    FIT(rows);
    FIT(cols);
    FIT(elemSize);
    FIT(lda);
    FIT(ldb);
    return trnblasGetMatrix(rows_, cols_, elemSize_, A, lda_, B, ldb_);
}

trnblasStatus_t trnblasSetMatrixAsync_64(int64_t rows, int64_t cols, int64_t elemSize,
                                         const void *A, int64_t lda, void *B, int64_t ldb,
                                         trnsciStream_t stream) {
    FIT(rows);
    FIT(cols);
    FIT(elemSize);
    FIT(lda);
    FIT(ldb);
    return trnblasSetMatrixAsync(rows_, cols_, elemSize_, A, lda_, B, ldb_, stream);
}

trnblasStatus_t trnblasGetMatrixAsync_64(int64_t rows, int64_t cols, int64_t elemSize,
                                         const void *A, int64_t lda, void *B, int64_t ldb,
                                         trnsciStream_t stream) {
    FIT(rows);
    FIT(cols);
    FIT(elemSize);
    FIT(lda);
    FIT(ldb);
    return trnblasGetMatrixAsync(rows_, cols_, elemSize_, A, lda_, B, ldb_, stream);
}

trnblasStatus_t trnblasSetVector_64(int64_t n, int64_t elemSize, const void *x, int64_t incx,
                                    void *devicePtr, int64_t incy) {
    FIT(n);
    FIT(elemSize);
    FIT(incx);
    FIT(incy);
    return trnblasSetVector(n_, elemSize_, x, incx_, devicePtr, incy_);
}

trnblasStatus_t trnblasGetVector_64(int64_t n, int64_t elemSize, const void *x, int64_t incx,
                                    void *y, int64_t incy) {
    FIT(n);
    FIT(elemSize);
    FIT(incx);
    FIT(incy);
    return trnblasGetVector(n_, elemSize_, x, incx_, y, incy_);
}

trnblasStatus_t trnblasSetVectorAsync_64(int64_t n, int64_t elemSize, const void *hostPtr,
                                         int64_t incx, void *devicePtr, int64_t incy,
                                         trnsciStream_t stream) {
    FIT(n);
    FIT(elemSize);
    FIT(incx);
    FIT(incy);
    return trnblasSetVectorAsync(n_, elemSize_, hostPtr, incx_, devicePtr, incy_, stream);
}

trnblasStatus_t trnblasGetVectorAsync_64(int64_t n, int64_t elemSize, const void *devicePtr,
                                         int64_t incx, void *hostPtr, int64_t incy,
                                         trnsciStream_t stream) {
    FIT(n);
    FIT(elemSize);
    FIT(incx);
    FIT(incy);
    return trnblasGetVectorAsync(n_, elemSize_, devicePtr, incx_, hostPtr, incy_, stream);
}

/* ---- Level 1. */

trnblasStatus_t trnblasSaxpy_64(trnblasHandle_t handle, int64_t n, const float *alpha,
                                const float *x, int64_t incx, float *y, int64_t incy) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasSaxpy(handle, n_, alpha, x, incx_, y, incy_);
}

trnblasStatus_t trnblasDaxpy_64(trnblasHandle_t handle, int64_t n, const double *alpha,
                                const double *x, int64_t incx, double *y, int64_t incy) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasDaxpy(handle, n_, alpha, x, incx_, y, incy_);
}

trnblasStatus_t trnblasCaxpy_64(trnblasHandle_t handle, int64_t n, const trnComplex *alpha,
                                const trnComplex *x, int64_t incx, trnComplex *y, int64_t incy) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasCaxpy(handle, n_, alpha, x, incx_, y, incy_);
}

trnblasStatus_t trnblasZaxpy_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex *alpha,
                                const trnDoubleComplex *x, int64_t incx, trnDoubleComplex *y,
                                int64_t incy) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasZaxpy(handle, n_, alpha, x, incx_, y, incy_);
}

trnblasStatus_t trnblasSscal_64(trnblasHandle_t handle, int64_t n, const float *alpha, float *x,
                                int64_t incx) {
    FIT(n);
    FIT(incx);
    return trnblasSscal(handle, n_, alpha, x, incx_);
}

trnblasStatus_t trnblasDscal_64(trnblasHandle_t handle, int64_t n, const double *alpha, double *x,
                                int64_t incx) {
    FIT(n);
    FIT(incx);
    return trnblasDscal(handle, n_, alpha, x, incx_);
}

trnblasStatus_t trnblasCscal_64(trnblasHandle_t handle, int64_t n, const trnComplex *alpha,
                                trnComplex *x, int64_t incx) {
    FIT(n);
    FIT(incx);
    return trnblasCscal(handle, n_, alpha, x, incx_);
}

trnblasStatus_t trnblasZscal_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex *alpha,
                                trnDoubleComplex *x, int64_t incx) {
    FIT(n);
    FIT(incx);
    return trnblasZscal(handle, n_, alpha, x, incx_);
}

trnblasStatus_t trnblasCsscal_64(trnblasHandle_t handle, int64_t n, const float *alpha,
                                 trnComplex *x, int64_t incx) {
    FIT(n);
    FIT(incx);
    return trnblasCsscal(handle, n_, alpha, x, incx_);
}

trnblasStatus_t trnblasZdscal_64(trnblasHandle_t handle, int64_t n, const double *alpha,
                                 trnDoubleComplex *x, int64_t incx) {
    FIT(n);
    FIT(incx);
    return trnblasZdscal(handle, n_, alpha, x, incx_);
}

trnblasStatus_t trnblasScopy_64(trnblasHandle_t handle, int64_t n, const float *x, int64_t incx,
                                float *y, int64_t incy) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasScopy(handle, n_, x, incx_, y, incy_);
}

trnblasStatus_t trnblasDcopy_64(trnblasHandle_t handle, int64_t n, const double *x, int64_t incx,
                                double *y, int64_t incy) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasDcopy(handle, n_, x, incx_, y, incy_);
}

trnblasStatus_t trnblasCcopy_64(trnblasHandle_t handle, int64_t n, const trnComplex *x,
                                int64_t incx, trnComplex *y, int64_t incy) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasCcopy(handle, n_, x, incx_, y, incy_);
}

trnblasStatus_t trnblasZcopy_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex *x,
                                int64_t incx, trnDoubleComplex *y, int64_t incy) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasZcopy(handle, n_, x, incx_, y, incy_);
}

trnblasStatus_t trnblasSswap_64(trnblasHandle_t handle, int64_t n, float *x, int64_t incx, float *y,
                                int64_t incy) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasSswap(handle, n_, x, incx_, y, incy_);
}

trnblasStatus_t trnblasDswap_64(trnblasHandle_t handle, int64_t n, double *x, int64_t incx,
                                double *y, int64_t incy) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasDswap(handle, n_, x, incx_, y, incy_);
}

trnblasStatus_t trnblasCswap_64(trnblasHandle_t handle, int64_t n, trnComplex *x, int64_t incx,
                                trnComplex *y, int64_t incy) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasCswap(handle, n_, x, incx_, y, incy_);
}

trnblasStatus_t trnblasZswap_64(trnblasHandle_t handle, int64_t n, trnDoubleComplex *x,
                                int64_t incx, trnDoubleComplex *y, int64_t incy) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasZswap(handle, n_, x, incx_, y, incy_);
}

trnblasStatus_t trnblasSdot_64(trnblasHandle_t handle, int64_t n, const float *x, int64_t incx,
                               const float *y, int64_t incy, float *result) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasSdot(handle, n_, x, incx_, y, incy_, result);
}

trnblasStatus_t trnblasDdot_64(trnblasHandle_t handle, int64_t n, const double *x, int64_t incx,
                               const double *y, int64_t incy, double *result) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasDdot(handle, n_, x, incx_, y, incy_, result);
}

trnblasStatus_t trnblasCdotu_64(trnblasHandle_t handle, int64_t n, const trnComplex *x,
                                int64_t incx, const trnComplex *y, int64_t incy,
                                trnComplex *result) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasCdotu(handle, n_, x, incx_, y, incy_, result);
}

trnblasStatus_t trnblasCdotc_64(trnblasHandle_t handle, int64_t n, const trnComplex *x,
                                int64_t incx, const trnComplex *y, int64_t incy,
                                trnComplex *result) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasCdotc(handle, n_, x, incx_, y, incy_, result);
}

trnblasStatus_t trnblasZdotu_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex *x,
                                int64_t incx, const trnDoubleComplex *y, int64_t incy,
                                trnDoubleComplex *result) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasZdotu(handle, n_, x, incx_, y, incy_, result);
}

trnblasStatus_t trnblasZdotc_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex *x,
                                int64_t incx, const trnDoubleComplex *y, int64_t incy,
                                trnDoubleComplex *result) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasZdotc(handle, n_, x, incx_, y, incy_, result);
}

trnblasStatus_t trnblasSnrm2_64(trnblasHandle_t handle, int64_t n, const float *x, int64_t incx,
                                float *result) {
    FIT(n);
    FIT(incx);
    return trnblasSnrm2(handle, n_, x, incx_, result);
}

trnblasStatus_t trnblasDnrm2_64(trnblasHandle_t handle, int64_t n, const double *x, int64_t incx,
                                double *result) {
    FIT(n);
    FIT(incx);
    return trnblasDnrm2(handle, n_, x, incx_, result);
}

trnblasStatus_t trnblasScnrm2_64(trnblasHandle_t handle, int64_t n, const trnComplex *x,
                                 int64_t incx, float *result) {
    FIT(n);
    FIT(incx);
    return trnblasScnrm2(handle, n_, x, incx_, result);
}

trnblasStatus_t trnblasDznrm2_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex *x,
                                 int64_t incx, double *result) {
    FIT(n);
    FIT(incx);
    return trnblasDznrm2(handle, n_, x, incx_, result);
}

trnblasStatus_t trnblasSasum_64(trnblasHandle_t handle, int64_t n, const float *x, int64_t incx,
                                float *result) {
    FIT(n);
    FIT(incx);
    return trnblasSasum(handle, n_, x, incx_, result);
}

trnblasStatus_t trnblasDasum_64(trnblasHandle_t handle, int64_t n, const double *x, int64_t incx,
                                double *result) {
    FIT(n);
    FIT(incx);
    return trnblasDasum(handle, n_, x, incx_, result);
}

trnblasStatus_t trnblasScasum_64(trnblasHandle_t handle, int64_t n, const trnComplex *x,
                                 int64_t incx, float *result) {
    FIT(n);
    FIT(incx);
    return trnblasScasum(handle, n_, x, incx_, result);
}

trnblasStatus_t trnblasDzasum_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex *x,
                                 int64_t incx, double *result) {
    FIT(n);
    FIT(incx);
    return trnblasDzasum(handle, n_, x, incx_, result);
}

trnblasStatus_t trnblasIsamax_64(trnblasHandle_t handle, int64_t n, const float *x, int64_t incx,
                                 int64_t *result) {
    FIT(n);
    FIT(incx);
    INDEX64(trnblasIsamax, handle, n_, x, incx_, result);
}

trnblasStatus_t trnblasIdamax_64(trnblasHandle_t handle, int64_t n, const double *x, int64_t incx,
                                 int64_t *result) {
    FIT(n);
    FIT(incx);
    INDEX64(trnblasIdamax, handle, n_, x, incx_, result);
}

trnblasStatus_t trnblasIcamax_64(trnblasHandle_t handle, int64_t n, const trnComplex *x,
                                 int64_t incx, int64_t *result) {
    FIT(n);
    FIT(incx);
    INDEX64(trnblasIcamax, handle, n_, x, incx_, result);
}

trnblasStatus_t trnblasIzamax_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex *x,
                                 int64_t incx, int64_t *result) {
    FIT(n);
    FIT(incx);
    INDEX64(trnblasIzamax, handle, n_, x, incx_, result);
}

trnblasStatus_t trnblasIsamin_64(trnblasHandle_t handle, int64_t n, const float *x, int64_t incx,
                                 int64_t *result) {
    FIT(n);
    FIT(incx);
    INDEX64(trnblasIsamin, handle, n_, x, incx_, result);
}

trnblasStatus_t trnblasIdamin_64(trnblasHandle_t handle, int64_t n, const double *x, int64_t incx,
                                 int64_t *result) {
    FIT(n);
    FIT(incx);
    INDEX64(trnblasIdamin, handle, n_, x, incx_, result);
}

trnblasStatus_t trnblasIcamin_64(trnblasHandle_t handle, int64_t n, const trnComplex *x,
                                 int64_t incx, int64_t *result) {
    FIT(n);
    FIT(incx);
    INDEX64(trnblasIcamin, handle, n_, x, incx_, result);
}

trnblasStatus_t trnblasIzamin_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex *x,
                                 int64_t incx, int64_t *result) {
    FIT(n);
    FIT(incx);
    INDEX64(trnblasIzamin, handle, n_, x, incx_, result);
}

trnblasStatus_t trnblasSrot_64(trnblasHandle_t handle, int64_t n, float *x, int64_t incx, float *y,
                               int64_t incy, const float *c, const float *s) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasSrot(handle, n_, x, incx_, y, incy_, c, s);
}

trnblasStatus_t trnblasDrot_64(trnblasHandle_t handle, int64_t n, double *x, int64_t incx,
                               double *y, int64_t incy, const double *c, const double *s) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasDrot(handle, n_, x, incx_, y, incy_, c, s);
}

trnblasStatus_t trnblasCrot_64(trnblasHandle_t handle, int64_t n, trnComplex *x, int64_t incx,
                               trnComplex *y, int64_t incy, const float *c, const trnComplex *s) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasCrot(handle, n_, x, incx_, y, incy_, c, s);
}

trnblasStatus_t trnblasZrot_64(trnblasHandle_t handle, int64_t n, trnDoubleComplex *x, int64_t incx,
                               trnDoubleComplex *y, int64_t incy, const double *c,
                               const trnDoubleComplex *s) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasZrot(handle, n_, x, incx_, y, incy_, c, s);
}

trnblasStatus_t trnblasCsrot_64(trnblasHandle_t handle, int64_t n, trnComplex *x, int64_t incx,
                                trnComplex *y, int64_t incy, const float *c, const float *s) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasCsrot(handle, n_, x, incx_, y, incy_, c, s);
}

trnblasStatus_t trnblasZdrot_64(trnblasHandle_t handle, int64_t n, trnDoubleComplex *x,
                                int64_t incx, trnDoubleComplex *y, int64_t incy, const double *c,
                                const double *s) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasZdrot(handle, n_, x, incx_, y, incy_, c, s);
}

trnblasStatus_t trnblasSrotm_64(trnblasHandle_t handle, int64_t n, float *x, int64_t incx, float *y,
                                int64_t incy, const float *param) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasSrotm(handle, n_, x, incx_, y, incy_, param);
}

trnblasStatus_t trnblasDrotm_64(trnblasHandle_t handle, int64_t n, double *x, int64_t incx,
                                double *y, int64_t incy, const double *param) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasDrotm(handle, n_, x, incx_, y, incy_, param);
}

/* ---- Level 1 with explicit types (blas_ex.c). */

trnblasStatus_t trnblasAxpyEx_64(trnblasHandle_t handle, int64_t n, const void *alpha,
                                 trnsciDataType_t alphaType, const void *x, trnsciDataType_t xType,
                                 int64_t incx, void *y, trnsciDataType_t yType, int64_t incy,
                                 trnsciDataType_t executiontype) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasAxpyEx(handle, n_, alpha, alphaType, x, xType, incx_, y, yType, incy_,
                         executiontype);
}

trnblasStatus_t trnblasDotEx_64(trnblasHandle_t handle, int64_t n, const void *x,
                                trnsciDataType_t xType, int64_t incx, const void *y,
                                trnsciDataType_t yType, int64_t incy, void *result,
                                trnsciDataType_t resultType, trnsciDataType_t executionType) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasDotEx(handle, n_, x, xType, incx_, y, yType, incy_, result, resultType,
                        executionType);
}

trnblasStatus_t trnblasDotcEx_64(trnblasHandle_t handle, int64_t n, const void *x,
                                 trnsciDataType_t xType, int64_t incx, const void *y,
                                 trnsciDataType_t yType, int64_t incy, void *result,
                                 trnsciDataType_t resultType, trnsciDataType_t executionType) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasDotcEx(handle, n_, x, xType, incx_, y, yType, incy_, result, resultType,
                         executionType);
}

trnblasStatus_t trnblasNrm2Ex_64(trnblasHandle_t handle, int64_t n, const void *x,
                                 trnsciDataType_t xType, int64_t incx, void *result,
                                 trnsciDataType_t resultType, trnsciDataType_t executionType) {
    FIT(n);
    FIT(incx);
    return trnblasNrm2Ex(handle, n_, x, xType, incx_, result, resultType, executionType);
}

trnblasStatus_t trnblasScalEx_64(trnblasHandle_t handle, int64_t n, const void *alpha,
                                 trnsciDataType_t alphaType, void *x, trnsciDataType_t xType,
                                 int64_t incx, trnsciDataType_t executionType) {
    FIT(n);
    FIT(incx);
    return trnblasScalEx(handle, n_, alpha, alphaType, x, xType, incx_, executionType);
}

trnblasStatus_t trnblasRotEx_64(trnblasHandle_t handle, int64_t n, void *x, trnsciDataType_t xType,
                                int64_t incx, void *y, trnsciDataType_t yType, int64_t incy,
                                const void *c, const void *s, trnsciDataType_t csType,
                                trnsciDataType_t executiontype) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasRotEx(handle, n_, x, xType, incx_, y, yType, incy_, c, s, csType, executiontype);
}

/* ---- Level 2, with the batched gemv. */

trnblasStatus_t trnblasSgemv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                int64_t n, const float *alpha, const float *A, int64_t lda,
                                const float *x, int64_t incx, const float *beta, float *y,
                                int64_t incy) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    return trnblasSgemv(handle, trans, m_, n_, alpha, A, lda_, x, incx_, beta, y, incy_);
}

trnblasStatus_t trnblasDgemv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                int64_t n, const double *alpha, const double *A, int64_t lda,
                                const double *x, int64_t incx, const double *beta, double *y,
                                int64_t incy) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    return trnblasDgemv(handle, trans, m_, n_, alpha, A, lda_, x, incx_, beta, y, incy_);
}

trnblasStatus_t trnblasCgemv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                int64_t n, const trnComplex *alpha, const trnComplex *A,
                                int64_t lda, const trnComplex *x, int64_t incx,
                                const trnComplex *beta, trnComplex *y, int64_t incy) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    return trnblasCgemv(handle, trans, m_, n_, alpha, A, lda_, x, incx_, beta, y, incy_);
}

trnblasStatus_t trnblasZgemv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                int64_t n, const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                int64_t lda, const trnDoubleComplex *x, int64_t incx,
                                const trnDoubleComplex *beta, trnDoubleComplex *y, int64_t incy) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    return trnblasZgemv(handle, trans, m_, n_, alpha, A, lda_, x, incx_, beta, y, incy_);
}

trnblasStatus_t trnblasSgbmv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                int64_t n, int64_t kl, int64_t ku, const float *alpha,
                                const float *A, int64_t lda, const float *x, int64_t incx,
                                const float *beta, float *y, int64_t incy) {
    FIT(m);
    FIT(n);
    FIT(kl);
    FIT(ku);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    return trnblasSgbmv(handle, trans, m_, n_, kl_, ku_, alpha, A, lda_, x, incx_, beta, y, incy_);
}

trnblasStatus_t trnblasDgbmv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                int64_t n, int64_t kl, int64_t ku, const double *alpha,
                                const double *A, int64_t lda, const double *x, int64_t incx,
                                const double *beta, double *y, int64_t incy) {
    FIT(m);
    FIT(n);
    FIT(kl);
    FIT(ku);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    return trnblasDgbmv(handle, trans, m_, n_, kl_, ku_, alpha, A, lda_, x, incx_, beta, y, incy_);
}

trnblasStatus_t trnblasCgbmv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                int64_t n, int64_t kl, int64_t ku, const trnComplex *alpha,
                                const trnComplex *A, int64_t lda, const trnComplex *x, int64_t incx,
                                const trnComplex *beta, trnComplex *y, int64_t incy) {
    FIT(m);
    FIT(n);
    FIT(kl);
    FIT(ku);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    return trnblasCgbmv(handle, trans, m_, n_, kl_, ku_, alpha, A, lda_, x, incx_, beta, y, incy_);
}

trnblasStatus_t trnblasZgbmv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                int64_t n, int64_t kl, int64_t ku, const trnDoubleComplex *alpha,
                                const trnDoubleComplex *A, int64_t lda, const trnDoubleComplex *x,
                                int64_t incx, const trnDoubleComplex *beta, trnDoubleComplex *y,
                                int64_t incy) {
    FIT(m);
    FIT(n);
    FIT(kl);
    FIT(ku);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    return trnblasZgbmv(handle, trans, m_, n_, kl_, ku_, alpha, A, lda_, x, incx_, beta, y, incy_);
}

trnblasStatus_t trnblasSsymv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const float *alpha, const float *A, int64_t lda, const float *x,
                                int64_t incx, const float *beta, float *y, int64_t incy) {
    FIT(n);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    return trnblasSsymv(handle, uplo, n_, alpha, A, lda_, x, incx_, beta, y, incy_);
}

trnblasStatus_t trnblasDsymv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const double *alpha, const double *A, int64_t lda, const double *x,
                                int64_t incx, const double *beta, double *y, int64_t incy) {
    FIT(n);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    return trnblasDsymv(handle, uplo, n_, alpha, A, lda_, x, incx_, beta, y, incy_);
}

trnblasStatus_t trnblasCsymv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                const trnComplex *x, int64_t incx, const trnComplex *beta,
                                trnComplex *y, int64_t incy) {
    FIT(n);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    return trnblasCsymv(handle, uplo, n_, alpha, A, lda_, x, incx_, beta, y, incy_);
}

trnblasStatus_t trnblasZsymv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                int64_t lda, const trnDoubleComplex *x, int64_t incx,
                                const trnDoubleComplex *beta, trnDoubleComplex *y, int64_t incy) {
    FIT(n);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    return trnblasZsymv(handle, uplo, n_, alpha, A, lda_, x, incx_, beta, y, incy_);
}

trnblasStatus_t trnblasChemv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                const trnComplex *x, int64_t incx, const trnComplex *beta,
                                trnComplex *y, int64_t incy) {
    FIT(n);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    return trnblasChemv(handle, uplo, n_, alpha, A, lda_, x, incx_, beta, y, incy_);
}

trnblasStatus_t trnblasZhemv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                int64_t lda, const trnDoubleComplex *x, int64_t incx,
                                const trnDoubleComplex *beta, trnDoubleComplex *y, int64_t incy) {
    FIT(n);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    return trnblasZhemv(handle, uplo, n_, alpha, A, lda_, x, incx_, beta, y, incy_);
}

trnblasStatus_t trnblasStrmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const float *A, int64_t lda, float *x, int64_t incx) {
    FIT(n);
    FIT(lda);
    FIT(incx);
    return trnblasStrmv(handle, uplo, trans, diag, n_, A, lda_, x, incx_);
}

trnblasStatus_t trnblasDtrmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const double *A, int64_t lda, double *x, int64_t incx) {
    FIT(n);
    FIT(lda);
    FIT(incx);
    return trnblasDtrmv(handle, uplo, trans, diag, n_, A, lda_, x, incx_);
}

trnblasStatus_t trnblasCtrmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const trnComplex *A, int64_t lda, trnComplex *x, int64_t incx) {
    FIT(n);
    FIT(lda);
    FIT(incx);
    return trnblasCtrmv(handle, uplo, trans, diag, n_, A, lda_, x, incx_);
}

trnblasStatus_t trnblasZtrmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const trnDoubleComplex *A, int64_t lda, trnDoubleComplex *x,
                                int64_t incx) {
    FIT(n);
    FIT(lda);
    FIT(incx);
    return trnblasZtrmv(handle, uplo, trans, diag, n_, A, lda_, x, incx_);
}

trnblasStatus_t trnblasStrsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const float *A, int64_t lda, float *x, int64_t incx) {
    FIT(n);
    FIT(lda);
    FIT(incx);
    return trnblasStrsv(handle, uplo, trans, diag, n_, A, lda_, x, incx_);
}

trnblasStatus_t trnblasDtrsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const double *A, int64_t lda, double *x, int64_t incx) {
    FIT(n);
    FIT(lda);
    FIT(incx);
    return trnblasDtrsv(handle, uplo, trans, diag, n_, A, lda_, x, incx_);
}

trnblasStatus_t trnblasCtrsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const trnComplex *A, int64_t lda, trnComplex *x, int64_t incx) {
    FIT(n);
    FIT(lda);
    FIT(incx);
    return trnblasCtrsv(handle, uplo, trans, diag, n_, A, lda_, x, incx_);
}

trnblasStatus_t trnblasZtrsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const trnDoubleComplex *A, int64_t lda, trnDoubleComplex *x,
                                int64_t incx) {
    FIT(n);
    FIT(lda);
    FIT(incx);
    return trnblasZtrsv(handle, uplo, trans, diag, n_, A, lda_, x, incx_);
}

trnblasStatus_t trnblasSger_64(trnblasHandle_t handle, int64_t m, int64_t n, const float *alpha,
                               const float *x, int64_t incx, const float *y, int64_t incy, float *A,
                               int64_t lda) {
    FIT(m);
    FIT(n);
    FIT(incx);
    FIT(incy);
    FIT(lda);
    return trnblasSger(handle, m_, n_, alpha, x, incx_, y, incy_, A, lda_);
}

trnblasStatus_t trnblasDger_64(trnblasHandle_t handle, int64_t m, int64_t n, const double *alpha,
                               const double *x, int64_t incx, const double *y, int64_t incy,
                               double *A, int64_t lda) {
    FIT(m);
    FIT(n);
    FIT(incx);
    FIT(incy);
    FIT(lda);
    return trnblasDger(handle, m_, n_, alpha, x, incx_, y, incy_, A, lda_);
}

trnblasStatus_t trnblasCgeru_64(trnblasHandle_t handle, int64_t m, int64_t n,
                                const trnComplex *alpha, const trnComplex *x, int64_t incx,
                                const trnComplex *y, int64_t incy, trnComplex *A, int64_t lda) {
    FIT(m);
    FIT(n);
    FIT(incx);
    FIT(incy);
    FIT(lda);
    return trnblasCgeru(handle, m_, n_, alpha, x, incx_, y, incy_, A, lda_);
}

trnblasStatus_t trnblasCgerc_64(trnblasHandle_t handle, int64_t m, int64_t n,
                                const trnComplex *alpha, const trnComplex *x, int64_t incx,
                                const trnComplex *y, int64_t incy, trnComplex *A, int64_t lda) {
    FIT(m);
    FIT(n);
    FIT(incx);
    FIT(incy);
    FIT(lda);
    return trnblasCgerc(handle, m_, n_, alpha, x, incx_, y, incy_, A, lda_);
}

trnblasStatus_t trnblasZgeru_64(trnblasHandle_t handle, int64_t m, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *x,
                                int64_t incx, const trnDoubleComplex *y, int64_t incy,
                                trnDoubleComplex *A, int64_t lda) {
    FIT(m);
    FIT(n);
    FIT(incx);
    FIT(incy);
    FIT(lda);
    return trnblasZgeru(handle, m_, n_, alpha, x, incx_, y, incy_, A, lda_);
}

trnblasStatus_t trnblasZgerc_64(trnblasHandle_t handle, int64_t m, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *x,
                                int64_t incx, const trnDoubleComplex *y, int64_t incy,
                                trnDoubleComplex *A, int64_t lda) {
    FIT(m);
    FIT(n);
    FIT(incx);
    FIT(incy);
    FIT(lda);
    return trnblasZgerc(handle, m_, n_, alpha, x, incx_, y, incy_, A, lda_);
}

trnblasStatus_t trnblasSsyr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                               const float *alpha, const float *x, int64_t incx, float *A,
                               int64_t lda) {
    FIT(n);
    FIT(incx);
    FIT(lda);
    return trnblasSsyr(handle, uplo, n_, alpha, x, incx_, A, lda_);
}

trnblasStatus_t trnblasDsyr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                               const double *alpha, const double *x, int64_t incx, double *A,
                               int64_t lda) {
    FIT(n);
    FIT(incx);
    FIT(lda);
    return trnblasDsyr(handle, uplo, n_, alpha, x, incx_, A, lda_);
}

trnblasStatus_t trnblasCsyr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                               const trnComplex *alpha, const trnComplex *x, int64_t incx,
                               trnComplex *A, int64_t lda) {
    FIT(n);
    FIT(incx);
    FIT(lda);
    return trnblasCsyr(handle, uplo, n_, alpha, x, incx_, A, lda_);
}

trnblasStatus_t trnblasZsyr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                               const trnDoubleComplex *alpha, const trnDoubleComplex *x,
                               int64_t incx, trnDoubleComplex *A, int64_t lda) {
    FIT(n);
    FIT(incx);
    FIT(lda);
    return trnblasZsyr(handle, uplo, n_, alpha, x, incx_, A, lda_);
}

trnblasStatus_t trnblasSsyr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const float *alpha, const float *x, int64_t incx, const float *y,
                                int64_t incy, float *A, int64_t lda) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    FIT(lda);
    return trnblasSsyr2(handle, uplo, n_, alpha, x, incx_, y, incy_, A, lda_);
}

trnblasStatus_t trnblasDsyr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const double *alpha, const double *x, int64_t incx, const double *y,
                                int64_t incy, double *A, int64_t lda) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    FIT(lda);
    return trnblasDsyr2(handle, uplo, n_, alpha, x, incx_, y, incy_, A, lda_);
}

trnblasStatus_t trnblasCsyr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnComplex *alpha, const trnComplex *x, int64_t incx,
                                const trnComplex *y, int64_t incy, trnComplex *A, int64_t lda) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    FIT(lda);
    return trnblasCsyr2(handle, uplo, n_, alpha, x, incx_, y, incy_, A, lda_);
}

trnblasStatus_t trnblasZsyr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *x,
                                int64_t incx, const trnDoubleComplex *y, int64_t incy,
                                trnDoubleComplex *A, int64_t lda) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    FIT(lda);
    return trnblasZsyr2(handle, uplo, n_, alpha, x, incx_, y, incy_, A, lda_);
}

trnblasStatus_t trnblasCher_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                               const float *alpha, const trnComplex *x, int64_t incx, trnComplex *A,
                               int64_t lda) {
    FIT(n);
    FIT(incx);
    FIT(lda);
    return trnblasCher(handle, uplo, n_, alpha, x, incx_, A, lda_);
}

trnblasStatus_t trnblasZher_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                               const double *alpha, const trnDoubleComplex *x, int64_t incx,
                               trnDoubleComplex *A, int64_t lda) {
    FIT(n);
    FIT(incx);
    FIT(lda);
    return trnblasZher(handle, uplo, n_, alpha, x, incx_, A, lda_);
}

trnblasStatus_t trnblasCher2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnComplex *alpha, const trnComplex *x, int64_t incx,
                                const trnComplex *y, int64_t incy, trnComplex *A, int64_t lda) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    FIT(lda);
    return trnblasCher2(handle, uplo, n_, alpha, x, incx_, y, incy_, A, lda_);
}

trnblasStatus_t trnblasZher2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *x,
                                int64_t incx, const trnDoubleComplex *y, int64_t incy,
                                trnDoubleComplex *A, int64_t lda) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    FIT(lda);
    return trnblasZher2(handle, uplo, n_, alpha, x, incx_, y, incy_, A, lda_);
}

trnblasStatus_t trnblasSgemvBatched_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                       int64_t n, const float *alpha, const float *const Aarray[],
                                       int64_t lda, const float *const xarray[], int64_t incx,
                                       const float *beta, float *const yarray[], int64_t incy,
                                       int64_t batchCount) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    FIT(batchCount);
    return trnblasSgemvBatched(handle, trans, m_, n_, alpha, Aarray, lda_, xarray, incx_, beta,
                               yarray, incy_, batchCount_);
}

trnblasStatus_t trnblasDgemvBatched_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                       int64_t n, const double *alpha, const double *const Aarray[],
                                       int64_t lda, const double *const xarray[], int64_t incx,
                                       const double *beta, double *const yarray[], int64_t incy,
                                       int64_t batchCount) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    FIT(batchCount);
    return trnblasDgemvBatched(handle, trans, m_, n_, alpha, Aarray, lda_, xarray, incx_, beta,
                               yarray, incy_, batchCount_);
}

trnblasStatus_t trnblasCgemvBatched_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                       int64_t n, const trnComplex *alpha,
                                       const trnComplex *const Aarray[], int64_t lda,
                                       const trnComplex *const xarray[], int64_t incx,
                                       const trnComplex *beta, trnComplex *const yarray[],
                                       int64_t incy, int64_t batchCount) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    FIT(batchCount);
    return trnblasCgemvBatched(handle, trans, m_, n_, alpha, Aarray, lda_, xarray, incx_, beta,
                               yarray, incy_, batchCount_);
}

trnblasStatus_t trnblasZgemvBatched_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                       int64_t n, const trnDoubleComplex *alpha,
                                       const trnDoubleComplex *const Aarray[], int64_t lda,
                                       const trnDoubleComplex *const xarray[], int64_t incx,
                                       const trnDoubleComplex *beta,
                                       trnDoubleComplex *const yarray[], int64_t incy,
                                       int64_t batchCount) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    FIT(batchCount);
    return trnblasZgemvBatched(handle, trans, m_, n_, alpha, Aarray, lda_, xarray, incx_, beta,
                               yarray, incy_, batchCount_);
}

trnblasStatus_t trnblasSgemvStridedBatched_64(trnblasHandle_t handle, trnblasOperation_t trans,
                                              int64_t m, int64_t n, const float *alpha,
                                              const float *A, int64_t lda, long long int strideA,
                                              const float *x, int64_t incx, long long int stridex,
                                              const float *beta, float *y, int64_t incy,
                                              long long int stridey, int64_t batchCount) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    FIT(batchCount);
    return trnblasSgemvStridedBatched(handle, trans, m_, n_, alpha, A, lda_, strideA, x, incx_,
                                      stridex, beta, y, incy_, stridey, batchCount_);
}

trnblasStatus_t trnblasDgemvStridedBatched_64(trnblasHandle_t handle, trnblasOperation_t trans,
                                              int64_t m, int64_t n, const double *alpha,
                                              const double *A, int64_t lda, long long int strideA,
                                              const double *x, int64_t incx, long long int stridex,
                                              const double *beta, double *y, int64_t incy,
                                              long long int stridey, int64_t batchCount) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    FIT(batchCount);
    return trnblasDgemvStridedBatched(handle, trans, m_, n_, alpha, A, lda_, strideA, x, incx_,
                                      stridex, beta, y, incy_, stridey, batchCount_);
}

trnblasStatus_t trnblasCgemvStridedBatched_64(trnblasHandle_t handle, trnblasOperation_t trans,
                                              int64_t m, int64_t n, const trnComplex *alpha,
                                              const trnComplex *A, int64_t lda,
                                              long long int strideA, const trnComplex *x,
                                              int64_t incx, long long int stridex,
                                              const trnComplex *beta, trnComplex *y, int64_t incy,
                                              long long int stridey, int64_t batchCount) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    FIT(batchCount);
    return trnblasCgemvStridedBatched(handle, trans, m_, n_, alpha, A, lda_, strideA, x, incx_,
                                      stridex, beta, y, incy_, stridey, batchCount_);
}

trnblasStatus_t trnblasZgemvStridedBatched_64(
    trnblasHandle_t handle, trnblasOperation_t trans, int64_t m, int64_t n,
    const trnDoubleComplex *alpha, const trnDoubleComplex *A, int64_t lda, long long int strideA,
    const trnDoubleComplex *x, int64_t incx, long long int stridex, const trnDoubleComplex *beta,
    trnDoubleComplex *y, int64_t incy, long long int stridey, int64_t batchCount) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    FIT(batchCount);
    return trnblasZgemvStridedBatched(handle, trans, m_, n_, alpha, A, lda_, strideA, x, incx_,
                                      stridex, beta, y, incy_, stridey, batchCount_);
}

trnblasStatus_t trnblasStbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                int64_t k, const float *A, int64_t lda, float *x, int64_t incx) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(incx);
    return trnblasStbmv(handle, uplo, trans, diag, n_, k_, A, lda_, x, incx_);
}

trnblasStatus_t trnblasDtbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                int64_t k, const double *A, int64_t lda, double *x, int64_t incx) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(incx);
    return trnblasDtbmv(handle, uplo, trans, diag, n_, k_, A, lda_, x, incx_);
}

trnblasStatus_t trnblasCtbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                int64_t k, const trnComplex *A, int64_t lda, trnComplex *x,
                                int64_t incx) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(incx);
    return trnblasCtbmv(handle, uplo, trans, diag, n_, k_, A, lda_, x, incx_);
}

trnblasStatus_t trnblasZtbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                int64_t k, const trnDoubleComplex *A, int64_t lda,
                                trnDoubleComplex *x, int64_t incx) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(incx);
    return trnblasZtbmv(handle, uplo, trans, diag, n_, k_, A, lda_, x, incx_);
}

trnblasStatus_t trnblasStpmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const float *AP, float *x, int64_t incx) {
    FIT(n);
    FIT(incx);
    return trnblasStpmv(handle, uplo, trans, diag, n_, AP, x, incx_);
}

trnblasStatus_t trnblasDtpmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const double *AP, double *x, int64_t incx) {
    FIT(n);
    FIT(incx);
    return trnblasDtpmv(handle, uplo, trans, diag, n_, AP, x, incx_);
}

trnblasStatus_t trnblasCtpmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const trnComplex *AP, trnComplex *x, int64_t incx) {
    FIT(n);
    FIT(incx);
    return trnblasCtpmv(handle, uplo, trans, diag, n_, AP, x, incx_);
}

trnblasStatus_t trnblasZtpmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const trnDoubleComplex *AP, trnDoubleComplex *x, int64_t incx) {
    FIT(n);
    FIT(incx);
    return trnblasZtpmv(handle, uplo, trans, diag, n_, AP, x, incx_);
}

trnblasStatus_t trnblasStbsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                int64_t k, const float *A, int64_t lda, float *x, int64_t incx) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(incx);
    return trnblasStbsv(handle, uplo, trans, diag, n_, k_, A, lda_, x, incx_);
}

trnblasStatus_t trnblasDtbsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                int64_t k, const double *A, int64_t lda, double *x, int64_t incx) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(incx);
    return trnblasDtbsv(handle, uplo, trans, diag, n_, k_, A, lda_, x, incx_);
}

trnblasStatus_t trnblasCtbsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                int64_t k, const trnComplex *A, int64_t lda, trnComplex *x,
                                int64_t incx) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(incx);
    return trnblasCtbsv(handle, uplo, trans, diag, n_, k_, A, lda_, x, incx_);
}

trnblasStatus_t trnblasZtbsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                int64_t k, const trnDoubleComplex *A, int64_t lda,
                                trnDoubleComplex *x, int64_t incx) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(incx);
    return trnblasZtbsv(handle, uplo, trans, diag, n_, k_, A, lda_, x, incx_);
}

trnblasStatus_t trnblasStpsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const float *AP, float *x, int64_t incx) {
    FIT(n);
    FIT(incx);
    return trnblasStpsv(handle, uplo, trans, diag, n_, AP, x, incx_);
}

trnblasStatus_t trnblasDtpsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const double *AP, double *x, int64_t incx) {
    FIT(n);
    FIT(incx);
    return trnblasDtpsv(handle, uplo, trans, diag, n_, AP, x, incx_);
}

trnblasStatus_t trnblasCtpsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const trnComplex *AP, trnComplex *x, int64_t incx) {
    FIT(n);
    FIT(incx);
    return trnblasCtpsv(handle, uplo, trans, diag, n_, AP, x, incx_);
}

trnblasStatus_t trnblasZtpsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const trnDoubleComplex *AP, trnDoubleComplex *x, int64_t incx) {
    FIT(n);
    FIT(incx);
    return trnblasZtpsv(handle, uplo, trans, diag, n_, AP, x, incx_);
}

trnblasStatus_t trnblasSsbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                int64_t k, const float *alpha, const float *A, int64_t lda,
                                const float *x, int64_t incx, const float *beta, float *y,
                                int64_t incy) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    return trnblasSsbmv(handle, uplo, n_, k_, alpha, A, lda_, x, incx_, beta, y, incy_);
}

trnblasStatus_t trnblasDsbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                int64_t k, const double *alpha, const double *A, int64_t lda,
                                const double *x, int64_t incx, const double *beta, double *y,
                                int64_t incy) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    return trnblasDsbmv(handle, uplo, n_, k_, alpha, A, lda_, x, incx_, beta, y, incy_);
}

trnblasStatus_t trnblasChbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                int64_t k, const trnComplex *alpha, const trnComplex *A,
                                int64_t lda, const trnComplex *x, int64_t incx,
                                const trnComplex *beta, trnComplex *y, int64_t incy) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    return trnblasChbmv(handle, uplo, n_, k_, alpha, A, lda_, x, incx_, beta, y, incy_);
}

trnblasStatus_t trnblasZhbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                int64_t k, const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                int64_t lda, const trnDoubleComplex *x, int64_t incx,
                                const trnDoubleComplex *beta, trnDoubleComplex *y, int64_t incy) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(incx);
    FIT(incy);
    return trnblasZhbmv(handle, uplo, n_, k_, alpha, A, lda_, x, incx_, beta, y, incy_);
}

trnblasStatus_t trnblasSspmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const float *alpha, const float *AP, const float *x, int64_t incx,
                                const float *beta, float *y, int64_t incy) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasSspmv(handle, uplo, n_, alpha, AP, x, incx_, beta, y, incy_);
}

trnblasStatus_t trnblasDspmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const double *alpha, const double *AP, const double *x,
                                int64_t incx, const double *beta, double *y, int64_t incy) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasDspmv(handle, uplo, n_, alpha, AP, x, incx_, beta, y, incy_);
}

trnblasStatus_t trnblasChpmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnComplex *alpha, const trnComplex *AP, const trnComplex *x,
                                int64_t incx, const trnComplex *beta, trnComplex *y, int64_t incy) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasChpmv(handle, uplo, n_, alpha, AP, x, incx_, beta, y, incy_);
}

trnblasStatus_t trnblasZhpmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *AP,
                                const trnDoubleComplex *x, int64_t incx,
                                const trnDoubleComplex *beta, trnDoubleComplex *y, int64_t incy) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasZhpmv(handle, uplo, n_, alpha, AP, x, incx_, beta, y, incy_);
}

trnblasStatus_t trnblasSspr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                               const float *alpha, const float *x, int64_t incx, float *AP) {
    FIT(n);
    FIT(incx);
    return trnblasSspr(handle, uplo, n_, alpha, x, incx_, AP);
}

trnblasStatus_t trnblasDspr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                               const double *alpha, const double *x, int64_t incx, double *AP) {
    FIT(n);
    FIT(incx);
    return trnblasDspr(handle, uplo, n_, alpha, x, incx_, AP);
}

trnblasStatus_t trnblasChpr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                               const float *alpha, const trnComplex *x, int64_t incx,
                               trnComplex *AP) {
    FIT(n);
    FIT(incx);
    return trnblasChpr(handle, uplo, n_, alpha, x, incx_, AP);
}

trnblasStatus_t trnblasZhpr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                               const double *alpha, const trnDoubleComplex *x, int64_t incx,
                               trnDoubleComplex *AP) {
    FIT(n);
    FIT(incx);
    return trnblasZhpr(handle, uplo, n_, alpha, x, incx_, AP);
}

trnblasStatus_t trnblasSspr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const float *alpha, const float *x, int64_t incx, const float *y,
                                int64_t incy, float *AP) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasSspr2(handle, uplo, n_, alpha, x, incx_, y, incy_, AP);
}

trnblasStatus_t trnblasDspr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const double *alpha, const double *x, int64_t incx, const double *y,
                                int64_t incy, double *AP) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasDspr2(handle, uplo, n_, alpha, x, incx_, y, incy_, AP);
}

trnblasStatus_t trnblasChpr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnComplex *alpha, const trnComplex *x, int64_t incx,
                                const trnComplex *y, int64_t incy, trnComplex *AP) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasChpr2(handle, uplo, n_, alpha, x, incx_, y, incy_, AP);
}

trnblasStatus_t trnblasZhpr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *x,
                                int64_t incx, const trnDoubleComplex *y, int64_t incy,
                                trnDoubleComplex *AP) {
    FIT(n);
    FIT(incx);
    FIT(incy);
    return trnblasZhpr2(handle, uplo, n_, alpha, x, incx_, y, incy_, AP);
}

/* ---- The GEMM family. */

trnblasStatus_t trnblasHgemm_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                const trnsciHalf *alpha, const trnsciHalf *A, int64_t lda,
                                const trnsciHalf *B, int64_t ldb, const trnsciHalf *beta,
                                trnsciHalf *C, int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasHgemm(handle, transa, transb, m_, n_, k_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasHgemmStridedBatched_64(
    trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int64_t m,
    int64_t n, int64_t k, const trnsciHalf *alpha, const trnsciHalf *A, int64_t lda,
    long long int strideA, const trnsciHalf *B, int64_t ldb, long long int strideB,
    const trnsciHalf *beta, trnsciHalf *C, int64_t ldc, long long int strideC, int64_t batchCount) {
    FIT(m);
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    FIT(batchCount);
    return trnblasHgemmStridedBatched(handle, transa, transb, m_, n_, k_, alpha, A, lda_, strideA,
                                      B, ldb_, strideB, beta, C, ldc_, strideC, batchCount_);
}

trnblasStatus_t trnblasHgemmBatched_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                       trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                       const trnsciHalf *alpha, const trnsciHalf *const Aarray[],
                                       int64_t lda, const trnsciHalf *const Barray[], int64_t ldb,
                                       const trnsciHalf *beta, trnsciHalf *const Carray[],
                                       int64_t ldc, int64_t batchCount) {
    FIT(m);
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    FIT(batchCount);
    return trnblasHgemmBatched(handle, transa, transb, m_, n_, k_, alpha, Aarray, lda_, Barray,
                               ldb_, beta, Carray, ldc_, batchCount_);
}

trnblasStatus_t trnblasSgemm_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                const float *alpha, const float *A, int64_t lda, const float *B,
                                int64_t ldb, const float *beta, float *C, int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasSgemm(handle, transa, transb, m_, n_, k_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasDgemm_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                const double *alpha, const double *A, int64_t lda, const double *B,
                                int64_t ldb, const double *beta, double *C, int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasDgemm(handle, transa, transb, m_, n_, k_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasCgemm_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                const trnComplex *B, int64_t ldb, const trnComplex *beta,
                                trnComplex *C, int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasCgemm(handle, transa, transb, m_, n_, k_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasZgemm_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                int64_t lda, const trnDoubleComplex *B, int64_t ldb,
                                const trnDoubleComplex *beta, trnDoubleComplex *C, int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasZgemm(handle, transa, transb, m_, n_, k_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasSgemmStridedBatched_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                              trnblasOperation_t transb, int64_t m, int64_t n,
                                              int64_t k, const float *alpha, const float *A,
                                              int64_t lda, long long int strideA, const float *B,
                                              int64_t ldb, long long int strideB, const float *beta,
                                              float *C, int64_t ldc, long long int strideC,
                                              int64_t batchCount) {
    FIT(m);
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    FIT(batchCount);
    return trnblasSgemmStridedBatched(handle, transa, transb, m_, n_, k_, alpha, A, lda_, strideA,
                                      B, ldb_, strideB, beta, C, ldc_, strideC, batchCount_);
}

trnblasStatus_t trnblasDgemmStridedBatched_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                              trnblasOperation_t transb, int64_t m, int64_t n,
                                              int64_t k, const double *alpha, const double *A,
                                              int64_t lda, long long int strideA, const double *B,
                                              int64_t ldb, long long int strideB,
                                              const double *beta, double *C, int64_t ldc,
                                              long long int strideC, int64_t batchCount) {
    FIT(m);
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    FIT(batchCount);
    return trnblasDgemmStridedBatched(handle, transa, transb, m_, n_, k_, alpha, A, lda_, strideA,
                                      B, ldb_, strideB, beta, C, ldc_, strideC, batchCount_);
}

trnblasStatus_t trnblasCgemmStridedBatched_64(
    trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int64_t m,
    int64_t n, int64_t k, const trnComplex *alpha, const trnComplex *A, int64_t lda,
    long long int strideA, const trnComplex *B, int64_t ldb, long long int strideB,
    const trnComplex *beta, trnComplex *C, int64_t ldc, long long int strideC, int64_t batchCount) {
    FIT(m);
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    FIT(batchCount);
    return trnblasCgemmStridedBatched(handle, transa, transb, m_, n_, k_, alpha, A, lda_, strideA,
                                      B, ldb_, strideB, beta, C, ldc_, strideC, batchCount_);
}

trnblasStatus_t trnblasZgemmStridedBatched_64(
    trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int64_t m,
    int64_t n, int64_t k, const trnDoubleComplex *alpha, const trnDoubleComplex *A, int64_t lda,
    long long int strideA, const trnDoubleComplex *B, int64_t ldb, long long int strideB,
    const trnDoubleComplex *beta, trnDoubleComplex *C, int64_t ldc, long long int strideC,
    int64_t batchCount) {
    FIT(m);
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    FIT(batchCount);
    return trnblasZgemmStridedBatched(handle, transa, transb, m_, n_, k_, alpha, A, lda_, strideA,
                                      B, ldb_, strideB, beta, C, ldc_, strideC, batchCount_);
}

trnblasStatus_t trnblasSgemmBatched_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                       trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                       const float *alpha, const float *const Aarray[], int64_t lda,
                                       const float *const Barray[], int64_t ldb, const float *beta,
                                       float *const Carray[], int64_t ldc, int64_t batchCount) {
    FIT(m);
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    FIT(batchCount);
    return trnblasSgemmBatched(handle, transa, transb, m_, n_, k_, alpha, Aarray, lda_, Barray,
                               ldb_, beta, Carray, ldc_, batchCount_);
}

trnblasStatus_t trnblasDgemmBatched_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                       trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                       const double *alpha, const double *const Aarray[],
                                       int64_t lda, const double *const Barray[], int64_t ldb,
                                       const double *beta, double *const Carray[], int64_t ldc,
                                       int64_t batchCount) {
    FIT(m);
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    FIT(batchCount);
    return trnblasDgemmBatched(handle, transa, transb, m_, n_, k_, alpha, Aarray, lda_, Barray,
                               ldb_, beta, Carray, ldc_, batchCount_);
}

trnblasStatus_t trnblasCgemmBatched_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                       trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                       const trnComplex *alpha, const trnComplex *const Aarray[],
                                       int64_t lda, const trnComplex *const Barray[], int64_t ldb,
                                       const trnComplex *beta, trnComplex *const Carray[],
                                       int64_t ldc, int64_t batchCount) {
    FIT(m);
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    FIT(batchCount);
    return trnblasCgemmBatched(handle, transa, transb, m_, n_, k_, alpha, Aarray, lda_, Barray,
                               ldb_, beta, Carray, ldc_, batchCount_);
}

trnblasStatus_t trnblasZgemmBatched_64(
    trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int64_t m,
    int64_t n, int64_t k, const trnDoubleComplex *alpha, const trnDoubleComplex *const Aarray[],
    int64_t lda, const trnDoubleComplex *const Barray[], int64_t ldb, const trnDoubleComplex *beta,
    trnDoubleComplex *const Carray[], int64_t ldc, int64_t batchCount) {
    FIT(m);
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    FIT(batchCount);
    return trnblasZgemmBatched(handle, transa, transb, m_, n_, k_, alpha, Aarray, lda_, Barray,
                               ldb_, beta, Carray, ldc_, batchCount_);
}

trnblasStatus_t trnblasGemmEx_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                 trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                 const void *alpha, const void *A, trnsciDataType_t Atype,
                                 int64_t lda, const void *B, trnsciDataType_t Btype, int64_t ldb,
                                 const void *beta, void *C, trnsciDataType_t Ctype, int64_t ldc,
                                 trnblasComputeType_t computeType, trnblasGemmAlgo_t algo) {
    FIT(m);
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasGemmEx(handle, transa, transb, m_, n_, k_, alpha, A, Atype, lda_, B, Btype, ldb_,
                         beta, C, Ctype, ldc_, computeType, algo);
}

trnblasStatus_t trnblasGemmBatchedEx_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                        trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                        const void *alpha, const void *const Aarray[],
                                        trnsciDataType_t Atype, int64_t lda,
                                        const void *const Barray[], trnsciDataType_t Btype,
                                        int64_t ldb, const void *beta, void *const Carray[],
                                        trnsciDataType_t Ctype, int64_t ldc, int64_t batchCount,
                                        trnblasComputeType_t computeType, trnblasGemmAlgo_t algo) {
    FIT(m);
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    FIT(batchCount);
    return trnblasGemmBatchedEx(handle, transa, transb, m_, n_, k_, alpha, Aarray, Atype, lda_,
                                Barray, Btype, ldb_, beta, Carray, Ctype, ldc_, batchCount_,
                                computeType, algo);
}

trnblasStatus_t trnblasGemmStridedBatchedEx_64(
    trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int64_t m,
    int64_t n, int64_t k, const void *alpha, const void *A, trnsciDataType_t Atype, int64_t lda,
    long long int strideA, const void *B, trnsciDataType_t Btype, int64_t ldb,
    long long int strideB, const void *beta, void *C, trnsciDataType_t Ctype, int64_t ldc,
    long long int strideC, int64_t batchCount, trnblasComputeType_t computeType,
    trnblasGemmAlgo_t algo) {
    FIT(m);
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    FIT(batchCount);
    return trnblasGemmStridedBatchedEx(handle, transa, transb, m_, n_, k_, alpha, A, Atype, lda_,
                                       strideA, B, Btype, ldb_, strideB, beta, C, Ctype, ldc_,
                                       strideC, batchCount_, computeType, algo);
}

/* ---- Level 3 beyond GEMM, geam and dgmm. */

trnblasStatus_t trnblasSsymm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, int64_t m, int64_t n, const float *alpha,
                                const float *A, int64_t lda, const float *B, int64_t ldb,
                                const float *beta, float *C, int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasSsymm(handle, side, uplo, m_, n_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasDsymm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, int64_t m, int64_t n, const double *alpha,
                                const double *A, int64_t lda, const double *B, int64_t ldb,
                                const double *beta, double *C, int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasDsymm(handle, side, uplo, m_, n_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasCsymm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, int64_t m, int64_t n,
                                const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                const trnComplex *B, int64_t ldb, const trnComplex *beta,
                                trnComplex *C, int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasCsymm(handle, side, uplo, m_, n_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasZsymm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, int64_t m, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                int64_t lda, const trnDoubleComplex *B, int64_t ldb,
                                const trnDoubleComplex *beta, trnDoubleComplex *C, int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasZsymm(handle, side, uplo, m_, n_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasChemm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, int64_t m, int64_t n,
                                const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                const trnComplex *B, int64_t ldb, const trnComplex *beta,
                                trnComplex *C, int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasChemm(handle, side, uplo, m_, n_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasZhemm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, int64_t m, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                int64_t lda, const trnDoubleComplex *B, int64_t ldb,
                                const trnDoubleComplex *beta, trnDoubleComplex *C, int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasZhemm(handle, side, uplo, m_, n_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasSsyrk_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, int64_t n, int64_t k, const float *alpha,
                                const float *A, int64_t lda, const float *beta, float *C,
                                int64_t ldc) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldc);
    return trnblasSsyrk(handle, uplo, trans, n_, k_, alpha, A, lda_, beta, C, ldc_);
}

trnblasStatus_t trnblasDsyrk_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, int64_t n, int64_t k, const double *alpha,
                                const double *A, int64_t lda, const double *beta, double *C,
                                int64_t ldc) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldc);
    return trnblasDsyrk(handle, uplo, trans, n_, k_, alpha, A, lda_, beta, C, ldc_);
}

trnblasStatus_t trnblasCsyrk_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, int64_t n, int64_t k,
                                const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                const trnComplex *beta, trnComplex *C, int64_t ldc) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldc);
    return trnblasCsyrk(handle, uplo, trans, n_, k_, alpha, A, lda_, beta, C, ldc_);
}

trnblasStatus_t trnblasZsyrk_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, int64_t n, int64_t k,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                int64_t lda, const trnDoubleComplex *beta, trnDoubleComplex *C,
                                int64_t ldc) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldc);
    return trnblasZsyrk(handle, uplo, trans, n_, k_, alpha, A, lda_, beta, C, ldc_);
}

trnblasStatus_t trnblasCherk_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, int64_t n, int64_t k, const float *alpha,
                                const trnComplex *A, int64_t lda, const float *beta, trnComplex *C,
                                int64_t ldc) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldc);
    return trnblasCherk(handle, uplo, trans, n_, k_, alpha, A, lda_, beta, C, ldc_);
}

trnblasStatus_t trnblasZherk_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, int64_t n, int64_t k, const double *alpha,
                                const trnDoubleComplex *A, int64_t lda, const double *beta,
                                trnDoubleComplex *C, int64_t ldc) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldc);
    return trnblasZherk(handle, uplo, trans, n_, k_, alpha, A, lda_, beta, C, ldc_);
}

trnblasStatus_t trnblasSsyr2k_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k, const float *alpha,
                                 const float *A, int64_t lda, const float *B, int64_t ldb,
                                 const float *beta, float *C, int64_t ldc) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasSsyr2k(handle, uplo, trans, n_, k_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasDsyr2k_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k,
                                 const double *alpha, const double *A, int64_t lda, const double *B,
                                 int64_t ldb, const double *beta, double *C, int64_t ldc) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasDsyr2k(handle, uplo, trans, n_, k_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasCsyr2k_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k,
                                 const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                 const trnComplex *B, int64_t ldb, const trnComplex *beta,
                                 trnComplex *C, int64_t ldc) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasCsyr2k(handle, uplo, trans, n_, k_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasZsyr2k_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k,
                                 const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                 int64_t lda, const trnDoubleComplex *B, int64_t ldb,
                                 const trnDoubleComplex *beta, trnDoubleComplex *C, int64_t ldc) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasZsyr2k(handle, uplo, trans, n_, k_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasCher2k_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k,
                                 const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                 const trnComplex *B, int64_t ldb, const float *beta, trnComplex *C,
                                 int64_t ldc) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasCher2k(handle, uplo, trans, n_, k_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasZher2k_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k,
                                 const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                 int64_t lda, const trnDoubleComplex *B, int64_t ldb,
                                 const double *beta, trnDoubleComplex *C, int64_t ldc) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasZher2k(handle, uplo, trans, n_, k_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasSsyrkx_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k, const float *alpha,
                                 const float *A, int64_t lda, const float *B, int64_t ldb,
                                 const float *beta, float *C, int64_t ldc) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasSsyrkx(handle, uplo, trans, n_, k_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasDsyrkx_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k,
                                 const double *alpha, const double *A, int64_t lda, const double *B,
                                 int64_t ldb, const double *beta, double *C, int64_t ldc) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasDsyrkx(handle, uplo, trans, n_, k_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasCsyrkx_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k,
                                 const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                 const trnComplex *B, int64_t ldb, const trnComplex *beta,
                                 trnComplex *C, int64_t ldc) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasCsyrkx(handle, uplo, trans, n_, k_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasZsyrkx_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k,
                                 const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                 int64_t lda, const trnDoubleComplex *B, int64_t ldb,
                                 const trnDoubleComplex *beta, trnDoubleComplex *C, int64_t ldc) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasZsyrkx(handle, uplo, trans, n_, k_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasCherkx_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k,
                                 const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                 const trnComplex *B, int64_t ldb, const float *beta, trnComplex *C,
                                 int64_t ldc) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasCherkx(handle, uplo, trans, n_, k_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasZherkx_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k,
                                 const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                 int64_t lda, const trnDoubleComplex *B, int64_t ldb,
                                 const double *beta, trnDoubleComplex *C, int64_t ldc) {
    FIT(n);
    FIT(k);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasZherkx(handle, uplo, trans, n_, k_, alpha, A, lda_, B, ldb_, beta, C, ldc_);
}

trnblasStatus_t trnblasStrsm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t m, int64_t n, const float *alpha,
                                const float *A, int64_t lda, float *B, int64_t ldb) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(ldb);
    return trnblasStrsm(handle, side, uplo, trans, diag, m_, n_, alpha, A, lda_, B, ldb_);
}

trnblasStatus_t trnblasDtrsm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t m, int64_t n, const double *alpha,
                                const double *A, int64_t lda, double *B, int64_t ldb) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(ldb);
    return trnblasDtrsm(handle, side, uplo, trans, diag, m_, n_, alpha, A, lda_, B, ldb_);
}

trnblasStatus_t trnblasCtrsm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t m, int64_t n,
                                const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                trnComplex *B, int64_t ldb) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(ldb);
    return trnblasCtrsm(handle, side, uplo, trans, diag, m_, n_, alpha, A, lda_, B, ldb_);
}

trnblasStatus_t trnblasZtrsm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t m, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                int64_t lda, trnDoubleComplex *B, int64_t ldb) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(ldb);
    return trnblasZtrsm(handle, side, uplo, trans, diag, m_, n_, alpha, A, lda_, B, ldb_);
}

trnblasStatus_t trnblasStrmm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t m, int64_t n, const float *alpha,
                                const float *A, int64_t lda, const float *B, int64_t ldb, float *C,
                                int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasStrmm(handle, side, uplo, trans, diag, m_, n_, alpha, A, lda_, B, ldb_, C, ldc_);
}

trnblasStatus_t trnblasDtrmm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t m, int64_t n, const double *alpha,
                                const double *A, int64_t lda, const double *B, int64_t ldb,
                                double *C, int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasDtrmm(handle, side, uplo, trans, diag, m_, n_, alpha, A, lda_, B, ldb_, C, ldc_);
}

trnblasStatus_t trnblasCtrmm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t m, int64_t n,
                                const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                const trnComplex *B, int64_t ldb, trnComplex *C, int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasCtrmm(handle, side, uplo, trans, diag, m_, n_, alpha, A, lda_, B, ldb_, C, ldc_);
}

trnblasStatus_t trnblasZtrmm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t m, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                int64_t lda, const trnDoubleComplex *B, int64_t ldb,
                                trnDoubleComplex *C, int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasZtrmm(handle, side, uplo, trans, diag, m_, n_, alpha, A, lda_, B, ldb_, C, ldc_);
}

trnblasStatus_t trnblasSgeam_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                trnblasOperation_t transb, int64_t m, int64_t n, const float *alpha,
                                const float *A, int64_t lda, const float *beta, const float *B,
                                int64_t ldb, float *C, int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasSgeam(handle, transa, transb, m_, n_, alpha, A, lda_, beta, B, ldb_, C, ldc_);
}

trnblasStatus_t trnblasDgeam_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                trnblasOperation_t transb, int64_t m, int64_t n,
                                const double *alpha, const double *A, int64_t lda,
                                const double *beta, const double *B, int64_t ldb, double *C,
                                int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasDgeam(handle, transa, transb, m_, n_, alpha, A, lda_, beta, B, ldb_, C, ldc_);
}

trnblasStatus_t trnblasCgeam_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                trnblasOperation_t transb, int64_t m, int64_t n,
                                const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                const trnComplex *beta, const trnComplex *B, int64_t ldb,
                                trnComplex *C, int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasCgeam(handle, transa, transb, m_, n_, alpha, A, lda_, beta, B, ldb_, C, ldc_);
}

trnblasStatus_t trnblasZgeam_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                trnblasOperation_t transb, int64_t m, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                int64_t lda, const trnDoubleComplex *beta,
                                const trnDoubleComplex *B, int64_t ldb, trnDoubleComplex *C,
                                int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(ldb);
    FIT(ldc);
    return trnblasZgeam(handle, transa, transb, m_, n_, alpha, A, lda_, beta, B, ldb_, C, ldc_);
}

trnblasStatus_t trnblasSdgmm_64(trnblasHandle_t handle, trnblasSideMode_t mode, int64_t m,
                                int64_t n, const float *A, int64_t lda, const float *x,
                                int64_t incx, float *C, int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(incx);
    FIT(ldc);
    return trnblasSdgmm(handle, mode, m_, n_, A, lda_, x, incx_, C, ldc_);
}

trnblasStatus_t trnblasDdgmm_64(trnblasHandle_t handle, trnblasSideMode_t mode, int64_t m,
                                int64_t n, const double *A, int64_t lda, const double *x,
                                int64_t incx, double *C, int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(incx);
    FIT(ldc);
    return trnblasDdgmm(handle, mode, m_, n_, A, lda_, x, incx_, C, ldc_);
}

trnblasStatus_t trnblasCdgmm_64(trnblasHandle_t handle, trnblasSideMode_t mode, int64_t m,
                                int64_t n, const trnComplex *A, int64_t lda, const trnComplex *x,
                                int64_t incx, trnComplex *C, int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(incx);
    FIT(ldc);
    return trnblasCdgmm(handle, mode, m_, n_, A, lda_, x, incx_, C, ldc_);
}

trnblasStatus_t trnblasZdgmm_64(trnblasHandle_t handle, trnblasSideMode_t mode, int64_t m,
                                int64_t n, const trnDoubleComplex *A, int64_t lda,
                                const trnDoubleComplex *x, int64_t incx, trnDoubleComplex *C,
                                int64_t ldc) {
    FIT(m);
    FIT(n);
    FIT(lda);
    FIT(incx);
    FIT(ldc);
    return trnblasZdgmm(handle, mode, m_, n_, A, lda_, x, incx_, C, ldc_);
}

/* trsmBatched (cuBLAS 12's cublas<t>trsmBatched_64). */
#define TRSM_BATCHED_64(T, TY)                                                                     \
    trnblasStatus_t trnblas##T##trsmBatched_64(                                                    \
        trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,                    \
        trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m, int64_t n, const TY *alpha,   \
        const TY *const A[], int64_t lda, TY *const B[], int64_t ldb, int64_t batchCount) {        \
        FIT(m);                                                                                    \
        FIT(n);                                                                                    \
        FIT(lda);                                                                                  \
        FIT(ldb);                                                                                  \
        FIT(batchCount);                                                                           \
        return trnblas##T##trsmBatched(handle, side, uplo, trans, diag, m_, n_, alpha, A, lda_, B, \
                                       ldb_, batchCount_);                                         \
    }
TRSM_BATCHED_64(S, float)
TRSM_BATCHED_64(D, double)
TRSM_BATCHED_64(C, trnComplex)
TRSM_BATCHED_64(Z, trnDoubleComplex)
