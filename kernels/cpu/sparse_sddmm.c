/*
 * sparse_sddmm.c — trnsparse SDDMM on the CPU backend:
 * C = alpha (A B) o spy(C) + beta C for dense A (m x k), B (k x n) and CSR
 * or BSR C: one dot product of length k per stored element of C (every
 * element of a stored BSR block, in either block order). Shards own
 * ranges of C's (block) rows balanced by entries (trn_sp_row_split);
 * every value is the same dot in the same order whatever the split. C's
 * offsets and (block) column indices are checked before use
 * (sparse_common.h). Complex values (C32F,
 * C64F) in C99 complex arithmetic (cuComplex's layout); complex opA / opB C
 * conjugate A's / B's elements as they are read.
 */
#include <complex.h>
#include <stdint.h>
#include <stdio.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/sparse_common.h"

typedef float complex cfloat;
typedef double complex cdouble;

/* Per element type: a scalar of the descriptor, and conjugation. */
#define SCALAR_float(re, im) ((float)(re))
#define SCALAR_double(re, im) (re)
#define SCALAR_cfloat(re, im) CMPLXF((float)(re), (float)(im))
#define SCALAR_cdouble(re, im) CMPLX((re), (im))
#define CJ_float(x) (x)
#define CJ_double(x) (x)
#define CJ_cfloat(x) conjf(x)
#define CJ_cdouble(x) conj(x)

#define DEFINE_ROWS(T, SFX)                                                                        \
    static int rows_##SFX(const trn_sddmm_desc *d, const trn_sp_rows *s, int64_t lo, int64_t hi,   \
                          trn_kmsg *msg) {                                                         \
        const T *A = d->a.values, *B = d->b.values;                                                \
        T *val = d->c.values;                                                                      \
        const T alpha = SCALAR_##T(d->alpha, d->alpha_im);                                         \
        const T beta = SCALAR_##T(d->beta, d->beta_im);                                            \
        const int ca = d->conj_a, cb = d->conj_b;                                                  \
        const int64_t k = d->a.cols;                                                               \
        int64_t ar, ac, br, bc, p0, p1;                                                            \
        trn_sp_strides(&d->a, &ar, &ac);                                                           \
        trn_sp_strides(&d->b, &br, &bc);                                                           \
        char where[48];                                                                            \
        const int64_t rb = d->c.rb, cb_ = d->c.cb, bsz = rb * cb_;                                 \
        const int rm = d->c.block_row_major;                                                       \
        for (int64_t bi = lo; bi < hi; bi++) {                                                     \
            if (trn_sp_row_bounds(s, bi, msg, &p0, &p1))                                           \
                return -1;                                                                         \
            for (int64_t p = p0; p < p1; p++) {                                                    \
                const int64_t jv = trn_sp_ld(s->idx, p, s->idx64);                                 \
                const uint64_t bj = (uint64_t)jv - (uint64_t)s->base;                              \
                if (bj >= (uint64_t)s->ncols) {                                                    \
                    snprintf(where, sizeof(where), " (row %lld)", (long long)bi);                  \
                    return trn_sp_bad_index(msg, (uint64_t)bi, s->mat, s->format, TRN_SP_INDICES,  \
                                            p, jv, s->base, s->ncols, where);                      \
                }                                                                                  \
                for (int64_t r = 0; r < rb; r++)                                                   \
                    for (int64_t c = 0; c < cb_; c++) {                                            \
                        const int64_t i = bi * rb + r, j = (int64_t)bj * cb_ + c;                  \
                        const T *arow = A + i * ar, *bcol = B + j * bc;                            \
                        T *v = val + p * bsz + (rm ? r * cb_ + c : c * rb + r);                    \
                        T dot = 0;                                                                 \
                        if (ca || cb)                                                              \
                            for (int64_t t = 0; t < k; t++) {                                      \
                                const T x = arow[t * ac], y = bcol[t * br];                        \
                                dot += (ca ? CJ_##T(x) : x) * (cb ? CJ_##T(y) : y);                \
                            }                                                                      \
                        else                                                                       \
                            for (int64_t t = 0; t < k; t++)                                        \
                                dot += arow[t * ac] * bcol[t * br];                                \
                        *v = beta == 0 ? alpha * dot : alpha * dot + beta * *v;                    \
                    }                                                                              \
            }                                                                                      \
        }                                                                                          \
        return 0;                                                                                  \
    }
DEFINE_ROWS(float, f32)
DEFINE_ROWS(double, f64)
DEFINE_ROWS(cfloat, c32)
DEFINE_ROWS(cdouble, c64)

trn_kstatus trn_cpu_sddmm(const trn_sddmm_desc *d, trn_kmsg *msg, int shard, int nshards) {
    const trn_sp_rows s = trn_sp_rows_of(&d->c, "matC");
    int64_t lo, hi;
    trn_sp_row_split(&s, shard, nshards, &lo, &hi);
    int rc;
    switch (d->c.type) {
    case TRN_DTYPE_R64F: rc = rows_f64(d, &s, lo, hi, msg); break;
    case TRN_DTYPE_C32F: rc = rows_c32(d, &s, lo, hi, msg); break;
    case TRN_DTYPE_C64F: rc = rows_c64(d, &s, lo, hi, msg); break;
    default: rc = rows_f32(d, &s, lo, hi, msg); break;
    }
    return trn_sp_status(rc);
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(sddmm, trn_cpu_sddmm(&op->u.sddmm, op->kmsg, shard, nshards))
