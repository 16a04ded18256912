/*
 * solver_sygv.c — trnsolver's selected generalised eigenpairs
 * (<t>sygvdx / hegvdx), the generalised problem by Jacobi (<t>sygvj /
 * hegvj) and the batched rank-r SVD of tall matrices
 * (<t>gesvdaStridedBatched), with their _bufferSize calls. Each queues one
 * SolverEigenOp (protocol 1.15: a daemon that predates it is refused here,
 * naming the routine).
 *
 * Invariants:
 *  - argument rules live in the op's validator (ops/validate/solver.c),
 *    which runs in this process before anything is sent; this file checks
 *    only what the wire cannot carry (the handle, host outputs, the params
 *    object, the workspace that receives a host output's value);
 *  - the device workspace these routines report is what they use: sygvdx
 *    one element (the count of selected eigenvalues, an int32, written by
 *    the daemon for RANGE_V), gesvdaStridedBatched batchSize doubles (the
 *    residual norms, written when h_R_nrmF is not NULL);
 *  - a host output that depends on the results (sygvdx's RANGE_V count,
 *    gesvda's h_R_nrmF) is read back after waiting for the handle's
 *    stream, so those calls return once the op has run; the others return
 *    once it is queued.
 */
#include <stdint.h>
#include <stdio.h>

#include "client/solver_internal.h"

#define MINOR 15

typedef struct gv_args {
    Trnsci__V1__SolverFunction fn;
    const char *name;
    Trnsci__V1__DataType type;
    int itype, jobz, uplo, range;
    double vl, vu;
    int il, iu;
    int rank, m, n;
    const void *a;
    int lda;
    long long stride_a;
    const void *b;
    int ldb;
    const void *w;
    long long stride_s;
    const void *u;
    int ldu;
    long long stride_u;
    const void *v;
    int ldv;
    long long stride_v;
    int *info;
    const void *meig;      /* sygvdx: where the daemon writes the count, or NULL */
    const void *residuals; /* gesvda: batch doubles, or NULL */
    int batch;
    trn_jacobi_params *jp; /* sygvj */
} gv_args;

static trnsolverStatus_t gv_fail(const char *fn, const char *what) {
    return trn_solver_status(trn_fail(trnsciErrorInvalidValue, "%s: %s", fn, what));
}

/* Resolves the operands and queues the op on the handle's stream. */
static trnsolverStatus_t gv_submit(trnsolverDnHandle_t handle, const gv_args *g) {
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    trn_client *c = trn_solver_begin(handle, &st);
    if (!c)
        return st;
    const trnsciError_t need = trn_client_need_minor(c, MINOR, g->name);
    if (need != trnsciSuccess)
        return trn_solver_status(need);
    const int svd = g->fn == SV_FN(GESVDA_STRIDED_BATCHED);
    char what[7][48];
    const char *names[7] = {"A",
                            "B",
                            svd ? "S" : "W",
                            "U",
                            "V",
                            svd ? "info" : "devInfo",
                            svd ? "work (h_R_nrmF)" : "work (h_meig)"};
    for (int i = 0; i < 7; i++)
        snprintf(what[i], sizeof(what[i]), "%s: %s", g->name, names[i]);
    Trnsci__V1__BufferRef a, b, w, u, v, info, aux;
    if (trn_solver_ref(c, g->a, what[0], &a, &st) || trn_solver_ref(c, g->b, what[1], &b, &st) ||
        trn_solver_ref(c, g->w, what[2], &w, &st) || trn_solver_ref(c, g->u, what[3], &u, &st) ||
        trn_solver_ref(c, g->v, what[4], &v, &st) ||
        trn_solver_ref(c, g->info, what[5], &info, &st) ||
        trn_solver_ref(c, svd ? g->residuals : g->meig, what[6], &aux, &st))
        return st;
    Trnsci__V1__SolverEigenOp e = TRNSCI__V1__SOLVER_EIGEN_OP__INIT;
    e.function = g->fn;
    e.type = g->type;
    e.itype = g->itype;
    e.jobz = g->jobz;
    e.uplo = g->uplo;
    e.range = g->range;
    e.vl = g->vl;
    e.vu = g->vu;
    e.il = g->il;
    e.iu = g->iu;
    e.rank = g->rank;
    e.m = g->m;
    e.n = g->n;
    e.a = &a;
    e.lda = g->lda;
    e.stride_a = g->stride_a;
    e.b = &b;
    e.ldb = g->ldb;
    e.w = &w;
    e.stride_s = g->stride_s;
    e.u = &u;
    e.ldu = g->ldu;
    e.stride_u = g->stride_u;
    e.v = &v;
    e.ldv = g->ldv;
    e.stride_v = g->stride_v;
    e.info = &info;
    e.batch = g->batch;
    if (svd)
        e.residuals = &aux;
    else
        e.meig = &aux;
    return trn_solver_eigen_submit(c, handle, &e, g->jp, g->name);
}

/* Waits for the handle's stream and copies bytes of device memory at src
 * to the host. */
static trnsolverStatus_t read_back(trnsolverDnHandle_t handle, void *dst, const void *src,
                                   size_t bytes) {
    trnsciError_t e = trnsciStreamSynchronize(handle->stream);
    if (e == trnsciSuccess)
        e = trnsciMemcpy(dst, src, bytes, trnsciMemcpyDeviceToHost);
    if (e != trnsciSuccess)
        return trn_solver_status(e);
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

/* ---- sygvdx / hegvdx ----------------------------------------------------------------- */

/* One element of workspace: the RANGE_V count (an int32 fits in any element
 * type). */
static trnsolverStatus_t sygvdx_size(trnsolverDnHandle_t handle, int *lwork, const char *fn) {
    const trnsolverStatus_t st = trn_solver_no_workspace(handle, lwork, fn);
    if (st == TRNSOLVER_STATUS_SUCCESS)
        *lwork = 1;
    return st;
}

/* h_meig: RANGE_ALL n, RANGE_I iu - il + 1 (known without waiting), RANGE_V
 * the daemon's count read back from work. */
static trnsolverStatus_t sygvdx_run(trnsolverDnHandle_t handle, gv_args *g, void *work, int lwork,
                                    int *h_meig) {
    if (!h_meig)
        return gv_fail(g->name, "h_meig is NULL");
    const int by_value = g->range == TRNSOLVER_EIG_RANGE_V;
    if (by_value && (!work || lwork < 1))
        return gv_fail(g->name, "work must hold lwork >= 1 elements for RANGE_V (the count of "
                                "eigenvalues; see sygvdx_bufferSize)");
    g->meig = by_value ? work : NULL;
    const trnsolverStatus_t st = gv_submit(handle, g);
    if (st != TRNSOLVER_STATUS_SUCCESS)
        return st;
    if (by_value) {
        int32_t m = 0;
        const trnsolverStatus_t r = read_back(handle, &m, work, sizeof(m));
        if (r != TRNSOLVER_STATUS_SUCCESS)
            return r;
        *h_meig = m;
    } else {
        *h_meig = g->range == TRNSOLVER_EIG_RANGE_I ? (g->n > 0 ? g->iu - g->il + 1 : 0) : g->n;
    }
    return TRNSOLVER_STATUS_SUCCESS;
}

#define SYGVDX(T, NAME, TY, RT, DT)                                                                \
    trnsolverStatus_t trnsolverDn##T##NAME##_bufferSize(                                           \
        trnsolverDnHandle_t handle, trnsolverEigType_t itype, trnsolverEigMode_t jobz,             \
        trnsolverEigRange_t range, trnblasFillMode_t uplo, int n, const TY *A, int lda,            \
        const TY *B, int ldb, RT vl, RT vu, int il, int iu, int *h_meig, const RT *W,              \
        int *lwork) {                                                                              \
        (void)itype, (void)jobz, (void)range, (void)uplo, (void)n, (void)A, (void)lda, (void)B,    \
            (void)ldb, (void)vl, (void)vu, (void)il, (void)iu, (void)h_meig, (void)W;              \
        return sygvdx_size(handle, lwork, #NAME "_bufferSize");                                    \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##NAME(                                                        \
        trnsolverDnHandle_t handle, trnsolverEigType_t itype, trnsolverEigMode_t jobz,             \
        trnsolverEigRange_t range, trnblasFillMode_t uplo, int n, TY *A, int lda, TY *B, int ldb,  \
        RT vl, RT vu, int il, int iu, int *h_meig, RT *W, TY *work, int lwork, int *devInfo) {     \
        gv_args g = {.fn = SV_FN(SYGVDX),                                                          \
                     .name = #NAME,                                                                \
                     .type = DT,                                                                   \
                     .itype = (int)itype,                                                          \
                     .jobz = (int)jobz,                                                            \
                     .uplo = (int)uplo,                                                            \
                     .range = (int)range,                                                          \
                     .vl = (double)vl,                                                             \
                     .vu = (double)vu,                                                             \
                     .il = il,                                                                     \
                     .iu = iu,                                                                     \
                     .n = n,                                                                       \
                     .a = A,                                                                       \
                     .lda = lda,                                                                   \
                     .b = B,                                                                       \
                     .ldb = ldb,                                                                   \
                     .w = W,                                                                       \
                     .info = devInfo,                                                              \
                     .batch = 1};                                                                  \
        return sygvdx_run(handle, &g, work, lwork, h_meig);                                        \
    }
SYGVDX(S, sygvdx, float, float, SV_R32)
SYGVDX(D, sygvdx, double, double, SV_R64)
SYGVDX(C, hegvdx, trnComplex, float, SV_C32)
SYGVDX(Z, hegvdx, trnDoubleComplex, double, SV_C64)

/* ---- sygvj / hegvj ------------------------------------------------------------------- */

#define SYGVJ(T, NAME, TY, RT, DT)                                                                 \
    trnsolverStatus_t trnsolverDn##T##NAME##_bufferSize(                                           \
        trnsolverDnHandle_t handle, trnsolverEigType_t itype, trnsolverEigMode_t jobz,             \
        trnblasFillMode_t uplo, int n, const TY *A, int lda, const TY *B, int ldb, const RT *W,    \
        int *lwork, syevjInfo_t params) {                                                          \
        (void)itype, (void)jobz, (void)uplo, (void)n, (void)A, (void)lda, (void)B, (void)ldb,      \
            (void)W, (void)params;                                                                 \
        return trn_solver_no_workspace(handle, lwork, #NAME "_bufferSize");                        \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##NAME(trnsolverDnHandle_t handle, trnsolverEigType_t itype,   \
                                           trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n, \
                                           TY *A, int lda, TY *B, int ldb, RT *W, TY *work,        \
                                           int lwork, int *info, syevjInfo_t params) {             \
        (void)work, (void)lwork;                                                                   \
        if (!params)                                                                               \
            return gv_fail(#NAME, "params is NULL");                                               \
        const gv_args g = {.fn = SV_FN(SYGVJ),                                                     \
                           .name = #NAME,                                                          \
                           .type = DT,                                                             \
                           .itype = (int)itype,                                                    \
                           .jobz = (int)jobz,                                                      \
                           .uplo = (int)uplo,                                                      \
                           .n = n,                                                                 \
                           .a = A,                                                                 \
                           .lda = lda,                                                             \
                           .b = B,                                                                 \
                           .ldb = ldb,                                                             \
                           .w = W,                                                                 \
                           .info = info,                                                           \
                           .batch = 1,                                                             \
                           .jp = &params->p};                                                      \
        return gv_submit(handle, &g);                                                              \
    }
SYGVJ(S, sygvj, float, float, SV_R32)
SYGVJ(D, sygvj, double, double, SV_R64)
SYGVJ(C, hegvj, trnComplex, float, SV_C32)
SYGVJ(Z, hegvj, trnDoubleComplex, double, SV_C64)

/* ---- gesvdaStridedBatched ------------------------------------------------------------ */

/* batchSize doubles (the residual norms), in elements of es bytes; at
 * least one. */
static trnsolverStatus_t gesvda_size(trnsolverDnHandle_t handle, int batchSize, size_t es,
                                     int *lwork) {
    const trnsolverStatus_t st =
        trn_solver_no_workspace(handle, lwork, "gesvdaStridedBatched_bufferSize");
    if (st != TRNSOLVER_STATUS_SUCCESS)
        return st;
    if (batchSize < 0)
        return gv_fail("gesvdaStridedBatched_bufferSize", "batchSize < 0");
    const size_t elems = ((size_t)batchSize * sizeof(double) + es - 1) / es;
    *lwork = elems > 0 ? (int)elems : 1;
    return TRNSOLVER_STATUS_SUCCESS;
}

static trnsolverStatus_t gesvda_run(trnsolverDnHandle_t handle, gv_args *g, void *work, int lwork,
                                    size_t es, double *h_R_nrmF) {
    if (g->batch < 0)
        return gv_fail(g->name, "batchSize < 0");
    if (h_R_nrmF && g->batch > 0) {
        const size_t need = (size_t)g->batch * sizeof(double);
        if (!work || lwork < 0 || (size_t)lwork * es < need)
            return gv_fail(g->name, "work must hold the lwork elements of "
                                    "gesvdaStridedBatched_bufferSize when h_R_nrmF is given");
        g->residuals = work;
    }
    const trnsolverStatus_t st = gv_submit(handle, g);
    if (st != TRNSOLVER_STATUS_SUCCESS || !h_R_nrmF || g->batch == 0)
        return st;
    return read_back(handle, h_R_nrmF, work, (size_t)g->batch * sizeof(double));
}

#define GESVDA(T, TY, RT, DT)                                                                      \
    trnsolverStatus_t trnsolverDn##T##gesvdaStridedBatched_bufferSize(                             \
        trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int rank, int m, int n,               \
        const TY *d_A, int lda, long long int strideA, const RT *d_S, long long int strideS,       \
        const TY *d_U, int ldu, long long int strideU, const TY *d_V, int ldv,                     \
        long long int strideV, int *lwork, int batchSize) {                                        \
        (void)jobz, (void)rank, (void)m, (void)n, (void)d_A, (void)lda, (void)strideA, (void)d_S,  \
            (void)strideS, (void)d_U, (void)ldu, (void)strideU, (void)d_V, (void)ldv,              \
            (void)strideV;                                                                         \
        return gesvda_size(handle, batchSize, sizeof(TY), lwork);                                  \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##gesvdaStridedBatched(                                        \
        trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int rank, int m, int n,               \
        const TY *d_A, int lda, long long int strideA, RT *d_S, long long int strideS, TY *d_U,    \
        int ldu, long long int strideU, TY *d_V, int ldv, long long int strideV, TY *d_work,       \
        int lwork, int *d_info, double *h_R_nrmF, int batchSize) {                                 \
        gv_args g = {.fn = SV_FN(GESVDA_STRIDED_BATCHED),                                          \
                     .name = "gesvdaStridedBatched",                                               \
                     .type = DT,                                                                   \
                     .jobz = (int)jobz,                                                            \
                     .rank = rank,                                                                 \
                     .m = m,                                                                       \
                     .n = n,                                                                       \
                     .a = d_A,                                                                     \
                     .lda = lda,                                                                   \
                     .stride_a = strideA,                                                          \
                     .w = d_S,                                                                     \
                     .stride_s = strideS,                                                          \
                     .u = jobz == TRNSOLVER_EIG_MODE_VECTOR ? d_U : NULL,                          \
                     .ldu = ldu,                                                                   \
                     .stride_u = strideU,                                                          \
                     .v = jobz == TRNSOLVER_EIG_MODE_VECTOR ? d_V : NULL,                          \
                     .ldv = ldv,                                                                   \
                     .stride_v = strideV,                                                          \
                     .info = d_info,                                                               \
                     .batch = batchSize};                                                          \
        return gesvda_run(handle, &g, d_work, lwork, sizeof(TY), h_R_nrmF);                        \
    }
GESVDA(S, float, float, SV_R32)
GESVDA(D, double, double, SV_R64)
GESVDA(C, trnComplex, float, SV_C32)
GESVDA(Z, trnDoubleComplex, double, SV_C64)
