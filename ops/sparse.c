/*
 * sparse.c — how SpMV/SpMM and the format conversions split into shards
 * (ops/sparse.h): the scheduler's shard count (ops/models/sparse.c) and the
 * kernel's cut both follow these functions, so they agree.
 */
#include "ops/sparse.h"

trn_sp_split trn_spmm_split(const trn_spmm_desc *d, int64_t *parts) {
    const trn_sp_mat *a = &d->a;
    if (d->alpha == 0.0 && d->alpha_im == 0.0) { /* C = beta C: any rows */
        *parts = d->c.rows;
        return TRN_SP_SPLIT_ROWS;
    }
    if (a->type != TRN_DTYPE_R32F && a->type != TRN_DTYPE_R64F) {
        /* Complex and 16-bit values (sparse_spmm_x.c): every shard walks
         * all of A into its own columns of C. */
        *parts = d->c.cols;
        return TRN_SP_SPLIT_COLS;
    }
    const int n = d->op_a == TRN_TRANS_N;
    if (a->format == TRN_SP_BELL || a->format == TRN_SP_SELL) { /* op N only: block rows, slices */
        *parts = a->brows;
        return TRN_SP_SPLIT_ROWS;
    }
    if ((a->format == TRN_SP_CSR && n) || (a->format == TRN_SP_CSC && !n) ||
        (a->format == TRN_SP_BSR && n)) {
        *parts = a->format == TRN_SP_CSC ? a->cols : a->brows;
        return TRN_SP_SPLIT_ROWS;
    }
    if (a->format == TRN_SP_BSR) { /* op T: BLAS calls, whose bits depend on the width */
        *parts = 1;
        return TRN_SP_SPLIT_NONE;
    }
    *parts = d->c.cols;
    return TRN_SP_SPLIT_COLS;
}

trn_sp_split trn_spconvert_split(const trn_spconvert_desc *d, int64_t *parts) {
    switch (d->fn) {
    case TRN_SPC_CSR_TO_COO: *parts = d->src.rows; return TRN_SP_SPLIT_ROWS;
    case TRN_SPC_BSR_TO_CSR: *parts = d->src.brows; return TRN_SP_SPLIT_ROWS;
    case TRN_SPC_CSR_TO_BSR: *parts = d->dst.brows; return TRN_SP_SPLIT_ROWS;
    case TRN_SPC_DENSE_TO_SPARSE:
        *parts = d->dst.format == TRN_SP_CSC    ? d->dst.cols
                 : d->dst.format == TRN_SP_BELL ? d->dst.brows
                                                : d->dst.rows;
        return TRN_SP_SPLIT_ROWS;
    default: *parts = 1; return TRN_SP_SPLIT_NONE;
    }
}
