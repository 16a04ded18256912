/*
 * sparse_vec.c — argument rules of trnsparse's sparse-vector routines
 * (SparseVectorOp: cusparseSpVV, Axpby, Gather, Scatter, Rot) and of the
 * triangular solves (SpSVOp: cusparseSpSV, cusparseSpSM), as cuSPARSE's
 * generic API states them, plus the memory-safety checks: every array lies
 * inside one of the session's buffers, extents in overflow-checked
 * arithmetic. Index contents are never read here: the kernels check each
 * index they use (kernels/cpu/sparse_vec.c, sparse_spsv.c).
 */
#include <stdint.h>
#include <stdio.h>

#include "ops/validate/sparse.h"

#include "ops/validate/checked.h"

/* The value type of a sparse vector: R_32F, R_64F, C_32F or C_64F (the
 * complex ones since protocol 1.15); anything else is not a type. */
static trn_wire_code vec_type(trn_vctx *vx, const char *fn, const char *name,
                              Trnsci__V1__DataType w, trn_dtype *out) {
    if (trn_vk_dtype(w, out) == 0)
        return TRN_WIRE_OK;
    trn_vmsg(vx, "%s: %s: data type %d is not R_32F, R_64F, C_32F or C_64F", fn, name, (int)w);
    return TRN_WIRE_INVALID_ARGUMENT;
}

/* The sparse vector x: its numbers, then its arrays (resolve: both). */
static trn_wire_code sparse_vector(trn_vctx *vx, const Trnsci__V1__SparseVector *w, const char *fn,
                                   trn_sp_vec *out) {
    *out = (trn_sp_vec){0};
    if (!w) {
        trn_vmsg(vx, "%s: vecX: no sparse vector given", fn);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    trn_wire_code rc = vec_type(vx, fn, "vecX", w->type, &out->type);
    if (rc != TRN_WIRE_OK)
        return rc;
    switch (w->index_type) {
    case TRNSCI__V1__SPARSE_INDEX_TYPE__SPARSE_INDEX_32I: out->idx64 = 0; break;
    case TRNSCI__V1__SPARSE_INDEX_TYPE__SPARSE_INDEX_64I: out->idx64 = 1; break;
    default:
        trn_vmsg(vx,
                 "%s: vecX: index type %d is not CUSPARSE_INDEX_32I (2) or CUSPARSE_INDEX_64I (3)",
                 fn, (int)w->index_type);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (w->index_base > 1) {
        trn_vmsg(vx, "%s: vecX: index base %u is not 0 or 1", fn, w->index_base);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->base = (int)w->index_base;
    /* Every index (position + base) must fit the index type. */
    const int64_t limit = out->idx64 ? INT64_MAX - 1 : INT32_MAX;
    if (w->size < 0 || w->nnz < 0 || w->nnz > w->size || w->size > limit) {
        trn_vmsg(vx,
                 "%s: vecX: size=%lld, nnz=%lld must satisfy 0 <= nnz <= size and size must fit "
                 "the %s index type",
                 fn, (long long)w->size, (long long)w->nnz, out->idx64 ? "64-bit" : "32-bit");
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->size = w->size;
    out->nnz = w->nnz;
    if (out->nnz == 0)
        return TRN_WIRE_OK;
    const uint64_t isz = out->idx64 ? 8 : 4, es = trn_dtype_size(out->type);
    rc = trn_vk_array(vx, w->indices, (uint64_t)out->nnz, isz, isz, fn, "vecX indices",
                      &out->indices);
    if (rc == TRN_WIRE_OK)
        rc = trn_vk_array(vx, w->values, (uint64_t)out->nnz, es, es, fn, "vecX values",
                          &out->values);
    return rc;
}

static trn_wire_code validate_spvec(trn_vctx *vx, const Trnsci__V1__SparseVectorOp *w,
                                    trn_spvec_desc *out) {
    static const char *const names[] = {"", "spvv", "axpby", "gather", "scatter", "rot"};
    *out = (trn_spvec_desc){0};
    if (w->function < TRNSCI__V1__SPARSE_VECTOR_FUNCTION__SPARSE_VECTOR_SPVV ||
        w->function > TRNSCI__V1__SPARSE_VECTOR_FUNCTION__SPARSE_VECTOR_ROT) {
        trn_vmsg(vx, "sparse vector: function %d is not SPVV .. ROT (1 .. 5)", (int)w->function);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->fn = (trn_spvec_fn)w->function;
    const char *fn = names[out->fn];
    trn_wire_code rc = sparse_vector(vx, w->x, fn, &out->x);
    if (rc != TRN_WIRE_OK)
        return rc;
    const trn_dtype t = out->x.type;
    const int cplx = trn_dtype_is_complex(t);
    if (out->fn == TRN_SPVEC_VV) {
        trn_trans op;
        rc = trn_vsp_op(vx, fn, "opX", w->op_x, &op);
        if (rc == TRN_WIRE_OK)
            rc = trn_vsp_compute(vx, fn, w->compute_type, t);
        if (rc != TRN_WIRE_OK)
            return rc;
        /* Complex opX C sums conj(x_k) y[i_k]; real C and T are N. */
        out->conj_x = cplx && w->op_x == TRNSCI__V1__OPERATION__OP_C;
    }
    out->alpha = w->alpha ? w->alpha->re : 0.0;
    out->beta = w->beta ? w->beta->re : 0.0;
    /* Real values ignore the imaginary parts, as cuSPARSE reads a real scalar. */
    out->alpha_im = cplx && w->alpha ? w->alpha->im : 0.0;
    out->beta_im = cplx && w->beta ? w->beta->im : 0.0;
    /* Axpby scales all of y; the others touch y at x's indices only. */
    const int touches_y = out->fn == TRN_SPVEC_AXPBY || out->x.nnz > 0;
    rc = trn_vsp_vector(vx, w->y, fn, "vecY", t, out->x.size, touches_y, &out->y);
    if (rc != TRN_WIRE_OK || out->fn != TRN_SPVEC_VV)
        return rc;
    const uint64_t es = trn_dtype_size(t);
    return trn_vk_array(vx, w->result, 1, es, es, fn, "result", &out->result);
}

static trn_wire_code validate_spsv(trn_vctx *vx, const Trnsci__V1__SpSVOp *w, trn_spsv_desc *out) {
    const int sm = w->spsm;
    const char *fn = w->analysis_only ? (sm ? "spsm analysis" : "spsv analysis")
                                      : (sm ? "spsm solve" : "spsv solve");
    *out = (trn_spsv_desc){0};
    trn_trans opb;
    trn_wire_code rc = trn_vsp_op(vx, fn, "opA", w->op_a, &out->op_a);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_op(vx, fn, "opB", w->op_b, &opb);
    if (rc != TRN_WIRE_OK)
        return rc;
    if (trn_vk_uplo(w->fill_mode, &out->uplo)) {
        trn_vmsg(vx,
                 "%s: matA: fill mode %d is not TRNSPARSE_FILL_MODE_LOWER (0) or _UPPER (1) "
                 "(trnsparseSpMatSetAttribute)",
                 fn, (int)w->fill_mode);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (trn_vk_diag(w->diag_type, &out->diag)) {
        trn_vmsg(vx,
                 "%s: matA: diagonal type %d is not TRNSPARSE_DIAG_TYPE_NON_UNIT (0) or _UNIT (1)",
                 fn, (int)w->diag_type);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->analysis = w->analysis_only != 0;
    out->alpha = w->alpha ? w->alpha->re : 0.0;
    rc =
        trn_vsp_matrix(vx, w->a, fn, "matA",
                       TRN_VSP_FMT(TRN_SP_CSR) | TRN_VSP_FMT(TRN_SP_COO) | TRN_VSP_FMT(TRN_SP_SELL),
                       TRN_VSP_ALL | TRN_VSP_COMPLEX, &out->a);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_compute(vx, fn, w->compute_type, out->a.type);
    if (rc != TRN_WIRE_OK)
        return rc;
    /* Complex values: CONJUGATE_TRANSPOSE is A^H (B^H), alpha has an
     * imaginary part. Real ones keep C = T and ignore alpha's im. */
    if (trn_dtype_is_complex(out->a.type)) {
        if (w->op_a == TRNSCI__V1__OPERATION__OP_C)
            out->op_a = TRN_TRANS_C;
        out->conj_b = w->op_b == TRNSCI__V1__OPERATION__OP_C;
        out->alpha_im = w->alpha ? w->alpha->im : 0.0;
    }
    if (out->a.rows != out->a.cols) {
        trn_vmsg(vx, "%s: matA is %lld x %lld: a triangular solve needs a square matrix", fn,
                 (long long)out->a.rows, (long long)out->a.cols);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    /* B and C are resolved by the analysis too, which does not touch them:
     * their extents are what bound n for a COO matrix (whose arrays have nnz
     * entries, not n), and so the kernel's scratch. */
    rc = trn_vsp_dense(vx, w->b, fn, sm ? "matB" : "vecX", out->a.type, 0, 1, &out->b);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_dense(vx, w->c, fn, sm ? "matC" : "vecY", out->a.type, 0, 1, &out->c);
    if (rc != TRN_WIRE_OK)
        return rc;
    if (opb == TRN_TRANS_T) { /* op(B) = B^T (B^H) is B read in the other order */
        const int64_t r = out->b.rows;
        out->b.rows = out->b.cols;
        out->b.cols = r;
        out->b.row_major = !out->b.row_major;
    }
    const int64_t n = out->a.rows;
    if (out->b.rows != n || out->c.rows != n || out->c.cols != out->b.cols) {
        if (sm)
            trn_vmsg(
                vx,
                "%s: shapes do not match: matA is %lld x %lld, op(B) %lld x %lld, C %lld x %lld",
                fn, (long long)n, (long long)n, (long long)out->b.rows, (long long)out->b.cols,
                (long long)out->c.rows, (long long)out->c.cols);
        else
            trn_vmsg(vx, "%s: sizes do not match: matA is %lld x %lld, vecX has %lld, vecY %lld",
                     fn, (long long)n, (long long)n, (long long)out->b.rows,
                     (long long)out->c.rows);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    return TRN_WIRE_OK;
}

/* The table's entries (validate.h). */
TRN_VALIDATE_ENTRY(spvec, validate_spvec(vx, op->sparse_vector, &out->u.spvec))
TRN_VALIDATE_ENTRY(spsv, validate_spsv(vx, op->spsv, &out->u.spsv))
