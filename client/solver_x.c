/*
 * solver_x.c — trnsolver's 64-bit generic API (cusolverDnX*): the params
 * object and Xpotrf, Xpotrs, Xgetrf, Xgetrs, Xgeqrf, Xsyevd, Xgesvd,
 * XsyevBatched, Xsyevdx, Xgesvdp, Xgesvdr, Xtrtri with their _bufferSize
 * companions. Each routine checks what the
 * generic API adds (params, the data types, 64-bit sizes, the workspace sizes) and then calls the
 * typed routine of the type (S, D, C, Z), which queues one op and validates the rest in the daemon;
 * nothing is queued when a check fails.
 *
 * Invariants:
 *  - every size handed to a typed routine fits an int (checked here:
 *    negative is INVALID_VALUE, above INT_MAX NOT_SUPPORTED);
 *  - the workspace sizes reported are exactly what the routine uses: 0
 *    host bytes always; Xgetrf's device buffer holds the 32-bit pivots the
 *    daemon's LU writes (min(m,n) * 4 bytes), widened into the caller's
 *    int64_t ipiv by a stream-ordered strided copy (a pivot is positive and
 *    below 2^31, so its int64 is the int32 in the low half and zeros in the
 *    high half: little-endian layout, checked at compile time);
 *  - Xgetrs narrows the pivots into a temporary from trnsciMallocAsync on
 *    the handle's stream and frees it with trnsciFreeAsync, so the call
 *    stays asynchronous.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "client/solver_internal.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "Xgetrf's pivot widening assumes little-endian device memory"
#endif

struct trnsolverDnParams {
    trnsolverAlgMode_t getrf_alg; /* stored: one LU algorithm serves both */
};

/* S, D, C, Z by index. */
enum { X_S, X_D, X_C, X_Z };

static trnsolverStatus_t x_fail(trnsciError_t e, const char *fmt, const char *fn, const char *arg,
                                long long v) {
    return trn_solver_status(trn_fail(e, fmt, fn, arg, v));
}

static const char *type_name(trnsciDataType_t t) {
    switch (t) {
    case TRNSCI_R_32F: return "TRNSCI_R_32F";
    case TRNSCI_R_64F: return "TRNSCI_R_64F";
    case TRNSCI_C_32F: return "TRNSCI_C_32F";
    case TRNSCI_C_64F: return "TRNSCI_C_64F";
    default: return "a type other than R_32F, R_64F, C_32F or C_64F";
    }
}

/* The index of dataTypeA, or -1 (NOT_SUPPORTED recorded). */
static int x_type(const char *fn, trnsciDataType_t a, trnsolverStatus_t *st) {
    switch (a) {
    case TRNSCI_R_32F: return X_S;
    case TRNSCI_R_64F: return X_D;
    case TRNSCI_C_32F: return X_C;
    case TRNSCI_C_64F: return X_Z;
    default:
        *st = x_fail(trnsciErrorNotSupported,
                     "%s: %s=%lld is not supported (R_32F, R_64F, C_32F or C_64F)", fn, "dataTypeA",
                     (long long)a);
        return -1;
    }
}

/* Another argument's type must be `want` (dataTypeA, or its real type). */
static int x_same(const char *fn, const char *arg, trnsciDataType_t got, trnsciDataType_t want,
                  trnsolverStatus_t *st) {
    if (got == want)
        return 0;
    *st = trn_solver_status(trn_fail(trnsciErrorNotSupported,
                                     "%s: %s=%d (%s) is not supported with this dataTypeA: it must "
                                     "be %s",
                                     fn, arg, (int)got, type_name(got), type_name(want)));
    return -1;
}

static trnsciDataType_t real_of(trnsciDataType_t a) {
    return (a == TRNSCI_R_32F || a == TRNSCI_C_32F) ? TRNSCI_R_32F : TRNSCI_R_64F;
}

/* A 64-bit size narrowed to int. */
static int x_dim(const char *fn, const char *arg, int64_t v, int *out, trnsolverStatus_t *st) {
    if (v < 0) {
        *st = x_fail(trnsciErrorInvalidValue, "%s: %s=%lld must be >= 0", fn, arg, (long long)v);
        return -1;
    }
    if (v > INT_MAX) {
        *st = x_fail(trnsciErrorNotSupported,
                     "%s: %s=%lld is above INT_MAX (trnsci's kernels take 32-bit sizes)", fn, arg,
                     (long long)v);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* uplo must be LOWER or UPPER. */
static int x_uplo(const char *fn, trnblasFillMode_t uplo, trnsolverStatus_t *st) {
    if (uplo == TRNBLAS_FILL_MODE_LOWER || uplo == TRNBLAS_FILL_MODE_UPPER)
        return 0;
    *st = x_fail(trnsciErrorInvalidValue, "%s: %s=%lld must be LOWER (0) or UPPER (1)", fn, "uplo",
                 (long long)uplo);
    return -1;
}

/* lda must be at least max(1, n). */
static int x_lda(const char *fn, int lda, int n, trnsolverStatus_t *st) {
    if (lda >= (n > 1 ? n : 1))
        return 0;
    *st = x_fail(trnsciErrorInvalidValue, "%s: %s=%lld must be >= max(1, n)", fn, "lda",
                 (long long)lda);
    return -1;
}

/* The checks every routine starts with: the handle. params may be NULL:
 * the defaults (cuSOLVER's own samples pass NULL), which are all any
 * params selects here. */
static int x_begin(trnsolverDnHandle_t handle, trnsolverDnParams_t params, const char *fn,
                   trnsolverStatus_t *st) {
    (void)params;
    (void)fn;
    return trn_solver_begin(handle, st) ? 0 : -1;
}

/* Reports the sizes of a _bufferSize call. */
static trnsolverStatus_t x_sizes(const char *fn, size_t dev, size_t *onDevice, size_t *onHost) {
    if (!onDevice || !onHost)
        return x_fail(trnsciErrorInvalidValue, "%s: %s is NULL (%lld)", fn,
                      !onDevice ? "workspaceInBytesOnDevice" : "workspaceInBytesOnHost", 0LL);
    *onDevice = dev;
    *onHost = 0;
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

/* The workspace a routine is given must be at least what it needs. */
static int x_workspace(const char *fn, size_t need, void *dev, size_t have, trnsolverStatus_t *st) {
    if (have < need) {
        *st = trn_solver_status(trn_fail(trnsciErrorInvalidValue,
                                         "%s: workspaceInBytesOnDevice=%zu is less than the %zu "
                                         "bytes the _bufferSize call reports",
                                         fn, have, need));
        return -1;
    }
    if (need > 0 && !dev) {
        *st = x_fail(trnsciErrorInvalidValue, "%s: %s is NULL (%lld bytes needed)", fn,
                     "bufferOnDevice", (long long)need);
        return -1;
    }
    return 0;
}

/* A failure's code and message, kept across cleanup calls that would
 * replace them. */
typedef struct x_saved {
    trnsciError_t e;
    char msg[512];
} x_saved;

static void x_save(x_saved *v) {
    v->e = trnsciPeekAtLastError();
    snprintf(v->msg, sizeof(v->msg), "%s", trnsciGetLastErrorMessage());
}

static void x_restore(const x_saved *v) {
    (void)trn_fail(v->e != trnsciSuccess ? v->e : trnsciErrorInvalidValue, "%s", v->msg);
}

/* A runtime call's failure, its message prefixed with what it was for. */
static trnsolverStatus_t x_runtime(trnsciError_t e, const char *what) {
    char msg[512];
    snprintf(msg, sizeof(msg), "%s", trnsciGetLastErrorMessage());
    return trn_solver_status(trn_fail(e, "%s: %s", what, msg));
}

/* ---- params ---------------------------------------------------------------------- */

trnsolverStatus_t trnsolverDnCreateParams(trnsolverDnParams_t *params) {
    if (!params)
        return x_fail(trnsciErrorInvalidValue, "%s: %s is NULL (%lld)", "trnsolverDnCreateParams",
                      "params", 0LL);
    struct trnsolverDnParams *p = calloc(1, sizeof(*p));
    if (!p)
        return trn_solver_status(
            trn_fail(trnsciErrorMemoryAllocation, "trnsolverDnCreateParams: out of memory"));
    p->getrf_alg = TRNSOLVER_ALG_0;
    *params = p;
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnDestroyParams(trnsolverDnParams_t params) {
    free(params);
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnSetAdvOptions(trnsolverDnParams_t params,
                                           trnsolverDnFunction_t function,
                                           trnsolverAlgMode_t algo) {
    const char *fn = "trnsolverDnSetAdvOptions";
    if (!params)
        return x_fail(trnsciErrorInvalidValue, "%s: %s is NULL (%lld)", fn, "params", 0LL);
    switch (function) {
    case TRNSOLVERDN_GETRF:
        if (algo != TRNSOLVER_ALG_0 && algo != TRNSOLVER_ALG_1)
            return x_fail(trnsciErrorInvalidValue, "%s: %s=%lld must be ALG_0 or ALG_1 for GETRF",
                          fn, "algo", (long long)algo);
        params->getrf_alg = algo;
        break;
    case TRNSOLVERDN_POTRF:
    case TRNSOLVERDN_SYEVBATCHED:
        if (algo != TRNSOLVER_ALG_0)
            return x_fail(trnsciErrorInvalidValue,
                          "%s: %s=%lld must be ALG_0 for POTRF and SYEVBATCHED", fn, "algo",
                          (long long)algo);
        break;
    default:
        return x_fail(trnsciErrorInvalidValue,
                      "%s: %s=%lld must be TRNSOLVERDN_GETRF, _POTRF or _SYEVBATCHED", fn,
                      "function", (long long)function);
    }
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

/* ---- Cholesky --------------------------------------------------------------------- */

/* The common checks of Xpotrf and its _bufferSize: the type index and n,
 * lda as ints, or -1 with *st set. */
static int potrf_args(trnsolverDnHandle_t handle, trnsolverDnParams_t params, const char *fn,
                      int64_t n, trnsciDataType_t dataTypeA, int64_t lda,
                      trnsciDataType_t computeType, int *ni, int *ldai, trnsolverStatus_t *st) {
    if (x_begin(handle, params, fn, st))
        return -1;
    const int t = x_type(fn, dataTypeA, st);
    if (t < 0 || x_same(fn, "computeType", computeType, dataTypeA, st) ||
        x_dim(fn, "n", n, ni, st) || x_dim(fn, "lda", lda, ldai, st))
        return -1;
    return t;
}

trnsolverStatus_t trnsolverDnXpotrf_bufferSize(trnsolverDnHandle_t handle,
                                               trnsolverDnParams_t params, trnblasFillMode_t uplo,
                                               int64_t n, trnsciDataType_t dataTypeA, const void *A,
                                               int64_t lda, trnsciDataType_t computeType,
                                               size_t *workspaceInBytesOnDevice,
                                               size_t *workspaceInBytesOnHost) {
    (void)uplo, (void)A;
    const char *fn = "Xpotrf_bufferSize";
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    int ni, ldai;
    if (potrf_args(handle, params, fn, n, dataTypeA, lda, computeType, &ni, &ldai, &st) < 0)
        return st;
    return x_sizes(fn, 0, workspaceInBytesOnDevice, workspaceInBytesOnHost);
}

trnsolverStatus_t trnsolverDnXpotrf(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                    trnblasFillMode_t uplo, int64_t n, trnsciDataType_t dataTypeA,
                                    void *A, int64_t lda, trnsciDataType_t computeType,
                                    void *bufferOnDevice, size_t workspaceInBytesOnDevice,
                                    void *bufferOnHost, size_t workspaceInBytesOnHost, int *info) {
    (void)bufferOnDevice, (void)workspaceInBytesOnDevice, (void)bufferOnHost,
        (void)workspaceInBytesOnHost;
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    int ni, ldai;
    const int t =
        potrf_args(handle, params, "Xpotrf", n, dataTypeA, lda, computeType, &ni, &ldai, &st);
    switch (t) {
    case X_S: return trnsolverDnSpotrf(handle, uplo, ni, A, ldai, NULL, 0, info);
    case X_D: return trnsolverDnDpotrf(handle, uplo, ni, A, ldai, NULL, 0, info);
    case X_C: return trnsolverDnCpotrf(handle, uplo, ni, A, ldai, NULL, 0, info);
    case X_Z: return trnsolverDnZpotrf(handle, uplo, ni, A, ldai, NULL, 0, info);
    default: return st;
    }
}

trnsolverStatus_t trnsolverDnXpotrs(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                    trnblasFillMode_t uplo, int64_t n, int64_t nrhs,
                                    trnsciDataType_t dataTypeA, const void *A, int64_t lda,
                                    trnsciDataType_t dataTypeB, void *B, int64_t ldb, int *info) {
    const char *fn = "Xpotrs";
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    if (x_begin(handle, params, fn, &st))
        return st;
    int ni, nr, ldai, ldbi;
    const int t = x_type(fn, dataTypeA, &st);
    if (t < 0 || x_same(fn, "dataTypeB", dataTypeB, dataTypeA, &st) ||
        x_dim(fn, "n", n, &ni, &st) || x_dim(fn, "nrhs", nrhs, &nr, &st) ||
        x_dim(fn, "lda", lda, &ldai, &st) || x_dim(fn, "ldb", ldb, &ldbi, &st))
        return st;
    switch (t) {
    case X_S: return trnsolverDnSpotrs(handle, uplo, ni, nr, A, ldai, B, ldbi, info);
    case X_D: return trnsolverDnDpotrs(handle, uplo, ni, nr, A, ldai, B, ldbi, info);
    case X_C: return trnsolverDnCpotrs(handle, uplo, ni, nr, A, ldai, B, ldbi, info);
    default: return trnsolverDnZpotrs(handle, uplo, ni, nr, A, ldai, B, ldbi, info);
    }
}

/* ---- LU --------------------------------------------------------------------------- */

static int getrf_args(trnsolverDnHandle_t handle, trnsolverDnParams_t params, const char *fn,
                      int64_t m, int64_t n, trnsciDataType_t dataTypeA, int64_t lda,
                      trnsciDataType_t computeType, int *mi, int *ni, int *ldai,
                      trnsolverStatus_t *st) {
    if (x_begin(handle, params, fn, st))
        return -1;
    const int t = x_type(fn, dataTypeA, st);
    if (t < 0 || x_same(fn, "computeType", computeType, dataTypeA, st) ||
        x_dim(fn, "m", m, mi, st) || x_dim(fn, "n", n, ni, st) || x_dim(fn, "lda", lda, ldai, st))
        return -1;
    return t;
}

/* The device bytes Xgetrf needs: the 32-bit pivots. */
static size_t getrf_bytes(int m, int n) {
    return (size_t)(m < n ? m : n) * sizeof(int32_t);
}

trnsolverStatus_t trnsolverDnXgetrf_bufferSize(trnsolverDnHandle_t handle,
                                               trnsolverDnParams_t params, int64_t m, int64_t n,
                                               trnsciDataType_t dataTypeA, const void *A,
                                               int64_t lda, trnsciDataType_t computeType,
                                               size_t *workspaceInBytesOnDevice,
                                               size_t *workspaceInBytesOnHost) {
    (void)A;
    const char *fn = "Xgetrf_bufferSize";
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    int mi, ni, ldai;
    if (getrf_args(handle, params, fn, m, n, dataTypeA, lda, computeType, &mi, &ni, &ldai, &st) < 0)
        return st;
    return x_sizes(fn, getrf_bytes(mi, ni), workspaceInBytesOnDevice, workspaceInBytesOnHost);
}

trnsolverStatus_t trnsolverDnXgetrf(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                    int64_t m, int64_t n, trnsciDataType_t dataTypeA, void *A,
                                    int64_t lda, int64_t *ipiv, trnsciDataType_t computeType,
                                    void *bufferOnDevice, size_t workspaceInBytesOnDevice,
                                    void *bufferOnHost, size_t workspaceInBytesOnHost, int *info) {
    (void)bufferOnHost, (void)workspaceInBytesOnHost;
    const char *fn = "Xgetrf";
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    int mi, ni, ldai;
    const int t =
        getrf_args(handle, params, fn, m, n, dataTypeA, lda, computeType, &mi, &ni, &ldai, &st);
    if (t < 0)
        return st;
    const size_t need = ipiv ? getrf_bytes(mi, ni) : 0;
    if (x_workspace(fn, need, bufferOnDevice, workspaceInBytesOnDevice, &st))
        return st;
    const size_t np = need / sizeof(int32_t);
    const trnsciStream_t s = handle->stream;
    /* getrf's own checks that can fail, made before ipiv is touched: lda,
     * and A and info being device memory. */
    if (ldai < (mi > 1 ? mi : 1))
        return x_fail(trnsciErrorInvalidValue, "%s: %s=%lld must be >= max(1, m)", fn, "lda",
                      (long long)ldai);
    if (!info || (mi > 0 && ni > 0 && !A))
        return x_fail(trnsciErrorInvalidValue, "%s: %s is NULL (%lld)", fn, !info ? "info" : "A",
                      0LL);
    trn_client *c = trn_solver_begin(handle, &st);
    Trnsci__V1__BufferRef ref;
    if (!c || trn_solver_ref(c, info, "Xgetrf: info", &ref, &st) ||
        (mi > 0 && ni > 0 && trn_solver_ref(c, A, "Xgetrf: A", &ref, &st)))
        return st;
    /* Zero the high halves first: this also checks ipiv before the LU is
     * queued, so a bad ipiv queues nothing. */
    if (np > 0) {
        const trnsciError_t e = trnsciMemsetAsync(ipiv, 0, np * sizeof(int64_t), s);
        if (e != trnsciSuccess)
            return x_runtime(e, "Xgetrf: ipiv");
    }
    /* No pivots to write (ipiv NULL, or an empty matrix): unpivoted. */
    int *piv32 = np > 0 ? (int *)bufferOnDevice : NULL;
    switch (t) {
    case X_S: st = trnsolverDnSgetrf(handle, mi, ni, A, ldai, NULL, piv32, info); break;
    case X_D: st = trnsolverDnDgetrf(handle, mi, ni, A, ldai, NULL, piv32, info); break;
    case X_C: st = trnsolverDnCgetrf(handle, mi, ni, A, ldai, NULL, piv32, info); break;
    default: st = trnsolverDnZgetrf(handle, mi, ni, A, ldai, NULL, piv32, info); break;
    }
    if (st != TRNSOLVER_STATUS_SUCCESS || np == 0)
        return st;
    const trnsciError_t e = trnsciMemcpy2DAsync(ipiv, sizeof(int64_t), piv32, sizeof(int32_t),
                                                sizeof(int32_t), np, trnsciMemcpyDeviceToDevice, s);
    if (e != trnsciSuccess)
        return x_runtime(e, "Xgetrf: widening the pivots into ipiv");
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnXgetrs(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                    trnblasOperation_t trans, int64_t n, int64_t nrhs,
                                    trnsciDataType_t dataTypeA, const void *A, int64_t lda,
                                    const int64_t *ipiv, trnsciDataType_t dataTypeB, void *B,
                                    int64_t ldb, int *info) {
    const char *fn = "Xgetrs";
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    if (x_begin(handle, params, fn, &st))
        return st;
    int ni, nr, ldai, ldbi;
    const int t = x_type(fn, dataTypeA, &st);
    if (t < 0 || x_same(fn, "dataTypeB", dataTypeB, dataTypeA, &st) ||
        x_dim(fn, "n", n, &ni, &st) || x_dim(fn, "nrhs", nrhs, &nr, &st) ||
        x_dim(fn, "lda", lda, &ldai, &st) || x_dim(fn, "ldb", ldb, &ldbi, &st))
        return st;
    const trnsciStream_t s = handle->stream;
    int *piv32 = NULL;
    if (ipiv && ni > 0) {
        trnsciError_t e = trnsciMallocAsync((void **)&piv32, (size_t)ni * sizeof(int32_t), s);
        if (e != trnsciSuccess)
            return trn_solver_status(e);
        /* The low half of each pivot (valid pivots are in [1, n]). */
        e = trnsciMemcpy2DAsync(piv32, sizeof(int32_t), ipiv, sizeof(int64_t), sizeof(int32_t),
                                (size_t)ni, trnsciMemcpyDeviceToDevice, s);
        if (e != trnsciSuccess) {
            const trnsolverStatus_t r = x_runtime(e, "Xgetrs: ipiv");
            x_saved v;
            x_save(&v);
            (void)trnsciFreeAsync(piv32, s);
            x_restore(&v); /* the free's outcome does not replace it */
            return r;
        }
    }
    switch (t) {
    case X_S: st = trnsolverDnSgetrs(handle, trans, ni, nr, A, ldai, piv32, B, ldbi, info); break;
    case X_D: st = trnsolverDnDgetrs(handle, trans, ni, nr, A, ldai, piv32, B, ldbi, info); break;
    case X_C: st = trnsolverDnCgetrs(handle, trans, ni, nr, A, ldai, piv32, B, ldbi, info); break;
    default: st = trnsolverDnZgetrs(handle, trans, ni, nr, A, ldai, piv32, B, ldbi, info); break;
    }
    if (piv32) {
        /* Keep the routine's error if it failed. */
        x_saved v;
        x_save(&v);
        const trnsciError_t e = trnsciFreeAsync(piv32, s);
        if (st != TRNSOLVER_STATUS_SUCCESS)
            x_restore(&v);
        else if (e != trnsciSuccess)
            return trn_solver_status(e);
    }
    return st;
}

/* ---- QR --------------------------------------------------------------------------- */

static int geqrf_args(trnsolverDnHandle_t handle, trnsolverDnParams_t params, const char *fn,
                      int64_t m, int64_t n, trnsciDataType_t dataTypeA, int64_t lda,
                      trnsciDataType_t dataTypeTau, trnsciDataType_t computeType, int *mi, int *ni,
                      int *ldai, trnsolverStatus_t *st) {
    if (x_begin(handle, params, fn, st))
        return -1;
    const int t = x_type(fn, dataTypeA, st);
    if (t < 0 || x_same(fn, "dataTypeTau", dataTypeTau, dataTypeA, st) ||
        x_same(fn, "computeType", computeType, dataTypeA, st) || x_dim(fn, "m", m, mi, st) ||
        x_dim(fn, "n", n, ni, st) || x_dim(fn, "lda", lda, ldai, st))
        return -1;
    return t;
}

trnsolverStatus_t trnsolverDnXgeqrf_bufferSize(trnsolverDnHandle_t handle,
                                               trnsolverDnParams_t params, int64_t m, int64_t n,
                                               trnsciDataType_t dataTypeA, const void *A,
                                               int64_t lda, trnsciDataType_t dataTypeTau,
                                               const void *tau, trnsciDataType_t computeType,
                                               size_t *workspaceInBytesOnDevice,
                                               size_t *workspaceInBytesOnHost) {
    (void)A, (void)tau;
    const char *fn = "Xgeqrf_bufferSize";
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    int mi, ni, ldai;
    if (geqrf_args(handle, params, fn, m, n, dataTypeA, lda, dataTypeTau, computeType, &mi, &ni,
                   &ldai, &st) < 0)
        return st;
    return x_sizes(fn, 0, workspaceInBytesOnDevice, workspaceInBytesOnHost);
}

trnsolverStatus_t trnsolverDnXgeqrf(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                    int64_t m, int64_t n, trnsciDataType_t dataTypeA, void *A,
                                    int64_t lda, trnsciDataType_t dataTypeTau, void *tau,
                                    trnsciDataType_t computeType, void *bufferOnDevice,
                                    size_t workspaceInBytesOnDevice, void *bufferOnHost,
                                    size_t workspaceInBytesOnHost, int *info) {
    (void)bufferOnDevice, (void)workspaceInBytesOnDevice, (void)bufferOnHost,
        (void)workspaceInBytesOnHost;
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    int mi, ni, ldai;
    const int t = geqrf_args(handle, params, "Xgeqrf", m, n, dataTypeA, lda, dataTypeTau,
                             computeType, &mi, &ni, &ldai, &st);
    switch (t) {
    case X_S: return trnsolverDnSgeqrf(handle, mi, ni, A, ldai, tau, NULL, 0, info);
    case X_D: return trnsolverDnDgeqrf(handle, mi, ni, A, ldai, tau, NULL, 0, info);
    case X_C: return trnsolverDnCgeqrf(handle, mi, ni, A, ldai, tau, NULL, 0, info);
    case X_Z: return trnsolverDnZgeqrf(handle, mi, ni, A, ldai, tau, NULL, 0, info);
    default: return st;
    }
}

/* ---- eigenproblem ----------------------------------------------------------------- */

static int syevd_args(trnsolverDnHandle_t handle, trnsolverDnParams_t params, const char *fn,
                      int64_t n, trnsciDataType_t dataTypeA, int64_t lda,
                      trnsciDataType_t dataTypeW, trnsciDataType_t computeType, int *ni, int *ldai,
                      trnsolverStatus_t *st) {
    if (x_begin(handle, params, fn, st))
        return -1;
    const int t = x_type(fn, dataTypeA, st);
    if (t < 0 || x_same(fn, "dataTypeW", dataTypeW, real_of(dataTypeA), st) ||
        x_same(fn, "computeType", computeType, dataTypeA, st) || x_dim(fn, "n", n, ni, st) ||
        x_dim(fn, "lda", lda, ldai, st))
        return -1;
    return t;
}

trnsolverStatus_t trnsolverDnXsyevd_bufferSize(
    trnsolverDnHandle_t handle, trnsolverDnParams_t params, trnsolverEigMode_t jobz,
    trnblasFillMode_t uplo, int64_t n, trnsciDataType_t dataTypeA, const void *A, int64_t lda,
    trnsciDataType_t dataTypeW, const void *W, trnsciDataType_t computeType,
    size_t *workspaceInBytesOnDevice, size_t *workspaceInBytesOnHost) {
    (void)jobz, (void)uplo, (void)A, (void)W;
    const char *fn = "Xsyevd_bufferSize";
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    int ni, ldai;
    if (syevd_args(handle, params, fn, n, dataTypeA, lda, dataTypeW, computeType, &ni, &ldai, &st) <
        0)
        return st;
    return x_sizes(fn, 0, workspaceInBytesOnDevice, workspaceInBytesOnHost);
}

trnsolverStatus_t trnsolverDnXsyevd(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                    trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int64_t n,
                                    trnsciDataType_t dataTypeA, void *A, int64_t lda,
                                    trnsciDataType_t dataTypeW, void *W,
                                    trnsciDataType_t computeType, void *bufferOnDevice,
                                    size_t workspaceInBytesOnDevice, void *bufferOnHost,
                                    size_t workspaceInBytesOnHost, int *info) {
    (void)bufferOnDevice, (void)workspaceInBytesOnDevice, (void)bufferOnHost,
        (void)workspaceInBytesOnHost;
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    int ni, ldai;
    const int t = syevd_args(handle, params, "Xsyevd", n, dataTypeA, lda, dataTypeW, computeType,
                             &ni, &ldai, &st);
    switch (t) {
    case X_S: return trnsolverDnSsyevd(handle, jobz, uplo, ni, A, ldai, W, NULL, 0, info);
    case X_D: return trnsolverDnDsyevd(handle, jobz, uplo, ni, A, ldai, W, NULL, 0, info);
    case X_C: return trnsolverDnCheevd(handle, jobz, uplo, ni, A, ldai, W, NULL, 0, info);
    case X_Z: return trnsolverDnZheevd(handle, jobz, uplo, ni, A, ldai, W, NULL, 0, info);
    default: return st;
    }
}

/* ---- SVD -------------------------------------------------------------------------- */

typedef struct svd_dims {
    int m, n, lda, ldu, ldvt;
} svd_dims;

/* The SVD routines' checks; the right factor's type and leading dimension
 * are named vt (VT for Xgesvd, V for Xgesvdp) in the messages. */
static int svd_args(trnsolverDnHandle_t handle, trnsolverDnParams_t params, const char *fn,
                    int64_t m, int64_t n, trnsciDataType_t dataTypeA, int64_t lda,
                    trnsciDataType_t dataTypeS, trnsciDataType_t dataTypeU, int64_t ldu,
                    trnsciDataType_t dataTypeVT, int64_t ldvt, trnsciDataType_t computeType,
                    const char *vt_type, const char *vt_ld, svd_dims *d, trnsolverStatus_t *st) {
    if (x_begin(handle, params, fn, st))
        return -1;
    const int t = x_type(fn, dataTypeA, st);
    if (t < 0 || x_same(fn, "dataTypeS", dataTypeS, real_of(dataTypeA), st) ||
        x_same(fn, "dataTypeU", dataTypeU, dataTypeA, st) ||
        x_same(fn, vt_type, dataTypeVT, dataTypeA, st) ||
        x_same(fn, "computeType", computeType, dataTypeA, st) || x_dim(fn, "m", m, &d->m, st) ||
        x_dim(fn, "n", n, &d->n, st) || x_dim(fn, "lda", lda, &d->lda, st) ||
        x_dim(fn, "ldu", ldu, &d->ldu, st) || x_dim(fn, vt_ld, ldvt, &d->ldvt, st))
        return -1;
    return t;
}

static int gesvd_args(trnsolverDnHandle_t handle, trnsolverDnParams_t params, const char *fn,
                      int64_t m, int64_t n, trnsciDataType_t dataTypeA, int64_t lda,
                      trnsciDataType_t dataTypeS, trnsciDataType_t dataTypeU, int64_t ldu,
                      trnsciDataType_t dataTypeVT, int64_t ldvt, trnsciDataType_t computeType,
                      svd_dims *d, trnsolverStatus_t *st) {
    return svd_args(handle, params, fn, m, n, dataTypeA, lda, dataTypeS, dataTypeU, ldu, dataTypeVT,
                    ldvt, computeType, "dataTypeVT", "ldvt", d, st);
}

trnsolverStatus_t
trnsolverDnXgesvd_bufferSize(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                             signed char jobu, signed char jobvt, int64_t m, int64_t n,
                             trnsciDataType_t dataTypeA, const void *A, int64_t lda,
                             trnsciDataType_t dataTypeS, const void *S, trnsciDataType_t dataTypeU,
                             const void *U, int64_t ldu, trnsciDataType_t dataTypeVT,
                             const void *VT, int64_t ldvt, trnsciDataType_t computeType,
                             size_t *workspaceInBytesOnDevice, size_t *workspaceInBytesOnHost) {
    (void)jobu, (void)jobvt, (void)A, (void)S, (void)U, (void)VT;
    const char *fn = "Xgesvd_bufferSize";
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    svd_dims d;
    if (gesvd_args(handle, params, fn, m, n, dataTypeA, lda, dataTypeS, dataTypeU, ldu, dataTypeVT,
                   ldvt, computeType, &d, &st) < 0)
        return st;
    return x_sizes(fn, 0, workspaceInBytesOnDevice, workspaceInBytesOnHost);
}

trnsolverStatus_t trnsolverDnXgesvd(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                    signed char jobu, signed char jobvt, int64_t m, int64_t n,
                                    trnsciDataType_t dataTypeA, void *A, int64_t lda,
                                    trnsciDataType_t dataTypeS, void *S, trnsciDataType_t dataTypeU,
                                    void *U, int64_t ldu, trnsciDataType_t dataTypeVT, void *VT,
                                    int64_t ldvt, trnsciDataType_t computeType,
                                    void *bufferOnDevice, size_t workspaceInBytesOnDevice,
                                    void *bufferOnHost, size_t workspaceInBytesOnHost, int *info) {
    (void)bufferOnDevice, (void)workspaceInBytesOnDevice, (void)bufferOnHost,
        (void)workspaceInBytesOnHost;
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    svd_dims d;
    const int t = gesvd_args(handle, params, "Xgesvd", m, n, dataTypeA, lda, dataTypeS, dataTypeU,
                             ldu, dataTypeVT, ldvt, computeType, &d, &st);
    switch (t) {
    case X_S:
        return trnsolverDnSgesvd(handle, jobu, jobvt, d.m, d.n, A, d.lda, S, U, d.ldu, VT, d.ldvt,
                                 NULL, 0, NULL, info);
    case X_D:
        return trnsolverDnDgesvd(handle, jobu, jobvt, d.m, d.n, A, d.lda, S, U, d.ldu, VT, d.ldvt,
                                 NULL, 0, NULL, info);
    case X_C:
        return trnsolverDnCgesvd(handle, jobu, jobvt, d.m, d.n, A, d.lda, S, U, d.ldu, VT, d.ldvt,
                                 NULL, 0, NULL, info);
    case X_Z:
        return trnsolverDnZgesvd(handle, jobu, jobvt, d.m, d.n, A, d.lda, S, U, d.ldu, VT, d.ldvt,
                                 NULL, 0, NULL, info);
    default: return st;
    }
}

/* ---- batched eigenproblem --------------------------------------------------------- */

/* The matrices of XsyevBatched lie one after another (A_i at A + i lda n,
 * W_i at W + i n, info[i]); each is queued as one syevd op. The first and
 * the last byte of each span must lie in one device allocation, checked
 * before anything is queued, so that a batch is queued whole or not at all
 * (the other rules are the same for every matrix, so the first op's
 * validation settles them). */
static int span_check(trn_client *c, const char *fn, const char *arg, const void *p, size_t bytes,
                      trnsolverStatus_t *st) {
    if (bytes == 0)
        return 0;
    char what[64];
    snprintf(what, sizeof(what), "%s: %s", fn, arg);
    Trnsci__V1__BufferRef first, last;
    if (trn_solver_ref(c, p, what, &first, st) ||
        trn_solver_ref(c, (const char *)p + bytes - 1, what, &last, st))
        return -1;
    if (!first.buffer_id || first.buffer_id != last.buffer_id) {
        *st = trn_solver_status(trn_fail(trnsciErrorInvalidValue,
                                         "%s: %s: the batch (%zu bytes) does not lie in one "
                                         "device allocation",
                                         fn, arg, bytes));
        return -1;
    }
    return 0;
}

static size_t elem_size(int t) {
    return t == X_S ? 4 : (t == X_D || t == X_C) ? 8 : 16;
}

static int batch_args(trnsolverDnHandle_t handle, trnsolverDnParams_t params, const char *fn,
                      int64_t n, trnsciDataType_t dataTypeA, int64_t lda,
                      trnsciDataType_t dataTypeW, trnsciDataType_t computeType, int64_t batchSize,
                      int *ni, int *ldai, trnsolverStatus_t *st) {
    const int t =
        syevd_args(handle, params, fn, n, dataTypeA, lda, dataTypeW, computeType, ni, ldai, st);
    if (t < 0)
        return -1;
    if (batchSize < 0) {
        *st = x_fail(trnsciErrorInvalidValue, "%s: %s=%lld must be >= 0", fn, "batchSize",
                     (long long)batchSize);
        return -1;
    }
    if (*ldai < *ni) {
        *st = x_fail(trnsciErrorInvalidValue, "%s: %s=%lld must be >= n", fn, "lda",
                     (long long)*ldai);
        return -1;
    }
    return t;
}

trnsolverStatus_t trnsolverDnXsyevBatched_bufferSize(
    trnsolverDnHandle_t handle, trnsolverDnParams_t params, trnsolverEigMode_t jobz,
    trnblasFillMode_t uplo, int64_t n, trnsciDataType_t dataTypeA, const void *A, int64_t lda,
    trnsciDataType_t dataTypeW, const void *W, trnsciDataType_t computeType,
    size_t *workspaceInBytesOnDevice, size_t *workspaceInBytesOnHost, int64_t batchSize) {
    (void)jobz, (void)uplo, (void)A, (void)W;
    const char *fn = "XsyevBatched_bufferSize";
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    int ni, ldai;
    if (batch_args(handle, params, fn, n, dataTypeA, lda, dataTypeW, computeType, batchSize, &ni,
                   &ldai, &st) < 0)
        return st;
    return x_sizes(fn, 0, workspaceInBytesOnDevice, workspaceInBytesOnHost);
}

trnsolverStatus_t trnsolverDnXsyevBatched(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                          trnsolverEigMode_t jobz, trnblasFillMode_t uplo,
                                          int64_t n, trnsciDataType_t dataTypeA, void *A,
                                          int64_t lda, trnsciDataType_t dataTypeW, void *W,
                                          trnsciDataType_t computeType, void *bufferOnDevice,
                                          size_t workspaceInBytesOnDevice, void *bufferOnHost,
                                          size_t workspaceInBytesOnHost, int *info,
                                          int64_t batchSize) {
    (void)bufferOnDevice, (void)workspaceInBytesOnDevice, (void)bufferOnHost,
        (void)workspaceInBytesOnHost;
    const char *fn = "XsyevBatched";
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    int ni, ldai;
    const int t = batch_args(handle, params, fn, n, dataTypeA, lda, dataTypeW, computeType,
                             batchSize, &ni, &ldai, &st);
    if (t < 0)
        return st;
    if (batchSize == 0 || ni == 0) {
        trn_ok();
        return TRNSOLVER_STATUS_SUCCESS;
    }
    const size_t es = elem_size(t), rs = (t == X_S || t == X_C) ? 4 : 8;
    size_t mat, abytes, wbytes, ibytes;
    if (__builtin_mul_overflow((size_t)ldai, (size_t)ni, &mat) ||
        __builtin_mul_overflow(mat, es, &mat) ||
        __builtin_mul_overflow(mat, (size_t)batchSize, &abytes) ||
        __builtin_mul_overflow((size_t)ni * rs, (size_t)batchSize, &wbytes) ||
        __builtin_mul_overflow(sizeof(int), (size_t)batchSize, &ibytes))
        return x_fail(trnsciErrorInvalidValue, "%s: %s=%lld: the batch overflows the address space",
                      fn, "batchSize", (long long)batchSize);
    trn_client *c = trn_solver_begin(handle, &st);
    if (!c || span_check(c, fn, "A", A, abytes, &st) || span_check(c, fn, "W", W, wbytes, &st) ||
        span_check(c, fn, "info", info, ibytes, &st))
        return st;
    for (int64_t i = 0; i < batchSize; i++) {
        void *a = (char *)A + (size_t)i * mat;
        void *w = (char *)W + (size_t)i * (size_t)ni * rs;
        int *inf = info + i;
        switch (t) {
        case X_S: st = trnsolverDnSsyevd(handle, jobz, uplo, ni, a, ldai, w, NULL, 0, inf); break;
        case X_D: st = trnsolverDnDsyevd(handle, jobz, uplo, ni, a, ldai, w, NULL, 0, inf); break;
        case X_C: st = trnsolverDnCheevd(handle, jobz, uplo, ni, a, ldai, w, NULL, 0, inf); break;
        default: st = trnsolverDnZheevd(handle, jobz, uplo, ni, a, ldai, w, NULL, 0, inf); break;
        }
        if (st != TRNSOLVER_STATUS_SUCCESS)
            return st;
    }
    return TRNSOLVER_STATUS_SUCCESS;
}

/* ---- selected eigenpairs ---------------------------------------------------------- */

/* Xsyevdx: syevd on a copy of A in the device workspace (Z, n x n with
 * leading dimension n, then the n eigenvalues), and the selected pairs
 * copied to the front of W and A in stream order. RANGE_ALL needs no
 * workspace and runs syevd in place. RANGE_V must know how many
 * eigenvalues lie in (vl, vu] to return h_meig: it waits for the handle's
 * stream and reads the eigenvalues back, so it is synchronous (as any
 * routine that returns a count on the host). */
static size_t syevdx_bytes(int t, int n, trnsolverEigRange_t range) {
    if (range == TRNSOLVER_EIG_RANGE_ALL)
        return 0;
    const size_t rs = (t == X_S || t == X_C) ? 4 : 8;
    return (size_t)n * (size_t)n * elem_size(t) + (size_t)n * rs;
}

static int syevdx_args(trnsolverDnHandle_t handle, trnsolverDnParams_t params, const char *fn,
                       trnsolverEigMode_t jobz, trnsolverEigRange_t range, trnblasFillMode_t uplo,
                       int64_t n, trnsciDataType_t dataTypeA, int64_t lda, const void *vl,
                       const void *vu, int64_t il, int64_t iu, const int64_t *h_meig,
                       trnsciDataType_t dataTypeW, trnsciDataType_t computeType, int *ni, int *ldai,
                       trnsolverStatus_t *st) {
    const int t =
        syevd_args(handle, params, fn, n, dataTypeA, lda, dataTypeW, computeType, ni, ldai, st);
    if (t < 0)
        return -1;
    if (jobz != TRNSOLVER_EIG_MODE_NOVECTOR && jobz != TRNSOLVER_EIG_MODE_VECTOR) {
        *st = x_fail(trnsciErrorInvalidValue, "%s: %s=%lld must be NOVECTOR (0) or VECTOR (1)", fn,
                     "jobz", (long long)jobz);
        return -1;
    }
    if (x_uplo(fn, uplo, st))
        return -1;
    if (x_lda(fn, *ldai, *ni, st))
        return -1;
    if (!h_meig) {
        *st = x_fail(trnsciErrorInvalidValue, "%s: %s is NULL (%lld)", fn, "h_meig", 0LL);
        return -1;
    }
    switch (range) {
    case TRNSOLVER_EIG_RANGE_ALL: break;
    case TRNSOLVER_EIG_RANGE_I:
        if (*ni > 0 ? !(il >= 1 && il <= *ni) : il != 1) {
            *st = x_fail(trnsciErrorInvalidValue, "%s: %s=%lld must be in [1, max(1, n)]", fn, "il",
                         (long long)il);
            return -1;
        }
        if (*ni > 0 ? !(iu >= il && iu <= *ni) : iu != 0) {
            *st = x_fail(trnsciErrorInvalidValue, "%s: %s=%lld must be in [il, n] (0 when n = 0)",
                         fn, "iu", (long long)iu);
            return -1;
        }
        break;
    case TRNSOLVER_EIG_RANGE_V: {
        if (!vl || !vu) {
            *st = x_fail(trnsciErrorInvalidValue, "%s: %s is NULL (%lld)", fn, !vl ? "vl" : "vu",
                         0LL);
            return -1;
        }
        const double l = (t == X_S || t == X_C) ? *(const float *)vl : *(const double *)vl;
        const double u = (t == X_S || t == X_C) ? *(const float *)vu : *(const double *)vu;
        if (!(l < u)) {
            *st = trn_solver_status(trn_fail(trnsciErrorInvalidValue,
                                             "%s: vu=%g must be greater than vl=%g", fn, u, l));
            return -1;
        }
        break;
    }
    default:
        *st =
            x_fail(trnsciErrorInvalidValue, "%s: %s=%lld must be TRNSOLVER_EIG_RANGE_ALL, _I or _V",
                   fn, "range", (long long)range);
        return -1;
    }
    return t;
}

trnsolverStatus_t trnsolverDnXsyevdx_bufferSize(
    trnsolverDnHandle_t handle, trnsolverDnParams_t params, trnsolverEigMode_t jobz,
    trnsolverEigRange_t range, trnblasFillMode_t uplo, int64_t n, trnsciDataType_t dataTypeA,
    const void *A, int64_t lda, void *vl, void *vu, int64_t il, int64_t iu, int64_t *h_meig,
    trnsciDataType_t dataTypeW, const void *W, trnsciDataType_t computeType,
    size_t *workspaceInBytesOnDevice, size_t *workspaceInBytesOnHost) {
    (void)A, (void)W;
    const char *fn = "Xsyevdx_bufferSize";
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    int ni, ldai;
    int64_t meig_dummy = 0;
    /* h_meig is an output of Xsyevdx only. */
    const int t =
        syevdx_args(handle, params, fn, jobz, range, uplo, n, dataTypeA, lda, vl, vu, il, iu,
                    h_meig ? h_meig : &meig_dummy, dataTypeW, computeType, &ni, &ldai, &st);
    if (t < 0)
        return st;
    return x_sizes(fn, syevdx_bytes(t, ni, range), workspaceInBytesOnDevice,
                   workspaceInBytesOnHost);
}

trnsolverStatus_t trnsolverDnXsyevdx(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                     trnsolverEigMode_t jobz, trnsolverEigRange_t range,
                                     trnblasFillMode_t uplo, int64_t n, trnsciDataType_t dataTypeA,
                                     void *A, int64_t lda, void *vl, void *vu, int64_t il,
                                     int64_t iu, int64_t *h_meig, trnsciDataType_t dataTypeW,
                                     void *W, trnsciDataType_t computeType, void *bufferOnDevice,
                                     size_t workspaceInBytesOnDevice, void *bufferOnHost,
                                     size_t workspaceInBytesOnHost, int *info) {
    (void)bufferOnHost, (void)workspaceInBytesOnHost;
    const char *fn = "Xsyevdx";
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    int ni, ldai;
    const int t = syevdx_args(handle, params, fn, jobz, range, uplo, n, dataTypeA, lda, vl, vu, il,
                              iu, h_meig, dataTypeW, computeType, &ni, &ldai, &st);
    if (t < 0)
        return st;
    const size_t need = syevdx_bytes(t, ni, range);
    if (x_workspace(fn, need, bufferOnDevice, workspaceInBytesOnDevice, &st))
        return st;
    const int whole = range == TRNSOLVER_EIG_RANGE_ALL || ni == 0;
    void *z = whole ? A : bufferOnDevice;
    const int ldz = whole ? ldai : ni;
    const size_t es = elem_size(t), rs = (t == X_S || t == X_C) ? 4 : 8;
    void *wz = whole ? W : (char *)bufferOnDevice + (size_t)ni * (size_t)ni * es;
    const trnsciStream_t s = handle->stream;
    if (!whole) {
        const trnsciError_t e =
            trnsciMemcpy2DAsync(z, (size_t)ni * es, A, (size_t)ldai * es, (size_t)ni * es,
                                (size_t)ni, trnsciMemcpyDeviceToDevice, s);
        if (e != trnsciSuccess)
            return x_runtime(e, "Xsyevdx: copying A into the workspace");
    }
    switch (t) {
    case X_S: st = trnsolverDnSsyevd(handle, jobz, uplo, ni, z, ldz, wz, NULL, 0, info); break;
    case X_D: st = trnsolverDnDsyevd(handle, jobz, uplo, ni, z, ldz, wz, NULL, 0, info); break;
    case X_C: st = trnsolverDnCheevd(handle, jobz, uplo, ni, z, ldz, wz, NULL, 0, info); break;
    default: st = trnsolverDnZheevd(handle, jobz, uplo, ni, z, ldz, wz, NULL, 0, info); break;
    }
    if (st != TRNSOLVER_STATUS_SUCCESS)
        return st;
    if (whole) {
        *h_meig = ni;
        return TRNSOLVER_STATUS_SUCCESS;
    }
    int64_t first = 0, meig = 0;
    if (range == TRNSOLVER_EIG_RANGE_I) {
        first = il - 1;
        meig = iu - il + 1;
    } else {
        /* The count needs the eigenvalues: wait for them. */
        trnsciError_t e = trnsciStreamSynchronize(s);
        double *w = e == trnsciSuccess ? malloc((size_t)ni * sizeof(double)) : NULL;
        void *raw = w ? malloc((size_t)ni * rs) : NULL;
        int inf = 0;
        if (e == trnsciSuccess && !raw)
            e = trn_fail(trnsciErrorMemoryAllocation, "Xsyevdx: out of host memory");
        if (e == trnsciSuccess)
            e = trnsciMemcpy(raw, wz, (size_t)ni * rs, trnsciMemcpyDeviceToHost);
        if (e == trnsciSuccess)
            e = trnsciMemcpy(&inf, info, sizeof(inf), trnsciMemcpyDeviceToHost);
        if (e != trnsciSuccess) {
            free(raw);
            free(w);
            return x_runtime(e, "Xsyevdx: reading the eigenvalues back");
        }
        const double l = rs == 4 ? *(const float *)vl : *(const double *)vl;
        const double u = rs == 4 ? *(const float *)vu : *(const double *)vu;
        for (int i = 0; i < ni; i++)
            w[i] = rs == 4 ? ((const float *)raw)[i] : ((const double *)raw)[i];
        /* Ascending: the selection is one run; none when syevd failed. */
        first = 0;
        while (inf == 0 && first < ni && !(w[first] > l))
            first++;
        meig = 0;
        while (inf == 0 && first + meig < ni && w[first + meig] <= u)
            meig++;
        free(raw);
        free(w);
    }
    *h_meig = meig;
    if (meig == 0) {
        trn_ok();
        return TRNSOLVER_STATUS_SUCCESS;
    }
    trnsciError_t e = trnsciMemcpyAsync(W, (char *)wz + (size_t)first * rs, (size_t)meig * rs,
                                        trnsciMemcpyDeviceToDevice, s);
    if (e == trnsciSuccess && jobz == TRNSOLVER_EIG_MODE_VECTOR)
        e = trnsciMemcpy2DAsync(A, (size_t)ldai * es, (char *)z + (size_t)first * (size_t)ni * es,
                                (size_t)ni * es, (size_t)ni * es, (size_t)meig,
                                trnsciMemcpyDeviceToDevice, s);
    if (e != trnsciSuccess)
        return x_runtime(e, "Xsyevdx: copying the selected eigenpairs");
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

/* ---- SVD by Jacobi (Xgesvdp) ------------------------------------------------------ */

/* Xgesvdp runs gesvdj (one-sided Jacobi, default tolerance and sweeps) with
 * a gesvdjInfo_t of its own, and returns gesvdj's residual as
 * *h_err_sigma; reading it waits for the device, as cuSOLVER's host output
 * does. */
static int gesvdp_args(trnsolverDnHandle_t handle, trnsolverDnParams_t params, const char *fn,
                       int64_t m, int64_t n, trnsciDataType_t dataTypeA, int64_t lda,
                       trnsciDataType_t dataTypeS, trnsciDataType_t dataTypeU, int64_t ldu,
                       trnsciDataType_t dataTypeV, int64_t ldv, trnsciDataType_t computeType,
                       svd_dims *d, trnsolverStatus_t *st) {
    return svd_args(handle, params, fn, m, n, dataTypeA, lda, dataTypeS, dataTypeU, ldu, dataTypeV,
                    ldv, computeType, "dataTypeV", "ldv", d, st);
}

trnsolverStatus_t
trnsolverDnXgesvdp_bufferSize(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                              trnsolverEigMode_t jobz, int econ, int64_t m, int64_t n,
                              trnsciDataType_t dataTypeA, const void *A, int64_t lda,
                              trnsciDataType_t dataTypeS, const void *S, trnsciDataType_t dataTypeU,
                              const void *U, int64_t ldu, trnsciDataType_t dataTypeV, const void *V,
                              int64_t ldv, trnsciDataType_t computeType,
                              size_t *workspaceInBytesOnDevice, size_t *workspaceInBytesOnHost) {
    (void)jobz, (void)econ, (void)A, (void)S, (void)U, (void)V;
    const char *fn = "Xgesvdp_bufferSize";
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    svd_dims d;
    if (gesvdp_args(handle, params, fn, m, n, dataTypeA, lda, dataTypeS, dataTypeU, ldu, dataTypeV,
                    ldv, computeType, &d, &st) < 0)
        return st;
    return x_sizes(fn, 0, workspaceInBytesOnDevice, workspaceInBytesOnHost);
}

trnsolverStatus_t
trnsolverDnXgesvdp(trnsolverDnHandle_t handle, trnsolverDnParams_t params, trnsolverEigMode_t jobz,
                   int econ, int64_t m, int64_t n, trnsciDataType_t dataTypeA, void *A, int64_t lda,
                   trnsciDataType_t dataTypeS, void *S, trnsciDataType_t dataTypeU, void *U,
                   int64_t ldu, trnsciDataType_t dataTypeV, void *V, int64_t ldv,
                   trnsciDataType_t computeType, void *bufferOnDevice,
                   size_t workspaceInBytesOnDevice, void *bufferOnHost,
                   size_t workspaceInBytesOnHost, int *d_info, double *h_err_sigma) {
    (void)bufferOnDevice, (void)workspaceInBytesOnDevice, (void)bufferOnHost,
        (void)workspaceInBytesOnHost;
    const char *fn = "Xgesvdp";
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    svd_dims d;
    const int t = gesvdp_args(handle, params, fn, m, n, dataTypeA, lda, dataTypeS, dataTypeU, ldu,
                              dataTypeV, ldv, computeType, &d, &st);
    if (t < 0)
        return st;
    if (!h_err_sigma)
        return x_fail(trnsciErrorInvalidValue, "%s: %s is NULL (%lld)", fn, "h_err_sigma", 0LL);
    gesvdjInfo_t j = NULL;
    st = trnsolverDnCreateGesvdjInfo(&j);
    if (st != TRNSOLVER_STATUS_SUCCESS)
        return st;
    switch (t) {
    case X_S:
        st = trnsolverDnSgesvdj(handle, jobz, econ, d.m, d.n, A, d.lda, S, U, d.ldu, V, d.ldvt,
                                NULL, 0, d_info, j);
        break;
    case X_D:
        st = trnsolverDnDgesvdj(handle, jobz, econ, d.m, d.n, A, d.lda, S, U, d.ldu, V, d.ldvt,
                                NULL, 0, d_info, j);
        break;
    case X_C:
        st = trnsolverDnCgesvdj(handle, jobz, econ, d.m, d.n, A, d.lda, S, U, d.ldu, V, d.ldvt,
                                NULL, 0, d_info, j);
        break;
    default:
        st = trnsolverDnZgesvdj(handle, jobz, econ, d.m, d.n, A, d.lda, S, U, d.ldu, V, d.ldvt,
                                NULL, 0, d_info, j);
        break;
    }
    if (st == TRNSOLVER_STATUS_SUCCESS)
        st = trnsolverDnXgesvdjGetResidual(handle, j, h_err_sigma);
    x_saved v;
    x_save(&v);
    (void)trnsolverDnDestroyGesvdjInfo(j);
    if (st != TRNSOLVER_STATUS_SUCCESS)
        x_restore(&v); /* the routine's error stays */
    else
        trn_ok();
    return st;
}

/* ---- rank-k SVD (Xgesvdr) --------------------------------------------------------- */

/* Xgesvdr: the exact SVD by gesvdj (economy size) of A in place, into the
 * device workspace (U: m x min(m,n), V: n x min(m,n), then the singular
 * values), and the leading k triplets copied to Srand, Urand, Vrand in
 * stream order. The randomised method's p and niters are checked and do
 * not change the result: it is the exact rank-k truncation. */
typedef struct svdr_dims {
    int m, n, k, lda, ldu, ldv;
} svdr_dims;

static size_t svdr_bytes(int t, int m, int n) {
    const size_t mn = (size_t)(m < n ? m : n), rs = (t == X_S || t == X_C) ? 4 : 8;
    return ((size_t)m + (size_t)n) * mn * elem_size(t) + mn * rs;
}

static int gesvdr_args(trnsolverDnHandle_t handle, trnsolverDnParams_t params, const char *fn,
                       signed char jobu, signed char jobv, int64_t m, int64_t n, int64_t k,
                       int64_t p, int64_t niters, trnsciDataType_t dataTypeA, int64_t lda,
                       trnsciDataType_t dataTypeSrand, trnsciDataType_t dataTypeUrand,
                       int64_t ldUrand, trnsciDataType_t dataTypeVrand, int64_t ldVrand,
                       trnsciDataType_t computeType, svdr_dims *d, trnsolverStatus_t *st) {
    if (x_begin(handle, params, fn, st))
        return -1;
    const int t = x_type(fn, dataTypeA, st);
    if (t < 0 || x_same(fn, "dataTypeSrand", dataTypeSrand, real_of(dataTypeA), st) ||
        x_same(fn, "dataTypeUrand", dataTypeUrand, dataTypeA, st) ||
        x_same(fn, "dataTypeVrand", dataTypeVrand, dataTypeA, st) ||
        x_same(fn, "computeType", computeType, dataTypeA, st) || x_dim(fn, "m", m, &d->m, st) ||
        x_dim(fn, "n", n, &d->n, st) || x_dim(fn, "lda", lda, &d->lda, st) ||
        x_dim(fn, "ldUrand", ldUrand, &d->ldu, st) || x_dim(fn, "ldVrand", ldVrand, &d->ldv, st))
        return -1;
    const int64_t mn = d->m < d->n ? d->m : d->n;
    if (jobu != 'S' && jobu != 'N') {
        *st = x_fail(trnsciErrorInvalidValue, "%s: %s=%lld must be 'S' or 'N'", fn, "jobu",
                     (long long)jobu);
        return -1;
    }
    if (jobv != 'S' && jobv != 'N') {
        *st = x_fail(trnsciErrorInvalidValue, "%s: %s=%lld must be 'S' or 'N'", fn, "jobv",
                     (long long)jobv);
        return -1;
    }
    if (k < 1 || k > mn) {
        *st = x_fail(trnsciErrorInvalidValue, "%s: %s=%lld must be in [1, min(m, n)]", fn, "k",
                     (long long)k);
        return -1;
    }
    if (p < 0 || p > mn - k) {
        *st = x_fail(trnsciErrorInvalidValue, "%s: %s=%lld must be in [0, min(m, n) - k]", fn, "p",
                     (long long)p);
        return -1;
    }
    if (niters < 0) {
        *st = x_fail(trnsciErrorInvalidValue, "%s: %s=%lld must be >= 0", fn, "niters",
                     (long long)niters);
        return -1;
    }
    if (d->lda < (d->m > 1 ? d->m : 1)) {
        *st = x_fail(trnsciErrorInvalidValue, "%s: %s=%lld must be >= max(1, m)", fn, "lda",
                     (long long)d->lda);
        return -1;
    }
    if (jobu == 'S' && d->ldu < d->m) {
        *st = x_fail(trnsciErrorInvalidValue, "%s: %s=%lld must be >= m", fn, "ldUrand",
                     (long long)d->ldu);
        return -1;
    }
    if (jobv == 'S' && d->ldv < d->n) {
        *st = x_fail(trnsciErrorInvalidValue, "%s: %s=%lld must be >= n", fn, "ldVrand",
                     (long long)d->ldv);
        return -1;
    }
    d->k = (int)k;
    return t;
}

trnsolverStatus_t
trnsolverDnXgesvdr_bufferSize(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                              signed char jobu, signed char jobv, int64_t m, int64_t n, int64_t k,
                              int64_t p, int64_t niters, trnsciDataType_t dataTypeA, const void *A,
                              int64_t lda, trnsciDataType_t dataTypeSrand, const void *Srand,
                              trnsciDataType_t dataTypeUrand, const void *Urand, int64_t ldUrand,
                              trnsciDataType_t dataTypeVrand, const void *Vrand, int64_t ldVrand,
                              trnsciDataType_t computeType, size_t *workspaceInBytesOnDevice,
                              size_t *workspaceInBytesOnHost) {
    (void)A, (void)Srand, (void)Urand, (void)Vrand;
    const char *fn = "Xgesvdr_bufferSize";
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    svdr_dims d;
    const int t = gesvdr_args(handle, params, fn, jobu, jobv, m, n, k, p, niters, dataTypeA, lda,
                              dataTypeSrand, dataTypeUrand, ldUrand, dataTypeVrand, ldVrand,
                              computeType, &d, &st);
    if (t < 0)
        return st;
    return x_sizes(fn, svdr_bytes(t, d.m, d.n), workspaceInBytesOnDevice, workspaceInBytesOnHost);
}

trnsolverStatus_t trnsolverDnXgesvdr(
    trnsolverDnHandle_t handle, trnsolverDnParams_t params, signed char jobu, signed char jobv,
    int64_t m, int64_t n, int64_t k, int64_t p, int64_t niters, trnsciDataType_t dataTypeA, void *A,
    int64_t lda, trnsciDataType_t dataTypeSrand, void *Srand, trnsciDataType_t dataTypeUrand,
    void *Urand, int64_t ldUrand, trnsciDataType_t dataTypeVrand, void *Vrand, int64_t ldVrand,
    trnsciDataType_t computeType, void *bufferOnDevice, size_t workspaceInBytesOnDevice,
    void *bufferOnHost, size_t workspaceInBytesOnHost, int *d_info) {
    (void)bufferOnHost, (void)workspaceInBytesOnHost;
    const char *fn = "Xgesvdr";
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    svdr_dims d;
    const int t = gesvdr_args(handle, params, fn, jobu, jobv, m, n, k, p, niters, dataTypeA, lda,
                              dataTypeSrand, dataTypeUrand, ldUrand, dataTypeVrand, ldVrand,
                              computeType, &d, &st);
    if (t < 0)
        return st;
    if (x_workspace(fn, svdr_bytes(t, d.m, d.n), bufferOnDevice, workspaceInBytesOnDevice, &st))
        return st;
    const size_t es = elem_size(t), rs = (t == X_S || t == X_C) ? 4 : 8;
    const int mn = d.m < d.n ? d.m : d.n;
    char *u = bufferOnDevice, *v = u + (size_t)d.m * (size_t)mn * es,
         *s = v + (size_t)d.n * (size_t)mn * es;
    const trnsolverEigMode_t jobz =
        (jobu == 'S' || jobv == 'S') ? TRNSOLVER_EIG_MODE_VECTOR : TRNSOLVER_EIG_MODE_NOVECTOR;
    gesvdjInfo_t j = NULL;
    st = trnsolverDnCreateGesvdjInfo(&j);
    if (st != TRNSOLVER_STATUS_SUCCESS)
        return st;
    switch (t) {
    case X_S:
        st = trnsolverDnSgesvdj(handle, jobz, 1, d.m, d.n, A, d.lda, (void *)s, (void *)u, d.m,
                                (void *)v, d.n, NULL, 0, d_info, j);
        break;
    case X_D:
        st = trnsolverDnDgesvdj(handle, jobz, 1, d.m, d.n, A, d.lda, (void *)s, (void *)u, d.m,
                                (void *)v, d.n, NULL, 0, d_info, j);
        break;
    case X_C:
        st = trnsolverDnCgesvdj(handle, jobz, 1, d.m, d.n, A, d.lda, (void *)s, (void *)u, d.m,
                                (void *)v, d.n, NULL, 0, d_info, j);
        break;
    default:
        st = trnsolverDnZgesvdj(handle, jobz, 1, d.m, d.n, A, d.lda, (void *)s, (void *)u, d.m,
                                (void *)v, d.n, NULL, 0, d_info, j);
        break;
    }
    /* The info object's device record is freed after the queued op (trnsciFree
     * lets queued work finish first). */
    x_saved saved;
    x_save(&saved);
    (void)trnsolverDnDestroyGesvdjInfo(j);
    if (st != TRNSOLVER_STATUS_SUCCESS) {
        x_restore(&saved);
        return st;
    }
    const trnsciStream_t q = handle->stream;
    trnsciError_t e = trnsciMemcpyAsync(Srand, s, (size_t)d.k * rs, trnsciMemcpyDeviceToDevice, q);
    if (e == trnsciSuccess && jobu == 'S')
        e = trnsciMemcpy2DAsync(Urand, (size_t)d.ldu * es, u, (size_t)d.m * es, (size_t)d.m * es,
                                (size_t)d.k, trnsciMemcpyDeviceToDevice, q);
    if (e == trnsciSuccess && jobv == 'S')
        e = trnsciMemcpy2DAsync(Vrand, (size_t)d.ldv * es, v, (size_t)d.n * es, (size_t)d.n * es,
                                (size_t)d.k, trnsciMemcpyDeviceToDevice, q);
    if (e != trnsciSuccess)
        return x_runtime(e, "Xgesvdr: copying the leading triplets");
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

/* ---- triangular inverse (Xtrtri) -------------------------------------------------- */

/* Xtrtri has no daemon kernel of its own: it reads the diagonal back (a
 * synchronous copy: info must be known before anything is overwritten, as
 * LAPACK's trtri leaves A unchanged when a diagonal element is exactly
 * zero), solves T X = I with trnblas's trsm into the device workspace
 * (X: n x n, leading dimension n), and copies X's uplo triangle (without
 * the diagonal for a unit triangle, which is not referenced) back into A,
 * one column per copy. */
static trnsolverStatus_t blas_status(trnblasStatus_t b) {
    switch (b) {
    case TRNBLAS_STATUS_SUCCESS: return TRNSOLVER_STATUS_SUCCESS;
    case TRNBLAS_STATUS_NOT_INITIALIZED: return TRNSOLVER_STATUS_NOT_INITIALIZED;
    case TRNBLAS_STATUS_ALLOC_FAILED: return TRNSOLVER_STATUS_ALLOC_FAILED;
    case TRNBLAS_STATUS_INVALID_VALUE: return TRNSOLVER_STATUS_INVALID_VALUE;
    case TRNBLAS_STATUS_NOT_SUPPORTED: return TRNSOLVER_STATUS_NOT_SUPPORTED;
    default: return TRNSOLVER_STATUS_EXECUTION_FAILED;
    }
}

/* An element of type t is exactly zero (both parts of a complex one). */
static int is_zero(int t, const unsigned char *p) {
    switch (t) {
    case X_S: return ((const float *)p)[0] == 0.0f;
    case X_D: return ((const double *)p)[0] == 0.0;
    case X_C: return ((const float *)p)[0] == 0.0f && ((const float *)p)[1] == 0.0f;
    default: return ((const double *)p)[0] == 0.0 && ((const double *)p)[1] == 0.0;
    }
}

static int trtri_args(trnsolverDnHandle_t handle, const char *fn, trnblasFillMode_t uplo,
                      trnblasDiagType_t diag, int64_t n, trnsciDataType_t dataTypeA, int64_t lda,
                      int *ni, int *ldai, trnsolverStatus_t *st) {
    if (!trn_solver_begin(handle, st))
        return -1;
    const int t = x_type(fn, dataTypeA, st);
    if (t < 0 || x_dim(fn, "n", n, ni, st) || x_dim(fn, "lda", lda, ldai, st))
        return -1;
    if (x_uplo(fn, uplo, st))
        return -1;
    if (diag != TRNBLAS_DIAG_NON_UNIT && diag != TRNBLAS_DIAG_UNIT) {
        *st = x_fail(trnsciErrorInvalidValue, "%s: %s=%lld must be NON_UNIT (0) or UNIT (1)", fn,
                     "diag", (long long)diag);
        return -1;
    }
    if (x_lda(fn, *ldai, *ni, st))
        return -1;
    return t;
}

trnsolverStatus_t trnsolverDnXtrtri_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                               trnblasDiagType_t diag, int64_t n,
                                               trnsciDataType_t dataTypeA, void *A, int64_t lda,
                                               size_t *workspaceInBytesOnDevice,
                                               size_t *workspaceInBytesOnHost) {
    (void)A;
    const char *fn = "Xtrtri_bufferSize";
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    int ni, ldai;
    const int t = trtri_args(handle, fn, uplo, diag, n, dataTypeA, lda, &ni, &ldai, &st);
    if (t < 0)
        return st;
    return x_sizes(fn, (size_t)ni * (size_t)ni * elem_size(t), workspaceInBytesOnDevice,
                   workspaceInBytesOnHost);
}

trnsolverStatus_t trnsolverDnXtrtri(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,
                                    trnblasDiagType_t diag, int64_t n, trnsciDataType_t dataTypeA,
                                    void *A, int64_t lda, void *bufferOnDevice,
                                    size_t workspaceInBytesOnDevice, void *bufferOnHost,
                                    size_t workspaceInBytesOnHost, int *devInfo) {
    (void)bufferOnHost, (void)workspaceInBytesOnHost;
    const char *fn = "Xtrtri";
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    int ni, ldai;
    const int t = trtri_args(handle, fn, uplo, diag, n, dataTypeA, lda, &ni, &ldai, &st);
    if (t < 0)
        return st;
    const size_t es = elem_size(t), need = (size_t)ni * (size_t)ni * es;
    if (x_workspace(fn, need, bufferOnDevice, workspaceInBytesOnDevice, &st))
        return st;
    trn_client *c = trn_solver_begin(handle, &st);
    Trnsci__V1__BufferRef ref;
    if (!c || trn_solver_ref(c, devInfo, "Xtrtri: devInfo", &ref, &st) ||
        (ni > 0 &&
         span_check(c, fn, "A", A, ((size_t)(ni - 1) * (size_t)ldai + (size_t)ni) * es, &st)))
        return st;
    const trnsciStream_t s = handle->stream;
    int info = 0;
    unsigned char *host = NULL;
    trnsciError_t e = trnsciSuccess;
    if (ni > 0 && diag == TRNBLAS_DIAG_NON_UNIT) {
        unsigned char *d = malloc((size_t)ni * es);
        if (!d)
            return trn_solver_status(
                trn_fail(trnsciErrorMemoryAllocation, "Xtrtri: out of host memory"));
        e = trnsciMemcpy2D(d, es, A, ((size_t)ldai + 1) * es, es, (size_t)ni,
                           trnsciMemcpyDeviceToHost);
        if (e != trnsciSuccess) {
            free(d);
            return x_runtime(e, "Xtrtri: reading the diagonal of A");
        }
        for (int i = 0; i < ni && !info; i++)
            if (is_zero(t, d + (size_t)i * es))
                info = i + 1;
        free(d);
    }
    if (ni > 0 && !info) {
        /* X = I, uploaded (the call returns once the host buffer is read). */
        host = calloc((size_t)ni * (size_t)ni, es);
        if (!host)
            return trn_solver_status(
                trn_fail(trnsciErrorMemoryAllocation, "Xtrtri: out of host memory"));
        for (int i = 0; i < ni; i++) {
            unsigned char *p = host + ((size_t)i * (size_t)ni + (size_t)i) * es;
            if (t == X_S || t == X_C)
                *(float *)p = 1.0f;
            else
                *(double *)p = 1.0;
        }
        e = trnsciMemcpyAsync(bufferOnDevice, host, need, trnsciMemcpyHostToDevice, s);
        free(host);
        if (e != trnsciSuccess)
            return x_runtime(e, "Xtrtri: bufferOnDevice");
        trnblasHandle_t b = NULL;
        trnblasStatus_t bs = trnblasCreate(&b);
        if (bs == TRNBLAS_STATUS_SUCCESS)
            bs = trnblasSetStream(b, s);
        if (bs == TRNBLAS_STATUS_SUCCESS) {
            const float one_f[2] = {1.0f, 0.0f};
            const double one_d[2] = {1.0, 0.0};
            switch (t) {
            case X_S:
                bs = trnblasStrsm(b, TRNBLAS_SIDE_LEFT, uplo, TRNBLAS_OP_N, diag, ni, ni, one_f, A,
                                  ldai, bufferOnDevice, ni);
                break;
            case X_D:
                bs = trnblasDtrsm(b, TRNBLAS_SIDE_LEFT, uplo, TRNBLAS_OP_N, diag, ni, ni, one_d, A,
                                  ldai, bufferOnDevice, ni);
                break;
            case X_C:
                bs = trnblasCtrsm(b, TRNBLAS_SIDE_LEFT, uplo, TRNBLAS_OP_N, diag, ni, ni,
                                  (const trnComplex *)one_f, A, ldai, bufferOnDevice, ni);
                break;
            default:
                bs = trnblasZtrsm(b, TRNBLAS_SIDE_LEFT, uplo, TRNBLAS_OP_N, diag, ni, ni,
                                  (const trnDoubleComplex *)one_d, A, ldai, bufferOnDevice, ni);
                break;
            }
        }
        if (b)
            (void)trnblasDestroy(b);
        if (bs != TRNBLAS_STATUS_SUCCESS)
            return blas_status(bs);
        /* X's triangle back into A, column by column. */
        const int unit = diag == TRNBLAS_DIAG_UNIT;
        for (int j = 0; j < ni && e == trnsciSuccess; j++) {
            const int lo = uplo == TRNBLAS_FILL_MODE_LOWER ? j + unit : 0;
            const int hi = uplo == TRNBLAS_FILL_MODE_LOWER ? ni : j + 1 - unit;
            if (hi > lo)
                e = trnsciMemcpyAsync((char *)A + ((size_t)j * (size_t)ldai + (size_t)lo) * es,
                                      (char *)bufferOnDevice +
                                          ((size_t)j * (size_t)ni + (size_t)lo) * es,
                                      (size_t)(hi - lo) * es, trnsciMemcpyDeviceToDevice, s);
        }
        if (e != trnsciSuccess)
            return x_runtime(e, "Xtrtri: copying the inverse into A");
    }
    e = trnsciMemcpyAsync(devInfo, &info, sizeof(info), trnsciMemcpyHostToDevice, s);
    if (e != trnsciSuccess)
        return x_runtime(e, "Xtrtri: devInfo");
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}
