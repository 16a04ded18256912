/*
 * sparse_tridiag.c — argument rules of trnsparse's banded solves
 * (SparseBandedOp: cusparse<t>gtsv2, gtsv2_nopivot, gtsv2StridedBatch,
 * gtsvInterleavedBatch, gpsvInterleavedBatch) as cuSPARSE states them,
 * plus the memory-safety checks: each diagonal and x lies inside one of
 * the session's buffers (extents in overflow-checked arithmetic), and x,
 * the one array written, shares no byte with a diagonal (the kernel splits
 * the systems over shards, which would then race).
 *
 * Every layout is a column-major matrix view, so the kit's extents apply:
 * gtsv2's diagonals are m x 1 and B m x n at ldb; the strided batch is
 * m x batchCount at batchStride; the interleaved batches are
 * batchCount x m at batchCount (element i of system k at i*batchCount+k).
 */
#include <stdint.h>

#include "ops/validate/sparse.h"

#include "ops/validate/checked.h"

/* The routine's name in messages, by function (16 ..). */
static const char *banded_name(trn_banded_fn f) {
    switch (f) {
    case TRN_BANDED_GTSV2: return "gtsv2";
    case TRN_BANDED_GTSV2_NOPIVOT: return "gtsv2_nopivot";
    case TRN_BANDED_GTSV2_STRIDED: return "gtsv2StridedBatch";
    case TRN_BANDED_GTSV_INTERLEAVED: return "gtsvInterleavedBatch";
    case TRN_BANDED_GPSV_INTERLEAVED: return "gpsvInterleavedBatch";
    }
    return "banded solve";
}

/* Whether the byte ranges [a, a+na) and [b, b+nb) share a byte (empty
 * ranges share none). */
static int ranges_meet(const void *a, uint64_t na, const void *b, uint64_t nb) {
    if (!a || !b || na == 0 || nb == 0)
        return 0;
    const uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    return pa < pb ? pb - pa < na : pa - pb < nb;
}

static trn_wire_code validate_banded(trn_vctx *vx, const Trnsci__V1__SparseBandedOp *w,
                                     trn_banded_desc *out) {
    *out = (trn_banded_desc){0};
    switch (w->function) {
    case TRNSCI__V1__SPARSE_BANDED__SPARSE_GTSV2: out->fn = TRN_BANDED_GTSV2; break;
    case TRNSCI__V1__SPARSE_BANDED__SPARSE_GTSV2_NOPIVOT: out->fn = TRN_BANDED_GTSV2_NOPIVOT; break;
    case TRNSCI__V1__SPARSE_BANDED__SPARSE_GTSV2_STRIDED: out->fn = TRN_BANDED_GTSV2_STRIDED; break;
    case TRNSCI__V1__SPARSE_BANDED__SPARSE_GTSV_INTERLEAVED:
        out->fn = TRN_BANDED_GTSV_INTERLEAVED;
        break;
    case TRNSCI__V1__SPARSE_BANDED__SPARSE_GPSV_INTERLEAVED:
        out->fn = TRN_BANDED_GPSV_INTERLEAVED;
        break;
    default:
        trn_vmsg(vx, "banded solve: function %d is not GTSV2 .. GPSV_INTERLEAVED (16 .. 20)",
                 (int)w->function);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const char *fn = banded_name(out->fn);
    if (trn_vk_dtype(w->type, &out->type)) {
        trn_vmsg(vx, "%s: data type %d is not R_32F, R_64F, C_32F or C_64F", fn, (int)w->type);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    int m, n = 1, batch = 1, ld = 1;
    trn_wire_code rc = trn_vk_dim(vx, fn, "m", w->m, &m);
    if (rc != TRN_WIRE_OK)
        return rc;
    const int interleaved =
        out->fn == TRN_BANDED_GTSV_INTERLEAVED || out->fn == TRN_BANDED_GPSV_INTERLEAVED;
    /* cuSPARSE's gtsv2 family requires m >= 3 (its cyclic reduction); the
     * interleaved batches state no minimum. */
    if (!interleaved && m < 3) {
        trn_vmsg(vx, "%s: m=%d must be >= 3", fn, m);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (interleaved) {
        const int64_t top = out->fn == TRN_BANDED_GPSV_INTERLEAVED ? 0 : 2;
        if (w->algo < 0 || w->algo > top) {
            trn_vmsg(vx, "%s: algo=%lld is not %s", fn, (long long)w->algo,
                     top == 0 ? "0 (the only algorithm)" : "0 (Thomas), 1 (LU) or 2 (QR)");
            return TRN_WIRE_INVALID_ARGUMENT;
        }
    }
    int rows, cols, dld; /* the column-major view of each diagonal (file comment) */
    switch (out->fn) {
    case TRN_BANDED_GTSV2:
    case TRN_BANDED_GTSV2_NOPIVOT:
        rc = trn_vk_dim(vx, fn, "n", w->n, &n);
        if (rc == TRN_WIRE_OK)
            rc = trn_vk_ld(vx, fn, "ldb", w->ldb, m, "m", &ld);
        if (rc != TRN_WIRE_OK)
            return rc;
        out->elem_stride = 1;
        out->sys_stride = m;
        rows = m;
        cols = 1;
        dld = m;
        break;
    case TRN_BANDED_GTSV2_STRIDED:
        rc = trn_vk_dim(vx, fn, "batchCount", w->batch_count, &batch);
        if (rc != TRN_WIRE_OK)
            return rc;
        if (w->batch_stride < m || w->batch_stride > INT32_MAX) {
            trn_vmsg(vx, "%s: batchStride=%lld must be >= m=%d and <= 2147483647", fn,
                     (long long)w->batch_stride, m);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        ld = (int)w->batch_stride;
        out->elem_stride = 1;
        out->sys_stride = ld;
        rows = m;
        cols = batch;
        dld = ld;
        break;
    default: /* interleaved */
        rc = trn_vk_dim(vx, fn, "batchCount", w->batch_count, &batch);
        if (rc != TRN_WIRE_OK)
            return rc;
        ld = batch > 0 ? batch : 1;
        out->elem_stride = batch;
        out->sys_stride = 1;
        rows = batch;
        cols = m;
        dld = ld;
        break;
    }
    out->m = m;
    out->nrhs = n;
    out->ldb = out->fn == TRN_BANDED_GTSV2 || out->fn == TRN_BANDED_GTSV2_NOPIVOT ? ld : m;
    out->batch = batch;
    out->penta = out->fn == TRN_BANDED_GPSV_INTERLEAVED;
    /* gtsv2, gtsvInterleavedBatch algo 1 and 2 and gpsvInterleavedBatch
     * pivot; gtsv2_nopivot, the strided batch and the Thomas algorithm do
     * not (cuSPARSE's documented behaviour). */
    out->pivot = out->fn == TRN_BANDED_GTSV2 || out->penta ||
                 (out->fn == TRN_BANDED_GTSV_INTERLEAVED && w->algo != 0);
    /* Empty work touches nothing: no array is resolved. */
    const int empty = m == 0 || batch == 0 || n == 0;
    const uint64_t es = trn_dtype_size(out->type), al = trn_vk_align(out->type);
    const int dcols = empty ? 0 : cols;
    struct {
        const Trnsci__V1__BufferRef *ref;
        const char *name;
        void **p;
        int used;
    } diags[] = {
        {w->ds, "ds", &out->ds, out->penta},
        {w->dl, "dl", &out->dl, 1},
        {w->d, "d", &out->d, 1},
        {w->du, "du", &out->du, 1},
        {w->dw, "dw", &out->dw, out->penta},
    };
    for (size_t i = 0; i < sizeof diags / sizeof diags[0]; i++) {
        if (!diags[i].used)
            continue;
        rc = trn_vk_matrix(vx, diags[i].ref, rows, dcols, dld, es, al, fn, diags[i].name,
                           diags[i].p);
        if (rc != TRN_WIRE_OK)
            return rc;
    }
    const int gtsv2 = out->fn == TRN_BANDED_GTSV2 || out->fn == TRN_BANDED_GTSV2_NOPIVOT;
    /* x (gtsv2: B, m x n at ldb) has the diagonals' view otherwise. */
    const int xcols = empty ? 0 : (gtsv2 ? n : cols);
    rc = trn_vk_matrix(vx, w->x, rows, xcols, ld, es, al, fn, gtsv2 ? "B" : "x", &out->x);
    if (rc != TRN_WIRE_OK)
        return rc;
    /* Both extents fit: trn_vk_matrix computed them above. */
    uint64_t dbytes = 0, xbytes = 0;
    (void)ck_matrix_bytes((uint64_t)rows, (uint64_t)dcols, (uint64_t)dld, es, &dbytes);
    (void)ck_matrix_bytes((uint64_t)rows, (uint64_t)xcols, (uint64_t)ld, es, &xbytes);
    for (size_t i = 0; i < sizeof diags / sizeof diags[0]; i++) {
        if (diags[i].used && ranges_meet(out->x, xbytes, *diags[i].p, dbytes)) {
            trn_vmsg(vx, "%s: %s and %s overlap (the solution would overwrite the matrix)", fn,
                     gtsv2 ? "B" : "x", diags[i].name);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
    }
    if (empty)
        out->batch = 0; /* the kernel's test for no work */
    return TRN_WIRE_OK;
}

/* The table's entry (validate.h). */
TRN_VALIDATE_ENTRY(spbanded, validate_banded(vx, op->sparse_banded, &out->u.banded))
