/*
 * sparse_ext.c — trnsparse's trnsci extensions (no cuSPARSE counterpart):
 * block-sparse attention, Schwarz bounds and the screened SpMM. Each is
 * one op, asynchronous like the cuSPARSE routines.
 */
#include "client/sparse_internal.h"

trnsparseStatus_t
trnsparseBlockSparseAttention(trnsparseHandle_t handle, const void *scale,
                              trnsparseConstDnMatDescr_t matQ, trnsparseConstDnMatDescr_t matK,
                              trnsparseConstDnMatDescr_t matV, trnsparseConstSpMatDescr_t pattern,
                              trnsparseDnMatDescr_t matO, trnsciDataType computeType) {
    const char *fn = "block-sparse attention";
    trnsparseStatus_t st;
    trn_client *c = trn_sparse_begin(handle, &st);
    if (!c)
        return st;
    if (!scale)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: scale is NULL", fn);
    Trnsci__V1__BlockSparseAttentionOp w = TRNSCI__V1__BLOCK_SPARSE_ATTENTION_OP__INIT;
    trn_wire_dnmat q, k, v, o;
    trn_wire_spmat p;
    trnsciError_t e = trn_sparse_wire_type(computeType, fn, "computeType", &w.compute_type);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_dnmat(c, matQ, fn, "matQ", &q);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_dnmat(c, matK, fn, "matK", &k);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_dnmat(c, matV, fn, "matV", &v);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_spmat(c, pattern, fn, "pattern", &p);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_dnmat(c, matO, fn, "matO", &o);
    if (e != trnsciSuccess)
        return trn_sparse_status(e);
    Trnsci__V1__Scalar sc = TRNSCI__V1__SCALAR__INIT;
    sc.re = trn_sparse_scalar(scale, computeType);
    w.scale = &sc;
    w.q = &q.m;
    w.k = &k.m;
    w.v = &v.m;
    w.pattern = &p.m;
    w.o = &o.m;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_SPARSE_ATTENTION;
    op.sparse_attention = &w;
    return trn_sparse_submit(c, handle, &op);
}

trnsparseStatus_t trnsparseSchwarzBounds(trnsparseHandle_t handle, trnsparseConstDnVecDescr_t diag,
                                         int64_t blockSize, trnsparseDnVecDescr_t bounds) {
    const char *fn = "schwarz bounds";
    trnsparseStatus_t st;
    trn_client *c = trn_sparse_begin(handle, &st);
    if (!c)
        return st;
    Trnsci__V1__SchwarzBoundsOp w = TRNSCI__V1__SCHWARZ_BOUNDS_OP__INIT;
    trn_wire_dnvec d, b;
    trnsciError_t e = trn_sparse_wire_dnvec(c, diag, fn, "diag", &d);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_dnvec(c, bounds, fn, "bounds", &b);
    if (e != trnsciSuccess)
        return trn_sparse_status(e);
    w.diag = &d.v;
    w.block_size = blockSize;
    w.bounds = &b.v;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_SCHWARZ_BOUNDS;
    op.schwarz_bounds = &w;
    return trn_sparse_submit(c, handle, &op);
}

trnsparseStatus_t
trnsparseSpMMScreened(trnsparseHandle_t handle, trnsparseOperation_t opA, trnsparseOperation_t opB,
                      const void *alpha, trnsparseConstSpMatDescr_t matA,
                      trnsparseConstDnMatDescr_t matB, const void *beta, trnsparseDnMatDescr_t matC,
                      trnsparseConstDnVecDescr_t rowBounds, trnsparseConstDnVecDescr_t colBounds,
                      double threshold, trnsciDataType computeType, trnsparseSpMMAlg_t alg,
                      void *externalBuffer) {
    (void)externalBuffer;
    if (!rowBounds || !colBounds)
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "spmm (screened): rowBounds and colBounds must both be given");
    return trn_sparse_spmm(handle, "spmm (screened)", opA, opB, alpha, matA, matB, beta, matC,
                           rowBounds, colBounds, threshold, computeType, alg);
}
