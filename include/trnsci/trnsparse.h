/*
 * trnsparse.h — sparse linear algebra (the analog of cuSPARSE's generic API).
 *
 * Names, parameter lists, enum values and status codes are cuSPARSE's with
 * the prefix changed (cusparseSpMV -> trnsparseSpMV, CUSPARSE_FORMAT_CSR ->
 * TRNSPARSE_FORMAT_CSR); docs/rosetta.md lists every deviation.
 *
 * Descriptors (trnsparseCreateCsr, ...) are host objects: they hold device
 * pointers (trnsciMalloc), sizes, the index type and base and the value
 * type, and cost no round trip. Routines are asynchronous: they return once
 * the daemon has checked the arguments (sizes, types, that every array lies
 * inside its allocation: TRNSPARSE_STATUS_INVALID_VALUE or _NOT_SUPPORTED
 * with trnsciGetLastErrorMessage saying why) and queued the op on the
 * handle's stream. The CONTENTS of offset and index arrays are checked by
 * the daemon when the op runs (offsets non-decreasing from the index base
 * up to nnz + base, indices inside the matrix): a bad one fails the op, and
 * the next synchronizing call returns trnsciErrorInvalidValue with a message
 * naming the array and the first bad position; the op's outputs are then
 * unspecified. The daemon never reads or writes outside the arrays.
 *
 * Types: values and computation in TRNSCI_R_32F or TRNSCI_R_64F (the compute
 * type must be the value type), indices TRNSPARSE_INDEX_32I or _64I (offsets
 * and indices of one type). Scalars (alpha, beta) are host pointers of the
 * compute type, read during the call (TRNSPARSE_POINTER_MODE_HOST only).
 * A handle may be used by one thread at a time.
 */
#ifndef TRNSCI_TRNSPARSE_H
#define TRNSCI_TRNSPARSE_H

#include <stddef.h>
#include <stdint.h>

#include <trnsci/library_types.h>
#include <trnsci/trn_complex.h>
#include <trnsci/trnsci.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- types (values are cuSPARSE's) ---------------------------------------- */

typedef enum trnsparseStatus_t {
    TRNSPARSE_STATUS_SUCCESS = 0,
    TRNSPARSE_STATUS_NOT_INITIALIZED = 1, /* no daemon reachable; NULL handle or descriptor */
    TRNSPARSE_STATUS_ALLOC_FAILED = 2,
    TRNSPARSE_STATUS_INVALID_VALUE = 3,
    TRNSPARSE_STATUS_ARCH_MISMATCH = 4,
    TRNSPARSE_STATUS_MAPPING_ERROR = 5,
    TRNSPARSE_STATUS_EXECUTION_FAILED = 6,
    TRNSPARSE_STATUS_INTERNAL_ERROR = 7,
    TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED = 8,
    TRNSPARSE_STATUS_ZERO_PIVOT = 9,
    TRNSPARSE_STATUS_NOT_SUPPORTED = 10,
    TRNSPARSE_STATUS_INSUFFICIENT_RESOURCES = 11,
} trnsparseStatus_t;

typedef enum trnsparsePointerMode_t {
    TRNSPARSE_POINTER_MODE_HOST = 0,
    TRNSPARSE_POINTER_MODE_DEVICE = 1,
} trnsparsePointerMode_t;

typedef enum trnsparseOperation_t {
    TRNSPARSE_OPERATION_NON_TRANSPOSE = 0,
    TRNSPARSE_OPERATION_TRANSPOSE = 1,
    TRNSPARSE_OPERATION_CONJUGATE_TRANSPOSE = 2, /* the transpose, for real types */
} trnsparseOperation_t;

typedef enum trnsparseIndexBase_t {
    TRNSPARSE_INDEX_BASE_ZERO = 0,
    TRNSPARSE_INDEX_BASE_ONE = 1,
} trnsparseIndexBase_t;

typedef enum trnsparseIndexType_t {
    TRNSPARSE_INDEX_16U = 1, /* not supported */
    TRNSPARSE_INDEX_32I = 2,
    TRNSPARSE_INDEX_64I = 3,
} trnsparseIndexType_t;

typedef enum trnsparseFormat_t {
    TRNSPARSE_FORMAT_CSR = 1,
    TRNSPARSE_FORMAT_CSC = 2,
    TRNSPARSE_FORMAT_COO = 3,
    TRNSPARSE_FORMAT_BLOCKED_ELL = 5, /* SpMV/SpMM, op N */
    TRNSPARSE_FORMAT_BSR = 6,
    TRNSPARSE_FORMAT_SLICED_ELLPACK = 7, /* SpMV/SpMM, op N */
} trnsparseFormat_t;

typedef enum trnsparseOrder_t {
    TRNSPARSE_ORDER_COL = 1,
    TRNSPARSE_ORDER_ROW = 2,
} trnsparseOrder_t;

/* Any algorithm value selects the one CPU algorithm of the routine. */
typedef enum trnsparseSpMVAlg_t {
    TRNSPARSE_SPMV_ALG_DEFAULT = 0,
    TRNSPARSE_SPMV_COO_ALG1 = 1,
    TRNSPARSE_SPMV_CSR_ALG1 = 2,
    TRNSPARSE_SPMV_CSR_ALG2 = 3,
    TRNSPARSE_SPMV_COO_ALG2 = 4,
    TRNSPARSE_SPMV_SELL_ALG1 = 5,
    TRNSPARSE_SPMV_BSR_ALG1 = 6,
    /* cuSPARSE 11's names, removed in 12 and still in older code */
    TRNSPARSE_MV_ALG_DEFAULT = 0,
    TRNSPARSE_COOMV_ALG = 1,
    TRNSPARSE_CSRMV_ALG1 = 2,
    TRNSPARSE_CSRMV_ALG2 = 3,
} trnsparseSpMVAlg_t;

typedef enum trnsparseSpMMAlg_t {
    TRNSPARSE_SPMM_ALG_DEFAULT = 0,
    TRNSPARSE_SPMM_COO_ALG1 = 1,
    TRNSPARSE_SPMM_COO_ALG2 = 2,
    TRNSPARSE_SPMM_COO_ALG3 = 3,
    TRNSPARSE_SPMM_CSR_ALG1 = 4,
    TRNSPARSE_SPMM_COO_ALG4 = 5,
    TRNSPARSE_SPMM_CSR_ALG2 = 6,
    TRNSPARSE_SPMM_CSR_ALG3 = 12,
    TRNSPARSE_SPMM_BLOCKED_ELL_ALG1 = 13,
    TRNSPARSE_SPMM_BSR_ALG1 = 14,
    /* cuSPARSE 11's names, removed in 12 and still in older code */
    TRNSPARSE_MM_ALG_DEFAULT = 0,
    TRNSPARSE_COOMM_ALG1 = 1,
    TRNSPARSE_COOMM_ALG2 = 2,
    TRNSPARSE_COOMM_ALG3 = 3,
    TRNSPARSE_CSRMM_ALG1 = 4,
} trnsparseSpMMAlg_t;

typedef enum trnsparseAction_t {
    TRNSPARSE_ACTION_SYMBOLIC = 0, /* indices only */
    TRNSPARSE_ACTION_NUMERIC = 1,  /* indices and values */
} trnsparseAction_t;

/* The layout of the elements inside a BSR block (legacy conversions). */
typedef enum trnsparseDirection_t {
    TRNSPARSE_DIRECTION_ROW = 0,
    TRNSPARSE_DIRECTION_COLUMN = 1,
} trnsparseDirection_t;

typedef enum trnsparseMatrixType_t {
    TRNSPARSE_MATRIX_TYPE_GENERAL = 0,
    TRNSPARSE_MATRIX_TYPE_SYMMETRIC = 1,  /* not supported */
    TRNSPARSE_MATRIX_TYPE_HERMITIAN = 2,  /* not supported */
    TRNSPARSE_MATRIX_TYPE_TRIANGULAR = 3, /* not supported */
} trnsparseMatrixType_t;

typedef enum trnsparseCsr2CscAlg_t {
    TRNSPARSE_CSR2CSC_ALG_DEFAULT = 1,
    TRNSPARSE_CSR2CSC_ALG1 = 1,
} trnsparseCsr2CscAlg_t;

typedef enum trnsparseDenseToSparseAlg_t {
    TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT = 0,
} trnsparseDenseToSparseAlg_t;

typedef enum trnsparseSparseToDenseAlg_t {
    TRNSPARSE_SPARSETODENSE_ALG_DEFAULT = 0,
} trnsparseSparseToDenseAlg_t;

typedef enum trnsparseSpGEMMAlg_t {
    TRNSPARSE_SPGEMM_DEFAULT = 0,
    TRNSPARSE_SPGEMM_CSR_ALG_DETERMINITIC = 1,
    TRNSPARSE_SPGEMM_CSR_ALG_NONDETERMINITIC = 2,
    TRNSPARSE_SPGEMM_ALG1 = 3,
    TRNSPARSE_SPGEMM_ALG2 = 4,
    TRNSPARSE_SPGEMM_ALG3 = 5,
} trnsparseSpGEMMAlg_t;

typedef enum trnsparseSDDMMAlg_t {
    TRNSPARSE_SDDMM_ALG_DEFAULT = 0,
} trnsparseSDDMMAlg_t;

/* Attributes of a sparse matrix the triangular solves read
 * (trnsparseSpMatSetAttribute); a new descriptor is LOWER, NON_UNIT. */
typedef enum trnsparseSpMatAttribute_t {
    TRNSPARSE_SPMAT_FILL_MODE = 0, /* data: a trnsparseFillMode_t */
    TRNSPARSE_SPMAT_DIAG_TYPE = 1, /* data: a trnsparseDiagType_t */
} trnsparseSpMatAttribute_t;

typedef enum trnsparseFillMode_t {
    TRNSPARSE_FILL_MODE_LOWER = 0,
    TRNSPARSE_FILL_MODE_UPPER = 1,
} trnsparseFillMode_t;

typedef enum trnsparseDiagType_t {
    TRNSPARSE_DIAG_TYPE_NON_UNIT = 0,
    TRNSPARSE_DIAG_TYPE_UNIT = 1,
} trnsparseDiagType_t;

typedef enum trnsparseSpSVAlg_t {
    TRNSPARSE_SPSV_ALG_DEFAULT = 0,
} trnsparseSpSVAlg_t;

typedef enum trnsparseSpSMAlg_t {
    TRNSPARSE_SPSM_ALG_DEFAULT = 0,
} trnsparseSpSMAlg_t;

typedef struct trnsparseContext *trnsparseHandle_t;
typedef struct trnsparseMatDescr *trnsparseMatDescr_t;
typedef struct trnsparseSpGEMMDescr *trnsparseSpGEMMDescr_t;
typedef struct trnsparseSpMatDescr *trnsparseSpMatDescr_t;
typedef struct trnsparseSpMatDescr const *trnsparseConstSpMatDescr_t;
typedef struct trnsparseSpVecDescr *trnsparseSpVecDescr_t;
typedef struct trnsparseSpVecDescr const *trnsparseConstSpVecDescr_t;
typedef struct trnsparseSpSVDescr *trnsparseSpSVDescr_t;
typedef struct trnsparseSpSMDescr *trnsparseSpSMDescr_t;
typedef struct trnsparseDnVecDescr *trnsparseDnVecDescr_t;
typedef struct trnsparseDnVecDescr const *trnsparseConstDnVecDescr_t;
typedef struct trnsparseDnMatDescr *trnsparseDnMatDescr_t;
typedef struct trnsparseDnMatDescr const *trnsparseConstDnMatDescr_t;

/* ---- the library handle --------------------------------------------------- */

/* Creates a handle bound to the default stream, host pointer mode.
 * Initialises the runtime (TRNSPARSE_STATUS_NOT_INITIALIZED when no daemon
 * is reachable). */
trnsparseStatus_t trnsparseCreate(trnsparseHandle_t *handle);
/* Frees the handle; does not synchronise. */
trnsparseStatus_t trnsparseDestroy(trnsparseHandle_t handle);
trnsparseStatus_t trnsparseSetStream(trnsparseHandle_t handle, trnsciStream_t streamId);
trnsparseStatus_t trnsparseGetStream(trnsparseHandle_t handle, trnsciStream_t *streamId);
/* TRNSPARSE_POINTER_MODE_DEVICE is refused with NOT_SUPPORTED. */
trnsparseStatus_t trnsparseSetPointerMode(trnsparseHandle_t handle, trnsparsePointerMode_t mode);
trnsparseStatus_t trnsparseGetPointerMode(trnsparseHandle_t handle, trnsparsePointerMode_t *mode);
/* major * 1000 + minor * 100 + patch, cusparseGetVersion's encoding. */
trnsparseStatus_t trnsparseGetVersion(trnsparseHandle_t handle, int *version);
/* "TRNSPARSE_STATUS_INVALID_VALUE", ...; never NULL. */
const char *trnsparseGetErrorName(trnsparseStatus_t status);
/* A sentence describing the status; never NULL. */
const char *trnsparseGetErrorString(trnsparseStatus_t status);

/* ---- sparse matrix descriptors -------------------------------------------
 * Each Create* checks its numbers (sizes >= 0, known types and base) and
 * keeps the pointers; nothing is read until an op runs. The Const variants
 * make descriptors the routines only read. For BSR, rows, cols and nnz count
 * blocks (brows, bcols, bnnz) of rowBlockSize x colBlockSize elements each,
 * stored in `order` (TRNSPARSE_ORDER_COL is the fast path for large blocks);
 * 128 x 128 is the Trainium tile. */

trnsparseStatus_t trnsparseCreateCsr(trnsparseSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols,
                                     int64_t nnz, void *csrRowOffsets, void *csrColInd,
                                     void *csrValues, trnsparseIndexType_t csrRowOffsetsType,
                                     trnsparseIndexType_t csrColIndType,
                                     trnsparseIndexBase_t idxBase, trnsciDataType valueType);
trnsparseStatus_t trnsparseCreateConstCsr(trnsparseConstSpMatDescr_t *spMatDescr, int64_t rows,
                                          int64_t cols, int64_t nnz, const void *csrRowOffsets,
                                          const void *csrColInd, const void *csrValues,
                                          trnsparseIndexType_t csrRowOffsetsType,
                                          trnsparseIndexType_t csrColIndType,
                                          trnsparseIndexBase_t idxBase, trnsciDataType valueType);
trnsparseStatus_t trnsparseCreateCsc(trnsparseSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols,
                                     int64_t nnz, void *cscColOffsets, void *cscRowInd,
                                     void *cscValues, trnsparseIndexType_t cscColOffsetsType,
                                     trnsparseIndexType_t cscRowIndType,
                                     trnsparseIndexBase_t idxBase, trnsciDataType valueType);
trnsparseStatus_t trnsparseCreateConstCsc(trnsparseConstSpMatDescr_t *spMatDescr, int64_t rows,
                                          int64_t cols, int64_t nnz, const void *cscColOffsets,
                                          const void *cscRowInd, const void *cscValues,
                                          trnsparseIndexType_t cscColOffsetsType,
                                          trnsparseIndexType_t cscRowIndType,
                                          trnsparseIndexBase_t idxBase, trnsciDataType valueType);
trnsparseStatus_t trnsparseCreateCoo(trnsparseSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols,
                                     int64_t nnz, void *cooRowInd, void *cooColInd, void *cooValues,
                                     trnsparseIndexType_t cooIdxType, trnsparseIndexBase_t idxBase,
                                     trnsciDataType valueType);
trnsparseStatus_t trnsparseCreateConstCoo(trnsparseConstSpMatDescr_t *spMatDescr, int64_t rows,
                                          int64_t cols, int64_t nnz, const void *cooRowInd,
                                          const void *cooColInd, const void *cooValues,
                                          trnsparseIndexType_t cooIdxType,
                                          trnsparseIndexBase_t idxBase, trnsciDataType valueType);
trnsparseStatus_t trnsparseCreateBsr(trnsparseSpMatDescr_t *spMatDescr, int64_t brows,
                                     int64_t bcols, int64_t bnnz, int64_t rowBlockSize,
                                     int64_t colBlockSize, void *bsrRowOffsets, void *bsrColInd,
                                     void *bsrValues, trnsparseIndexType_t bsrRowOffsetsType,
                                     trnsparseIndexType_t bsrColIndType,
                                     trnsparseIndexBase_t idxBase, trnsciDataType valueType,
                                     trnsparseOrder_t order);
trnsparseStatus_t trnsparseCreateConstBsr(trnsparseConstSpMatDescr_t *spMatDescr, int64_t brows,
                                          int64_t bcols, int64_t bnnz, int64_t rowBlockDim,
                                          int64_t colBlockDim, const void *bsrRowOffsets,
                                          const void *bsrColInd, const void *bsrValues,
                                          trnsparseIndexType_t bsrRowOffsetsType,
                                          trnsparseIndexType_t bsrColIndType,
                                          trnsparseIndexBase_t idxBase, trnsciDataType valueType,
                                          trnsparseOrder_t order);
/* Frees a descriptor (NULL is fine); never the arrays. */
trnsparseStatus_t trnsparseDestroySpMat(trnsparseConstSpMatDescr_t spMatDescr);

/* rows, cols, nnz as created (BSR: in blocks); NULL outputs are skipped. */
trnsparseStatus_t trnsparseSpMatGetSize(trnsparseConstSpMatDescr_t spMatDescr, int64_t *rows,
                                        int64_t *cols, int64_t *nnz);
trnsparseStatus_t trnsparseSpMatGetFormat(trnsparseConstSpMatDescr_t spMatDescr,
                                          trnsparseFormat_t *format);
trnsparseStatus_t trnsparseSpMatGetIndexBase(trnsparseConstSpMatDescr_t spMatDescr,
                                             trnsparseIndexBase_t *idxBase);
trnsparseStatus_t trnsparseSpMatGetValues(trnsparseSpMatDescr_t spMatDescr, void **values);
trnsparseStatus_t trnsparseConstSpMatGetValues(trnsparseConstSpMatDescr_t spMatDescr,
                                               const void **values);
trnsparseStatus_t trnsparseSpMatSetValues(trnsparseSpMatDescr_t spMatDescr, void *values);
/* Every field of a CSR descriptor (NULL outputs are skipped). */
trnsparseStatus_t trnsparseCsrGet(trnsparseSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols,
                                  int64_t *nnz, void **csrRowOffsets, void **csrColInd,
                                  void **csrValues, trnsparseIndexType_t *csrRowOffsetsType,
                                  trnsparseIndexType_t *csrColIndType,
                                  trnsparseIndexBase_t *idxBase, trnsciDataType *valueType);
trnsparseStatus_t trnsparseConstCsrGet(trnsparseConstSpMatDescr_t spMatDescr, int64_t *rows,
                                       int64_t *cols, int64_t *nnz, const void **csrRowOffsets,
                                       const void **csrColInd, const void **csrValues,
                                       trnsparseIndexType_t *csrRowOffsetsType,
                                       trnsparseIndexType_t *csrColIndType,
                                       trnsparseIndexBase_t *idxBase, trnsciDataType *valueType);
trnsparseStatus_t trnsparseCscGet(trnsparseSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols,
                                  int64_t *nnz, void **cscColOffsets, void **cscRowInd,
                                  void **cscValues, trnsparseIndexType_t *cscColOffsetsType,
                                  trnsparseIndexType_t *cscRowIndType,
                                  trnsparseIndexBase_t *idxBase, trnsciDataType *valueType);
trnsparseStatus_t trnsparseCooGet(trnsparseSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols,
                                  int64_t *nnz, void **cooRowInd, void **cooColInd,
                                  void **cooValues, trnsparseIndexType_t *idxType,
                                  trnsparseIndexBase_t *idxBase, trnsciDataType *valueType);
/* Replaces the arrays (e.g. after trnsparseSpGEMM_compute or
 * trnsparseDenseToSparse_analysis sized them). */
trnsparseStatus_t trnsparseCsrSetPointers(trnsparseSpMatDescr_t spMatDescr, void *csrRowOffsets,
                                          void *csrColInd, void *csrValues);
trnsparseStatus_t trnsparseCscSetPointers(trnsparseSpMatDescr_t spMatDescr, void *cscColOffsets,
                                          void *cscRowInd, void *cscValues);
trnsparseStatus_t trnsparseCooSetPointers(trnsparseSpMatDescr_t spMatDescr, void *cooRows,
                                          void *cooColumns, void *cooValues);

/* Blocked-ELL (CUSPARSE_FORMAT_BLOCKED_ELL): rows x cols in square blocks of
 * ellBlockSize. ellValue is a row-major rows x ellCols matrix (ellCols a
 * multiple of ellBlockSize): block row I's slot s is the block of columns
 * [s bs, s bs + bs) of rows [I bs, I bs + bs), placed at block column
 * ellColInd[I * (ellCols / bs) + s] (idxBase-based; -1: empty slot).
 * Blocks past rows or cols are cut. SpMatGetSize reports nnz = rows *
 * ellCols. Read by SpMV and SpMM with opA = NON_TRANSPOSE (T is
 * NOT_SUPPORTED); ellIdxType is 32I or 64I. */
trnsparseStatus_t trnsparseCreateBlockedEll(trnsparseSpMatDescr_t *spMatDescr, int64_t rows,
                                            int64_t cols, int64_t ellBlockSize, int64_t ellCols,
                                            void *ellColInd, void *ellValue,
                                            trnsparseIndexType_t ellIdxType,
                                            trnsparseIndexBase_t idxBase, trnsciDataType valueType);
trnsparseStatus_t
trnsparseCreateConstBlockedEll(trnsparseConstSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols,
                               int64_t ellBlockSize, int64_t ellCols, const void *ellColInd,
                               const void *ellValue, trnsparseIndexType_t ellIdxType,
                               trnsparseIndexBase_t idxBase, trnsciDataType valueType);
/* Every field of a Blocked-ELL descriptor (NULL outputs are skipped). */
trnsparseStatus_t trnsparseBlockedEllGet(trnsparseSpMatDescr_t spMatDescr, int64_t *rows,
                                         int64_t *cols, int64_t *ellBlockSize, int64_t *ellCols,
                                         void **ellColInd, void **ellValue,
                                         trnsparseIndexType_t *ellIdxType,
                                         trnsparseIndexBase_t *idxBase, trnsciDataType *valueType);
trnsparseStatus_t
trnsparseConstBlockedEllGet(trnsparseConstSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols,
                            int64_t *ellBlockSize, int64_t *ellCols, const void **ellColInd,
                            const void **ellValue, trnsparseIndexType_t *ellIdxType,
                            trnsparseIndexBase_t *idxBase, trnsciDataType *valueType);

/* Sliced-ELL (CUSPARSE_FORMAT_SLICED_ELLPACK): the rows in slices of
 * sliceSize; slice s holds entries [sellSliceOffsets[s] - base,
 * sellSliceOffsets[s+1] - base) of sellColInd and sellValues (a multiple
 * of sliceSize, sellValuesSize in all), column-major: entry k of the
 * slice's row r is at offset + k * sliceSize + r, column index -1 for
 * padding. nnz (0 <= nnz <= sellValuesSize) is only reported back. Read
 * by SpMV and SpMM with opA = NON_TRANSPOSE; offsets and column indices of
 * the same type (32I or 64I). */
trnsparseStatus_t trnsparseCreateSlicedEll(trnsparseSpMatDescr_t *spMatDescr, int64_t rows,
                                           int64_t cols, int64_t nnz, int64_t sellValuesSize,
                                           int64_t sliceSize, void *sellSliceOffsets,
                                           void *sellColInd, void *sellValues,
                                           trnsparseIndexType_t sellSliceOffsetsType,
                                           trnsparseIndexType_t sellColIndType,
                                           trnsparseIndexBase_t idxBase, trnsciDataType valueType);
trnsparseStatus_t trnsparseCreateConstSlicedEll(
    trnsparseConstSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols, int64_t nnz,
    int64_t sellValuesSize, int64_t sliceSize, const void *sellSliceOffsets, const void *sellColInd,
    const void *sellValues, trnsparseIndexType_t sellSliceOffsetsType,
    trnsparseIndexType_t sellColIndType, trnsparseIndexBase_t idxBase, trnsciDataType valueType);

/* A strided batch of batchCount CSR (COO) matrices of one shape and nnz:
 * matrix b's row offsets start b * offsetsBatchStride entries after
 * csrRowOffsets (0: shared), its column indices and values b *
 * columnsValuesBatchStride (COO: its row and column indices and values b *
 * batchStride) entries after the descriptor's. Read by SpMM: C_b = alpha
 * op(A_b) op(B_b) + beta C_b, where A or B with a batch count of 1 is
 * used for every b (broadcast) and C has the batch's count
 * (trnsparseDnMatSetStridedBatch). batchCount >= 1, strides >= 0. */
trnsparseStatus_t trnsparseCsrSetStridedBatch(trnsparseSpMatDescr_t spMatDescr, int batchCount,
                                              int64_t offsetsBatchStride,
                                              int64_t columnsValuesBatchStride);
trnsparseStatus_t trnsparseCooSetStridedBatch(trnsparseSpMatDescr_t spMatDescr, int batchCount,
                                              int64_t batchStride);

/* Sets or reads an attribute of a sparse matrix (the triangular solves'
 * fill mode and diagonal type). data points to a trnsparseFillMode_t or
 * trnsparseDiagType_t and dataSize must be its size; a wrong size, a NULL
 * data or an unknown attribute or value is INVALID_VALUE. */
trnsparseStatus_t trnsparseSpMatGetAttribute(trnsparseConstSpMatDescr_t spMatDescr,
                                             trnsparseSpMatAttribute_t attribute, void *data,
                                             size_t dataSize);
trnsparseStatus_t trnsparseSpMatSetAttribute(trnsparseSpMatDescr_t spMatDescr,
                                             trnsparseSpMatAttribute_t attribute, void *data,
                                             size_t dataSize);

/* ---- sparse vector descriptors -------------------------------------------
 * nnz entries of a vector of `size` elements: indices (nnz, of idxType, from
 * idxBase) and values (nnz, of valueType). Create* checks the numbers (0 <=
 * nnz <= size, known types and base); the routines check the arrays (the
 * daemon checks each index when the op runs: one outside [base, size - 1 +
 * base] fails the op like a bad matrix index). */
trnsparseStatus_t trnsparseCreateSpVec(trnsparseSpVecDescr_t *spVecDescr, int64_t size, int64_t nnz,
                                       void *indices, void *values, trnsparseIndexType_t idxType,
                                       trnsparseIndexBase_t idxBase, trnsciDataType valueType);
trnsparseStatus_t trnsparseCreateConstSpVec(trnsparseConstSpVecDescr_t *spVecDescr, int64_t size,
                                            int64_t nnz, const void *indices, const void *values,
                                            trnsparseIndexType_t idxType,
                                            trnsparseIndexBase_t idxBase, trnsciDataType valueType);
/* Frees a descriptor (NULL is fine); never the arrays. */
trnsparseStatus_t trnsparseDestroySpVec(trnsparseConstSpVecDescr_t spVecDescr);
/* Every field (NULL outputs are skipped). */
trnsparseStatus_t trnsparseSpVecGet(trnsparseSpVecDescr_t spVecDescr, int64_t *size, int64_t *nnz,
                                    void **indices, void **values, trnsparseIndexType_t *idxType,
                                    trnsparseIndexBase_t *idxBase, trnsciDataType *valueType);
trnsparseStatus_t trnsparseConstSpVecGet(trnsparseConstSpVecDescr_t spVecDescr, int64_t *size,
                                         int64_t *nnz, const void **indices, const void **values,
                                         trnsparseIndexType_t *idxType,
                                         trnsparseIndexBase_t *idxBase, trnsciDataType *valueType);
trnsparseStatus_t trnsparseSpVecGetIndexBase(trnsparseConstSpVecDescr_t spVecDescr,
                                             trnsparseIndexBase_t *idxBase);
trnsparseStatus_t trnsparseSpVecGetValues(trnsparseSpVecDescr_t spVecDescr, void **values);
trnsparseStatus_t trnsparseConstSpVecGetValues(trnsparseConstSpVecDescr_t spVecDescr,
                                               const void **values);
trnsparseStatus_t trnsparseSpVecSetValues(trnsparseSpVecDescr_t spVecDescr, void *values);

/* ---- dense descriptors ------------------------------------------------------ */

trnsparseStatus_t trnsparseCreateDnVec(trnsparseDnVecDescr_t *dnVecDescr, int64_t size,
                                       void *values, trnsciDataType valueType);
trnsparseStatus_t trnsparseCreateConstDnVec(trnsparseConstDnVecDescr_t *dnVecDescr, int64_t size,
                                            const void *values, trnsciDataType valueType);
trnsparseStatus_t trnsparseDestroyDnVec(trnsparseConstDnVecDescr_t dnVecDescr);
trnsparseStatus_t trnsparseDnVecGet(trnsparseDnVecDescr_t dnVecDescr, int64_t *size, void **values,
                                    trnsciDataType *valueType);
trnsparseStatus_t trnsparseConstDnVecGet(trnsparseConstDnVecDescr_t dnVecDescr, int64_t *size,
                                         const void **values, trnsciDataType *valueType);
trnsparseStatus_t trnsparseDnVecGetValues(trnsparseDnVecDescr_t dnVecDescr, void **values);
trnsparseStatus_t trnsparseConstDnVecGetValues(trnsparseConstDnVecDescr_t dnVecDescr,
                                               const void **values);
trnsparseStatus_t trnsparseDnVecSetValues(trnsparseDnVecDescr_t dnVecDescr, void *values);

/* rows x cols with leading dimension ld in `order` (ld >= rows for
 * column-major, >= cols for row-major; checked by the routines). */
trnsparseStatus_t trnsparseCreateDnMat(trnsparseDnMatDescr_t *dnMatDescr, int64_t rows,
                                       int64_t cols, int64_t ld, void *values,
                                       trnsciDataType valueType, trnsparseOrder_t order);
trnsparseStatus_t trnsparseCreateConstDnMat(trnsparseConstDnMatDescr_t *dnMatDescr, int64_t rows,
                                            int64_t cols, int64_t ld, const void *values,
                                            trnsciDataType valueType, trnsparseOrder_t order);
trnsparseStatus_t trnsparseDestroyDnMat(trnsparseConstDnMatDescr_t dnMatDescr);
trnsparseStatus_t trnsparseDnMatGet(trnsparseDnMatDescr_t dnMatDescr, int64_t *rows, int64_t *cols,
                                    int64_t *ld, void **values, trnsciDataType *type,
                                    trnsparseOrder_t *order);
trnsparseStatus_t trnsparseConstDnMatGet(trnsparseConstDnMatDescr_t dnMatDescr, int64_t *rows,
                                         int64_t *cols, int64_t *ld, const void **values,
                                         trnsciDataType *type, trnsparseOrder_t *order);
trnsparseStatus_t trnsparseDnMatGetValues(trnsparseDnMatDescr_t dnMatDescr, void **values);
trnsparseStatus_t trnsparseConstDnMatGetValues(trnsparseConstDnMatDescr_t dnMatDescr,
                                               const void **values);
trnsparseStatus_t trnsparseDnMatSetValues(trnsparseDnMatDescr_t dnMatDescr, void *values);
/* batchCount matrices, matrix b at values + b * batchStride elements
 * (batchStride >= the elements one matrix spans). Only
 * trnsparseBlockSparseAttention takes batched matrices. */
trnsparseStatus_t trnsparseDnMatSetStridedBatch(trnsparseDnMatDescr_t dnMatDescr, int batchCount,
                                                int64_t batchStride);
trnsparseStatus_t trnsparseDnMatGetStridedBatch(trnsparseConstDnMatDescr_t dnMatDescr,
                                                int *batchCount, int64_t *batchStride);

/* ---- SpMV: vecY = alpha op(matA) vecX + beta vecY ----------------------------
 * Every format (CSR, CSC, COO, BSR) with op N or T. beta = 0: vecY is not
 * read; alpha = 0: matA and vecX are not read. The daemon needs no external
 * buffer: *bufferSize is 0 and externalBuffer may be NULL (any buffer is
 * ignored). CSR with op N (and CSC with op T) is split over cores by row
 * ranges balanced by stored entries; results do not depend on the split.
 * Value types (matA, vecX, vecY all of one type) and computeType: R_32F /
 * R_32F, R_64F / R_64F, C_32F / C_32F, C_64F / C_64F, and R_16F or R_16BF
 * with R_32F (values widened exactly, FP32 arithmetic, each output element
 * rounded once); complex and 16-bit values need a daemon of protocol 1.15
 * (TRNSPARSE_STATUS_NOT_SUPPORTED from an older one). alpha and beta are
 * of computeType (host memory). For complex values opA may also be
 * CONJUGATE_TRANSPOSE (for real ones it is TRANSPOSE). */
trnsparseStatus_t trnsparseSpMV_bufferSize(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                           const void *alpha, trnsparseConstSpMatDescr_t matA,
                                           trnsparseConstDnVecDescr_t vecX, const void *beta,
                                           trnsparseDnVecDescr_t vecY, trnsciDataType computeType,
                                           trnsparseSpMVAlg_t alg, size_t *bufferSize);
/* There is nothing to prepare: checks the handle and returns. */
trnsparseStatus_t trnsparseSpMV_preprocess(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                           const void *alpha, trnsparseConstSpMatDescr_t matA,
                                           trnsparseConstDnVecDescr_t vecX, const void *beta,
                                           trnsparseDnVecDescr_t vecY, trnsciDataType computeType,
                                           trnsparseSpMVAlg_t alg, void *externalBuffer);
trnsparseStatus_t trnsparseSpMV(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                const void *alpha, trnsparseConstSpMatDescr_t matA,
                                trnsparseConstDnVecDescr_t vecX, const void *beta,
                                trnsparseDnVecDescr_t vecY, trnsciDataType computeType,
                                trnsparseSpMVAlg_t alg, void *externalBuffer);

/* ---- SpMM: matC = alpha op(matA) op(matB) + beta matC -------------------------
 * As SpMV, with dense B and C in either order (row-major B is the fast
 * layout) and opB N or T (complex values: also CONJUGATE_TRANSPOSE, for
 * opA and opB). The same value types, also for strided batches.
 * _bufferSize gives 0; _preprocess has nothing to prepare. */
trnsparseStatus_t trnsparseSpMM_bufferSize(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                           trnsparseOperation_t opB, const void *alpha,
                                           trnsparseConstSpMatDescr_t matA,
                                           trnsparseConstDnMatDescr_t matB, const void *beta,
                                           trnsparseDnMatDescr_t matC, trnsciDataType computeType,
                                           trnsparseSpMMAlg_t alg, size_t *bufferSize);
trnsparseStatus_t trnsparseSpMM_preprocess(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                           trnsparseOperation_t opB, const void *alpha,
                                           trnsparseConstSpMatDescr_t matA,
                                           trnsparseConstDnMatDescr_t matB, const void *beta,
                                           trnsparseDnMatDescr_t matC, trnsciDataType computeType,
                                           trnsparseSpMMAlg_t alg, void *externalBuffer);
trnsparseStatus_t trnsparseSpMM(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                trnsparseOperation_t opB, const void *alpha,
                                trnsparseConstSpMatDescr_t matA, trnsparseConstDnMatDescr_t matB,
                                const void *beta, trnsparseDnMatDescr_t matC,
                                trnsciDataType computeType, trnsparseSpMMAlg_t alg,
                                void *externalBuffer);

/* ---- sparse vectors: the Level 1 generic routines ------------------------------
 * x is a sparse vector, y a dense one of x's size; values and computation
 * in TRNSCI_R_32F, _R_64F, _C_32F or _C_64F (x's and y's type must agree,
 * NOT_SUPPORTED otherwise; complex values need a protocol 1.15 daemon,
 * NOT_SUPPORTED otherwise).
 * Entries are processed in order, one core: with a repeated index Axpby
 * adds each entry and Scatter leaves the last. Asynchronous, except SpVV,
 * which returns its result in host memory. */

/* *bufferSize = 16: SpVV's externalBuffer receives the result on the
 * device before it is copied to *result. */
trnsparseStatus_t trnsparseSpVV_bufferSize(trnsparseHandle_t handle, trnsparseOperation_t opX,
                                           trnsparseConstSpVecDescr_t vecX,
                                           trnsparseConstDnVecDescr_t vecY, const void *result,
                                           trnsciDataType computeType, size_t *bufferSize);
/* *result = sum_k op(x_k) y[i_k]: op(x_k) = x_k for opX NON_TRANSPOSE,
 * conj(x_k) for CONJUGATE_TRANSPOSE (the identity for real types). result
 * is a host pointer of computeType (which must be the vectors' type). Waits for
 * the handle's stream; externalBuffer (bufferSize bytes, trnsciMalloc) is
 * required. The sum is accumulated in computeType in index order. */
trnsparseStatus_t trnsparseSpVV(trnsparseHandle_t handle, trnsparseOperation_t opX,
                                trnsparseConstSpVecDescr_t vecX, trnsparseConstDnVecDescr_t vecY,
                                void *result, trnsciDataType computeType, void *externalBuffer);
/* y = beta y (every element; beta = 0 does not read y), then y[i_k] +=
 * alpha x_k. alpha, beta: host scalars of x's type (float, double,
 * trnComplex, trnDoubleComplex). */
trnsparseStatus_t trnsparseAxpby(trnsparseHandle_t handle, const void *alpha,
                                 trnsparseConstSpVecDescr_t vecX, const void *beta,
                                 trnsparseDnVecDescr_t vecY);
/* x_k = y[i_k]. */
trnsparseStatus_t trnsparseGather(trnsparseHandle_t handle, trnsparseConstDnVecDescr_t vecY,
                                  trnsparseSpVecDescr_t vecX);
/* y[i_k] = x_k (other elements of y unchanged). */
trnsparseStatus_t trnsparseScatter(trnsparseHandle_t handle, trnsparseConstSpVecDescr_t vecX,
                                   trnsparseDnVecDescr_t vecY);
/* Givens rotation: x_k = c x_k + s y[i_k], y[i_k] = c y[i_k] - s x_k (the
 * old x_k), c and s host scalars of x's type (complex c and s multiply as
 * given, without conjugation, as cuSPARSE's formula). */
trnsparseStatus_t trnsparseRot(trnsparseHandle_t handle, const void *c_coeff, const void *s_coeff,
                               trnsparseSpVecDescr_t vecX, trnsparseDnVecDescr_t vecY);

/* ---- SpSV: op(matA) vecY = alpha vecX, matA triangular -----------------------------
 * matA is a square CSR, COO (entries in any order) or Sliced-ELL matrix of R_32F,
 * R_64F, C_32F or C_64F (vecX, vecY and computeType the same; complex values
 * need a protocol 1.15 daemon, NOT_SUPPORTED otherwise); alpha points to a
 * float, double, trnComplex or trnDoubleComplex. Its fill mode and diagonal type come from
 * trnsparseSpMatSetAttribute (default LOWER, NON_UNIT). Only that triangle
 * is read: entries of the other one are ignored, and with DIAG_TYPE_UNIT
 * so is the stored diagonal (taken as 1). Duplicate entries add up. opA
 * NON_TRANSPOSE, TRANSPOSE or CONJUGATE_TRANSPOSE (A^H; TRANSPOSE for real
 * types). The substitution accumulates in computeType, row by row in a
 * fixed order: the bits do not depend on anything but the input.
 * A zero or missing diagonal entry (NON_UNIT) is not reported (the generic
 * API has no zero-pivot query, unlike the legacy csrsv2): the division
 * gives Inf or NaN in vecY.
 * vecY may be vecX (in place).
 *   _createDescr / _destroyDescr: the analysis record (host memory).
 *   _bufferSize: 0 (externalBuffer may be NULL).
 *   _analysis: checks the arguments now, and queues a pass over matA's
 *              structure that fails (at the next synchronizing call, as
 *              for every op) on a bad offset or index; records matA and
 *              opA in spsvDescr.
 *   _solve:    needs an analysis of the same matA descriptor and opA
 *              (INVALID_VALUE otherwise); matA's values may change in
 *              between, its structure must not. Asynchronous. */
trnsparseStatus_t trnsparseSpSV_createDescr(trnsparseSpSVDescr_t *descr);
trnsparseStatus_t trnsparseSpSV_destroyDescr(trnsparseSpSVDescr_t descr);
trnsparseStatus_t trnsparseSpSV_bufferSize(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                           const void *alpha, trnsparseConstSpMatDescr_t matA,
                                           trnsparseConstDnVecDescr_t vecX,
                                           trnsparseDnVecDescr_t vecY, trnsciDataType computeType,
                                           trnsparseSpSVAlg_t alg, trnsparseSpSVDescr_t spsvDescr,
                                           size_t *bufferSize);
trnsparseStatus_t trnsparseSpSV_analysis(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                         const void *alpha, trnsparseConstSpMatDescr_t matA,
                                         trnsparseConstDnVecDescr_t vecX,
                                         trnsparseDnVecDescr_t vecY, trnsciDataType computeType,
                                         trnsparseSpSVAlg_t alg, trnsparseSpSVDescr_t spsvDescr,
                                         void *externalBuffer);
trnsparseStatus_t trnsparseSpSV_solve(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                      const void *alpha, trnsparseConstSpMatDescr_t matA,
                                      trnsparseConstDnVecDescr_t vecX, trnsparseDnVecDescr_t vecY,
                                      trnsciDataType computeType, trnsparseSpSVAlg_t alg,
                                      trnsparseSpSVDescr_t spsvDescr);

/* ---- SpSM: op(matA) matC = alpha op(matB), matA triangular --------------------------
 * SpSV for nrhs right-hand sides: dense B and C (either order) with opB N,
 * T or C (B^H for complex types, T for real ones); op(B) and C are n x nrhs. The same phases and
 * rules as SpSV; the solve splits the right-hand sides over cores (each solved whole, so results do
 * not depend on the split). matC may be matB (the same memory and layout). */
trnsparseStatus_t trnsparseSpSM_createDescr(trnsparseSpSMDescr_t *descr);
trnsparseStatus_t trnsparseSpSM_destroyDescr(trnsparseSpSMDescr_t descr);
trnsparseStatus_t trnsparseSpSM_bufferSize(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                           trnsparseOperation_t opB, const void *alpha,
                                           trnsparseConstSpMatDescr_t matA,
                                           trnsparseConstDnMatDescr_t matB,
                                           trnsparseDnMatDescr_t matC, trnsciDataType computeType,
                                           trnsparseSpSMAlg_t alg, trnsparseSpSMDescr_t spsmDescr,
                                           size_t *bufferSize);
trnsparseStatus_t trnsparseSpSM_analysis(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                         trnsparseOperation_t opB, const void *alpha,
                                         trnsparseConstSpMatDescr_t matA,
                                         trnsparseConstDnMatDescr_t matB,
                                         trnsparseDnMatDescr_t matC, trnsciDataType computeType,
                                         trnsparseSpSMAlg_t alg, trnsparseSpSMDescr_t spsmDescr,
                                         void *externalBuffer);
trnsparseStatus_t trnsparseSpSM_solve(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                      trnsparseOperation_t opB, const void *alpha,
                                      trnsparseConstSpMatDescr_t matA,
                                      trnsparseConstDnMatDescr_t matB, trnsparseDnMatDescr_t matC,
                                      trnsciDataType computeType, trnsparseSpSMAlg_t alg,
                                      trnsparseSpSMDescr_t spsmDescr);

/* ---- SpGEMM: matC = alpha op(matA) op(matB) -------------------------------------
 * CSR x CSR -> CSR, op N on both sides, beta = 0 (TRNSPARSE_STATUS_NOT_SUPPORTED
 * otherwise). Values R_32F, R_64F, C_32F or C_64F (A, B, C and computeType
 * one type; complex needs a protocol 1.15 daemon; alpha and beta point to
 * the type's scalar: float, double, trnComplex, trnDoubleComplex), any algorithm value (one
 * deterministic CPU algorithm: C's column indices come out sorted and the bits do not depend on the
 * split). cuSPARSE's phases, with this meaning: workEstimation: nothing to estimate; *bufferSize1 =
 * 0. compute: with externalBuffer2 NULL, *bufferSize2 = (rows of A + 1) * 8; then, with that buffer
 * (trnsciMalloc), computes C's row counts into it, waits for them, and sets matC's nnz
 *            (trnsparseSpMatGetSize). Keep the buffer until _copy.
 *   copy:    the caller has allocated C's arrays (rows + 1 offsets, nnz
 *            indices and values) and set them (trnsparseCsrSetPointers);
 *            writes C. A and B must not change in between (checked). */
trnsparseStatus_t trnsparseSpGEMM_createDescr(trnsparseSpGEMMDescr_t *descr);
trnsparseStatus_t trnsparseSpGEMM_destroyDescr(trnsparseSpGEMMDescr_t descr);
trnsparseStatus_t trnsparseSpGEMM_workEstimation(
    trnsparseHandle_t handle, trnsparseOperation_t opA, trnsparseOperation_t opB, const void *alpha,
    trnsparseConstSpMatDescr_t matA, trnsparseConstSpMatDescr_t matB, const void *beta,
    trnsparseSpMatDescr_t matC, trnsciDataType computeType, trnsparseSpGEMMAlg_t alg,
    trnsparseSpGEMMDescr_t spgemmDescr, size_t *bufferSize1, void *externalBuffer1);
trnsparseStatus_t trnsparseSpGEMM_compute(
    trnsparseHandle_t handle, trnsparseOperation_t opA, trnsparseOperation_t opB, const void *alpha,
    trnsparseConstSpMatDescr_t matA, trnsparseConstSpMatDescr_t matB, const void *beta,
    trnsparseSpMatDescr_t matC, trnsciDataType computeType, trnsparseSpGEMMAlg_t alg,
    trnsparseSpGEMMDescr_t spgemmDescr, size_t *bufferSize2, void *externalBuffer2);
trnsparseStatus_t trnsparseSpGEMM_copy(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                       trnsparseOperation_t opB, const void *alpha,
                                       trnsparseConstSpMatDescr_t matA,
                                       trnsparseConstSpMatDescr_t matB, const void *beta,
                                       trnsparseSpMatDescr_t matC, trnsciDataType computeType,
                                       trnsparseSpGEMMAlg_t alg,
                                       trnsparseSpGEMMDescr_t spgemmDescr);

/* SpGEMMreuse: C's structure found once, its values recomputed by every
 * _compute (same rules as SpGEMM: CSR, op N, beta = 0).
 *   workEstimation: nothing to estimate; *bufferSize1 = 0.
 *   nnz: with externalBuffer4 NULL, the size query: *bufferSize2 = 0,
 *        *bufferSize3 = 0, *bufferSize4 = (rows of A + 1) * 8; then, with
 *        externalBuffer4 (keep it until the last _compute), computes C's
 *        row counts into it, waits, and sets matC's nnz.
 *   copy: with externalBuffer5 NULL, the size query (*bufferSize5 = 8, so
 *        that the allocation is not NULL); then writes C's structure (and
 *        the product's values) into the arrays set with
 *        trnsparseCsrSetPointers.
 *   compute: C = alpha op(A) op(B), structure rewritten unchanged (a
 *        structure of A or B that changed since _nnz fails the op). */
trnsparseStatus_t
trnsparseSpGEMMreuse_workEstimation(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                    trnsparseOperation_t opB, trnsparseConstSpMatDescr_t matA,
                                    trnsparseConstSpMatDescr_t matB, trnsparseSpMatDescr_t matC,
                                    trnsparseSpGEMMAlg_t alg, trnsparseSpGEMMDescr_t spgemmDescr,
                                    size_t *bufferSize1, void *externalBuffer1);
trnsparseStatus_t
trnsparseSpGEMMreuse_nnz(trnsparseHandle_t handle, trnsparseOperation_t opA,
                         trnsparseOperation_t opB, trnsparseConstSpMatDescr_t matA,
                         trnsparseConstSpMatDescr_t matB, trnsparseSpMatDescr_t matC,
                         trnsparseSpGEMMAlg_t alg, trnsparseSpGEMMDescr_t spgemmDescr,
                         size_t *bufferSize2, void *externalBuffer2, size_t *bufferSize3,
                         void *externalBuffer3, size_t *bufferSize4, void *externalBuffer4);
trnsparseStatus_t trnsparseSpGEMMreuse_copy(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                            trnsparseOperation_t opB,
                                            trnsparseConstSpMatDescr_t matA,
                                            trnsparseConstSpMatDescr_t matB,
                                            trnsparseSpMatDescr_t matC, trnsparseSpGEMMAlg_t alg,
                                            trnsparseSpGEMMDescr_t spgemmDescr, size_t *bufferSize5,
                                            void *externalBuffer5);
trnsparseStatus_t trnsparseSpGEMMreuse_compute(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                               trnsparseOperation_t opB, const void *alpha,
                                               trnsparseConstSpMatDescr_t matA,
                                               trnsparseConstSpMatDescr_t matB, const void *beta,
                                               trnsparseSpMatDescr_t matC,
                                               trnsciDataType computeType, trnsparseSpGEMMAlg_t alg,
                                               trnsparseSpGEMMDescr_t spgemmDescr);

/* ---- SDDMM: matC = alpha (op(matA) op(matB)) o spy(matC) + beta matC -----------------
 * Dense A and B (either order), CSR or BSR C (any block size, either block
 * order; BSR needs a protocol 1.15 daemon): one dot product per stored
 * element of C. Values R_32F, R_64F, C_32F or C_64F (all operands and computeType one
 * type; complex needs a protocol 1.15 daemon, and opA / opB
 * CONJUGATE_TRANSPOSE is A^H / B^H there, TRANSPOSE for real types); alpha
 * and beta point to the type's scalar. beta = 0 does not read C's values. No buffer (size 0);
 * _preprocess has nothing to do. */
trnsparseStatus_t trnsparseSDDMM_bufferSize(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                            trnsparseOperation_t opB, const void *alpha,
                                            trnsparseConstDnMatDescr_t matA,
                                            trnsparseConstDnMatDescr_t matB, const void *beta,
                                            trnsparseSpMatDescr_t matC, trnsciDataType computeType,
                                            trnsparseSDDMMAlg_t alg, size_t *bufferSize);
trnsparseStatus_t trnsparseSDDMM_preprocess(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                            trnsparseOperation_t opB, const void *alpha,
                                            trnsparseConstDnMatDescr_t matA,
                                            trnsparseConstDnMatDescr_t matB, const void *beta,
                                            trnsparseSpMatDescr_t matC, trnsciDataType computeType,
                                            trnsparseSDDMMAlg_t alg, void *externalBuffer);
trnsparseStatus_t trnsparseSDDMM(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                 trnsparseOperation_t opB, const void *alpha,
                                 trnsparseConstDnMatDescr_t matA, trnsparseConstDnMatDescr_t matB,
                                 const void *beta, trnsparseSpMatDescr_t matC,
                                 trnsciDataType computeType, trnsparseSDDMMAlg_t alg,
                                 void *externalBuffer);

/* ---- format conversions ----------------------------------------------------------
 * Asynchronous like every routine, except the two that return a count to
 * the host (trnsparseXcsr2bsrNnz's *nnzTotalDevHostPtr, and
 * trnsparseDenseToSparse_analysis, which sets matB's nnz): they wait for the
 * handle's work to finish and read the count back. Offsets a second step
 * reads (csr2bsr's bsrRowPtrC, DenseToSparse_convert's offsets) must be the
 * ones the first step wrote: the daemon checks them against what it finds.
 * No routine needs an external buffer (buffer sizes are 0) but
 * gebsr2gebsr. Every conversion takes complex values (C_32F, C_64F) on a
 * 1.15 daemon: they are copied, duplicates added part by part, and a complex
 * value is nonzero when either part is. */

/* The legacy matrix descriptor (index base and type) of the conversions
 * below; only TRNSPARSE_MATRIX_TYPE_GENERAL. */
trnsparseStatus_t trnsparseCreateMatDescr(trnsparseMatDescr_t *descrA);
trnsparseStatus_t trnsparseDestroyMatDescr(trnsparseMatDescr_t descrA);
trnsparseStatus_t trnsparseSetMatType(trnsparseMatDescr_t descrA, trnsparseMatrixType_t type);
trnsparseMatrixType_t trnsparseGetMatType(const trnsparseMatDescr_t descrA);
trnsparseStatus_t trnsparseSetMatIndexBase(trnsparseMatDescr_t descrA, trnsparseIndexBase_t base);
trnsparseIndexBase_t trnsparseGetMatIndexBase(const trnsparseMatDescr_t descrA);
/* The fill mode (LOWER 0, UPPER 1; default LOWER) and diagonal type (NON_UNIT
 * 0, UNIT 1; default NON_UNIT) of a legacy descriptor, as cuSPARSE keeps
 * them; the routines here that take a descriptor do not read them
 * (csric02 reads the lower triangle whatever the fill mode). Another value
 * is TRNSPARSE_STATUS_INVALID_VALUE. */
trnsparseStatus_t trnsparseSetMatFillMode(trnsparseMatDescr_t descrA, trnsparseFillMode_t fillMode);
trnsparseFillMode_t trnsparseGetMatFillMode(const trnsparseMatDescr_t descrA);
trnsparseStatus_t trnsparseSetMatDiagType(trnsparseMatDescr_t descrA, trnsparseDiagType_t diagType);
trnsparseDiagType_t trnsparseGetMatDiagType(const trnsparseMatDescr_t descrA);

/* ---- Sorting (cusparseCreateIdentityPermutation, cusparseXcoosort*,
 * cusparseXcsrsort, cusparseXcscsort) ---------------------------------------
 * p = 0, 1, …, n-1. XcoosortByRow sorts nnz COO entries by (row, column),
 * XcoosortByColumn by (column, row); Xcsrsort sorts the column indices of
 * each CSR row, Xcscsort the row indices of each CSC column (the pointer
 * array in descrA's index base). P (may be NULL) is permuted with the
 * entries: from the identity it gathers values into the sorted order.
 * Unlike cuSPARSE these wait for the handle's stream and sort in the calling
 * process (the arrays are copied out and back); they use no workspace
 * (*pBufferSizeInBytes = 0) and ignore pBuffer. m, n or nnz < 0, or a CSR/
 * CSC pointer array that does not run from base to base + nnz without
 * decreasing: TRNSPARSE_STATUS_INVALID_VALUE. */
trnsparseStatus_t trnsparseCreateIdentityPermutation(trnsparseHandle_t handle, int n, int *p);
trnsparseStatus_t trnsparseXcoosort_bufferSizeExt(trnsparseHandle_t handle, int m, int n, int nnz,
                                                  const int *cooRowsA, const int *cooColsA,
                                                  size_t *pBufferSizeInBytes);
trnsparseStatus_t trnsparseXcoosortByRow(trnsparseHandle_t handle, int m, int n, int nnz,
                                         int *cooRowsA, int *cooColsA, int *P, void *pBuffer);
trnsparseStatus_t trnsparseXcoosortByColumn(trnsparseHandle_t handle, int m, int n, int nnz,
                                            int *cooRowsA, int *cooColsA, int *P, void *pBuffer);
trnsparseStatus_t trnsparseXcsrsort_bufferSizeExt(trnsparseHandle_t handle, int m, int n, int nnz,
                                                  const int *csrRowPtrA, const int *csrColIndA,
                                                  size_t *pBufferSizeInBytes);
trnsparseStatus_t trnsparseXcsrsort(trnsparseHandle_t handle, int m, int n, int nnz,
                                    const trnsparseMatDescr_t descrA, const int *csrRowPtrA,
                                    int *csrColIndA, int *P, void *pBuffer);
trnsparseStatus_t trnsparseXcscsort_bufferSizeExt(trnsparseHandle_t handle, int m, int n, int nnz,
                                                  const int *cscColPtrA, const int *cscRowIndA,
                                                  size_t *pBufferSizeInBytes);
trnsparseStatus_t trnsparseXcscsort(trnsparseHandle_t handle, int m, int n, int nnz,
                                    const trnsparseMatDescr_t descrA, const int *cscColPtrA,
                                    int *cscRowIndA, int *P, void *pBuffer);

/* cooRowInd[k] = the row of entry k (32-bit indices). */
trnsparseStatus_t trnsparseXcsr2coo(trnsparseHandle_t handle, const int *csrSortedRowPtr, int nnz,
                                    int m, int *cooRowInd, trnsparseIndexBase_t idxBase);
/* Row offsets from row indices sorted by row (a row index smaller than the
 * one before fails the op). */
trnsparseStatus_t trnsparseXcoo2csr(trnsparseHandle_t handle, const int *cooRowInd, int nnz, int m,
                                    int *csrSortedRowPtr, trnsparseIndexBase_t idxBase);
/* CSR -> CSC, i.e. the CSR of the transpose (32-bit indices; row indices
 * sorted within each column). copyValues TRNSPARSE_ACTION_SYMBOLIC skips
 * the values (cscVal may then be NULL). */
trnsparseStatus_t trnsparseCsr2cscEx2_bufferSize(trnsparseHandle_t handle, int m, int n, int nnz,
                                                 const void *csrVal, const int *csrRowPtr,
                                                 const int *csrColInd, void *cscVal, int *cscColPtr,
                                                 int *cscRowInd, trnsciDataType valType,
                                                 trnsparseAction_t copyValues,
                                                 trnsparseIndexBase_t idxBase,
                                                 trnsparseCsr2CscAlg_t alg, size_t *bufferSize);
trnsparseStatus_t trnsparseCsr2cscEx2(trnsparseHandle_t handle, int m, int n, int nnz,
                                      const void *csrVal, const int *csrRowPtr,
                                      const int *csrColInd, void *cscVal, int *cscColPtr,
                                      int *cscRowInd, trnsciDataType valType,
                                      trnsparseAction_t copyValues, trnsparseIndexBase_t idxBase,
                                      trnsparseCsr2CscAlg_t alg, void *buffer);
/* CSR (m x n) -> BSR of blockDim x blockDim blocks, mb = ceil(m / blockDim)
 * block rows: first the block-row offsets (bsrRowPtrC, mb + 1 entries) and
 * the number of blocks (nnzTotalDevHostPtr, a host pointer: the call waits;
 * may be NULL), then the block columns (sorted) and values. dirA is the
 * element order inside a block. Duplicates of the CSR matrix add up. */
trnsparseStatus_t trnsparseXcsr2bsrNnz(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m,
                                       int n, const trnsparseMatDescr_t descrA,
                                       const int *csrRowPtrA, const int *csrColIndA, int blockDim,
                                       const trnsparseMatDescr_t descrC, int *bsrRowPtrC,
                                       int *nnzTotalDevHostPtr);
trnsparseStatus_t trnsparseScsr2bsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m,
                                    int n, const trnsparseMatDescr_t descrA, const float *csrValA,
                                    const int *csrRowPtrA, const int *csrColIndA, int blockDim,
                                    const trnsparseMatDescr_t descrC, float *bsrValC,
                                    int *bsrRowPtrC, int *bsrColIndC);
trnsparseStatus_t trnsparseDcsr2bsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m,
                                    int n, const trnsparseMatDescr_t descrA, const double *csrValA,
                                    const int *csrRowPtrA, const int *csrColIndA, int blockDim,
                                    const trnsparseMatDescr_t descrC, double *bsrValC,
                                    int *bsrRowPtrC, int *bsrColIndC);
/* BSR (mb x nb blocks) -> CSR of mb*blockDim x nb*blockDim with every
 * element of every block (nnzb * blockDim^2 entries, zeros included). */
trnsparseStatus_t trnsparseSbsr2csr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb,
                                    int nb, const trnsparseMatDescr_t descrA, const float *bsrValA,
                                    const int *bsrRowPtrA, const int *bsrColIndA, int blockDim,
                                    const trnsparseMatDescr_t descrC, float *csrValC,
                                    int *csrRowPtrC, int *csrColIndC);
trnsparseStatus_t trnsparseDbsr2csr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb,
                                    int nb, const trnsparseMatDescr_t descrA, const double *bsrValA,
                                    const int *bsrRowPtrA, const int *bsrColIndA, int blockDim,
                                    const trnsparseMatDescr_t descrC, double *csrValC,
                                    int *csrRowPtrC, int *csrColIndC);
/* The complex csr2bsr and bsr2csr (1.15), as the real ones. */
trnsparseStatus_t trnsparseCcsr2bsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m,
                                    int n, const trnsparseMatDescr_t descrA,
                                    const trnComplex *csrValA, const int *csrRowPtrA,
                                    const int *csrColIndA, int blockDim,
                                    const trnsparseMatDescr_t descrC, trnComplex *bsrValC,
                                    int *bsrRowPtrC, int *bsrColIndC);
trnsparseStatus_t trnsparseZcsr2bsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m,
                                    int n, const trnsparseMatDescr_t descrA,
                                    const trnDoubleComplex *csrValA, const int *csrRowPtrA,
                                    const int *csrColIndA, int blockDim,
                                    const trnsparseMatDescr_t descrC, trnDoubleComplex *bsrValC,
                                    int *bsrRowPtrC, int *bsrColIndC);
trnsparseStatus_t trnsparseCbsr2csr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb,
                                    int nb, const trnsparseMatDescr_t descrA,
                                    const trnComplex *bsrValA, const int *bsrRowPtrA,
                                    const int *bsrColIndA, int blockDim,
                                    const trnsparseMatDescr_t descrC, trnComplex *csrValC,
                                    int *csrRowPtrC, int *csrColIndC);
trnsparseStatus_t trnsparseZbsr2csr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb,
                                    int nb, const trnsparseMatDescr_t descrA,
                                    const trnDoubleComplex *bsrValA, const int *bsrRowPtrA,
                                    const int *bsrColIndA, int blockDim,
                                    const trnsparseMatDescr_t descrC, trnDoubleComplex *csrValC,
                                    int *csrRowPtrC, int *csrColIndC);

/* General BSR (1.15): blocks of rowBlockDim x colBlockDim (each >= 1), mb =
 * ceil(m / rowBlockDim) block rows, nb = ceil(n / colBlockDim) block
 * columns, dirA (ROW or COLUMN, else INVALID_VALUE) the element order inside
 * a block. Xcsr2gebsrNnz and <t>csr2gebsr work as Xcsr2bsrNnz and
 * <t>csr2bsr (Nnz waits when nnzTotalDevHostPtr is given); they need no
 * buffer (_bufferSize and _bufferSizeExt give 0; pBuffer is ignored).
 * <t>gebsr2csr writes every element of every block (nnzb * rowBlockDim *
 * colBlockDim entries, zeros included) into the mb*rowBlockDim x
 * nb*colBlockDim CSR matrix. */
trnsparseStatus_t trnsparseXcsr2gebsrNnz(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m,
                                         int n, const trnsparseMatDescr_t descrA,
                                         const int *csrRowPtrA, const int *csrColIndA,
                                         const trnsparseMatDescr_t descrC, int *bsrRowPtrC,
                                         int rowBlockDim, int colBlockDim, int *nnzTotalDevHostPtr,
                                         void *pBuffer);
trnsparseStatus_t trnsparseScsr2gebsr_bufferSize(trnsparseHandle_t handle,
                                                 trnsparseDirection_t dirA, int m, int n,
                                                 const trnsparseMatDescr_t descrA,
                                                 const float *csrValA, const int *csrRowPtrA,
                                                 const int *csrColIndA, int rowBlockDim,
                                                 int colBlockDim, int *pBufferSizeInBytes);
trnsparseStatus_t trnsparseScsr2gebsr_bufferSizeExt(trnsparseHandle_t handle,
                                                    trnsparseDirection_t dirA, int m, int n,
                                                    const trnsparseMatDescr_t descrA,
                                                    const float *csrValA, const int *csrRowPtrA,
                                                    const int *csrColIndA, int rowBlockDim,
                                                    int colBlockDim, size_t *pBufferSize);
trnsparseStatus_t trnsparseScsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m,
                                      int n, const trnsparseMatDescr_t descrA, const float *csrValA,
                                      const int *csrRowPtrA, const int *csrColIndA,
                                      const trnsparseMatDescr_t descrC, float *bsrValC,
                                      int *bsrRowPtrC, int *bsrColIndC, int rowBlockDim,
                                      int colBlockDim, void *pBuffer);
trnsparseStatus_t trnsparseSgebsr2csr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb,
                                      int nb, const trnsparseMatDescr_t descrA,
                                      const float *bsrValA, const int *bsrRowPtrA,
                                      const int *bsrColIndA, int rowBlockDim, int colBlockDim,
                                      const trnsparseMatDescr_t descrC, float *csrValC,
                                      int *csrRowPtrC, int *csrColIndC);
trnsparseStatus_t trnsparseDcsr2gebsr_bufferSize(trnsparseHandle_t handle,
                                                 trnsparseDirection_t dirA, int m, int n,
                                                 const trnsparseMatDescr_t descrA,
                                                 const double *csrValA, const int *csrRowPtrA,
                                                 const int *csrColIndA, int rowBlockDim,
                                                 int colBlockDim, int *pBufferSizeInBytes);
trnsparseStatus_t trnsparseDcsr2gebsr_bufferSizeExt(trnsparseHandle_t handle,
                                                    trnsparseDirection_t dirA, int m, int n,
                                                    const trnsparseMatDescr_t descrA,
                                                    const double *csrValA, const int *csrRowPtrA,
                                                    const int *csrColIndA, int rowBlockDim,
                                                    int colBlockDim, size_t *pBufferSize);
trnsparseStatus_t trnsparseDcsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m,
                                      int n, const trnsparseMatDescr_t descrA,
                                      const double *csrValA, const int *csrRowPtrA,
                                      const int *csrColIndA, const trnsparseMatDescr_t descrC,
                                      double *bsrValC, int *bsrRowPtrC, int *bsrColIndC,
                                      int rowBlockDim, int colBlockDim, void *pBuffer);
trnsparseStatus_t trnsparseDgebsr2csr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb,
                                      int nb, const trnsparseMatDescr_t descrA,
                                      const double *bsrValA, const int *bsrRowPtrA,
                                      const int *bsrColIndA, int rowBlockDim, int colBlockDim,
                                      const trnsparseMatDescr_t descrC, double *csrValC,
                                      int *csrRowPtrC, int *csrColIndC);
trnsparseStatus_t trnsparseCcsr2gebsr_bufferSize(trnsparseHandle_t handle,
                                                 trnsparseDirection_t dirA, int m, int n,
                                                 const trnsparseMatDescr_t descrA,
                                                 const trnComplex *csrValA, const int *csrRowPtrA,
                                                 const int *csrColIndA, int rowBlockDim,
                                                 int colBlockDim, int *pBufferSizeInBytes);
trnsparseStatus_t
trnsparseCcsr2gebsr_bufferSizeExt(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
                                  const trnsparseMatDescr_t descrA, const trnComplex *csrValA,
                                  const int *csrRowPtrA, const int *csrColIndA, int rowBlockDim,
                                  int colBlockDim, size_t *pBufferSize);
trnsparseStatus_t trnsparseCcsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m,
                                      int n, const trnsparseMatDescr_t descrA,
                                      const trnComplex *csrValA, const int *csrRowPtrA,
                                      const int *csrColIndA, const trnsparseMatDescr_t descrC,
                                      trnComplex *bsrValC, int *bsrRowPtrC, int *bsrColIndC,
                                      int rowBlockDim, int colBlockDim, void *pBuffer);
trnsparseStatus_t trnsparseCgebsr2csr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb,
                                      int nb, const trnsparseMatDescr_t descrA,
                                      const trnComplex *bsrValA, const int *bsrRowPtrA,
                                      const int *bsrColIndA, int rowBlockDim, int colBlockDim,
                                      const trnsparseMatDescr_t descrC, trnComplex *csrValC,
                                      int *csrRowPtrC, int *csrColIndC);
trnsparseStatus_t
trnsparseZcsr2gebsr_bufferSize(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
                               const trnsparseMatDescr_t descrA, const trnDoubleComplex *csrValA,
                               const int *csrRowPtrA, const int *csrColIndA, int rowBlockDim,
                               int colBlockDim, int *pBufferSizeInBytes);
trnsparseStatus_t
trnsparseZcsr2gebsr_bufferSizeExt(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
                                  const trnsparseMatDescr_t descrA, const trnDoubleComplex *csrValA,
                                  const int *csrRowPtrA, const int *csrColIndA, int rowBlockDim,
                                  int colBlockDim, size_t *pBufferSize);
trnsparseStatus_t trnsparseZcsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m,
                                      int n, const trnsparseMatDescr_t descrA,
                                      const trnDoubleComplex *csrValA, const int *csrRowPtrA,
                                      const int *csrColIndA, const trnsparseMatDescr_t descrC,
                                      trnDoubleComplex *bsrValC, int *bsrRowPtrC, int *bsrColIndC,
                                      int rowBlockDim, int colBlockDim, void *pBuffer);
trnsparseStatus_t trnsparseZgebsr2csr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb,
                                      int nb, const trnsparseMatDescr_t descrA,
                                      const trnDoubleComplex *bsrValA, const int *bsrRowPtrA,
                                      const int *bsrColIndA, int rowBlockDim, int colBlockDim,
                                      const trnsparseMatDescr_t descrC, trnDoubleComplex *csrValC,
                                      int *csrRowPtrC, int *csrColIndC);
/* BSR A (mb x nb blocks of rowBlockDimA x colBlockDimA, nnzb of them) ->
 * BSR C of rowBlockDimC x colBlockDimC blocks, ceil(mb*rowBlockDimA /
 * rowBlockDimC) block rows. C's blocks are those that cover an element of a
 * stored block of A (stored zeros count). Like cuSPARSE these take a buffer
 * of _bufferSize(Ext) bytes (device memory; Xgebsr2gebsrNnz and
 * <t>gebsr2gebsr must get one of the same size): A goes through it as CSR,
 * so the work is gebsr2csr then csr2gebsr. Xgebsr2gebsrNnz writes C's block
 * offsets and, when nnzTotalDevHostPtr is given, waits and returns C's
 * block count; <t>gebsr2gebsr writes C's block columns and values. An A
 * whose CSR form exceeds 32-bit indices is INVALID_VALUE, as is a
 * _bufferSize (int) result above INT_MAX. */
trnsparseStatus_t trnsparseXgebsr2gebsrNnz(trnsparseHandle_t handle, trnsparseDirection_t dirA,
                                           int mb, int nb, int nnzb,
                                           const trnsparseMatDescr_t descrA, const int *bsrRowPtrA,
                                           const int *bsrColIndA, int rowBlockDimA,
                                           int colBlockDimA, const trnsparseMatDescr_t descrC,
                                           int *bsrRowPtrC, int rowBlockDimC, int colBlockDimC,
                                           int *nnzTotalDevHostPtr, void *pBuffer);
trnsparseStatus_t trnsparseSgebsr2gebsr_bufferSize(trnsparseHandle_t handle,
                                                   trnsparseDirection_t dirA, int mb, int nb,
                                                   int nnzb, const trnsparseMatDescr_t descrA,
                                                   const float *bsrValA, const int *bsrRowPtrA,
                                                   const int *bsrColIndA, int rowBlockDimA,
                                                   int colBlockDimA, int rowBlockDimC,
                                                   int colBlockDimC, int *pBufferSizeInBytes);
trnsparseStatus_t trnsparseSgebsr2gebsr_bufferSizeExt(trnsparseHandle_t handle,
                                                      trnsparseDirection_t dirA, int mb, int nb,
                                                      int nnzb, const trnsparseMatDescr_t descrA,
                                                      const float *bsrValA, const int *bsrRowPtrA,
                                                      const int *bsrColIndA, int rowBlockDimA,
                                                      int colBlockDimA, int rowBlockDimC,
                                                      int colBlockDimC, size_t *pBufferSize);
trnsparseStatus_t trnsparseSgebsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb,
                                        int nb, int nnzb, const trnsparseMatDescr_t descrA,
                                        const float *bsrValA, const int *bsrRowPtrA,
                                        const int *bsrColIndA, int rowBlockDimA, int colBlockDimA,
                                        const trnsparseMatDescr_t descrC, float *bsrValC,
                                        int *bsrRowPtrC, int *bsrColIndC, int rowBlockDimC,
                                        int colBlockDimC, void *pBuffer);
trnsparseStatus_t trnsparseDgebsr2gebsr_bufferSize(trnsparseHandle_t handle,
                                                   trnsparseDirection_t dirA, int mb, int nb,
                                                   int nnzb, const trnsparseMatDescr_t descrA,
                                                   const double *bsrValA, const int *bsrRowPtrA,
                                                   const int *bsrColIndA, int rowBlockDimA,
                                                   int colBlockDimA, int rowBlockDimC,
                                                   int colBlockDimC, int *pBufferSizeInBytes);
trnsparseStatus_t trnsparseDgebsr2gebsr_bufferSizeExt(trnsparseHandle_t handle,
                                                      trnsparseDirection_t dirA, int mb, int nb,
                                                      int nnzb, const trnsparseMatDescr_t descrA,
                                                      const double *bsrValA, const int *bsrRowPtrA,
                                                      const int *bsrColIndA, int rowBlockDimA,
                                                      int colBlockDimA, int rowBlockDimC,
                                                      int colBlockDimC, size_t *pBufferSize);
trnsparseStatus_t trnsparseDgebsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb,
                                        int nb, int nnzb, const trnsparseMatDescr_t descrA,
                                        const double *bsrValA, const int *bsrRowPtrA,
                                        const int *bsrColIndA, int rowBlockDimA, int colBlockDimA,
                                        const trnsparseMatDescr_t descrC, double *bsrValC,
                                        int *bsrRowPtrC, int *bsrColIndC, int rowBlockDimC,
                                        int colBlockDimC, void *pBuffer);
trnsparseStatus_t trnsparseCgebsr2gebsr_bufferSize(trnsparseHandle_t handle,
                                                   trnsparseDirection_t dirA, int mb, int nb,
                                                   int nnzb, const trnsparseMatDescr_t descrA,
                                                   const trnComplex *bsrValA, const int *bsrRowPtrA,
                                                   const int *bsrColIndA, int rowBlockDimA,
                                                   int colBlockDimA, int rowBlockDimC,
                                                   int colBlockDimC, int *pBufferSizeInBytes);
trnsparseStatus_t
trnsparseCgebsr2gebsr_bufferSizeExt(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb,
                                    int nb, int nnzb, const trnsparseMatDescr_t descrA,
                                    const trnComplex *bsrValA, const int *bsrRowPtrA,
                                    const int *bsrColIndA, int rowBlockDimA, int colBlockDimA,
                                    int rowBlockDimC, int colBlockDimC, size_t *pBufferSize);
trnsparseStatus_t trnsparseCgebsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb,
                                        int nb, int nnzb, const trnsparseMatDescr_t descrA,
                                        const trnComplex *bsrValA, const int *bsrRowPtrA,
                                        const int *bsrColIndA, int rowBlockDimA, int colBlockDimA,
                                        const trnsparseMatDescr_t descrC, trnComplex *bsrValC,
                                        int *bsrRowPtrC, int *bsrColIndC, int rowBlockDimC,
                                        int colBlockDimC, void *pBuffer);
trnsparseStatus_t
trnsparseZgebsr2gebsr_bufferSize(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb,
                                 int nb, int nnzb, const trnsparseMatDescr_t descrA,
                                 const trnDoubleComplex *bsrValA, const int *bsrRowPtrA,
                                 const int *bsrColIndA, int rowBlockDimA, int colBlockDimA,
                                 int rowBlockDimC, int colBlockDimC, int *pBufferSizeInBytes);
trnsparseStatus_t
trnsparseZgebsr2gebsr_bufferSizeExt(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb,
                                    int nb, int nnzb, const trnsparseMatDescr_t descrA,
                                    const trnDoubleComplex *bsrValA, const int *bsrRowPtrA,
                                    const int *bsrColIndA, int rowBlockDimA, int colBlockDimA,
                                    int rowBlockDimC, int colBlockDimC, size_t *pBufferSize);
trnsparseStatus_t trnsparseZgebsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb,
                                        int nb, int nnzb, const trnsparseMatDescr_t descrA,
                                        const trnDoubleComplex *bsrValA, const int *bsrRowPtrA,
                                        const int *bsrColIndA, int rowBlockDimA, int colBlockDimA,
                                        const trnsparseMatDescr_t descrC, trnDoubleComplex *bsrValC,
                                        int *bsrRowPtrC, int *bsrColIndC, int rowBlockDimC,
                                        int colBlockDimC, void *pBuffer);

/* Dense -> CSR or CSC (matB). _analysis writes matB's offsets (which must be
 * set: trnsparseCreateCsr with NULL indices and values is fine), waits, and
 * sets matB's nnz; the caller allocates the indices and values, sets them
 * (trnsparseCsrSetPointers) and calls _convert. Nonzero means != 0. */
trnsparseStatus_t trnsparseDenseToSparse_bufferSize(trnsparseHandle_t handle,
                                                    trnsparseConstDnMatDescr_t matA,
                                                    trnsparseSpMatDescr_t matB,
                                                    trnsparseDenseToSparseAlg_t alg,
                                                    size_t *bufferSize);
trnsparseStatus_t trnsparseDenseToSparse_analysis(trnsparseHandle_t handle,
                                                  trnsparseConstDnMatDescr_t matA,
                                                  trnsparseSpMatDescr_t matB,
                                                  trnsparseDenseToSparseAlg_t alg,
                                                  void *externalBuffer);
trnsparseStatus_t trnsparseDenseToSparse_convert(trnsparseHandle_t handle,
                                                 trnsparseConstDnMatDescr_t matA,
                                                 trnsparseSpMatDescr_t matB,
                                                 trnsparseDenseToSparseAlg_t alg,
                                                 void *externalBuffer);
/* CSR, CSC, COO or BSR -> dense (zeros elsewhere; duplicates add up). */
trnsparseStatus_t trnsparseSparseToDense_bufferSize(trnsparseHandle_t handle,
                                                    trnsparseConstSpMatDescr_t matA,
                                                    trnsparseDnMatDescr_t matB,
                                                    trnsparseSparseToDenseAlg_t alg,
                                                    size_t *bufferSize);
trnsparseStatus_t trnsparseSparseToDense(trnsparseHandle_t handle, trnsparseConstSpMatDescr_t matA,
                                         trnsparseDnMatDescr_t matB,
                                         trnsparseSparseToDenseAlg_t alg, void *externalBuffer);

/* ---- trnsci extensions ------------------------------------------------------------------
 * No cuSPARSE counterpart; named trnsparse... all the same. */

/* Block-sparse attention: for each batch entry,
 *     O = softmax(scale * Q K^T + M) V,
 * M = 0 inside the blocks of `pattern` and -inf outside. pattern is BSR
 * (trnsparseCreateBsr / CreateConstBsr): brows x bcols blocks of
 * rowBlockSize x colBlockSize, the structure only (values may be NULL);
 * 128 x 128 is the Trainium tile. Q is seq_q x d with seq_q = brows *
 * rowBlockSize, K seq_k x d with seq_k = bcols * colBlockSize, V seq_k x dv,
 * O seq_q x dv: dense matrices of computeType (TRNSCI_R_32F or _R_64F) in
 * either order, all with the same strided batch (trnsparseDnMatSetStridedBatch:
 * one head per batch entry, sharing the pattern). scale is a host scalar of
 * computeType. The result is computed one block row of queries at a time
 * with an online softmax over its key blocks (running max and sum,
 * rescaled as blocks arrive), so only one rowBlockSize x colBlockSize block
 * of scores exists at a time, never the seq_q x seq_k matrix. A query row
 * whose block row holds no block gives 0. Work is split over cores by
 * (batch entry, block row); the result does not depend on the split. */
trnsparseStatus_t
trnsparseBlockSparseAttention(trnsparseHandle_t handle, const void *scale,
                              trnsparseConstDnMatDescr_t matQ, trnsparseConstDnMatDescr_t matK,
                              trnsparseConstDnMatDescr_t matV, trnsparseConstSpMatDescr_t pattern,
                              trnsparseDnMatDescr_t matO, trnsciDataType computeType);

/* Schwarz bounds from a diagonal: bounds[I] = sqrt(max |diag[i]|) over the
 * blockSize entries i of block I (the last block may be shorter), for
 * ceil(n / blockSize) blocks; diag and bounds of one type (R_32F, R_64F).
 * For a positive semi-definite matrix A (a Gram matrix, the two-electron
 * integrals (ij|kl) of quantum chemistry) with diagonal diag, Cauchy-Schwarz
 * gives |A_ij| <= sqrt(A_ii A_jj) <= bounds[I] bounds[J] for every entry
 * of block (I, J): the bounds trnsparseSpMMScreened takes. */
trnsparseStatus_t trnsparseSchwarzBounds(trnsparseHandle_t handle, trnsparseConstDnVecDescr_t diag,
                                         int64_t blockSize, trnsparseDnVecDescr_t bounds);

/* Screened SpMM: trnsparseSpMM over only the entries (CSR, CSC, COO) or
 * blocks (BSR) (I, J) of matA with rowBounds[I] * colBounds[J] >= threshold
 * (products computed in computeType); the others are skipped as if zero.
 * rowBounds has one entry per row (BSR: block row) of matA, colBounds one
 * per column (block column), both of computeType; opA must be
 * NON_TRANSPOSE. With Schwarz bounds, the error against the full product
 * is at most sum over skipped (I, J) of bounds[I] bounds[J] |B_J| (B_J: the
 * rows of B block J multiplies), each term below threshold |B_J|; to screen
 * by that product, fold max |B_J| into colBounds. */
trnsparseStatus_t
trnsparseSpMMScreened(trnsparseHandle_t handle, trnsparseOperation_t opA, trnsparseOperation_t opB,
                      const void *alpha, trnsparseConstSpMatDescr_t matA,
                      trnsparseConstDnMatDescr_t matB, const void *beta, trnsparseDnMatDescr_t matC,
                      trnsparseConstDnVecDescr_t rowBounds, trnsparseConstDnVecDescr_t colBounds,
                      double threshold, trnsciDataType computeType, trnsparseSpMMAlg_t alg,
                      void *externalBuffer);

/* ---- banded solves (cuSPARSE's legacy tridiagonal / pentadiagonal API) ----
 * Tridiagonal systems A x = b given by their lower (dl), main (d) and
 * upper (du) diagonals, and pentadiagonal ones adding the second lower
 * (ds) and upper (dw) diagonals; the solution overwrites the right-hand
 * side. Element i of a diagonal is row i's entry: dl[i] = A(i, i-1),
 * du[i] = A(i, i+1), ds[i] = A(i, i-2), dw[i] = A(i, i+2); the
 * out-of-band entries (dl[0], du[m-1], ds[0..1], dw[m-2..m-1]; cuSPARSE
 * asks for zeros there) are never read. Layouts:
 *  - gtsv2, gtsv2_nopivot: one m x m system (m >= 3) with n right-hand
 *    sides, B column-major at ldb >= max(1, m);
 *  - gtsv2StridedBatch: batchCount systems (m >= 3), system k's diagonals
 *    and x at k * batchStride (batchStride >= m);
 *  - gtsvInterleavedBatch, gpsvInterleavedBatch: element-major, element i
 *    of system k at i * batchCount + k.
 * gtsv2 pivots (partial pivoting by rows), gtsv2_nopivot and the strided
 * batch do not; gtsvInterleavedBatch's algo 0 (Thomas) does not, algo 1
 * (LU) and 2 (QR) are both computed as LU with partial pivoting;
 * gpsvInterleavedBatch takes algo 0 (cuSPARSE's QR), computed as banded
 * LU with partial pivoting (both are backward stable for these systems).
 * The diagonals are never written (cuSPARSE's interleaved routines may
 * overwrite theirs). A singular system gives Inf/NaN, no error. x (B) must
 * not overlap a diagonal (TRNSPARSE_STATUS_INVALID_VALUE).
 * The _bufferSizeExt routines check the arguments as the solve will and
 * give 0: no caller buffer is needed, pBuffer is not read and may be
 * NULL. Asynchronous (errors found when the op runs surface at the next
 * synchronising call). */
trnsparseStatus_t trnsparseSgtsv2_bufferSizeExt(trnsparseHandle_t handle, int m, int n,
                                                const float *dl, const float *d, const float *du,
                                                const float *B, int ldb, size_t *bufferSizeInBytes);
trnsparseStatus_t trnsparseSgtsv2(trnsparseHandle_t handle, int m, int n, const float *dl,
                                  const float *d, const float *du, float *B, int ldb,
                                  void *pBuffer);
trnsparseStatus_t trnsparseSgtsv2_nopivot_bufferSizeExt(trnsparseHandle_t handle, int m, int n,
                                                        const float *dl, const float *d,
                                                        const float *du, const float *B, int ldb,
                                                        size_t *bufferSizeInBytes);
trnsparseStatus_t trnsparseSgtsv2_nopivot(trnsparseHandle_t handle, int m, int n, const float *dl,
                                          const float *d, const float *du, float *B, int ldb,
                                          void *pBuffer);
trnsparseStatus_t trnsparseSgtsv2StridedBatch_bufferSizeExt(trnsparseHandle_t handle, int m,
                                                            const float *dl, const float *d,
                                                            const float *du, const float *x,
                                                            int batchCount, int batchStride,
                                                            size_t *bufferSizeInBytes);
trnsparseStatus_t trnsparseSgtsv2StridedBatch(trnsparseHandle_t handle, int m, const float *dl,
                                              const float *d, const float *du, float *x,
                                              int batchCount, int batchStride, void *pBuffer);
trnsparseStatus_t trnsparseSgtsvInterleavedBatch_bufferSizeExt(trnsparseHandle_t handle, int algo,
                                                               int m, const float *dl,
                                                               const float *d, const float *du,
                                                               const float *x, int batchCount,
                                                               size_t *pBufferSizeInBytes);
trnsparseStatus_t trnsparseSgtsvInterleavedBatch(trnsparseHandle_t handle, int algo, int m,
                                                 float *dl, float *d, float *du, float *x,
                                                 int batchCount, void *pBuffer);
trnsparseStatus_t trnsparseSgpsvInterleavedBatch_bufferSizeExt(
    trnsparseHandle_t handle, int algo, int m, const float *ds, const float *dl, const float *d,
    const float *du, const float *dw, const float *x, int batchCount, size_t *pBufferSizeInBytes);
trnsparseStatus_t trnsparseSgpsvInterleavedBatch(trnsparseHandle_t handle, int algo, int m,
                                                 float *ds, float *dl, float *d, float *du,
                                                 float *dw, float *x, int batchCount,
                                                 void *pBuffer);
trnsparseStatus_t trnsparseDgtsv2_bufferSizeExt(trnsparseHandle_t handle, int m, int n,
                                                const double *dl, const double *d, const double *du,
                                                const double *B, int ldb,
                                                size_t *bufferSizeInBytes);
trnsparseStatus_t trnsparseDgtsv2(trnsparseHandle_t handle, int m, int n, const double *dl,
                                  const double *d, const double *du, double *B, int ldb,
                                  void *pBuffer);
trnsparseStatus_t trnsparseDgtsv2_nopivot_bufferSizeExt(trnsparseHandle_t handle, int m, int n,
                                                        const double *dl, const double *d,
                                                        const double *du, const double *B, int ldb,
                                                        size_t *bufferSizeInBytes);
trnsparseStatus_t trnsparseDgtsv2_nopivot(trnsparseHandle_t handle, int m, int n, const double *dl,
                                          const double *d, const double *du, double *B, int ldb,
                                          void *pBuffer);
trnsparseStatus_t trnsparseDgtsv2StridedBatch_bufferSizeExt(trnsparseHandle_t handle, int m,
                                                            const double *dl, const double *d,
                                                            const double *du, const double *x,
                                                            int batchCount, int batchStride,
                                                            size_t *bufferSizeInBytes);
trnsparseStatus_t trnsparseDgtsv2StridedBatch(trnsparseHandle_t handle, int m, const double *dl,
                                              const double *d, const double *du, double *x,
                                              int batchCount, int batchStride, void *pBuffer);
trnsparseStatus_t trnsparseDgtsvInterleavedBatch_bufferSizeExt(trnsparseHandle_t handle, int algo,
                                                               int m, const double *dl,
                                                               const double *d, const double *du,
                                                               const double *x, int batchCount,
                                                               size_t *pBufferSizeInBytes);
trnsparseStatus_t trnsparseDgtsvInterleavedBatch(trnsparseHandle_t handle, int algo, int m,
                                                 double *dl, double *d, double *du, double *x,
                                                 int batchCount, void *pBuffer);
trnsparseStatus_t trnsparseDgpsvInterleavedBatch_bufferSizeExt(trnsparseHandle_t handle, int algo,
                                                               int m, const double *ds,
                                                               const double *dl, const double *d,
                                                               const double *du, const double *dw,
                                                               const double *x, int batchCount,
                                                               size_t *pBufferSizeInBytes);
trnsparseStatus_t trnsparseDgpsvInterleavedBatch(trnsparseHandle_t handle, int algo, int m,
                                                 double *ds, double *dl, double *d, double *du,
                                                 double *dw, double *x, int batchCount,
                                                 void *pBuffer);
trnsparseStatus_t trnsparseCgtsv2_bufferSizeExt(trnsparseHandle_t handle, int m, int n,
                                                const trnComplex *dl, const trnComplex *d,
                                                const trnComplex *du, const trnComplex *B, int ldb,
                                                size_t *bufferSizeInBytes);
trnsparseStatus_t trnsparseCgtsv2(trnsparseHandle_t handle, int m, int n, const trnComplex *dl,
                                  const trnComplex *d, const trnComplex *du, trnComplex *B, int ldb,
                                  void *pBuffer);
trnsparseStatus_t trnsparseCgtsv2_nopivot_bufferSizeExt(trnsparseHandle_t handle, int m, int n,
                                                        const trnComplex *dl, const trnComplex *d,
                                                        const trnComplex *du, const trnComplex *B,
                                                        int ldb, size_t *bufferSizeInBytes);
trnsparseStatus_t trnsparseCgtsv2_nopivot(trnsparseHandle_t handle, int m, int n,
                                          const trnComplex *dl, const trnComplex *d,
                                          const trnComplex *du, trnComplex *B, int ldb,
                                          void *pBuffer);
trnsparseStatus_t
trnsparseCgtsv2StridedBatch_bufferSizeExt(trnsparseHandle_t handle, int m, const trnComplex *dl,
                                          const trnComplex *d, const trnComplex *du,
                                          const trnComplex *x, int batchCount, int batchStride,
                                          size_t *bufferSizeInBytes);
trnsparseStatus_t trnsparseCgtsv2StridedBatch(trnsparseHandle_t handle, int m, const trnComplex *dl,
                                              const trnComplex *d, const trnComplex *du,
                                              trnComplex *x, int batchCount, int batchStride,
                                              void *pBuffer);
trnsparseStatus_t trnsparseCgtsvInterleavedBatch_bufferSizeExt(
    trnsparseHandle_t handle, int algo, int m, const trnComplex *dl, const trnComplex *d,
    const trnComplex *du, const trnComplex *x, int batchCount, size_t *pBufferSizeInBytes);
trnsparseStatus_t trnsparseCgtsvInterleavedBatch(trnsparseHandle_t handle, int algo, int m,
                                                 trnComplex *dl, trnComplex *d, trnComplex *du,
                                                 trnComplex *x, int batchCount, void *pBuffer);
trnsparseStatus_t trnsparseCgpsvInterleavedBatch_bufferSizeExt(
    trnsparseHandle_t handle, int algo, int m, const trnComplex *ds, const trnComplex *dl,
    const trnComplex *d, const trnComplex *du, const trnComplex *dw, const trnComplex *x,
    int batchCount, size_t *pBufferSizeInBytes);
trnsparseStatus_t trnsparseCgpsvInterleavedBatch(trnsparseHandle_t handle, int algo, int m,
                                                 trnComplex *ds, trnComplex *dl, trnComplex *d,
                                                 trnComplex *du, trnComplex *dw, trnComplex *x,
                                                 int batchCount, void *pBuffer);
trnsparseStatus_t
trnsparseZgtsv2_bufferSizeExt(trnsparseHandle_t handle, int m, int n, const trnDoubleComplex *dl,
                              const trnDoubleComplex *d, const trnDoubleComplex *du,
                              const trnDoubleComplex *B, int ldb, size_t *bufferSizeInBytes);
trnsparseStatus_t trnsparseZgtsv2(trnsparseHandle_t handle, int m, int n,
                                  const trnDoubleComplex *dl, const trnDoubleComplex *d,
                                  const trnDoubleComplex *du, trnDoubleComplex *B, int ldb,
                                  void *pBuffer);
trnsparseStatus_t trnsparseZgtsv2_nopivot_bufferSizeExt(
    trnsparseHandle_t handle, int m, int n, const trnDoubleComplex *dl, const trnDoubleComplex *d,
    const trnDoubleComplex *du, const trnDoubleComplex *B, int ldb, size_t *bufferSizeInBytes);
trnsparseStatus_t trnsparseZgtsv2_nopivot(trnsparseHandle_t handle, int m, int n,
                                          const trnDoubleComplex *dl, const trnDoubleComplex *d,
                                          const trnDoubleComplex *du, trnDoubleComplex *B, int ldb,
                                          void *pBuffer);
trnsparseStatus_t trnsparseZgtsv2StridedBatch_bufferSizeExt(
    trnsparseHandle_t handle, int m, const trnDoubleComplex *dl, const trnDoubleComplex *d,
    const trnDoubleComplex *du, const trnDoubleComplex *x, int batchCount, int batchStride,
    size_t *bufferSizeInBytes);
trnsparseStatus_t trnsparseZgtsv2StridedBatch(trnsparseHandle_t handle, int m,
                                              const trnDoubleComplex *dl, const trnDoubleComplex *d,
                                              const trnDoubleComplex *du, trnDoubleComplex *x,
                                              int batchCount, int batchStride, void *pBuffer);
trnsparseStatus_t
trnsparseZgtsvInterleavedBatch_bufferSizeExt(trnsparseHandle_t handle, int algo, int m,
                                             const trnDoubleComplex *dl, const trnDoubleComplex *d,
                                             const trnDoubleComplex *du, const trnDoubleComplex *x,
                                             int batchCount, size_t *pBufferSizeInBytes);
trnsparseStatus_t trnsparseZgtsvInterleavedBatch(trnsparseHandle_t handle, int algo, int m,
                                                 trnDoubleComplex *dl, trnDoubleComplex *d,
                                                 trnDoubleComplex *du, trnDoubleComplex *x,
                                                 int batchCount, void *pBuffer);
trnsparseStatus_t
trnsparseZgpsvInterleavedBatch_bufferSizeExt(trnsparseHandle_t handle, int algo, int m,
                                             const trnDoubleComplex *ds, const trnDoubleComplex *dl,
                                             const trnDoubleComplex *d, const trnDoubleComplex *du,
                                             const trnDoubleComplex *dw, const trnDoubleComplex *x,
                                             int batchCount, size_t *pBufferSizeInBytes);
trnsparseStatus_t trnsparseZgpsvInterleavedBatch(trnsparseHandle_t handle, int algo, int m,
                                                 trnDoubleComplex *ds, trnDoubleComplex *dl,
                                                 trnDoubleComplex *d, trnDoubleComplex *du,
                                                 trnDoubleComplex *dw, trnDoubleComplex *x,
                                                 int batchCount, void *pBuffer);

/* ---- legacy BSR products (cusparse<t>bsrmv, cusparse<t>bsrmm) -------------
 * y = alpha A x + beta y and C = alpha A op(B) + beta C for an mb x nb (kb)
 * block matrix A in BSR storage: bsrRowPtrA (mb + 1), bsrColIndA and
 * bsrValA (nnzb blocks of blockDim x blockDim, elements row-major within a
 * block for TRNSPARSE_DIRECTION_ROW, column-major for _COLUMN), 32-bit
 * indices from descrA's index base. x has nb * blockDim elements, y
 * mb * blockDim; B is kb * blockDim x n (transB N) or n x kb * blockDim
 * (transB T), C mb * blockDim x n, column-major. As cuSPARSE: transA must
 * be NON_TRANSPOSE and descrA GENERAL (TRNSPARSE_STATUS_NOT_SUPPORTED),
 * bsrmm needs blockDim > 1 (bsrmv >= 1; TRNSPARSE_STATUS_INVALID_VALUE).
 * S, D, C and Z (C and Z need a daemon of protocol 1.15:
 * TRNSPARSE_STATUS_NOT_SUPPORTED from an older one). Computed as
 * trnsparseSpMV / SpMM on the BSR matrix (the daemon's messages name spmv /
 * spmm); beta = 0 does not read y (C). Asynchronous. */
trnsparseStatus_t trnsparseSbsrmv(trnsparseHandle_t handle, trnsparseDirection_t dirA,
                                  trnsparseOperation_t transA, int mb, int nb, int nnzb,
                                  const float *alpha, const trnsparseMatDescr_t descrA,
                                  const float *bsrValA, const int *bsrRowPtrA,
                                  const int *bsrColIndA, int blockDim, const float *x,
                                  const float *beta, float *y);
trnsparseStatus_t trnsparseSbsrmm(trnsparseHandle_t handle, trnsparseDirection_t dirA,
                                  trnsparseOperation_t transA, trnsparseOperation_t transB, int mb,
                                  int n, int kb, int nnzb, const float *alpha,
                                  const trnsparseMatDescr_t descrA, const float *bsrValA,
                                  const int *bsrRowPtrA, const int *bsrColIndA, int blockDim,
                                  const float *B, int ldb, const float *beta, float *C, int ldc);
trnsparseStatus_t trnsparseDbsrmv(trnsparseHandle_t handle, trnsparseDirection_t dirA,
                                  trnsparseOperation_t transA, int mb, int nb, int nnzb,
                                  const double *alpha, const trnsparseMatDescr_t descrA,
                                  const double *bsrValA, const int *bsrRowPtrA,
                                  const int *bsrColIndA, int blockDim, const double *x,
                                  const double *beta, double *y);
trnsparseStatus_t trnsparseDbsrmm(trnsparseHandle_t handle, trnsparseDirection_t dirA,
                                  trnsparseOperation_t transA, trnsparseOperation_t transB, int mb,
                                  int n, int kb, int nnzb, const double *alpha,
                                  const trnsparseMatDescr_t descrA, const double *bsrValA,
                                  const int *bsrRowPtrA, const int *bsrColIndA, int blockDim,
                                  const double *B, int ldb, const double *beta, double *C, int ldc);
trnsparseStatus_t trnsparseCbsrmv(trnsparseHandle_t handle, trnsparseDirection_t dirA,
                                  trnsparseOperation_t transA, int mb, int nb, int nnzb,
                                  const trnComplex *alpha, const trnsparseMatDescr_t descrA,
                                  const trnComplex *bsrValA, const int *bsrRowPtrA,
                                  const int *bsrColIndA, int blockDim, const trnComplex *x,
                                  const trnComplex *beta, trnComplex *y);
trnsparseStatus_t trnsparseCbsrmm(trnsparseHandle_t handle, trnsparseDirection_t dirA,
                                  trnsparseOperation_t transA, trnsparseOperation_t transB, int mb,
                                  int n, int kb, int nnzb, const trnComplex *alpha,
                                  const trnsparseMatDescr_t descrA, const trnComplex *bsrValA,
                                  const int *bsrRowPtrA, const int *bsrColIndA, int blockDim,
                                  const trnComplex *B, int ldb, const trnComplex *beta,
                                  trnComplex *C, int ldc);
trnsparseStatus_t trnsparseZbsrmv(trnsparseHandle_t handle, trnsparseDirection_t dirA,
                                  trnsparseOperation_t transA, int mb, int nb, int nnzb,
                                  const trnDoubleComplex *alpha, const trnsparseMatDescr_t descrA,
                                  const trnDoubleComplex *bsrValA, const int *bsrRowPtrA,
                                  const int *bsrColIndA, int blockDim, const trnDoubleComplex *x,
                                  const trnDoubleComplex *beta, trnDoubleComplex *y);
trnsparseStatus_t trnsparseZbsrmm(trnsparseHandle_t handle, trnsparseDirection_t dirA,
                                  trnsparseOperation_t transA, trnsparseOperation_t transB, int mb,
                                  int n, int kb, int nnzb, const trnDoubleComplex *alpha,
                                  const trnsparseMatDescr_t descrA, const trnDoubleComplex *bsrValA,
                                  const int *bsrRowPtrA, const int *bsrColIndA, int blockDim,
                                  const trnDoubleComplex *B, int ldb, const trnDoubleComplex *beta,
                                  trnDoubleComplex *C, int ldc);

/* ---- y = alpha op(A) x + beta y, sparse x (cusparse<t>gemvi) -------------
 * A is a dense m x n column-major matrix at lda >= max(1, m); x a sparse
 * vector of nnz entries xVal at positions xInd (32-bit, from idxBase; a
 * position repeated adds both entries); y has m (transA N) or n (T)
 * elements. transA N or T (others TRNSPARSE_STATUS_NOT_SUPPORTED, as
 * cuSPARSE documents only these). _bufferSize gives 0; pBuffer is not
 * read (may be NULL). beta = 0 does not read y; alpha = 0 reads neither A
 * nor x. Computed as an SpMM with x as a one-row matrix; needs a daemon of
 * protocol 1.15 (TRNSPARSE_STATUS_NOT_SUPPORTED from an older one). A bad
 * position fails the op when it runs. Asynchronous. */
trnsparseStatus_t trnsparseSgemvi_bufferSize(trnsparseHandle_t handle, trnsparseOperation_t transA,
                                             int m, int n, int nnz, int *pBufferSize);
trnsparseStatus_t trnsparseDgemvi_bufferSize(trnsparseHandle_t handle, trnsparseOperation_t transA,
                                             int m, int n, int nnz, int *pBufferSize);
trnsparseStatus_t trnsparseCgemvi_bufferSize(trnsparseHandle_t handle, trnsparseOperation_t transA,
                                             int m, int n, int nnz, int *pBufferSize);
trnsparseStatus_t trnsparseZgemvi_bufferSize(trnsparseHandle_t handle, trnsparseOperation_t transA,
                                             int m, int n, int nnz, int *pBufferSize);
trnsparseStatus_t trnsparseSgemvi(trnsparseHandle_t handle, trnsparseOperation_t transA, int m,
                                  int n, const float *alpha, const float *A, int lda, int nnz,
                                  const float *xVal, const int *xInd, const float *beta, float *y,
                                  trnsparseIndexBase_t idxBase, void *pBuffer);
trnsparseStatus_t trnsparseDgemvi(trnsparseHandle_t handle, trnsparseOperation_t transA, int m,
                                  int n, const double *alpha, const double *A, int lda, int nnz,
                                  const double *xVal, const int *xInd, const double *beta,
                                  double *y, trnsparseIndexBase_t idxBase, void *pBuffer);
trnsparseStatus_t trnsparseCgemvi(trnsparseHandle_t handle, trnsparseOperation_t transA, int m,
                                  int n, const trnComplex *alpha, const trnComplex *A, int lda,
                                  int nnz, const trnComplex *xVal, const int *xInd,
                                  const trnComplex *beta, trnComplex *y,
                                  trnsparseIndexBase_t idxBase, void *pBuffer);
trnsparseStatus_t trnsparseZgemvi(trnsparseHandle_t handle, trnsparseOperation_t transA, int m,
                                  int n, const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                  int lda, int nnz, const trnDoubleComplex *xVal, const int *xInd,
                                  const trnDoubleComplex *beta, trnDoubleComplex *y,
                                  trnsparseIndexBase_t idxBase, void *pBuffer);

/* ---- C = alpha A + beta B (cusparseXcsrgeam2Nnz, cusparse<t>csrgeam2) -----
 * m x n CSR matrices with 32-bit indices, each base from its descriptor
 * (which must be GENERAL: TRNSPARSE_STATUS_NOT_SUPPORTED). C's pattern is
 * the union of A's and B's (entries whose sum is 0 are kept), its column
 * indices sorted in each row; a column stored twice in A (or B) adds up.
 * Xcsrgeam2Nnz writes C's m + 1 row offsets and, when nnzTotalDevHostPtr
 * is not NULL (a host pointer), waits and stores C's entry count there.
 * csrgeam2 reads those offsets back (checked against the union: A or B
 * changed in between fails the op at the next synchronising call) and
 * writes C's indices and values; C's arrays count as long as their
 * allocations. alpha = 0 (beta = 0): A's (B's) values are not read. The
 * input needs no sorting (cuSPARSE requires sorted rows). bufferSizeExt
 * gives 0; workspace and pBuffer are not read (may be NULL). C and Z
 * (protocol 1.15) compute alpha a + beta b with complex products in the
 * value type's precision. C's arrays may not overlap A's or B's
 * (TRNSPARSE_STATUS_INVALID_VALUE). */
trnsparseStatus_t trnsparseXcsrgeam2Nnz(trnsparseHandle_t handle, int m, int n,
                                        const trnsparseMatDescr_t descrA, int nnzA,
                                        const int *csrSortedRowPtrA, const int *csrSortedColIndA,
                                        const trnsparseMatDescr_t descrB, int nnzB,
                                        const int *csrSortedRowPtrB, const int *csrSortedColIndB,
                                        const trnsparseMatDescr_t descrC, int *csrSortedRowPtrC,
                                        int *nnzTotalDevHostPtr, void *workspace);
trnsparseStatus_t trnsparseScsrgeam2_bufferSizeExt(
    trnsparseHandle_t handle, int m, int n, const float *alpha, const trnsparseMatDescr_t descrA,
    int nnzA, const float *csrSortedValA, const int *csrSortedRowPtrA, const int *csrSortedColIndA,
    const float *beta, const trnsparseMatDescr_t descrB, int nnzB, const float *csrSortedValB,
    const int *csrSortedRowPtrB, const int *csrSortedColIndB, const trnsparseMatDescr_t descrC,
    const float *csrSortedValC, const int *csrSortedRowPtrC, const int *csrSortedColIndC,
    size_t *pBufferSizeInBytes);
trnsparseStatus_t trnsparseScsrgeam2(
    trnsparseHandle_t handle, int m, int n, const float *alpha, const trnsparseMatDescr_t descrA,
    int nnzA, const float *csrSortedValA, const int *csrSortedRowPtrA, const int *csrSortedColIndA,
    const float *beta, const trnsparseMatDescr_t descrB, int nnzB, const float *csrSortedValB,
    const int *csrSortedRowPtrB, const int *csrSortedColIndB, const trnsparseMatDescr_t descrC,
    float *csrSortedValC, int *csrSortedRowPtrC, int *csrSortedColIndC, void *pBuffer);
trnsparseStatus_t trnsparseDcsrgeam2_bufferSizeExt(
    trnsparseHandle_t handle, int m, int n, const double *alpha, const trnsparseMatDescr_t descrA,
    int nnzA, const double *csrSortedValA, const int *csrSortedRowPtrA, const int *csrSortedColIndA,
    const double *beta, const trnsparseMatDescr_t descrB, int nnzB, const double *csrSortedValB,
    const int *csrSortedRowPtrB, const int *csrSortedColIndB, const trnsparseMatDescr_t descrC,
    const double *csrSortedValC, const int *csrSortedRowPtrC, const int *csrSortedColIndC,
    size_t *pBufferSizeInBytes);
trnsparseStatus_t trnsparseDcsrgeam2(
    trnsparseHandle_t handle, int m, int n, const double *alpha, const trnsparseMatDescr_t descrA,
    int nnzA, const double *csrSortedValA, const int *csrSortedRowPtrA, const int *csrSortedColIndA,
    const double *beta, const trnsparseMatDescr_t descrB, int nnzB, const double *csrSortedValB,
    const int *csrSortedRowPtrB, const int *csrSortedColIndB, const trnsparseMatDescr_t descrC,
    double *csrSortedValC, int *csrSortedRowPtrC, int *csrSortedColIndC, void *pBuffer);
trnsparseStatus_t trnsparseCcsrgeam2_bufferSizeExt(
    trnsparseHandle_t handle, int m, int n, const trnComplex *alpha,
    const trnsparseMatDescr_t descrA, int nnzA, const trnComplex *csrSortedValA,
    const int *csrSortedRowPtrA, const int *csrSortedColIndA, const trnComplex *beta,
    const trnsparseMatDescr_t descrB, int nnzB, const trnComplex *csrSortedValB,
    const int *csrSortedRowPtrB, const int *csrSortedColIndB, const trnsparseMatDescr_t descrC,
    const trnComplex *csrSortedValC, const int *csrSortedRowPtrC, const int *csrSortedColIndC,
    size_t *pBufferSizeInBytes);
trnsparseStatus_t trnsparseCcsrgeam2(trnsparseHandle_t handle, int m, int n,
                                     const trnComplex *alpha, const trnsparseMatDescr_t descrA,
                                     int nnzA, const trnComplex *csrSortedValA,
                                     const int *csrSortedRowPtrA, const int *csrSortedColIndA,
                                     const trnComplex *beta, const trnsparseMatDescr_t descrB,
                                     int nnzB, const trnComplex *csrSortedValB,
                                     const int *csrSortedRowPtrB, const int *csrSortedColIndB,
                                     const trnsparseMatDescr_t descrC, trnComplex *csrSortedValC,
                                     int *csrSortedRowPtrC, int *csrSortedColIndC, void *pBuffer);
trnsparseStatus_t trnsparseZcsrgeam2_bufferSizeExt(
    trnsparseHandle_t handle, int m, int n, const trnDoubleComplex *alpha,
    const trnsparseMatDescr_t descrA, int nnzA, const trnDoubleComplex *csrSortedValA,
    const int *csrSortedRowPtrA, const int *csrSortedColIndA, const trnDoubleComplex *beta,
    const trnsparseMatDescr_t descrB, int nnzB, const trnDoubleComplex *csrSortedValB,
    const int *csrSortedRowPtrB, const int *csrSortedColIndB, const trnsparseMatDescr_t descrC,
    const trnDoubleComplex *csrSortedValC, const int *csrSortedRowPtrC, const int *csrSortedColIndC,
    size_t *pBufferSizeInBytes);
trnsparseStatus_t trnsparseZcsrgeam2(
    trnsparseHandle_t handle, int m, int n, const trnDoubleComplex *alpha,
    const trnsparseMatDescr_t descrA, int nnzA, const trnDoubleComplex *csrSortedValA,
    const int *csrSortedRowPtrA, const int *csrSortedColIndA, const trnDoubleComplex *beta,
    const trnsparseMatDescr_t descrB, int nnzB, const trnDoubleComplex *csrSortedValB,
    const int *csrSortedRowPtrB, const int *csrSortedColIndB, const trnsparseMatDescr_t descrC,
    trnDoubleComplex *csrSortedValC, int *csrSortedRowPtrC, int *csrSortedColIndC, void *pBuffer);

/* ---- incomplete factorisations (cusparse<t>csric02, cusparse<t>csrilu02) ----
 * IC0 and ILU0 in place on a square m x m CSR matrix's pattern (no fill),
 * 32-bit indices from descrA's base (GENERAL: TRNSPARSE_STATUS_NOT_SUPPORTED
 * otherwise), columns strictly increasing in each row (else the op fails
 * when it runs, reported at the next synchronising call). csric02 reads the
 * lower triangle and overwrites it with L (A ~ L L^T); entries above the
 * diagonal are untouched. csrilu02 overwrites A with L (unit diagonal, not
 * stored) and U (A ~ L U). _analysis checks the structure and records a
 * missing diagonal entry; the factorisation records the first j whose
 * pivot is missing or exactly zero (IC0: a_jj - sum l_jk^2 = 0; a negative
 * one gives NaN, not a zero pivot). X..._zeroPivot waits for the handle's
 * stream and returns TRNSPARSE_STATUS_ZERO_PIVOT with *position = j + base,
 * or SUCCESS with -1, for the last analysis or factorisation queued with
 * that info. The info object holds a small device allocation. Both
 * policies are accepted (one algorithm); _bufferSize gives 0 and pBuffer is
 * not read (may be NULL). An analysis is not required before the
 * factorisation. S, D, C and Z (C, Z: trnComplex / trnDoubleComplex values,
 * a protocol 1.15 daemon; csric02 then computes A ~ L L^H, the diagonal
 * the principal square root of a_jj - sum |l_jk|^2); csrilu02_numericBoost
 * is not provided. */
typedef enum trnsparseSolvePolicy_t {
    TRNSPARSE_SOLVE_POLICY_NO_LEVEL = 0,
    TRNSPARSE_SOLVE_POLICY_USE_LEVEL = 1,
} trnsparseSolvePolicy_t;

typedef struct csric02Info *csric02Info_t;
typedef struct csrilu02Info *csrilu02Info_t;

trnsparseStatus_t trnsparseCreateCsric02Info(csric02Info_t *info);
trnsparseStatus_t trnsparseDestroyCsric02Info(csric02Info_t info);
trnsparseStatus_t trnsparseCreateCsrilu02Info(csrilu02Info_t *info);
trnsparseStatus_t trnsparseDestroyCsrilu02Info(csrilu02Info_t info);
trnsparseStatus_t trnsparseXcsric02_zeroPivot(trnsparseHandle_t handle, csric02Info_t info,
                                              int *position);
trnsparseStatus_t trnsparseXcsrilu02_zeroPivot(trnsparseHandle_t handle, csrilu02Info_t info,
                                               int *position);
trnsparseStatus_t trnsparseScsric02_bufferSize(trnsparseHandle_t handle, int m, int nnz,
                                               const trnsparseMatDescr_t descrA, float *csrValA,
                                               const int *csrRowPtrA, const int *csrColIndA,
                                               csric02Info_t info, int *pBufferSizeInBytes);
trnsparseStatus_t trnsparseScsric02_analysis(trnsparseHandle_t handle, int m, int nnz,
                                             const trnsparseMatDescr_t descrA, const float *csrValA,
                                             const int *csrRowPtrA, const int *csrColIndA,
                                             csric02Info_t info, trnsparseSolvePolicy_t policy,
                                             void *pBuffer);
trnsparseStatus_t trnsparseScsric02(trnsparseHandle_t handle, int m, int nnz,
                                    const trnsparseMatDescr_t descrA, float *csrValA_valM,
                                    const int *csrRowPtrA, const int *csrColIndA,
                                    csric02Info_t info, trnsparseSolvePolicy_t policy,
                                    void *pBuffer);
trnsparseStatus_t trnsparseScsrilu02_bufferSize(trnsparseHandle_t handle, int m, int nnz,
                                                const trnsparseMatDescr_t descrA, float *csrValA,
                                                const int *csrRowPtrA, const int *csrColIndA,
                                                csrilu02Info_t info, int *pBufferSizeInBytes);
trnsparseStatus_t trnsparseScsrilu02_analysis(trnsparseHandle_t handle, int m, int nnz,
                                              const trnsparseMatDescr_t descrA,
                                              const float *csrValA, const int *csrRowPtrA,
                                              const int *csrColIndA, csrilu02Info_t info,
                                              trnsparseSolvePolicy_t policy, void *pBuffer);
trnsparseStatus_t trnsparseScsrilu02(trnsparseHandle_t handle, int m, int nnz,
                                     const trnsparseMatDescr_t descrA, float *csrValA_valM,
                                     const int *csrRowPtrA, const int *csrColIndA,
                                     csrilu02Info_t info, trnsparseSolvePolicy_t policy,
                                     void *pBuffer);
trnsparseStatus_t trnsparseDcsric02_bufferSize(trnsparseHandle_t handle, int m, int nnz,
                                               const trnsparseMatDescr_t descrA, double *csrValA,
                                               const int *csrRowPtrA, const int *csrColIndA,
                                               csric02Info_t info, int *pBufferSizeInBytes);
trnsparseStatus_t trnsparseDcsric02_analysis(trnsparseHandle_t handle, int m, int nnz,
                                             const trnsparseMatDescr_t descrA,
                                             const double *csrValA, const int *csrRowPtrA,
                                             const int *csrColIndA, csric02Info_t info,
                                             trnsparseSolvePolicy_t policy, void *pBuffer);
trnsparseStatus_t trnsparseDcsric02(trnsparseHandle_t handle, int m, int nnz,
                                    const trnsparseMatDescr_t descrA, double *csrValA_valM,
                                    const int *csrRowPtrA, const int *csrColIndA,
                                    csric02Info_t info, trnsparseSolvePolicy_t policy,
                                    void *pBuffer);
trnsparseStatus_t trnsparseDcsrilu02_bufferSize(trnsparseHandle_t handle, int m, int nnz,
                                                const trnsparseMatDescr_t descrA, double *csrValA,
                                                const int *csrRowPtrA, const int *csrColIndA,
                                                csrilu02Info_t info, int *pBufferSizeInBytes);
trnsparseStatus_t trnsparseDcsrilu02_analysis(trnsparseHandle_t handle, int m, int nnz,
                                              const trnsparseMatDescr_t descrA,
                                              const double *csrValA, const int *csrRowPtrA,
                                              const int *csrColIndA, csrilu02Info_t info,
                                              trnsparseSolvePolicy_t policy, void *pBuffer);
trnsparseStatus_t trnsparseDcsrilu02(trnsparseHandle_t handle, int m, int nnz,
                                     const trnsparseMatDescr_t descrA, double *csrValA_valM,
                                     const int *csrRowPtrA, const int *csrColIndA,
                                     csrilu02Info_t info, trnsparseSolvePolicy_t policy,
                                     void *pBuffer);
trnsparseStatus_t trnsparseCcsric02_bufferSize(trnsparseHandle_t handle, int m, int nnz,
                                               const trnsparseMatDescr_t descrA,
                                               trnComplex *csrValA, const int *csrRowPtrA,
                                               const int *csrColIndA, csric02Info_t info,
                                               int *pBufferSizeInBytes);
trnsparseStatus_t trnsparseCcsric02_analysis(trnsparseHandle_t handle, int m, int nnz,
                                             const trnsparseMatDescr_t descrA,
                                             const trnComplex *csrValA, const int *csrRowPtrA,
                                             const int *csrColIndA, csric02Info_t info,
                                             trnsparseSolvePolicy_t policy, void *pBuffer);
trnsparseStatus_t trnsparseCcsric02(trnsparseHandle_t handle, int m, int nnz,
                                    const trnsparseMatDescr_t descrA, trnComplex *csrValA_valM,
                                    const int *csrRowPtrA, const int *csrColIndA,
                                    csric02Info_t info, trnsparseSolvePolicy_t policy,
                                    void *pBuffer);
trnsparseStatus_t trnsparseCcsrilu02_bufferSize(trnsparseHandle_t handle, int m, int nnz,
                                                const trnsparseMatDescr_t descrA,
                                                trnComplex *csrValA, const int *csrRowPtrA,
                                                const int *csrColIndA, csrilu02Info_t info,
                                                int *pBufferSizeInBytes);
trnsparseStatus_t trnsparseCcsrilu02_analysis(trnsparseHandle_t handle, int m, int nnz,
                                              const trnsparseMatDescr_t descrA,
                                              const trnComplex *csrValA, const int *csrRowPtrA,
                                              const int *csrColIndA, csrilu02Info_t info,
                                              trnsparseSolvePolicy_t policy, void *pBuffer);
trnsparseStatus_t trnsparseCcsrilu02(trnsparseHandle_t handle, int m, int nnz,
                                     const trnsparseMatDescr_t descrA, trnComplex *csrValA_valM,
                                     const int *csrRowPtrA, const int *csrColIndA,
                                     csrilu02Info_t info, trnsparseSolvePolicy_t policy,
                                     void *pBuffer);
trnsparseStatus_t trnsparseZcsric02_bufferSize(trnsparseHandle_t handle, int m, int nnz,
                                               const trnsparseMatDescr_t descrA,
                                               trnDoubleComplex *csrValA, const int *csrRowPtrA,
                                               const int *csrColIndA, csric02Info_t info,
                                               int *pBufferSizeInBytes);
trnsparseStatus_t trnsparseZcsric02_analysis(trnsparseHandle_t handle, int m, int nnz,
                                             const trnsparseMatDescr_t descrA,
                                             const trnDoubleComplex *csrValA, const int *csrRowPtrA,
                                             const int *csrColIndA, csric02Info_t info,
                                             trnsparseSolvePolicy_t policy, void *pBuffer);
trnsparseStatus_t trnsparseZcsric02(trnsparseHandle_t handle, int m, int nnz,
                                    const trnsparseMatDescr_t descrA,
                                    trnDoubleComplex *csrValA_valM, const int *csrRowPtrA,
                                    const int *csrColIndA, csric02Info_t info,
                                    trnsparseSolvePolicy_t policy, void *pBuffer);
trnsparseStatus_t trnsparseZcsrilu02_bufferSize(trnsparseHandle_t handle, int m, int nnz,
                                                const trnsparseMatDescr_t descrA,
                                                trnDoubleComplex *csrValA, const int *csrRowPtrA,
                                                const int *csrColIndA, csrilu02Info_t info,
                                                int *pBufferSizeInBytes);
trnsparseStatus_t trnsparseZcsrilu02_analysis(trnsparseHandle_t handle, int m, int nnz,
                                              const trnsparseMatDescr_t descrA,
                                              const trnDoubleComplex *csrValA,
                                              const int *csrRowPtrA, const int *csrColIndA,
                                              csrilu02Info_t info, trnsparseSolvePolicy_t policy,
                                              void *pBuffer);
trnsparseStatus_t trnsparseZcsrilu02(trnsparseHandle_t handle, int m, int nnz,
                                     const trnsparseMatDescr_t descrA,
                                     trnDoubleComplex *csrValA_valM, const int *csrRowPtrA,
                                     const int *csrColIndA, csrilu02Info_t info,
                                     trnsparseSolvePolicy_t policy, void *pBuffer);

#ifdef __cplusplus
}
#endif

#endif
