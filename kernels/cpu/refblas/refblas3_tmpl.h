/*
 * refblas3_tmpl.h — the in-tree BLAS Level 3 routines of one element type;
 * included by refblas3.c once per type with RB_KIND defined (see
 * refblas_type.h). No include guard on purpose.
 *
 * Real types get gemm, symm, syrk, syr2k, trmm, trsm; complex types also
 * hemm, herk, her2k. gemm, syrk, syr2k, herk and her2k are built on two
 * products that update a full matrix or one triangle of it:
 *   nn: C += alpha op(A) op(B) with A not transposed, as axpy updates of
 *       the columns of C (four columns of A per pass over C);
 *   tn: C += alpha op(A)^T op(B), each element a dot product of a column
 *       of A with a column of op(B) (a row of B is gathered into a stack
 *       buffer first);
 * both blocked by RB_KB of the inner dimension and RB_MB rows of C so the
 * block of A stays in cache while every column of C passes over it.
 * symm, hemm, trmm and trsm follow reference BLAS's column algorithms;
 * their columns (left side) or rows (right side) are independent, and are
 * taken in groups that fit RB_CACHE_BYTES, so a column of A is reused
 * across the group while it is in L1.
 */
#include "kernels/cpu/refblas/refblas_type.h"
/* After the type: the kernels are written in its macros. */
#include "kernels/cpu/refblas/refblas_kern.h"

#define A_(i, j) a[(i) + (j) * (ptrdiff_t)(lda)]
#define B_(i, j) b[(i) + (j) * (ptrdiff_t)(ldb)]
#define C_(i, j) c[(i) + (j) * (ptrdiff_t)(ldc)]
/* Column j of the block of rows of B from i0 (right-side trmm, trsm). */
#define BB(j) (&B_(i0, j))
/* The static helpers of this type, by the names the routines call. */
#define SCAL_K ST(scal_k)
#define UPD_NN ST(nn)
#define UPD_TN ST(tn)
#define SCAL_TRI ST(scal_tri)
#define REAL_DIAG ST(real_diag)
#define DO_SYMM ST(symm)
#define DO_SYRK ST(syrk)
#define DO_SYR2K ST(syr2k)

static inline T ST(op)(const T v, const int cj) {
    return CX && cj ? CJ(v) : v;
}

/* x[0:n] *= s. */
static inline void ST(scal_k)(const ptrdiff_t n, const T s, T *restrict x) {
    for (ptrdiff_t i = 0; i < n; i++)
        x[i] = MUL(s, x[i]);
}

/* Rows lo..hi-1 of the block i0..i0+mb-1 that column j of a tri-shaped
 * update covers; 0 when none. */
static inline int ST(rows)(const int tri, const int i0, const int mb, const int j, int *lo,
                           int *hi) {
    *lo = i0;
    *hi = i0 + mb;
    if (tri == RB_UP && *hi > j + 1)
        *hi = j + 1;
    if (tri == RB_LO && *lo < j)
        *lo = j;
    return *lo < *hi;
}

/* op(B)(l, j): B(l, j), or B(j, l) when btr; conjugated when bcj. */
static inline T ST(opb)(const T *b, const ptrdiff_t ldb, const int l, const int j, const int btr,
                        const int bcj) {
    return ST(op)(btr ? B_(j, l) : B_(l, j), bcj);
}

/* C(i, j) += alpha sum_l op(A)(i, l) op(B)(l, j), A m x k not transposed
 * (conjugated when acj), for the rows of column j that tri selects. */
static void ST(nn)(const int m, const int n, const int k, const T alpha, const T *a,
                   const ptrdiff_t lda, const int acj, const T *b, const ptrdiff_t ldb,
                   const int btr, const int bcj, T *c, const ptrdiff_t ldc, const int tri) {
    for (int l0 = 0; l0 < k; l0 += RB_KB) {
        const int l1 = l0 + rb_min(RB_KB, k - l0);
        for (int i0 = 0; i0 < m; i0 += RB_MB) {
            const int mb = rb_min(RB_MB, m - i0);
            for (int j = 0; j < n; j++) {
                int lo, hi;
                if (!ST(rows)(tri, i0, mb, j, &lo, &hi))
                    continue;
                T *cc = &C_(lo, j);
                int l = l0;
                for (; l + 4 <= l1; l += 4)
                    AXPY4_K(hi - lo, MUL(alpha, ST(opb)(b, ldb, l, j, btr, bcj)),
                            MUL(alpha, ST(opb)(b, ldb, l + 1, j, btr, bcj)),
                            MUL(alpha, ST(opb)(b, ldb, l + 2, j, btr, bcj)),
                            MUL(alpha, ST(opb)(b, ldb, l + 3, j, btr, bcj)), &A_(lo, l),
                            &A_(lo, l + 1), &A_(lo, l + 2), &A_(lo, l + 3), cc, acj);
                for (; l < l1; l++)
                    AXPY_K(hi - lo, MUL(alpha, ST(opb)(b, ldb, l, j, btr, bcj)), &A_(lo, l), cc,
                           acj);
            }
        }
    }
}

/* C(i, j) += alpha sum_l op(A(l, i)) op(B)(l, j), A k x m (its columns are
 * the rows of op(A)^T, conjugated when acj), for the rows of column j that
 * tri selects. */
static void ST(tn)(const int m, const int n, const int k, const T alpha, const T *a,
                   const ptrdiff_t lda, const int acj, const T *b, const ptrdiff_t ldb,
                   const int btr, const int bcj, T *c, const ptrdiff_t ldc, const int tri) {
    T buf[RB_KB];
    for (int l0 = 0; l0 < k; l0 += RB_KB) {
        const int kb = rb_min(RB_KB, k - l0);
        for (int i0 = 0; i0 < m; i0 += RB_MB) {
            const int mb = rb_min(RB_MB, m - i0);
            for (int j = 0; j < n; j++) {
                int lo, hi;
                if (!ST(rows)(tri, i0, mb, j, &lo, &hi))
                    continue;
                const T *bj = &B_(l0, j);
                if (btr || (CX && bcj)) {
                    for (int l = 0; l < kb; l++)
                        buf[l] = ST(opb)(b, ldb, l0 + l, j, btr, bcj);
                    bj = buf;
                }
                for (int i = lo; i < hi; i++)
                    C_(i, j) += MUL(alpha, DOT_K(kb, &A_(l0, i), bj, acj));
            }
        }
    }
}

/* The uplo triangle of C = beta C (beta = 0: zeros, C not read). herm:
 * the diagonal becomes beta re(C(j, j)) + 0i, its imaginary part unread. */
static void ST(scal_tri)(const int n, const int upper, const T beta, T *c, const ptrdiff_t ldc,
                         const int herm) {
    for (int j = 0; j < n; j++) {
        const int lo = upper ? 0 : j, hi = upper ? j + 1 : n;
        const R dre = RE(C_(j, j));
        if (beta == 0) {
            for (int i = lo; i < hi; i++)
                C_(i, j) = 0;
        } else if (beta != 1) {
            for (int i = lo; i < hi; i++)
                C_(i, j) = MUL(beta, C_(i, j));
        }
        if (CX && herm)
            C_(j, j) = beta == 0 ? 0 : MK(RE(beta) * dre, 0);
    }
}

/* Zeroes the imaginary parts of the diagonal of C (herk, her2k). */
static void ST(real_diag)(const int n, T *c, const ptrdiff_t ldc) {
    for (int j = 0; j < n; j++)
        C_(j, j) = MK(RE(C_(j, j)), 0);
}

void RB_FN(gemm)(const enum CBLAS_ORDER order, const enum CBLAS_TRANSPOSE transa,
                 const enum CBLAS_TRANSPOSE transb, const int m, const int n, const int k,
                 const SARG alpha_, CVP va, const int lda, CVP vb, const int ldb, const SARG beta_,
                 VP vc, const int ldc) {
    int ta, acj, tb, bcj;
    if (order != CblasColMajor || !rb_trans(transa, &ta, &acj) || !rb_trans(transb, &tb, &bcj) ||
        m < 0 || n < 0 || k < 0 || lda < rb_max1(ta ? k : m) || ldb < rb_max1(tb ? n : k) ||
        ldc < rb_max1(m))
        return;
    const T alpha = GETS(alpha_), beta = GETS(beta_);
    if (m == 0 || n == 0 || ((alpha == 0 || k == 0) && beta == 1))
        return;
    T *c = (T *)vc;
    SCAL_MAT(m, n, beta, c, ldc);
    if (alpha == 0 || k == 0)
        return;
    if (!ta)
        UPD_NN(m, n, k, alpha, (const T *)va, lda, acj, (const T *)vb, ldb, tb, bcj, c, ldc,
               RB_ALL);
    else
        UPD_TN(m, n, k, alpha, (const T *)va, lda, acj, (const T *)vb, ldb, tb, bcj, c, ldc,
               RB_ALL);
}

/* The element (k, j) of the full symmetric (Hermitian when herm) matrix
 * whose uplo triangle A holds. */
static inline T ST(afull)(const T *a, const ptrdiff_t lda, const int k, const int j,
                          const int upper, const int herm) {
    if (k == j)
        return herm ? MK(RE(A_(j, j)), 0) : A_(j, j);
    if ((k < j) == (upper != 0))
        return A_(k, j);
    return ST(op)(A_(j, k), herm);
}

/* symm (herm = 0) and hemm (herm = 1). */
static void ST(symm)(const enum CBLAS_ORDER order, const enum CBLAS_SIDE side,
                     const enum CBLAS_UPLO uplo, const int m, const int n, const T alpha,
                     const T *a, const int lda, const T *b, const int ldb, const T beta, T *c,
                     const int ldc, const int herm) {
    const int left = side == CblasLeft;
    if (order != CblasColMajor || !rb_side_ok(side) || !rb_uplo_ok(uplo) || m < 0 || n < 0 ||
        lda < rb_max1(left ? m : n) || ldb < rb_max1(m) || ldc < rb_max1(m))
        return;
    if (m == 0 || n == 0 || (alpha == 0 && beta == 1))
        return;
    SCAL_MAT(m, n, beta, c, ldc);
    if (alpha == 0)
        return;
    const int upper = uplo == CblasUpper;
    if (left) {
        /* C(:, j) += alpha A B(:, j), A by columns l: the stored part of
         * column l updates the other rows of C, and through the symmetry
         * gives C(l, j) a dot product with B(:, j). */
        const int nb = rb_block(m, sizeof(T), 2, n);
        for (int j0 = 0; j0 < n; j0 += nb) {
            const int j1 = j0 + rb_min(nb, n - j0);
            for (int l = 0; l < m; l++) {
                const T d = ST(afull)(a, lda, l, l, upper, herm);
                const int lo = upper ? 0 : l + 1, len = upper ? l : m - l - 1;
                for (int j = j0; j < j1; j++) {
                    const T t1 = MUL(alpha, B_(l, j));
                    AXPY_K(len, t1, &A_(lo, l), &C_(lo, j), 0);
                    const T t2 = DOT_K(len, &A_(lo, l), &B_(lo, j), herm);
                    C_(l, j) += MUL(t1, d) + MUL(alpha, t2);
                }
            }
        }
        return;
    }
    /* C(:, j) += alpha sum_k B(:, k) A(k, j), by blocks of rows. */
    int mb = rb_block(n, sizeof(T), 2, m);
    if (mb < 64)
        mb = rb_min(64, m);
    for (int i0 = 0; i0 < m; i0 += mb) {
        const int len = rb_min(mb, m - i0);
        for (int j = 0; j < n; j++) {
            T *cc = &C_(i0, j);
            int k = 0;
            for (; k + 4 <= n; k += 4)
                AXPY4_K(len, MUL(alpha, ST(afull)(a, lda, k, j, upper, herm)),
                        MUL(alpha, ST(afull)(a, lda, k + 1, j, upper, herm)),
                        MUL(alpha, ST(afull)(a, lda, k + 2, j, upper, herm)),
                        MUL(alpha, ST(afull)(a, lda, k + 3, j, upper, herm)), &B_(i0, k),
                        &B_(i0, k + 1), &B_(i0, k + 2), &B_(i0, k + 3), cc, 0);
            for (; k < n; k++)
                AXPY_K(len, MUL(alpha, ST(afull)(a, lda, k, j, upper, herm)), &B_(i0, k), cc, 0);
        }
    }
}

void RB_FN(symm)(const enum CBLAS_ORDER order, const enum CBLAS_SIDE side,
                 const enum CBLAS_UPLO uplo, const int m, const int n, const SARG alpha, CVP a,
                 const int lda, CVP b, const int ldb, const SARG beta, VP c, const int ldc) {
    DO_SYMM(order, side, uplo, m, n, GETS(alpha), (const T *)a, lda, (const T *)b, ldb, GETS(beta),
            (T *)c, ldc, 0);
}

#if CX
void RB_FN(hemm)(const enum CBLAS_ORDER order, const enum CBLAS_SIDE side,
                 const enum CBLAS_UPLO uplo, const int m, const int n, const SARG alpha, CVP a,
                 const int lda, CVP b, const int ldb, const SARG beta, VP c, const int ldc) {
    DO_SYMM(order, side, uplo, m, n, GETS(alpha), (const T *)a, lda, (const T *)b, ldb, GETS(beta),
            (T *)c, ldc, 1);
}
#endif

/* The transpose of a rank-k update: real types take any value (Conj is
 * ignored), complex syrk / syr2k NoTrans or Trans, herk / her2k NoTrans or
 * ConjTrans, as OpenBLAS's CBLAS. *tr = 1 for A^T A. 0 when invalid. */
static int ST(rk_trans)(const enum CBLAS_TRANSPOSE trans, const int herm, int *tr) {
    int cj;
    if (!rb_trans(trans, tr, &cj))
        return 0;
    return !CX || trans == CblasNoTrans || trans == (herm ? CblasConjTrans : CblasTrans);
}

/* syrk (herm = 0): C = alpha op(A) op(A)^T + beta C; herk (herm = 1):
 * C = alpha op(A) op(A)^H + beta C with real alpha, beta. */
static void ST(syrk)(const enum CBLAS_ORDER order, const enum CBLAS_UPLO uplo,
                     const enum CBLAS_TRANSPOSE trans, const int n, const int k, const T alpha,
                     const T *a, const int lda, const T beta, T *c, const int ldc, const int herm) {
    int tr;
    if (order != CblasColMajor || !rb_uplo_ok(uplo) || !ST(rk_trans)(trans, herm, &tr) || n < 0 ||
        k < 0 || lda < rb_max1(tr ? k : n) || ldc < rb_max1(n))
        return;
    if (n == 0 || ((alpha == 0 || k == 0) && beta == 1))
        return;
    const int upper = uplo == CblasUpper, tri = upper ? RB_UP : RB_LO;
    SCAL_TRI(n, upper, beta, c, ldc, herm);
    if (alpha != 0 && k != 0) {
        if (!tr)
            UPD_NN(n, n, k, alpha, a, lda, 0, a, lda, 1, herm, c, ldc, tri);
        else
            UPD_TN(n, n, k, alpha, a, lda, herm, a, lda, 0, 0, c, ldc, tri);
    }
    if (CX && herm)
        REAL_DIAG(n, c, ldc);
}

void RB_FN(syrk)(const enum CBLAS_ORDER order, const enum CBLAS_UPLO uplo,
                 const enum CBLAS_TRANSPOSE trans, const int n, const int k, const SARG alpha,
                 CVP a, const int lda, const SARG beta, VP c, const int ldc) {
    DO_SYRK(order, uplo, trans, n, k, GETS(alpha), (const T *)a, lda, GETS(beta), (T *)c, ldc, 0);
}

#if CX
void RB_FN(herk)(const enum CBLAS_ORDER order, const enum CBLAS_UPLO uplo,
                 const enum CBLAS_TRANSPOSE trans, const int n, const int k, const R alpha, CVP a,
                 const int lda, const R beta, VP c, const int ldc) {
    DO_SYRK(order, uplo, trans, n, k, MK(alpha, 0), (const T *)a, lda, MK(beta, 0), (T *)c, ldc, 1);
}
#endif

/* syr2k (herm = 0): C = alpha (op(A) op(B)^T + op(B) op(A)^T) + beta C;
 * her2k (herm = 1): C = alpha op(A) op(B)^H + conj(alpha) op(B) op(A)^H +
 * beta C with real beta. */
static void ST(syr2k)(const enum CBLAS_ORDER order, const enum CBLAS_UPLO uplo,
                      const enum CBLAS_TRANSPOSE trans, const int n, const int k, const T alpha,
                      const T *a, const int lda, const T *b, const int ldb, const T beta, T *c,
                      const int ldc, const int herm) {
    int tr;
    if (order != CblasColMajor || !rb_uplo_ok(uplo) || !ST(rk_trans)(trans, herm, &tr) || n < 0 ||
        k < 0 || lda < rb_max1(tr ? k : n) || ldb < rb_max1(tr ? k : n) || ldc < rb_max1(n))
        return;
    if (n == 0 || ((alpha == 0 || k == 0) && beta == 1))
        return;
    const int upper = uplo == CblasUpper, tri = upper ? RB_UP : RB_LO;
    SCAL_TRI(n, upper, beta, c, ldc, herm);
    if (alpha != 0 && k != 0) {
        const T alpha2 = ST(op)(alpha, herm);
        if (!tr) {
            UPD_NN(n, n, k, alpha, a, lda, 0, b, ldb, 1, herm, c, ldc, tri);
            UPD_NN(n, n, k, alpha2, b, ldb, 0, a, lda, 1, herm, c, ldc, tri);
        } else {
            UPD_TN(n, n, k, alpha, a, lda, herm, b, ldb, 0, 0, c, ldc, tri);
            UPD_TN(n, n, k, alpha2, b, ldb, herm, a, lda, 0, 0, c, ldc, tri);
        }
    }
    if (CX && herm)
        REAL_DIAG(n, c, ldc);
}

void RB_FN(syr2k)(const enum CBLAS_ORDER order, const enum CBLAS_UPLO uplo,
                  const enum CBLAS_TRANSPOSE trans, const int n, const int k, const SARG alpha,
                  CVP a, const int lda, CVP b, const int ldb, const SARG beta, VP c,
                  const int ldc) {
    DO_SYR2K(order, uplo, trans, n, k, GETS(alpha), (const T *)a, lda, (const T *)b, ldb,
             GETS(beta), (T *)c, ldc, 0);
}

#if CX
void RB_FN(her2k)(const enum CBLAS_ORDER order, const enum CBLAS_UPLO uplo,
                  const enum CBLAS_TRANSPOSE trans, const int n, const int k, const SARG alpha,
                  CVP a, const int lda, CVP b, const int ldb, const R beta, VP c, const int ldc) {
    DO_SYR2K(order, uplo, trans, n, k, GETS(alpha), (const T *)a, lda, (const T *)b, ldb,
             MK(beta, 0), (T *)c, ldc, 1);
}
#endif

/* The arguments trmm and trsm share; 0 when invalid. */
static int ST(tr_args)(const enum CBLAS_ORDER order, const enum CBLAS_SIDE side,
                       const enum CBLAS_UPLO uplo, const enum CBLAS_TRANSPOSE transa,
                       const enum CBLAS_DIAG diag, const int m, const int n, const int lda,
                       const int ldb, int *tr, int *cj) {
    return order == CblasColMajor && rb_side_ok(side) && rb_uplo_ok(uplo) &&
           rb_trans(transa, tr, cj) && rb_diag_ok(diag) && m >= 0 && n >= 0 &&
           lda >= rb_max1(side == CblasLeft ? m : n) && ldb >= rb_max1(m);
}

/* Rows of B a right-side routine takes at a time: its rows are independent. */
static int ST(row_block)(const int m, const int n) {
    const int mb = rb_block(n, sizeof(T), 1, m);
    return mb < 64 ? rb_min(64, m) : mb;
}

/* B = alpha op(A) B (left) or alpha B op(A) (right), A triangular. */
void RB_FN(trmm)(const enum CBLAS_ORDER order, const enum CBLAS_SIDE side,
                 const enum CBLAS_UPLO uplo, const enum CBLAS_TRANSPOSE transa,
                 const enum CBLAS_DIAG diag, const int m, const int n, const SARG alpha_, CVP va,
                 const int lda, VP vb, const int ldb) {
    int tr, cj;
    if (!ST(tr_args)(order, side, uplo, transa, diag, m, n, lda, ldb, &tr, &cj))
        return;
    if (m == 0 || n == 0)
        return;
    const T alpha = GETS(alpha_);
    const T *a = (const T *)va;
    T *b = (T *)vb;
    if (alpha == 0) {
        SCAL_MAT(m, n, 0, b, ldb);
        return;
    }
    const int nounit = diag == CblasNonUnit, upper = uplo == CblasUpper;

    if (side == CblasLeft) {
        const int nb = rb_block(m, sizeof(T), 1, n);
        for (int j0 = 0; j0 < n; j0 += nb) {
            const int j1 = j0 + rb_min(nb, n - j0);
            if (!tr && upper) {
                for (int k = 0; k < m; k++) {
                    const T d = nounit ? ST(op)(A_(k, k), cj) : 1;
                    for (int j = j0; j < j1; j++) {
                        T t = B_(k, j);
                        if (t != 0) {
                            t = MUL(alpha, t);
                            AXPY_K(k, t, &A_(0, k), &B_(0, j), cj);
                            B_(k, j) = nounit ? MUL(t, d) : t;
                        }
                    }
                }
            } else if (!tr) {
                for (int k = m - 1; k >= 0; k--) {
                    const T d = nounit ? ST(op)(A_(k, k), cj) : 1;
                    for (int j = j0; j < j1; j++) {
                        T t = B_(k, j);
                        if (t != 0) {
                            t = MUL(alpha, t);
                            B_(k, j) = nounit ? MUL(t, d) : t;
                            AXPY_K(m - k - 1, t, &A_(k + 1, k), &B_(k + 1, j), cj);
                        }
                    }
                }
            } else if (upper) {
                for (int i = m - 1; i >= 0; i--) {
                    const T d = nounit ? ST(op)(A_(i, i), cj) : 1;
                    for (int j = j0; j < j1; j++) {
                        T t = nounit ? MUL(B_(i, j), d) : B_(i, j);
                        t += DOT_K(i, &A_(0, i), &B_(0, j), cj);
                        B_(i, j) = MUL(alpha, t);
                    }
                }
            } else {
                for (int i = 0; i < m; i++) {
                    const T d = nounit ? ST(op)(A_(i, i), cj) : 1;
                    for (int j = j0; j < j1; j++) {
                        T t = nounit ? MUL(B_(i, j), d) : B_(i, j);
                        t += DOT_K(m - i - 1, &A_(i + 1, i), &B_(i + 1, j), cj);
                        B_(i, j) = MUL(alpha, t);
                    }
                }
            }
        }
        return;
    }

    const int mb = ST(row_block)(m, n);
    for (int i0 = 0; i0 < m; i0 += mb) {
        const int len = rb_min(mb, m - i0);
        if (!tr && upper) {
            /* Column j of B op(A) takes columns k <= j of B, still old. */
            for (int j = n - 1; j >= 0; j--) {
                const T t = nounit ? MUL(alpha, ST(op)(A_(j, j), cj)) : alpha;
                if (t != 1)
                    SCAL_K(len, t, BB(j));
                for (int k = 0; k < j; k++)
                    if (A_(k, j) != 0)
                        AXPY_K(len, MUL(alpha, ST(op)(A_(k, j), cj)), BB(k), BB(j), 0);
            }
        } else if (!tr) {
            for (int j = 0; j < n; j++) {
                const T t = nounit ? MUL(alpha, ST(op)(A_(j, j), cj)) : alpha;
                if (t != 1)
                    SCAL_K(len, t, BB(j));
                for (int k = j + 1; k < n; k++)
                    if (A_(k, j) != 0)
                        AXPY_K(len, MUL(alpha, ST(op)(A_(k, j), cj)), BB(k), BB(j), 0);
            }
        } else if (upper) {
            /* B op(A)^T: column k of B feeds columns j < k, then scales. */
            for (int k = 0; k < n; k++) {
                for (int j = 0; j < k; j++)
                    if (A_(j, k) != 0)
                        AXPY_K(len, MUL(alpha, ST(op)(A_(j, k), cj)), BB(k), BB(j), 0);
                const T t = nounit ? MUL(alpha, ST(op)(A_(k, k), cj)) : alpha;
                if (t != 1)
                    SCAL_K(len, t, BB(k));
            }
        } else {
            for (int k = n - 1; k >= 0; k--) {
                for (int j = k + 1; j < n; j++)
                    if (A_(j, k) != 0)
                        AXPY_K(len, MUL(alpha, ST(op)(A_(j, k), cj)), BB(k), BB(j), 0);
                const T t = nounit ? MUL(alpha, ST(op)(A_(k, k), cj)) : alpha;
                if (t != 1)
                    SCAL_K(len, t, BB(k));
            }
        }
    }
}

/* Solves op(A) X = alpha B (left) or X op(A) = alpha B (right), X over B. */
void RB_FN(trsm)(const enum CBLAS_ORDER order, const enum CBLAS_SIDE side,
                 const enum CBLAS_UPLO uplo, const enum CBLAS_TRANSPOSE transa,
                 const enum CBLAS_DIAG diag, const int m, const int n, const SARG alpha_, CVP va,
                 const int lda, VP vb, const int ldb) {
    int tr, cj;
    if (!ST(tr_args)(order, side, uplo, transa, diag, m, n, lda, ldb, &tr, &cj))
        return;
    if (m == 0 || n == 0)
        return;
    const T alpha = GETS(alpha_);
    const T *a = (const T *)va;
    T *b = (T *)vb;
    if (alpha == 0) {
        SCAL_MAT(m, n, 0, b, ldb);
        return;
    }
    const int nounit = diag == CblasNonUnit, upper = uplo == CblasUpper;

    if (side == CblasLeft) {
        const int nb = rb_block(m, sizeof(T), 1, n);
        for (int j0 = 0; j0 < n; j0 += nb) {
            const int jn = rb_min(nb, n - j0), j1 = j0 + jn;
            SCAL_MAT(m, jn, alpha, &B_(0, j0), ldb);
            if (!tr && upper) {
                /* Back substitution: solve row k, remove it from above. */
                for (int k = m - 1; k >= 0; k--) {
                    const T d = nounit ? ST(op)(A_(k, k), cj) : 1;
                    for (int j = j0; j < j1; j++) {
                        T t = B_(k, j);
                        if (t != 0) {
                            if (nounit)
                                B_(k, j) = t = DIV(t, d);
                            AXPY_K(k, -t, &A_(0, k), &B_(0, j), cj);
                        }
                    }
                }
            } else if (!tr) {
                for (int k = 0; k < m; k++) {
                    const T d = nounit ? ST(op)(A_(k, k), cj) : 1;
                    for (int j = j0; j < j1; j++) {
                        T t = B_(k, j);
                        if (t != 0) {
                            if (nounit)
                                B_(k, j) = t = DIV(t, d);
                            AXPY_K(m - k - 1, -t, &A_(k + 1, k), &B_(k + 1, j), cj);
                        }
                    }
                }
            } else if (upper) {
                /* op(A)^T X = B: row i from the rows above it, solved. */
                for (int i = 0; i < m; i++) {
                    const T d = nounit ? ST(op)(A_(i, i), cj) : 1;
                    for (int j = j0; j < j1; j++) {
                        T t = B_(i, j) - DOT_K(i, &A_(0, i), &B_(0, j), cj);
                        B_(i, j) = nounit ? DIV(t, d) : t;
                    }
                }
            } else {
                for (int i = m - 1; i >= 0; i--) {
                    const T d = nounit ? ST(op)(A_(i, i), cj) : 1;
                    for (int j = j0; j < j1; j++) {
                        T t = B_(i, j) - DOT_K(m - i - 1, &A_(i + 1, i), &B_(i + 1, j), cj);
                        B_(i, j) = nounit ? DIV(t, d) : t;
                    }
                }
            }
        }
        return;
    }

    const int mb = ST(row_block)(m, n);
    for (int i0 = 0; i0 < m; i0 += mb) {
        const int len = rb_min(mb, m - i0);
        if (!tr && upper) {
            /* X op(A) = B: column j from the solved columns k < j. */
            for (int j = 0; j < n; j++) {
                if (alpha != 1)
                    SCAL_K(len, alpha, BB(j));
                for (int k = 0; k < j; k++)
                    if (A_(k, j) != 0)
                        AXPY_K(len, -ST(op)(A_(k, j), cj), BB(k), BB(j), 0);
                if (nounit)
                    SCAL_K(len, DIV(1, ST(op)(A_(j, j), cj)), BB(j));
            }
        } else if (!tr) {
            for (int j = n - 1; j >= 0; j--) {
                if (alpha != 1)
                    SCAL_K(len, alpha, BB(j));
                for (int k = j + 1; k < n; k++)
                    if (A_(k, j) != 0)
                        AXPY_K(len, -ST(op)(A_(k, j), cj), BB(k), BB(j), 0);
                if (nounit)
                    SCAL_K(len, DIV(1, ST(op)(A_(j, j), cj)), BB(j));
            }
        } else if (upper) {
            /* X op(A)^T = B: column k solved, then removed from j < k. */
            for (int k = n - 1; k >= 0; k--) {
                if (nounit)
                    SCAL_K(len, DIV(1, ST(op)(A_(k, k), cj)), BB(k));
                for (int j = 0; j < k; j++)
                    if (A_(j, k) != 0)
                        AXPY_K(len, -ST(op)(A_(j, k), cj), BB(k), BB(j), 0);
                if (alpha != 1)
                    SCAL_K(len, alpha, BB(k));
            }
        } else {
            for (int k = 0; k < n; k++) {
                if (nounit)
                    SCAL_K(len, DIV(1, ST(op)(A_(k, k), cj)), BB(k));
                for (int j = k + 1; j < n; j++)
                    if (A_(j, k) != 0)
                        AXPY_K(len, -ST(op)(A_(j, k), cj), BB(k), BB(j), 0);
                if (alpha != 1)
                    SCAL_K(len, alpha, BB(k));
            }
        }
    }
}

#undef A_
#undef B_
#undef C_
#undef BB
#undef SCAL_K
#undef UPD_NN
#undef UPD_TN
#undef SCAL_TRI
#undef REAL_DIAG
#undef DO_SYMM
#undef DO_SYRK
#undef DO_SYR2K
