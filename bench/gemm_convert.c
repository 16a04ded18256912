/*
 * gemm_convert.c — a precision-mode GEMM with its operand conversion ahead
 * on the copy engine (ops/convert_stage.h) against the same GEMM converting
 * inline, on two daemons of the same cores started by run_gemm_convert.sh
 * (`--convert-ahead on` and `off`), and COMPUTE_32F on each as the yardstick.
 *
 * For each size n (square C = A B, operands resident in the daemon) and each
 * mode, a round per daemon: connect, upload, one warm-up, --reps timed calls
 * (call + trnsciStreamSynchronize), disconnect; --rounds rounds, the daemons
 * alternating, so that a slow period hits both. Prints JSON: per daemon and
 * mode the median ms over all rounds' repetitions, and inline / ahead.
 * --chain K: each timed call is K GEMMs launched back to back on one stream
 * (the same operands and C) and one synchronize, reported per GEMM: on the
 * daemon converting ahead, each GEMM's conversion may then run while the
 * one in front of it computes (scheduler/sched.h, run-ahead).
 *
 * usage: bench_gemm_convert AHEAD_ADDR --inline INLINE_ADDR [--sizes 1024,2048]
 *                           [--reps 3] [--rounds 3] [--chain 1]
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trnsci/trnblas.h>
#include <trnsci/trnsci.h>

#include "bench_util.h"

#define MAX_SAMPLES 256
#define MAX_SIZES 8

static const struct {
    const char *name;
    trnblasComputeType_t ct;
} modes[] = {
    {"32F", TRNBLAS_COMPUTE_32F},
    {"32F_FAST_16BF", TRNBLAS_COMPUTE_32F_FAST_16BF},
    {"32F_BF16X3", TRNBLAS_COMPUTE_32F_BF16X3},
};
#define NMODES (sizeof(modes) / sizeof(modes[0]))

static void die(const char *what) {
    fprintf(stderr, "bench_gemm_convert: %s failed\n", what);
    exit(1);
}

static void *upload(const float *h, size_t n) {
    void *d = NULL;
    if (trnsciMalloc(&d, n * sizeof(float)) != trnsciSuccess)
        die("trnsciMalloc");
    if (trnsciMemcpy(d, h, n * sizeof(float), trnsciMemcpyHostToDevice) != trnsciSuccess)
        die("trnsciMemcpy");
    return d;
}

/* One round on the daemon at addr: reps timed calls of each mode appended
 * to t[mode] (count in *nt). */
static void round_on(const char *addr, int n, const float *host, int reps, int chain,
                     double t[NMODES][MAX_SAMPLES], int *nt) {
    if (trnsciInit(addr) != trnsciSuccess)
        die("trnsciInit");
    trnblasHandle_t h;
    if (trnblasCreate(&h) != TRNBLAS_STATUS_SUCCESS)
        die("trnblasCreate");
    const size_t nn = (size_t)n * (size_t)n;
    void *a = upload(host, nn), *b = upload(host + nn, nn), *c = upload(host, nn);
    const float one = 1.0f, zero = 0.0f;
    for (size_t m = 0; m < NMODES; m++)
        for (int r = -1; r < reps; r++) {
            const double t0 = bench_now_ms();
            for (int g = 0; g < chain; g++)
                if (trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &one, a, TRNSCI_R_32F, n,
                                  b, TRNSCI_R_32F, n, &zero, c, TRNSCI_R_32F, n, modes[m].ct,
                                  TRNBLAS_GEMM_DEFAULT) != TRNBLAS_STATUS_SUCCESS)
                    die("trnblasGemmEx");
            if (trnsciStreamSynchronize(NULL) != trnsciSuccess)
                die("trnsciStreamSynchronize");
            if (r >= 0 && nt[m] < MAX_SAMPLES)
                t[m][nt[m]++] = (bench_now_ms() - t0) / chain;
        }
    trnsciFree(a);
    trnsciFree(b);
    trnsciFree(c);
    trnblasDestroy(h);
    trnsciDeviceReset();
}

int main(int argc, char **argv) {
    const char *ahead = NULL, *inl = NULL, *sizes_s = "1024,2048";
    int reps = 3, rounds = 3, chain = 1;
    const bench_opt opts[] = {
        {"--inline", BENCH_OPT_STR, &inl},  {"--sizes", BENCH_OPT_STR, &sizes_s},
        {"--reps", BENCH_OPT_INT, &reps},   {"--rounds", BENCH_OPT_INT, &rounds},
        {"--chain", BENCH_OPT_INT, &chain}, {NULL, BENCH_OPT_FLAG, NULL}};
    if (bench_parse_args(opts, argc, argv, &ahead) != 0 || !ahead || !inl || chain < 1) {
        fprintf(stderr, "usage: bench_gemm_convert AHEAD_ADDR --inline INLINE_ADDR ...\n");
        return 2;
    }
    int sizes[MAX_SIZES], ns = 0;
    for (const char *p = sizes_s; *p && ns < MAX_SIZES;
         p = strchr(p, ',') ? strchr(p, ',') + 1 : "")
        sizes[ns++] = atoi(p);
    printf("{\n  \"bench\": \"gemm_convert\",\n");
    bench_json_host(",\n");
    printf("  \"reps\": %d, \"rounds\": %d, \"chain\": %d,\n  \"sizes\": [\n", reps, rounds, chain);
    for (int si = 0; si < ns; si++) {
        const int n = sizes[si];
        const size_t nn = (size_t)n * (size_t)n;
        float *host = malloc(2 * nn * sizeof(float));
        if (!host)
            die("malloc");
        uint64_t x = 42;
        for (size_t i = 0; i < 2 * nn; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            host[i] = (float)((double)(x >> 11) * 0x1p-53 * 2.0 - 1.0);
        }
        static double t[2][NMODES][MAX_SAMPLES];
        int nt[2][NMODES] = {{0}};
        for (int r = 0; r < rounds; r++) {
            round_on(ahead, n, host, reps, chain, t[0], nt[0]);
            round_on(inl, n, host, reps, chain, t[1], nt[1]);
        }
        printf("    {\"n\": %d, \"modes\": {\n", n);
        for (size_t m = 0; m < NMODES; m++) {
            const double a = bench_median(t[0][m], nt[0][m]), b = bench_median(t[1][m], nt[1][m]);
            printf("      \"%s\": {\"ahead_ms\": %.3f, \"inline_ms\": %.3f, "
                   "\"inline_over_ahead\": %.4f}%s\n",
                   modes[m].name, a, b, b / a, m + 1 < NMODES ? "," : "");
        }
        printf("    }}%s\n", si + 1 < ns ? "," : "");
        free(host);
        fflush(stdout);
    }
    printf("  ]\n}\n");
    return 0;
}
