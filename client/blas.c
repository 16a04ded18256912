/*
 * blas.c — trnblas: handles and the GEMM family. Each routine resolves its
 * device pointers, encodes the op and queues it on the handle's stream; the
 * daemon validates shapes and extents (validate_blas.c) and its message for a
 * rejected call is available from trnsciGetLastErrorMessage.
 */
#include <stdlib.h>

#include "client/client.h"
#include "trnsci/trnblas.h"

struct trnblasContext {
    trnsciStream_t stream;
};

static trnblasStatus_t status_of(trnsciError_t e) {
    switch (e) {
    case trnsciSuccess: return TRNBLAS_STATUS_SUCCESS;
    case trnsciErrorInvalidValue: return TRNBLAS_STATUS_INVALID_VALUE;
    case trnsciErrorMemoryAllocation:
    case trnsciErrorBusy: return TRNBLAS_STATUS_ALLOC_FAILED; /* no queue slot: retry later */
    case trnsciErrorNoDevice:
    case trnsciErrorInitializationError:
    case trnsciErrorInsufficientDriver: return TRNBLAS_STATUS_NOT_INITIALIZED;
    case trnsciErrorNotSupported: return TRNBLAS_STATUS_NOT_SUPPORTED;
    case trnsciErrorUnknown: return TRNBLAS_STATUS_INTERNAL_ERROR;
    default: return TRNBLAS_STATUS_EXECUTION_FAILED;
    }
}

trnblasStatus_t trnblasCreate(trnblasHandle_t *handle) {
    if (!handle)
        return status_of(trn_fail(trnsciErrorInvalidValue, "trnblasCreate: handle is NULL"));
    trnsciError_t e;
    if (!trn_client_get(&e))
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    trnblasHandle_t h = calloc(1, sizeof(*h));
    if (!h)
        return status_of(trn_fail(trnsciErrorMemoryAllocation, "trnblasCreate: out of memory"));
    *handle = h;
    trn_ok();
    return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasDestroy(trnblasHandle_t handle) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    free(handle);
    trn_ok();
    return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasSetStream(trnblasHandle_t handle, trnsciStream_t streamId) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    handle->stream = streamId;
    trn_ok();
    return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasGetStream(trnblasHandle_t handle, trnsciStream_t *streamId) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (!streamId)
        return TRNBLAS_STATUS_INVALID_VALUE;
    *streamId = handle->stream;
    trn_ok();
    return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasGetVersion(trnblasHandle_t handle, int *version) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (!version)
        return TRNBLAS_STATUS_INVALID_VALUE;
    /* cublasGetVersion's encoding: major * 10000 + minor * 100 + patch. */
    *version = TRNSCI_VERSION_MAJOR * 10000 + TRNSCI_VERSION_MINOR * 100 + TRNSCI_VERSION_PATCH;
    trn_ok();
    return TRNBLAS_STATUS_SUCCESS;
}

const char *trnblasGetStatusName(trnblasStatus_t status) {
    switch (status) {
    case TRNBLAS_STATUS_SUCCESS: return "TRNBLAS_STATUS_SUCCESS";
    case TRNBLAS_STATUS_NOT_INITIALIZED: return "TRNBLAS_STATUS_NOT_INITIALIZED";
    case TRNBLAS_STATUS_ALLOC_FAILED: return "TRNBLAS_STATUS_ALLOC_FAILED";
    case TRNBLAS_STATUS_INVALID_VALUE: return "TRNBLAS_STATUS_INVALID_VALUE";
    case TRNBLAS_STATUS_ARCH_MISMATCH: return "TRNBLAS_STATUS_ARCH_MISMATCH";
    case TRNBLAS_STATUS_MAPPING_ERROR: return "TRNBLAS_STATUS_MAPPING_ERROR";
    case TRNBLAS_STATUS_EXECUTION_FAILED: return "TRNBLAS_STATUS_EXECUTION_FAILED";
    case TRNBLAS_STATUS_INTERNAL_ERROR: return "TRNBLAS_STATUS_INTERNAL_ERROR";
    case TRNBLAS_STATUS_NOT_SUPPORTED: return "TRNBLAS_STATUS_NOT_SUPPORTED";
    case TRNBLAS_STATUS_LICENSE_ERROR: return "TRNBLAS_STATUS_LICENSE_ERROR";
    }
    return "TRNBLAS_STATUS_UNKNOWN";
}

const char *trnblasGetStatusString(trnblasStatus_t status) {
    switch (status) {
    case TRNBLAS_STATUS_SUCCESS: return "success";
    case TRNBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
    case TRNBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
    case TRNBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
    case TRNBLAS_STATUS_ARCH_MISMATCH: return "an absent device architectural feature is required";
    case TRNBLAS_STATUS_MAPPING_ERROR: return "an access to device memory space failed";
    case TRNBLAS_STATUS_EXECUTION_FAILED: return "the program failed to execute";
    case TRNBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
    case TRNBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
    case TRNBLAS_STATUS_LICENSE_ERROR: return "error detected trying to check the license";
    }
    return "unknown status";
}

/* ---- GEMM ---------------------------------------------------------------- */

typedef struct gemm_args {
    Trnsci__V1__DataType type;
    trnblasOperation_t transa, transb;
    int m, n, k;
    double alpha_re, alpha_im, beta_re, beta_im;
    const void *a, *b;
    void *c;
    int lda, ldb, ldc;
} gemm_args;

static trnblasStatus_t gemm_submit(trnblasHandle_t handle, const gemm_args *g) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    Trnsci__V1__BufferRef a, b, cref;
    if ((e = trn_client_resolve(c, g->a, "gemm: A", &a)) ||
        (e = trn_client_resolve(c, g->b, "gemm: B", &b)) ||
        (e = trn_client_resolve(c, g->c, "gemm: C", &cref)))
        return status_of(e);
    Trnsci__V1__Scalar alpha = TRNSCI__V1__SCALAR__INIT, beta = TRNSCI__V1__SCALAR__INIT;
    alpha.re = g->alpha_re;
    alpha.im = g->alpha_im;
    beta.re = g->beta_re;
    beta.im = g->beta_im;
    Trnsci__V1__GemmOp gemm = TRNSCI__V1__GEMM_OP__INIT;
    gemm.type = g->type;
    gemm.transa = (Trnsci__V1__Operation)g->transa;
    gemm.transb = (Trnsci__V1__Operation)g->transb;
    gemm.m = g->m;
    gemm.n = g->n;
    gemm.k = g->k;
    gemm.alpha = &alpha;
    gemm.a = &a;
    gemm.lda = g->lda;
    gemm.b = &b;
    gemm.ldb = g->ldb;
    gemm.beta = &beta;
    gemm.c = &cref;
    gemm.ldc = g->ldc;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_GEMM;
    op.gemm = &gemm;
    e = trn_client_submit(c, handle->stream, &op);
    if (e == trnsciSuccess)
        trn_ok();
    return status_of(e);
}

#define NULL_SCALARS(alpha, beta)                                                                  \
    do {                                                                                           \
        if (!(alpha) || !(beta))                                                                   \
            return status_of(trn_fail(trnsciErrorInvalidValue, "gemm: alpha or beta is NULL"));    \
    } while (0)

trnblasStatus_t trnblasSgemm(trnblasHandle_t handle, trnblasOperation_t transa,
                             trnblasOperation_t transb, int m, int n, int k, const float *alpha,
                             const float *A, int lda, const float *B, int ldb, const float *beta,
                             float *C, int ldc) {
    NULL_SCALARS(alpha, beta);
    const gemm_args g = {TRNSCI__V1__DATA_TYPE__R_32F,
                         transa,
                         transb,
                         m,
                         n,
                         k,
                         *alpha,
                         0,
                         *beta,
                         0,
                         A,
                         B,
                         C,
                         lda,
                         ldb,
                         ldc};
    return gemm_submit(handle, &g);
}

trnblasStatus_t trnblasDgemm(trnblasHandle_t handle, trnblasOperation_t transa,
                             trnblasOperation_t transb, int m, int n, int k, const double *alpha,
                             const double *A, int lda, const double *B, int ldb, const double *beta,
                             double *C, int ldc) {
    NULL_SCALARS(alpha, beta);
    const gemm_args g = {TRNSCI__V1__DATA_TYPE__R_64F,
                         transa,
                         transb,
                         m,
                         n,
                         k,
                         *alpha,
                         0,
                         *beta,
                         0,
                         A,
                         B,
                         C,
                         lda,
                         ldb,
                         ldc};
    return gemm_submit(handle, &g);
}

trnblasStatus_t trnblasCgemm(trnblasHandle_t handle, trnblasOperation_t transa,
                             trnblasOperation_t transb, int m, int n, int k,
                             const trnComplex *alpha, const trnComplex *A, int lda,
                             const trnComplex *B, int ldb, const trnComplex *beta, trnComplex *C,
                             int ldc) {
    NULL_SCALARS(alpha, beta);
    const gemm_args g = {TRNSCI__V1__DATA_TYPE__C_32F,
                         transa,
                         transb,
                         m,
                         n,
                         k,
                         alpha->x,
                         alpha->y,
                         beta->x,
                         beta->y,
                         A,
                         B,
                         C,
                         lda,
                         ldb,
                         ldc};
    return gemm_submit(handle, &g);
}

trnblasStatus_t trnblasZgemm(trnblasHandle_t handle, trnblasOperation_t transa,
                             trnblasOperation_t transb, int m, int n, int k,
                             const trnDoubleComplex *alpha, const trnDoubleComplex *A, int lda,
                             const trnDoubleComplex *B, int ldb, const trnDoubleComplex *beta,
                             trnDoubleComplex *C, int ldc) {
    NULL_SCALARS(alpha, beta);
    const gemm_args g = {TRNSCI__V1__DATA_TYPE__C_64F,
                         transa,
                         transb,
                         m,
                         n,
                         k,
                         alpha->x,
                         alpha->y,
                         beta->x,
                         beta->y,
                         A,
                         B,
                         C,
                         lda,
                         ldb,
                         ldc};
    return gemm_submit(handle, &g);
}
