/*
 * sparse_ilu.c — argument rules of trnsparse's incomplete factorisations
 * (SpIlu0Op: cusparse<t>csric02, csrilu02 and their _analysis): a square
 * CSR matrix of a real type with 32-bit indices (the legacy API's), its
 * values resolved unless the op is the analysis, and the pivot slot (one
 * int32) outside A's arrays. Contents are never read here: the kernel
 * checks each offset and index it uses.
 */
#include <stdint.h>

#include "ops/validate/sparse.h"

static int meet(const void *a, uint64_t na, const void *b, uint64_t nb) {
    if (!a || !b || !na || !nb)
        return 0;
    const uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    return pa < pb ? pb - pa < na : pa - pb < nb;
}

static trn_wire_code validate_spilu0(trn_vctx *vx, const Trnsci__V1__SpIlu0Op *w,
                                     trn_spilu0_desc *out) {
    *out = (trn_spilu0_desc){0};
    out->cholesky = w->cholesky != 0;
    out->analysis = w->analysis != 0;
    const char *fn = out->cholesky ? (out->analysis ? "csric02_analysis" : "csric02")
                                   : (out->analysis ? "csrilu02_analysis" : "csrilu02");
    const unsigned arrays = out->analysis ? TRN_VSP_OFFSETS | TRN_VSP_INDICES : TRN_VSP_ALL;
    trn_wire_code rc = trn_vsp_matrix(vx, w->a, fn, "A", TRN_VSP_FMT(TRN_SP_CSR),
                                      arrays | TRN_VSP_COMPLEX, &out->a);
    if (rc != TRN_WIRE_OK)
        return rc;
    const trn_sp_mat *a = &out->a;
    if (a->rows != a->cols) {
        trn_vmsg(vx, "%s: A is %lld x %lld: the factorisation needs a square matrix", fn,
                 (long long)a->rows, (long long)a->cols);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (a->idx64) {
        trn_vmsg(vx, "%s: A must have 32-bit offsets and indices", fn);
        return TRN_WIRE_UNIMPLEMENTED;
    }
    void *pv = NULL;
    rc = trn_vk_array(vx, w->pivot, 1, 4, 4, fn, "info (its pivot slot)", &pv);
    if (rc != TRN_WIRE_OK)
        return rc;
    out->pivot = pv;
    const uint64_t es = trn_dtype_size(a->type);
    if (meet(pv, 4, a->offsets, ((uint64_t)a->rows + 1) * 4) ||
        meet(pv, 4, a->indices, (uint64_t)a->nnz * 4) ||
        meet(pv, 4, a->values, (uint64_t)a->nnz * es) ||
        meet(a->values, (uint64_t)a->nnz * es, a->offsets, ((uint64_t)a->rows + 1) * 4) ||
        meet(a->values, (uint64_t)a->nnz * es, a->indices, (uint64_t)a->nnz * 4)) {
        trn_vmsg(vx, "%s: A's values, its structure and the info's pivot slot overlap", fn);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    return TRN_WIRE_OK;
}

/* The table's entry (validate.h). */
TRN_VALIDATE_ENTRY(spilu0, validate_spilu0(vx, op->spilu0, &out->u.spilu0))
