/*
 * tensor_convert.c — an FP64 tensor converted to FP32 on the device
 * (trntensorPermute with typeA R_64F, typeB R_32F, the identity
 * permutation: same modes, same order) through trnscid, against a plain
 * in-process conversion loop on as many threads as the daemon has cores,
 * in the same run.
 *
 * trnsci side: A (packed, 3 modes, --mib MiB of doubles) and B (floats)
 * live in the daemon, A uploaded once; the plan is made once; each timed
 * repetition is trntensorPermute + trnsciStreamSynchronize(NULL), the whole
 * time a client observes. In-process side: --threads pthreads, each pinned
 * to one CPU of --inproc-cpus, each converting a contiguous share of the
 * same elements (b[i] = (float)a[i], which GCC vectorises as the daemon's
 * loop) in memory this process allocated and touched first; the threads
 * persist, and one repetition is releasing them at a barrier and waiting
 * for all at another. After a warm-up of each side, the repetitions alternate (the order
 * swapping every round). GB/s counts the bytes read and written (12 per
 * element). ratio = trnsci GB/s / in-process GB/s (1.0: the daemon adds
 * nothing). The two results must agree bit for bit (exit status 3 if not).
 *
 * With --daemon-pid, /proc samples around every trnsci repetition (outside
 * the timed region) give the daemon threads that did the work (CPU time /
 * wall time, allowed and last CPUs); the in-process threads are sampled the
 * same way.
 *
 * usage: bench_tensor_convert ADDRESS [--mib M] [--reps N] [--threads T]
 *                             [--inproc-cpus LIST] [--daemon-pid PID]
 * bench/run_tensor_convert.sh sets up the placement (docs/benchmarks.md).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <trnsci/trnsci.h>
#include <trnsci/trntensor.h>

#include "bench_util.h"

#define MAX_REPS 200
#define MAX_THREADS 64

static void die(const char *what) {
    fprintf(stderr, "bench_tensor_convert: %s failed: %s\n", what, trnsciGetLastErrorMessage());
    exit(1);
}

/* The in-process side: persistent threads (as the daemon's workers are),
 * each pinned and converting its contiguous share between two barriers. */
typedef struct share {
    const double *a;
    float *b;
    size_t lo, hi;
    int cpu; /* -1: not pinned */
} share;

static pthread_barrier_t go, done;
static int quit;

static void *convert(void *arg) {
    const share *s = arg;
    if (s->cpu >= 0)
        bench_pin_self(s->cpu);
    for (;;) {
        pthread_barrier_wait(&go);
        if (quit)
            return NULL;
        for (size_t i = s->lo; i < s->hi; i++)
            s->b[i] = (float)s->a[i];
        pthread_barrier_wait(&done);
    }
}

static void inproc_run(void) {
    pthread_barrier_wait(&go);
    pthread_barrier_wait(&done);
}

/* "1,0": CPU numbers into cpus[], at most max; returns how many. */
static int parse_cpus(const char *list, int *cpus, int max) {
    int n = 0;
    for (const char *p = list; p && *p && n < max;) {
        char *end;
        const long c = strtol(p, &end, 10);
        if (end == p)
            break;
        cpus[n++] = (int)c;
        p = *end == ',' ? end + 1 : end;
    }
    return n;
}

static int sample(int pid, bench_thread_sample *out) {
    return bench_sample_threads(pid, out, BENCH_MAX_THREADS, 1);
}

static void print_side(const char *name, bench_stats st, double bytes, const char *end) {
    printf("  \"%s\": {\"median_ms\": %.3f, \"min_ms\": %.3f, \"max_ms\": %.3f, "
           "\"gbps\": %.3f, \"gbps_of_min\": %.3f}%s\n",
           name, st.median, st.min, st.max, bytes / (st.median * 1e6), bytes / (st.min * 1e6), end);
}

int main(int argc, char **argv) {
    const char *addr = NULL, *cpu_list = NULL;
    int mib = 256, reps = 15, threads = 1, daemon_pid = 0;
    const bench_opt opts[] = {
        {"--mib", BENCH_OPT_INT, &mib},
        {"--reps", BENCH_OPT_INT, &reps},
        {"--threads", BENCH_OPT_INT, &threads},
        {"--inproc-cpus", BENCH_OPT_STR, &cpu_list},
        {"--daemon-pid", BENCH_OPT_INT, &daemon_pid},
        {NULL, 0, NULL},
    };
    if (bench_parse_args(opts, argc, argv, &addr) != 0 || mib < 1 || reps < 1 || reps > MAX_REPS ||
        threads < 1 || threads > MAX_THREADS) {
        fprintf(stderr, "usage: bench_tensor_convert ADDRESS [--mib M] [--reps N] [--threads T] "
                        "[--inproc-cpus LIST] [--daemon-pid PID]\n");
        return 2;
    }
    int cpus[MAX_THREADS];
    const int ncpus = parse_cpus(cpu_list, cpus, MAX_THREADS);
    char start_cpus[128];
    bench_self_cpus(start_cpus, sizeof(start_cpus));

    /* A: 3 modes, packed, the last one carrying the size. */
    const int64_t e0 = 512, e1 = 256;
    const int64_t e2 = ((int64_t)mib << 20) / 8 / (e0 * e1);
    const size_t n = (size_t)(e0 * e1 * e2);
    const int64_t extent[3] = {e0, e1, e2};
    const int32_t modes[3] = {'a', 'b', 'c'};
    double *a = malloc(n * sizeof(double));
    float *b_in = malloc(n * sizeof(float)), *b_trn = malloc(n * sizeof(float));
    if (!a || !b_in || !b_trn) {
        fprintf(stderr, "bench_tensor_convert: out of memory\n");
        return 1;
    }
    /* Values with bits below FP32's precision: every element rounds. */
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        a[i] = (double)(x >> 11) * 0x1p-52 - 1.0;
    }
    memset(b_in, 0, n * sizeof(float));

    if (trnsciInit(addr) != trnsciSuccess)
        die("trnsciInit");
    trnsciDaemonStatus st;
    if (trnsciDaemonGetStatus(addr, &st) != trnsciSuccess)
        die("trnsciDaemonGetStatus");
    trntensorHandle_t h;
    if (trntensorCreate(&h) != TRNTENSOR_STATUS_SUCCESS)
        die("trntensorCreate");
    void *dA, *dB;
    if (trnsciMalloc(&dA, n * sizeof(double)) || trnsciMalloc(&dB, n * sizeof(float)))
        die("trnsciMalloc");
    if (trnsciMemcpy(dA, a, n * sizeof(double), trnsciMemcpyHostToDevice))
        die("trnsciMemcpy (upload)");
    trntensorTensorDescriptor_t da, db;
    trntensorOperationDescriptor_t op;
    trntensorPlan_t plan;
    if (trntensorCreateTensorDescriptor(h, &da, 3, extent, NULL, TRNSCI_R_64F, 0) ||
        trntensorCreateTensorDescriptor(h, &db, 3, extent, NULL, TRNSCI_R_32F, 0) ||
        trntensorCreatePermutation(h, &op, da, modes, TRNTENSOR_OP_IDENTITY, db, modes,
                                   TRNTENSOR_COMPUTE_DESC_64F) ||
        trntensorCreatePlan(h, &plan, op, NULL, 0))
        die("making the permutation plan");
    const double one = 1.0;

    share sh[MAX_THREADS];
    for (int k = 0; k < threads; k++) {
        sh[k].a = a;
        sh[k].b = b_in;
        sh[k].lo = n * (size_t)k / (size_t)threads;
        sh[k].hi = n * (size_t)(k + 1) / (size_t)threads;
        sh[k].cpu = ncpus ? cpus[k % ncpus] : -1;
    }

    pthread_t tids[MAX_THREADS];
    pthread_barrier_init(&go, NULL, (unsigned)threads + 1);
    pthread_barrier_init(&done, NULL, (unsigned)threads + 1);
    for (int k = 0; k < threads; k++)
        if (pthread_create(&tids[k], NULL, convert, &sh[k]) != 0) {
            perror("pthread_create");
            return 1;
        }

    double t_trn[MAX_REPS], t_in[MAX_REPS];
    static bench_thread_sample s0[BENCH_MAX_THREADS], s1[BENCH_MAX_THREADS];
    static bench_acc_set daemon_acc, self_acc;
    const int self = (int)getpid();
    for (int r = -1; r < reps; r++) { /* r = -1: warm-up of both sides */
        for (int side = 0; side < 2; side++) {
            const int trn = (side + (r < 0 ? 0 : r)) % 2 == 0;
            const int pid = trn ? daemon_pid : self;
            const int ns = pid ? sample(pid, s0) : 0;
            const double t0 = bench_now_ms();
            if (trn) {
                if (trntensorPermute(h, plan, &one, dA, dB, NULL) || trnsciStreamSynchronize(NULL))
                    die("trntensorPermute");
            } else {
                inproc_run();
            }
            const double t = bench_now_ms() - t0;
            if (r < 0)
                continue;
            (trn ? t_trn : t_in)[r] = t;
            if (pid) {
                bench_acc_set *acc = trn ? &daemon_acc : &self_acc;
                bench_acc_add(acc, s0, ns, s1, sample(pid, s1));
                acc->wall_ms += t;
            }
        }
    }
    quit = 1;
    pthread_barrier_wait(&go);
    for (int k = 0; k < threads; k++)
        pthread_join(tids[k], NULL);
    if (trnsciMemcpy(b_trn, dB, n * sizeof(float), trnsciMemcpyDeviceToHost))
        die("trnsciMemcpy (download)");
    const int agree = memcmp(b_trn, b_in, n * sizeof(float)) == 0;

    const double bytes = 12.0 * (double)n;
    const bench_stats trn = bench_stats_of(t_trn, reps), in = bench_stats_of(t_in, reps);
    printf("{\n  \"benchmark\": \"tensor_convert\",\n");
    printf("  \"operation\": \"trntensorPermute R_64F -> R_32F, identity permutation "
           "(modes abc -> abc, packed), alpha 1, COMPUTE_DESC_64F\",\n");
    printf("  \"address\": \"%s\",\n", addr ? addr : "(default)");
    printf("  \"daemon\": {\"version\": \"%s\", \"backend\": \"%s\", \"cores\": %u},\n",
           st.daemonVersion, st.backend, st.coreCount);
    printf("  \"extents\": [%lld, %lld, %lld], \"elements\": %zu, \"a_mib\": %.1f, "
           "\"b_mib\": %.1f,\n",
           (long long)e0, (long long)e1, (long long)e2, n, (double)n * 8 / 1048576.0,
           (double)n * 4 / 1048576.0);
    printf("  \"reps\": %d, \"order\": \"alternating\", \"bytes_per_rep\": %.0f,\n", reps, bytes);
    printf("  \"inprocess\": {\"threads\": %d, \"cpus\": \"%s\"},\n", threads,
           cpu_list ? cpu_list : "unpinned");
    printf("  \"placement\": {\n    \"bench_process_cpus\": \"%s\",\n", start_cpus);
    if (daemon_pid) {
        bench_json_threads("daemon_threads_during_trnsci", &daemon_acc, threads + 1,
                           daemon_acc.wall_ms, ",");
        bench_json_threads("bench_threads_during_inprocess", &self_acc, threads + 1,
                           self_acc.wall_ms, "");
    } else {
        printf("    \"daemon_threads_during_trnsci\": \"unknown (pass --daemon-pid)\"\n");
    }
    printf("  },\n");
    bench_json_host(",\n");
    print_side("trnsci", trn, bytes, ",");
    print_side("inprocess_loop", in, bytes, ",");
    printf("  \"ratio\": %.3f,\n", in.median / trn.median);
    printf("  \"ratio_of_mins\": %.3f,\n", in.min / trn.min);
    printf("  \"agree\": %s\n}\n", agree ? "true" : "false");

    trntensorDestroyPlan(plan);
    trntensorDestroyOperationDescriptor(op);
    trntensorDestroyTensorDescriptor(da);
    trntensorDestroyTensorDescriptor(db);
    trnsciFree(dA);
    trnsciFree(dB);
    trntensorDestroy(h);
    free(a);
    free(b_in);
    free(b_trn);
    return agree ? 0 : 3;
}
