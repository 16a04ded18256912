/*
 * backend.h — the interface every compute backend implements.
 *
 * A backend owns the compute cores of one kind (CPU cores, kernels/cpu/;
 * NeuronCores, kernels/neuron/, which runs what it has no kernel for on the
 * CPU backend). The scheduler calls it from its worker threads, one thread
 * per core; kernels never create threads of their own.
 *
 * Life cycle: create → (per worker thread: core_init) → run … → destroy.
 * Ops that need a plan (FFT) carry the plan in their descriptor; the
 * scheduler waits for the part they need before calling run.
 */
#ifndef TRN_KERNELS_BACKEND_H
#define TRN_KERNELS_BACKEND_H

#include "ops/op.h"

typedef struct trn_backend trn_backend;

struct trn_backend {
    const char *name;    /* "cpu" */
    const char *version; /* goes into persisted plan caches: another version ignores them */

    /* Which engine runs op. NULL: its kind's (ops/op_kinds.h). The
     * scheduler runs an op on the cores when its engine has no workers
     * configured. (On Trainium the DMA queues are TRN_ENGINE_COPY; engines
     * such as Tensor/Vector/Scalar/GpSimd will be kinds of their own.) */
    trn_engine (*engine_for)(const trn_backend *be, const trn_op_desc *op);

    /* Whether op's format conversions (ops/convert_stage.h) run as a stage
     * of their own ahead of it, on the engine engine_for gives that stage.
     * NULL: never (the op converts its operands itself). */
    int (*converts_ahead)(const trn_backend *be, const trn_op_desc *op);

    /* Number of cores this backend can drive on this machine. */
    int (*core_count)(const trn_backend *be);

    /* Called once on each worker thread before its first op; core is the
     * backend core index the thread is bound to. Returns 0 on success. */
    int (*core_init)(const trn_backend *be, int core);

    /* Plans: what is expensive to prepare for a shape (FFTW plans; later
     * contraction paths, packed operands), owned by the scheduler's plan
     * cache (scheduler/plan_cache.h). A plan is prepared in parts — for FFT
     * the TRN_FFT_VARIANT_* combinations — each when first needed. The cache
     * calls these from its planner thread only, one call at a time (FFTW's
     * planner is not thread-safe), except plan_release at shutdown, when the
     * planner thread has ended; run() only reads parts plan_build finished.
     * NULL hooks: the backend has no plans, and ops that need one are
     * UNSUPPORTED. */

    /* Makes the unprepared plan for spec (cheap), or NULL with err and *why:
     * TRN_KSTATUS_NO_MEMORY when it could not be allocated, else
     * TRN_KSTATUS_FAILED (the backend cannot plan spec). */
    void *(*plan_create)(const trn_backend *be, const trn_plan_spec *spec, trn_kstatus *why,
                         char *err, size_t errlen);
    /* Prepares one part of plan (slow: FFTW planning). TRN_KSTATUS_NO_MEMORY:
     * its scratch could not be allocated (the cache tries again later); any
     * other failure is remembered. */
    trn_kstatus (*plan_build)(const trn_backend *be, void *plan, unsigned part, char *err,
                              size_t errlen);
    /* Estimated bytes of memory the plan's prepared parts hold. */
    uint64_t (*plan_bytes)(const trn_backend *be, const void *plan);
    void (*plan_release)(const trn_backend *be, void *plan);
    /* The backend's accumulated planning knowledge (FFTW wisdom), kept in
     * files under dir so that a restarted daemon plans in milliseconds.
     * Return 0, or -1 with err (the cache warns and carries on). */
    int (*plan_state_load)(const trn_backend *be, const char *dir, char *err, size_t errlen);
    int (*plan_state_save)(const trn_backend *be, const char *dir, char *err, size_t errlen);
    /* The same knowledge as text, for another process of this build (an
     * executor, daemon/executor.h) to plan exactly as this one did: a
     * malloc'd string or NULL; import returns 0, or -1 when it is refused
     * (text may be modified during the call). Same threading as plan_build. */
    char *(*plan_state_export)(const trn_backend *be);
    int (*plan_state_import)(const trn_backend *be, char *text);

    /* Ops the backend runs from a plan of its own: a kernel program compiled
     * for the op's shape (TRN_PLAN_PROGRAM, a NEFF on a NeuronCore). Fills
     * spec and returns 1, else 0. The daemon takes that plan from the plan
     * cache when it accepts the op (so compiling starts at once, off the
     * request path), the scheduler runs the op as one shard once the plan is
     * prepared (split as op_program_shards says), and run() gets the plan.
     * NULL: no such ops. */
    int (*op_plan)(const trn_backend *be, const trn_op_desc *op, trn_plan_spec *spec);
    /* How many shards an op that op_plan gave a plan is split into: each
     * runs that one program on its own part of the op (run's shard and
     * nshards), on whichever core takes it. A function of the op alone, the
     * same in every process. NULL: 1, the program computes the whole op. */
    int (*op_program_shards)(const trn_backend *be, const trn_op_desc *op);
    /* Whether spec's parts may be prepared at the same time as other plans'
     * (a compiler in processes of its own, not FFTW's planner): the plan
     * cache prepares them on its compile threads. NULL: never. */
    int (*plan_concurrent)(const trn_backend *be, const trn_plan_spec *spec);
    /* Nanoseconds one of nshards shards of an op that op_plan gave a plan
     * is estimated to take on one of this backend's cores, before any of
     * its runs was measured (the scheduler then estimates from those:
     * plan_cache.h, trn_plan_entry_run_ns). 0, or NULL: the scheduler's
     * host-rate estimate. */
    double (*program_estimate_ns)(const trn_backend *be, const trn_op_desc *op, int nshards);

    /* Sequences: ops that run together as one program (a graph segment's
     * GEMMs as one NEFF, kernels/neuron/gemm_seq.h). op_seq_plan fills
     * spec for ops[0 .. n), in order, and returns 1 when they can;
     * run_seq runs them with the plan made from that spec, on the calling
     * worker's core, with the result of running them one by one in order,
     * and stamps what they wrote as run does. NULL: ops never run
     * together. */
    int (*op_seq_plan)(const trn_backend *be, const trn_op_desc *const *ops, int n,
                       trn_plan_spec *spec);
    trn_kstatus (*run_seq)(const trn_backend *be, const trn_op_desc *const *ops, int n, void *plan);

    /* Computes shard `shard` of `nshards` of op on the calling worker's core.
     * The shard split is the scheduler's; a backend given nshards = 1 computes
     * the whole op. plan: the plan of the op's plan cache entry when it has
     * one (for FFT and contractions it is in the descriptor as well), else
     * NULL. */
    trn_kstatus (*run)(const trn_backend *be, const trn_op_desc *op, void *plan, int shard,
                       int nshards);

    /* Run-next hints (NULL: none): a chain's executor (daemon/executor.h)
     * says, just before it calls run, which op it will run next on this
     * thread's core (its shard of nshards, with the plan the op about to
     * run has). The backend may start moving next's inputs while the op
     * about to run executes. A hint only: run(next) must give the same
     * result whether or not it was given, and whatever happened to next's
     * memory in between. run_next_wait returns once nothing started for a
     * hint still runs; the executor calls it before answering a request,
     * after which next's memory may be unmapped. */
    void (*run_next)(const trn_backend *be, const trn_op_desc *next, void *plan, int shard,
                     int nshards);
    void (*run_next_wait)(const trn_backend *be);

    void (*destroy)(trn_backend *be);
};

/* The CPU backend (kernels/cpu/). Returns NULL on allocation failure. The
 * Neuron backend's constructor is in kernels/neuron/backend_neuron.h. */
trn_backend *trn_backend_cpu_create(void);

#endif
