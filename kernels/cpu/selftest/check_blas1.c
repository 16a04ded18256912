/*
 * check_blas1.c — the self-test's checks of the BLAS Level 1 routines.
 *
 * Shapes: n from 1 to 1031 with the odd sizes and the sizes around
 * multiples of 8, 16, 32 and 64 where vector kernels switch to their tail
 * code; increments 1, 2, 3 for the routines of x alone (the kernels call
 * them with incx > 0 only) and pairs with negative increments, and 0 for x
 * where x is only read, for the others.
 *
 * Bounds (u the unit roundoff, f = 2 for real and 5 for complex
 * arithmetic, which covers one complex product and sum):
 *   axpy, scal, rot: f·u·Σ|terms| per element;
 *   dot: (n+1)·f·u·Σ|x_i||y_i|;  asum: (2n+1)·u·Σ|x_i|;
 *   nrm2: (n+2)·f·u·‖x‖ (also on vectors scaled so that the squares
 *   overflow or underflow: BLAS's nrm2 scales);
 *   copy and swap are exact; i?amax/i?amin are exact indices, the first
 *   one on ties, with |re|+|im| computed in the working precision as BLAS
 *   does.
 *
 * The complex dots are checked with unit increments only: blas1.c calls
 * them with unit increments and computes the strided case itself (OpenBLAS
 * 0.3.21's kernels read one element past x then, on every kernel set).
 */
#include <math.h>
#include <stdio.h>

#include "kernels/cpu/selftest/checks.h"

typedef enum kind {
    K_AXPY,
    K_SCAL,
    K_RSCAL, /* csscal, zdscal: a real scalar on a complex vector */
    K_COPY,
    K_SWAP,
    K_ROT, /* srot, drot, csrot, zdrot: real c and s */
    K_DOT, /* sdot, ddot, cdotu_sub, zdotu_sub */
    K_DOTC,
    K_NRM2,
    K_ASUM,
    K_IAMAX,
    K_IAMIN,
} kind;

#define E(name, k, t)                                                                              \
    { TRN_R_##name, k, t }
static const st_entry table[] = {
    E(cblas_saxpy, K_AXPY, ST_S),     E(cblas_daxpy, K_AXPY, ST_D),
    E(cblas_caxpy, K_AXPY, ST_C),     E(cblas_zaxpy, K_AXPY, ST_Z),
    E(cblas_sscal, K_SCAL, ST_S),     E(cblas_dscal, K_SCAL, ST_D),
    E(cblas_cscal, K_SCAL, ST_C),     E(cblas_zscal, K_SCAL, ST_Z),
    E(cblas_csscal, K_RSCAL, ST_C),   E(cblas_zdscal, K_RSCAL, ST_Z),
    E(cblas_scopy, K_COPY, ST_S),     E(cblas_dcopy, K_COPY, ST_D),
    E(cblas_ccopy, K_COPY, ST_C),     E(cblas_zcopy, K_COPY, ST_Z),
    E(cblas_sswap, K_SWAP, ST_S),     E(cblas_dswap, K_SWAP, ST_D),
    E(cblas_cswap, K_SWAP, ST_C),     E(cblas_zswap, K_SWAP, ST_Z),
    E(cblas_srot, K_ROT, ST_S),       E(cblas_drot, K_ROT, ST_D),
    E(cblas_csrot, K_ROT, ST_C),      E(cblas_zdrot, K_ROT, ST_Z),
    E(cblas_sdot, K_DOT, ST_S),       E(cblas_ddot, K_DOT, ST_D),
    E(cblas_cdotu_sub, K_DOT, ST_C),  E(cblas_zdotu_sub, K_DOT, ST_Z),
    E(cblas_cdotc_sub, K_DOTC, ST_C), E(cblas_zdotc_sub, K_DOTC, ST_Z),
    E(cblas_snrm2, K_NRM2, ST_S),     E(cblas_dnrm2, K_NRM2, ST_D),
    E(cblas_scnrm2, K_NRM2, ST_C),    E(cblas_dznrm2, K_NRM2, ST_Z),
    E(cblas_sasum, K_ASUM, ST_S),     E(cblas_dasum, K_ASUM, ST_D),
    E(cblas_scasum, K_ASUM, ST_C),    E(cblas_dzasum, K_ASUM, ST_Z),
    E(cblas_isamax, K_IAMAX, ST_S),   E(cblas_idamax, K_IAMAX, ST_D),
    E(cblas_icamax, K_IAMAX, ST_C),   E(cblas_izamax, K_IAMAX, ST_Z),
    E(cblas_isamin, K_IAMIN, ST_S),   E(cblas_idamin, K_IAMIN, ST_D),
    E(cblas_icamin, K_IAMIN, ST_C),   E(cblas_izamin, K_IAMIN, ST_Z),
};
#undef E

static const int sizes[] = {1,  2,  3,  4,  5,  7,   8,   9,   15,  16,  17,  23,  31,  32,   33,
                            37, 47, 63, 64, 65, 100, 127, 128, 129, 255, 256, 257, 511, 1000, 1031};
#define NSIZES ((int)(sizeof(sizes) / sizeof(sizes[0])))

/* Increment pairs (incx, incy) of the routines of two vectors. */
static const int incs2[][2] = {{1, 1}, {2, 3}, {-1, 1}, {1, -2}, {-3, -1}, {0, 1}};
#define NINCS2 ((int)(sizeof(incs2) / sizeof(incs2[0])))

/* A scalar of the case: 0 now and then (a quick return must leave y as it
 * was), else random. */
static st_lc case_scalar(st_check *c, st_type t, int zero) {
    if (zero)
        return st_lc_make(0, 0);
    return st_lc_make(st_rand(c), st_is_cx(t) ? st_rand(c) : 0);
}

/* ---- axpy, scal, copy, swap, rot ---------------------------------------------------- */

static void call_axpy(st_check *c, st_type t, int n, st_lc alpha, const st_vec *x, st_vec *y) {
    const st_scalar a = st_scalar_of(t, alpha);
    switch (t) {
    case ST_S:
        ((__typeof__(&cblas_saxpy))c->fn)(n, a.s, (const float *)x->p, x->inc, (float *)y->p,
                                          y->inc);
        break;
    case ST_D:
        ((__typeof__(&cblas_daxpy))c->fn)(n, a.d, (const double *)x->p, x->inc, (double *)y->p,
                                          y->inc);
        break;
    case ST_C: ((__typeof__(&cblas_caxpy))c->fn)(n, a.c, x->p, x->inc, y->p, y->inc); break;
    case ST_Z: ((__typeof__(&cblas_zaxpy))c->fn)(n, a.z, x->p, x->inc, y->p, y->inc); break;
    }
}

static void check_axpy(st_check *c, st_type t) {
    const long double u = st_unit(t), f = st_factor(t);
    for (int s = 0; s < NSIZES; s++)
        for (int k = 0; k < NINCS2; k++) {
            const int n = sizes[s], incx = incs2[k][0], incy = incs2[k][1];
            const int zero = (s + k) % 7 == 3;
            st_case(c, "n=%d incx=%d incy=%d alpha=%s", n, incx, incy, zero ? "0" : "random");
            st_vec x, y;
            if (st_vec_make(c, 0, &x, t, n, incx) || st_vec_make(c, 1, &y, t, n, incy))
                continue;
            const st_lc alpha = st_rounded(t, case_scalar(c, t, zero));
            call_axpy(c, t, n, alpha, &x, &y);
            st_lc *want = st_alloc(c, sizeof(st_lc) * (size_t)n);
            long double *bound = st_alloc(c, sizeof(long double) * (size_t)n);
            for (int i = 0; i < n; i++) {
                const st_lc xi = st_vec_at(&x, i), yi = st_vec_at(&y, i);
                want[i] = st_add(st_mul(alpha, xi), yi);
                bound[i] = f * u * (st_abs(alpha) * st_abs(xi) + st_abs(yi));
            }
            st_vec_check(c, "y", &y, want, bound);
            st_vec_unchanged(c, "x", &x);
        }
}

static void call_scal(st_check *c, st_type t, kind k, int n, st_lc alpha, st_vec *x) {
    const st_scalar a = st_scalar_of(t, alpha);
    if (k == K_RSCAL) {
        if (t == ST_C)
            ((__typeof__(&cblas_csscal))c->fn)(n, (float)alpha.re, x->p, x->inc);
        else
            ((__typeof__(&cblas_zdscal))c->fn)(n, (double)alpha.re, x->p, x->inc);
        return;
    }
    switch (t) {
    case ST_S: ((__typeof__(&cblas_sscal))c->fn)(n, a.s, (float *)x->p, x->inc); break;
    case ST_D: ((__typeof__(&cblas_dscal))c->fn)(n, a.d, (double *)x->p, x->inc); break;
    case ST_C: ((__typeof__(&cblas_cscal))c->fn)(n, a.c, x->p, x->inc); break;
    case ST_Z: ((__typeof__(&cblas_zscal))c->fn)(n, a.z, x->p, x->inc); break;
    }
}

static void check_scal(st_check *c, st_type t, kind k) {
    const long double u = st_unit(t), f = st_factor(t);
    const st_type scalar_type = k == K_RSCAL ? (t == ST_C ? ST_S : ST_D) : t;
    for (int s = 0; s < NSIZES; s++)
        for (int incx = 1; incx <= 3; incx++) {
            const int n = sizes[s];
            const int zero = (s + incx) % 7 == 3;
            st_case(c, "n=%d incx=%d alpha=%s", n, incx, zero ? "0" : "random");
            st_vec x;
            if (st_vec_make(c, 0, &x, t, n, incx))
                continue;
            const st_lc alpha = st_rounded(scalar_type, case_scalar(c, scalar_type, zero));
            call_scal(c, t, k, n, alpha, &x);
            st_lc *want = st_alloc(c, sizeof(st_lc) * (size_t)n);
            long double *bound = st_alloc(c, sizeof(long double) * (size_t)n);
            for (int i = 0; i < n; i++) {
                const st_lc xi = st_vec_at(&x, i);
                want[i] = st_mul(alpha, xi);
                bound[i] = f * u * st_abs(alpha) * st_abs(xi);
            }
            st_vec_check(c, "x", &x, want, bound);
        }
}

static void check_copy_swap(st_check *c, st_type t, kind k) {
    for (int s = 0; s < NSIZES; s++)
        for (int p = 0; p < NINCS2; p++) {
            const int n = sizes[s], incx = incs2[p][0], incy = incs2[p][1];
            if (k == K_SWAP && incx == 0)
                continue; /* x is written: a zero increment has no meaning */
            st_case(c, "n=%d incx=%d incy=%d", n, incx, incy);
            st_vec x, y;
            if (st_vec_make(c, 0, &x, t, n, incx) || st_vec_make(c, 1, &y, t, n, incy))
                continue;
            const void *xp = x.p;
            void *yp = y.p;
            if (k == K_COPY) {
                switch (t) {
                case ST_S: ((__typeof__(&cblas_scopy))c->fn)(n, xp, incx, (float *)yp, incy); break;
                case ST_D:
                    ((__typeof__(&cblas_dcopy))c->fn)(n, xp, incx, (double *)yp, incy);
                    break;
                case ST_C: ((__typeof__(&cblas_ccopy))c->fn)(n, xp, incx, yp, incy); break;
                case ST_Z: ((__typeof__(&cblas_zcopy))c->fn)(n, xp, incx, yp, incy); break;
                }
            } else {
                switch (t) {
                case ST_S:
                    ((__typeof__(&cblas_sswap))c->fn)(n, (float *)x.p, incx, (float *)yp, incy);
                    break;
                case ST_D:
                    ((__typeof__(&cblas_dswap))c->fn)(n, (double *)x.p, incx, (double *)yp, incy);
                    break;
                case ST_C: ((__typeof__(&cblas_cswap))c->fn)(n, x.p, incx, yp, incy); break;
                case ST_Z: ((__typeof__(&cblas_zswap))c->fn)(n, x.p, incx, yp, incy); break;
                }
            }
            st_lc *wx = st_alloc(c, sizeof(st_lc) * (size_t)n);
            st_lc *wy = st_alloc(c, sizeof(st_lc) * (size_t)n);
            long double *zero = st_alloc(c, sizeof(long double) * (size_t)n);
            for (int i = 0; i < n; i++) {
                wx[i] = st_vec_at(&y, i);
                wy[i] = st_vec_at(&x, i);
            }
            st_vec_check(c, "y", &y, wy, zero);
            if (k == K_SWAP)
                st_vec_check(c, "x", &x, wx, zero);
            else
                st_vec_unchanged(c, "x", &x);
        }
}

static void check_rot(st_check *c, st_type t) {
    const long double u = st_unit(t), f = st_factor(t);
    const st_type rt = st_csize(t) == 4 ? ST_S : ST_D;
    for (int s = 0; s < NSIZES; s++)
        for (int p = 0; p < NINCS2; p++) {
            const int n = sizes[s], incx = incs2[p][0], incy = incs2[p][1];
            if (incx == 0)
                continue;
            st_case(c, "n=%d incx=%d incy=%d", n, incx, incy);
            st_vec x, y;
            if (st_vec_make(c, 0, &x, t, n, incx) || st_vec_make(c, 1, &y, t, n, incy))
                continue;
            /* A rotation: c = cos θ, s = sin θ, rounded. */
            const double th = 3.14159265358979 * st_rand(c);
            const st_lc cc = st_rounded(rt, st_lc_make(cos(th), 0));
            const st_lc ss = st_rounded(rt, st_lc_make(sin(th), 0));
            switch (t) {
            case ST_S:
                ((__typeof__(&cblas_srot))c->fn)(n, (float *)x.p, incx, (float *)y.p, incy,
                                                 (float)cc.re, (float)ss.re);
                break;
            case ST_D:
                ((__typeof__(&cblas_drot))c->fn)(n, (double *)x.p, incx, (double *)y.p, incy,
                                                 (double)cc.re, (double)ss.re);
                break;
            case ST_C:
                ((__typeof__(&cblas_csrot))c->fn)(n, x.p, incx, y.p, incy, (float)cc.re,
                                                  (float)ss.re);
                break;
            case ST_Z:
                ((__typeof__(&cblas_zdrot))c->fn)(n, x.p, incx, y.p, incy, (double)cc.re,
                                                  (double)ss.re);
                break;
            }
            st_lc *wx = st_alloc(c, sizeof(st_lc) * (size_t)n);
            st_lc *wy = st_alloc(c, sizeof(st_lc) * (size_t)n);
            long double *bx = st_alloc(c, sizeof(long double) * (size_t)n);
            long double *by = st_alloc(c, sizeof(long double) * (size_t)n);
            for (int i = 0; i < n; i++) {
                const st_lc xi = st_vec_at(&x, i), yi = st_vec_at(&y, i);
                wx[i] = st_add(st_mul(cc, xi), st_mul(ss, yi));
                wy[i] = st_sub(st_mul(cc, yi), st_mul(ss, xi));
                const long double m = fabsl(cc.re) * st_abs(xi) + fabsl(ss.re) * st_abs(yi);
                const long double m2 = fabsl(cc.re) * st_abs(yi) + fabsl(ss.re) * st_abs(xi);
                bx[i] = f * u * m;
                by[i] = f * u * m2;
            }
            st_vec_check(c, "x", &x, wx, bx);
            st_vec_check(c, "y", &y, wy, by);
        }
}

/* ---- reductions ----------------------------------------------------------------------- */

static void check_dot(st_check *c, st_type t, int conj) {
    const long double u = st_unit(t), f = st_factor(t);
    for (int s = 0; s < NSIZES; s++)
        for (int p = 0; p < NINCS2; p++) {
            const int n = sizes[s], incx = incs2[p][0], incy = incs2[p][1];
            if (st_is_cx(t) && (incx != 1 || incy != 1))
                continue; /* see the top of the file */
            st_case(c, "n=%d incx=%d incy=%d", n, incx, incy);
            st_vec x, y;
            if (st_vec_make(c, 0, &x, t, n, incx) || st_vec_make(c, 1, &y, t, n, incy))
                continue;
            st_lc got = {0, 0};
            float r32[2] = {0, 0};
            double r64[2] = {0, 0};
            switch (t) {
            case ST_S:
                got.re = ((__typeof__(&cblas_sdot))c->fn)(n, (const float *)x.p, incx,
                                                          (const float *)y.p, incy);
                break;
            case ST_D:
                got.re = ((__typeof__(&cblas_ddot))c->fn)(n, (const double *)x.p, incx,
                                                          (const double *)y.p, incy);
                break;
            case ST_C:
                if (conj)
                    ((__typeof__(&cblas_cdotc_sub))c->fn)(n, x.p, incx, y.p, incy, r32);
                else
                    ((__typeof__(&cblas_cdotu_sub))c->fn)(n, x.p, incx, y.p, incy, r32);
                got = st_lc_make(r32[0], r32[1]);
                break;
            case ST_Z:
                if (conj)
                    ((__typeof__(&cblas_zdotc_sub))c->fn)(n, x.p, incx, y.p, incy, r64);
                else
                    ((__typeof__(&cblas_zdotu_sub))c->fn)(n, x.p, incx, y.p, incy, r64);
                got = st_lc_make(r64[0], r64[1]);
                break;
            }
            st_lc want = {0, 0};
            long double mag = 0;
            for (int i = 0; i < n; i++) {
                st_lc xi = st_vec_at(&x, i);
                const st_lc yi = st_vec_at(&y, i);
                if (conj)
                    xi = st_conj(xi);
                want = st_add(want, st_mul(xi, yi));
                mag += st_abs(xi) * st_abs(yi);
            }
            st_expect(c, "result", got, want, (long double)(n + 1) * f * u * mag);
            st_vec_unchanged(c, "x", &x);
            st_vec_unchanged(c, "y", &y);
        }
}

/* nrm2 and asum of x; `scale` multiplies x by 2^scale first (nrm2). */
static void check_norm(st_check *c, st_type t, kind k) {
    const long double u = st_unit(t), f = st_factor(t);
    const int big = st_csize(t) == 4 ? 70 : 600;
    const int scales[] = {0, big, -big};
    const int nscales = k == K_NRM2 ? 3 : 1;
    for (int s = 0; s < NSIZES; s++)
        for (int incx = 1; incx <= 3; incx++)
            for (int e = 0; e < nscales; e++) {
                const int n = sizes[s];
                if (e > 0 && s % 3 != 0)
                    continue; /* scaled vectors on a third of the sizes */
                st_case(c, "n=%d incx=%d%s%s", n, incx, e ? " elements scaled by 2^" : "",
                        e ? (e == 1 ? (big == 70 ? "70" : "600") : (big == 70 ? "-70" : "-600"))
                          : "");
                st_vec x;
                if (st_vec_make(c, 0, &x, t, n, incx))
                    continue;
                if (scales[e])
                    for (int i = 0; i < n; i++) {
                        const st_lc v = st_vec_at(&x, i);
                        st_vec_set(&x, i,
                                   st_lc_make(ldexpl(v.re, scales[e]), ldexpl(v.im, scales[e])));
                    }
                long double got = 0;
                switch (t) {
                case ST_S:
                    got = k == K_NRM2
                              ? ((__typeof__(&cblas_snrm2))c->fn)(n, (const float *)x.p, incx)
                              : ((__typeof__(&cblas_sasum))c->fn)(n, (const float *)x.p, incx);
                    break;
                case ST_D:
                    got = k == K_NRM2
                              ? ((__typeof__(&cblas_dnrm2))c->fn)(n, (const double *)x.p, incx)
                              : ((__typeof__(&cblas_dasum))c->fn)(n, (const double *)x.p, incx);
                    break;
                case ST_C:
                    got = k == K_NRM2 ? ((__typeof__(&cblas_scnrm2))c->fn)(n, x.p, incx)
                                      : ((__typeof__(&cblas_scasum))c->fn)(n, x.p, incx);
                    break;
                case ST_Z:
                    got = k == K_NRM2 ? ((__typeof__(&cblas_dznrm2))c->fn)(n, x.p, incx)
                                      : ((__typeof__(&cblas_dzasum))c->fn)(n, x.p, incx);
                    break;
                }
                long double want = 0, bound;
                if (k == K_NRM2) {
                    for (int i = 0; i < n; i++) {
                        const st_lc v = st_vec_at(&x, i);
                        want += v.re * v.re + v.im * v.im;
                    }
                    want = sqrtl(want);
                    bound = (long double)(n + 2) * f * u * want;
                } else {
                    for (int i = 0; i < n; i++)
                        want += st_abs1(st_vec_at(&x, i));
                    bound = (long double)(2 * n + 1) * u * want;
                }
                st_expect(c, "result", st_lc_make(got, 0), st_lc_make(want, 0), bound);
                st_vec_unchanged(c, "x", &x);
            }
}

/* |x_i| as BLAS's i?amax compares it: in the working precision. */
static long double blas_abs(st_type t, st_lc v) {
    if (st_csize(t) == 4)
        return (long double)(fabsf((float)v.re) + fabsf((float)v.im));
    return (long double)(fabs((double)v.re) + fabs((double)v.im));
}

static void check_iamax(st_check *c, st_type t, kind k) {
    for (int s = 0; s < NSIZES; s++)
        for (int incx = 1; incx <= 3; incx++)
            for (int ties = 0; ties <= 1; ties++) {
                const int n = sizes[s];
                st_case(c, "n=%d incx=%d%s", n, incx, ties ? " with ties" : "");
                st_vec x;
                if (st_vec_make(c, 0, &x, t, n, incx))
                    continue;
                /* Ties: the extreme element copied to later positions (the
                 * first index must win), and to the last. */
                int best = 0;
                for (int i = 1; i < n; i++) {
                    const long double a = blas_abs(t, st_vec_at(&x, i)),
                                      b = blas_abs(t, st_vec_at(&x, best));
                    if (k == K_IAMAX ? a > b : a < b)
                        best = i;
                }
                if (ties) {
                    const st_lc v = st_vec_at(&x, best);
                    for (int i = best + 1 + s % 5; i < n; i += 7)
                        st_vec_set(&x, i, st_conj(v));
                    if (n > best + 1)
                        st_vec_set(&x, n - 1, v);
                }
                size_t got = 0;
                switch (t) {
                case ST_S:
                    got = k == K_IAMAX
                              ? ((__typeof__(&cblas_isamax))c->fn)(n, (const float *)x.p, incx)
                              : ((__typeof__(&cblas_isamin))c->fn)(n, (const float *)x.p, incx);
                    break;
                case ST_D:
                    got = k == K_IAMAX
                              ? ((__typeof__(&cblas_idamax))c->fn)(n, (const double *)x.p, incx)
                              : ((__typeof__(&cblas_idamin))c->fn)(n, (const double *)x.p, incx);
                    break;
                case ST_C:
                    got = k == K_IAMAX ? ((__typeof__(&cblas_icamax))c->fn)(n, x.p, incx)
                                       : ((__typeof__(&cblas_icamin))c->fn)(n, x.p, incx);
                    break;
                case ST_Z:
                    got = k == K_IAMAX ? ((__typeof__(&cblas_izamax))c->fn)(n, x.p, incx)
                                       : ((__typeof__(&cblas_izamin))c->fn)(n, x.p, incx);
                    break;
                }
                st_expect_int(c, "index", (long long)got, best);
                st_vec_unchanged(c, "x", &x);
            }
}

void st_check_blas1(st_check *c) {
    const st_entry *e = st_find_entry(table, sizeof(table) / sizeof(table[0]), c->id);
    if (!e)
        return;
    const st_type t = e->t;
    switch ((kind)e->kind) {
    case K_AXPY: check_axpy(c, t); break;
    case K_SCAL:
    case K_RSCAL: check_scal(c, t, (kind)e->kind); break;
    case K_COPY:
    case K_SWAP: check_copy_swap(c, t, (kind)e->kind); break;
    case K_ROT: check_rot(c, t); break;
    case K_DOT: check_dot(c, t, 0); break;
    case K_DOTC: check_dot(c, t, 1); break;
    case K_NRM2:
    case K_ASUM: check_norm(c, t, (kind)e->kind); break;
    case K_IAMAX:
    case K_IAMIN: check_iamax(c, t, (kind)e->kind); break;
    }
}
