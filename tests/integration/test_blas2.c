/*
 * test_blas2.c — trnblas Level 2 (gemv, gbmv, symv, hemv, trmv, trsv, ger,
 * geru, gerc, syr, syr2, her, her2) in every type cuBLAS has, every trans,
 * uplo and diag, through a real trnscid over the unix socket and over TCP
 * (there S and Z: the same messages, another transport), against an
 * independent reference: naive loops in long double (64-bit mantissa on
 * x86-64) computed by this test.
 *
 * Operands are sub-matrices and strided vectors at offsets inside larger
 * random allocations (lda > rows, increments ±1 and ±2); every element an
 * op must not write comes back bitwise unchanged (blas_check.h). Elements a
 * routine must not read hold NaN: the other triangle of symmetric,
 * Hermitian and triangular matrices, a unit diagonal, the imaginary parts
 * of a Hermitian diagonal, the unused corners of band storage, and y when
 * beta = 0; with alpha = 0 (host pointer mode) A and x are passed as NULL.
 *
 * Bounds (blas_check.h: bound(t, k) = gamma_k real, 2 gamma_2k complex):
 *  - gemv, gbmv, symv, hemv: y_i = beta y_i + alpha sum_j a_ij x_j is a
 *    chain of at most n + 3 roundings per term (n - 1 additions, the
 *    product, alpha, and beta with its addition): bound(t, n + 3) times
 *    (|alpha| sum_j |a_ij||x_j| + |beta||y_i|);
 *  - trmv: bound(t, n) sum_j |op(T)_ij||x_j|;
 *  - trsv: substitution is componentwise backward stable, (T + dT) x^ = b
 *    with |dT| <= gamma_n |T| (Higham Thm 8.5), so the residual is checked:
 *    |b - op(T) x^|_i <= bound(t, n + 1) sum_j |op(T)_ij||x^_j| (one more
 *    rounding for the unit-diagonal division-free case is covered by the +1);
 *  - ger, syr, her: a_ij + (alpha x_i) y_j, 3 roundings: bound(t, 3) times
 *    (|a_ij| + |alpha||x_i||y_j|); syr2, her2: two products, 5 roundings.
 * Empty shapes and reference BLAS's quick returns (alpha = 0 with beta = 1,
 * alpha = 0 for the updates) must leave everything untouched.
 *
 * Both pointer modes: the cases run again with alpha and beta in device
 * memory (trnblasSetPointerMode DEVICE), uploaded just before each call.
 * gemv and ger over several output tiles are checked too (their shards'
 * bitwise equality with one shard is tested on the kernel:
 * tests/unit/test_blas23_shards.c).
 * Bad input: each cuBLAS INVALID_VALUE case returns
 * TRNBLAS_STATUS_INVALID_VALUE with a message naming the argument, and the
 * daemon stays up.
 */
#include <complex.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <limits.h>

#include "blas_check.h"

/* ---- gemv, gbmv --------------------------------------------------------------- */

/* Band storage: element (i, j) of the m x n matrix, 0 outside the band. */
static int band_kl, band_ku, band_m;
static lcplx band_get(const mat *a, int i, int j) {
    if (i < 0 || i >= band_m || i - j > band_kl || j - i > band_ku)
        return 0;
    return mat_get(a, band_ku + i - j, j);
}

static trnblasStatus_t call_gemv(trnblasHandle_t h, ty t, int band, trnblasOperation_t tr, int m,
                                 int n, int kl, int ku, const void *al, const void *A, int lda,
                                 const void *x, int incx, const void *be, void *y, int incy) {
    switch (t) {
    case TY_S:
        return band ? trnblasSgbmv(h, tr, m, n, kl, ku, al, A, lda, x, incx, be, y, incy)
                    : trnblasSgemv(h, tr, m, n, al, A, lda, x, incx, be, y, incy);
    case TY_D:
        return band ? trnblasDgbmv(h, tr, m, n, kl, ku, al, A, lda, x, incx, be, y, incy)
                    : trnblasDgemv(h, tr, m, n, al, A, lda, x, incx, be, y, incy);
    case TY_C:
        return band ? trnblasCgbmv(h, tr, m, n, kl, ku, al, A, lda, x, incx, be, y, incy)
                    : trnblasCgemv(h, tr, m, n, al, A, lda, x, incx, be, y, incy);
    case TY_Z:
        return band ? trnblasZgbmv(h, tr, m, n, kl, ku, al, A, lda, x, incx, be, y, incy)
                    : trnblasZgemv(h, tr, m, n, al, A, lda, x, incx, be, y, incy);
    }
    return TRNBLAS_STATUS_INTERNAL_ERROR;
}

typedef struct mv_case {
    int m, n, kl, ku, incx, incy;
    long double alpha_re, beta_re; /* the imaginary parts follow (complex types) */
} mv_case;

/* y = alpha op(A) x + beta y with a general (band = 0) or banded A. */
static size_t run_gemv(trnblasHandle_t h, ty t, int band, trnblasOperation_t tr, const mv_case *c) {
    const int m = c->m, n = c->n, kl = c->kl, ku = c->ku;
    const lcplx alpha = scal_val(t, c->alpha_re + (is_complex(t) ? 0.5L * I : 0));
    const lcplx beta = scal_val(
        t, c->beta_re + (is_complex(t) && c->beta_re != 0 && c->beta_re != 1 ? -0.25L * I : 0));
    const int rows = band ? kl + ku + 1 : m;
    const int xl = tr == TRNBLAS_OP_N ? n : m, yl = tr == TRNBLAS_OP_N ? m : n;
    mat a;
    vec x, y;
    mat_init(&a, t, rows, n, rows + 3, 2);
    vec_init(&x, t, xl, c->incx, 1);
    vec_init(&y, t, yl, c->incy, 3);
    band_kl = kl, band_ku = ku, band_m = m;
    if (band) /* the corners of band storage that hold no element */
        for (int j = 0; j < n; j++)
            for (int r = 0; r < rows; r++) {
                const int i = r - ku + j;
                if (i < 0 || i >= m)
                    mat_set(&a, r, j, NAN);
            }
    const int beta0 = creall(beta) == 0 && cimagl(beta) == 0;
    if (beta0)
        vec_nan(&y);
    assert_int_equal(buf_upload(&a.b) | buf_upload(&x.b) | buf_upload(&y.b), 0);
    expect ey;
    expect_init(&ey, &y.b);
    const int alpha0 = creall(alpha) == 0 && cimagl(alpha) == 0;
    const int nothing = m == 0 || n == 0 || (alpha0 && creall(beta) == 1 && cimagl(beta) == 0);
    lcplx (*getf)(const mat *, int, int) = band ? band_get : mat_get;
    for (int i = 0; !nothing && i < yl; i++) {
        lcplx acc = 0;
        long double mag = 0;
        for (int j = 0; j < xl && !alpha0; j++) {
            const lcplx p = op_el(tr, getf, &a, i, j) * vec_get(&x, j);
            acc += p;
            mag += mag1(p);
        }
        const lcplx y0 = beta0 ? 0 : vec_get(&y, i);
        expect_set(&ey, vec_idx(&y, i), alpha * acc + beta * y0,
                   bound_k(t, xl + 3) * (mag1(alpha) * mag + mag1(beta) * mag1(y0)));
    }
    const int null_ax = alpha0 && !device_mode; /* not read: need not be given */
    const void *al = sarg(t, alpha, 0, 0), *be = sarg(t, beta, 1, 0);
    assert_int_equal(call_gemv(h, t, band, tr, m, n, kl, ku, al, null_ax ? NULL : mat_ptr(&a), a.ld,
                               null_ax ? NULL : vec_ptr(&x), c->incx, be, vec_ptr(&y), c->incy),
                     TRNBLAS_STATUS_SUCCESS);
    expect ea, ex;
    expect_init(&ea, &a.b);
    expect_init(&ex, &x.b);
    const char *name = band ? " gbmv" : " gemv";
    size_t bad = check(name, &y.b, &ey) + check(name, &a.b, &ea) + check(name, &x.b, &ex);
    if (bad)
        fprintf(stderr, "  (trans %d m %d n %d kl %d ku %d incx %d incy %d, %s mode)\n", (int)tr, m,
                n, kl, ku, c->incx, c->incy, device_mode ? "device" : "host");
    release(&ey, &ea, &ex, &a.b, &x.b, &y.b);
    return bad;
}

static const mv_case mv_cases[] = {
    {7, 5, 2, 1, 1, 1, 0.75L, -1.5L},   {6, 9, 0, 3, -2, 2, -1.25L, 0.0L},
    {9, 4, 3, 0, 2, -1, 1.0L, 1.0L},    {5, 5, 1, 1, -1, -2, 0.0L, 0.5L},
    {4, 3, 1, 2, 1, 1, 0.0L, 1.0L},     {0, 4, 1, 1, 1, 1, 1.0L, 2.0L},
    {5, 0, 1, 1, 1, -1, 1.0L, 2.0L},    {1, 1, 0, 0, 1, 1, 2.0L, 0.0L},
    {33, 17, 4, 5, -1, 1, 0.5L, 0.25L},
};
#define N_MV (sizeof(mv_cases) / sizeof(mv_cases[0]))

/* ---- symv, hemv ------------------------------------------------------------ */

/* Element (i, j) of the symmetric (herm = 0) or Hermitian matrix whose uplo
 * triangle is stored in a. */
static int sym_herm, sym_upper;
static lcplx sym_get(const mat *a, int i, int j) {
    const int stored = sym_upper ? i <= j : i >= j;
    if (i == j && sym_herm)
        return creall(mat_get(a, i, i));
    if (stored)
        return mat_get(a, i, j);
    return sym_herm ? conjl(mat_get(a, j, i)) : mat_get(a, j, i);
}

static trnblasStatus_t call_symv(trnblasHandle_t h, ty t, int herm, trnblasFillMode_t ul, int n,
                                 const void *al, const void *A, int lda, const void *x, int incx,
                                 const void *be, void *y, int incy) {
    switch (t) {
    case TY_S: return trnblasSsymv(h, ul, n, al, A, lda, x, incx, be, y, incy);
    case TY_D: return trnblasDsymv(h, ul, n, al, A, lda, x, incx, be, y, incy);
    case TY_C:
        return herm ? trnblasChemv(h, ul, n, al, A, lda, x, incx, be, y, incy)
                    : trnblasCsymv(h, ul, n, al, A, lda, x, incx, be, y, incy);
    case TY_Z:
        return herm ? trnblasZhemv(h, ul, n, al, A, lda, x, incx, be, y, incy)
                    : trnblasZsymv(h, ul, n, al, A, lda, x, incx, be, y, incy);
    }
    return TRNBLAS_STATUS_INTERNAL_ERROR;
}

static size_t run_symv(trnblasHandle_t h, ty t, int herm, trnblasFillMode_t ul, const mv_case *c) {
    const int n = c->n;
    const lcplx alpha = scal_val(t, c->alpha_re + (is_complex(t) ? -0.5L * I : 0));
    const lcplx beta = scal_val(
        t, c->beta_re + (is_complex(t) && c->beta_re != 0 && c->beta_re != 1 ? 0.75L * I : 0));
    mat a;
    vec x, y;
    mat_init(&a, t, n, n, n + 2, 1);
    vec_init(&x, t, n, c->incx, 2);
    vec_init(&y, t, n, c->incy, 1);
    sym_herm = herm, sym_upper = ul == TRNBLAS_FILL_MODE_UPPER;
    poison(&a, n, sym_upper, herm, 0);
    const int beta0 = creall(beta) == 0 && cimagl(beta) == 0;
    if (beta0)
        vec_nan(&y);
    assert_int_equal(buf_upload(&a.b) | buf_upload(&x.b) | buf_upload(&y.b), 0);
    expect ey, ea, ex;
    expect_init(&ey, &y.b);
    expect_init(&ea, &a.b);
    expect_init(&ex, &x.b);
    const int alpha0 = creall(alpha) == 0 && cimagl(alpha) == 0;
    const int nothing = n == 0 || (alpha0 && creall(beta) == 1 && cimagl(beta) == 0);
    for (int i = 0; !nothing && i < n; i++) {
        lcplx acc = 0;
        long double mag = 0;
        for (int j = 0; j < n && !alpha0; j++) {
            const lcplx p = sym_get(&a, i, j) * vec_get(&x, j);
            acc += p;
            mag += mag1(p);
        }
        const lcplx y0 = beta0 ? 0 : vec_get(&y, i);
        expect_set(&ey, vec_idx(&y, i), alpha * acc + beta * y0,
                   bound_k(t, n + 3) * (mag1(alpha) * mag + mag1(beta) * mag1(y0)));
    }
    const int null_ax = alpha0 && !device_mode;
    const void *al = sarg(t, alpha, 0, 0), *be = sarg(t, beta, 1, 0);
    assert_int_equal(call_symv(h, t, herm, ul, n, al, null_ax ? NULL : mat_ptr(&a), a.ld,
                               null_ax ? NULL : vec_ptr(&x), c->incx, be, vec_ptr(&y), c->incy),
                     TRNBLAS_STATUS_SUCCESS);
    const char *name = herm ? " hemv" : " symv";
    size_t bad = check(name, &y.b, &ey) + check(name, &a.b, &ea) + check(name, &x.b, &ex);
    if (bad)
        fprintf(stderr, "  (uplo %d n %d incx %d incy %d, %s mode)\n", (int)ul, n, c->incx, c->incy,
                device_mode ? "device" : "host");
    release(&ey, &ea, &ex, &a.b, &x.b, &y.b);
    return bad;
}

/* ---- trmv, trsv ------------------------------------------------------------- */

static trnblasStatus_t call_trxv(trnblasHandle_t h, ty t, int solve, trnblasFillMode_t ul,
                                 trnblasOperation_t tr, trnblasDiagType_t dg, int n, const void *A,
                                 int lda, void *x, int incx) {
    switch (t) {
    case TY_S:
        return solve ? trnblasStrsv(h, ul, tr, dg, n, A, lda, x, incx)
                     : trnblasStrmv(h, ul, tr, dg, n, A, lda, x, incx);
    case TY_D:
        return solve ? trnblasDtrsv(h, ul, tr, dg, n, A, lda, x, incx)
                     : trnblasDtrmv(h, ul, tr, dg, n, A, lda, x, incx);
    case TY_C:
        return solve ? trnblasCtrsv(h, ul, tr, dg, n, A, lda, x, incx)
                     : trnblasCtrmv(h, ul, tr, dg, n, A, lda, x, incx);
    case TY_Z:
        return solve ? trnblasZtrsv(h, ul, tr, dg, n, A, lda, x, incx)
                     : trnblasZtrmv(h, ul, tr, dg, n, A, lda, x, incx);
    }
    return TRNBLAS_STATUS_INTERNAL_ERROR;
}

static size_t run_trxv(trnblasHandle_t h, ty t, int solve, trnblasFillMode_t ul,
                       trnblasOperation_t tr, trnblasDiagType_t dg, int n, int incx) {
    mat a;
    vec x;
    mat_init(&a, t, n, n, n + 1, 3);
    vec_init(&x, t, n, incx, 2);
    tri_fill(&a, n, ul == TRNBLAS_FILL_MODE_UPPER, dg == TRNBLAS_DIAG_UNIT);
    assert_int_equal(buf_upload(&a.b) | buf_upload(&x.b), 0);
    expect ex, ea;
    expect_init(&ex, &x.b);
    expect_init(&ea, &a.b);
    for (int i = 0; i < n; i++) {
        lcplx acc = 0;
        long double mag = 0;
        for (int j = 0; j < n && !solve; j++) {
            const lcplx p = op_el(tr, tri_get, &a, i, j) * vec_get(&x, j);
            acc += p;
            mag += mag1(p);
        }
        /* trsv: written, checked by the residual below. */
        expect_set(&ex, vec_idx(&x, i), acc, solve ? INFINITY : bound_k(t, n) * mag);
    }
    assert_int_equal(call_trxv(h, t, solve, ul, tr, dg, n, mat_ptr(&a), a.ld, vec_ptr(&x), incx),
                     TRNBLAS_STATUS_SUCCESS);
    const char *name = solve ? " trsv" : " trmv";
    size_t bad = check(name, &x.b, &ex) + check(name, &a.b, &ea);
    if (solve && n > 0) {
        void *got = buf_download(&x.b);
        for (int i = 0; i < n; i++) {
            lcplx r = vec_get(&x, i); /* b */
            long double mag = 0;
            for (int j = 0; j < n; j++) {
                const lcplx p = op_el(tr, tri_get, &a, i, j) * get_el(t, got, vec_idx(&x, j));
                r -= p;
                mag += mag1(p);
            }
            const long double bound = bound_k(t, n + 1) * mag;
            if (!(cabsl(r) <= bound) && bad++ < 4)
                fprintf(stderr, "%s trsv: residual %Lg at %d exceeds %Lg\n", ty_name[t], mag1(r), i,
                        bound);
            else if (bound > 0)
                note_ratio(" trsv residual", t, cabsl(r) / bound);
        }
        free(got);
    }
    if (bad)
        fprintf(stderr, "  (uplo %d trans %d diag %d n %d incx %d, %s mode)\n", (int)ul, (int)tr,
                (int)dg, n, incx, device_mode ? "device" : "host");
    release(&ex, &ea, NULL, &a.b, &x.b, NULL);
    return bad;
}

/* ---- ger, syr, syr2, her, her2 ------------------------------------------------ */

typedef enum { U_GER, U_GERC, U_SYR, U_SYR2, U_HER, U_HER2 } upd;
static const char *const upd_name[] = {" ger", " gerc", " syr", " syr2", " her", " her2"};

static trnblasStatus_t call_upd(trnblasHandle_t h, ty t, upd u, trnblasFillMode_t ul, int m, int n,
                                const void *al, const void *x, int incx, const void *y, int incy,
                                void *A, int lda) {
    switch (u) {
    case U_GER:
        switch (t) {
        case TY_S: return trnblasSger(h, m, n, al, x, incx, y, incy, A, lda);
        case TY_D: return trnblasDger(h, m, n, al, x, incx, y, incy, A, lda);
        case TY_C: return trnblasCgeru(h, m, n, al, x, incx, y, incy, A, lda);
        case TY_Z: return trnblasZgeru(h, m, n, al, x, incx, y, incy, A, lda);
        }
        break;
    case U_GERC:
        return t == TY_C ? trnblasCgerc(h, m, n, al, x, incx, y, incy, A, lda)
                         : trnblasZgerc(h, m, n, al, x, incx, y, incy, A, lda);
    case U_SYR:
        switch (t) {
        case TY_S: return trnblasSsyr(h, ul, n, al, x, incx, A, lda);
        case TY_D: return trnblasDsyr(h, ul, n, al, x, incx, A, lda);
        case TY_C: return trnblasCsyr(h, ul, n, al, x, incx, A, lda);
        case TY_Z: return trnblasZsyr(h, ul, n, al, x, incx, A, lda);
        }
        break;
    case U_SYR2:
        switch (t) {
        case TY_S: return trnblasSsyr2(h, ul, n, al, x, incx, y, incy, A, lda);
        case TY_D: return trnblasDsyr2(h, ul, n, al, x, incx, y, incy, A, lda);
        case TY_C: return trnblasCsyr2(h, ul, n, al, x, incx, y, incy, A, lda);
        case TY_Z: return trnblasZsyr2(h, ul, n, al, x, incx, y, incy, A, lda);
        }
        break;
    case U_HER:
        return t == TY_C ? trnblasCher(h, ul, n, al, x, incx, A, lda)
                         : trnblasZher(h, ul, n, al, x, incx, A, lda);
    case U_HER2:
        return t == TY_C ? trnblasCher2(h, ul, n, al, x, incx, y, incy, A, lda)
                         : trnblasZher2(h, ul, n, al, x, incx, y, incy, A, lda);
    }
    return TRNBLAS_STATUS_INTERNAL_ERROR;
}

static size_t run_upd(trnblasHandle_t h, ty t, upd u, trnblasFillMode_t ul, const mv_case *c) {
    const int general = u == U_GER || u == U_GERC;
    const int m = general ? c->m : c->n, n = c->n;
    const int two = u == U_SYR2 || u == U_HER2 || general, herm = u == U_HER || u == U_HER2;
    const lcplx alpha = scal_val(t, c->alpha_re + (is_complex(t) && u != U_HER ? 0.25L * I : 0));
    mat a;
    vec x, y;
    mat_init(&a, t, m, n, m + 2, 2);
    vec_init(&x, t, m, c->incx, 1);
    vec_init(&y, t, n, c->incy, 2);
    if (herm)
        for (int j = 0; j < n; j++) /* the diagonal's imaginary parts become 0 */
            mat_set(&a, j, j, creall(mat_get(&a, j, j)) + 0.5L * I);
    assert_int_equal(buf_upload(&a.b) | buf_upload(&x.b) | buf_upload(&y.b), 0);
    expect ea, ex, ey;
    expect_init(&ea, &a.b);
    expect_init(&ex, &x.b);
    expect_init(&ey, &y.b);
    const int alpha0 = creall(alpha) == 0 && cimagl(alpha) == 0;
    const int upper = ul == TRNBLAS_FILL_MODE_UPPER;
    for (int j = 0; j < n && !alpha0; j++)
        for (int i = 0; i < m; i++) {
            if (!general && (upper ? i > j : i < j))
                continue; /* the other triangle stays */
            const lcplx xi = vec_get(&x, i);
            const long double aa = mag1(alpha);
            lcplx v;
            long double mag;
            if (general) {
                const lcplx yj = u == U_GERC ? conjl(vec_get(&y, j)) : vec_get(&y, j);
                v = alpha * xi * yj;
                mag = aa * mag1(xi) * mag1(yj);
            } else if (!two) {
                const lcplx xj = herm ? conjl(vec_get(&x, j)) : vec_get(&x, j);
                v = alpha * xi * xj;
                mag = aa * mag1(xi) * mag1(xj);
            } else {
                const lcplx yj = herm ? conjl(vec_get(&y, j)) : vec_get(&y, j);
                const lcplx xj = herm ? conjl(vec_get(&x, j)) : vec_get(&x, j);
                const lcplx a2 = herm ? conjl(alpha) : alpha;
                v = alpha * xi * yj + a2 * vec_get(&y, i) * xj;
                mag = aa * (mag1(xi) * mag1(yj) + mag1(vec_get(&y, i)) * mag1(xj));
            }
            lcplx want = mat_get(&a, i, j) + v;
            if (herm && i == j)
                want = creall(want);
            expect_set(&ea, mat_idx(&a, i, j), want,
                       bound_k(t, two ? 5 : 3) * (mag1(mat_get(&a, i, j)) + mag));
        }
    const int null_xy = alpha0 && !device_mode;
    const void *al = sarg(t, alpha, 0, u == U_HER);
    assert_int_equal(call_upd(h, t, u, ul, m, n, al, null_xy ? NULL : vec_ptr(&x), c->incx,
                              null_xy || !two ? NULL : vec_ptr(&y), c->incy, mat_ptr(&a), a.ld),
                     TRNBLAS_STATUS_SUCCESS);
    size_t bad = check(upd_name[u], &a.b, &ea) + check(upd_name[u], &x.b, &ex) +
                 check(upd_name[u], &y.b, &ey);
    if (bad)
        fprintf(stderr, "  (uplo %d m %d n %d incx %d incy %d alpha %Lg, %s mode)\n", (int)ul, m, n,
                c->incx, c->incy, creall(alpha), device_mode ? "device" : "host");
    release(&ea, &ex, &ey, &a.b, &x.b, &y.b);
    return bad;
}

/* ---- the cases ------------------------------------------------------------------ */

static const trnblasOperation_t trans3[] = {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C};
static const trnblasFillMode_t uplo2[] = {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER};

static void all_routines(ty t) {
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    set_mode(h);
    size_t bad = 0;
    const int cx = is_complex(t);
    /* Device mode checks where the scalars come from: the first five cases
     * hold the special values (beta = 0, alpha = 0, alpha = 0 and beta = 1). */
    const size_t ncases = device_mode ? 5 : N_MV;
    for (size_t c = 0; c < ncases; c++) {
        /* Every option in the first five cases; one trans and uplo each
         * (chosen by c) in the others, which are about sizes. */
        const int all = c < 5, pick = (int)c;
        for (int k = 0; k < 3; k++) {
            if (!all && k != pick % 3)
                continue;
            bad += run_gemv(h, t, 0, trans3[k], &mv_cases[c]);
            bad += run_gemv(h, t, 1, trans3[k], &mv_cases[c]);
        }
        for (int u = 0; u < 2; u++) {
            if (!all && u != (pick & 1))
                continue;
            bad += run_symv(h, t, 0, uplo2[u], &mv_cases[c]);
            if (cx)
                bad += run_symv(h, t, 1, uplo2[u], &mv_cases[c]);
            for (int f = U_GER; f <= U_HER2; f++) {
                if (!cx && (f == U_GERC || f == U_HER || f == U_HER2))
                    continue;
                if ((f == U_GER || f == U_GERC) && u == 1)
                    continue; /* no uplo */
                bad += run_upd(h, t, (upd)f, uplo2[u], &mv_cases[c]);
            }
        }
    }
    /* trmv, trsv (no scalars: host mode only): every uplo x trans x diag at
     * two sizes and increments, and the edge sizes with fewer options. */
    static const int sizes[][2] = {{6, 1}, {13, -2}, {0, 1}, {1, -1}, {24, 2}};
    for (int s = 0; s < 5 && !device_mode; s++)
        for (int u = 0; u < 2; u++)
            for (int k = 0; k < 3; k++)
                for (int dg = 0; dg < 2; dg++)
                    for (int solve = 0; solve < 2; solve++)
                        if (s < 2 || (k == s - 2 && dg == u))
                            bad += run_trxv(h, t, solve, uplo2[u], trans3[k], (trnblasDiagType_t)dg,
                                            sizes[s][0], sizes[s][1]);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(bad, 0);
}

static void run_all_types(void) {
    for (int t = TY_S; t <= TY_Z; t += type_step)
        all_routines((ty)t);
}

/* gemv and ger over several output tiles (ops/op.h: 512 or more
 * elements of y, or columns of A for ger): each tile is one library call,
 * whatever the shard count. Large ones are split over cores only from 128
 * MiB of A (scheduler/sched.c); that the split gives the same bits is
 * tested on the kernel (tests/unit/test_blas23_shards.c). */
static void test_tiles(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    static const mv_case rows = {1100, 37, 0, 0, -1, 2, 0.75L, -1.5L},
                         cols = {37, 1100, 0, 0, 2, -1, -0.5L, 0.0L};
    size_t bad = run_gemv(h, TY_D, 0, TRNBLAS_OP_N, &rows) +
                 run_gemv(h, TY_S, 0, TRNBLAS_OP_T, &cols) +
                 run_gemv(h, TY_Z, 0, TRNBLAS_OP_C, &cols) + run_upd(h, TY_C, U_GERC, 0, &cols) +
                 run_upd(h, TY_D, U_GER, 0, &rows);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(bad, 0);
}

/* A non-default stream: x and y uploaded by trnsciMemcpyAsync on the
 * stream, a device-mode beta written the same way after the first op, two
 * gemvs in stream order, then a download on the stream. */
static void test_stream_order(void **state) {
    (void)state;
    trnblasHandle_t h;
    trnsciStream_t s;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciStreamCreate(&s), trnsciSuccess);
    assert_int_equal(trnblasSetStream(h, s), TRNBLAS_STATUS_SUCCESS);
    enum { M = 40, N = 30 };
    double *A = malloc(sizeof(double) * M * N), x[N], y[M], out[M];
    for (int i = 0; i < M * N; i++)
        A[i] = (double)uniform();
    for (int i = 0; i < N; i++)
        x[i] = (double)uniform();
    for (int i = 0; i < M; i++)
        y[i] = (double)uniform();
    double *dA, *dx, *dy, *ds;
    assert_int_equal(trnsciMalloc((void **)&dA, sizeof(double) * M * N), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&dx, sizeof(x)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&dy, sizeof(y)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&ds, 2 * sizeof(double)), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dA, A, sizeof(double) * M * N, trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(trnsciMemcpyAsync(dx, x, sizeof(x), trnsciMemcpyHostToDevice, s),
                     trnsciSuccess);
    assert_int_equal(trnsciMemcpyAsync(dy, y, sizeof(y), trnsciMemcpyHostToDevice, s),
                     trnsciSuccess);
    const double one = 1.0, sc[2] = {1.0, -1.0};
    /* y1 = A x + y; then (device mode) y2 = 1 A x - y1 = y */
    assert_int_equal(trnblasDgemv(h, TRNBLAS_OP_N, M, N, &one, dA, M, dx, 1, &one, dy, 1),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMemcpyAsync(ds, sc, sizeof(sc), trnsciMemcpyHostToDevice, s),
                     trnsciSuccess);
    assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_DEVICE), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasDgemv(h, TRNBLAS_OP_N, M, N, ds, dA, M, dx, 1, ds + 1, dy, 1),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMemcpyAsync(out, dy, sizeof(out), trnsciMemcpyDeviceToHost, s),
                     trnsciSuccess);
    assert_int_equal(trnsciStreamSynchronize(s), trnsciSuccess);
    /* out = Ax - (Ax + y) = -y up to the rounding of Ax (2 (N + 3) u |A||x|). */
    for (int i = 0; i < M; i++) {
        long double mag = 0;
        for (int j = 0; j < N; j++)
            mag += fabsl((long double)A[i + j * M] * x[j]);
        assert_true(fabsl((long double)out[i] + y[i]) <=
                    2 * gam(TY_D, N + 3) * (2 * mag + 2 * fabsl(y[i])));
    }
    assert_int_equal(trnsciFree(dA) | trnsciFree(dx) | trnsciFree(dy) | trnsciFree(ds),
                     trnsciSuccess);
    free(A);
    assert_int_equal(trnsciStreamDestroy(s), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* Bad input: cuBLAS's INVALID_VALUE cases and the memory-safety checks, each
 * with the daemon's message naming the argument; the daemon stays up. */

static void test_bad_input(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    float *A, *x, *y;
    enum { NA = 64 };
    assert_int_equal(trnsciMalloc((void **)&A, NA * sizeof(float)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&x, 8 * sizeof(float)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&y, 8 * sizeof(float)), trnsciSuccess);
    const float one = 1.0f;
    const trnblasOperation_t N = TRNBLAS_OP_N;
    const trnblasFillMode_t L = TRNBLAS_FILL_MODE_LOWER;
    const trnblasDiagType_t NU = TRNBLAS_DIAG_NON_UNIT;
    /* Enums. */
    expect_invalid(trnblasSgemv(h, (trnblasOperation_t)3, 4, 4, &one, A, 4, x, 1, &one, y, 1),
                   "gemv: trans=3");
    expect_invalid(trnblasSsymv(h, TRNBLAS_FILL_MODE_FULL, 4, &one, A, 4, x, 1, &one, y, 1),
                   "symv: uplo=2");
    expect_invalid(trnblasStrmv(h, (trnblasFillMode_t)7, N, NU, 4, A, 4, x, 1), "trmv: uplo=7");
    expect_invalid(trnblasStrsv(h, L, (trnblasOperation_t)-1, NU, 4, A, 4, x, 1), "trsv: trans=-1");
    expect_invalid(trnblasStrsv(h, L, N, (trnblasDiagType_t)2, 4, A, 4, x, 1), "trsv: diag=2");
    expect_invalid(trnblasSsyr(h, TRNBLAS_FILL_MODE_FULL, 4, &one, x, 1, A, 4), "syr: uplo=2");
    /* Negative sizes. */
    expect_invalid(trnblasSgemv(h, N, -1, 4, &one, A, 4, x, 1, &one, y, 1), "gemv: m=-1");
    expect_invalid(trnblasSgemv(h, N, 4, -2, &one, A, 4, x, 1, &one, y, 1), "gemv: n=-2");
    expect_invalid(trnblasSgbmv(h, N, 4, 4, -1, 1, &one, A, 3, x, 1, &one, y, 1), "gbmv: kl=-1");
    expect_invalid(trnblasSgbmv(h, N, 4, 4, 1, -1, &one, A, 3, x, 1, &one, y, 1), "gbmv: ku=-1");
    expect_invalid(trnblasSger(h, 4, -1, &one, x, 1, y, 1, A, 4), "ger: n=-1");
    expect_invalid(trnblasStrmv(h, L, N, NU, -3, A, 4, x, 1), "trmv: n=-3");
    /* Leading dimensions too small (and the boundary that passes). */
    expect_invalid(trnblasSgemv(h, N, 4, 4, &one, A, 3, x, 1, &one, y, 1), "gemv: lda=3");
    assert_int_equal(trnblasSgemv(h, N, 4, 4, &one, A, 4, x, 1, &one, y, 1),
                     TRNBLAS_STATUS_SUCCESS);
    expect_invalid(trnblasSgbmv(h, N, 4, 4, 1, 1, &one, A, 2, x, 1, &one, y, 1), "gbmv: lda=2");
    expect_invalid(trnblasSsymv(h, L, 5, &one, A, 4, x, 1, &one, y, 1), "symv: lda=4");
    expect_invalid(trnblasSger(h, 5, 2, &one, x, 1, y, 1, A, 4), "ger: lda=4");
    expect_invalid(trnblasSsyr2(h, L, 3, &one, x, 1, y, 1, A, 0), "syr2: lda=0");
    /* Zero increments. */
    expect_invalid(trnblasSgemv(h, N, 4, 4, &one, A, 4, x, 0, &one, y, 1), "gemv: incx=0");
    expect_invalid(trnblasSgemv(h, N, 4, 4, &one, A, 4, x, 1, &one, y, 0), "gemv: incy=0");
    expect_invalid(trnblasStrsv(h, L, N, NU, 4, A, 4, x, 0), "trsv: incx=0");
    expect_invalid(trnblasSger(h, 4, 4, &one, x, 1, y, 0, A, 4), "ger: incy=0");
    expect_invalid(trnblasSsyr(h, L, 4, &one, x, 0, A, 4), "syr: incx=0");
    /* Extents: y one element short (8 floats hold n = 4 at incy = 2, not
     * 5); A one column short (64 floats: lda 8, 8 columns; 9 do not fit). */
    assert_int_equal(trnblasSgemv(h, TRNBLAS_OP_T, 8, 4, &one, A, 8, x, 1, &one, y, 2),
                     TRNBLAS_STATUS_SUCCESS);
    expect_invalid(trnblasSgemv(h, N, 8, 9, &one, A, 8, x, 1, &one, y, 1), "gemv: A");
    expect_invalid(trnblasSgemv(h, TRNBLAS_OP_T, 4, 5, &one, A, 4, x, 1, &one, y, 2), "gemv: y");
    expect_invalid(trnblasStrmv(h, L, N, NU, 8, A + 1, 8, x, 1), "trmv: A");
    expect_invalid(trnblasSger(h, 9, 1, &one, x, 1, y, 1, A, 9), "ger: x");
    /* A host pointer, and a freed one. */
    float host[16] = {0};
    expect_invalid(trnblasSgemv(h, N, 4, 4, &one, host, 4, x, 1, &one, y, 1), "gemv: A");
    float *gone;
    assert_int_equal(trnsciMalloc((void **)&gone, 64), trnsciSuccess);
    assert_int_equal(trnsciFree(gone), trnsciSuccess);
    expect_invalid(trnblasSsyr(h, L, 2, &one, gone, 1, A, 4), "syr: x");
    /* Overflowing extents are refused, not wrapped. */
    expect_invalid(trnblasStrmv(h, L, N, NU, 2, A, 4, x, INT_MAX), "trmv: x");
    expect_invalid(trnblasSgemv(h, N, INT_MAX, INT_MAX, &one, A, INT_MAX, x, 1, &one, y, 1),
                   "gemv: A");
    /* NULL scalars; device mode with a host scalar. */
    expect_invalid(trnblasSgemv(h, N, 4, 4, NULL, A, 4, x, 1, &one, y, 1), "gemv");
    assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_DEVICE), TRNBLAS_STATUS_SUCCESS);
    expect_invalid(trnblasSger(h, 4, 4, &one, x, 1, y, 1, A, 4), "ger: alpha");
    assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_HOST), TRNBLAS_STATUS_SUCCESS);
    /* NULL handle. */
    assert_int_equal(trnblasSgemv(NULL, N, 4, 4, &one, A, 4, x, 1, &one, y, 1),
                     TRNBLAS_STATUS_NOT_INITIALIZED);
    /* Still working: y = 2 x with A = 2 I (4 x 4). */
    float a[16] = {0}, xv[4] = {1, 2, 3, 4}, yv[4];
    for (int i = 0; i < 4; i++)
        a[i * 5] = 2.0f;
    const float zero = 0.0f;
    assert_int_equal(trnsciMemcpy(A, a, sizeof(a), trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(x, xv, sizeof(xv), trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnblasSgemv(h, N, 4, 4, &one, A, 4, x, 1, &zero, y, 1),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMemcpy(yv, y, sizeof(yv), trnsciMemcpyDeviceToHost), trnsciSuccess);
    for (int i = 0; i < 4; i++)
        assert_true(yv[i] == 2.0f * xv[i]);
    assert_int_equal(trnsciFree(A) | trnsciFree(x) | trnsciFree(y), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

int main(void) {
    if (th_daemon_start(&daemon_under_test, NULL) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_mode), cmocka_unit_test(test_device_mode),
        cmocka_unit_test(test_tiles),     cmocka_unit_test(test_stream_order),
        cmocka_unit_test(test_bad_input),
    };
    int failed =
        cmocka_run_group_tests_name("blas2 over unix socket", tests, connect_unix, disconnect);
    failed += cmocka_run_group_tests_name("blas2 over tcp", tests, connect_tcp, disconnect);
    print_worst();
    const int rc = th_daemon_stop(&daemon_under_test);
    if (rc != 0) {
        fprintf(stderr, "trnscid exited with %d (expected a clean 0)\n", rc);
        failed++;
    }
    return failed ? 1 : 0;
}
