/*
 * sched.c — streams, the ready queue and the core workers.
 *
 * One mutex guards every queue. Each stream is a FIFO with at most one
 * "active" op: the op whose shards are on the ready queue or running. When the
 * active op's last shard completes, the stream advances: markers at its head
 * complete immediately, and the next kernel op becomes active and is pushed on
 * the ready queue. Workers take shards from the ready queue.
 *
 * Completion callbacks are collected on a local list while the lock is held
 * and called after it is dropped (run_completions), so a callback may submit,
 * cancel or release without deadlocking.
 *
 * Stream lifetime: one reference for its creator plus one per queued op; the
 * stream is freed when the count reaches zero.
 */
#define _GNU_SOURCE
#include "scheduler/sched.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct trn_sched_stream {
    trn_sched_op *head, *tail; /* queued, not active */
    trn_sched_op *active;
    int completing; /* the active op's callback is running: do not advance */
    unsigned refs;
};

typedef struct worker {
    trn_sched *sched;
    pthread_t thread;
    int core; /* backend core index */
    int cpu;  /* -1: not pinned */
    int started;
} worker;

struct trn_sched {
    const trn_backend *be;
    pthread_mutex_t lock;
    pthread_cond_t work;
    trn_sched_op *ready_head, *ready_tail;
    int stopping;
    int ncores;
    worker *workers;
    trn_sched_stats stats;
};

typedef struct completion_list {
    trn_sched_op *head, *tail;
} completion_list;

static void completion_push(completion_list *l, trn_sched_op *op) {
    op->next = NULL;
    if (l->tail)
        l->tail->next = op;
    else
        l->head = op;
    l->tail = op;
}

static trn_sched_status status_of(trn_kstatus k) {
    switch (k) {
    case TRN_KSTATUS_OK: return TRN_SCHED_OK;
    case TRN_KSTATUS_UNSUPPORTED: return TRN_SCHED_UNSUPPORTED;
    case TRN_KSTATUS_FAILED: break;
    }
    return TRN_SCHED_KERNEL_FAILED;
}

static void finish_later(completion_list *l, trn_sched_op *op, trn_sched_status st) {
    op->final_status = st;
    completion_push(l, op);
}

static void run_completions(trn_sched *s, completion_list *l) {
    trn_sched_op *op = l->head;
    while (op) {
        trn_sched_op *next = op->next;
        const trn_sched_status st = op->final_status;
        trn_sched_stream *stream = op->stream;
        op->done(op, st); /* may free op */
        pthread_mutex_lock(&s->lock);
        const unsigned refs = --stream->refs;
        pthread_mutex_unlock(&s->lock);
        if (refs == 0)
            free(stream);
        op = next;
    }
    l->head = l->tail = NULL;
}

/* The sharding policy.
 *
 * An op is split when each shard still carries enough work that running it on
 * another core pays for the split: nshards = min(ncores, what the op's size
 * allows), where
 *   GEMM:        cost / TRN_SHARD_GEMM_MIN_FLOP and n / TRN_SHARD_GEMM_MIN_COLS
 *                (shards are blocks of C's columns, kernels/cpu/blas_gemm.c);
 *                cost is trn_op_cost, or m*n when A and B are not read;
 *   memset/copy: trn_op_cost / TRN_SHARD_MEM_MIN_BYTES (byte ranges,
 *                kernels/cpu/memops.c); a copy whose source and destination
 *                overlap is one shard (memmove's guarantee holds only within
 *                one call, and the CPU kernel would give all of it to shard 0);
 *   other ops:   1.
 * Nothing else enters: not queue lengths, not idle workers, not timing. The
 * same request on the same core count is therefore always cut the same way,
 * and so computes bitwise the same result.
 *
 * The minimums come from bench/bench_shard_split (docs/benchmarks.md has the
 * table: medians of three runs on the 2-vCPU development VM, OpenBLAS 0.3.21
 * Haswell kernels). Per op it measures the speedup of two shards on two idle
 * workers, and the split cost: the extra time of both shards run one after
 * the other on one core, which is what a split costs when every core is busy
 * with other work anyway.
 *  - GEMM, by cost. Split, square S/D/Z GEMMs of 4-113 MFLOP ran 1.25-1.7x
 *    faster on idle cores (1.7-1.8x from 57 MFLOP) and cost 0-5 % more CPU
 *    time at every size. Below about 30 MFLOP the time saved is under
 *    0.1-0.25 ms per op, while the split still costs those few percent, and
 *    a hand-off to another worker, whenever other clients keep the cores
 *    busy. So a shard must carry TRN_SHARD_GEMM_MIN_FLOP = 16 MFLOP (0.3 ms
 *    of SGEMM, 0.6 ms of DGEMM on one core here): two cores split a GEMM from
 *    32 MFLOP. This also keeps every shard far above the sizes for which
 *    OpenBLAS has separate small-matrix kernels (about 1e6 m*n*k on AVX-512
 *    builds), so a shard never takes another code path than the whole op.
 *  - GEMM, by width. Each shard packs all of op(A) again, which weighs more
 *    the narrower the shard and the larger m*k: with m = k = 1024 the split
 *    cost was 9-12 % at 48 columns per shard, 5-7 % at 96, 5 % at 128 and
 *    3-5 % from 160 on. TRN_SHARD_GEMM_MIN_COLS = 128 keeps it near 5 %.
 *  - memset/copy. Split in two, a 2 MiB memset ran 1.1x faster, a 4 MiB one
 *    1.65x; a 1 MiB copy 1.16x, a 2 MiB one 1.8x. Counted in bytes touched
 *    (trn_op_cost: a copy touches each byte twice) both become worth
 *    splitting at 4 MiB, so TRN_SHARD_MEM_MIN_BYTES = 2 MiB per shard. */
int trn_sched_shard_count(const trn_op_desc *d, int ncores) {
    double by_size = 1.0;
    switch (d->kind) {
    case TRN_OP_GEMM: {
        const trn_gemm_desc *g = &d->u.gemm;
        /* Without A and B (alpha = 0 or k = 0) the kernel only scales C. */
        const double cost = (g->a && g->b) ? trn_op_cost(d) : (double)g->m * (double)g->n;
        const double by_cost = cost / TRN_SHARD_GEMM_MIN_FLOP;
        const double by_cols = (double)g->n / TRN_SHARD_GEMM_MIN_COLS;
        by_size = by_cost < by_cols ? by_cost : by_cols;
        break;
    }
    case TRN_OP_MEMSET: by_size = trn_op_cost(d) / (double)TRN_SHARD_MEM_MIN_BYTES; break;
    case TRN_OP_COPY: {
        const trn_copy_desc *c = &d->u.copy;
        const uintptr_t dst = (uintptr_t)c->dst, src = (uintptr_t)c->src;
        const int overlap = dst < src + c->bytes && src < dst + c->bytes;
        if (!overlap)
            by_size = trn_op_cost(d) / (double)TRN_SHARD_MEM_MIN_BYTES;
        break;
    }
    }
    if (by_size < 2.0 || ncores < 2)
        return 1;
    return by_size >= (double)ncores ? ncores : (int)by_size;
}

static void ready_push(trn_sched *s, trn_sched_op *op) {
    op->ready_next = NULL;
    if (s->ready_tail)
        s->ready_tail->ready_next = op;
    else
        s->ready_head = op;
    s->ready_tail = op;
    pthread_cond_broadcast(&s->work);
}

static void stream_drain_queued(trn_sched *s, trn_sched_stream *st, trn_sched_status why,
                                completion_list *done);

/* With the lock held and no active op: activate the next kernel op of the
 * stream, completing any markers in front of it. Once stopping, kernel ops
 * are not started: they and everything behind them complete with SHUTDOWN. */
static void stream_advance(trn_sched *s, trn_sched_stream *st, completion_list *done) {
    while (!st->active && !st->completing && st->head) {
        trn_sched_op *op = st->head;
        if (s->stopping && !op->is_marker) {
            stream_drain_queued(s, st, TRN_SCHED_SHUTDOWN, done);
            return;
        }
        st->head = op->next;
        if (!st->head)
            st->tail = NULL;
        if (op->is_marker) {
            finish_later(done, op, TRN_SCHED_OK);
            continue;
        }
        st->active = op;
        s->stats.ops_queued--;
        s->stats.ops_running++;
        ready_push(s, op);
    }
}

/* The last shard of a stream's active op has finished (the caller moved it
 * from `active` to `completing`): run the op's callback first, and only then
 * let the stream advance, so that every callback of an
 * op completes before anything queued behind it (a marker included) does. */
static void complete_active(trn_sched *s, trn_sched_op *op) {
    trn_sched_stream *st = op->stream;
    pthread_mutex_lock(&s->lock);
    s->stats.ops_running--;
    s->stats.ops_completed++;
    pthread_mutex_unlock(&s->lock);
    op->done(op, status_of(op->kstatus)); /* may free op */

    completion_list done = {0};
    pthread_mutex_lock(&s->lock);
    st->completing = 0;
    stream_advance(s, st, &done);
    const int free_it = --st->refs == 0; /* the op's reference */
    pthread_mutex_unlock(&s->lock);
    if (free_it)
        free(st);
    run_completions(s, &done);
}

static void pin_to_cpu(int cpu) {
    if (cpu < 0)
        return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *worker_main(void *arg) {
    worker *w = arg;
    trn_sched *s = w->sched;
    pin_to_cpu(w->cpu);
    if (s->be->core_init)
        s->be->core_init(s->be, w->core);

    pthread_mutex_lock(&s->lock);
    for (;;) {
        trn_sched_op *op = s->ready_head;
        if (!op) {
            if (s->stopping)
                break;
            pthread_cond_wait(&s->work, &s->lock);
            continue;
        }
        const int shard = op->next_shard++;
        if (op->next_shard == op->nshards) {
            s->ready_head = op->ready_next;
            if (!s->ready_head)
                s->ready_tail = NULL;
        }
        pthread_mutex_unlock(&s->lock);

        const trn_kstatus k = s->be->run(s->be, &op->desc, NULL, shard, op->nshards);

        pthread_mutex_lock(&s->lock);
        if (k != TRN_KSTATUS_OK && op->kstatus == TRN_KSTATUS_OK)
            op->kstatus = k;
        if (--op->shards_left == 0) {
            op->stream->active = NULL;
            op->stream->completing = 1;
            pthread_mutex_unlock(&s->lock);
            complete_active(s, op);
            pthread_mutex_lock(&s->lock);
        }
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

trn_sched *trn_sched_create(const trn_backend *be, const int *cpus, int ncores, char *err,
                            size_t errlen) {
    if (ncores < 1) {
        snprintf(err, errlen, "scheduler needs at least one core (got %d)", ncores);
        return NULL;
    }
    trn_sched *s = calloc(1, sizeof(*s));
    if (!s)
        goto nomem;
    s->workers = calloc((size_t)ncores, sizeof(*s->workers));
    if (!s->workers)
        goto nomem;
    s->be = be;
    s->ncores = ncores;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->work, NULL);
    for (int i = 0; i < ncores; i++) {
        worker *w = &s->workers[i];
        w->sched = s;
        w->core = i;
        w->cpu = cpus ? cpus[i] : -1;
        const int rc = pthread_create(&w->thread, NULL, worker_main, w);
        if (rc != 0) {
            snprintf(err, errlen, "cannot start worker %d: %s", i, strerror(rc));
            trn_sched_shutdown(s);
            trn_sched_destroy(s);
            return NULL;
        }
        w->started = 1;
    }
    s->stats.workers = (unsigned)ncores;
    return s;

nomem:
    snprintf(err, errlen, "out of memory creating the scheduler");
    if (s)
        free(s->workers);
    free(s);
    return NULL;
}

/* With the lock held: move every not-yet-active op of st to done. */
static void stream_drain_queued(trn_sched *s, trn_sched_stream *st, trn_sched_status why,
                                completion_list *done) {
    trn_sched_op *op = st->head;
    st->head = st->tail = NULL;
    while (op) {
        trn_sched_op *next = op->next;
        if (!op->is_marker)
            s->stats.ops_queued--;
        finish_later(done, op, why);
        op = next;
    }
}

/* With the lock held while stopping: take every op none of whose shards has
 * started off the ready queue and complete it (and its stream's queue) with
 * SHUTDOWN. */
static void cancel_unstarted(trn_sched *s, completion_list *done) {
    trn_sched_op **link = &s->ready_head;
    s->ready_tail = NULL;
    while (*link) {
        trn_sched_op *op = *link;
        if (op->next_shard > 0) {
            s->ready_tail = op;
            link = &op->ready_next;
            continue;
        }
        *link = op->ready_next;
        trn_sched_stream *st = op->stream;
        st->active = NULL;
        s->stats.ops_running--;
        finish_later(done, op, TRN_SCHED_SHUTDOWN);
        /* Markers behind it did not see it complete: SHUTDOWN as well. */
        stream_drain_queued(s, st, TRN_SCHED_SHUTDOWN, done);
    }
}

void trn_sched_shutdown(trn_sched *s) {
    completion_list done = {0};
    pthread_mutex_lock(&s->lock);
    s->stopping = 1;
    cancel_unstarted(s, &done);
    pthread_cond_broadcast(&s->work);
    pthread_mutex_unlock(&s->lock);
    run_completions(s, &done);

    for (int i = 0; i < s->ncores; i++) {
        if (s->workers[i].started) {
            pthread_join(s->workers[i].thread, NULL);
            s->workers[i].started = 0;
        }
    }
}

void trn_sched_destroy(trn_sched *s) {
    if (!s)
        return;
    pthread_cond_destroy(&s->work);
    pthread_mutex_destroy(&s->lock);
    free(s->workers);
    free(s);
}

trn_sched_stream *trn_sched_stream_create(trn_sched *s) {
    (void)s;
    trn_sched_stream *st = calloc(1, sizeof(*st));
    if (st)
        st->refs = 1;
    return st;
}

void trn_sched_stream_retain(trn_sched *s, trn_sched_stream *st) {
    pthread_mutex_lock(&s->lock);
    st->refs++;
    pthread_mutex_unlock(&s->lock);
}

void trn_sched_stream_release(trn_sched *s, trn_sched_stream *st) {
    pthread_mutex_lock(&s->lock);
    const unsigned refs = --st->refs;
    pthread_mutex_unlock(&s->lock);
    if (refs == 0)
        free(st);
}

/* With the lock held: unlinks op from the ready queue; returns 0, or -1 when
 * it is not there. */
static int ready_remove(trn_sched *s, trn_sched_op *op) {
    trn_sched_op *prev = NULL;
    for (trn_sched_op *x = s->ready_head; x; prev = x, x = x->ready_next) {
        if (x != op)
            continue;
        if (prev)
            prev->ready_next = x->ready_next;
        else
            s->ready_head = x->ready_next;
        if (s->ready_tail == x)
            s->ready_tail = prev;
        return 0;
    }
    return -1;
}

void trn_sched_stream_cancel(trn_sched *s, trn_sched_stream *st) {
    completion_list done = {0};
    pthread_mutex_lock(&s->lock);
    trn_sched_op *active = st->active;
    if (active && active->next_shard == 0 && ready_remove(s, active) == 0) {
        st->active = NULL;
        s->stats.ops_running--;
        finish_later(&done, active, TRN_SCHED_CANCELLED);
    }
    stream_drain_queued(s, st, TRN_SCHED_CANCELLED, &done);
    pthread_mutex_unlock(&s->lock);
    run_completions(s, &done);
}

int trn_sched_submit(trn_sched *s, trn_sched_stream *st, trn_sched_op *op) {
    completion_list done = {0};
    op->next = NULL;
    op->ready_next = NULL;
    op->stream = st;
    op->kstatus = TRN_KSTATUS_OK;
    op->next_shard = 0;
    op->nshards = op->is_marker ? 0 : trn_sched_shard_count(&op->desc, s->ncores);
    op->shards_left = op->nshards;

    pthread_mutex_lock(&s->lock);
    if (s->stopping) {
        pthread_mutex_unlock(&s->lock);
        return -1;
    }
    st->refs++;
    if (!op->is_marker)
        s->stats.ops_queued++;
    if (st->tail)
        st->tail->next = op;
    else
        st->head = op;
    st->tail = op;
    stream_advance(s, st, &done);
    pthread_mutex_unlock(&s->lock);
    run_completions(s, &done);
    return 0;
}

void trn_sched_get_stats(trn_sched *s, trn_sched_stats *out) {
    pthread_mutex_lock(&s->lock);
    *out = s->stats;
    pthread_mutex_unlock(&s->lock);
}
