/*
 * backend_cpu.c — the CPU backend: one scheduler worker per CPU core.
 *
 * Dispatches descriptors to the per-family kernel files through a table
 * built from ops/op_kinds.h. Libraries that could
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
#include "ops/convert_stage.h"
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

static char *cpu_plan_state_export(const trn_backend *be) {
    (void)be;
    return trn_cpu_fft_wisdom_export();
}

static int cpu_plan_state_import(const trn_backend *be, char *text) {
    (void)be;
    return trn_cpu_fft_wisdom_import(text);
}

static int cpu_plan_state_save(const trn_backend *be, const char *dir, char *err, size_t errlen) {
    (void)be;
    return trn_cpu_fft_wisdom_save(dir, err, errlen);
}

/* Data movement goes to the copy engine, computation to the cores: the
 * kind's engine (ops/op_kinds.h), and format conversions, a GEMM's stage
 * or an op of their own (ops/convert_stage.h). */
static trn_engine cpu_engine_for(const trn_backend *be, const trn_op_desc *op) {
    (void)be;
    if (op->kind == TRN_OP_GEMM && op->u.gemm.split_stage == TRN_GEMM_SPLIT_AHEAD)
        return TRN_ENGINE_COPY; /* a format conversion: it only moves data */
    if (trn_convert_standalone(op))
        return TRN_ENGINE_COPY;
    const trn_op_info *k = trn_op_info_of(op->kind);
    return k ? k->engine : TRN_ENGINE_CORE;
}

/* Every conversion ops/convert_stage.h describes has its stage here. */
static int cpu_converts_ahead(const trn_backend *be, const trn_op_desc *op) {
    (void)be, (void)op;
    return 1;
}

/* The kernel of each kind, in the order of ops/op_kinds.h
 * (trn_op_index_of); each kernel's file defines its entries. */
typedef trn_kstatus (*cpu_kernel)(const trn_op_desc *op, int shard, int nshards);
static const cpu_kernel kernels[TRN_OP_KIND_COUNT] = {
#define KERNEL(kind, value, wire, stem, field, label, title, family, engine) trn_cpu_run_##stem,
    TRN_OP_KINDS(KERNEL)
#undef KERNEL
};

static trn_kstatus dispatch(const trn_op_desc *op, int shard, int nshards) {
    const int i = trn_op_index_of(op->kind);
    return i >= 0 ? kernels[i](op, shard, nshards) : TRN_KSTATUS_UNSUPPORTED;
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
    be->converts_ahead = cpu_converts_ahead;
    be->core_count = cpu_core_count;
    be->core_init = cpu_core_init;
    be->plan_create = cpu_plan_create;
    be->plan_build = cpu_plan_build;
    be->plan_bytes = cpu_plan_bytes;
    be->plan_release = cpu_plan_release;
    be->plan_state_load = cpu_plan_state_load;
    be->plan_state_save = cpu_plan_state_save;
    be->plan_state_export = cpu_plan_state_export;
    be->plan_state_import = cpu_plan_state_import;
    be->run = cpu_run;
    be->destroy = cpu_destroy;
    return be;
}
