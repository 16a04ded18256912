/*
 * sparse_geam.c — argument rules of trnsparse's C = alpha A + beta B
 * (SpGeamOp: cusparseXcsrgeam2Nnz, cusparse<t>csrgeam2) plus the extents of
 * every array: A, B and C are CSR of one type (real, or complex since 1.15)
 * and one shape; the
 * count pass resolves A's and B's structure and C's offsets only, the fill
 * everything (A's or B's values not when its scalar is 0). C's arrays may
 * not overlap A's or B's (the fill writes C while reading them, split over
 * shards). Contents are never read here: the kernel checks each offset
 * and index it uses.
 */
#include <stdint.h>

#include "ops/validate/sparse.h"

/* Whether two resolved regions of na and nb bytes share a byte. */
static int meet(const void *a, uint64_t na, const void *b, uint64_t nb) {
    if (!a || !b || !na || !nb)
        return 0;
    const uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    return pa < pb ? pb - pa < na : pa - pb < nb;
}

static trn_wire_code validate_spgeam(trn_vctx *vx, const Trnsci__V1__SpGeamOp *w,
                                     trn_spgeam_desc *out) {
    *out = (trn_spgeam_desc){0};
    out->fill = w->fill != 0;
    const char *fn = out->fill ? "csrgeam2" : "Xcsrgeam2Nnz";
    out->alpha = w->alpha ? w->alpha->re : 0.0;
    out->beta = w->beta ? w->beta->re : 0.0;
    const double alpha_im = w->alpha ? w->alpha->im : 0.0, beta_im = w->beta ? w->beta->im : 0.0;
    const unsigned csr = TRN_VSP_FMT(TRN_SP_CSR);
    const unsigned structure = TRN_VSP_OFFSETS | TRN_VSP_INDICES | TRN_VSP_COMPLEX;
    const int reads_a = out->alpha != 0.0 || alpha_im != 0.0;
    const int reads_b = out->beta != 0.0 || beta_im != 0.0;
    const unsigned aa = structure | (out->fill && reads_a ? TRN_VSP_VALUES : 0);
    const unsigned ba = structure | (out->fill && reads_b ? TRN_VSP_VALUES : 0);
    trn_wire_code rc = trn_vsp_matrix(vx, w->a, fn, "A", csr, aa, &out->a);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_matrix(vx, w->b, fn, "B", csr, ba, &out->b);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_matrix(vx, w->c, fn, "C", csr,
                            (out->fill ? TRN_VSP_ALL : TRN_VSP_OFFSETS) | TRN_VSP_COMPLEX, &out->c);
    if (rc != TRN_WIRE_OK)
        return rc;
    /* The imaginary parts of the scalars count for complex values only
     * (a real routine sends 0). */
    if (trn_dtype_is_complex(out->a.type)) {
        out->alpha_im = alpha_im;
        out->beta_im = beta_im;
    }
    const trn_sp_mat *a = &out->a, *b = &out->b, *c = &out->c;
    if (b->rows != a->rows || b->cols != a->cols || c->rows != a->rows || c->cols != a->cols) {
        trn_vmsg(vx, "%s: A is %lld x %lld, B %lld x %lld, C %lld x %lld: they must match", fn,
                 (long long)a->rows, (long long)a->cols, (long long)b->rows, (long long)b->cols,
                 (long long)c->rows, (long long)c->cols);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (b->type != a->type || c->type != a->type) {
        trn_vmsg(vx, "%s: A, B and C must have one value type", fn);
        return TRN_WIRE_UNIMPLEMENTED;
    }
    /* What is written (C's offsets, or its indices and values) must not
     * overlap what is read. */
    const uint64_t isz_a = a->idx64 ? 8 : 4, isz_b = b->idx64 ? 8 : 4, isz_c = c->idx64 ? 8 : 4;
    const uint64_t es = trn_dtype_size(a->type);
    const struct {
        const void *p;
        uint64_t n;
    } reads[] = {
        {a->offsets, ((uint64_t)a->rows + 1) * isz_a},
        {a->indices, (uint64_t)a->nnz * isz_a},
        {a->values, (uint64_t)a->nnz * es},
        {b->offsets, ((uint64_t)b->rows + 1) * isz_b},
        {b->indices, (uint64_t)b->nnz * isz_b},
        {b->values, (uint64_t)b->nnz * es},
    };
    const struct {
        const void *p;
        uint64_t n;
    } writes[] = {
        {c->offsets, ((uint64_t)c->rows + 1) * isz_c},
        {c->indices, (uint64_t)c->nnz * isz_c},
        {c->values, (uint64_t)c->nnz * es},
    };
    for (size_t i = 0; i < sizeof writes / sizeof writes[0]; i++)
        for (size_t j = 0; j < sizeof reads / sizeof reads[0]; j++)
            if (meet(writes[i].p, writes[i].n, reads[j].p, reads[j].n)) {
                trn_vmsg(vx, "%s: C's arrays overlap A's or B's", fn);
                return TRN_WIRE_INVALID_ARGUMENT;
            }
    return TRN_WIRE_OK;
}

/* The table's entry (validate.h). */
TRN_VALIDATE_ENTRY(spgeam, validate_spgeam(vx, op->spgeam, &out->u.spgeam))
