/*
 * op.c — backend-independent facts about op descriptors.
 */
#include "kernels/op.h"

#include <math.h>

/* Flops of the trnsolver ops: the usual leading terms (LAPACK Working Note
 * 41), times 4 for complex types; Jacobi methods at 10 sweeps, refinements
 * and Krylov solvers at their iteration limits (an upper bound). */
static double solver_cost(const trn_op_desc *op) {
    double m, n, k, f = 0.0, cx = 1.0;
    switch (op->kind) {
    case TRN_OP_SOLVER_DENSE: {
        const trn_solver_dense_desc *d = &op->u.solver_dense;
        m = d->m;
        n = d->n;
        k = d->k;
        const double mn = m < n ? m : n;
        cx = d->type == TRN_DTYPE_C32F || d->type == TRN_DTYPE_C64F ? 4.0 : 1.0;
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
        default: break;
        }
        break;
    }
    case TRN_OP_SOLVER_BATCHED: {
        const trn_solver_batched_desc *d = &op->u.solver_batched;
        n = d->n;
        cx = d->type == TRN_DTYPE_C32F || d->type == TRN_DTYPE_C64F ? 4.0 : 1.0;
        f = (d->fn == TRN_SOLVER_POTRF_BATCHED ? n * n * n / 3.0 : 2.0 * n * n) * (double)d->batch;
        break;
    }
    case TRN_OP_SOLVER_EIGEN: {
        const trn_solver_eigen_desc *d = &op->u.solver_eigen;
        m = d->m;
        n = d->n;
        cx = d->type == TRN_DTYPE_C32F || d->type == TRN_DTYPE_C64F ? 4.0 : 1.0;
        const double big = m > n ? m : n, small = m < n ? m : n;
        switch (d->fn) {
        case TRN_SOLVER_SYEVD: f = (d->vectors ? 9.0 : 4.0 / 3.0) * n * n * n; break;
        case TRN_SOLVER_SYGVD: f = (d->vectors ? 10.0 : 7.0 / 3.0) * n * n * n; break;
        case TRN_SOLVER_GESVD: f = 4.0 * big * small * small + 8.0 * small * small * small; break;
        case TRN_SOLVER_SYEVJ: f = 10.0 * 6.0 * n * n * n; break;
        case TRN_SOLVER_GESVDJ: f = 10.0 * 4.0 * big * small * small; break;
        default: break;
        }
        break;
    }
    case TRN_OP_SOLVER_REFINE: {
        const trn_solver_refine_desc *d = &op->u.solver_refine;
        n = d->n;
        const double it = d->max_iters, rhs = d->nrhs;
        if (d->fn == TRN_SOLVER_INV_SQRT_SPD)
            f = 6.0 * n * n * n * (it < 30.0 ? it : 30.0);
        else if (d->fn == TRN_SOLVER_SOLVE_SPD_IR)
            f = n * n * n / 3.0 + 4.0 * n * n * rhs * it;
        else
            f = 2.0 * n * n * n / 3.0 + 4.0 * n * n * rhs * it * (double)d->restart;
        break;
    }
    case TRN_OP_SOLVER_KRYLOV: {
        const trn_solver_krylov_desc *d = &op->u.solver_krylov;
        n = d->op.n;
        f = 4.0 * n * n * (double)d->max_iters;
        break;
    }
    default: break;
    }
    return f * cx;
}

double trn_op_cost(const trn_op_desc *op) {
    switch (op->kind) {
    case TRN_OP_MEMSET: return (double)op->u.memset.bytes;
    case TRN_OP_COPY: return 2.0 * (double)op->u.copy.bytes;
    case TRN_OP_GEMM: {
        const trn_gemm_desc *g = &op->u.gemm;
        /* A complex multiply-add is four real multiply-adds. */
        const double per = (g->type == TRN_DTYPE_C32F || g->type == TRN_DTYPE_C64F) ? 8.0 : 2.0;
        return per * (double)g->m * (double)g->n * (double)g->k + (double)g->m * (double)g->n;
    }
    case TRN_OP_BLAS1: {
        /* Flops: a real multiply-add is 2, a complex one 8; copies and swaps
         * count the bytes they move. */
        const trn_blas1_desc *b = &op->u.blas1;
        const int cx = b->type == TRN_DTYPE_C32F || b->type == TRN_DTYPE_C64F;
        const double n = (double)b->n;
        switch (b->fn) {
        case TRN_BLAS1_COPY: return 2.0 * n * (double)trn_dtype_size(b->type);
        case TRN_BLAS1_SWAP: return 4.0 * n * (double)trn_dtype_size(b->type);
        case TRN_BLAS1_ROT: return (cx ? 16.0 : 6.0) * n;
        default: return (cx ? 8.0 : 2.0) * n;
        }
    }
    case TRN_OP_FFT: {
        /* The usual 5 N log2 N flops of a complex transform of N points; a
         * real transform is half of that. */
        const trn_fft_desc *f = &op->u.fft;
        const int complex = f->type == TRN_FFT_C2C || f->type == TRN_FFT_Z2Z;
        const double n = f->points > 1.0 ? f->points : 2.0;
        return (complex ? 5.0 : 2.5) * n * log2(n) * (double)f->batch;
    }
    case TRN_OP_RAND: {
        /* Bytes written, weighted by time per byte: on one core here Philox
         * makes 1.1-1.4 GB/s of raw words or uniforms, but Box-Muller normals
         * only 0.10-0.15 GB/s (log, sqrt, sin, cos per pair), so a normal
         * byte counts 8. A Poisson byte took 2.4x (lambda 1e-3) to 25x
         * (lambda 1e8) the time of a raw-word byte (a table binary search
         * per element, deeper and less cache-friendly as lambda grows;
         * x6 at 7.5, x8 at 100, x14 at 1e4, x20 at 1e6), so it counts 16.
         * Sobol ops (one XOR per element) made raw words and uniforms at
         * 0.85-1.7 GB/s on one core (float uniforms 2-3.7 GB/s since their
         * loop has no per-element switch), weight 1, but their normals, an inverse
         * CDF per element (log, sqrt, exp and erf or erfc), only 0.07 (F32)
         * to 0.15 (F64) GB/s, so a Sobol normal byte counts 12. The
         * extensions: an exponential (one log per element) counts 4; gamma
         * and truncated normal (an inverse normal CDF, logs, and a Philox
         * call per attempt) 16; beta (two gammas) 32; a Latin hypercube
         * element (6 Philox calls per Feistel pass, about two passes) 16. */
        const trn_rand_dist d = op->u.rand.dist;
        const int normal = d == TRN_RAND_NORMAL_F32 || d == TRN_RAND_NORMAL_F64 ||
                           d == TRN_RAND_LOGNORMAL_F32 || d == TRN_RAND_LOGNORMAL_F64;
        const double normal_weight = op->u.rand.gen == TRN_RAND_PHILOX ? 8.0 : 12.0;
        double weight = normal ? normal_weight : d == TRN_RAND_POISSON ? 16.0 : 1.0;
        switch (d) {
        case TRN_RAND_EXPONENTIAL_F32:
        case TRN_RAND_EXPONENTIAL_F64: weight = 4.0; break;
        case TRN_RAND_GAMMA_F32:
        case TRN_RAND_GAMMA_F64:
        case TRN_RAND_TRUNCNORMAL_F32:
        case TRN_RAND_TRUNCNORMAL_F64:
        case TRN_RAND_LHS_F32:
        case TRN_RAND_LHS_F64: weight = 16.0; break;
        case TRN_RAND_BETA_F32:
        case TRN_RAND_BETA_F64: weight = 32.0; break;
        default: break;
        }
        return (double)op->u.rand.n * (double)trn_rand_element_size(d) * weight;
    }
    case TRN_OP_SOLVER_DENSE:
    case TRN_OP_SOLVER_BATCHED:
    case TRN_OP_SOLVER_EIGEN:
    case TRN_OP_SOLVER_REFINE:
    case TRN_OP_SOLVER_KRYLOV: return solver_cost(op);
    }
    return 0.0;
}

const char *trn_solver_name(trn_solver_fn fn, trn_dtype type) {
    const int cx = type == TRN_DTYPE_C32F || type == TRN_DTYPE_C64F;
    switch (fn) {
    case TRN_SOLVER_POTRF: return "potrf";
    case TRN_SOLVER_POTRS: return "potrs";
    case TRN_SOLVER_POTRI: return "potri";
    case TRN_SOLVER_GETRF: return "getrf";
    case TRN_SOLVER_GETRS: return "getrs";
    case TRN_SOLVER_GEQRF: return "geqrf";
    case TRN_SOLVER_ORGQR: return cx ? "ungqr" : "orgqr";
    case TRN_SOLVER_ORMQR: return cx ? "unmqr" : "ormqr";
    case TRN_SOLVER_POTRF_BATCHED: return "potrfBatched";
    case TRN_SOLVER_POTRS_BATCHED: return "potrsBatched";
    case TRN_SOLVER_SYEVD: return cx ? "heevd" : "syevd";
    case TRN_SOLVER_SYGVD: return cx ? "hegvd" : "sygvd";
    case TRN_SOLVER_SYEVJ: return cx ? "heevj" : "syevj";
    case TRN_SOLVER_GESVD: return "gesvd";
    case TRN_SOLVER_GESVDJ: return "gesvdj";
    case TRN_SOLVER_INV_SQRT_SPD: return "invSqrtSpd";
    case TRN_SOLVER_SOLVE_SPD_IR: return "solveSpd";
    case TRN_SOLVER_GMRES_IR: return "gmresIr";
    case TRN_SOLVER_CG: return "cg";
    case TRN_SOLVER_GMRES: return "gmres";
    case TRN_SOLVER_BICGSTAB: return "bicgstab";
    }
    return "solver";
}

const char *trn_solver_op_name(const trn_op_desc *op) {
    switch (op->kind) {
    case TRN_OP_SOLVER_DENSE:
        return trn_solver_name(op->u.solver_dense.fn, op->u.solver_dense.type);
    case TRN_OP_SOLVER_BATCHED:
        return trn_solver_name(op->u.solver_batched.fn, op->u.solver_batched.type);
    case TRN_OP_SOLVER_EIGEN:
        return trn_solver_name(op->u.solver_eigen.fn, op->u.solver_eigen.type);
    case TRN_OP_SOLVER_REFINE:
        return trn_solver_name(op->u.solver_refine.fn, op->u.solver_refine.type);
    case TRN_OP_SOLVER_KRYLOV:
        return trn_solver_name(op->u.solver_krylov.fn, op->u.solver_krylov.type);
    default: return NULL;
    }
}
