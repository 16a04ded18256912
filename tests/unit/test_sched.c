/*
 * test_sched.c — scheduler/sched.h with the CPU backend and 2 workers.
 *
 * Rules checked (from sched.h):
 *  - ops on one stream run one after another in submission order (each
 *    kernel ends before the next one of its stream starts), even with 2
 *    workers; different streams are independent; every op completes once;
 *  - a marker completes only after every op queued before it on its stream
 *    has run, and at once on an idle stream; a blocked stream does not hold up
 *    a marker on another stream;
 *  - trn_sched_stream_cancel completes the stream's queued ops and markers
 *    with TRN_SCHED_CANCELLED (their kernels never run) while the running op
 *    finishes normally; the stream stays usable;
 *  - trn_sched_shutdown completes queued ops with TRN_SCHED_SHUTDOWN, lets
 *    running ops finish, and submit afterwards returns -1 without calling the
 *    callback;
 *  - a backend without a kernel for an op gives TRN_SCHED_UNSUPPORTED;
 *  - an op whose shards fail differently: bad input (FAILED) outranks out
 *    of memory whichever shard finishes first, in the status and in the
 *    message; when every shard is out of memory, TRN_SCHED_NO_MEMORY with
 *    the lowest shard's message;
 *  - a completion callback may submit to the scheduler;
 *  - the stats counters are 0 queued / 0 running once everything completed;
 *  - sharding: trn_sched_shard_count follows the policy at each minimum's
 *    boundary; big GEMMs, memsets and copies run as ncores shards, each shard
 *    once, small ones and an overlapping copy as one; the shards of one op run
 *    concurrently on different workers while ops of one stream still never
 *    overlap; the shard count (and the result, bit for bit) is the same idle,
 *    with one worker blocked and with both blocked behind queued work, and
 *    the result is the same on 1, 3 and 4 workers; an op with a shard taken
 *    is not cancelled by a stream cancel or by shutdown, and its remaining
 *    shards still run;
 *  - with a core out of service (core_in_service), every op still runs, on
 *    the other core only;
 *  - a stream of one-shard ops, and deferred ops kicked one at a time, wake
 *    no worker that then finds nothing to do (trn_sched_stats.wakeups_idle);
 *  - trn_sched_kick_run runs a small op in the calling thread in an idle
 *    core's name, leaves a big one to the workers, and hands a run still
 *    going after its patience to the core's worker thread to conclude;
 *  - chains: the one-shard ops queued behind a stream's op go to the core
 *    (run_core_chain) in chains of consecutive ops, up to
 *    TRN_SCHED_CHAIN_MAX, never across a marker, a deadline or an op the
 *    hook refuses; each op keeps its own status, callback order and times;
 *    a cancel or shutdown lets a running chain finish.
 *
 * The backend under test wraps the real CPU backend (every kernel is the CPU
 * backend's) and adds: a log of when each shard of each op starts and ends,
 * with its shard index, shard count and worker (so execution order and
 * placement are observed directly); gates: a memset whose destination is one
 * of the gate addresses blocks before running until the test opens that gate
 * (to hold an op, or one of its shards, in the "running" state
 * deterministically); and a "meet" address whose memset shards each wait
 * until all of them are inside the kernel (proof that they run concurrently).
 *
 * Three tests are regression tests for bugs this suite found (callbacks out of
 * stream order, a marker completing OK at shutdown, cancel missing an op that
 * waits for a worker); their notes describe the original failure.
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
#include "scheduler/plan_cache.h"
#include "scheduler/sched.h"

#define NWORKERS 2
#define NGATES 4
#define WAIT_S 20

/* ---- the gated CPU backend ------------------------------------------------------- */

typedef struct gate_backend {
    trn_backend be; /* first: the scheduler sees this */
    trn_backend *cpu;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    unsigned char mem[NGATES]; /* a memset to mem[i] is gate i ... */
    const void *gate[NGATES];  /* ... unless a test points gate i elsewhere */
    int entered[NGATES];       /* shards that reached gate i */
    int entered_core[NGATES];  /* the core of the last one */
    int open[NGATES];
    const void *meet; /* every shard of a memset to here waits for all the others */
    int meet_entered, meet_timed_out;
    /* The shards of a memset to split_fail fail instead of running: shard
     * nomem_shard (-1: every shard) out of memory, the others with bad
     * input; shard split_first first, the others after it. */
    const void *split_fail;
    int nomem_shard, split_first, split_first_done;
    /* A memset to loop_key counts its runs in loop_runs and returns
     * TRN_KSTATUS_SEQ_DONE at run loop_done_at (a looping sequence's end). */
    const void *loop_key;
    int loop_runs, loop_done_at;
    /* run_seq: its calls and the ops of the last; a step writing seq_fail
     * makes the call fail, naming that step, before any step runs. */
    int seq_calls, seq_last_n;
    const void *seq_fail;
    /* Kernel log, in time order: one start (end = 0) and one end (end = 1)
     * event per shard, keyed by what the op writes (memset/copy dst, GEMM c). */
    struct {
        const void *dst;
        int end;
        int shard, nshards;
        int core; /* the worker's core index (from core_init) */
    } ev[4096];
    int nev;
} gate_backend;

static _Thread_local int tls_core = -1;

static void gate_log(gate_backend *g, const void *dst, int end, int shard, int nshards) {
    pthread_mutex_lock(&g->lock);
    if (g->nev < (int)(sizeof(g->ev) / sizeof(g->ev[0]))) {
        g->ev[g->nev].dst = dst;
        g->ev[g->nev].end = end;
        g->ev[g->nev].shard = shard;
        g->ev[g->nev].nshards = nshards;
        g->ev[g->nev].core = tls_core;
        g->nev++;
    }
    pthread_mutex_unlock(&g->lock);
}

static void deadline_in(struct timespec *ts, int seconds) {
    clock_gettime(CLOCK_REALTIME, ts);
    ts->tv_sec += seconds;
}

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

/* The failing shards of test_mixed_failures. */
static trn_kstatus split_fail_run(gate_backend *g, const trn_op_desc *op, int shard) {
    if (shard != g->split_first) {
        struct timespec ts;
        deadline_in(&ts, WAIT_S / 2);
        pthread_mutex_lock(&g->lock);
        while (!g->split_first_done)
            if (pthread_cond_timedwait(&g->cond, &g->lock, &ts) == ETIMEDOUT)
                break;
        pthread_mutex_unlock(&g->lock);
        /* The first shard's status is merged right after it returns. */
        const struct timespec pause = {0, 50 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    trn_kstatus k;
    if (g->nomem_shard < 0 || shard == g->nomem_shard) {
        k = trn_kmsg_no_memory(op->kmsg, shard, 1000 + (size_t)shard, "shard %d's scratch", shard);
    } else {
        trn_kmsg_post(op->kmsg, 7, 1, "bad input at 7 (shard %d)", shard);
        k = TRN_KSTATUS_FAILED;
    }
    if (shard == g->split_first) {
        pthread_mutex_lock(&g->lock);
        g->split_first_done = 1;
        pthread_cond_broadcast(&g->cond);
        pthread_mutex_unlock(&g->lock);
    }
    return k;
}

static trn_kstatus gate_run(const trn_backend *be, const trn_op_desc *op, void *plan, int shard,
                            int nshards) {
    gate_backend *g = (gate_backend *)be;
    const void *key = op_key(op);
    if (key && key == g->split_fail)
        return split_fail_run(g, op, shard);
    int stand_in = 0; /* a gated op other than a memset computes nothing */
    if (op->kind == TRN_OP_MEMSET || op->kind == TRN_OP_GEMM) {
        pthread_mutex_lock(&g->lock);
        for (int i = 0; i < NGATES; i++) {
            if (key != g->gate[i])
                continue;
            stand_in = op->kind != TRN_OP_MEMSET;
            g->entered[i]++;
            g->entered_core[i] = tls_core;
            pthread_cond_broadcast(&g->cond);
            while (!g->open[i])
                pthread_cond_wait(&g->cond, &g->lock);
        }
        if (key == g->meet) {
            /* Proceed only once every shard of the op is inside the kernel
             * at the same time, i.e. they run concurrently. */
            struct timespec ts;
            deadline_in(&ts, WAIT_S / 2); /* fail here before the test's waits do */
            g->meet_entered++;
            pthread_cond_broadcast(&g->cond);
            while (g->meet_entered < nshards && !g->meet_timed_out)
                if (pthread_cond_timedwait(&g->cond, &g->lock, &ts) == ETIMEDOUT)
                    g->meet_timed_out = 1;
        }
        pthread_mutex_unlock(&g->lock);
    }
    gate_log(g, key, 0, shard, nshards);
    trn_kstatus k = stand_in ? TRN_KSTATUS_OK : g->cpu->run(g->cpu, op, plan, shard, nshards);
    gate_log(g, key, 1, shard, nshards);
    if (key && key == g->loop_key) {
        pthread_mutex_lock(&g->lock);
        if (++g->loop_runs == g->loop_done_at && k == TRN_KSTATUS_OK)
            k = TRN_KSTATUS_SEQ_DONE;
        pthread_mutex_unlock(&g->lock);
    }
    return k;
}

/* The backend's run_seq (trn_sched_op.together_plan): the steps in order,
 * each as gate_run would run it. */
static trn_kstatus gate_run_seq(const trn_backend *be, const trn_op_desc *const *ops, int n,
                                void *plan) {
    gate_backend *g = (gate_backend *)be;
    (void)plan;
    pthread_mutex_lock(&g->lock);
    g->seq_calls++;
    g->seq_last_n = n;
    const void *fail = g->seq_fail;
    pthread_mutex_unlock(&g->lock);
    for (int i = 0; i < n; i++)
        if (fail && op_key(ops[i]) == fail) {
            trn_kmsg_post(ops[i]->kmsg, 0, 1, "step %d refused", i);
            return TRN_KSTATUS_FAILED;
        }
    trn_kstatus k = TRN_KSTATUS_OK;
    for (int i = 0; i < n && k == TRN_KSTATUS_OK; i++)
        k = gate_run(be, ops[i], NULL, 0, 1);
    return k;
}

/* Asserts that the kernels writing base[0], base[stride], base[2*stride], ...
 * base[(n-1)*stride] ran strictly one after another in that order: the log,
 * restricted to them, reads start 0, end 0, start 1, end 1, ... */
static void check_run_order(gate_backend *g, const unsigned char *base, int n, int stride) {
    pthread_mutex_lock(&g->lock);
    int next = 0, running = -1, ok = 1;
    for (int e = 0; e < g->nev && ok; e++) {
        const unsigned char *p = g->ev[e].dst;
        if (p < base || p > base + (size_t)(n - 1) * (size_t)stride || (p - base) % stride != 0)
            continue;
        const int i = (int)((p - base) / stride);
        if (!g->ev[e].end) {
            ok = running == -1 && i == next;
            running = i;
        } else {
            ok = running == i;
            running = -1;
            next++;
        }
    }
    const int ran = next;
    pthread_mutex_unlock(&g->lock);
    if (!ok)
        fail_msg("kernels of one stream overlapped or ran out of order (after %d in order)", ran);
    assert_int_equal(ran, n);
}

static int gate_core_count(const trn_backend *be) {
    const gate_backend *g = (const gate_backend *)be;
    return g->cpu->core_count(g->cpu);
}

static int gate_core_init(const trn_backend *be, int core) {
    const gate_backend *g = (const gate_backend *)be;
    tls_core = core;
    return g->cpu->core_init(g->cpu, core);
}

static gate_backend *gate_backend_create(void) {
    gate_backend *g = calloc(1, sizeof(*g));
    assert_non_null(g);
    g->cpu = trn_backend_cpu_create();
    assert_non_null(g->cpu);
    g->be = *g->cpu;
    g->be.name = "cpu-gated";
    g->be.core_count = gate_core_count;
    g->be.core_init = gate_core_init;
    g->be.run = gate_run;
    g->be.run_seq = gate_run_seq;
    g->be.destroy = NULL;
    for (int i = 0; i < NGATES; i++)
        g->gate[i] = &g->mem[i];
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->cond, NULL);
    return g;
}

static void gate_backend_destroy(gate_backend *g) {
    g->cpu->destroy(g->cpu);
    pthread_cond_destroy(&g->cond);
    pthread_mutex_destroy(&g->lock);
    free(g);
}

/* Waits until n shards are blocked in gate i; returns how many got there
 * within WAIT_S (n on success). */
static int gate_entered_within(gate_backend *g, int i, int n) {
    struct timespec ts;
    deadline_in(&ts, WAIT_S);
    pthread_mutex_lock(&g->lock);
    while (g->entered[i] < n && pthread_cond_timedwait(&g->cond, &g->lock, &ts) != ETIMEDOUT) {
    }
    const int got = g->entered[i];
    pthread_mutex_unlock(&g->lock);
    return got;
}

static void gate_wait_entered_n(gate_backend *g, int i, int n) {
    const int got = gate_entered_within(g, i, n);
    if (got < n)
        fail_msg("%d of %d shards reached gate %d within %d s", got, n, i, WAIT_S);
}

/* Waits until a worker is blocked in gate i. */
static void gate_wait_entered(gate_backend *g, int i) {
    gate_wait_entered_n(g, i, 1);
}

static void gate_open(gate_backend *g, int i) {
    pthread_mutex_lock(&g->lock);
    g->open[i] = 1;
    pthread_cond_broadcast(&g->cond);
    pthread_mutex_unlock(&g->lock);
}

/* ---- completion records -------------------------------------------------------- */

#define MAXOPS 1024

typedef struct rec {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int n;             /* completions so far */
    int order[MAXOPS]; /* op indices in completion order */
    int done[MAXOPS];  /* times each op's callback ran */
    trn_sched_status status[MAXOPS];
    int seen_before[MAXOPS]; /* completions that preceded this one */
} rec;

typedef struct test_op {
    trn_sched_op sop; /* first */
    rec *r;
    int index;
} test_op;

static void on_done(trn_sched_op *op, trn_sched_status st) {
    test_op *t = (test_op *)op;
    rec *r = t->r;
    pthread_mutex_lock(&r->lock);
    r->seen_before[t->index] = r->n;
    r->order[r->n++] = t->index;
    r->done[t->index]++;
    r->status[t->index] = st;
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

static int is_done(rec *r, int index) {
    pthread_mutex_lock(&r->lock);
    const int d = r->done[index];
    pthread_mutex_unlock(&r->lock);
    return d;
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

static void settle(void) {
    const struct timespec ts = {0, 50 * 1000 * 1000};
    nanosleep(&ts, NULL);
}

static void memset_op(test_op *t, rec *r, int index, void *dst, int value) {
    memset(t, 0, sizeof(*t));
    t->sop.desc.kind = TRN_OP_MEMSET;
    t->sop.desc.u.memset.dst = dst;
    t->sop.desc.u.memset.value = value;
    t->sop.desc.u.memset.bytes = 1;
    t->sop.done = on_done;
    t->r = r;
    t->index = index;
}

static void marker_op(test_op *t, rec *r, int index) {
    memset(t, 0, sizeof(*t));
    t->sop.is_marker = 1;
    t->sop.done = on_done;
    t->r = r;
    t->index = index;
}

static void gate_op(test_op *t, rec *r, int index, gate_backend *g, int gate) {
    memset_op(t, r, index, &g->mem[gate], 1);
}

static void expect_idle(trn_sched *s, uint64_t completed) {
    trn_sched_stats st;
    trn_sched_get_stats(s, &st);
    assert_int_equal(st.ops_queued, 0);
    assert_int_equal(st.ops_running, 0);
    assert_int_equal(st.ops_completed, completed);
    assert_int_equal(st.workers, NWORKERS);
}

/* ---- fixture ----------------------------------------------------------------------- */

typedef struct fx {
    gate_backend *g;
    trn_sched *s;
    rec r;
} fx;

static int setup(void **state) {
    fx *f = calloc(1, sizeof(*f));
    assert_non_null(f);
    f->g = gate_backend_create();
    char err[256] = "";
    const trn_sched_config sc = {.cpus = NULL, .ncores = NWORKERS, .ncopy = 0};
    f->s = trn_sched_create(&f->g->be, &sc, err, sizeof(err));
    if (!f->s)
        fail_msg("trn_sched_create: %s", err);
    rec_init(&f->r);
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fx *f = *state;
    for (int i = 0; i < NGATES; i++)
        gate_open(f->g, i); /* never leave a worker blocked */
    trn_sched_shutdown(f->s);
    trn_sched_destroy(f->s);
    gate_backend_destroy(f->g);
    rec_destroy(&f->r);
    free(f);
    return 0;
}

/* ---- tests --------------------------------------------------------------------------- */

/* Rule: ops submitted with defer_wake (asynchronous launches, woken once per
 * burst) run once trn_sched_kick is called, in stream order, with their
 * results; a later ordinary submit wakes the workers for them too. */
static void test_deferred_wake(void **state) {
    fx *f = *state;
    enum { N = 100 };
    static test_op ops[N + 1];
    static unsigned char buf[N + 1];
    memset(buf, 0, sizeof(buf));
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    assert_non_null(st);
    for (int i = 0; i < N; i++) {
        memset_op(&ops[i], &f->r, i, &buf[i], 1 + i % 250);
        ops[i].sop.defer_wake = 1;
        assert_int_equal(trn_sched_submit(f->s, st, &ops[i].sop), 0);
    }
    trn_sched_kick(f->s);
    wait_count(&f->r, N);
    check_run_order(f->g, buf, N, 1);
    for (int i = 0; i < N; i++)
        assert_int_equal(buf[i], 1 + i % 250);
    /* A deferred op, then an ordinary one behind it: no kick needed. */
    memset_op(&ops[N - 1], &f->r, N - 1, &buf[N - 1], 7);
    ops[N - 1].sop.defer_wake = 1;
    f->r.done[N - 1] = 0;
    assert_int_equal(trn_sched_submit(f->s, st, &ops[N - 1].sop), 0);
    memset_op(&ops[N], &f->r, N, &buf[N], 9);
    assert_int_equal(trn_sched_submit(f->s, st, &ops[N].sop), 0);
    wait_done(&f->r, N - 1);
    wait_done(&f->r, N);
    assert_int_equal(buf[N - 1], 7);
    assert_int_equal(buf[N], 9);
    trn_sched_stream_release(f->s, st);
}

/* Rule: one stream runs in submission order, one kernel at a time, although
 * two workers are free to take its ops; each op completes once, with OK. */
static void test_stream_order(void **state) {
    fx *f = *state;
    enum { N = 800 };
    static test_op ops[N];
    static unsigned char buf[N];
    memset(buf, 0, sizeof(buf));
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    assert_non_null(st);
    for (int i = 0; i < N; i++) {
        memset_op(&ops[i], &f->r, i, &buf[i], 1 + i % 250);
        assert_int_equal(trn_sched_submit(f->s, st, &ops[i].sop), 0);
    }
    wait_count(&f->r, N);
    check_run_order(f->g, buf, N, 1);
    for (int i = 0; i < N; i++) {
        assert_int_equal(f->r.done[i], 1);
        assert_int_equal(f->r.status[i], TRN_SCHED_OK);
        assert_int_equal(buf[i], 1 + i % 250);
    }
    trn_sched_stream_release(f->s, st);
    expect_idle(f->s, N);
}

/* Regression test (host CPU per small op).
 * Rule (sched.c, waking workers): a worker is woken only for a shard that no
 * awake worker will take. Before, every ready one-shard op signalled a
 * sleeping worker even when the worker that had just ended the op before it
 * on its stream was about to take it, and trn_sched_kick woke every worker
 * of an engine with any backlog: with 2 workers, about one wake-up per op
 * found nothing to do (two context switches on a shared CPU for nothing).
 * Counted, not timed: trn_sched_stats.wakeups_idle, the wake-ups that found
 * no work, is 0 for (a) a stream of one-shard ops submitted back to back,
 * each made ready by the end of the one before, which the worker that ended
 * it takes itself, and (b) one deferred op at a time followed by a kick,
 * which wakes one worker. Exact, not a bound: on one stream an op becomes
 * ready either when its stream is idle (a worker is woken only if none is
 * about to look, and then it is the only one that may take the op) or as
 * the worker ending the op before it goes back to look (nobody is woken);
 * no interleaving lets a woken worker find it taken. Every op still runs,
 * in order, and there is at most one wake-up per op. */
static void test_one_shard_ops_wake_one_worker(void **state) {
    fx *f = *state;
    enum { N = 400, ROUNDS = 200 };
    static test_op ops[N + ROUNDS];
    static unsigned char buf[N + ROUNDS];
    memset(buf, 0, sizeof(buf));
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    assert_non_null(st);
    settle(); /* both workers asleep: every wake-up below is counted */
    trn_sched_stats before, after;
    trn_sched_get_stats(f->s, &before);
    for (int i = 0; i < N; i++) {
        memset_op(&ops[i], &f->r, i, &buf[i], 1 + i % 250);
        assert_int_equal(trn_sched_submit(f->s, st, &ops[i].sop), 0);
    }
    wait_count(&f->r, N);
    trn_sched_get_stats(f->s, &after);
    check_run_order(f->g, buf, N, 1);
    assert_int_equal(after.wakeups_idle - before.wakeups_idle, 0);
    assert_true(after.wakeups - before.wakeups <= N);

    trn_sched_get_stats(f->s, &before);
    for (int i = N; i < N + ROUNDS; i++) {
        memset_op(&ops[i], &f->r, i, &buf[i], 1 + i % 250);
        ops[i].sop.defer_wake = 1;
        assert_int_equal(trn_sched_submit(f->s, st, &ops[i].sop), 0);
        trn_sched_kick(f->s);
        wait_done(&f->r, i);
    }
    trn_sched_get_stats(f->s, &after);
    for (int i = 0; i < N + ROUNDS; i++)
        assert_int_equal(buf[i], 1 + i % 250);
    assert_int_equal(after.wakeups_idle - before.wakeups_idle, 0);
    assert_true(after.wakeups - before.wakeups <= ROUNDS);
    trn_sched_stream_release(f->s, st);
    expect_idle(f->s, N + ROUNDS);
}

/* Rule: order holds per stream when two streams are interleaved. */
static void test_two_streams_each_in_order(void **state) {
    fx *f = *state;
    enum { N = 300 };
    static test_op ops[2 * N];
    static unsigned char buf[2 * N];
    memset(buf, 0, sizeof(buf));
    trn_sched_stream *a = trn_sched_stream_create(f->s, NULL),
                     *b = trn_sched_stream_create(f->s, NULL);
    assert_non_null(a);
    assert_non_null(b);
    /* Even indices on a, odd on b. */
    for (int i = 0; i < 2 * N; i++) {
        memset_op(&ops[i], &f->r, i, &buf[i], 7);
        assert_int_equal(trn_sched_submit(f->s, (i % 2) ? b : a, &ops[i].sop), 0);
    }
    wait_count(&f->r, 2 * N);
    check_run_order(f->g, &buf[0], N, 2); /* stream a */
    check_run_order(f->g, &buf[1], N, 2); /* stream b */
    for (int i = 0; i < 2 * N; i++) {
        assert_int_equal(f->r.done[i], 1);
        assert_int_equal(f->r.status[i], TRN_SCHED_OK);
        assert_int_equal(buf[i], 7);
    }
    trn_sched_stream_release(f->s, a);
    trn_sched_stream_release(f->s, b);
    expect_idle(f->s, 2 * N);
}

/* A marker whose callback records what the ops before it had done by then. */
typedef struct probe_marker {
    test_op t; /* first */
    const unsigned char *watch;
    int seen_value;
    gate_backend *g;
    int gate_ended; /* the gate kernel had ended */
} probe_marker;

static void probe_done(trn_sched_op *op, trn_sched_status st) {
    probe_marker *m = (probe_marker *)op;
    m->seen_value = *m->watch;
    pthread_mutex_lock(&m->g->lock);
    for (int e = 0; e < m->g->nev; e++)
        if (m->g->ev[e].end && m->g->ev[e].dst == &m->g->mem[0])
            m->gate_ended = 1;
    pthread_mutex_unlock(&m->g->lock);
    on_done(op, st);
}

/* Rule: a marker completes only after the ops before it on its stream have
 * run (their kernels ended and their writes are visible to its callback); on
 * an idle stream it completes at once, even while another stream is blocked. */
static void test_marker(void **state) {
    fx *f = *state;
    static unsigned char x;
    x = 0;
    test_op gate, op, idle_mark;
    probe_marker mark;
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL),
                     *other = trn_sched_stream_create(f->s, NULL);
    gate_op(&gate, &f->r, 0, f->g, 0);
    memset_op(&op, &f->r, 1, &x, 9);
    marker_op(&mark.t, &f->r, 2);
    mark.t.sop.done = probe_done;
    mark.watch = &x;
    mark.seen_value = -1;
    mark.g = f->g;
    mark.gate_ended = 0;
    marker_op(&idle_mark, &f->r, 3);

    assert_int_equal(trn_sched_submit(f->s, st, &gate.sop), 0);
    assert_int_equal(trn_sched_submit(f->s, st, &op.sop), 0);
    assert_int_equal(trn_sched_submit(f->s, st, &mark.t.sop), 0);
    gate_wait_entered(f->g, 0);

    assert_int_equal(trn_sched_submit(f->s, other, &idle_mark.sop), 0);
    wait_done(&f->r, 3);
    assert_int_equal(f->r.status[3], TRN_SCHED_OK);

    settle();
    assert_false(is_done(&f->r, 0));
    assert_false(is_done(&f->r, 1));
    assert_false(is_done(&f->r, 2));
    assert_int_equal(x, 0);
    trn_sched_stats stats;
    trn_sched_get_stats(f->s, &stats);
    assert_int_equal(stats.ops_running, 1);
    assert_int_equal(stats.ops_queued, 1); /* markers are not counted */

    gate_open(f->g, 0);
    wait_count(&f->r, 4);
    assert_int_equal(f->r.status[0], TRN_SCHED_OK);
    assert_int_equal(f->r.status[1], TRN_SCHED_OK);
    assert_int_equal(f->r.status[2], TRN_SCHED_OK);
    assert_int_equal(mark.gate_ended, 1);
    assert_int_equal(mark.seen_value, 9);

    trn_sched_stream_release(f->s, st);
    trn_sched_stream_release(f->s, other);
    expect_idle(f->s, 2);
}

/* Rule: cancel completes the queued ops and markers with CANCELLED, at once
 * and without running their kernels; the running op completes normally; the
 * stream keeps working afterwards. */
static void test_cancel(void **state) {
    fx *f = *state;
    unsigned char bytes[4] = {0, 0, 0, 0};
    test_op gate, q[3], mark, after;
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    gate_op(&gate, &f->r, 0, f->g, 0);
    assert_int_equal(trn_sched_submit(f->s, st, &gate.sop), 0);
    for (int i = 0; i < 3; i++) {
        memset_op(&q[i], &f->r, 1 + i, &bytes[i], 0x5a);
        assert_int_equal(trn_sched_submit(f->s, st, &q[i].sop), 0);
    }
    marker_op(&mark, &f->r, 4);
    assert_int_equal(trn_sched_submit(f->s, st, &mark.sop), 0);
    gate_wait_entered(f->g, 0);

    trn_sched_stats stats;
    trn_sched_get_stats(f->s, &stats);
    assert_int_equal(stats.ops_running, 1);
    assert_int_equal(stats.ops_queued, 3);

    trn_sched_stream_cancel(f->s, st);
    /* Callbacks run on the cancelling thread: all done on return. */
    for (int i = 1; i <= 4; i++) {
        assert_int_equal(f->r.done[i], 1);
        assert_int_equal(f->r.status[i], TRN_SCHED_CANCELLED);
    }
    assert_false(is_done(&f->r, 0));
    trn_sched_get_stats(f->s, &stats);
    assert_int_equal(stats.ops_queued, 0);
    assert_int_equal(stats.ops_running, 1);

    gate_open(f->g, 0);
    wait_done(&f->r, 0);
    assert_int_equal(f->r.status[0], TRN_SCHED_OK);
    for (int i = 0; i < 3; i++)
        assert_int_equal(bytes[i], 0); /* cancelled kernels never ran */

    memset_op(&after, &f->r, 5, &bytes[3], 0x33);
    assert_int_equal(trn_sched_submit(f->s, st, &after.sop), 0);
    wait_done(&f->r, 5);
    assert_int_equal(f->r.status[5], TRN_SCHED_OK);
    assert_int_equal(bytes[3], 0x33);
    assert_int_equal(f->r.done[1] + f->r.done[2] + f->r.done[3] + f->r.done[4], 4); /* once */

    trn_sched_stream_release(f->s, st);
    expect_idle(f->s, 2);
}

static void *shutdown_thread(void *arg) {
    trn_sched_shutdown(arg);
    return NULL;
}

/* Rule: shutdown completes queued ops (and ops waiting for a worker) with
 * SHUTDOWN, lets running ops finish normally, and afterwards submit returns
 * -1 without ever calling the op's callback.
 *
 * Setup with both workers blocked: stream A runs gate 0 with QA1, QA2 and a
 * marker queued behind it; stream B runs gate 1; stream C has op R waiting
 * for a free worker (never started) with Q and a marker behind it. */
static void test_shutdown(void **state) {
    fx *f = *state;
    unsigned char bytes[8] = {0};
    test_op g0, g1, qa1, qa2, ma, r, q, mc, late;
    trn_sched_stream *a = trn_sched_stream_create(f->s, NULL),
                     *b = trn_sched_stream_create(f->s, NULL),
                     *c = trn_sched_stream_create(f->s, NULL);
    gate_op(&g0, &f->r, 0, f->g, 0);
    memset_op(&qa1, &f->r, 1, &bytes[1], 1);
    memset_op(&qa2, &f->r, 2, &bytes[2], 1);
    marker_op(&ma, &f->r, 3);
    gate_op(&g1, &f->r, 4, f->g, 1);
    memset_op(&r, &f->r, 5, &bytes[5], 1);
    memset_op(&q, &f->r, 6, &bytes[6], 1);
    marker_op(&mc, &f->r, 7);
    memset_op(&late, &f->r, 8, &bytes[0], 1);

    assert_int_equal(trn_sched_submit(f->s, a, &g0.sop), 0);
    assert_int_equal(trn_sched_submit(f->s, b, &g1.sop), 0);
    gate_wait_entered(f->g, 0);
    gate_wait_entered(f->g, 1);
    assert_int_equal(trn_sched_submit(f->s, a, &qa1.sop), 0);
    assert_int_equal(trn_sched_submit(f->s, a, &qa2.sop), 0);
    assert_int_equal(trn_sched_submit(f->s, a, &ma.sop), 0);
    assert_int_equal(trn_sched_submit(f->s, c, &r.sop), 0);
    assert_int_equal(trn_sched_submit(f->s, c, &q.sop), 0);
    assert_int_equal(trn_sched_submit(f->s, c, &mc.sop), 0);
    trn_sched_stats stats;
    trn_sched_get_stats(f->s, &stats);
    assert_int_equal(stats.ops_running, 3); /* g0, g1, and r (active, unstarted) */
    assert_int_equal(stats.ops_queued, 3);  /* qa1, qa2, q */

    /* Shutdown waits for the running gates, so it runs on its own thread. */
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, shutdown_thread, f->s), 0);
    wait_done(&f->r, 5); /* r: taken off the ready queue by shutdown */
    assert_int_equal(f->r.status[5], TRN_SCHED_SHUTDOWN);
    wait_done(&f->r, 7);
    assert_int_equal(f->r.status[6], TRN_SCHED_SHUTDOWN);
    assert_int_equal(f->r.status[7], TRN_SCHED_SHUTDOWN);

    /* Shutting down: no new work, and its callback is never called. */
    assert_int_equal(trn_sched_submit(f->s, a, &late.sop), -1);
    assert_int_equal(trn_sched_submit(f->s, c, &late.sop), -1);

    /* The running ops finish normally; what queued behind g0 is dropped. */
    gate_open(f->g, 0);
    gate_open(f->g, 1);
    assert_int_equal(pthread_join(th, NULL), 0);
    assert_int_equal(f->r.n, 8);
    assert_int_equal(f->r.status[0], TRN_SCHED_OK);
    assert_int_equal(f->r.status[4], TRN_SCHED_OK);
    assert_int_equal(f->r.status[1], TRN_SCHED_SHUTDOWN);
    assert_int_equal(f->r.status[2], TRN_SCHED_SHUTDOWN);
    assert_int_equal(f->r.status[3], TRN_SCHED_SHUTDOWN);
    for (int i = 0; i <= 8; i++)
        assert_true(f->r.done[i] == (i == 8 ? 0 : 1));
    assert_int_equal(bytes[0] + bytes[1] + bytes[2] + bytes[5] + bytes[6], 0);

    trn_sched_shutdown(f->s); /* idempotent */
    trn_sched_stream_release(f->s, a);
    trn_sched_stream_release(f->s, b);
    trn_sched_stream_release(f->s, c);
    expect_idle(f->s, 2);
}

/* Rule: an op the backend has no kernel for completes with UNSUPPORTED, and
 * the stream carries on. */
static void test_unsupported(void **state) {
    fx *f = *state;
    unsigned char x = 0;
    test_op bad, good;
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    memset_op(&bad, &f->r, 0, &x, 1);
    bad.sop.desc.kind = (trn_op_kind)4000; /* no kind has this number */
    memset_op(&good, &f->r, 1, &x, 4);
    assert_int_equal(trn_sched_submit(f->s, st, &bad.sop), 0);
    assert_int_equal(trn_sched_submit(f->s, st, &good.sop), 0);
    wait_done(&f->r, 1);
    assert_int_equal(f->r.status[0], TRN_SCHED_UNSUPPORTED);
    assert_int_equal(f->r.status[1], TRN_SCHED_OK);
    assert_int_equal(x, 4);
    trn_sched_stream_release(f->s, st);
    expect_idle(f->s, 2);
}

/* A chain: each completion submits the next op on the same stream. */
typedef struct chain {
    trn_sched *s;
    trn_sched_stream *st;
    test_op ops[200];
    unsigned char bytes[200];
    int next;
    int submit_failed; /* checked on the test thread (no cmocka asserts on workers) */
} chain;

static chain *the_chain;

static void chain_done(trn_sched_op *op, trn_sched_status status) {
    on_done(op, status);
    chain *c = the_chain;
    if (c->next < 200) {
        test_op *t = &c->ops[c->next++];
        t->sop.done = chain_done;
        if (trn_sched_submit(c->s, c->st, &t->sop) != 0)
            c->submit_failed = 1;
    }
}

/* Rule: a completion callback may call back into the scheduler (submit). */
static void test_submit_from_callback(void **state) {
    fx *f = *state;
    static chain c;
    memset(&c, 0, sizeof(c));
    the_chain = &c;
    c.s = f->s;
    c.st = trn_sched_stream_create(f->s, NULL);
    for (int i = 0; i < 200; i++)
        memset_op(&c.ops[i], &f->r, i, &c.bytes[i], 0x11);
    c.ops[0].sop.done = chain_done;
    c.next = 1;
    assert_int_equal(trn_sched_submit(f->s, c.st, &c.ops[0].sop), 0);
    wait_count(&f->r, 200);
    assert_int_equal(c.submit_failed, 0);
    for (int i = 0; i < 200; i++) {
        assert_int_equal(f->r.order[i], i);
        assert_int_equal(f->r.status[i], TRN_SCHED_OK);
        assert_int_equal(c.bytes[i], 0x11);
    }
    trn_sched_stream_release(f->s, c.st);
    expect_idle(f->s, 200);
}

/* Regression test.
 * Rule (sched.h): ops on one stream complete in submission order, and "a
 * marker completes when every op queued before it on its stream has
 * completed" — an op's completion being its callback. In sched.c the worker
 * that finishes op 0 activates op 1 (stream_advance) before it runs op 0's
 * callback (run_completions, after dropping the lock); the other worker can
 * run op 1 and complete op 1 and the marker behind it before op 0's callback
 * has run (fixed: the worker now runs the callback before advancing the
 * stream). Here op 0's callback waits (up to 1 s) to see whether that happens;
 * in order, nothing of its stream may complete meanwhile. (Without the wait
 * the same reordering shows up now and then in test_stream_order's callback
 * order.) The daemon's Synchronize (a marker) can thus reply before op_done of
 * an earlier op has recorded its error or released its buffers. */
typedef struct slow_first {
    test_op t; /* first */
    rec *r;
    int others_done_meanwhile;
} slow_first;

static void slow_first_done(trn_sched_op *op, trn_sched_status st) {
    slow_first *sf = (slow_first *)op;
    rec *r = sf->r;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += 1;
    pthread_mutex_lock(&r->lock);
    while (!r->done[2] && pthread_cond_timedwait(&r->cond, &r->lock, &ts) != ETIMEDOUT) {
    }
    sf->others_done_meanwhile = r->done[1] + r->done[2];
    pthread_mutex_unlock(&r->lock);
    on_done(op, st);
}

static void test_callbacks_in_stream_order(void **state) {
    fx *f = *state;
    static unsigned char bytes[2];
    slow_first first;
    test_op second, mark;
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    memset_op(&first.t, &f->r, 0, &bytes[0], 1);
    first.t.sop.done = slow_first_done;
    first.r = &f->r;
    first.others_done_meanwhile = 0;
    memset_op(&second, &f->r, 1, &bytes[1], 1);
    marker_op(&mark, &f->r, 2);
    assert_int_equal(trn_sched_submit(f->s, st, &first.t.sop), 0);
    assert_int_equal(trn_sched_submit(f->s, st, &second.sop), 0);
    assert_int_equal(trn_sched_submit(f->s, st, &mark.sop), 0);
    wait_count(&f->r, 3);
    trn_sched_stream_release(f->s, st);
    assert_int_equal(f->r.order[0], 0);
    assert_int_equal(f->r.order[1], 1);
    assert_int_equal(f->r.order[2], 2);
    assert_int_equal(first.others_done_meanwhile, 0);
}

/* Regression test.
 * Rule (sched.h, trn_sched_shutdown): "completes every queued op and marker
 * with TRN_SCHED_SHUTDOWN". A marker directly behind an op that shutdown takes
 * off the ready queue completes with TRN_SCHED_OK instead (sched.c
 * cancel_unstarted → stream_advance completes head markers with OK), so a
 * Synchronize built on it reports success although the op before it never
 * ran. */
static void test_shutdown_marker_behind_unstarted_op(void **state) {
    fx *f = *state;
    unsigned char x = 0;
    test_op g0, g1, r, m;
    trn_sched_stream *a = trn_sched_stream_create(f->s, NULL),
                     *b = trn_sched_stream_create(f->s, NULL),
                     *c = trn_sched_stream_create(f->s, NULL);
    gate_op(&g0, &f->r, 0, f->g, 0);
    gate_op(&g1, &f->r, 1, f->g, 1);
    memset_op(&r, &f->r, 2, &x, 1);
    marker_op(&m, &f->r, 3);
    assert_int_equal(trn_sched_submit(f->s, a, &g0.sop), 0);
    assert_int_equal(trn_sched_submit(f->s, b, &g1.sop), 0);
    gate_wait_entered(f->g, 0);
    gate_wait_entered(f->g, 1);
    assert_int_equal(trn_sched_submit(f->s, c, &r.sop), 0);
    assert_int_equal(trn_sched_submit(f->s, c, &m.sop), 0);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, shutdown_thread, f->s), 0);
    wait_done(&f->r, 3);
    gate_open(f->g, 0);
    gate_open(f->g, 1);
    assert_int_equal(pthread_join(th, NULL), 0);
    trn_sched_stream_release(f->s, a);
    trn_sched_stream_release(f->s, b);
    trn_sched_stream_release(f->s, c);
    assert_int_equal(f->r.status[2], TRN_SCHED_SHUTDOWN);
    assert_int_equal(x, 0);
    assert_int_equal(f->r.status[3], TRN_SCHED_SHUTDOWN);
}

/* Regression test.
 * Rule (sched.h, trn_sched_stream_cancel): "Completes every op of the stream
 * that has not started with TRN_SCHED_CANCELLED; a running op finishes
 * normally." An op that is its stream's active op but still waiting on the
 * ready queue for a worker has not started, yet cancel leaves it (sched.c
 * stream_drain_queued only drains st->head, never st->active), and it runs
 * later. */
static void test_cancel_op_waiting_for_worker(void **state) {
    fx *f = *state;
    unsigned char x = 0;
    test_op g0, g1, r;
    trn_sched_stream *a = trn_sched_stream_create(f->s, NULL),
                     *b = trn_sched_stream_create(f->s, NULL),
                     *c = trn_sched_stream_create(f->s, NULL);
    gate_op(&g0, &f->r, 0, f->g, 0);
    gate_op(&g1, &f->r, 1, f->g, 1);
    memset_op(&r, &f->r, 2, &x, 1);
    assert_int_equal(trn_sched_submit(f->s, a, &g0.sop), 0);
    assert_int_equal(trn_sched_submit(f->s, b, &g1.sop), 0);
    gate_wait_entered(f->g, 0);
    gate_wait_entered(f->g, 1);
    assert_int_equal(trn_sched_submit(f->s, c, &r.sop), 0);
    trn_sched_stream_cancel(f->s, c);
    const int cancelled_at_once = is_done(&f->r, 2);
    gate_open(f->g, 0);
    gate_open(f->g, 1);
    wait_done(&f->r, 2);
    /* The gate ops live on this stack frame: wait for them before leaving. */
    wait_done(&f->r, 0);
    wait_done(&f->r, 1);
    trn_sched_stream_release(f->s, a);
    trn_sched_stream_release(f->s, b);
    trn_sched_stream_release(f->s, c);
    assert_true(cancelled_at_once);                        /* fails */
    assert_int_equal(f->r.status[2], TRN_SCHED_CANCELLED); /* fails: TRN_SCHED_OK */
    assert_int_equal(x, 0);
}

/* ---- sharding ---------------------------------------------------------------------- */

/* What the log says about the shards of the op writing `key`. */
typedef struct shard_seen {
    int starts, ends;      /* shard start/end events */
    int nshards;           /* nshards passed to run (the last seen; -1 if they differed) */
    unsigned shards;       /* bit i: shard i started */
    unsigned cores;        /* bit c: a shard ran on core c */
    int first_ev, last_ev; /* positions of its first and last event in the log */
} shard_seen;

static shard_seen seen_of(gate_backend *g, const void *key) {
    shard_seen r = {0, 0, 0, 0, 0, -1, -1};
    pthread_mutex_lock(&g->lock);
    for (int e = 0; e < g->nev; e++) {
        if (g->ev[e].dst != key)
            continue;
        if (r.first_ev < 0)
            r.first_ev = e;
        r.last_ev = e;
        if (g->ev[e].end) {
            r.ends++;
            continue;
        }
        r.starts++;
        r.nshards = (r.starts > 1 && r.nshards != g->ev[e].nshards) ? -1 : g->ev[e].nshards;
        r.shards |= 1u << (g->ev[e].shard & 31);
        if (g->ev[e].core >= 0)
            r.cores |= 1u << (g->ev[e].core & 31);
    }
    pthread_mutex_unlock(&g->lock);
    return r;
}

/* Asserts that the op writing `key` ran as exactly n shards 0..n-1, each once. */
static shard_seen expect_shards(gate_backend *g, const void *key, int n) {
    const shard_seen r = seen_of(g, key);
    if (r.starts != n || r.ends != n || r.nshards != n || r.shards != (1u << n) - 1u)
        fail_msg("expected %d shards, saw %d starts, %d ends, nshards %d, shard mask %#x", n,
                 r.starts, r.ends, r.nshards, r.shards);
    return r;
}

static int popcount(unsigned x) {
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* A big SGEMM: C = A B + C with m = k = 256, n = 512, ldc = m + 5: 67 MFLOP
 * and 512 columns, so the policy gives it min(ncores, 4) shards.
 * exact: integer data with |sums| < 2^24, so the product is exact in float
 * and must equal the naive reference. Otherwise: random data in [-1, 1),
 * whose rounding depends on how OpenBLAS blocks the columns, so that
 * comparing bits between runs shows whether the cut changed. */
enum { GM = 256, GN = 512, GK = 256, GLDC = GM + 5 };

typedef struct gemm_case {
    float a[GM * GK], b[GK * GN], c0[GLDC * GN];
    double ref[GLDC * GN];
} gemm_case;

static float lcg_uniform(uint64_t *x) {
    *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
    return (float)((double)(*x >> 40) / (double)(1u << 24) * 2.0 - 1.0);
}

static gemm_case *gemm_case_new(int exact) {
    gemm_case *gc = malloc(sizeof(*gc));
    assert_non_null(gc);
    uint64_t x = 12345;
    for (int i = 0; i < GM * GK; i++)
        gc->a[i] = exact ? (float)((i * 7) % 7 - 3 + (i / 7) % 3) : lcg_uniform(&x);
    for (int i = 0; i < GK * GN; i++)
        gc->b[i] = exact ? (float)((i * 5 + 1) % 9 - 4) : lcg_uniform(&x);
    for (int i = 0; i < GLDC * GN; i++)
        gc->c0[i] = exact ? (float)(i % 11 - 5) : lcg_uniform(&x);
    for (int j = 0; j < GN; j++) {
        for (int i = 0; i < GLDC; i++) {
            double acc = gc->c0[i + j * GLDC];
            if (i < GM)
                for (int l = 0; l < GK; l++)
                    acc += (double)gc->a[i + l * GM] * (double)gc->b[l + j * GK];
            gc->ref[i + j * GLDC] = acc; /* rows >= GM: padding, untouched */
        }
    }
    return gc;
}

/* A test_op computing gc's product into c (GLDC * GN floats, set to c0). */
static void gemm_op(test_op *t, rec *r, int index, const gemm_case *gc, float *c) {
    memset(t, 0, sizeof(*t));
    memcpy(c, gc->c0, sizeof(gc->c0));
    trn_gemm_desc *d = &t->sop.desc.u.gemm;
    t->sop.desc.kind = TRN_OP_GEMM;
    d->type = TRN_DTYPE_R32F;
    d->transa = d->transb = TRN_TRANS_N;
    d->m = GM;
    d->n = GN;
    d->k = GK;
    d->alpha.re = 1.0;
    d->beta.re = 1.0;
    d->a = gc->a;
    d->lda = GM;
    d->b = gc->b;
    d->ldb = GK;
    d->c = c;
    d->ldc = GLDC;
    t->sop.done = on_done;
    t->r = r;
    t->index = index;
}

static void expect_gemm_result(const gemm_case *gc, const float *c) {
    for (int i = 0; i < GLDC * GN; i++)
        if ((double)c[i] != gc->ref[i])
            fail_msg("C[%d] (row %d, column %d) = %g, want %g", i, i % GLDC, i / GLDC, (double)c[i],
                     gc->ref[i]);
}

static void big_memset_op(test_op *t, rec *r, int index, unsigned char *dst, size_t bytes,
                          int value) {
    memset_op(t, r, index, dst, value);
    t->sop.desc.u.memset.bytes = bytes;
}

static void copy_op(test_op *t, rec *r, int index, void *dst, const void *src, size_t bytes) {
    memset(t, 0, sizeof(*t));
    t->sop.desc.kind = TRN_OP_COPY;
    t->sop.desc.u.copy.dst = dst;
    t->sop.desc.u.copy.src = src;
    t->sop.desc.u.copy.bytes = bytes;
    t->sop.done = on_done;
    t->r = r;
    t->index = index;
}

/* The smallest memset split in 2 (a copy of this size touches twice as many
 * bytes: 4 shards' worth, so 2 on two workers). */
static const size_t MEM_SPLIT = 2 * TRN_SHARD_MEM_MIN_BYTES;

static int all_bytes(const unsigned char *p, size_t n, int value) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != (unsigned char)value)
            return 0;
    return 1;
}

/* Rule (sched.h, trn_sched_shard_count): the shard count is a pure function
 * of the op and the core count: 1 for small ops and on one core; for big
 * ones min(ncores, what the per-shard minimums allow). Checked at the
 * boundaries of each minimum. */
static void test_shard_policy(void **state) {
    (void)state;
    trn_op_desc d;
    memset(&d, 0, sizeof(d));
    d.kind = TRN_OP_GEMM;
    trn_gemm_desc *g = &d.u.gemm;
    static const float operand[1]; /* never dereferenced */
    g->type = TRN_DTYPE_R32F;
    g->m = g->k = 1024;
    g->a = g->b = operand;

    /* Columns: 2 x TRN_SHARD_GEMM_MIN_COLS are needed for two shards. */
    g->n = 2 * TRN_SHARD_GEMM_MIN_COLS - 1;
    assert_int_equal(trn_sched_shard_count(&d, 2), 1);
    g->n = 2 * TRN_SHARD_GEMM_MIN_COLS;
    assert_int_equal(trn_sched_shard_count(&d, 2), 2);
    assert_int_equal(trn_sched_shard_count(&d, 8), 2);
    g->n = 8 * TRN_SHARD_GEMM_MIN_COLS;
    assert_int_equal(trn_sched_shard_count(&d, 1), 1);
    assert_int_equal(trn_sched_shard_count(&d, 4), 4);
    assert_int_equal(trn_sched_shard_count(&d, 8), 8);
    assert_int_equal(trn_sched_shard_count(&d, 64), 8);
    /* Without A and B (alpha = 0 or k = 0: validation leaves them unset) the
     * kernel only scales C, m*n flops: not worth splitting. */
    g->a = g->b = NULL;
    assert_int_equal(trn_sched_shard_count(&d, 8), 1);
    g->a = g->b = operand;

    /* Cost: 2 x TRN_SHARD_GEMM_MIN_FLOP are needed for two shards. */
    g->n = 1024;
    g->m = 64;
    g->k = (int)(TRN_SHARD_GEMM_MIN_FLOP / (2.0 * g->m * g->n)) - 1; /* below 1 shard's worth */
    assert_true(trn_op_cost(&d) < TRN_SHARD_GEMM_MIN_FLOP);
    assert_int_equal(trn_sched_shard_count(&d, 2), 1);
    g->k = (int)(2.0 * TRN_SHARD_GEMM_MIN_FLOP / (2.0 * g->m * g->n)) - 1; /* just below 2 */
    assert_true(trn_op_cost(&d) < 2.0 * TRN_SHARD_GEMM_MIN_FLOP);
    assert_int_equal(trn_sched_shard_count(&d, 2), 1);
    g->k += 1;
    assert_true(trn_op_cost(&d) >= 2.0 * TRN_SHARD_GEMM_MIN_FLOP);
    assert_int_equal(trn_sched_shard_count(&d, 2), 2);
    assert_int_equal(trn_sched_shard_count(&d, 4), 2);
    /* A complex multiply-add is four real ones: the same shape in Z is 4x the cost. */
    g->type = TRN_DTYPE_C64F;
    g->k -= 1;
    assert_int_equal(trn_sched_shard_count(&d, 4), 4);
    /* Small GEMMs are never split. */
    g->type = TRN_DTYPE_R64F;
    g->m = g->n = g->k = 64;
    assert_int_equal(trn_sched_shard_count(&d, 64), 1);

    /* memset: TRN_SHARD_MEM_MIN_BYTES written per shard. */
    memset(&d, 0, sizeof(d));
    d.kind = TRN_OP_MEMSET;
    d.u.memset.bytes = MEM_SPLIT - 1;
    assert_int_equal(trn_sched_shard_count(&d, 2), 1);
    d.u.memset.bytes = MEM_SPLIT;
    assert_int_equal(trn_sched_shard_count(&d, 2), 2);
    assert_int_equal(trn_sched_shard_count(&d, 1), 1);
    d.u.memset.bytes = 5 * TRN_SHARD_MEM_MIN_BYTES + 1;
    assert_int_equal(trn_sched_shard_count(&d, 16), 5);

    /* copy: TRN_SHARD_MEM_MIN_BYTES read and written per shard (each byte
     * counts twice); an overlapping copy is one shard. */
    static unsigned char buf[64];
    memset(&d, 0, sizeof(d));
    d.kind = TRN_OP_COPY;
    d.u.copy.src = buf;
    d.u.copy.dst = buf + 32;
    d.u.copy.bytes = 0;
    assert_int_equal(trn_sched_shard_count(&d, 4), 1);
    d.u.copy.src = (const void *)(uintptr_t)0x10000000; /* never dereferenced */
    d.u.copy.dst = (void *)(uintptr_t)0x20000000;
    d.u.copy.bytes = TRN_SHARD_MEM_MIN_BYTES - 1;
    assert_int_equal(trn_sched_shard_count(&d, 4), 1);
    d.u.copy.bytes = TRN_SHARD_MEM_MIN_BYTES;
    assert_int_equal(trn_sched_shard_count(&d, 4), 2);
    d.u.copy.bytes = 2 * TRN_SHARD_MEM_MIN_BYTES;
    assert_int_equal(trn_sched_shard_count(&d, 4), 4);
    assert_int_equal(trn_sched_shard_count(&d, 2), 2);
    /* Adjacent is fine; overlapping by one byte, either way round, is not. */
    d.u.copy.dst = (void *)(uintptr_t)(0x10000000 + 2 * TRN_SHARD_MEM_MIN_BYTES);
    assert_int_equal(trn_sched_shard_count(&d, 4), 4);
    d.u.copy.dst = (void *)(uintptr_t)(0x10000000 + 2 * TRN_SHARD_MEM_MIN_BYTES - 1);
    assert_int_equal(trn_sched_shard_count(&d, 4), 1);
    d.u.copy.dst = (void *)(uintptr_t)(0x10000000 - 2 * TRN_SHARD_MEM_MIN_BYTES + 1);
    assert_int_equal(trn_sched_shard_count(&d, 4), 1);
    d.u.copy.src = d.u.copy.dst = buf;
    assert_int_equal(trn_sched_shard_count(&d, 4), 1);

    /* Markers and unknown ops. */
    memset(&d, 0, sizeof(d));
    d.kind = (trn_op_kind)4000;
    assert_int_equal(trn_sched_shard_count(&d, 4), 1);

    /* BLAS Level 1 is one shard whatever its size (reductions stay bitwise
     * reproducible for any core count). */
    memset(&d, 0, sizeof(d));
    d.kind = TRN_OP_BLAS1;
    d.u.blas1.fn = TRN_BLAS1_DOT;
    d.u.blas1.type = TRN_DTYPE_C64F;
    d.u.blas1.n = INT32_MAX;
    assert_int_equal(trn_sched_shard_count(&d, 8), 1);
    d.u.blas1.fn = TRN_BLAS1_AXPY;
    assert_int_equal(trn_sched_shard_count(&d, 8), 1);
}

/* Rule: through the scheduler, a big GEMM, memset or non-overlapping copy
 * runs as ncores (2) shards, each shard once, and computes the right result;
 * small ops and an overlapping copy run as one shard. Observed in the
 * backend's log of run() calls. */
static void test_big_ops_split_small_not(void **state) {
    fx *f = *state;
    gemm_case *gc = gemm_case_new(1);
    float *c_big = malloc(sizeof(gc->c0));
    float small_a[16 * 16], small_c[16 * 16];
    unsigned char *mem = malloc(MEM_SPLIT), *src = malloc(MEM_SPLIT), *dst = malloc(MEM_SPLIT);
    unsigned char *ovl = malloc(MEM_SPLIT + 64), *ovl_ref = malloc(MEM_SPLIT + 64);
    unsigned char small_mem[64];
    assert_non_null(c_big);
    assert_true(mem && src && dst && ovl && ovl_ref);
    for (size_t i = 0; i < MEM_SPLIT; i++)
        src[i] = (unsigned char)(i * 131u >> 3);
    memset(dst, 0, MEM_SPLIT);
    for (size_t i = 0; i < MEM_SPLIT + 64; i++)
        ovl[i] = ovl_ref[i] = (unsigned char)(i * 7u);
    memmove(ovl_ref + 64, ovl_ref, MEM_SPLIT);
    for (int i = 0; i < 16 * 16; i++)
        small_a[i] = (float)(i % 5);

    test_op ops[6];
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    gemm_op(&ops[0], &f->r, 0, gc, c_big);
    big_memset_op(&ops[1], &f->r, 1, mem, MEM_SPLIT, 0xa5);
    copy_op(&ops[2], &f->r, 2, dst, src, MEM_SPLIT);
    copy_op(&ops[3], &f->r, 3, ovl + 64, ovl, MEM_SPLIT); /* overlapping */
    memset_op(&ops[4], &f->r, 4, small_mem, 0x3c);
    ops[4].sop.desc.u.memset.bytes = sizeof(small_mem);
    memset(&ops[5], 0, sizeof(ops[5])); /* a small GEMM: small_c = small_a^2 */
    ops[5].sop.desc.kind = TRN_OP_GEMM;
    trn_gemm_desc *sg = &ops[5].sop.desc.u.gemm;
    sg->type = TRN_DTYPE_R32F;
    sg->m = sg->n = sg->k = 16;
    sg->alpha.re = 1.0;
    sg->a = sg->b = small_a;
    sg->c = small_c;
    sg->lda = sg->ldb = sg->ldc = 16;
    ops[5].sop.done = on_done;
    ops[5].r = &f->r;
    ops[5].index = 5;
    for (int i = 0; i < 6; i++)
        assert_int_equal(trn_sched_submit(f->s, st, &ops[i].sop), 0);
    wait_count(&f->r, 6);
    for (int i = 0; i < 6; i++)
        assert_int_equal(f->r.status[i], TRN_SCHED_OK);

    expect_shards(f->g, c_big, NWORKERS);
    expect_shards(f->g, mem, NWORKERS);
    expect_shards(f->g, dst, NWORKERS);
    expect_shards(f->g, ovl + 64, 1);
    expect_shards(f->g, small_mem, 1);
    expect_shards(f->g, small_c, 1);

    expect_gemm_result(gc, c_big);
    assert_true(all_bytes(mem, MEM_SPLIT, 0xa5));
    assert_memory_equal(dst, src, MEM_SPLIT);
    assert_memory_equal(ovl, ovl_ref, MEM_SPLIT + 64);
    assert_true(all_bytes(small_mem, sizeof(small_mem), 0x3c));
    for (int j = 0; j < 16; j++)
        for (int i = 0; i < 16; i++) {
            float acc = 0;
            for (int l = 0; l < 16; l++)
                acc += small_a[i + l * 16] * small_a[l + j * 16];
            assert_true(small_c[i + j * 16] == acc);
        }

    trn_sched_stream_release(f->s, st);
    expect_idle(f->s, 6);
    free(gc);
    free(c_big);
    free(mem);
    free(src);
    free(dst);
    free(ovl);
    free(ovl_ref);
}

/* Rule: the shards of one op run at the same time on different workers, yet
 * ops of one stream never overlap: every shard of op i has ended before any
 * shard of op i+1 starts. The first op of each stream is a memset whose
 * shards wait inside the kernel until all of them are there (the backend's
 * "meet"): it completes only if the scheduler really runs them concurrently,
 * on two workers. Two streams with big GEMMs and memsets run side by side. */
static void test_shards_concurrent_stream_ordered(void **state) {
    fx *f = *state;
    enum { PER_STREAM = 6 };
    gemm_case *gc = gemm_case_new(1);
    unsigned char *meet = malloc(MEM_SPLIT);
    float *c[2][PER_STREAM];
    unsigned char *m[2][PER_STREAM];
    static test_op ops[1 + 2 * PER_STREAM];
    const void *key[2][PER_STREAM];
    assert_non_null(meet);
    f->g->meet = meet;

    trn_sched_stream *st[2] = {trn_sched_stream_create(f->s, NULL),
                               trn_sched_stream_create(f->s, NULL)};
    big_memset_op(&ops[0], &f->r, 0, meet, MEM_SPLIT, 0x11);
    assert_int_equal(trn_sched_submit(f->s, st[0], &ops[0].sop), 0);
    for (int i = 0; i < PER_STREAM; i++) {
        for (int s = 0; s < 2; s++) {
            test_op *t = &ops[1 + s * PER_STREAM + i];
            const int index = 1 + s * PER_STREAM + i;
            c[s][i] = NULL;
            m[s][i] = NULL;
            if (i % 2 == 0) {
                c[s][i] = malloc(sizeof(gc->c0));
                assert_non_null(c[s][i]);
                gemm_op(t, &f->r, index, gc, c[s][i]);
                key[s][i] = c[s][i];
            } else {
                m[s][i] = malloc(MEM_SPLIT);
                assert_non_null(m[s][i]);
                big_memset_op(t, &f->r, index, m[s][i], MEM_SPLIT, 0x20 + index);
                key[s][i] = m[s][i];
            }
            assert_int_equal(trn_sched_submit(f->s, st[s], &t->sop), 0);
        }
    }
    wait_count(&f->r, 1 + 2 * PER_STREAM);

    pthread_mutex_lock(&f->g->lock);
    const int timed_out = f->g->meet_timed_out, met = f->g->meet_entered;
    pthread_mutex_unlock(&f->g->lock);
    if (timed_out)
        fail_msg("the meet memset's shards never ran together (%d of %d inside)", met, NWORKERS);
    const shard_seen r = expect_shards(f->g, meet, NWORKERS);
    assert_int_equal(popcount(r.cores), NWORKERS); /* one shard on each worker */
    assert_true(all_bytes(meet, MEM_SPLIT, 0x11));

    for (int s = 0; s < 2; s++) {
        int prev_last = s == 0 ? r.last_ev : -1;
        for (int i = 0; i < PER_STREAM; i++) {
            const shard_seen x = expect_shards(f->g, key[s][i], NWORKERS);
            if (x.first_ev <= prev_last)
                fail_msg("stream %d: op %d started (event %d) before the op before it ended "
                         "(event %d)",
                         s, i, x.first_ev, prev_last);
            prev_last = x.last_ev;
            assert_int_equal(f->r.status[1 + s * PER_STREAM + i], TRN_SCHED_OK);
            if (c[s][i])
                expect_gemm_result(gc, c[s][i]);
            else
                assert_true(all_bytes(m[s][i], MEM_SPLIT, 0x20 + 1 + s * PER_STREAM + i));
        }
    }
    for (int s = 0; s < 2; s++) {
        trn_sched_stream_release(f->s, st[s]);
        for (int i = 0; i < PER_STREAM; i++) {
            free(c[s][i]);
            free(m[s][i]);
        }
    }
    expect_idle(f->s, 1 + 2 * PER_STREAM);
    f->g->meet = NULL;
    free(meet);
    free(gc);
}

/* Runs gc's GEMM on a fresh scheduler with `workers` workers; returns the
 * number of shards it ran as and leaves the result in c. */
static int gemm_on_workers(const gemm_case *gc, int workers, float *c) {
    gate_backend *g = gate_backend_create();
    char err[256] = "";
    const trn_sched_config sc = {.cpus = NULL, .ncores = workers, .ncopy = 0};
    trn_sched *s = trn_sched_create(&g->be, &sc, err, sizeof(err));
    if (!s)
        fail_msg("trn_sched_create: %s", err);
    rec r;
    rec_init(&r);
    test_op t;
    trn_sched_stream *st = trn_sched_stream_create(s, NULL);
    gemm_op(&t, &r, 0, gc, c);
    assert_int_equal(trn_sched_submit(s, st, &t.sop), 0);
    wait_done(&r, 0);
    assert_int_equal(r.status[0], TRN_SCHED_OK);
    const shard_seen x = seen_of(g, c);
    trn_sched_stream_release(s, st);
    trn_sched_shutdown(s);
    trn_sched_destroy(s);
    gate_backend_destroy(g);
    rec_destroy(&r);
    assert_int_equal(x.starts, x.nshards);
    assert_int_equal(x.shards, (1u << x.nshards) - 1u);
    return x.nshards;
}

/* Rule: the shard count depends on the op and the core count only, never on
 * load, so the result is bitwise the same whatever else is running.
 * The same big GEMM runs (1) on idle workers; (2) with one worker blocked in
 * a gate: it is still cut in 2, and the free worker runs both shards; (3) with
 * both workers blocked and other streams' work queued in front of it. All
 * three give nshards = 2 and the same bits. On 1, 3 and 4 workers it is cut
 * in 1, 3 and 4, and (shards start at aligned columns, blas_gemm.c) still
 * gives the same bits. The data is random, so a cut in the wrong place
 * changes the last bits of some columns. */
static void test_shard_count_ignores_load(void **state) {
    fx *f = *state;
    gemm_case *gc = gemm_case_new(0);
    float *c_idle = malloc(sizeof(gc->c0)), *c_one = malloc(sizeof(gc->c0)),
          *c_busy = malloc(sizeof(gc->c0)), *c_other = malloc(sizeof(gc->c0));
    assert_true(c_idle && c_one && c_busy && c_other);
    enum { QUEUED = 40 };
    static test_op q[QUEUED];
    static unsigned char qbytes[QUEUED];
    test_op idle, g0, one, g1, busy;
    trn_sched_stream *a = trn_sched_stream_create(f->s, NULL),
                     *b = trn_sched_stream_create(f->s, NULL),
                     *c = trn_sched_stream_create(f->s, NULL),
                     *d = trn_sched_stream_create(f->s, NULL);

    /* (1) idle */
    gemm_op(&idle, &f->r, 0, gc, c_idle);
    assert_int_equal(trn_sched_submit(f->s, a, &idle.sop), 0);
    wait_done(&f->r, 0);
    expect_shards(f->g, c_idle, NWORKERS);

    /* (2) one worker held in gate 0: the GEMM still has 2 shards, both run
     * (one after the other) on the free worker, before the gate opens. */
    gate_op(&g0, &f->r, 1, f->g, 0);
    assert_int_equal(trn_sched_submit(f->s, b, &g0.sop), 0);
    gate_wait_entered(f->g, 0);
    gemm_op(&one, &f->r, 2, gc, c_one);
    assert_int_equal(trn_sched_submit(f->s, a, &one.sop), 0);
    wait_done(&f->r, 2);
    assert_false(is_done(&f->r, 1));
    const shard_seen x1 = expect_shards(f->g, c_one, NWORKERS);
    assert_int_equal(popcount(x1.cores), 1);

    /* (3) both workers held, other streams' work queued first. */
    gate_op(&g1, &f->r, 3, f->g, 1);
    assert_int_equal(trn_sched_submit(f->s, c, &g1.sop), 0);
    gate_wait_entered(f->g, 1);
    for (int i = 0; i < QUEUED; i++) {
        memset_op(&q[i], &f->r, 4 + i, &qbytes[i], 9);
        assert_int_equal(trn_sched_submit(f->s, (i % 2) ? c : d, &q[i].sop), 0);
    }
    gemm_op(&busy, &f->r, 4 + QUEUED, gc, c_busy);
    assert_int_equal(trn_sched_submit(f->s, a, &busy.sop), 0);
    settle();
    assert_int_equal(seen_of(f->g, c_busy).starts, 0);
    gate_open(f->g, 0);
    gate_open(f->g, 1);
    wait_count(&f->r, 5 + QUEUED);
    expect_shards(f->g, c_busy, NWORKERS);
    for (int i = 0; i < 5 + QUEUED; i++)
        assert_int_equal(f->r.status[i], TRN_SCHED_OK);

    assert_memory_equal(c_one, c_idle, sizeof(gc->c0));
    assert_memory_equal(c_busy, c_idle, sizeof(gc->c0));

    /* Other core counts: ncores shards (up to what the size allows), same bits. */
    assert_int_equal(gemm_on_workers(gc, 1, c_other), 1);
    assert_memory_equal(c_other, c_idle, sizeof(gc->c0));
    assert_int_equal(gemm_on_workers(gc, 4, c_other), 4);
    assert_memory_equal(c_other, c_idle, sizeof(gc->c0));
    assert_int_equal(gemm_on_workers(gc, 3, c_other), 3);
    assert_memory_equal(c_other, c_idle, sizeof(gc->c0));

    trn_sched_stream_release(f->s, a);
    trn_sched_stream_release(f->s, b);
    trn_sched_stream_release(f->s, c);
    trn_sched_stream_release(f->s, d);
    expect_idle(f->s, 5 + QUEUED);
    free(gc);
    free(c_idle);
    free(c_one);
    free(c_busy);
    free(c_other);
}

/* Rule (sched.h): an op counts as started once any of its shards has been
 * taken by a worker, and a started op finishes. Worker 0 is held in gate 0;
 * a big memset P (2 shards) is submitted on stream s: worker 1 takes shard 0
 * and is held in gate 2 (pointed at P), while shard 1 waits on the ready
 * queue. Cancelling s then completes what is queued behind P with CANCELLED
 * at once, but not P: after the gates open, P's second shard runs too and P
 * completes OK with every byte written. */
static void test_cancel_partly_dispatched_op(void **state) {
    fx *f = *state;
    unsigned char *p = malloc(MEM_SPLIT), behind = 0;
    assert_non_null(p);
    memset(p, 0, MEM_SPLIT);
    test_op g0, big, q, mark, after;
    trn_sched_stream *a = trn_sched_stream_create(f->s, NULL),
                     *s = trn_sched_stream_create(f->s, NULL);
    f->g->gate[2] = p;
    gate_op(&g0, &f->r, 0, f->g, 0);
    assert_int_equal(trn_sched_submit(f->s, a, &g0.sop), 0);
    gate_wait_entered(f->g, 0);
    big_memset_op(&big, &f->r, 1, p, MEM_SPLIT, 0x77);
    memset_op(&q, &f->r, 2, &behind, 1);
    marker_op(&mark, &f->r, 3);
    assert_int_equal(trn_sched_submit(f->s, s, &big.sop), 0);
    assert_int_equal(trn_sched_submit(f->s, s, &q.sop), 0);
    assert_int_equal(trn_sched_submit(f->s, s, &mark.sop), 0);
    gate_wait_entered(f->g, 2); /* shard 0 of P is running; shard 1 is not */

    trn_sched_stream_cancel(f->s, s);
    /* Record, release every worker, and only then assert: P lives on this
     * stack frame and its running shard must finish before a failure returns. */
    const int p_done_at_cancel = is_done(&f->r, 1);
    trn_sched_stats stats;
    trn_sched_get_stats(f->s, &stats);
    gate_open(f->g, 0); /* worker 0 is free: it takes P's shard 1 */
    const int in_gate = gate_entered_within(f->g, 2, 2);
    gate_open(f->g, 2);
    wait_done(&f->r, 0);
    assert_int_equal(f->r.done[2], 1);
    assert_int_equal(f->r.status[2], TRN_SCHED_CANCELLED);
    assert_int_equal(f->r.done[3], 1);
    assert_int_equal(f->r.status[3], TRN_SCHED_CANCELLED);
    assert_false(p_done_at_cancel);
    assert_int_equal(stats.ops_running, 2); /* the gate op and P */
    assert_int_equal(stats.ops_queued, 0);
    assert_int_equal(in_gate, 2); /* P's second shard ran after the cancel */
    wait_done(&f->r, 1);
    assert_int_equal(f->r.status[1], TRN_SCHED_OK);
    expect_shards(f->g, p, NWORKERS);
    assert_true(all_bytes(p, MEM_SPLIT, 0x77));
    assert_int_equal(behind, 0);

    /* The stream is usable afterwards. */
    memset_op(&after, &f->r, 4, &behind, 5);
    assert_int_equal(trn_sched_submit(f->s, s, &after.sop), 0);
    wait_done(&f->r, 4);
    assert_int_equal(behind, 5);
    trn_sched_stream_release(f->s, a);
    trn_sched_stream_release(f->s, s);
    expect_idle(f->s, 3);
    free(p);
}

/* Rule (trn_sched_shutdown): "completes every queued op ... waits for running
 * shards". With P partly dispatched as above and an unstarted op R waiting
 * behind it on the ready queue (another stream), shutdown completes R with
 * SHUTDOWN at once but lets P finish: its second shard still runs after
 * shutdown began, and the workers exit only after that. */
static void test_shutdown_partly_dispatched_op(void **state) {
    fx *f = *state;
    unsigned char *p = malloc(MEM_SPLIT), rbyte = 0;
    assert_non_null(p);
    memset(p, 0, MEM_SPLIT);
    test_op g0, big, r;
    trn_sched_stream *a = trn_sched_stream_create(f->s, NULL),
                     *s = trn_sched_stream_create(f->s, NULL),
                     *c = trn_sched_stream_create(f->s, NULL);
    f->g->gate[2] = p;
    gate_op(&g0, &f->r, 0, f->g, 0);
    assert_int_equal(trn_sched_submit(f->s, a, &g0.sop), 0);
    gate_wait_entered(f->g, 0);
    big_memset_op(&big, &f->r, 1, p, MEM_SPLIT, 0x42);
    assert_int_equal(trn_sched_submit(f->s, s, &big.sop), 0);
    gate_wait_entered(f->g, 2);
    memset_op(&r, &f->r, 2, &rbyte, 1);
    assert_int_equal(trn_sched_submit(f->s, c, &r.sop), 0);

    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, shutdown_thread, f->s), 0);
    wait_done(&f->r, 2);
    /* As in the cancel test: release the workers before asserting. */
    const int p_done_early = is_done(&f->r, 1);
    gate_open(f->g, 0);
    const int in_gate = gate_entered_within(f->g, 2, 2); /* shard 1 starts during shutdown */
    gate_open(f->g, 2);
    assert_int_equal(pthread_join(th, NULL), 0);
    assert_int_equal(f->r.status[2], TRN_SCHED_SHUTDOWN);
    assert_false(p_done_early);
    assert_int_equal(in_gate, 2);
    assert_int_equal(f->r.status[0], TRN_SCHED_OK);
    assert_int_equal(f->r.status[1], TRN_SCHED_OK);
    expect_shards(f->g, p, NWORKERS);
    assert_true(all_bytes(p, MEM_SPLIT, 0x42));
    assert_int_equal(rbyte, 0);
    trn_sched_stream_release(f->s, a);
    trn_sched_stream_release(f->s, s);
    trn_sched_stream_release(f->s, c);
    expect_idle(f->s, 2);
    free(p);
}

/* An op whose two shards fail, one for memory and one for bad input, in
 * either order: the op is KERNEL_FAILED with the bad-input message (what
 * the client must fix) both times. Both out of memory: NO_MEMORY, with
 * shard 0's message although shard 1 posted first. */
static void test_mixed_failures(void **state) {
    fx *f = *state;
    const size_t bytes = 2 * TRN_SHARD_MEM_MIN_BYTES;
    unsigned char *buf = malloc(bytes);
    assert_non_null(buf);
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    const struct {
        int nomem_shard, first;
        trn_sched_status want;
        const char *text;
    } cases[] = {
        {0, 0, TRN_SCHED_KERNEL_FAILED, "bad input at 7 (shard 1)"},
        {0, 1, TRN_SCHED_KERNEL_FAILED, "bad input at 7 (shard 1)"},
        {-1, 1, TRN_SCHED_NO_MEMORY, "1000 bytes for shard 0's scratch"},
    };
    for (int c = 0; c < 3; c++) {
        pthread_mutex_lock(&f->g->lock);
        f->g->split_fail = buf;
        f->g->nomem_shard = cases[c].nomem_shard;
        f->g->split_first = cases[c].first;
        f->g->split_first_done = 0;
        pthread_mutex_unlock(&f->g->lock);
        test_op t;
        big_memset_op(&t, &f->r, c, buf, bytes, 1);
        assert_int_equal(trn_sched_submit(f->s, st, &t.sop), 0);
        wait_done(&f->r, c);
        assert_int_equal(t.sop.nshards, 2);
        assert_int_equal(f->r.status[c], cases[c].want);
        assert_true(t.sop.kmsg.set);
        assert_int_equal(t.sop.kmsg.bad_input, cases[c].want == TRN_SCHED_KERNEL_FAILED);
        if (!strstr(t.sop.kmsg.text, cases[c].text))
            fail_msg("case %d: message \"%s\" lacks \"%s\"", c, t.sop.kmsg.text, cases[c].text);
    }
    pthread_mutex_lock(&f->g->lock);
    f->g->split_fail = NULL;
    pthread_mutex_unlock(&f->g->lock);
    trn_sched_stream_release(f->s, st);
    expect_idle(f->s, 3);
    free(buf);
}

/* Rule: a sequence op (trn_sched_op.steps) runs its steps in order, one
 * after the other, and completes once after the last; an op queued behind
 * it on the stream waits for all of them. */
static void test_sequence_in_order(void **state) {
    fx *f = *state;
    enum { N = 200 };
    static unsigned char buf[N];
    static trn_op_desc descs[N];
    static trn_kmsg msgs[N];
    static trn_sched_step steps[N];
    memset(buf, 0, sizeof(buf));
    for (int i = 0; i < N; i++) {
        memset(&descs[i], 0, sizeof(descs[i]));
        descs[i].kind = TRN_OP_MEMSET;
        descs[i].u.memset.dst = &buf[i];
        descs[i].u.memset.value = 1 + i % 250;
        descs[i].u.memset.bytes = 1;
        descs[i].kmsg = &msgs[i];
        steps[i] = (trn_sched_step){&descs[i], NULL, 0};
    }
    test_op seq, after;
    unsigned char last = 0;
    memset_op(&seq, &f->r, 0, &last, 0);
    seq.sop.steps = steps;
    seq.sop.nsteps = N;
    memset_op(&after, &f->r, 1, &last, 7);
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    assert_int_equal(trn_sched_submit(f->s, st, &seq.sop), 0);
    assert_int_equal(trn_sched_submit(f->s, st, &after.sop), 0);
    wait_count(&f->r, 2);
    check_run_order(f->g, buf, N, 1);
    assert_int_equal(f->r.done[0], 1);
    assert_int_equal(f->r.status[0], TRN_SCHED_OK);
    assert_int_equal(f->r.order[0], 0); /* the sequence completed before the op behind it */
    for (int i = 0; i < N; i++)
        assert_int_equal(buf[i], 1 + i % 250);
    assert_int_equal(last, 7);
    trn_sched_stream_release(f->s, st);
    expect_idle(f->s, 2);
}

/* Rule: cancelling the stream of a running sequence stops it before its
 * next step (CANCELLED); the step running finishes. */
static void test_sequence_cancel(void **state) {
    fx *f = *state;
    unsigned char bytes[3] = {0, 0, 0};
    trn_op_desc descs[4];
    trn_kmsg msgs[4];
    trn_sched_step steps[4];
    memset(descs, 0, sizeof(descs));
    for (int i = 0; i < 4; i++) {
        descs[i].kind = TRN_OP_MEMSET;
        descs[i].u.memset.dst = i == 0 ? (void *)&f->g->mem[0] : (void *)&bytes[i - 1];
        descs[i].u.memset.value = 0x5a;
        descs[i].u.memset.bytes = 1;
        descs[i].kmsg = &msgs[i];
        steps[i] = (trn_sched_step){&descs[i], NULL, 0};
    }
    test_op seq;
    memset_op(&seq, &f->r, 0, &bytes[0], 0);
    seq.sop.steps = steps;
    seq.sop.nsteps = 4;
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    assert_int_equal(trn_sched_submit(f->s, st, &seq.sop), 0);
    gate_wait_entered(f->g, 0); /* step 0 is running */
    trn_sched_stream_cancel(f->s, st);
    assert_false(is_done(&f->r, 0));
    gate_open(f->g, 0);
    wait_done(&f->r, 0);
    assert_int_equal(f->r.status[0], TRN_SCHED_CANCELLED);
    for (int i = 0; i < 3; i++)
        assert_int_equal(bytes[i], 0); /* later steps never ran */
    trn_sched_stream_release(f->s, st);
    expect_idle(f->s, 1);
}

/* Rule: a looping sequence (loop_first .. loop_last) runs step 0 once,
 * then its looped steps in order round after round, until a step returns
 * TRN_KSTATUS_SEQ_DONE: the op then completes OK at once, and the steps
 * after the loop never run. */
static void test_sequence_loop(void **state) {
    fx *f = *state;
    unsigned char bytes[4] = {0, 0, 0, 0};
    trn_op_desc descs[4];
    trn_kmsg msgs[4];
    trn_sched_step steps[4];
    memset(descs, 0, sizeof(descs));
    for (int i = 0; i < 4; i++) {
        descs[i].kind = TRN_OP_MEMSET;
        descs[i].u.memset.dst = &bytes[i];
        descs[i].u.memset.value = 1 + i;
        descs[i].u.memset.bytes = 1;
        descs[i].kmsg = &msgs[i];
        steps[i] = (trn_sched_step){&descs[i], NULL, 0};
    }
    pthread_mutex_lock(&f->g->lock);
    f->g->loop_key = &bytes[2];
    f->g->loop_runs = 0;
    f->g->loop_done_at = 5;
    pthread_mutex_unlock(&f->g->lock);
    test_op seq, after;
    unsigned char last = 0;
    memset_op(&seq, &f->r, 0, &last, 0);
    seq.sop.steps = steps;
    seq.sop.nsteps = 4;
    seq.sop.loop_first = 1;
    seq.sop.loop_last = 2;
    memset_op(&after, &f->r, 1, &last, 9);
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    assert_int_equal(trn_sched_submit(f->s, st, &seq.sop), 0);
    assert_int_equal(trn_sched_submit(f->s, st, &after.sop), 0);
    wait_count(&f->r, 2);
    assert_int_equal(f->r.status[0], TRN_SCHED_OK);
    assert_int_equal(f->r.order[0], 0);
    pthread_mutex_lock(&f->g->lock);
    assert_int_equal(f->g->loop_runs, 5);
    /* Step 0 ran once, step 1 five times, each before its round's step 2. */
    int s0 = 0, s1 = 0, s2 = 0, ok = 1;
    for (int e = 0; e < f->g->nev; e++) {
        if (!f->g->ev[e].end)
            continue;
        const void *p = f->g->ev[e].dst;
        if (p == &bytes[0])
            s0++;
        else if (p == &bytes[1])
            ok = ok && ++s1 == s2 + 1 && s0 == 1;
        else if (p == &bytes[2])
            ok = ok && ++s2 == s1;
    }
    f->g->loop_key = NULL;
    pthread_mutex_unlock(&f->g->lock);
    assert_true(ok);
    assert_int_equal(s0, 1);
    assert_int_equal(s1, 5);
    assert_int_equal(bytes[3], 0); /* after the loop: never ran */
    assert_int_equal(last, 9);
    trn_sched_stream_release(f->s, st);
    expect_idle(f->s, 2);
}

/* Rule: cancelling the stream of a looping sequence stops it before its
 * next step (CANCELLED), however many rounds it had left. */
static void test_sequence_loop_cancel(void **state) {
    fx *f = *state;
    unsigned char bytes[3] = {0, 0, 0};
    trn_op_desc descs[3];
    trn_kmsg msgs[3];
    trn_sched_step steps[3];
    memset(descs, 0, sizeof(descs));
    for (int i = 0; i < 3; i++) {
        descs[i].kind = TRN_OP_MEMSET;
        descs[i].u.memset.dst = &bytes[i];
        descs[i].u.memset.value = 1 + i;
        descs[i].u.memset.bytes = 1;
        descs[i].kmsg = &msgs[i];
        steps[i] = (trn_sched_step){&descs[i], NULL, 0};
    }
    pthread_mutex_lock(&f->g->lock);
    f->g->gate[1] = &bytes[1]; /* the first looped step waits at gate 1 */
    f->g->loop_key = &bytes[2];
    f->g->loop_runs = 0;
    f->g->loop_done_at = 1000000; /* never, within the test */
    pthread_mutex_unlock(&f->g->lock);
    test_op seq;
    unsigned char last = 0;
    memset_op(&seq, &f->r, 0, &last, 0);
    seq.sop.steps = steps;
    seq.sop.nsteps = 3;
    seq.sop.loop_first = 1;
    seq.sop.loop_last = 2;
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    assert_int_equal(trn_sched_submit(f->s, st, &seq.sop), 0);
    gate_wait_entered(f->g, 1); /* round 1's first step is running */
    trn_sched_stream_cancel(f->s, st);
    assert_false(is_done(&f->r, 0));
    gate_open(f->g, 1);
    wait_done(&f->r, 0);
    assert_int_equal(f->r.status[0], TRN_SCHED_CANCELLED);
    pthread_mutex_lock(&f->g->lock);
    assert_int_equal(f->g->loop_runs, 0); /* the step after it never ran */
    f->g->loop_key = NULL;
    pthread_mutex_unlock(&f->g->lock);
    assert_int_equal(bytes[2], 0);
    trn_sched_stream_release(f->s, st);
    expect_idle(f->s, 1);
}

/* ---- running small ops in the submitting thread (trn_sched_kick_run) ---- */

/* run_core hooks that record which thread ran each op and can leave one
 * pending (as an executor whose answer has not come), for run_core_finish. */
typedef struct lend_ctx {
    fx *f;
    pthread_mutex_t lock;
    pthread_t caller;
    int by_caller, by_finish_off_caller;
    const void *hold; /* a run_core for this op's dst with patience leaves it pending */
    const trn_op_desc *held;
    int held_shard, held_nshards, held_core;
} lend_ctx;

static trn_kstatus lend_run_core(void *ctx, int core, const trn_op_desc *op,
                                 const struct trn_plan_entry *plan, unsigned part, int shard,
                                 int nshards, uint64_t est_ns, uint64_t patience_ns, int *pending) {
    (void)plan, (void)part, (void)est_ns;
    lend_ctx *l = ctx;
    pthread_mutex_lock(&l->lock);
    if (pthread_equal(pthread_self(), l->caller))
        l->by_caller++;
    const int hold = patience_ns && op_key(op) == l->hold;
    if (hold) {
        l->held = op;
        l->held_shard = shard;
        l->held_nshards = nshards;
        l->held_core = core;
    }
    pthread_mutex_unlock(&l->lock);
    if (hold) {
        *pending = 1;
        return TRN_KSTATUS_OK;
    }
    return l->f->g->be.run(&l->f->g->be, op, NULL, shard, nshards);
}

static trn_kstatus lend_run_core_finish(void *ctx, int core) {
    lend_ctx *l = ctx;
    pthread_mutex_lock(&l->lock);
    const trn_op_desc *op = l->held;
    assert_non_null(op);
    assert_int_equal(core, l->held_core);
    if (!pthread_equal(pthread_self(), l->caller))
        l->by_finish_off_caller++;
    l->held = NULL;
    pthread_mutex_unlock(&l->lock);
    return l->f->g->be.run(&l->f->g->be, op, NULL, l->held_shard, l->held_nshards);
}

/* Submits ops[i] (deferred) and kicks with trn_sched_kick_run until a call
 * runs one in this thread: workers may still be starting, or finishing the
 * previous op, when it is first called. Returns what the last call did. */
static int kick_run_until_lent(fx *f, trn_sched_stream *st, test_op *ops, int *i, rec *r,
                               unsigned char *buf, uint64_t max_est, uint64_t patience) {
    for (int tries = 0; tries < 200; tries++, (*i)++) {
        memset_op(&ops[*i], r, *i, &buf[*i], 1 + *i);
        ops[*i].sop.defer_wake = 1;
        assert_int_equal(trn_sched_submit(f->s, st, &ops[*i].sop), 0);
        if (trn_sched_kick_run(f->s, max_est, patience))
            return 1;
        wait_done(r, *i);
        const struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    return 0;
}

/* Rule: trn_sched_kick_run runs the next small op in the calling thread, in
 * an idle core's name (through run_core), before it returns; an op over the
 * size limit is left to the workers; a run still going after the patience is
 * concluded by the core's own worker thread (run_core_finish), and the
 * stream's later ops wait for it. Results and stream order as always. */
static void test_kick_run(void **state) {
    fx *f = *state;
    trn_sched_shutdown(f->s);
    trn_sched_destroy(f->s);
    lend_ctx l = {.f = f, .caller = pthread_self()};
    pthread_mutex_init(&l.lock, NULL);
    char err[256] = "";
    const trn_sched_config sc = {.cpus = NULL,
                                 .ncores = NWORKERS,
                                 .ncopy = 0,
                                 .run_core = lend_run_core,
                                 .run_core_finish = lend_run_core_finish,
                                 .run_ctx = &l};
    f->s = trn_sched_create(&f->g->be, &sc, err, sizeof(err));
    if (!f->s)
        fail_msg("trn_sched_create: %s", err);
    enum { N = 256 };
    static test_op ops[N];
    static unsigned char buf[N];
    memset(buf, 0, sizeof(buf));
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    assert_non_null(st);
    int i = 0;

    /* A small op runs here, and is complete when the call returns. */
    assert_int_equal(kick_run_until_lent(f, st, ops, &i, &f->r, buf, UINT64_MAX / 2, 0), 1);
    assert_int_equal(f->r.done[i], 1);
    assert_int_equal(buf[i], 1 + i);
    assert_int_equal(l.by_caller, 1);
    i++;

    /* Over the limit: the workers run it. */
    const int by_caller = l.by_caller;
    memset_op(&ops[i], &f->r, i, &buf[i], 1 + i);
    ops[i].sop.defer_wake = 1;
    assert_int_equal(trn_sched_submit(f->s, st, &ops[i].sop), 0);
    assert_int_equal(trn_sched_kick_run(f->s, 0, 0), 0);
    wait_done(&f->r, i);
    assert_int_equal(buf[i], 1 + i);
    assert_int_equal(l.by_caller, by_caller);
    i++;

    /* Held past the patience: the worker concludes it; the op behind it on
     * the stream runs only after. */
    const struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL);
    l.hold = &buf[i];
    const int held = i;
    assert_int_equal(kick_run_until_lent(f, st, ops, &i, &f->r, buf, UINT64_MAX / 2, 1000), 1);
    assert_int_equal(i, held); /* lent at the first try: the workers were idle */
    memset_op(&ops[i + 1], &f->r, i + 1, &buf[i + 1], 2 + i);
    assert_int_equal(trn_sched_submit(f->s, st, &ops[i + 1].sop), 0);
    wait_done(&f->r, i + 1);
    assert_int_equal(buf[i], 1 + i);
    assert_int_equal(buf[i + 1], 2 + i);
    assert_int_equal(l.by_finish_off_caller, 1);
    assert_true(f->r.seen_before[i + 1] > f->r.seen_before[i]);
    trn_sched_stream_release(f->s, st);
    trn_sched_shutdown(f->s);
    trn_sched_destroy(f->s);
    f->s = trn_sched_create(&f->g->be, &(trn_sched_config){.ncores = NWORKERS}, err, sizeof(err));
    assert_non_null(f->s); /* for teardown */
    pthread_mutex_destroy(&l.lock);
}

/* ---- chains (trn_sched_config.run_core_chain) ---- */

/* run_core_chain hooks: each chain's ops, by index into the test's buffer
 * (their memsets' dst - base), run in order through the gated backend with
 * their times; core_chains refuses the op writing `refuse`. */
typedef struct chain_ctx {
    fx *f;
    const unsigned char *base;
    size_t stride; /* op i writes base + i * stride (0: 1) */
    const void *refuse;
    int hand_back; /* the first chain runs only its first hand_back ops */
    int pairs;     /* trn_sched_config.chain_pairs */
    int peeks;     /* trn_sched_config.chain_peek */
    /* trn_sched_config.locate (when `locate`): every op's inputs are on core
     * `home`, and moving them to any other core takes extra_ns. */
    int locate, home;
    uint64_t extra_ns;
    /* The first chain waits in the hook, `held` set, while `hold` is. */
    int hold, held;
    pthread_cond_t cv;
    pthread_mutex_t lock;
    int nchains;
    int first[MAXOPS], len[MAXOPS]; /* chain c: ops first[c] .. first[c] + len[c] - 1 */
    int peek_of[MAXOPS];            /* and its peek's op (-1: none) */
    int peek_misplaced;             /* a peek not last, or not given unrun */
    int in_order;                   /* every chain was consecutive ops of the buffer */
} chain_ctx;

static void chain_run(void *ctx, int core, trn_sched_chain_op *ops, int n, int followed) {
    (void)core, (void)followed;
    chain_ctx *c = ctx;
    assert_true(n >= 2 && n <= TRN_SCHED_CHAIN_MAX);
    pthread_mutex_lock(&c->lock);
    const size_t stride = c->stride ? c->stride : 1;
    const int first = (int)(((const unsigned char *)op_key(ops[0].desc) - c->base) / stride);
    for (int i = 1; i < n; i++)
        if ((const unsigned char *)op_key(ops[i].desc) - c->base != (first + i) * (ptrdiff_t)stride)
            c->in_order = 0;
    const int peek = ops[n - 1].peek; /* never run: sched.h */
    for (int i = 0; i < n; i++)
        if ((ops[i].peek && (i != n - 1 || ops[i].ran)) || (!ops[i].peek && !ops[i].ran))
            c->peek_misplaced = 1;
    c->first[c->nchains] = first;
    c->peek_of[c->nchains] = peek ? first + n - 1 : -1;
    c->len[c->nchains++] = n - peek;
    const int runs = c->nchains == 1 && c->hand_back ? c->hand_back : n - peek;
    if (c->nchains == 1 && c->hold) {
        c->held = 1;
        pthread_cond_broadcast(&c->cv);
        while (c->hold)
            pthread_cond_wait(&c->cv, &c->lock);
    }
    pthread_mutex_unlock(&c->lock);
    for (int i = runs; i < n; i++)
        ops[i].ran = 0;
    for (int i = 0; i < runs; i++) {
        ops[i].t_start = trn_sched_now_ns();
        ops[i].status = c->f->g->be.run(&c->f->g->be, ops[i].desc, NULL, 0, 1);
        ops[i].t_end = trn_sched_now_ns();
    }
}

static int chain_peek_all(void *ctx, const trn_op_desc *op) {
    (void)ctx, (void)op;
    return 1;
}

static int chain_locate(void *ctx, const trn_op_desc *op, const struct trn_plan_entry *plan,
                        unsigned part, int here, uint64_t *extra_ns) {
    (void)op, (void)plan, (void)part;
    const chain_ctx *c = ctx;
    *extra_ns = here == c->home ? 0 : c->extra_ns;
    return c->home;
}

static int chain_accepts(void *ctx, const trn_op_desc *op) {
    const chain_ctx *c = ctx;
    return op_key(op) != c->refuse;
}

/* Waits until the first chain is held in the hook (c->hold set). */
static void chain_wait_held(chain_ctx *c) {
    pthread_mutex_lock(&c->lock);
    while (!c->held)
        pthread_cond_wait(&c->cv, &c->lock);
    pthread_mutex_unlock(&c->lock);
}

/* Lets the held chain run. */
static void chain_release(chain_ctx *c) {
    pthread_mutex_lock(&c->lock);
    c->hold = 0;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->lock);
}

/* Restarts f's scheduler with the chain hooks (nworkers workers). */
static void chain_restart(fx *f, chain_ctx *c, int nworkers) {
    trn_sched_shutdown(f->s);
    trn_sched_destroy(f->s);
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->cv, NULL);
    c->in_order = 1;
    char err[256] = "";
    const trn_sched_config sc = {.ncores = nworkers,
                                 .run_core_chain = chain_run,
                                 .core_chains = chain_accepts,
                                 .chain_pairs = c->pairs,
                                 .chain_peek = c->peeks ? chain_peek_all : NULL,
                                 .locate = c->locate ? chain_locate : NULL,
                                 .run_ctx = c};
    f->s = trn_sched_create(&f->g->be, &sc, err, sizeof(err));
    if (!f->s)
        fail_msg("trn_sched_create: %s", err);
}

/* Back to the fixture's plain scheduler, for teardown. */
static void chain_end(fx *f, chain_ctx *c) {
    trn_sched_shutdown(f->s);
    trn_sched_destroy(f->s);
    pthread_mutex_destroy(&c->lock);
    pthread_cond_destroy(&c->cv);
    char err[256] = "";
    f->s = trn_sched_create(&f->g->be, &(trn_sched_config){.ncores = NWORKERS}, err, sizeof(err));
    assert_non_null(f->s);
}

/* The chain op i ran in (-1: none). */
static int chain_of(const chain_ctx *c, int i) {
    for (int k = 0; k < c->nchains; k++)
        if (i >= c->first[k] && i < c->first[k] + c->len[k])
            return k;
    return -1;
}

/* Submits a gate op (gate 0, index `index`) to st and waits until it holds
 * the worker that took it: what the chain tests queue their ops behind. */
static void submit_gate_and_wait(fx *f, trn_sched_stream *st, test_op *op, int index) {
    gate_op(op, &f->r, index, f->g, 0);
    assert_int_equal(trn_sched_submit(f->s, st, &op->sop), 0);
    gate_wait_entered(f->g, 0);
}

/* Rule (sched.h, chains): the one-shard ops queued behind a stream's op go
 * to the core in chains of at most TRN_SCHED_CHAIN_MAX consecutive ops of
 * the stream, in order; a marker, an op with a deadline and an op the hook
 * refuses are in none (the next chain starts after them); each op gets its
 * own status (one failing in a chain fails alone, the ops after it run),
 * callback in stream order and times; the stats count the chains and the
 * ops behind their first. Behind a gate op, on each of 1 and 2 workers:
 * 2 TRN_SCHED_CHAIN_MAX + 40 memsets, a marker after op 20, a deadline on op
 * 30, op 40 refused, op 45 failing. */
static void test_chain(void **state) {
    fx *f = *state;
    for (int nworkers = 1; nworkers <= 2; nworkers++) {
        enum { N = 2 * TRN_SCHED_CHAIN_MAX + 40, MARK = 20, DEADLINE = 30, REFUSED = 40 };
        enum { FAILING = 45 };
        static test_op ops[N + 2];
        static unsigned char buf[N];
        memset(buf, 0, sizeof(buf));
        chain_ctx c = {.f = f, .base = buf, .refuse = &buf[REFUSED]};
        chain_restart(f, &c, nworkers);
        rec_destroy(&f->r);
        rec_init(&f->r);
        f->g->open[0] = 0;
        f->g->entered[0] = 0;
        pthread_mutex_lock(&f->g->lock);
        f->g->split_fail = &buf[FAILING];
        f->g->nomem_shard = 99; /* shard 0 fails with bad input */
        f->g->split_first = 0;
        pthread_mutex_unlock(&f->g->lock);
        trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
        submit_gate_and_wait(f, st, &ops[N], N);
        for (int i = 0; i < N; i++) {
            memset_op(&ops[i], &f->r, i, &buf[i], 1 + i);
            if (i == DEADLINE)
                ops[i].sop.deadline_ns = trn_sched_now_ns() + 3600ull * 1000000000ull;
            assert_int_equal(trn_sched_submit(f->s, st, &ops[i].sop), 0);
            if (i == MARK) {
                marker_op(&ops[N + 1], &f->r, N + 1);
                assert_int_equal(trn_sched_submit(f->s, st, &ops[N + 1].sop), 0);
            }
        }
        trn_sched_stats before;
        trn_sched_get_stats(f->s, &before);
        gate_open(f->g, 0);
        wait_count(&f->r, N + 2);
        for (int i = 0; i < N; i++) {
            assert_int_equal(f->r.done[i], 1);
            assert_int_equal(f->r.status[i], i == FAILING ? TRN_SCHED_KERNEL_FAILED : TRN_SCHED_OK);
            assert_int_equal(buf[i], i == FAILING ? 0 : 1 + i);
            if (i > 0)
                assert_true(f->r.seen_before[i] > f->r.seen_before[i - 1]);
            if (i > 0 && i != MARK + 1) /* its own times, after the op before it */
                assert_true(ops[i].sop.t_start >= ops[i - 1].sop.t_end);
            assert_true(ops[i].sop.t_end >= ops[i].sop.t_start);
        }
        assert_true(f->r.seen_before[N + 1] > f->r.seen_before[MARK]);
        assert_true(f->r.seen_before[N + 1] < f->r.seen_before[MARK + 1]);
        assert_true(c.in_order);
        int longest = 0, behind = 0;
        for (int k = 0; k < c.nchains; k++) {
            longest = c.len[k] > longest ? c.len[k] : longest;
            behind += c.len[k] - 1;
            const int first = c.first[k], last = first + c.len[k] - 1;
            assert_false(first <= MARK && last > MARK); /* the marker ends a chain */
            assert_false(first < DEADLINE && last >= DEADLINE);
            assert_false(first <= REFUSED && last >= REFUSED);
        }
        assert_int_equal(longest, TRN_SCHED_CHAIN_MAX);
        assert_int_equal(chain_of(&c, REFUSED), -1);
        assert_true(chain_of(&c, FAILING) >= 0 &&
                    chain_of(&c, FAILING) == chain_of(&c, FAILING + 1));
        trn_sched_stats after;
        trn_sched_get_stats(f->s, &after);
        assert_int_equal(after.chains - before.chains, (uint64_t)c.nchains);
        assert_int_equal(after.ops_chained - before.ops_chained, (uint64_t)behind);
        assert_int_equal(after.ops_queued, 0);
        assert_int_equal(after.ops_running, 0);
        pthread_mutex_lock(&f->g->lock);
        f->g->split_fail = NULL;
        pthread_mutex_unlock(&f->g->lock);
        trn_sched_stream_release(f->s, st);
        chain_end(f, &c);
    }
}

/* Submits n memsets to st: op i sets the `big` bytes at buf + i big to
 * 1 + i + add, with plan[i == other] when plan is not NULL (other -1: all
 * plan[0]). */
static void submit_big_memsets(fx *f, trn_sched_stream *st, test_op *ops, int n, unsigned char *buf,
                               size_t big, int add, trn_plan_entry **plan, int other) {
    for (int i = 0; i < n; i++) {
        memset_op(&ops[i], &f->r, i, buf + (size_t)i * big, 1 + i + add);
        ops[i].sop.desc.u.memset.bytes = big;
        if (plan)
            ops[i].sop.plan = plan[i == other];
        assert_int_equal(trn_sched_submit(f->s, st, &ops[i].sop), 0);
    }
}

/* Rule (trn_sched_config.chain_pairs): ops too big for the chain budget
 * are not chained; the config pairs only ops of one plan part, so ops
 * without a plan stay alone with it too. Behind a gate op, on 1 worker: 6
 * memsets of 8 MiB (about 1 ms estimated each, twice the budget). (The
 * pairs themselves, of NEFF GEMMs, are checked by integration_neuron,
 * test_next_inputs_move_during_execution: these tests have no plan
 * cache.) */
static void test_chain_pairs(void **state) {
    fx *f = *state;
    enum { N = 6 };
    const size_t big = (size_t)8 << 20;
    unsigned char *buf = calloc(N, big);
    assert_non_null(buf);
    for (int pairs = 0; pairs <= 1; pairs++) {
        static test_op ops[N + 1];
        chain_ctx c = {.f = f, .base = buf, .pairs = pairs};
        chain_restart(f, &c, 1);
        rec_destroy(&f->r);
        rec_init(&f->r);
        f->g->open[0] = 0;
        f->g->entered[0] = 0;
        trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
        submit_gate_and_wait(f, st, &ops[N], N);
        submit_big_memsets(f, st, ops, N, buf, big, 10 * pairs, NULL, -1);
        gate_open(f->g, 0);
        wait_count(&f->r, N + 1);
        for (int i = 0; i < N; i++) {
            assert_int_equal(f->r.status[i], TRN_SCHED_OK);
            assert_int_equal(buf[(size_t)i * big + big - 1], 1 + i + 10 * pairs);
        }
        assert_int_equal(c.nchains, 0);
        trn_sched_stream_release(f->s, st);
        chain_end(f, &c);
    }
    free(buf);
}

/* A plan cache over the CPU backend with two prepared plans (1D C2C FFTs
 * of 8 and 16 points), for ops that need a plan part: the scheduler only
 * checks that it is prepared and compares entries. */
static trn_plan_cache *two_plans(fx *f, trn_plan_entry *plan[2]) {
    const trn_plan_cache_config pcfg = {.max_bytes = 1 << 20, .effort = TRN_PLAN_ESTIMATE};
    trn_plan_cache *pc = trn_plan_cache_create(f->g->cpu, &pcfg);
    assert_non_null(pc);
    assert_int_equal(trn_plan_cache_start(pc), 0);
    for (int p = 0; p < 2; p++) {
        trn_plan_spec spec;
        memset(&spec, 0, sizeof(spec));
        spec.family = TRN_PLAN_FFT;
        spec.u.fft.type = TRN_FFT_C2C;
        spec.u.fft.rank = 1;
        spec.u.fft.n[0] = 8 << p;
        spec.u.fft.basic = 1;
        char err[200] = "";
        int hit;
        assert_int_equal(trn_plan_cache_acquire(pc, &spec, 0, &plan[p], &hit, err, sizeof(err)),
                         TRN_PLAN_OK);
        assert_int_equal(trn_plan_entry_wait(plan[p], 0, err, sizeof(err)), 0);
    }
    return pc;
}

static void two_plans_drop(trn_plan_cache *pc, trn_plan_entry *plan[2]) {
    for (int p = 0; p < 2; p++)
        trn_plan_entry_release(plan[p]);
    trn_plan_cache_stop(pc);
    trn_plan_cache_destroy(pc);
}

/* Rule (sched.h, together_plan): a sequence whose together plan is
 * prepared runs all its steps in one run_seq call, in order, and completes
 * as its last step would, before the op behind it; one whose plan is not
 * prepared runs its steps one by one; a together run that fails fails the
 * op at the step whose message is set. The stats count the runs that
 * succeeded. */
static void test_sequence_together(void **state) {
    fx *f = *state;
    trn_plan_entry *plan[2];
    trn_plan_cache *pc = two_plans(f, plan);
    trn_plan_spec spec; /* a plan never built: not prepared */
    memset(&spec, 0, sizeof(spec));
    spec.family = TRN_PLAN_FFT;
    spec.u.fft.type = TRN_FFT_C2C;
    spec.u.fft.rank = 1;
    spec.u.fft.n[0] = 64;
    spec.u.fft.basic = 1;
    trn_plan_entry *unbuilt = NULL;
    char err[200] = "";
    int hit;
    assert_int_equal(trn_plan_cache_acquire(pc, &spec, -1, &unbuilt, &hit, err, sizeof(err)),
                     TRN_PLAN_OK);
    trn_sched_stats st0, st1;
    trn_sched_get_stats(f->s, &st0);
    enum { N = 4 };
    static unsigned char bytes[3][N];
    static trn_op_desc descs[3][N];
    static trn_kmsg msgs[3][N];
    static trn_sched_step steps[3][N];
    trn_plan_entry *const plans[3] = {plan[0], unbuilt, plan[1]};
    static test_op seq[3], after;
    unsigned char last = 0;
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    pthread_mutex_lock(&f->g->lock);
    f->g->seq_fail = &bytes[2][2];
    pthread_mutex_unlock(&f->g->lock);
    for (int q = 0; q < 3; q++) {
        for (int i = 0; i < N; i++) {
            memset(&descs[q][i], 0, sizeof(descs[q][i]));
            descs[q][i].kind = TRN_OP_MEMSET;
            descs[q][i].u.memset.dst = &bytes[q][i];
            descs[q][i].u.memset.value = 10 * q + i + 1;
            descs[q][i].u.memset.bytes = 1;
            descs[q][i].kmsg = &msgs[q][i];
            steps[q][i] = (trn_sched_step){&descs[q][i], NULL, 0};
        }
        memset_op(&seq[q], &f->r, q, &last, 0);
        seq[q].sop.steps = steps[q];
        seq[q].sop.nsteps = N;
        seq[q].sop.together_plan = plans[q];
        assert_int_equal(trn_sched_submit(f->s, st, &seq[q].sop), 0);
        if (q == 0) {
            memset_op(&after, &f->r, 3, &last, 7); /* waits for the sequence */
            assert_int_equal(trn_sched_submit(f->s, st, &after.sop), 0);
            wait_count(&f->r, 2);
            assert_int_equal(f->r.order[0], 0);
            assert_int_equal(f->r.order[1], 3);
            assert_int_equal(last, 7);
        }
        wait_done(&f->r, q);
    }
    /* Together: one call of 4; the bytes written in order. */
    assert_int_equal(f->r.status[0], TRN_SCHED_OK);
    for (int i = 0; i < N; i++)
        assert_int_equal(bytes[0][i], i + 1);
    check_run_order(f->g, bytes[0], N, 1);
    /* Not prepared: one by one, no call. */
    assert_int_equal(f->r.status[1], TRN_SCHED_OK);
    for (int i = 0; i < N; i++)
        assert_int_equal(bytes[1][i], 10 + i + 1);
    /* Failed: at step 2, nothing written. */
    assert_int_equal(f->r.status[2], TRN_SCHED_KERNEL_FAILED);
    assert_int_equal(seq[2].sop.stage, 2);
    assert_true(msgs[2][2].set);
    for (int i = 0; i < N; i++)
        assert_int_equal(bytes[2][i], 0);
    pthread_mutex_lock(&f->g->lock);
    assert_int_equal(f->g->seq_calls, 2);
    assert_int_equal(f->g->seq_last_n, N);
    f->g->seq_fail = NULL;
    pthread_mutex_unlock(&f->g->lock);
    trn_sched_get_stats(f->s, &st1);
    assert_int_equal(st1.seqs_together - st0.seqs_together, 1); /* the one that succeeded */
    trn_sched_stream_release(f->s, st);
    expect_idle(f->s, 4);
    trn_plan_entry_release(unbuilt);
    two_plans_drop(pc, plan);
}

/* A gated stand-in (gate_run: it computes nothing) with the estimate of a
 * 16384 x 128 x 16384 SGEMM, about 1.4 s, in one shard (128 columns).
 * Gate on key. */
static void stand_in_gemm_op(test_op *t, rec *r, int index, const void *key) {
    memset(t, 0, sizeof(*t));
    trn_gemm_desc *d = &t->sop.desc.u.gemm;
    t->sop.desc.kind = TRN_OP_GEMM;
    d->type = TRN_DTYPE_R32F;
    d->transa = d->transb = TRN_TRANS_N;
    d->m = d->k = 16384;
    d->n = 128;
    d->alpha.re = 1.0;
    d->c = (void *)key;
    d->lda = d->ldb = d->ldc = 16384;
    t->sop.done = on_done;
    t->r = r;
    t->index = index;
}

/* The core whose worker started the kernel writing key (-1: none did). */
static int ran_on(gate_backend *g, const void *key) {
    pthread_mutex_lock(&g->lock);
    int core = -1;
    for (int e = 0; e < g->nev && core < 0; e++)
        if (g->ev[e].dst == key && !g->ev[e].end)
            core = g->ev[e].core;
    pthread_mutex_unlock(&g->lock);
    return core;
}

/* Rule (sched.h, trn_sched_config.locate): an op that could head a chain
 * and has a plan, taken by a worker of another core than the one locate
 * names, goes to that core's worker when waiting for it costs less than
 * moving its inputs (the time locate gives), and runs there before that
 * worker takes other work; else it runs where it was taken.
 * On 2 workers, a gate op holding one core:
 *   - with an estimate of about 1.4 s (a stand-in GEMM, one shard): an op
 *     whose inputs are there, 137 s to move elsewhere, waits for it while
 *     the other core is idle, and runs on it once the gate opens; with 1 ns
 *     to move it runs at once on the idle core;
 *   - with an estimate of 2 us (a 1-byte memset), past when the op comes:
 *     a core that runs past its estimate is not waited for, 137 s or not;
 *   - with the stand-in GEMM again and 2 s to move: the plan's ops waited
 *     1.4 s already, and waiting again would pass 2 s, so it runs at once
 *     on the idle core (a move leaves a second copy, a wait nothing); the
 *     same again waits (the count started again after the move);
 * then, both cores idle, ops whose inputs are on core 1, 0, 1, 0 run on
 * those cores, whichever worker was woken for them. The stats count the
 * ops handed over. */
static void test_place_by_location(void **state) {
    fx *f = *state;
    gate_backend *g = f->g;
    trn_plan_entry *plan[2];
    trn_plan_cache *pc = two_plans(f, plan);
    static unsigned char x[8], gatekey;
    chain_ctx c = {.f = f, .base = x, .locate = 1};
    chain_restart(f, &c, 2);
    trn_sched_stream *s0 = trn_sched_stream_create(f->s, NULL);
    trn_sched_stream *s1 = trn_sched_stream_create(f->s, NULL);
    static test_op ops[14];
    int nops = 0;
    /* variant 0: worth waiting for; 1: cheap to move; 2: the core overran;
     * 3: worth waiting for, but the plan's ops waited about 1.4 s already;
     * 4: as 3, after 3 moved (the count started again) */
    for (int variant = 0; variant <= 4; variant++) {
        const int cheap = variant > 0 && variant < 4;
        rec_destroy(&f->r);
        rec_init(&f->r);
        pthread_mutex_lock(&g->lock);
        g->gate[0] = &gatekey;
        g->open[0] = 0;
        g->entered[0] = 0;
        pthread_mutex_unlock(&g->lock);
        test_op *gate = &ops[nops++], *xop = &ops[nops++];
        if (variant == 2)
            memset_op(gate, &f->r, 1, &gatekey, 1);
        else
            stand_in_gemm_op(gate, &f->r, 1, &gatekey);
        assert_int_equal(trn_sched_submit(f->s, s0, &gate->sop), 0);
        gate_wait_entered(g, 0);
        pthread_mutex_lock(&g->lock);
        const int busy = g->entered_core[0];
        pthread_mutex_unlock(&g->lock);
        c.home = busy;
        c.extra_ns = variant == 1   ? 1
                     : variant >= 3 ? (uint64_t)2 * 1000000000u
                                    : (uint64_t)137 * 1000000000u;
        if (variant == 2) { /* past its 2 us */
            struct timespec nap = {0, 1000 * 1000};
            nanosleep(&nap, NULL);
        }
        trn_sched_stats before;
        trn_sched_get_stats(f->s, &before);
        memset_op(xop, &f->r, 0, &x[variant], 1 + variant);
        xop->sop.plan = plan[0]; /* the one plan: its waits add up */
        assert_int_equal(trn_sched_submit(f->s, s1, &xop->sop), 0);
        if (cheap) {
            wait_count(&f->r, 1); /* the gate is still closed */
            assert_int_equal(f->r.done[0], 1);
            assert_int_equal(ran_on(g, &x[variant]), 1 - busy);
        } else {
            struct timespec nap = {0, 100 * 1000 * 1000};
            nanosleep(&nap, NULL);
            assert_int_equal(f->r.done[0], 0); /* it waits for the busy core */
        }
        gate_open(g, 0);
        wait_count(&f->r, 2);
        assert_int_equal(x[variant], 1 + variant);
        assert_int_equal(ran_on(g, &x[variant]), cheap ? 1 - busy : busy);
        trn_sched_stats after;
        trn_sched_get_stats(f->s, &after);
        assert_int_equal(after.ops_placed_by_location - before.ops_placed_by_location,
                         (uint64_t)!cheap);
    }
    pthread_mutex_lock(&g->lock);
    g->gate[0] = &g->mem[0];
    pthread_mutex_unlock(&g->lock);
    /* Both idle: each op runs on its inputs' core. */
    static unsigned char y[4];
    c.extra_ns = (uint64_t)134 * 1000000u; /* any time: the home core is idle */
    for (int i = 0; i < 4; i++) {
        rec_destroy(&f->r);
        rec_init(&f->r);
        c.home = 1 - i % 2;
        test_op *op = &ops[nops++];
        memset_op(op, &f->r, 0, &y[i], 1 + i);
        op->sop.plan = plan[0];
        assert_int_equal(trn_sched_submit(f->s, i % 2 ? s0 : s1, &op->sop), 0);
        wait_count(&f->r, 1);
        assert_int_equal(y[i], 1 + i);
        assert_int_equal(ran_on(g, &y[i]), c.home);
    }
    trn_sched_stream_release(f->s, s0);
    trn_sched_stream_release(f->s, s1);
    chain_end(f, &c);
    two_plans_drop(pc, plan);
}

/* The chains, peeks and ops chained counted since `before`, and nothing
 * left queued or running. */
static void check_chain_stats(fx *f, const trn_sched_stats *before, uint64_t chains, uint64_t peeks,
                              uint64_t chained) {
    trn_sched_stats after;
    trn_sched_get_stats(f->s, &after);
    assert_int_equal(after.chains - before->chains, chains);
    assert_int_equal(after.chain_peeks - before->chain_peeks, peeks);
    assert_int_equal(after.ops_chained - before->ops_chained, chained);
    assert_int_equal(after.ops_queued, 0);
    assert_int_equal(after.ops_running, 0);
}

/* Rule (sched.h, trn_sched_config.chain_pairs and chain_peek): a chain's
 * first op takes the op behind it past the budget when both run the same
 * plan part; with chain_peek, a chain whose next op runs its last op's plan
 * part ends with that op as a peek, handed to the hook unrun (ran 0, the
 * last op only), which then runs in its turn, once, heading the next
 * chain; an op of another plan is neither paired nor peeked. Behind a gate
 * op, on 1 worker, with pairs, peeks off then on: 6 memsets of 8 MiB
 * (about 1 ms estimated each, twice the budget), all of one prepared FFT
 * plan part but op 4 (another plan). The chains are [0 1] (+ peek 2) and
 * [2 3]; ops 4 and 5 run alone. The stats count the peek and, in
 * ops_chained, only the ops that ran behind a chain's first. */
static void test_chain_peek(void **state) {
    fx *f = *state;
    enum { N = 6, OTHER = 4 };
    const size_t big = (size_t)8 << 20;
    unsigned char *buf = calloc(N, big);
    assert_non_null(buf);
    trn_plan_entry *plan[2];
    trn_plan_cache *pc = two_plans(f, plan);
    for (int peeks = 0; peeks <= 1; peeks++) {
        static test_op ops[N + 1];
        chain_ctx c = {.f = f, .base = buf, .stride = big, .pairs = 1, .peeks = peeks};
        chain_restart(f, &c, 1);
        rec_destroy(&f->r);
        rec_init(&f->r);
        f->g->open[0] = 0;
        f->g->entered[0] = 0;
        trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
        submit_gate_and_wait(f, st, &ops[N], N);
        submit_big_memsets(f, st, ops, N, buf, big, 10 * peeks, plan, OTHER);
        trn_sched_stats before;
        trn_sched_get_stats(f->s, &before);
        gate_open(f->g, 0);
        wait_count(&f->r, N + 1);
        for (int i = 0; i < N; i++) {
            assert_int_equal(f->r.done[i], 1);
            assert_int_equal(f->r.status[i], TRN_SCHED_OK);
            assert_int_equal(buf[(size_t)i * big + big - 1], 1 + i + 10 * peeks);
            if (i > 0)
                assert_true(f->r.seen_before[i] > f->r.seen_before[i - 1]);
        }
        assert_false(c.peek_misplaced);
        assert_true(c.in_order);
        assert_int_equal(c.nchains, 2);
        assert_int_equal(c.first[0], 0);
        assert_int_equal(c.len[0], 2);
        assert_int_equal(c.peek_of[0], peeks ? 2 : -1);
        assert_int_equal(c.first[1], 2);
        assert_int_equal(c.len[1], 2);
        assert_int_equal(c.peek_of[1], -1); /* op 4 runs another plan */
        check_chain_stats(f, &before, 2, (uint64_t)peeks, 2);
        trn_sched_stream_release(f->s, st);
        chain_end(f, &c);
    }
    two_plans_drop(pc, plan);
    free(buf);
}

/* Rule (sched.h, trn_sched_config.chain_peek): a cancel of the stream while
 * a chain with a peek runs completes the peeked op CANCELLED, unrun, after
 * the chain, and the ops behind it CANCELLED at once; the chain's own ops
 * finish OK. The stats balance. Behind a gate op, on 1 worker: 6 memsets
 * of 8 MiB of one plan part; the first chain is [0 1] + peek 2, held in
 * the hook while the stream is cancelled. */
static void test_chain_peek_cancel(void **state) {
    fx *f = *state;
    enum { N = 6 };
    const size_t big = (size_t)8 << 20;
    unsigned char *buf = calloc(N, big);
    assert_non_null(buf);
    trn_plan_entry *plan[2];
    trn_plan_cache *pc = two_plans(f, plan);
    static test_op ops[N + 1];
    chain_ctx c = {.f = f, .base = buf, .stride = big, .pairs = 1, .peeks = 1, .hold = 1};
    chain_restart(f, &c, 1);
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    submit_gate_and_wait(f, st, &ops[N], N);
    submit_big_memsets(f, st, ops, N, buf, big, 0, plan, -1);
    trn_sched_stats before;
    trn_sched_get_stats(f->s, &before);
    gate_open(f->g, 0);
    chain_wait_held(&c);
    trn_sched_stream_cancel(f->s, st);
    wait_count(&f->r, 1 + 3); /* the gate op, and ops 3-5 at once */
    assert_int_equal(f->r.done[2], 0);
    chain_release(&c);
    wait_count(&f->r, N + 1);
    for (int i = 0; i < N; i++) {
        assert_int_equal(f->r.done[i], 1);
        assert_int_equal(f->r.status[i], i < 2 ? TRN_SCHED_OK : TRN_SCHED_CANCELLED);
        assert_int_equal(buf[(size_t)i * big + big - 1], i < 2 ? 1 + i : 0);
    }
    assert_int_equal(c.nchains, 1);
    assert_int_equal(c.peek_of[0], 2);
    check_chain_stats(f, &before, 1, 1, 1);
    trn_sched_stream_release(f->s, st);
    chain_end(f, &c);
    two_plans_drop(pc, plan);
    free(buf);
}

/* Rule (sched.h, trn_sched_chain_op.ran): ops of a chain handed back
 * unrun (a core whose executor could not be started) go back to their
 * stream's queue and run later, in order, once each, with OK; the stats
 * balance and count only the chained ops that ran. Behind a gate op on 2
 * workers: 30 memsets; the first chain runs its first 3 ops only. */
static void test_chain_hand_back(void **state) {
    fx *f = *state;
    enum { N = 30 };
    static test_op ops[N + 1];
    static unsigned char buf[N];
    memset(buf, 0, sizeof(buf));
    chain_ctx c = {.f = f, .base = buf, .hand_back = 3};
    chain_restart(f, &c, 2);
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    submit_gate_and_wait(f, st, &ops[N], N);
    submit_big_memsets(f, st, ops, N, buf, 1, 0, NULL, -1);
    trn_sched_stats before;
    trn_sched_get_stats(f->s, &before);
    gate_open(f->g, 0);
    wait_count(&f->r, N + 1);
    check_run_order(f->g, buf, N, 1);
    for (int i = 0; i < N; i++) {
        assert_int_equal(f->r.done[i], 1);
        assert_int_equal(f->r.status[i], TRN_SCHED_OK);
        assert_int_equal(buf[i], 1 + i);
        if (i > 0)
            assert_true(f->r.seen_before[i] > f->r.seen_before[i - 1]);
    }
    assert_true(c.nchains >= 2);
    assert_int_equal(c.first[0], 0);
    assert_int_equal(c.first[1], 3); /* the handed-back ops, chained again */
    int ran_behind = 2;              /* the first chain's ops 1 and 2 */
    for (int k = 1; k < c.nchains; k++)
        ran_behind += c.len[k] - 1;
    trn_sched_stats after;
    trn_sched_get_stats(f->s, &after);
    assert_int_equal(after.ops_chained - before.ops_chained, (uint64_t)ran_behind);
    assert_int_equal(after.ops_queued, 0);
    assert_int_equal(after.ops_running, 0);
    assert_int_equal(after.ops_completed - before.ops_completed, (uint64_t)N + 1);
    trn_sched_stream_release(f->s, st);
    chain_end(f, &c);
}

/* Rule (sched.h, run_core_chain): a cancel of the stream while a chain is
 * claimed lets the chain's ops finish, but those it hands back unrun
 * complete CANCELLED, unrun, as a peek does, instead of running later.
 * Behind a gate op on 1 worker: 6 memsets in one chain, held in the hook
 * while the stream is cancelled, which then runs only its first op. */
static void test_chain_hand_back_cancel(void **state) {
    fx *f = *state;
    enum { N = 6 };
    static test_op ops[N + 1];
    static unsigned char buf[N];
    memset(buf, 0, sizeof(buf));
    chain_ctx c = {.f = f, .base = buf, .hand_back = 1, .hold = 1};
    chain_restart(f, &c, 1);
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    submit_gate_and_wait(f, st, &ops[N], N);
    submit_big_memsets(f, st, ops, N, buf, 1, 0, NULL, -1);
    trn_sched_stats before;
    trn_sched_get_stats(f->s, &before);
    gate_open(f->g, 0);
    chain_wait_held(&c);
    trn_sched_stream_cancel(f->s, st);
    chain_release(&c);
    wait_count(&f->r, N + 1);
    for (int i = 0; i < N; i++) {
        assert_int_equal(f->r.done[i], 1);
        assert_int_equal(f->r.status[i], i == 0 ? TRN_SCHED_OK : TRN_SCHED_CANCELLED);
        assert_int_equal(buf[i], i == 0 ? 1 : 0);
    }
    assert_int_equal(c.nchains, 1);
    assert_int_equal(c.len[0], N);
    check_chain_stats(f, &before, 1, 0, 0);
    trn_sched_stream_release(f->s, st);
    chain_end(f, &c);
}

static void *chain_shutdown_thread(void *arg) {
    trn_sched_shutdown(arg);
    return NULL;
}

/* Rule: the ops of a chain have started: a cancel of their stream while the
 * chain runs lets every one of them finish OK, in order, and cancels only
 * what is behind the chain; a shutdown waits for them. Behind a gate op:
 * A, B (a gate op: the chain waits in it), C, D, a marker, E. */
static void test_chain_cancel(void **state) {
    fx *f = *state;
    static unsigned char buf[8];
    memset(buf, 0, sizeof(buf));
    chain_ctx c = {.f = f, .base = buf};
    chain_restart(f, &c, 1);
    f->g->gate[1] = &buf[1];
    static test_op o[7];
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    submit_gate_and_wait(f, st, &o[6], 6);
    for (int i = 0; i < 4; i++) {
        memset_op(&o[i], &f->r, i, &buf[i], 1 + i);
        assert_int_equal(trn_sched_submit(f->s, st, &o[i].sop), 0);
    }
    marker_op(&o[4], &f->r, 4);
    memset_op(&o[5], &f->r, 5, &buf[5], 6);
    assert_int_equal(trn_sched_submit(f->s, st, &o[4].sop), 0);
    assert_int_equal(trn_sched_submit(f->s, st, &o[5].sop), 0);
    gate_open(f->g, 0);
    gate_wait_entered(f->g, 1); /* the chain A..D runs, held in B */
    assert_int_equal(c.nchains, 1);
    assert_int_equal(c.len[0], 4);
    trn_sched_stream_cancel(f->s, st);
    wait_done(&f->r, 5);
    assert_int_equal(f->r.status[4], TRN_SCHED_CANCELLED);
    assert_int_equal(f->r.status[5], TRN_SCHED_CANCELLED);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, chain_shutdown_thread, f->s), 0);
    settle(); /* shutdown waits for the chain */
    for (int i = 1; i < 4; i++)
        assert_false(is_done(&f->r, i));
    gate_open(f->g, 1);
    assert_int_equal(pthread_join(th, NULL), 0);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(f->r.done[i], 1);
        assert_int_equal(f->r.status[i], TRN_SCHED_OK);
        assert_int_equal(buf[i], 1 + i); /* B's memset runs once its gate opens */
    }
    for (int i = 1; i < 4; i++)
        assert_true(f->r.seen_before[i] > f->r.seen_before[i - 1]);
    assert_int_equal(buf[5], 0);
    trn_sched_stream_release(f->s, st);
    f->g->gate[1] = &f->g->mem[1];
    chain_end(f, &c);
}

/* run_core hook recording, per op, what trn_sched_running_followed said. */
typedef struct follow_ctx {
    fx *f;
    const void *key[2];
    _Atomic int said[2]; /* -1 until the op ran */
} follow_ctx;

static trn_kstatus follow_run_core(void *ctx, int core, const trn_op_desc *op,
                                   const struct trn_plan_entry *plan, unsigned part, int shard,
                                   int nshards, uint64_t est_ns, uint64_t patience_ns,
                                   int *pending) {
    (void)core, (void)plan, (void)part, (void)est_ns, (void)patience_ns, (void)pending;
    follow_ctx *fc = ctx;
    for (int i = 0; i < 2; i++)
        if (op_key(op) == fc->key[i])
            atomic_store(&fc->said[i], trn_sched_running_followed());
    return fc->f->g->be.run(&fc->f->g->be, op, NULL, shard, nshards);
}

/* Rule (sched.h, trn_sched_running_followed): a worker's shard is
 * "followed" when its stream's next op is a kernel op (or other shards are
 * ready for its engine), not when only a marker (a synchronize) is behind
 * it; off a worker's shard it is 0. Behind a gate op: A, B, a marker. */
static void test_running_followed(void **state) {
    fx *f = *state;
    trn_sched_shutdown(f->s);
    trn_sched_destroy(f->s);
    static unsigned char xa, xb;
    xa = xb = 0;
    follow_ctx fc = {.f = f, .key = {&xa, &xb}};
    atomic_init(&fc.said[0], -1);
    atomic_init(&fc.said[1], -1);
    char err[256] = "";
    const trn_sched_config sc = {.ncores = NWORKERS, .run_core = follow_run_core, .run_ctx = &fc};
    f->s = trn_sched_create(&f->g->be, &sc, err, sizeof(err));
    if (!f->s)
        fail_msg("trn_sched_create: %s", err);
    test_op gate, a, b, mark;
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    gate_op(&gate, &f->r, 0, f->g, 0);
    memset_op(&a, &f->r, 1, &xa, 1);
    memset_op(&b, &f->r, 2, &xb, 2);
    marker_op(&mark, &f->r, 3);
    assert_int_equal(trn_sched_submit(f->s, st, &gate.sop), 0);
    gate_wait_entered(f->g, 0);
    assert_int_equal(trn_sched_submit(f->s, st, &a.sop), 0);
    assert_int_equal(trn_sched_submit(f->s, st, &b.sop), 0);
    assert_int_equal(trn_sched_submit(f->s, st, &mark.sop), 0);
    assert_int_equal(trn_sched_running_followed(), 0); /* not a worker */
    gate_open(f->g, 0);
    wait_count(&f->r, 4);
    assert_int_equal(xa, 1);
    assert_int_equal(xb, 2);
    assert_int_equal(atomic_load(&fc.said[0]), 1); /* B behind A */
    assert_int_equal(atomic_load(&fc.said[1]), 0); /* only the marker behind B */
    trn_sched_stream_release(f->s, st);
    trn_sched_shutdown(f->s);
    trn_sched_destroy(f->s);
    f->s = trn_sched_create(&f->g->be, &(trn_sched_config){.ncores = NWORKERS}, err, sizeof(err));
    assert_non_null(f->s); /* for teardown */
}

/* ---- estimates (sched.h, "Estimates") ---- */

/* A backend's kernel programs, as the plan cache sees them: made and
 * prepared at once, nothing in them. */
static void *program_create(const trn_backend *be, const trn_plan_spec *spec, trn_kstatus *why,
                            char *err, size_t errlen) {
    (void)be, (void)spec, (void)why, (void)err, (void)errlen;
    return malloc(1);
}

static trn_kstatus program_build(const trn_backend *be, void *plan, unsigned part, char *err,
                                 size_t errlen) {
    (void)be, (void)plan, (void)part, (void)err, (void)errlen;
    return TRN_KSTATUS_OK;
}

static uint64_t program_bytes(const trn_backend *be, const void *plan) {
    (void)be, (void)plan;
    return 1;
}

static void program_release(const trn_backend *be, void *plan) {
    (void)be;
    free(plan);
}

/* The backend's estimate before any run: a second, as for a big GEMM. */
static double program_nominal(const trn_backend *be, const trn_op_desc *op, int nshards) {
    (void)be, (void)op, (void)nshards;
    return 1e9;
}

/* Rule (sched.h, "Estimates"): an op run by a kernel program is estimated
 * by its backend until the program has run, then from the program's run
 * times, also for ops queued before those runs (estimated again when
 * taken); the chain budget bounds chains by that estimate. Behind a gate
 * op, on 1 worker with chain pairs: 8 one-byte memsets of one program
 * plan, whose backend says 1 s each. The first two go as a pair (1 s is
 * past the budget); once they ran (a few us each, noted from the chain's
 * times), the other six go in one chain. The plan's run time is what they
 * measured, not the backend's second. */
static void test_program_estimates(void **state) {
    fx *f = *state;
    enum { N = 8 };
    trn_backend programs = {.name = "programs",
                            .version = "1",
                            .plan_create = program_create,
                            .plan_build = program_build,
                            .plan_bytes = program_bytes,
                            .plan_release = program_release};
    const trn_plan_cache_config pcfg = {.max_bytes = 1 << 20, .effort = TRN_PLAN_ESTIMATE};
    trn_plan_cache *pc = trn_plan_cache_create(&programs, &pcfg);
    assert_non_null(pc);
    assert_int_equal(trn_plan_cache_start(pc), 0);
    trn_plan_spec spec;
    memset(&spec, 0, sizeof(spec));
    spec.family = TRN_PLAN_PROGRAM;
    snprintf(spec.u.program.kernel, sizeof(spec.u.program.kernel), "gemm");
    snprintf(spec.u.program.params, sizeof(spec.u.program.params), "m=1");
    trn_plan_entry *plan[2];
    int hit;
    char err[200] = "";
    assert_int_equal(trn_plan_cache_acquire(pc, &spec, 0, &plan[0], &hit, err, sizeof(err)),
                     TRN_PLAN_OK);
    assert_int_equal(trn_plan_entry_wait(plan[0], 0, err, sizeof(err)), 0);
    plan[1] = plan[0];
    f->g->be.program_estimate_ns = program_nominal; /* before the scheduler starts */
    static unsigned char buf[N];
    static test_op ops[N + 1];
    chain_ctx c = {.f = f, .base = buf, .pairs = 1};
    chain_restart(f, &c, 1);
    rec_destroy(&f->r);
    rec_init(&f->r);
    f->g->open[0] = 0;
    f->g->entered[0] = 0;
    trn_sched_stream *st = trn_sched_stream_create(f->s, NULL);
    submit_gate_and_wait(f, st, &ops[N], N);
    submit_big_memsets(f, st, ops, N, buf, 1, 0, plan, -1);
    gate_open(f->g, 0);
    wait_count(&f->r, N + 1);
    for (int i = 0; i < N; i++)
        assert_int_equal(buf[i], 1 + i);
    assert_true(c.in_order);
    assert_int_equal(c.nchains, 2);
    assert_int_equal(c.len[0], 2);
    assert_int_equal(c.len[1], N - 2);
    trn_sched_stream_release(f->s, st);
    chain_end(f, &c);
    const uint64_t ran = trn_plan_entry_run_ns(plan[0]);
    assert_true(ran > 0 && ran < TRN_SCHED_CHAIN_BUDGET_NS / (N - 2));
    f->g->be.program_estimate_ns = NULL;
    trn_plan_entry_release(plan[0]);
    trn_plan_cache_stop(pc);
    trn_plan_cache_destroy(pc);
}

/* Rule (sched.h, core_in_service; sched.c, waking workers): a core out of
 * service takes no more work, the other workers take its share, and work is
 * never left waiting for a wake-up that went to the worker of a core out of
 * service: its sleeping worker is not woken for work at all. With core 0 out
 * of service from the start of the test, one-shard ops on two streams (some
 * deferred and kicked), and a two-shard op (its split unchanged), all run,
 * on core 1 only. */
static _Atomic int core_out[NWORKERS];

static int test_core_in_service(void *ctx, int core) {
    (void)ctx;
    return !core_out[core];
}

static void test_core_out_of_service(void **state) {
    fx *f = *state;
    trn_sched_shutdown(f->s);
    trn_sched_destroy(f->s);
    core_out[0] = 0;
    core_out[1] = 0;
    char err[256] = "";
    const trn_sched_config sc = {
        .ncores = NWORKERS, .core_in_service = test_core_in_service, .run_ctx = NULL};
    f->s = trn_sched_create(&f->g->be, &sc, err, sizeof(err));
    if (!f->s)
        fail_msg("trn_sched_create: %s", err);
    settle(); /* both workers asleep */
    core_out[0] = 1;

    enum { N = 200 };
    static test_op ops[N + 1];
    static unsigned char buf[N];
    static unsigned char big[2 * TRN_SHARD_MEM_MIN_BYTES];
    memset(buf, 0, sizeof(buf));
    trn_sched_stream *a = trn_sched_stream_create(f->s, NULL),
                     *b = trn_sched_stream_create(f->s, NULL);
    for (int i = 0; i < N; i++) {
        memset_op(&ops[i], &f->r, i, &buf[i], 1 + i % 250);
        ops[i].sop.defer_wake = i % 3 == 0;
        assert_int_equal(trn_sched_submit(f->s, i % 2 ? a : b, &ops[i].sop), 0);
        if (i % 7 == 0)
            trn_sched_kick(f->s);
    }
    trn_sched_kick(f->s);
    big_memset_op(&ops[N], &f->r, N, big, sizeof(big), 5);
    assert_int_equal(trn_sched_submit(f->s, a, &ops[N].sop), 0);
    wait_count(&f->r, N + 1);
    for (int i = 0; i < N; i++) {
        assert_int_equal(f->r.status[i], TRN_SCHED_OK);
        assert_int_equal(buf[i], 1 + i % 250);
    }
    assert_int_equal(f->r.status[N], TRN_SCHED_OK);
    assert_true(all_bytes(big, sizeof(big), 5));
    int logged = 0;
    for (int e = 0; e < f->g->nev; e++) {
        const unsigned char *d = f->g->ev[e].dst;
        if ((d >= buf && d < buf + N) || d == big) {
            assert_int_equal(f->g->ev[e].core, 1);
            logged++;
        }
        if (d == big)
            assert_int_equal(f->g->ev[e].nshards, 2);
    }
    assert_int_equal(logged, 2 * (N + 2)); /* a start and an end per shard */
    trn_sched_stream_release(f->s, a);
    trn_sched_stream_release(f->s, b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_stream_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deferred_wake, setup, teardown),
        cmocka_unit_test_setup_teardown(test_one_shard_ops_wake_one_worker, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_streams_each_in_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_marker, setup, teardown),
        cmocka_unit_test_setup_teardown(test_running_followed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cancel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shutdown, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unsupported, setup, teardown),
        cmocka_unit_test_setup_teardown(test_submit_from_callback, setup, teardown),
        cmocka_unit_test_setup_teardown(test_callbacks_in_stream_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shutdown_marker_behind_unstarted_op, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cancel_op_waiting_for_worker, setup, teardown),
        cmocka_unit_test(test_shard_policy),
        cmocka_unit_test_setup_teardown(test_big_ops_split_small_not, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shards_concurrent_stream_ordered, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shard_count_ignores_load, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cancel_partly_dispatched_op, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shutdown_partly_dispatched_op, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mixed_failures, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sequence_in_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sequence_cancel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sequence_together, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sequence_loop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sequence_loop_cancel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kick_run, setup, teardown),
        cmocka_unit_test_setup_teardown(test_chain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_chain_cancel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_chain_hand_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_chain_hand_back_cancel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_chain_pairs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_chain_peek, setup, teardown),
        cmocka_unit_test_setup_teardown(test_chain_peek_cancel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_place_by_location, setup, teardown),
        cmocka_unit_test_setup_teardown(test_program_estimates, setup, teardown),
        cmocka_unit_test_setup_teardown(test_core_out_of_service, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
