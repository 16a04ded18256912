/*
 * test_sched_fair.c — scheduler/sched.h: engines, tenants and fair queuing,
 * fences, deadlines, timers, timestamps and usage accounting.
 *
 * Rules checked (from sched.h):
 *  - fairness: one core worker, two backlogged tenants; the worker time each
 *    got (usage.run_ns) is in the ratio of their weights (1:1, 1:2, 1:0.25),
 *    whatever the size of their ops; trn_sched_tenant_set_weight changes the
 *    ratio from then on; a tenant that was idle rejoins at the engine's
 *    virtual time, so its idle time earns it no burst of worker time;
 *  - within a tenant ready ops are served in the order they became ready;
 *    per-stream order always holds, across tenants, streams and engines;
 *  - fences: a wait marker holds its stream until the fence's record marker
 *    completes; the fence then reports signalled, at a time no earlier than the
 *    end of the op before the record; a wait on a signalled fence passes at
 *    once; a cancelled record still signals; shutdown completes a parked
 *    stream's ops with TRN_SCHED_SHUTDOWN;
 *  - deadlines: an op not started by its deadline completes with
 *    TRN_SCHED_EXPIRED when the deadline passes (not when a worker or its
 *    stream frees up), everything behind it on its stream with
 *    TRN_SCHED_CANCELLED, and it counts in usage.expired; an op that started
 *    before its deadline (even just one of its shards) finishes with OK;
 *  - timers: stop before firing returns 1 and the timer never fires; stop of
 *    a fired or never-armed timer returns 0; timers fire in deadline order,
 *    never early;
 *  - engines: copy-engine ops run on the copy workers, concurrently with core
 *    ops, and are sharded over the copy workers; without copy workers they run
 *    on the cores; worker info reports each worker's engine;
 *  - stages: an op's stages run in order, each on its engine, overlapping
 *    other ops' stages on other engines; the op holds its stream throughout;
 *    a failed stage ends the op; a started op finishes every stage, through
 *    cancellation and shutdown;
 *  - run-ahead: the op behind a stream's active op starts its first stage
 *    while the active op runs, when the active op declared its writes and
 *    they miss what the stage reads (not when they overlap, nor when they
 *    are not declared); its later stages, its failure and its callback come
 *    in its turn; started ahead, it finishes through a cancel and shutdown;
 *    queued ahead but not started, a cancel takes it back with the rest;
 *    an op of one stage runs whole ahead only when what it writes misses
 *    what the active op declared it reads and writes; the stats count the
 *    ops run ahead;
 *  - a kernel failure is reported to that op only;
 *  - per-op timestamps are ordered (t_submit <= t_ready <= t_start <= t_end)
 *    and 0 for what never ran; per-worker and per-tenant usage agree with each
 *    other and with the ops' own timestamps.
 *
 * Nothing asserts wall times: orderings are forced with gates (condition
 * variables), and fairness is measured in the scheduler's own accounting
 * (usage.run_ns), which is what fair queuing equalises: a preemption that
 * stretches an op (the test machine is a noisy 2-vCPU VM) is charged to that
 * op's tenant and compensated by the scheduler, so it does not skew the
 * measured ratio. The only time bounds are lower bounds (a timer does not
 * fire before its time) and deadlines of ops that are held at a gate.
 *
 * The backend under test wraps the CPU backend (as in test_sched.c) and adds:
 *  - gates: an op whose key (memset/copy dst, GEMM c) is gate i blocks before
 *    running until the test opens gate i;
 *  - timed ops: a memset into the `timed` area does not touch memory but
 *    busy-waits for `bytes` microseconds (so op costs are controlled); its
 *    `value` picks the engine (1: copy, otherwise core);
 *  - engine_for: other memsets and copies go to `mem_engine`, GEMMs to the
 *    cores;
 *  - fault injection: the op whose key is `fail_key` returns
 *    TRN_KSTATUS_FAILED (only its shard `fail_shard`, or all when -1);
 *  - a log of each shard's start and end with its worker's core index (-1 on
 *    copy-engine workers, which get no core_init).
 *
 * Regression tests: test_deadline_callbacks_in_stream_order guards 773714a
 * (an expired op's callback came after those of the ops it cancelled);
 * test_marker_callback_before_next_op,
 * test_shutdown_completes_stream_parking_during_shutdown,
 * test_timers_due_together_fire_in_deadline_order and
 * test_timer_rearmed_while_due reproduce scheduler bugs this suite found
 * (their notes say what fails).
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "kernels/backend.h"
#include "scheduler/sched.h"

#define NGATES 4
#define WAIT_S 20
#define NTIMED 8192
#define LOGCAP 32768
#define MAXOPS 1024
#define MS 1000000ull /* nanoseconds */

/* A memset this big is split in 2 shards on an engine with 2 workers. */
static const size_t MEM_SPLIT = 2 * TRN_SHARD_MEM_MIN_BYTES;

/* ---- time ------------------------------------------------------------------------ */

static void deadline_in(struct timespec *ts, int seconds) {
    clock_gettime(CLOCK_REALTIME, ts);
    ts->tv_sec += seconds;
}

static void sleep_ns(uint64_t ns) {
    struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000ull),
                          .tv_nsec = (long)(ns % 1000000000ull)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* Sleeps until trn_sched_now_ns() >= t. */
static void sleep_until(uint64_t t) {
    for (uint64_t now = trn_sched_now_ns(); now < t; now = trn_sched_now_ns())
        sleep_ns(t - now);
}

/* Gives the scheduler time to do something it should not do. */
static void settle(void) {
    sleep_ns(50 * MS);
}

static void spin_us(size_t us) {
    const uint64_t end = trn_sched_now_ns() + (uint64_t)us * 1000u;
    while (trn_sched_now_ns() < end) {
    }
}

/* ---- the test backend --------------------------------------------------------------- */

typedef struct fb_event {
    const void *key;
    int end;
    int shard, nshards;
    int core; /* core index from core_init; -1 on copy-engine workers */
} fb_event;

typedef struct fb {
    trn_backend be; /* first: the scheduler sees this */
    trn_backend *cpu;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    float gate_buf[NGATES][4]; /* gate i is gate_buf[i] ... */
    const void *gate[NGATES];  /* ... unless a test points it elsewhere */
    int entered[NGATES];
    int open[NGATES];
    unsigned char timed[NTIMED]; /* keys of timed ops (never written) */
    int mem_engine;              /* engine of memsets/copies that are not timed */
    const void *fail_key;
    int fail_shard;
    fb_event *ev;
    int nev;
} fb;

static _Thread_local int tls_core = -1;

static const void *op_key(const trn_op_desc *op) {
    switch (op->kind) {
    case TRN_OP_MEMSET: return op->u.memset.dst;
    case TRN_OP_COPY: return op->u.copy.dst;
    case TRN_OP_GEMM: return op->u.gemm.c;
    case TRN_OP_FFT: return op->u.fft.out;
    case TRN_OP_RAND: return op->u.rand.dst;
    case TRN_OP_BLAS1: return op->u.blas1.y;
    case TRN_OP_BLAS2: return op->u.blas2.y;
    case TRN_OP_BLAS3: return op->u.blas3.c;
    case TRN_OP_SOLVER_DENSE: return op->u.solver_dense.a;
    case TRN_OP_SOLVER_BATCHED: return op->u.solver_batched.info;
    case TRN_OP_SOLVER_EIGEN: return op->u.solver_eigen.w;
    case TRN_OP_SOLVER_REFINE: return op->u.solver_refine.x;
    case TRN_OP_SOLVER_KRYLOV: return op->u.solver_krylov.x;
    case TRN_OP_SPMV:
    case TRN_OP_SPMM: return op->u.spmm.c.values;
    case TRN_OP_SPCONVERT: return op->u.spconvert.dst.values;
    case TRN_OP_SPGEMM: return op->u.spgemm.counts;
    case TRN_OP_SDDMM: return op->u.sddmm.c.values;
    case TRN_OP_SPATTN: return op->u.attn.o.values;
    case TRN_OP_SCHWARZ: return op->u.schwarz.bounds.values;
    case TRN_OP_TENSOR_CONTRACT: return op->u.tensor_contract.d;
    case TRN_OP_TENSOR_ELEMENTWISE:
    case TRN_OP_TENSOR_REDUCTION: return op->u.tensor_ew.d;
    case TRN_OP_AO_TO_MO: return op->u.ao_to_mo.b;
    case TRN_OP_MP2_ENERGY: return op->u.mp2_energy.energy;
    default: break; /* kinds these tests never build */
    }
    return NULL;
}

static int is_timed(const fb *g, const trn_op_desc *op) {
    if (op->kind != TRN_OP_MEMSET)
        return 0;
    const unsigned char *p = op->u.memset.dst;
    return p >= g->timed && p < g->timed + NTIMED;
}

static void fb_log(fb *g, const void *key, int end, int shard, int nshards) {
    pthread_mutex_lock(&g->lock);
    if (g->nev < LOGCAP)
        g->ev[g->nev++] = (fb_event){key, end, shard, nshards, tls_core};
    pthread_mutex_unlock(&g->lock);
}

static trn_engine fb_engine_for(const trn_backend *be, const trn_op_desc *op) {
    const fb *g = (const fb *)be;
    if (is_timed(g, op))
        return op->u.memset.value == 1 ? TRN_ENGINE_COPY : TRN_ENGINE_CORE;
    if (op->kind == TRN_OP_MEMSET || op->kind == TRN_OP_COPY)
        return (trn_engine)g->mem_engine;
    return TRN_ENGINE_CORE;
}

static trn_kstatus fb_run(const trn_backend *be, const trn_op_desc *op, void *plan, int shard,
                          int nshards) {
    fb *g = (fb *)be;
    const void *key = op_key(op);
    pthread_mutex_lock(&g->lock);
    for (int i = 0; i < NGATES; i++) {
        if (key != g->gate[i])
            continue;
        g->entered[i]++;
        pthread_cond_broadcast(&g->cond);
        while (!g->open[i])
            pthread_cond_wait(&g->cond, &g->lock);
    }
    const int fail = key == g->fail_key && (g->fail_shard < 0 || g->fail_shard == shard);
    pthread_mutex_unlock(&g->lock);
    fb_log(g, key, 0, shard, nshards);
    trn_kstatus k = TRN_KSTATUS_FAILED;
    if (!fail) {
        if (is_timed(g, op)) {
            spin_us(op->u.memset.bytes);
            k = TRN_KSTATUS_OK;
        } else {
            k = g->cpu->run(g->cpu, op, plan, shard, nshards);
        }
    }
    fb_log(g, key, 1, shard, nshards);
    return k;
}

static int fb_core_count(const trn_backend *be) {
    const fb *g = (const fb *)be;
    return g->cpu->core_count(g->cpu);
}

static int fb_core_init(const trn_backend *be, int core) {
    const fb *g = (const fb *)be;
    tls_core = core;
    return g->cpu->core_init(g->cpu, core);
}

static fb *fb_create(void) {
    fb *g = calloc(1, sizeof(*g));
    assert_non_null(g);
    g->ev = calloc(LOGCAP, sizeof(*g->ev));
    assert_non_null(g->ev);
    g->cpu = trn_backend_cpu_create();
    assert_non_null(g->cpu);
    g->be = *g->cpu;
    g->be.name = "cpu-fair-test";
    g->be.engine_for = fb_engine_for;
    g->be.core_count = fb_core_count;
    g->be.core_init = fb_core_init;
    g->be.run = fb_run;
    g->be.destroy = NULL;
    g->mem_engine = TRN_ENGINE_CORE;
    g->fail_shard = -1;
    for (int i = 0; i < NGATES; i++)
        g->gate[i] = g->gate_buf[i];
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->cond, NULL);
    return g;
}

static void fb_destroy(fb *g) {
    g->cpu->destroy(g->cpu);
    pthread_cond_destroy(&g->cond);
    pthread_mutex_destroy(&g->lock);
    free(g->ev);
    free(g);
}

static int gate_entered_within(fb *g, int i, int n) {
    struct timespec ts;
    deadline_in(&ts, WAIT_S);
    pthread_mutex_lock(&g->lock);
    while (g->entered[i] < n && pthread_cond_timedwait(&g->cond, &g->lock, &ts) != ETIMEDOUT) {
    }
    const int got = g->entered[i];
    pthread_mutex_unlock(&g->lock);
    return got;
}

static void gate_wait_entered_n(fb *g, int i, int n) {
    const int got = gate_entered_within(g, i, n);
    if (got < n)
        fail_msg("%d of %d shards reached gate %d within %d s", got, n, i, WAIT_S);
}

static void gate_wait_entered(fb *g, int i) {
    gate_wait_entered_n(g, i, 1);
}

static int gate_entered(fb *g, int i) {
    pthread_mutex_lock(&g->lock);
    const int n = g->entered[i];
    pthread_mutex_unlock(&g->lock);
    return n;
}

static void gate_open(fb *g, int i) {
    pthread_mutex_lock(&g->lock);
    g->open[i] = 1;
    pthread_cond_broadcast(&g->cond);
    pthread_mutex_unlock(&g->lock);
}

/* What the log says about the op keyed `key`. */
typedef struct seen {
    int starts, ends;
    int nshards;     /* as passed to run (the last seen) */
    unsigned shards; /* bit i: shard i started */
    int cores_min, cores_max;
    int first_start; /* position of its first start event, or -1 */
} seen;

static seen seen_of(fb *g, const void *key) {
    seen r = {0, 0, 0, 0, 1 << 30, -(1 << 30), -1};
    pthread_mutex_lock(&g->lock);
    for (int e = 0; e < g->nev; e++) {
        if (g->ev[e].key != key)
            continue;
        if (g->ev[e].end) {
            r.ends++;
            continue;
        }
        if (r.first_start < 0)
            r.first_start = e;
        r.starts++;
        r.nshards = g->ev[e].nshards;
        r.shards |= 1u << (g->ev[e].shard & 31);
        if (g->ev[e].core < r.cores_min)
            r.cores_min = g->ev[e].core;
        if (g->ev[e].core > r.cores_max)
            r.cores_max = g->ev[e].core;
    }
    pthread_mutex_unlock(&g->lock);
    return r;
}

static int ran(fb *g, const void *key) {
    return seen_of(g, key).starts;
}

/* Asserts that the single-shard kernels keyed keys[0..n) ran one after
 * another in that order, each exactly once: the log, restricted to them,
 * reads start 0, end 0, start 1, end 1, ... */
static void check_keys_in_order(fb *g, const void *const *keys, int n) {
    pthread_mutex_lock(&g->lock);
    const int full = g->nev >= LOGCAP;
    int next = 0, running = -1, ok = 1;
    for (int e = 0; e < g->nev && ok; e++) {
        int i = -1;
        for (int k = 0; k < n && i < 0; k++)
            if (keys[k] == g->ev[e].key)
                i = k;
        if (i < 0)
            continue;
        if (!g->ev[e].end) {
            ok = running == -1 && i == next;
            running = i;
        } else {
            ok = running == i;
            running = -1;
            next++;
        }
    }
    pthread_mutex_unlock(&g->lock);
    assert_false(full);
    if (!ok)
        fail_msg("kernels of one stream overlapped or ran out of order (after %d in order)", next);
    assert_int_equal(next, n);
}

/* ---- completion records -------------------------------------------------------------- */

typedef struct rec {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int n;
    int done[MAXOPS];
    trn_sched_status status[MAXOPS];
    int seen_before[MAXOPS]; /* completions that preceded this one */
    uint64_t t_done[MAXOPS]; /* trn_sched_now_ns() in the callback */
} rec;

typedef struct test_op {
    trn_sched_op sop; /* first */
    rec *r;
    int index;
} test_op;

static void on_done(trn_sched_op *op, trn_sched_status st) {
    test_op *t = (test_op *)op;
    rec *r = t->r;
    const uint64_t now = trn_sched_now_ns();
    pthread_mutex_lock(&r->lock);
    r->seen_before[t->index] = r->n++;
    r->done[t->index]++;
    r->status[t->index] = st;
    r->t_done[t->index] = now;
    pthread_cond_broadcast(&r->cond);
    pthread_mutex_unlock(&r->lock);
}

static void rec_init(rec *r) {
    memset(r, 0, sizeof(*r));
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->cond, NULL);
}

static void rec_destroy(rec *r) {
    pthread_cond_destroy(&r->cond);
    pthread_mutex_destroy(&r->lock);
}

static int is_done(rec *r, int index) {
    pthread_mutex_lock(&r->lock);
    const int d = r->done[index];
    pthread_mutex_unlock(&r->lock);
    return d;
}

static void wait_done(rec *r, int index) {
    struct timespec ts;
    deadline_in(&ts, WAIT_S);
    pthread_mutex_lock(&r->lock);
    while (!r->done[index]) {
        if (pthread_cond_timedwait(&r->cond, &r->lock, &ts) == ETIMEDOUT) {
            pthread_mutex_unlock(&r->lock);
            fail_msg("op %d did not complete within %d s", index, WAIT_S);
        }
    }
    pthread_mutex_unlock(&r->lock);
}

static void wait_count(rec *r, int n) {
    struct timespec ts;
    deadline_in(&ts, WAIT_S);
    pthread_mutex_lock(&r->lock);
    while (r->n < n) {
        if (pthread_cond_timedwait(&r->cond, &r->lock, &ts) == ETIMEDOUT) {
            const int got = r->n;
            pthread_mutex_unlock(&r->lock);
            fail_msg("%d of %d ops completed within %d s", got, n, WAIT_S);
        }
    }
    pthread_mutex_unlock(&r->lock);
}

static void expect_status(rec *r, int index, trn_sched_status st) {
    assert_int_equal(is_done(r, index), 1);
    assert_int_equal(r->status[index], st);
}

/* ---- ops ------------------------------------------------------------------------------ */

static void op_init(test_op *t, rec *r, int index) {
    memset(t, 0, sizeof(*t));
    t->sop.done = on_done;
    t->r = r;
    t->index = index;
}

static void op_memset(test_op *t, rec *r, int index, void *dst, int value, size_t bytes) {
    op_init(t, r, index);
    t->sop.desc.kind = TRN_OP_MEMSET;
    t->sop.desc.u.memset.dst = dst;
    t->sop.desc.u.memset.value = value;
    t->sop.desc.u.memset.bytes = bytes;
}

static void op_byte(test_op *t, rec *r, int index, unsigned char *dst, int value) {
    op_memset(t, r, index, dst, value, 1);
}

static void op_gate(test_op *t, rec *r, int index, fb *g, int gate) {
    op_memset(t, r, index, (void *)g->gate[gate], 1, 1);
}

static void op_copy(test_op *t, rec *r, int index, void *dst, const void *src, size_t bytes) {
    op_init(t, r, index);
    t->sop.desc.kind = TRN_OP_COPY;
    t->sop.desc.u.copy.dst = dst;
    t->sop.desc.u.copy.src = src;
    t->sop.desc.u.copy.bytes = bytes;
}

static const float one = 1.0f;

/* c[0] = 1 * 1: a 1x1x1 SGEMM, a core-engine op. */
static void op_gemm(test_op *t, rec *r, int index, float *c) {
    op_init(t, r, index);
    trn_gemm_desc *d = &t->sop.desc.u.gemm;
    t->sop.desc.kind = TRN_OP_GEMM;
    d->type = TRN_DTYPE_R32F;
    d->transa = d->transb = TRN_TRANS_N;
    d->m = d->n = d->k = 1;
    d->alpha.re = 1.0;
    d->a = &one;
    d->lda = 1;
    d->b = &one;
    d->ldb = 1;
    d->c = c;
    d->ldc = 1;
}

static void op_timed(test_op *t, rec *r, int index, fb *g, int slot, size_t us, int engine) {
    op_memset(t, r, index, &g->timed[slot], engine == TRN_ENGINE_COPY ? 1 : 0, us);
}

static void op_marker(test_op *t, rec *r, int index) {
    op_init(t, r, index);
    t->sop.is_marker = 1;
}

static void op_record(test_op *t, rec *r, int index, trn_sched_fence *f) {
    op_marker(t, r, index);
    t->sop.signal = f;
}

static void op_wait(test_op *t, rec *r, int index, trn_sched_fence *f) {
    op_marker(t, r, index);
    t->sop.wait = f;
}

static void submit(trn_sched *s, trn_sched_stream *st, test_op *t) {
    assert_int_equal(trn_sched_submit(s, st, &t->sop), 0);
}

/* The timestamps of an op that ran are in order and on the clock. */
static void expect_ran_timestamps(const trn_sched_op *op) {
    assert_true(op->t_submit > 0);
    assert_true(op->t_submit <= op->t_ready);
    assert_true(op->t_ready <= op->t_start);
    assert_true(op->t_start <= op->t_end);
    assert_true(op->t_end <= trn_sched_now_ns());
}

static void expect_not_run_timestamps(const trn_sched_op *op) {
    assert_true(op->t_submit > 0);
    assert_int_equal(op->t_start, 0);
    assert_int_equal(op->t_end, 0);
}

static void expect_stats(trn_sched *s, uint64_t queued, uint64_t running) {
    trn_sched_stats st;
    trn_sched_get_stats(s, &st);
    assert_int_equal(st.ops_queued, queued);
    assert_int_equal(st.ops_running, running);
}

/* ---- timers ------------------------------------------------------------------------------ */

typedef struct ttimer ttimer;

typedef struct tstate {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    trn_sched *s;
    int order[64]; /* ids in firing order */
    int n;
    int hold;    /* a blocker timer's fire() waits while set */
    int blocked; /* a blocker is waiting */
} tstate;

struct ttimer {
    trn_sched_timer t; /* first */
    tstate *ts;
    int id;
    int blocker;     /* fire() blocks the timer thread while ts->hold */
    ttimer *partner; /* re-armed by fire() when it has not fired yet */
    int fired;
    uint64_t first_fired_at, last_fired_at;
    int rearmed; /* re-armed by its partner */
    uint64_t rearm_when;
};

static void tt_fire(trn_sched_timer *t) {
    ttimer *tt = (ttimer *)t;
    tstate *ts = tt->ts;
    const uint64_t now = trn_sched_now_ns();
    ttimer *rearm = NULL;
    pthread_mutex_lock(&ts->lock);
    if (!tt->fired)
        tt->first_fired_at = now;
    tt->last_fired_at = now;
    tt->fired++;
    if (ts->n < 64)
        ts->order[ts->n++] = tt->id;
    if (tt->partner && !tt->partner->fired && !tt->partner->rearmed) {
        rearm = tt->partner;
        rearm->rearmed = 1;
        rearm->rearm_when = now + 150 * MS;
    }
    pthread_cond_broadcast(&ts->cond);
    if (tt->blocker) {
        struct timespec dl;
        deadline_in(&dl, WAIT_S);
        ts->blocked = 1;
        pthread_cond_broadcast(&ts->cond);
        while (ts->hold && pthread_cond_timedwait(&ts->cond, &ts->lock, &dl) != ETIMEDOUT) {
        }
        ts->blocked = 0;
    }
    pthread_mutex_unlock(&ts->lock);
    if (rearm) {
        rearm->t.when_ns = rearm->rearm_when;
        trn_sched_timer_start(ts->s, &rearm->t);
    }
}

static void tt_init(ttimer *tt, tstate *ts, int id, uint64_t when) {
    memset(tt, 0, sizeof(*tt));
    tt->ts = ts;
    tt->id = id;
    tt->t.when_ns = when;
    tt->t.fire = tt_fire;
}

static int tt_fired(ttimer *tt) {
    pthread_mutex_lock(&tt->ts->lock);
    const int n = tt->fired;
    pthread_mutex_unlock(&tt->ts->lock);
    return n;
}

static void tt_wait_fired(ttimer *tt, int n) {
    tstate *ts = tt->ts;
    struct timespec dl;
    deadline_in(&dl, WAIT_S);
    pthread_mutex_lock(&ts->lock);
    while (tt->fired < n) {
        if (pthread_cond_timedwait(&ts->cond, &ts->lock, &dl) == ETIMEDOUT) {
            pthread_mutex_unlock(&ts->lock);
            fail_msg("timer %d fired %d times, not %d, within %d s", tt->id, tt->fired, n, WAIT_S);
        }
    }
    pthread_mutex_unlock(&ts->lock);
}

/* Arms a blocker timer due now and waits until the timer thread is held in
 * its fire(): timers armed meanwhile become due together. */
static void tt_block(tstate *ts, ttimer *blocker) {
    pthread_mutex_lock(&ts->lock);
    ts->hold = 1;
    pthread_mutex_unlock(&ts->lock);
    tt_init(blocker, ts, 0, trn_sched_now_ns());
    blocker->blocker = 1;
    trn_sched_timer_start(ts->s, &blocker->t);
    struct timespec dl;
    deadline_in(&dl, WAIT_S);
    pthread_mutex_lock(&ts->lock);
    while (!ts->blocked && pthread_cond_timedwait(&ts->cond, &ts->lock, &dl) != ETIMEDOUT) {
    }
    const int blocked = ts->blocked;
    pthread_mutex_unlock(&ts->lock);
    if (!blocked)
        fail_msg("the blocker timer did not fire within %d s", WAIT_S);
}

static void tt_unblock(tstate *ts) {
    pthread_mutex_lock(&ts->lock);
    ts->hold = 0;
    pthread_cond_broadcast(&ts->cond);
    pthread_mutex_unlock(&ts->lock);
}

/* ---- fixture --------------------------------------------------------------------------- */

typedef struct fx {
    fb *g;
    trn_sched *s;
    rec r;
    test_op *ops; /* MAXOPS; on the heap so a failing test leaves none on its stack */
    tstate ts;
} fx;

static int setup(void **state) {
    fx *f = calloc(1, sizeof(*f));
    assert_non_null(f);
    f->g = fb_create();
    f->ops = calloc(MAXOPS, sizeof(*f->ops));
    assert_non_null(f->ops);
    rec_init(&f->r);
    pthread_mutex_init(&f->ts.lock, NULL);
    pthread_cond_init(&f->ts.cond, NULL);
    *state = f;
    return 0;
}

static void fx_start(fx *f, int ncores, int ncopy) {
    char err[256] = "";
    const trn_sched_config sc = {.cpus = NULL, .ncores = ncores, .ncopy = ncopy};
    f->s = trn_sched_create(&f->g->be, &sc, err, sizeof(err));
    if (!f->s)
        fail_msg("trn_sched_create: %s", err);
    f->ts.s = f->s;
}

static int teardown(void **state) {
    fx *f = *state;
    for (int i = 0; i < NGATES; i++)
        gate_open(f->g, i); /* never leave a worker blocked */
    tt_unblock(&f->ts);
    if (f->s) {
        trn_sched_shutdown(f->s);
        trn_sched_destroy(f->s);
    }
    fb_destroy(f->g);
    rec_destroy(&f->r);
    pthread_cond_destroy(&f->ts.cond);
    pthread_mutex_destroy(&f->ts.lock);
    free(f->ops);
    free(f);
    return 0;
}

static void *shutdown_thread(void *arg) {
    trn_sched_shutdown(arg);
    return NULL;
}

/* ---- fairness ------------------------------------------------------------------------------ */

/* Fair-share runs: one core worker, tenants 0 (the gate), 1 and 2 (A and B),
 * one stream each, A and B queuing timed ops. Usage snapshots are taken from
 * inside a completion callback on the worker: with one worker no shard is in
 * flight then, so every tenant's usage is exact at that instant. */
enum { FT = 3, FSNAPS = 2 };

typedef struct fair_run fair_run;

typedef struct fair_op {
    trn_sched_op sop; /* first */
    fair_run *fr;
    int tenant;
} fair_op;

typedef struct fair_snap {
    trn_sched_usage u[FT];
    int ok[FT]; /* ops of each tenant completed OK by then */
} fair_snap;

struct fair_run {
    trn_sched *s;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    trn_sched_tenant *ten[FT];
    trn_sched_stream *st[FT];
    fair_op *ops[FT];
    int nops[FT]; /* submitted */
    int done[FT], ok[FT];
    uint64_t queue_sum[FT]; /* sum of t_start - t_ready over the ops that ran */
    double cost_sum[FT];
    int bad; /* ops with bad timestamps or engine */
    /* Snapshot k is taken when tenant trig_tenant[k] has completed
     * trig_at[k] ops OK; then action(fr, k) runs (on the worker). */
    int trig_tenant[FSNAPS], trig_at[FSNAPS];
    int snapped[FSNAPS];    /* claimed by a callback */
    int snap_ready[FSNAPS]; /* taken, and its action run */
    fair_snap snap[FSNAPS];
    void (*action)(fair_run *fr, int k);
    /* For actions: ops to submit late, and a weight to set. */
    int late_tenant, late_from, late_n;
    double new_weight;
};

static void fair_done(trn_sched_op *op, trn_sched_status st) {
    fair_op *o = (fair_op *)op;
    fair_run *fr = o->fr;
    const int t = o->tenant;
    int snap = -1;
    pthread_mutex_lock(&fr->lock);
    fr->done[t]++;
    if (st == TRN_SCHED_OK) {
        fr->ok[t]++;
        if (!(op->t_submit <= op->t_ready && op->t_ready <= op->t_start &&
              op->t_start <= op->t_end) ||
            op->engine != TRN_ENGINE_CORE)
            fr->bad++;
        fr->queue_sum[t] += op->t_start - op->t_ready;
        fr->cost_sum[t] += trn_op_cost(&op->desc);
    } else if (st != TRN_SCHED_CANCELLED || op->t_start != 0 || op->t_end != 0) {
        fr->bad++;
    }
    for (int k = 0; k < FSNAPS; k++) {
        if (!fr->snapped[k] && fr->trig_at[k] > 0 && fr->trig_tenant[k] == t &&
            fr->ok[t] == fr->trig_at[k]) {
            fr->snapped[k] = 1;
            memcpy(fr->snap[k].ok, fr->ok, sizeof(fr->ok));
            snap = k;
        }
    }
    pthread_mutex_unlock(&fr->lock);
    if (snap >= 0) {
        for (int i = 0; i < FT; i++)
            trn_sched_tenant_usage(fr->s, fr->ten[i], &fr->snap[snap].u[i]);
        if (fr->action)
            fr->action(fr, snap);
    }
    pthread_mutex_lock(&fr->lock);
    if (snap >= 0)
        fr->snap_ready[snap] = 1;
    pthread_cond_broadcast(&fr->cond);
    pthread_mutex_unlock(&fr->lock);
}

static void fair_init(fair_run *fr, fx *f, const double w[FT], const int nops[FT]) {
    memset(fr, 0, sizeof(*fr));
    fr->s = f->s;
    pthread_mutex_init(&fr->lock, NULL);
    pthread_cond_init(&fr->cond, NULL);
    for (int i = 0; i < FT; i++) {
        fr->ten[i] = trn_sched_tenant_create(f->s, w[i]);
        assert_non_null(fr->ten[i]);
        fr->st[i] = trn_sched_stream_create(f->s, fr->ten[i]);
        assert_non_null(fr->st[i]);
        fr->nops[i] = nops[i];
        fr->ops[i] = calloc((size_t)(nops[i] > 0 ? nops[i] : 1), sizeof(fair_op));
        assert_non_null(fr->ops[i]);
    }
}

/* Fills ops [from, from+n) of tenant t: timed ops of us microseconds. */
static void fair_fill(fair_run *fr, fb *g, int t, int from, int n, size_t us) {
    for (int i = from; i < from + n; i++) {
        fair_op *o = &fr->ops[t][i];
        memset(o, 0, sizeof(*o));
        o->fr = fr;
        o->tenant = t;
        o->sop.done = fair_done;
        o->sop.desc.kind = TRN_OP_MEMSET;
        o->sop.desc.u.memset.dst = &g->timed[t];
        o->sop.desc.u.memset.value = 0; /* core */
        o->sop.desc.u.memset.bytes = us;
    }
}

static int fair_submit(fair_run *fr, int t, int from, int n) {
    for (int i = from; i < from + n; i++)
        if (trn_sched_submit(fr->s, fr->st[t], &fr->ops[t][i].sop) != 0)
            return -1;
    return 0;
}

static void fair_wait(fair_run *fr, int (*pred)(fair_run *, int), int arg, const char *what) {
    struct timespec ts;
    deadline_in(&ts, WAIT_S);
    pthread_mutex_lock(&fr->lock);
    while (!pred(fr, arg)) {
        if (pthread_cond_timedwait(&fr->cond, &fr->lock, &ts) == ETIMEDOUT) {
            pthread_mutex_unlock(&fr->lock);
            fail_msg("%s: not within %d s", what, WAIT_S);
        }
    }
    pthread_mutex_unlock(&fr->lock);
}

static int pred_snapped(fair_run *fr, int k) {
    return fr->snap_ready[k];
}

static int pred_all_done(fair_run *fr, int unused) {
    (void)unused;
    for (int i = 0; i < FT; i++)
        if (fr->done[i] < fr->nops[i])
            return 0;
    return 1;
}

/* Cancels what is left, waits for every callback, checks that the usage
 * counters agree with the ops and with the worker's, and frees the run.
 * Tenant 0 ran one op: the gate op f->ops[0]. */
static void fair_finish(fair_run *fr, fx *f) {
    for (int i = 0; i < FT; i++)
        trn_sched_stream_cancel(f->s, fr->st[i]);
    fair_wait(fr, pred_all_done, 0, "every op completing");
    wait_done(&f->r, 0);
    expect_status(&f->r, 0, TRN_SCHED_OK);
    const trn_sched_op *gop = &f->ops[0].sop;
    expect_ran_timestamps(gop);
    fr->ok[0]++;
    fr->queue_sum[0] += gop->t_start - gop->t_ready;
    fr->cost_sum[0] += trn_op_cost(&gop->desc);
    assert_int_equal(fr->bad, 0);
    uint64_t run = 0, shards = 0;
    double cost = 0;
    for (int i = 0; i < FT; i++) {
        trn_sched_usage u;
        trn_sched_tenant_usage(f->s, fr->ten[i], &u);
        assert_int_equal(u.ops, fr->ok[i]);
        assert_int_equal(u.shards, fr->ok[i]);
        assert_int_equal(u.queue_ns, fr->queue_sum[i]);
        assert_true(u.cost == fr->cost_sum[i]);
        assert_int_equal(u.expired, 0);
        run += u.run_ns;
        shards += u.shards;
        cost += u.cost;
    }
    assert_int_equal(trn_sched_worker_count(f->s), 1);
    trn_sched_worker_info w;
    trn_sched_worker_get(f->s, 0, &w);
    assert_int_equal(w.engine, TRN_ENGINE_CORE);
    assert_int_equal(w.usage.run_ns, run); /* the same shards, counted twice */
    assert_int_equal(w.usage.shards, shards);
    assert_true(w.usage.cost == cost);
    expect_stats(f->s, 0, 0);
    for (int i = 0; i < FT; i++) {
        trn_sched_stream_release(f->s, fr->st[i]);
        trn_sched_tenant_release(f->s, fr->ten[i]);
        free(fr->ops[i]);
    }
    pthread_cond_destroy(&fr->cond);
    pthread_mutex_destroy(&fr->lock);
}

/* Holds the only core worker with a gate op of tenant 0, so that everything
 * submitted meanwhile starts backlogged at the same virtual time. */
static test_op *fair_hold(fair_run *fr, fx *f) {
    test_op *g = &f->ops[0];
    op_gate(g, &f->r, 0, f->g, 0);
    submit(f->s, fr->st[0], g);
    gate_wait_entered(f->g, 0);
    return g;
}

/* ratio = (a / wa) / (b / wb): 1 when a and b are in the ratio of the weights. */
static void expect_weighted_ratio(const char *what, double a, double wa, double b, double wb) {
    const double ratio = (a / wa) / (b / wb);
    print_message("%s: %.1f ms vs %.1f ms, weights %g:%g, normalised ratio %.3f\n", what, a / 1e6,
                  b / 1e6, wa, wb, ratio);
    /* Tolerance 20 %. Start-time fair queuing keeps the two tenants' virtual
     * times within about one op of each other (at most 2 ms of worker time,
     * against 50-400 ms measured per side), and both sides are measured by
     * the same clock around the same kind of busy loop; preemption on the
     * noisy VM stretches whichever op it hits, and that time is charged to
     * (and compensated for) that op's tenant. The error seen is under 5 %
     * idle and under 10 % with both vCPUs saturated by other processes; 20 %
     * still cleanly separates a scheduler that ignores weights (1:2 reads
     * 2.0) or lets an idle tenant bank credit (reads 0). */
    if (!(ratio >= 0.8 && ratio <= 1.2))
        fail_msg("%s: normalised share ratio %.3f outside [0.8, 1.2]", what, ratio);
}

/* Tenant A (weight wa) queues many small ops of us_a, tenant B (weight wb)
 * big ops of us_b; both backlogged from the same instant. At A's kA-th
 * completion, about window_ms of worker time later, A and B must have had
 * worker time in the ratio wa:wb, with B still backlogged. */
static void fair_case(fx *f, double wa, double wb, size_t us_a, size_t us_b, double window_ms) {
    fx_start(f, 1, 0);
    const double fa = wa / (wa + wb), fb_ = wb / (wa + wb);
    const int ka = (int)(window_ms * 1000.0 * fa / (double)us_a);
    const int expect_b = (int)(window_ms * 1000.0 * fb_ / (double)us_b);
    const double w[FT] = {1.0, wa, wb};
    const int n[FT] = {1, 2 * ka + 20, 2 * expect_b + 20};
    fair_run fr;
    fair_init(&fr, f, w, n);
    fr.nops[0] = 0; /* tenant 0's gate op is a test_op */
    fair_fill(&fr, f->g, 1, 0, n[1], us_a);
    fair_fill(&fr, f->g, 2, 0, n[2], us_b);
    fr.trig_tenant[0] = 1;
    fr.trig_at[0] = ka;
    fair_hold(&fr, f);
    assert_int_equal(fair_submit(&fr, 1, 0, n[1]), 0);
    assert_int_equal(fair_submit(&fr, 2, 0, n[2]), 0);
    gate_open(f->g, 0);
    fair_wait(&fr, pred_snapped, 0, "tenant A's snapshot");
    const fair_snap *sn = &fr.snap[0];
    /* Both were backlogged throughout: B had work left, A too. */
    assert_true(sn->ok[2] >= 1);
    assert_true(sn->ok[2] < n[2]);
    assert_true(sn->ok[1] < n[1]);
    char what[64];
    snprintf(what, sizeof(what), "A/B run time at A's op %d", ka);
    expect_weighted_ratio(what, (double)sn->u[1].run_ns, wa, (double)sn->u[2].run_ns, wb);
    fair_finish(&fr, f);
}

static void test_fair_equal_weights(void **state) {
    fair_case(*state, 1.0, 1.0, 200, 2000, 500);
}

static void test_fair_weights_1_2(void **state) {
    fair_case(*state, 1.0, 2.0, 200, 2000, 500);
}

/* A priority-like weight: B at a quarter of A. */
static void test_fair_weights_1_quarter(void **state) {
    fair_case(*state, 1.0, 0.25, 200, 2000, 500);
}

static void late_submit(fair_run *fr, int k) {
    if (k == 0)
        fair_submit(fr, fr->late_tenant, fr->late_from, fr->late_n);
}

/* Rule: "A tenant that was idle rejoins at the engine's current virtual
 * time, so idling earns no credit." B runs 4 ops next to A, then idles while A
 * alone runs for about 200 ms; at A's 400th op B queues 300 ops again. From
 * then until B's 100th new op, A and B must share the worker 1:1. A scheduler
 * that kept B's old virtual time would give B the worker alone for the
 * ~200 ms it was idle (A's share would then read about 0). */
static void test_fair_idle_tenant_earns_no_credit(void **state) {
    fx *f = *state;
    fx_start(f, 1, 0);
    enum { NA = 900, B_EARLY = 4, B_LATE = 300, K_A = 400, K_B = 100 };
    const double w[FT] = {1.0, 1.0, 1.0};
    const int n[FT] = {0, NA, B_EARLY + B_LATE};
    fair_run fr;
    fair_init(&fr, f, w, n);
    fair_fill(&fr, f->g, 1, 0, NA, 500);
    fair_fill(&fr, f->g, 2, 0, B_EARLY, 500);
    fair_fill(&fr, f->g, 2, B_EARLY, B_LATE, 1000);
    fr.trig_tenant[0] = 1;
    fr.trig_at[0] = K_A;
    fr.trig_tenant[1] = 2;
    fr.trig_at[1] = B_EARLY + K_B;
    fr.action = late_submit;
    fr.late_tenant = 2;
    fr.late_from = B_EARLY;
    fr.late_n = B_LATE;
    fair_hold(&fr, f);
    assert_int_equal(fair_submit(&fr, 1, 0, NA), 0);
    assert_int_equal(fair_submit(&fr, 2, 0, B_EARLY), 0);
    gate_open(f->g, 0);
    fair_wait(&fr, pred_snapped, 1, "B's snapshot after its return");
    const fair_snap *s0 = &fr.snap[0], *s1 = &fr.snap[1];
    assert_int_equal(s0->ok[2], B_EARLY); /* B was idle when it came back */
    assert_true(s1->ok[1] < NA);          /* A stayed backlogged */
    expect_weighted_ratio("A/B run time after B's return",
                          (double)(s1->u[1].run_ns - s0->u[1].run_ns), 1.0,
                          (double)(s1->u[2].run_ns - s0->u[2].run_ns), 1.0);
    fair_finish(&fr, f);
}

static void change_weight(fair_run *fr, int k) {
    if (k == 0)
        trn_sched_tenant_set_weight(fr->s, fr->ten[2], fr->new_weight);
}

/* Rule: a tenant's share is proportional to its weight, as set now. A and B
 * start 1:1; at A's 400th op B's weight becomes 3; from then until A's 600th
 * op the shares are 1:3. */
static void test_fair_set_weight(void **state) {
    fx *f = *state;
    fx_start(f, 1, 0);
    enum { NA = 800, NB = 400, K0 = 400, K1 = 600 };
    const double w[FT] = {1.0, 1.0, 1.0};
    const int n[FT] = {0, NA, NB};
    fair_run fr;
    fair_init(&fr, f, w, n);
    fair_fill(&fr, f->g, 1, 0, NA, 250);
    fair_fill(&fr, f->g, 2, 0, NB, 1000);
    fr.trig_tenant[0] = 1;
    fr.trig_at[0] = K0;
    fr.trig_tenant[1] = 1;
    fr.trig_at[1] = K1;
    fr.action = change_weight;
    fr.new_weight = 3.0;
    fair_hold(&fr, f);
    assert_int_equal(fair_submit(&fr, 1, 0, NA), 0);
    assert_int_equal(fair_submit(&fr, 2, 0, NB), 0);
    gate_open(f->g, 0);
    fair_wait(&fr, pred_snapped, 1, "A's second snapshot");
    const fair_snap *s0 = &fr.snap[0], *s1 = &fr.snap[1];
    assert_true(s1->ok[2] < NB); /* B stayed backlogged */
    expect_weighted_ratio("A/B run time before the change", (double)s0->u[1].run_ns, 1.0,
                          (double)s0->u[2].run_ns, 1.0);
    expect_weighted_ratio("A/B run time after B's weight became 3",
                          (double)(s1->u[1].run_ns - s0->u[1].run_ns), 1.0,
                          (double)(s1->u[2].run_ns - s0->u[2].run_ns), 3.0);
    fair_finish(&fr, f);
}

/* ---- ordering ---------------------------------------------------------------------------- */

/* Rule: "Within a tenant, ready ops are served in the order they became
 * ready." One core worker is held; tenant T's streams 1, 0, 2 get their first
 * ops in that order, then their second and third. Each stream's next op
 * becomes ready only when its previous one ends, i.e. after the other
 * streams' ready ops, so the worker must go round the streams: 1 0 2 1 0 2
 * 1 0 2. */
static void test_ready_order_within_tenant(void **state) {
    fx *f = *state;
    fx_start(f, 1, 0);
    enum { NS = 3, DEPTH = 3 };
    static const int first_order[NS] = {1, 0, 2};
    trn_sched_tenant *gt = trn_sched_tenant_create(f->s, 1.0),
                     *t = trn_sched_tenant_create(f->s, 1.0);
    trn_sched_stream *gs = trn_sched_stream_create(f->s, gt), *st[NS];
    for (int i = 0; i < NS; i++)
        st[i] = trn_sched_stream_create(f->s, t);
    trn_sched_tenant_release(f->s, gt); /* the streams keep the tenants alive */
    trn_sched_tenant_release(f->s, t);
    test_op *o = f->ops;
    op_gate(&o[0], &f->r, 0, f->g, 0);
    submit(f->s, gs, &o[0]);
    gate_wait_entered(f->g, 0);
    /* op 1 + d*NS + s: stream s's d-th op, keyed timed[1 + d*NS + s]. */
    for (int d = 0; d < DEPTH; d++) {
        for (int i = 0; i < NS; i++) {
            const int s = first_order[i], idx = 1 + d * NS + s;
            op_timed(&o[idx], &f->r, idx, f->g, idx, 20, TRN_ENGINE_CORE);
            submit(f->s, st[s], &o[idx]);
        }
    }
    gate_open(f->g, 0);
    wait_count(&f->r, 1 + NS * DEPTH);
    const void *expect[NS * DEPTH];
    for (int d = 0; d < DEPTH; d++)
        for (int i = 0; i < NS; i++)
            expect[d * NS + i] = &f->g->timed[1 + d * NS + first_order[i]];
    check_keys_in_order(f->g, expect, NS * DEPTH);
    for (int i = 0; i <= NS * DEPTH; i++) {
        expect_status(&f->r, i, TRN_SCHED_OK);
        expect_ran_timestamps(&o[i].sop);
    }
    /* The ready order is also the t_ready order. */
    assert_true(o[1 + 1].sop.t_ready <= o[1 + 0].sop.t_ready);
    assert_true(o[1 + 0].sop.t_ready <= o[1 + 2].sop.t_ready);
    trn_sched_stream_release(f->s, gs);
    for (int i = 0; i < NS; i++)
        trn_sched_stream_release(f->s, st[i]);
    expect_stats(f->s, 0, 0);
}

/* Rule: ops on one stream run one after another in submission order, "all
 * shards of an op finish before the next op starts, whatever engine either
 * runs on", and every callback of an op comes before those of what follows
 * it (markers included). 3 tenants (weights 1, 2, 0.5) x 2 streams, each
 * with 100 items: timed ops of 10-69 us, a third of them on the copy engine,
 * and a marker every 10th item; 2 core workers and 1 copy worker. Also: each
 * op ran on the engine it asked for, on a worker of that engine; the workers'
 * usage adds up to the tenants'. */
static void test_stream_order_across_tenants_and_engines(void **state) {
    fx *f = *state;
    fx_start(f, 2, 1);
    enum { NTEN = 3, SPT = 2, NST = NTEN * SPT, NPS = 100 };
    static const double weights[NTEN] = {1.0, 2.0, 0.5};
    trn_sched_tenant *ten[NTEN];
    trn_sched_stream *st[NST];
    for (int i = 0; i < NTEN; i++)
        ten[i] = trn_sched_tenant_create(f->s, weights[i]);
    for (int s = 0; s < NST; s++)
        st[s] = trn_sched_stream_create(f->s, ten[s / SPT]);
    test_op *o = f->ops; /* o[s*NPS + i]: stream s's item i */
    int want_engine[NST * NPS], nkern[NTEN] = {0}, ncopy = 0, ncore = 0;
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < NPS; i++) {
        for (int s = 0; s < NST; s++) {
            const int idx = s * NPS + i;
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            want_engine[idx] = -1;
            if (i % 10 == 9) {
                op_marker(&o[idx], &f->r, idx);
            } else {
                const int eng = (x >> 33) % 3 == 0 ? TRN_ENGINE_COPY : TRN_ENGINE_CORE;
                op_timed(&o[idx], &f->r, idx, f->g, idx, 10 + (size_t)((x >> 40) % 60), eng);
                want_engine[idx] = eng;
                nkern[s / SPT]++;
                if (eng == TRN_ENGINE_COPY)
                    ncopy++;
                else
                    ncore++;
            }
            submit(f->s, st[s], &o[idx]);
        }
    }
    wait_count(&f->r, NST * NPS);
    for (int s = 0; s < NST; s++) {
        const void *keys[NPS];
        int nk = 0, kernel_seen = -1; /* the last kernel's place in the completion order */
        const trn_sched_op *prev = NULL;
        for (int i = 0; i < NPS; i++) {
            const int idx = s * NPS + i;
            const trn_sched_op *op = &o[idx].sop;
            expect_status(&f->r, idx, TRN_SCHED_OK);
            /* Callbacks: each kernel's after those of the kernels before it, each
             * marker's after those of the kernels before it. (Whether a
             * marker's callback also precedes the next kernel's is
             * test_marker_callback_before_next_op's subject.) */
            if (f->r.seen_before[idx] <= kernel_seen)
                fail_msg(
                    "stream %d: item %d (%s) completed %d-th, before an earlier kernel (%d-th)", s,
                    i, want_engine[idx] < 0 ? "marker" : "kernel", f->r.seen_before[idx],
                    kernel_seen);
            if (want_engine[idx] < 0)
                continue;
            kernel_seen = f->r.seen_before[idx];
            keys[nk++] = &f->g->timed[idx];
            expect_ran_timestamps(op);
            assert_int_equal(op->engine, want_engine[idx]);
            if (prev)
                assert_true(op->t_start >= prev->t_end);
            prev = op;
            const seen sn = seen_of(f->g, &f->g->timed[idx]);
            if (want_engine[idx] == TRN_ENGINE_COPY) {
                assert_int_equal(sn.cores_max, -1); /* a copy worker */
            } else {
                assert_true(sn.cores_min >= 0);
                assert_true(sn.cores_max <= 1);
            }
        }
        check_keys_in_order(f->g, keys, nk);
    }
    uint64_t run = 0, shards = 0;
    for (int i = 0; i < NTEN; i++) {
        trn_sched_usage u;
        trn_sched_tenant_usage(f->s, ten[i], &u);
        assert_int_equal(u.ops, nkern[i]);
        run += u.run_ns;
        shards += u.shards;
    }
    assert_int_equal(shards, (uint64_t)(ncopy + ncore));
    assert_int_equal(trn_sched_worker_count(f->s), 3);
    uint64_t wrun = 0, core_shards = 0, copy_shards = 0;
    for (int i = 0; i < 3; i++) {
        trn_sched_worker_info w;
        trn_sched_worker_get(f->s, i, &w);
        wrun += w.usage.run_ns;
        if (w.engine == TRN_ENGINE_COPY)
            copy_shards += w.usage.shards;
        else
            core_shards += w.usage.shards;
    }
    assert_int_equal(wrun, run);
    assert_int_equal(copy_shards, ncopy);
    assert_int_equal(core_shards, ncore);
    for (int s = 0; s < NST; s++)
        trn_sched_stream_release(f->s, st[s]);
    for (int i = 0; i < NTEN; i++)
        trn_sched_tenant_release(f->s, ten[i]);
    expect_stats(f->s, 0, 0);
}

/* A marker whose callback waits (up to 200 ms) for op `watch` to complete,
 * and records whether it did meanwhile. */
typedef struct slow_marker {
    test_op t; /* first */
    int watch;
    int watch_done_meanwhile;
} slow_marker;

static void slow_marker_done(trn_sched_op *op, trn_sched_status st) {
    slow_marker *m = (slow_marker *)op;
    rec *r = m->t.r;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 200 * 1000 * 1000;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&r->lock);
    while (!r->done[m->watch] && pthread_cond_timedwait(&r->cond, &r->lock, &ts) != ETIMEDOUT) {
    }
    m->watch_done_meanwhile = r->done[m->watch];
    pthread_mutex_unlock(&r->lock);
    on_done(op, st);
}

/* Regression test.
 * Rule (sched.c complete_active): callbacks come in stream order, "every
 * callback of an op completes before anything queued behind it (a marker
 * included) does" -- and, for a marker, before the op behind it completes.
 * Stream s: G (gated), M (marker), K; 2 workers. When G ends, its worker
 * completes M onto its local completion list and activates K in the same
 * critical section (stream_advance_one), then drops the lock and only then
 * calls M's callback; the other worker meanwhile takes K, runs it and calls
 * K's callback. So K is reported complete before the marker in front of it:
 * a Synchronize (or an event record's completion) is reported after work
 * submitted behind it, e.g. after an error of that work. M's callback here
 * waits up to 200 ms for K's and records whether K completed meanwhile. */
static void test_marker_callback_before_next_op(void **state) {
    fx *f = *state;
    fx_start(f, 2, 0);
    unsigned char byte = 0;
    slow_marker *m = calloc(1, sizeof(*m));
    assert_non_null(m);
    trn_sched_stream *s = trn_sched_stream_create(f->s, NULL);
    test_op *o = f->ops;
    op_gate(&o[0], &f->r, 0, f->g, 0);
    op_marker(&m->t, &f->r, 1);
    m->t.sop.done = slow_marker_done;
    m->watch = 2;
    op_byte(&o[2], &f->r, 2, &byte, 1);
    submit(f->s, s, &o[0]);
    submit(f->s, s, &m->t);
    submit(f->s, s, &o[2]);
    gate_wait_entered(f->g, 0);
    gate_open(f->g, 0);
    wait_count(&f->r, 3);
    trn_sched_stream_release(f->s, s);
    for (int i = 0; i < 3; i++)
        expect_status(&f->r, i, TRN_SCHED_OK);
    const int meanwhile = m->watch_done_meanwhile;
    free(m);
    assert_true(f->r.seen_before[0] < f->r.seen_before[1]);
    assert_int_equal(meanwhile, 0); /* fails: 1, K completed during M's callback */
    assert_true(f->r.seen_before[1] < f->r.seen_before[2]);
}

/* ---- fences ---------------------------------------------------------------------------------- */

/* Rule: a marker with `wait` holds its stream until the fence is signalled;
 * a marker with `signal` signals it when it completes, i.e. after every op
 * before it on its stream. Stream a: G (gated), R (record f). Stream b: W
 * (wait f), B1, M. With a core worker free, B1 does not start until G ends
 * and R completes; then f reports signalled at a time >= G's t_end, and B1
 * became ready after that. A wait on the signalled f (stream c) passes at
 * once, and a record on an idle stream (d) signals at once. */
static void test_fence_wait_until_record(void **state) {
    fx *f = *state;
    fx_start(f, 2, 0);
    unsigned char bytes[2] = {0, 0};
    trn_sched_fence *fe = trn_sched_fence_create(f->s), *fe2 = trn_sched_fence_create(f->s);
    assert_non_null(fe);
    assert_non_null(fe2);
    trn_sched_stream *a = trn_sched_stream_create(f->s, NULL),
                     *b = trn_sched_stream_create(f->s, NULL),
                     *c = trn_sched_stream_create(f->s, NULL),
                     *d = trn_sched_stream_create(f->s, NULL);
    test_op *o = f->ops;
    op_gate(&o[0], &f->r, 0, f->g, 0);
    op_record(&o[1], &f->r, 1, fe);
    submit(f->s, a, &o[0]);
    submit(f->s, a, &o[1]);
    gate_wait_entered(f->g, 0);
    op_wait(&o[2], &f->r, 2, fe);
    op_byte(&o[3], &f->r, 3, &bytes[0], 7);
    op_marker(&o[4], &f->r, 4);
    submit(f->s, b, &o[2]);
    submit(f->s, b, &o[3]);
    submit(f->s, b, &o[4]);

    settle();
    for (int i = 0; i <= 4; i++)
        assert_false(is_done(&f->r, i));
    uint64_t t_sig = 0;
    assert_int_equal(trn_sched_fence_query(f->s, fe, &t_sig), 0);
    assert_int_equal(ran(f->g, &bytes[0]), 0); /* the other worker is idle, yet B1 waits */
    expect_stats(f->s, 1, 1);                  /* B1 queued, G running */

    gate_open(f->g, 0);
    wait_count(&f->r, 5);
    for (int i = 0; i <= 4; i++)
        expect_status(&f->r, i, TRN_SCHED_OK);
    assert_int_equal(bytes[0], 7);
    assert_int_equal(trn_sched_fence_query(f->s, fe, &t_sig), 1);
    assert_true(t_sig >= o[0].sop.t_end);
    assert_true(o[3].sop.t_ready >= t_sig);
    assert_true(o[3].sop.t_start >= o[0].sop.t_end);
    assert_true(f->r.seen_before[3] > f->r.seen_before[0]);
    expect_ran_timestamps(&o[0].sop);
    expect_ran_timestamps(&o[3].sop);

    /* Waiting on a signalled fence passes straight through. */
    op_wait(&o[5], &f->r, 5, fe);
    submit(f->s, c, &o[5]);
    assert_int_equal(is_done(&f->r, 5), 1);
    assert_int_equal(f->r.status[5], TRN_SCHED_OK);
    op_byte(&o[6], &f->r, 6, &bytes[1], 9);
    submit(f->s, c, &o[6]);
    wait_done(&f->r, 6);
    assert_int_equal(bytes[1], 9);

    /* A record on an idle stream signals at once. */
    op_record(&o[7], &f->r, 7, fe2);
    const uint64_t before = trn_sched_now_ns();
    submit(f->s, d, &o[7]);
    expect_status(&f->r, 7, TRN_SCHED_OK);
    assert_int_equal(trn_sched_fence_query(f->s, fe2, &t_sig), 1);
    assert_true(t_sig >= before);
    assert_int_equal(trn_sched_fence_query(f->s, fe2, NULL), 1);

    trn_sched_fence_release(f->s, fe);
    trn_sched_fence_release(f->s, fe2);
    trn_sched_stream_release(f->s, a);
    trn_sched_stream_release(f->s, b);
    trn_sched_stream_release(f->s, c);
    trn_sched_stream_release(f->s, d);
    expect_stats(f->s, 0, 0);
}

/* Rule: "A fence whose record was cancelled counts as signalled (at
 * cancellation), so nothing waits on it forever." Stream a: G (gated), A1,
 * R (record f); stream b: W (wait f), B1. Cancelling a completes A1 and R
 * with CANCELLED, signals f, and so releases b: B1 runs on the other worker
 * while G is still held at its gate. G then finishes normally. */
static void test_fence_cancelled_record_signals(void **state) {
    fx *f = *state;
    fx_start(f, 2, 0);
    unsigned char bytes[2] = {0, 0};
    trn_sched_fence *fe = trn_sched_fence_create(f->s);
    trn_sched_stream *a = trn_sched_stream_create(f->s, NULL),
                     *b = trn_sched_stream_create(f->s, NULL);
    test_op *o = f->ops;
    op_gate(&o[0], &f->r, 0, f->g, 0);
    op_byte(&o[1], &f->r, 1, &bytes[0], 1);
    op_record(&o[2], &f->r, 2, fe);
    submit(f->s, a, &o[0]);
    submit(f->s, a, &o[1]);
    submit(f->s, a, &o[2]);
    gate_wait_entered(f->g, 0);
    op_wait(&o[3], &f->r, 3, fe);
    op_byte(&o[4], &f->r, 4, &bytes[1], 2);
    submit(f->s, b, &o[3]);
    submit(f->s, b, &o[4]);
    settle();
    assert_false(is_done(&f->r, 3));
    assert_false(is_done(&f->r, 4));
    assert_int_equal(trn_sched_fence_query(f->s, fe, NULL), 0);

    const uint64_t before = trn_sched_now_ns();
    trn_sched_stream_cancel(f->s, a);
    const uint64_t after = trn_sched_now_ns();
    expect_status(&f->r, 1, TRN_SCHED_CANCELLED); /* on return */
    expect_status(&f->r, 2, TRN_SCHED_CANCELLED);
    uint64_t t_sig = 0;
    assert_int_equal(trn_sched_fence_query(f->s, fe, &t_sig), 1);
    assert_true(t_sig >= before && t_sig <= after);
    wait_done(&f->r, 4);
    assert_false(is_done(&f->r, 0)); /* B1 ran while G was still held */
    assert_int_equal(gate_entered(f->g, 0), 1);
    expect_status(&f->r, 3, TRN_SCHED_OK);
    expect_status(&f->r, 4, TRN_SCHED_OK);
    assert_int_equal(bytes[1], 2);
    expect_not_run_timestamps(&o[1].sop);

    gate_open(f->g, 0);
    wait_done(&f->r, 0);
    expect_status(&f->r, 0, TRN_SCHED_OK);
    assert_int_equal(bytes[0], 0); /* A1 never ran */
    trn_sched_fence_release(f->s, fe);
    trn_sched_stream_release(f->s, a);
    trn_sched_stream_release(f->s, b);
    expect_stats(f->s, 0, 0);
}

/* Rule (trn_sched_shutdown): "completes every queued op and marker with
 * TRN_SCHED_SHUTDOWN". Stream b waits on a fence nobody records: its wait
 * marker, the op and the marker behind it complete with SHUTDOWN, the op's
 * kernel never runs, and submit afterwards returns -1. */
static void test_fence_shutdown_completes_parked_stream(void **state) {
    fx *f = *state;
    fx_start(f, 1, 0);
    unsigned char byte = 0;
    trn_sched_fence *fe = trn_sched_fence_create(f->s);
    trn_sched_stream *b = trn_sched_stream_create(f->s, NULL);
    test_op *o = f->ops;
    op_wait(&o[0], &f->r, 0, fe);
    op_byte(&o[1], &f->r, 1, &byte, 1);
    op_marker(&o[2], &f->r, 2);
    submit(f->s, b, &o[0]);
    submit(f->s, b, &o[1]);
    submit(f->s, b, &o[2]);
    settle();
    for (int i = 0; i < 3; i++)
        assert_false(is_done(&f->r, i));
    expect_stats(f->s, 1, 0);
    trn_sched_shutdown(f->s);
    for (int i = 0; i < 3; i++)
        expect_status(&f->r, i, TRN_SCHED_SHUTDOWN);
    assert_int_equal(byte, 0);
    expect_not_run_timestamps(&o[1].sop);
    op_byte(&o[3], &f->r, 3, &byte, 2);
    assert_int_equal(trn_sched_submit(f->s, b, &o[3].sop), -1);
    assert_false(is_done(&f->r, 3));
    trn_sched_fence_release(f->s, fe);
    trn_sched_stream_release(f->s, b);
}

/* Regression test.
 * Rule (trn_sched_shutdown): "completes every queued op and marker with
 * TRN_SCHED_SHUTDOWN". A stream that reaches a wait marker on an unsignalled
 * fence *during* shutdown (its op was running when shutdown began) parks on
 * the fence after cancel_unstarted's sweep of parked streams, and nothing
 * sweeps again: sched.c stream_advance_one parks a wait marker even when
 * s->stopping. Shutdown returns with the wait marker and the op behind it
 * never completed (their callbacks never run; the stream and fence leak). */
static void test_shutdown_completes_stream_parking_during_shutdown(void **state) {
    fx *f = *state;
    fx_start(f, 2, 0);
    unsigned char bytes[2] = {0, 0};
    trn_sched_fence *fe = trn_sched_fence_create(f->s);
    trn_sched_stream *a = trn_sched_stream_create(f->s, NULL),
                     *b = trn_sched_stream_create(f->s, NULL),
                     *c = trn_sched_stream_create(f->s, NULL);
    test_op *o = f->ops;
    op_gate(&o[0], &f->r, 0, f->g, 0);
    op_wait(&o[1], &f->r, 1, fe);
    op_byte(&o[2], &f->r, 2, &bytes[0], 1);
    op_gate(&o[3], &f->r, 3, f->g, 1);
    op_byte(&o[4], &f->r, 4, &bytes[1], 1);
    submit(f->s, a, &o[0]);
    submit(f->s, a, &o[1]);
    submit(f->s, a, &o[2]);
    submit(f->s, b, &o[3]);
    gate_wait_entered(f->g, 0);
    gate_wait_entered(f->g, 1);
    submit(f->s, c, &o[4]); /* no worker free: still queued */
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, shutdown_thread, f->s), 0);
    wait_done(&f->r, 4); /* shutdown has begun */
    gate_open(f->g, 0);
    gate_open(f->g, 1);
    assert_int_equal(pthread_join(th, NULL), 0);
    /* Record, release, then assert, so that a failure leaks nothing (the
     * fixture's second shutdown drains a stream left parked). */
    const int w_done = is_done(&f->r, 1), a2_done = is_done(&f->r, 2);
    trn_sched_fence_release(f->s, fe);
    trn_sched_stream_release(f->s, a);
    trn_sched_stream_release(f->s, b);
    trn_sched_stream_release(f->s, c);
    expect_status(&f->r, 4, TRN_SCHED_SHUTDOWN);
    expect_status(&f->r, 0, TRN_SCHED_OK);
    expect_status(&f->r, 3, TRN_SCHED_OK);
    assert_int_equal(bytes[0], 0);
    assert_int_equal(w_done, 1); /* fails: 0, parked for good */
    assert_int_equal(f->r.status[1], TRN_SCHED_SHUTDOWN);
    assert_int_equal(a2_done, 1);
    assert_int_equal(f->r.status[2], TRN_SCHED_SHUTDOWN);
}

/* ---- deadlines ------------------------------------------------------------------------------- */

/* Rule: an op that has not started by its deadline completes with EXPIRED,
 * and everything queued behind it on its stream with CANCELLED. Stream s:
 * G (gated, no deadline), X (deadline 20 ms ahead), Y, R (record f), Z. X's
 * callback must come while G is still held at its gate, i.e. from the
 * deadline, not from the stream advancing when G ends. G then completes OK;
 * none of X, Y, Z ran; f is signalled (a cancelled record); the tenant's
 * usage counts one expired op; the stream keeps working. */
static void test_deadline_expires_op_queued_behind(void **state) {
    fx *f = *state;
    fx_start(f, 1, 0);
    unsigned char bytes[4] = {0, 0, 0, 0};
    trn_sched_tenant *t = trn_sched_tenant_create(f->s, 1.0);
    trn_sched_stream *s = trn_sched_stream_create(f->s, t);
    trn_sched_fence *fe = trn_sched_fence_create(f->s);
    test_op *o = f->ops;
    op_gate(&o[0], &f->r, 0, f->g, 0);
    submit(f->s, s, &o[0]);
    gate_wait_entered(f->g, 0);
    op_byte(&o[1], &f->r, 1, &bytes[0], 1);
    op_byte(&o[2], &f->r, 2, &bytes[1], 1);
    op_record(&o[3], &f->r, 3, fe);
    op_byte(&o[4], &f->r, 4, &bytes[2], 1);
    const uint64_t dl = trn_sched_now_ns() + 20 * MS;
    o[1].sop.deadline_ns = dl;
    for (int i = 1; i <= 4; i++)
        submit(f->s, s, &o[i]);

    wait_count(&f->r, 4); /* X, Y, R, Z: while G is held */
    assert_false(is_done(&f->r, 0));
    expect_status(&f->r, 1, TRN_SCHED_EXPIRED);
    assert_true(f->r.t_done[1] >= dl);
    for (int i = 2; i <= 4; i++)
        expect_status(&f->r, i, TRN_SCHED_CANCELLED);
    assert_int_equal(trn_sched_fence_query(f->s, fe, NULL), 1);
    expect_not_run_timestamps(&o[1].sop);
    expect_not_run_timestamps(&o[2].sop);
    expect_stats(f->s, 0, 1);
    trn_sched_usage u;
    trn_sched_tenant_usage(f->s, t, &u);
    assert_int_equal(u.expired, 1);
    assert_int_equal(u.ops, 0);

    gate_open(f->g, 0);
    wait_done(&f->r, 0);
    expect_status(&f->r, 0, TRN_SCHED_OK);
    for (int i = 0; i < 3; i++)
        assert_int_equal(bytes[i], 0);
    assert_int_equal(ran(f->g, &bytes[0]) + ran(f->g, &bytes[1]) + ran(f->g, &bytes[2]), 0);

    op_byte(&o[5], &f->r, 5, &bytes[3], 5);
    submit(f->s, s, &o[5]);
    wait_done(&f->r, 5);
    expect_status(&f->r, 5, TRN_SCHED_OK);
    assert_int_equal(bytes[3], 5);
    trn_sched_tenant_usage(f->s, t, &u);
    assert_int_equal(u.expired, 1);
    assert_int_equal(u.ops, 2);
    trn_sched_fence_release(f->s, fe);
    trn_sched_stream_release(f->s, s);
    trn_sched_tenant_release(f->s, t);
    expect_stats(f->s, 0, 0);
}

/* Rule: as above, for an op at the head of its stream that waits for a
 * worker (the only core worker is held by G on another stream): X expires
 * from the ready queue at its deadline, Y behind it is cancelled, G is still
 * held. */
static void test_deadline_expires_op_waiting_for_worker(void **state) {
    fx *f = *state;
    fx_start(f, 1, 0);
    unsigned char bytes[2] = {0, 0};
    trn_sched_tenant *t = trn_sched_tenant_create(f->s, 1.0);
    trn_sched_stream *a = trn_sched_stream_create(f->s, NULL),
                     *b = trn_sched_stream_create(f->s, t);
    test_op *o = f->ops;
    op_gate(&o[0], &f->r, 0, f->g, 0);
    submit(f->s, a, &o[0]);
    gate_wait_entered(f->g, 0);
    op_byte(&o[1], &f->r, 1, &bytes[0], 1);
    op_byte(&o[2], &f->r, 2, &bytes[1], 1);
    const uint64_t dl = trn_sched_now_ns() + 20 * MS;
    o[1].sop.deadline_ns = dl;
    submit(f->s, b, &o[1]);
    submit(f->s, b, &o[2]);
    wait_count(&f->r, 2);
    assert_false(is_done(&f->r, 0));
    expect_status(&f->r, 1, TRN_SCHED_EXPIRED);
    expect_status(&f->r, 2, TRN_SCHED_CANCELLED);
    assert_true(f->r.t_done[1] >= dl);
    assert_true(o[1].sop.t_ready >= o[1].sop.t_submit); /* it was ready ... */
    expect_not_run_timestamps(&o[1].sop);               /* ... and never started */
    expect_stats(f->s, 0, 1);
    trn_sched_usage u;
    trn_sched_tenant_usage(f->s, t, &u);
    assert_int_equal(u.expired, 1);
    assert_int_equal(u.ops, 0);
    assert_int_equal(u.queue_ns, 0);
    gate_open(f->g, 0);
    wait_done(&f->r, 0);
    assert_int_equal(bytes[0] + bytes[1], 0);
    trn_sched_stream_release(f->s, a);
    trn_sched_stream_release(f->s, b);
    trn_sched_tenant_release(f->s, t);
    expect_stats(f->s, 0, 0);
}

/* Rule: a deadline already past when the op reaches its stream's head
 * expires it at once, without running it. */
static void test_deadline_already_past(void **state) {
    fx *f = *state;
    fx_start(f, 1, 0);
    unsigned char bytes[2] = {0, 0};
    trn_sched_tenant *t = trn_sched_tenant_create(f->s, 1.0);
    trn_sched_stream *s = trn_sched_stream_create(f->s, t);
    test_op *o = f->ops;
    op_byte(&o[0], &f->r, 0, &bytes[0], 1);
    o[0].sop.deadline_ns = trn_sched_now_ns() - 1;
    submit(f->s, s, &o[0]);
    wait_done(&f->r, 0);
    expect_status(&f->r, 0, TRN_SCHED_EXPIRED);
    op_byte(&o[1], &f->r, 1, &bytes[1], 2); /* submitted after: unaffected */
    submit(f->s, s, &o[1]);
    wait_done(&f->r, 1);
    expect_status(&f->r, 1, TRN_SCHED_OK);
    assert_int_equal(bytes[0], 0);
    assert_int_equal(bytes[1], 2);
    trn_sched_usage u;
    trn_sched_tenant_usage(f->s, t, &u);
    assert_int_equal(u.expired, 1);
    assert_int_equal(u.ops, 1);
    trn_sched_stream_release(f->s, s);
    trn_sched_tenant_release(f->s, t);
    expect_stats(f->s, 0, 0);
}

/* Waits until `want` shards are in gate `gate` (1) or op `index` has
 * completed (0). */
static int entered_or_done(fx *f, int gate, int want, int index) {
    const uint64_t end = trn_sched_now_ns() + (uint64_t)WAIT_S * 1000 * MS;
    while (trn_sched_now_ns() < end) {
        if (gate_entered(f->g, gate) >= want)
            return 1;
        if (is_done(&f->r, index))
            return gate_entered(f->g, gate) >= want;
        sleep_ns(MS);
    }
    fail_msg("op %d neither reached gate %d nor completed within %d s", index, gate, WAIT_S);
    return 0;
}

/* Submits t (an op held at gate `gate`) on s with a deadline `margin` ahead
 * and returns the deadline once the op has started, i.e. reached the gate.
 * On the noisy VM the idle worker could be slow enough to take it that it
 * expires first: then 0 is returned, and the caller retries with a larger
 * margin (so the test never depends on how fast a worker wakes up). */
static uint64_t start_before_deadline(fx *f, trn_sched_stream *s, test_op *t, int gate,
                                      uint64_t margin) {
    t->sop.deadline_ns = trn_sched_now_ns() + margin;
    submit(f->s, s, t);
    if (entered_or_done(f, gate, 1, t->index))
        return t->sop.deadline_ns;
    expect_status(&f->r, t->index, TRN_SCHED_EXPIRED);
    return 0;
}

/* Rule: "A started op always finishes." A gated op with a deadline is taken
 * by the idle worker before its deadline; the deadline passes while it is
 * held inside the kernel; it completes OK and nothing counts as expired. */
static void test_deadline_started_op_finishes(void **state) {
    fx *f = *state;
    fx_start(f, 1, 0);
    trn_sched_tenant *t = trn_sched_tenant_create(f->s, 1.0);
    trn_sched_stream *s = trn_sched_stream_create(f->s, t);
    test_op *o = f->ops;
    uint64_t dl = 0;
    int idx = 0;
    for (uint64_t margin = 100 * MS; !dl && margin <= 1600 * MS; margin *= 4, idx++) {
        op_gate(&o[idx], &f->r, idx, f->g, 0);
        dl = start_before_deadline(f, s, &o[idx], 0, margin);
    }
    if (!dl)
        fail_msg("the op expired before it started, with every margin");
    const int last = idx - 1;
    sleep_until(dl + 30 * MS); /* past the deadline, and time for a timer to fire */
    assert_false(is_done(&f->r, last));
    gate_open(f->g, 0);
    wait_done(&f->r, last);
    expect_status(&f->r, last, TRN_SCHED_OK);
    assert_true(o[last].sop.t_start < dl);
    assert_true(o[last].sop.t_end >= dl);
    trn_sched_usage u;
    trn_sched_tenant_usage(f->s, t, &u);
    assert_int_equal(u.expired, (uint64_t)last); /* only earlier attempts, if any */
    assert_int_equal(u.ops, 1);
    trn_sched_stream_release(f->s, s);
    trn_sched_tenant_release(f->s, t);
    expect_stats(f->s, 0, 0);
}

/* Rule: "An op counts as started (and will finish) once any of its shards has
 * been taken by a worker." Worker 1 is held by G1; a big memset P (2 shards)
 * with a deadline starts its shard 0 on worker 0 (held at gate 0); the
 * deadline passes while shard 1 still waits for a worker; once G1 ends,
 * shard 1 runs too and P completes OK with every byte written. */
static void test_deadline_partly_dispatched_op_finishes(void **state) {
    fx *f = *state;
    fx_start(f, 2, 0);
    unsigned char *p = calloc(1, MEM_SPLIT);
    assert_non_null(p);
    trn_sched_tenant *t = trn_sched_tenant_create(f->s, 1.0);
    trn_sched_stream *a = trn_sched_stream_create(f->s, NULL),
                     *s = trn_sched_stream_create(f->s, t);
    test_op *o = f->ops;
    op_gate(&o[0], &f->r, 0, f->g, 1);
    submit(f->s, a, &o[0]);
    gate_wait_entered(f->g, 1);
    f->g->gate[0] = p;
    uint64_t dl = 0;
    int idx = 1;
    for (uint64_t margin = 100 * MS; !dl && margin <= 1600 * MS; margin *= 4, idx++) {
        op_memset(&o[idx], &f->r, idx, p, 0x3c, MEM_SPLIT);
        dl = start_before_deadline(f, s, &o[idx], 0, margin);
    }
    if (!dl)
        fail_msg("the op expired before it started, with every margin");
    const int last = idx - 1;
    sleep_until(dl + 30 * MS);
    assert_false(is_done(&f->r, last));
    assert_int_equal(gate_entered(f->g, 0), 1); /* shard 1 has not started */
    gate_open(f->g, 1);                         /* worker 1 takes shard 1 */
    gate_wait_entered_n(f->g, 0, 2);
    gate_open(f->g, 0);
    wait_done(&f->r, last);
    wait_done(&f->r, 0);
    expect_status(&f->r, last, TRN_SCHED_OK);
    const seen sn = seen_of(f->g, p);
    assert_int_equal(sn.starts, 2);
    assert_int_equal(sn.nshards, 2);
    int all = 1;
    for (size_t i = 0; i < MEM_SPLIT; i++)
        all &= p[i] == 0x3c;
    assert_true(all);
    trn_sched_usage u;
    trn_sched_tenant_usage(f->s, t, &u);
    assert_int_equal(u.expired, (uint64_t)(last - 1));
    assert_int_equal(u.ops, 1);
    assert_int_equal(u.shards, 2);
    trn_sched_stream_release(f->s, a);
    trn_sched_stream_release(f->s, s);
    trn_sched_tenant_release(f->s, t);
    expect_stats(f->s, 0, 0);
    free(p);
}

/* Regression test.
 * Rule (sched.c complete_active, and test_sched.c's callback-order test):
 * every callback of an op completes before anything queued behind it on its
 * stream does. An expired op's EXPIRED callback used to come after the
 * CANCELLED callbacks of the ops behind it (expire_op pushed them first), so
 * a Synchronize behind it returned before the op's own error was known
 * (fixed in 773714a). */
static void test_deadline_callbacks_in_stream_order(void **state) {
    fx *f = *state;
    fx_start(f, 1, 0);
    unsigned char bytes[2] = {0, 0};
    trn_sched_stream *s = trn_sched_stream_create(f->s, NULL);
    test_op *o = f->ops;
    op_gate(&o[0], &f->r, 0, f->g, 0);
    submit(f->s, s, &o[0]);
    gate_wait_entered(f->g, 0);
    op_byte(&o[1], &f->r, 1, &bytes[0], 1);
    op_byte(&o[2], &f->r, 2, &bytes[1], 1);
    op_marker(&o[3], &f->r, 3);
    o[1].sop.deadline_ns = trn_sched_now_ns() + 20 * MS;
    submit(f->s, s, &o[1]);
    submit(f->s, s, &o[2]);
    submit(f->s, s, &o[3]);
    wait_count(&f->r, 3);
    gate_open(f->g, 0);
    wait_done(&f->r, 0);
    trn_sched_stream_release(f->s, s);
    expect_status(&f->r, 1, TRN_SCHED_EXPIRED);
    expect_status(&f->r, 2, TRN_SCHED_CANCELLED);
    expect_status(&f->r, 3, TRN_SCHED_CANCELLED);
    assert_true(f->r.seen_before[1] < f->r.seen_before[2]);
    assert_true(f->r.seen_before[2] < f->r.seen_before[3]);
}

/* ---- timers ------------------------------------------------------------------------------------
 */

/* Rule: "Disarms t. Returns 1 if it was disarmed before firing, 0 if it has
 * fired (or is firing) or was never armed." B is stopped before its time and
 * never fires; A fires once, not early, and stopping it afterwards returns 0;
 * stopping a never-armed timer returns 0; a fired timer can be armed again;
 * re-arming an armed timer moves it (it fires once, at the new time). */
static void test_timer_start_stop(void **state) {
    fx *f = *state;
    fx_start(f, 1, 0);
    tstate *ts = &f->ts;
    ttimer *tt = calloc(4, sizeof(*tt));
    assert_non_null(tt);
    ttimer *a = &tt[0], *b = &tt[1], *never = &tt[2], *moved = &tt[3];
    const uint64_t now = trn_sched_now_ns();
    tt_init(a, ts, 1, now + 30 * MS);
    tt_init(b, ts, 2, now + 100 * MS);
    tt_init(never, ts, 3, now);
    tt_init(moved, ts, 4, now + 10000 * MS);
    trn_sched_timer_start(f->s, &a->t);
    trn_sched_timer_start(f->s, &b->t);
    trn_sched_timer_start(f->s, &moved->t);
    assert_int_equal(trn_sched_timer_stop(f->s, &b->t), 1);
    moved->t.when_ns = now + 40 * MS;
    trn_sched_timer_start(f->s, &moved->t);

    tt_wait_fired(a, 1);
    tt_wait_fired(moved, 1);
    assert_true(a->first_fired_at >= a->t.when_ns);
    assert_true(moved->first_fired_at >= now + 40 * MS);
    sleep_until(now + 160 * MS); /* well past B's time */
    assert_int_equal(tt_fired(b), 0);
    assert_int_equal(tt_fired(a), 1);
    assert_int_equal(tt_fired(moved), 1);
    assert_int_equal(trn_sched_timer_stop(f->s, &a->t), 0);
    assert_int_equal(trn_sched_timer_stop(f->s, &b->t), 0);
    assert_int_equal(trn_sched_timer_stop(f->s, &never->t), 0);
    assert_int_equal(trn_sched_timer_stop(f->s, &moved->t), 0);

    a->t.when_ns = trn_sched_now_ns() + 5 * MS; /* re-arm after firing */
    trn_sched_timer_start(f->s, &a->t);
    tt_wait_fired(a, 2);
    assert_int_equal(trn_sched_timer_stop(f->s, &a->t), 0);
    free(tt);
}

/* Rule: timers fire at their time, in deadline order, whatever order they
 * were armed in. Four timers 40 ms apart, armed in scrambled order, fire in
 * deadline order, none early; a stopped one in between never fires. (Timers
 * that are due together are the next test's subject.) */
static void test_timer_deadline_order(void **state) {
    fx *f = *state;
    fx_start(f, 1, 0);
    tstate *ts = &f->ts;
    enum { NT = 5 };
    static const int at_ms[NT] = {120, 40, 160, 80, 100}; /* id i+1 at at_ms[i] */
    ttimer *tt = calloc(NT, sizeof(*tt));
    assert_non_null(tt);
    const uint64_t now = trn_sched_now_ns();
    for (int i = 0; i < NT; i++) {
        tt_init(&tt[i], ts, i + 1, now + (uint64_t)at_ms[i] * MS);
        trn_sched_timer_start(f->s, &tt[i].t);
    }
    assert_int_equal(trn_sched_timer_stop(f->s, &tt[4].t), 1); /* the 100 ms one */
    tt_wait_fired(&tt[2], 1);                                  /* the last */
    sleep_ns(20 * MS);
    pthread_mutex_lock(&ts->lock);
    const int n = ts->n;
    int order[NT] = {0};
    memcpy(order, ts->order, sizeof(int) * (size_t)(n < NT ? n : NT));
    pthread_mutex_unlock(&ts->lock);
    assert_int_equal(n, 4);
    assert_int_equal(order[0], 2);
    assert_int_equal(order[1], 4);
    assert_int_equal(order[2], 1);
    assert_int_equal(order[3], 3);
    for (int i = 0; i < 4; i++)
        assert_true(tt[i].first_fired_at >= tt[i].t.when_ns);
    assert_int_equal(tt_fired(&tt[4]), 0);
    free(tt);
}

/* Regression test.
 * Rule: timers fire in deadline order. Timers that are due together (here:
 * armed while the timer thread is busy in another timer's fire()) fire in
 * reverse deadline order: sched.c timer_main pushes each due timer on the
 * front of done.fired, and run_completions walks that list from the front. */
static void test_timers_due_together_fire_in_deadline_order(void **state) {
    fx *f = *state;
    fx_start(f, 1, 0);
    tstate *ts = &f->ts;
    enum { NT = 4 };
    static const int at_ms[NT] = {4, 1, 3, 2};
    ttimer *tt = calloc(NT + 1, sizeof(*tt));
    assert_non_null(tt);
    tt_block(ts, &tt[NT]);
    const uint64_t now = trn_sched_now_ns();
    for (int i = 0; i < NT; i++) {
        tt_init(&tt[i], ts, i + 1, now + (uint64_t)at_ms[i] * MS);
        trn_sched_timer_start(f->s, &tt[i].t);
    }
    sleep_until(now + 10 * MS); /* all due */
    tt_unblock(ts);
    for (int i = 0; i < NT; i++)
        tt_wait_fired(&tt[i], 1);
    pthread_mutex_lock(&ts->lock);
    int order[NT + 1];
    memcpy(order, ts->order, sizeof(order));
    const int n = ts->n;
    pthread_mutex_unlock(&ts->lock);
    free(tt);
    assert_int_equal(n, NT + 1);
    assert_int_equal(order[0], 0); /* the blocker */
    print_message("fired: %d %d %d %d (deadline order: 2 4 3 1)\n", order[1], order[2], order[3],
                  order[4]);
    assert_int_equal(order[1], 2); /* fails: 1, the latest deadline first */
    assert_int_equal(order[2], 4);
    assert_int_equal(order[3], 3);
    assert_int_equal(order[4], 1);
}

/* Regression test.
 * Rule: "Arms t to call t->fire(t) on the timer thread at t->when_ns."
 * Timers A and B are due together (as above); C is due 300 ms later.
 * Whichever of A and B fires first re-arms the other (150 ms later) from its
 * fire(). sched.c chains due timers into done.fired through t->link.next,
 * the same link the armed list uses; re-arming a timer still on that chain
 * relinks it into s->timers, and run_completions then follows its new
 * link.next into the armed list: it fires C (300 ms early), cuts C out of the
 * armed list while C->armed stays 1, so trn_sched_timer_stop(C) later returns
 * 1 and unlinks C through a stale prev pointer. The same happens when another
 * thread re-arms a timer between the timer thread's unlock and its fire()
 * call. */
static void test_timer_rearmed_while_due(void **state) {
    fx *f = *state;
    fx_start(f, 1, 0);
    tstate *ts = &f->ts;
    ttimer *tt = calloc(4, sizeof(*tt));
    assert_non_null(tt);
    ttimer *a = &tt[0], *b = &tt[1], *c = &tt[2];
    tt_block(ts, &tt[3]);
    const uint64_t now = trn_sched_now_ns();
    tt_init(a, ts, 1, now + 1 * MS);
    tt_init(b, ts, 2, now + 2 * MS);
    tt_init(c, ts, 3, now + 300 * MS);
    a->partner = b;
    b->partner = a;
    trn_sched_timer_start(f->s, &c->t);
    trn_sched_timer_start(f->s, &a->t);
    trn_sched_timer_start(f->s, &b->t);
    sleep_until(now + 10 * MS);
    tt_unblock(ts);
    tt_wait_fired(c, 1);
    ttimer *re = NULL;
    pthread_mutex_lock(&ts->lock);
    re = a->rearmed ? a : b->rearmed ? b : NULL;
    pthread_mutex_unlock(&ts->lock);
    assert_non_null(re);
    /* The re-armed one fires at its new time (it may also have fired once
     * before, as it was already due when it was re-armed). */
    struct timespec dl;
    deadline_in(&dl, WAIT_S);
    pthread_mutex_lock(&ts->lock);
    while (!(re->fired && re->last_fired_at >= re->rearm_when) &&
           pthread_cond_timedwait(&ts->cond, &ts->lock, &dl) != ETIMEDOUT) {
    }
    const int re_fired = re->fired;
    const int re_on_time = re->fired && re->last_fired_at >= re->rearm_when;
    const int c_fired = c->fired;
    const uint64_t c_at = c->first_fired_at;
    pthread_mutex_unlock(&ts->lock);
    sleep_ns(20 * MS);
    const int c_stop = trn_sched_timer_stop(f->s, &c->t);
    const int c_fired_later = tt_fired(c);
    free(tt);
    assert_true(re_on_time);
    assert_true(re_fired <= 2);
    assert_int_equal(c_fired, 1);
    print_message(
        "C fired %.1f ms %s its time\n",
        (double)(c_at > now + 300 * MS ? c_at - (now + 300 * MS) : now + 300 * MS - c_at) / 1e6,
        c_at >= now + 300 * MS ? "after" : "BEFORE");
    assert_true(c_at >= now + 300 * MS); /* fails: C fires ~300 ms early */
    assert_int_equal(c_stop, 0);         /* fails: 1, C still marked armed */
    assert_int_equal(c_fired_later, 1);
}

/* ---- stages ------------------------------------------------------------------------------------
 */

/* A two-stage op: a copy (copy engine) into gate 0, then a 1x1x1 GEMM into
 * *c (core). */
static void op_two_stage(test_op *t, rec *r, int index, fb *g, const void *src, float *c) {
    op_copy(t, r, index, (void *)g->gate[0], src, 4);
    test_op then;
    op_gemm(&then, r, index, c);
    t->sop.then[0] = then.sop.desc;
    t->sop.nthen = 1;
}

/* A copy, then a 1x1 GEMM, whose copy may run on any engine. */
static void op_anywhere(test_op *t, rec *r, int index, void *dst, const void *src, float *c) {
    op_copy(t, r, index, dst, src, 4);
    test_op then;
    op_gemm(&then, r, index, c);
    t->sop.then[0] = then.sop.desc;
    t->sop.nthen = 1;
    t->sop.first_stage_anywhere = 1;
}

/* Rule: a first stage that may run anywhere (a format conversion) takes the
 * cores when they have no shard running or waiting, and its own engine
 * when they are busy, so that it overlaps their work. 1 core + 1 copy
 * worker: A on an idle scheduler converts on the core; B, a gated GEMM on
 * stream 2, holds the core while C (stream 1) converts on the copy worker. */
static void test_first_stage_anywhere(void **state) {
    fx *f = *state;
    f->g->mem_engine = TRN_ENGINE_COPY;
    fx_start(f, 1, 1);
    static const unsigned char src[4] = {1, 2, 3, 4};
    unsigned char da[4] = {0}, dc[4] = {0};
    float ca = 0, cc = 0;
    trn_sched_stream *s1 = trn_sched_stream_create(f->s, NULL),
                     *s2 = trn_sched_stream_create(f->s, NULL);
    test_op *o = f->ops;
    op_anywhere(&o[0], &f->r, 0, da, src, &ca);
    submit(f->s, s1, &o[0]);
    wait_done(&f->r, 0);
    expect_status(&f->r, 0, TRN_SCHED_OK);
    assert_memory_equal(da, src, sizeof(src));
    assert_true(ca == 1.0f);
    assert_int_equal(o[0].sop.stage_times[0].engine, TRN_ENGINE_CORE);
    assert_int_equal(o[0].sop.stage_times[1].engine, TRN_ENGINE_CORE);

    op_gemm(&o[1], &f->r, 1, f->g->gate_buf[1]); /* core, gate 1 */
    submit(f->s, s2, &o[1]);
    gate_wait_entered(f->g, 1);
    op_anywhere(&o[2], &f->r, 2, dc, src, &cc);
    submit(f->s, s1, &o[2]);
    /* Its copy runs while the core is held (bounded wait, no timing asserted). */
    for (int i = 0; i < 200 && memcmp(dc, src, sizeof(src)) != 0; i++)
        settle();
    assert_memory_equal(dc, src, sizeof(src));
    assert_false(is_done(&f->r, 2)); /* its GEMM waits for the core */
    gate_open(f->g, 1);
    wait_count(&f->r, 3);
    expect_status(&f->r, 2, TRN_SCHED_OK);
    assert_true(cc == 1.0f);
    assert_int_equal(o[2].sop.stage_times[0].engine, TRN_ENGINE_COPY);
    assert_int_equal(o[2].sop.stage_times[1].engine, TRN_ENGINE_CORE);
    trn_sched_stream_release(f->s, s1);
    trn_sched_stream_release(f->s, s2);
}

/* Rule: an op's stages run in order, each on its own engine, while other
 * ops' stages use the other engines; the op holds its stream from its first
 * stage to its last; per-stage timestamps say where and when each ran.
 * 1 core + 1 copy worker: A = copy (gated) then GEMM, on stream 1; B = a
 * gated GEMM on stream 2. A's copy and B's GEMM are inside run() together;
 * A's GEMM waits for A's copy even though the core is free once B is done;
 * C, behind A on stream 1, waits for A's last stage. */
static void test_stages_run_on_their_engines(void **state) {
    fx *f = *state;
    f->g->mem_engine = TRN_ENGINE_COPY;
    fx_start(f, 1, 1);
    static const unsigned char src[4] = {9, 8, 7, 6};
    float c = 0;
    unsigned char m = 0;
    trn_sched_stream *s1 = trn_sched_stream_create(f->s, NULL),
                     *s2 = trn_sched_stream_create(f->s, NULL);
    test_op *o = f->ops;
    op_two_stage(&o[0], &f->r, 0, f->g, src, &c);
    op_gemm(&o[1], &f->r, 1, f->g->gate_buf[1]); /* core, gate 1 */
    op_byte(&o[2], &f->r, 2, &m, 5);             /* copy engine, behind A */
    submit(f->s, s1, &o[0]);
    submit(f->s, s2, &o[1]);
    submit(f->s, s1, &o[2]);
    gate_wait_entered(f->g, 0);
    gate_wait_entered(f->g, 1); /* A's copy and B's GEMM at once */
    gate_open(f->g, 1);
    wait_done(&f->r, 1);
    settle();
    assert_int_equal(ran(f->g, &c), 0); /* the core is idle, but A's copy is not done */
    assert_false(is_done(&f->r, 0));
    gate_open(f->g, 0);
    wait_count(&f->r, 3);
    expect_status(&f->r, 0, TRN_SCHED_OK);
    expect_status(&f->r, 2, TRN_SCHED_OK);
    assert_true(c == 1.0f);
    assert_memory_equal(f->g->gate_buf[0], src, sizeof(src));
    assert_int_equal(seen_of(f->g, f->g->gate_buf[0]).cores_max, -1); /* a copy worker */
    assert_int_equal(seen_of(f->g, &c).cores_min, 0);                 /* the core */
    const void *keys[3] = {f->g->gate_buf[0], &c, &m};
    check_keys_in_order(f->g, keys, 3);
    const trn_sched_op *a = &o[0].sop;
    const trn_sched_stage_times *t0 = &a->stage_times[0], *t1 = &a->stage_times[1];
    assert_int_equal(t0->engine, TRN_ENGINE_COPY);
    assert_int_equal(t1->engine, TRN_ENGINE_CORE);
    assert_int_equal(a->engine, TRN_ENGINE_CORE);
    assert_true(a->t_ready == t0->t_ready && a->t_start == t0->t_start);
    assert_true(t0->t_ready <= t0->t_start && t0->t_start <= t0->t_end);
    assert_true(t0->t_end <= t1->t_ready && t1->t_ready <= t1->t_start);
    assert_true(t1->t_start <= t1->t_end && t1->t_end == a->t_end);
    assert_true(a->stage_times[2].t_start == 0); /* no third stage */
    /* B's GEMM ran while A's copy was held: their intervals overlap. */
    assert_true(o[1].sop.t_start < t0->t_end && t0->t_start < o[1].sop.t_end);
    expect_ran_timestamps(&o[2].sop);
    trn_sched_stream_release(f->s, s1);
    trn_sched_stream_release(f->s, s2);
}

/* Rule: a stage that fails ends its op (later stages do not run) with the
 * failure; the stream goes on. */
static void test_stage_failure_ends_op(void **state) {
    fx *f = *state;
    f->g->mem_engine = TRN_ENGINE_COPY;
    f->g->fail_key = f->g->gate_buf[0];
    fx_start(f, 1, 1);
    gate_open(f->g, 0);
    static const unsigned char src[4] = {1, 1, 1, 1};
    float c = 0;
    unsigned char m = 0;
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    test_op *o = f->ops;
    op_two_stage(&o[0], &f->r, 0, f->g, src, &c);
    op_byte(&o[1], &f->r, 1, &m, 3);
    submit(f->s, st, &o[0]);
    submit(f->s, st, &o[1]);
    wait_count(&f->r, 2);
    expect_status(&f->r, 0, TRN_SCHED_KERNEL_FAILED);
    expect_status(&f->r, 1, TRN_SCHED_OK);
    assert_int_equal(ran(f->g, &c), 0);
    assert_int_equal(m, 3);
    trn_sched_stream_release(f->s, st);
}

/* Rule: an op whose first stage has started finishes all its stages, even if
 * its stream is cancelled or the scheduler shuts down meanwhile (the core
 * worker must stay for the second stage of an op still on the copy engine). */
static void test_started_stages_finish(void **state) {
    fx *f = *state;
    f->g->mem_engine = TRN_ENGINE_COPY;
    fx_start(f, 1, 1);
    static const unsigned char src[4] = {4, 3, 2, 1};
    float c = 0;
    unsigned char m = 0;
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    test_op *o = f->ops;
    op_two_stage(&o[0], &f->r, 0, f->g, src, &c);
    op_byte(&o[1], &f->r, 1, &m, 3); /* behind it: cancelled */
    submit(f->s, st, &o[0]);
    submit(f->s, st, &o[1]);
    gate_wait_entered(f->g, 0);
    trn_sched_stream_cancel(f->s, st);
    wait_done(&f->r, 1);
    expect_status(&f->r, 1, TRN_SCHED_CANCELLED);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, shutdown_thread, f->s), 0);
    settle(); /* shutdown waits for the started op */
    assert_false(is_done(&f->r, 0));
    gate_open(f->g, 0);
    assert_int_equal(pthread_join(th, NULL), 0);
    expect_status(&f->r, 0, TRN_SCHED_OK);
    assert_true(c == 1.0f); /* the second stage ran on the core */
    assert_int_equal(m, 0);
    trn_sched_stream_release(f->s, st);
}

/* ---- run-ahead ------------------------------------------------------------------------------- */

/* X: a GEMM into gate 1's buffer (core, held at gate 1) that declares what
 * it writes (its C, or `writes` when not NULL); Y: op_two_stage (a copy from
 * src into gate 0's buffer, copy engine, then a GEMM into *c) whose copy
 * may run ahead, reading src. */
static void op_front(test_op *t, rec *r, int index, fb *g, const void *writes, int known) {
    op_gemm(t, r, index, g->gate_buf[1]);
    const uintptr_t w = (uintptr_t)(writes ? writes : (const void *)g->gate_buf[1]);
    t->sop.writes_known = known;
    t->sop.nwrites = 1;
    t->sop.writes[0] = (trn_span){w, w + 4};
}

static void op_behind(test_op *t, rec *r, int index, fb *g, const void *src, float *c) {
    op_two_stage(t, r, index, g, src, c);
    t->sop.first_stage_ahead = 1;
    t->sop.nahead_reads = 1;
    t->sop.ahead_reads[0] = (trn_span){(uintptr_t)src, (uintptr_t)src + 4};
}

/* Rule (run-ahead): the op behind the active one on a stream starts its
 * first stage (a conversion) while the active op runs, when the active op
 * declared its writes and they miss what the stage reads; its later stages
 * wait for their turn, and the callbacks keep stream order. 1 core, 1 copy
 * worker: Y's copy reaches its gate while X is held at its own. */
static void test_first_stage_runs_ahead(void **state) {
    fx *f = *state;
    f->g->mem_engine = TRN_ENGINE_COPY;
    fx_start(f, 1, 1);
    static const unsigned char src[4] = {5, 6, 7, 8};
    float c = 0;
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    test_op *o = f->ops;
    op_front(&o[0], &f->r, 0, f->g, NULL, 1);
    op_behind(&o[1], &f->r, 1, f->g, src, &c);
    submit(f->s, st, &o[0]);
    submit(f->s, st, &o[1]);
    gate_wait_entered(f->g, 1);
    gate_wait_entered(f->g, 0); /* Y's copy while X runs */
    gate_open(f->g, 0);
    settle();
    assert_false(is_done(&f->r, 1)); /* its GEMM waits for X */
    assert_true(c == 0.0f);
    expect_stats(f->s, 1, 1); /* Y still counts as queued */
    gate_open(f->g, 1);
    wait_count(&f->r, 2);
    expect_status(&f->r, 0, TRN_SCHED_OK);
    expect_status(&f->r, 1, TRN_SCHED_OK);
    assert_true(c == 1.0f);
    assert_memory_equal(f->g->gate_buf[0], src, sizeof(src));
    const trn_sched_op *x = &o[0].sop, *y = &o[1].sop;
    assert_true(y->stage_times[0].t_start < x->t_end);  /* overlapped X */
    assert_true(y->stage_times[1].t_start >= x->t_end); /* in its turn */
    assert_int_equal(y->stage_times[0].engine, TRN_ENGINE_COPY);
    expect_ran_timestamps(x);
    expect_ran_timestamps(y);
    expect_stats(f->s, 0, 0);
    trn_sched_stream_release(f->s, st);
}

/* Rule: no run-ahead when the active op's writes overlap what the first
 * stage reads, or when it did not declare them: Y's copy waits for X. */
static void test_no_run_ahead_over_writes(void **state) {
    fx *f = *state;
    f->g->mem_engine = TRN_ENGINE_COPY;
    fx_start(f, 1, 1);
    static const unsigned char src[4] = {1, 2, 3, 4};
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    test_op *o = f->ops;
    float c[2] = {0, 0};
    for (int round = 0; round < 2; round++) {
        gate_open(f->g, 0);
        op_front(&o[2 * round], &f->r, 2 * round, f->g, round == 0 ? src + 2 : NULL, round == 0);
        op_behind(&o[2 * round + 1], &f->r, 2 * round + 1, f->g, src, &c[round]);
        submit(f->s, st, &o[2 * round]);
        submit(f->s, st, &o[2 * round + 1]);
        gate_wait_entered_n(f->g, 1, round + 1);
        settle();
        assert_int_equal(ran(f->g, f->g->gate[0]), round); /* Y's copy has not started */
        gate_open(f->g, 1);
        wait_count(&f->r, 2 * round + 2);
        expect_status(&f->r, 2 * round + 1, TRN_SCHED_OK);
        assert_true(c[round] == 1.0f);
        pthread_mutex_lock(&f->g->lock);
        f->g->open[1] = 0; /* held again for the next round */
        pthread_mutex_unlock(&f->g->lock);
    }
    trn_sched_stream_release(f->s, st);
}

/* Rule: a first stage that fails ahead ends its op in its turn, after the
 * op in front, with the failure; its later stages do not run. */
static void test_run_ahead_failure_in_turn(void **state) {
    fx *f = *state;
    f->g->mem_engine = TRN_ENGINE_COPY;
    f->g->fail_key = f->g->gate[0];
    fx_start(f, 1, 1);
    gate_open(f->g, 0);
    static const unsigned char src[4] = {1, 1, 1, 1};
    float c = 0;
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    test_op *o = f->ops;
    op_front(&o[0], &f->r, 0, f->g, NULL, 1);
    op_behind(&o[1], &f->r, 1, f->g, src, &c);
    submit(f->s, st, &o[0]);
    submit(f->s, st, &o[1]);
    gate_wait_entered(f->g, 1);
    gate_wait_entered(f->g, 0); /* Y's copy ran, and failed, ahead */
    settle();
    assert_false(is_done(&f->r, 1)); /* not before X */
    gate_open(f->g, 1);
    wait_count(&f->r, 2);
    expect_status(&f->r, 0, TRN_SCHED_OK);
    expect_status(&f->r, 1, TRN_SCHED_KERNEL_FAILED);
    assert_true(c == 0.0f);
    expect_stats(f->s, 0, 0);
    trn_sched_stream_release(f->s, st);
}

/* Y': a one-stage copy from src into gate 0's buffer (copy engine) that
 * may run whole ahead, declaring what it reads and writes. */
static void op_whole_behind(test_op *t, rec *r, int index, fb *g, const void *src) {
    op_copy(t, r, index, (void *)g->gate[0], src, 4);
    t->sop.first_stage_ahead = 1;
    t->sop.nahead_reads = 1;
    t->sop.ahead_reads[0] = (trn_span){(uintptr_t)src, (uintptr_t)src + 4};
    t->sop.writes_known = 1;
    t->sop.nwrites = 1;
    t->sop.writes[0] = (trn_span){(uintptr_t)g->gate[0], (uintptr_t)g->gate[0] + 4};
}

/* Rule: an op of one stage runs whole ahead when, besides, what it writes
 * misses what the front op declared it reads and writes; its callback
 * comes in its turn. Not when it writes what the front op reads, nor when
 * the front op did not declare its reads. */
static void test_whole_op_runs_ahead(void **state) {
    fx *f = *state;
    f->g->mem_engine = TRN_ENGINE_COPY;
    fx_start(f, 1, 1);
    static const unsigned char src[4] = {7, 7, 7, 7};
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    test_op *o = f->ops;
    for (int round = 0; round < 3; round++) {
        test_op *x = &o[2 * round], *y = &o[2 * round + 1];
        op_front(x, &f->r, 2 * round, f->g, NULL, 1);
        const uintptr_t reads = round == 1 ? (uintptr_t)f->g->gate[0] : (uintptr_t)&one;
        x->sop.reads_known = round != 2;
        x->sop.nreads = 1;
        x->sop.reads[0] = (trn_span){reads, reads + 4};
        op_whole_behind(y, &f->r, 2 * round + 1, f->g, src);
        trn_sched_stats before;
        trn_sched_get_stats(f->s, &before);
        submit(f->s, st, x);
        submit(f->s, st, y);
        gate_wait_entered_n(f->g, 1, round + 1);
        if (round == 0) {
            gate_wait_entered(f->g, 0); /* Y's copy while X is held */
            gate_open(f->g, 0);
            settle();
            assert_false(is_done(&f->r, 1)); /* its callback waits for X */
        } else {
            settle();
            assert_int_equal(ran(f->g, f->g->gate[0]), round); /* the earlier rounds' */
        }
        trn_sched_stats after;
        trn_sched_get_stats(f->s, &after);
        assert_int_equal(after.ops_ahead - before.ops_ahead, round == 0);
        gate_open(f->g, 1);
        wait_count(&f->r, 2 * round + 2);
        expect_status(&f->r, 2 * round, TRN_SCHED_OK);
        expect_status(&f->r, 2 * round + 1, TRN_SCHED_OK);
        assert_true((y->sop.t_start < x->sop.t_end) == (round == 0));
        pthread_mutex_lock(&f->g->lock);
        f->g->open[1] = 0; /* held again for the next round */
        pthread_mutex_unlock(&f->g->lock);
    }
    assert_memory_equal(f->g->gate_buf[0], src, sizeof(src));
    trn_sched_stream_release(f->s, st);
}

/* Rule: an op whose first stage started ahead has started: a cancel of its
 * stream or shutdown lets it finish every stage in its turn (what is
 * behind it is cancelled). */
static void test_run_ahead_started_finishes(void **state) {
    fx *f = *state;
    f->g->mem_engine = TRN_ENGINE_COPY;
    fx_start(f, 1, 1);
    static const unsigned char src[4] = {9, 9, 9, 9};
    float c = 0;
    unsigned char m = 0;
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    test_op *o = f->ops;
    op_front(&o[0], &f->r, 0, f->g, NULL, 1);
    op_behind(&o[1], &f->r, 1, f->g, src, &c);
    op_byte(&o[2], &f->r, 2, &m, 3);
    submit(f->s, st, &o[0]);
    submit(f->s, st, &o[1]);
    submit(f->s, st, &o[2]);
    gate_wait_entered(f->g, 1);
    gate_wait_entered(f->g, 0);
    trn_sched_stream_cancel(f->s, st);
    wait_done(&f->r, 2);
    expect_status(&f->r, 2, TRN_SCHED_CANCELLED);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, shutdown_thread, f->s), 0);
    settle(); /* shutdown waits for X and Y */
    assert_false(is_done(&f->r, 0));
    assert_false(is_done(&f->r, 1));
    gate_open(f->g, 0);
    gate_open(f->g, 1);
    assert_int_equal(pthread_join(th, NULL), 0);
    expect_status(&f->r, 0, TRN_SCHED_OK);
    expect_status(&f->r, 1, TRN_SCHED_OK);
    assert_true(c == 1.0f);
    assert_int_equal(m, 0);
    trn_sched_stream_release(f->s, st);
}

/* Rule: an op queued ahead whose first stage has not started is taken back
 * by a cancel with the rest (1 core, 1 copy worker held by another
 * stream's copy: Y's copy waits for it). */
static void test_run_ahead_unstarted_cancelled(void **state) {
    fx *f = *state;
    f->g->mem_engine = TRN_ENGINE_COPY;
    fx_start(f, 1, 1);
    static const unsigned char src[4] = {3, 3, 3, 3};
    float c = 0;
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL),
                     *other = trn_sched_stream_create(f->s, NULL);
    test_op *o = f->ops;
    op_gate(&o[0], &f->r, 0, f->g, 2); /* the copy worker, held at gate 2 */
    op_front(&o[1], &f->r, 1, f->g, NULL, 1);
    op_behind(&o[2], &f->r, 2, f->g, src, &c);
    submit(f->s, other, &o[0]);
    gate_wait_entered(f->g, 2);
    submit(f->s, st, &o[1]);
    submit(f->s, st, &o[2]);
    gate_wait_entered(f->g, 1);
    trn_sched_stream_cancel(f->s, st);
    wait_done(&f->r, 2);
    expect_status(&f->r, 2, TRN_SCHED_CANCELLED);
    gate_open(f->g, 0);
    gate_open(f->g, 1);
    gate_open(f->g, 2);
    wait_count(&f->r, 3);
    expect_status(&f->r, 1, TRN_SCHED_OK);
    assert_int_equal(ran(f->g, f->g->gate[0]), 0);
    assert_true(c == 0.0f);
    expect_stats(f->s, 0, 0);
    trn_sched_stream_release(f->s, st);
    trn_sched_stream_release(f->s, other);
}

/* ---- engines ------------------------------------------------------------------------------------
 */

/* Rule: each engine has its own workers, so a copy on one stream overlaps a
 * core op on another. 1 core worker, 1 copy worker, memsets and copies on the
 * copy engine: a gated GEMM (core) and a gated copy (copy engine) are inside
 * run() at the same time. Worker info reports each worker's engine. On one
 * stream, a GEMM queued behind a gated copy does not start, although the
 * core worker is idle, until the copy ends (stream order across engines). */
static void test_engines_run_concurrently(void **state) {
    fx *f = *state;
    f->g->mem_engine = TRN_ENGINE_COPY;
    fx_start(f, 1, 1);
    assert_int_equal(trn_sched_worker_count(f->s), 2);
    trn_sched_stats stats;
    trn_sched_get_stats(f->s, &stats);
    assert_int_equal(stats.workers, 2);
    trn_sched_worker_info w0, w1;
    trn_sched_worker_get(f->s, 0, &w0);
    trn_sched_worker_get(f->s, 1, &w1);
    assert_int_equal(w0.engine, TRN_ENGINE_CORE);
    assert_int_equal(w0.index, 0);
    assert_int_equal(w0.cpu, -1);
    assert_int_equal(w1.engine, TRN_ENGINE_COPY);
    assert_int_equal(w1.index, 0);
    assert_int_equal(w1.cpu, -1);

    static const unsigned char src[4] = {1, 2, 3, 4};
    unsigned char m = 0;
    float c = 0;
    trn_sched_stream *s1 = trn_sched_stream_create(f->s, NULL),
                     *s2 = trn_sched_stream_create(f->s, NULL),
                     *s3 = trn_sched_stream_create(f->s, NULL);
    test_op *o = f->ops;
    op_gemm(&o[0], &f->r, 0, f->g->gate_buf[0]);                   /* core, gate 0 */
    op_copy(&o[1], &f->r, 1, f->g->gate_buf[1], src, sizeof(src)); /* copy engine, gate 1 */
    submit(f->s, s1, &o[0]);
    submit(f->s, s2, &o[1]);
    gate_wait_entered(f->g, 0);
    gate_wait_entered(f->g, 1); /* both inside run() at once */
    gate_open(f->g, 0);
    gate_open(f->g, 1);
    wait_done(&f->r, 0);
    wait_done(&f->r, 1);
    expect_status(&f->r, 0, TRN_SCHED_OK);
    expect_status(&f->r, 1, TRN_SCHED_OK);
    assert_int_equal(o[0].sop.engine, TRN_ENGINE_CORE);
    assert_int_equal(o[1].sop.engine, TRN_ENGINE_COPY);
    assert_true(f->g->gate_buf[0][0] == 1.0f);
    assert_memory_equal(f->g->gate_buf[1], src, sizeof(src));
    assert_int_equal(seen_of(f->g, f->g->gate_buf[0]).cores_min, 0);
    assert_int_equal(seen_of(f->g, f->g->gate_buf[1]).cores_max, -1);

    op_copy(&o[2], &f->r, 2, f->g->gate_buf[2], src, sizeof(src)); /* gate 2 */
    op_gemm(&o[3], &f->r, 3, &c);
    op_byte(&o[4], &f->r, 4, &m, 6); /* copy engine */
    submit(f->s, s3, &o[2]);
    submit(f->s, s3, &o[3]);
    submit(f->s, s3, &o[4]);
    gate_wait_entered(f->g, 2);
    settle();
    assert_int_equal(ran(f->g, &c), 0);
    assert_false(is_done(&f->r, 3));
    gate_open(f->g, 2);
    wait_count(&f->r, 5);
    const void *keys[3] = {f->g->gate_buf[2], &c, &m};
    check_keys_in_order(f->g, keys, 3);
    assert_true(c == 1.0f);
    assert_int_equal(m, 6);
    assert_int_equal(o[3].sop.engine, TRN_ENGINE_CORE);
    assert_int_equal(o[4].sop.engine, TRN_ENGINE_COPY);
    assert_true(o[3].sop.t_start >= o[2].sop.t_end);
    assert_true(o[4].sop.t_start >= o[3].sop.t_end);

    trn_sched_worker_get(f->s, 0, &w0);
    trn_sched_worker_get(f->s, 1, &w1);
    assert_int_equal(w0.usage.shards, 2);  /* the two GEMMs */
    assert_int_equal(w1.usage.shards, 3);  /* two copies, one memset */
    assert_true(w0.usage.cost == 2 * 3.0); /* a 1x1x1 GEMM: 2 + 1 */
    assert_true(w1.usage.cost == 2 * 8.0 + 1.0);
    trn_sched_stream_release(f->s, s1);
    trn_sched_stream_release(f->s, s2);
    trn_sched_stream_release(f->s, s3);
    expect_stats(f->s, 0, 0);
}

/* Rule: "an op gets as many shards as its engine has workers". With 1 core
 * and 2 copy workers, a big memset on the copy engine is split in 2 shards
 * that run at the same time on the 2 copy workers. */
static void test_copy_engine_shards(void **state) {
    fx *f = *state;
    f->g->mem_engine = TRN_ENGINE_COPY;
    fx_start(f, 1, 2);
    unsigned char *p = calloc(1, MEM_SPLIT);
    assert_non_null(p);
    assert_int_equal(trn_sched_shard_count(
                         &(trn_op_desc){.kind = TRN_OP_MEMSET, .u.memset = {p, 1, MEM_SPLIT}}, 2),
                     2);
    f->g->gate[0] = p;
    trn_sched_stream *s = trn_sched_stream_create(f->s, NULL);
    test_op *o = f->ops;
    op_memset(&o[0], &f->r, 0, p, 0x11, MEM_SPLIT);
    submit(f->s, s, &o[0]);
    gate_wait_entered_n(f->g, 0, 2); /* both shards inside run() at once */
    gate_open(f->g, 0);
    wait_done(&f->r, 0);
    expect_status(&f->r, 0, TRN_SCHED_OK);
    assert_int_equal(o[0].sop.engine, TRN_ENGINE_COPY);
    const seen sn = seen_of(f->g, p);
    assert_int_equal(sn.starts, 2);
    assert_int_equal(sn.nshards, 2);
    assert_int_equal(sn.shards, 3);
    assert_int_equal(sn.cores_max, -1); /* copy workers only */
    int all = 1;
    for (size_t i = 0; i < MEM_SPLIT; i++)
        all &= p[i] == 0x11;
    assert_true(all);
    uint64_t copy_shards = 0;
    for (int i = 0; i < trn_sched_worker_count(f->s); i++) {
        trn_sched_worker_info w;
        trn_sched_worker_get(f->s, i, &w);
        if (w.engine == TRN_ENGINE_COPY) {
            assert_int_equal(w.usage.shards, 1);
            copy_shards += w.usage.shards;
        } else {
            assert_int_equal(w.usage.shards, 0);
        }
    }
    assert_int_equal(copy_shards, 2);
    trn_sched_stream_release(f->s, s);
    free(p);
}

/* Rule: "The scheduler runs an op on the cores when its engine has no
 * workers configured." With ncopy = 0 a copy runs on the only core worker:
 * while it is held at its gate, a GEMM on another stream cannot start. */
static void test_copy_runs_on_cores_without_copy_engine(void **state) {
    fx *f = *state;
    f->g->mem_engine = TRN_ENGINE_COPY;
    fx_start(f, 1, 0);
    assert_int_equal(trn_sched_worker_count(f->s), 1);
    static const unsigned char src[4] = {5, 6, 7, 8};
    float c = 0;
    trn_sched_stream *s1 = trn_sched_stream_create(f->s, NULL),
                     *s2 = trn_sched_stream_create(f->s, NULL);
    test_op *o = f->ops;
    op_copy(&o[0], &f->r, 0, f->g->gate_buf[0], src, sizeof(src));
    op_gemm(&o[1], &f->r, 1, &c);
    submit(f->s, s1, &o[0]);
    gate_wait_entered(f->g, 0);
    submit(f->s, s2, &o[1]);
    settle();
    assert_int_equal(ran(f->g, &c), 0);
    gate_open(f->g, 0);
    wait_count(&f->r, 2);
    expect_status(&f->r, 0, TRN_SCHED_OK);
    expect_status(&f->r, 1, TRN_SCHED_OK);
    assert_int_equal(o[0].sop.engine, TRN_ENGINE_CORE);
    assert_int_equal(o[1].sop.engine, TRN_ENGINE_CORE);
    assert_int_equal(seen_of(f->g, f->g->gate_buf[0]).cores_min, 0);
    trn_sched_worker_info w;
    trn_sched_worker_get(f->s, 0, &w);
    assert_int_equal(w.engine, TRN_ENGINE_CORE);
    assert_int_equal(w.usage.shards, 2);
    trn_sched_stream_release(f->s, s1);
    trn_sched_stream_release(f->s, s2);
    expect_stats(f->s, 0, 0);
}

/* ---- faults
 * ---------------------------------------------------------------------------------------- */

/* Rule: a kernel failure is the failing op's alone. Tenant A: A0 (fails),
 * A1, A2; tenant B: B0, B1, B2, all queued behind a gate op. Only A0 gets
 * TRN_SCHED_KERNEL_FAILED; A1 runs next on its stream and completes OK, as do
 * B's; each callback runs once; A0 counts as a completed op in A's usage. */
static void test_fault_contained(void **state) {
    fx *f = *state;
    fx_start(f, 1, 0);
    unsigned char bytes[6] = {0};
    trn_sched_tenant *ta = trn_sched_tenant_create(f->s, 1.0),
                     *tb = trn_sched_tenant_create(f->s, 1.0);
    trn_sched_stream *g = trn_sched_stream_create(f->s, NULL),
                     *a = trn_sched_stream_create(f->s, ta), *b = trn_sched_stream_create(f->s, tb);
    f->g->fail_key = &bytes[0];
    test_op *o = f->ops;
    op_gate(&o[0], &f->r, 0, f->g, 0);
    submit(f->s, g, &o[0]);
    gate_wait_entered(f->g, 0);
    for (int i = 0; i < 3; i++) {
        op_byte(&o[1 + i], &f->r, 1 + i, &bytes[i], 0x10 + i);
        op_byte(&o[4 + i], &f->r, 4 + i, &bytes[3 + i], 0x20 + i);
    }
    for (int i = 0; i < 3; i++) {
        submit(f->s, a, &o[1 + i]);
        submit(f->s, b, &o[4 + i]);
    }
    gate_open(f->g, 0);
    wait_count(&f->r, 7);
    settle();
    assert_int_equal(f->r.n, 7); /* each once */
    expect_status(&f->r, 1, TRN_SCHED_KERNEL_FAILED);
    assert_int_equal(bytes[0], 0);
    for (int i = 2; i <= 6; i++)
        expect_status(&f->r, i, TRN_SCHED_OK);
    assert_int_equal(bytes[1], 0x11);
    assert_int_equal(bytes[2], 0x12);
    for (int i = 0; i < 3; i++)
        assert_int_equal(bytes[3 + i], 0x20 + i);
    expect_ran_timestamps(&o[1].sop);
    assert_true(o[2].sop.t_start >= o[1].sop.t_end);
    trn_sched_usage u;
    trn_sched_tenant_usage(f->s, ta, &u);
    assert_int_equal(u.ops, 3);
    trn_sched_tenant_usage(f->s, tb, &u);
    assert_int_equal(u.ops, 3);
    trn_sched_stats st;
    trn_sched_get_stats(f->s, &st);
    assert_int_equal(st.ops_completed, 7);
    trn_sched_stream_release(f->s, g);
    trn_sched_stream_release(f->s, a);
    trn_sched_stream_release(f->s, b);
    trn_sched_tenant_release(f->s, ta);
    trn_sched_tenant_release(f->s, tb);
    expect_stats(f->s, 0, 0);
}

/* Rule: an op's callback runs once, after its last shard; one failed shard
 * fails the op. A 2-shard memset whose shard 1 fails completes once with
 * KERNEL_FAILED after both shards ran; the next op on its stream runs OK. */
static void test_fault_in_one_shard(void **state) {
    fx *f = *state;
    fx_start(f, 2, 0);
    unsigned char *p = calloc(1, MEM_SPLIT), after = 0;
    assert_non_null(p);
    f->g->fail_key = p;
    f->g->fail_shard = 1;
    trn_sched_stream *s = trn_sched_stream_create(f->s, NULL);
    test_op *o = f->ops;
    op_memset(&o[0], &f->r, 0, p, 0x5a, MEM_SPLIT);
    op_byte(&o[1], &f->r, 1, &after, 3);
    submit(f->s, s, &o[0]);
    submit(f->s, s, &o[1]);
    wait_count(&f->r, 2);
    settle();
    assert_int_equal(f->r.n, 2);
    expect_status(&f->r, 0, TRN_SCHED_KERNEL_FAILED);
    expect_status(&f->r, 1, TRN_SCHED_OK);
    const seen sn = seen_of(f->g, p);
    assert_int_equal(sn.starts, 2);
    assert_int_equal(sn.ends, 2);
    assert_int_equal(after, 3);
    assert_true(f->r.seen_before[0] < f->r.seen_before[1]);
    trn_sched_stream_release(f->s, s);
    free(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fair_equal_weights, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fair_weights_1_2, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fair_weights_1_quarter, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fair_idle_tenant_earns_no_credit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fair_set_weight, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ready_order_within_tenant, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stream_order_across_tenants_and_engines, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_marker_callback_before_next_op, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fence_wait_until_record, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fence_cancelled_record_signals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fence_shutdown_completes_parked_stream, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_shutdown_completes_stream_parking_during_shutdown,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_deadline_expires_op_queued_behind, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deadline_expires_op_waiting_for_worker, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_deadline_already_past, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deadline_started_op_finishes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deadline_partly_dispatched_op_finishes, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_deadline_callbacks_in_stream_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timer_start_stop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timer_deadline_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timers_due_together_fire_in_deadline_order, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_timer_rearmed_while_due, setup, teardown),
        cmocka_unit_test_setup_teardown(test_engines_run_concurrently, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stages_run_on_their_engines, setup, teardown),
        cmocka_unit_test_setup_teardown(test_first_stage_anywhere, setup, teardown),
        cmocka_unit_test_setup_teardown(test_first_stage_runs_ahead, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_run_ahead_over_writes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_run_ahead_failure_in_turn, setup, teardown),
        cmocka_unit_test_setup_teardown(test_run_ahead_started_finishes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_whole_op_runs_ahead, setup, teardown),
        cmocka_unit_test_setup_teardown(test_run_ahead_unstarted_cancelled, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stage_failure_ends_op, setup, teardown),
        cmocka_unit_test_setup_teardown(test_started_stages_finish, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy_engine_shards, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy_runs_on_cores_without_copy_engine, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_fault_contained, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fault_in_one_shard, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
