/*
 * test_blas3.c — trnblas Level 3 beyond GEMM (symm, hemm, syrk, herk,
 * syr2k, her2k, syrkx, herkx, trsm, trmm, geam, dgmm) in every type cuBLAS has, every
 * side, uplo, trans and diag, through a real trnscid (two cores) over the
 * unix socket and over TCP (there S and Z), against an independent
 * reference: naive loops in long double computed by this test.
 *
 * Operands are sub-matrices at offsets inside larger random allocations
 * (ld > rows); every element an op must not write comes back bitwise
 * unchanged (blas_check.h), including the other triangle of C for syrk..
 * her2k. Elements a routine must not read hold NaN: the other triangle of a
 * symmetric, Hermitian or triangular A, a unit diagonal, the imaginary
 * parts of a Hermitian diagonal, C when beta = 0; with alpha = 0 (host
 * pointer mode) A and B are passed as NULL (geam: A when alpha = 0, B when
 * beta = 0).
 *
 * Bounds (blas_check.h: bound(t, k) = gamma_k real, 2 gamma_2k complex),
 * for an inner dimension p (the order of A for symm, trmm and trsm, k for
 * the rank-k updates):
 *  - symm, hemm, syrk, herk, syrkx, herkx: c_ij = beta c_ij + alpha sum_l t_l, at most
 *    p + 3 roundings per term: bound(t, p + 3) (|alpha| sum |t_l| +
 *    |beta||c_ij|); syr2k, her2k sum 2p terms: bound(t, 2p + 3);
 *  - trmm: bound(t, p + 2) |alpha| sum_l |op(A)_il||b_lj|;
 *  - trsm: each column (left) or row (right) of X solves a triangular
 *    system with right-hand side alpha b; x_i = (alpha b_i - sum t_ij x_j)
 *    times the diagonal's reciprocal, whatever the blocking: at most p + 4
 *    roundings, so the residual |alpha B - op(A) X| (or X op(A)) is within
 *    bound(t, p + 4) (|alpha||b_ij| + sum_l |op(A)_il||x_lj|) (Higham
 *    Thm 8.5 and §13.1);
 *  - geam: alpha a + beta b, 3 roundings; dgmm: one product, 1 rounding.
 * herk, her2k and herkx must leave the diagonal of C exactly real. Multi-tile ops
 * (wider than one 512-column tile) and ops large enough to be split over
 * the daemon's two cores are checked the same way; bitwise equality of
 * sharded and unsharded results is tested on the kernel directly
 * (tests/unit/test_blas23_shards.c).
 *
 * Both pointer modes (device: alpha and beta uploaded into device memory just
 * before each call), a non-default stream, and the bad-input cases cuBLAS
 * rejects with INVALID_VALUE, each with the daemon's message.
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

static const trnblasOperation_t trans3[] = {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C};
static const trnblasFillMode_t uplo2[] = {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER};
static const trnblasSideMode_t side2[] = {TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT};

static int is0(lcplx v) {
    return creall(v) == 0 && cimagl(v) == 0;
}

static int is1(lcplx v) {
    return creall(v) == 1 && cimagl(v) == 0;
}

/* Scalars of a case: alpha and beta, real parts; complex types add a fixed
 * imaginary part unless the value is 0 or 1 (which are special). */
typedef struct sc2 {
    long double a, b;
} sc2;

static lcplx cval(ty t, long double re, long double im) {
    return scal_val(t, re + (is_complex(t) && re != 0 && re != 1 ? im * I : 0));
}

static void nan_fill(mat *c) {
    for (int j = 0; j < c->cols; j++)
        for (int i = 0; i < c->rows; i++)
            mat_set(c, i, j, CMPLXL(NAN, NAN));
}

/* ---- symm, hemm ------------------------------------------------------------------ */

static int sh_herm, sh_upper;
static lcplx sym_at(const mat *a, int i, int j) {
    if (i == j && sh_herm)
        return creall(mat_get(a, i, i));
    if (sh_upper ? i <= j : i >= j)
        return mat_get(a, i, j);
    return sh_herm ? conjl(mat_get(a, j, i)) : mat_get(a, j, i);
}

static trnblasStatus_t call_symm(trnblasHandle_t h, ty t, int herm, trnblasSideMode_t sd,
                                 trnblasFillMode_t ul, int m, int n, const void *al, const void *A,
                                 int lda, const void *B, int ldb, const void *be, void *C,
                                 int ldc) {
    switch (t) {
    case TY_S: return trnblasSsymm(h, sd, ul, m, n, al, A, lda, B, ldb, be, C, ldc);
    case TY_D: return trnblasDsymm(h, sd, ul, m, n, al, A, lda, B, ldb, be, C, ldc);
    case TY_C:
        return herm ? trnblasChemm(h, sd, ul, m, n, al, A, lda, B, ldb, be, C, ldc)
                    : trnblasCsymm(h, sd, ul, m, n, al, A, lda, B, ldb, be, C, ldc);
    case TY_Z:
        return herm ? trnblasZhemm(h, sd, ul, m, n, al, A, lda, B, ldb, be, C, ldc)
                    : trnblasZsymm(h, sd, ul, m, n, al, A, lda, B, ldb, be, C, ldc);
    }
    return TRNBLAS_STATUS_INTERNAL_ERROR;
}

static size_t run_symm(trnblasHandle_t h, ty t, int herm, trnblasSideMode_t sd,
                       trnblasFillMode_t ul, int m, int n, sc2 s) {
    const lcplx alpha = cval(t, s.a, 0.5L), beta = cval(t, s.b, -0.25L);
    const int left = sd == TRNBLAS_SIDE_LEFT, ka = left ? m : n;
    mat a, b, c;
    mat_init(&a, t, ka, ka, ka + 2, 1);
    mat_init(&b, t, m, n, m + 1, 2);
    mat_init(&c, t, m, n, m + 3, 3);
    sh_herm = herm, sh_upper = ul == TRNBLAS_FILL_MODE_UPPER;
    poison(&a, ka, sh_upper, herm, 0);
    if (is0(beta))
        nan_fill(&c);
    assert_int_equal(buf_upload(&a.b) | buf_upload(&b.b) | buf_upload(&c.b), 0);
    expect ea, eb, ec;
    expect_init(&ea, &a.b);
    expect_init(&eb, &b.b);
    expect_init(&ec, &c.b);
    const int nothing = m == 0 || n == 0 || (is0(alpha) && is1(beta));
    for (int j = 0; j < n && !nothing; j++)
        for (int i = 0; i < m; i++) {
            lcplx acc = 0;
            long double mag = 0;
            for (int l = 0; l < ka && !is0(alpha); l++) {
                const lcplx p = left ? sym_at(&a, i, l) * mat_get(&b, l, j)
                                     : mat_get(&b, i, l) * sym_at(&a, l, j);
                acc += p;
                mag += mag1(p);
            }
            const lcplx c0 = is0(beta) ? 0 : mat_get(&c, i, j);
            expect_set(&ec, mat_idx(&c, i, j), alpha * acc + beta * c0,
                       bound_k(t, ka + 3) * (mag1(alpha) * mag + mag1(beta) * mag1(c0)));
        }
    const int nul = is0(alpha) && !device_mode;
    const void *al = sarg(t, alpha, 0, 0), *be = sarg(t, beta, 1, 0);
    assert_int_equal(call_symm(h, t, herm, sd, ul, m, n, al, nul ? NULL : mat_ptr(&a), a.ld,
                               nul ? NULL : mat_ptr(&b), b.ld, be, mat_ptr(&c), c.ld),
                     TRNBLAS_STATUS_SUCCESS);
    const char *name = herm ? " hemm" : " symm";
    size_t bad = check(name, &c.b, &ec) + check(name, &a.b, &ea) + check(name, &b.b, &eb);
    if (bad)
        fprintf(stderr, "  (side %d uplo %d m %d n %d, %s mode)\n", (int)sd, (int)ul, m, n,
                device_mode ? "device" : "host");
    release(&ea, &eb, &ec, &a.b, &b.b, &c.b);
    return bad;
}

/* ---- syrk, herk, syr2k, her2k ------------------------------------------------ */

typedef enum { K_SYRK, K_HERK, K_SYR2K, K_HER2K, K_SYRKX, K_HERKX } rk;
static const char *const rk_name[] = {" syrk", " herk", " syr2k", " her2k", " syrkx", " herkx"};

static trnblasStatus_t call_rk(trnblasHandle_t h, ty t, rk f, trnblasFillMode_t ul,
                               trnblasOperation_t tr, int n, int k, const void *al, const void *A,
                               int lda, const void *B, int ldb, const void *be, void *C, int ldc) {
    switch (f) {
    case K_SYRK:
        switch (t) {
        case TY_S: return trnblasSsyrk(h, ul, tr, n, k, al, A, lda, be, C, ldc);
        case TY_D: return trnblasDsyrk(h, ul, tr, n, k, al, A, lda, be, C, ldc);
        case TY_C: return trnblasCsyrk(h, ul, tr, n, k, al, A, lda, be, C, ldc);
        case TY_Z: return trnblasZsyrk(h, ul, tr, n, k, al, A, lda, be, C, ldc);
        }
        break;
    case K_HERK:
        return t == TY_C ? trnblasCherk(h, ul, tr, n, k, al, A, lda, be, C, ldc)
                         : trnblasZherk(h, ul, tr, n, k, al, A, lda, be, C, ldc);
    case K_SYR2K:
        switch (t) {
        case TY_S: return trnblasSsyr2k(h, ul, tr, n, k, al, A, lda, B, ldb, be, C, ldc);
        case TY_D: return trnblasDsyr2k(h, ul, tr, n, k, al, A, lda, B, ldb, be, C, ldc);
        case TY_C: return trnblasCsyr2k(h, ul, tr, n, k, al, A, lda, B, ldb, be, C, ldc);
        case TY_Z: return trnblasZsyr2k(h, ul, tr, n, k, al, A, lda, B, ldb, be, C, ldc);
        }
        break;
    case K_HER2K:
        return t == TY_C ? trnblasCher2k(h, ul, tr, n, k, al, A, lda, B, ldb, be, C, ldc)
                         : trnblasZher2k(h, ul, tr, n, k, al, A, lda, B, ldb, be, C, ldc);
    case K_SYRKX:
        switch (t) {
        case TY_S: return trnblasSsyrkx(h, ul, tr, n, k, al, A, lda, B, ldb, be, C, ldc);
        case TY_D: return trnblasDsyrkx(h, ul, tr, n, k, al, A, lda, B, ldb, be, C, ldc);
        case TY_C: return trnblasCsyrkx(h, ul, tr, n, k, al, A, lda, B, ldb, be, C, ldc);
        case TY_Z: return trnblasZsyrkx(h, ul, tr, n, k, al, A, lda, B, ldb, be, C, ldc);
        }
        break;
    case K_HERKX:
        return t == TY_C ? trnblasCherkx(h, ul, tr, n, k, al, A, lda, B, ldb, be, C, ldc)
                         : trnblasZherkx(h, ul, tr, n, k, al, A, lda, B, ldb, be, C, ldc);
    }
    return TRNBLAS_STATUS_INTERNAL_ERROR;
}

static size_t run_rk(trnblasHandle_t h, ty t, rk f, trnblasFillMode_t ul, trnblasOperation_t tr,
                     int n, int k, sc2 s) {
    const int herm = f == K_HERK || f == K_HER2K || f == K_HERKX,
              two = f == K_SYR2K || f == K_HER2K, kx = f == K_SYRKX || f == K_HERKX;
    /* herk: alpha and beta real; her2k: beta real. */
    const lcplx alpha = f == K_HERK ? scal_val(t, s.a) : cval(t, s.a, 0.5L);
    const lcplx beta = herm ? scal_val(t, s.b) : cval(t, s.b, -0.25L);
    const int tn = tr == TRNBLAS_OP_N;
    mat a, b, c;
    mat_init(&a, t, tn ? n : k, tn ? k : n, (tn ? n : k) + 2, 1);
    mat_init(&b, t, tn ? n : k, tn ? k : n, (tn ? n : k) + 1, 2);
    mat_init(&c, t, n, n, n + 3, 3);
    const int upper = ul == TRNBLAS_FILL_MODE_UPPER;
    /* The other triangle of C is neither read nor written; neither is the
     * stored one read when beta = 0. */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if ((upper ? i > j : i < j) || is0(beta))
                mat_set(&c, i, j, CMPLXL(NAN, NAN));
            else if (herm && i == j)
                mat_set(&c, i, j, CMPLXL(creall(mat_get(&c, i, j)), 0.375L));
    assert_int_equal(buf_upload(&a.b) | buf_upload(&b.b) | buf_upload(&c.b), 0);
    expect ea, eb, ec;
    expect_init(&ea, &a.b);
    expect_init(&eb, &b.b);
    expect_init(&ec, &c.b);
    /* op(X)(i, l): X(i, l) or X(l, i) (conjugated for OP_C). */
    const int update = !is0(alpha) && k > 0;
    const int nothing = n == 0 || (!update && is1(beta));
    for (int j = 0; j < n && !nothing; j++)
        for (int i = upper ? 0 : j; i < (upper ? j + 1 : n); i++) {
            lcplx acc = 0;
            long double mag = 0;
            for (int l = 0; l < k && update; l++) {
                const lcplx ai = op_el(tr, mat_get, &a, i, l), aj = op_el(tr, mat_get, &a, j, l);
                if (kx) { /* op(A) op(B)^T (^H) */
                    const lcplx bj = op_el(tr, mat_get, &b, j, l);
                    const lcplx p = ai * (herm ? conjl(bj) : bj);
                    acc += p;
                    mag += mag1(p);
                } else if (!two) {
                    const lcplx p = ai * (herm ? conjl(aj) : aj);
                    acc += p;
                    mag += mag1(p);
                } else {
                    const lcplx bi = op_el(tr, mat_get, &b, i, l),
                                bj = op_el(tr, mat_get, &b, j, l);
                    const lcplx p1 = alpha * ai * (herm ? conjl(bj) : bj);
                    const lcplx p2 = (herm ? conjl(alpha) : alpha) * bi * (herm ? conjl(aj) : aj);
                    acc += p1 + p2;
                    mag += mag1(p1) + mag1(p2);
                }
            }
            const lcplx c0 = is0(beta) ? 0 : mat_get(&c, i, j);
            lcplx want = (two ? acc : alpha * acc) + beta * c0;
            if (herm && i == j)
                want = creall(want);
            const long double am = two ? mag : mag1(alpha) * mag;
            expect_set(&ec, mat_idx(&c, i, j), want,
                       bound_k(t, (two ? 2 * k : k) + 3) * (am + mag1(beta) * mag1(c0)));
        }
    const int nul = !update && !device_mode;
    const void *al = sarg(t, alpha, 0, f == K_HERK), *be = sarg(t, beta, 1, herm);
    assert_int_equal(call_rk(h, t, f, ul, tr, n, k, al, nul ? NULL : mat_ptr(&a), a.ld,
                             nul || !(two || kx) ? NULL : mat_ptr(&b), b.ld, be, mat_ptr(&c), c.ld),
                     TRNBLAS_STATUS_SUCCESS);
    size_t bad =
        check(rk_name[f], &c.b, &ec) + check(rk_name[f], &a.b, &ea) + check(rk_name[f], &b.b, &eb);
    if (herm && !nothing) { /* the diagonal is exactly real */
        void *got = buf_download(&c.b);
        for (int j = 0; j < n; j++)
            if (cimagl(get_el(t, got, mat_idx(&c, j, j))) != 0 && bad++ < 4)
                fprintf(stderr, "%s%s: C(%d, %d) is not real\n", ty_name[t], rk_name[f], j, j);
        free(got);
    }
    if (bad)
        fprintf(stderr, "  (uplo %d trans %d n %d k %d, %s mode)\n", (int)ul, (int)tr, n, k,
                device_mode ? "device" : "host");
    release(&ea, &eb, &ec, &a.b, &b.b, &c.b);
    return bad;
}

/* ---- trsm, trmm ------------------------------------------------------------------ */

static trnblasStatus_t call_trxm(trnblasHandle_t h, ty t, int solve, trnblasSideMode_t sd,
                                 trnblasFillMode_t ul, trnblasOperation_t tr, trnblasDiagType_t dg,
                                 int m, int n, const void *al, const void *A, int lda, void *B,
                                 int ldb, void *C, int ldc) {
    switch (t) {
    case TY_S:
        return solve ? trnblasStrsm(h, sd, ul, tr, dg, m, n, al, A, lda, B, ldb)
                     : trnblasStrmm(h, sd, ul, tr, dg, m, n, al, A, lda, B, ldb, C, ldc);
    case TY_D:
        return solve ? trnblasDtrsm(h, sd, ul, tr, dg, m, n, al, A, lda, B, ldb)
                     : trnblasDtrmm(h, sd, ul, tr, dg, m, n, al, A, lda, B, ldb, C, ldc);
    case TY_C:
        return solve ? trnblasCtrsm(h, sd, ul, tr, dg, m, n, al, A, lda, B, ldb)
                     : trnblasCtrmm(h, sd, ul, tr, dg, m, n, al, A, lda, B, ldb, C, ldc);
    case TY_Z:
        return solve ? trnblasZtrsm(h, sd, ul, tr, dg, m, n, al, A, lda, B, ldb)
                     : trnblasZtrmm(h, sd, ul, tr, dg, m, n, al, A, lda, B, ldb, C, ldc);
    }
    return TRNBLAS_STATUS_INTERNAL_ERROR;
}

/* in_place (trmm): C is B. */
static size_t run_trxm(trnblasHandle_t h, ty t, int solve, trnblasSideMode_t sd,
                       trnblasFillMode_t ul, trnblasOperation_t tr, trnblasDiagType_t dg, int m,
                       int n, long double alpha_re, int in_place) {
    const lcplx alpha = cval(t, alpha_re, 0.75L);
    const int left = sd == TRNBLAS_SIDE_LEFT, ka = left ? m : n;
    mat a, b, c;
    mat_init(&a, t, ka, ka, ka + 1, 2);
    mat_init(&b, t, m, n, m + 2, 1);
    mat_init(&c, t, m, n, m + 1, 3);
    tri_fill(&a, ka, ul == TRNBLAS_FILL_MODE_UPPER, dg == TRNBLAS_DIAG_UNIT);
    assert_int_equal(buf_upload(&a.b) | buf_upload(&b.b) | buf_upload(&c.b), 0);
    /* The output: B (trsm, trmm in place) or C. */
    mat *out = solve || in_place ? &b : &c;
    expect ea, eb, ec;
    expect_init(&ea, &a.b);
    expect_init(&eb, &b.b);
    expect_init(&ec, &c.b);
    expect *eo = out == &b ? &eb : &ec;
    for (int j = 0; j < n && m > 0; j++)
        for (int i = 0; i < m; i++) {
            lcplx acc = 0;
            long double mag = 0;
            for (int l = 0; l < ka && !solve && !is0(alpha); l++) {
                const lcplx p = left ? op_el(tr, tri_get, &a, i, l) * mat_get(&b, l, j)
                                     : mat_get(&b, i, l) * op_el(tr, tri_get, &a, l, j);
                acc += p;
                mag += mag1(p);
            }
            /* trsm: checked by the residual below (0 exactly when alpha = 0). */
            const long double bound =
                solve ? (is0(alpha) ? 0 : INFINITY) : bound_k(t, ka + 2) * mag1(alpha) * mag;
            expect_set(eo, mat_idx(out, i, j), alpha * acc, bound);
        }
    const int nul = is0(alpha) && !device_mode;
    const void *al = sarg(t, alpha, 0, 0);
    assert_int_equal(call_trxm(h, t, solve, sd, ul, tr, dg, m, n, al, nul ? NULL : mat_ptr(&a),
                               a.ld, nul && !solve ? NULL : mat_ptr(&b), b.ld,
                               solve ? NULL : mat_ptr(out), out->ld),
                     TRNBLAS_STATUS_SUCCESS);
    const char *name = solve ? " trsm" : " trmm";
    size_t bad = check(name, &a.b, &ea) + check(name, &b.b, &eb) + check(name, &c.b, &ec);
    if (solve && !is0(alpha) && m > 0 && n > 0) {
        void *got = buf_download(&b.b);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
                lcplx r = alpha * mat_get(&b, i, j);
                long double mag = mag1(r);
                for (int l = 0; l < ka; l++) {
                    const lcplx p =
                        left ? op_el(tr, tri_get, &a, i, l) * get_el(t, got, mat_idx(&b, l, j))
                             : get_el(t, got, mat_idx(&b, i, l)) * op_el(tr, tri_get, &a, l, j);
                    r -= p;
                    mag += mag1(p);
                }
                const long double bound = bound_k(t, ka + 4) * mag;
                if (!(cabsl(r) <= bound) && bad++ < 4)
                    fprintf(stderr, "%s trsm: residual %Lg at (%d, %d) exceeds %Lg\n", ty_name[t],
                            cabsl(r), i, j, bound);
                else if (bound > 0)
                    note_ratio(" trsm residual", t, cabsl(r) / bound);
            }
        free(got);
    }
    if (bad)
        fprintf(stderr, "  (side %d uplo %d trans %d diag %d m %d n %d in place %d, %s mode)\n",
                (int)sd, (int)ul, (int)tr, (int)dg, m, n, in_place,
                device_mode ? "device" : "host");
    release(&ea, &eb, &ec, &a.b, &b.b, &c.b);
    return bad;
}

/* ---- geam, dgmm -------------------------------------------------------------------- */

static trnblasStatus_t call_geam(trnblasHandle_t h, ty t, trnblasOperation_t ta,
                                 trnblasOperation_t tb, int m, int n, const void *al, const void *A,
                                 int lda, const void *be, const void *B, int ldb, void *C,
                                 int ldc) {
    switch (t) {
    case TY_S: return trnblasSgeam(h, ta, tb, m, n, al, A, lda, be, B, ldb, C, ldc);
    case TY_D: return trnblasDgeam(h, ta, tb, m, n, al, A, lda, be, B, ldb, C, ldc);
    case TY_C: return trnblasCgeam(h, ta, tb, m, n, al, A, lda, be, B, ldb, C, ldc);
    case TY_Z: return trnblasZgeam(h, ta, tb, m, n, al, A, lda, be, B, ldb, C, ldc);
    }
    return TRNBLAS_STATUS_INTERNAL_ERROR;
}

/* in_place: 1 for C = A, 2 for C = B (with transa / transb OP_N). */
static size_t run_geam(trnblasHandle_t h, ty t, trnblasOperation_t ta, trnblasOperation_t tb, int m,
                       int n, sc2 s, int in_place) {
    const lcplx alpha = cval(t, s.a, 0.5L), beta = cval(t, s.b, -1.25L);
    const int an = ta == TRNBLAS_OP_N, bn = tb == TRNBLAS_OP_N;
    mat a, b, c;
    mat_init(&a, t, an ? m : n, an ? n : m, (an ? m : n) + 2, 1);
    mat_init(&b, t, bn ? m : n, bn ? n : m, (bn ? m : n) + 1, 2);
    mat_init(&c, t, m, n, m + 3, 3);
    nan_fill(&c); /* C is only written (unless it is A or B) */
    if (is0(alpha) && !device_mode)
        nan_fill(&a);
    if (is0(beta) && !device_mode)
        nan_fill(&b);
    assert_int_equal(buf_upload(&a.b) | buf_upload(&b.b) | buf_upload(&c.b), 0);
    mat *out = in_place == 1 ? &a : in_place == 2 ? &b : &c;
    expect ea, eb, ec;
    expect_init(&ea, &a.b);
    expect_init(&eb, &b.b);
    expect_init(&ec, &c.b);
    expect *eo = in_place == 1 ? &ea : in_place == 2 ? &eb : &ec;
    for (int j = 0; j < n && m > 0; j++)
        for (int i = 0; i < m; i++) {
            const lcplx x = is0(alpha) ? 0 : alpha * op_el(ta, mat_get, &a, i, j);
            const lcplx y = is0(beta) ? 0 : beta * op_el(tb, mat_get, &b, i, j);
            expect_set(eo, mat_idx(out, i, j), x + y, bound_k(t, 3) * (mag1(x) + mag1(y)));
        }
    const void *al = sarg(t, alpha, 0, 0), *be = sarg(t, beta, 1, 0);
    const void *A = is0(alpha) && !device_mode && in_place != 1 ? NULL : mat_ptr(&a);
    const void *B = is0(beta) && !device_mode && in_place != 2 ? NULL : mat_ptr(&b);
    assert_int_equal(call_geam(h, t, ta, tb, m, n, al, A, a.ld, be, B, b.ld, mat_ptr(out), out->ld),
                     TRNBLAS_STATUS_SUCCESS);
    size_t bad = check(" geam", &a.b, &ea) + check(" geam", &b.b, &eb) + check(" geam", &c.b, &ec);
    if (bad)
        fprintf(stderr, "  (transa %d transb %d m %d n %d in place %d, %s mode)\n", (int)ta,
                (int)tb, m, n, in_place, device_mode ? "device" : "host");
    release(&ea, &eb, &ec, &a.b, &b.b, &c.b);
    return bad;
}

static trnblasStatus_t call_dgmm(trnblasHandle_t h, ty t, trnblasSideMode_t sd, int m, int n,
                                 const void *A, int lda, const void *x, int incx, void *C,
                                 int ldc) {
    switch (t) {
    case TY_S: return trnblasSdgmm(h, sd, m, n, A, lda, x, incx, C, ldc);
    case TY_D: return trnblasDdgmm(h, sd, m, n, A, lda, x, incx, C, ldc);
    case TY_C: return trnblasCdgmm(h, sd, m, n, A, lda, x, incx, C, ldc);
    case TY_Z: return trnblasZdgmm(h, sd, m, n, A, lda, x, incx, C, ldc);
    }
    return TRNBLAS_STATUS_INTERNAL_ERROR;
}

static size_t run_dgmm(trnblasHandle_t h, ty t, trnblasSideMode_t sd, int m, int n, int incx,
                       int in_place) {
    const int left = sd == TRNBLAS_SIDE_LEFT, len = left ? m : n;
    mat a, c;
    vec x;
    mat_init(&a, t, m, n, m + 2, 1);
    mat_init(&c, t, m, n, m + 1, 2);
    /* incx = 0 repeats x[0]: a vector of one element. */
    vec_init(&x, t, incx ? len : (len > 0 ? 1 : 0), incx ? incx : 1, 3);
    nan_fill(&c);
    assert_int_equal(buf_upload(&a.b) | buf_upload(&c.b) | buf_upload(&x.b), 0);
    mat *out = in_place ? &a : &c;
    expect ea, ec, ex;
    expect_init(&ea, &a.b);
    expect_init(&ec, &c.b);
    expect_init(&ex, &x.b);
    for (int j = 0; j < n && m > 0; j++)
        for (int i = 0; i < m; i++) {
            const int e = left ? i : j;
            const lcplx p = vec_get(&x, incx ? e : 0) * mat_get(&a, i, j);
            expect_set(in_place ? &ea : &ec, mat_idx(out, i, j), p, bound_k(t, 1) * mag1(p));
        }
    assert_int_equal(
        call_dgmm(h, t, sd, m, n, mat_ptr(&a), a.ld, vec_ptr(&x), incx, mat_ptr(out), out->ld),
        TRNBLAS_STATUS_SUCCESS);
    size_t bad = check(" dgmm", &a.b, &ea) + check(" dgmm", &c.b, &ec) + check(" dgmm", &x.b, &ex);
    if (bad)
        fprintf(stderr, "  (side %d m %d n %d incx %d in place %d)\n", (int)sd, m, n, incx,
                in_place);
    release(&ea, &ec, &ex, &a.b, &c.b, &x.b);
    return bad;
}

/* ---- the cases ------------------------------------------------------------------ */

typedef struct shape {
    int m, n;
    sc2 s;
} shape;

/* (m, n) or (n, k) with the scalars: general, beta = 0 (C NaN), alpha = 0,
 * the quick return (alpha = 0, beta = 1), empty shapes. */
static const shape shapes[] = {
    {5, 7, {0.75L, -1.5L}}, {8, 3, {-1.25L, 0.0L}}, {4, 6, {0.0L, 0.5L}}, {3, 3, {0.0L, 1.0L}},
    {1, 1, {2.0L, 1.0L}},   {0, 4, {1.0L, 2.0L}},   {4, 0, {1.0L, 2.0L}}, {12, 9, {0.5L, 0.25L}},
};
#define N_SHAPES (sizeof(shapes) / sizeof(shapes[0]))

static size_t all_routines(trnblasHandle_t h, ty t) {
    size_t bad = 0;
    const int cx = is_complex(t);
    /* Device mode checks where the scalars come from: the first four shapes
     * hold the special values (beta = 0, alpha = 0, alpha = 0 and beta = 1). */
    const size_t nshapes = device_mode ? 4 : N_SHAPES;
    for (size_t c = 0; c < nshapes; c++) {
        const shape *sh = &shapes[c];
        /* Every option in the first four shapes; one uplo, side and trans
         * each (chosen by c) in the others, which are about sizes. */
        const int all = c < 4, pick = (int)c;
        for (int u = 0; u < 2; u++) {
            if (!all && u != (pick & 1))
                continue;
            for (int sd = 0; sd < 2; sd++) {
                if (!all && sd != (pick >> 1 & 1))
                    continue;
                bad += run_symm(h, t, 0, side2[sd], uplo2[u], sh->m, sh->n, sh->s);
                if (cx)
                    bad += run_symm(h, t, 1, side2[sd], uplo2[u], sh->m, sh->n, sh->s);
            }
            for (int k = 0; k < 3; k++) {
                const trnblasOperation_t tr = trans3[k];
                if (!all && k != pick % 3 && k != (pick + 1) % 3)
                    continue;
                /* syrk/syr2k: N, T (and C for real types); herk/her2k: N, C. */
                if (!cx || tr != TRNBLAS_OP_C) {
                    bad += run_rk(h, t, K_SYRK, uplo2[u], tr, sh->n, sh->m, sh->s);
                    bad += run_rk(h, t, K_SYR2K, uplo2[u], tr, sh->n, sh->m, sh->s);
                    bad += run_rk(h, t, K_SYRKX, uplo2[u], tr, sh->n, sh->m, sh->s);
                }
                if (cx && tr != TRNBLAS_OP_T) {
                    bad += run_rk(h, t, K_HERK, uplo2[u], tr, sh->n, sh->m, sh->s);
                    bad += run_rk(h, t, K_HER2K, uplo2[u], tr, sh->n, sh->m, sh->s);
                    bad += run_rk(h, t, K_HERKX, uplo2[u], tr, sh->n, sh->m, sh->s);
                }
            }
        }
        /* geam: every transa x transb in the first three shapes. */
        for (int ka = 0; ka < 3; ka++)
            for (int kb = 0; kb < 3; kb++)
                if (c < 3 || (ka == 0 && kb == 0))
                    bad += run_geam(h, t, trans3[ka], trans3[kb], sh->m, sh->n, sh->s, 0);
    }
    static const struct {
        int m, n;
        long double alpha;
    } tshapes[] = {{5, 4, 1.5L}, {3, 8, -0.5L}, {6, 6, 0.0L}, {0, 3, 1.0L}, {4, 0, 1.0L}};
    /* trsm, trmm: every option in the first two shapes, the special ones
     * (alpha = 0, empty) with both sides and one uplo, trans and diag each;
     * device mode: the first and alpha = 0. */
    for (int s = 0; s < 5; s++)
        for (int sd = 0; sd < 2; sd++)
            for (int u = 0; u < 2; u++)
                for (int k = 0; k < 3; k++)
                    for (int dg = 0; dg < 2; dg++)
                        for (int solve = 0; solve < 2; solve++) {
                            const int full = device_mode ? s == 0 : s < 2;
                            const int some = device_mode ? s == 2 : s >= 2;
                            if (full || (some && u == dg && k == s - 2))
                                bad += run_trxm(h, t, solve, side2[sd], uplo2[u], trans3[k],
                                                (trnblasDiagType_t)dg, tshapes[s].m, tshapes[s].n,
                                                tshapes[s].alpha, 0);
                        }
    /* In place: trmm with C = B, geam with C = A and C = B. */
    for (int sd = 0; sd < 2; sd++)
        bad += run_trxm(h, t, 0, side2[sd], TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_T,
                        TRNBLAS_DIAG_NON_UNIT, 7, 5, 2.0L, 1);
    const sc2 s = {1.5L, -0.5L};
    bad += run_geam(h, t, TRNBLAS_OP_N, TRNBLAS_OP_T, 6, 6, s, 1);
    bad += run_geam(h, t, TRNBLAS_OP_C, TRNBLAS_OP_N, 6, 6, s, 2);
    /* dgmm (no scalars: host mode only): both sides, increments 1, -2, 0,
     * 3; in place; empty. */
    static const int incs[] = {1, -2, 0, 3};
    for (int sd = 0; sd < 2 && !device_mode; sd++) {
        for (int i = 0; i < 4; i++)
            bad += run_dgmm(h, t, side2[sd], 7, 5, incs[i], 0);
        bad += run_dgmm(h, t, side2[sd], 6, 4, -1, 1);
        bad += run_dgmm(h, t, side2[sd], 0, 3, 1, 0);
    }
    return bad;
}

static void run_all_types(void) {
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    set_mode(h);
    size_t bad = 0;
    for (int t = TY_S; t <= TY_Z; t += type_step)
        bad += all_routines(h, (ty)t);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(bad, 0);
}

/* Ops of several output tiles (ops/op.h: 512 columns or rows each), and
 * ops large enough to be split over the daemon's two cores (trn_op_cost at
 * least 2 x 16 MFLOP, or 2 x 2 MiB for geam and dgmm). */
static void test_tiles_and_shards(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    size_t bad = 0;
    /* Several tiles, one shard. */
    bad += run_trxm(h, TY_D, 1, TRNBLAS_SIDE_RIGHT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_T,
                    TRNBLAS_DIAG_NON_UNIT, 1100, 6, 1.5L, 0);
    bad += run_trxm(h, TY_C, 0, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_C,
                    TRNBLAS_DIAG_UNIT, 5, 1100, -0.5L, 0);
    bad += run_symm(h, TY_Z, 1, TRNBLAS_SIDE_RIGHT, TRNBLAS_FILL_MODE_LOWER, 1030, 4,
                    (sc2){0.5L, 1.5L});
    bad += run_rk(h, TY_S, K_SYR2K, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_T, 1100, 2,
                  (sc2){0.5L, -1.0L});
    bad += run_geam(h, TY_Z, TRNBLAS_OP_C, TRNBLAS_OP_T, 3, 1100, (sc2){0.5L, -1.0L}, 0);
    bad += run_dgmm(h, TY_C, TRNBLAS_SIDE_RIGHT, 4, 1100, -1, 0);
    /* Two shards each: dsyrk n = 1100, k = 40 (48 MFLOP, 3 tiles); dtrsm
     * m = 200, n = 1100 from the left (44 MFLOP); dgeam of 600 x 600 (8.6 MB
     * touched, 2 tiles). */
    uint64_t before[8];
    const int ncores = core_shards(before);
    bad +=
        run_rk(h, TY_D, K_SYRK, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, 1100, 40, (sc2){1.0L, 0.5L});
    bad += run_trxm(h, TY_D, 1, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N,
                    TRNBLAS_DIAG_NON_UNIT, 200, 1100, 1.0L, 0);
    bad += run_geam(h, TY_D, TRNBLAS_OP_T, TRNBLAS_OP_N, 600, 600, (sc2){1.0L, 2.0L}, 0);
    if (ncores == 2)
        expect_shards_ran(before, ncores, 6); /* 3 ops of 2 shards each */
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(bad, 0);
}

/* A non-default stream: B uploaded by trnsciMemcpyAsync on it, a trmm
 * into C and a trsm that undoes it on C in stream order, a device-mode alpha
 * written on the stream between them, and a download on the stream. */
static void test_stream_order(void **state) {
    (void)state;
    trnblasHandle_t h;
    trnsciStream_t s;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciStreamCreate(&s), trnsciSuccess);
    assert_int_equal(trnblasSetStream(h, s), TRNBLAS_STATUS_SUCCESS);
    enum { M = 24, N = 16 };
    mat a;
    mat_init(&a, TY_D, M, M, M, 0);
    tri_fill(&a, M, 0, 0);
    assert_int_equal(buf_upload(&a.b), 0);
    double b[M * N], out[M * N];
    for (int i = 0; i < M * N; i++)
        b[i] = (double)uniform();
    double *dB, *dC, *ds;
    assert_int_equal(trnsciMalloc((void **)&dB, sizeof(b)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&dC, sizeof(b)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&ds, sizeof(double)), trnsciSuccess);
    assert_int_equal(trnsciMemcpyAsync(dB, b, sizeof(b), trnsciMemcpyHostToDevice, s),
                     trnsciSuccess);
    const double two = 2.0, half = 0.5;
    const trnblasSideMode_t L = TRNBLAS_SIDE_LEFT;
    const trnblasFillMode_t lo = TRNBLAS_FILL_MODE_LOWER;
    /* C = 2 A B, then C = 0.5 A^-1 C (= B). */
    assert_int_equal(trnblasDtrmm(h, L, lo, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, M, N, &two,
                                  mat_ptr(&a), M, dB, M, dC, M),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMemcpyAsync(ds, &half, sizeof(half), trnsciMemcpyHostToDevice, s),
                     trnsciSuccess);
    assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_DEVICE), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasDtrsm(h, L, lo, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, M, N, ds,
                                  mat_ptr(&a), M, dC, M),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMemcpyAsync(out, dC, sizeof(out), trnsciMemcpyDeviceToHost, s),
                     trnsciSuccess);
    assert_int_equal(trnsciStreamSynchronize(s), trnsciSuccess);
    /* A is diagonally dominant (|a_ii| >= 1, |a_ij| <= 1/M): cond(A) <= 3,
     * so B is recovered to within a few multiples of M u |B|: 8 (M + 4) u. */
    double maxb = 0, maxe = 0;
    for (int i = 0; i < M * N; i++) {
        maxb = fmax(maxb, fabs(b[i]));
        maxe = fmax(maxe, fabs(out[i] - b[i]));
    }
    assert_true(maxe <= 8 * gam(TY_D, M + 4) * maxb);
    assert_int_equal(trnsciFree(dB) | trnsciFree(dC) | trnsciFree(ds), trnsciSuccess);
    buf_free(&a.b);
    assert_int_equal(trnsciStreamDestroy(s), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* Bad input: cuBLAS's INVALID_VALUE cases and the memory-safety checks, each
 * with the daemon's message naming the argument; the daemon stays up. */
static void test_bad_input(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    double *A, *B, *C, *x;
    enum { NE = 64 };
    assert_int_equal(trnsciMalloc((void **)&A, NE * sizeof(double)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&B, NE * sizeof(double)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&C, NE * sizeof(double)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&x, 8 * sizeof(double)), trnsciSuccess);
    const double one = 1.0;
    const trnComplex cone = {1, 0};
    const float fone = 1.0f;
    const trnblasSideMode_t L = TRNBLAS_SIDE_LEFT;
    const trnblasFillMode_t lo = TRNBLAS_FILL_MODE_LOWER;
    const trnblasOperation_t N = TRNBLAS_OP_N;
    const trnblasDiagType_t NU = TRNBLAS_DIAG_NON_UNIT;
    /* Enums. */
    expect_invalid(trnblasDsymm(h, (trnblasSideMode_t)2, lo, 4, 4, &one, A, 4, B, 4, &one, C, 4),
                   "symm: side=2");
    expect_invalid(trnblasDsymm(h, L, TRNBLAS_FILL_MODE_FULL, 4, 4, &one, A, 4, B, 4, &one, C, 4),
                   "symm: uplo=2");
    expect_invalid(trnblasDsyrk(h, lo, (trnblasOperation_t)5, 4, 4, &one, A, 4, &one, C, 4),
                   "syrk: trans=5");
    expect_invalid(
        trnblasCsyrk(h, lo, TRNBLAS_OP_C, 2, 2, &cone, (void *)A, 2, &cone, (void *)C, 2),
        "syrk: trans=OP_C");
    expect_invalid(
        trnblasCherk(h, lo, TRNBLAS_OP_T, 2, 2, &fone, (void *)A, 2, &fone, (void *)C, 2),
        "herk: trans=OP_T");
    expect_invalid(trnblasCher2k(h, lo, TRNBLAS_OP_T, 2, 2, &cone, (void *)A, 2, (void *)B, 2,
                                 &fone, (void *)C, 2),
                   "her2k: trans=OP_T");
    expect_invalid(trnblasDtrsm(h, L, lo, N, (trnblasDiagType_t)9, 4, 4, &one, A, 4, B, 4),
                   "trsm: diag=9");
    expect_invalid(trnblasDtrmm(h, L, (trnblasFillMode_t)-1, N, NU, 4, 4, &one, A, 4, B, 4, C, 4),
                   "trmm: uplo=-1");
    expect_invalid(trnblasDgeam(h, N, (trnblasOperation_t)3, 4, 4, &one, A, 4, &one, B, 4, C, 4),
                   "geam: transb=3");
    expect_invalid(trnblasDdgmm(h, (trnblasSideMode_t)4, 4, 4, A, 4, x, 1, C, 4), "dgmm: side=4");
    /* Negative sizes. */
    expect_invalid(trnblasDsymm(h, L, lo, -1, 4, &one, A, 4, B, 4, &one, C, 4), "symm: m=-1");
    expect_invalid(trnblasDsyrk(h, lo, N, 4, -2, &one, A, 4, &one, C, 4), "syrk: k=-2");
    expect_invalid(trnblasDsyr2k(h, lo, N, -4, 2, &one, A, 4, B, 4, &one, C, 4), "syr2k: n=-4");
    expect_invalid(trnblasDtrsm(h, L, lo, N, NU, 4, -1, &one, A, 4, B, 4), "trsm: n=-1");
    expect_invalid(trnblasDgeam(h, N, N, -3, 4, &one, A, 4, &one, B, 4, C, 4), "geam: m=-3");
    /* Leading dimensions, each rule with its boundary. */
    expect_invalid(trnblasDsymm(h, TRNBLAS_SIDE_RIGHT, lo, 2, 5, &one, A, 4, B, 2, &one, C, 2),
                   "symm: lda=4");
    assert_int_equal(trnblasDsymm(h, TRNBLAS_SIDE_RIGHT, lo, 2, 5, &one, A, 5, B, 2, &one, C, 2),
                     TRNBLAS_STATUS_SUCCESS);
    expect_invalid(trnblasDsyrk(h, lo, TRNBLAS_OP_T, 4, 5, &one, A, 4, &one, C, 4), "syrk: lda=4");
    expect_invalid(trnblasDsyr2k(h, lo, N, 4, 2, &one, A, 4, B, 3, &one, C, 4), "syr2k: ldb=3");
    expect_invalid(trnblasDsyrkx(h, lo, N, 4, 2, &one, A, 4, B, 3, &one, C, 4), "syrkx: ldb=3");
    expect_invalid(trnblasDsyrkx(h, lo, N, 4, -1, &one, A, 4, B, 4, &one, C, 4), "syrkx: k=-1");
    expect_invalid(trnblasDsyrkx(h, lo, N, 4, 2, &one, A, 4, B, 4, &one, C, 3), "syrkx: ldc=3");
    expect_invalid(trnblasDtrsm(h, L, lo, N, NU, 4, 4, &one, A, 4, B, 3), "trsm: ldb=3");
    expect_invalid(trnblasDtrmm(h, L, lo, N, NU, 4, 4, &one, A, 4, B, 4, C, 3), "trmm: ldc=3");
    expect_invalid(trnblasDgeam(h, TRNBLAS_OP_T, N, 4, 6, &one, A, 4, &one, B, 4, C, 4),
                   "geam: lda=4");
    expect_invalid(trnblasDdgmm(h, L, 4, 4, A, 3, x, 1, C, 4), "dgmm: lda=3");
    /* In-place rules. */
    expect_invalid(trnblasDgeam(h, TRNBLAS_OP_T, N, 4, 4, &one, A, 4, &one, B, 4, A, 4),
                   "geam: C is A");
    expect_invalid(trnblasDgeam(h, N, N, 4, 4, &one, A, 4, &one, B, 5, B, 4), "geam: C is B");
    assert_int_equal(trnblasDgeam(h, N, N, 4, 4, &one, A, 4, &one, B, 4, B, 4),
                     TRNBLAS_STATUS_SUCCESS);
    expect_invalid(trnblasDtrmm(h, L, lo, N, NU, 4, 4, &one, A, 4, B, 4, B, 5), "trmm: C is B");
    expect_invalid(trnblasDdgmm(h, L, 4, 4, A, 4, x, 1, A, 5), "dgmm: C is A");
    /* Extents: 64 doubles hold 8 x 8, not 8 x 9; x one element short. */
    assert_int_equal(trnblasDtrsm(h, L, lo, N, NU, 8, 8, &one, A, 8, B, 8), TRNBLAS_STATUS_SUCCESS);
    expect_invalid(trnblasDtrsm(h, L, lo, N, NU, 8, 9, &one, A, 8, B, 8), "trsm: B");
    expect_invalid(trnblasDsymm(h, L, lo, 9, 1, &one, A, 9, B, 9, &one, C, 9), "symm: A");
    expect_invalid(trnblasDdgmm(h, L, 5, 2, A, 5, x, 2, C, 5), "dgmm: x");
    expect_invalid(trnblasDsyrk(h, lo, N, 8, 2, &one, A, 8, &one, C + 1, 8), "syrk: C");
    /* Host and freed pointers. */
    double host[16] = {0};
    expect_invalid(trnblasDtrmm(h, L, lo, N, NU, 2, 2, &one, host, 2, B, 2, C, 2), "trmm: A");
    double *gone;
    assert_int_equal(trnsciMalloc((void **)&gone, 64), trnsciSuccess);
    assert_int_equal(trnsciFree(gone), trnsciSuccess);
    expect_invalid(trnblasDgeam(h, N, N, 2, 2, &one, A, 2, &one, gone, 2, C, 2), "geam: B");
    /* Overflow. */
    expect_invalid(
        trnblasDgeam(h, N, N, INT_MAX, INT_MAX, &one, A, INT_MAX, &one, B, INT_MAX, C, INT_MAX),
        "geam: the extent of A");
    expect_invalid(trnblasDdgmm(h, TRNBLAS_SIDE_RIGHT, 1, 3, A, 1, x, INT_MAX, C, 1), "dgmm: x");
    /* NULL scalars, a host scalar in device mode, a NULL handle. */
    expect_invalid(trnblasDsyrk(h, lo, N, 2, 2, &one, A, 2, NULL, C, 2), "syrk");
    assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_DEVICE), TRNBLAS_STATUS_SUCCESS);
    expect_invalid(trnblasDtrsm(h, L, lo, N, NU, 2, 2, &one, A, 2, B, 2), "trsm: alpha");
    assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_HOST), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasDtrsm(NULL, L, lo, N, NU, 2, 2, &one, A, 2, B, 2),
                     TRNBLAS_STATUS_NOT_INITIALIZED);
    /* Still working: C = 3 I B with geam (alpha 1, beta 2, B = A = I). */
    double e[4] = {1, 0, 0, 1}, r[4];
    const double two = 2.0;
    assert_int_equal(trnsciMemcpy(A, e, sizeof(e), trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnblasDgeam(h, N, TRNBLAS_OP_T, 2, 2, &one, A, 2, &two, A, 2, C, 2),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMemcpy(r, C, sizeof(r), trnsciMemcpyDeviceToHost), trnsciSuccess);
    for (int i = 0; i < 4; i++)
        assert_true(r[i] == 3 * e[i]);
    assert_int_equal(trnsciFree(A) | trnsciFree(B) | trnsciFree(C) | trnsciFree(x), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

int main(void) {
    const char *const args[] = {"--cores", "2", NULL};
    if (th_daemon_start(&daemon_under_test, args) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_mode),
        cmocka_unit_test(test_device_mode),
        cmocka_unit_test(test_stream_order),
        cmocka_unit_test(test_bad_input),
        /* Tiles and shards do not depend on the transport: once. */
        cmocka_unit_test(test_tiles_and_shards),
    };
    const size_t ntests = sizeof(tests) / sizeof(tests[0]);
    int failed =
        _cmocka_run_group_tests("blas3 over unix socket", tests, ntests, connect_unix, disconnect);
    failed += _cmocka_run_group_tests("blas3 over tcp", tests, ntests - 1, connect_tcp, disconnect);
    print_worst();
    const int rc = th_daemon_stop(&daemon_under_test);
    if (rc != 0) {
        fprintf(stderr, "trnscid exited with %d (expected a clean 0)\n", rc);
        failed++;
    }
    return failed ? 1 : 0;
}
