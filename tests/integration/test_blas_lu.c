/*
 * test_blas_lu.c — trnblas's batched LU (getrfBatched, getrsBatched,
 * getriBatched, matinvBatched) in S, D, C and Z through a real trnscid (two
 * cores, so batches are split) over the local transport and gRPC over TCP,
 * matrix by matrix against their defining identities and against LAPACK in
 * double (LAPACKE_zgesv / zgetrf + zgetri on the matrix promoted to double
 * complex), with pivoting on and off, singular matrices, and bad input.
 *
 * Each matrix of a batch has its own allocation, at an element offset with
 * lda > n and random padding that must come back bitwise unchanged
 * (solver_test.h); the pointer arrays live in device memory, as cuBLAS
 * requires. Bounds (Higham, Accuracy and Stability of Numerical Algorithms,
 * 2nd ed.; u the type's unit roundoff, gamma_k = k u / (1 - k u), complex
 * arithmetic doubling the constants as in test_solver.c):
 *  - LU (Thm 9.3): ||P A - L U||_F <= gamma_n || |L| |U| ||_F (A = L U
 *    without pivoting);
 *  - solve with the factors (Thm 9.4), per right-hand side column:
 *    ||b - op(A) x||_2 <= gamma_3n || |L| |U| ||_F ||x||_2, so for all
 *    columns ||B - op(A) X||_F <= gamma_3n || |L| |U| ||_F ||X||_F;
 *  - getri is that solve with the identity's columns (the same bound with
 *    B = I); matinv factors privately, so its L and U are not seen: its
 *    residual is bounded with the growth of partial pivoting taken as at
 *    most n (|| |L| |U| ||_F <= n ||A||_F ||, far above what random
 *    matrices show; Trefethen & Schreiber 1990): gamma_3n n ||A||_F ||X||_F;
 *  - against LAPACK: X - A^-1 = A^-1 (A X - I) exactly, so any two
 *    inverses (or solutions) X and R satisfy ||X - R||_F <= ||A^-1||_2
 *    (||A X - I||_F + ||A R - I||_F) with both residuals measured here in
 *    long double; ||A^-1||_2 <= ||R||_F (1 + 10^-6) covers R's own error.
 * Matrices are P diag(sigma) Q^H with sigma from 1 to 1/kappa, kappa = 100
 * (pivoted), or random plus 2n on the diagonal (unpivoted).
 */
#include <complex.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include <lapacke.h>

#include "harness.h"
#include "solver_test.h"

static th_daemon daemon_under_test;

/* trnblas<S|D|C|Z><fn>(args) by the type; pointer arrays are passed as
 * void * (the device array of device pointers). */
#define LU_CALL(t, fn, ...)                                                                        \
    ((t) == TY_S   ? trnblasS##fn(__VA_ARGS__)                                                     \
     : (t) == TY_D ? trnblasD##fn(__VA_ARGS__)                                                     \
     : (t) == TY_C ? trnblasC##fn(__VA_ARGS__)                                                     \
                   : trnblasZ##fn(__VA_ARGS__))

static long double cgam(ty t, long double k) {
    return is_complex(t) ? 2.0L * st_gamma(t, k + 1) : st_gamma(t, k);
}

static void note(ty t, const char *what, long double ratio) {
    if (isnan(ratio))
        return;
    char name[80];
    snprintf(name, sizeof(name), "%s %s", ty_name[t], what);
    st_note(name, ratio, 1.0L);
}

/* ---- batches ------------------------------------------------------------------------ */

/* count n x n matrices (each in its own allocation) and the device array
 * of their device pointers; a0 holds each as uploaded. */
typedef struct batch {
    ty t;
    int n, count;
    st_mat *m;
    lcplx **a0;
    void *arr; /* device: count pointers */
} batch;

static void *pointer_array(st_mat *m, int count) {
    void **host = calloc((size_t)(count > 0 ? count : 1), sizeof(void *));
    assert_non_null(host);
    for (int i = 0; i < count; i++)
        host[i] = st_ptr(&m[i]);
    void *dev = NULL;
    const size_t bytes = (size_t)(count > 0 ? count : 1) * sizeof(void *);
    assert_int_equal(trnsciMalloc(&dev, bytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dev, host, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    free(host);
    return dev;
}

/* A batch of n x ncols matrices with leading dimension ld (one for the
 * batch, as cuBLAS takes); gen (NULL: zeros) fills matrix i. */
static void batch_make(batch *b, ty t, int n, int ncols, int ld, int count,
                       lcplx *(*gen)(ty, int, int)) {
    b->t = t;
    b->n = n;
    b->count = count;
    b->m = calloc((size_t)count, sizeof(st_mat));
    b->a0 = calloc((size_t)count, sizeof(lcplx *));
    assert_true(b->m && b->a0);
    for (int i = 0; i < count; i++) {
        st_alloc(&b->m[i], t, n, ncols, ld);
        if (gen) {
            lcplx *a = gen(t, n, i);
            st_fill(&b->m[i], a);
            free(a);
        }
        st_upload(&b->m[i]);
        b->a0[i] = st_take(&b->m[i]);
    }
    b->arr = pointer_array(b->m, count);
}

static void batch_free(batch *b) {
    for (int i = 0; i < b->count; i++) {
        st_free(&b->m[i]);
        free(b->a0[i]);
    }
    free(b->m);
    free(b->a0);
    assert_int_equal(trnsciFree(b->arr), trnsciSuccess);
}

static lcplx *gen_general(ty t, int n, int i) {
    (void)i;
    return st_general(t, n, 100.0L);
}

static lcplx *gen_dominant(ty t, int n, int i) {
    (void)i;
    lcplx *a = st_lmat(n, n);
    for (int j = 0; j < n; j++)
        for (int r = 0; r < n; r++)
            a[(size_t)j * n + r] = st_random(t) + (r == j ? 2.0L * n : 0.0L);
    return a;
}

static lcplx *gen_random(ty t, int n, int i) {
    (void)i;
    lcplx *a = st_lmat(n, 3);
    for (int k = 0; k < 3 * n; k++)
        a[k] = st_random(t);
    return a;
}

static lcplx *gen_random_square(ty t, int n, int i) {
    (void)i;
    lcplx *a = st_lmat(n, n);
    for (int k = 0; k < n * n; k++)
        a[k] = st_random(t);
    return a;
}

static int *ints_alloc(int count) {
    return st_info_alloc(count);
}

static int *ints_read(const int *dev, int count) {
    int *h = calloc((size_t)(count > 0 ? count : 1), sizeof(int));
    assert_non_null(h);
    if (count > 0)
        assert_int_equal(
            trnsciMemcpy(h, dev, (size_t)count * sizeof(int), trnsciMemcpyDeviceToHost),
            trnsciSuccess);
    return h;
}

/* ---- long double helpers ------------------------------------------------------------ */

/* L and U of a factored n x n download (unit lower L). */
static void split_lu(int n, const lcplx *f, lcplx *l, lcplx *u) {
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            l[(size_t)j * n + i] = i > j ? f[(size_t)j * n + i] : i == j ? 1 : 0;
            u[(size_t)j * n + i] = i <= j ? f[(size_t)j * n + i] : 0;
        }
}

/* || |L| |U| ||_F. */
static long double abs_lu(int n, const lcplx *l, const lcplx *u) {
    long double s = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            long double e = 0;
            for (int k = 0; k < n; k++)
                e += cabsl(l[(size_t)k * n + i]) * cabsl(u[(size_t)j * n + k]);
            s += e * e;
        }
    return sqrtl(s);
}

/* P A: the interchanges piv (1-based, NULL: none) applied in order. */
static lcplx *permuted(int n, const lcplx *a, const int *piv) {
    lcplx *pa = st_lmat(n, n);
    memcpy(pa, a, (size_t)n * (size_t)n * sizeof(lcplx));
    for (int k = 0; k < n && piv; k++) {
        const int r = piv[k] - 1;
        assert_true(r >= k && r < n);
        for (int j = 0; j < n; j++) {
            const lcplx tmp = pa[(size_t)j * n + k];
            pa[(size_t)j * n + k] = pa[(size_t)j * n + r];
            pa[(size_t)j * n + r] = tmp;
        }
    }
    return pa;
}

/* ||B - op(A) X||_F (B: NULL for the identity), A n x n, X and B n x k. */
static long double residual(int n, int k, const lcplx *a, int op, const lcplx *x, const lcplx *b) {
    long double s = 0;
    for (int j = 0; j < k; j++)
        for (int i = 0; i < n; i++) {
            lcplx e = b ? b[(size_t)j * n + i] : (i == j ? 1 : 0);
            for (int l = 0; l < n; l++) {
                const lcplx av = op == 0   ? a[(size_t)l * n + i]
                                 : op == 1 ? a[(size_t)i * n + l]
                                           : conjl(a[(size_t)i * n + l]);
                e -= av * x[(size_t)j * n + l];
            }
            s += creall(e * conjl(e));
        }
    return sqrtl(s);
}

static long double dist(int rows, int cols, const lcplx *x, const lcplx *y) {
    long double s = 0;
    for (size_t k = 0; k < (size_t)rows * (size_t)cols; k++) {
        const lcplx e = x[k] - y[k];
        s += creall(e * conjl(e));
    }
    return sqrtl(s);
}

/* LAPACK's answer in double complex: op(A)^-1 B, or A^-1 when b is NULL
 * (k = n). */
static lcplx *lapack_solve(int n, int k, const lcplx *a, int op, const lcplx *b) {
    double complex *ad = calloc((size_t)n * n + 1, sizeof(double complex));
    double complex *bd = calloc((size_t)n * k + 1, sizeof(double complex));
    lapack_int *piv = calloc((size_t)n + 1, sizeof(lapack_int));
    assert_true(ad && bd && piv);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            const lcplx v = op == 0   ? a[(size_t)j * n + i]
                            : op == 1 ? a[(size_t)i * n + j]
                                      : conjl(a[(size_t)i * n + j]);
            ad[(size_t)j * n + i] = (double)creall(v) + I * (double)cimagl(v);
        }
    for (int j = 0; j < k; j++)
        for (int i = 0; i < n; i++) {
            const lcplx v = b ? b[(size_t)j * n + i] : (i == j ? 1 : 0);
            bd[(size_t)j * n + i] = (double)creall(v) + I * (double)cimagl(v);
        }
    assert_int_equal(
        LAPACKE_zgesv(LAPACK_COL_MAJOR, n, k, ad, n > 0 ? n : 1, piv, bd, n > 0 ? n : 1), 0);
    lcplx *x = st_lmat(n, k);
    for (size_t q = 0; q < (size_t)n * k; q++)
        x[q] = creal(bd[q]) + I * (long double)cimag(bd[q]);
    free(ad);
    free(bd);
    free(piv);
    return x;
}

/* X against LAPACK's R for op(A) X = B (B NULL: the identity), by the exact
 * inequality in the header. */
static void against_lapack(ty t, const char *what, int n, int k, const lcplx *a, int op,
                           const lcplx *b, const lcplx *x) {
    lcplx *r = lapack_solve(n, k, a, op, b);
    lcplx *inv = b ? lapack_solve(n, n, a, op, NULL) : r;
    const long double norm_inv = st_lfro(n, n, inv) * (1.0L + 1e-6L);
    const long double limit =
        norm_inv * (residual(n, k, a, op, x, b) + residual(n, k, a, op, r, b));
    const long double d = dist(n, k, x, r);
    note(t, what, limit > 0 ? d / limit : 0);
    if (!(d <= limit + LDBL_MIN))
        fail_msg("%s %s n=%d: ||X - X_lapack||_F = %Lg > %Lg", ty_name[t], what, n, d, limit);
    if (inv != r)
        free(inv);
    free(r);
}

/* ---- getrfBatched ------------------------------------------------------------------- */

/* The factors of matrix i of a factored batch: checks P A = L U within its
 * bound and returns || |L| |U| ||_F; *lu_out the download as a matrix. */
static long double check_factors(const batch *b, int i, const void *got, const int *piv,
                                 lcplx **lu_out) {
    const ty t = b->t;
    const int n = b->n;
    lcplx *f = st_take_got(&b->m[i], got);
    lcplx *l = st_lmat(n, n), *u = st_lmat(n, n), *lu = st_lmat(n, n);
    split_lu(n, f, l, u);
    st_lmul(n, n, n, l, 0, u, lu);
    lcplx *pa = permuted(n, b->a0[i], piv);
    /* Partial pivoting: |L| <= 1; for complex types LAPACK picks the pivot
     * by |re| + |im|, which bounds |l| by sqrt(2) (and rounding). */
    const long double lmax = is_complex(t) ? sqrtl(2.0L) * (1.0L + 4.0L * st_u(t)) : 1.0L;
    for (int k = 0; k < n * n && piv; k++)
        if (cabsl(l[k]) > lmax)
            fail_msg("%s getrfBatched matrix %d: |L| = %Lg > %Lg", ty_name[t], i, cabsl(l[k]),
                     lmax);
    const long double scale = abs_lu(n, l, u), err = dist(n, n, pa, lu);
    note(t, "getrf ||PA - LU|| / bound", scale > 0 ? err / (cgam(t, n) * scale) : 0);
    if (!(err <= cgam(t, n) * scale))
        fail_msg("%s getrfBatched matrix %d (n=%d): ||PA - LU|| = %Lg > %Lg", ty_name[t], i, n, err,
                 cgam(t, n) * scale);
    free(l);
    free(u);
    free(lu);
    free(pa);
    *lu_out = f;
    return scale;
}

/* Factors the batch; returns the pivots on the device (NULL without), the
 * factors stay in b. */
static int *factor(trnblasHandle_t h, batch *b, int pivot, long double *scales) {
    const ty t = b->t;
    const int n = b->n, nb = b->count;
    int *piv = pivot ? ints_alloc(n * nb) : NULL;
    int *info = ints_alloc(nb);
    assert_int_equal(LU_CALL(t, getrfBatched, h, n, (void *)b->arr, b->m[0].ld, piv, info, nb),
                     TRNBLAS_STATUS_SUCCESS);
    int *hinfo = ints_read(info, nb), *hpiv = pivot ? ints_read(piv, n * nb) : NULL;
    for (int i = 0; i < nb; i++) {
        assert_int_equal(hinfo[i], 0);
        void *got = st_download(&b->m[i], NULL, NULL);
        lcplx *f;
        scales[i] = check_factors(b, i, got, hpiv ? hpiv + (size_t)i * n : NULL, &f);
        free(f);
        free(got);
    }
    free(hinfo);
    free(hpiv);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    return piv;
}

/* getrsBatched with the factors of b, op = N, T, C, three right-hand
 * sides (ldb = n + 1). */
static void check_getrs(trnblasHandle_t h, const batch *b, const int *piv,
                        const long double *scales) {
    const ty t = b->t;
    const int n = b->n, nb = b->count;
    static const trnblasOperation_t ops[] = {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C};
    for (int op = 0; op < 3; op++) {
        batch rhs;
        batch_make(&rhs, t, n, 3, n + 1, nb, gen_random);
        int info = 99;
        assert_int_equal(LU_CALL(t, getrsBatched, h, ops[op], n, 3, (void *)b->arr, b->m[0].ld, piv,
                                 (void *)rhs.arr, n + 1, &info, nb),
                         TRNBLAS_STATUS_SUCCESS);
        assert_int_equal(info, 0);
        for (int i = 0; i < nb; i++) {
            void *got = st_download(&rhs.m[i], NULL, NULL);
            lcplx *x = st_take_got(&rhs.m[i], got);
            const long double r = residual(n, 3, b->a0[i], op, x, rhs.a0[i]);
            const long double limit = cgam(t, 3 * n) * scales[i] * st_lfro(n, 3, x);
            note(t, "getrs ||B - op(A)X|| / bound", limit > 0 ? r / limit : 0);
            if (!(r <= limit))
                fail_msg("%s getrsBatched op=%d matrix %d: ||B - op(A) X|| = %Lg > %Lg", ty_name[t],
                         op, i, r, limit);
            against_lapack(t, "getrs vs LAPACK", n, 3, b->a0[i], op, rhs.a0[i], x);
            free(x);
            free(got);
        }
        batch_free(&rhs);
    }
}

/* getriBatched from the factors of b into C (ldc = n + 3). */
static void check_getri(trnblasHandle_t h, const batch *b, const int *piv,
                        const long double *scales) {
    const ty t = b->t;
    const int n = b->n, nb = b->count;
    batch c;
    batch_make(&c, t, n, n, n + 3, nb, NULL);
    int *info = ints_alloc(nb);
    assert_int_equal(LU_CALL(t, getriBatched, h, n, (void *)b->arr, b->m[0].ld, piv, (void *)c.arr,
                             n + 3, info, nb),
                     TRNBLAS_STATUS_SUCCESS);
    int *hinfo = ints_read(info, nb);
    for (int i = 0; i < nb; i++) {
        assert_int_equal(hinfo[i], 0);
        void *got = st_download(&c.m[i], NULL, NULL);
        lcplx *x = st_take_got(&c.m[i], got);
        const long double r = residual(n, n, b->a0[i], 0, x, NULL);
        const long double limit = cgam(t, 3 * n) * scales[i] * st_lfro(n, n, x);
        note(t, "getri ||I - AX|| / bound", limit > 0 ? r / limit : 0);
        if (!(r <= limit))
            fail_msg("%s getriBatched matrix %d: ||I - A X|| = %Lg > %Lg", ty_name[t], i, r, limit);
        against_lapack(t, "getri vs LAPACK", n, n, b->a0[i], 0, NULL, x);
        free(x);
        free(got);
    }
    free(hinfo);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    batch_free(&c);
}

static void check_lu_family(ty t, int n, int count, int pivot) {
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    batch a;
    batch_make(&a, t, n, n, n + 2, count, pivot ? gen_general : gen_dominant);
    long double *scales = calloc((size_t)count + 1, sizeof(long double));
    assert_non_null(scales);
    int *piv = factor(h, &a, pivot, scales);
    if (n > 0) {
        check_getrs(h, &a, piv, scales);
        check_getri(h, &a, piv, scales);
    }
    free(scales);
    if (piv)
        assert_int_equal(trnsciFree(piv), trnsciSuccess);
    batch_free(&a);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

static void test_pivoting(void **state) {
    (void)state;
    static const int sizes[][2] = {{1, 3}, {7, 9}, {24, 40}, {0, 2}};
    for (size_t k = 0; k < sizeof(all_types) / sizeof(all_types[0]); k++)
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
            check_lu_family(all_types[k], sizes[s][0], sizes[s][1], 1);
}

static void test_no_pivoting(void **state) {
    (void)state;
    for (size_t k = 0; k < sizeof(all_types) / sizeof(all_types[0]); k++) {
        check_lu_family(all_types[k], 5, 6, 0);
        check_lu_family(all_types[k], 20, 11, 0);
    }
}

/* ---- matinvBatched ------------------------------------------------------------------ */

static void check_matinv(ty t, int n, int count) {
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    batch a, c;
    batch_make(&a, t, n, n, n + 1, count, gen_general);
    batch_make(&c, t, n, n, n + 2, count, NULL);
    int *info = ints_alloc(count);
    assert_int_equal(
        LU_CALL(t, matinvBatched, h, n, (void *)a.arr, n + 1, (void *)c.arr, n + 2, info, count),
        TRNBLAS_STATUS_SUCCESS);
    int *hinfo = ints_read(info, count);
    for (int i = 0; i < count; i++) {
        assert_int_equal(hinfo[i], 0);
        st_untouched(&a.m[i]); /* A is input only */
        void *got = st_download(&c.m[i], NULL, NULL);
        lcplx *x = st_take_got(&c.m[i], got);
        const long double r = residual(n, n, a.a0[i], 0, x, NULL);
        const long double limit =
            cgam(t, 3 * n) * (long double)n * st_lfro(n, n, a.a0[i]) * st_lfro(n, n, x);
        note(t, "matinv ||I - AX|| / bound", limit > 0 ? r / limit : 0);
        if (!(r <= limit))
            fail_msg("%s matinvBatched matrix %d: ||I - A X|| = %Lg > %Lg", ty_name[t], i, r,
                     limit);
        against_lapack(t, "matinv vs LAPACK", n, n, a.a0[i], 0, NULL, x);
        free(x);
        free(got);
    }
    free(hinfo);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    batch_free(&a);
    batch_free(&c);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

static void test_matinv(void **state) {
    (void)state;
    for (size_t k = 0; k < sizeof(all_types) / sizeof(all_types[0]); k++) {
        check_matinv(all_types[k], 1, 2);
        check_matinv(all_types[k], 9, 13);
        check_matinv(all_types[k], 32, 7);
    }
}

/* ---- singular matrices -------------------------------------------------------------- */

/* Matrix 1 of 3 has an exactly zero column 3 (0-based): getrf's info is 4
 * for it (the column stays zero through the elimination) and 0 for the
 * others; getri and matinv report it too and leave its output as it was.
 * Without pivoting, a zero leading entry gives info 1. */
static lcplx *gen_zero_col(ty t, int n, int i) {
    lcplx *a = st_general(t, n, 10.0L);
    if (i == 1)
        for (int r = 0; r < n; r++)
            a[(size_t)3 * n + r] = 0;
    return a;
}

static lcplx *gen_zero_lead(ty t, int n, int i) {
    lcplx *a = gen_dominant(t, n, i);
    if (i == 1)
        a[0] = 0;
    return a;
}

static void check_singular(ty t) {
    const int n = 6, nb = 3;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    batch a, c, ai, ci;
    batch_make(&a, t, n, n, n, nb, gen_zero_col);
    batch_make(&ai, t, n, n, n, nb, gen_zero_col);
    batch_make(&c, t, n, n, n, nb, gen_random_square);
    batch_make(&ci, t, n, n, n, nb, gen_random_square);
    int *piv = ints_alloc(n * nb), *info = ints_alloc(nb);
    assert_int_equal(LU_CALL(t, getrfBatched, h, n, (void *)a.arr, n, piv, info, nb),
                     TRNBLAS_STATUS_SUCCESS);
    int *hi = ints_read(info, nb);
    assert_int_equal(hi[0], 0);
    assert_int_equal(hi[1], 4);
    assert_int_equal(hi[2], 0);
    free(hi);
    assert_int_equal(
        LU_CALL(t, getriBatched, h, n, (void *)a.arr, n, piv, (void *)c.arr, n, info, nb),
        TRNBLAS_STATUS_SUCCESS);
    hi = ints_read(info, nb);
    assert_int_equal(hi[0], 0);
    assert_int_equal(hi[1], 4);
    assert_int_equal(hi[2], 0);
    free(hi);
    st_untouched(&c.m[1]);
    assert_int_equal(
        LU_CALL(t, matinvBatched, h, n, (void *)ai.arr, n, (void *)ci.arr, n, info, nb),
        TRNBLAS_STATUS_SUCCESS);
    hi = ints_read(info, nb);
    assert_int_equal(hi[0], 0);
    assert_true(hi[1] > 0 && hi[1] <= n);
    assert_int_equal(hi[2], 0);
    free(hi);
    st_untouched(&ci.m[1]);
    batch_free(&a);
    batch_free(&c);
    batch_free(&ai);
    batch_free(&ci);
    /* Without pivoting. */
    batch z;
    batch_make(&z, t, n, n, n, nb, gen_zero_lead);
    assert_int_equal(LU_CALL(t, getrfBatched, h, n, (void *)z.arr, n, NULL, info, nb),
                     TRNBLAS_STATUS_SUCCESS);
    hi = ints_read(info, nb);
    assert_int_equal(hi[0], 0);
    assert_int_equal(hi[1], 1);
    assert_int_equal(hi[2], 0);
    free(hi);
    batch_free(&z);
    assert_int_equal(trnsciFree(piv) | trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

static void test_singular(void **state) {
    (void)state;
    for (size_t k = 0; k < sizeof(all_types) / sizeof(all_types[0]); k++)
        check_singular(all_types[k]);
}

/* ---- more matrices than one op holds ------------------------------------------------ */

/* 4100 2 x 2 matrices, packed in one allocation: two ops (4096 + 4), the
 * pivots and infos of the second at their offsets. */
static void test_long_batch(void **state) {
    (void)state;
    const int nb = 4100;
    double *hm = malloc((size_t)nb * 4 * sizeof(double));
    void **ptrs = malloc((size_t)nb * sizeof(void *));
    assert_true(hm && ptrs);
    for (int i = 0; i < nb; i++) { /* [[1, 2], [3 + i, 4]] column-major: pivot row 2 */
        hm[4 * i + 0] = 1;
        hm[4 * i + 1] = 3 + i;
        hm[4 * i + 2] = 2;
        hm[4 * i + 3] = 4;
    }
    double *dm = NULL;
    void *arr = NULL;
    assert_int_equal(trnsciMalloc((void **)&dm, (size_t)nb * 4 * sizeof(double)), trnsciSuccess);
    assert_int_equal(
        trnsciMemcpy(dm, hm, (size_t)nb * 4 * sizeof(double), trnsciMemcpyHostToDevice),
        trnsciSuccess);
    for (int i = 0; i < nb; i++)
        ptrs[i] = dm + 4 * i;
    assert_int_equal(trnsciMalloc(&arr, (size_t)nb * sizeof(void *)), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(arr, ptrs, (size_t)nb * sizeof(void *), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    int *piv = ints_alloc(2 * nb), *info = ints_alloc(nb);
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasDgetrfBatched(h, 2, arr, 2, piv, info, nb), TRNBLAS_STATUS_SUCCESS);
    int *hp = ints_read(piv, 2 * nb), *hi = ints_read(info, nb);
    double *out = malloc((size_t)nb * 4 * sizeof(double));
    assert_non_null(out);
    assert_int_equal(
        trnsciMemcpy(out, dm, (size_t)nb * 4 * sizeof(double), trnsciMemcpyDeviceToHost),
        trnsciSuccess);
    for (int i = 0; i < nb; i++) {
        /* P A = [[3+i, 4], [1, 2]]: L21 = 1/(3+i), U22 = 2 - 4/(3+i), each
         * one rounding (the product and difference: 2 u relative to |U22|'s
         * terms, which are at most 2 and 4/3). */
        const double p = 3.0 + i, l21 = 1.0 / p, u22 = 2.0 - 4.0 * l21;
        assert_int_equal(hi[i], 0);
        assert_int_equal(hp[2 * i], 2);
        assert_int_equal(hp[2 * i + 1], 2);
        assert_true(out[4 * i] == p && out[4 * i + 2] == 4.0);
        assert_true(fabs(out[4 * i + 1] - l21) <= DBL_EPSILON * l21);
        assert_true(fabs(out[4 * i + 3] - u22) <= 4 * DBL_EPSILON * 4.0);
    }
    free(hp);
    free(hi);
    free(out);
    free(hm);
    free(ptrs);
    assert_int_equal(trnsciFree(dm) | trnsciFree(arr) | trnsciFree(piv) | trnsciFree(info),
                     trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* ---- bad input ---------------------------------------------------------------------- */

static void expect_invalid(trnblasStatus_t st, const char *needle) {
    assert_int_equal(st, TRNBLAS_STATUS_INVALID_VALUE);
    st_expect_message(needle);
}

static void test_bad_input(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    double *m0 = NULL, *m1 = NULL, *c0 = NULL;
    assert_int_equal(trnsciMalloc((void **)&m0, 16 * sizeof(double)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&m1, 16 * sizeof(double)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&c0, 32 * sizeof(double)), trnsciSuccess);
    const double eye[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    assert_int_equal(trnsciMemcpy(m0, eye, sizeof(eye), trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(m1, eye, sizeof(eye), trnsciMemcpyHostToDevice), trnsciSuccess);
    void **arr = NULL, **carr = NULL;
    assert_int_equal(trnsciMalloc((void **)&arr, 4 * sizeof(void *)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&carr, 4 * sizeof(void *)), trnsciSuccess);
    int *piv = ints_alloc(16), *info = ints_alloc(4);
    double host_matrix[16];
#define SET(dev, p0, p1)                                                                           \
    do {                                                                                           \
        void *const v_[2] = {(p0), (p1)};                                                          \
        assert_int_equal(trnsciMemcpy((dev), v_, sizeof(v_), trnsciMemcpyHostToDevice),            \
                         trnsciSuccess);                                                           \
    } while (0)
    SET(arr, m0, m1);
    SET(carr, c0, c0 + 16);
    /* cuBLAS's INVALID_VALUE cases, with the validator's messages. */
    expect_invalid(trnblasDgetrfBatched(h, -1, (void *)arr, 4, piv, info, 2), "getrfBatched: n");
    expect_invalid(trnblasDgetrfBatched(h, 4, (void *)arr, 3, piv, info, 2), "getrfBatched: lda");
    expect_invalid(trnblasDgetrfBatched(h, 4, (void *)arr, 4, piv, info, -1), "batchSize");
    expect_invalid(trnblasDgetrfBatched(h, -1, (void *)arr, 4, piv, info, 0), "getrfBatched: n");
    expect_invalid(trnblasDmatinvBatched(h, 33, (void *)arr, 33, (void *)carr, 33, info, 2),
                   "must be <= 32");
    expect_invalid(trnblasDgetriBatched(h, 4, (void *)arr, 4, piv, (void *)carr, 3, info, 2),
                   "getriBatched: ldc");
    /* getrsBatched: host info = -(the argument's position, from trans). */
    int hinfo = 0;
    expect_invalid(trnblasDgetrsBatched(h, (trnblasOperation_t)7, 4, 1, (void *)arr, 4, piv,
                                        (void *)carr, 4, &hinfo, 2),
                   "trans");
    assert_int_equal(hinfo, -1);
    expect_invalid(trnblasDgetrsBatched(h, TRNBLAS_OP_N, 4, -1, (void *)arr, 4, piv, (void *)carr,
                                        4, &hinfo, 2),
                   "nrhs");
    assert_int_equal(hinfo, -3);
    expect_invalid(trnblasDgetrsBatched(h, TRNBLAS_OP_N, 4, 1, (void *)arr, 4, piv, (void *)carr, 2,
                                        &hinfo, 2),
                   "ldb");
    assert_int_equal(hinfo, -8);
    /* Bad pointers in the arrays. */
    expect_invalid(trnblasDgetrfBatched(h, 4, (void *)host_matrix, 4, piv, info, 2),
                   "pointer arrays live in device memory");
    SET(arr, m0, host_matrix);
    expect_invalid(trnblasDgetrfBatched(h, 4, (void *)arr, 4, piv, info, 2), "Aarray[1]");
    SET(arr, m0, m1 + 8); /* runs 8 elements past its allocation */
    expect_invalid(trnblasDgetrfBatched(h, 4, (void *)arr, 4, piv, info, 2), "Aarray[1]");
    SET(arr, NULL, m1);
    expect_invalid(trnblasDgetrfBatched(h, 4, (void *)arr, 4, piv, info, 2), "Aarray[0]");
    /* Written matrices may not overlap; an output may not overlap an input. */
    SET(arr, m0, m0);
    expect_invalid(trnblasDgetrfBatched(h, 4, (void *)arr, 4, piv, info, 2), "overlap");
    SET(arr, m0, m1);
    SET(carr, c0, m1);
    expect_invalid(trnblasDgetriBatched(h, 4, (void *)arr, 4, NULL, (void *)carr, 4, info, 2),
                   "overlap");
    expect_invalid(trnblasDgetrfBatched(h, 4, (void *)arr, 4, (int *)(void *)m1, info, 2),
                   "overlap");
    /* A pivot array too short for the batch (n ints per matrix). */
    expect_invalid(trnblasDgetrfBatched(h, 4, (void *)arr, 4, piv + 10, info, 2), "PivotArray");
    assert_int_equal(trnblasDgetrfBatched(NULL, 4, (void *)arr, 4, piv, info, 2),
                     TRNBLAS_STATUS_NOT_INITIALIZED);
    /* Still serving: the identities factor to themselves. */
    SET(carr, c0, c0 + 16);
    assert_int_equal(trnblasDgetrfBatched(h, 4, (void *)arr, 4, piv, info, 2),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasDgetrsBatched(h, TRNBLAS_OP_N, 4, 1, (void *)arr, 4, piv, (void *)carr,
                                          4, &hinfo, 2),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(hinfo, 0);
    int *hi = ints_read(info, 2);
    assert_int_equal(hi[0] | hi[1], 0);
    free(hi);
    double back[16];
    assert_int_equal(trnsciMemcpy(back, m1, sizeof(back), trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_memory_equal(back, eye, sizeof(eye));
#undef SET
    assert_int_equal(trnsciFree(m0) | trnsciFree(m1) | trnsciFree(c0) | trnsciFree(arr) |
                         trnsciFree(carr) | trnsciFree(piv) | trnsciFree(info),
                     trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

int main(void) {
    const char *const args[] = {"--cores", "2", NULL};
    if (th_daemon_start(&daemon_under_test, args) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    st_daemon = &daemon_under_test;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pivoting),  cmocka_unit_test(test_no_pivoting),
        cmocka_unit_test(test_matinv),    cmocka_unit_test(test_singular),
        cmocka_unit_test(test_bad_input), cmocka_unit_test(test_long_batch),
    };
    const size_t ntests = sizeof(tests) / sizeof(tests[0]);
    int failed = _cmocka_run_group_tests("batched LU over unix socket", tests, ntests,
                                         st_connect_unix, st_disconnect);
    /* The long batch does not depend on the transport: once. */
    failed += _cmocka_run_group_tests("batched LU over tcp", tests, ntests - 1, st_connect_tcp,
                                      st_disconnect);
    st_report("test_blas_lu");
    failed += th_daemon_stop_checked(&daemon_under_test, "trnscid");
    return failed ? 1 : 0;
}
