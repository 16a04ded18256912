/*
 * sparse_sddmm.c — trnsparse SDDMM on the CPU backend:
 * C = alpha (A B) o spy(C) + beta C for dense A (m x k), B (k x n) and CSR
 * C: one dot product of length k per stored entry of C. Shards own ranges
 * of C's rows balanced by entries (trn_sp_row_split); every value is the
 * same dot in the same order whatever the split. C's offsets and column
 * indices are checked before use (sparse_common.h).
 */
#include <stdint.h>
#include <stdio.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/sparse_common.h"

#define DEFINE_ROWS(T, SFX)                                                                        \
    static int rows_##SFX(const trn_sddmm_desc *d, const trn_sp_rows *s, int64_t lo, int64_t hi,   \
                          trn_kmsg *msg) {                                                         \
        const T *A = d->a.values, *B = d->b.values;                                                \
        T *val = d->c.values;                                                                      \
        const T alpha = (T)d->alpha, beta = (T)d->beta;                                            \
        const int64_t k = d->a.cols;                                                               \
        int64_t ar, ac, br, bc, p0, p1;                                                            \
        trn_sp_strides(&d->a, &ar, &ac);                                                           \
        trn_sp_strides(&d->b, &br, &bc);                                                           \
        char where[48];                                                                            \
        for (int64_t i = lo; i < hi; i++) {                                                        \
            if (trn_sp_row_bounds(s, i, msg, &p0, &p1))                                            \
                return -1;                                                                         \
            const T *arow = A + i * ar;                                                            \
            for (int64_t p = p0; p < p1; p++) {                                                    \
                const int64_t jv = trn_sp_ld(s->idx, p, s->idx64);                                 \
                const uint64_t j = (uint64_t)jv - (uint64_t)s->base;                               \
                if (j >= (uint64_t)s->ncols) {                                                     \
                    snprintf(where, sizeof(where), " (row %lld)", (long long)i);                   \
                    return trn_sp_bad_index(msg, (uint64_t)i, s->mat, TRN_SP_CSR, TRN_SP_INDICES,  \
                                            p, jv, s->base, s->ncols, where);                      \
                }                                                                                  \
                const T *bcol = B + (int64_t)j * bc;                                               \
                T dot = 0;                                                                         \
                for (int64_t t = 0; t < k; t++)                                                    \
                    dot += arow[t * ac] * bcol[t * br];                                            \
                val[p] = beta == 0 ? alpha * dot : alpha * dot + beta * val[p];                    \
            }                                                                                      \
        }                                                                                          \
        return 0;                                                                                  \
    }
DEFINE_ROWS(float, f32)
DEFINE_ROWS(double, f64)

trn_kstatus trn_cpu_sddmm(const trn_sddmm_desc *d, trn_kmsg *msg, int shard, int nshards) {
    const trn_sp_rows s = trn_sp_rows_of(&d->c, "matC");
    int64_t lo, hi;
    trn_sp_row_split(&s, shard, nshards, &lo, &hi);
    const int rc =
        d->c.type == TRN_DTYPE_R64F ? rows_f64(d, &s, lo, hi, msg) : rows_f32(d, &s, lo, hi, msg);
    return trn_sp_status(rc);
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(sddmm, trn_cpu_sddmm(&op->u.sddmm, op->kmsg, shard, nshards))
