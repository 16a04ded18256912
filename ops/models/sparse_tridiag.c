/*
 * models/sparse_tridiag.c — cost and shard limit of trnsparse's legacy
 * routines: the banded solves (gtsv2*, gtsvInterleavedBatch,
 * gpsvInterleavedBatch), whose kernel splits whole systems over shards
 * (gtsv2's one system: whole right-hand sides), and csrgeam2, whose fill
 * splits C's rows; any split gives the bits of the unsplit run.
 */
#include "ops/models/model.h"

/* Per system and right-hand side, Gaussian elimination on a band with kl
 * subdiagonals and ku superdiagonals (plus kl fill-in with pivoting)
 * costs about 2 kl (ku + kl + 1) flops per row, the substitutions
 * 2 (kl + ku + kl + 1) more; complex counts 4x. */
static double cost_spbanded(const trn_op_desc *op) {
    const trn_banded_desc *b = &op->u.banded;
    const double kl = b->penta ? 2.0 : 1.0, w = 2.0 * kl + 1.0;
    const double per_row = 2.0 * kl * w + 2.0 * (kl + w);
    const double cplx = b->type == TRN_DTYPE_C32F || b->type == TRN_DTYPE_C64F ? 4.0 : 1.0;
    return cplx * per_row * (double)b->m * (double)b->batch * (double)b->nrhs;
}

/* Whole systems per shard (gtsv2: whole right-hand sides). */
static double shard_limit_spbanded(const trn_op_desc *op) {
    const trn_banded_desc *b = &op->u.banded;
    const double parts = b->batch > 1 ? (double)b->batch : (double)b->nrhs;
    if (parts <= 1.0)
        return 1.0;
    return trn_op_min(cost_spbanded(op) / TRN_SHARD_SPARSE_MIN_COST, parts);
}

/* The table's entry (ops/models/model.h). */
TRN_OP_MODEL(spbanded, TRN_PACE_STREAM)

/* C = alpha A + beta B: a multiply-add per stored entry of A and B; the
 * count pass is one shard (a prefix sum), the fill splits C's rows. */
static double cost_spgeam(const trn_op_desc *op) {
    const trn_spgeam_desc *g = &op->u.spgeam;
    return 2.0 * ((double)g->a.nnz + (double)g->b.nnz) + (double)g->a.rows;
}

static double shard_limit_spgeam(const trn_op_desc *op) {
    const trn_spgeam_desc *g = &op->u.spgeam;
    if (!g->fill || g->a.rows <= 1)
        return 1.0;
    return trn_op_min(cost_spgeam(op) / TRN_SHARD_SPARSE_MIN_COST, (double)g->a.rows);
}

TRN_OP_MODEL(spgeam, TRN_PACE_STREAM)

/* IC0 / ILU0: about two flops per stored entry per entry of its row (the
 * updates), one shard (rows depend on earlier rows). */
static double cost_spilu0(const trn_op_desc *op) {
    const trn_spilu0_desc *f = &op->u.spilu0;
    const double w = f->a.rows > 0 ? (double)f->a.nnz / (double)f->a.rows : 0.0;
    return f->analysis ? (double)f->a.nnz : 2.0 * (double)f->a.nnz * w;
}

static double shard_limit_spilu0(const trn_op_desc *op) {
    (void)op;
    return 1.0;
}

TRN_OP_MODEL(spilu0, TRN_PACE_STREAM)
