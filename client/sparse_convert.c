/*
 * sparse_convert.c — trnsparse's format conversions: the legacy routines
 * that take raw 32-bit arrays and a trnsparseMatDescr_t (Xcsr2coo,
 * Xcoo2csr, Csr2cscEx2, Xcsr2bsrNnz, <t>csr2bsr, <t>bsr2csr) and the generic
 * DenseToSparse / SparseToDense. Each becomes one SparseConvertOp; the raw
 * arrays travel as a SparseMatrix built on the stack. The two steps that
 * return a count to the host (Xcsr2bsrNnz, DenseToSparse_analysis) read it
 * back from the offsets they wrote, after the op (trnsciMemcpy orders after
 * all queued work and reports the op's failure, if any).
 */
#include <stdlib.h>
#include <string.h>

#include "client/sparse_internal.h"

struct trnsparseMatDescr {
    trnsparseMatrixType_t type;
    trnsparseIndexBase_t base;
    trnsparseFillMode_t fill; /* recorded for the caller; no routine here reads them */
    trnsparseDiagType_t diag;
};

trnsparseStatus_t trnsparseCreateMatDescr(trnsparseMatDescr_t *descrA) {
    if (!descrA)
        return trn_sparse_fail(trnsciErrorInvalidValue, "trnsparseCreateMatDescr: descrA is NULL");
    trnsparseMatDescr_t d = calloc(1, sizeof(*d));
    if (!d)
        return trn_sparse_fail(trnsciErrorMemoryAllocation, "trnsparseCreateMatDescr: out of "
                                                            "memory");
    *descrA = d;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseDestroyMatDescr(trnsparseMatDescr_t descrA) {
    free(descrA);
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseSetMatType(trnsparseMatDescr_t descrA, trnsparseMatrixType_t type) {
    if (!descrA || (int)type < 0 || (int)type > TRNSPARSE_MATRIX_TYPE_TRIANGULAR)
        return trn_sparse_fail(trnsciErrorInvalidValue, "trnsparseSetMatType: a NULL descriptor "
                                                        "or an unknown type");
    descrA->type = type;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseMatrixType_t trnsparseGetMatType(const trnsparseMatDescr_t descrA) {
    return descrA ? descrA->type : TRNSPARSE_MATRIX_TYPE_GENERAL;
}

trnsparseStatus_t trnsparseSetMatIndexBase(trnsparseMatDescr_t descrA, trnsparseIndexBase_t base) {
    if (!descrA || (base != TRNSPARSE_INDEX_BASE_ZERO && base != TRNSPARSE_INDEX_BASE_ONE))
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "trnsparseSetMatIndexBase: a NULL "
                               "descriptor or a base that is not ZERO or ONE");
    descrA->base = base;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseIndexBase_t trnsparseGetMatIndexBase(const trnsparseMatDescr_t descrA) {
    return descrA ? descrA->base : TRNSPARSE_INDEX_BASE_ZERO;
}

trnsparseStatus_t trnsparseSetMatFillMode(trnsparseMatDescr_t descrA,
                                          trnsparseFillMode_t fillMode) {
    if (!descrA || (fillMode != TRNSPARSE_FILL_MODE_LOWER && fillMode != TRNSPARSE_FILL_MODE_UPPER))
        return trn_sparse_fail(trnsciErrorInvalidValue, "trnsparseSetMatFillMode: a NULL "
                                                        "descriptor or a mode that is not LOWER "
                                                        "or UPPER");
    descrA->fill = fillMode;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseFillMode_t trnsparseGetMatFillMode(const trnsparseMatDescr_t descrA) {
    return descrA ? descrA->fill : TRNSPARSE_FILL_MODE_LOWER;
}

trnsparseStatus_t trnsparseSetMatDiagType(trnsparseMatDescr_t descrA,
                                          trnsparseDiagType_t diagType) {
    if (!descrA ||
        (diagType != TRNSPARSE_DIAG_TYPE_NON_UNIT && diagType != TRNSPARSE_DIAG_TYPE_UNIT))
        return trn_sparse_fail(trnsciErrorInvalidValue, "trnsparseSetMatDiagType: a NULL "
                                                        "descriptor or a type that is not "
                                                        "NON_UNIT or UNIT");
    descrA->diag = diagType;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseDiagType_t trnsparseGetMatDiagType(const trnsparseMatDescr_t descrA) {
    return descrA ? descrA->diag : TRNSPARSE_DIAG_TYPE_NON_UNIT;
}

/* ---- helpers ---------------------------------------------------------------------- */

/* A descriptor for raw 32-bit arrays. */
static struct trnsparseSpMatDescr raw(trnsparseFormat_t f, int64_t rows, int64_t cols, int64_t nnz,
                                      const void *off, const void *idx, const void *rowind,
                                      const void *val, trnsparseIndexBase_t base,
                                      trnsciDataType type, int64_t bs, trnsparseDirection_t dir) {
    struct trnsparseSpMatDescr d = {
        .format = f,
        .rows = rows,
        .cols = cols,
        .nnz = nnz,
        .rb = bs,
        .cb = bs,
        .order = dir == TRNSPARSE_DIRECTION_ROW ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL,
        .offsets = (void *)off,
        .indices = (void *)idx,
        .rowind = (void *)rowind,
        .values = (void *)val,
        .offType = TRNSPARSE_INDEX_32I,
        .idxType = TRNSPARSE_INDEX_32I,
        .base = base,
        .valueType = type,
    };
    return d;
}

/* Queues one conversion (src, dst, dense may be NULL when unused). */
static trnsparseStatus_t convert(trnsparseHandle_t handle, const char *fn,
                                 Trnsci__V1__SparseConvert what, trnsparseConstSpMatDescr_t src,
                                 trnsparseConstSpMatDescr_t dst, trnsparseConstDnMatDescr_t dense,
                                 int structure_only) {
    trnsparseStatus_t st;
    trn_client *c = trn_sparse_begin(handle, &st);
    if (!c)
        return st;
    Trnsci__V1__SparseConvertOp w = TRNSCI__V1__SPARSE_CONVERT_OP__INIT;
    trn_wire_spmat ws, wd;
    trn_wire_dnmat wm;
    trnsciError_t e = trnsciSuccess;
    if (src && (e = trn_sparse_wire_spmat(c, src, fn, "src", &ws)) == trnsciSuccess)
        w.src = &ws.m;
    if (e == trnsciSuccess && dst && (e = trn_sparse_wire_spmat(c, dst, fn, "dst", &wd)) == 0)
        w.dst = &wd.m;
    if (e == trnsciSuccess && dense && (e = trn_sparse_wire_dnmat(c, dense, fn, "dense", &wm)) == 0)
        w.dense = &wm.m;
    if (e != trnsciSuccess)
        return trn_sparse_status(e);
    w.function = what;
    w.structure_only = structure_only;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_SPARSE_CONVERT;
    op.sparse_convert = &w;
    return trn_sparse_submit(c, handle, &op);
}

/* Element k of a device index array, after the queued work. */
static trnsparseStatus_t read_index(const void *arr, int64_t k, int idx64, int64_t *out) {
    const size_t isz = idx64 ? 8 : 4;
    unsigned char v[8];
    const trnsciError_t e =
        trnsciMemcpy(v, (const char *)arr + (size_t)k * isz, isz, trnsciMemcpyDeviceToHost);
    if (e != trnsciSuccess)
        return trn_sparse_status(e);
    if (idx64) {
        int64_t x;
        memcpy(&x, v, 8);
        *out = x;
    } else {
        int32_t x;
        memcpy(&x, v, 4);
        *out = x;
    }
    return TRNSPARSE_STATUS_SUCCESS;
}

static trnsparseStatus_t check_mat(const char *fn, const trnsparseMatDescr_t d) {
    if (!d)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: a matrix descriptor is NULL", fn);
    if (d->type != TRNSPARSE_MATRIX_TYPE_GENERAL)
        return trn_sparse_fail(trnsciErrorNotSupported,
                               "%s: only TRNSPARSE_MATRIX_TYPE_GENERAL is supported", fn);
    return TRNSPARSE_STATUS_SUCCESS;
}

/* The start of the legacy CSR <-> BSR routines: a client, GENERAL
 * descriptors. */
static trn_client *legacy_begin(trnsparseHandle_t handle, const char *fn,
                                const trnsparseMatDescr_t descrA, const trnsparseMatDescr_t descrC,
                                trnsparseStatus_t *st) {
    trn_client *c = trn_sparse_begin(handle, st);
    if (c && ((*st = check_mat(fn, descrA)) || (*st = check_mat(fn, descrC))))
        return NULL;
    return c;
}

/* ---- CSR <-> COO, CSR -> CSC ----------------------------------------------------------- */

trnsparseStatus_t trnsparseXcsr2coo(trnsparseHandle_t handle, const int *csrSortedRowPtr, int nnz,
                                    int m, int *cooRowInd, trnsparseIndexBase_t idxBase) {
    const struct trnsparseSpMatDescr a = raw(TRNSPARSE_FORMAT_CSR, m, 0, nnz, csrSortedRowPtr, NULL,
                                             NULL, NULL, idxBase, TRNSCI_R_32F, 1, 0);
    const struct trnsparseSpMatDescr b = raw(TRNSPARSE_FORMAT_COO, m, 0, nnz, NULL, NULL, cooRowInd,
                                             NULL, idxBase, TRNSCI_R_32F, 1, 0);
    return convert(handle, "csr2coo", TRNSCI__V1__SPARSE_CONVERT__SPARSE_CSR_TO_COO, &a, &b, NULL,
                   0);
}

trnsparseStatus_t trnsparseXcoo2csr(trnsparseHandle_t handle, const int *cooRowInd, int nnz, int m,
                                    int *csrSortedRowPtr, trnsparseIndexBase_t idxBase) {
    const struct trnsparseSpMatDescr a = raw(TRNSPARSE_FORMAT_COO, m, 0, nnz, NULL, NULL, cooRowInd,
                                             NULL, idxBase, TRNSCI_R_32F, 1, 0);
    const struct trnsparseSpMatDescr b = raw(TRNSPARSE_FORMAT_CSR, m, 0, nnz, csrSortedRowPtr, NULL,
                                             NULL, NULL, idxBase, TRNSCI_R_32F, 1, 0);
    return convert(handle, "coo2csr", TRNSCI__V1__SPARSE_CONVERT__SPARSE_COO_TO_CSR, &a, &b, NULL,
                   0);
}

trnsparseStatus_t trnsparseCsr2cscEx2_bufferSize(trnsparseHandle_t handle, int m, int n, int nnz,
                                                 const void *csrVal, const int *csrRowPtr,
                                                 const int *csrColInd, void *cscVal, int *cscColPtr,
                                                 int *cscRowInd, trnsciDataType valType,
                                                 trnsparseAction_t copyValues,
                                                 trnsparseIndexBase_t idxBase,
                                                 trnsparseCsr2CscAlg_t alg, size_t *bufferSize) {
    (void)m, (void)n, (void)nnz, (void)csrVal, (void)csrRowPtr, (void)csrColInd, (void)cscVal;
    (void)cscColPtr, (void)cscRowInd, (void)valType, (void)copyValues, (void)idxBase, (void)alg;
    return trn_sparse_no_buffer(handle, "csr2csc", bufferSize);
}

trnsparseStatus_t trnsparseCsr2cscEx2(trnsparseHandle_t handle, int m, int n, int nnz,
                                      const void *csrVal, const int *csrRowPtr,
                                      const int *csrColInd, void *cscVal, int *cscColPtr,
                                      int *cscRowInd, trnsciDataType valType,
                                      trnsparseAction_t copyValues, trnsparseIndexBase_t idxBase,
                                      trnsparseCsr2CscAlg_t alg, void *buffer) {
    (void)buffer;
    if (alg != TRNSPARSE_CSR2CSC_ALG1)
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "csr2csc: alg %d is not "
                               "TRNSPARSE_CSR2CSC_ALG_DEFAULT",
                               (int)alg);
    if (copyValues != TRNSPARSE_ACTION_SYMBOLIC && copyValues != TRNSPARSE_ACTION_NUMERIC)
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "csr2csc: copyValues %d is not SYMBOLIC "
                               "or NUMERIC",
                               (int)copyValues);
    const int symbolic = copyValues == TRNSPARSE_ACTION_SYMBOLIC;
    const struct trnsparseSpMatDescr a =
        raw(TRNSPARSE_FORMAT_CSR, m, n, nnz, csrRowPtr, csrColInd, NULL, symbolic ? NULL : csrVal,
            idxBase, valType, 1, 0);
    const struct trnsparseSpMatDescr b =
        raw(TRNSPARSE_FORMAT_CSC, m, n, nnz, cscColPtr, cscRowInd, NULL, symbolic ? NULL : cscVal,
            idxBase, valType, 1, 0);
    return convert(handle, "csr2csc", TRNSCI__V1__SPARSE_CONVERT__SPARSE_CSR_TO_CSC, &a, &b, NULL,
                   symbolic);
}

/* ---- CSR <-> BSR -------------------------------------------------------------------------- */

static int64_t blocks_of(int64_t n, int bs) {
    return bs > 0 ? (n + bs - 1) / bs : 0;
}

/* The legacy CSR <-> BSR routines take no nnz: each array counts as long as
 * its allocation (trn_sparse_capacity); the daemon checks every offset read
 * against that, and the kernels check the offsets against each other. */
static int64_t cap2(trn_client *c, const void *idx, const void *val, int64_t per) {
    const int64_t a = trn_sparse_capacity(c, idx, 4);
    if (!val)
        return a;
    const int64_t b = trn_sparse_capacity(c, val, 1) / per;
    return a < b ? a : b;
}

trnsparseStatus_t trnsparseXcsr2bsrNnz(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m,
                                       int n, const trnsparseMatDescr_t descrA,
                                       const int *csrRowPtrA, const int *csrColIndA, int blockDim,
                                       const trnsparseMatDescr_t descrC, int *bsrRowPtrC,
                                       int *nnzTotalDevHostPtr) {
    const char *fn = "csr2bsrNnz";
    trnsparseStatus_t st;
    trn_client *c = legacy_begin(handle, fn, descrA, descrC, &st);
    if (!c)
        return st;
    const int64_t mb = blocks_of(m, blockDim);
    const struct trnsparseSpMatDescr a =
        raw(TRNSPARSE_FORMAT_CSR, m, n, cap2(c, csrColIndA, NULL, 1), csrRowPtrA, csrColIndA, NULL,
            NULL, descrA->base, TRNSCI_R_32F, 1, dirA);
    const struct trnsparseSpMatDescr b =
        raw(TRNSPARSE_FORMAT_BSR, mb, blocks_of(n, blockDim), 0, bsrRowPtrC, NULL, NULL, NULL,
            descrC->base, TRNSCI_R_32F, blockDim, dirA);
    trnsparseStatus_t rc =
        convert(handle, fn, TRNSCI__V1__SPARSE_CONVERT__SPARSE_CSR_TO_BSR_NNZ, &a, &b, NULL, 0);
    if (rc != TRNSPARSE_STATUS_SUCCESS || !nnzTotalDevHostPtr)
        return rc;
    int64_t last = 0, first = 0;
    if ((rc = read_index(bsrRowPtrC, mb, 0, &last)) || (rc = read_index(bsrRowPtrC, 0, 0, &first)))
        return rc;
    *nnzTotalDevHostPtr = (int)(last - first);
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

/* A CSR matrix (rows x cols) and a BSR one (ceil(rows / bs) x ceil(cols /
 * bs) blocks of bs x bs in dirA's order), either the source; raw 32-bit
 * arrays, each counted as long as its allocation. */
typedef struct legacy_pair {
    int64_t rows, cols;
    const void *csr_off, *csr_idx, *csr_val, *bsr_off, *bsr_idx, *bsr_val;
    const trnsparseMatDescr_t csr_descr, bsr_descr;
} legacy_pair;

static trnsparseStatus_t csr_bsr(trnsparseHandle_t handle, const char *fn, int to_bsr,
                                 trnsciDataType t, trnsparseDirection_t dirA, int blockDim,
                                 const legacy_pair *p) {
    trnsparseStatus_t st;
    trn_client *c = legacy_begin(handle, fn, p->csr_descr, p->bsr_descr, &st);
    if (!c)
        return st;
    const int64_t es = t == TRNSCI_R_64F ? 8 : 4, bs = blockDim > 0 ? blockDim : 1;
    const struct trnsparseSpMatDescr csr =
        raw(TRNSPARSE_FORMAT_CSR, p->rows, p->cols, cap2(c, p->csr_idx, p->csr_val, es), p->csr_off,
            p->csr_idx, NULL, p->csr_val, p->csr_descr->base, t, 1, dirA);
    const struct trnsparseSpMatDescr bsr =
        raw(TRNSPARSE_FORMAT_BSR, blocks_of(p->rows, blockDim), blocks_of(p->cols, blockDim),
            cap2(c, p->bsr_idx, p->bsr_val, es * bs * bs), p->bsr_off, p->bsr_idx, NULL, p->bsr_val,
            p->bsr_descr->base, t, blockDim, dirA);
    return convert(handle, fn,
                   to_bsr ? TRNSCI__V1__SPARSE_CONVERT__SPARSE_CSR_TO_BSR
                          : TRNSCI__V1__SPARSE_CONVERT__SPARSE_BSR_TO_CSR,
                   to_bsr ? &csr : &bsr, to_bsr ? &bsr : &csr, NULL, 0);
}

static trnsparseStatus_t csr2bsr(trnsparseHandle_t handle, trnsciDataType t,
                                 trnsparseDirection_t dirA, int m, int n,
                                 const trnsparseMatDescr_t descrA, const void *csrValA,
                                 const int *csrRowPtrA, const int *csrColIndA, int blockDim,
                                 const trnsparseMatDescr_t descrC, void *bsrValC,
                                 const int *bsrRowPtrC, int *bsrColIndC) {
    const legacy_pair p = {m,          n,          csrRowPtrA, csrColIndA, csrValA,
                           bsrRowPtrC, bsrColIndC, bsrValC,    descrA,     descrC};
    return csr_bsr(handle, "csr2bsr", 1, t, dirA, blockDim, &p);
}

trnsparseStatus_t trnsparseScsr2bsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m,
                                    int n, const trnsparseMatDescr_t descrA, const float *csrValA,
                                    const int *csrRowPtrA, const int *csrColIndA, int blockDim,
                                    const trnsparseMatDescr_t descrC, float *bsrValC,
                                    int *bsrRowPtrC, int *bsrColIndC) {
    return csr2bsr(handle, TRNSCI_R_32F, dirA, m, n, descrA, csrValA, csrRowPtrA, csrColIndA,
                   blockDim, descrC, bsrValC, bsrRowPtrC, bsrColIndC);
}

trnsparseStatus_t trnsparseDcsr2bsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m,
                                    int n, const trnsparseMatDescr_t descrA, const double *csrValA,
                                    const int *csrRowPtrA, const int *csrColIndA, int blockDim,
                                    const trnsparseMatDescr_t descrC, double *bsrValC,
                                    int *bsrRowPtrC, int *bsrColIndC) {
    return csr2bsr(handle, TRNSCI_R_64F, dirA, m, n, descrA, csrValA, csrRowPtrA, csrColIndA,
                   blockDim, descrC, bsrValC, bsrRowPtrC, bsrColIndC);
}

static trnsparseStatus_t bsr2csr(trnsparseHandle_t handle, trnsciDataType t,
                                 trnsparseDirection_t dirA, int mb, int nb,
                                 const trnsparseMatDescr_t descrA, const void *bsrValA,
                                 const int *bsrRowPtrA, const int *bsrColIndA, int blockDim,
                                 const trnsparseMatDescr_t descrC, void *csrValC, int *csrRowPtrC,
                                 int *csrColIndC) {
    const int64_t bs = blockDim > 0 ? blockDim : 1;
    const legacy_pair p = {mb * bs,    nb * bs,    csrRowPtrC, csrColIndC, csrValC,
                           bsrRowPtrA, bsrColIndA, bsrValA,    descrC,     descrA};
    return csr_bsr(handle, "bsr2csr", 0, t, dirA, blockDim, &p);
}

trnsparseStatus_t trnsparseSbsr2csr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb,
                                    int nb, const trnsparseMatDescr_t descrA, const float *bsrValA,
                                    const int *bsrRowPtrA, const int *bsrColIndA, int blockDim,
                                    const trnsparseMatDescr_t descrC, float *csrValC,
                                    int *csrRowPtrC, int *csrColIndC) {
    return bsr2csr(handle, TRNSCI_R_32F, dirA, mb, nb, descrA, bsrValA, bsrRowPtrA, bsrColIndA,
                   blockDim, descrC, csrValC, csrRowPtrC, csrColIndC);
}

trnsparseStatus_t trnsparseDbsr2csr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb,
                                    int nb, const trnsparseMatDescr_t descrA, const double *bsrValA,
                                    const int *bsrRowPtrA, const int *bsrColIndA, int blockDim,
                                    const trnsparseMatDescr_t descrC, double *csrValC,
                                    int *csrRowPtrC, int *csrColIndC) {
    return bsr2csr(handle, TRNSCI_R_64F, dirA, mb, nb, descrA, bsrValA, bsrRowPtrA, bsrColIndA,
                   blockDim, descrC, csrValC, csrRowPtrC, csrColIndC);
}

/* ---- dense <-> sparse ----------------------------------------------------------------- */

trnsparseStatus_t trnsparseDenseToSparse_bufferSize(trnsparseHandle_t handle,
                                                    trnsparseConstDnMatDescr_t matA,
                                                    trnsparseSpMatDescr_t matB,
                                                    trnsparseDenseToSparseAlg_t alg,
                                                    size_t *bufferSize) {
    (void)matA, (void)matB, (void)alg;
    return trn_sparse_no_buffer(handle, "denseToSparse", bufferSize);
}

trnsparseStatus_t trnsparseDenseToSparse_analysis(trnsparseHandle_t handle,
                                                  trnsparseConstDnMatDescr_t matA,
                                                  trnsparseSpMatDescr_t matB,
                                                  trnsparseDenseToSparseAlg_t alg,
                                                  void *externalBuffer) {
    (void)alg, (void)externalBuffer;
    if (!matB)
        return trn_sparse_fail(trnsciErrorInvalidValue, "denseToSparse_analysis: matB is NULL");
    if (matB->format == TRNSPARSE_FORMAT_BLOCKED_ELL) { /* the block columns are given */
        if (!handle)
            return TRNSPARSE_STATUS_NOT_INITIALIZED;
        trn_ok();
        return TRNSPARSE_STATUS_SUCCESS;
    }
    trnsparseStatus_t rc =
        convert(handle, "denseToSparse_analysis",
                TRNSCI__V1__SPARSE_CONVERT__SPARSE_DENSE_TO_SPARSE_ANALYSIS, NULL, matB, matA, 0);
    if (rc != TRNSPARSE_STATUS_SUCCESS)
        return rc;
    const int64_t outer = matB->format == TRNSPARSE_FORMAT_CSC ? matB->cols : matB->rows;
    int64_t last = 0;
    if ((rc = read_index(matB->offsets, outer, matB->offType == TRNSPARSE_INDEX_64I, &last)))
        return rc;
    matB->nnz = last - matB->base;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseDenseToSparse_convert(trnsparseHandle_t handle,
                                                 trnsparseConstDnMatDescr_t matA,
                                                 trnsparseSpMatDescr_t matB,
                                                 trnsparseDenseToSparseAlg_t alg,
                                                 void *externalBuffer) {
    (void)alg, (void)externalBuffer;
    return convert(handle, "denseToSparse_convert",
                   TRNSCI__V1__SPARSE_CONVERT__SPARSE_DENSE_TO_SPARSE, NULL, matB, matA, 0);
}

trnsparseStatus_t trnsparseSparseToDense_bufferSize(trnsparseHandle_t handle,
                                                    trnsparseConstSpMatDescr_t matA,
                                                    trnsparseDnMatDescr_t matB,
                                                    trnsparseSparseToDenseAlg_t alg,
                                                    size_t *bufferSize) {
    (void)matA, (void)matB, (void)alg;
    return trn_sparse_no_buffer(handle, "sparseToDense", bufferSize);
}

trnsparseStatus_t trnsparseSparseToDense(trnsparseHandle_t handle, trnsparseConstSpMatDescr_t matA,
                                         trnsparseDnMatDescr_t matB,
                                         trnsparseSparseToDenseAlg_t alg, void *externalBuffer) {
    (void)alg, (void)externalBuffer;
    return convert(handle, "sparseToDense", TRNSCI__V1__SPARSE_CONVERT__SPARSE_SPARSE_TO_DENSE,
                   matA, NULL, matB, 0);
}
