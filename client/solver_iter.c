/*
 * solver_iter.c — trnsolver's iterative routines: the trnsci extensions
 * (invSqrtSpd, DSsolveSpd, DSgmresIr: one SolverRefineOp each) and the
 * Krylov solvers (cg, gmres, bicgstab: one SolverKrylovOp each, on a dense
 * or a trnsparse CSR / BSR operator). Their
 * controls come from a trnsolverIterParams_t read now (NULL: defaults, sent
 * as zeros the daemon replaces); the iteration record goes to the caller's
 * device pointer devResult, written in stream order.
 */
#include <stdio.h>

#include "client/solver_internal.h"

static const struct trnsolverIterParams defaults; /* all zero: every default */

typedef struct refine_args {
    Trnsci__V1__SolverFunction fn;
    const char *name;
    Trnsci__V1__DataType type;
    int uplo, n, nrhs;
    const void *a;
    int lda;
    const void *b;
    int ldb;
    const void *x;
    int ldx;
    trnsolverIterParams_t params;
    const void *result;
    const int *info;
} refine_args;

static trnsolverStatus_t refine_submit(trnsolverDnHandle_t handle, const refine_args *g) {
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    trn_client *c = trn_solver_begin(handle, &st);
    if (!c)
        return st;
    const struct trnsolverIterParams *p = g->params ? g->params : &defaults;
    char what[5][40];
    snprintf(what[0], sizeof(what[0]), "%s: A", g->name);
    snprintf(what[1], sizeof(what[1]), "%s: B", g->name);
    snprintf(what[2], sizeof(what[2]), "%s: X", g->name);
    snprintf(what[3], sizeof(what[3]), "%s: devResult", g->name);
    snprintf(what[4], sizeof(what[4]), "%s: devInfo", g->name);
    Trnsci__V1__BufferRef a, b, x, res, info;
    if (trn_solver_ref(c, g->a, what[0], &a, &st) || trn_solver_ref(c, g->b, what[1], &b, &st) ||
        trn_solver_ref(c, g->x, what[2], &x, &st) ||
        trn_solver_ref(c, g->result, what[3], &res, &st) ||
        trn_solver_ref(c, g->info, what[4], &info, &st))
        return st;
    Trnsci__V1__SolverRefineOp w = TRNSCI__V1__SOLVER_REFINE_OP__INIT;
    w.function = g->fn;
    w.type = g->type;
    w.uplo = g->uplo;
    w.n = g->n;
    w.nrhs = g->nrhs;
    w.a = &a;
    w.lda = g->lda;
    w.b = &b;
    w.ldb = g->ldb;
    w.x = &x;
    w.ldx = g->ldx;
    w.tolerance = p->tolerance;
    w.max_iters = p->max_iters;
    w.restart = p->restart;
    w.stats = &res;
    w.info = &info;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_SOLVER_REFINE;
    op.solver_refine = &w;
    return trn_solver_submit(c, handle, &op);
}

trnsolverStatus_t trnsolverDnSinvSqrtSpd(trnsolverDnHandle_t handle, int n, const float *A, int lda,
                                         float *X, int ldx, trnsolverIterParams_t params,
                                         trnsolverIterResult_t *devResult) {
    const refine_args g = {
        SV_FN(INV_SQRT_SPD), "invSqrtSpd", SV_R32, 0, n, 0, A, lda, NULL, 1, X, ldx, params,
        devResult,           NULL};
    return refine_submit(handle, &g);
}

trnsolverStatus_t trnsolverDnDinvSqrtSpd(trnsolverDnHandle_t handle, int n, const double *A,
                                         int lda, double *X, int ldx, trnsolverIterParams_t params,
                                         trnsolverIterResult_t *devResult) {
    const refine_args g = {
        SV_FN(INV_SQRT_SPD), "invSqrtSpd", SV_R64, 0, n, 0, A, lda, NULL, 1, X, ldx, params,
        devResult,           NULL};
    return refine_submit(handle, &g);
}

trnsolverStatus_t trnsolverDnDSsolveSpd(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                        int nrhs, const double *A, int lda, const double *B,
                                        int ldb, double *X, int ldx, trnsolverIterParams_t params,
                                        trnsolverIterResult_t *devResult, int *devInfo) {
    const refine_args g = {
        SV_FN(SOLVE_SPD_IR), "solveSpd", SV_R64, (int)uplo, n, nrhs, A, lda, B, ldb, X, ldx, params,
        devResult,           devInfo};
    return refine_submit(handle, &g);
}

trnsolverStatus_t trnsolverDnDSgmresIr(trnsolverDnHandle_t handle, int n, int nrhs, const double *A,
                                       int lda, const double *B, int ldb, double *X, int ldx,
                                       trnsolverIterParams_t params,
                                       trnsolverIterResult_t *devResult, int *devInfo) {
    const refine_args g = {SV_FN(GMRES_IR), "gmresIr", SV_R64, 0, n, nrhs, A, lda, B, ldb, X, ldx,
                           params,          devResult, devInfo};
    return refine_submit(handle, &g);
}

/* ---- Krylov solvers ------------------------------------------------------------------- */

static trnsolverStatus_t krylov_submit(trnsolverDnHandle_t handle, Trnsci__V1__SolverFunction fn,
                                       const char *name, Trnsci__V1__DataType type,
                                       trnsolverOperator_t A, const void *b, const void *x,
                                       trnsolverIterParams_t params, const void *result) {
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    trn_client *c = trn_solver_begin(handle, &st);
    if (!c)
        return st;
    if (!A)
        return trn_solver_status(trn_fail(trnsciErrorInvalidValue, "%s: A is NULL", name));
    if (A->type != (int)type)
        return trn_solver_status(
            trn_fail(trnsciErrorInvalidValue,
                     "%s: the operator's type does not match the routine's (%s)", name,
                     type == SV_R32 ? "float: trnsolverCreateDenseOperatorS, or a sparse matrix "
                                      "of TRNSCI_R_32F"
                                    : "double: trnsolverCreateDenseOperatorD, or a sparse matrix "
                                      "of TRNSCI_R_64F"));
    if (A->sparse && trn_client_need_minor(c, 5, "a sparse operator"))
        return trn_solver_status(trnsciErrorNotSupported);
    const struct trnsolverIterParams *p = params ? params : &defaults;
    char what[4][40];
    snprintf(what[0], sizeof(what[0]), "%s: A", name);
    snprintf(what[1], sizeof(what[1]), "%s: b", name);
    snprintf(what[2], sizeof(what[2]), "%s: x", name);
    snprintf(what[3], sizeof(what[3]), "%s: devResult", name);
    Trnsci__V1__BufferRef a, bref, xref, res;
    trn_wire_spmat sp;
    Trnsci__V1__SolverDenseMatrix dense = TRNSCI__V1__SOLVER_DENSE_MATRIX__INIT;
    Trnsci__V1__SolverKrylovOp w = TRNSCI__V1__SOLVER_KRYLOV_OP__INIT;
    if (A->sparse) {
        const trnsciError_t e = trn_sparse_wire_spmat(c, &A->sp, name, "A", &sp);
        if (e != trnsciSuccess)
            return trn_solver_status(e);
        w.matrix_case = TRNSCI__V1__SOLVER_KRYLOV_OP__MATRIX_SPARSE;
        w.sparse = &sp.m;
    } else {
        if (trn_solver_ref(c, A->a, what[0], &a, &st))
            return st;
        dense.a = &a;
        dense.lda = A->lda;
        w.matrix_case = TRNSCI__V1__SOLVER_KRYLOV_OP__MATRIX_DENSE;
        w.dense = &dense;
    }
    if (trn_solver_ref(c, b, what[1], &bref, &st) || trn_solver_ref(c, x, what[2], &xref, &st) ||
        trn_solver_ref(c, result, what[3], &res, &st))
        return st;
    w.function = fn;
    w.type = type;
    w.n = A->n;
    w.b = &bref;
    w.x = &xref;
    w.tolerance = p->tolerance;
    w.max_iters = p->max_iters;
    w.restart = p->restart;
    w.preconditioner = (Trnsci__V1__SolverPreconditioner)p->precond;
    w.block_size = p->block_size;
    w.omega = p->omega;
    w.stats = &res;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_SOLVER_KRYLOV;
    op.solver_krylov = &w;
    return trn_solver_submit(c, handle, &op);
}

#define KRYLOV(T, TY, DT, NAME, FN)                                                                \
    trnsolverStatus_t trnsolver##T##NAME(trnsolverDnHandle_t handle, trnsolverOperator_t A,        \
                                         const TY *b, TY *x, trnsolverIterParams_t params,         \
                                         trnsolverIterResult_t *devResult) {                       \
        return krylov_submit(handle, SV_FN(FN), #NAME, DT, A, b, x, params, devResult);            \
    }
KRYLOV(S, float, SV_R32, cg, CG)
KRYLOV(D, double, SV_R64, cg, CG)
KRYLOV(S, float, SV_R32, gmres, GMRES)
KRYLOV(D, double, SV_R64, gmres, GMRES)
KRYLOV(S, float, SV_R32, bicgstab, BICGSTAB)
KRYLOV(D, double, SV_R64, bicgstab, BICGSTAB)
