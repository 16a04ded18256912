/*
 * gemm_lowprec.c — FP32 GEMM from low-precision products: the
 * COMPUTE_32F_FAST_16BF / _FAST_TF32 / _FAST_16F modes and the split
 * bfloat16 modes BF16X3 and BF16X9 (docs/numerics.md, "Precision modes").
 *
 * Each value x of op(A) and op(B) is cut into pieces x = p0 + p1 + p2 + r:
 * p0 = round(x) in the mode's format, p1 = round(x - p0), p2 = round(x - p0
 * - p1) (every difference is exact in FP32). FAST modes keep p0 (rounded to
 * nearest even, or stochastically), BF16X3 p0 and p1, BF16X9 all three.
 * The pieces are stored as FP32 values; the product of two bfloat16 pieces
 * has at most 16 significant bits and is exact in FP32, so an FP32 GEMM of
 * pieces is exactly the Tensor Engine's bfloat16 multiply with FP32
 * accumulation. C = alpha * sum of the piece products + beta * C, the
 * products accumulated into C with one SGEMM/CGEMM each, smallest first:
 * BF16X3 uses p0q0 + p0q1 + p1q0 (p1q1 is below the FP32 rounding of the
 * result's leading part by 2^-16 and is dropped, as the scheme defines),
 * BF16X9 all nine.
 *
 * Stochastic rounding draws one Philox word per component of op(A) and
 * op(B) as a function of (seed, matrix of the batch, operand, element's
 * position in op(X)), so a result does not depend on the shard split.
 *
 * The pieces of op(A) (m x k) and of the shard's columns of op(B) are
 * materialised untransposed, column-major, in memory allocated here; an
 * allocation failure fails the op with TRN_KSTATUS_NO_MEMORY (C unchanged).
 */
#include <cblas.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/blas_gemm.h"
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/lowprec.h"
#include "kernels/cpu/routines.h"
#include "ops/convert_stage.h"

#define MAX_PIECES 3

/* Operand tags in the stochastic-rounding counter. */
#define TAG_A 1u
#define TAG_B 2u

typedef struct split_src {
    const float *x; /* stored matrix, as floats (complex: re, im pairs) */
    size_t ld;      /* in elements */
    trn_trans t;
    unsigned comps; /* 1 real, 2 complex */
    size_t rows;    /* of op(X) */
    size_t cols;    /* of op(X) taken, from column col0 */
    size_t col0;
    uint32_t tag;
} split_src;

/* The pieces of the len values of v into out[q][0..len), rounded to nearest
 * even: one loop per format, so that each vectorises. */
static void pieces_rn(trn_compute mode, unsigned np, float *v, size_t len, float *const *out) {
    for (unsigned q = 0; q < np; q++) {
        float *o = out[q];
        switch (mode) {
        case TRN_COMPUTE_32F_FAST_TF32:
            for (size_t i = 0; i < len; i++)
                o[i] = lp_round_rne(v[i], LP_TF32_DROP);
            break;
        case TRN_COMPUTE_32F_FAST_16F:
            for (size_t i = 0; i < len; i++)
                o[i] = lp_fp16(v[i]);
            break;
        default:
            for (size_t i = 0; i < len; i++)
                o[i] = lp_bf16(v[i]);
            break;
        }
        if (q + 1 < np) /* the rest, exact in FP32, for the next piece */
            for (size_t i = 0; i < len; i++)
                v[i] -= o[i];
    }
}

/* Writes the pieces of op(X)[:, col0 : col0+cols) into out[0..np), each
 * rows x cols column-major (ld = rows), comps floats per element. col and
 * rnd are scratch for one column (rows * comps values). Stochastic
 * rounding takes the column's random words: word index = position of the
 * component in op(X), column-major. */
static void split(const trn_gemm_one *g, const split_src *s, unsigned np, float *const *out,
                  float *col, uint32_t *rnd) {
    const trn_gemm_desc *d = g->d;
    const size_t w = s->rows * s->comps;
    const int conj = s->t == TRN_TRANS_C && s->comps == 2;
    const unsigned drop = d->compute == TRN_COMPUTE_32F_FAST_TF32 ? LP_TF32_DROP : LP_BF16_DROP;
    for (size_t jj = 0; jj < s->cols; jj++) {
        const size_t j = s->col0 + jj;
        /* Column j of op(X), contiguous (a copy for the transposed case). */
        if (s->t == TRN_TRANS_N) {
            memcpy(col, s->x + j * s->ld * s->comps, w * sizeof(float));
        } else {
            for (size_t i = 0; i < s->rows; i++)
                for (unsigned c = 0; c < s->comps; c++)
                    col[i * s->comps + c] = s->x[(j + i * s->ld) * s->comps + c];
        }
        if (conj)
            for (size_t i = 1; i < w; i += 2)
                col[i] = -col[i];
        float *dst[MAX_PIECES];
        for (unsigned q = 0; q < np; q++)
            dst[q] = out[q] + jj * w;
        if (d->stochastic) {
            lp_random_words(d->seed, g->batch, s->tag, (uint64_t)j * w, w, rnd);
            for (size_t i = 0; i < w; i++)
                dst[0][i] = lp_round_sr(col[i], drop, rnd[i]);
        } else {
            pieces_rn(d->compute, np, col, w, dst);
        }
    }
}

/* The piece products, smallest first: (s, t) with s + t descending. */
static unsigned pairs_of(unsigned np, unsigned ps[9], unsigned pt[9]) {
    unsigned n = 0;
    for (int sum = 2 * (int)(np - 1); sum >= 0; sum--)
        for (unsigned s = 0; s < np; s++) {
            const int t = sum - (int)s;
            if (t < 0 || t >= (int)np)
                continue;
            if (np == 2 && s + (unsigned)t == 2)
                continue; /* BF16X3 drops p1 q1 */
            ps[n] = s;
            pt[n] = (unsigned)t;
            n++;
        }
    return n;
}

/* Scratch for split(): one column, and its random words when stochastic.
 * NULL (and the message posted) when out of memory. */
static float *column_scratch(const trn_gemm_desc *d, size_t col_len, trn_kmsg *kmsg, int shard,
                             uint32_t **rnd) {
    const size_t col_bytes = col_len * sizeof(float);
    const size_t rnd_bytes = d->stochastic ? col_len * sizeof(uint32_t) : 0;
    float *col = malloc(col_bytes + rnd_bytes);
    if (!col) {
        trn_kmsg_no_memory(kmsg, shard, col_bytes + rnd_bytes, "a column of A or B");
        return NULL;
    }
    *rnd = d->stochastic ? (uint32_t *)(col + col_len) : NULL;
    return col;
}

/* Columns [c0, c1) of the pieces of X (cols of them in all, each `rows`
 * long), from the stored src (col0 = 0): out[q] is piece q's start. */
static void split_columns(const trn_gemm_one *g, split_src src, size_t c0, size_t c1, unsigned np,
                          float *const *out, float *col, uint32_t *rnd) {
    if (c1 <= c0)
        return;
    const size_t w = src.rows * src.comps;
    float *dst[MAX_PIECES];
    for (unsigned q = 0; q < np; q++)
        dst[q] = out[q] + c0 * w;
    src.col0 = c0;
    src.cols = c1 - c0;
    split(g, &src, np, dst, col, rnd);
}

trn_kstatus trn_cpu_gemm_split_ahead(const trn_gemm_desc *d, trn_kmsg *kmsg, int shard,
                                     int nshards) {
    const unsigned comps = d->type == TRN_DTYPE_C32F ? 2 : 1;
    const unsigned np = trn_gemm_pieces(d->compute);
    const size_t m = (size_t)d->m, k = (size_t)d->k, n = (size_t)d->n;
    if (np == 0 || m == 0 || n == 0 || k == 0)
        return TRN_KSTATUS_OK;
    uint32_t *rnd;
    float *col = column_scratch(d, (m > k ? m : k) * comps, kmsg, shard, &rnd);
    if (!col)
        return TRN_KSTATUS_NO_MEMORY;
    /* The shard's columns of op(A) (0 .. k) followed by op(B)'s (k .. k+n). */
    size_t lo, hi;
    trn_cpu_shard_range(k + n, shard, nshards, &lo, &hi);
    float *ap[MAX_PIECES], *bp[MAX_PIECES];
    for (unsigned q = 0; q < np; q++) {
        ap[q] = d->pieces_a + q * m * k * comps;
        bp[q] = d->pieces_b + q * k * n * comps;
    }
    const trn_gemm_one g = {.d = d, .a = d->a, .b = d->b, .kmsg = kmsg, .shard = shard};
    const split_src sa = {d->a, (size_t)d->lda, d->transa, comps, m, k, 0, TAG_A};
    const split_src sb = {d->b, (size_t)d->ldb, d->transb, comps, k, n, 0, TAG_B};
    split_columns(&g, sa, lo < k ? lo : k, hi < k ? hi : k, np, ap, col, rnd);
    split_columns(&g, sb, lo > k ? lo - k : 0, hi > k ? hi - k : 0, np, bp, col, rnd);
    free(col);
    return TRN_KSTATUS_OK;
}

/* The pieces of op(A) and of the shard's columns of op(B): converted ahead
 * (d->split_stage TRN_GEMM_SPLIT_DONE), or here into *mem (freed by the
 * caller). TRN_KSTATUS_NO_MEMORY: posted to g->kmsg. */
static trn_kstatus pieces(const trn_gemm_one *g, unsigned np, float **ap, float **bp, float **mem) {
    const trn_gemm_desc *d = g->d;
    const unsigned comps = d->type == TRN_DTYPE_C32F ? 2 : 1;
    const size_t m = (size_t)d->m, k = (size_t)d->k, ncols = (size_t)(g->j1 - g->j0);
    const size_t a_len = m * k * comps, b_len = k * ncols * comps;
    *mem = NULL;
    if (d->split_stage == TRN_GEMM_SPLIT_DONE) {
        const size_t b_all = k * (size_t)d->n * comps;
        for (unsigned q = 0; q < np; q++) {
            ap[q] = d->pieces_a + q * a_len;
            bp[q] = d->pieces_b + q * b_all + (size_t)g->j0 * k * comps;
        }
        return TRN_KSTATUS_OK;
    }
    const size_t mem_bytes = np * (a_len + b_len) * sizeof(float);
    uint32_t *rnd;
    float *col = column_scratch(d, (m > k ? m : k) * comps, g->kmsg, g->shard, &rnd);
    *mem = col ? malloc(mem_bytes) : NULL;
    if (!*mem) {
        free(col);
        return col ? trn_kmsg_no_memory(g->kmsg, g->shard, mem_bytes,
                                        "the low-precision pieces of A and B")
                   : TRN_KSTATUS_NO_MEMORY;
    }
    for (unsigned q = 0; q < np; q++) {
        ap[q] = *mem + q * a_len;
        bp[q] = *mem + np * a_len + q * b_len;
    }
    const split_src sa = {g->a, (size_t)d->lda, d->transa, comps, m, k, 0, TAG_A};
    const split_src sb = {g->b, (size_t)d->ldb, d->transb, comps, k, ncols, (size_t)g->j0, TAG_B};
    split(g, &sa, np, ap, col, rnd);
    split(g, &sb, np, bp, col, rnd);
    free(col);
    return TRN_KSTATUS_OK;
}

trn_kstatus trn_cpu_gemm_lowprec(const trn_gemm_one *g) {
    const trn_gemm_desc *d = g->d;
    const unsigned comps = d->type == TRN_DTYPE_C32F ? 2 : 1;
    const unsigned np = trn_gemm_pieces(d->compute);
    const size_t ncols = (size_t)(g->j1 - g->j0);
    float *ap[MAX_PIECES], *bp[MAX_PIECES], *mem;
    const trn_kstatus st = pieces(g, np, ap, bp, &mem);
    if (st != TRN_KSTATUS_OK)
        return st;

    unsigned ps[9], pt[9];
    const unsigned npairs = pairs_of(np, ps, pt);
    float *c = (float *)g->c + (size_t)g->j0 * (size_t)d->ldc * comps;
    for (unsigned q = 0; q < npairs; q++) {
        const float *A = ap[ps[q]], *B = bp[pt[q]];
        if (comps == 1) {
            TRN_LIB(cblas_sgemm)
            (CblasColMajor, CblasNoTrans, CblasNoTrans, d->m, (int)ncols, d->k, (float)g->alpha.re,
             A, d->m, B, d->k, q == 0 ? (float)g->beta.re : 1.0f, c, d->ldc);
        } else {
            const float alpha[2] = {(float)g->alpha.re, (float)g->alpha.im};
            const float beta[2] = {(float)g->beta.re, (float)g->beta.im}, one[2] = {1.0f, 0.0f};
            TRN_LIB(cblas_cgemm)
            (CblasColMajor, CblasNoTrans, CblasNoTrans, d->m, (int)ncols, d->k, alpha, A, d->m, B,
             d->k, q == 0 ? beta : one, c, d->ldc);
        }
    }
    free(mem);
    return TRN_KSTATUS_OK;
}
