/*
 * solver_irs.c — cuSOLVER's mixed-precision iterative refinement solvers:
 * trnsolverDn<t1><t2>gesv and the expert trnsolverDnIRSXgesv (A X = B),
 * trnsolverDn<t1><t2>gels and trnsolverDnIRSXgels (min ||A X - B||, m >= n),
 * and the params and infos objects they share. Each solve is one
 * SolverRefineOp (IRS_GESV, protocol 1.14; IRS_GELS, 1.15) on the handle's
 * stream; the kernel writes its iteration record and
 * residual history into the caller's dWorkspace, and the call then waits
 * for the stream and reads them back, because niters is a host output (as
 * in cuSOLVER, where these solvers block too).
 *
 * Workspace layout (what _bufferSize counts): the 16-byte
 * trnsolverIterResult_t record at offset 0, then (maxiters + 1) x 2
 * doubles of residual history.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "client/solver_internal.h"

#define IRS_DEFAULT_MAXITERS 50
#define IRS_RECORD 16u

struct trnsolverDnIRSParams {
    trnsolverPrecType_t main, lowest; /* 0: unset (lowest unset: main) */
    trnsolverIRSRefinement_t refine;
    double tol, tol_inner;
    int maxiters, maxiters_inner;
    int no_fallback;
};

/* The outer iteration count cuSOLVER reports is niters for every
 * refinement trnsci runs, so it is derived, not stored. */
struct trnsolverDnIRSInfos {
    int niters, maxiters;
    int want_residual;
    double *history; /* 2 (maxiters + 1) doubles once a solve has run */
};

static size_t irs_bytes(int maxiters) {
    return IRS_RECORD + 2u * sizeof(double) * ((size_t)maxiters + 1u);
}

static trnsolverStatus_t bad(trnsolverStatus_t st, const char *fmt, const char *fn) {
    trn_fail(trnsciErrorInvalidValue, fmt, fn);
    return st;
}

/* The wire type of a main precision, or 0. */
static Trnsci__V1__DataType wire_type(trnsolverPrecType_t p) {
    switch (p) {
    case TRNSOLVER_R_32F: return SV_R32;
    case TRNSOLVER_R_64F: return SV_R64;
    case TRNSOLVER_C_32F: return SV_C32;
    case TRNSOLVER_C_64F: return SV_C64;
    default: return 0;
    }
}

typedef struct irs_call {
    const char *name;
    int gels; /* IRS_GELS: A is m x n; else IRS_GESV, m == n */
    int m;
    trnsolverPrecType_t main, lowest;
    trnsolverIRSRefinement_t refine;
    double tol;
    int maxiters, no_fallback;
    int n, nrhs;
    const void *a;
    int lda;
    const int *ipiv;
    const void *b;
    int ldb;
    const void *x;
    int ldx;
    void *work;
    size_t lwork;
    int *info;
} irs_call;

/* Queues the solve, waits, and returns niters (and the history when hist
 * is given, 2 (maxiters + 1) doubles). */
static trnsolverStatus_t irs_run(trnsolverDnHandle_t handle, const irs_call *g, int *niters,
                                 double *hist) {
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    trn_client *c = trn_solver_begin(handle, &st);
    if (!c)
        return st;
    if (!niters)
        return bad(TRNSOLVER_STATUS_INVALID_VALUE, "%s: iter is NULL", g->name);
    if (!g->work)
        return bad(TRNSOLVER_STATUS_INVALID_VALUE, "%s: dWorkspace is NULL", g->name);
    const size_t need = irs_bytes(g->maxiters);
    if (g->lwork < need) {
        trn_fail(trnsciErrorInvalidValue, "%s: lwork_bytes=%zu is below the %zu _bufferSize gives",
                 g->name, g->lwork, need);
        return TRNSOLVER_STATUS_INVALID_VALUE;
    }
    trnsciError_t e = trn_client_need_minor(c, g->gels ? 15 : 14, g->name);
    if (e != trnsciSuccess)
        return trn_solver_status(e);
    /* The operands' names in messages, by routine. */
    static const char *const names[2][6] = {
        {"IRSXgesv: dA", "IRSXgesv: dB", "IRSXgesv: dX", "IRSXgesv: d_info", "IRSXgesv: dipiv",
         "IRSXgesv: dWorkspace"},
        {"IRSXgels: dA", "IRSXgels: dB", "IRSXgels: dX", "IRSXgels: d_info", "IRSXgels: dipiv",
         "IRSXgels: dWorkspace"}};
    const char *const *nm = names[g->gels != 0];
    Trnsci__V1__BufferRef a, b, x, info, piv = TRNSCI__V1__BUFFER_REF__INIT, rec, his;
    if (trn_solver_ref(c, g->a, nm[0], &a, &st) || trn_solver_ref(c, g->b, nm[1], &b, &st) ||
        trn_solver_ref(c, g->x, nm[2], &x, &st) || trn_solver_ref(c, g->info, nm[3], &info, &st) ||
        (g->ipiv && trn_solver_ref(c, g->ipiv, nm[4], &piv, &st)) ||
        trn_solver_ref(c, g->work, nm[5], &rec, &st) ||
        trn_solver_ref(c, (char *)g->work + IRS_RECORD, nm[5], &his, &st))
        return st;
    Trnsci__V1__SolverRefineOp w = TRNSCI__V1__SOLVER_REFINE_OP__INIT;
    w.function = g->gels ? SV_FN(IRS_GELS) : SV_FN(IRS_GESV);
    w.type = wire_type(g->main);
    w.m = g->gels ? g->m : 0;
    w.n = g->n;
    w.nrhs = g->nrhs;
    w.a = &a;
    w.lda = g->lda;
    w.b = &b;
    w.ldb = g->ldb;
    w.x = &x;
    w.ldx = g->ldx;
    w.tolerance = g->tol;
    w.max_iters = g->maxiters;
    w.stats = &rec;
    w.info = &info;
    w.lowest_precision = g->lowest;
    w.refinement = g->refine;
    w.no_fallback = g->no_fallback;
    w.ipiv = g->ipiv ? &piv : NULL;
    w.history = &his;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_SOLVER_REFINE;
    op.solver_refine = &w;
    e = trn_client_submit(c, handle->stream, &op);
    if (e == trnsciSuccess)
        e = trnsciStreamSynchronize(handle->stream);
    trnsolverIterResult_t r;
    if (e == trnsciSuccess)
        e = trnsciMemcpy(&r, g->work, sizeof(r), trnsciMemcpyDeviceToHost);
    if (e == trnsciSuccess && hist)
        e = trnsciMemcpy(hist, (char *)g->work + IRS_RECORD, need - IRS_RECORD,
                         trnsciMemcpyDeviceToHost);
    if (e != trnsciSuccess)
        return trn_solver_status(e);
    *niters = r.iterations;
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

/* The arguments _bufferSize can check without the daemon (gesv passes
 * m = n). */
static trnsolverStatus_t size_args(trnsolverDnHandle_t handle, const char *fn, int m, int n,
                                   int nrhs, const size_t *lwork) {
    if (!handle)
        return TRNSOLVER_STATUS_NOT_INITIALIZED;
    if (!lwork)
        return bad(TRNSOLVER_STATUS_INVALID_VALUE, "%s: lwork_bytes is NULL", fn);
    if (n < 0 || nrhs < 0 || m < n) {
        trn_fail(trnsciErrorInvalidValue,
                 "%s: m=%d, n=%d and nrhs=%d must be m >= n >= 0, nrhs >= 0", fn, m, n, nrhs);
        return TRNSOLVER_STATUS_INVALID_VALUE;
    }
    return TRNSOLVER_STATUS_SUCCESS;
}

/* ---- <t1><t2>gesv ----------------------------------------------------------------------- */

#define IRS_GESV(T1T2, T, MAIN, LOWEST)                                                            \
    trnsolverStatus_t trnsolverDn##T1T2##gesv_bufferSize(                                          \
        trnsolverDnHandle_t handle, trnsolver_int_t n, trnsolver_int_t nrhs, T *dA,                \
        trnsolver_int_t ldda, trnsolver_int_t *dipiv, T *dB, trnsolver_int_t lddb, T *dX,          \
        trnsolver_int_t lddx, void *dWorkspace, size_t *lwork_bytes) {                             \
        (void)dA, (void)ldda, (void)dipiv, (void)dB, (void)lddb, (void)dX, (void)lddx,             \
            (void)dWorkspace;                                                                      \
        const trnsolverStatus_t st =                                                               \
            size_args(handle, #T1T2 "gesv_bufferSize", n, n, nrhs, lwork_bytes);                   \
        if (st != TRNSOLVER_STATUS_SUCCESS)                                                        \
            return st;                                                                             \
        *lwork_bytes = irs_bytes(IRS_DEFAULT_MAXITERS);                                            \
        trn_ok();                                                                                  \
        return TRNSOLVER_STATUS_SUCCESS;                                                           \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T1T2##gesv(                                                     \
        trnsolverDnHandle_t handle, trnsolver_int_t n, trnsolver_int_t nrhs, T *dA,                \
        trnsolver_int_t ldda, trnsolver_int_t *dipiv, T *dB, trnsolver_int_t lddb, T *dX,          \
        trnsolver_int_t lddx, void *dWorkspace, size_t lwork_bytes, trnsolver_int_t *iter,         \
        trnsolver_int_t *d_info) {                                                                 \
        const irs_call g = {#T1T2 "gesv",                                                          \
                            0,                                                                     \
                            n,                                                                     \
                            MAIN,                                                                  \
                            LOWEST,                                                                \
                            TRNSOLVER_IRS_REFINE_CLASSICAL,                                        \
                            0.0,                                                                   \
                            IRS_DEFAULT_MAXITERS,                                                  \
                            0,                                                                     \
                            n,                                                                     \
                            nrhs,                                                                  \
                            dA,                                                                    \
                            ldda,                                                                  \
                            dipiv,                                                                 \
                            dB,                                                                    \
                            lddb,                                                                  \
                            dX,                                                                    \
                            lddx,                                                                  \
                            dWorkspace,                                                            \
                            lwork_bytes,                                                           \
                            d_info};                                                               \
        return irs_run(handle, &g, iter, NULL);                                                    \
    }

IRS_GESV(DD, double, TRNSOLVER_R_64F, TRNSOLVER_R_64F)
IRS_GESV(DS, double, TRNSOLVER_R_64F, TRNSOLVER_R_32F)
IRS_GESV(DH, double, TRNSOLVER_R_64F, TRNSOLVER_R_16F)
IRS_GESV(DB, double, TRNSOLVER_R_64F, TRNSOLVER_R_16BF)
IRS_GESV(DX, double, TRNSOLVER_R_64F, TRNSOLVER_R_TF32)
IRS_GESV(SS, float, TRNSOLVER_R_32F, TRNSOLVER_R_32F)
IRS_GESV(SH, float, TRNSOLVER_R_32F, TRNSOLVER_R_16F)
IRS_GESV(SB, float, TRNSOLVER_R_32F, TRNSOLVER_R_16BF)
IRS_GESV(SX, float, TRNSOLVER_R_32F, TRNSOLVER_R_TF32)
IRS_GESV(ZZ, trnDoubleComplex, TRNSOLVER_C_64F, TRNSOLVER_C_64F)
IRS_GESV(ZC, trnDoubleComplex, TRNSOLVER_C_64F, TRNSOLVER_C_32F)
IRS_GESV(ZK, trnDoubleComplex, TRNSOLVER_C_64F, TRNSOLVER_C_16F)
IRS_GESV(ZE, trnDoubleComplex, TRNSOLVER_C_64F, TRNSOLVER_C_16BF)
IRS_GESV(ZY, trnDoubleComplex, TRNSOLVER_C_64F, TRNSOLVER_C_TF32)
IRS_GESV(CC, trnComplex, TRNSOLVER_C_32F, TRNSOLVER_C_32F)
IRS_GESV(CK, trnComplex, TRNSOLVER_C_32F, TRNSOLVER_C_16F)
IRS_GESV(CE, trnComplex, TRNSOLVER_C_32F, TRNSOLVER_C_16BF)
IRS_GESV(CY, trnComplex, TRNSOLVER_C_32F, TRNSOLVER_C_TF32)

/* ---- <t1><t2>gels ----------------------------------------------------------------------- */

#define IRS_GELS(T1T2, T, MAIN, LOWEST)                                                            \
    trnsolverStatus_t trnsolverDn##T1T2##gels_bufferSize(                                          \
        trnsolverDnHandle_t handle, trnsolver_int_t m, trnsolver_int_t n, trnsolver_int_t nrhs,    \
        T *dA, trnsolver_int_t ldda, T *dB, trnsolver_int_t lddb, T *dX, trnsolver_int_t lddx,     \
        void *dWorkspace, size_t *lwork_bytes) {                                                   \
        (void)dA, (void)ldda, (void)dB, (void)lddb, (void)dX, (void)lddx, (void)dWorkspace;        \
        const trnsolverStatus_t st =                                                               \
            size_args(handle, #T1T2 "gels_bufferSize", m, n, nrhs, lwork_bytes);                   \
        if (st != TRNSOLVER_STATUS_SUCCESS)                                                        \
            return st;                                                                             \
        *lwork_bytes = irs_bytes(IRS_DEFAULT_MAXITERS);                                            \
        trn_ok();                                                                                  \
        return TRNSOLVER_STATUS_SUCCESS;                                                           \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T1T2##gels(                                                     \
        trnsolverDnHandle_t handle, trnsolver_int_t m, trnsolver_int_t n, trnsolver_int_t nrhs,    \
        T *dA, trnsolver_int_t ldda, T *dB, trnsolver_int_t lddb, T *dX, trnsolver_int_t lddx,     \
        void *dWorkspace, size_t lwork_bytes, trnsolver_int_t *iter, trnsolver_int_t *d_info) {    \
        const irs_call g = {.name = #T1T2 "gels",                                                  \
                            .gels = 1,                                                             \
                            .m = m,                                                                \
                            .main = MAIN,                                                          \
                            .lowest = LOWEST,                                                      \
                            .refine = TRNSOLVER_IRS_REFINE_CLASSICAL,                              \
                            .maxiters = IRS_DEFAULT_MAXITERS,                                      \
                            .n = n,                                                                \
                            .nrhs = nrhs,                                                          \
                            .a = dA,                                                               \
                            .lda = ldda,                                                           \
                            .b = dB,                                                               \
                            .ldb = lddb,                                                           \
                            .x = dX,                                                               \
                            .ldx = lddx,                                                           \
                            .work = dWorkspace,                                                    \
                            .lwork = lwork_bytes,                                                  \
                            .info = d_info};                                                       \
        return irs_run(handle, &g, iter, NULL);                                                    \
    }

IRS_GELS(DD, double, TRNSOLVER_R_64F, TRNSOLVER_R_64F)
IRS_GELS(DS, double, TRNSOLVER_R_64F, TRNSOLVER_R_32F)
IRS_GELS(DH, double, TRNSOLVER_R_64F, TRNSOLVER_R_16F)
IRS_GELS(DB, double, TRNSOLVER_R_64F, TRNSOLVER_R_16BF)
IRS_GELS(DX, double, TRNSOLVER_R_64F, TRNSOLVER_R_TF32)
IRS_GELS(SS, float, TRNSOLVER_R_32F, TRNSOLVER_R_32F)
IRS_GELS(SH, float, TRNSOLVER_R_32F, TRNSOLVER_R_16F)
IRS_GELS(SB, float, TRNSOLVER_R_32F, TRNSOLVER_R_16BF)
IRS_GELS(SX, float, TRNSOLVER_R_32F, TRNSOLVER_R_TF32)
IRS_GELS(ZZ, trnDoubleComplex, TRNSOLVER_C_64F, TRNSOLVER_C_64F)
IRS_GELS(ZC, trnDoubleComplex, TRNSOLVER_C_64F, TRNSOLVER_C_32F)
IRS_GELS(ZK, trnDoubleComplex, TRNSOLVER_C_64F, TRNSOLVER_C_16F)
IRS_GELS(ZE, trnDoubleComplex, TRNSOLVER_C_64F, TRNSOLVER_C_16BF)
IRS_GELS(ZY, trnDoubleComplex, TRNSOLVER_C_64F, TRNSOLVER_C_TF32)
IRS_GELS(CC, trnComplex, TRNSOLVER_C_32F, TRNSOLVER_C_32F)
IRS_GELS(CK, trnComplex, TRNSOLVER_C_32F, TRNSOLVER_C_16F)
IRS_GELS(CE, trnComplex, TRNSOLVER_C_32F, TRNSOLVER_C_16BF)
IRS_GELS(CY, trnComplex, TRNSOLVER_C_32F, TRNSOLVER_C_TF32)

/* ---- params ------------------------------------------------------------------------------ */

#define NEED_PARAMS(p)                                                                             \
    do {                                                                                           \
        if (!(p))                                                                                  \
            return TRNSOLVER_STATUS_IRS_PARAMS_NOT_INITIALIZED;                                    \
    } while (0)

trnsolverStatus_t trnsolverDnIRSParamsCreate(trnsolverDnIRSParams_t *params_ptr) {
    if (!params_ptr)
        return bad(TRNSOLVER_STATUS_INVALID_VALUE, "%s: params_ptr is NULL",
                   "trnsolverDnIRSParamsCreate");
    trnsolverDnIRSParams_t p = calloc(1, sizeof(*p));
    if (!p)
        return TRNSOLVER_STATUS_ALLOC_FAILED;
    p->refine = TRNSOLVER_IRS_REFINE_NOT_SET;
    p->maxiters = p->maxiters_inner = IRS_DEFAULT_MAXITERS;
    *params_ptr = p;
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnIRSParamsDestroy(trnsolverDnIRSParams_t params) {
    NEED_PARAMS(params);
    free(params);
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t
trnsolverDnIRSParamsSetRefinementSolver(trnsolverDnIRSParams_t params,
                                        trnsolverIRSRefinement_t refinement_solver) {
    NEED_PARAMS(params);
    if (refinement_solver < TRNSOLVER_IRS_REFINE_NOT_SET ||
        refinement_solver > TRNSOLVER_IRS_REFINE_GMRES_NOPCOND)
        return TRNSOLVER_STATUS_IRS_PARAMS_INVALID_REFINE;
    params->refine = refinement_solver;
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t
trnsolverDnIRSParamsSetSolverMainPrecision(trnsolverDnIRSParams_t params,
                                           trnsolverPrecType_t solver_main_precision) {
    NEED_PARAMS(params);
    params->main = solver_main_precision;
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t
trnsolverDnIRSParamsSetSolverLowestPrecision(trnsolverDnIRSParams_t params,
                                             trnsolverPrecType_t solver_lowest_precision) {
    NEED_PARAMS(params);
    params->lowest = solver_lowest_precision;
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t
trnsolverDnIRSParamsSetSolverPrecisions(trnsolverDnIRSParams_t params,
                                        trnsolverPrecType_t solver_main_precision,
                                        trnsolverPrecType_t solver_lowest_precision) {
    NEED_PARAMS(params);
    params->main = solver_main_precision;
    params->lowest = solver_lowest_precision;
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnIRSParamsSetTol(trnsolverDnIRSParams_t params, double val) {
    NEED_PARAMS(params);
    if (!(val >= 0.0 && isfinite(val)))
        return TRNSOLVER_STATUS_IRS_PARAMS_INVALID;
    params->tol = val;
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnIRSParamsSetTolInner(trnsolverDnIRSParams_t params, double val) {
    NEED_PARAMS(params);
    if (!(val >= 0.0 && isfinite(val)))
        return TRNSOLVER_STATUS_IRS_PARAMS_INVALID;
    params->tol_inner = val;
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnIRSParamsSetMaxIters(trnsolverDnIRSParams_t params,
                                                  trnsolver_int_t maxiters) {
    NEED_PARAMS(params);
    /* Below INT_MAX / 32 keeps the history's bytes in an int's range. */
    if (maxiters < 1 || maxiters > 1 << 24)
        return TRNSOLVER_STATUS_IRS_PARAMS_INVALID_MAXITER;
    params->maxiters = maxiters;
    if (params->maxiters_inner > maxiters)
        params->maxiters_inner = maxiters;
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnIRSParamsSetMaxItersInner(trnsolverDnIRSParams_t params,
                                                       trnsolver_int_t maxiters_inner) {
    NEED_PARAMS(params);
    if (maxiters_inner < 1 || maxiters_inner > params->maxiters)
        return TRNSOLVER_STATUS_IRS_PARAMS_INVALID;
    params->maxiters_inner = maxiters_inner;
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnIRSParamsGetMaxIters(trnsolverDnIRSParams_t params,
                                                  trnsolver_int_t *maxiters) {
    NEED_PARAMS(params);
    if (!maxiters)
        return TRNSOLVER_STATUS_INVALID_VALUE;
    *maxiters = params->maxiters;
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnIRSParamsEnableFallback(trnsolverDnIRSParams_t params) {
    NEED_PARAMS(params);
    params->no_fallback = 0;
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnIRSParamsDisableFallback(trnsolverDnIRSParams_t params) {
    NEED_PARAMS(params);
    params->no_fallback = 1;
    return TRNSOLVER_STATUS_SUCCESS;
}

/* ---- infos ------------------------------------------------------------------------------- */

#define NEED_INFOS(p)                                                                              \
    do {                                                                                           \
        if (!(p))                                                                                  \
            return TRNSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED;                                     \
    } while (0)

trnsolverStatus_t trnsolverDnIRSInfosCreate(trnsolverDnIRSInfos_t *infos_ptr) {
    if (!infos_ptr)
        return bad(TRNSOLVER_STATUS_INVALID_VALUE, "%s: infos_ptr is NULL",
                   "trnsolverDnIRSInfosCreate");
    trnsolverDnIRSInfos_t p = calloc(1, sizeof(*p));
    if (!p)
        return TRNSOLVER_STATUS_ALLOC_FAILED;
    *infos_ptr = p;
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnIRSInfosDestroy(trnsolverDnIRSInfos_t infos) {
    NEED_INFOS(infos);
    free(infos->history);
    free(infos);
    return TRNSOLVER_STATUS_SUCCESS;
}

/* The integer results the getters read. */
typedef enum infos_field { INFOS_NITERS, INFOS_MAXITERS } infos_field;

/* What every integer getter does: no infos, no out, else *out = the field. */
static trnsolverStatus_t infos_get(trnsolverDnIRSInfos_t infos, infos_field f,
                                   trnsolver_int_t *out) {
    NEED_INFOS(infos);
    if (!out)
        return TRNSOLVER_STATUS_INVALID_VALUE;
    *out = f == INFOS_NITERS ? infos->niters : infos->maxiters;
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnIRSInfosGetNiters(trnsolverDnIRSInfos_t infos,
                                               trnsolver_int_t *niters) {
    return infos_get(infos, INFOS_NITERS, niters);
}

/* Every refinement trnsci runs has one level: the outer count is niters. */
trnsolverStatus_t trnsolverDnIRSInfosGetOuterNiters(trnsolverDnIRSInfos_t infos,
                                                    trnsolver_int_t *outer_niters) {
    return infos_get(infos, INFOS_NITERS, outer_niters);
}

trnsolverStatus_t trnsolverDnIRSInfosGetMaxIters(trnsolverDnIRSInfos_t infos,
                                                 trnsolver_int_t *maxiters) {
    return infos_get(infos, INFOS_MAXITERS, maxiters);
}

trnsolverStatus_t trnsolverDnIRSInfosRequestResidual(trnsolverDnIRSInfos_t infos) {
    NEED_INFOS(infos);
    infos->want_residual = 1;
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnIRSInfosGetResidualHistory(trnsolverDnIRSInfos_t infos,
                                                        void **residual_history) {
    NEED_INFOS(infos);
    if (!residual_history || !infos->want_residual)
        return bad(TRNSOLVER_STATUS_INVALID_VALUE,
                   "%s: residual_history is NULL or RequestResidual was not called",
                   "trnsolverDnIRSInfosGetResidualHistory");
    *residual_history = infos->history;
    return TRNSOLVER_STATUS_SUCCESS;
}

/* ---- IRSXgesv ---------------------------------------------------------------------------- */

/* The params' precisions and refinement as a solver can use them. */
static trnsolverStatus_t check_params(trnsolverDnIRSParams_t p, const char *fn) {
    if (!wire_type(p->main)) {
        trn_fail(trnsciErrorInvalidValue,
                 "%s: the main precision %d is not set or not R_32F, R_64F, C_32F, C_64F", fn,
                 (int)p->main);
        return p->main ? TRNSOLVER_STATUS_IRS_PARAMS_INVALID_PREC
                       : TRNSOLVER_STATUS_IRS_PARAMS_INVALID;
    }
    const int cx = p->main >= TRNSOLVER_C_8I;
    const trnsolverPrecType_t low = p->lowest ? p->lowest : p->main;
    const int r = (int)low - (cx ? 10 : 0);
    if (r < (int)p->main - (cx ? 10 : 0) || r > TRNSOLVER_R_TF32) {
        trn_fail(trnsciErrorInvalidValue,
                 "%s: the lowest precision %d is not a %s format no wider than the main one", fn,
                 (int)low, cx ? "complex" : "real");
        return TRNSOLVER_STATUS_IRS_PARAMS_INVALID_PREC;
    }
    if (p->refine == TRNSOLVER_IRS_REFINE_NOT_SET) {
        trn_fail(trnsciErrorInvalidValue, "%s: the refinement solver is not set", fn);
        return TRNSOLVER_STATUS_IRS_PARAMS_INVALID_REFINE;
    }
    return TRNSOLVER_STATUS_SUCCESS;
}

/* The expert buffer size: the workspace of params' maxiters. */
static trnsolverStatus_t irs_expert_size(trnsolverDnHandle_t handle, trnsolverDnIRSParams_t params,
                                         const char *fn, int m, int n, int nrhs,
                                         size_t *lwork_bytes) {
    trnsolverStatus_t st = size_args(handle, fn, m, n, nrhs, lwork_bytes);
    if (st != TRNSOLVER_STATUS_SUCCESS)
        return st;
    NEED_PARAMS(params);
    if ((st = check_params(params, fn)) != TRNSOLVER_STATUS_SUCCESS)
        return st;
    *lwork_bytes = irs_bytes(params->maxiters);
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnIRSXgesv_bufferSize(trnsolverDnHandle_t handle,
                                                 trnsolverDnIRSParams_t params, trnsolver_int_t n,
                                                 trnsolver_int_t nrhs, size_t *lwork_bytes) {
    return irs_expert_size(handle, params, "IRSXgesv_bufferSize", n, n, nrhs, lwork_bytes);
}

trnsolverStatus_t trnsolverDnIRSXgels_bufferSize(trnsolverDnHandle_t handle,
                                                 trnsolverDnIRSParams_t params, trnsolver_int_t m,
                                                 trnsolver_int_t n, trnsolver_int_t nrhs,
                                                 size_t *lwork_bytes) {
    return irs_expert_size(handle, params, "IRSXgels_bufferSize", m, n, nrhs, lwork_bytes);
}

/* The expert solvers: the call g (its precisions, refinement and limits
 * from params), results into infos when given. */
static trnsolverStatus_t irs_expert(trnsolverDnHandle_t handle, trnsolverDnIRSParams_t p,
                                    trnsolverDnIRSInfos_t inf, irs_call *g, int *niters) {
    if (!handle)
        return TRNSOLVER_STATUS_NOT_INITIALIZED;
    NEED_PARAMS(p);
    trnsolverStatus_t st = check_params(p, g->name);
    if (st != TRNSOLVER_STATUS_SUCCESS)
        return st;
    double *hist = NULL;
    if (inf && inf->want_residual) {
        hist = calloc(2 * ((size_t)p->maxiters + 1), sizeof(double));
        if (!hist)
            return TRNSOLVER_STATUS_ALLOC_FAILED;
    }
    g->main = p->main;
    g->lowest = p->lowest ? p->lowest : p->main;
    g->refine = p->refine;
    g->tol = p->tol;
    g->maxiters = p->maxiters;
    g->no_fallback = p->no_fallback;
    int it = 0;
    st = irs_run(handle, g, &it, hist);
    if (st != TRNSOLVER_STATUS_SUCCESS) {
        free(hist);
        return st;
    }
    if (niters)
        *niters = it;
    if (inf) {
        inf->niters = it;
        inf->maxiters = p->maxiters;
        free(inf->history);
        inf->history = hist;
    }
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnIRSXgesv(trnsolverDnHandle_t handle,
                                      trnsolverDnIRSParams_t gesv_irs_params,
                                      trnsolverDnIRSInfos_t gesv_irs_infos, trnsolver_int_t n,
                                      trnsolver_int_t nrhs, void *dA, trnsolver_int_t ldda,
                                      void *dB, trnsolver_int_t lddb, void *dX,
                                      trnsolver_int_t lddx, void *dWorkspace, size_t lwork_bytes,
                                      trnsolver_int_t *niters, trnsolver_int_t *d_info) {
    irs_call g = {.name = "IRSXgesv",
                  .m = n,
                  .n = n,
                  .nrhs = nrhs,
                  .a = dA,
                  .lda = ldda,
                  .b = dB,
                  .ldb = lddb,
                  .x = dX,
                  .ldx = lddx,
                  .work = dWorkspace,
                  .lwork = lwork_bytes,
                  .info = d_info};
    return irs_expert(handle, gesv_irs_params, gesv_irs_infos, &g, niters);
}

trnsolverStatus_t
trnsolverDnIRSXgels(trnsolverDnHandle_t handle, trnsolverDnIRSParams_t gels_irs_params,
                    trnsolverDnIRSInfos_t gels_irs_infos, trnsolver_int_t m, trnsolver_int_t n,
                    trnsolver_int_t nrhs, void *dA, trnsolver_int_t ldda, void *dB,
                    trnsolver_int_t lddb, void *dX, trnsolver_int_t lddx, void *dWorkspace,
                    size_t lwork_bytes, trnsolver_int_t *niters, trnsolver_int_t *d_info) {
    irs_call g = {.name = "IRSXgels",
                  .gels = 1,
                  .m = m,
                  .n = n,
                  .nrhs = nrhs,
                  .a = dA,
                  .lda = ldda,
                  .b = dB,
                  .ldb = lddb,
                  .x = dX,
                  .ldx = lddx,
                  .work = dWorkspace,
                  .lwork = lwork_bytes,
                  .info = d_info};
    return irs_expert(handle, gels_irs_params, gels_irs_infos, &g, niters);
}
