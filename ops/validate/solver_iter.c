/*
 * solver_iter.c — argument rules of the iterative trnsolver
 * routines: the trnsci extensions (inverse square root by Newton–Schulz,
 * mixed-precision refinement with an FP32 Cholesky or GMRES) and the Krylov
 * solvers (CG, GMRES(m), BiCGStab with their preconditioners) on a dense
 * or a trnsparse CSR / BSR operator. Zero
 * tolerances and counts on the wire mean the routine's default, filled in
 * here so that kernels see only concrete values (docs/numerics.md lists
 * them).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "ops/validate/solver.h"

#include "ops/validate/blas.h"
#include "ops/validate/sparse.h"

#define BAD TRN_WIRE_INVALID_ARGUMENT

static trn_wire_code real_type(trn_vctx *vx, const char *fn, Trnsci__V1__DataType t,
                               int double_only, trn_dtype *out) {
    if (t == TRNSCI__V1__DATA_TYPE__R_64F || (!double_only && t == TRNSCI__V1__DATA_TYPE__R_32F)) {
        *out = t == TRNSCI__V1__DATA_TYPE__R_64F ? TRN_DTYPE_R64F : TRN_DTYPE_R32F;
        return TRN_WIRE_OK;
    }
    trn_vmsg(vx, "%s: data type %d is not %s", fn, (int)t,
             double_only ? "R_64F" : "R_32F or R_64F");
    return TRN_WIRE_INVALID_ARGUMENT;
}

/* cusolverPrecType_t values (include/trnsci/trnsolver.h): real formats
 * 1201.., the complex ones 10 above. */
#define IRS_R_64F 1203
#define IRS_R_32F 1204
#define IRS_R_16F 1205
#define IRS_R_16BF 1206
#define IRS_R_TF32 1207
#define IRS_CPLX 10
/* cusolverIRSRefinement_t values. */
#define IRS_REFINE_NONE 1101
#define IRS_REFINE_CLASSICAL 1102
#define IRS_REFINE_CLASSICAL_GMRES 1103
#define IRS_REFINE_GMRES_NOPCOND 1106

/* The lowest precision of an IRS solve with main type t: a format no wider
 * than t's, of t's domain (real or complex); 0 is t's own. */
static trn_wire_code irs_lowest(trn_vctx *vx, const char *fn, trn_dtype t, int64_t v,
                                trn_irs_prec *out) {
    const int cx = trn_dtype_is_complex(t);
    const int dbl = t == TRN_DTYPE_R64F || t == TRN_DTYPE_C64F;
    const int64_t r = v - (cx ? IRS_CPLX : 0);
    if (v == 0 || (r == IRS_R_64F && dbl)) {
        *out = dbl ? TRN_IRS_PREC_64F : TRN_IRS_PREC_32F;
        return TRN_WIRE_OK;
    }
    switch (r) {
    case IRS_R_32F: *out = TRN_IRS_PREC_32F; return TRN_WIRE_OK;
    case IRS_R_16F: *out = TRN_IRS_PREC_16F; return TRN_WIRE_OK;
    case IRS_R_16BF: *out = TRN_IRS_PREC_16BF; return TRN_WIRE_OK;
    case IRS_R_TF32: *out = TRN_IRS_PREC_TF32; return TRN_WIRE_OK;
    default: break;
    }
    trn_vmsg(vx,
             "%s: lowest precision %lld is not a %s format no wider than the main precision "
             "(trnsolverPrecType_t)",
             fn, (long long)v, cx ? "complex" : "real");
    return BAD;
}

/* cuSOLVER's IRS solvers: gesv (A X = B, A n x n general, an LU) and
 * gels (min ||A X - B||, A m x n with m >= n, a QR), factorised in a lower
 * precision and refined in the main one. */
static trn_wire_code validate_irs(trn_vctx *vx, const Trnsci__V1__SolverRefineOp *w,
                                  trn_solver_refine_desc *out) {
    const int gels = out->fn == TRN_SOLVER_IRS_GELS;
    const char *fn = gels ? "IRSXgels" : "IRSXgesv";
    if (trn_vk_dtype(w->type, &out->type)) {
        trn_vmsg(vx, "%s: data type %d is not R_32F, R_64F, C_32F or C_64F", fn, (int)w->type);
        return BAD;
    }
    const uint64_t es = trn_dtype_size(out->type), al = trn_vk_align(out->type);
    const int dbl = out->type == TRN_DTYPE_R64F || out->type == TRN_DTYPE_C64F;
    if (irs_lowest(vx, fn, out->type, w->lowest_precision, &out->lowest))
        return BAD;
    if (w->refinement == 0 || w->refinement == IRS_REFINE_CLASSICAL)
        out->refine = TRN_IRS_REFINE_CLASSICAL;
    else if (w->refinement == IRS_REFINE_NONE)
        out->refine = TRN_IRS_REFINE_NONE;
    else if (w->refinement == IRS_REFINE_GMRES_NOPCOND)
        out->refine = TRN_IRS_REFINE_GMRES_NOPCOND;
    else if (w->refinement >= IRS_REFINE_CLASSICAL_GMRES &&
             w->refinement < IRS_REFINE_GMRES_NOPCOND)
        out->refine = TRN_IRS_REFINE_GMRES;
    else {
        trn_vmsg(vx, "%s: refinement %lld is not a trnsolverIRSRefinement_t solver", fn,
                 (long long)w->refinement);
        return BAD;
    }
    out->fallback = !w->no_fallback;
    out->lower = 1;
    out->restart = 0;
    out->a = out->b = NULL;
    out->x = NULL;
    out->stats = NULL;
    out->info = NULL;
    out->ipiv = NULL;
    out->history = NULL;
    if (trn_vk_dim(vx, fn, "n", w->n, &out->n) || trn_vk_dim(vx, fn, "nrhs", w->nrhs, &out->nrhs))
        return BAD;
    out->m = out->n;
    if (gels) {
        if (trn_vk_dim(vx, fn, "m", w->m, &out->m))
            return BAD;
        if (out->m < out->n) {
            trn_vmsg(vx, "%s: n=%d must be <= m=%d (only overdetermined systems are solved)", fn,
                     out->n, out->m);
            return BAD;
        }
    }
    const int m = out->m, n = out->n;
    if (trn_vk_ld(vx, fn, "ldda", w->lda, m, gels ? "m" : "n", &out->lda) ||
        trn_vk_ld(vx, fn, "lddb", w->ldb, m, gels ? "m" : "n", &out->ldb) ||
        trn_vk_ld(vx, fn, "lddx", w->ldx, n, "n", &out->ldx))
        return BAD;
    /* cuSOLVER's stopping rule: ||r||_inf < sqrt(n) ||x||_inf ||A||_inf eps
     * with eps the main precision's unit roundoff (LAPACK's xLAMCH('E'));
     * gels tests the residual of the normal equations against the same
     * sqrt(n) eps (docs/numerics.md). */
    const double u = dbl ? DBL_EPSILON / 2 : FLT_EPSILON / 2;
    if (trn_vk_tol(vx, fn, "tolerance", w->tolerance, (n > 1 ? sqrt((double)n) : 1.0) * u,
                   &out->tol) ||
        trn_vk_count(vx, fn, "max_iters", w->max_iters, 50, &out->max_iters))
        return BAD;
    if (out->max_iters == INT_MAX) {
        trn_vmsg(vx, "%s: max_iters=%d must be below %d", fn, out->max_iters, INT_MAX);
        return BAD;
    }
    void *p = NULL;
    trn_wire_code rc = trn_vk_matrix(vx, w->a, m, n, out->lda, es, al, fn, "dA", &p);
    out->a = p;
    if (rc == TRN_WIRE_OK) {
        rc = trn_vk_matrix(vx, w->b, m, out->nrhs, out->ldb, es, al, fn, "dB", &p);
        out->b = p;
    }
    if (rc == TRN_WIRE_OK)
        rc = trn_vk_matrix(vx, w->x, n, out->nrhs, out->ldx, es, al, fn, "dX", &out->x);
    if (rc == TRN_WIRE_OK && !gels && w->ipiv && w->ipiv->buffer_id) {
        rc = trn_vk_array(vx, w->ipiv, (uint64_t)n, sizeof(int32_t), sizeof(int32_t), fn, "dipiv",
                          &p);
        out->ipiv = p;
    }
    if (rc == TRN_WIRE_OK && w->history && w->history->buffer_id) {
        rc = trn_vk_array(vx, w->history, 2 * ((uint64_t)out->max_iters + 1), sizeof(double),
                          sizeof(double), fn, "residual history", &p);
        out->history = p;
    }
    if (rc == TRN_WIRE_OK)
        rc = trn_vsolver_stats(vx, w->stats, fn, &out->stats);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsolver_info(vx, w->info, fn, &out->info);
    return rc;
}

static trn_wire_code validate_solver_refine(trn_vctx *vx, const Trnsci__V1__SolverRefineOp *w,
                                            trn_solver_refine_desc *out) {
    if (w->function < TRNSCI__V1__SOLVER_FUNCTION__SOLVER_INV_SQRT_SPD ||
        w->function > TRNSCI__V1__SOLVER_FUNCTION__SOLVER_IRS_GELS) {
        trn_vmsg(vx, "solver: function %d is not one of INV_SQRT_SPD .. IRS_GELS",
                 (int)w->function);
        return BAD;
    }
    out->fn = (trn_solver_fn)w->function;
    out->lowest = TRN_IRS_PREC_64F;
    out->refine = TRN_IRS_REFINE_CLASSICAL;
    out->fallback = 1;
    out->ipiv = NULL;
    out->history = NULL;
    if (out->fn == TRN_SOLVER_IRS_GESV || out->fn == TRN_SOLVER_IRS_GELS)
        return validate_irs(vx, w, out);
    const char *fn = trn_solver_name(out->fn, TRN_DTYPE_R64F);
    const int inv_sqrt = out->fn == TRN_SOLVER_INV_SQRT_SPD;
    if (real_type(vx, fn, w->type, !inv_sqrt, &out->type))
        return BAD;
    const uint64_t es = trn_dtype_size(out->type);
    const double u = out->type == TRN_DTYPE_R32F ? FLT_EPSILON / 2 : DBL_EPSILON / 2;
    out->lower = 1;
    out->nrhs = 0;
    out->m = 0;
    out->lda = out->ldb = out->ldx = 1;
    out->a = out->b = NULL;
    out->x = NULL;
    out->restart = 0;
    out->stats = NULL;
    out->info = NULL;
    if (trn_vk_dim(vx, fn, "n", w->n, &out->n) ||
        trn_vk_ld(vx, fn, "lda", w->lda, out->n, "n", &out->lda) ||
        trn_vk_ld(vx, fn, "ldx", w->ldx, out->n, "n", &out->ldx))
        return BAD;
    const int n = out->n;
    if (out->fn == TRN_SOLVER_SOLVE_SPD_IR && trn_vsolver_uplo(vx, fn, w->uplo, &out->lower))
        return BAD;
    if (!inv_sqrt && (trn_vk_dim(vx, fn, "nrhs", w->nrhs, &out->nrhs) ||
                      trn_vk_ld(vx, fn, "ldb", w->ldb, n, "n", &out->ldb)))
        return BAD;
    /* Defaults (docs/numerics.md): Newton–Schulz stops at 1000 u; the
     * refinements at LAPACK dsposv's backward error sqrt(n) u (at least u). */
    const double dflt_tol = inv_sqrt ? 1000.0 * u : (n > 1 ? sqrt((double)n) : 1.0) * u;
    const int dflt_iters = inv_sqrt ? 100 : 30;
    if (trn_vk_tol(vx, fn, "tolerance", w->tolerance, dflt_tol, &out->tol) ||
        trn_vk_count(vx, fn, "max_iters", w->max_iters, dflt_iters, &out->max_iters))
        return BAD;
    if (out->fn == TRN_SOLVER_GMRES_IR) {
        if (trn_vk_count(vx, fn, "restart", w->restart, n < 50 ? (n > 0 ? n : 1) : 50,
                         &out->restart))
            return BAD;
        if (n > 0 && out->restart > n)
            out->restart = n; /* a Krylov space has at most n dimensions */
    }

    void *p = NULL;
    const int cols = inv_sqrt ? n : out->nrhs;
    trn_wire_code rc = trn_vk_matrix(vx, w->a, n, n, out->lda, es, es, fn, "A", &p);
    out->a = p;
    if (rc == TRN_WIRE_OK && !inv_sqrt) {
        rc = trn_vk_matrix(vx, w->b, n, cols, out->ldb, es, es, fn, "B", &p);
        out->b = p;
    }
    if (rc == TRN_WIRE_OK) {
        rc = trn_vk_matrix(vx, w->x, n, cols, out->ldx, es, es, fn, "X", &out->x);
    }
    if (rc == TRN_WIRE_OK)
        rc = trn_vsolver_stats(vx, w->stats, fn, &out->stats);
    if (rc == TRN_WIRE_OK && !inv_sqrt)
        rc = trn_vsolver_info(vx, w->info, fn, &out->info);
    return rc;
}

/* A trnsparse CSR or BSR operator: n x n elements of the solver's type.
 * Its arrays are resolved here; their contents are checked by the kernel
 * (kernels/cpu/solver_csr.c). */
static trn_wire_code sparse_operator(trn_vctx *vx, const Trnsci__V1__SparseMatrix *w,
                                     const char *fn, int n, trn_dtype type, trn_linop *op) {
    op->kind = TRN_LINOP_SPARSE;
    op->n = n;
    op->a = NULL;
    op->lda = 1;
    /* Complex values only where the routine is complex (csrlsv*): the type
     * check below then refuses a mismatch with the routine's type. */
    const unsigned cx = trn_dtype_is_complex(type) ? TRN_VSP_COMPLEX : 0u;
    const trn_wire_code rc =
        trn_vsp_matrix(vx, w, fn, "A", TRN_VSP_FMT(TRN_SP_CSR) | TRN_VSP_FMT(TRN_SP_BSR),
                       TRN_VSP_ALL | cx, &op->sp);
    if (rc != TRN_WIRE_OK)
        return rc;
    if (op->sp.type != type) {
        static const char *const names[] = {"R_32F", "R_64F", "C_32F", "C_64F"};
        const int got = op->sp.type == TRN_DTYPE_R32F   ? 0
                        : op->sp.type == TRN_DTYPE_R64F ? 1
                        : op->sp.type == TRN_DTYPE_C32F ? 2
                                                        : 3;
        const int want = type == TRN_DTYPE_R32F   ? 0
                         : type == TRN_DTYPE_R64F ? 1
                         : type == TRN_DTYPE_C32F ? 2
                                                  : 3;
        trn_vmsg(vx, "%s: A: value type %s does not match the routine's %s", fn, names[got],
                 names[want]);
        return BAD;
    }
    if (op->sp.rows != op->sp.cols || op->sp.rows != n) {
        trn_vmsg(vx, "%s: A: %lld x %lld elements must be square and n x n with n=%d", fn,
                 (long long)op->sp.rows, (long long)op->sp.cols, n);
        return BAD;
    }
    return TRN_WIRE_OK;
}

/* cusolverSp's csrlsvqr / csrlsvchol: a square CSR matrix (expanded to a
 * dense one by the kernel, hence the limit on n), b, x, tol >= 0, reorder
 * 0..3 (accepted; the dense factorisation does not reorder). Real or
 * complex (protocol 1.15) values. */
static trn_wire_code validate_csrlsv(trn_vctx *vx, const Trnsci__V1__SolverKrylovOp *w,
                                     trn_solver_krylov_desc *out) {
    const char *fn = trn_solver_name(out->fn, TRN_DTYPE_R64F);
    if (trn_vk_dtype(w->type, &out->type)) {
        trn_vmsg(vx, "%s: data type %d is not R_32F, R_64F, C_32F or C_64F", fn, (int)w->type);
        return BAD;
    }
    const uint64_t es = trn_dtype_size(out->type), al = trn_vk_align(out->type);
    out->b = NULL;
    out->x = NULL;
    out->stats = NULL;
    out->max_iters = out->restart = out->block_size = 0;
    out->omega = 0.0;
    out->precond = TRN_PRECOND_NONE;
    int n;
    if (trn_vk_dim(vx, fn, "m", w->n, &n))
        return BAD;
    if (n > TRN_CSRLSV_MAX_N) {
        trn_vmsg(vx, "%s: m=%d is above %d, the largest this dense-factorisation solver takes", fn,
                 n, TRN_CSRLSV_MAX_N);
        return TRN_WIRE_UNIMPLEMENTED;
    }
    if (!(w->tolerance >= 0.0 && isfinite(w->tolerance))) {
        trn_vmsg(vx, "%s: tol=%g must be finite and >= 0", fn, w->tolerance);
        return BAD;
    }
    out->tol = w->tolerance;
    if (w->reorder < 0 || w->reorder > 3) {
        trn_vmsg(vx, "%s: reorder=%lld is not 0, 1, 2 or 3", fn, (long long)w->reorder);
        return BAD;
    }
    if (w->matrix_case != TRNSCI__V1__SOLVER_KRYLOV_OP__MATRIX_SPARSE ||
        w->sparse->format != TRNSCI__V1__SPARSE_FORMAT__SPARSE_FORMAT_CSR) {
        trn_vmsg(vx, "%s: A must be a CSR matrix", fn);
        return BAD;
    }
    trn_wire_code rc = sparse_operator(vx, w->sparse, fn, n, out->type, &out->op);
    void *p = NULL;
    if (rc == TRN_WIRE_OK) {
        rc = trn_vk_array(vx, w->b, (uint64_t)n, es, al, fn, "b", &p);
        out->b = p;
    }
    if (rc == TRN_WIRE_OK)
        rc = trn_vk_array(vx, w->x, (uint64_t)n, es, al, fn, "x", &out->x);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsolver_stats(vx, w->stats, fn, &out->stats);
    return rc;
}

static trn_wire_code validate_solver_krylov(trn_vctx *vx, const Trnsci__V1__SolverKrylovOp *w,
                                            trn_solver_krylov_desc *out) {
    if (w->function < TRNSCI__V1__SOLVER_FUNCTION__SOLVER_CG ||
        w->function > TRNSCI__V1__SOLVER_FUNCTION__SOLVER_CSRLSVCHOL) {
        trn_vmsg(vx, "solver: function %d is not CG, GMRES, BICGSTAB, CSRLSVQR or CSRLSVCHOL",
                 (int)w->function);
        return BAD;
    }
    out->fn = (trn_solver_fn)w->function;
    if (out->fn == TRN_SOLVER_CSRLSVQR || out->fn == TRN_SOLVER_CSRLSVCHOL)
        return validate_csrlsv(vx, w, out);
    const char *fn = trn_solver_name(out->fn, TRN_DTYPE_R64F);
    if (real_type(vx, fn, w->type, 0, &out->type))
        return BAD;
    const uint64_t es = trn_dtype_size(out->type);
    out->b = NULL;
    out->x = NULL;
    out->stats = NULL;
    out->restart = 0;
    out->block_size = 0;
    out->omega = 0.0;
    int n;
    if (trn_vk_dim(vx, fn, "n", w->n, &n))
        return BAD;
    /* Defaults (docs/numerics.md): 1e-5 (S) / 1e-10 (D), 10 n iterations. */
    const double dflt_tol = out->type == TRN_DTYPE_R32F ? 1e-5 : 1e-10;
    const int dflt_iters = n > INT_MAX / 10 ? INT_MAX : (n > 10 ? 10 * n : 100);
    if (trn_vk_tol(vx, fn, "tolerance", w->tolerance, dflt_tol, &out->tol) ||
        trn_vk_count(vx, fn, "max_iters", w->max_iters, dflt_iters, &out->max_iters))
        return BAD;
    if (out->fn == TRN_SOLVER_GMRES) {
        if (trn_vk_count(vx, fn, "restart", w->restart, 30, &out->restart))
            return BAD;
        if (out->restart > n)
            out->restart = n > 0 ? n : 1;
    }
    switch (w->preconditioner) {
    case TRNSCI__V1__SOLVER_PRECONDITIONER__SOLVER_PRECOND_NONE:
        out->precond = TRN_PRECOND_NONE;
        break;
    case TRNSCI__V1__SOLVER_PRECONDITIONER__SOLVER_PRECOND_JACOBI:
        out->precond = TRN_PRECOND_JACOBI;
        break;
    case TRNSCI__V1__SOLVER_PRECONDITIONER__SOLVER_PRECOND_BLOCK_JACOBI:
        out->precond = TRN_PRECOND_BLOCK_JACOBI;
        if (trn_vk_count(vx, fn, "block_size", w->block_size, 32, &out->block_size))
            return BAD;
        if (out->block_size > n)
            out->block_size = n > 0 ? n : 1;
        break;
    case TRNSCI__V1__SOLVER_PRECONDITIONER__SOLVER_PRECOND_SSOR:
        out->precond = TRN_PRECOND_SSOR;
        out->omega = w->omega == 0.0 ? 1.0 : w->omega;
        if (!(out->omega > 0.0 && out->omega < 2.0)) {
            trn_vmsg(vx, "%s: omega=%g must be in (0, 2) (0: the default, 1)", fn, w->omega);
            return BAD;
        }
        break;
    default:
        trn_vmsg(vx, "%s: preconditioner %d is not NONE, JACOBI, BLOCK_JACOBI or SSOR", fn,
                 (int)w->preconditioner);
        return BAD;
    }

    trn_wire_code rc;
    switch (w->matrix_case) {
    case TRNSCI__V1__SOLVER_KRYLOV_OP__MATRIX_DENSE: {
        out->op.kind = TRN_LINOP_DENSE;
        out->op.n = n;
        if (trn_vk_ld(vx, fn, "lda", w->dense->lda, n, "n", &out->op.lda))
            return BAD;
        void *p = NULL;
        rc = trn_vk_matrix(vx, w->dense->a, n, n, out->op.lda, es, es, fn, "A", &p);
        out->op.a = p;
        break;
    }
    case TRNSCI__V1__SOLVER_KRYLOV_OP__MATRIX_SPARSE:
        rc = sparse_operator(vx, w->sparse, fn, n, out->type, &out->op);
        if (rc != TRN_WIRE_OK)
            return rc;
        break;
    default:
        trn_vmsg(vx, "%s: no matrix given (a dense or sparse operator is required)", fn);
        return BAD;
    }
    if (rc == TRN_WIRE_OK) {
        void *p = NULL;
        rc = trn_vk_array(vx, w->b, (uint64_t)n, es, es, fn, "b", &p);
        out->b = p;
    }
    if (rc == TRN_WIRE_OK) {
        rc = trn_vk_array(vx, w->x, (uint64_t)n, es, es, fn, "x", &out->x);
    }
    if (rc == TRN_WIRE_OK)
        rc = trn_vsolver_stats(vx, w->stats, fn, &out->stats);
    return rc;
}

/* The table's entries (validate.h). */
TRN_VALIDATE_ENTRY(solver_refine,
                   validate_solver_refine(vx, op->solver_refine, &out->u.solver_refine))
TRN_VALIDATE_ENTRY(solver_krylov,
                   validate_solver_krylov(vx, op->solver_krylov, &out->u.solver_krylov))
