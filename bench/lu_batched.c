/*
 * lu_batched.c — trnblasDgetrfBatched (or, with --routine geqrf,
 * trnblasDgeqrfBatched) through trnscid versus a loop of LAPACK's dgetrf
 * (dgeqrf) in process, in one run.
 *
 * For each shape (a batch of n x n matrices): the daemon factors the batch
 * (pivoted, device pointer array) and the client synchronizes; in process, a
 * loop of LAPACKE_dgetrf_work over the same matrices, one OpenBLAS thread
 * pinned to --openblas-cpu (one-core mode) or --openblas-threads N. Before
 * each timed repetition both sides get the unfactored matrices back (a
 * device-to-device copy, synchronized, and a memcpy: untimed). Repetitions
 * alternate; medians in ms, ratio = LAPACK / trnsci (1.0: no overhead), and
 * whether the factors and pivots agree (the same LAPACK on the same inputs:
 * bitwise in one-core mode with the same kernel set; for geqrf the factors
 * and tau, "same_pivots" then meaning the same tau). One JSON object.
 *
 * usage: bench_lu_batched ADDRESS [--shapes 10000x8,4000x16,1000x32,100x128]
 *                         [--reps 9] [--openblas-cpu CPU] [--openblas-threads N]
 *                         [--routine getrf|geqrf]
 * bench/run_lu_batched.sh sets up the daemon and placement.
 */
#define _GNU_SOURCE
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trnsci/trnblas.h>
#include <trnsci/trnsci.h>

#include "bench_util.h"

#define MAX_SHAPES 8
#define MAX_REPS 64

static void die(const char *what) {
    fprintf(stderr, "bench_lu_batched: %s failed: %s\n", what, trnsciGetLastErrorMessage());
    exit(1);
}

static void *upload(const void *h, size_t bytes) {
    void *d = NULL;
    if (trnsciMalloc(&d, bytes) != trnsciSuccess)
        die("trnsciMalloc");
    if (h && trnsciMemcpy(d, h, bytes, trnsciMemcpyHostToDevice) != trnsciSuccess)
        die("trnsciMemcpy");
    return d;
}

/* One shape: prints its JSON object. */
static void run_shape(trnblasHandle_t h, int b, int n, int reps, int ob_cpu, int ob_threads, int si,
                      int qr) {
    const size_t mat = (size_t)n * (size_t)n, all = mat * (size_t)b;
    double *A = malloc(all * sizeof(double)), *W = malloc(all * sizeof(double));
    double *D = malloc(all * sizeof(double));
    float *f = malloc(all * sizeof(float));
    int *piv = malloc(all ? (size_t)n * b * sizeof(int) : 1),
        *hpiv = malloc((size_t)n * b * sizeof(int));
    void **pa = malloc((size_t)b * sizeof(void *));
    if (!A || !W || !D || !f || !piv || !hpiv || !pa)
        die("malloc");
    bench_fill(f, all, 7 + (uint64_t)si);
    for (size_t k = 0; k < all; k++)
        A[k] = f[k];
    double *dA0 = upload(A, all * sizeof(double)), *dA = upload(NULL, all * sizeof(double));
    int *dpiv = upload(NULL, (size_t)n * b * sizeof(int)),
        *dinfo = upload(NULL, (size_t)b * sizeof(int));
    for (int i = 0; i < b; i++)
        pa[i] = dA + (size_t)i * mat;
    void **dpa = upload(pa, (size_t)b * sizeof(void *));
    /* geqrf: n tau per matrix (the pivot arrays' room, as doubles), their
     * device pointer array, and LAPACK's workspace from one query. */
    double *dtau = upload(NULL, (size_t)n * b * sizeof(double) + 8);
    double *htau = malloc((size_t)n * b * sizeof(double) + 8),
           *tau = malloc((size_t)n * b * sizeof(double) + 8);
    if (!htau || !tau)
        die("malloc");
    for (int i = 0; i < b; i++)
        pa[i] = dtau + (size_t)i * n;
    void **dtaua = upload(pa, (size_t)b * sizeof(void *));
    double lwq = 1;
    LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, n, n, A, n, tau, &lwq, -1);
    const lapack_int lwork = lwq < 1 ? 1 : (lapack_int)lwq;
    double *work = malloc((size_t)lwork * sizeof(double));
    if (!work)
        die("malloc");
    int qinfo = 0;
    double tt[MAX_REPS], to[MAX_REPS];
    for (int r = -1; r < reps; r++) { /* r = -1: warm-up */
        if (trnsciMemcpy(dA, dA0, all * sizeof(double), trnsciMemcpyDeviceToDevice) !=
                trnsciSuccess ||
            trnsciDeviceSynchronize() != trnsciSuccess)
            die("trnsciMemcpy");
        memcpy(W, A, all * sizeof(double));
        const double t0 = bench_now_ms();
        const trnblasStatus_t st =
            qr ? trnblasDgeqrfBatched(h, n, n, (double *const *)dpa, n, (double *const *)dtaua,
                                      &qinfo, b)
               : trnblasDgetrfBatched(h, n, (double *const *)dpa, n, dpiv, dinfo, b);
        if (st != TRNBLAS_STATUS_SUCCESS || trnsciStreamSynchronize(NULL) != trnsciSuccess)
            die(qr ? "trnblasDgeqrfBatched" : "trnblasDgetrfBatched");
        const double t1 = bench_now_ms();
        if (ob_threads == 1 && ob_cpu >= 0)
            bench_pin_self(ob_cpu);
        for (int i = 0; i < b; i++) {
            if (qr)
                LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, n, n, W + (size_t)i * mat, n,
                                    tau + (size_t)i * n, work, lwork);
            else
                LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, W + (size_t)i * mat, n,
                                    piv + (size_t)i * n);
        }
        const double t2 = bench_now_ms();
        if (r >= 0) {
            tt[r] = t1 - t0;
            to[r] = t2 - t1;
        }
    }
    if (trnsciMemcpy(D, dA, all * sizeof(double), trnsciMemcpyDeviceToHost) != trnsciSuccess ||
        trnsciMemcpy(hpiv, dpiv, (size_t)n * b * sizeof(int), trnsciMemcpyDeviceToHost) !=
            trnsciSuccess)
        die("trnsciMemcpy");
    double diff = 0;
    for (size_t k = 0; k < all; k++)
        diff = bench_worse(diff, fabs(D[k] - W[k]));
    int same_pivots = memcmp(hpiv, piv, (size_t)n * b * sizeof(int)) == 0;
    if (qr) {
        if (trnsciMemcpy(htau, dtau, (size_t)n * b * sizeof(double), trnsciMemcpyDeviceToHost) !=
            trnsciSuccess)
            die("trnsciMemcpy");
        same_pivots = memcmp(htau, tau, (size_t)n * b * sizeof(double)) == 0;
    }
    const double mt = bench_median(tt, reps), mo = bench_median(to, reps);
    const double gf = (qr ? 4.0 / 3.0 : 2.0 / 3.0) * (double)n * n * n * b / 1e6;
    printf("    {\"batch\": %d, \"n\": %d, \"reps\": %d, \"trnsci_ms\": %.3f, \"lapack_ms\": %.3f, "
           "\"trnsci_gflops\": %.2f, \"lapack_gflops\": %.2f, \"ratio\": %.4f, "
           "\"max_abs_diff\": %.3g, \"same_pivots\": %s}",
           b, n, reps, mt, mo, gf / mt, gf / mo, mo / mt, diff, same_pivots ? "true" : "false");
    trnsciFree(dA0);
    trnsciFree(dA);
    trnsciFree(dpiv);
    trnsciFree(dinfo);
    trnsciFree(dpa);
    trnsciFree(dtau);
    trnsciFree(dtaua);
    free(htau);
    free(tau);
    free(work);
    free(A);
    free(W);
    free(D);
    free(f);
    free(piv);
    free(hpiv);
    free(pa);
}

int main(int argc, char **argv) {
    const char *addr = NULL, *shapes_s = "10000x8,4000x16,1000x32,100x128", *routine = "getrf";
    int reps = 9, ob_cpu = -1, ob_threads = 1;
    const bench_opt opts[] = {{"--shapes", BENCH_OPT_STR, &shapes_s},
                              {"--reps", BENCH_OPT_INT, &reps},
                              {"--openblas-cpu", BENCH_OPT_INT, &ob_cpu},
                              {"--openblas-threads", BENCH_OPT_INT, &ob_threads},
                              {"--routine", BENCH_OPT_STR, &routine},
                              {NULL, BENCH_OPT_FLAG, NULL}};
    const int bad_args = bench_parse_args(opts, argc, argv, &addr) != 0 || reps < 1;
    if (bad_args || (strcmp(routine, "getrf") && strcmp(routine, "geqrf"))) {
        fprintf(stderr, "usage: bench_lu_batched ADDRESS [--shapes BxN,...] [--reps N] "
                        "[--openblas-cpu CPU] [--openblas-threads N] [--routine getrf|geqrf]\n");
        return 2;
    }
    if (reps > MAX_REPS)
        reps = MAX_REPS;
    int batch[MAX_SHAPES], size[MAX_SHAPES];
    const int ns = bench_parse_shapes(shapes_s, batch, size, MAX_SHAPES);
    openblas_set_num_threads(ob_threads);
    if (trnsciInit(addr) != trnsciSuccess)
        die("trnsciInit");
    trnblasHandle_t h;
    if (trnblasCreate(&h) != TRNBLAS_STATUS_SUCCESS)
        die("trnblasCreate");
    int cores = 0;
    trnsciDeviceGetAttribute(&cores, trnsciDevAttrMultiProcessorCount, 0);
    const int qr = !strcmp(routine, "geqrf");
    printf("{\n  \"bench\": \"lu_batched\", \"routine\": \"%s\",\n", routine);
    bench_json_host(",\n");
    printf("  \"daemon_cores\": %d, \"openblas_cpu\": %d, \"openblas_threads\": %d, "
           "\"openblas_core\": \"%s\",\n",
           cores, ob_cpu, ob_threads, openblas_get_corename());
    printf("  \"shapes\": [\n");
    for (int si = 0; si < ns; si++) {
        run_shape(h, batch[si], size[si], reps, ob_cpu, ob_threads, si, qr);
        printf("%s\n", si + 1 < ns ? "," : "");
        fflush(stdout);
    }
    printf("  ]\n}\n");
    trnblasDestroy(h);
    trnsciDeviceReset();
    return 0;
}
