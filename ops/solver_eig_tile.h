/*
 * solver_eig_tile.h — syevd/heevd with vectors as a task graph
 * (trn_sched_op.steps, as the tiled factorisations of ops/solver_tile.h):
 * LAPACK's dsyevd cut into its three parts, the last one shared among the
 * cores.
 *
 *   EIG_TRD    one task: A's referenced triangle copied into the worker's
 *              workspace (the upper one mirrored into the lower, so the
 *              rest is always the lower form), refused when it holds a NaN
 *              or an infinity (info = -4, nothing written), scaled as
 *              dsyevd scales it when its largest entry is outside
 *              [rmin, rmax], and reduced to tridiagonal form Q^H A Q = T
 *              (sytrd/hetrd 'L'); T's diagonal goes to W, its off-diagonal,
 *              tau and the reflectors (as panels of tile_nb columns) to the
 *              op's scratch;
 *   EIG_STEDC  one task: T's eigenvalues into W (ascending, scaled back)
 *              and its eigenvectors into the scratch's block columns of Z
 *              by divide and conquer (stedc, compz 'I'; real even for
 *              heevd, widened);
 *   EIG_BACK   one task per block column of Z (tile_nb wide, the last one
 *              narrower): Z_j = Q_0 (Q_1 (... (Q_{T-1} Z_j))), Q_k panel
 *              k's reflectors applied by ormqr/unmqr, then Z_j copied into
 *              A's block column j.
 * A failed stedc (info > 0) ends the work there: A keeps its input.
 *
 * What dominates (docs/numerics.md, n = 4096, one core): the reduction
 * about half of dsyevd's time, the back-transformation a third, stedc a
 * sixth. Only the back-transformation is shared among cores here; the
 * reduction and stedc run on one core each.
 *
 * Determinism: the steps and tasks depend only on n and the type; each
 * block column of Z is transformed by the same library calls wherever it
 * runs; the single-task steps are single tasks. So W and Z are bitwise the
 * same on any number of cores.
 *
 * Memory: kernels run in executor processes, so what the steps share is in
 * one region the op holds, in the executors' shared space
 * (daemon/service_tile.c: from the ops' scratch pool; taken when the op is
 * queued, given back when it completes; without it the op runs untiled): 1 + 2T pieces (T block
 * columns), a state (sigma, e, tau and the table of the other pieces), and per block column j the
 * reflectors of panel j (rows [j nb, n) of its columns, leading dimension n - j nb) and Z's block
 * column j (n rows, leading dimension n). The copy of A that sytrd reduces (with one column and 256
 * bytes of slack: kernels/cpu/solver_util.h says why), stedc's contiguous
 * Z and every LAPACK workspace come from the worker's kept workspace within
 * one task, as for every solver kernel. The client's workspace stays
 * unused (syevd_bufferSize reports 0, as before).
 */
#ifndef TRN_OPS_SOLVER_EIG_TILE_H
#define TRN_OPS_SOLVER_EIG_TILE_H

#include <stddef.h>

#include "ops/solver.h"

/* syevd/heevd with vectors is tiled from this order up (4 block columns
 * of TRN_EIG_TILE_NB, as the tiled factorisations): below it the
 * back-transformation is too small to share. */
#define TRN_EIG_TILE_MIN_N 1024
#define TRN_EIG_TILE_NB 256
/* Elements e and tau have past n: sytrd uses tau as symv's y, and
 * OpenBLAS's symv kernels of some kernel sets (Prescott) touch elements
 * past y's end (found by the self-test's guard pages). */
#define TRN_EIG_TILE_VEC_SLACK 16

/* Whether fn is one of a tiled syevd's steps (never on the wire). */
int trn_eig_tile_fn(trn_solver_fn fn);

/* The number of steps a validated eigen op is cut into: 3 for a tiled
 * syevd/heevd (jobz V, TRN_EIG_TILE_MIN_N <= n <= 65536), else 0. */
int trn_eig_tile_steps(const trn_solver_eigen_desc *e);

/* The op's pieces: their count (0 when not tiled), each one's bytes, and
 * piece k's address recorded in the state (piece 0, which must be
 * recorded first). */
int trn_eig_tile_pieces(const trn_solver_eigen_desc *e);
size_t trn_eig_tile_piece_bytes(const trn_solver_eigen_desc *e, int k);
void trn_eig_tile_set_piece(const trn_solver_eigen_desc *e, void *state, int k, void *p);

/* Step s (0 .. 2) of the tiled op e, its state piece at state. */
trn_solver_dense_desc trn_eig_tile_step(const trn_solver_eigen_desc *e, int s, void *state);

/* Tasks of step d, task t's block column (i = j = it; 0 for the
 * single-task steps), and its flops (real flops: complex types times 4). */
size_t trn_eig_tile_tasks(const trn_solver_dense_desc *d);
void trn_eig_tile_task(const trn_solver_dense_desc *d, size_t t, int *i, int *j);
double trn_eig_tile_task_flops(const trn_solver_dense_desc *d, int i, int j);

/* The parts of a step's pieces. */
typedef struct trn_eig_tile_parts {
    double *sigma; /* the scaling EIG_TRD applied (1: none) */
    void *e;       /* n - 1 reals: T's off-diagonal */
    void *tau;     /* n - 1 elements: the reflectors' scalars */
    void **panel;  /* [T]: rows [j nb, n) of block column j after sytrd */
    void **z;      /* [T]: Z's block column j */
} trn_eig_tile_parts;

trn_eig_tile_parts trn_eig_tile_layout(const trn_solver_dense_desc *d);

#endif
