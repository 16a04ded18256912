/*
 * sched.c — engines, tenants, streams, fences, deadlines and the workers.
 *
 * One mutex guards every queue. Each stream is a FIFO with at most one
 * "active" op: the op whose shards are queued on its engine or running. When
 * the active op's last shard completes, the stream advances: markers at its
 * head complete immediately (signalling their fence, if any), a marker that
 * waits on an unsignalled fence parks the stream on that fence, and the next
 * kernel op becomes active and joins its tenant's ready queue on its engine.
 *
 * Each engine keeps the list of its backlogged tenants (those with ready ops
 * on it). A worker of the engine takes the next shard from the backlogged
 * tenant with the least virtual time (start-time fair queuing; sched.h). The
 * number of tenants is small (one per client session), so a linear scan
 * beats keeping a heap in order.
 *
 * Completion callbacks are collected on a local list while the lock is held
 * and called after it is dropped (run_completions), so a callback may submit,
 * cancel or release without deadlocking. Streams woken by a fence are
 * advanced from a work list (completion_list.wake), never recursively.
 *
 * Waking workers. A worker sleeps on its own condition and is woken by
 * name, never by a broadcast, so that a small op wakes one worker, not every
 * worker of its engine. Per engine, under the lock:
 *   runnable  shards of its ready ops that no worker has taken;
 *   unkicked  of those, the ones a defer_wake submit made ready since the
 *             last trn_sched_kick (never more than there really are);
 *   seekers   its workers that are awake and will look for work (take_shard)
 *             before they sleep, running no kernel and no callback first:
 *             a worker just woken for work, one that has just ended a shard
 *             (shard_done) and is going back to look, one that is starting.
 * A worker stops being a seeker when it takes a shard, runs callbacks,
 * sleeps or leaves.
 *
 * Invariant (no lost wake-up), true whenever the lock is released
 * (sched_unlock, and wake_now_locked before a thread waits): for every
 * engine, seekers >= runnable - unkicked, unless no worker of the engine is
 * asleep that may take work (not lent to trn_sched_kick_run, its core in
 * service). wake_plan restores it before each release by waking just enough
 * sleepers (each becomes a seeker), so every path that adds work — a submit,
 * a shard whose end enables an op's next stage or its stream's next op, a
 * fence releasing streams, a deadline, a kick, a lent worker given back — is
 * covered by the unlock that follows it. A seeker that stops seeking without
 * taking a shard (it sleeps, leaves, or finds its core out of service) drops
 * from the count before the lock is released, so the next wake_plan gives
 * its share to another worker. Work found while no worker may be woken is
 * taken by the awake ones: every worker that is not asleep looks for work
 * before it sleeps, and sleeps only right after finding none, the lock held
 * in between (a lent worker sleeps without looking: its lender's unlock,
 * once it gives the worker back, wakes it if work waits). So the worker that ends an op takes the
 * next op of its stream itself, with no wake-up, and a burst of one-shard ops on one stream keeps
 * one worker busy instead of waking all of them for each op. A core put back in service is
 * considered at the next release of the lock. Stopping wakes every worker (wake_everyone) to leave.
 * An op one worker hands to another (placement by location: worker.mail) is taken, never
 * runnable: the worker it goes to is woken by name if asleep, and takes its mail before it
 * looks for work or sleeps.
 *
 * Lifetimes: a stream holds one reference for its creator plus one per queued
 * op; a tenant one for its creator plus one per stream; a fence one for its
 * creator plus one per marker that names it. Each is freed at zero.
 */
#define _GNU_SOURCE
#include "scheduler/sched.h"

#include "scheduler/plan_cache.h"

#include "ops/convert_stage.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Rates behind the dispatch-time estimate of a shard's core time (sched.h,
 * "Estimates"): single-core SGEMM on this class of CPU, and memcpy
 * bandwidth. Fairness replaces the estimate by the measured time when the
 * shard ends; chains, placement and the executors' watchdog use it as it
 * is, so it should be of the right order. */
#define EST_FLOP_PER_NS 50.0
#define EST_BYTES_PER_NS 8.0
#define EST_FFT_FLOP_PER_NS 10.0 /* FFTW single core here: 8-26 (2^20 .. 2^16 points) */
#define EST_OVERHEAD_NS 2000.0   /* dispatch and wake-up per shard */

typedef struct tenant_queue {
    trn_sched_op *head, *tail; /* ready ops on this engine, FIFO */
    double vtime;              /* virtual time: weighted core time received */
    int backlogged;            /* on the engine's backlog list */
    trn_sched_tenant *next;    /* the engine's backlog list */
} tenant_queue;

struct trn_sched_tenant {
    double weight;
    unsigned refs;
    tenant_queue q[TRN_ENGINE_COUNT];
    trn_sched_usage usage;
};

struct trn_sched_fence {
    unsigned refs;
    int signalled;
    uint64_t t_ns;
    trn_sched_stream *waiters; /* parked streams, linked by wait_next */
};

struct trn_sched_stream {
    trn_sched_op *head, *tail; /* queued, not active */
    trn_sched_op *active;
    int completing;              /* the active op's callback is running: do not advance */
    trn_sched_fence *parked_on;  /* the head is a marker waiting on this fence */
    trn_sched_stream *wait_next; /* fence waiters, or the wake list */
    trn_sched_stream *parked_prev, *parked_next; /* every parked stream */
    trn_sched_tenant *tenant;
    unsigned refs;
};

typedef struct worker worker;
struct worker {
    trn_sched *sched;
    pthread_t thread;
    int engine;
    int index; /* within the engine; the backend core index on the cores */
    int cpu;   /* -1: not pinned */
    int started;
    pthread_cond_t cv; /* it sleeps here; woken only by name (wake_plan, owe_wake) */
    int sleeping;      /* asleep, not yet woken: cleared by whoever wakes it */
    int seeking;       /* counted in its engine's seekers (see the top comment) */
    int woke_for_work; /* woken by wake_plan and has not looked for work yet */
    int owed;          /* on s->owed: its condition is signalled at the next unlock */
    struct worker *owed_next;
    int lent; /* another thread runs a shard in its name (trn_sched_kick_run) */
    /* A shard run in its name that it must conclude (run_core_finish):
     * handed over by trn_sched_kick_run, which stopped waiting for it. */
    trn_sched_op *handed;
    int handed_shard;
    uint64_t handed_t0;
    /* An op another worker took and handed to this one, whose core holds
     * its inputs (trn_sched_config.locate): its one shard, taken, which it
     * runs before it takes other work. It is awake while it has one. */
    trn_sched_op *mail;
    /* Whether it runs a shard or chain it took (set and cleared under the
     * lock), and when that is estimated to end (trn_sched_now_ns clock;
     * UINT64_MAX: not known, e.g. it waits for a plan). */
    int running;
    uint64_t until_ns;
    trn_sched_usage usage;
};

typedef struct engine {
    int first, count; /* its workers: workers[first .. first+count) */
    trn_sched_tenant *backlog;
    double vclock; /* the start tag of the last shard dispatched */
    int runnable;  /* shards of its ready ops not yet taken by a worker */
    int unkicked;  /* of those, made ready by a defer_wake submit since the last kick
                      (an upper bound: see runnable_sub) */
    int seekers;   /* its workers that will look for work before they sleep */
    int busy;      /* shards its workers have taken and not yet concluded */
} engine;

struct trn_sched {
    const trn_backend *be;
    trn_sched_config cfg; /* its hooks (run_core, core_in_service) */
    pthread_mutex_t lock;
    engine engines[TRN_ENGINE_COUNT];
    worker *workers;
    int nworkers;
    worker *owed; /* workers to signal at the next unlock (owed_next) */
    int stopping;
    int quiet;    /* under lock, during a defer_wake submit: ready_push wakes no one */
    int unkicked; /* ops made ready quietly since the last wake-up of every engine */
    int inflight; /* started ops not yet complete: workers stay until it is 0 */
    trn_sched_stats stats;
    trn_sched_tenant *default_tenant;
    trn_sched_stream *parked; /* streams parked on a fence */
    /* Timers, in deadline order, and the thread that fires them. */
    trn_sched_timer *timers;
    pthread_cond_t timer_cv;
    pthread_t timer_thread;
    int timer_started, timer_stop;
};

typedef struct completion_list {
    trn_sched_op *head, *tail;
    trn_sched_stream *wake; /* streams a fence released: advance them */
    trn_sched_timer *fired; /* callers' timers to fire, linked by link.next */
} completion_list;

uint64_t trn_sched_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

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
    case TRN_KSTATUS_OK:
    case TRN_KSTATUS_SEQ_DONE: return TRN_SCHED_OK;
    case TRN_KSTATUS_UNSUPPORTED: return TRN_SCHED_UNSUPPORTED;
    case TRN_KSTATUS_NO_MEMORY: return TRN_SCHED_NO_MEMORY;
    case TRN_KSTATUS_FAILED: break;
    }
    return TRN_SCHED_KERNEL_FAILED;
}

/* ---- timers (lock held) ------------------------------------------------------ */

static void timer_unlink(trn_sched *s, trn_sched_timer *t) {
    if (!t->armed)
        return;
    if (t->link.prev)
        t->link.prev->link.next = t->link.next;
    else
        s->timers = t->link.next;
    if (t->link.next)
        t->link.next->link.prev = t->link.prev;
    t->link.prev = t->link.next = NULL;
    t->armed = 0;
}

static void timer_link(trn_sched *s, trn_sched_timer *t) {
    trn_sched_timer *prev = NULL, *x = s->timers;
    while (x && x->when_ns <= t->when_ns) {
        prev = x;
        x = x->link.next;
    }
    t->link.prev = prev;
    t->link.next = x;
    if (prev)
        prev->link.next = t;
    else
        s->timers = t;
    if (x)
        x->link.prev = t;
    t->armed = 1;
    if (!prev)
        pthread_cond_signal(&s->timer_cv); /* a new earliest deadline */
}

/* ---- lifetimes (lock held) ---------------------------------------------------- */

static void tenant_put(trn_sched_tenant *t) {
    if (--t->refs == 0)
        free(t);
}

static void stream_put(trn_sched_stream *st) {
    if (--st->refs != 0)
        return;
    tenant_put(st->tenant);
    free(st);
}

static void fence_put(trn_sched_fence *f) {
    if (f && --f->refs == 0)
        free(f);
}

/* ---- fences and parked streams (lock held) ------------------------------------- */

static void parked_unlink(trn_sched *s, trn_sched_stream *st) {
    trn_sched_fence *f = st->parked_on;
    trn_sched_stream **link = &f->waiters;
    while (*link && *link != st)
        link = &(*link)->wait_next;
    if (*link)
        *link = st->wait_next;
    st->wait_next = NULL;
    st->parked_on = NULL;
    if (st->parked_prev)
        st->parked_prev->parked_next = st->parked_next;
    else
        s->parked = st->parked_next;
    if (st->parked_next)
        st->parked_next->parked_prev = st->parked_prev;
    st->parked_prev = st->parked_next = NULL;
}

static void park(trn_sched *s, trn_sched_stream *st, trn_sched_fence *f) {
    st->parked_on = f;
    st->wait_next = f->waiters;
    f->waiters = st;
    st->parked_prev = NULL;
    st->parked_next = s->parked;
    if (s->parked)
        s->parked->parked_prev = st;
    s->parked = st;
}

/* Signals f (once) and moves its waiters to the wake list. */
static void fence_signal(trn_sched *s, trn_sched_fence *f, completion_list *l) {
    if (f->signalled)
        return;
    f->signalled = 1;
    f->t_ns = trn_sched_now_ns();
    while (f->waiters) {
        trn_sched_stream *st = f->waiters;
        parked_unlink(s, st);
        st->wait_next = l->wake;
        l->wake = st;
    }
}

/* Completes op with st later; a record marker signals its fence whatever the
 * outcome, so that nothing waits forever on a record that will never run. */
static void finish_later(trn_sched *s, completion_list *l, trn_sched_op *op, trn_sched_status st) {
    timer_unlink(s, &op->deadline);
    if (op->signal)
        fence_signal(s, op->signal, l);
    op->final_status = st;
    completion_push(l, op);
}
/* The sharding policy (ops/shard.h): as many shards as the op's size
 * allows, at most one per worker. */
int trn_sched_shard_count(const trn_op_desc *d, int nworkers) {
    const double by_size = trn_op_shard_limit(d);
    if (by_size < 2.0 || nworkers < 2)
        return 1;
    return by_size >= (double)nworkers ? nworkers : (int)by_size;
}

/* ---- ready queues (lock held) ---------------------------------------------------- */

/* The descriptor of the op's current stage. */
static const trn_op_desc *stage_desc(const trn_sched_op *op) {
    if (op->steps)
        return op->steps[op->stage].desc;
    return op->stage == 0 ? &op->desc : &op->then[op->stage - 1];
}

/* The plan cache entry of the op's current stage, or NULL. */
static struct trn_plan_entry *stage_plan(const trn_sched_op *op) {
    return op->steps ? op->steps[op->stage].plan : op->stage == 0 ? op->plan : NULL;
}

/* The index of the op's last stage. */
static int last_stage(const trn_sched_op *op) {
    return op->steps ? op->nsteps - 1 : op->nthen;
}

/* The stage after the current one: the next step, or a looping sequence's
 * first looped step after its last (sched.h); -1 when there is none. */
static int next_stage(const trn_sched_op *op) {
    if (op->steps && op->loop_last > 0 && op->stage == op->loop_last)
        return op->loop_first;
    return op->stage < last_stage(op) ? op->stage + 1 : -1;
}

/* Where the current stage's times go (a sequence's later steps share the
 * last slot). */
static trn_sched_stage_times *stage_times(trn_sched_op *op) {
    return &op->stage_times[op->stage < TRN_SCHED_MAX_STAGES ? op->stage
                                                             : TRN_SCHED_MAX_STAGES - 1];
}

/* Whether a worker has taken any shard of the op: from then on it finishes. */
static int op_started(const trn_sched_op *op) {
    return op->stage > 0 || op->next_shard > 0;
}

/* A shard's core time from its cost at host rates (EST_*). */
static double host_estimate_ns(const trn_op_desc *d, int nshards) {
    trn_op_model m;
    trn_op_model_of(d, &m);
    const double cost = m.cost / (nshards > 0 ? nshards : 1);
    const double rate = m.pace == TRN_PACE_DENSE ? EST_FLOP_PER_NS
                        : m.pace == TRN_PACE_FFT ? EST_FFT_FLOP_PER_NS
                                                 : EST_BYTES_PER_NS;
    return EST_OVERHEAD_NS + cost / rate;
}

static int is_program(const struct trn_plan_entry *plan) {
    return plan && trn_plan_entry_spec(plan)->family == TRN_PLAN_PROGRAM;
}

/* Notes a kernel program's shard that ran from t0 to t1 with status k, for
 * the estimates of its next runs (sched.h, "Estimates"). */
static void note_program_run(struct trn_plan_entry *plan, trn_kstatus k, uint64_t t0, uint64_t t1) {
    if (is_program(plan) && k == TRN_KSTATUS_OK && t1 > t0)
        trn_plan_entry_note_run(plan, t1 - t0);
}

/* One shard's estimate (sched.h, "Estimates"): a kernel program's from its
 * runs or its backend, anything else's from its cost at host rates. */
static double estimate_shard_ns(const trn_sched *s, const trn_op_desc *d,
                                const struct trn_plan_entry *plan, int nshards) {
    if (is_program(plan)) {
        const uint64_t ran = trn_plan_entry_run_ns(plan);
        if (ran)
            return (double)ran;
        const double nominal =
            s->be->program_estimate_ns ? s->be->program_estimate_ns(s->be, d, nshards) : 0;
        if (nominal > 0)
            return nominal;
    }
    return host_estimate_ns(d, nshards);
}

/* What run_core is told a shard takes (sched.h): never below the host-rate
 * estimate, which an executor's watchdog multiplies. A kernel program's
 * estimate may be far below that: a nominal one at the Tensor Engine's
 * peak, or runs that found their inputs in the core's memory. */
static uint64_t watch_estimate_ns(const trn_sched_op *op) {
    if (!is_program(stage_plan(op)))
        return (uint64_t)op->shard_est_ns; /* the host-rate estimate already */
    const double host = host_estimate_ns(stage_desc(op), op->nshards);
    return (uint64_t)(op->shard_est_ns > host ? op->shard_est_ns : host);
}

/* Runs one shard of op's current stage, once the plan part it needs is
 * prepared (planning happens on the plan cache's thread; this waits). */
static trn_kstatus run_shard(trn_sched *s, const worker *w, trn_sched_op *op, int shard,
                             uint64_t patience_ns, int *pending) {
    struct trn_plan_entry *plan = stage_plan(op);
    const unsigned part = op->steps ? op->steps[op->stage].plan_part : op->plan_part;
    if (plan) {
        char why[TRN_KMSG_LEN];
        const int waited = trn_plan_entry_wait(plan, part, why, sizeof(why));
        if (waited == TRN_PLAN_WAIT_NOMEM) {
            /* Planning ran out of memory: the op fails as a kernel out of
             * memory would (the part is built again for the next op). */
            trn_kmsg_post(stage_desc(op)->kmsg, TRN_KMSG_RANK_NO_MEMORY + (uint64_t)shard, 0, "%s",
                          why);
            return TRN_KSTATUS_NO_MEMORY;
        }
        if (waited != 0)
            return TRN_KSTATUS_FAILED;
        if (w->engine == TRN_ENGINE_CORE)
            trn_plan_entry_ran_on(plan, w->index);
    }
    const uint64_t t0 = trn_sched_now_ns(); /* after any wait for the plan */
    trn_kstatus k;
    if (s->cfg.run_core && w->engine == TRN_ENGINE_CORE)
        k = s->cfg.run_core(s->cfg.run_ctx, w->index, stage_desc(op), plan, part, shard,
                            op->nshards, watch_estimate_ns(op), patience_ns, pending);
    else
        k = s->be->run(s->be, stage_desc(op), plan ? trn_plan_entry_plan(plan) : NULL, shard,
                       op->nshards);
    if (!*pending)
        note_program_run(plan, k, t0, trn_sched_now_ns());
    return k;
}

/* The status of an op whose shards returned different ones: any failure
 * but running out of memory wins, so that bad input (which a retry cannot
 * fix) is what the client hears about, whichever shard finished first;
 * this matches the kernel messages' ranks (TRN_KMSG_RANK_NO_MEMORY). */
static trn_kstatus merge_kstatus(trn_kstatus had, trn_kstatus k) {
    if (k == TRN_KSTATUS_OK)
        return had;
    /* A sequence's early end (SEQ_DONE) is a success: any failure wins. */
    if (had == TRN_KSTATUS_OK || (had == TRN_KSTATUS_SEQ_DONE && k != TRN_KSTATUS_SEQ_DONE) ||
        (had == TRN_KSTATUS_NO_MEMORY && k != TRN_KSTATUS_SEQ_DONE))
        return k;
    return had;
}

static int engine_of(const trn_sched *s, const trn_op_desc *d) {
    const int e = s->be->engine_for ? (int)s->be->engine_for(s->be, d) : TRN_ENGINE_CORE;
    return e >= 0 && e < TRN_ENGINE_COUNT && s->engines[e].count > 0 ? e : TRN_ENGINE_CORE;
}

/* Lock held: a kernel program's estimate again, before op's first shard is
 * charged: ops queued together were all prepared before the first of them
 * ran. */
static void refresh_estimate(const trn_sched *s, trn_sched_op *op) {
    const struct trn_plan_entry *plan = stage_plan(op);
    if (is_program(plan))
        op->shard_est_ns = estimate_shard_ns(s, stage_desc(op), plan, op->nshards);
}

/* How a stage run by a compiled kernel program is split: as the backend
 * compiled it (the program has one part's shape), whatever the workers. */
static int program_shards(const trn_sched *s, const trn_op_desc *d) {
    const int n = s->be->op_program_shards ? s->be->op_program_shards(s->be, d) : 1;
    return n > 0 ? n : 1;
}

/* Sets up the op's current stage: its engine, shards and estimate. */
static void stage_prepare(const trn_sched *s, trn_sched_op *op) {
    const trn_op_desc *d = stage_desc(op);
    const struct trn_plan_entry *plan = stage_plan(op);
    op->engine = engine_of(s, d);
    /* A first stage that may run anywhere (trn_sched_op.first_stage_anywhere),
     * or any stage that is a conversion of its own (ops/convert_stage.h),
     * takes the cores when they have nothing else to do: there it is split
     * over every core instead of waiting on the fewer copy workers. */
    const engine *cores = &s->engines[TRN_ENGINE_CORE];
    const int anywhere = (op->stage == 0 && op->first_stage_anywhere) || trn_convert_standalone(d);
    if (anywhere && op->engine != TRN_ENGINE_CORE && cores->runnable == 0 && cores->busy == 0)
        op->engine = TRN_ENGINE_CORE;
    op->nshards = plan && trn_plan_entry_spec(plan)->family == TRN_PLAN_PROGRAM
                      ? program_shards(s, d)
                      : trn_sched_shard_count(d, s->engines[op->engine].count);
    op->next_shard = 0;
    op->shards_left = op->nshards;
    op->shard_est_ns = estimate_shard_ns(s, d, plan, op->nshards);
    stage_times(op)->engine = op->engine;
    if (op->steps)
        trn_kmsg_init(d->kmsg);
}

/* Queues op's current stage as ready on its engine, waking no worker. */
static void ready_enqueue(trn_sched *s, trn_sched_op *op) {
    engine *e = &s->engines[op->engine];
    trn_sched_tenant *t = op->stream->tenant;
    tenant_queue *q = &t->q[op->engine];
    op->ready_next = NULL;
    if (q->tail)
        q->tail->ready_next = op;
    else
        q->head = op;
    q->tail = op;
    e->runnable += op->nshards - op->next_shard;
    if (!q->backlogged) {
        /* Idle time earns no credit: rejoin at the engine's virtual time. */
        if (q->vtime < e->vclock)
            q->vtime = e->vclock;
        q->backlogged = 1;
        q->next = e->backlog;
        e->backlog = t;
    }
}

/* Waking workers (the rule is in the top comment). Wake-ups are decided
 * under the lock (wake_plan) and sent after it is released (sched_unlock):
 * a worker woken while the lock is still held runs at once on a shared CPU
 * (a wake-up preempts), blocks on the lock and must be woken a second time
 * by the unlock — two extra context switches per op. A worker sleeps until
 * someone clears its `sleeping` under the lock, so a signal sent after the
 * unlock is never lost, and a stray one only makes it look again. */

static void seek_set(trn_sched *s, worker *w, int on) {
    if (!w || w->seeking == on)
        return;
    w->seeking = on;
    s->engines[w->engine].seekers += on ? 1 : -1;
}

/* Wakes w (asleep) by name at the next unlock. */
static void owe_wake(trn_sched *s, worker *w) {
    w->sleeping = 0;
    if (w->owed)
        return;
    w->owed = 1;
    w->owed_next = s->owed;
    s->owed = w;
}

/* Whether w is asleep and may take work: not lent to a submitting thread,
 * and its core in service. */
static int may_wake_for_work(const trn_sched *s, const worker *w) {
    if (!w->sleeping || w->lent)
        return 0;
    return w->engine != TRN_ENGINE_CORE || !s->cfg.core_in_service ||
           s->cfg.core_in_service(s->cfg.run_ctx, w->index);
}

/* With s->lock held: wakes sleepers until every runnable shard that was not
 * deferred has a seeker, or none is left to wake. */
static void wake_plan(trn_sched *s) {
    for (int i = 0; i < TRN_ENGINE_COUNT; i++) {
        engine *e = &s->engines[i];
        int need = e->runnable - e->unkicked - e->seekers;
        for (int k = e->first; need > 0 && k < e->first + e->count; k++) {
            worker *w = &s->workers[k];
            if (!may_wake_for_work(s, w))
                continue;
            owe_wake(s, w);
            seek_set(s, w, 1);
            w->woke_for_work = 1;
            s->stats.wakeups++;
            need--;
        }
    }
}

/* With s->lock held: wakes every sleeping worker (stopping), each to look
 * for work or leave. */
static void wake_everyone(trn_sched *s) {
    for (int i = 0; i < s->nworkers; i++) {
        worker *w = &s->workers[i];
        if (w->sleeping) {
            owe_wake(s, w);
            seek_set(s, w, 1);
        }
    }
}

static worker *owed_pop(trn_sched *s) {
    worker *w = s->owed;
    if (w) {
        s->owed = w->owed_next;
        w->owed_next = NULL;
        w->owed = 0;
    }
    return w;
}

/* With s->lock held, before a thread waits on a condition (which releases
 * the lock without sched_unlock): sends what is owed now. */
static void wake_now_locked(trn_sched *s) {
    wake_plan(s);
    for (worker *w; (w = owed_pop(s)) != NULL;)
        pthread_cond_signal(&w->cv);
}

/* Releases s->lock, then sends the wake-ups owed (beyond a few, which
 * only stopping or a many-shard op asks for, under the lock). */
static void sched_unlock(trn_sched *s) {
    enum { AFTER_UNLOCK = 8 };
    worker *owed[AFTER_UNLOCK];
    int n = 0;
    wake_plan(s);
    for (worker *w; (w = owed_pop(s)) != NULL;) {
        if (n < AFTER_UNLOCK)
            owed[n++] = w;
        else
            pthread_cond_signal(&w->cv);
    }
    pthread_mutex_unlock(&s->lock);
    for (int i = 0; i < n; i++)
        pthread_cond_signal(&owed[i]->cv);
}

/* Shards of e's ready ops left the queue (taken, cancelled, expired): the
 * deferred count shrinks with them, never below what is really deferred
 * (it may go below: that only wakes a worker sooner). */
static void runnable_sub(engine *e, int k) {
    e->runnable -= k;
    e->unkicked -= k < e->unkicked ? k : e->unkicked;
}

/* Queues op's current stage; sched_unlock wakes a worker for each of its
 * shards that no awake worker will take (a quiet submit defers that to
 * trn_sched_kick). */
static void ready_push(trn_sched *s, trn_sched_op *op) {
    engine *e = &s->engines[op->engine];
    ready_enqueue(s, op);
    if (s->quiet) { /* trn_sched_kick (or the next ordinary submit) wakes them */
        s->unkicked = 1;
        e->unkicked += op->nshards;
    }
}

static void backlog_remove(engine *e, trn_sched_tenant *t, int eng) {
    trn_sched_tenant **link = &e->backlog;
    while (*link && *link != t)
        link = &(*link)->q[eng].next;
    if (*link)
        *link = t->q[eng].next;
    t->q[eng].next = NULL;
    t->q[eng].backlogged = 0;
}

/* Unlinks op from its tenant's ready queue; returns 0, or -1 when not there. */
static int ready_remove(trn_sched *s, trn_sched_op *op) {
    trn_sched_tenant *t = op->stream->tenant;
    tenant_queue *q = &t->q[op->engine];
    trn_sched_op *prev = NULL;
    for (trn_sched_op *x = q->head; x; prev = x, x = x->ready_next) {
        if (x != op)
            continue;
        if (prev)
            prev->ready_next = x->ready_next;
        else
            q->head = x->ready_next;
        if (q->tail == x)
            q->tail = prev;
        runnable_sub(&s->engines[op->engine], op->nshards - op->next_shard);
        if (!q->head)
            backlog_remove(&s->engines[op->engine], t, op->engine);
        return 0;
    }
    return -1;
}

/* ---- streams (lock held) ------------------------------------------------------------ */

/* Completes a detached list of queued ops with why. */
static void finish_list(trn_sched *s, trn_sched_op *op, trn_sched_status why,
                        completion_list *done) {
    while (op) {
        trn_sched_op *next = op->next;
        if (!op->is_marker)
            s->stats.ops_queued--;
        finish_later(s, done, op, why);
        op = next;
    }
}

/* Moves every not-yet-active op of st to done, and unparks it. The ops at
 * its head whose first stage ran ahead (trn_sched_op.ahead: run-ahead, or
 * a chain) stay: they have started, so they finish every stage in their
 * turn; one still waiting for a worker is taken back and goes with the
 * rest. A chain's peek stays too, marked to complete unrun in its turn:
 * its chain may still be reading its memory. */
static void stream_drain_queued(trn_sched *s, trn_sched_stream *st, trn_sched_status why,
                                completion_list *done) {
    if (st->parked_on)
        parked_unlink(s, st);
    trn_sched_op **link = &st->head, *kept = NULL;
    for (trn_sched_op *op; (op = *link) != NULL; link = &op->next) {
        if (op->ahead == 1 && op->next_shard == 0 && ready_remove(s, op) == 0)
            op->ahead = 0;
        if (!op->ahead)
            break;
        /* A peek never starts: it completes unrun after its chain. A chain's
         * own op does too if its chain hands it back unrun (run_chain). */
        op->dropped = op->peeked;
        op->drop_if_unrun = !op->peeked && op->next_shard > 0;
        op->drop_status = why;
        kept = op;
    }
    trn_sched_op *rest = *link;
    *link = NULL;
    st->tail = kept;
    finish_list(s, rest, why, done);
}

/* op has not started and its deadline has passed: it completes with
 * EXPIRED, and everything behind it on its stream with CANCELLED. */
static void expire_op(trn_sched *s, trn_sched_op *op, completion_list *done) {
    trn_sched_stream *st = op->stream;
    if (op_started(op))
        return;
    trn_sched_op *behind;
    if (st->active == op) {
        ready_remove(s, op);
        st->active = NULL;
        s->stats.ops_running--;
        if (st->parked_on)
            parked_unlink(s, st);
        behind = st->head;
        st->head = st->tail = NULL;
    } else {
        trn_sched_op *prev = NULL, *x = st->head;
        while (x && x != op) {
            prev = x;
            x = x->next;
        }
        if (!x)
            return;
        if (prev)
            prev->next = NULL;
        else
            st->head = NULL;
        st->tail = prev;
        s->stats.ops_queued--;
        behind = op->next;
    }
    st->tenant->usage.expired++;
    /* The expired op's callback first: what it reports explains the
     * cancellations behind it. */
    finish_later(s, done, op, TRN_SCHED_EXPIRED);
    finish_list(s, behind, TRN_SCHED_CANCELLED, done);
}

/* Whether op's first stage may run while front, the op in front of it,
 * is active: nothing front writes is read by it, and, when it is op's only
 * stage, nothing it writes is read or written by front (sched.h). */
static int may_run_ahead(const trn_sched_op *front, const trn_sched_op *op) {
    if (!front->writes_known ||
        trn_spans_overlap(front->writes, front->nwrites, op->ahead_reads, op->nahead_reads))
        return 0;
    if (op->nthen >= 1)
        return 1; /* its first stage writes only memory the op owns */
    return op->writes_known && front->reads_known &&
           !trn_spans_overlap(front->writes, front->nwrites, op->writes, op->nwrites) &&
           !trn_spans_overlap(front->reads, front->nreads, op->writes, op->nwrites);
}

/* st's active op computes: the op behind it starts its first stage now
 * when it may (trn_sched_op.first_stage_ahead: sched.h says when). */
static void run_ahead(trn_sched *s, trn_sched_stream *st) {
    const trn_sched_op *front = st->active;
    trn_sched_op *op = st->head;
    if (!front || !op || op->is_marker || !op->first_stage_ahead || op->ahead || op->steps ||
        s->stopping || op->deadline_ns || front->deadline_ns || !may_run_ahead(front, op))
        return;
    stage_prepare(s, op); /* its engine as things are now */
    op->ahead = 1;
    op->t_ready = op->stage_times[0].t_ready = trn_sched_now_ns(); /* ready to start */
    ready_push(s, op);
}

/* op, whose first stage finished ahead, has become its stream's active op
 * (lock held): its next stage is queued, or, when its first stage failed,
 * it ends now, in its turn. Returns 0 when it ended (the stream advances
 * after its callback). */
static int resume_ahead(trn_sched *s, trn_sched_op *op, uint64_t now, completion_list *done) {
    trn_sched_stream *st = op->stream;
    op->ahead = 0;
    if (next_stage(op) >= 0 && op->kstatus == TRN_KSTATUS_OK) {
        op->stage = next_stage(op);
        stage_prepare(s, op);
        stage_times(op)->t_ready = now;
        ready_push(s, op);
        return 1;
    }
    op->t_end = op->stage_times[0].t_end;
    st->tenant->usage.ops++;
    if (--s->inflight == 0 && s->stopping)
        wake_everyone(s); /* to leave */
    s->stats.ops_running--;
    s->stats.ops_completed++;
    st->active = NULL;
    finish_later(s, done, op, status_of(op->kstatus));
    op->advance_after = 1;
    st->completing = 1;
    return 0;
}

/* With no active op: activate the next kernel op of the stream, completing
 * the markers in front of it. Once stopping, kernel ops are not started:
 * they and everything behind them complete with SHUTDOWN. */
static void stream_advance_one(trn_sched *s, trn_sched_stream *st, completion_list *done) {
    while (!st->active && !st->completing && !st->parked_on && st->head) {
        trn_sched_op *op = st->head;
        if (s->stopping && !op->is_marker && !op->ahead) {
            stream_drain_queued(s, st, TRN_SCHED_SHUTDOWN, done);
            return;
        }
        if (op->dropped) { /* a peek that a cancel reached (stream_drain_queued) */
            st->head = op->next;
            if (!st->head)
                st->tail = NULL;
            s->stats.ops_queued--;
            finish_later(s, done, op, op->drop_status);
            continue;
        }
        if (op->is_marker && op->wait && !op->wait->signalled) {
            if (s->stopping) {
                /* Shutdown's sweep of parked streams is over: nothing would
                 * ever wake this one. */
                stream_drain_queued(s, st, TRN_SCHED_SHUTDOWN, done);
                return;
            }
            park(s, st, op->wait);
            return;
        }
        const uint64_t now = trn_sched_now_ns();
        if (!op->is_marker && op->deadline_ns && now >= op->deadline_ns) {
            expire_op(s, op, done);
            continue;
        }
        st->head = op->next;
        if (!st->head)
            st->tail = NULL;
        if (op->is_marker) {
            finish_later(s, done, op, TRN_SCHED_OK);
            if (st->head) {
                /* Like a kernel op: what is behind the marker waits until its
                 * callback has run (run_completions advances the stream). */
                op->advance_after = 1;
                st->completing = 1;
                return;
            }
            continue;
        }
        st->active = op;
        if (!op->ahead)
            op->t_ready = now;
        s->stats.ops_queued--;
        s->stats.ops_running++;
        if (op->ahead == 1) { /* its first stage is queued or running: it goes on */
            op->ahead = 0;
            continue;
        }
        if (op->ahead == 2) {
            if (!resume_ahead(s, op, now, done))
                return;
            continue;
        }
        op->stage_times[0].t_ready = now;
        /* A conversion takes the cores if they are idle now (stage_prepare):
         * decided at submit, the cores may have been busy then. */
        if (op->first_stage_anywhere || trn_convert_standalone(&op->desc))
            stage_prepare(s, op);
        ready_push(s, op);
    }
    run_ahead(s, st);
}

/* Advances st, then every stream a fence released meanwhile. */
static void stream_advance(trn_sched *s, trn_sched_stream *st, completion_list *done) {
    if (st)
        stream_advance_one(s, st, done);
    while (done->wake) {
        trn_sched_stream *w = done->wake;
        done->wake = w->wait_next;
        w->wait_next = NULL;
        stream_advance_one(s, w, done);
    }
}

/* Lock NOT held: calls the callbacks on l, dropping each op's references.
 * self: the worker whose thread calls, which looks for work next: once no
 * callback is left, the op the last one made ready is its to take (a
 * chain's ops complete here, one after the other), and nobody is woken for
 * it; NULL on other threads. */
static void run_completions(trn_sched *s, completion_list *l, worker *self) {
    trn_sched_op *op;
    while ((op = l->head) != NULL) {
        l->head = op->next;
        if (!l->head)
            l->tail = NULL;
        const trn_sched_status st = op->final_status;
        trn_sched_stream *stream = op->stream;
        trn_sched_fence *sig = op->signal, *wait = op->wait;
        const int advance = op->advance_after;
        op->done(op, st); /* may free op */
        pthread_mutex_lock(&s->lock);
        if (advance) {
            stream->completing = 0;
            stream_advance(s, stream, l); /* appends to l */
        }
        if (!l->head)
            seek_set(s, self, 1);
        fence_put(sig);
        fence_put(wait);
        stream_put(stream);
        sched_unlock(s);
    }
    /* One caller's timer at most, unlinked before the lock was dropped; its
     * links are not read again, so fire() or another thread may re-arm it. */
    trn_sched_timer *t = l->fired;
    l->fired = NULL;
    if (t)
        t->fire(t); /* may free t */
}

/* The last shard of a stream's active op has finished (the caller moved it
 * from `active` to `completing`): run the op's callback first, and only then
 * let the stream advance, so that every callback of an op completes before
 * anything queued behind it (a marker included) does. */
static void complete_active(trn_sched *s, trn_sched_op *op, worker *self) {
    trn_sched_stream *st = op->stream;
    /* Stopped before a step it had left (a sequence ending early by
     * TRN_KSTATUS_SEQ_DONE had none left). */
    const int stopped = op->stop && op->kstatus != TRN_KSTATUS_SEQ_DONE && next_stage(op) >= 0;
    op->done(op, stopped ? TRN_SCHED_CANCELLED : status_of(op->kstatus)); /* may free op */

    completion_list done = {0};
    pthread_mutex_lock(&s->lock);
    st->completing = 0;
    stream_advance(s, st, &done);
    stream_put(st); /* the op's reference */
    /* With no callback left to run, the worker goes straight back to look
     * for work: it takes the op this made ready (the next on the stream)
     * itself, and nobody is woken for it. */
    if (!done.head)
        seek_set(s, self, 1);
    sched_unlock(s);
    run_completions(s, &done, self);
}

/* ---- workers ------------------------------------------------------------------------- */

static void pin_to_cpu(int cpu) {
    if (cpu < 0)
        return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static trn_sched_tenant *least_vtime(engine *e, int eng) {
    trn_sched_tenant *best = NULL;
    for (trn_sched_tenant *t = e->backlog; t; t = t->q[eng].next)
        if (!best || t->q[eng].vtime < best->q[eng].vtime)
            best = t;
    return best;
}

/* Takes the next shard for a worker of engine eng (lock held): the fairest
 * tenant's oldest ready op. Returns NULL when nothing is ready. Ops found
 * past their deadline before starting are expired onto done. */
static trn_sched_op *take_shard(trn_sched *s, int eng, int *shard, completion_list *done) {
    engine *e = &s->engines[eng];
    for (;;) {
        trn_sched_tenant *t = least_vtime(e, eng);
        if (!t)
            return NULL;
        tenant_queue *q = &t->q[eng];
        trn_sched_op *op = q->head;
        if (op->next_shard == 0) { /* the first shard of a stage */
            refresh_estimate(s, op);
            const uint64_t now = trn_sched_now_ns();
            trn_sched_stage_times *tm = stage_times(op);
            if (op->stage == 0) {
                if (op->deadline_ns && now >= op->deadline_ns) {
                    expire_op(s, op, done);
                    continue;
                }
                timer_unlink(s, &op->deadline);
                op->t_start = now;
                s->inflight++;
                s->stats.ops_ahead += op->ahead == 1;
            }
            tm->t_start = now;
            t->usage.queue_ns += now - tm->t_ready;
        }
        *shard = op->next_shard++;
        runnable_sub(e, 1);
        e->busy++;
        if (op->next_shard == op->nshards) {
            q->head = op->ready_next;
            if (!q->head) {
                q->tail = NULL;
                backlog_remove(e, t, eng);
            }
        }
        e->vclock = q->vtime;
        q->vtime += op->shard_est_ns / t->weight;
        return op;
    }
}

/* A shard of op ran on w from t0 to t1 (lock held): account for it. */
static void account_shard(worker *w, trn_sched_op *op, uint64_t t0, uint64_t t1) {
    trn_sched_tenant *t = op->stream->tenant;
    const uint64_t ran = t1 - t0;
    const double cost = trn_op_cost(stage_desc(op)) / op->nshards;
    w->usage.shards++;
    w->usage.run_ns += ran;
    w->usage.queue_ns += t0 - stage_times(op)->t_ready;
    w->usage.cost += cost;
    t->usage.shards++;
    t->usage.run_ns += ran;
    t->usage.cost += cost;
    /* Replace the estimate charged at dispatch by the time it really took. */
    t->q[op->engine].vtime += ((double)ran - op->shard_est_ns) / t->weight;
}

/* The shard this worker thread is running (trn_sched_running_op): state of
 * the thread, read only by that thread, also from a signal handler. */
static _Thread_local const trn_sched_op *volatile running_op;
static _Thread_local volatile int running_shard, running_nshards;
static _Thread_local int running_followed;

int trn_sched_running_followed(void) {
    return running_op ? running_followed : 0;
}

/* Lock held: whether more work waits behind op (a chain's last), just taken from engine
 * eng (trn_sched_running_followed). A marker behind it (a synchronize, an
 * event) is no work for the core: its client waits for this op. */
static int followed(const trn_sched *s, const trn_sched_op *op, int eng) {
    /* The op behind it: behind the last op of a chain (which is ahead of
     * its turn, still queued), or the stream's head. */
    const trn_sched_op *next = op->ahead ? op->next : op->stream->head;
    return (next && !next->is_marker) || s->engines[eng].runnable > 0;
}

const trn_sched_op *trn_sched_running_op(int *shard, int *nshards) {
    if (shard)
        *shard = running_shard;
    if (nshards)
        *nshards = running_nshards;
    return running_op;
}

/* A shard of op ran on w from t0 to t1 with status k (lock held, which it
 * may drop and take again): its bookkeeping, the op's next stage or its
 * completion. self: w when its own thread calls, which looks for work
 * next (a seeker); NULL for a submitting thread (trn_sched_kick_run). */
static void shard_done(trn_sched *s, worker *w, trn_sched_op *op, trn_kstatus k, uint64_t t0,
                       uint64_t t1, worker *self) {
    seek_set(s, self, 1);
    s->engines[w->engine].busy--;
    account_shard(w, op, t0, t1);
    op->kstatus = merge_kstatus(op->kstatus, k);
    if (--op->shards_left == 0)
        stage_times(op)->t_end = t1;
    if (op->shards_left == 0 && op->ahead) {
        op->ahead = 2; /* ran ahead: the rest waits for its turn (resume_ahead) */
        return;
    }
    if (op->shards_left == 0 && next_stage(op) >= 0 && op->kstatus == TRN_KSTATUS_OK && !op->stop) {
        /* The next stage, on its own engine; the stream stays held. A
         * sequence's next step is usually this worker's next shard. */
        op->stage = next_stage(op);
        stage_prepare(s, op);
        stage_times(op)->t_ready = t1;
        /* A one-shard step on this worker's engine is its next shard (it
         * is a seeker): nobody is woken for it. */
        ready_push(s, op);
    } else if (op->shards_left == 0) {
        trn_sched_tenant *t = op->stream->tenant;
        op->t_end = t1;
        w->usage.ops++; /* the worker that finished it */
        t->usage.ops++;
        if (--s->inflight == 0 && s->stopping)
            wake_everyone(s); /* to leave */
        s->stats.ops_running--;
        s->stats.ops_completed++;
        op->stream->active = NULL;
        op->stream->completing = 1;
        seek_set(s, self, 0); /* callbacks first */
        sched_unlock(s);
        complete_active(s, op, self);
        pthread_mutex_lock(&s->lock);
        seek_set(s, self, 1);
    }
}

/* Runs a shard taken for w (called without the lock, returns with it) and
 * does its bookkeeping. With patience_ns (trn_sched_kick_run), a shard
 * still running after that long is handed to w's thread to conclude:
 * returns 0 then, else 1. */
static int run_taken(trn_sched *s, worker *w, trn_sched_op *op, int shard, uint64_t patience_ns,
                     worker *self) {
    const uint64_t t0 = trn_sched_now_ns();
    running_shard = shard;
    running_nshards = op->nshards;
    running_op = op;
    int pending = 0;
    const trn_kstatus k = run_shard(s, w, op, shard, patience_ns, &pending);
    running_op = NULL;
    const uint64_t t1 = trn_sched_now_ns();

    pthread_mutex_lock(&s->lock);
    if (pending) {
        w->handed = op;
        w->handed_shard = shard;
        w->handed_t0 = t0;
        if (w->sleeping)
            owe_wake(s, w); /* w itself, to conclude it: not a seeker yet */
        return 0;
    }
    shard_done(s, w, op, k, t0, t1, self);
    return 1;
}

/* w's thread, lock held: concludes the shard handed to it (run_taken). */
static void conclude_handed(trn_sched *s, worker *w) {
    trn_sched_op *op = w->handed;
    const int shard = w->handed_shard;
    const uint64_t t0 = w->handed_t0;
    w->handed = NULL;
    sched_unlock(s);
    running_shard = shard;
    running_nshards = op->nshards;
    running_op = op;
    const trn_kstatus k = s->cfg.run_core_finish(s->cfg.run_ctx, w->index);
    running_op = NULL;
    const uint64_t t1 = trn_sched_now_ns();
    note_program_run(stage_plan(op), k, t0, t1); /* its plan was ready: next_is_small */
    pthread_mutex_lock(&s->lock);
    w->lent = 0;
    shard_done(s, w, op, k, t0, t1, w);
}

/* ---- chains (trn_sched_config.run_core_chain) ---------------------------------------- */

/* Lock held: whether op, just taken by core worker w, may start a chain. */
static int chain_head_ok(const trn_sched *s, const worker *w, const trn_sched_op *op) {
    return s->cfg.run_core_chain && w->engine == TRN_ENGINE_CORE && !s->stopping &&
           op->nshards == 1 && !op->steps && next_stage(op) < 0 && !op->ahead &&
           op->stream->active == op && !trn_convert_standalone(stage_desc(op)) &&
           s->cfg.core_chains(s->cfg.run_ctx, stage_desc(op)) &&
           /* else run_shard waits for the plan (and reports its failure) */
           (!op->plan || trn_plan_entry_ready(op->plan, op->plan_part));
}

/* Lock held: whether op, queued behind a chain's last op, may join it. */
static int chain_next_ok(const trn_sched *s, const trn_sched_op *op) {
    return !op->is_marker && !op->ahead && !op->steps && op->nthen == 0 && !op->deadline_ns &&
           !op->first_stage_anywhere && op->engine == TRN_ENGINE_CORE && op->nshards == 1 &&
           !trn_convert_standalone(&op->desc) && s->cfg.core_chains(s->cfg.run_ctx, &op->desc) &&
           (!op->plan || trn_plan_entry_ready(op->plan, op->plan_part));
}

/* Lock held: op joins a chain, its one shard taken now, ahead of its turn
 * (take_shard's bookkeeping for a first shard). */
static void chain_claim(trn_sched *s, trn_sched_op *op, uint64_t now) {
    trn_sched_tenant *t = op->stream->tenant;
    op->ahead = 1;
    op->t_ready = op->stage_times[0].t_ready = now;
    op->t_start = op->stage_times[0].t_start = now;
    op->next_shard = 1;
    s->inflight++;
    s->engines[TRN_ENGINE_CORE].busy++;
    t->q[TRN_ENGINE_CORE].vtime += op->shard_est_ns / t->weight;
}

/* Lock held: op, claimed by chain_claim, was handed back unrun: it is
 * queued in its stream again as if never claimed, for any core. */
static void chain_unclaim(trn_sched *s, trn_sched_op *op) {
    trn_sched_tenant *t = op->stream->tenant;
    op->ahead = 0;
    op->t_ready = op->t_start = 0;
    memset(&op->stage_times[0], 0, sizeof(op->stage_times[0]));
    op->next_shard = 0;
    op->peeked = 0;
    op->drop_if_unrun = 0;
    s->inflight--; /* the chain's first op is still in flight: never 0 here */
    s->engines[TRN_ENGINE_CORE].busy--;
    t->q[TRN_ENGINE_CORE].vtime -= op->shard_est_ns / t->weight;
}

/* Lock held: whether next, the op queued behind a chain's last op `last`,
 * may be the chain's peek (trn_sched_config.chain_peek). */
static int chain_peek_ok(const trn_sched *s, const trn_sched_op *last, const trn_sched_op *next) {
    return s->cfg.chain_peek && s->cfg.chain_pairs && next && last->plan &&
           next->plan == last->plan && next->plan_part == last->plan_part &&
           chain_next_ok(s, next) && s->cfg.chain_peek(s->cfg.run_ctx, &next->desc);
}

/* Lock held: the ops to run with op, just taken by w: chain[0] = op, then
 * the ops queued right behind it on its stream that may join (sched.h),
 * and perhaps a peek at the op behind those (*peek set). Returns how many
 * (1: no chain), the peek included. */
static int chain_take(trn_sched *s, const worker *w, trn_sched_op *op, trn_sched_op **chain,
                      int *peek) {
    chain[0] = op;
    *peek = 0;
    if (!chain_head_ok(s, w, op))
        return 1;
    int n = 1;
    double est = op->shard_est_ns;
    const uint64_t now = trn_sched_now_ns();
    trn_sched_op *next = op->stream->head;
    for (; next && n < TRN_SCHED_CHAIN_MAX; next = next->next) {
        /* Only an op of the same plan part: what the backend can move ahead. */
        const int paired = n == 1 && s->cfg.chain_pairs && op->plan && next->plan == op->plan &&
                           next->plan_part == op->plan_part;
        if (!chain_next_ok(s, next))
            break;
        refresh_estimate(s, next);
        if (!paired && est + next->shard_est_ns > TRN_SCHED_CHAIN_BUDGET_NS)
            break;
        est += next->shard_est_ns;
        chain_claim(s, next, now);
        chain[n++] = next;
    }
    if (n < TRN_SCHED_CHAIN_MAX && chain_peek_ok(s, chain[n - 1], next)) {
        refresh_estimate(s, next);
        chain_claim(s, next, now);
        next->peeked = 1;
        chain[n++] = next;
        *peek = 1;
        s->stats.chain_peeks++;
    }
    if (n - *peek > 1)
        s->stats.chains++;
    return n;
}

/* ---- placement by location (trn_sched_config.locate) -------------------------------- */

/* Lock held: gives op, just taken by core worker w, to the worker of the
 * core that holds its inputs when waiting for that core costs less than
 * moving them (sched.h, locate). Returns 1 when it did. */
static int place_by_location(trn_sched *s, worker *w, trn_sched_op *op) {
    if (!s->cfg.locate || w->engine != TRN_ENGINE_CORE || !op->plan || op->deadline_ns ||
        !chain_head_ok(s, w, op))
        return 0;
    uint64_t extra_ns = 0;
    const engine *e = &s->engines[TRN_ENGINE_CORE];
    const int home =
        s->cfg.locate(s->cfg.run_ctx, stage_desc(op), op->plan, op->plan_part, w->index, &extra_ns);
    if (home < 0 || home >= e->count || home == w->index || extra_ns == 0)
        return 0;
    worker *h = &s->workers[e->first + home];
    if (h->mail || h->lent || h->handed ||
        (s->cfg.core_in_service && !s->cfg.core_in_service(s->cfg.run_ctx, home)))
        return 0;
    const uint64_t now = trn_sched_now_ns();
    /* A core that runs past its estimate (a plan it waits for, a slow
     * kernel) may take any time yet: not waited for. */
    if (h->running && h->until_ns <= now)
        return 0;
    const uint64_t wait = h->running ? h->until_ns - now : 0;
    if (wait >= extra_ns)
        return 0; /* moving them here costs less than waiting */
    /* A move leaves a second copy, which later ops use too; a wait leaves
     * nothing. So a plan's ops wait for busy cores only until their waits
     * add up to a move; that one moves (sched.h, locate). */
    if (wait > 0 && !trn_plan_entry_spend_busy_wait(op->plan, wait, extra_ns))
        return 0;
    h->mail = op;
    if (h->sleeping)
        owe_wake(s, h);
    s->stats.ops_placed_by_location++;
    return 1;
}

/* Lock held: the op handed to w by place_by_location, its shard 0, or NULL. */
static trn_sched_op *mail_take(worker *w) {
    trn_sched_op *op = w->mail;
    w->mail = NULL;
    return op;
}

/* Lock held: w leaves (its core went out of service) with an op handed to
 * it: the op is queued again, as if never taken (take_shard undone). */
static void mail_return(trn_sched *s, worker *w) {
    trn_sched_op *op = mail_take(w);
    if (!op)
        return;
    trn_sched_tenant *t = op->stream->tenant;
    op->next_shard = 0;
    op->t_start = stage_times(op)->t_start = 0;
    s->inflight--;
    s->engines[op->engine].busy--;
    t->q[op->engine].vtime -= op->shard_est_ns / t->weight;
    ready_enqueue(s, op);
}

/* Runs the chain w took (called without the lock, returns with it), then
 * concludes its ops: those behind the first ran ahead of their turn (each
 * completes in it, resume_ahead), then the first. peek: its last op is a
 * peek, which comes back unrun. */
static void run_chain(trn_sched *s, worker *w, trn_sched_op **chain, int n, int peek,
                      int followed) {
    trn_sched_chain_op ops[TRN_SCHED_CHAIN_MAX];
    for (int i = 0; i < n; i++) {
        trn_sched_op *op = chain[i];
        const int is_peek = peek && i == n - 1;
        struct trn_plan_entry *plan = stage_plan(op);
        if (plan && !is_peek)
            trn_plan_entry_ran_on(plan, w->index);
        ops[i] = (trn_sched_chain_op){.desc = stage_desc(op),
                                      .plan = plan,
                                      .plan_part = op->plan_part,
                                      .est_ns = watch_estimate_ns(op),
                                      .peek = is_peek,
                                      .ran = !is_peek};
    }
    const uint64_t t0 = trn_sched_now_ns();
    running_shard = 0;
    running_nshards = 1;
    running_op = chain[0];
    s->cfg.run_core_chain(s->cfg.run_ctx, w->index, ops, n, followed);
    running_op = NULL;
    const uint64_t t1 = trn_sched_now_ns();
    pthread_mutex_lock(&s->lock);
    for (int i = n - 1; i >= 0; i--) {
        trn_sched_op *op = chain[i];
        if (i > 0 && !ops[i].ran) {
            const int cancelled = op->drop_if_unrun; /* a cancel reached it: not run later */
            chain_unclaim(s, op);
            op->dropped |= cancelled;
            continue;
        }
        const uint64_t start = ops[i].t_start ? ops[i].t_start : t0;
        const uint64_t end = ops[i].t_end >= start ? ops[i].t_end : t1;
        note_program_run(stage_plan(op), ops[i].status, start, end);
        if (i > 0) {
            op->t_start = op->stage_times[0].t_start = start;
            w->usage.ops++; /* it completes in its turn, without a worker */
            s->stats.ops_chained++;
        }
        shard_done(s, w, op, ops[i].status, start, end, w);
    }
}

/* ---- sequences run together (trn_sched_op.together_plan) ------------------------------ */

/* Lock held: whether the sequence op, whose first step core worker w just
 * took, runs all its steps together now (sched.h, together_plan). */
static int together_ok(const trn_sched *s, const worker *w, const trn_sched_op *op, int shard) {
    if (!op->together_plan || !op->steps || op->stage != 0 || shard != 0 || op->nshards != 1 ||
        op->loop_last != 0 || op->nsteps < 2 || op->nsteps > TRN_SCHED_CHAIN_MAX ||
        w->engine != TRN_ENGINE_CORE ||
        !(s->cfg.run_core ? s->cfg.run_core_together != NULL : s->be->run_seq != NULL))
        return 0;
    if (trn_plan_entry_ready(op->together_plan, 0))
        return 1;
    /* Not yet: a build that ran out of memory is queued again (one still
     * queued or building, or a failed one, stays as it is). */
    trn_plan_entry_require(op->together_plan, 0);
    return 0;
}

/* Lock held: op's estimate becomes that of all its steps run together (the
 * program's measured runs, before them the steps' own estimates added
 * up); its tenant is charged the difference from its first step's, which
 * take_shard charged. */
static void together_charge(trn_sched *s, trn_sched_op *op) {
    double est = (double)trn_plan_entry_run_ns(op->together_plan);
    for (int k = 0; est == 0 && k < op->nsteps; k++)
        est += estimate_shard_ns(s, op->steps[k].desc, op->steps[k].plan, 1);
    trn_sched_tenant *t = op->stream->tenant;
    t->q[op->engine].vtime += (est - op->shard_est_ns) / t->weight;
    op->shard_est_ns = est;
}

/* Lock held: the usage of op's steps other than `at` (shard_done's
 * accounting counts the step the op ends at): their cost and a shard each,
 * so that a segment run together counts as its steps run one by one. */
static void together_usage(worker *w, const trn_sched_op *op, int at) {
    trn_sched_tenant *t = op->stream->tenant;
    for (int k = 0; k < op->nsteps; k++) {
        if (k == at)
            continue;
        const double cost = trn_op_cost(op->steps[k].desc);
        w->usage.shards++;
        w->usage.cost += cost;
        t->usage.shards++;
        t->usage.cost += cost;
    }
}

/* Runs every step of op together on w's core (called without the lock,
 * returns with it), then concludes the op as its last step would, or, when
 * the run failed, as the first step whose kernel said why. */
static void run_together(trn_sched *s, worker *w, trn_sched_op *op) {
    const int n = op->nsteps;
    const trn_op_desc *descs[TRN_SCHED_CHAIN_MAX];
    double host = 0;
    for (int k = 0; k < n; k++) {
        descs[k] = op->steps[k].desc;
        if (k > 0) /* step 0's was set up when the op was queued */
            trn_kmsg_init(descs[k]->kmsg);
        host += host_estimate_ns(descs[k], 1);
    }
    struct trn_plan_entry *plan = op->together_plan;
    trn_plan_entry_ran_on(plan, w->index);
    const uint64_t watch = (uint64_t)(op->shard_est_ns > host ? op->shard_est_ns : host);
    const uint64_t t0 = trn_sched_now_ns();
    running_shard = 0;
    running_nshards = 1;
    running_op = op;
    const trn_kstatus k = s->cfg.run_core
                              ? s->cfg.run_core_together(s->cfg.run_ctx, w->index, descs, n, plan,
                                                         watch, running_followed)
                              : s->be->run_seq(s->be, descs, n, trn_plan_entry_plan(plan));
    running_op = NULL;
    const uint64_t t1 = trn_sched_now_ns();
    note_program_run(plan, k, t0, t1);
    pthread_mutex_lock(&s->lock);
    int at = n - 1;
    if (k != TRN_KSTATUS_OK) {
        at = 0;
        while (at < n - 1 && !descs[at]->kmsg->set)
            at++;
        if (!descs[at]->kmsg->set)
            at = 0;
    }
    for (int j = 0; j < n && j < TRN_SCHED_MAX_STAGES; j++)
        op->stage_times[j] = (trn_sched_stage_times){
            .t_ready = j ? t0 : op->stage_times[0].t_ready,
            .t_start = t0,
            .t_end = t1,
            .engine = TRN_ENGINE_CORE,
        };
    op->stage = at;
    if (k == TRN_KSTATUS_OK)
        s->stats.seqs_together++;
    together_usage(w, op, at);
    shard_done(s, w, op, k, t0, t1, w);
}

/* w's thread, lock held: sleeps until woken by name. It stops being a
 * seeker first and sends the wake-ups owed, so that work it leaves behind
 * (a lent worker's engine may have some) goes to another worker. */
static void worker_sleep(trn_sched *s, worker *w) {
    seek_set(s, w, 0);
    w->woke_for_work = 0;
    wake_now_locked(s);
    w->sleeping = 1;
    while (w->sleeping)
        pthread_cond_wait(&w->cv, &s->lock);
}

static void *worker_main(void *arg) {
    worker *w = arg;
    trn_sched *s = w->sched;
    /* "trn-core0", "trn-copy0": what top -H, gdb and the crash report's
     * thread id map to. */
    char name[16];
    snprintf(name, sizeof(name), "trn-%.4s%d", trn_engine_name(w->engine), w->index);
    pthread_setname_np(pthread_self(), name);
    pin_to_cpu(w->cpu);
    if (w->engine == TRN_ENGINE_CORE && s->be->core_init)
        s->be->core_init(s->be, w->index);

    completion_list done = {0};
    pthread_mutex_lock(&s->lock);
    for (;;) {
        if (w->handed) {
            conclude_handed(s, w);
            continue;
        }
        if (w->engine == TRN_ENGINE_CORE && s->cfg.core_in_service &&
            !s->cfg.core_in_service(s->cfg.run_ctx, w->index)) {
            mail_return(s, w);
            break; /* out of service: the other workers take its share */
        }
        if (w->lent) { /* another thread runs a shard in its name */
            worker_sleep(s, w);
            continue;
        }
        int shard = 0; /* a handed op's is 0: it has one */
        trn_sched_op *op = mail_take(w);
        if (!op) {
            op = take_shard(s, w->engine, &shard, &done);
            while (op && place_by_location(s, w, op))
                op = take_shard(s, w->engine, &shard, &done);
        }
        trn_sched_op *chain[TRN_SCHED_CHAIN_MAX];
        int peek = 0;
        const int nchain = op ? chain_take(s, w, op, chain, &peek) : 0;
        if (op) /* a peek follows the op before it */
            running_followed = followed(s, chain[nchain - 1 - peek], w->engine);
        if (w->woke_for_work && !op)
            s->stats.wakeups_idle++;
        w->woke_for_work = 0;
        if (op)
            seek_set(s, w, 0); /* running a shard */
        if (done.head || done.wake) {
            stream_advance(s, NULL, &done);
            seek_set(s, w, 0); /* callbacks first */
            sched_unlock(s);
            run_completions(s, &done, NULL);
            pthread_mutex_lock(&s->lock);
            if (!op) {
                /* Look again before sleeping: work that came while the
                 * callbacks ran may have found no one else to wake. */
                seek_set(s, w, 1);
                continue;
            }
        }
        if (!op) {
            /* Stopping: leave once no started op can bring a stage here. */
            if (s->stopping && s->inflight == 0)
                break;
            worker_sleep(s, w);
            continue;
        }
        const int together = op && nchain == 1 && together_ok(s, w, op, shard);
        if (together)
            together_charge(s, op);
        if (s->cfg.locate) { /* how long this core will be busy, for placement */
            double est = 0;
            for (int i = 0; i < nchain - peek; i++)
                est += chain[i]->shard_est_ns;
            struct trn_plan_entry *plan = stage_plan(op);
            const unsigned part = op->steps ? op->steps[op->stage].plan_part : op->plan_part;
            w->running = 1;
            w->until_ns = plan && !together && !trn_plan_entry_ready(plan, part)
                              ? UINT64_MAX /* it waits for its plan first */
                              : trn_sched_now_ns() + (uint64_t)est;
        }
        sched_unlock(s);
        if (together)
            run_together(s, w, op);
        else if (nchain > 1)
            run_chain(s, w, chain, nchain, peek, running_followed);
        else
            run_taken(s, w, op, shard, 0, w);
        w->running = 0;
    }
    seek_set(s, w, 0); /* leaving: sched_unlock gives its share to others */
    sched_unlock(s);
    return NULL;
}

/* Fires due timers: op deadlines here, callers' timers after the unlock. */
static void *timer_main(void *arg) {
    trn_sched *s = arg;
    completion_list done = {0};
    pthread_mutex_lock(&s->lock);
    while (!s->timer_stop) {
        trn_sched_timer *t = s->timers;
        if (!t) {
            wake_now_locked(s);
            pthread_cond_wait(&s->timer_cv, &s->lock);
            continue;
        }
        const uint64_t now = trn_sched_now_ns();
        if (now < t->when_ns) {
            struct timespec ts = {.tv_sec = (time_t)(t->when_ns / 1000000000ull),
                                  .tv_nsec = (long)(t->when_ns % 1000000000ull)};
            wake_now_locked(s);
            pthread_cond_timedwait(&s->timer_cv, &s->lock, &ts);
            continue;
        }
        timer_unlink(s, t);
        if (t->op) {
            expire_op(s, t->op, &done);
            stream_advance(s, NULL, &done);
        } else {
            done.fired = t; /* fired alone, below */
        }
        if (!done.fired && s->timers && s->timers->when_ns <= now)
            continue; /* expire every due deadline before unlocking */
        sched_unlock(s);
        run_completions(s, &done, NULL);
        pthread_mutex_lock(&s->lock);
    }
    sched_unlock(s);
    run_completions(s, &done, NULL);
    return NULL;
}

/* ---- life cycle ------------------------------------------------------------------------ */

static int start_worker(trn_sched *s, int i, int eng, int index, int cpu, char *err,
                        size_t errlen) {
    worker *w = &s->workers[i];
    w->sched = s;
    w->engine = eng;
    w->index = index;
    w->cpu = cpu;
    /* A new worker looks for work before it first sleeps. */
    pthread_mutex_lock(&s->lock);
    seek_set(s, w, 1);
    pthread_mutex_unlock(&s->lock);
    const int rc = pthread_create(&w->thread, NULL, worker_main, w);
    if (rc != 0) {
        pthread_mutex_lock(&s->lock);
        seek_set(s, w, 0);
        pthread_mutex_unlock(&s->lock);
        snprintf(err, errlen, "cannot start %s worker %d: %s", trn_engine_name(eng), index,
                 strerror(rc));
        return -1;
    }
    w->started = 1;
    return 0;
}

static trn_sched_tenant *tenant_new(double weight) {
    trn_sched_tenant *t = calloc(1, sizeof(*t));
    if (t) {
        t->weight = weight > 0 ? weight : 1.0;
        t->refs = 1;
    }
    return t;
}

trn_sched *trn_sched_create(const trn_backend *be, const trn_sched_config *cfg, char *err,
                            size_t errlen) {
    if (cfg->ncores < 1 || cfg->ncopy < 0) {
        snprintf(err, errlen,
                 "scheduler needs at least one core (got %d) and no negative copy "
                 "engine count (got %d)",
                 cfg->ncores, cfg->ncopy);
        return NULL;
    }
    trn_sched *s = calloc(1, sizeof(*s));
    if (!s)
        goto nomem;
    s->nworkers = cfg->ncores + cfg->ncopy;
    s->workers = calloc((size_t)s->nworkers, sizeof(*s->workers));
    s->default_tenant = tenant_new(1.0);
    if (!s->workers || !s->default_tenant)
        goto nomem;
    s->be = be;
    s->cfg = *cfg;
    s->cfg.cpus = NULL; /* the caller's, read only here */
    pthread_mutex_init(&s->lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->timer_cv, &ca);
    pthread_condattr_destroy(&ca);
    s->engines[TRN_ENGINE_CORE] = (engine){.first = 0, .count = cfg->ncores};
    s->engines[TRN_ENGINE_COPY] = (engine){.first = cfg->ncores, .count = cfg->ncopy};
    for (int i = 0; i < s->nworkers; i++)
        pthread_cond_init(&s->workers[i].cv, NULL);
    s->stats.workers = (unsigned)s->nworkers;

    int rc = pthread_create(&s->timer_thread, NULL, timer_main, s);
    if (rc != 0) {
        snprintf(err, errlen, "cannot start the timer thread: %s", strerror(rc));
        goto fail;
    }
    s->timer_started = 1;
    for (int i = 0; i < cfg->ncores; i++)
        if (start_worker(s, i, TRN_ENGINE_CORE, i, cfg->cpus ? cfg->cpus[i] : -1, err, errlen))
            goto fail;
    for (int i = 0; i < cfg->ncopy; i++)
        if (start_worker(s, cfg->ncores + i, TRN_ENGINE_COPY, i, -1, err, errlen))
            goto fail;
    return s;

fail:
    trn_sched_shutdown(s);
    trn_sched_destroy(s);
    return NULL;
nomem:
    snprintf(err, errlen, "out of memory creating the scheduler");
    if (s) {
        free(s->workers);
        free(s->default_tenant);
    }
    free(s);
    return NULL;
}

/* While stopping (lock held): complete every op none of whose shards has
 * started, and every parked stream's queue, with SHUTDOWN. */
static void cancel_unstarted(trn_sched *s, completion_list *done) {
    /* Ops queued ahead of their turn first: back into their streams'
     * queues, drained with them below (no stream has two ops then). */
    for (int eng = 0; eng < TRN_ENGINE_COUNT; eng++)
        for (trn_sched_tenant *t = s->engines[eng].backlog; t;) {
            trn_sched_tenant *next_t = t->q[eng].next;
            for (trn_sched_op *op = t->q[eng].head; op;) {
                trn_sched_op *next = op->ready_next;
                if (op->ahead == 1 && !op_started(op) && ready_remove(s, op) == 0)
                    op->ahead = 0;
                op = next;
            }
            t = next_t;
        }
    for (int eng = 0; eng < TRN_ENGINE_COUNT; eng++) {
        engine *e = &s->engines[eng];
        trn_sched_tenant *t = e->backlog;
        while (t) {
            trn_sched_tenant *next_t = t->q[eng].next;
            trn_sched_op *op = t->q[eng].head;
            while (op) {
                trn_sched_op *next = op->ready_next;
                if (!op_started(op)) {
                    trn_sched_stream *st = op->stream;
                    ready_remove(s, op);
                    st->active = NULL;
                    s->stats.ops_running--;
                    finish_later(s, done, op, TRN_SCHED_SHUTDOWN);
                    stream_drain_queued(s, st, TRN_SCHED_SHUTDOWN, done);
                    stream_advance_one(s, st, done); /* an op started ahead goes on */
                }
                op = next;
            }
            t = next_t;
        }
    }
    while (s->parked)
        stream_drain_queued(s, s->parked, TRN_SCHED_SHUTDOWN, done);
}

void trn_sched_shutdown(trn_sched *s) {
    completion_list done = {0};
    pthread_mutex_lock(&s->lock);
    s->stopping = 1;
    cancel_unstarted(s, &done);
    stream_advance(s, NULL, &done);
    wake_everyone(s);
    sched_unlock(s);
    run_completions(s, &done, NULL);

    for (int i = 0; i < s->nworkers; i++) {
        if (s->workers[i].started) {
            pthread_join(s->workers[i].thread, NULL);
            s->workers[i].started = 0;
        }
    }
    if (s->timer_started) {
        pthread_mutex_lock(&s->lock);
        s->timer_stop = 1;
        pthread_cond_signal(&s->timer_cv);
        sched_unlock(s);
        pthread_join(s->timer_thread, NULL);
        s->timer_started = 0;
    }
}

void trn_sched_destroy(trn_sched *s) {
    if (!s)
        return;
    for (int i = 0; i < s->nworkers; i++)
        pthread_cond_destroy(&s->workers[i].cv);
    pthread_cond_destroy(&s->timer_cv);
    pthread_mutex_destroy(&s->lock);
    if (s->default_tenant)
        tenant_put(s->default_tenant);
    free(s->workers);
    free(s);
}

/* ---- tenants ------------------------------------------------------------------------------ */

trn_sched_tenant *trn_sched_tenant_create(trn_sched *s, double weight) {
    (void)s;
    return tenant_new(weight);
}

void trn_sched_tenant_set_weight(trn_sched *s, trn_sched_tenant *t, double weight) {
    pthread_mutex_lock(&s->lock);
    if (weight > 0)
        t->weight = weight;
    sched_unlock(s);
}

void trn_sched_tenant_release(trn_sched *s, trn_sched_tenant *t) {
    pthread_mutex_lock(&s->lock);
    tenant_put(t);
    sched_unlock(s);
}

void trn_sched_tenant_usage(trn_sched *s, const trn_sched_tenant *t, trn_sched_usage *out) {
    pthread_mutex_lock(&s->lock);
    *out = t->usage;
    sched_unlock(s);
}

/* ---- streams ------------------------------------------------------------------------------ */

trn_sched_stream *trn_sched_stream_create(trn_sched *s, trn_sched_tenant *t) {
    trn_sched_stream *st = calloc(1, sizeof(*st));
    if (!st)
        return NULL;
    st->refs = 1;
    pthread_mutex_lock(&s->lock);
    st->tenant = t ? t : s->default_tenant;
    st->tenant->refs++;
    sched_unlock(s);
    return st;
}

void trn_sched_stream_retain(trn_sched *s, trn_sched_stream *st) {
    pthread_mutex_lock(&s->lock);
    st->refs++;
    sched_unlock(s);
}

void trn_sched_stream_release(trn_sched *s, trn_sched_stream *st) {
    pthread_mutex_lock(&s->lock);
    stream_put(st);
    sched_unlock(s);
}

void trn_sched_stream_cancel(trn_sched *s, trn_sched_stream *st) {
    completion_list done = {0};
    pthread_mutex_lock(&s->lock);
    trn_sched_op *active = st->active;
    if (active && !op_started(active) && ready_remove(s, active) == 0) {
        st->active = NULL;
        s->stats.ops_running--;
        finish_later(s, &done, active, TRN_SCHED_CANCELLED);
    } else if (active && active->steps) {
        active->stop = 1; /* a sequence stops before its next step */
    }
    stream_drain_queued(s, st, TRN_SCHED_CANCELLED, &done);
    stream_advance(s, st, &done); /* an op started ahead goes on (it is at the head) */
    sched_unlock(s);
    run_completions(s, &done, NULL);
}

/* With s->lock held: wakes the workers of every engine with ready work. */
static void kick_locked(trn_sched *s) {
    s->unkicked = 0;
    for (int i = 0; i < TRN_ENGINE_COUNT; i++)
        s->engines[i].unkicked = 0; /* sched_unlock wakes as many as they need */
}

int trn_sched_submit(trn_sched *s, trn_sched_stream *st, trn_sched_op *op) {
    completion_list done = {0};
    op->next = NULL;
    op->ready_next = NULL;
    op->stream = st;
    op->kstatus = TRN_KSTATUS_OK;
    op->next_shard = 0;
    op->stage = 0;
    op->advance_after = 0;
    op->stop = 0;
    op->ahead = 0;
    op->peeked = op->dropped = op->drop_if_unrun = 0;
    op->t_submit = trn_sched_now_ns();
    op->t_ready = op->t_start = op->t_end = 0;
    memset(op->stage_times, 0, sizeof(op->stage_times));
    memset(&op->deadline, 0, sizeof(op->deadline));
    trn_kmsg_init(&op->kmsg);
    op->desc.kmsg = &op->kmsg;
    for (int i = 0; i < TRN_SCHED_MAX_STAGES - 1; i++)
        op->then[i].kmsg = &op->kmsg;

    pthread_mutex_lock(&s->lock);
    if (s->stopping) {
        sched_unlock(s);
        return -1;
    }
    if (op->is_marker) {
        op->engine = TRN_ENGINE_CORE;
        op->nshards = op->shards_left = 0;
        op->nthen = 0;
    } else {
        if (op->nthen < 0 || op->nthen > TRN_SCHED_MAX_STAGES - 1)
            op->nthen = op->nthen < 0 ? 0 : TRN_SCHED_MAX_STAGES - 1;
        stage_prepare(s, op);
        s->stats.ops_queued++;
    }
    if (op->signal)
        op->signal->refs++;
    if (op->wait)
        op->wait->refs++;
    st->refs++;
    if (st->tail)
        st->tail->next = op;
    else
        st->head = op;
    st->tail = op;
    if (!op->is_marker && op->deadline_ns) {
        op->deadline.when_ns = op->deadline_ns;
        op->deadline.op = op;
        timer_link(s, &op->deadline);
    }
    s->quiet = op->defer_wake; /* only while this thread holds the lock */
    stream_advance(s, st, &done);
    s->quiet = 0;
    if (!op->defer_wake && s->unkicked)
        kick_locked(s); /* an op that waits behind quiet ones wakes them */
    sched_unlock(s);
    run_completions(s, &done, NULL);
    return 0;
}

void trn_sched_kick(trn_sched *s) {
    pthread_mutex_lock(&s->lock);
    if (s->unkicked)
        kick_locked(s);
    sched_unlock(s);
}

/* With s->lock held: a core worker asleep with nothing to do whose core is
 * in service, or NULL. */
static worker *idle_core_worker(trn_sched *s) {
    const engine *e = &s->engines[TRN_ENGINE_CORE];
    for (int i = e->first; i < e->first + e->count; i++) {
        worker *w = &s->workers[i];
        if (w->started && w->sleeping && !w->lent &&
            (!s->cfg.core_in_service || s->cfg.core_in_service(s->cfg.run_ctx, w->index)))
            return w;
    }
    return NULL;
}

/* With s->lock held: whether the op the core engine would run next is one a
 * submitting thread may run (trn_sched_kick_run): one shard, one stage, no
 * plan to wait for (none, or its part prepared: a resident NEFF's GEMM),
 * estimated at most max_est_ns. The plan cache's lock is taken inside the
 * scheduler's here; the plan cache never calls the scheduler. */
static int next_is_small(trn_sched *s, uint64_t max_est_ns) {
    engine *e = &s->engines[TRN_ENGINE_CORE];
    const trn_sched_tenant *t = least_vtime(e, TRN_ENGINE_CORE);
    if (!t)
        return 0;
    trn_sched_op *op = t->q[TRN_ENGINE_CORE].head;
    if (op->next_shard == 0)
        refresh_estimate(s, op); /* as take_shard would, before it is charged */
    return op->next_shard == 0 && op->nshards == 1 && op->stage == 0 && !op->steps &&
           op->nthen == 0 && op->shard_est_ns <= (double)max_est_ns &&
           (!op->plan || trn_plan_entry_ready(op->plan, op->plan_part));
}

int trn_sched_kick_run(trn_sched *s, uint64_t max_est_ns, uint64_t patience_ns) {
    completion_list done = {0};
    trn_sched_op *op = NULL;
    worker *w = NULL;
    int shard = 0;
    pthread_mutex_lock(&s->lock);
    if (s->unkicked && s->cfg.run_core && s->cfg.run_core_finish && !s->stopping &&
        (w = idle_core_worker(s)) && next_is_small(s, max_est_ns)) {
        op = take_shard(s, TRN_ENGINE_CORE, &shard, &done);
        if (op) {
            w->lent = 1;
            running_followed = followed(s, op, TRN_ENGINE_CORE);
        }
    }
    if (s->unkicked)
        kick_locked(s); /* the rest, for the other workers */
    if (done.head || done.wake)
        stream_advance(s, NULL, &done);
    sched_unlock(s);
    run_completions(s, &done, NULL);
    if (!op)
        return 0;
    if (run_taken(s, w, op, shard, patience_ns, NULL))
        w->lent = 0; /* else w concludes it */
    sched_unlock(s); /* wakes w or another for what came meanwhile */
    return 1;
}

/* ---- fences ------------------------------------------------------------------------------- */

trn_sched_fence *trn_sched_fence_create(trn_sched *s) {
    (void)s;
    trn_sched_fence *f = calloc(1, sizeof(*f));
    if (f)
        f->refs = 1;
    return f;
}

void trn_sched_fence_retain(trn_sched *s, trn_sched_fence *f) {
    pthread_mutex_lock(&s->lock);
    f->refs++;
    sched_unlock(s);
}

void trn_sched_fence_release(trn_sched *s, trn_sched_fence *f) {
    pthread_mutex_lock(&s->lock);
    fence_put(f);
    sched_unlock(s);
}

int trn_sched_fence_query(trn_sched *s, const trn_sched_fence *f, uint64_t *t_ns) {
    pthread_mutex_lock(&s->lock);
    const int done = f->signalled;
    if (done && t_ns)
        *t_ns = f->t_ns;
    sched_unlock(s);
    return done;
}

/* ---- timers ------------------------------------------------------------------------------- */

void trn_sched_timer_start(trn_sched *s, trn_sched_timer *t) {
    pthread_mutex_lock(&s->lock);
    t->op = NULL;
    timer_unlink(s, t);
    timer_link(s, t);
    sched_unlock(s);
}

int trn_sched_timer_stop(trn_sched *s, trn_sched_timer *t) {
    pthread_mutex_lock(&s->lock);
    const int was_armed = t->armed;
    timer_unlink(s, t);
    sched_unlock(s);
    return was_armed;
}

/* ---- accounting ----------------------------------------------------------------------------- */

void trn_sched_get_stats(trn_sched *s, trn_sched_stats *out) {
    pthread_mutex_lock(&s->lock);
    *out = s->stats;
    sched_unlock(s);
}

int trn_sched_worker_count(const trn_sched *s) {
    return s->nworkers;
}

void trn_sched_worker_get(trn_sched *s, int i, trn_sched_worker_info *out) {
    pthread_mutex_lock(&s->lock);
    const worker *w = &s->workers[i];
    out->engine = w->engine;
    out->index = w->index;
    out->cpu = w->cpu;
    out->usage = w->usage;
    sched_unlock(s);
}
