/*
 * sparse_convert.c — trnsparse's format conversions: the legacy routines
 * that take raw 32-bit arrays and a trnsparseMatDescr_t (Xcsr2coo,
 * Xcoo2csr, Csr2cscEx2, Xcsr2bsrNnz, <t>csr2bsr, <t>bsr2csr, and the
 * general-block Xcsr2gebsrNnz, <t>csr2gebsr, <t>gebsr2csr, <t>gebsr2gebsr)
 * and the generic DenseToSparse / SparseToDense. Each becomes one
 * SparseConvertOp (gebsr2gebsr two, through the caller's buffer); the raw
 * arrays travel as a SparseMatrix built on the stack. Complex values and
 * blocks that are not square need protocol 1.15. The two steps that
 * return a count to the host (Xcsr2bsrNnz, DenseToSparse_analysis) read it
 * back from the offsets they wrote, after the op (trnsciMemcpy orders after
 * all queued work and reports the op's failure, if any).
 */
#include <stdint.h>
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

/* Complex values and general (rectangular) blocks need this protocol minor. */
#define CONVERT_MINOR 15u

static int is_complex(trnsciDataType t) {
    return t == TRNSCI_C_32F || t == TRNSCI_C_64F;
}

/* Bytes of one value of t (4 for a type the daemon will refuse). */
static int64_t value_size(trnsciDataType t) {
    return t == TRNSCI_R_64F || t == TRNSCI_C_32F ? 8 : t == TRNSCI_C_64F ? 16 : 4;
}

/* A descriptor for raw 32-bit arrays. */
static struct trnsparseSpMatDescr raw(trnsparseFormat_t f, int64_t rows, int64_t cols, int64_t nnz,
                                      const void *off, const void *idx, const void *rowind,
                                      const void *val, trnsparseIndexBase_t base,
                                      trnsciDataType type, int64_t rb, int64_t cb,
                                      trnsparseDirection_t dir) {
    struct trnsparseSpMatDescr d = {
        .format = f,
        .rows = rows,
        .cols = cols,
        .nnz = nnz,
        .rb = rb,
        .cb = cb,
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
    /* What daemons before 1.15 refuse: complex values, blocks that are not
     * square, BSR -> CSR without values. */
    const trnsparseConstSpMatDescr_t bsr = src && src->format == TRNSPARSE_FORMAT_BSR ? src : dst;
    if ((src && is_complex(src->valueType)) || (dst && is_complex(dst->valueType)) ||
        (dense && is_complex(dense->type)) ||
        (bsr && bsr->format == TRNSPARSE_FORMAT_BSR && bsr->rb != bsr->cb) ||
        (structure_only && what == TRNSCI__V1__SPARSE_CONVERT__SPARSE_BSR_TO_CSR)) {
        if ((e = trn_client_need_minor(c, CONVERT_MINOR, fn)) != trnsciSuccess)
            return trn_sparse_status(e);
    }
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
                                             NULL, NULL, idxBase, TRNSCI_R_32F, 1, 1, 0);
    const struct trnsparseSpMatDescr b = raw(TRNSPARSE_FORMAT_COO, m, 0, nnz, NULL, NULL, cooRowInd,
                                             NULL, idxBase, TRNSCI_R_32F, 1, 1, 0);
    return convert(handle, "csr2coo", TRNSCI__V1__SPARSE_CONVERT__SPARSE_CSR_TO_COO, &a, &b, NULL,
                   0);
}

trnsparseStatus_t trnsparseXcoo2csr(trnsparseHandle_t handle, const int *cooRowInd, int nnz, int m,
                                    int *csrSortedRowPtr, trnsparseIndexBase_t idxBase) {
    const struct trnsparseSpMatDescr a = raw(TRNSPARSE_FORMAT_COO, m, 0, nnz, NULL, NULL, cooRowInd,
                                             NULL, idxBase, TRNSCI_R_32F, 1, 1, 0);
    const struct trnsparseSpMatDescr b = raw(TRNSPARSE_FORMAT_CSR, m, 0, nnz, csrSortedRowPtr, NULL,
                                             NULL, NULL, idxBase, TRNSCI_R_32F, 1, 1, 0);
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
            idxBase, valType, 1, 1, 0);
    const struct trnsparseSpMatDescr b =
        raw(TRNSPARSE_FORMAT_CSC, m, n, nnz, cscColPtr, cscRowInd, NULL, symbolic ? NULL : cscVal,
            idxBase, valType, 1, 1, 0);
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

/* The start of the legacy CSR <-> BSR routines: legacy_begin and a block
 * direction that is ROW or COLUMN. */
static trn_client *bsr_begin(trnsparseHandle_t handle, const char *fn, trnsparseDirection_t dirA,
                             const trnsparseMatDescr_t descrA, const trnsparseMatDescr_t descrC,
                             trnsparseStatus_t *st) {
    trn_client *c = legacy_begin(handle, fn, descrA, descrC, st);
    if (c && dirA != TRNSPARSE_DIRECTION_ROW && dirA != TRNSPARSE_DIRECTION_COLUMN) {
        *st = trn_sparse_fail(trnsciErrorInvalidValue, "%s: dirA %d is not ROW or COLUMN", fn,
                              (int)dirA);
        return NULL;
    }
    return c;
}

/* The block-row offsets of the BSR form (rb x cb blocks) of a CSR matrix
 * and, when nnzTotal is given, its number of blocks (the call waits).
 * csr_nnz < 0: the CSR arrays count as long as their allocations. */
static trnsparseStatus_t bsr_nnz(trnsparseHandle_t handle, const char *fn,
                                 trnsparseDirection_t dirA, int m, int n,
                                 const trnsparseMatDescr_t descrA, const int *csrRowPtrA,
                                 const int *csrColIndA, int64_t csr_nnz,
                                 const trnsparseMatDescr_t descrC, int *bsrRowPtrC, int rb, int cb,
                                 int *nnzTotalDevHostPtr) {
    trnsparseStatus_t st;
    trn_client *c = bsr_begin(handle, fn, dirA, descrA, descrC, &st);
    if (!c)
        return st;
    const int64_t mb = blocks_of(m, rb);
    const struct trnsparseSpMatDescr a =
        raw(TRNSPARSE_FORMAT_CSR, m, n, csr_nnz >= 0 ? csr_nnz : cap2(c, csrColIndA, NULL, 1),
            csrRowPtrA, csrColIndA, NULL, NULL, descrA->base, TRNSCI_R_32F, 1, 1, dirA);
    const struct trnsparseSpMatDescr b =
        raw(TRNSPARSE_FORMAT_BSR, mb, blocks_of(n, cb), 0, bsrRowPtrC, NULL, NULL, NULL,
            descrC->base, TRNSCI_R_32F, rb, cb, dirA);
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

trnsparseStatus_t trnsparseXcsr2bsrNnz(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m,
                                       int n, const trnsparseMatDescr_t descrA,
                                       const int *csrRowPtrA, const int *csrColIndA, int blockDim,
                                       const trnsparseMatDescr_t descrC, int *bsrRowPtrC,
                                       int *nnzTotalDevHostPtr) {
    return bsr_nnz(handle, "csr2bsrNnz", dirA, m, n, descrA, csrRowPtrA, csrColIndA, -1, descrC,
                   bsrRowPtrC, blockDim, blockDim, nnzTotalDevHostPtr);
}

trnsparseStatus_t trnsparseXcsr2gebsrNnz(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m,
                                         int n, const trnsparseMatDescr_t descrA,
                                         const int *csrRowPtrA, const int *csrColIndA,
                                         const trnsparseMatDescr_t descrC, int *bsrRowPtrC,
                                         int rowBlockDim, int colBlockDim, int *nnzTotalDevHostPtr,
                                         void *pBuffer) {
    (void)pBuffer;
    return bsr_nnz(handle, "csr2gebsrNnz", dirA, m, n, descrA, csrRowPtrA, csrColIndA, -1, descrC,
                   bsrRowPtrC, rowBlockDim, colBlockDim, nnzTotalDevHostPtr);
}

/* A CSR matrix (rows x cols) and a BSR one (ceil(rows / rb) x ceil(cols /
 * cb) blocks of rb x cb in dirA's order), either the source; raw 32-bit
 * arrays, each counted as long as its allocation unless csr_nnz (bsr_nnz)
 * is >= 0. */
typedef struct legacy_pair {
    int64_t rows, cols;
    const void *csr_off, *csr_idx, *csr_val, *bsr_off, *bsr_idx, *bsr_val;
    const trnsparseMatDescr_t csr_descr, bsr_descr;
    int64_t csr_nnz, bsr_nnz;
    int structure_only; /* BSR -> CSR: offsets and column indices only */
} legacy_pair;

static trnsparseStatus_t csr_bsr(trnsparseHandle_t handle, const char *fn, int to_bsr,
                                 trnsciDataType t, trnsparseDirection_t dirA, int rb, int cb,
                                 const legacy_pair *p) {
    trnsparseStatus_t st;
    trn_client *c = bsr_begin(handle, fn, dirA, p->csr_descr, p->bsr_descr, &st);
    if (!c)
        return st;
    const int64_t es = value_size(t), per = (rb > 0 ? rb : 1) * (int64_t)(cb > 0 ? cb : 1);
    const struct trnsparseSpMatDescr csr =
        raw(TRNSPARSE_FORMAT_CSR, p->rows, p->cols,
            p->csr_nnz >= 0 ? p->csr_nnz : cap2(c, p->csr_idx, p->csr_val, es), p->csr_off,
            p->csr_idx, NULL, p->csr_val, p->csr_descr->base, t, 1, 1, dirA);
    const struct trnsparseSpMatDescr bsr =
        raw(TRNSPARSE_FORMAT_BSR, blocks_of(p->rows, rb), blocks_of(p->cols, cb),
            p->bsr_nnz >= 0 ? p->bsr_nnz : cap2(c, p->bsr_idx, p->bsr_val, es * per), p->bsr_off,
            p->bsr_idx, NULL, p->bsr_val, p->bsr_descr->base, t, rb, cb, dirA);
    return convert(handle, fn,
                   to_bsr ? TRNSCI__V1__SPARSE_CONVERT__SPARSE_CSR_TO_BSR
                          : TRNSCI__V1__SPARSE_CONVERT__SPARSE_BSR_TO_CSR,
                   to_bsr ? &csr : &bsr, to_bsr ? &bsr : &csr, NULL, p->structure_only);
}

static trnsparseStatus_t csr2bsr(trnsparseHandle_t handle, const char *fn, trnsciDataType t,
                                 trnsparseDirection_t dirA, int m, int n,
                                 const trnsparseMatDescr_t descrA, const void *csrValA,
                                 const int *csrRowPtrA, const int *csrColIndA, int rb, int cb,
                                 const trnsparseMatDescr_t descrC, void *bsrValC,
                                 const int *bsrRowPtrC, int *bsrColIndC) {
    const legacy_pair p = {m,       n,      csrRowPtrA, csrColIndA, csrValA, bsrRowPtrC, bsrColIndC,
                           bsrValC, descrA, descrC,     -1,         -1,      0};
    return csr_bsr(handle, fn, 1, t, dirA, rb, cb, &p);
}

static trnsparseStatus_t bsr2csr(trnsparseHandle_t handle, const char *fn, trnsciDataType t,
                                 trnsparseDirection_t dirA, int mb, int nb,
                                 const trnsparseMatDescr_t descrA, const void *bsrValA,
                                 const int *bsrRowPtrA, const int *bsrColIndA, int rb, int cb,
                                 const trnsparseMatDescr_t descrC, void *csrValC, int *csrRowPtrC,
                                 int *csrColIndC) {
    const legacy_pair p = {mb * (int64_t)(rb > 0 ? rb : 1),
                           nb * (int64_t)(cb > 0 ? cb : 1),
                           csrRowPtrC,
                           csrColIndC,
                           csrValC,
                           bsrRowPtrA,
                           bsrColIndA,
                           bsrValA,
                           descrC,
                           descrA,
                           -1,
                           -1,
                           0};
    return csr_bsr(handle, fn, 0, t, dirA, rb, cb, &p);
}

/* csr2gebsr_bufferSize: no buffer is needed (0), after the caller-side
 * checks. */
static trnsparseStatus_t no_buffer(trnsparseHandle_t handle, const char *fn,
                                   trnsparseDirection_t dirA, const trnsparseMatDescr_t descrA,
                                   void *size, int ext) {
    trnsparseStatus_t st;
    trn_client *c = bsr_begin(handle, fn, dirA, descrA, descrA, &st);
    if (!c)
        return st;
    if (!size)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: pBufferSize is NULL", fn);
    if (ext)
        *(size_t *)size = 0;
    else
        *(int *)size = 0;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

#define BSR_ROUTINES(T, P, DT)                                                                     \
    trnsparseStatus_t trnsparse##P##csr2bsr(                                                       \
        trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,                         \
        const trnsparseMatDescr_t descrA, const T *csrValA, const int *csrRowPtrA,                 \
        const int *csrColIndA, int blockDim, const trnsparseMatDescr_t descrC, T *bsrValC,         \
        int *bsrRowPtrC, int *bsrColIndC) {                                                        \
        return csr2bsr(handle, "csr2bsr", DT, dirA, m, n, descrA, csrValA, csrRowPtrA, csrColIndA, \
                       blockDim, blockDim, descrC, bsrValC, bsrRowPtrC, bsrColIndC);               \
    }                                                                                              \
    trnsparseStatus_t trnsparse##P##bsr2csr(                                                       \
        trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,                       \
        const trnsparseMatDescr_t descrA, const T *bsrValA, const int *bsrRowPtrA,                 \
        const int *bsrColIndA, int blockDim, const trnsparseMatDescr_t descrC, T *csrValC,         \
        int *csrRowPtrC, int *csrColIndC) {                                                        \
        return bsr2csr(handle, "bsr2csr", DT, dirA, mb, nb, descrA, bsrValA, bsrRowPtrA,           \
                       bsrColIndA, blockDim, blockDim, descrC, csrValC, csrRowPtrC, csrColIndC);   \
    }                                                                                              \
    trnsparseStatus_t trnsparse##P##csr2gebsr_bufferSize(                                          \
        trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,                         \
        const trnsparseMatDescr_t descrA, const T *csrValA, const int *csrRowPtrA,                 \
        const int *csrColIndA, int rowBlockDim, int colBlockDim, int *pBufferSizeInBytes) {        \
        (void)m, (void)n, (void)csrValA, (void)csrRowPtrA, (void)csrColIndA, (void)rowBlockDim;    \
        (void)colBlockDim;                                                                         \
        return no_buffer(handle, "csr2gebsr_bufferSize", dirA, descrA, pBufferSizeInBytes, 0);     \
    }                                                                                              \
    trnsparseStatus_t trnsparse##P##csr2gebsr_bufferSizeExt(                                       \
        trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,                         \
        const trnsparseMatDescr_t descrA, const T *csrValA, const int *csrRowPtrA,                 \
        const int *csrColIndA, int rowBlockDim, int colBlockDim, size_t *pBufferSize) {            \
        (void)m, (void)n, (void)csrValA, (void)csrRowPtrA, (void)csrColIndA, (void)rowBlockDim;    \
        (void)colBlockDim;                                                                         \
        return no_buffer(handle, "csr2gebsr_bufferSizeExt", dirA, descrA, pBufferSize, 1);         \
    }                                                                                              \
    trnsparseStatus_t trnsparse##P##csr2gebsr(                                                     \
        trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,                         \
        const trnsparseMatDescr_t descrA, const T *csrValA, const int *csrRowPtrA,                 \
        const int *csrColIndA, const trnsparseMatDescr_t descrC, T *bsrValC, int *bsrRowPtrC,      \
        int *bsrColIndC, int rowBlockDim, int colBlockDim, void *pBuffer) {                        \
        (void)pBuffer;                                                                             \
        return csr2bsr(handle, "csr2gebsr", DT, dirA, m, n, descrA, csrValA, csrRowPtrA,           \
                       csrColIndA, rowBlockDim, colBlockDim, descrC, bsrValC, bsrRowPtrC,          \
                       bsrColIndC);                                                                \
    }                                                                                              \
    trnsparseStatus_t trnsparse##P##gebsr2csr(                                                     \
        trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,                       \
        const trnsparseMatDescr_t descrA, const T *bsrValA, const int *bsrRowPtrA,                 \
        const int *bsrColIndA, int rowBlockDim, int colBlockDim, const trnsparseMatDescr_t descrC, \
        T *csrValC, int *csrRowPtrC, int *csrColIndC) {                                            \
        return bsr2csr(handle, "gebsr2csr", DT, dirA, mb, nb, descrA, bsrValA, bsrRowPtrA,         \
                       bsrColIndA, rowBlockDim, colBlockDim, descrC, csrValC, csrRowPtrC,          \
                       csrColIndC);                                                                \
    }

BSR_ROUTINES(float, S, TRNSCI_R_32F)
BSR_ROUTINES(double, D, TRNSCI_R_64F)
BSR_ROUTINES(trnComplex, C, TRNSCI_C_32F)
BSR_ROUTINES(trnDoubleComplex, Z, TRNSCI_C_64F)

/* ---- BSR -> BSR of another block size ------------------------------------------------
 * A through the caller's buffer: A as CSR (every element of every block,
 * stored zeros included) there, then that CSR as BSR. So C's blocks are the
 * ones that cover an element of a stored block of A. The buffer holds the
 * CSR's m + 1 offsets, its nnzb * rbA * cbA column indices and, from the
 * next multiple of 16 bytes, as many values (Xgebsr2gebsrNnz writes no
 * values). */
typedef struct gebsr_buf {
    int64_t m, n, nel;           /* the CSR: mb*rbA x nb*cbA, nnzb*rbA*cbA entries */
    size_t idx_at, val_at, size; /* bytes */
} gebsr_buf;

static trnsparseStatus_t gebsr_layout(const char *fn, int mb, int nb, int nnzb, int rbA, int cbA,
                                      int rbC, int cbC, int64_t es, gebsr_buf *b) {
    if (mb < 0 || nb < 0 || nnzb < 0 || rbA < 1 || cbA < 1 || rbC < 1 || cbC < 1)
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: mb=%d, nb=%d, nnzb=%d must be >= 0 and the block dimensions "
                               "(%d x %d, %d x %d) >= 1",
                               fn, mb, nb, nnzb, rbA, cbA, rbC, cbC);
    uint64_t nel, idx_end, val_at, val_bytes, size;
    b->m = (int64_t)mb * rbA;
    b->n = (int64_t)nb * cbA;
    if (__builtin_mul_overflow((uint64_t)nnzb, (uint64_t)rbA * (uint64_t)cbA, &nel) ||
        nel > INT32_MAX || b->m > INT32_MAX || b->n > INT32_MAX ||
        __builtin_mul_overflow((uint64_t)b->m + 1 + nel, (uint64_t)4, &idx_end) ||
        __builtin_add_overflow(idx_end, (uint64_t)15, &val_at) ||
        __builtin_mul_overflow(nel, (uint64_t)es, &val_bytes) ||
        __builtin_add_overflow(val_at & ~(uint64_t)15, val_bytes, &size) || size > SIZE_MAX)
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: A as CSR (%lld x %lld, nnzb * rowBlockDimA * colBlockDimA "
                               "entries) does not fit 32-bit indices",
                               fn, (long long)b->m, (long long)b->n);
    b->nel = (int64_t)nel;
    b->idx_at = ((size_t)b->m + 1) * 4;
    b->val_at = (size_t)(val_at & ~(uint64_t)15);
    b->size = (size_t)size;
    return TRNSPARSE_STATUS_SUCCESS;
}

static trnsparseStatus_t gebsr_size(trnsparseHandle_t handle, const char *fn,
                                    trnsparseDirection_t dirA, int mb, int nb, int nnzb,
                                    const trnsparseMatDescr_t descrA, int rbA, int cbA, int rbC,
                                    int cbC, int64_t es, void *size, int ext) {
    trnsparseStatus_t st;
    gebsr_buf b = {0};
    if (!bsr_begin(handle, fn, dirA, descrA, descrA, &st))
        return st;
    if (!size)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: pBufferSize is NULL", fn);
    if ((st = gebsr_layout(fn, mb, nb, nnzb, rbA, cbA, rbC, cbC, es, &b)))
        return st;
    if (ext) {
        *(size_t *)size = b.size;
    } else {
        if (b.size > INT32_MAX)
            return trn_sparse_fail(trnsciErrorInvalidValue,
                                   "%s: the buffer (%zu bytes) exceeds an int: use "
                                   "_bufferSizeExt",
                                   fn, b.size);
        *(int *)size = (int)b.size;
    }
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

/* A as CSR into pBuffer (values unless bsrValA is NULL): a zero-based CSR
 * record for the next step in *csr_descr. */
static trnsparseStatus_t gebsr_to_buffer(trnsparseHandle_t handle, const char *fn, trnsciDataType t,
                                         trnsparseDirection_t dirA, int mb, int nb, int nnzb,
                                         const trnsparseMatDescr_t descrA, const void *bsrValA,
                                         const int *bsrRowPtrA, const int *bsrColIndA, int rbA,
                                         int cbA, int rbC, int cbC, void *pBuffer, gebsr_buf *b,
                                         trnsparseMatDescr_t *csr_descr) {
    trnsparseStatus_t st;
    if (!bsr_begin(handle, fn, dirA, descrA, descrA, &st))
        return st;
    if ((st = gebsr_layout(fn, mb, nb, nnzb, rbA, cbA, rbC, cbC, value_size(t), b)))
        return st;
    if (!pBuffer)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: pBuffer is NULL", fn);
    if ((st = trnsparseCreateMatDescr(csr_descr)))
        return st;
    char *buf = pBuffer;
    const legacy_pair p = {
        b->m,       b->n,       buf,     buf + b->idx_at, bsrValA ? buf + b->val_at : NULL,
        bsrRowPtrA, bsrColIndA, bsrValA, *csr_descr,      descrA,
        b->nel,     nnzb,       !bsrValA};
    st = csr_bsr(handle, fn, 0, t, dirA, rbA, cbA, &p);
    if (st) {
        trnsparseDestroyMatDescr(*csr_descr);
        *csr_descr = NULL;
    }
    return st;
}

trnsparseStatus_t trnsparseXgebsr2gebsrNnz(trnsparseHandle_t handle, trnsparseDirection_t dirA,
                                           int mb, int nb, int nnzb,
                                           const trnsparseMatDescr_t descrA, const int *bsrRowPtrA,
                                           const int *bsrColIndA, int rowBlockDimA,
                                           int colBlockDimA, const trnsparseMatDescr_t descrC,
                                           int *bsrRowPtrC, int rowBlockDimC, int colBlockDimC,
                                           int *nnzTotalDevHostPtr, void *pBuffer) {
    const char *fn = "gebsr2gebsrNnz";
    gebsr_buf b = {0};
    trnsparseMatDescr_t cd = NULL;
    trnsparseStatus_t st = gebsr_to_buffer(handle, fn, TRNSCI_R_32F, dirA, mb, nb, nnzb, descrA,
                                           NULL, bsrRowPtrA, bsrColIndA, rowBlockDimA, colBlockDimA,
                                           rowBlockDimC, colBlockDimC, pBuffer, &b, &cd);
    if (st)
        return st;
    const char *buf = pBuffer;
    st = bsr_nnz(handle, fn, dirA, (int)b.m, (int)b.n, cd, (const int *)buf,
                 (const int *)(buf + b.idx_at), b.nel, descrC, bsrRowPtrC, rowBlockDimC,
                 colBlockDimC, nnzTotalDevHostPtr);
    trnsparseDestroyMatDescr(cd);
    return st;
}

static trnsparseStatus_t
gebsr2gebsr(trnsparseHandle_t handle, trnsciDataType t, trnsparseDirection_t dirA, int mb, int nb,
            int nnzb, const trnsparseMatDescr_t descrA, const void *bsrValA, const int *bsrRowPtrA,
            const int *bsrColIndA, int rbA, int cbA, const trnsparseMatDescr_t descrC,
            void *bsrValC, int *bsrRowPtrC, int *bsrColIndC, int rbC, int cbC, void *pBuffer) {
    const char *fn = "gebsr2gebsr";
    if (handle && !bsrValA && nnzb > 0)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: bsrValA is NULL", fn);
    gebsr_buf b = {0};
    trnsparseMatDescr_t cd = NULL;
    trnsparseStatus_t st =
        gebsr_to_buffer(handle, fn, t, dirA, mb, nb, nnzb, descrA, bsrValA, bsrRowPtrA, bsrColIndA,
                        rbA, cbA, rbC, cbC, pBuffer, &b, &cd);
    if (st)
        return st;
    const char *buf = pBuffer;
    const legacy_pair p = {b.m,        b.n,     buf, buf + b.idx_at, buf + b.val_at, bsrRowPtrC,
                           bsrColIndC, bsrValC, cd,  descrC,         b.nel,          -1,
                           0};
    st = csr_bsr(handle, fn, 1, t, dirA, rbC, cbC, &p);
    trnsparseDestroyMatDescr(cd);
    return st;
}

#define GEBSR_ROUTINES(T, P, DT)                                                                   \
    trnsparseStatus_t trnsparse##P##gebsr2gebsr_bufferSize(                                        \
        trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb, int nnzb,             \
        const trnsparseMatDescr_t descrA, const T *bsrValA, const int *bsrRowPtrA,                 \
        const int *bsrColIndA, int rowBlockDimA, int colBlockDimA, int rowBlockDimC,               \
        int colBlockDimC, int *pBufferSizeInBytes) {                                               \
        (void)bsrValA, (void)bsrRowPtrA, (void)bsrColIndA;                                         \
        return gebsr_size(handle, "gebsr2gebsr_bufferSize", dirA, mb, nb, nnzb, descrA,            \
                          rowBlockDimA, colBlockDimA, rowBlockDimC, colBlockDimC, value_size(DT),  \
                          pBufferSizeInBytes, 0);                                                  \
    }                                                                                              \
    trnsparseStatus_t trnsparse##P##gebsr2gebsr_bufferSizeExt(                                     \
        trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb, int nnzb,             \
        const trnsparseMatDescr_t descrA, const T *bsrValA, const int *bsrRowPtrA,                 \
        const int *bsrColIndA, int rowBlockDimA, int colBlockDimA, int rowBlockDimC,               \
        int colBlockDimC, size_t *pBufferSize) {                                                   \
        (void)bsrValA, (void)bsrRowPtrA, (void)bsrColIndA;                                         \
        return gebsr_size(handle, "gebsr2gebsr_bufferSizeExt", dirA, mb, nb, nnzb, descrA,         \
                          rowBlockDimA, colBlockDimA, rowBlockDimC, colBlockDimC, value_size(DT),  \
                          pBufferSize, 1);                                                         \
    }                                                                                              \
    trnsparseStatus_t trnsparse##P##gebsr2gebsr(                                                   \
        trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb, int nnzb,             \
        const trnsparseMatDescr_t descrA, const T *bsrValA, const int *bsrRowPtrA,                 \
        const int *bsrColIndA, int rowBlockDimA, int colBlockDimA,                                 \
        const trnsparseMatDescr_t descrC, T *bsrValC, int *bsrRowPtrC, int *bsrColIndC,            \
        int rowBlockDimC, int colBlockDimC, void *pBuffer) {                                       \
        return gebsr2gebsr(handle, DT, dirA, mb, nb, nnzb, descrA, bsrValA, bsrRowPtrA,            \
                           bsrColIndA, rowBlockDimA, colBlockDimA, descrC, bsrValC, bsrRowPtrC,    \
                           bsrColIndC, rowBlockDimC, colBlockDimC, pBuffer);                       \
    }

GEBSR_ROUTINES(float, S, TRNSCI_R_32F)
GEBSR_ROUTINES(double, D, TRNSCI_R_64F)
GEBSR_ROUTINES(trnComplex, C, TRNSCI_C_32F)
GEBSR_ROUTINES(trnDoubleComplex, Z, TRNSCI_C_64F)

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
