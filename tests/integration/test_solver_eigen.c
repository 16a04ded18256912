/*
 * test_solver_eigen.c — trnsolver's eigenproblems and SVDs (syevd/heevd,
 * sygvd/hegvd, syevj/heevj, gesvd, gesvdj) in S, D, C and Z through a real
 * trnscid, over the local transport and gRPC over TCP.
 *
 * References:
 *  - eigenvalues and singular values from scipy.linalg.eigh / eigvalsh and
 *    numpy.linalg.svd (solver_ref.py under Debian's python3, computed once in
 *    double from the very inputs the daemon gets). A backward stable method
 *    returns the exact values of A + dA with ||dA||_2 <= ||dA||_F, so by
 *    Weyl's theorem (Higham §4 / Golub–Van Loan Cor. 8.1.6 and 8.6.2) each
 *    value is within ||dA||_F of the reference; we allow
 *    ||dA||_F = THRESH * n * u * ||A||_F, the backward error the residual
 *    tests below accept (plus the reference's own double rounding);
 *  - the defining identities, in long double, with LAPACK's own test
 *    ratios (LAPACK Working Note 41 §6; dsyt21, dbdt01, dort01) and its
 *    usual threshold THRESH = 30: ||A V - V W||_F / (n ||A||_F u),
 *    ||V^H V - I||_F / (n u), ||A - U S V^H||_F / (max(m,n) ||A||_F u),
 *    ||U^H U - I||_F / (m u). For the generalised problem the reduction
 *    through B's Cholesky factor amplifies errors by up to kappa(B)
 *    (Golub–Van Loan §8.7), so its ratios ||A Z - B Z W|| (itype 1),
 *    ||A B Z - Z W|| (2), ||B A Z - Z W|| (3) over n u ||A||_F ||B||_F
 *    ||Z||_F^2 and ||Z^H B Z - I|| (itypes 1, 2) over n u kappa(B) are held
 *    to THRESH kappa(B), with kappa(B) = 10 by construction.
 * Jacobi: syevj's residual (GetResidual) is the off-diagonal norm, at most
 * tolerance ||A||_F (or eps sqrt(n+1) ||A||_F, the skip rule's bound) when
 * converged; a looser tolerance takes fewer sweeps and leaves a residual
 * under it; one sweep on a dense matrix does not converge (info = n + 1,
 * one sweep, a residual above that bound); the same input gives the same
 * bits. syevj runs its scalar method at n = 40 and its blocked one at
 * n = 70 (6 blocks of 12, padded to 72), each in every type, both
 * triangles, padded lda; the blocked one with and without vectors.
 * gesvdj on a rank-deficient matrix still returns orthonormal U (econ and
 * full), and wide matrices (m < n). Non-finite input gives info = -(the
 * matrix's position). Eigenvectors and singular vectors are compared only
 * through these identities (they are unique only up to phase). Unreferenced
 * triangles hold junk that must be neither read nor written; padding must
 * come back unchanged.
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

#define THRESH 30.0L
#define N_EIG 40
/* Above syevj's scalar range (kernels/cpu/solver_jacobi.c: blocks from
 * n = 64): 6 blocks of 12, padded to 72. */
#define N_BLOCKED 70
#define KAPPA_B 10.0L

static th_daemon daemon_under_test;

/* The problems, made once; the references computed by solver_ref.py. */
enum { P_HER, P_SPD, P_TALL, P_WIDE, P_RANK, NPROB };
static const int prob_rows[NPROB] = {N_EIG, N_EIG, 36, 20, 30};
static const int prob_cols[NPROB] = {N_EIG, N_EIG, 20, 36, 20};
static lcplx *prob[4][NPROB];
static double *ref_eig[4][4];    /* [type][itype]: 0 standard, 1..3 generalised */
static double *ref_sv[4][NPROB]; /* singular values of P_TALL, P_WIDE, P_RANK */
static lcplx *big[4];            /* Hermitian, N_BLOCKED x N_BLOCKED */
static double *ref_big[4];

static ty real_ty(ty t) {
    return (t == TY_S || t == TY_C) ? TY_S : TY_D;
}

/* Makes the problems and runs solver_ref.py once for all of them. */
static int make_problems(void) {
    char dir[] = "/tmp/trnsci-solver-ref-XXXXXX";
    FILE *man = st_open_manifest(dir);
    if (!man)
        return -1;
    st_rng = 0x5eed5eedULL;
    for (int ti = 0; ti < 4; ti++) {
        const ty t = all_types[ti];
        char name[64];
        /* A random Hermitian matrix; B Hermitian positive definite, kappa 10. */
        lcplx *h = st_lmat(N_EIG, N_EIG);
        for (int j = 0; j < N_EIG; j++)
            for (int i = j; i < N_EIG; i++) {
                const lcplx v = i == j ? st_uniform() : st_random(t);
                h[(size_t)j * N_EIG + i] = v;
                h[(size_t)i * N_EIG + j] = conjl(v);
            }
        prob[ti][P_HER] = h;
        prob[ti][P_SPD] = st_spd(t, N_EIG, KAPPA_B);
        for (int p = P_TALL; p <= P_WIDE; p++) {
            lcplx *a = st_lmat(prob_rows[p], prob_cols[p]);
            for (size_t i = 0; i < (size_t)prob_rows[p] * prob_cols[p]; i++)
                a[i] = st_random(t);
            prob[ti][p] = a;
        }
        /* Rank 8: a 30 x 8 times an 8 x 20 product. */
        lcplx *l = st_lmat(30, 8), *r = st_lmat(8, 20), *k = st_lmat(30, 20);
        for (size_t i = 0; i < 30 * 8; i++)
            l[i] = st_random(t);
        for (size_t i = 0; i < 8 * 20; i++)
            r[i] = st_random(t);
        st_lmul(30, 20, 8, l, 0, r, k);
        prob[ti][P_RANK] = k;
        free(l);
        free(r);
        for (int p = 0; p < NPROB; p++)
            st_round_to(t, prob[ti][p], (size_t)prob_rows[p] * prob_cols[p]);
        snprintf(name, sizeof(name), "her%d", ti);
        st_write_raw(dir, name, "a", t, (size_t)N_EIG * N_EIG, prob[ti][P_HER]);
        fprintf(man, "eigh %s %s %d\n", name, st_np_name(t), N_EIG);
        for (int it = 1; it <= 3; it++) {
            snprintf(name, sizeof(name), "gen%d_%d", ti, it);
            st_write_raw(dir, name, "a", t, (size_t)N_EIG * N_EIG, prob[ti][P_HER]);
            st_write_raw(dir, name, "b", t, (size_t)N_EIG * N_EIG, prob[ti][P_SPD]);
            fprintf(man, "eigh %s %s %d %d\n", name, st_np_name(t), N_EIG, it);
        }
        for (int p = P_TALL; p <= P_RANK; p++) {
            snprintf(name, sizeof(name), "svd%d_%d", ti, p);
            st_write_raw(dir, name, "a", t, (size_t)prob_rows[p] * prob_cols[p], prob[ti][p]);
            fprintf(man, "svd %s %s %d %d\n", name, st_np_name(t), prob_rows[p], prob_cols[p]);
        }
    }
    /* Made after the others, so that theirs stay the matrices they were. */
    for (int ti = 0; ti < 4; ti++) {
        const ty t = all_types[ti];
        char name[64];
        lcplx *h = st_lmat(N_BLOCKED, N_BLOCKED);
        for (int j = 0; j < N_BLOCKED; j++)
            for (int i = j; i < N_BLOCKED; i++) {
                const lcplx v = i == j ? st_uniform() : st_random(t);
                h[(size_t)j * N_BLOCKED + i] = v;
                h[(size_t)i * N_BLOCKED + j] = conjl(v);
            }
        st_round_to(t, h, (size_t)N_BLOCKED * N_BLOCKED);
        big[ti] = h;
        snprintf(name, sizeof(name), "big%d", ti);
        st_write_raw(dir, name, "a", t, (size_t)N_BLOCKED * N_BLOCKED, h);
        fprintf(man, "eigh %s %s %d\n", name, st_np_name(t), N_BLOCKED);
    }
    fclose(man);
    const char *const argv[] = {PYTHON3, SOLVER_REF_PY, dir, NULL};
    const int rc = th_run(argv, NULL);
    int bad = rc != 0;
    for (int ti = 0; ti < 4 && !bad; ti++) {
        char name[64];
        snprintf(name, sizeof(name), "her%d", ti);
        bad |= !(ref_eig[ti][0] = st_read_out(dir, name, N_EIG, 1));
        snprintf(name, sizeof(name), "big%d", ti);
        bad |= !(ref_big[ti] = st_read_out(dir, name, N_BLOCKED, 1));
        for (int it = 1; it <= 3; it++) {
            snprintf(name, sizeof(name), "gen%d_%d", ti, it);
            bad |= !(ref_eig[ti][it] = st_read_out(dir, name, N_EIG, 1));
        }
        for (int p = P_TALL; p <= P_RANK; p++) {
            snprintf(name, sizeof(name), "svd%d_%d", ti, p);
            const int k = prob_rows[p] < prob_cols[p] ? prob_rows[p] : prob_cols[p];
            bad |= !(ref_sv[ti][p] = st_read_out(dir, name, k, 1));
        }
    }
    th_remove_dir(dir);
    if (bad)
        fprintf(stderr, "solver_ref.py failed (exit %d)\n", rc);
    return bad ? -1 : 0;
}

/* ---- identities ------------------------------------------------------------------- */

/* ||V^H V - I||_F / (rows u) for rows x cols V. */
static long double orth_ratio(ty t, int rows, int cols, const lcplx *v) {
    lcplx *g = st_lmat(cols, cols);
    st_lmul(cols, cols, rows, v, 1, v, g);
    for (int i = 0; i < cols; i++)
        g[(size_t)i * cols + i] -= 1;
    const long double r = st_lfro(cols, cols, g) / (rows * st_u(t));
    free(g);
    return r;
}

/* ||A V - V diag(w)||_F / (n ||A||_F u). */
static long double eig_ratio(ty t, int n, const lcplx *a, const lcplx *v, const long double *w) {
    lcplx *av = st_lmat(n, n);
    st_lmul(n, n, n, a, 0, v, av);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            av[(size_t)j * n + i] -= v[(size_t)j * n + i] * w[j];
    const long double r = st_lfro(n, n, av) / (n * st_lfro(n, n, a) * st_u(t));
    free(av);
    return r;
}

/* ||A - U diag(s) V^H||_F / (max(m,n) ||A||_F u) for U m x k, V n x k. */
static long double svd_ratio(ty t, int m, int n, int k, const lcplx *a, const lcplx *u,
                             const long double *s, const lcplx *v) {
    long double e = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            lcplx x = a[(size_t)j * m + i];
            for (int l = 0; l < k; l++)
                x -= u[(size_t)l * m + i] * s[l] * conjl(v[(size_t)l * n + j]);
            e += creall(x * conjl(x));
        }
    return sqrtl(e) / ((m > n ? m : n) * st_lfro(m, n, a) * st_u(t));
}

/* count values against the reference: |w_i - ref_i| <= THRESH n u ||A||_F
 * plus the reference's double rounding. */
static void check_values(const char *what, ty t, int count, int n, const long double *w,
                         const double *ref, long double scale) {
    const long double tol = THRESH * n * st_u(t) * scale + 1e-13L * scale;
    char name[64];
    snprintf(name, sizeof(name), "%s %s values / (n u scale)", ty_name[t], what);
    for (int i = 0; i < count; i++)
        st_note(name, fabsl(w[i] - ref[i]) / (n * st_u(t) * scale), THRESH);
    for (int i = 0; i < count; i++)
        if (!(fabsl(w[i] - ref[i]) <= tol))
            fail_msg("%s %s: value %d is %.17Lg, the reference %.17g (tolerance %Lg)", ty_name[t],
                     what, i, w[i], ref[i], tol);
}

static long double *read_real(const st_mat *w, const void *h, int count) {
    long double *v = calloc((size_t)(count > 0 ? count : 1), sizeof(long double));
    assert_non_null(v);
    for (int i = 0; i < count; i++)
        v[i] = creall(st_got(w, h, i, 0));
    return v;
}

/* ---- syevd / syevj -------------------------------------------------------------------- */

/* syevd or syevj of the n x n Hermitian a (eigenvalues ref). */
static void check_sym_n(ty t, int n, const lcplx *a, const double *ref, int lower, int jacobi,
                        int vectors) {
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const trnblasFillMode_t uplo = lower ? TRNBLAS_FILL_MODE_LOWER : TRNBLAS_FILL_MODE_UPPER;
    const trnsolverEigMode_t jobz =
        vectors ? TRNSOLVER_EIG_MODE_VECTOR : TRNSOLVER_EIG_MODE_NOVECTOR;
    st_mat A, W;
    st_upload_tri(&A, t, n, a, lower, n + 2);
    st_alloc(&W, real_ty(t), n, 1, n);
    st_upload(&W);
    int *info = st_info_alloc(1);
    syevjInfo_t params = NULL;
    int lwork = -1;
    if (jacobi) {
        assert_int_equal(trnsolverDnCreateSyevjInfo(&params), TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(ST_CALL2(t, syevj_bufferSize, heevj_bufferSize, h, jobz, uplo, n,
                                  st_ptr(&A), A.ld, st_ptr(&W), &lwork, params),
                         TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(ST_CALL2(t, syevj, heevj, h, jobz, uplo, n, st_ptr(&A), A.ld, st_ptr(&W),
                                  NULL, 0, info, params),
                         TRNSOLVER_STATUS_SUCCESS);
    } else {
        assert_int_equal(ST_CALL2(t, syevd_bufferSize, heevd_bufferSize, h, jobz, uplo, n,
                                  st_ptr(&A), A.ld, st_ptr(&W), &lwork),
                         TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(ST_CALL2(t, syevd, heevd, h, jobz, uplo, n, st_ptr(&A), A.ld, st_ptr(&W),
                                  NULL, 0, info),
                         TRNSOLVER_STATUS_SUCCESS);
    }
    assert_int_equal(lwork, 0);
    assert_int_equal(st_read_int(info), 0);
    void *wg = st_download(&W, NULL, NULL);
    long double *w = read_real(&W, wg, n);
    const char *what = !jacobi ? "syevd" : n == N_BLOCKED ? "syevj blocked" : "syevj";
    for (int i = 1; i < n; i++)
        assert_true(w[i - 1] <= w[i]);
    const long double anorm = st_lfro(n, n, a);
    check_values(what, t, n, n, w, ref, anorm);
    if (vectors) {
        void *vg = st_download(&A, NULL, NULL);
        lcplx *v = st_take_got(&A, vg);
        st_check_ratio(what, t, eig_ratio(t, n, a, v, w), THRESH);
        st_check_ratio(what, t, orth_ratio(t, n, n, v), THRESH);
        free(v);
        free(vg);
    }
    if (jacobi) {
        /* The same input gives the same bits. */
        void *first_w = wg, *first_a = st_download(&A, NULL, NULL);
        st_upload(&A);
        assert_int_equal(ST_CALL2(t, syevj, heevj, h, jobz, uplo, n, st_ptr(&A), A.ld, st_ptr(&W),
                                  NULL, 0, info, params),
                         TRNSOLVER_STATUS_SUCCESS);
        void *again_w = st_download(&W, NULL, NULL), *again_a = st_download(&A, NULL, NULL);
        assert_memory_equal(again_w, first_w, W.total * esize(W.t));
        assert_memory_equal(again_a, first_a, A.total * esize(A.t));
        free(again_w);
        free(again_a);
        free(first_a);
        double res = -1;
        int sweeps = -1;
        assert_int_equal(trnsolverDnXsyevjGetResidual(h, params, &res), TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(trnsolverDnXsyevjGetSweeps(h, params, &sweeps), TRNSOLVER_STATUS_SUCCESS);
        const long double eps = (t == TY_S || t == TY_C) ? FLT_EPSILON : DBL_EPSILON;
        if (!(res >= 0 && res <= eps * sqrtl(n + 1) * anorm))
            fail_msg("%s syevj residual %g > %Lg", ty_name[t], res, eps * sqrtl(n + 1) * anorm);
        assert_true(sweeps >= 1 && sweeps <= 100);
        /* A loose tolerance: fewer sweeps, a residual under it. */
        st_upload(&A);
        assert_int_equal(trnsolverDnXsyevjSetTolerance(params, 1e-2), TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(ST_CALL2(t, syevj, heevj, h, jobz, uplo, n, st_ptr(&A), A.ld, st_ptr(&W),
                                  NULL, 0, info, params),
                         TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(st_read_int(info), 0);
        double loose = -1;
        int loose_sweeps = -1;
        assert_int_equal(trnsolverDnXsyevjGetResidual(h, params, &loose), TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(trnsolverDnXsyevjGetSweeps(h, params, &loose_sweeps),
                         TRNSOLVER_STATUS_SUCCESS);
        assert_true(loose <= 1e-2 * anorm);
        assert_true(loose_sweeps < sweeps);
        /* One sweep is not enough for a dense matrix: info = n + 1. */
        st_upload(&A);
        assert_int_equal(trnsolverDnXsyevjSetTolerance(params, 0), TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(trnsolverDnXsyevjSetMaxSweeps(params, 1), TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(ST_CALL2(t, syevj, heevj, h, jobz, uplo, n, st_ptr(&A), A.ld, st_ptr(&W),
                                  NULL, 0, info, params),
                         TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(st_read_int(info), n + 1);
        assert_int_equal(trnsolverDnXsyevjGetSweeps(h, params, &sweeps), TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(sweeps, 1);
        /* ... and the residual is the off-diagonal left, far above the
         * converged bound. */
        assert_int_equal(trnsolverDnXsyevjGetResidual(h, params, &res), TRNSOLVER_STATUS_SUCCESS);
        if (!(res > eps * sqrtl(n + 1) * anorm && res <= anorm))
            fail_msg("%s syevj residual after one sweep %g (||A||_F %Lg)", ty_name[t], res, anorm);
        assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess); /* a result, not an error */
        assert_int_equal(trnsolverDnDestroySyevjInfo(params), TRNSOLVER_STATUS_SUCCESS);
    }
    free(w);
    free(wg);
    st_free(&A);
    st_free(&W);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void check_sym(ty t, int lower, int jacobi, int vectors) {
    const int ti = st_type_index(t);
    check_sym_n(t, N_EIG, prob[ti][P_HER], ref_eig[ti][0], lower, jacobi, vectors);
}

static void test_syevd(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int lower = 0; lower < 2; lower++)
            for (int vectors = 0; vectors < 2; vectors++)
                check_sym(all_types[ti], lower, 0, vectors);
}

static void test_syevj(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int lower = 0; lower < 2; lower++)
            check_sym(all_types[ti], lower, 1, 1);
    check_sym(TY_D, 1, 1, 0);
}

/* syevj's blocked method (n = N_BLOCKED, padded): every type, both
 * triangles, with and without vectors. */
static void test_syevj_blocked(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int lower = 0; lower < 2; lower++)
            for (int vectors = 0; vectors < 2; vectors++)
                check_sym_n(all_types[ti], N_BLOCKED, big[ti], ref_big[ti], lower, 1, vectors);
}

/* ---- sygvd ------------------------------------------------------------------------------ */

static void check_gen(ty t, int itype) {
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const int ti = st_type_index(t), n = N_EIG;
    const lcplx *a = prob[ti][P_HER], *b = prob[ti][P_SPD];
    st_mat A, B, W;
    st_upload_tri(&A, t, n, a, 1, n);
    st_upload_tri(&B, t, n, b, 1, n + 1);
    st_alloc(&W, real_ty(t), n, 1, n);
    st_upload(&W);
    int *info = st_info_alloc(1);
    int lwork = -1;
    const trnsolverEigType_t it = (trnsolverEigType_t)itype;
    assert_int_equal(ST_CALL2(t, sygvd_bufferSize, hegvd_bufferSize, h, it,
                              TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n, st_ptr(&A),
                              A.ld, st_ptr(&B), B.ld, st_ptr(&W), &lwork),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(ST_CALL2(t, sygvd, hegvd, h, it, TRNSOLVER_EIG_MODE_VECTOR,
                              TRNBLAS_FILL_MODE_LOWER, n, st_ptr(&A), A.ld, st_ptr(&B), B.ld,
                              st_ptr(&W), NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    void *wg = st_download(&W, NULL, NULL), *zg = st_download(&A, NULL, NULL);
    long double *w = read_real(&W, wg, n);
    lcplx *z = st_take_got(&A, zg);
    const long double an = st_lfro(n, n, a), bn = st_lfro(n, n, b), zn = st_lfro(n, n, z);
    /* Eigenvalues of the pencil: scaled by ||A|| ||B^-1|| (itype 1) or
     * ||A|| ||B|| (2, 3); kappa(B) covers the reduction. */
    check_values("sygvd", t, n, n, w, ref_eig[ti][itype], an * (itype == 1 ? 1.0L : bn) * KAPPA_B);
    lcplx *r = st_lmat(n, n), *tmp = st_lmat(n, n), *tmp2 = st_lmat(n, n);
    if (itype == 1) { /* A Z - B Z W */
        st_lmul(n, n, n, a, 0, z, r);
        st_lmul(n, n, n, b, 0, z, tmp);
    } else { /* A B Z or B A Z, minus Z W */
        st_lmul(n, n, n, itype == 2 ? b : a, 0, z, tmp2);
        st_lmul(n, n, n, itype == 2 ? a : b, 0, tmp2, r);
        memcpy(tmp, z, (size_t)n * n * sizeof(lcplx));
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            r[(size_t)j * n + i] -= tmp[(size_t)j * n + i] * w[j];
    const long double scale = n * st_u(t) * an * (itype == 1 ? 1.0L : bn) * zn * zn;
    st_check_ratio("sygvd residual", t, st_lfro(n, n, r) / scale, THRESH * KAPPA_B);
    /* Normalisation (LAPACK sygv): Z^H B Z = I for itypes 1 and 2; itype
     * 3's Z^H B^-1 Z = I would need B^-1 and is left to the residual. */
    if (itype != 3) {
        st_lmul(n, n, n, b, 0, z, tmp);
        st_lmul(n, n, n, z, 1, tmp, r);
        for (int i = 0; i < n; i++)
            r[(size_t)i * n + i] -= 1;
        st_check_ratio("sygvd B-orthonormality", t, st_lfro(n, n, r) / (n * st_u(t) * KAPPA_B),
                       THRESH * KAPPA_B);
    }
    free(r);
    free(tmp);
    free(tmp2);
    free(z);
    free(w);
    free(wg);
    free(zg);
    st_free(&A);
    st_free(&B);
    st_free(&W);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_sygvd(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int it = 1; it <= 3; it++)
            check_gen(all_types[ti], it);
}

/* ---- gesvd / gesvdj ------------------------------------------------------------------ */

/* gesvd with jobu/jobvt ('A','A'), ('S','S'), ('N','N'), ('O','N'). */
static void check_gesvd(ty t, int p, char jobu, char jobvt) {
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const int ti = st_type_index(t), m = prob_rows[p], n = prob_cols[p], k = m < n ? m : n;
    const lcplx *a = prob[ti][p];
    st_mat A, S, U, VT, RW;
    st_alloc(&A, t, m, n, m + 1);
    st_fill(&A, a);
    st_upload(&A);
    st_alloc(&S, real_ty(t), k, 1, k);
    st_upload(&S);
    const int ucols = jobu == 'A' ? m : k, vrows = jobvt == 'A' ? n : k;
    st_alloc(&U, t, m, ucols, m + 2);
    st_upload(&U);
    st_alloc(&VT, t, vrows, n, vrows + 1);
    st_upload(&VT);
    st_alloc(&RW, real_ty(t), k - 1, 1, k - 1);
    st_upload(&RW);
    int *info = st_info_alloc(1);
    int lwork = -1;
    assert_int_equal(ST_CALL(t, gesvd_bufferSize, h, m, n, &lwork), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(ST_CALL(t, gesvd, h, (signed char)jobu, (signed char)jobvt, m, n, st_ptr(&A),
                             A.ld, st_ptr(&S), jobu == 'A' || jobu == 'S' ? st_ptr(&U) : NULL, U.ld,
                             jobvt == 'A' || jobvt == 'S' ? st_ptr(&VT) : NULL, VT.ld, NULL, 0,
                             st_ptr(&RW), info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    void *sg = st_download(&S, NULL, NULL);
    long double *s = read_real(&S, sg, k);
    for (int i = 1; i < k; i++)
        assert_true(s[i - 1] >= s[i]);
    const long double anorm = st_lfro(m, n, a);
    check_values("gesvd", t, k, m > n ? m : n, s, ref_sv[ti][p], anorm);
    /* rwork is written only when info > 0; U / VT only when asked for. */
    st_untouched(&RW);
    if (jobu == 'N' || jobu == 'O')
        st_untouched(&U);
    if (jobvt == 'N' || jobvt == 'O')
        st_untouched(&VT);
    if (jobu != 'N' && jobvt != 'N') {
        void *ug = st_download(&U, NULL, NULL), *vg = st_download(&VT, NULL, NULL);
        lcplx *u = st_take_got(&U, ug), *v = st_lmat(n, k);
        for (int j = 0; j < k; j++)
            for (int i = 0; i < n; i++)
                v[(size_t)j * n + i] = conjl(st_got(&VT, vg, j, i));
        st_check_ratio("gesvd", t, svd_ratio(t, m, n, k, a, u, s, v), THRESH);
        st_check_ratio("gesvd U", t, orth_ratio(t, m, ucols, u), THRESH);
        st_check_ratio("gesvd V", t, orth_ratio(t, n, k, v), THRESH);
        free(u);
        free(v);
        free(ug);
        free(vg);
    } else if (jobu == 'O') {
        /* U's first min(m,n) columns overwrite A. */
        void *og = st_download(&A, NULL, NULL);
        lcplx *u = st_take_got(&A, og);
        st_check_ratio("gesvd U in A", t, orth_ratio(t, m, k, u), THRESH);
        free(u);
        free(og);
    }
    free(s);
    free(sg);
    st_free(&A);
    st_free(&S);
    st_free(&U);
    st_free(&VT);
    st_free(&RW);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_gesvd(void **state) {
    (void)state;
    static const char jobs[][2] = {{'A', 'A'}, {'S', 'S'}, {'N', 'N'}, {'O', 'N'}};
    for (int ti = 0; ti < 4; ti++)
        for (size_t j = 0; j < sizeof(jobs) / sizeof(jobs[0]); j++)
            check_gesvd(all_types[ti], P_TALL, jobs[j][0], jobs[j][1]);
    check_gesvd(TY_D, P_RANK, 'A', 'A');
}

static void check_gesvdj(ty t, int p, int econ, int vectors) {
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const int ti = st_type_index(t), m = prob_rows[p], n = prob_cols[p], k = m < n ? m : n;
    const lcplx *a = prob[ti][p];
    const trnsolverEigMode_t jobz =
        vectors ? TRNSOLVER_EIG_MODE_VECTOR : TRNSOLVER_EIG_MODE_NOVECTOR;
    st_mat A, S, U, V;
    st_alloc(&A, t, m, n, m + 1);
    st_fill(&A, a);
    st_upload(&A);
    st_alloc(&S, real_ty(t), k, 1, k);
    st_upload(&S);
    const int ucols = econ ? k : m, vcols = econ ? k : n;
    st_alloc(&U, t, m, ucols, m + 1);
    st_upload(&U);
    st_alloc(&V, t, n, vcols, n + 2);
    st_upload(&V);
    int *info = st_info_alloc(1);
    gesvdjInfo_t params;
    assert_int_equal(trnsolverDnCreateGesvdjInfo(&params), TRNSOLVER_STATUS_SUCCESS);
    int lwork = -1;
    assert_int_equal(ST_CALL(t, gesvdj_bufferSize, h, jobz, econ, m, n, st_ptr(&A), A.ld,
                             st_ptr(&S), st_ptr(&U), U.ld, st_ptr(&V), V.ld, &lwork, params),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(ST_CALL(t, gesvdj, h, jobz, econ, m, n, st_ptr(&A), A.ld, st_ptr(&S),
                             st_ptr(&U), U.ld, st_ptr(&V), V.ld, NULL, 0, info, params),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    void *sg = st_download(&S, NULL, NULL);
    long double *s = read_real(&S, sg, k);
    for (int i = 1; i < k; i++)
        assert_true(s[i - 1] >= s[i]);
    const long double anorm = st_lfro(m, n, a);
    check_values("gesvdj", t, k, m > n ? m : n, s, ref_sv[ti][p], anorm);
    double res = -1;
    int sweeps = -1;
    assert_int_equal(trnsolverDnXgesvdjGetResidual(h, params, &res), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnXgesvdjGetSweeps(h, params, &sweeps), TRNSOLVER_STATUS_SUCCESS);
    assert_true(sweeps >= 1 && sweeps <= 100);
    assert_true(res >= 0);
    if (vectors) {
        void *ug = st_download(&U, NULL, NULL), *vg = st_download(&V, NULL, NULL);
        lcplx *u = st_take_got(&U, ug), *v = st_take_got(&V, vg);
        /* U m x ucols, V n x vcols: the first k columns carry the SVD. */
        st_check_ratio("gesvdj", t, svd_ratio(t, m, n, k, a, u, s, v), THRESH);
        st_check_ratio("gesvdj U", t, orth_ratio(t, m, ucols, u), THRESH);
        st_check_ratio("gesvdj V", t, orth_ratio(t, n, vcols, v), THRESH);
        free(u);
        free(v);
        free(ug);
        free(vg);
    } else {
        st_untouched(&U);
        st_untouched(&V);
    }
    assert_int_equal(trnsolverDnDestroyGesvdjInfo(params), TRNSOLVER_STATUS_SUCCESS);
    free(s);
    free(sg);
    st_free(&A);
    st_free(&S);
    st_free(&U);
    st_free(&V);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_gesvdj(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++) {
        check_gesvdj(all_types[ti], P_TALL, 0, 1);
        check_gesvdj(all_types[ti], P_WIDE, 1, 1);
    }
    check_gesvdj(TY_D, P_WIDE, 0, 1);
    check_gesvdj(TY_Z, P_TALL, 1, 0);
    check_gesvdj(TY_D, P_RANK, 0, 1); /* U completed beyond rank 8 */
    check_gesvdj(TY_C, P_RANK, 1, 1);
}

/* ---- non-finite and bad input ------------------------------------------------------------ */

static void test_nonfinite(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    int *info = st_info_alloc(1);
    const int n = 6;
    st_mat A, B, W, U;
    st_alloc(&A, TY_D, n, n, n);
    st_alloc(&B, TY_D, n, n, n);
    for (int i = 0; i < n; i++) {
        st_set(&A, i, i, 1.0L + i);
        st_set(&B, i, i, 1.0L);
    }
    st_set(&A, 0, 4, NAN); /* upper triangle: not read with LOWER */
    st_upload(&A);
    st_upload(&B);
    st_alloc(&W, TY_D, n, 1, n);
    st_upload(&W);
    st_alloc(&U, TY_D, n, n, n);
    st_upload(&U);
    assert_int_equal(trnsolverDnDsyevd(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n,
                                       st_ptr(&A), n, st_ptr(&W), NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    st_set(&A, 4, 0, INFINITY);
    st_upload(&A);
    assert_int_equal(trnsolverDnDsyevd(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n,
                                       st_ptr(&A), n, st_ptr(&W), NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), -4);
    syevjInfo_t sp;
    assert_int_equal(trnsolverDnCreateSyevjInfo(&sp), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDsyevj(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n,
                                       st_ptr(&A), n, st_ptr(&W), NULL, 0, info, sp),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), -4);
    assert_int_equal(trnsolverDnDsygvd(h, TRNSOLVER_EIG_TYPE_1, TRNSOLVER_EIG_MODE_VECTOR,
                                       TRNBLAS_FILL_MODE_LOWER, n, st_ptr(&B), n, st_ptr(&A), n,
                                       st_ptr(&W), NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), -7); /* B (here A) holds the infinity */
    /* gesvd loops forever on an infinity in LAPACK: refused with info -5. */
    assert_int_equal(trnsolverDnDgesvd(h, 'A', 'A', n, n, st_ptr(&A), n, st_ptr(&W), st_ptr(&U), n,
                                       st_ptr(&B), n, NULL, 0, NULL, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), -5);
    gesvdjInfo_t gp;
    assert_int_equal(trnsolverDnCreateGesvdjInfo(&gp), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDgesvdj(h, TRNSOLVER_EIG_MODE_VECTOR, 0, n, n, st_ptr(&A), n,
                                        st_ptr(&W), st_ptr(&U), n, st_ptr(&B), n, NULL, 0, info,
                                        gp),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), -5);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroySyevjInfo(sp), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDestroyGesvdjInfo(gp), TRNSOLVER_STATUS_SUCCESS);
    st_free(&A);
    st_free(&B);
    st_free(&W);
    st_free(&U);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_bad_input(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    double *a;
    int *info;
    assert_int_equal(trnsciMalloc((void **)&a, 64 * sizeof(double)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&info, sizeof(int)), trnsciSuccess);
    assert_int_equal(trnsolverDnDsyevd(h, (trnsolverEigMode_t)2, TRNBLAS_FILL_MODE_LOWER, 4, a, 4,
                                       a + 16, NULL, 0, info),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("syevd: jobz=2");
    assert_int_equal(trnsolverDnZheevd(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, 4,
                                       (trnDoubleComplex *)a, 3, a + 40, NULL, 0, info),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("heevd: lda=3");
    assert_int_equal(trnsolverDnDsygvd(h, (trnsolverEigType_t)0, TRNSOLVER_EIG_MODE_VECTOR,
                                       TRNBLAS_FILL_MODE_LOWER, 4, a, 4, a + 16, 4, a + 32, NULL, 0,
                                       info),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("itype=0");
    assert_int_equal(trnsolverDnDgesvd(h, 'X', 'A', 4, 4, a, 4, a + 16, a + 20, 4, a + 36, 4, NULL,
                                       0, NULL, info),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("jobu=88");
    assert_int_equal(
        trnsolverDnDgesvd(h, 'N', 'N', 2, 4, a, 2, a + 16, NULL, 1, NULL, 1, NULL, 0, NULL, info),
        TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("m >= n");
    assert_int_equal(trnsolverDnDsyevj(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, 4, a,
                                       4, a + 16, NULL, 0, info, NULL),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("params");
    syevjInfo_t sp;
    assert_int_equal(trnsolverDnCreateSyevjInfo(&sp), TRNSOLVER_STATUS_SUCCESS);
    double res;
    assert_int_equal(trnsolverDnXsyevjGetResidual(h, sp, &res), TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("no routine has run");
    assert_int_equal(trnsolverDnXsyevjSetTolerance(sp, -1.0), TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverDnXsyevjSetMaxSweeps(sp, 0), TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverDnXsyevjSetSortEig(sp, 0), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDestroySyevjInfo(sp), TRNSOLVER_STATUS_SUCCESS);
    gesvdjInfo_t gp;
    assert_int_equal(trnsolverDnCreateGesvdjInfo(&gp), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDgesvdj(h, TRNSOLVER_EIG_MODE_VECTOR, 3, 4, 4, a, 4, a + 16, a + 20,
                                        4, a + 36, 4, NULL, 0, info, gp),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("econ=3");
    assert_int_equal(trnsolverDnDestroyGesvdjInfo(gp), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsciFree(a), trnsciSuccess);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

int main(void) {
    if (make_problems() != 0)
        return 1;
    if (st_start(&daemon_under_test) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_syevd),         cmocka_unit_test(test_syevj),
        cmocka_unit_test(test_syevj_blocked), cmocka_unit_test(test_sygvd),
        cmocka_unit_test(test_gesvd),         cmocka_unit_test(test_gesvdj),
        cmocka_unit_test(test_nonfinite),     cmocka_unit_test(test_bad_input),
    };
    int failed = ST_RUN_BOTH("solver eigen", tests);
    failed += st_finish("solver_eigen");
    for (int ti = 0; ti < 4; ti++) {
        for (int p = 0; p < NPROB; p++) {
            free(prob[ti][p]);
            free(ref_sv[ti][p]);
        }
        for (int i = 0; i < 4; i++)
            free(ref_eig[ti][i]);
        free(big[ti]);
        free(ref_big[ti]);
    }
    return failed ? 1 : 0;
}
