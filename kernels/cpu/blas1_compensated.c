/*
 * blas1_compensated.c — dot, nrm2 and asum with compensated accumulation
 * (TRNBLAS_COMPENSATED_REDUCTION_MATH; docs/numerics.md, "Compensated
 * reductions"), in the vector's own precision.
 *
 * dot: Ogita, Rump and Oishi's Dot2 — every product split exactly into
 * value + error with an FMA, the running sum into sum + error with TwoSum,
 * the errors added at the end — which returns the result as if computed in
 * twice the working precision and then rounded:
 *     |dot2 - x.y| <= u |x.y| + gamma_n^2 sum |x_i y_i|.
 * nrm2: the same sum of squares of x scaled by a power of two (exact) that
 * keeps it from overflowing or underflowing, then a square root.
 * asum: Neumaier's compensated sum of |re| + |im|.
 * Complex dots are real Dot2 sums of 2n products per component.
 *
 * One shard runs the whole reduction in a fixed order, so the result is
 * reproducible. Vectors follow blas1.c's reference-BLAS increments.
 */
#include <math.h>
#include <stddef.h>

#include "kernels/cpu/cpu_kernels.h"

/* Element 0 of the BLAS sequence of a vector with increment inc. */
static ptrdiff_t start(int n, int inc) {
    return inc < 0 ? (ptrdiff_t)(1 - n) * inc : 0;
}

/* Running Dot2 / Neumaier state: the sum and its accumulated error. */
#define DEFINE_COMPENSATED(T, SUF, FMA, FABS, SQRT, LDEXP, FREXP)                                  \
    typedef struct acc_##SUF {                                                                     \
        T sum, err;                                                                                \
    } acc_##SUF;                                                                                   \
                                                                                                   \
    /* sum + v with TwoSum's exact error folded into err. */                                       \
    static void add_##SUF(acc_##SUF *a, T v) {                                                     \
        const T s = a->sum + v, z = s - a->sum;                                                    \
        a->err += (a->sum - (s - z)) + (v - z);                                                    \
        a->sum = s;                                                                                \
    }                                                                                              \
                                                                                                   \
    /* sum + x*y: the product's rounding error (exact by FMA) goes to err. */                      \
    static void add_product_##SUF(acc_##SUF *a, T x, T y) {                                        \
        const T p = x * y;                                                                         \
        a->err += FMA(x, y, -p);                                                                   \
        add_##SUF(a, p);                                                                           \
    }                                                                                              \
                                                                                                   \
    T trn_comp_dot_##SUF(int n, const T *x, int incx, const T *y, int incy) {                      \
        acc_##SUF a = {0, 0};                                                                      \
        ptrdiff_t ix = start(n, incx), iy = start(n, incy);                                        \
        for (int i = 0; i < n; i++, ix += incx, iy += incy)                                        \
            add_product_##SUF(&a, x[ix], y[iy]);                                                   \
        return a.sum + a.err;                                                                      \
    }                                                                                              \
                                                                                                   \
    void trn_comp_cdot_##SUF(int n, const T *x, int incx, const T *y, int incy, int conj,          \
                             T out[2]) {                                                           \
        acc_##SUF re = {0, 0}, im = {0, 0};                                                        \
        const T sg = conj ? (T)-1 : (T)1;                                                          \
        ptrdiff_t ix = 2 * start(n, incx), iy = 2 * start(n, incy);                                \
        for (int i = 0; i < n; i++, ix += 2 * (ptrdiff_t)incx, iy += 2 * (ptrdiff_t)incy) {        \
            const T xr = x[ix], xi = sg * x[ix + 1], yr = y[iy], yi = y[iy + 1];                   \
            add_product_##SUF(&re, xr, yr);                                                        \
            add_product_##SUF(&re, -xi, yi);                                                       \
            add_product_##SUF(&im, xr, yi);                                                        \
            add_product_##SUF(&im, xi, yr);                                                        \
        }                                                                                          \
        out[0] = re.sum + re.err;                                                                  \
        out[1] = im.sum + im.err;                                                                  \
    }                                                                                              \
                                                                                                   \
    /* comps components per element (1 real, 2 complex). */                                        \
    T trn_comp_nrm2_##SUF(int n, const T *x, int incx, int comps) {                                \
        T big = 0;                                                                                 \
        ptrdiff_t ix = comps * start(n, incx);                                                     \
        for (int i = 0; i < n; i++, ix += comps * (ptrdiff_t)incx)                                 \
            for (int c = 0; c < comps; c++)                                                        \
                big = FABS(x[ix + c]) > big ? FABS(x[ix + c]) : big;                               \
        if (big == 0 || !isfinite(big))                                                            \
            return big; /* 0, Inf or NaN: the answer is that */                                    \
        int e;                                                                                     \
        (void)FREXP(big, &e); /* big < 2^e: scaled squares are < 1 each */                         \
        acc_##SUF a = {0, 0};                                                                      \
        ix = comps * start(n, incx);                                                               \
        for (int i = 0; i < n; i++, ix += comps * (ptrdiff_t)incx)                                 \
            for (int c = 0; c < comps; c++) {                                                      \
                const T v = LDEXP(x[ix + c], -e);                                                  \
                add_product_##SUF(&a, v, v);                                                       \
            }                                                                                      \
        return LDEXP(SQRT(a.sum + a.err), e);                                                      \
    }                                                                                              \
                                                                                                   \
    T trn_comp_asum_##SUF(int n, const T *x, int incx, int comps) {                                \
        acc_##SUF a = {0, 0};                                                                      \
        ptrdiff_t ix = comps * start(n, incx);                                                     \
        for (int i = 0; i < n; i++, ix += comps * (ptrdiff_t)incx)                                 \
            for (int c = 0; c < comps; c++)                                                        \
                add_##SUF(&a, FABS(x[ix + c]));                                                    \
        return a.sum + a.err;                                                                      \
    }

DEFINE_COMPENSATED(float, s, fmaf, fabsf, sqrtf, ldexpf, frexpf)
DEFINE_COMPENSATED(double, d, fma, fabs, sqrt, ldexp, frexp)
