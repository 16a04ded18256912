/*
 * blas_lu.c — trnblas's batched LU and QR: <t>getrfBatched,
 * <t>getrsBatched, <t>getriBatched, <t>matinvBatched, <t>geqrfBatched,
 * <t>gelsBatched. Each call becomes BlasLuBatchedOps
 * (one per TRNSCI_WIRE_MAX_POINTER_BATCH matrices, queued in order on the
 * handle's stream); the rules are the validator's (ops/validate/blas_lu.c),
 * which runs here before anything is sent and again in the daemon.
 *
 * What is decided here: the device pointers the arrays hold (read when the
 * routine is called, after the handle's stream's earlier work, as for
 * gemmBatched), and the host info of getrsBatched, geqrfBatched and
 * gelsBatched, which cuBLAS sets from its argument checks alone: -j for the
 * first invalid argument j counting from the one after the handle
 * (LAPACK's numbering), else 0.
 */
#include <stdio.h>
#include <stdlib.h>

#include "client/blas_internal.h"
#include "client/validate.h"

#define LU(f) TRNSCI__V1__BLAS_LU_FUNCTION__LU_##f

/* One call: the op's scalar fields are set; the arrays are the caller's. */
typedef struct lu_call {
    const char *name; /* "getrfBatched", ... for messages */
    Trnsci__V1__BlasLuBatchedOp op;
    const void *a_arr, *c_arr; /* device arrays of device pointers; c_arr NULL for getrf */
    const void *tau_arr;       /* geqrf's TauArray, else NULL */
    const int *pivots, *info;  /* device arrays, or NULL */
    int batch;
} lu_call;

/* Queues the ops for matrices [i0, i0 + len) of the resolved lists. */
static trnsciError_t submit_chunk(trn_client *c, trnblasHandle_t handle, lu_call *l,
                                  Trnsci__V1__BufferRef **a, Trnsci__V1__BufferRef **cm,
                                  Trnsci__V1__BufferRef **tau, size_t i0, size_t len) {
    Trnsci__V1__BlasLuBatchedOp *op = &l->op;
    Trnsci__V1__BufferRef piv = TRNSCI__V1__BUFFER_REF__INIT, info = TRNSCI__V1__BUFFER_REF__INIT;
    char what[64];
    trnsciError_t e = trnsciSuccess;
    if (l->pivots) {
        snprintf(what, sizeof(what), "%s: PivotArray", l->name);
        e = trn_client_resolve(c, l->pivots + i0 * (size_t)op->n, what, &piv);
    }
    if (e == trnsciSuccess && l->info) {
        snprintf(what, sizeof(what), "%s: infoArray", l->name);
        e = trn_client_resolve(c, l->info + i0, what, &info);
    }
    if (e != trnsciSuccess)
        return e;
    op->pivots = l->pivots ? &piv : NULL;
    op->info = l->info ? &info : NULL;
    op->n_a = len;
    op->a = a + i0;
    op->n_c = cm ? len : 0;
    op->c = cm ? cm + i0 : NULL;
    op->n_tau = tau ? len : 0;
    op->tau = tau ? tau + i0 : NULL;
    Trnsci__V1__Op o = TRNSCI__V1__OP__INIT;
    o.kind_case = TRNSCI__V1__OP__KIND_LU_BATCHED;
    o.lu_batched = op;
    return trn_client_submit(c, handle->stream, &o);
}

/* An empty batch: nothing is sent, but its arguments get the validator's
 * verdict, as cuBLAS checks them before looking at the batch. */
static trnsciError_t check_empty(trn_client *c, lu_call *l) {
    char msg[256];
    Trnsci__V1__Op o = TRNSCI__V1__OP__INIT;
    o.kind_case = TRNSCI__V1__OP__KIND_LU_BATCHED;
    o.lu_batched = &l->op;
    const trn_wire_code rc = trn_client_validate(c, &o, msg, sizeof(msg));
    if (rc != TRN_WIRE_OK)
        return trn_fail(trn_error_from_wire(rc), "%s", msg);
    return trn_ok();
}

static trnblasStatus_t lu_submit(trnblasHandle_t handle, lu_call *l) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (l->batch < 0)
        return trn_blas_status(
            trn_fail(trnsciErrorInvalidValue, "%s: batchSize=%d is negative", l->name, l->batch));
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (l->batch == 0) /* nothing to compute, but the arguments are still checked */
        return trn_blas_status(check_empty(c, l));
    const int qr = l->op.function == LU(GEQRF) || l->op.function == LU(GELS);
    if ((e = trn_client_need_minor(c, qr ? 13 : 8, l->name)))
        return trn_blas_status(e);
    const size_t nb = (size_t)l->batch;
    const size_t lists = 1 + (l->c_arr ? 1 : 0) + (l->tau_arr ? 1 : 0);
    const size_t tau_at = l->c_arr ? 2 * nb : nb; /* where TauArray's entries go */
    void **ptrs = malloc(lists * nb * sizeof(void *));
    Trnsci__V1__BufferRef *refs = malloc(lists * nb * sizeof(*refs));
    Trnsci__V1__BufferRef **rp = malloc(lists * nb * sizeof(*rp));
    if (!ptrs || !refs || !rp) {
        e = trn_fail(trnsciErrorMemoryAllocation, "%s: out of memory for %zu matrices", l->name,
                     nb);
        goto out;
    }
    e = trn_blas_resolve_array(c, handle->stream, l->a_arr, nb, l->name, "Aarray", ptrs, refs, rp);
    if (e == trnsciSuccess && l->c_arr)
        e = trn_blas_resolve_array(c, handle->stream, l->c_arr, nb, l->name,
                                   l->op.function == LU(GETRS) ? "Barray" : "Carray", ptrs + nb,
                                   refs + nb, rp + nb);
    if (e == trnsciSuccess && l->tau_arr)
        e = trn_blas_resolve_array(c, handle->stream, l->tau_arr, nb, l->name, "TauArray",
                                   ptrs + tau_at, refs + tau_at, rp + tau_at);
    for (size_t i0 = 0; i0 < nb && e == trnsciSuccess; i0 += TRNSCI_WIRE_MAX_POINTER_BATCH) {
        const size_t len =
            nb - i0 < TRNSCI_WIRE_MAX_POINTER_BATCH ? nb - i0 : TRNSCI_WIRE_MAX_POINTER_BATCH;
        e = submit_chunk(c, handle, l, rp, l->c_arr ? rp + nb : NULL,
                         l->tau_arr ? rp + tau_at : NULL, i0, len);
    }
out:
    free(ptrs);
    free(refs);
    free(rp);
    if (e == trnsciSuccess)
        trn_ok();
    return trn_blas_status(e);
}

static lu_call lu_init(const char *name, Trnsci__V1__BlasLuFunction fn, Trnsci__V1__DataType t,
                       int n, const void *a_arr, int lda, int batch) {
    lu_call l = {.name = name, .a_arr = a_arr, .batch = batch};
    l.op = (Trnsci__V1__BlasLuBatchedOp)TRNSCI__V1__BLAS_LU_BATCHED_OP__INIT;
    l.op.function = fn;
    l.op.type = t;
    l.op.n = n;
    l.op.lda = lda;
    return l;
}

static trnblasStatus_t getrf(Trnsci__V1__DataType t, trnblasHandle_t handle, int n,
                             const void *a_arr, int lda, int *piv, int *info, int batch) {
    lu_call l = lu_init("getrfBatched", LU(GETRF), t, n, a_arr, lda, batch);
    l.pivots = piv;
    l.info = info;
    return lu_submit(handle, &l);
}

/* cuBLAS sets getrsBatched's host info from its argument checks: the first
 * invalid argument, counted from trans. The validator finds the same
 * arguments invalid (with its message) once the op is built. */
static int getrs_bad_argument(trnblasOperation_t trans, int n, int nrhs, int lda, int ldb,
                              int batch) {
    const int least = n > 1 ? n : 1;
    if (trans != TRNBLAS_OP_N && trans != TRNBLAS_OP_T && trans != TRNBLAS_OP_C)
        return 1;
    if (n < 0)
        return 2;
    if (nrhs < 0)
        return 3;
    if (lda < least)
        return 5;
    if (ldb < least)
        return 8;
    if (batch < 0)
        return 10;
    return 0;
}

static trnblasStatus_t getrs(Trnsci__V1__DataType t, trnblasHandle_t handle,
                             trnblasOperation_t trans, int n, int nrhs, const void *a_arr, int lda,
                             const int *piv, const void *b_arr, int ldb, int *info, int batch) {
    const int bad = getrs_bad_argument(trans, n, nrhs, lda, ldb, batch);
    if (info)
        *info = -bad;
    lu_call l = lu_init("getrsBatched", LU(GETRS), t, n, a_arr, lda, batch);
    l.op.trans = (Trnsci__V1__Operation)trans;
    l.op.nrhs = nrhs;
    l.op.ldc = ldb;
    l.c_arr = b_arr;
    l.pivots = piv;
    return lu_submit(handle, &l);
}

static trnblasStatus_t getri(Trnsci__V1__DataType t, trnblasHandle_t handle, int n,
                             const void *a_arr, int lda, const int *piv, const void *c_arr, int ldc,
                             int *info, int batch) {
    lu_call l = lu_init("getriBatched", LU(GETRI), t, n, a_arr, lda, batch);
    l.op.ldc = ldc;
    l.c_arr = c_arr;
    l.pivots = piv;
    l.info = info;
    return lu_submit(handle, &l);
}

static trnblasStatus_t matinv(Trnsci__V1__DataType t, trnblasHandle_t handle, int n,
                              const void *a_arr, int lda, const void *c_arr, int ldc, int *info,
                              int batch) {
    lu_call l = lu_init("matinvBatched", LU(MATINV), t, n, a_arr, lda, batch);
    l.op.ldc = ldc;
    l.c_arr = c_arr;
    l.info = info;
    return lu_submit(handle, &l);
}

/* geqrfBatched's host info: the first invalid argument counting from m. */
static int geqrf_bad_argument(int m, int n, int lda, int batch) {
    if (m < 0)
        return 1;
    if (n < 0)
        return 2;
    if (lda < (m > 1 ? m : 1))
        return 4;
    if (batch < 0)
        return 7;
    return 0;
}

static trnblasStatus_t geqrf(Trnsci__V1__DataType t, trnblasHandle_t handle, int m, int n,
                             const void *a_arr, int lda, const void *tau_arr, int *info,
                             int batch) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (!info)
        return trn_blas_status(
            trn_fail(trnsciErrorInvalidValue, "geqrfBatched: info (a host int) is NULL"));
    *info = -geqrf_bad_argument(m, n, lda, batch);
    lu_call l = lu_init("geqrfBatched", LU(GEQRF), t, n, a_arr, lda, batch);
    l.op.m = m;
    l.tau_arr = tau_arr;
    return lu_submit(handle, &l);
}

/* gelsBatched's host info: the first invalid argument counting from trans;
 * then, for what cuBLAS does not support (NOT_SUPPORTED), the argument
 * that asks for it: -1 for a trans other than OP_N, -2 for m < n. */
static int gels_bad_argument(trnblasOperation_t trans, int m, int n, int nrhs, int lda, int ldc,
                             int batch) {
    const int least = m > 1 ? m : 1;
    if (trans != TRNBLAS_OP_N && trans != TRNBLAS_OP_T && trans != TRNBLAS_OP_C)
        return 1;
    if (m < 0)
        return 2;
    if (n < 0)
        return 3;
    if (nrhs < 0)
        return 4;
    if (lda < least)
        return 6;
    if (ldc < least)
        return 8;
    if (batch < 0)
        return 11;
    if (trans != TRNBLAS_OP_N)
        return 1;
    if (m < n)
        return 2;
    return 0;
}

static trnblasStatus_t gels(Trnsci__V1__DataType t, trnblasHandle_t handle,
                            trnblasOperation_t trans, int m, int n, int nrhs, const void *a_arr,
                            int lda, const void *c_arr, int ldc, int *info, int *dev_info,
                            int batch) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (!info)
        return trn_blas_status(
            trn_fail(trnsciErrorInvalidValue, "gelsBatched: info (a host int) is NULL"));
    *info = -gels_bad_argument(trans, m, n, nrhs, lda, ldc, batch);
    lu_call l = lu_init("gelsBatched", LU(GELS), t, n, a_arr, lda, batch);
    l.op.m = m;
    l.op.trans = (Trnsci__V1__Operation)trans;
    l.op.nrhs = nrhs;
    l.op.ldc = ldc;
    l.c_arr = c_arr;
    l.info = dev_info;
    return lu_submit(handle, &l);
}

#define LU_ROUTINES(P, T, WT)                                                                      \
    trnblasStatus_t trnblas##P##getrfBatched(trnblasHandle_t handle, int n, T *const Aarray[],     \
                                             int lda, int *PivotArray, int *infoArray,             \
                                             int batchSize) {                                      \
        return getrf(WT, handle, n, Aarray, lda, PivotArray, infoArray, batchSize);                \
    }                                                                                              \
    trnblasStatus_t trnblas##P##getrsBatched(trnblasHandle_t handle, trnblasOperation_t trans,     \
                                             int n, int nrhs, const T *const Aarray[], int lda,    \
                                             const int *devIpiv, T *const Barray[], int ldb,       \
                                             int *info, int batchSize) {                           \
        return getrs(WT, handle, trans, n, nrhs, Aarray, lda, devIpiv, Barray, ldb, info,          \
                     batchSize);                                                                   \
    }                                                                                              \
    trnblasStatus_t trnblas##P##getriBatched(                                                      \
        trnblasHandle_t handle, int n, const T *const Aarray[], int lda, const int *PivotArray,    \
        T *const Carray[], int ldc, int *infoArray, int batchSize) {                               \
        return getri(WT, handle, n, Aarray, lda, PivotArray, Carray, ldc, infoArray, batchSize);   \
    }                                                                                              \
    trnblasStatus_t trnblas##P##matinvBatched(trnblasHandle_t handle, int n, const T *const A[],   \
                                              int lda, T *const Ainv[], int lda_inv, int *info,    \
                                              int batchSize) {                                     \
        return matinv(WT, handle, n, A, lda, Ainv, lda_inv, info, batchSize);                      \
    }                                                                                              \
    trnblasStatus_t trnblas##P##geqrfBatched(trnblasHandle_t handle, int m, int n,                 \
                                             T *const Aarray[], int lda, T *const TauArray[],      \
                                             int *info, int batchSize) {                           \
        return geqrf(WT, handle, m, n, Aarray, lda, TauArray, info, batchSize);                    \
    }                                                                                              \
    trnblasStatus_t trnblas##P##gelsBatched(trnblasHandle_t handle, trnblasOperation_t trans,      \
                                            int m, int n, int nrhs, T *const Aarray[], int lda,    \
                                            T *const Carray[], int ldc, int *info,                 \
                                            int *devInfoArray, int batchSize) {                    \
        return gels(WT, handle, trans, m, n, nrhs, Aarray, lda, Carray, ldc, info, devInfoArray,   \
                    batchSize);                                                                    \
    }

LU_ROUTINES(S, float, R32)
LU_ROUTINES(D, double, R64)
LU_ROUTINES(C, trnComplex, C32)
LU_ROUTINES(Z, trnDoubleComplex, C64)
