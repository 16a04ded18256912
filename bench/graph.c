/*
 * graph.c — per-node overhead of a graph: a captured chain of --nodes 1x1x1
 * SGEMMs, launched --launches times then synchronised, through trnscid,
 * against the same SGEMMs called in this process, in the same run; and the
 * same chain launched op by op (asynchronous launch) for comparison.
 *
 * Role and placement. A benchmark (bench/), not a test: one JSON object on
 * stdout, progress on stderr. bench/run_graph.sh starts trnscid with one
 * pinned core and runs this program pinned to another CPU (or the same).
 *
 * Figures per round (medians reported):
 *  - graph: T = time from the first trnsciGraphLaunch to the end of the
 *    synchronize after --launches launches; per node = T / (launches x
 *    nodes); overhead per node = that minus the in-process time per call;
 *  - async: the same nodes x launches SGEMMs launched one by one, then one
 *    synchronize;
 *  - in process: nodes x launches cblas_sgemm calls on the same 1x1 operands.
 *
 * Checked: C counts the SGEMMs exactly (C += 1 * 1 each; exact in float below
 * 2^24), on every side, every round.
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
    fprintf(stderr, "bench_graph: %s failed: %s\n", what, trnsciGetLastErrorMessage());
    exit(1);
}

typedef struct options {
    const char *addr, *label;
    int nodes, launches, rounds;
    int no_async; /* graph and in process only (for profiling the graph path) */
} options;

static void parse(int argc, char **argv, options *o) {
    *o = (options){NULL, "local", 1000, 10, 7, 0};
    const bench_opt opts[] = {{"--addr", BENCH_OPT_STR, &o->addr},
                              {"--label", BENCH_OPT_STR, &o->label},
                              {"--nodes", BENCH_OPT_INT, &o->nodes},
                              {"--launches", BENCH_OPT_INT, &o->launches},
                              {"--rounds", BENCH_OPT_INT, &o->rounds},
                              {"--no-async", BENCH_OPT_FLAG, &o->no_async},
                              {NULL, BENCH_OPT_INT, NULL}};
    if (bench_parse_args(opts, argc, argv, NULL) != 0) {
        fprintf(stderr, "usage: bench_graph [--addr ADDR] [--label NAME] [--nodes N] "
                        "[--launches L] [--rounds R] [--no-async]\n");
        exit(2);
    }
    if (o->nodes < 1 || o->launches < 1 || o->rounds < 1 ||
        (double)o->nodes * o->launches >= (double)(1 << 24)) {
        fprintf(stderr, "bench_graph: need nodes, launches, rounds >= 1 and nodes x launches < "
                        "2^24\n");
        exit(2);
    }
}

typedef struct setup {
    trnblasHandle_t h;
    trnsciStream_t s;
    float *a, *c;
    trnsciGraphExec_t x;
} setup;

static void sgemm(const setup *st) {
    const float one = 1;
    if (trnblasSgemm(st->h, TRNBLAS_OP_N, TRNBLAS_OP_N, 1, 1, 1, &one, st->a, 1, st->a, 1, &one,
                     st->c, 1) != TRNBLAS_STATUS_SUCCESS)
        die("trnblasSgemm");
}

static void check(const setup *st, int expect, const char *side) {
    float c = -1;
    if (trnsciMemcpy(&c, st->c, sizeof(c), trnsciMemcpyDeviceToHost))
        die("trnsciMemcpy (C)");
    if (c != (float)expect) {
        fprintf(stderr, "bench_graph: %s: C = %g, expected %d\n", side, (double)c, expect);
        exit(1);
    }
}

static void zero_c(const setup *st) {
    const float zero = 0;
    if (trnsciMemcpy(st->c, &zero, sizeof(zero), trnsciMemcpyHostToDevice))
        die("trnsciMemcpy (C = 0)");
}

static double graph_round(const setup *st, const options *o) {
    zero_c(st);
    const int64_t t0 = bench_now_ns();
    for (int l = 0; l < o->launches; l++)
        if (trnsciGraphLaunch(st->x, st->s))
            die("trnsciGraphLaunch");
    if (trnsciStreamSynchronize(st->s))
        die("trnsciStreamSynchronize");
    const double s = (double)(bench_now_ns() - t0) * 1e-9;
    check(st, o->nodes * o->launches, "graph");
    return s;
}

static double async_round(const setup *st, const options *o) {
    zero_c(st);
    const int64_t t0 = bench_now_ns();
    for (int i = 0; i < o->nodes * o->launches; i++)
        sgemm(st);
    if (trnsciStreamSynchronize(st->s))
        die("trnsciStreamSynchronize");
    const double s = (double)(bench_now_ns() - t0) * 1e-9;
    check(st, o->nodes * o->launches, "async");
    return s;
}

static double inprocess_round(int calls) {
    float a = 1, c = 0;
    const int64_t t0 = bench_now_ns();
    for (int i = 0; i < calls; i++)
        cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 1, 1, 1, 1.0f, &a, 1, &a, 1, 1.0f,
                    &c, 1);
    const double s = (double)(bench_now_ns() - t0) * 1e-9;
    if (c != (float)calls) {
        fprintf(stderr, "bench_graph: in process C = %g after %d calls\n", (double)c, calls);
        exit(1);
    }
    return s;
}

static void make(setup *st, const options *o, double *instantiate_s) {
    const float one = 1;
    if (trnblasCreate(&st->h) || trnsciStreamCreate(&st->s) || trnblasSetStream(st->h, st->s))
        die("handle and stream");
    if (trnsciMalloc((void **)&st->a, sizeof(float)) ||
        trnsciMalloc((void **)&st->c, sizeof(float)))
        die("trnsciMalloc");
    if (trnsciMemcpy(st->a, &one, sizeof(one), trnsciMemcpyHostToDevice))
        die("trnsciMemcpy (A)");
    if (trnsciStreamBeginCapture(st->s, trnsciStreamCaptureModeGlobal))
        die("trnsciStreamBeginCapture");
    for (int i = 0; i < o->nodes; i++)
        sgemm(st);
    trnsciGraph_t g;
    if (trnsciStreamEndCapture(st->s, &g))
        die("trnsciStreamEndCapture");
    const int64_t t0 = bench_now_ns();
    if (trnsciGraphInstantiate(&st->x, g, 0))
        die("trnsciGraphInstantiate");
    *instantiate_s = (double)(bench_now_ns() - t0) * 1e-9;
    trnsciGraphDestroy(g);
}

int main(int argc, char **argv) {
    options o;
    parse(argc, argv, &o);
    openblas_set_num_threads(1);
    char cpus[64];
    bench_self_cpus(cpus, sizeof(cpus));
    if (trnsciInit(o.addr))
        die("trnsciInit");
    trnsciSelfTestSummary selftest;
    const int have_selftest =
        trnsciDaemonSelfTest(o.addr, 0, NULL, 0, NULL, &selftest) == trnsciSuccess;
    setup st;
    double inst_s;
    make(&st, &o, &inst_s);
    const int calls = o.nodes * o.launches;
    graph_round(&st, &o); /* warm-up */
    async_round(&st, &o);
    inprocess_round(calls);

    double *us_graph = calloc((size_t)o.rounds, sizeof(double));
    double *us_async = calloc((size_t)o.rounds, sizeof(double));
    double *us_ip = calloc((size_t)o.rounds, sizeof(double));
    double *over = calloc((size_t)o.rounds, sizeof(double));
    for (int r = 0; r < o.rounds; r++) {
        const double ip = inprocess_round(calls);
        const double gr = graph_round(&st, &o);
        const double as = o.no_async ? 0 : async_round(&st, &o);
        us_ip[r] = ip * 1e6 / calls;
        us_graph[r] = gr * 1e6 / calls;
        us_async[r] = as * 1e6 / calls;
        over[r] = us_graph[r] - us_ip[r];
        fprintf(stderr,
                "bench_graph (%s): round %d: graph %.3f us/node, async %.3f us/op, in process "
                "%.3f us/call\n",
                o.label, r + 1, us_graph[r], us_async[r], us_ip[r]);
    }
    printf("{\n  \"benchmark\": \"graph_node_overhead\",\n  \"transport\": \"%s\",\n", o.label);
    printf("  \"address\": \"%s\",\n", o.addr ? o.addr : "(default)");
    printf("  \"graph\": \"chain of %d 1x1x1 sgemm nodes (C += A B), captured from one stream\",\n",
           o.nodes);
    printf("  \"nodes\": %d,\n  \"launches_per_round\": %d,\n  \"rounds\": %d,\n", o.nodes,
           o.launches, o.rounds);
    printf("  \"instantiate_ms\": %.3f,\n", inst_s * 1e3);
    bench_json_stats("graph_us_per_node", us_graph, o.rounds, ",");
    bench_json_stats("async_us_per_op", us_async, o.rounds, ",");
    bench_json_stats("in_process_us_per_call", us_ip, o.rounds, ",");
    bench_json_stats("graph_overhead_us_per_node", over, o.rounds, ",");
    printf("  \"ratio_graph\": %.4f,\n",
           bench_stats_copy(us_ip, o.rounds).median / bench_stats_copy(us_graph, o.rounds).median);
    printf("  \"ratio_async\": %.4f,\n",
           bench_stats_copy(us_ip, o.rounds).median / bench_stats_copy(us_async, o.rounds).median);
    printf("  \"openblas\": {\"core\": \"%s\"},\n", openblas_get_corename());
    printf("  \"daemon_openblas\": {\"core\": \"%s\"},\n",
           have_selftest ? selftest.blasCore : "unknown");
    printf("  \"placement\": {\"bench_cpus\": \"%s\"}\n}\n", cpus);
    free(us_graph);
    free(us_async);
    free(us_ip);
    free(over);
    trnsciGraphExecDestroy(st.x);
    trnsciFree(st.a);
    trnsciFree(st.c);
    trnsciStreamDestroy(st.s);
    trnblasDestroy(st.h);
    trnsciDeviceReset();
    return 0;
}
