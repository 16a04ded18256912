/*
 * sparse_desc.c — trnsparse's descriptors: sparse matrices (CSR, CSC, COO,
 * BSR), dense vectors and dense matrices. They are host records of what the
 * caller passed; Create* checks only the numbers it can judge alone (sizes
 * >= 0, known enum values), and the routines that send a descriptor have
 * the daemon check the rest against device memory.
 */
#include <stdlib.h>

#include "client/sparse_internal.h"

static int known_type(trnsciDataType t) {
    return (int)t >= TRNSCI_R_32F && (int)t <= TRNSCI_C_16BF;
}

static int known_index(trnsparseIndexType_t t) {
    return t == TRNSPARSE_INDEX_16U || t == TRNSPARSE_INDEX_32I || t == TRNSPARSE_INDEX_64I;
}

trnsparseStatus_t trn_sparse_make_spmat(const char *fn, trnsparseSpMatDescr_t *out,
                                        const struct trnsparseSpMatDescr *d) {
    if (!out)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: spMatDescr is NULL", fn);
    if (d->rows < 0 || d->cols < 0 || d->nnz < 0)
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: rows=%lld, cols=%lld, nnz=%lld must be >= 0", fn,
                               (long long)d->rows, (long long)d->cols, (long long)d->nnz);
    if (!known_index(d->offType) || !known_index(d->idxType))
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: index type %d / %d is not a "
                               "trnsparseIndexType_t",
                               fn, (int)d->offType, (int)d->idxType);
    if (d->base != TRNSPARSE_INDEX_BASE_ZERO && d->base != TRNSPARSE_INDEX_BASE_ONE)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: idxBase %d is not ZERO or ONE", fn,
                               (int)d->base);
    if (!known_type(d->valueType))
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: valueType %d is not a data type", fn,
                               (int)d->valueType);
    if (d->format == TRNSPARSE_FORMAT_BSR &&
        (d->rb < 1 || d->cb < 1 ||
         (d->order != TRNSPARSE_ORDER_COL && d->order != TRNSPARSE_ORDER_ROW)))
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: block size %lld x %lld must be >= 1 and order COL or ROW", fn,
                               (long long)d->rb, (long long)d->cb);
    trnsparseSpMatDescr_t m = malloc(sizeof(*m));
    if (!m)
        return trn_sparse_fail(trnsciErrorMemoryAllocation, "%s: out of memory", fn);
    *m = *d;
    *out = m;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

/* A compressed format (CSR, CSC) or COO. */
static trnsparseStatus_t make_simple(const char *fn, trnsparseSpMatDescr_t *out,
                                     trnsparseFormat_t f, int64_t rows, int64_t cols, int64_t nnz,
                                     const void *offsets, const void *indices, const void *rowind,
                                     const void *values, trnsparseIndexType_t offType,
                                     trnsparseIndexType_t idxType, trnsparseIndexBase_t base,
                                     trnsciDataType valueType) {
    const struct trnsparseSpMatDescr d = {
        .format = f,
        .rows = rows,
        .cols = cols,
        .nnz = nnz,
        .rb = 1,
        .cb = 1,
        .order = TRNSPARSE_ORDER_COL,
        .offsets = (void *)offsets,
        .indices = (void *)indices,
        .rowind = (void *)rowind,
        .values = (void *)values,
        .offType = offType,
        .idxType = idxType,
        .base = base,
        .valueType = valueType,
    };
    return trn_sparse_make_spmat(fn, out, &d);
}

trnsparseStatus_t trnsparseCreateCsr(trnsparseSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols,
                                     int64_t nnz, void *csrRowOffsets, void *csrColInd,
                                     void *csrValues, trnsparseIndexType_t csrRowOffsetsType,
                                     trnsparseIndexType_t csrColIndType,
                                     trnsparseIndexBase_t idxBase, trnsciDataType valueType) {
    return make_simple("trnsparseCreateCsr", spMatDescr, TRNSPARSE_FORMAT_CSR, rows, cols, nnz,
                       csrRowOffsets, csrColInd, NULL, csrValues, csrRowOffsetsType, csrColIndType,
                       idxBase, valueType);
}

trnsparseStatus_t trnsparseCreateConstCsr(trnsparseConstSpMatDescr_t *spMatDescr, int64_t rows,
                                          int64_t cols, int64_t nnz, const void *csrRowOffsets,
                                          const void *csrColInd, const void *csrValues,
                                          trnsparseIndexType_t csrRowOffsetsType,
                                          trnsparseIndexType_t csrColIndType,
                                          trnsparseIndexBase_t idxBase, trnsciDataType valueType) {
    return trnsparseCreateCsr((trnsparseSpMatDescr_t *)spMatDescr, rows, cols, nnz,
                              (void *)csrRowOffsets, (void *)csrColInd, (void *)csrValues,
                              csrRowOffsetsType, csrColIndType, idxBase, valueType);
}

trnsparseStatus_t trnsparseCreateCsc(trnsparseSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols,
                                     int64_t nnz, void *cscColOffsets, void *cscRowInd,
                                     void *cscValues, trnsparseIndexType_t cscColOffsetsType,
                                     trnsparseIndexType_t cscRowIndType,
                                     trnsparseIndexBase_t idxBase, trnsciDataType valueType) {
    return make_simple("trnsparseCreateCsc", spMatDescr, TRNSPARSE_FORMAT_CSC, rows, cols, nnz,
                       cscColOffsets, cscRowInd, NULL, cscValues, cscColOffsetsType, cscRowIndType,
                       idxBase, valueType);
}

trnsparseStatus_t trnsparseCreateConstCsc(trnsparseConstSpMatDescr_t *spMatDescr, int64_t rows,
                                          int64_t cols, int64_t nnz, const void *cscColOffsets,
                                          const void *cscRowInd, const void *cscValues,
                                          trnsparseIndexType_t cscColOffsetsType,
                                          trnsparseIndexType_t cscRowIndType,
                                          trnsparseIndexBase_t idxBase, trnsciDataType valueType) {
    return trnsparseCreateCsc((trnsparseSpMatDescr_t *)spMatDescr, rows, cols, nnz,
                              (void *)cscColOffsets, (void *)cscRowInd, (void *)cscValues,
                              cscColOffsetsType, cscRowIndType, idxBase, valueType);
}

trnsparseStatus_t trnsparseCreateCoo(trnsparseSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols,
                                     int64_t nnz, void *cooRowInd, void *cooColInd, void *cooValues,
                                     trnsparseIndexType_t cooIdxType, trnsparseIndexBase_t idxBase,
                                     trnsciDataType valueType) {
    return make_simple("trnsparseCreateCoo", spMatDescr, TRNSPARSE_FORMAT_COO, rows, cols, nnz,
                       NULL, cooColInd, cooRowInd, cooValues, cooIdxType, cooIdxType, idxBase,
                       valueType);
}

trnsparseStatus_t trnsparseCreateConstCoo(trnsparseConstSpMatDescr_t *spMatDescr, int64_t rows,
                                          int64_t cols, int64_t nnz, const void *cooRowInd,
                                          const void *cooColInd, const void *cooValues,
                                          trnsparseIndexType_t cooIdxType,
                                          trnsparseIndexBase_t idxBase, trnsciDataType valueType) {
    return make_simple("trnsparseCreateConstCoo", (trnsparseSpMatDescr_t *)spMatDescr,
                       TRNSPARSE_FORMAT_COO, rows, cols, nnz, NULL, cooColInd, cooRowInd, cooValues,
                       cooIdxType, cooIdxType, idxBase, valueType);
}

static trnsparseStatus_t make_bsr(const char *fn, trnsparseSpMatDescr_t *out, int64_t brows,
                                  int64_t bcols, int64_t bnnz, int64_t rb, int64_t cb,
                                  const void *offsets, const void *indices, const void *values,
                                  trnsparseIndexType_t offType, trnsparseIndexType_t idxType,
                                  trnsparseIndexBase_t base, trnsciDataType valueType,
                                  trnsparseOrder_t order) {
    const struct trnsparseSpMatDescr d = {
        .format = TRNSPARSE_FORMAT_BSR,
        .rows = brows,
        .cols = bcols,
        .nnz = bnnz,
        .rb = rb,
        .cb = cb,
        .order = order,
        .offsets = (void *)offsets,
        .indices = (void *)indices,
        .values = (void *)values,
        .offType = offType,
        .idxType = idxType,
        .base = base,
        .valueType = valueType,
    };
    return trn_sparse_make_spmat(fn, out, &d);
}

trnsparseStatus_t trnsparseCreateBsr(trnsparseSpMatDescr_t *spMatDescr, int64_t brows,
                                     int64_t bcols, int64_t bnnz, int64_t rowBlockSize,
                                     int64_t colBlockSize, void *bsrRowOffsets, void *bsrColInd,
                                     void *bsrValues, trnsparseIndexType_t bsrRowOffsetsType,
                                     trnsparseIndexType_t bsrColIndType,
                                     trnsparseIndexBase_t idxBase, trnsciDataType valueType,
                                     trnsparseOrder_t order) {
    return make_bsr("trnsparseCreateBsr", spMatDescr, brows, bcols, bnnz, rowBlockSize,
                    colBlockSize, bsrRowOffsets, bsrColInd, bsrValues, bsrRowOffsetsType,
                    bsrColIndType, idxBase, valueType, order);
}

trnsparseStatus_t trnsparseCreateConstBsr(trnsparseConstSpMatDescr_t *spMatDescr, int64_t brows,
                                          int64_t bcols, int64_t bnnz, int64_t rowBlockDim,
                                          int64_t colBlockDim, const void *bsrRowOffsets,
                                          const void *bsrColInd, const void *bsrValues,
                                          trnsparseIndexType_t bsrRowOffsetsType,
                                          trnsparseIndexType_t bsrColIndType,
                                          trnsparseIndexBase_t idxBase, trnsciDataType valueType,
                                          trnsparseOrder_t order) {
    return trnsparseCreateBsr((trnsparseSpMatDescr_t *)spMatDescr, brows, bcols, bnnz, rowBlockDim,
                              colBlockDim, (void *)bsrRowOffsets, (void *)bsrColInd,
                              (void *)bsrValues, bsrRowOffsetsType, bsrColIndType, idxBase,
                              valueType, order);
}

trnsparseStatus_t trnsparseDestroySpMat(trnsparseConstSpMatDescr_t spMatDescr) {
    free((void *)spMatDescr);
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

/* ---- getters and setters ------------------------------------------------------- */

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

trnsparseStatus_t trnsparseSpMatGetSize(trnsparseConstSpMatDescr_t spMatDescr, int64_t *rows,
                                        int64_t *cols, int64_t *nnz) {
    NEED(spMatDescr, "trnsparseSpMatGetSize");
    PUT(rows, spMatDescr->rows);
    PUT(cols, spMatDescr->cols);
    PUT(nnz, spMatDescr->nnz);
    return ok();
}

trnsparseStatus_t trnsparseSpMatGetFormat(trnsparseConstSpMatDescr_t spMatDescr,
                                          trnsparseFormat_t *format) {
    NEED(spMatDescr, "trnsparseSpMatGetFormat");
    PUT(format, spMatDescr->format);
    return ok();
}

trnsparseStatus_t trnsparseSpMatGetIndexBase(trnsparseConstSpMatDescr_t spMatDescr,
                                             trnsparseIndexBase_t *idxBase) {
    NEED(spMatDescr, "trnsparseSpMatGetIndexBase");
    PUT(idxBase, spMatDescr->base);
    return ok();
}

trnsparseStatus_t trnsparseSpMatGetValues(trnsparseSpMatDescr_t spMatDescr, void **values) {
    NEED(spMatDescr, "trnsparseSpMatGetValues");
    PUT(values, spMatDescr->values);
    return ok();
}

trnsparseStatus_t trnsparseConstSpMatGetValues(trnsparseConstSpMatDescr_t spMatDescr,
                                               const void **values) {
    NEED(spMatDescr, "trnsparseConstSpMatGetValues");
    PUT(values, spMatDescr->values);
    return ok();
}

trnsparseStatus_t trnsparseSpMatSetValues(trnsparseSpMatDescr_t spMatDescr, void *values) {
    NEED(spMatDescr, "trnsparseSpMatSetValues");
    spMatDescr->values = values;
    return ok();
}

/* The fields of a CSR or CSC descriptor (format f). */
static trnsparseStatus_t get_compressed(const char *fn, trnsparseFormat_t f,
                                        trnsparseConstSpMatDescr_t d, int64_t *rows, int64_t *cols,
                                        int64_t *nnz, const void **offsets, const void **indices,
                                        const void **values, trnsparseIndexType_t *offType,
                                        trnsparseIndexType_t *idxType,
                                        trnsparseIndexBase_t *idxBase, trnsciDataType *valueType) {
    NEED(d, fn);
    if (d->format != f)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: the descriptor is not %s", fn,
                               f == TRNSPARSE_FORMAT_CSR ? "CSR" : "CSC");
    PUT(rows, d->rows);
    PUT(cols, d->cols);
    PUT(nnz, d->nnz);
    PUT(offsets, d->offsets);
    PUT(indices, d->indices);
    PUT(values, d->values);
    PUT(offType, d->offType);
    PUT(idxType, d->idxType);
    PUT(idxBase, d->base);
    PUT(valueType, d->valueType);
    return ok();
}

trnsparseStatus_t trnsparseCsrGet(trnsparseSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols,
                                  int64_t *nnz, void **csrRowOffsets, void **csrColInd,
                                  void **csrValues, trnsparseIndexType_t *csrRowOffsetsType,
                                  trnsparseIndexType_t *csrColIndType,
                                  trnsparseIndexBase_t *idxBase, trnsciDataType *valueType) {
    return get_compressed("trnsparseCsrGet", TRNSPARSE_FORMAT_CSR, spMatDescr, rows, cols, nnz,
                          (const void **)csrRowOffsets, (const void **)csrColInd,
                          (const void **)csrValues, csrRowOffsetsType, csrColIndType, idxBase,
                          valueType);
}

trnsparseStatus_t trnsparseConstCsrGet(trnsparseConstSpMatDescr_t spMatDescr, int64_t *rows,
                                       int64_t *cols, int64_t *nnz, const void **csrRowOffsets,
                                       const void **csrColInd, const void **csrValues,
                                       trnsparseIndexType_t *csrRowOffsetsType,
                                       trnsparseIndexType_t *csrColIndType,
                                       trnsparseIndexBase_t *idxBase, trnsciDataType *valueType) {
    return get_compressed("trnsparseConstCsrGet", TRNSPARSE_FORMAT_CSR, spMatDescr, rows, cols, nnz,
                          csrRowOffsets, csrColInd, csrValues, csrRowOffsetsType, csrColIndType,
                          idxBase, valueType);
}

trnsparseStatus_t trnsparseCscGet(trnsparseSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols,
                                  int64_t *nnz, void **cscColOffsets, void **cscRowInd,
                                  void **cscValues, trnsparseIndexType_t *cscColOffsetsType,
                                  trnsparseIndexType_t *cscRowIndType,
                                  trnsparseIndexBase_t *idxBase, trnsciDataType *valueType) {
    return get_compressed("trnsparseCscGet", TRNSPARSE_FORMAT_CSC, spMatDescr, rows, cols, nnz,
                          (const void **)cscColOffsets, (const void **)cscRowInd,
                          (const void **)cscValues, cscColOffsetsType, cscRowIndType, idxBase,
                          valueType);
}

trnsparseStatus_t trnsparseCooGet(trnsparseSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols,
                                  int64_t *nnz, void **cooRowInd, void **cooColInd,
                                  void **cooValues, trnsparseIndexType_t *idxType,
                                  trnsparseIndexBase_t *idxBase, trnsciDataType *valueType) {
    NEED(spMatDescr, "trnsparseCooGet");
    if (spMatDescr->format != TRNSPARSE_FORMAT_COO)
        return trn_sparse_fail(trnsciErrorInvalidValue, "trnsparseCooGet: the descriptor is not "
                                                        "COO");
    PUT(rows, spMatDescr->rows);
    PUT(cols, spMatDescr->cols);
    PUT(nnz, spMatDescr->nnz);
    PUT(cooRowInd, spMatDescr->rowind);
    PUT(cooColInd, spMatDescr->indices);
    PUT(cooValues, spMatDescr->values);
    PUT(idxType, spMatDescr->idxType);
    PUT(idxBase, spMatDescr->base);
    PUT(valueType, spMatDescr->valueType);
    return ok();
}

static trnsparseStatus_t set_pointers(const char *fn, trnsparseFormat_t f, trnsparseSpMatDescr_t d,
                                      void *a, void *b, void *values) {
    NEED(d, fn);
    if (d->format != f)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: the descriptor has another format",
                               fn);
    if (f == TRNSPARSE_FORMAT_COO) {
        d->rowind = a;
        d->indices = b;
    } else {
        d->offsets = a;
        d->indices = b;
    }
    d->values = values;
    return ok();
}

trnsparseStatus_t trnsparseCsrSetPointers(trnsparseSpMatDescr_t spMatDescr, void *csrRowOffsets,
                                          void *csrColInd, void *csrValues) {
    return set_pointers("trnsparseCsrSetPointers", TRNSPARSE_FORMAT_CSR, spMatDescr, csrRowOffsets,
                        csrColInd, csrValues);
}

trnsparseStatus_t trnsparseCscSetPointers(trnsparseSpMatDescr_t spMatDescr, void *cscColOffsets,
                                          void *cscRowInd, void *cscValues) {
    return set_pointers("trnsparseCscSetPointers", TRNSPARSE_FORMAT_CSC, spMatDescr, cscColOffsets,
                        cscRowInd, cscValues);
}

trnsparseStatus_t trnsparseCooSetPointers(trnsparseSpMatDescr_t spMatDescr, void *cooRows,
                                          void *cooColumns, void *cooValues) {
    return set_pointers("trnsparseCooSetPointers", TRNSPARSE_FORMAT_COO, spMatDescr, cooRows,
                        cooColumns, cooValues);
}

/* ---- dense vectors ------------------------------------------------------------------ */

static trnsparseStatus_t make_dnvec(const char *fn, trnsparseDnVecDescr_t *out, int64_t size,
                                    const void *values, trnsciDataType t) {
    if (!out)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: dnVecDescr is NULL", fn);
    if (size < 0 || !known_type(t))
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: size %lld must be >= 0 and valueType (%d) a data type", fn,
                               (long long)size, (int)t);
    trnsparseDnVecDescr_t v = malloc(sizeof(*v));
    if (!v)
        return trn_sparse_fail(trnsciErrorMemoryAllocation, "%s: out of memory", fn);
    v->size = size;
    v->values = (void *)values;
    v->type = t;
    *out = v;
    return ok();
}

trnsparseStatus_t trnsparseCreateDnVec(trnsparseDnVecDescr_t *dnVecDescr, int64_t size,
                                       void *values, trnsciDataType valueType) {
    return make_dnvec("trnsparseCreateDnVec", dnVecDescr, size, values, valueType);
}

trnsparseStatus_t trnsparseCreateConstDnVec(trnsparseConstDnVecDescr_t *dnVecDescr, int64_t size,
                                            const void *values, trnsciDataType valueType) {
    return make_dnvec("trnsparseCreateConstDnVec", (trnsparseDnVecDescr_t *)dnVecDescr, size,
                      values, valueType);
}

trnsparseStatus_t trnsparseDestroyDnVec(trnsparseConstDnVecDescr_t dnVecDescr) {
    free((void *)dnVecDescr);
    return ok();
}

trnsparseStatus_t trnsparseDnVecGet(trnsparseDnVecDescr_t dnVecDescr, int64_t *size, void **values,
                                    trnsciDataType *valueType) {
    return trnsparseConstDnVecGet(dnVecDescr, size, (const void **)values, valueType);
}

trnsparseStatus_t trnsparseConstDnVecGet(trnsparseConstDnVecDescr_t dnVecDescr, int64_t *size,
                                         const void **values, trnsciDataType *valueType) {
    NEED(dnVecDescr, "trnsparseDnVecGet");
    PUT(size, dnVecDescr->size);
    PUT(values, dnVecDescr->values);
    PUT(valueType, dnVecDescr->type);
    return ok();
}

trnsparseStatus_t trnsparseDnVecGetValues(trnsparseDnVecDescr_t dnVecDescr, void **values) {
    return trnsparseConstDnVecGetValues(dnVecDescr, (const void **)values);
}

trnsparseStatus_t trnsparseConstDnVecGetValues(trnsparseConstDnVecDescr_t dnVecDescr,
                                               const void **values) {
    NEED(dnVecDescr, "trnsparseDnVecGetValues");
    PUT(values, dnVecDescr->values);
    return ok();
}

trnsparseStatus_t trnsparseDnVecSetValues(trnsparseDnVecDescr_t dnVecDescr, void *values) {
    NEED(dnVecDescr, "trnsparseDnVecSetValues");
    dnVecDescr->values = values;
    return ok();
}

/* ---- dense matrices ------------------------------------------------------------------ */

static trnsparseStatus_t make_dnmat(const char *fn, trnsparseDnMatDescr_t *out, int64_t rows,
                                    int64_t cols, int64_t ld, const void *values, trnsciDataType t,
                                    trnsparseOrder_t order) {
    if (!out)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: dnMatDescr is NULL", fn);
    if (rows < 0 || cols < 0 || ld < 0 || !known_type(t) ||
        (order != TRNSPARSE_ORDER_COL && order != TRNSPARSE_ORDER_ROW))
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: rows=%lld, cols=%lld, ld=%lld must be >= 0, valueType (%d) a "
                               "data type and order (%d) COL or ROW",
                               fn, (long long)rows, (long long)cols, (long long)ld, (int)t,
                               (int)order);
    trnsparseDnMatDescr_t m = malloc(sizeof(*m));
    if (!m)
        return trn_sparse_fail(trnsciErrorMemoryAllocation, "%s: out of memory", fn);
    *m = (struct trnsparseDnMatDescr){
        .rows = rows,
        .cols = cols,
        .ld = ld,
        .values = (void *)values,
        .type = t,
        .order = order,
        .batchCount = 1,
        .batchStride = 0,
    };
    *out = m;
    return ok();
}

trnsparseStatus_t trnsparseCreateDnMat(trnsparseDnMatDescr_t *dnMatDescr, int64_t rows,
                                       int64_t cols, int64_t ld, void *values,
                                       trnsciDataType valueType, trnsparseOrder_t order) {
    return make_dnmat("trnsparseCreateDnMat", dnMatDescr, rows, cols, ld, values, valueType, order);
}

trnsparseStatus_t trnsparseCreateConstDnMat(trnsparseConstDnMatDescr_t *dnMatDescr, int64_t rows,
                                            int64_t cols, int64_t ld, const void *values,
                                            trnsciDataType valueType, trnsparseOrder_t order) {
    return make_dnmat("trnsparseCreateConstDnMat", (trnsparseDnMatDescr_t *)dnMatDescr, rows, cols,
                      ld, values, valueType, order);
}

trnsparseStatus_t trnsparseDestroyDnMat(trnsparseConstDnMatDescr_t dnMatDescr) {
    free((void *)dnMatDescr);
    return ok();
}

trnsparseStatus_t trnsparseDnMatGet(trnsparseDnMatDescr_t dnMatDescr, int64_t *rows, int64_t *cols,
                                    int64_t *ld, void **values, trnsciDataType *type,
                                    trnsparseOrder_t *order) {
    return trnsparseConstDnMatGet(dnMatDescr, rows, cols, ld, (const void **)values, type, order);
}

trnsparseStatus_t trnsparseConstDnMatGet(trnsparseConstDnMatDescr_t dnMatDescr, int64_t *rows,
                                         int64_t *cols, int64_t *ld, const void **values,
                                         trnsciDataType *type, trnsparseOrder_t *order) {
    NEED(dnMatDescr, "trnsparseDnMatGet");
    PUT(rows, dnMatDescr->rows);
    PUT(cols, dnMatDescr->cols);
    PUT(ld, dnMatDescr->ld);
    PUT(values, dnMatDescr->values);
    PUT(type, dnMatDescr->type);
    PUT(order, dnMatDescr->order);
    return ok();
}

trnsparseStatus_t trnsparseDnMatGetValues(trnsparseDnMatDescr_t dnMatDescr, void **values) {
    return trnsparseConstDnMatGetValues(dnMatDescr, (const void **)values);
}

trnsparseStatus_t trnsparseConstDnMatGetValues(trnsparseConstDnMatDescr_t dnMatDescr,
                                               const void **values) {
    NEED(dnMatDescr, "trnsparseDnMatGetValues");
    PUT(values, dnMatDescr->values);
    return ok();
}

trnsparseStatus_t trnsparseDnMatSetValues(trnsparseDnMatDescr_t dnMatDescr, void *values) {
    NEED(dnMatDescr, "trnsparseDnMatSetValues");
    dnMatDescr->values = values;
    return ok();
}

trnsparseStatus_t trnsparseDnMatSetStridedBatch(trnsparseDnMatDescr_t dnMatDescr, int batchCount,
                                                int64_t batchStride) {
    NEED(dnMatDescr, "trnsparseDnMatSetStridedBatch");
    if (batchCount < 1 || batchStride < 0)
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "trnsparseDnMatSetStridedBatch: batchCount %d must be >= 1 and "
                               "batchStride %lld >= 0",
                               batchCount, (long long)batchStride);
    dnMatDescr->batchCount = batchCount;
    dnMatDescr->batchStride = batchStride;
    return ok();
}

trnsparseStatus_t trnsparseDnMatGetStridedBatch(trnsparseConstDnMatDescr_t dnMatDescr,
                                                int *batchCount, int64_t *batchStride) {
    NEED(dnMatDescr, "trnsparseDnMatGetStridedBatch");
    PUT(batchCount, dnMatDescr->batchCount);
    PUT(batchStride, dnMatDescr->batchStride);
    return ok();
}
