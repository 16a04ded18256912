/*
 * solver_inv_tile.c — the task graph of a tiled potri
 * (ops/solver_inv_tile.h): its steps, their tasks and what they cost. Pure
 * functions of the descriptors.
 */
#include "ops/solver_inv_tile.h"

#include "ops/solver_tile_layout.h"

int trn_inv_tile_fn(trn_solver_fn fn) {
    return fn == TRN_SOLVER_TILE_INV_CHECK || fn == TRN_SOLVER_TILE_INV_DIAG ||
           fn == TRN_SOLVER_TILE_INV_TRTRI || fn == TRN_SOLVER_TILE_INV_LAUUM ||
           fn == TRN_SOLVER_TILE_INV_ROW || fn == TRN_SOLVER_TILE_INV_LAST;
}

static int tiles_of(const trn_solver_dense_desc *d) {
    return trn_tile_count(d->n, d->tile_nb);
}

int trn_inv_tile_steps(const trn_solver_dense_desc *whole) {
    return 3 * tiles_of(whole) + 2;
}

/* INV_CHECK; INV_DIAG; INV_TRTRI k for k = 0 .. T; INV_LAUUM k, INV_ROW k
 * for k = 1 .. T-1; INV_LAST. */
trn_solver_dense_desc trn_inv_tile_step(const trn_solver_dense_desc *whole, int s) {
    trn_solver_dense_desc d = *whole;
    const int T = tiles_of(whole);
    d.tile_k = 0;
    if (s == 0) {
        d.fn = TRN_SOLVER_TILE_INV_CHECK;
        return d;
    }
    s--; /* the rest as if INV_CHECK were not there */
    if (s == 0) {
        d.fn = TRN_SOLVER_TILE_INV_DIAG;
    } else if (s <= T + 1) {
        d.fn = TRN_SOLVER_TILE_INV_TRTRI;
        d.tile_k = s - 1;
    } else if (s < 3 * T) {
        const int j = s - (T + 2);
        d.fn = j % 2 ? TRN_SOLVER_TILE_INV_ROW : TRN_SOLVER_TILE_INV_LAUUM;
        d.tile_k = j / 2 + 1;
    } else {
        d.fn = TRN_SOLVER_TILE_INV_LAST;
        d.tile_k = T - 1;
    }
    return d;
}

/* The tiles (b)_k updates: rows k+1 .. T-1 of block columns 0 .. k-1;
 * INV_LAUUM k's: the lower triangle of the leading k x k tiles. */
static long long gemm_tiles(const trn_solver_dense_desc *d) {
    const long long k = d->tile_k, T = tiles_of(d);
    if (d->fn == TRN_SOLVER_TILE_INV_TRTRI)
        return k < T ? (T - 1 - k) * k : 0;
    return d->fn == TRN_SOLVER_TILE_INV_LAUUM ? k * (k + 1) / 2 : 0;
}

static trn_tile_layout layout_of(const trn_solver_dense_desc *d) {
    const int k = d->tile_k;
    trn_tile_layout L = {.k = k, .T = k, .cstart = 0};
    L.chol = d->fn == TRN_SOLVER_TILE_INV_LAUUM;
    L.row_end = L.chol ? k : tiles_of(d);
    trn_tile_group_shape(gemm_tiles(d), 1, &L.gr, &L.gc);
    trn_tile_layout_set_tail(&L);
    return L;
}

int trn_inv_tile_group(const trn_solver_dense_desc *d) {
    return gemm_tiles(d) ? layout_of(d).gr : 1;
}

int trn_inv_tile_group_cols(const trn_solver_dense_desc *d) {
    return gemm_tiles(d) ? layout_of(d).gc : 1;
}

int trn_inv_tile_row_tasks(const trn_solver_dense_desc *d) {
    return d->fn == TRN_SOLVER_TILE_INV_TRTRI && d->tile_k >= 2 ? d->tile_k - 1 : 0;
}

/* (a)_{k+1}: rows k+2 .. T-1 of block column k+1; k = 0: (a)_0's rows 1 ..
 * T-1 of block column 0 before them. */
int trn_inv_tile_col_tasks(const trn_solver_dense_desc *d) {
    if (d->fn != TRN_SOLVER_TILE_INV_TRTRI)
        return 0;
    const int k = d->tile_k, T = tiles_of(d);
    const int next = T - 2 - k > 0 ? T - 2 - k : 0;
    return k == 0 ? T - 1 + next : next;
}

size_t trn_inv_tile_tasks(const trn_solver_dense_desc *d) {
    switch (d->fn) {
    case TRN_SOLVER_TILE_INV_CHECK: return 1;
    case TRN_SOLVER_TILE_INV_DIAG: return (size_t)tiles_of(d);
    case TRN_SOLVER_TILE_INV_TRTRI:
    case TRN_SOLVER_TILE_INV_LAUUM: {
        const trn_tile_layout L = layout_of(d);
        return (size_t)trn_inv_tile_row_tasks(d) + (size_t)trn_inv_tile_col_tasks(d) +
               trn_tile_layout_tasks(&L);
    }
    case TRN_SOLVER_TILE_INV_ROW: return (size_t)d->tile_k;
    case TRN_SOLVER_TILE_INV_LAST: return 1;
    default: return 0;
    }
}

trn_tile_span trn_inv_tile_task_span(const trn_solver_dense_desc *d, size_t t) {
    const int k = d->tile_k, T = tiles_of(d);
    trn_tile_span s = {.ni = 1, .nj = 1};
    switch (d->fn) {
    case TRN_SOLVER_TILE_INV_DIAG: s.i = s.j = (int)t; return s;
    case TRN_SOLVER_TILE_INV_TRTRI:
    case TRN_SOLVER_TILE_INV_LAUUM: {
        const size_t rows = (size_t)trn_inv_tile_row_tasks(d);
        const size_t cols = (size_t)trn_inv_tile_col_tasks(d);
        if (t < rows) { /* (c)_{k-1}: tile (k-1, t) */
            s.i = k - 1;
            s.j = (int)t;
        } else if (t < rows + cols) { /* (a): tile (m, j) */
            int u = (int)(t - rows);
            s.j = k + 1;
            if (k == 0 && u < T - 1)
                s.j = 0;
            else if (k == 0)
                u -= T - 1;
            s.i = s.j + 1 + u;
        } else {
            const trn_tile_layout L = layout_of(d);
            return trn_tile_layout_span(&L, t - rows - cols);
        }
        return s;
    }
    case TRN_SOLVER_TILE_INV_ROW:
        s.i = k;
        s.j = (int)t;
        return s;
    default: s.i = s.j = k; return s;
    }
}

/* The rows of block row b. */
static double extent(const trn_solver_dense_desc *d, int b) {
    const int rest = d->n - b * d->tile_nb;
    return rest < d->tile_nb ? rest : d->tile_nb;
}

/* A diagonal tile's inverse (a triangular solve with the identity) or
 * lauum (a triangular multiply of the full tile), as the kernels compute
 * them. */
static double diag_flops(const trn_solver_dense_desc *d, int b) {
    const double e = extent(d, b);
    return e * e * e;
}

/* Tile (i, j) of a gemm group (i > j) or on the diagonal (INV_LAUUM). */
static double gemm_tile_flops(const trn_solver_dense_desc *d, int i, int j) {
    const int k = d->tile_k;
    const double bi = extent(d, i), bj = extent(d, j), bk = extent(d, k);
    if (d->fn == TRN_SOLVER_TILE_INV_TRTRI)
        return 2.0 * bi * bj * bk;
    return (i == j ? bi * bi * bk : 2.0 * bi * bj * bk) +
           (i == k - 1 && j == k - 1 ? diag_flops(d, i) : 0.0);
}

static double task_flops(const trn_solver_dense_desc *d, size_t t) {
    const trn_tile_span s = trn_inv_tile_task_span(d, t);
    const double bi = extent(d, s.i), bj = extent(d, s.j);
    switch (d->fn) {
    case TRN_SOLVER_TILE_INV_CHECK: return (double)d->n; /* the diagonal's scan */
    case TRN_SOLVER_TILE_INV_DIAG:
    case TRN_SOLVER_TILE_INV_LAST: return diag_flops(d, s.i);
    case TRN_SOLVER_TILE_INV_ROW: return bi * bi * bj; /* trmm by A_kk */
    default: break;
    }
    const size_t single = (size_t)trn_inv_tile_row_tasks(d) + (size_t)trn_inv_tile_col_tasks(d);
    if (t < (size_t)trn_inv_tile_row_tasks(d))
        return bi * bi * bj; /* trmm by A_{k-1,k-1} */
    if (t < single)
        return bi * bj * bj; /* trmm by A_jj */
    double f = 0.0;
    for (int c = s.j; c < s.j + s.nj; c++)
        for (int r = s.i; r < s.i + s.ni; r++)
            if (r >= c)
                f += gemm_tile_flops(d, r, c);
    return f;
}

double trn_inv_tile_task_flops(const trn_solver_dense_desc *d, size_t t) {
    const double cx = d->type == TRN_DTYPE_C32F || d->type == TRN_DTYPE_C64F ? 4.0 : 1.0;
    return cx * task_flops(d, t);
}
