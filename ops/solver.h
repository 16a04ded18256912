/*
 * solver.h — the descriptors of trnsolver: the dense factorisations and
 * solves, batched Cholesky, eigenproblems and SVDs, the extensions and the
 * Krylov solvers with their operators and preconditioners.
 */
#ifndef TRN_OPS_SOLVER_H
#define TRN_OPS_SOLVER_H

#include "ops/sparse.h"
#include "ops/types.h"

/* The routines, numbered like the wire's SolverFunction. */
typedef enum trn_solver_fn {
    TRN_SOLVER_POTRF = 1,
    TRN_SOLVER_POTRS = 2,
    TRN_SOLVER_POTRI = 3,
    TRN_SOLVER_GETRF = 4,
    TRN_SOLVER_GETRS = 5,
    TRN_SOLVER_GEQRF = 6,
    TRN_SOLVER_ORGQR = 7, /* ungqr for complex types */
    TRN_SOLVER_ORMQR = 8, /* unmqr for complex types */
    TRN_SOLVER_SYTRF = 9, /* complex symmetric for complex types */
    TRN_SOLVER_SYTRI = 10,
    TRN_SOLVER_SYTRS = 11,
    TRN_SOLVER_LASWP = 12,
    TRN_SOLVER_LAUUM = 13,
    TRN_SOLVER_SYTRD = 14, /* hetrd for complex types */
    TRN_SOLVER_ORGTR = 15, /* ungtr */
    TRN_SOLVER_ORMTR = 18, /* unmtr */
    TRN_SOLVER_GEBRD = 19,
    TRN_SOLVER_ORGBR = 20, /* ungbr */
    TRN_SOLVER_POTRF_BATCHED = 16,
    TRN_SOLVER_POTRS_BATCHED = 17,
    TRN_SOLVER_SYEVD = 32, /* heevd */
    TRN_SOLVER_SYGVD = 33, /* hegvd */
    TRN_SOLVER_SYEVJ = 34, /* heevj */
    TRN_SOLVER_GESVD = 35,
    TRN_SOLVER_GESVDJ = 36,
    TRN_SOLVER_GEEV = 37,   /* cuSOLVER's Xgeev */
    TRN_SOLVER_SYGVDX = 38, /* hegvdx */
    TRN_SOLVER_SYGVJ = 39,  /* hegvj */
    TRN_SOLVER_GESVDA_STRIDED_BATCHED = 40,
    TRN_SOLVER_INV_SQRT_SPD = 48,
    TRN_SOLVER_SOLVE_SPD_IR = 49,
    TRN_SOLVER_GMRES_IR = 50,
    TRN_SOLVER_IRS_GESV = 51, /* cuSOLVER's <t1><t2>gesv and IRSXgesv */
    TRN_SOLVER_IRS_GELS = 52, /* cuSOLVER's <t1><t2>gels and IRSXgels */
    TRN_SOLVER_CG = 64,
    TRN_SOLVER_GMRES = 65,
    TRN_SOLVER_BICGSTAB = 66,
    TRN_SOLVER_CSRLSVQR = 67,   /* cusolverSp csrlsvqr: a direct solve, SolverKrylovOp */
    TRN_SOLVER_CSRLSVCHOL = 68, /* cusolverSp csrlsvchol */
    /* The steps of a tiled factorisation (ops/solver_tile.h): the daemon
     * makes them of a validated op; no wire value names them. */
    TRN_SOLVER_TILE_DIAG = 200,
    TRN_SOLVER_TILE_PANEL = 201,
    TRN_SOLVER_TILE_UPDATE = 202,
    TRN_SOLVER_TILE_LU_PANEL = 203,
    TRN_SOLVER_TILE_LU_ROW = 204,
    TRN_SOLVER_TILE_LU_UPDATE = 205,
    TRN_SOLVER_TILE_QR_PANEL = 206,
    TRN_SOLVER_TILE_QR_UPDATE = 207,
    TRN_SOLVER_TILE_LU_LEFT = 211, /* the row interchanges left of each panel, last */
    /* The steps of a tiled syevd/heevd (ops/solver_eig_tile.h). */
    TRN_SOLVER_TILE_EIG_TRD = 208,
    TRN_SOLVER_TILE_EIG_STEDC = 209,
    TRN_SOLVER_TILE_EIG_BACK = 210,
    /* The steps of a tiled gesvd (ops/solver_svd_tile.h). */
    TRN_SOLVER_TILE_SVD_BRD = 212,
    TRN_SOLVER_TILE_SVD_QR = 213,
    /* The steps of a Krylov solve run over every core (ops/solver_kpar.h):
     * made by the daemon of a validated op; no wire value names them. */
    TRN_SOLVER_KPAR_SETUP = 216,
    TRN_SOLVER_KPAR_APPLY = 217,
    TRN_SOLVER_KPAR_UPDATE = 218,
    /* The steps of a BiCGStab run over every core (ops/solver_kpar.h). */
    TRN_SOLVER_KBI_SETUP = 219,
    TRN_SOLVER_KBI_DIR = 220,    /* the new direction p and M^-1 p */
    TRN_SOLVER_KBI_APPLY = 221,  /* a product with A: v = A p^ or t = A s^ */
    TRN_SOLVER_KBI_HALF = 222,   /* s = r - alpha v and M^-1 s */
    TRN_SOLVER_KBI_UPDATE = 223, /* x and r */
    /* The steps of a GMRES run over every core (ops/solver_kpar.h). */
    TRN_SOLVER_KGM_SETUP = 224,
    TRN_SOLVER_KGM_STEP = 225, /* any looped step: what it does is in the state */
    /* The steps of a tiled potri (ops/solver_inv_tile.h). */
    TRN_SOLVER_TILE_INV_DIAG = 226,
    TRN_SOLVER_TILE_INV_TRTRI = 227,
    TRN_SOLVER_TILE_INV_LAUUM = 228,
    TRN_SOLVER_TILE_INV_ROW = 229,
    TRN_SOLVER_TILE_INV_LAST = 230,
    TRN_SOLVER_TILE_INV_CHECK = 231,
} trn_solver_fn;

/* The largest n the sparse direct solvers expand to a dense matrix (an
 * n x n double is 512 MiB at 8192). */
#define TRN_CSRLSV_MAX_N 8192

/* potrs and getrs solve their right-hand sides in blocks of this many
 * columns, whatever the core count, and a sharded solve gives each shard
 * whole blocks: each column's solution comes from the same LAPACK call on
 * any number of cores. */
#define TRN_SOLVE_RHS_BLOCK 128

/* The blocks of nrhs right-hand sides: ceil(nrhs / TRN_SOLVE_RHS_BLOCK). */
static inline int trn_solve_rhs_blocks(int nrhs) {
    return nrhs > 0 ? (nrhs + TRN_SOLVE_RHS_BLOCK - 1) / TRN_SOLVE_RHS_BLOCK : 1;
}

/* cusolverEigRange_t's values (sygvdx). */
#define TRN_EIG_RANGE_ALL 1001
#define TRN_EIG_RANGE_I 1002
#define TRN_EIG_RANGE_V 1003

/* The 16-byte record the iterative routines write into device memory
 * (trnsolverIterResult_t in the public API). */
typedef struct trn_solver_stats {
    int32_t iterations;
    int32_t status; /* TRN_SOLVER_ST_* */
    double residual;
} trn_solver_stats;

#define TRN_SOLVER_ST_CONVERGED 0
#define TRN_SOLVER_ST_MAX_ITERS 1
#define TRN_SOLVER_ST_BREAKDOWN 2
#define TRN_SOLVER_ST_NONFINITE 3
#define TRN_SOLVER_ST_FALLBACK 4 /* the FP32 factorisation could not be used */
#define TRN_SOLVER_ST_PRECOND 5  /* the preconditioner could not be set up */

/* Factorisations and solves. Dimensions are validated (>= 0, leading
 * dimensions >= max(1, rows)) and fit in int; unused pointers are NULL;
 * info is never NULL. */
typedef struct trn_solver_dense_desc {
    trn_solver_fn fn;
    trn_dtype type;
    int lower;       /* uplo: 1 lower, 0 upper */
    trn_trans trans; /* getrs, ormqr */
    int left;        /* ormqr: side */
    int m, n, k, nrhs;
    void *a;
    int lda;
    void *b; /* potrs, getrs: B; ormqr: C */
    int ldb;
    int32_t *ipiv; /* getrf, getrs, sytrf, sytrs, sytri, laswp; NULL: no pivoting */
    void *tau;     /* geqrf, orgqr, ormqr */
    int32_t *info; /* never NULL but for laswp */
    int k2, incx;  /* laswp: rows k (k1) .. k2, 1-based; ipiv's stride */
    void *d, *e;   /* sytrd: n and n - 1 reals; gebrd: n and n - 1 reals */
    void *taup;    /* gebrd: n (tau holds tauq, n) */
    int tile_nb;   /* TRN_SOLVER_TILE_*: the tile size (ops/solver_tile.h) */
    int tile_k;    /* TRN_SOLVER_TILE_*: the step's block column */
    /* TRN_SOLVER_TILE_EIG_* and _SVD_*: the op's scratch (ops/solver_eig_tile.h,
     * ops/solver_svd_tile.h) */
    void *eig_ws;
    /* TRN_SOLVER_TILE_* but EIG: the step's claim counter (a uint64_t, zero
     * when the step starts, in memory every shard's process sees), or NULL:
     * each shard runs a fixed run of tasks (ops/solver_tile.h, "Claiming") */
    void *tile_claim;
    /* TRN_SOLVER_TILE_SVD_*: gesvd's U (m x ucols) and VT (vtrows x n),
     * NULL with 0 columns / rows when not wanted, and rwork (may be NULL). */
    void *u, *vt, *rwork;
    int ldu, ldvt, ucols, vtrows;
} trn_solver_dense_desc;

/* potrfBatched / potrsBatched: batch matrices at a[i] (and b[i]). The
 * pointer arrays are owned by the op's references (ops/validate/validate.h). */
typedef struct trn_solver_batched_desc {
    trn_solver_fn fn;
    trn_dtype type;
    int lower;
    int n, nrhs;
    int lda, ldb;
    void *const *a;
    void *const *b;
    int32_t *info; /* potrf: batch entries; potrs: one */
    int batch;
} trn_solver_batched_desc;

/* Eigenvalue problems and SVDs. w (eigenvalues or singular values) is of
 * the type's real component. */
typedef struct trn_solver_eigen_desc {
    trn_solver_fn fn;
    trn_dtype type;
    int vectors; /* jobz */
    int lower;
    int itype;        /* sygvd */
    char jobu, jobvt; /* gesvd: 'A', 'S', 'O', 'N' */
    int econ;         /* gesvdj */
    int m, n;
    void *a;
    int lda;
    void *b; /* sygvd */
    int ldb;
    void *w;
    void *u;
    int ldu;
    void *v; /* gesvd: VT; gesvdj: V */
    int ldv;
    void *rwork; /* gesvd, may be NULL */
    int32_t *info;
    double tol;              /* syevj, gesvdj: > 0 */
    int max_sweeps;          /* syevj, gesvdj: > 0 */
    trn_solver_stats *stats; /* may be NULL */
    int w_split;             /* geev, real A: w is wr (n reals) then wi (n reals) */
    /* sygvdx: the selection (range 1001 all, 1002 by index il .. iu,
     * 1-based, 1003 by value in (vl, vu]) and where its count goes (may be
     * NULL). */
    int range;
    double vl, vu;
    int il, iu;
    int32_t *meig;
    /* gesvda: batch matrices m x n (m >= n) at a + i stride_a elements,
     * their rank singular values at w + i stride_s, U (m x rank) and V
     * (n x rank) at their strides (NULL without vectors), info[batch], and
     * residuals[batch] (may be NULL). Strides are validated to keep the
     * matrices' written parts disjoint. */
    int rank;
    int64_t stride_a, stride_s, stride_u, stride_v;
    int batch;
    double *residuals;
} trn_solver_eigen_desc;

/* The precision an IRS_GESV factorises in (cusolverPrecType_t's real
 * formats; a complex main type uses the complex format of the same name). */
typedef enum trn_irs_prec {
    TRN_IRS_PREC_64F = 0, /* the main precision when it is double: no refinement */
    TRN_IRS_PREC_32F = 1,
    TRN_IRS_PREC_16F = 2,
    TRN_IRS_PREC_16BF = 3,
    TRN_IRS_PREC_TF32 = 4,
} trn_irs_prec;

typedef enum trn_irs_refine {
    TRN_IRS_REFINE_NONE = 0,
    TRN_IRS_REFINE_CLASSICAL = 1,
    TRN_IRS_REFINE_GMRES = 2,         /* also CLASSICAL_GMRES, GMRES_GMRES */
    TRN_IRS_REFINE_GMRES_NOPCOND = 3, /* GMRES without the LU preconditioner */
} trn_irs_refine;

/* The trnsci extensions (inverse square root, mixed-precision refinement)
 * and cuSOLVER's IRS gesv. */
typedef struct trn_solver_refine_desc {
    trn_solver_fn fn;
    trn_dtype type;
    int lower;
    int n, nrhs;
    const void *a;
    int lda;
    const void *b;
    int ldb;
    void *x;
    int ldx;
    double tol;              /* > 0 */
    int max_iters;           /* > 0 */
    int restart;             /* GMRES_IR: > 0 */
    trn_solver_stats *stats; /* may be NULL */
    int32_t *info;           /* SOLVE_SPD_IR, GMRES_IR, IRS_GESV, IRS_GELS */
    int m;                   /* IRS_GELS: the rows of A and B (>= n); IRS_GESV: n; else 0 */
    /* IRS_GESV: type is the main precision (any of the four); the LU is
     * computed in FP32 arithmetic on A rounded to `lowest` (or in the main
     * precision when lowest is the main precision). */
    trn_irs_prec lowest;
    trn_irs_refine refine;
    int fallback;    /* solve in the main precision when refinement fails */
    int32_t *ipiv;   /* IRS_GESV: n pivots, may be NULL; IRS_GELS: NULL */
    double *history; /* 2 x (max_iters + 1) doubles, may be NULL */
} trn_solver_refine_desc;

/* The operator of a Krylov solver: a dense matrix or a trnsparse CSR / BSR
 * matrix (square, n x n elements, of the solver's type). The solvers reach
 * it only through kernels/cpu/solver_linop.c; a sparse operator's offsets
 * and indices are client memory, checked by the kernel (trn_sp_mat). */
typedef enum trn_linop_kind {
    TRN_LINOP_DENSE = 1,
    TRN_LINOP_SPARSE = 2,
} trn_linop_kind;

typedef struct trn_linop {
    trn_linop_kind kind;
    int n;
    const void *a; /* dense: n x n, column-major */
    int lda;
    trn_sp_mat sp; /* sparse: CSR or BSR */
} trn_linop;

typedef enum trn_precond_kind {
    TRN_PRECOND_NONE = 0,
    TRN_PRECOND_JACOBI = 1,
    TRN_PRECOND_BLOCK_JACOBI = 2,
    TRN_PRECOND_SSOR = 3,
} trn_precond_kind;

/* CG, GMRES(restart), BiCGStab on op: x (initial guess in, solution out);
 * and the sparse direct solvers CSRLSVQR / CSRLSVCHOL (op sparse CSR; tol
 * the singularity threshold, >= 0; stats.iterations the singularity). */
typedef struct trn_solver_krylov_desc {
    trn_solver_fn fn;
    trn_dtype type; /* R32F or R64F; CSRLSVQR / CSRLSVCHOL also C32F, C64F */
    trn_linop op;
    const void *b;
    void *x;
    double tol;    /* > 0 */
    int max_iters; /* >= 0 */
    int restart;   /* GMRES: 1 .. n */
    trn_precond_kind precond;
    int block_size;          /* BLOCK_JACOBI: 1 .. n */
    double omega;            /* SSOR: (0, 2) */
    trn_solver_stats *stats; /* may be NULL */
    /* TRN_SOLVER_KPAR_*: the solve's state (ops/solver_kpar.h), memory the
     * daemon gives the op while it is queued; NULL and 0 otherwise. */
    void *krylov_scratch;
    size_t krylov_scratch_bytes;
    /* The step's place in its sequence (0: the setup): two steps of a
     * BiCGStab share a fn (TRN_SOLVER_KBI_APPLY), a GMRES's looped steps
     * all do (TRN_SOLVER_KGM_STEP). 0 otherwise. */
    int krylov_step;
} trn_solver_krylov_desc;

/* The name of a trnsolver routine as cuSOLVER spells it for the type
 * ("potrf", "heevd" for a complex syevd, "cg", ...). */
const char *trn_solver_name(trn_solver_fn fn, trn_dtype type);

/* This family's op kinds: its rows of the list of kinds (ops/op_kinds.h
 * says what each column is). */
#define TRN_SOLVER_KINDS(X)                                                                        \
    X(SOLVER_DENSE, 64, SOLVER_DENSE, solver_dense, solver_dense, "solver_dense", "solver",        \
      "solver", CORE)                                                                              \
    X(SOLVER_BATCHED, 65, SOLVER_BATCHED, solver_batched, solver_batched, "solver_batched",        \
      "solver", "solver", CORE)                                                                    \
    X(SOLVER_EIGEN, 66, SOLVER_EIGEN, solver_eigen, solver_eigen, "solver_eigen", "solver",        \
      "solver", CORE)                                                                              \
    X(SOLVER_REFINE, 67, SOLVER_REFINE, solver_refine, solver_refine, "solver_refine", "solver",   \
      "solver", CORE)                                                                              \
    X(SOLVER_KRYLOV, 68, SOLVER_KRYLOV, solver_krylov, solver_krylov, "solver_krylov", "solver",   \
      "solver", CORE)

/* Its descriptors' places in trn_op_desc.u (ops/op.h): X(type, field). */
#define TRN_SOLVER_DESCS(X)                                                                        \
    X(trn_solver_dense_desc, solver_dense)                                                         \
    X(trn_solver_batched_desc, solver_batched)                                                     \
    X(trn_solver_eigen_desc, solver_eigen)                                                         \
    X(trn_solver_refine_desc, solver_refine)                                                       \
    X(trn_solver_krylov_desc, solver_krylov)

#endif
