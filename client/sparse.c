/*
 * sparse.c — trnsparse: the handle, status texts, the helpers every routine
 * uses (descriptors to wire messages, scalars, submission), and SpMV/SpMM.
 * Each routine checks what only the client can (NULL handles, descriptors
 * and scalars), resolves device pointers, encodes the op and queues it on
 * the handle's stream; the daemon checks sizes and extents
 * (daemon/validate_sparse.c), and its message for a rejected call is
 * available from trnsciGetLastErrorMessage.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "client/sparse_internal.h"

trnsparseStatus_t trn_sparse_status(trnsciError_t e) {
    switch (e) {
    case trnsciSuccess: return TRNSPARSE_STATUS_SUCCESS;
    case trnsciErrorInvalidValue: return TRNSPARSE_STATUS_INVALID_VALUE;
    case trnsciErrorMemoryAllocation:
    case trnsciErrorBusy: return TRNSPARSE_STATUS_ALLOC_FAILED; /* no queue slot: retry later */
    case trnsciErrorNoDevice:
    case trnsciErrorInitializationError:
    case trnsciErrorInsufficientDriver: return TRNSPARSE_STATUS_NOT_INITIALIZED;
    case trnsciErrorNotSupported: return TRNSPARSE_STATUS_NOT_SUPPORTED;
    case trnsciErrorUnknown: return TRNSPARSE_STATUS_INTERNAL_ERROR;
    default: return TRNSPARSE_STATUS_EXECUTION_FAILED;
    }
}

trnsparseStatus_t trn_sparse_fail(trnsciError_t e, const char *fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return trn_sparse_status(trn_fail(e, "%s", msg));
}

/* Every type the wire has; which routine takes which is the validator's
 * (ops/validate/sparse.c: the 16-bit types are SpMV's and SpMM's only). */
trnsciError_t trn_sparse_wire_type(trnsciDataType t, const char *fn, const char *what,
                                   Trnsci__V1__DataType *out) {
    switch (t) {
    case TRNSCI_R_32F: *out = TRNSCI__V1__DATA_TYPE__R_32F; return trnsciSuccess;
    case TRNSCI_R_64F: *out = TRNSCI__V1__DATA_TYPE__R_64F; return trnsciSuccess;
    case TRNSCI_C_32F: *out = TRNSCI__V1__DATA_TYPE__C_32F; return trnsciSuccess;
    case TRNSCI_C_64F: *out = TRNSCI__V1__DATA_TYPE__C_64F; return trnsciSuccess;
    case TRNSCI_R_16F: *out = TRNSCI__V1__DATA_TYPE__R_16F; return trnsciSuccess;
    case TRNSCI_R_16BF: *out = TRNSCI__V1__DATA_TYPE__R_16BF; return trnsciSuccess;
    default:
        return trn_fail(trnsciErrorNotSupported,
                        "%s: %s: data type %d is not supported (R_32F, R_64F, C_32F, C_64F, "
                        "R_16F, R_16BF)",
                        fn, what, (int)t);
    }
}

static Trnsci__V1__SparseIndexType wire_index(trnsparseIndexType_t t) {
    return (Trnsci__V1__SparseIndexType)t; /* the wire enum has cuSPARSE's values */
}

static Trnsci__V1__SparseOrder wire_order(trnsparseOrder_t o) {
    return (Trnsci__V1__SparseOrder)o;
}

static trnsciError_t resolve(trn_client *c, const void *p, const char *fn, const char *name,
                             const char *array, Trnsci__V1__BufferRef *ref) {
    return trn_client_resolve_named(c, p, fn, name, array, ref);
}

trnsciError_t trn_sparse_wire_spmat(trn_client *c, trnsparseConstSpMatDescr_t d, const char *fn,
                                    const char *name, trn_wire_spmat *w) {
    static const char *const arrays[][4] = {
        [TRNSPARSE_FORMAT_CSR] = {"csrRowOffsets", "csrColInd", "", "csrValues"},
        [TRNSPARSE_FORMAT_CSC] = {"cscColOffsets", "cscRowInd", "", "cscValues"},
        [TRNSPARSE_FORMAT_COO] = {"", "cooColInd", "cooRowInd", "cooValues"},
        [TRNSPARSE_FORMAT_BLOCKED_ELL] = {"", "ellColInd", "", "ellValue"},
        [TRNSPARSE_FORMAT_BSR] = {"bsrRowOffsets", "bsrColInd", "", "bsrValues"},
        [TRNSPARSE_FORMAT_SLICED_ELLPACK] = {"sellSliceOffsets", "sellColInd", "", "sellValues"},
    };
    const Trnsci__V1__SparseMatrix m0 = TRNSCI__V1__SPARSE_MATRIX__INIT;
    const Trnsci__V1__BufferRef r0 = TRNSCI__V1__BUFFER_REF__INIT;
    w->m = m0;
    w->off = w->idx = w->rowind = w->val = r0;
    if (!d)
        return trn_fail(trnsciErrorInvalidValue, "%s: %s is NULL", fn, name);
    const int f = (int)d->format;
    const char *const *names = (f >= 1 && f <= TRNSPARSE_FORMAT_SLICED_ELLPACK && arrays[f][1])
                                   ? arrays[f]
                                   : arrays[TRNSPARSE_FORMAT_CSR];
    trnsciError_t e = trn_sparse_wire_type(d->valueType, fn, name, &w->m.type);
    /* The ELL formats and strided batches are protocol 1.14: an older
     * daemon would refuse the formats as unknown and ignore the batch. */
    if (e == trnsciSuccess && (d->format == TRNSPARSE_FORMAT_BLOCKED_ELL ||
                               d->format == TRNSPARSE_FORMAT_SLICED_ELLPACK || d->batchCount > 1))
        e = trn_client_need_minor(c, 14, fn);
    if (e == trnsciSuccess)
        e = resolve(c, d->offsets, fn, name, names[0], &w->off);
    if (e == trnsciSuccess)
        e = resolve(c, d->indices, fn, name, names[1], &w->idx);
    if (e == trnsciSuccess)
        e = resolve(c, d->rowind, fn, name, names[2], &w->rowind);
    if (e == trnsciSuccess)
        e = resolve(c, d->values, fn, name, names[3], &w->val);
    if (e != trnsciSuccess)
        return e;
    w->m.format = (Trnsci__V1__SparseFormat)d->format;
    w->m.rows = d->rows;
    w->m.cols = d->cols;
    w->m.nnz = d->nnz;
    w->m.offsets_type = wire_index(d->offType);
    w->m.index_type = wire_index(d->idxType);
    w->m.index_base = (uint32_t)d->base;
    w->m.row_block = d->rb;
    w->m.col_block = d->cb;
    w->m.block_order = wire_order(d->order);
    w->m.ell_cols = d->ellCols;
    w->m.values_size = d->valuesSize;
    w->m.batch_count = d->batchCount;
    w->m.offsets_batch_stride = d->offsetsBatchStride;
    w->m.batch_stride = d->batchStride;
    w->m.offsets = &w->off;
    w->m.indices = &w->idx;
    w->m.row_indices = &w->rowind;
    w->m.values = &w->val;
    return trnsciSuccess;
}

trnsciError_t trn_sparse_wire_dnmat(trn_client *c, trnsparseConstDnMatDescr_t d, const char *fn,
                                    const char *name, trn_wire_dnmat *w) {
    const Trnsci__V1__DenseMatrix m0 = TRNSCI__V1__DENSE_MATRIX__INIT;
    const Trnsci__V1__BufferRef r0 = TRNSCI__V1__BUFFER_REF__INIT;
    w->m = m0;
    w->val = r0;
    if (!d)
        return trn_fail(trnsciErrorInvalidValue, "%s: %s is NULL", fn, name);
    trnsciError_t e = trn_sparse_wire_type(d->type, fn, name, &w->m.type);
    if (e == trnsciSuccess)
        e = resolve(c, d->values, fn, name, "values", &w->val);
    if (e != trnsciSuccess)
        return e;
    w->m.rows = d->rows;
    w->m.cols = d->cols;
    w->m.ld = d->ld;
    w->m.order = wire_order(d->order);
    w->m.batch_count = d->batchCount;
    w->m.batch_stride = d->batchStride;
    w->m.values = &w->val;
    return trnsciSuccess;
}

trnsciError_t trn_sparse_wire_dnvec(trn_client *c, trnsparseConstDnVecDescr_t d, const char *fn,
                                    const char *name, trn_wire_dnvec *w) {
    const Trnsci__V1__DenseVector v0 = TRNSCI__V1__DENSE_VECTOR__INIT;
    const Trnsci__V1__BufferRef r0 = TRNSCI__V1__BUFFER_REF__INIT;
    w->v = v0;
    w->val = r0;
    if (!d)
        return trn_fail(trnsciErrorInvalidValue, "%s: %s is NULL", fn, name);
    trnsciError_t e = trn_sparse_wire_type(d->type, fn, name, &w->v.type);
    if (e == trnsciSuccess)
        e = resolve(c, d->values, fn, name, "values", &w->val);
    if (e != trnsciSuccess)
        return e;
    w->v.size = d->size;
    w->v.values = &w->val;
    return trnsciSuccess;
}

int64_t trn_sparse_capacity(trn_client *c, const void *p, int64_t es) {
    trn_ptr_entry e;
    uint64_t off;
    if (!p || es <= 0 || trn_ptrtable_lookup(&c->ptrs, p, &e, &off) != 0)
        return 0;
    return (int64_t)((e.size - off) / (uint64_t)es);
}

double trn_sparse_scalar(const void *p, trnsciDataType computeType) {
    if (!p)
        return 0.0;
    return computeType == TRNSCI_R_32F ? (double)*(const float *)p : *(const double *)p;
}

void trn_sparse_scalars(const void *alpha, const void *beta, trnsciDataType computeType,
                        Trnsci__V1__Scalar *al, Trnsci__V1__Scalar *be) {
    trnsci__v1__scalar__init(al);
    trnsci__v1__scalar__init(be);
    al->re = trn_sparse_scalar(alpha, computeType);
    be->re = trn_sparse_scalar(beta, computeType);
}

trnsparseStatus_t trn_sparse_no_buffer(trnsparseHandle_t handle, const char *fn,
                                       size_t *bufferSize) {
    if (!handle)
        return TRNSPARSE_STATUS_NOT_INITIALIZED;
    if (!bufferSize)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: bufferSize is NULL", fn);
    *bufferSize = 0;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trn_client *trn_sparse_begin(trnsparseHandle_t handle, trnsparseStatus_t *st) {
    if (!handle) { /* cuSPARSE: a handle not initialised */
        trn_fail(trnsciErrorInvalidValue, "trnsparse: the handle is NULL");
        *st = TRNSPARSE_STATUS_NOT_INITIALIZED;
        return NULL;
    }
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        *st = TRNSPARSE_STATUS_NOT_INITIALIZED;
    return c;
}

trnsparseStatus_t trn_sparse_submit(trn_client *c, trnsparseHandle_t handle, Trnsci__V1__Op *op) {
    const trnsciError_t e = trn_client_submit(c, handle->stream, op);
    if (e == trnsciSuccess)
        trn_ok();
    return trn_sparse_status(e);
}

/* ---- the handle --------------------------------------------------------------- */

trnsparseStatus_t trnsparseCreate(trnsparseHandle_t *handle) {
    if (!handle)
        return trn_sparse_fail(trnsciErrorInvalidValue, "trnsparseCreate: handle is NULL");
    trnsciError_t e;
    if (!trn_client_get(&e))
        return TRNSPARSE_STATUS_NOT_INITIALIZED;
    trnsparseHandle_t h = calloc(1, sizeof(*h));
    if (!h)
        return trn_sparse_fail(trnsciErrorMemoryAllocation, "trnsparseCreate: out of memory");
    *handle = h;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseDestroy(trnsparseHandle_t handle) {
    if (!handle)
        return TRNSPARSE_STATUS_NOT_INITIALIZED;
    free(handle);
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseSetStream(trnsparseHandle_t handle, trnsciStream_t streamId) {
    if (!handle)
        return TRNSPARSE_STATUS_NOT_INITIALIZED;
    handle->stream = streamId;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseGetStream(trnsparseHandle_t handle, trnsciStream_t *streamId) {
    if (!handle)
        return TRNSPARSE_STATUS_NOT_INITIALIZED;
    if (!streamId)
        return trn_sparse_fail(trnsciErrorInvalidValue, "trnsparseGetStream: streamId is NULL");
    *streamId = handle->stream;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseSetPointerMode(trnsparseHandle_t handle, trnsparsePointerMode_t mode) {
    if (!handle)
        return TRNSPARSE_STATUS_NOT_INITIALIZED;
    if (mode == TRNSPARSE_POINTER_MODE_DEVICE)
        return trn_sparse_fail(trnsciErrorNotSupported,
                               "trnsparseSetPointerMode: device pointer mode is not supported");
    if (mode != TRNSPARSE_POINTER_MODE_HOST)
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "trnsparseSetPointerMode: mode %d is not HOST (0) or DEVICE (1)",
                               (int)mode);
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseGetPointerMode(trnsparseHandle_t handle, trnsparsePointerMode_t *mode) {
    if (!handle)
        return TRNSPARSE_STATUS_NOT_INITIALIZED;
    if (!mode)
        return trn_sparse_fail(trnsciErrorInvalidValue, "trnsparseGetPointerMode: mode is NULL");
    *mode = TRNSPARSE_POINTER_MODE_HOST;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseGetVersion(trnsparseHandle_t handle, int *version) {
    if (!handle)
        return TRNSPARSE_STATUS_NOT_INITIALIZED;
    if (!version)
        return trn_sparse_fail(trnsciErrorInvalidValue, "trnsparseGetVersion: version is NULL");
    *version = TRNSCI_VERSION_MAJOR * 1000 + TRNSCI_VERSION_MINOR * 100 + TRNSCI_VERSION_PATCH;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

const char *trnsparseGetErrorName(trnsparseStatus_t status) {
    switch (status) {
    case TRNSPARSE_STATUS_SUCCESS: return "TRNSPARSE_STATUS_SUCCESS";
    case TRNSPARSE_STATUS_NOT_INITIALIZED: return "TRNSPARSE_STATUS_NOT_INITIALIZED";
    case TRNSPARSE_STATUS_ALLOC_FAILED: return "TRNSPARSE_STATUS_ALLOC_FAILED";
    case TRNSPARSE_STATUS_INVALID_VALUE: return "TRNSPARSE_STATUS_INVALID_VALUE";
    case TRNSPARSE_STATUS_ARCH_MISMATCH: return "TRNSPARSE_STATUS_ARCH_MISMATCH";
    case TRNSPARSE_STATUS_MAPPING_ERROR: return "TRNSPARSE_STATUS_MAPPING_ERROR";
    case TRNSPARSE_STATUS_EXECUTION_FAILED: return "TRNSPARSE_STATUS_EXECUTION_FAILED";
    case TRNSPARSE_STATUS_INTERNAL_ERROR: return "TRNSPARSE_STATUS_INTERNAL_ERROR";
    case TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED:
        return "TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case TRNSPARSE_STATUS_ZERO_PIVOT: return "TRNSPARSE_STATUS_ZERO_PIVOT";
    case TRNSPARSE_STATUS_NOT_SUPPORTED: return "TRNSPARSE_STATUS_NOT_SUPPORTED";
    case TRNSPARSE_STATUS_INSUFFICIENT_RESOURCES: return "TRNSPARSE_STATUS_INSUFFICIENT_RESOURCES";
    }
    return "TRNSPARSE_STATUS_UNKNOWN";
}

const char *trnsparseGetErrorString(trnsparseStatus_t status) {
    switch (status) {
    case TRNSPARSE_STATUS_SUCCESS: return "success";
    case TRNSPARSE_STATUS_NOT_INITIALIZED: return "initialization error";
    case TRNSPARSE_STATUS_ALLOC_FAILED: return "resource allocation failed";
    case TRNSPARSE_STATUS_INVALID_VALUE: return "invalid value";
    case TRNSPARSE_STATUS_ARCH_MISMATCH: return "device architecture not supported";
    case TRNSPARSE_STATUS_MAPPING_ERROR: return "access to device memory failed";
    case TRNSPARSE_STATUS_EXECUTION_FAILED: return "execution failed";
    case TRNSPARSE_STATUS_INTERNAL_ERROR: return "internal operation failed";
    case TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "matrix type not supported";
    case TRNSPARSE_STATUS_ZERO_PIVOT: return "zero pivot";
    case TRNSPARSE_STATUS_NOT_SUPPORTED: return "operation not supported";
    case TRNSPARSE_STATUS_INSUFFICIENT_RESOURCES: return "insufficient resources";
    }
    return "unknown status";
}

/* ---- SpMV, SpMM ------------------------------------------------------------------ */

/* Complex (C_32F, C_64F) and 16-bit (R_16F, R_16BF) SpMV/SpMM are
 * protocol 1.15: an older daemon refuses them, or (a half descriptor it
 * took for another type) would misread the data. */
static trnsciError_t spmm_types_minor(trn_client *c, trnsciDataType a, const char *fn) {
    if (a == TRNSCI_R_32F || a == TRNSCI_R_64F)
        return trnsciSuccess;
    return trn_client_need_minor(c, 15, fn);
}

/* alpha and beta of an SpMV/SpMM: complex for a complex computeType (the
 * host values are (re, im) pairs of it), else one real of it. */
void trn_sparse_spmm_scalars(const void *alpha, const void *beta, trnsciDataType computeType,
                             Trnsci__V1__Scalar *al, Trnsci__V1__Scalar *be) {
    trn_sparse_scalars(alpha, beta, computeType, al, be);
    if (computeType == TRNSCI_C_32F) {
        al->re = (double)((const float *)alpha)[0];
        be->re = (double)((const float *)beta)[0];
        al->im = (double)((const float *)alpha)[1];
        be->im = (double)((const float *)beta)[1];
    } else if (computeType == TRNSCI_C_64F) {
        al->im = ((const double *)alpha)[1];
        be->im = ((const double *)beta)[1];
    }
}

/* What every SpMV/SpMM variant checks before any work. */
static trn_client *check_common(trnsparseHandle_t handle, const char *fn, const void *alpha,
                                const void *beta, const void *a, const void *b, const void *c,
                                trnsparseStatus_t *st) {
    trn_client *cl = trn_sparse_begin(handle, st);
    if (!cl)
        return NULL;
    if (!alpha || !beta) {
        *st = trn_sparse_fail(trnsciErrorInvalidValue, "%s: alpha or beta is NULL", fn);
        return NULL;
    }
    if (!a || !b || !c) {
        *st = trn_sparse_fail(trnsciErrorInvalidValue, "%s: a matrix or vector descriptor is NULL",
                              fn);
        return NULL;
    }
    return cl;
}

trnsparseStatus_t trnsparseSpMV_bufferSize(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                           const void *alpha, trnsparseConstSpMatDescr_t matA,
                                           trnsparseConstDnVecDescr_t vecX, const void *beta,
                                           trnsparseDnVecDescr_t vecY, trnsciDataType computeType,
                                           trnsparseSpMVAlg_t alg, size_t *bufferSize) {
    (void)opA, (void)alpha, (void)matA, (void)vecX, (void)beta, (void)vecY, (void)computeType;
    (void)alg;
    return trn_sparse_no_buffer(handle, "spmv", bufferSize);
}

trnsparseStatus_t trnsparseSpMV_preprocess(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                           const void *alpha, trnsparseConstSpMatDescr_t matA,
                                           trnsparseConstDnVecDescr_t vecX, const void *beta,
                                           trnsparseDnVecDescr_t vecY, trnsciDataType computeType,
                                           trnsparseSpMVAlg_t alg, void *externalBuffer) {
    size_t unused;
    (void)externalBuffer;
    return trnsparseSpMV_bufferSize(handle, opA, alpha, matA, vecX, beta, vecY, computeType, alg,
                                    &unused);
}

trnsparseStatus_t trnsparseSpMV(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                const void *alpha, trnsparseConstSpMatDescr_t matA,
                                trnsparseConstDnVecDescr_t vecX, const void *beta,
                                trnsparseDnVecDescr_t vecY, trnsciDataType computeType,
                                trnsparseSpMVAlg_t alg, void *externalBuffer) {
    (void)externalBuffer;
    const char *fn = "spmv";
    trnsparseStatus_t st;
    trn_client *c = check_common(handle, fn, alpha, beta, matA, vecX, vecY, &st);
    if (!c)
        return st;
    Trnsci__V1__SpMVOp w = TRNSCI__V1__SP_MVOP__INIT;
    trn_wire_spmat a;
    trn_wire_dnvec x, y;
    trnsciError_t e = trn_sparse_wire_type(computeType, fn, "computeType", &w.compute_type);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_spmat(c, matA, fn, "matA", &a);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_dnvec(c, vecX, fn, "vecX", &x);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_dnvec(c, vecY, fn, "vecY", &y);
    if (e == trnsciSuccess)
        e = spmm_types_minor(c, matA->valueType, fn);
    if (e != trnsciSuccess)
        return trn_sparse_status(e);
    Trnsci__V1__Scalar al, be;
    trn_sparse_spmm_scalars(alpha, beta, computeType, &al, &be);
    w.op_a = (Trnsci__V1__Operation)opA;
    w.alpha = &al;
    w.a = &a.m;
    w.x = &x.v;
    w.beta = &be;
    w.y = &y.v;
    w.alg = (uint32_t)alg;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_SPMV;
    op.spmv = &w;
    return trn_sparse_submit(c, handle, &op);
}

trnsparseStatus_t trnsparseSpMM_bufferSize(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                           trnsparseOperation_t opB, const void *alpha,
                                           trnsparseConstSpMatDescr_t matA,
                                           trnsparseConstDnMatDescr_t matB, const void *beta,
                                           trnsparseDnMatDescr_t matC, trnsciDataType computeType,
                                           trnsparseSpMMAlg_t alg, size_t *bufferSize) {
    (void)opA, (void)opB, (void)alpha, (void)matA, (void)matB, (void)beta, (void)matC;
    (void)computeType, (void)alg;
    return trn_sparse_no_buffer(handle, "spmm", bufferSize);
}

trnsparseStatus_t trnsparseSpMM_preprocess(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                           trnsparseOperation_t opB, const void *alpha,
                                           trnsparseConstSpMatDescr_t matA,
                                           trnsparseConstDnMatDescr_t matB, const void *beta,
                                           trnsparseDnMatDescr_t matC, trnsciDataType computeType,
                                           trnsparseSpMMAlg_t alg, void *externalBuffer) {
    size_t unused;
    (void)externalBuffer;
    return trnsparseSpMM_bufferSize(handle, opA, opB, alpha, matA, matB, beta, matC, computeType,
                                    alg, &unused);
}

/* SpMM, screened when bounds are given (trnsparseSpMMScreened). */
trnsparseStatus_t trn_sparse_spmm(trnsparseHandle_t handle, const char *fn,
                                  trnsparseOperation_t opA, trnsparseOperation_t opB,
                                  const void *alpha, trnsparseConstSpMatDescr_t matA,
                                  trnsparseConstDnMatDescr_t matB, const void *beta,
                                  trnsparseDnMatDescr_t matC, trnsparseConstDnVecDescr_t rowBounds,
                                  trnsparseConstDnVecDescr_t colBounds, double threshold,
                                  trnsciDataType computeType, trnsparseSpMMAlg_t alg) {
    trnsparseStatus_t st;
    trn_client *c = check_common(handle, fn, alpha, beta, matA, matB, matC, &st);
    if (!c)
        return st;
    Trnsci__V1__SpMMOp w = TRNSCI__V1__SP_MMOP__INIT;
    trn_wire_spmat a;
    trn_wire_dnmat b, cm;
    trn_wire_dnvec rb, cb;
    trnsciError_t e = trn_sparse_wire_type(computeType, fn, "computeType", &w.compute_type);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_spmat(c, matA, fn, "matA", &a);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_dnmat(c, matB, fn, "matB", &b);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_dnmat(c, matC, fn, "matC", &cm);
    if (e == trnsciSuccess && (rowBounds || colBounds)) {
        e = trn_sparse_wire_dnvec(c, rowBounds, fn, "rowBounds", &rb);
        if (e == trnsciSuccess)
            e = trn_sparse_wire_dnvec(c, colBounds, fn, "colBounds", &cb);
        w.row_bounds = &rb.v;
        w.col_bounds = &cb.v;
        w.threshold = threshold;
    }
    if (e == trnsciSuccess)
        e = spmm_types_minor(c, matA->valueType, fn);
    if (e != trnsciSuccess)
        return trn_sparse_status(e);
    Trnsci__V1__Scalar al, be;
    trn_sparse_spmm_scalars(alpha, beta, computeType, &al, &be);
    w.op_a = (Trnsci__V1__Operation)opA;
    w.op_b = (Trnsci__V1__Operation)opB;
    w.alpha = &al;
    w.a = &a.m;
    w.b = &b.m;
    w.beta = &be;
    w.c = &cm.m;
    w.alg = (uint32_t)alg;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_SPMM;
    op.spmm = &w;
    return trn_sparse_submit(c, handle, &op);
}

trnsparseStatus_t trnsparseSpMM(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                trnsparseOperation_t opB, const void *alpha,
                                trnsparseConstSpMatDescr_t matA, trnsparseConstDnMatDescr_t matB,
                                const void *beta, trnsparseDnMatDescr_t matC,
                                trnsciDataType computeType, trnsparseSpMMAlg_t alg,
                                void *externalBuffer) {
    (void)externalBuffer;
    return trn_sparse_spmm(handle, "spmm", opA, opB, alpha, matA, matB, beta, matC, NULL, NULL, 0.0,
                           computeType, alg);
}
