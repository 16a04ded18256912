/*
 * test_solver_irs.c — cuSOLVER's mixed-precision iterative refinement
 * solvers (trnsolverDn<t1><t2>gesv, trnsolverDnIRSXgesv with its params
 * and infos) through a real trnscid over the local transport and gRPC.
 *
 * Reference: numpy.linalg.solve in double (complex double) on the matrices
 * as stored (solver_ref.py "solve", Debian's python3), and kappa_inf(A)
 * from numpy.linalg.cond. Checks, u the main precision's unit roundoff:
 *  - normwise backward error eta = max_j ||b_j - A x_j||_inf / (||A||_inf
 *    ||x_j||_inf), computed here in long double: on convergence at most the
 *    stopping tolerance sqrt(n) u plus the rounding of the daemon's own
 *    residual in the main precision, gamma_{n+1} (|A||x| + |b|) <= 2
 *    gamma_{n+1} ||A|| ||x|| per column (doubled for complex arithmetic);
 *    after a main-precision LU solve (DD, SS, ZZ, CC, and every fallback)
 *    at most 8 n u, the LU backward error gamma_{3n} times a growth factor
 *    that is small for these matrices (Higham, Accuracy and Stability,
 *    Thm 9.4);
 *  - forward error ||x - x_np||_inf / ||x_np||_inf at most 8 n
 *    kappa_inf(A) u (backward error times the condition number, Higham
 *    Thm 7.2, plus numpy's own error, which is of the same order for
 *    double data and negligible for float data), checked where that bound
 *    is below 1.
 * Problems: n = 40, nrhs = 3, sigma_max / sigma_min = 10 (refinement from
 * every lower format converges: kappa u_low < 0.05) and an ill-conditioned
 * one (1e7: kappa u_fp16 >> 1, and still kappa u_32 < 1 for the FP32 LU)
 * on which binary16 refinement must fail and fall back (iter < 0).
 * Also: the residual history against the iterations, a disabled fallback,
 * an exactly singular matrix (d_info), A and B left unchanged, the padding
 * around X untouched, and bad input with cuSOLVER's statuses.
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

#define N 40
#define NRHS 3

static th_daemon daemon_under_test;

enum { P_WELL, P_HARD, NPROB };
static lcplx *prob_a[4][NPROB], *prob_b[4][NPROB];
static double *ref[4][NPROB]; /* kappa_inf, then X */

static int make_problems(void) {
    char dir[] = "/tmp/trnsci-solver-irs-XXXXXX";
    FILE *man = st_open_manifest(dir);
    if (!man)
        return -1;
    st_rng = 0x1a5e5ULL;
    for (int ti = 0; ti < 4; ti++) {
        const ty t = all_types[ti];
        for (int p = 0; p < NPROB; p++) {
            const long double kappa = p == P_WELL ? 10.0L : 1e7L;
            lcplx *a = st_general(t, N, kappa);
            lcplx *b = st_lmat(N, NRHS);
            for (size_t i = 0; i < (size_t)N * NRHS; i++)
                b[i] = st_random(t);
            st_round_to(t, a, (size_t)N * N);
            st_round_to(t, b, (size_t)N * NRHS);
            prob_a[ti][p] = a;
            prob_b[ti][p] = b;
            char name[32];
            snprintf(name, sizeof(name), "s%d_%d", ti, p);
            st_write_raw(dir, name, "a", t, (size_t)N * N, a);
            st_write_raw(dir, name, "b", t, (size_t)N * NRHS, b);
            fprintf(man, "solve %s %s %d %d\n", name, st_np_name(t), N, NRHS);
        }
    }
    fclose(man);
    const char *const argv[] = {PYTHON3, SOLVER_REF_PY, dir, NULL};
    const int rc = th_run(argv, NULL);
    int bad = rc != 0;
    for (int ti = 0; ti < 4 && !bad; ti++)
        for (int p = 0; p < NPROB && !bad; p++) {
            char name[32];
            snprintf(name, sizeof(name), "s%d_%d", ti, p);
            const size_t count = 1 + (size_t)N * NRHS * (is_complex(all_types[ti]) ? 2 : 1);
            bad |= !(ref[ti][p] = st_read_out(dir, name, count, 1));
        }
    th_remove_dir(dir);
    if (bad)
        fprintf(stderr, "solver_ref.py failed (exit %d)\n", rc);
    return bad ? -1 : 0;
}

static lcplx ref_x(int ti, int p, size_t k) {
    const double *x = ref[ti][p] + 1;
    return is_complex(all_types[ti]) ? x[2 * k] + I * (long double)x[2 * k + 1] : x[k];
}

/* The gesv routine of main type t and lowest letter (the second letter of
 * cuSOLVER's name). */
typedef trnsolverStatus_t (*gesv_fn)(trnsolverDnHandle_t, int, int, void *, int, int *, void *, int,
                                     void *, int, void *, size_t, int *, int *);
typedef trnsolverStatus_t (*gesv_size_fn)(trnsolverDnHandle_t, int, int, void *, int, int *, void *,
                                          int, void *, int, void *, size_t *);
typedef struct variant {
    ty t;
    char low; /* 0: the main precision */
    gesv_fn fn;
    gesv_size_fn size;
    const char *name;
} variant;

#define V(t, L, T1T2)                                                                              \
    {                                                                                              \
        t, L, (gesv_fn)trnsolverDn##T1T2##gesv, (gesv_size_fn)trnsolverDn##T1T2##gesv_bufferSize,  \
            #T1T2 "gesv"                                                                           \
    }
static const variant variants[] = {ST_IRS_VARIANTS(V)};

/* The device copies of problem p of type t. */
typedef struct sys {
    st_mat A, B, X;
    void *work;
    size_t lwork;
    int *info;
} sys;

static void sys_make(sys *s, ty t, int p, size_t lwork) {
    const int ti = st_type_index(t);
    st_alloc(&s->A, t, N, N, N + 2);
    st_fill(&s->A, prob_a[ti][p]);
    st_upload(&s->A);
    st_alloc(&s->B, t, N, NRHS, N + 1);
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

static int all_rows(int i, int j, void *ctx) {
    (void)ctx;
    return i >= 0 && i < N && j >= 0 && j < NRHS;
}

/* The checks of the header on X of problem p; conv: refinement converged
 * (else a main-precision LU solved). */
static void check_solution(const char *name, const sys *s, int p, int conv) {
    const ty t = s->X.t;
    const int ti = st_type_index(t);
    st_untouched(&s->A);
    st_untouched(&s->B);
    void *xg = st_download(&s->X, all_rows, NULL);
    lcplx *x = st_take_got(&s->X, xg);
    free(xg);
    const lcplx *a = prob_a[ti][p], *b = prob_b[ti][p];
    const long double u = st_u(t), n = N;
    long double anorm = 0;
    for (int i = 0; i < N; i++) {
        long double r = 0;
        for (int j = 0; j < N; j++)
            r += cabsl(a[(size_t)j * N + i]);
        anorm = r > anorm ? r : anorm;
    }
    long double eta = 0, fwd = 0;
    for (int c = 0; c < NRHS; c++) {
        long double rn = 0, xn = 0, dn = 0, refn = 0;
        for (int i = 0; i < N; i++) {
            lcplx r = b[(size_t)c * N + i];
            for (int j = 0; j < N; j++)
                r -= a[(size_t)j * N + i] * x[(size_t)c * N + j];
            rn = fmaxl(rn, cabsl(r));
            xn = fmaxl(xn, cabsl(x[(size_t)c * N + i]));
            const lcplx want = ref_x(ti, p, (size_t)c * N + i);
            dn = fmaxl(dn, cabsl(x[(size_t)c * N + i] - want));
            refn = fmaxl(refn, cabsl(want));
        }
        eta = fmaxl(eta, rn / (anorm * xn));
        fwd = fmaxl(fwd, dn / refn);
    }
    const long double cx = is_complex(t) ? 2.0L : 1.0L;
    const long double eta_lim =
        conv ? sqrtl(n) * u + cx * 2.0L * st_gamma(t, n + 1) : 8.0L * n * u * cx;
    char what[80];
    snprintf(what, sizeof(what), "%.40s %s backward error", name, p == P_WELL ? "well" : "hard");
    st_note(what, eta / eta_lim, 1.0L);
    if (!(eta <= eta_lim))
        fail_msg("%s: backward error %Lg > %Lg", what, eta, eta_lim);
    const long double fwd_lim = 8.0L * n * (long double)ref[ti][p][0] * u * cx;
    if (fwd_lim < 1.0L) {
        snprintf(what, sizeof(what), "%.40s %s forward error", name, p == P_WELL ? "well" : "hard");
        st_note(what, fwd / fwd_lim, 1.0L);
        if (!(fwd <= fwd_lim))
            fail_msg("%s: forward error %Lg > %Lg (kappa_inf %g)", what, fwd, fwd_lim,
                     ref[ti][p][0]);
    }
    free(x);
}

/* Every <t1><t2>gesv on the well-conditioned problem: converges (iter > 0,
 * or 0 for a main-precision solve), d_info 0, the checks above. */
static void test_gesv_all(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++) {
        const variant *w = &variants[v];
        size_t lwork = 0;
        assert_int_equal(w->size(h, N, NRHS, NULL, N, NULL, NULL, N, NULL, N, NULL, &lwork),
                         TRNSOLVER_STATUS_SUCCESS);
        assert_true(lwork >= 16);
        sys s;
        sys_make(&s, w->t, P_WELL, lwork);
        int *piv = st_info_alloc(N);
        int iter = -999;
        const trnsolverStatus_t st =
            w->fn(h, N, NRHS, st_ptr(&s.A), s.A.ld, piv, st_ptr(&s.B), s.B.ld, st_ptr(&s.X), s.X.ld,
                  s.work, s.lwork, &iter, s.info);
        if (st != TRNSOLVER_STATUS_SUCCESS)
            fail_msg("%s: status %d (%s)", w->name, (int)st, trnsciGetLastErrorMessage());
        assert_int_equal(st_read_int(s.info), 0);
        if (w->low)
            assert_true(iter >= 1 && iter <= 50);
        else
            assert_int_equal(iter, 0);
        int hp[N];
        assert_int_equal(trnsciMemcpy(hp, piv, sizeof(hp), trnsciMemcpyDeviceToHost),
                         trnsciSuccess);
        for (int i = 0; i < N; i++)
            assert_true(hp[i] >= i + 1 && hp[i] <= N);
        check_solution(w->name, &s, P_WELL, w->low != 0);
        assert_int_equal(trnsciFree(piv), trnsciSuccess);
        sys_free(&s);
    }
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* binary16 refinement on the ill-conditioned problem: fails (iter < 0) and
 * the fallback's main-precision LU gives the solution. */
static void test_gesv_fallback(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    static const int half[] = {2, 6, 11, 15}; /* DH, SH, ZK, CK */
    for (int k = 0; k < 4; k++) {
        const variant *w = &variants[half[k]];
        size_t lwork = 0;
        assert_int_equal(w->size(h, N, NRHS, NULL, N, NULL, NULL, N, NULL, N, NULL, &lwork),
                         TRNSOLVER_STATUS_SUCCESS);
        sys s;
        sys_make(&s, w->t, P_HARD, lwork);
        int iter = 0;
        assert_int_equal(w->fn(h, N, NRHS, st_ptr(&s.A), s.A.ld, NULL, st_ptr(&s.B), s.B.ld,
                               st_ptr(&s.X), s.X.ld, s.work, s.lwork, &iter, s.info),
                         TRNSOLVER_STATUS_SUCCESS);
        if (!(iter == -2 || iter == -3 || iter == -5 || iter == -50))
            fail_msg("%s: iter %d is not a failure code", w->name, iter);
        assert_int_equal(st_read_int(s.info), 0);
        check_solution(w->name, &s, P_HARD, 0);
        sys_free(&s);
    }
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* IRSXgesv: the params and infos, the residual history, a disabled
 * fallback. */
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
    int mi = 0;
    assert_int_equal(trnsolverDnIRSParamsGetMaxIters(p, &mi), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(mi, 20);
    assert_int_equal(trnsolverDnIRSInfosRequestResidual(inf), TRNSOLVER_STATUS_SUCCESS);
    size_t lwork = 0;
    assert_int_equal(trnsolverDnIRSXgesv_bufferSize(h, p, N, NRHS, &lwork),
                     TRNSOLVER_STATUS_SUCCESS);
    sys s;
    sys_make(&s, TY_D, P_WELL, lwork);
    int niters = -999;
    assert_int_equal(trnsolverDnIRSXgesv(h, p, inf, N, NRHS, st_ptr(&s.A), s.A.ld, st_ptr(&s.B),
                                         s.B.ld, st_ptr(&s.X), s.X.ld, s.work, s.lwork, &niters,
                                         s.info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_true(niters >= 1 && niters <= 20);
    int v = 0;
    assert_int_equal(trnsolverDnIRSInfosGetNiters(inf, &v), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(v, niters);
    assert_int_equal(trnsolverDnIRSInfosGetOuterNiters(inf, &v), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(v, niters);
    assert_int_equal(trnsolverDnIRSInfosGetMaxIters(inf, &v), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(v, 20);
    void *hv = NULL;
    assert_int_equal(trnsolverDnIRSInfosGetResidualHistory(inf, &hv), TRNSOLVER_STATUS_SUCCESS);
    const double *hist = hv;
    assert_non_null(hist);
    /* Row k: (k, max_j ||r_j||_inf); the residual falls by about kappa
     * u_32 per step until the last, which meets the stopping rule. */
    for (int k = 0; k <= niters; k++) {
        assert_true(hist[2 * k] == k);
        assert_true(hist[2 * k + 1] > 0.0 || k == niters);
    }
    assert_true(hist[2 * niters + 1] < hist[1]);
    for (int k = niters + 1; k <= 20; k++)
        assert_true(hist[2 * k] == 0.0 && hist[2 * k + 1] == 0.0);
    check_solution("IRSXgesv DS", &s, P_WELL, 1);
    /* The same problem through DSgesv (its own workspace: 50 iterations)
     * takes the same steps. */
    size_t lw = 0;
    assert_int_equal(
        trnsolverDnDSgesv_bufferSize(h, N, NRHS, NULL, N, NULL, NULL, N, NULL, N, NULL, &lw),
        TRNSOLVER_STATUS_SUCCESS);
    assert_true(lw > lwork);
    void *w2;
    assert_int_equal(trnsciMalloc(&w2, lw), trnsciSuccess);
    int iter = 0;
    assert_int_equal(trnsolverDnDSgesv(h, N, NRHS, st_ptr(&s.A), s.A.ld, NULL, st_ptr(&s.B), s.B.ld,
                                       st_ptr(&s.X), s.X.ld, w2, lw, &iter, s.info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsciFree(w2), trnsciSuccess);
    assert_int_equal(iter, niters);
    sys_free(&s);

    /* Fallback disabled: binary16 on the hard problem fails and stays so. */
    assert_int_equal(trnsolverDnIRSParamsSetSolverLowestPrecision(p, TRNSOLVER_R_16F),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnIRSParamsDisableFallback(p), TRNSOLVER_STATUS_SUCCESS);
    sys_make(&s, TY_D, P_HARD, lwork);
    assert_int_equal(trnsolverDnIRSXgesv(h, p, NULL, N, NRHS, st_ptr(&s.A), s.A.ld, st_ptr(&s.B),
                                         s.B.ld, st_ptr(&s.X), s.X.ld, s.work, s.lwork, &niters,
                                         s.info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_true(niters < 0);
    assert_int_equal(st_read_int(s.info), 0);
    /* Re-enabled: the fallback solves it. */
    assert_int_equal(trnsolverDnIRSParamsEnableFallback(p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnIRSXgesv(h, p, NULL, N, NRHS, st_ptr(&s.A), s.A.ld, st_ptr(&s.B),
                                         s.B.ld, st_ptr(&s.X), s.X.ld, s.work, s.lwork, &niters,
                                         s.info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_true(niters < 0);
    check_solution("IRSXgesv DH fallback", &s, P_HARD, 0);
    sys_free(&s);
    assert_int_equal(trnsolverDnIRSInfosDestroy(inf), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnIRSParamsDestroy(p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* GMRES refinement (and its two-level names, which run the same) from
 * binary16 and bfloat16: converges on the well-conditioned problem for
 * every main type, niters counting GMRES steps. On the ill-conditioned one
 * it either converges (then the refinement's bounds hold) or falls back;
 * so may unpreconditioned GMRES (NOPCOND), whose 50 steps are about one
 * 10^-4 cycle per 40 on this n = 40 problem. */
static void test_irs_gmres(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    static const trnsolverPrecType_t mains[4] = {TRNSOLVER_R_32F, TRNSOLVER_R_64F, TRNSOLVER_C_32F,
                                                 TRNSOLVER_C_64F};
    static const trnsolverIRSRefinement_t refs[4] = {
        TRNSOLVER_IRS_REFINE_GMRES, TRNSOLVER_IRS_REFINE_CLASSICAL_GMRES,
        TRNSOLVER_IRS_REFINE_GMRES_GMRES, TRNSOLVER_IRS_REFINE_GMRES_NOPCOND};
    for (int ti = 0; ti < 4; ti++)
        for (int ri = 0; ri < 4; ri++)
            for (int p = 0; p < NPROB; p++) {
                if (ri == 3 && p == P_HARD)
                    continue; /* unpreconditioned GMRES on kappa 1e7: no point */
                const ty t = all_types[ti];
                const int cx = is_complex(t);
                trnsolverDnIRSParams_t prm;
                assert_int_equal(trnsolverDnIRSParamsCreate(&prm), TRNSOLVER_STATUS_SUCCESS);
                const trnsolverPrecType_t low =
                    (trnsolverPrecType_t)((ri & 1 ? TRNSOLVER_R_16BF : TRNSOLVER_R_16F) +
                                          (cx ? 10 : 0));
                assert_int_equal(trnsolverDnIRSParamsSetSolverPrecisions(prm, mains[ti], low),
                                 TRNSOLVER_STATUS_SUCCESS);
                assert_int_equal(trnsolverDnIRSParamsSetRefinementSolver(prm, refs[ri]),
                                 TRNSOLVER_STATUS_SUCCESS);
                size_t lwork = 0;
                assert_int_equal(trnsolverDnIRSXgesv_bufferSize(h, prm, N, NRHS, &lwork),
                                 TRNSOLVER_STATUS_SUCCESS);
                sys s;
                sys_make(&s, t, p, lwork);
                int niters = -999;
                const trnsolverStatus_t st = trnsolverDnIRSXgesv(
                    h, prm, NULL, N, NRHS, st_ptr(&s.A), s.A.ld, st_ptr(&s.B), s.B.ld, st_ptr(&s.X),
                    s.X.ld, s.work, s.lwork, &niters, s.info);
                if (st != TRNSOLVER_STATUS_SUCCESS)
                    fail_msg("%s refinement %d: status %d (%s)", ty_name[t], (int)refs[ri], (int)st,
                             trnsciGetLastErrorMessage());
                if (p == P_WELL && ri != 3 && !(niters >= 1 && niters <= 50))
                    fail_msg("%s refinement %d: niters %d", ty_name[t], (int)refs[ri], niters);
                assert_int_equal(st_read_int(s.info), 0);
                char name[48];
                snprintf(name, sizeof(name), "%s GMRES-IR%s", ty_name[t], niters < 0 ? " fb" : "");
                check_solution(name, &s, p, niters >= 0);
                sys_free(&s);
                assert_int_equal(trnsolverDnIRSParamsDestroy(prm), TRNSOLVER_STATUS_SUCCESS);
            }
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* An exactly singular A (column 6 zero): the FP32 LU fails (-3), the FP64
 * one finds U(6,6) = 0: d_info = 6. */
static void test_singular(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    size_t lwork = 0;
    assert_int_equal(
        trnsolverDnDSgesv_bufferSize(h, N, 1, NULL, N, NULL, NULL, N, NULL, N, NULL, &lwork),
        TRNSOLVER_STATUS_SUCCESS);
    sys s;
    sys_make(&s, TY_D, P_WELL, lwork);
    for (int i = 0; i < N; i++)
        st_set(&s.A, i, 5, 0);
    st_upload(&s.A);
    int iter = 0;
    assert_int_equal(trnsolverDnDSgesv(h, N, NRHS, st_ptr(&s.A), s.A.ld, NULL, st_ptr(&s.B), s.B.ld,
                                       st_ptr(&s.X), s.X.ld, s.work, s.lwork, &iter, s.info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(iter, -3);
    assert_int_equal(st_read_int(s.info), 6);
    sys_free(&s);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_bad_input(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    size_t lwork = 0;
    assert_int_equal(
        trnsolverDnDHgesv_bufferSize(NULL, 4, 1, NULL, 4, NULL, NULL, 4, NULL, 4, NULL, &lwork),
        TRNSOLVER_STATUS_NOT_INITIALIZED);
    assert_int_equal(
        trnsolverDnDHgesv_bufferSize(h, -1, 1, NULL, 4, NULL, NULL, 4, NULL, 4, NULL, &lwork),
        TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(
        trnsolverDnDHgesv_bufferSize(h, 4, 1, NULL, 4, NULL, NULL, 4, NULL, 4, NULL, &lwork),
        TRNSOLVER_STATUS_SUCCESS);
    double *a;
    assert_int_equal(trnsciMalloc((void **)&a, 64 * sizeof(double) + lwork), trnsciSuccess);
    void *work = a + 64;
    int *info = (int *)(a + 60), iter = 0;
    assert_int_equal(
        trnsolverDnDHgesv(h, -2, 1, a, 4, NULL, a + 16, 4, a + 20, 4, work, lwork, &iter, info),
        TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("n=-2");
    assert_int_equal(
        trnsolverDnDHgesv(h, 4, 1, a, 3, NULL, a + 16, 4, a + 20, 4, work, lwork, &iter, info),
        TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("ldda=3");
    assert_int_equal(
        trnsolverDnDHgesv(h, 4, 1, a, 4, NULL, a + 16, 4, a + 20, 4, work, 8, &iter, info),
        TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("lwork_bytes=8");
    assert_int_equal(
        trnsolverDnDHgesv(h, 4, 1, a, 4, NULL, a + 16, 4, a + 20, 4, NULL, lwork, &iter, info),
        TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(
        trnsolverDnDHgesv(h, 4, 1, a, 4, NULL, a + 16, 4, a + 20, 4, work, lwork, NULL, info),
        TRNSOLVER_STATUS_INVALID_VALUE);
    double host[4];
    assert_int_equal(
        trnsolverDnDHgesv(h, 4, 1, a, 4, NULL, host, 4, a + 20, 4, work, lwork, &iter, info),
        TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("dB");

    trnsolverDnIRSParams_t p;
    assert_int_equal(trnsolverDnIRSParamsCreate(&p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnIRSXgesv_bufferSize(h, p, 4, 1, &lwork),
                     TRNSOLVER_STATUS_IRS_PARAMS_INVALID);
    assert_int_equal(trnsolverDnIRSParamsSetSolverMainPrecision(p, TRNSOLVER_R_32F),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnIRSXgesv_bufferSize(h, p, 4, 1, &lwork),
                     TRNSOLVER_STATUS_IRS_PARAMS_INVALID_REFINE);
    assert_int_equal(trnsolverDnIRSParamsSetRefinementSolver(p, (trnsolverIRSRefinement_t)1099),
                     TRNSOLVER_STATUS_IRS_PARAMS_INVALID_REFINE);
    assert_int_equal(trnsolverDnIRSParamsSetRefinementSolver(p, TRNSOLVER_IRS_REFINE_CLASSICAL),
                     TRNSOLVER_STATUS_SUCCESS);
    /* Lowest wider than main, or of the other domain. */
    assert_int_equal(trnsolverDnIRSParamsSetSolverLowestPrecision(p, TRNSOLVER_R_64F),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnIRSXgesv_bufferSize(h, p, 4, 1, &lwork),
                     TRNSOLVER_STATUS_IRS_PARAMS_INVALID_PREC);
    assert_int_equal(trnsolverDnIRSParamsSetSolverLowestPrecision(p, TRNSOLVER_C_16F),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnIRSXgesv_bufferSize(h, p, 4, 1, &lwork),
                     TRNSOLVER_STATUS_IRS_PARAMS_INVALID_PREC);
    assert_int_equal(trnsolverDnIRSParamsSetMaxIters(p, 0),
                     TRNSOLVER_STATUS_IRS_PARAMS_INVALID_MAXITER);
    assert_int_equal(trnsolverDnIRSParamsSetMaxIters(p, 10), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnIRSParamsSetMaxItersInner(p, 11),
                     TRNSOLVER_STATUS_IRS_PARAMS_INVALID);
    assert_int_equal(trnsolverDnIRSParamsSetTol(p, -1.0), TRNSOLVER_STATUS_IRS_PARAMS_INVALID);
    assert_int_equal(trnsolverDnIRSParamsSetTol(NULL, 1e-3),
                     TRNSOLVER_STATUS_IRS_PARAMS_NOT_INITIALIZED);
    assert_int_equal(trnsolverDnIRSXgesv(h, NULL, NULL, 4, 1, a, 4, a + 16, 4, a + 20, 4, work,
                                         lwork, &iter, info),
                     TRNSOLVER_STATUS_IRS_PARAMS_NOT_INITIALIZED);
    trnsolverDnIRSInfos_t inf;
    assert_int_equal(trnsolverDnIRSInfosCreate(&inf), TRNSOLVER_STATUS_SUCCESS);
    void *hist = NULL;
    assert_int_equal(trnsolverDnIRSInfosGetResidualHistory(inf, &hist),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverDnIRSInfosGetNiters(NULL, &iter),
                     TRNSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED);
    assert_int_equal(trnsolverDnIRSInfosDestroy(inf), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnIRSParamsDestroy(p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsciFree(a), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* The deterministic mode: stored and reported, DETERMINISTIC by default;
 * and the same solve twice gives the same bits in either mode, also when
 * X is B. */
static void test_deterministic_mode(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    trnsolverDeterministicMode_t m = (trnsolverDeterministicMode_t)0;
    assert_int_equal(trnsolverDnGetDeterministicMode(h, &m), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(m, TRNSOLVER_DETERMINISTIC_RESULTS);
    assert_int_equal(trnsolverDnSetDeterministicMode(h, TRNSOLVER_ALLOW_NON_DETERMINISTIC_RESULTS),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnGetDeterministicMode(h, &m), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(m, TRNSOLVER_ALLOW_NON_DETERMINISTIC_RESULTS);
    assert_int_equal(trnsolverDnSetDeterministicMode(h, (trnsolverDeterministicMode_t)3),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverDnGetDeterministicMode(h, NULL), TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverDnSetDeterministicMode(NULL, TRNSOLVER_DETERMINISTIC_RESULTS),
                     TRNSOLVER_STATUS_NOT_INITIALIZED);
    size_t lwork = 0;
    assert_int_equal(
        trnsolverDnDHgesv_bufferSize(h, N, NRHS, NULL, N, NULL, NULL, N, NULL, N, NULL, &lwork),
        TRNSOLVER_STATUS_SUCCESS);
    sys s;
    sys_make(&s, TY_D, P_WELL, lwork);
    void *first = NULL;
    for (int k = 0; k < 2; k++) {
        int iter = 0;
        assert_int_equal(trnsolverDnDHgesv(h, N, NRHS, st_ptr(&s.A), s.A.ld, NULL, st_ptr(&s.B),
                                           s.B.ld, st_ptr(&s.X), s.X.ld, s.work, s.lwork, &iter,
                                           s.info),
                         TRNSOLVER_STATUS_SUCCESS);
        void *got = st_download(&s.X, all_rows, NULL);
        if (!first)
            first = got;
        else {
            assert_memory_equal(first, got, s.X.total * esize(TY_D));
            free(got);
        }
    }
    /* dX == dB: the same bits as into a separate X. */
    int iter = 0;
    assert_int_equal(trnsolverDnDHgesv(h, N, NRHS, st_ptr(&s.A), s.A.ld, NULL, st_ptr(&s.B), s.B.ld,
                                       st_ptr(&s.B), s.B.ld, s.work, s.lwork, &iter, s.info),
                     TRNSOLVER_STATUS_SUCCESS);
    void *bx = st_download(&s.B, all_rows, NULL);
    for (int j = 0; j < NRHS; j++)
        for (int i = 0; i < N; i++)
            assert_true(st_got(&s.B, bx, i, j) == st_got(&s.X, first, i, j));
    free(bx);
    free(first);
    sys_free(&s);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

int main(void) {
    if (make_problems() != 0)
        return 1;
    if (st_start(&daemon_under_test) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gesv_all),   cmocka_unit_test(test_gesv_fallback),
        cmocka_unit_test(test_irs_expert), cmocka_unit_test(test_irs_gmres),
        cmocka_unit_test(test_singular),   cmocka_unit_test(test_deterministic_mode),
        cmocka_unit_test(test_bad_input),
    };
    int failed = ST_RUN_BOTH("solver IRS", tests);
    failed += st_finish("solver_irs");
    return failed ? 1 : 0;
}
