/*
 * sparse_spgemm.c — trnsparse SpGEMM (workEstimation / compute / copy) and
 * SDDMM. SpGEMM keeps cuSPARSE's phases: _compute sends the count pass
 * (C's row counts into the caller's externalBuffer2) and reads C's nnz back
 * from its last entry; _copy sends the fill pass, which reads the counts
 * again (the daemon checks them against the product). Complex values
 * (C_32F, C_64F; scalars cuComplex / cuDoubleComplex) need a 1.15 daemon.
 */
#include <stdlib.h>
#include <string.h>

#include "client/sparse_complex.h"
#include "client/sparse_internal.h"

trnsparseStatus_t trnsparseSpGEMM_createDescr(trnsparseSpGEMMDescr_t *descr) {
    if (!descr)
        return trn_sparse_fail(trnsciErrorInvalidValue, "trnsparseSpGEMM_createDescr: descr is "
                                                        "NULL");
    trnsparseSpGEMMDescr_t d = calloc(1, sizeof(*d));
    if (!d)
        return trn_sparse_fail(trnsciErrorMemoryAllocation, "trnsparseSpGEMM_createDescr: out "
                                                            "of memory");
    *descr = d;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseSpGEMM_destroyDescr(trnsparseSpGEMMDescr_t descr) {
    free(descr);
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

/* The checks of every phase; the client on success. */
static trn_client *spgemm_begin(trnsparseHandle_t handle, const char *fn, const void *alpha,
                                const void *beta, trnsparseConstSpMatDescr_t a,
                                trnsparseConstSpMatDescr_t b, trnsparseConstSpMatDescr_t c,
                                trnsparseSpGEMMDescr_t d, trnsparseStatus_t *st) {
    trn_client *cl = trn_sparse_begin(handle, st);
    if (!cl)
        return NULL;
    if (!alpha || !beta || !a || !b || !c || !d) {
        *st = trn_sparse_fail(trnsciErrorInvalidValue,
                              "%s: alpha, beta, a matrix or the SpGEMM descriptor is NULL", fn);
        return NULL;
    }
    return cl;
}

trnsparseStatus_t
trn_sparse_spgemm_pass(trn_client *c, trnsparseHandle_t handle, const char *fn, int fill,
                       trnsparseOperation_t opA, trnsparseOperation_t opB, const void *alpha,
                       trnsparseConstSpMatDescr_t matA, trnsparseConstSpMatDescr_t matB,
                       const void *beta, trnsparseConstSpMatDescr_t matC,
                       trnsciDataType computeType, trnsparseSpGEMMAlg_t alg, void *counts) {
    Trnsci__V1__SpGEMMOp w = TRNSCI__V1__SP_GEMMOP__INIT;
    trn_wire_spmat a, b, cm;
    Trnsci__V1__BufferRef cref;
    trnsciError_t e = trn_sparse_wire_type(computeType, fn, "computeType", &w.compute_type);
    if (e == trnsciSuccess)
        e = trn_sparse_complex_minor(c, computeType, fn);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_spmat(c, matA, fn, "matA", &a);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_spmat(c, matB, fn, "matB", &b);
    if (e == trnsciSuccess && fill)
        e = trn_sparse_wire_spmat(c, matC, fn, "matC", &cm);
    if (e == trnsciSuccess)
        e = trn_client_resolve(c, counts, "spgemm: externalBuffer2", &cref);
    if (e != trnsciSuccess)
        return trn_sparse_status(e);
    Trnsci__V1__Scalar al, be;
    trn_sparse_scalar_of(alpha, computeType, &al);
    trn_sparse_scalar_of(beta, computeType, &be);
    w.phase = fill ? TRNSCI__V1__SP_GEMMPHASE__SPGEMM_FILL : TRNSCI__V1__SP_GEMMPHASE__SPGEMM_COUNT;
    w.op_a = (Trnsci__V1__Operation)opA;
    w.op_b = (Trnsci__V1__Operation)opB;
    w.alpha = &al;
    w.beta = &be;
    w.a = &a.m;
    w.b = &b.m;
    w.c = fill ? &cm.m : NULL;
    w.alg = (uint32_t)alg;
    w.row_counts = &cref;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_SPGEMM;
    op.spgemm = &w;
    return trn_sparse_submit(c, handle, &op);
}

trnsparseStatus_t trnsparseSpGEMM_workEstimation(
    trnsparseHandle_t handle, trnsparseOperation_t opA, trnsparseOperation_t opB, const void *alpha,
    trnsparseConstSpMatDescr_t matA, trnsparseConstSpMatDescr_t matB, const void *beta,
    trnsparseSpMatDescr_t matC, trnsciDataType computeType, trnsparseSpGEMMAlg_t alg,
    trnsparseSpGEMMDescr_t spgemmDescr, size_t *bufferSize1, void *externalBuffer1) {
    (void)opA, (void)opB, (void)computeType, (void)alg, (void)externalBuffer1;
    trnsparseStatus_t st;
    if (!spgemm_begin(handle, "spgemm workEstimation", alpha, beta, matA, matB, matC, spgemmDescr,
                      &st))
        return st;
    if (!bufferSize1)
        return trn_sparse_fail(trnsciErrorInvalidValue, "spgemm workEstimation: bufferSize1 is "
                                                        "NULL");
    *bufferSize1 = 0;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseSpGEMM_compute(
    trnsparseHandle_t handle, trnsparseOperation_t opA, trnsparseOperation_t opB, const void *alpha,
    trnsparseConstSpMatDescr_t matA, trnsparseConstSpMatDescr_t matB, const void *beta,
    trnsparseSpMatDescr_t matC, trnsciDataType computeType, trnsparseSpGEMMAlg_t alg,
    trnsparseSpGEMMDescr_t spgemmDescr, size_t *bufferSize2, void *externalBuffer2) {
    const char *fn = "spgemm compute";
    trnsparseStatus_t st;
    trn_client *c = spgemm_begin(handle, fn, alpha, beta, matA, matB, matC, spgemmDescr, &st);
    if (!c)
        return st;
    if (!bufferSize2)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: bufferSize2 is NULL", fn);
    if (matA->rows < 0 || matA->rows > INT64_MAX / 8 - 1)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: matA has %lld rows", fn,
                               (long long)matA->rows);
    if (!externalBuffer2) {
        *bufferSize2 = (size_t)(matA->rows + 1) * 8;
        trn_ok();
        return TRNSPARSE_STATUS_SUCCESS;
    }
    st = trn_sparse_spgemm_pass(c, handle, fn, 0, opA, opB, alpha, matA, matB, beta, NULL,
                                computeType, alg, externalBuffer2);
    if (st != TRNSPARSE_STATUS_SUCCESS)
        return st;
    int64_t nnz = 0;
    const trnsciError_t e = trnsciMemcpy(&nnz, (const char *)externalBuffer2 + matA->rows * 8, 8,
                                         trnsciMemcpyDeviceToHost);
    if (e != trnsciSuccess)
        return trn_sparse_status(e);
    matC->nnz = nnz;
    spgemmDescr->counts = externalBuffer2;
    spgemmDescr->rows = matA->rows;
    spgemmDescr->session = c->generation;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseSpGEMM_copy(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                       trnsparseOperation_t opB, const void *alpha,
                                       trnsparseConstSpMatDescr_t matA,
                                       trnsparseConstSpMatDescr_t matB, const void *beta,
                                       trnsparseSpMatDescr_t matC, trnsciDataType computeType,
                                       trnsparseSpGEMMAlg_t alg,
                                       trnsparseSpGEMMDescr_t spgemmDescr) {
    const char *fn = "spgemm copy";
    trnsparseStatus_t st;
    trn_client *c = spgemm_begin(handle, fn, alpha, beta, matA, matB, matC, spgemmDescr, &st);
    if (!c)
        return st;
    if (!spgemmDescr->counts || spgemmDescr->session != c->generation ||
        spgemmDescr->rows != matA->rows)
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: call trnsparseSpGEMM_compute with an externalBuffer2 for "
                               "this matA first",
                               fn);
    return trn_sparse_spgemm_pass(c, handle, fn, 1, opA, opB, alpha, matA, matB, beta, matC,
                                  computeType, alg, spgemmDescr->counts);
}

/* ---- SDDMM ------------------------------------------------------------------------------- */

trnsparseStatus_t trnsparseSDDMM_bufferSize(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                            trnsparseOperation_t opB, const void *alpha,
                                            trnsparseConstDnMatDescr_t matA,
                                            trnsparseConstDnMatDescr_t matB, const void *beta,
                                            trnsparseSpMatDescr_t matC, trnsciDataType computeType,
                                            trnsparseSDDMMAlg_t alg, size_t *bufferSize) {
    (void)opA, (void)opB, (void)alpha, (void)matA, (void)matB, (void)beta, (void)matC;
    (void)computeType, (void)alg;
    return trn_sparse_no_buffer(handle, "sddmm", bufferSize);
}

trnsparseStatus_t trnsparseSDDMM_preprocess(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                            trnsparseOperation_t opB, const void *alpha,
                                            trnsparseConstDnMatDescr_t matA,
                                            trnsparseConstDnMatDescr_t matB, const void *beta,
                                            trnsparseSpMatDescr_t matC, trnsciDataType computeType,
                                            trnsparseSDDMMAlg_t alg, void *externalBuffer) {
    size_t unused;
    (void)externalBuffer;
    return trnsparseSDDMM_bufferSize(handle, opA, opB, alpha, matA, matB, beta, matC, computeType,
                                     alg, &unused);
}

trnsparseStatus_t trnsparseSDDMM(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                 trnsparseOperation_t opB, const void *alpha,
                                 trnsparseConstDnMatDescr_t matA, trnsparseConstDnMatDescr_t matB,
                                 const void *beta, trnsparseSpMatDescr_t matC,
                                 trnsciDataType computeType, trnsparseSDDMMAlg_t alg,
                                 void *externalBuffer) {
    (void)externalBuffer;
    const char *fn = "sddmm";
    trnsparseStatus_t st;
    trn_client *c = trn_sparse_begin(handle, &st);
    if (!c)
        return st;
    if (!alpha || !beta)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: alpha or beta is NULL", fn);
    Trnsci__V1__SDDMMOp w = TRNSCI__V1__SDDMMOP__INIT;
    trn_wire_dnmat a, b;
    trn_wire_spmat cm;
    trnsciError_t e = trn_sparse_wire_type(computeType, fn, "computeType", &w.compute_type);
    if (e == trnsciSuccess)
        e = trn_sparse_complex_minor(c, computeType, fn);
    if (e == trnsciSuccess && matC && matC->format == TRNSPARSE_FORMAT_BSR)
        e = trn_client_need_minor(c, TRN_SPARSE_COMPLEX_MINOR, fn); /* BSR C: 1.15 too */
    if (e == trnsciSuccess)
        e = trn_sparse_wire_dnmat(c, matA, fn, "matA", &a);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_dnmat(c, matB, fn, "matB", &b);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_spmat(c, matC, fn, "matC", &cm);
    if (e != trnsciSuccess)
        return trn_sparse_status(e);
    Trnsci__V1__Scalar al, be;
    trn_sparse_scalar_of(alpha, computeType, &al);
    trn_sparse_scalar_of(beta, computeType, &be);
    w.op_a = (Trnsci__V1__Operation)opA;
    w.op_b = (Trnsci__V1__Operation)opB;
    w.alpha = &al;
    w.beta = &be;
    w.a = &a.m;
    w.b = &b.m;
    w.c = &cm.m;
    w.alg = (uint32_t)alg;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_SDDMM;
    op.sddmm = &w;
    return trn_sparse_submit(c, handle, &op);
}
