/*
 * blas1_narrow.c — Level 1 on 16-bit storage: cuBLAS's AxpyEx, ScalEx,
 * DotEx (DotcEx on real data), Nrm2Ex and RotEx with R_16F or R_16BF data
 * and R_32F execution (docs/numerics.md, "16-bit storage").
 *
 * Every element is widened exactly to FP32 (binary16 and bfloat16 are
 * subsets of binary32), the arithmetic is FP32, and each stored value is
 * rounded once to the storage type, to nearest even (trn_fp16.h): axpy's
 * y_i = alpha x_i + y_i, scal's x_i = alpha x_i, rot's pair, dot's sum
 * (accumulated in FP32 in index order) and nrm2's norm. alpha is a float
 * (alphaType R_32F); rot's c and s are elements of the storage type.
 *
 * nrm2 scales by a power of two near the largest |x_i| before squaring, so
 * bfloat16 values beyond 2^64 (whose squares overflow FP32) and tiny ones
 * (whose squares underflow) give the right norm; the scaling is exact for
 * every element that matters (one below 2^-126 times the largest adds less
 * than 2^-250 of the result). A NaN element gives NaN, otherwise an
 * infinite one gives infinity.
 *
 * One shard, like the rest of Level 1: the loops run in index order, so
 * results do not depend on the core count. Increments follow reference
 * BLAS (x and y point to the lowest element also for negative increments).
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "include/trnsci/trn_fp16.h"
#include "kernels/cpu/cpu_kernels.h"

/* Element 0 of the BLAS sequence of a vector. */
static ptrdiff_t start(int n, int inc) {
    return inc < 0 ? (ptrdiff_t)(1 - n) * inc : 0;
}

/* Element i (in elements) of 16-bit storage of type t, widened exactly. */
static float load(trn_dtype t, const void *base, ptrdiff_t i) {
    uint16_t bits;
    memcpy(&bits, (const unsigned char *)base + 2 * i, 2);
    if (t == TRN_DTYPE_R16F) {
        const trnsciHalf h = {bits};
        return trnsciHalfToFloat(h);
    }
    const trnsciBfloat16 b = {bits};
    return trnsciBfloat16ToFloat(b);
}

/* v rounded to type t (to nearest even) into element i. */
static void store(trn_dtype t, void *base, ptrdiff_t i, float v) {
    const uint16_t bits = t == TRN_DTYPE_R16F ? trnsciFloatToHalf(v).x : trnsciFloatToBfloat16(v).x;
    memcpy((unsigned char *)base + 2 * i, &bits, 2);
}

static float nrm2(trn_dtype t, int n, const void *x, int incx) {
    float big = 0.0f;
    int nan = 0;
    ptrdiff_t ix = start(n, incx);
    for (int i = 0; i < n; i++, ix += incx) {
        const float a = fabsf(load(t, x, ix));
        if (isnan(a))
            nan = 1;
        else if (a > big)
            big = a;
    }
    if (nan)
        return NAN;
    if (big == 0.0f || isinf(big))
        return big;
    int e;
    (void)frexpf(big, &e); /* big = f 2^e, 1/2 <= f < 1: the scaled values are at most 1 */
    float sum = 0.0f;
    ix = start(n, incx);
    for (int i = 0; i < n; i++, ix += incx) {
        const float s = ldexpf(load(t, x, ix), -e);
        sum += s * s;
    }
    return ldexpf(sqrtf(sum), e);
}

trn_kstatus trn_cpu_blas1_narrow(const trn_blas1_desc *d) {
    const trn_dtype t = d->type;
    const int n = d->n;
    float alpha = (float)d->alpha.re, s = (float)d->beta.re;
    if (d->fn == TRN_BLAS1_ROT) { /* c and s: elements of the storage type */
        if (d->alpha_ptr)
            alpha = load(t, d->alpha_ptr, 0);
        if (d->beta_ptr)
            s = load(t, d->beta_ptr, 0);
    } else if (d->alpha_ptr) { /* AXPY, SCAL: a float */
        memcpy(&alpha, d->alpha_ptr, sizeof(alpha));
    }
    ptrdiff_t ix = start(n, d->incx), iy = start(n, d->incy);
    switch (d->fn) {
    case TRN_BLAS1_AXPY:
        if (alpha == 0.0f) /* BLAS's quick return: y unchanged */
            break;
        for (int i = 0; i < n; i++, ix += d->incx, iy += d->incy) {
            const float p = alpha * load(t, d->x, ix);
            store(t, d->y, iy, p + load(t, d->y, iy));
        }
        break;
    case TRN_BLAS1_SCAL:
        for (int i = 0; i < n; i++, ix += d->incx)
            store(t, d->x, ix, alpha * load(t, d->x, ix));
        break;
    case TRN_BLAS1_ROT:
        for (int i = 0; i < n; i++, ix += d->incx, iy += d->incy) {
            const float xv = load(t, d->x, ix), yv = load(t, d->y, iy);
            const float cx = alpha * xv, sy = s * yv, cy = alpha * yv, sx = s * xv;
            store(t, d->x, ix, cx + sy);
            store(t, d->y, iy, cy - sx);
        }
        break;
    case TRN_BLAS1_DOT: {
        float sum = 0.0f;
        for (int i = 0; i < n; i++, ix += d->incx, iy += d->incy) {
            const float p = load(t, d->x, ix) * load(t, d->y, iy);
            sum += p;
        }
        store(t, d->result, 0, sum);
        break;
    }
    case TRN_BLAS1_NRM2: store(t, d->result, 0, nrm2(t, n, d->x, d->incx)); break;
    default: return TRN_KSTATUS_UNSUPPORTED; /* validation admits no other */
    }
    return TRN_KSTATUS_OK;
}
