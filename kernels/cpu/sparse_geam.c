/*
 * sparse_geam.c — trnsparse's C = alpha A + beta B for CSR matrices
 * (cusparseXcsrgeam2Nnz, cusparse<t>csrgeam2) on the CPU backend, in two
 * passes over the union of A's and B's patterns:
 *
 *  count: one shard walks every row and writes C's row offsets (C's base
 *         and index type): a prefix sum, so not split.
 *  fill:  rows split by C's offsets (read back: client memory, so every
 *         offset is checked, and each row's count must be the union's);
 *         each row's distinct columns are sorted and written with
 *         alpha a_ij + beta b_ij.
 *
 * A column stored in A and in B (or twice in one) is one entry of C, its
 * value summed in the order A's row stores its entries, then B's, the same
 * whatever the split. An entry only in B is beta b_ij (0 + beta b_ij: no
 * rounding of its own). alpha = 0 (beta = 0): A's (B's) values are not
 * read and contribute 0. Every offset and index of A and B is checked
 * before use (sparse_common.h).
 *
 * Complex values (C_32F, C_64F) accumulate part by part: s v is
 * (sr vr - si vi, sr vi + si vr), in the value type's precision (float
 * products rounded to float), then added to the part's sum.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/sparse_common.h"

/* One shard's accumulator: stamp[j] is the row that last touched column j
 * (-1: none), list the columns of the current row, acc their sums. */
typedef struct geam_work {
    int64_t *stamp, *list;
    double *acc; /* NULL in the count pass; sums in the value type, widened (complex: two each) */
} geam_work;

static int work_init(geam_work *w, int64_t cols, int fill, int shard, trn_kmsg *msg) {
    w->stamp = malloc(((size_t)cols + 1) * sizeof(int64_t));
    w->list = malloc(((size_t)cols + 1) * sizeof(int64_t));
    w->acc = fill ? malloc(((size_t)cols + 1) * 2 * sizeof(double)) : NULL;
    if (!w->stamp || !w->list || (fill && !w->acc))
        return trn_sp_no_memory(msg, shard, ((size_t)cols + 1) * 3 * sizeof(int64_t),
                                "an accumulator of %lld columns", (long long)cols);
    for (int64_t j = 0; j < cols; j++)
        w->stamp[j] = -1;
    return 0;
}

static void work_free(geam_work *w) {
    free(w->stamp);
    free(w->list);
    free(w->acc);
}

/* Adds row i of m (scaled by s; values not read when w->acc is NULL or s
 * is 0) to the row's union; *n counts its columns. Float sums are rounded
 * to float at every step, as a float accumulator would. */
static int add_row(const trn_sp_mat *m, const trn_sp_rows *sr, const char *name, int64_t i,
                   double s, double si, geam_work *w, int64_t *n, trn_kmsg *msg) {
    int64_t p0, p1;
    if (trn_sp_row_bounds(sr, i, msg, &p0, &p1))
        return TRN_SP_BAD;
    const int dbl = m->type == TRN_DTYPE_R64F;
    const int cx = m->type == TRN_DTYPE_C32F || m->type == TRN_DTYPE_C64F;
    for (int64_t p = p0; p < p1; p++) {
        const int64_t jv = trn_sp_ld(m->indices, p, m->idx64);
        const uint64_t ju = (uint64_t)jv - (uint64_t)m->base;
        if (ju >= (uint64_t)m->cols) {
            char where[48];
            snprintf(where, sizeof(where), " (row %lld)", (long long)i);
            return trn_sp_bad_index(msg, (uint64_t)i, name, TRN_SP_CSR, TRN_SP_INDICES, p, jv,
                                    m->base, m->cols, where);
        }
        const int64_t j = (int64_t)ju;
        const int fresh = w->stamp[j] != i;
        if (fresh) {
            w->stamp[j] = i;
            w->list[(*n)++] = j;
            if (w->acc)
                w->acc[2 * j] = w->acc[2 * j + 1] = 0.0;
        }
        if (!w->acc || (s == 0.0 && si == 0.0))
            continue;
        if (m->type == TRN_DTYPE_C64F) {
            const double *v = (const double *)m->values + 2 * p;
            w->acc[2 * j] += s * v[0] - si * v[1];
            w->acc[2 * j + 1] += s * v[1] + si * v[0];
        } else if (cx) {
            const float *v = (const float *)m->values + 2 * p;
            const float fs = (float)s, fsi = (float)si;
            const float re = fs * v[0] - fsi * v[1], im = fs * v[1] + fsi * v[0];
            w->acc[2 * j] = (double)((float)w->acc[2 * j] + re);
            w->acc[2 * j + 1] = (double)((float)w->acc[2 * j + 1] + im);
        } else if (dbl) {
            w->acc[2 * j] += s * ((const double *)m->values)[p];
        } else {
            const float t = (float)s * ((const float *)m->values)[p];
            w->acc[2 * j] = (double)((float)w->acc[2 * j] + t);
        }
    }
    return 0;
}

/* The union of row i into w (and, filling, its sums); its size in *n. */
static int row_union(const trn_spgeam_desc *d, const trn_sp_rows *sa, const trn_sp_rows *sb,
                     int64_t i, geam_work *w, int64_t *n, trn_kmsg *msg) {
    *n = 0;
    const int rc = add_row(&d->a, sa, "A", i, d->alpha, d->alpha_im, w, n, msg);
    return rc ? rc : add_row(&d->b, sb, "B", i, d->beta, d->beta_im, w, n, msg);
}

static int count_pass(const trn_spgeam_desc *d, trn_kmsg *msg) {
    const trn_sp_rows sa = trn_sp_rows_of(&d->a, "A"), sb = trn_sp_rows_of(&d->b, "B");
    const trn_sp_mat *c = &d->c;
    const int64_t limit = (c->idx64 ? INT64_MAX : INT32_MAX) - c->base;
    geam_work w;
    int rc = work_init(&w, d->a.cols, 0, 0, msg);
    int64_t total = 0, n = 0;
    if (rc == 0)
        trn_sp_st(c->offsets, 0, c->base, c->idx64);
    for (int64_t i = 0; i < d->a.rows && rc == 0; i++) {
        rc = row_union(d, &sa, &sb, i, &w, &n, msg);
        if (rc == 0 && n > limit - total) {
            trn_kmsg_post(msg, (uint64_t)i, 1, "C has more than %lld entries (its index type)",
                          (long long)limit);
            rc = TRN_SP_BAD;
        }
        total += n;
        if (rc == 0)
            trn_sp_st(c->offsets, i + 1, total + c->base, c->idx64);
    }
    work_free(&w);
    return rc;
}

static int cmp_i64(const void *x, const void *y) {
    const int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

static int fill_pass(const trn_spgeam_desc *d, int shard, int nshards, trn_kmsg *msg) {
    const trn_sp_mat *c = &d->c;
    const trn_sp_rows sa = trn_sp_rows_of(&d->a, "A"), sb = trn_sp_rows_of(&d->b, "B");
    const trn_sp_rows sc = trn_sp_rows_of(c, "C");
    int64_t lo, hi;
    trn_sp_row_split(&sc, shard, nshards, &lo, &hi);
    geam_work w;
    int rc = work_init(&w, d->a.cols, 1, shard, msg);
    for (int64_t i = lo; i < hi && rc == 0; i++) {
        int64_t q0, q1, n;
        if (trn_sp_row_bounds(&sc, i, msg, &q0, &q1) || row_union(d, &sa, &sb, i, &w, &n, msg)) {
            rc = TRN_SP_BAD;
            break;
        }
        if (n != q1 - q0) {
            trn_kmsg_post(msg, (uint64_t)i, 1,
                          "row %lld of A + B has %lld entries but C's offsets give %lld (pass "
                          "the offsets trnsparseXcsrgeam2Nnz wrote, for the same A and B)",
                          (long long)i, (long long)n, (long long)(q1 - q0));
            rc = TRN_SP_BAD;
            break;
        }
        qsort(w.list, (size_t)n, sizeof(int64_t), cmp_i64);
        for (int64_t t = 0; t < n; t++) {
            const int64_t j = w.list[t];
            trn_sp_st(c->indices, q0 + t, j + c->base, c->idx64);
            switch (c->type) {
            case TRN_DTYPE_R64F: ((double *)c->values)[q0 + t] = w.acc[2 * j]; break;
            case TRN_DTYPE_C64F:
                ((double *)c->values)[2 * (q0 + t)] = w.acc[2 * j];
                ((double *)c->values)[2 * (q0 + t) + 1] = w.acc[2 * j + 1];
                break;
            case TRN_DTYPE_C32F:
                ((float *)c->values)[2 * (q0 + t)] = (float)w.acc[2 * j];
                ((float *)c->values)[2 * (q0 + t) + 1] = (float)w.acc[2 * j + 1];
                break;
            default: ((float *)c->values)[q0 + t] = (float)w.acc[2 * j]; break;
            }
        }
    }
    work_free(&w);
    return rc;
}

static trn_kstatus trn_cpu_spgeam(const trn_spgeam_desc *d, trn_kmsg *msg, int shard, int nshards) {
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
TRN_CPU_ENTRY(spgeam, trn_cpu_spgeam(&op->u.spgeam, op->kmsg, shard, nshards))
