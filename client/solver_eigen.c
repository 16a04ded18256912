/*
 * solver_eigen.c — trnsolver's eigenvalue problems and SVDs: syevd/heevd,
 * sygvd/hegvd, syevj/heevj, gesvd and gesvdj (one SolverEigenOp each) and
 * their _bufferSize functions (0: workspace belongs to the daemon). syevj
 * and gesvdj send their params object's controls with the op and name its
 * device record, which the daemon fills with the residual and the sweeps.
 */
#include <stdio.h>

#include "client/solver_internal.h"

typedef struct eigen_args {
    Trnsci__V1__SolverFunction fn;
    const char *name;
    Trnsci__V1__DataType type;
    int jobz, uplo, itype, econ;
    int jobu, jobvt;
    int m, n;
    const void *a;
    int lda;
    const void *b;
    int ldb;
    const void *w;
    const void *u;
    int ldu;
    const void *v;
    int ldv;
    const void *rwork;
    int *info;
    trn_jacobi_params *jp; /* syevj, gesvdj */
} eigen_args;

static trnsolverStatus_t eigen_submit(trnsolverDnHandle_t handle, const eigen_args *g) {
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    trn_client *c = trn_solver_begin(handle, &st);
    if (!c)
        return st;
    const int jacobi = g->fn == SV_FN(SYEVJ) || g->fn == SV_FN(GESVDJ);
    if (jacobi && !g->jp)
        return trn_solver_status(trn_fail(trnsciErrorInvalidValue, "%s: params is NULL", g->name));
    const int svd = g->fn == SV_FN(GESVD) || g->fn == SV_FN(GESVDJ);
    char what[7][40];
    snprintf(what[0], sizeof(what[0]), "%s: A", g->name);
    snprintf(what[1], sizeof(what[1]), "%s: B", g->name);
    snprintf(what[2], sizeof(what[2]), "%s: %s", g->name, svd ? "S" : "W");
    snprintf(what[3], sizeof(what[3]), "%s: U", g->name);
    snprintf(what[4], sizeof(what[4]), "%s: %s", g->name, g->fn == SV_FN(GESVD) ? "VT" : "V");
    snprintf(what[5], sizeof(what[5]), "%s: rwork", g->name);
    snprintf(what[6], sizeof(what[6]), "%s: devInfo", g->name);
    Trnsci__V1__BufferRef a, b, w, u, v, rw, info;
    if (trn_solver_ref(c, g->a, what[0], &a, &st) || trn_solver_ref(c, g->b, what[1], &b, &st) ||
        trn_solver_ref(c, g->w, what[2], &w, &st) || trn_solver_ref(c, g->u, what[3], &u, &st) ||
        trn_solver_ref(c, g->v, what[4], &v, &st) ||
        trn_solver_ref(c, g->rwork, what[5], &rw, &st) ||
        trn_solver_ref(c, g->info, what[6], &info, &st))
        return st;
    Trnsci__V1__SolverEigenOp e = TRNSCI__V1__SOLVER_EIGEN_OP__INIT;
    e.function = g->fn;
    e.type = g->type;
    e.jobz = g->jobz;
    e.uplo = g->uplo;
    e.itype = g->itype;
    e.jobu = g->jobu;
    e.jobvt = g->jobvt;
    e.econ = g->econ;
    e.m = g->m;
    e.n = g->n;
    e.a = &a;
    e.lda = g->lda;
    e.b = &b;
    e.ldb = g->ldb;
    e.w = &w;
    e.u = &u;
    e.ldu = g->ldu;
    e.v = &v;
    e.ldv = g->ldv;
    e.rwork = &rw;
    e.info = &info;
    return trn_solver_eigen_submit(c, handle, &e, jacobi ? g->jp : NULL, g->name);
}

/* NSYEV: syevd or heevd; NSYGV: sygvd or hegvd; NSYEVJ: syevj or heevj. */
#define EIGEN(T, NSYEV, NSYGV, NSYEVJ, TY, RT, DT)                                                 \
    trnsolverStatus_t trnsolverDn##T##NSYEV##_bufferSize(                                          \
        trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,        \
        const TY *A, int lda, const RT *W, int *lwork) {                                           \
        (void)jobz, (void)uplo, (void)n, (void)A, (void)lda, (void)W;                              \
        return trn_solver_no_workspace(handle, lwork, #NSYEV "_bufferSize");                       \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##NSYEV(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,   \
                                            trnblasFillMode_t uplo, int n, TY *A, int lda, RT *W,  \
                                            TY *work, int lwork, int *devInfo) {                   \
        (void)work, (void)lwork;                                                                   \
        const eigen_args g = {.fn = SV_FN(SYEVD),                                                  \
                              .name = #NSYEV,                                                      \
                              .type = DT,                                                          \
                              .jobz = (int)jobz,                                                   \
                              .uplo = (int)uplo,                                                   \
                              .n = n,                                                              \
                              .a = A,                                                              \
                              .lda = lda,                                                          \
                              .w = W,                                                              \
                              .info = devInfo};                                                    \
        return eigen_submit(handle, &g);                                                           \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##NSYGV##_bufferSize(                                          \
        trnsolverDnHandle_t handle, trnsolverEigType_t itype, trnsolverEigMode_t jobz,             \
        trnblasFillMode_t uplo, int n, const TY *A, int lda, const TY *B, int ldb, const RT *W,    \
        int *lwork) {                                                                              \
        (void)itype, (void)jobz, (void)uplo, (void)n, (void)A, (void)lda, (void)B, (void)ldb,      \
            (void)W;                                                                               \
        return trn_solver_no_workspace(handle, lwork, #NSYGV "_bufferSize");                       \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##NSYGV(trnsolverDnHandle_t handle, trnsolverEigType_t itype,  \
                                            trnsolverEigMode_t jobz, trnblasFillMode_t uplo,       \
                                            int n, TY *A, int lda, TY *B, int ldb, RT *W,          \
                                            TY *work, int lwork, int *devInfo) {                   \
        (void)work, (void)lwork;                                                                   \
        const eigen_args g = {.fn = SV_FN(SYGVD),                                                  \
                              .name = #NSYGV,                                                      \
                              .type = DT,                                                          \
                              .itype = (int)itype,                                                 \
                              .jobz = (int)jobz,                                                   \
                              .uplo = (int)uplo,                                                   \
                              .n = n,                                                              \
                              .a = A,                                                              \
                              .lda = lda,                                                          \
                              .b = B,                                                              \
                              .ldb = ldb,                                                          \
                              .w = W,                                                              \
                              .info = devInfo};                                                    \
        return eigen_submit(handle, &g);                                                           \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##NSYEVJ##_bufferSize(                                         \
        trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,        \
        const TY *A, int lda, const RT *W, int *lwork, syevjInfo_t params) {                       \
        (void)jobz, (void)uplo, (void)n, (void)A, (void)lda, (void)W, (void)params;                \
        return trn_solver_no_workspace(handle, lwork, #NSYEVJ "_bufferSize");                      \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##NSYEVJ(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,  \
                                             trnblasFillMode_t uplo, int n, TY *A, int lda, RT *W, \
                                             TY *work, int lwork, int *info, syevjInfo_t params) { \
        (void)work, (void)lwork;                                                                   \
        const eigen_args g = {.fn = SV_FN(SYEVJ),                                                  \
                              .name = #NSYEVJ,                                                     \
                              .type = DT,                                                          \
                              .jobz = (int)jobz,                                                   \
                              .uplo = (int)uplo,                                                   \
                              .n = n,                                                              \
                              .a = A,                                                              \
                              .lda = lda,                                                          \
                              .w = W,                                                              \
                              .info = info,                                                        \
                              .jp = params ? &params->p : NULL};                                   \
        return eigen_submit(handle, &g);                                                           \
    }
EIGEN(S, syevd, sygvd, syevj, float, float, SV_R32)
EIGEN(D, syevd, sygvd, syevj, double, double, SV_R64)
EIGEN(C, heevd, hegvd, heevj, trnComplex, float, SV_C32)
EIGEN(Z, heevd, hegvd, heevj, trnDoubleComplex, double, SV_C64)

#define SVD(T, TY, RT, DT)                                                                         \
    trnsolverStatus_t trnsolverDn##T##gesvd_bufferSize(trnsolverDnHandle_t handle, int m, int n,   \
                                                       int *lwork) {                               \
        (void)m, (void)n;                                                                          \
        return trn_solver_no_workspace(handle, lwork, "gesvd_bufferSize");                         \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##gesvd(trnsolverDnHandle_t handle, signed char jobu,          \
                                            signed char jobvt, int m, int n, TY *A, int lda,       \
                                            RT *S, TY *U, int ldu, TY *VT, int ldvt, TY *work,     \
                                            int lwork, RT *rwork, int *devInfo) {                  \
        (void)work, (void)lwork;                                                                   \
        const eigen_args g = {.fn = SV_FN(GESVD),                                                  \
                              .name = "gesvd",                                                     \
                              .type = DT,                                                          \
                              .jobu = jobu,                                                        \
                              .jobvt = jobvt,                                                      \
                              .m = m,                                                              \
                              .n = n,                                                              \
                              .a = A,                                                              \
                              .lda = lda,                                                          \
                              .w = S,                                                              \
                              .u = U,                                                              \
                              .ldu = ldu,                                                          \
                              .v = VT,                                                             \
                              .ldv = ldvt,                                                         \
                              .rwork = rwork,                                                      \
                              .info = devInfo};                                                    \
        return eigen_submit(handle, &g);                                                           \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##gesvdj_bufferSize(                                           \
        trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int econ, int m, int n, const TY *A,  \
        int lda, const RT *S, const TY *U, int ldu, const TY *V, int ldv, int *lwork,              \
        gesvdjInfo_t params) {                                                                     \
        (void)jobz, (void)econ, (void)m, (void)n, (void)A, (void)lda, (void)S, (void)U, (void)ldu, \
            (void)V, (void)ldv, (void)params;                                                      \
        return trn_solver_no_workspace(handle, lwork, "gesvdj_bufferSize");                        \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##gesvdj(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,  \
                                             int econ, int m, int n, TY *A, int lda, RT *S, TY *U, \
                                             int ldu, TY *V, int ldv, TY *work, int lwork,         \
                                             int *info, gesvdjInfo_t params) {                     \
        (void)work, (void)lwork;                                                                   \
        const eigen_args g = {.fn = SV_FN(GESVDJ),                                                 \
                              .name = "gesvdj",                                                    \
                              .type = DT,                                                          \
                              .jobz = (int)jobz,                                                   \
                              .econ = econ,                                                        \
                              .m = m,                                                              \
                              .n = n,                                                              \
                              .a = A,                                                              \
                              .lda = lda,                                                          \
                              .w = S,                                                              \
                              .u = U,                                                              \
                              .ldu = ldu,                                                          \
                              .v = V,                                                              \
                              .ldv = ldv,                                                          \
                              .info = info,                                                        \
                              .jp = params ? &params->p : NULL};                                   \
        return eigen_submit(handle, &g);                                                           \
    }
SVD(S, float, float, SV_R32)
SVD(D, double, double, SV_R64)
SVD(C, trnComplex, float, SV_C32)
SVD(Z, trnDoubleComplex, double, SV_C64)
