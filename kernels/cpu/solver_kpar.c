/*
 * solver_kpar.c — the steps of a CG, a BiCGStab or a GMRES run over every core
 * (ops/solver_kpar.h says what each step does and why the result does not
 * depend on the core count) on the CPU. The per-precision code is
 * solver_kpar_tmpl.h.
 *
 * The solve's state lives in the op's scratch memory, which every core's
 * executor maps at the same address: a header (kpar_state), the per-block
 * partials, the vectors r, z, p, q, the Jacobi diagonal and a sparse
 * operator's checked copy (the layout: trn_kpar_layout_of). A step's tasks
 * write disjoint row blocks; the scalars that drive the next step are
 * written by the task of block 0 (shard 0) into fields no task of the same
 * step reads (u_*: written by SETUP and UPDATE, read by APPLY; a_*: written
 * by APPLY, read by UPDATE; BiCGStab: kbi_rec), so no two tasks race; a
 * step's tasks write per-block partials into arrays no task of the same
 * step reads.
 *
 * SETUP copies and checks a sparse operator exactly as the one-kernel
 * solve does (solver_csr.c: same rules, same messages), keeping the
 * diagonal form when it has one; builds the Jacobi diagonal with the same
 * rule (a zero or non-finite a_ii: TRN_SOLVER_ST_PRECOND, x unchanged);
 * and handles b = 0 (x = 0, converged). The iteration record is written by
 * the step that ends the solve.
 */
#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/routines.h"
#include "kernels/cpu/solver_krylov.h"
#include "kernels/cpu/solver_util.h"
#include "ops/solver_kpar.h"

/* What APPLY does next (u_mode), and what UPDATE does next (a_mode). */
enum { U_START = 1, U_RESTART = 2, U_NORMAL = 3, U_FINAL = 4 };
enum { A_DIR = 1, A_CHECK = 2 };

/* BiCGStab: what the next step finds (kbi_rec.mode). The first four may
 * reach any step; the others only the step of the normal round named. */
enum {
    B_END = 1,     /* the true residual is in; end with status st */
    B_DECIDE = 2,  /* the true residual is in: converged, or restart */
    B_RESTART = 3, /* r^ = r done: a fresh direction at the next DIR */
    B_RES = 4,     /* x is complete: take the true residual, then decide */
    B_CHECK = 5,   /* DIR: r and its partials r . r, r^ . r are in */
    B_PROD_V = 6,  /* APPLY: p^ is complete */
    B_ALPHA = 7,   /* HALF: v and r^ . v are in */
    B_TEE = 8,     /* APPLY: s, s^ and s . s are in */
    B_OMEGA = 9    /* UPDATE: t, t . t and t . s are in */
};

/* What a BiCGStab step does to its blocks, once its tasks have agreed: the
 * true residual, the direction (fresh: p = r), v = A p^, s, x += alpha p^
 * (s met the tolerance), t = A s^, the update of x and r. */
enum { KB_NONE, KB_RES, KB_DIR, KB_FRESH, KB_V, KB_S, KB_XS, KB_T, KB_X };

/* A BiCGStab step's account of the solve for the next step: rec[s] is
 * written by step s's task of block 0 after its work and read by step
 * s + 1 (DIR reads UPDATE's; SETUP writes UPDATE's slot), so no step reads
 * the slot it writes. tsel says which of the two true-residual partial
 * arrays (rt, rt2) holds the latest. */
typedef struct kbi_rec {
    int32_t mode, st, it, tsel;
    double rho, rho_new, alpha, omega;
} kbi_rec;

/* GMRES: what the next step does (kgm_rec.mode; ops/solver_kpar.h). */
enum { G_RES = 1, G_DECIDE = 2, G_PROD = 3, G_PASS1 = 4, G_PASS2 = 5 };

/* A GMRES step's account for the next, as kbi_rec: grec[s] is written by
 * step s's task of block 0 and read by the step after it. */
typedef struct kgm_rec {
    int32_t mode;
    int32_t it;    /* Arnoldi columns so far, over every cycle */
    int32_t j;     /* the newest basis vector, v_j */
    int32_t endst; /* RES then DECIDE: end with this status (non-finite) */
    int32_t stop1; /* the last cycle ended early (an invariant space or g) */
    double beta;   /* ||r|| at the start of the cycle */
} kgm_rec;

typedef struct kpar_state {
    double bn; /* ||b||_2 */
    int32_t ndiag, dval_f32;
    int64_t nnz; /* the checked copy's entries */
    /* Written by SETUP and UPDATE (block 0's task), read by APPLY. */
    int32_t u_mode, u_it, u_st;
    double u_rz; /* r . z of the current direction */
    /* Written by APPLY (block 0's task), read by UPDATE. */
    int32_t a_mode, a_it, a_st;
    double a_rz;
    /* BiCGStab's steps (rec[krylov_step]). */
    kbi_rec rec[TRN_KBI_STEPS];
    /* GMRES's steps (grec[krylov_step]). */
    kgm_rec grec[TRN_KGM_STEPS];
} kpar_state;

_Static_assert(sizeof(kpar_state) <= TRN_KPAR_HEADER, "the state fits its header");

static size_t al64(size_t x) {
    return (x + 63) & ~(size_t)63;
}

/* Sum of the per-block partials in block order (Neumaier-compensated). */
static double sum_blocks(const double *v, int64_t nblk) {
    double s = 0.0, c = 0.0;
    for (int64_t k = 0; k < nblk; k++) {
        const double t = s + v[k];
        c += fabs(s) >= fabs(v[k]) ? (s - t) + v[k] : (v[k] - t) + s;
        s = t;
    }
    return s + c;
}

/* The end of a solve on the residual just taken: the one-kernel solve's
 * final() (a non-finite residual is NONFINITE; out of iterations but under
 * the tolerance is CONVERGED), the record written by shard 0. */
static trn_kstatus kpar_finish(const trn_solver_krylov_desc *d, int shard, int it, int status,
                               double relres) {
    if (!isfinite(relres))
        status = TRN_SOLVER_ST_NONFINITE;
    else if (status == TRN_SOLVER_ST_MAX_ITERS && relres <= d->tol)
        status = TRN_SOLVER_ST_CONVERGED;
    if (shard == 0)
        trn_solver_put_stats(d->stats, it, status, relres);
    return TRN_KSTATUS_SEQ_DONE;
}

/* The sparse operator's checked copy in the scratch, as a trn_csr. */
static trn_csr op_view(const trn_kpar_layout *l, char *base, const kpar_state *st, int n) {
    trn_csr c;
    memset(&c, 0, sizeof(c));
    c.n = n;
    c.nnz = st->nnz;
    char *o = base + l->opx;
    if (st->ndiag > 0) {
        c.ndiag = st->ndiag;
        c.doff = (int64_t *)o;
        c.dval = o + 128;
        c.dval_f32 = st->dval_f32;
    } else {
        c.rowptr = (int64_t *)o;
        c.col = (int *)(o + al64(((size_t)n + 1) * sizeof(int64_t)));
        c.val = o + al64(((size_t)n + 1) * sizeof(int64_t)) + al64((size_t)st->nnz * sizeof(int));
    }
    return c;
}

/* Copies the checked operator c into the scratch (the region's size
 * bounds both forms: trn_kpar_layout_of). */
static void op_store(const trn_kpar_layout *l, char *base, kpar_state *st, const trn_csr *c,
                     size_t es) {
    char *o = base + l->opx;
    st->nnz = c->nnz;
    st->ndiag = c->ndiag;
    st->dval_f32 = c->dval_f32;
    if (c->ndiag > 0) {
        memcpy(o, c->doff, (size_t)c->ndiag * sizeof(int64_t));
        memcpy(o + 128, c->dval, (size_t)c->ndiag * (size_t)c->n * (c->dval_f32 ? 4 : es));
        return;
    }
    const size_t rp = al64(((size_t)c->n + 1) * sizeof(int64_t));
    memcpy(o, c->rowptr, ((size_t)c->n + 1) * sizeof(int64_t));
    memcpy(o + rp, c->col, (size_t)c->nnz * sizeof(int));
    memcpy(o + rp + al64((size_t)c->nnz * sizeof(int)), c->val, (size_t)c->nnz * es);
}

#define KT float
#define KSUF s
#define KACC trn_sacc
#define KACC_ADD trn_sacc_add
#define KACC_FIN trn_sacc_finish
#define KGEMV cblas_sgemv
#define KROWS trn_csr_rows_s
#define KPREC trn_precond_apply_s
#define KGM_GEMV_DOTS 0
#include "kernels/cpu/solver_kpar_tmpl.h"

#define KT double
#define KSUF d
#define KACC trn_dacc
#define KACC_ADD trn_dacc_add
#define KACC_FIN trn_dacc_finish
#define KGEMV cblas_dgemv
#define KROWS trn_csr_rows_d
#define KPREC trn_precond_apply_d
#define KGM_GEMV_DOTS 1
#include "kernels/cpu/solver_kpar_tmpl.h"

trn_kstatus trn_cpu_solver_kpar(const trn_solver_krylov_desc *d, trn_kmsg *msg, int shard,
                                int nshards) {
    trn_kpar_layout l;
    if (!d->krylov_scratch || trn_kpar_layout_of(d, &l) != 0 || l.total > d->krylov_scratch_bytes) {
        trn_kmsg_post(msg, 0, 0, "%s: the solve's state is missing or too small",
                      trn_solver_name(d->fn, d->type));
        return TRN_KSTATUS_FAILED;
    }
    return d->type == TRN_DTYPE_R32F ? kpar_step_s(d, &l, msg, shard, nshards)
                                     : kpar_step_d(d, &l, msg, shard, nshards);
}
