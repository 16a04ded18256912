/*
 * sparse_spgemm.c — argument rules of trnsparse SpGEMM (SpGEMMOp)
 * and SDDMM (SDDMMOp), as cuSPARSE's generic API states them, plus the
 * extents of every array. SpGEMM: CSR x CSR -> CSR, op N on both sides,
 * beta = 0, the row counts buffer (A.rows + 1 int64). SDDMM: dense A and B
 * (op folded into their layouts), CSR or BSR C (cuSPARSE 12's two). Both take real or complex
 * values (C_32F, C_64F; all operands and the compute type one type).
 */
#include <stdio.h>

#include "ops/validate/sparse.h"

static double scalar_re(const Trnsci__V1__Scalar *s) {
    return s ? s->re : 0.0;
}

static trn_wire_code validate_spgemm(trn_vctx *vx, const Trnsci__V1__SpGEMMOp *w,
                                     trn_spgemm_desc *out) {
    *out = (trn_spgemm_desc){0};
    if (w->phase != TRNSCI__V1__SP_GEMMPHASE__SPGEMM_COUNT &&
        w->phase != TRNSCI__V1__SP_GEMMPHASE__SPGEMM_FILL) {
        trn_vmsg(vx, "spgemm: phase %d is not COUNT (1) or FILL (2)", (int)w->phase);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->fill = w->phase == TRNSCI__V1__SP_GEMMPHASE__SPGEMM_FILL;
    const char *fn = out->fill ? "spgemm copy" : "spgemm compute";
    trn_trans opa, opb;
    trn_wire_code rc = trn_vsp_op(vx, fn, "opA", w->op_a, &opa);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_op(vx, fn, "opB", w->op_b, &opb);
    if (rc != TRN_WIRE_OK)
        return rc;
    if (opa != TRN_TRANS_N || opb != TRN_TRANS_N) {
        trn_vmsg(vx, "%s: opA and opB must be NON_TRANSPOSE", fn);
        return TRN_WIRE_UNIMPLEMENTED;
    }
    out->alpha = scalar_re(w->alpha);
    if (scalar_re(w->beta) != 0.0 || (w->beta && w->beta->im != 0.0)) {
        trn_vmsg(vx, "%s: beta must be 0 (C = alpha A B)", fn);
        return TRN_WIRE_UNIMPLEMENTED;
    }
    const unsigned csr = TRN_VSP_FMT(TRN_SP_CSR);
    const unsigned arrays = out->fill ? TRN_VSP_ALL : TRN_VSP_OFFSETS | TRN_VSP_INDICES;
    rc = trn_vsp_matrix(vx, w->a, fn, "matA", csr, arrays | TRN_VSP_COMPLEX, &out->a);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_matrix(vx, w->b, fn, "matB", csr, arrays | TRN_VSP_COMPLEX, &out->b);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_compute(vx, fn, w->compute_type, out->a.type);
    if (rc != TRN_WIRE_OK)
        return rc;
    if (trn_dtype_is_complex(out->a.type))
        out->alpha_im = w->alpha ? w->alpha->im : 0.0;
    if (out->b.type != out->a.type) {
        trn_vmsg(vx, "%s: matA and matB must have the same value type", fn);
        return TRN_WIRE_UNIMPLEMENTED;
    }
    if (out->a.cols != out->b.rows) {
        trn_vmsg(vx, "%s: matA is %lld x %lld but matB has %lld rows", fn, (long long)out->a.rows,
                 (long long)out->a.cols, (long long)out->b.rows);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (out->fill) {
        rc = trn_vsp_matrix(vx, w->c, fn, "matC", csr, TRN_VSP_ALL | TRN_VSP_COMPLEX, &out->c);
        if (rc != TRN_WIRE_OK)
            return rc;
        if (out->c.rows != out->a.rows || out->c.cols != out->b.cols ||
            out->c.type != out->a.type) {
            trn_vmsg(vx, "%s: matC must be %lld x %lld of matA's type", fn, (long long)out->a.rows,
                     (long long)out->b.cols);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
    }
    char what[64];
    snprintf(what, sizeof(what), "%s: externalBuffer2", fn);
    return trn_vregion(vx, w->row_counts, ((uint64_t)out->a.rows + 1) * 8, 8, what, &out->counts);
}

static trn_wire_code validate_sddmm(trn_vctx *vx, const Trnsci__V1__SDDMMOp *w,
                                    trn_sddmm_desc *out) {
    const char *fn = "sddmm";
    *out = (trn_sddmm_desc){0};
    trn_trans opa, opb;
    trn_wire_code rc = trn_vsp_op(vx, fn, "opA", w->op_a, &opa);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_op(vx, fn, "opB", w->op_b, &opb);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_matrix(vx, w->c, fn, "matC", TRN_VSP_FMT(TRN_SP_CSR) | TRN_VSP_FMT(TRN_SP_BSR),
                            TRN_VSP_ALL | TRN_VSP_COMPLEX, &out->c);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_compute(vx, fn, w->compute_type, out->c.type);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_dense(vx, w->a, fn, "matA", out->c.type, 0, 1, &out->a);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_dense(vx, w->b, fn, "matB", out->c.type, 0, 1, &out->b);
    if (rc != TRN_WIRE_OK)
        return rc;
    /* op(X) = X^T is X read in the other order. */
    trn_dn_mat *ops[2] = {&out->a, &out->b};
    const trn_trans tr[2] = {opa, opb};
    for (int i = 0; i < 2; i++)
        if (tr[i] == TRN_TRANS_T) {
            const int64_t r = ops[i]->rows;
            ops[i]->rows = ops[i]->cols;
            ops[i]->cols = r;
            ops[i]->row_major = !ops[i]->row_major;
        }
    if (out->a.cols != out->b.rows || out->c.rows != out->a.rows || out->c.cols != out->b.cols) {
        trn_vmsg(vx,
                 "%s: shapes do not match: op(A) is %lld x %lld, op(B) %lld x %lld, C %lld x %lld",
                 fn, (long long)out->a.rows, (long long)out->a.cols, (long long)out->b.rows,
                 (long long)out->b.cols, (long long)out->c.rows, (long long)out->c.cols);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->alpha = scalar_re(w->alpha);
    out->beta = scalar_re(w->beta);
    /* Complex values: CONJUGATE_TRANSPOSE is X^H, the scalars have an
     * imaginary part. Real ones keep C = T and ignore the im parts. */
    if (trn_dtype_is_complex(out->c.type)) {
        out->conj_a = w->op_a == TRNSCI__V1__OPERATION__OP_C;
        out->conj_b = w->op_b == TRNSCI__V1__OPERATION__OP_C;
        out->alpha_im = w->alpha ? w->alpha->im : 0.0;
        out->beta_im = w->beta ? w->beta->im : 0.0;
    }
    return TRN_WIRE_OK;
}

/* The table's entries (validate.h). */
TRN_VALIDATE_ENTRY(spgemm, validate_spgemm(vx, op->spgemm, &out->u.spgemm))
TRN_VALIDATE_ENTRY(sddmm, validate_sddmm(vx, op->sddmm, &out->u.sddmm))
