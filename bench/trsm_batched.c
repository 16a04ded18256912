/*
 * trsm_batched.c — trnblasDtrsmBatched through trnscid (one op for the
 * batch) versus the same solves as one trnblasDtrsm call per matrix (what
 * trsmBatched sent before protocol 1.14) and versus a loop of OpenBLAS's
 * cblas_dtrsm in process, in one run.
 *
 * For each shape (a batch of n x n triangular A_i with n x n right-hand
 * sides B_i; side left, upper, no transpose, non-unit, alpha 1): before each
 * timed repetition every side gets the original B back (a device-to-device
 * copy, synchronized, and a memcpy: untimed). Repetitions alternate;
 * medians in ms; ratio = in-process / trnsci (1.0: no overhead),
 * per_matrix_over_batched = the per-matrix path's time / the batched op's;
 * max_abs_diff between the daemon's and the in-process solutions. One JSON
 * object.
 *
 * usage: bench_trsm_batched ADDRESS [--shapes 10000x8,1000x32] [--reps 9]
 *                           [--openblas-cpu CPU] [--openblas-threads N]
 * bench/run_trsm_batched.sh sets up the daemon and placement.
 */
#define _GNU_SOURCE
#include <cblas.h>
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
    fprintf(stderr, "bench_trsm_batched: %s failed: %s\n", what, trnsciGetLastErrorMessage());
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

static void restore(double *dB, const double *dB0, size_t bytes) {
    if (trnsciMemcpy(dB, dB0, bytes, trnsciMemcpyDeviceToDevice) != trnsciSuccess ||
        trnsciDeviceSynchronize() != trnsciSuccess)
        die("trnsciMemcpy");
}

/* One shape: prints its JSON object. */
static void run_shape(trnblasHandle_t h, int b, int n, int reps, int ob_cpu, int ob_threads,
                      int si) {
    const size_t mat = (size_t)n * (size_t)n, all = mat * (size_t)b, bytes = all * sizeof(double);
    double *A = malloc(bytes), *B = malloc(bytes), *W = malloc(bytes), *D = malloc(bytes);
    float *f = malloc(all * sizeof(float));
    void **pa = malloc((size_t)b * sizeof(void *)), **pb = malloc((size_t)b * sizeof(void *));
    if (!A || !B || !W || !D || !f || !pa || !pb)
        die("malloc");
    bench_fill(f, all, 11 + (uint64_t)si);
    for (size_t k = 0; k < all; k++)
        A[k] = f[k];
    for (size_t i = 0; i < (size_t)b; i++) /* a dominant diagonal: well conditioned */
        for (int d = 0; d < n; d++)
            A[i * mat + (size_t)d * n + d] += 2.0 * n;
    bench_fill(f, all, 13 + (uint64_t)si);
    for (size_t k = 0; k < all; k++)
        B[k] = f[k];
    double *dA = upload(A, bytes), *dB0 = upload(B, bytes), *dB = upload(NULL, bytes);
    for (int i = 0; i < b; i++) {
        pa[i] = dA + (size_t)i * mat;
        pb[i] = dB + (size_t)i * mat;
    }
    void **dpa = upload(pa, (size_t)b * sizeof(void *)),
         **dpb = upload(pb, (size_t)b * sizeof(void *));
    const double one = 1.0;
    const trnblasSideMode_t side = TRNBLAS_SIDE_LEFT;
    const trnblasFillMode_t up = TRNBLAS_FILL_MODE_UPPER;
    double tt[MAX_REPS], tp[MAX_REPS], to[MAX_REPS];
    for (int r = -1; r < reps; r++) { /* r = -1: warm-up */
        restore(dB, dB0, bytes);
        const double t0 = bench_now_ms();
        if (trnblasDtrsmBatched(h, side, up, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, n, n, &one,
                                (const double *const *)dpa, n, (double *const *)dpb, n,
                                b) != TRNBLAS_STATUS_SUCCESS ||
            trnsciStreamSynchronize(NULL) != trnsciSuccess)
            die("trnblasDtrsmBatched");
        const double t1 = bench_now_ms();
        if (r == reps - 1 && trnsciMemcpy(D, dB, bytes, trnsciMemcpyDeviceToHost) != trnsciSuccess)
            die("trnsciMemcpy");
        restore(dB, dB0, bytes);
        const double t2 = bench_now_ms();
        for (int i = 0; i < b; i++)
            if (trnblasDtrsm(h, side, up, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, n, n, &one, pa[i], n,
                             pb[i], n) != TRNBLAS_STATUS_SUCCESS)
                die("trnblasDtrsm");
        if (trnsciStreamSynchronize(NULL) != trnsciSuccess)
            die("trnsciStreamSynchronize");
        const double t3 = bench_now_ms();
        memcpy(W, B, bytes);
        if (ob_threads == 1 && ob_cpu >= 0)
            bench_pin_self(ob_cpu);
        const double t4 = bench_now_ms();
        for (int i = 0; i < b; i++)
            cblas_dtrsm(CblasColMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, n, n, 1.0,
                        A + (size_t)i * mat, n, W + (size_t)i * mat, n);
        const double t5 = bench_now_ms();
        if (r >= 0) {
            tt[r] = t1 - t0;
            tp[r] = t3 - t2;
            to[r] = t5 - t4;
        }
    }
    double diff = 0;
    for (size_t k = 0; k < all; k++)
        diff = bench_worse(diff, fabs(D[k] - W[k]));
    const double mt = bench_median(tt, reps), mp = bench_median(tp, reps),
                 mo = bench_median(to, reps);
    printf("    {\"batch\": %d, \"n\": %d, \"reps\": %d, \"trnsci_ms\": %.3f, "
           "\"per_matrix_ms\": %.3f, \"openblas_ms\": %.3f, \"ratio\": %.4f, "
           "\"per_matrix_over_batched\": %.2f, \"max_abs_diff\": %.3g}",
           b, n, reps, mt, mp, mo, mo / mt, mp / mt, diff);
    trnsciFree(dA);
    trnsciFree(dB0);
    trnsciFree(dB);
    trnsciFree(dpa);
    trnsciFree(dpb);
    free(A);
    free(B);
    free(W);
    free(D);
    free(f);
    free(pa);
    free(pb);
}

int main(int argc, char **argv) {
    const char *addr = NULL, *shapes_s = "10000x8,1000x32";
    int reps = 9, ob_cpu = -1, ob_threads = 1;
    const bench_opt opts[] = {{"--shapes", BENCH_OPT_STR, &shapes_s},
                              {"--reps", BENCH_OPT_INT, &reps},
                              {"--openblas-cpu", BENCH_OPT_INT, &ob_cpu},
                              {"--openblas-threads", BENCH_OPT_INT, &ob_threads},
                              {NULL, BENCH_OPT_FLAG, NULL}};
    if (bench_parse_args(opts, argc, argv, &addr) != 0 || reps < 1) {
        fprintf(stderr, "usage: bench_trsm_batched ADDRESS [--shapes BxN,...] [--reps N] "
                        "[--openblas-cpu CPU] [--openblas-threads N]\n");
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
    printf("{\n  \"bench\": \"trsm_batched\",\n");
    bench_json_host(",\n");
    printf("  \"daemon_cores\": %d, \"openblas_cpu\": %d, \"openblas_threads\": %d, "
           "\"openblas_core\": \"%s\",\n",
           cores, ob_cpu, ob_threads, openblas_get_corename());
    printf("  \"shapes\": [\n");
    for (int si = 0; si < ns; si++) {
        run_shape(h, batch[si], size[si], reps, ob_cpu, ob_threads, si);
        printf("%s\n", si + 1 < ns ? "," : "");
        fflush(stdout);
    }
    printf("  ]\n}\n");
    trnblasDestroy(h);
    trnsciDeviceReset();
    return 0;
}
