/*
 * test_solver_sp.c — trnsolverSp (cusolverSp): csrlsvqr, csrlsvchol, their
 * Host forms and csrqrsvBatched through a real trnscid over the local
 * transport and gRPC.
 *
 * Problems (n = 30, 0- and 1-based CSR): a sparse symmetric positive
 * definite matrix (tridiag(-1, 8, -1) plus about one symmetric pair a row
 * of off-diagonal entries of magnitude < 0.5: Gershgorin keeps it positive
 * definite unless a row gets more than twelve)
 * and a sparse nonsymmetric one (the same pattern made nonsymmetric). The
 * reference is numpy.linalg.solve in double on the matrix as stored
 * (solver_ref.py "solve", Debian's python3), with kappa_inf(A).
 * Checks, u the type's unit roundoff: normwise backward error max ||b - A
 * x||_inf / (||A||_inf ||x||_inf) computed here in long double at most 8 n u
 * (Householder QR and Cholesky are backward stable with constants ~n:
 * Higham, Accuracy and Stability, Thms 19.5 and 10.3), and forward error
 * against numpy at most 8 n kappa_inf u. csrlsvchol reads the lower
 * triangle only: its upper triangle is set to garbage and must not matter.
 * Singularity: a zero column k makes R(k,k) and L(k,k) exactly 0, so
 * singularity = k with tol 0 and x untouched; tol above every |R(j,j)|
 * gives 0. Bad input: the cuSOLVER statuses.
 */
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

enum { P_SPD, P_GEN, NPROB };
static double dense[NPROB][N * N]; /* column-major */
static double rhs[N];
static double *ref[NPROB]; /* kappa_inf, then x */

static int make_problems(void) {
    st_rng = 0x5e1fULL;
    for (int p = 0; p < NPROB; p++) {
        double *a = dense[p];
        memset(a, 0, sizeof(dense[p]));
        for (int i = 0; i < N; i++) {
            a[(size_t)i * N + i] = 8.0;
            if (i > 0)
                a[(size_t)(i - 1) * N + i] = a[(size_t)i * N + i - 1] = -1.0;
        }
        for (int k = 0; k < N; k++) { /* a few more entries, |v| < 0.5 */
            /* st_uniform is in [-1, 1) */
            const int i = (int)((st_uniform() + 1.0L) * 0.5L * N) % N;
            const int j = (int)((st_uniform() + 1.0L) * 0.5L * N) % N;
            if (abs(i - j) < 2)
                continue;
            const double v = (double)(0.5L * st_uniform());
            a[(size_t)j * N + i] = v;
            a[(size_t)i * N + j] = p == P_SPD ? v : -0.5 * v;
        }
    }
    for (int i = 0; i < N; i++)
        rhs[i] = (double)st_uniform();
    char dir[] = "/tmp/trnsci-solver-sp-XXXXXX";
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
        if (!fp || fwrite(dense[p], sizeof(double), N * N, fp) != N * N)
            return -1;
        fclose(fp);
        snprintf(path, sizeof(path), "%s/p%d.b", dir, p);
        fp = fopen(path, "wb");
        if (!fp || fwrite(rhs, sizeof(double), N, fp) != N)
            return -1;
        fclose(fp);
        fprintf(man, "solve p%d f64 %d 1\n", p, N);
    }
    fclose(man);
    const char *const argv[] = {PYTHON3, SOLVER_REF_PY, dir, NULL};
    const int rc = th_run(argv, NULL);
    int bad = rc != 0;
    for (int p = 0; p < NPROB && !bad; p++) {
        snprintf(path, sizeof(path), "%s/p%d.out", dir, p);
        FILE *fp = fopen(path, "rb");
        ref[p] = calloc(N + 1, sizeof(double));
        bad |= !fp || !ref[p] || fread(ref[p], sizeof(double), N + 1, fp) != N + 1;
        if (fp)
            fclose(fp);
    }
    th_remove_dir(dir);
    if (bad)
        fprintf(stderr, "solver_ref.py failed (exit %d)\n", rc);
    return bad ? -1 : 0;
}

/* A CSR copy of problem p (chol: the upper triangle replaced by 1e30, which
 * csrlsvchol must not read), with the given base; values as float when
 * single. Returns nnz. */
typedef struct csr {
    int nnz;
    int rowptr[N + 1];
    int col[N * N];
    double val[N * N];
    float valf[N * N];
} csr;

static void make_csr(csr *c, int p, int base, int chol) {
    c->nnz = 0;
    for (int i = 0; i < N; i++) {
        c->rowptr[i] = c->nnz + base;
        for (int j = 0; j < N; j++) {
            const double v = dense[p][(size_t)j * N + i];
            if (v == 0.0)
                continue;
            c->col[c->nnz] = j + base;
            c->val[c->nnz] = chol && j > i ? 1e30 : v;
            c->valf[c->nnz] = (float)c->val[c->nnz];
            c->nnz++;
        }
    }
    c->rowptr[N] = c->nnz + base;
}

/* The header's checks on x (host, double) for problem p; u the type's. */
static void check_x(const char *what, int p, const double *x, long double u) {
    long double anorm = 0, rn = 0, xn = 0, dn = 0, refn = 0;
    for (int i = 0; i < N; i++) {
        long double r = rhs[i], s = 0;
        for (int j = 0; j < N; j++) {
            r -= (long double)dense[p][(size_t)j * N + i] * x[j];
            s += fabsl((long double)dense[p][(size_t)j * N + i]);
        }
        anorm = fmaxl(anorm, s);
        rn = fmaxl(rn, fabsl(r));
        xn = fmaxl(xn, fabsl((long double)x[i]));
        dn = fmaxl(dn, fabsl((long double)x[i] - ref[p][1 + i]));
        refn = fmaxl(refn, fabsl((long double)ref[p][1 + i]));
    }
    const long double eta = rn / (anorm * xn), eta_lim = 8.0L * N * u;
    const long double fwd = dn / refn, fwd_lim = 8.0L * N * (long double)ref[p][0] * u;
    char name[80];
    snprintf(name, sizeof(name), "%s backward error", what);
    st_note(name, eta / eta_lim, 1.0L);
    snprintf(name, sizeof(name), "%s forward error", what);
    st_note(name, fwd / fwd_lim, 1.0L);
    if (!(eta <= eta_lim) || !(fwd <= fwd_lim))
        fail_msg("%s: backward error %Lg (limit %Lg), forward %Lg (limit %Lg)", what, eta, eta_lim,
                 fwd, fwd_lim);
}

static void test_solve(void **state) {
    (void)state;
    trnsolverSpHandle_t h;
    assert_int_equal(trnsolverSpCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    trnsparseMatDescr_t descr;
    assert_int_equal(trnsparseCreateMatDescr(&descr), TRNSPARSE_STATUS_SUCCESS);
    static csr c;
    for (int base = 0; base < 2; base++) {
        assert_int_equal(trnsparseSetMatIndexBase(descr, base ? TRNSPARSE_INDEX_BASE_ONE
                                                              : TRNSPARSE_INDEX_BASE_ZERO),
                         TRNSPARSE_STATUS_SUCCESS);
        for (int p = 0; p < NPROB; p++)
            for (int chol = 0; chol < 2; chol++) {
                if (chol && p != P_SPD)
                    continue;
                make_csr(&c, p, base, chol);
                for (int dbl = 0; dbl < 2; dbl++) {
                    const size_t es = dbl ? sizeof(double) : sizeof(float);
                    const void *hv = dbl ? (const void *)c.val : (const void *)c.valf;
                    float bf[N];
                    for (int i = 0; i < N; i++)
                        bf[i] = (float)rhs[i];
                    const void *hb = dbl ? (const void *)rhs : (const void *)bf;
                    double x[N];
                    unsigned char raw[N * sizeof(double)];
                    sp_lsv_device(h, dbl ? TY_D : TY_S, chol, N, c.nnz, descr, hv, c.rowptr, c.col,
                                  hb, raw);
                    for (int i = 0; i < N; i++)
                        x[i] = dbl ? ((double *)raw)[i] : ((float *)raw)[i];
                    char what[64];
                    snprintf(what, sizeof(what), "%s%s %s", dbl ? "D" : "S",
                             chol ? "csrlsvchol" : "csrlsvqr", p == P_SPD ? "spd" : "gen");
                    check_x(what, p, x, dbl ? ldexpl(1, -53) : ldexpl(1, -24));
                    /* The Host form gives the same bits. */
                    double xh[N];
                    float xhf[N];
                    int sing = 7;
                    trnsolverStatus_t st;
                    if (dbl)
                        st = chol ? trnsolverSpDcsrlsvcholHost(h, N, c.nnz, descr, c.val, c.rowptr,
                                                               c.col, rhs, 1e-12, 0, xh, &sing)
                                  : trnsolverSpDcsrlsvqrHost(h, N, c.nnz, descr, c.val, c.rowptr,
                                                             c.col, rhs, 1e-12, 1, xh, &sing);
                    else
                        st = chol ? trnsolverSpScsrlsvcholHost(h, N, c.nnz, descr, c.valf, c.rowptr,
                                                               c.col, bf, 1e-6f, 2, xhf, &sing)
                                  : trnsolverSpScsrlsvqrHost(h, N, c.nnz, descr, c.valf, c.rowptr,
                                                             c.col, bf, 1e-6f, 3, xhf, &sing);
                    assert_int_equal(st, TRNSOLVER_STATUS_SUCCESS);
                    assert_int_equal(sing, -1);
                    assert_memory_equal(dbl ? (void *)xh : (void *)xhf, raw, N * es);
                }
            }
    }
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
    double saved[N * N];
    memcpy(saved, dense[P_SPD], sizeof(saved));
    for (int i = 0; i < N; i++)
        dense[P_SPD][(size_t)k * N + i] = dense[P_SPD][(size_t)i * N + k] = 0.0;
    make_csr(&c, P_SPD, 0, 0);
    memcpy(dense[P_SPD], saved, sizeof(saved));
    double x[N];
    for (int i = 0; i < N; i++)
        x[i] = 42.0;
    for (int chol = 0; chol < 2; chol++) {
        int sing = -7;
        const trnsolverStatus_t st =
            chol ? trnsolverSpDcsrlsvcholHost(h, N, c.nnz, descr, c.val, c.rowptr, c.col, rhs, 0.0,
                                              0, x, &sing)
                 : trnsolverSpDcsrlsvqrHost(h, N, c.nnz, descr, c.val, c.rowptr, c.col, rhs, 0.0, 0,
                                            x, &sing);
        assert_int_equal(st, TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(sing, k);
        for (int i = 0; i < N; i++)
            assert_true(x[i] == 42.0);
    }
    int sing = -7;
    make_csr(&c, P_GEN, 0, 0);
    assert_int_equal(trnsolverSpDcsrlsvqrHost(h, N, c.nnz, descr, c.val, c.rowptr, c.col, rhs, 1e10,
                                              0, x, &sing),
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
    double x[N];
    int sing = 0;
    assert_int_equal(trnsolverSpDcsrlsvqrHost(NULL, N, c.nnz, descr, c.val, c.rowptr, c.col, rhs,
                                              0.0, 0, x, &sing),
                     TRNSOLVER_STATUS_NOT_INITIALIZED);
    assert_int_equal(trnsolverSpDcsrlsvqrHost(h, -1, c.nnz, descr, c.val, c.rowptr, c.col, rhs, 0.0,
                                              0, x, &sing),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverSpDcsrlsvqrHost(h, N, c.nnz, descr, c.val, c.rowptr, c.col, rhs, -1.0,
                                              0, x, &sing),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("tol=-1");
    assert_int_equal(
        trnsolverSpDcsrlsvqrHost(h, N, c.nnz, descr, c.val, c.rowptr, c.col, rhs, 0.0, 4, x, &sing),
        TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("reorder=4");
    assert_int_equal(
        trnsolverSpDcsrlsvqrHost(h, N, c.nnz, descr, c.val, c.rowptr, c.col, rhs, 0.0, 0, x, NULL),
        TRNSOLVER_STATUS_INVALID_VALUE);
    /* A column index out of range: the kernel refuses the structure. */
    const int saved = c.col[3];
    c.col[3] = N + 5;
    assert_true(trnsolverSpDcsrlsvqrHost(h, N, c.nnz, descr, c.val, c.rowptr, c.col, rhs, 0.0, 0, x,
                                         &sing) != TRNSOLVER_STATUS_SUCCESS);
    c.col[3] = saved;
    trnsciGetLastError();
    /* Too large for the dense factorisation. */
    int *rp;
    assert_int_equal(trnsciMalloc((void **)&rp, (size_t)(9000 + 1) * sizeof(int)), trnsciSuccess);
    assert_int_equal(trnsciMemset(rp, 0, (size_t)(9000 + 1) * sizeof(int)), trnsciSuccess);
    double *v;
    assert_int_equal(trnsciMalloc((void **)&v, 9000 * sizeof(double)), trnsciSuccess);
    assert_int_equal(trnsolverSpDcsrlsvqr(h, 9000, 0, descr, v, rp, rp, v, 0.0, 0, v, &sing),
                     TRNSOLVER_STATUS_NOT_SUPPORTED);
    assert_int_equal(trnsciFree(rp), trnsciSuccess);
    assert_int_equal(trnsciFree(v), trnsciSuccess);
    /* Not a GENERAL matrix. */
    assert_int_equal(trnsparseSetMatType(descr, TRNSPARSE_MATRIX_TYPE_SYMMETRIC),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(
        trnsolverSpDcsrlsvqrHost(h, N, c.nnz, descr, c.val, c.rowptr, c.col, rhs, 0.0, 0, x, &sing),
        TRNSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED);
    assert_int_equal(trnsparseDestroyMatDescr(descr), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsolverSpDestroy(h), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverSpDestroy(NULL), TRNSOLVER_STATUS_NOT_INITIALIZED);
}

int main(void) {
    if (make_problems() != 0)
        return 1;
    if (st_start(&daemon_under_test) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solve),
        cmocka_unit_test(test_singular),
        cmocka_unit_test(test_bad_input),
    };
    int failed = ST_RUN_BOTH("solverSp", tests);
    failed += st_finish("solver_sp");
    return failed ? 1 : 0;
}
