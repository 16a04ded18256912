/*
 * sparse_ell.c — the argument rules of trnsparse's Blocked-ELL and
 * Sliced-ELL matrices (cusparseCreateBlockedEll, cusparseCreateSlicedEll)
 * and of strided batches of CSR and COO matrices (cusparseCsrSetStridedBatch,
 * cusparseCooSetStridedBatch), the parts of trn_vsp_matrix (sparse.c) that
 * only these take.
 *
 * As for the other formats, only numbers and extents are checked here:
 * every array must lie inside one of the session's buffers, its extent
 * computed in overflow-checked arithmetic. Block column indices, column
 * indices and slice offsets are client memory, checked by the kernel as it
 * reads them (kernels/cpu/sparse_ell.c); what is checked here makes those
 * checks sufficient: every index that passes them addresses an element of
 * the arrays resolved here.
 */
#include <stdint.h>

#include "ops/sparse_names.h"
#include "ops/validate/checked.h"
#include "ops/validate/sparse.h"

static uint64_t comp_size(trn_dtype t) {
    return trn_vk_align(t); /* 16-bit values (SpMV, SpMM): 2 */
}

/* ceil(n / d) for n >= 0, d >= 1. */
static int64_t ceil_div(int64_t n, int64_t d) {
    return n / d + (n % d != 0);
}

trn_wire_code trn_vsp_ell(trn_vctx *vx, const Trnsci__V1__SparseMatrix *w, const char *fn,
                          const char *name, unsigned arrays, trn_sp_mat *out) {
    const trn_sp_format f = out->format;
    const char *what = trn_sp_format_name(f);
    if (w->batch_count > 1 || w->batch_count < 0) {
        trn_vmsg(vx, "%s: %s: batch count %lld: %s matrices are not batched", fn, name,
                 (long long)w->batch_count, what);
        return w->batch_count < 0 ? TRN_WIRE_INVALID_ARGUMENT : TRN_WIRE_UNIMPLEMENTED;
    }
    /* Every index the arrays hold (column + base, offset + base) must be
     * representable in the index type. */
    const int64_t limit = out->idx64 ? INT64_MAX - 1 : INT32_MAX;
    if (w->rows < 0 || w->cols < 0 || w->rows > limit || w->cols > limit - out->base) {
        trn_vmsg(vx, "%s: %s: rows=%lld, cols=%lld must be >= 0 and fit the %s index type", fn,
                 name, (long long)w->rows, (long long)w->cols, out->idx64 ? "64-bit" : "32-bit");
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const int64_t bs = w->row_block;
    if (bs < 1 || bs > INT32_MAX) {
        trn_vmsg(vx, "%s: %s: %s %lld must be >= 1 and fit in int", fn, name,
                 f == TRN_SP_BELL ? "ellBlockSize" : "sliceSize", (long long)bs);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->rows = w->rows;
    out->cols = w->cols;
    out->rb = bs;
    out->brows = ceil_div(w->rows, bs);
    uint64_t nidx, nval, noff = 0;
    if (f == TRN_SP_BELL) {
        out->cb = bs;
        out->bcols = ceil_div(w->cols, bs);
        if (w->ell_cols < 0 || w->ell_cols % bs != 0 || w->ell_cols > out->bcols * bs) {
            trn_vmsg(vx,
                     "%s: %s: ellCols=%lld must be a multiple of ellBlockSize=%lld in [0, %lld] "
                     "(the block columns of %lld columns)",
                     fn, name, (long long)w->ell_cols, (long long)bs, (long long)(out->bcols * bs),
                     (long long)w->cols);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        out->ell_cols = w->ell_cols;
        if (ck_mul((uint64_t)out->brows, (uint64_t)(w->ell_cols / bs), &nidx) ||
            ck_mul((uint64_t)w->rows, (uint64_t)w->ell_cols, &nval) || nval > INT64_MAX) {
            trn_vmsg(vx, "%s: %s: %lld rows of %lld ELL columns overflow 64 bits", fn, name,
                     (long long)w->rows, (long long)w->ell_cols);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
    } else {
        out->cb = 1;
        out->bcols = w->cols;
        if (w->values_size < 0 || w->values_size > limit - out->base || w->nnz < 0 ||
            w->nnz > w->values_size) {
            trn_vmsg(
                vx,
                "%s: %s: sellValuesSize=%lld must be >= 0 and fit the index type, and nnz=%lld "
                "in [0, sellValuesSize]",
                fn, name, (long long)w->values_size, (long long)w->nnz);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        nidx = nval = (uint64_t)w->values_size;
        noff = (uint64_t)out->brows + 1;
    }
    out->nnz = (int64_t)nidx;
    if (!arrays)
        return TRN_WIRE_OK;
    const uint64_t isz = out->idx64 ? 8 : 4;
    trn_wire_code rc = TRN_WIRE_OK;
    if ((arrays & TRN_VSP_OFFSETS) && f == TRN_SP_SELL)
        rc = trn_vsp_array(vx, w->offsets, noff, isz, isz, fn, name,
                           trn_sp_array_name(f, TRN_SP_OFFSETS), &out->offsets);
    if (rc == TRN_WIRE_OK && (arrays & TRN_VSP_INDICES))
        rc = trn_vsp_array(vx, w->indices, nidx, isz, isz, fn, name,
                           trn_sp_array_name(f, TRN_SP_INDICES), &out->indices);
    if (rc == TRN_WIRE_OK && (arrays & TRN_VSP_VALUES))
        rc = trn_vsp_array(vx, w->values, nval, trn_dtype_size(out->type), comp_size(out->type), fn,
                           name, trn_sp_array_name(f, TRN_SP_VALUES), &out->values);
    return rc;
}

/* (batch - 1) * stride + one, or 1 on overflow. */
static int span(uint64_t batch, uint64_t stride, uint64_t one, uint64_t *out) {
    uint64_t t;
    return ck_mul(batch - 1, stride, &t) || ck_add(t, one, out);
}

trn_wire_code trn_vsp_batch(trn_vctx *vx, const Trnsci__V1__SparseMatrix *w, const char *fn,
                            const char *name, trn_sp_format f, uint64_t noff, uint64_t nval,
                            uint64_t *noff_all, uint64_t *nnz_all, uint64_t *nval_all,
                            trn_sp_mat *out) {
    if (f != TRN_SP_CSR && f != TRN_SP_COO) {
        trn_vmsg(vx, "%s: %s: batches of %s matrices are not supported (CSR, COO)", fn, name,
                 trn_sp_format_name(f));
        return TRN_WIRE_UNIMPLEMENTED;
    }
    const int64_t ostride = f == TRN_SP_CSR ? w->offsets_batch_stride : 0;
    if (w->batch_count > INT32_MAX || ostride < 0 || w->batch_stride < 0) {
        trn_vmsg(vx,
                 "%s: %s: batchCount=%lld must fit in int and the batch strides (offsets %lld, "
                 "columns and values %lld) be >= 0",
                 fn, name, (long long)w->batch_count, (long long)ostride,
                 (long long)w->batch_stride);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const uint64_t b = (uint64_t)w->batch_count;
    if (span(b, (uint64_t)ostride, noff, noff_all) ||
        span(b, (uint64_t)w->batch_stride, (uint64_t)w->nnz, nnz_all) ||
        span(b, (uint64_t)w->batch_stride, nval, nval_all) || *nval_all > INT64_MAX ||
        *noff_all > INT64_MAX) {
        trn_vmsg(vx, "%s: %s: the extent of %lld batched matrices overflows 64 bits", fn, name,
                 (long long)w->batch_count);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->batch = w->batch_count;
    out->off_stride = ostride;
    out->stride = w->batch_stride;
    return TRN_WIRE_OK;
}
