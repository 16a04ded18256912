/*
 * models/sparse.c — cost and shard limit of the trnsparse ops (how each
 * splits into shards is ops/sparse.c's: the scheduler's count and the
 * kernel's cut agree through those functions).
 *
 * SpMV/SpMM and conversions split as trn_spmm_split / trn_spconvert_split
 * say; SpGEMM's count pass is one shard (a prefix sum), its fill splits A's
 * rows by C's entries; SDDMM splits C's rows by entries; attention splits
 * the (batch entry, block row) pairs evenly; Schwarz bounds and the
 * sparse-vector routines are one shard; triangular solves split the
 * right-hand sides (SpSM) by columns.
 */
#include "ops/models/model.h"

/* The shards a sparse op of this cost allows when it splits into at most
 * parts pieces (split NONE: one). */
static double sparse_limit(double cost, trn_sp_split split, int64_t parts) {
    if (split == TRN_SP_SPLIT_NONE)
        return 1.0;
    return trn_op_min(cost / TRN_SHARD_SPARSE_MIN_COST, (double)parts);
}

/* A multiply-add per stored element and right-hand side, plus the
 * alpha/beta update of C. */
static double cost_spmv(const trn_op_desc *op) {
    const trn_spmm_desc *s = &op->u.spmm;
    const double stored = (double)s->a.nnz * (double)s->a.rb * (double)s->a.cb;
    const double n = (double)s->c.cols, m = (double)s->c.rows;
    const double batch = (double)(s->c.batch > 1 ? s->c.batch : 1);
    return batch * ((s->alpha != 0.0 || s->alpha_im != 0.0 ? 2.0 * stored * n : 0.0) + 2.0 * m * n);
}

static double cost_spmm(const trn_op_desc *op) {
    return cost_spmv(op);
}

/* A multiply-add per product a_ik b_kj: A's entries times B's mean
 * row length (the structure is not read here). */
static double cost_spgemm(const trn_op_desc *op) {
    const trn_spgemm_desc *g = &op->u.spgemm;
    const double per_row = g->b.rows > 0 ? (double)g->b.nnz / (double)g->b.rows : 0.0;
    return 2.0 * (double)g->a.nnz * per_row + (double)g->a.rows;
}

static double cost_sddmm(const trn_op_desc *op) {
    const trn_sddmm_desc *s = &op->u.sddmm;
    /* One dot per stored element (BSR: nnz blocks of rb x cb). */
    const double elems = (double)s->c.nnz * (double)s->c.rb * (double)s->c.cb;
    return 2.0 * elems * (double)s->a.cols + 2.0 * elems;
}

/* Two products per stored block (Q K^T and P V) and an exp per
 * score, counted as 10 flops. */
static double cost_spattn(const trn_op_desc *op) {
    const trn_attn_desc *a = &op->u.attn;
    const double elems =
        (double)a->pattern.nnz * (double)a->pattern.rb * (double)a->pattern.cb * (double)a->q.batch;
    return elems * (2.0 * (double)a->q.cols + 2.0 * (double)a->v.cols + 10.0);
}

/* Two flops per diagonal element. */
static double cost_schwarz(const trn_op_desc *op) {
    return 2.0 * (double)op->u.schwarz.diag.rows;
}

/* Two flops per stored entry (Axpby: and one per element of y). */
static double cost_spvec(const trn_op_desc *op) {
    const trn_spvec_desc *v = &op->u.spvec;
    return 2.0 * (double)v->x.nnz + (v->fn == TRN_SPVEC_AXPBY ? (double)v->y.rows : 0.0);
}

/* A multiply-add per stored entry and right-hand side (the analysis: a
 * pass over the structure). */
static double cost_spsv(const trn_op_desc *op) {
    const trn_spsv_desc *s = &op->u.spsv;
    const double rhs = s->analysis ? 0.0 : (double)s->c.cols;
    return (double)s->a.nnz * (2.0 * rhs + 1.0) + (double)s->a.rows * (rhs + 1.0);
}

/* Bytes touched: every stored element read and written with its
 * index (16 bytes at most), every dense element once, offsets. */
static double cost_spconvert(const trn_op_desc *op) {
    const trn_spconvert_desc *c = &op->u.spconvert;
    const trn_sp_mat *big = c->src.nnz * c->src.rb * c->src.cb >= c->dst.nnz * c->dst.rb * c->dst.cb
                                ? &c->src
                                : &c->dst;
    return 32.0 * (double)big->nnz * (double)big->rb * (double)big->cb +
           (double)c->dense.rows * (double)c->dense.cols * (double)trn_dtype_size(c->dense.type) +
           16.0 * (double)(c->src.rows + c->dst.rows);
}

static double shard_limit_spmv(const trn_op_desc *op) {
    int64_t parts = 1;
    const trn_sp_split split = trn_spmm_split(&op->u.spmm, &parts);
    return sparse_limit(cost_spmv(op), split, parts);
}

static double shard_limit_spmm(const trn_op_desc *op) {
    return shard_limit_spmv(op);
}

static double shard_limit_spgemm(const trn_op_desc *op) {
    const trn_spgemm_desc *g = &op->u.spgemm;
    return sparse_limit(cost_spgemm(op), g->fill ? TRN_SP_SPLIT_ROWS : TRN_SP_SPLIT_NONE,
                        g->fill ? g->a.rows : 1);
}

static double shard_limit_sddmm(const trn_op_desc *op) {
    return sparse_limit(cost_sddmm(op), TRN_SP_SPLIT_ROWS, op->u.sddmm.c.rows);
}

static double shard_limit_spattn(const trn_op_desc *op) {
    const trn_attn_desc *a = &op->u.attn;
    return sparse_limit(cost_spattn(op), TRN_SP_SPLIT_ROWS, a->pattern.brows * a->q.batch);
}

static double shard_limit_schwarz(const trn_op_desc *op) {
    (void)op;
    return 1.0;
}

/* Sequential: repeated indices are processed in order. */
static double shard_limit_spvec(const trn_op_desc *op) {
    (void)op;
    return 1.0;
}

/* The solve splits C's columns (each shard solves whole right-hand sides);
 * the analysis is one pass. */
static double shard_limit_spsv(const trn_op_desc *op) {
    const trn_spsv_desc *s = &op->u.spsv;
    if (s->analysis)
        return 1.0;
    return sparse_limit(cost_spsv(op), TRN_SP_SPLIT_COLS, s->c.cols);
}

static double shard_limit_spconvert(const trn_op_desc *op) {
    int64_t parts = 1;
    const trn_sp_split split = trn_spconvert_split(&op->u.spconvert, &parts);
    return sparse_limit(cost_spconvert(op), split, parts);
}

/* The table's entries (ops/models/model.h). */
TRN_OP_MODEL(spmv, TRN_PACE_STREAM)
TRN_OP_MODEL(spmm, TRN_PACE_STREAM)
TRN_OP_MODEL(spgemm, TRN_PACE_STREAM)
TRN_OP_MODEL(sddmm, TRN_PACE_STREAM)
TRN_OP_MODEL(spattn, TRN_PACE_STREAM)
TRN_OP_MODEL(schwarz, TRN_PACE_STREAM)
TRN_OP_MODEL(spconvert, TRN_PACE_STREAM)
TRN_OP_MODEL(spvec, TRN_PACE_STREAM)
TRN_OP_MODEL(spsv, TRN_PACE_STREAM)
