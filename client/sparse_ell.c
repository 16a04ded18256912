/*
 * sparse_ell.c — trnsparse's Blocked-ELL and Sliced-ELL descriptors and the
 * strided batches of CSR and COO descriptors. Like the other Create*
 * routines these record what the caller passed after checking the numbers
 * that can be judged alone (block and slice sizes, ellCols a multiple of
 * the block size, nnz within sellValuesSize, batch count and strides);
 * the routines that send a descriptor have the daemon check the extents
 * against device memory (ops/validate/sparse_ell.c).
 */
#include <stdint.h>

#include "client/sparse_internal.h"

#define NEED(d, fn)                                                                                \
    do {                                                                                           \
        if (!(d))                                                                                  \
            return trn_sparse_fail(trnsciErrorInvalidValue, "%s: the descriptor is NULL", fn);     \
    } while (0)
#define PUT(p, v)                                                                                  \
    do {                                                                                           \
        if (p)                                                                                     \
            *(p) = (v);                                                                            \
    } while (0)

static trnsparseStatus_t ok(void) {
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

/* ---- Blocked-ELL ------------------------------------------------------------------ */

static trnsparseStatus_t make_bell(const char *fn, trnsparseSpMatDescr_t *out, int64_t rows,
                                   int64_t cols, int64_t bs, int64_t ellCols, const void *colInd,
                                   const void *values, trnsparseIndexType_t idxType,
                                   trnsparseIndexBase_t base, trnsciDataType valueType) {
    if (bs < 1 || ellCols < 0 || ellCols % bs != 0)
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: ellBlockSize=%lld must be >= 1 and ellCols=%lld a multiple of "
                               "it, >= 0",
                               fn, (long long)bs, (long long)ellCols);
    if (rows > 0 && ellCols > INT64_MAX / rows)
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: rows=%lld times ellCols=%lld overflows 64 bits", fn,
                               (long long)rows, (long long)ellCols);
    const struct trnsparseSpMatDescr d = {
        .format = TRNSPARSE_FORMAT_BLOCKED_ELL,
        .rows = rows,
        .cols = cols,
        .nnz = rows > 0 ? rows * ellCols : 0,
        .rb = bs,
        .cb = bs,
        .order = TRNSPARSE_ORDER_ROW,
        .indices = (void *)colInd,
        .values = (void *)values,
        .offType = idxType,
        .idxType = idxType,
        .base = base,
        .valueType = valueType,
        .ellCols = ellCols,
    };
    return trn_sparse_make_spmat(fn, out, &d);
}

trnsparseStatus_t trnsparseCreateBlockedEll(trnsparseSpMatDescr_t *spMatDescr, int64_t rows,
                                            int64_t cols, int64_t ellBlockSize, int64_t ellCols,
                                            void *ellColInd, void *ellValue,
                                            trnsparseIndexType_t ellIdxType,
                                            trnsparseIndexBase_t idxBase,
                                            trnsciDataType valueType) {
    return make_bell("trnsparseCreateBlockedEll", spMatDescr, rows, cols, ellBlockSize, ellCols,
                     ellColInd, ellValue, ellIdxType, idxBase, valueType);
}

trnsparseStatus_t
trnsparseCreateConstBlockedEll(trnsparseConstSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols,
                               int64_t ellBlockSize, int64_t ellCols, const void *ellColInd,
                               const void *ellValue, trnsparseIndexType_t ellIdxType,
                               trnsparseIndexBase_t idxBase, trnsciDataType valueType) {
    return make_bell("trnsparseCreateConstBlockedEll", (trnsparseSpMatDescr_t *)spMatDescr, rows,
                     cols, ellBlockSize, ellCols, ellColInd, ellValue, ellIdxType, idxBase,
                     valueType);
}

trnsparseStatus_t
trnsparseConstBlockedEllGet(trnsparseConstSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols,
                            int64_t *ellBlockSize, int64_t *ellCols, const void **ellColInd,
                            const void **ellValue, trnsparseIndexType_t *ellIdxType,
                            trnsparseIndexBase_t *idxBase, trnsciDataType *valueType) {
    const char *fn = "trnsparseBlockedEllGet";
    NEED(spMatDescr, fn);
    if (spMatDescr->format != TRNSPARSE_FORMAT_BLOCKED_ELL)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: the descriptor is not Blocked-ELL",
                               fn);
    PUT(rows, spMatDescr->rows);
    PUT(cols, spMatDescr->cols);
    PUT(ellBlockSize, spMatDescr->rb);
    PUT(ellCols, spMatDescr->ellCols);
    PUT(ellColInd, spMatDescr->indices);
    PUT(ellValue, spMatDescr->values);
    PUT(ellIdxType, spMatDescr->idxType);
    PUT(idxBase, spMatDescr->base);
    PUT(valueType, spMatDescr->valueType);
    return ok();
}

trnsparseStatus_t trnsparseBlockedEllGet(trnsparseSpMatDescr_t spMatDescr, int64_t *rows,
                                         int64_t *cols, int64_t *ellBlockSize, int64_t *ellCols,
                                         void **ellColInd, void **ellValue,
                                         trnsparseIndexType_t *ellIdxType,
                                         trnsparseIndexBase_t *idxBase, trnsciDataType *valueType) {
    return trnsparseConstBlockedEllGet(spMatDescr, rows, cols, ellBlockSize, ellCols,
                                       (const void **)ellColInd, (const void **)ellValue,
                                       ellIdxType, idxBase, valueType);
}

/* ---- Sliced-ELL ------------------------------------------------------------------- */

static trnsparseStatus_t make_sell(const char *fn, trnsparseSpMatDescr_t *out, int64_t rows,
                                   int64_t cols, int64_t nnz, int64_t valuesSize, int64_t sliceSize,
                                   const void *offsets, const void *colInd, const void *values,
                                   trnsparseIndexType_t offType, trnsparseIndexType_t idxType,
                                   trnsparseIndexBase_t base, trnsciDataType valueType) {
    if (sliceSize < 1 || valuesSize < 0 || nnz < 0 || nnz > valuesSize)
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: sliceSize=%lld must be >= 1, sellValuesSize=%lld >= 0 and "
                               "nnz=%lld in [0, sellValuesSize]",
                               fn, (long long)sliceSize, (long long)valuesSize, (long long)nnz);
    const struct trnsparseSpMatDescr d = {
        .format = TRNSPARSE_FORMAT_SLICED_ELLPACK,
        .rows = rows,
        .cols = cols,
        .nnz = nnz,
        .rb = sliceSize,
        .cb = 1,
        .order = TRNSPARSE_ORDER_COL,
        .offsets = (void *)offsets,
        .indices = (void *)colInd,
        .values = (void *)values,
        .offType = offType,
        .idxType = idxType,
        .base = base,
        .valueType = valueType,
        .valuesSize = valuesSize,
    };
    return trn_sparse_make_spmat(fn, out, &d);
}

trnsparseStatus_t trnsparseCreateSlicedEll(trnsparseSpMatDescr_t *spMatDescr, int64_t rows,
                                           int64_t cols, int64_t nnz, int64_t sellValuesSize,
                                           int64_t sliceSize, void *sellSliceOffsets,
                                           void *sellColInd, void *sellValues,
                                           trnsparseIndexType_t sellSliceOffsetsType,
                                           trnsparseIndexType_t sellColIndType,
                                           trnsparseIndexBase_t idxBase, trnsciDataType valueType) {
    return make_sell("trnsparseCreateSlicedEll", spMatDescr, rows, cols, nnz, sellValuesSize,
                     sliceSize, sellSliceOffsets, sellColInd, sellValues, sellSliceOffsetsType,
                     sellColIndType, idxBase, valueType);
}

trnsparseStatus_t trnsparseCreateConstSlicedEll(
    trnsparseConstSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols, int64_t nnz,
    int64_t sellValuesSize, int64_t sliceSize, const void *sellSliceOffsets, const void *sellColInd,
    const void *sellValues, trnsparseIndexType_t sellSliceOffsetsType,
    trnsparseIndexType_t sellColIndType, trnsparseIndexBase_t idxBase, trnsciDataType valueType) {
    return make_sell("trnsparseCreateConstSlicedEll", (trnsparseSpMatDescr_t *)spMatDescr, rows,
                     cols, nnz, sellValuesSize, sliceSize, sellSliceOffsets, sellColInd, sellValues,
                     sellSliceOffsetsType, sellColIndType, idxBase, valueType);
}

/* ---- strided batches ---------------------------------------------------------------- */

static trnsparseStatus_t set_batch(const char *fn, trnsparseFormat_t f, trnsparseSpMatDescr_t d,
                                   int batchCount, int64_t offStride, int64_t stride) {
    NEED(d, fn);
    if (d->format != f)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: the descriptor is not %s", fn,
                               f == TRNSPARSE_FORMAT_CSR ? "CSR" : "COO");
    if (batchCount < 1 || offStride < 0 || stride < 0)
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: batchCount=%d must be >= 1 and the strides (%lld, %lld) >= 0",
                               fn, batchCount, (long long)offStride, (long long)stride);
    d->batchCount = batchCount;
    d->offsetsBatchStride = offStride;
    d->batchStride = stride;
    return ok();
}

trnsparseStatus_t trnsparseCsrSetStridedBatch(trnsparseSpMatDescr_t spMatDescr, int batchCount,
                                              int64_t offsetsBatchStride,
                                              int64_t columnsValuesBatchStride) {
    return set_batch("trnsparseCsrSetStridedBatch", TRNSPARSE_FORMAT_CSR, spMatDescr, batchCount,
                     offsetsBatchStride, columnsValuesBatchStride);
}

trnsparseStatus_t trnsparseCooSetStridedBatch(trnsparseSpMatDescr_t spMatDescr, int batchCount,
                                              int64_t batchStride) {
    return set_batch("trnsparseCooSetStridedBatch", TRNSPARSE_FORMAT_COO, spMatDescr, batchCount, 0,
                     batchStride);
}
