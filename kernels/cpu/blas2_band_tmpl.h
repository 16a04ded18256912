/*
 * blas2_band_tmpl.h — the band and packed Level 2 loops of one element type
 * (blas2_band.c includes it once per type with T, CX and SUF defined). No
 * include guard on purpose.
 *
 * A stored triangle element (i, j) is reached through at(): band storage
 * (uplo's k diagonals, k + 1 rows, lda) or packed storage (uplo's triangle
 * column by column). rows_of() gives the rows of column j that are stored.
 * The loops are reference BLAS's (dtbmv, dtbsv, dtpmv, dtpsv, dsbmv,
 * dspmv, dspr, dspr2 and their complex counterparts) in their order of
 * operations, accumulating in the element type.
 */
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define FN(name) CAT(name, SUF)

#if CX
#define CONJ_(v) CAT(conj, CONJSUF)(v)
#define RE_(v) CAT(creal, CONJSUF)(v)
#else
#define CONJ_(v) (v)
#define RE_(v) (v)
#endif

/* The address of stored element (i, j). */
static inline T *FN(at)(const band_shape *s, int i, int j) {
    T *a = s->a;
    if (s->packed) {
        if (s->upper)
            return a + (size_t)j * (size_t)(j + 1) / 2 + (size_t)i;
        return a + (size_t)j * (size_t)s->n - (size_t)j * (size_t)(j - 1) / 2 + (size_t)(i - j);
    }
    const ptrdiff_t r = s->upper ? s->k + i - j : i - j;
    return a + r + (ptrdiff_t)j * s->lda;
}

/* Element i of a vector (reference BLAS order for negative increments). */
static inline T *FN(el)(T *v, int n, int inc, int i) {
    return v + first(n, inc) + (ptrdiff_t)i * inc;
}

/* x = op(A) x (tbmv, tpmv). */
static void FN(trmv)(const band_shape *s, int trans, int nounit, T *x, int incx) {
    const int n = s->n, cj = trans == 2;
#define OPA(p) (cj ? CONJ_(*(p)) : *(p))
    if (trans == 0) {
        for (int jj = 0; jj < n; jj++) {
            const int j = s->upper ? jj : n - 1 - jj;
            T *xj = FN(el)(x, n, incx, j);
            if (*xj == 0)
                continue;
            const T temp = *xj;
            int lo, hi;
            rows_of(s, j, &lo, &hi);
            if (s->upper) {
                for (int i = lo; i < j; i++)
                    *FN(el)(x, n, incx, i) += temp * *FN(at)(s, i, j);
            } else {
                for (int i = hi; i > j; i--)
                    *FN(el)(x, n, incx, i) += temp * *FN(at)(s, i, j);
            }
            if (nounit)
                *xj *= *FN(at)(s, j, j);
        }
    } else {
        for (int jj = 0; jj < n; jj++) {
            const int j = s->upper ? n - 1 - jj : jj;
            T *xj = FN(el)(x, n, incx, j);
            T temp = *xj;
            if (nounit)
                temp *= OPA(FN(at)(s, j, j));
            int lo, hi;
            rows_of(s, j, &lo, &hi);
            if (s->upper) {
                for (int i = j - 1; i >= lo; i--)
                    temp += OPA(FN(at)(s, i, j)) * *FN(el)(x, n, incx, i);
            } else {
                for (int i = j + 1; i <= hi; i++)
                    temp += OPA(FN(at)(s, i, j)) * *FN(el)(x, n, incx, i);
            }
            *xj = temp;
        }
    }
}

/* Solves op(A) z = x, z overwrites x (tbsv, tpsv). */
static void FN(trsv)(const band_shape *s, int trans, int nounit, T *x, int incx) {
    const int n = s->n, cj = trans == 2;
    if (trans == 0) {
        for (int jj = 0; jj < n; jj++) {
            const int j = s->upper ? n - 1 - jj : jj;
            T *xj = FN(el)(x, n, incx, j);
            if (*xj == 0)
                continue;
            if (nounit)
                *xj /= *FN(at)(s, j, j);
            const T temp = *xj;
            int lo, hi;
            rows_of(s, j, &lo, &hi);
            if (s->upper) {
                for (int i = j - 1; i >= lo; i--)
                    *FN(el)(x, n, incx, i) -= temp * *FN(at)(s, i, j);
            } else {
                for (int i = j + 1; i <= hi; i++)
                    *FN(el)(x, n, incx, i) -= temp * *FN(at)(s, i, j);
            }
        }
    } else {
        for (int jj = 0; jj < n; jj++) {
            const int j = s->upper ? jj : n - 1 - jj;
            T *xj = FN(el)(x, n, incx, j);
            T temp = *xj;
            int lo, hi;
            rows_of(s, j, &lo, &hi);
            if (s->upper) {
                for (int i = lo; i < j; i++)
                    temp -= OPA(FN(at)(s, i, j)) * *FN(el)(x, n, incx, i);
            } else {
                for (int i = hi; i > j; i--)
                    temp -= OPA(FN(at)(s, i, j)) * *FN(el)(x, n, incx, i);
            }
            if (nounit)
                temp /= OPA(FN(at)(s, j, j));
            *xj = temp;
        }
    }
#undef OPA
}

/* y += alpha A x, A symmetric (herm = 0) or Hermitian (the diagonal's
 * imaginary parts not read); y was scaled by beta already (sbmv, hbmv,
 * spmv, hpmv). */
static void FN(symv)(const band_shape *s, int herm, T alpha, T *x, int incx, T *y, int incy) {
    const int n = s->n;
    for (int j = 0; j < n; j++) {
        const T temp1 = alpha * *FN(el)(x, n, incx, j);
        T temp2 = 0;
        int lo, hi;
        rows_of(s, j, &lo, &hi);
        for (int i = lo; i <= hi; i++) {
            if (i == j)
                continue;
            const T aij = *FN(at)(s, i, j);
            *FN(el)(y, n, incy, i) += temp1 * aij;
            temp2 += (herm ? CONJ_(aij) : aij) * *FN(el)(x, n, incx, i);
        }
        const T ajj = *FN(at)(s, j, j);
        *FN(el)(y, n, incy, j) += temp1 * (herm ? (T)RE_(ajj) : ajj) + alpha * temp2;
    }
}

/* A += alpha x x^T / x x^H (spr, hpr: alpha real), or alpha x y^T + alpha
 * y x^T / alpha x y^H + conj(alpha) y x^H (spr2, hpr2: y set), packed; a
 * Hermitian diagonal is left exactly real. */
static void FN(spr)(const band_shape *s, int herm, T alpha, T *x, int incx, T *y, int incy) {
    const int n = s->n;
    for (int j = 0; j < n; j++) {
        const T xj = *FN(el)(x, n, incx, j), yj = y ? *FN(el)(y, n, incy, j) : 0;
        T *d = FN(at)(s, j, j);
        if (xj == 0 && yj == 0) {
            if (herm)
                *d = RE_(*d);
            continue;
        }
        /* x_i t1 + y_i t2 (t2 = 0 for the rank-1 update) */
        const T t1 = y ? alpha * (herm ? CONJ_(yj) : yj) : alpha * (herm ? CONJ_(xj) : xj);
        const T t2 = y ? (herm ? CONJ_(alpha * xj) : alpha * xj) : 0;
        int lo, hi;
        rows_of(s, j, &lo, &hi);
        for (int i = lo; i <= hi; i++) {
            if (i == j)
                continue;
            T v = *FN(el)(x, n, incx, i) * t1;
            if (y)
                v += *FN(el)(y, n, incy, i) * t2;
            *FN(at)(s, i, j) += v;
        }
        T dv = xj * t1;
        if (y)
            dv += yj * t2;
        if (herm)
            *d = RE_(*d) + RE_(dv);
        else
            *d += dv;
    }
}

#undef CONJ_
#undef RE_
#undef FN
#undef CAT
#undef CAT_
