/*
 * sparse_spgemm.c — trnsparse SpGEMM (C = alpha A B, CSR x CSR -> CSR) on
 * the CPU backend: Gustavson's row-by-row product with a dense accumulator
 * of B's width, in two passes.
 *
 *  count: one shard walks every row of A B and writes C's row offsets,
 *         0-based int64, into the client's counts buffer (a prefix sum, so
 *         not split).
 *  fill:  rows of A split by C's entries (the counts, read back: client
 *         memory, so every count is checked, and each row's count must be
 *         what the product has); each row's distinct columns are sorted and
 *         written with alpha times their sums, and C's offsets in C's own
 *         base and index type.
 *
 * c_ij accumulates a_ik b_kj in the order A's row i stores its entries and
 * B's row k stores its own, the same whatever the split, so sharded results
 * are bitwise equal to unsharded ones. Every offset and index of A and B is
 * checked before use (sparse_common.h). Complex values (C32F, C64F) use C99
 * complex arithmetic, whose layout is cuComplex's (re, then im).
 */
#include <complex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/sparse_common.h"

typedef float complex cfloat;
typedef double complex cdouble;

/* acc[j] = a_p b_q (fresh) or acc[j] + a_p b_q, in element type T. */
#define ACCUMULATE(T)                                                                              \
    do {                                                                                           \
        const T v = ((const T *)a->values)[p] * ((const T *)b->values)[q];                         \
        T *acc = w->acc;                                                                           \
        acc[j] = fresh ? v : acc[j] + v;                                                           \
    } while (0)

/* One shard's accumulator: stamp[j] is the row that last touched column j
 * (-1: none), list the columns of the current row, acc their sums. */
typedef struct work {
    int64_t *stamp, *list;
    void *acc; /* NULL in the count pass */
} work;

/* Returns 0, or TRN_SP_NOMEM (posted; work_free still applies). */
static int work_init(work *w, int64_t cols, size_t es, int shard, trn_kmsg *msg) {
    w->stamp = malloc(((size_t)cols + 1) * sizeof(int64_t));
    w->list = malloc(((size_t)cols + 1) * sizeof(int64_t));
    w->acc = es ? malloc(((size_t)cols + 1) * es) : NULL;
    if (!w->stamp || !w->list || (es && !w->acc))
        return trn_sp_no_memory(msg, shard, ((size_t)cols + 1) * (2 * sizeof(int64_t) + es),
                                "an accumulator of %lld columns", (long long)cols);
    for (int64_t j = 0; j < cols; j++)
        w->stamp[j] = -1;
    return 0;
}

static void work_free(work *w) {
    free(w->stamp);
    free(w->list);
    free(w->acc);
}

/* The columns of row i of A B into w->list (their number in *n) and, with
 * w->acc, their sums. */
static int row_product(const trn_spgemm_desc *d, const trn_sp_rows *sa, const trn_sp_rows *sb,
                       int64_t i, work *w, int64_t *n, trn_kmsg *msg) {
    const trn_sp_mat *a = &d->a, *b = &d->b;
    int64_t p0, p1, q0, q1, cnt = 0;
    char where[48];
    if (trn_sp_row_bounds(sa, i, msg, &p0, &p1))
        return -1;
    for (int64_t p = p0; p < p1; p++) {
        const int64_t kv = trn_sp_ld(a->indices, p, a->idx64);
        const uint64_t k = (uint64_t)kv - (uint64_t)a->base;
        if (k >= (uint64_t)a->cols) {
            snprintf(where, sizeof(where), " (row %lld)", (long long)i);
            return trn_sp_bad_index(msg, (uint64_t)i, "matA", TRN_SP_CSR, TRN_SP_INDICES, p, kv,
                                    a->base, a->cols, where);
        }
        if (trn_sp_row_bounds(sb, (int64_t)k, msg, &q0, &q1))
            return -1;
        for (int64_t q = q0; q < q1; q++) {
            const int64_t jv = trn_sp_ld(b->indices, q, b->idx64);
            const uint64_t ju = (uint64_t)jv - (uint64_t)b->base;
            if (ju >= (uint64_t)b->cols) {
                snprintf(where, sizeof(where), " (row %lld)", (long long)k);
                return trn_sp_bad_index(msg, k, "matB", TRN_SP_CSR, TRN_SP_INDICES, q, jv, b->base,
                                        b->cols, where);
            }
            const int64_t j = (int64_t)ju;
            const int fresh = w->stamp[j] != i;
            if (fresh) {
                w->stamp[j] = i;
                w->list[cnt++] = j;
            }
            if (!w->acc)
                continue;
            switch (a->type) {
            case TRN_DTYPE_R64F: ACCUMULATE(double); break;
            case TRN_DTYPE_C32F: ACCUMULATE(cfloat); break;
            case TRN_DTYPE_C64F: ACCUMULATE(cdouble); break;
            default: ACCUMULATE(float); break;
            }
        }
    }
    *n = cnt;
    return 0;
}

static int count_pass(const trn_spgemm_desc *d, trn_kmsg *msg) {
    const trn_sp_rows sa = trn_sp_rows_of(&d->a, "matA"), sb = trn_sp_rows_of(&d->b, "matB");
    work w;
    int rc = work_init(&w, d->b.cols, 0, 0, msg);
    if (rc == 0) {
        int64_t *counts = d->counts, total = 0, n = 0;
        counts[0] = 0;
        rc = 0;
        for (int64_t i = 0; i < d->a.rows && rc == 0; i++) {
            rc = row_product(d, &sa, &sb, i, &w, &n, msg);
            total += n;
            counts[i + 1] = total;
        }
    }
    work_free(&w);
    return rc;
}

static int cmp_i64(const void *x, const void *y) {
    const int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* Row i's range of C from the counts: 0 <= q0 <= q1 <= nnz(C). */
static int count_range(const trn_spgemm_desc *d, int64_t i, int64_t *q0, int64_t *q1,
                       trn_kmsg *msg) {
    const int64_t *counts = d->counts;
    const int64_t a = counts[i], b = counts[i + 1];
    if ((i == 0 && a != 0) || a < 0 || b < a || b > d->c.nnz) {
        trn_kmsg_post(msg, (uint64_t)i, 1,
                      "externalBuffer2[%lld..%lld] = %lld, %lld are not C's row counts for "
                      "nnz(C) = %lld (pass the buffer trnsparseSpGEMM_compute filled)",
                      (long long)i, (long long)i + 1, (long long)a, (long long)b,
                      (long long)d->c.nnz);
        return -1;
    }
    *q0 = a;
    *q1 = b;
    return 0;
}

static int fill_pass(const trn_spgemm_desc *d, int shard, int nshards, trn_kmsg *msg) {
    const trn_sp_mat *a = &d->a, *c = &d->c;
    const trn_sp_rows sa = trn_sp_rows_of(a, "matA"), sb = trn_sp_rows_of(&d->b, "matB");
    /* Rows split by C's entries: the counts are C's 0-based offsets. */
    const trn_sp_rows sc = {.off = d->counts,
                            .nrows = a->rows,
                            .nnz = c->nnz,
                            .base = 0,
                            .idx64 = 1,
                            .format = TRN_SP_CSR,
                            .mat = "externalBuffer2"};
    int64_t lo, hi;
    trn_sp_row_split(&sc, shard, nshards, &lo, &hi);
    const size_t es = trn_dtype_size(a->type);
    work w;
    int rc = work_init(&w, d->b.cols, es, shard, msg);
    if (rc != 0)
        goto out;
    rc = TRN_SP_BAD;
    int64_t q0, q1, n;
    for (int64_t i = lo; i < hi; i++) {
        if (count_range(d, i, &q0, &q1, msg) || row_product(d, &sa, &sb, i, &w, &n, msg))
            goto out;
        if (n != q1 - q0) {
            trn_kmsg_post(msg, (uint64_t)i, 1,
                          "row %lld of A B has %lld entries but externalBuffer2 counts %lld (A "
                          "or B changed since trnsparseSpGEMM_compute)",
                          (long long)i, (long long)n, (long long)(q1 - q0));
            goto out;
        }
        qsort(w.list, (size_t)n, sizeof(int64_t), cmp_i64);
        trn_sp_st(c->offsets, i, q0 + c->base, c->idx64);
        for (int64_t t = 0; t < n; t++) {
            const int64_t j = w.list[t];
            trn_sp_st(c->indices, q0 + t, j + c->base, c->idx64);
            switch (a->type) {
            case TRN_DTYPE_R64F:
                ((double *)c->values)[q0 + t] = d->alpha * ((const double *)w.acc)[j];
                break;
            case TRN_DTYPE_C32F:
                ((cfloat *)c->values)[q0 + t] =
                    CMPLXF((float)d->alpha, (float)d->alpha_im) * ((const cfloat *)w.acc)[j];
                break;
            case TRN_DTYPE_C64F:
                ((cdouble *)c->values)[q0 + t] =
                    CMPLX(d->alpha, d->alpha_im) * ((const cdouble *)w.acc)[j];
                break;
            default:
                ((float *)c->values)[q0 + t] = (float)d->alpha * ((const float *)w.acc)[j];
                break;
            }
        }
    }
    if (shard == nshards - 1) { /* the last range ends at A's last row */
        const int64_t last = ((const int64_t *)d->counts)[a->rows];
        if (last < 0 || last > c->nnz) {
            trn_kmsg_post(msg, (uint64_t)a->rows, 1,
                          "externalBuffer2[%lld] = %lld is not a count for nnz(C) = %lld",
                          (long long)a->rows, (long long)last, (long long)c->nnz);
            goto out;
        }
        trn_sp_st(c->offsets, a->rows, last + c->base, c->idx64);
    }
    rc = 0;
out:
    work_free(&w);
    return rc;
}

trn_kstatus trn_cpu_spgemm(const trn_spgemm_desc *d, trn_kmsg *msg, int shard, int nshards) {
    int rc = 0;
    if (!d->fill) {
        if (shard == 0)
            rc = count_pass(d, msg);
    } else {
        rc = fill_pass(d, shard, nshards, msg);
    }
    return trn_sp_status(rc);
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(spgemm, trn_cpu_spgemm(&op->u.spgemm, op->kmsg, shard, nshards))
