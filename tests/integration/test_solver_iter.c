/*
 * test_solver_iter.c — trnsolver's iterative routines through a real
 * trnscid over the local transport and gRPC over TCP: the trnsci extensions
 * (invSqrtSpd, DSsolveSpd, DSgmresIr) and the Krylov solvers (CG,
 * GMRES(m), BiCGStab with no, Jacobi, block-Jacobi and SSOR
 * preconditioning) on dense matrices.
 *
 * References, all in long double in this test:
 *  - invSqrtSpd: A = Q diag(lambda) Q^H is built with known Q and lambda,
 *    so A^(-1/2) = Q diag(lambda^(-1/2)) Q^H exactly; the forward error
 *    ||X - A^(-1/2)||_F / ||A^(-1/2)||_F is held to 10 n u kappa(A) (the
 *    relative condition number of A^(-1/2) is at most kappa(A): Higham,
 *    Functions of Matrices, Thm 6.1 and §6.1 for the square root and the
 *    inverse), and the reported residual ||I - X A X||_F / sqrt(n) is
 *    recomputed here and must agree with the record to within the rounding
 *    of forming X A X in the working precision, gamma_{2n} || |X||A||X| ||_F
 *    / sqrt(n).
 *  - the refinements: the exact solution x* of the system the daemon sees
 *    (Gaussian elimination with partial pivoting in long double, whose own
 *    error is ~kappa 2^-64, far below the checks); on convergence the
 *    normwise backward error eta = ||b - A x||_inf / (||A||_inf ||x||_inf +
 *    ||b||_inf), recomputed here, must be at most the tolerance (default
 *    sqrt(n) u) plus the rounding of the daemon's own double residual
 *    (2 gamma_{n+1}), and the forward error at most 4 n kappa_inf(A) u (Higham,
 *    Accuracy and Stability, Thm 7.2 with the backward error above); for
 *    kappa up to 1e7 (SPD: kappa_2 = 1e7 built in; general: sigma_max /
 *    sigma_min = 1e7). A non positive definite (solveSpd) or exactly
 *    singular (gmresIr) matrix gives info > 0.
 *  - Krylov solvers: on the 2D Poisson matrix (5-point Laplacian, a 32 x 32
 *    grid, n = 1024, Dirichlet boundaries) and a non-symmetric
 *    convection-diffusion matrix (the same grid, first-order upwind
 *    convection with grid Peclet number 0.5 in x, 0.25 in y), both stored
 *    dense: converged status, and the true relative residual ||b - A x||_2 /
 *    ||b||_2 recomputed here from the returned x (in long double) at most
 *    the tolerance times 1.01 (the record's residual is computed in the
 *    working precision; they agree to rounding) and equal to the record's
 *    to within 1e-2 relative. SSOR cuts CG's iterations on Poisson.
 *    Edge cases: b = 0 gives x = 0 in 0 iterations; an iteration limit
 *    gives MAX_ITERS with the residual above the tolerance; a zero diagonal
 *    refuses Jacobi and SSOR (PRECOND_FAILED, x untouched); CG on an
 *    indefinite matrix reports BREAKDOWN; a NaN in b reports NONFINITE.
 *  - bad input: the operator's type against the routine, NULL operator,
 *    invalid parameters, freed pointers: the cuSOLVER status, a message
 *    naming the argument.
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

#include "harness.h"
#include "solver_test.h"

static th_daemon daemon_under_test;

static trnsolverIterResult_t *result_alloc(void) {
    trnsolverIterResult_t *d;
    assert_int_equal(trnsciMalloc((void **)&d, sizeof(*d)), trnsciSuccess);
    return d;
}

/* x = A^-1 b in long double (partial pivoting); a is n x n, destroyed. */
static void lsolve(int n, lcplx *a, lcplx *x) {
    for (int k = 0; k < n; k++) {
        int p = k;
        for (int i = k + 1; i < n; i++)
            if (cabsl(a[(size_t)k * n + i]) > cabsl(a[(size_t)k * n + p]))
                p = i;
        for (int j = 0; j < n; j++) {
            const lcplx tmp = a[(size_t)j * n + k];
            a[(size_t)j * n + k] = a[(size_t)j * n + p];
            a[(size_t)j * n + p] = tmp;
        }
        const lcplx tb = x[k];
        x[k] = x[p];
        x[p] = tb;
        for (int i = k + 1; i < n; i++) {
            const lcplx f = a[(size_t)k * n + i] / a[(size_t)k * n + k];
            for (int j = k; j < n; j++)
                a[(size_t)j * n + i] -= f * a[(size_t)j * n + k];
            x[i] -= f * x[k];
        }
    }
    for (int i = n - 1; i >= 0; i--) {
        lcplx s = x[i];
        for (int j = i + 1; j < n; j++)
            s -= a[(size_t)j * n + i] * x[j];
        x[i] = s / a[(size_t)i * n + i];
    }
}

static long double norm_inf(int rows, int cols, const lcplx *a) {
    long double best = 0;
    for (int i = 0; i < rows; i++) {
        long double s = 0;
        for (int j = 0; j < cols; j++)
            s += cabsl(a[(size_t)j * rows + i]);
        best = s > best ? s : best;
    }
    return best;
}

/* ---- invSqrtSpd -------------------------------------------------------------------- */

static void check_inv_sqrt(ty t, int n, long double kappa) {
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    lcplx *want = NULL;
    lcplx *a = st_spd_pow(t, n, kappa, -0.5L, &want);
    st_mat A, X;
    st_alloc(&A, t, n, n, n + 1);
    st_fill(&A, a);
    st_upload(&A);
    st_alloc(&X, t, n, n, n + 3);
    st_upload(&X);
    lcplx *ar = st_take(&A); /* as the type stores it */
    trnsolverIterResult_t *res = result_alloc();
    const trnsolverStatus_t st =
        t == TY_S ? trnsolverDnSinvSqrtSpd(h, n, st_ptr(&A), A.ld, st_ptr(&X), X.ld, NULL, res)
                  : trnsolverDnDinvSqrtSpd(h, n, st_ptr(&A), A.ld, st_ptr(&X), X.ld, NULL, res);
    assert_int_equal(st, TRNSOLVER_STATUS_SUCCESS);
    const trnsolverIterResult_t r = read_result(res);
    assert_int_equal(r.status, TRNSOLVER_ITER_CONVERGED);
    assert_true(r.iterations > 0 && r.iterations < 100);
    void *xg = st_download(&X, NULL, NULL);
    lcplx *x = st_take_got(&X, xg);
    long double err = 0;
    for (size_t i = 0; i < (size_t)n * n; i++)
        err += creall((x[i] - want[i]) * conjl(x[i] - want[i]));
    const long double rel = sqrtl(err) / st_lfro(n, n, want);
    const long double bound = 10.0L * n * st_u(t) * kappa;
    st_note(t == TY_S ? "S invSqrtSpd forward / (n u kappa)" : "D invSqrtSpd forward / (n u kappa)",
            rel / (n * st_u(t) * kappa), 10.0L);
    if (!(rel <= bound))
        fail_msg("%s invSqrtSpd n=%d kappa=%Lg: forward error %Lg > %Lg", ty_name[t], n, kappa, rel,
                 bound);
    /* The recorded residual ||I - X A X||_F / sqrt(n), recomputed. */
    lcplx *ax = st_lmat(n, n), *xax = st_lmat(n, n);
    st_lmul(n, n, n, ar, 0, x, ax);
    st_lmul(n, n, n, x, 0, ax, xax);
    for (int i = 0; i < n; i++)
        xax[(size_t)i * n + i] -= 1;
    const long double ours = st_lfro(n, n, xax) / sqrtl(n);
    /* The daemon forms X A X in the working precision: its residual may be
     * off by gamma_{2n} || |X| |A| |X| ||_F / sqrt(n) (two products). */
    lcplx *abs_x = st_lmat(n, n), *abs_a = st_lmat(n, n);
    for (size_t i = 0; i < (size_t)n * n; i++) {
        abs_x[i] = cabsl(x[i]);
        abs_a[i] = cabsl(ar[i]);
    }
    st_lmul(n, n, n, abs_a, 0, abs_x, ax);
    st_lmul(n, n, n, abs_x, 0, ax, xax);
    const long double slack = st_gamma(t, 2 * n) * st_lfro(n, n, xax) / sqrtl(n);
    free(abs_x);
    free(abs_a);
    if (!(fabsl(ours - r.residual) <= slack))
        fail_msg("%s invSqrtSpd: recorded residual %g, recomputed %Lg", ty_name[t], r.residual,
                 ours);
    free(a);
    free(ar);
    free(want);
    free(x);
    free(xg);
    free(ax);
    free(xax);
    st_free(&A);
    st_free(&X);
    assert_int_equal(trnsciFree(res), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_inv_sqrt(void **state) {
    (void)state;
    check_inv_sqrt(TY_S, 30, 100.0L);
    check_inv_sqrt(TY_D, 30, 1e4L);
    check_inv_sqrt(TY_D, 60, 1e6L);
    /* Not positive definite (a negative eigenvalue) and zero: a status,
     * never a crash. */
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    double *a, *x;
    const int n = 8;
    assert_int_equal(trnsciMalloc((void **)&a, n * n * sizeof(double)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&x, n * n * sizeof(double)), trnsciSuccess);
    double host[64] = {0};
    for (int i = 0; i < n; i++)
        host[i * n + i] = i == 3 ? -1.0 : 1.0 + i;
    assert_int_equal(trnsciMemcpy(a, host, sizeof(host), trnsciMemcpyHostToDevice), trnsciSuccess);
    trnsolverIterResult_t *res = result_alloc();
    assert_int_equal(trnsolverDnDinvSqrtSpd(h, n, a, n, x, n, NULL, res), TRNSOLVER_STATUS_SUCCESS);
    trnsolverIterResult_t r = read_result(res);
    assert_true(r.status == TRNSOLVER_ITER_MAX_ITERS || r.status == TRNSOLVER_ITER_NONFINITE);
    assert_int_equal(trnsciMemset(a, 0, n * n * sizeof(double)), trnsciSuccess);
    assert_int_equal(trnsolverDnDinvSqrtSpd(h, n, a, n, x, n, NULL, res), TRNSOLVER_STATUS_SUCCESS);
    r = read_result(res);
    assert_int_equal(r.status, TRNSOLVER_ITER_BREAKDOWN);
    /* An iteration limit of 2 is not enough for kappa 1e4. */
    lcplx *spd = st_spd(TY_D, n, 1e4L);
    for (int i = 0; i < n * n; i++)
        host[i] = (double)creall(spd[i]);
    free(spd);
    assert_int_equal(trnsciMemcpy(a, host, sizeof(host), trnsciMemcpyHostToDevice), trnsciSuccess);
    trnsolverIterParams_t p;
    assert_int_equal(trnsolverCreateIterParams(&p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverIterParamsSetMaxIters(p, 2), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDinvSqrtSpd(h, n, a, n, x, n, p, res), TRNSOLVER_STATUS_SUCCESS);
    r = read_result(res);
    assert_int_equal(r.status, TRNSOLVER_ITER_MAX_ITERS);
    assert_int_equal(r.iterations, 2);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess); /* results, not errors */
    assert_int_equal(trnsolverDestroyIterParams(p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsciFree(a), trnsciSuccess);
    assert_int_equal(trnsciFree(x), trnsciSuccess);
    assert_int_equal(trnsciFree(res), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* ---- mixed-precision refinement --------------------------------------------------- */

/* gmres: DSgmresIr on a general matrix, else DSsolveSpd on an SPD one. */
static void check_refine(int gmres, int n, int nrhs, long double kappa, int lower) {
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    lcplx *a = gmres ? st_general(TY_D, n, kappa) : st_spd(TY_D, n, kappa);
    st_mat A, B, X;
    st_alloc(&A, TY_D, n, n, n + 1);
    st_fill(&A, a);
    if (!gmres) /* the other triangle is not read */
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                if (lower ? i < j : i > j)
                    st_set(&A, i, j, 1e30L);
    st_upload(&A);
    st_alloc(&B, TY_D, n, nrhs, n + 2);
    for (int j = 0; j < nrhs; j++)
        for (int i = 0; i < n; i++)
            st_set(&B, i, j, st_uniform());
    st_upload(&B);
    st_alloc(&X, TY_D, n, nrhs, n);
    st_upload(&X);
    lcplx *ad = st_take(&A);
    if (!gmres) /* the full matrix the daemon means */
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                if (lower ? i < j : i > j)
                    ad[(size_t)j * n + i] = ad[(size_t)i * n + j];
    trnsolverIterResult_t *res = result_alloc();
    int *info = st_info_alloc(1);
    const trnsolverStatus_t st =
        gmres ? trnsolverDnDSgmresIr(h, n, nrhs, st_ptr(&A), A.ld, st_ptr(&B), B.ld, st_ptr(&X),
                                     X.ld, NULL, res, info)
              : trnsolverDnDSsolveSpd(h, lower ? TRNBLAS_FILL_MODE_LOWER : TRNBLAS_FILL_MODE_UPPER,
                                      n, nrhs, st_ptr(&A), A.ld, st_ptr(&B), B.ld, st_ptr(&X), X.ld,
                                      NULL, res, info);
    assert_int_equal(st, TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    const trnsolverIterResult_t r = read_result(res);
    const char *what = gmres ? "gmresIr" : "solveSpd";
    if (r.status != TRNSOLVER_ITER_CONVERGED && r.status != TRNSOLVER_ITER_FALLBACK)
        fail_msg("%s kappa=%Lg: status %d", what, kappa, r.status);
    if (kappa <= 1e5L && r.status != TRNSOLVER_ITER_CONVERGED)
        fail_msg("%s kappa=%Lg: fell back (status %d) where FP32 suffices", what, kappa, r.status);
    void *xg = st_download(&X, NULL, NULL);
    lcplx *inv = st_lmat(n, n);
    /* kappa_inf(A) = ||A||_inf ||A^-1||_inf from the exact inverse. */
    for (int j = 0; j < n; j++) {
        lcplx *e = inv + (size_t)j * n;
        e[j] = 1;
        lcplx *tmp = st_lmat(n, n);
        memcpy(tmp, ad, (size_t)n * n * sizeof(lcplx));
        lsolve(n, tmp, e);
        free(tmp);
    }
    const long double anorm = norm_inf(n, n, ad), kinf = anorm * norm_inf(n, n, inv);
    /* The daemon stops on eta computed in double, whose residual carries up
     * to gamma_{n+1} (|b| + |A||x|) of rounding (Higham (3.4)), so the
     * true eta may exceed the tolerance by 2 gamma_{n+1}. */
    const long double u = st_u(TY_D), tol = sqrtl(n) * u + 2 * st_gamma(TY_D, n + 1);
    long double worst_eta = 0;
    for (int j = 0; j < nrhs; j++) {
        lcplx *xs = st_lmat(n, 1), *r_ = st_lmat(n, 1);
        long double xn = 0, bn = 0, rn = 0, en = 0, xsn = 0;
        for (int i = 0; i < n; i++) {
            lcplx s = 0;
            for (int l = 0; l < n; l++)
                s += inv[(size_t)l * n + i] * st_at(&B, l, j);
            xs[i] = s;
        }
        for (int i = 0; i < n; i++) {
            lcplx s = st_at(&B, i, j);
            for (int l = 0; l < n; l++)
                s -= ad[(size_t)l * n + i] * st_got(&X, xg, l, j);
            rn = fmaxl(rn, cabsl(s));
            xn = fmaxl(xn, cabsl(st_got(&X, xg, i, j)));
            bn = fmaxl(bn, cabsl(st_at(&B, i, j)));
            en = fmaxl(en, cabsl(st_got(&X, xg, i, j) - xs[i]));
            xsn = fmaxl(xsn, cabsl(xs[i]));
        }
        const long double eta = rn / (anorm * xn + bn);
        worst_eta = fmaxl(worst_eta, eta);
        char name[80];
        snprintf(name, sizeof(name), "%s eta / tol", what);
        st_note(name, eta / tol, 1.0L);
        snprintf(name, sizeof(name), "%s forward / (n kappa u)", what);
        st_note(name, en / xsn / (n * kinf * u), 4.0L);
        if (!(eta <= tol))
            fail_msg("%s kappa=%Lg rhs %d: backward error %Lg > %Lg", what, kappa, j, eta, tol);
        if (!(en / xsn <= 4 * n * kinf * u))
            fail_msg("%s kappa=%Lg rhs %d: forward error %Lg > %Lg", what, kappa, j, en / xsn,
                     4 * n * kinf * u);
        free(xs);
        free(r_);
    }
    /* The recorded residual is this backward error (computed in double). */
    if (!(fabsl(r.residual - worst_eta) <= 0.05L * worst_eta + 2 * st_gamma(TY_D, n + 1)))
        fail_msg("%s: recorded residual %g, recomputed %Lg", what, r.residual, worst_eta);
    free(a);
    free(ad);
    free(inv);
    free(xg);
    st_free(&A);
    st_free(&B);
    st_free(&X);
    assert_int_equal(trnsciFree(res), trnsciSuccess);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_refine(void **state) {
    (void)state;
    check_refine(0, 40, 2, 1e2L, 1);
    check_refine(0, 60, 1, 1e5L, 0);
    check_refine(0, 60, 2, 1e7L, 1);
    check_refine(1, 40, 2, 1e2L, 0);
    check_refine(1, 60, 1, 1e5L, 0);
    check_refine(1, 60, 2, 1e7L, 0);
    /* Not positive definite / exactly singular: info > 0. */
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const int n = 6;
    double host[36] = {0}, *a, *b, *x;
    for (int i = 0; i < n; i++)
        host[i * n + i] = i == 2 ? -4.0 : 4.0;
    assert_int_equal(trnsciMalloc((void **)&a, sizeof(host)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&b, n * sizeof(double)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&x, n * sizeof(double)), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(a, host, sizeof(host), trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemset(b, 0, n * sizeof(double)), trnsciSuccess);
    int *info = st_info_alloc(1);
    trnsolverIterResult_t *res = result_alloc();
    assert_int_equal(
        trnsolverDnDSsolveSpd(h, TRNBLAS_FILL_MODE_LOWER, n, 1, a, n, b, n, x, n, NULL, res, info),
        TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 3);
    assert_int_equal(read_result(res).status, TRNSOLVER_ITER_FALLBACK);
    host[2 * n + 2] = 0.0;
    assert_int_equal(trnsciMemcpy(a, host, sizeof(host), trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsolverDnDSgmresIr(h, n, 1, a, n, b, n, x, n, NULL, res, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 3);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnsciFree(a), trnsciSuccess);
    assert_int_equal(trnsciFree(b), trnsciSuccess);
    assert_int_equal(trnsciFree(x), trnsciSuccess);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsciFree(res), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* ---- Krylov solvers ------------------------------------------------------------------- */

#define GRID 32
#define NK (GRID * GRID)

/* The 5-point operator on a GRID x GRID interior grid (spacing 1, the
 * matrix scaled by h^2): 4 on the diagonal, -1 to the neighbours, plus, with
 * convection, first-order upwind differences of (px, py) . grad u (grid
 * Peclet numbers px, py): -px to the west and -py to the south neighbour
 * and +px + py on the diagonal. */
static long double *grid_matrix(long double px, long double py) {
    long double *a = calloc((size_t)NK * NK, sizeof(long double));
    assert_non_null(a);
    for (int y = 0; y < GRID; y++)
        for (int x = 0; x < GRID; x++) {
            const int i = y * GRID + x;
            a[(size_t)i * NK + i] = 4.0L + px + py;
            if (x > 0)
                a[(size_t)(i - 1) * NK + i] = -1.0L - px;
            if (x < GRID - 1)
                a[(size_t)(i + 1) * NK + i] = -1.0L;
            if (y > 0)
                a[(size_t)(i - GRID) * NK + i] = -1.0L - py;
            if (y < GRID - 1)
                a[(size_t)(i + GRID) * NK + i] = -1.0L;
        }
    return a;
}

/* A device copy of the long double NK x NK matrix in type t. */
static void *upload_grid(ty t, const long double *a) {
    void *host = malloc((size_t)NK * NK * esize(t)), *dev;
    assert_non_null(host);
    for (size_t i = 0; i < (size_t)NK * NK; i++)
        put(t, host, i, a[i]);
    assert_int_equal(trnsciMalloc(&dev, (size_t)NK * NK * esize(t)), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dev, host, (size_t)NK * NK * esize(t), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    free(host);
    return dev;
}

/* Solves on the grid matrix a (device copy dev) from x = 0 with b = A 1 +
 * noise; checks convergence as the file comment says. Returns iterations. */
static int solve_grid(trnsolverDnHandle_t h, ty t, kmethod k, const long double *a, void *dev,
                      trnsolverPrecond_t pc, double tol) {
    trnsolverOperator_t op;
    assert_int_equal(t == TY_S ? trnsolverCreateDenseOperatorS(&op, NK, dev, NK)
                               : trnsolverCreateDenseOperatorD(&op, NK, dev, NK),
                     TRNSOLVER_STATUS_SUCCESS);
    trnsolverIterParams_t p;
    assert_int_equal(trnsolverCreateIterParams(&p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverIterParamsSetTolerance(p, tol), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(
        trnsolverIterParamsSetPreconditioner(p, pc, 16, pc == TRNSOLVER_PRECOND_SSOR ? 1.3 : 0.0),
        TRNSOLVER_STATUS_SUCCESS);
    void *bh = malloc((size_t)NK * esize(t)), *xh = malloc((size_t)NK * esize(t)), *b, *x;
    assert_non_null(bh);
    assert_non_null(xh);
    for (int i = 0; i < NK; i++) {
        long double s = 0;
        for (int j = 0; j < NK; j++)
            s += a[(size_t)j * NK + i];
        put(t, bh, (size_t)i, s + 0.1L * st_uniform());
    }
    assert_int_equal(trnsciMalloc(&b, (size_t)NK * esize(t)), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&x, (size_t)NK * esize(t)), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(b, bh, (size_t)NK * esize(t), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    trnsolverIterResult_t *res = result_alloc();
    assert_int_equal(call_krylov(h, t, k, op, b, x, p, res), TRNSOLVER_STATUS_SUCCESS);
    const trnsolverIterResult_t r = read_result(res);
    assert_int_equal(trnsciMemcpy(xh, x, (size_t)NK * esize(t), trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    long double rn = 0, bn = 0;
    for (int i = 0; i < NK; i++) {
        long double s = creall(get(t, bh, (size_t)i));
        for (int j = 0; j < NK; j++)
            s -= a[(size_t)j * NK + i] * creall(get(t, xh, (size_t)j));
        rn += s * s;
        bn += creall(get(t, bh, (size_t)i)) * creall(get(t, bh, (size_t)i));
    }
    const long double rel = sqrtl(rn / bn);
    if (r.status != TRNSOLVER_ITER_CONVERGED || !(rel <= 1.01L * tol) ||
        !(fabsl(rel - r.residual) <= 1e-2L * rel + 1e-2L * tol))
        fail_msg("%s %s precond %d: status %d after %d iterations, recorded residual %g, true %Lg "
                 "(tolerance %g)",
                 ty_name[t], kname[k], (int)pc, r.status, r.iterations, r.residual, rel, tol);
    char name[80];
    snprintf(name, sizeof(name), "%s %s true residual / tol", ty_name[t], kname[k]);
    st_note(name, rel / tol, 1.01L);
    free(bh);
    free(xh);
    assert_int_equal(trnsciFree(b), trnsciSuccess);
    assert_int_equal(trnsciFree(x), trnsciSuccess);
    assert_int_equal(trnsciFree(res), trnsciSuccess);
    assert_int_equal(trnsolverDestroyIterParams(p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDestroyOperator(op), TRNSOLVER_STATUS_SUCCESS);
    return r.iterations;
}

static void test_krylov_poisson(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    long double *a = grid_matrix(0, 0);
    for (int ti = 0; ti < 2; ti++) {
        const ty t = ti ? TY_D : TY_S;
        const double tol = t == TY_S ? 1e-4 : 1e-10;
        void *dev = upload_grid(t, a);
        for (int k = 0; k < 3; k++) {
            if (!st_full && (k != (int)K_CG || t == TY_S))
                continue;
            int its[4];
            for (int pc = 0; pc < 4; pc++)
                its[pc] = solve_grid(h, t, (kmethod)k, a, dev, (trnsolverPrecond_t)pc, tol);
            if (k == K_CG && !(its[TRNSOLVER_PRECOND_SSOR] < its[TRNSOLVER_PRECOND_NONE]))
                fail_msg("%s cg: SSOR took %d iterations, none %d", ty_name[t],
                         its[TRNSOLVER_PRECOND_SSOR], its[TRNSOLVER_PRECOND_NONE]);
        }
        assert_int_equal(trnsciFree(dev), trnsciSuccess);
    }
    free(a);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_krylov_convection(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    long double *a = grid_matrix(0.5L, 0.25L);
    for (int ti = 0; ti < 2; ti++) {
        const ty t = ti ? TY_D : TY_S;
        if (!st_full && t == TY_S)
            continue;
        const double tol = t == TY_S ? 1e-4 : 1e-10;
        void *dev = upload_grid(t, a);
        for (int k = K_GMRES; k <= K_BICGSTAB; k++)
            for (int pc = 0; pc < 4; pc++)
                if (st_full || pc == TRNSOLVER_PRECOND_BLOCK_JACOBI)
                    (void)solve_grid(h, t, (kmethod)k, a, dev, (trnsolverPrecond_t)pc, tol);
        assert_int_equal(trnsciFree(dev), trnsciSuccess);
    }
    free(a);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* b = 0; an iteration limit; a zero diagonal; CG on an indefinite matrix; NaN. */
static void test_krylov_edges(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const int n = 10;
    double ah[100] = {0}, bh[10], xh[10];
    for (int i = 0; i < n; i++) {
        ah[i * n + i] = 2.0;
        if (i > 0)
            ah[i * n + i - 1] = ah[(i - 1) * n + i] = -1.0;
        bh[i] = 1.0;
    }
    double *a, *b, *x;
    assert_int_equal(trnsciMalloc((void **)&a, sizeof(ah)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&b, sizeof(bh)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&x, sizeof(xh)), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(a, ah, sizeof(ah), trnsciMemcpyHostToDevice), trnsciSuccess);
    trnsolverOperator_t op;
    assert_int_equal(trnsolverCreateDenseOperatorD(&op, n, a, n), TRNSOLVER_STATUS_SUCCESS);
    trnsolverIterParams_t p;
    assert_int_equal(trnsolverCreateIterParams(&p), TRNSOLVER_STATUS_SUCCESS);
    trnsolverIterResult_t *res = result_alloc();
    /* b = 0: x = 0 at once, whatever x held. */
    assert_int_equal(trnsciMemset(b, 0, sizeof(bh)), trnsciSuccess);
    assert_int_equal(trnsciMemset(x, 0x3f, sizeof(xh)), trnsciSuccess);
    for (int k = 0; k < 3; k++) {
        assert_int_equal(call_krylov(h, TY_D, (kmethod)k, op, b, x, NULL, res),
                         TRNSOLVER_STATUS_SUCCESS);
        const trnsolverIterResult_t r = read_result(res);
        assert_int_equal(r.status, TRNSOLVER_ITER_CONVERGED);
        assert_int_equal(r.iterations, 0);
        assert_true(r.residual == 0.0);
        assert_int_equal(trnsciMemcpy(xh, x, sizeof(xh), trnsciMemcpyDeviceToHost), trnsciSuccess);
        for (int i = 0; i < n; i++)
            assert_true(xh[i] == 0.0);
    }
    /* Two iterations are not enough. */
    assert_int_equal(trnsciMemcpy(b, bh, sizeof(bh), trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsolverIterParamsSetMaxIters(p, 2), TRNSOLVER_STATUS_SUCCESS);
    for (int k = 0; k < 3; k++) {
        assert_int_equal(trnsciMemset(x, 0, sizeof(xh)), trnsciSuccess);
        assert_int_equal(call_krylov(h, TY_D, (kmethod)k, op, b, x, p, res),
                         TRNSOLVER_STATUS_SUCCESS);
        const trnsolverIterResult_t r = read_result(res);
        assert_int_equal(r.status, TRNSOLVER_ITER_MAX_ITERS);
        assert_int_equal(r.iterations, 2);
        assert_true(r.residual > 1e-10);
    }
    assert_int_equal(trnsolverIterParamsSetMaxIters(p, 0), TRNSOLVER_STATUS_SUCCESS);
    /* A zero diagonal entry: Jacobi and SSOR refuse, x untouched. */
    const double zero = 0.0;
    assert_int_equal(trnsciMemcpy(a + 4 * n + 4, &zero, sizeof(zero), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    for (int pc = TRNSOLVER_PRECOND_JACOBI; pc <= TRNSOLVER_PRECOND_SSOR; pc += 2) {
        assert_int_equal(trnsciMemset(x, 0x3f, sizeof(xh)), trnsciSuccess);
        assert_int_equal(trnsolverIterParamsSetPreconditioner(p, (trnsolverPrecond_t)pc, 0, 0),
                         TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(trnsolverDgmres(h, op, b, x, p, res), TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(read_result(res).status, TRNSOLVER_ITER_PRECOND_FAILED);
        assert_int_equal(trnsciMemcpy(xh, x, sizeof(xh), trnsciMemcpyDeviceToHost), trnsciSuccess);
        for (int i = 0; i < n; i++)
            assert_memory_equal(&xh[i], &(uint64_t){0x3f3f3f3f3f3f3f3fULL}, sizeof(double));
    }
    assert_int_equal(trnsolverIterParamsSetPreconditioner(p, TRNSOLVER_PRECOND_NONE, 0, 0),
                     TRNSOLVER_STATUS_SUCCESS);
    /* CG on an indefinite matrix (diagonal 1, -1, 1, ...). */
    memset(ah, 0, sizeof(ah));
    for (int i = 0; i < n; i++)
        ah[i * n + i] = i % 2 ? -1.0 : 1.0;
    assert_int_equal(trnsciMemcpy(a, ah, sizeof(ah), trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemset(x, 0, sizeof(xh)), trnsciSuccess);
    assert_int_equal(trnsolverDcg(h, op, b, x, p, res), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(read_result(res).status, TRNSOLVER_ITER_BREAKDOWN);
    /* A NaN in b. */
    bh[3] = NAN;
    assert_int_equal(trnsciMemcpy(b, bh, sizeof(bh), trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsolverDbicgstab(h, op, b, x, p, res), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(read_result(res).status, TRNSOLVER_ITER_NONFINITE);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    /* devResult may be NULL. */
    assert_int_equal(trnsolverDgmres(h, op, b, x, p, NULL), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDestroyIterParams(p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDestroyOperator(op), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsciFree(a), trnsciSuccess);
    assert_int_equal(trnsciFree(b), trnsciSuccess);
    assert_int_equal(trnsciFree(x), trnsciSuccess);
    assert_int_equal(trnsciFree(res), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_bad_input(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    double *a;
    assert_int_equal(trnsciMalloc((void **)&a, 64 * sizeof(double)), trnsciSuccess);
    trnsolverOperator_t op;
    assert_int_equal(trnsolverCreateDenseOperatorD(&op, -1, a, 1), TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverCreateDenseOperatorD(&op, 4, a, 3), TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("lda=3");
    assert_int_equal(trnsolverCreateDenseOperatorD(&op, 4, a, 4), TRNSOLVER_STATUS_SUCCESS);
    /* A double operator with a float routine. */
    assert_int_equal(trnsolverScg(h, op, (float *)(a + 16), (float *)(a + 20), NULL, NULL),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("type");
    assert_int_equal(trnsolverDcg(h, NULL, a + 16, a + 20, NULL, NULL),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverDcg(NULL, op, a + 16, a + 20, NULL, NULL),
                     TRNSOLVER_STATUS_NOT_INITIALIZED);
    /* x past the allocation; a host b; a misaligned result. */
    assert_int_equal(trnsolverDcg(h, op, a + 16, a + 62, NULL, NULL),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("cg: x");
    double hb[4] = {0};
    assert_int_equal(trnsolverDgmres(h, op, hb, a + 20, NULL, NULL),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("gmres: b");
    assert_int_equal(trnsolverDbicgstab(h, op, a + 16, a + 20, NULL,
                                        (trnsolverIterResult_t *)((char *)(a + 40) + 4)),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("bicgstab: result");
    trnsolverIterParams_t p;
    assert_int_equal(trnsolverCreateIterParams(&p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverIterParamsSetTolerance(p, -1.0), TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverIterParamsSetTolerance(p, NAN), TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverIterParamsSetMaxIters(p, -5), TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverIterParamsSetRestart(p, -1), TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverIterParamsSetPreconditioner(p, (trnsolverPrecond_t)7, 0, 0),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverIterParamsSetPreconditioner(p, TRNSOLVER_PRECOND_SSOR, 0, 2.5),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("omega=2.5");
    /* The refinements: FP64 only, n >= 0, info required. */
    assert_int_equal(trnsolverDnDSsolveSpd(h, TRNBLAS_FILL_MODE_LOWER, -2, 1, a, 4, a, 4, a, 4, p,
                                           NULL, (int *)(a + 60)),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("solveSpd: n=-2");
    assert_int_equal(trnsolverDnDSgmresIr(h, 4, 1, a, 4, a + 16, 4, a + 20, 4, p, NULL, NULL),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("gmresIr: info");
    assert_int_equal(trnsolverDnSinvSqrtSpd(h, 4, (float *)a, 4, (float *)(a + 16), 2, p, NULL),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("ldx=2");
    assert_int_equal(trnsolverDestroyIterParams(p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDestroyOperator(op), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsciFree(a), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

int main(void) {
    st_daemon = &daemon_under_test;
    if (th_daemon_start(&daemon_under_test, NULL) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inv_sqrt),       cmocka_unit_test(test_refine),
        cmocka_unit_test(test_krylov_poisson), cmocka_unit_test(test_krylov_convection),
        cmocka_unit_test(test_krylov_edges),   cmocka_unit_test(test_bad_input),
    };
    int failed = cmocka_run_group_tests_name("solver iterative over the local transport", tests,
                                             st_connect_unix, st_disconnect);
    failed += cmocka_run_group_tests_name("solver iterative over tcp", tests, st_connect_tcp,
                                          st_disconnect);
    failed += th_daemon_stop_checked(&daemon_under_test, "trnscid");
    st_report("solver_iter");
    return failed ? 1 : 0;
}
