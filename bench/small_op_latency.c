/*
 * small_op_latency.c — the latency of a small op while another client keeps
 * the daemon busy with big, sharded GEMMs, against the same small op on an
 * idle daemon and against the run time of one shard of the big GEMM, in one
 * run.
 *
 * Role and placement. This is a benchmark (bench/), not a test: it prints one
 * JSON object on stdout and progress on stderr. bench/run_small_op_latency.sh
 * starts trnscid on a temporary socket with --cores = every CPU (one pinned
 * worker per CPU) and runs this program unpinned. The same binary plays two
 * roles, in two processes (two sessions of the daemon):
 *   (no --role)   the probe and coordinator. Before its first libtrnsci call
 *                 (libtrnsci and gRPC are not fork-safe once initialised) it
 *                 forks and execs /proc/self/exe as the load client, which it
 *                 drives through a pipe. It then measures, many times, the
 *                 round trip of a small op on its own stream: a
 *                 --probe-n^3 SGEMM (default 32^3: one shard) +
 *                 trnsciStreamSynchronize on that stream, paced by a random
 *                 sleep of 0.5-1.5 x --pace-us between samples. (Not a
 *                 memset: trnsciMemset on the local transport is a plain
 *                 memset in the client that never reaches the scheduler, and
 *                 data movement may run on the daemon's copy engine instead of
 *                 the cores; a tiny SGEMM needs the very cores the big GEMMs
 *                 occupy.)
 *   --role load   the load client: A, B and one C per stream, --load-n^2
 *                 floats each, uploaded once; on "LOAD" it queues --load-depth
 *                 --load-n^3 SGEMMs on each of its --load-streams streams and
 *                 keeps them queued (round robin: synchronize one stream,
 *                 queue --load-depth more on it, next stream) until "IDLE",
 *                 then drains. Every such GEMM is above the daemon's sharding
 *                 minimums, so each one is split into one shard per core.
 *
 * Rounds (--rounds, default 4) alternate the order of an idle phase (the load
 * client connected but idle, the daemon drained) and a load phase (probing
 * starts --settle-ms after the load was queued). Each phase stops at its share
 * of --samples or of its time budget (--idle-seconds, --load-seconds),
 * whichever comes first: a probe that waits behind whole shards takes
 * hundreds of milliseconds, so under load the time budget may bound the run.
 * Probes are closed-loop: the next one is queued a short sleep after the
 * previous one completed, i.e. shortly after a worker became free for it; this
 * does not flatter a scheduler that lets a small op wait for the shards
 * already running (the bound tested below).
 *
 * The shard time is measured in this process with the daemon idle, at the
 * start of every round: single-threaded cblas_sgemm (openblas_set_num_threads
 * (1), as inside the daemon's workers) of the largest shard the daemon cuts
 * the big GEMM into: m = k = --load-n and n = that shard's columns. The
 * daemon gives a GEMM min(cores, cost / 16 MFLOP, columns / 128) shards and
 * starts each at a multiple of 24 columns (scheduler/sched.c,
 * kernels/cpu/blas_gemm.c), so 2048 columns on 2 cores become 1032 + 1016;
 * the nominal 2048 / cores is reported beside it. Also reported: the shard
 * time the daemon actually achieved under load, estimated from the load
 * client's throughput as load wall time x cores / (GEMMs x shards per GEMM).
 *
 * Reported: p50/p90/p99/max (and min, mean) of the probe latency in µs under
 * load and without load, per round and pooled; the shard times; the ratios
 * p99 under load / shard time (target: <= 1, "a small op's p99 latency while
 * another client runs big GEMMs is bounded by one shard's run time") and
 * p99 under load / p99 idle, and the fraction of probes under load that took
 * longer than the shard; the load client's GEMM throughput; placement:
 * the CPUs this process may use and ran the probes on, the load client's
 * allowed CPUs, and with --daemon-pid the daemon's threads' CPU time during
 * the load and idle phases, their allowed and last CPUs. The probe's 32^3
 * result is checked against in-process OpenBLAS and the load's against a
 * double-precision dot product on a few entries (exit status 3 if off).
 *
 * usage: bench_small_op_latency [ADDRESS] [--samples N] [--rounds R]
 *            [--load-seconds S] [--idle-seconds S] [--pace-us US]
 *            [--probe-n N] [--load-n N] [--load-streams S] [--load-depth D]
 *            [--settle-ms MS] [--shard-reps N] [--daemon-pid PID]
 *   ADDRESS          daemon address (default $TRNSCI_ADDR, then the default socket)
 *   --samples N      probe samples per condition, at most (default 2000)
 *   --rounds R       idle/load round count (default 4)
 *   --load-seconds S probing time under load, at most, over all rounds (default 60)
 *   --idle-seconds S probing time without load, at most (default 10)
 *   --pace-us US     mean sleep between probes (default 1000)
 *   --probe-n N      size of the probe SGEMM (default 32)
 *   --load-n N       size of the load SGEMMs (default 2048)
 *   --load-streams S streams of the load client (default 2)
 *   --load-depth D   GEMMs queued per load stream at a time (default 2)
 *   --settle-ms MS   wait after queuing the load before probing (default 300)
 *   --shard-reps N   timed shard runs per round (default 2)
 *   --daemon-pid PID lets the bench read /proc/PID/task for placement
 */
#define _GNU_SOURCE
#include <cblas.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <trnsci/trnblas.h>
#include <trnsci/trnsci.h>
#include <unistd.h>

#include "bench_util.h"

#define MAX_ROUNDS 64
#define MAX_STREAMS 16
#define MAX_SHARD_REPS 256
#define CMD_TIMEOUT_MS 120000
/* The daemon's sharding rule (scheduler/sched.h, kernels/cpu/blas_gemm.c). */
#define SHARD_GEMM_MIN_FLOP 16e6
#define SHARD_GEMM_MIN_COLS 128
#define SHARD_COL_ALIGN 24

/* ---- small utilities ---------------------------------------------------------- */

static void sleep_ns(int64_t ns) {
    struct timespec ts = {(time_t)(ns / 1000000000LL), (long)(ns % 1000000000LL)};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {
    }
}

static uint64_t rng_state = 0x2545f4914f6cdd1dULL;
static double uniform01(void) {
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* ---- the daemon's sharding of a GEMM, as scheduler/sched.c cuts it ------------------ */

static int gemm_shards(double m, double n, double k, int ncores) {
    const double cost = 2.0 * m * n * k + m * n;
    const double by_cost = cost / SHARD_GEMM_MIN_FLOP, by_cols = n / SHARD_GEMM_MIN_COLS;
    const double by_size = by_cost < by_cols ? by_cost : by_cols;
    if (by_size < 2.0 || ncores < 2)
        return 1;
    return by_size >= (double)ncores ? ncores : (int)by_size;
}

/* Columns of the widest shard: n cut into blocks of SHARD_COL_ALIGN, the blocks
 * shared out as evenly as possible (the first shards get the extra block). */
static int widest_shard_cols(int n, int nshards) {
    const int blocks = (n + SHARD_COL_ALIGN - 1) / SHARD_COL_ALIGN;
    const int per = blocks / nshards + (blocks % nshards ? 1 : 0);
    const int cols = per * SHARD_COL_ALIGN;
    return cols < n ? cols : n;
}

/* ---- the load client ------------------------------------------------------------- */

typedef struct load_args {
    const char *addr;
    int n, streams, depth, ctl_fd, rep_fd;
} load_args;

static void load_die(const char *what) {
    fprintf(stderr, "bench_small_op_latency[load]: %s failed: %s\n", what,
            trnsciGetLastErrorMessage());
    exit(1);
}

static int load_main(const load_args *a) {
    const int n = a->n, S = a->streams;
    const size_t elems = (size_t)n * (size_t)n, bytes = elems * sizeof(float);
    float *A = malloc(bytes), *B = malloc(bytes), *C = malloc(bytes);
    if (!A || !B || !C)
        load_die("malloc");
    bench_fill(A, elems, 11);
    bench_fill(B, elems, 12);
    const float one = 1.0f, zero = 0.0f;
    float *dA, *dB, *dC[MAX_STREAMS];
    trnsciStream_t st[MAX_STREAMS];
    trnblasHandle_t h[MAX_STREAMS];
    char line[256];

    if (trnsciInit(a->addr) != trnsciSuccess)
        load_die("trnsciInit");
    if (trnsciMalloc((void **)&dA, bytes) || trnsciMalloc((void **)&dB, bytes))
        load_die("trnsciMalloc");
    if (trnsciMemcpy(dA, A, bytes, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(dB, B, bytes, trnsciMemcpyHostToDevice))
        load_die("trnsciMemcpy (upload)");
    for (int s = 0; s < S; s++) {
        if (trnsciMalloc((void **)&dC[s], bytes))
            load_die("trnsciMalloc");
        if (trnsciStreamCreate(&st[s]) != trnsciSuccess)
            load_die("trnsciStreamCreate");
        if (trnblasCreate(&h[s]) != TRNBLAS_STATUS_SUCCESS ||
            trnblasSetStream(h[s], st[s]) != TRNBLAS_STATUS_SUCCESS)
            load_die("trnblasCreate/SetStream");
    }
#define LOAD_GEMM(s)                                                                               \
    (trnblasSgemm(h[s], TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &one, dA, n, dB, n, &zero, dC[s],     \
                  n) == TRNBLAS_STATUS_SUCCESS)
    /* Warm-up: one big GEMM on an idle daemon, timed. */
    int64_t t0 = bench_now_ns();
    if (!LOAD_GEMM(0) || trnsciStreamSynchronize(st[0]) != trnsciSuccess)
        load_die("warm-up GEMM");
    const double idle_gemm_ms = (double)(bench_now_ns() - t0) * 1e-6;
    char cpus[128];
    bench_self_cpus(cpus, sizeof(cpus));
    snprintf(line, sizeof(line), "READY %.3f %.120s\n", idle_gemm_ms, cpus);
    if (bench_write_str(a->rep_fd, line))
        load_die("write READY");

    for (;;) {
        if (bench_read_line(a->ctl_fd, line, sizeof(line), -1) < 0)
            load_die("read command");
        if (!strcmp(line, "QUIT"))
            break;
        if (strcmp(line, "LOAD") != 0)
            load_die("unknown command");
        t0 = bench_now_ns();
        long done = 0;
        for (int s = 0; s < S; s++)
            for (int d = 0; d < a->depth; d++)
                if (!LOAD_GEMM(s))
                    load_die("trnblasSgemm");
        if (bench_write_str(a->rep_fd, "LOADING\n"))
            load_die("write LOADING");
        /* Keep every stream's queue refilled, round robin, until told to idle. */
        for (int s = 0;; s = (s + 1) % S) {
            if (trnsciStreamSynchronize(st[s]) != trnsciSuccess)
                load_die("trnsciStreamSynchronize");
            done += a->depth;
            if (bench_readable(a->ctl_fd))
                break;
            for (int d = 0; d < a->depth; d++)
                if (!LOAD_GEMM(s))
                    load_die("trnblasSgemm");
        }
        if (bench_read_line(a->ctl_fd, line, sizeof(line), 1000) < 0 || strcmp(line, "IDLE") != 0)
            load_die("read IDLE");
        if (trnsciDeviceSynchronize() != trnsciSuccess)
            load_die("trnsciDeviceSynchronize");
        /* Every stream but the one just synchronized had depth GEMMs queued. */
        done += (long)(S - 1) * a->depth;
        snprintf(line, sizeof(line), "IDLED %ld %.6f\n", done,
                 (double)(bench_now_ns() - t0) * 1e-9);
        if (bench_write_str(a->rep_fd, line))
            load_die("write IDLED");
    }
#undef LOAD_GEMM

    /* Spot check: a few entries of the last result, in double precision. */
    if (trnsciMemcpy(C, dC[0], bytes, trnsciMemcpyDeviceToHost) != trnsciSuccess)
        load_die("trnsciMemcpy (download)");
    double worst = 0.0;
    for (int t = 0; t < 16; t++) {
        const size_t i = (size_t)((t * 7919) % n), j = (size_t)((t * 104729 + 13) % n);
        worst = bench_worse(worst, bench_sgemm_entry_err(A, B, C, n, i, j));
    }
    snprintf(line, sizeof(line), "BYE %.3g\n", worst);
    if (bench_write_str(a->rep_fd, line))
        load_die("write BYE");
    for (int s = 0; s < S; s++) {
        trnblasDestroy(h[s]);
        trnsciStreamDestroy(st[s]);
        trnsciFree(dC[s]);
    }
    trnsciFree(dA);
    trnsciFree(dB);
    free(A);
    free(B);
    free(C);
    return worst <= 1e-5 ? 0 : 3;
}

/* ---- the probe and coordinator ------------------------------------------------------ */

typedef struct config {
    const char *addr;
    int samples, rounds, pace_us, probe_n, load_n, streams, depth, settle_ms, shard_reps;
    int daemon_pid;
    double load_s, idle_s;
} config;

static void fatal(const char *msg) {
    fprintf(stderr, "bench_small_op_latency: %s\n", msg);
    exit(1);
}

static void die(const char *what) {
    fprintf(stderr, "bench_small_op_latency: %s failed: %s\n", what, trnsciGetLastErrorMessage());
    exit(1);
}

/* Probe state. */
static trnblasHandle_t probe_h;
static trnsciStream_t probe_stream;
static float *probe_dA, *probe_dB, *probe_dC;
static long probe_cpu_count[64];

/* One probe: the small op's round trip, in µs. */
static double probe_once(int n) {
    const float one = 1.0f, zero = 0.0f;
    const int64_t t0 = bench_now_ns();
    if (trnblasSgemm(probe_h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &one, probe_dA, n, probe_dB, n,
                     &zero, probe_dC, n) != TRNBLAS_STATUS_SUCCESS)
        die("trnblasSgemm (probe)");
    if (trnsciStreamSynchronize(probe_stream) != trnsciSuccess)
        die("trnsciStreamSynchronize (probe)");
    const double us = (double)(bench_now_ns() - t0) * 1e-3;
    const int cpu = sched_getcpu();
    if (cpu >= 0 && cpu < 64)
        probe_cpu_count[cpu]++;
    return us;
}

/* Up to max_samples probes, or until budget_s has passed; appends to out. */
static int probe_phase(const config *cfg, double *out, int max_samples, double budget_s) {
    const int64_t end = bench_now_ns() + (int64_t)(budget_s * 1e9);
    int k = 0;
    while (k < max_samples && bench_now_ns() < end) {
        out[k++] = probe_once(cfg->probe_n);
        sleep_ns((int64_t)((0.5 + uniform01()) * cfg->pace_us * 1e3));
    }
    return k;
}

typedef struct round_result {
    int order; /* 0: idle phase first */
    bench_dist idle, load;
    double shard_ms[MAX_SHARD_REPS];
    int nshard;
    double load_s;
    long load_gemms;
} round_result;

static void print_lat(const char *key, const bench_dist *s, const char *end) {
    printf("\"%s\": {\"samples\": %d, \"p50\": %.1f, \"p90\": %.1f, \"p99\": %.1f, "
           "\"max\": %.1f, \"min\": %.1f, \"mean\": %.1f}%s",
           key, s->n, s->p50, s->p90, s->p99, s->max, s->min, s->mean, end);
}

/* The daemon's threads over the idle or the load phases: all of them, and the
 * `top` busiest (busy = CPU time / the phases' wall time). */
static void print_threads(const char *key, bench_acc_set *a, int top, const char *end) {
    const unsigned long long total = bench_acc_sort(a);
    printf("    \"%s\": {\"wall_s\": %.2f, \"all_threads_busy\": %.3f, \"busiest\": ", key,
           a->wall_ms * 1e-3, a->wall_ms > 0 ? (double)total * 1e-6 / a->wall_ms : 0.0);
    bench_json_thread_list(a, top, a->wall_ms);
    printf("}%s\n", end);
}

static void usage(void) {
    fputs("usage: bench_small_op_latency [ADDRESS] [--samples N] [--rounds R]\n"
          "           [--load-seconds S] [--idle-seconds S] [--pace-us US] [--probe-n N]\n"
          "           [--load-n N] [--load-streams S] [--load-depth D] [--settle-ms MS]\n"
          "           [--shard-reps N] [--daemon-pid PID]\n",
          stderr);
    exit(2);
}

int main(int argc, char **argv) {
    config cfg = {.samples = 2000,
                  .rounds = 4,
                  .pace_us = 1000,
                  .probe_n = 32,
                  .load_n = 2048,
                  .streams = 2,
                  .depth = 2,
                  .settle_ms = 300,
                  .shard_reps = 2,
                  .load_s = 60.0,
                  .idle_s = 10.0};
    int ctl_fd = -1, rep_fd = -1;
    const char *role = NULL;
    const bench_opt opts[] = {{"--samples", BENCH_OPT_INT, &cfg.samples},
                              {"--rounds", BENCH_OPT_INT, &cfg.rounds},
                              {"--load-seconds", BENCH_OPT_DOUBLE, &cfg.load_s},
                              {"--idle-seconds", BENCH_OPT_DOUBLE, &cfg.idle_s},
                              {"--pace-us", BENCH_OPT_INT, &cfg.pace_us},
                              {"--probe-n", BENCH_OPT_INT, &cfg.probe_n},
                              {"--load-n", BENCH_OPT_INT, &cfg.load_n},
                              {"--load-streams", BENCH_OPT_INT, &cfg.streams},
                              {"--load-depth", BENCH_OPT_INT, &cfg.depth},
                              {"--settle-ms", BENCH_OPT_INT, &cfg.settle_ms},
                              {"--shard-reps", BENCH_OPT_INT, &cfg.shard_reps},
                              {"--daemon-pid", BENCH_OPT_INT, &cfg.daemon_pid},
                              /* the load client's role (see the spawn below) */
                              {"--role", BENCH_OPT_STR, &role},
                              {"--ctl-fd", BENCH_OPT_INT, &ctl_fd},
                              {"--rep-fd", BENCH_OPT_INT, &rep_fd},
                              {NULL, BENCH_OPT_FLAG, NULL}};
    if (bench_parse_args(opts, argc, argv, &cfg.addr) != 0)
        usage();
    const int role_load = !role ? 0 : !strcmp(role, "load") ? 1 : -1;
    if (!cfg.addr)
        cfg.addr = getenv("TRNSCI_ADDR");
    if (role_load < 0 || cfg.samples < 1 || cfg.rounds < 1 || cfg.rounds > MAX_ROUNDS ||
        cfg.pace_us < 0 || cfg.probe_n < 1 || cfg.load_n < 1 || cfg.streams < 1 ||
        cfg.streams > MAX_STREAMS || cfg.depth < 1 || cfg.settle_ms < 0 || cfg.shard_reps < 1 ||
        cfg.shard_reps * cfg.rounds > MAX_SHARD_REPS || cfg.load_s <= 0 || cfg.idle_s <= 0)
        usage();
    if (role_load) {
        if (ctl_fd < 0 || rep_fd < 0)
            usage();
        const load_args la = {cfg.addr, cfg.load_n, cfg.streams, cfg.depth, ctl_fd, rep_fd};
        return load_main(&la);
    }

    /* ---- spawn the load client before any libtrnsci call ---- */
    signal(SIGPIPE, SIG_IGN);
    char sn[16], ss[16], sd[16];
    snprintf(sn, sizeof(sn), "%d", cfg.load_n);
    snprintf(ss, sizeof(ss), "%d", cfg.streams);
    snprintf(sd, sizeof(sd), "%d", cfg.depth);
    int ctl_w, rep_r;
    const pid_t load_pid = bench_spawn_role(
        &ctl_w, &rep_r, "bench_small_op_latency", "--role", "load", "--load-n", sn,
        "--load-streams", ss, "--load-depth", sd, cfg.addr ? cfg.addr : "", (char *)NULL);
    if (load_pid < 0)
        fatal("cannot start the load client (pipe2 or fork failed)");
    char line[256];

    char start_cpus[256];
    bench_self_cpus(start_cpus, sizeof(start_cpus));
    openblas_set_num_threads(1);

    /* ---- the probe's session ---- */
    if (trnsciInit(cfg.addr) != trnsciSuccess)
        die("trnsciInit");
    trnsciDaemonStatus st;
    if (trnsciDaemonGetStatus(cfg.addr, &st) != trnsciSuccess)
        die("trnsciDaemonGetStatus");
    const int ncores = (int)st.coreCount;
    const int pn = cfg.probe_n;
    const size_t pbytes = (size_t)pn * (size_t)pn * sizeof(float);
    float *pA = malloc(pbytes), *pB = malloc(pbytes), *pC = malloc(pbytes), *pRef = malloc(pbytes);
    if (!pA || !pB || !pC || !pRef)
        fatal("malloc failed");
    bench_fill(pA, (size_t)pn * (size_t)pn, 21);
    bench_fill(pB, (size_t)pn * (size_t)pn, 22);
    if (trnsciMalloc((void **)&probe_dA, pbytes) || trnsciMalloc((void **)&probe_dB, pbytes) ||
        trnsciMalloc((void **)&probe_dC, pbytes))
        die("trnsciMalloc");
    if (trnsciMemcpy(probe_dA, pA, pbytes, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(probe_dB, pB, pbytes, trnsciMemcpyHostToDevice))
        die("trnsciMemcpy (upload)");
    if (trnsciStreamCreate(&probe_stream) != trnsciSuccess)
        die("trnsciStreamCreate");
    if (trnblasCreate(&probe_h) != TRNBLAS_STATUS_SUCCESS ||
        trnblasSetStream(probe_h, probe_stream) != TRNBLAS_STATUS_SUCCESS)
        die("trnblasCreate/SetStream");

    /* ---- the shard, measured in this process ---- */
    const int nshards = gemm_shards(cfg.load_n, cfg.load_n, cfg.load_n, ncores);
    const int shard_cols = widest_shard_cols(cfg.load_n, nshards);
    const size_t ln = (size_t)cfg.load_n;
    float *sA = malloc(ln * ln * sizeof(float)),
          *sB = malloc(ln * (size_t)shard_cols * sizeof(float)),
          *sC = malloc(ln * (size_t)shard_cols * sizeof(float));
    if (!sA || !sB || !sC)
        fatal("malloc failed");
    bench_fill(sA, ln * ln, 11);
    bench_fill(sB, ln * (size_t)shard_cols, 12);
    int shard_cpu = -1;
#define SHARD_GEMM()                                                                               \
    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, cfg.load_n, shard_cols, cfg.load_n,     \
                1.0f, sA, cfg.load_n, sB, cfg.load_n, 0.0f, sC, cfg.load_n)

    /* Wait for the load client's set-up (its warm-up GEMM included). */
    double load_idle_gemm_ms = 0;
    char load_cpus[128] = "";
    if (bench_read_line(rep_r, line, sizeof(line), CMD_TIMEOUT_MS) < 0 ||
        sscanf(line, "READY %lf %127s", &load_idle_gemm_ms, load_cpus) != 2)
        fatal("the load client did not get ready (see its error above)");

    fprintf(stderr,
            "bench_small_op_latency: %d cores; load %d^3 SGEMM = %d shards (widest %d columns) "
            "on %d streams x %d queued; probe %d^3 SGEMM + sync\n",
            ncores, cfg.load_n, nshards, shard_cols, cfg.streams, cfg.depth, pn);
    /* Warm-up: probes and one shard, untimed. */
    for (int i = 0; i < 200; i++)
        probe_once(pn);
    memset(probe_cpu_count, 0, sizeof(probe_cpu_count));
    SHARD_GEMM();

    double *lat_idle = malloc((size_t)cfg.samples * sizeof(double)),
           *lat_load = malloc((size_t)cfg.samples * sizeof(double)),
           *tmp = malloc((size_t)cfg.samples * sizeof(double));
    if (!lat_idle || !lat_load || !tmp)
        fatal("malloc failed");
    int n_idle = 0, n_load = 0;
    static round_result rr[MAX_ROUNDS];
    static bench_acc_set acc_idle, acc_load;
    static bench_thread_sample d0[BENCH_MAX_THREADS], d1[BENCH_MAX_THREADS];
    double shard_all[MAX_SHARD_REPS];
    int nshard_all = 0;
    double load_wall_s = 0;
    long load_gemms = 0;

    for (int r = 0; r < cfg.rounds; r++) {
        round_result *R = &rr[r];
        R->order = r % 2; /* even rounds: idle first */
        /* Shard time, daemon idle. */
        for (int k = 0; k < cfg.shard_reps; k++) {
            const int64_t t0 = bench_now_ns();
            SHARD_GEMM();
            R->shard_ms[k] = (double)(bench_now_ns() - t0) * 1e-6;
            shard_all[nshard_all++] = R->shard_ms[k];
            shard_cpu = sched_getcpu();
        }
        R->nshard = cfg.shard_reps;
        const int quota_idle = (cfg.samples - n_idle) / (cfg.rounds - r);
        const int quota_load = (cfg.samples - n_load) / (cfg.rounds - r);
        for (int ph = 0; ph < 2; ph++) {
            const int loaded = (ph == 0) == (R->order == 1);
            int nd0 = 0;
            if (loaded) {
                if (bench_write_str(ctl_w, "LOAD\n") ||
                    bench_read_line(rep_r, line, sizeof(line), CMD_TIMEOUT_MS) < 0 ||
                    strcmp(line, "LOADING") != 0)
                    fatal("the load client did not start (see its error above)");
                sleep_ns((int64_t)cfg.settle_ms * 1000000LL);
            }
            if (cfg.daemon_pid)
                nd0 = bench_sample_threads(cfg.daemon_pid, d0, BENCH_MAX_THREADS, 1);
            const int64_t t0 = bench_now_ns();
            double *dst = loaded ? lat_load + n_load : lat_idle + n_idle;
            const int got = probe_phase(&cfg, dst, loaded ? quota_load : quota_idle,
                                        (loaded ? cfg.load_s : cfg.idle_s) / cfg.rounds);
            const double wall_ms = (double)(bench_now_ns() - t0) * 1e-6;
            if (cfg.daemon_pid) {
                const int nd1 = bench_sample_threads(cfg.daemon_pid, d1, BENCH_MAX_THREADS, 1);
                bench_acc_set *acc = loaded ? &acc_load : &acc_idle;
                acc->wall_ms += wall_ms;
                bench_acc_add(acc, d0, nd0, d1, nd1);
            }
            memcpy(tmp, dst, (size_t)got * sizeof(double));
            if (loaded) {
                R->load = bench_dist_of(tmp, got);
                n_load += got;
                if (bench_write_str(ctl_w, "IDLE\n") ||
                    bench_read_line(rep_r, line, sizeof(line), CMD_TIMEOUT_MS) < 0 ||
                    sscanf(line, "IDLED %ld %lf", &R->load_gemms, &R->load_s) != 2)
                    fatal("the load client did not drain (see its error above)");
                load_gemms += R->load_gemms;
                load_wall_s += R->load_s;
            } else {
                R->idle = bench_dist_of(tmp, got);
                n_idle += got;
            }
        }
        fprintf(stderr,
                "bench_small_op_latency: round %d/%d: idle p50 %.0f p99 %.0f us (%d); load p50 "
                "%.0f p99 %.0f us (%d); shard %.1f ms\n",
                r + 1, cfg.rounds, R->idle.p50, R->idle.p99, R->idle.n, R->load.p50, R->load.p99,
                R->load.n, R->shard_ms[0]);
    }
#undef SHARD_GEMM

    /* ---- the load client stops; checks ---- */
    double load_err = -1;
    if (bench_write_str(ctl_w, "QUIT\n") ||
        bench_read_line(rep_r, line, sizeof(line), CMD_TIMEOUT_MS) < 0 ||
        sscanf(line, "BYE %lf", &load_err) != 1)
        fatal("the load client did not quit (see its error above)");
    int status = 0;
    if (waitpid(load_pid, &status, 0) != load_pid || !WIFEXITED(status) ||
        (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 3))
        fatal("the load client exited abnormally");
    close(ctl_w);
    close(rep_r);

    if (trnsciMemcpy(pC, probe_dC, pbytes, trnsciMemcpyDeviceToHost) != trnsciSuccess)
        die("trnsciMemcpy (download)");
    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, pn, pn, pn, 1.0f, pA, pn, pB, pn, 0.0f,
                pRef, pn);
    const double probe_err = bench_max_rel_diff(pC, pRef, (size_t)pn * (size_t)pn);
    const int ok = probe_err <= 1e-5 && load_err >= 0 && load_err <= 1e-5;

    const bench_dist idle = bench_dist_of(lat_idle, n_idle), load = bench_dist_of(lat_load, n_load);
    const bench_stats shard = bench_stats_of(shard_all, nshard_all);
    const double shard_med = shard.median;
    /* What one shard took inside the daemon under load: every core ran load
     * shards for the whole load wall time (the probes' work is negligible). */
    const double shard_daemon_ms =
        load_gemms > 0 ? load_wall_s * 1e3 * ncores / ((double)load_gemms * nshards) : 0.0;
    const double load_gflops = load_wall_s > 0 ? (double)load_gemms * 2.0 * (double)ln *
                                                     (double)ln * (double)ln / load_wall_s * 1e-9
                                               : 0.0;

    /* ---- JSON ---- */
    printf("{\n  \"benchmark\": \"small_op_latency\",\n");
    printf("  \"address\": \"%s\",\n", cfg.addr ? cfg.addr : "(default)");
    printf("  \"daemon\": {\"version\": \"%s\", \"backend\": \"%s\", \"cores\": %d},\n",
           st.daemonVersion, st.backend, ncores);
    printf("  \"probe\": {\"op\": \"sgemm %dx%dx%d NN + trnsciStreamSynchronize on its own "
           "stream\", \"pace_us\": %d, \"pacing\": \"uniform random sleep in [0.5, 1.5] x "
           "pace_us\", \"max_samples_per_condition\": %d, \"rounds\": %d, "
           "\"budget_s\": {\"idle\": %.1f, \"load\": %.1f}, \"settle_ms\": %d},\n",
           pn, pn, pn, cfg.pace_us, cfg.samples, cfg.rounds, cfg.idle_s, cfg.load_s, cfg.settle_ms);
    printf("  \"load\": {\"op\": \"sgemm %dx%dx%d NN\", \"client\": \"another process (its own "
           "session)\", \"streams\": %d, \"queued_per_stream\": %d, \"shards_per_gemm\": %d, "
           "\"gemm_ms_idle_daemon\": %.1f, \"gemms_completed\": %ld, \"wall_s\": %.2f, "
           "\"gflops\": %.2f},\n",
           cfg.load_n, cfg.load_n, cfg.load_n, cfg.streams, cfg.depth, nshards, load_idle_gemm_ms,
           load_gemms, load_wall_s, load_gflops);
    printf("  \"shard\": {\"m\": %d, \"n\": %d, \"k\": %d, \"nominal_n\": %d, \"how\": "
           "\"in-process cblas_sgemm, openblas_set_num_threads(1), daemon idle, %d per round\", "
           "\"reps\": %d, \"ms\": {\"median\": %.2f, \"min\": %.2f, \"max\": %.2f}, "
           "\"in_daemon_under_load_ms_est\": %.2f},\n",
           cfg.load_n, shard_cols, cfg.load_n, cfg.load_n / (ncores > 0 ? ncores : 1),
           cfg.shard_reps, nshard_all, shard_med, shard.min, shard.max, shard_daemon_ms);
    printf("  \"latency_us\": {\n    ");
    print_lat("idle", &idle, ",\n    ");
    print_lat("load", &load, "\n  },\n");
    printf("  \"rounds\": [");
    for (int r = 0; r < cfg.rounds; r++) {
        printf("%s\n    {\"round\": %d, \"first\": \"%s\", \"shard_ms\": [", r ? "," : "", r,
               rr[r].order ? "load" : "idle");
        for (int k = 0; k < rr[r].nshard; k++)
            printf("%s%.2f", k ? ", " : "", rr[r].shard_ms[k]);
        printf("], \"load_gemms\": %ld,\n     ", rr[r].load_gemms);
        print_lat("idle", &rr[r].idle, ",\n     ");
        print_lat("load", &rr[r].load, "}");
    }
    printf("\n  ],\n");
    const double ratio = shard_med > 0 ? load.p99 * 1e-3 / shard_med : 0.0;
    int over = 0, over_daemon = 0;
    for (int i = 0; i < n_load; i++) {
        over += lat_load[i] * 1e-3 > shard_med;
        over_daemon += lat_load[i] * 1e-3 > shard_daemon_ms;
    }
    printf("  \"ratios\": {\"p99_load_over_shard\": %.3f, \"p99_load_over_shard_in_daemon\": "
           "%.3f, \"p99_load_over_p99_idle\": %.1f, \"p50_load_over_shard\": %.3f, "
           "\"load_samples_over_shard\": %.4f, \"load_samples_over_shard_in_daemon\": %.4f},\n",
           ratio, shard_daemon_ms > 0 ? load.p99 * 1e-3 / shard_daemon_ms : 0.0,
           idle.p99 > 0 ? load.p99 / idle.p99 : 0.0,
           shard_med > 0 ? load.p50 * 1e-3 / shard_med : 0.0, n_load ? (double)over / n_load : 0.0,
           n_load ? (double)over_daemon / n_load : 0.0);
    printf("  \"target\": {\"text\": \"a small op's p99 latency while another client runs big "
           "GEMMs: bounded by one shard's run time\", \"p99_load_ms\": %.2f, \"shard_ms\": "
           "%.2f, \"met\": %s},\n",
           load.p99 * 1e-3, shard_med, ratio > 0 && ratio <= 1.0 ? "true" : "false");
    printf("  \"checks\": {\"probe_max_rel_diff_vs_openblas\": %.3g, \"load_spot_rel_err\": "
           "%.3g, \"ok\": %s},\n",
           probe_err, load_err, ok ? "true" : "false");
    printf("  \"placement\": {\n");
    printf("    \"probe_process_cpus_allowed\": \"%s\",\n", start_cpus);
    printf("    \"probe_ran_on_cpus\": {");
    for (int c = 0, first = 1; c < 64; c++)
        if (probe_cpu_count[c]) {
            printf("%s\"%d\": %ld", first ? "" : ", ", c, probe_cpu_count[c]);
            first = 0;
        }
    printf("},\n");
    printf("    \"load_process_cpus_allowed\": \"%s\",\n", load_cpus);
    printf("    \"shard_measured_on_cpu\": %d%s\n", shard_cpu, cfg.daemon_pid ? "," : "");
    if (cfg.daemon_pid) {
        printf("    \"daemon_pid\": %d,\n", cfg.daemon_pid);
        print_threads("daemon_during_load", &acc_load, ncores + 1, ",");
        print_threads("daemon_during_idle", &acc_idle, ncores + 1, "");
    }
    printf("  },\n");
    bench_json_host("\n}\n");

    trnblasDestroy(probe_h);
    trnsciStreamDestroy(probe_stream);
    trnsciFree(probe_dA);
    trnsciFree(probe_dB);
    trnsciFree(probe_dC);
    free(pA);
    free(pB);
    free(pC);
    free(pRef);
    free(sA);
    free(sB);
    free(sC);
    free(lat_idle);
    free(lat_load);
    free(tmp);
    return ok ? 0 : 3;
}
