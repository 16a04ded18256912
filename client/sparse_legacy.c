/*
 * sparse_legacy.c — cuSPARSE's legacy BSR products, renamed:
 * trnsparse<t>bsrmv (y = alpha A x + beta y) and trnsparse<t>bsrmm
 * (C = alpha A op(B) + beta C) for S, D, C and Z. Each is the generic SpMV/SpMM
 * on a BSR descriptor made for the call (no wire message of its own: the
 * SpMV/SpMM ops of protocol 1.0 carry BSR; complex values need 1.15), so the argument rules beyond
 * the legacy ones checked here (GENERAL matrix type, op(A) = N, block
 * size) are the daemon's SpMV/SpMM validator's. The descriptors are
 * host records on the stack; the op they describe holds device pointers
 * only, so nothing outlives the call.
 *
 * Also trnsparse<t>gemvi (y = alpha op(A) x + beta y, dense A, sparse x;
 * S, D, C, Z): the SpMM y^T = x^T op(A)^T + beta y^T with x^T a one-row
 * COO matrix whose row indices are not sent (SpMMOp.one_row, protocol
 * 1.15), op(A)^T read from A in place (A^T is A read row-major).
 */
#include "client/sparse_internal.h"

/* The legacy checks every BSR product shares (legacy names the routine). */
static trnsparseStatus_t bsr_checks(trnsparseHandle_t handle, const char *legacy,
                                    trnsparseDirection_t dir, trnsparseOperation_t transA,
                                    const trnsparseMatDescr_t descrA, int blockDim, int minBlock,
                                    const void *alpha, const void *beta) {
    if (!handle)
        return TRNSPARSE_STATUS_NOT_INITIALIZED;
    if (!descrA || !alpha || !beta)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: descrA, alpha or beta is NULL",
                               legacy);
    if (dir != TRNSPARSE_DIRECTION_ROW && dir != TRNSPARSE_DIRECTION_COLUMN)
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: dirA %d is not TRNSPARSE_DIRECTION_ROW (0) or _COLUMN (1)",
                               legacy, (int)dir);
    if (transA != TRNSPARSE_OPERATION_NON_TRANSPOSE)
        return trn_sparse_fail(trnsciErrorNotSupported,
                               "%s: transA %d: only TRNSPARSE_OPERATION_NON_TRANSPOSE is "
                               "supported (as cuSPARSE)",
                               legacy, (int)transA);
    if (trnsparseGetMatType(descrA) != TRNSPARSE_MATRIX_TYPE_GENERAL)
        return trn_sparse_fail(trnsciErrorNotSupported,
                               "%s: descrA: only TRNSPARSE_MATRIX_TYPE_GENERAL is supported",
                               legacy);
    if (blockDim < minBlock)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: blockDim=%d must be >= %d", legacy,
                               blockDim, minBlock);
    return TRNSPARSE_STATUS_SUCCESS;
}

/* The BSR descriptor of a legacy call (mb x kb blocks), a host record on
 * the caller's stack: the Create* routines would record success over an
 * error when their Destroy* ran after a failing product. */
static struct trnsparseSpMatDescr bsr_descr(trnsparseDirection_t dir, int mb, int kb, int nnzb,
                                            int blockDim, const void *val, const int *rowPtr,
                                            const int *colInd, const trnsparseMatDescr_t descrA,
                                            trnsciDataType t) {
    return (struct trnsparseSpMatDescr){
        .format = TRNSPARSE_FORMAT_BSR,
        .rows = mb,
        .cols = kb,
        .nnz = nnzb,
        .rb = blockDim,
        .cb = blockDim,
        .order = dir == TRNSPARSE_DIRECTION_ROW ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL,
        .offsets = (void *)rowPtr,
        .indices = (void *)colInd,
        .values = (void *)val,
        .offType = TRNSPARSE_INDEX_32I,
        .idxType = TRNSPARSE_INDEX_32I,
        .base = trnsparseGetMatIndexBase(descrA),
        .valueType = t,
    };
}

/* A column-major dense matrix record, as trnsparseCreateDnMat makes it. */
static struct trnsparseDnMatDescr dn_mat(int64_t rows, int64_t cols, int64_t ld, const void *v,
                                         trnsciDataType t) {
    return (struct trnsparseDnMatDescr){
        .rows = rows,
        .cols = cols,
        .ld = ld,
        .values = (void *)v,
        .type = t,
        .order = TRNSPARSE_ORDER_COL,
        .batchCount = 1,
        .batchStride = 0,
    };
}

static trnsparseStatus_t bsrmv(trnsparseHandle_t handle, const char *legacy, trnsciDataType t,
                               trnsparseDirection_t dir, trnsparseOperation_t trans, int mb, int nb,
                               int nnzb, const void *alpha, const trnsparseMatDescr_t descr,
                               const void *val, const int *rowPtr, const int *colInd, int blockDim,
                               const void *x, const void *beta, void *y) {
    trnsparseStatus_t st = bsr_checks(handle, legacy, dir, trans, descr, blockDim, 1, alpha, beta);
    if (st != TRNSPARSE_STATUS_SUCCESS)
        return st;
    if (mb < 0 || nb < 0 || nnzb < 0)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: mb=%d, nb=%d, nnzb=%d must be >= 0",
                               legacy, mb, nb, nnzb);
    const int64_t bd = blockDim;
    const struct trnsparseSpMatDescr a =
        bsr_descr(dir, mb, nb, nnzb, blockDim, val, rowPtr, colInd, descr, t);
    const struct trnsparseDnVecDescr vx = {
        .size = (int64_t)nb * bd, .values = (void *)x, .type = t};
    struct trnsparseDnVecDescr vy = {.size = (int64_t)mb * bd, .values = y, .type = t};
    return trnsparseSpMV(handle, TRNSPARSE_OPERATION_NON_TRANSPOSE, alpha, &a, &vx, beta, &vy, t,
                         TRNSPARSE_SPMV_ALG_DEFAULT, NULL);
}

static trnsparseStatus_t bsrmm(trnsparseHandle_t handle, const char *legacy, trnsciDataType t,
                               trnsparseDirection_t dir, trnsparseOperation_t transA,
                               trnsparseOperation_t transB, int mb, int n, int kb, int nnzb,
                               const void *alpha, const trnsparseMatDescr_t descr, const void *val,
                               const int *rowPtr, const int *colInd, int blockDim, const void *B,
                               int ldb, const void *beta, void *C, int ldc) {
    /* cuSPARSE's bsrmm takes blockDim > 1 only. */
    trnsparseStatus_t st = bsr_checks(handle, legacy, dir, transA, descr, blockDim, 2, alpha, beta);
    if (st != TRNSPARSE_STATUS_SUCCESS)
        return st;
    if (transB != TRNSPARSE_OPERATION_NON_TRANSPOSE && transB != TRNSPARSE_OPERATION_TRANSPOSE)
        return trn_sparse_fail(trnsciErrorNotSupported,
                               "%s: transB %d: only NON_TRANSPOSE and TRANSPOSE are supported",
                               legacy, (int)transB);
    if (mb < 0 || n < 0 || kb < 0 || nnzb < 0)
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: mb=%d, n=%d, kb=%d, nnzb=%d must be >= 0", legacy, mb, n, kb,
                               nnzb);
    const int64_t bd = blockDim, k = (int64_t)kb * bd, m = (int64_t)mb * bd;
    const int nt = transB == TRNSPARSE_OPERATION_NON_TRANSPOSE;
    /* B is k x n (op N) or n x k (op T), column-major at ldb; C m x n at ldc. */
    if (ldb < (nt ? (k > 1 ? k : 1) : (n > 1 ? n : 1)) || ldc < (m > 1 ? m : 1))
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: ldb=%d must be >= max(1, %s=%lld) and ldc=%d >= max(1, "
                               "mb*blockDim=%lld)",
                               legacy, ldb, nt ? "kb*blockDim" : "n", (long long)(nt ? k : n), ldc,
                               (long long)m);
    const struct trnsparseSpMatDescr a =
        bsr_descr(dir, mb, kb, nnzb, blockDim, val, rowPtr, colInd, descr, t);
    const struct trnsparseDnMatDescr mB = dn_mat(nt ? k : n, nt ? n : k, ldb, B, t);
    struct trnsparseDnMatDescr mC = dn_mat(m, n, ldc, C, t);
    return trnsparseSpMM(handle, TRNSPARSE_OPERATION_NON_TRANSPOSE, transB, alpha, &a, &mB, beta,
                         &mC, t, TRNSPARSE_SPMM_ALG_DEFAULT, NULL);
}

#define BSR_ROUTINES(T, P, DT)                                                                     \
    trnsparseStatus_t trnsparse##P##bsrmv(                                                         \
        trnsparseHandle_t handle, trnsparseDirection_t dirA, trnsparseOperation_t transA, int mb,  \
        int nb, int nnzb, const T *alpha, const trnsparseMatDescr_t descrA, const T *bsrValA,      \
        const int *bsrRowPtrA, const int *bsrColIndA, int blockDim, const T *x, const T *beta,     \
        T *y) {                                                                                    \
        return bsrmv(handle, #P "bsrmv", DT, dirA, transA, mb, nb, nnzb, alpha, descrA, bsrValA,   \
                     bsrRowPtrA, bsrColIndA, blockDim, x, beta, y);                                \
    }                                                                                              \
    trnsparseStatus_t trnsparse##P##bsrmm(                                                         \
        trnsparseHandle_t handle, trnsparseDirection_t dirA, trnsparseOperation_t transA,          \
        trnsparseOperation_t transB, int mb, int n, int kb, int nnzb, const T *alpha,              \
        const trnsparseMatDescr_t descrA, const T *bsrValA, const int *bsrRowPtrA,                 \
        const int *bsrColIndA, int blockDim, const T *B, int ldb, const T *beta, T *C, int ldc) {  \
        return bsrmm(handle, #P "bsrmm", DT, dirA, transA, transB, mb, n, kb, nnzb, alpha, descrA, \
                     bsrValA, bsrRowPtrA, bsrColIndA, blockDim, B, ldb, beta, C, ldc);             \
    }

BSR_ROUTINES(float, S, TRNSCI_R_32F)
BSR_ROUTINES(double, D, TRNSCI_R_64F)
BSR_ROUTINES(trnComplex, C, TRNSCI_C_32F)
BSR_ROUTINES(trnDoubleComplex, Z, TRNSCI_C_64F)

/* y = alpha op(A) x + beta y for dense m x n A (column-major at lda) and a
 * sparse x of nnz entries (xInd from idxBase): op(A)^T is B of
 * y^T = alpha x^T op(A)^T + beta y^T, C = y^T as a 1 x rows(op(A)) row. */
static trnsparseStatus_t gemvi(trnsparseHandle_t handle, const char *legacy, trnsciDataType t,
                               trnsparseOperation_t trans, int m, int n, const void *alpha,
                               const void *A, int lda, int nnz, const void *xVal, const int *xInd,
                               const void *beta, void *y, trnsparseIndexBase_t idxBase) {
    trnsparseStatus_t st;
    trn_client *c = trn_sparse_begin(handle, &st);
    if (!c)
        return st;
    if (!alpha || !beta)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: alpha or beta is NULL", legacy);
    if (trans != TRNSPARSE_OPERATION_NON_TRANSPOSE && trans != TRNSPARSE_OPERATION_TRANSPOSE)
        return trn_sparse_fail(trnsciErrorNotSupported,
                               "%s: transA %d: only NON_TRANSPOSE and TRANSPOSE are supported (as "
                               "cuSPARSE)",
                               legacy, (int)trans);
    if (m < 0 || n < 0 || nnz < 0 || lda < (m > 1 ? m : 1))
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: m=%d, n=%d, nnz=%d must be >= 0 and lda=%d >= max(1, m)",
                               legacy, m, n, nnz, lda);
    if (idxBase != TRNSPARSE_INDEX_BASE_ZERO && idxBase != TRNSPARSE_INDEX_BASE_ONE)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: idxBase %d is not ZERO or ONE", legacy,
                               (int)idxBase);
    trnsciError_t e = trn_client_need_minor(c, 15, legacy);
    if (e != trnsciSuccess)
        return trn_sparse_status(e);
    const int nt = trans == TRNSPARSE_OPERATION_NON_TRANSPOSE;
    const int64_t k = nt ? n : m, rows = nt ? m : n; /* op(A) is rows x k */
    const struct trnsparseSpMatDescr xs = {
        .format = TRNSPARSE_FORMAT_COO,
        .rows = 1,
        .cols = k,
        .nnz = nnz,
        .rb = 1,
        .cb = 1,
        .indices = (void *)xInd,
        .values = (void *)xVal,
        .offType = TRNSPARSE_INDEX_32I,
        .idxType = TRNSPARSE_INDEX_32I,
        .base = idxBase,
        .valueType = t,
    };
    /* op(A)^T: A^T (n x m, row-major at lda) for N, A itself for T. */
    const struct trnsparseDnMatDescr mb = {
        .rows = k,
        .cols = rows,
        .ld = lda,
        .values = (void *)A,
        .type = t,
        .order = nt ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL,
        .batchCount = 1,
    };
    const struct trnsparseDnMatDescr mc = dn_mat(1, rows, 1, y, t);
    Trnsci__V1__SpMMOp w = TRNSCI__V1__SP_MMOP__INIT;
    trn_wire_spmat a;
    trn_wire_dnmat b, cm;
    e = trn_sparse_wire_type(t, legacy, "computeType", &w.compute_type);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_spmat(c, &xs, legacy, "x", &a);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_dnmat(c, &mb, legacy, "A", &b);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_dnmat(c, &mc, legacy, "y", &cm);
    if (e != trnsciSuccess)
        return trn_sparse_status(e);
    Trnsci__V1__Scalar al, be;
    trn_sparse_spmm_scalars(alpha, beta, t, &al, &be);
    w.op_a = TRNSCI__V1__OPERATION__OP_N;
    w.op_b = TRNSCI__V1__OPERATION__OP_N;
    w.alpha = &al;
    w.a = &a.m;
    w.b = &b.m;
    w.beta = &be;
    w.c = &cm.m;
    w.one_row = 1;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_SPMM;
    op.spmm = &w;
    return trn_sparse_submit(c, handle, &op);
}

static trnsparseStatus_t gemvi_size(trnsparseHandle_t handle, const char *legacy,
                                    trnsparseOperation_t trans, int m, int n, int nnz,
                                    int *pBufferSize) {
    if (!handle)
        return TRNSPARSE_STATUS_NOT_INITIALIZED;
    if (!pBufferSize)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: pBufferSize is NULL", legacy);
    if (m < 0 || n < 0 || nnz < 0)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: m=%d, n=%d, nnz=%d must be >= 0",
                               legacy, m, n, nnz);
    (void)trans;
    *pBufferSize = 0;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

#define GEMVI_ROUTINES(T, P, DT)                                                                   \
    trnsparseStatus_t trnsparse##P##gemvi_bufferSize(trnsparseHandle_t handle,                     \
                                                     trnsparseOperation_t transA, int m, int n,    \
                                                     int nnz, int *pBufferSize) {                  \
        return gemvi_size(handle, #P "gemvi_bufferSize", transA, m, n, nnz, pBufferSize);          \
    }                                                                                              \
    trnsparseStatus_t trnsparse##P##gemvi(trnsparseHandle_t handle, trnsparseOperation_t transA,   \
                                          int m, int n, const T *alpha, const T *A, int lda,       \
                                          int nnz, const T *xVal, const int *xInd, const T *beta,  \
                                          T *y, trnsparseIndexBase_t idxBase, void *pBuffer) {     \
        (void)pBuffer;                                                                             \
        return gemvi(handle, #P "gemvi", DT, transA, m, n, alpha, A, lda, nnz, xVal, xInd, beta,   \
                     y, idxBase);                                                                  \
    }

GEMVI_ROUTINES(float, S, TRNSCI_R_32F)
GEMVI_ROUTINES(double, D, TRNSCI_R_64F)
GEMVI_ROUTINES(trnComplex, C, TRNSCI_C_32F)
GEMVI_ROUTINES(trnDoubleComplex, Z, TRNSCI_C_64F)
