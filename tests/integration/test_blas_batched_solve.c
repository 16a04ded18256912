/*
 * test_blas_batched_solve.c — trnblas's batched QR and triangular solves
 * (geqrfBatched, gelsBatched, trsmBatched) in S, D, C and Z, and the grouped
 * GEMMs (gemmGroupedBatched, its _64 form, GemmGroupedBatchedEx) in S and D, through a real
 * trnscid (two cores, so batches are split) over the local transport and
 * gRPC over TCP, against error bounds computed in long double and LAPACK in
 * double (LAPACKE_zgeqrf / zgels on the data promoted to double complex),
 * plus bad input with cuBLAS's statuses and host info.
 *
 * Each matrix (and tau vector) has its own allocation at an element offset
 * with padding that must come back bitwise unchanged (solver_test.h); the
 * pointer arrays live in device memory, as cuBLAS requires. u is the type's
 * unit roundoff, gamma_k = k u / (1 - k u), doubled for complex arithmetic
 * (cgam, as test_blas_lu.c). Bounds (Higham, Accuracy and Stability of
 * Numerical Algorithms, 2nd ed.):
 *  - geqrf (Thm 19.4): the exactly unitary Q of the computed Householder
 *    vectors satisfies ||A - Q R||_F <= sqrt(n) gamma~_mn ||A||_F; taken as
 *    4 gamma_mn sqrt(n) ||A||_F (cgam), with Q formed here in long double
 *    from the returned vectors and scalars, whose own departure from
 *    unitarity ||Q^H Q - I||_F is bounded by 4 gamma_{k m} sqrt(m) (each
 *    reflector's tau is within a few u of 2 / v^H v).
 *  - R against LAPACK's in double (m >= n): both are the R of matrices
 *    within the backward errors above of A, so by first-order QR
 *    perturbation (Sun 1991) ||R - R_ref||_F <= 2 sqrt(2) kappa_F(A) eps_b
 *    ||A||_F, with eps_b the sum of both backward bounds and kappa_F =
 *    ||R_ref||_F ||R_ref^-1||_F >= kappa_2 (factor 2 for the second order).
 *  - gels against LAPACK's zgels in double: both are exact least squares
 *    solutions of data perturbed by eps_b (Thm 20.3), so by Wedin's bound
 *    (Higham Thm 20.1) ||X - X_ref||_F <= 2 kappa eps_b (2 + (kappa + 1)
 *    ||r||_F / (||A||_F ||X_ref||_F)) ||X_ref||_F, kappa = kappa_F.
 *  - trsm (Thm 8.5, per column): (T + dT) x = alpha b with |dT| <= gamma_n
 *    |T|, so ||op(A) X - alpha B||_F <= cgam(k) || |op(A)| |X| ||_F + 2 u
 *    ||alpha B||_F (alpha B rounded once), k the order of A.
 * The worst ratio of each check to its bound is printed at the end.
 */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include <lapacke.h>

#include "harness.h"
#include "solver_test.h"
#include "trnsci/trnblas.h"

static th_daemon daemon_under_test;

/* trnblas<S|D|C|Z><fn>(args) by the type; arrays are passed as void *. */
#define BL_CALL(t, fn, ...)                                                                        \
    ((t) == TY_S   ? trnblasS##fn(__VA_ARGS__)                                                     \
     : (t) == TY_D ? trnblasD##fn(__VA_ARGS__)                                                     \
     : (t) == TY_C ? trnblasC##fn(__VA_ARGS__)                                                     \
                   : trnblasZ##fn(__VA_ARGS__))

static long double cgam(ty t, long double k) {
    return is_complex(t) ? 2.0L * st_gamma(t, k + 1) : st_gamma(t, k);
}

static void check(ty t, const char *what, long double err, long double bound) {
    char name[80];
    snprintf(name, sizeof(name), "%s %s", ty_name[t], what);
    const long double ratio = bound > 0 ? err / bound : err;
    st_note(name, ratio, 1.0L);
    if (!(err <= bound))
        fail_msg("%s: error %Lg exceeds its bound %Lg", name, err, bound);
}

/* ---- batches ------------------------------------------------------------------------ */

static void *pointer_array(st_mat *m, int count) {
    void **host = calloc((size_t)(count > 0 ? count : 1), sizeof(void *));
    assert_non_null(host);
    for (int i = 0; i < count; i++)
        host[i] = st_ptr(&m[i]);
    void *dev = NULL;
    const size_t bytes = (size_t)(count > 0 ? count : 1) * sizeof(void *);
    assert_int_equal(trnsciMalloc(&dev, bytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dev, host, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    free(host);
    return dev;
}

/* count rows x cols matrices with leading dimension ld, random (or with
 * `a` for every matrix when given), uploaded, and their pointer array. */
typedef struct batch {
    int count;
    st_mat *m;
    lcplx **a0; /* what was uploaded, rows x cols each */
    void *arr;
} batch;

static void batch_make(batch *b, ty t, int rows, int cols, int ld, int count) {
    b->count = count;
    b->m = calloc((size_t)count, sizeof(st_mat));
    b->a0 = calloc((size_t)count, sizeof(lcplx *));
    assert_true(b->m && b->a0);
    for (int i = 0; i < count; i++) {
        st_alloc(&b->m[i], t, rows, cols, ld);
        for (int j = 0; j < cols; j++)
            for (int r = 0; r < rows; r++)
                st_set(&b->m[i], r, j, st_random(t));
    }
}

static void batch_upload(batch *b) {
    for (int i = 0; i < b->count; i++) {
        st_upload(&b->m[i]);
        b->a0[i] = st_take(&b->m[i]);
    }
    b->arr = pointer_array(b->m, b->count);
}

static void batch_free(batch *b) {
    for (int i = 0; i < b->count; i++) {
        st_free(&b->m[i]);
        free(b->a0[i]);
    }
    free(b->m);
    free(b->a0);
    assert_int_equal(trnsciFree(b->arr), trnsciSuccess);
}

/* ---- references ---------------------------------------------------------------------- */

/* LAPACK's zgeqrf on a (rows x cols) promoted to double complex: R (rows x
 * cols, upper part) into r. */
static void ref_geqrf(int m, int n, const lcplx *a, lcplx *r) {
    lapack_complex_double *w = calloc((size_t)m * (size_t)n + 1, sizeof(*w));
    lapack_complex_double *tau = calloc((size_t)(m < n ? m : n) + 1, sizeof(*tau));
    assert_true(w && tau);
    for (size_t i = 0; i < (size_t)m * (size_t)n; i++)
        w[i] = (double)creall(a[i]) + I * (double)cimagl(a[i]);
    assert_int_equal(LAPACKE_zgeqrf(LAPACK_COL_MAJOR, m, n, w, m > 1 ? m : 1, tau), 0);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            r[(size_t)j * m + i] = i <= j ? (lcplx)w[(size_t)j * m + i] : 0;
    free(w);
    free(tau);
}

/* ||R||_F ||R^-1||_F of the leading n x n upper triangle of r (ld m). */
static long double kappa_upper(int m, int n, const lcplx *r) {
    lcplx *inv = st_lmat(n, n);
    for (int c = 0; c < n; c++) /* R x = e_c */
        for (int i = n - 1; i >= 0; i--) {
            lcplx s = i == c ? 1 : 0;
            for (int k = i + 1; k < n; k++)
                s -= r[(size_t)k * m + i] * inv[(size_t)c * n + k];
            inv[(size_t)c * n + i] = s / r[(size_t)i * m + i];
        }
    long double nr = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= j; i++)
            nr += creall(r[(size_t)j * m + i] * conjl(r[(size_t)j * m + i]));
    const long double k = sqrtl(nr) * st_lfro(n, n, inv);
    free(inv);
    return k;
}

/* ---- geqrfBatched ---------------------------------------------------------------------- */

static void geqrf_case(trnblasHandle_t h, ty t, int m, int n, int count) {
    const int k = m < n ? m : n, lda = m + 2;
    batch a, tau;
    batch_make(&a, t, m, n, lda, count);
    batch_upload(&a);
    batch_make(&tau, t, k, 1, k > 0 ? k : 1, count);
    for (int i = 0; i < count; i++)
        for (int r = 0; r < k; r++)
            st_set(&tau.m[i], r, 0, 0);
    batch_upload(&tau);
    int info = 12345;
    assert_int_equal(BL_CALL(t, geqrfBatched, h, m, n, a.arr, lda, tau.arr, &info, count),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(info, 0);
    const long double u = st_u(t);
    for (int b = 0; b < count; b++) {
        void *ha = st_download(&a.m[b], NULL, NULL);
        void *ht = st_download(&tau.m[b], NULL, NULL);
        const lcplx *a0 = a.a0[b];
        /* Q = H_1 ... H_k, H_i = I - tau_i v_i v_i^H, in long double. */
        lcplx *q = st_lmat(m, m), *v = st_lmat(m, 1);
        for (int i = 0; i < m; i++)
            q[(size_t)i * m + i] = 1;
        for (int i = k - 1; i >= 0; i--) {
            for (int r = 0; r < m; r++)
                v[r] = r < i ? 0 : r == i ? 1 : st_got(&a.m[b], ha, r, i);
            const lcplx ti = st_got(&tau.m[b], ht, i, 0);
            for (int j = 0; j < m; j++) { /* q = H_i q, column j */
                lcplx s = 0;
                for (int r = 0; r < m; r++)
                    s += conjl(v[r]) * q[(size_t)j * m + r];
                for (int r = 0; r < m; r++)
                    q[(size_t)j * m + r] -= ti * v[r] * s;
            }
        }
        lcplx *r = st_lmat(m, n), *qr = st_lmat(m, n), *qq = st_lmat(m, m);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++)
                r[(size_t)j * m + i] = i <= j ? st_got(&a.m[b], ha, i, j) : 0;
        st_lmul(m, n, m, q, 0, r, qr);
        for (size_t e = 0; e < (size_t)m * (size_t)n; e++)
            qr[e] -= a0[e];
        const long double na = st_lfro(m, n, a0);
        const long double back = 4.0L * cgam(t, (long double)m * n) * sqrtl((long double)n);
        check(t, "geqrf ||A - QR||", st_lfro(m, n, qr), back * na);
        st_lmul(m, m, m, q, 1, q, qq);
        for (int i = 0; i < m; i++)
            qq[(size_t)i * m + i] -= 1;
        check(t, "geqrf ||Q^H Q - I||", st_lfro(m, m, qq),
              4.0L * cgam(t, (long double)k * m) * sqrtl((long double)m) + 4.0L * u);
        if (m >= n && n > 0) {
            lcplx *rr = st_lmat(m, n);
            ref_geqrf(m, n, a0, rr);
            const long double kap = kappa_upper(m, n, rr);
            const long double eps_b = back + 4.0L * 2.0L * m * n * ldexpl(1.0L, -53);
            for (size_t e = 0; e < (size_t)m * (size_t)n; e++)
                rr[e] -= r[e];
            check(t, "geqrf R vs LAPACK", st_lfro(m, n, rr), 2.0L * sqrtl(2.0L) * kap * eps_b * na);
            free(rr);
        }
        free(q);
        free(v);
        free(r);
        free(qr);
        free(qq);
        free(ha);
        free(ht);
    }
    batch_free(&a);
    batch_free(&tau);
}

static void test_geqrf(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    static const int shapes[][2] = {{6, 4}, {4, 6}, {5, 5}, {1, 3}, {9, 1}};
    for (size_t ti = 0; ti < 4; ti++)
        for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
            geqrf_case(h, all_types[ti], shapes[s][0], shapes[s][1], 5);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* ---- gelsBatched ----------------------------------------------------------------------- */

/* Matrix `rank_deficient` of the batch (or -1 for none) gets a zero first
 * column, so R(1,1) is exactly zero: devInfoArray reports 1. */
static void gels_case(trnblasHandle_t h, ty t, int m, int n, int nrhs, int count,
                      int rank_deficient) {
    const int lda = m + 1, ldc = m + 3;
    batch a, c;
    batch_make(&a, t, m, n, lda, count);
    if (rank_deficient >= 0)
        for (int r = 0; r < m; r++)
            st_set(&a.m[rank_deficient], r, 0, 0);
    batch_upload(&a);
    batch_make(&c, t, m, nrhs, ldc, count);
    batch_upload(&c);
    int *dinfo = st_info_alloc(count);
    int info = 12345;
    assert_int_equal(BL_CALL(t, gelsBatched, h, TRNBLAS_OP_N, m, n, nrhs, a.arr, lda, c.arr, ldc,
                             &info, dinfo, count),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(info, 0);
    int *hinfo = calloc((size_t)count, sizeof(int));
    assert_non_null(hinfo);
    assert_int_equal(
        trnsciMemcpy(hinfo, dinfo, (size_t)count * sizeof(int), trnsciMemcpyDeviceToHost),
        trnsciSuccess);
    for (int b = 0; b < count; b++) {
        void *hc = st_download(&c.m[b], NULL, NULL);
        free(st_download(&a.m[b], NULL, NULL)); /* padding untouched */
        if (b == rank_deficient) {
            assert_int_equal(hinfo[b], 1);
            free(hc);
            continue;
        }
        assert_int_equal(hinfo[b], 0);
        const lcplx *a0 = a.a0[b], *c0 = c.a0[b];
        /* LAPACK's zgels in double. */
        lapack_complex_double *wa = calloc((size_t)m * n + 1, sizeof(*wa));
        lapack_complex_double *wc = calloc((size_t)m * nrhs + 1, sizeof(*wc));
        assert_true(wa && wc);
        for (size_t e = 0; e < (size_t)m * n; e++)
            wa[e] = (double)creall(a0[e]) + I * (double)cimagl(a0[e]);
        for (size_t e = 0; e < (size_t)m * nrhs; e++)
            wc[e] = (double)creall(c0[e]) + I * (double)cimagl(c0[e]);
        assert_int_equal(LAPACKE_zgels(LAPACK_COL_MAJOR, 'N', m, n, nrhs, wa, m, wc, m), 0);
        lcplx *rr = st_lmat(m, n);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++)
                rr[(size_t)j * m + i] = i <= j ? (lcplx)wa[(size_t)j * m + i] : 0;
        const long double kap = kappa_upper(m, n, rr);
        lcplx *x = st_lmat(n, nrhs), *xr = st_lmat(n, nrhs), *res = st_lmat(m, nrhs);
        for (int j = 0; j < nrhs; j++)
            for (int i = 0; i < n; i++) {
                x[(size_t)j * n + i] = st_got(&c.m[b], hc, i, j);
                xr[(size_t)j * n + i] = wc[(size_t)j * m + i];
            }
        st_lmul(m, nrhs, n, a0, 0, xr, res); /* r = C - A X_ref */
        for (size_t e = 0; e < (size_t)m * nrhs; e++)
            res[e] = c0[e] - res[e];
        const long double na = st_lfro(m, n, a0), nx = st_lfro(n, nrhs, xr);
        const long double eps_b = 4.0L * cgam(t, (long double)m * n) * sqrtl((long double)n) +
                                  8.0L * m * n * ldexpl(1.0L, -53);
        const long double wedin =
            2.0L * kap * eps_b * (2.0L + (kap + 1.0L) * st_lfro(m, nrhs, res) / (na * nx)) * nx;
        for (size_t e = 0; e < (size_t)n * nrhs; e++)
            x[e] -= xr[e];
        check(t, "gels X vs LAPACK", st_lfro(n, nrhs, x), wedin);
        free(wa);
        free(wc);
        free(rr);
        free(x);
        free(xr);
        free(res);
        free(hc);
    }
    free(hinfo);
    assert_int_equal(trnsciFree(dinfo), trnsciSuccess);
    batch_free(&a);
    batch_free(&c);
}

static void test_gels(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    for (size_t ti = 0; ti < 4; ti++) {
        const ty t = all_types[ti];
        gels_case(h, t, 6, 4, 2, 5, -1);
        gels_case(h, t, 5, 5, 3, 4, -1);
        gels_case(h, t, 9, 2, 1, 3, 1);
    }
    /* devInfoArray is optional. */
    batch a, c;
    batch_make(&a, TY_D, 4, 2, 4, 2);
    batch_upload(&a);
    batch_make(&c, TY_D, 4, 1, 4, 2);
    batch_upload(&c);
    int info = 7;
    assert_int_equal(
        trnblasDgelsBatched(h, TRNBLAS_OP_N, 4, 2, 1, a.arr, 4, c.arr, 4, &info, NULL, 2),
        TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(info, 0);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    batch_free(&a);
    batch_free(&c);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* ---- trsmBatched ----------------------------------------------------------------------- */

static void trsm_case(trnblasHandle_t h, ty t, trnblasSideMode_t side, trnblasFillMode_t uplo,
                      trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n, int count,
                      int device_alpha) {
    const int k = side == TRNBLAS_SIDE_LEFT ? m : n, lda = k + 1, ldb = m + 2;
    batch a, b;
    batch_make(&a, t, k, k, lda, count);
    for (int i = 0; i < count; i++) /* well conditioned: a dominant diagonal */
        for (int d = 0; d < k; d++)
            st_set(&a.m[i], d, d, st_random(t) + 2.0L * k);
    batch_upload(&a);
    batch_make(&b, t, m, n, ldb, count);
    batch_upload(&b);
    /* device_alpha: 1 reads alpha from device memory; 2 is a host alpha of 0. */
    const lcplx alpha = device_alpha == 2 ? 0 : is_complex(t) ? 0.5L + 0.25L * I : -0.75L;
    unsigned char halpha[16] = {0};
    put(t, halpha, 0, alpha);
    void *dalpha = NULL;
    const void *ap = halpha;
    if (device_alpha == 1) {
        assert_int_equal(trnsciMalloc(&dalpha, 16), trnsciSuccess);
        assert_int_equal(trnsciMemcpy(dalpha, halpha, 16, trnsciMemcpyHostToDevice), trnsciSuccess);
        assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_DEVICE),
                         TRNBLAS_STATUS_SUCCESS);
        ap = dalpha;
    }
    assert_int_equal(BL_CALL(t, trsmBatched, h, side, uplo, trans, diag, m, n, ap, a.arr, lda,
                             b.arr, ldb, count),
                     TRNBLAS_STATUS_SUCCESS);
    if (device_alpha == 1)
        assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_HOST),
                         TRNBLAS_STATUS_SUCCESS);
    /* alpha as the routine sees it (rounded to the type). */
    const lcplx al = get(t, halpha, 0);
    for (int i = 0; i < count; i++) {
        st_untouched(&a.m[i]);
        void *hb = st_download(&b.m[i], NULL, NULL);
        /* op(A) as a dense k x k matrix: the uplo triangle, unit diagonal
         * when diag says so (whatever is stored there). */
        lcplx *op = st_lmat(k, k);
        for (int c = 0; c < k; c++)
            for (int r = 0; r < k; r++) {
                const int in = uplo == TRNBLAS_FILL_MODE_UPPER ? r <= c : r >= c;
                lcplx v = !in                                   ? 0
                          : r == c && diag == TRNBLAS_DIAG_UNIT ? 1
                                                                : a.a0[i][(size_t)c * k + r];
                if (trans == TRNBLAS_OP_N)
                    op[(size_t)c * k + r] = v;
                else
                    op[(size_t)r * k + c] = trans == TRNBLAS_OP_C ? conjl(v) : v;
            }
        lcplx *x = st_lmat(m, n), *lhs = st_lmat(m, n);
        for (int c = 0; c < n; c++)
            for (int r = 0; r < m; r++)
                x[(size_t)c * m + r] = st_got(&b.m[i], hb, r, c);
        long double abs_s = 0;
        for (int c = 0; c < n; c++)
            for (int r = 0; r < m; r++) {
                lcplx s = 0;
                long double as = 0;
                for (int l = 0; l < k; l++) {
                    const lcplx p = side == TRNBLAS_SIDE_LEFT
                                        ? op[(size_t)l * k + r] * x[(size_t)c * m + l]
                                        : x[(size_t)l * m + r] * op[(size_t)c * k + l];
                    s += p;
                    as += cabsl(p);
                }
                lhs[(size_t)c * m + r] = s - al * b.a0[i][(size_t)c * m + r];
                abs_s += as * as;
            }
        long double nab = 0;
        for (size_t e = 0; e < (size_t)m * n; e++)
            nab += powl(cabsl(al * b.a0[i][e]), 2);
        check(t, "trsm residual", st_lfro(m, n, lhs),
              cgam(t, k) * sqrtl(abs_s) + 2.0L * st_u(t) * sqrtl(nab));
        free(op);
        free(x);
        free(lhs);
        free(hb);
    }
    if (dalpha)
        assert_int_equal(trnsciFree(dalpha), trnsciSuccess);
    batch_free(&a);
    batch_free(&b);
}

static void test_trsm(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    static const trnblasOperation_t ops[] = {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C};
    int which = 0;
    for (size_t ti = 0; ti < 4; ti++)
        for (int side = 0; side < 2; side++)
            for (int up = 0; up < 2; up++)
                for (int o = 0; o < 3; o++)
                    for (int unit = 0; unit < 2; unit++, which++)
                        trsm_case(h, all_types[ti], side ? TRNBLAS_SIDE_RIGHT : TRNBLAS_SIDE_LEFT,
                                  up ? TRNBLAS_FILL_MODE_UPPER : TRNBLAS_FILL_MODE_LOWER, ops[o],
                                  unit ? TRNBLAS_DIAG_UNIT : TRNBLAS_DIAG_NON_UNIT, 5, 3, 3,
                                  which % 7 == 0);
    /* Batches of 1000 4 x 4 systems: one op, split over the daemon's cores. */
    for (size_t ti = 0; ti < 4; ti++)
        trsm_case(h, all_types[ti], ti % 2 ? TRNBLAS_SIDE_RIGHT : TRNBLAS_SIDE_LEFT,
                  ti < 2 ? TRNBLAS_FILL_MODE_UPPER : TRNBLAS_FILL_MODE_LOWER, ops[ti % 3],
                  TRNBLAS_DIAG_NON_UNIT, 4, 4, 1000, ti == 3);
    /* alpha = 0: every B_i becomes 0 without A being read. */
    trsm_case(h, TY_D, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N,
              TRNBLAS_DIAG_NON_UNIT, 3, 2, 2, 2);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* ---- bad input --------------------------------------------------------------------------- */

/* A macro, so a failure names the caller's line. */
#define expect_status(got, want, needle)                                                           \
    do {                                                                                           \
        assert_int_equal((got), (want));                                                           \
        if (needle)                                                                                \
            st_expect_message(needle);                                                             \
    } while (0)

static void test_bad_input(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    batch a, c, tau;
    batch_make(&a, TY_D, 4, 3, 4, 2);
    batch_upload(&a);
    batch_make(&c, TY_D, 4, 2, 4, 2);
    batch_upload(&c);
    batch_make(&tau, TY_D, 3, 1, 3, 2);
    batch_upload(&tau);
    const double one = 1.0;
    int info = 0;
    const trnblasStatus_t INV = TRNBLAS_STATUS_INVALID_VALUE, NS = TRNBLAS_STATUS_NOT_SUPPORTED,
                          OK = TRNBLAS_STATUS_SUCCESS;

    /* geqrfBatched: info = -j for argument j counting from m. */
    expect_status(trnblasDgeqrfBatched(h, -1, 3, a.arr, 4, tau.arr, &info, 2), INV, "m=");
    assert_int_equal(info, -1);
    expect_status(trnblasDgeqrfBatched(h, 4, -3, a.arr, 4, tau.arr, &info, 2), INV, "n=");
    assert_int_equal(info, -2);
    expect_status(trnblasDgeqrfBatched(h, 4, 3, a.arr, 3, tau.arr, &info, 2), INV, "lda");
    assert_int_equal(info, -4);
    expect_status(trnblasDgeqrfBatched(h, 4, 3, a.arr, 4, tau.arr, &info, -1), INV, "batchSize");
    assert_int_equal(info, -7);
    expect_status(trnblasDgeqrfBatched(h, 4, 3, a.arr, 4, tau.arr, &info, 0), OK, NULL);
    assert_int_equal(info, 0);
    expect_status(trnblasDgeqrfBatched(NULL, 4, 3, a.arr, 4, tau.arr, &info, 2),
                  TRNBLAS_STATUS_NOT_INITIALIZED, NULL);
    /* gelsBatched: info = -j counting from trans; NOT_SUPPORTED cases. */
    expect_status(trnblasDgelsBatched(h, TRNBLAS_OP_T, 4, 3, 2, a.arr, 4, c.arr, 4, &info, NULL, 2),
                  NS, "trans");
    assert_int_equal(info, -1);
    expect_status(trnblasDgelsBatched(h, TRNBLAS_OP_N, 3, 4, 2, a.arr, 4, c.arr, 4, &info, NULL, 2),
                  NS, "m=3 < n=4");
    assert_int_equal(info, -2);
    expect_status(
        trnblasDgelsBatched(h, (trnblasOperation_t)9, 4, 3, 2, a.arr, 4, c.arr, 4, &info, NULL, 2),
        INV, "trans");
    assert_int_equal(info, -1);
    expect_status(
        trnblasDgelsBatched(h, TRNBLAS_OP_N, 4, 3, -2, a.arr, 4, c.arr, 4, &info, NULL, 2), INV,
        "nrhs");
    assert_int_equal(info, -4);
    expect_status(trnblasDgelsBatched(h, TRNBLAS_OP_N, 4, 3, 2, a.arr, 3, c.arr, 4, &info, NULL, 2),
                  INV, "lda");
    assert_int_equal(info, -6);
    expect_status(trnblasDgelsBatched(h, TRNBLAS_OP_N, 4, 3, 2, a.arr, 4, c.arr, 3, &info, NULL, 2),
                  INV, "ldc");
    assert_int_equal(info, -8);
    expect_status(
        trnblasDgelsBatched(h, TRNBLAS_OP_N, 4, 3, 2, a.arr, 4, c.arr, 4, &info, NULL, -3), INV,
        "batchSize");
    assert_int_equal(info, -11);
    expect_status(trnblasDgelsBatched(h, TRNBLAS_OP_N, 4, 3, 2, a.arr, 4, c.arr, 4, &info, NULL, 0),
                  OK, NULL);
    assert_int_equal(info, 0);
    /* trsmBatched: trsm's rules, batchCount. */
    expect_status(trnblasDtrsmBatched(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N,
                                      TRNBLAS_DIAG_NON_UNIT, 3, 2, &one, a.arr, 2, c.arr, 4, 2),
                  INV, "lda");
    expect_status(trnblasDtrsmBatched(h, (trnblasSideMode_t)7, TRNBLAS_FILL_MODE_UPPER,
                                      TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, 3, 2, &one, a.arr, 4,
                                      c.arr, 4, 2),
                  INV, "side");
    expect_status(trnblasDtrsmBatched(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N,
                                      TRNBLAS_DIAG_NON_UNIT, 3, 2, &one, a.arr, 4, c.arr, 4, -1),
                  INV, "batchCount");
    expect_status(trnblasDtrsmBatched(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N,
                                      TRNBLAS_DIAG_NON_UNIT, 3, 2, &one, a.arr, 4, c.arr, 4, 0),
                  OK, NULL);
    expect_status(trnblasDtrsmBatched(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N,
                                      TRNBLAS_DIAG_NON_UNIT, 3, 2, NULL, a.arr, 4, c.arr, 4, 2),
                  INV, NULL);

    /* trsmBatched_64: values beyond int are NOT_SUPPORTED naming them;
     * others are trsmBatched's (here a batch of 0 and a bad lda). */
    expect_status(trnblasDtrsmBatched_64(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER,
                                         TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, (int64_t)1 << 31, 2,
                                         &one, a.arr, 4, c.arr, 4, 2),
                  NS, "m = 2147483648");
    expect_status(trnblasDtrsmBatched_64(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER,
                                         TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, 3, 2, &one, a.arr, 2,
                                         c.arr, 4, 2),
                  INV, "lda");
    expect_status(trnblasDtrsmBatched_64(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER,
                                         TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, 3, 2, &one, a.arr, 4,
                                         c.arr, 4, 0),
                  OK, NULL);

    /* Pointer arrays with a bad device pointer: a host address, NULL, one
     * running past its allocation. Nothing is written. */
    void *bad[2];
    void *dev_bad = NULL;
    assert_int_equal(trnsciMalloc(&dev_bad, sizeof(bad)), trnsciSuccess);
    double host_matrix[16];
#define SET(p0, p1)                                                                                \
    do {                                                                                           \
        bad[0] = (p0);                                                                             \
        bad[1] = (p1);                                                                             \
        assert_int_equal(trnsciMemcpy(dev_bad, bad, sizeof(bad), trnsciMemcpyHostToDevice),        \
                         trnsciSuccess);                                                           \
    } while (0)
    SET(st_ptr(&tau.m[0]), host_matrix);
    expect_status(trnblasDgeqrfBatched(h, 4, 3, a.arr, 4, dev_bad, &info, 2), INV, "TauArray[1]");
    SET(NULL, st_ptr(&a.m[1]));
    expect_status(trnblasDgeqrfBatched(h, 4, 3, dev_bad, 4, tau.arr, &info, 2), INV, "Aarray[0]");
    SET(st_ptr(&c.m[0]), (double *)st_ptr(&c.m[1]) + 12);
    expect_status(
        trnblasDgelsBatched(h, TRNBLAS_OP_N, 4, 3, 2, a.arr, 4, dev_bad, 4, &info, NULL, 2), INV,
        "Carray[1]");
    expect_status(trnblasDtrsmBatched(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N,
                                      TRNBLAS_DIAG_NON_UNIT, 3, 2, &one, a.arr, 4, dev_bad, 4, 2),
                  INV, "Barray[1]");
    SET(st_ptr(&c.m[0]), host_matrix);
    expect_status(trnblasDtrsmBatched(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N,
                                      TRNBLAS_DIAG_NON_UNIT, 3, 2, &one, a.arr, 4, dev_bad, 4, 2),
                  INV, "B[1]");
    /* Overlaps: a tau vector inside a matrix, two matrices sharing one. */
    SET(st_ptr(&tau.m[0]), st_ptr(&a.m[1]));
    expect_status(trnblasDgeqrfBatched(h, 4, 3, a.arr, 4, dev_bad, &info, 2), INV, "overlap");
    SET(st_ptr(&c.m[0]), st_ptr(&a.m[0]));
    expect_status(
        trnblasDgelsBatched(h, TRNBLAS_OP_N, 4, 3, 2, a.arr, 4, dev_bad, 4, &info, NULL, 2), INV,
        "overlap");
    /* trsmBatched: B[1] is A[0] (read by matrix 0's solve while matrix 1's
     * writes it). */
    expect_status(trnblasDtrsmBatched(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N,
                                      TRNBLAS_DIAG_NON_UNIT, 2, 2, &one, a.arr, 4, dev_bad, 2, 2),
                  INV, "overlap");
#undef SET
    for (int i = 0; i < 2; i++) {
        st_untouched(&a.m[i]);
        st_untouched(&c.m[i]);
        st_untouched(&tau.m[i]);
    }
    /* Still serving. */
    info = 5;
    assert_int_equal(trnblasDgeqrfBatched(h, 4, 3, a.arr, 4, tau.arr, &info, 2), OK);
    assert_int_equal(info, 0);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnsciFree(dev_bad), trnsciSuccess);
    batch_free(&a);
    batch_free(&c);
    batch_free(&tau);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* ---- gemmGroupedBatched ------------------------------------------------------------------ */

/* Three groups (the middle one empty) of S or D GEMMs through
 * <t>gemmGroupedBatched, its _64 form or GemmGroupedBatchedEx (how = 0, 1,
 * 2), against long double: |C - C_ref| <= gamma_{k+2} (|alpha| |op(A)|
 * |op(B)| + |beta| |C_0|) elementwise (Higham §3.5), checked in the
 * Frobenius norm of both sides. */
static void grouped_case(trnblasHandle_t h, ty t, int how) {
    enum { G = 3 };
    const trnblasOperation_t ta[G] = {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_T};
    const trnblasOperation_t tb[G] = {TRNBLAS_OP_N, TRNBLAS_OP_N, TRNBLAS_OP_C};
    const int m[G] = {3, 2, 4}, n[G] = {2, 3, 4}, k[G] = {4, 2, 3}, size[G] = {2, 0, 3};
    int lda[G], ldb[G], ldc[G];
    const double alpha_d[G] = {1.5, 2.0, -0.5}, beta_d[G] = {0.25, 1.0, 0.0};
    float alpha_s[G], beta_s[G];
    for (int g = 0; g < G; g++) {
        lda[g] = (ta[g] == TRNBLAS_OP_N ? m[g] : k[g]) + 1;
        ldb[g] = (tb[g] == TRNBLAS_OP_N ? k[g] : n[g]) + 2;
        ldc[g] = m[g] + 1;
        alpha_s[g] = (float)alpha_d[g];
        beta_s[g] = (float)beta_d[g];
    }
    const int total = size[0] + size[1] + size[2];
    st_mat *am = calloc(total, sizeof(st_mat)), *bm = calloc(total, sizeof(st_mat)),
           *cm = calloc(total, sizeof(st_mat));
    assert_true(am && bm && cm);
    int p = 0;
    for (int g = 0; g < G; g++)
        for (int j = 0; j < size[g]; j++, p++) {
            const int ar = ta[g] == TRNBLAS_OP_N ? m[g] : k[g],
                      ac = ta[g] == TRNBLAS_OP_N ? k[g] : m[g];
            const int br = tb[g] == TRNBLAS_OP_N ? k[g] : n[g],
                      bc = tb[g] == TRNBLAS_OP_N ? n[g] : k[g];
            st_alloc(&am[p], t, ar, ac, lda[g]);
            st_alloc(&bm[p], t, br, bc, ldb[g]);
            st_alloc(&cm[p], t, m[g], n[g], ldc[g]);
            st_mat *all[3] = {&am[p], &bm[p], &cm[p]};
            for (int w = 0; w < 3; w++) {
                for (int c = 0; c < all[w]->cols; c++)
                    for (int r = 0; r < all[w]->rows; r++)
                        st_set(all[w], r, c, st_random(t));
                st_upload(all[w]);
            }
        }
    void *aa = pointer_array(am, total), *ba = pointer_array(bm, total),
         *ca = pointer_array(cm, total);
    trnblasStatus_t st;
    if (how == 1) {
        int64_t m64[G], n64[G], k64[G], lda64[G], ldb64[G], ldc64[G], size64[G];
        for (int g = 0; g < G; g++) {
            m64[g] = m[g];
            n64[g] = n[g];
            k64[g] = k[g];
            lda64[g] = lda[g];
            ldb64[g] = ldb[g];
            ldc64[g] = ldc[g];
            size64[g] = size[g];
        }
        st = t == TY_S ? trnblasSgemmGroupedBatched_64(h, ta, tb, m64, n64, k64, alpha_s, aa, lda64,
                                                       ba, ldb64, beta_s, ca, ldc64, G, size64)
                       : trnblasDgemmGroupedBatched_64(h, ta, tb, m64, n64, k64, alpha_d, aa, lda64,
                                                       ba, ldb64, beta_d, ca, ldc64, G, size64);
    } else if (how == 2) {
        const trnsciDataType_t dt = t == TY_S ? TRNSCI_R_32F : TRNSCI_R_64F;
        st = trnblasGemmGroupedBatchedEx(
            h, ta, tb, m, n, k, t == TY_S ? (const void *)alpha_s : (const void *)alpha_d, aa, dt,
            lda, ba, dt, ldb, t == TY_S ? (const void *)beta_s : (const void *)beta_d, ca, dt, ldc,
            G, size, t == TY_S ? TRNBLAS_COMPUTE_32F_PEDANTIC : TRNBLAS_COMPUTE_64F);
    } else {
        st = t == TY_S ? trnblasSgemmGroupedBatched(h, ta, tb, m, n, k, alpha_s, aa, lda, ba, ldb,
                                                    beta_s, ca, ldc, G, size)
                       : trnblasDgemmGroupedBatched(h, ta, tb, m, n, k, alpha_d, aa, lda, ba, ldb,
                                                    beta_d, ca, ldc, G, size);
    }
    assert_int_equal(st, TRNBLAS_STATUS_SUCCESS);
    p = 0;
    for (int g = 0; g < G; g++)
        for (int j = 0; j < size[g]; j++, p++) {
            st_untouched(&am[p]);
            st_untouched(&bm[p]);
            void *hc = st_download(&cm[p], NULL, NULL);
            const long double al = t == TY_S ? alpha_s[g] : alpha_d[g];
            const long double be = t == TY_S ? beta_s[g] : beta_d[g];
            long double err = 0, mag = 0;
            for (int c = 0; c < n[g]; c++)
                for (int r = 0; r < m[g]; r++) {
                    long double s = 0, as = 0;
                    for (int l = 0; l < k[g]; l++) {
                        const lcplx x =
                            ta[g] == TRNBLAS_OP_N ? st_at(&am[p], r, l) : st_at(&am[p], l, r);
                        const lcplx y =
                            tb[g] == TRNBLAS_OP_N ? st_at(&bm[p], l, c) : st_at(&bm[p], c, l);
                        s += creall(x * y);
                        as += fabsl(creall(x * y));
                    }
                    const long double c0 = creall(st_at(&cm[p], r, c));
                    const long double ref = al * s + be * c0;
                    const long double d = creall(st_got(&cm[p], hc, r, c)) - ref;
                    const long double bound = fabsl(al) * as + fabsl(be * c0);
                    err += d * d;
                    mag += bound * bound;
                }
            check(t,
                  how == 1   ? "gemmGroupedBatched_64"
                  : how == 2 ? "GemmGroupedBatchedEx"
                             : "gemmGroupedBatched",
                  sqrtl(err), st_gamma(t, k[g] + 2) * sqrtl(mag));
            free(hc);
        }
    for (int i = 0; i < total; i++) {
        st_free(&am[i]);
        st_free(&bm[i]);
        st_free(&cm[i]);
    }
    free(am);
    free(bm);
    free(cm);
    assert_int_equal(trnsciFree(aa) | trnsciFree(ba) | trnsciFree(ca), trnsciSuccess);
}

static void test_grouped(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    for (int how = 0; how < 3; how++) {
        grouped_case(h, TY_S, how);
        grouped_case(h, TY_D, how);
    }
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

static void test_grouped_bad_input(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    /* Two groups of one 2 x 2 GEMM each. */
    batch a, b, c;
    batch_make(&a, TY_D, 2, 2, 2, 2);
    batch_upload(&a);
    batch_make(&b, TY_D, 2, 2, 2, 2);
    batch_upload(&b);
    batch_make(&c, TY_D, 2, 2, 2, 2);
    batch_upload(&c);
    const trnblasOperation_t tn[2] = {TRNBLAS_OP_N, TRNBLAS_OP_N};
    const int two[2] = {2, 2}, one[2] = {1, 1}, short_ld[2] = {2, 1};
    const double alpha[2] = {1, 1}, beta[2] = {0, 0};
    const trnblasStatus_t INV = TRNBLAS_STATUS_INVALID_VALUE, NS = TRNBLAS_STATUS_NOT_SUPPORTED;
    expect_status(trnblasDgemmGroupedBatched(h, tn, tn, two, two, two, alpha, a.arr, two, b.arr,
                                             two, beta, c.arr, two, -1, one),
                  INV, "group_count");
    expect_status(trnblasDgemmGroupedBatched(h, tn, tn, two, two, two, alpha, a.arr, two, b.arr,
                                             two, beta, c.arr, two, 0, one),
                  TRNBLAS_STATUS_SUCCESS, NULL);
    /* Group 1's lda is too small: nothing is done, group 0 included. */
    expect_status(trnblasDgemmGroupedBatched(h, tn, tn, two, two, two, alpha, a.arr, short_ld,
                                             b.arr, two, beta, c.arr, two, 2, one),
                  INV, "lda_array[1]");
    expect_status(trnblasDgemmGroupedBatched(h, tn, tn, two, two, two, alpha, a.arr, two, b.arr,
                                             two, beta, c.arr, two, 2, NULL),
                  INV, "NULL");
    const int neg[2] = {1, -1};
    expect_status(trnblasDgemmGroupedBatched(h, tn, tn, two, two, two, alpha, a.arr, two, b.arr,
                                             two, beta, c.arr, two, 2, neg),
                  INV, "group_size[1]");
    const int64_t big[2] = {(int64_t)1 << 31, 2}, two64[2] = {2, 2}, one64[2] = {1, 1};
    expect_status(trnblasDgemmGroupedBatched_64(h, tn, tn, big, two64, two64, alpha, a.arr, big,
                                                b.arr, two64, beta, c.arr, big, 2, one64),
                  NS, "m_array[0]");
    expect_status(trnblasGemmGroupedBatchedEx(h, tn, tn, two, two, two, alpha, a.arr, TRNSCI_C_32F,
                                              two, b.arr, TRNSCI_C_32F, two, beta, c.arr,
                                              TRNSCI_C_32F, two, 2, one, TRNBLAS_COMPUTE_32F),
                  NS, "Atype");
    expect_status(trnblasGemmGroupedBatchedEx(h, tn, tn, two, two, two, alpha, a.arr, TRNSCI_R_64F,
                                              two, b.arr, TRNSCI_R_64F, two, beta, c.arr,
                                              TRNSCI_R_64F, two, 2, one, TRNBLAS_COMPUTE_32F),
                  NS, "computeType");
    assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_DEVICE), TRNBLAS_STATUS_SUCCESS);
    expect_status(trnblasDgemmGroupedBatched(h, tn, tn, two, two, two, alpha, a.arr, two, b.arr,
                                             two, beta, c.arr, two, 2, one),
                  NS, "pointer mode");
    assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_HOST), TRNBLAS_STATUS_SUCCESS);
    /* A bad device pointer in Carray (a host address): entry 1, group 1's. */
    void *bad[2] = {st_ptr(&c.m[0]), (void *)alpha}, *dev_bad = NULL;
    assert_int_equal(trnsciMalloc(&dev_bad, sizeof(bad)), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dev_bad, bad, sizeof(bad), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    expect_status(trnblasDgemmGroupedBatched(h, tn, tn, two, two, two, alpha, a.arr, two, b.arr,
                                             two, beta, dev_bad, two, 2, one),
                  INV, "Carray[1]");
    /* One past its allocation: the validator's verdict on group 1 comes
     * before group 0 is queued. */
    bad[1] = (double *)st_ptr(&c.m[1]) + 8;
    assert_int_equal(trnsciMemcpy(dev_bad, bad, sizeof(bad), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    expect_status(trnblasDgemmGroupedBatched(h, tn, tn, two, two, two, alpha, a.arr, two, b.arr,
                                             two, beta, dev_bad, two, 2, one),
                  INV, "(group 1)");
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    for (int i = 0; i < 2; i++) {
        st_untouched(&a.m[i]);
        st_untouched(&b.m[i]);
        st_untouched(&c.m[i]);
    }
    assert_int_equal(trnsciFree(dev_bad), trnsciSuccess);
    batch_free(&a);
    batch_free(&b);
    batch_free(&c);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* A batch larger than one op's 4096 matrices: split into several ops. */
static void test_long_batch(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    geqrf_case(h, TY_D, 3, 2, 4100);
    /* trsmBatched beyond one op's 4096 pointers: two ops, validated first. */
    trsm_case(h, TY_D, TRNBLAS_SIDE_RIGHT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_T, TRNBLAS_DIAG_UNIT,
              2, 3, 4100, 0);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

int main(void) {
    const char *const args[] = {"--cores", "2", NULL};
    if (th_daemon_start(&daemon_under_test, args) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    st_daemon = &daemon_under_test;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geqrf),      cmocka_unit_test(test_gels),
        cmocka_unit_test(test_trsm),       cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_grouped),    cmocka_unit_test(test_grouped_bad_input),
        cmocka_unit_test(test_long_batch),
    };
    const size_t ntests = sizeof(tests) / sizeof(tests[0]);
    int failed = _cmocka_run_group_tests("batched QR and trsm over unix socket", tests, ntests,
                                         st_connect_unix, st_disconnect);
    failed += _cmocka_run_group_tests("batched QR and trsm over tcp", tests, ntests - 1,
                                      st_connect_tcp, st_disconnect);
    st_report("test_blas_batched_solve");
    failed += th_daemon_stop_checked(&daemon_under_test, "trnscid");
    return failed ? 1 : 0;
}
