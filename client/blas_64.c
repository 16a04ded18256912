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

/* Each W64_<ROUTINE>(NAME, T1, ...) macro below writes trnblas<NAME>_64 for
 * one shape of argument list: its element types are T1, T2 in order of
 * first appearance, and it fits exactly the arguments the 32-bit routine
 * takes as int. One macro serves every routine (S/D/C/Z, ...) of that shape. */

/* ---- Helpers (cublasSetMatrix_64, ...): elemSize too must fit. */

#define W64_ETMATRIX(NAME)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(int64_t rows, int64_t cols, int64_t elemSize,               \
                                       const void *A, int64_t lda, void *B, int64_t ldb) {         \
        FIT(rows);                                                                                 \
        FIT(cols);                                                                                 \
        FIT(elemSize);                                                                             \
        FIT(lda);                                                                                  \
        FIT(ldb);                                                                                  \
        return trnblas##NAME(rows_, cols_, elemSize_, A, lda_, B, ldb_);                           \
    }
W64_ETMATRIX(SetMatrix)
W64_ETMATRIX(GetMatrix)

#define W64_ETMATRIXASYNC(NAME)                                                                    \
    trnblasStatus_t trnblas##NAME##_64(int64_t rows, int64_t cols, int64_t elemSize,               \
                                       const void *A, int64_t lda, void *B, int64_t ldb,           \
                                       trnsciStream_t stream) {                                    \
        FIT(rows);                                                                                 \
        FIT(cols);                                                                                 \
        FIT(elemSize);                                                                             \
        FIT(lda);                                                                                  \
        FIT(ldb);                                                                                  \
        return trnblas##NAME(rows_, cols_, elemSize_, A, lda_, B, ldb_, stream);                   \
    }
W64_ETMATRIXASYNC(SetMatrixAsync)
W64_ETMATRIXASYNC(GetMatrixAsync)

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

#define W64_AXPY(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, int64_t n, const T1 *alpha,         \
                                       const T1 *x, int64_t incx, T1 *y, int64_t incy) {           \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        FIT(incy);                                                                                 \
        return trnblas##NAME(handle, n_, alpha, x, incx_, y, incy_);                               \
    }
W64_AXPY(Saxpy, float)
W64_AXPY(Daxpy, double)
W64_AXPY(Caxpy, trnComplex)
W64_AXPY(Zaxpy, trnDoubleComplex)

#define W64_SCAL(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, int64_t n, const T1 *alpha, T1 *x,  \
                                       int64_t incx) {                                             \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        return trnblas##NAME(handle, n_, alpha, x, incx_);                                         \
    }
W64_SCAL(Sscal, float)
W64_SCAL(Dscal, double)
W64_SCAL(Cscal, trnComplex)
W64_SCAL(Zscal, trnDoubleComplex)

#define W64_SSCAL(NAME, T1, T2)                                                                    \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, int64_t n, const T1 *alpha, T2 *x,  \
                                       int64_t incx) {                                             \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        return trnblas##NAME(handle, n_, alpha, x, incx_);                                         \
    }
W64_SSCAL(Csscal, float, trnComplex)
W64_SSCAL(Zdscal, double, trnDoubleComplex)

#define W64_COPY(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, int64_t n, const T1 *x,             \
                                       int64_t incx, T1 *y, int64_t incy) {                        \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        FIT(incy);                                                                                 \
        return trnblas##NAME(handle, n_, x, incx_, y, incy_);                                      \
    }
W64_COPY(Scopy, float)
W64_COPY(Dcopy, double)
W64_COPY(Ccopy, trnComplex)
W64_COPY(Zcopy, trnDoubleComplex)

#define W64_SWAP(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, int64_t n, T1 *x, int64_t incx,     \
                                       T1 *y, int64_t incy) {                                      \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        FIT(incy);                                                                                 \
        return trnblas##NAME(handle, n_, x, incx_, y, incy_);                                      \
    }
W64_SWAP(Sswap, float)
W64_SWAP(Dswap, double)
W64_SWAP(Cswap, trnComplex)
W64_SWAP(Zswap, trnDoubleComplex)

#define W64_DOT(NAME, T1)                                                                          \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, int64_t n, const T1 *x,             \
                                       int64_t incx, const T1 *y, int64_t incy, T1 *result) {      \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        FIT(incy);                                                                                 \
        return trnblas##NAME(handle, n_, x, incx_, y, incy_, result);                              \
    }
W64_DOT(Sdot, float)
W64_DOT(Ddot, double)
W64_DOT(Cdotu, trnComplex)
W64_DOT(Cdotc, trnComplex)
W64_DOT(Zdotu, trnDoubleComplex)
W64_DOT(Zdotc, trnDoubleComplex)

#define W64_NRM2(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, int64_t n, const T1 *x,             \
                                       int64_t incx, T1 *result) {                                 \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        return trnblas##NAME(handle, n_, x, incx_, result);                                        \
    }
W64_NRM2(Snrm2, float)
W64_NRM2(Dnrm2, double)
W64_NRM2(Sasum, float)
W64_NRM2(Dasum, double)

#define W64_CNRM2(NAME, T1, T2)                                                                    \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, int64_t n, const T1 *x,             \
                                       int64_t incx, T2 *result) {                                 \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        return trnblas##NAME(handle, n_, x, incx_, result);                                        \
    }
W64_CNRM2(Scnrm2, trnComplex, float)
W64_CNRM2(Dznrm2, trnDoubleComplex, double)
W64_CNRM2(Scasum, trnComplex, float)
W64_CNRM2(Dzasum, trnDoubleComplex, double)

#define W64_ISAMAX(NAME, T1)                                                                       \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, int64_t n, const T1 *x,             \
                                       int64_t incx, int64_t *result) {                            \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        INDEX64(trnblas##NAME, handle, n_, x, incx_, result);                                      \
    }
W64_ISAMAX(Isamax, float)
W64_ISAMAX(Idamax, double)
W64_ISAMAX(Icamax, trnComplex)
W64_ISAMAX(Izamax, trnDoubleComplex)
W64_ISAMAX(Isamin, float)
W64_ISAMAX(Idamin, double)
W64_ISAMAX(Icamin, trnComplex)
W64_ISAMAX(Izamin, trnDoubleComplex)

#define W64_ROT(NAME, T1)                                                                          \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, int64_t n, T1 *x, int64_t incx,     \
                                       T1 *y, int64_t incy, const T1 *c, const T1 *s) {            \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        FIT(incy);                                                                                 \
        return trnblas##NAME(handle, n_, x, incx_, y, incy_, c, s);                                \
    }
W64_ROT(Srot, float)
W64_ROT(Drot, double)

#define W64_ROT_2(NAME, T1, T2)                                                                    \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, int64_t n, T1 *x, int64_t incx,     \
                                       T1 *y, int64_t incy, const T2 *c, const T1 *s) {            \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        FIT(incy);                                                                                 \
        return trnblas##NAME(handle, n_, x, incx_, y, incy_, c, s);                                \
    }
W64_ROT_2(Crot, trnComplex, float)
W64_ROT_2(Zrot, trnDoubleComplex, double)

#define W64_SROT(NAME, T1, T2)                                                                     \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, int64_t n, T1 *x, int64_t incx,     \
                                       T1 *y, int64_t incy, const T2 *c, const T2 *s) {            \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        FIT(incy);                                                                                 \
        return trnblas##NAME(handle, n_, x, incx_, y, incy_, c, s);                                \
    }
W64_SROT(Csrot, trnComplex, float)
W64_SROT(Zdrot, trnDoubleComplex, double)

#define W64_ROTM(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, int64_t n, T1 *x, int64_t incx,     \
                                       T1 *y, int64_t incy, const T1 *param) {                     \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        FIT(incy);                                                                                 \
        return trnblas##NAME(handle, n_, x, incx_, y, incy_, param);                               \
    }
W64_ROTM(Srotm, float)
W64_ROTM(Drotm, double)

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

#define W64_OTEX(NAME)                                                                             \
    trnblasStatus_t trnblas##NAME##_64(                                                            \
        trnblasHandle_t handle, int64_t n, const void *x, trnsciDataType_t xType, int64_t incx,    \
        const void *y, trnsciDataType_t yType, int64_t incy, void *result,                         \
        trnsciDataType_t resultType, trnsciDataType_t executionType) {                             \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        FIT(incy);                                                                                 \
        return trnblas##NAME(handle, n_, x, xType, incx_, y, yType, incy_, result, resultType,     \
                             executionType);                                                       \
    }
W64_OTEX(DotEx)
W64_OTEX(DotcEx)

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

#define W64_GEMV(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasOperation_t trans,           \
                                       int64_t m, int64_t n, const T1 *alpha, const T1 *A,         \
                                       int64_t lda, const T1 *x, int64_t incx, const T1 *beta,     \
                                       T1 *y, int64_t incy) {                                      \
        FIT(m);                                                                                    \
        FIT(n);                                                                                    \
        FIT(lda);                                                                                  \
        FIT(incx);                                                                                 \
        FIT(incy);                                                                                 \
        return trnblas##NAME(handle, trans, m_, n_, alpha, A, lda_, x, incx_, beta, y, incy_);     \
    }
W64_GEMV(Sgemv, float)
W64_GEMV(Dgemv, double)
W64_GEMV(Cgemv, trnComplex)
W64_GEMV(Zgemv, trnDoubleComplex)

#define W64_GBMV(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasOperation_t trans,           \
                                       int64_t m, int64_t n, int64_t kl, int64_t ku,               \
                                       const T1 *alpha, const T1 *A, int64_t lda, const T1 *x,     \
                                       int64_t incx, const T1 *beta, T1 *y, int64_t incy) {        \
        FIT(m);                                                                                    \
        FIT(n);                                                                                    \
        FIT(kl);                                                                                   \
        FIT(ku);                                                                                   \
        FIT(lda);                                                                                  \
        FIT(incx);                                                                                 \
        FIT(incy);                                                                                 \
        return trnblas##NAME(handle, trans, m_, n_, kl_, ku_, alpha, A, lda_, x, incx_, beta, y,   \
                             incy_);                                                               \
    }
W64_GBMV(Sgbmv, float)
W64_GBMV(Dgbmv, double)
W64_GBMV(Cgbmv, trnComplex)
W64_GBMV(Zgbmv, trnDoubleComplex)

#define W64_SYMV(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,  \
                                       const T1 *alpha, const T1 *A, int64_t lda, const T1 *x,     \
                                       int64_t incx, const T1 *beta, T1 *y, int64_t incy) {        \
        FIT(n);                                                                                    \
        FIT(lda);                                                                                  \
        FIT(incx);                                                                                 \
        FIT(incy);                                                                                 \
        return trnblas##NAME(handle, uplo, n_, alpha, A, lda_, x, incx_, beta, y, incy_);          \
    }
W64_SYMV(Ssymv, float)
W64_SYMV(Dsymv, double)
W64_SYMV(Csymv, trnComplex)
W64_SYMV(Zsymv, trnDoubleComplex)
W64_SYMV(Chemv, trnComplex)
W64_SYMV(Zhemv, trnDoubleComplex)

#define W64_TRMV(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasFillMode_t uplo,             \
                                       trnblasOperation_t trans, trnblasDiagType_t diag,           \
                                       int64_t n, const T1 *A, int64_t lda, T1 *x, int64_t incx) { \
        FIT(n);                                                                                    \
        FIT(lda);                                                                                  \
        FIT(incx);                                                                                 \
        return trnblas##NAME(handle, uplo, trans, diag, n_, A, lda_, x, incx_);                    \
    }
W64_TRMV(Strmv, float)
W64_TRMV(Dtrmv, double)
W64_TRMV(Ctrmv, trnComplex)
W64_TRMV(Ztrmv, trnDoubleComplex)
W64_TRMV(Strsv, float)
W64_TRMV(Dtrsv, double)
W64_TRMV(Ctrsv, trnComplex)
W64_TRMV(Ztrsv, trnDoubleComplex)

#define W64_GER(NAME, T1)                                                                          \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, int64_t m, int64_t n,               \
                                       const T1 *alpha, const T1 *x, int64_t incx, const T1 *y,    \
                                       int64_t incy, T1 *A, int64_t lda) {                         \
        FIT(m);                                                                                    \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        FIT(incy);                                                                                 \
        FIT(lda);                                                                                  \
        return trnblas##NAME(handle, m_, n_, alpha, x, incx_, y, incy_, A, lda_);                  \
    }
W64_GER(Sger, float)
W64_GER(Dger, double)
W64_GER(Cgeru, trnComplex)
W64_GER(Cgerc, trnComplex)
W64_GER(Zgeru, trnDoubleComplex)
W64_GER(Zgerc, trnDoubleComplex)

#define W64_SYR(NAME, T1)                                                                          \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,  \
                                       const T1 *alpha, const T1 *x, int64_t incx, T1 *A,          \
                                       int64_t lda) {                                              \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        FIT(lda);                                                                                  \
        return trnblas##NAME(handle, uplo, n_, alpha, x, incx_, A, lda_);                          \
    }
W64_SYR(Ssyr, float)
W64_SYR(Dsyr, double)
W64_SYR(Csyr, trnComplex)
W64_SYR(Zsyr, trnDoubleComplex)

#define W64_SYR2(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,  \
                                       const T1 *alpha, const T1 *x, int64_t incx, const T1 *y,    \
                                       int64_t incy, T1 *A, int64_t lda) {                         \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        FIT(incy);                                                                                 \
        FIT(lda);                                                                                  \
        return trnblas##NAME(handle, uplo, n_, alpha, x, incx_, y, incy_, A, lda_);                \
    }
W64_SYR2(Ssyr2, float)
W64_SYR2(Dsyr2, double)
W64_SYR2(Csyr2, trnComplex)
W64_SYR2(Zsyr2, trnDoubleComplex)
W64_SYR2(Cher2, trnComplex)
W64_SYR2(Zher2, trnDoubleComplex)

#define W64_HER(NAME, T1, T2)                                                                      \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,  \
                                       const T1 *alpha, const T2 *x, int64_t incx, T2 *A,          \
                                       int64_t lda) {                                              \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        FIT(lda);                                                                                  \
        return trnblas##NAME(handle, uplo, n_, alpha, x, incx_, A, lda_);                          \
    }
W64_HER(Cher, float, trnComplex)
W64_HER(Zher, double, trnDoubleComplex)

#define W64_GEMVBATCHED(NAME, T1)                                                                  \
    trnblasStatus_t trnblas##NAME##_64(                                                            \
        trnblasHandle_t handle, trnblasOperation_t trans, int64_t m, int64_t n, const T1 *alpha,   \
        const T1 *const Aarray[], int64_t lda, const T1 *const xarray[], int64_t incx,             \
        const T1 *beta, T1 *const yarray[], int64_t incy, int64_t batchCount) {                    \
        FIT(m);                                                                                    \
        FIT(n);                                                                                    \
        FIT(lda);                                                                                  \
        FIT(incx);                                                                                 \
        FIT(incy);                                                                                 \
        FIT(batchCount);                                                                           \
        return trnblas##NAME(handle, trans, m_, n_, alpha, Aarray, lda_, xarray, incx_, beta,      \
                             yarray, incy_, batchCount_);                                          \
    }
W64_GEMVBATCHED(SgemvBatched, float)
W64_GEMVBATCHED(DgemvBatched, double)
W64_GEMVBATCHED(CgemvBatched, trnComplex)
W64_GEMVBATCHED(ZgemvBatched, trnDoubleComplex)

#define W64_GEMVSTRIDEDBATCHED(NAME, T1)                                                           \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasOperation_t trans,           \
                                       int64_t m, int64_t n, const T1 *alpha, const T1 *A,         \
                                       int64_t lda, long long int strideA, const T1 *x,            \
                                       int64_t incx, long long int stridex, const T1 *beta, T1 *y, \
                                       int64_t incy, long long int stridey, int64_t batchCount) {  \
        FIT(m);                                                                                    \
        FIT(n);                                                                                    \
        FIT(lda);                                                                                  \
        FIT(incx);                                                                                 \
        FIT(incy);                                                                                 \
        FIT(batchCount);                                                                           \
        return trnblas##NAME(handle, trans, m_, n_, alpha, A, lda_, strideA, x, incx_, stridex,    \
                             beta, y, incy_, stridey, batchCount_);                                \
    }
W64_GEMVSTRIDEDBATCHED(SgemvStridedBatched, float)
W64_GEMVSTRIDEDBATCHED(DgemvStridedBatched, double)
W64_GEMVSTRIDEDBATCHED(CgemvStridedBatched, trnComplex)

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

#define W64_TBMV(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasFillMode_t uplo,             \
                                       trnblasOperation_t trans, trnblasDiagType_t diag,           \
                                       int64_t n, int64_t k, const T1 *A, int64_t lda, T1 *x,      \
                                       int64_t incx) {                                             \
        FIT(n);                                                                                    \
        FIT(k);                                                                                    \
        FIT(lda);                                                                                  \
        FIT(incx);                                                                                 \
        return trnblas##NAME(handle, uplo, trans, diag, n_, k_, A, lda_, x, incx_);                \
    }
W64_TBMV(Stbmv, float)
W64_TBMV(Dtbmv, double)
W64_TBMV(Ctbmv, trnComplex)
W64_TBMV(Ztbmv, trnDoubleComplex)
W64_TBMV(Stbsv, float)
W64_TBMV(Dtbsv, double)
W64_TBMV(Ctbsv, trnComplex)
W64_TBMV(Ztbsv, trnDoubleComplex)

#define W64_TPMV(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasFillMode_t uplo,             \
                                       trnblasOperation_t trans, trnblasDiagType_t diag,           \
                                       int64_t n, const T1 *AP, T1 *x, int64_t incx) {             \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        return trnblas##NAME(handle, uplo, trans, diag, n_, AP, x, incx_);                         \
    }
W64_TPMV(Stpmv, float)
W64_TPMV(Dtpmv, double)
W64_TPMV(Ctpmv, trnComplex)
W64_TPMV(Ztpmv, trnDoubleComplex)
W64_TPMV(Stpsv, float)
W64_TPMV(Dtpsv, double)
W64_TPMV(Ctpsv, trnComplex)
W64_TPMV(Ztpsv, trnDoubleComplex)

#define W64_SBMV(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,  \
                                       int64_t k, const T1 *alpha, const T1 *A, int64_t lda,       \
                                       const T1 *x, int64_t incx, const T1 *beta, T1 *y,           \
                                       int64_t incy) {                                             \
        FIT(n);                                                                                    \
        FIT(k);                                                                                    \
        FIT(lda);                                                                                  \
        FIT(incx);                                                                                 \
        FIT(incy);                                                                                 \
        return trnblas##NAME(handle, uplo, n_, k_, alpha, A, lda_, x, incx_, beta, y, incy_);      \
    }
W64_SBMV(Ssbmv, float)
W64_SBMV(Dsbmv, double)
W64_SBMV(Chbmv, trnComplex)
W64_SBMV(Zhbmv, trnDoubleComplex)

#define W64_SPMV(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,  \
                                       const T1 *alpha, const T1 *AP, const T1 *x, int64_t incx,   \
                                       const T1 *beta, T1 *y, int64_t incy) {                      \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        FIT(incy);                                                                                 \
        return trnblas##NAME(handle, uplo, n_, alpha, AP, x, incx_, beta, y, incy_);               \
    }
W64_SPMV(Sspmv, float)
W64_SPMV(Dspmv, double)
W64_SPMV(Chpmv, trnComplex)
W64_SPMV(Zhpmv, trnDoubleComplex)

#define W64_SPR(NAME, T1)                                                                          \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,  \
                                       const T1 *alpha, const T1 *x, int64_t incx, T1 *AP) {       \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        return trnblas##NAME(handle, uplo, n_, alpha, x, incx_, AP);                               \
    }
W64_SPR(Sspr, float)
W64_SPR(Dspr, double)

#define W64_HPR(NAME, T1, T2)                                                                      \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,  \
                                       const T1 *alpha, const T2 *x, int64_t incx, T2 *AP) {       \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        return trnblas##NAME(handle, uplo, n_, alpha, x, incx_, AP);                               \
    }
W64_HPR(Chpr, float, trnComplex)
W64_HPR(Zhpr, double, trnDoubleComplex)

#define W64_SPR2(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,  \
                                       const T1 *alpha, const T1 *x, int64_t incx, const T1 *y,    \
                                       int64_t incy, T1 *AP) {                                     \
        FIT(n);                                                                                    \
        FIT(incx);                                                                                 \
        FIT(incy);                                                                                 \
        return trnblas##NAME(handle, uplo, n_, alpha, x, incx_, y, incy_, AP);                     \
    }
W64_SPR2(Sspr2, float)
W64_SPR2(Dspr2, double)
W64_SPR2(Chpr2, trnComplex)
W64_SPR2(Zhpr2, trnDoubleComplex)

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

#define W64_GEMM(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasOperation_t transa,          \
                                       trnblasOperation_t transb, int64_t m, int64_t n, int64_t k, \
                                       const T1 *alpha, const T1 *A, int64_t lda, const T1 *B,     \
                                       int64_t ldb, const T1 *beta, T1 *C, int64_t ldc) {          \
        FIT(m);                                                                                    \
        FIT(n);                                                                                    \
        FIT(k);                                                                                    \
        FIT(lda);                                                                                  \
        FIT(ldb);                                                                                  \
        FIT(ldc);                                                                                  \
        return trnblas##NAME(handle, transa, transb, m_, n_, k_, alpha, A, lda_, B, ldb_, beta, C, \
                             ldc_);                                                                \
    }
W64_GEMM(Sgemm, float)
W64_GEMM(Dgemm, double)
W64_GEMM(Cgemm, trnComplex)
W64_GEMM(Zgemm, trnDoubleComplex)

#define W64_GEMMSTRIDEDBATCHED(NAME, T1)                                                           \
    trnblasStatus_t trnblas##NAME##_64(                                                            \
        trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int64_t m,   \
        int64_t n, int64_t k, const T1 *alpha, const T1 *A, int64_t lda, long long int strideA,    \
        const T1 *B, int64_t ldb, long long int strideB, const T1 *beta, T1 *C, int64_t ldc,       \
        long long int strideC, int64_t batchCount) {                                               \
        FIT(m);                                                                                    \
        FIT(n);                                                                                    \
        FIT(k);                                                                                    \
        FIT(lda);                                                                                  \
        FIT(ldb);                                                                                  \
        FIT(ldc);                                                                                  \
        FIT(batchCount);                                                                           \
        return trnblas##NAME(handle, transa, transb, m_, n_, k_, alpha, A, lda_, strideA, B, ldb_, \
                             strideB, beta, C, ldc_, strideC, batchCount_);                        \
    }
W64_GEMMSTRIDEDBATCHED(SgemmStridedBatched, float)
W64_GEMMSTRIDEDBATCHED(DgemmStridedBatched, double)

W64_GEMMSTRIDEDBATCHED(CgemmStridedBatched, trnComplex)
W64_GEMMSTRIDEDBATCHED(ZgemmStridedBatched, trnDoubleComplex)

#define W64_GEMMBATCHED(NAME, T1)                                                                  \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasOperation_t transa,          \
                                       trnblasOperation_t transb, int64_t m, int64_t n, int64_t k, \
                                       const T1 *alpha, const T1 *const Aarray[], int64_t lda,     \
                                       const T1 *const Barray[], int64_t ldb, const T1 *beta,      \
                                       T1 *const Carray[], int64_t ldc, int64_t batchCount) {      \
        FIT(m);                                                                                    \
        FIT(n);                                                                                    \
        FIT(k);                                                                                    \
        FIT(lda);                                                                                  \
        FIT(ldb);                                                                                  \
        FIT(ldc);                                                                                  \
        FIT(batchCount);                                                                           \
        return trnblas##NAME(handle, transa, transb, m_, n_, k_, alpha, Aarray, lda_, Barray,      \
                             ldb_, beta, Carray, ldc_, batchCount_);                               \
    }
W64_GEMMBATCHED(SgemmBatched, float)
W64_GEMMBATCHED(DgemmBatched, double)
W64_GEMMBATCHED(CgemmBatched, trnComplex)

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

#define W64_SYMM(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasSideMode_t side,             \
                                       trnblasFillMode_t uplo, int64_t m, int64_t n,               \
                                       const T1 *alpha, const T1 *A, int64_t lda, const T1 *B,     \
                                       int64_t ldb, const T1 *beta, T1 *C, int64_t ldc) {          \
        FIT(m);                                                                                    \
        FIT(n);                                                                                    \
        FIT(lda);                                                                                  \
        FIT(ldb);                                                                                  \
        FIT(ldc);                                                                                  \
        return trnblas##NAME(handle, side, uplo, m_, n_, alpha, A, lda_, B, ldb_, beta, C, ldc_);  \
    }
W64_SYMM(Ssymm, float)
W64_SYMM(Dsymm, double)
W64_SYMM(Csymm, trnComplex)
W64_SYMM(Zsymm, trnDoubleComplex)
W64_SYMM(Chemm, trnComplex)
W64_SYMM(Zhemm, trnDoubleComplex)

#define W64_SYRK(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasFillMode_t uplo,             \
                                       trnblasOperation_t trans, int64_t n, int64_t k,             \
                                       const T1 *alpha, const T1 *A, int64_t lda, const T1 *beta,  \
                                       T1 *C, int64_t ldc) {                                       \
        FIT(n);                                                                                    \
        FIT(k);                                                                                    \
        FIT(lda);                                                                                  \
        FIT(ldc);                                                                                  \
        return trnblas##NAME(handle, uplo, trans, n_, k_, alpha, A, lda_, beta, C, ldc_);          \
    }
W64_SYRK(Ssyrk, float)
W64_SYRK(Dsyrk, double)
W64_SYRK(Csyrk, trnComplex)
W64_SYRK(Zsyrk, trnDoubleComplex)

#define W64_HERK(NAME, T1, T2)                                                                     \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasFillMode_t uplo,             \
                                       trnblasOperation_t trans, int64_t n, int64_t k,             \
                                       const T1 *alpha, const T2 *A, int64_t lda, const T1 *beta,  \
                                       T2 *C, int64_t ldc) {                                       \
        FIT(n);                                                                                    \
        FIT(k);                                                                                    \
        FIT(lda);                                                                                  \
        FIT(ldc);                                                                                  \
        return trnblas##NAME(handle, uplo, trans, n_, k_, alpha, A, lda_, beta, C, ldc_);          \
    }
W64_HERK(Cherk, float, trnComplex)
W64_HERK(Zherk, double, trnDoubleComplex)

#define W64_SYR2K(NAME, T1)                                                                        \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasFillMode_t uplo,             \
                                       trnblasOperation_t trans, int64_t n, int64_t k,             \
                                       const T1 *alpha, const T1 *A, int64_t lda, const T1 *B,     \
                                       int64_t ldb, const T1 *beta, T1 *C, int64_t ldc) {          \
        FIT(n);                                                                                    \
        FIT(k);                                                                                    \
        FIT(lda);                                                                                  \
        FIT(ldb);                                                                                  \
        FIT(ldc);                                                                                  \
        return trnblas##NAME(handle, uplo, trans, n_, k_, alpha, A, lda_, B, ldb_, beta, C, ldc_); \
    }
W64_SYR2K(Ssyr2k, float)
W64_SYR2K(Dsyr2k, double)
W64_SYR2K(Csyr2k, trnComplex)
W64_SYR2K(Zsyr2k, trnDoubleComplex)
W64_SYR2K(Ssyrkx, float)
W64_SYR2K(Dsyrkx, double)
W64_SYR2K(Csyrkx, trnComplex)
W64_SYR2K(Zsyrkx, trnDoubleComplex)

#define W64_HER2K(NAME, T1, T2)                                                                    \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasFillMode_t uplo,             \
                                       trnblasOperation_t trans, int64_t n, int64_t k,             \
                                       const T1 *alpha, const T1 *A, int64_t lda, const T1 *B,     \
                                       int64_t ldb, const T2 *beta, T1 *C, int64_t ldc) {          \
        FIT(n);                                                                                    \
        FIT(k);                                                                                    \
        FIT(lda);                                                                                  \
        FIT(ldb);                                                                                  \
        FIT(ldc);                                                                                  \
        return trnblas##NAME(handle, uplo, trans, n_, k_, alpha, A, lda_, B, ldb_, beta, C, ldc_); \
    }
W64_HER2K(Cher2k, trnComplex, float)
W64_HER2K(Zher2k, trnDoubleComplex, double)
W64_HER2K(Cherkx, trnComplex, float)
W64_HER2K(Zherkx, trnDoubleComplex, double)

#define W64_TRSM(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(                                                            \
        trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,                    \
        trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m, int64_t n, const T1 *alpha,   \
        const T1 *A, int64_t lda, T1 *B, int64_t ldb) {                                            \
        FIT(m);                                                                                    \
        FIT(n);                                                                                    \
        FIT(lda);                                                                                  \
        FIT(ldb);                                                                                  \
        return trnblas##NAME(handle, side, uplo, trans, diag, m_, n_, alpha, A, lda_, B, ldb_);    \
    }
W64_TRSM(Strsm, float)
W64_TRSM(Dtrsm, double)
W64_TRSM(Ctrsm, trnComplex)
W64_TRSM(Ztrsm, trnDoubleComplex)

#define W64_TRMM(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(                                                            \
        trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,                    \
        trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m, int64_t n, const T1 *alpha,   \
        const T1 *A, int64_t lda, const T1 *B, int64_t ldb, T1 *C, int64_t ldc) {                  \
        FIT(m);                                                                                    \
        FIT(n);                                                                                    \
        FIT(lda);                                                                                  \
        FIT(ldb);                                                                                  \
        FIT(ldc);                                                                                  \
        return trnblas##NAME(handle, side, uplo, trans, diag, m_, n_, alpha, A, lda_, B, ldb_, C,  \
                             ldc_);                                                                \
    }
W64_TRMM(Strmm, float)
W64_TRMM(Dtrmm, double)
W64_TRMM(Ctrmm, trnComplex)
W64_TRMM(Ztrmm, trnDoubleComplex)

#define W64_GEAM(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasOperation_t transa,          \
                                       trnblasOperation_t transb, int64_t m, int64_t n,            \
                                       const T1 *alpha, const T1 *A, int64_t lda, const T1 *beta,  \
                                       const T1 *B, int64_t ldb, T1 *C, int64_t ldc) {             \
        FIT(m);                                                                                    \
        FIT(n);                                                                                    \
        FIT(lda);                                                                                  \
        FIT(ldb);                                                                                  \
        FIT(ldc);                                                                                  \
        return trnblas##NAME(handle, transa, transb, m_, n_, alpha, A, lda_, beta, B, ldb_, C,     \
                             ldc_);                                                                \
    }
W64_GEAM(Sgeam, float)
W64_GEAM(Dgeam, double)
W64_GEAM(Cgeam, trnComplex)
W64_GEAM(Zgeam, trnDoubleComplex)

#define W64_DGMM(NAME, T1)                                                                         \
    trnblasStatus_t trnblas##NAME##_64(trnblasHandle_t handle, trnblasSideMode_t mode, int64_t m,  \
                                       int64_t n, const T1 *A, int64_t lda, const T1 *x,           \
                                       int64_t incx, T1 *C, int64_t ldc) {                         \
        FIT(m);                                                                                    \
        FIT(n);                                                                                    \
        FIT(lda);                                                                                  \
        FIT(incx);                                                                                 \
        FIT(ldc);                                                                                  \
        return trnblas##NAME(handle, mode, m_, n_, A, lda_, x, incx_, C, ldc_);                    \
    }
W64_DGMM(Sdgmm, float)
W64_DGMM(Ddgmm, double)
W64_DGMM(Cdgmm, trnComplex)
W64_DGMM(Zdgmm, trnDoubleComplex)

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
