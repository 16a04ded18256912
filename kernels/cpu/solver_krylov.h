/*
 * solver_krylov.h — the Krylov methods (solver_krylov.c) and what they run
 * on: operators and preconditioners (solver_linop.c). Internal to
 * kernels/cpu/.
 *
 * The methods see the operator and the preconditioner only as callbacks, so
 * the same CG / GMRES / BiCGStab serve trnsolver's Krylov op on any operator
 * format (dense, or the checked CSR copy of a CSR / BSR matrix: solver_csr.c)
 * and the GMRES of the mixed-precision refinement (solver_refine.c), whose
 * preconditioner is an FP32 LU.
 *
 * Each method returns a TRN_SOLVER_ST_* status and sets *iters (CG and
 * BiCGStab: iterations, one and two products with A each; GMRES: Arnoldi
 * steps over all restart cycles) and *relres = ||b - A x||_2 / ||b||_2
 * recomputed from x at the end (0 when b = 0, where x = 0 is returned).
 * Convergence is declared on that true residual: when the recurrence says
 * the tolerance is met but the recomputed residual does not, the method
 * carries on from the recomputed one (residual replacement).
 */
#ifndef TRN_KERNELS_CPU_SOLVER_KRYLOV_H
#define TRN_KERNELS_CPU_SOLVER_KRYLOV_H

#include "kernels/cpu/solver_util.h"
#include "ops/op.h"

typedef struct trn_kry_s {
    int n;
    void (*apply)(const void *ctx, const float *x, float *y); /* y = A x */
    const void *actx;
    void (*prec)(const void *ctx, const float *r, float *z); /* z = M^-1 r; NULL: none */
    const void *pctx;
    /* y = A x, returning x . y as trn_sdot_acc would (same bits) while y is
     * in cache; NULL: apply, then the dot. */
    double (*apply_dot)(const void *ctx, const float *x, float *y);
    trn_kmsg *msg; /* where a method that cannot allocate its vectors says so */
} trn_kry_s;

typedef struct trn_kry_d {
    int n;
    void (*apply)(const void *ctx, const double *x, double *y);
    const void *actx;
    void (*prec)(const void *ctx, const double *r, double *z);
    const void *pctx;
    double (*apply_dot)(const void *ctx, const double *x, double *y); /* as trn_ddot_acc */
    trn_kmsg *msg;
} trn_kry_d;

/* Returns a TRN_SOLVER_ST_* status, or -1 when workspace could not be
 * allocated (nothing was changed then; k->msg says how much). */
int trn_cg_s(const trn_kry_s *k, const float *b, float *x, double tol, int maxit, int *iters,
             double *relres);
int trn_cg_d(const trn_kry_d *k, const double *b, double *x, double tol, int maxit, int *iters,
             double *relres);
int trn_gmres_s(const trn_kry_s *k, const float *b, float *x, double tol, int maxit, int restart,
                int *iters, double *relres);
int trn_gmres_d(const trn_kry_d *k, const double *b, double *x, double tol, int maxit, int restart,
                int *iters, double *relres);
int trn_bicgstab_s(const trn_kry_s *k, const float *b, float *x, double tol, int maxit, int *iters,
                   double *relres);
int trn_bicgstab_d(const trn_kry_d *k, const double *b, double *x, double tol, int maxit,
                   int *iters, double *relres);

/* The kernel's private copy of a sparse operator (solver_csr.c): 0-based,
 * rowptr[0] = 0, non-decreasing to rowptr[n] = nnz, every col in [0, n). */
typedef struct trn_csr {
    int n;
    int64_t nnz;
    int64_t *rowptr; /* n + 1 */
    int *col;        /* nnz */
    void *val;       /* nnz of the operator's type */
    /* The same matrix by diagonals, when it has few (a stencil): A(i, i +
     * doff[d]) at dval[d n + i], zero where not stored; ndiag 0: none. */
    int ndiag;
    int64_t *doff; /* ascending */
    void *dval;
    int dval_f32; /* dval holds floats (an R32F operator, or doubles that all are floats) */
} trn_csr;

/* Copies and checks a CSR or BSR a (n x n elements) into *out, with the
 * diagonal form when it pays (solver_csr.c says when). Returns 0,
 * 1 when its offsets or indices break a rule, -1 without memory (either
 * posted to msg). */
int trn_csr_create(const trn_sp_mat *a, int n, trn_kmsg *msg, trn_csr **out);
void trn_csr_free(trn_csr *c);
/* y = A x; with acc, x . y is added to it (solver_util.h). */
void trn_csr_apply_s(const trn_csr *c, const float *x, float *y, trn_sacc *acc);
void trn_csr_apply_d(const trn_csr *c, const double *x, double *y, trn_dacc *acc);
/* Rows [lo, hi) of y = A x into y[0 .. hi - lo) (the same bits as the
 * whole product's rows). */
void trn_csr_rows_s(const trn_csr *c, const float *x, float *y, int64_t lo, int64_t hi);
void trn_csr_rows_d(const trn_csr *c, const double *x, double *y, int64_t lo, int64_t hi);
/* a_ii (duplicates summed; 0 when not stored), as a double. */
double trn_csr_diag(const trn_csr *c, trn_dtype t, int i);
/* The diagonal block A(s:s+nb, s:s+nb) into blk, column-major, ld nb. */
void trn_csr_block(const trn_csr *c, trn_dtype t, int s, int nb, void *blk);

/* The operator as the solvers apply it: the validated descriptor, and for
 * a sparse one the kernel's checked copy. */
typedef struct trn_kop {
    const trn_linop *lin;
    const trn_csr *csr; /* TRN_LINOP_SPARSE only */
} trn_kop;

/* y = A x for an operator of type R32F (_s) or R64F (_d); ctx is the
 * const trn_kop *. */
void trn_linop_apply_s(const void *ctx, const float *x, float *y);
void trn_linop_apply_d(const void *ctx, const double *x, double *y);
/* The same returning x . y (trn_kry_*.apply_dot). */
double trn_linop_apply_dot_s(const void *ctx, const float *x, float *y);
double trn_linop_apply_dot_d(const void *ctx, const double *x, double *y);

/* A preconditioner built from an operator. */
typedef struct trn_precond trn_precond;

/* Builds kind for op (type R32F or R64F). Returns 0 and *out (NULL for
 * TRN_PRECOND_NONE), 1 when the operator does not allow it (a zero or
 * non-finite diagonal entry, a singular diagonal block), -1 without
 * memory (posted to msg). op must outlive the preconditioner. */
int trn_precond_create(const trn_kop *op, trn_dtype t, trn_precond_kind kind, int block_size,
                       double omega, trn_kmsg *msg, trn_precond **out);
/* z = M^-1 r; ctx is the trn_precond *. */
void trn_precond_apply_s(const void *ctx, const float *r, float *z);
void trn_precond_apply_d(const void *ctx, const double *r, double *z);
void trn_precond_free(trn_precond *p);

/* A step of a CG run over every core (solver_kpar.c; ops/solver_kpar.h):
 * shard `shard` of nshards. */
trn_kstatus trn_cpu_solver_kpar(const trn_solver_krylov_desc *d, trn_kmsg *msg, int shard,
                                int nshards);

/* cusolverSp's csrlsvqr and csrlsvchol (solver_sp.c), run by the
 * solver_krylov kind's kernel. */
trn_kstatus trn_cpu_csrlsv(const trn_solver_krylov_desc *d, trn_kmsg *msg);

#endif
