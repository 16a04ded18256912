/*
 * sparse_spmm_x.c — SpMV and SpMM on values other than R_32F / R_64F:
 * complex (C_32F computed in single, C_64F in double precision) and 16-bit
 * storage (R_16F, R_16BF computed in FP32), for every format and op the
 * real kernels take (CSR, CSC, COO, BSR, Blocked-ELL, Sliced-ELL, strided
 * batches: trn_cpu_spmm advances the pointers); also, for every value type
 * R_32F and R_64F included, gemvi's one-row COO without row indices
 * (trn_spmm_desc.one_row).
 *
 * C = alpha op(A) op(B) + beta C with op(A) = A, A^T or A^H (conj_a) and
 * op(B) = B, B^T (folded into b's layout) or B^H (that, plus conj_b).
 *
 * One kernel for all formats: a walk over A's stored entries in storage
 * order, each entry (i, k, v) adding v * op(B)(k, :) (op N) or
 * v' * op(B)(i, :) (op T / C, v' = v or conj v) into row i (k) of a zeroed
 * accumulator of the compute type; then C = alpha acc + beta C, each
 * element rounded once to its storage type (beta = 0: C is not read).
 * 16-bit values are widened exactly to FP32 (binary16 and bfloat16 are
 * subsets of binary32), so a 16-bit product is the FP32 product of the
 * stored values with one rounding at the end (docs/numerics.md).
 *
 * Shards own ranges of C's columns (trn_spmm_split), every one walking
 * all of A: an output element is the same sum in the same order whatever
 * the split, so sharded results are bitwise the unsharded ones. alpha = 0
 * reads nothing of A or B: C = beta C by row ranges.
 *
 * Offsets and indices are client memory (ops/sparse.h): each is read once
 * into a local and range-checked before use; a bad one fails the op with
 * its position in the message.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "include/trnsci/trn_fp16.h"
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/sparse_common.h"
#include "kernels/cpu/sparse_ell.h"
#include "kernels/cpu/sparse_spmm_x.h"

/* The walk's view of one product: where each entry's contribution goes. */
typedef struct walk {
    const trn_spmm_desc *d;
    void *acc;       /* m x w accumulator, row-major, elements of the compute type */
    int64_t j0, w;   /* C's columns [j0, j0 + w) */
    int64_t br, bc;  /* op(B)'s element strides */
    int cx;          /* complex: the accumulator holds (re, im) pairs */
    int trans, conj; /* op(A) is A^T / A^H */
    int dbl;         /* compute in double (C_64F, R_64F), else float */
} walk;

/* Element i of 16-bit storage t, widened exactly. */
static float load16(trn_dtype t, const void *v, int64_t i) {
    uint16_t bits;
    memcpy(&bits, (const unsigned char *)v + 2 * i, 2);
    if (t == TRN_DTYPE_R16F)
        return trnsciHalfToFloat((trnsciHalf){bits});
    return trnsciBfloat16ToFloat((trnsciBfloat16){bits});
}

/* x rounded to nearest even in 16-bit storage t, element i. */
static void store16(trn_dtype t, void *v, int64_t i, float x) {
    const uint16_t bits = t == TRN_DTYPE_R16F ? trnsciFloatToHalf(x).x : trnsciFloatToBfloat16(x).x;
    memcpy((unsigned char *)v + 2 * i, &bits, 2);
}

/* Element i of real float or 16-bit storage t as a float (exact). */
static float ldf(trn_dtype t, const void *v, int64_t i) {
    return t == TRN_DTYPE_R32F ? ((const float *)v)[i] : load16(t, v, i);
}

/* acc row o += (ar, ai) op(B) row q, in float. */
static void add_f(const walk *x, int64_t o, int64_t q, float ar, float ai) {
    const trn_dn_mat *b = &x->d->b;
    const int64_t w = x->w;
    const int64_t b0 = q * x->br + x->j0 * x->bc;
    float *t = (float *)x->acc + o * w * (x->cx ? 2 : 1);
    if (!x->cx) {
        for (int64_t j = 0; j < w; j++)
            t[j] += ar * ldf(b->type, b->values, b0 + j * x->bc);
        return;
    }
    const float *B = b->values;
    const float s = x->d->conj_b ? -1.0f : 1.0f;
    for (int64_t j = 0; j < w; j++) {
        const int64_t e = b0 + j * x->bc;
        const float xr = B[2 * e], xi = s * B[2 * e + 1];
        t[2 * j] += ar * xr - ai * xi;
        t[2 * j + 1] += ar * xi + ai * xr;
    }
}

static void add_d(const walk *x, int64_t o, int64_t q, double ar, double ai) {
    const int64_t w = x->w;
    const int64_t b0 = q * x->br + x->j0 * x->bc;
    const double *B = x->d->b.values;
    if (!x->cx) {
        double *t = (double *)x->acc + o * w;
        for (int64_t j = 0; j < w; j++)
            t[j] += ar * B[b0 + j * x->bc];
        return;
    }
    double *t = (double *)x->acc + o * w * 2;
    const double s = x->d->conj_b ? -1.0 : 1.0;
    for (int64_t j = 0; j < w; j++) {
        const int64_t e = b0 + j * x->bc;
        const double xr = B[2 * e], xi = s * B[2 * e + 1];
        t[2 * j] += ar * xr - ai * xi;
        t[2 * j + 1] += ar * xi + ai * xr;
    }
}

/* Stored entry A(i, k) = values[p] into the accumulator. */
static void entry(const walk *x, int64_t i, int64_t k, int64_t p) {
    const trn_sp_mat *a = &x->d->a;
    const int64_t o = x->trans ? k : i, q = x->trans ? i : k;
    if (x->dbl && x->cx) {
        const double *v = a->values;
        add_d(x, o, q, v[2 * p], x->conj ? -v[2 * p + 1] : v[2 * p + 1]);
    } else if (x->dbl) {
        add_d(x, o, q, ((const double *)a->values)[p], 0.0);
    } else if (x->cx) {
        const float *v = a->values;
        add_f(x, o, q, v[2 * p], x->conj ? -v[2 * p + 1] : v[2 * p + 1]);
    } else {
        add_f(x, o, q, ldf(a->type, a->values, p), 0.0f);
    }
}

/* CSR, CSC and BSR: structure rows in order, entries in storage order. */
static int walk_rows(const walk *x, trn_kmsg *msg) {
    const trn_sp_mat *a = &x->d->a;
    const trn_sp_rows s = trn_sp_rows_of(a, "matA");
    const int64_t rb = a->rb, cb = a->cb, bsz = rb * cb;
    int64_t p0, p1;
    for (int64_t r = 0; r < s.nrows; r++) {
        if (trn_sp_row_bounds(&s, r, msg, &p0, &p1))
            return TRN_SP_BAD;
        for (int64_t p = p0; p < p1; p++) {
            const int64_t v = trn_sp_ld(s.idx, p, s.idx64);
            const uint64_t c = (uint64_t)v - (uint64_t)s.base;
            if (c >= (uint64_t)s.ncols)
                return trn_sp_bad_index(msg, (uint64_t)r, "matA", a->format, TRN_SP_INDICES, p, v,
                                        s.base, s.ncols,
                                        a->format == TRN_SP_CSC   ? " (a column)"
                                        : a->format == TRN_SP_BSR ? " (a block row)"
                                                                  : " (a row)");
            if (a->format == TRN_SP_CSR)
                entry(x, r, (int64_t)c, p);
            else if (a->format == TRN_SP_CSC)
                entry(x, (int64_t)c, r, p);
            else
                for (int64_t ii = 0; ii < rb; ii++)
                    for (int64_t jj = 0; jj < cb; jj++)
                        entry(x, r * rb + ii, (int64_t)c * cb + jj,
                              p * bsz + (a->block_row_major ? ii * cb + jj : ii + jj * rb));
        }
    }
    return 0;
}

static int walk_coo(const walk *x, trn_kmsg *msg) {
    const trn_sp_mat *a = &x->d->a;
    for (int64_t p = 0; p < a->nnz; p++) {
        const int64_t vi = x->d->one_row ? a->base : trn_sp_ld(a->rowind, p, a->idx64);
        const int64_t vk = trn_sp_ld(a->indices, p, a->idx64);
        const uint64_t i = (uint64_t)vi - (uint64_t)a->base, k = (uint64_t)vk - (uint64_t)a->base;
        if (i >= (uint64_t)a->rows)
            return trn_sp_bad_index(msg, (uint64_t)p, "matA", TRN_SP_COO, TRN_SP_ROWIND, p, vi,
                                    a->base, a->rows, "");
        if (k >= (uint64_t)a->cols)
            return trn_sp_bad_index(msg, (uint64_t)p, "matA", TRN_SP_COO, TRN_SP_INDICES, p, vk,
                                    a->base, a->cols, "");
        entry(x, (int64_t)i, (int64_t)k, p);
    }
    return 0;
}

/* Blocked-ELL: block rows, slots, then the block's elements (row-major
 * values rows x ell_cols; edge blocks cut at rows and cols). */
static int walk_bell(const walk *x, trn_kmsg *msg) {
    const trn_sp_mat *a = &x->d->a;
    const int64_t bs = a->rb, slots = a->ell_cols / bs;
    for (int64_t I = 0; I < a->brows; I++)
        for (int64_t s = 0; s < slots; s++) {
            const int64_t p = I * slots + s;
            const int64_t v = trn_sp_ld(a->indices, p, a->idx64);
            if (v == -1)
                continue;
            const uint64_t J = (uint64_t)v - (uint64_t)a->base;
            if (J >= (uint64_t)a->bcols) {
                trn_kmsg_post(msg, (uint64_t)I, 1,
                              "matA: ellColInd[%lld] = %lld is neither -1 nor in [%d, %lld] "
                              "(block row %lld)",
                              (long long)p, (long long)v, a->base,
                              (long long)a->bcols - 1 + a->base, (long long)I);
                return TRN_SP_BAD;
            }
            for (int64_t i = I * bs; i < I * bs + bs && i < a->rows; i++)
                for (int64_t jj = 0; jj < bs && (int64_t)J * bs + jj < a->cols; jj++)
                    entry(x, i, (int64_t)J * bs + jj, i * a->ell_cols + s * bs + jj);
        }
    return 0;
}

/* Sliced-ELL: slices, rows of a slice, then the row's entries. */
static int walk_sell(const walk *x, trn_kmsg *msg) {
    const trn_sp_mat *a = &x->d->a;
    const int64_t S = a->rb;
    int64_t p0, p1;
    for (int64_t s = 0; s < a->brows; s++) {
        if (trn_cpu_sell_slice(a, s, &p0, &p1, msg))
            return TRN_SP_BAD;
        const int64_t wd = (p1 - p0) / S;
        for (int64_t r = 0; r < S && s * S + r < a->rows; r++)
            for (int64_t k = 0; k < wd; k++) {
                const int64_t p = p0 + k * S + r;
                const int64_t v = trn_sp_ld(a->indices, p, a->idx64);
                if (v == -1)
                    continue;
                const uint64_t u = (uint64_t)v - (uint64_t)a->base;
                if (u >= (uint64_t)a->cols)
                    return trn_sp_bad_index(msg, (uint64_t)(s * S + r), "matA", TRN_SP_SELL,
                                            TRN_SP_INDICES, p, v, a->base, a->cols,
                                            " (and not -1)");
                entry(x, s * S + r, (int64_t)u, p);
            }
    }
    return 0;
}

/* Element e of C's storage = alpha acc[k] + beta C (acc NULL: beta C;
 * beta = 0: C is not read), in the compute type, rounded once to C's
 * storage type. */
static void out_elem(const trn_spmm_desc *d, int64_t e, const void *acc, int64_t k) {
    const trn_dn_mat *c = &d->c;
    const int bz = d->beta == 0.0 && d->beta_im == 0.0;
    if (c->type == TRN_DTYPE_C64F) {
        const double tr = acc ? ((const double *)acc)[2 * k] : 0.0;
        const double ti = acc ? ((const double *)acc)[2 * k + 1] : 0.0;
        double *cp = (double *)c->values + 2 * e;
        double yr = acc ? d->alpha * tr - d->alpha_im * ti : 0.0;
        double yi = acc ? d->alpha * ti + d->alpha_im * tr : 0.0;
        if (!bz) {
            const double cr = cp[0], ci = cp[1];
            yr += d->beta * cr - d->beta_im * ci;
            yi += d->beta * ci + d->beta_im * cr;
        }
        cp[0] = yr;
        cp[1] = yi;
    } else if (c->type == TRN_DTYPE_C32F) {
        const float ar = (float)d->alpha, ai = (float)d->alpha_im;
        const float br = (float)d->beta, bi = (float)d->beta_im;
        const float tr = acc ? ((const float *)acc)[2 * k] : 0.0f;
        const float ti = acc ? ((const float *)acc)[2 * k + 1] : 0.0f;
        float *cp = (float *)c->values + 2 * e;
        float yr = acc ? ar * tr - ai * ti : 0.0f;
        float yi = acc ? ar * ti + ai * tr : 0.0f;
        if (!bz) {
            const float cr = cp[0], ci = cp[1];
            yr += br * cr - bi * ci;
            yi += br * ci + bi * cr;
        }
        cp[0] = yr;
        cp[1] = yi;
    } else if (c->type == TRN_DTYPE_R64F) {
        double *cp = (double *)c->values + e;
        const double y = acc ? d->alpha * ((const double *)acc)[k] : 0.0;
        *cp = bz ? y : y + d->beta * *cp;
    } else if (c->type == TRN_DTYPE_R32F) {
        float *cp = (float *)c->values + e;
        const float y = acc ? (float)d->alpha * ((const float *)acc)[k] : 0.0f;
        *cp = bz ? y : y + (float)d->beta * *cp;
    } else {
        const float t = acc ? ((const float *)acc)[k] : 0.0f;
        float y = acc ? (float)d->alpha * t : 0.0f;
        if (!bz)
            y += (float)d->beta * load16(c->type, c->values, e);
        store16(c->type, c->values, e, y);
    }
}

int trn_cpu_spmm_x(const trn_spmm_desc *d, int shard, int nshards, trn_kmsg *msg) {
    const trn_dn_mat *c = &d->c;
    int64_t cr, cc;
    trn_sp_strides(c, &cr, &cc);
    size_t lo, hi;
    if (d->alpha == 0.0 && d->alpha_im == 0.0) { /* C = beta C by rows */
        trn_cpu_shard_range((size_t)c->rows, shard, nshards, &lo, &hi);
        for (int64_t i = (int64_t)lo; i < (int64_t)hi; i++)
            for (int64_t j = 0; j < c->cols; j++)
                out_elem(d, i * cr + j * cc, NULL, 0);
        return 0;
    }
    trn_cpu_shard_range((size_t)c->cols, shard, nshards, &lo, &hi);
    if (hi <= lo)
        return 0;
    const trn_dtype t = d->a.type;
    walk x = {
        .d = d,
        .j0 = (int64_t)lo,
        .w = (int64_t)(hi - lo),
        .cx = t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F,
        .trans = d->op_a != TRN_TRANS_N,
        .conj = d->conj_a,
        .dbl = t == TRN_DTYPE_C64F || t == TRN_DTYPE_R64F,
    };
    trn_sp_strides(&d->b, &x.br, &x.bc);
    const size_t es = (size_t)(x.cx ? 2 : 1) * (x.dbl ? sizeof(double) : sizeof(float));
    const size_t n = (size_t)c->rows * (size_t)x.w;
    x.acc = calloc(n > 0 ? n : 1, es);
    if (!x.acc)
        return trn_sp_no_memory(msg, shard, n * es, "a %lld x %lld accumulator", (long long)c->rows,
                                (long long)x.w);
    int rc;
    switch (d->a.format) {
    case TRN_SP_COO: rc = walk_coo(&x, msg); break;
    case TRN_SP_BELL: rc = walk_bell(&x, msg); break;
    case TRN_SP_SELL: rc = walk_sell(&x, msg); break;
    default: rc = walk_rows(&x, msg); break;
    }
    if (rc == 0)
        for (int64_t i = 0; i < c->rows; i++)
            for (int64_t j = 0; j < x.w; j++)
                out_elem(d, i * cr + (x.j0 + j) * cc, x.acc, i * x.w + j);
    free(x.acc);
    return rc;
}
