/*
 * backend_cpu.c — the CPU backend: one scheduler worker per CPU core.
 *
 * Dispatches descriptors to the per-family kernel files. Libraries that could
 * start threads of their own (OpenBLAS) are pinned to one thread here, because
 * the scheduler owns parallelism.
 */
#include <fftw3.h>

#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "kernels/backend.h"
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/routines.h"
#include "ops/tensor_plan.h"

/* What an op that used a refused routine (routines.h) says. */
static void refusal_message(int id, char *buf, size_t len) {
    snprintf(buf, len,
             "%s failed trnscid's start-up self-test on this CPU (OpenBLAS kernel set %s) and "
             "no correct implementation of it was found; `trnsci selftest` shows why",
             trn_routine_name(id), openblas_get_corename());
}

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

static void *cpu_plan_create(const trn_backend *be, const trn_plan_spec *spec, trn_kstatus *why,
                             char *err, size_t errlen) {
    (void)be;
    if (spec->family == TRN_PLAN_TENSOR)
        return trn_cpu_tensor_plan_create(spec, why, err, errlen);
    return trn_cpu_fft_plan_create(spec, why, err, errlen);
}

static trn_kstatus cpu_plan_build(const trn_backend *be, void *plan, unsigned part, char *err,
                                  size_t errlen) {
    (void)be;
    if (trn_tensor_plan_is(plan)) /* a contraction's mapping is made with the plan */
        return TRN_KSTATUS_OK;
    trn_routine_clear_refusal();
    const trn_kstatus st = trn_cpu_fft_plan_build(plan, part, err, errlen);
    const int refused = trn_routine_take_refusal();
    if (refused < 0)
        return st;
    refusal_message(refused, err, errlen);
    return TRN_KSTATUS_FAILED;
}

static uint64_t cpu_plan_bytes(const trn_backend *be, const void *plan) {
    (void)be;
    if (trn_tensor_plan_is(plan))
        return trn_cpu_tensor_plan_bytes(plan);
    return trn_cpu_fft_plan_bytes(plan);
}

static void cpu_plan_release(const trn_backend *be, void *plan) {
    (void)be;
    if (trn_tensor_plan_is(plan))
        trn_cpu_tensor_plan_release(plan);
    else
        trn_cpu_fft_plan_release(plan);
}

static int cpu_plan_state_load(const trn_backend *be, const char *dir, char *err, size_t errlen) {
    (void)be;
    return trn_cpu_fft_wisdom_load(dir, err, errlen);
}

static int cpu_plan_state_save(const trn_backend *be, const char *dir, char *err, size_t errlen) {
    (void)be;
    return trn_cpu_fft_wisdom_save(dir, err, errlen);
}

/* Data movement goes to the copy engine, computation to the cores: the
 * kind's engine (ops/op_kinds.h). */
static trn_engine cpu_engine_for(const trn_backend *be, const trn_op_desc *op) {
    (void)be;
    const trn_op_info *k = trn_op_info_of(op->kind);
    return k ? k->engine : TRN_ENGINE_CORE;
}

static trn_kstatus dispatch(const trn_op_desc *op, int shard, int nshards) {
    switch (op->kind) {
    case TRN_OP_MEMSET: return trn_cpu_memset(&op->u.memset, shard, nshards);
    case TRN_OP_COPY: return trn_cpu_copy(&op->u.copy, shard, nshards);
    case TRN_OP_GEMM: return trn_cpu_gemm(&op->u.gemm, op->kmsg, shard, nshards);
    case TRN_OP_BLAS1: return trn_cpu_blas1(&op->u.blas1, shard, nshards);
    case TRN_OP_BLAS2: return trn_cpu_blas2(&op->u.blas2, shard, nshards);
    case TRN_OP_BLAS3: return trn_cpu_blas3(&op->u.blas3, shard, nshards);
    case TRN_OP_FFT: return trn_cpu_fft(&op->u.fft, shard, nshards);
    case TRN_OP_RAND: return trn_cpu_rand(&op->u.rand, op->kmsg, shard, nshards);
    case TRN_OP_SOLVER_DENSE:
        return trn_cpu_solver_dense(&op->u.solver_dense, op->kmsg, shard, nshards);
    case TRN_OP_SOLVER_BATCHED:
        return trn_cpu_solver_batched(&op->u.solver_batched, shard, nshards);
    case TRN_OP_SOLVER_EIGEN:
        return trn_cpu_solver_eigen(&op->u.solver_eigen, op->kmsg, shard, nshards);
    case TRN_OP_SOLVER_REFINE:
        return trn_cpu_solver_refine(&op->u.solver_refine, op->kmsg, shard, nshards);
    case TRN_OP_SOLVER_KRYLOV:
        return trn_cpu_solver_krylov(&op->u.solver_krylov, op->kmsg, shard, nshards);
    case TRN_OP_SPMV:
    case TRN_OP_SPMM: return trn_cpu_spmm(&op->u.spmm, op->kmsg, shard, nshards);
    case TRN_OP_SPGEMM: return trn_cpu_spgemm(&op->u.spgemm, op->kmsg, shard, nshards);
    case TRN_OP_SDDMM: return trn_cpu_sddmm(&op->u.sddmm, op->kmsg, shard, nshards);
    case TRN_OP_SPCONVERT: return trn_cpu_spconvert(&op->u.spconvert, op->kmsg, shard, nshards);
    case TRN_OP_SPATTN: return trn_cpu_attention(&op->u.attn, op->kmsg, shard, nshards);
    case TRN_OP_SCHWARZ: return trn_cpu_schwarz(&op->u.schwarz, shard, nshards);
    case TRN_OP_TENSOR_CONTRACT:
        return trn_cpu_tensor_contract(&op->u.tensor_contract, op->kmsg, shard, nshards);
    case TRN_OP_TENSOR_ELEMENTWISE:
    case TRN_OP_TENSOR_REDUCTION: return trn_cpu_tensor_ew(&op->u.tensor_ew, shard, nshards);
    case TRN_OP_AO_TO_MO: return trn_cpu_ao_to_mo(&op->u.ao_to_mo, op->kmsg, shard, nshards);
    case TRN_OP_MP2_ENERGY: return trn_cpu_mp2_energy(&op->u.mp2_energy, op->kmsg, shard, nshards);
    }
    return TRN_KSTATUS_UNSUPPORTED;
}

/* Runs the op's kernel; an op that used a refused routine fails, whatever
 * it computed. */
static trn_kstatus cpu_run(const trn_backend *be, const trn_op_desc *op, void *plan, int shard,
                           int nshards) {
    (void)be;
    (void)plan;
    trn_routine_clear_refusal();
    const trn_kstatus st = dispatch(op, shard, nshards);
    const int refused = trn_routine_take_refusal();
    if (refused < 0)
        return st;
    if (op->kmsg) {
        char text[TRN_KMSG_LEN];
        refusal_message(refused, text, sizeof(text));
        trn_kmsg_post(op->kmsg, (uint64_t)shard, 0, "%s", text);
    }
    return TRN_KSTATUS_UNSUPPORTED;
}

static void cpu_destroy(trn_backend *be) {
    free(be);
}

/* The backend and the storage of its version string. */
typedef struct cpu_backend {
    trn_backend be; /* first: the trn_backend pointer is the allocation */
    char version[96];
} cpu_backend;

trn_backend *trn_backend_cpu_create(void) {
    cpu_backend *cb = calloc(1, sizeof(*cb));
    if (!cb)
        return NULL;
    trn_backend *be = &cb->be;
    be->name = "cpu";
    /* Persisted plans and FFTW wisdom are only trusted by the same FFTW. */
    snprintf(cb->version, sizeof(cb->version), "cpu-1 %s", fftw_version);
    be->version = cb->version;
    be->engine_for = cpu_engine_for;
    be->core_count = cpu_core_count;
    be->core_init = cpu_core_init;
    be->plan_create = cpu_plan_create;
    be->plan_build = cpu_plan_build;
    be->plan_bytes = cpu_plan_bytes;
    be->plan_release = cpu_plan_release;
    be->plan_state_load = cpu_plan_state_load;
    be->plan_state_save = cpu_plan_state_save;
    be->run = cpu_run;
    be->destroy = cpu_destroy;
    return be;
}
