/*
 * krylov_parallel.c — one big CG on every core: trnsolverDcg on the 2D
 * Poisson matrix (5-point Laplacian on a g x g grid, n = g^2, 10^6 by
 * default, CSR, natural order), b = ones, x0 = 0, relative tolerance --tol,
 * no preconditioner, through a 1-core and an all-cores trnscid (the solve
 * runs as a looping sequence of sharded steps: ops/solver_kpar.h).
 * --method bicgstab: trnsolverDbicgstab instead, on the same grid with a
 * convection term (the east neighbour -0.7, the west -1.3: nonsymmetric,
 * its symmetric part the Poisson matrix), problem "convdiff2d"; --method
 * gmres: trnsolverDgmres with restart --restart (30) on that problem.
 *
 * Timed unit: the solve call + trnsciStreamSynchronize(NULL), what a
 * client waits for (the steps' checked copy of the matrix included); x is
 * reset to 0 with an untimed trnsciMemset before each repetition. Reported
 * per daemon: median/min/max ms over --reps, iterations, the recorded and
 * the true relative residual (long double), and whether x and the record
 * are bitwise the same on both daemons (they must be: docs/numerics.md).
 *
 * --dump DIR writes the matrix (DIR/poisson.rowptr int64, .col int32, .val
 * float64) for bench/krylov_parallel_scipy.py, which times
 * scipy.sparse.linalg.cg on the same matrix and joins everything into one
 * JSON (bench/run_krylov_parallel.sh runs both).
 *
 * usage: bench_krylov_parallel ADDR_1CORE ADDR_ALL [--grid 1000] [--tol 1e-6]
 *                              [--reps 3] [--dump DIR] [--method cg|bicgstab|gmres]
 *                              [--restart 30]
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trnsci/trnsci.h>
#include <trnsci/trnsolver.h>
#include <trnsci/trnsparse.h>

#include "bench_util.h"
#include "poisson.h"

#define MAX_REPS 50

enum { M_CG, M_BICG, M_GMRES };
static const char *const method_name[] = {"cg", "bicgstab", "gmres"};

static void die(const char *what) {
    fprintf(stderr, "bench_krylov_parallel: %s failed: %s\n", what, trnsciGetLastErrorMessage());
    exit(1);
}

typedef struct result {
    bench_stats s;
    trnsolverIterResult_t r;
    double *x;
    long double true_res;
} result;

/* The solve on the daemon at addr, reps times. */
static result solve_on(const char *addr, const bench_csr *a, double tol, int reps, int method,
                       int restart) {
    const size_t n = (size_t)a->n;
    if (trnsciInit(addr) != trnsciSuccess)
        die("trnsciInit");
    void *drow, *dcol, *dval, *db, *dx;
    trnsolverIterResult_t *dres;
    int32_t *row32 = malloc((n + 1) * sizeof(int32_t));
    double *b = malloc(n * sizeof(double));
    result out;
    out.x = malloc(n * sizeof(double));
    if (!row32 || !b || !out.x || a->nnz > INT32_MAX)
        die("host arrays");
    for (size_t i = 0; i <= n; i++)
        row32[i] = (int32_t)a->rowptr[i];
    for (size_t i = 0; i < n; i++)
        b[i] = 1.0;
    if (trnsciMalloc(&drow, (n + 1) * 4) || trnsciMalloc(&dcol, a->nnz * 4) ||
        trnsciMalloc(&dval, a->nnz * 8) || trnsciMalloc(&db, n * 8) || trnsciMalloc(&dx, n * 8) ||
        trnsciMalloc((void **)&dres, sizeof(*dres)))
        die("trnsciMalloc");
    if (trnsciMemcpy(drow, row32, (n + 1) * 4, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(dcol, a->col, a->nnz * 4, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(dval, a->val, a->nnz * 8, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(db, b, n * 8, trnsciMemcpyHostToDevice))
        die("trnsciMemcpy");
    trnsparseSpMatDescr_t descr;
    if (trnsparseCreateCsr(&descr, a->n, a->n, a->nnz, drow, dcol, dval, TRNSPARSE_INDEX_32I,
                           TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO,
                           TRNSCI_R_64F) != TRNSPARSE_STATUS_SUCCESS)
        die("trnsparseCreateCsr");
    trnsolverOperator_t op;
    trnsolverDnHandle_t h;
    trnsolverIterParams_t p;
    if (trnsolverCreateSparseOperator(&op, descr) || trnsolverDnCreate(&h) ||
        trnsolverCreateIterParams(&p) || trnsolverIterParamsSetTolerance(p, tol) ||
        trnsolverIterParamsSetMaxIters(p, 100000) || trnsolverIterParamsSetRestart(p, restart))
        die("trnsolver setup");
    double ms[MAX_REPS];
    for (int rep = 0; rep < reps; rep++) {
        if (trnsciMemset(dx, 0, n * 8) || trnsciStreamSynchronize(NULL))
            die("reset x");
        const double t0 = bench_now_ms();
        if ((method == M_BICG    ? trnsolverDbicgstab(h, op, db, dx, p, dres)
             : method == M_GMRES ? trnsolverDgmres(h, op, db, dx, p, dres)
                                 : trnsolverDcg(h, op, db, dx, p, dres)) ||
            trnsciStreamSynchronize(NULL))
            die(method_name[method]);
        ms[rep] = bench_now_ms() - t0;
    }
    if (trnsciMemcpy(&out.r, dres, sizeof(out.r), trnsciMemcpyDeviceToHost) ||
        trnsciMemcpy(out.x, dx, n * 8, trnsciMemcpyDeviceToHost))
        die("read x");
    out.s = bench_stats_of(ms, reps);
    out.true_res = bench_true_residual(a, b, out.x);
    trnsolverDestroyIterParams(p);
    trnsolverDestroyOperator(op);
    trnsolverDnDestroy(h);
    trnsparseDestroySpMat(descr);
    trnsciFree(drow);
    trnsciFree(dcol);
    trnsciFree(dval);
    trnsciFree(db);
    trnsciFree(dx);
    trnsciFree(dres);
    trnsciDeviceReset();
    free(row32);
    free(b);
    return out;
}

int main(int argc, char **argv) {
    const char *addr[2] = {NULL, NULL}, *dir = NULL;
    int g = 1000, reps = 3, naddr = 0, method = M_CG, restart = 30;
    double tol = 1e-6;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--grid") && i + 1 < argc)
            g = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--tol") && i + 1 < argc)
            tol = atof(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--dump") && i + 1 < argc)
            dir = argv[++i];
        else if (!strcmp(argv[i], "--restart") && i + 1 < argc)
            restart = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--method") && i + 1 < argc &&
                 (!strcmp(argv[i + 1], "cg") || !strcmp(argv[i + 1], "bicgstab") ||
                  !strcmp(argv[i + 1], "gmres"))) {
            i++;
            method = !strcmp(argv[i], "cg")         ? M_CG
                     : !strcmp(argv[i], "bicgstab") ? M_BICG
                                                    : M_GMRES;
        } else if (argv[i][0] != '-' && naddr < 2)
            addr[naddr++] = argv[i];
        else {
            fprintf(stderr, "usage: bench_krylov_parallel ADDR_1CORE ADDR_ALL [--grid G] "
                            "[--tol T] [--reps N] [--dump DIR] [--method cg|bicgstab|gmres] "
                            "[--restart M]\n");
            return 2;
        }
    }
    if (naddr != 2 || g < 2 || reps < 1 || reps > MAX_REPS || !(tol > 0) || restart < 1) {
        fprintf(stderr,
                "bench_krylov_parallel: two addresses; good --grid, --reps, --tol, --restart\n");
        return 2;
    }
    const bench_csr a = bench_poisson(g);
    if (method != M_CG) { /* the convection term: x-neighbours within a grid row */
        for (int i = 0; i < a.n; i++)
            for (int64_t k = a.rowptr[i]; k < a.rowptr[i + 1]; k++) {
                if (a.col[k] == i + 1)
                    a.val[k] = -0.7;
                else if (a.col[k] == i - 1)
                    a.val[k] = -1.3;
            }
    }
    if (dir) {
        bench_poisson_dump(dir, "rowptr", a.rowptr, ((size_t)a.n + 1) * sizeof(int64_t));
        bench_poisson_dump(dir, "col", a.col, (size_t)a.nnz * sizeof(int32_t));
        bench_poisson_dump(dir, "val", a.val, (size_t)a.nnz * sizeof(double));
    }
    result res[2];
    for (int d = 0; d < 2; d++)
        res[d] = solve_on(addr[d], &a, tol, reps, method, restart);
    const int same = !memcmp(&res[0].r, &res[1].r, sizeof(res[0].r)) &&
                     !memcmp(res[0].x, res[1].x, (size_t)a.n * sizeof(double));
    printf("{\n  \"bench\": \"krylov_parallel\",\n  \"method\": \"%s\",\n  \"problem\": \"%s\",\n"
           "  \"grid\": %d,\n  \"n\": %d,\n  \"nnz\": %lld,\n  \"tol\": %g,\n  \"reps\": %d,\n"
           "  \"restart\": %d,\n  \"bitwise_same\": %s,\n  \"trnsci\": {",
           method_name[method], method != M_CG ? "convdiff2d" : "poisson2d", g, a.n,
           (long long)a.nnz, tol, reps, restart, same ? "true" : "false");
    const char *const names[2] = {"one_core", "all_cores"};
    for (int d = 0; d < 2; d++)
        printf("%s\n    \"%s\": {\"median_ms\": %.1f, \"min_ms\": %.1f, \"max_ms\": %.1f, "
               "\"iterations\": %d, \"status\": %d, \"residual\": %.3e, \"true_residual\": "
               "%.3Le}",
               d ? "," : "", names[d], res[d].s.median, res[d].s.min, res[d].s.max,
               res[d].r.iterations, res[d].r.status, res[d].r.residual, res[d].true_res);
    printf("\n  },\n  \"speedup_all_vs_one\": %.3f\n}\n", res[0].s.median / res[1].s.median);
    for (int d = 0; d < 2; d++)
        free(res[d].x);
    free(a.rowptr);
    free(a.col);
    free(a.val);
    return same ? 0 : 1;
}
