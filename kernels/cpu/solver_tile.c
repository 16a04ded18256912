/*
 * solver_tile.c — the tile tasks of a tiled factorisation's step
 * (ops/solver_tile.h) on the CPU: LAPACK potrf on a diagonal tile, getrf
 * or geqrf on a panel, row interchanges, CBLAS trsm, syrk/herk and gemm,
 * LAPACK ormqr/unmqr on the others, each single-threaded on the shard's
 * worker. A shard runs the contiguous run of its step's
 * tasks that trn_tile_shard_tasks gives it; every task writes its own tile.
 *
 * devInfo: the first step sets it to 0. Cholesky: a diagonal task that
 * fails records the order of the first leading minor that is not positive
 * definite (LAPACK's potrf info), and from then on every task leaves A
 * alone, as potrf stops at that column. LU: the first panel with an exactly
 * zero pivot records its global index, and the factorisation goes on, as
 * getrf does.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/solver_lapack.h"
#include "kernels/cpu/solver_util.h"
#include "ops/solver_eig_tile.h"
#include "ops/solver_inv_tile.h"
#include "ops/solver_svd_tile.h"
#include "ops/solver_tile.h"

/* Element (r, c) of d's matrix. */
static void *at(const trn_solver_dense_desc *d, int r, int c) {
    return (char *)d->a + ((size_t)c * (size_t)d->lda + (size_t)r) * trn_dtype_size(d->type);
}

/* The columns of block column b (for a potrf, also the rows of block row
 * b). */
static int extent(const trn_solver_dense_desc *d, int b) {
    const int rest = d->n - b * d->tile_nb;
    return rest < d->tile_nb ? rest : d->tile_nb;
}

static int32_t get_info(const trn_solver_dense_desc *d) {
    int32_t v;
    memcpy(&v, d->info, sizeof(v));
    return v;
}

/* Factors A_kk; a failure records the global order of the failing minor.
 * As solver_factor.c's potrf: a NaN that reaches the diagonal is a failure
 * too (OpenBLAS lets it through). */
static void diag_task(const trn_solver_dense_desc *d) {
    const int k = d->tile_k, bk = extent(d, k), base = k * d->tile_nb;
    void *akk = at(d, base, base);
    lapack_int info =
        TRN_LAPACK4(d->type, potrf_work, LAPACK_COL_MAJOR, d->lower ? 'L' : 'U', bk, akk, d->lda);
    const size_t es = trn_dtype_size(d->type);
    for (int j = 0; info == 0 && j < bk; j++)
        if (trn_solver_nonfinite(d->type, 1, 1,
                                 (char *)akk + ((size_t)j * (size_t)d->lda + (size_t)j) * es, 1))
            info = j + 1;
    if (info > 0)
        trn_solver_put_info(d->info, (int32_t)(base + info));
}

/* The rows (Cholesky upper: columns) of tiles i .. i + ni - 1 of an
 * order-n matrix. */
static int span_extent(const trn_solver_dense_desc *d, int len, int i, int ni) {
    const long long end = (long long)(i + ni) * d->tile_nb;
    return (int)((end < len ? end : len) - (long long)i * d->tile_nb);
}

/* Lower: A_ik = A_ik L_kk^-H for tiles i .. i + ni - 1. Upper: A_ki =
 * U_kk^-H A_ki likewise. One trsm over the group. */
static void panel_task(const trn_solver_dense_desc *d, int i, int ni) {
    const int k = d->tile_k, bk = extent(d, k), bi = span_extent(d, d->n, i, ni);
    const int kb = k * d->tile_nb, ib = i * d->tile_nb;
    const CBLAS_TRANSPOSE ct = trn_dtype_is_complex(d->type) ? CblasConjTrans : CblasTrans;
    if (d->lower)
        trn_blas_trsm_split(d->type, CblasRight, CblasLower, ct, CblasNonUnit, bi, bk,
                            at(d, kb, kb), d->lda, at(d, ib, kb), d->lda);
    else
        trn_blas_trsm_split(d->type, CblasLeft, CblasUpper, ct, CblasNonUnit, bk, bi, at(d, kb, kb),
                            d->lda, at(d, kb, ib), d->lda);
}

/* Lower: A_ij -= A_ik A_jk^H for block rows [i, i + ni) of block columns
 * [j, j + nj), all below the diagonal: one gemm. Upper: A_ji -= A_ki^H A_kj
 * likewise. */
static void update_rect(const trn_solver_dense_desc *d, int i, int ni, int j, int nj) {
    const int k = d->tile_k, bk = extent(d, k), bi = span_extent(d, d->n, i, ni);
    const int bj = span_extent(d, d->n, j, nj);
    const int kb = k * d->tile_nb, ib = i * d->tile_nb, jb = j * d->tile_nb;
    const CBLAS_TRANSPOSE ct = trn_dtype_is_complex(d->type) ? CblasConjTrans : CblasTrans;
    if (d->lower)
        trn_blas_gemm(d->type, CblasNoTrans, ct, bi, bj, bk, -1.0, at(d, ib, kb), d->lda,
                      at(d, jb, kb), d->lda, 1.0, at(d, ib, jb), d->lda);
    else
        trn_blas_gemm(d->type, ct, CblasNoTrans, bj, bi, bk, -1.0, at(d, kb, jb), d->lda,
                      at(d, kb, ib), d->lda, 1.0, at(d, jb, ib), d->lda);
}

/* The tiles of span s on or below the diagonal: each of its block columns'
 * diagonal tile by syrk/herk and the tiles below it down to the span's last
 * column by a gemm of that column, then the rows below every column of the
 * span by one gemm. */
static void update_task(const trn_solver_dense_desc *d, const trn_tile_span *s) {
    const int k = d->tile_k, bk = extent(d, k), kb = k * d->tile_nb;
    const int i_end = s->i + s->ni, j_end = s->j + s->nj;
    const int band_end = i_end < j_end ? i_end : j_end;
    for (int c = s->j; c < j_end; c++) {
        const int cb = c * d->tile_nb;
        if (c >= s->i && c < i_end) {
            if (d->lower)
                trn_blas_herk(d->type, CblasLower, CblasNoTrans, extent(d, c), bk, -1.0,
                              at(d, cb, kb), d->lda, 1.0, at(d, cb, cb), d->lda);
            else
                trn_blas_herk(d->type, CblasUpper, CblasConjTrans, extent(d, c), bk, -1.0,
                              at(d, kb, cb), d->lda, 1.0, at(d, cb, cb), d->lda);
        }
        const int r0 = s->i > c + 1 ? s->i : c + 1;
        if (r0 < band_end)
            update_rect(d, r0, band_end - r0, c, 1);
    }
    const int below = s->i > j_end ? s->i : j_end;
    if (below < i_end)
        update_rect(d, below, i_end - below, s->j, s->nj);
}

/* ---- LU with partial pivoting ---------------------------------------- */

/* Panel k's width: block column k's, or fewer where the rows end (the last
 * panel of a wide matrix). */
static int panel_width(const trn_solver_dense_desc *d) {
    const int r0 = d->tile_k * d->tile_nb, bk = extent(d, d->tile_k);
    return d->m - r0 < bk ? d->m - r0 : bk;
}

/* LAPACK getrf of rows [k nb, m) of block column k; its pivots made
 * global (1-based rows of the whole matrix, as LAPACK's getrf gives), its
 * info (the first exactly zero pivot) recorded unless an earlier panel's
 * was. */
static void lu_panel_task(const trn_solver_dense_desc *d) {
    const int r0 = d->tile_k * d->tile_nb, pw = panel_width(d);
    int32_t *piv = d->ipiv + r0;
    const lapack_int info = TRN_LAPACK4(d->type, getrf_work, LAPACK_COL_MAJOR, d->m - r0, pw,
                                        at(d, r0, r0), d->lda, piv);
    for (int r = 0; r < pw; r++)
        piv[r] += r0;
    if (info > 0 && get_info(d) == 0)
        trn_solver_put_info(d->info, (int32_t)(r0 + info));
}

/* The interchanges of rows [r0, r0 + pw) (d->ipiv, in order) in columns
 * [c0, c0 + nc). Column by column: the swaps of one column stay within it
 * (a few KiB), where row by row each swap would touch another page per
 * column; 3x faster at n = 4096 (docs/benchmarks.md). Each column gets the
 * same swaps in the same order either way. */
#define SWAP_COLUMNS(ES)                                                                           \
    for (int c = c0; c < c0 + nc; c++) {                                                           \
        char *col = at(d, 0, c), v[ES];                                                            \
        for (int r = r0; r < r0 + pw; r++) {                                                       \
            const size_t p = (size_t)(d->ipiv[r] - 1) * (ES), q = (size_t)r * (ES);                \
            memcpy(v, col + q, ES);                                                                \
            memmove(col + q, col + p, ES);                                                         \
            memcpy(col + p, v, ES);                                                                \
        }                                                                                          \
    }

/* Constant sizes: each copy becomes a move of one element. */
static void swap_rows(const trn_solver_dense_desc *d, int r0, int pw, int c0, int nc) {
    switch (trn_dtype_size(d->type)) {
    case 4: SWAP_COLUMNS(4) break;
    case 8: SWAP_COLUMNS(8) break;
    default: SWAP_COLUMNS(16) break;
    }
}

/* Panel k's row interchanges on block column j > k (LAPACK's laswp, in
 * order), then the block row's solve A_kj = L_kk^-1 A_kj. j = k: the
 * columns of block column k past the panel (a wide matrix's last panel),
 * which get both. */
static void lu_row_task(const trn_solver_dense_desc *d, int j) {
    const int r0 = d->tile_k * d->tile_nb, pw = panel_width(d);
    const int tail = j == d->tile_k;
    const int c0 = j * d->tile_nb + (tail ? pw : 0), bj = extent(d, j) - (tail ? pw : 0);
    swap_rows(d, r0, pw, c0, bj);
    trn_blas_trsm_split(d->type, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, pw, bj,
                        at(d, r0, r0), d->lda, at(d, r0, c0), d->lda);
}

/* LU_LEFT: block column j gets the interchanges of every panel right of
 * it, rows (j + 1) nb .. min(m, n) - 1 in order: each column all its swaps
 * at once (ops/solver_tile.h). */
static void lu_left_task(const trn_solver_dense_desc *d, int j) {
    const int r0 = (j + 1) * d->tile_nb, mn = d->m < d->n ? d->m : d->n;
    swap_rows(d, r0, mn - r0, j * d->tile_nb, extent(d, j));
}

/* A_ij -= A_ik A_kj for the tiles of span s: one gemm per group of
 * trn_tile_group rows (the look-ahead task's whole column is several). */
static void lu_update_task(const trn_solver_dense_desc *d, const trn_tile_span *s) {
    const int r0 = d->tile_k * d->tile_nb, pw = panel_width(d), jb = s->j * d->tile_nb;
    const int group = trn_tile_group(d), i_end = s->i + s->ni;
    for (int g = s->i; g < i_end; g += group) {
        const int n_g = i_end - g < group ? i_end - g : group;
        const int gb = g * d->tile_nb;
        trn_blas_gemm(d->type, CblasNoTrans, CblasNoTrans, span_extent(d, d->m, g, n_g),
                      span_extent(d, d->n, s->j, s->nj), pw, -1.0, at(d, gb, r0), d->lda,
                      at(d, r0, jb), d->lda, 1.0, at(d, gb, jb), d->lda);
    }
}

/* ---- QR ---------------------------------------------------------------- */

/* LAPACK's geqrf of panel k (rows [k nb, m), its width) into tau[k nb ..]
 * (nc = 0), or its reflectors applied from the left (Q^H C) to columns
 * [c0, c0 + nc) of those rows: a workspace query, then the call. The
 * reflectors are applied from a private copy of the panel: LAPACK's
 * unblocked ormqr (orm2r, which ormqr calls when the panel is at most its
 * block size wide) sets each reflector's diagonal element to 1 while it
 * applies it, which other tasks of the step, reading the same panel on
 * other cores, must not see. */
static trn_kstatus qr_call(const trn_solver_dense_desc *d, trn_kmsg *msg, int c0, int nc) {
    const trn_dtype t = d->type;
    const size_t es = trn_dtype_size(t);
    const int r0 = d->tile_k * d->tile_nb, h = d->m - r0, pw = panel_width(d);
    const char trans = trn_dtype_is_complex(t) ? 'C' : 'T';
    void *v = at(d, r0, r0), *c = at(d, r0, c0);
    int ldv = d->lda;
    void *tau = (char *)d->tau + (size_t)r0 * es;
    const size_t vbytes = nc ? (size_t)h * (size_t)pw * es : 0;
    trn_lapack_query q;
    memset(&q, 0, sizeof(q));
    lapack_int rc = 0;
    for (int pass = 0; pass < 2 && rc == 0; pass++) {
        void *work = &q, *ws = NULL;
        lapack_int lwork = -1;
        if (pass == 1) {
            lwork = trn_lapack_lwork(t, &q);
            const size_t bytes = (size_t)lwork * es + vbytes;
            ws = trn_solver_ws_get(bytes);
            if (!ws)
                return trn_kmsg_no_memory(
                    msg, 0, bytes, "the LAPACK workspace of a geqrf tile (lwork %d)", (int)lwork);
            work = ws;
            if (nc) { /* the panel's copy, after work */
                void *copy = (char *)ws + (size_t)lwork * es;
                for (int j = 0; j < pw; j++)
                    memcpy((char *)copy + (size_t)j * (size_t)h * es, at(d, r0, r0 + j),
                           (size_t)h * es);
                v = copy;
                ldv = h;
            }
        }
        if (nc == 0)
            rc = TRN_LAPACK4(t, geqrf_work, LAPACK_COL_MAJOR, h, pw, v, d->lda, tau, work, lwork);
        else
            rc = TRN_BY_TYPE(t,
                             TRN_LIB(LAPACKE_sormqr_work)(LAPACK_COL_MAJOR, 'L', trans, h, nc, pw,
                                                          v, ldv, tau, c, d->lda, work, lwork),
                             TRN_LIB(LAPACKE_dormqr_work)(LAPACK_COL_MAJOR, 'L', trans, h, nc, pw,
                                                          v, ldv, tau, c, d->lda, work, lwork),
                             TRN_LIB(LAPACKE_cunmqr_work)(LAPACK_COL_MAJOR, 'L', trans, h, nc, pw,
                                                          v, ldv, tau, c, d->lda, work, lwork),
                             TRN_LIB(LAPACKE_zunmqr_work)(LAPACK_COL_MAJOR, 'L', trans, h, nc, pw,
                                                          v, ldv, tau, c, d->lda, work, lwork));
        if (pass == 1)
            trn_solver_ws_put(ws, (size_t)lwork * es + vbytes);
    }
    if (rc == 0)
        return TRN_KSTATUS_OK;
    trn_kmsg_post(msg, 0, 0, "geqrf tile: LAPACK returned %d", (int)rc);
    return TRN_KSTATUS_FAILED;
}

/* Q_k^H applied to block columns j .. j + nj - 1 (j = k: block column k's
 * columns past the panel). */
static trn_kstatus qr_update_task(const trn_solver_dense_desc *d, trn_kmsg *msg, int j, int nj) {
    const int pw = panel_width(d);
    if (j == d->tile_k)
        return qr_call(d, msg, j * d->tile_nb + pw, extent(d, j) - pw);
    return qr_call(d, msg, j * d->tile_nb, span_extent(d, d->n, j, nj));
}

/* The panel after update step d's, factored by its first task (Cholesky:
 * the diagonal tile, then, unless it failed, the solve of every tile below
 * it, as PANEL would). */
static trn_kstatus next_panel(const trn_solver_dense_desc *d, trn_kmsg *msg) {
    trn_solver_dense_desc next = trn_tile_next_panel(d);
    switch (next.fn) {
    case TRN_SOLVER_TILE_DIAG: {
        diag_task(&next);
        const int below = trn_tile_count(d->n, d->tile_nb) - next.tile_k - 1;
        if (get_info(&next) == 0 && below > 0) {
            next.fn = TRN_SOLVER_TILE_PANEL;
            panel_task(&next, next.tile_k + 1, below);
        }
        return TRN_KSTATUS_OK;
    }
    case TRN_SOLVER_TILE_LU_PANEL: lu_panel_task(&next); return TRN_KSTATUS_OK;
    default: return qr_call(&next, msg, 0, 0);
    }
}

/* Task t of step d (and the next panel after it when it carries it). */
static trn_kstatus run_task(const trn_solver_dense_desc *d, trn_kmsg *msg, size_t t) {
    const trn_tile_span s = trn_tile_task_span(d, t);
    trn_kstatus k = TRN_KSTATUS_OK;
    switch (d->fn) {
    case TRN_SOLVER_TILE_DIAG: diag_task(d); break;
    case TRN_SOLVER_TILE_PANEL: panel_task(d, s.i, s.ni); break;
    case TRN_SOLVER_TILE_UPDATE: update_task(d, &s); break;
    case TRN_SOLVER_TILE_LU_PANEL: lu_panel_task(d); break;
    case TRN_SOLVER_TILE_LU_ROW: lu_row_task(d, s.j); break;
    case TRN_SOLVER_TILE_LU_LEFT: lu_left_task(d, s.j); break;
    case TRN_SOLVER_TILE_LU_UPDATE: lu_update_task(d, &s); break;
    case TRN_SOLVER_TILE_QR_PANEL: k = qr_call(d, msg, 0, 0); break;
    case TRN_SOLVER_TILE_QR_UPDATE: k = qr_update_task(d, msg, s.j, s.nj); break;
    default: return TRN_KSTATUS_UNSUPPORTED;
    }
    /* The look-ahead task (ops/solver_tile.h): the first of an update step
     * also factors the next panel once its own tiles are done. */
    if (k == TRN_KSTATUS_OK && t == 0 && trn_tile_carries_next_panel(d))
        k = next_panel(d, msg);
    return k;
}

/* The next task of d's step no shard has taken yet (ops/solver_tile.h,
 * "Claiming"). Relaxed: the tasks of a step are independent, and the
 * scheduler orders the steps. */
static size_t claim_next(const trn_solver_dense_desc *d) {
    return (size_t)atomic_fetch_add_explicit((_Atomic uint64_t *)d->tile_claim, 1,
                                             memory_order_relaxed);
}

trn_kstatus trn_cpu_tile_run(const trn_solver_dense_desc *d, trn_kmsg *msg, int shard, int nshards,
                             trn_cpu_tile_task_fn task) {
    trn_kstatus k = TRN_KSTATUS_OK;
    if (d->tile_claim) {
        const size_t n = trn_tile_tasks(d);
        for (size_t t = claim_next(d); t < n && k == TRN_KSTATUS_OK; t = claim_next(d))
            k = task(d, msg, t);
        return k;
    }
    size_t lo, hi;
    trn_tile_shard_tasks(d, shard, nshards, &lo, &hi);
    for (size_t t = lo; t < hi && k == TRN_KSTATUS_OK; t++)
        k = task(d, msg, t);
    return k;
}

trn_kstatus trn_cpu_solver_tile(const trn_solver_dense_desc *d, trn_kmsg *msg, int shard,
                                int nshards) {
    if (trn_eig_tile_fn(d->fn))
        return trn_cpu_solver_eig_tile(d, msg, shard, nshards);
    if (trn_svd_tile_fn(d->fn))
        return trn_cpu_solver_svd_tile(d, msg, shard, nshards);
    if (trn_inv_tile_fn(d->fn))
        return trn_cpu_solver_inv_tile(d, msg, shard, nshards);
    const int first =
        d->tile_k == 0 && (d->fn == TRN_SOLVER_TILE_DIAG || d->fn == TRN_SOLVER_TILE_LU_PANEL ||
                           d->fn == TRN_SOLVER_TILE_QR_PANEL);
    if (first)
        trn_solver_put_info(d->info, 0);
    const int cholesky = d->fn == TRN_SOLVER_TILE_DIAG || d->fn == TRN_SOLVER_TILE_PANEL ||
                         d->fn == TRN_SOLVER_TILE_UPDATE;
    if (cholesky && get_info(d) != 0)
        return TRN_KSTATUS_OK; /* an earlier diagonal tile failed: LAPACK stops there */
    return trn_cpu_tile_run(d, msg, shard, nshards, run_task);
}
