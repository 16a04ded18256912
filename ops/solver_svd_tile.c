/*
 * solver_svd_tile.c — the task graph of a tiled gesvd
 * (ops/solver_svd_tile.h): its steps, tasks, costs and state layout. Pure
 * functions of the descriptors.
 */
#include "ops/solver_svd_tile.h"

/* The largest tiled dimension: every size below stays far inside size_t
 * and int (a client's matrix of that order is 32 GiB of doubles already). */
#define MAX_DIM 65536

/* Elements d and e have past n (as the tiled syevd's e and tau). */
#define VEC_SLACK 16

/* Offsets in the state: the scaling at 0 and 8, the claim counter on a
 * line of its own, then d and e. */
#define OFF_CLAIM 64
#define OFF_D 128

static size_t real_elem(trn_dtype t) {
    return t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F ? 4 : 8;
}

static size_t vec_span(trn_dtype t, int n) {
    return (((size_t)n + VEC_SLACK) * real_elem(t) + 63) & ~(size_t)63;
}

static int vector_job(char j) {
    return j == 'A' || j == 'S';
}

int trn_svd_tile_fn(trn_solver_fn fn) {
    return fn == TRN_SOLVER_TILE_SVD_BRD || fn == TRN_SOLVER_TILE_SVD_QR;
}

int trn_svd_tile_steps(const trn_solver_eigen_desc *e) {
    const int typed =
        e->type == TRN_DTYPE_R32F || e->type == TRN_DTYPE_R64F || trn_dtype_is_complex(e->type);
    const int jobs = (vector_job(e->jobu) || e->jobu == 'N') &&
                     (vector_job(e->jobvt) || e->jobvt == 'N') &&
                     (vector_job(e->jobu) || vector_job(e->jobvt));
    return e->fn == TRN_SOLVER_GESVD && typed && jobs && e->n >= TRN_SVD_TILE_MIN_N &&
                   e->m >= e->n && e->m <= MAX_DIM
               ? 2
               : 0;
}

size_t trn_svd_tile_state_bytes(const trn_solver_eigen_desc *e) {
    return OFF_D + 2 * vec_span(e->type, e->n);
}

trn_solver_dense_desc trn_svd_tile_step(const trn_solver_eigen_desc *e, int s, void *state) {
    /* U: m x (m or n); VT: n x n for both 'A' and 'S' (m >= n). */
    const int ucols = e->jobu == 'A' ? e->m : e->jobu == 'S' ? e->n : 0;
    const int vtrows = vector_job(e->jobvt) ? e->n : 0;
    return (trn_solver_dense_desc){
        .fn = s == 1 ? TRN_SOLVER_TILE_SVD_QR : TRN_SOLVER_TILE_SVD_BRD,
        .type = e->type,
        .m = e->m,
        .n = e->n,
        .a = e->a,
        .lda = e->lda,
        .d = e->w,
        .info = e->info,
        .tile_nb = TRN_SVD_TILE_NB,
        .eig_ws = state,
        .tile_claim = s == 1 ? (char *)state + OFF_CLAIM : NULL,
        .u = ucols ? e->u : NULL,
        .ldu = e->ldu,
        .ucols = ucols,
        .vt = vtrows ? e->v : NULL,
        .ldvt = e->ldv,
        .vtrows = vtrows,
        .rwork = e->rwork,
    };
}

static int blocks(int len, int nb) {
    return nb > 0 && len > 0 ? (int)(((long long)len + nb - 1) / nb) : 0;
}

/* The QR step's blocks of VT's columns and of U's rows. */
static int vt_blocks(const trn_solver_dense_desc *d) {
    return d->vtrows ? blocks(d->n, d->tile_nb) : 0;
}

static int u_blocks(const trn_solver_dense_desc *d) {
    return d->ucols ? blocks(d->m, d->tile_nb) : 0;
}

size_t trn_svd_tile_tasks(const trn_solver_dense_desc *d) {
    switch (d->fn) {
    case TRN_SOLVER_TILE_SVD_BRD: return 1;
    case TRN_SOLVER_TILE_SVD_QR: return (size_t)vt_blocks(d) + (size_t)u_blocks(d);
    default: return 0;
    }
}

void trn_svd_tile_task(const trn_solver_dense_desc *d, size_t t, int *i, int *j) {
    *i = *j = 0;
    if (d->fn != TRN_SOLVER_TILE_SVD_QR)
        return;
    const size_t nv = (size_t)vt_blocks(d);
    if (t < nv) {
        *i = -1;
        *j = (int)t;
    } else {
        *i = (int)(t - nv);
        *j = -1;
    }
}

double trn_svd_tile_task_flops(const trn_solver_dense_desc *d, int i, int j) {
    const double m = d->m, n = d->n, nb = d->tile_nb;
    switch (d->fn) {
    case TRN_SOLVER_TILE_SVD_BRD: {
        const double cx = trn_dtype_is_complex(d->type) ? 4.0 : 1.0;
        /* gebrd, then orgbr for each side: LAPACK's counts. */
        const double brd = 4.0 * m * n * n - 4.0 * n * n * n / 3.0;
        const double q = d->ucols ? 4.0 * m * n * (double)d->ucols - 2.0 * (m + d->ucols) * n * n +
                                        4.0 * n * n * n / 3.0
                                  : 0.0;
        const double p = d->vtrows ? 4.0 * n * n * n / 3.0 : 0.0;
        return cx * (brd + q + p);
    }
    case TRN_SOLVER_TILE_SVD_QR: {
        /* About 2 n^2 rotations in all (two sweeps a value), 6 flops each
         * per column of VT or row of U (complex vectors: twice the reals). */
        const double cx = trn_dtype_is_complex(d->type) ? 2.0 : 1.0;
        const double len = j >= 0 ? n : m, b = j >= 0 ? j : i;
        const double rest = len - b * nb, w = rest < nb ? rest : nb;
        return cx * 12.0 * n * n * w;
    }
    default: return 0.0;
    }
}

trn_svd_tile_parts trn_svd_tile_layout(const trn_solver_dense_desc *d) {
    char *base = d->eig_ws;
    return (trn_svd_tile_parts){.anrm = (double *)(void *)base,
                                .target = (double *)(void *)(base + 8),
                                .claim = (uint64_t *)(void *)(base + OFF_CLAIM),
                                .d = base + OFF_D,
                                .e = base + OFF_D + vec_span(d->type, d->n)};
}
