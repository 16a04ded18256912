/*
 * backend_cpu.c — the CPU backend: one scheduler worker per CPU core.
 *
 * Dispatches descriptors to the per-family kernel files. Libraries that could
 * start threads of their own (OpenBLAS) are pinned to one thread here, because
 * the scheduler owns parallelism.
 */
#include <cblas.h>
#include <stdlib.h>
#include <unistd.h>

#include "kernels/backend.h"
#include "kernels/cpu/cpu_kernels.h"

static int cpu_core_count(const trn_backend *be) {
    (void)be;
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static int cpu_core_init(const trn_backend *be, int core) {
    (void)be;
    (void)core;
    openblas_set_num_threads(1);
    return 0;
}

static trn_kstatus cpu_plan_prepare(const trn_backend *be, const trn_op_desc *op, void **plan) {
    (void)be;
    (void)op;
    *plan = NULL;
    return TRN_KSTATUS_OK;
}

static void cpu_plan_release(const trn_backend *be, void *plan) {
    (void)be;
    (void)plan;
}

/* Data movement goes to the copy engine, computation to the cores. */
static trn_engine cpu_engine_for(const trn_backend *be, const trn_op_desc *op) {
    (void)be;
    switch (op->kind) {
    case TRN_OP_MEMSET:
    case TRN_OP_COPY: return TRN_ENGINE_COPY;
    case TRN_OP_GEMM:
    case TRN_OP_RAND: break;
    }
    return TRN_ENGINE_CORE;
}

static trn_kstatus cpu_run(const trn_backend *be, const trn_op_desc *op, void *plan, int shard,
                           int nshards) {
    (void)be;
    (void)plan;
    switch (op->kind) {
    case TRN_OP_MEMSET: return trn_cpu_memset(&op->u.memset, shard, nshards);
    case TRN_OP_COPY: return trn_cpu_copy(&op->u.copy, shard, nshards);
    case TRN_OP_GEMM: return trn_cpu_gemm(&op->u.gemm, shard, nshards);
    case TRN_OP_RAND: return trn_cpu_rand(&op->u.rand, shard, nshards);
    }
    return TRN_KSTATUS_UNSUPPORTED;
}

static void cpu_destroy(trn_backend *be) {
    free(be);
}

trn_backend *trn_backend_cpu_create(void) {
    trn_backend *be = calloc(1, sizeof(*be));
    if (!be)
        return NULL;
    be->name = "cpu";
    be->version = "cpu-1";
    be->engine_for = cpu_engine_for;
    be->core_count = cpu_core_count;
    be->core_init = cpu_core_init;
    be->plan_prepare = cpu_plan_prepare;
    be->plan_release = cpu_plan_release;
    be->run = cpu_run;
    be->destroy = cpu_destroy;
    return be;
}
