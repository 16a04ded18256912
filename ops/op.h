/*
 * op.h — an op: its kind and the descriptor of what a kernel computes.
 *
 * daemon/ turns a validated wire request into one of these; scheduler/ queues
 * and shards them; a backend under kernels/ computes them. Nothing here knows
 * about protobuf, sessions or transports. The descriptors are per family, in
 * ops/<family>.h.
 *
 * Invariant: a descriptor that reaches a backend has been fully validated —
 * every pointer/extent lies inside memory the daemon owns for the duration of
 * the op, every dimension fits the backend library's integer type. Kernels
 * never check arguments again.
 */
#ifndef TRN_OPS_OP_H
#define TRN_OPS_OP_H

#include "ops/blas.h"
#include "ops/fft.h"
#include "ops/memory.h"
#include "ops/op_kinds.h"
#include "ops/plan.h"
#include "ops/rand.h"
#include "ops/solver.h"
#include "ops/sparse.h"
#include "ops/tensor.h"
#include "ops/types.h"

/* The op kinds (ops/op_kinds.h): TRN_OP_GEMM, …; TRN_OP_KIND_COUNT of them. */
typedef enum trn_op_kind {
#define TRN_OP_KIND_ENUM(kind, value, wire, stem, field, label, title, family, engine)             \
    TRN_OP_##kind = value,
    TRN_OP_KINDS(TRN_OP_KIND_ENUM)
#undef TRN_OP_KIND_ENUM
} trn_op_kind;

enum {
#define TRN_OP_KIND_ONE(kind, value, wire, stem, field, label, title, family, engine) +1
    TRN_OP_KIND_COUNT = 0 TRN_OP_KINDS(TRN_OP_KIND_ONE)
#undef TRN_OP_KIND_ONE
};

/* The kinds of engine an op runs on. Each has its own workers in the
 * scheduler, so ops on different engines overlap: the compute cores, and
 * the copy engines (threads that only move data; on Trainium the DMA
 * queues). */
typedef enum trn_engine {
    TRN_ENGINE_CORE = 0,
    TRN_ENGINE_COPY = 1,
} trn_engine;
#define TRN_ENGINE_COUNT 2

static inline const char *trn_engine_name(int e) {
    return e == TRN_ENGINE_COPY ? "copy" : "core";
}

/* What is known of an op kind without looking at an op (its row of
 * ops/op_kinds.h). */
typedef struct trn_op_info {
    trn_op_kind kind;
    const char *label;  /* in metrics: "solver_dense" */
    const char *title;  /* in messages: "sparse convert" */
    const char *family; /* "memory", "blas", "fft", "rand", "solver", "sparse", "tensor" */
    trn_engine engine;  /* where it runs */
} trn_op_info;

/* The row of kind, or NULL for a value that is no op kind. */
const trn_op_info *trn_op_info_of(int kind);
/* Row i of the list (0 … TRN_OP_KIND_COUNT - 1), or NULL: for going
 * through every kind. */
const trn_op_info *trn_op_info_at(int i);
/* The row number of kind (0 … TRN_OP_KIND_COUNT - 1, in the order of
 * ops/op_kinds.h), or -1 for a value that is no op kind: what a backend
 * indexes its table of kernels by. */
int trn_op_index_of(int kind);
/* The libraries the kinds belong to ("blas", "fft", ...: each family once,
 * in the order of the list; not "memory", whose ops are the runtime's):
 * up to max of them into out, returning how many there are. What Hello
 * reports as the daemon's families. */
size_t trn_op_families(const char **out, size_t max);

typedef struct trn_op_desc {
    trn_op_kind kind;
    union {
#define TRN_OP_DESC_MEMBER(type, field) type field;
        TRN_OP_DESCS(TRN_OP_DESC_MEMBER)
#undef TRN_OP_DESC_MEMBER
    } u;
    /* Where the kernel explains a failure (set by the scheduler; NULL when
     * the op is run outside one). */
    trn_kmsg *kmsg;
} trn_op_desc;

/* How many leading bytes of a trn_op_desc of kind hold all of it but its
 * kmsg (its kind and its own member of the union): what copying it for
 * another process needs. sizeof(trn_op_desc) for a value that is no op
 * kind. */
size_t trn_op_desc_bytes(int kind);

/* How messages name op: its kind's title, or for trnsolver ops the routine
 * as cuSOLVER spells it ("potrf", "heevd", "cg", …). */
const char *trn_op_title(const trn_op_desc *op);

/* How quickly an op's cost goes by on one core, roughly: the scheduler
 * estimates an op's core time as its cost over its pace's rate. */
typedef enum trn_op_pace {
    TRN_PACE_DENSE,  /* flops of compute-bound dense linear algebra */
    TRN_PACE_FFT,    /* flops of FFTs (5 N log2 N) */
    TRN_PACE_STREAM, /* memory-bound: bytes touched, or flops of sparse,
                        Level 1/2 and element-wise kernels */
} trn_op_pace;

/* What the cost model says of an op (per kind in ops/models/<family>.c). All of
 * it is a pure function of the descriptor. */
typedef struct trn_op_model {
    /* Estimated cost in floating-point operations (or bytes touched for
     * data movement); what the scheduler shards and shares cores by. */
    double cost;
    /* The most shards the op's size allows (ops/shard.h), fractional
     * (below 2 means one shard); the scheduler takes the smaller of this
     * and its engine's workers. */
    double shard_limit;
    trn_op_pace pace;
} trn_op_model;

/* Fills m for op; for a value that is no op kind, cost 0 and one shard. */
void trn_op_model_of(const trn_op_desc *op, trn_op_model *m);
/* Its cost and its shard limit alone. */
double trn_op_cost(const trn_op_desc *op);
double trn_op_shard_limit(const trn_op_desc *op);

/* The name of a trnsolver op's routine as cuSOLVER spells it
 * (trn_solver_name of ops/solver.h; NULL for other kinds). */
const char *trn_solver_op_name(const trn_op_desc *op);

#endif
