/*
 * refblas1_tmpl.h — the in-tree BLAS Level 1 routines of one element type;
 * included by refblas1.c once per type with RB_KIND defined (see
 * refblas_type.h for the macros it gets). No include guard on purpose.
 *
 * Contiguous operands (increment 1) take loops the compiler vectorises;
 * reductions keep several partial sums so that they are not one chain of
 * dependent additions. Strided operands take plain index loops.
 */
#include "kernels/cpu/refblas/refblas_type.h"

#include "kernels/cpu/refblas/refblas_kern.h"

/* The static helpers of this type, by the names the routines call. */
#define DO_ROT ST(rot)
#define DO_DOT ST(dot)
#define SUMSQ ST(sumsq)

/* ---- vector updates ------------------------------------------------------ */

void RB_FN(axpy)(const int n, const SARG alpha, CVP vx, const int incx, VP vy, const int incy) {
    const T a = GETS(alpha);
    if (n <= 0 || a == 0)
        return;
    const T *x = (const T *)vx;
    T *y = (T *)vy;
    if (incx == 1 && incy == 1) {
        for (int i = 0; i < n; i++)
            y[i] += MUL(a, x[i]);
        return;
    }
    ptrdiff_t ix = rb_first(n, incx), iy = rb_first(n, incy);
    for (int i = 0; i < n; i++, ix += incx, iy += incy)
        y[iy] += MUL(a, x[ix]);
}

void RB_FN(scal)(const int n, const SARG alpha, VP vx, const int incx) {
    if (n <= 0 || incx <= 0)
        return;
    const T a = GETS(alpha);
    T *x = (T *)vx;
    if (incx == 1) {
        for (int i = 0; i < n; i++)
            x[i] = MUL(a, x[i]);
        return;
    }
    for (ptrdiff_t i = 0, ix = 0; i < n; i++, ix += incx)
        x[ix] = MUL(a, x[ix]);
}

#if CX
/* csscal, zdscal: a real scalar times a complex vector. */
void RB_FNX(scal)(const int n, const R alpha, VP vx, const int incx) {
    if (n <= 0 || incx <= 0)
        return;
    T *x = (T *)vx;
    if (incx == 1) {
        for (int i = 0; i < n; i++)
            x[i] = RMUL(alpha, x[i]);
        return;
    }
    for (ptrdiff_t i = 0, ix = 0; i < n; i++, ix += incx)
        x[ix] = RMUL(alpha, x[ix]);
}
#endif

void RB_FN(copy)(const int n, CVP vx, const int incx, VP vy, const int incy) {
    if (n <= 0)
        return;
    const T *x = (const T *)vx;
    T *y = (T *)vy;
    if (incx == 1 && incy == 1) {
        for (int i = 0; i < n; i++)
            y[i] = x[i];
        return;
    }
    ptrdiff_t ix = rb_first(n, incx), iy = rb_first(n, incy);
    for (int i = 0; i < n; i++, ix += incx, iy += incy)
        y[iy] = x[ix];
}

void RB_FN(swap)(const int n, VP vx, const int incx, VP vy, const int incy) {
    if (n <= 0)
        return;
    T *x = (T *)vx, *y = (T *)vy;
    if (incx == 1 && incy == 1) {
        for (int i = 0; i < n; i++) {
            const T t = x[i];
            x[i] = y[i];
            y[i] = t;
        }
        return;
    }
    ptrdiff_t ix = rb_first(n, incx), iy = rb_first(n, incy);
    for (int i = 0; i < n; i++, ix += incx, iy += incy) {
        const T t = x[ix];
        x[ix] = y[iy];
        y[iy] = t;
    }
}

/* The plane rotation x' = c x + s y, y' = c y - s x with real c, s. */
static void ST(rot)(const int n, T *x, const int incx, T *y, const int incy, const R c, const R s) {
    if (n <= 0)
        return;
    if (incx == 1 && incy == 1) {
        for (int i = 0; i < n; i++) {
            const T xi = x[i], yi = y[i];
            x[i] = RMUL(c, xi) + RMUL(s, yi);
            y[i] = RMUL(c, yi) - RMUL(s, xi);
        }
        return;
    }
    ptrdiff_t ix = rb_first(n, incx), iy = rb_first(n, incy);
    for (int i = 0; i < n; i++, ix += incx, iy += incy) {
        const T xi = x[ix], yi = y[iy];
        x[ix] = RMUL(c, xi) + RMUL(s, yi);
        y[iy] = RMUL(c, yi) - RMUL(s, xi);
    }
}

#if CX
/* csrot, zdrot. <cblas.h> declares x const although the routine writes it
 * (as OpenBLAS does); the caller's vector is not const. */
void RB_FNX(rot)(const int n, const void *vx, const int incx, void *vy, const int incy, const R c,
                 const R s) {
    DO_ROT(n, (T *)vx, incx, (T *)vy, incy, c, s);
}
#else
void RB_FN(rot)(const int n, T *x, const int incx, T *y, const int incy, const R c, const R s) {
    DO_ROT(n, x, incx, y, incy, c, s);
}
#endif

/* ---- reductions ---------------------------------------------------------- */

/* sum op(x_i) y_i, op = conj when cj (complex types). */
static T ST(dot)(const int n, const T *x, const int incx, const T *y, const int incy,
                 const int cj) {
    if (n <= 0)
        return 0;
    if (incx == 1 && incy == 1)
        return ST(dot_k)(n, x, y, cj);
    T s = 0;
    ptrdiff_t ix = rb_first(n, incx), iy = rb_first(n, incy);
    if (CX && cj) {
        for (int i = 0; i < n; i++, ix += incx, iy += incy)
            s += MUL(CJ(x[ix]), y[iy]);
    } else {
        for (int i = 0; i < n; i++, ix += incx, iy += incy)
            s += MUL(x[ix], y[iy]);
    }
    return s;
}

#if CX
void RB_FN(dotu_sub)(const int n, CVP x, const int incx, CVP y, const int incy, VP ret) {
    const T s = DO_DOT(n, (const T *)x, incx, (const T *)y, incy, 0);
    R *r = (R *)ret;
    r[0] = RE(s);
    r[1] = IM(s);
}

void RB_FN(dotc_sub)(const int n, CVP x, const int incx, CVP y, const int incy, VP ret) {
    const T s = DO_DOT(n, (const T *)x, incx, (const T *)y, incy, 1);
    R *r = (R *)ret;
    r[0] = RE(s);
    r[1] = IM(s);
}
#else
R RB_FN(dot)(const int n, CVP x, const int incx, CVP y, const int incy) {
    return DO_DOT(n, x, incx, y, incy, 0);
}
#endif

/* sum (scale v)^2 over the n * (1 + CX) reals of a vector (complex
 * elements as pairs), element i at v[i * step], in double. */
static double ST(sumsq)(const R *v, const int n, const ptrdiff_t step, const double scale) {
    const int nc = 1 + CX;
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    if (step == nc) {
        const ptrdiff_t len = (ptrdiff_t)n * nc;
        ptrdiff_t i = 0;
        for (; i + 4 <= len; i += 4) {
            const double a0 = v[i] * scale, a1 = v[i + 1] * scale, a2 = v[i + 2] * scale,
                         a3 = v[i + 3] * scale;
            s0 += a0 * a0;
            s1 += a1 * a1;
            s2 += a2 * a2;
            s3 += a3 * a3;
        }
        for (; i < len; i++) {
            const double a = v[i] * scale;
            s0 += a * a;
        }
    } else {
        for (ptrdiff_t i = 0, iv = 0; i < n; i++, iv += step)
            for (int c = 0; c < nc; c++) {
                const double a = v[iv + c] * scale;
                s0 += a * a;
            }
    }
    return (s0 + s1) + (s2 + s3);
}

/* The Euclidean norm (complex: of the 2n reals). */
R RB_FNR(nrm2)(const int n, CVP vx, const int incx) {
    if (n <= 0 || incx <= 0)
        return 0;
    const R *v = (const R *)vx;
    const ptrdiff_t step = (ptrdiff_t)incx * (1 + CX);
#if SGL
    /* Squares of floats in double neither overflow nor underflow. */
    return (R)sqrt(SUMSQ(v, n, step, 1.0));
#else
    /* Plain squares first. They are accurate unless the sum overflowed or
     * is so small (< 2^-968) that squares lost to underflow would matter;
     * a NaN sum comes only from a NaN element. */
    const double s = SUMSQ(v, n, step, 1.0);
    if (isnan(s) || (s >= 0x1p-968 && s < INFINITY))
        return sqrt(s);
    /* Then scale by a power of two (exact) chosen from the largest
     * |component| m, so that n m^2 cannot overflow and the squares that
     * matter (>= 2^-100 m^2) are normal. */
    const int nc = 1 + CX;
    double m = 0;
    for (ptrdiff_t i = 0, iv = 0; i < n; i++, iv += step)
        for (int c = 0; c < nc; c++) {
            const double a = fabs(v[iv + c]);
            m = a > m ? a : m;
        }
    if (m == 0 || isinf(m))
        return m;
    const double scale = m > 0x1p+480 ? 0x1p-600 : m < 0x1p-480 ? 0x1p+600 : 1;
    return sqrt(SUMSQ(v, n, step, scale)) / scale;
#endif
}

R RB_FNR(asum)(const int n, CVP vx, const int incx) {
    if (n <= 0 || incx <= 0)
        return 0;
    const R *v = (const R *)vx;
    const ptrdiff_t step = (ptrdiff_t)incx * (1 + CX);
    const int nc = 1 + CX;
    R s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    if (step == nc) {
        const ptrdiff_t len = (ptrdiff_t)n * nc;
        ptrdiff_t i = 0;
        for (; i + 4 <= len; i += 4) {
            s0 += RABS(v[i]);
            s1 += RABS(v[i + 1]);
            s2 += RABS(v[i + 2]);
            s3 += RABS(v[i + 3]);
        }
        for (; i < len; i++)
            s0 += RABS(v[i]);
    } else {
        for (ptrdiff_t i = 0, iv = 0; i < n; i++, iv += step)
            for (int c = 0; c < nc; c++)
                s0 += RABS(v[iv + c]);
    }
    return (s0 + s1) + (s2 + s3);
}

size_t RB_FNI(amax)(const int n, CVP vx, const int incx) {
    if (n <= 0 || incx <= 0)
        return 0;
    const T *x = (const T *)vx;
    R best = ABS1(x[0]);
    size_t k = 0;
    for (ptrdiff_t i = 1, ix = incx; i < n; i++, ix += incx) {
        const R a = ABS1(x[ix]);
        if (a > best) {
            best = a;
            k = (size_t)i;
        }
    }
    return k;
}

size_t RB_FNI(amin)(const int n, CVP vx, const int incx) {
    if (n <= 0 || incx <= 0)
        return 0;
    const T *x = (const T *)vx;
    R best = ABS1(x[0]);
    size_t k = 0;
    for (ptrdiff_t i = 1, ix = incx; i < n; i++, ix += incx) {
        const R a = ABS1(x[ix]);
        if (a < best) {
            best = a;
            k = (size_t)i;
        }
    }
    return k;
}

#undef DO_ROT
#undef DO_DOT
#undef SUMSQ
