/*
 * solver_krylov.c — trnsolver's Krylov solvers on the CPU: preconditioned
 * CG (A symmetric positive definite), restarted GMRES(m) with right
 * preconditioning (the residual it minimises is the true one), and
 * BiCGStab (van der Vorst) with right preconditioning; the per-precision
 * code is solver_krylov_tmpl.h.
 *
 * Vectors are in the working precision (float or double); every inner
 * product and norm is accumulated in double (float vectors) or with the
 * compensated Dot2 (double vectors), solver_util.h. The operator and the
 * preconditioner are reached through solver_linop.c only; a sparse
 * operator is first copied and checked (solver_csr.c), which is where its
 * bad structure fails the op with a message. Without memory for that copy,
 * the preconditioner or the method's vectors the op fails with
 * TRN_KSTATUS_NO_MEMORY (and a message saying how much) before x changes.
 * The op runs on one core; x is updated in
 * place, and the iteration record (iterations, status, final relative
 * residual ||b - A x||_2 / ||b||_2) is written when given.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/solver_krylov.h"
#include "kernels/cpu/solver_util.h"
#include "ops/solver_kpar.h"

#define KT float
#define KSUF s
#define KK trn_kry_s
#define KDOT trn_sdot_acc
#define KACC trn_sacc
#define KACC_ADD trn_sacc_add
#define KACC_FIN trn_sacc_finish
#include "kernels/cpu/solver_krylov_tmpl.h"

#define KT double
#define KSUF d
#define KK trn_kry_d
#define KDOT trn_ddot_acc
#define KACC trn_dacc
#define KACC_ADD trn_dacc_add
#define KACC_FIN trn_dacc_finish
#include "kernels/cpu/solver_krylov_tmpl.h"

trn_kstatus trn_cpu_solver_krylov(const trn_solver_krylov_desc *d, trn_kmsg *msg, int shard,
                                  int nshards) {
    if (d->fn == TRN_SOLVER_CSRLSVQR || d->fn == TRN_SOLVER_CSRLSVCHOL)
        return trn_cpu_csrlsv(d, msg); /* solver_sp.c */
    if (trn_kpar_fn(d->fn))
        return trn_cpu_solver_kpar(d, msg, shard, nshards); /* a step over every core */
    const int n = d->op.n;
    trn_csr *csr = NULL;
    if (d->op.kind == TRN_LINOP_SPARSE) {
        /* Bad structure (the client's input) or no memory, both posted. */
        const int cr = trn_csr_create(&d->op.sp, n, msg, &csr);
        if (cr != 0)
            return cr < 0 ? TRN_KSTATUS_NO_MEMORY : TRN_KSTATUS_FAILED;
    }
    const trn_kop kop = {&d->op, csr};
    trn_precond *pc = NULL;
    const int pr = trn_precond_create(&kop, d->type, d->precond, d->block_size, d->omega, msg, &pc);
    if (pr != 0) {
        trn_csr_free(csr);
        if (pr < 0)
            return TRN_KSTATUS_NO_MEMORY;
        trn_solver_put_stats(d->stats, 0, TRN_SOLVER_ST_PRECOND, NAN);
        return TRN_KSTATUS_OK; /* a result, like info: x is left as it was */
    }
    int iters = 0, st;
    double relres = 0.0;
    if (d->type == TRN_DTYPE_R32F) {
        const trn_kry_s k = {n,  trn_linop_apply_s,     &kop, pc ? trn_precond_apply_s : NULL,
                             pc, trn_linop_apply_dot_s, msg};
        st = d->fn == TRN_SOLVER_CG
                 ? trn_cg_s(&k, d->b, d->x, d->tol, d->max_iters, &iters, &relres)
             : d->fn == TRN_SOLVER_GMRES
                 ? trn_gmres_s(&k, d->b, d->x, d->tol, d->max_iters, d->restart, &iters, &relres)
                 : trn_bicgstab_s(&k, d->b, d->x, d->tol, d->max_iters, &iters, &relres);
    } else {
        const trn_kry_d k = {n,  trn_linop_apply_d,     &kop, pc ? trn_precond_apply_d : NULL,
                             pc, trn_linop_apply_dot_d, msg};
        st = d->fn == TRN_SOLVER_CG
                 ? trn_cg_d(&k, d->b, d->x, d->tol, d->max_iters, &iters, &relres)
             : d->fn == TRN_SOLVER_GMRES
                 ? trn_gmres_d(&k, d->b, d->x, d->tol, d->max_iters, d->restart, &iters, &relres)
                 : trn_bicgstab_d(&k, d->b, d->x, d->tol, d->max_iters, &iters, &relres);
    }
    trn_precond_free(pc);
    trn_csr_free(csr);
    if (st < 0) /* the method's vectors: posted */
        return TRN_KSTATUS_NO_MEMORY;
    trn_solver_put_stats(d->stats, iters, st, relres);
    return TRN_KSTATUS_OK;
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(solver_krylov, trn_cpu_solver_krylov(&op->u.solver_krylov, op->kmsg, shard, nshards))
