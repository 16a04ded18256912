/*
 * trn_complex.h — complex scalar types and their arithmetic (the cuComplex.h
 * analog).
 *
 * Layout is two consecutive reals, real part first (x), as cuComplex, C99
 * _Complex and std::complex, so arrays of any of them can be passed as-is.
 *
 * The helpers are cuComplex's, renamed (cuCaddf → trnCaddf, …) and with the
 * same algorithms, so results match a CUDA host build of the same code:
 *  - trnCmulf/trnCmul: the textbook product (x.x·y.x − x.y·y.y,
 *    x.x·y.y + x.y·y.x), no C99 Annex G recovery of infinities from NaNs;
 *  - trnCdivf/trnCdiv: both operands are first scaled by
 *    1 / (|y.x| + |y.y|), so the squared norm of the divisor cannot overflow
 *    or underflow for any finite, non-zero y (the naive formula overflows
 *    once |y| exceeds about sqrt(FLT_MAX));
 *  - trnCabsf/trnCabs: v·sqrt(1 + (w/v)²) with v = max(|x|, |y|), w = min,
 *    hence no intermediate overflow or underflow; an infinite part gives
 *    +inf, a NaN part (with no infinite one) NaN;
 *  - trnCfmaf/trnCfma: x·y + d, each part as two multiply-adds;
 *  - trnConjf/trnConj: (x, −y).
 * Division by zero gives infinities or NaNs, as cuCdivf does.
 */
#ifndef TRNSCI_TRN_COMPLEX_H
#define TRNSCI_TRN_COMPLEX_H

#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct __attribute__((aligned(8))) trnFloatComplex {
    float x, y;
} trnFloatComplex;

typedef struct __attribute__((aligned(16))) trnDoubleComplex {
    double x, y;
} trnDoubleComplex;

typedef trnFloatComplex trnComplex;

static inline trnFloatComplex make_trnFloatComplex(float r, float i) {
    trnFloatComplex z = {r, i};
    return z;
}
static inline trnDoubleComplex make_trnDoubleComplex(double r, double i) {
    trnDoubleComplex z = {r, i};
    return z;
}
static inline trnComplex make_trnComplex(float r, float i) {
    return make_trnFloatComplex(r, i);
}

/* ---- single precision (cuCrealf, cuCaddf, …) ---- */

static inline float trnCrealf(trnFloatComplex z) {
    return z.x;
}
static inline float trnCimagf(trnFloatComplex z) {
    return z.y;
}
static inline trnFloatComplex trnConjf(trnFloatComplex z) {
    return make_trnFloatComplex(z.x, -z.y);
}
static inline trnFloatComplex trnCaddf(trnFloatComplex a, trnFloatComplex b) {
    return make_trnFloatComplex(a.x + b.x, a.y + b.y);
}
static inline trnFloatComplex trnCsubf(trnFloatComplex a, trnFloatComplex b) {
    return make_trnFloatComplex(a.x - b.x, a.y - b.y);
}
static inline trnFloatComplex trnCmulf(trnFloatComplex a, trnFloatComplex b) {
    return make_trnFloatComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
/* a / b, scaled so that |b|² is formed from parts of magnitude at most 1. */
static inline trnFloatComplex trnCdivf(trnFloatComplex a, trnFloatComplex b) {
    const float scale = 1.0f / (fabsf(b.x) + fabsf(b.y));
    const float ar = a.x * scale, ai = a.y * scale;
    const float br = b.x * scale, bi = b.y * scale;
    const float inv = 1.0f / (br * br + bi * bi);
    return make_trnFloatComplex((ar * br + ai * bi) * inv, (ai * br - ar * bi) * inv);
}
/* |z| without intermediate overflow or underflow. */
static inline float trnCabsf(trnFloatComplex z) {
    const float a = fabsf(z.x), b = fabsf(z.y);
    const float v = a > b ? a : b, w = a > b ? b : a;
    if (v == 0.0f || isinf(v) || isinf(w) || isnan(v) || isnan(w))
        return isinf(v) || isinf(w) ? INFINITY : v + w;
    const float t = w / v;
    return v * sqrtf(1.0f + t * t);
}
/* x·y + d. */
static inline trnFloatComplex trnCfmaf(trnFloatComplex x, trnFloatComplex y, trnFloatComplex d) {
    float re = x.x * y.x + d.x, im = x.x * y.y + d.y;
    re = -(x.y * y.y) + re;
    im = x.y * y.x + im;
    return make_trnFloatComplex(re, im);
}

/* ---- double precision (cuCreal, cuCadd, …) ---- */

static inline double trnCreal(trnDoubleComplex z) {
    return z.x;
}
static inline double trnCimag(trnDoubleComplex z) {
    return z.y;
}
static inline trnDoubleComplex trnConj(trnDoubleComplex z) {
    return make_trnDoubleComplex(z.x, -z.y);
}
static inline trnDoubleComplex trnCadd(trnDoubleComplex a, trnDoubleComplex b) {
    return make_trnDoubleComplex(a.x + b.x, a.y + b.y);
}
static inline trnDoubleComplex trnCsub(trnDoubleComplex a, trnDoubleComplex b) {
    return make_trnDoubleComplex(a.x - b.x, a.y - b.y);
}
static inline trnDoubleComplex trnCmul(trnDoubleComplex a, trnDoubleComplex b) {
    return make_trnDoubleComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
static inline trnDoubleComplex trnCdiv(trnDoubleComplex a, trnDoubleComplex b) {
    const double scale = 1.0 / (fabs(b.x) + fabs(b.y));
    const double ar = a.x * scale, ai = a.y * scale;
    const double br = b.x * scale, bi = b.y * scale;
    const double inv = 1.0 / (br * br + bi * bi);
    return make_trnDoubleComplex((ar * br + ai * bi) * inv, (ai * br - ar * bi) * inv);
}
static inline double trnCabs(trnDoubleComplex z) {
    const double a = fabs(z.x), b = fabs(z.y);
    const double v = a > b ? a : b, w = a > b ? b : a;
    if (v == 0.0 || isinf(v) || isinf(w) || isnan(v) || isnan(w))
        return isinf(v) || isinf(w) ? (double)INFINITY : v + w;
    const double t = w / v;
    return v * sqrt(1.0 + t * t);
}
static inline trnDoubleComplex trnCfma(trnDoubleComplex x, trnDoubleComplex y, trnDoubleComplex d) {
    double re = x.x * y.x + d.x, im = x.x * y.y + d.y;
    re = -(x.y * y.y) + re;
    im = x.y * y.x + im;
    return make_trnDoubleComplex(re, im);
}

/* ---- conversions (cuComplexFloatToDouble, cuComplexDoubleToFloat) ---- */

static inline trnDoubleComplex trnComplexFloatToDouble(trnFloatComplex z) {
    return make_trnDoubleComplex((double)z.x, (double)z.y);
}
/* Rounds each part to the nearest float (overflowing to ±inf). */
static inline trnFloatComplex trnComplexDoubleToFloat(trnDoubleComplex z) {
    return make_trnFloatComplex((float)z.x, (float)z.y);
}

#ifdef __cplusplus
}
#endif

#endif
