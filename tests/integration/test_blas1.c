/*
 * test_blas1.c — trnblas Level 1 (axpy, scal, copy, swap, dot/dotu/dotc,
 * nrm2, asum, i?amax, i?amin, rot) in S, D, C and Z through a real trnscid,
 * over the unix socket and over TCP, against an independent reference: naive
 * loops in long double (64-bit mantissa on x86-64) computed by this test.
 *
 * Vectors live at an element offset inside a larger allocation, with
 * positive, negative and zero increments; every element the routine must
 * not write (the gaps between strided elements, the padding around the
 * vector) must come back bitwise unchanged. Element i of a vector with
 * increment inc < 0 is stored at (n-1-i)|inc| from its pointer (reference
 * BLAS).
 *
 * Tolerances (Higham, Accuracy and Stability, §3.1, §3.6), u = 2^-24 for S/C
 * and 2^-53 for D/Z, gamma_k = k u / (1 - k u):
 *  - dot: |fl(x.y) - x.y| <= gamma_n sum |x_i||y_i|; a complex product has
 *    relative error <= sqrt(2) gamma_2, so complex dots use 2 gamma_{n+2};
 *  - asum (a sum of n (real) or 2n (complex) non-negative terms):
 *    gamma_{2n} asum;
 *  - nrm2: the sum of squares has relative error gamma_{2n+1} and the square
 *    root halves it and adds u: gamma_{2n+2} ||x|| covers both (OpenBLAS
 *    may scale; the bound is for the unscaled algorithm, scaling by powers of
 *    two is exact);
 *  - axpy, rot: each output is a sum of two products, gamma_2 for reals and
 *    2 gamma_3 for complex values, times (|a||x| + |b||y|); scal: gamma_1
 *    (real) or 2 gamma_2 (complex) times |alpha x|;
 *  - copy, swap: exact; i?amax/i?amin: the exact index of the first extreme
 *    |re| + |im| computed in the vector's own precision (BLAS's scabs1).
 * Results are checked in both pointer modes: host (the call returns the
 * value) and device (written in stream order into a device buffer), and
 * device-mode scalars (alpha, c, s in device memory) against host mode.
 */
#include <complex.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <float.h>
#include <limits.h>

#include "harness.h"
#include "trnsci/trnblas.h"
#include "typed.h"

static th_daemon daemon_under_test;
static const char *current_addr; /* the group's address, for reconnecting */

static long double unit_roundoff(ty t) {
    return (t == TY_S || t == TY_C) ? ldexpl(1.0L, -24) : ldexpl(1.0L, -53);
}

static long double gam(ty t, long double k) {
    const long double u = unit_roundoff(t);
    return k * u / (1.0L - k * u);
}

static uint64_t rng_state = 0x2545f4914f6cdd1dULL;
static long double uniform(void) { /* [-1, 1), xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    const uint64_t r = rng_state * 2685821657736338717ULL;
    return (long double)(r >> 11) * ldexpl(1.0L, -52) - 1.0L;
}

/* A vector of n elements with increment inc at element offset off of an
 * allocation of total elements; host holds what was uploaded. */
typedef struct vec {
    ty t;
    int n, inc;
    size_t off, total;
    void *host, *dev;
} vec;

static size_t span(int n, int inc) {
    return n <= 0 ? 0 : (size_t)abs(inc) * (size_t)(n - 1) + 1;
}

static void vec_init(vec *v, ty t, int n, int inc, size_t off) {
    v->t = t;
    v->n = n;
    v->inc = inc;
    v->off = off;
    v->total = off + span(n, inc) + 5;
    v->host = malloc(v->total * esize(t));
    assert_non_null(v->host);
    for (size_t i = 0; i < v->total; i++)
        put(t, v->host, i, is_complex(t) ? uniform() + I * uniform() : uniform());
    assert_int_equal(trnsciMalloc(&v->dev, v->total * esize(t)), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(v->dev, v->host, v->total * esize(t), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
}

static void *vp(const vec *v) {
    return (char *)v->dev + v->off * esize(v->t);
}

/* Storage index of BLAS element i. */
static size_t at(const vec *v, int i) {
    return v->off +
           (v->inc >= 0 ? (size_t)i * (size_t)v->inc : (size_t)(v->n - 1 - i) * (size_t)-v->inc);
}

static lcplx el(const vec *v, int i) {
    return get(v->t, v->host, at(v, i));
}

static void *download(const vec *v) {
    void *r = malloc(v->total * esize(v->t));
    assert_non_null(r);
    assert_int_equal(trnsciMemcpy(r, v->dev, v->total * esize(v->t), trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    return r;
}

static void vec_free(vec *v) {
    assert_int_equal(trnsciFree(v->dev), trnsciSuccess);
    free(v->host);
}

/* Compares the downloaded vector with want[i] (BLAS order) within bound[i],
 * and every other element with the upload, bitwise. Returns the failures. */
static size_t compare(const char *what, const vec *v, const void *got, const lcplx *want,
                      const long double *bound) {
    size_t bad = 0;
    char *written = calloc(v->total, 1);
    assert_non_null(written);
    for (int i = 0; i < v->n; i++) {
        const size_t s = at(v, i);
        written[s] = 1;
        const lcplx g = get(v->t, got, s);
        if (!(cabsl(g - want[i]) <= bound[i]) && bad++ < 3)
            fprintf(stderr, "%s%s n=%d inc=%d [%d]: got %Lg%+Lgi want %Lg%+Lgi bound %Lg\n",
                    ty_name[v->t], what, v->n, v->inc, i, creall(g), cimagl(g), creall(want[i]),
                    cimagl(want[i]), bound[i]);
    }
    for (size_t s = 0; s < v->total; s++)
        if (!written[s] &&
            memcmp((const char *)got + s * esize(v->t), (const char *)v->host + s * esize(v->t),
                   esize(v->t)) != 0 &&
            bad++ < 3)
            fprintf(stderr, "%s%s: element %zu outside the vector was modified\n", ty_name[v->t],
                    what, s);
    free(written);
    return bad;
}

/* ---- typed calls ---------------------------------------------------------- */

static trnblasStatus_t call_axpy(trnblasHandle_t h, ty t, int n, lcplx a, const vec *x, vec *y) {
    const float as = (float)creall(a);
    const double ad = (double)creall(a);
    const trnComplex ac = {(float)creall(a), (float)cimagl(a)};
    const trnDoubleComplex az = {(double)creall(a), (double)cimagl(a)};
    switch (t) {
    case TY_S: return trnblasSaxpy(h, n, &as, vp(x), x->inc, vp(y), y->inc);
    case TY_D: return trnblasDaxpy(h, n, &ad, vp(x), x->inc, vp(y), y->inc);
    case TY_C: return trnblasCaxpy(h, n, &ac, vp(x), x->inc, vp(y), y->inc);
    case TY_Z: return trnblasZaxpy(h, n, &az, vp(x), x->inc, vp(y), y->inc);
    }
    return TRNBLAS_STATUS_INTERNAL_ERROR;
}

/* real: Csscal/Zdscal for complex types. */
static trnblasStatus_t call_scal(trnblasHandle_t h, ty t, int n, lcplx a, int real, vec *x) {
    const float as = (float)creall(a);
    const double ad = (double)creall(a);
    const trnComplex ac = {(float)creall(a), (float)cimagl(a)};
    const trnDoubleComplex az = {(double)creall(a), (double)cimagl(a)};
    switch (t) {
    case TY_S: return trnblasSscal(h, n, &as, vp(x), x->inc);
    case TY_D: return trnblasDscal(h, n, &ad, vp(x), x->inc);
    case TY_C:
        return real ? trnblasCsscal(h, n, &as, vp(x), x->inc)
                    : trnblasCscal(h, n, &ac, vp(x), x->inc);
    case TY_Z:
        return real ? trnblasZdscal(h, n, &ad, vp(x), x->inc)
                    : trnblasZscal(h, n, &az, vp(x), x->inc);
    }
    return TRNBLAS_STATUS_INTERNAL_ERROR;
}

static trnblasStatus_t call_copy(trnblasHandle_t h, ty t, int n, const vec *x, vec *y, int swap) {
    switch (t) {
    case TY_S:
        return swap ? trnblasSswap(h, n, vp(x), x->inc, vp(y), y->inc)
                    : trnblasScopy(h, n, vp(x), x->inc, vp(y), y->inc);
    case TY_D:
        return swap ? trnblasDswap(h, n, vp(x), x->inc, vp(y), y->inc)
                    : trnblasDcopy(h, n, vp(x), x->inc, vp(y), y->inc);
    case TY_C:
        return swap ? trnblasCswap(h, n, vp(x), x->inc, vp(y), y->inc)
                    : trnblasCcopy(h, n, vp(x), x->inc, vp(y), y->inc);
    case TY_Z:
        return swap ? trnblasZswap(h, n, vp(x), x->inc, vp(y), y->inc)
                    : trnblasZcopy(h, n, vp(x), x->inc, vp(y), y->inc);
    }
    return TRNBLAS_STATUS_INTERNAL_ERROR;
}

/* real: Csrot/Zdrot for complex types. */
static trnblasStatus_t call_rot(trnblasHandle_t h, ty t, int n, vec *x, vec *y, long double c,
                                lcplx s, int real) {
    const float cs = (float)c, ss = (float)creall(s);
    const double cd = (double)c, sd = (double)creall(s);
    const trnComplex sc = {(float)creall(s), (float)cimagl(s)};
    const trnDoubleComplex sz = {(double)creall(s), (double)cimagl(s)};
    switch (t) {
    case TY_S: return trnblasSrot(h, n, vp(x), x->inc, vp(y), y->inc, &cs, &ss);
    case TY_D: return trnblasDrot(h, n, vp(x), x->inc, vp(y), y->inc, &cd, &sd);
    case TY_C:
        return real ? trnblasCsrot(h, n, vp(x), x->inc, vp(y), y->inc, &cs, &ss)
                    : trnblasCrot(h, n, vp(x), x->inc, vp(y), y->inc, &cs, &sc);
    case TY_Z:
        return real ? trnblasZdrot(h, n, vp(x), x->inc, vp(y), y->inc, &cd, &sd)
                    : trnblasZrot(h, n, vp(x), x->inc, vp(y), y->inc, &cd, &sz);
    }
    return TRNBLAS_STATUS_INTERNAL_ERROR;
}

/* Reductions. res points to host memory (host mode) or device memory
 * (device mode) big enough for the result. */
typedef enum { R_DOT, R_DOTC, R_NRM2, R_ASUM, R_IAMAX, R_IAMIN } red;

static trnblasStatus_t call_red(trnblasHandle_t h, ty t, red r, int n, const vec *x, const vec *y,
                                void *res) {
    const void *xp = x ? vp(x) : NULL, *yp = y ? vp(y) : NULL;
    const int incx = x ? x->inc : 1, incy = y ? y->inc : 1;
    switch (r) {
    case R_DOT:
        switch (t) {
        case TY_S: return trnblasSdot(h, n, xp, incx, yp, incy, res);
        case TY_D: return trnblasDdot(h, n, xp, incx, yp, incy, res);
        case TY_C: return trnblasCdotu(h, n, xp, incx, yp, incy, res);
        case TY_Z: return trnblasZdotu(h, n, xp, incx, yp, incy, res);
        }
        break;
    case R_DOTC:
        return t == TY_C ? trnblasCdotc(h, n, xp, incx, yp, incy, res)
                         : trnblasZdotc(h, n, xp, incx, yp, incy, res);
    case R_NRM2:
        switch (t) {
        case TY_S: return trnblasSnrm2(h, n, xp, incx, res);
        case TY_D: return trnblasDnrm2(h, n, xp, incx, res);
        case TY_C: return trnblasScnrm2(h, n, xp, incx, res);
        case TY_Z: return trnblasDznrm2(h, n, xp, incx, res);
        }
        break;
    case R_ASUM:
        switch (t) {
        case TY_S: return trnblasSasum(h, n, xp, incx, res);
        case TY_D: return trnblasDasum(h, n, xp, incx, res);
        case TY_C: return trnblasScasum(h, n, xp, incx, res);
        case TY_Z: return trnblasDzasum(h, n, xp, incx, res);
        }
        break;
    case R_IAMAX:
        switch (t) {
        case TY_S: return trnblasIsamax(h, n, xp, incx, res);
        case TY_D: return trnblasIdamax(h, n, xp, incx, res);
        case TY_C: return trnblasIcamax(h, n, xp, incx, res);
        case TY_Z: return trnblasIzamax(h, n, xp, incx, res);
        }
        break;
    case R_IAMIN:
        switch (t) {
        case TY_S: return trnblasIsamin(h, n, xp, incx, res);
        case TY_D: return trnblasIdamin(h, n, xp, incx, res);
        case TY_C: return trnblasIcamin(h, n, xp, incx, res);
        case TY_Z: return trnblasIzamin(h, n, xp, incx, res);
        }
        break;
    }
    return TRNBLAS_STATUS_INTERNAL_ERROR;
}

/* The result's type: the vector's (dot), its real part (nrm2, asum), int. */
static ty res_ty(ty t, red r) {
    if (r == R_DOT || r == R_DOTC)
        return t;
    return (t == TY_S || t == TY_C) ? TY_S : TY_D;
}

/* |re| + |im| in the vector's own precision. */
static long double abs1(ty t, lcplx v) {
    if (t == TY_S || t == TY_C)
        return (long double)(fabsf((float)creall(v)) + fabsf((float)cimagl(v)));
    return (long double)(fabs((double)creall(v)) + fabs((double)cimagl(v)));
}

/* ---- cases ---------------------------------------------------------------- */

typedef struct shape {
    int n, incx, incy;
} shape;

static const shape shapes[] = {
    {0, 1, 1}, {1, 1, 1}, {37, 1, 1}, {50, 2, -3}, {23, -1, 2}, {19, -2, -1}, {300, 3, 1},
};
#define NSHAPES (sizeof(shapes) / sizeof(shapes[0]))

static void check_elementwise(trnblasHandle_t h, ty t, const shape *sh) {
    const int n = sh->n;
    const lcplx alpha = is_complex(t) ? 0.75L - 1.25L * I : -1.5L;
    const long double c = 0.6L;
    const lcplx s = is_complex(t) ? 0.48L + 0.64L * I : 0.8L;
    lcplx *want = calloc((size_t)n + 1, sizeof(lcplx)),
          *want2 = calloc((size_t)n + 1, sizeof(lcplx));
    long double *bound = calloc((size_t)n + 1, sizeof(long double)),
                *bound2 = calloc((size_t)n + 1, sizeof(long double));
    assert_true(want && want2 && bound && bound2);
    const long double g2 = is_complex(t) ? 2 * gam(t, 3) : gam(t, 2);
    size_t bad = 0;
    vec x, y;

    /* axpy */
    vec_init(&x, t, n, sh->incx, 3);
    vec_init(&y, t, n, sh->incy, 5);
    assert_int_equal(call_axpy(h, t, n, alpha, &x, &y), TRNBLAS_STATUS_SUCCESS);
    for (int i = 0; i < n; i++) {
        want[i] = alpha * el(&x, i) + el(&y, i);
        bound[i] = g2 * (cabsl(alpha) * cabsl(el(&x, i)) + cabsl(el(&y, i)));
    }
    void *gx = download(&x), *gy = download(&y);
    for (int i = 0; i < n; i++) {
        want2[i] = el(&x, i);
        bound2[i] = 0;
    }
    bad += compare("axpy y", &y, gy, want, bound) + compare("axpy x", &x, gx, want2, bound2);
    free(gx);
    free(gy);

    /* copy (x unchanged), then swap: exact. */
    vec_free(&y);
    vec_init(&y, t, n, sh->incy, 1);
    assert_int_equal(call_copy(h, t, n, &x, &y, 0), TRNBLAS_STATUS_SUCCESS);
    gy = download(&y);
    bad += compare("copy", &y, gy, want2, bound2);
    free(gy);
    vec_free(&y);
    vec_init(&y, t, n, sh->incy, 2);
    assert_int_equal(call_copy(h, t, n, &x, &y, 1), TRNBLAS_STATUS_SUCCESS);
    gx = download(&x);
    gy = download(&y);
    for (int i = 0; i < n; i++)
        want[i] = el(&y, i);
    bad += compare("swap y", &y, gy, want2, bound2) + compare("swap x", &x, gx, want, bound2);
    free(gx);
    free(gy);

    /* rot with complex s (C/Z) and with real s (all types). */
    for (int real = 0; real < 2; real++) {
        if (real && !is_complex(t))
            break;
        vec_free(&x);
        vec_free(&y);
        vec_init(&x, t, n, sh->incx, 4);
        vec_init(&y, t, n, sh->incy, 0);
        const lcplx sv = real ? 0.8L : s;
        assert_int_equal(call_rot(h, t, n, &x, &y, c, sv, real), TRNBLAS_STATUS_SUCCESS);
        for (int i = 0; i < n; i++) {
            const lcplx xv = el(&x, i), yv = el(&y, i);
            want[i] = c * xv + sv * yv;
            want2[i] = c * yv - conjl(sv) * xv;
            bound[i] = bound2[i] =
                g2 * (c * (cabsl(xv) + cabsl(yv)) + cabsl(sv) * (cabsl(xv) + cabsl(yv)));
        }
        gx = download(&x);
        gy = download(&y);
        bad += compare(real ? "srot x" : "rot x", &x, gx, want, bound) +
               compare(real ? "srot y" : "rot y", &y, gy, want2, bound2);
        free(gx);
        free(gy);
    }

    /* scal with a complex and (C/Z) a real alpha; incx <= 0 does nothing. */
    for (int real = 0; real < 2; real++) {
        if (real && !is_complex(t))
            break;
        vec_free(&x);
        vec_init(&x, t, n, sh->incx, 6);
        const lcplx av = real ? -1.5L : alpha;
        assert_int_equal(call_scal(h, t, n, av, real, &x), TRNBLAS_STATUS_SUCCESS);
        const long double g1 = is_complex(t) && !real ? 2 * gam(t, 2) : gam(t, 1);
        for (int i = 0; i < n; i++) {
            want[i] = x.inc > 0 ? av * el(&x, i) : el(&x, i);
            bound[i] = x.inc > 0 ? g1 * cabsl(av) * cabsl(el(&x, i)) : 0;
        }
        gx = download(&x);
        bad += compare(real ? "sscal" : "scal", &x, gx, want, bound);
        free(gx);
    }
    vec_free(&x);
    vec_free(&y);
    free(want);
    free(want2);
    free(bound);
    free(bound2);
    assert_int_equal(bad, 0);
}

/* The reference value of a reduction: a complex value, or the index. */
static lcplx reference(ty t, red r, const vec *x, const vec *y, long double *bound) {
    const int n = x->n;
    /* Reference BLAS: nothing for incx <= 0 in the x-only reductions. */
    if (n <= 0 || (r != R_DOT && r != R_DOTC && x->inc <= 0)) {
        *bound = 0;
        return 0;
    }
    lcplx acc = 0;
    long double mag = 0;
    switch (r) {
    case R_DOT:
    case R_DOTC:
        for (int i = 0; i < n; i++) {
            const lcplx xv = r == R_DOTC ? conjl(el(x, i)) : el(x, i), yv = el(y, i);
            acc += xv * yv;
            mag += cabsl(xv) * cabsl(yv);
        }
        *bound = (is_complex(t) ? 2 * gam(t, n + 2) : gam(t, n)) * mag;
        return acc;
    case R_NRM2:
        for (int i = 0; i < n; i++)
            mag += creall(el(x, i) * conjl(el(x, i)));
        *bound = gam(t, 2.0L * n + 2) * sqrtl(mag);
        return sqrtl(mag);
    case R_ASUM:
        for (int i = 0; i < n; i++)
            mag += fabsl(creall(el(x, i))) + fabsl(cimagl(el(x, i)));
        *bound = gam(t, 2.0L * n) * mag;
        return mag;
    case R_IAMAX:
    case R_IAMIN: {
        int best = 0;
        for (int i = 1; i < n; i++) {
            const long double a = abs1(t, el(x, i)), b = abs1(t, el(x, best));
            if (r == R_IAMAX ? a > b : a < b)
                best = i;
        }
        *bound = 0;
        return best + 1;
    }
    }
    return 0;
}

static lcplx result_value(ty t, red r, const void *res) {
    if (r == R_IAMAX || r == R_IAMIN)
        return *(const int *)res;
    return get(res_ty(t, r), res, 0);
}

static void check_reductions(trnblasHandle_t h, ty t, const shape *sh, void *dres) {
    size_t bad = 0;
    for (red r = R_DOT; r <= R_IAMIN; r++) {
        if (r == R_DOTC && !is_complex(t))
            continue;
        for (int inc_sign = 0; inc_sign < 2; inc_sign++) {
            vec x, y;
            /* x-only reductions with incx <= 0 must give 0. */
            const int incx = inc_sign ? -abs(sh->incx) : sh->incx;
            vec_init(&x, t, sh->n, incx, 2);
            vec_init(&y, t, sh->n, sh->incy, 7);
            long double bound;
            const lcplx want = reference(t, r, &x, &y, &bound);
            for (int mode = 0; mode < 2; mode++) {
                unsigned char res[16];
                memset(res, 0x5a, sizeof(res)); /* the call must overwrite it */
                assert_int_equal(trnblasSetPointerMode(h, mode ? TRNBLAS_POINTER_MODE_DEVICE
                                                               : TRNBLAS_POINTER_MODE_HOST),
                                 TRNBLAS_STATUS_SUCCESS);
                const trnblasStatus_t st = call_red(h, t, r, sh->n, &x, &y, mode ? dres : res);
                assert_int_equal(st, TRNBLAS_STATUS_SUCCESS);
                if (mode)
                    assert_int_equal(trnsciMemcpy(res, dres, 16, trnsciMemcpyDeviceToHost),
                                     trnsciSuccess);
                const lcplx got = result_value(t, r, res);
                if (!(cabsl(got - want) <= bound) && bad++ < 4)
                    fprintf(stderr,
                            "%s reduction %d n=%d incx=%d incy=%d %s mode: got %Lg%+Lgi want "
                            "%Lg%+Lgi bound %Lg\n",
                            ty_name[t], (int)r, sh->n, x.inc, y.inc, mode ? "device" : "host",
                            creall(got), cimagl(got), creall(want), cimagl(want), bound);
            }
            assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_HOST),
                             TRNBLAS_STATUS_SUCCESS);
            vec_free(&x);
            vec_free(&y);
            if (sh->incx < 0)
                break; /* both signs done already */
        }
    }
    assert_int_equal(bad, 0);
}

static void all_cases(ty t) {
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    void *dres;
    assert_int_equal(trnsciMalloc(&dres, 64), trnsciSuccess);
    for (size_t i = 0; i < NSHAPES; i++) {
        check_elementwise(h, t, &shapes[i]);
        check_reductions(h, t, &shapes[i], (char *)dres + 16);
    }
    assert_int_equal(trnsciFree(dres), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

static void test_s(void **state) {
    (void)state;
    all_cases(TY_S);
}
static void test_d(void **state) {
    (void)state;
    all_cases(TY_D);
}
static void test_c(void **state) {
    (void)state;
    all_cases(TY_C);
}
static void test_z(void **state) {
    (void)state;
    all_cases(TY_Z);
}

/* Ties: i?amax/i?amin return the first extreme; a non-default stream; a
 * host-mode result waits for earlier work on the handle's stream. */
static void test_ties_and_streams(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    trnsciStream_t st;
    assert_int_equal(trnsciStreamCreate(&st), trnsciSuccess);
    assert_int_equal(trnblasSetStream(h, st), TRNBLAS_STATUS_SUCCESS);
    const double v[6] = {1, -3, 3, 0.5, -0.5, 2};
    double *d;
    assert_int_equal(trnsciMalloc((void **)&d, sizeof(v)), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(d, v, sizeof(v), trnsciMemcpyHostToDevice), trnsciSuccess);
    int idx = -1;
    assert_int_equal(trnblasIdamax(h, 6, d, 1, &idx), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(idx, 2);
    assert_int_equal(trnblasIdamin(h, 6, d, 1, &idx), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(idx, 4);
    assert_int_equal(trnblasIdamax(h, 6, d, 0, &idx), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(idx, 0);
    /* scal then asum on the stream: the asum sees the scaled vector. */
    const double two = 2.0;
    assert_int_equal(trnblasDscal(h, 6, &two, d, 1), TRNBLAS_STATUS_SUCCESS);
    double sum = -1;
    assert_int_equal(trnblasDasum(h, 6, d, 1, &sum), TRNBLAS_STATUS_SUCCESS);
    assert_true(sum == 20.0);
    assert_int_equal(trnsciFree(d), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciStreamDestroy(st), trnsciSuccess);
}

/* Strided complex dots over vectors that fill a page-sized buffer exactly, at
 * its start and at its end: OpenBLAS 0.3.21's complex dot kernels read one
 * element past a strided vector (kernels/cpu/blas1.c), which must not
 * happen in the daemon. */
static void test_complex_dot_at_buffer_edges(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    enum { N = 86, INC = 3, ELEMS = INC * (N - 1) + 1 }; /* 256 Z elements: 4096 bytes */
    trnDoubleComplex *hx = malloc(ELEMS * sizeof(*hx)), *x, *y;
    assert_non_null(hx);
    for (int i = 0; i < ELEMS; i++) {
        hx[i].x = (double)uniform();
        hx[i].y = (double)uniform();
    }
    assert_int_equal(trnsciMalloc((void **)&x, ELEMS * sizeof(*x)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&y, ELEMS * sizeof(*y)), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(x, hx, ELEMS * sizeof(*x), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(trnsciMemcpy(y, hx, ELEMS * sizeof(*y), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    for (int sign = -1; sign <= 1; sign += 2) {
        lcplx want = 0;
        long double mag = 0;
        for (int i = 0; i < N; i++) {
            const size_t sx = sign > 0 ? (size_t)i * INC : (size_t)(N - 1 - i) * INC;
            const lcplx xv = conjl(hx[sx].x + I * (long double)hx[sx].y);
            const lcplx yv = hx[i].x + I * (long double)hx[i].y;
            want += xv * yv;
            mag += cabsl(xv) * cabsl(yv);
        }
        trnDoubleComplex got = {0, 0};
        assert_int_equal(trnblasZdotc(h, N, x, sign * INC, y, 1, &got), TRNBLAS_STATUS_SUCCESS);
        assert_true(cabsl(got.x + I * (long double)got.y - want) <= 2 * gam(TY_Z, N + 2) * mag);
        /* y strided instead, x unit. */
        assert_int_equal(trnblasZdotu(h, N, y, 1, x, sign * INC, &got), TRNBLAS_STATUS_SUCCESS);
    }
    assert_int_equal(trnsciFree(x), trnsciSuccess);
    assert_int_equal(trnsciFree(y), trnsciSuccess);
    free(hx);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* Device pointer mode scalars: axpy, scal (and Csscal/Zdscal), rot (and
 * Csrot/Zdrot) with alpha, c and s in device memory, at offsets, give
 * bitwise the results of the same calls in host pointer mode (which the
 * cases above check against the long double reference). The scalars reach
 * the device by a trnsciMemcpyAsync queued on the same stream just before,
 * so the op must read them in stream order, when it runs. */
static void device_scalars(ty t) {
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    const int n = 29, incx = -2, incy = 3;
    const size_t es = esize(t);
    /* Scalars: alpha at element 1, c at byte 4*es, s at element 6. */
    unsigned char hs[8 * 16] = {0};
    const lcplx alpha = is_complex(t) ? 0.5L - 2.0L * I : -0.75L,
                s = is_complex(t) ? 0.6L * I + 0.8L : 0.8L;
    put(t, hs, 1, alpha);
    put(is_complex(t) ? (t == TY_C ? TY_S : TY_D) : t, hs + 4 * es, 0, 0.6L);
    put(t, hs, 6, s);
    void *ds;
    assert_int_equal(trnsciMalloc(&ds, sizeof(hs)), trnsciSuccess);
    for (int fn = 0; fn < 3; fn++) {
        for (int real = 0; real < (is_complex(t) ? 2 : 1); real++) {
            if (fn == 0 && real)
                continue; /* axpy has no real-alpha form */
            vec x[2], y[2];
            void *got[2][2];
            for (int mode = 0; mode < 2; mode++) {
                rng_state = 0x1234567ULL + (uint64_t)fn; /* same data in both modes */
                vec_init(&x[mode], t, n, incx, 1);
                vec_init(&y[mode], t, n, incy, 2);
                /* real forms take the real part of the scalar */
                const lcplx a = real ? creall(alpha) : alpha, sv = real ? creall(s) : s;
                if (mode) {
                    unsigned char hs2[sizeof(hs)];
                    memcpy(hs2, hs, sizeof(hs));
                    if (real) {
                        const ty rt = t == TY_C ? TY_S : TY_D;
                        put(rt, hs2 + es, 0, a);
                        put(rt, hs2 + 6 * es, 0, sv);
                    }
                    assert_int_equal(
                        trnsciMemcpyAsync(ds, hs2, sizeof(hs2), trnsciMemcpyHostToDevice, 0),
                        trnsciSuccess);
                    assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_DEVICE),
                                     TRNBLAS_STATUS_SUCCESS);
                }
                const char *dsb = ds;
                trnblasStatus_t st = TRNBLAS_STATUS_INTERNAL_ERROR;
                const float af = (float)creall(a), cf = 0.6f, sf = (float)creall(sv);
                const double ad = (double)creall(a), cd = 0.6, sd = (double)creall(sv);
                const trnComplex ac = {(float)creall(a), (float)cimagl(a)},
                                 sc = {(float)creall(sv), (float)cimagl(sv)};
                const trnDoubleComplex az = {(double)creall(a), (double)cimagl(a)},
                                       sz = {(double)creall(sv), (double)cimagl(sv)};
                const void *pa = mode ? (const void *)(dsb + es) : NULL;
                const void *pc = mode ? (const void *)(dsb + 4 * es) : NULL;
                const void *ps = mode ? (const void *)(dsb + 6 * es) : NULL;
                void *X = vp(&x[mode]), *Y = vp(&y[mode]);
                switch (t) {
                case TY_S:
                    st = fn == 0   ? trnblasSaxpy(h, n, mode ? pa : &af, X, incx, Y, incy)
                         : fn == 1 ? trnblasSscal(h, n, mode ? pa : &af, X, 1)
                                   : trnblasSrot(h, n, X, incx, Y, incy, mode ? pc : &cf,
                                                 mode ? ps : &sf);
                    break;
                case TY_D:
                    st = fn == 0   ? trnblasDaxpy(h, n, mode ? pa : &ad, X, incx, Y, incy)
                         : fn == 1 ? trnblasDscal(h, n, mode ? pa : &ad, X, 1)
                                   : trnblasDrot(h, n, X, incx, Y, incy, mode ? pc : &cd,
                                                 mode ? ps : &sd);
                    break;
                case TY_C:
                    st =
                        fn == 0
                            ? trnblasCaxpy(h, n, mode ? pa : (const void *)&ac, X, incx, Y, incy)
                        : fn == 1 ? (real ? trnblasCsscal(h, n, mode ? pa : &af, X, 1)
                                          : trnblasCscal(h, n, mode ? pa : (const void *)&ac, X, 1))
                        : real
                            ? trnblasCsrot(h, n, X, incx, Y, incy, mode ? pc : &cf, mode ? ps : &sf)
                            : trnblasCrot(h, n, X, incx, Y, incy, mode ? pc : &cf,
                                          mode ? ps : (const void *)&sc);
                    break;
                case TY_Z:
                    st =
                        fn == 0
                            ? trnblasZaxpy(h, n, mode ? pa : (const void *)&az, X, incx, Y, incy)
                        : fn == 1 ? (real ? trnblasZdscal(h, n, mode ? pa : &ad, X, 1)
                                          : trnblasZscal(h, n, mode ? pa : (const void *)&az, X, 1))
                        : real
                            ? trnblasZdrot(h, n, X, incx, Y, incy, mode ? pc : &cd, mode ? ps : &sd)
                            : trnblasZrot(h, n, X, incx, Y, incy, mode ? pc : &cd,
                                          mode ? ps : (const void *)&sz);
                    break;
                }
                assert_int_equal(st, TRNBLAS_STATUS_SUCCESS);
                assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_HOST),
                                 TRNBLAS_STATUS_SUCCESS);
                got[mode][0] = download(&x[mode]);
                got[mode][1] = download(&y[mode]);
            }
            if (memcmp(got[0][0], got[1][0], x[0].total * es) != 0 ||
                memcmp(got[0][1], got[1][1], y[0].total * es) != 0)
                fail_msg("%s op %d real %d: device-mode scalars differ from host mode", ty_name[t],
                         fn, real);
            for (int mode = 0; mode < 2; mode++) {
                free(got[mode][0]);
                free(got[mode][1]);
                vec_free(&x[mode]);
                vec_free(&y[mode]);
            }
        }
    }
    assert_int_equal(trnsciFree(ds), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

static void test_device_scalars(void **state) {
    (void)state;
    device_scalars(TY_S);
    device_scalars(TY_D);
    device_scalars(TY_C);
    device_scalars(TY_Z);
}

/* A handle outlives a device reset: host-mode results then go through a new
 * scratch buffer of the new session (the old one's pointer is stale). */
static void test_handle_across_reset(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    const double v[3] = {1, 2, 2};
    for (int round = 0; round < 2; round++) {
        double *d, r = -1;
        assert_int_equal(trnsciMalloc((void **)&d, sizeof(v)), trnsciSuccess);
        assert_int_equal(trnsciMemcpy(d, v, sizeof(v), trnsciMemcpyHostToDevice), trnsciSuccess);
        assert_int_equal(trnblasDnrm2(h, 3, d, 1, &r), TRNBLAS_STATUS_SUCCESS);
        assert_true(fabs(r - 3.0) <= 4 * DBL_EPSILON * 3.0);
        if (round == 0) {
            assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
            assert_int_equal(trnsciInit(current_addr), trnsciSuccess);
        } else {
            assert_int_equal(trnsciFree(d), trnsciSuccess);
        }
    }
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* Bad input: each call returns the documented status with a message naming
 * the argument, and the daemon stays up. */
static void test_bad_input(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    float *x;
    assert_int_equal(trnsciMalloc((void **)&x, 16 * sizeof(float)), trnsciSuccess);
    assert_int_equal(trnsciMemset(x, 0, 16 * sizeof(float)), trnsciSuccess);
    float r = 1.0f;
    const float one = 1.0f;
    /* NULL result, in both modes. */
    assert_int_equal(trnblasSdot(h, 4, x, 1, x, 1, NULL), TRNBLAS_STATUS_INVALID_VALUE);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "result is NULL"));
    assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_DEVICE), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSnrm2(h, 4, x, 1, NULL), TRNBLAS_STATUS_INVALID_VALUE);
    /* Device mode: a result pointer that is not device memory. */
    assert_int_equal(trnblasSasum(h, 4, x, 1, &r), TRNBLAS_STATUS_INVALID_VALUE);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "result"));
    /* Device mode: a scalar that is not device memory (GEMM's too). */
    assert_int_equal(trnblasSaxpy(h, 4, &one, x, 1, x + 8, 1), TRNBLAS_STATUS_INVALID_VALUE);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "axpy: alpha"));
    assert_int_equal(trnblasSrot(h, 4, x, 1, x + 8, 1, x, &one), TRNBLAS_STATUS_INVALID_VALUE);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "rot: s"));
    assert_int_equal(
        trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 1, 1, 1, &one, x, 1, x, 1, x, x + 8, 1),
        TRNBLAS_STATUS_INVALID_VALUE);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "gemm: alpha"));
    trnblasPointerMode_t m;
    assert_int_equal(trnblasGetPointerMode(h, &m), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(m, TRNBLAS_POINTER_MODE_DEVICE);
    assert_int_equal(trnblasSetPointerMode(h, (trnblasPointerMode_t)2),
                     TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_HOST), TRNBLAS_STATUS_SUCCESS);
    /* NULL / destroyed-less handle. */
    assert_int_equal(trnblasSdot(NULL, 4, x, 1, x, 1, &r), TRNBLAS_STATUS_NOT_INITIALIZED);
    assert_int_equal(trnblasSaxpy(NULL, 4, &one, x, 1, x, 1), TRNBLAS_STATUS_NOT_INITIALIZED);
    /* NULL alpha. */
    assert_int_equal(trnblasSscal(h, 4, NULL, x, 1), TRNBLAS_STATUS_INVALID_VALUE);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "scal"));
    /* Too small: 16 floats hold n=9 at incx=2 (17 needed). */
    assert_int_equal(trnblasSaxpy(h, 9, &one, x, 2, x, 1), TRNBLAS_STATUS_INVALID_VALUE);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "axpy: x"));
    assert_int_equal(trnblasSdot(h, 8, x, 1, x + 9, 1, &r), TRNBLAS_STATUS_INVALID_VALUE);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "dot: y"));
    /* A freed device pointer. */
    float *gone;
    assert_int_equal(trnsciMalloc((void **)&gone, 64), trnsciSuccess);
    assert_int_equal(trnsciFree(gone), trnsciSuccess);
    assert_int_equal(trnblasSasum(h, 2, gone, 1, &r), TRNBLAS_STATUS_INVALID_VALUE);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "asum: x"));
    /* Overflowing extents are refused, not wrapped: INT_MAX elements at
     * increment INT_MAX. */
    assert_int_equal(trnblasScopy(h, INT_MAX, x, INT_MAX, x, 1), TRNBLAS_STATUS_INVALID_VALUE);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "copy: x"));
    /* A host pointer as a vector. */
    float host[4] = {0};
    assert_int_equal(trnblasScopy(h, 4, host, 1, x, 1), TRNBLAS_STATUS_INVALID_VALUE);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "copy: x"));
    /* n < 0 is a no-op; a reduction gives 0. */
    r = 7.0f;
    assert_int_equal(trnblasSdot(h, -3, NULL, 1, NULL, 1, &r), TRNBLAS_STATUS_SUCCESS);
    assert_true(r == 0.0f);
    assert_int_equal(trnblasSaxpy(h, -1, &one, NULL, 1, NULL, 1), TRNBLAS_STATUS_SUCCESS);
    /* Still working afterwards. */
    const float v[4] = {3, 4, 0, 0};
    assert_int_equal(trnsciMemcpy(x, v, sizeof(v), trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnblasSnrm2(h, 4, x, 1, &r), TRNBLAS_STATUS_SUCCESS);
    assert_true(fabsf(r - 5.0f) <= 5.0f * 8 * FLT_EPSILON);
    assert_int_equal(trnsciFree(x), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

static int connect_unix(void **state) {
    (void)state;
    current_addr = daemon_under_test.unix_addr;
    return trnsciInit(current_addr) == trnsciSuccess ? 0 : -1;
}

static int connect_tcp(void **state) {
    (void)state;
    current_addr = daemon_under_test.tcp_addr;
    return trnsciInit(current_addr) == trnsciSuccess ? 0 : -1;
}

static int disconnect(void **state) {
    (void)state;
    trnsciDeviceReset();
    return th_wait_daemon_idle(daemon_under_test.unix_addr, 5000);
}

int main(void) {
    if (th_daemon_start(&daemon_under_test, NULL) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_s),
        cmocka_unit_test(test_d),
        cmocka_unit_test(test_c),
        cmocka_unit_test(test_z),
        cmocka_unit_test(test_ties_and_streams),
        cmocka_unit_test(test_complex_dot_at_buffer_edges),
        cmocka_unit_test(test_device_scalars),
        cmocka_unit_test(test_handle_across_reset),
        cmocka_unit_test(test_bad_input),
    };
    int failed =
        cmocka_run_group_tests_name("blas1 over unix socket", tests, connect_unix, disconnect);
    failed += cmocka_run_group_tests_name("blas1 over tcp", tests, connect_tcp, disconnect);
    const int rc = th_daemon_stop(&daemon_under_test);
    if (rc != 0) {
        fprintf(stderr, "trnscid exited with %d (expected a clean 0)\n", rc);
        failed++;
    }
    return failed ? 1 : 0;
}
