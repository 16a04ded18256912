/*
 * solver_tile_layout.h — tiles, and how a tiled step's block of tile
 * updates is cut into tasks: shared by the task graphs of ops/solver_tile.c
 * (Cholesky's UPDATE, LU's LU_UPDATE, QR's groups of block columns) and
 * ops/solver_inv_tile.c (potri's TRTRI and LAUUM steps).
 *
 * A layout covers block columns [cstart, T), each from its first row
 * (chol: the column's own block row, the tiles on or below the diagonal;
 * otherwise block row k + 1) down to row_end. In claim order: the
 * look-ahead column (lead: all of block column k + 1, one task), then
 * block columns [cstart, ctail) in groups of gc columns, each cut into
 * groups of gr rows, then the tail: block columns [ctail, T) one tile a
 * task. The tail holds at least one group's worth of tiles, so that
 * whichever core ends its groups first has small tasks left to take while
 * another finishes a group (ops/solver_tile.h, "Claiming").
 */
#ifndef TRN_OPS_SOLVER_TILE_LAYOUT_H
#define TRN_OPS_SOLVER_TILE_LAYOUT_H

#include <stddef.h>

/* Groups: a trsm or gemm task takes several tiles at once, one BLAS call
 * over the group where it can: PANEL up to TRN_TILE_GROUP tiles of block
 * column k, UPDATE and LU_UPDATE blocks of up to TRN_TILE_GROUP rows by
 * TRN_TILE_GROUP_COLS columns of tiles (dgemm on one core: about 47
 * GFLOP/s on a 256 x 256 tile, 49 over 8 x 1 tiles, 52 over 8 x 4: each
 * call packs its operands once; docs/benchmarks.md). A step's group holds
 * its tiles over TRN_TILE_MIN_TASKS, at most TRN_TILE_GROUP_AREA, about
 * twice as tall as wide: a function of the shape alone, never of the
 * cores, so that a step has at least that many tasks to share. */
#define TRN_TILE_GROUP 8
#define TRN_TILE_GROUP_COLS 4
#define TRN_TILE_GROUP_AREA 32
#define TRN_TILE_MIN_TASKS 8

/* A task's tiles: block rows i .. i + ni - 1 of block columns j .. j + nj -
 * 1 (ops/solver_tile.h says how each step names them). */
typedef struct trn_tile_span {
    int i, j, ni, nj;
} trn_tile_span;

/* The number of tiles covering `len` rows or columns, ceil(len / nb). */
int trn_tile_count(int len, int nb);

/* The number of groups of g covering `tiles` tiles. */
size_t trn_tile_groups(int tiles, int g);

/* The group shape for a step writing `tiles` tiles: gr x gc tiles holding
 * the step's over TRN_TILE_MIN_TASKS, between 1 and TRN_TILE_GROUP_AREA,
 * about twice as tall as wide (wide = 0: one column, gc = 1). */
void trn_tile_group_shape(long long tiles, int wide, int *gr, int *gc);

typedef struct trn_tile_layout {
    int k, T, row_end; /* block columns < T; rows < row_end */
    int chol;          /* only tiles i >= j */
    int lead;          /* the look-ahead task first */
    int gr, gc, cstart, ctail;
} trn_tile_layout;

/* Block column j's first row in L. */
int trn_tile_layout_first_row(const trn_tile_layout *L, int j);

/* Sets L->ctail from the other fields (the tail of single tiles). */
void trn_tile_layout_set_tail(trn_tile_layout *L);

/* The number of tasks of L, and task t's tiles. */
size_t trn_tile_layout_tasks(const trn_tile_layout *L);
trn_tile_span trn_tile_layout_span(const trn_tile_layout *L, size_t t);

#endif
