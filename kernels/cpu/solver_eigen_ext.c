/*
 * solver_eigen_ext.c — two more of trnsolver's eigenvalue and SVD routines
 * on the CPU, built from pieces the others use:
 *
 * - sygvj / hegvj: the generalised problem of itype by Jacobi. B = L L^H
 *   (or U^H U) by potrf; the standard problem M y = lambda y with M =
 *   L^-1 A L^-H (itype 1) or L^H A L (itype 2, 3) is formed by two
 *   triangular solves or products and handed to syevj's kernel
 *   (solver_jacobi.c) with the op's tolerance, sweeps and iteration record,
 *   so the residual reported is the one of M, as cuSOLVER says; the
 *   eigenvectors are then x = L^-H y (itype 1, 2) or L y (itype 3), which
 *   makes them B-orthonormal (B^-1-orthonormal for itype 3). info: 0; n + 1
 *   when Jacobi did not converge within the sweeps; n + i when B's leading
 *   minor of order i is not positive definite (then nothing else is
 *   written); -5 / -7 for a non-finite value in A's / B's uplo triangle.
 *
 * - gesvdaStridedBatched: per matrix of the batch, LAPACK's gesvd (QR
 *   iteration) with economy U and VT on private copies, then the rank
 *   largest singular values, the first rank columns of U and of V = VT^H,
 *   and, when asked, the Frobenius norm of A - U_r S_r V_r^H (formed by one
 *   GEMM in the working precision and summed in double). info[i]: 0,
 *   n + 1 when gesvd did not converge (the outputs are written all the
 *   same), -5 for a non-finite value in A_i (nothing of matrix i written).
 *   The batch is split over shards by whole matrices; each matrix's result
 *   does not depend on the split.
 *
 * Both work on private copies (solver_util.h says why) in the worker's kept
 * workspace; without memory the op fails with TRN_KSTATUS_NO_MEMORY and
 * nothing is written.
 */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/routines.h"
#include "kernels/cpu/solver_lapack.h"
#include "kernels/cpu/solver_util.h"

#define COL LAPACK_COL_MAJOR

static void put_i32(int32_t *p, int v) {
    const int32_t x = v;
    memcpy(p, &x, sizeof(x));
}

/* The full Hermitian n x n matrix (leading dimension ld) from its lower or
 * upper triangle: the other triangle becomes the conjugate transpose, and
 * the diagonal's imaginary parts are dropped (LAPACK's convention). */
static void hermitian_fill(trn_dtype t, int n, void *a, int ld, int lower) {
    const size_t es = trn_dtype_size(t);
    const int cx = trn_dtype_is_complex(t), sg = trn_dtype_is_single(t);
    char *base = a;
    for (int j = 0; j < n; j++) {
        for (int i = j; i < n; i++) {
            /* (i, j) in the lower triangle, (j, i) in the upper. */
            char *lo = base + ((size_t)j * (size_t)ld + (size_t)i) * es;
            char *up = base + ((size_t)i * (size_t)ld + (size_t)j) * es;
            char *src = lower ? lo : up, *dst = lower ? up : lo;
            if (i != j)
                memcpy(dst, src, es);
            if (!cx)
                continue;
            if (sg) {
                float *im = (float *)dst + 1;
                *im = i == j ? 0.0f : -*im;
                if (i == j)
                    ((float *)src)[1] = 0.0f;
            } else {
                double *im = (double *)dst + 1;
                *im = i == j ? 0.0 : -*im;
                if (i == j)
                    ((double *)src)[1] = 0.0;
            }
        }
    }
}

/* Whether the lower (or upper) triangle of an n x n matrix holds a
 * non-finite value. */
static int tri_nonfinite(trn_dtype t, int n, const void *a, int lda, int lower) {
    const size_t es = trn_dtype_size(t);
    for (int j = 0; j < n; j++) {
        const int r0 = lower ? j : 0, r1 = lower ? n : j + 1;
        const char *col = (const char *)a + ((size_t)j * (size_t)lda + (size_t)r0) * es;
        if (trn_solver_nonfinite(t, r1 - r0, 1, col, lda))
            return 1;
    }
    return 0;
}

/* ---- sygvj / hegvj ---------------------------------------------------------------- */

trn_kstatus trn_cpu_solver_sygvj(const trn_solver_eigen_desc *d, trn_kmsg *msg) {
    const trn_dtype t = d->type;
    const int n = d->n, lower = d->lower;
    const size_t es = trn_dtype_size(t);
    if (n == 0) {
        put_i32(d->info, 0);
        trn_solver_put_stats(d->stats, 0, TRN_SOLVER_ST_CONVERGED, 0.0);
        return TRN_KSTATUS_OK;
    }
    const size_t a_bytes = trn_solver_priv_bytes(t, n, n);
    const size_t ws_bytes = 2 * a_bytes;
    char *ws = trn_solver_ws_get(ws_bytes);
    if (!ws)
        return trn_kmsg_no_memory(msg, 0, ws_bytes, "the copies of A and B of %s (n = %d)",
                                  trn_solver_name(d->fn, t), n);
    void *pa = ws, *pb = ws + a_bytes;
    const int ld = trn_solver_priv_ld(n);
    trn_solver_copy(n, n, es, d->a, d->lda, pa, ld);
    trn_solver_copy(n, n, es, d->b, d->ldb, pb, ld);
    trn_kstatus k = TRN_KSTATUS_OK;
    /* Positions in sygvj(itype, jobz, uplo, n, A, lda, B): A 5th, B 7th. */
    const int bad = tri_nonfinite(t, n, pa, ld, lower)   ? -5
                    : tri_nonfinite(t, n, pb, ld, lower) ? -7
                                                         : 0;
    if (bad) {
        put_i32(d->info, bad);
        trn_solver_put_stats(d->stats, 0, TRN_SOLVER_ST_NONFINITE, 0.0);
        goto out;
    }
    const char uplo = lower ? 'L' : 'U';
    const lapack_int chol = TRN_LAPACK4(t, potrf_work, COL, uplo, n, pb, ld);
    if (chol < 0) {
        k = TRN_KSTATUS_FAILED; /* cannot happen after validation */
        goto out;
    }
    if (chol > 0) { /* B's leading minor of order chol is not positive definite */
        put_i32(d->info, n + (int)chol);
        trn_solver_put_stats(d->stats, 0, TRN_SOLVER_ST_BREAKDOWN, 0.0);
        goto out;
    }
    /* M from the full A: L^-1 A L^-H or L^H A L (lower); U^-H A U^-1 or
     * U A U^H (upper). */
    hermitian_fill(t, n, pa, ld, lower);
    const CBLAS_UPLO cu = lower ? CblasLower : CblasUpper;
    const CBLAS_TRANSPOSE first = lower ? CblasNoTrans : CblasConjTrans;
    const CBLAS_TRANSPOSE second = lower ? CblasConjTrans : CblasNoTrans;
    if (d->itype == 1) {
        trn_blas_trsm(t, CblasLeft, cu, first, CblasNonUnit, n, n, 1.0, pb, ld, pa, ld);
        trn_blas_trsm(t, CblasRight, cu, second, CblasNonUnit, n, n, 1.0, pb, ld, pa, ld);
    } else {
        trn_blas_trmm(t, CblasLeft, cu, second, n, n, 1.0, pb, ld, pa, ld);
        trn_blas_trmm(t, CblasRight, cu, first, n, n, 1.0, pb, ld, pa, ld);
    }
    /* syevj's kernel on M's lower triangle: W, M's eigenvectors in pa, the
     * iteration record. */
    int32_t jinfo = 0;
    trn_solver_eigen_desc e;
    memset(&e, 0, sizeof(e));
    e.fn = TRN_SOLVER_SYEVJ;
    e.type = t;
    e.vectors = d->vectors;
    e.lower = 1;
    e.itype = 1;
    e.m = e.n = n;
    e.a = pa;
    e.lda = ld;
    e.ldb = e.ldu = e.ldv = 1;
    e.w = d->w;
    e.info = &jinfo;
    e.tol = d->tol;
    e.max_sweeps = d->max_sweeps;
    e.stats = d->stats;
    k = trn_cpu_solver_jacobi(&e, msg);
    if (k != TRN_KSTATUS_OK)
        goto out;
    if (jinfo < 0) { /* M overflowed: B is too close to singular for A */
        put_i32(d->info, -5);
        goto out;
    }
    if (d->vectors) { /* x = L^-H y or U^-1 y (itype 1, 2); L y or U^H y (3) */
        if (d->itype == 3)
            trn_blas_trmm(t, CblasLeft, cu, first, n, n, 1.0, pb, ld, pa, ld);
        else
            trn_blas_trsm(t, CblasLeft, cu, second, CblasNonUnit, n, n, 1.0, pb, ld, pa, ld);
    }
    trn_solver_copy(n, n, es, pa, ld, d->a, d->lda);
    trn_solver_copy(n, n, es, pb, ld, d->b, d->ldb);
    put_i32(d->info, jinfo);
out:
    trn_solver_ws_put(ws, ws_bytes);
    return k;
}

/* ---- gesvdaStridedBatched --------------------------------------------------------- */

/* dst[j] = conj(src[j * inc]) for count elements of type t. */
static void conj_gather(trn_dtype t, int count, const char *src, size_t inc, char *dst) {
    const size_t es = trn_dtype_size(t);
    for (int j = 0; j < count; j++) {
        memcpy(dst + (size_t)j * es, src + (size_t)j * inc * es, es);
        if (t == TRN_DTYPE_C32F)
            ((float *)(dst + (size_t)j * es))[1] *= -1.0f;
        else if (t == TRN_DTYPE_C64F)
            ((double *)(dst + (size_t)j * es))[1] *= -1.0;
    }
}

/* x[0 .. count) *= s, x of type t (complex: both parts). */
static void scale(trn_dtype t, size_t count, void *x, double s) {
    const size_t comps = count * (trn_dtype_is_complex(t) ? 2 : 1);
    if (trn_dtype_is_single(t))
        for (size_t i = 0; i < comps; i++)
            ((float *)x)[i] *= (float)s;
    else
        for (size_t i = 0; i < comps; i++)
            ((double *)x)[i] *= s;
}

/* The Frobenius norm of count contiguous elements, in double, scaled by
 * the largest magnitude so that squares neither overflow nor underflow. */
static double fro(trn_dtype t, size_t count, const void *x) {
    const size_t comps = count * (trn_dtype_is_complex(t) ? 2 : 1);
    const int sg = trn_dtype_is_single(t);
    double big = 0.0;
    for (size_t i = 0; i < comps; i++) {
        const double v = fabs(sg ? (double)((const float *)x)[i] : ((const double *)x)[i]);
        big = v > big ? v : big;
    }
    if (big == 0.0 || !isfinite(big))
        return big;
    double sum = 0.0;
    for (size_t i = 0; i < comps; i++) {
        const double v = (sg ? (double)((const float *)x)[i] : ((const double *)x)[i]) / big;
        sum += v * v;
    }
    return big * sqrt(sum);
}

/* One gesvd with economy U and VT on the private matrices of ws. */
static lapack_int gesvd_s(trn_dtype t, int m, int n, void *a, int lda, void *s, void *u, int ldu,
                          void *vt, int ldvt, void *work, lapack_int lwork, void *rwork) {
    return TRN_BY_TYPE(
        t,
        TRN_LIB(LAPACKE_sgesvd_work)(COL, 'S', 'S', m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork),
        TRN_LIB(LAPACKE_dgesvd_work)(COL, 'S', 'S', m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork),
        TRN_LIB(LAPACKE_cgesvd_work)(COL, 'S', 'S', m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork,
                                     rwork),
        TRN_LIB(LAPACKE_zgesvd_work)(COL, 'S', 'S', m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork,
                                     rwork));
}

trn_kstatus trn_cpu_solver_gesvda(const trn_solver_eigen_desc *d, trn_kmsg *msg, int shard,
                                  int nshards) {
    const trn_dtype t = d->type;
    const int m = d->m, n = d->n, r = d->rank;
    size_t lo = 0, hi = 0;
    trn_cpu_shard_range((size_t)d->batch, shard, nshards, &lo, &hi);
    if (lo >= hi || n == 0)
        return TRN_KSTATUS_OK;
    const size_t es = trn_dtype_size(t), rs = trn_dtype_is_single(t) ? 4 : 8;
    /* The query, with valid pointers for every array. */
    trn_lapack_query q, dummy;
    memset(&q, 0, sizeof(q));
    memset(&dummy, 0, sizeof(dummy));
    if (gesvd_s(t, m, n, &dummy, m, &dummy, &dummy, m, &dummy, n, &q, -1, &dummy) != 0)
        return TRN_KSTATUS_FAILED;
    const lapack_int lwork = trn_lapack_lwork(t, &q);
    /* One workspace: copy of A, U (m x n), VT (n x n), E (m x n, the
     * residual), S (n reals), work, rwork (5n reals). */
    const int ld_a = trn_solver_priv_ld(m), ld_v = trn_solver_priv_ld(n);
    const size_t a_bytes = trn_solver_priv_bytes(t, m, n);
    const size_t v_bytes = trn_solver_priv_bytes(t, n, n);
    const size_t e_bytes = d->residuals ? trn_solver_ws_align((size_t)m * (size_t)n * es) : 0;
    const size_t s_bytes = trn_solver_ws_align((size_t)n * rs);
    const size_t w_bytes = trn_solver_ws_align((size_t)lwork * es);
    const size_t r_bytes = trn_dtype_is_complex(t) ? (size_t)5 * (size_t)n * rs : 0;
    const size_t ws_bytes = 2 * a_bytes + v_bytes + e_bytes + s_bytes + w_bytes + r_bytes;
    char *ws = trn_solver_ws_get(ws_bytes);
    if (!ws)
        return trn_kmsg_no_memory(msg, shard, ws_bytes,
                                  "the LAPACK workspace of gesvdaStridedBatched (m = %d, n = %d)",
                                  m, n);
    char *pa = ws, *pu = pa + a_bytes, *pvt = pu + a_bytes, *pe = pvt + v_bytes;
    char *ps = pe + e_bytes, *work = ps + s_bytes,
         *rwork = trn_dtype_is_complex(t) ? work + w_bytes : NULL;
    trn_kstatus k = TRN_KSTATUS_OK;
    for (size_t i = lo; i < hi; i++) {
        const char *ai = (const char *)d->a + i * (size_t)d->stride_a * es;
        int32_t *info = d->info + i;
        trn_solver_copy(m, n, es, ai, d->lda, pa, ld_a);
        if (trn_solver_nonfinite(t, m, n, pa, ld_a)) {
            put_i32(info, -5); /* gesvda(jobz, rank, m, n, d_A) */
            continue;
        }
        if (d->residuals)
            trn_solver_copy(m, n, es, pa, ld_a, pe, m);
        const lapack_int rc =
            gesvd_s(t, m, n, pa, ld_a, ps, pu, ld_a, pvt, ld_v, work, lwork, rwork);
        if (rc < 0) {
            k = TRN_KSTATUS_FAILED; /* cannot happen after validation */
            break;
        }
        memcpy((char *)d->w + i * (size_t)d->stride_s * rs, ps, (size_t)r * rs);
        if (d->vectors) {
            char *ui = (char *)d->u + i * (size_t)d->stride_u * es;
            char *vi = (char *)d->v + i * (size_t)d->stride_v * es;
            trn_solver_copy(m, r, es, pu, ld_a, ui, d->ldu);
            for (int j = 0; j < r; j++) /* V's column j: row j of VT, conjugated */
                conj_gather(t, n, pvt + (size_t)j * es, (size_t)ld_v,
                            vi + (size_t)j * (size_t)d->ldv * es);
        }
        if (d->residuals) { /* E = A - (U_r S_r) VT_r */
            for (int j = 0; j < r; j++)
                scale(t, (size_t)m, pu + (size_t)j * (size_t)ld_a * es,
                      trn_dtype_is_single(t) ? (double)((const float *)ps)[j]
                                             : ((const double *)ps)[j]);
            trn_blas_gemm(t, CblasNoTrans, CblasNoTrans, m, n, r, -1.0, pu, ld_a, pvt, ld_v, 1.0,
                          pe, m);
            const double res = fro(t, (size_t)m * (size_t)n, pe);
            memcpy(d->residuals + i, &res, sizeof(res));
        }
        put_i32(info, rc > 0 ? n + 1 : 0);
    }
    trn_solver_ws_put(ws, ws_bytes);
    return k;
}
