/*
 * gemm.c — SGEMM (or DGEMM) through trnscid versus in-process OpenBLAS, in
 * one run.
 *
 * For each size n (square, column-major, C = A B, alpha = 1, beta = 0):
 *   trnsci:   A, B, C live in the daemon (uploaded once, data resident); each
 *             timed repetition is trnblasSgemm + trnsciStreamSynchronize(NULL),
 *             i.e. the whole time a client observes (two RPCs + the kernel).
 *   OpenBLAS: cblas_sgemm on the same inputs in this process, one thread,
 *             with this thread pinned to the CPU the daemon's worker runs on,
 *             so both GEMMs use the same core.
 * After warm-up, repetitions alternate (one trnsci, one OpenBLAS) so that the
 * slow periods of a noisy machine hit both sides alike (--blocked: all trnsci
 * repetitions, then all OpenBLAS ones). Reports median/min/max in ms, GFLOP/s
 * (2 n^3 / median), ratio = openblas_median / trnsci_median (1.0 = no
 * overhead) and the largest difference between the two results. Output: one
 * JSON object on stdout. Exit status 3 if the results disagree.
 *
 * --precision d runs DGEMM instead (trnblasDgemm against cblas_dgemm, double
 * buffers holding the same values as the single-precision inputs); nothing
 * else changes, so the two JSONs compare size for size. The JSON says which:
 * "precision" ("s" or "d") and "routine".
 *
 * Kernel sets. trnscid may run other OpenBLAS kernels than this process:
 * with --blas-coretype auto (its default) it restarts itself with
 * OPENBLAS_CORETYPE set when OpenBLAS does not know the CPU and would fall
 * back to its generic Prescott kernels, while this process keeps whatever its
 * own OpenBLAS picked. A ratio far from 1 may then be the kernels, not the
 * daemon, so both are reported: "openblas" is this process's (config, core,
 * threads) and "daemon_openblas" the daemon's core and why it runs it, from
 * trnsciDaemonSelfTest (null from a daemon without that call).
 *
 * All-core mode (--openblas-threads N, N > 1): the daemon runs on N cores and
 * shards each GEMM over them; the OpenBLAS side runs with N threads
 * (openblas_set_num_threads(N), OpenBLAS's own threading) and is not pinned.
 * The bench then samples /proc around every repetition and reports which
 * threads computed on each side, where, and how busy they were; the JSON has
 * "mode": "all-cores" and a placement section listing those threads. Without
 * the flag the output is exactly the one-core comparison's.
 *
 * usage: bench_gemm [ADDRESS] [--sizes 256,1024,2048] [--reps N] [--warmup N]
 *                   [--openblas-cpu CPU] [--daemon-pid PID] [--blocked]
 *                   [--openblas-threads N] [--precision s|d]
 *   ADDRESS        daemon address (default $TRNSCI_ADDR, then the default socket)
 *   --reps N       timed repetitions per size (default 15, 7 for n >= 2048)
 *   --openblas-cpu the CPU the OpenBLAS side pins itself to (default: the CPU
 *                  the daemon's compute thread last ran on, with --daemon-pid;
 *                  else no pinning; ignored in all-core mode)
 *   --daemon-pid   lets the bench read /proc/PID/task to find the daemon's
 *                  compute thread (the one that gains CPU time during the
 *                  GEMMs) and report its allowed and last CPU
 *   --openblas-threads N   all-core mode with N threads (default 1)
 *   --precision s|d        SGEMM (default) or DGEMM on both sides
 * bench/run_gemm.sh sets all of this up (see docs/benchmarks.md).
 */
#define _GNU_SOURCE
#include <cblas.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trnsci/trnblas.h>
#include <trnsci/trnsci.h>
#include <unistd.h>

#include "bench_util.h"

#define MAX_SIZES 16
#define MAX_REPS 1000

/* ---- small utilities -------------------------------------------------------- */

static void die(const char *what) {
    fprintf(stderr, "bench_gemm: %s failed: %s\n", what, trnsciGetLastErrorMessage());
    exit(1);
}

static int pin_self(int cpu) {
    if (bench_pin_self(cpu) != 0) {
        fprintf(stderr, "bench_gemm: cannot pin to CPU %d: %s\n", cpu, strerror(errno));
        return -1;
    }
    return 0;
}

/* ---- the precision: the only place SGEMM and DGEMM differ ------------------------ */

/* Buffers are void * of n x n elements of elem bytes; these few calls are all
 * that depends on the element type, so the measurement itself is one path. */
typedef struct precision {
    char letter;         /* 's' or 'd': the JSON's "precision" */
    const char *routine; /* the JSON's "routine" (the SGEMM one as before) */
    size_t elem;         /* bytes per element */
} precision;

static const precision prec_s = {'s', "sgemm NN, alpha=1, beta=0, column-major, square",
                                 sizeof(float)};
static const precision prec_d = {'d', "dgemm NN, alpha=1, beta=0, column-major, square",
                                 sizeof(double)};

/* n elements from bench_fill(seed); in double precision the same values
 * widened, so SGEMM and DGEMM runs multiply the same matrices. */
static void fill(const precision *p, void *x, size_t n, uint64_t seed) {
    if (p->letter == 's') {
        bench_fill(x, n, seed);
        return;
    }
    float *tmp = malloc(n * sizeof(float));
    if (!tmp) {
        fprintf(stderr, "bench_gemm: out of host memory\n");
        exit(1);
    }
    bench_fill(tmp, n, seed);
    double *d = x;
    for (size_t i = 0; i < n; i++)
        d[i] = tmp[i];
    free(tmp);
}

/* One timed unit of the trnsci side: queue the GEMM and wait for it. */
static void trn_gemm_once(const precision *p, trnblasHandle_t h, int n, const void *dA,
                          const void *dB, void *dC) {
    trnblasStatus_t s;
    if (p->letter == 's') {
        const float alpha = 1.0f, beta = 0.0f;
        s = trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &alpha, dA, n, dB, n, &beta, dC,
                         n);
    } else {
        const double alpha = 1.0, beta = 0.0;
        s = trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &alpha, dA, n, dB, n, &beta, dC,
                         n);
    }
    if (s != TRNBLAS_STATUS_SUCCESS)
        die(p->letter == 's' ? "trnblasSgemm" : "trnblasDgemm");
    if (trnsciStreamSynchronize(NULL) != trnsciSuccess)
        die("trnsciStreamSynchronize");
}

/* One unit of the OpenBLAS side. */
static void ob_gemm_once(const precision *p, int n, const void *A, const void *B, void *C) {
    if (p->letter == 's')
        cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, A, n, B, n, 0.0f, C,
                    n);
    else
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, A, n, B, n, 0.0, C, n);
}

/* max |got - ref| / max |ref| over n elements, as bench_max_rel_diff. */
static double max_rel_diff(const precision *p, const void *got, const void *ref, size_t n) {
    if (p->letter == 's')
        return bench_max_rel_diff(got, ref, n);
    const double *g = got, *r = ref;
    double maxdiff = 0.0, maxabs = 0.0;
    for (size_t i = 0; i < n; i++) {
        maxdiff = bench_worse(maxdiff, fabs(g[i] - r[i]));
        if (fabs(r[i]) > maxabs)
            maxabs = fabs(r[i]);
    }
    return maxabs > 0 ? maxdiff / maxabs : maxdiff;
}

/* s as a JSON string: the daemon's "why" is free text. */
static void json_str(const char *s) {
    putchar('"');
    for (; *s; s++) {
        const unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

/* ---- the daemon's threads, from /proc (only with --daemon-pid) ------------------ */

/* Samples every thread of pid (CPU time, last and allowed CPUs). */
static int sample_threads(int pid, bench_thread_sample *out) {
    return bench_sample_threads(pid, out, BENCH_MAX_THREADS, 1);
}

/* The daemon thread that gained the most CPU time between two samples. */
static int find_worker(const bench_thread_sample *before, int nb, const bench_thread_sample *after,
                       int na, bench_thread_sample *worker, unsigned long long *ns,
                       unsigned long long *other_ns) {
    int found = 0;
    unsigned long long best = 0, total = 0;
    for (int i = 0; i < na; i++) {
        unsigned long long prev = 0;
        for (int j = 0; j < nb; j++)
            if (before[j].tid == after[i].tid)
                prev = before[j].cpu_ns;
        const unsigned long long d = after[i].cpu_ns - prev;
        total += d;
        if (!found || d > best) {
            best = d;
            *worker = after[i];
            found = 1;
        }
    }
    if (ns)
        *ns = best;
    if (other_ns)
        *other_ns = total - best;
    return found;
}

/* ---- main ------------------------------------------------------------------------ */

typedef struct result {
    int n, reps;
    bench_stats trn, ob;
    double max_rel_diff;
    double worker_busy; /* daemon compute-thread CPU time / trnsci wall time */
    double others_busy; /* every other daemon thread's CPU time / trnsci wall time */
    /* All-core mode: the N busiest daemon threads during trnsci repetitions and
     * the bench's threads during OpenBLAS ones (CPU time / that side's wall
     * time, up to N), and the bench's threads during trnsci repetitions. */
    double daemon_workers_busy, openblas_threads_busy, bench_busy_during_trnsci;
    int bench_cpu_trn, bench_cpu_ob;
} result;

static void usage(void) {
    fputs("usage: bench_gemm [ADDRESS] [--sizes 256,1024,2048] [--reps N] [--warmup N]\n"
          "                  [--openblas-cpu CPU] [--daemon-pid PID] [--blocked]\n"
          "                  [--openblas-threads N] [--precision s|d]\n",
          stderr);
    exit(2);
}

int main(int argc, char **argv) {
    const char *addr = NULL;
    int sizes[MAX_SIZES] = {256, 1024, 2048}, nsizes = 3;
    int reps_override = 0, warmup = 2, ob_cpu = -1, daemon_pid = 0, blocked = 0, ob_threads = 1;
    const char *size_list = NULL, *prec_name = "s";
    const bench_opt opts[] = {{"--sizes", BENCH_OPT_STR, &size_list},
                              {"--reps", BENCH_OPT_INT, &reps_override},
                              {"--warmup", BENCH_OPT_INT, &warmup},
                              {"--openblas-cpu", BENCH_OPT_INT, &ob_cpu},
                              {"--daemon-pid", BENCH_OPT_INT, &daemon_pid},
                              {"--blocked", BENCH_OPT_FLAG, &blocked},
                              {"--openblas-threads", BENCH_OPT_INT, &ob_threads},
                              {"--precision", BENCH_OPT_STR, &prec_name},
                              {NULL, BENCH_OPT_FLAG, NULL}};
    if (bench_parse_args(opts, argc, argv, &addr) != 0)
        usage();
    const int interleave = !blocked;
    if (strcmp(prec_name, "s") != 0 && strcmp(prec_name, "d") != 0)
        usage();
    const precision *prec = prec_name[0] == 's' ? &prec_s : &prec_d;
    if (size_list) {
        char list[1024];
        snprintf(list, sizeof(list), "%s", size_list);
        nsizes = 0;
        for (char *tok = strtok(list, ","); tok && nsizes < MAX_SIZES; tok = strtok(NULL, ","))
            sizes[nsizes++] = atoi(tok);
    }
    if (!addr)
        addr = getenv("TRNSCI_ADDR");
    for (int i = 0; i < nsizes; i++)
        if (sizes[i] < 1)
            usage();
    if (reps_override < 0 || reps_override > MAX_REPS || warmup < 0 || ob_threads < 1)
        usage();
    const int all_cores = ob_threads > 1;
    if (all_cores)
        ob_cpu = -1; /* both sides use every core: nothing to pin */

    openblas_set_num_threads(ob_threads);
    cpu_set_t start_set;
    CPU_ZERO(&start_set);
    sched_getaffinity(0, sizeof(start_set), &start_set);
    char start_cpus[256];
    bench_cpuset_str(&start_set, start_cpus, sizeof(start_cpus));

    if (trnsciInit(addr) != trnsciSuccess)
        die("trnsciInit");
    trnsciDaemonStatus st;
    if (trnsciDaemonGetStatus(addr, &st) != trnsciSuccess)
        die("trnsciDaemonGetStatus");
    /* The daemon's OpenBLAS kernel set, which may differ from this
     * process's (see the top of the file). A daemon older than the self-test
     * cannot say: the JSON then has null. */
    trnsciSelfTestSummary selftest;
    const int have_selftest =
        trnsciDaemonSelfTest(addr, 0, NULL, 0, NULL, &selftest) == trnsciSuccess;
    if (!have_selftest)
        fprintf(stderr, "bench_gemm: trnsciDaemonSelfTest failed (%s): daemon_openblas is null\n",
                trnsciGetLastErrorMessage());
    trnblasHandle_t h;
    if (trnblasCreate(&h) != TRNBLAS_STATUS_SUCCESS)
        die("trnblasCreate");

    /* The per-call floor: Synchronize with nothing queued is one RPC round
     * trip, and each timed trnsci repetition makes two (Submit, Synchronize). */
    double t_rpc[200];
    for (int r = 0; r < 200; r++) {
        const double t0 = bench_now_ms();
        if (trnsciStreamSynchronize(NULL) != trnsciSuccess)
            die("trnsciStreamSynchronize (idle)");
        t_rpc[r] = bench_now_ms() - t0;
    }
    const bench_stats rpc = bench_stats_of(t_rpc + 20, 180); /* first 20: warm-up */

    result res[MAX_SIZES];
    bench_thread_sample before[BENCH_MAX_THREADS], after[BENCH_MAX_THREADS];
    bench_thread_sample worker = {0};
    int worker_found = 0;
    static bench_thread_sample run_before[BENCH_MAX_THREADS];
    /* All-core mode, per size (the last size's are printed as the placement). */
    static bench_acc_set daemon_acc, ob_acc, self_trn_acc;
    double wall_trn_last = 0, wall_ob_last = 0;
    const int nrun = daemon_pid ? sample_threads(daemon_pid, run_before) : 0;

    for (int si = 0; si < nsizes; si++) {
        const int n = sizes[si];
        const int reps = reps_override ? reps_override : (n >= 2048 ? 7 : 15);
        const size_t elems = (size_t)n * (size_t)n, bytes = elems * prec->elem;
        void *A = malloc(bytes), *B = malloc(bytes), *C_ob = malloc(bytes), *C_trn = malloc(bytes);
        if (!A || !B || !C_ob || !C_trn) {
            fprintf(stderr, "bench_gemm: out of host memory for n=%d\n", n);
            return 1;
        }
        fill(prec, A, elems, 1000u + (unsigned)n);
        fill(prec, B, elems, 2000u + (unsigned)n);
        memset(C_ob, 0, bytes);

        /* trnsci: upload once (data stays resident in the daemon). */
        void *dA, *dB, *dC;
        if (trnsciMalloc(&dA, bytes) || trnsciMalloc(&dB, bytes) || trnsciMalloc(&dC, bytes))
            die("trnsciMalloc");
        if (trnsciMemcpy(dA, A, bytes, trnsciMemcpyHostToDevice) ||
            trnsciMemcpy(dB, B, bytes, trnsciMemcpyHostToDevice))
            die("trnsciMemcpy (upload)");

        /* Warm-up both; the trnsci warm-up also shows which daemon thread
         * computes (the one that gains the most CPU time). */
        int nb = daemon_pid ? sample_threads(daemon_pid, before) : 0;
        for (int w = 0; w < warmup; w++)
            trn_gemm_once(prec, h, n, dA, dB, dC);
        if (daemon_pid) {
            const int na = sample_threads(daemon_pid, after);
            worker_found = find_worker(before, nb, after, na, &worker, NULL, NULL) || worker_found;
        }
        const int pin = all_cores     ? -1
                        : ob_cpu >= 0 ? ob_cpu
                                      : (worker_found ? worker.last_cpu : -1);
        if (pin >= 0 && pin_self(pin) != 0)
            return 1;
        for (int w = 0; w < warmup; w++)
            ob_gemm_once(prec, n, A, B, C_ob);
        if (pin >= 0)
            sched_setaffinity(0, sizeof(start_set), &start_set);

        /* Timed repetitions. Interleaved (default): one trnsci rep, then one
         * OpenBLAS rep, so slow periods of a noisy machine hit both alike.
         * Blocked: all trnsci reps, then all OpenBLAS reps. */
        double t_trn[MAX_REPS], t_ob[MAX_REPS];
        /* All-core mode: /proc samples around every repetition (outside the
         * timed region) show which threads did the work on each side. */
        static bench_thread_sample s0[BENCH_MAX_THREADS], s1[BENCH_MAX_THREADS],
            d0[BENCH_MAX_THREADS], d1[BENCH_MAX_THREADS];
        int ns0 = 0, nd0 = 0;
        const int self = (int)getpid();
        if (all_cores) {
            memset(&daemon_acc, 0, sizeof(daemon_acc));
            memset(&ob_acc, 0, sizeof(ob_acc));
            memset(&self_trn_acc, 0, sizeof(self_trn_acc));
        }
        nb = daemon_pid ? sample_threads(daemon_pid, before) : 0;
        for (int phase = 0; phase < (interleave ? 1 : 2); phase++) {
            for (int r = 0; r < reps; r++) {
                if (interleave || phase == 0) {
                    if (all_cores) {
                        ns0 = sample_threads(self, s0);
                        nd0 = daemon_pid ? sample_threads(daemon_pid, d0) : 0;
                    }
                    const double t0 = bench_now_ms();
                    trn_gemm_once(prec, h, n, dA, dB, dC);
                    t_trn[r] = bench_now_ms() - t0;
                    res[si].bench_cpu_trn = sched_getcpu();
                    if (all_cores) {
                        const int nd1 = daemon_pid ? sample_threads(daemon_pid, d1) : 0;
                        bench_acc_add(&daemon_acc, d0, nd0, d1, nd1);
                        bench_acc_add(&self_trn_acc, s0, ns0, s1, sample_threads(self, s1));
                    }
                }
                if (interleave || phase == 1) {
                    if (pin >= 0 && pin_self(pin) != 0)
                        return 1;
                    if (all_cores)
                        ns0 = sample_threads(self, s0);
                    const double t0 = bench_now_ms();
                    ob_gemm_once(prec, n, A, B, C_ob);
                    t_ob[r] = bench_now_ms() - t0;
                    res[si].bench_cpu_ob = sched_getcpu();
                    if (all_cores)
                        bench_acc_add(&ob_acc, s0, ns0, s1, sample_threads(self, s1));
                    if (pin >= 0)
                        sched_setaffinity(0, sizeof(start_set), &start_set);
                }
            }
        }
        if (all_cores) {
            double wall_trn = 0, wall_ob = 0;
            for (int r = 0; r < reps; r++) {
                wall_trn += t_trn[r];
                wall_ob += t_ob[r];
            }
            bench_acc_sort(&daemon_acc);
            unsigned long long top = 0;
            for (int i = 0; i < ob_threads && i < daemon_acc.n; i++)
                top += daemon_acc.t[i].ns;
            res[si].daemon_workers_busy = (double)top * 1e-6 / wall_trn;
            res[si].openblas_threads_busy = (double)bench_acc_sort(&ob_acc) * 1e-6 / wall_ob;
            res[si].bench_busy_during_trnsci =
                (double)bench_acc_sort(&self_trn_acc) * 1e-6 / wall_trn;
            wall_trn_last = wall_trn;
            wall_ob_last = wall_ob;
        }
        res[si].worker_busy = res[si].others_busy = -1.0;
        if (daemon_pid) {
            const int na = sample_threads(daemon_pid, after);
            unsigned long long ns = 0, other = 0;
            bench_thread_sample w;
            if (find_worker(before, nb, after, na, &w, &ns, &other)) {
                worker_found = 1;
                double sum = 0.0;
                for (int r = 0; r < reps; r++)
                    sum += t_trn[r];
                res[si].worker_busy = (double)ns * 1e-6 / sum;
                res[si].others_busy = (double)other * 1e-6 / sum;
            }
        }
        if (ob_cpu < 0)
            ob_cpu = pin;

        if (trnsciMemcpy(C_trn, dC, bytes, trnsciMemcpyDeviceToHost))
            die("trnsciMemcpy (download)");
        if (trnsciFree(dA) || trnsciFree(dB) || trnsciFree(dC))
            die("trnsciFree");

        res[si].n = n;
        res[si].reps = reps;
        res[si].trn = bench_stats_of(t_trn, reps);
        res[si].ob = bench_stats_of(t_ob, reps);
        /* Agreement: max |C_trn - C_ob| / max |C_ob| (same inputs; 0 when both
         * sides run the same kernel set, rounding-level when they do not). */
        res[si].max_rel_diff = max_rel_diff(prec, C_trn, C_ob, elems);
        free(A);
        free(B);
        free(C_ob);
        free(C_trn);
    }
    trnblasDestroy(h);
    if (daemon_pid) {
        /* Over the whole run the compute thread is unmistakable. */
        const int na = sample_threads(daemon_pid, after);
        worker_found = find_worker(run_before, nrun, after, na, &worker, NULL, NULL);
    }

    /* ---- JSON ---- */
    printf("{\n  \"benchmark\": \"gemm\",\n  \"routine\": \"%s\",\n", prec->routine);
    printf("  \"precision\": \"%c\",\n", prec->letter);
    if (all_cores)
        printf("  \"mode\": \"all-cores\",\n");
    printf("  \"address\": \"%s\",\n", addr ? addr : "(default)");
    printf("  \"daemon\": {\"version\": \"%s\", \"backend\": \"%s\", \"cores\": %u},\n",
           st.daemonVersion, st.backend, st.coreCount);
    printf("  \"idle_synchronize_us\": {\"median\": %.1f, \"min\": %.1f, \"max\": %.1f},\n",
           rpc.median * 1e3, rpc.min * 1e3, rpc.max * 1e3);
    printf("  \"openblas\": {\"config\": \"%s\", \"core\": \"%s\", \"threads\": %d},\n",
           openblas_get_config(), openblas_get_corename(), openblas_get_num_threads());
    if (have_selftest) {
        printf("  \"daemon_openblas\": {\"core\": ");
        json_str(selftest.blasCore);
        printf(", \"why\": ");
        json_str(selftest.blasWhy);
        printf("},\n");
    } else {
        printf("  \"daemon_openblas\": null,\n");
    }
    printf("  \"placement\": {\n");
    printf("    \"bench_process_cpus\": \"%s\",\n", start_cpus);
    if (all_cores) {
        /* The threads that computed at the last size, busiest first; busy =
         * CPU time / that side's wall time over the timed repetitions. */
        printf("    \"order\": \"%s\",\n", interleave ? "interleaved" : "blocked");
        printf("    \"at_n\": %d,\n", sizes[nsizes - 1]);
        bench_json_threads("daemon_threads_during_trnsci", &daemon_acc, ob_threads + 1,
                           wall_trn_last, ",");
        bench_json_threads("bench_threads_during_openblas", &ob_acc, ob_threads + 1, wall_ob_last,
                           ",");
        bench_json_threads("bench_threads_during_trnsci", &self_trn_acc, ob_threads + 1,
                           wall_trn_last, "");
    } else {
        printf("    \"bench_cpu_during_trnsci\": %d,\n", res[0].bench_cpu_trn);
        printf("    \"openblas_phase_cpu\": %d,\n", ob_cpu);
        printf("    \"bench_cpu_during_openblas\": %d,\n", res[0].bench_cpu_ob);
        printf("    \"order\": \"%s\",\n", interleave ? "interleaved" : "blocked");
        if (worker_found)
            printf("    \"daemon_compute_thread\": {\"pid\": %d, \"tid\": %d, \"comm\": \"%s\", "
                   "\"cpus_allowed\": \"%s\", \"last_cpu\": %d},\n",
                   daemon_pid, worker.tid, worker.comm, worker.allowed, worker.last_cpu);
        else
            printf("    \"daemon_compute_thread\": \"unknown (pass --daemon-pid)\",\n");
        printf("    \"same_core\": %s\n",
               worker_found ? (worker.last_cpu == ob_cpu ? "true" : "false") : "null");
    }
    printf("  },\n");
    bench_json_host(",\n");
    printf("  \"results\": [\n");
    for (int i = 0; i < nsizes; i++) {
        const result *r = &res[i];
        const double gflop = 2.0 * (double)r->n * (double)r->n * (double)r->n * 1e-9;
        printf("    {\"n\": %d, \"reps\": %d,\n", r->n, r->reps);
        printf("     \"trnsci_ms\": {\"median\": %.4f, \"min\": %.4f, \"max\": %.4f},\n",
               r->trn.median, r->trn.min, r->trn.max);
        printf("     \"openblas_ms\": {\"median\": %.4f, \"min\": %.4f, \"max\": %.4f},\n",
               r->ob.median, r->ob.min, r->ob.max);
        printf("     \"trnsci_gflops\": %.2f, \"openblas_gflops\": %.2f,\n",
               gflop / (r->trn.median * 1e-3), gflop / (r->ob.median * 1e-3));
        if (r->worker_busy >= 0)
            printf("     \"daemon_worker_busy\": %.3f, \"daemon_other_threads_busy\": %.3f,\n",
                   r->worker_busy, r->others_busy);
        else
            printf("     \"daemon_worker_busy\": null, \"daemon_other_threads_busy\": null,\n");
        if (all_cores)
            printf("     \"daemon_workers_busy\": %.3f, \"openblas_threads_busy\": %.3f, "
                   "\"bench_busy_during_trnsci\": %.3f,\n",
                   r->daemon_workers_busy, r->openblas_threads_busy, r->bench_busy_during_trnsci);
        printf("     \"ratio\": %.4f, \"ratio_of_mins\": %.4f, \"max_rel_diff\": %.3g, "
               "\"agree\": %s}%s\n",
               r->ob.median / r->trn.median, r->ob.min / r->trn.min, r->max_rel_diff,
               r->max_rel_diff <= 1e-5 ? "true" : "false", i + 1 < nsizes ? "," : "");
    }
    printf("  ]\n}\n");
    int ok = 1;
    for (int i = 0; i < nsizes; i++)
        ok &= res[i].max_rel_diff <= 1e-5;
    return ok ? 0 : 3;
}
