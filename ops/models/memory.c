/*
 * models/memory.c — cost and shard limit of the data-movement ops (memset, copy).
 */
#include <stdint.h>

#include "ops/models/model.h"

/* Bytes touched: a memset writes each once, a copy reads and writes each. */
static double cost_memset(const trn_op_desc *op) {
    return (double)op->u.memset.bytes;
}

static double cost_copy(const trn_op_desc *op) {
    return 2.0 * (double)op->u.copy.bytes;
}

static double shard_limit_memset(const trn_op_desc *op) {
    return cost_memset(op) / (double)TRN_SHARD_MEM_MIN_BYTES;
}

/* A copy whose source and destination overlap is one shard: memmove's
 * guarantee holds only within one call. */
static double shard_limit_copy(const trn_op_desc *op) {
    const trn_copy_desc *c = &op->u.copy;
    const uintptr_t dst = (uintptr_t)c->dst, src = (uintptr_t)c->src;
    const int overlap = dst < src + c->bytes && src < dst + c->bytes;
    return overlap ? 1.0 : cost_copy(op) / (double)TRN_SHARD_MEM_MIN_BYTES;
}

/* The table's entries (ops/models/model.h). */
TRN_OP_MODEL(memset, TRN_PACE_STREAM)
TRN_OP_MODEL(copy, TRN_PACE_STREAM)
