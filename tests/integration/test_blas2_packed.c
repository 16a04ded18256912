/*
 * test_blas2_packed.c — trnblas's band and packed Level 2 routines: tbmv,
 * tbsv, tpmv, tpsv (S, D, C, Z), sbmv, spmv, spr, spr2 (S, D), hbmv, hpmv,
 * hpr, hpr2 (C, Z), every uplo, trans and diag, through a real trnscid over
 * the unix socket and over TCP (there S and Z), in both pointer modes,
 * against an independent reference: the dense matrix the storage describes,
 * multiplied in long double by this test (blas_check.h's harness, as
 * test_blas2.c).
 *
 * Storage sits at an offset inside a larger random allocation (band: lda =
 * k + 3); every element a routine must not write comes back bitwise
 * unchanged, and every element it must not read holds NaN: the corners of
 * band storage outside the matrix, a unit diagonal, the imaginary parts of
 * a Hermitian diagonal, y when beta = 0. k ranges over 0, 1, 3 and k >= n.
 *
 * Bounds (blas_check.h: bound(t, k) = gamma_k real, 2 gamma_2k complex):
 *  - tbmv, tpmv: x_i = sum_j op(T)_ij x_j, at most n products summed:
 *    bound(t, n + 1) sum_j |op(T)_ij||x_j|;
 *  - tbsv, tpsv: substitution is componentwise backward stable (Higham
 *    Thm 8.5: (T + dT) x^ = b, |dT| <= gamma_n |T|), so the residual is
 *    checked: |b - op(T) x^|_i <= bound(t, n + 1) sum_j |op(T)_ij||x^_j|;
 *  - sbmv, hbmv, spmv, hpmv: y_i = beta y_i + alpha sum_j a_ij x_j, n + 3
 *    roundings per term: bound(t, n + 3) (|alpha| sum |a_ij||x_j| + |beta||y_i|);
 *  - spr, hpr: a_ij + x_i (alpha conj(x_j)), 3 roundings: bound(t, 3)
 *    (|a_ij| + |alpha||x_i||x_j|); spr2, hpr2: two products, 5 roundings.
 * Hermitian updates must leave the diagonal's imaginary parts exactly 0.
 * Bad input: each cuBLAS INVALID_VALUE case (k < 0, lda < k + 1, incx = 0,
 * an unknown uplo/trans/diag, a type the routine lacks on the wire) and
 * operands past their allocation (AP one element short), with messages.
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

/* ---- storage ------------------------------------------------------------------ */

/* The stored triangle of an n x n matrix: band (k diagonals, in a (k + 1) x n
 * array with leading dimension ld) or packed (in a vector of n(n + 1)/2). */
typedef struct store {
    mat m; /* band: (k + 1) x n, ld; packed: n(n+1)/2 x 1 */
    int n, k, upper, packed;
} store;

static int stored(const store *s, int i, int j) {
    if (i < 0 || j < 0 || i >= s->n || j >= s->n)
        return 0;
    if (s->upper ? i > j : i < j)
        return 0;
    return s->packed || abs(i - j) <= s->k;
}

/* The element index (in the buffer) of stored (i, j). */
static size_t sidx(const store *s, int i, int j) {
    if (s->packed) {
        const size_t p =
            s->upper ? (size_t)j * (size_t)(j + 1) / 2 + (size_t)i
                     : (size_t)j * (size_t)s->n - (size_t)j * (size_t)(j - 1) / 2 + (size_t)(i - j);
        return s->m.off + p;
    }
    return mat_idx(&s->m, s->upper ? s->k + i - j : i - j, j);
}

static lcplx sget(const store *s, int i, int j) {
    return get_el(s->m.b.t, s->m.b.host, sidx(s, i, j));
}

static void sset(store *s, int i, int j, lcplx v) {
    put(s->m.b.t, s->m.b.host, sidx(s, i, j), v);
}

static void store_init(store *s, ty t, int n, int k, int upper, int packed) {
    s->n = n, s->k = k, s->upper = upper, s->packed = packed;
    if (packed) {
        const int len = n * (n + 1) / 2;
        mat_init(&s->m, t, len, 1, len > 0 ? len : 1, 3);
    } else {
        mat_init(&s->m, t, k + 1, n, k + 3, 2);
        /* band storage that holds no element of the matrix: NaN */
        for (int j = 0; j < n; j++)
            for (int r = 0; r <= k; r++) {
                const int i = upper ? r - k + j : r + j;
                if (i < 0 || i >= n)
                    mat_set(&s->m, r, j, CMPLXL(NAN, NAN));
            }
    }
}

static void *store_ptr(const store *s) {
    return mat_ptr(&s->m);
}

/* ---- the routines ---------------------------------------------------------------- */

typedef enum rt { R_TBMV, R_TBSV, R_TPMV, R_TPSV, R_SBMV, R_SPMV, R_SPR, R_SPR2 } rt;
static const char *const rt_name[] = {" tbmv", " tbsv", " tpmv", " tpsv",
                                      " sbmv", " spmv", " spr",  " spr2"};
static const char *const rt_hname[] = {" tbmv", " tbsv", " tpmv", " tpsv",
                                       " hbmv", " hpmv", " hpr",  " hpr2"};

static int is_packed(rt r) {
    return r == R_TPMV || r == R_TPSV || r == R_SPMV || r == R_SPR || r == R_SPR2;
}

static trnblasStatus_t call_tri(trnblasHandle_t h, ty t, rt r, trnblasFillMode_t ul,
                                trnblasOperation_t tr, trnblasDiagType_t dg, int n, int k,
                                const void *A, int lda, void *x, int incx) {
#define TRI(T, TY)                                                                                 \
    switch (r) {                                                                                   \
    case R_TBMV: return trnblas##T##tbmv(h, ul, tr, dg, n, k, A, lda, x, incx);                    \
    case R_TBSV: return trnblas##T##tbsv(h, ul, tr, dg, n, k, A, lda, x, incx);                    \
    case R_TPMV: return trnblas##T##tpmv(h, ul, tr, dg, n, A, x, incx);                            \
    case R_TPSV: return trnblas##T##tpsv(h, ul, tr, dg, n, A, x, incx);                            \
    default: break;                                                                                \
    }
    switch (t) {
    case TY_S: TRI(S, float) break;
    case TY_D: TRI(D, double) break;
    case TY_C: TRI(C, trnComplex) break;
    case TY_Z: TRI(Z, trnDoubleComplex) break;
    }
#undef TRI
    return TRNBLAS_STATUS_INTERNAL_ERROR;
}

static trnblasStatus_t call_mv(trnblasHandle_t h, ty t, rt r, trnblasFillMode_t ul, int n, int k,
                               const void *al, const void *A, int lda, const void *x, int incx,
                               const void *be, void *y, int incy) {
    const int band = r == R_SBMV;
    switch (t) {
    case TY_S:
        return band ? trnblasSsbmv(h, ul, n, k, al, A, lda, x, incx, be, y, incy)
                    : trnblasSspmv(h, ul, n, al, A, x, incx, be, y, incy);
    case TY_D:
        return band ? trnblasDsbmv(h, ul, n, k, al, A, lda, x, incx, be, y, incy)
                    : trnblasDspmv(h, ul, n, al, A, x, incx, be, y, incy);
    case TY_C:
        return band ? trnblasChbmv(h, ul, n, k, al, A, lda, x, incx, be, y, incy)
                    : trnblasChpmv(h, ul, n, al, A, x, incx, be, y, incy);
    case TY_Z:
        return band ? trnblasZhbmv(h, ul, n, k, al, A, lda, x, incx, be, y, incy)
                    : trnblasZhpmv(h, ul, n, al, A, x, incx, be, y, incy);
    }
    return TRNBLAS_STATUS_INTERNAL_ERROR;
}

static trnblasStatus_t call_upd(trnblasHandle_t h, ty t, rt r, trnblasFillMode_t ul, int n,
                                const void *al, const void *x, int incx, const void *y, int incy,
                                void *AP) {
    const int two = r == R_SPR2;
    switch (t) {
    case TY_S:
        return two ? trnblasSspr2(h, ul, n, al, x, incx, y, incy, AP)
                   : trnblasSspr(h, ul, n, al, x, incx, AP);
    case TY_D:
        return two ? trnblasDspr2(h, ul, n, al, x, incx, y, incy, AP)
                   : trnblasDspr(h, ul, n, al, x, incx, AP);
    case TY_C:
        return two ? trnblasChpr2(h, ul, n, al, x, incx, y, incy, AP)
                   : trnblasChpr(h, ul, n, al, x, incx, AP);
    case TY_Z:
        return two ? trnblasZhpr2(h, ul, n, al, x, incx, y, incy, AP)
                   : trnblasZhpr(h, ul, n, al, x, incx, AP);
    }
    return TRNBLAS_STATUS_INTERNAL_ERROR;
}

typedef struct pcase {
    int n, k, incx, incy;
    long double alpha_re, beta_re;
} pcase;

static const pcase cases[] = {
    {1, 0, 1, 1, 0.75L, -1.5L}, {6, 1, 1, -2, -1.25L, 0.0L}, {9, 3, -1, 1, 1.0L, 1.0L},
    {7, 9, 2, 1, 0.5L, 0.25L},  {23, 2, 1, 1, 2.0L, 0.0L},   {5, 0, -2, 3, 0.0L, 0.5L},
    {4, 2, 1, 1, 0.0L, 1.0L},   {0, 1, 1, 1, 1.0L, 2.0L},    {40, 5, -1, -1, -0.5L, 0.75L},
};
#define N_CASES (sizeof(cases) / sizeof(cases[0]))

/* Element (i, j) of op(T), T the triangle in s (unit: ones). */
static lcplx tri_el(const store *s, trnblasOperation_t tr, int unit, int i, int j) {
    if (tr != TRNBLAS_OP_N) {
        const int t_ = i;
        i = j;
        j = t_;
    }
    lcplx v;
    if (i == j && unit)
        v = 1;
    else if (!stored(s, i, j))
        return 0;
    else
        v = sget(s, i, j);
    return tr == TRNBLAS_OP_C ? conjl(v) : v;
}

/* tbmv, tbsv, tpmv, tpsv */
static size_t run_tri(trnblasHandle_t h, ty t, rt r, int upper, trnblasOperation_t tr, int unit,
                      const pcase *c) {
    const int n = c->n, k = r == R_TBMV || r == R_TBSV ? c->k : 0;
    store s;
    vec x;
    store_init(&s, t, n, k, upper, is_packed(r));
    vec_init(&x, t, n, c->incx, 2);
    /* a well-conditioned triangle: diagonal of modulus 1..2, the rest / (k + 1) */
    const long double scale = 1.0L / (is_packed(r) ? (n > 0 ? n : 1) : k + 1);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            if (!stored(&s, i, j))
                continue;
            const lcplx v = sget(&s, i, j);
            if (i == j)
                sset(&s, i, j,
                     unit ? CMPLXL(NAN, NAN) : (cabsl(v) + 1) * (v / (cabsl(v) + 1e-30L)));
            else
                sset(&s, i, j, v * scale);
        }
    assert_int_equal(buf_upload(&s.m.b) | buf_upload(&x.b), 0);
    const trnblasFillMode_t ul = upper ? TRNBLAS_FILL_MODE_UPPER : TRNBLAS_FILL_MODE_LOWER;
    const trnblasDiagType_t dg = unit ? TRNBLAS_DIAG_UNIT : TRNBLAS_DIAG_NON_UNIT;
    assert_int_equal(
        call_tri(h, t, r, ul, tr, dg, n, k, store_ptr(&s), s.m.ld, vec_ptr(&x), c->incx),
        TRNBLAS_STATUS_SUCCESS);
    const int solve = r == R_TBSV || r == R_TPSV;
    const char *name = rt_name[r];
    size_t bad = 0;
    expect ea;
    expect_init(&ea, &s.m.b);
    bad += check(name, &s.m.b, &ea);
    expect_free(&ea);
    if (!solve) {
        expect ex;
        expect_init(&ex, &x.b);
        for (int i = 0; i < n; i++) {
            lcplx acc = 0;
            long double mag = 0;
            for (int j = 0; j < n; j++) {
                const lcplx p = tri_el(&s, tr, unit, i, j) * vec_get(&x, j);
                acc += p;
                mag += mag1(p);
            }
            expect_set(&ex, vec_idx(&x, i), acc, bound_k(t, n + 1) * mag);
        }
        bad += check(name, &x.b, &ex);
        expect_free(&ex);
    } else {
        /* residual of the solution; every other element unchanged */
        void *got = buf_download(&x.b);
        unsigned char *in = calloc(x.b.total, 1);
        assert_non_null(in);
        for (int i = 0; i < n; i++) {
            in[vec_idx(&x, i)] = 1;
            lcplx acc = 0;
            long double mag = 0;
            for (int j = 0; j < n; j++) {
                const lcplx p = tri_el(&s, tr, unit, i, j) * get_el(t, got, vec_idx(&x, j));
                acc += p;
                mag += mag1(p);
            }
            const lcplx b = vec_get(&x, i);
            if (!(cabsl(b - acc) <= bound_k(t, n + 1) * mag)) {
                if (bad++ < 4)
                    fprintf(stderr, "%s%s: residual %Lg of row %d exceeds %Lg\n", ty_name[t], name,
                            cabsl(b - acc), i, bound_k(t, n + 1) * mag);
            } else if (mag > 0) {
                note_ratio(name, t, cabsl(b - acc) / (bound_k(t, n + 1) * mag));
            }
        }
        const size_t es = esize(t);
        for (size_t i = 0; i < x.b.total; i++)
            if (!in[i] && memcmp((char *)got + i * es, (char *)x.b.host + i * es, es))
                if (bad++ < 4)
                    fprintf(stderr, "%s%s: x element %zu changed\n", ty_name[t], name, i);
        free(in);
        free(got);
    }
    if (bad)
        fprintf(stderr, "  (uplo %d trans %d unit %d n %d k %d incx %d, %s mode)\n", upper, (int)tr,
                unit, n, k, c->incx, device_mode ? "device" : "host");
    release(NULL, NULL, NULL, &s.m.b, &x.b, NULL);
    return bad;
}

/* Element (i, j) of the symmetric / Hermitian matrix stored in s (a
 * Hermitian diagonal's imaginary part not read). */
static lcplx sym_el(const store *s, int herm, int i, int j) {
    if (i == j)
        return herm ? creall(sget(s, i, i)) : sget(s, i, i);
    if (stored(s, i, j))
        return sget(s, i, j);
    if (stored(s, j, i))
        return herm ? conjl(sget(s, j, i)) : sget(s, j, i);
    return 0;
}

/* sbmv, hbmv, spmv, hpmv */
static size_t run_mv(trnblasHandle_t h, ty t, rt r, int upper, const pcase *c) {
    const int n = c->n, k = r == R_SBMV ? c->k : 0, herm = is_complex(t);
    const lcplx alpha = scal_val(t, c->alpha_re + (herm ? 0.5L * I : 0));
    const lcplx beta =
        scal_val(t, c->beta_re + (herm && c->beta_re != 0 && c->beta_re != 1 ? -0.25L * I : 0));
    store s;
    vec x, y;
    store_init(&s, t, n, k, upper, is_packed(r));
    vec_init(&x, t, n, c->incx, 1);
    vec_init(&y, t, n, c->incy, 3);
    if (herm)
        for (int i = 0; i < n; i++)
            sset(&s, i, i, CMPLXL(creall(sget(&s, i, i)), NAN));
    const int beta0 = creall(beta) == 0 && cimagl(beta) == 0;
    if (beta0)
        vec_nan(&y);
    assert_int_equal(buf_upload(&s.m.b) | buf_upload(&x.b) | buf_upload(&y.b), 0);
    expect ey;
    expect_init(&ey, &y.b);
    const int alpha0 = creall(alpha) == 0 && cimagl(alpha) == 0;
    const int nothing = n == 0 || (alpha0 && creall(beta) == 1 && cimagl(beta) == 0);
    for (int i = 0; !nothing && i < n; i++) {
        lcplx acc = 0;
        long double mag = 0;
        for (int j = 0; j < n && !alpha0; j++) {
            const lcplx p = sym_el(&s, herm, i, j) * vec_get(&x, j);
            acc += p;
            mag += mag1(p);
        }
        const lcplx y0 = beta0 ? 0 : vec_get(&y, i);
        expect_set(&ey, vec_idx(&y, i), alpha * acc + beta * y0,
                   bound_k(t, n + 3) * (mag1(alpha) * mag + mag1(beta) * mag1(y0)));
    }
    const int null_ax = alpha0 && !device_mode;
    const void *al = sarg(t, alpha, 0, 0), *be = sarg(t, beta, 1, 0);
    const trnblasFillMode_t ul = upper ? TRNBLAS_FILL_MODE_UPPER : TRNBLAS_FILL_MODE_LOWER;
    assert_int_equal(call_mv(h, t, r, ul, n, k, al, null_ax ? NULL : store_ptr(&s), s.m.ld,
                             null_ax ? NULL : vec_ptr(&x), c->incx, be, vec_ptr(&y), c->incy),
                     TRNBLAS_STATUS_SUCCESS);
    expect ea, ex;
    expect_init(&ea, &s.m.b);
    expect_init(&ex, &x.b);
    const char *name = herm ? rt_hname[r] : rt_name[r];
    const size_t bad = check(name, &y.b, &ey) + check(name, &s.m.b, &ea) + check(name, &x.b, &ex);
    if (bad)
        fprintf(stderr, "  (uplo %d n %d k %d incx %d incy %d, %s mode)\n", upper, n, k, c->incx,
                c->incy, device_mode ? "device" : "host");
    release(&ey, &ea, &ex, &s.m.b, &x.b, &y.b);
    return bad;
}

/* spr, hpr, spr2, hpr2 */
static size_t run_upd(trnblasHandle_t h, ty t, rt r, int upper, const pcase *c) {
    const int n = c->n, herm = is_complex(t), two = r == R_SPR2;
    /* hpr's alpha is real */
    const lcplx alpha = scal_val(t, c->alpha_re + (herm && two ? -0.75L * I : 0));
    store s;
    vec x, y;
    store_init(&s, t, n, 0, upper, 1);
    vec_init(&x, t, n, c->incx, 1);
    vec_init(&y, t, n, c->incy, 2);
    assert_int_equal(buf_upload(&s.m.b) | buf_upload(&x.b) | buf_upload(&y.b), 0);
    expect ea;
    expect_init(&ea, &s.m.b);
    const int alpha0 = creall(alpha) == 0 && cimagl(alpha) == 0;
    for (int j = 0; j < n && !alpha0; j++)
        for (int i = 0; i < n; i++) {
            if (!stored(&s, i, j))
                continue;
            const lcplx xi = vec_get(&x, i), xj = vec_get(&x, j);
            lcplx d, a0 = sget(&s, i, j);
            long double mag;
            if (!two) {
                d = alpha * xi * (herm ? conjl(xj) : xj);
                mag = mag1(alpha) * mag1(xi) * mag1(xj);
            } else {
                const lcplx yi = vec_get(&y, i), yj = vec_get(&y, j);
                d = alpha * xi * (herm ? conjl(yj) : yj) +
                    (herm ? conjl(alpha) : alpha) * yi * (herm ? conjl(xj) : xj);
                mag = mag1(alpha) * (mag1(xi) * mag1(yj) + mag1(yi) * mag1(xj));
            }
            if (herm && i == j)
                a0 = creall(a0), d = creall(d);
            expect_set(&ea, sidx(&s, i, j), a0 + d, bound_k(t, two ? 5 : 3) * (mag1(a0) + mag));
        }
    const int null_xy = alpha0 && !device_mode;
    const void *al = sarg(t, alpha, 0, herm && !two);
    const trnblasFillMode_t ul = upper ? TRNBLAS_FILL_MODE_UPPER : TRNBLAS_FILL_MODE_LOWER;
    assert_int_equal(call_upd(h, t, r, ul, n, al, null_xy ? NULL : vec_ptr(&x), c->incx,
                              null_xy ? NULL : vec_ptr(&y), c->incy,
                              null_xy ? NULL : store_ptr(&s)),
                     TRNBLAS_STATUS_SUCCESS);
    const char *name = herm ? rt_hname[r] : rt_name[r];
    size_t bad = check(name, &s.m.b, &ea);
    if (herm && !alpha0) { /* the diagonal's imaginary parts exactly 0 */
        void *got = buf_download(&s.m.b);
        for (int i = 0; i < n; i++)
            if (cimagl(get_el(t, got, sidx(&s, i, i))) != 0 && bad++ < 4)
                fprintf(stderr, "%s%s: AP(%d, %d) is not real\n", ty_name[t], name, i, i);
        free(got);
    }
    expect ex, ey;
    expect_init(&ex, &x.b);
    expect_init(&ey, &y.b);
    bad += check(name, &x.b, &ex) + check(name, &y.b, &ey);
    if (bad)
        fprintf(stderr, "  (uplo %d n %d incx %d incy %d, %s mode)\n", upper, n, c->incx, c->incy,
                device_mode ? "device" : "host");
    release(&ea, &ex, &ey, &s.m.b, &x.b, &y.b);
    return bad;
}

static void all_routines(ty t) {
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    set_mode(h);
    size_t bad = 0;
    int cas = 0;
    static const trnblasOperation_t trs[] = {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C};
    for (size_t i = 0; i < N_CASES; i++)
        for (int upper = 0; upper < 2; upper++) {
            for (rt r = R_TBMV; r <= R_TPSV; r++)
                for (int tr = 0; tr < 3; tr++, cas++)
                    bad += run_tri(h, t, r, upper, trs[tr], cas % 3 == 1, &cases[i]);
            bad += run_mv(h, t, R_SBMV, upper, &cases[i]) + run_mv(h, t, R_SPMV, upper, &cases[i]) +
                   run_upd(h, t, R_SPR, upper, &cases[i]) + run_upd(h, t, R_SPR2, upper, &cases[i]);
        }
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(bad, 0);
}

static void run_all_types(void) {
    for (int t = TY_S; t <= TY_Z; t += type_step)
        all_routines((ty)t);
}

/* ---- bad input -------------------------------------------------------------------- */

static void test_bad_input(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    const trnblasFillMode_t L = TRNBLAS_FILL_MODE_LOWER;
    const trnblasOperation_t N = TRNBLAS_OP_N;
    const trnblasDiagType_t NU = TRNBLAS_DIAG_NON_UNIT;
    float *A, *x, *y;
    trnComplex *cA;
    assert_int_equal(trnsciMalloc((void **)&A, 64 * sizeof(float)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&x, 8 * sizeof(float)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&y, 8 * sizeof(float)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&cA, 64 * sizeof(trnComplex)), trnsciSuccess);
    const float one = 1.0f;
    expect_invalid(trnblasStbmv(h, L, N, NU, 4, -1, A, 4, x, 1), "tbmv: k=-1");
    expect_invalid(trnblasStbsv(h, L, N, NU, 4, 2, A, 2, x, 1), "tbsv: lda=2");
    expect_invalid(trnblasStbmv(h, L, N, NU, 4, 1, A, 2, x, 0), "tbmv: incx=0");
    expect_invalid(trnblasStpmv(h, (trnblasFillMode_t)2, N, NU, 4, A, x, 1), "tpmv: uplo=2");
    expect_invalid(trnblasStpsv(h, L, (trnblasOperation_t)3, NU, 4, A, x, 1), "tpsv: trans=3");
    expect_invalid(trnblasStpsv(h, L, N, (trnblasDiagType_t)2, 4, A, x, 1), "tpsv: diag=2");
    expect_invalid(trnblasStpmv(h, L, N, NU, -1, A, x, 1), "tpmv: n=-1");
    expect_invalid(trnblasSsbmv(h, L, 4, 1, &one, A, 1, x, 1, &one, y, 1), "sbmv: lda=1");
    expect_invalid(trnblasSspmv(h, L, 4, &one, A, x, 1, &one, y, 0), "spmv: incy=0");
    expect_invalid(trnblasSspr(h, L, 4, &one, x, 0, A), "spr: incx=0");
    expect_invalid(trnblasSspr2(h, L, 4, &one, x, 1, y, 0, A), "spr2: incy=0");
    /* extents: AP one element short (n = 11: 66 > 64 floats), a band one
     * column short, x past its allocation */
    expect_invalid(trnblasStpmv(h, L, N, NU, 11, A, x + 0, 1), "tpmv: AP");
    expect_invalid(trnblasSspr(h, L, 11, &one, A, 1, A), "spr: AP");
    expect_invalid(trnblasStbmv(h, L, N, NU, 8, 7, A + 1, 8, x, 1), "tbmv: A");
    const trnComplex cone = {1.0f, 0.0f};
    expect_invalid(trnblasChpmv(h, L, 9, &cone, cA, (trnComplex *)x, 1, &cone, (trnComplex *)y, 1),
                   "hpmv: x");
    expect_invalid(trnblasStpsv(h, L, N, NU, 4, A, x, 3), "tpsv: x");
    /* NULL scalars; device mode with a host scalar */
    expect_invalid(trnblasSspmv(h, L, 4, NULL, A, x, 1, &one, y, 1), "spmv");
    assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_DEVICE), TRNBLAS_STATUS_SUCCESS);
    expect_invalid(trnblasSspr(h, L, 4, &one, x, 1, A), "spr: alpha");
    assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_HOST), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasStpmv(NULL, L, N, NU, 4, A, x, 1), TRNBLAS_STATUS_NOT_INITIALIZED);
    /* still working: tpmv with the identity (lower packed, n = 3) */
    const float ap[6] = {1, 0, 0, 1, 0, 1}, xv[3] = {1, 2, 3};
    float got[3];
    assert_int_equal(trnsciMemcpy(A, ap, sizeof(ap), trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(x, xv, sizeof(xv), trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnblasStpmv(h, L, N, NU, 3, A, x, 1), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMemcpy(got, x, sizeof(got), trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_memory_equal(got, xv, sizeof(got));
    assert_int_equal(trnsciFree(A) | trnsciFree(x) | trnsciFree(y) | trnsciFree(cA), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

int main(void) {
    if (th_daemon_start(&daemon_under_test, NULL) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_mode),
        cmocka_unit_test(test_device_mode),
        cmocka_unit_test(test_bad_input),
    };
    int failed = cmocka_run_group_tests_name("blas2 packed and band over unix socket", tests,
                                             connect_unix, disconnect);
    failed += cmocka_run_group_tests_name("blas2 packed and band over tcp", tests, connect_tcp,
                                          disconnect);
    print_worst();
    const int rc = th_daemon_stop(&daemon_under_test);
    if (rc != 0) {
        fprintf(stderr, "trnscid exited with %d (expected a clean 0)\n", rc);
        failed++;
    }
    return failed ? 1 : 0;
}
