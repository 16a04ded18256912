/*
 * models/solver.c — cost and shard limit of the trnsolver ops.
 *
 * Costs are flops: the usual leading terms (LAPACK Working Note 41), times 4
 * for complex types; Jacobi methods at 10 sweeps, refinements and Krylov
 * solvers at their iteration limits (an upper bound).
 */
#include "ops/models/model.h"
#include "ops/solver_kpar.h"
#include "ops/solver_tile.h"

static double complex_factor(trn_dtype type) {
    return type == TRN_DTYPE_C32F || type == TRN_DTYPE_C64F ? 4.0 : 1.0;
}

static double cost_solver_dense(const trn_op_desc *op) {
    const trn_solver_dense_desc *d = &op->u.solver_dense;
    if (trn_tile_fn(d->fn))
        return trn_tile_step_flops(d); /* complex factor included */
    const double m = d->m, n = d->n, k = d->k;
    const double mn = m < n ? m : n;
    double f = 0.0;
    switch (d->fn) {
    case TRN_SOLVER_POTRF: f = n * n * n / 3.0; break;
    case TRN_SOLVER_POTRS:
    case TRN_SOLVER_GETRS: f = 2.0 * n * n * (double)d->nrhs; break;
    case TRN_SOLVER_POTRI: f = 2.0 * n * n * n / 3.0; break;
    case TRN_SOLVER_GETRF: f = m * n * mn - (m + n) * mn * mn / 2.0 + mn * mn * mn / 3.0; break;
    case TRN_SOLVER_GEQRF:
        f = 2.0 * m * n * mn - (m + n) * mn * mn + 2.0 * mn * mn * mn / 3.0;
        break;
    case TRN_SOLVER_ORGQR:
        f = 4.0 * m * n * k - 2.0 * (m + n) * k * k + 4.0 * k * k * k / 3.0;
        break;
    case TRN_SOLVER_ORMQR: f = 4.0 * m * n * k; break;
    case TRN_SOLVER_SYTRF: f = n * n * n / 3.0; break;
    case TRN_SOLVER_SYTRS: f = 2.0 * n * n * (double)d->nrhs; break;
    case TRN_SOLVER_SYTRI: f = 2.0 * n * n * n; break; /* a solve with n right-hand sides */
    case TRN_SOLVER_LAUUM: f = n * n * n / 3.0; break;
    case TRN_SOLVER_SYTRD: f = 4.0 * n * n * n / 3.0; break;
    case TRN_SOLVER_ORGTR: f = 4.0 * n * n * n / 3.0; break;
    case TRN_SOLVER_ORMTR: f = 2.0 * m * n * (d->left ? m : n); break;
    case TRN_SOLVER_GEBRD: f = 4.0 * n * n * (m - n / 3.0); break; /* LAPACK's count, m >= n */
    case TRN_SOLVER_ORGBR: f = 4.0 * m * n * k; break;
    case TRN_SOLVER_LASWP: f = n * (double)(d->k2 - d->k + 1); break; /* elements moved */
    default: break;
    }
    return f * complex_factor(d->type);
}

static double cost_solver_batched(const trn_op_desc *op) {
    const trn_solver_batched_desc *d = &op->u.solver_batched;
    const double n = d->n;
    const double f =
        (d->fn == TRN_SOLVER_POTRF_BATCHED ? n * n * n / 3.0 : 2.0 * n * n) * (double)d->batch;
    return f * complex_factor(d->type);
}

static double cost_solver_eigen(const trn_op_desc *op) {
    const trn_solver_eigen_desc *d = &op->u.solver_eigen;
    const double m = d->m, n = d->n;
    const double big = m > n ? m : n, small = m < n ? m : n;
    double f = 0.0;
    switch (d->fn) {
    case TRN_SOLVER_SYEVD: f = (d->vectors ? 9.0 : 4.0 / 3.0) * n * n * n; break;
    case TRN_SOLVER_SYGVD: f = (d->vectors ? 10.0 : 7.0 / 3.0) * n * n * n; break;
    case TRN_SOLVER_GESVD: f = 4.0 * big * small * small + 8.0 * small * small * small; break;
    case TRN_SOLVER_SYEVJ: f = 10.0 * 6.0 * n * n * n; break;
    case TRN_SOLVER_GESVDJ: f = 10.0 * 4.0 * big * small * small; break;
    case TRN_SOLVER_GEEV: /* Hessenberg QR: ~10 n^3, ~25 n^3 with the vectors (LAWN 41) */
        f = (d->vectors ? 25.0 : 10.0) * small * small * small;
        break;
    case TRN_SOLVER_SYGVDX: f = (d->vectors ? 10.0 : 7.0 / 3.0) * n * n * n; break;
    case TRN_SOLVER_SYGVJ: f = (10.0 * 6.0 + 7.0 / 3.0) * n * n * n; break;
    case TRN_SOLVER_GESVDA_STRIDED_BATCHED: /* gesvd with U and VT of each, and the residual */
        f = (12.0 * big * small * small + 8.0 * small * small * small) * (double)d->batch;
        break;
    default: break;
    }
    return f * complex_factor(d->type);
}

/* Counted in real flops whatever the type, as are the Krylov solvers. */
static double cost_solver_refine(const trn_op_desc *op) {
    const trn_solver_refine_desc *d = &op->u.solver_refine;
    const double n = d->n, it = d->max_iters, rhs = d->nrhs;
    if (d->fn == TRN_SOLVER_INV_SQRT_SPD)
        return 6.0 * n * n * n * (it < 30.0 ? it : 30.0);
    if (d->fn == TRN_SOLVER_SOLVE_SPD_IR)
        return n * n * n / 3.0 + 4.0 * n * n * rhs * it;
    if (d->fn == TRN_SOLVER_IRS_GESV) /* LU, refinement, and the fallback's LU */
        return (4.0 * n * n * n / 3.0 + 4.0 * n * n * rhs * it) *
               (d->type == TRN_DTYPE_C32F || d->type == TRN_DTYPE_C64F ? 4.0 : 1.0);
    if (d->fn == TRN_SOLVER_IRS_GELS) { /* two QRs; per step 4 products with A, 4 with Q */
        const double m = d->m;
        return (2.0 * (2.0 * m * n * n - 2.0 * n * n * n / 3.0) + 16.0 * m * n * rhs * it) *
               (d->type == TRN_DTYPE_C32F || d->type == TRN_DTYPE_C64F ? 4.0 : 1.0);
    }
    return 2.0 * n * n * n / 3.0 + 4.0 * n * n * rhs * it * (double)d->restart;
}

/* Two flops per stored element and product, at most two products per
 * iteration (BSR: blocks of rb x cb elements). */
static double cost_solver_krylov(const trn_op_desc *op) {
    const trn_solver_krylov_desc *d = &op->u.solver_krylov;
    if (trn_kpar_fn(d->fn))
        return trn_kpar_step_cost(d);
    const double n = d->op.n;
    const double cf = d->type == TRN_DTYPE_C32F || d->type == TRN_DTYPE_C64F ? 4.0 : 1.0;
    if (d->fn == TRN_SOLVER_CSRLSVQR) /* the dense Householder QR */
        return 4.0 * n * n * n / 3.0 * cf;
    if (d->fn == TRN_SOLVER_CSRLSVCHOL)
        return n * n * n / 3.0 * cf;
    const double nnz = d->op.kind == TRN_LINOP_SPARSE
                           ? (double)d->op.sp.nnz * (double)d->op.sp.rb * (double)d->op.sp.cb
                           : n * n;
    return 4.0 * nnz * (double)d->max_iters;
}

/* One core: LAPACK runs single-threaded, and one factorisation, eigensolve
 * or iteration is not split; a tiled factorisation's step splits into its
 * tile tasks (ops/solver_tile.h), potrs and getrs into whole blocks of
 * right-hand sides (TRN_SOLVE_RHS_BLOCK). */
static double shard_limit_solver_dense(const trn_op_desc *op) {
    const trn_solver_dense_desc *d = &op->u.solver_dense;
    if (d->fn == TRN_SOLVER_POTRS || d->fn == TRN_SOLVER_GETRS) /* by blocks of right-hand sides */
        return (double)trn_solve_rhs_blocks(d->nrhs);
    return trn_tile_fn(d->fn) ? (double)trn_tile_tasks(d) : 1.0;
}

/* One core per problem; gesvdaStridedBatched splits by whole matrices. */
static double shard_limit_solver_eigen(const trn_op_desc *op) {
    const trn_solver_eigen_desc *d = &op->u.solver_eigen;
    if (d->fn == TRN_SOLVER_GESVDA_STRIDED_BATCHED)
        return trn_op_whole_matrices(cost_solver_eigen(op), d->batch);
    return 1.0;
}

static double shard_limit_solver_refine(const trn_op_desc *op) {
    (void)op;
    return 1.0;
}

/* One core, but for the steps of a solve run over every core (their row
 * blocks: ops/solver_kpar.h). */
static double shard_limit_solver_krylov(const trn_op_desc *op) {
    const trn_solver_krylov_desc *d = &op->u.solver_krylov;
    return trn_kpar_fn(d->fn) ? trn_kpar_step_shards(d) : 1.0;
}

/* Whole matrices only, by GEMM's flops: a batch splits, one factorisation
 * does not. */
static double shard_limit_solver_batched(const trn_op_desc *op) {
    return trn_op_whole_matrices(cost_solver_batched(op), op->u.solver_batched.batch);
}

/* The table's entries (ops/models/model.h). */
TRN_OP_MODEL(solver_dense, TRN_PACE_DENSE)
TRN_OP_MODEL(solver_batched, TRN_PACE_DENSE)
TRN_OP_MODEL(solver_eigen, TRN_PACE_DENSE)
TRN_OP_MODEL(solver_refine, TRN_PACE_DENSE)
TRN_OP_MODEL(solver_krylov, TRN_PACE_DENSE)
