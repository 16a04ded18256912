/*
 * solver_factor.c — trnsolver's factorisations and solves on the CPU:
 * Cholesky (potrf, potrs, potri, and their batched forms), LU (getrf with
 * and without pivoting, getrs) and QR (geqrf, orgqr/ungqr, ormqr/unmqr);
 * and trnblas's batched LU (getrfBatched, getrsBatched, getriBatched,
 * matinvBatched), which shares the LU code, and batched QR (geqrfBatched,
 * gelsBatched: geqrf, ormqr/unmqr with Q^H, then the triangular solve with
 * R unless R has an exactly zero diagonal element, which devInfoArray
 * reports as LAPACK's gels does). getri and matinv invert by a
 * solve with the identity (LAPACK's getrs, or the unpivoted solve), out of
 * place as cuBLAS's are; a zero on U's diagonal is reported in info and
 * leaves the output as it was. trsmBatched, which travels as the same op
 * kind, is blas_trsm_batched.c's.
 *
 * Everything but LU without pivoting is LAPACK (OpenBLAS's, single-threaded
 * inside the worker; solver_lapack.h). LAPACK has no unpivoted LU, so
 * getrf with devIpiv = NULL is a blocked right-looking LU here: an
 * unblocked panel, then TRSM and GEMM on the trailing matrix, with LAPACK
 * getf2's treatment of a zero pivot (info = its 1-based index, the column is
 * left unscaled, the factorisation goes on).
 *
 * potri on complex matrices runs on a private copy (solver_util.h,
 * trn_solver_priv_bytes: OpenBLAS's lauum reads a column past the upper
 * triangle), copied back triangle only, as potri writes only it.
 *
 * info is written on every run with LAPACK's meaning. A LAPACK argument
 * error (info < 0) cannot happen after validation; if it does, the op fails
 * (and info says which argument). Single matrices run on one core; the
 * batched routines take the shard's contiguous range of the batch, so any
 * split gives the bits of the unsplit run.
 */
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/routines.h"
#include "kernels/cpu/solver_bidiag.h"
#include "kernels/cpu/solver_lapack.h"
#include "kernels/cpu/solver_more.h"
#include "kernels/cpu/solver_util.h"
#include "ops/solver_tile.h"

#define COL LAPACK_COL_MAJOR

void trn_blas_trsm(trn_dtype t, CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans,
                   CBLAS_DIAG diag, int m, int n, double alpha, const void *a, int lda, void *b,
                   int ldb) {
    if (m <= 0 || n <= 0)
        return;
    const float complex ca = (float)alpha;
    const double complex za = alpha;
    switch (t) {
    case TRN_DTYPE_R32F:
        TRN_LIB(cblas_strsm)
        (CblasColMajor, side, uplo, trans, diag, m, n, (float)alpha, a, lda, b, ldb);
        break;
    case TRN_DTYPE_R64F:
        TRN_LIB(cblas_dtrsm)(CblasColMajor, side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb);
        break;
    case TRN_DTYPE_C32F:
        TRN_LIB(cblas_ctrsm)(CblasColMajor, side, uplo, trans, diag, m, n, &ca, a, lda, b, ldb);
        break;
    case TRN_DTYPE_C64F:
        TRN_LIB(cblas_ztrsm)(CblasColMajor, side, uplo, trans, diag, m, n, &za, a, lda, b, ldb);
        break;
    TRN_DTYPE_GEMM_ONLY_CASES:
        break; /* GEMM only */
    }
}

void trn_blas_gemm(trn_dtype t, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k,
                   double alpha, const void *a, int lda, const void *b, int ldb, double beta,
                   void *c, int ldc) {
    if (m <= 0 || n <= 0)
        return;
    const float complex ca = (float)alpha, cb = (float)beta;
    const double complex za = alpha, zb = beta;
    switch (t) {
    case TRN_DTYPE_R32F:
        TRN_LIB(cblas_sgemm)
        (CblasColMajor, ta, tb, m, n, k, (float)alpha, a, lda, b, ldb, (float)beta, c, ldc);
        break;
    case TRN_DTYPE_R64F:
        TRN_LIB(cblas_dgemm)(CblasColMajor, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        break;
    case TRN_DTYPE_C32F:
        TRN_LIB(cblas_cgemm)(CblasColMajor, ta, tb, m, n, k, &ca, a, lda, b, ldb, &cb, c, ldc);
        break;
    case TRN_DTYPE_C64F:
        TRN_LIB(cblas_zgemm)(CblasColMajor, ta, tb, m, n, k, &za, a, lda, b, ldb, &zb, c, ldc);
        break;
    TRN_DTYPE_GEMM_ONLY_CASES:
        break; /* GEMM only */
    }
}

void trn_blas_trmm(trn_dtype t, CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, int m,
                   int n, double alpha, const void *a, int lda, void *b, int ldb) {
    if (m <= 0 || n <= 0)
        return;
    const float complex ca = (float)alpha;
    const double complex za = alpha;
    switch (t) {
    case TRN_DTYPE_R32F:
        TRN_LIB(cblas_strmm)
        (CblasColMajor, side, uplo, trans, CblasNonUnit, m, n, (float)alpha, a, lda, b, ldb);
        break;
    case TRN_DTYPE_R64F:
        TRN_LIB(cblas_dtrmm)
        (CblasColMajor, side, uplo, trans, CblasNonUnit, m, n, alpha, a, lda, b, ldb);
        break;
    case TRN_DTYPE_C32F:
        TRN_LIB(cblas_ctrmm)
        (CblasColMajor, side, uplo, trans, CblasNonUnit, m, n, &ca, a, lda, b, ldb);
        break;
    case TRN_DTYPE_C64F:
        TRN_LIB(cblas_ztrmm)
        (CblasColMajor, side, uplo, trans, CblasNonUnit, m, n, &za, a, lda, b, ldb);
        break;
    TRN_DTYPE_GEMM_ONLY_CASES:
        break;
    }
}

void trn_blas_herk(trn_dtype t, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, int n, int k, double alpha,
                   const void *a, int lda, double beta, void *c, int ldc) {
    if (n <= 0)
        return;
    const CBLAS_TRANSPOSE rt = trans == CblasNoTrans ? CblasNoTrans : CblasTrans;
    const CBLAS_TRANSPOSE ct = trans == CblasNoTrans ? CblasNoTrans : CblasConjTrans;
    switch (t) {
    case TRN_DTYPE_R32F:
        TRN_LIB(cblas_ssyrk)
        (CblasColMajor, uplo, rt, n, k, (float)alpha, a, lda, (float)beta, c, ldc);
        break;
    case TRN_DTYPE_R64F:
        TRN_LIB(cblas_dsyrk)(CblasColMajor, uplo, rt, n, k, alpha, a, lda, beta, c, ldc);
        break;
    case TRN_DTYPE_C32F:
        TRN_LIB(cblas_cherk)
        (CblasColMajor, uplo, ct, n, k, (float)alpha, a, lda, (float)beta, c, ldc);
        break;
    case TRN_DTYPE_C64F:
        TRN_LIB(cblas_zherk)(CblasColMajor, uplo, ct, n, k, alpha, a, lda, beta, c, ldc);
        break;
    TRN_DTYPE_GEMM_ONLY_CASES:
        break;
    }
}

/* ---- LU without pivoting ---------------------------------------------------------- */

/* The unblocked panel: columns [j, j + jb) of the m x n matrix, rows [j, m);
 * updates only the panel's columns. Returns the first zero pivot's 1-based
 * column index, or 0. The body is the same for the four types (C99 complex
 * arithmetic). */
#define NOPIV_PANEL(SUF, T)                                                                        \
    static int panel_##SUF(int m, int j, int jb, T *a, int lda) {                                  \
        int info = 0;                                                                              \
        for (int c = j; c < j + jb && c < m; c++) {                                                \
            T *col = a + (size_t)c * (size_t)lda;                                                  \
            const T piv = col[c];                                                                  \
            if (piv != 0) {                                                                        \
                const T inv = 1 / piv;                                                             \
                for (int i = c + 1; i < m; i++)                                                    \
                    col[i] *= inv;                                                                 \
            } else if (!info) {                                                                    \
                info = c + 1;                                                                      \
            }                                                                                      \
            for (int cc = c + 1; cc < j + jb; cc++) {                                              \
                T *dst = a + (size_t)cc * (size_t)lda;                                             \
                const T f = dst[c];                                                                \
                if (f != 0)                                                                        \
                    for (int i = c + 1; i < m; i++)                                                \
                        dst[i] -= col[i] * f;                                                      \
            }                                                                                      \
        }                                                                                          \
        return info;                                                                               \
    }
NOPIV_PANEL(s, float)
NOPIV_PANEL(d, double)
NOPIV_PANEL(c, float complex)
NOPIV_PANEL(z, double complex)

#define NOPIV_BLOCK 64

static int getrf_nopiv(trn_dtype t, int m, int n, void *a, int lda) {
    const size_t es = trn_dtype_size(t);
    const int mn = m < n ? m : n;
    int info = 0;
    for (int j = 0; j < mn; j += NOPIV_BLOCK) {
        const int jb = mn - j < NOPIV_BLOCK ? mn - j : NOPIV_BLOCK;
        const int pi = TRN_BY_TYPE(t, panel_s(m, j, jb, a, lda), panel_d(m, j, jb, a, lda),
                                   panel_c(m, j, jb, a, lda), panel_z(m, j, jb, a, lda));
        if (pi && !info)
            info = pi;
        char *base = a;
#define AT(r, c) (base + ((size_t)(c) * (size_t)lda + (size_t)(r)) * es)
        const int rest = n - (j + jb);
        if (rest > 0) {
            /* U12 = L11^-1 A12, then A22 -= L21 U12. */
            trn_blas_trsm(t, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, jb, rest, 1.0,
                          AT(j, j), lda, AT(j, j + jb), lda);
            trn_blas_gemm(t, CblasNoTrans, CblasNoTrans, m - (j + jb), rest, jb, -1.0,
                          AT(j + jb, j), lda, AT(j, j + jb), lda, 1.0, AT(j + jb, j + jb), lda);
        }
#undef AT
    }
    return info;
}

/* op(A) X = B with A = LU from getrf without pivoting. */
static void getrs_nopiv(trn_dtype t, trn_trans tr, int n, int nrhs, const void *a, int lda, void *b,
                        int ldb) {
    if (tr == TRN_TRANS_N) {
        trn_blas_trsm(t, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, n, nrhs, 1.0, a, lda, b,
                      ldb);
        trn_blas_trsm(t, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, n, nrhs, 1.0, a, lda, b,
                      ldb);
    } else {
        const CBLAS_TRANSPOSE ct = tr == TRN_TRANS_T ? CblasTrans : CblasConjTrans;
        trn_blas_trsm(t, CblasLeft, CblasUpper, ct, CblasNonUnit, n, nrhs, 1.0, a, lda, b, ldb);
        trn_blas_trsm(t, CblasLeft, CblasLower, ct, CblasUnit, n, nrhs, 1.0, a, lda, b, ldb);
    }
}

/* ---- QR ---------------------------------------------------------------------------- */

/* geqrf, orgqr/ungqr, ormqr/unmqr with their workspace; *info from LAPACK.
 * TRN_KSTATUS_NO_MEMORY (posted to msg, *info not set) when the workspace
 * the query asked for cannot be had. */
static trn_kstatus qr(const trn_solver_dense_desc *d, trn_kmsg *msg, lapack_int *info) {
    const trn_dtype t = d->type;
    const int cx = t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F;
    const char side = d->left ? 'L' : 'R';
    const char trans = d->trans == TRN_TRANS_N ? 'N' : cx ? 'C' : 'T';
    trn_lapack_query q;
    memset(&q, 0, sizeof(q));
    lapack_int rc;
    /* The query (lwork = -1), then the run. */
    for (int pass = 0; pass < 2; pass++) {
        void *work = &q;
        lapack_int lwork = -1;
        if (pass == 1) {
            lwork = trn_lapack_lwork(t, &q);
            work = trn_solver_ws_get((size_t)lwork * trn_dtype_size(t));
            if (!work)
                return trn_kmsg_no_memory(msg, 0, (size_t)lwork * trn_dtype_size(t),
                                          "the LAPACK workspace of %s (lwork %d)",
                                          trn_solver_name(d->fn, t), (int)lwork);
        }
        switch (d->fn) {
        case TRN_SOLVER_GEQRF:
            rc = TRN_LAPACK4(t, geqrf_work, COL, d->m, d->n, d->a, d->lda, d->tau, work, lwork);
            break;
        case TRN_SOLVER_ORGQR:
            rc = TRN_BY_TYPE(t,
                             TRN_LIB(LAPACKE_sorgqr_work)(COL, d->m, d->n, d->k, d->a, d->lda,
                                                          d->tau, work, lwork),
                             TRN_LIB(LAPACKE_dorgqr_work)(COL, d->m, d->n, d->k, d->a, d->lda,
                                                          d->tau, work, lwork),
                             TRN_LIB(LAPACKE_cungqr_work)(COL, d->m, d->n, d->k, d->a, d->lda,
                                                          d->tau, work, lwork),
                             TRN_LIB(LAPACKE_zungqr_work)(COL, d->m, d->n, d->k, d->a, d->lda,
                                                          d->tau, work, lwork));
            break;
        default: /* ORMQR */
            rc = TRN_BY_TYPE(
                t,
                TRN_LIB(LAPACKE_sormqr_work)(COL, side, trans, d->m, d->n, d->k, d->a, d->lda,
                                             d->tau, d->b, d->ldb, work, lwork),
                TRN_LIB(LAPACKE_dormqr_work)(COL, side, trans, d->m, d->n, d->k, d->a, d->lda,
                                             d->tau, d->b, d->ldb, work, lwork),
                TRN_LIB(LAPACKE_cunmqr_work)(COL, side, trans, d->m, d->n, d->k, d->a, d->lda,
                                             d->tau, d->b, d->ldb, work, lwork),
                TRN_LIB(LAPACKE_zunmqr_work)(COL, side, trans, d->m, d->n, d->k, d->a, d->lda,
                                             d->tau, d->b, d->ldb, work, lwork));
            break;
        }
        if (pass == 1)
            trn_solver_ws_put(work, (size_t)lwork * trn_dtype_size(t));
        if (rc != 0)
            break;
    }
    *info = rc;
    return TRN_KSTATUS_OK;
}

/* ---- the op ------------------------------------------------------------------------ */

/* OpenBLAS's potrf stops at a pivot <= 0 but lets a NaN through; LAPACK's
 * reference potrf reports a NaN pivot as "not positive definite" too. When
 * potrf succeeded, the first NaN on the factor's diagonal gives that index
 * (a NaN anywhere in the referenced triangle reaches the diagonal at or
 * after its column). */
static lapack_int potrf_checked(trn_dtype t, char uplo, int n, void *a, int lda) {
    const lapack_int info = TRN_LAPACK4(t, potrf_work, COL, uplo, n, a, lda);
    if (info != 0)
        return info;
    const size_t es = trn_dtype_size(t);
    for (int j = 0; j < n; j++)
        if (trn_solver_nonfinite(t, 1, 1, (char *)a + ((size_t)j * (size_t)lda + (size_t)j) * es,
                                 1))
            return j + 1;
    return 0;
}

/* potri; complex types on a private copy (see the top of the file). */
static trn_kstatus potri(const trn_solver_dense_desc *d, trn_kmsg *msg, lapack_int *info) {
    const trn_dtype t = d->type;
    const char uplo = d->lower ? 'L' : 'U';
    if (t == TRN_DTYPE_R32F || t == TRN_DTYPE_R64F || d->n == 0) {
        *info = TRN_LAPACK4(t, potri_work, COL, uplo, d->n, d->a, d->lda);
        return TRN_KSTATUS_OK;
    }
    const size_t es = trn_dtype_size(t), bytes = trn_solver_priv_bytes(t, d->n, d->n);
    const int ld = trn_solver_priv_ld(d->n);
    void *p = trn_solver_ws_get(bytes);
    if (!p)
        return trn_kmsg_no_memory(msg, 0, bytes, "the private copy of potri's matrix");
    trn_solver_copy_triangle(d->lower, d->n, es, d->a, d->lda, p, ld, 0);
    *info = TRN_LAPACK4(t, potri_work, COL, uplo, d->n, p, ld);
    if (*info == 0)
        trn_solver_copy_triangle(d->lower, d->n, es, p, ld, d->a, d->lda, 0);
    trn_solver_ws_put(p, bytes);
    return TRN_KSTATUS_OK;
}

/* potrs or getrs on the shard's blocks of right-hand sides
 * (TRN_SOLVE_RHS_BLOCK columns each, the last fewer): one LAPACK call per
 * block, the same on any number of shards. */
static lapack_int solve_blocks(const trn_solver_dense_desc *d, int shard, int nshards) {
    const trn_dtype t = d->type;
    const char uplo = d->lower ? 'L' : 'U';
    const char trans = d->trans == TRN_TRANS_N ? 'N' : d->trans == TRN_TRANS_T ? 'T' : 'C';
    const size_t es = trn_dtype_size(t);
    size_t lo, hi;
    trn_cpu_shard_range((size_t)trn_solve_rhs_blocks(d->nrhs), shard, nshards, &lo, &hi);
    lapack_int info = 0;
    for (size_t k = lo; k < hi && info == 0; k++) {
        const int c0 = (int)k * TRN_SOLVE_RHS_BLOCK;
        const int cols = d->nrhs - c0 < TRN_SOLVE_RHS_BLOCK ? d->nrhs - c0 : TRN_SOLVE_RHS_BLOCK;
        void *b = (char *)d->b + (size_t)c0 * (size_t)d->ldb * es;
        if (d->fn == TRN_SOLVER_POTRS)
            info = TRN_LAPACK4(t, potrs_work, COL, uplo, d->n, cols, d->a, d->lda, b, d->ldb);
        else if (d->ipiv)
            info = TRN_LAPACK4(t, getrs_work, COL, trans, d->n, cols, d->a, d->lda, d->ipiv, b,
                               d->ldb);
        else
            getrs_nopiv(t, d->trans, d->n, cols, d->a, d->lda, b, d->ldb);
    }
    return info;
}

trn_kstatus trn_cpu_solver_dense(const trn_solver_dense_desc *d, trn_kmsg *msg, int shard,
                                 int nshards) {
    if (trn_tile_fn(d->fn))
        return trn_cpu_solver_tile(d, msg, shard, nshards); /* a step of a tiled factorisation */
    const trn_dtype t = d->type;
    const char uplo = d->lower ? 'L' : 'U';
    lapack_int info = 0;
    trn_kstatus k = TRN_KSTATUS_OK;
    switch (d->fn) {
    case TRN_SOLVER_POTRF: info = potrf_checked(t, uplo, d->n, d->a, d->lda); break;
    case TRN_SOLVER_POTRS:
    case TRN_SOLVER_GETRS:
        info = solve_blocks(d, shard, nshards);
        if (shard != 0) /* shard 0 writes devInfo (0: the arguments were validated) */
            return info < 0 ? TRN_KSTATUS_FAILED : TRN_KSTATUS_OK;
        break;
    case TRN_SOLVER_POTRI: k = potri(d, msg, &info); break;
    case TRN_SOLVER_GETRF:
        if (d->ipiv)
            info = TRN_LAPACK4(t, getrf_work, COL, d->m, d->n, d->a, d->lda, d->ipiv);
        else
            info = getrf_nopiv(t, d->m, d->n, d->a, d->lda);
        break;
    case TRN_SOLVER_GEQRF:
    case TRN_SOLVER_ORGQR:
    case TRN_SOLVER_ORMQR: k = qr(d, msg, &info); break;
    case TRN_SOLVER_SYTRF:
    case TRN_SOLVER_SYTRS:
    case TRN_SOLVER_SYTRI:
    case TRN_SOLVER_LAUUM:
    case TRN_SOLVER_SYTRD:
    case TRN_SOLVER_ORGTR:
    case TRN_SOLVER_ORMTR: {
        int more_info = 0;
        k = trn_cpu_solver_more(d, msg, &more_info);
        info = more_info;
        break;
    }
    case TRN_SOLVER_GEBRD:
    case TRN_SOLVER_ORGBR: {
        int bd_info = 0;
        k = trn_cpu_solver_bidiag(d, msg, &bd_info);
        info = bd_info;
        break;
    }
    case TRN_SOLVER_LASWP: return trn_cpu_solver_more(d, msg, &(int){0}); /* no devInfo */
    default: return TRN_KSTATUS_UNSUPPORTED;
    }
    if (k != TRN_KSTATUS_OK)
        return k; /* out of memory: info is not written, the op fails */
    trn_solver_put_info(d->info, info);
    return info < 0 ? TRN_KSTATUS_FAILED : TRN_KSTATUS_OK;
}

trn_kstatus trn_cpu_solver_batched(const trn_solver_batched_desc *d, int shard, int nshards) {
    size_t lo, hi;
    trn_cpu_shard_range((size_t)d->batch, shard, nshards, &lo, &hi);
    const trn_dtype t = d->type;
    const char uplo = d->lower ? 'L' : 'U';
    lapack_int bad = 0;
    for (size_t i = lo; i < hi; i++) {
        if (d->fn == TRN_SOLVER_POTRF_BATCHED) {
            const lapack_int info = potrf_checked(t, uplo, d->n, d->a[i], d->lda);
            trn_solver_put_info(d->info + i, info);
            if (info < 0)
                bad = info;
        } else {
            const lapack_int info = TRN_LAPACK4(t, potrs_work, COL, uplo, d->n, d->nrhs, d->a[i],
                                                d->lda, d->b[i], d->ldb);
            if (info < 0)
                bad = info;
        }
    }
    /* potrsBatched has one info; shard 0 owns it (shards never share memory). */
    if (d->fn == TRN_SOLVER_POTRS_BATCHED && shard == 0)
        trn_solver_put_info(d->info, bad);
    return bad < 0 ? TRN_KSTATUS_FAILED : TRN_KSTATUS_OK;
}

/* ---- trnblas's batched LU ----------------------------------------------------------- */

/* The 1-based index of the first exactly zero diagonal element of U (an
 * n x n factor), or 0. */
static int first_zero_pivot(trn_dtype t, const void *a, int n, int lda) {
    const size_t es = trn_dtype_size(t);
    const int f32 = t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F;
    const int parts = t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F ? 2 : 1;
    for (int k = 0; k < n; k++) {
        const char *e = (const char *)a + ((size_t)k * (size_t)lda + (size_t)k) * es;
        int zero = 1;
        for (int p = 0; p < parts && zero; p++) {
            if (f32) {
                float v;
                memcpy(&v, e + (size_t)p * sizeof(v), sizeof(v));
                zero = v == 0.0f;
            } else {
                double v;
                memcpy(&v, e + (size_t)p * sizeof(v), sizeof(v));
                zero = v == 0.0;
            }
        }
        if (zero)
            return k + 1;
    }
    return 0;
}

/* c = the n x n identity (leading dimension ldc). */
static void set_identity(trn_dtype t, void *c, int n, int ldc) {
    const size_t es = trn_dtype_size(t);
    const float one_f = 1.0f;
    const double one_d = 1.0;
    const int f32 = t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F;
    for (int j = 0; j < n; j++) {
        char *col = (char *)c + (size_t)j * (size_t)ldc * es;
        memset(col, 0, (size_t)n * es);
        memcpy(col + (size_t)j * es, f32 ? (const void *)&one_f : (const void *)&one_d,
               f32 ? sizeof(one_f) : sizeof(one_d));
    }
}

/* inv(A) into c from A's factors (LU at a, pivots or none): a solve with
 * the identity's columns. Returns getri's info: k > 0 when U(k,k) is zero
 * (c is then left as it was), else 0. */
static lapack_int inverse_from_lu(trn_dtype t, int n, const void *a, int lda, const int32_t *piv,
                                  void *c, int ldc) {
    const int k = first_zero_pivot(t, a, n, lda);
    if (k)
        return k;
    set_identity(t, c, n, ldc);
    if (piv)
        return TRN_LAPACK4(t, getrs_work, COL, 'N', n, n, a, lda, piv, c, ldc);
    getrs_nopiv(t, TRN_TRANS_N, n, n, a, lda, c, ldc);
    return 0;
}

/* matinvBatched: inv(A) of the matrix itself, through a private copy (n <=
 * TRN_LU_MATINV_MAX_N, so it fits the stack) factored with pivoting. */
static lapack_int matinv(trn_dtype t, int n, const void *a, int lda, void *c, int ldc) {
    _Alignas(16) unsigned char w[TRN_LU_MATINV_MAX_N * TRN_LU_MATINV_MAX_N * 16];
    lapack_int piv[TRN_LU_MATINV_MAX_N];
    const size_t es = trn_dtype_size(t);
    for (int j = 0; j < n; j++)
        memcpy(w + (size_t)j * (size_t)n * es, (const char *)a + (size_t)j * (size_t)lda * es,
               (size_t)n * es);
    const int ldw = n > 0 ? n : 1;
    const lapack_int info = TRN_LAPACK4(t, getrf_work, COL, n, n, (void *)w, ldw, piv);
    if (info != 0)
        return info;
    return inverse_from_lu(t, n, w, ldw, piv, c, ldc);
}

/* The batched QR routines' workspace, taken once per shard (every matrix
 * has the same shape): min(m, n) scalars for gels's tau, then the larger of
 * what geqrf's and (gels) ormqr/unmqr's queries ask for. */
typedef struct qr_ws {
    void *mem;
    size_t bytes;
    void *tau, *work;
    lapack_int lwork;
} qr_ws;

static char qr_adjoint(trn_dtype t) {
    return t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F ? 'C' : 'T';
}

/* ormqr/unmqr from the left with Q^H: c = Q^H c. */
static lapack_int qr_apply(trn_dtype t, int m, int nrhs, int k, const void *a, int lda,
                           const void *tau, void *c, int ldc, void *work, lapack_int lwork) {
    const char tr = qr_adjoint(t);
    return TRN_BY_TYPE(
        t, TRN_LIB(LAPACKE_sormqr_work)(COL, 'L', tr, m, nrhs, k, a, lda, tau, c, ldc, work, lwork),
        TRN_LIB(LAPACKE_dormqr_work)(COL, 'L', tr, m, nrhs, k, a, lda, tau, c, ldc, work, lwork),
        TRN_LIB(LAPACKE_cunmqr_work)(COL, 'L', tr, m, nrhs, k, a, lda, tau, c, ldc, work, lwork),
        TRN_LIB(LAPACKE_zunmqr_work)(COL, 'L', tr, m, nrhs, k, a, lda, tau, c, ldc, work, lwork));
}

static trn_kstatus qr_ws_get(const trn_lu_batched_desc *d, size_t i, trn_kmsg *msg, qr_ws *w) {
    const trn_dtype t = d->type;
    const size_t es = trn_dtype_size(t);
    const int k = d->m < d->n ? d->m : d->n;
    trn_lapack_query q1, q2, dummy_tau[1];
    memset(&q1, 0, sizeof(q1));
    memset(&q2, 0, sizeof(q2));
    memset(dummy_tau, 0, sizeof(dummy_tau));
    TRN_LAPACK4(t, geqrf_work, COL, d->m, d->n, d->a[i], d->lda, (void *)dummy_tau, (void *)&q1,
                -1);
    lapack_int lwork = trn_lapack_lwork(t, &q1);
    if (d->fn == TRN_LU_GELS) {
        qr_apply(t, d->m, d->nrhs, k, d->a[i], d->lda, dummy_tau, d->c[i], d->ldc, &q2, -1);
        const lapack_int l2 = trn_lapack_lwork(t, &q2);
        lwork = l2 > lwork ? l2 : lwork;
    }
    const size_t tau_elems = d->fn == TRN_LU_GELS ? (size_t)(k > 0 ? k : 1) : 0;
    w->bytes = (tau_elems + (size_t)lwork) * es;
    w->mem = trn_solver_ws_get(w->bytes);
    if (!w->mem)
        return trn_kmsg_no_memory(msg, 0, w->bytes, "the LAPACK workspace of %s (lwork %d)",
                                  d->fn == TRN_LU_GELS ? "gelsBatched" : "geqrfBatched",
                                  (int)lwork);
    w->tau = w->mem;
    w->work = (char *)w->mem + tau_elems * es;
    w->lwork = lwork;
    return TRN_KSTATUS_OK;
}

/* One matrix of geqrfBatched or gelsBatched; LAPACK's info (< 0: an
 * argument error, which validation rules out), for gels k > 0 when R(k,k)
 * is exactly zero (c[i] then holds Q^H C, as LAPACK's gels leaves it). */
static lapack_int qr_one(const trn_lu_batched_desc *d, size_t i, const qr_ws *w) {
    const trn_dtype t = d->type;
    void *tau = d->fn == TRN_LU_GEQRF ? d->tau[i] : w->tau;
    lapack_int info =
        TRN_LAPACK4(t, geqrf_work, COL, d->m, d->n, d->a[i], d->lda, tau, w->work, w->lwork);
    if (info != 0 || d->fn == TRN_LU_GEQRF)
        return info;
    if (d->n == 0 || d->nrhs == 0)
        return 0;
    info =
        qr_apply(t, d->m, d->nrhs, d->n, d->a[i], d->lda, tau, d->c[i], d->ldc, w->work, w->lwork);
    if (info != 0)
        return info;
    const int z = first_zero_pivot(t, d->a[i], d->n, d->lda);
    if (z)
        return z;
    /* R X = (Q^H C)(1:n, :), in place in C's first n rows. */
    trn_blas_trsm(t, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, d->n, d->nrhs, 1.0, d->a[i],
                  d->lda, d->c[i], d->ldc);
    return 0;
}

/* One matrix of the batch; LAPACK's info (< 0: an argument error, which
 * validation rules out). */
static lapack_int lu_one(const trn_lu_batched_desc *d, size_t i) {
    const trn_dtype t = d->type;
    const int n = d->n;
    int32_t *piv = d->pivots ? d->pivots + i * (size_t)n : NULL;
    switch (d->fn) {
    case TRN_LU_GETRF:
        return piv ? TRN_LAPACK4(t, getrf_work, COL, n, n, d->a[i], d->lda, piv)
                   : getrf_nopiv(t, n, n, d->a[i], d->lda);
    case TRN_LU_GETRS:
        if (!piv) {
            getrs_nopiv(t, d->trans, n, d->nrhs, d->a[i], d->lda, d->c[i], d->ldc);
            return 0;
        }
        return TRN_LAPACK4(t, getrs_work, COL,
                           d->trans == TRN_TRANS_N   ? 'N'
                           : d->trans == TRN_TRANS_T ? 'T'
                                                     : 'C',
                           n, d->nrhs, d->a[i], d->lda, piv, d->c[i], d->ldc);
    case TRN_LU_GETRI: return inverse_from_lu(t, n, d->a[i], d->lda, piv, d->c[i], d->ldc);
    case TRN_LU_MATINV: return matinv(t, n, d->a[i], d->lda, d->c[i], d->ldc);
    default: break; /* the QR routines: qr_one */
    }
    return -1;
}

/* The shard's contiguous range of the batch: any split gives the bits of the
 * unsplit run (the QR workspace's size depends on the shape only). info[i]
 * is written for every matrix of getrf, getri, matinv and (when given)
 * gels. */
static trn_kstatus lu_batched(const trn_lu_batched_desc *d, trn_kmsg *msg, int shard, int nshards) {
    if (d->fn == TRN_LU_TRSM)
        return trn_cpu_trsm_batched(d, shard, nshards);
    size_t lo, hi;
    trn_cpu_shard_range((size_t)d->batch, shard, nshards, &lo, &hi);
    if (lo >= hi)
        return TRN_KSTATUS_OK;
    const int qr = d->fn == TRN_LU_GEQRF || d->fn == TRN_LU_GELS;
    qr_ws w = {0};
    if (qr) {
        const trn_kstatus st = qr_ws_get(d, lo, msg, &w);
        if (st != TRN_KSTATUS_OK)
            return st;
    }
    lapack_int bad = 0;
    for (size_t i = lo; i < hi; i++) {
        const lapack_int info = qr ? qr_one(d, i, &w) : lu_one(d, i);
        if (d->info)
            trn_solver_put_info(d->info + i, info);
        if (info < 0)
            bad = info;
    }
    if (qr)
        trn_solver_ws_put(w.mem, w.bytes);
    return bad < 0 ? TRN_KSTATUS_FAILED : TRN_KSTATUS_OK;
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(solver_dense, trn_cpu_solver_dense(&op->u.solver_dense, op->kmsg, shard, nshards))
TRN_CPU_ENTRY(solver_batched, trn_cpu_solver_batched(&op->u.solver_batched, shard, nshards))
TRN_CPU_ENTRY(lu_batched, lu_batched(&op->u.lu_batched, op->kmsg, shard, nshards))
