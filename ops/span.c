/*
 * span.c — the memory spans of validated ops (ops/span.h). A matrix of
 * rows x cols with leading dimension ld, column-major, spans
 * ((cols - 1) ld + rows) elements from its first; a strided batch adds
 * (batch - 1) strides. The validator has checked that each lies inside
 * memory the caller owns, so none of this overflows.
 */
#include "ops/span.h"

#include "ops/convert_stage.h"
#include "ops/op.h"

int trn_spans_overlap(const trn_span *a, int na, const trn_span *b, int nb) {
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            if (a[i].lo < a[i].hi && b[j].lo < b[j].hi && a[i].lo < b[j].hi && b[j].lo < a[i].hi)
                return 1;
    return 0;
}

/* The span of a rows x cols matrix at p (batch matrices stride elements
 * apart), elements of es bytes. */
static trn_span matrix_span(const void *p, int rows, int cols, int ld, size_t batch, size_t stride,
                            size_t es) {
    const uintptr_t lo = (uintptr_t)p;
    if (rows <= 0 || cols <= 0 || batch == 0)
        return (trn_span){lo, lo};
    const size_t one = ((size_t)(cols - 1) * (size_t)ld + (size_t)rows) * es;
    return (trn_span){lo, lo + (batch - 1) * stride * es + one};
}

int trn_op_write_spans(const trn_op_desc *op, trn_span *out, int max) {
    if (op->kind != TRN_OP_GEMM || max < 1)
        return -1;
    const trn_gemm_desc *g = &op->u.gemm;
    if (g->c_list || !g->c)
        return -1;
    const size_t batch = g->batch > 1 ? g->batch : 1;
    out[0] = matrix_span(g->c, g->m, g->n, g->ldc, batch, g->stride_c, trn_dtype_size(g->type));
    return 1;
}

int trn_convert_stage_read_spans(const trn_op_desc *op, trn_span *out, int max) {
    if (max < 2 || trn_convert_stage_bytes(op) == 0)
        return -1;
    const trn_gemm_desc *g = &op->u.gemm; /* one GEMM, no lists (trn_convert_stage_bytes) */
    const size_t es = trn_dtype_size(g->type);
    const int an = g->transa == TRN_TRANS_N, bn = g->transb == TRN_TRANS_N;
    out[0] = matrix_span(g->a, an ? g->m : g->k, an ? g->k : g->m, g->lda, 1, 0, es);
    out[1] = matrix_span(g->b, bn ? g->k : g->n, bn ? g->n : g->k, g->ldb, 1, 0, es);
    return 2;
}
