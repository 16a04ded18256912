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

/* The span of a tensor at p of nmodes modes with these extents and
 * strides (elements of es bytes); 0 and *ok = 0 when a stride is negative. */
static trn_span tensor_span(const void *p, int nmodes, const int64_t *extent, const int64_t *stride,
                            size_t es, int *ok) {
    const uintptr_t lo = (uintptr_t)p;
    uint64_t last = 0;
    for (int i = 0; i < nmodes; i++) {
        if (extent[i] <= 0)
            return (trn_span){lo, lo};
        if (stride[i] < 0)
            *ok = 0;
        else
            last += (uint64_t)(extent[i] - 1) * (uint64_t)stride[i];
    }
    return (trn_span){lo, lo + (last + 1) * es};
}

/* A permutation that only converts (ops/convert_stage.h's standalone
 * tensor kind, not padded): its A and D. */
static int permutation_spans(const trn_op_desc *op, int want_reads, trn_span *out) {
    if (op->kind != TRN_OP_TENSOR_ELEMENTWISE || !trn_convert_standalone(op))
        return -1;
    const trn_tensor_ew_desc *e = &op->u.tensor_ew;
    if (e->padded || !e->a || !e->d)
        return -1;
    int ok = 1;
    out[0] =
        want_reads
            ? tensor_span(e->a, e->nmodes, e->extent, e->stride_a, trn_dtype_size(e->type_a), &ok)
            : tensor_span(e->d, e->nmodes, e->extent, e->stride_d, trn_dtype_size(e->type), &ok);
    return ok ? 1 : -1;
}

/* count entries of es bytes at p (nothing when p is NULL). */
static trn_span array_span(const void *p, int64_t count, size_t es) {
    const uintptr_t lo = (uintptr_t)p;
    return (trn_span){lo, p && count > 0 ? lo + (size_t)count * es : lo};
}

static size_t index_size(const trn_sp_mat *m) {
    return m->idx64 ? sizeof(int64_t) : sizeof(int32_t);
}

/* A CSR or CSC matrix's offsets (n + 1), indices and values (nnz each). */
static int compressed_spans(const trn_sp_mat *m, int64_t n, trn_span *out) {
    out[0] = array_span(m->offsets, n + 1, index_size(m));
    out[1] = array_span(m->indices, m->nnz, index_size(m));
    out[2] = array_span(m->values, m->nnz, trn_dtype_size(m->type));
    return 3;
}

/* A sparse format conversion of its own: CSR -> CSC reads the CSR matrix
 * and writes the CSC one; CSR -> BSR reads the CSR matrix and the BSR
 * block-row offsets (csr2bsrNnz's result) and writes the BSR block
 * columns and blocks. Validation resolved exactly these arrays, with these
 * extents, and the kernels touch nothing else (kernels/cpu/sparse_convert.c:
 * every write is bounded by the destination's nnz). Other conversions, and
 * strided batches, are not described. */
static int spconvert_spans(const trn_op_desc *op, int want_reads, trn_span *out, int max) {
    const trn_spconvert_desc *c = &op->u.spconvert;
    const trn_sp_mat *src = &c->src, *dst = &c->dst;
    if (src->batch > 1 || dst->batch > 1)
        return -1;
    if (c->fn == TRN_SPC_CSR_TO_CSC) {
        if (max < 3)
            return -1;
        return want_reads ? compressed_spans(src, src->rows, out)
                          : compressed_spans(dst, dst->cols, out);
    }
    if (c->fn != TRN_SPC_CSR_TO_BSR)
        return -1;
    if (!want_reads) {
        if (max < 2)
            return -1;
        out[0] = array_span(dst->indices, dst->nnz, index_size(dst));
        out[1] = array_span(dst->values, dst->nnz * dst->rb * dst->cb, trn_dtype_size(dst->type));
        return 2;
    }
    if (max < 4)
        return -1;
    compressed_spans(src, src->rows, out);
    out[3] = array_span(dst->offsets, dst->brows + 1, index_size(dst));
    return 4;
}

/* op(A) and op(B) of g (a strided batch of them), elements of es bytes. */
static void gemm_ab_spans(const trn_gemm_desc *g, size_t batch, size_t es, trn_span *out) {
    const int an = g->transa == TRN_TRANS_N, bn = g->transb == TRN_TRANS_N;
    out[0] = matrix_span(g->a, an ? g->m : g->k, an ? g->k : g->m, g->lda, batch, g->stride_a, es);
    out[1] = matrix_span(g->b, bn ? g->k : g->n, bn ? g->n : g->k, g->ldb, batch, g->stride_b, es);
}

int trn_op_write_spans(const trn_op_desc *op, trn_span *out, int max) {
    if (max < 1)
        return -1;
    if (op->kind == TRN_OP_SPCONVERT)
        return spconvert_spans(op, 0, out, max);
    if (op->kind == TRN_OP_MEMSET || op->kind == TRN_OP_COPY) {
        const void *dst = op->kind == TRN_OP_MEMSET ? op->u.memset.dst : op->u.copy.dst;
        const size_t bytes = op->kind == TRN_OP_MEMSET ? op->u.memset.bytes : op->u.copy.bytes;
        out[0] = (trn_span){(uintptr_t)dst, (uintptr_t)dst + bytes};
        return 1;
    }
    if (op->kind != TRN_OP_GEMM)
        return permutation_spans(op, 0, out);
    const trn_gemm_desc *g = &op->u.gemm;
    if (g->c_list || !g->c)
        return -1;
    const size_t batch = g->batch > 1 ? g->batch : 1;
    out[0] = matrix_span(g->c, g->m, g->n, g->ldc, batch, g->stride_c, trn_dtype_size(g->type));
    return 1;
}

int trn_gemm_spans(const trn_gemm_desc *g, trn_span out[3]) {
    if (g->a_list || g->b_list || g->c_list || !g->c)
        return -1;
    const size_t batch = g->batch > 1 ? g->batch : 1;
    gemm_ab_spans(g, batch, trn_dtype_size(trn_gemm_ab_type(g)), out);
    /* C, as beta (or a device beta) may ask for it. */
    out[2] = matrix_span(g->c, g->m, g->n, g->ldc, batch, g->stride_c, trn_dtype_size(g->type));
    return 3;
}

int trn_op_read_spans(const trn_op_desc *op, trn_span *out, int max) {
    if (max < 1)
        return -1;
    if (op->kind == TRN_OP_SPCONVERT)
        return spconvert_spans(op, 1, out, max);
    if (op->kind != TRN_OP_GEMM)
        return permutation_spans(op, 1, out);
    return max < 3 ? -1 : trn_gemm_spans(&op->u.gemm, out);
}

int trn_convert_stage_read_spans(const trn_op_desc *op, trn_span *out, int max) {
    if (max < 2 || trn_convert_stage_bytes(op) == 0)
        return -1;
    /* One GEMM, no lists, A and B of C's type (trn_convert_stage_bytes). */
    gemm_ab_spans(&op->u.gemm, 1, trn_dtype_size(op->u.gemm.type), out);
    return 2;
}
