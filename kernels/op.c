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
    case TRN_OP_RAND: {
        /* Bytes written, weighted by time per byte: on one core here Philox
         * makes 1.1-1.4 GB/s of raw words or uniforms, but Box-Muller normals
         * only 0.10-0.15 GB/s (log, sqrt, sin, cos per pair), so a normal
         * byte counts 8. */
        const trn_rand_dist d = op->u.rand.dist;
        const int boxmuller = d == TRN_RAND_NORMAL_F32 || d == TRN_RAND_NORMAL_F64 ||
                              d == TRN_RAND_LOGNORMAL_F32 || d == TRN_RAND_LOGNORMAL_F64;
        return (double)op->u.rand.n * (double)trn_rand_element_size(d) * (boxmuller ? 8.0 : 1.0);
    }
    }
    return 0.0;
}
