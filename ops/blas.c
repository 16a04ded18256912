/*
 * blas.c — how Level 2 and Level 3 ops are cut into output tiles for
 * shards (ops/blas.h): the scheduler's shard count (ops/models/blas.c) and
 * the kernels' cut both follow these functions.
 */
#include "ops/blas.h"

#include <stdint.h>

/* Output tiles of Level 3 ops (ops/blas.h). Each tile is one library call (or a
 * fixed pair of calls), which packs the op's other operand again: measured
 * with OpenBLAS 0.3.21 on one core here (n = 2048 DTRSM/DTRMM from the
 * left), 512-wide tiles cost 0.5-1.5 % over one call, 256-wide ones 3-5 %,
 * 128-wide ones 10 %. So tiles are at least TILE_MIN wide, and there are at
 * most TILE_MAX_COUNT of them (wider tiles for larger extents), which bounds
 * a Level 3 op's shards. */
#define BLAS3_TILE_MIN 512
#define BLAS3_TILE_MAX_COUNT 16
#define BLAS3_TILE_ROUND 64

int trn_blas3_tile_width(int extent) {
    const int64_t per = ((int64_t)extent + BLAS3_TILE_MAX_COUNT - 1) / BLAS3_TILE_MAX_COUNT;
    const int64_t w = (per + BLAS3_TILE_ROUND - 1) / BLAS3_TILE_ROUND * BLAS3_TILE_ROUND;
    return w > BLAS3_TILE_MIN ? (int)w : BLAS3_TILE_MIN;
}

int trn_blas2_tile_extent(const trn_blas2_desc *d) {
    switch (d->fn) {
    case TRN_BLAS2_GEMV: return d->trans == TRN_TRANS_N ? d->m : d->n;
    case TRN_BLAS2_GER:
    case TRN_BLAS2_GERC: return d->n;
    default: return 0; /* not split */
    }
}

int trn_blas2_tiles(const trn_blas2_desc *d) {
    const int e = trn_blas2_tile_extent(d);
    if (e <= 0 || d->m == 0 || d->n == 0)
        return 1;
    const int w = trn_blas3_tile_width(e);
    return (int)(((int64_t)e + w - 1) / w);
}

int trn_blas3_tile_extent(const trn_blas3_desc *d) {
    switch (d->fn) {
    case TRN_BLAS3_SYMM:
    case TRN_BLAS3_HEMM:
    case TRN_BLAS3_TRSM:
    case TRN_BLAS3_TRMM:
        /* From the right, the rows of the output are independent. */
        return d->side == TRN_SIDE_RIGHT ? d->m : d->n;
    case TRN_BLAS3_SYRK:
    case TRN_BLAS3_HERK:
    case TRN_BLAS3_SYR2K:
    case TRN_BLAS3_HER2K:
    case TRN_BLAS3_SYRKX:
    case TRN_BLAS3_HERKX:
    case TRN_BLAS3_GEAM:
    case TRN_BLAS3_DGMM: break;
    }
    return d->n;
}

int trn_blas3_tiles(const trn_blas3_desc *d) {
    const int e = trn_blas3_tile_extent(d);
    if (e <= 0)
        return 0;
    const int w = trn_blas3_tile_width(e);
    return (int)(((int64_t)e + w - 1) / w);
}
