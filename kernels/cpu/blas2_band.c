/*
 * blas2_band.c — the band and packed Level 2 routines on the CPU backend:
 * tbmv, tbsv, tpmv, tpsv (S, D, C, Z), sbmv, spmv, spr, spr2 (S, D),
 * hbmv, hpmv, hpr, hpr2 (C, Z).
 *
 * They are loops in the element type's precision, reference BLAS's
 * (blas2_band_tmpl.h), not library calls: OpenBLAS has them, but then each
 * of the 32 would enter the routine table with a self-test check and an
 * in-tree fallback (kernels/cpu/routines.h), which would be these loops.
 * Each op runs as one shard on one core (trn_blas2_tiles gives them one
 * tile), so results do not depend on the core count.
 *
 * blas2.c's run_tile has read device-mode scalars, applied the quick
 * returns (alpha = 0) and scaled y by beta before calling in here, as for
 * the dense routines.
 */
#include <complex.h>
#include <stddef.h>

#include "kernels/cpu/cpu_kernels.h"

/* Element 0 of a vector's traversal (its highest element when inc < 0). */
static ptrdiff_t first(int n, int inc) {
    return inc < 0 ? (ptrdiff_t)(1 - n) * inc : 0;
}

/* Where the stored triangle is. */
typedef struct band_shape {
    void *a;
    int n, k, lda;
    int upper, packed;
} band_shape;

/* The stored rows lo..hi (inclusive) of column j. */
static inline void rows_of(const band_shape *s, int j, int *lo, int *hi) {
    if (s->upper) {
        *lo = s->packed || j <= s->k ? 0 : j - s->k;
        *hi = j;
    } else {
        *lo = j;
        *hi = s->packed || s->n - 1 - j <= s->k ? s->n - 1 : j + s->k;
    }
}

#define T float
#define CX 0
#define SUF _s
#include "kernels/cpu/blas2_band_tmpl.h"
#undef T
#undef CX
#undef SUF

#define T double
#define CX 0
#define SUF _d
#include "kernels/cpu/blas2_band_tmpl.h"
#undef T
#undef CX
#undef SUF

#define T float complex
#define CX 1
#define SUF _c
#define CONJSUF f
#include "kernels/cpu/blas2_band_tmpl.h"
#undef T
#undef CX
#undef SUF
#undef CONJSUF

#define T double complex
#define CX 1
#define SUF _z
#define CONJSUF
#include "kernels/cpu/blas2_band_tmpl.h"
#undef T
#undef CX
#undef SUF
#undef CONJSUF

#define DISPATCH(SUF, T, ALPHA)                                                                    \
    switch (d->fn) {                                                                               \
    case TRN_BLAS2_TBMV:                                                                           \
    case TRN_BLAS2_TPMV: trmv##SUF(&s, trans, nounit, d->x, d->incx); break;                       \
    case TRN_BLAS2_TBSV:                                                                           \
    case TRN_BLAS2_TPSV: trsv##SUF(&s, trans, nounit, d->x, d->incx); break;                       \
    case TRN_BLAS2_SBMV:                                                                           \
    case TRN_BLAS2_SPMV:                                                                           \
    case TRN_BLAS2_HBMV:                                                                           \
    case TRN_BLAS2_HPMV: symv##SUF(&s, herm, ALPHA, d->x, d->incx, d->y, d->incy); break;          \
    case TRN_BLAS2_SPR:                                                                            \
    case TRN_BLAS2_HPR: spr##SUF(&s, herm, ALPHA, d->x, d->incx, NULL, 0); break;                  \
    case TRN_BLAS2_SPR2:                                                                           \
    case TRN_BLAS2_HPR2: spr##SUF(&s, herm, ALPHA, d->x, d->incx, d->y, d->incy); break;           \
    default: return TRN_KSTATUS_UNSUPPORTED;                                                       \
    }

trn_kstatus trn_cpu_blas2_band(const trn_blas2_desc *d) {
    const int packed = d->fn == TRN_BLAS2_TPMV || d->fn == TRN_BLAS2_TPSV ||
                       d->fn == TRN_BLAS2_SPMV || d->fn == TRN_BLAS2_HPMV ||
                       d->fn == TRN_BLAS2_SPR || d->fn == TRN_BLAS2_HPR ||
                       d->fn == TRN_BLAS2_SPR2 || d->fn == TRN_BLAS2_HPR2;
    const band_shape s = {.a = d->a,
                          .n = d->n,
                          .k = d->k,
                          .lda = d->lda,
                          .upper = d->uplo == TRN_UPLO_UPPER,
                          .packed = packed};
    const int trans = d->trans == TRN_TRANS_N ? 0 : d->trans == TRN_TRANS_T ? 1 : 2;
    const int nounit = d->diag != TRN_DIAG_UNIT;
    const int herm = d->fn == TRN_BLAS2_HBMV || d->fn == TRN_BLAS2_HPMV || d->fn == TRN_BLAS2_HPR ||
                     d->fn == TRN_BLAS2_HPR2;
    switch (d->type) {
    case TRN_DTYPE_R32F: DISPATCH(_s, float, (float)d->alpha.re) break;
    case TRN_DTYPE_R64F: DISPATCH(_d, double, d->alpha.re) break;
    case TRN_DTYPE_C32F:
        DISPATCH(_c, float complex, CMPLXF((float)d->alpha.re, (float)d->alpha.im)) break;
    case TRN_DTYPE_C64F:
        DISPATCH(_z, double complex, CMPLX(d->alpha.re, d->alpha.im)) break;
    TRN_DTYPE_GEMM_ONLY_CASES:
        break; /* GEMM only */
    }
    return TRN_KSTATUS_OK;
}
