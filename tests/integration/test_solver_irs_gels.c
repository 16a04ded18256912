/*
 * test_solver_irs_gels.c — cuSOLVER's mixed-precision iterative refinement
 * least-squares solvers (trnsolverDn<t1><t2>gels, trnsolverDnIRSXgels with
 * the IRS params and infos) through a real trnscid over the local
 * transport and gRPC.
 *
 * Reference: numpy.linalg.lstsq in double (complex double) on the matrices
 * as stored, and sigma_max, sigma_min of A from numpy's SVD (solver_ref.py
 * "lstsq", Debian's python3). Checks, u the main precision's unit
 * roundoff, all sums in long double on the data as stored:
 *  - residual orthogonality: eta = max_j ||A^H r_j||_inf / (||A||_1
 *    (||A||_inf ||x_j||_inf + ||b_j||_inf)), r_j = b_j - A x_j. When the
 *    refinement converged, at most its stopping tolerance sqrt(n) u plus the
 *    rounding of the daemon's own test in the main precision: r from
 *    b - A x has error <= gamma_{n+1} (|b| + |A||x|) and A^H r adds
 *    gamma_m |A|^H |r|, so eta <= sqrt(n) u + gamma_{n+1} + gamma_m (1 +
 *    gamma_{n+1}), the gammas doubled for complex arithmetic. After a
 *    main-precision Householder QR solve (DD, SS, ZZ, CC, every fallback),
 *    which is normwise backward stable with ||dA||, ||db|| <= c m n u
 *    (Higham, Accuracy and Stability, Thm 20.3), ||A^H r|| <= c m n u ||A||
 *    (||A|| ||x|| + ||b||) up to norm equivalences: eta <= 8 m n u (doubled
 *    for complex).
 *  - forward error against numpy: x - x* = -(A^H A)^-1 A^H r exactly, so
 *    ||x_j - x*_j||_2 <= ||A^H r_j||_2 / sigma_min^2 (with r_j measured
 *    here), plus numpy's own error, at most kappa e (2 + (kappa + 1)
 *    ||r*||_2 / (sigma_max ||x*||_2)) ||x*||_2 with e = 8 m n u_64 its
 *    backward error (Higham Thm 20.1); both with a 1% margin for the long
 *    double sums.
 * Problems: m = 60, n = 40, nrhs = 3, A = P [diag(sigma); 0] Q^H with
 * sigma_max / sigma_min = 10 (refinement from every lower format
 * converges: kappa u_low < 0.05) and 1e7 (kappa u_fp16 >> 1: binary16
 * refinement of an FP64 problem must fail and fall back), B random (a large residual, which
 * refining x alone would not reach). Also: the square case, the residual
 * history, the infos getters, a disabled fallback, a rank-deficient A
 * (d_info), X aliasing B, A and B left unchanged, the padding around X
 * untouched, and bad input with cuSOLVER's statuses.
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

#define M 60
#define N 40
#define NRHS 3

static th_daemon daemon_under_test;

enum { P_WELL, P_HARD, P_SQUARE, NPROB };
static const int prob_m[NPROB] = {M, M, N};
static lcplx *prob_a[4][NPROB], *prob_b[4][NPROB];
static double *ref[4][NPROB]; /* sigma_max, sigma_min, then X */

/* An m x n matrix P [diag(sigma); 0] Q^H, sigma from 1 down to 1/kappa. */
static lcplx *rect(ty t, int m, int n, long double kappa) {
    lcplx *p = st_unitary(t, m), *q = st_unitary(t, n);
    long double *d = st_spectrum(n, kappa);
    lcplx *a = st_lmat(m, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            lcplx s = 0;
            for (int l = 0; l < n; l++)
                s += p[(size_t)l * m + i] * d[l] * conjl(q[(size_t)l * n + j]);
            a[(size_t)j * m + i] = s;
        }
    free(p);
    free(q);
    free(d);
    return a;
}

static int make_problems(void) {
    char dir[] = "/tmp/trnsci-solver-gels-XXXXXX";
    FILE *man = st_open_manifest(dir);
    if (!man)
        return -1;
    st_rng = 0x9e15ULL;
    for (int ti = 0; ti < 4; ti++) {
        const ty t = all_types[ti];
        for (int p = 0; p < NPROB; p++) {
            const int m = prob_m[p];
            lcplx *a = rect(t, m, N, p == P_HARD ? 1e7L : 10.0L);
            lcplx *b = st_lmat(m, NRHS);
            for (size_t i = 0; i < (size_t)m * NRHS; i++)
                b[i] = st_random(t);
            st_round_to(t, a, (size_t)m * N);
            st_round_to(t, b, (size_t)m * NRHS);
            prob_a[ti][p] = a;
            prob_b[ti][p] = b;
            char name[32];
            snprintf(name, sizeof(name), "g%d_%d", ti, p);
            st_write_raw(dir, name, "a", t, (size_t)m * N, a);
            st_write_raw(dir, name, "b", t, (size_t)m * NRHS, b);
            fprintf(man, "lstsq %s %s %d %d %d\n", name, st_np_name(t), m, N, NRHS);
        }
    }
    fclose(man);
    const char *const argv[] = {PYTHON3, SOLVER_REF_PY, dir, NULL};
    const int rc = th_run(argv, NULL);
    int bad = rc != 0;
    for (int ti = 0; ti < 4 && !bad; ti++)
        for (int p = 0; p < NPROB && !bad; p++) {
            char name[32];
            snprintf(name, sizeof(name), "g%d_%d", ti, p);
            const size_t count = 2 + (size_t)N * NRHS * (is_complex(all_types[ti]) ? 2 : 1);
            bad |= !(ref[ti][p] = st_read_out(dir, name, count, 1));
        }
    th_remove_dir(dir);
    if (bad)
        fprintf(stderr, "solver_ref.py failed (exit %d)\n", rc);
    return bad ? -1 : 0;
}

static lcplx ref_x(int ti, int p, size_t k) {
    const double *x = ref[ti][p] + 2;
    return is_complex(all_types[ti]) ? x[2 * k] + I * (long double)x[2 * k + 1] : x[k];
}

typedef trnsolverStatus_t (*gels_fn)(trnsolverDnHandle_t, int, int, int, void *, int, void *, int,
                                     void *, int, void *, size_t, int *, int *);
typedef trnsolverStatus_t (*gels_size_fn)(trnsolverDnHandle_t, int, int, int, void *, int, void *,
                                          int, void *, int, void *, size_t *);
typedef struct variant {
    ty t;
    char low; /* 0: the main precision */
    gels_fn fn;
    gels_size_fn size;
    const char *name;
} variant;

#define V(t, L, T1T2)                                                                              \
    {                                                                                              \
        t, L, (gels_fn)trnsolverDn##T1T2##gels, (gels_size_fn)trnsolverDn##T1T2##gels_bufferSize,  \
            #T1T2 "gels"                                                                           \
    }
static const variant variants[] = {ST_IRS_VARIANTS(V)};

/* The device copies of problem p of type t. */
typedef struct sys {
    int m;
    st_mat A, B, X;
    void *work;
    size_t lwork;
    int *info;
} sys;

static void sys_make(sys *s, ty t, int p, size_t lwork) {
    const int ti = st_type_index(t);
    s->m = prob_m[p];
    st_alloc(&s->A, t, s->m, N, s->m + 2);
    st_fill(&s->A, prob_a[ti][p]);
    st_upload(&s->A);
    st_alloc(&s->B, t, s->m, NRHS, s->m + 1);
    st_fill(&s->B, prob_b[ti][p]);
    st_upload(&s->B);
    st_alloc(&s->X, t, N, NRHS, N + 3);
    st_upload(&s->X);
    s->lwork = lwork;
    assert_int_equal(trnsciMalloc(&s->work, lwork), trnsciSuccess);
    s->info = st_info_alloc(1);
}

static void sys_free(sys *s) {
    st_free(&s->A);
    st_free(&s->B);
    st_free(&s->X);
    assert_int_equal(trnsciFree(s->work), trnsciSuccess);
    assert_int_equal(trnsciFree(s->info), trnsciSuccess);
}

static int x_rows(int i, int j, void *ctx) {
    (void)ctx;
    return i >= 0 && i < N && j >= 0 && j < NRHS;
}

static long double gam(ty t, long double k) {
    return (is_complex(t) ? 2.0L : 1.0L) * st_gamma(t, k);
}

/* The checks of the header on the solution x (N x NRHS, leading dimension
 * N) of problem p of type t; conv: refinement converged (else a
 * main-precision QR solved). */
static void check_x(const char *name, ty t, int p, const lcplx *x, int conv) {
    const int ti = st_type_index(t), m = prob_m[p];
    const lcplx *a = prob_a[ti][p], *b = prob_b[ti][p];
    const long double u = st_u(t), cx = is_complex(t) ? 2.0L : 1.0L;
    long double a1 = 0, ainf = 0;
    for (int j = 0; j < N; j++) {
        long double c = 0;
        for (int i = 0; i < m; i++)
            c += cabsl(a[(size_t)j * m + i]);
        a1 = fmaxl(a1, c);
    }
    for (int i = 0; i < m; i++) {
        long double r = 0;
        for (int j = 0; j < N; j++)
            r += cabsl(a[(size_t)j * m + i]);
        ainf = fmaxl(ainf, r);
    }
    const long double smax = ref[ti][p][0], smin = ref[ti][p][1], kappa = smax / smin;
    const long double e_np = 8.0L * m * N * (DBL_EPSILON / 2);
    long double eta = 0, fwd = 0;
    lcplx *r = st_lmat(m, 1), *rs = st_lmat(m, 1);
    for (int c = 0; c < NRHS; c++) {
        long double xn = 0, bn = 0, s2 = 0, sn = 0, dn = 0, refn = 0, rsn = 0;
        for (int i = 0; i < m; i++) {
            lcplx ri = b[(size_t)c * m + i], rsi = ri;
            for (int j = 0; j < N; j++) {
                ri -= a[(size_t)j * m + i] * x[(size_t)c * N + j];
                rsi -= a[(size_t)j * m + i] * ref_x(ti, p, (size_t)c * N + j);
            }
            r[i] = ri;
            rs[i] = rsi;
            rsn += creall(rsi * conjl(rsi));
            bn = fmaxl(bn, cabsl(b[(size_t)c * m + i]));
        }
        for (int j = 0; j < N; j++) {
            lcplx sj = 0;
            for (int i = 0; i < m; i++)
                sj += conjl(a[(size_t)j * m + i]) * r[i];
            sn = fmaxl(sn, cabsl(sj));
            s2 += creall(sj * conjl(sj));
            xn = fmaxl(xn, cabsl(x[(size_t)c * N + j]));
            const lcplx want = ref_x(ti, p, (size_t)c * N + j), dv = x[(size_t)c * N + j] - want;
            dn += creall(dv * conjl(dv));
            refn += creall(want * conjl(want));
        }
        eta = fmaxl(eta, sn / (a1 * (ainf * xn + bn)));
        /* The column's bound: ours from the identity, numpy's from its
         * backward error. */
        const long double lim =
            1.01L *
            (sqrtl(s2) / (smin * smin) +
             kappa * e_np * (2 + (kappa + 1) * sqrtl(rsn) / (smax * sqrtl(refn))) * sqrtl(refn));
        fwd = fmaxl(fwd, sqrtl(dn) / lim);
    }
    free(r);
    free(rs);
    const long double eta_lim =
        conv ? sqrtl((long double)N) * u + gam(t, N + 1) + gam(t, m) * (1 + gam(t, N + 1))
             : 8.0L * m * N * u * cx;
    char what[80];
    snprintf(what, sizeof(what), "%.40s %s orthogonality", name,
             p == P_WELL   ? "well"
             : p == P_HARD ? "hard"
                           : "square");
    st_note(what, eta / eta_lim, 1.0L);
    if (!(eta <= eta_lim))
        fail_msg("%s: eta %Lg > %Lg", what, eta, eta_lim);
    snprintf(what, sizeof(what), "%.40s %s forward error", name,
             p == P_WELL   ? "well"
             : p == P_HARD ? "hard"
                           : "square");
    st_note(what, fwd, 1.0L);
    if (!(fwd <= 1.0L))
        fail_msg("%s: forward error %Lg of its bound", what, fwd);
}

static void check_solution(const char *name, const sys *s, int p, int conv) {
    st_untouched(&s->A);
    st_untouched(&s->B);
    void *xg = st_download(&s->X, x_rows, NULL);
    lcplx *x = st_take_got(&s->X, xg);
    free(xg);
    check_x(name, s->X.t, p, x, conv);
    free(x);
}

/* Every <t1><t2>gels on the well-conditioned problem and the square one:
 * converges (iter > 0, or 0 for a main-precision solve), d_info 0. */
static void test_gels_all(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    static const int probs[] = {P_WELL, P_SQUARE};
    for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++)
        for (int k = 0; k < 2; k++) {
            const variant *w = &variants[v];
            const int p = probs[k], m = prob_m[p];
            size_t lwork = 0;
            assert_int_equal(w->size(h, m, N, NRHS, NULL, m, NULL, m, NULL, N, NULL, &lwork),
                             TRNSOLVER_STATUS_SUCCESS);
            assert_true(lwork >= 16);
            sys s;
            sys_make(&s, w->t, p, lwork);
            int iter = -999;
            const trnsolverStatus_t st =
                w->fn(h, m, N, NRHS, st_ptr(&s.A), s.A.ld, st_ptr(&s.B), s.B.ld, st_ptr(&s.X),
                      s.X.ld, s.work, s.lwork, &iter, s.info);
            if (st != TRNSOLVER_STATUS_SUCCESS)
                fail_msg("%s: status %d (%s)", w->name, (int)st, trnsciGetLastErrorMessage());
            assert_int_equal(st_read_int(s.info), 0);
            if (w->low && !(iter >= 1 && iter <= 50))
                fail_msg("%s m=%d: iter %d", w->name, m, iter);
            if (!w->low)
                assert_int_equal(iter, 0);
            check_solution(w->name, &s, p, w->low != 0);
            sys_free(&s);
        }
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* binary16 refinement on the ill-conditioned problem: fails (iter < 0) and
 * the fallback's main-precision QR gives the solution (for the FP32 main
 * types it may also converge). */
static void test_gels_fallback(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    static const int half[] = {2, 6, 11, 15}; /* DH, SH, ZK, CK */
    for (int k = 0; k < 4; k++) {
        const variant *w = &variants[half[k]];
        size_t lwork = 0;
        assert_int_equal(w->size(h, M, N, NRHS, NULL, M, NULL, M, NULL, N, NULL, &lwork),
                         TRNSOLVER_STATUS_SUCCESS);
        sys s;
        sys_make(&s, w->t, P_HARD, lwork);
        int iter = 0;
        assert_int_equal(w->fn(h, M, N, NRHS, st_ptr(&s.A), s.A.ld, st_ptr(&s.B), s.B.ld,
                               st_ptr(&s.X), s.X.ld, s.work, s.lwork, &iter, s.info),
                         TRNSOLVER_STATUS_SUCCESS);
        /* FP32 main types: kappa u_32 ~ 0.6 makes the stopping rule as
         * easy to meet as any solve's rounding; converging is then as
         * right as falling back, and the checks follow which it was. */
        const int fb = iter == -2 || iter == -3 || iter == -5 || iter == -50;
        const int single = w->t == TY_S || w->t == TY_C;
        if (!fb && !(single && iter >= 1 && iter <= 50))
            fail_msg("%s: iter %d is not a failure code", w->name, iter);
        assert_int_equal(st_read_int(s.info), 0);
        check_solution(w->name, &s, P_HARD, !fb);
        sys_free(&s);
    }
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* IRSXgels: the params and infos (niters, outer niters, maxiters, the
 * residual history), the same steps as DSgels, a disabled fallback. */
static void test_irs_expert(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    trnsolverDnIRSParams_t p;
    trnsolverDnIRSInfos_t inf;
    assert_int_equal(trnsolverDnIRSParamsCreate(&p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnIRSInfosCreate(&inf), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnIRSParamsSetSolverPrecisions(p, TRNSOLVER_R_64F, TRNSOLVER_R_32F),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnIRSParamsSetRefinementSolver(p, TRNSOLVER_IRS_REFINE_CLASSICAL),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnIRSParamsSetMaxIters(p, 20), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnIRSInfosRequestResidual(inf), TRNSOLVER_STATUS_SUCCESS);
    size_t lwork = 0;
    assert_int_equal(trnsolverDnIRSXgels_bufferSize(h, p, M, N, NRHS, &lwork),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_true(lwork >= 16 + 16 * 21);
    sys s;
    sys_make(&s, TY_D, P_WELL, lwork);
    int niters = -999;
    assert_int_equal(trnsolverDnIRSXgels(h, p, inf, M, N, NRHS, st_ptr(&s.A), s.A.ld, st_ptr(&s.B),
                                         s.B.ld, st_ptr(&s.X), s.X.ld, s.work, s.lwork, &niters,
                                         s.info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_true(niters >= 1 && niters <= 20);
    check_solution("IRSXgels DS", &s, P_WELL, 1);
    int v = -1;
    assert_int_equal(trnsolverDnIRSInfosGetNiters(inf, &v), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(v, niters);
    assert_int_equal(trnsolverDnIRSInfosGetOuterNiters(inf, &v), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(v, niters);
    assert_int_equal(trnsolverDnIRSInfosGetMaxIters(inf, &v), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(v, 20);
    assert_int_equal(trnsolverDnIRSInfosGetOuterNiters(inf, NULL), TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverDnIRSInfosGetMaxIters(NULL, &v),
                     TRNSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED);
    /* The history: rows 0..niters numbered, the orthogonality residual
     * positive and, at the last row, within the stopping rule's reach
     * (below the first row's); rows past niters zero. */
    double *hist = NULL;
    assert_int_equal(trnsolverDnIRSInfosGetResidualHistory(inf, (void **)&hist),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_non_null(hist);
    for (int k = 0; k <= niters; k++) {
        assert_true(hist[2 * k] == k);
        assert_true(hist[2 * k + 1] > 0.0 && isfinite(hist[2 * k + 1]));
    }
    assert_true(hist[2 * niters + 1] < hist[1]);
    for (int k = niters + 1; k <= 20; k++)
        assert_true(hist[2 * k] == 0.0 && hist[2 * k + 1] == 0.0);
    /* DSgels (its own workspace: 50 iterations) takes the same steps. */
    size_t lw = 0;
    assert_int_equal(
        trnsolverDnDSgels_bufferSize(h, M, N, NRHS, NULL, M, NULL, M, NULL, N, NULL, &lw),
        TRNSOLVER_STATUS_SUCCESS);
    void *w2;
    assert_int_equal(trnsciMalloc(&w2, lw), trnsciSuccess);
    int iter = 0;
    assert_int_equal(trnsolverDnDSgels(h, M, N, NRHS, st_ptr(&s.A), s.A.ld, st_ptr(&s.B), s.B.ld,
                                       st_ptr(&s.X), s.X.ld, w2, lw, &iter, s.info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsciFree(w2), trnsciSuccess);
    assert_int_equal(iter, niters);
    sys_free(&s);

    /* Fallback disabled: binary16 on the hard problem fails and stays so;
     * re-enabled, the fallback solves it. */
    assert_int_equal(trnsolverDnIRSParamsSetSolverLowestPrecision(p, TRNSOLVER_R_16F),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnIRSParamsDisableFallback(p), TRNSOLVER_STATUS_SUCCESS);
    sys_make(&s, TY_D, P_HARD, lwork);
    assert_int_equal(trnsolverDnIRSXgels(h, p, NULL, M, N, NRHS, st_ptr(&s.A), s.A.ld, st_ptr(&s.B),
                                         s.B.ld, st_ptr(&s.X), s.X.ld, s.work, s.lwork, &niters,
                                         s.info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_true(niters < 0);
    assert_int_equal(st_read_int(s.info), 0);
    assert_int_equal(trnsolverDnIRSParamsEnableFallback(p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnIRSXgels(h, p, inf, M, N, NRHS, st_ptr(&s.A), s.A.ld, st_ptr(&s.B),
                                         s.B.ld, st_ptr(&s.X), s.X.ld, s.work, s.lwork, &niters,
                                         s.info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_true(niters < 0);
    assert_int_equal(trnsolverDnIRSInfosGetOuterNiters(inf, &v), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(v, niters);
    check_solution("IRSXgels DH fallback", &s, P_HARD, 0);
    sys_free(&s);
    assert_int_equal(trnsolverDnIRSInfosDestroy(inf), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnIRSParamsDestroy(p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* A rank-deficient A (column 6 zero): the FP32 R has R(6,6) = 0 (-3), the
 * FP64 fallback finds it too: d_info = 6; DDgels says so directly. */
static void test_rank_deficient(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    size_t lwork = 0;
    assert_int_equal(
        trnsolverDnDSgels_bufferSize(h, M, N, NRHS, NULL, M, NULL, M, NULL, N, NULL, &lwork),
        TRNSOLVER_STATUS_SUCCESS);
    sys s;
    sys_make(&s, TY_D, P_WELL, lwork);
    for (int i = 0; i < M; i++)
        st_set(&s.A, i, 5, 0);
    st_upload(&s.A);
    int iter = 0;
    assert_int_equal(trnsolverDnDSgels(h, M, N, NRHS, st_ptr(&s.A), s.A.ld, st_ptr(&s.B), s.B.ld,
                                       st_ptr(&s.X), s.X.ld, s.work, s.lwork, &iter, s.info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(iter, -3);
    assert_int_equal(st_read_int(s.info), 6);
    assert_int_equal(trnsolverDnDDgels(h, M, N, NRHS, st_ptr(&s.A), s.A.ld, st_ptr(&s.B), s.B.ld,
                                       st_ptr(&s.X), s.X.ld, s.work, s.lwork, &iter, s.info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(iter, 0);
    assert_int_equal(st_read_int(s.info), 6);
    sys_free(&s);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* dX == dB (lddx = lddb >= m): the same bits as into a separate X, and the
 * same solve twice gives the same bits. */
static void test_alias(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    size_t lwork = 0;
    assert_int_equal(
        trnsolverDnZEgels_bufferSize(h, M, N, NRHS, NULL, M, NULL, M, NULL, N, NULL, &lwork),
        TRNSOLVER_STATUS_SUCCESS);
    sys s;
    sys_make(&s, TY_Z, P_WELL, lwork);
    void *first = NULL;
    for (int k = 0; k < 2; k++) {
        int iter = 0;
        assert_int_equal(trnsolverDnZEgels(h, M, N, NRHS, st_ptr(&s.A), s.A.ld, st_ptr(&s.B),
                                           s.B.ld, st_ptr(&s.X), s.X.ld, s.work, s.lwork, &iter,
                                           s.info),
                         TRNSOLVER_STATUS_SUCCESS);
        void *got = st_download(&s.X, x_rows, NULL);
        if (!first)
            first = got;
        else {
            assert_memory_equal(first, got, s.X.total * esize(TY_Z));
            free(got);
        }
    }
    int iter = 0;
    assert_int_equal(trnsolverDnZEgels(h, M, N, NRHS, st_ptr(&s.A), s.A.ld, st_ptr(&s.B), s.B.ld,
                                       st_ptr(&s.B), s.B.ld, s.work, s.lwork, &iter, s.info),
                     TRNSOLVER_STATUS_SUCCESS);
    void *bx = st_download(&s.B, NULL, NULL);
    for (int j = 0; j < NRHS; j++)
        for (int i = 0; i < N; i++)
            assert_true(st_got(&s.B, bx, i, j) == st_got(&s.X, first, i, j));
    free(bx);
    free(first);
    sys_free(&s);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_bad_input(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    size_t lwork = 0;
    assert_int_equal(
        trnsolverDnDHgels_bufferSize(NULL, 6, 4, 1, NULL, 6, NULL, 6, NULL, 4, NULL, &lwork),
        TRNSOLVER_STATUS_NOT_INITIALIZED);
    assert_int_equal(
        trnsolverDnDHgels_bufferSize(h, 3, 4, 1, NULL, 6, NULL, 6, NULL, 4, NULL, &lwork),
        TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("m=3");
    assert_int_equal(
        trnsolverDnDHgels_bufferSize(h, 6, 4, 1, NULL, 6, NULL, 6, NULL, 4, NULL, NULL),
        TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(
        trnsolverDnDHgels_bufferSize(h, 6, 4, 1, NULL, 6, NULL, 6, NULL, 4, NULL, &lwork),
        TRNSOLVER_STATUS_SUCCESS);
    double *a;
    assert_int_equal(trnsciMalloc((void **)&a, 64 * sizeof(double) + lwork), trnsciSuccess);
    void *work = a + 64;
    int *info = (int *)(a + 60), iter = 0;
    /* A 6 x 4 at a, B 6 x 1 at a + 24, X 4 x 1 at a + 30. */
    assert_int_equal(
        trnsolverDnDHgels(h, 3, 4, 1, a, 6, a + 24, 6, a + 30, 4, work, lwork, &iter, info),
        TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("n=4 must be <= m=3");
    assert_int_equal(
        trnsolverDnDHgels(h, 6, -1, 1, a, 6, a + 24, 6, a + 30, 4, work, lwork, &iter, info),
        TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("n=-1");
    assert_int_equal(
        trnsolverDnDHgels(h, 6, 4, 1, a, 5, a + 24, 6, a + 30, 4, work, lwork, &iter, info),
        TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("ldda=5");
    assert_int_equal(
        trnsolverDnDHgels(h, 6, 4, 1, a, 6, a + 24, 4, a + 30, 4, work, lwork, &iter, info),
        TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("lddb=4");
    assert_int_equal(
        trnsolverDnDHgels(h, 6, 4, 1, a, 6, a + 24, 6, a + 30, 3, work, lwork, &iter, info),
        TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("lddx=3");
    assert_int_equal(
        trnsolverDnDHgels(h, 6, 4, 1, a, 6, a + 24, 6, a + 30, 4, work, 8, &iter, info),
        TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("lwork_bytes=8");
    assert_int_equal(
        trnsolverDnDHgels(h, 6, 4, 1, a, 6, a + 24, 6, a + 30, 4, work, lwork, NULL, info),
        TRNSOLVER_STATUS_INVALID_VALUE);
    double host[6];
    assert_int_equal(
        trnsolverDnDHgels(h, 6, 4, 1, a, 6, host, 6, a + 30, 4, work, lwork, &iter, info),
        TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("dB");
    /* B past the allocation's end. */
    assert_int_equal(trnsolverDnDHgels(h, 6, 4, 1, a, 6, (double *)((char *)work + lwork) - 2, 6,
                                       a + 30, 4, work, lwork, &iter, info),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    /* An empty problem does nothing and succeeds. */
    assert_int_equal(
        trnsolverDnDHgels(h, 6, 0, 1, a, 6, a + 24, 6, a + 30, 1, work, lwork, &iter, info),
        TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(iter, 0);

    trnsolverDnIRSParams_t p;
    assert_int_equal(trnsolverDnIRSParamsCreate(&p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnIRSXgels_bufferSize(h, p, 6, 4, 1, &lwork),
                     TRNSOLVER_STATUS_IRS_PARAMS_INVALID);
    assert_int_equal(trnsolverDnIRSParamsSetSolverMainPrecision(p, TRNSOLVER_R_64F),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnIRSXgels_bufferSize(h, p, 6, 4, 1, &lwork),
                     TRNSOLVER_STATUS_IRS_PARAMS_INVALID_REFINE);
    assert_int_equal(trnsolverDnIRSParamsSetRefinementSolver(p, TRNSOLVER_IRS_REFINE_CLASSICAL),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnIRSParamsSetSolverLowestPrecision(p, TRNSOLVER_C_32F),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnIRSXgels_bufferSize(h, p, 6, 4, 1, &lwork),
                     TRNSOLVER_STATUS_IRS_PARAMS_INVALID_PREC);
    assert_int_equal(trnsolverDnIRSParamsSetSolverLowestPrecision(p, TRNSOLVER_R_32F),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnIRSXgels_bufferSize(h, p, 4, 6, 1, &lwork),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverDnIRSXgels(h, NULL, NULL, 6, 4, 1, a, 6, a + 24, 6, a + 30, 4, work,
                                         lwork, &iter, info),
                     TRNSOLVER_STATUS_IRS_PARAMS_NOT_INITIALIZED);
    assert_int_equal(trnsolverDnIRSXgels(NULL, p, NULL, 6, 4, 1, a, 6, a + 24, 6, a + 30, 4, work,
                                         lwork, &iter, info),
                     TRNSOLVER_STATUS_NOT_INITIALIZED);
    assert_int_equal(trnsolverDnIRSXgels(h, p, NULL, 6, 4, 1, a, 6, a + 24, 6, a + 30, 2, work,
                                         lwork, &iter, info),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("lddx=2");
    assert_int_equal(trnsolverDnIRSParamsDestroy(p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsciFree(a), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

int main(void) {
    if (make_problems() != 0)
        return 1;
    if (st_start(&daemon_under_test) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gels_all),   cmocka_unit_test(test_gels_fallback),
        cmocka_unit_test(test_irs_expert), cmocka_unit_test(test_rank_deficient),
        cmocka_unit_test(test_alias),      cmocka_unit_test(test_bad_input),
    };
    int failed = ST_RUN_BOTH("solver IRS gels", tests);
    failed += st_finish("solver_irs_gels");
    return failed ? 1 : 0;
}
