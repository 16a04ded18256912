/*
 * sparse_spgemm_reuse.c — trnsparse SpGEMMreuse (workEstimation / nnz /
 * copy / compute): C = alpha op(A) op(B) for a C whose structure is found
 * once and whose values are recomputed by every _compute, on the same two
 * passes as SpGEMM (sparse_spgemm.c).
 *
 *   _workEstimation  nothing to do: bufferSize1 is 0;
 *   _nnz             the count pass: C's row offsets (int64) into
 *                    externalBuffer4, which must live until the last
 *                    _compute; C's nnz read back into matC. A call with
 *                    externalBuffer4 NULL is the size query (bufferSize2
 *                    and 3 are 0, bufferSize4 (rows + 1) * 8);
 *   _copy            the fill pass (structure and the product's values)
 *                    into matC's arrays; externalBuffer5 NULL is the size
 *                    query, which asks for 8 bytes so that the caller's
 *                    allocation tells the second call from it;
 *   _compute         the fill pass again with alpha and beta: C's offsets
 *                    and indices are rewritten with the same values.
 * The daemon checks the counts against the product at every fill, so
 * structure that changed since _nnz fails the op instead of writing past
 * C's arrays.
 */
#include <stdint.h>

#include "client/sparse_internal.h"

static trn_client *reuse_begin(trnsparseHandle_t handle, const char *fn,
                               trnsparseConstSpMatDescr_t a, trnsparseConstSpMatDescr_t b,
                               trnsparseConstSpMatDescr_t c, trnsparseSpGEMMDescr_t d,
                               trnsparseStatus_t *st) {
    trn_client *cl = trn_sparse_begin(handle, st);
    if (!cl)
        return NULL;
    if (!a || !b || !c || !d) {
        *st = trn_sparse_fail(trnsciErrorInvalidValue,
                              "%s: a matrix or the SpGEMM descriptor is NULL", fn);
        return NULL;
    }
    return cl;
}

/* The counts of an earlier _nnz for this matA in this session. */
static int have_counts(const trn_client *c, trnsparseConstSpMatDescr_t a,
                       trnsparseSpGEMMDescr_t d) {
    return d->counts && d->session == c->generation && d->rows == a->rows;
}

trnsparseStatus_t
trnsparseSpGEMMreuse_workEstimation(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                    trnsparseOperation_t opB, trnsparseConstSpMatDescr_t matA,
                                    trnsparseConstSpMatDescr_t matB, trnsparseSpMatDescr_t matC,
                                    trnsparseSpGEMMAlg_t alg, trnsparseSpGEMMDescr_t spgemmDescr,
                                    size_t *bufferSize1, void *externalBuffer1) {
    (void)opA, (void)opB, (void)alg, (void)externalBuffer1;
    const char *fn = "spgemm reuse workEstimation";
    trnsparseStatus_t st;
    if (!reuse_begin(handle, fn, matA, matB, matC, spgemmDescr, &st))
        return st;
    if (!bufferSize1)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: bufferSize1 is NULL", fn);
    *bufferSize1 = 0;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t
trnsparseSpGEMMreuse_nnz(trnsparseHandle_t handle, trnsparseOperation_t opA,
                         trnsparseOperation_t opB, trnsparseConstSpMatDescr_t matA,
                         trnsparseConstSpMatDescr_t matB, trnsparseSpMatDescr_t matC,
                         trnsparseSpGEMMAlg_t alg, trnsparseSpGEMMDescr_t spgemmDescr,
                         size_t *bufferSize2, void *externalBuffer2, size_t *bufferSize3,
                         void *externalBuffer3, size_t *bufferSize4, void *externalBuffer4) {
    (void)externalBuffer2, (void)externalBuffer3;
    const char *fn = "spgemm reuse nnz";
    trnsparseStatus_t st;
    trn_client *c = reuse_begin(handle, fn, matA, matB, matC, spgemmDescr, &st);
    if (!c)
        return st;
    if (!bufferSize2 || !bufferSize3 || !bufferSize4)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: a bufferSize pointer is NULL", fn);
    if (matA->rows < 0 || matA->rows > INT64_MAX / 8 - 1)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: matA has %lld rows", fn,
                               (long long)matA->rows);
    if (!externalBuffer4) {
        *bufferSize2 = 0;
        *bufferSize3 = 0;
        *bufferSize4 = (size_t)(matA->rows + 1) * 8;
        trn_ok();
        return TRNSPARSE_STATUS_SUCCESS;
    }
    /* The count pass reads no values: unit scalars of A's type (real or
     * complex: the same bytes, re then im). */
    const float one_f[2] = {1.0f, 0.0f}, zero_f[2] = {0.0f, 0.0f};
    const double one_d[2] = {1.0, 0.0}, zero_d[2] = {0.0, 0.0};
    const int f32 = matA->valueType == TRNSCI_R_32F || matA->valueType == TRNSCI_C_32F;
    st = trn_sparse_spgemm_pass(c, handle, fn, 0, opA, opB, f32 ? (const void *)one_f : one_d, matA,
                                matB, f32 ? (const void *)zero_f : zero_d, NULL, matA->valueType,
                                alg, externalBuffer4);
    if (st != TRNSPARSE_STATUS_SUCCESS)
        return st;
    int64_t nnz = 0;
    const trnsciError_t e = trnsciMemcpy(&nnz, (const char *)externalBuffer4 + matA->rows * 8, 8,
                                         trnsciMemcpyDeviceToHost);
    if (e != trnsciSuccess)
        return trn_sparse_status(e);
    matC->nnz = nnz;
    spgemmDescr->counts = externalBuffer4;
    spgemmDescr->rows = matA->rows;
    spgemmDescr->session = c->generation;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseSpGEMMreuse_copy(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                            trnsparseOperation_t opB,
                                            trnsparseConstSpMatDescr_t matA,
                                            trnsparseConstSpMatDescr_t matB,
                                            trnsparseSpMatDescr_t matC, trnsparseSpGEMMAlg_t alg,
                                            trnsparseSpGEMMDescr_t spgemmDescr, size_t *bufferSize5,
                                            void *externalBuffer5) {
    const char *fn = "spgemm reuse copy";
    trnsparseStatus_t st;
    trn_client *c = reuse_begin(handle, fn, matA, matB, matC, spgemmDescr, &st);
    if (!c)
        return st;
    if (!bufferSize5)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: bufferSize5 is NULL", fn);
    if (!externalBuffer5) {
        *bufferSize5 = 8;
        trn_ok();
        return TRNSPARSE_STATUS_SUCCESS;
    }
    if (!have_counts(c, matA, spgemmDescr))
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: call trnsparseSpGEMMreuse_nnz with an externalBuffer4 for "
                               "this matA first",
                               fn);
    const float one_f[2] = {1.0f, 0.0f}, zero_f[2] = {0.0f, 0.0f};
    const double one_d[2] = {1.0, 0.0}, zero_d[2] = {0.0, 0.0};
    const int f32 = matA->valueType == TRNSCI_R_32F || matA->valueType == TRNSCI_C_32F;
    return trn_sparse_spgemm_pass(c, handle, fn, 1, opA, opB, f32 ? (const void *)one_f : one_d,
                                  matA, matB, f32 ? (const void *)zero_f : zero_d, matC,
                                  matA->valueType, alg, spgemmDescr->counts);
}

trnsparseStatus_t trnsparseSpGEMMreuse_compute(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                               trnsparseOperation_t opB, const void *alpha,
                                               trnsparseConstSpMatDescr_t matA,
                                               trnsparseConstSpMatDescr_t matB, const void *beta,
                                               trnsparseSpMatDescr_t matC,
                                               trnsciDataType computeType, trnsparseSpGEMMAlg_t alg,
                                               trnsparseSpGEMMDescr_t spgemmDescr) {
    const char *fn = "spgemm reuse compute";
    trnsparseStatus_t st;
    trn_client *c = reuse_begin(handle, fn, matA, matB, matC, spgemmDescr, &st);
    if (!c)
        return st;
    if (!alpha || !beta)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: alpha or beta is NULL", fn);
    if (!have_counts(c, matA, spgemmDescr))
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: call trnsparseSpGEMMreuse_nnz with an externalBuffer4 for "
                               "this matA first",
                               fn);
    return trn_sparse_spgemm_pass(c, handle, fn, 1, opA, opB, alpha, matA, matB, beta, matC,
                                  computeType, alg, spgemmDescr->counts);
}
