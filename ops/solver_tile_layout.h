/*
 * solver_tile_layout.h — how a tiled step's block of tile updates is cut
 * into tasks, shared by the task graphs of ops/solver_tile.c (Cholesky's
 * UPDATE, LU's LU_UPDATE) and ops/solver_inv_tile.c (potri's GEMM and
 * UPDATE steps). Internal to ops/.
 *
 * A layout covers block columns [cstart, T), each from its first row
 * (Cholesky-like, chol: the column's own block row, the tiles on or below
 * the diagonal; otherwise block row k + 1) down to row_end. In claim order:
 * the look-ahead column (lead: all of block column k + 1, one task), then
 * block columns [cstart, ctail) in groups of gc columns, each cut into
 * groups of gr rows, then the tail: block columns [ctail, T) one tile a
 * task. The tail holds at least one group's worth of tiles, so that
 * whichever core ends its groups first has small tasks left to take while
 * another finishes a group (ops/solver_tile.h, "Claiming").
 */
#ifndef TRN_OPS_SOLVER_TILE_LAYOUT_H
#define TRN_OPS_SOLVER_TILE_LAYOUT_H

#include <stddef.h>

#include "ops/solver_tile.h"

typedef struct trn_tile_layout {
    int k, T, row_end; /* block columns < T; rows < row_end */
    int chol;          /* only tiles i >= j */
    int lead;          /* the look-ahead task first */
    int gr, gc, cstart, ctail;
} trn_tile_layout;

/* The group shape for a step writing `tiles` tiles: gr x gc tiles holding
 * the step's over TRN_TILE_MIN_TASKS, between 1 and TRN_TILE_GROUP_AREA,
 * about twice as tall as wide (wide = 0: one column, gc = 1). */
void trn_tile_group_shape(long long tiles, int wide, int *gr, int *gc);

/* Sets L->ctail from the other fields (the tail of single tiles). */
void trn_tile_layout_set_tail(trn_tile_layout *L);

/* The number of tasks of L, and task t's tiles. */
size_t trn_tile_layout_tasks(const trn_tile_layout *L);
trn_tile_span trn_tile_layout_span(const trn_tile_layout *L, size_t t);

#endif
