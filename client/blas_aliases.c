/*
 * blas_aliases.c — cuBLAS routines that are other routines of trnblas under
 * another name or interface, and the packed/triangular conversions.
 *
 *  - <t>gemm3m, Cgemm3mEx: cuBLAS's Gauss three-multiplication complex
 *    GEMMs; here the ordinary complex GEMM, whose error bound is the
 *    smaller one (the 3M method's is larger by a constant factor).
 *  - SgemmEx, CgemmEx: GemmEx with COMPUTE_32F, as cuBLAS defines them.
 *  - CsyrkEx, Csyrk3mEx, CherkEx, Cherk3mEx: Csyrk / Cherk on C_32F data;
 *    the C_8I input rows cuBLAS also has are NOT_SUPPORTED naming the type.
 *  - <t>tpttr, <t>trttp: a triangle between packed and full storage, one
 *    device-to-device copy per column on the handle's stream (each column of
 *    the triangle is contiguous in both layouts), so they order with the
 *    handle's other work like any routine.
 */
#include "client/blas_internal.h"

#include <stdint.h>

trnblasStatus_t trnblasCgemm3m(trnblasHandle_t handle, trnblasOperation_t transa,
                               trnblasOperation_t transb, int m, int n, int k,
                               const trnComplex *alpha, const trnComplex *A, int lda,
                               const trnComplex *B, int ldb, const trnComplex *beta, trnComplex *C,
                               int ldc) {
    return trnblasCgemm(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

trnblasStatus_t trnblasZgemm3m(trnblasHandle_t handle, trnblasOperation_t transa,
                               trnblasOperation_t transb, int m, int n, int k,
                               const trnDoubleComplex *alpha, const trnDoubleComplex *A, int lda,
                               const trnDoubleComplex *B, int ldb, const trnDoubleComplex *beta,
                               trnDoubleComplex *C, int ldc) {
    return trnblasZgemm(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

trnblasStatus_t trnblasSgemmEx(trnblasHandle_t handle, trnblasOperation_t transa,
                               trnblasOperation_t transb, int m, int n, int k, const float *alpha,
                               const void *A, trnsciDataType_t Atype, int lda, const void *B,
                               trnsciDataType_t Btype, int ldb, const float *beta, void *C,
                               trnsciDataType_t Ctype, int ldc) {
    return trnblasGemmEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta,
                         C, Ctype, ldc, TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT);
}

trnblasStatus_t trnblasCgemmEx(trnblasHandle_t handle, trnblasOperation_t transa,
                               trnblasOperation_t transb, int m, int n, int k,
                               const trnComplex *alpha, const void *A, trnsciDataType_t Atype,
                               int lda, const void *B, trnsciDataType_t Btype, int ldb,
                               const trnComplex *beta, void *C, trnsciDataType_t Ctype, int ldc) {
    return trnblasGemmEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta,
                         C, Ctype, ldc, TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT);
}

trnblasStatus_t trnblasCgemm3mEx(trnblasHandle_t handle, trnblasOperation_t transa,
                                 trnblasOperation_t transb, int m, int n, int k,
                                 const trnComplex *alpha, const void *A, trnsciDataType_t Atype,
                                 int lda, const void *B, trnsciDataType_t Btype, int ldb,
                                 const trnComplex *beta, void *C, trnsciDataType_t Ctype, int ldc) {
    return trnblasCgemmEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb,
                          beta, C, Ctype, ldc);
}

/* The rank-k Ex routines take C_32F A and C only. */
static trnblasStatus_t complex_float_only(const char *fn, trnsciDataType_t Atype,
                                          trnsciDataType_t Ctype) {
    if (Atype == TRNSCI_C_32F && Ctype == TRNSCI_C_32F)
        return TRNBLAS_STATUS_SUCCESS;
    trn_fail(trnsciErrorNotSupported,
             "%s: Atype %d with Ctype %d: trnsci takes TRNSCI_C_32F (%d) for both", fn, (int)Atype,
             (int)Ctype, (int)TRNSCI_C_32F);
    return TRNBLAS_STATUS_NOT_SUPPORTED;
}

trnblasStatus_t trnblasCsyrkEx(trnblasHandle_t handle, trnblasFillMode_t uplo,
                               trnblasOperation_t trans, int n, int k, const trnComplex *alpha,
                               const void *A, trnsciDataType_t Atype, int lda,
                               const trnComplex *beta, void *C, trnsciDataType_t Ctype, int ldc) {
    const trnblasStatus_t st = complex_float_only("trnblasCsyrkEx", Atype, Ctype);
    return st != TRNBLAS_STATUS_SUCCESS
               ? st
               : trnblasCsyrk(handle, uplo, trans, n, k, alpha, A, lda, beta, C, ldc);
}

trnblasStatus_t trnblasCsyrk3mEx(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int n, int k, const trnComplex *alpha,
                                 const void *A, trnsciDataType_t Atype, int lda,
                                 const trnComplex *beta, void *C, trnsciDataType_t Ctype, int ldc) {
    const trnblasStatus_t st = complex_float_only("trnblasCsyrk3mEx", Atype, Ctype);
    return st != TRNBLAS_STATUS_SUCCESS
               ? st
               : trnblasCsyrk(handle, uplo, trans, n, k, alpha, A, lda, beta, C, ldc);
}

trnblasStatus_t trnblasCherkEx(trnblasHandle_t handle, trnblasFillMode_t uplo,
                               trnblasOperation_t trans, int n, int k, const float *alpha,
                               const void *A, trnsciDataType_t Atype, int lda, const float *beta,
                               void *C, trnsciDataType_t Ctype, int ldc) {
    const trnblasStatus_t st = complex_float_only("trnblasCherkEx", Atype, Ctype);
    return st != TRNBLAS_STATUS_SUCCESS
               ? st
               : trnblasCherk(handle, uplo, trans, n, k, alpha, A, lda, beta, C, ldc);
}

trnblasStatus_t trnblasCherk3mEx(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int n, int k, const float *alpha,
                                 const void *A, trnsciDataType_t Atype, int lda, const float *beta,
                                 void *C, trnsciDataType_t Ctype, int ldc) {
    const trnblasStatus_t st = complex_float_only("trnblasCherk3mEx", Atype, Ctype);
    return st != TRNBLAS_STATUS_SUCCESS
               ? st
               : trnblasCherk(handle, uplo, trans, n, k, alpha, A, lda, beta, C, ldc);
}

/* ---- packed <-> triangular ------------------------------------------------------ */

/* Copies the uplo triangle of the n x n matrix a (leading dimension lda)
 * to or from packed storage ap, column by column, elements of size es. */
static trnblasStatus_t packed_copy(const char *fn, trnblasHandle_t handle, trnblasFillMode_t uplo,
                                   int n, char *ap, char *a, int lda, size_t es, int to_packed) {
    if (uplo != TRNBLAS_FILL_MODE_LOWER && uplo != TRNBLAS_FILL_MODE_UPPER) {
        trn_fail(trnsciErrorInvalidValue, "%s: uplo = %d is not a trnblasFillMode_t", fn,
                 (int)uplo);
        return TRNBLAS_STATUS_INVALID_VALUE;
    }
    if (n < 0 || lda < (n > 1 ? n : 1)) {
        trn_fail(trnsciErrorInvalidValue, "%s: n = %d, lda = %d (need n >= 0, lda >= max(1, n))",
                 fn, n, lda);
        return TRNBLAS_STATUS_INVALID_VALUE;
    }
    trnsciStream_t stream = NULL;
    const trnblasStatus_t st = trnblasGetStream(handle, &stream);
    if (st != TRNBLAS_STATUS_SUCCESS)
        return st;
    size_t at = 0; /* packed offset of column j, in elements */
    for (int j = 0; j < n; j++) {
        /* lower: rows j..n-1 of column j; upper: rows 0..j */
        const size_t row0 = uplo == TRNBLAS_FILL_MODE_LOWER ? (size_t)j : 0;
        const size_t len = uplo == TRNBLAS_FILL_MODE_LOWER ? (size_t)(n - j) : (size_t)j + 1;
        char *full = a + (row0 + (size_t)j * (size_t)lda) * es, *packed = ap + at * es;
        const trnsciError_t e =
            to_packed
                ? trnsciMemcpyAsync(packed, full, len * es, trnsciMemcpyDeviceToDevice, stream)
                : trnsciMemcpyAsync(full, packed, len * es, trnsciMemcpyDeviceToDevice, stream);
        if (e != trnsciSuccess)
            return trn_blas_status(e);
        at += len;
    }
    trn_ok();
    return TRNBLAS_STATUS_SUCCESS;
}

#define TRN_PACKED_PAIR(T, t, type)                                                                \
    trnblasStatus_t trnblas##T##tpttr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,       \
                                      const type *AP, type *A, int lda) {                          \
        return packed_copy("trnblas" #T "tpttr", handle, uplo, n, (char *)(uintptr_t)AP,           \
                           (char *)A, lda, sizeof(type), 0);                                       \
    }                                                                                              \
    trnblasStatus_t trnblas##T##trttp(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,       \
                                      const type *A, int lda, type *AP) {                          \
        return packed_copy("trnblas" #T "trttp", handle, uplo, n, (char *)AP,                      \
                           (char *)(uintptr_t)A, lda, sizeof(type), 1);                            \
    }

TRN_PACKED_PAIR(S, s, float)
TRN_PACKED_PAIR(D, d, double)
TRN_PACKED_PAIR(C, c, trnComplex)
TRN_PACKED_PAIR(Z, z, trnDoubleComplex)
