/*
 * models/model.h — the functions each op kind's row of the table points to
 * (ops/op_table.c builds the table from ops/op_kinds.h).
 *
 * For a kind with stem S, its family's file ops/models/<family>.c defines
 *   void trn_op_model_S(const trn_op_desc *op, trn_op_model *m);
 * (what trn_op_model returns for it), by convention from two static
 * functions of the file, cost_S and shard_limit_S, and TRN_OP_MODEL below.
 * A kind without it does not link. Only ops/op_table.c and ops/models/
 * include this header; the other layers call trn_op_model_of, trn_op_cost
 * and trn_op_shard_limit (ops/op.h).
 */
#ifndef TRN_OPS_MODELS_MODEL_H
#define TRN_OPS_MODELS_MODEL_H

#include "ops/op.h"
#include "ops/shard.h"

#define TRN_OP_TABLE_DECLARE(kind, value, wire, stem, field, label, title, family, engine)         \
    void trn_op_model_##stem(const trn_op_desc *op, trn_op_model *m);
TRN_OP_KINDS(TRN_OP_TABLE_DECLARE)
#undef TRN_OP_TABLE_DECLARE

/* Defines trn_op_model_<stem> from the file's cost_<stem> and
 * shard_limit_<stem>, with pace pace_expr (an expression that may read op). */
#define TRN_OP_MODEL(stem, pace_expr)                                                              \
    void trn_op_model_##stem(const trn_op_desc *op, trn_op_model *m) {                             \
        m->cost = cost_##stem(op);                                                                 \
        m->shard_limit = shard_limit_##stem(op);                                                   \
        m->pace = (pace_expr);                                                                     \
    }

/* The smaller of a and b (the shard limits cap one bound by another). */
static inline double trn_op_min(double a, double b) {
    return a < b ? a : b;
}

/* The shard limit of a batch split by whole matrices only (one matrix's
 * work never splits), sized by GEMM's flops per shard. */
static inline double trn_op_whole_matrices(double cost, int batch) {
    return trn_op_min(cost / TRN_SHARD_GEMM_MIN_FLOP, (double)batch);
}

#endif
