/*
 * solver_more.c — trnsolver's symmetric indefinite routines and helpers:
 * sytrf, sytri, laswp, lauum, the tridiagonal reduction sytrd/hetrd with
 * orgtr/ungtr and ormtr/unmtr (S, D, C, Z) with their _bufferSize calls,
 * the 64-bit Xsytrs, and gesvdjBatched. Each queues one SolverDenseOp (protocol 1.14: a
 * daemon that predates it is refused here, naming the routine); the
 * _bufferSize calls report 0, as every trnsolver workspace belongs to the
 * daemon.
 *
 * Invariants:
 *  - argument rules live in the op's validator (ops/validate/solver.c),
 *    which runs in this process before anything is sent; this file checks
 *    only what the wire cannot carry (the handle, Xsytrs's 64-bit sizes and
 *    data types, the _bufferSize outputs);
 *  - Xsytrs narrows the int64 pivots into a stream-ordered int32 temporary
 *    (the low half of each: a pivot, negative or not, is within
 *    [-n, n] and n fits an int; little-endian layout, checked at compile
 *    time) and frees it in stream order, so the call stays asynchronous.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include "client/solver_internal.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "Xsytrs's pivot narrowing assumes little-endian device memory"
#endif

#define MORE(T, TY, DT)                                                                            \
    trnsolverStatus_t trnsolverDn##T##sytrf_bufferSize(trnsolverDnHandle_t handle, int n, TY *A,   \
                                                       int lda, int *lwork) {                      \
        (void)n, (void)A, (void)lda;                                                               \
        return trn_solver_no_workspace(handle, lwork, "sytrf_bufferSize");                         \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##sytrf(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,    \
                                            int n, TY *A, int lda, int *ipiv, TY *work, int lwork, \
                                            int *devInfo) {                                        \
        (void)work, (void)lwork;                                                                   \
        const trn_solver_dense_args g = {.minor = 14,                                              \
                                         .fn = SV_FN(SYTRF),                                       \
                                         .name = "sytrf",                                          \
                                         .type = DT,                                               \
                                         .uplo = (int)uplo,                                        \
                                         .n = n,                                                   \
                                         .a = A,                                                   \
                                         .lda = lda,                                               \
                                         .ldb = 1,                                                 \
                                         .ipiv_name = "ipiv",                                      \
                                         .ipiv = ipiv,                                             \
                                         .info = devInfo};                                         \
        return trn_solver_dense_submit(handle, &g);                                                \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##sytri_bufferSize(trnsolverDnHandle_t handle,                 \
                                                       trnblasFillMode_t uplo, int n, TY *A,       \
                                                       int lda, const int *ipiv, int *lwork) {     \
        (void)uplo, (void)n, (void)A, (void)lda, (void)ipiv;                                       \
        return trn_solver_no_workspace(handle, lwork, "sytri_bufferSize");                         \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##sytri(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,    \
                                            int n, TY *A, int lda, const int *ipiv, TY *work,      \
                                            int lwork, int *devInfo) {                             \
        (void)work, (void)lwork;                                                                   \
        const trn_solver_dense_args g = {.minor = 14,                                              \
                                         .fn = SV_FN(SYTRI),                                       \
                                         .name = "sytri",                                          \
                                         .type = DT,                                               \
                                         .uplo = (int)uplo,                                        \
                                         .n = n,                                                   \
                                         .a = A,                                                   \
                                         .lda = lda,                                               \
                                         .ldb = 1,                                                 \
                                         .ipiv_name = "ipiv",                                      \
                                         .ipiv = ipiv,                                             \
                                         .info = devInfo};                                         \
        return trn_solver_dense_submit(handle, &g);                                                \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##laswp(trnsolverDnHandle_t handle, int n, TY *A, int lda,     \
                                            int k1, int k2, const int *devIpiv, int incx) {        \
        const trn_solver_dense_args g = {.minor = 14,                                              \
                                         .fn = SV_FN(LASWP),                                       \
                                         .name = "laswp",                                          \
                                         .type = DT,                                               \
                                         .n = n,                                                   \
                                         .a = A,                                                   \
                                         .lda = lda,                                               \
                                         .ldb = 1,                                                 \
                                         .ipiv = devIpiv,                                          \
                                         .k = k1,                                                  \
                                         .k2 = k2,                                                 \
                                         .incx = incx};                                            \
        return trn_solver_dense_submit(handle, &g);                                                \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##lauum_bufferSize(                                            \
        trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, TY *A, int lda, int *lwork) {   \
        (void)uplo, (void)n, (void)A, (void)lda;                                                   \
        return trn_solver_no_workspace(handle, lwork, "lauum_bufferSize");                         \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##lauum(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,    \
                                            int n, TY *A, int lda, TY *work, int lwork,            \
                                            int *devInfo) {                                        \
        (void)work, (void)lwork;                                                                   \
        const trn_solver_dense_args g = {.minor = 14,                                              \
                                         .fn = SV_FN(LAUUM),                                       \
                                         .name = "lauum",                                          \
                                         .type = DT,                                               \
                                         .uplo = (int)uplo,                                        \
                                         .n = n,                                                   \
                                         .a = A,                                                   \
                                         .lda = lda,                                               \
                                         .ldb = 1,                                                 \
                                         .info = devInfo};                                         \
        return trn_solver_dense_submit(handle, &g);                                                \
    }
MORE(S, float, SV_R32)
MORE(D, double, SV_R64)
MORE(C, trnComplex, SV_C32)
MORE(Z, trnDoubleComplex, SV_C64)

/* ---- sytrd / hetrd, orgtr / ungtr, ormtr / unmtr --------------------------------------- */

/* TRD is sytrd or hetrd, ORG orgtr or ungtr, ORM ormtr or unmtr; RT the
 * real type of d and e. */
#define TRIDIAG(T, TRD, ORG, ORM, TY, RT, DT)                                                      \
    trnsolverStatus_t trnsolverDn##T##TRD##_bufferSize(                                            \
        trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, const TY *A, int lda,           \
        const RT *d, const RT *e, const TY *tau, int *lwork) {                                     \
        (void)uplo, (void)n, (void)A, (void)lda, (void)d, (void)e, (void)tau;                      \
        return trn_solver_no_workspace(handle, lwork, #TRD "_bufferSize");                         \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##TRD(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,      \
                                          int n, TY *A, int lda, RT *d, RT *e, TY *tau, TY *work,  \
                                          int lwork, int *devInfo) {                               \
        (void)work, (void)lwork;                                                                   \
        const trn_solver_dense_args g = {.minor = 14,                                              \
                                         .fn = SV_FN(SYTRD),                                       \
                                         .name = #TRD,                                             \
                                         .type = DT,                                               \
                                         .uplo = (int)uplo,                                        \
                                         .n = n,                                                   \
                                         .a = A,                                                   \
                                         .lda = lda,                                               \
                                         .ldb = 1,                                                 \
                                         .d = d,                                                   \
                                         .e = e,                                                   \
                                         .tau = tau,                                               \
                                         .info = devInfo};                                         \
        return trn_solver_dense_submit(handle, &g);                                                \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##ORG##_bufferSize(trnsolverDnHandle_t handle,                 \
                                                       trnblasFillMode_t uplo, int n, const TY *A, \
                                                       int lda, const TY *tau, int *lwork) {       \
        (void)uplo, (void)n, (void)A, (void)lda, (void)tau;                                        \
        return trn_solver_no_workspace(handle, lwork, #ORG "_bufferSize");                         \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##ORG(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,      \
                                          int n, TY *A, int lda, const TY *tau, TY *work,          \
                                          int lwork, int *devInfo) {                               \
        (void)work, (void)lwork;                                                                   \
        const trn_solver_dense_args g = {.minor = 14,                                              \
                                         .fn = SV_FN(ORGTR),                                       \
                                         .name = #ORG,                                             \
                                         .type = DT,                                               \
                                         .uplo = (int)uplo,                                        \
                                         .n = n,                                                   \
                                         .a = A,                                                   \
                                         .lda = lda,                                               \
                                         .ldb = 1,                                                 \
                                         .tau = tau,                                               \
                                         .info = devInfo};                                         \
        return trn_solver_dense_submit(handle, &g);                                                \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##ORM##_bufferSize(                                            \
        trnsolverDnHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,                \
        trnblasOperation_t trans, int m, int n, const TY *A, int lda, const TY *tau, const TY *C,  \
        int ldc, int *lwork) {                                                                     \
        (void)side, (void)uplo, (void)trans, (void)m, (void)n, (void)A, (void)lda, (void)tau,      \
            (void)C, (void)ldc;                                                                    \
        return trn_solver_no_workspace(handle, lwork, #ORM "_bufferSize");                         \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##ORM(trnsolverDnHandle_t handle, trnblasSideMode_t side,      \
                                          trnblasFillMode_t uplo, trnblasOperation_t trans, int m, \
                                          int n, TY *A, int lda, TY *tau, TY *C, int ldc,          \
                                          TY *work, int lwork, int *devInfo) {                     \
        (void)work, (void)lwork;                                                                   \
        const trn_solver_dense_args g = {.minor = 14,                                              \
                                         .fn = SV_FN(ORMTR),                                       \
                                         .name = #ORM,                                             \
                                         .type = DT,                                               \
                                         .uplo = (int)uplo,                                        \
                                         .side = (int)side,                                        \
                                         .trans = trans,                                           \
                                         .m = m,                                                   \
                                         .n = n,                                                   \
                                         .a = A,                                                   \
                                         .lda = lda,                                               \
                                         .b = C,                                                   \
                                         .ldb = ldc,                                               \
                                         .tau = tau,                                               \
                                         .info = devInfo};                                         \
        return trn_solver_dense_submit(handle, &g);                                                \
    }
TRIDIAG(S, sytrd, orgtr, ormtr, float, float, SV_R32)
TRIDIAG(D, sytrd, orgtr, ormtr, double, double, SV_R64)
TRIDIAG(C, hetrd, ungtr, unmtr, trnComplex, float, SV_C32)
TRIDIAG(Z, hetrd, ungtr, unmtr, trnDoubleComplex, double, SV_C64)

/* ---- Xsytrs ------------------------------------------------------------------------ */

static trnsolverStatus_t x_fail(trnsciError_t e, const char *fn, const char *arg, const char *rule,
                                long long v) {
    return trn_solver_status(trn_fail(e, "%s: %s=%lld %s", fn, arg, v, rule));
}

/* The wire type of dataTypeA (and B, which must equal it), n, nrhs, lda
 * and ldb as ints; 0, or -1 with *st set. */
static int xsytrs_args(const char *fn, int64_t n, int64_t nrhs, trnsciDataType_t ta, int64_t lda,
                       trnsciDataType_t tb, int64_t ldb, Trnsci__V1__DataType *wt, int dims[4],
                       trnsolverStatus_t *st) {
    switch (ta) {
    case TRNSCI_R_32F: *wt = SV_R32; break;
    case TRNSCI_R_64F: *wt = SV_R64; break;
    case TRNSCI_C_32F: *wt = SV_C32; break;
    case TRNSCI_C_64F: *wt = SV_C64; break;
    default:
        *st = x_fail(trnsciErrorNotSupported, fn, "dataTypeA",
                     "is not supported (R_32F, R_64F, C_32F or C_64F)", (long long)ta);
        return -1;
    }
    if (tb != ta) {
        *st =
            x_fail(trnsciErrorNotSupported, fn, "dataTypeB", "must equal dataTypeA", (long long)tb);
        return -1;
    }
    const int64_t v[4] = {n, nrhs, lda, ldb};
    static const char *const names[4] = {"n", "nrhs", "lda", "ldb"};
    for (int i = 0; i < 4; i++) {
        if (v[i] < 0) {
            *st = x_fail(trnsciErrorInvalidValue, fn, names[i], "must be >= 0", (long long)v[i]);
            return -1;
        }
        if (v[i] > INT_MAX) {
            *st = x_fail(trnsciErrorNotSupported, fn, names[i],
                         "is above INT_MAX (trnsci's kernels take 32-bit sizes)", (long long)v[i]);
            return -1;
        }
        dims[i] = (int)v[i];
    }
    return 0;
}

trnsolverStatus_t trnsolverDnXsytrs_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               int64_t n, int64_t nrhs, trnsciDataType_t dataTypeA,
                                               const void *A, int64_t lda, const int64_t *ipiv,
                                               trnsciDataType_t dataTypeB, void *B, int64_t ldb,
                                               size_t *workspaceInBytesOnDevice,
                                               size_t *workspaceInBytesOnHost) {
    (void)uplo, (void)A, (void)ipiv, (void)B;
    const char *fn = "Xsytrs_bufferSize";
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    if (!trn_solver_begin(handle, &st))
        return st;
    Trnsci__V1__DataType wt;
    int dims[4];
    if (xsytrs_args(fn, n, nrhs, dataTypeA, lda, dataTypeB, ldb, &wt, dims, &st))
        return st;
    if (!workspaceInBytesOnDevice || !workspaceInBytesOnHost)
        return x_fail(trnsciErrorInvalidValue, fn,
                      !workspaceInBytesOnDevice ? "workspaceInBytesOnDevice"
                                                : "workspaceInBytesOnHost",
                      "must not be NULL", 0);
    *workspaceInBytesOnDevice = 0;
    *workspaceInBytesOnHost = 0;
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnXsytrs(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                    int64_t nrhs, trnsciDataType_t dataTypeA, const void *A,
                                    int64_t lda, const int64_t *ipiv, trnsciDataType_t dataTypeB,
                                    void *B, int64_t ldb, void *bufferOnDevice,
                                    size_t workspaceInBytesOnDevice, void *bufferOnHost,
                                    size_t workspaceInBytesOnHost, int *info) {
    (void)bufferOnDevice, (void)workspaceInBytesOnDevice, (void)bufferOnHost,
        (void)workspaceInBytesOnHost; /* 0 bytes needed: any buffer will do */
    const char *fn = "Xsytrs";
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    if (!trn_solver_begin(handle, &st))
        return st;
    Trnsci__V1__DataType wt;
    int dims[4];
    if (xsytrs_args(fn, n, nrhs, dataTypeA, lda, dataTypeB, ldb, &wt, dims, &st))
        return st;
    const trnsciStream_t s = handle->stream;
    int *piv32 = NULL;
    if (ipiv && dims[0] > 0) {
        trnsciError_t e = trnsciMallocAsync((void **)&piv32, (size_t)dims[0] * sizeof(int32_t), s);
        if (e != trnsciSuccess)
            return trn_solver_status(e);
        e = trnsciMemcpy2DAsync(piv32, sizeof(int32_t), ipiv, sizeof(int64_t), sizeof(int32_t),
                                (size_t)dims[0], trnsciMemcpyDeviceToDevice, s);
        if (e != trnsciSuccess) {
            const trnsolverStatus_t r =
                trn_solver_status(trn_fail(e, "Xsytrs: ipiv: %s", trnsciGetLastErrorMessage()));
            (void)trnsciFreeAsync(piv32, s);
            (void)trn_fail(e, "Xsytrs: ipiv could not be read"); /* keep this failure */
            return r;
        }
    }
    const trn_solver_dense_args g = {.minor = 14,
                                     .fn = SV_FN(SYTRS),
                                     .name = "Xsytrs",
                                     .type = wt,
                                     .uplo = (int)uplo,
                                     .n = dims[0],
                                     .nrhs = dims[1],
                                     .a = A,
                                     .lda = dims[2],
                                     .b = B,
                                     .ldb = dims[3],
                                     .ipiv_name = "ipiv",
                                     .ipiv = piv32,
                                     .info = info};
    st = trn_solver_dense_submit(handle, &g);
    if (piv32) {
        char msg[512];
        snprintf(msg, sizeof(msg), "%s", trnsciGetLastErrorMessage());
        const trnsciError_t saved = trnsciPeekAtLastError();
        const trnsciError_t e = trnsciFreeAsync(piv32, s);
        if (st != TRNSOLVER_STATUS_SUCCESS)
            (void)trn_fail(saved != trnsciSuccess ? saved : trnsciErrorInvalidValue, "%s", msg);
        else if (e != trnsciSuccess)
            return trn_solver_status(e);
    }
    return st;
}

/* ---- gesvdjBatched ----------------------------------------------------------------- */

/* cuSOLVER's limits on the batched Jacobi SVD (m, n <= 32) and the
 * leading dimensions of its full U (m x m) and V (n x n). */
static int gesvdj_batched_bad(int m, int n, int lda, int ldu, int ldv, int batchSize,
                              const char **why) {
    if (m < 0 || m > 32 || n < 0 || n > 32)
        *why = "m and n must be 0 .. 32 (cuSOLVER's gesvdjBatched limit)";
    else if (lda < (m > 1 ? m : 1))
        *why = "lda < max(1, m)";
    else if (ldu < (m > 1 ? m : 1))
        *why = "ldu < max(1, m)";
    else if (ldv < (n > 1 ? n : 1))
        *why = "ldv < max(1, n)";
    else if (batchSize < 0)
        *why = "batchSize < 0";
    else
        return 0;
    return 1;
}

static trnsolverStatus_t batched_fail(const char *fn, const char *why) {
    return trn_solver_status(trn_fail(trnsciErrorInvalidValue, "%s: %s", fn, why));
}

/* One <t>gesvdj (full U and V, econ = 0) per matrix, queued in order on the
 * handle's stream; matrix i at A + i lda n, its values at S + i min(m,n),
 * U + i ldu m, V + i ldv n, info + i. */
#define GESVDJ_BATCHED(T, TY, RT)                                                                  \
    trnsolverStatus_t trnsolverDn##T##gesvdjBatched_bufferSize(                                    \
        trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int m, int n, const TY *A, int lda,   \
        const RT *S, const TY *U, int ldu, const TY *V, int ldv, int *lwork, gesvdjInfo_t params,  \
        int batchSize) {                                                                           \
        (void)jobz, (void)A, (void)S, (void)U, (void)V, (void)params;                              \
        const char *why = NULL;                                                                    \
        if (gesvdj_batched_bad(m, n, lda, ldu, ldv, batchSize, &why))                              \
            return batched_fail("gesvdjBatched_bufferSize", why);                                  \
        return trn_solver_no_workspace(handle, lwork, "gesvdjBatched_bufferSize");                 \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##gesvdjBatched(                                               \
        trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int m, int n, TY *A, int lda, RT *S,  \
        TY *U, int ldu, TY *V, int ldv, TY *work, int lwork, int *info, gesvdjInfo_t params,       \
        int batchSize) {                                                                           \
        const char *why = NULL;                                                                    \
        if (gesvdj_batched_bad(m, n, lda, ldu, ldv, batchSize, &why))                              \
            return batched_fail("gesvdjBatched", why);                                             \
        const size_t p = (size_t)(m < n ? m : n);                                                  \
        const int vec = jobz == TRNSOLVER_EIG_MODE_VECTOR;                                         \
        for (int i = 0; i < batchSize; i++) {                                                      \
            const size_t k = (size_t)i;                                                            \
            const trnsolverStatus_t st = trnsolverDn##T##gesvdj(                                   \
                handle, jobz, 0, m, n, A + k * (size_t)lda * (size_t)n, lda, S + k * p,            \
                vec ? U + k * (size_t)ldu * (size_t)m : U, ldu,                                    \
                vec ? V + k * (size_t)ldv * (size_t)n : V, ldv, work, lwork, info + i, params);    \
            if (st != TRNSOLVER_STATUS_SUCCESS)                                                    \
                return st;                                                                         \
        }                                                                                          \
        return TRNSOLVER_STATUS_SUCCESS;                                                           \
    }
GESVDJ_BATCHED(S, float, float)
GESVDJ_BATCHED(D, double, double)
GESVDJ_BATCHED(C, trnComplex, float)
GESVDJ_BATCHED(Z, trnDoubleComplex, double)
