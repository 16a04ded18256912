/*
 * sched.h — the scheduler: engines of pinned workers, tenants sharing them
 * fairly, streams of ops, fences, deadlines.
 *
 * Engines: a backend runs each op on one of its engines (kernels/backend.h):
 * the compute cores, or the copy engine for data movement. Each engine has
 * its own workers, so a copy on one stream overlaps a GEMM on another the way
 * CUDA copy engines overlap kernels. An op is a short list of stages (up to
 * TRN_SCHED_MAX_STAGES), each a descriptor run on its own engine, one after
 * the other (e.g. a format conversion on the copy engine, then the kernel on
 * the cores); the op stays its stream's active op from its first stage to its
 * last, while other ops' stages use the other engines.
 *
 * Ordering: ops on one stream run one after another in submission order (all
 * shards of an op finish before the next op starts, whatever engine either
 * runs on); different streams are independent. An op is split into shards
 * that run on any workers of its engine; its completion callback runs once,
 * after its last shard, and before anything queued behind it on its stream
 * starts or completes (markers included) — but for ops started ahead of
 * their turn (run-ahead, chains: below), which may start before it and
 * still complete after it.
 *
 * Markers are ops with no kernel: a marker completes when every op queued
 * before it on its stream has completed. Synchronize is built from them. A
 * marker may also signal a fence when it completes (an event record), or
 * hold its stream until a fence is signalled (a stream waiting on an event).
 *
 * Fairness: every stream belongs to a tenant (a client session). Each engine
 * serves its tenants by start-time fair queuing: the next shard comes from the
 * backlogged tenant with the least virtual time, and running a shard advances
 * its tenant's virtual time by the shard's core time divided by the tenant's
 * weight (estimated from trn_op_cost at dispatch, corrected with the measured
 * time when it ends). A tenant that was idle rejoins at the engine's current
 * virtual time, so idling earns no credit. Within a tenant, ready ops are
 * served in the order they became ready.
 *
 * Deadlines: an op may carry a deadline; if it has not started by then it
 * completes with TRN_SCHED_EXPIRED and everything queued behind it on its
 * stream with TRN_SCHED_CANCELLED (later ops may depend on it). A started op
 * always finishes. A timer thread fires deadlines on time and runs the
 * caller's timers (trn_sched_timer_*).
 *
 * Callbacks run on a worker or timer thread, or on the thread that called
 * submit/cancel, never with a scheduler lock held; they may call back into
 * the scheduler.
 *
 * Sharding: an op big enough to gain from several workers is split into
 * shards (trn_sched_shard_count below) that idle workers take one by one, so
 * they run concurrently. The split depends only on the op and the configured
 * worker count of its engine, never on load, so the result of an op is
 * bitwise the same whatever else the daemon is doing. An op counts as started
 * (and will finish, all its stages) once any shard of its first stage has
 * been taken by a worker.
 *
 * Estimates: every shard carries an estimate of its core time, which
 * fairness charges at dispatch, chains are bounded by, and placement by
 * location weighs. A shard of a compiled kernel program (a plan of family
 * TRN_PLAN_PROGRAM: one shape) is estimated from the program's last runs
 * (trn_plan_entry_run_ns), before them by the backend
 * (program_estimate_ns); every other shard from its cost (trn_op_cost) at
 * host rates. A run is timed from after any wait for its plan, and only
 * successful runs are noted. run_core is given an estimate never below the
 * host-rate one (an executor's watchdog multiplies it).
 */
#ifndef TRN_SCHEDULER_SCHED_H
#define TRN_SCHEDULER_SCHED_H

#include <stdint.h>

#include "kernels/backend.h"
#include "ops/shard.h"
#include "ops/span.h"

typedef struct trn_sched trn_sched;
typedef struct trn_sched_stream trn_sched_stream;
typedef struct trn_sched_tenant trn_sched_tenant;
typedef struct trn_sched_fence trn_sched_fence;
typedef struct trn_sched_op trn_sched_op;
typedef struct trn_sched_timer trn_sched_timer;

typedef enum trn_sched_status {
    TRN_SCHED_OK = 0,
    TRN_SCHED_KERNEL_FAILED, /* the backend reported failure */
    TRN_SCHED_UNSUPPORTED,   /* the backend has no kernel for the op */
    TRN_SCHED_CANCELLED,     /* removed before it ran (stream cancelled, or an op before it
                                on its stream expired) */
    TRN_SCHED_SHUTDOWN,      /* removed before it ran (scheduler shutting down) */
    TRN_SCHED_EXPIRED,       /* its deadline passed before it started */
    TRN_SCHED_NO_MEMORY,     /* a kernel could not allocate its workspace */
} trn_sched_status;

typedef void (*trn_sched_done_fn)(trn_sched_op *op, trn_sched_status status);

/* The op whose shard the calling thread is running (its worker sets it
 * around each shard), with that shard's index and the op's shard count;
 * NULL on any other thread or between shards. For the daemon's report of a
 * fatal signal: it names the op a crashing kernel was running. */
const trn_sched_op *trn_sched_running_op(int *shard, int *nshards);
/* Whether, when the calling thread took the shard it runs, more work was
 * waiting for it: the next op of the same stream, or other ready shards of
 * its engine. A hint for the core's executor, which then keeps looking for
 * the next request after it answers (daemon/executor_slot.h); 0 on any
 * other thread. */
int trn_sched_running_followed(void);

/* Timer list links (private to the scheduler). */
typedef struct trn_sched_timer_link {
    trn_sched_timer *prev, *next;
} trn_sched_timer_link;

/* A one-shot timer; the caller owns the memory (embed it). */
struct trn_sched_timer {
    uint64_t when_ns; /* trn_sched_now_ns() clock */
    void (*fire)(trn_sched_timer *t);
    /* Private. */
    trn_sched_timer_link link;
    int armed;
    trn_sched_op *op; /* an op's own deadline */
};

#define TRN_SCHED_MAX_STAGES 4
/* Memory spans an op declares for run-ahead (trn_sched_op.ahead_reads,
 * writes). */
#define TRN_SCHED_MAX_SPANS 4

/* One step of a sequence op (trn_sched_op.steps): a descriptor whose kmsg
 * points at the step's own message (initialised when the step starts), and
 * the plan part it waits for (plan NULL: none). */
typedef struct trn_sched_step {
    const trn_op_desc *desc;
    struct trn_plan_entry *plan;
    unsigned plan_part;
} trn_sched_step;

/* When one stage of an op ran (trn_sched_now_ns clock; 0 when it did not):
 * ready on its engine, first shard started, last shard ended. */
typedef struct trn_sched_stage_times {
    uint64_t t_ready, t_start, t_end;
    int engine; /* trn_engine it ran on */
} trn_sched_stage_times;

struct trn_sched_op {
    /* Set by the submitter. */
    trn_op_desc desc; /* the first (usually the only) stage */
    /* Stages after desc, run in order (nthen < TRN_SCHED_MAX_STAGES). */
    trn_op_desc then[TRN_SCHED_MAX_STAGES - 1];
    int nthen;
    /* A sequence (a graph's run of nodes on one stream): when steps is set
     * the op's stages are steps[0 .. nsteps) instead of desc and then[], so
     * a worker goes from one node to the next without a completion or a
     * wake-up in between. A failed step ends the op (later steps do not
     * run: op->stage says which failed); a cancel of its stream ends it
     * before its next step (TRN_SCHED_CANCELLED). The submitter keeps the
     * steps and their descriptors alive until the op completes. Stage
     * times are kept for the first TRN_SCHED_MAX_STAGES steps. */
    const trn_sched_step *steps;
    int nsteps;
    /* A sequence that loops: when loop_last > 0, finishing step loop_last
     * goes back to step loop_first (1 <= loop_first <= loop_last < nsteps)
     * instead of on, round after round, until a step's kernel returns
     * TRN_KSTATUS_SEQ_DONE (which, in or out of the loop, ends the sequence
     * successfully: later steps do not run), a step fails, or the stream is
     * cancelled (the op then ends before its next step, CANCELLED). Step 0
     * is never repeated: it is what counts as the op's start. The kernels
     * must bring the loop to an end (an iteration limit of their own). */
    int loop_first, loop_last;
    /* A sequence whose steps may run together, as one kernel program (a
     * graph segment's GEMMs as one NEFF: kernels/backend.h, op_seq_plan):
     * that program's plan, or NULL. When a core's worker takes the op's
     * first step and part 0 of this plan is prepared, it runs every step
     * at once (run_core_together, else the backend's run_seq) and the op
     * completes as its last step would; a failure fails the op at the
     * first step whose message is set (else step 0); a cancel of its
     * stream meanwhile does not stop it. Otherwise (the plan still
     * compiling or failed, a backend without run_seq) the steps run one by
     * one, and a build of the plan that ran out of memory is queued again.
     * Not with a loop. The submitter holds a reference until
     * the op completes. */
    struct trn_plan_entry *together_plan;
    /* The first stage gives the same result on any engine (a format
     * conversion, ops/convert_stage.h): it runs on the cores instead of its
     * own engine when, as it starts, the cores have no shard running or
     * waiting. */
    int first_stage_anywhere;
    /* Run-ahead: the first stage of an op with first_stage_ahead set, which
     * reads only ahead_reads[0 .. nahead_reads), may start before the op
     * reaches its stream's head, while the op just in front of it (the
     * front op) is active, when the front op declared all it writes
     * (writes_known: writes[0 .. nwrites)) and none of it overlaps
     * ahead_reads. An op of two or more stages: its first writes only
     * memory the op owns (a conversion into its scratch), and the later
     * stages run in its turn. An op of one stage runs whole ahead: it must
     * declare its writes, and they must miss the front op's writes and
     * declared reads (reads_known: reads[0 .. nreads)). Once its first
     * stage has started, the op finishes every stage (a cancel of its
     * stream, shutdown); its callback comes in its turn. Not a sequence;
     * neither op with a deadline. So a stream's next GEMM cuts its operands,
     * or a conversion of its own runs, while its current op computes. */
    int first_stage_ahead;
    int nahead_reads;
    trn_span ahead_reads[TRN_SCHED_MAX_SPANS];
    int writes_known, reads_known;
    int nwrites, nreads;
    trn_span writes[TRN_SCHED_MAX_SPANS], reads[TRN_SCHED_MAX_SPANS];
    int is_marker; /* no kernel: completes when reaching its stream's head */
    /* Wake no worker for it now: the submitter calls trn_sched_kick after a
     * burst of such ops (one wake-up per burst, not per op). The next
     * submit without it wakes them too. */
    int defer_wake;
    trn_sched_fence *signal; /* markers: signalled when the marker completes (may be NULL) */
    trn_sched_fence *wait;   /* markers: the stream waits here until it is signalled */
    uint64_t deadline_ns;    /* 0: none; else trn_sched_now_ns() by which it must start */
    trn_sched_done_fn done;  /* required */
    void *user;
    /* The plan (scheduler/plan_cache.h) the first stage needs, or NULL: its
     * shards run once part plan_part is prepared (or fail if it cannot be).
     * The submitter holds a reference until the op completes. */
    struct trn_plan_entry *plan;
    unsigned plan_part;
    /* What a failing kernel said (ops/op.h); read it in the callback.
     * trn_sched_submit initialises it and points every stage's desc.kmsg at
     * it. */
    trn_kmsg kmsg;

    /* Set by the scheduler; read them in the callback. Nanoseconds on the
     * trn_sched_now_ns() clock: submitted, became ready (reached its stream's
     * head, or its first stage was queued ahead of its turn), first shard
     * started, last shard ended (0 when it did not run). */
    uint64_t t_submit, t_ready, t_start, t_end;
    int engine; /* trn_engine of its current (at the end: last) stage */
    trn_sched_stage_times stage_times[TRN_SCHED_MAX_STAGES];

    /* Private to the scheduler. */
    trn_sched_op *next; /* stream FIFO, then the completion list */
    trn_sched_op *ready_next;
    trn_sched_stream *stream;
    int stage;                            /* the stage running or waiting for a worker */
    int nshards, next_shard, shards_left; /* of the current stage */
    double shard_est_ns;                  /* estimated core time of one shard */
    trn_kstatus kstatus;
    trn_sched_status final_status;
    int advance_after; /* a marker: advance its stream after its callback */
    int stop;          /* a sequence whose stream was cancelled: no further step */
    int ahead;         /* its first stage queued or running (1), or done (2), before its turn */
    /* Claimed as a chain's peek (trn_sched_config.chain_peek); and, when a
     * cancel or shutdown reached it meanwhile, the status it completes with
     * in its turn, unrun (dropped). A chain's op that a cancel reached
     * while claimed (drop_if_unrun) is dropped the same way if it comes
     * back unrun. */
    int peeked, dropped, drop_if_unrun;
    trn_sched_status drop_status;
    trn_sched_timer deadline;
};

/* The number of shards op d is split into on an engine with nworkers
 * workers: between 1 and nworkers. A pure function of the descriptor and
 * nworkers (the policy and its constants, TRN_SHARD_*: ops/shard.h). */
int trn_sched_shard_count(const trn_op_desc *d, int nworkers);

/* Nanoseconds on the monotonic clock every scheduler timestamp uses. */
uint64_t trn_sched_now_ns(void);

/* Chains (trn_sched_config.run_core_chain): the most ops one hand-off
 * carries, and the most estimated core time it may hold a core for, so
 * that a chain stays a small op's worth of unfairness to other tenants. */
#define TRN_SCHED_CHAIN_MAX 64
#define TRN_SCHED_CHAIN_BUDGET_NS 500000u

/* One op of a chain: what to run, and what came of it. */
typedef struct trn_sched_chain_op {
    const trn_op_desc *desc;
    const struct trn_plan_entry *plan; /* its part prepared, or NULL */
    unsigned plan_part;
    uint64_t est_ns;
    /* The chain's last op only, with trn_sched_config.chain_peek: the op
     * queued behind the chain, given so that its inputs may move while the
     * op before it runs (kernels/backend.h, run_next). Its ran is 0 and
     * run_core_chain leaves it so: it never runs it. It goes back to its
     * stream's queue and runs in its turn. */
    int peek;
    /* Set by run_core_chain: whether it ran (0: handed back unrun, which
     * only an op after the chain's first may be, and then every op after
     * it too; it goes back to its stream's queue, for any core), its
     * status, and when it ran (trn_sched_now_ns clock; 0: unknown). */
    int ran;
    trn_kstatus status;
    uint64_t t_start, t_end;
} trn_sched_chain_op;

typedef struct trn_sched_config {
    /* The compute cores: one pinned worker per entry of cpus (cpus may be
     * NULL: ncores unpinned workers). At least one. */
    const int *cpus;
    int ncores;
    /* Copy engine workers (unpinned); 0 runs data movement on the cores. */
    int ncopy;
    /* Runs a shard on core `core`'s worker in place of the backend's run
     * (the daemon's executor processes, daemon/executor.h); NULL: the
     * backend's run. plan: the plan-cache entry the op runs (its part
     * prepared), or NULL; est_ns: the scheduler's estimate of the shard's
     * time, never below the host-rate one ("Estimates", at the top). */
    trn_kstatus (*run_core)(void *ctx, int core, const trn_op_desc *op,
                            const struct trn_plan_entry *plan, unsigned plan_part, int shard,
                            int nshards, uint64_t est_ns, uint64_t patience_ns, int *pending);
    /* With run_core: patience_ns > 0 (from trn_sched_kick_run only) lets it
     * stop waiting after that long, setting *pending, with the shard still
     * running; the core's worker then calls run_core_finish, which waits
     * for it and returns its status. */
    trn_kstatus (*run_core_finish)(void *ctx, int core);
    /* With run_core: runs a sequence's steps together (trn_sched_op.
     * together_plan) on core's worker in place of the backend's run_seq:
     * descs[0 .. n) in one run of plan (part 0 prepared). est_ns: the
     * estimate of the whole, never below the host-rate one; followed as
     * trn_sched_running_followed. One status for all of them. */
    trn_kstatus (*run_core_together)(void *ctx, int core, const trn_op_desc *const *descs, int n,
                                     const struct trn_plan_entry *plan, uint64_t est_ns,
                                     int followed);
    /* Chains: when a core's worker takes a one-shard op of one stage and
     * the ops queued right behind it on its stream are such ops too, with
     * no deadline and their plan parts prepared, and core_chains accepts
     * every one of them, the worker takes up to TRN_SCHED_CHAIN_MAX of them
     * (within TRN_SCHED_CHAIN_BUDGET_NS of estimated time) at once and
     * hands them to run_core_chain, which must run them in order, each
     * whatever the others' statuses (a peek excepted, which it never runs). The ops behind the
     * first count as started ahead of their turn (trn_sched_op.ahead): a cancel of their stream
     * lets them finish (one handed back unrun then completes CANCELLED, unrun); each completes,
     * with its own status and callback, in its turn. So a stream
     * of small ops costs the worker and the core one hand-off per chain, not per op. Both NULL: no
     * chains. */
    void (*run_core_chain)(void *ctx, int core, trn_sched_chain_op *ops, int n, int followed);
    int (*core_chains)(void *ctx, const trn_op_desc *op);
    /* A chain's first op takes the op behind it whatever the budget when
     * both run the same plan part (a chain holds at least two such ops when
     * two may join): the backend moves the next op's inputs while the first
     * one executes (kernels/backend.h, run_next), which pays most for ops
     * too big for the budget. The budget still bounds the ops after those
     * two. 0: the budget bounds them all. */
    int chain_pairs;
    /* A chain ends with a peek (trn_sched_chain_op.peek) at the op queued
     * behind it when that op runs the same plan part as the chain's last
     * op, could have joined but for the budget, and chain_peek accepts it
     * (the backend would move its inputs ahead; NULL: no peeks). So every
     * such op's inputs may move ahead, not only those inside a chain. The
     * peeked op is claimed while the chain runs, which keeps its memory
     * live while the backend reads it: a cancel of its stream meanwhile
     * completes it, CANCELLED and unrun, only once the chain has run.
     * Needs chain_pairs (a chain's first op takes such an op as its pair). */
    int (*chain_peek)(void *ctx, const trn_op_desc *op);
    /* Placement by location (NULL: none). When a core's worker takes an op
     * that could head a chain and has a plan, locate names the core whose
     * memory holds the most of its inputs (here: the taker's core, when no
     * other holds more), and in *extra_ns how long moving the inputs it
     * holds beyond the taker's would take. The op then goes to that core's
     * worker instead (which runs it next, before it takes other work), when
     * waiting for that core costs less than moving them: the core is idle,
     * or the work it is running is estimated ("Estimates", at the top) to
     * end sooner than extra_ns. But a move leaves a copy that later ops use
     * too, where a wait leaves nothing: the ops of one plan wait for busy
     * cores only until their waits add up to extra_ns
     * (trn_plan_entry_spend_busy_wait); the op that would pass it moves its
     * inputs instead, and the count starts again. So callers that keep
     * using one operand at once get it on a second core after at most one
     * move's worth of waiting. Not when
     * that worker already has such an op waiting, or its core is out of
     * service. Called under the scheduler's lock. */
    int (*locate)(void *ctx, const trn_op_desc *op, const struct trn_plan_entry *plan,
                  unsigned plan_part, int here, uint64_t *extra_ns);
    /* Whether core may take more work: a core's worker whose core went out
     * of service leaves (the other workers take its share; the split of ops
     * does not change). NULL: always. */
    int (*core_in_service)(void *ctx, int core);
    void *run_ctx;
} trn_sched_config;

/* Work done, as counted by the scheduler. */
typedef struct trn_sched_usage {
    uint64_t ops;      /* kernel ops completed (started ones; any status); a worker
                          counts the ops whose last shard it ran */
    uint64_t shards;   /* shards run */
    uint64_t queue_ns; /* ops: ready -> first shard started; workers: per shard */
    uint64_t run_ns;   /* worker time spent running shards */
    double cost;       /* trn_op_cost: FLOPs, or bytes touched by data movement */
    uint64_t expired;  /* ops that missed their deadline */
} trn_sched_usage;

typedef struct trn_sched_stats {
    uint64_t ops_queued;    /* submitted, not yet started (markers excluded) */
    uint64_t ops_running;   /* at the head of their stream: waiting for a core or running */
    uint64_t ops_completed; /* kernels completed, any status */
    unsigned workers;       /* all engines */
    /* Workers woken to take ready work, and of those the ones that found
     * none left when they looked (another worker took it first): a wake-up
     * bought nothing but two context switches. */
    uint64_t wakeups;
    uint64_t wakeups_idle;
    /* Ops whose first stage started before their turn on their stream
     * (run-ahead: trn_sched_op.first_stage_ahead). */
    uint64_t ops_ahead;
    /* Ops that ran in a chain behind the op in front of them
     * (trn_sched_config.run_core_chain), and the chains. */
    uint64_t ops_chained;
    uint64_t chains;
    /* Chains that ended with a peek at the op behind them
     * (trn_sched_config.chain_peek). */
    uint64_t chain_peeks;
    /* Ops handed to the worker of the core that holds their inputs
     * (trn_sched_config.locate). */
    uint64_t ops_placed_by_location;
    /* Sequences whose steps ran together (trn_sched_op.together_plan) and
     * succeeded. */
    uint64_t seqs_together;
} trn_sched_stats;

typedef struct trn_sched_worker_info {
    int engine; /* trn_engine */
    int index;  /* within its engine */
    int cpu;    /* pinned CPU, or -1 */
    trn_sched_usage usage;
} trn_sched_worker_info;

/* Starts the workers of every engine. On failure returns NULL and writes
 * err. */
trn_sched *trn_sched_create(const trn_backend *be, const trn_sched_config *cfg, char *err,
                            size_t errlen);

/* Stops accepting ops, completes every queued op and marker with
 * TRN_SCHED_SHUTDOWN, waits for running shards, and joins the workers.
 * Idempotent. */
void trn_sched_shutdown(trn_sched *s);
/* Frees the scheduler; call after trn_sched_shutdown and once every stream,
 * tenant and fence has been released. */
void trn_sched_destroy(trn_sched *s);

/* ---- tenants ---- */

/* A tenant with the given weight (> 0; its share of each engine is
 * proportional to it). NULL on allocation failure. */
trn_sched_tenant *trn_sched_tenant_create(trn_sched *s, double weight);
void trn_sched_tenant_set_weight(trn_sched *s, trn_sched_tenant *t, double weight);
/* Drops the creator's reference; the tenant lives on while streams use it. */
void trn_sched_tenant_release(trn_sched *s, trn_sched_tenant *t);
void trn_sched_tenant_usage(trn_sched *s, const trn_sched_tenant *t, trn_sched_usage *out);

/* ---- streams ---- */

/* A stream of tenant t (NULL: the scheduler's default tenant). */
trn_sched_stream *trn_sched_stream_create(trn_sched *s, trn_sched_tenant *t);
/* Takes an extra reference (dropped with trn_sched_stream_release). */
void trn_sched_stream_retain(trn_sched *s, trn_sched_stream *st);
/* Drops a reference; the stream is freed once its queued ops have
 * completed. */
void trn_sched_stream_release(trn_sched *s, trn_sched_stream *st);
/* Completes every op of the stream that has not started with
 * TRN_SCHED_CANCELLED; a running op finishes normally. */
void trn_sched_stream_cancel(trn_sched *s, trn_sched_stream *st);

/* Queues op on st. Returns 0, or -1 when shutting down (op untouched, its
 * callback not called). */
int trn_sched_submit(trn_sched *s, trn_sched_stream *st, trn_sched_op *op);
/* Wakes the workers for ops submitted with defer_wake that are ready. */
void trn_sched_kick(trn_sched *s);
/* As trn_sched_kick, but when the op the cores would run next is small (one
 * shard, one stage, no plan, estimated at most max_est_ns) and a core worker
 * is idle, runs that op in the calling thread in the worker's name (through
 * the config's run_core and run_core_finish, which must be set; the worker
 * takes nothing else meanwhile) before it returns. Waits for it at most
 * patience_ns: a shard still running then is handed to the worker's thread,
 * so that a caller serving others is never held longer. Returns 1 when it
 * started one, else 0. */
int trn_sched_kick_run(trn_sched *s, uint64_t max_est_ns, uint64_t patience_ns);

/* ---- fences: what an event record produces ---- */

/* An unsignalled fence with one reference. NULL on allocation failure. */
trn_sched_fence *trn_sched_fence_create(trn_sched *s);
void trn_sched_fence_retain(trn_sched *s, trn_sched_fence *f);
void trn_sched_fence_release(trn_sched *s, trn_sched_fence *f);
/* 1 and the time it was signalled in *t_ns when signalled, else 0. A fence
 * whose record was cancelled counts as signalled (at cancellation), so
 * nothing waits on it forever. */
int trn_sched_fence_query(trn_sched *s, const trn_sched_fence *f, uint64_t *t_ns);

/* ---- timers ---- */

/* Arms t to call t->fire(t) on the timer thread at t->when_ns. */
void trn_sched_timer_start(trn_sched *s, trn_sched_timer *t);
/* Disarms t. Returns 1 if it was disarmed before firing, 0 if it has fired
 * (or is firing) or was never armed. */
int trn_sched_timer_stop(trn_sched *s, trn_sched_timer *t);

/* ---- accounting ---- */

void trn_sched_get_stats(trn_sched *s, trn_sched_stats *out);
int trn_sched_worker_count(const trn_sched *s);
/* Worker i (0 <= i < trn_sched_worker_count). */
void trn_sched_worker_get(trn_sched *s, int i, trn_sched_worker_info *out);

#endif
