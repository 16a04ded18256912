/*
 * solver_tile.c — the task graphs of tiled factorisations
 * (ops/solver_tile.h): which steps, which tasks, what they cost. Pure
 * functions of the descriptors.
 */
#include "ops/solver_tile.h"

#include "ops/solver_inv_tile.h"

#include "ops/solver_eig_tile.h"
#include "ops/solver_svd_tile.h"

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
    case TRN_SOLVER_TILE_LU_LEFT:
    case TRN_SOLVER_TILE_QR_PANEL:
    case TRN_SOLVER_TILE_QR_UPDATE: return 1;
    default: return trn_eig_tile_fn(fn) || trn_svd_tile_fn(fn) || trn_inv_tile_fn(fn);
    }
}

static int min_int(int a, int b) {
    return a < b ? a : b;
}

int trn_tile_nb(const trn_solver_dense_desc *d) {
    int len = 0;
    if (d->fn == TRN_SOLVER_POTRF || d->fn == TRN_SOLVER_POTRI)
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
           d->fn == TRN_SOLVER_TILE_LU_ROW || d->fn == TRN_SOLVER_TILE_LU_UPDATE ||
           d->fn == TRN_SOLVER_TILE_LU_LEFT || is_qr(d);
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

/* The tiles a grouped step writes: PANEL's below the diagonal tile,
 * UPDATE's lower triangle right of block column k, LU_UPDATE's trailing
 * block. */
static long long step_tiles(const trn_solver_dense_desc *d) {
    const long long k = d->tile_k, R = rows_t(d) - 1 - k, C = cols_t(d) - 1 - k;
    switch (d->fn) {
    case TRN_SOLVER_TILE_PANEL: return C;
    case TRN_SOLVER_TILE_UPDATE: return C * (C + 1) / 2;
    case TRN_SOLVER_TILE_LU_UPDATE: return R * C;
    default: return 0;
    }
}

static void group_of(const trn_solver_dense_desc *d, int *gr, int *gc) {
    trn_tile_group_shape(step_tiles(d),
                         d->fn == TRN_SOLVER_TILE_UPDATE || d->fn == TRN_SOLVER_TILE_LU_UPDATE, gr,
                         gc);
}

int trn_tile_group_cols(const trn_solver_dense_desc *d) {
    if (trn_inv_tile_fn(d->fn))
        return trn_inv_tile_group_cols(d);
    if (d->fn == TRN_SOLVER_TILE_QR_UPDATE) { /* block columns over TRN_TILE_MIN_TASKS */
        const int c = (cols_t(d) - 1 - d->tile_k) / TRN_TILE_MIN_TASKS;
        return c < 1 ? 1 : c > TRN_TILE_GROUP_COLS ? TRN_TILE_GROUP_COLS : c;
    }
    int gr, gc;
    group_of(d, &gr, &gc);
    return gc;
}

int trn_tile_group(const trn_solver_dense_desc *d) {
    if (trn_inv_tile_fn(d->fn))
        return trn_inv_tile_group(d);
    int gr, gc;
    group_of(d, &gr, &gc);
    return gr;
}

static trn_tile_layout layout_of(const trn_solver_dense_desc *d) {
    trn_tile_layout L = {.k = d->tile_k, .T = cols_t(d), .row_end = rows_t(d)};
    L.chol = d->fn == TRN_SOLVER_TILE_UPDATE;
    L.lead = trn_tile_carries_next_panel(d) && L.row_end > L.k + 1 && L.T > L.k + 1;
    L.gr = trn_tile_group(d);
    L.gc = trn_tile_group_cols(d);
    L.cstart = L.k + 1 + L.lead;
    trn_tile_layout_set_tail(&L);
    return L;
}

/* QR_UPDATE: the look-ahead column k + 1 first, then block columns in
 * groups of gc, then at least gc single block columns, then the tail of
 * block column k (a wide matrix's last panel). */
static trn_tile_layout qr_layout(const trn_solver_dense_desc *d) {
    trn_tile_layout L = {.k = d->tile_k, .T = cols_t(d), .gr = 1};
    L.lead = trn_tile_carries_next_panel(d) && L.T > L.k + 1;
    L.gc = trn_tile_group_cols(d);
    L.cstart = L.k + 1 + L.lead;
    L.ctail = L.T - L.gc > L.cstart ? L.T - L.gc : L.cstart;
    return L;
}

static size_t qr_tasks(const trn_solver_dense_desc *d) {
    const trn_tile_layout L = qr_layout(d);
    return (size_t)L.lead + trn_tile_groups(L.ctail - L.cstart, L.gc) + (size_t)(L.T - L.ctail) +
           (size_t)lu_tail(d);
}

static trn_tile_span qr_span(const trn_solver_dense_desc *d, size_t t) {
    const trn_tile_layout L = qr_layout(d);
    trn_tile_span s = {.i = L.k, .j = L.k, .ni = 1, .nj = 1}; /* the tail */
    if (L.lead) {
        if (t == 0) {
            s.j = L.k + 1;
            return s;
        }
        t--;
    }
    const size_t ng = trn_tile_groups(L.ctail - L.cstart, L.gc);
    if (t < ng) {
        s.j = L.cstart + (int)t * L.gc;
        s.nj = min_int(L.gc, L.ctail - s.j);
    } else if (t - ng < (size_t)(L.T - L.ctail)) {
        s.j = L.ctail + (int)(t - ng);
    }
    return s;
}

size_t trn_tile_tasks(const trn_solver_dense_desc *d) {
    const size_t k = (size_t)d->tile_k, C = (size_t)cols_t(d) - 1 - k;
    switch (d->fn) {
    case TRN_SOLVER_TILE_DIAG: return 1;
    case TRN_SOLVER_TILE_PANEL: return trn_tile_groups((int)C, trn_tile_group(d));
    case TRN_SOLVER_TILE_UPDATE:
    case TRN_SOLVER_TILE_LU_UPDATE: {
        const trn_tile_layout L = layout_of(d);
        return trn_tile_layout_tasks(&L);
    }
    case TRN_SOLVER_TILE_LU_PANEL: return 1;
    case TRN_SOLVER_TILE_LU_ROW: return C + (size_t)lu_tail(d);
    case TRN_SOLVER_TILE_LU_LEFT: return (size_t)panels(d) - 1;
    case TRN_SOLVER_TILE_QR_PANEL: return 1;
    case TRN_SOLVER_TILE_QR_UPDATE: return qr_tasks(d);
    default:
        if (trn_inv_tile_fn(d->fn))
            return trn_inv_tile_tasks(d);
        return trn_svd_tile_fn(d->fn) ? trn_svd_tile_tasks(d) : trn_eig_tile_tasks(d);
    }
}

/* The steps of block column k, in order, into fns (at most 3); returns
 * how many have tasks. Past the first, a panel's own steps (Cholesky's DIAG
 * and PANEL, LU's and QR's panel) are left out: the previous update step's
 * first task factors it. */
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
        if (k > 0 && (i == 0 || (i == 1 && all == chol))) {
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

/* LU: the interchanges of each panel in the block columns left of it,
 * deferred to one last step (nothing reads those columns again): each
 * column gets all its swaps at once, in LAPACK's order, while it is in
 * cache, where each panel's LU_ROW step would stream the whole matrix. */
static int has_left_step(const trn_solver_dense_desc *whole) {
    return is_lu(whole) && !is_qr(whole) && panels(whole) > 1;
}

int trn_tile_steps(const trn_solver_dense_desc *whole) {
    if (whole->fn == TRN_SOLVER_POTRI) {
        trn_solver_dense_desc w = *whole;
        w.tile_nb = trn_tile_nb(whole);
        return trn_inv_tile_steps(&w);
    }
    int s = has_left_step(whole);
    for (int k = 0; k < panels(whole); k++) {
        trn_solver_fn fns[3];
        s += steps_of_k(whole, k, fns);
    }
    return s;
}

trn_solver_dense_desc trn_tile_step(const trn_solver_dense_desc *whole, int s) {
    trn_solver_dense_desc d = *whole;
    d.tile_nb = trn_tile_nb(whole);
    if (whole->fn == TRN_SOLVER_POTRI)
        return trn_inv_tile_step(&d, s);
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
    if (s == 0 && has_left_step(whole)) {
        d.tile_k = panels(whole) - 1;
        d.fn = TRN_SOLVER_TILE_LU_LEFT;
        return d;
    }
    d.fn = TRN_SOLVER_TILE_DIAG; /* s out of range: not reached by callers */
    return d;
}

/* PANEL: groups of the tiles below k in block column k. UPDATE and
 * LU_UPDATE: their trn_tile_layout. The others: one tile or block column a task. */
trn_tile_span trn_tile_task_span(const trn_solver_dense_desc *d, size_t t) {
    trn_tile_span s = {.ni = 1, .nj = 1};
    if (trn_inv_tile_fn(d->fn))
        return trn_inv_tile_task_span(d, t);
    if (trn_eig_tile_fn(d->fn)) {
        trn_eig_tile_task(d, t, &s.i, &s.j);
        return s;
    }
    if (trn_svd_tile_fn(d->fn)) {
        trn_svd_tile_task(d, t, &s.i, &s.j);
        return s;
    }
    const int k = d->tile_k, T = cols_t(d);
    switch (d->fn) {
    case TRN_SOLVER_TILE_DIAG:
    case TRN_SOLVER_TILE_LU_PANEL:
    case TRN_SOLVER_TILE_QR_PANEL: s.i = s.j = k; return s;
    case TRN_SOLVER_TILE_QR_UPDATE: return qr_span(d, t);
    case TRN_SOLVER_TILE_PANEL: {
        const int g = trn_tile_group(d);
        s.i = k + 1 + (int)t * g;
        s.j = k;
        s.ni = min_int(g, T - s.i);
        return s;
    }
    case TRN_SOLVER_TILE_LU_ROW:
        s.i = k;
        s.j = k + 1 + (int)t < T ? k + 1 + (int)t : k; /* the last: the tail */
        return s;
    case TRN_SOLVER_TILE_LU_LEFT: s.i = s.j = (int)t; return s;
    default: {
        const trn_tile_layout L = layout_of(d);
        return trn_tile_layout_span(&L, t);
    }
    }
}

void trn_tile_task(const trn_solver_dense_desc *d, size_t t, int *i, int *j) {
    const trn_tile_span s = trn_tile_task_span(d, t);
    *i = s.i;
    *j = s.j;
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
    if (trn_svd_tile_fn(d->fn))
        return trn_svd_tile_task_flops(d, i, j);
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
    case TRN_SOLVER_TILE_LU_ROW: /* trsm (the tail: of its columns past the panel) */
        return cx * pw * pw * (j > k ? bj : bk - pw);
    case TRN_SOLVER_TILE_LU_LEFT: /* the swaps of the panels right of block column j */
        return cx * bj * (double)(min_int(d->m, d->n) - (j + 1) * nb);
    case TRN_SOLVER_TILE_LU_UPDATE: return cx * 2.0 * bi * bj * pw;
    case TRN_SOLVER_TILE_QR_PANEL: return cx * (2.0 * ph * pw * pw - 2.0 * pw * pw * pw / 3.0);
    case TRN_SOLVER_TILE_QR_UPDATE: /* ormqr of the panel's reflectors (the tail: past it) */
        return cx * 4.0 * ph * pw * (j == k ? bk - pw : bj);
    default: return 0.0;
    }
}

/* Task t of step d: its tiles' (Cholesky's UPDATE: those on or below the
 * diagonal), and the next panel's when it carries it. */
static double task_flops(const trn_solver_dense_desc *d, size_t t) {
    if (trn_inv_tile_fn(d->fn))
        return trn_inv_tile_task_flops(d, t);
    const trn_tile_span s = trn_tile_task_span(d, t);
    double f = 0.0;
    for (int c = s.j; c < s.j + s.nj; c++)
        for (int r = s.i; r < s.i + s.ni; r++)
            if (d->fn != TRN_SOLVER_TILE_UPDATE || r >= c)
                f += tile_flops(d, r, c);
    if (t == 0 && trn_tile_carries_next_panel(d)) {
        trn_solver_dense_desc next = trn_tile_next_panel(d);
        f += tile_flops(&next, next.tile_k, next.tile_k);
        if (next.fn == TRN_SOLVER_TILE_DIAG) { /* and the panel below it */
            next.fn = TRN_SOLVER_TILE_PANEL;
            for (int r = next.tile_k + 1; r < cols_t(d); r++)
                f += tile_flops(&next, r, next.tile_k);
        }
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
