/*
 * solver_params.c — trnsolver's parameter objects: syevjInfo_t and
 * gesvdjInfo_t (Jacobi controls, plus a 16-byte device record the daemon
 * writes the residual and the executed sweeps into, read back by the
 * Get* calls), trnsolverIterParams_t (controls of the iterative routines)
 * and trnsolverOperator_t (the operator of a Krylov solver: a dense matrix,
 * or a copy of a trnsparse CSR / BSR descriptor). All are host
 * objects; only the Jacobi record lives in device memory, allocated when a
 * routine first uses the object in a session and freed with the object
 * (never across a trnsciDeviceReset: its pointer may name another buffer
 * then, so it is forgotten instead).
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "client/solver_internal.h"

static trnsolverStatus_t invalid(const char *fmt, const char *fn) {
    return trn_solver_status(trn_fail(trnsciErrorInvalidValue, fmt, fn));
}

void *trn_jacobi_record(trn_client *c, trn_jacobi_params *p, trnsolverStatus_t *st) {
    if (p->dev && p->gen != c->generation) {
        p->dev = NULL; /* its session ended (device reset) */
        p->used = 0;
    }
    if (!p->dev) {
        const trnsciError_t e = trnsciMalloc(&p->dev, sizeof(trnsolverIterResult_t));
        if (e != trnsciSuccess) {
            p->dev = NULL;
            *st = trn_solver_status(e);
            return NULL;
        }
        p->gen = c->generation;
    }
    return p->dev;
}

trnsolverStatus_t trn_solver_eigen_submit(trn_client *c, trnsolverDnHandle_t handle,
                                          Trnsci__V1__SolverEigenOp *e, trn_jacobi_params *jp,
                                          const char *name) {
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    Trnsci__V1__BufferRef stats;
    trnsci__v1__buffer_ref__init(&stats);
    if (jp) {
        char what[64];
        snprintf(what, sizeof(what), "%s: params", name);
        void *rec = trn_jacobi_record(c, jp, &st);
        if (!rec || trn_solver_ref(c, rec, what, &stats, &st))
            return st;
        e->tolerance = jp->tolerance;
        e->max_sweeps = jp->max_sweeps;
        e->stats = &stats;
    }
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_SOLVER_EIGEN;
    op.solver_eigen = e;
    st = trn_solver_submit(c, handle, &op);
    if (st == TRNSOLVER_STATUS_SUCCESS && jp)
        jp->used = 1;
    return st;
}

static void jacobi_free(trn_jacobi_params *p) {
    const trn_client *c = trn_client_peek();
    if (p->dev && c && c->generation == p->gen)
        (void)trnsciFree(p->dev);
}

static trnsolverStatus_t jacobi_tol(trn_jacobi_params *p, double tol, const char *fn) {
    if (!p)
        return invalid("%s: info is NULL", fn);
    if (!isfinite(tol) || tol < 0.0)
        return trn_solver_status(
            trn_fail(trnsciErrorInvalidValue, "%s: tolerance=%g must be finite and >= 0", fn, tol));
    p->tolerance = tol;
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

static trnsolverStatus_t jacobi_sweeps(trn_jacobi_params *p, int sweeps, const char *fn) {
    if (!p)
        return invalid("%s: info is NULL", fn);
    if (sweeps <= 0)
        return trn_solver_status(
            trn_fail(trnsciErrorInvalidValue, "%s: max_sweeps=%d must be > 0", fn, sweeps));
    p->max_sweeps = sweeps;
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

/* The latest record: waits for the device (a trnsciMemcpy). */
static trnsolverStatus_t jacobi_get(trnsolverDnHandle_t handle, trn_jacobi_params *p,
                                    trnsolverIterResult_t *out, const char *fn) {
    if (!handle)
        return TRNSOLVER_STATUS_NOT_INITIALIZED;
    if (!p || !out)
        return invalid("%s: info or the output pointer is NULL", fn);
    const trn_client *c = trn_client_peek();
    if (!p->used || !p->dev || !c || c->generation != p->gen)
        return invalid("%s: no routine has run with these params in this session", fn);
    const trnsciError_t e = trnsciMemcpy(out, p->dev, sizeof(*out), trnsciMemcpyDeviceToHost);
    if (e != trnsciSuccess)
        return trn_solver_status(e);
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

#define JACOBI_OBJECT(T, Name, name)                                                               \
    trnsolverStatus_t trnsolverDnCreate##Name##Info(T##Info_t *info) {                             \
        if (!info)                                                                                 \
            return invalid("%s: info is NULL", "trnsolverDnCreate" #Name "Info");                  \
        T##Info_t p = calloc(1, sizeof(*p));                                                       \
        if (!p)                                                                                    \
            return trn_solver_status(trn_fail(trnsciErrorMemoryAllocation,                         \
                                              "trnsolverDnCreate" #Name "Info: out of memory"));   \
        *info = p;                                                                                 \
        trn_ok();                                                                                  \
        return TRNSOLVER_STATUS_SUCCESS;                                                           \
    }                                                                                              \
    trnsolverStatus_t trnsolverDnDestroy##Name##Info(T##Info_t info) {                             \
        if (!info)                                                                                 \
            return invalid("%s: info is NULL", "trnsolverDnDestroy" #Name "Info");                 \
        jacobi_free(&info->p);                                                                     \
        free(info);                                                                                \
        trn_ok();                                                                                  \
        return TRNSOLVER_STATUS_SUCCESS;                                                           \
    }                                                                                              \
    trnsolverStatus_t trnsolverDnX##name##SetTolerance(T##Info_t info, double tolerance) {         \
        return jacobi_tol(info ? &info->p : NULL, tolerance, "trnsolverDnX" #name "SetTolerance"); \
    }                                                                                              \
    trnsolverStatus_t trnsolverDnX##name##SetMaxSweeps(T##Info_t info, int max_sweeps) {           \
        return jacobi_sweeps(info ? &info->p : NULL, max_sweeps,                                   \
                             "trnsolverDnX" #name "SetMaxSweeps");                                 \
    }                                                                                              \
    trnsolverStatus_t trnsolverDnX##name##SetSortEig(T##Info_t info, int sort) {                   \
        if (!info)                                                                                 \
            return invalid("%s: info is NULL", "trnsolverDnX" #name "SetSortEig");                 \
        info->p.sort = sort;                                                                       \
        trn_ok();                                                                                  \
        return TRNSOLVER_STATUS_SUCCESS;                                                           \
    }                                                                                              \
    trnsolverStatus_t trnsolverDnX##name##GetResidual(trnsolverDnHandle_t handle, T##Info_t info,  \
                                                      double *residual) {                          \
        trnsolverIterResult_t r;                                                                   \
        const trnsolverStatus_t st =                                                               \
            jacobi_get(handle, info ? &info->p : NULL, residual ? &r : NULL,                       \
                       "trnsolverDnX" #name "GetResidual");                                        \
        if (st == TRNSOLVER_STATUS_SUCCESS)                                                        \
            *residual = r.residual;                                                                \
        return st;                                                                                 \
    }                                                                                              \
    trnsolverStatus_t trnsolverDnX##name##GetSweeps(trnsolverDnHandle_t handle, T##Info_t info,    \
                                                    int *executed_sweeps) {                        \
        trnsolverIterResult_t r;                                                                   \
        const trnsolverStatus_t st =                                                               \
            jacobi_get(handle, info ? &info->p : NULL, executed_sweeps ? &r : NULL,                \
                       "trnsolverDnX" #name "GetSweeps");                                          \
        if (st == TRNSOLVER_STATUS_SUCCESS)                                                        \
            *executed_sweeps = r.iterations;                                                       \
        return st;                                                                                 \
    }
JACOBI_OBJECT(syevj, Syevj, syevj)
JACOBI_OBJECT(gesvdj, Gesvdj, gesvdj)

/* ---- iteration controls --------------------------------------------------------------- */

trnsolverStatus_t trnsolverCreateIterParams(trnsolverIterParams_t *params) {
    if (!params)
        return invalid("%s: params is NULL", "trnsolverCreateIterParams");
    trnsolverIterParams_t p = calloc(1, sizeof(*p));
    if (!p)
        return trn_solver_status(
            trn_fail(trnsciErrorMemoryAllocation, "trnsolverCreateIterParams: out of memory"));
    *params = p;
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDestroyIterParams(trnsolverIterParams_t params) {
    if (!params)
        return invalid("%s: params is NULL", "trnsolverDestroyIterParams");
    free(params);
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverIterParamsSetTolerance(trnsolverIterParams_t params, double tolerance) {
    if (!params)
        return invalid("%s: params is NULL", "trnsolverIterParamsSetTolerance");
    if (!isfinite(tolerance) || tolerance < 0.0)
        return trn_solver_status(trn_fail(
            trnsciErrorInvalidValue,
            "trnsolverIterParamsSetTolerance: tolerance=%g must be finite and >= 0", tolerance));
    params->tolerance = tolerance;
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverIterParamsSetMaxIters(trnsolverIterParams_t params, int maxIters) {
    if (!params)
        return invalid("%s: params is NULL", "trnsolverIterParamsSetMaxIters");
    if (maxIters < 0)
        return trn_solver_status(
            trn_fail(trnsciErrorInvalidValue,
                     "trnsolverIterParamsSetMaxIters: maxIters=%d must be >= 0", maxIters));
    params->max_iters = maxIters;
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverIterParamsSetRestart(trnsolverIterParams_t params, int restart) {
    if (!params)
        return invalid("%s: params is NULL", "trnsolverIterParamsSetRestart");
    if (restart < 0)
        return trn_solver_status(trn_fail(trnsciErrorInvalidValue,
                                          "trnsolverIterParamsSetRestart: restart=%d must be >= 0",
                                          restart));
    params->restart = restart;
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverIterParamsSetPreconditioner(trnsolverIterParams_t params,
                                                       trnsolverPrecond_t precond, int blockSize,
                                                       double omega) {
    if (!params)
        return invalid("%s: params is NULL", "trnsolverIterParamsSetPreconditioner");
    if (precond < TRNSOLVER_PRECOND_NONE || precond > TRNSOLVER_PRECOND_SSOR)
        return trn_solver_status(
            trn_fail(trnsciErrorInvalidValue,
                     "trnsolverIterParamsSetPreconditioner: precond=%d is not NONE, JACOBI, "
                     "BLOCK_JACOBI or SSOR",
                     (int)precond));
    if (blockSize < 0)
        return trn_solver_status(
            trn_fail(trnsciErrorInvalidValue,
                     "trnsolverIterParamsSetPreconditioner: blockSize=%d must be >= 0", blockSize));
    if (!(omega == 0.0 || (omega > 0.0 && omega < 2.0)))
        return trn_solver_status(trn_fail(
            trnsciErrorInvalidValue,
            "trnsolverIterParamsSetPreconditioner: omega=%g must be in (0, 2) (0: 1)", omega));
    params->precond = precond;
    params->block_size = blockSize;
    params->omega = omega;
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

/* ---- operators -------------------------------------------------------------------------- */

static trnsolverStatus_t dense_operator(trnsolverOperator_t *op, int n, const void *a, int lda,
                                        int type, const char *fn) {
    if (!op)
        return invalid("%s: op is NULL", fn);
    if (n < 0 || lda < (n > 1 ? n : 1))
        return trn_solver_status(trn_fail(
            trnsciErrorInvalidValue, "%s: n=%d must be >= 0 and lda=%d >= max(1, n)", fn, n, lda));
    trnsolverOperator_t p = calloc(1, sizeof(*p));
    if (!p)
        return trn_solver_status(trn_fail(trnsciErrorMemoryAllocation, "%s: out of memory", fn));
    p->type = type;
    p->n = n;
    p->lda = lda;
    p->a = a;
    *op = p;
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverCreateDenseOperatorS(trnsolverOperator_t *op, int n, const float *A,
                                                int lda) {
    return dense_operator(op, n, A, lda, SV_R32, "trnsolverCreateDenseOperatorS");
}

trnsolverStatus_t trnsolverCreateDenseOperatorD(trnsolverOperator_t *op, int n, const double *A,
                                                int lda) {
    return dense_operator(op, n, A, lda, SV_R64, "trnsolverCreateDenseOperatorD");
}

trnsolverStatus_t trnsolverCreateSparseOperator(trnsolverOperator_t *op,
                                                trnsparseConstSpMatDescr_t matA) {
    static const char fn[] = "trnsolverCreateSparseOperator";
    if (!op)
        return invalid("%s: op is NULL", fn);
    if (!matA)
        return invalid("%s: matA is NULL", fn);
    if (matA->format != TRNSPARSE_FORMAT_CSR && matA->format != TRNSPARSE_FORMAT_BSR)
        return invalid("%s: matA must be CSR or BSR", fn);
    if (matA->valueType != TRNSCI_R_32F && matA->valueType != TRNSCI_R_64F)
        return trn_solver_status(
            trn_fail(trnsciErrorNotSupported, "%s: matA's value type must be R_32F or R_64F", fn));
    /* Elements: BSR rows and cols count blocks of rb x cb. */
    const int64_t rows = matA->rows * matA->rb, cols = matA->cols * matA->cb;
    if (rows != cols || rows > INT_MAX)
        return trn_solver_status(trn_fail(trnsciErrorInvalidValue,
                                          "%s: matA is %lld x %lld: it must be square with n "
                                          "<= %d",
                                          fn, (long long)rows, (long long)cols, INT_MAX));
    trnsolverOperator_t p = calloc(1, sizeof(*p));
    if (!p)
        return trn_solver_status(trn_fail(trnsciErrorMemoryAllocation, "%s: out of memory", fn));
    p->type = matA->valueType == TRNSCI_R_32F ? SV_R32 : SV_R64;
    p->n = (int)rows;
    p->lda = 1;
    p->sparse = 1;
    p->sp = *matA;
    *op = p;
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDestroyOperator(trnsolverOperator_t op) {
    if (!op)
        return invalid("%s: op is NULL", "trnsolverDestroyOperator");
    free(op);
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}
