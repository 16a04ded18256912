/*
 * blas_trsm_batched.c — trnblas<t>trsmBatched: batchCount independent
 * triangular solves with several right-hand sides, op(A_i) X_i = alpha B_i
 * or X_i op(A_i) = alpha B_i, in place in B_i.
 *
 * The batch travels as BlasLuBatchedOp LU_TRSM (protocol 1.14): one op per
 * TRNSCI_WIRE_MAX_POINTER_BATCH matrices, each solved by the daemon in one
 * kernel call with the batch split over cores by whole matrices
 * (kernels/cpu/blas_trsm_batched.c). Every op is checked by the validator
 * before the first is queued (a single op as it is submitted): an invalid
 * entry fails the call with nothing done, naming the entry. A daemon older
 * than 1.14, and matrices large enough for trsm to cut B into several tiles
 * (trn_blas3_tile_width: from 1024 columns, or rows from the right), get
 * the batch as one Blas3Op TRSM per matrix, in batch order, with the same
 * rules. The device arrays A and B are read when the routine is called,
 * after the stream's earlier work, as gemmBatched's are (docs/rosetta.md).
 */
#include <stdio.h>
#include <stdlib.h>

#include "client/blas_internal.h"
#include "client/validate.h"
#include "ops/blas.h"

typedef struct trsmb_args {
    Trnsci__V1__DataType type;
    int side, uplo, trans, diag, m, n;
    double a_re, a_im;
    const void *alpha_dev; /* device pointer mode, else NULL */
    const void *aarr, *barr;
    int lda, ldb, batch;
} trsmb_args;

#define NAME "trsmBatched"

/* Protocol 1.14: the batch as LU_TRSM ops of at most
 * TRNSCI_WIRE_MAX_POINTER_BATCH matrices; all validated, then all queued. */
static trnsciError_t run_ops(trn_client *c, trnblasHandle_t handle, const trsmb_args *g,
                             Trnsci__V1__BufferRef **rp, Trnsci__V1__BufferRef *ap) {
    const size_t nb = (size_t)g->batch, per = TRNSCI_WIRE_MAX_POINTER_BATCH;
    Trnsci__V1__Scalar alpha = trn_blas_scalar(g->a_re, g->a_im);
    Trnsci__V1__BlasLuBatchedOp l = TRNSCI__V1__BLAS_LU_BATCHED_OP__INIT;
    l.function = TRNSCI__V1__BLAS_LU_FUNCTION__LU_TRSM;
    l.type = g->type;
    l.side = (Trnsci__V1__SideMode)g->side;
    l.uplo = (Trnsci__V1__FillMode)g->uplo;
    l.trans = (Trnsci__V1__Operation)g->trans;
    l.diag = (Trnsci__V1__DiagType)g->diag;
    l.m = g->m;
    l.n = g->n;
    l.lda = g->lda;
    l.ldc = g->ldb;
    l.alpha = &alpha;
    l.alpha_ptr = ap;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_LU_BATCHED;
    op.lu_batched = &l;
    trnsciError_t e = trnsciSuccess;
    /* trn_client_submit validates before sending; a batch of several ops is
     * validated whole first, so that a bad entry in a later op queues
     * nothing. */
    for (size_t pass = nb > per ? 0 : 1; pass < 2 && e == trnsciSuccess; pass++)
        for (size_t lo = 0; lo < nb && e == trnsciSuccess; lo += per) {
            const size_t cnt = nb - lo < per ? nb - lo : per;
            l.n_a = l.n_c = cnt;
            l.a = rp + lo;
            l.c = rp + nb + lo;
            if (pass == 1) {
                e = trn_client_submit(c, handle->stream, &op);
                continue;
            }
            char msg[256];
            const trn_wire_code rc = trn_client_validate(c, &op, msg, sizeof(msg));
            if (rc != TRN_WIRE_OK)
                e = lo ? trn_fail(trn_error_from_wire(rc), "%s (matrices from %zu)", msg, lo)
                       : trn_fail(trn_error_from_wire(rc), "%s", msg);
        }
    return e;
}

static trnsciError_t run_batch(trn_client *c, trnblasHandle_t handle, const trsmb_args *g) {
    const size_t nb = (size_t)g->batch;
    Trnsci__V1__BufferRef ap = TRNSCI__V1__BUFFER_REF__INIT;
    const trn_blas_operand sops[] = {{g->alpha_dev, "alpha", &ap}};
    trnsciError_t e = trn_blas_resolve(c, NAME, sops, 1);
    if (e)
        return e;
    void **ptrs = malloc(2 * nb * sizeof(void *));
    Trnsci__V1__BufferRef *refs = malloc(2 * nb * sizeof(*refs));
    Trnsci__V1__BufferRef **rp = malloc(2 * nb * sizeof(*rp));
    if (!ptrs || !refs || !rp) {
        e = trn_fail(trnsciErrorMemoryAllocation, NAME ": out of memory for %zu matrices", nb);
        goto out;
    }
    e = trn_blas_resolve_array(c, handle->stream, g->aarr, nb, NAME, "A", ptrs, refs, rp);
    if (e == trnsciSuccess)
        e = trn_blas_resolve_array(c, handle->stream, g->barr, nb, NAME, "B", ptrs + nb, refs + nb,
                                   rp + nb);
    if (e != trnsciSuccess)
        goto out;
    /* Matrices whose solve trsm splits into column (row) tiles over cores
     * keep one trsm op each: one kernel call per matrix would use one core. */
    const int extent = g->side == TRNBLAS_SIDE_RIGHT ? g->m : g->n;
    const int tiled = extent > 0 && trn_blas3_tile_width(extent) < extent;
    if (c->protocol_minor >= 14 && !tiled) {
        e = run_ops(c, handle, g, rp, &ap);
        goto out;
    }
    Trnsci__V1__Scalar alpha = trn_blas_scalar(g->a_re, g->a_im);
    Trnsci__V1__BufferRef none_c = TRNSCI__V1__BUFFER_REF__INIT,
                          none_x = TRNSCI__V1__BUFFER_REF__INIT,
                          none_bp = TRNSCI__V1__BUFFER_REF__INIT;
    Trnsci__V1__Scalar beta = trn_blas_scalar(0, 0);
    Trnsci__V1__Blas3Op b = TRNSCI__V1__BLAS3_OP__INIT;
    b.function = TRNSCI__V1__BLAS3_FUNCTION__BLAS3_TRSM;
    b.type = g->type;
    b.side = (Trnsci__V1__SideMode)g->side;
    b.uplo = (Trnsci__V1__FillMode)g->uplo;
    b.transa = (Trnsci__V1__Operation)g->trans;
    b.diag = (Trnsci__V1__DiagType)g->diag;
    b.m = g->m;
    b.n = g->n;
    b.alpha = &alpha;
    b.beta = &beta;
    b.lda = g->lda;
    b.ldb = g->ldb;
    b.c = &none_c;
    b.x = &none_x;
    b.alpha_ptr = &ap;
    b.beta_ptr = &none_bp;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_BLAS3;
    op.blas3 = &b;
    /* Every entry checked before the first is queued. */
    for (size_t pass = 0; pass < 2 && e == trnsciSuccess; pass++)
        for (size_t i = 0; i < nb && e == trnsciSuccess; i++) {
            b.a = &refs[i];
            b.b = &refs[nb + i];
            if (pass == 1) {
                e = trn_client_submit(c, handle->stream, &op);
                continue;
            }
            char msg[256];
            const trn_wire_code rc = trn_client_validate(c, &op, msg, sizeof(msg));
            if (rc != TRN_WIRE_OK)
                e = trn_fail(trn_error_from_wire(rc), NAME ": matrix %zu: %s", i, msg);
        }
out:
    free(ptrs);
    free(refs);
    free(rp);
    return e;
}

static trnblasStatus_t trsmb_submit(trnblasHandle_t handle, const trsmb_args *g) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (g->batch < 0)
        return trn_blas_status(
            trn_fail(trnsciErrorInvalidValue, NAME ": batchCount=%d is negative", g->batch));
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (g->batch > 0 && (!g->aarr || !g->barr))
        e = trn_fail(trnsciErrorInvalidValue, NAME ": A or B (a pointer array) is NULL");
    else if (g->batch > 0)
        e = run_batch(c, handle, g);
    if (e == trnsciSuccess)
        trn_ok();
    return trn_blas_status(e);
}

#define TRSMB(T, TY, DT)                                                                           \
    trnblasStatus_t trnblas##T##trsmBatched(                                                       \
        trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,                    \
        trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n, const TY *alpha,           \
        const TY *const A[], int lda, TY *const B[], int ldb, int batchCount) {                    \
        SCALARS(NAME, alpha, alpha);                                                               \
        const trsmb_args g = {.type = DT,                                                          \
                              .side = side,                                                        \
                              .uplo = uplo,                                                        \
                              .trans = trans,                                                      \
                              .diag = diag,                                                        \
                              .m = m,                                                              \
                              .n = n,                                                              \
                              .a_re = DEV ? 0 : RE_##T(alpha),                                     \
                              .a_im = DEV ? 0 : IM_##T(alpha),                                     \
                              .alpha_dev = DEV ? (const void *)alpha : NULL,                       \
                              .aarr = A,                                                           \
                              .barr = B,                                                           \
                              .lda = lda,                                                          \
                              .ldb = ldb,                                                          \
                              .batch = batchCount};                                                \
        return trsmb_submit(handle, &g);                                                           \
    }
TRSMB(S, float, R32)
TRSMB(D, double, R64)
TRSMB(C, trnComplex, C32)
TRSMB(Z, trnDoubleComplex, C64)
