/*
 * solver_tile.c — the task graphs of tiled factorisations
 * (ops/solver_tile.h): which steps, which tasks, what they cost. Pure
 * functions of the descriptors.
 */
#include "ops/solver_tile.h"

#include "ops/solver_eig_tile.h"

/* The tile size. 256 keeps each task's GEMM (2 nb^3 = 34 MFLOP) above the
 * scheduler's per-shard minimum (ops/shard.h) and the one-task steps, which
 * run on one core while the others wait, near 1 % (Cholesky) and 5 % (LU's
 * panels) of the work at n = 4096; docs/benchmarks.md has the
 * measurements behind it. */
#define TILE_NB 256

int trn_tile_fn(trn_solver_fn fn) {
    switch (fn) {
    case TRN_SOLVER_TILE_DIAG:
    case TRN_SOLVER_TILE_PANEL:
    case TRN_SOLVER_TILE_UPDATE:
    case TRN_SOLVER_TILE_LU_PANEL:
    case TRN_SOLVER_TILE_LU_ROW:
    case TRN_SOLVER_TILE_LU_UPDATE:
    case TRN_SOLVER_TILE_QR_PANEL:
    case TRN_SOLVER_TILE_QR_UPDATE: return 1;
    default: return trn_eig_tile_fn(fn);
    }
}

int trn_tile_count(int len, int nb) {
    return nb > 0 && len > 0 ? (int)(((long long)len + nb - 1) / nb) : 0;
}

static int min_int(int a, int b) {
    return a < b ? a : b;
}

int trn_tile_nb(const trn_solver_dense_desc *d) {
    int len = 0;
    if (d->fn == TRN_SOLVER_POTRF)
        len = d->n;
    else if ((d->fn == TRN_SOLVER_GETRF && d->ipiv) || d->fn == TRN_SOLVER_GEQRF)
        len = min_int(d->m, d->n);
    return trn_tile_count(len, TILE_NB) >= TRN_TILE_MIN_TILES ? TILE_NB : 0;
}

/* Block rows and columns, and panels (LU). */
static int is_qr(const trn_solver_dense_desc *d) {
    return d->fn == TRN_SOLVER_GEQRF || d->fn == TRN_SOLVER_TILE_QR_PANEL ||
           d->fn == TRN_SOLVER_TILE_QR_UPDATE;
}

/* LU or QR: m x n, panels of block columns (Cholesky: n x n). */
static int is_lu(const trn_solver_dense_desc *d) {
    return d->fn == TRN_SOLVER_GETRF || d->fn == TRN_SOLVER_TILE_LU_PANEL ||
           d->fn == TRN_SOLVER_TILE_LU_ROW || d->fn == TRN_SOLVER_TILE_LU_UPDATE || is_qr(d);
}

static int rows_t(const trn_solver_dense_desc *d) {
    return trn_tile_count(is_lu(d) ? d->m : d->n, d->tile_nb);
}

static int cols_t(const trn_solver_dense_desc *d) {
    return trn_tile_count(d->n, d->tile_nb);
}

/* LU: whether block column k is wider than its panel (the last panel of a
 * wide matrix, cut by m): its other columns then need their own LU_ROW
 * task (the last one, i = j = k). */
static int lu_tail(const trn_solver_dense_desc *d) {
    const long long r0 = (long long)d->tile_k * d->tile_nb;
    const long long bk = d->n - r0 < d->tile_nb ? d->n - r0 : d->tile_nb;
    return d->m - r0 < bk;
}

/* Block columns with a step of their own: Cholesky's T, LU's and QR's
 * panels. */
static int panels(const trn_solver_dense_desc *whole) {
    const int nb = whole->tile_nb ? whole->tile_nb : trn_tile_nb(whole);
    return trn_tile_count(is_lu(whole) ? min_int(whole->m, whole->n) : whole->n, nb);
}

int trn_tile_carries_next_panel(const trn_solver_dense_desc *d) {
    switch (d->fn) {
    case TRN_SOLVER_TILE_UPDATE:
    case TRN_SOLVER_TILE_LU_UPDATE:
    case TRN_SOLVER_TILE_QR_UPDATE: return d->tile_k + 1 < panels(d);
    default: return 0;
    }
}

trn_solver_dense_desc trn_tile_next_panel(const trn_solver_dense_desc *d) {
    trn_solver_dense_desc next = *d;
    next.tile_k = d->tile_k + 1;
    next.fn = d->fn == TRN_SOLVER_TILE_UPDATE      ? TRN_SOLVER_TILE_DIAG
              : d->fn == TRN_SOLVER_TILE_LU_UPDATE ? TRN_SOLVER_TILE_LU_PANEL
                                                   : TRN_SOLVER_TILE_QR_PANEL;
    return next;
}

int trn_tile_group(const trn_solver_dense_desc *d) {
    const long long k = d->tile_k, R = rows_t(d) - 1 - k, C = cols_t(d) - 1 - k;
    long long tiles = 0;
    switch (d->fn) {
    case TRN_SOLVER_TILE_PANEL: tiles = C; break;
    case TRN_SOLVER_TILE_UPDATE: tiles = C * (C + 1) / 2; break;
    case TRN_SOLVER_TILE_LU_UPDATE: tiles = R * C; break;
    default: return 1;
    }
    const long long g = tiles / TRN_TILE_MIN_TASKS;
    return g < 1 ? 1 : g > TRN_TILE_GROUP ? TRN_TILE_GROUP : (int)g;
}

/* Groups of g covering `tiles` tiles. */
static size_t groups(int tiles, int g) {
    return tiles > 0 ? (size_t)(tiles + g - 1) / (size_t)g : 0;
}

/* Cholesky's UPDATE: the groups of block column j (its tiles j .. T-1). */
static size_t update_groups(const trn_solver_dense_desc *d, int j) {
    return groups(cols_t(d) - j, trn_tile_group(d));
}

size_t trn_tile_tasks(const trn_solver_dense_desc *d) {
    const size_t k = (size_t)d->tile_k;
    const size_t R = (size_t)rows_t(d) - 1 - k, C = (size_t)cols_t(d) - 1 - k;
    /* LU's look-ahead task is all of block column k + 1 (its groups). */
    const int g = trn_tile_group(d);
    const size_t lu_column = trn_tile_carries_next_panel(d) && R && C ? groups((int)R, g) - 1 : 0;
    size_t update = 0;
    switch (d->fn) {
    case TRN_SOLVER_TILE_DIAG: return 1;
    case TRN_SOLVER_TILE_PANEL: return groups((int)C, g);
    case TRN_SOLVER_TILE_UPDATE:
        for (int j = (int)k + 1; j < cols_t(d); j++)
            update += update_groups(d, j);
        return update;
    case TRN_SOLVER_TILE_LU_PANEL: return 1;
    case TRN_SOLVER_TILE_LU_ROW: return (size_t)cols_t(d) - 1 + (size_t)lu_tail(d);
    case TRN_SOLVER_TILE_LU_UPDATE: return groups((int)R, g) * C - lu_column;
    case TRN_SOLVER_TILE_QR_PANEL: return 1;
    case TRN_SOLVER_TILE_QR_UPDATE: return C + (size_t)lu_tail(d);
    default: return trn_eig_tile_tasks(d);
    }
}

/* The steps of block column k, in order, into fns (at most 3); returns
 * how many have tasks. Past the first, a panel's own step (Cholesky's
 * DIAG) is left out: the previous update step's first task factors it. */
static int steps_of_k(const trn_solver_dense_desc *whole, int k, trn_solver_fn fns[3]) {
    static const trn_solver_fn chol[3] = {TRN_SOLVER_TILE_DIAG, TRN_SOLVER_TILE_PANEL,
                                          TRN_SOLVER_TILE_UPDATE};
    static const trn_solver_fn lu[3] = {TRN_SOLVER_TILE_LU_PANEL, TRN_SOLVER_TILE_LU_ROW,
                                        TRN_SOLVER_TILE_LU_UPDATE};
    static const trn_solver_fn qr[2] = {TRN_SOLVER_TILE_QR_PANEL, TRN_SOLVER_TILE_QR_UPDATE};
    const trn_solver_fn *all = is_qr(whole) ? qr : is_lu(whole) ? lu : chol;
    const int count = is_qr(whole) ? 2 : 3;
    int n = 0;
    for (int i = 0; i < count; i++) {
        trn_solver_dense_desc d = *whole;
        d.tile_nb = trn_tile_nb(whole);
        d.tile_k = k;
        d.fn = all[i];
        if (i == 0 && k > 0) {
            trn_solver_dense_desc prev = d;
            prev.tile_k = k - 1;
            prev.fn = all[count - 1];
            if (trn_tile_carries_next_panel(&prev) && trn_tile_tasks(&prev) > 0)
                continue;
        }
        if (trn_tile_tasks(&d) > 0)
            fns[n++] = all[i];
    }
    return n;
}

int trn_tile_steps(const trn_solver_dense_desc *whole) {
    int s = 0;
    for (int k = 0; k < panels(whole); k++) {
        trn_solver_fn fns[3];
        s += steps_of_k(whole, k, fns);
    }
    return s;
}

trn_solver_dense_desc trn_tile_step(const trn_solver_dense_desc *whole, int s) {
    trn_solver_dense_desc d = *whole;
    d.tile_nb = trn_tile_nb(whole);
    for (int k = 0; k < panels(whole); k++) {
        trn_solver_fn fns[3];
        const int n = steps_of_k(whole, k, fns);
        if (s < n) {
            d.tile_k = k;
            d.fn = fns[s];
            return d;
        }
        s -= n;
    }
    d.fn = TRN_SOLVER_TILE_DIAG; /* s out of range: not reached by callers */
    return d;
}

/* PANEL: groups of the tiles below k in block column k. UPDATE: block
 * columns j > k in order, each its groups of tiles i >= j (the first with
 * the diagonal tile). LU_UPDATE: block columns j > k, each its groups of
 * tiles i > k; with the look-ahead, block column k + 1 is one task. */
void trn_tile_task_span(const trn_solver_dense_desc *d, size_t t, int *i, int *j, int *ni) {
    *ni = 1;
    if (trn_eig_tile_fn(d->fn)) {
        trn_eig_tile_task(d, t, i, j);
        return;
    }
    const int k = d->tile_k, T = cols_t(d), Tr = rows_t(d);
    const int g = trn_tile_group(d);
    const size_t R = (size_t)(Tr - 1 - k), per_column = groups((int)R, g);
    switch (d->fn) {
    case TRN_SOLVER_TILE_DIAG:
    case TRN_SOLVER_TILE_LU_PANEL:
    case TRN_SOLVER_TILE_QR_PANEL: *i = *j = k; return;
    case TRN_SOLVER_TILE_QR_UPDATE: /* block columns right of k, then the tail */
        *i = k;
        *j = k + 1 + (int)t < T ? k + 1 + (int)t : k;
        return;
    case TRN_SOLVER_TILE_PANEL:
        *i = k + 1 + (int)t * g;
        *j = k;
        *ni = min_int(g, T - *i);
        return;
    case TRN_SOLVER_TILE_LU_ROW:
        *i = k;
        *j = (int)t < k ? (int)t : (int)t + 1 < T ? (int)t + 1 : k; /* the last: the tail */
        return;
    case TRN_SOLVER_TILE_LU_UPDATE:
        if (trn_tile_carries_next_panel(d)) { /* task 0: all of block column k + 1 */
            if (t == 0) {
                *i = *j = k + 1;
                *ni = (int)R;
                return;
            }
            t += per_column - 1;
        }
        *j = k + 1 + (int)(t / per_column);
        *i = k + 1 + (int)(t % per_column) * g;
        *ni = min_int(g, Tr - *i);
        return;
    default: break;
    }
    int col = k + 1;
    while (t >= update_groups(d, col)) {
        t -= update_groups(d, col);
        col++;
    }
    *j = col;
    *i = col + (int)t * g;
    *ni = min_int(g, T - *i);
}

void trn_tile_task(const trn_solver_dense_desc *d, size_t t, int *i, int *j) {
    int ni;
    trn_tile_task_span(d, t, i, j, &ni);
}

/* The rows of block row b (len: the matrix's rows) or columns of a block
 * column. */
static double extent(int len, int nb, int b) {
    const int rest = len - b * nb;
    return rest < nb ? rest : nb;
}

static double tile_flops(const trn_solver_dense_desc *d, int i, int j) {
    if (trn_eig_tile_fn(d->fn))
        return trn_eig_tile_task_flops(d, i, j);
    const int nb = d->tile_nb, k = d->tile_k;
    const int rows = is_lu(d) ? d->m : d->n;
    const double cx = d->type == TRN_DTYPE_C32F || d->type == TRN_DTYPE_C64F ? 4.0 : 1.0;
    const double bk = extent(d->n, nb, k), bi = extent(rows, nb, i), bj = extent(d->n, nb, j);
    /* LU: the panel's width (a wide matrix's last panel is cut by m) and
     * height. */
    const double pw = bk < rows - (double)k * nb ? bk : rows - (double)k * nb;
    const double ph = rows - (double)k * nb;
    switch (d->fn) {
    case TRN_SOLVER_TILE_DIAG: return cx * bk * bk * bk / 3.0;
    case TRN_SOLVER_TILE_PANEL: return cx * bi * bk * bk;
    case TRN_SOLVER_TILE_UPDATE: return cx * (i == j ? bi * bi * bk : 2.0 * bi * bj * bk);
    case TRN_SOLVER_TILE_LU_PANEL: return cx * (ph * pw * pw - pw * pw * pw / 3.0);
    case TRN_SOLVER_TILE_LU_ROW: /* trsm (the tail: of its columns past the panel); swaps */
        return cx * (j > k ? pw * pw * bj : j == k ? pw * pw * (bk - pw) : pw * bj);
    case TRN_SOLVER_TILE_LU_UPDATE: return cx * 2.0 * bi * bj * pw;
    case TRN_SOLVER_TILE_QR_PANEL: return cx * (2.0 * ph * pw * pw - 2.0 * pw * pw * pw / 3.0);
    case TRN_SOLVER_TILE_QR_UPDATE: /* ormqr of the panel's reflectors (the tail: past it) */
        return cx * 4.0 * ph * pw * (j == k ? bk - pw : bj);
    default: return 0.0;
    }
}

/* Task t of step d: its tiles', and the next panel's when it carries it. */
static double task_flops(const trn_solver_dense_desc *d, size_t t) {
    int i, j, ni;
    trn_tile_task_span(d, t, &i, &j, &ni);
    double f = 0.0;
    for (int r = i; r < i + ni; r++)
        f += tile_flops(d, r, j);
    if (t == 0 && trn_tile_carries_next_panel(d)) {
        const trn_solver_dense_desc next = trn_tile_next_panel(d);
        f += tile_flops(&next, next.tile_k, next.tile_k);
    }
    return f;
}

double trn_tile_step_flops(const trn_solver_dense_desc *d) {
    double f = 0.0;
    const size_t n = trn_tile_tasks(d);
    for (size_t t = 0; t < n; t++)
        f += task_flops(d, t);
    return f;
}

/* Contiguous runs of tasks of near-equal flops: the shard's run ends where
 * the cumulative flops come nearest (shard + 1) / nshards of the step's.
 * Any split gives the same result (each task is computed alike wherever it
 * runs); this one only balances the shards. */
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
            const double f = task_flops(d, t);
            /* Stop before a task that would overshoot by more than half its
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
