/*
 * solver_legacy.c — cuSOLVER's legacy routines that other trnsolver routines
 * serve: <t>syevdx / <t>heevdx by the generic Xsyevdx, and
 * <t>syevjBatched / <t>heevjBatched as one <t>syevj per matrix, queued in
 * order on the handle's stream (so one workspace of syevj's size serves
 * every matrix: each call finishes with it before the next starts).
 */
#include <stdint.h>

#include "client/client.h"
#include "client/solver_internal.h"
#include "trnsci/trnsolver.h"

static trnsolverStatus_t fail(const char *fn, const char *what) {
    return trn_solver_status(trn_fail(trnsciErrorInvalidValue, "%s: %s", fn, what));
}

/* ---- syevdx / heevdx -------------------------------------------------------------- */

/* lwork in elements of es bytes for Xsyevdx's device bytes. */
static trnsolverStatus_t lwork_of(size_t bytes, size_t es, int *lwork, const char *fn) {
    const size_t elems = (bytes + es - 1) / es;
    if (elems > INT32_MAX)
        return trn_solver_status(trn_fail(trnsciErrorNotSupported,
                                          "%s: the workspace (%zu bytes) is more than an int of "
                                          "elements",
                                          fn, bytes));
    *lwork = (int)elems;
    return TRNSOLVER_STATUS_SUCCESS;
}

#define TRN_SYEVDX(T, name, type, real, dt, rt)                                                    \
    trnsolverStatus_t trnsolverDn##T##name##_bufferSize(                                           \
        trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, trnsolverEigRange_t range,            \
        trnblasFillMode_t uplo, int n, const type *A, int lda, real vl, real vu, int il, int iu,   \
        int *meig, const real *W, int *lwork) {                                                    \
        const char *fn = "trnsolverDn" #T #name "_bufferSize";                                     \
        if (!lwork)                                                                                \
            return fail(fn, "lwork is NULL");                                                      \
        size_t dev = 0, host = 0;                                                                  \
        int64_t m = 0;                                                                             \
        const trnsolverStatus_t st =                                                               \
            trnsolverDnXsyevdx_bufferSize(handle, NULL, jobz, range, uplo, n, dt, A, lda, &vl,     \
                                          &vu, il, iu, &m, rt, W, dt, &dev, &host);                \
        if (meig)                                                                                  \
            *meig = (int)m;                                                                        \
        return st != TRNSOLVER_STATUS_SUCCESS ? st : lwork_of(dev, sizeof(type), lwork, fn);       \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##name(                                                        \
        trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, trnsolverEigRange_t range,            \
        trnblasFillMode_t uplo, int n, type *A, int lda, real vl, real vu, int il, int iu,         \
        int *meig, real *W, type *work, int lwork, int *devInfo) {                                 \
        if (!meig)                                                                                 \
            return fail("trnsolverDn" #T #name, "meig is NULL");                                   \
        if (lwork < 0)                                                                             \
            return fail("trnsolverDn" #T #name, "lwork < 0");                                      \
        int64_t m = 0;                                                                             \
        const trnsolverStatus_t st = trnsolverDnXsyevdx(                                           \
            handle, NULL, jobz, range, uplo, n, dt, A, lda, &vl, &vu, il, iu, &m, rt, W, dt, work, \
            (size_t)lwork * sizeof(type), NULL, 0, devInfo);                                       \
        *meig = (int)m;                                                                            \
        return st;                                                                                 \
    }

TRN_SYEVDX(S, syevdx, float, float, TRNSCI_R_32F, TRNSCI_R_32F)
TRN_SYEVDX(D, syevdx, double, double, TRNSCI_R_64F, TRNSCI_R_64F)
TRN_SYEVDX(C, heevdx, trnComplex, float, TRNSCI_C_32F, TRNSCI_R_32F)
TRN_SYEVDX(Z, heevdx, trnDoubleComplex, double, TRNSCI_C_64F, TRNSCI_R_64F)

/* ---- syevjBatched / heevjBatched --------------------------------------------------- */

/* cuSOLVER's limits on the batched Jacobi solver. */
static int batched_args_bad(int n, int lda, int batchSize, const char **why) {
    if (n < 0 || n > 32)
        *why = "n must be 0 .. 32 (cuSOLVER's syevjBatched limit)";
    else if (lda < (n > 1 ? n : 1))
        *why = "lda < max(1, n)";
    else if (batchSize < 0)
        *why = "batchSize < 0";
    else
        return 0;
    return 1;
}

#define TRN_SYEVJ_BATCHED(T, name, one, type, real)                                                \
    trnsolverStatus_t trnsolverDn##T##name##_bufferSize(                                           \
        trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,        \
        const type *A, int lda, const real *W, int *lwork, syevjInfo_t params, int batchSize) {    \
        const char *why = NULL;                                                                    \
        if (batched_args_bad(n, lda, batchSize, &why))                                             \
            return fail("trnsolverDn" #T #name "_bufferSize", why);                                \
        return trnsolverDn##T##one##_bufferSize(handle, jobz, uplo, n, A, lda, W, lwork, params);  \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##name(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,    \
                                           trnblasFillMode_t uplo, int n, type *A, int lda,        \
                                           real *W, type *work, int lwork, int *info,              \
                                           syevjInfo_t params, int batchSize) {                    \
        const char *why = NULL;                                                                    \
        if (batched_args_bad(n, lda, batchSize, &why))                                             \
            return fail("trnsolverDn" #T #name, why);                                              \
        for (int i = 0; i < batchSize; i++) {                                                      \
            const trnsolverStatus_t st = trnsolverDn##T##one(                                      \
                handle, jobz, uplo, n, A + (size_t)i * (size_t)lda * (size_t)n, lda,               \
                W + (size_t)i * (size_t)n, work, lwork, info + i, params);                         \
            if (st != TRNSOLVER_STATUS_SUCCESS)                                                    \
                return st;                                                                         \
        }                                                                                          \
        return TRNSOLVER_STATUS_SUCCESS;                                                           \
    }

TRN_SYEVJ_BATCHED(S, syevjBatched, syevj, float, float)
TRN_SYEVJ_BATCHED(D, syevjBatched, syevj, double, double)
TRN_SYEVJ_BATCHED(C, heevjBatched, heevj, trnComplex, float)
TRN_SYEVJ_BATCHED(Z, heevjBatched, heevj, trnDoubleComplex, double)
