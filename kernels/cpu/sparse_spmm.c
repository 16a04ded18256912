/*
 * sparse_spmm.c — trnsparse SpMV and SpMM (and the screened SpMM extension)
 * on the CPU backend: C = alpha op(A) B + beta C for CSR, CSC, COO and BSR.
 *
 * Kernels by format and op (sparse_spmm_t.h, instantiated here for int32 /
 * int64 indices and float / double values):
 *  - gather by rows (CSR op N; CSC op T, read as the CSR of A^T): each output
 *    row is one pass over its stored entries; shards own row ranges balanced
 *    by stored entries (trn_sp_row_split);
 *  - BSR op N: the same by block rows, each block row's product through
 *    OpenBLAS when blocks are large (gathered runs of column-major blocks);
 *  - scatter (CSR op T; CSC op N; COO): entries add into a zeroed
 *    accumulator of op(A)'s rows, then C = alpha acc + beta C; shards own
 *    ranges of C's columns, every one walking all of A;
 *  - BSR op T: a scatter of block products, one shard (the BLAS calls'
 *    rounding depends on their width, so a column split would change bits).
 * In every case an output element is the same sum in the same order
 * whatever the split (trn_spmm_split decides the kind of split, the
 * scheduler the count), so sharded results are bitwise the unsharded ones.
 * alpha = 0 reads nothing of A or B: C = beta C by row ranges.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/sparse_common.h"
#include "kernels/cpu/sparse_ell.h"
#include "kernels/cpu/sparse_spmm_x.h"

/* Each kernel twice: for any x86-64 (SSE2) and for AVX2 (twice the vector
 * width), chosen at run time. Without FMA contraction (the build is ISO C,
 * where GCC does not contract) both perform the same roundings in the same
 * order, so the result does not depend on which one runs. */
#define SP_TARGET
#define IT int32_t
#define VT float
#define SFX i32_f32
#include "kernels/cpu/sparse_spmm_t.h"
#undef IT
#undef VT
#undef SFX
#define IT int32_t
#define VT double
#define SFX i32_f64
#include "kernels/cpu/sparse_spmm_t.h"
#undef IT
#undef VT
#undef SFX
#define IT int64_t
#define VT float
#define SFX i64_f32
#include "kernels/cpu/sparse_spmm_t.h"
#undef IT
#undef VT
#undef SFX
#define IT int64_t
#define VT double
#define SFX i64_f64
#include "kernels/cpu/sparse_spmm_t.h"
#undef IT
#undef VT
#undef SFX
#undef SP_TARGET

#if defined(__x86_64__) && defined(__GNUC__)
#define SPMM_AVX2 1
#define SP_TARGET __attribute__((target("avx2")))
#define IT int32_t
#define VT float
#define SFX i32_f32_avx2
#include "kernels/cpu/sparse_spmm_t.h"
#undef IT
#undef VT
#undef SFX
#define IT int32_t
#define VT double
#define SFX i32_f64_avx2
#include "kernels/cpu/sparse_spmm_t.h"
#undef IT
#undef VT
#undef SFX
#define IT int64_t
#define VT float
#define SFX i64_f32_avx2
#include "kernels/cpu/sparse_spmm_t.h"
#undef IT
#undef VT
#undef SFX
#define IT int64_t
#define VT double
#define SFX i64_f64_avx2
#include "kernels/cpu/sparse_spmm_t.h"
#undef IT
#undef VT
#undef SFX
#undef SP_TARGET
#else
#define SPMM_AVX2 0
#endif

static int use_avx2(void) {
#if SPMM_AVX2
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

/* The instantiation of kernel `name` for matrix a's index and value types
 * and the CPU. */
#define PICK4(name, a, s)                                                                          \
    ((a)->idx64 ? ((a)->type == TRN_DTYPE_R32F ? name##_i64_f32##s : name##_i64_f64##s)            \
                : ((a)->type == TRN_DTYPE_R32F ? name##_i32_f32##s : name##_i32_f64##s))
#if SPMM_AVX2
#define PICK(name, a) (use_avx2() ? PICK4(name, a, _avx2) : PICK4(name, a, ))
#else
#define PICK(name, a) PICK4(name, a, )
#endif

/* C rows [lo, hi) = beta C (alpha = 0: A and B are not read). */
static void scale_rows(const trn_dn_mat *c, double beta, int64_t lo, int64_t hi) {
    int64_t cr, cc;
    trn_sp_strides(c, &cr, &cc);
    for (int64_t i = lo; i < hi; i++)
        for (int64_t j = 0; j < c->cols; j++) {
            const int64_t k = i * cr + j * cc;
            if (c->type == TRN_DTYPE_R32F)
                ((float *)c->values)[k] =
                    beta == 0.0 ? 0.0f : (float)beta * ((float *)c->values)[k];
            else
                ((double *)c->values)[k] = beta == 0.0 ? 0.0 : beta * ((double *)c->values)[k];
        }
}

/* C(i, j0 + j) = alpha T[i][j] + beta C(i, j0 + j) for all rows of C. */
static void combine(const trn_dn_mat *c, double alpha, double beta, const void *t, int64_t j0,
                    int64_t w) {
    int64_t cr, cc;
    trn_sp_strides(c, &cr, &cc);
    for (int64_t i = 0; i < c->rows; i++)
        for (int64_t j = 0; j < w; j++) {
            const int64_t k = i * cr + (j0 + j) * cc;
            if (c->type == TRN_DTYPE_R32F) {
                float *cp = (float *)c->values + k;
                const float acc = ((const float *)t)[i * w + j];
                *cp = beta == 0.0 ? (float)alpha * acc : (float)alpha * acc + (float)beta * *cp;
            } else {
                double *cp = (double *)c->values + k;
                const double acc = ((const double *)t)[i * w + j];
                *cp = beta == 0.0 ? alpha * acc : alpha * acc + beta * *cp;
            }
        }
}

/* The scatter kernels: columns [j0, j0 + w) of C through a zeroed
 * accumulator of op(A)'s rows. */
static int scatter(const trn_spmm_desc *d, int64_t j0, int64_t w, int shard, trn_kmsg *msg) {
    const trn_sp_mat *a = &d->a;
    const size_t es = trn_dtype_size(a->type);
    const int64_t m = d->c.rows;
    void *t = calloc((size_t)m * (size_t)w, es);
    if (!t)
        return trn_sp_no_memory(msg, shard, (size_t)m * (size_t)w * es, "a %lld x %lld accumulator",
                                (long long)m, (long long)w);
    int rc;
    if (a->format == TRN_SP_COO) {
        rc = PICK(scatter_coo, a)(d, j0, w, t, msg);
    } else if (a->format == TRN_SP_BSR) {
        const trn_sp_rows s = trn_sp_rows_of(a, "matA");
        rc = PICK(bsr_t, a)(d, &s, t, msg);
    } else {
        const trn_sp_rows s = trn_sp_rows_of(a, "matA");
        rc = PICK(scatter_rows, a)(d, &s, j0, w, t, msg);
    }
    if (rc == 0)
        combine(&d->c, d->alpha, d->beta, t, j0, w);
    free(t);
    return rc;
}

/* One product of a batch (or the only one). */
static trn_kstatus spmm_one(const trn_spmm_desc *d, trn_kmsg *msg, int shard, int nshards) {
    if (d->c.rows == 0 || d->c.cols == 0)
        return TRN_KSTATUS_OK;
    if ((d->a.type != TRN_DTYPE_R32F && d->a.type != TRN_DTYPE_R64F) || d->one_row)
        return trn_sp_status(trn_cpu_spmm_x(d, shard, nshards, msg));
    int64_t parts;
    const trn_sp_split split = trn_spmm_split(d, &parts);
    size_t lo, hi;
    if (d->alpha == 0.0) {
        trn_cpu_shard_range((size_t)d->c.rows, shard, nshards, &lo, &hi);
        scale_rows(&d->c, d->beta, (int64_t)lo, (int64_t)hi);
        return TRN_KSTATUS_OK;
    }
    const trn_sp_mat *a = &d->a;
    if (a->format == TRN_SP_BELL || a->format == TRN_SP_SELL)
        return trn_sp_status(trn_cpu_spmm_ell(d, shard, nshards, msg));
    int rc = 0;
    switch (split) {
    case TRN_SP_SPLIT_ROWS: {
        const trn_sp_rows s = trn_sp_rows_of(a, "matA");
        int64_t r0, r1;
        trn_sp_row_split(&s, shard, nshards, &r0, &r1);
        if (r1 > r0)
            rc = a->format == TRN_SP_BSR ? PICK(bsr_n, a)(d, &s, r0, r1, shard, msg)
                                         : PICK(csr_n, a)(d, &s, r0, r1, msg);
        break;
    }
    case TRN_SP_SPLIT_COLS:
        trn_cpu_shard_range((size_t)d->c.cols, shard, nshards, &lo, &hi);
        if (hi > lo)
            rc = scatter(d, (int64_t)lo, (int64_t)(hi - lo), shard, msg);
        break;
    case TRN_SP_SPLIT_NONE:
        if (shard == 0)
            rc = scatter(d, 0, d->c.cols, shard, msg);
        break;
    }
    return trn_sp_status(rc);
}

/* p advanced by k elements of es bytes (NULL stays NULL: not read). */
static void *advance(void *p, int64_t k, size_t es) {
    return p ? (char *)p + (size_t)k * es : NULL;
}

/* A strided batch (ops/validate/sparse.c checked the counts: A and B each
 * have 1 or C's): product b reads A_b (or A) and B_b (or B) and writes
 * C_b. Every shard takes its part of each product in turn, so the split of
 * each product is the unbatched one's. */
trn_kstatus trn_cpu_spmm(const trn_spmm_desc *d, trn_kmsg *msg, int shard, int nshards) {
    if (d->c.batch <= 1)
        return spmm_one(d, msg, shard, nshards);
    const size_t ies = d->a.idx64 ? 8 : 4, ves = trn_dtype_size(d->a.type);
    for (int64_t b = 0; b < d->c.batch; b++) {
        trn_spmm_desc e = *d;
        e.a.batch = e.b.batch = e.c.batch = 1;
        if (d->a.batch > 1) {
            e.a.offsets = advance(d->a.offsets, b * d->a.off_stride, ies);
            e.a.indices = advance(d->a.indices, b * d->a.stride, ies);
            e.a.rowind = advance(d->a.rowind, b * d->a.stride, ies);
            e.a.values = advance(d->a.values, b * d->a.stride, ves);
        }
        if (d->b.batch > 1)
            e.b.values = advance(d->b.values, b * d->b.stride, ves);
        e.c.values = advance(d->c.values, b * d->c.stride, ves);
        const trn_kstatus st = spmm_one(&e, msg, shard, nshards);
        if (st != TRN_KSTATUS_OK)
            return st;
    }
    return TRN_KSTATUS_OK;
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(spmv, trn_cpu_spmm(&op->u.spmm, op->kmsg, shard, nshards))
TRN_CPU_ENTRY(spmm, trn_cpu_spmm(&op->u.spmm, op->kmsg, shard, nshards))
