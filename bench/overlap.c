/*
 * overlap.c — copy engines and cores working at once: pipelined versus
 * serialised upload → SGEMM → download over gRPC, in one run.
 *
 * One iteration: upload IN_BYTES (16 MiB: A and B of an n x n SGEMM, then
 * the rest of a batch of inputs) with trnsciMemcpyAsync(HostToDevice), SGEMM
 * C = A B (n = 1024), download C with trnsciMemcpyAsync(DeviceToHost).
 *   serialised: every iteration on one stream, then trnsciStreamSynchronize
 *               before the next: each step waits for the one before it.
 *   pipelined:  iteration i on stream i % 2; before reusing a stream the
 *               bench synchronises it (its host buffer is then free), so one
 *               stream's upload and download move while the other's GEMM
 *               computes: the daemon's copy engine stages data, its core
 *               computes, and the client library's fetch thread delivers
 *               downloads.
 * The daemon runs with one compute core (bench/run_overlap.sh). Repetitions
 * alternate serialised / pipelined; the JSON reports median/min/max ms per
 * mode and speedup = serialised_median / pipelined_median (target >= 1.2),
 * plus the largest error of C against a double-precision reference on
 * sampled entries (every iteration's download is checked in the last
 * repetition).
 *
 * usage: bench_overlap [ADDRESS] [--iters 50] [--reps 5] [--n 1024]
 *                      [--in-mib 16]
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trnsci/trnblas.h>
#include <trnsci/trnsci.h>

#include "bench_util.h"

#define MAX_REPS 64

static void check(trnsciError_t e, const char *what) {
    if (e != trnsciSuccess) {
        fprintf(stderr, "bench_overlap: %s failed: %s (%s)\n", what, trnsciGetErrorName(e),
                trnsciGetLastErrorMessage());
        exit(1);
    }
}

/* The device and host memory of one stream's iterations. */
typedef struct lane {
    trnsciStream_t stream;
    float *d_in, *d_c; /* d_in: A, then B, then the rest of the batch */
    float *h_c;
} lane;

typedef struct setup {
    int n, iters;
    size_t in_bytes, c_bytes;
    float *h_in; /* iteration i uploads h_in with A scaled by (i % 7 + 1) */
    lane lanes[2];
    trnblasHandle_t blas;
} setup;

/* A and B: small integers / 64, so every product and partial sum of the
 * reference is exact in float up to n = 2048 and the check is tight. */
static void fill_inputs(setup *s) {
    for (size_t i = 0; i < s->in_bytes / sizeof(float); i++)
        s->h_in[i] = (float)((int)((i * 2654435761u) >> 28 & 15u) - 8) / 64.0f;
}

/* The host inputs of iteration it: A's first column carries the iteration
 * number, so a download that belongs to another iteration is caught. */
static void stamp_iteration(setup *s, int it) {
    s->h_in[0] = (float)(it % 251) / 8.0f;
}

/* Largest |C - reference| over sampled entries of a downloaded C, for the
 * inputs as they were when iteration it was uploaded. */
static double check_c(const setup *s, const float *c, int it) {
    const int n = s->n;
    const float *a = s->h_in, *b = s->h_in + (size_t)n * (size_t)n;
    double worst = 0.0;
    for (int t = 0; t < 64; t++) {
        const int i = (t * 37) % n, j = (t * 101 + 3) % n;
        double ref = 0.0;
        for (int k = 0; k < n; k++) {
            const double aik = (i == 0 && k == 0) ? (double)(it % 251) / 8.0 : a[(size_t)k * n + i];
            ref += aik * (double)b[(size_t)j * n + k];
        }
        const double d = fabs(ref - (double)c[(size_t)j * n + i]);
        if (d > worst)
            worst = d;
    }
    return worst;
}

static void issue(setup *s, lane *l, int it) {
    const int n = s->n;
    const float one = 1.0f, zero = 0.0f;
    stamp_iteration(s, it);
    check(trnsciMemcpyAsync(l->d_in, s->h_in, s->in_bytes, trnsciMemcpyHostToDevice, l->stream),
          "upload");
    check(trnblasSetStream(s->blas, l->stream) == TRNBLAS_STATUS_SUCCESS ? trnsciSuccess
                                                                         : trnsciErrorUnknown,
          "trnblasSetStream");
    if (trnblasSgemm(s->blas, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &one, l->d_in, n,
                     l->d_in + (size_t)n * n, n, &zero, l->d_c, n) != TRNBLAS_STATUS_SUCCESS)
        check(trnsciErrorUnknown, "trnblasSgemm");
    check(trnsciMemcpyAsync(l->h_c, l->d_c, s->c_bytes, trnsciMemcpyDeviceToHost, l->stream),
          "download");
}

/* Runs the iterations; returns ms. With verify, checks each download. */
static double run(setup *s, int pipelined, int verify, double *worst) {
    const double t0 = bench_now_ms();
    int pending[2] = {-1, -1};
    for (int it = 0; it < s->iters; it++) {
        lane *l = &s->lanes[pipelined ? it % 2 : 0];
        const int li = pipelined ? it % 2 : 0;
        if (pipelined && pending[li] >= 0) {
            check(trnsciStreamSynchronize(l->stream), "trnsciStreamSynchronize");
            if (verify) {
                const double w = check_c(s, l->h_c, pending[li]);
                *worst = w > *worst ? w : *worst;
            }
        }
        /* check_c reads h_in as iteration pending[li] left it: only A[0] changes
         * per iteration, and check_c takes it from the iteration number. */
        issue(s, l, it);
        pending[li] = it;
        if (!pipelined) {
            check(trnsciStreamSynchronize(l->stream), "trnsciStreamSynchronize");
            if (verify) {
                const double w = check_c(s, l->h_c, it);
                *worst = w > *worst ? w : *worst;
            }
            pending[li] = -1;
        }
    }
    for (int li = 0; li < 2; li++) {
        if (pending[li] < 0)
            continue;
        check(trnsciStreamSynchronize(s->lanes[li].stream), "trnsciStreamSynchronize");
        if (verify) {
            const double w = check_c(s, s->lanes[li].h_c, pending[li]);
            *worst = w > *worst ? w : *worst;
        }
    }
    return bench_now_ms() - t0;
}

int main(int argc, char **argv) {
    const char *addr = NULL;
    int reps = 5;
    setup s = {.n = 1024, .iters = 50};
    int in_mib = 16;
    const bench_opt opts[] = {{"--iters", BENCH_OPT_INT, &s.iters},
                              {"--reps", BENCH_OPT_INT, &reps},
                              {"--n", BENCH_OPT_INT, &s.n},
                              {"--in-mib", BENCH_OPT_INT, &in_mib},
                              {NULL, BENCH_OPT_FLAG, NULL}};
    if (bench_parse_args(opts, argc, argv, &addr) != 0) {
        fprintf(stderr, "usage: bench_overlap [ADDRESS] [--iters N] [--reps N] [--n N] "
                        "[--in-mib M]\n");
        return 2;
    }
    if (reps < 1 || reps > MAX_REPS || s.iters < 2 || s.n < 16 || s.n > 2048) {
        fprintf(stderr, "bench_overlap: bad options\n");
        return 2;
    }
    s.c_bytes = (size_t)s.n * (size_t)s.n * sizeof(float);
    s.in_bytes = (size_t)in_mib << 20;
    if (s.in_bytes < 2 * s.c_bytes)
        s.in_bytes = 2 * s.c_bytes; /* A and B at least */

    check(trnsciInit(addr), "trnsciInit");
    if (trnblasCreate(&s.blas) != TRNBLAS_STATUS_SUCCESS)
        check(trnsciErrorUnknown, "trnblasCreate");
    s.h_in = malloc(s.in_bytes);
    if (!s.h_in)
        return 1;
    fill_inputs(&s);
    for (int li = 0; li < 2; li++) {
        lane *l = &s.lanes[li];
        check(trnsciStreamCreate(&l->stream), "trnsciStreamCreate");
        check(trnsciMalloc((void **)&l->d_in, s.in_bytes), "trnsciMalloc");
        check(trnsciMalloc((void **)&l->d_c, s.c_bytes), "trnsciMalloc");
        l->h_c = malloc(s.c_bytes);
        if (!l->h_c)
            return 1;
    }

    double worst = 0.0, scratch = 0.0;
    run(&s, 1, 0, &scratch); /* warm-up: daemon staging, fetch thread, pages */
    run(&s, 0, 0, &scratch);
    double t_serial[MAX_REPS], t_pipe[MAX_REPS];
    for (int r = 0; r < reps; r++) {
        const int verify = r == reps - 1;
        t_serial[r] = run(&s, 0, verify, &worst);
        t_pipe[r] = run(&s, 1, verify, &worst);
        fprintf(stderr, "bench_overlap: rep %d: serialised %.1f ms, pipelined %.1f ms\n", r,
                t_serial[r], t_pipe[r]);
    }
    const bench_stats ss = bench_stats_of(t_serial, reps), sp = bench_stats_of(t_pipe, reps);
    /* Inputs are multiples of 1/64 (A[0,0] of 1/8) of magnitude at most
     * 32/8; every product is a multiple of 2^-12 and every partial sum of n
     * <= 2048 of them stays far below 2^24 * 2^-12, so float accumulation is
     * exact in any order and the only correct error is 0. */
    const double tol = 0.0;
    printf("{\"bench\":\"overlap\",\"transport\":\"%s\",\"n\":%d,\"iters\":%d,\"reps\":%d,"
           "\"upload_bytes\":%zu,\"download_bytes\":%zu,"
           "\"serialised_ms\":{\"median\":%.2f,\"min\":%.2f,\"max\":%.2f},"
           "\"pipelined_ms\":{\"median\":%.2f,\"min\":%.2f,\"max\":%.2f},"
           "\"speedup\":%.3f,\"target\":1.2,\"max_abs_err\":%.3g,\"tolerance\":%.3g}\n",
           addr ? addr : "default", s.n, s.iters, reps, s.in_bytes, s.c_bytes, ss.median, ss.min,
           ss.max, sp.median, sp.min, sp.max, ss.median / sp.median, worst, tol);
    for (int li = 0; li < 2; li++) {
        trnsciFree(s.lanes[li].d_in);
        trnsciFree(s.lanes[li].d_c);
        trnsciStreamDestroy(s.lanes[li].stream);
        free(s.lanes[li].h_c);
    }
    trnblasDestroy(s.blas);
    free(s.h_in);
    return worst <= tol ? 0 : 3;
}
