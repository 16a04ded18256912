/*
 * sparse_convert.c — argument rules of trnsparse's format
 * conversions (SparseConvertOp): which formats each conversion takes, which
 * arrays it reads and writes (only those are resolved), and how the source's
 * and the destination's shapes must relate. Contents are the kernels' to
 * check (kernels/cpu/sparse_convert.c).
 */
#include <stdint.h>
#include <stdio.h>

#include "ops/validate/sparse.h"

static const char *convert_name(Trnsci__V1__SparseConvert f) {
    switch (f) {
    case TRNSCI__V1__SPARSE_CONVERT__SPARSE_CSR_TO_COO: return "csr2coo";
    case TRNSCI__V1__SPARSE_CONVERT__SPARSE_COO_TO_CSR: return "coo2csr";
    case TRNSCI__V1__SPARSE_CONVERT__SPARSE_CSR_TO_CSC: return "csr2csc";
    case TRNSCI__V1__SPARSE_CONVERT__SPARSE_CSR_TO_BSR_NNZ: return "csr2bsrNnz";
    case TRNSCI__V1__SPARSE_CONVERT__SPARSE_CSR_TO_BSR: return "csr2bsr";
    case TRNSCI__V1__SPARSE_CONVERT__SPARSE_BSR_TO_CSR: return "bsr2csr";
    case TRNSCI__V1__SPARSE_CONVERT__SPARSE_DENSE_TO_SPARSE_ANALYSIS:
        return "denseToSparse_analysis";
    case TRNSCI__V1__SPARSE_CONVERT__SPARSE_DENSE_TO_SPARSE: return "denseToSparse_convert";
    case TRNSCI__V1__SPARSE_CONVERT__SPARSE_SPARSE_TO_DENSE: return "sparseToDense";
    default: return NULL;
    }
}

#define F(x) TRN_VSP_FMT(TRN_SP_##x)
/* Conversions copy values as bytes (adding only duplicates, part by part):
 * every one takes complex values. */
#define CX TRN_VSP_COMPLEX

static trn_wire_code mismatch(trn_vctx *vx, const char *fn, const char *rule) {
    trn_vmsg(vx, "%s: %s", fn, rule);
    return TRN_WIRE_INVALID_ARGUMENT;
}

/* Counts up to `most` (plus the base) must fit m's index type. */
static trn_wire_code fits(trn_vctx *vx, const char *fn, const char *name, const trn_sp_mat *m,
                          int64_t most) {
    const int64_t limit = m->idx64 ? INT64_MAX - 1 : INT32_MAX;
    if (most <= limit - m->base)
        return TRN_WIRE_OK;
    trn_vmsg(vx, "%s: %s: up to %lld entries do not fit its 32-bit index type", fn, name,
             (long long)most);
    return TRN_WIRE_INVALID_ARGUMENT;
}

static trn_wire_code validate_spconvert(trn_vctx *vx, const Trnsci__V1__SparseConvertOp *w,
                                        trn_spconvert_desc *out) {
    *out = (trn_spconvert_desc){0};
    const char *fn = convert_name(w->function);
    if (!fn) {
        trn_vmsg(vx, "sparse convert: function %d is not a conversion", (int)w->function);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->fn = (trn_spc_fn)w->function; /* same values */
    trn_sp_mat *src = &out->src, *dst = &out->dst;
    trn_wire_code rc = TRN_WIRE_OK;
    const unsigned rows_fmts = F(CSR) | F(CSC);
    switch (out->fn) {
    case TRN_SPC_CSR_TO_COO:
    case TRN_SPC_COO_TO_CSR: {
        const int to_coo = out->fn == TRN_SPC_CSR_TO_COO;
        rc = trn_vsp_matrix(vx, w->src, fn, "src", to_coo ? F(CSR) : F(COO),
                            to_coo ? TRN_VSP_OFFSETS : TRN_VSP_ROWIND, src);
        if (rc == TRN_WIRE_OK)
            rc = trn_vsp_matrix(vx, w->dst, fn, "dst", to_coo ? F(COO) : F(CSR),
                                to_coo ? TRN_VSP_ROWIND : TRN_VSP_OFFSETS, dst);
        if (rc == TRN_WIRE_OK && (src->rows != dst->rows || src->nnz != dst->nnz))
            rc = mismatch(vx, fn, "src and dst must have the same rows and nnz");
        return rc;
    }
    case TRN_SPC_CSR_TO_CSC:
        out->values = !w->structure_only;
        rc = trn_vsp_matrix(
            vx, w->src, fn, "src", F(CSR),
            TRN_VSP_OFFSETS | TRN_VSP_INDICES | (out->values ? TRN_VSP_VALUES : 0) | CX, src);
        if (rc == TRN_WIRE_OK)
            rc = trn_vsp_matrix(vx, w->dst, fn, "dst", F(CSC),
                                TRN_VSP_STRUCTURE | (out->values ? TRN_VSP_VALUES : 0) | CX, dst);
        if (rc == TRN_WIRE_OK &&
            (src->rows != dst->rows || src->cols != dst->cols || src->nnz != dst->nnz))
            return mismatch(vx, fn, "the CSC matrix must have the CSR matrix's rows, cols and nnz");
        if (rc == TRN_WIRE_OK && out->values && src->type != dst->type)
            return mismatch(vx, fn, "the value types must match");
        return rc;
    case TRN_SPC_CSR_TO_BSR_NNZ:
    case TRN_SPC_CSR_TO_BSR: {
        /* Blocks of rowBlockDim x colBlockDim (1.15; square before it):
         * csr2bsr is csr2gebsr with equal dimensions. */
        const int fill = out->fn == TRN_SPC_CSR_TO_BSR;
        rc = trn_vsp_matrix(vx, w->src, fn, "src", F(CSR),
                            TRN_VSP_OFFSETS | TRN_VSP_INDICES | (fill ? TRN_VSP_VALUES : 0) | CX,
                            src);
        if (rc == TRN_WIRE_OK)
            rc = trn_vsp_matrix(vx, w->dst, fn, "dst", F(BSR),
                                (fill ? TRN_VSP_ALL : TRN_VSP_OFFSETS) | CX, dst);
        if (rc != TRN_WIRE_OK)
            return rc;
        if (dst->brows != (src->rows + dst->rb - 1) / dst->rb ||
            dst->bcols != (src->cols + dst->cb - 1) / dst->cb)
            return mismatch(vx, fn,
                            "the BSR matrix must have ceil(m / rowBlockDim) x ceil(n / "
                            "colBlockDim) blocks");
        if (fill && src->type != dst->type)
            return mismatch(vx, fn, "the value types must match");
        return fits(vx, fn, "dst", dst, src->nnz);
    }
    case TRN_SPC_BSR_TO_CSR:
        /* structure_only (1.15): offsets and column indices only, as the
         * first half of Xgebsr2gebsrNnz needs. */
        out->values = !w->structure_only;
        rc = trn_vsp_matrix(vx, w->src, fn, "src", F(BSR),
                            TRN_VSP_STRUCTURE | (out->values ? TRN_VSP_VALUES : 0) | CX, src);
        if (rc == TRN_WIRE_OK)
            rc = trn_vsp_matrix(vx, w->dst, fn, "dst", F(CSR),
                                TRN_VSP_STRUCTURE | (out->values ? TRN_VSP_VALUES : 0) | CX, dst);
        if (rc != TRN_WIRE_OK)
            return rc;
        /* The CSR arrays' room for the blocks' elements is checked by the
         * kernel, against the block offsets it reads. */
        if (dst->rows != src->rows || dst->cols != src->cols ||
            (out->values && src->type != dst->type))
            return mismatch(vx, fn,
                            "the CSR matrix must be mb*rowBlockDim x nb*colBlockDim, of the same "
                            "type");
        return TRN_WIRE_OK;
    case TRN_SPC_DENSE_TO_SPARSE_ANALYSIS:
    case TRN_SPC_DENSE_TO_SPARSE:
    case TRN_SPC_SPARSE_TO_DENSE: {
        const int to_dense = out->fn == TRN_SPC_SPARSE_TO_DENSE;
        const int analysis = out->fn == TRN_SPC_DENSE_TO_SPARSE_ANALYSIS;
        trn_sp_mat *sp = to_dense ? src : dst;
        rc = trn_vsp_matrix(vx, to_dense ? w->src : w->dst, fn, to_dense ? "matA" : "matB",
                            to_dense   ? (rows_fmts | F(COO) | F(BSR))
                            : analysis ? rows_fmts
                                       : (rows_fmts | F(BELL)),
                            (analysis ? TRN_VSP_OFFSETS : TRN_VSP_ALL) | CX, sp);
        if (rc == TRN_WIRE_OK && sp->format == TRN_SP_BELL && trn_dtype_is_complex(sp->type)) {
            trn_vmsg(vx, "%s: matB: complex Blocked-ELL matrices are not supported", fn);
            return TRN_WIRE_UNIMPLEMENTED;
        }
        if (rc == TRN_WIRE_OK)
            rc = trn_vsp_dense(vx, w->dense, fn, to_dense ? "matB" : "matA", sp->type, 0, 1,
                               &out->dense);
        if (rc != TRN_WIRE_OK)
            return rc;
        if (out->dense.rows != sp->rows || out->dense.cols != sp->cols)
            return mismatch(vx, fn, "the dense and the sparse matrix must have the same shape");
        if (analysis) {
            uint64_t most;
            if (__builtin_mul_overflow((uint64_t)sp->rows, (uint64_t)sp->cols, &most) ||
                most > INT64_MAX)
                most = INT64_MAX;
            return fits(vx, fn, "matB", sp, (int64_t)most);
        }
        return TRN_WIRE_OK;
    }
    }
    return TRN_WIRE_INVALID_ARGUMENT;
}

/* The table's entries (validate.h). */
TRN_VALIDATE_ENTRY(spconvert, validate_spconvert(vx, op->sparse_convert, &out->u.spconvert))
