/*
 * sparse_spsv.c — trnsparse's triangular solves: the matrix attributes they
 * read (trnsparseSpMatSetAttribute: fill mode, diagonal type), SpSV (one
 * right-hand side) and SpSM (several), each phase one SpSVOp (protocol
 * 1.13). The analysis queues a structure pass (analysis_only) and records
 * which matrix descriptor and opA it saw; the solve refuses a descriptor
 * that was not analysed. The argument rules are the validator's
 * (ops/validate/sparse_vec.c). Complex values (C_32F, C_64F, alpha a
 * cuComplex / cuDoubleComplex) need a 1.15 daemon.
 */
#include <stdlib.h>

#include "client/sparse_complex.h"
#include "client/sparse_internal.h"

#define SPSV_MINOR 13u

/* The analysis record of SpSV and SpSM. */
typedef struct spsv_record {
    trnsparseConstSpMatDescr_t mat; /* analysed, or NULL */
    trnsparseOperation_t opA;
    uint64_t session; /* the client generation it was made in */
} spsv_record;

struct trnsparseSpSVDescr {
    spsv_record r;
};

struct trnsparseSpSMDescr {
    spsv_record r;
};

static trnsparseStatus_t ok(void) {
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

/* ---- attributes ----------------------------------------------------------------------- */

static trnsparseStatus_t attribute_args(const char *fn, const void *d,
                                        trnsparseSpMatAttribute_t attribute, const void *data,
                                        size_t dataSize) {
    if (!d)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: spMatDescr is NULL", fn);
    if (!data)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: data is NULL", fn);
    if (attribute != TRNSPARSE_SPMAT_FILL_MODE && attribute != TRNSPARSE_SPMAT_DIAG_TYPE)
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: attribute %d is not TRNSPARSE_SPMAT_FILL_MODE (0) or "
                               "TRNSPARSE_SPMAT_DIAG_TYPE (1)",
                               fn, (int)attribute);
    const size_t need = attribute == TRNSPARSE_SPMAT_FILL_MODE ? sizeof(trnsparseFillMode_t)
                                                               : sizeof(trnsparseDiagType_t);
    if (dataSize != need)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: dataSize %zu must be %zu (sizeof(%s))",
                               fn, dataSize, need,
                               attribute == TRNSPARSE_SPMAT_FILL_MODE ? "trnsparseFillMode_t"
                                                                      : "trnsparseDiagType_t");
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseSpMatGetAttribute(trnsparseConstSpMatDescr_t spMatDescr,
                                             trnsparseSpMatAttribute_t attribute, void *data,
                                             size_t dataSize) {
    const trnsparseStatus_t st =
        attribute_args("trnsparseSpMatGetAttribute", spMatDescr, attribute, data, dataSize);
    if (st != TRNSPARSE_STATUS_SUCCESS)
        return st;
    if (attribute == TRNSPARSE_SPMAT_FILL_MODE)
        *(trnsparseFillMode_t *)data = spMatDescr->fill;
    else
        *(trnsparseDiagType_t *)data = spMatDescr->diag;
    return ok();
}

trnsparseStatus_t trnsparseSpMatSetAttribute(trnsparseSpMatDescr_t spMatDescr,
                                             trnsparseSpMatAttribute_t attribute, void *data,
                                             size_t dataSize) {
    const char *fn = "trnsparseSpMatSetAttribute";
    const trnsparseStatus_t st = attribute_args(fn, spMatDescr, attribute, data, dataSize);
    if (st != TRNSPARSE_STATUS_SUCCESS)
        return st;
    if (attribute == TRNSPARSE_SPMAT_FILL_MODE) {
        const trnsparseFillMode_t f = *(const trnsparseFillMode_t *)data;
        if (f != TRNSPARSE_FILL_MODE_LOWER && f != TRNSPARSE_FILL_MODE_UPPER)
            return trn_sparse_fail(trnsciErrorInvalidValue,
                                   "%s: fill mode %d is not TRNSPARSE_FILL_MODE_LOWER (0) or "
                                   "TRNSPARSE_FILL_MODE_UPPER (1)",
                                   fn, (int)f);
        spMatDescr->fill = f;
    } else {
        const trnsparseDiagType_t g = *(const trnsparseDiagType_t *)data;
        if (g != TRNSPARSE_DIAG_TYPE_NON_UNIT && g != TRNSPARSE_DIAG_TYPE_UNIT)
            return trn_sparse_fail(trnsciErrorInvalidValue,
                                   "%s: diagonal type %d is not TRNSPARSE_DIAG_TYPE_NON_UNIT (0) "
                                   "or TRNSPARSE_DIAG_TYPE_UNIT (1)",
                                   fn, (int)g);
        spMatDescr->diag = g;
    }
    return ok();
}

/* ---- the solves ------------------------------------------------------------------------ */

/* A dense vector as the n x 1 column-major matrix SpSVOp carries. */
static trnsciError_t wire_column(trn_client *c, trnsparseConstDnVecDescr_t v, const char *fn,
                                 const char *name, trn_wire_dnmat *w) {
    const Trnsci__V1__DenseMatrix m0 = TRNSCI__V1__DENSE_MATRIX__INIT;
    const Trnsci__V1__BufferRef r0 = TRNSCI__V1__BUFFER_REF__INIT;
    w->m = m0;
    w->val = r0;
    if (!v)
        return trn_fail(trnsciErrorInvalidValue, "%s: %s is NULL", fn, name);
    trnsciError_t e = trn_sparse_wire_type(v->type, fn, name, &w->m.type);
    if (e == trnsciSuccess)
        e = trn_client_resolve_named(c, v->values, fn, name, "values", &w->val);
    if (e != trnsciSuccess)
        return e;
    w->m.rows = v->size;
    w->m.cols = 1;
    w->m.ld = v->size > 1 ? v->size : 1;
    w->m.order = TRNSCI__V1__SPARSE_ORDER__SPARSE_ORDER_COL;
    w->m.values = &w->val;
    return trnsciSuccess;
}

/* One SpSVOp: vecX/vecY (SpSV) or matB/matC (SpSM). */
static trnsparseStatus_t spsv_op(trnsparseHandle_t handle, const char *fn, int analysis,
                                 trnsparseOperation_t opA, trnsparseOperation_t opB,
                                 const void *alpha, trnsparseConstSpMatDescr_t matA,
                                 trnsparseConstDnVecDescr_t vecX, trnsparseConstDnVecDescr_t vecY,
                                 trnsparseConstDnMatDescr_t matB, trnsparseConstDnMatDescr_t matC,
                                 trnsciDataType computeType, unsigned alg, spsv_record *rec) {
    trnsparseStatus_t st;
    trn_client *c = trn_sparse_begin(handle, &st);
    if (!c)
        return st;
    trnsciError_t e = trn_client_need_minor(c, SPSV_MINOR, fn);
    if (e == trnsciSuccess)
        e = trn_sparse_complex_minor(c, computeType, fn);
    if (e != trnsciSuccess)
        return trn_sparse_status(e);
    if (!rec)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: the SpSV/SpSM descriptor is NULL", fn);
    if (!alpha)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: alpha is NULL", fn);
    if (!analysis && (rec->mat != matA || rec->opA != opA || rec->session != c->generation))
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: call the _analysis phase with this matA and opA first", fn);
    Trnsci__V1__SpSVOp w = TRNSCI__V1__SP_SVOP__INIT;
    trn_wire_spmat a;
    trn_wire_dnmat b, cm;
    e = trn_sparse_wire_spmat(c, matA, fn, "matA", &a);
    if (e == trnsciSuccess)
        e = vecX ? wire_column(c, vecX, fn, "vecX", &b)
                 : trn_sparse_wire_dnmat(c, matB, fn, "matB", &b);
    if (e == trnsciSuccess)
        e = vecX ? wire_column(c, vecY, fn, "vecY", &cm)
                 : trn_sparse_wire_dnmat(c, matC, fn, "matC", &cm);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_type(computeType, fn, "computeType", &w.compute_type);
    if (e != trnsciSuccess)
        return trn_sparse_status(e);
    Trnsci__V1__Scalar al;
    trn_sparse_scalar_of(alpha, computeType, &al);
    w.op_a = (Trnsci__V1__Operation)opA;
    w.op_b = (Trnsci__V1__Operation)opB;
    w.alpha = &al;
    w.a = &a.m;
    w.fill_mode = (Trnsci__V1__FillMode)matA->fill; /* cuSPARSE's values */
    w.diag_type = (Trnsci__V1__DiagType)matA->diag;
    w.b = &b.m;
    w.c = &cm.m;
    w.alg = alg;
    w.analysis_only = analysis;
    w.spsm = vecX == NULL;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_SPSV;
    op.spsv = &w;
    st = trn_sparse_submit(c, handle, &op);
    if (st == TRNSPARSE_STATUS_SUCCESS && analysis) {
        rec->mat = matA;
        rec->opA = opA;
        rec->session = c->generation;
    }
    return st;
}

trnsparseStatus_t trnsparseSpSV_createDescr(trnsparseSpSVDescr_t *descr) {
    if (!descr)
        return trn_sparse_fail(trnsciErrorInvalidValue, "trnsparseSpSV_createDescr: descr is NULL");
    *descr = calloc(1, sizeof(**descr));
    if (!*descr)
        return trn_sparse_fail(trnsciErrorMemoryAllocation,
                               "trnsparseSpSV_createDescr: out of memory");
    return ok();
}

trnsparseStatus_t trnsparseSpSV_destroyDescr(trnsparseSpSVDescr_t descr) {
    free(descr);
    return ok();
}

trnsparseStatus_t trnsparseSpSV_bufferSize(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                           const void *alpha, trnsparseConstSpMatDescr_t matA,
                                           trnsparseConstDnVecDescr_t vecX,
                                           trnsparseDnVecDescr_t vecY, trnsciDataType computeType,
                                           trnsparseSpSVAlg_t alg, trnsparseSpSVDescr_t spsvDescr,
                                           size_t *bufferSize) {
    (void)opA, (void)alpha, (void)matA, (void)vecX, (void)vecY, (void)computeType, (void)alg;
    (void)spsvDescr;
    return trn_sparse_no_buffer(handle, "spsv", bufferSize);
}

trnsparseStatus_t trnsparseSpSV_analysis(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                         const void *alpha, trnsparseConstSpMatDescr_t matA,
                                         trnsparseConstDnVecDescr_t vecX,
                                         trnsparseDnVecDescr_t vecY, trnsciDataType computeType,
                                         trnsparseSpSVAlg_t alg, trnsparseSpSVDescr_t spsvDescr,
                                         void *externalBuffer) {
    (void)externalBuffer;
    const char *fn = "spsv analysis";
    if (handle && !vecX)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: vecX is NULL", fn);
    return spsv_op(handle, fn, 1, opA, TRNSPARSE_OPERATION_NON_TRANSPOSE, alpha, matA, vecX, vecY,
                   NULL, NULL, computeType, (unsigned)alg, spsvDescr ? &spsvDescr->r : NULL);
}

trnsparseStatus_t trnsparseSpSV_solve(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                      const void *alpha, trnsparseConstSpMatDescr_t matA,
                                      trnsparseConstDnVecDescr_t vecX, trnsparseDnVecDescr_t vecY,
                                      trnsciDataType computeType, trnsparseSpSVAlg_t alg,
                                      trnsparseSpSVDescr_t spsvDescr) {
    const char *fn = "spsv solve";
    if (handle && !vecX)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: vecX is NULL", fn);
    return spsv_op(handle, fn, 0, opA, TRNSPARSE_OPERATION_NON_TRANSPOSE, alpha, matA, vecX, vecY,
                   NULL, NULL, computeType, (unsigned)alg, spsvDescr ? &spsvDescr->r : NULL);
}

trnsparseStatus_t trnsparseSpSM_createDescr(trnsparseSpSMDescr_t *descr) {
    if (!descr)
        return trn_sparse_fail(trnsciErrorInvalidValue, "trnsparseSpSM_createDescr: descr is NULL");
    *descr = calloc(1, sizeof(**descr));
    if (!*descr)
        return trn_sparse_fail(trnsciErrorMemoryAllocation,
                               "trnsparseSpSM_createDescr: out of memory");
    return ok();
}

trnsparseStatus_t trnsparseSpSM_destroyDescr(trnsparseSpSMDescr_t descr) {
    free(descr);
    return ok();
}

trnsparseStatus_t trnsparseSpSM_bufferSize(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                           trnsparseOperation_t opB, const void *alpha,
                                           trnsparseConstSpMatDescr_t matA,
                                           trnsparseConstDnMatDescr_t matB,
                                           trnsparseDnMatDescr_t matC, trnsciDataType computeType,
                                           trnsparseSpSMAlg_t alg, trnsparseSpSMDescr_t spsmDescr,
                                           size_t *bufferSize) {
    (void)opA, (void)opB, (void)alpha, (void)matA, (void)matB, (void)matC, (void)computeType;
    (void)alg, (void)spsmDescr;
    return trn_sparse_no_buffer(handle, "spsm", bufferSize);
}

trnsparseStatus_t trnsparseSpSM_analysis(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                         trnsparseOperation_t opB, const void *alpha,
                                         trnsparseConstSpMatDescr_t matA,
                                         trnsparseConstDnMatDescr_t matB,
                                         trnsparseDnMatDescr_t matC, trnsciDataType computeType,
                                         trnsparseSpSMAlg_t alg, trnsparseSpSMDescr_t spsmDescr,
                                         void *externalBuffer) {
    (void)externalBuffer;
    return spsv_op(handle, "spsm analysis", 1, opA, opB, alpha, matA, NULL, NULL, matB, matC,
                   computeType, (unsigned)alg, spsmDescr ? &spsmDescr->r : NULL);
}

trnsparseStatus_t trnsparseSpSM_solve(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                      trnsparseOperation_t opB, const void *alpha,
                                      trnsparseConstSpMatDescr_t matA,
                                      trnsparseConstDnMatDescr_t matB, trnsparseDnMatDescr_t matC,
                                      trnsciDataType computeType, trnsparseSpSMAlg_t alg,
                                      trnsparseSpSMDescr_t spsmDescr) {
    return spsv_op(handle, "spsm solve", 0, opA, opB, alpha, matA, NULL, NULL, matB, matC,
                   computeType, (unsigned)alg, spsmDescr ? &spsmDescr->r : NULL);
}
