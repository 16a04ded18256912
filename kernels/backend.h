/*
 * backend.h — the interface every compute backend implements.
 *
 * A backend owns the compute cores of one kind (CPU cores here; NeuronCores in
 * a later kernels/neuron/). The scheduler calls it from its worker threads,
 * one thread per core; kernels never create threads of their own.
 *
 * Life cycle: create → (per worker thread: core_init) → run … → destroy.
 * Plans (FFTW plans, contraction paths, packed operands) are made by
 * plan_prepare, owned by the scheduler's plan cache, and released by
 * plan_release; ops without a plan (GEMM, memset, copy) pass plan = NULL.
 */
#ifndef TRN_KERNELS_BACKEND_H
#define TRN_KERNELS_BACKEND_H

#include "kernels/op.h"

typedef struct trn_backend trn_backend;

/* The kinds of engine a backend can run an op on. Each has its own workers
 * in the scheduler, so ops on different engines overlap. On the CPU backend:
 * the compute cores, and copy engines (threads that only move data). On
 * Trainium the DMA queues become TRN_ENGINE_COPY; Tensor/Vector/Scalar/GpSimd
 * engines will be added here as kinds of their own. */
typedef enum trn_engine {
    TRN_ENGINE_CORE = 0,
    TRN_ENGINE_COPY = 1,
} trn_engine;
#define TRN_ENGINE_COUNT 2

static inline const char *trn_engine_name(int e) {
    return e == TRN_ENGINE_COPY ? "copy" : "core";
}

struct trn_backend {
    const char *name;    /* "cpu" */
    const char *version; /* goes into plan keys: a new version invalidates plans */

    /* Which engine runs op. NULL: every op runs on the cores. The scheduler
     * runs an op on the cores when its engine has no workers configured. */
    trn_engine (*engine_for)(const trn_backend *be, const trn_op_desc *op);

    /* Number of cores this backend can drive on this machine. */
    int (*core_count)(const trn_backend *be);

    /* Called once on each worker thread before its first op; core is the
     * backend core index the thread is bound to. Returns 0 on success. */
    int (*core_init)(const trn_backend *be, int core);

    /* Prepares whatever is expensive for this op's shape. *plan may be set to
     * NULL when the op needs none. */
    trn_kstatus (*plan_prepare)(const trn_backend *be, const trn_op_desc *op, void **plan);
    void (*plan_release)(const trn_backend *be, void *plan);

    /* Computes shard `shard` of `nshards` of op on the calling worker's core.
     * The shard split is the scheduler's; a backend given nshards = 1 computes
     * the whole op. */
    trn_kstatus (*run)(const trn_backend *be, const trn_op_desc *op, void *plan, int shard,
                       int nshards);

    void (*destroy)(trn_backend *be);
};

/* The CPU backend (kernels/cpu/). Returns NULL on allocation failure. */
trn_backend *trn_backend_cpu_create(void);

#endif
