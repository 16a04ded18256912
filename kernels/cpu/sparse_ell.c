/*
 * sparse_ell.c — SpMV and SpMM with a Blocked-ELL or Sliced-ELL A on the
 * CPU backend: C = alpha A B + beta C (op N), alpha != 0.
 *
 * Blocked-ELL: block row I has ell_cols / bs slots; slot s holds block
 * column J = ellColInd[I * slots + s] - base (-1: empty) and the bs x bs
 * block whose element (ii, jj) is ellValue[(I bs + ii) ell_cols + s bs +
 * jj] (the values are a row-major rows x ell_cols matrix). Edge blocks
 * past rows or cols are cut.
 * Sliced-ELL: slice s covers rows [s S, s S + S) and entries
 * [off[s] - base, off[s+1] - base), a multiple of S; entry k of its row r
 * is at off[s] - base + k S + r (column-major inside the slice), column
 * sellColInd - base, -1 for padding.
 *
 * DenseToSparse into Blocked-ELL fills the values of the given block
 * columns from the dense matrix (zeros in empty slots).
 *
 * Contents are client memory (ops/sparse.h): each index and offset is read
 * into a local and range-checked before use; a bad one fails the op naming
 * the array and position. Each output element is one sum over its row's
 * slots in storage order, accumulated in the values' type, then alpha sum
 * + beta C (beta = 0: C is not read): the same operations whatever the
 * split, so sharded results are bitwise the unsharded ones. Shards own
 * even ranges of block rows (slices).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/sparse_common.h"
#include "kernels/cpu/sparse_ell.h"

/* Block columns of block row I into cols[] (-1: empty slot); TRN_SP_BAD
 * after posting an index outside [base, bcols - 1 + base]. */
static int bell_row(const trn_sp_mat *a, int64_t I, int64_t slots, int64_t *cols, trn_kmsg *msg) {
    for (int64_t s = 0; s < slots; s++) {
        const int64_t p = I * slots + s;
        const int64_t v = trn_sp_ld(a->indices, p, a->idx64);
        if (v == -1) {
            cols[s] = -1;
            continue;
        }
        const uint64_t u = (uint64_t)v - (uint64_t)a->base;
        if (u >= (uint64_t)a->bcols) {
            trn_kmsg_post(msg, (uint64_t)I, 1,
                          "matA: ellColInd[%lld] = %lld is neither -1 nor in [%d, %lld] (block "
                          "row %lld)",
                          (long long)p, (long long)v, a->base, (long long)a->bcols - 1 + a->base,
                          (long long)I);
            return TRN_SP_BAD;
        }
        cols[s] = (int64_t)u;
    }
    return 0;
}

int trn_cpu_sell_slice(const trn_sp_mat *a, int64_t s, int64_t *p0, int64_t *p1, trn_kmsg *msg) {
    const int64_t v0 = trn_sp_ld(a->offsets, s, a->idx64);
    const int64_t v1 = trn_sp_ld(a->offsets, s + 1, a->idx64);
    const uint64_t u0 = (uint64_t)v0 - (uint64_t)a->base, u1 = (uint64_t)v1 - (uint64_t)a->base;
    if ((s == 0 && u0 != 0) || u0 > u1 || u1 > (uint64_t)a->nnz || (u1 - u0) % (uint64_t)a->rb) {
        trn_kmsg_post(msg, (uint64_t)s, 1,
                      "matA: sellSliceOffsets[%lld..%lld] = %lld, %lld: offsets must start at "
                      "the index base %d, not decrease, stay within sellValuesSize + base = %lld "
                      "and differ by a multiple of sliceSize %lld",
                      (long long)s, (long long)s + 1, (long long)v0, (long long)v1, a->base,
                      (long long)a->nnz + a->base, (long long)a->rb);
        return TRN_SP_BAD;
    }
    *p0 = (int64_t)u0;
    *p1 = (int64_t)u1;
    return 0;
}

#define DEFINE_ELL(VT, SFX)                                                                        \
    static int bell_##SFX(const trn_spmm_desc *d, int64_t I0, int64_t I1, int64_t *cols,           \
                          trn_kmsg *msg) {                                                         \
        const trn_sp_mat *a = &d->a;                                                               \
        const VT *val = a->values, *B = d->b.values;                                               \
        VT *C = d->c.values;                                                                       \
        const VT alpha = (VT)d->alpha, beta = (VT)d->beta;                                         \
        const int64_t bs = a->rb, slots = a->ell_cols / bs, n = d->c.cols;                         \
        int64_t br, bc, cr, cc;                                                                    \
        trn_sp_strides(&d->b, &br, &bc);                                                           \
        trn_sp_strides(&d->c, &cr, &cc);                                                           \
        for (int64_t I = I0; I < I1; I++) {                                                        \
            if (bell_row(a, I, slots, cols, msg))                                                  \
                return TRN_SP_BAD;                                                                 \
            for (int64_t i = I * bs; i < I * bs + bs && i < a->rows; i++) {                        \
                const VT *arow = val + i * a->ell_cols;                                            \
                for (int64_t j = 0; j < n; j++) {                                                  \
                    VT acc = 0;                                                                    \
                    for (int64_t s = 0; s < slots; s++) {                                          \
                        if (cols[s] < 0)                                                           \
                            continue;                                                              \
                        const int64_t c0 = cols[s] * bs;                                           \
                        for (int64_t jj = 0; jj < bs && c0 + jj < a->cols; jj++)                   \
                            acc += arow[s * bs + jj] * B[(c0 + jj) * br + j * bc];                 \
                    }                                                                              \
                    VT *cp = &C[i * cr + j * cc];                                                  \
                    *cp = beta == 0 ? alpha * acc : alpha * acc + beta * *cp;                      \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        return 0;                                                                                  \
    }                                                                                              \
    static int sell_##SFX(const trn_spmm_desc *d, int64_t s0, int64_t s1, trn_kmsg *msg) {         \
        const trn_sp_mat *a = &d->a;                                                               \
        const VT *val = a->values, *B = d->b.values;                                               \
        VT *C = d->c.values;                                                                       \
        const VT alpha = (VT)d->alpha, beta = (VT)d->beta;                                         \
        const int64_t S = a->rb, n = d->c.cols;                                                    \
        int64_t br, bc, cr, cc, p0, p1;                                                            \
        trn_sp_strides(&d->b, &br, &bc);                                                           \
        trn_sp_strides(&d->c, &cr, &cc);                                                           \
        for (int64_t s = s0; s < s1; s++) {                                                        \
            if (trn_cpu_sell_slice(a, s, &p0, &p1, msg))                                           \
                return TRN_SP_BAD;                                                                 \
            const int64_t w = (p1 - p0) / S;                                                       \
            for (int64_t r = 0; r < S && s * S + r < a->rows; r++) {                               \
                const int64_t i = s * S + r;                                                       \
                for (int64_t j = 0; j < n; j++) {                                                  \
                    VT acc = 0;                                                                    \
                    for (int64_t k = 0; k < w; k++) {                                              \
                        const int64_t p = p0 + k * S + r;                                          \
                        const int64_t v = trn_sp_ld(a->indices, p, a->idx64);                      \
                        if (v == -1)                                                               \
                            continue;                                                              \
                        const uint64_t u = (uint64_t)v - (uint64_t)a->base;                        \
                        if (u >= (uint64_t)a->cols)                                                \
                            return trn_sp_bad_index(msg, (uint64_t)i, "matA", TRN_SP_SELL,         \
                                                    TRN_SP_INDICES, p, v, a->base, a->cols,        \
                                                    " (and not -1)");                              \
                        acc += val[p] * B[(int64_t)u * br + j * bc];                               \
                    }                                                                              \
                    VT *cp = &C[i * cr + j * cc];                                                  \
                    *cp = beta == 0 ? alpha * acc : alpha * acc + beta * *cp;                      \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        return 0;                                                                                  \
    }
DEFINE_ELL(float, f32)
DEFINE_ELL(double, f64)

int trn_cpu_spmm_ell(const trn_spmm_desc *d, int shard, int nshards, trn_kmsg *msg) {
    const trn_sp_mat *a = &d->a;
    size_t lo, hi;
    trn_cpu_shard_range((size_t)a->brows, shard, nshards, &lo, &hi);
    if (hi <= lo)
        return 0;
    const int f32 = a->type == TRN_DTYPE_R32F;
    if (a->format == TRN_SP_SELL)
        return f32 ? sell_f32(d, (int64_t)lo, (int64_t)hi, msg)
                   : sell_f64(d, (int64_t)lo, (int64_t)hi, msg);
    const int64_t slots = a->ell_cols / a->rb;
    int64_t *cols = malloc((size_t)(slots > 0 ? slots : 1) * sizeof(*cols));
    if (!cols)
        return trn_sp_no_memory(msg, shard, (size_t)slots * sizeof(*cols), "%lld block columns",
                                (long long)slots);
    const int rc = f32 ? bell_f32(d, (int64_t)lo, (int64_t)hi, cols, msg)
                       : bell_f64(d, (int64_t)lo, (int64_t)hi, cols, msg);
    free(cols);
    return rc;
}

int trn_cpu_dense_to_bell(const trn_spconvert_desc *d, int64_t lo, int64_t hi, trn_kmsg *msg) {
    const trn_sp_mat *c = &d->dst;
    const trn_dn_mat *m = &d->dense;
    const size_t es = trn_dtype_size(c->type);
    const int64_t bs = c->rb, slots = c->ell_cols / bs;
    int64_t dr, dc;
    trn_sp_strides(m, &dr, &dc);
    if (hi <= lo || slots == 0)
        return 0;
    int64_t *cols = malloc((size_t)slots * sizeof(*cols));
    if (!cols)
        return trn_sp_no_memory(msg, 0, (size_t)slots * sizeof(*cols), "%lld block columns",
                                (long long)slots);
    int rc = 0;
    for (int64_t I = lo; I < hi && rc == 0; I++) {
        if ((rc = bell_row(c, I, slots, cols, msg)))
            break;
        for (int64_t i = I * bs; i < I * bs + bs && i < c->rows; i++)
            for (int64_t s = 0; s < slots; s++)
                for (int64_t jj = 0; jj < bs; jj++) {
                    char *dst = (char *)c->values + (size_t)(i * c->ell_cols + s * bs + jj) * es;
                    const int64_t j = cols[s] * bs + jj;
                    if (cols[s] < 0 || j >= c->cols)
                        memset(dst, 0, es);
                    else
                        memcpy(dst, (const char *)m->values + (size_t)(i * dr + j * dc) * es, es);
                }
    }
    free(cols);
    return rc;
}
