/*
 * test_solver_kpar.c — CG, BiCGStab and GMRES big enough to run over every core
 * (ops/solver_kpar.h: a looping sequence of sharded steps) through real
 * trnscid daemons of 1 and 2 cores (--cores), on CSR, BSR and dense
 * operators, in S and D, without and with the Jacobi preconditioner. (How
 * the steps behave cut into 3 or more shards is tests/unit/test_solver_kpar.c's.)
 *
 * The problem: the 5-point Laplacian on a G x G grid (G = 400, n = 160000,
 * ~800k stored entries: above TRN_KPAR_MIN_ELEMS) plus a diagonal shift
 * c_i = 0.1 + 0.5 (i mod 7), which makes the Jacobi preconditioner matter
 * and keeps the solve short: A is symmetric with eigenvalues in
 * [0.1, 11.1] (Gershgorin), so kappa_2(A) <= 111. b: uniform in [-1, 1).
 *
 * Checks:
 *  - x, the iteration count, the status and the recorded residual are
 *    bitwise the same on 1 and 2 cores (docs/numerics.md "Krylov solves
 *    over every core");
 *  - D: converged, the true relative residual ||b - A x||_2 / ||b||_2,
 *    recomputed here in long double, at most 1.01 tol (the record's is
 *    computed in double from the same x; they agree to ~n u), and equal to
 *    the record's to 1e-2 relative; the forward error against scipy's
 *    spsolve (kpar_ref.py, double, its own error ~kappa u) at most
 *    kappa_2 (1.01 tol) + 1e-12 (||x - x*|| / ||x*|| <= kappa ||r|| / ||b||);
 *  - S: converged, and the true residual (with the float matrix the daemon
 *    saw) at most tol + 8 u_32 || |A| |x| + |b| ||_2 / ||b||_2: the daemon
 *    decides on its own float residual, whose rounding is at most
 *    gamma_{6} (|A||x| + |b|) per row (5 products and a subtraction);
 *  - BSR (2 x 2 blocks) and dense (G = 32, n = 1024, two 512-row blocks)
 *    operators converge and agree bitwise on 1 and 2 cores;
 *  - the 1-core daemon runs with --convert-ahead off (which leaves the
 *    solve's state where it is: a block of the op scratch pool);
 *  - edges, on both daemons alike: b = 0 gives x = 0 in 0 iterations; an
 *    iteration limit of 5 gives MAX_ITERS after 5 with the residual above
 *    tol; a NaN in b gives NONFINITE; a zero diagonal entry refuses Jacobi
 *    (PRECOND_FAILED, x untouched); a column index out of range fails the
 *    solve at the next synchronize with trnsciErrorInvalidValue and the
 *    message naming the array and position, as a one-core solve does.
 *
 * BiCGStab, the same way, on a nonsymmetric problem: the grid above with a
 * convection term (east neighbour -1.3, west -0.7; An). Its symmetric part
 * is the CG problem's matrix, whose eigenvalues are >= 0.1, so
 * ||An x||_2 >= 0.1 ||x||_2 (x^T An x = x^T S x) and ||An^-1||_2 <= 10;
 * ||An||_2 <= sqrt(||An||_1 ||An||_inf) <= 11.1: kappa_2(An) <= 111 again,
 * and the same bounds hold (forward error against scipy's spsolve of An:
 * at most kappa_2 (1.01 tol) + 1e-12).
 *  - CSR S and D without and with Jacobi, BSR D, dense S and D: bitwise
 *    alike on 1 and 2 cores, converged as above;
 *  - edges on both daemons alike: b = 0 (x = 0, 0 iterations); a limit of
 *    5 (MAX_ITERS after 5, residual above tol); a NaN in b (NONFINITE);
 *    r^ . v = 0 at the first step (A the cyclic shift A e_j = e_{j-1},
 *    n = 2^19 stored entries, b = e_0: v = e_{n-1}) is BREAKDOWN after 0
 *    iterations with x = x0 = 0 and residual 1, as the one-kernel
 *    BiCGStab reports it (tests/unit/test_solver_kpar.c compares the two).
 *
 * GMRES(30) on An the same way (dense: GMRES(7) with Jacobi, several
 * restarts), with the same bounds; its edges: b = 0, a limit of 5, a NaN
 * in b, and the nilpotent shift (A e_j = e_{j-1}, A e_0 = 0, b = e_0:
 * A b = 0, an invariant Krylov space with no better x) as BREAKDOWN after
 * 1 iteration with x = 0 and residual 1.
 */
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

#define NDAEMONS 2
static th_daemon daemons[NDAEMONS]; /* 1 and 2 cores */

#define G 400
#define N (G * G)
#define KAPPA 111.0L /* (4 + 3.1 + 4) / 0.1, the Gershgorin bounds */

typedef struct host_csr {
    int n, nnz;
    int32_t *rowptr, *col;
    double *val;
} host_csr;

static host_csr A;     /* the G x G problem */
static double *b_host; /* its right-hand side */
static double *x_ref;  /* scipy's spsolve */
static host_csr An;    /* the nonsymmetric G x G problem (BiCGStab) */
static double *xn_ref; /* scipy's spsolve of An x = b_host */

static uint64_t rng = 0x2545f4914f6cdd1dULL;
static double uniform(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static void make_grid(host_csr *m, int g, int skew) {
    const int n = g * g;
    m->n = n;
    m->rowptr = malloc(((size_t)n + 1) * sizeof(int32_t));
    m->col = malloc((size_t)n * 5 * sizeof(int32_t));
    m->val = malloc((size_t)n * 5 * sizeof(double));
    assert_non_null(m->rowptr);
    assert_non_null(m->col);
    assert_non_null(m->val);
    int k = 0;
    for (int i = 0; i < n; i++) {
        const int x = i % g, y = i / g;
        m->rowptr[i] = k;
        const int nb[5] = {y > 0 ? i - g : -1, x > 0 ? i - 1 : -1, i, x < g - 1 ? i + 1 : -1,
                           y < g - 1 ? i + g : -1};
        for (int e = 0; e < 5; e++) {
            if (nb[e] < 0)
                continue;
            m->col[k] = nb[e];
            m->val[k] = nb[e] == i               ? 4.0 + 0.1 + 0.5 * (i % 7)
                        : skew && nb[e] == i + 1 ? -1.3
                        : skew && nb[e] == i - 1 ? -0.7
                                                 : -1.0;
            k++;
        }
    }
    m->rowptr[n] = k;
    m->nnz = k;
}

static void free_grid(host_csr *m) {
    free(m->rowptr);
    free(m->col);
    free(m->val);
}

/* x = scipy.sparse.linalg.spsolve(A, b) through kpar_ref.py. */
static int reference(void) {
    char dir[] = "/tmp/trnsci-kpar-XXXXXX";
    if (!mkdtemp(dir))
        return -1;
    char path[600];
    const host_csr *const ms[2] = {&A, &An};
    const char *const names[2] = {"p", "q"};
    for (int q = 0; q < 2; q++) {
        struct {
            const char *ext;
            const void *p;
            size_t bytes;
        } files[] = {{"rowptr", ms[q]->rowptr, ((size_t)N + 1) * 4},
                     {"col", ms[q]->col, (size_t)ms[q]->nnz * 4},
                     {"val", ms[q]->val, (size_t)ms[q]->nnz * 8},
                     {"b", b_host, (size_t)N * 8}};
        for (int f = 0; f < 4; f++) {
            snprintf(path, sizeof(path), "%s/%s.%s", dir, names[q], files[f].ext);
            FILE *fp = fopen(path, "wb");
            if (!fp || fwrite(files[f].p, 1, files[f].bytes, fp) != files[f].bytes)
                return -1;
            fclose(fp);
        }
    }
    snprintf(path, sizeof(path), "%s/manifest.txt", dir);
    FILE *man = fopen(path, "w");
    if (!man)
        return -1;
    fprintf(man, "spsolve p %d %d\nspsolve q %d %d\n", N, A.nnz, N, An.nnz);
    fclose(man);
    const char *const argv[] = {PYTHON3, KPAR_REF_PY, dir, NULL};
    const int rc = th_run(argv, NULL);
    x_ref = malloc((size_t)N * sizeof(double));
    xn_ref = malloc((size_t)N * sizeof(double));
    double *const outs[2] = {x_ref, xn_ref};
    int bad = rc != 0 || !x_ref || !xn_ref;
    for (int q = 0; q < 2 && !bad; q++) {
        snprintf(path, sizeof(path), "%s/%s.out", dir, names[q]);
        FILE *fp = fopen(path, "rb");
        bad = !fp || fread(outs[q], sizeof(double), N, fp) != N;
        if (fp)
            fclose(fp);
    }
    th_remove_dir(dir);
    if (bad)
        fprintf(stderr, "kpar_ref.py failed (exit %d)\n", rc);
    return bad ? -1 : 0;
}

typedef enum { OP_CSR, OP_BSR, OP_DENSE } opkind;
enum { M_CG, M_BICG, M_GMRES };
static const char *const method_name[] = {"cg", "bicgstab", "gmres"};
static const char *const opname[] = {"CSR", "BSR", "dense"};

/* A solve's inputs and what came back. */
typedef struct job {
    ty t;
    opkind kind;
    const host_csr *m;
    const double *b;  /* n values */
    const double *x0; /* n values, or NULL: zeros */
    trnsolverPrecond_t pc;
    double tol;
    int maxit;           /* 0: the default */
    int method;          /* M_CG, M_BICG or M_GMRES */
    int restart;         /* GMRES: 0, the default (30) */
    const char *corrupt; /* "col": a column index out of range */
    /* Out. */
    void *x;
    trnsolverIterResult_t r;
} job;

static void *to_type(ty t, const double *v, size_t count) {
    void *h = malloc(count * esize(t) + 1);
    assert_non_null(h);
    for (size_t i = 0; i < count; i++)
        put(t, h, i, v[i]);
    return h;
}

static void *upload(const void *h, size_t bytes) {
    void *d = NULL;
    assert_int_equal(trnsciMalloc(&d, bytes ? bytes : 1), trnsciSuccess);
    if (bytes)
        assert_int_equal(trnsciMemcpy(d, h, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    return d;
}

/* The BSR form of m with 2 x 2 blocks (n even), column-major blocks. */
typedef struct host_bsr {
    int brows, nnzb;
    int32_t *rowptr, *col;
    double *val;
} host_bsr;

static void make_bsr(const host_csr *m, host_bsr *s) {
    const int br = m->n / 2;
    s->brows = br;
    s->rowptr = malloc(((size_t)br + 1) * sizeof(int32_t));
    s->col = malloc((size_t)m->nnz * sizeof(int32_t));
    s->val = calloc((size_t)m->nnz * 4, sizeof(double));
    assert_non_null(s->rowptr);
    assert_non_null(s->col);
    assert_non_null(s->val);
    int k = 0;
    for (int R = 0; R < br; R++) {
        s->rowptr[R] = k;
        int js[16], nj = 0;
        for (int r = 2 * R; r < 2 * R + 2; r++)
            for (int p = m->rowptr[r]; p < m->rowptr[r + 1]; p++) {
                const int J = m->col[p] / 2;
                int q = 0;
                while (q < nj && js[q] != J)
                    q++;
                if (q == nj)
                    js[nj++] = J;
            }
        for (int x = 1; x < nj; x++)
            for (int y = x; y > 0 && js[y - 1] > js[y]; y--) {
                const int tmp = js[y];
                js[y] = js[y - 1];
                js[y - 1] = tmp;
            }
        for (int q = 0; q < nj; q++)
            s->col[k + q] = js[q];
        for (int r = 2 * R; r < 2 * R + 2; r++)
            for (int p = m->rowptr[r]; p < m->rowptr[r + 1]; p++) {
                const int J = m->col[p] / 2;
                int q = 0;
                while (js[q] != J)
                    q++;
                s->val[(size_t)(k + q) * 4 + (size_t)(m->col[p] % 2) * 2 + (size_t)(r % 2)] =
                    m->val[p];
            }
        k += nj;
    }
    s->rowptr[br] = k;
    s->nnzb = k;
}

static void run_job(const char *addr, job *j) {
    const int n = j->m->n;
    const size_t es = esize(j->t);
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const trnsciDataType vt = j->t == TY_S ? TRNSCI_R_32F : TRNSCI_R_64F;
    void *dev[3] = {NULL, NULL, NULL};
    trnsparseSpMatDescr_t descr = NULL;
    trnsolverOperator_t op;
    if (j->kind == OP_CSR) {
        int32_t *col = malloc((size_t)j->m->nnz * sizeof(int32_t));
        assert_non_null(col);
        memcpy(col, j->m->col, (size_t)j->m->nnz * sizeof(int32_t));
        if (j->corrupt)
            col[1000] = n + 5;
        void *val = to_type(j->t, j->m->val, (size_t)j->m->nnz);
        dev[0] = upload(j->m->rowptr, ((size_t)n + 1) * 4);
        dev[1] = upload(col, (size_t)j->m->nnz * 4);
        dev[2] = upload(val, (size_t)j->m->nnz * es);
        free(col);
        free(val);
        assert_int_equal(trnsparseCreateCsr(&descr, n, n, j->m->nnz, dev[0], dev[1], dev[2],
                                            TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                            TRNSPARSE_INDEX_BASE_ZERO, vt),
                         TRNSPARSE_STATUS_SUCCESS);
    } else if (j->kind == OP_BSR) {
        host_bsr s;
        make_bsr(j->m, &s);
        void *val = to_type(j->t, s.val, (size_t)s.nnzb * 4);
        dev[0] = upload(s.rowptr, ((size_t)s.brows + 1) * 4);
        dev[1] = upload(s.col, (size_t)s.nnzb * 4);
        dev[2] = upload(val, (size_t)s.nnzb * 4 * es);
        free(val);
        assert_int_equal(trnsparseCreateBsr(&descr, s.brows, s.brows, s.nnzb, 2, 2, dev[0], dev[1],
                                            dev[2], TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                            TRNSPARSE_INDEX_BASE_ZERO, vt, TRNSPARSE_ORDER_COL),
                         TRNSPARSE_STATUS_SUCCESS);
        free(s.rowptr);
        free(s.col);
        free(s.val);
    } else {
        double *a = calloc((size_t)n * n, sizeof(double));
        assert_non_null(a);
        for (int i = 0; i < n; i++)
            for (int p = j->m->rowptr[i]; p < j->m->rowptr[i + 1]; p++)
                a[(size_t)j->m->col[p] * n + i] = j->m->val[p];
        void *at = to_type(j->t, a, (size_t)n * n);
        free(a);
        dev[0] = upload(at, (size_t)n * n * es);
        free(at);
    }
    if (descr) {
        assert_int_equal(trnsolverCreateSparseOperator(&op, descr), TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(trnsparseDestroySpMat(descr), TRNSPARSE_STATUS_SUCCESS);
    } else {
        assert_int_equal(j->t == TY_S ? trnsolverCreateDenseOperatorS(&op, n, dev[0], n)
                                      : trnsolverCreateDenseOperatorD(&op, n, dev[0], n),
                         TRNSOLVER_STATUS_SUCCESS);
    }
    void *bh = to_type(j->t, j->b, (size_t)n);
    void *xh = j->x0 ? to_type(j->t, j->x0, (size_t)n) : calloc((size_t)n, es);
    assert_non_null(xh);
    void *bd = upload(bh, (size_t)n * es), *xd = upload(xh, (size_t)n * es);
    free(bh);
    trnsolverIterResult_t *res = NULL;
    assert_int_equal(trnsciMalloc((void **)&res, sizeof(*res)), trnsciSuccess);
    assert_int_equal(trnsciMemset(res, 0x7f, sizeof(*res)), trnsciSuccess);
    trnsolverIterParams_t p;
    assert_int_equal(trnsolverCreateIterParams(&p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverIterParamsSetTolerance(p, j->tol), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverIterParamsSetMaxIters(p, j->maxit), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverIterParamsSetPreconditioner(p, j->pc, 0, 0.0),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverIterParamsSetRestart(p, j->restart), TRNSOLVER_STATUS_SUCCESS);
    if (j->method == M_BICG)
        assert_int_equal(j->t == TY_S ? trnsolverSbicgstab(h, op, bd, xd, p, res)
                                      : trnsolverDbicgstab(h, op, bd, xd, p, res),
                         TRNSOLVER_STATUS_SUCCESS);
    else if (j->method == M_GMRES)
        assert_int_equal(j->t == TY_S ? trnsolverSgmres(h, op, bd, xd, p, res)
                                      : trnsolverDgmres(h, op, bd, xd, p, res),
                         TRNSOLVER_STATUS_SUCCESS);
    else
        assert_int_equal(j->t == TY_S ? trnsolverScg(h, op, bd, xd, p, res)
                                      : trnsolverDcg(h, op, bd, xd, p, res),
                         TRNSOLVER_STATUS_SUCCESS);
    if (j->corrupt) {
        assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorInvalidValue);
        st_expect_message("csrColInd[1000]");
        assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess); /* reported once */
    } else {
        assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    }
    j->r = read_result(res);
    j->x = xh;
    assert_int_equal(trnsciMemcpy(xh, xd, (size_t)n * es, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(trnsolverDestroyIterParams(p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDestroyOperator(op), TRNSOLVER_STATUS_SUCCESS);
    for (int d = 0; d < 3; d++)
        if (dev[d])
            assert_int_equal(trnsciFree(dev[d]), trnsciSuccess);
    assert_int_equal(trnsciFree(bd), trnsciSuccess);
    assert_int_equal(trnsciFree(xd), trnsciSuccess);
    assert_int_equal(trnsciFree(res), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
    trnsciDeviceReset();
}

/* Runs j on every daemon; fails unless all agree bitwise (x, record).
 * Leaves the first daemon's answer in j. */
static void run_everywhere(job *j, const char *what) {
    job got[NDAEMONS];
    for (int d = 0; d < NDAEMONS; d++) {
        got[d] = *j;
        run_job(daemons[d].unix_addr, &got[d]);
    }
    for (int d = 1; d < NDAEMONS; d++) {
        if (memcmp(&got[d].r, &got[0].r, sizeof(got[0].r)) != 0)
            fail_msg("%s: the record on %d cores (%d iterations, status %d, residual %.17g) "
                     "differs from 1 core's (%d, %d, %.17g)",
                     what, d + 1, got[d].r.iterations, got[d].r.status, got[d].r.residual,
                     got[0].r.iterations, got[0].r.status, got[0].r.residual);
        if (memcmp(got[d].x, got[0].x, (size_t)j->m->n * esize(j->t)) != 0)
            fail_msg("%s: x on %d cores differs from 1 core's", what, d + 1);
        free(got[d].x);
    }
    *j = got[0];
}

/* ||b - A x||_2 / ||b||_2 in long double with A's values in type t; *slack
 * gets 8 u_t || |A||x| + |b| ||_2 / ||b||_2. */
static long double true_residual(const job *j, long double *slack) {
    long double rn = 0, bn = 0, an = 0;
    for (int i = 0; i < j->m->n; i++) {
        const long double bi = j->t == TY_S ? (long double)(float)j->b[i] : j->b[i];
        long double s = bi, mag = fabsl(bi);
        for (int p = j->m->rowptr[i]; p < j->m->rowptr[i + 1]; p++) {
            const long double a =
                j->t == TY_S ? (long double)(float)j->m->val[p] : (long double)j->m->val[p];
            const long double xv = creall(get(j->t, j->x, (size_t)j->m->col[p]));
            s -= a * xv;
            mag += fabsl(a * xv);
        }
        rn += s * s;
        bn += bi * bi;
        an += mag * mag;
    }
    *slack = 8.0L * st_u(j->t) * sqrtl(an / bn);
    return sqrtl(rn / bn);
}

static void check_converged(const job *j, const char *what) {
    long double slack;
    const long double rel = true_residual(j, &slack);
    const long double limit = j->t == TY_S ? j->tol + slack : 1.01L * j->tol;
    if (j->r.status != TRNSOLVER_ITER_CONVERGED || !(rel <= limit) ||
        !(fabsl(rel - j->r.residual) <= 1e-2L * rel + slack))
        fail_msg("%s: status %d after %d iterations, recorded residual %g, true %Lg (limit %Lg)",
                 what, j->r.status, j->r.iterations, j->r.residual, rel, limit);
    st_note(what, rel / limit, 1.0L);
}

/* CSR and BSR, S and D, no and Jacobi preconditioning on the G x G grid
 * (BiCGStab and GMRES on An). */
static void sparse_all(int method) {
    const host_csr *m = method != M_CG ? &An : &A;
    const double *xr = method != M_CG ? xn_ref : x_ref;
    const ty types[2] = {TY_D, TY_S};
    for (int k = 0; k < 2; k++)
        for (int ti = 0; ti < 2; ti++)
            for (int pc = 0; pc < 2; pc++) {
                if (k == 1 && (ti == 1 || pc == 1))
                    continue; /* BSR: D without a preconditioner */
                const ty t = types[ti];
                job j = {.t = t,
                         .kind = (opkind)k,
                         .m = m,
                         .b = b_host,
                         .pc = pc ? TRNSOLVER_PRECOND_JACOBI : TRNSOLVER_PRECOND_NONE,
                         .tol = t == TY_S ? 1e-5 : 1e-10,
                         .method = method};
                char what[80];
                snprintf(what, sizeof(what), "%s %s %s, precond %d", ty_name[t], opname[k],
                         method_name[method], pc);
                run_everywhere(&j, what);
                check_converged(&j, what);
                if (t == TY_D) {
                    long double en = 0, xn = 0;
                    for (int i = 0; i < N; i++) {
                        const long double e = ((const double *)j.x)[i] - (long double)xr[i];
                        en += e * e;
                        xn += (long double)xr[i] * xr[i];
                    }
                    const long double fwd = sqrtl(en / xn), limit = KAPPA * 1.01L * j.tol + 1e-12L;
                    if (!(fwd <= limit))
                        fail_msg("%s: ||x - x_scipy|| / ||x_scipy|| = %Lg > %Lg", what, fwd, limit);
                    st_note("D forward error vs spsolve / bound", fwd / limit, 1.0L);
                }
                free(j.x);
            }
}

static void test_sparse(void **state) {
    (void)state;
    sparse_all(M_CG);
}

static void test_bicg_sparse(void **state) {
    (void)state;
    sparse_all(M_BICG);
}

static void test_gmres_sparse(void **state) {
    (void)state;
    sparse_all(M_GMRES);
}

/* A dense operator: the grid with G = 32 (n = 1024, two row blocks). */
static void dense_all(int method) {
    host_csr small;
    make_grid(&small, 32, method != M_CG);
    double *b = malloc(1024 * sizeof(double));
    assert_non_null(b);
    for (int i = 0; i < 1024; i++)
        b[i] = uniform();
    const ty types[2] = {TY_D, TY_S};
    for (int ti = 0; ti < 2; ti++)
        for (int pc = 0; pc < 2; pc++) {
            const ty t = types[ti];
            job j = {.t = t,
                     .kind = OP_DENSE,
                     .m = &small,
                     .b = b,
                     .pc = pc ? TRNSOLVER_PRECOND_JACOBI : TRNSOLVER_PRECOND_NONE,
                     .tol = t == TY_S ? 1e-5 : 1e-10,
                     .method = method,
                     .restart = method == M_GMRES && pc ? 7 : 0};
            char what[80];
            snprintf(what, sizeof(what), "%s dense %s%s, precond %d", ty_name[t],
                     method_name[method], j.restart ? "(7)" : "", pc);
            run_everywhere(&j, what);
            check_converged(&j, what);
            free(j.x);
        }
    free(b);
    free_grid(&small);
}

static void test_dense(void **state) {
    (void)state;
    dense_all(M_CG);
}

static void test_bicg_dense(void **state) {
    (void)state;
    dense_all(M_BICG);
}

static void test_gmres_dense(void **state) {
    (void)state;
    dense_all(M_GMRES);
}

/* The edge cases' vectors: zeros, ones, and b with a NaN at nan_at. */
static void edge_vectors(double **zero, double **ones, double **nanb, int nan_at) {
    *zero = calloc(N, sizeof(double));
    *ones = malloc(N * sizeof(double));
    *nanb = malloc(N * sizeof(double));
    assert_non_null(*zero);
    assert_non_null(*ones);
    assert_non_null(*nanb);
    for (int i = 0; i < N; i++)
        (*ones)[i] = 1.0;
    memcpy(*nanb, b_host, N * sizeof(double));
    (*nanb)[nan_at] = NAN;
}

static void test_edges(void **state) {
    (void)state;
    double *zero, *ones, *nanb;
    edge_vectors(&zero, &ones, &nanb, N / 2);

    job j = {.t = TY_D, .kind = OP_CSR, .m = &A, .b = zero, .x0 = ones, .tol = 1e-10};
    run_everywhere(&j, "b = 0");
    assert_int_equal(j.r.status, TRNSOLVER_ITER_CONVERGED);
    assert_int_equal(j.r.iterations, 0);
    assert_memory_equal(j.x, zero, N * sizeof(double));
    free(j.x);

    j = (job){.t = TY_D, .kind = OP_CSR, .m = &A, .b = b_host, .tol = 1e-10, .maxit = 5};
    run_everywhere(&j, "max iterations 5");
    assert_int_equal(j.r.status, TRNSOLVER_ITER_MAX_ITERS);
    assert_int_equal(j.r.iterations, 5);
    assert_true(j.r.residual > 1e-10);
    free(j.x);

    j = (job){.t = TY_D, .kind = OP_CSR, .m = &A, .b = nanb, .tol = 1e-10};
    run_everywhere(&j, "NaN in b");
    assert_int_equal(j.r.status, TRNSOLVER_ITER_NONFINITE);
    free(j.x);

    host_csr z = A;
    z.val = malloc((size_t)A.nnz * sizeof(double));
    assert_non_null(z.val);
    memcpy(z.val, A.val, (size_t)A.nnz * sizeof(double));
    for (int p = A.rowptr[777]; p < A.rowptr[778]; p++)
        if (A.col[p] == 777)
            z.val[p] = 0.0;
    j = (job){.t = TY_D,
              .kind = OP_CSR,
              .m = &z,
              .b = b_host,
              .x0 = ones,
              .pc = TRNSOLVER_PRECOND_JACOBI,
              .tol = 1e-10};
    run_everywhere(&j, "Jacobi with a zero diagonal");
    assert_int_equal(j.r.status, TRNSOLVER_ITER_PRECOND_FAILED);
    assert_memory_equal(j.x, ones, N * sizeof(double)); /* untouched */
    free(j.x);
    free(z.val);

    for (int d = 0; d < NDAEMONS; d++) {
        j = (job){.t = TY_D,
                  .kind = OP_CSR,
                  .m = &A,
                  .b = b_host,
                  .x0 = ones,
                  .tol = 1e-10,
                  .corrupt = "col"};
        run_job(daemons[d].unix_addr, &j);
        assert_memory_equal(j.x, ones, N * sizeof(double)); /* x not written */
        assert_int_equal(j.r.iterations, 0x7f7f7f7f);       /* nor the record */
        free(j.x);
    }
    free(zero);
    free(ones);
    free(nanb);
}

/* The edges BiCGStab and GMRES share, on An on both daemons alike: b = 0
 * (x = 0 after 0 iterations), a limit of 5 (MAX_ITERS after 5, the
 * residual above tol), a NaN in b (S: NONFINITE). */
static void shared_edges(int method, const double *zero, const double *ones, const double *nanb) {
    char what[64];
    job j = {
        .t = TY_D, .kind = OP_CSR, .m = &An, .b = zero, .x0 = ones, .tol = 1e-10, .method = method};
    snprintf(what, sizeof(what), "%s, b = 0", method_name[method]);
    run_everywhere(&j, what);
    assert_int_equal(j.r.status, TRNSOLVER_ITER_CONVERGED);
    assert_int_equal(j.r.iterations, 0);
    assert_memory_equal(j.x, zero, N * sizeof(double));
    free(j.x);

    j = (job){.t = TY_D,
              .kind = OP_CSR,
              .m = &An,
              .b = b_host,
              .tol = 1e-10,
              .maxit = 5,
              .method = method};
    snprintf(what, sizeof(what), "%s, max iterations 5", method_name[method]);
    run_everywhere(&j, what);
    assert_int_equal(j.r.status, TRNSOLVER_ITER_MAX_ITERS);
    assert_int_equal(j.r.iterations, 5);
    assert_true(j.r.residual > 1e-10);
    free(j.x);

    j = (job){.t = TY_S, .kind = OP_CSR, .m = &An, .b = nanb, .tol = 1e-5, .method = method};
    snprintf(what, sizeof(what), "%s, NaN in b", method_name[method]);
    run_everywhere(&j, what);
    assert_int_equal(j.r.status, TRNSOLVER_ITER_NONFINITE);
    free(j.x);
}

/* j (from x0 = 0) broke down after `iterations` with x still 0: its
 * residual ||b - A 0|| / ||b|| is exactly 1. Frees j's x. */
static void expect_breakdown_at_x0(job *j, int iterations) {
    assert_int_equal(j->r.status, TRNSOLVER_ITER_BREAKDOWN);
    assert_int_equal(j->r.iterations, iterations);
    assert_true(j->r.residual == 1.0);
    for (int i = 0; i < j->m->n; i++)
        assert_true(((const double *)j->x)[i] == 0.0);
    free(j->x);
}

static void test_bicg_edges(void **state) {
    (void)state;
    double *zero, *ones, *nanb;
    edge_vectors(&zero, &ones, &nanb, N / 3);
    shared_edges(M_BICG, zero, ones, nanb);
    job j;

    /* The cyclic shift, n = 2^19 (its 2^19 stored entries reach
     * TRN_KPAR_MIN_ELEMS), b = e_0. */
    host_csr sh;
    sh.n = sh.nnz = 1 << 19;
    sh.rowptr = malloc(((size_t)sh.n + 1) * sizeof(int32_t));
    sh.col = malloc((size_t)sh.n * sizeof(int32_t));
    sh.val = malloc((size_t)sh.n * sizeof(double));
    double *e0 = calloc((size_t)sh.n, sizeof(double));
    assert_non_null(sh.rowptr);
    assert_non_null(sh.col);
    assert_non_null(sh.val);
    assert_non_null(e0);
    for (int i = 0; i < sh.n; i++) {
        sh.rowptr[i] = i;
        sh.col[i] = (i + 1) % sh.n;
        sh.val[i] = 1.0;
    }
    sh.rowptr[sh.n] = sh.n;
    e0[0] = 1.0;
    j = (job){.t = TY_D, .kind = OP_CSR, .m = &sh, .b = e0, .tol = 1e-10, .method = M_BICG};
    run_everywhere(&j, "bicgstab, r^ . v = 0");
    expect_breakdown_at_x0(&j, 0);
    free(e0);
    free_grid(&sh);
    free(zero);
    free(ones);
    free(nanb);
}

static void test_gmres_edges(void **state) {
    (void)state;
    double *zero, *ones, *nanb;
    edge_vectors(&zero, &ones, &nanb, N / 5);
    shared_edges(M_GMRES, zero, ones, nanb);
    job j;

    /* The nilpotent shift A e_j = e_{j-1}, A e_0 = 0 (n = 2^19 + 1: its
     * 2^19 stored entries reach TRN_KPAR_MIN_ELEMS), b = e_0: A b = 0, the
     * Krylov space is invariant at once and holds no better x. */
    host_csr sh;
    sh.n = (1 << 19) + 1;
    sh.nnz = 1 << 19;
    sh.rowptr = malloc(((size_t)sh.n + 1) * sizeof(int32_t));
    sh.col = malloc((size_t)sh.nnz * sizeof(int32_t));
    sh.val = malloc((size_t)sh.nnz * sizeof(double));
    double *e0 = calloc((size_t)sh.n, sizeof(double));
    assert_non_null(sh.rowptr);
    assert_non_null(sh.col);
    assert_non_null(sh.val);
    assert_non_null(e0);
    for (int i = 0; i < sh.nnz; i++) {
        sh.rowptr[i] = i;
        sh.col[i] = i + 1;
        sh.val[i] = 1.0;
    }
    sh.rowptr[sh.n - 1] = sh.rowptr[sh.n] = sh.nnz;
    e0[0] = 1.0;
    j = (job){.t = TY_D, .kind = OP_CSR, .m = &sh, .b = e0, .tol = 1e-10, .method = M_GMRES};
    run_everywhere(&j, "gmres, A b = 0");
    expect_breakdown_at_x0(&j, 1);
    free(e0);
    free_grid(&sh);
    free(zero);
    free(ones);
    free(nanb);
}

int main(void) {
    make_grid(&A, G, 0);
    make_grid(&An, G, 1);
    b_host = malloc(N * sizeof(double));
    if (!b_host)
        return 1;
    for (int i = 0; i < N; i++)
        b_host[i] = uniform();
    if (reference() != 0)
        return 1;
    if (th_daemons_start(daemons, NDAEMONS, NULL) != 0) /* --cores 1 and 2 */
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sparse),       cmocka_unit_test(test_dense),
        cmocka_unit_test(test_edges),        cmocka_unit_test(test_bicg_sparse),
        cmocka_unit_test(test_bicg_dense),   cmocka_unit_test(test_bicg_edges),
        cmocka_unit_test(test_gmres_sparse), cmocka_unit_test(test_gmres_dense),
        cmocka_unit_test(test_gmres_edges),
    };
    int failed =
        cmocka_run_group_tests_name("CG, BiCGStab and GMRES over every core", tests, NULL, NULL);
    failed += th_daemons_stop_checked(daemons, NDAEMONS, "trnscid");
    st_report("solver_kpar");
    free_grid(&A);
    free_grid(&An);
    free(b_host);
    free(x_ref);
    free(xn_ref);
    return failed ? 1 : 0;
}
