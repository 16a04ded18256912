/*
 * solver_eig_tile.c — the task graph of a tiled syevd/heevd
 * (ops/solver_eig_tile.h): its steps, tasks, costs and scratch layout. Pure
 * functions of the descriptors.
 */
#include "ops/solver_eig_tile.h"

/* The largest tiled order: every size below stays far inside size_t (a
 * client's matrix of that order is 64 GiB of doubles already). */
#define MAX_N 65536

static size_t elem(trn_dtype t) {
    return t == TRN_DTYPE_R32F ? 4 : t == TRN_DTYPE_R64F || t == TRN_DTYPE_C32F ? 8 : 16;
}

static size_t real_elem(trn_dtype t) {
    return t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F ? 4 : 8;
}

static size_t align64(size_t b) {
    return (b + 63) & ~(size_t)63;
}

int trn_eig_tile_fn(trn_solver_fn fn) {
    return fn == TRN_SOLVER_TILE_EIG_TRD || fn == TRN_SOLVER_TILE_EIG_STEDC ||
           fn == TRN_SOLVER_TILE_EIG_BACK;
}

int trn_eig_tile_steps(const trn_solver_eigen_desc *e) {
    const int typed =
        e->type == TRN_DTYPE_R32F || e->type == TRN_DTYPE_R64F || trn_dtype_is_complex(e->type);
    return e->fn == TRN_SOLVER_SYEVD && e->vectors && typed && e->n >= TRN_EIG_TILE_MIN_N &&
                   e->n <= MAX_N
               ? 3
               : 0;
}

static int nblocks(int n) {
    return (n + TRN_EIG_TILE_NB - 1) / TRN_EIG_TILE_NB;
}

static int width(int n, int j) {
    const int rest = n - j * TRN_EIG_TILE_NB;
    return rest < TRN_EIG_TILE_NB ? rest : TRN_EIG_TILE_NB;
}

/* Offsets in the state piece: sigma at 0, then e, tau, the piece table. */
typedef struct offsets {
    size_t e, tau, table, end;
} offsets;

static offsets offsets_of(trn_dtype t, int n) {
    offsets o;
    o.e = 64;
    o.tau = o.e + align64(((size_t)n + TRN_EIG_TILE_VEC_SLACK) * real_elem(t));
    o.table = o.tau + align64(((size_t)n + TRN_EIG_TILE_VEC_SLACK) * elem(t));
    o.end = o.table + align64(2 * (size_t)nblocks(n) * sizeof(void *));
    return o;
}

int trn_eig_tile_pieces(const trn_solver_eigen_desc *e) {
    return trn_eig_tile_steps(e) ? 1 + 2 * nblocks(e->n) : 0;
}

size_t trn_eig_tile_piece_bytes(const trn_solver_eigen_desc *e, int k) {
    if (k == 0)
        return offsets_of(e->type, e->n).end;
    const int j = (k - 1) / 2, rows = k % 2 ? e->n - j * TRN_EIG_TILE_NB : e->n;
    return (size_t)rows * (size_t)width(e->n, j) * elem(e->type);
}

void trn_eig_tile_set_piece(const trn_solver_eigen_desc *e, void *state, int k, void *p) {
    if (k == 0)
        return;
    void **table = (void **)(void *)((char *)state + offsets_of(e->type, e->n).table);
    const int j = (k - 1) / 2;
    table[k % 2 ? j : nblocks(e->n) + j] = p;
}

trn_solver_dense_desc trn_eig_tile_step(const trn_solver_eigen_desc *e, int s, void *state) {
    static const trn_solver_fn fns[3] = {TRN_SOLVER_TILE_EIG_TRD, TRN_SOLVER_TILE_EIG_STEDC,
                                         TRN_SOLVER_TILE_EIG_BACK};
    return (trn_solver_dense_desc){.fn = fns[s >= 0 && s < 3 ? s : 0],
                                   .type = e->type,
                                   .lower = e->lower,
                                   .m = e->n,
                                   .n = e->n,
                                   .a = e->a,
                                   .lda = e->lda,
                                   .d = e->w,
                                   .info = e->info,
                                   .tile_nb = TRN_EIG_TILE_NB,
                                   .eig_ws = state};
}

static int blocks(const trn_solver_dense_desc *d) {
    return d->tile_nb > 0 ? (int)(((long long)d->n + d->tile_nb - 1) / d->tile_nb) : 0;
}

size_t trn_eig_tile_tasks(const trn_solver_dense_desc *d) {
    switch (d->fn) {
    case TRN_SOLVER_TILE_EIG_TRD:
    case TRN_SOLVER_TILE_EIG_STEDC: return 1;
    case TRN_SOLVER_TILE_EIG_BACK: return (size_t)blocks(d);
    default: return 0;
    }
}

void trn_eig_tile_task(const trn_solver_dense_desc *d, size_t t, int *i, int *j) {
    *i = *j = d->fn == TRN_SOLVER_TILE_EIG_BACK ? (int)t : 0;
}

double trn_eig_tile_task_flops(const trn_solver_dense_desc *d, int i, int j) {
    (void)i;
    const double n = d->n, cx = trn_dtype_is_complex(d->type) ? 4.0 : 1.0;
    switch (d->fn) {
    case TRN_SOLVER_TILE_EIG_TRD: return cx * 4.0 * n * n * n / 3.0;
    case TRN_SOLVER_TILE_EIG_STEDC: /* divide and conquer, real: about n^3 in practice */
        return n * n * n;
    case TRN_SOLVER_TILE_EIG_BACK: {
        const double rest = n - (double)j * d->tile_nb;
        const double bj = rest < d->tile_nb ? rest : d->tile_nb;
        return cx * 2.0 * n * n * bj;
    }
    default: return 0.0;
    }
}

trn_eig_tile_parts trn_eig_tile_layout(const trn_solver_dense_desc *d) {
    const offsets o = offsets_of(d->type, d->n);
    char *base = d->eig_ws;
    void **table = (void **)(void *)(base + o.table);
    return (trn_eig_tile_parts){.sigma = (double *)(void *)base,
                                .e = base + o.e,
                                .tau = base + o.tau,
                                .panel = table,
                                .z = table + nblocks(d->n)};
}
