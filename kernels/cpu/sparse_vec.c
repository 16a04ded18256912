/*
 * sparse_vec.c — cuSPARSE's Level 1 generic routines on the CPU backend:
 * SpVV, Axpby, Gather, Scatter and Rot on a sparse vector x and a dense y.
 *
 * Invariants: one shard, entries in order k = 0, 1, ... (so a repeated
 * index behaves as cuSPARSE's sequential description of the routine: Axpby
 * adds every entry, Scatter leaves the last one). Each index is read once
 * into a local and range-checked before it is used; a bad one fails the op
 * with a message naming vecX's indices and the position (entries before it
 * have been processed: the outputs are unspecified, as the header says).
 * Arithmetic is in the value type (R_32F in float, R_64F in double, C_32F
 * and C_64F in C99 float / double complex, whose layout is cuComplex's).
 * Complex Rot multiplies by c and s as given (cuSPARSE's formula, no
 * conjugate); complex SpVV with opX C conjugates x_k.
 */
#include <complex.h>
#include <stdint.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/sparse_common.h"

static int bad_index(trn_kmsg *msg, const trn_sp_vec *x, int64_t k, int64_t v) {
    trn_kmsg_post(msg, (uint64_t)k, 1, "vecX: indices[%lld] = %lld is outside [%d, %lld]",
                  (long long)k, (long long)v, x->base, (long long)x->size - 1 + x->base);
    return -1;
}

typedef float complex cfloat;
typedef double complex cdouble;

/* Scalars and conjugation per element type (real types: the real part,
 * identity). */
#define SCAL_float(re, im) ((float)(re))
#define SCAL_double(re, im) (re)
#define SCAL_cfloat(re, im) CMPLXF((float)(re), (float)(im))
#define SCAL_cdouble(re, im) CMPLX((re), (im))
#define CJ_float(v) (v)
#define CJ_double(v) (v)
#define CJ_cfloat(v) conjf(v)
#define CJ_cdouble(v) conj(v)

/* The body for element type T. */
#define SPVEC_BODY(T)                                                                              \
    do {                                                                                           \
        const trn_sp_vec *x = &d->x;                                                               \
        T *xv = (T *)x->values, *y = (T *)d->y.values;                                             \
        const T alpha = SCAL_##T(d->alpha, d->alpha_im), beta = SCAL_##T(d->beta, d->beta_im);     \
        T sum = 0;                                                                                 \
        if (d->fn == TRN_SPVEC_AXPBY) {                                                            \
            for (int64_t i = 0; i < d->y.rows; i++)                                                \
                y[i] = beta == 0 ? (T)0 : beta * y[i];                                             \
        }                                                                                          \
        for (int64_t k = 0; k < x->nnz; k++) {                                                     \
            const int64_t v = trn_sp_ld(x->indices, k, x->idx64);                                  \
            if (v < x->base || v - x->base >= x->size)                                             \
                return bad_index(msg, x, k, v);                                                    \
            const int64_t i = v - x->base;                                                         \
            switch (d->fn) {                                                                       \
            case TRN_SPVEC_VV: sum += (d->conj_x ? CJ_##T(xv[k]) : xv[k]) * y[i]; break;           \
            case TRN_SPVEC_AXPBY: y[i] += alpha * xv[k]; break;                                    \
            case TRN_SPVEC_GATHER: xv[k] = y[i]; break;                                            \
            case TRN_SPVEC_SCATTER: y[i] = xv[k]; break;                                           \
            case TRN_SPVEC_ROT: {                                                                  \
                const T xk = xv[k], yi = y[i];                                                     \
                xv[k] = alpha * xk + beta * yi;                                                    \
                y[i] = alpha * yi - beta * xk;                                                     \
                break;                                                                             \
            }                                                                                      \
            }                                                                                      \
        }                                                                                          \
        if (d->fn == TRN_SPVEC_VV)                                                                 \
            *(T *)d->result = sum;                                                                 \
        return 0;                                                                                  \
    } while (0)

static int spvec_f(const trn_spvec_desc *d, trn_kmsg *msg) {
    SPVEC_BODY(float);
}

static int spvec_d(const trn_spvec_desc *d, trn_kmsg *msg) {
    SPVEC_BODY(double);
}

static int spvec_c(const trn_spvec_desc *d, trn_kmsg *msg) {
    SPVEC_BODY(cfloat);
}

static int spvec_z(const trn_spvec_desc *d, trn_kmsg *msg) {
    SPVEC_BODY(cdouble);
}

static trn_kstatus trn_cpu_spvec(const trn_spvec_desc *d, trn_kmsg *msg, int shard) {
    if (shard != 0)
        return TRN_KSTATUS_OK;
    int rc;
    switch (d->x.type) {
    case TRN_DTYPE_R64F: rc = spvec_d(d, msg); break;
    case TRN_DTYPE_C32F: rc = spvec_c(d, msg); break;
    case TRN_DTYPE_C64F: rc = spvec_z(d, msg); break;
    default: rc = spvec_f(d, msg); break;
    }
    return rc == 0 ? TRN_KSTATUS_OK : TRN_KSTATUS_FAILED;
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(spvec, ((void)nshards, trn_cpu_spvec(&op->u.spvec, op->kmsg, shard)))
