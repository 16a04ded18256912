/*
 * multi_client.c — several client processes streaming SGEMM through one
 * trnscid, against as many processes each calling OpenBLAS directly, in one
 * run: aggregate throughput and how evenly it is shared.
 *
 * Role and placement. This is a benchmark (bench/), not a test: it prints one
 * JSON object on stdout and progress on stderr. bench/run_multi_client.sh
 * starts trnscid on a temporary socket with --cores = every CPU (one pinned
 * worker per CPU; each 1024^3 GEMM is sharded over all of them) and runs this
 * program unpinned. The same binary plays three roles:
 *   (no --role)      the coordinator: never calls libtrnsci or OpenBLAS
 *                    (libtrnsci and gRPC are not fork-safe once initialised),
 *                    spawns the clients with fork + exec of /proc/self/exe,
 *                    starts them together, collects their counts, prints JSON
 *   --role trnsci    one client of the daemon: allocates A, B, C on the
 *                    device, uploads them once, then loops trnblasSgemm on its
 *                    own stream, with trnsciStreamSynchronize every
 *                    --sync-every GEMMs
 *   --role openblas  one process calling cblas_sgemm on host arrays, with
 *                    OpenBLAS's default threading (the thread count is not
 *                    set: OpenBLAS uses every CPU it may run on, so N
 *                    processes run N x CPUs threads; --openblas-threads sets
 *                    it instead)
 *
 * One repetition = one daemon phase and one OpenBLAS phase (the order
 * alternates between repetitions so that a drift of the machine's speed hits
 * both alike). In a phase, --clients fresh processes are spawned; each sets up
 * and warms up (one GEMM), reports READY, and waits. The coordinator then
 * sends every client the same start time (CLOCK_MONOTONIC, 100 ms ahead), and
 * each sleeps until it and runs for --window seconds. A client counts the
 * GEMMs completed inside [start, start + window]; the unit of work (a batch of
 * --sync-every GEMMs + Synchronize, or one cblas_sgemm) that straddles the end
 * counts for the fraction of it inside the window. After its window a client
 * keeps the same load running, uncounted, until every client has finished its
 * window, so nobody's window ends with less contention than it started with.
 *
 * Reported per phase: each client's throughput x_i = GEMMs * 2 n^3 / window,
 * the aggregate sum x_i (GFLOP/s) and Jain's fairness index
 * (sum x_i)^2 / (n * sum x_i^2) (1 = perfectly even, 1/n = one client got
 * everything); per repetition the ratio trnsci aggregate / OpenBLAS aggregate;
 * and medians over repetitions. Targets: ratio >= 0.95 and daemon-phase
 * Jain >= 0.95. Each client also spot-checks 32 entries of its C against a
 * double-precision dot product (exit status 3 if any is off).
 *
 * Placement in the JSON: the CPUs each client process may use, the CPU time of
 * its threads over its window and the CPUs they ran on, OpenBLAS's thread
 * count; with --daemon-pid, the daemon threads that computed during the
 * daemon phases (CPU time / wall time, allowed CPUs, last CPU) and the
 * daemon's CPU use during the OpenBLAS phases.
 *
 * usage: bench_multi_client [ADDRESS] [--clients N] [--n N] [--window SECONDS]
 *                           [--reps R] [--sync-every K] [--daemon-pid PID]
 *                           [--openblas-threads T]
 *   ADDRESS        daemon address (default $TRNSCI_ADDR, then the default socket)
 *   --clients N    client processes per phase (default 4)
 *   --n N          square GEMM size (default 1024)
 *   --window S     measured seconds per phase (default 3)
 *   --reps R       repetitions of the pair of phases (default 5)
 *   --sync-every K GEMMs queued between two Synchronize calls (default 4)
 *   --openblas-threads T  openblas_set_num_threads(T) in each OpenBLAS client
 *                  (default: not called, OpenBLAS's default threading)
 *   --daemon-pid   lets the coordinator read /proc/PID/task for placement
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

#define MAX_CLIENTS 64
#define MAX_REPS 100
#define SPOT_CHECKS 32
#define SETUP_TIMEOUT_MS 120000

enum { SIDE_TRN = 0, SIDE_OB = 1 };
static const char *const side_name[2] = {"trnsci", "openblas"};

/* ---- small utilities ---------------------------------------------------------- */

static void sleep_until_ns(int64_t t) {
    struct timespec ts = {(time_t)(t / 1000000000LL), (long)(t % 1000000000LL)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
    }
}

/* Jain's fairness index of x[0..n): (sum x)^2 / (n sum x^2). */
static double jain(const double *x, int n) {
    double s = 0, s2 = 0;
    for (int i = 0; i < n; i++) {
        s += x[i];
        s2 += x[i] * x[i];
    }
    return s2 > 0 ? s * s / ((double)n * s2) : 0.0;
}

/* This process over an interval: CPU time of all its threads, how many ran,
 * and the CPUs they were last seen on. */
typedef struct self_usage {
    double cpu_ms;
    int threads, threads_ran;
    char cpus[64];
} self_usage;

static void self_usage_between(const bench_thread_sample *b, int nb, const bench_thread_sample *a,
                               int na, self_usage *u) {
    bench_thread_delta d = {0};
    bench_threads_delta(b, nb, a, na, &d);
    u->threads = na;
    u->threads_ran = d.threads_ran;
    u->cpu_ms = (double)d.ns * 1e-6;
    bench_mask_str(d.cpus, u->cpus, sizeof(u->cpus));
    if (!u->cpus[0])
        snprintf(u->cpus, sizeof(u->cpus), "-");
}

/* ---- client roles --------------------------------------------------------------- */

typedef struct client_args {
    int side, index, n, sync_every, ctl_fd, rep_fd, ob_threads;
    const char *addr;
} client_args;

static void client_die(const client_args *a, const char *what) {
    fprintf(stderr, "bench_multi_client[%s %d]: %s failed: %s\n", side_name[a->side], a->index,
            what, a->side == SIDE_TRN ? trnsciGetLastErrorMessage() : strerror(errno));
    exit(1);
}

/* Largest |C[i,j] - sum_l A[i,l] B[l,j]| / sum_l |A[i,l] B[l,j]| over
 * SPOT_CHECKS pseudo-random entries (column-major, C = A B). */
static double spot_check(const float *A, const float *B, const float *C, int n, uint64_t seed) {
    double worst = 0.0;
    uint64_t s = seed ^ 0x9e3779b97f4a7c15ULL;
    for (int t = 0; t < SPOT_CHECKS; t++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        const size_t i = (size_t)((s >> 33) % (uint64_t)n);
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        const size_t j = (size_t)((s >> 33) % (uint64_t)n);
        worst = bench_worse(worst, bench_sgemm_entry_err(A, B, C, n, i, j));
    }
    return worst;
}

static int client_main(const client_args *a) {
    const int n = a->n;
    const size_t elems = (size_t)n * (size_t)n, bytes = elems * sizeof(float);
    float *A = malloc(bytes), *B = malloc(bytes), *C = malloc(bytes);
    if (!A || !B || !C)
        client_die(a, "malloc");
    bench_fill(A, elems, 1000u + (uint64_t)a->index);
    bench_fill(B, elems, 2000u + (uint64_t)a->index);
    memset(C, 0, bytes);
    const float one = 1.0f, zero = 0.0f;
    float *dA = NULL, *dB = NULL, *dC = NULL;
    trnsciStream_t stream = NULL;
    trnblasHandle_t h = NULL;
    char line[256];

    /* READY line: what this side runs on. */
    if (a->side == SIDE_TRN) {
        if (trnsciInit(a->addr) != trnsciSuccess)
            client_die(a, "trnsciInit");
        trnsciDaemonStatus st;
        if (trnsciDaemonGetStatus(a->addr, &st) != trnsciSuccess)
            client_die(a, "trnsciDaemonGetStatus");
        if (trnsciMalloc((void **)&dA, bytes) || trnsciMalloc((void **)&dB, bytes) ||
            trnsciMalloc((void **)&dC, bytes))
            client_die(a, "trnsciMalloc");
        if (trnsciMemcpy(dA, A, bytes, trnsciMemcpyHostToDevice) ||
            trnsciMemcpy(dB, B, bytes, trnsciMemcpyHostToDevice))
            client_die(a, "trnsciMemcpy (upload)");
        if (trnsciStreamCreate(&stream) != trnsciSuccess)
            client_die(a, "trnsciStreamCreate");
        if (trnblasCreate(&h) != TRNBLAS_STATUS_SUCCESS ||
            trnblasSetStream(h, stream) != TRNBLAS_STATUS_SUCCESS)
            client_die(a, "trnblasCreate/SetStream");
        /* Warm-up: one GEMM (the daemon's workers touch the buffers). */
        if (trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &one, dA, n, dB, n, &zero, dC,
                         n) != TRNBLAS_STATUS_SUCCESS ||
            trnsciStreamSynchronize(stream) != trnsciSuccess)
            client_die(a, "warm-up GEMM");
        snprintf(line, sizeof(line), "READY %u %s %s\n", st.coreCount, st.daemonVersion,
                 st.backend);
    } else {
        if (a->ob_threads > 0)
            openblas_set_num_threads(a->ob_threads);
        cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, A, n, B, n, 0.0f, C,
                    n);
        snprintf(line, sizeof(line), "READY %d %s\n", openblas_get_num_threads(),
                 openblas_get_corename());
    }
    if (bench_write_str(a->rep_fd, line))
        client_die(a, "write READY");

    if (bench_read_line(a->ctl_fd, line, sizeof(line), -1) < 0)
        client_die(a, "read START");
    long long t0 = 0, window = 0;
    if (sscanf(line, "START %lld %lld", &t0, &window) != 2 || window <= 0)
        client_die(a, "parse START");
    const int64_t tend = (int64_t)t0 + (int64_t)window;
    const int per_unit = a->side == SIDE_TRN ? a->sync_every : 1;

    bench_thread_sample s0[BENCH_MAX_THREADS], s1[BENCH_MAX_THREADS];
    const int ns0 = bench_sample_threads(getpid(), s0, BENCH_MAX_THREADS, 1);
    sleep_until_ns(t0);

    double counted = 0.0;
    long units = 0;
    int in_window = 1;
    for (;;) {
        const int64_t u0 = bench_now_ns();
        if (a->side == SIDE_TRN) {
            for (int k = 0; k < per_unit; k++)
                if (trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &one, dA, n, dB, n, &zero,
                                 dC, n) != TRNBLAS_STATUS_SUCCESS)
                    client_die(a, "trnblasSgemm");
            if (trnsciStreamSynchronize(stream) != trnsciSuccess)
                client_die(a, "trnsciStreamSynchronize");
        } else {
            cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, A, n, B, n, 0.0f,
                        C, n);
        }
        const int64_t u1 = bench_now_ns();
        if (in_window) {
            if (u1 <= tend) {
                counted += per_unit;
                units++;
            } else {
                /* The unit straddling the end: the fraction inside the window. */
                if (u0 < tend)
                    counted += per_unit * (double)(tend - u0) / (double)(u1 - u0);
                const int ns1 = bench_sample_threads(getpid(), s1, BENCH_MAX_THREADS, 1);
                self_usage u;
                self_usage_between(s0, ns0, s1, ns1, &u);
                /* busy = CPU time over [start, end of the straddling unit] (the
                 * sample before the start adds nothing: the process sleeps). */
                const double busy = u.cpu_ms / ((double)(bench_now_ns() - (int64_t)t0) * 1e-6);
                snprintf(line, sizeof(line), "DONE %.6f %ld %.4f %d %d %s\n", counted, units, busy,
                         u.threads, u.threads_ran, u.cpus);
                if (bench_write_str(a->rep_fd, line))
                    client_die(a, "write DONE");
                in_window = 0;
            }
        }
        /* After the window: keep the load on until told to stop. */
        if (!in_window && bench_readable(a->ctl_fd))
            break;
    }
    if (bench_read_line(a->ctl_fd, line, sizeof(line), 1000) < 0 || strncmp(line, "STOP", 4) != 0)
        client_die(a, "read STOP");

    if (a->side == SIDE_TRN &&
        trnsciMemcpy(C, dC, bytes, trnsciMemcpyDeviceToHost) != trnsciSuccess)
        client_die(a, "trnsciMemcpy (download)");
    const double err = spot_check(A, B, C, n, 77u + (uint64_t)a->index);
    snprintf(line, sizeof(line), "BYE %.3g\n", err);
    if (bench_write_str(a->rep_fd, line))
        client_die(a, "write BYE");
    if (a->side == SIDE_TRN) {
        trnblasDestroy(h);
        trnsciStreamDestroy(stream);
        trnsciFree(dA);
        trnsciFree(dB);
        trnsciFree(dC);
    }
    free(A);
    free(B);
    free(C);
    return err <= 1e-5 ? 0 : 3;
}

/* ---- coordinator -------------------------------------------------------------------- */

typedef struct client_result {
    int pid;
    double gemms, gflops, busy, spot_err;
    long units;
    int threads, threads_ran;
    char cpus[64];
} client_result;

typedef struct phase_result {
    int side, rep, order; /* order: 0 = first phase of its repetition */
    client_result c[MAX_CLIENTS];
    double aggregate_gflops, jain, min_gflops, max_gflops;
    double daemon_busy; /* all daemon threads: CPU time / phase wall time (-1: unknown) */
} phase_result;

typedef struct config {
    const char *addr;
    int clients, n, reps, sync_every, daemon_pid, ob_threads;
    double window_s;
} config;

/* What the clients reported in their READY lines. */
static unsigned daemon_cores;
static char daemon_version[64] = "", daemon_backend[64] = "", ob_core[64] = "";
static int ob_threads;
static bench_acc_set daemon_trn_acc, daemon_ob_acc;
static double daemon_trn_wall_ms, daemon_ob_wall_ms;

static void fatal(const char *msg) {
    fprintf(stderr, "bench_multi_client: %s\n", msg);
    exit(1);
}

/* fork + exec this binary in a client role; its control and report pipes are
 * passed by number (every other descriptor of ours is close-on-exec). */
static pid_t spawn_client(const config *cfg, int side, int index, int *ctl_w, int *rep_r) {
    char sidx[16], sn[16], ssync[16], sob[16];
    snprintf(sidx, sizeof(sidx), "%d", index);
    snprintf(sn, sizeof(sn), "%d", cfg->n);
    snprintf(ssync, sizeof(ssync), "%d", cfg->sync_every);
    snprintf(sob, sizeof(sob), "%d", cfg->ob_threads);
    const pid_t pid = bench_spawn_role(
        ctl_w, rep_r, "bench_multi_client", "--role", side_name[side], "--index", sidx, "--n", sn,
        "--sync-every", ssync, "--openblas-threads", sob, cfg->addr ? cfg->addr : "", (char *)NULL);
    if (pid < 0)
        fatal("cannot start a client (pipe2 or fork failed)");
    return pid;
}

static void run_phase(const config *cfg, int side, phase_result *res) {
    const int nc = cfg->clients;
    pid_t pid[MAX_CLIENTS];
    int ctl[MAX_CLIENTS], rep[MAX_CLIENTS];
    char line[256];
    for (int i = 0; i < nc; i++)
        pid[i] = spawn_client(cfg, side, i, &ctl[i], &rep[i]);
    for (int i = 0; i < nc; i++) {
        if (bench_read_line(rep[i], line, sizeof(line), SETUP_TIMEOUT_MS) < 0 ||
            strncmp(line, "READY ", 6) != 0)
            fatal("a client did not get ready (see its error above)");
        if (side == SIDE_TRN)
            sscanf(line + 6, "%u %63s %63s", &daemon_cores, daemon_version, daemon_backend);
        else
            sscanf(line + 6, "%d %63s", &ob_threads, ob_core);
    }
    bench_thread_sample d0[BENCH_MAX_THREADS], d1[BENCH_MAX_THREADS];
    int nd0 = 0;
    if (cfg->daemon_pid)
        nd0 = bench_sample_threads(cfg->daemon_pid, d0, BENCH_MAX_THREADS, 1);
    const int64_t window = (int64_t)(cfg->window_s * 1e9);
    const int64_t t0 = bench_now_ns() + 100000000LL;
    snprintf(line, sizeof(line), "START %lld %lld\n", (long long)t0, (long long)window);
    for (int i = 0; i < nc; i++)
        if (bench_write_str(ctl[i], line))
            fatal("cannot send START");

    const int timeout_ms = (int)(cfg->window_s * 1e3) + SETUP_TIMEOUT_MS;
    for (int i = 0; i < nc; i++) {
        client_result *c = &res->c[i];
        memset(c, 0, sizeof(*c));
        c->pid = pid[i];
        if (bench_read_line(rep[i], line, sizeof(line), timeout_ms) < 0 ||
            sscanf(line, "DONE %lf %ld %lf %d %d %63s", &c->gemms, &c->units, &c->busy, &c->threads,
                   &c->threads_ran, c->cpus) != 6)
            fatal("a client did not finish its window (see its error above)");
        c->gflops = c->gemms * 2.0 * (double)cfg->n * (double)cfg->n * (double)cfg->n /
                    cfg->window_s * 1e-9;
    }
    const int64_t t1 = bench_now_ns();
    res->daemon_busy = -1.0;
    if (cfg->daemon_pid) {
        const int nd1 = bench_sample_threads(cfg->daemon_pid, d1, BENCH_MAX_THREADS, 1);
        bench_acc_set one = {.n = 0};
        bench_acc_add(&one, d0, nd0, d1, nd1);
        const double wall_ms = (double)(t1 - t0) * 1e-6;
        res->daemon_busy = (double)bench_acc_sort(&one) * 1e-6 / wall_ms;
        bench_acc_add(side == SIDE_TRN ? &daemon_trn_acc : &daemon_ob_acc, d0, nd0, d1, nd1);
        *(side == SIDE_TRN ? &daemon_trn_wall_ms : &daemon_ob_wall_ms) += wall_ms;
    }
    for (int i = 0; i < nc; i++)
        if (bench_write_str(ctl[i], "STOP\n"))
            fatal("cannot send STOP");
    int bad = 0;
    for (int i = 0; i < nc; i++) {
        if (bench_read_line(rep[i], line, sizeof(line), SETUP_TIMEOUT_MS) < 0 ||
            sscanf(line, "BYE %lf", &res->c[i].spot_err) != 1)
            fatal("a client did not stop cleanly (see its error above)");
        int status = 0;
        if (waitpid(pid[i], &status, 0) != pid[i])
            fatal("waitpid failed");
        if (!WIFEXITED(status) || (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 3))
            fatal("a client exited abnormally");
        bad |= WEXITSTATUS(status) == 3;
        close(ctl[i]);
        close(rep[i]);
    }
    if (bad)
        fprintf(stderr, "bench_multi_client: a %s client's spot check failed\n", side_name[side]);

    double x[MAX_CLIENTS] = {0};
    res->aggregate_gflops = 0;
    for (int i = 0; i < nc; i++) {
        x[i] = res->c[i].gflops;
        res->aggregate_gflops += x[i];
    }
    res->side = side;
    res->jain = jain(x, nc);
    const bench_stats xs = bench_stats_copy(x, nc);
    res->min_gflops = xs.min;
    res->max_gflops = xs.max;
}

static void usage(void) {
    fputs("usage: bench_multi_client [ADDRESS] [--clients N] [--n N] [--window SECONDS]\n"
          "                          [--reps R] [--sync-every K] [--daemon-pid PID]\n"
          "                          [--openblas-threads T]\n",
          stderr);
    exit(2);
}

static void print_phase(const config *cfg, const phase_result *p, const char *end) {
    printf("       \"%s\": {\"order\": %d, \"aggregate_gflops\": %.2f, \"jain\": %.4f, "
           "\"min_client_gflops\": %.2f, \"max_client_gflops\": %.2f,",
           side_name[p->side], p->order, p->aggregate_gflops, p->jain, p->min_gflops,
           p->max_gflops);
    if (p->daemon_busy >= 0)
        printf(" \"daemon_busy\": %.3f,", p->daemon_busy);
    printf("\n         \"clients\": [");
    for (int i = 0; i < cfg->clients; i++) {
        const client_result *c = &p->c[i];
        printf("%s\n           {\"gflops\": %.2f, \"gemms\": %.2f, \"busy\": %.3f, "
               "\"threads\": %d, \"threads_ran\": %d, \"ran_on_cpus\": \"%s\", "
               "\"spot_check_rel_err\": %.2g}",
               i ? "," : "", c->gflops, c->gemms, c->busy, c->threads, c->threads_ran, c->cpus,
               c->spot_err);
    }
    printf("]}%s\n", end);
}

int main(int argc, char **argv) {
    config cfg = {NULL, 4, 1024, 5, 4, 0, 0, 3.0};
    client_args ca = {.side = -1, .ctl_fd = -1, .rep_fd = -1};
    const char *role = NULL;
    const bench_opt opts[] = {{"--clients", BENCH_OPT_INT, &cfg.clients},
                              {"--n", BENCH_OPT_INT, &cfg.n},
                              {"--window", BENCH_OPT_DOUBLE, &cfg.window_s},
                              {"--reps", BENCH_OPT_INT, &cfg.reps},
                              {"--sync-every", BENCH_OPT_INT, &cfg.sync_every},
                              {"--daemon-pid", BENCH_OPT_INT, &cfg.daemon_pid},
                              {"--openblas-threads", BENCH_OPT_INT, &cfg.ob_threads},
                              /* the client roles (spawn_client) */
                              {"--role", BENCH_OPT_STR, &role},
                              {"--index", BENCH_OPT_INT, &ca.index},
                              {"--ctl-fd", BENCH_OPT_INT, &ca.ctl_fd},
                              {"--rep-fd", BENCH_OPT_INT, &ca.rep_fd},
                              {NULL, BENCH_OPT_FLAG, NULL}};
    if (bench_parse_args(opts, argc, argv, &cfg.addr) != 0)
        usage();
    if (role)
        ca.side = !strcmp(role, "trnsci") ? SIDE_TRN : !strcmp(role, "openblas") ? SIDE_OB : -2;
    if (!cfg.addr)
        cfg.addr = getenv("TRNSCI_ADDR");
    if (cfg.clients < 1 || cfg.clients > MAX_CLIENTS || cfg.n < 1 || cfg.window_s <= 0 ||
        cfg.reps < 1 || cfg.reps > MAX_REPS || cfg.sync_every < 1 || cfg.ob_threads < 0 ||
        ca.side == -2)
        usage();
    if (ca.side >= 0) {
        if (ca.ctl_fd < 0 || ca.rep_fd < 0)
            usage();
        ca.n = cfg.n;
        ca.sync_every = cfg.sync_every;
        ca.ob_threads = cfg.ob_threads;
        ca.addr = cfg.addr;
        return client_main(&ca);
    }

    /* Coordinator: no libtrnsci or OpenBLAS call in this process. */
    signal(SIGPIPE, SIG_IGN);
    char start_cpus[256];
    bench_self_cpus(start_cpus, sizeof(start_cpus));
    static phase_result res[MAX_REPS][2];
    for (int r = 0; r < cfg.reps; r++) {
        const int first = r % 2 == 0 ? SIDE_TRN : SIDE_OB;
        for (int k = 0; k < 2; k++) {
            const int side = k == 0 ? first : 1 - first;
            fprintf(stderr, "bench_multi_client: rep %d/%d, %s phase: %d clients, n=%d, %.1f s\n",
                    r + 1, cfg.reps, side_name[side], cfg.clients, cfg.n, cfg.window_s);
            run_phase(&cfg, side, &res[r][side]);
            res[r][side].rep = r;
            res[r][side].order = k;
            fprintf(stderr, "bench_multi_client:   aggregate %.1f GFLOP/s, Jain %.4f\n",
                    res[r][side].aggregate_gflops, res[r][side].jain);
        }
    }

    double agg[2][MAX_REPS], jn[2][MAX_REPS], ratio[MAX_REPS];
    int spot_ok = 1;
    for (int r = 0; r < cfg.reps; r++) {
        for (int s = 0; s < 2; s++) {
            agg[s][r] = res[r][s].aggregate_gflops;
            jn[s][r] = res[r][s].jain;
            for (int i = 0; i < cfg.clients; i++)
                spot_ok &= res[r][s].c[i].spot_err <= 1e-5;
        }
        ratio[r] = agg[SIDE_OB][r] > 0 ? agg[SIDE_TRN][r] / agg[SIDE_OB][r] : 0.0;
    }
    bench_stats agg_st[2], jn_st[2];
    for (int s = 0; s < 2; s++) {
        agg_st[s] = bench_stats_copy(agg[s], cfg.reps);
        jn_st[s] = bench_stats_copy(jn[s], cfg.reps);
    }
    const bench_stats ratio_st = bench_stats_copy(ratio, cfg.reps);
    const double med_ratio = ratio_st.median;
    const double med_jain_trn = jn_st[SIDE_TRN].median;

    /* ---- JSON ---- */
    printf("{\n  \"benchmark\": \"multi_client\",\n");
    printf("  \"routine\": \"sgemm NN, alpha=1, beta=0, column-major, square\",\n");
    printf("  \"address\": \"%s\",\n", cfg.addr ? cfg.addr : "(default)");
    printf("  \"config\": {\"clients\": %d, \"n\": %d, \"window_s\": %.3f, \"reps\": %d, "
           "\"sync_every\": %d, \"order\": \"alternating, trnsci first in even reps\"},\n",
           cfg.clients, cfg.n, cfg.window_s, cfg.reps, cfg.sync_every);
    printf("  \"daemon\": {\"version\": \"%s\", \"backend\": \"%s\", \"cores\": %u},\n",
           daemon_version, daemon_backend, daemon_cores);
    printf("  \"openblas\": {\"threads_per_process\": %d, \"core\": \"%s\", \"threading\": "
           "\"%s\"},\n",
           ob_threads, ob_core,
           cfg.ob_threads ? "set with openblas_set_num_threads (--openblas-threads)"
                          : "OpenBLAS default (thread count not set)");
    bench_json_host(",\n");
    printf("  \"placement\": {\n");
    printf("    \"coordinator_and_clients_cpus_allowed\": \"%s\",\n", start_cpus);
    printf("    \"clients\": \"unpinned; per client: busy = CPU time of all its threads / "
           "wall time from the start to the end of its window's last unit, ran_on_cpus = "
           "CPUs its threads that ran were last seen on\"%s\n",
           cfg.daemon_pid ? "," : "");
    if (cfg.daemon_pid) {
        printf("    \"daemon_pid\": %d,\n", cfg.daemon_pid);
        bench_json_threads("daemon_threads_during_trnsci_phases", &daemon_trn_acc,
                           (int)daemon_cores + 1, daemon_trn_wall_ms, ",");
        printf("    \"daemon_busy_during_openblas_phases\": %.4f\n",
               daemon_ob_wall_ms > 0
                   ? (double)bench_acc_sort(&daemon_ob_acc) * 1e-6 / daemon_ob_wall_ms
                   : 0.0);
    }
    printf("  },\n");
    printf("  \"reps\": [\n");
    for (int r = 0; r < cfg.reps; r++) {
        printf("    {\"rep\": %d, \"ratio\": %.4f,\n", r, ratio[r]);
        print_phase(&cfg, &res[r][SIDE_TRN], ",");
        print_phase(&cfg, &res[r][SIDE_OB], "");
        printf("    }%s\n", r + 1 < cfg.reps ? "," : "");
    }
    printf("  ],\n");
    printf("  \"summary\": {\n");
    for (int s = 0; s < 2; s++)
        printf("    \"%s\": {\"aggregate_gflops\": {\"median\": %.2f, \"min\": %.2f, \"max\": "
               "%.2f}, \"jain\": {\"median\": %.4f, \"min\": %.4f, \"max\": %.4f}},\n",
               side_name[s], agg_st[s].median, agg_st[s].min, agg_st[s].max, jn_st[s].median,
               jn_st[s].min, jn_st[s].max);
    printf("    \"ratio\": {\"median\": %.4f, \"min\": %.4f, \"max\": %.4f, "
           "\"of_medians\": %.4f},\n",
           med_ratio, ratio_st.min, ratio_st.max,
           agg_st[SIDE_OB].median > 0 ? agg_st[SIDE_TRN].median / agg_st[SIDE_OB].median : 0.0);
    printf("    \"targets\": {\"ratio_min\": 0.95, \"ratio_met\": %s, \"jain_trnsci_min\": 0.95, "
           "\"jain_trnsci_met\": %s},\n",
           med_ratio >= 0.95 ? "true" : "false", med_jain_trn >= 0.95 ? "true" : "false");
    printf("    \"spot_checks_ok\": %s\n", spot_ok ? "true" : "false");
    printf("  }\n}\n");
    return spot_ok ? 0 : 3;
}
