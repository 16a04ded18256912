/*
 * solver_inv_tile.h — potri (the inverse of a Hermitian positive definite
 * matrix from its Cholesky factor) as a task graph over every core: the
 * steps of a tiled factorisation (ops/solver_tile.h: tiles of nb, claimed
 * tasks, one op to its client), for an order of at least 4 tiles.
 *
 * In place, as LAPACK's potri: first W = L^-1 over L (trtri), then W^H W
 * over W (lauum), in the triangle A holds. Named here for the lower
 * triangle, block rows and columns of T tiles; an upper A holds U = L^H,
 * and every task does the conjugate transpose of its lower counterpart on
 * the mirrored tile (inv(U) = W^H, then U U^H).
 *
 * trtri, after every diagonal tile is inverted (INV_DIAG, a tile a task),
 * is the in-place tile algorithm: for k = 0 .. T-1,
 *   (a)_k  A_mk = -A_mk A_kk      for m > k         (trmm: A_kk now L_kk^-1)
 *   (b)_k  A_mn += A_mk A_kn      for m > k, n < k  (gemm)
 *   (c)_k  A_kn = A_kk A_kn       for n < k         (trmm)
 * after which the leading k + 1 block rows and columns hold the inverse of
 * L's, and the rows below them -L_SP X. (b)_k reads column k after (a)_k
 * and row k before (c)_k rewrites it; (c)_{k-1} and (a)_{k+1} touch
 * nothing (b)_k reads or writes. So one step does all three:
 *   INV_TRTRI k (k = 0 .. T)  (c)_{k-1}, (a)_{k+1} (k = 0: (a)_0 too), a
 *                             tile a task, then (b)_k in groups of tiles
 *                             (ops/solver_tile_layout.h).
 *
 * lauum: for k = 1 .. T-1,
 *   INV_LAUUM k  A_mn += A_km^H A_kn for n <= m < k (herk on the diagonal,
 *                gemm off it, in groups), the task of tile (k-1, k-1)
 *                first turning it into A_{k-1,k-1}^H A_{k-1,k-1} (the
 *                diagonal tile's own lauum, once INV_ROW k-1 no longer
 *                reads it);
 *   INV_ROW k    A_kn = A_kk^H A_kn for n < k (trmm), a tile a task;
 * and last INV_LAST: the last diagonal tile's lauum. Each element of the
 * result is the sum over p of W_pm^H W_pn in the order of p. In all,
 * 3 T + 2 steps, the first INV_CHECK (below).
 *
 * info: INV_CHECK, one task, scans the factor's diagonal for an exactly
 * zero element and writes info (LAPACK's: that element's 1-based index,
 * else 0) before any tile changes (a scan inside INV_DIAG would race with
 * the tiles its other tasks write back: an infinite element's inverse is
 * 0). Every later step reads it and leaves A alone when it is not 0: A
 * comes back unchanged, as LAPACK's trtri leaves it.
 *
 * Determinism: as every tiled factorisation's (ops/solver_tile.h): the
 * steps and tasks depend on the shape alone, each tile is written by one
 * task of a step, so the inverse is bitwise the same on any number of
 * cores. It is not LAPACK's potri's bits (LAPACK's trtri solves with the
 * diagonal blocks where this multiplies by their inverses; both are
 * Du Croz and Higham's stable variants, with the same error bounds).
 */
#ifndef TRN_OPS_SOLVER_INV_TILE_H
#define TRN_OPS_SOLVER_INV_TILE_H

#include <stddef.h>

#include "ops/solver.h"
#include "ops/solver_tile_layout.h"

/* Whether fn is one of a tiled potri's steps. */
int trn_inv_tile_fn(trn_solver_fn fn);

/* The steps of the tiled potri `whole` (its tile_nb set), and step s. */
int trn_inv_tile_steps(const trn_solver_dense_desc *whole);
trn_solver_dense_desc trn_inv_tile_step(const trn_solver_dense_desc *whole, int s);

/* The tasks of step d, task t's tiles (lower-triangle names: block row i >=
 * block column j) and its flops (complex types counted 4 times). */
size_t trn_inv_tile_tasks(const trn_solver_dense_desc *d);
trn_tile_span trn_inv_tile_task_span(const trn_solver_dense_desc *d, size_t t);
double trn_inv_tile_task_flops(const trn_solver_dense_desc *d, size_t t);

/* INV_TRTRI k's single-tile tasks: first the row tiles (c)_{k-1}, then the
 * column tiles (a); the gemm groups of (b)_k follow them. */
int trn_inv_tile_row_tasks(const trn_solver_dense_desc *d);
int trn_inv_tile_col_tasks(const trn_solver_dense_desc *d);

/* The group shape of step d's gemm tasks (1 x 1 for the other steps). */
int trn_inv_tile_group(const trn_solver_dense_desc *d);
int trn_inv_tile_group_cols(const trn_solver_dense_desc *d);

#endif
