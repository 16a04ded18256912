/*
 * solver_svd_tile.h — gesvd with singular vectors as a task graph
 * (trn_sched_op.steps, as ops/solver_eig_tile.h's syevd): LAPACK's dgesvd
 * cut where its time goes, the QR iteration shared among the cores.
 *
 *   SVD_BRD  one task: A copied into the worker's workspace, refused when
 *            it holds a NaN or an infinity (info = -5, nothing written),
 *            scaled as dgesvd scales it when its largest entry is outside
 *            [smlnum, 1 / smlnum], smlnum = sqrt(safmin) / eps, and reduced
 *            to upper bidiagonal form Q^H A P = B (gebrd); Q's first ucols
 *            columns formed into U (orgbr 'Q') and P^H's first vtrows rows
 *            into VT (orgbr 'P'); B's diagonal and superdiagonal and the
 *            scaling go to the op's state;
 *   SVD_QR   one task per block of TRN_SVD_TILE_NB columns of VT, then one
 *            per block of as many rows of U: bdsqr on a private copy of B
 *            with only that block as its vectors (ncvt or nru), on a copy of
 *            the block. The task that is first in the list also writes S
 *            (scaled back), info and, when bdsqr did not converge, the
 *            unconverged superdiagonal into rwork.
 *
 * Why it parallelises, and why it is bitwise the same on any number of
 * cores: bdsqr's sweeps, shifts and rotations are computed from d and e
 * alone (with any vectors requested the path is the same: implicit-shift
 * QR, never dqds), so every task computes the same rotations; a rotation
 * mixes two rows of VT (two columns of U), each column of VT (row of U) on
 * its own, so a block gets exactly what the whole call would give it. The
 * blocks depend only on the shape.
 *
 * What dominates (one core, n = 2048, docs/benchmarks.md "gesvd over every
 * core"): bdsqr's rotations of U and VT, 94 % of dgesvd; a whole-matrix
 * bdsqr streams U and VT through memory at every sweep, where a block of
 * 256 stays in cache: blocks are 2.8 times faster on one core at 2048.
 * gebrd and orgbr (6 %) run on one core.
 *
 * A: not written (cuSOLVER documents its contents as destroyed; the untiled
 * path leaves LAPACK's work there).
 *
 * Memory: one state piece from the ops' scratch pool (daemon/service_tile.c),
 * zeroed when taken: the scaling, the QR step's claim counter and d, e.
 * Every copy and LAPACK workspace comes from the worker's kept workspace
 * within one task.
 */
#ifndef TRN_OPS_SOLVER_SVD_TILE_H
#define TRN_OPS_SOLVER_SVD_TILE_H

#include <stddef.h>
#include <stdint.h>

#include "ops/solver.h"

/* gesvd with vectors is tiled from this n up: bdsqr is then over 80 % of
 * the time and each side has at least two blocks. */
#define TRN_SVD_TILE_MIN_N 512
#define TRN_SVD_TILE_NB 256

/* Whether fn is one of a tiled gesvd's steps (never on the wire). */
int trn_svd_tile_fn(trn_solver_fn fn);

/* The number of steps a validated eigen op is cut into: 2 for a tiled
 * gesvd (jobu and jobvt each 'A', 'S' or 'N', not both 'N',
 * TRN_SVD_TILE_MIN_N <= n <= m <= 65536), else 0. */
int trn_svd_tile_steps(const trn_solver_eigen_desc *e);

/* The bytes of the op's state piece. */
size_t trn_svd_tile_state_bytes(const trn_solver_eigen_desc *e);

/* Step s (0 or 1) of the tiled op e, its zeroed state at state. */
trn_solver_dense_desc trn_svd_tile_step(const trn_solver_eigen_desc *e, int s, void *state);

/* Tasks of step d; task t's block (j: VT's block column; i: U's block row;
 * the other -1; both 0 for SVD_BRD), and its flops (real flops). */
size_t trn_svd_tile_tasks(const trn_solver_dense_desc *d);
void trn_svd_tile_task(const trn_solver_dense_desc *d, size_t t, int *i, int *j);
double trn_svd_tile_task_flops(const trn_solver_dense_desc *d, int i, int j);

/* The parts of the state. */
typedef struct trn_svd_tile_parts {
    double *anrm;   /* A's largest magnitude when it was scaled, else 0 */
    double *target; /* what it was scaled to (smlnum or 1 / smlnum) */
    uint64_t *claim;
    void *d; /* n reals: B's diagonal */
    void *e; /* n - 1 reals: B's superdiagonal */
} trn_svd_tile_parts;

trn_svd_tile_parts trn_svd_tile_layout(const trn_solver_dense_desc *d);

#endif
