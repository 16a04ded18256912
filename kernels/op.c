/*
 * op.c — backend-independent facts about op descriptors.
 */
#include "kernels/op.h"

double trn_op_cost(const trn_op_desc *op) {
    switch (op->kind) {
    case TRN_OP_MEMSET: return (double)op->u.memset.bytes;
    case TRN_OP_COPY: return 2.0 * (double)op->u.copy.bytes;
    case TRN_OP_GEMM: {
        const trn_gemm_desc *g = &op->u.gemm;
        /* A complex multiply-add is four real multiply-adds. */
        const double per = (g->type == TRN_DTYPE_C32F || g->type == TRN_DTYPE_C64F) ? 8.0 : 2.0;
        return per * (double)g->m * (double)g->n * (double)g->k + (double)g->m * (double)g->n;
    }
    }
    return 0.0;
}
