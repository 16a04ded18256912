/*
 * launch.c — launch rate: --ops 1x1x1 SGEMMs launched back to back, then one
 * synchronize, through trnscid, against the same --ops cblas_sgemm calls in
 * this process, in the same run.
 *
 * Role and placement. A benchmark (bench/), not a test: one JSON object on
 * stdout, progress on stderr. bench/run_launch.sh starts trnscid with one
 * pinned core and runs this program pinned to another CPU (or the same one),
 * once per transport. The trnsci figure of a round is ops / (time from the
 * first launch to the end of the synchronize); the in-process figure is ops /
 * (time of the same number of single-threaded cblas_sgemm calls on the same
 * 1x1 operands). Rounds alternate the two sides; medians are reported.
 *
 * What it shows: with asynchronous launch (protocol 1.10) a launch costs
 * the client its validation, its encoding and a push on the submission ring,
 * and the daemon its decoding, validation and queueing; no round trip per op.
 * --blocking sets TRNSCI_LAUNCH_BLOCKING=1 first (one round trip per launch)
 * for comparison.
 *
 * Checked: C counts the ops exactly (C += 1 * 1 per op, exact in float below
 * 2^24), on both sides, every round.
 */
#define _GNU_SOURCE
#include <cblas.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "trnsci/trnblas.h"
#include "trnsci/trnsci.h"

static void die(const char *what) {
    fprintf(stderr, "bench_launch: %s failed: %s\n", what, trnsciGetLastErrorMessage());
    exit(1);
}

typedef struct options {
    const char *addr;
    const char *label;
    int ops, rounds, blocking;
} options;

static void parse(int argc, char **argv, options *o) {
    *o = (options){NULL, "local", 100000, 7, 0};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--addr") && i + 1 < argc)
            o->addr = argv[++i];
        else if (!strcmp(argv[i], "--label") && i + 1 < argc)
            o->label = argv[++i];
        else if (!strcmp(argv[i], "--ops") && i + 1 < argc)
            o->ops = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
            o->rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--blocking"))
            o->blocking = 1;
        else {
            fprintf(stderr,
                    "usage: bench_launch [--addr ADDR] [--label NAME] [--ops N] [--rounds R] "
                    "[--blocking]\n");
            exit(2);
        }
    }
    if (o->ops < 1 || o->ops >= (1 << 24) || o->rounds < 1) {
        fprintf(stderr, "bench_launch: --ops must be in [1, 2^24), --rounds >= 1\n");
        exit(2);
    }
}

/* One trnsci round: seconds from the first launch to the synchronize's end;
 * *launched: to the last launch's return. */
static double trnsci_round(trnblasHandle_t h, float *dA, float *dC, int ops, double *launched) {
    const float one = 1, zero = 0;
    if (trnsciMemcpy(dC, &zero, sizeof(zero), trnsciMemcpyHostToDevice))
        die("trnsciMemcpy (C = 0)");
    const int64_t t0 = bench_now_ns();
    for (int i = 0; i < ops; i++)
        if (trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 1, 1, 1, &one, dA, 1, dA, 1, &one, dC, 1) !=
            TRNBLAS_STATUS_SUCCESS)
            die("trnblasSgemm");
    *launched = (double)(bench_now_ns() - t0) * 1e-9;
    if (trnsciDeviceSynchronize())
        die("trnsciDeviceSynchronize");
    const double s = (double)(bench_now_ns() - t0) * 1e-9;
    float c = -1;
    if (trnsciMemcpy(&c, dC, sizeof(c), trnsciMemcpyDeviceToHost))
        die("trnsciMemcpy (C)");
    if (c != (float)ops) {
        fprintf(stderr, "bench_launch: trnsci C = %g after %d ops\n", (double)c, ops);
        exit(1);
    }
    return s;
}

/* One in-process round: the same calls to OpenBLAS directly. */
static double inprocess_round(int ops) {
    float a = 1, c = 0;
    const int64_t t0 = bench_now_ns();
    for (int i = 0; i < ops; i++)
        cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 1, 1, 1, 1.0f, &a, 1, &a, 1, 1.0f,
                    &c, 1);
    const double s = (double)(bench_now_ns() - t0) * 1e-9;
    if (c != (float)ops) {
        fprintf(stderr, "bench_launch: in-process C = %g after %d ops\n", (double)c, ops);
        exit(1);
    }
    return s;
}

int main(int argc, char **argv) {
    options o;
    parse(argc, argv, &o);
    if (o.blocking)
        setenv("TRNSCI_LAUNCH_BLOCKING", "1", 1);
    openblas_set_num_threads(1);
    char cpus[64];
    bench_self_cpus(cpus, sizeof(cpus));
    if (trnsciInit(o.addr))
        die("trnsciInit");
    trnsciSelfTestSummary selftest;
    const int have_selftest =
        trnsciDaemonSelfTest(o.addr, 0, NULL, 0, NULL, &selftest) == trnsciSuccess;
    trnblasHandle_t h;
    float *dA, *dC;
    const float one = 1;
    if (trnblasCreate(&h))
        die("trnblasCreate");
    if (trnsciMalloc((void **)&dA, sizeof(float)) || trnsciMalloc((void **)&dC, sizeof(float)))
        die("trnsciMalloc");
    if (trnsciMemcpy(dA, &one, sizeof(one), trnsciMemcpyHostToDevice))
        die("trnsciMemcpy (A)");
    /* Warm-up: the daemon's worker, the ring, the caches. */
    double launched;
    trnsci_round(h, dA, dC, o.ops < 1000 ? o.ops : 1000, &launched);
    inprocess_round(1000);

    double *t_trn = calloc((size_t)o.rounds, sizeof(double));
    double *t_ip = calloc((size_t)o.rounds, sizeof(double));
    double *r_trn = calloc((size_t)o.rounds, sizeof(double));
    double *r_ip = calloc((size_t)o.rounds, sizeof(double));
    double *us_launch = calloc((size_t)o.rounds, sizeof(double));
    for (int r = 0; r < o.rounds; r++) {
        if (r % 2 == 0) {
            t_trn[r] = trnsci_round(h, dA, dC, o.ops, &launched);
            t_ip[r] = inprocess_round(o.ops);
        } else {
            t_ip[r] = inprocess_round(o.ops);
            t_trn[r] = trnsci_round(h, dA, dC, o.ops, &launched);
        }
        us_launch[r] = launched * 1e6 / o.ops;
        r_trn[r] = o.ops / t_trn[r];
        r_ip[r] = o.ops / t_ip[r];
        fprintf(stderr, "bench_launch (%s): round %d: trnsci %.0f ops/s, in process %.0f ops/s\n",
                o.label, r + 1, r_trn[r], r_ip[r]);
    }
    const bench_stats st = bench_stats_copy(r_trn, o.rounds);
    const bench_stats si = bench_stats_copy(r_ip, o.rounds);

    printf("{\n  \"benchmark\": \"launch\",\n  \"transport\": \"%s\",\n", o.label);
    printf("  \"address\": \"%s\",\n", o.addr ? o.addr : "(default)");
    printf("  \"launch\": \"%s\",\n", o.blocking ? "blocking" : "asynchronous");
    printf("  \"op\": \"1x1x1 sgemm, C += A B\",\n  \"ops_per_round\": %d,\n  \"rounds\": %d,\n",
           o.ops, o.rounds);
    printf("  \"trnsci_ops_per_s\": {\"median\": %.0f, \"min\": %.0f, \"max\": %.0f},\n", st.median,
           st.min, st.max);
    printf("  \"in_process_ops_per_s\": {\"median\": %.0f, \"min\": %.0f, \"max\": %.0f},\n",
           si.median, si.min, si.max);
    printf("  \"ratio\": %.4f,\n", st.median / si.median);
    printf("  \"trnsci_us_per_op\": %.3f,\n", 1e6 / st.median);
    /* Until the last launch returned: what the launching thread spent (it
     * blocks once the daemon's queue for the session is full). */
    printf("  \"launch_returns_us_per_op\": %.3f,\n", bench_stats_copy(us_launch, o.rounds).median);
    printf("  \"openblas\": {\"core\": \"%s\"},\n", openblas_get_corename());
    printf("  \"daemon_openblas\": {\"core\": \"%s\"},\n",
           have_selftest ? selftest.blasCore : "unknown");
    printf("  \"placement\": {\"bench_cpus\": \"%s\"}\n}\n", cpus);
    free(t_trn);
    free(t_ip);
    free(r_trn);
    free(r_ip);
    free(us_launch);
    trnsciFree(dA);
    trnsciFree(dC);
    trnblasDestroy(h);
    trnsciDeviceReset();
    return 0;
}
