/*
 * test_solver_sygv.c — trnsolver's selected generalised eigenpairs
 * (sygvdx / hegvdx), the generalised problem by Jacobi (sygvj / hegvj) and
 * the batched rank-r SVD (gesvdaStridedBatched), in S, D, C and Z through a
 * real trnscid, over the local transport and gRPC over TCP.
 *
 * References: scipy.linalg.eigh(a, b, type, subset_by_index /
 * subset_by_value) and numpy.linalg.svd (solver_sygv_ref.py under Debian's
 * python3, in double from the very values the daemon gets). u is the unit
 * roundoff of the type; THRESH = 30 is LAPACK's test threshold (LAWN 41).
 *  - Pencils: A random Hermitian (n = 24), B Hermitian positive definite
 *    with kappa(B) = 10 by construction. Reducing through B's Cholesky
 *    factor is backward stable for the reduced problem and amplifies
 *    errors by up to kappa(B) (Golub–Van Loan §8.7), so every bound below
 *    carries a factor KAPPA_B:
 *      eigenvalues: |w_i - ref_i| <= THRESH n u s kappa(B), s = ||A||_F
 *      (itype 1) or ||A||_F ||B||_F (2, 3) (Weyl's theorem on the reduced
 *      matrix, whose norm s bounds);
 *      each eigenpair: ||A x - w B x|| <= THRESH kappa(B) n u (||A||_F +
 *      |w| ||B||_F) ||x|| (itype 1); ||A B x - w x|| and ||B A x - w x||
 *      <= THRESH kappa(B) n u (||A||_F ||B||_F + |w|) ||x|| (2, 3);
 *      B-orthonormality (itypes 1, 2): ||X^H B X - I||_F <= THRESH kappa(B)
 *      n u kappa(B) (the eigenvectors of the reduced problem are
 *      orthonormal to n u; X = L^-H Y multiplies that by kappa(B));
 *      B's Cholesky factor: ||L L^H - B||_F <= THRESH n u ||B||_F (Higham
 *      Thm 10.3).
 *    sygvdx: RANGE_ALL, RANGE_I (the 3rd to the 10th) and RANGE_V on
 *    (-1, 1.5]; h_meig equals scipy's count; a value of the pencil within
 *    the eigenvalue tolerance of vl or vu would make the count ambiguous
 *    and is refused as a bad test problem. sygvj: tolerance 0 (the
 *    type's eps), GetSweeps >= 1, GetResidual (syevj's off-diagonal norm
 *    of the reduced matrix M) <= max(tol, eps sqrt(n + 1)) ||M||_F with
 *    ||M||_F <= ||A||_F kappa(B) (itype 1) or ||A||_F ||B||_2 (2, 3);
 *    one sweep does not converge (info = n + 1, one sweep).
 *  - B not positive definite (a negative diagonal element at position k):
 *    info = n + k for both routines, as LAPACK's sygv; for sygvj with k = 1
 *    that is n + 1, told from non-convergence by GetSweeps = 0.
 *  - gesvdaStridedBatched on 3 matrices 12 x 7 at padded strides in one
 *    allocation each: singular values within THRESH max(m,n) u ||A||_F of
 *    numpy's (a backward stable SVD and Weyl); ||U_r^H U_r - I||_F <=
 *    THRESH m u, ||V_r^H V_r - I||_F <= THRESH n u; the truncation's
 *    residual ||A - U_r S_r V_r^H||_F (long double, from the outputs)
 *    within THRESH max(m,n) u ||A||_F of sqrt(sum_{j>r} sigma_j^2) from
 *    numpy, and h_R_nrmF within the same of it (it is formed in the working
 *    precision); rank = n and rank = 4; NOVECTOR writes only S. A NaN in
 *    one matrix gives its info -5 and leaves the others' results intact.
 *  - A NaN in A or B: info = -(its position) (sygvdx -6 / -8, sygvj -5 /
 *    -7), nothing else written; n = 0 and batchSize = 0 succeed.
 * Every operand has padding (and leading dimensions above the minimum)
 * that must come back unchanged. Bad arguments give
 * TRNSOLVER_STATUS_INVALID_VALUE with a message naming the argument.
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
#define KAPPA_B 10.0L
#define N 24
#define IL 3
#define IU 10
#define VL (-1.0)
#define VU 1.5
#define SVD_M 12
#define SVD_N 7
#define SVD_BATCH 3

static th_daemon daemon_under_test;

enum { SEL_ALL, SEL_I, SEL_V, NSEL };
static lcplx *pa[4], *pb[4];         /* the pencil per type */
static double *ref_geig[4][4][NSEL]; /* [type][itype][selection]: count, values */
static lcplx *sa[4];                 /* SVD_BATCH matrices SVD_M x SVD_N per type */
static double *ref_sv[4];            /* SVD_N values per matrix */

static ty real_ty(ty t) {
    return (t == TY_S || t == TY_C) ? TY_S : TY_D;
}

/* Makes the problems and runs solver_sygv_ref.py once for all of them. */
static int make_problems(void) {
    char dir[] = "/tmp/trnsci-sygv-ref-XXXXXX";
    FILE *man = st_open_manifest(dir);
    if (!man)
        return -1;
    st_rng = 0x5a9e5a9eULL;
    static const char *const sel_words[NSEL] = {"all", "index", "value"};
    for (int ti = 0; ti < 4; ti++) {
        const ty t = all_types[ti];
        char name[64];
        lcplx *h = st_lmat(N, N);
        for (int j = 0; j < N; j++)
            for (int i = j; i < N; i++) {
                const lcplx v = i == j ? st_uniform() : st_random(t);
                h[(size_t)j * N + i] = v;
                h[(size_t)i * N + j] = conjl(v);
            }
        pa[ti] = h;
        pb[ti] = st_spd(t, N, KAPPA_B);
        st_round_to(t, pa[ti], (size_t)N * N);
        st_round_to(t, pb[ti], (size_t)N * N);
        for (int it = 1; it <= 3; it++)
            for (int s = 0; s < NSEL; s++) {
                snprintf(name, sizeof(name), "g%d_%d_%d", ti, it, s);
                st_write_raw(dir, name, "a", t, (size_t)N * N, pa[ti]);
                st_write_raw(dir, name, "b", t, (size_t)N * N, pb[ti]);
                fprintf(man, "geig %s %s %d %d %s", name, st_np_name(t), N, it, sel_words[s]);
                if (s == SEL_I)
                    fprintf(man, " %d %d", IL, IU);
                else if (s == SEL_V)
                    fprintf(man, " %.17g %.17g", VL, VU);
                fprintf(man, "\n");
            }
        const size_t cnt = (size_t)SVD_BATCH * SVD_M * SVD_N;
        sa[ti] = st_lmat((int)cnt, 1);
        for (size_t i = 0; i < cnt; i++)
            sa[ti][i] = st_random(t);
        st_round_to(t, sa[ti], cnt);
        snprintf(name, sizeof(name), "s%d", ti);
        st_write_raw(dir, name, "a", t, cnt, sa[ti]);
        fprintf(man, "svd %s %s %d %d %d\n", name, st_np_name(t), SVD_M, SVD_N, SVD_BATCH);
    }
    fclose(man);
    const char *const argv[] = {PYTHON3, SOLVER_SYGV_REF_PY, dir, NULL};
    const int rc = th_run(argv, NULL);
    int bad = rc != 0;
    for (int ti = 0; ti < 4 && !bad; ti++) {
        char name[64];
        for (int it = 1; it <= 3; it++)
            for (int s = 0; s < NSEL; s++) {
                snprintf(name, sizeof(name), "g%d_%d_%d", ti, it, s);
                bad |= !(ref_geig[ti][it][s] = st_read_out(dir, name, (size_t)(N + 1), 0));
            }
        snprintf(name, sizeof(name), "s%d", ti);
        bad |= !(ref_sv[ti] = st_read_out(dir, name, (size_t)(SVD_BATCH * SVD_N), 1));
    }
    th_remove_dir(dir);
    if (bad)
        fprintf(stderr, "solver_sygv_ref.py failed (exit %d)\n", rc);
    return bad ? -1 : 0;
}

/* B's Cholesky factor as returned in its uplo triangle: ||F F^H - B||_F
 * (lower, F = L) or ||F^H F - B||_F (upper, F = U) over n u ||B||_F. */
static long double chol_ratio(ty t, int n, const st_mat *B, const void *h, const lcplx *b,
                              int lower) {
    lcplx *f = st_lmat(n, n), *p = st_lmat(n, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if (lower ? i >= j : i <= j)
                f[(size_t)j * n + i] = st_got(B, h, i, j);
    if (lower) { /* p = f f^H */
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                lcplx s = 0;
                for (int l = 0; l < n; l++)
                    s += f[(size_t)l * n + i] * conjl(f[(size_t)l * n + j]);
                p[(size_t)j * n + i] = s;
            }
    } else {
        st_lmul(n, n, n, f, 1, f, p);
    }
    for (size_t i = 0; i < (size_t)n * n; i++)
        p[i] -= b[i];
    const long double r = st_lfro(n, n, p) / (n * st_u(t) * st_lfro(n, n, b));
    free(f);
    free(p);
    return r;
}

/* The eigenpair checks of the header on the first k columns of z (n x k)
 * with values w, against the reference values ref (k of them). */
static void check_pairs(const char *what, ty t, int itype, int n, int k, const lcplx *a,
                        const lcplx *b, const lcplx *z, const long double *w, const double *ref) {
    const long double an = st_lfro(n, n, a), bn = st_lfro(n, n, b), u = st_u(t);
    const long double scale = an * (itype == 1 ? 1.0L : bn) * KAPPA_B;
    char name[80];
    snprintf(name, sizeof(name), "%s values", what);
    for (int i = 0; i < k; i++) {
        const long double err = fabsl(w[i] - ref[i]);
        st_check_ratio(name, t, err / (n * u * scale + 1e-13L * scale), THRESH);
    }
    if (!z)
        return;
    lcplx *x = st_lmat(n, 1), *y = st_lmat(n, 1), *y2 = st_lmat(n, 1);
    snprintf(name, sizeof(name), "%s residual", what);
    for (int j = 0; j < k; j++) {
        const lcplx *zj = z + (size_t)j * n;
        memcpy(x, zj, (size_t)n * sizeof(lcplx));
        if (itype == 1) { /* A x - w B x */
            st_lmul(n, 1, n, a, 0, x, y);
            st_lmul(n, 1, n, b, 0, x, y2);
        } else { /* A B x or B A x, minus w x */
            st_lmul(n, 1, n, itype == 2 ? b : a, 0, x, y2);
            st_lmul(n, 1, n, itype == 2 ? a : b, 0, y2, y);
            memcpy(y2, x, (size_t)n * sizeof(lcplx));
        }
        for (int i = 0; i < n; i++)
            y[i] -= w[j] * y2[i];
        const long double xn = st_lfro(n, 1, x);
        const long double den = itype == 1 ? an + fabsl(w[j]) * bn : an * bn + fabsl(w[j]);
        st_check_ratio(name, t, st_lfro(n, 1, y) / (n * u * den * xn), THRESH * KAPPA_B);
    }
    if (itype != 3 && k > 0) { /* X^H B X = I */
        lcplx *bx = st_lmat(n, k), *g = st_lmat(k, k);
        st_lmul(n, k, n, b, 0, z, bx);
        st_lmul(k, k, n, z, 1, bx, g);
        for (int i = 0; i < k; i++)
            g[(size_t)i * k + i] -= 1;
        snprintf(name, sizeof(name), "%s B-orthonormality", what);
        st_check_ratio(name, t, st_lfro(k, k, g) / (n * u * KAPPA_B), THRESH * KAPPA_B);
        free(bx);
        free(g);
    }
    free(x);
    free(y);
    free(y2);
}

/* ---- sygvdx ------------------------------------------------------------------------- */

static const trnsolverEigRange_t ranges[NSEL] = {TRNSOLVER_EIG_RANGE_ALL, TRNSOLVER_EIG_RANGE_I,
                                                 TRNSOLVER_EIG_RANGE_V};

static trnsolverStatus_t call_sygvdx(ty t, trnsolverDnHandle_t h, trnsolverEigType_t it,
                                     trnsolverEigMode_t jobz, trnsolverEigRange_t range,
                                     trnblasFillMode_t uplo, int n, void *A, int lda, void *B,
                                     int ldb, double vl, double vu, int il, int iu, int *meig,
                                     void *W, void *work, int lwork, int *info) {
    switch (t) {
    case TY_S:
        return trnsolverDnSsygvdx(h, it, jobz, range, uplo, n, A, lda, B, ldb, (float)vl, (float)vu,
                                  il, iu, meig, W, work, lwork, info);
    case TY_D:
        return trnsolverDnDsygvdx(h, it, jobz, range, uplo, n, A, lda, B, ldb, vl, vu, il, iu, meig,
                                  W, work, lwork, info);
    case TY_C:
        return trnsolverDnChegvdx(h, it, jobz, range, uplo, n, A, lda, B, ldb, (float)vl, (float)vu,
                                  il, iu, meig, W, work, lwork, info);
    default:
        return trnsolverDnZhegvdx(h, it, jobz, range, uplo, n, A, lda, B, ldb, vl, vu, il, iu, meig,
                                  W, work, lwork, info);
    }
}

static void check_sygvdx(ty t, int itype, int sel, int lower, int vectors) {
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const int ti = st_type_index(t), n = N;
    const lcplx *a = pa[ti], *b = pb[ti];
    const double *ref = ref_geig[ti][itype][sel];
    const int want = (int)ref[0];
    const trnblasFillMode_t uplo = lower ? TRNBLAS_FILL_MODE_LOWER : TRNBLAS_FILL_MODE_UPPER;
    const trnsolverEigMode_t jobz =
        vectors ? TRNSOLVER_EIG_MODE_VECTOR : TRNSOLVER_EIG_MODE_NOVECTOR;
    if (sel == SEL_V) { /* no value of the pencil near the interval's ends */
        const double *all = ref_geig[ti][itype][SEL_ALL] + 1;
        const long double tol = THRESH * n * st_u(t) * st_lfro(n, n, a) *
                                (itype == 1 ? 1.0L : st_lfro(n, n, b)) * KAPPA_B;
        for (int i = 0; i < n; i++)
            if (fabsl(all[i] - VL) <= tol || fabsl(all[i] - VU) <= tol)
                fail_msg("bad test problem: eigenvalue %.17g is within %Lg of (vl, vu]", all[i],
                         tol);
    }
    st_mat A, B, W, Wk;
    st_upload_tri(&A, t, n, a, lower, n + 2);
    st_upload_tri(&B, t, n, b, lower, n + 1);
    st_alloc(&W, real_ty(t), n, 1, n);
    st_upload(&W);
    int *info = st_info_alloc(1), lwork = -1, meig = -1;
    const trnsolverEigType_t it = (trnsolverEigType_t)itype;
    assert_int_equal(ST_CALL2(t, sygvdx_bufferSize, hegvdx_bufferSize, h, it, jobz, ranges[sel],
                              uplo, n, st_ptr(&A), A.ld, st_ptr(&B), B.ld, VL, VU, IL, IU, &meig,
                              st_ptr(&W), &lwork),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_true(lwork >= 1);
    st_alloc(&Wk, t, lwork, 1, lwork);
    st_upload(&Wk);
    assert_int_equal(call_sygvdx(t, h, it, jobz, ranges[sel], uplo, n, st_ptr(&A), A.ld, st_ptr(&B),
                                 B.ld, VL, VU, IL, IU, &meig, st_ptr(&W), st_ptr(&Wk), lwork, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    if (meig != want)
        fail_msg("%s sygvdx itype %d range %d: h_meig %d, scipy selects %d", ty_name[t], itype, sel,
                 meig, want);
    void *wg = st_download(&W, NULL, NULL), *zg = st_download(&A, NULL, NULL);
    void *bg = st_download(&B, NULL, NULL);
    free(st_download(&Wk, NULL, NULL));
    long double *w = calloc((size_t)n, sizeof(long double));
    for (int i = 0; i < meig; i++)
        w[i] = creall(st_got(&W, wg, i, 0));
    lcplx *z = vectors ? st_lmat(n, meig > 0 ? meig : 1) : NULL;
    for (int j = 0; vectors && j < meig; j++)
        for (int i = 0; i < n; i++)
            z[(size_t)j * n + i] = st_got(&A, zg, i, j);
    check_pairs("sygvdx", t, itype, n, meig, a, b, z, w, ref + 1);
    st_check_ratio("sygvdx Cholesky factor of B", t, chol_ratio(t, n, &B, bg, b, lower), THRESH);
    free(w);
    free(z);
    free(wg);
    free(zg);
    free(bg);
    st_free(&A);
    st_free(&B);
    st_free(&W);
    st_free(&Wk);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_sygvdx(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int it = 1; it <= 3; it++)
            for (int s = 0; s < NSEL; s++)
                check_sygvdx(all_types[ti], it, s, (it + s) % 2 == 0, 1);
    /* Values only. */
    check_sygvdx(TY_D, 1, SEL_V, 1, 0);
    check_sygvdx(TY_C, 2, SEL_I, 0, 0);
}

/* ---- sygvj -------------------------------------------------------------------------- */

static void check_sygvj(ty t, int itype, int lower) {
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const int ti = st_type_index(t), n = N;
    const lcplx *a = pa[ti], *b = pb[ti];
    const trnblasFillMode_t uplo = lower ? TRNBLAS_FILL_MODE_LOWER : TRNBLAS_FILL_MODE_UPPER;
    st_mat A, B, W;
    st_upload_tri(&A, t, n, a, lower, n + 3);
    st_upload_tri(&B, t, n, b, lower, n);
    st_alloc(&W, real_ty(t), n, 1, n);
    st_upload(&W);
    int *info = st_info_alloc(1), lwork = -1;
    syevjInfo_t p;
    assert_int_equal(trnsolverDnCreateSyevjInfo(&p), TRNSOLVER_STATUS_SUCCESS);
    const trnsolverEigType_t it = (trnsolverEigType_t)itype;
    assert_int_equal(ST_CALL2(t, sygvj_bufferSize, hegvj_bufferSize, h, it,
                              TRNSOLVER_EIG_MODE_VECTOR, uplo, n, st_ptr(&A), A.ld, st_ptr(&B),
                              B.ld, st_ptr(&W), &lwork, p),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(ST_CALL2(t, sygvj, hegvj, h, it, TRNSOLVER_EIG_MODE_VECTOR, uplo, n,
                              st_ptr(&A), A.ld, st_ptr(&B), B.ld, st_ptr(&W), NULL, 0, info, p),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    double residual = -1.0;
    int sweeps = -1;
    assert_int_equal(trnsolverDnXsyevjGetResidual(h, p, &residual), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnXsyevjGetSweeps(h, p, &sweeps), TRNSOLVER_STATUS_SUCCESS);
    assert_true(sweeps >= 1 && sweeps <= 100);
    const long double an = st_lfro(n, n, a);
    const long double mnorm = itype == 1 ? an * KAPPA_B : an * st_lfro(n, n, b);
    st_check_ratio("sygvj GetResidual / (u sqrt(n+1) ||M||)", t,
                   residual / (st_u(t) * 2 * sqrtl(n + 1.0L) * mnorm), 1.0L);
    void *wg = st_download(&W, NULL, NULL), *zg = st_download(&A, NULL, NULL);
    void *bg = st_download(&B, NULL, NULL);
    long double *w = calloc((size_t)n, sizeof(long double));
    for (int i = 0; i < n; i++)
        w[i] = creall(st_got(&W, wg, i, 0));
    lcplx *z = st_take_got(&A, zg);
    check_pairs("sygvj", t, itype, n, n, a, b, z, w, ref_geig[ti][itype][SEL_ALL] + 1);
    st_check_ratio("sygvj Cholesky factor of B", t, chol_ratio(t, n, &B, bg, b, lower), THRESH);
    free(w);
    free(z);
    free(wg);
    free(zg);
    free(bg);
    /* One sweep does not converge: info = n + 1, GetSweeps 1. */
    st_free(&A);
    st_free(&B);
    st_upload_tri(&A, t, n, a, lower, n + 3);
    st_upload_tri(&B, t, n, b, lower, n);
    assert_int_equal(trnsolverDnXsyevjSetMaxSweeps(p, 1), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(ST_CALL2(t, sygvj, hegvj, h, it, TRNSOLVER_EIG_MODE_NOVECTOR, uplo, n,
                              st_ptr(&A), A.ld, st_ptr(&B), B.ld, st_ptr(&W), NULL, 0, info, p),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), n + 1);
    assert_int_equal(trnsolverDnXsyevjGetSweeps(h, p, &sweeps), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(sweeps, 1);
    assert_int_equal(trnsolverDnDestroySyevjInfo(p), TRNSOLVER_STATUS_SUCCESS);
    st_free(&A);
    st_free(&B);
    st_free(&W);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_sygvj(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int it = 1; it <= 3; it++)
            check_sygvj(all_types[ti], it, it != 2);
}

/* B with a negative diagonal element at position k (1-based): info = n + k
 * from both routines; nothing but info is written by sygvj. */
static void test_not_definite(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const int n = 6;
    lcplx a[36], b[36];
    for (int i = 0; i < 36; i++)
        a[i] = b[i] = 0;
    for (int i = 0; i < n; i++) {
        a[i * n + i] = i + 1;
        b[i * n + i] = 2;
    }
    syevjInfo_t p;
    assert_int_equal(trnsolverDnCreateSyevjInfo(&p), TRNSOLVER_STATUS_SUCCESS);
    const int ks[] = {1, 3};
    for (int ti = 0; ti < 4; ti++)
        for (int kk = 0; kk < 2; kk++) {
            const ty t = all_types[ti];
            const int k = ks[kk];
            b[(k - 1) * n + (k - 1)] = -1;
            st_mat A, B, W, Wk;
            st_upload_tri(&A, t, n, a, 1, n);
            st_upload_tri(&B, t, n, b, 1, n);
            st_alloc(&W, real_ty(t), n, 1, n);
            st_upload(&W);
            st_alloc(&Wk, t, 1, 1, 1);
            st_upload(&Wk);
            int *info = st_info_alloc(1), meig = -1;
            assert_int_equal(call_sygvdx(t, h, TRNSOLVER_EIG_TYPE_1, TRNSOLVER_EIG_MODE_VECTOR,
                                         TRNSOLVER_EIG_RANGE_V, TRNBLAS_FILL_MODE_LOWER, n,
                                         st_ptr(&A), n, st_ptr(&B), n, 0.0, 10.0, 1, 1, &meig,
                                         st_ptr(&W), st_ptr(&Wk), 1, info),
                             TRNSOLVER_STATUS_SUCCESS);
            assert_int_equal(st_read_int(info), n + k);
            assert_int_equal(meig, 0);
            st_free(&A);
            st_free(&B);
            st_upload_tri(&A, t, n, a, 1, n);
            st_upload_tri(&B, t, n, b, 1, n);
            st_upload(&W);
            assert_int_equal(ST_CALL2(t, sygvj, hegvj, h, TRNSOLVER_EIG_TYPE_1,
                                      TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n,
                                      st_ptr(&A), n, st_ptr(&B), n, st_ptr(&W), NULL, 0, info, p),
                             TRNSOLVER_STATUS_SUCCESS);
            assert_int_equal(st_read_int(info), n + k);
            int sweeps = -1;
            assert_int_equal(trnsolverDnXsyevjGetSweeps(h, p, &sweeps), TRNSOLVER_STATUS_SUCCESS);
            assert_int_equal(sweeps, 0);
            st_untouched(&A);
            st_untouched(&B);
            st_untouched(&W);
            st_free(&A);
            st_free(&B);
            st_free(&W);
            st_free(&Wk);
            assert_int_equal(trnsciFree(info), trnsciSuccess);
            b[(k - 1) * n + (k - 1)] = 2;
        }
    assert_int_equal(trnsolverDnDestroySyevjInfo(p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* ---- gesvdaStridedBatched ------------------------------------------------------------ */

/* A strided batch in one device allocation: count elements of type t,
 * random junk except what the test sets; host keeps the upload. */
typedef struct sb {
    ty t;
    size_t count;
    void *host, *dev;
} sb;

static void sb_make(sb *s, ty t, size_t count) {
    s->t = t;
    s->count = count;
    s->host = malloc(count * esize(t));
    assert_non_null(s->host);
    for (size_t i = 0; i < count; i++)
        put(t, s->host, i, st_random(t));
    assert_int_equal(trnsciMalloc(&s->dev, count * esize(t)), trnsciSuccess);
}

static void sb_upload(sb *s) {
    assert_int_equal(
        trnsciMemcpy(s->dev, s->host, s->count * esize(s->t), trnsciMemcpyHostToDevice),
        trnsciSuccess);
}

/* Downloads; elements outside the batch's rows x cols windows (ld, stride,
 * from element 0) must be unchanged; rows 0 leaves nothing writable. */
static void *sb_download(const sb *s, int batch, int rows, int cols, int ld, long long stride) {
    const size_t es = esize(s->t);
    unsigned char *h = malloc(s->count * es);
    assert_non_null(h);
    assert_int_equal(trnsciMemcpy(h, s->dev, s->count * es, trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    for (size_t e = 0; e < s->count; e++) {
        int inside = 0;
        if (rows > 0 && e < (size_t)batch * (size_t)stride) {
            const size_t in = e % (size_t)stride;
            inside = in < (size_t)ld * cols && (int)(in % (size_t)ld) < rows;
        }
        if (!inside && memcmp(h + e * es, (unsigned char *)s->host + e * es, es) != 0)
            fail_msg("element %zu (outside what gesvdaStridedBatched may write) was modified", e);
    }
    return h;
}

static void sb_free(sb *s) {
    assert_int_equal(trnsciFree(s->dev), trnsciSuccess);
    free(s->host);
}

static void check_gesvda(ty t, int rank, int vectors, int with_nan) {
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const int ti = st_type_index(t), m = SVD_M, n = SVD_N, nb = SVD_BATCH;
    const int lda = m + 1, ldu = m + 2, ldv = n + 1;
    const long long sA = (long long)lda * n + 5, sS = rank + 1;
    const long long sU = (long long)ldu * rank + 3, sV = (long long)ldv * rank + 2;
    sb A, S, U, V;
    sb_make(&A, t, (size_t)(sA * nb));
    sb_make(&S, real_ty(t), (size_t)(sS * nb));
    sb_make(&U, t, (size_t)(sU * nb));
    sb_make(&V, t, (size_t)(sV * nb));
    for (int k = 0; k < nb; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++)
                put(t, A.host, (size_t)(k * sA + (long long)j * lda + i),
                    sa[ti][(size_t)k * m * n + (size_t)j * m + i]);
    if (with_nan)
        put(t, A.host, (size_t)(sA + 2 * lda + 3), NAN);
    sb_upload(&A);
    sb_upload(&S);
    sb_upload(&U);
    sb_upload(&V);
    const trnsolverEigMode_t jobz =
        vectors ? TRNSOLVER_EIG_MODE_VECTOR : TRNSOLVER_EIG_MODE_NOVECTOR;
    int lwork = -1;
    assert_int_equal(ST_CALL(t, gesvdaStridedBatched_bufferSize, h, jobz, rank, m, n, A.dev, lda,
                             sA, S.dev, sS, U.dev, ldu, sU, V.dev, ldv, sV, &lwork, nb),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_true((size_t)lwork * esize(t) >= nb * sizeof(double));
    void *work;
    assert_int_equal(trnsciMalloc(&work, (size_t)lwork * esize(t)), trnsciSuccess);
    int *info = st_info_alloc(nb);
    double rnrm[SVD_BATCH] = {-1, -1, -1};
    assert_int_equal(ST_CALL(t, gesvdaStridedBatched, h, jobz, rank, m, n, A.dev, lda, sA, S.dev,
                             sS, U.dev, ldu, sU, V.dev, ldv, sV, work, lwork, info, rnrm, nb),
                     TRNSOLVER_STATUS_SUCCESS);
    int infos[SVD_BATCH];
    assert_int_equal(trnsciMemcpy(infos, info, sizeof(infos), trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    free(sb_download(&A, nb, 0, 0, lda, sA)); /* A is not modified */
    void *sg = sb_download(&S, nb, rank, 1, rank, sS);
    void *ug = sb_download(&U, nb, vectors ? m : 0, rank, ldu, sU);
    void *vg = sb_download(&V, nb, vectors ? n : 0, rank, ldv, sV);
    const long double u = st_u(t);
    for (int k = 0; k < nb; k++) {
        if (with_nan && k == 1) {
            assert_int_equal(infos[k], -5);
            continue;
        }
        assert_int_equal(infos[k], 0);
        const lcplx *ak = sa[ti] + (size_t)k * m * n;
        const double *ref = ref_sv[ti] + (size_t)k * n;
        const long double an = st_lfro(m, n, ak);
        long double s[SVD_N], tail = 0;
        for (int j = 0; j < rank; j++) {
            s[j] = creall(get(real_ty(t), sg, (size_t)(k * sS + j)));
            st_check_ratio("gesvda |s - s_numpy| / (max(m,n) u ||A||)", t,
                           fabsl(s[j] - ref[j]) / (m * u * an), THRESH);
            if (j > 0 && s[j] > s[j - 1])
                fail_msg("%s gesvda: singular values not descending at %d", ty_name[t], j);
        }
        for (int j = rank; j < n; j++)
            tail += (long double)ref[j] * ref[j];
        tail = sqrtl(tail);
        /* h_R_nrmF: the truncation's residual. */
        st_check_ratio("gesvda |h_R_nrmF - sigma tail| / (max(m,n) u ||A||)", t,
                       fabsl(rnrm[k] - tail) / (m * u * an), 2 * THRESH);
        if (!vectors)
            continue;
        lcplx *uu = st_lmat(m, rank), *vv = st_lmat(n, rank);
        for (int j = 0; j < rank; j++) {
            for (int i = 0; i < m; i++)
                uu[(size_t)j * m + i] = get(t, ug, (size_t)(k * sU + (long long)j * ldu + i));
            for (int i = 0; i < n; i++)
                vv[(size_t)j * n + i] = get(t, vg, (size_t)(k * sV + (long long)j * ldv + i));
        }
        lcplx *g = st_lmat(rank, rank);
        st_lmul(rank, rank, m, uu, 1, uu, g);
        for (int i = 0; i < rank; i++)
            g[(size_t)i * rank + i] -= 1;
        st_check_ratio("gesvda ||U^H U - I|| / (m u)", t, st_lfro(rank, rank, g) / (m * u), THRESH);
        st_lmul(rank, rank, n, vv, 1, vv, g);
        for (int i = 0; i < rank; i++)
            g[(size_t)i * rank + i] -= 1;
        st_check_ratio("gesvda ||V^H V - I|| / (n u)", t, st_lfro(rank, rank, g) / (n * u), THRESH);
        long double e = 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
                lcplx x = ak[(size_t)j * m + i];
                for (int l = 0; l < rank; l++)
                    x -= uu[(size_t)l * m + i] * s[l] * conjl(vv[(size_t)l * n + j]);
                e += creall(x * conjl(x));
            }
        e = sqrtl(e);
        st_check_ratio("gesvda |residual - sigma tail| / (max(m,n) u ||A||)", t,
                       fabsl(e - tail) / (m * u * an), THRESH);
        st_check_ratio("gesvda |h_R_nrmF - residual| / (max(m,n) u ||A||)", t,
                       fabsl(rnrm[k] - e) / (m * u * an), 2 * THRESH);
        free(uu);
        free(vv);
        free(g);
    }
    free(sg);
    free(ug);
    free(vg);
    sb_free(&A);
    sb_free(&S);
    sb_free(&U);
    sb_free(&V);
    assert_int_equal(trnsciFree(work), trnsciSuccess);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_gesvda(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++) {
        check_gesvda(all_types[ti], SVD_N, 1, 0);
        check_gesvda(all_types[ti], 4, 1, 0);
    }
    check_gesvda(TY_D, 3, 0, 0);
    check_gesvda(TY_Z, 5, 1, 1);
}

/* A NaN in the referenced triangle: info = -(position): sygvdx's A 6th and
 * B 8th, sygvj's A 5th and B 7th; sygvj writes nothing else. */
static void test_nonfinite(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const int n = 5;
    lcplx a[25], b[25];
    for (int i = 0; i < 25; i++)
        a[i] = b[i] = 0;
    for (int i = 0; i < n; i++) {
        a[i * n + i] = i;
        b[i * n + i] = 1;
    }
    syevjInfo_t p;
    assert_int_equal(trnsolverDnCreateSyevjInfo(&p), TRNSOLVER_STATUS_SUCCESS);
    for (int ti = 0; ti < 4; ti++)
        for (int which = 0; which < 2; which++) {
            const ty t = all_types[ti];
            lcplx *m = which ? b : a;
            m[3] = NAN; /* (3, 0): in the lower triangle */
            st_mat A, B, W, Wk;
            st_upload_tri(&A, t, n, a, 1, n);
            st_upload_tri(&B, t, n, b, 1, n);
            st_alloc(&W, real_ty(t), n, 1, n);
            st_upload(&W);
            st_alloc(&Wk, t, 1, 1, 1);
            st_upload(&Wk);
            int *info = st_info_alloc(1), meig = -1;
            assert_int_equal(call_sygvdx(t, h, TRNSOLVER_EIG_TYPE_1, TRNSOLVER_EIG_MODE_VECTOR,
                                         TRNSOLVER_EIG_RANGE_ALL, TRNBLAS_FILL_MODE_LOWER, n,
                                         st_ptr(&A), n, st_ptr(&B), n, 0, 0, 0, 0, &meig,
                                         st_ptr(&W), st_ptr(&Wk), 1, info),
                             TRNSOLVER_STATUS_SUCCESS);
            assert_int_equal(st_read_int(info), which ? -8 : -6);
            assert_int_equal(ST_CALL2(t, sygvj, hegvj, h, TRNSOLVER_EIG_TYPE_1,
                                      TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n,
                                      st_ptr(&A), n, st_ptr(&B), n, st_ptr(&W), NULL, 0, info, p),
                             TRNSOLVER_STATUS_SUCCESS);
            assert_int_equal(st_read_int(info), which ? -7 : -5);
            st_untouched(&A);
            st_untouched(&B);
            st_untouched(&W);
            st_free(&A);
            st_free(&B);
            st_free(&W);
            st_free(&Wk);
            assert_int_equal(trnsciFree(info), trnsciSuccess);
            m[3] = 0;
        }
    assert_int_equal(trnsolverDnDestroySyevjInfo(p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* ---- empty shapes ---------------------------------------------------------------------- */

/* n = 0 and batchSize = 0 are no-ops that succeed with info 0. */
static void test_empty(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    int *info = st_info_alloc(1), meig = -1;
    double *work;
    assert_int_equal(trnsciMalloc((void **)&work, sizeof(double)), trnsciSuccess);
    assert_int_equal(trnsolverDnDsygvdx(h, TRNSOLVER_EIG_TYPE_1, TRNSOLVER_EIG_MODE_VECTOR,
                                        TRNSOLVER_EIG_RANGE_I, TRNBLAS_FILL_MODE_LOWER, 0, NULL, 1,
                                        NULL, 1, 0, 0, 1, 0, &meig, NULL, work, 1, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(meig, 0);
    assert_int_equal(st_read_int(info), 0);
    meig = -1;
    assert_int_equal(trnsolverDnZhegvdx(h, TRNSOLVER_EIG_TYPE_2, TRNSOLVER_EIG_MODE_VECTOR,
                                        TRNSOLVER_EIG_RANGE_V, TRNBLAS_FILL_MODE_UPPER, 0, NULL, 1,
                                        NULL, 1, -1, 1, 0, 0, &meig, NULL, (trnDoubleComplex *)work,
                                        1, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(meig, 0);
    assert_int_equal(st_read_int(info), 0);
    syevjInfo_t p;
    assert_int_equal(trnsolverDnCreateSyevjInfo(&p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnSsygvj(h, TRNSOLVER_EIG_TYPE_3, TRNSOLVER_EIG_MODE_VECTOR,
                                       TRNBLAS_FILL_MODE_LOWER, 0, NULL, 1, NULL, 1, NULL, NULL, 0,
                                       info, p),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    int sweeps = -1;
    assert_int_equal(trnsolverDnXsyevjGetSweeps(h, p, &sweeps), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(sweeps, 0);
    assert_int_equal(trnsolverDnDestroySyevjInfo(p), TRNSOLVER_STATUS_SUCCESS);
    double r = -1;
    assert_int_equal(trnsolverDnCgesvdaStridedBatched(h, TRNSOLVER_EIG_MODE_VECTOR, 1, 2, 1, NULL,
                                                      2, 2, NULL, 1, NULL, 2, 2, NULL, 1, 1, NULL,
                                                      0, NULL, &r, 0),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_true(r == -1);
    assert_int_equal(trnsciFree(work), trnsciSuccess);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* ---- bad input ------------------------------------------------------------------------ */

#define EXPECT(call, needle)                                                                       \
    do {                                                                                           \
        assert_int_equal((call), TRNSOLVER_STATUS_INVALID_VALUE);                                  \
        st_expect_message(needle);                                                                 \
    } while (0)

static void test_bad_input(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    double *a;
    int *info, meig = 0;
    assert_int_equal(trnsciMalloc((void **)&a, 1024 * sizeof(double)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&info, 8 * sizeof(int)), trnsciSuccess);
    const trnsolverEigMode_t V = TRNSOLVER_EIG_MODE_VECTOR;
    const trnblasFillMode_t L = TRNBLAS_FILL_MODE_LOWER;
    const trnsolverEigType_t T1 = TRNSOLVER_EIG_TYPE_1;
    EXPECT(trnsolverDnDsygvdx(h, T1, V, (trnsolverEigRange_t)7, L, 4, a, 4, a + 16, 4, 0, 1, 1, 1,
                              &meig, a + 32, a + 40, 1, info),
           "range=7");
    EXPECT(trnsolverDnDsygvdx(h, T1, V, TRNSOLVER_EIG_RANGE_I, L, 4, a, 4, a + 16, 4, 0, 1, 3, 2,
                              &meig, a + 32, a + 40, 1, info),
           "il=3, iu=2");
    EXPECT(trnsolverDnDsygvdx(h, T1, V, TRNSOLVER_EIG_RANGE_I, L, 4, a, 4, a + 16, 4, 0, 1, 1, 5,
                              &meig, a + 32, a + 40, 1, info),
           "iu=5");
    EXPECT(trnsolverDnDsygvdx(h, T1, V, TRNSOLVER_EIG_RANGE_V, L, 4, a, 4, a + 16, 4, 1, 1, 1, 1,
                              &meig, a + 32, a + 40, 1, info),
           "vl=1, vu=1");
    EXPECT(trnsolverDnDsygvdx(h, T1, V, TRNSOLVER_EIG_RANGE_V, L, 4, a, 4, a + 16, 4, 0, 1, 1, 1,
                              NULL, a + 32, a + 40, 1, info),
           "h_meig");
    EXPECT(trnsolverDnDsygvdx(h, T1, V, TRNSOLVER_EIG_RANGE_V, L, 4, a, 4, a + 16, 4, 0, 1, 1, 1,
                              &meig, a + 32, NULL, 0, info),
           "work");
    EXPECT(trnsolverDnDsygvdx(h, (trnsolverEigType_t)4, V, TRNSOLVER_EIG_RANGE_ALL, L, 4, a, 4,
                              a + 16, 4, 0, 1, 1, 1, &meig, a + 32, a + 40, 1, info),
           "itype=4");
    EXPECT(trnsolverDnZhegvdx(h, T1, V, TRNSOLVER_EIG_RANGE_ALL, L, 4, (trnDoubleComplex *)a, 4,
                              (trnDoubleComplex *)a + 16, 3, 0, 1, 1, 1, &meig, a + 100,
                              (trnDoubleComplex *)a + 60, 1, info),
           "ldb=3");
    syevjInfo_t p;
    assert_int_equal(trnsolverDnCreateSyevjInfo(&p), TRNSOLVER_STATUS_SUCCESS);
    EXPECT(trnsolverDnDsygvj(h, T1, V, L, 4, a, 4, a + 16, 4, a + 32, NULL, 0, info, NULL),
           "params");
    EXPECT(trnsolverDnSsygvj(h, (trnsolverEigType_t)0, V, L, 4, (float *)a, 4, (float *)a + 16, 4,
                             (float *)a + 32, NULL, 0, info, p),
           "itype=0");
    EXPECT(trnsolverDnChegvj(h, T1, (trnsolverEigMode_t)5, L, 4, (trnComplex *)a, 4,
                             (trnComplex *)a + 16, 4, (float *)a + 100, NULL, 0, info, p),
           "jobz=5");
    assert_int_equal(trnsolverDnDestroySyevjInfo(p), TRNSOLVER_STATUS_SUCCESS);
    double r[2];
    EXPECT(trnsolverDnDgesvdaStridedBatched(h, V, 2, 3, 4, a, 3, 12, a + 100, 2, a + 200, 3, 6,
                                            a + 300, 4, 8, a + 400, 4, info, r, 2),
           "m=3 must be >= n=4");
    EXPECT(trnsolverDnDgesvdaStridedBatched(h, V, 0, 4, 3, a, 4, 12, a + 100, 2, a + 200, 4, 8,
                                            a + 300, 3, 6, a + 400, 4, info, r, 2),
           "rank=0");
    EXPECT(trnsolverDnDgesvdaStridedBatched(h, V, 2, 4, 3, a, 4, 11, a + 100, 2, a + 200, 4, 8,
                                            a + 300, 3, 6, a + 400, 4, info, r, 2),
           "strideA=11");
    EXPECT(trnsolverDnDgesvdaStridedBatched(h, V, 2, 4, 3, a, 4, 12, a + 100, 1, a + 200, 4, 8,
                                            a + 300, 3, 6, a + 400, 4, info, r, 2),
           "strideS=1");
    EXPECT(trnsolverDnDgesvdaStridedBatched(h, V, 2, 4, 3, a, 4, 12, a + 100, 2, a + 200, 3, 8,
                                            a + 300, 3, 6, a + 400, 4, info, r, 2),
           "ldu=3");
    EXPECT(trnsolverDnDgesvdaStridedBatched(h, V, 2, 4, 3, a, 4, 12, a + 100, 2, a + 200, 4, 8,
                                            a + 300, 3, 6, a + 400, 1, info, r, 2),
           "work");
    EXPECT(trnsolverDnDgesvdaStridedBatched(h, (trnsolverEigMode_t)3, 2, 4, 3, a, 4, 12, a + 100, 2,
                                            a + 200, 4, 8, a + 300, 3, 6, a + 400, 4, info, r, 2),
           "jobz=3");
    /* A batch past the end of the allocation. */
    EXPECT(trnsolverDnDgesvdaStridedBatched(h, V, 2, 4, 3, a, 4, 600, a + 100, 2, a + 200, 4, 8,
                                            a + 300, 3, 6, a + 400, 4, info, r, 3),
           "A");
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
        cmocka_unit_test(test_sygvdx),       cmocka_unit_test(test_sygvj),
        cmocka_unit_test(test_not_definite), cmocka_unit_test(test_gesvda),
        cmocka_unit_test(test_nonfinite),    cmocka_unit_test(test_empty),
        cmocka_unit_test(test_bad_input),
    };
    int failed = ST_RUN_BOTH("solver sygv", tests);
    failed += st_finish("solver_sygv");
    for (int ti = 0; ti < 4; ti++) {
        free(pa[ti]);
        free(pb[ti]);
        free(sa[ti]);
        free(ref_sv[ti]);
        for (int it = 0; it < 4; it++)
            for (int s = 0; s < NSEL; s++)
                free(ref_geig[ti][it][s]);
    }
    return failed ? 1 : 0;
}
