/*
 * test_solver_x.c — trnsolver's 64-bit generic API (trnsolverDnX*: params,
 * Xpotrf, Xpotrs, Xgetrf, Xgetrs, Xgeqrf, Xsyevd, XsyevBatched, Xsyevdx,
 * Xgesvd, Xgesvdp, Xgesvdr, Xtrtri and their _bufferSize calls) for R_32F, R_64F, C_32F and C_64F
 * through a real trnscid, over the local transport and gRPC over TCP.
 *
 * References, in long double (u the unit roundoff of the type, gamma_k =
 * k u / (1 - k u); complex arithmetic doubles the constants as in
 * test_solver.c: gamma_k becomes 2 gamma_{k+1}):
 *  - Cholesky (Higham, Accuracy and Stability, Thm 10.3):
 *    ||A - L L^H||_F <= gamma_{n+1} || |L| |L^H| ||_F; its solve (Thm 10.4)
 *    ||b - A x||_2 <= gamma_{3n+1} || |L| |L^H| ||_F ||x||_2;
 *  - LU (Thm 9.3): ||P A - L U||_F <= gamma_n || |L| |U| ||_F; its solve
 *    (Thm 9.4) ||b - op(A) x||_2 <= gamma_{3n} || |L| |U| ||_F ||x||_2; the
 *    64-bit pivots equal those of scipy.linalg.lu_factor (LAPACK getrf in
 *    the same precision: partial pivoting picks the same rows unless two
 *    candidates tie within rounding, which the random matrices make
 *    unlikely; the LU check above holds regardless);
 *  - Householder QR (Thm 19.4, gamma~_{mn} = gamma_{4mn}):
 *    ||A - Q R||_F <= gamma~ ||A||_F, ||Q^H Q - I||_F <= gamma~ sqrt(n); R
 *    against scipy.linalg.qr's (same sign convention, LAPACK geqrf) within
 *    4 kappa_2(A) gamma~ ||A||_F, the first-order perturbation bound of R
 *    (Higham §19.9, Sun's bound, with a factor of 2 to spare), kappa_2
 *    from the reference singular values;
 *  - eigenvalues and singular values against scipy.linalg.eigvalsh and
 *    numpy.linalg.svd (solver_ref.py) within THRESH n u ||A||_F (Weyl, as
 *    test_solver_eigen.c), vectors through LAPACK's test ratios (LAWN 41):
 *    ||A V - V W||_F / (n ||A||_F u), ||V^H V - I||_F / (n u),
 *    ||A - U S V^H||_F / (max(m,n) ||A||_F u), held to THRESH = 30;
 *    XsyevBatched on H, 2 H and -H in one allocation, whose references are
 *    the exact scalings of H's; Xsyevdx's selections (by index, and by
 *    value with bounds halfway between reference eigenvalues) against the
 *    matching slice of the reference; Xgesvdp (tall and wide, full and
 *    economy) by the same ratios, its h_err_sigma within gesvdj's stopping
 *    rule (eps sqrt(k + 1) ||A||_F, doubled); Xgesvdr's k leading
 *    triplets (trnsci's are exact) against the reference values and by
 *    ||A V_k - U_k S_k||_F / (max(m,n) u ||A||_F) and orthonormality;
 *  - Xtrtri (substitution, Higham Thm 8.5): ||T X - I||_F <= gamma_n
 *    || |T| |X| ||_F, the other triangle (and a unit diagonal) untouched.
 * info: a matrix that is not positive definite at a chosen order gives
 * Xpotrf info = that order; an exactly zero column gives Xgetrf info = its
 * index. Workspace: every _bufferSize reports 0 host bytes, Xgetrf
 * min(m,n) * 4 device bytes, the others 0; a smaller device buffer is
 * refused. Bad input gives cuSOLVER's status with a message naming the
 * argument, and the daemon serves the next call.
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

#define THRESH 30.0L
#define N 24  /* Cholesky, LU, eigenproblem */
#define QM 30 /* QR, SVD and the tall LU: QM x QN */
#define QN 20
#define LOWER TRNBLAS_FILL_MODE_LOWER
#define UPPER TRNBLAS_FILL_MODE_UPPER

static th_daemon daemon_under_test;

enum { P_GEN, P_TALL, P_HER, NPROB };
static const int prob_rows[NPROB] = {N, QM, N};
static const int prob_cols[NPROB] = {N, QN, N};
static lcplx *prob[4][NPROB];
static double *ref_piv[4][2]; /* lu of P_GEN, P_TALL */
static double *ref_r[4];      /* R of P_TALL: QN x QN (complex: pairs) */
static double *ref_eig[4];    /* eigenvalues of P_HER */
static double *ref_sv[4];     /* singular values of P_TALL */

static trnsciDataType_t dtype(ty t) {
    return t == TY_S   ? TRNSCI_R_32F
           : t == TY_D ? TRNSCI_R_64F
           : t == TY_C ? TRNSCI_C_32F
                       : TRNSCI_C_64F;
}

static trnsciDataType_t rtype(ty t) {
    return (t == TY_S || t == TY_C) ? TRNSCI_R_32F : TRNSCI_R_64F;
}

static ty real_ty(ty t) {
    return (t == TY_S || t == TY_C) ? TY_S : TY_D;
}

static long double cgam(ty t, long double k) {
    return is_complex(t) ? 2.0L * st_gamma(t, k + 1) : st_gamma(t, k);
}

static void check_ratio(ty t, const char *what, long double value, long double limit) {
    char name[80];
    snprintf(name, sizeof(name), "%s %s", ty_name[t], what);
    st_note(name, value / limit, 1.0L);
    if (!(value <= limit))
        fail_msg("%s %s: %Lg > %Lg", ty_name[t], what, value, limit);
}

/* ---- problems and references ------------------------------------------------------ */

static int make_problems(void) {
    char dir[] = "/tmp/trnsci-solver-x-XXXXXX";
    FILE *man = st_open_manifest(dir);
    if (!man)
        return -1;
    st_rng = 0x6e64a1ULL;
    for (int ti = 0; ti < 4; ti++) {
        const ty t = all_types[ti];
        for (int p = P_GEN; p <= P_TALL; p++) {
            lcplx *a = st_lmat(prob_rows[p], prob_cols[p]);
            for (size_t i = 0; i < (size_t)prob_rows[p] * prob_cols[p]; i++)
                a[i] = st_random(t);
            prob[ti][p] = a;
        }
        lcplx *h = st_lmat(N, N);
        for (int j = 0; j < N; j++)
            for (int i = j; i < N; i++) {
                const lcplx v = i == j ? st_uniform() : st_random(t);
                h[(size_t)j * N + i] = v;
                h[(size_t)i * N + j] = conjl(v);
            }
        prob[ti][P_HER] = h;
        for (int p = 0; p < NPROB; p++)
            st_round_to(t, prob[ti][p], (size_t)prob_rows[p] * prob_cols[p]);
        const char *tn = st_np_name(t);
        char name[64];
        snprintf(name, sizeof(name), "lu%d_0", ti);
        st_write_raw(dir, name, "a", t, (size_t)N * N, prob[ti][P_GEN]);
        fprintf(man, "lu %s %s %d %d\n", name, tn, N, N);
        snprintf(name, sizeof(name), "lu%d_1", ti);
        st_write_raw(dir, name, "a", t, (size_t)QM * QN, prob[ti][P_TALL]);
        fprintf(man, "lu %s %s %d %d\n", name, tn, QM, QN);
        snprintf(name, sizeof(name), "qr%d", ti);
        st_write_raw(dir, name, "a", t, (size_t)QM * QN, prob[ti][P_TALL]);
        fprintf(man, "qr %s %s %d %d\n", name, tn, QM, QN);
        snprintf(name, sizeof(name), "svd%d", ti);
        st_write_raw(dir, name, "a", t, (size_t)QM * QN, prob[ti][P_TALL]);
        fprintf(man, "svd %s %s %d %d\n", name, tn, QM, QN);
        snprintf(name, sizeof(name), "eig%d", ti);
        st_write_raw(dir, name, "a", t, (size_t)N * N, prob[ti][P_HER]);
        fprintf(man, "eigh %s %s %d\n", name, tn, N);
    }
    fclose(man);
    const char *const argv[] = {PYTHON3, SOLVER_REF_PY, dir, NULL};
    const int rc = th_run(argv, NULL);
    int bad = rc != 0;
    for (int ti = 0; ti < 4 && !bad; ti++) {
        char name[64];
        snprintf(name, sizeof(name), "lu%d_0", ti);
        bad |= !(ref_piv[ti][0] = st_read_out(dir, name, N, 1));
        snprintf(name, sizeof(name), "lu%d_1", ti);
        bad |= !(ref_piv[ti][1] = st_read_out(dir, name, QN, 1));
        snprintf(name, sizeof(name), "qr%d", ti);
        bad |= !(ref_r[ti] = st_read_out(dir, name,
                                         (size_t)QN * QN * (is_complex(all_types[ti]) ? 2 : 1), 1));
        snprintf(name, sizeof(name), "svd%d", ti);
        bad |= !(ref_sv[ti] = st_read_out(dir, name, QN, 1));
        snprintf(name, sizeof(name), "eig%d", ti);
        bad |= !(ref_eig[ti] = st_read_out(dir, name, N, 1));
    }
    th_remove_dir(dir);
    if (bad)
        fprintf(stderr, "solver_ref.py failed (exit %d)\n", rc);
    return bad ? -1 : 0;
}

/* ---- helpers ---------------------------------------------------------------------- */

typedef struct tri_ctx {
    int lower;
} tri_ctx;

static int in_triangle(int i, int j, void *ctx) {
    return ((tri_ctx *)ctx)->lower ? i >= j : i <= j;
}

static trnsolverDnParams_t make_params(void) {
    trnsolverDnParams_t p = NULL;
    assert_int_equal(trnsolverDnCreateParams(&p), TRNSOLVER_STATUS_SUCCESS);
    assert_non_null(p);
    return p;
}

/* The real vector of `count` values a real-typed st_mat holds after a call. */
static long double *read_real(const st_mat *w, int count) {
    void *h = st_download(w, NULL, NULL);
    long double *v = calloc((size_t)count, sizeof(long double));
    assert_non_null(v);
    for (int i = 0; i < count; i++)
        v[i] = creall(st_got(w, h, i, 0));
    free(h);
    return v;
}

static void expect_sizes(size_t dev, size_t host, size_t want_dev) {
    assert_int_equal(dev, want_dev);
    assert_int_equal(host, 0);
}

/* ---- params ----------------------------------------------------------------------- */

static void test_params(void **state) {
    (void)state;
    trnsolverDnParams_t p = make_params();
    assert_int_equal(trnsolverDnSetAdvOptions(p, TRNSOLVERDN_GETRF, TRNSOLVER_ALG_1),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnSetAdvOptions(p, TRNSOLVERDN_GETRF, TRNSOLVER_ALG_0),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnSetAdvOptions(p, TRNSOLVERDN_GETRF, TRNSOLVER_ALG_2),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("algo");
    assert_int_equal(trnsolverDnSetAdvOptions(p, TRNSOLVERDN_POTRF, TRNSOLVER_ALG_1),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverDnSetAdvOptions(p, (trnsolverDnFunction_t)7, TRNSOLVER_ALG_0),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("function");
    assert_int_equal(trnsolverDnSetAdvOptions(NULL, TRNSOLVERDN_GETRF, TRNSOLVER_ALG_0),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverDnCreateParams(NULL), TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverDnDestroyParams(p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDestroyParams(NULL), TRNSOLVER_STATUS_SUCCESS);
}

/* ---- Cholesky --------------------------------------------------------------------- */

static void check_potrf(ty t, int lower) {
    const int n = N;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    trnsolverDnParams_t par = make_params();
    const trnblasFillMode_t uplo = lower ? LOWER : UPPER;
    const trnsciDataType_t dt = dtype(t);
    lcplx *a = st_spd(t, n, 100.0L);
    st_round_to(t, a, (size_t)n * n);
    st_mat A;
    st_alloc(&A, t, n, n, n + 3);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            st_set(&A, i, j, in_triangle(i, j, &(tri_ctx){lower}) ? a[(size_t)j * n + i] : 1e30L);
    st_upload(&A);
    int *info = st_info_alloc(1);
    size_t dev = 99, host = 99;
    assert_int_equal(
        trnsolverDnXpotrf_bufferSize(h, par, uplo, n, dt, st_ptr(&A), A.ld, dt, &dev, &host),
        TRNSOLVER_STATUS_SUCCESS);
    expect_sizes(dev, host, 0);
    /* The lower triangle's factorisation with NULL params: the defaults
     * (cuSOLVER's own samples pass NULL). */
    assert_int_equal(trnsolverDnXpotrf(h, lower ? NULL : par, uplo, n, dt, st_ptr(&A), A.ld, dt,
                                       NULL, dev, NULL, host, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    void *got = st_download(&A, in_triangle, &(tri_ctx){lower});
    /* F lower with A = F F^H. */
    lcplx *f = st_lmat(n, n);
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++)
            f[(size_t)j * n + i] = lower ? st_got(&A, got, i, j) : conjl(st_got(&A, got, j, i));
    long double err = 0, scale = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            lcplx s = 0;
            long double sa = 0;
            for (int l = 0; l < n; l++) {
                s += f[(size_t)l * n + i] * conjl(f[(size_t)l * n + j]);
                sa += cabsl(f[(size_t)l * n + i]) * cabsl(f[(size_t)l * n + j]);
            }
            const lcplx e = a[(size_t)j * n + i] - s;
            err += creall(e * conjl(e));
            scale += sa * sa;
        }
    scale = sqrtl(scale);
    check_ratio(t, "Xpotrf ||A - LL^H||", sqrtl(err), cgam(t, n + 1) * scale);

    /* Xpotrs with three right-hand sides. */
    const int nrhs = 3;
    st_mat B;
    st_alloc(&B, t, n, nrhs, n + 1);
    for (int j = 0; j < nrhs; j++)
        for (int i = 0; i < n; i++)
            st_set(&B, i, j, st_random(t));
    st_upload(&B);
    assert_int_equal(
        trnsolverDnXpotrs(h, par, uplo, n, nrhs, dt, st_ptr(&A), A.ld, dt, st_ptr(&B), B.ld, info),
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
        check_ratio(t, "Xpotrs ||b - Ax||", sqrtl(rn), cgam(t, 3 * n + 1) * scale * sqrtl(xn));
    }
    free(xg);
    free(got);
    free(f);
    free(a);
    st_free(&A);
    st_free(&B);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroyParams(par), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_potrf(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int lower = 0; lower < 2; lower++)
            check_potrf(all_types[ti], lower);
}

/* ---- LU --------------------------------------------------------------------------- */

/* Xgetrf of problem p (P_GEN square, P_TALL), pivoted or not, then (square)
 * Xgetrs for op N, T, C. */
static void check_getrf(ty t, int p, int pivot, trnsolverAlgMode_t alg) {
    const int ti = st_type_index(t), m = prob_rows[p], n = prob_cols[p], k = m < n ? m : n;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    trnsolverDnParams_t par = make_params();
    assert_int_equal(trnsolverDnSetAdvOptions(par, TRNSOLVERDN_GETRF, alg),
                     TRNSOLVER_STATUS_SUCCESS);
    const trnsciDataType_t dt = dtype(t);
    lcplx *a = st_lmat(m, n);
    memcpy(a, prob[ti][p], (size_t)m * n * sizeof(lcplx));
    if (!pivot) /* diagonally dominant: stable without pivoting */
        for (int i = 0; i < k; i++)
            a[(size_t)i * m + i] += 2.0L * n;
    st_round_to(t, a, (size_t)m * n);
    st_mat A;
    st_alloc(&A, t, m, n, m + 2);
    st_fill(&A, a);
    st_upload(&A);
    int *info = st_info_alloc(1);
    size_t dev = 99, host = 99;
    assert_int_equal(
        trnsolverDnXgetrf_bufferSize(h, par, m, n, dt, st_ptr(&A), A.ld, dt, &dev, &host),
        TRNSOLVER_STATUS_SUCCESS);
    expect_sizes(dev, host, (size_t)k * 4);
    void *work = NULL;
    assert_int_equal(trnsciMalloc(&work, dev), trnsciSuccess);
    int64_t *ipiv = NULL;
    if (pivot) {
        /* One element past the pivots must stay as it was. */
        assert_int_equal(trnsciMalloc((void **)&ipiv, (size_t)(k + 1) * 8), trnsciSuccess);
        assert_int_equal(trnsciMemset(ipiv, 0x5a, (size_t)(k + 1) * 8), trnsciSuccess);
    }
    assert_int_equal(trnsolverDnXgetrf(h, par, m, n, dt, st_ptr(&A), A.ld, ipiv, dt,
                                       pivot ? work : NULL, pivot ? dev : 0, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    void *got = st_download(&A, NULL, NULL);
    int64_t piv[N + 1];
    lcplx *pa = st_lmat(m, n);
    memcpy(pa, a, (size_t)m * n * sizeof(lcplx));
    if (pivot) {
        assert_int_equal(trnsciMemcpy(piv, ipiv, (size_t)(k + 1) * 8, trnsciMemcpyDeviceToHost),
                         trnsciSuccess);
        int64_t pad;
        memset(&pad, 0x5a, sizeof(pad));
        assert_true(piv[k] == pad);
        const double *want = ref_piv[ti][p == P_GEN ? 0 : 1];
        for (int i = 0; i < k; i++) {
            if (piv[i] != (int64_t)want[i])
                fail_msg("%s Xgetrf %dx%d: ipiv[%d] = %lld, LAPACK's %g", ty_name[t], m, n, i,
                         (long long)piv[i], want[i]);
            assert_true(piv[i] >= i + 1 && piv[i] <= m);
            for (int j = 0; j < n; j++) {
                const size_t r = (size_t)piv[i] - 1;
                const lcplx tmp = pa[(size_t)j * m + i];
                pa[(size_t)j * m + i] = pa[(size_t)j * m + r];
                pa[(size_t)j * m + r] = tmp;
            }
        }
    }
    long double err = 0, scale = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            lcplx s = 0;
            long double sa = 0;
            for (int l = 0; l <= (i < j ? i : j) && l < k; l++) {
                const lcplx lv = l == i ? 1 : st_got(&A, got, i, l);
                const lcplx uv = st_got(&A, got, l, j);
                s += lv * uv;
                sa += cabsl(lv) * cabsl(uv);
            }
            const lcplx e = pa[(size_t)j * m + i] - s;
            err += creall(e * conjl(e));
            scale += sa * sa;
        }
    scale = sqrtl(scale);
    check_ratio(t, "Xgetrf ||PA - LU||", sqrtl(err), cgam(t, k) * scale);

    if (m == n) {
        for (int op = 0; op < 3; op++) {
            st_mat B;
            st_alloc(&B, t, n, 2, n + 1);
            for (int j = 0; j < 2; j++)
                for (int i = 0; i < n; i++)
                    st_set(&B, i, j, st_random(t));
            st_upload(&B);
            assert_int_equal(trnsolverDnXgetrs(h, par, (trnblasOperation_t)op, n, 2, dt, st_ptr(&A),
                                               A.ld, ipiv, dt, st_ptr(&B), B.ld, info),
                             TRNSOLVER_STATUS_SUCCESS);
            assert_int_equal(st_read_int(info), 0);
            void *xg = st_download(&B, NULL, NULL);
            for (int j = 0; j < 2; j++) {
                long double rn = 0, xn = 0;
                for (int i = 0; i < n; i++) {
                    lcplx s = 0;
                    for (int l = 0; l < n; l++) {
                        const lcplx aij = op == 0   ? a[(size_t)l * n + i]
                                          : op == 1 ? a[(size_t)i * n + l]
                                                    : conjl(a[(size_t)i * n + l]);
                        s += aij * st_got(&B, xg, l, j);
                    }
                    const lcplx r = st_at(&B, i, j) - s;
                    rn += creall(r * conjl(r));
                    xn += creall(st_got(&B, xg, i, j) * conjl(st_got(&B, xg, i, j)));
                }
                check_ratio(t, "Xgetrs ||b - op(A)x||", sqrtl(rn),
                            cgam(t, 3 * n) * scale * sqrtl(xn));
            }
            free(xg);
            st_free(&B);
        }
    }
    free(got);
    free(pa);
    free(a);
    st_free(&A);
    assert_int_equal(trnsciFree(work), trnsciSuccess);
    if (ipiv)
        assert_int_equal(trnsciFree(ipiv), trnsciSuccess);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroyParams(par), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_getrf(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++) {
        const ty t = all_types[ti];
        check_getrf(t, P_GEN, 1, TRNSOLVER_ALG_0);
        check_getrf(t, P_GEN, 1, TRNSOLVER_ALG_1);
        check_getrf(t, P_TALL, 1, TRNSOLVER_ALG_0);
        check_getrf(t, P_GEN, 0, TRNSOLVER_ALG_0);
    }
}

/* ---- QR --------------------------------------------------------------------------- */

static void check_geqrf(ty t) {
    const int ti = st_type_index(t), m = QM, n = QN, k = QN;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    trnsolverDnParams_t par = make_params();
    const trnsciDataType_t dt = dtype(t);
    const lcplx *a = prob[ti][P_TALL];
    st_mat A, T;
    st_alloc(&A, t, m, n, m + 1);
    st_fill(&A, a);
    st_upload(&A);
    st_alloc(&T, t, k, 1, k);
    st_upload(&T);
    int *info = st_info_alloc(1);
    size_t dev = 99, host = 99;
    assert_int_equal(trnsolverDnXgeqrf_bufferSize(h, par, m, n, dt, st_ptr(&A), A.ld, dt,
                                                  st_ptr(&T), dt, &dev, &host),
                     TRNSOLVER_STATUS_SUCCESS);
    expect_sizes(dev, host, 0);
    assert_int_equal(trnsolverDnXgeqrf(h, par, m, n, dt, st_ptr(&A), A.ld, dt, st_ptr(&T), dt, NULL,
                                       0, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    void *got = st_download(&A, NULL, NULL);
    void *tg = st_download(&T, NULL, NULL);
    /* Q = H_1 ... H_k applied to the first n columns of I, from the last
     * reflector to the first: H_i = I - tau_i v v^H, v = (0, .., 1, A(i+1:m, i)). */
    lcplx *q = st_lmat(m, n), *v = st_lmat(m, 1);
    for (int i = 0; i < n; i++)
        q[(size_t)i * m + i] = 1;
    for (int r = k - 1; r >= 0; r--) {
        const lcplx tau = st_got(&T, tg, r, 0);
        for (int i = 0; i < m; i++)
            v[i] = i < r ? 0 : i == r ? 1 : st_got(&A, got, i, r);
        for (int j = 0; j < n; j++) {
            lcplx s = 0;
            for (int i = r; i < m; i++)
                s += conjl(v[i]) * q[(size_t)j * m + i];
            for (int i = r; i < m; i++)
                q[(size_t)j * m + i] -= tau * v[i] * s;
        }
    }
    lcplx *rr = st_lmat(n, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= j; i++)
            rr[(size_t)j * n + i] = st_got(&A, got, i, j);
    lcplx *qr = st_lmat(m, n);
    st_lmul(m, n, n, q, 0, rr, qr);
    for (size_t i = 0; i < (size_t)m * n; i++)
        qr[i] = a[i] - qr[i];
    const long double anorm = st_lfro(m, n, a), gt = cgam(t, 4.0L * m * n);
    check_ratio(t, "Xgeqrf ||A - QR||", st_lfro(m, n, qr), gt * anorm);
    lcplx *g = st_lmat(n, n);
    st_lmul(n, n, m, q, 1, q, g);
    for (int i = 0; i < n; i++)
        g[(size_t)i * n + i] -= 1;
    check_ratio(t, "Xgeqrf ||Q^H Q - I||", st_lfro(n, n, g), gt * sqrtl(n));
    /* R against scipy's. */
    long double dr = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= j; i++) {
            const size_t e = (size_t)j * n + i;
            const lcplx want =
                is_complex(t) ? ref_r[ti][2 * e] + I * ref_r[ti][2 * e + 1] : (lcplx)ref_r[ti][e];
            const lcplx d = rr[e] - want;
            dr += creall(d * conjl(d));
        }
    const long double kappa = ref_sv[ti][0] / ref_sv[ti][k - 1];
    check_ratio(t, "Xgeqrf ||R - R_scipy||", sqrtl(dr), 4.0L * kappa * gt * anorm);
    free(g);
    free(qr);
    free(rr);
    free(q);
    free(v);
    free(got);
    free(tg);
    st_free(&A);
    st_free(&T);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroyParams(par), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_geqrf(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        check_geqrf(all_types[ti]);
}

/* ---- eigenproblem ----------------------------------------------------------------- */

static void check_values(ty t, const char *what, int count, int n, const long double *w,
                         const double *ref, long double scale) {
    for (int i = 0; i < count; i++)
        check_ratio(t, what, fabsl(w[i] - ref[i]), THRESH * n * st_u(t) * scale + 1e-13L * scale);
}

static void check_syevd(ty t, int lower, int vectors) {
    const int ti = st_type_index(t), n = N;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    trnsolverDnParams_t par = make_params();
    const trnsciDataType_t dt = dtype(t);
    const lcplx *a = prob[ti][P_HER];
    st_mat A, W;
    st_alloc(&A, t, n, n, n + 2);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            st_set(&A, i, j, in_triangle(i, j, &(tri_ctx){lower}) ? a[(size_t)j * n + i] : 7.0L);
    st_upload(&A);
    st_alloc(&W, real_ty(t), n, 1, n);
    st_upload(&W);
    int *info = st_info_alloc(1);
    const trnsolverEigMode_t jobz =
        vectors ? TRNSOLVER_EIG_MODE_VECTOR : TRNSOLVER_EIG_MODE_NOVECTOR;
    const trnblasFillMode_t uplo = lower ? LOWER : UPPER;
    size_t dev = 99, host = 99;
    assert_int_equal(trnsolverDnXsyevd_bufferSize(h, par, jobz, uplo, n, dt, st_ptr(&A), A.ld,
                                                  rtype(t), st_ptr(&W), dt, &dev, &host),
                     TRNSOLVER_STATUS_SUCCESS);
    expect_sizes(dev, host, 0);
    assert_int_equal(trnsolverDnXsyevd(h, par, jobz, uplo, n, dt, st_ptr(&A), A.ld, rtype(t),
                                       st_ptr(&W), dt, NULL, 0, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    long double *w = read_real(&W, n);
    const long double anorm = st_lfro(n, n, a);
    check_values(t, "Xsyevd |w - w_scipy|", n, n, w, ref_eig[ti], anorm);
    if (vectors) {
        void *got = st_download(&A, NULL, NULL);
        lcplx *v = st_take_got(&A, got);
        lcplx *av = st_lmat(n, n);
        st_lmul(n, n, n, a, 0, v, av);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                av[(size_t)j * n + i] -= v[(size_t)j * n + i] * w[j];
        check_ratio(t, "Xsyevd ||AV - VW||/(n u ||A||)", st_lfro(n, n, av) / (n * anorm * st_u(t)),
                    THRESH);
        lcplx *g = st_lmat(n, n);
        st_lmul(n, n, n, v, 1, v, g);
        for (int i = 0; i < n; i++)
            g[(size_t)i * n + i] -= 1;
        check_ratio(t, "Xsyevd ||V^H V - I||/(n u)", st_lfro(n, n, g) / (n * st_u(t)), THRESH);
        free(g);
        free(av);
        free(v);
        free(got);
    }
    free(w);
    st_free(&A);
    st_free(&W);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroyParams(par), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_syevd(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++) {
        check_syevd(all_types[ti], 1, 1);
        check_syevd(all_types[ti], 0, 1);
        check_syevd(all_types[ti], 1, 0);
    }
}

/* XsyevBatched on three problems in one allocation: H, 2 H and -H (the
 * scalings are exact, so their references are 2 w and -reverse(w)). */
static void check_batched(ty t, int lower) {
    const int ti = st_type_index(t), n = N, ld = N + 1, batch = 3;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    trnsolverDnParams_t par = make_params();
    const trnsciDataType_t dt = dtype(t);
    const lcplx *a = prob[ti][P_HER];
    static const long double scale[3] = {1.0L, 2.0L, -1.0L};
    st_mat A, W;
    st_alloc(&A, t, ld, n * batch, ld); /* matrix b: columns b n .. b n + n - 1 */
    for (int b = 0; b < batch; b++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                st_set(&A, i, b * n + j,
                       in_triangle(i, j, &(tri_ctx){lower}) ? scale[b] * a[(size_t)j * n + i]
                                                            : 5.0L);
    st_upload(&A);
    st_alloc(&W, real_ty(t), n * batch, 1, n * batch);
    st_upload(&W);
    int *info = st_info_alloc(batch);
    const trnblasFillMode_t uplo = lower ? LOWER : UPPER;
    size_t dev = 99, host = 99;
    assert_int_equal(trnsolverDnXsyevBatched_bufferSize(h, par, TRNSOLVER_EIG_MODE_VECTOR, uplo, n,
                                                        dt, st_ptr(&A), ld, rtype(t), st_ptr(&W),
                                                        dt, &dev, &host, batch),
                     TRNSOLVER_STATUS_SUCCESS);
    expect_sizes(dev, host, 0);
    assert_int_equal(trnsolverDnXsyevBatched(h, par, TRNSOLVER_EIG_MODE_VECTOR, uplo, n, dt,
                                             st_ptr(&A), ld, rtype(t), st_ptr(&W), dt, NULL, 0,
                                             NULL, 0, info, batch),
                     TRNSOLVER_STATUS_SUCCESS);
    int inf[3];
    assert_int_equal(trnsciMemcpy(inf, info, sizeof(inf), trnsciMemcpyDeviceToHost), trnsciSuccess);
    long double *w = read_real(&W, n * batch);
    void *got = st_download(&A, NULL, NULL);
    const long double anorm = st_lfro(n, n, a);
    double ref[N];
    for (int b = 0; b < batch; b++) {
        assert_int_equal(inf[b], 0);
        for (int i = 0; i < n; i++)
            ref[i] = scale[b] > 0 ? scale[b] * ref_eig[ti][i] : -ref_eig[ti][n - 1 - i];
        const long double sa = fabsl(scale[b]) * anorm;
        check_values(t, "XsyevBatched |w - w_scipy|", n, n, w + (size_t)b * n, ref, sa);
        lcplx *v = st_lmat(n, n), *av = st_lmat(n, n), *g = st_lmat(n, n);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                v[(size_t)j * n + i] = st_got(&A, got, i, b * n + j);
        st_lmul(n, n, n, a, 0, v, av);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                av[(size_t)j * n + i] =
                    scale[b] * av[(size_t)j * n + i] - v[(size_t)j * n + i] * w[(size_t)b * n + j];
        check_ratio(t, "XsyevBatched ||AV - VW||/(n u ||A||)",
                    st_lfro(n, n, av) / (n * sa * st_u(t)), THRESH);
        st_lmul(n, n, n, v, 1, v, g);
        for (int i = 0; i < n; i++)
            g[(size_t)i * n + i] -= 1;
        check_ratio(t, "XsyevBatched ||V^H V - I||/(n u)", st_lfro(n, n, g) / (n * st_u(t)),
                    THRESH);
        free(v);
        free(av);
        free(g);
    }
    free(got);
    free(w);
    /* A batch that runs past its allocation is refused whole. */
    st_mat B;
    st_alloc(&B, t, n, n, n);
    st_upload(&B);
    assert_int_equal(trnsolverDnXsyevBatched(h, par, TRNSOLVER_EIG_MODE_VECTOR, uplo, n, dt,
                                             st_ptr(&B), n, rtype(t), st_ptr(&W), dt, NULL, 0, NULL,
                                             0, info, 2),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("A");
    st_untouched(&B);
    st_free(&B);
    st_free(&A);
    st_free(&W);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroyParams(par), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_syev_batched(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++) {
        check_batched(all_types[ti], 1);
        check_batched(all_types[ti], 0);
    }
}

/* Xsyevdx: which columns of A and elements of W may be written. */
typedef struct sel_ctx {
    int64_t meig;
} sel_ctx;

static int first_cols(int i, int j, void *ctx) {
    (void)i;
    return j < ((sel_ctx *)ctx)->meig;
}

static int first_rows(int i, int j, void *ctx) {
    (void)j;
    return i < ((sel_ctx *)ctx)->meig;
}

/* Xsyevdx on H: RANGE_ALL, RANGE_I (the 3rd to the 10th) and RANGE_V with
 * vl, vu halfway between reference eigenvalues 5|6 and 16|17 (gaps far
 * wider than the error bound), so the selection is known exactly. */
static void check_syevdx(ty t, trnsolverEigRange_t range, int vectors) {
    const int ti = st_type_index(t), n = N, lower = 1;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    trnsolverDnParams_t par = make_params();
    const trnsciDataType_t dt = dtype(t);
    const lcplx *a = prob[ti][P_HER];
    const double *ref = ref_eig[ti];
    st_mat A, W;
    st_alloc(&A, t, n, n, n + 2);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            st_set(&A, i, j, in_triangle(i, j, &(tri_ctx){lower}) ? a[(size_t)j * n + i] : 3.0L);
    st_upload(&A);
    st_alloc(&W, real_ty(t), n, 1, n);
    st_upload(&W);
    int *info = st_info_alloc(1);
    const trnsolverEigMode_t jobz =
        vectors ? TRNSOLVER_EIG_MODE_VECTOR : TRNSOLVER_EIG_MODE_NOVECTOR;
    int64_t il = 1, iu = n, first = 0, want = n;
    double vl = 0, vu = 0;
    float vlf = 0, vuf = 0;
    if (range == TRNSOLVER_EIG_RANGE_I) {
        il = 3;
        iu = 10;
        first = 2;
        want = 8;
    } else if (range == TRNSOLVER_EIG_RANGE_V) {
        vl = (ref[4] + ref[5]) / 2;
        vu = (ref[15] + ref[16]) / 2;
        vlf = (float)vl;
        vuf = (float)vu;
        first = 5;
        want = 11;
    }
    const int single = t == TY_S || t == TY_C;
    void *pvl = single ? (void *)&vlf : (void *)&vl, *pvu = single ? (void *)&vuf : (void *)&vu;
    int64_t meig = -1;
    size_t dev = 99, host = 99;
    assert_int_equal(trnsolverDnXsyevdx_bufferSize(h, par, jobz, range, LOWER, n, dt, st_ptr(&A),
                                                   A.ld, pvl, pvu, il, iu, &meig, rtype(t),
                                                   st_ptr(&W), dt, &dev, &host),
                     TRNSOLVER_STATUS_SUCCESS);
    expect_sizes(dev, host,
                 range == TRNSOLVER_EIG_RANGE_ALL
                     ? 0
                     : (size_t)n * n * esize(t) + (size_t)n * esize(real_ty(t)));
    void *work = NULL;
    if (dev)
        assert_int_equal(trnsciMalloc(&work, dev), trnsciSuccess);
    assert_int_equal(trnsolverDnXsyevdx(h, par, jobz, range, LOWER, n, dt, st_ptr(&A), A.ld, pvl,
                                        pvu, il, iu, &meig, rtype(t), st_ptr(&W), dt, work, dev,
                                        NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(meig, want);
    assert_int_equal(st_read_int(info), 0);
    sel_ctx sel = {meig};
    void *wg = st_download(&W, first_rows, &sel);
    long double *w = calloc((size_t)n, sizeof(long double));
    assert_non_null(w);
    for (int i = 0; i < meig; i++)
        w[i] = creall(st_got(&W, wg, i, 0));
    const long double anorm = st_lfro(n, n, a);
    check_values(t, "Xsyevdx |w - w_scipy|", (int)meig, n, w, ref + first, anorm);
    if (vectors) {
        void *got = range == TRNSOLVER_EIG_RANGE_ALL ? st_download(&A, NULL, NULL)
                                                     : st_download(&A, first_cols, &sel);
        const int k = (int)meig;
        lcplx *v = st_lmat(n, k), *av = st_lmat(n, k), *g = st_lmat(k, k);
        for (int j = 0; j < k; j++)
            for (int i = 0; i < n; i++)
                v[(size_t)j * n + i] = st_got(&A, got, i, j);
        st_lmul(n, k, n, a, 0, v, av);
        for (int j = 0; j < k; j++)
            for (int i = 0; i < n; i++)
                av[(size_t)j * n + i] -= v[(size_t)j * n + i] * w[j];
        check_ratio(t, "Xsyevdx ||AV - VW||/(n u ||A||)", st_lfro(n, k, av) / (n * anorm * st_u(t)),
                    THRESH);
        st_lmul(k, k, n, v, 1, v, g);
        for (int i = 0; i < k; i++)
            g[(size_t)i * k + i] -= 1;
        check_ratio(t, "Xsyevdx ||V^H V - I||/(n u)", st_lfro(k, k, g) / (n * st_u(t)), THRESH);
        free(v);
        free(av);
        free(g);
        free(got);
    } else if (range != TRNSOLVER_EIG_RANGE_ALL) {
        st_untouched(&A); /* the copy in the workspace was used */
    }
    free(w);
    free(wg);
    if (work)
        assert_int_equal(trnsciFree(work), trnsciSuccess);
    st_free(&A);
    st_free(&W);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroyParams(par), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_syevdx(void **state) {
    (void)state;
    static const trnsolverEigRange_t ranges[] = {TRNSOLVER_EIG_RANGE_ALL, TRNSOLVER_EIG_RANGE_I,
                                                 TRNSOLVER_EIG_RANGE_V};
    for (int ti = 0; ti < 4; ti++)
        for (int r = 0; r < 3; r++)
            for (int vec = 0; vec < 2; vec++)
                check_syevdx(all_types[ti], ranges[r], vec);
}

/* ---- SVD -------------------------------------------------------------------------- */

static void check_gesvd(ty t, char job) {
    const int ti = st_type_index(t), m = QM, n = QN;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    trnsolverDnParams_t par = make_params();
    const trnsciDataType_t dt = dtype(t);
    const lcplx *a = prob[ti][P_TALL];
    const int vec = job != 'N';
    st_mat A, S, U, VT;
    st_alloc(&A, t, m, n, m + 1);
    st_fill(&A, a);
    st_upload(&A);
    st_alloc(&S, real_ty(t), n, 1, n);
    st_upload(&S);
    st_alloc(&U, t, m, m, m + 2);
    st_upload(&U);
    st_alloc(&VT, t, n, n, n + 1);
    st_upload(&VT);
    int *info = st_info_alloc(1);
    size_t dev = 99, host = 99;
    assert_int_equal(trnsolverDnXgesvd_bufferSize(h, par, job, job, m, n, dt, st_ptr(&A), A.ld,
                                                  rtype(t), st_ptr(&S), dt, st_ptr(&U), U.ld, dt,
                                                  st_ptr(&VT), VT.ld, dt, &dev, &host),
                     TRNSOLVER_STATUS_SUCCESS);
    expect_sizes(dev, host, 0);
    assert_int_equal(trnsolverDnXgesvd(h, par, job, job, m, n, dt, st_ptr(&A), A.ld, rtype(t),
                                       st_ptr(&S), dt, st_ptr(&U), U.ld, dt, st_ptr(&VT), VT.ld, dt,
                                       NULL, 0, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    long double *s = read_real(&S, n);
    const long double anorm = st_lfro(m, n, a);
    check_values(t, "Xgesvd |s - s_numpy|", n, n, s, ref_sv[ti], anorm);
    if (vec) {
        void *ug = st_download(&U, NULL, NULL), *vg = st_download(&VT, NULL, NULL);
        lcplx *u = st_take_got(&U, ug), *vt = st_take_got(&VT, vg);
        long double e = 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
                lcplx x = a[(size_t)j * m + i];
                for (int l = 0; l < n; l++)
                    x -= u[(size_t)l * m + i] * s[l] * vt[(size_t)j * n + l];
                e += creall(x * conjl(x));
            }
        check_ratio(t, "Xgesvd ||A - USV^H||/(m u ||A||)", sqrtl(e) / (m * anorm * st_u(t)),
                    THRESH);
        lcplx *g = st_lmat(m, m);
        st_lmul(m, m, m, u, 1, u, g);
        for (int i = 0; i < m; i++)
            g[(size_t)i * m + i] -= 1;
        check_ratio(t, "Xgesvd ||U^H U - I||/(m u)", st_lfro(m, m, g) / (m * st_u(t)), THRESH);
        free(g);
        /* VT VT^H = I: the rows of VT are orthonormal. */
        lcplx *v = st_lmat(n, n);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                v[(size_t)j * n + i] = conjl(vt[(size_t)i * n + j]);
        g = st_lmat(n, n);
        st_lmul(n, n, n, v, 1, v, g);
        for (int i = 0; i < n; i++)
            g[(size_t)i * n + i] -= 1;
        check_ratio(t, "Xgesvd ||V^H V - I||/(n u)", st_lfro(n, n, g) / (n * st_u(t)), THRESH);
        free(g);
        free(v);
        free(u);
        free(vt);
        free(ug);
        free(vg);
    } else {
        st_untouched(&U);
        st_untouched(&VT);
    }
    free(s);
    st_free(&A);
    st_free(&S);
    st_free(&U);
    st_free(&VT);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroyParams(par), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_gesvd(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++) {
        check_gesvd(all_types[ti], 'A');
        check_gesvd(all_types[ti], 'N');
    }
}

/* Xgesvdp on the tall problem and on its conjugate transpose (the same
 * singular values), full and economy, with and without vectors. */
static void check_gesvdp(ty t, int wide, int econ, int vectors) {
    const int ti = st_type_index(t), m = wide ? QN : QM, n = wide ? QM : QN, k = QN;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    trnsolverDnParams_t par = make_params();
    const trnsciDataType_t dt = dtype(t);
    lcplx *a = st_lmat(m, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            a[(size_t)j * m + i] = wide ? conjl(prob[ti][P_TALL][(size_t)i * QM + j])
                                        : prob[ti][P_TALL][(size_t)j * QM + i];
    const int uc = econ ? k : m, vc = econ ? k : n;
    st_mat A, S, U, V;
    st_alloc(&A, t, m, n, m + 1);
    st_fill(&A, a);
    st_upload(&A);
    st_alloc(&S, real_ty(t), k, 1, k);
    st_upload(&S);
    st_alloc(&U, t, m, uc, m + 2);
    st_upload(&U);
    st_alloc(&V, t, n, vc, n + 1);
    st_upload(&V);
    int *info = st_info_alloc(1);
    const trnsolverEigMode_t jobz =
        vectors ? TRNSOLVER_EIG_MODE_VECTOR : TRNSOLVER_EIG_MODE_NOVECTOR;
    size_t dev = 99, host = 99;
    assert_int_equal(trnsolverDnXgesvdp_bufferSize(h, par, jobz, econ, m, n, dt, st_ptr(&A), A.ld,
                                                   rtype(t), st_ptr(&S), dt, st_ptr(&U), U.ld, dt,
                                                   st_ptr(&V), V.ld, dt, &dev, &host),
                     TRNSOLVER_STATUS_SUCCESS);
    expect_sizes(dev, host, 0);
    double err_sigma = -1;
    assert_int_equal(trnsolverDnXgesvdp(h, par, jobz, econ, m, n, dt, st_ptr(&A), A.ld, rtype(t),
                                        st_ptr(&S), dt, st_ptr(&U), U.ld, dt, st_ptr(&V), V.ld, dt,
                                        NULL, 0, NULL, 0, info, &err_sigma),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    const long double anorm = st_lfro(m, n, a);
    /* gesvdj's stopping rule: the off-diagonal norm at most eps sqrt(k + 1)
     * ||A||_F (eps = 2u), doubled for the norm's own rounding. */
    assert_true(err_sigma >= 0);
    check_ratio(t, "Xgesvdp h_err_sigma", err_sigma, 4.0L * st_u(t) * sqrtl(k + 1) * anorm);
    long double *s = read_real(&S, k);
    check_values(t, "Xgesvdp |s - s_numpy|", k, m > n ? m : n, s, ref_sv[ti], anorm);
    if (vectors) {
        void *ug = st_download(&U, NULL, NULL), *vg = st_download(&V, NULL, NULL);
        lcplx *u = st_take_got(&U, ug), *v = st_take_got(&V, vg);
        long double e = 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
                lcplx x = a[(size_t)j * m + i];
                for (int l = 0; l < k; l++)
                    x -= u[(size_t)l * m + i] * s[l] * conjl(v[(size_t)l * n + j]);
                e += creall(x * conjl(x));
            }
        const int mx = m > n ? m : n;
        check_ratio(t, "Xgesvdp ||A - USV^H||/(max(m,n) u ||A||)",
                    sqrtl(e) / (mx * anorm * st_u(t)), THRESH);
        lcplx *g = st_lmat(uc, uc);
        st_lmul(uc, uc, m, u, 1, u, g);
        for (int i = 0; i < uc; i++)
            g[(size_t)i * uc + i] -= 1;
        check_ratio(t, "Xgesvdp ||U^H U - I||/(m u)", st_lfro(uc, uc, g) / (m * st_u(t)), THRESH);
        free(g);
        g = st_lmat(vc, vc);
        st_lmul(vc, vc, n, v, 1, v, g);
        for (int i = 0; i < vc; i++)
            g[(size_t)i * vc + i] -= 1;
        check_ratio(t, "Xgesvdp ||V^H V - I||/(n u)", st_lfro(vc, vc, g) / (n * st_u(t)), THRESH);
        free(g);
        free(u);
        free(v);
        free(ug);
        free(vg);
    }
    free(s);
    free(a);
    st_free(&A);
    st_free(&S);
    st_free(&U);
    st_free(&V);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroyParams(par), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_gesvdp(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int wide = 0; wide < 2; wide++)
            for (int econ = 0; econ < 2; econ++)
                check_gesvdp(all_types[ti], wide, econ, 1);
    for (int ti = 0; ti < 4; ti++)
        check_gesvdp(all_types[ti], 1, 1, 0);
}

/* Xgesvdr, k = 5 of the tall problem (and of its conjugate transpose): the
 * exact leading triplets, so the values meet the reference and
 * A V_k = U_k S_k holds to THRESH max(m,n) u ||A||_F. */
static void check_gesvdr(ty t, int wide, char job) {
    const int ti = st_type_index(t), m = wide ? QN : QM, n = wide ? QM : QN, k = 5;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    trnsolverDnParams_t par = make_params();
    const trnsciDataType_t dt = dtype(t);
    lcplx *a = st_lmat(m, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            a[(size_t)j * m + i] = wide ? conjl(prob[ti][P_TALL][(size_t)i * QM + j])
                                        : prob[ti][P_TALL][(size_t)j * QM + i];
    st_mat A, S, U, V;
    st_alloc(&A, t, m, n, m + 1);
    st_fill(&A, a);
    st_upload(&A);
    st_alloc(&S, real_ty(t), k, 1, k);
    st_upload(&S);
    st_alloc(&U, t, m, k, m + 2);
    st_upload(&U);
    st_alloc(&V, t, n, k, n + 1);
    st_upload(&V);
    int *info = st_info_alloc(1);
    size_t dev = 0, host = 99;
    assert_int_equal(trnsolverDnXgesvdr_bufferSize(h, par, job, job, m, n, k, 3, 2, dt, st_ptr(&A),
                                                   A.ld, rtype(t), st_ptr(&S), dt, st_ptr(&U), U.ld,
                                                   dt, st_ptr(&V), V.ld, dt, &dev, &host),
                     TRNSOLVER_STATUS_SUCCESS);
    expect_sizes(dev, host, (size_t)(m + n) * QN * esize(t) + (size_t)QN * esize(real_ty(t)));
    void *work = NULL;
    assert_int_equal(trnsciMalloc(&work, dev), trnsciSuccess);
    assert_int_equal(trnsolverDnXgesvdr(h, par, job, job, m, n, k, 3, 2, dt, st_ptr(&A), A.ld,
                                        rtype(t), st_ptr(&S), dt, st_ptr(&U), U.ld, dt, st_ptr(&V),
                                        V.ld, dt, work, dev, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    const long double anorm = st_lfro(m, n, a);
    const int mx = m > n ? m : n;
    long double *s = read_real(&S, k);
    check_values(t, "Xgesvdr |s - s_numpy|", k, mx, s, ref_sv[ti], anorm);
    if (job == 'S') {
        void *ug = st_download(&U, NULL, NULL), *vg = st_download(&V, NULL, NULL);
        lcplx *u = st_take_got(&U, ug), *v = st_take_got(&V, vg);
        lcplx *av = st_lmat(m, k);
        st_lmul(m, k, n, a, 0, v, av);
        for (int j = 0; j < k; j++)
            for (int i = 0; i < m; i++)
                av[(size_t)j * m + i] -= u[(size_t)j * m + i] * s[j];
        check_ratio(t, "Xgesvdr ||AV_k - U_k S_k||/(max(m,n) u ||A||)",
                    st_lfro(m, k, av) / (mx * anorm * st_u(t)), THRESH);
        lcplx *g = st_lmat(k, k);
        st_lmul(k, k, m, u, 1, u, g);
        for (int i = 0; i < k; i++)
            g[(size_t)i * k + i] -= 1;
        check_ratio(t, "Xgesvdr ||U_k^H U_k - I||/(m u)", st_lfro(k, k, g) / (m * st_u(t)), THRESH);
        st_lmul(k, k, n, v, 1, v, g);
        for (int i = 0; i < k; i++)
            g[(size_t)i * k + i] -= 1;
        check_ratio(t, "Xgesvdr ||V_k^H V_k - I||/(n u)", st_lfro(k, k, g) / (n * st_u(t)), THRESH);
        free(g);
        free(av);
        free(u);
        free(v);
        free(ug);
        free(vg);
    } else {
        st_untouched(&U);
        st_untouched(&V);
    }
    free(s);
    free(a);
    assert_int_equal(trnsciFree(work), trnsciSuccess);
    st_free(&A);
    st_free(&S);
    st_free(&U);
    st_free(&V);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroyParams(par), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_gesvdr(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++) {
        check_gesvdr(all_types[ti], 0, 'S');
        check_gesvdr(all_types[ti], 1, 'S');
        check_gesvdr(all_types[ti], 0, 'N');
    }
}

/* Xtrtri: T X = I columnwise by substitution, so (Higham Thm 8.5)
 * |T X - I| <= gamma_n |T| |X| and ||T X - I||_F <= gamma_n || |T| |X| ||_F.
 * T: off-diagonals random / n, diagonal 1 + |random| (non-unit) or junk
 * that must be neither read nor written (unit); the other triangle junk. */
static int tri_or_diag(int i, int j, void *ctx) {
    const int *c = ctx; /* lower, unit */
    return (c[0] ? i >= j : i <= j) && !(c[1] && i == j);
}

static void check_trtri(ty t, int lower, int unit) {
    const int n = N;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const trnsciDataType_t dt = dtype(t);
    lcplx *tm = st_lmat(n, n);
    st_mat A;
    st_alloc(&A, t, n, n, n + 3);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            const int in = lower ? i >= j : i <= j;
            lcplx v = i == j ? (unit ? 9.0L : 1.0L + fabsl(st_uniform())) : st_random(t) / n;
            if (!in)
                v = 7.0L;
            st_set(&A, i, j, v);
            if (in)
                tm[(size_t)j * n + i] = i == j && unit ? 1.0L : st_at(&A, i, j);
        }
    st_upload(&A);
    int *info = st_info_alloc(1);
    size_t dev = 0, host = 99;
    assert_int_equal(trnsolverDnXtrtri_bufferSize(h, lower ? LOWER : UPPER,
                                                  unit ? TRNBLAS_DIAG_UNIT : TRNBLAS_DIAG_NON_UNIT,
                                                  n, dt, st_ptr(&A), A.ld, &dev, &host),
                     TRNSOLVER_STATUS_SUCCESS);
    expect_sizes(dev, host, (size_t)n * n * esize(t));
    void *work = NULL;
    assert_int_equal(trnsciMalloc(&work, dev), trnsciSuccess);
    assert_int_equal(trnsolverDnXtrtri(h, lower ? LOWER : UPPER,
                                       unit ? TRNBLAS_DIAG_UNIT : TRNBLAS_DIAG_NON_UNIT, n, dt,
                                       st_ptr(&A), A.ld, work, dev, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    const int ctx[2] = {lower, unit};
    void *got = st_download(&A, tri_or_diag, (void *)ctx);
    lcplx *x = st_lmat(n, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if (lower ? i >= j : i <= j)
                x[(size_t)j * n + i] = i == j && unit ? 1.0L : st_got(&A, got, i, j);
    long double err = 0, scale = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            lcplx e = i == j ? -1.0L : 0.0L;
            long double sa = 0;
            for (int l = 0; l < n; l++) {
                e += tm[(size_t)l * n + i] * x[(size_t)j * n + l];
                sa += cabsl(tm[(size_t)l * n + i]) * cabsl(x[(size_t)j * n + l]);
            }
            err += creall(e * conjl(e));
            scale += sa * sa;
        }
    check_ratio(t, "Xtrtri ||TX - I||", sqrtl(err), cgam(t, n) * sqrtl(scale));
    free(got);
    free(x);
    free(tm);
    /* A zero on the diagonal: info names it and A is left as it was (a unit
     * triangle's diagonal is not read: no info then). */
    st_set(&A, 4, 4, 0.0L);
    st_upload(&A);
    assert_int_equal(trnsolverDnXtrtri(h, lower ? LOWER : UPPER,
                                       unit ? TRNBLAS_DIAG_UNIT : TRNBLAS_DIAG_NON_UNIT, n, dt,
                                       st_ptr(&A), A.ld, work, dev, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), unit ? 0 : 5);
    if (!unit)
        st_untouched(&A);
    assert_int_equal(trnsciFree(work), trnsciSuccess);
    st_free(&A);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_trtri(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int lower = 0; lower < 2; lower++)
            for (int unit = 0; unit < 2; unit++)
                check_trtri(all_types[ti], lower, unit);
}

/* ---- info ------------------------------------------------------------------------- */

static void test_info(void **state) {
    (void)state;
    const int n = 12;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    trnsolverDnParams_t par = make_params();
    for (int ti = 0; ti < 4; ti++) {
        const ty t = all_types[ti];
        const trnsciDataType_t dt = dtype(t);
        int *info = st_info_alloc(1);
        /* The identity with -1 at (5, 5): the leading minor of order 6 is
         * the first that is not positive definite. */
        st_mat A;
        st_alloc(&A, t, n, n, n);
        for (int i = 0; i < n; i++)
            st_set(&A, i, i, i == 5 ? -1.0L : 1.0L);
        st_upload(&A);
        assert_int_equal(
            trnsolverDnXpotrf(h, par, LOWER, n, dt, st_ptr(&A), A.ld, dt, NULL, 0, NULL, 0, info),
            TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(st_read_int(info), 6);
        st_free(&A);
        /* A random matrix with column 3 zero: U(4,4) = 0 exactly. */
        st_alloc(&A, t, n, n, n + 1);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                st_set(&A, i, j, j == 3 ? 0.0L : st_random(t));
        st_upload(&A);
        int64_t *ipiv = NULL;
        void *work = NULL;
        assert_int_equal(trnsciMalloc((void **)&ipiv, (size_t)n * 8), trnsciSuccess);
        assert_int_equal(trnsciMalloc(&work, (size_t)n * 4), trnsciSuccess);
        assert_int_equal(trnsolverDnXgetrf(h, par, n, n, dt, st_ptr(&A), A.ld, ipiv, dt, work,
                                           (size_t)n * 4, NULL, 0, info),
                         TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(st_read_int(info), 4);
        assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
        st_free(&A);
        assert_int_equal(trnsciFree(ipiv), trnsciSuccess);
        assert_int_equal(trnsciFree(work), trnsciSuccess);
        assert_int_equal(trnsciFree(info), trnsciSuccess);
    }
    assert_int_equal(trnsolverDnDestroyParams(par), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* ---- empty problems ----------------------------------------------------------------- */

/* n = 0 (and m = 0): every routine succeeds with info = 0, reports its
 * (zero) workspace, and writes nothing else. */
static void test_empty(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    trnsolverDnParams_t par = make_params();
    const trnsciDataType_t D = TRNSCI_R_64F;
    st_mat A;
    st_alloc(&A, TY_D, 1, 1, 1);
    st_upload(&A);
    void *a = st_ptr(&A);
    int *info = st_info_alloc(1);
    int64_t *ipiv = NULL;
    assert_int_equal(trnsciMalloc((void **)&ipiv, 8), trnsciSuccess);
    size_t dev = 99, host = 99;
    assert_int_equal(trnsolverDnXgetrf_bufferSize(h, par, 0, 0, D, a, 1, D, &dev, &host),
                     TRNSOLVER_STATUS_SUCCESS);
    expect_sizes(dev, host, 0);
#define EMPTY_OK(call)                                                                             \
    do {                                                                                           \
        assert_int_equal(trnsciMemset(info, 0x5a, sizeof(int)), trnsciSuccess);                    \
        assert_int_equal((call), TRNSOLVER_STATUS_SUCCESS);                                        \
        assert_int_equal(st_read_int(info), 0);                                                    \
    } while (0)
    EMPTY_OK(trnsolverDnXpotrf(h, par, LOWER, 0, D, a, 1, D, NULL, 0, NULL, 0, info));
    EMPTY_OK(trnsolverDnXpotrs(h, par, LOWER, 0, 0, D, a, 1, D, a, 1, info));
    EMPTY_OK(trnsolverDnXgetrf(h, par, 0, 0, D, a, 1, ipiv, D, NULL, 0, NULL, 0, info));
    EMPTY_OK(trnsolverDnXgetrs(h, par, TRNBLAS_OP_N, 0, 0, D, a, 1, ipiv, D, a, 1, info));
    EMPTY_OK(trnsolverDnXgeqrf(h, par, 0, 0, D, a, 1, D, a, D, NULL, 0, NULL, 0, info));
    EMPTY_OK(trnsolverDnXsyevd(h, par, TRNSOLVER_EIG_MODE_VECTOR, LOWER, 0, D, a, 1, D, a, D, NULL,
                               0, NULL, 0, info));
    int64_t meig = -1;
    EMPTY_OK(trnsolverDnXsyevdx(h, par, TRNSOLVER_EIG_MODE_VECTOR, TRNSOLVER_EIG_RANGE_I, LOWER, 0,
                                D, a, 1, NULL, NULL, 1, 0, &meig, D, a, D, NULL, 0, NULL, 0, info));
    assert_int_equal(meig, 0);
    EMPTY_OK(
        trnsolverDnXtrtri(h, LOWER, TRNBLAS_DIAG_NON_UNIT, 0, D, a, 1, NULL, 0, NULL, 0, info));
#undef EMPTY_OK
    st_untouched(&A);
    assert_int_equal(trnsciFree(ipiv), trnsciSuccess);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    st_free(&A);
    assert_int_equal(trnsolverDnDestroyParams(par), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* ---- bad input -------------------------------------------------------------------- */

#define EXPECT(call, status, needle)                                                               \
    do {                                                                                           \
        assert_int_equal((call), (status));                                                        \
        st_expect_message(needle);                                                                 \
    } while (0)

static void test_bad_input(void **state) {
    (void)state;
    const int n = 8;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    trnsolverDnParams_t par = make_params();
    const trnsciDataType_t D = TRNSCI_R_64F;
    st_mat A, B, W;
    st_alloc(&A, TY_D, n, n, n);
    for (int i = 0; i < n; i++)
        st_set(&A, i, i, 2.0L);
    st_upload(&A);
    st_alloc(&B, TY_D, n, 1, n);
    st_upload(&B);
    st_alloc(&W, TY_D, n, 1, n);
    st_upload(&W);
    int *info = st_info_alloc(1);
    int64_t *ipiv = NULL;
    void *work = NULL;
    assert_int_equal(trnsciMalloc((void **)&ipiv, (size_t)n * 8), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&work, (size_t)n * 4), trnsciSuccess);
    size_t dev = 0, host = 0;
    void *a = st_ptr(&A);
    const int64_t big = (int64_t)INT_MAX + 1;

    assert_int_equal(trnsolverDnXpotrf(NULL, par, LOWER, n, D, a, n, D, NULL, 0, NULL, 0, info),
                     TRNSOLVER_STATUS_NOT_INITIALIZED);
    EXPECT(trnsolverDnXpotrf(h, par, LOWER, n, TRNSCI_R_16F, a, n, TRNSCI_R_16F, NULL, 0, NULL, 0,
                             info),
           TRNSOLVER_STATUS_NOT_SUPPORTED, "dataTypeA");
    EXPECT(trnsolverDnXpotrf(h, par, LOWER, n, D, a, n, TRNSCI_R_32F, NULL, 0, NULL, 0, info),
           TRNSOLVER_STATUS_NOT_SUPPORTED, "computeType");
    EXPECT(trnsolverDnXpotrf(h, par, LOWER, -1, D, a, n, D, NULL, 0, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "n=-1");
    EXPECT(trnsolverDnXpotrf(h, par, LOWER, big, D, a, n, D, NULL, 0, NULL, 0, info),
           TRNSOLVER_STATUS_NOT_SUPPORTED, "n=2147483648");
    EXPECT(trnsolverDnXpotrf(h, par, LOWER, n, D, a, big, D, NULL, 0, NULL, 0, info),
           TRNSOLVER_STATUS_NOT_SUPPORTED, "lda");
    EXPECT(trnsolverDnXpotrf(h, par, LOWER, n, D, a, n - 1, D, NULL, 0, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "lda");
    EXPECT(trnsolverDnXpotrf(h, par, LOWER, n, D, a, n, D, NULL, 0, NULL, 0, NULL),
           TRNSOLVER_STATUS_INVALID_VALUE, "info");
    EXPECT(trnsolverDnXpotrf_bufferSize(h, par, LOWER, n, D, a, n, D, NULL, &host),
           TRNSOLVER_STATUS_INVALID_VALUE, "workspaceInBytesOnDevice");
    EXPECT(trnsolverDnXpotrs(h, par, LOWER, n, 1, D, a, n, TRNSCI_C_64F, st_ptr(&B), n, info),
           TRNSOLVER_STATUS_NOT_SUPPORTED, "dataTypeB");
    EXPECT(trnsolverDnXpotrs(h, par, LOWER, n, -2, D, a, n, D, st_ptr(&B), n, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "nrhs");
    EXPECT(trnsolverDnXgetrf_bufferSize(h, par, n, big, D, a, n, D, &dev, &host),
           TRNSOLVER_STATUS_NOT_SUPPORTED, "n=");
    EXPECT(
        trnsolverDnXgetrf(h, par, n, n, D, a, n, ipiv, D, work, (size_t)n * 4 - 1, NULL, 0, info),
        TRNSOLVER_STATUS_INVALID_VALUE, "workspaceInBytesOnDevice");
    EXPECT(trnsolverDnXgetrf(h, par, n, n, D, a, n, ipiv, D, NULL, (size_t)n * 4, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "bufferOnDevice");
    /* Refused before ipiv is touched: bad lda, NULL info. */
    assert_int_equal(trnsciMemset(ipiv, 0x33, (size_t)n * 8), trnsciSuccess);
    EXPECT(
        trnsolverDnXgetrf(h, par, n, n, D, a, n - 1, ipiv, D, work, (size_t)n * 4, NULL, 0, info),
        TRNSOLVER_STATUS_INVALID_VALUE, "lda");
    EXPECT(trnsolverDnXgetrf(h, par, n, n, D, a, n, ipiv, D, work, (size_t)n * 4, NULL, 0, NULL),
           TRNSOLVER_STATUS_INVALID_VALUE, "info");
    {
        unsigned char back[8 * 8];
        assert_int_equal(trnsciMemcpy(back, ipiv, sizeof(back), trnsciMemcpyDeviceToHost),
                         trnsciSuccess);
        for (size_t i = 0; i < sizeof(back); i++)
            assert_int_equal(back[i], 0x33);
    }
    /* A host pointer as ipiv: refused before anything is queued. */
    int64_t host_piv[8];
    EXPECT(
        trnsolverDnXgetrf(h, par, n, n, D, a, n, host_piv, D, work, (size_t)n * 4, NULL, 0, info),
        TRNSOLVER_STATUS_INVALID_VALUE, "ipiv");
    EXPECT(trnsolverDnXgetrs(h, par, TRNBLAS_OP_N, n, 1, D, a, n, host_piv, D, st_ptr(&B), n, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "ipiv");
    EXPECT(trnsolverDnXgetrs(h, par, TRNBLAS_OP_N, n, 1, D, a, n, ipiv, D, st_ptr(&B), n - 1, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "ldb");
    EXPECT(trnsolverDnXgeqrf(h, par, n, n, D, a, n, TRNSCI_R_32F, st_ptr(&W), D, NULL, 0, NULL, 0,
                             info),
           TRNSOLVER_STATUS_NOT_SUPPORTED, "dataTypeTau");
    EXPECT(trnsolverDnXsyevd(h, par, TRNSOLVER_EIG_MODE_VECTOR, LOWER, n, D, a, n, TRNSCI_C_64F,
                             st_ptr(&W), D, NULL, 0, NULL, 0, info),
           TRNSOLVER_STATUS_NOT_SUPPORTED, "dataTypeW");
    EXPECT(trnsolverDnXsyevd(h, par, TRNSOLVER_EIG_MODE_VECTOR, LOWER, n, TRNSCI_C_64F, a, n,
                             TRNSCI_R_64F, st_ptr(&W), TRNSCI_C_32F, NULL, 0, NULL, 0, info),
           TRNSOLVER_STATUS_NOT_SUPPORTED, "computeType");
    EXPECT(trnsolverDnXgesvd(h, par, 'N', 'N', n, n, D, a, n, D, st_ptr(&W), TRNSCI_R_32F, NULL, n,
                             D, NULL, n, D, NULL, 0, NULL, 0, info),
           TRNSOLVER_STATUS_NOT_SUPPORTED, "dataTypeU");
    EXPECT(trnsolverDnXgesvd(h, par, 'N', 'N', n - 1, n, D, a, n, D, st_ptr(&W), D, NULL, n, D,
                             NULL, n, D, NULL, 0, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "m");
    EXPECT(trnsolverDnXgesvd_bufferSize(h, par, 'N', 'N', n, n, D, a, n, D, NULL, D, NULL, -1, D,
                                        NULL, n, D, &dev, &host),
           TRNSOLVER_STATUS_INVALID_VALUE, "ldu");

    int64_t meig = 0;
    double lo = 1.0, hi = 0.5;
    EXPECT(trnsolverDnXsyevdx(h, par, TRNSOLVER_EIG_MODE_VECTOR, (trnsolverEigRange_t)7, LOWER, n,
                              D, a, n, &lo, &hi, 1, n, &meig, D, st_ptr(&W), D, NULL, 0, NULL, 0,
                              info),
           TRNSOLVER_STATUS_INVALID_VALUE, "range");
    EXPECT(trnsolverDnXsyevdx(h, par, TRNSOLVER_EIG_MODE_VECTOR, TRNSOLVER_EIG_RANGE_I, LOWER, n, D,
                              a, n, &lo, &hi, 0, n, &meig, D, st_ptr(&W), D, NULL, 0, NULL, 0,
                              info),
           TRNSOLVER_STATUS_INVALID_VALUE, "il");
    EXPECT(trnsolverDnXsyevdx(h, par, TRNSOLVER_EIG_MODE_VECTOR, TRNSOLVER_EIG_RANGE_I, LOWER, n, D,
                              a, n, &lo, &hi, 2, 1, &meig, D, st_ptr(&W), D, NULL, 0, NULL, 0,
                              info),
           TRNSOLVER_STATUS_INVALID_VALUE, "iu");
    EXPECT(trnsolverDnXsyevdx(h, par, TRNSOLVER_EIG_MODE_VECTOR, TRNSOLVER_EIG_RANGE_V, LOWER, n, D,
                              a, n, &lo, &hi, 1, n, &meig, D, st_ptr(&W), D, NULL, 0, NULL, 0,
                              info),
           TRNSOLVER_STATUS_INVALID_VALUE, "vu");
    EXPECT(trnsolverDnXsyevdx(h, par, TRNSOLVER_EIG_MODE_VECTOR, TRNSOLVER_EIG_RANGE_I, LOWER, n, D,
                              a, n, &lo, &hi, 1, n, &meig, D, st_ptr(&W), D, work, 16, NULL, 0,
                              info),
           TRNSOLVER_STATUS_INVALID_VALUE, "workspaceInBytesOnDevice");
    EXPECT(trnsolverDnXsyevdx(h, par, TRNSOLVER_EIG_MODE_VECTOR, TRNSOLVER_EIG_RANGE_ALL, LOWER, n,
                              D, a, n, &lo, &hi, 1, n, NULL, D, st_ptr(&W), D, NULL, 0, NULL, 0,
                              info),
           TRNSOLVER_STATUS_INVALID_VALUE, "h_meig");
    EXPECT(trnsolverDnXsyevBatched(h, par, TRNSOLVER_EIG_MODE_VECTOR, LOWER, n, D, a, n, D,
                                   st_ptr(&W), D, NULL, 0, NULL, 0, info, -1),
           TRNSOLVER_STATUS_INVALID_VALUE, "batchSize");

    double err = 0;
    EXPECT(trnsolverDnXgesvdp(h, par, TRNSOLVER_EIG_MODE_NOVECTOR, 0, n, n, D, a, n, D, st_ptr(&W),
                              D, NULL, n, D, NULL, n, D, NULL, 0, NULL, 0, info, NULL),
           TRNSOLVER_STATUS_INVALID_VALUE, "h_err_sigma");
    EXPECT(trnsolverDnXgesvdp(h, par, TRNSOLVER_EIG_MODE_NOVECTOR, 0, n, n, D, a, n, D, st_ptr(&W),
                              D, NULL, n, TRNSCI_C_64F, NULL, n, D, NULL, 0, NULL, 0, info, &err),
           TRNSOLVER_STATUS_NOT_SUPPORTED, "dataTypeV");
    EXPECT(trnsolverDnXgesvdp(h, par, TRNSOLVER_EIG_MODE_VECTOR, 0, n, n, D, a, n, D, st_ptr(&W), D,
                              NULL, n, D, NULL, n, D, NULL, 0, NULL, 0, info, &err),
           TRNSOLVER_STATUS_INVALID_VALUE, "U");

    EXPECT(trnsolverDnXgesvdr(h, par, 'S', 'S', n, n, n + 1, 0, 1, D, a, n, D, st_ptr(&W), D,
                              st_ptr(&B), n, D, st_ptr(&B), n, D, work, 4, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "k=");
    EXPECT(trnsolverDnXgesvdr(h, par, 'S', 'S', n, n, 2, n, 1, D, a, n, D, st_ptr(&W), D,
                              st_ptr(&B), n, D, st_ptr(&B), n, D, work, 4, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "p=");
    EXPECT(trnsolverDnXgesvdr(h, par, 'A', 'S', n, n, 2, 0, 1, D, a, n, D, st_ptr(&W), D,
                              st_ptr(&B), n, D, st_ptr(&B), n, D, work, 4, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "jobu");
    EXPECT(trnsolverDnXgesvdr(h, par, 'S', 'S', n, n, 2, 0, 1, D, a, n, D, st_ptr(&W), D,
                              st_ptr(&B), n, D, st_ptr(&B), n, D, work, 4, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "workspaceInBytesOnDevice");

    EXPECT(trnsolverDnXtrtri(h, LOWER, (trnblasDiagType_t)5, n, D, a, n, work, (size_t)n * 4, NULL,
                             0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "diag");
    EXPECT(trnsolverDnXtrtri(h, LOWER, TRNBLAS_DIAG_NON_UNIT, n, D, a, n, work, (size_t)n * 4, NULL,
                             0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "workspaceInBytesOnDevice");
    EXPECT(trnsolverDnXtrtri(h, LOWER, TRNBLAS_DIAG_NON_UNIT, n, TRNSCI_R_8I, a, n, work,
                             (size_t)n * 4, NULL, 0, info),
           TRNSOLVER_STATUS_NOT_SUPPORTED, "dataTypeA");

    /* Nothing was queued: A is as uploaded, and the daemon still serves. */
    st_untouched(&A);
    assert_int_equal(trnsolverDnXpotrf(h, par, LOWER, n, D, a, n, D, NULL, 0, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);

    st_free(&A);
    st_free(&B);
    st_free(&W);
    assert_int_equal(trnsciFree(ipiv), trnsciSuccess);
    assert_int_equal(trnsciFree(work), trnsciSuccess);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroyParams(par), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

int main(void) {
    if (make_problems() != 0)
        return 1;
    if (st_start(&daemon_under_test) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_params),    cmocka_unit_test(test_potrf),
        cmocka_unit_test(test_getrf),     cmocka_unit_test(test_geqrf),
        cmocka_unit_test(test_syevd),     cmocka_unit_test(test_syev_batched),
        cmocka_unit_test(test_gesvd),     cmocka_unit_test(test_info),
        cmocka_unit_test(test_bad_input), cmocka_unit_test(test_syevdx),
        cmocka_unit_test(test_gesvdp),    cmocka_unit_test(test_gesvdr),
        cmocka_unit_test(test_trtri),     cmocka_unit_test(test_empty),
    };
    int failed = ST_RUN_BOTH("solver X", tests);
    failed += st_finish("solver_x");
    for (int ti = 0; ti < 4; ti++) {
        for (int p = 0; p < NPROB; p++)
            free(prob[ti][p]);
        free(ref_piv[ti][0]);
        free(ref_piv[ti][1]);
        free(ref_r[ti]);
        free(ref_eig[ti]);
        free(ref_sv[ti]);
    }
    return failed ? 1 : 0;
}
