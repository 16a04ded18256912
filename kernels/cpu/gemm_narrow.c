/*
 * gemm_narrow.c — GEMM on 16-bit and int8 storage (trnblasHgemm, GemmEx
 * with R_16F, R_16BF, R_8I or C_8I A and B; docs/numerics.md, "16-bit
 * storage").
 *
 * Floating-point results (COMPUTE_16F and COMPUTE_32F): the operands are
 * widened to FP32, which is exact for binary16, bfloat16 and int8; C is
 * widened too when beta != 0 (beta = 0 never reads C, so a NaN there does
 * not propagate). One SGEMM computes alpha op(A) op(B) + beta C with FP32
 * products and sums, and the result is rounded once to C's storage type,
 * to nearest even (trn_fp16.h's conversions). COMPUTE_16F therefore
 * accumulates in FP32 too: its only half-precision rounding is the final
 * one. The FP32 copies of op(A)'s stored matrix, the shard's columns of
 * op(B) and the shard's block of C are allocated here; failure is
 * TRN_KSTATUS_NO_MEMORY with C unchanged.
 *
 * COMPUTE_32I (int8 A and B, int32 C and scalars): C = alpha op(A) op(B) +
 * beta C in int32 arithmetic modulo 2^32 (products of int8 values are
 * exact; sums, alpha and beta wrap instead of overflowing).
 *
 * C8I A and B (complex int8, re and im interleaved; C in C32F, scalars
 * complex float, COMPUTE_32F): op(A)'s stored matrix and the shard's
 * columns of op(B) are widened exactly to complex float and one single-
 * threaded CGEMM computes alpha op(A) op(B) + beta C on C in place, so the
 * products and sums are FP32 complex arithmetic and C is rounded by the
 * CGEMM only. Memory: 8 bytes per element of stored A (rows_a x cols_a)
 * plus 8 per element of the shard's block of op(B) (k x its columns), i.e.
 * four times the int8 operands; C needs no copy. Failure is
 * TRN_KSTATUS_NO_MEMORY with C unchanged.
 *
 * The sharding (blas_gemm.c) hands whole column blocks starting at
 * multiples of 24, so the SGEMM sees the same column panels whatever the
 * split, and any split gives the bits of the unsplit op.
 */
#include <cblas.h>
#include <stdlib.h>
#include <string.h>

#include "include/trnsci/trn_fp16.h"
#include "kernels/cpu/blas_gemm.h"
#include "kernels/cpu/routines.h"

/* rows x cols of stored X (leading dimension ld, type t) from (r0, c0),
 * widened exactly into compact column-major out (leading dimension rows).
 * One loop per type, so that each is a plain conversion loop. */
static void widen_block(trn_dtype t, const void *x, size_t ld, size_t r0, size_t c0, size_t rows,
                        size_t cols, float *out) {
    for (size_t j = 0; j < cols; j++) {
        const size_t at = r0 + (c0 + j) * ld;
        float *o = out + j * rows;
        switch (t) {
        case TRN_DTYPE_R16F: {
            const unsigned char *p = (const unsigned char *)x + 2 * at;
            for (size_t i = 0; i < rows; i++) {
                trnsciHalf h;
                memcpy(&h.x, p + 2 * i, 2);
                o[i] = trnsciHalfToFloat(h);
            }
            break;
        }
        case TRN_DTYPE_R16BF: {
            const unsigned char *p = (const unsigned char *)x + 2 * at;
            for (size_t i = 0; i < rows; i++) {
                trnsciBfloat16 b;
                memcpy(&b.x, p + 2 * i, 2);
                o[i] = trnsciBfloat16ToFloat(b);
            }
            break;
        }
        case TRN_DTYPE_R8I: {
            const int8_t *p = (const int8_t *)x + at;
            for (size_t i = 0; i < rows; i++)
                o[i] = (float)p[i];
            break;
        }
        case TRN_DTYPE_R32F: memcpy(o, (const float *)x + at, rows * sizeof(float)); break;
        default: memset(o, 0, rows * sizeof(float)); break; /* not reached: validation */
        }
    }
}

/* Column block cw (m x cols, compact) rounded to C's type t (to nearest
 * even) into C from column c0 (leading dimension ld). */
static void narrow_block(trn_dtype t, const float *cw, size_t m, size_t cols, void *c, size_t ld,
                         size_t c0) {
    for (size_t j = 0; j < cols; j++) {
        const float *v = cw + j * m;
        const size_t at = (c0 + j) * ld;
        switch (t) {
        case TRN_DTYPE_R16F: {
            unsigned char *p = (unsigned char *)c + 2 * at;
            for (size_t i = 0; i < m; i++) {
                const trnsciHalf h = trnsciFloatToHalf(v[i]);
                memcpy(p + 2 * i, &h.x, 2);
            }
            break;
        }
        case TRN_DTYPE_R16BF: {
            unsigned char *p = (unsigned char *)c + 2 * at;
            for (size_t i = 0; i < m; i++) {
                const trnsciBfloat16 b = trnsciFloatToBfloat16(v[i]);
                memcpy(p + 2 * i, &b.x, 2);
            }
            break;
        }
        case TRN_DTYPE_R32F: memcpy((float *)c + at, v, m * sizeof(float)); break;
        default: break; /* not reached: validation */
        }
    }
}

static trn_kstatus gemm_float(const trn_gemm_one *g) {
    const trn_gemm_desc *d = g->d;
    const trn_dtype ab = trn_gemm_ab_type(d);
    const size_t m = (size_t)d->m, k = (size_t)d->k, ncols = (size_t)(g->j1 - g->j0);
    const size_t j0 = (size_t)g->j0, ldc = (size_t)d->ldc;
    const int product = g->a && g->b && k > 0;
    const int a_n = d->transa == TRN_TRANS_N, b_n = d->transb == TRN_TRANS_N;
    /* Stored A is rows_a x cols_a; the shard's op(B) columns are stored
     * as k x ncols (N) or ncols x k (T) from B's (0, j0) or (j0, 0). */
    const size_t rows_a = a_n ? m : k, cols_a = a_n ? k : m;
    const size_t rows_b = b_n ? k : ncols, cols_b = b_n ? ncols : k;
    const size_t na = product ? rows_a * cols_a : 0, nb = product ? rows_b * cols_b : 0;
    const size_t nc = m * ncols, total = na + nb + nc;
    float *w = malloc(total * sizeof(float));
    if (!w)
        return trn_kmsg_no_memory(g->kmsg, g->shard, total * sizeof(float),
                                  "the FP32 copies of a 16-bit GEMM's operands");
    float *aw = w, *bw = w + na, *cw = w + na + nb;
    const float alpha = (float)g->alpha.re, beta = (float)g->beta.re;
    if (beta != 0.0f)
        widen_block(d->type, g->c, ldc, 0, j0, m, ncols, cw);
    else
        memset(cw, 0, nc * sizeof(float));
    if (product) {
        widen_block(ab, g->a, (size_t)d->lda, 0, 0, rows_a, cols_a, aw);
        widen_block(ab, g->b, (size_t)d->ldb, b_n ? 0 : j0, b_n ? j0 : 0, rows_b, cols_b, bw);
        TRN_LIB(cblas_sgemm)
        (CblasColMajor, a_n ? CblasNoTrans : CblasTrans, b_n ? CblasNoTrans : CblasTrans, d->m,
         (int)ncols, d->k, alpha, aw, (int)(rows_a > 0 ? rows_a : 1), bw,
         (int)(rows_b > 0 ? rows_b : 1), beta, cw, d->m > 0 ? d->m : 1);
    } else if (beta != 0.0f) { /* no product: C = beta C */
        for (size_t i = 0; i < nc; i++)
            cw[i] *= beta;
    }
    narrow_block(d->type, cw, m, ncols, g->c, ldc, j0);
    free(w);
    return TRN_KSTATUS_OK;
}

/* int32 arithmetic modulo 2^32, in uint32_t (whose overflow is defined). */
static uint32_t wrap(double v) {
    return (uint32_t)(int64_t)v; /* validation: v is an int32 value */
}

static trn_kstatus gemm_int(const trn_gemm_one *g) {
    const trn_gemm_desc *d = g->d;
    const size_t m = (size_t)d->m, k = (size_t)d->k, ldc = (size_t)d->ldc;
    const int8_t *a = g->a, *b = g->b;
    const uint32_t alpha = wrap(g->alpha.re), beta = wrap(g->beta.re);
    const int product = a && b && k > 0;
    for (size_t j = (size_t)g->j0; j < (size_t)g->j1; j++) {
        int32_t *c = (int32_t *)g->c + j * ldc;
        for (size_t i = 0; i < m; i++) {
            uint32_t acc = 0;
            if (product)
                for (size_t p = 0; p < k; p++) {
                    const int32_t x = a[trn_gemm_op_index(d->transa, i, p, (size_t)d->lda)];
                    const int32_t y = b[trn_gemm_op_index(d->transb, p, j, (size_t)d->ldb)];
                    acc += (uint32_t)(x * y); /* |x y| <= 2^14: exact */
                }
            uint32_t r = alpha * acc;
            if (beta != 0) {
                uint32_t cv;
                memcpy(&cv, c + i, sizeof(cv));
                r += beta * cv;
            }
            memcpy(c + i, &r, sizeof(r));
        }
    }
    return TRN_KSTATUS_OK;
}

/* rows x cols of stored complex int8 X (leading dimension ld) from (r0,
 * c0), widened exactly into compact column-major complex float out
 * (interleaved re, im; leading dimension rows). */
static void widen_c8i(const void *x, size_t ld, size_t r0, size_t c0, size_t rows, size_t cols,
                      float *out) {
    for (size_t j = 0; j < cols; j++) {
        const int8_t *p = (const int8_t *)x + 2 * (r0 + (c0 + j) * ld);
        float *o = out + 2 * j * rows;
        for (size_t i = 0; i < 2 * rows; i++)
            o[i] = (float)p[i];
    }
}

static CBLAS_TRANSPOSE cblas_trans(trn_trans t) {
    return t == TRN_TRANS_N ? CblasNoTrans : t == TRN_TRANS_T ? CblasTrans : CblasConjTrans;
}

static trn_kstatus gemm_c8i(const trn_gemm_one *g) {
    const trn_gemm_desc *d = g->d;
    const size_t m = (size_t)d->m, k = (size_t)d->k, ncols = (size_t)(g->j1 - g->j0);
    const size_t j0 = (size_t)g->j0, ldc = (size_t)d->ldc;
    float *c = (float *)g->c + 2 * j0 * ldc;
    const float alpha[2] = {(float)g->alpha.re, (float)g->alpha.im};
    const float beta[2] = {(float)g->beta.re, (float)g->beta.im};
    if (!(g->a && g->b && k > 0)) {
        /* No product: C = beta C; beta = 0 writes zeros without reading C. */
        for (size_t j = 0; j < ncols; j++) {
            float *v = c + 2 * j * ldc;
            for (size_t i = 0; i < m; i++) {
                const float re = v[2 * i], im = v[2 * i + 1];
                if (beta[0] == 0.0f && beta[1] == 0.0f) {
                    v[2 * i] = v[2 * i + 1] = 0.0f;
                } else {
                    v[2 * i] = beta[0] * re - beta[1] * im;
                    v[2 * i + 1] = beta[0] * im + beta[1] * re;
                }
            }
        }
        return TRN_KSTATUS_OK;
    }
    const int a_n = d->transa == TRN_TRANS_N, b_n = d->transb == TRN_TRANS_N;
    const size_t rows_a = a_n ? m : k, cols_a = a_n ? k : m;
    const size_t rows_b = b_n ? k : ncols, cols_b = b_n ? ncols : k;
    const size_t na = rows_a * cols_a, nb = rows_b * cols_b;
    const size_t bytes = 2 * (na + nb) * sizeof(float);
    float *w = malloc(bytes);
    if (!w)
        return trn_kmsg_no_memory(g->kmsg, g->shard, bytes,
                                  "the complex FP32 copies of a C_8I GEMM's A and B");
    float *aw = w, *bw = w + 2 * na;
    widen_c8i(g->a, (size_t)d->lda, 0, 0, rows_a, cols_a, aw);
    widen_c8i(g->b, (size_t)d->ldb, b_n ? 0 : j0, b_n ? j0 : 0, rows_b, cols_b, bw);
    TRN_LIB(cblas_cgemm)
    (CblasColMajor, cblas_trans(d->transa), cblas_trans(d->transb), d->m, (int)ncols, d->k, alpha,
     aw, (int)(rows_a > 0 ? rows_a : 1), bw, (int)(rows_b > 0 ? rows_b : 1), beta, c, d->ldc);
    free(w);
    return TRN_KSTATUS_OK;
}

trn_kstatus trn_cpu_gemm_narrow(const trn_gemm_one *g) {
    if (trn_gemm_ab_type(g->d) == TRN_DTYPE_C8I)
        return gemm_c8i(g);
    if (g->d->compute == TRN_COMPUTE_32I)
        return gemm_int(g);
    return gemm_float(g);
}
