/*
 * blas3.c — BLAS Level 3 beyond GEMM on the CPU backend: symm, hemm, syrk,
 * herk, syr2k, her2k, trsm, trmm through OpenBLAS's CBLAS, and the cuBLAS
 * extensions geam and dgmm as loops.
 *
 * Tiles. An op's output (C; B for trsm) is cut into the tiles of
 * trn_blas3_tiles (ops/op.h): blocks of columns, or of rows for trsm,
 * trmm, symm and hemm from the right (whose rows are independent). Every
 * tile is computed by the same library calls whatever the shard count; a
 * shard computes a contiguous range of tiles. So a sharded op is bitwise
 * equal to the unsharded one by construction, without relying on how
 * OpenBLAS cuts its panels (kernels/cpu/blas_gemm.c explains how a split
 * at an arbitrary column changes GEMM's last bits; trsm, trmm and symm use
 * the same panels). An op of one tile is one library call.
 *
 * syrk..her2k tiles are blocks of columns of C's stored triangle: the
 * diagonal block by the routine itself, the rectangle beside it (below for
 * lower, above for upper) by GEMM, one call per product. Their tiles hold
 * unequal work, so shards take ranges of tiles of about equal flops.
 *
 * Semantics are reference BLAS's, applied here so that they hold whatever
 * OpenBLAS does: C = beta C is done by this file first (beta = 0 writes
 * zeros, so NaNs in C do not propagate; beta = 1 leaves C alone), and the
 * library is called with beta = 1; alpha = 0 reads neither A nor B
 * (trsm: B = 0, trmm: C = 0); syrk..her2k with alpha = 0 or k = 0 only
 * scale C, and nothing at all when beta = 1; herk and her2k leave the
 * diagonal of C real (imaginary parts set to 0) except in that last case.
 * trmm is out of place: B is copied into C (unless C is B), then the
 * library multiplies C in place. Scalars given by device pointer are read
 * here, when the op runs (by every shard; they are read-only).
 *
 * geam and dgmm compute each element of C on its own (one or two products
 * and a sum, in the type's precision), so any split gives the same bits;
 * transposed operands are read in 32 x 32 blocks to stay in cache.
 */
#include <cblas.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/cblas_map.h"
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/routines.h"

static int is_zero(trn_scalar s) {
    return s.re == 0.0 && s.im == 0.0;
}

static int is_one(trn_scalar s) {
    return s.re == 1.0 && s.im == 0.0;
}

/* Address of element (i, j) of a column-major matrix of type t. */
static char *at(trn_dtype t, const void *p, int ld, size_t i, size_t j) {
    return (char *)p + (i + j * (size_t)ld) * trn_dtype_size(t);
}

/* ---- element loops --------------------------------------------------------- */

/* count consecutive elements p[0..count) = beta p (beta = 0: zeros). */
#define SCALE_LOOP(R, NAME)                                                                        \
    static void NAME(int cx, size_t count, R *p, trn_scalar beta) {                                \
        const R br = (R)beta.re, bi = (R)beta.im;                                                  \
        if (br == 0 && bi == 0) {                                                                  \
            memset(p, 0, count *(cx ? 2 : 1) * sizeof(R));                                         \
        } else if (!cx) {                                                                          \
            for (size_t i = 0; i < count; i++)                                                     \
                p[i] = br * p[i];                                                                  \
        } else {                                                                                   \
            for (size_t i = 0; i < count; i++) {                                                   \
                const R re = br * p[2 * i] - bi * p[2 * i + 1];                                    \
                const R im = br * p[2 * i + 1] + bi * p[2 * i];                                    \
                p[2 * i] = re;                                                                     \
                p[2 * i + 1] = im;                                                                 \
            }                                                                                      \
        }                                                                                          \
    }
SCALE_LOOP(float, scale_f)
SCALE_LOOP(double, scale_d)

/* Rows [r0, r1) of column j of C = beta times themselves. */
static void scale_col(const trn_blas3_desc *d, size_t r0, size_t r1, size_t j, trn_scalar beta) {
    if (r1 <= r0 || is_one(beta))
        return;
    void *p = at(d->type, d->c, d->ldc, r0, j);
    if (d->type == TRN_DTYPE_R32F || d->type == TRN_DTYPE_C32F)
        scale_f(trn_dtype_is_complex(d->type), r1 - r0, p, beta);
    else
        scale_d(trn_dtype_is_complex(d->type), r1 - r0, p, beta);
}

/* The imaginary part of C(j, j) = 0 (herk, her2k). */
static void real_diag(const trn_blas3_desc *d, size_t j) {
    char *p = at(d->type, d->c, d->ldc, j, j);
    if (d->type == TRN_DTYPE_C32F)
        ((float *)p)[1] = 0.0f;
    else
        ((double *)p)[1] = 0.0;
}

/* C = alpha op(A) + beta op(B) on columns [c0, c1) of C; a term whose
 * scalar is 0 is left out (its matrix is not read). Element (i, j) of op(X)
 * is X(i, j), X(j, i) or conj(X(j, i)). */
#define GEAM_LOOP(R, NAME)                                                                         \
    static void NAME(const trn_blas3_desc *d, int cx, trn_scalar alpha, trn_scalar beta, int c0,   \
                     int c1) {                                                                     \
        const int w = cx ? 2 : 1, m = d->m;                                                        \
        const R ar = (R)alpha.re, ai = (R)alpha.im, br = (R)beta.re, bi = (R)beta.im;              \
        const R *A = is_zero(alpha) ? NULL : (const R *)d->a;                                      \
        const R *B = is_zero(beta) ? NULL : (const R *)d->b;                                       \
        const size_t lda = (size_t)d->lda, ldb = (size_t)d->ldb, ldc = (size_t)d->ldc;             \
        const int ta = d->transa != TRN_TRANS_N, tb = d->transb != TRN_TRANS_N;                    \
        const R sa = d->transa == TRN_TRANS_C ? -1 : 1, sb = d->transb == TRN_TRANS_C ? -1 : 1;    \
        R *C = d->c;                                                                               \
        /* 32 x 32 blocks, so that a transposed operand is read in cache. */                       \
        for (int jb = c0; jb < c1; jb += 32) {                                                     \
            const int je = jb + 32 < c1 ? jb + 32 : c1;                                            \
            for (int ib = 0; ib < m; ib += 32) {                                                   \
                const int ie = ib + 32 < m ? ib + 32 : m;                                          \
                for (int j = jb; j < je; j++) {                                                    \
                    for (int i = ib; i < ie; i++) {                                                \
                        R re = 0, im = 0;                                                          \
                        if (A) {                                                                   \
                            const R *x = A + w * (ta ? j + (size_t)i * lda : i + (size_t)j * lda); \
                            const R xr = x[0], xi = cx ? sa * x[1] : 0;                            \
                            re = ar * xr - ai * xi;                                                \
                            im = ar * xi + ai * xr;                                                \
                        }                                                                          \
                        if (B) {                                                                   \
                            const R *y = B + w * (tb ? j + (size_t)i * ldb : i + (size_t)j * ldb); \
                            const R yr = y[0], yi = cx ? sb * y[1] : 0;                            \
                            re += br * yr - bi * yi;                                               \
                            im += br * yi + bi * yr;                                               \
                        }                                                                          \
                        R *z = C + w * (i + (size_t)j * ldc);                                      \
                        z[0] = re;                                                                 \
                        if (cx)                                                                    \
                            z[1] = im;                                                             \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }
GEAM_LOOP(float, geam_f)
GEAM_LOOP(double, geam_d)

/* C = diag(x) A (left) or A diag(x) (right) on columns [c0, c1). Element i
 * of x is at first + i * incx (incx = 0: every element is x[0]). Each
 * element is one product x_i a_ij (complex: (xr ar - xi ai, xr ai + xi ar)),
 * with the loops split by side and type so that they vectorise. */
#define DGMM_LOOP(R, NAME)                                                                         \
    static void NAME(const trn_blas3_desc *d, int cx, int c0, int c1) {                            \
        const int m = d->m, left = d->side == TRN_SIDE_LEFT;                                       \
        const ptrdiff_t inc = d->incx, len = left ? d->m : d->n;                                   \
        const ptrdiff_t first = inc < 0 ? (1 - len) * inc : 0;                                     \
        const size_t w = cx ? 2 : 1;                                                               \
        const R *X = d->x;                                                                         \
        for (int j = c0; j < c1; j++) {                                                            \
            const R *a = (const R *)d->a + w * (size_t)j * (size_t)d->lda;                         \
            R *c = (R *)d->c + w * (size_t)j * (size_t)d->ldc;                                     \
            if (!left) { /* one scalar per column */                                               \
                const R *xj = X + w * (size_t)(first + j * inc);                                   \
                const R xr = xj[0], xi = cx ? xj[1] : 0;                                           \
                if (!cx) {                                                                         \
                    for (int i = 0; i < m; i++)                                                    \
                        c[i] = xr * a[i];                                                          \
                } else {                                                                           \
                    for (int i = 0; i < m; i++) {                                                  \
                        const R re = xr * a[2 * i] - xi * a[2 * i + 1];                            \
                        const R im = xr * a[2 * i + 1] + xi * a[2 * i];                            \
                        c[2 * i] = re;                                                             \
                        c[2 * i + 1] = im;                                                         \
                    }                                                                              \
                }                                                                                  \
            } else if (!cx) {                                                                      \
                for (int i = 0; i < m; i++)                                                        \
                    c[i] = X[first + i * inc] * a[i];                                              \
            } else {                                                                               \
                for (int i = 0; i < m; i++) {                                                      \
                    const R *x = X + 2 * (first + i * inc);                                        \
                    const R re = x[0] * a[2 * i] - x[1] * a[2 * i + 1];                            \
                    const R im = x[0] * a[2 * i + 1] + x[1] * a[2 * i];                            \
                    c[2 * i] = re;                                                                 \
                    c[2 * i + 1] = im;                                                             \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }
DGMM_LOOP(float, dgmm_f)
DGMM_LOOP(double, dgmm_d)

/* ---- library calls on one tile ------------------------------------------- */

/* symm / hemm on output columns (left) or rows (right) [lo, hi); C was
 * scaled by beta already. */
static void symm_tile(const trn_blas3_desc *d, int lo, int hi) {
    const int left = d->side == TRN_SIDE_LEFT, w = hi - lo;
    const int m = left ? d->m : w, n = left ? w : d->n;
    const void *b = left ? at(d->type, d->b, d->ldb, 0, lo) : at(d->type, d->b, d->ldb, lo, 0);
    void *c = left ? at(d->type, d->c, d->ldc, 0, lo) : at(d->type, d->c, d->ldc, lo, 0);
    const enum CBLAS_SIDE sd = trn_cb_side(d->side);
    const enum CBLAS_UPLO ul = trn_cb_uplo(d->uplo);
    const float af[2] = {(float)d->alpha.re, (float)d->alpha.im}, onef[2] = {1, 0};
    const double ad[2] = {d->alpha.re, d->alpha.im}, oned[2] = {1, 0};
    const int herm = d->fn == TRN_BLAS3_HEMM;
    switch (d->type) {
    case TRN_DTYPE_R32F:
        TRN_LIB(cblas_ssymm)
        (CblasColMajor, sd, ul, m, n, af[0], d->a, d->lda, b, d->ldb, 1.0f, c, d->ldc);
        break;
    case TRN_DTYPE_R64F:
        TRN_LIB(cblas_dsymm)
        (CblasColMajor, sd, ul, m, n, ad[0], d->a, d->lda, b, d->ldb, 1.0, c, d->ldc);
        break;
    case TRN_DTYPE_C32F:
        (herm ? cblas_chemm : cblas_csymm)(CblasColMajor, sd, ul, m, n, af, d->a, d->lda, b, d->ldb,
                                           onef, c, d->ldc);
        break;
    case TRN_DTYPE_C64F:
        (herm ? cblas_zhemm : cblas_zsymm)(CblasColMajor, sd, ul, m, n, ad, d->a, d->lda, b, d->ldb,
                                           oned, c, d->ldc);
        break;
    TRN_DTYPE_GEMM_ONLY_CASES:
        break; /* GEMM only */
    }
}

/* trsm in place on B, or trmm in place on C (holding B), on columns (left)
 * or rows (right) [lo, hi). */
static void tri_tile(const trn_blas3_desc *d, int lo, int hi) {
    const int left = d->side == TRN_SIDE_LEFT, w = hi - lo, solve = d->fn == TRN_BLAS3_TRSM;
    const int m = left ? d->m : w, n = left ? w : d->n;
    void *base = solve ? d->b : d->c;
    const int ld = solve ? d->ldb : d->ldc;
    void *p = left ? at(d->type, base, ld, 0, lo) : at(d->type, base, ld, lo, 0);
    const enum CBLAS_ORDER o = CblasColMajor;
    const enum CBLAS_SIDE sd = trn_cb_side(d->side);
    const enum CBLAS_UPLO ul = trn_cb_uplo(d->uplo);
    const enum CBLAS_TRANSPOSE tr = trn_cb_trans(d->transa);
    const enum CBLAS_DIAG dg = trn_cb_diag(d->diag);
    const float af[2] = {(float)d->alpha.re, (float)d->alpha.im};
    const double ad[2] = {d->alpha.re, d->alpha.im};
    switch (d->type) {
    case TRN_DTYPE_R32F:
        (solve ? cblas_strsm : cblas_strmm)(o, sd, ul, tr, dg, m, n, af[0], d->a, d->lda, p, ld);
        break;
    case TRN_DTYPE_R64F:
        (solve ? cblas_dtrsm : cblas_dtrmm)(o, sd, ul, tr, dg, m, n, ad[0], d->a, d->lda, p, ld);
        break;
    case TRN_DTYPE_C32F:
        (solve ? cblas_ctrsm : cblas_ctrmm)(o, sd, ul, tr, dg, m, n, af, d->a, d->lda, p, ld);
        break;
    case TRN_DTYPE_C64F:
        (solve ? cblas_ztrsm : cblas_ztrmm)(o, sd, ul, tr, dg, m, n, ad, d->a, d->lda, p, ld);
        break;
    TRN_DTYPE_GEMM_ONLY_CASES:
        break; /* GEMM only */
    }
}

/* Rows [r0, r1) of op(X) for syrk..her2k (X is A or B with leading
 * dimension ld): rows of X without a transpose, its columns with one. */
static const void *slab(const trn_blas3_desc *d, const void *x, int ld, int r0) {
    return d->transa == TRN_TRANS_N ? at(d->type, x, ld, (size_t)r0, 0)
                                    : at(d->type, x, ld, 0, (size_t)r0);
}

/* C(r0:r0+rows, lo:hi) += alpha op(X)(r0:, :) op(Y)(lo:hi, :)^T (^H for
 * herk/her2k) by GEMM: the rectangle of a syrk..her2k tile. */
static void rank_k_gemm(const trn_blas3_desc *d, trn_scalar alpha, const void *x, int ldx,
                        const void *y, int ldy, int r0, int rows, int lo, int hi, void *c,
                        int ldc) {
    if (rows <= 0)
        return;
    const int herm =
        d->fn == TRN_BLAS3_HERK || d->fn == TRN_BLAS3_HER2K || d->fn == TRN_BLAS3_HERKX;
    const int tn = d->transa == TRN_TRANS_N;
    /* op(X) op(Y)^T: (N, T) or (T, N); Hermitian: (N, C) or (C, N). */
    const enum CBLAS_TRANSPOSE ta = tn ? CblasNoTrans : herm ? CblasConjTrans : CblasTrans;
    const enum CBLAS_TRANSPOSE tb = !tn ? CblasNoTrans : herm ? CblasConjTrans : CblasTrans;
    const int w = hi - lo, k = d->k;
    const void *xs = slab(d, x, ldx, r0), *ys = slab(d, y, ldy, lo);
    const float af[2] = {(float)alpha.re, (float)alpha.im}, onef[2] = {1, 0};
    const double ad[2] = {alpha.re, alpha.im}, oned[2] = {1, 0};
    switch (d->type) {
    case TRN_DTYPE_R32F:
        TRN_LIB(cblas_sgemm)
        (CblasColMajor, ta, tb, rows, w, k, af[0], xs, ldx, ys, ldy, 1.0f, c, ldc);
        break;
    case TRN_DTYPE_R64F:
        TRN_LIB(cblas_dgemm)
        (CblasColMajor, ta, tb, rows, w, k, ad[0], xs, ldx, ys, ldy, 1.0, c, ldc);
        break;
    case TRN_DTYPE_C32F:
        TRN_LIB(cblas_cgemm)
        (CblasColMajor, ta, tb, rows, w, k, af, xs, ldx, ys, ldy, onef, c, ldc);
        break;
    case TRN_DTYPE_C64F:
        TRN_LIB(cblas_zgemm)
        (CblasColMajor, ta, tb, rows, w, k, ad, xs, ldx, ys, ldy, oned, c, ldc);
        break;
    TRN_DTYPE_GEMM_ONLY_CASES:
        break; /* GEMM only */
    }
}

/* The diagonal block C(lo:hi, lo:hi) of a syrk..her2k tile, by the routine
 * itself with beta = 1. */
static void rank_k_diag(const trn_blas3_desc *d, int lo, int hi) {
    const int w = hi - lo, k = d->k, two = d->fn == TRN_BLAS3_SYR2K || d->fn == TRN_BLAS3_HER2K;
    const enum CBLAS_UPLO ul = trn_cb_uplo(d->uplo);
    const enum CBLAS_TRANSPOSE tr = trn_cb_trans(d->transa);
    const void *a = slab(d, d->a, d->lda, lo), *b = two ? slab(d, d->b, d->ldb, lo) : NULL;
    void *c = at(d->type, d->c, d->ldc, (size_t)lo, (size_t)lo);
    const float af[2] = {(float)d->alpha.re, (float)d->alpha.im}, onef[2] = {1, 0};
    const double ad[2] = {d->alpha.re, d->alpha.im}, oned[2] = {1, 0};
    const enum CBLAS_ORDER o = CblasColMajor;
    switch (d->fn) {
    case TRN_BLAS3_SYRK:
        switch (d->type) {
        case TRN_DTYPE_R32F:
            TRN_LIB(cblas_ssyrk)(o, ul, tr, w, k, af[0], a, d->lda, 1.0f, c, d->ldc);
            break;
        case TRN_DTYPE_R64F:
            TRN_LIB(cblas_dsyrk)(o, ul, tr, w, k, ad[0], a, d->lda, 1.0, c, d->ldc);
            break;
        case TRN_DTYPE_C32F:
            TRN_LIB(cblas_csyrk)(o, ul, tr, w, k, af, a, d->lda, onef, c, d->ldc);
            break;
        case TRN_DTYPE_C64F:
            TRN_LIB(cblas_zsyrk)(o, ul, tr, w, k, ad, a, d->lda, oned, c, d->ldc);
            break;
        TRN_DTYPE_GEMM_ONLY_CASES:
            break; /* GEMM only */
        }
        break;
    case TRN_BLAS3_HERK:
        if (d->type == TRN_DTYPE_C32F)
            TRN_LIB(cblas_cherk)(o, ul, tr, w, k, af[0], a, d->lda, 1.0f, c, d->ldc);
        else
            TRN_LIB(cblas_zherk)(o, ul, tr, w, k, ad[0], a, d->lda, 1.0, c, d->ldc);
        break;
    case TRN_BLAS3_SYR2K:
        switch (d->type) {
        case TRN_DTYPE_R32F:
            TRN_LIB(cblas_ssyr2k)(o, ul, tr, w, k, af[0], a, d->lda, b, d->ldb, 1.0f, c, d->ldc);
            break;
        case TRN_DTYPE_R64F:
            TRN_LIB(cblas_dsyr2k)(o, ul, tr, w, k, ad[0], a, d->lda, b, d->ldb, 1.0, c, d->ldc);
            break;
        case TRN_DTYPE_C32F:
            TRN_LIB(cblas_csyr2k)(o, ul, tr, w, k, af, a, d->lda, b, d->ldb, onef, c, d->ldc);
            break;
        case TRN_DTYPE_C64F:
            TRN_LIB(cblas_zsyr2k)(o, ul, tr, w, k, ad, a, d->lda, b, d->ldb, oned, c, d->ldc);
            break;
        TRN_DTYPE_GEMM_ONLY_CASES:
            break; /* GEMM only */
        }
        break;
    case TRN_BLAS3_HER2K:
        if (d->type == TRN_DTYPE_C32F)
            TRN_LIB(cblas_cher2k)(o, ul, tr, w, k, af, a, d->lda, b, d->ldb, 1.0f, c, d->ldc);
        else
            TRN_LIB(cblas_zher2k)(o, ul, tr, w, k, ad, a, d->lda, b, d->ldb, 1.0, c, d->ldc);
        break;
    default: break;
    }
}

/* The diagonal block of a syrkx / herkx tile, which no library routine
 * computes: alpha op(A) op(B)^T (^H) into a w x w block by GEMM (beta 0),
 * whose uplo triangle is added to C's; nothing else of C is written. */
static trn_kstatus rank_kx_diag(const trn_blas3_desc *d, int lo, int hi) {
    const int w = hi - lo;
    const size_t es = trn_dtype_size(d->type);
    void *tmp = calloc((size_t)w * (size_t)w, es);
    if (!tmp)
        return TRN_KSTATUS_NO_MEMORY;
    rank_k_gemm(d, d->alpha, d->a, d->lda, d->b, d->ldb, lo, w, lo, hi, tmp, w);
    const int lower = d->uplo == TRN_UPLO_LOWER, cx = trn_dtype_is_complex(d->type);
    for (int j = 0; j < w; j++) {
        const int i0 = lower ? j : 0, i1 = lower ? w : j + 1;
        for (int i = i0; i < i1; i++) {
            const char *src = (const char *)tmp + ((size_t)i + (size_t)j * (size_t)w) * es;
            char *dst = at(d->type, d->c, d->ldc, (size_t)(lo + i), (size_t)(lo + j));
            if (d->type == TRN_DTYPE_R32F || d->type == TRN_DTYPE_C32F) {
                float s[2], v[2];
                memcpy(s, src, es);
                memcpy(v, dst, es);
                v[0] += s[0];
                if (cx)
                    v[1] += s[1];
                memcpy(dst, v, es);
            } else {
                double s[2], v[2];
                memcpy(s, src, es);
                memcpy(v, dst, es);
                v[0] += s[0];
                if (cx)
                    v[1] += s[1];
                memcpy(dst, v, es);
            }
        }
    }
    free(tmp);
    return TRN_KSTATUS_OK;
}

/* One syrk..her2k, syrkx, herkx tile: columns [lo, hi) of C's stored
 * triangle. */
static trn_kstatus rank_k_tile(const trn_blas3_desc *d, int lo, int hi) {
    const int n = d->n, lower = d->uplo == TRN_UPLO_LOWER;
    const int herm =
        d->fn == TRN_BLAS3_HERK || d->fn == TRN_BLAS3_HER2K || d->fn == TRN_BLAS3_HERKX;
    const int kx = d->fn == TRN_BLAS3_SYRKX || d->fn == TRN_BLAS3_HERKX;
    const int update = !is_zero(d->alpha) && d->k > 0;
    if (!update && is_one(d->beta))
        return TRN_KSTATUS_OK; /* reference BLAS's quick return: C untouched */
    for (int j = lo; j < hi; j++) {
        scale_col(d, lower ? (size_t)j : 0, lower ? (size_t)n : (size_t)j + 1, (size_t)j, d->beta);
        if (herm)
            real_diag(d, (size_t)j);
    }
    if (!update)
        return TRN_KSTATUS_OK;
    if (kx) {
        const trn_kstatus st = rank_kx_diag(d, lo, hi);
        if (st != TRN_KSTATUS_OK)
            return st;
    } else {
        rank_k_diag(d, lo, hi);
    }
    const int r0 = lower ? hi : 0, rows = lower ? n - hi : lo;
    const int two = d->fn == TRN_BLAS3_SYR2K || d->fn == TRN_BLAS3_HER2K;
    const int with_b = two || kx;
    void *c_rect = at(d->type, d->c, d->ldc, (size_t)r0, (size_t)lo);
    rank_k_gemm(d, d->alpha, d->a, d->lda, with_b ? d->b : d->a, with_b ? d->ldb : d->lda, r0, rows,
                lo, hi, c_rect, d->ldc);
    if (two) {
        /* her2k's second product has conj(alpha); syr2k's alpha. */
        const trn_scalar a2 = {d->alpha.re, herm ? -d->alpha.im : d->alpha.im};
        rank_k_gemm(d, a2, d->b, d->ldb, d->a, d->lda, r0, rows, lo, hi, c_rect, d->ldc);
    }
    if (herm)
        for (int j = lo; j < hi; j++)
            real_diag(d, (size_t)j); /* exactly real, as reference BLAS */
    return TRN_KSTATUS_OK;
}

/* Copies rows (left: all m; right: [lo, hi)) and columns (left: [lo, hi);
 * right: all n) of B into C: trmm is out of place. */
static void copy_b_to_c(const trn_blas3_desc *d, int lo, int hi) {
    if (d->b == d->c)
        return; /* in place: C is B (validation checked ldc = ldb) */
    const int left = d->side == TRN_SIDE_LEFT;
    const int r0 = left ? 0 : lo, r1 = left ? d->m : hi, c0 = left ? lo : 0, c1 = left ? hi : d->n;
    const size_t bytes = (size_t)(r1 - r0) * trn_dtype_size(d->type);
    for (int j = c0; j < c1; j++)
        memmove(at(d->type, d->c, d->ldc, (size_t)r0, (size_t)j),
                at(d->type, d->b, d->ldb, (size_t)r0, (size_t)j), bytes);
}

/* Output rows [r0, r1) x columns [c0, c1) of C (B for trsm) = beta times
 * themselves. */
static void scale_block(const trn_blas3_desc *d, int r0, int r1, int c0, int c1, trn_scalar beta) {
    trn_blas3_desc t = *d;
    if (d->fn == TRN_BLAS3_TRSM) {
        t.c = d->b;
        t.ldc = d->ldb;
    }
    for (int j = c0; j < c1; j++)
        scale_col(&t, (size_t)r0, (size_t)r1, (size_t)j, beta);
}

/* One tile: columns [lo, hi) of the output, or its rows for trsm, trmm,
 * symm and hemm from the right. */
static trn_kstatus run_tile(const trn_blas3_desc *d, int lo, int hi) {
    const int rows =
        d->side == TRN_SIDE_RIGHT && (d->fn == TRN_BLAS3_SYMM || d->fn == TRN_BLAS3_HEMM ||
                                      d->fn == TRN_BLAS3_TRSM || d->fn == TRN_BLAS3_TRMM);
    const int r0 = rows ? lo : 0, r1 = rows ? hi : d->m, c0 = rows ? 0 : lo, c1 = rows ? d->n : hi;
    const trn_scalar zero = {0.0, 0.0};
    const int alpha0 = is_zero(d->alpha);
    switch (d->fn) {
    case TRN_BLAS3_SYMM:
    case TRN_BLAS3_HEMM:
        scale_block(d, r0, r1, c0, c1, d->beta);
        if (!alpha0)
            symm_tile(d, lo, hi);
        return TRN_KSTATUS_OK;
    case TRN_BLAS3_TRSM:
        if (alpha0)
            scale_block(d, r0, r1, c0, c1, zero);
        else
            tri_tile(d, lo, hi);
        return TRN_KSTATUS_OK;
    case TRN_BLAS3_TRMM:
        if (alpha0) {
            scale_block(d, r0, r1, c0, c1, zero);
        } else {
            copy_b_to_c(d, lo, hi);
            tri_tile(d, lo, hi);
        }
        return TRN_KSTATUS_OK;
    case TRN_BLAS3_SYRK:
    case TRN_BLAS3_HERK:
    case TRN_BLAS3_SYR2K:
    case TRN_BLAS3_HER2K:
    case TRN_BLAS3_SYRKX:
    case TRN_BLAS3_HERKX: return rank_k_tile(d, lo, hi);
    case TRN_BLAS3_GEAM:
        if (d->type == TRN_DTYPE_R32F || d->type == TRN_DTYPE_C32F)
            geam_f(d, trn_dtype_is_complex(d->type), d->alpha, d->beta, lo, hi);
        else
            geam_d(d, trn_dtype_is_complex(d->type), d->alpha, d->beta, lo, hi);
        return TRN_KSTATUS_OK;
    case TRN_BLAS3_DGMM:
        if (d->type == TRN_DTYPE_R32F || d->type == TRN_DTYPE_C32F)
            dgmm_f(d, trn_dtype_is_complex(d->type), lo, hi);
        else
            dgmm_d(d, trn_dtype_is_complex(d->type), lo, hi);
        return TRN_KSTATUS_OK;
    }
    return TRN_KSTATUS_UNSUPPORTED;
}

/* ---- shards ------------------------------------------------------------------ */

/* Work of tile [lo, hi) of n columns, for sharing tiles out: syrk..her2k's
 * tiles hold the columns' part of a triangle, the others equal blocks. */
static double tile_work(const trn_blas3_desc *d, int lo, int hi) {
    const double w = hi - lo;
    switch (d->fn) {
    case TRN_BLAS3_SYRK:
    case TRN_BLAS3_HERK:
    case TRN_BLAS3_SYR2K:
    case TRN_BLAS3_HER2K:
    case TRN_BLAS3_SYRKX:
    case TRN_BLAS3_HERKX:
        return d->uplo == TRN_UPLO_LOWER ? w * ((double)d->n - lo - w / 2) : w * (hi - w / 2);
    default: return w;
    }
}

/* Tiles [*t0, *t1) for shard `shard` of `nshards`: contiguous ranges whose
 * work is about total / nshards each (a shard may get none). Depends only
 * on the op and nshards; which shard computes a tile does not change it. */
static void shard_tiles(const trn_blas3_desc *d, int ntiles, int width, int extent, int shard,
                        int nshards, int *t0, int *t1) {
    double total = 0.0;
    for (int t = 0; t < ntiles; t++) {
        const int lo = t * width, hi = lo + width < extent ? lo + width : extent;
        total += tile_work(d, lo, hi);
    }
    /* Tile t goes to the shard in which the middle of its work falls. */
    double before = 0.0;
    *t0 = *t1 = ntiles;
    int found = 0;
    for (int t = 0; t < ntiles; t++) {
        const int lo = t * width, hi = lo + width < extent ? lo + width : extent;
        const double wk = tile_work(d, lo, hi);
        int s = (int)((before + wk / 2) / total * nshards);
        if (s >= nshards)
            s = nshards - 1;
        before += wk;
        if (s == shard && !found) {
            *t0 = t;
            found = 1;
        }
        if (s > shard && found) {
            *t1 = t;
            return;
        }
    }
    if (!found)
        *t0 = *t1 = ntiles;
}

trn_kstatus trn_cpu_blas3(const trn_blas3_desc *desc, int shard, int nshards) {
    if (desc->m == 0 || desc->n == 0 || nshards < 1)
        return TRN_KSTATUS_OK; /* nothing to do (validation emptied the shape) */
    trn_blas3_desc d = *desc;
    const int real = !trn_dtype_is_complex(d.type);
    if (d.alpha_ptr)
        d.alpha = trn_cpu_load_scalar(d.type, d.alpha_ptr, real || d.fn == TRN_BLAS3_HERK);
    if (d.beta_ptr)
        d.beta = trn_cpu_load_scalar(d.type, d.beta_ptr,
                                     real || d.fn == TRN_BLAS3_HERK || d.fn == TRN_BLAS3_HER2K ||
                                         d.fn == TRN_BLAS3_HERKX);
    if ((d.fn == TRN_BLAS3_SYMM || d.fn == TRN_BLAS3_HEMM) && is_zero(d.alpha) && is_one(d.beta))
        return TRN_KSTATUS_OK; /* reference BLAS's quick return */
    const int extent = trn_blas3_tile_extent(&d), width = trn_blas3_tile_width(extent);
    const int ntiles = trn_blas3_tiles(&d);
    int t0, t1;
    shard_tiles(&d, ntiles, width, extent, shard, nshards, &t0, &t1);
    for (int t = t0; t < t1; t++) {
        const int lo = t * width, hi = lo + width < extent ? lo + width : extent;
        const trn_kstatus st = run_tile(&d, lo, hi);
        if (st != TRN_KSTATUS_OK)
            return st;
    }
    return TRN_KSTATUS_OK;
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(blas3, trn_cpu_blas3(&op->u.blas3, shard, nshards))
