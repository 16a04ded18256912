/*
 * convert_stage.c — the conversion stage of a precision-mode GEMM
 * (ops/convert_stage.h): when it pays, how much scratch, the two stages;
 * and which ops are conversions of their own.
 */
#include "ops/convert_stage.h"

#include <stdint.h>

unsigned trn_gemm_pieces(trn_compute c) {
    switch (c) {
    case TRN_COMPUTE_32F_FAST_16BF:
    case TRN_COMPUTE_32F_FAST_TF32:
    case TRN_COMPUTE_32F_FAST_16F: return 1;
    case TRN_COMPUTE_32F_BF16X3: return 2;
    case TRN_COMPUTE_32F_BF16X9: return 3;
    default: return 0;
    }
}

/* The floats of the pieces of op(A) (m x k) and op(B) (k x n). */
static void piece_floats(const trn_gemm_desc *g, size_t *a, size_t *b) {
    const size_t comps = g->type == TRN_DTYPE_C32F ? 2 : 1;
    const size_t np = trn_gemm_pieces(g->compute);
    *a = np * (size_t)g->m * (size_t)g->k * comps;
    *b = np * (size_t)g->k * (size_t)g->n * comps;
}

/* Rounded up to 16 bytes, so that B's pieces start aligned. */
static size_t align16(size_t bytes) {
    return (bytes + 15u) & ~(size_t)15u;
}

size_t trn_convert_stage_bytes(const trn_op_desc *op) {
    if (op->kind != TRN_OP_GEMM)
        return 0;
    const trn_gemm_desc *g = &op->u.gemm;
    if (g->split_stage != TRN_GEMM_SPLIT_INLINE || trn_gemm_pieces(g->compute) == 0 ||
        (g->type != TRN_DTYPE_R32F && g->type != TRN_DTYPE_C32F) || trn_gemm_narrow(g) ||
        g->batch > 1 || g->a_list || !g->a || !g->b || g->m <= 0 || g->n <= 0 || g->k <= 0)
        return 0;
    /* Device-mode alpha may turn out 0 (then the GEMM reads no operand):
     * converting ahead would be wasted, but harmless. */
    if (trn_op_shard_limit(op) < 2.0)
        return 0;
    size_t a, b;
    piece_floats(g, &a, &b);
    /* m, n, k < 2^31 and at most 6 floats an element: no overflow in 64 bits. */
    const size_t bytes = align16(a * sizeof(float)) + b * sizeof(float);
    return bytes <= TRN_CONVERT_STAGE_MAX_BYTES ? bytes : 0;
}

void trn_convert_stage_split(const trn_op_desc *op, void *scratch, trn_op_desc *convert,
                             trn_op_desc *compute) {
    size_t a, b;
    piece_floats(&op->u.gemm, &a, &b);
    (void)b;
    float *pa = scratch;
    float *pb = (float *)((char *)scratch + align16(a * sizeof(float)));
    *convert = *op;
    convert->u.gemm.split_stage = TRN_GEMM_SPLIT_AHEAD;
    convert->u.gemm.pieces_a = pa;
    convert->u.gemm.pieces_b = pb;
    *compute = *convert;
    compute->u.gemm.split_stage = TRN_GEMM_SPLIT_DONE;
}

/* cutensorOperator_t's identity and conjugation (trntensor.h). */
enum { TENSOR_OP_IDENTITY = 1, TENSOR_OP_CONJ = 9 };

int trn_convert_standalone(const trn_op_desc *op) {
    if (op->kind == TRN_OP_SPCONVERT)
        return 1;
    if (op->kind != TRN_OP_TENSOR_ELEMENTWISE)
        return 0;
    const trn_tensor_ew_desc *e = &op->u.tensor_ew;
    return !e->reduce && !e->b && !e->c &&
           (e->op_a == TENSOR_OP_IDENTITY || e->op_a == TENSOR_OP_CONJ);
}
