/*
 * refblas2_tmpl.h — the in-tree BLAS Level 2 routines of one element type;
 * included by refblas2.c once per type with RB_KIND defined (see
 * refblas_type.h). No include guard on purpose.
 *
 * Real types get gemv, gbmv, symv, trmv, trsv, ger, syr, syr2; complex
 * types gemv, gbmv, hemv, trmv, trsv, geru, gerc, her, her2. The Hermitian
 * routines and their real symmetric counterparts share one body: RE() and
 * CJ() are the identity on real types.
 *
 * Matrices are walked by columns (contiguous): NoTrans products and rank
 * updates as axpys into a column, transposed products as dot products
 * with a column. gemv and ger go through a block of at most RB_NBUF rows
 * at a time, with the block of the strided vector copied to a buffer on
 * the stack, so that the vector block stays in L1 while the columns pass.
 */
#include "kernels/cpu/refblas/refblas_type.h"
/* After the type: the kernels are written in its macros. */
#include "kernels/cpu/refblas/refblas_kern.h"

#define A_(i, j) a[(i) + (j) * (ptrdiff_t)(ld)]
#define DO_GER ST(ger)

#if CX
#define SYMV_NAME RB_FN(hemv)
#define SYR_NAME RB_FN(her)
#define SYR2_NAME RB_FN(her2)
#else
#define SYMV_NAME RB_FN(symv)
#define SYR_NAME RB_FN(syr)
#define SYR2_NAME RB_FN(syr2)
#endif

/* op(d) for an element of A: conjugated when cj. */
static inline T ST(opa)(const T d, const int cj) {
    return CX && cj ? CJ(d) : d;
}

void RB_FN(gemv)(const enum CBLAS_ORDER order, const enum CBLAS_TRANSPOSE trans, const int m,
                 const int n, const SARG alpha_, CVP va, const int lda, CVP vx, const int incx,
                 const SARG beta_, VP vy, const int incy) {
    int tr, cj;
    if (order != CblasColMajor || !rb_trans(trans, &tr, &cj) || m < 0 || n < 0 ||
        lda < rb_max1(m) || incx == 0 || incy == 0)
        return;
    const T alpha = GETS(alpha_), beta = GETS(beta_);
    if (m == 0 || n == 0 || (alpha == 0 && beta == 1))
        return;
    const T *a = (const T *)va;
    const ptrdiff_t ld = lda;
    const int lenx = tr ? m : n, leny = tr ? n : m;
    const T *x = (const T *)vx + rb_first(lenx, incx);
    T *y = (T *)vy + rb_first(leny, incy);
    T buf[RB_NBUF];

    if (!tr) {
        /* y = beta y + alpha op(A) x by blocks of rows, accumulated in buf. */
        for (int i0 = 0; i0 < m; i0 += RB_NBUF) {
            const int b = rb_min(RB_NBUF, m - i0);
            T *yb = y + (ptrdiff_t)i0 * incy;
            if (beta == 0) {
                for (int i = 0; i < b; i++)
                    buf[i] = 0;
            } else {
                for (int i = 0; i < b; i++)
                    buf[i] = MUL(beta, yb[(ptrdiff_t)i * incy]);
            }
            if (alpha != 0) {
                int j = 0;
                for (; j + 4 <= n; j += 4)
                    AXPY4_K(b, MUL(alpha, x[(ptrdiff_t)j * incx]),
                            MUL(alpha, x[(ptrdiff_t)(j + 1) * incx]),
                            MUL(alpha, x[(ptrdiff_t)(j + 2) * incx]),
                            MUL(alpha, x[(ptrdiff_t)(j + 3) * incx]), &A_(i0, j), &A_(i0, j + 1),
                            &A_(i0, j + 2), &A_(i0, j + 3), buf, cj);
                for (; j < n; j++)
                    AXPY_K(b, MUL(alpha, x[(ptrdiff_t)j * incx]), &A_(i0, j), buf, cj);
            }
            for (int i = 0; i < b; i++)
                yb[(ptrdiff_t)i * incy] = buf[i];
        }
        return;
    }

    /* y = beta y, then y_j += alpha op(A(:, j)) . x by blocks of rows. */
    SCAL_G(n, beta, y, incy);
    if (alpha == 0)
        return;
    for (int i0 = 0; i0 < m; i0 += RB_NBUF) {
        const int b = rb_min(RB_NBUF, m - i0);
        const T *xb = x + i0;
        if (incx != 1) {
            for (int i = 0; i < b; i++)
                buf[i] = x[(ptrdiff_t)(i0 + i) * incx];
            xb = buf;
        }
        for (int j = 0; j < n; j++)
            y[(ptrdiff_t)j * incy] += MUL(alpha, DOT_K(b, &A_(i0, j), xb, cj));
    }
}

void RB_FN(gbmv)(const enum CBLAS_ORDER order, const enum CBLAS_TRANSPOSE trans, const int m,
                 const int n, const int kl, const int ku, const SARG alpha_, CVP va, const int lda,
                 CVP vx, const int incx, const SARG beta_, VP vy, const int incy) {
    int tr, cj;
    if (order != CblasColMajor || !rb_trans(trans, &tr, &cj) || m < 0 || n < 0 || kl < 0 ||
        ku < 0 || lda < kl + ku + 1 || incx == 0 || incy == 0)
        return;
    const T alpha = GETS(alpha_), beta = GETS(beta_);
    if (m == 0 || n == 0 || (alpha == 0 && beta == 1))
        return;
    const T *a = (const T *)va;
    const ptrdiff_t ld = lda;
    const int lenx = tr ? m : n, leny = tr ? n : m;
    const T *x = (const T *)vx + rb_first(lenx, incx);
    T *y = (T *)vy + rb_first(leny, incy);

    SCAL_G(leny, beta, y, incy);
    if (alpha == 0)
        return;
    /* Column j holds rows max(0, j - ku) .. min(m - 1, j + kl), row i at
     * band row ku + i - j. */
    const int jmax = rb_min(n, m + ku);
    for (int j = 0; j < jmax; j++) {
        const int lo = j > ku ? j - ku : 0, hi = rb_min(m, j + kl + 1);
        const T *col = &A_(ku + lo - j, j);
        if (!tr)
            AXPY_G(hi - lo, MUL(alpha, x[(ptrdiff_t)j * incx]), col, 1, y + (ptrdiff_t)lo * incy,
                   incy, cj);
        else
            y[(ptrdiff_t)j * incy] +=
                MUL(alpha, DOT_G(hi - lo, col, 1, x + (ptrdiff_t)lo * incx, incx, cj));
    }
}

/* ssymv, dsymv; chemv, zhemv (the imaginary part of the diagonal is not
 * read). */
void SYMV_NAME(const enum CBLAS_ORDER order, const enum CBLAS_UPLO uplo, const int n,
               const SARG alpha_, CVP va, const int lda, CVP vx, const int incx, const SARG beta_,
               VP vy, const int incy) {
    if (order != CblasColMajor || !rb_uplo_ok(uplo) || n < 0 || lda < rb_max1(n) || incx == 0 ||
        incy == 0)
        return;
    const T alpha = GETS(alpha_), beta = GETS(beta_);
    if (n == 0 || (alpha == 0 && beta == 1))
        return;
    const T *a = (const T *)va;
    const ptrdiff_t ld = lda, ix = incx, iy = incy;
    const T *x = (const T *)vx + rb_first(n, incx);
    T *y = (T *)vy + rb_first(n, incy);

    SCAL_G(n, beta, y, iy);
    if (alpha == 0)
        return;
    /* Column j of the stored triangle gives y(other rows) += t1 A(:, j)
     * and, through the symmetry, y_j += alpha op(A(:, j)) . x. */
    for (int j = 0; j < n; j++) {
        const T t1 = MUL(alpha, x[j * ix]);
        const T d = RMUL(RE(A_(j, j)), t1);
        if (uplo == CblasUpper) {
            AXPY_G(j, t1, &A_(0, j), 1, y, iy, 0);
            const T t2 = DOT_G(j, &A_(0, j), 1, x, ix, 1);
            y[j * iy] += d + MUL(alpha, t2);
        } else {
            const int r = n - j - 1;
            T t2 = 0;
            if (r > 0) {
                AXPY_G(r, t1, &A_(j + 1, j), 1, y + (j + 1) * iy, iy, 0);
                t2 = DOT_G(r, &A_(j + 1, j), 1, x + (j + 1) * ix, ix, 1);
            }
            y[j * iy] += d + MUL(alpha, t2);
        }
    }
}

void RB_FN(trmv)(const enum CBLAS_ORDER order, const enum CBLAS_UPLO uplo,
                 const enum CBLAS_TRANSPOSE trans, const enum CBLAS_DIAG diag, const int n, CVP va,
                 const int lda, VP vx, const int incx) {
    int tr, cj;
    if (order != CblasColMajor || !rb_uplo_ok(uplo) || !rb_trans(trans, &tr, &cj) ||
        !rb_diag_ok(diag) || n < 0 || lda < rb_max1(n) || incx == 0)
        return;
    if (n == 0)
        return;
    const T *a = (const T *)va;
    const ptrdiff_t ld = lda, ix = incx;
    T *x = (T *)vx + rb_first(n, incx);
    const int nounit = diag == CblasNonUnit, upper = uplo == CblasUpper;

    if (!tr && upper) {
        /* x_j is final once column j has been added to the rows above. */
        for (int j = 0; j < n; j++) {
            const T t = x[j * ix];
            if (t != 0) {
                AXPY_G(j, t, &A_(0, j), 1, x, ix, cj);
                if (nounit)
                    x[j * ix] = MUL(t, ST(opa)(A_(j, j), cj));
            }
        }
    } else if (!tr) {
        for (int j = n - 1; j >= 0; j--) {
            const T t = x[j * ix];
            if (t != 0) {
                if (j + 1 < n)
                    AXPY_G(n - j - 1, t, &A_(j + 1, j), 1, x + (j + 1) * ix, ix, cj);
                if (nounit)
                    x[j * ix] = MUL(t, ST(opa)(A_(j, j), cj));
            }
        }
    } else if (upper) {
        /* x_j = op(A(:, j)) . x over the rows at or above j, still old. */
        for (int j = n - 1; j >= 0; j--) {
            T t = x[j * ix];
            if (nounit)
                t = MUL(t, ST(opa)(A_(j, j), cj));
            x[j * ix] = t + DOT_G(j, &A_(0, j), 1, x, ix, cj);
        }
    } else {
        for (int j = 0; j < n; j++) {
            T t = x[j * ix];
            if (nounit)
                t = MUL(t, ST(opa)(A_(j, j), cj));
            if (j + 1 < n)
                t += DOT_G(n - j - 1, &A_(j + 1, j), 1, x + (j + 1) * ix, ix, cj);
            x[j * ix] = t;
        }
    }
}

void RB_FN(trsv)(const enum CBLAS_ORDER order, const enum CBLAS_UPLO uplo,
                 const enum CBLAS_TRANSPOSE trans, const enum CBLAS_DIAG diag, const int n, CVP va,
                 const int lda, VP vx, const int incx) {
    int tr, cj;
    if (order != CblasColMajor || !rb_uplo_ok(uplo) || !rb_trans(trans, &tr, &cj) ||
        !rb_diag_ok(diag) || n < 0 || lda < rb_max1(n) || incx == 0)
        return;
    if (n == 0)
        return;
    const T *a = (const T *)va;
    const ptrdiff_t ld = lda, ix = incx;
    T *x = (T *)vx + rb_first(n, incx);
    const int nounit = diag == CblasNonUnit, upper = uplo == CblasUpper;

    if (!tr && upper) {
        /* Back substitution by columns: solve x_j, remove it from above. */
        for (int j = n - 1; j >= 0; j--) {
            T t = x[j * ix];
            if (t != 0) {
                if (nounit)
                    x[j * ix] = t = DIV(t, ST(opa)(A_(j, j), cj));
                AXPY_G(j, -t, &A_(0, j), 1, x, ix, cj);
            }
        }
    } else if (!tr) {
        for (int j = 0; j < n; j++) {
            T t = x[j * ix];
            if (t != 0) {
                if (nounit)
                    x[j * ix] = t = DIV(t, ST(opa)(A_(j, j), cj));
                if (j + 1 < n)
                    AXPY_G(n - j - 1, -t, &A_(j + 1, j), 1, x + (j + 1) * ix, ix, cj);
            }
        }
    } else if (upper) {
        /* op(A)^T: x_j = (x_j - op(A(0:j, j)) . x(0:j)) / op(A(j, j)). */
        for (int j = 0; j < n; j++) {
            T t = x[j * ix] - DOT_G(j, &A_(0, j), 1, x, ix, cj);
            if (nounit)
                t = DIV(t, ST(opa)(A_(j, j), cj));
            x[j * ix] = t;
        }
    } else {
        for (int j = n - 1; j >= 0; j--) {
            T t = x[j * ix];
            if (j + 1 < n)
                t -= DOT_G(n - j - 1, &A_(j + 1, j), 1, x + (j + 1) * ix, ix, cj);
            if (nounit)
                t = DIV(t, ST(opa)(A_(j, j), cj));
            x[j * ix] = t;
        }
    }
}

/* A += alpha x op(y)^T, op = conj when cj: by blocks of rows, the block of
 * x contiguous. */
static void ST(ger)(const enum CBLAS_ORDER order, const int m, const int n, const T alpha,
                    const T *x0, const int incx, const T *y0, const int incy, T *a, const int lda,
                    const int cj) {
    if (order != CblasColMajor || m < 0 || n < 0 || incx == 0 || incy == 0 || lda < rb_max1(m))
        return;
    if (m == 0 || n == 0 || alpha == 0)
        return;
    const ptrdiff_t ld = lda;
    const T *x = x0 + rb_first(m, incx), *y = y0 + rb_first(n, incy);
    T buf[RB_NBUF];
    for (int i0 = 0; i0 < m; i0 += RB_NBUF) {
        const int b = rb_min(RB_NBUF, m - i0);
        const T *xb = x + i0;
        if (incx != 1) {
            for (int i = 0; i < b; i++)
                buf[i] = x[(ptrdiff_t)(i0 + i) * incx];
            xb = buf;
        }
        for (int j = 0; j < n; j++)
            AXPY_K(b, MUL(alpha, ST(opa)(y[(ptrdiff_t)j * incy], cj)), xb, &A_(i0, j), 0);
    }
}

#if CX
void RB_FN(geru)(const enum CBLAS_ORDER order, const int m, const int n, const SARG alpha, CVP x,
                 const int incx, CVP y, const int incy, VP a, const int lda) {
    DO_GER(order, m, n, GETS(alpha), (const T *)x, incx, (const T *)y, incy, (T *)a, lda, 0);
}

void RB_FN(gerc)(const enum CBLAS_ORDER order, const int m, const int n, const SARG alpha, CVP x,
                 const int incx, CVP y, const int incy, VP a, const int lda) {
    DO_GER(order, m, n, GETS(alpha), (const T *)x, incx, (const T *)y, incy, (T *)a, lda, 1);
}
#else
void RB_FN(ger)(const enum CBLAS_ORDER order, const int m, const int n, const SARG alpha, CVP x,
                const int incx, CVP y, const int incy, VP a, const int lda) {
    DO_GER(order, m, n, alpha, x, incx, y, incy, a, lda, 0);
}
#endif

/* ssyr, dsyr: A += alpha x x^T; cher, zher: A += alpha x x^H with a real
 * alpha and a diagonal written exactly real. Only the uplo triangle. */
void SYR_NAME(const enum CBLAS_ORDER order, const enum CBLAS_UPLO uplo, const int n, const R alpha,
              CVP vx, const int incx, VP va, const int lda) {
    if (order != CblasColMajor || !rb_uplo_ok(uplo) || n < 0 || incx == 0 || lda < rb_max1(n))
        return;
    if (n == 0 || alpha == 0)
        return;
    T *a = (T *)va;
    const ptrdiff_t ld = lda, ix = incx;
    const T *x = (const T *)vx + rb_first(n, incx);
    for (int j = 0; j < n; j++) {
        const T t = RMUL(alpha, CJ(x[j * ix]));
        const T d = A_(j, j);
        if (uplo == CblasUpper)
            AXPY_G(j, t, x, ix, &A_(0, j), 1, 0);
        else if (j + 1 < n)
            AXPY_G(n - j - 1, t, x + (j + 1) * ix, ix, &A_(j + 1, j), 1, 0);
#if CX
        A_(j, j) = MK(RE(d) + RE(MUL(x[j * ix], t)), 0);
#else
        A_(j, j) = d + x[j * ix] * t;
#endif
    }
}

/* ssyr2, dsyr2: A += alpha (x y^T + y x^T); cher2, zher2: A += alpha x y^H
 * + conj(alpha) y x^H with the diagonal written exactly real. */
void SYR2_NAME(const enum CBLAS_ORDER order, const enum CBLAS_UPLO uplo, const int n,
               const SARG alpha_, CVP vx, const int incx, CVP vy, const int incy, VP va,
               const int lda) {
    if (order != CblasColMajor || !rb_uplo_ok(uplo) || n < 0 || incx == 0 || incy == 0 ||
        lda < rb_max1(n))
        return;
    const T alpha = GETS(alpha_);
    if (n == 0 || alpha == 0)
        return;
    T *a = (T *)va;
    const ptrdiff_t ld = lda, ix = incx, iy = incy;
    const T *x = (const T *)vx + rb_first(n, incx);
    const T *y = (const T *)vy + rb_first(n, incy);
    for (int j = 0; j < n; j++) {
        const T t1 = MUL(alpha, CJ(y[j * iy])), t2 = CJ(MUL(alpha, x[j * ix]));
        const T d = A_(j, j);
        if (uplo == CblasUpper) {
            AXPY_G(j, t1, x, ix, &A_(0, j), 1, 0);
            AXPY_G(j, t2, y, iy, &A_(0, j), 1, 0);
        } else if (j + 1 < n) {
            const int r = n - j - 1;
            AXPY_G(r, t1, x + (j + 1) * ix, ix, &A_(j + 1, j), 1, 0);
            AXPY_G(r, t2, y + (j + 1) * iy, iy, &A_(j + 1, j), 1, 0);
        }
        const T s = MUL(x[j * ix], t1) + MUL(y[j * iy], t2);
#if CX
        A_(j, j) = MK(RE(d) + RE(s), 0);
#else
        A_(j, j) = d + s;
#endif
    }
}

#undef A_
#undef DO_GER
#undef SYMV_NAME
#undef SYR_NAME
#undef SYR2_NAME
