/*
 * shard_split.c — what splitting one op into shards gains and costs: the
 * measurement behind the sharding minimums in scheduler/sched.c.
 *
 * For each op (GEMMs of several shapes and types, memsets, copies), with the
 * CPU backend's own kernels (kernels/cpu/) and interleaved repetitions:
 *   speedup    = t(1 shard) / t(2 shards), idle cores: two worker threads
 *                pinned to two CPUs take shards from a queue behind a mutex
 *                and a condition variable, as the scheduler's workers do, and
 *                the op is timed from hand-off to the last shard's end;
 *   split_cost = t(both shards, one after the other, on one thread) /
 *                t(1 shard) − 1: the extra CPU time a split costs when every
 *                core is busy anyway (a GEMM shard packs op(A) again; every
 *                shard is one more kernel call), measured on the second
 *                worker's CPU while the workers sleep.
 * Medians over --reps repetitions. Output: one JSON object on stdout.
 *
 * usage: bench_shard_split [--reps N] [--cpus A,B]
 *   --cpus  the two CPUs the workers are pinned to (default: the first two
 *           this process may use)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "kernels/backend.h"

static trn_backend *be;

/* ---- two workers and a one-op queue ------------------------------------------- */

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER, done = PTHREAD_COND_INITIALIZER;
static const trn_op_desc *cur;
static int cur_nshards, next_shard, shards_left;

static void pin(int cpu) {
    if (bench_pin_self(cpu) != 0) {
        fprintf(stderr, "bench_shard_split: cannot pin to CPU %d\n", cpu);
        exit(1);
    }
}

static void *worker(void *arg) {
    pin((int)(long)arg);
    be->core_init(be, 0);
    pthread_mutex_lock(&mu);
    for (;;) {
        while (!cur || next_shard == cur_nshards)
            pthread_cond_wait(&work, &mu);
        const trn_op_desc *op = cur;
        const int shard = next_shard++, n = cur_nshards;
        pthread_mutex_unlock(&mu);
        be->run(be, op, NULL, shard, n);
        pthread_mutex_lock(&mu);
        if (--shards_left == 0) {
            cur = NULL;
            pthread_cond_broadcast(&done);
        }
    }
    return NULL;
}

/* Hands op to the workers as nshards shards and waits for the last one. */
static double run_on_workers(const trn_op_desc *op, int nshards) {
    const double t0 = bench_now_ms();
    pthread_mutex_lock(&mu);
    cur = op;
    cur_nshards = nshards;
    next_shard = 0;
    shards_left = nshards;
    pthread_cond_broadcast(&work);
    while (cur)
        pthread_cond_wait(&done, &mu);
    pthread_mutex_unlock(&mu);
    return bench_now_ms() - t0;
}

/* Runs every shard of op on the calling thread. */
static double run_serial(const trn_op_desc *op, int nshards) {
    const double t0 = bench_now_ms();
    for (int s = 0; s < nshards; s++)
        be->run(be, op, NULL, s, nshards);
    return bench_now_ms() - t0;
}

/* ---- the ops -------------------------------------------------------------------- */

typedef struct op_case {
    const char *kind; /* "sgemm", "dgemm", "zgemm", "memset", "copy" */
    int m, n, k;      /* GEMM */
    size_t bytes;     /* memset/copy */
} op_case;

static const op_case cases[] = {
    /* square GEMMs: split cost and speedup by size */
    {"sgemm", 128, 128, 128, 0},
    {"sgemm", 160, 160, 160, 0},
    {"sgemm", 192, 192, 192, 0},
    {"sgemm", 256, 256, 256, 0},
    {"sgemm", 384, 384, 384, 0},
    {"dgemm", 128, 128, 128, 0},
    {"dgemm", 160, 160, 160, 0},
    {"dgemm", 192, 192, 192, 0},
    {"dgemm", 256, 256, 256, 0},
    {"dgemm", 384, 384, 384, 0},
    {"zgemm", 96, 96, 96, 0},
    {"zgemm", 128, 128, 128, 0},
    {"zgemm", 192, 192, 192, 0},
    /* m = k = 1024: split cost by shard width (n / 2 columns per shard) */
    {"sgemm", 1024, 96, 1024, 0},
    {"sgemm", 1024, 192, 1024, 0},
    {"sgemm", 1024, 256, 1024, 0},
    {"sgemm", 1024, 320, 1024, 0},
    {"sgemm", 1024, 384, 1024, 0},
    {"dgemm", 1024, 96, 1024, 0},
    {"dgemm", 1024, 192, 1024, 0},
    {"dgemm", 1024, 256, 1024, 0},
    {"dgemm", 1024, 320, 1024, 0},
    {"dgemm", 1024, 384, 1024, 0},
    /* memset and copy */
    {"memset", 0, 0, 0, 1 << 20},
    {"memset", 0, 0, 0, 1 << 21},
    {"memset", 0, 0, 0, 1 << 22},
    {"memset", 0, 0, 0, 1 << 24},
    {"copy", 0, 0, 0, 1 << 20},
    {"copy", 0, 0, 0, 1 << 21},
    {"copy", 0, 0, 0, 1 << 22},
    {"copy", 0, 0, 0, 1 << 24},
};

/* Builds the descriptor (and its buffers, returned in bufs[0..2]). */
static void make_op(const op_case *c, trn_op_desc *d, void *bufs[3]) {
    memset(d, 0, sizeof(*d));
    bufs[0] = bufs[1] = bufs[2] = NULL;
    if (!strcmp(c->kind, "memset") || !strcmp(c->kind, "copy")) {
        bufs[0] = malloc(c->bytes);
        bufs[1] = malloc(c->bytes);
        if (!bufs[0] || !bufs[1])
            exit(1);
        memset(bufs[0], 1, c->bytes);
        memset(bufs[1], 2, c->bytes);
        if (c->kind[0] == 'm') {
            d->kind = TRN_OP_MEMSET;
            d->u.memset.dst = bufs[0];
            d->u.memset.value = 3;
            d->u.memset.bytes = c->bytes;
        } else {
            d->kind = TRN_OP_COPY;
            d->u.copy.dst = bufs[0];
            d->u.copy.src = bufs[1];
            d->u.copy.bytes = c->bytes;
        }
        return;
    }
    const trn_dtype t = c->kind[0] == 's'   ? TRN_DTYPE_R32F
                        : c->kind[0] == 'd' ? TRN_DTYPE_R64F
                                            : TRN_DTYPE_C64F;
    const size_t es = trn_dtype_size(t);
    const size_t na = (size_t)c->m * (size_t)c->k, nb = (size_t)c->k * (size_t)c->n,
                 nc = (size_t)c->m * (size_t)c->n;
    bufs[0] = calloc(na, es);
    bufs[1] = calloc(nb, es);
    bufs[2] = calloc(nc, es);
    if (!bufs[0] || !bufs[1] || !bufs[2])
        exit(1);
    const size_t reals = es / (t == TRN_DTYPE_R32F ? 4 : 8);
    for (size_t i = 0; i < na * reals; i++) {
        if (t == TRN_DTYPE_R32F)
            ((float *)bufs[0])[i] = (float)(i % 7) - 3.0f;
        else
            ((double *)bufs[0])[i] = (double)(i % 7) - 3.0;
    }
    for (size_t i = 0; i < nb * reals; i++) {
        if (t == TRN_DTYPE_R32F)
            ((float *)bufs[1])[i] = (float)(i % 5) - 2.0f;
        else
            ((double *)bufs[1])[i] = (double)(i % 5) - 2.0;
    }
    d->kind = TRN_OP_GEMM;
    trn_gemm_desc *g = &d->u.gemm;
    g->type = t;
    g->m = c->m;
    g->n = c->n;
    g->k = c->k;
    g->alpha.re = 1.0;
    g->a = bufs[0];
    g->lda = c->m;
    g->b = bufs[1];
    g->ldb = c->k;
    g->c = bufs[2];
    g->ldc = c->m;
}

int main(int argc, char **argv) {
    int reps = 301, cpus[2] = {-1, -1};
    const char *cpu_list = NULL;
    const bench_opt opts[] = {{"--reps", BENCH_OPT_INT, &reps},
                              {"--cpus", BENCH_OPT_STR, &cpu_list},
                              {NULL, BENCH_OPT_FLAG, NULL}};
    if (bench_parse_args(opts, argc, argv, NULL) != 0)
        goto usage;
    if (cpu_list && sscanf(cpu_list, "%d,%d", &cpus[0], &cpus[1]) != 2)
        goto usage;
    if (reps < 1 || reps > 100000)
        goto usage;
    if (cpus[0] < 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        sched_getaffinity(0, sizeof(set), &set);
        for (int c = 0, k = 0; c < CPU_SETSIZE && k < 2; c++)
            if (CPU_ISSET(c, &set))
                cpus[k++] = c;
        if (cpus[1] < 0) {
            fprintf(stderr, "bench_shard_split: needs two CPUs\n");
            return 1;
        }
    }
    be = trn_backend_cpu_create();
    if (!be)
        return 1;
    pin(cpus[1]); /* this thread runs the serial measurements (the workers sleep then) */
    be->core_init(be, 0);
    pthread_t th;
    for (int w = 0; w < 2; w++)
        if (pthread_create(&th, NULL, worker, (void *)(long)cpus[w]) != 0)
            return 1;

    double *t1 = malloc(sizeof(double) * (size_t)reps), *t2 = malloc(sizeof(double) * (size_t)reps),
           *s1 = malloc(sizeof(double) * (size_t)reps), *s2 = malloc(sizeof(double) * (size_t)reps);
    if (!t1 || !t2 || !s1 || !s2)
        return 1;
    printf("{\n  \"benchmark\": \"shard_split\",\n  \"worker_cpus\": [%d, %d],\n  \"reps\": %d,\n"
           "  \"results\": [\n",
           cpus[0], cpus[1], reps);
    const int ncases = (int)(sizeof(cases) / sizeof(cases[0]));
    for (int ci = 0; ci < ncases; ci++) {
        const op_case *c = &cases[ci];
        trn_op_desc d;
        void *bufs[3];
        make_op(c, &d, bufs);
        const int r = c->bytes ? reps : (c->m >= 1024 ? (reps + 4) / 5 : reps);
        for (int w = 0; w < 3; w++) {
            run_on_workers(&d, 1);
            run_on_workers(&d, 2);
            run_serial(&d, 1);
            run_serial(&d, 2);
        }
        for (int i = 0; i < r; i++) {
            /* Alternate the order so drifts hit both sides alike. */
            if (i & 1) {
                t2[i] = run_on_workers(&d, 2);
                t1[i] = run_on_workers(&d, 1);
                s2[i] = run_serial(&d, 2);
                s1[i] = run_serial(&d, 1);
            } else {
                t1[i] = run_on_workers(&d, 1);
                t2[i] = run_on_workers(&d, 2);
                s1[i] = run_serial(&d, 1);
                s2[i] = run_serial(&d, 2);
            }
        }
        const double m1 = bench_median(t1, r), m2 = bench_median(t2, r), ms1 = bench_median(s1, r),
                     ms2 = bench_median(s2, r);
        printf("    {\"op\": \"%s\", \"m\": %d, \"n\": %d, \"k\": %d, \"bytes\": %zu, "
               "\"cost_mflop_or_mb\": %.2f, \"one_shard_ms\": %.4f, \"two_shards_ms\": %.4f, "
               "\"speedup\": %.3f, \"split_cost\": %.4f}%s\n",
               c->kind, c->m, c->n, c->k, c->bytes, trn_op_cost(&d) * 1e-6, m1, m2, m1 / m2,
               ms2 / ms1 - 1.0, ci + 1 < ncases ? "," : "");
        fflush(stdout);
        for (int i = 0; i < 3; i++)
            free(bufs[i]);
    }
    printf("  ]\n}\n");
    return 0;

usage:
    fputs("usage: bench_shard_split [--reps N] [--cpus A,B]\n", stderr);
    return 2;
}
