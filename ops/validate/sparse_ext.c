/*
 * sparse_ext.c — argument rules of trnsparse's trnsci extensions:
 * block-sparse attention (BlockSparseAttentionOp: the BSR pattern's
 * structure and the shapes and batches of Q, K, V, O) and Schwarz bounds
 * (SchwarzBoundsOp). The screened SpMM is SpMMOp with bounds
 * (sparse.c).
 */
#include <math.h>
#include <stdio.h>

#include "ops/validate/sparse.h"

static trn_wire_code validate_attention(trn_vctx *vx, const Trnsci__V1__BlockSparseAttentionOp *w,
                                        trn_attn_desc *out) {
    const char *fn = "block-sparse attention";
    *out = (trn_attn_desc){0};
    trn_dtype t;
    trn_wire_code rc = trn_vk_real_dtype(vx, fn, "computeType", w->compute_type, &t);
    if (rc != TRN_WIRE_OK)
        return rc;
    out->scale = w->scale ? w->scale->re : 0.0;
    if (!isfinite(out->scale)) {
        trn_vmsg(vx, "%s: scale is not finite", fn);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    rc = trn_vsp_matrix(vx, w->pattern, fn, "pattern", TRN_VSP_FMT(TRN_SP_BSR),
                        TRN_VSP_OFFSETS | TRN_VSP_INDICES, &out->pattern);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_dense(vx, w->q, fn, "matQ", t, 1, 1, &out->q);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_dense(vx, w->k, fn, "matK", t, 1, 1, &out->k);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_dense(vx, w->v, fn, "matV", t, 1, 1, &out->v);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_dense(vx, w->o, fn, "matO", t, 1, 1, &out->o);
    if (rc != TRN_WIRE_OK)
        return rc;
    const trn_sp_mat *p = &out->pattern;
    if (out->q.rows != p->rows || out->k.rows != p->cols || out->k.cols != out->q.cols ||
        out->v.rows != out->k.rows || out->o.rows != out->q.rows || out->o.cols != out->v.cols) {
        trn_vmsg(vx,
                 "%s: shapes do not match: the pattern is %lld x %lld (blocks of %lld x %lld), Q "
                 "%lld x %lld, K %lld x %lld, V %lld x %lld, O %lld x %lld",
                 fn, (long long)p->rows, (long long)p->cols, (long long)p->rb, (long long)p->cb,
                 (long long)out->q.rows, (long long)out->q.cols, (long long)out->k.rows,
                 (long long)out->k.cols, (long long)out->v.rows, (long long)out->v.cols,
                 (long long)out->o.rows, (long long)out->o.cols);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (out->k.batch != out->q.batch || out->v.batch != out->q.batch ||
        out->o.batch != out->q.batch) {
        trn_vmsg(vx, "%s: Q, K, V and O must have the same batch count", fn);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    return TRN_WIRE_OK;
}

static trn_wire_code validate_schwarz(trn_vctx *vx, const Trnsci__V1__SchwarzBoundsOp *w,
                                      trn_schwarz_desc *out) {
    const char *fn = "schwarz bounds";
    *out = (trn_schwarz_desc){0};
    if (w->block_size < 1) {
        trn_vmsg(vx, "%s: blockSize %lld must be >= 1", fn, (long long)w->block_size);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    trn_dtype t;
    trn_wire_code rc = trn_vk_real_dtype(vx, fn, "diag", w->diag ? w->diag->type : 0, &t);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_vector(vx, w->diag, fn, "diag", t, -1, 1, &out->diag);
    if (rc != TRN_WIRE_OK)
        return rc;
    const int64_t nb = (out->diag.rows + w->block_size - 1) / w->block_size;
    out->block_size = w->block_size;
    return trn_vsp_vector(vx, w->bounds, fn, "bounds", t, nb, 1, &out->bounds);
}

/* The table's entries (validate.h). */
TRN_VALIDATE_ENTRY(spattn, validate_attention(vx, op->sparse_attention, &out->u.attn))
TRN_VALIDATE_ENTRY(schwarz, validate_schwarz(vx, op->schwarz_bounds, &out->u.schwarz))
