/*
 * test_solver.c — trnsolver's factorisations and solves (potrf, potrs,
 * potri, potrfBatched, potrsBatched, getrf with and without pivoting,
 * getrs, geqrf, orgqr/ungqr, ormqr/unmqr) in S, D, C and Z through a real
 * trnscid, over the local transport and gRPC over TCP, and their bad input.
 *
 * References are the defining identities, checked in long double against
 * backward-error bounds (Higham, Accuracy and Stability of Numerical
 * Algorithms, 2nd ed.), with u the unit roundoff of the type and gamma_k =
 * k u / (1 - k u); complex arithmetic doubles the constants (a complex
 * multiply-add carries at most sqrt(2) gamma_2, so gamma_k becomes
 * 2 gamma_{k+1}, as in test_blas1.c):
 *  - Cholesky (Thm 10.3): ||A - L L^H||_F <= gamma_{n+1} || |L| |L^H| ||_F;
 *  - Cholesky solve (Thm 10.4): ||b - A x||_2 <= gamma_{3n+1}
 *    || |L| |L^H| ||_F ||x||_2 per right-hand side;
 *  - inverse from the factor (§14.3): ||A X - I||_F <= 3n u || |A| |X| ||_F;
 *  - LU (Thm 9.3): ||P A - L U||_F <= gamma_n || |L| |U| ||_F, and the LU
 *    solve (Thm 9.4): ||b - op(A) x||_2 <= gamma_{3n} || |L| |U| ||_F ||x||_2;
 *  - Householder QR (Thm 19.4 and Lemma 19.3: gamma~_{mn} = gamma_{c mn} with
 *    a small constant, taken as c = 4):
 *    ||A - Q R||_F <= gamma~_{mn} ||A||_F, ||Q^H Q - I||_F <= gamma~_{mn} sqrt(n),
 *    ||Q^H A - [R; 0]||_F <= gamma~_{mn} ||A||_F (ormqr against geqrf's R),
 *    and ormqr's round trip Q (Q^H C) = C within 2 gamma~_{mn} ||C||_F.
 * LAPACK's info: a non-positive-definite matrix (a negative or zero pivot
 * at a chosen index, and a NaN, which OpenBLAS alone would let through)
 * gives potrf info = that index; an exactly zero
 * column gives getrf info = its index; a zero leading entry gives the
 * unpivoted getrf info = 1; the call itself succeeds and synchronising
 * reports nothing. Matrices sit at an element offset inside a larger
 * allocation with lda > rows; every element the routine may not write (the
 * padding, the gap rows, the other triangle) must come back bitwise
 * unchanged. Batched Cholesky: matrices in two allocations at scattered
 * offsets, some not positive definite, infoArray per matrix; a batch large
 * enough for two shards gives bitwise the same factors on a 2-core daemon
 * as on a 1-core one; so do potrs and getrs with 700 right-hand sides
 * (split by whole blocks of them), each column within its bound. Bad input: the cuSOLVER status
 * with a message naming the argument, the daemon still serving.
 */
#include <complex.h>
#include <float.h>
#include <limits.h>
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

#include "harness.h"
#include "solver_test.h"

static th_daemon daemon_under_test, one_core;

#define LOWER TRNBLAS_FILL_MODE_LOWER
#define UPPER TRNBLAS_FILL_MODE_UPPER

static long double cgam(ty t, long double k) {
    return is_complex(t) ? 2.0L * st_gamma(t, k + 1) : st_gamma(t, k);
}

/* Records a check's error over its bound (1 is the limit). */
static void note(ty t, const char *what, long double ratio) {
    if (isnan(ratio))
        return; /* 0 / 0: an empty matrix */
    char name[80];
    snprintf(name, sizeof(name), "%s %s", ty_name[t], what);
    st_note(name, ratio, 1.0L);
}

/* ---- Cholesky ------------------------------------------------------------------------ */

typedef struct tri_ctx {
    int lower;
} tri_ctx;

/* potrf/potri write only the uplo triangle. */
static int in_triangle(int i, int j, void *ctx) {
    return ((tri_ctx *)ctx)->lower ? i >= j : i <= j;
}

/* The factor L (lower) or U^H (upper) of a potrf download, as a lower
 * triangular long double matrix F with A = F F^H. */
static lcplx *factor_of(const st_mat *m, const void *h, int lower) {
    const int n = m->rows;
    lcplx *f = st_lmat(n, n);
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++)
            f[(size_t)j * n + i] = lower ? st_got(m, h, i, j) : conjl(st_got(m, h, j, i));
    return f;
}

/* || |F| |F^H| ||_F. */
static long double abs_ffh(int n, const lcplx *f) {
    long double s = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            long double e = 0;
            for (int l = 0; l < n; l++)
                e += cabsl(f[(size_t)l * n + i]) * cabsl(f[(size_t)l * n + j]);
            s += e * e;
        }
    return sqrtl(s);
}

static void check_cholesky(ty t, int n, int lower) {
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const trnblasFillMode_t uplo = lower ? LOWER : UPPER;
    lcplx *a = st_spd(t, n, 100.0L);
    st_mat A;
    st_alloc(&A, t, n, n, n + 3);
    /* Only the uplo triangle is meaningful; the other holds junk the
     * routine must neither read nor write. */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            st_set(&A, i, j, in_triangle(i, j, &(tri_ctx){lower}) ? a[(size_t)j * n + i] : 1e30L);
    st_upload(&A);
    int *info = st_info_alloc(1);
    int lwork = -1;
    assert_int_equal(ST_CALL(t, potrf_bufferSize, h, uplo, n, st_ptr(&A), A.ld, &lwork),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(lwork, 0);
    assert_int_equal(ST_CALL(t, potrf, h, uplo, n, st_ptr(&A), A.ld, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    tri_ctx tc = {lower};
    void *got = st_download(&A, in_triangle, &tc);
    lcplx *f = factor_of(&A, got, lower);
    lcplx *ffh = st_lmat(n, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            lcplx s = 0;
            for (int l = 0; l < n; l++)
                s += f[(size_t)l * n + i] * conjl(f[(size_t)l * n + j]);
            ffh[(size_t)j * n + i] = a[(size_t)j * n + i] - s;
        }
    const long double scale = abs_ffh(n, f);
    const long double err = st_lfro(n, n, ffh);
    note(t, "potrf ||A - LL^H|| / bound", err / (cgam(t, n + 1) * scale));
    if (!(err <= cgam(t, n + 1) * scale))
        fail_msg("%s potrf n=%d uplo=%d: ||A - LL^H|| = %Lg > %Lg", ty_name[t], n, lower, err,
                 cgam(t, n + 1) * scale);

    /* potrs with three right-hand sides. */
    const int nrhs = 3;
    st_mat B;
    st_alloc(&B, t, n, nrhs, n + 2);
    for (int j = 0; j < nrhs; j++)
        for (int i = 0; i < n; i++)
            st_set(&B, i, j, st_random(t));
    st_upload(&B);
    /* A now holds the factor on the device. */
    assert_int_equal(ST_CALL(t, potrs, h, uplo, n, nrhs, st_ptr(&A), A.ld, st_ptr(&B), B.ld, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    void *xg = st_download(&B, NULL, NULL);
    for (int j = 0; j < nrhs; j++) {
        long double rn = 0, xn = 0;
        for (int i = 0; i < n; i++) {
            lcplx s = 0;
            for (int l = 0; l < n; l++)
                s += a[(size_t)l * n + i] * st_got(&B, xg, l, j);
            const lcplx r = st_at(&B, i, j) - s;
            rn += creall(r * conjl(r));
            xn += creall(st_got(&B, xg, i, j) * conjl(st_got(&B, xg, i, j)));
        }
        const long double bound = cgam(t, 3 * n + 1) * scale * sqrtl(xn);
        note(t, "potrs ||b - Ax|| / bound", sqrtl(rn) / bound);
        if (!(sqrtl(rn) <= bound))
            fail_msg("%s potrs n=%d rhs %d: ||b - Ax|| = %Lg > %Lg", ty_name[t], n, j, sqrtl(rn),
                     bound);
    }

    /* potri: the inverse from the factor, in the uplo triangle. */
    assert_int_equal(ST_CALL(t, potri_bufferSize, h, uplo, n, st_ptr(&A), A.ld, &lwork),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(ST_CALL(t, potri, h, uplo, n, st_ptr(&A), A.ld, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    void *ig = st_download(&A, in_triangle, &tc);
    lcplx *x = st_lmat(n, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            const int stored = lower ? i >= j : i <= j;
            x[(size_t)j * n + i] = stored ? st_got(&A, ig, i, j) : conjl(st_got(&A, ig, j, i));
        }
    long double res = 0, absax = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            lcplx s = 0;
            long double sa = 0;
            for (int l = 0; l < n; l++) {
                s += a[(size_t)l * n + i] * x[(size_t)j * n + l];
                sa += cabsl(a[(size_t)l * n + i]) * cabsl(x[(size_t)j * n + l]);
            }
            const lcplx e = s - (i == j ? 1 : 0);
            res += creall(e * conjl(e));
            absax += sa * sa;
        }
    const long double ibound = 3.0L * n * st_u(t) * (is_complex(t) ? 2 : 1) * sqrtl(absax);
    note(t, "potri ||AX - I|| / bound", sqrtl(res) / ibound);
    if (!(sqrtl(res) <= ibound))
        fail_msg("%s potri n=%d: ||AX - I|| = %Lg > %Lg", ty_name[t], n, sqrtl(res), ibound);

    free(a);
    free(f);
    free(ffh);
    free(x);
    free(got);
    free(xg);
    free(ig);
    st_free(&A);
    st_free(&B);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_cholesky(void **state) {
    (void)state;
    static const int sizes[] = {0, 1, 33, 80};
    for (size_t ti = 0; ti < 4; ti++)
        for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
            for (int lower = 0; lower < 2; lower++)
                check_cholesky(all_types[ti], sizes[si], lower);
}

/* potrf on matrices that are not positive definite: info > 0 with
 * LAPACK's index, no error at synchronisation. */
static void test_cholesky_not_spd(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    int *info = st_info_alloc(1);
    for (size_t ti = 0; ti < 4; ti++) {
        const ty t = all_types[ti];
        const int n = 12;
        for (int kind = 0; kind < 3; kind++) {
            st_mat A;
            st_alloc(&A, t, n, n, n);
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++)
                    st_set(&A, i, j, i == j ? 2.0L : 0.0L);
            /* kind 0: a negative pivot at 7; 1: NaN at 5; 2: singular (0) at 1. */
            const int at = kind == 0 ? 7 : kind == 1 ? 5 : 1;
            st_set(&A, at, at, kind == 0 ? -1.0L : kind == 1 ? NAN : 0.0L);
            st_upload(&A);
            assert_int_equal(ST_CALL(t, potrf, h, LOWER, n, st_ptr(&A), A.ld, NULL, 0, info),
                             TRNSOLVER_STATUS_SUCCESS);
            assert_int_equal(st_read_int(info), at + 1);
            st_free(&A);
        }
    }
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess); /* not an error */
    /* n = 0 writes info = 0. */
    assert_int_equal(trnsolverDnDpotrf(h, LOWER, 0, NULL, 1, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* ---- LU ------------------------------------------------------------------------------ */

static void check_lu(ty t, int m, int n, int pivot) {
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    st_mat A;
    st_alloc(&A, t, m, n, m + 2);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            st_set(&A, i, j, st_random(t) + (!pivot && i == j ? 2.0L * n : 0.0L));
    st_upload(&A);
    const int p = m < n ? m : n;
    int *ipiv = pivot ? st_info_alloc(p) : NULL;
    int *info = st_info_alloc(1);
    int lwork = -1;
    assert_int_equal(ST_CALL(t, getrf_bufferSize, h, m, n, st_ptr(&A), A.ld, &lwork),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(lwork, 0);
    assert_int_equal(ST_CALL(t, getrf, h, m, n, st_ptr(&A), A.ld, NULL, ipiv, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    void *got = st_download(&A, NULL, NULL);
    int *piv = calloc((size_t)(p > 0 ? p : 1), sizeof(int));
    assert_non_null(piv);
    if (pivot)
        assert_int_equal(trnsciMemcpy(piv, ipiv, (size_t)p * sizeof(int), trnsciMemcpyDeviceToHost),
                         trnsciSuccess);
    /* P A: the row interchanges applied in order to the original. */
    lcplx *pa = st_take(&A);
    for (int k = 0; k < p && pivot; k++) {
        const int r = piv[k] - 1;
        assert_true(r >= k && r < m);
        for (int j = 0; j < n; j++) {
            const lcplx tmp = pa[(size_t)j * m + k];
            pa[(size_t)j * m + k] = pa[(size_t)j * m + r];
            pa[(size_t)j * m + r] = tmp;
        }
    }
    long double err = 0, scale = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            lcplx s = 0;
            long double sa = 0;
            for (int l = 0; l <= (i < j ? i : j) && l < p; l++) {
                const lcplx lv = l == i ? 1 : st_got(&A, got, i, l);
                const lcplx uv = st_got(&A, got, l, j);
                s += lv * uv;
                sa += cabsl(lv) * cabsl(uv);
            }
            const lcplx e = pa[(size_t)j * m + i] - s;
            err += creall(e * conjl(e));
            scale += sa * sa;
        }
    note(t, "getrf ||PA - LU|| / bound", sqrtl(err) / (cgam(t, p) * sqrtl(scale)));
    if (!(sqrtl(err) <= cgam(t, p) * sqrtl(scale)))
        fail_msg("%s getrf %dx%d pivot=%d: ||PA - LU|| = %Lg > %Lg", ty_name[t], m, n, pivot,
                 sqrtl(err), cgam(t, p) * sqrtl(scale));

    if (m == n) {
        /* getrs for op = N, T, C with two right-hand sides. */
        const lcplx *a0 = st_take(&A);
        for (int op = 0; op < 3; op++) {
            st_mat B;
            st_alloc(&B, t, n, 2, n + 1);
            for (int j = 0; j < 2; j++)
                for (int i = 0; i < n; i++)
                    st_set(&B, i, j, st_random(t));
            st_upload(&B);
            assert_int_equal(ST_CALL(t, getrs, h, (trnblasOperation_t)op, n, 2, st_ptr(&A), A.ld,
                                     ipiv, st_ptr(&B), B.ld, info),
                             TRNSOLVER_STATUS_SUCCESS);
            assert_int_equal(st_read_int(info), 0);
            void *xg = st_download(&B, NULL, NULL);
            for (int j = 0; j < 2; j++) {
                long double rn = 0, xn = 0;
                for (int i = 0; i < n; i++) {
                    lcplx s = 0;
                    for (int l = 0; l < n; l++) {
                        const lcplx aij = op == 0   ? a0[(size_t)l * n + i]
                                          : op == 1 ? a0[(size_t)i * n + l]
                                                    : conjl(a0[(size_t)i * n + l]);
                        s += aij * st_got(&B, xg, l, j);
                    }
                    const lcplx r = st_at(&B, i, j) - s;
                    rn += creall(r * conjl(r));
                    xn += creall(st_got(&B, xg, i, j) * conjl(st_got(&B, xg, i, j)));
                }
                const long double bound = cgam(t, 3 * n) * sqrtl(scale) * sqrtl(xn);
                note(t, "getrs ||b - op(A)x|| / bound", sqrtl(rn) / bound);
                if (!(sqrtl(rn) <= bound))
                    fail_msg("%s getrs n=%d op=%d pivot=%d: ||b - op(A)x|| = %Lg > %Lg", ty_name[t],
                             n, op, pivot, sqrtl(rn), bound);
            }
            free(xg);
            st_free(&B);
        }
        free((void *)a0);
    }
    free(got);
    free(piv);
    free(pa);
    st_free(&A);
    if (ipiv)
        assert_int_equal(trnsciFree(ipiv), trnsciSuccess);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_lu(void **state) {
    (void)state;
    static const int shapes[][2] = {{1, 1}, {40, 40}, {70, 30}, {30, 70}, {100, 100}};
    for (size_t ti = 0; ti < 4; ti++)
        for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
            for (int pivot = 0; pivot < 2; pivot++)
                check_lu(all_types[ti], shapes[s][0], shapes[s][1], pivot);
}

/* Exactly singular matrices: info = the first zero pivot's index. */
static void test_lu_singular(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    int *info = st_info_alloc(1);
    int *ipiv = st_info_alloc(20);
    for (size_t ti = 0; ti < 4; ti++) {
        const ty t = all_types[ti];
        const int n = 20, zero_col = 9;
        st_mat A;
        st_alloc(&A, t, n, n, n);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                st_set(&A, i, j, j == zero_col ? 0.0L : st_random(t));
        st_upload(&A);
        assert_int_equal(ST_CALL(t, getrf, h, n, n, st_ptr(&A), A.ld, NULL, ipiv, info),
                         TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(st_read_int(info), zero_col + 1);
        st_free(&A);
        /* Without pivoting a zero leading entry is the first zero pivot. */
        st_alloc(&A, t, n, n, n);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                st_set(&A, i, j, i == 0 && j == 0 ? 0.0L : st_random(t));
        st_upload(&A);
        assert_int_equal(ST_CALL(t, getrf, h, n, n, st_ptr(&A), A.ld, NULL, NULL, info),
                         TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(st_read_int(info), 1);
        st_free(&A);
    }
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsciFree(ipiv), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* ---- QR ------------------------------------------------------------------------------ */

static void check_qr(ty t, int m, int n) {
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const int p = m < n ? m : n;
    st_mat A;
    st_alloc(&A, t, m, n, m + 1);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            st_set(&A, i, j, st_random(t));
    st_upload(&A);
    lcplx *a0 = st_take(&A);
    st_mat tau;
    st_alloc(&tau, t, p, 1, p > 0 ? p : 1);
    st_upload(&tau);
    int *info = st_info_alloc(1);
    assert_int_equal(ST_CALL(t, geqrf, h, m, n, st_ptr(&A), A.ld, st_ptr(&tau), NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    void *qr = st_download(&A, NULL, NULL);
    const long double g = cgam(t, 4.0L * m * n);
    const long double anorm = st_lfro(m, n, a0);

    /* ormqr(LEFT, Q^H) applied to the original A gives [R; 0]. */
    const trnblasOperation_t ct = is_complex(t) ? TRNBLAS_OP_C : TRNBLAS_OP_T;
    st_mat C;
    st_alloc(&C, t, m, n, m + 2);
    st_fill(&C, a0);
    st_upload(&C);
    int lwork = -1;
    assert_int_equal(ST_CALL2(t, ormqr_bufferSize, unmqr_bufferSize, h, TRNBLAS_SIDE_LEFT, ct, m, n,
                              p, st_ptr(&A), A.ld, st_ptr(&tau), st_ptr(&C), C.ld, &lwork),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(ST_CALL2(t, ormqr, unmqr, h, TRNBLAS_SIDE_LEFT, ct, m, n, p, st_ptr(&A), A.ld,
                              st_ptr(&tau), st_ptr(&C), C.ld, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    void *qa = st_download(&C, NULL, NULL);
    long double err = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            const lcplx r = i <= j ? st_got(&A, qr, i, j) : 0;
            const lcplx e = st_got(&C, qa, i, j) - r;
            err += creall(e * conjl(e));
        }
    note(t, "ormqr ||Q^H A - R|| / bound", sqrtl(err) / (g * anorm));
    if (!(sqrtl(err) <= g * anorm))
        fail_msg("%s ormqr %dx%d: ||Q^H A - R|| = %Lg > %Lg", ty_name[t], m, n, sqrtl(err),
                 g * anorm);
    /* The round trip back with Q (op N) restores A. */
    assert_int_equal(ST_CALL2(t, ormqr, unmqr, h, TRNBLAS_SIDE_LEFT, TRNBLAS_OP_N, m, n, p,
                              st_ptr(&A), A.ld, st_ptr(&tau), st_ptr(&C), C.ld, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    void *back = st_download(&C, NULL, NULL);
    err = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            const lcplx e = st_got(&C, back, i, j) - a0[(size_t)j * m + i];
            err += creall(e * conjl(e));
        }
    if (!(sqrtl(err) <= 2 * g * anorm))
        fail_msg("%s ormqr round trip %dx%d: %Lg > %Lg", ty_name[t], m, n, sqrtl(err),
                 2 * g * anorm);

    if (m >= n) {
        /* orgqr: Q (m x n) explicitly; Q^H Q = I and Q R = A. */
        assert_int_equal(ST_CALL2(t, orgqr_bufferSize, ungqr_bufferSize, h, m, n, n, st_ptr(&A),
                                  A.ld, st_ptr(&tau), &lwork),
                         TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(
            ST_CALL2(t, orgqr, ungqr, h, m, n, n, st_ptr(&A), A.ld, st_ptr(&tau), NULL, 0, info),
            TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(st_read_int(info), 0);
        void *qg = st_download(&A, NULL, NULL);
        lcplx *q = st_take_got(&A, qg);
        lcplx *qhq = st_lmat(n, n);
        st_lmul(n, n, m, q, 1, q, qhq);
        for (int i = 0; i < n; i++)
            qhq[(size_t)i * n + i] -= 1;
        const long double orth = st_lfro(n, n, qhq);
        note(t, "orgqr ||Q^H Q - I|| / bound", orth / (g * sqrtl(n)));
        if (!(orth <= g * sqrtl(n)))
            fail_msg("%s orgqr %dx%d: ||Q^H Q - I|| = %Lg > %Lg", ty_name[t], m, n, orth,
                     g * sqrtl(n));
        err = 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
                lcplx s = 0;
                for (int l = 0; l <= j; l++)
                    s += q[(size_t)l * m + i] * st_got(&A, qr, l, j);
                const lcplx e = a0[(size_t)j * m + i] - s;
                err += creall(e * conjl(e));
            }
        note(t, "geqrf ||A - QR|| / bound", sqrtl(err) / (g * anorm));
        if (!(sqrtl(err) <= g * anorm))
            fail_msg("%s geqrf/orgqr %dx%d: ||A - QR|| = %Lg > %Lg", ty_name[t], m, n, sqrtl(err),
                     g * anorm);
        free(q);
        free(qhq);
        free(qg);
    }
    free(a0);
    free(qr);
    free(qa);
    free(back);
    st_free(&A);
    st_free(&C);
    st_free(&tau);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_qr(void **state) {
    (void)state;
    static const int shapes[][2] = {{1, 1}, {60, 40}, {40, 40}, {30, 50}};
    for (size_t ti = 0; ti < 4; ti++)
        for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
            check_qr(all_types[ti], shapes[s][0], shapes[s][1]);
}

/* ---- batched Cholesky ------------------------------------------------------------------ */

/* batch matrices of n x n (lda n + 1): even ones in one allocation at
 * scattered offsets, odd ones in another; those in `bad` get a negative
 * pivot at index 3. Returns the host copies in *a (full, long double). */
typedef struct batch {
    ty t;
    int n, lda, count;
    void *dev[2];
    size_t per;
    void **ptrs;     /* host array of the matrices' device pointers */
    void **dev_ptrs; /* the same array in device memory */
    lcplx **a;
} batch;

static void batch_make(batch *b, ty t, int n, int count, unsigned bad_mask) {
    b->t = t;
    b->n = n;
    b->lda = n + 1;
    b->count = count;
    b->per = (size_t)b->lda * (size_t)n + 3;
    const size_t es = esize(t);
    for (int k = 0; k < 2; k++)
        assert_int_equal(trnsciMalloc(&b->dev[k], b->per * (size_t)(count / 2 + 1) * es),
                         trnsciSuccess);
    b->ptrs = calloc((size_t)count, sizeof(void *));
    b->a = calloc((size_t)count, sizeof(lcplx *));
    assert_non_null(b->ptrs);
    assert_non_null(b->a);
    void *host = malloc(b->per * es);
    assert_non_null(host);
    for (int i = 0; i < count; i++) {
        b->a[i] = st_spd(t, n, 10.0L);
        if (bad_mask & (1u << i))
            b->a[i][3 * (size_t)n + 3] = -1; /* not positive definite at 4 */
        memset(host, 0, b->per * es);
        for (int j = 0; j < n; j++)
            for (int r = 0; r < n; r++)
                put(t, host, (size_t)j * b->lda + r, b->a[i][(size_t)j * n + r]);
        char *base = (char *)b->dev[i % 2] + (size_t)(i / 2) * b->per * es + (size_t)(i % 3) * es;
        b->ptrs[i] = base;
        assert_int_equal(trnsciMemcpy(base, host,
                                      ((size_t)b->lda * (size_t)(n - 1) + (size_t)n) * es,
                                      trnsciMemcpyHostToDevice),
                         trnsciSuccess);
    }
    free(host);
    assert_int_equal(trnsciMalloc((void **)&b->dev_ptrs, (size_t)count * sizeof(void *)),
                     trnsciSuccess);
    assert_int_equal(trnsciMemcpy(b->dev_ptrs, b->ptrs, (size_t)count * sizeof(void *),
                                  trnsciMemcpyHostToDevice),
                     trnsciSuccess);
}

static void *batch_get(const batch *b, int i) {
    const size_t bytes = ((size_t)b->lda * (size_t)(b->n - 1) + (size_t)b->n) * esize(b->t);
    void *h = malloc(bytes);
    assert_non_null(h);
    assert_int_equal(trnsciMemcpy(h, b->ptrs[i], bytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    return h;
}

static void batch_free(batch *b) {
    for (int k = 0; k < 2; k++)
        assert_int_equal(trnsciFree(b->dev[k]), trnsciSuccess);
    assert_int_equal(trnsciFree(b->dev_ptrs), trnsciSuccess);
    for (int i = 0; i < b->count; i++)
        free(b->a[i]);
    free(b->a);
    free(b->ptrs);
}

static void test_batched(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    for (size_t ti = 0; ti < 4; ti++) {
        const ty t = all_types[ti];
        const int n = 24, count = 9;
        const unsigned bad = (1u << 2) | (1u << 7);
        batch b;
        batch_make(&b, t, n, count, bad);
        int *infos = st_info_alloc(count);
        if (ST_CALL(t, potrfBatched, h, LOWER, n, (void *)b.dev_ptrs, b.lda, infos, count) !=
            TRNSOLVER_STATUS_SUCCESS)
            fail_msg("potrfBatched: %s", trnsciGetLastErrorMessage());
        int hinfo[9];
        assert_int_equal(trnsciMemcpy(hinfo, infos, sizeof(hinfo), trnsciMemcpyDeviceToHost),
                         trnsciSuccess);
        for (int i = 0; i < count; i++) {
            assert_int_equal(hinfo[i], (bad & (1u << i)) ? 4 : 0);
            if (bad & (1u << i))
                continue;
            void *g = batch_get(&b, i);
            lcplx *f = st_lmat(n, n);
            for (int j = 0; j < n; j++)
                for (int r = j; r < n; r++)
                    f[(size_t)j * n + r] = get(t, g, (size_t)j * b.lda + r);
            long double err = 0;
            for (int j = 0; j < n; j++)
                for (int r = 0; r < n; r++) {
                    lcplx s = 0;
                    for (int l = 0; l < n; l++)
                        s += f[(size_t)l * n + r] * conjl(f[(size_t)l * n + j]);
                    const lcplx e = b.a[i][(size_t)j * n + r] - s;
                    err += creall(e * conjl(e));
                }
            const long double bound = cgam(t, n + 1) * abs_ffh(n, f);
            if (!(sqrtl(err) <= bound))
                fail_msg("%s potrfBatched matrix %d: %Lg > %Lg", ty_name[t], i, sqrtl(err), bound);
            free(f);
            free(g);
        }
        /* potrsBatched (nrhs = 1) on the good ones. */
        batch rb;
        batch_make(&rb, t, n, count, 0);
        for (int i = 0; i < count; i++) { /* B's lda is n + 1, one column */
            void *col = malloc((size_t)n * esize(t));
            assert_non_null(col);
            for (int r = 0; r < n; r++)
                put(t, col, (size_t)r, (lcplx)(r + 1));
            assert_int_equal(
                trnsciMemcpy(rb.ptrs[i], col, (size_t)n * esize(t), trnsciMemcpyHostToDevice),
                trnsciSuccess);
            free(col);
        }
        /* Only the positive definite factors are solved with; the others are
         * replaced by good matrices' factors first. */
        for (int i = 0; i < count; i++)
            if (bad & (1u << i))
                b.ptrs[i] = b.ptrs[0];
        assert_int_equal(trnsciMemcpy(b.dev_ptrs, b.ptrs, (size_t)count * sizeof(void *),
                                      trnsciMemcpyHostToDevice),
                         trnsciSuccess);
        assert_int_equal(ST_CALL(t, potrsBatched, h, LOWER, n, 1, (void *)b.dev_ptrs, b.lda,
                                 (void *)rb.dev_ptrs, rb.lda, infos, count),
                         TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(st_read_int(infos), 0);
        for (int i = 0; i < count; i++) {
            const lcplx *ai = (bad & (1u << i)) ? b.a[0] : b.a[i];
            void *x = batch_get(&rb, i);
            long double rn = 0, xn = 0;
            for (int r = 0; r < n; r++) {
                lcplx s = 0;
                for (int l = 0; l < n; l++)
                    s += ai[(size_t)l * n + r] * get(t, x, (size_t)l);
                const lcplx e = (lcplx)(r + 1) - s;
                rn += creall(e * conjl(e));
                xn += creall(get(t, x, (size_t)r) * conjl(get(t, x, (size_t)r)));
            }
            /* ||A||_F bounds || |L||L^H| ||_F / n here (A = L L^H, n >= 1). */
            const long double bound = cgam(t, 3 * n + 1) * n * st_lfro(n, n, ai) * sqrtl(xn);
            if (!(sqrtl(rn) <= bound))
                fail_msg("%s potrsBatched matrix %d: %Lg > %Lg", ty_name[t], i, sqrtl(rn), bound);
            free(x);
        }
        /* batchSize 0 does nothing. */
        assert_int_equal(ST_CALL(t, potrfBatched, h, LOWER, n, NULL, b.lda, NULL, 0),
                         TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(trnsciFree(infos), trnsciSuccess);
        batch_free(&rb);
        batch_free(&b);
    }
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* ---- bad input ------------------------------------------------------------------------- */

static void test_bad_input(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    double *a;
    int *info, *ipiv;
    assert_int_equal(trnsciMalloc((void **)&a, 16 * sizeof(double)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&info, sizeof(int)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&ipiv, 4 * sizeof(int)), trnsciSuccess);
    assert_int_equal(trnsolverDnDpotrf(NULL, LOWER, 4, a, 4, NULL, 0, info),
                     TRNSOLVER_STATUS_NOT_INITIALIZED);
    assert_int_equal(trnsolverDnDpotrf(h, LOWER, -1, a, 4, NULL, 0, info),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("potrf: n=-1");
    assert_int_equal(trnsolverDnDpotrf(h, LOWER, 4, a, 3, NULL, 0, info),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("lda=3");
    assert_int_equal(trnsolverDnDpotrf(h, TRNBLAS_FILL_MODE_FULL, 4, a, 4, NULL, 0, info),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("uplo=2");
    assert_int_equal(trnsolverDnDpotrf(h, (trnblasFillMode_t)7, 4, a, 4, NULL, 0, info),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("uplo");
    /* Exactly enough (16 doubles) passes; 5 x 4 with lda 5 does not fit. */
    assert_int_equal(trnsolverDnDpotrf(h, LOWER, 4, a, 4, NULL, 0, info), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDpotrf(h, LOWER, 4, a, 5, NULL, 0, info),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("potrf: A");
    /* devInfo is required. */
    assert_int_equal(trnsolverDnDpotrf(h, LOWER, 4, a, 4, NULL, 0, NULL),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("info");
    /* A host pointer and a freed pointer. */
    double host[16];
    assert_int_equal(trnsolverDnDpotrf(h, LOWER, 4, host, 4, NULL, 0, info),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("potrf: A");
    double *gone;
    assert_int_equal(trnsciMalloc((void **)&gone, 128), trnsciSuccess);
    assert_int_equal(trnsciFree(gone), trnsciSuccess);
    assert_int_equal(trnsolverDnDgetrf(h, 4, 4, gone, 4, NULL, ipiv, info),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("getrf: A");
    /* getrf: m < 0, ipiv too short (min(m,n) = 4 ints). */
    assert_int_equal(trnsolverDnDgetrf(h, -2, 4, a, 4, NULL, ipiv, info),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("m=-2");
    assert_int_equal(trnsolverDnDgetrf(h, 4, 4, a, 4, NULL, ipiv + 1, info),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("devIpiv");
    /* getrs: bad trans, ldb < n. */
    assert_int_equal(trnsolverDnDgetrs(h, (trnblasOperation_t)5, 4, 1, a, 4, ipiv, a, 4, info),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("trans=5");
    assert_int_equal(trnsolverDnDgetrs(h, TRNBLAS_OP_N, 4, 1, a, 4, ipiv, a, 2, info),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("ldb=2");
    /* orgqr needs m >= n >= k; ormqr takes OP_T, not OP_C, for real types. */
    assert_int_equal(trnsolverDnDorgqr(h, 2, 4, 1, a, 4, a, NULL, 0, info),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("m >= n >= k");
    assert_int_equal(trnsolverDnDormqr(h, TRNBLAS_SIDE_LEFT, TRNBLAS_OP_C, 4, 4, 2, a, 4, a, a, 4,
                                       NULL, 0, info),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("trans");
    assert_int_equal(trnsolverDnDormqr(h, (trnblasSideMode_t)3, TRNBLAS_OP_N, 4, 4, 2, a, 4, a, a,
                                       4, NULL, 0, info),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("side=3");
    /* Overflowing extents are refused, not wrapped. */
    assert_int_equal(trnsolverDnDpotrf(h, LOWER, INT_MAX, a, INT_MAX, NULL, 0, info),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("potrf: A");
    /* Batched: nrhs must be 1, negative batch, a freed matrix in the array,
     * the array itself on the host. */
    double **arr;
    assert_int_equal(trnsciMalloc((void **)&arr, 2 * sizeof(double *)), trnsciSuccess);
    double *ptrs[2] = {a, gone};
    assert_int_equal(trnsciMemcpy(arr, ptrs, sizeof(ptrs), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(trnsolverDnDpotrsBatched(h, LOWER, 2, 2, arr, 2, arr, 2, info, 1),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("nrhs=2");
    assert_int_equal(trnsolverDnDpotrfBatched(h, LOWER, 2, arr, 2, info, -1),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("batchSize");
    assert_int_equal(trnsolverDnDpotrfBatched(h, LOWER, 2, arr, 2, ipiv, 2),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("Aarray[1]");
    assert_int_equal(trnsolverDnDpotrfBatched(h, LOWER, 2, ptrs, 2, ipiv, 2),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("Aarray");
    /* infoArray must hold batchSize ints. */
    ptrs[1] = a + 4;
    assert_int_equal(trnsciMemcpy(arr, ptrs, sizeof(ptrs), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(trnsolverDnDpotrfBatched(h, LOWER, 2, arr, 2, info, 2),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("infoArray");
    /* bufferSize needs somewhere to write. */
    assert_int_equal(trnsolverDnDpotrf_bufferSize(h, LOWER, 4, a, 4, NULL),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    /* The daemon still serves. */
    const double id[16] = {4, 0, 0, 0, 0, 4, 0, 0, 0, 0, 4, 0, 0, 0, 0, 4};
    assert_int_equal(trnsciMemcpy(a, id, sizeof(id), trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsolverDnDpotrf(h, UPPER, 4, a, 4, NULL, 0, info), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    double out[16];
    assert_int_equal(trnsciMemcpy(out, a, sizeof(out), trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_true(out[0] == 2.0 && out[15] == 2.0);
    assert_int_equal(trnsciFree(arr), trnsciSuccess);
    assert_int_equal(trnsciFree(a), trnsciSuccess);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsciFree(ipiv), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
    /* Handle calls and names. */
    trnsciStream_t s = (trnsciStream_t)1;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnGetStream(h, &s), TRNSOLVER_STATUS_SUCCESS);
    assert_null(s);
    int version = 0;
    assert_int_equal(trnsolverGetVersion(&version), TRNSOLVER_STATUS_SUCCESS);
    assert_true(version > 0);
    assert_string_equal(trnsolverGetStatusName(TRNSOLVER_STATUS_INVALID_VALUE),
                        "TRNSOLVER_STATUS_INVALID_VALUE");
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* ---- sharding ------------------------------------------------------------------------- */

/* A double batch of 64 matrices of 128 (about 45 MFLOP: two shards on two
 * cores) factored on this daemon and on a 1-core one: bitwise equal. */
#define SH_N 128
#define SH_COUNT 64

static void *sharded_factors(const char *addr) {
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const size_t per = (size_t)SH_N * SH_N;
    double *host = malloc(per * SH_COUNT * sizeof(double));
    assert_non_null(host);
    st_rng = 0x1234567u;
    /* Symmetric and strictly diagonally dominant with a positive diagonal,
     * hence positive definite (Gershgorin). */
    for (int k = 0; k < SH_COUNT; k++)
        for (int j = 0; j < SH_N; j++)
            for (int i = j; i < SH_N; i++) {
                const double v = i == j ? SH_N : (double)st_uniform();
                host[(size_t)k * per + (size_t)j * SH_N + i] = v;
                host[(size_t)k * per + (size_t)i * SH_N + j] = v;
            }
    double *dev, **arr;
    int *infos;
    assert_int_equal(trnsciMalloc((void **)&dev, per * SH_COUNT * sizeof(double)), trnsciSuccess);
    assert_int_equal(
        trnsciMemcpy(dev, host, per * SH_COUNT * sizeof(double), trnsciMemcpyHostToDevice),
        trnsciSuccess);
    double *ptrs[SH_COUNT];
    for (int k = 0; k < SH_COUNT; k++)
        ptrs[k] = dev + (size_t)k * per;
    assert_int_equal(trnsciMalloc((void **)&arr, sizeof(ptrs)), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(arr, ptrs, sizeof(ptrs), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&infos, SH_COUNT * sizeof(int)), trnsciSuccess);
    assert_int_equal(trnsolverDnDpotrfBatched(h, LOWER, SH_N, arr, SH_N, infos, SH_COUNT),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(
        trnsciMemcpy(host, dev, per * SH_COUNT * sizeof(double), trnsciMemcpyDeviceToHost),
        trnsciSuccess);
    int hinfo[SH_COUNT];
    assert_int_equal(trnsciMemcpy(hinfo, infos, sizeof(hinfo), trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    for (int k = 0; k < SH_COUNT; k++)
        assert_int_equal(hinfo[k], 0);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
    trnsciDeviceReset();
    return host;
}

static void test_sharded_batch(void **state) {
    (void)state;
    trnsciDeviceReset();
    void *two = sharded_factors(daemon_under_test.unix_addr);
    void *one = sharded_factors(one_core.tcp_addr);
    assert_memory_equal(two, one, (size_t)SH_N * SH_N * SH_COUNT * sizeof(double));
    free(two);
    free(one);
}

/* potrs and getrs (pivoted, transposed) of RS_N x RS_N with RS_NRHS
 * right-hand sides (six blocks of TRN_SOLVE_RHS_BLOCK = 128, the last 60:
 * about 130 MFLOP each, split over two cores) on the daemon at addr: the
 * two solutions, 2 x RS_N x RS_NRHS doubles, malloc'd. A is symmetric and
 * strictly diagonally dominant with a positive diagonal (SPD; LU's growth
 * factor below 2). */
#define RS_N 300
#define RS_NRHS 700

static double *sharded_solves(const char *addr, const double *a, const double *b) {
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const size_t an = (size_t)RS_N * RS_N, bn = (size_t)RS_N * RS_NRHS;
    double *dl, *du, *db, *out = malloc(2 * bn * sizeof(double));
    int *ipiv, *info;
    assert_non_null(out);
    assert_int_equal(trnsciMalloc((void **)&dl, an * sizeof(double)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&du, an * sizeof(double)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&db, 2 * bn * sizeof(double)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&ipiv, RS_N * sizeof(int)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&info, 3 * sizeof(int)), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dl, a, an * sizeof(double), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(trnsciMemcpy(du, a, an * sizeof(double), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    for (int k = 0; k < 2; k++)
        assert_int_equal(
            trnsciMemcpy(db + k * bn, b, bn * sizeof(double), trnsciMemcpyHostToDevice),
            trnsciSuccess);
    assert_int_equal(trnsolverDnDpotrf(h, LOWER, RS_N, dl, RS_N, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDpotrs(h, LOWER, RS_N, RS_NRHS, dl, RS_N, db, RS_N, info + 1),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDgetrf(h, RS_N, RS_N, du, RS_N, NULL, ipiv, info + 2),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(
        trnsolverDnDgetrs(h, TRNBLAS_OP_T, RS_N, RS_NRHS, du, RS_N, ipiv, db + bn, RS_N, info + 2),
        TRNSOLVER_STATUS_SUCCESS);
    int hinfo[3];
    assert_int_equal(trnsciMemcpy(hinfo, info, sizeof(hinfo), trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    assert_int_equal(trnsciMemcpy(out, db, 2 * bn * sizeof(double), trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    for (int k = 0; k < 3; k++)
        assert_int_equal(hinfo[k], 0);
    assert_int_equal(trnsciFree(dl), trnsciSuccess);
    assert_int_equal(trnsciFree(du), trnsciSuccess);
    assert_int_equal(trnsciFree(db), trnsciSuccess);
    assert_int_equal(trnsciFree(ipiv), trnsciSuccess);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
    trnsciDeviceReset();
    return out;
}

/* The solves on 2 cores and on 1 are bitwise alike (whole blocks of
 * right-hand sides, one LAPACK call each, whichever core), and every column
 * x of both meets its backward-error bound, computed in long double:
 * Cholesky (Thm 10.4 with || |L| |L^T| ||_2 <= n ||A||_2 for SPD A):
 * ||b - A x||_2 <= gamma_{3n+1} n ||A||_F ||x||_2; LU of the transpose
 * (Thm 9.4, growth below 2 for a diagonally dominant A, so
 * || |L| |U| ||_F <= 2 n ||A||_F): ||b - A^T x||_2 <= gamma_{3n} 2n ||A||_F
 * ||x||_2. */
static void test_sharded_solves(void **state) {
    (void)state;
    trnsciDeviceReset();
    const size_t an = (size_t)RS_N * RS_N, bn = (size_t)RS_N * RS_NRHS;
    double *a = malloc(an * sizeof(double)), *b = malloc(bn * sizeof(double));
    assert_non_null(a);
    assert_non_null(b);
    st_rng = 0x2468aceu;
    for (int j = 0; j < RS_N; j++)
        for (int i = j; i < RS_N; i++) {
            const double v = i == j ? RS_N : (double)st_uniform();
            a[(size_t)j * RS_N + i] = a[(size_t)i * RS_N + j] = v;
        }
    for (size_t k = 0; k < bn; k++)
        b[k] = (double)st_uniform();
    double *two = sharded_solves(daemon_under_test.unix_addr, a, b);
    double *one = sharded_solves(one_core.tcp_addr, a, b);
    assert_memory_equal(two, one, 2 * bn * sizeof(double));
    long double fa = 0;
    for (size_t k = 0; k < an; k++)
        fa += (long double)a[k] * a[k];
    fa = sqrtl(fa);
    const long double u = DBL_EPSILON / 2.0L;
    const long double g_chol = (3 * RS_N + 1) * u / (1 - (3 * RS_N + 1) * u) * RS_N,
                      g_lu = 3 * RS_N * u / (1 - 3 * RS_N * u) * 2 * RS_N;
    for (int k = 0; k < 2; k++)
        for (int c = 0; c < RS_NRHS; c++) {
            const double *x = two + (size_t)k * bn + (size_t)c * RS_N, *bc = b + (size_t)c * RS_N;
            long double rn = 0, xn = 0;
            for (int i = 0; i < RS_N; i++) {
                long double r = bc[i];
                for (int j = 0; j < RS_N; j++) /* A symmetric: A^T x = A x */
                    r -= (long double)a[(size_t)j * RS_N + i] * x[j];
                rn += r * r;
                xn += (long double)x[i] * x[i];
            }
            const long double bound = (k == 0 ? g_chol : g_lu) * fa * sqrtl(xn);
            if (!(sqrtl(rn) <= bound))
                fail_msg("%s column %d: residual %Lg above %Lg", k == 0 ? "potrs" : "getrs", c,
                         sqrtl(rn), bound);
            note(TY_D, k == 0 ? "potrs sharded residual / bound" : "getrs sharded residual / bound",
                 sqrtl(rn) / bound);
        }
    free(a);
    free(b);
    free(two);
    free(one);
}

int main(void) {
    st_daemon = &daemon_under_test;
    const char *const two_cores[] = {"--cores", "2", NULL};
    const char *const single[] = {"--cores", "1", NULL};
    if (th_daemon_start(&daemon_under_test, two_cores) != 0 ||
        th_daemon_start(&one_core, single) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cholesky),  cmocka_unit_test(test_cholesky_not_spd),
        cmocka_unit_test(test_lu),        cmocka_unit_test(test_lu_singular),
        cmocka_unit_test(test_qr),        cmocka_unit_test(test_batched),
        cmocka_unit_test(test_bad_input),
    };
    const struct CMUnitTest once[] = {cmocka_unit_test(test_sharded_batch),
                                      cmocka_unit_test(test_sharded_solves)};
    int failed = cmocka_run_group_tests_name("solver over the local transport", tests,
                                             st_connect_unix, st_disconnect);
    failed += cmocka_run_group_tests_name("solver over tcp", tests, st_connect_tcp, st_disconnect);
    failed += cmocka_run_group_tests_name("solver sharding", once, NULL, st_disconnect);
    failed += th_daemon_stop_checked(&daemon_under_test, "trnscid (2 cores)");
    failed += th_daemon_stop_checked(&one_core, "trnscid (1 core)");
    st_report("solver");
    return failed ? 1 : 0;
}
