/*
 * solver_tile.c — the task graphs of tiled factorisations
 * (ops/solver_tile.h): which steps, which tasks, what they cost. Pure
 * functions of the descriptors.
 */
#include "ops/solver_tile.h"

/* The tile size. 256 keeps each task's GEMM (2 nb^3 = 34 MFLOP) above the
 * scheduler's per-shard minimum (ops/shard.h) and the diagonal tasks, which
 * run on one core while the others wait, near 1 % of the work at n = 4096;
 * docs/benchmarks.md has the measurements behind it. */
#define TILE_NB 256

int trn_tile_fn(trn_solver_fn fn) {
    return fn == TRN_SOLVER_TILE_DIAG || fn == TRN_SOLVER_TILE_PANEL ||
           fn == TRN_SOLVER_TILE_UPDATE;
}

int trn_tile_count(int n, int nb) {
    return nb > 0 ? (int)(((long long)n + nb - 1) / nb) : 0;
}

int trn_tile_potrf_nb(int n, trn_dtype type) {
    (void)type;
    return trn_tile_count(n, TILE_NB) >= TRN_TILE_MIN_TILES ? TILE_NB : 0;
}

int trn_tile_potrf_steps(const trn_solver_dense_desc *d) {
    return 3 * trn_tile_count(d->n, d->tile_nb) - 2;
}

trn_solver_dense_desc trn_tile_potrf_step(const trn_solver_dense_desc *whole, int s) {
    trn_solver_dense_desc d = *whole;
    d.tile_nb = trn_tile_potrf_nb(whole->n, whole->type);
    d.tile_k = s / 3;
    d.fn = s % 3 == 0   ? TRN_SOLVER_TILE_DIAG
           : s % 3 == 1 ? TRN_SOLVER_TILE_PANEL
                        : TRN_SOLVER_TILE_UPDATE;
    return d;
}

size_t trn_tile_tasks(const trn_solver_dense_desc *d) {
    const size_t r = (size_t)(trn_tile_count(d->n, d->tile_nb) - 1 - d->tile_k);
    switch (d->fn) {
    case TRN_SOLVER_TILE_DIAG: return 1;
    case TRN_SOLVER_TILE_PANEL: return r;
    case TRN_SOLVER_TILE_UPDATE: return r * (r + 1) / 2;
    default: return 0;
    }
}

/* UPDATE's tasks are the tiles k < j <= i < T column by column: column j
 * holds T - j of them. */
void trn_tile_task(const trn_solver_dense_desc *d, size_t t, int *i, int *j) {
    const int k = d->tile_k, T = trn_tile_count(d->n, d->tile_nb);
    switch (d->fn) {
    case TRN_SOLVER_TILE_DIAG: *i = *j = k; return;
    case TRN_SOLVER_TILE_PANEL:
        *i = k + 1 + (int)t;
        *j = k;
        return;
    default: break;
    }
    int col = k + 1;
    while (t >= (size_t)(T - col)) {
        t -= (size_t)(T - col);
        col++;
    }
    *j = col;
    *i = col + (int)t;
}

/* The rows (and columns) of block b. */
static double extent(const trn_solver_dense_desc *d, int b) {
    const int rest = d->n - b * d->tile_nb;
    return rest < d->tile_nb ? rest : d->tile_nb;
}

static double task_flops(const trn_solver_dense_desc *d, int i, int j) {
    const double bk = extent(d, d->tile_k), bi = extent(d, i), bj = extent(d, j);
    const double cx = d->type == TRN_DTYPE_C32F || d->type == TRN_DTYPE_C64F ? 4.0 : 1.0;
    switch (d->fn) {
    case TRN_SOLVER_TILE_DIAG: return cx * bk * bk * bk / 3.0;
    case TRN_SOLVER_TILE_PANEL: return cx * bi * bk * bk;
    default: return cx * (i == j ? bi * bi * bk : 2.0 * bi * bj * bk);
    }
}

double trn_tile_step_flops(const trn_solver_dense_desc *d) {
    double f = 0.0;
    const size_t n = trn_tile_tasks(d);
    for (size_t t = 0; t < n; t++) {
        int i, j;
        trn_tile_task(d, t, &i, &j);
        f += task_flops(d, i, j);
    }
    return f;
}

double trn_tile_task_flops_max(const trn_solver_dense_desc *d) {
    double f = 0.0;
    const size_t n = trn_tile_tasks(d);
    for (size_t t = 0; t < n; t++) {
        int i, j;
        trn_tile_task(d, t, &i, &j);
        const double x = task_flops(d, i, j);
        f = x > f ? x : f;
    }
    return f;
}

/* Contiguous runs of tasks of near-equal flops: the shard's run ends at the
 * first task whose cumulative flops reach (shard + 1) / nshards of the
 * step's. Any split gives the same result (each task is computed alike
 * wherever it runs); this one only balances the shards. */
void trn_tile_shard_tasks(const trn_solver_dense_desc *d, int shard, int nshards, size_t *lo,
                          size_t *hi) {
    const size_t n = trn_tile_tasks(d);
    if (nshards <= 1) {
        *lo = 0;
        *hi = n;
        return;
    }
    const double total = trn_tile_step_flops(d);
    double acc = 0.0;
    size_t t = 0, start = 0;
    for (int s = 0; s <= shard; s++) {
        start = t;
        const double goal = total * (double)(s + 1) / (double)nshards;
        while (t < n && (s == nshards - 1 || acc < goal)) {
            int i, j;
            trn_tile_task(d, t, &i, &j);
            const double f = task_flops(d, i, j);
            /* Stop before a task that overshoots by more than half its
             * weight, so that shards end nearest their share. */
            if (s < nshards - 1 && t > start && acc + f / 2.0 > goal)
                break;
            acc += f;
            t++;
        }
    }
    *lo = start;
    *hi = t;
}
