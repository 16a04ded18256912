/*
 * neuron.c — the Neuron backend's costs, on the libnrt simulator (run it with
 * bench/run_neuron.sh, which starts the daemon on the simulated backend).
 *
 * Phases (--phase):
 *   first    a GEMM shape the daemon has never seen: the first call pays the
 *            NEFF compile (the simulated compiler's NRTSIM_CC_MS) and the
 *            load; the same call again is a hit, resident on the core;
 *   restart  (a daemon restarted on the same --cache-dir) the first call of
 *            that shape finds its NEFF on disk: load only;
 *   host     the host CPU time per op issued to a NeuronCore: N small SGEMMs
 *            launched back to back, then one synchronize; the CPU time the
 *            daemon's threads and its executors gained (schedstat), per op,
 *            beside the same ops issued in this process straight to the
 *            runtime (nrt_tensor_write ×4, nrt_execute, nrt_tensor_read) on
 *            a core of its own — the figure trnsci's own work is measured
 *            against. With --backend cpu (a daemon on the CPU backend) the
 *            same ops' CPU time there, for what the Neuron path adds. Both sides include the
 * simulator's own work per call (its execute's bookkeeping and a tiny reference GEMM), so the
 *            difference is what the daemon adds.
 *   split    (two daemons, with and without --neuron-split-min-mflop, under
 *            the simulator's timing model) one big SGEMM's wall time: split
 *            over both simulated cores, or on one;
 *   overlap  (two daemons, one with device memory for one tensor set per
 *            program, under the timing model, NRTSIM_TRACE=FILE) a strided
 *            batch of SGEMMs that runs as several executions: wall time,
 *            and from the trace the moves' time hidden under executions;
 *   resident (two daemons, --neuron-resident on and off, under the timing
 *            model, NRTSIM_TRACE=FILE) Y = W X: the same SGEMM called again
 *            and again, with X written before each call, and 8 of their
 *            own operands queued back to back: wall time per GEMM, bytes
 *            moved to the core per call, moves hidden under executions;
 *   locality (two daemons on two simulated cores, --neuron-locality on and
 *            off, under the timing model, NRTSIM_TRACE=FILE) Y = W1 X and
 *            Y = W2 X, each first on a core of its own (at once, on two
 *            streams), then called in turn with a synchronize after each:
 *            wall time per GEMM and bytes moved to the cores per call;
 *   busy     (the cost model) a GEMM whose W is on a busy core, called 2 ms
 *            after the one keeping that core busy;
 *   graph    (under the timing model, NRTSIM_TRACE=FILE) a captured segment
 *            of three SGEMMs launched as one program (one NEFF, one
 *            execution), against the same GEMMs one by one: ms per round,
 *            executions and bytes moved to the cores per round.
 * Each phase prints one JSON object.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "kernels/neuron/nc_runtime.h"
#include "trnsci/trnblas.h"
#include "trnsci/trnsci.h"

#define MAX_EXEC 64

typedef struct opts {
    const char *addr, *phase, *lib, *neff, *backend, *label, *trace;
    int daemon_pid, n, reps, size, batch, metrics_port;
} opts;

/* The executor processes of the daemon: processes named trn-exec* whose
 * parent's parent is it (daemon → zygote → executor). */
static int executors_of(int daemon, int *out, int max) {
    DIR *d = opendir("/proc");
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d)) && n < max;) {
        const int pid = atoi(e->d_name);
        char path[64], buf[512];
        snprintf(path, sizeof(path), "/proc/%d/stat", pid);
        if (pid <= 0 || bench_read_text(path, buf, sizeof(buf)) != 0)
            continue;
        const char *close = strrchr(buf, ')');
        int ppid = 0;
        if (!strstr(buf, "(trn-exec") || !close || sscanf(close + 2, "%*c %d", &ppid) != 1)
            continue;
        snprintf(path, sizeof(path), "/proc/%d/stat", ppid);
        int gp = 0;
        if (bench_read_text(path, buf, sizeof(buf)) == 0 && (close = strrchr(buf, ')')) &&
            sscanf(close + 2, "%*c %d", &gp) == 1 && gp == daemon)
            out[n++] = pid;
    }
    if (d)
        closedir(d);
    return n;
}

/* CPU nanoseconds of every thread of pid. */
static unsigned long long cpu_ns(int pid) {
    static bench_thread_sample t[BENCH_MAX_THREADS];
    const int n = bench_sample_threads(pid, t, BENCH_MAX_THREADS, 0);
    unsigned long long s = 0;
    for (int i = 0; i < n; i++)
        s += t[i].cpu_ns;
    return s;
}

static int sgemm(trnblasHandle_t h, const float *a, const float *b, float *c, int n) {
    const float one = 1, zero = 0;
    return trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n) !=
           TRNBLAS_STATUS_SUCCESS;
}

/* One launch + synchronize of an n×n×n SGEMM, in ms. */
static double one_call_ms(trnblasHandle_t h, float *a, float *b, float *c, int n) {
    const double t0 = bench_now_ms();
    if (sgemm(h, a, b, c, n) || trnsciDeviceSynchronize() != trnsciSuccess) {
        fprintf(stderr, "bench_neuron: the GEMM failed: %s\n", trnsciGetLastErrorMessage());
        exit(1);
    }
    return bench_now_ms() - t0;
}

static void phase_first(const opts *o, trnblasHandle_t h, float *a, float *b, float *c) {
    const double first = one_call_ms(h, a, b, c, o->size);
    double *v = calloc((size_t)o->reps, sizeof(double));
    for (int r = 0; r < o->reps; r++)
        v[r] = one_call_ms(h, a, b, c, o->size) * 1000;
    const bench_stats s = bench_stats_of(v, o->reps);
    printf("{\"bench\":\"neuron_neff_cache\",\"phase\":\"%s\",\"shape\":\"%dx%dx%d\","
           "\"first_call_ms\":%.3f,\"resident_call_us\":{\"median\":%.1f,\"min\":%.1f,"
           "\"max\":%.1f},\"reps\":%d,\"simulated\":true}\n",
           o->phase, o->size, o->size, o->size, first, s.median, s.min, s.max, o->reps);
    free(v);
}

/* One n×n×n SGEMM's wall time, on a daemon that splits it over its cores
 * or not (run_neuron.sh starts both, under the simulator's timing model). */
static void phase_split(const opts *o, trnblasHandle_t h, float *a, float *b, float *c) {
    (void)one_call_ms(h, a, b, c, o->size); /* compile and load */
    double *v = calloc((size_t)o->reps, sizeof(double));
    for (int r = 0; r < o->reps; r++)
        v[r] = one_call_ms(h, a, b, c, o->size);
    const bench_stats s = bench_stats_of(v, o->reps);
    printf("{\"bench\":\"neuron_split\",\"daemon\":\"%s\",\"shape\":\"%dx%dx%d\","
           "\"call_ms\":{\"median\":%.2f,\"min\":%.2f,\"max\":%.2f},\"reps\":%d,"
           "\"simulated\":true}\n",
           o->label, o->size, o->size, o->size, s.median, s.min, s.max, o->reps);
    free(v);
}

/* Sums over the simulator's NRTSIM_TRACE file (nrtsim_timing.c): the time
 * of moves to and from the cores' memories, of executions, and of moves
 * that ran while an execution of the same process ran on the same core. */
typedef struct trace_sums {
    double dma_ms, exec_ms, hidden_ms;
    int moves, execs;
    double written;    /* bytes moved to the cores */
    int writes_hidden; /* moves to the cores during an execution */
    double copied;     /* bytes copied within a core's memory */
} trace_sums;

static trace_sums trace_read(const char *path) {
    trace_sums t = {0, 0, 0, 0, 0, 0, 0, 0};
    enum { MAX = 1 << 14 };
    typedef struct {
        int exec, write, core, pid;
        unsigned long long b, e;
    } event;
    event *ev = calloc(MAX, sizeof(*ev));
    FILE *f = fopen(path, "r");
    int n = 0;
    char kind[8];
    size_t bytes;
    while (f && ev && n < MAX &&
           fscanf(f, "%7s %d %llu %llu %d %zu", kind, &ev[n].core, &ev[n].b, &ev[n].e, &ev[n].pid,
                  &bytes) == 6) {
        ev[n].exec = strcmp(kind, "exec") == 0;
        ev[n].write = strcmp(kind, "write") == 0;
        if (ev[n].write)
            t.written += (double)bytes;
        if (strcmp(kind, "copy") == 0)
            t.copied += (double)bytes;
        const double ms = (double)(ev[n].e - ev[n].b) / 1e6;
        if (ev[n].exec) {
            t.exec_ms += ms;
            t.execs++;
        } else {
            t.dma_ms += ms;
            t.moves++;
        }
        n++;
    }
    if (f)
        fclose(f);
    /* A core runs one execution at a time: a move's overlaps with them add. */
    for (int i = 0; i < n; i++) {
        int hidden = 0;
        for (int j = 0; !ev[i].exec && j < n; j++) {
            if (!ev[j].exec || ev[j].core != ev[i].core || ev[j].pid != ev[i].pid)
                continue;
            const unsigned long long b = ev[i].b > ev[j].b ? ev[i].b : ev[j].b;
            const unsigned long long e = ev[i].e < ev[j].e ? ev[i].e : ev[j].e;
            if (e > b) {
                t.hidden_ms += (double)(e - b) / 1e6;
                hidden = 1;
            }
        }
        t.writes_hidden += hidden && ev[i].write;
    }
    free(ev);
    return t;
}

/* A strided batch of SGEMMs large enough to run as several executions
 * (gemm_neuron.h, trn_ngemm_pipeline), under the timing model: wall time
 * per call and, from the simulator's trace, how much of the moves' time the
 * executions hid. */
static void phase_overlap(const opts *o, trnblasHandle_t h) {
    const int n = o->size, batch = o->batch;
    const size_t elems = (size_t)n * n * batch;
    float *a, *b, *c;
    if (trnsciMalloc((void **)&a, elems * 4) || trnsciMalloc((void **)&b, elems * 4) ||
        trnsciMalloc((void **)&c, elems * 4) || trnsciMemset(a, 0, elems * 4) ||
        trnsciMemset(b, 0, elems * 4) || trnsciMemset(c, 0, elems * 4))
        exit(1);
    const float one = 1, half = 0.5f;
    const long long stride = (long long)n * n;
    double *v = calloc((size_t)o->reps + 1, sizeof(double));
    for (int r = 0; r <= o->reps; r++) { /* call 0 compiles */
        const double t0 = bench_now_ms();
        if (trnblasSgemmStridedBatched(h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &one, a, n, stride,
                                       b, n, stride, &half, c, n, stride,
                                       batch) != TRNBLAS_STATUS_SUCCESS ||
            trnsciDeviceSynchronize() != trnsciSuccess) {
            fprintf(stderr, "bench_neuron: the GEMM failed: %s\n", trnsciGetLastErrorMessage());
            exit(1);
        }
        v[r] = bench_now_ms() - t0;
    }
    const bench_stats s = bench_stats_of(v + 1, o->reps);
    const trace_sums t = trace_read(o->trace);
    const double calls = o->reps + 1;
    printf("{\"bench\":\"neuron_overlap\",\"daemon\":\"%s\",\"shape\":\"%dx%dx%d\","
           "\"batch\":%d,\"call_ms\":{\"median\":%.2f,\"min\":%.2f,\"max\":%.2f},"
           "\"per_call\":{\"moves\":%.1f,\"executions\":%.1f,\"dma_ms\":%.2f,\"exec_ms\":%.2f,"
           "\"dma_hidden_ms\":%.2f},\"dma_hidden_fraction\":%.3f,\"reps\":%d,"
           "\"simulated\":true}\n",
           o->label, n, n, n, batch, s.median, s.min, s.max, t.moves / calls, t.execs / calls,
           t.dma_ms / calls, t.exec_ms / calls, t.hidden_ms / calls,
           t.dma_ms > 0 ? t.hidden_ms / t.dma_ms : 0, o->reps);
    free(v);
    trnsciFree(a);
    trnsciFree(b);
    trnsciFree(c);
}

/* phase_resident's shape from --size K: Y (4K x K/4) = W (4K x K) X (K x
 * K/4), so that W is most of the bytes (a weight matrix) and, at K = 256,
 * 1 MiB: enough for a move ahead (gemm_neuron.h, trn_ngemm_next). */
typedef struct resident_shape {
    int m, n, k;
} resident_shape;

/* reps + 1 calls of one variant of phase_resident (call 0 is left out: the
 * first compiles and loads): wall ms per call and bytes moved to the core
 * per call (from the trace, read before and after). */
typedef struct resident_run {
    bench_stats ms;
    double written_per_call;
} resident_run;

static void resident_gemm(trnblasHandle_t h, resident_shape sh, const float *w, const float *x,
                          float *y) {
    const float one = 1, zero = 0;
    if (trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, sh.m, sh.n, sh.k, &one, w, sh.m, x, sh.k, &zero,
                     y, sh.m) != TRNBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "bench_neuron: the GEMM failed: %s\n", trnsciGetLastErrorMessage());
        exit(1);
    }
}

static void resident_sync(void) {
    if (trnsciDeviceSynchronize() != trnsciSuccess) {
        fprintf(stderr, "bench_neuron: the GEMMs failed: %s\n", trnsciGetLastErrorMessage());
        exit(1);
    }
}

static resident_run resident_variant(const opts *o, trnblasHandle_t h, resident_shape sh,
                                     const float *w, float *x, float *y, const float *host_x) {
    double *v = calloc((size_t)o->reps + 1, sizeof(double));
    double before = 0;
    for (int r = 0; r <= o->reps; r++) {
        if (r == 1)
            before = trace_read(o->trace).written;
        const double t0 = bench_now_ms();
        if (host_x && trnsciMemcpy(x, host_x, (size_t)sh.k * sh.n * 4, trnsciMemcpyHostToDevice))
            exit(1);
        resident_gemm(h, sh, w, x, y);
        resident_sync();
        v[r] = bench_now_ms() - t0;
    }
    resident_run out = {bench_stats_of(v + 1, o->reps),
                        (trace_read(o->trace).written - before) / o->reps};
    free(v);
    return out;
}

/* QUEUED GEMMs of their own operands, queued back to back, then one
 * synchronize, reps + 1 times (the first left out): wall ms per GEMM, and
 * (written_per_call) the writes to the core that ran during an execution,
 * per GEMM. */
#define QUEUED 8
static resident_run queued_variant(const opts *o, trnblasHandle_t h, resident_shape sh,
                                   const float *host) {
    const size_t wb = (size_t)sh.m * sh.k * 4, xb = (size_t)sh.k * sh.n * 4,
                 yb = (size_t)sh.m * sh.n * 4;
    float *w[QUEUED], *x[QUEUED], *y[QUEUED];
    for (int i = 0; i < QUEUED; i++)
        if (trnsciMalloc((void **)&w[i], wb) || trnsciMalloc((void **)&x[i], xb) ||
            trnsciMalloc((void **)&y[i], yb))
            exit(1);
    double *v = calloc((size_t)o->reps + 1, sizeof(double));
    int before = 0;
    for (int r = 0; r <= o->reps; r++) {
        if (r == 1)
            before = trace_read(o->trace).writes_hidden;
        /* Written again each round: nothing is resident from the last. */
        for (int i = 0; i < QUEUED; i++)
            if (trnsciMemcpy(w[i], host, wb, trnsciMemcpyHostToDevice) ||
                trnsciMemcpy(x[i], host, xb, trnsciMemcpyHostToDevice))
                exit(1);
        const double t0 = bench_now_ms();
        for (int i = 0; i < QUEUED; i++)
            resident_gemm(h, sh, w[i], x[i], y[i]);
        resident_sync();
        v[r] = (bench_now_ms() - t0) / QUEUED;
    }
    resident_run out = {bench_stats_of(v + 1, o->reps),
                        (double)(trace_read(o->trace).writes_hidden - before) /
                            ((double)o->reps * QUEUED)};
    free(v);
    for (int i = 0; i < QUEUED; i++) {
        trnsciFree(w[i]);
        trnsciFree(x[i]);
        trnsciFree(y[i]);
    }
    return out;
}

/* Y = W X under the timing model, on a daemon with --neuron-resident on or
 * off (the label): the same GEMM again and again; the same W with X
 * written before each call (a Write, as a program feeding new data does);
 * GEMMs of their own operands queued back to back. Wall time per GEMM, and
 * bytes moved to the core (or moves hidden under executions). */
static void phase_resident(const opts *o, trnblasHandle_t h) {
    const resident_shape sh = {4 * o->size, o->size / 4, o->size};
    if (sh.n < 1)
        exit(2);
    const size_t wb = (size_t)sh.m * sh.k * 4, xb = (size_t)sh.k * sh.n * 4,
                 yb = (size_t)sh.m * sh.n * 4;
    float *w, *x, *y, *host = malloc(wb);
    if (!host || trnsciMalloc((void **)&w, wb) || trnsciMalloc((void **)&x, xb) ||
        trnsciMalloc((void **)&y, yb))
        exit(1);
    bench_fill(host, (size_t)sh.m * sh.k, 2);
    if (trnsciMemcpy(w, host, wb, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(x, host, xb, trnsciMemcpyHostToDevice))
        exit(1);
    const resident_run same = resident_variant(o, h, sh, w, x, y, NULL);
    const resident_run fresh = resident_variant(o, h, sh, w, x, y, host);
    const resident_run queued = queued_variant(o, h, sh, host);
    printf("{\"bench\":\"neuron_resident\",\"daemon\":\"%s\",\"shape\":\"%dx%dx%d\","
           "\"same_gemm\":{\"call_ms\":{\"median\":%.3f,\"min\":%.3f,\"max\":%.3f},"
           "\"bytes_to_core_per_call\":%.0f},"
           "\"new_x_each_call\":{\"call_ms\":{\"median\":%.3f,\"min\":%.3f,\"max\":%.3f},"
           "\"bytes_to_core_per_call\":%.0f},"
           "\"queued_%d_own_operands\":{\"gemm_ms\":{\"median\":%.3f,\"min\":%.3f,"
           "\"max\":%.3f},\"writes_during_executions_per_gemm\":%.2f},"
           "\"reps\":%d,\"simulated\":true}\n",
           o->label, sh.m, sh.n, sh.k, same.ms.median, same.ms.min, same.ms.max,
           same.written_per_call, fresh.ms.median, fresh.ms.min, fresh.ms.max,
           fresh.written_per_call, QUEUED, queued.ms.median, queued.ms.min, queued.ms.max,
           queued.written_per_call, o->reps);
    trnsciFree(w);
    trnsciFree(x);
    trnsciFree(y);
    free(host);
}

/* Y = W1 X and Y = W2 X on two cores (the label: --neuron-locality on or
 * off), under the timing model: first both at once on two streams, so that
 * each W is moved to a core of its own; then in turn, each alone on an idle
 * daemon, reps + 1 rounds of the two (round 0 left out): wall ms and bytes
 * moved to the cores per GEMM. With placement by location each runs on the
 * core that holds its W and X; without, on whichever core is woken. */
static void phase_locality(const opts *o) {
    const resident_shape sh = {4 * o->size, o->size / 4, o->size};
    if (sh.n < 1)
        exit(2);
    const size_t wb = (size_t)sh.m * sh.k * 4, xb = (size_t)sh.k * sh.n * 4,
                 yb = (size_t)sh.m * sh.n * 4;
    float *w[2], *y[2], *x, *host = malloc(wb);
    trnsciStream_t st[2];
    trnblasHandle_t hs[2];
    if (!host || trnsciMalloc((void **)&x, xb))
        exit(1);
    bench_fill(host, (size_t)sh.m * sh.k, 3);
    for (int i = 0; i < 2; i++)
        if (trnsciMalloc((void **)&w[i], wb) || trnsciMalloc((void **)&y[i], yb) ||
            trnsciMemcpy(w[i], host, wb, trnsciMemcpyHostToDevice) || trnsciStreamCreate(&st[i]) ||
            trnblasCreate(&hs[i]) || trnblasSetStream(hs[i], st[i]))
            exit(1);
    if (trnsciMemcpy(x, host, xb, trnsciMemcpyHostToDevice))
        exit(1);
    for (int i = 0; i < 2; i++) /* both wait for the one compile, then run at once */
        resident_gemm(hs[i], sh, w[i], x, y[i]);
    resident_sync();
    double *v = calloc(2 * ((size_t)o->reps + 1), sizeof(double));
    double before = 0;
    for (int r = 0; r <= o->reps; r++) {
        if (r == 1)
            before = trace_read(o->trace).written;
        for (int i = 0; i < 2; i++) {
            const double t0 = bench_now_ms();
            resident_gemm(hs[i], sh, w[i], x, y[i]);
            resident_sync();
            v[2 * r + i] = bench_now_ms() - t0;
        }
    }
    const bench_stats ms = bench_stats_of(v + 2, 2 * o->reps);
    const double written = (trace_read(o->trace).written - before) / (2.0 * o->reps);
    printf("{\"bench\":\"neuron_locality\",\"daemon\":\"%s\",\"shape\":\"%dx%dx%d\","
           "\"two_weights_in_turn\":{\"call_ms\":{\"median\":%.3f,\"min\":%.3f,"
           "\"max\":%.3f},\"bytes_to_cores_per_call\":%.0f},\"reps\":%d,\"simulated\":true}\n",
           o->label, sh.m, sh.n, sh.k, ms.median, ms.min, ms.max, written, o->reps);
    free(v);
    for (int i = 0; i < 2; i++) {
        trnblasDestroy(hs[i]);
        trnsciStreamDestroy(st[i]);
        trnsciFree(w[i]);
        trnsciFree(y[i]);
    }
    trnsciFree(x);
    free(host);
}

/* Placement when the core that holds the inputs is busy: Y = W X with W
 * (4K x K) and X (K x 16), so that moving W takes longer than the GEMM
 * (under run_neuron.sh's model: 52 ms against about 20). Each rep calls it
 * on stream 0, then, 2 ms later, on stream 1, and waits for both: the
 * second waits for the core that runs the first, or moves W to the other.
 * Three calls come first (the compile, and runs for the estimates). Prints
 * the first pair's ms (a one-off), the pairs' ms (once callers keep at it,
 * W is best on both cores) and bytes moved to the cores per pair. */
static void phase_busy(const opts *o) {
    const resident_shape sh = {4 * o->size, 16, o->size};
    const size_t wb = (size_t)sh.m * sh.k * 4, xb = (size_t)sh.k * sh.n * 4,
                 yb = (size_t)sh.m * sh.n * 4;
    float *w, *x, *y[2], *host = malloc(wb);
    trnsciStream_t st[2];
    trnblasHandle_t hs[2];
    if (!host || trnsciMalloc((void **)&w, wb) || trnsciMalloc((void **)&x, xb))
        exit(1);
    bench_fill(host, (size_t)sh.m * sh.k, 5);
    if (trnsciMemcpy(w, host, wb, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(x, host, xb, trnsciMemcpyHostToDevice))
        exit(1);
    for (int i = 0; i < 2; i++)
        if (trnsciMalloc((void **)&y[i], yb) || trnsciStreamCreate(&st[i]) ||
            trnblasCreate(&hs[i]) || trnblasSetStream(hs[i], st[i]))
            exit(1);
    for (int r = 0; r < 3; r++) {
        resident_gemm(hs[0], sh, w, x, y[0]);
        resident_sync();
    }
    double *v = calloc((size_t)o->reps, sizeof(double));
    const double before = trace_read(o->trace).written;
    for (int r = 0; r < o->reps; r++) {
        const double t0 = bench_now_ms();
        resident_gemm(hs[0], sh, w, x, y[0]);
        nanosleep(&(struct timespec){0, 2000000}, NULL);
        resident_gemm(hs[1], sh, w, x, y[1]);
        resident_sync();
        v[r] = bench_now_ms() - t0;
    }
    const double first = v[0]; /* bench_stats_of sorts v */
    const bench_stats ms = bench_stats_of(v, o->reps);
    const double written = (trace_read(o->trace).written - before) / o->reps;
    printf("{\"bench\":\"neuron_busy\",\"daemon\":\"%s\",\"shape\":\"%dx%dx%d\","
           "\"two_calls_2ms_apart\":{\"first_pair_ms\":%.3f,\"pair_ms\":{\"median\":%.3f,"
           "\"min\":%.3f,\"max\":%.3f},\"bytes_to_cores_per_pair\":%.0f},\"reps\":%d,"
           "\"simulated\":true}\n",
           o->label, sh.m, sh.n, sh.k, first, ms.median, ms.min, ms.max, written, o->reps);
    free(v);
    for (int i = 0; i < 2; i++) {
        trnblasDestroy(hs[i]);
        trnsciStreamDestroy(st[i]);
        trnsciFree(y[i]);
    }
    trnsciFree(w);
    trnsciFree(x);
    free(host);
}

/* phase_graph's three GEMMs from --size S: T (S x S/4) = W1 (S x S) X
 * (S x S/4); Y (S/2 x S/4) = W2 (S/2 x S) T; Y = 0.5 W3 (S/2 x S) X + Y. */
typedef struct graph_ops {
    int s;
    float *x, *w1, *w2, *w3, *t, *y;
} graph_ops;

static int graph_gemms(trnblasHandle_t h, const graph_ops *g) {
    const int s = g->s, q = s / 4, half_s = s / 2;
    const float one = 1, zero = 0, half = 0.5f;
    return trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, s, q, s, &one, g->w1, s, g->x, s, &zero,
                        g->t, s) ||
           trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, half_s, q, s, &one, g->w2, half_s, g->t, s,
                        &zero, g->y, half_s) ||
           trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, half_s, q, s, &half, g->w3, half_s, g->x, s,
                        &one, g->y, half_s);
}

/* reps rounds of fn (a launch, or the GEMMs run one by one), each
 * synchronized: ms per round, and per round the executions and bytes
 * moved to the cores (the trace). */
typedef struct graph_run {
    bench_stats ms;
    double execs, written;
} graph_run;

static graph_run graph_rounds(const opts *o, trnsciStream_t st, int (*fn)(void *), void *arg) {
    double *v = calloc((size_t)o->reps, sizeof(double));
    const trace_sums t0 = trace_read(o->trace);
    for (int r = 0; r < o->reps; r++) {
        const double b = bench_now_ms();
        if (fn(arg) != 0 || trnsciStreamSynchronize(st) != trnsciSuccess) {
            fprintf(stderr, "bench_neuron: the graph failed: %s\n", trnsciGetLastErrorMessage());
            exit(1);
        }
        v[r] = bench_now_ms() - b;
    }
    const trace_sums t1 = trace_read(o->trace);
    graph_run g = {bench_stats_of(v, o->reps), (double)(t1.execs - t0.execs) / o->reps,
                   (t1.written - t0.written) / o->reps};
    free(v);
    return g;
}

typedef struct graph_ctx {
    trnblasHandle_t h;
    trnsciStream_t st;
    trnsciGraphExec_t x;
    const graph_ops *g;
} graph_ctx;

static int graph_launch(void *arg) {
    const graph_ctx *c = arg;
    return trnsciGraphLaunch(c->x, c->st) != trnsciSuccess;
}

static int graph_eager(void *arg) {
    const graph_ctx *c = arg;
    return graph_gemms(c->h, c->g);
}

/* A captured segment of three SGEMMs (graph_ops) launched again and again
 * once its sequence NEFF is compiled (the launches before run the nodes one
 * by one; at most 200 of them, 50 ms apart), against the same GEMMs issued
 * one by one on the stream: ms per round, executions and bytes moved to the
 * cores per round. */
static void graph_fail(const char *what) {
    fprintf(stderr, "bench_neuron: %s failed: %s\n", what, trnsciGetLastErrorMessage());
    exit(1);
}

static void phase_graph(const opts *o) {
    graph_ops g = {.s = o->size};
    const int s = o->size, q = s / 4;
    float *host = malloc((size_t)s * s * 4);
    float **bufs[] = {&g.x, &g.w1, &g.w2, &g.w3, &g.t, &g.y};
    const size_t elems[] = {(size_t)s * q,     (size_t)s * s, (size_t)s / 2 * s,
                            (size_t)s / 2 * s, (size_t)s * q, (size_t)s / 2 * q};
    if (!host)
        graph_fail("out of memory");
    for (int i = 0; i < 6; i++) {
        bench_fill(host, elems[i], 3 + (unsigned)i);
        if (trnsciMalloc((void **)bufs[i], elems[i] * 4) ||
            trnsciMemcpy(*bufs[i], host, elems[i] * 4, trnsciMemcpyHostToDevice))
            graph_fail("allocating the operands");
    }
    graph_ctx c = {.g = &g};
    trnsciGraph_t graph;
    if (trnblasCreate(&c.h) || trnsciStreamCreate(&c.st) || trnblasSetStream(c.h, c.st) ||
        trnsciStreamBeginCapture(c.st, trnsciStreamCaptureModeGlobal) || graph_gemms(c.h, &g) ||
        trnsciStreamEndCapture(c.st, &graph) || trnsciGraphInstantiate(&c.x, graph, 0))
        graph_fail("capturing and instantiating the graph");
    int warm = 0;
    for (; warm < 200; warm++) {
        const int e0 = trace_read(o->trace).execs;
        if (graph_launch(&c) || trnsciStreamSynchronize(c.st) != trnsciSuccess)
            graph_fail("a warm-up launch");
        if (trace_read(o->trace).execs - e0 == 1)
            break;
        nanosleep(&(struct timespec){0, 50000000}, NULL);
    }
    if (warm == 200) {
        fprintf(stderr, "bench_neuron: the graph never ran as one program\n");
        exit(1);
    }
    const graph_run together = graph_rounds(o, c.st, graph_launch, &c);
    const graph_run eager = graph_rounds(o, c.st, graph_eager, &c);
    printf("{\"bench\":\"neuron_graph\",\"daemon\":\"%s\",\"gemms\":\"%dx%dx%d, %dx%dx%d, "
           "%dx%dx%d\",\"warmup_launches\":%d,"
           "\"launch_as_one_program\":{\"ms\":{\"median\":%.3f,\"min\":%.3f,\"max\":%.3f},"
           "\"executions\":%.1f,\"bytes_to_cores\":%.0f},"
           "\"gemms_one_by_one\":{\"ms\":{\"median\":%.3f,\"min\":%.3f,\"max\":%.3f},"
           "\"executions\":%.1f,\"bytes_to_cores\":%.0f},\"ratio\":%.3f,\"reps\":%d,"
           "\"simulated\":true}\n",
           o->label, s, q, s, s / 2, q, s, s / 2, q, s, warm + 1, together.ms.median,
           together.ms.min, together.ms.max, together.execs, together.written, eager.ms.median,
           eager.ms.min, eager.ms.max, eager.execs, eager.written,
           together.ms.median / eager.ms.median, o->reps);
    trnsciGraphExecDestroy(c.x);
    trnsciGraphDestroy(graph);
    trnblasDestroy(c.h);
    trnsciStreamDestroy(c.st);
    for (int i = 0; i < 6; i++)
        trnsciFree(*bufs[i]);
    free(host);
}

/* The same op straight to the runtime in this process: CPU ns per op. */
static double direct_cpu_ns(const opts *o) {
    trn_nc_runtime rt;
    char err[512];
    if (trn_nc_runtime_start(&rt, o->lib, NULL, err, sizeof(err)) != 0) {
        fprintf(stderr, "bench_neuron: %s\n", err);
        exit(1);
    }
    FILE *f = fopen(o->neff, "rb");
    static char neff[1 << 20];
    const size_t len = f ? fread(neff, 1, sizeof(neff), f) : 0;
    if (f)
        fclose(f);
    trn_nc_loaded *home = NULL;
    trn_nrt_status kind;
    trn_nc_loaded *ld = trn_nc_load(&rt, neff, len, 0, &home, &kind, err, sizeof(err));
    if (!ld) {
        fprintf(stderr, "bench_neuron: loading %s: %s\n", o->neff, err);
        exit(1);
    }
    static float buf[4 * 64 * 64];
    const char *in[] = {"at", "b", "c", "scal"};
    /* CLOCK_THREAD_CPUTIME_ID: exact, where getrusage counts ticks. */
    struct timespec c0, c1;
    const int n = o->n * 20;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
    for (int i = 0; i < n; i++) {
        for (int t = 0; t < 4; t++) {
            size_t size;
            trn_nrt_tensor *x = trn_nc_port(ld, 0, in[t], 0, t, &size);
            rt.api.tensor_write(x, buf, 0, size);
        }
        rt.api.execute(ld->model, ld->in[0], ld->out[0]);
        size_t size;
        rt.api.tensor_read(trn_nc_port(ld, 0, "d", 1, 0, &size), buf, 0, size);
    }
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
    trn_nc_use(&rt, ld, 0);
    trn_nc_runtime_stop(&rt);
    return ((double)(c1.tv_sec - c0.tv_sec) * 1e9 + (double)(c1.tv_nsec - c0.tv_nsec)) / n;
}

/* The daemon's CPU time per op by thread name, between samples t0 (n0
 * threads) and now, as JSON members ("trn-core0":1.23,...) into out. */
static void threads_json(int pid, const bench_thread_sample *t0, int n0, double ops, char *out,
                         size_t len) {
    static bench_thread_sample t1[BENCH_MAX_THREADS];
    const int n1 = bench_sample_threads(pid, t1, BENCH_MAX_THREADS, 0);
    char names[BENCH_MAX_THREADS][32];
    double us[BENCH_MAX_THREADS];
    int k = 0;
    for (int i = 0; i < n1; i++) {
        unsigned long long before = 0;
        for (int j = 0; j < n0; j++)
            if (t0[j].tid == t1[i].tid)
                before = t0[j].cpu_ns;
        int at = 0;
        while (at < k && strcmp(names[at], t1[i].comm) != 0)
            at++;
        if (at == k) {
            snprintf(names[k], sizeof(names[k]), "%s", t1[i].comm);
            us[k++] = 0;
        }
        us[at] += (double)(t1[i].cpu_ns - before) / 1000 / ops;
    }
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < k && used < len; i++)
        used += (size_t)snprintf(out + used, len - used, "%s\"%s\":%.2f", i ? "," : "", names[i],
                                 us[i]);
}

/* One W (4S x S, 1 MiB at S = 256) used by GEMMs of two programs on one
 * core, Y1 = W X1 (X1 S x 16) and Y2 = W X2 (S x 32), with W written
 * before each round (a Write, as a weight update does), under the timing
 * model; the label says how W is kept (run_neuron.sh): core-copies, both
 * programs bind the core's one copy of W, which the first GEMM writes;
 * copied-on-core, the second GEMM copies W on the core from the first's
 * tensor; packed, each moves W from the host. Per round (round 0 left
 * out): wall ms, bytes moved to the core and copied on it (the simulator's
 * trace). */
static void phase_on_core(const opts *o, trnblasHandle_t h) {
    const int m = 4 * o->size, k = o->size;
    const size_t wb = (size_t)m * k * 4;
    float *w, *x1, *x2, *y, *host = malloc(wb);
    if (!host || trnsciMalloc((void **)&w, wb) || trnsciMalloc((void **)&x1, (size_t)k * 16 * 4) ||
        trnsciMalloc((void **)&x2, (size_t)k * 32 * 4) ||
        trnsciMalloc((void **)&y, (size_t)m * 32 * 4))
        exit(1);
    bench_fill(host, (size_t)m * k, 5);
    if (trnsciMemcpy(x1, host, (size_t)k * 16 * 4, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(x2, host, (size_t)k * 32 * 4, trnsciMemcpyHostToDevice))
        exit(1);
    const float one = 1, zero = 0;
    double *v = calloc((size_t)o->reps + 1, sizeof(double)), written = 0, copied = 0;
    if (!v)
        exit(1);
    for (int r = 0; r <= o->reps; r++) {
        host[r % (m * k)] += 1; /* new contents */
        if (trnsciMemcpy(w, host, wb, trnsciMemcpyHostToDevice))
            exit(1);
        const trace_sums before = trace_read(o->trace);
        const double t0 = bench_now_ms();
        if (trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, 16, k, &one, w, m, x1, k, &zero, y, m) ||
            trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, 32, k, &one, w, m, x2, k, &zero, y, m) ||
            trnsciDeviceSynchronize() != trnsciSuccess)
            exit(1);
        v[r] = bench_now_ms() - t0;
        const trace_sums after = trace_read(o->trace);
        if (r > 0) {
            written += after.written - before.written;
            copied += after.copied - before.copied;
        }
    }
    const bench_stats s = bench_stats_of(v + 1, o->reps);
    printf("{\"bench\":\"neuron_on_core_copy\",\"daemon\":\"%s\",\"shapes\":\"%dx16x%d,%dx32x%d\","
           "\"round_ms\":{\"median\":%.2f,\"min\":%.2f,\"max\":%.2f},"
           "\"bytes_to_core_per_round\":%.0f,\"bytes_copied_on_core_per_round\":%.0f,"
           "\"reps\":%d,\"simulated\":true}\n",
           o->label, m, k, m, k, s.median, s.min, s.max, written / o->reps, copied / o->reps,
           o->reps);
    free(v);
    free(host);
    trnsciFree(w);
    trnsciFree(x1);
    trnsciFree(x2);
    trnsciFree(y);
}

/* A sample of the daemon's metrics, or exit. */
static double metric_or_exit(const opts *o, const char *series) {
    const double v = bench_metric(o->metrics_port, series);
    if (v < 0) {
        fprintf(stderr, "bench_neuron: no metric %s on port %d\n", series, o->metrics_port);
        exit(1);
    }
    return v;
}

/* Y = A^T X (A S x S stored untransposed, X S x 16) again and again on a
 * daemon with --neuron-resident off, so that every call moves A; the label
 * says --neuron-in-place on or off. Per GEMM: wall time, the executors'
 * CPU time (the simulated runtime's own work included), the host time
 * spent packing (trnscid_neuron_pack_seconds_total) and the bytes moved. */
static void phase_in_place(const opts *o, trnblasHandle_t h) {
    const int s = o->size, w = 16;
    float *a, *x, *y, *host = malloc((size_t)s * s * 4);
    if (!host || trnsciMalloc((void **)&a, (size_t)s * s * 4) ||
        trnsciMalloc((void **)&x, (size_t)s * w * 4) ||
        trnsciMalloc((void **)&y, (size_t)s * w * 4))
        exit(1);
    bench_fill(host, (size_t)s * s, 3);
    if (trnsciMemcpy(a, host, (size_t)s * s * 4, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(x, host, (size_t)s * w * 4, trnsciMemcpyHostToDevice))
        exit(1);
    const float one = 1, zero = 0;
    double *wall = calloc((size_t)o->reps, sizeof(double)),
           *exec = calloc((size_t)o->reps, sizeof(double)),
           *pack = calloc((size_t)o->reps, sizeof(double)), moved = 0;
    if (!wall || !exec || !pack)
        exit(1);
    for (int r = -1; r < o->reps; r++) { /* round -1 compiles and loads */
        int ex[MAX_EXEC];
        const int ne = executors_of(o->daemon_pid, ex, MAX_EXEC);
        unsigned long long e0 = 0, e1 = 0;
        for (int i = 0; i < ne; i++)
            e0 += cpu_ns(ex[i]);
        const double p0 = metric_or_exit(o, "trnscid_neuron_pack_seconds_total"),
                     b0 = metric_or_exit(o, "trnscid_neuron_bytes_total{direction=\"to_cores\"}");
        const double t0 = bench_now_ms();
        for (int i = 0; i < o->n; i++)
            if (trnblasSgemm(h, TRNBLAS_OP_T, TRNBLAS_OP_N, s, w, s, &one, a, s, x, s, &zero, y,
                             s) != TRNBLAS_STATUS_SUCCESS)
                exit(1);
        if (trnsciDeviceSynchronize() != trnsciSuccess)
            exit(1);
        if (r < 0)
            continue;
        wall[r] = (bench_now_ms() - t0) / o->n;
        for (int i = 0; i < ne; i++)
            e1 += cpu_ns(ex[i]);
        exec[r] = (double)(e1 - e0) / 1e6 / o->n;
        pack[r] = (metric_or_exit(o, "trnscid_neuron_pack_seconds_total") - p0) * 1e3 / o->n;
        moved =
            (metric_or_exit(o, "trnscid_neuron_bytes_total{direction=\"to_cores\"}") - b0) / o->n;
    }
    const bench_stats sw = bench_stats_of(wall, o->reps), se = bench_stats_of(exec, o->reps),
                      sp = bench_stats_of(pack, o->reps);
    printf("{\"bench\":\"neuron_in_place\",\"daemon\":\"%s\",\"shape\":\"%dx%dx%d\","
           "\"transa\":\"T\",\"gemms\":%d,\"reps\":%d,"
           "\"gemm_ms\":{\"median\":%.3f,\"min\":%.3f,\"max\":%.3f},"
           "\"executor_cpu_ms_per_gemm\":{\"median\":%.3f,\"min\":%.3f,\"max\":%.3f},"
           "\"pack_ms_per_gemm\":{\"median\":%.4f,\"min\":%.4f,\"max\":%.4f},"
           "\"bytes_to_core_per_gemm\":%.0f,\"simulated\":true}\n",
           o->label, s, w, s, o->n, o->reps, sw.median, sw.min, sw.max, se.median, se.min, se.max,
           sp.median, sp.min, sp.max, moved);
    free(wall);
    free(exec);
    free(pack);
    free(host);
    trnsciFree(a);
    trnsciFree(x);
    trnsciFree(y);
}

static void phase_host(const opts *o, trnblasHandle_t h, float *a, float *b, float *c) {
    int ex[MAX_EXEC];
    (void)one_call_ms(h, a, b, c, o->size); /* compiled and resident */
    static bench_thread_sample threads0[BENCH_MAX_THREADS];
    const int nthreads0 = bench_sample_threads(o->daemon_pid, threads0, BENCH_MAX_THREADS, 0);
    double *daemon_v = calloc((size_t)o->reps, sizeof(double));
    double *exec_v = calloc((size_t)o->reps, sizeof(double));
    double *wall_v = calloc((size_t)o->reps, sizeof(double));
    for (int r = 0; r < o->reps; r++) {
        const int ne = executors_of(o->daemon_pid, ex, MAX_EXEC);
        unsigned long long d0 = cpu_ns(o->daemon_pid), e0 = 0, e1 = 0;
        for (int i = 0; i < ne; i++)
            e0 += cpu_ns(ex[i]);
        const double t0 = bench_now_ms();
        for (int i = 0; i < o->n; i++)
            if (sgemm(h, a, b, c, o->size))
                exit(1);
        if (trnsciDeviceSynchronize() != trnsciSuccess)
            exit(1);
        wall_v[r] = (bench_now_ms() - t0) * 1000 / o->n;
        const unsigned long long d1 = cpu_ns(o->daemon_pid);
        for (int i = 0; i < ne; i++)
            e1 += cpu_ns(ex[i]);
        daemon_v[r] = (double)(d1 - d0) / o->n;
        exec_v[r] = (double)(e1 - e0) / o->n;
    }
    char threads[1024];
    threads_json(o->daemon_pid, threads0, nthreads0, (double)o->reps * o->n, threads,
                 sizeof(threads));
    const double direct = direct_cpu_ns(o);
    const bench_stats sd = bench_stats_of(daemon_v, o->reps), se = bench_stats_of(exec_v, o->reps),
                      sw = bench_stats_of(wall_v, o->reps);
    char cpus[64];
    bench_self_cpus(cpus, sizeof(cpus));
    printf("{\"bench\":\"neuron_host_cpu_per_op\",\"backend\":\"%s\",\"shape\":\"%dx%dx%d\","
           "\"ops\":%d,\"reps\":%d,"
           "\"daemon_cpu_us\":%.2f,\"executor_cpu_us\":%.2f,\"trnsci_cpu_us\":%.2f,"
           "\"direct_runtime_cpu_us\":%.2f,\"added_by_trnsci_us\":%.2f,\"ratio\":%.2f,"
           "\"wall_us_per_op\":%.2f,\"client_cpus\":\"%s\",\"daemon_threads_us\":{%s},"
           "\"simulated\":true}\n",
           o->backend, o->size, o->size, o->size, o->n, o->reps, sd.median / 1000, se.median / 1000,
           (sd.median + se.median) / 1000, direct / 1000, (sd.median + se.median - direct) / 1000,
           (sd.median + se.median) / direct, sw.median, cpus, threads);
    free(daemon_v);
    free(exec_v);
    free(wall_v);
}

int main(int argc, char **argv) {
    opts o = {.phase = "first",
              .n = 2000,
              .reps = 7,
              .size = 8,
              .backend = "neuron",
              .label = "",
              .batch = 16};
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--phase") == 0 && v)
            o.phase = argv[++i];
        else if (strcmp(argv[i], "--daemon-pid") == 0 && v)
            o.daemon_pid = atoi(argv[++i]);
        else if (strcmp(argv[i], "--lib") == 0 && v)
            o.lib = argv[++i];
        else if (strcmp(argv[i], "--neff") == 0 && v)
            o.neff = argv[++i];
        else if (strcmp(argv[i], "--backend") == 0 && v)
            o.backend = argv[++i];
        else if (strcmp(argv[i], "--ops") == 0 && v)
            o.n = atoi(argv[++i]);
        else if (strcmp(argv[i], "--reps") == 0 && v)
            o.reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--size") == 0 && v)
            o.size = atoi(argv[++i]);
        else if (strcmp(argv[i], "--label") == 0 && v)
            o.label = argv[++i];
        else if (strcmp(argv[i], "--batch") == 0 && v)
            o.batch = atoi(argv[++i]);
        else if (strcmp(argv[i], "--trace") == 0 && v)
            o.trace = argv[++i];
        else if (strcmp(argv[i], "--metrics-port") == 0 && v)
            o.metrics_port = atoi(argv[++i]);
        else if (!o.addr)
            o.addr = argv[i];
        else {
            fprintf(stderr,
                    "usage: bench_neuron ADDR "
                    "[--phase first|restart|host|split|overlap|resident|locality|busy|graph|"
                    "in-place|on-core] [--daemon-pid P] [--lib L --neff F] [--ops N] [--reps R] "
                    "[--size S] [--backend NAME] [--label L] [--trace FILE] [--batch B] "
                    "[--metrics-port P]\n");
            return 2;
        }
    }
    const int split = strcmp(o.phase, "split") == 0 || strcmp(o.phase, "overlap") == 0 ||
                      strcmp(o.phase, "resident") == 0 || strcmp(o.phase, "locality") == 0 ||
                      strcmp(o.phase, "busy") == 0 || strcmp(o.phase, "graph") == 0 ||
                      strcmp(o.phase, "in-place") == 0 || strcmp(o.phase, "on-core") == 0;
    if (!o.addr || o.batch < 1 || o.batch > 1024 || o.size < 1 || o.size > (split ? 2048 : 64) ||
        o.n < 1 || o.reps < 1 || trnsciInit(o.addr) != trnsciSuccess)
        return 2;
    float *a, *b, *c;
    const size_t bytes = (size_t)o.size * o.size * sizeof(float);
    float *host = malloc(bytes);
    bench_fill(host, (size_t)o.size * o.size, 1);
    if (trnsciMalloc((void **)&a, bytes) || trnsciMalloc((void **)&b, bytes) ||
        trnsciMalloc((void **)&c, bytes) ||
        trnsciMemcpy(a, host, bytes, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(b, host, bytes, trnsciMemcpyHostToDevice))
        return 1;
    trnblasHandle_t h;
    if (trnblasCreate(&h) != TRNBLAS_STATUS_SUCCESS)
        return 1;
    if (strcmp(o.phase, "host") == 0) {
        if (!o.lib || !o.neff || o.daemon_pid <= 0)
            return 2;
        phase_host(&o, h, a, b, c);
    } else if (strcmp(o.phase, "overlap") == 0) {
        if (!o.trace)
            return 2;
        phase_overlap(&o, h);
    } else if (strcmp(o.phase, "resident") == 0) {
        if (!o.trace)
            return 2;
        phase_resident(&o, h);
    } else if (strcmp(o.phase, "locality") == 0) {
        if (!o.trace)
            return 2;
        phase_locality(&o);
    } else if (strcmp(o.phase, "busy") == 0) {
        if (!o.trace)
            return 2;
        phase_busy(&o);
    } else if (strcmp(o.phase, "graph") == 0) {
        if (!o.trace || o.size < 8)
            return 2;
        phase_graph(&o);
    } else if (strcmp(o.phase, "on-core") == 0) {
        if (!o.trace)
            return 2;
        phase_on_core(&o, h);
    } else if (strcmp(o.phase, "in-place") == 0) {
        if (o.daemon_pid <= 0 || o.metrics_port <= 0)
            return 2;
        phase_in_place(&o, h);
    } else if (split) {
        phase_split(&o, h, a, b, c);
    } else {
        phase_first(&o, h, a, b, c);
    }
    trnblasDestroy(h);
    trnsciDeviceReset();
    free(host);
    return 0;
}
