/*
 * blas2.c — BLAS Level 2 on the CPU backend: OpenBLAS's CBLAS, and plain
 * loops for the complex symmetric routines CBLAS lacks (csymv, zsymv, csyr,
 * zsyr, csyr2, zsyr2: in LAPACK, not in BLAS).
 *
 * The band and packed routines (tbmv .. hpr2) are blas2_band.c's loops,
 * called from here after the scalars, quick returns and beta.
 *
 * GEMV and GER/GERC are cut into the output tiles of trn_blas2_tiles
 * (ops/op.h: 512 or more elements of y, columns of A for ger), each one
 * library call whatever the shard count, so they can run as several shards
 * with bitwise the results of one; every other routine is one shard. The
 * scheduler splits only ops whose A is large (128 MiB on two cores:
 * scheduler/sched.c): Level 2 reads each element of A once and is bound by
 * the memory bandwidth the cores share (docs/benchmarks.md).
 *
 * Semantics are reference BLAS's, applied here rather than left to the
 * library so that they hold whatever OpenBLAS version is linked: y = beta y
 * is done first by this file (beta = 0 writes zeros, so NaNs in y do not
 * propagate; beta = 1 leaves y alone), then the library adds alpha op(A) x
 * with beta = 1; alpha = 0 reads neither A nor x; the rank updates do
 * nothing when alpha = 0. Scalars given by device pointer are read here,
 * when the op runs. Vectors point to their lowest element also for negative
 * increments (reference BLAS and CBLAS agree on that).
 *
 * The loops accumulate in the vectors' precision, in reference BLAS's order
 * (LAPACK's CSYMV, CSYR; CSYR2 has no LAPACK counterpart and follows ZSYR2K's
 * rank-2 form).
 *
 * Complex hemv runs on contiguous copies of x and y with a spare element
 * after each: OpenBLAS 0.3.21's zhemv (upper, the Haswell kernels picked
 * here) reads one element past y, which faults when y ends at the end of a
 * mapping (tests/unit/test_kernel_bounds.c places operands against guard
 * pages). The copies cost O(n) against the product's O(n^2).
 */
#include <cblas.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/cblas_map.h"
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/routines.h"

/* Element 0 of a vector's traversal (its highest element when inc < 0). */
static ptrdiff_t first(int n, int inc) {
    return inc < 0 ? (ptrdiff_t)(1 - n) * inc : 0;
}

/* ---- complex symmetric loops ------------------------------------------- */

/* y += alpha A x with A symmetric (one triangle stored), complex of real
 * component R; x, y, A and alpha interleaved (re, im). */
#define SYMV_LOOP(R, NAME)                                                                         \
    static void NAME(trn_uplo uplo, int n, const R *al, const R *a, int lda, const R *x, int incx, \
                     R *y, int incy) {                                                             \
        const ptrdiff_t kx = first(n, incx), ky = first(n, incy);                                  \
        for (int j = 0; j < n; j++) {                                                              \
            const R *xj = x + 2 * (kx + (ptrdiff_t)j * incx);                                      \
            const R t1r = al[0] * xj[0] - al[1] * xj[1], t1i = al[0] * xj[1] + al[1] * xj[0];      \
            R t2r = 0, t2i = 0;                                                                    \
            const R *col = a + 2 * (size_t)j * (size_t)lda;                                        \
            const int i0 = uplo == TRN_UPLO_UPPER ? 0 : j + 1;                                     \
            const int i1 = uplo == TRN_UPLO_UPPER ? j : n;                                         \
            for (int i = i0; i < i1; i++) {                                                        \
                const R ar = col[2 * i], ai = col[2 * i + 1];                                      \
                R *yi = y + 2 * (ky + (ptrdiff_t)i * incy);                                        \
                const R *xi = x + 2 * (kx + (ptrdiff_t)i * incx);                                  \
                yi[0] += t1r * ar - t1i * ai;                                                      \
                yi[1] += t1r * ai + t1i * ar;                                                      \
                t2r += ar * xi[0] - ai * xi[1];                                                    \
                t2i += ar * xi[1] + ai * xi[0];                                                    \
            }                                                                                      \
            R *yj = y + 2 * (ky + (ptrdiff_t)j * incy);                                            \
            const R dr = col[2 * j], di = col[2 * j + 1];                                          \
            yj[0] += t1r * dr - t1i * di + (al[0] * t2r - al[1] * t2i);                            \
            yj[1] += t1r * di + t1i * dr + (al[0] * t2i + al[1] * t2r);                            \
        }                                                                                          \
    }
SYMV_LOOP(float, csymv_loop)
SYMV_LOOP(double, zsymv_loop)

/* A += alpha x x^T (y = NULL) or alpha (x y^T + y x^T), one triangle;
 * columns j with x_j = 0 (and y_j = 0) are skipped, as in reference BLAS. */
#define SYR_LOOP(R, NAME)                                                                          \
    static void NAME(trn_uplo uplo, int n, const R *al, const R *x, int incx, const R *y,          \
                     int incy, R *a, int lda) {                                                    \
        const ptrdiff_t kx = first(n, incx), ky = y ? first(n, incy) : 0;                          \
        for (int j = 0; j < n; j++) {                                                              \
            const R *xj = x + 2 * (kx + (ptrdiff_t)j * incx);                                      \
            const R *yj = y ? y + 2 * (ky + (ptrdiff_t)j * incy) : xj;                             \
            if (xj[0] == 0 && xj[1] == 0 && yj[0] == 0 && yj[1] == 0)                              \
                continue;                                                                          \
            /* t1 multiplies x_i, t2 y_i (syr: t1 = alpha x_j, no t2). */                          \
            const R t1r = al[0] * yj[0] - al[1] * yj[1], t1i = al[0] * yj[1] + al[1] * yj[0];      \
            const R t2r = al[0] * xj[0] - al[1] * xj[1], t2i = al[0] * xj[1] + al[1] * xj[0];      \
            R *col = a + 2 * (size_t)j * (size_t)lda;                                              \
            const int i0 = uplo == TRN_UPLO_UPPER ? 0 : j;                                         \
            const int i1 = uplo == TRN_UPLO_UPPER ? j + 1 : n;                                     \
            for (int i = i0; i < i1; i++) {                                                        \
                const R *xi = x + 2 * (kx + (ptrdiff_t)i * incx);                                  \
                R re = xi[0] * t1r - xi[1] * t1i, im = xi[0] * t1i + xi[1] * t1r;                  \
                if (y) {                                                                           \
                    const R *yi = y + 2 * (ky + (ptrdiff_t)i * incy);                              \
                    re += yi[0] * t2r - yi[1] * t2i;                                               \
                    im += yi[0] * t2i + yi[1] * t2r;                                               \
                }                                                                                  \
                col[2 * i] += re;                                                                  \
                col[2 * i + 1] += im;                                                              \
            }                                                                                      \
        }                                                                                          \
    }
SYR_LOOP(float, csyr_loop)
SYR_LOOP(double, zsyr_loop)

/* ---- y = beta y ---------------------------------------------------------- */

#define SCALE_LOOP(R, NAME)                                                                        \
    static void NAME(int cx, int len, R *y, int inc, trn_scalar beta) {                            \
        const size_t step = (size_t)(inc < 0 ? -(ptrdiff_t)inc : inc) * (cx ? 2 : 1);              \
        const R br = (R)beta.re, bi = (R)beta.im;                                                  \
        for (int i = 0; i < len; i++, y += step) {                                                 \
            if (br == 0 && bi == 0) {                                                              \
                y[0] = 0;                                                                          \
                if (cx)                                                                            \
                    y[1] = 0;                                                                      \
            } else if (!cx) {                                                                      \
                y[0] = br * y[0];                                                                  \
            } else {                                                                               \
                const R re = br * y[0] - bi * y[1], im = br * y[1] + bi * y[0];                    \
                y[0] = re;                                                                         \
                y[1] = im;                                                                         \
            }                                                                                      \
        }                                                                                          \
    }
SCALE_LOOP(float, scale_f)
SCALE_LOOP(double, scale_d)

static void scale_y(const trn_blas2_desc *d, int len) {
    if (d->beta.re == 1.0 && d->beta.im == 0.0)
        return;
    const int cx = d->type == TRN_DTYPE_C32F || d->type == TRN_DTYPE_C64F;
    if (d->type == TRN_DTYPE_R32F || d->type == TRN_DTYPE_C32F)
        scale_f(cx, len, d->y, d->incy, d->beta);
    else
        scale_d(cx, len, d->y, d->incy, d->beta);
}

/* ---- the routines ---------------------------------------------------------- */

/* The n elements of x (increment inc) in traversal order, contiguous, in a
 * block of n + 1 elements from malloc (the last one is slack); NULL without
 * memory. */
static void *gather(const void *x, int n, int inc, size_t es) {
    char *c = calloc((size_t)n + 1, es);
    if (!c)
        return NULL;
    const char *src = (const char *)x + first(n, inc) * (ptrdiff_t)es;
    for (int i = 0; i < n; i++)
        memcpy(c + (size_t)i * es, src + (ptrdiff_t)i * inc * (ptrdiff_t)es, es);
    return c;
}

/* The inverse of gather: the n contiguous elements of c into y. */
static void scatter(const void *c, int n, int inc, size_t es, void *y) {
    char *dst = (char *)y + first(n, inc) * (ptrdiff_t)es;
    for (int i = 0; i < n; i++)
        memcpy(dst + (ptrdiff_t)i * inc * (ptrdiff_t)es, (const char *)c + (size_t)i * es, es);
}

/* Complex hemv on contiguous copies of x and y with slack after them (see
 * the top of the file). */
static trn_kstatus hemv_copied(const trn_blas2_desc *d, const void *alpha, const void *one) {
    const size_t es = trn_dtype_size(d->type);
    void *xc = gather(d->x, d->n, d->incx, es), *yc = gather(d->y, d->n, d->incy, es);
    if (!xc || !yc) {
        free(xc);
        free(yc);
        return TRN_KSTATUS_NO_MEMORY;
    }
    const enum CBLAS_UPLO ul = trn_cb_uplo(d->uplo);
    if (d->type == TRN_DTYPE_C32F)
        TRN_LIB(cblas_chemv)(CblasColMajor, ul, d->n, alpha, d->a, d->lda, xc, 1, one, yc, 1);
    else
        TRN_LIB(cblas_zhemv)(CblasColMajor, ul, d->n, alpha, d->a, d->lda, xc, 1, one, yc, 1);
    scatter(yc, d->n, d->incy, es, d->y);
    free(xc);
    free(yc);
    return TRN_KSTATUS_OK;
}

/* y += alpha op(A) x (gemv, gbmv, symv, hemv); y was scaled already. */
static trn_kstatus product(const trn_blas2_desc *d) {
    const enum CBLAS_ORDER o = CblasColMajor;
    const enum CBLAS_TRANSPOSE tr = trn_cb_trans(d->trans);
    const enum CBLAS_UPLO ul = trn_cb_uplo(d->uplo);
    const int m = d->m, n = d->n;
    const float af[2] = {(float)d->alpha.re, (float)d->alpha.im}, onef[2] = {1.0f, 0.0f};
    const double ad[2] = {d->alpha.re, d->alpha.im}, oned[2] = {1.0, 0.0};
    switch (d->type) {
    case TRN_DTYPE_R32F:
        switch (d->fn) {
        case TRN_BLAS2_GEMV:
            TRN_LIB(cblas_sgemv)
            (o, tr, m, n, af[0], d->a, d->lda, d->x, d->incx, 1.0f, d->y, d->incy);
            return TRN_KSTATUS_OK;
        case TRN_BLAS2_GBMV:
            TRN_LIB(cblas_sgbmv)
            (o, tr, m, n, d->kl, d->ku, af[0], d->a, d->lda, d->x, d->incx, 1.0f, d->y, d->incy);
            return TRN_KSTATUS_OK;
        case TRN_BLAS2_SYMV:
            TRN_LIB(cblas_ssymv)(o, ul, n, af[0], d->a, d->lda, d->x, d->incx, 1.0f, d->y, d->incy);
            return TRN_KSTATUS_OK;
        default: return TRN_KSTATUS_UNSUPPORTED;
        }
    case TRN_DTYPE_R64F:
        switch (d->fn) {
        case TRN_BLAS2_GEMV:
            TRN_LIB(cblas_dgemv)
            (o, tr, m, n, ad[0], d->a, d->lda, d->x, d->incx, 1.0, d->y, d->incy);
            return TRN_KSTATUS_OK;
        case TRN_BLAS2_GBMV:
            TRN_LIB(cblas_dgbmv)
            (o, tr, m, n, d->kl, d->ku, ad[0], d->a, d->lda, d->x, d->incx, 1.0, d->y, d->incy);
            return TRN_KSTATUS_OK;
        case TRN_BLAS2_SYMV:
            TRN_LIB(cblas_dsymv)(o, ul, n, ad[0], d->a, d->lda, d->x, d->incx, 1.0, d->y, d->incy);
            return TRN_KSTATUS_OK;
        default: return TRN_KSTATUS_UNSUPPORTED;
        }
    case TRN_DTYPE_C32F:
        switch (d->fn) {
        case TRN_BLAS2_GEMV:
            TRN_LIB(cblas_cgemv)(o, tr, m, n, af, d->a, d->lda, d->x, d->incx, onef, d->y, d->incy);
            return TRN_KSTATUS_OK;
        case TRN_BLAS2_GBMV:
            TRN_LIB(cblas_cgbmv)
            (o, tr, m, n, d->kl, d->ku, af, d->a, d->lda, d->x, d->incx, onef, d->y, d->incy);
            return TRN_KSTATUS_OK;
        case TRN_BLAS2_SYMV:
            csymv_loop(d->uplo, n, af, d->a, d->lda, d->x, d->incx, d->y, d->incy);
            return TRN_KSTATUS_OK;
        case TRN_BLAS2_HEMV: return hemv_copied(d, af, onef);
        default: return TRN_KSTATUS_UNSUPPORTED;
        }
    case TRN_DTYPE_C64F:
        switch (d->fn) {
        case TRN_BLAS2_GEMV:
            TRN_LIB(cblas_zgemv)(o, tr, m, n, ad, d->a, d->lda, d->x, d->incx, oned, d->y, d->incy);
            return TRN_KSTATUS_OK;
        case TRN_BLAS2_GBMV:
            TRN_LIB(cblas_zgbmv)
            (o, tr, m, n, d->kl, d->ku, ad, d->a, d->lda, d->x, d->incx, oned, d->y, d->incy);
            return TRN_KSTATUS_OK;
        case TRN_BLAS2_SYMV:
            zsymv_loop(d->uplo, n, ad, d->a, d->lda, d->x, d->incx, d->y, d->incy);
            return TRN_KSTATUS_OK;
        case TRN_BLAS2_HEMV: return hemv_copied(d, ad, oned);
        default: return TRN_KSTATUS_UNSUPPORTED;
        }
    TRN_DTYPE_GEMM_ONLY_CASES:
        break; /* GEMM only */
    }
    return TRN_KSTATUS_UNSUPPORTED;
}

/* x = op(A) x or x = op(A)^-1 x (trmv, trsv). */
static trn_kstatus triangular(const trn_blas2_desc *d) {
    const enum CBLAS_ORDER o = CblasColMajor;
    const enum CBLAS_UPLO ul = trn_cb_uplo(d->uplo);
    const enum CBLAS_TRANSPOSE tr = trn_cb_trans(d->trans);
    const enum CBLAS_DIAG dg = trn_cb_diag(d->diag);
    const int solve = d->fn == TRN_BLAS2_TRSV, n = d->n;
    switch (d->type) {
    case TRN_DTYPE_R32F:
        if (solve)
            TRN_LIB(cblas_strsv)(o, ul, tr, dg, n, d->a, d->lda, d->x, d->incx);
        else
            TRN_LIB(cblas_strmv)(o, ul, tr, dg, n, d->a, d->lda, d->x, d->incx);
        return TRN_KSTATUS_OK;
    case TRN_DTYPE_R64F:
        if (solve)
            TRN_LIB(cblas_dtrsv)(o, ul, tr, dg, n, d->a, d->lda, d->x, d->incx);
        else
            TRN_LIB(cblas_dtrmv)(o, ul, tr, dg, n, d->a, d->lda, d->x, d->incx);
        return TRN_KSTATUS_OK;
    case TRN_DTYPE_C32F:
        if (solve)
            TRN_LIB(cblas_ctrsv)(o, ul, tr, dg, n, d->a, d->lda, d->x, d->incx);
        else
            TRN_LIB(cblas_ctrmv)(o, ul, tr, dg, n, d->a, d->lda, d->x, d->incx);
        return TRN_KSTATUS_OK;
    case TRN_DTYPE_C64F:
        if (solve)
            TRN_LIB(cblas_ztrsv)(o, ul, tr, dg, n, d->a, d->lda, d->x, d->incx);
        else
            TRN_LIB(cblas_ztrmv)(o, ul, tr, dg, n, d->a, d->lda, d->x, d->incx);
        return TRN_KSTATUS_OK;
    TRN_DTYPE_GEMM_ONLY_CASES:
        break; /* GEMM only */
    }
    return TRN_KSTATUS_UNSUPPORTED;
}

/* The rank-1 and rank-2 updates of A (ger, gerc, syr, syr2, her, her2). */
static trn_kstatus update(const trn_blas2_desc *d) {
    const enum CBLAS_ORDER o = CblasColMajor;
    const enum CBLAS_UPLO ul = trn_cb_uplo(d->uplo);
    const int m = d->m, n = d->n;
    const float af[2] = {(float)d->alpha.re, (float)d->alpha.im};
    const double ad[2] = {d->alpha.re, d->alpha.im};
    switch (d->type) {
    case TRN_DTYPE_R32F:
        switch (d->fn) {
        case TRN_BLAS2_GER:
            TRN_LIB(cblas_sger)(o, m, n, af[0], d->x, d->incx, d->y, d->incy, d->a, d->lda);
            return TRN_KSTATUS_OK;
        case TRN_BLAS2_SYR:
            TRN_LIB(cblas_ssyr)(o, ul, n, af[0], d->x, d->incx, d->a, d->lda);
            break;
        case TRN_BLAS2_SYR2:
            TRN_LIB(cblas_ssyr2)(o, ul, n, af[0], d->x, d->incx, d->y, d->incy, d->a, d->lda);
            break;
        default: return TRN_KSTATUS_UNSUPPORTED;
        }
        return TRN_KSTATUS_OK;
    case TRN_DTYPE_R64F:
        switch (d->fn) {
        case TRN_BLAS2_GER:
            TRN_LIB(cblas_dger)(o, m, n, ad[0], d->x, d->incx, d->y, d->incy, d->a, d->lda);
            return TRN_KSTATUS_OK;
        case TRN_BLAS2_SYR:
            TRN_LIB(cblas_dsyr)(o, ul, n, ad[0], d->x, d->incx, d->a, d->lda);
            break;
        case TRN_BLAS2_SYR2:
            TRN_LIB(cblas_dsyr2)(o, ul, n, ad[0], d->x, d->incx, d->y, d->incy, d->a, d->lda);
            break;
        default: return TRN_KSTATUS_UNSUPPORTED;
        }
        return TRN_KSTATUS_OK;
    case TRN_DTYPE_C32F:
        switch (d->fn) {
        case TRN_BLAS2_GER:
            TRN_LIB(cblas_cgeru)(o, m, n, af, d->x, d->incx, d->y, d->incy, d->a, d->lda);
            break;
        case TRN_BLAS2_GERC:
            TRN_LIB(cblas_cgerc)(o, m, n, af, d->x, d->incx, d->y, d->incy, d->a, d->lda);
            break;
        case TRN_BLAS2_SYR: csyr_loop(d->uplo, n, af, d->x, d->incx, NULL, 0, d->a, d->lda); break;
        case TRN_BLAS2_SYR2:
            csyr_loop(d->uplo, n, af, d->x, d->incx, d->y, d->incy, d->a, d->lda);
            break;
        case TRN_BLAS2_HER:
            TRN_LIB(cblas_cher)(o, ul, n, af[0], d->x, d->incx, d->a, d->lda);
            break;
        case TRN_BLAS2_HER2:
            TRN_LIB(cblas_cher2)(o, ul, n, af, d->x, d->incx, d->y, d->incy, d->a, d->lda);
            break;
        default: return TRN_KSTATUS_UNSUPPORTED;
        }
        return TRN_KSTATUS_OK;
    case TRN_DTYPE_C64F:
        switch (d->fn) {
        case TRN_BLAS2_GER:
            TRN_LIB(cblas_zgeru)(o, m, n, ad, d->x, d->incx, d->y, d->incy, d->a, d->lda);
            break;
        case TRN_BLAS2_GERC:
            TRN_LIB(cblas_zgerc)(o, m, n, ad, d->x, d->incx, d->y, d->incy, d->a, d->lda);
            break;
        case TRN_BLAS2_SYR: zsyr_loop(d->uplo, n, ad, d->x, d->incx, NULL, 0, d->a, d->lda); break;
        case TRN_BLAS2_SYR2:
            zsyr_loop(d->uplo, n, ad, d->x, d->incx, d->y, d->incy, d->a, d->lda);
            break;
        case TRN_BLAS2_HER:
            TRN_LIB(cblas_zher)(o, ul, n, ad[0], d->x, d->incx, d->a, d->lda);
            break;
        case TRN_BLAS2_HER2:
            TRN_LIB(cblas_zher2)(o, ul, n, ad, d->x, d->incx, d->y, d->incy, d->a, d->lda);
            break;
        default: return TRN_KSTATUS_UNSUPPORTED;
        }
        return TRN_KSTATUS_OK;
    TRN_DTYPE_GEMM_ONLY_CASES:
        break; /* GEMM only */
    }
    return TRN_KSTATUS_UNSUPPORTED;
}

/* The op on one tile (or the whole op): scalars read, quick returns, then
 * the library. */
static trn_kstatus run_tile(const trn_blas2_desc *desc) {
    trn_blas2_desc d = *desc;
    const int real = d.type == TRN_DTYPE_R32F || d.type == TRN_DTYPE_R64F;
    if (d.alpha_ptr)
        d.alpha = trn_cpu_load_scalar(d.type, d.alpha_ptr,
                                      real || d.fn == TRN_BLAS2_HER || d.fn == TRN_BLAS2_HPR);
    if (d.beta_ptr)
        d.beta = trn_cpu_load_scalar(d.type, d.beta_ptr, real);
    const int alpha0 = d.alpha.re == 0.0 && d.alpha.im == 0.0;
    switch (d.fn) {
    case TRN_BLAS2_GEMV:
    case TRN_BLAS2_GBMV:
    case TRN_BLAS2_SYMV:
    case TRN_BLAS2_HEMV:
    case TRN_BLAS2_SBMV:
    case TRN_BLAS2_HBMV:
    case TRN_BLAS2_SPMV:
    case TRN_BLAS2_HPMV: {
        const int beta1 = d.beta.re == 1.0 && d.beta.im == 0.0;
        if (alpha0 && beta1)
            return TRN_KSTATUS_OK;
        const int gemv = d.fn == TRN_BLAS2_GEMV || d.fn == TRN_BLAS2_GBMV;
        scale_y(&d, gemv && d.trans != TRN_TRANS_N ? d.n : d.m);
        if (alpha0)
            return TRN_KSTATUS_OK;
        return d.fn >= TRN_BLAS2_SBMV ? trn_cpu_blas2_band(&d) : product(&d);
    }
    case TRN_BLAS2_TBMV:
    case TRN_BLAS2_TBSV:
    case TRN_BLAS2_TPMV:
    case TRN_BLAS2_TPSV: return trn_cpu_blas2_band(&d);
    case TRN_BLAS2_SPR:
    case TRN_BLAS2_HPR:
    case TRN_BLAS2_SPR2:
    case TRN_BLAS2_HPR2: return alpha0 ? TRN_KSTATUS_OK : trn_cpu_blas2_band(&d);
    case TRN_BLAS2_TRMV:
    case TRN_BLAS2_TRSV: return triangular(&d);
    case TRN_BLAS2_GER:
    case TRN_BLAS2_GERC:
    case TRN_BLAS2_SYR:
    case TRN_BLAS2_SYR2:
    case TRN_BLAS2_HER:
    case TRN_BLAS2_HER2: return alpha0 ? TRN_KSTATUS_OK : update(&d);
    }
    return TRN_KSTATUS_UNSUPPORTED;
}

/* Elements [lo, hi) of a vector of len elements with increment inc: the
 * address of the lowest of them (reference BLAS order for inc < 0). */
static void *sub(void *v, size_t es, int len, int inc, int lo, int hi) {
    const size_t step = (size_t)(inc < 0 ? -(ptrdiff_t)inc : inc) * es;
    return (char *)v + (size_t)(inc < 0 ? len - hi : lo) * step;
}

/* Tile [lo, hi) of a GEMV or GER/GERC as an op of its own (op.h). */
static trn_blas2_desc tile_of(const trn_blas2_desc *d, int lo, int hi) {
    trn_blas2_desc t = *d;
    const size_t es = trn_dtype_size(d->type);
    const int w = hi - lo;
    /* A is NULL with alpha = 0 in host pointer mode (not read). */
    if (d->fn == TRN_BLAS2_GEMV && d->trans == TRN_TRANS_N) { /* rows of A and y */
        t.m = w;
        t.a = d->a ? (char *)d->a + (size_t)lo * es : NULL;
        t.y = sub(d->y, es, d->m, d->incy, lo, hi);
    } else { /* columns of A, elements of y (n of them for gemv T/C and ger) */
        t.n = w;
        t.a = d->a ? (char *)d->a + (size_t)lo * (size_t)d->lda * es : NULL;
        t.y = sub(d->y, es, d->n, d->incy, lo, hi);
    }
    return t;
}

trn_kstatus trn_cpu_blas2(const trn_blas2_desc *desc, int shard, int nshards) {
    if (desc->m == 0 || desc->n == 0 || nshards < 1)
        return TRN_KSTATUS_OK; /* empty shapes do nothing */
    const int ntiles = trn_blas2_tiles(desc);
    if (ntiles <= 1)
        return shard == 0 ? run_tile(desc) : TRN_KSTATUS_OK;
    const int width = trn_blas3_tile_width(trn_blas2_tile_extent(desc));
    const int extent = trn_blas2_tile_extent(desc);
    size_t t0, t1;
    trn_cpu_shard_range((size_t)ntiles, shard, nshards, &t0, &t1);
    for (size_t t = t0; t < t1; t++) {
        const int lo = (int)t * width, hi = lo + width < extent ? lo + width : extent;
        const trn_blas2_desc tile = tile_of(desc, lo, hi);
        const trn_kstatus st = run_tile(&tile);
        if (st != TRN_KSTATUS_OK)
            return st;
    }
    return TRN_KSTATUS_OK;
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(blas2, trn_cpu_blas2(&op->u.blas2, shard, nshards))
