/*
 * sparse_vec.c — trnsparse's sparse vectors: the descriptor (host record of
 * what the caller passed, like the matrix descriptors of sparse_desc.c) and
 * cuSPARSE's Level 1 generic routines (SpVV, Axpby, Gather, Scatter, Rot),
 * each one SparseVectorOp (protocol 1.13). The daemon's validator
 * (ops/validate/sparse_vec.c) has the argument rules; this file checks only
 * what the caller's process must (NULL handle, descriptors, host scalars).
 * SpVV is the one routine that waits: its result is a host pointer.
 * Complex values (C_32F, C_64F) need protocol 1.15 (sparse_complex.h).
 */
#include <stdlib.h>

#include "client/sparse_complex.h"
#include "client/sparse_internal.h"

#define SPVEC_MINOR 13u

static trnsparseStatus_t ok(void) {
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

/* ---- the descriptor ----------------------------------------------------------------- */

trnsparseStatus_t trnsparseCreateSpVec(trnsparseSpVecDescr_t *spVecDescr, int64_t size, int64_t nnz,
                                       void *indices, void *values, trnsparseIndexType_t idxType,
                                       trnsparseIndexBase_t idxBase, trnsciDataType valueType) {
    const char *fn = "trnsparseCreateSpVec";
    if (!spVecDescr)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: spVecDescr is NULL", fn);
    if (size < 0 || nnz < 0 || nnz > size)
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: size=%lld, nnz=%lld must satisfy 0 <= nnz <= size", fn,
                               (long long)size, (long long)nnz);
    if (idxType != TRNSPARSE_INDEX_16U && idxType != TRNSPARSE_INDEX_32I &&
        idxType != TRNSPARSE_INDEX_64I)
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: idxType %d is not a trnsparseIndexType_t", fn, (int)idxType);
    if (idxBase != TRNSPARSE_INDEX_BASE_ZERO && idxBase != TRNSPARSE_INDEX_BASE_ONE)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: idxBase %d is not ZERO or ONE", fn,
                               (int)idxBase);
    if ((int)valueType < TRNSCI_R_32F || (int)valueType > TRNSCI_C_16BF)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: valueType %d is not a data type", fn,
                               (int)valueType);
    trnsparseSpVecDescr_t v = malloc(sizeof(*v));
    if (!v)
        return trn_sparse_fail(trnsciErrorMemoryAllocation, "%s: out of memory", fn);
    *v = (struct trnsparseSpVecDescr){
        .size = size,
        .nnz = nnz,
        .indices = indices,
        .values = values,
        .idxType = idxType,
        .base = idxBase,
        .valueType = valueType,
    };
    *spVecDescr = v;
    return ok();
}

trnsparseStatus_t trnsparseCreateConstSpVec(trnsparseConstSpVecDescr_t *spVecDescr, int64_t size,
                                            int64_t nnz, const void *indices, const void *values,
                                            trnsparseIndexType_t idxType,
                                            trnsparseIndexBase_t idxBase,
                                            trnsciDataType valueType) {
    return trnsparseCreateSpVec((trnsparseSpVecDescr_t *)spVecDescr, size, nnz, (void *)indices,
                                (void *)values, idxType, idxBase, valueType);
}

trnsparseStatus_t trnsparseDestroySpVec(trnsparseConstSpVecDescr_t spVecDescr) {
    free((void *)spVecDescr);
    return ok();
}

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

trnsparseStatus_t trnsparseConstSpVecGet(trnsparseConstSpVecDescr_t spVecDescr, int64_t *size,
                                         int64_t *nnz, const void **indices, const void **values,
                                         trnsparseIndexType_t *idxType,
                                         trnsparseIndexBase_t *idxBase, trnsciDataType *valueType) {
    NEED(spVecDescr, "trnsparseSpVecGet");
    PUT(size, spVecDescr->size);
    PUT(nnz, spVecDescr->nnz);
    PUT(indices, spVecDescr->indices);
    PUT(values, spVecDescr->values);
    PUT(idxType, spVecDescr->idxType);
    PUT(idxBase, spVecDescr->base);
    PUT(valueType, spVecDescr->valueType);
    return ok();
}

trnsparseStatus_t trnsparseSpVecGet(trnsparseSpVecDescr_t spVecDescr, int64_t *size, int64_t *nnz,
                                    void **indices, void **values, trnsparseIndexType_t *idxType,
                                    trnsparseIndexBase_t *idxBase, trnsciDataType *valueType) {
    return trnsparseConstSpVecGet(spVecDescr, size, nnz, (const void **)indices,
                                  (const void **)values, idxType, idxBase, valueType);
}

trnsparseStatus_t trnsparseSpVecGetIndexBase(trnsparseConstSpVecDescr_t spVecDescr,
                                             trnsparseIndexBase_t *idxBase) {
    NEED(spVecDescr, "trnsparseSpVecGetIndexBase");
    PUT(idxBase, spVecDescr->base);
    return ok();
}

trnsparseStatus_t trnsparseSpVecGetValues(trnsparseSpVecDescr_t spVecDescr, void **values) {
    NEED(spVecDescr, "trnsparseSpVecGetValues");
    PUT(values, spVecDescr->values);
    return ok();
}

trnsparseStatus_t trnsparseConstSpVecGetValues(trnsparseConstSpVecDescr_t spVecDescr,
                                               const void **values) {
    NEED(spVecDescr, "trnsparseConstSpVecGetValues");
    PUT(values, spVecDescr->values);
    return ok();
}

trnsparseStatus_t trnsparseSpVecSetValues(trnsparseSpVecDescr_t spVecDescr, void *values) {
    NEED(spVecDescr, "trnsparseSpVecSetValues");
    spVecDescr->values = values;
    return ok();
}

/* ---- the routines ------------------------------------------------------------------- */

typedef struct wire_spvec {
    Trnsci__V1__SparseVector v;
    Trnsci__V1__BufferRef idx, val;
} wire_spvec;

static trnsciError_t wire_sparse_vector(trn_client *c, trnsparseConstSpVecDescr_t d, const char *fn,
                                        wire_spvec *w) {
    const Trnsci__V1__SparseVector v0 = TRNSCI__V1__SPARSE_VECTOR__INIT;
    const Trnsci__V1__BufferRef r0 = TRNSCI__V1__BUFFER_REF__INIT;
    w->v = v0;
    w->idx = w->val = r0;
    if (!d)
        return trn_fail(trnsciErrorInvalidValue, "%s: vecX is NULL", fn);
    trnsciError_t e = trn_sparse_wire_type(d->valueType, fn, "vecX", &w->v.type);
    if (e == trnsciSuccess)
        e = trn_client_resolve_named(c, d->indices, fn, "vecX", "indices", &w->idx);
    if (e == trnsciSuccess)
        e = trn_client_resolve_named(c, d->values, fn, "vecX", "values", &w->val);
    if (e != trnsciSuccess)
        return e;
    w->v.size = d->size;
    w->v.nnz = d->nnz;
    w->v.index_type = (Trnsci__V1__SparseIndexType)d->idxType; /* cuSPARSE's values */
    w->v.index_base = (uint32_t)d->base;
    w->v.indices = &w->idx;
    w->v.values = &w->val;
    return trnsciSuccess;
}

/* Builds and queues one SparseVectorOp (result: the device buffer SpVV
 * writes, else NULL). */
static trnsparseStatus_t spvec_op(trnsparseHandle_t handle, const char *fn,
                                  Trnsci__V1__SparseVectorFunction f, trnsparseOperation_t opX,
                                  const void *alpha, const void *beta,
                                  trnsparseConstSpVecDescr_t vecX, trnsparseConstDnVecDescr_t vecY,
                                  trnsciDataType computeType, void *result) {
    trnsparseStatus_t st;
    trn_client *c = trn_sparse_begin(handle, &st);
    if (!c)
        return st;
    trnsciError_t e = trn_client_need_minor(c, SPVEC_MINOR, fn);
    if (e == trnsciSuccess && vecX)
        e = trn_sparse_complex_minor(c, vecX->valueType, fn);
    if (e != trnsciSuccess)
        return trn_sparse_status(e);
    Trnsci__V1__SparseVectorOp w = TRNSCI__V1__SPARSE_VECTOR_OP__INIT;
    wire_spvec x;
    trn_wire_dnvec y;
    Trnsci__V1__BufferRef r = TRNSCI__V1__BUFFER_REF__INIT;
    e = wire_sparse_vector(c, vecX, fn, &x);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_dnvec(c, vecY, fn, "vecY", &y);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_type(computeType, fn, "computeType", &w.compute_type);
    if (e == trnsciSuccess && result)
        e = trn_client_resolve_named(c, result, fn, "externalBuffer", NULL, &r);
    if (e != trnsciSuccess)
        return trn_sparse_status(e);
    Trnsci__V1__Scalar al, be;
    trn_sparse_scalar_of(alpha, computeType, &al);
    trn_sparse_scalar_of(beta, computeType, &be);
    w.function = f;
    w.op_x = (Trnsci__V1__Operation)opX;
    w.alpha = &al;
    w.beta = &be;
    w.x = &x.v;
    w.y = &y.v;
    w.result = &r;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_SPARSE_VECTOR;
    op.sparse_vector = &w;
    return trn_sparse_submit(c, handle, &op);
}

/* The buffer SpVV's result lands in before it is copied to the host. */
#define SPVV_BUFFER 16

trnsparseStatus_t trnsparseSpVV_bufferSize(trnsparseHandle_t handle, trnsparseOperation_t opX,
                                           trnsparseConstSpVecDescr_t vecX,
                                           trnsparseConstDnVecDescr_t vecY, const void *result,
                                           trnsciDataType computeType, size_t *bufferSize) {
    (void)opX, (void)vecX, (void)vecY, (void)result, (void)computeType;
    if (!handle)
        return TRNSPARSE_STATUS_NOT_INITIALIZED;
    if (!bufferSize)
        return trn_sparse_fail(trnsciErrorInvalidValue, "spvv: bufferSize is NULL");
    *bufferSize = SPVV_BUFFER;
    return ok();
}

trnsparseStatus_t trnsparseSpVV(trnsparseHandle_t handle, trnsparseOperation_t opX,
                                trnsparseConstSpVecDescr_t vecX, trnsparseConstDnVecDescr_t vecY,
                                void *result, trnsciDataType computeType, void *externalBuffer) {
    const char *fn = "spvv";
    if (handle && !result)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: result is NULL", fn);
    if (handle && !externalBuffer)
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: externalBuffer is NULL (trnsparseSpVV_bufferSize bytes are "
                               "needed: the result lands there)",
                               fn);
    trnsparseStatus_t st =
        spvec_op(handle, fn, TRNSCI__V1__SPARSE_VECTOR_FUNCTION__SPARSE_VECTOR_SPVV, opX, NULL,
                 NULL, vecX, vecY, computeType, externalBuffer);
    if (st != TRNSPARSE_STATUS_SUCCESS)
        return st;
    /* The validator accepted computeType: R_32F, R_64F, C_32F or C_64F. */
    const size_t es = computeType == TRNSCI_C_64F   ? 16
                      : computeType == TRNSCI_R_64F ? 8
                      : computeType == TRNSCI_C_32F ? 8
                                                    : 4;
    trnsciError_t e =
        trnsciMemcpyAsync(result, externalBuffer, es, trnsciMemcpyDeviceToHost, handle->stream);
    if (e == trnsciSuccess)
        e = trnsciStreamSynchronize(handle->stream);
    if (e == trnsciSuccess)
        trn_ok();
    return trn_sparse_status(e);
}

trnsparseStatus_t trnsparseAxpby(trnsparseHandle_t handle, const void *alpha,
                                 trnsparseConstSpVecDescr_t vecX, const void *beta,
                                 trnsparseDnVecDescr_t vecY) {
    if (handle && (!alpha || !beta))
        return trn_sparse_fail(trnsciErrorInvalidValue, "axpby: alpha or beta is NULL");
    const trnsciDataType t = vecX ? vecX->valueType : TRNSCI_R_32F;
    return spvec_op(handle, "axpby", TRNSCI__V1__SPARSE_VECTOR_FUNCTION__SPARSE_VECTOR_AXPBY,
                    TRNSPARSE_OPERATION_NON_TRANSPOSE, alpha, beta, vecX, vecY, t, NULL);
}

trnsparseStatus_t trnsparseGather(trnsparseHandle_t handle, trnsparseConstDnVecDescr_t vecY,
                                  trnsparseSpVecDescr_t vecX) {
    const trnsciDataType t = vecX ? vecX->valueType : TRNSCI_R_32F;
    return spvec_op(handle, "gather", TRNSCI__V1__SPARSE_VECTOR_FUNCTION__SPARSE_VECTOR_GATHER,
                    TRNSPARSE_OPERATION_NON_TRANSPOSE, NULL, NULL, vecX, vecY, t, NULL);
}

trnsparseStatus_t trnsparseScatter(trnsparseHandle_t handle, trnsparseConstSpVecDescr_t vecX,
                                   trnsparseDnVecDescr_t vecY) {
    const trnsciDataType t = vecX ? vecX->valueType : TRNSCI_R_32F;
    return spvec_op(handle, "scatter", TRNSCI__V1__SPARSE_VECTOR_FUNCTION__SPARSE_VECTOR_SCATTER,
                    TRNSPARSE_OPERATION_NON_TRANSPOSE, NULL, NULL, vecX, vecY, t, NULL);
}

trnsparseStatus_t trnsparseRot(trnsparseHandle_t handle, const void *c_coeff, const void *s_coeff,
                               trnsparseSpVecDescr_t vecX, trnsparseDnVecDescr_t vecY) {
    if (handle && (!c_coeff || !s_coeff))
        return trn_sparse_fail(trnsciErrorInvalidValue, "rot: c_coeff or s_coeff is NULL");
    const trnsciDataType t = vecX ? vecX->valueType : TRNSCI_R_32F;
    return spvec_op(handle, "rot", TRNSCI__V1__SPARSE_VECTOR_FUNCTION__SPARSE_VECTOR_ROT,
                    TRNSPARSE_OPERATION_NON_TRANSPOSE, c_coeff, s_coeff, vecX, vecY, t, NULL);
}
