/*
 * solver_inv_tile.c — the tile tasks of a tiled potri's steps
 * (ops/solver_inv_tile.h) on the CPU: CBLAS trsm, gemm, syrk/herk and trmm
 * on tiles of the client's matrix, single-threaded on the shard's worker,
 * each task writing its own tiles. A diagonal tile's inverse (a solve with
 * the identity) and its lauum (a triangular multiply) run on a private
 * copy of the tile (kernels/cpu/solver_util.h: the copy's slack absorbs
 * OpenBLAS's complex kernels reading past their matrices), whose triangle
 * goes back.
 *
 * Tasks name tiles of the lower triangle (block row i >= block column j);
 * on an upper A each works on the mirrored tile with the conjugate
 * transposed operation.
 */
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/solver_lapack.h"
#include "kernels/cpu/solver_util.h"
#include "ops/solver_inv_tile.h"

/* Element (r, c) of d's matrix, and the first element of lower-named tile
 * (i, j) as stored (upper: tile (j, i)). */
static void *at(const trn_solver_dense_desc *d, int r, int c) {
    return (char *)d->a + ((size_t)c * (size_t)d->lda + (size_t)r) * trn_dtype_size(d->type);
}

static void *tile(const trn_solver_dense_desc *d, int i, int j) {
    const int nb = d->tile_nb;
    return d->lower ? at(d, i * nb, j * nb) : at(d, j * nb, i * nb);
}

/* The rows of tiles b .. b + count - 1. */
static int rows_of(const trn_solver_dense_desc *d, int b, int count) {
    const long long end = (long long)(b + count) * d->tile_nb;
    return (int)((end < d->n ? end : d->n) - (long long)b * d->tile_nb);
}

static int32_t get_info(const trn_solver_dense_desc *d) {
    int32_t v;
    memcpy(&v, d->info, sizeof(v));
    return v;
}

static CBLAS_TRANSPOSE conj_trans(trn_dtype t) {
    return trn_dtype_is_complex(t) ? CblasConjTrans : CblasTrans;
}

static CBLAS_UPLO uplo_of(const trn_solver_dense_desc *d) {
    return d->lower ? CblasLower : CblasUpper;
}

/* The 1-based index of the first exactly zero diagonal element, or 0. */
static int32_t zero_pivot(const trn_solver_dense_desc *d) {
    const int cx = trn_dtype_is_complex(d->type);
    for (int r = 0; r < d->n; r++) {
        const size_t k = (size_t)r * (size_t)d->lda + (size_t)r;
        if (trn_solver_comp(d->type, d->a, k, 0) == 0.0 &&
            (!cx || trn_solver_comp(d->type, d->a, k, 1) == 0.0))
            return r + 1;
    }
    return 0;
}

/* Diagonal tile b replaced by its inverse (inverse = 1: the identity
 * solved against it) or by its lauum (L^H L, or U U^H: its triangle
 * multiplied by it), on a private copy. */
static trn_kstatus diag_task(const trn_solver_dense_desc *d, trn_kmsg *msg, int b, int inverse) {
    const trn_dtype t = d->type;
    const size_t es = trn_dtype_size(t);
    const int e = rows_of(d, b, 1), ld = trn_solver_priv_ld(e);
    const size_t bytes = trn_solver_priv_bytes(t, e, e);
    void *w = trn_solver_ws_get(bytes);
    if (!w)
        return trn_kmsg_no_memory(msg, 0, bytes, "potri's copy of a diagonal tile (%d x %d)", e, e);
    const void *abb = tile(d, b, b);
    if (inverse) {
        memset(w, 0, (size_t)ld * (size_t)e * es);
        for (int j = 0; j < e; j++) /* the identity: the real part 1 */
            trn_solver_set_comp(t, w, (size_t)j * (size_t)ld + (size_t)j, 0, 1.0);
        trn_blas_trsm_split(t, CblasLeft, uplo_of(d), CblasNoTrans, CblasNonUnit, e, e, abb, d->lda,
                            w, ld);
    } else {
        trn_solver_copy_triangle(d->lower, e, es, abb, d->lda, w, ld, 1);
        trn_blas_trmm(t, d->lower ? CblasLeft : CblasRight, uplo_of(d), conj_trans(t), e, e, 1.0,
                      abb, d->lda, w, ld);
    }
    trn_solver_copy_triangle(d->lower, e, es, w, ld, tile(d, b, b), d->lda, 0);
    trn_solver_ws_put(w, bytes);
    return TRN_KSTATUS_OK;
}

/* (a) on tile (m, j): A_mj = -A_mj A_jj, A_jj holding L_jj^-1 (upper:
 * A_jm = -A_jj A_jm). */
static void col_multiply(const trn_solver_dense_desc *d, int m, int j) {
    const int em = rows_of(d, m, 1), ej = rows_of(d, j, 1);
    if (d->lower)
        trn_blas_trmm(d->type, CblasRight, CblasLower, CblasNoTrans, em, ej, -1.0, tile(d, j, j),
                      d->lda, tile(d, m, j), d->lda);
    else
        trn_blas_trmm(d->type, CblasLeft, CblasUpper, CblasNoTrans, ej, em, -1.0, tile(d, j, j),
                      d->lda, tile(d, m, j), d->lda);
}

/* (c) on tile (r, n): A_rn = A_rr A_rn, A_rr holding L_rr^-1 (upper: A_nr
 * = A_nr A_rr). */
static void row_inverse_multiply(const trn_solver_dense_desc *d, int r, int n) {
    const int er = rows_of(d, r, 1), en = rows_of(d, n, 1);
    if (d->lower)
        trn_blas_trmm(d->type, CblasLeft, CblasLower, CblasNoTrans, er, en, 1.0, tile(d, r, r),
                      d->lda, tile(d, r, n), d->lda);
    else
        trn_blas_trmm(d->type, CblasRight, CblasUpper, CblasNoTrans, en, er, 1.0, tile(d, r, r),
                      d->lda, tile(d, r, n), d->lda);
}

/* (b)_k on the tiles of span s (rows I below k, columns J left of it):
 * A_IJ += A_Ik A_kJ (upper: A_JI += A_Jk A_kI), one gemm. */
static void trtri_update(const trn_solver_dense_desc *d, const trn_tile_span *s) {
    const int k = d->tile_k, ek = rows_of(d, k, 1);
    const int ei = rows_of(d, s->i, s->ni), ej = rows_of(d, s->j, s->nj);
    if (d->lower)
        trn_blas_gemm(d->type, CblasNoTrans, CblasNoTrans, ei, ej, ek, 1.0, tile(d, s->i, k),
                      d->lda, tile(d, k, s->j), d->lda, 1.0, tile(d, s->i, s->j), d->lda);
    else
        trn_blas_gemm(d->type, CblasNoTrans, CblasNoTrans, ej, ei, ek, 1.0, tile(d, k, s->j),
                      d->lda, tile(d, s->i, k), d->lda, 1.0, tile(d, s->i, s->j), d->lda);
}

/* lauum's A_IJ += A_kI^H A_kJ for block rows [i, i + ni) of block
 * columns [j, j + nj), all below the diagonal (upper: A_JI += A_Jk
 * A_Ik^H), one gemm. */
static void lauum_rect(const trn_solver_dense_desc *d, int i, int ni, int j, int nj) {
    const int k = d->tile_k, ek = rows_of(d, k, 1);
    const int ei = rows_of(d, i, ni), ej = rows_of(d, j, nj);
    const CBLAS_TRANSPOSE ct = conj_trans(d->type);
    if (d->lower)
        trn_blas_gemm(d->type, ct, CblasNoTrans, ei, ej, ek, 1.0, tile(d, k, i), d->lda,
                      tile(d, k, j), d->lda, 1.0, tile(d, i, j), d->lda);
    else
        trn_blas_gemm(d->type, CblasNoTrans, ct, ej, ei, ek, 1.0, tile(d, k, j), d->lda,
                      tile(d, k, i), d->lda, 1.0, tile(d, i, j), d->lda);
}

/* INV_LAUUM k on the tiles of span s on or below the diagonal: each of
 * its block columns' diagonal tile by syrk/herk (tile k-1 first by its own
 * lauum) and the tiles below it down to the span's last column by a gemm
 * of that column, then the rows below every column of the span by one
 * gemm. */
static trn_kstatus lauum_update(const trn_solver_dense_desc *d, trn_kmsg *msg,
                                const trn_tile_span *s) {
    const int k = d->tile_k, ek = rows_of(d, k, 1);
    const int i_end = s->i + s->ni, j_end = s->j + s->nj;
    const int band_end = i_end < j_end ? i_end : j_end;
    for (int c = s->j; c < j_end; c++) {
        if (c >= s->i && c < i_end) {
            if (c == k - 1) {
                const trn_kstatus st = diag_task(d, msg, c, 0);
                if (st != TRN_KSTATUS_OK)
                    return st;
            }
            trn_blas_herk(d->type, uplo_of(d), d->lower ? CblasConjTrans : CblasNoTrans,
                          rows_of(d, c, 1), ek, 1.0, tile(d, k, c), d->lda, 1.0, tile(d, c, c),
                          d->lda);
        }
        const int r0 = s->i > c + 1 ? s->i : c + 1;
        if (r0 < band_end)
            lauum_rect(d, r0, band_end - r0, c, 1);
    }
    const int below = s->i > j_end ? s->i : j_end;
    if (below < i_end)
        lauum_rect(d, below, i_end - below, s->j, s->nj);
    return TRN_KSTATUS_OK;
}

/* INV_ROW k on tile (k, n): A_kn = A_kk^H A_kn (upper: A_nk = A_nk A_kk^H). */
static void row_multiply(const trn_solver_dense_desc *d, int k, int n) {
    const int ek = rows_of(d, k, 1), en = rows_of(d, n, 1);
    if (d->lower)
        trn_blas_trmm(d->type, CblasLeft, CblasLower, conj_trans(d->type), ek, en, 1.0,
                      tile(d, k, k), d->lda, tile(d, k, n), d->lda);
    else
        trn_blas_trmm(d->type, CblasRight, CblasUpper, conj_trans(d->type), en, ek, 1.0,
                      tile(d, k, k), d->lda, tile(d, k, n), d->lda);
}

static trn_kstatus run_task(const trn_solver_dense_desc *d, trn_kmsg *msg, size_t t) {
    const trn_tile_span s = trn_inv_tile_task_span(d, t);
    switch (d->fn) {
    case TRN_SOLVER_TILE_INV_CHECK:
        trn_solver_put_info(d->info, zero_pivot(d));
        return TRN_KSTATUS_OK;
    case TRN_SOLVER_TILE_INV_DIAG: return diag_task(d, msg, s.i, 1);
    case TRN_SOLVER_TILE_INV_TRTRI: {
        const size_t rows = (size_t)trn_inv_tile_row_tasks(d);
        if (t < rows)
            row_inverse_multiply(d, s.i, s.j);
        else if (t < rows + (size_t)trn_inv_tile_col_tasks(d))
            col_multiply(d, s.i, s.j);
        else
            trtri_update(d, &s);
        return TRN_KSTATUS_OK;
    }
    case TRN_SOLVER_TILE_INV_LAUUM: return lauum_update(d, msg, &s);
    case TRN_SOLVER_TILE_INV_ROW: row_multiply(d, s.i, s.j); return TRN_KSTATUS_OK;
    case TRN_SOLVER_TILE_INV_LAST: return diag_task(d, msg, d->tile_k, 0);
    default: return TRN_KSTATUS_UNSUPPORTED;
    }
}

trn_kstatus trn_cpu_solver_inv_tile(const trn_solver_dense_desc *d, trn_kmsg *msg, int shard,
                                    int nshards) {
    if (d->fn != TRN_SOLVER_TILE_INV_CHECK && get_info(d) != 0)
        return TRN_KSTATUS_OK; /* a zero on the diagonal: A stays as it was */
    return trn_cpu_tile_run(d, msg, shard, nshards, run_task);
}
