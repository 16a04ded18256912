/*
 * gemm_batched.c — batched SGEMM through trnscid versus in-process OpenBLAS,
 * in one run.
 *
 * For each shape (batch of square n x n products, C_i = A_i B_i):
 *   trnsci strided: trnblasSgemmStridedBatched on data resident in the
 *                   daemon, + trnsciStreamSynchronize (what a client waits);
 *   trnsci arrays:  trnblasSgemmBatched with device arrays of pointers to the
 *                   same matrices (the library reads the arrays per call);
 *   OpenBLAS:       a loop of cblas_sgemm over the batch in this process:
 *                   one thread pinned to --openblas-cpu (one-core mode), or
 *                   --openblas-threads N with OpenBLAS's own threading.
 * Repetitions alternate the three after a warm-up; medians in ms, GFLOP/s,
 * ratio = openblas / trnsci (1.0: no overhead), and the largest difference
 * between the strided result and OpenBLAS's (they run the same kernel on
 * the same inputs: 0 expected in one-core mode). One JSON object.
 *
 * usage: bench_gemm_batched ADDRESS [--shapes 512x64,128x128,32x256,8x512]
 *                           [--reps 9] [--openblas-cpu CPU] [--openblas-threads N]
 * bench/run_gemm_batched.sh sets up the daemon and placement.
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
    fprintf(stderr, "bench_gemm_batched: %s failed: %s\n", what, trnsciGetLastErrorMessage());
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

int main(int argc, char **argv) {
    const char *addr = NULL, *shapes_s = "512x64,128x128,32x256,8x512";
    int reps = 9, ob_cpu = -1, ob_threads = 1;
    const bench_opt opts[] = {{"--shapes", BENCH_OPT_STR, &shapes_s},
                              {"--reps", BENCH_OPT_INT, &reps},
                              {"--openblas-cpu", BENCH_OPT_INT, &ob_cpu},
                              {"--openblas-threads", BENCH_OPT_INT, &ob_threads},
                              {NULL, BENCH_OPT_FLAG, NULL}};
    if (bench_parse_args(opts, argc, argv, &addr) != 0 || reps < 1) {
        fprintf(stderr, "usage: bench_gemm_batched ADDRESS [--shapes BxN,...] [--reps N] "
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
    printf("{\n  \"bench\": \"gemm_batched\",\n");
    bench_json_host(",\n");
    printf("  \"daemon_cores\": %d, \"openblas_cpu\": %d, \"openblas_threads\": %d,\n", cores,
           ob_cpu, ob_threads);
    printf("  \"shapes\": [\n");
    const float one = 1, zero = 0;
    for (int si = 0; si < ns; si++) {
        const int b = batch[si], n = size[si];
        const size_t mat = (size_t)n * (size_t)n, all = mat * (size_t)b;
        float *A = malloc(all * sizeof(float)), *B = malloc(all * sizeof(float));
        float *C = malloc(all * sizeof(float)), *D = malloc(all * sizeof(float));
        void **pa = malloc((size_t)b * sizeof(void *) * 3);
        if (!A || !B || !C || !D || !pa)
            die("malloc");
        bench_fill(A, all, 1 + (uint64_t)si);
        bench_fill(B, all, 100 + (uint64_t)si);
        float *dA = upload(A, all * sizeof(float)), *dB = upload(B, all * sizeof(float));
        float *dC = upload(NULL, all * sizeof(float));
        for (int i = 0; i < b; i++) {
            pa[i] = dA + (size_t)i * mat;
            pa[b + i] = dB + (size_t)i * mat;
            pa[2 * b + i] = dC + (size_t)i * mat;
        }
        void **dpa = upload(pa, (size_t)b * sizeof(void *) * 3);
        double ts[MAX_REPS], ta[MAX_REPS], to[MAX_REPS];
        for (int r = -1; r < reps; r++) { /* r = -1: warm-up */
            double t0 = bench_now_ms();
            if (trnblasSgemmStridedBatched(h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &one, dA, n,
                                           (long long)mat, dB, n, (long long)mat, &zero, dC, n,
                                           (long long)mat, b) != TRNBLAS_STATUS_SUCCESS ||
                trnsciStreamSynchronize(NULL) != trnsciSuccess)
                die("trnblasSgemmStridedBatched");
            const double t1 = bench_now_ms();
            if (trnblasSgemmBatched(h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &one,
                                    (const float *const *)dpa, n, (const float *const *)(dpa + b),
                                    n, &zero, (float *const *)(dpa + 2 * b), n,
                                    b) != TRNBLAS_STATUS_SUCCESS ||
                trnsciStreamSynchronize(NULL) != trnsciSuccess)
                die("trnblasSgemmBatched");
            const double t2 = bench_now_ms();
            if (ob_threads == 1 && ob_cpu >= 0)
                bench_pin_self(ob_cpu);
            for (int i = 0; i < b; i++)
                cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f,
                            A + (size_t)i * mat, n, B + (size_t)i * mat, n, 0.0f,
                            D + (size_t)i * mat, n);
            const double t3 = bench_now_ms();
            if (r >= 0) {
                ts[r] = t1 - t0;
                ta[r] = t2 - t1;
                to[r] = t3 - t2;
            }
        }
        if (trnsciMemcpy(C, dC, all * sizeof(float), trnsciMemcpyDeviceToHost) != trnsciSuccess)
            die("trnsciMemcpy");
        const double diff = bench_max_rel_diff(C, D, all);
        const double ms = bench_median(ts, reps), ma = bench_median(ta, reps),
                     mo = bench_median(to, reps);
        const double gf = 2.0 * (double)n * n * n * b / 1e6;
        printf("    {\"batch\": %d, \"n\": %d, \"reps\": %d, \"strided_ms\": %.3f, "
               "\"arrays_ms\": %.3f, \"openblas_ms\": %.3f,\n     \"strided_gflops\": %.2f, "
               "\"openblas_gflops\": %.2f, \"ratio_strided\": %.4f, \"ratio_arrays\": %.4f, "
               "\"max_rel_diff\": %.3g}%s\n",
               b, n, reps, ms, ma, mo, gf / ms, gf / mo, mo / ms, mo / ma, diff,
               si + 1 < ns ? "," : "");
        fflush(stdout);
        trnsciFree(dA);
        trnsciFree(dB);
        trnsciFree(dC);
        trnsciFree(dpa);
        free(A);
        free(B);
        free(C);
        free(D);
        free(pa);
    }
    printf("  ]\n}\n");
    trnblasDestroy(h);
    trnsciDeviceReset();
    return 0;
}
