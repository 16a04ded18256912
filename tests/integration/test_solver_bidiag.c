/*
 * test_solver_bidiag.c — trnsolver's bidiagonal reduction gebrd and
 * orgbr / ungbr (with their _bufferSize calls) for S, D, C and Z through a
 * real trnscid, over the local transport and gRPC over TCP.
 *
 * References (u the unit roundoff of the type; complex arithmetic doubles
 * the constants, as in test_solver.c):
 *  - gebrd of m x n (m >= n) then orgbr's Q (LEFT, k = n) and P^H (RIGHT,
 *    k = m): the Householder reduction is backward stable (Higham,
 *    Accuracy and Stability, §19.3, Thm 19.4 for products of reflectors):
 *    ||A - Q B P^H||_F <= THRESH m u ||A||_F, computed in long double from
 *    the values as stored; ||Q^H Q - I||_F <= THRESH m u and ||P^H P -
 *    I||_F <= THRESH n u; B's diagonal D and superdiagonal E are real and
 *    TAUP(n) = 0, as LAPACK's;
 *  - D and Z against LAPACKE's dgebrd / zgebrd in this process (9 x 6:
 *    LAPACK's unblocked gebd2 path): D and E within THRESH m u ||A||_F
 *    (the same transformations of the same matrix, both backward stable);
 *    then all four cases of orgbr / ungbr (Q with m >= k and m < k, P^H
 *    with k >= n and k < n, the last two from LAPACK's gebrd of a 4 x 7
 *    matrix, which cuSOLVER's gebrd does not take) against LAPACKE's
 *    dorgbr / zungbr on the same reflectors, elementwise within THRESH n u
 *    (entries of unitary matrices; each reflector applied is unitary up to
 *    rounding). This pins LAPACK's storage, including the conjugated rows
 *    of P's reflectors for complex types.
 * Every operand sits at an offset with padding (and lda > m) that must
 * come back unchanged. Bad input gives cuSOLVER's status (INVALID_VALUE
 * for m < n in gebrd and LAPACK's orgbr shape rules, NOT_INITIALIZED for a
 * NULL handle) with a message naming the argument, and queues nothing.
 * Empty shapes are no-ops with info 0.
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

#include <lapacke.h>

#include "harness.h"
#include "solver_test.h"

#define THRESH 30.0L
#define LEFT TRNBLAS_SIDE_LEFT
#define RIGHT TRNBLAS_SIDE_RIGHT

#define EXPECT(call, status, needle)                                                               \
    do {                                                                                           \
        assert_int_equal((call), (status));                                                        \
        st_expect_message(needle);                                                                 \
    } while (0)

static th_daemon daemon_under_test;

/* 2 for complex types: the constants of complex arithmetic. */
static long double cf(ty t) {
    return is_complex(t) ? 2.0L : 1.0L;
}

static ty real_ty(ty t) {
    return t == TY_C ? TY_S : t == TY_Z ? TY_D : t;
}

static void check_ratio(const char *what, long double value, long double limit) {
    st_note(what, limit > 0 ? value / limit : value, 1.0L);
    if (!(value <= limit))
        fail_msg("%s: %Lg exceeds the bound %Lg", what, value, limit);
}

/* ||X^H X - I||_F for X r x k (orthonormal columns). */
static long double orth_err(int r, int k, const lcplx *x) {
    long double s = 0;
    for (int j = 0; j < k; j++)
        for (int i = 0; i < k; i++) {
            lcplx g = 0;
            for (int l = 0; l < r; l++)
                g += conjl(x[(size_t)i * r + l]) * x[(size_t)j * r + l];
            if (i == j)
                g -= 1;
            s += creall(g * conjl(g));
        }
    return sqrtl(s);
}

/* A device vector of count elements of type t (at least one), uploaded. */
static void vec(st_mat *v, ty t, int count) {
    st_alloc(v, t, count, 1, count > 0 ? count : 1);
    st_upload(v);
}

/* A copy of the window rows x cols of a download of src into a new
 * matrix dst (ld rows + 1), uploaded. */
static void copy_into(st_mat *dst, const st_mat *src, const void *h, int rows, int cols) {
    st_alloc(dst, src->t, rows, cols, rows + 1);
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++)
            st_set(dst, i, j, st_got(src, h, i, j));
    st_upload(dst);
}

/* ---- A = Q B P^H ------------------------------------------------------------------- */

static void check_gebrd(ty t, int m, int n) {
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const long double u = st_u(t);
    st_mat A, D, E, TQ, TP, Q, P;
    st_alloc(&A, t, m, n, m + 2);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            st_set(&A, i, j, st_random(t));
    st_upload(&A);
    lcplx *a = st_take(&A);
    vec(&D, real_ty(t), n);
    vec(&E, real_ty(t), n - 1);
    vec(&TQ, t, n);
    vec(&TP, t, n);
    int *info = st_info_alloc(1);
    int lwork = -1;
    assert_int_equal(ST_CALL(t, gebrd_bufferSize, h, m, n, &lwork), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(lwork, 0);
    assert_int_equal(ST_CALL(t, gebrd, h, m, n, st_ptr(&A), A.ld, st_ptr(&D), st_ptr(&E),
                             st_ptr(&TQ), st_ptr(&TP), NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    void *ga = st_download(&A, NULL, NULL);
    void *gd = st_download(&D, NULL, NULL), *ge = st_download(&E, NULL, NULL);
    void *gp = st_download(&TP, NULL, NULL);
    free(st_download(&TQ, NULL, NULL));
    if (n > 0 && cabsl(st_got(&TP, gp, n - 1, 0)) != 0)
        fail_msg("gebrd %d x %d: TAUP(n) is not 0", m, n);

    /* Q (m x n) and P^H (n x n) from the reflectors. */
    copy_into(&Q, &A, ga, m, n);
    copy_into(&P, &A, ga, n, n);
    lwork = -1;
    assert_int_equal(ST_CALL2(t, orgbr_bufferSize, ungbr_bufferSize, h, LEFT, m, n, n, st_ptr(&Q),
                              Q.ld, st_ptr(&TQ), &lwork),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(lwork, 0);
    assert_int_equal(
        ST_CALL2(t, orgbr, ungbr, h, LEFT, m, n, n, st_ptr(&Q), Q.ld, st_ptr(&TQ), NULL, 0, info),
        TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    assert_int_equal(
        ST_CALL2(t, orgbr, ungbr, h, RIGHT, n, n, m, st_ptr(&P), P.ld, st_ptr(&TP), NULL, 0, info),
        TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    void *gq = st_download(&Q, NULL, NULL), *gpt = st_download(&P, NULL, NULL);
    lcplx *q = st_take_got(&Q, gq), *pt = st_take_got(&P, gpt);

    /* A - Q B P^H, B upper bidiagonal (n x n). */
    lcplx *b = st_lmat(n, n), *bp = st_lmat(n, n), *r = st_lmat(m, n);
    for (int i = 0; i < n; i++) {
        b[(size_t)i * n + i] = st_got(&D, gd, i, 0);
        if (i + 1 < n)
            b[(size_t)(i + 1) * n + i] = st_got(&E, ge, i, 0);
    }
    st_lmul(n, n, n, b, 0, pt, bp);
    st_lmul(m, n, n, q, 0, bp, r);
    for (size_t i = 0; i < (size_t)m * (size_t)n; i++)
        r[i] = a[i] - r[i];
    const long double na = st_lfro(m, n, a);
    check_ratio("gebrd ||A - Q B P^H||", st_lfro(m, n, r), THRESH * cf(t) * m * u * na);
    check_ratio("orgbr ||Q^H Q - I||", orth_err(m, n, q), THRESH * cf(t) * m * u);
    /* P^H's rows orthonormal: the columns of its conjugate transpose. */
    lcplx *p = st_lmat(n, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            p[(size_t)j * n + i] = conjl(pt[(size_t)i * n + j]);
    check_ratio("orgbr ||P^H P - I||", orth_err(n, n, p), THRESH * cf(t) * (n > 1 ? n : 1) * u);

    free(p);
    free(b);
    free(bp);
    free(r);
    free(q);
    free(pt);
    free(gq);
    free(gpt);
    free(ga);
    free(gd);
    free(ge);
    free(gp);
    free(a);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    st_free(&A);
    st_free(&D);
    st_free(&E);
    st_free(&TQ);
    st_free(&TP);
    st_free(&Q);
    st_free(&P);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_gebrd(void **state) {
    (void)state;
    static const int shapes[][2] = {{1, 1}, {2, 2}, {5, 3}, {6, 6}, {24, 17}, {9, 1}};
    for (int ti = 0; ti < 4; ti++)
        for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
            check_gebrd(all_types[ti], shapes[s][0], shapes[s][1]);
}

/* ---- against LAPACK ---------------------------------------------------------------- */

typedef double complex zc;

/* The LAPACK reference's rows x cols window (column-major, ld rows) as
 * long double. */
static lcplx ref_at(int z, const void *r, int ld, int i, int j) {
    return z ? (lcplx)((const zc *)r)[(size_t)j * ld + i] : ((const double *)r)[(size_t)j * ld + i];
}

/* orgbr / ungbr on (m, n, k) from the reflectors in r (ld lda) against
 * LAPACK's on the same input. */
static void orgbr_vs_lapack(trnsolverDnHandle_t h, int z, char vect, int m, int n, int k,
                            const void *r, int lda, const void *tau, int ntau) {
    const ty t = z ? TY_Z : TY_D;
    const size_t es = z ? sizeof(zc) : sizeof(double);
    void *ref = malloc((size_t)lda * (size_t)n * es);
    assert_non_null(ref);
    memcpy(ref, r, (size_t)lda * (size_t)n * es);
    const lapack_int li = z ? LAPACKE_zungbr(LAPACK_COL_MAJOR, vect, m, n, k, ref, lda, tau)
                            : LAPACKE_dorgbr(LAPACK_COL_MAJOR, vect, m, n, k, ref, lda, tau);
    assert_int_equal(li, 0);
    st_mat A, T;
    st_alloc(&A, t, m, n, lda + 1);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            st_set(&A, i, j, ref_at(z, r, lda, i, j));
    st_upload(&A);
    st_alloc(&T, t, ntau, 1, ntau > 0 ? ntau : 1);
    for (int i = 0; i < ntau; i++)
        st_set(&T, i, 0, ref_at(z, tau, 1, i, 0));
    st_upload(&T);
    int *info = st_info_alloc(1);
    assert_int_equal(ST_CALL2(t, orgbr, ungbr, h, vect == 'Q' ? LEFT : RIGHT, m, n, k, st_ptr(&A),
                              A.ld, st_ptr(&T), NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    void *g = st_download(&A, NULL, NULL);
    long double worst = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            worst = fmaxl(worst, cabsl(st_got(&A, g, i, j) - ref_at(z, ref, lda, i, j)));
    char what[64];
    snprintf(what, sizeof(what), "%s %c (k %s) vs LAPACK", z ? "ungbr" : "orgbr", vect,
             (vect == 'Q' ? m >= k : k < n) ? "small" : "large");
    check_ratio(what, worst, THRESH * cf(t) * (m > n ? m : n) * st_u(t));
    free(g);
    free(ref);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    st_free(&A);
    st_free(&T);
}

static void check_lapack(int z) {
    enum { M = 9, N = 6, W_M = 4, W_N = 7 };
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const ty t = z ? TY_Z : TY_D;
    const long double u = st_u(t);
    st_mat A;
    st_alloc(&A, t, M, N, M);
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++)
            st_set(&A, i, j, st_random(t));
    st_upload(&A);
    lcplx *a = st_take(&A);
    zc lz[M * N], tqz[N], tpz[N];
    double ld[M * N], tqd[N], tpd[N], dref[N], eref[N];
    for (int i = 0; i < M * N; i++) {
        lz[i] = (zc)a[i];
        ld[i] = (double)creall(a[i]);
    }
    const lapack_int li = z ? LAPACKE_zgebrd(LAPACK_COL_MAJOR, M, N, lz, M, dref, eref, tqz, tpz)
                            : LAPACKE_dgebrd(LAPACK_COL_MAJOR, M, N, ld, M, dref, eref, tqd, tpd);
    assert_int_equal(li, 0);
    st_mat D, E, TQ, TP;
    vec(&D, TY_D, N);
    vec(&E, TY_D, N - 1);
    vec(&TQ, t, N);
    vec(&TP, t, N);
    int *info = st_info_alloc(1);
    assert_int_equal(ST_CALL(t, gebrd, h, M, N, st_ptr(&A), M, st_ptr(&D), st_ptr(&E), st_ptr(&TQ),
                             st_ptr(&TP), NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    void *gd = st_download(&D, NULL, NULL), *ge = st_download(&E, NULL, NULL);
    long double worst = 0;
    for (int k = 0; k < N; k++) {
        worst = fmaxl(worst, fabsl(creall(st_got(&D, gd, k, 0)) - dref[k]));
        if (k + 1 < N)
            worst = fmaxl(worst, fabsl(creall(st_got(&E, ge, k, 0)) - eref[k]));
    }
    check_ratio("gebrd D, E vs LAPACK", worst, THRESH * cf(t) * M * u * st_lfro(M, N, a));
    free(gd);
    free(ge);
    /* orgbr on LAPACK's reflectors: Q with m >= k, P^H with k >= n. */
    const void *lr = z ? (const void *)lz : (const void *)ld;
    orgbr_vs_lapack(h, z, 'Q', M, N, N, lr, M, z ? (const void *)tqz : (const void *)tqd, N);
    orgbr_vs_lapack(h, z, 'P', N, N, M, lr, M, z ? (const void *)tpz : (const void *)tpd, N);
    /* A wide matrix (LAPACK's lower bidiagonal case): Q with m < k, P^H
     * with k < n. */
    zc wz[W_M * W_N], wqz[W_M], wpz[W_M];
    double wd[W_M * W_N], wqd[W_M], wpd[W_M], wdd[W_M], wde[W_M];
    for (int i = 0; i < W_M * W_N; i++) {
        const lcplx v = st_random(t);
        wz[i] = (zc)v;
        wd[i] = (double)creall(v);
    }
    const lapack_int lw =
        z ? LAPACKE_zgebrd(LAPACK_COL_MAJOR, W_M, W_N, wz, W_M, wdd, wde, wqz, wpz)
          : LAPACKE_dgebrd(LAPACK_COL_MAJOR, W_M, W_N, wd, W_M, wdd, wde, wqd, wpd);
    assert_int_equal(lw, 0);
    const void *wr = z ? (const void *)wz : (const void *)wd;
    orgbr_vs_lapack(h, z, 'Q', W_M, W_M, W_N, wr, W_M, z ? (const void *)wqz : (const void *)wqd,
                    W_M);
    orgbr_vs_lapack(h, z, 'P', W_M, W_N, W_M, wr, W_M, z ? (const void *)wpz : (const void *)wpd,
                    W_M);
    free(a);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    st_free(&A);
    st_free(&D);
    st_free(&E);
    st_free(&TQ);
    st_free(&TP);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_lapack(void **state) {
    (void)state;
    check_lapack(0);
    check_lapack(1);
}

/* ---- empty shapes and bad input ---------------------------------------------------- */

static void test_empty(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    int *info = st_info_alloc(1);
    assert_int_equal(trnsolverDnDgebrd(h, 0, 0, NULL, 1, NULL, NULL, NULL, NULL, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    assert_int_equal(trnsciMemset(info, 0x5a, sizeof(int)), trnsciSuccess);
    assert_int_equal(trnsolverDnZungbr(h, LEFT, 0, 0, 0, NULL, 1, NULL, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_bad_input(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const int m = 6, n = 4;
    st_mat A, V;
    st_alloc(&A, TY_D, m, n, m);
    st_upload(&A);
    st_alloc(&V, TY_D, m, 1, m);
    st_upload(&V);
    double *a = st_ptr(&A), *v = st_ptr(&V), host[8] = {0};
    int *info = st_info_alloc(1);
    int lwork = 0;
    assert_int_equal(trnsolverDnDgebrd_bufferSize(NULL, m, n, &lwork),
                     TRNSOLVER_STATUS_NOT_INITIALIZED);
    EXPECT(trnsolverDnDgebrd_bufferSize(h, m, n, NULL), TRNSOLVER_STATUS_INVALID_VALUE, "lwork");
    assert_int_equal(trnsolverDnDgebrd(NULL, m, n, a, m, v, v, v, v, NULL, 0, info),
                     TRNSOLVER_STATUS_NOT_INITIALIZED);
    EXPECT(trnsolverDnDgebrd(h, n - 1, n, a, m, v, v, v, v, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "m=3 must be >= n=4");
    EXPECT(trnsolverDnDgebrd(h, -1, n, a, m, v, v, v, v, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "m=-1");
    EXPECT(trnsolverDnDgebrd(h, m, -2, a, m, v, v, v, v, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "n=-2");
    EXPECT(trnsolverDnDgebrd(h, m, n, a, m - 1, v, v, v, v, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "lda=5");
    EXPECT(trnsolverDnDgebrd(h, m, n, a, m, v, host, v, v, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "gebrd: E");
    EXPECT(trnsolverDnDgebrd(h, m, n, a, m, v, v, v, host, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "gebrd: TAUP");
    EXPECT(trnsolverDnDgebrd(h, m, n, a, m, v, v, v, v, NULL, 0, NULL),
           TRNSOLVER_STATUS_INVALID_VALUE, "gebrd: info");
    EXPECT(trnsolverDnDorgbr_bufferSize(h, LEFT, m, n, n, a, m, v, NULL),
           TRNSOLVER_STATUS_INVALID_VALUE, "lwork");
    EXPECT(trnsolverDnDorgbr(h, (trnblasSideMode_t)3, m, n, n, a, m, v, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "side=3");
    EXPECT(trnsolverDnDorgbr(h, LEFT, n, m, n, a, m, v, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "m >= n >= min(m, k)");
    EXPECT(trnsolverDnDorgbr(h, LEFT, m, 2, n, a, m, v, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "m >= n >= min(m, k)");
    EXPECT(trnsolverDnDorgbr(h, RIGHT, m, n, n, a, m, v, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "n >= m >= min(n, k)");
    EXPECT(trnsolverDnDorgbr(h, RIGHT, n, n, -1, a, m, v, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "k=-1");
    EXPECT(trnsolverDnDorgbr(h, LEFT, m, n, n, a, m - 1, v, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "lda=5");
    EXPECT(trnsolverDnDorgbr(h, LEFT, m, n, n, a, m, host, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "orgbr: tau");
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess); /* nothing was queued */
    st_untouched(&A);
    st_untouched(&V);
    /* The daemon still serves. */
    assert_int_equal(trnsolverDnDgebrd(h, 1, 1, a, 1, v, v, v, v + 1, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    st_free(&A);
    st_free(&V);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

int main(void) {
    if (st_start(&daemon_under_test) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gebrd),
        cmocka_unit_test(test_lapack),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_bad_input),
    };
    int failed = ST_RUN_BOTH("solver bidiag", tests);
    failed += st_finish("solver_bidiag");
    return failed ? 1 : 0;
}
