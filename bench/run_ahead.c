/*
 * run_ahead.c — a conversion behind a GEMM on one stream, with run-ahead
 * (scheduler/sched.h: it starts while the GEMM computes, their memory
 * being apart) and without (--run-ahead off: it waits for the GEMM), on two
 * daemons of the same cores started by run_run_ahead.sh.
 *
 * One iteration, on the default stream: an SGEMM n x n x n (both cores)
 * into C, then trntensorPermute of an independent FP64 tensor of --mib MiB
 * to FP32 (a conversion of its own: the copy engine while the cores are
 * busy). A timed repetition is --iters iterations launched back to back and
 * one synchronize, reported per iteration; the same with the GEMM alone and
 * the permutation alone on the same daemon (what the two would cost if
 * nothing overlapped: their sum). Rounds alternate the daemons. Prints
 * JSON: medians (ms per iteration), the overlap bought
 * ((gemm + perm - both) / perm: 1 = the permutation entirely hidden), and
 * the ratio off / on.
 *
 * usage: bench_run_ahead ON_ADDR --off OFF_ADDR [--n 1024] [--mib 32]
 *                        [--iters 8] [--reps 5] [--rounds 3]
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trnsci/trnblas.h>
#include <trnsci/trnsci.h>
#include <trnsci/trntensor.h>

#include "bench_util.h"

#define MAX_SAMPLES 256
enum { BOTH, GEMM_ONLY, PERM_ONLY, NKINDS };
static const char *const kind_name[NKINDS] = {"gemm_then_permute", "gemm_alone", "permute_alone"};

static void die(const char *what) {
    fprintf(stderr, "bench_run_ahead: %s failed: %s\n", what, trnsciGetLastErrorMessage());
    exit(1);
}

typedef struct side {
    trnblasHandle_t blas;
    trntensorHandle_t tensor;
    trntensorTensorDescriptor_t ta, tb;
    trntensorOperationDescriptor_t op;
    trntensorPlan_t plan;
    float *a, *c, *pb;
    double *pa;
} side;

static void side_open(const char *addr, int n, size_t elems, side *s) {
    if (trnsciInit(addr) != trnsciSuccess)
        die("trnsciInit");
    const size_t nn = (size_t)n * (size_t)n;
    if (trnsciMalloc((void **)&s->a, nn * 4) || trnsciMalloc((void **)&s->c, nn * 4) ||
        trnsciMalloc((void **)&s->pa, elems * 8) || trnsciMalloc((void **)&s->pb, elems * 4) ||
        trnsciMemset(s->a, 0x3c, nn * 4) || trnsciMemset(s->pa, 0x3f, elems * 8))
        die("buffers");
    if (trnblasCreate(&s->blas) || trntensorCreate(&s->tensor))
        die("handles");
    const int64_t ext[1] = {(int64_t)elems};
    const int32_t mode[1] = {'i'};
    if (trntensorCreateTensorDescriptor(s->tensor, &s->ta, 1, ext, NULL, TRNSCI_R_64F, 0) ||
        trntensorCreateTensorDescriptor(s->tensor, &s->tb, 1, ext, NULL, TRNSCI_R_32F, 0) ||
        trntensorCreatePermutation(s->tensor, &s->op, s->ta, mode, TRNTENSOR_OP_IDENTITY, s->tb,
                                   mode, TRNTENSOR_COMPUTE_DESC_64F) ||
        trntensorCreatePlan(s->tensor, &s->plan, s->op, NULL, 0))
        die("the permutation's plan");
}

static void side_close(side *s) {
    trntensorDestroyPlan(s->plan);
    trntensorDestroyOperationDescriptor(s->op);
    trntensorDestroyTensorDescriptor(s->ta);
    trntensorDestroyTensorDescriptor(s->tb);
    trntensorDestroy(s->tensor);
    trnblasDestroy(s->blas);
    trnsciFree(s->a);
    trnsciFree(s->c);
    trnsciFree(s->pa);
    trnsciFree(s->pb);
    trnsciDeviceReset();
}

/* iters iterations of kind k and one synchronize: ms per iteration. */
static double run(side *s, int kind, int n, int iters) {
    const float one = 1.0f, zero = 0.0f;
    const double alpha = 1.0;
    const double t0 = bench_now_ms();
    for (int i = 0; i < iters; i++) {
        if (kind != PERM_ONLY &&
            trnblasSgemm(s->blas, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &one, s->a, n, s->a, n,
                         &zero, s->c, n) != TRNBLAS_STATUS_SUCCESS)
            die("trnblasSgemm");
        if (kind != GEMM_ONLY && trntensorPermute(s->tensor, s->plan, &alpha, s->pa, s->pb, 0) !=
                                     TRNTENSOR_STATUS_SUCCESS)
            die("trntensorPermute");
    }
    if (trnsciStreamSynchronize(NULL) != trnsciSuccess)
        die("trnsciStreamSynchronize");
    return (bench_now_ms() - t0) / iters;
}

int main(int argc, char **argv) {
    const char *on = NULL, *off = NULL;
    int n = 1024, mib = 32, iters = 8, reps = 5, rounds = 3;
    const bench_opt opts[] = {
        {"--off", BENCH_OPT_STR, &off},   {"--n", BENCH_OPT_INT, &n},
        {"--mib", BENCH_OPT_INT, &mib},   {"--iters", BENCH_OPT_INT, &iters},
        {"--reps", BENCH_OPT_INT, &reps}, {"--rounds", BENCH_OPT_INT, &rounds},
        {NULL, BENCH_OPT_FLAG, NULL}};
    if (bench_parse_args(opts, argc, argv, &on) != 0 || !on || !off || n < 1 || mib < 1 ||
        iters < 1 || reps < 1 || rounds < 1 || reps * rounds > MAX_SAMPLES) {
        fprintf(stderr, "usage: bench_run_ahead ON_ADDR --off OFF_ADDR [--n N] [--mib M] "
                        "[--iters K] [--reps R] [--rounds R]\n");
        return 2;
    }
    const size_t elems = (size_t)mib << 17; /* doubles */
    const char *addr[2] = {on, off};
    static double t[2][NKINDS][MAX_SAMPLES];
    int nt = 0;
    for (int r = 0; r < rounds; r++)
        for (int d = 0; d < 2; d++) {
            side s;
            side_open(addr[d], n, elems, &s);
            for (int k = 0; k < NKINDS; k++)
                (void)run(&s, k, n, 1); /* warm-up: plans, pages */
            for (int rep = 0; rep < reps; rep++)
                for (int k = 0; k < NKINDS; k++)
                    t[d][k][r * reps + rep] = run(&s, k, n, iters);
            side_close(&s);
        }
    nt = rounds * reps;
    printf("{\n  \"bench\": \"run_ahead\",\n");
    bench_json_host(",\n");
    printf("  \"n\": %d, \"mib\": %d, \"iters\": %d, \"reps\": %d, \"rounds\": %d,\n", n, mib,
           iters, reps, rounds);
    double med[2][NKINDS];
    const char *const dname[2] = {"run_ahead_on", "run_ahead_off"};
    for (int d = 0; d < 2; d++) {
        printf("  \"%s\": {", dname[d]);
        for (int k = 0; k < NKINDS; k++) {
            med[d][k] = bench_median(t[d][k], nt);
            printf("\"%s_ms\": %.3f, ", kind_name[k], med[d][k]);
        }
        printf("\"overlap\": %.3f},\n",
               (med[d][GEMM_ONLY] + med[d][PERM_ONLY] - med[d][BOTH]) / med[d][PERM_ONLY]);
    }
    printf("  \"off_over_on\": %.4f\n}\n", med[1][BOTH] / med[0][BOTH]);
    return 0;
}
