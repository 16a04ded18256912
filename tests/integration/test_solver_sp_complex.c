/*
 * test_solver_sp_complex.c — trnsolverSp's complex types: C/Z csrlsvqr,
 * csrlsvchol, their Host forms and C/Z csrqrsvBatched through a real
 * trnscid over the local transport and gRPC.
 *
 * Problems (n = 30, 0- and 1-based CSR): a sparse Hermitian positive
 * definite matrix (8 on the diagonal, -1 + 0.5i below it and its conjugate
 * above, plus about one Hermitian pair a row of entries of modulus < 0.5:
 * Gershgorin keeps it positive definite unless a row gets more than ten),
 * and a sparse non-Hermitian one with the same pattern. The reference is
 * scipy.sparse.linalg.spsolve in complex double on the matrix as stored
 * (solver_ref.py "spsolve", Debian's python3), with kappa_inf(A).
 * Checks, u the type's unit roundoff: normwise backward error max ||b - A
 * x||_inf / (||A||_inf ||x||_inf) computed here in long double at most
 * 16 n u (Householder QR and Cholesky are backward stable with constants
 * ~n, Higham, Accuracy and Stability, Thms 19.5 and 10.3, doubled for
 * complex arithmetic), and forward error against scipy at most 16 n
 * kappa_inf u. csrlsvchol reads the Hermitian matrix's lower triangle only:
 * its upper triangle is set to garbage and its diagonal given imaginary
 * parts, neither of which may matter. csrqrsvBatched: system 0 gives the
 * bits of csrlsvqr with tol 0, system 1 (values doubled: every rounding
 * scales exactly by 2) exactly half of them. Singularity: a zero column k
 * gives singularity = k and x untouched. Bad input: cuSOLVER's statuses.
 */
#include <complex.h>
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
#include "solver_sp_test.h"
#include "solver_test.h"
#include "trnsci/trnsolverSp.h"

#define N 30

static th_daemon daemon_under_test;

enum { P_HPD, P_GEN, NPROB };
static double complex dense[NPROB][N * N]; /* column-major */
static double complex rhs[N];
static double *ref[NPROB]; /* kappa_inf, then x (re, im) */

static int make_problems(void) {
    st_rng = 0xc5e1fULL;
    for (int p = 0; p < NPROB; p++) {
        double complex *a = dense[p];
        memset(a, 0, sizeof(dense[p]));
        for (int i = 0; i < N; i++) {
            a[(size_t)i * N + i] = 8.0;
            if (i > 0) {
                a[(size_t)(i - 1) * N + i] = -1.0 + 0.5 * I;
                a[(size_t)i * N + i - 1] = p == P_HPD ? -1.0 - 0.5 * I : 0.75 - 0.25 * I;
            }
        }
        for (int k = 0; k < N; k++) { /* a few more entries, |v| < 0.5 */
            const int i = (int)((st_uniform() + 1.0L) * 0.5L * N) % N;
            const int j = (int)((st_uniform() + 1.0L) * 0.5L * N) % N;
            if (abs(i - j) < 2)
                continue;
            const double complex v =
                (double)(0.35L * st_uniform()) + I * (double)(0.35L * st_uniform());
            a[(size_t)j * N + i] = v;
            a[(size_t)i * N + j] = p == P_HPD ? conj(v) : -0.5 * v;
        }
    }
    for (int i = 0; i < N; i++)
        rhs[i] = (double)st_uniform() + I * (double)st_uniform();
    char dir[] = "/tmp/trnsci-solver-spc-XXXXXX";
    if (!mkdtemp(dir))
        return -1;
    char path[600];
    snprintf(path, sizeof(path), "%s/manifest.txt", dir);
    FILE *man = fopen(path, "w");
    if (!man)
        return -1;
    for (int p = 0; p < NPROB; p++) {
        snprintf(path, sizeof(path), "%s/p%d.a", dir, p);
        FILE *fp = fopen(path, "wb");
        if (!fp || fwrite(dense[p], sizeof(double complex), N * N, fp) != N * N)
            return -1;
        fclose(fp);
        snprintf(path, sizeof(path), "%s/p%d.b", dir, p);
        fp = fopen(path, "wb");
        if (!fp || fwrite(rhs, sizeof(double complex), N, fp) != N)
            return -1;
        fclose(fp);
        fprintf(man, "spsolve p%d c128 %d\n", p, N);
    }
    fclose(man);
    const char *const argv[] = {PYTHON3, SOLVER_REF_PY, dir, NULL};
    const int rc = th_run(argv, NULL);
    int bad = rc != 0;
    for (int p = 0; p < NPROB && !bad; p++) {
        snprintf(path, sizeof(path), "%s/p%d.out", dir, p);
        FILE *fp = fopen(path, "rb");
        ref[p] = calloc(2 * N + 1, sizeof(double));
        bad |= !fp || !ref[p] || fread(ref[p], sizeof(double), 2 * N + 1, fp) != 2 * N + 1;
        if (fp)
            fclose(fp);
    }
    th_remove_dir(dir);
    if (bad)
        fprintf(stderr, "solver_ref.py failed (exit %d)\n", rc);
    return bad ? -1 : 0;
}

/* A CSR copy of problem p (chol: the upper triangle replaced by garbage and
 * the diagonal given imaginary parts, which csrlsvchol must not read), with
 * the given base; values also as float complex, and scaled by 2 in the
 * second half of val / valf (the batched test's system 1). */
typedef struct csr {
    int nnz;
    int rowptr[N + 1];
    int col[N * N];
    double complex val[2 * N * N];
    float complex valf[2 * N * N];
} csr;

static void make_csr(csr *c, int p, int base, int chol) {
    c->nnz = 0;
    for (int i = 0; i < N; i++) {
        c->rowptr[i] = c->nnz + base;
        for (int j = 0; j < N; j++) {
            double complex v = dense[p][(size_t)j * N + i];
            if (v == 0.0)
                continue;
            if (chol && j > i)
                v = 1e30 - 1e30 * I;
            else if (chol && j == i)
                v += 3.0 * I;
            c->col[c->nnz] = j + base;
            c->val[c->nnz] = v;
            c->valf[c->nnz] = (float complex)v;
            c->nnz++;
        }
    }
    c->rowptr[N] = c->nnz + base;
    for (int k = 0; k < c->nnz; k++) {
        c->val[c->nnz + k] = 2.0 * c->val[k];
        c->valf[c->nnz + k] = 2.0f * c->valf[k];
    }
}

/* The Host forms on C99 complex arrays (the API's types are structs of
 * the same layout). */
#define HOST_WRAP(NAME, T, CT, R)                                                                  \
    static trnsolverStatus_t NAME##_c99(                                                           \
        trnsolverSpHandle_t h, int m, int nnz, trnsparseMatDescr_t d, const CT *val,               \
        const int *rp, const int *ci, const CT *b, R tol, int reorder, CT *x, int *sing) {         \
        return trnsolverSp##NAME(h, m, nnz, d, (const T *)val, rp, ci, (const T *)b, tol, reorder, \
                                 (T *)x, sing);                                                    \
    }
HOST_WRAP(ZcsrlsvqrHost, trnDoubleComplex, double complex, double)
HOST_WRAP(ZcsrlsvcholHost, trnDoubleComplex, double complex, double)
HOST_WRAP(CcsrlsvqrHost, trnComplex, float complex, float)
HOST_WRAP(CcsrlsvcholHost, trnComplex, float complex, float)

/* The header's checks on x (host, complex double) for problem p; u the
 * type's. */
static void check_x(const char *what, int p, const double complex *x, long double u) {
    long double anorm = 0, rn = 0, xn = 0, dn = 0, refn = 0;
    for (int i = 0; i < N; i++) {
        long double complex r = rhs[i];
        long double s = 0;
        for (int j = 0; j < N; j++) {
            r -= (long double complex)dense[p][(size_t)j * N + i] * x[j];
            s += cabsl(dense[p][(size_t)j * N + i]);
        }
        const long double complex want = ref[p][1 + 2 * i] + I * (long double)ref[p][2 + 2 * i];
        anorm = fmaxl(anorm, s);
        rn = fmaxl(rn, cabsl(r));
        xn = fmaxl(xn, cabsl(x[i]));
        dn = fmaxl(dn, cabsl(x[i] - want));
        refn = fmaxl(refn, cabsl(want));
    }
    const long double eta = rn / (anorm * xn), eta_lim = 16.0L * N * u;
    const long double fwd = dn / refn, fwd_lim = 16.0L * N * (long double)ref[p][0] * u;
    char name[80];
    snprintf(name, sizeof(name), "%s backward error", what);
    st_note(name, eta / eta_lim, 1.0L);
    snprintf(name, sizeof(name), "%s forward error", what);
    st_note(name, fwd / fwd_lim, 1.0L);
    if (!(eta <= eta_lim) || !(fwd <= fwd_lim))
        fail_msg("%s: backward error %Lg (limit %Lg), forward %Lg (limit %Lg)", what, eta, eta_lim,
                 fwd, fwd_lim);
}

/* x of the device result raw (C: float complex, Z: double complex). */
static void widen(int dbl, const void *raw, double complex *x) {
    for (int i = 0; i < N; i++)
        x[i] = dbl ? ((const double complex *)raw)[i] : ((const float complex *)raw)[i];
}

static void test_solve(void **state) {
    (void)state;
    trnsolverSpHandle_t h;
    assert_int_equal(trnsolverSpCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    trnsparseMatDescr_t descr;
    assert_int_equal(trnsparseCreateMatDescr(&descr), TRNSPARSE_STATUS_SUCCESS);
    static csr c;
    float complex bf[N];
    for (int i = 0; i < N; i++)
        bf[i] = (float complex)rhs[i];
    for (int base = 0; base < 2; base++) {
        assert_int_equal(trnsparseSetMatIndexBase(descr, base ? TRNSPARSE_INDEX_BASE_ONE
                                                              : TRNSPARSE_INDEX_BASE_ZERO),
                         TRNSPARSE_STATUS_SUCCESS);
        for (int p = 0; p < NPROB; p++)
            for (int chol = 0; chol < 2; chol++) {
                if (chol && p != P_HPD)
                    continue;
                make_csr(&c, p, base, chol);
                for (int dbl = 0; dbl < 2; dbl++) {
                    const size_t es = dbl ? sizeof(double complex) : sizeof(float complex);
                    const void *hv = dbl ? (const void *)c.val : (const void *)c.valf;
                    const void *hb = dbl ? (const void *)rhs : (const void *)bf;
                    double complex x[N];
                    unsigned char raw[N * sizeof(double complex)];
                    sp_lsv_device(h, dbl ? TY_Z : TY_C, chol, N, c.nnz, descr, hv, c.rowptr, c.col,
                                  hb, raw);
                    widen(dbl, raw, x);
                    char what[64];
                    snprintf(what, sizeof(what), "%s%s %s", dbl ? "Z" : "C",
                             chol ? "csrlsvchol" : "csrlsvqr", p == P_HPD ? "hpd" : "gen");
                    check_x(what, p, x, dbl ? ldexpl(1, -53) : ldexpl(1, -24));
                    /* The Host form gives the same bits. */
                    double complex xh[N];
                    float complex xhf[N];
                    int sing = 7;
                    trnsolverStatus_t st;
                    if (dbl)
                        st = chol ? ZcsrlsvcholHost_c99(h, N, c.nnz, descr, c.val, c.rowptr, c.col,
                                                        rhs, 1e-12, 0, xh, &sing)
                                  : ZcsrlsvqrHost_c99(h, N, c.nnz, descr, c.val, c.rowptr, c.col,
                                                      rhs, 1e-12, 1, xh, &sing);
                    else
                        st = chol ? CcsrlsvcholHost_c99(h, N, c.nnz, descr, c.valf, c.rowptr, c.col,
                                                        bf, 1e-6f, 2, xhf, &sing)
                                  : CcsrlsvqrHost_c99(h, N, c.nnz, descr, c.valf, c.rowptr, c.col,
                                                      bf, 1e-6f, 3, xhf, &sing);
                    assert_int_equal(st, TRNSOLVER_STATUS_SUCCESS);
                    assert_int_equal(sing, -1);
                    assert_memory_equal(dbl ? (void *)xh : (void *)xhf, raw, N * es);
                }
            }
    }
    assert_int_equal(trnsparseDestroyMatDescr(descr), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsolverSpDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* C and Z csrqrsvBatched over two systems (A and 2 A, the same b). */
static void test_batched(void **state) {
    (void)state;
    trnsolverSpHandle_t h;
    assert_int_equal(trnsolverSpCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    trnsparseMatDescr_t descr;
    assert_int_equal(trnsparseCreateMatDescr(&descr), TRNSPARSE_STATUS_SUCCESS);
    csrqrInfo_t info;
    assert_int_equal(trnsolverSpCreateCsrqrInfo(&info), TRNSOLVER_STATUS_SUCCESS);
    static csr c;
    make_csr(&c, P_GEN, 0, 0);
    float complex bf[2 * N];
    double complex bd[2 * N];
    for (int i = 0; i < 2 * N; i++) {
        bd[i] = rhs[i % N];
        bf[i] = (float complex)rhs[i % N];
    }
    int *dr = sp_upload(c.rowptr, sizeof(c.rowptr));
    int *dc = sp_upload(c.col, (size_t)c.nnz * sizeof(int));
    assert_int_equal(trnsolverSpXcsrqrAnalysisBatched(h, N, N, c.nnz, descr, dr, dc, info),
                     TRNSOLVER_STATUS_SUCCESS);
    for (int dbl = 0; dbl < 2; dbl++) {
        const size_t es = dbl ? sizeof(double complex) : sizeof(float complex);
        /* val / valf hold A's values then 2 A's, nnz each. */
        void *dv =
            sp_upload(dbl ? (const void *)c.val : (const void *)c.valf, 2 * (size_t)c.nnz * es);
        void *db = sp_upload(dbl ? (const void *)bd : (const void *)bf, 2 * N * es);
        void *dx = sp_upload(dbl ? (const void *)bd : (const void *)bf, 2 * N * es);
        size_t internal = 9, ws = 0;
        trnsolverStatus_t st =
            dbl ? trnsolverSpZcsrqrBufferInfoBatched(h, N, N, c.nnz, descr, dv, dr, dc, 2, info,
                                                     &internal, &ws)
                : trnsolverSpCcsrqrBufferInfoBatched(h, N, N, c.nnz, descr, dv, dr, dc, 2, info,
                                                     &internal, &ws);
        assert_int_equal(st, TRNSOLVER_STATUS_SUCCESS);
        void *buf;
        assert_int_equal(trnsciMalloc(&buf, ws ? ws : 1), trnsciSuccess);
        st = dbl ? trnsolverSpZcsrqrsvBatched(h, N, N, c.nnz, descr, dv, dr, dc, db, dx, 2, info,
                                              buf)
                 : trnsolverSpCcsrqrsvBatched(h, N, N, c.nnz, descr, dv, dr, dc, db, dx, 2, info,
                                              buf);
        if (st != TRNSOLVER_STATUS_SUCCESS)
            fail_msg("status %d: %s", (int)st, trnsciGetLastErrorMessage());
        unsigned char raw[2 * N * sizeof(double complex)];
        assert_int_equal(trnsciMemcpy(raw, dx, 2 * N * es, trnsciMemcpyDeviceToHost),
                         trnsciSuccess);
        double complex x[N], x1[N];
        widen(dbl, raw, x);
        widen(dbl, raw + N * es, x1);
        check_x(dbl ? "ZcsrqrsvBatched" : "CcsrqrsvBatched", P_GEN, x, ldexpl(1, dbl ? -53 : -24));
        for (int i = 0; i < N; i++)
            assert_true(x1[i] == 0.5 * x[i]);
        /* System 0 is csrlsvqr with tol 0. */
        unsigned char one[N * sizeof(double complex)];
        int sing = 7;
        st = dbl ? ZcsrlsvqrHost_c99(h, N, c.nnz, descr, c.val, c.rowptr, c.col, rhs, 0.0, 0,
                                     (void *)one, &sing)
                 : CcsrlsvqrHost_c99(h, N, c.nnz, descr, c.valf, c.rowptr, c.col, bf, 0.0f, 0,
                                     (void *)one, &sing);
        assert_int_equal(st, TRNSOLVER_STATUS_SUCCESS);
        assert_memory_equal(one, raw, N * es);
        void *all[] = {dv, db, dx, buf};
        for (int k = 0; k < 4; k++)
            assert_int_equal(trnsciFree(all[k]), trnsciSuccess);
    }
    /* Least squares (m > n) is not supported, as for S and D. */
    size_t internal = 0, ws = 0;
    assert_int_equal(trnsolverSpCcsrqrBufferInfoBatched(h, N + 1, N, c.nnz, descr, NULL, dr, dc, 1,
                                                        info, &internal, &ws),
                     TRNSOLVER_STATUS_NOT_SUPPORTED);
    assert_int_equal(
        trnsolverSpZcsrqrsvBatched(h, N, N, c.nnz, descr, NULL, dr, dc, NULL, NULL, -1, info, NULL),
        TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsciFree(dr), trnsciSuccess);
    assert_int_equal(trnsciFree(dc), trnsciSuccess);
    assert_int_equal(trnsolverSpDestroyCsrqrInfo(info), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsparseDestroyMatDescr(descr), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsolverSpDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* A zero column k: singularity k with tol 0, x untouched; a huge tol: 0. */
static void test_singular(void **state) {
    (void)state;
    trnsolverSpHandle_t h;
    assert_int_equal(trnsolverSpCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    trnsparseMatDescr_t descr;
    assert_int_equal(trnsparseCreateMatDescr(&descr), TRNSPARSE_STATUS_SUCCESS);
    static csr c;
    const int k = 11;
    static double complex saved[N * N];
    memcpy(saved, dense[P_HPD], sizeof(saved));
    for (int i = 0; i < N; i++)
        dense[P_HPD][(size_t)k * N + i] = dense[P_HPD][(size_t)i * N + k] = 0.0;
    make_csr(&c, P_HPD, 0, 0);
    memcpy(dense[P_HPD], saved, sizeof(saved));
    double complex x[N];
    for (int i = 0; i < N; i++)
        x[i] = 42.0 + 1.0 * I;
    for (int chol = 0; chol < 2; chol++) {
        int sing = -7;
        const trnsolverStatus_t st = chol ? ZcsrlsvcholHost_c99(h, N, c.nnz, descr, c.val, c.rowptr,
                                                                c.col, rhs, 0.0, 0, x, &sing)
                                          : ZcsrlsvqrHost_c99(h, N, c.nnz, descr, c.val, c.rowptr,
                                                              c.col, rhs, 0.0, 0, x, &sing);
        assert_int_equal(st, TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(sing, k);
        for (int i = 0; i < N; i++)
            assert_true(x[i] == 42.0 + 1.0 * I);
    }
    int sing = -7;
    float complex bf[N], xf[N];
    for (int i = 0; i < N; i++)
        bf[i] = (float complex)rhs[i];
    make_csr(&c, P_GEN, 0, 0);
    assert_int_equal(
        CcsrlsvqrHost_c99(h, N, c.nnz, descr, c.valf, c.rowptr, c.col, bf, 1e10f, 0, xf, &sing),
        TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(sing, 0);
    assert_int_equal(trnsparseDestroyMatDescr(descr), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsolverSpDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_bad_input(void **state) {
    (void)state;
    trnsolverSpHandle_t h;
    assert_int_equal(trnsolverSpCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    trnsparseMatDescr_t descr;
    assert_int_equal(trnsparseCreateMatDescr(&descr), TRNSPARSE_STATUS_SUCCESS);
    static csr c;
    make_csr(&c, P_GEN, 0, 0);
    double complex x[N];
    float complex bf[N], xf[N];
    for (int i = 0; i < N; i++)
        bf[i] = (float complex)rhs[i];
    int sing = 0;
    assert_int_equal(
        ZcsrlsvqrHost_c99(NULL, N, c.nnz, descr, c.val, c.rowptr, c.col, rhs, 0.0, 0, x, &sing),
        TRNSOLVER_STATUS_NOT_INITIALIZED);
    assert_int_equal(
        ZcsrlsvqrHost_c99(h, -1, c.nnz, descr, c.val, c.rowptr, c.col, rhs, 0.0, 0, x, &sing),
        TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(
        ZcsrlsvcholHost_c99(h, N, c.nnz, descr, c.val, c.rowptr, c.col, rhs, -1.0, 0, x, &sing),
        TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("tol=-1");
    assert_int_equal(
        ZcsrlsvqrHost_c99(h, N, c.nnz, descr, c.val, c.rowptr, c.col, rhs, 0.0, 5, x, &sing),
        TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("reorder=5");
    assert_int_equal(
        ZcsrlsvqrHost_c99(h, N, c.nnz, descr, c.val, c.rowptr, c.col, rhs, 0.0, 0, x, NULL),
        TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(
        trnsolverSpCcsrlsvchol(h, N, c.nnz, descr, NULL, NULL, NULL, NULL, 0.0f, 0, NULL, NULL),
        TRNSOLVER_STATUS_INVALID_VALUE);
    /* b in host memory for the device form. */
    void *dv = sp_upload(c.val, (size_t)c.nnz * sizeof(double complex));
    int *dr = sp_upload(c.rowptr, sizeof(c.rowptr));
    int *dc = sp_upload(c.col, (size_t)c.nnz * sizeof(int));
    void *dx = sp_upload(rhs, sizeof(rhs));
    assert_int_equal(trnsolverSpZcsrlsvqr(h, N, c.nnz, descr, dv, dr, dc,
                                          (const trnDoubleComplex *)rhs, 0.0, 0, dx, &sing),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("b");
    /* x one element short of its allocation's end. */
    assert_int_equal(trnsolverSpZcsrlsvqr(h, N, c.nnz, descr, dv, dr, dc, dx, 0.0, 0,
                                          (trnDoubleComplex *)dx + 1, &sing),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    /* A column index out of range: the kernel refuses the structure. */
    const int saved = c.col[3];
    c.col[3] = N + 5;
    assert_true(ZcsrlsvqrHost_c99(h, N, c.nnz, descr, c.val, c.rowptr, c.col, rhs, 0.0, 0, x,
                                  &sing) != TRNSOLVER_STATUS_SUCCESS);
    c.col[3] = saved;
    trnsciGetLastError();
    void *all[] = {dv, dr, dc, dx};
    for (int k = 0; k < 4; k++)
        assert_int_equal(trnsciFree(all[k]), trnsciSuccess);
    /* Not a GENERAL matrix. */
    assert_int_equal(trnsparseSetMatType(descr, TRNSPARSE_MATRIX_TYPE_HERMITIAN),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(
        CcsrlsvcholHost_c99(h, N, c.nnz, descr, c.valf, c.rowptr, c.col, bf, 0.0f, 0, xf, &sing),
        TRNSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED);
    assert_int_equal(trnsparseDestroyMatDescr(descr), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsolverSpDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

int main(void) {
    if (make_problems() != 0)
        return 1;
    if (st_start(&daemon_under_test) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solve),
        cmocka_unit_test(test_batched),
        cmocka_unit_test(test_singular),
        cmocka_unit_test(test_bad_input),
    };
    int failed = ST_RUN_BOTH("solverSp complex", tests);
    failed += st_finish("solver_sp_complex");
    return failed ? 1 : 0;
}
