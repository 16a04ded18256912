/*
 * fft_graph.c — many small FFTs through trnscid, launched one by one and as a
 * captured graph, against FFTW in this process, in the same run.
 *
 * Role and placement. A benchmark (bench/), not a test: one JSON object on
 * stdout, progress on stderr. bench/run_fft_graph.sh starts trnscid with one
 * core under `taskset -c $DAEMON_CPU` and runs this program under `taskset -c
 * $BENCH_CPU`; with --inproc-cpu (the script passes DAEMON_CPU) the in-process
 * side pins its thread to the daemon's CPU for its samples, so both sides
 * compute on the same CPU (as bench/fft.c does). DAEMON_CPU = BENCH_CPU puts
 * everything on one CPU.
 *
 * The work: --count (default 10,000) complex-float C2C forward transforms of
 * --n points (default 1024), out of place, each on its own input and its own
 * output buffer: the inputs are transforms 0..count-1 of one allocation of
 * count x n elements, the outputs likewise (distinct buffers, not rotating;
 * 80 MiB each for 1024 x 10,000). One trnfft plan of batch 1 (trnfftPlan1d),
 * made once, executes every transform. Three sides per round:
 *  - async: count trnfftExecC2C (transform k: input k -> output k) on one
 *    stream, then one trnsciStreamSynchronize; timed from the first launch to
 *    the end of the synchronize;
 *  - graph: the same count calls captured once (trnsciStreamBeginCapture /
 *    EndCapture) into count / --graph-nodes graphs of --graph-nodes nodes
 *    each (default: ONE graph of all count nodes), each instantiated once
 *    (capture and instantiation are timed apart and reported, not in the
 *    round); per round: trnsciGraphLaunch of each graph, then one
 *    synchronize;
 *  - in process: FFTW in this thread, single-threaded, planned as the daemon
 *    plans (kernels/cpu/fft.c: one transform, trnscid's default --plan-effort
 *    measure = FFTW_MEASURE; --plan-effort changes both only if the daemon is
 *    started with the same), fftwf_plan_dft_1d on scratch arrays of the same
 *    alignment, then fftwf_execute_dft on the same count input and output
 *    buffers. Over the local transport those are the daemon's buffers
 *    themselves (device memory is host-addressable shared memory); over gRPC
 *    they are host arrays of the same layout.
 *  - in process, daemon's plan (with --daemon-cache-dir, the daemon's
 *    --cache-dir): the same loop with the plan the daemon chose (its FFTW
 *    wisdom imported, FFTW_WISDOM_ONLY), because two FFTW_MEASURE planners
 *    often pick different algorithms (docs/benchmarks.md, FFT); this ratio
 *    isolates the daemon's cost.
 * Rounds (--rounds, default 7) take one sample of each side, the order
 * rotating from round to round; one untimed warm-up round first. Reported:
 * medians (min, max) of us per transform, ratio_async = in-process time /
 * async time and ratio_graph = in-process time / graph time (1.0 = the daemon
 * adds nothing), the same against the daemon's plan, the client's CPU time
 * per transform and, with --daemon-pid, the daemon's threads' busy fraction
 * during the trnsci sides.
 *
 * Checked, every side of every round: each output buffer is first filled with
 * 0xff bytes (NaN), so a transform not written fails; afterwards every
 * transform's relative L2 error against a reference computed once in this
 * process (the in-process plan on the same inputs) must be <= 8 log2(n) 2^-24.
 * Why that bound: an FFT of n = 2^k points in binary32 with accurate twiddles
 * has a relative L2 error of at most about c k u (u = 2^-24, c a small
 * constant; Higham, "Accuracy and Stability of Numerical Algorithms", 24.1),
 * the rms growth being O(sqrt(k) u); two different FFTW algorithms (the
 * daemon's plan and this process's) each stay within c k u of the exact
 * result, so they differ by at most 2 c k u; c = 4 leaves room for the
 * codelets' and twiddles' own rounding. The same plan gives the same bits
 * (new-array execute on the same alignment). bench/fft.c uses the same bound.
 * A failed check exits 3.
 *
 * usage: bench_fft_graph [--addr ADDR] [--label NAME] [--n N] [--count C]
 *          [--graph-nodes K] [--rounds R] [--inproc-cpu CPU] [--daemon-pid PID]
 *          [--daemon-cache-dir DIR] [--plan-effort estimate|measure|patient]
 *          [--target-async X] [--target-graph Y]
 */
#define _GNU_SOURCE
#include <cblas.h>
#include <fftw3.h>

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "trnsci/trnfft.h"
#include "trnsci/trnsci.h"

#define MAX_ROUNDS 101

static void die(const char *what) {
    fprintf(stderr, "bench_fft_graph: %s failed: %s\n", what, trnsciGetLastErrorMessage());
    exit(1);
}

static void fft_check(trnfftResult r, const char *what) {
    if (r != TRNFFT_SUCCESS) {
        fprintf(stderr, "bench_fft_graph: %s failed: %s (%s)\n", what, trnfftGetStatusName(r),
                trnsciGetLastErrorMessage());
        exit(1);
    }
}

typedef struct options {
    const char *addr, *label, *cache_dir, *effort;
    int n, count, graph_nodes, rounds, inproc_cpu, daemon_pid;
    double target_async, target_graph;
} options;

static void usage(void) {
    fputs("usage: bench_fft_graph [--addr ADDR] [--label NAME] [--n N] [--count C]\n"
          "         [--graph-nodes K] [--rounds R] [--inproc-cpu CPU] [--daemon-pid PID]\n"
          "         [--daemon-cache-dir DIR] [--plan-effort estimate|measure|patient]\n"
          "         [--target-async X] [--target-graph Y]\n",
          stderr);
    exit(2);
}

static void parse(int argc, char **argv, options *o) {
    *o = (options){NULL, "local", NULL, "measure", 1024, 10000, 0, 7, -1, 0, -1, -1};
    const bench_opt opts[] = {{"--addr", BENCH_OPT_STR, &o->addr},
                              {"--label", BENCH_OPT_STR, &o->label},
                              {"--daemon-cache-dir", BENCH_OPT_STR, &o->cache_dir},
                              {"--plan-effort", BENCH_OPT_STR, &o->effort},
                              {"--n", BENCH_OPT_INT, &o->n},
                              {"--count", BENCH_OPT_INT, &o->count},
                              {"--graph-nodes", BENCH_OPT_INT, &o->graph_nodes},
                              {"--rounds", BENCH_OPT_INT, &o->rounds},
                              {"--inproc-cpu", BENCH_OPT_INT, &o->inproc_cpu},
                              {"--daemon-pid", BENCH_OPT_INT, &o->daemon_pid},
                              {"--target-async", BENCH_OPT_DOUBLE, &o->target_async},
                              {"--target-graph", BENCH_OPT_DOUBLE, &o->target_graph},
                              {NULL, BENCH_OPT_FLAG, NULL}};
    if (bench_parse_args(opts, argc, argv, NULL) != 0)
        usage();
    if (o->graph_nodes == 0)
        o->graph_nodes = o->count;
    if (o->n < 2 || o->count < 1 || o->rounds < 1 || o->rounds > MAX_ROUNDS || o->graph_nodes < 1 ||
        o->count % o->graph_nodes != 0 ||
        (strcmp(o->effort, "estimate") && strcmp(o->effort, "measure") &&
         strcmp(o->effort, "patient"))) {
        fprintf(stderr,
                "bench_fft_graph: need n >= 2, count >= 1, 1 <= rounds <= %d, "
                "graph-nodes dividing count, a known plan effort\n",
                MAX_ROUNDS);
        exit(2);
    }
    /* The targets of the brief: small transforms 0.3 (async) and 0.6 (graph),
     * large ones 0.95 either way. */
    if (o->target_async < 0)
        o->target_async = o->n <= 4096 ? 0.3 : 0.95;
    if (o->target_graph < 0)
        o->target_graph = o->n <= 4096 ? 0.6 : 0.95;
}

static unsigned effort_flags(const char *e) {
    return !strcmp(e, "estimate")  ? FFTW_ESTIMATE
           : !strcmp(e, "patient") ? FFTW_PATIENT
                                   : FFTW_MEASURE;
}

/* ---- placement ---------------------------------------------------------------------- */

static bench_pin g_pin; /* the in-process side's CPU (--inproc-cpu) */

/* ---- the benchmark's state ---------------------------------------------------------- */

typedef struct bench {
    options o;
    size_t elems, bytes; /* count x n complex floats */
    int devmem;          /* device memory is host-addressable (local transport) */
    fftwf_complex *hin, *ref, *hout, *check;
    trnfftComplex *din, *dout;
    fftwf_complex *ip_in, *ip_out; /* the in-process side's buffers */
    fftwf_plan own, wis;
    int same_plan; /* -1: unknown */
    trnsciStream_t s;
    trnfftHandle h;
    trnsciGraphExec_t *x;
    int ngraphs;
    double own_plan_ms, plan_first_exec_ms, capture_ms, instantiate_ms;
    double worst_err[4];
} bench;

enum { SIDE_ASYNC, SIDE_GRAPH, SIDE_INPROC, SIDE_INPROC_WIS, NSIDES };
static const char *const side_name[NSIDES] = {"async", "graph", "in process",
                                              "in process (daemon's plan)"};

/* Daemon's wisdom (after forgetting ours): its single-transform plan with
 * FFTW_WISDOM_ONLY; waits up to 15 s for the daemon to write it. */
static fftwf_plan daemon_plan(const char *dir, int n, unsigned flags) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/fftwf.wisdom", dir);
    fftwf_complex *a = fftwf_malloc((size_t)n * sizeof(fftwf_complex));
    fftwf_complex *b = fftwf_malloc((size_t)n * sizeof(fftwf_complex));
    fftwf_plan p = NULL;
    for (int tries = 0; tries < 150 && !p; tries++) {
        fftwf_forget_wisdom();
        FILE *f = fopen(path, "r");
        if (f) {
            if (fftwf_import_wisdom_from_file(f))
                p = fftwf_plan_dft_1d(n, a, b, FFTW_FORWARD, flags | FFTW_WISDOM_ONLY);
            fclose(f);
        }
        if (!p)
            usleep(100000);
    }
    fftwf_free(a);
    fftwf_free(b);
    return p;
}

/* The largest per-transform relative L2 error of out against the reference;
 * INFINITY on NaN (an output not written). */
static double worst_rel_l2(const bench *b, const fftwf_complex *out) {
    const int n = b->o.n;
    double worst = 0;
    for (int k = 0; k < b->o.count; k++) {
        const float *g = (const float *)(out + (size_t)k * n),
                    *r = (const float *)(b->ref + (size_t)k * n);
        double num = 0, den = 0;
        for (int i = 0; i < 2 * n; i++) {
            const double d = (double)g[i] - (double)r[i];
            num += d * d;
            den += (double)r[i] * (double)r[i];
        }
        worst = bench_worse(worst, den > 0 ? sqrt(num / den) : sqrt(num));
    }
    return worst;
}

/* 0xff in every output byte (NaN floats) before a side runs. */
static void poison(const bench *b, int side) {
    if (side <= SIDE_GRAPH || b->devmem) {
        if (trnsciMemset(b->dout, 0xff, b->bytes))
            die("trnsciMemset (output)");
    } else {
        memset(b->hout, 0xff, b->bytes);
    }
}

static void verify(bench *b, int side, int round) {
    const fftwf_complex *out;
    if (side <= SIDE_GRAPH || b->devmem) {
        if (b->devmem) {
            out = (const fftwf_complex *)b->dout;
        } else {
            if (trnsciMemcpy(b->check, b->dout, b->bytes, trnsciMemcpyDeviceToHost))
                die("trnsciMemcpy (download)");
            out = b->check;
        }
    } else {
        out = b->hout;
    }
    const double err = worst_rel_l2(b, out);
    const double tol = 8.0 * log2((double)b->o.n) * ldexp(1.0, -24);
    b->worst_err[side] = bench_worse(b->worst_err[side], err);
    if (!(err <= tol)) {
        fprintf(stderr,
                "bench_fft_graph: %s, round %d: a transform's relative L2 error is %.3g > %.3g\n",
                side_name[side], round, err, tol);
        exit(3);
    }
}

static double run_async(const bench *b) {
    const int n = b->o.n;
    const int64_t t0 = bench_now_ns();
    for (int k = 0; k < b->o.count; k++)
        fft_check(
            trnfftExecC2C(b->h, b->din + (size_t)k * n, b->dout + (size_t)k * n, TRNFFT_FORWARD),
            "trnfftExecC2C");
    if (trnsciStreamSynchronize(b->s))
        die("trnsciStreamSynchronize");
    return (double)(bench_now_ns() - t0) * 1e-9;
}

static double run_graph(const bench *b) {
    const int64_t t0 = bench_now_ns();
    for (int g = 0; g < b->ngraphs; g++)
        if (trnsciGraphLaunch(b->x[g], b->s))
            die("trnsciGraphLaunch");
    if (trnsciStreamSynchronize(b->s))
        die("trnsciStreamSynchronize");
    return (double)(bench_now_ns() - t0) * 1e-9;
}

static double run_inproc(const bench *b, fftwf_plan p, int *cpu) {
    const int n = b->o.n;
    bench_pin_enter(&g_pin, "bench_fft_graph");
    const int64_t t0 = bench_now_ns();
    for (int k = 0; k < b->o.count; k++)
        fftwf_execute_dft(p, b->ip_in + (size_t)k * n, b->ip_out + (size_t)k * n);
    const double s = (double)(bench_now_ns() - t0) * 1e-9;
    *cpu = sched_getcpu();
    bench_pin_leave(&g_pin);
    return s;
}

static void setup(bench *b) {
    const options *o = &b->o;
    const int n = o->n;
    b->elems = (size_t)o->count * (size_t)n;
    b->bytes = b->elems * sizeof(fftwf_complex);
    b->same_plan = -1;
    b->hin = fftwf_malloc(b->bytes);
    b->ref = fftwf_malloc(b->bytes);
    if (!b->hin || !b->ref) {
        fprintf(stderr, "bench_fft_graph: out of host memory\n");
        exit(1);
    }
    if (trnsciMalloc((void **)&b->din, b->bytes) || trnsciMalloc((void **)&b->dout, b->bytes))
        die("trnsciMalloc");
    if (b->devmem) {
        b->ip_in = (fftwf_complex *)b->din;
        b->ip_out = (fftwf_complex *)b->dout;
    } else {
        b->hout = fftwf_malloc(b->bytes);
        b->check = fftwf_malloc(b->bytes);
        if (!b->hout || !b->check) {
            fprintf(stderr, "bench_fft_graph: out of host memory\n");
            exit(1);
        }
        b->ip_in = b->hin;
        b->ip_out = b->hout;
    }

    /* The in-process plan, on scratch arrays (FFTW_MEASURE overwrites them),
     * pinned like its executions. New-array execute needs the buffers to
     * have the planning arrays' alignment. */
    fftwf_complex *sa = fftwf_malloc((size_t)n * sizeof(fftwf_complex)),
                  *sb = fftwf_malloc((size_t)n * sizeof(fftwf_complex));
    bench_pin_enter(&g_pin, "bench_fft_graph");
    const double t0 = bench_now_ms();
    b->own = fftwf_plan_dft_1d(n, sa, sb, FFTW_FORWARD, effort_flags(o->effort));
    b->own_plan_ms = bench_now_ms() - t0;
    bench_pin_leave(&g_pin);
    if (!b->own) {
        fprintf(stderr, "bench_fft_graph: FFTW could not plan n = %d\n", n);
        exit(1);
    }
    for (int k = 0; k < o->count; k++)
        if (fftwf_alignment_of((float *)(b->ip_in + (size_t)k * n)) !=
                fftwf_alignment_of((float *)sa) ||
            fftwf_alignment_of((float *)(b->ip_out + (size_t)k * n)) !=
                fftwf_alignment_of((float *)sb)) {
            fprintf(stderr, "bench_fft_graph: buffer %d is not aligned as FFTW planned\n", k);
            exit(1);
        }
    fftwf_free(sa);
    fftwf_free(sb);

    /* Data and the reference. */
    bench_fill((float *)b->hin, 2 * b->elems, 9100u + (unsigned)n);
    if (trnsciMemcpy(b->din, b->hin, b->bytes, trnsciMemcpyHostToDevice))
        die("trnsciMemcpy (upload)");
    for (int k = 0; k < o->count; k++)
        fftwf_execute_dft(b->own, b->hin + (size_t)k * n, b->ref + (size_t)k * n);

    /* The daemon's plan: made now, executed once, untimed (the first Exec
     * waits for the daemon's planning). */
    if (trnsciStreamCreate(&b->s))
        die("trnsciStreamCreate");
    const double t1 = bench_now_ms();
    fft_check(trnfftPlan1d(&b->h, n, TRNFFT_C2C, 1), "trnfftPlan1d");
    fft_check(trnfftSetStream(b->h, b->s), "trnfftSetStream");
    fft_check(trnfftExecC2C(b->h, b->din, b->dout, TRNFFT_FORWARD), "trnfftExecC2C");
    if (trnsciStreamSynchronize(b->s))
        die("trnsciStreamSynchronize");
    b->plan_first_exec_ms = bench_now_ms() - t1;

    if (o->cache_dir) {
        bench_pin_enter(&g_pin, "bench_fft_graph");
        b->wis = daemon_plan(o->cache_dir, n, effort_flags(o->effort));
        bench_pin_leave(&g_pin);
        if (!b->wis) {
            fprintf(stderr, "bench_fft_graph: no plan from %s/fftwf.wisdom\n", o->cache_dir);
        } else {
            char *p = fftwf_sprint_plan(b->own), *q = fftwf_sprint_plan(b->wis);
            b->same_plan = p && q && strcmp(p, q) == 0;
            free(p);
            free(q);
        }
    }

    /* The graphs: count / graph_nodes captures of graph_nodes Execs each. */
    b->ngraphs = o->count / o->graph_nodes;
    b->x = calloc((size_t)b->ngraphs, sizeof(*b->x));
    for (int g = 0; g < b->ngraphs; g++) {
        const int64_t c0 = bench_now_ns();
        if (trnsciStreamBeginCapture(b->s, trnsciStreamCaptureModeGlobal))
            die("trnsciStreamBeginCapture");
        for (int i = 0; i < o->graph_nodes; i++) {
            const size_t k = (size_t)g * (size_t)o->graph_nodes + (size_t)i;
            fft_check(trnfftExecC2C(b->h, b->din + k * n, b->dout + k * n, TRNFFT_FORWARD),
                      "trnfftExecC2C (capture)");
        }
        trnsciGraph_t graph;
        if (trnsciStreamEndCapture(b->s, &graph))
            die("trnsciStreamEndCapture");
        const int64_t c1 = bench_now_ns();
        if (trnsciGraphInstantiate(&b->x[g], graph, 0))
            die("trnsciGraphInstantiate");
        const int64_t c2 = bench_now_ns();
        trnsciGraphDestroy(graph);
        b->capture_ms += (double)(c1 - c0) * 1e-6;
        b->instantiate_ms += (double)(c2 - c1) * 1e-6;
    }
}

static double median_of(const double *v, int n) {
    return bench_stats_copy(v, n).median;
}

int main(int argc, char **argv) {
    bench b;
    memset(&b, 0, sizeof(b));
    parse(argc, argv, &b.o);
    const options *o = &b.o;
    bench_pin_init(&g_pin, o->inproc_cpu);
    openblas_set_num_threads(1);
    char cpus[64];
    bench_self_cpus(cpus, sizeof(cpus));
    if (trnsciInit(o->addr))
        die("trnsciInit");
    trnsciSelfTestSummary selftest;
    const int have_selftest =
        trnsciDaemonSelfTest(o->addr, 0, NULL, 0, NULL, &selftest) == trnsciSuccess;
    trnsciDaemonStatus st;
    if (trnsciDaemonGetStatus(o->addr, &st))
        die("trnsciDaemonGetStatus");
    /* Device pointers are host-addressable over the local transport only. */
    b.devmem = o->addr && strncmp(o->addr, "unix:", 5) == 0;
    for (int i = 0; i < NSIDES; i++)
        b.worst_err[i] = 0;
    fprintf(stderr, "bench_fft_graph (%s): n = %d, count = %d: setting up\n", o->label, o->n,
            o->count);
    setup(&b);
    fprintf(stderr,
            "bench_fft_graph (%s): %d graph(s) of %d nodes: capture %.1f ms, instantiate %.1f "
            "ms\n",
            o->label, b.ngraphs, o->graph_nodes, b.capture_ms, b.instantiate_ms);

    const int nsides = b.wis ? 4 : 3;
    double us[NSIDES][MAX_ROUNDS], cpu_us[2][MAX_ROUNDS];
    static bench_thread_sample d0[BENCH_MAX_THREADS], d1[BENCH_MAX_THREADS];
    static bench_acc_set dacc[2];
    double wall_ms[2] = {0, 0};
    int cpu_during[NSIDES] = {-1, -1, -1, -1};
    for (int r = -1; r < o->rounds; r++) { /* round -1: warm-up, not recorded */
        for (int j = 0; j < nsides; j++) {
            const int side = (j + (r < 0 ? 0 : r)) % nsides;
            poison(&b, side);
            double s;
            if (side <= SIDE_GRAPH) {
                const int nd0 = o->daemon_pid
                                    ? bench_sample_threads(o->daemon_pid, d0, BENCH_MAX_THREADS, 1)
                                    : 0;
                const double c0 = bench_process_cpu_s();
                s = side == SIDE_ASYNC ? run_async(&b) : run_graph(&b);
                const double c1 = bench_process_cpu_s();
                cpu_during[side] = sched_getcpu();
                if (r >= 0) {
                    cpu_us[side][r] = (c1 - c0) * 1e6 / o->count;
                    wall_ms[side] += s * 1e3;
                    if (o->daemon_pid) {
                        const int nd1 =
                            bench_sample_threads(o->daemon_pid, d1, BENCH_MAX_THREADS, 1);
                        bench_acc_add(&dacc[side], d0, nd0, d1, nd1);
                    }
                }
            } else {
                s = run_inproc(&b, side == SIDE_INPROC ? b.own : b.wis, &cpu_during[side]);
            }
            verify(&b, side, r + 1);
            if (r >= 0)
                us[side][r] = s * 1e6 / o->count;
        }
        if (r >= 0)
            fprintf(stderr,
                    "bench_fft_graph (%s): round %d: async %.3f, graph %.3f, in process %.3f "
                    "(daemon's plan %.3f) us/transform\n",
                    o->label, r + 1, us[SIDE_ASYNC][r], us[SIDE_GRAPH][r], us[SIDE_INPROC][r],
                    b.wis ? us[SIDE_INPROC_WIS][r] : NAN);
    }

    const int R = o->rounds;
    const double m_async = median_of(us[SIDE_ASYNC], R), m_graph = median_of(us[SIDE_GRAPH], R),
                 m_ip = median_of(us[SIDE_INPROC], R);
    const double ratio_async = m_ip / m_async, ratio_graph = m_ip / m_graph;
    const double tol = 8.0 * log2((double)o->n) * ldexp(1.0, -24);
    printf("{\n  \"benchmark\": \"fft_graph\",\n  \"transport\": \"%s\",\n", o->label);
    printf("  \"address\": \"%s\",\n", o->addr ? o->addr : "(default)");
    printf("  \"transform\": \"c2c float forward out-of-place, one plan of batch 1\",\n");
    printf("  \"n\": %d,\n  \"count\": %d,\n  \"rounds\": %d,\n", o->n, o->count, R);
    printf("  \"buffers\": \"distinct: transform k reads input k and writes output k of one "
           "allocation each (%.1f MiB each)%s\",\n",
           (double)b.bytes / (1 << 20),
           b.devmem ? "; in process on the daemon's own buffers (shared memory)"
                    : "; in process on host arrays of the same layout");
    printf("  \"graph\": {\"graphs\": %d, \"nodes_per_graph\": %d, \"capture_ms\": %.2f, "
           "\"instantiate_ms\": %.2f},\n",
           b.ngraphs, o->graph_nodes, b.capture_ms, b.instantiate_ms);
    bench_json_stats("async_us_per_transform", us[SIDE_ASYNC], R, ",");
    bench_json_stats("graph_us_per_transform", us[SIDE_GRAPH], R, ",");
    bench_json_stats("in_process_us_per_transform", us[SIDE_INPROC], R, ",");
    if (b.wis)
        bench_json_stats("in_process_daemon_plan_us_per_transform", us[SIDE_INPROC_WIS], R, ",");
    bench_json_stats("client_cpu_us_per_transform_async", cpu_us[SIDE_ASYNC], R, ",");
    bench_json_stats("client_cpu_us_per_transform_graph", cpu_us[SIDE_GRAPH], R, ",");
    printf("  \"ratio_async\": %.4f,\n  \"ratio_graph\": %.4f,\n", ratio_async, ratio_graph);
    if (b.wis) {
        const double m_w = median_of(us[SIDE_INPROC_WIS], R);
        printf("  \"ratio_async_daemon_plan\": %.4f,\n  \"ratio_graph_daemon_plan\": %.4f,\n",
               m_w / m_async, m_w / m_graph);
    }
    printf("  \"targets\": {\"async\": %.2f, \"async_met\": %s, \"graph\": %.2f, \"graph_met\": "
           "%s},\n",
           o->target_async, ratio_async >= o->target_async ? "true" : "false", o->target_graph,
           ratio_graph >= o->target_graph ? "true" : "false");
    printf("  \"fftw\": {\"version\": \"%s\", \"plan_flags\": \"%s\", \"plan_ms\": %.1f, "
           "\"same_plan_as_daemon\": %s},\n",
           fftwf_version,
           !strcmp(o->effort, "estimate")  ? "FFTW_ESTIMATE"
           : !strcmp(o->effort, "patient") ? "FFTW_PATIENT"
                                           : "FFTW_MEASURE",
           b.own_plan_ms,
           b.same_plan < 0 ? "null"
           : b.same_plan   ? "true"
                           : "false");
    printf("  \"trnsci_plan_and_first_exec_ms\": %.1f,\n", b.plan_first_exec_ms);
    printf("  \"check\": {\"tolerance_rel_l2\": %.3g, \"worst_async\": %.3g, \"worst_graph\": "
           "%.3g, \"worst_in_process\": %.3g, \"worst_in_process_daemon_plan\": %.3g, \"agree\": "
           "true},\n",
           tol, b.worst_err[SIDE_ASYNC], b.worst_err[SIDE_GRAPH], b.worst_err[SIDE_INPROC],
           b.worst_err[SIDE_INPROC_WIS]);
    printf("  \"openblas\": {\"core\": \"%s\"},\n", openblas_get_corename());
    printf("  \"daemon_openblas\": {\"core\": \"%s\"},\n",
           have_selftest ? selftest.blasCore : "unknown");
    printf("  \"daemon\": {\"version\": \"%s\", \"cores\": %u},\n", st.daemonVersion, st.coreCount);
    char dcpus[64] = "";
    if (o->daemon_pid)
        bench_cpus_allowed(o->daemon_pid, dcpus, sizeof(dcpus));
    printf("  \"placement\": {\"bench_cpus\": \"%s\", \"inproc_cpu\": %d, "
           "\"bench_cpu_during_async\": %d, \"bench_cpu_during_graph\": %d, "
           "\"cpu_during_in_process\": %d, \"daemon_cpus_allowed\": \"%s\"",
           cpus, g_pin.cpu, cpu_during[SIDE_ASYNC], cpu_during[SIDE_GRAPH], cpu_during[SIDE_INPROC],
           dcpus);
    if (o->daemon_pid) {
        printf(",\n");
        bench_json_threads("daemon_threads_during_async", &dacc[SIDE_ASYNC], 3, wall_ms[SIDE_ASYNC],
                           ",");
        bench_json_threads("daemon_threads_during_graph", &dacc[SIDE_GRAPH], 3, wall_ms[SIDE_GRAPH],
                           "");
        printf("  }\n}\n");
    } else {
        printf("}\n}\n");
    }
    fflush(stdout);

    for (int g = 0; g < b.ngraphs; g++)
        trnsciGraphExecDestroy(b.x[g]);
    free(b.x);
    trnfftDestroy(b.h);
    trnsciStreamDestroy(b.s);
    trnsciFree(b.din);
    trnsciFree(b.dout);
    fftwf_destroy_plan(b.own);
    if (b.wis)
        fftwf_destroy_plan(b.wis);
    fftwf_free(b.hin);
    fftwf_free(b.ref);
    fftwf_free(b.hout);
    fftwf_free(b.check);
    trnsciDeviceReset();
    return 0;
}
