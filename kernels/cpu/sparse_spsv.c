/*
 * sparse_spsv.c — sparse triangular solves on the CPU backend
 * (cusparseSpSV, cusparseSpSM): op(A) C = alpha op(B), A square CSR, COO or
 * Sliced-ELL of real or complex values (C99 complex, which has cuComplex's
 * layout: re then im).
 *
 * How: one pass over A reads and range-checks every offset and index once
 * (client memory: it is never read again) and keeps, in scratch, the
 * diagonal and the entries of the strict triangle `uplo` as the rows of
 * M = op(A) (a counting sort by row; entries of a row keep A's order, so
 * the result is deterministic). Entries of the other triangle are ignored,
 * as cuSPARSE does; with diag UNIT so is the stored diagonal. Then, per
 * column of C: C = alpha op(B) (element by element, so C may be B itself),
 * and a row sweep in place, forward for a lower M and backward for an upper
 * one: c_r = (c_r - sum M_rk c_k) / d_r, accumulating in the value type.
 * Duplicates add up (the diagonal too). op(A) = A^H (complex opA C)
 * conjugates M's entries and the diagonal as they are collected; complex
 * opB C conjugates each element of B as it is read. A zero or missing diagonal entry
 * divides by zero: IEEE Inf/NaN in the result, no error (the generic API
 * has no zero-pivot query to report it through).
 *
 * The analysis step (d->analysis) runs the pass and nothing else: a bad
 * structure fails it; B and C are not touched. The solve splits C's
 * columns over shards (SpSM); each shard makes its own pass over A (the
 * sweep of one column is sequential), so the bits never depend on the
 * split. Shards write disjoint columns of C; C may be B itself (each
 * element is read before it is written, by the shard owning its column).
 */
#include <complex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/sparse_common.h"
#include "kernels/cpu/sparse_ell.h"

typedef float complex cfloat;
typedef double complex cdouble;

/* Conjugation and alpha per element type (identity and the real part for
 * real types). */
#define CJ_float(x) (x)
#define CJ_double(x) (x)
#define CJ_cfloat(x) conjf(x)
#define CJ_cdouble(x) conj(x)
#define ALPHA_float(d) ((float)(d)->alpha)
#define ALPHA_double(d) ((d)->alpha)
#define ALPHA_cfloat(d) CMPLXF((float)(d)->alpha, (float)(d)->alpha_im)
#define ALPHA_cdouble(d) CMPLX((d)->alpha, (d)->alpha_im)

/* The strict triangle of M = op(A) by rows, and op(A)'s diagonal. */
typedef struct tri {
    int64_t *ptr; /* n + 1 */
    int64_t *col; /* m entries */
    void *val;    /* m entries of the value type */
    void *diag;   /* n entries */
} tri;

static void tri_free(tri *t) {
    free(t->ptr);
    free(t->col);
    free(t->val);
    free(t->diag);
}

/* Reads entry k of A (row i, column j, 0-based, already checked) into the
 * triplet lists: the diagonal is summed into diag, a strict-triangle entry
 * appended as (row, col) of M. */
#define TRI_COLLECT(T)                                                                             \
    static void collect_##T(const trn_spsv_desc *d, int64_t i, int64_t j, int64_t k, T *diag,      \
                            int64_t *rr, int64_t *cc, T *vv, int64_t *m) {                         \
        const T v0 = ((const T *)d->a.values)[k];                                                  \
        const T v = d->op_a == TRN_TRANS_C ? CJ_##T(v0) : v0;                                      \
        if (i == j) {                                                                              \
            diag[i] += v;                                                                          \
            return;                                                                                \
        }                                                                                          \
        if ((d->uplo == TRN_UPLO_LOWER) != (j < i))                                                \
            return; /* the other triangle */                                                       \
        const int n = d->op_a == TRN_TRANS_N;                                                      \
        rr[*m] = n ? i : j;                                                                        \
        cc[*m] = n ? j : i;                                                                        \
        vv[*m] = v;                                                                                \
        (*m)++;                                                                                    \
    }
TRI_COLLECT(float)
TRI_COLLECT(double)
TRI_COLLECT(cfloat)
TRI_COLLECT(cdouble)

/* collect_<T> for A's type. */
static void collect(const trn_spsv_desc *d, int64_t i, int64_t j, int64_t k, void *diag,
                    int64_t *rr, int64_t *cc, void *vv, int64_t *m) {
    switch (d->a.type) {
    case TRN_DTYPE_R64F: collect_double(d, i, j, k, diag, rr, cc, vv, m); break;
    case TRN_DTYPE_C32F: collect_cfloat(d, i, j, k, diag, rr, cc, vv, m); break;
    case TRN_DTYPE_C64F: collect_cdouble(d, i, j, k, diag, rr, cc, vv, m); break;
    default: collect_float(d, i, j, k, diag, rr, cc, vv, m); break;
    }
}

/* One pass over A into t (values of A's type); 0, TRN_SP_BAD or
 * TRN_SP_NOMEM, posted. */
static int tri_build(const trn_spsv_desc *d, trn_kmsg *msg, int shard, tri *t) {
    const trn_sp_mat *a = &d->a;
    const int64_t n = a->rows, nnz = a->nnz;
    const size_t es = trn_dtype_size(a->type);
    *t = (tri){0};
    const size_t cap = nnz > 0 ? (size_t)nnz : 1;
    int64_t *rr = malloc(cap * 8), *cc = malloc(cap * 8);
    void *vv = malloc(cap * es);
    t->ptr = calloc((size_t)n + 1, 8);
    t->diag = calloc(n > 0 ? (size_t)n : 1, es);
    t->col = malloc(cap * 8);
    t->val = malloc(cap * es);
    if (!rr || !cc || !vv || !t->ptr || !t->diag || !t->col || !t->val) {
        free(rr);
        free(cc);
        free(vv);
        tri_free(t);
        return trn_sp_no_memory(msg, shard, cap * (32 + 2 * es) + (size_t)n * (8 + es),
                                "the triangle of matA (%lld entries)", (long long)nnz);
    }
    int64_t m = 0;
    int rc = 0;
    if (a->format == TRN_SP_CSR) {
        const trn_sp_rows s = trn_sp_rows_of(a, "matA");
        for (int64_t i = 0; i < n && rc == 0; i++) {
            int64_t p0, p1;
            if (trn_sp_row_bounds(&s, i, msg, &p0, &p1) != 0) {
                rc = TRN_SP_BAD;
                break;
            }
            for (int64_t p = p0; p < p1; p++) {
                /* Compared before the base is taken off: no overflow. */
                const int64_t v = trn_sp_ld(a->indices, p, a->idx64);
                if (v < a->base || v - a->base >= n) {
                    rc = trn_sp_bad_index(msg, (uint64_t)i, "matA", TRN_SP_CSR, TRN_SP_INDICES, p,
                                          v, a->base, n, "");
                    break;
                }
                collect(d, i, v - a->base, p, t->diag, rr, cc, vv, &m);
            }
        }
    } else if (a->format == TRN_SP_SELL) { /* slice by slice, padding (-1) skipped */
        const int64_t S = a->rb;
        for (int64_t sl = 0; sl < a->brows && rc == 0; sl++) {
            int64_t p0, p1;
            if ((rc = trn_cpu_sell_slice(a, sl, &p0, &p1, msg)) != 0)
                break;
            for (int64_t p = p0; p < p1 && rc == 0; p++) {
                const int64_t i = sl * S + (p - p0) % S;
                const int64_t v = trn_sp_ld(a->indices, p, a->idx64);
                if (i >= n || v == -1)
                    continue;
                if (v < a->base || v - a->base >= n) {
                    rc = trn_sp_bad_index(msg, (uint64_t)i, "matA", TRN_SP_SELL, TRN_SP_INDICES, p,
                                          v, a->base, n, " (and not -1)");
                    break;
                }
                collect(d, i, v - a->base, p, t->diag, rr, cc, vv, &m);
            }
        }
    } else { /* COO, in any order */
        for (int64_t p = 0; p < nnz; p++) {
            const int64_t vi = trn_sp_ld(a->rowind, p, a->idx64);
            const int64_t vj = trn_sp_ld(a->indices, p, a->idx64);
            const int row_bad = vi < a->base || vi - a->base >= n;
            if (row_bad || vj < a->base || vj - a->base >= n) {
                rc = trn_sp_bad_index(msg, (uint64_t)p, "matA", TRN_SP_COO,
                                      row_bad ? TRN_SP_ROWIND : TRN_SP_INDICES, p,
                                      row_bad ? vi : vj, a->base, n, "");
                break;
            }
            collect(d, vi - a->base, vj - a->base, p, t->diag, rr, cc, vv, &m);
        }
    }
    if (rc == 0) { /* counting sort by row of M, stable */
        for (int64_t q = 0; q < m; q++)
            t->ptr[rr[q] + 1]++;
        for (int64_t r = 0; r < n; r++)
            t->ptr[r + 1] += t->ptr[r];
        for (int64_t q = 0; q < m; q++) {
            /* t->ptr[r] advances as row r fills; restored below. */
            const int64_t r = rr[q], at = t->ptr[r]++;
            t->col[at] = cc[q];
            memcpy((char *)t->val + (size_t)at * es, (const char *)vv + (size_t)q * es, es);
        }
        for (int64_t r = n; r > 0; r--) /* ptr[r] now holds row r's end: shift back */
            t->ptr[r] = t->ptr[r - 1];
        t->ptr[0] = 0;
    }
    free(rr);
    free(cc);
    free(vv);
    if (rc != 0)
        tri_free(t);
    return rc;
}

/* C = alpha op(B), then the sweep, for element type T. */
#define SPSV_SOLVE(T)                                                                              \
    static void solve_##T(const trn_spsv_desc *d, const tri *t, int64_t j0, int64_t j1) {          \
        const int64_t n = d->a.rows;                                                               \
        int64_t br, bc, cr, ccs;                                                                   \
        trn_sp_strides(&d->b, &br, &bc);                                                           \
        trn_sp_strides(&d->c, &cr, &ccs);                                                          \
        const T alpha = ALPHA_##T(d);                                                              \
        const int cb = d->conj_b;                                                                  \
        const T *b = (const T *)d->b.values, *val = (const T *)t->val, *dg = (const T *)t->diag;   \
        T *c = (T *)d->c.values;                                                                   \
        const int unit = d->diag == TRN_DIAG_UNIT;                                                 \
        const int lower = (d->uplo == TRN_UPLO_LOWER) == (d->op_a == TRN_TRANS_N);                 \
        for (int64_t j = j0; j < j1; j++) {                                                        \
            T *cj = c + j * ccs;                                                                   \
            for (int64_t i = 0; i < n; i++)                                                        \
                cj[i * cr] = alpha * (cb ? CJ_##T(b[i * br + j * bc]) : b[i * br + j * bc]);       \
            for (int64_t q = 0; q < n; q++) {                                                      \
                const int64_t r = lower ? q : n - 1 - q;                                           \
                T s = cj[r * cr];                                                                  \
                for (int64_t p = t->ptr[r]; p < t->ptr[r + 1]; p++)                                \
                    s -= val[p] * cj[t->col[p] * cr];                                              \
                cj[r * cr] = unit ? s : s / dg[r];                                                 \
            }                                                                                      \
        }                                                                                          \
    }
SPSV_SOLVE(float)
SPSV_SOLVE(double)
SPSV_SOLVE(cfloat)
SPSV_SOLVE(cdouble)

static trn_kstatus trn_cpu_spsv(const trn_spsv_desc *d, trn_kmsg *msg, int shard, int nshards) {
    /* Columns [lo, hi) of C: whole right-hand sides, so any split gives the
     * bits of one shard. The analysis (and an empty C) is shard 0's. */
    size_t lo = 0, hi = 0;
    if (d->analysis || d->c.cols == 0)
        hi = shard == 0;
    else
        trn_cpu_shard_range((size_t)d->c.cols, shard, nshards, &lo, &hi);
    if (lo == hi)
        return TRN_KSTATUS_OK;
    tri t;
    const int rc = tri_build(d, msg, shard, &t);
    if (rc != 0)
        return trn_sp_status(rc);
    if (!d->analysis && d->a.rows > 0) {
        switch (d->a.type) {
        case TRN_DTYPE_R64F: solve_double(d, &t, (int64_t)lo, (int64_t)hi); break;
        case TRN_DTYPE_C32F: solve_cfloat(d, &t, (int64_t)lo, (int64_t)hi); break;
        case TRN_DTYPE_C64F: solve_cdouble(d, &t, (int64_t)lo, (int64_t)hi); break;
        default: solve_float(d, &t, (int64_t)lo, (int64_t)hi); break;
        }
    }
    tri_free(&t);
    return TRN_KSTATUS_OK;
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(spsv, trn_cpu_spsv(&op->u.spsv, op->kmsg, shard, nshards))
