/*
 * gemm_ozaki.c — COMPUTE_64F_EMULATED: DGEMM/ZGEMM accuracy from FP32
 * products that are exact (Ozaki's error-free splitting; docs/numerics.md,
 * "Emulated FP64").
 *
 * Each row i of op(A) is scaled by 2^-e_i, where 2^e_i bounds its largest
 * component, and each column j of op(B) by 2^-f_j; every scaled value then
 * lies in (-1, 1) and is cut into S digits of BETA bits:
 *     a = 2^e_i * sum_{s=1..S} d_s 2^(-s*BETA) + r,  d_s integers,
 *     |d_1| <= 2^BETA, |d_s| <= 2^(BETA-1) for s > 1, |r| <= 2^(e_i - S*BETA - 1),
 * each digit taken by rounding to nearest (every step is exact in double).
 * A digit is an integer of at most BETA + 1 bits (a bfloat16 value), so a
 * product of digits has at most 2*BETA bits and a sum of KB of them stays
 * below 2^24: the SGEMM of two digit matrices over a block of KB columns of
 * op(A) is EXACT in FP32 whatever the summation order. Summing the digit
 * products with s + t <= S + 1, each scaled by 2^(-(s+t)*BETA), in double
 * gives op(A) op(B) with an error of about k * (S + 2) * 2^(-S*BETA) *
 * 2^(e_i + f_j) from the truncation, plus the double rounding of the sums:
 * FP64-level for BETA = 7, S = 8 (56 bits). Only the O(n^2) splitting and
 * accumulation run in double; all O(n^3) work is FP32 SGEMMs, as on a
 * Tensor Engine, which has bfloat16 multipliers and FP32 accumulators.
 *
 * Complex data: the real and imaginary parts are planes of one digit
 * matrix [Re | Im] (m x 2KB), and op(B)'s digits are stacked as [Re; -Im]
 * and [Im; Re], so one SGEMM per plane gives Re(AB) and Im(AB); KB is
 * halved to keep the exactness bound.
 *
 * Blocking: C is computed in MB x NB tiles, each accumulating over blocks
 * of KB columns of op(A); per block, one SGEMM per digit of A (and plane)
 * multiplies it by all the digits of B it pairs with, side by side. Because
 * every FP32 product is exact and the double sums run in a fixed order (k
 * block, digit of A, digit of B), the result does not depend on the tiles or
 * on the shard split.
 */
#include <cblas.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/blas_gemm.h"
#include "kernels/cpu/routines.h"

#define BETA 7       /* bits per digit */
#define S_DIGITS 8   /* digits per value: 56 bits */
#define KB_REAL 1024 /* KB * 2^(2*BETA) = 2^24 */
#define KB_CPLX 512  /* two planes: 2 * KB * 2^(2*BETA) = 2^24 */
#define TILE_M 512
#define TILE_N 512

typedef struct ozaki_ctx {
    const trn_gemm_one *g;
    int cx;      /* complex data */
    int *row_e;  /* e_i, m of them */
    int *col_f;  /* f_j for the shard's columns */
    float *ad;   /* S digit matrices of op(A)'s tile: TILE_M x (planes * KB) */
    float *bd;   /* S digit matrices (x2 planes for complex) of op(B)'s tile */
    float *prod; /* an SGEMM's output: TILE_M x S TILE_N */
    double *acc; /* the tile's sums: TILE_M x TILE_N (x2 for complex) */
} ozaki_ctx;

/* Component `c` (0 real, 1 imaginary) of op(A)(i, p) or op(B)(p, j). */
static double op_elem(const double *x, size_t ld, trn_trans t, int cx, size_t r, size_t q, int c) {
    const size_t at = trn_gemm_op_index(t, r, q, ld) * (cx ? 2u : 1u);
    const double v = x[at + (size_t)c];
    return (c == 1 && t == TRN_TRANS_C) ? -v : v;
}

/* The exponent e with max |component| < 2^e (0 for a zero vector). */
static int bound_exponent(double maxabs) {
    int e = 0;
    if (maxabs > 0.0 && isfinite(maxabs))
        (void)frexp(maxabs, &e);
    return e;
}

/* max[r - r0] = the largest |component| of row r of op(X) for r in
 * [r0, r0 + nr), over its q columns; the stored matrix is walked in memory
 * order. */
static void row_maxima(const double *x, size_t ld, trn_trans t, int cx, size_t r0, size_t nr,
                       size_t q, double *max) {
    const size_t comps = cx ? 2 : 1;
    for (size_t r = 0; r < nr; r++)
        max[r] = 0.0;
    for (size_t a = 0; a < (t == TRN_TRANS_N ? q : nr); a++)
        for (size_t b = 0; b < (t == TRN_TRANS_N ? nr : q); b++) {
            /* N: column a of X, row r0 + b; T/C: column r0 + a of X, row b. */
            const size_t r = t == TRN_TRANS_N ? b : a;
            const size_t at = t == TRN_TRANS_N ? (r0 + b) + a * ld : b + (r0 + a) * ld;
            for (size_t c = 0; c < comps; c++) {
                const double v = fabs(x[at * comps + c]);
                max[r] = v > max[r] ? v : max[r];
            }
        }
}

/* e_i for every row of op(A), f_j for columns j0.. of op(B) (the rows of
 * op(B)^T: op(B)(p, j) is op'(B)(j, p) with the opposite transpose). */
static int scale_exponents(ozaki_ctx *o) {
    const trn_gemm_one *g = o->g;
    const trn_gemm_desc *d = g->d;
    const size_t ncols = (size_t)(g->j1 - g->j0);
    const size_t most = (size_t)d->m > ncols ? (size_t)d->m : ncols;
    double *max = malloc(most * sizeof(double));
    if (!max)
        return -1;
    row_maxima(g->a, (size_t)d->lda, d->transa, o->cx, 0, (size_t)d->m, (size_t)d->k, max);
    for (int i = 0; i < d->m; i++)
        o->row_e[i] = bound_exponent(max[i]);
    const trn_trans bt = d->transb == TRN_TRANS_N ? TRN_TRANS_T : TRN_TRANS_N;
    row_maxima(g->b, (size_t)d->ldb, bt, o->cx, (size_t)g->j0, ncols, (size_t)d->k, max);
    for (size_t j = 0; j < ncols; j++)
        o->col_f[j] = bound_exponent(max[j]);
    free(max);
    return 0;
}

/* 2^e as a double, for -1022 <= e <= 1023 (built from its encoding). */
static double pow2(int e) {
    const uint64_t bits = (uint64_t)(e + 1023) << 52;
    double v;
    memcpy(&v, &bits, sizeof(v));
    return v;
}

/* x 2^e: one exact multiply when 2^e is a normal double, else ldexp (a row
 * or column scale beyond 2^+-1022 only for data near the ends of the
 * range). */
static double scale2(double x, int e) {
    return (e >= -1022 && e <= 1023) ? x * pow2(e) : ldexp(x, e);
}

/* The S digits of v * 2^-e into out[s * stride]; every step is exact (a
 * power-of-two scaling, a rounding to an integer, a subtraction of the
 * integer part), except that a value below 2^(e - 1022) loses the bits that
 * fall below double's subnormal range. */
static void digits(double v, int e, float *out, size_t stride) {
    double r = scale2(v, -e);
    for (int s = 0; s < S_DIGITS; s++) {
        r *= (double)(1 << BETA);
        const double dgt = nearbyint(r);
        r -= dgt;
        out[(size_t)s * stride] = (float)dgt;
    }
}

/* Digits of op(A)[i0 : i0+mt, p0 : p0+kt): digit s of (i, p) plane c at
 * ad[s][(c*kt + p) * mt + i] (the planes side by side: m x planes*kt). */
static void split_a(ozaki_ctx *o, int i0, int mt, int p0, int kt) {
    const trn_gemm_desc *d = o->g->d;
    const int planes = o->cx ? 2 : 1;
    const size_t stride = (size_t)mt * (size_t)planes * (size_t)kt;
    for (int c = 0; c < planes; c++)
        for (int p = 0; p < kt; p++)
            for (int i = 0; i < mt; i++) {
                const double v = op_elem(o->g->a, (size_t)d->lda, d->transa, o->cx,
                                         (size_t)(i0 + i), (size_t)(p0 + p), c);
                digits(v, o->row_e[i0 + i], o->ad + ((size_t)c * kt + p) * mt + i, stride);
            }
}

/* Digits of op(B)[p0 : p0+kt, j0 : j0+nt) (j0 relative to the shard's
 * first column), plane-major: plane c of digit t is the (kw x nt) matrix at
 * bd + (c S + t) kw nt, so the digits 0 .. t of a plane side by side form
 * one kw x (t+1) nt matrix. Real: one plane, kw = kt. Complex: kw = 2 kt,
 * plane 0 is [Re; -Im] and plane 1 [Im; Re], so that the digits of
 * [Re(A) | Im(A)] times them give Re(AB) and Im(AB). */
static void split_b(ozaki_ctx *o, int p0, int kt, int j0, int nt) {
    const trn_gemm_one *g = o->g;
    const trn_gemm_desc *d = g->d;
    const size_t rows = o->cx ? 2 * (size_t)kt : (size_t)kt;
    const size_t one = rows * (size_t)nt, plane = S_DIGITS * one;
    for (int j = 0; j < nt; j++)
        for (int p = 0; p < kt; p++) {
            const size_t col = (size_t)(g->j0 + j0 + j);
            const int f = o->col_f[j0 + j];
            const double re =
                op_elem(g->b, (size_t)d->ldb, d->transb, o->cx, (size_t)(p0 + p), col, 0);
            float *x = o->bd + (size_t)j * rows + (size_t)p;
            digits(re, f, x, one);
            if (!o->cx)
                continue;
            const double im =
                op_elem(g->b, (size_t)d->ldb, d->transb, o->cx, (size_t)(p0 + p), col, 1);
            digits(-im, f, x + kt, one);   /* [Re; -Im] */
            digits(im, f, x + plane, one); /* [Im; Re] */
            digits(re, f, x + plane + kt, one);
        }
}

/* acc += scale * prod over an mt x nt tile (ld mt). */
static void accumulate(double *acc, const float *prod, size_t len, double scale) {
    for (size_t i = 0; i < len; i++)
        acc[i] += scale * (double)prod[i];
}

/* C tile = alpha * 2^(e_i + f_j) * acc + beta * C (C not read when beta is
 * zero, as BLAS specifies). */
static void finish_tile(const ozaki_ctx *o, int i0, int mt, int j0, int nt) {
    const trn_gemm_one *g = o->g;
    const trn_gemm_desc *d = g->d;
    const size_t len = (size_t)mt * (size_t)nt;
    const int beta0 = g->beta.re == 0.0 && g->beta.im == 0.0;
    for (int j = 0; j < nt; j++)
        for (int i = 0; i < mt; i++) {
            const int e = o->row_e[i0 + i] + o->col_f[j0 + j];
            const size_t t = (size_t)j * (size_t)mt + (size_t)i;
            const size_t at = (size_t)(i0 + i) + (size_t)(g->j0 + j0 + j) * (size_t)d->ldc;
            if (!o->cx) {
                double *c = (double *)g->c + at;
                const double v = g->alpha.re * scale2(o->acc[t], e);
                *c = beta0 ? v : v + g->beta.re * *c;
                continue;
            }
            double *c = (double *)g->c + 2 * at;
            const double vr = scale2(o->acc[t], e), vi = scale2(o->acc[len + t], e);
            double re = g->alpha.re * vr - g->alpha.im * vi;
            double im = g->alpha.re * vi + g->alpha.im * vr;
            if (!beta0) {
                re += g->beta.re * c[0] - g->beta.im * c[1];
                im += g->beta.re * c[1] + g->beta.im * c[0];
            }
            c[0] = re;
            c[1] = im;
        }
}

/* One tile of C: for each block of KB columns of op(A), the digits of both
 * operands, then for each digit s of A one SGEMM (per plane) against the
 * digits t = 0 .. S-1-s of B side by side, each block of the product added
 * to the sums with its scale 2^-(s+t+2)BETA. */
static void tile(ozaki_ctx *o, int i0, int mt, int j0, int nt) {
    const trn_gemm_desc *d = o->g->d;
    const int kb = o->cx ? KB_CPLX : KB_REAL, planes = o->cx ? 2 : 1;
    const size_t len = (size_t)mt * (size_t)nt;
    memset(o->acc, 0, (size_t)planes * len * sizeof(double));
    for (int p0 = 0; p0 < d->k; p0 += kb) {
        const int kt = d->k - p0 < kb ? d->k - p0 : kb;
        const int kw = planes * kt; /* inner dimension of the digit SGEMMs */
        split_a(o, i0, mt, p0, kt);
        split_b(o, p0, kt, j0, nt);
        const size_t a_stride = (size_t)mt * (size_t)kw, b_one = (size_t)kw * (size_t)nt;
        for (int s = 0; s < S_DIGITS; s++) { /* digits s, t from 0: s + t <= S - 1 */
            const int count = S_DIGITS - s;
            for (int c = 0; c < planes; c++) {
                TRN_LIB(cblas_sgemm)
                (CblasColMajor, CblasNoTrans, CblasNoTrans, mt, nt * count, kw, 1.0f,
                 o->ad + (size_t)s * a_stride, mt, o->bd + (size_t)c * S_DIGITS * b_one, kw, 0.0f,
                 o->prod, mt);
                for (int t = 0; t < count; t++)
                    accumulate(o->acc + (size_t)c * len, o->prod + (size_t)t * len, len,
                               pow2(-(s + t + 2) * BETA));
            }
        }
    }
    finish_tile(o, i0, mt, j0, nt);
}

trn_kstatus trn_cpu_gemm_ozaki(const trn_gemm_one *g) {
    const trn_gemm_desc *d = g->d;
    ozaki_ctx o = {.g = g, .cx = d->type == TRN_DTYPE_C64F};
    const int planes = o.cx ? 2 : 1, kb = o.cx ? KB_CPLX : KB_REAL;
    const int ncols = g->j1 - g->j0;
    const size_t tm = (size_t)(d->m < TILE_M ? d->m : TILE_M);
    const size_t tn = (size_t)(ncols < TILE_N ? ncols : TILE_N);
    const size_t tk = (size_t)(d->k < kb ? d->k : kb) * (size_t)planes;
    const size_t sizes[6] = {
        (size_t)d->m * sizeof(int),         (size_t)ncols * sizeof(int),
        S_DIGITS * tm * tk * sizeof(float), S_DIGITS * tk * tn * (size_t)planes * sizeof(float),
        tm * tn * S_DIGITS * sizeof(float), tm * tn * (size_t)planes * sizeof(double),
    };
    o.row_e = malloc(sizes[0]);
    o.col_f = malloc(sizes[1]);
    o.ad = malloc(sizes[2]);
    o.bd = malloc(sizes[3]);
    o.prod = malloc(sizes[4]);
    o.acc = malloc(sizes[5]);
    /* Every failure below is an allocation's. */
    trn_kstatus st = TRN_KSTATUS_NO_MEMORY;
    const size_t most = (size_t)d->m > (size_t)ncols ? (size_t)d->m : (size_t)ncols;
    size_t total = 0;
    for (int i = 0; i < 6; i++)
        total += sizes[i];
    if (!o.row_e || !o.col_f || !o.ad || !o.bd || !o.prod || !o.acc) {
        st = trn_kmsg_no_memory(g->kmsg, g->shard, total, "the digit tiles of emulated FP64");
        goto out;
    }
    if (scale_exponents(&o)) {
        st = trn_kmsg_no_memory(g->kmsg, g->shard, most * sizeof(double),
                                "the row and column maxima of emulated FP64");
        goto out;
    }
    for (int j0 = 0; j0 < ncols; j0 += TILE_N)
        for (int i0 = 0; i0 < d->m; i0 += TILE_M)
            tile(&o, i0, d->m - i0 < TILE_M ? d->m - i0 : TILE_M, j0,
                 ncols - j0 < TILE_N ? ncols - j0 : TILE_N);
    st = TRN_KSTATUS_OK;
out:
    free(o.row_e);
    free(o.col_f);
    free(o.ad);
    free(o.bd);
    free(o.prod);
    free(o.acc);
    return st;
}
