/*
 * refblas_kern.h — the vector kernels the in-tree Level 2 and Level 3 BLAS
 * are built from, for one element type: included by refblas2_tmpl.h and
 * refblas3_tmpl.h right after refblas_type.h, so once per type in a
 * translation unit; no include guard on purpose.
 *
 * The _k kernels work on contiguous, non-overlapping vectors (restrict)
 * and are what the compiler vectorises; the _g ones take increments (a
 * pointer to the logical first element, so a negative increment walks
 * down) and use the _k kernel when both increments are 1. cj conjugates
 * the vector operand x (complex types; real types ignore it).
 */

/* Names to call them by (the same on every inclusion). */
#define AXPY_K ST(axpy_k)
#define AXPY4_K ST(axpy4_k)
#define DOT_K ST(dot_k)
#define AXPY_G ST(axpy_g)
#define DOT_G ST(dot_g)
#define SCAL_G ST(scal_g)
#define SCAL_MAT ST(scal_mat)

/* y[0:n] += a op(x[0:n]). */
static inline void ST(axpy_k)(const ptrdiff_t n, const T a, const T *restrict x, T *restrict y,
                              const int cj) {
    if (CX && cj) {
        for (ptrdiff_t i = 0; i < n; i++)
            y[i] += MUL(a, CJ(x[i]));
    } else {
        for (ptrdiff_t i = 0; i < n; i++)
            y[i] += MUL(a, x[i]);
    }
}

/* y[0:n] += a0 op(x0) + a1 op(x1) + a2 op(x2) + a3 op(x3): four updates
 * in one pass over y. */
static inline void ST(axpy4_k)(const ptrdiff_t n, const T a0, const T a1, const T a2, const T a3,
                               const T *restrict x0, const T *restrict x1, const T *restrict x2,
                               const T *restrict x3, T *restrict y, const int cj) {
    if (CX && cj) {
        for (ptrdiff_t i = 0; i < n; i++)
            y[i] +=
                MUL(a0, CJ(x0[i])) + MUL(a1, CJ(x1[i])) + MUL(a2, CJ(x2[i])) + MUL(a3, CJ(x3[i]));
    } else {
        for (ptrdiff_t i = 0; i < n; i++)
            y[i] += MUL(a0, x0[i]) + MUL(a1, x1[i]) + MUL(a2, x2[i]) + MUL(a3, x3[i]);
    }
}

/* sum op(x_i) y_i over n contiguous elements, in four partial sums. */
static inline T ST(dot_k)(const ptrdiff_t n, const T *restrict x, const T *restrict y,
                          const int cj) {
    T s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    ptrdiff_t i = 0;
    if (CX && cj) {
        for (; i + 4 <= n; i += 4) {
            s0 += MUL(CJ(x[i]), y[i]);
            s1 += MUL(CJ(x[i + 1]), y[i + 1]);
            s2 += MUL(CJ(x[i + 2]), y[i + 2]);
            s3 += MUL(CJ(x[i + 3]), y[i + 3]);
        }
        for (; i < n; i++)
            s0 += MUL(CJ(x[i]), y[i]);
    } else {
        for (; i + 4 <= n; i += 4) {
            s0 += MUL(x[i], y[i]);
            s1 += MUL(x[i + 1], y[i + 1]);
            s2 += MUL(x[i + 2], y[i + 2]);
            s3 += MUL(x[i + 3], y[i + 3]);
        }
        for (; i < n; i++)
            s0 += MUL(x[i], y[i]);
    }
    return (s0 + s1) + (s2 + s3);
}

/* y += a op(x) with increments. */
static inline void ST(axpy_g)(const ptrdiff_t n, const T a, const T *x, const ptrdiff_t incx, T *y,
                              const ptrdiff_t incy, const int cj) {
    if (incx == 1 && incy == 1) {
        AXPY_K(n, a, x, y, cj);
        return;
    }
    for (ptrdiff_t i = 0; i < n; i++)
        y[i * incy] += MUL(a, CX && cj ? CJ(x[i * incx]) : x[i * incx]);
}

/* sum op(x_i) y_i with increments. */
static inline T ST(dot_g)(const ptrdiff_t n, const T *x, const ptrdiff_t incx, const T *y,
                          const ptrdiff_t incy, const int cj) {
    if (incx == 1 && incy == 1)
        return DOT_K(n, x, y, cj);
    T s = 0;
    for (ptrdiff_t i = 0; i < n; i++)
        s += MUL(CX && cj ? CJ(x[i * incx]) : x[i * incx], y[i * incy]);
    return s;
}

/* y = beta y over n elements with increment inc (any sign: y points to
 * the logical first element); beta = 0 writes zeros without reading y,
 * beta = 1 leaves y alone. */
static inline void ST(scal_g)(const ptrdiff_t n, const T beta, T *y, const ptrdiff_t inc) {
    if (beta == 1)
        return;
    if (beta == 0) {
        for (ptrdiff_t i = 0; i < n; i++)
            y[i * inc] = 0;
    } else {
        for (ptrdiff_t i = 0; i < n; i++)
            y[i * inc] = MUL(beta, y[i * inc]);
    }
}

/* C = beta C for an m x n matrix: zeros without reading C for beta = 0,
 * nothing for beta = 1. */
static inline void ST(scal_mat)(const int m, const int n, const T beta, T *c, const ptrdiff_t ldc) {
    if (beta == 1)
        return;
    for (int j = 0; j < n; j++) {
        T *cj = c + (ptrdiff_t)j * ldc;
        if (beta == 0) {
            for (int i = 0; i < m; i++)
                cj[i] = 0;
        } else {
            for (int i = 0; i < m; i++)
                cj[i] = MUL(beta, cj[i]);
        }
    }
}
