/*
 * solver_dense.c — trnsolver's factorisations and solves: potrf, potrs,
 * potri, getrf, getrs, geqrf, orgqr/ungqr, ormqr/unmqr (one SolverDenseOp
 * each), potrfBatched/potrsBatched (SolverBatchedOp) and their _bufferSize
 * functions, which report 0: workspace belongs to the daemon.
 *
 * The batched routines read the device arrays of matrix pointers when they
 * are called (a device-to-host copy, which waits for the device like any
 * trnsciMemcpy) and send one BufferRef per matrix: the daemon cannot read
 * this process's pointers itself.
 */
#include <stdio.h>
#include <stdlib.h>

#include "client/solver_internal.h"

trnsolverStatus_t trn_solver_dense_submit(trnsolverDnHandle_t handle,
                                          const trn_solver_dense_args *g) {
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    trn_client *c = trn_solver_begin(handle, &st);
    if (!c)
        return st;
    if (g->minor) {
        const trnsciError_t need = trn_client_need_minor(c, g->minor, g->name);
        if (need != trnsciSuccess)
            return trn_solver_status(need);
    }
    const int writes_c = g->fn == SV_FN(ORMQR) || g->fn == SV_FN(ORMTR);
    const int bd = g->fn == SV_FN(GEBRD);
    char what[8][40];
    snprintf(what[0], sizeof(what[0]), "%s: A", g->name);
    snprintf(what[1], sizeof(what[1]), "%s: %s", g->name, writes_c ? "C" : "B");
    snprintf(what[2], sizeof(what[2]), "%s: %s", g->name, g->ipiv_name ? g->ipiv_name : "devIpiv");
    snprintf(what[3], sizeof(what[3]), "%s: %s", g->name, bd ? "TAUQ" : "tau");
    snprintf(what[4], sizeof(what[4]), "%s: devInfo", g->name);
    snprintf(what[5], sizeof(what[5]), "%s: %s", g->name, bd ? "D" : "d");
    snprintf(what[6], sizeof(what[6]), "%s: %s", g->name, bd ? "E" : "e");
    snprintf(what[7], sizeof(what[7]), "%s: TAUP", g->name);
    Trnsci__V1__BufferRef a, b, ipiv, tau, info, d, e, taup;
    if (trn_solver_ref(c, g->a, what[0], &a, &st) || trn_solver_ref(c, g->b, what[1], &b, &st) ||
        trn_solver_ref(c, g->ipiv, what[2], &ipiv, &st) ||
        trn_solver_ref(c, g->tau, what[3], &tau, &st) ||
        trn_solver_ref(c, g->info, what[4], &info, &st) ||
        trn_solver_ref(c, g->d, what[5], &d, &st) || trn_solver_ref(c, g->e, what[6], &e, &st) ||
        trn_solver_ref(c, g->taup, what[7], &taup, &st))
        return st;
    Trnsci__V1__SolverDenseOp w = TRNSCI__V1__SOLVER_DENSE_OP__INIT;
    w.function = g->fn;
    w.type = g->type;
    w.uplo = g->uplo;
    w.trans = (Trnsci__V1__Operation)g->trans;
    w.side = g->side;
    w.m = g->m;
    w.n = g->n;
    w.k = g->k;
    w.nrhs = g->nrhs;
    w.a = &a;
    w.lda = g->lda;
    w.b = &b;
    w.ldb = g->ldb;
    w.ipiv = &ipiv;
    w.tau = &tau;
    w.info = &info;
    w.k2 = g->k2;
    w.incx = g->incx;
    w.d = &d;
    w.e = &e;
    if (bd)
        w.taup = &taup; /* 1.15's field, sent only by gebrd */
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_SOLVER_DENSE;
    op.solver_dense = &w;
    return trn_solver_submit(c, handle, &op);
}

#define POTRF(T, TY, DT)                                                                           \
    trnsolverStatus_t trnsolverDn##T##potrf_bufferSize(                                            \
        trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, TY *A, int lda, int *Lwork) {   \
        (void)uplo, (void)n, (void)A, (void)lda;                                                   \
        return trn_solver_no_workspace(handle, Lwork, "potrf_bufferSize");                         \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##potrf(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,    \
                                            int n, TY *A, int lda, TY *Workspace, int Lwork,       \
                                            int *devInfo) {                                        \
        (void)Workspace, (void)Lwork;                                                              \
        const trn_solver_dense_args g = {.fn = SV_FN(POTRF),                                       \
                                         .name = "potrf",                                          \
                                         .type = DT,                                               \
                                         .uplo = (int)uplo,                                        \
                                         .n = n,                                                   \
                                         .a = A,                                                   \
                                         .lda = lda,                                               \
                                         .info = devInfo};                                         \
        return trn_solver_dense_submit(handle, &g);                                                \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##potrs(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,    \
                                            int n, int nrhs, const TY *A, int lda, TY *B, int ldb, \
                                            int *devInfo) {                                        \
        const trn_solver_dense_args g = {.fn = SV_FN(POTRS),                                       \
                                         .name = "potrs",                                          \
                                         .type = DT,                                               \
                                         .uplo = (int)uplo,                                        \
                                         .n = n,                                                   \
                                         .nrhs = nrhs,                                             \
                                         .a = A,                                                   \
                                         .lda = lda,                                               \
                                         .b = B,                                                   \
                                         .ldb = ldb,                                               \
                                         .info = devInfo};                                         \
        return trn_solver_dense_submit(handle, &g);                                                \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##potri_bufferSize(                                            \
        trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, TY *A, int lda, int *lwork) {   \
        (void)uplo, (void)n, (void)A, (void)lda;                                                   \
        return trn_solver_no_workspace(handle, lwork, "potri_bufferSize");                         \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##potri(trnsolverDnHandle_t handle, trnblasFillMode_t uplo,    \
                                            int n, TY *A, int lda, TY *work, int lwork,            \
                                            int *devInfo) {                                        \
        (void)work, (void)lwork;                                                                   \
        const trn_solver_dense_args g = {.fn = SV_FN(POTRI),                                       \
                                         .name = "potri",                                          \
                                         .type = DT,                                               \
                                         .uplo = (int)uplo,                                        \
                                         .n = n,                                                   \
                                         .a = A,                                                   \
                                         .lda = lda,                                               \
                                         .info = devInfo};                                         \
        return trn_solver_dense_submit(handle, &g);                                                \
    }
POTRF(S, float, SV_R32)
POTRF(D, double, SV_R64)
POTRF(C, trnComplex, SV_C32)
POTRF(Z, trnDoubleComplex, SV_C64)

#define GETRF(T, TY, DT)                                                                           \
    trnsolverStatus_t trnsolverDn##T##getrf_bufferSize(trnsolverDnHandle_t handle, int m, int n,   \
                                                       TY *A, int lda, int *Lwork) {               \
        (void)m, (void)n, (void)A, (void)lda;                                                      \
        return trn_solver_no_workspace(handle, Lwork, "getrf_bufferSize");                         \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##getrf(trnsolverDnHandle_t handle, int m, int n, TY *A,       \
                                            int lda, TY *Workspace, int *devIpiv, int *devInfo) {  \
        (void)Workspace;                                                                           \
        const trn_solver_dense_args g = {.fn = SV_FN(GETRF),                                       \
                                         .name = "getrf",                                          \
                                         .type = DT,                                               \
                                         .m = m,                                                   \
                                         .n = n,                                                   \
                                         .a = A,                                                   \
                                         .lda = lda,                                               \
                                         .ipiv = devIpiv,                                          \
                                         .info = devInfo};                                         \
        return trn_solver_dense_submit(handle, &g);                                                \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##getrs(trnsolverDnHandle_t handle, trnblasOperation_t trans,  \
                                            int n, int nrhs, const TY *A, int lda,                 \
                                            const int *devIpiv, TY *B, int ldb, int *devInfo) {    \
        const trn_solver_dense_args g = {.fn = SV_FN(GETRS),                                       \
                                         .name = "getrs",                                          \
                                         .type = DT,                                               \
                                         .trans = trans,                                           \
                                         .n = n,                                                   \
                                         .nrhs = nrhs,                                             \
                                         .a = A,                                                   \
                                         .lda = lda,                                               \
                                         .ipiv = devIpiv,                                          \
                                         .b = B,                                                   \
                                         .ldb = ldb,                                               \
                                         .info = devInfo};                                         \
        return trn_solver_dense_submit(handle, &g);                                                \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##geqrf_bufferSize(trnsolverDnHandle_t handle, int m, int n,   \
                                                       TY *A, int lda, int *lwork) {               \
        (void)m, (void)n, (void)A, (void)lda;                                                      \
        return trn_solver_no_workspace(handle, lwork, "geqrf_bufferSize");                         \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##geqrf(trnsolverDnHandle_t handle, int m, int n, TY *A,       \
                                            int lda, TY *TAU, TY *Workspace, int Lwork,            \
                                            int *devInfo) {                                        \
        (void)Workspace, (void)Lwork;                                                              \
        const trn_solver_dense_args g = {.fn = SV_FN(GEQRF),                                       \
                                         .name = "geqrf",                                          \
                                         .type = DT,                                               \
                                         .m = m,                                                   \
                                         .n = n,                                                   \
                                         .a = A,                                                   \
                                         .lda = lda,                                               \
                                         .tau = TAU,                                               \
                                         .info = devInfo};                                         \
        return trn_solver_dense_submit(handle, &g);                                                \
    }
GETRF(S, float, SV_R32)
GETRF(D, double, SV_R64)
GETRF(C, trnComplex, SV_C32)
GETRF(Z, trnDoubleComplex, SV_C64)

/* orgqr/ungqr and ormqr/unmqr: ORG is the name stem (orgqr or ungqr). */
#define ORGQR(T, ORG, ORM, TY, DT)                                                                 \
    trnsolverStatus_t trnsolverDn##T##ORG##_bufferSize(trnsolverDnHandle_t handle, int m, int n,   \
                                                       int k, const TY *A, int lda, const TY *tau, \
                                                       int *lwork) {                               \
        (void)m, (void)n, (void)k, (void)A, (void)lda, (void)tau;                                  \
        return trn_solver_no_workspace(handle, lwork, #ORG "_bufferSize");                         \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##ORG(trnsolverDnHandle_t handle, int m, int n, int k, TY *A,  \
                                          int lda, const TY *tau, TY *work, int lwork,             \
                                          int *info) {                                             \
        (void)work, (void)lwork;                                                                   \
        const trn_solver_dense_args g = {.fn = SV_FN(ORGQR),                                       \
                                         .name = #ORG,                                             \
                                         .type = DT,                                               \
                                         .m = m,                                                   \
                                         .n = n,                                                   \
                                         .k = k,                                                   \
                                         .a = A,                                                   \
                                         .lda = lda,                                               \
                                         .tau = tau,                                               \
                                         .info = info};                                            \
        return trn_solver_dense_submit(handle, &g);                                                \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##ORM##_bufferSize(                                            \
        trnsolverDnHandle_t handle, trnblasSideMode_t side, trnblasOperation_t trans, int m,       \
        int n, int k, const TY *A, int lda, const TY *tau, const TY *C, int ldc, int *lwork) {     \
        (void)side, (void)trans, (void)m, (void)n, (void)k, (void)A, (void)lda, (void)tau,         \
            (void)C, (void)ldc;                                                                    \
        return trn_solver_no_workspace(handle, lwork, #ORM "_bufferSize");                         \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##ORM(trnsolverDnHandle_t handle, trnblasSideMode_t side,      \
                                          trnblasOperation_t trans, int m, int n, int k,           \
                                          const TY *A, int lda, const TY *tau, TY *C, int ldc,     \
                                          TY *work, int lwork, int *devInfo) {                     \
        (void)work, (void)lwork;                                                                   \
        const trn_solver_dense_args g = {.fn = SV_FN(ORMQR),                                       \
                                         .name = #ORM,                                             \
                                         .type = DT,                                               \
                                         .side = (int)side,                                        \
                                         .trans = trans,                                           \
                                         .m = m,                                                   \
                                         .n = n,                                                   \
                                         .k = k,                                                   \
                                         .a = A,                                                   \
                                         .lda = lda,                                               \
                                         .tau = tau,                                               \
                                         .b = C,                                                   \
                                         .ldb = ldc,                                               \
                                         .info = devInfo};                                         \
        return trn_solver_dense_submit(handle, &g);                                                \
    }
ORGQR(S, orgqr, ormqr, float, SV_R32)
ORGQR(D, orgqr, ormqr, double, SV_R64)
ORGQR(C, ungqr, unmqr, trnComplex, SV_C32)
ORGQR(Z, ungqr, unmqr, trnDoubleComplex, SV_C64)

/* ---- batched Cholesky ---------------------------------------------------------------- */

/* Reads count device pointers from the device array arr and resolves each
 * into refs[i] (ptrs[i] points at it). */
static int resolve_array(trn_client *c, void *const *arr, int count, const char *what,
                         Trnsci__V1__BufferRef *refs, Trnsci__V1__BufferRef **ptrs,
                         trnsolverStatus_t *st) {
    void **host = malloc((size_t)count * sizeof(void *));
    if (!host) {
        *st = trn_solver_status(trn_fail(trnsciErrorMemoryAllocation, "%s: out of memory", what));
        return -1;
    }
    trnsciError_t e =
        trnsciMemcpy(host, arr, (size_t)count * sizeof(void *), trnsciMemcpyDeviceToHost);
    if (e != trnsciSuccess) {
        free(host);
        *st = trn_solver_status(
            trn_fail(e, "%s: the array of matrix pointers must be in device memory (%s)", what,
                     trnsciGetErrorString(e)));
        return -1;
    }
    char name[64];
    for (int i = 0; i < count; i++) {
        snprintf(name, sizeof(name), "%s[%d]", what, i);
        if (trn_solver_ref(c, host[i], name, &refs[i], st)) {
            free(host);
            return -1;
        }
        ptrs[i] = &refs[i];
    }
    free(host);
    return 0;
}

static trnsolverStatus_t batched_submit(trnsolverDnHandle_t handle, Trnsci__V1__SolverFunction fn,
                                        const char *name, Trnsci__V1__DataType type, int uplo,
                                        int n, int nrhs, void *const *aarr, int lda,
                                        void *const *barr, int ldb, int *info, int batch) {
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    trn_client *c = trn_solver_begin(handle, &st);
    if (!c)
        return st;
    if (batch < 0)
        return trn_solver_status(
            trn_fail(trnsciErrorInvalidValue, "%s: batchSize=%d must be >= 0", name, batch));
    const int with_b = fn == SV_FN(POTRS_BATCHED);
    const size_t slots = (size_t)batch * (with_b ? 2u : 1u);
    Trnsci__V1__BufferRef *refs = slots ? malloc(slots * sizeof(*refs)) : NULL;
    Trnsci__V1__BufferRef **ptrs = slots ? malloc(slots * sizeof(*ptrs)) : NULL;
    if (slots && (!refs || !ptrs)) {
        free(refs);
        free(ptrs);
        return trn_solver_status(trn_fail(trnsciErrorMemoryAllocation, "%s: out of memory", name));
    }
    char what[2][40];
    snprintf(what[0], sizeof(what[0]), "%s: Aarray", name);
    snprintf(what[1], sizeof(what[1]), "%s: Barray", name);
    Trnsci__V1__BufferRef iref;
    char iwhat[48];
    snprintf(iwhat, sizeof(iwhat), "%s: %s", name, with_b ? "info" : "infoArray");
    if ((batch > 0 && resolve_array(c, aarr, batch, what[0], refs, ptrs, &st)) ||
        (batch > 0 && with_b &&
         resolve_array(c, barr, batch, what[1], refs + batch, ptrs + batch, &st)) ||
        trn_solver_ref(c, info, iwhat, &iref, &st)) {
        free(refs);
        free(ptrs);
        return st;
    }
    Trnsci__V1__SolverBatchedOp w = TRNSCI__V1__SOLVER_BATCHED_OP__INIT;
    w.function = fn;
    w.type = type;
    w.uplo = uplo;
    w.n = n;
    w.nrhs = nrhs;
    w.n_a = (size_t)batch;
    w.a = ptrs;
    w.lda = lda;
    w.n_b = with_b ? (size_t)batch : 0;
    w.b = with_b ? ptrs + batch : NULL;
    w.ldb = ldb;
    w.info = &iref;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_SOLVER_BATCHED;
    op.solver_batched = &w;
    st = trn_solver_submit(c, handle, &op);
    free(refs);
    free(ptrs);
    return st;
}

#define BATCHED(T, TY, DT)                                                                         \
    trnsolverStatus_t trnsolverDn##T##potrfBatched(trnsolverDnHandle_t handle,                     \
                                                   trnblasFillMode_t uplo, int n, TY *Aarray[],    \
                                                   int lda, int *infoArray, int batchSize) {       \
        return batched_submit(handle, SV_FN(POTRF_BATCHED), "potrfBatched", DT, (int)uplo, n, 0,   \
                              (void *const *)Aarray, lda, NULL, 1, infoArray, batchSize);          \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##potrsBatched(                                                \
        trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, int nrhs, TY *Aarray[],         \
        int lda, TY *Barray[], int ldb, int *info, int batchSize) {                                \
        return batched_submit(handle, SV_FN(POTRS_BATCHED), "potrsBatched", DT, (int)uplo, n,      \
                              nrhs, (void *const *)Aarray, lda, (void *const *)Barray, ldb, info,  \
                              batchSize);                                                          \
    }
BATCHED(S, float, SV_R32)
BATCHED(D, double, SV_R64)
BATCHED(C, trnComplex, SV_C32)
BATCHED(Z, trnDoubleComplex, SV_C64)
