/*
 * solver_tile.h — tiled dense factorisations as task graphs: one big
 * factorisation cut into steps of independent tile tasks, which the
 * scheduler runs one step after another, each step's tasks spread over
 * every core (trn_sched_op.steps; daemon/service_tile.c builds the
 * sequence, kernels/<backend>/ run the tasks).
 *
 * Tiles are nb x nb (the last row and column of tiles may be smaller);
 * block row i is rows [i nb, (i + 1) nb), block column j likewise.
 *
 * Cholesky (potrf), right-looking, T x T tiles. For k = 0 .. T-1:
 *   DIAG k    factor the diagonal tile A_kk (one task);
 *   PANEL k   for each i > k, solve A_ik against it (lower: A_ik L_kk^-H;
 *             upper: U_kk^-H A_ki), in groups of tiles;
 *   UPDATE k  for each k < j <= i, A_ij -= A_ik A_jk^H (upper: A_ji -=
 *             A_ki^H A_kj): syrk/herk on the diagonal, gemm off it, in
 *             blocks of tiles.
 * PANEL and UPDATE do not exist for the last k. With the look-ahead
 * (below) DIAG k and PANEL k, k > 0, are the first task of UPDATE k - 1:
 * T + 1 steps.
 *
 * LU with partial pivoting (getrf with ipiv), right-looking, Tr x Tc tiles
 * of an m x n matrix, K = ceil(min(m, n) / nb) panels. For k = 0 .. K-1:
 *   LU_PANEL k   LAPACK getrf of the panel: rows [k nb, m) of block column
 *                k (one task: the pivot search spans the whole panel);
 *   LU_ROW k     the panel's row interchanges applied to every block column
 *                j > k and the block row solved against the unit lower
 *                L_kk (A_kj = L_kk^-1 A_kj): Tc-1-k tasks, and one more
 *                for the columns of block column k past the panel when the
 *                rows end inside it (a wide matrix's last panel);
 *   LU_UPDATE k  A_ij -= A_ik A_kj for i, j > k, in blocks of tiles.
 * and last, LU_LEFT: every panel's interchanges in the block columns left
 * of it (nothing reads them again), one task a block column j < K-1: the
 * swaps of rows from (j + 1) nb on, column by column, each column's in
 * LAPACK's order.
 * A step without tasks is left out. This is LAPACK's blocked getrf with
 * the trailing update cut into tiles, so ipiv and info are LAPACK's.
 * Look-ahead: LU_PANEL k > 0 is not a step; the first task of LU_UPDATE
 * k - 1 updates all of block column k and then factors the panel, beside
 * the rest of the update. QR likewise (QR_PANEL k > 0 after block column
 * k's QR_UPDATE k - 1 task), and Cholesky (all of block column k updated,
 * then DIAG k's potrf and PANEL k's solve of every tile below it).
 *
 * potri (the inverse from the Cholesky factor) is a task graph of the same
 * kind, its steps in ops/solver_inv_tile.h; the functions below take its
 * steps too.
 *
 * Determinism: the steps depend only on the shape and the type (trn_tile_nb),
 * never on the core count or the load; each tile is written by exactly one
 * task of a step, and the updates of a tile come in the fixed order of k.
 * So the factors are bitwise the same on any number of cores, however a
 * step's tasks are shared among its shards.
 *
 * Backend-neutral: descriptors and tiles, nothing about CPUs. A step is a
 * trn_solver_dense_desc of the whole matrix with fn TRN_SOLVER_TILE_* and
 * tile (nb, k) set; the task list of a step is a pure function of it.
 */
#ifndef TRN_OPS_SOLVER_TILE_H
#define TRN_OPS_SOLVER_TILE_H

#include <stddef.h>

#include "ops/solver.h"
#include "ops/solver_tile_layout.h"

/* A factorisation is tiled when it has at least this many panels: below
 * that a step has too few tasks to share. */
#define TRN_TILE_MIN_TILES 4

/* Groups (their sizes: ops/solver_tile_layout.h).
 *
 * Claiming: a step run with a claim counter (trn_solver_dense_desc.
 * tile_claim, zero when the step starts) is shared dynamically: each shard
 * takes the next task not yet taken until none is left, so a core slowed
 * by anything finishes fewer. UPDATE and LU_UPDATE list their tasks
 * largest first and end with a tail of single tiles at least a group's
 * worth, which whichever shard runs out of groups first takes while the
 * others finish theirs. Without a counter a shard runs the contiguous run
 * trn_tile_shard_tasks gives it. Either way every task is computed alike,
 * wherever it runs: the factors do not depend on who took what. */

/* The group's rows (tiles) of step d, and its columns (1 for the steps
 * that do not group; 1 for PANEL). */
int trn_tile_group(const trn_solver_dense_desc *d);
int trn_tile_group_cols(const trn_solver_dense_desc *d);

/* Whether fn is one of a tiled factorisation's steps (never on the wire). */
int trn_tile_fn(trn_solver_fn fn);

/* The tile size of a factorisation d (potrf; getrf with pivoting; geqrf;
 * potri, whose steps are ops/solver_inv_tile.h's), or 0 when it is not
 * tiled. A function of the shape and the type alone. */
int trn_tile_nb(const trn_solver_dense_desc *d);

/* The number of steps of the tiled factorisation d (trn_tile_nb(d) > 0). */
int trn_tile_steps(const trn_solver_dense_desc *d);

/* Step s (0 .. trn_tile_steps - 1) of the tiled factorisation whole. */
trn_solver_dense_desc trn_tile_step(const trn_solver_dense_desc *whole, int s);

/* Look-ahead: whether update step d's first task also factors the next
 * panel (all of block column k + 1 updated, then Cholesky: the diagonal
 * tile's potrf and the solve of the tiles below it; LU: its getrf; QR: its
 * geqrf), so that the panel runs beside the rest of the update instead of
 * alone in steps of its own while the other cores wait. True for every
 * update step but the last panel's; that panel's own steps are then left
 * out. */
int trn_tile_carries_next_panel(const trn_solver_dense_desc *d);
/* The step that factors the panel after update step d's (DIAG, then
 * PANEL, LU_PANEL or QR_PANEL of k + 1), for the task that carries it. */
trn_solver_dense_desc trn_tile_next_panel(const trn_solver_dense_desc *d);

/* The number of tasks of step d. */
size_t trn_tile_tasks(const trn_solver_dense_desc *d);

/* Task t of step d: the tile (i, j) it writes, block row i and block
 * column j (a potrf task names the lower triangle's tile: for an upper
 * factor it writes (j, i); an LU_ROW task names block column j, i = k, and
 * j = k for the columns of block column k past the panel; an LU_LEFT task
 * names block column j, i = j). */
void trn_tile_task(const trn_solver_dense_desc *d, size_t t, int *i, int *j);

/* A task's tiles: block rows i .. i + ni - 1 of block columns j .. j + nj -
 * 1 (Cholesky upper: mirrored, block rows j .. and columns i ..); in
 * Cholesky's UPDATE only the tiles on or below the diagonal (row >=
 * column). PANEL, UPDATE and LU_UPDATE group (above); LU's look-ahead task
 * is all of block column k + 1; the other steps' tasks are one tile. */
trn_tile_span trn_tile_task_span(const trn_solver_dense_desc *d, size_t t);

/* The tasks [lo, hi) shard `shard` of nshards runs of step d: contiguous
 * runs of near-equal flops. */
void trn_tile_shard_tasks(const trn_solver_dense_desc *d, int shard, int nshards, size_t *lo,
                          size_t *hi);

/* The flops of step d (the real-flop count: complex types times 4). */
double trn_tile_step_flops(const trn_solver_dense_desc *d);

#endif
