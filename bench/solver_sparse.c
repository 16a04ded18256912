/*
 * solver_sparse.c — trnsolver's CG on a trnsparse CSR operator through
 * trnscid: the 2D Poisson matrix (5-point Laplacian on a g x g interior
 * grid, n = g^2, 4 on the diagonal and -1 to the four neighbours, in
 * natural row order), b = ones, x0 = 0, relative tolerance --tol, with no
 * preconditioner and with Jacobi, in double precision.
 *
 * Timed unit: the trnsolverDcg call + trnsciStreamSynchronize(NULL), i.e.
 * what a client waits for (two round trips, the kernel's checked copy of
 * the matrix and the solve); x is reset to 0 with an untimed trnsciMemset
 * before each repetition. Reported per preconditioner: median/min/max ms
 * over --reps, iterations, the recorded relative residual and the true one
 * ||b - A x||_2 / ||b||_2 recomputed here in long double.
 *
 * --dump DIR writes the matrix (DIR/poisson.rowptr int64, .col int32, .val
 * float64) for bench/solver_sparse_scipy.py, which times
 * scipy.sparse.linalg.cg on the very same matrix and joins both into one
 * JSON with the ratio (bench/run_solver_sparse.sh runs both).
 *
 * usage: bench_solver_sparse [ADDRESS] [--grid 1000] [--tol 1e-6]
 *                            [--reps 3] [--dump DIR]
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

static void die(const char *what) {
    fprintf(stderr, "bench_solver_sparse: %s failed: %s\n", what, trnsciGetLastErrorMessage());
    exit(1);
}

int main(int argc, char **argv) {
    const char *addr = NULL, *dir = NULL;
    int g = 1000, reps = 3;
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
        else if (argv[i][0] != '-' && !addr)
            addr = argv[i];
        else {
            fprintf(stderr, "usage: bench_solver_sparse [ADDRESS] [--grid G] [--tol T] "
                            "[--reps N] [--dump DIR]\n");
            return 2;
        }
    }
    if (g < 2 || reps < 1 || reps > MAX_REPS || !(tol > 0)) {
        fprintf(stderr, "bench_solver_sparse: bad --grid, --reps or --tol\n");
        return 2;
    }
    if (trnsciInit(addr) != trnsciSuccess)
        die("trnsciInit");
    const bench_csr a = bench_poisson(g);
    const size_t n = (size_t)a.n;
    if (dir) {
        bench_poisson_dump(dir, "rowptr", a.rowptr, (n + 1) * sizeof(int64_t));
        bench_poisson_dump(dir, "col", a.col, (size_t)a.nnz * sizeof(int32_t));
        bench_poisson_dump(dir, "val", a.val, (size_t)a.nnz * sizeof(double));
    }
    void *drow, *dcol, *dval, *db, *dx;
    trnsolverIterResult_t *dres;
    /* 32-bit offsets and indices (as scipy's for this size). */
    int32_t *row32 = malloc((n + 1) * sizeof(int32_t));
    if (!row32 || a.nnz > INT32_MAX)
        die("32-bit offsets");
    for (size_t i = 0; i <= n; i++)
        row32[i] = (int32_t)a.rowptr[i];
    if (trnsciMalloc(&drow, (n + 1) * sizeof(int32_t)) || trnsciMalloc(&dcol, a.nnz * 4) ||
        trnsciMalloc(&dval, a.nnz * 8) || trnsciMalloc(&db, n * 8) || trnsciMalloc(&dx, n * 8) ||
        trnsciMalloc((void **)&dres, sizeof(*dres)))
        die("trnsciMalloc");
    double *b = malloc(n * sizeof(double)), *x = malloc(n * sizeof(double));
    if (!b || !x)
        die("malloc");
    for (size_t i = 0; i < n; i++)
        b[i] = 1.0;
    if (trnsciMemcpy(drow, row32, (n + 1) * 4, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(dcol, a.col, a.nnz * 4, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(dval, a.val, a.nnz * 8, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(db, b, n * 8, trnsciMemcpyHostToDevice))
        die("trnsciMemcpy");
    trnsparseSpMatDescr_t descr;
    if (trnsparseCreateCsr(&descr, a.n, a.n, a.nnz, drow, dcol, dval, TRNSPARSE_INDEX_32I,
                           TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO,
                           TRNSCI_R_64F) != TRNSPARSE_STATUS_SUCCESS)
        die("trnsparseCreateCsr");
    trnsolverOperator_t op;
    trnsolverDnHandle_t h;
    trnsolverIterParams_t p;
    if (trnsolverCreateSparseOperator(&op, descr) || trnsolverDnCreate(&h) ||
        trnsolverCreateIterParams(&p) || trnsolverIterParamsSetTolerance(p, tol) ||
        trnsolverIterParamsSetMaxIters(p, 100000))
        die("trnsolver setup");
    printf("{\n  \"bench\": \"solver_sparse\",\n  \"problem\": \"poisson2d\",\n  \"grid\": %d,\n"
           "  \"n\": %d,\n  \"nnz\": %lld,\n  \"tol\": %g,\n  \"reps\": %d,\n  \"trnsci\": {",
           g, a.n, (long long)a.nnz, tol, reps);
    const trnsolverPrecond_t pcs[2] = {TRNSOLVER_PRECOND_NONE, TRNSOLVER_PRECOND_JACOBI};
    const char *const pnames[2] = {"none", "jacobi"};
    for (int k = 0; k < 2; k++) {
        if (trnsolverIterParamsSetPreconditioner(p, pcs[k], 0, 0))
            die("SetPreconditioner");
        double ms[MAX_REPS];
        trnsolverIterResult_t r = {0};
        for (int rep = 0; rep < reps; rep++) {
            if (trnsciMemset(dx, 0, n * 8) || trnsciStreamSynchronize(NULL))
                die("reset x");
            const double t0 = bench_now_ms();
            if (trnsolverDcg(h, op, db, dx, p, dres) || trnsciStreamSynchronize(NULL))
                die("trnsolverDcg");
            ms[rep] = bench_now_ms() - t0;
            if (trnsciMemcpy(&r, dres, sizeof(r), trnsciMemcpyDeviceToHost))
                die("read result");
        }
        if (trnsciMemcpy(x, dx, n * 8, trnsciMemcpyDeviceToHost))
            die("read x");
        const bench_stats s = bench_stats_of(ms, reps);
        printf("%s\n    \"%s\": {\"median_ms\": %.1f, \"min_ms\": %.1f, \"max_ms\": %.1f, "
               "\"iterations\": %d, \"status\": %d, \"residual\": %.3e, \"true_residual\": "
               "%.3Le}",
               k ? "," : "", pnames[k], s.median, s.min, s.max, r.iterations, r.status, r.residual,
               bench_true_residual(&a, b, x));
    }
    printf("\n  }\n}\n");
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
    free(a.rowptr);
    free(row32);
    free(a.col);
    free(a.val);
    free(b);
    free(x);
    return 0;
}
