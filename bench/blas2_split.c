/*
 * blas2_split.c — what splitting a Level 2 op over two cores would gain:
 * the measurement behind keeping trnblas Level 2 on one core
 * (scheduler/sched.c, docs/benchmarks.md).
 *
 * For square DGEMV (y = A x, no transpose) and DGER (A = x y^T + A), n =
 * 256 .. 8192, with OpenBLAS at one thread:
 *   one  = the whole op on one worker;
 *   two  = the op cut in two halves (gemv: the rows of y and A; ger: the
 *          columns of A) run at the same time by two workers pinned to two
 *          CPUs, timed from hand-off to the end of the later half; the
 *          workers are started once and wait on a condition variable, as
 *          the scheduler's do;
 *   speedup = one / two. Medians over --reps interleaved repetitions.
 * Level 2 reads every element of A once, so it runs at the memory
 * bandwidth the cores share. Output: one JSON object on stdout.
 *
 * usage: bench_blas2_split [--reps N] [--cpus A,B]
 */
#define _GNU_SOURCE
#include <cblas.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

typedef struct half {
    int ger; /* 0: gemv rows [lo, hi); 1: ger columns [lo, hi) */
    int n, lo, hi;
    double *A, *x, *y;
} half;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER, done = PTHREAD_COND_INITIALIZER;
static const half *job;
static int generation, finished;

static void run_half(const half *h) {
    const int w = h->hi - h->lo, n = h->n;
    if (h->ger)
        cblas_dger(CblasColMajor, n, w, 1.0, h->x, 1, h->y + h->lo, 1,
                   h->A + (size_t)h->lo * (size_t)n, n);
    else
        cblas_dgemv(CblasColMajor, CblasNoTrans, w, n, 1.0, h->A + h->lo, n, h->x, 1, 0.0,
                    h->y + h->lo, 1);
}

/* The second worker: runs the job's other half each time it is handed one. */
static void *helper(void *arg) {
    if (bench_pin_self((int)(long)arg) != 0)
        exit(1);
    openblas_set_num_threads(1);
    int seen = 0;
    pthread_mutex_lock(&mu);
    for (;;) {
        while (generation == seen)
            pthread_cond_wait(&go, &mu);
        seen = generation;
        const half *h = job;
        pthread_mutex_unlock(&mu);
        run_half(h);
        pthread_mutex_lock(&mu);
        finished = 1;
        pthread_cond_signal(&done);
    }
    return NULL;
}

int main(int argc, char **argv) {
    int reps = 15;
    const char *cpus = NULL;
    const bench_opt opts[] = {{"--reps", BENCH_OPT_INT, &reps},
                              {"--cpus", BENCH_OPT_STR, &cpus},
                              {NULL, BENCH_OPT_FLAG, NULL}};
    if (bench_parse_args(opts, argc, argv, NULL) != 0 || reps < 1 || reps > 1000) {
        fputs("usage: bench_blas2_split [--reps N] [--cpus A,B]\n", stderr);
        return 2;
    }
    int cpu[2] = {-1, -1};
    if (cpus && sscanf(cpus, "%d,%d", &cpu[0], &cpu[1]) != 2)
        return 2;
    if (!cpus) {
        cpu_set_t s;
        CPU_ZERO(&s);
        sched_getaffinity(0, sizeof(s), &s);
        for (int c = 0, k = 0; c < CPU_SETSIZE && k < 2; c++)
            if (CPU_ISSET(c, &s))
                cpu[k++] = c;
        if (cpu[1] < 0) {
            fputs("bench_blas2_split: needs two CPUs\n", stderr);
            return 2;
        }
    }
    openblas_set_num_threads(1);
    pthread_t th;
    pthread_create(&th, NULL, helper, (void *)(long)cpu[1]);
    if (bench_pin_self(cpu[0]) != 0)
        return 1;

    static const int sizes[] = {256, 512, 1024, 2048, 4096, 8192};
    const int nsizes = (int)(sizeof(sizes) / sizeof(sizes[0]));
    printf("{\n  \"benchmark\": \"blas2_split\",\n  \"cpus\": [%d, %d], \"reps\": %d,\n", cpu[0],
           cpu[1], reps);
    bench_json_host(",\n");
    printf("  \"results\": [\n");
    for (int op = 0; op < 2; op++)
        for (int si = 0; si < nsizes; si++) {
            const int n = sizes[si];
            const size_t nn = (size_t)n * (size_t)n;
            double *A = malloc(nn * sizeof(double)), *x = malloc((size_t)n * sizeof(double)),
                   *y = malloc((size_t)n * sizeof(double));
            if (!A || !x || !y)
                return 1;
            for (size_t i = 0; i < nn; i++)
                A[i] = 1.0 / (double)(i % 7 + 1);
            for (int i = 0; i < n; i++)
                x[i] = y[i] = 1.0 / (i + 1);
            const half whole = {op, n, 0, n, A, x, y}, h0 = {op, n, 0, n / 2, A, x, y},
                       h1 = {op, n, n / 2, n, A, x, y};
            double t1[1000], t2[1000];
            for (int r = -2; r < reps; r++) { /* two warm-up rounds */
                double t0 = bench_now_ms();
                run_half(&whole);
                const double one = bench_now_ms() - t0;
                t0 = bench_now_ms();
                pthread_mutex_lock(&mu);
                job = &h1;
                finished = 0;
                generation++;
                pthread_cond_signal(&go);
                pthread_mutex_unlock(&mu);
                run_half(&h0);
                pthread_mutex_lock(&mu);
                while (!finished)
                    pthread_cond_wait(&done, &mu);
                pthread_mutex_unlock(&mu);
                const double two = bench_now_ms() - t0;
                if (r >= 0) {
                    t1[r] = one;
                    t2[r] = two;
                }
            }
            const double m1 = bench_median(t1, reps), m2 = bench_median(t2, reps);
            printf("    {\"op\": \"%s\", \"n\": %d, \"matrix_mib\": %.1f, \"one_ms\": %.4f, "
                   "\"two_ms\": %.4f, \"speedup\": %.3f}%s\n",
                   op ? "dger" : "dgemv", n, (double)(nn * sizeof(double)) / (1 << 20), m1, m2,
                   m1 / m2, op == 1 && si + 1 == nsizes ? "" : ",");
            free(A);
            free(x);
            free(y);
        }
    printf("  ]\n}\n");
    return 0;
}
