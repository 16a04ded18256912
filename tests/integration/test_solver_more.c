/*
 * test_solver_more.c — trnsolver's symmetric indefinite routines and
 * helpers (sytrf, sytri, Xsytrs, laswp, lauum, gesvdjBatched and their
 * _bufferSize calls)
 * for S, D, C and Z through a real trnscid, over the local transport and
 * gRPC over TCP.
 *
 * References, in long double from the values as stored (u the unit
 * roundoff of the type; complex arithmetic doubles the constants, as in
 * test_solver.c):
 *  - sytrf (Bunch-Kaufman; Higham, Accuracy and Stability, Thm 11.3): the
 *    factors are read back in LAPACK's representation (ipiv 1-based,
 *    negative pairs for 2x2 blocks; A = M D M^T with M = P(1) L(1) P(2)
 *    L(2) ... for LOWER, P(n) U(n) ... for UPPER, built here from that
 *    definition), and ||A - M D M^T||_F <= THRESH n u (||A||_F +
 *    || |M| |D| |M^T| ||_F); the matrices with a zero diagonal must give
 *    2x2 blocks, the others' pivots are checked for LAPACK's form (1x1:
 *    ipiv[k] in [1, n], 2x2: an equal negative pair); ipiv NULL (no
 *    pivoting) on diagonally dominant matrices gives M unit triangular;
 *  - Xsytrs with those factors (Thm 11.4, the same backward error):
 *    ||B - A X||_F <= THRESH n u (||A||_F + || |M||D||M^T| ||_F) ||X||_F;
 *  - sytri: its triangle against A^-1 computed in long double
 *    (Gauss-Jordan with partial pivoting, whose own error is ~2^-64 kappa),
 *    within THRESH n u kappa_F (1 + || |M||D||M^T| ||_F / ||A||_F)
 *    ||A^-1||_F (forward error = condition x backward error),
 *    kappa_F = ||A||_F ||A^-1||_F;
 *  - lauum (inner products of length <= n, Higham §3.1): every element of
 *    the triangle within gamma_n (|U||U^H|)_ij of U U^H (L^H L);
 *  - laswp: exactly the rows LAPACK's definition names, for incx 1, -1
 *    and 2; and getrf's pivots applied to the original A by laswp give
 *    P A = L U within gamma_n |L||U| (Thm 9.3);
 *  - gesvdjBatched (3 matrices 5 x 3 and 3 x 5, in one allocation each):
 *    per matrix LAPACK's test ratios (LAWN 41), ||A - U S V^H||_F /
 *    (max(m,n) u ||A||_F), ||U^H U - I||_F / (m u), ||V^H V - I||_F / (n u),
 *    held to THRESH; S descending and >= 0; info 0; cuSOLVER's limits
 *    (m, n <= 32) refused with INVALID_VALUE.
 * Every operand sits at an offset with padding (and lda > n) that must come
 * back unchanged, as must the triangle a routine does not own. info:
 * sytrf on a zero column gives its index (the first for LOWER, the last
 * for UPPER, as LAPACK), sytri the index of a zero 1x1 D(k,k) with A left
 * alone. Bad input gives cuSOLVER's status with a message naming the
 * argument; bad pivots in device memory fail the op at the next
 * synchronising call with INVALID_VALUE, and the daemon serves the next
 * call. Empty shapes are no-ops with info 0.
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

#define THRESH 30.0L
#define LOWER TRNBLAS_FILL_MODE_LOWER
#define UPPER TRNBLAS_FILL_MODE_UPPER

#define EXPECT(call, status, needle)                                                               \
    do {                                                                                           \
        assert_int_equal((call), (status));                                                        \
        st_expect_message(needle);                                                                 \
    } while (0)

static th_daemon daemon_under_test;

static const int sizes[] = {1, 2, 5, 24};
#define NSIZES ((int)(sizeof(sizes) / sizeof(sizes[0])))

static trnsciDataType_t dtype(ty t) {
    static const trnsciDataType_t d[] = {TRNSCI_R_32F, TRNSCI_R_64F, TRNSCI_C_32F, TRNSCI_C_64F};
    return d[t];
}

/* 2 for complex types: the constants of complex arithmetic. */
static long double cf(ty t) {
    return is_complex(t) ? 2.0L : 1.0L;
}

static void check_ratio(const char *what, long double value, long double limit) {
    st_note(what, limit > 0 ? value / limit : value, 1.0L);
    if (!(value <= limit))
        fail_msg("%s: %Lg exceeds the bound %Lg", what, value, limit);
}

/* In the stored triangle (i >= j for LOWER). */
static int in_lower(int i, int j, void *ctx) {
    (void)ctx;
    return i >= j;
}
static int in_upper(int i, int j, void *ctx) {
    (void)ctx;
    return i <= j;
}

/* A symmetric (complex symmetric for C, Z) n x n matrix: random, or with a
 * zero diagonal (which forces 2x2 pivots), or diagonally dominant. */
typedef enum { M_RANDOM, M_ZERO_DIAG, M_DOMINANT } mkind;

static void make_symmetric(st_mat *m, mkind kind) {
    const int n = m->rows;
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++) {
            lcplx v = st_random(m->t);
            if (i == j)
                v = kind == M_ZERO_DIAG && n > 1 ? 0 : kind == M_DOMINANT ? v + 2.0L * n : v;
            st_set(m, i, j, v);
            st_set(m, j, i, v);
        }
}

/* A's uplo triangle as stored, mirrored into a full symmetric matrix. */
static lcplx *take_symmetric(const st_mat *m, const void *h, int lower) {
    const int n = m->rows;
    lcplx *a = st_lmat(n, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            const int r = (lower ? i >= j : i <= j) ? i : j, c = r == i ? j : i;
            a[(size_t)j * n + i] = h ? st_got(m, h, r, c) : st_at(m, r, c);
        }
    return a;
}

/* M (n x n) and D of sytrf's output f (full download of the window) and
 * 1-based pivots piv (NULL: none). Fails on pivots of the wrong form. */
static void ldl_factors(int n, int lower, const lcplx *f, const int *piv, lcplx *mm, lcplx *dd) {
    for (size_t i = 0; i < (size_t)n * n; i++)
        mm[i] = dd[i] = 0;
    for (int i = 0; i < n; i++)
        mm[(size_t)i * n + i] = 1;
    /* Blocks in the order of M's product: ascending (lower), descending. */
    int k = lower ? 0 : n - 1;
    while (lower ? k < n : k >= 0) {
        const int p = piv ? piv[k] : k + 1;
        int s = 1;
        if (p < 0) {
            const int k2 = lower ? k + 1 : k - 1;
            assert_true(k2 >= 0 && k2 < n);
            assert_int_equal(piv[k2], p);
            s = 2;
        }
        const int kp = (p < 0 ? -p : p) - 1;
        assert_true(kp >= 0 && kp < n);
        /* The block's rows/columns [lo, hi]. */
        const int lo = lower ? k : k - s + 1, hi = lower ? k + s - 1 : k;
        /* M = M P(k): columns (lower: hi for 2x2 is k+1; upper: lo is k-1)
         * and kp exchanged. */
        const int kk = lower ? hi : lo;
        if (kp != kk)
            for (int i = 0; i < n; i++) {
                const lcplx t = mm[(size_t)kk * n + i];
                mm[(size_t)kk * n + i] = mm[(size_t)kp * n + i];
                mm[(size_t)kp * n + i] = t;
            }
        /* M = M L(k): the multipliers below (above) the block. */
        for (int c = lo; c <= hi; c++) {
            const int r0 = lower ? hi + 1 : 0, r1 = lower ? n : lo;
            for (int r = r0; r < r1; r++) {
                const lcplx v = f[(size_t)c * n + r];
                if (v == 0)
                    continue;
                for (int i = 0; i < n; i++)
                    mm[(size_t)c * n + i] += mm[(size_t)r * n + i] * v;
            }
        }
        /* D's block (symmetric). */
        for (int c = lo; c <= hi; c++)
            for (int r = c; r <= hi; r++) {
                const lcplx v = lower ? f[(size_t)c * n + r] : f[(size_t)r * n + c];
                dd[(size_t)c * n + r] = dd[(size_t)r * n + c] = v;
            }
        k += lower ? s : -s;
    }
}

/* out = x y^T (no conjugation) for n x n x (columns of M) and d between:
 * M D M^T, and with |.| everywhere when mag. */
static lcplx *mdmt(int n, const lcplx *mm, const lcplx *dd, int mag) {
    lcplx *md = st_lmat(n, n), *r = st_lmat(n, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            lcplx s = 0;
            for (int l = 0; l < n; l++)
                s += mag ? cabsl(mm[(size_t)l * n + i]) * cabsl(dd[(size_t)j * n + l])
                         : mm[(size_t)l * n + i] * dd[(size_t)j * n + l];
            md[(size_t)j * n + i] = s;
        }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            lcplx s = 0;
            for (int l = 0; l < n; l++)
                s += md[(size_t)l * n + i] *
                     (mag ? cabsl(mm[(size_t)l * n + j]) : mm[(size_t)l * n + j]);
            r[(size_t)j * n + i] = s;
        }
    free(md);
    return r;
}

/* inv(a) by Gauss-Jordan with partial pivoting in long double. */
static lcplx *linverse(int n, const lcplx *a) {
    lcplx *w = st_lmat(n, n), *x = st_lmat(n, n);
    memcpy(w, a, (size_t)n * n * sizeof(lcplx));
    for (int i = 0; i < n; i++)
        x[(size_t)i * n + i] = 1;
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++)
            if (cabsl(w[(size_t)c * n + r]) > cabsl(w[(size_t)c * n + p]))
                p = r;
        assert_true(cabsl(w[(size_t)c * n + p]) > 0);
        for (int j = 0; j < n; j++) {
            lcplx t = w[(size_t)j * n + c];
            w[(size_t)j * n + c] = w[(size_t)j * n + p];
            w[(size_t)j * n + p] = t;
            t = x[(size_t)j * n + c];
            x[(size_t)j * n + c] = x[(size_t)j * n + p];
            x[(size_t)j * n + p] = t;
        }
        const lcplx inv = 1.0L / w[(size_t)c * n + c];
        for (int j = 0; j < n; j++) {
            w[(size_t)j * n + c] *= inv;
            x[(size_t)j * n + c] *= inv;
        }
        for (int r = 0; r < n; r++) {
            if (r == c)
                continue;
            const lcplx f = w[(size_t)c * n + r];
            if (f == 0)
                continue;
            for (int j = 0; j < n; j++) {
                w[(size_t)j * n + r] -= f * w[(size_t)j * n + c];
                x[(size_t)j * n + r] -= f * x[(size_t)j * n + c];
            }
        }
    }
    free(w);
    return x;
}

static int *ipiv_alloc(int n) {
    int *d = NULL;
    assert_int_equal(trnsciMalloc((void **)&d, (size_t)(n > 0 ? n : 1) * sizeof(int)),
                     trnsciSuccess);
    return d;
}

static void read_ints(int *host, const int *dev, int n) {
    if (n > 0)
        assert_int_equal(trnsciMemcpy(host, dev, (size_t)n * sizeof(int), trnsciMemcpyDeviceToHost),
                         trnsciSuccess);
}

static long double orth_err(int r, int k, const lcplx *x);

static ty real_ty(ty t) {
    return t == TY_C ? TY_S : t == TY_Z ? TY_D : t;
}

/* ---- sytrd / hetrd, orgtr / ungtr, ormtr / unmtr ------------------------------------- */

static void check_sytrd(ty t, int n, int lower) {
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const trnblasFillMode_t uplo = lower ? LOWER : UPPER;
    const long double u = st_u(t);
    const int lda = n + 2, k = n > 1 ? n - 1 : 0;
    st_mat A, D, E, TAU, Q;
    st_alloc(&A, t, n, n, lda);
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++) {
            const lcplx v = i == j ? creall(st_random(t)) : st_random(t);
            st_set(&A, i, j, v);
            st_set(&A, j, i, conjl(v));
        }
    st_upload(&A);
    lcplx *a = st_take(&A);
    st_alloc(&D, real_ty(t), n, 1, n > 0 ? n : 1);
    st_upload(&D);
    st_alloc(&E, real_ty(t), k, 1, k > 0 ? k : 1);
    st_upload(&E);
    st_alloc(&TAU, t, k, 1, k > 0 ? k : 1);
    st_upload(&TAU);
    int *info = st_info_alloc(1);
    int lwork = -1;
    assert_int_equal(ST_CALL2(t, sytrd_bufferSize, hetrd_bufferSize, h, uplo, n, st_ptr(&A), lda,
                              st_ptr(&D), st_ptr(&E), st_ptr(&TAU), &lwork),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(lwork, 0);
    assert_int_equal(ST_CALL2(t, sytrd, hetrd, h, uplo, n, st_ptr(&A), lda, st_ptr(&D), st_ptr(&E),
                              st_ptr(&TAU), NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    void *ga = st_download(&A, lower ? in_lower : in_upper, NULL);
    void *gd = st_download(&D, NULL, NULL), *ge = st_download(&E, NULL, NULL);
    free(st_download(&TAU, NULL, NULL));
    /* Q from the reflectors: the factored A into Q, then orgtr. */
    st_alloc(&Q, t, n, n, lda);
    memcpy(Q.host, ga, Q.total * esize(t));
    st_upload(&Q);
    assert_int_equal(ST_CALL2(t, orgtr_bufferSize, ungtr_bufferSize, h, uplo, n, st_ptr(&Q), lda,
                              st_ptr(&TAU), &lwork),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(
        ST_CALL2(t, orgtr, ungtr, h, uplo, n, st_ptr(&Q), lda, st_ptr(&TAU), NULL, 0, info),
        TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    void *gq = st_download(&Q, NULL, NULL);
    lcplx *q = st_take_got(&Q, gq);
    /* A - Q T Q^H */
    lcplx *tt = st_lmat(n, n), *qt = st_lmat(n, n), *r = st_lmat(n, n);
    for (int i = 0; i < n; i++) {
        tt[(size_t)i * n + i] = st_got(&D, gd, i, 0);
        if (i + 1 < n)
            tt[(size_t)i * n + i + 1] = tt[(size_t)(i + 1) * n + i] = st_got(&E, ge, i, 0);
    }
    st_lmul(n, n, n, q, 0, tt, qt);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            lcplx x = 0;
            for (int l = 0; l < n; l++)
                x += qt[(size_t)l * n + i] * conjl(q[(size_t)l * n + j]);
            r[(size_t)j * n + i] = a[(size_t)j * n + i] - x;
        }
    const long double na = st_lfro(n, n, a);
    check_ratio("sytrd ||A - Q T Q^H||", st_lfro(n, n, r), THRESH * cf(t) * n * u * na);
    check_ratio("orgtr ||Q^H Q - I||", orth_err(n, n, q), THRESH * cf(t) * n * u);

    /* ormtr: op(Q) C and C op(Q) against the formed Q. */
    for (int side = 0; side <= 1; side++)
        for (int tr = 0; tr <= 1; tr++) {
            const int cm = side == 0 ? n : 4, cn = side == 0 ? 3 : n;
            const trnblasOperation_t op = !tr             ? TRNBLAS_OP_N
                                          : is_complex(t) ? TRNBLAS_OP_C
                                                          : TRNBLAS_OP_T;
            st_mat C;
            st_alloc(&C, t, cm, cn, cm + 1);
            for (int j = 0; j < cn; j++)
                for (int i = 0; i < cm; i++)
                    st_set(&C, i, j, st_random(t));
            st_upload(&C);
            lcplx *c = st_take(&C);
            /* A still holds the reflectors (device copy untouched since sytrd). */
            assert_int_equal(ST_CALL2(t, ormtr_bufferSize, unmtr_bufferSize, h,
                                      side ? TRNBLAS_SIDE_RIGHT : TRNBLAS_SIDE_LEFT, uplo, op, cm,
                                      cn, st_ptr(&A), lda, st_ptr(&TAU), st_ptr(&C), C.ld, &lwork),
                             TRNSOLVER_STATUS_SUCCESS);
            assert_int_equal(ST_CALL2(t, ormtr, unmtr, h,
                                      side ? TRNBLAS_SIDE_RIGHT : TRNBLAS_SIDE_LEFT, uplo, op, cm,
                                      cn, st_ptr(&A), lda, st_ptr(&TAU), st_ptr(&C), C.ld, NULL, 0,
                                      info),
                             TRNSOLVER_STATUS_SUCCESS);
            assert_int_equal(st_read_int(info), 0);
            void *gc = st_download(&C, NULL, NULL);
            lcplx *want = st_lmat(cm, cn);
            for (int j = 0; j < cn; j++)
                for (int i = 0; i < cm; i++) {
                    lcplx x = 0;
                    for (int l = 0; l < n; l++) {
                        /* op(Q)(i,l) C(l,j) or C(i,l) op(Q)(l,j). */
                        const int qi = side == 0 ? i : l, qj = side == 0 ? l : j;
                        const lcplx qv =
                            tr ? conjl(q[(size_t)qi * n + qj]) : q[(size_t)qj * n + qi];
                        x += side == 0 ? qv * c[(size_t)j * cm + l] : c[(size_t)l * cm + i] * qv;
                    }
                    want[(size_t)j * cm + i] = st_got(&C, gc, i, j) - x;
                }
            check_ratio("ormtr ||op(Q) C - formed||", st_lfro(cm, cn, want),
                        THRESH * cf(t) * n * u * st_lfro(cm, cn, c));
            free(want);
            free(gc);
            free(c);
            st_free(&C);
        }
    free(tt);
    free(qt);
    free(r);
    free(q);
    free(gq);
    free(ga);
    free(gd);
    free(ge);
    free(a);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    st_free(&A);
    st_free(&D);
    st_free(&E);
    st_free(&TAU);
    st_free(&Q);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_sytrd(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int s = 0; s < NSIZES; s++)
            for (int lower = 0; lower <= 1; lower++)
                check_sytrd(all_types[ti], sizes[s], lower);
}

/* ---- against LAPACK ---------------------------------------------------------------- */

/* D and Z sytrf and sytrd/hetrd against LAPACKE's in this process: the
 * same pivots (the pivot rule is LAPACK's; random data makes ties within
 * rounding unlikely); factors, d and e within THRESH n u ||A||_F
 * elementwise (both are backward stable reductions of the same matrix by
 * the same transformations, so the reduced columns agree to that); each
 * reflector and its tau within that over |e_k|, the norm of the column it
 * reduces (v = x / (alpha - beta), |alpha - beta| >= |beta| = |e_k|). */
static void check_lapack(int z, int lower, int zero_diag) {
    enum { NL = 9 };
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const ty t = z ? TY_Z : TY_D;
    const char ul = lower ? 'L' : 'U';
    const trnblasFillMode_t uplo = lower ? LOWER : UPPER;
    const long double u = st_u(t);
    for (int herm = 0; herm <= z; herm++) {
        st_mat A;
        st_alloc(&A, t, NL, NL, NL);
        for (int j = 0; j < NL; j++)
            for (int i = j; i < NL; i++) {
                lcplx v = i == j && zero_diag && !herm ? 0 : st_random(t);
                if (i == j && herm)
                    v = creall(v);
                st_set(&A, i, j, v);
                st_set(&A, j, i, herm ? conjl(v) : v);
            }
        st_upload(&A);
        lcplx *a = st_take(&A);
        const long double bound = THRESH * cf(t) * NL * u * st_lfro(NL, NL, a);
        double complex lz[NL * NL];
        double ld[NL * NL];
        for (int i = 0; i < NL * NL; i++) {
            lz[i] = (double complex)a[i];
            ld[i] = (double)creall(a[i]);
        }
        int *info = st_info_alloc(1);
        if (!herm) {
            /* sytrf (complex symmetric for Z). */
            lapack_int lp[NL];
            const lapack_int li = z ? LAPACKE_zsytrf(LAPACK_COL_MAJOR, ul, NL, lz, NL, lp)
                                    : LAPACKE_dsytrf(LAPACK_COL_MAJOR, ul, NL, ld, NL, lp);
            assert_int_equal(li, 0);
            int *ipiv = ipiv_alloc(NL);
            assert_int_equal(ST_CALL(t, sytrf, h, uplo, NL, st_ptr(&A), NL, ipiv, NULL, 0, info),
                             TRNSOLVER_STATUS_SUCCESS);
            int hp[NL];
            read_ints(hp, ipiv, NL);
            for (int k = 0; k < NL; k++)
                if (hp[k] != (int)lp[k])
                    fail_msg("sytrf %c: ipiv[%d] = %d, LAPACK's %d", ul, k, hp[k], (int)lp[k]);
            void *g = st_download(&A, lower ? in_lower : in_upper, NULL);
            long double worst = 0;
            for (int j = 0; j < NL; j++)
                for (int i = 0; i < NL; i++)
                    if (lower ? i >= j : i <= j) {
                        const lcplx ref = z ? lz[j * NL + i] : ld[j * NL + i];
                        worst = fmaxl(worst, cabsl(st_got(&A, g, i, j) - ref));
                    }
            check_ratio("sytrf vs LAPACK (elementwise)", worst, bound);
            free(g);
            assert_int_equal(trnsciFree(ipiv), trnsciSuccess);
        }
        if (herm || !z) { /* sytrd (D), hetrd (Z, Hermitian A) */
            double dref[NL], eref[NL];
            double complex tz[NL];
            double td[NL];
            for (int i = 0; i < NL * NL; i++) {
                lz[i] = (double complex)a[i];
                ld[i] = (double)creall(a[i]);
            }
            const lapack_int li =
                z ? LAPACKE_zhetrd(LAPACK_COL_MAJOR, ul, NL, lz, NL, dref, eref, tz)
                  : LAPACKE_dsytrd(LAPACK_COL_MAJOR, ul, NL, ld, NL, dref, eref, td);
            assert_int_equal(li, 0);
            /* A fresh upload: sytrf above overwrote the device copy (D). */
            st_upload(&A);
            st_mat D, E, TAU;
            st_alloc(&D, TY_D, NL, 1, NL);
            st_upload(&D);
            st_alloc(&E, TY_D, NL - 1, 1, NL - 1);
            st_upload(&E);
            st_alloc(&TAU, t, NL - 1, 1, NL - 1);
            st_upload(&TAU);
            assert_int_equal(ST_CALL2(t, sytrd, hetrd, h, uplo, NL, st_ptr(&A), NL, st_ptr(&D),
                                      st_ptr(&E), st_ptr(&TAU), NULL, 0, info),
                             TRNSOLVER_STATUS_SUCCESS);
            void *g = st_download(&A, lower ? in_lower : in_upper, NULL);
            void *gd = st_download(&D, NULL, NULL), *ge = st_download(&E, NULL, NULL),
                 *gt = st_download(&TAU, NULL, NULL);
            long double worst = 0;
            for (int k = 0; k < NL; k++) {
                worst = fmaxl(worst, fabsl(creall(st_got(&D, gd, k, 0)) - dref[k]));
                if (k + 1 < NL) {
                    worst = fmaxl(worst, fabsl(creall(st_got(&E, ge, k, 0)) - eref[k]));
                    /* Reflector k is the column it reduces over (alpha - beta),
                     * |alpha - beta| >= |beta| = |e_k|: its perturbation is
                     * that column's (<= the bound) over |e_k|. */
                    const lcplx tref = z ? tz[k] : td[k];
                    worst = fmaxl(worst, cabsl(st_got(&TAU, gt, k, 0) - tref) * fabs(eref[k]));
                }
            }
            for (int j = 0; j < NL; j++)
                for (int i = 0; i < NL; i++)
                    if (lower ? i > j + 1 : i + 1 < j) { /* the reflectors, as tau */
                        const lcplx ref = z ? lz[j * NL + i] : ld[j * NL + i];
                        const double ek = fabs(eref[lower ? j : j - 1]);
                        worst = fmaxl(worst, cabsl(st_got(&A, g, i, j) - ref) * ek);
                    }
            check_ratio("sytrd/hetrd vs LAPACK", worst, bound);
            free(g);
            free(gd);
            free(ge);
            free(gt);
            st_free(&D);
            st_free(&E);
            st_free(&TAU);
        }
        assert_int_equal(trnsciFree(info), trnsciSuccess);
        free(a);
        st_free(&A);
    }
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_lapack(void **state) {
    (void)state;
    for (int z = 0; z <= 1; z++)
        for (int lower = 0; lower <= 1; lower++)
            for (int zd = 0; zd <= 1; zd++)
                check_lapack(z, lower, zd);
}

/* ---- sytrf, Xsytrs, sytri ------------------------------------------------------------ */

static void check_sytrf(ty t, int n, int lower, mkind kind, int pivot) {
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const trnblasFillMode_t uplo = lower ? LOWER : UPPER;
    const long double u = st_u(t);
    st_mat A;
    st_alloc(&A, t, n, n, n + 3);
    make_symmetric(&A, kind);
    st_upload(&A);
    lcplx *a = take_symmetric(&A, NULL, lower);
    int lwork = -1;
    assert_int_equal(ST_CALL(t, sytrf_bufferSize, h, n, st_ptr(&A), A.ld, &lwork),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(lwork, 0);
    int *ipiv = pivot ? ipiv_alloc(n) : NULL;
    int *info = st_info_alloc(1);
    assert_int_equal(ST_CALL(t, sytrf, h, uplo, n, st_ptr(&A), A.ld, ipiv, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    void *got = st_download(&A, lower ? in_lower : in_upper, NULL);
    lcplx *f = st_take_got(&A, got);
    memcpy(A.host, got, A.total * esize(t)); /* the factors are A's contents now */
    int *piv = NULL;
    int twos = 0;
    if (pivot) {
        piv = calloc((size_t)n, sizeof(int));
        read_ints(piv, ipiv, n);
        for (int k = 0; k < n; k++)
            twos += piv[k] < 0;
    }
    if (kind == M_ZERO_DIAG && n > 1)
        assert_true(twos > 0); /* a zero diagonal needs 2x2 blocks */
    lcplx *mm = st_lmat(n, n), *dd = st_lmat(n, n);
    ldl_factors(n, lower, f, piv, mm, dd);
    lcplx *r = mdmt(n, mm, dd, 0), *tm = mdmt(n, mm, dd, 1);
    for (size_t i = 0; i < (size_t)n * n; i++)
        r[i] -= a[i];
    const long double na = st_lfro(n, n, a), nt = st_lfro(n, n, tm);
    char what[80];
    snprintf(what, sizeof(what), "sytrf %s ||A - M D M^T||", pivot ? "" : "(no pivoting)");
    check_ratio(what, st_lfro(n, n, r), THRESH * cf(t) * n * u * (na + nt));

    /* Xsytrs with the factors: 64-bit pivots, 3 right-hand sides. */
    const int nrhs = 3;
    st_mat B;
    st_alloc(&B, t, n, nrhs, n + 2);
    for (int j = 0; j < nrhs; j++)
        for (int i = 0; i < n; i++)
            st_set(&B, i, j, st_random(t));
    st_upload(&B);
    lcplx *b = st_take(&B);
    int64_t *ipiv64 = NULL;
    if (pivot) {
        int64_t *h64 = calloc((size_t)n, sizeof(int64_t));
        for (int k = 0; k < n; k++)
            h64[k] = piv[k];
        assert_int_equal(trnsciMalloc((void **)&ipiv64, (size_t)n * sizeof(int64_t)),
                         trnsciSuccess);
        assert_int_equal(
            trnsciMemcpy(ipiv64, h64, (size_t)n * sizeof(int64_t), trnsciMemcpyHostToDevice),
            trnsciSuccess);
        free(h64);
    }
    size_t dev = 1, host = 1;
    assert_int_equal(trnsolverDnXsytrs_bufferSize(h, uplo, n, nrhs, dtype(t), st_ptr(&A), A.ld,
                                                  ipiv64, dtype(t), st_ptr(&B), B.ld, &dev, &host),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_true(dev == 0 && host == 0);
    assert_int_equal(trnsolverDnXsytrs(h, uplo, n, nrhs, dtype(t), st_ptr(&A), A.ld, ipiv64,
                                       dtype(t), st_ptr(&B), B.ld, NULL, 0, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    void *gb = st_download(&B, NULL, NULL);
    lcplx *x = st_take_got(&B, gb);
    lcplx *ax = st_lmat(n, nrhs);
    st_lmul(n, nrhs, n, a, 0, x, ax);
    for (size_t i = 0; i < (size_t)n * nrhs; i++)
        ax[i] -= b[i];
    check_ratio("Xsytrs ||B - A X||", st_lfro(n, nrhs, ax),
                THRESH * cf(t) * n * u * (na + nt) * st_lfro(n, nrhs, x));
    st_untouched(&A); /* Xsytrs reads A only */

    /* sytri on the same factors: the triangle against inv(A). */
    assert_int_equal(ST_CALL(t, sytri_bufferSize, h, uplo, n, st_ptr(&A), A.ld, ipiv, &lwork),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(lwork, 0);
    assert_int_equal(ST_CALL(t, sytri, h, uplo, n, st_ptr(&A), A.ld, ipiv, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    void *gi = st_download(&A, lower ? in_lower : in_upper, NULL);
    lcplx *xi = take_symmetric(&A, gi, lower), *ref = linverse(n, a);
    const long double nref = st_lfro(n, n, ref);
    for (size_t i = 0; i < (size_t)n * n; i++)
        xi[i] -= ref[i];
    check_ratio("sytri ||X - inv(A)||", st_lfro(n, n, xi),
                THRESH * cf(t) * n * u * (na * nref) * (1 + nt / na) * nref);

    free(xi);
    free(ref);
    free(gi);
    free(ax);
    free(x);
    free(gb);
    free(b);
    st_free(&B);
    if (ipiv64)
        assert_int_equal(trnsciFree(ipiv64), trnsciSuccess);
    free(r);
    free(tm);
    free(mm);
    free(dd);
    free(piv);
    free(f);
    free(got);
    free(a);
    if (ipiv)
        assert_int_equal(trnsciFree(ipiv), trnsciSuccess);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    st_free(&A);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_sytrf(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int s = 0; s < NSIZES; s++)
            for (int lower = 0; lower <= 1; lower++) {
                check_sytrf(all_types[ti], sizes[s], lower, M_RANDOM, 1);
                check_sytrf(all_types[ti], sizes[s], lower, M_ZERO_DIAG, 1);
                check_sytrf(all_types[ti], sizes[s], lower, M_DOMINANT, 0);
            }
}

/* ---- lauum ------------------------------------------------------------------------- */

static void check_lauum(ty t, int n, int lower) {
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const trnblasFillMode_t uplo = lower ? LOWER : UPPER;
    st_mat A;
    st_alloc(&A, t, n, n, n + 1);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            st_set(&A, i, j, st_random(t));
    st_upload(&A);
    /* The triangle T (zero elsewhere); the product T T^H (upper) or T^H T. */
    lcplx *tr = st_lmat(n, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if (lower ? i >= j : i <= j)
                tr[(size_t)j * n + i] = st_at(&A, i, j);
    int lwork = -1;
    assert_int_equal(ST_CALL(t, lauum_bufferSize, h, uplo, n, st_ptr(&A), A.ld, &lwork),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(lwork, 0);
    int *info = st_info_alloc(1);
    assert_int_equal(ST_CALL(t, lauum, h, uplo, n, st_ptr(&A), A.ld, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    void *got = st_download(&A, lower ? in_lower : in_upper, NULL);
    const long double g = cf(t) * st_gamma(t, n + 1);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            if (!(lower ? i >= j : i <= j))
                continue;
            lcplx s = 0;
            long double m = 0;
            for (int l = 0; l < n; l++) {
                /* upper: (T T^H)_ij = sum_l T_il conj(T_jl); lower: (T^H T)_ij. */
                const lcplx x = lower ? conjl(tr[(size_t)i * n + l]) : tr[(size_t)l * n + i];
                const lcplx y = lower ? tr[(size_t)j * n + l] : conjl(tr[(size_t)l * n + j]);
                s += x * y;
                m += cabsl(x) * cabsl(y);
            }
            check_ratio("lauum |Y - U U^H|_ij", cabsl(st_got(&A, got, i, j) - s), g * m);
        }
    free(got);
    free(tr);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    st_free(&A);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_lauum(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int s = 0; s < NSIZES; s++)
            for (int lower = 0; lower <= 1; lower++)
                check_lauum(all_types[ti], sizes[s], lower);
}

/* ---- laswp ------------------------------------------------------------------------- */

/* LAPACK's definition, applied to the rows of a (rows x n, leading rows). */
static void laswp_ref(int rows, int n, lcplx *a, int k1, int k2, const int *ipiv, int incx) {
    if (incx == 0)
        return;
    int ix = incx > 0 ? k1 : 1 + (1 - k2) * incx;
    const int i1 = incx > 0 ? k1 : k2, i2 = incx > 0 ? k2 : k1, inc = incx > 0 ? 1 : -1;
    for (int i = i1; inc > 0 ? i <= i2 : i >= i2; i += inc, ix += incx) {
        const int ip = ipiv[ix - 1];
        if (ip == i)
            continue;
        for (int j = 0; j < n; j++) {
            const lcplx t = a[(size_t)j * rows + i - 1];
            a[(size_t)j * rows + i - 1] = a[(size_t)j * rows + ip - 1];
            a[(size_t)j * rows + ip - 1] = t;
        }
    }
}

static void check_laswp(ty t, int incx) {
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const int rows = 9, n = 4, k1 = 2, k2 = 7;
    /* A's window is the lda rows laswp may touch. */
    st_mat A;
    st_alloc(&A, t, rows, n, rows);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < rows; i++)
            st_set(&A, i, j, st_random(t));
    st_upload(&A);
    lcplx *ref = st_take(&A);
    const int inc = incx < 0 ? -incx : incx;
    const int count = k1 + (k2 - k1) * inc;
    int *hp = calloc((size_t)count, sizeof(int));
    for (int i = 0; i < count; i++)
        hp[i] = 1 + (int)((st_uniform() + 1) * 0.5L * rows) % rows;
    int *ipiv = ipiv_alloc(count);
    assert_int_equal(trnsciMemcpy(ipiv, hp, (size_t)count * sizeof(int), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(ST_CALL(t, laswp, h, n, st_ptr(&A), A.ld, k1, k2, ipiv, incx),
                     TRNSOLVER_STATUS_SUCCESS);
    void *got = st_download(&A, NULL, NULL);
    laswp_ref(rows, n, ref, k1, k2, hp, incx);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < rows; i++)
            if (st_got(&A, got, i, j) != ref[(size_t)j * rows + i])
                fail_msg("laswp incx=%d: A(%d,%d) is not the reference's", incx, i, j);
    free(got);
    free(ref);
    free(hp);
    assert_int_equal(trnsciFree(ipiv), trnsciSuccess);
    st_free(&A);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* getrf's pivots through laswp: P A = L U. */
static void check_laswp_getrf(ty t) {
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const int n = 12;
    st_mat A, F;
    st_alloc(&A, t, n, n, n + 2);
    st_alloc(&F, t, n, n, n + 2);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            const lcplx v = st_random(t);
            st_set(&A, i, j, v);
            st_set(&F, i, j, v);
        }
    st_upload(&A);
    st_upload(&F);
    int *ipiv = ipiv_alloc(n);
    int *info = st_info_alloc(1);
    assert_int_equal(ST_CALL(t, getrf, h, n, n, st_ptr(&F), F.ld, NULL, ipiv, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    assert_int_equal(ST_CALL(t, laswp, h, n, st_ptr(&A), A.ld, 1, n, ipiv, 1),
                     TRNSOLVER_STATUS_SUCCESS);
    void *ga = st_download(&A, NULL, NULL);
    void *gf = st_download(&F, NULL, NULL);
    const long double g = cf(t) * st_gamma(t, n + 1);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            lcplx s = 0;
            long double m = 0;
            for (int l = 0; l <= (i < j ? i : j); l++) {
                const lcplx lv = l == i ? 1 : st_got(&F, gf, i, l);
                const lcplx uv = st_got(&F, gf, l, j);
                s += lv * uv;
                m += cabsl(lv) * cabsl(uv);
            }
            check_ratio("laswp(getrf pivots) |P A - L U|_ij", cabsl(st_got(&A, ga, i, j) - s),
                        g * m);
        }
    free(ga);
    free(gf);
    assert_int_equal(trnsciFree(ipiv), trnsciSuccess);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    st_free(&A);
    st_free(&F);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_laswp(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++) {
        check_laswp(all_types[ti], 1);
        check_laswp(all_types[ti], -1);
        check_laswp(all_types[ti], 2);
        check_laswp_getrf(all_types[ti]);
    }
}

/* ---- gesvdjBatched ----------------------------------------------------------------- */

/* ||X^H X - I||_F for the k columns of an r-row matrix x (leading dim r). */
static long double orth_err(int r, int k, const lcplx *x) {
    lcplx *g = st_lmat(k, k);
    st_lmul(k, k, r, x, 1, x, g);
    for (int i = 0; i < k; i++)
        g[(size_t)i * k + i] -= 1;
    const long double e = st_lfro(k, k, g);
    free(g);
    return e;
}

static void check_gesvdj_batched(ty t, int m, int n) {
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    gesvdjInfo_t par;
    assert_int_equal(trnsolverDnCreateGesvdjInfo(&par), TRNSOLVER_STATUS_SUCCESS);
    const int batch = 3, p = m < n ? m : n, lda = m + 1, ldu = m + 2, ldv = n + 1;
    const long double u = st_u(t);
    st_mat A, S, U, V;
    st_alloc(&A, t, m, n * batch, lda);
    for (int j = 0; j < n * batch; j++)
        for (int i = 0; i < m; i++)
            st_set(&A, i, j, st_random(t));
    st_upload(&A);
    lcplx *a = st_take(&A);
    st_alloc(&S, real_ty(t), p, batch, p);
    st_upload(&S);
    st_alloc(&U, t, m, m * batch, ldu);
    st_upload(&U);
    st_alloc(&V, t, n, n * batch, ldv);
    st_upload(&V);
    int *info = st_info_alloc(batch);
    int lwork = -1;
    assert_int_equal(ST_CALL(t, gesvdjBatched_bufferSize, h, TRNSOLVER_EIG_MODE_VECTOR, m, n,
                             st_ptr(&A), lda, st_ptr(&S), st_ptr(&U), ldu, st_ptr(&V), ldv, &lwork,
                             par, batch),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(lwork, 0);
    assert_int_equal(ST_CALL(t, gesvdjBatched, h, TRNSOLVER_EIG_MODE_VECTOR, m, n, st_ptr(&A), lda,
                             st_ptr(&S), st_ptr(&U), ldu, st_ptr(&V), ldv, NULL, 0, info, par,
                             batch),
                     TRNSOLVER_STATUS_SUCCESS);
    int hinfo[3];
    read_ints(hinfo, info, batch);
    void *gs = st_download(&S, NULL, NULL), *gu = st_download(&U, NULL, NULL),
         *gv = st_download(&V, NULL, NULL);
    free(st_download(&A, NULL, NULL)); /* padding intact */
    lcplx *su = st_take_got(&U, gu), *sv = st_take_got(&V, gv);
    for (int b = 0; b < batch; b++) {
        assert_int_equal(hinfo[b], 0);
        const lcplx *ab = a + (size_t)b * n * m, *ub = su + (size_t)b * m * m,
                    *vb = sv + (size_t)b * n * n;
        /* A_b - U_b(:, 1:p) S_b V_b(:, 1:p)^H */
        lcplx *r = st_lmat(m, n);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
                lcplx x = ab[(size_t)j * m + i];
                for (int l = 0; l < p; l++) {
                    const long double sl = creall(st_got(&S, gs, l, b));
                    if (l > 0)
                        assert_true(sl <= creall(st_got(&S, gs, l - 1, b)));
                    assert_true(sl >= 0);
                    x -= ub[(size_t)l * m + i] * sl * conjl(vb[(size_t)l * n + j]);
                }
                r[(size_t)j * m + i] = x;
            }
        const int big = m > n ? m : n;
        check_ratio("gesvdjBatched ||A - U S V^H||", st_lfro(m, n, r),
                    THRESH * big * u * st_lfro(m, n, ab));
        check_ratio("gesvdjBatched ||U^H U - I||", orth_err(m, m, ub), THRESH * m * u);
        check_ratio("gesvdjBatched ||V^H V - I||", orth_err(n, n, vb), THRESH * n * u);
        free(r);
    }
    free(su);
    free(sv);
    free(gs);
    free(gu);
    free(gv);
    free(a);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    st_free(&A);
    st_free(&S);
    st_free(&U);
    st_free(&V);
    assert_int_equal(trnsolverDnDestroyGesvdjInfo(par), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_gesvdj_batched(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++) {
        check_gesvdj_batched(all_types[ti], 5, 3);
        check_gesvdj_batched(all_types[ti], 3, 5);
    }
    /* cuSOLVER's limits. */
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    EXPECT(trnsolverDnDgesvdjBatched(h, TRNSOLVER_EIG_MODE_VECTOR, 33, 2, NULL, 33, NULL, NULL, 33,
                                     NULL, 2, NULL, 0, NULL, NULL, 1),
           TRNSOLVER_STATUS_INVALID_VALUE, "0 .. 32");
    EXPECT(trnsolverDnDgesvdjBatched(h, TRNSOLVER_EIG_MODE_VECTOR, 3, 2, NULL, 3, NULL, NULL, 2,
                                     NULL, 2, NULL, 0, NULL, NULL, 1),
           TRNSOLVER_STATUS_INVALID_VALUE, "ldu");
    EXPECT(trnsolverDnDgesvdjBatched(h, TRNSOLVER_EIG_MODE_VECTOR, 3, 2, NULL, 3, NULL, NULL, 3,
                                     NULL, 2, NULL, 0, NULL, NULL, -1),
           TRNSOLVER_STATUS_INVALID_VALUE, "batchSize");
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* ---- info and empty shapes ------------------------------------------------------------ */

static void test_info(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const int n = 5;
    for (int lower = 0; lower <= 1; lower++) {
        /* diag(1, 0, 2, 0, 3): zero columns 2 and 4. */
        st_mat A;
        st_alloc(&A, TY_D, n, n, n);
        const long double d[] = {1, 0, 2, 0, 3};
        for (int i = 0; i < n; i++)
            st_set(&A, i, i, d[i]);
        st_upload(&A);
        int *ipiv = ipiv_alloc(n), *info = st_info_alloc(1);
        assert_int_equal(
            trnsolverDnDsytrf(h, lower ? LOWER : UPPER, n, st_ptr(&A), A.ld, ipiv, NULL, 0, info),
            TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(st_read_int(info), lower ? 2 : 4);
        /* sytri: the same index, A unchanged. */
        void *got = st_download(&A, NULL, NULL);
        memcpy(A.host, got, A.total * esize(TY_D));
        free(got);
        assert_int_equal(
            trnsolverDnDsytri(h, lower ? LOWER : UPPER, n, st_ptr(&A), A.ld, ipiv, NULL, 0, info),
            TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(st_read_int(info), lower ? 2 : 4);
        st_untouched(&A);
        assert_int_equal(trnsciFree(ipiv), trnsciSuccess);
        assert_int_equal(trnsciFree(info), trnsciSuccess);
        st_free(&A);
    }
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_empty(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    int *info = st_info_alloc(1);
    for (int ti = 0; ti < 4; ti++) {
        const ty t = all_types[ti];
        assert_int_equal(ST_CALL(t, sytrf, h, LOWER, 0, NULL, 1, NULL, NULL, 0, info),
                         TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(st_read_int(info), 0);
        assert_int_equal(trnsciMemset(info, 0x5a, sizeof(int)), trnsciSuccess);
        assert_int_equal(ST_CALL(t, sytri, h, UPPER, 0, NULL, 1, NULL, NULL, 0, info),
                         TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(st_read_int(info), 0);
        assert_int_equal(trnsciMemset(info, 0x5a, sizeof(int)), trnsciSuccess);
        assert_int_equal(ST_CALL(t, lauum, h, LOWER, 0, NULL, 1, NULL, 0, info),
                         TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(st_read_int(info), 0);
        assert_int_equal(trnsciMemset(info, 0x5a, sizeof(int)), trnsciSuccess);
        assert_int_equal(trnsolverDnXsytrs(h, LOWER, 0, 0, dtype(t), NULL, 1, NULL, dtype(t), NULL,
                                           1, NULL, 0, NULL, 0, info),
                         TRNSOLVER_STATUS_SUCCESS);
        assert_int_equal(st_read_int(info), 0);
        assert_int_equal(ST_CALL(t, laswp, h, 0, NULL, 1, 1, 1, NULL, 1), TRNSOLVER_STATUS_SUCCESS);
    }
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* ---- bad input ----------------------------------------------------------------------- */

static void test_bad_input(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const int n = 6;
    st_mat A, B;
    st_alloc(&A, TY_D, n, n, n);
    make_symmetric(&A, M_DOMINANT);
    st_upload(&A);
    st_alloc(&B, TY_D, n, 1, n);
    st_upload(&B);
    int *ipiv = ipiv_alloc(n), *info = st_info_alloc(1);
    int64_t *ipiv64 = NULL;
    assert_int_equal(trnsciMalloc((void **)&ipiv64, (size_t)n * 8), trnsciSuccess);
    void *a = st_ptr(&A), *b = st_ptr(&B);
    const trnsciDataType_t D = TRNSCI_R_64F;
    int lwork = 0;
    double host[64];

    assert_int_equal(trnsolverDnDsytrf(NULL, LOWER, n, a, n, ipiv, NULL, 0, info),
                     TRNSOLVER_STATUS_NOT_INITIALIZED);
    EXPECT(trnsolverDnDsytrf(h, LOWER, -1, a, n, ipiv, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "n=-1");
    EXPECT(trnsolverDnDsytrf(h, LOWER, n, a, n - 1, ipiv, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "lda=5");
    EXPECT(trnsolverDnDsytrf(h, (trnblasFillMode_t)7, n, a, n, ipiv, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "uplo=7");
    EXPECT(trnsolverDnDsytrf(h, LOWER, n, host, n, ipiv, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "sytrf: A");
    EXPECT(trnsolverDnDsytrf(h, LOWER, n, a, n, ipiv, NULL, 0, NULL),
           TRNSOLVER_STATUS_INVALID_VALUE, "info");
    /* ipiv one element short: past its allocation. */
    int *short_piv = NULL;
    assert_int_equal(trnsciMalloc((void **)&short_piv, (size_t)(n - 1) * sizeof(int)),
                     trnsciSuccess);
    EXPECT(trnsolverDnDsytrf(h, UPPER, n, a, n, short_piv, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "ipiv");
    EXPECT(trnsolverDnDsytri(h, UPPER, n, a, n + 3, ipiv, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "sytri: A");
    EXPECT(trnsolverDnDlauum(h, LOWER, n, a, 0, NULL, 0, info), TRNSOLVER_STATUS_INVALID_VALUE,
           "lda=0");
    assert_int_equal(trnsolverDnDsytrf_bufferSize(h, n, a, n, NULL),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverDnDlauum_bufferSize(NULL, LOWER, n, a, n, &lwork),
                     TRNSOLVER_STATUS_NOT_INITIALIZED);
    /* laswp's rows. */
    EXPECT(trnsolverDnDlaswp(h, n, a, n, 0, 2, ipiv, 1), TRNSOLVER_STATUS_INVALID_VALUE, "k1=0");
    EXPECT(trnsolverDnDlaswp(h, n, a, n, 3, 2, ipiv, 1), TRNSOLVER_STATUS_INVALID_VALUE, "k2=2");
    EXPECT(trnsolverDnDlaswp(h, n, a, n, 1, n + 1, ipiv, 1), TRNSOLVER_STATUS_INVALID_VALUE,
           "k2=7");
    EXPECT(trnsolverDnDlaswp(h, n, a, n, 1, n, ipiv, 2), TRNSOLVER_STATUS_INVALID_VALUE, "devIpiv");
    EXPECT(trnsolverDnDlaswp(h, -2, a, n, 1, n, ipiv, 1), TRNSOLVER_STATUS_INVALID_VALUE, "n=-2");
    /* Xsytrs's 64-bit sizes and types. */
    EXPECT(trnsolverDnXsytrs(h, LOWER, n, 1, TRNSCI_R_16F, a, n, ipiv64, TRNSCI_R_16F, b, n, NULL,
                             0, NULL, 0, info),
           TRNSOLVER_STATUS_NOT_SUPPORTED, "dataTypeA");
    EXPECT(trnsolverDnXsytrs(h, LOWER, n, 1, D, a, n, ipiv64, TRNSCI_R_32F, b, n, NULL, 0, NULL, 0,
                             info),
           TRNSOLVER_STATUS_NOT_SUPPORTED, "dataTypeB");
    EXPECT(trnsolverDnXsytrs(h, LOWER, (int64_t)INT_MAX + 1, 1, D, a, n, ipiv64, D, b, n, NULL, 0,
                             NULL, 0, info),
           TRNSOLVER_STATUS_NOT_SUPPORTED, "n=2147483648");
    EXPECT(trnsolverDnXsytrs(h, LOWER, n, -1, D, a, n, ipiv64, D, b, n, NULL, 0, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "nrhs=-1");
    EXPECT(trnsolverDnXsytrs(h, LOWER, n, 1, D, a, n, ipiv64, D, b, n - 1, NULL, 0, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "ldb=5");
    /* The tridiagonal routines. */
    EXPECT(trnsolverDnDsytrd(h, LOWER, n, a, n - 2, b, b, b, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "lda=4");
    EXPECT(trnsolverDnDsytrd(h, LOWER, n, a, n, b, host, b, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "sytrd: e");
    EXPECT(trnsolverDnDormtr(h, TRNBLAS_SIDE_LEFT, LOWER, TRNBLAS_OP_C, n, 1, a, n, b, b, n, NULL,
                             0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "trans=2");
    EXPECT(trnsolverDnDormtr(h, (trnblasSideMode_t)3, LOWER, TRNBLAS_OP_N, n, 1, a, n, b, b, n,
                             NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "side=3");
    EXPECT(trnsolverDnDorgtr(h, (trnblasFillMode_t)2, n, a, n, b, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "uplo=2");
    size_t dsz = 0;
    EXPECT(trnsolverDnXsytrs_bufferSize(h, LOWER, n, 1, D, a, n, ipiv64, D, b, n, &dsz, NULL),
           TRNSOLVER_STATUS_INVALID_VALUE, "workspaceInBytesOnHost");
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess); /* nothing was queued */

    /* Pivots in device memory are checked when the op runs. */
    const int bad_zero[6] = {1, 0, 3, 4, 5, 6};
    assert_int_equal(trnsciMemcpy(ipiv, bad_zero, sizeof(bad_zero), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(trnsolverDnDsytri(h, LOWER, n, a, n, ipiv, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorInvalidValue);
    st_expect_message("ipiv[1] = 0");
    const int64_t bad_pair[6] = {-2, 3, 3, 4, 5, 6}; /* a 2x2 block's rows differ */
    assert_int_equal(trnsciMemcpy(ipiv64, bad_pair, sizeof(bad_pair), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(
        trnsolverDnXsytrs(h, LOWER, n, 1, D, a, n, ipiv64, D, b, n, NULL, 0, NULL, 0, info),
        TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorInvalidValue);
    st_expect_message("2x2 block");
    const int bad_row[6] = {1, 2, 9, 4, 5, 6};
    assert_int_equal(trnsciMemcpy(ipiv, bad_row, sizeof(bad_row), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(trnsolverDnDlaswp(h, n, a, n, 1, n, ipiv, 1), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorInvalidValue);
    st_expect_message("devIpiv[2] = 9");
    st_untouched(&A); /* nothing ran on A */
    st_untouched(&B);

    /* The daemon still serves. */
    assert_int_equal(trnsolverDnDsytrf(h, LOWER, n, a, n, ipiv, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);

    assert_int_equal(trnsciFree(short_piv), trnsciSuccess);
    assert_int_equal(trnsciFree(ipiv), trnsciSuccess);
    assert_int_equal(trnsciFree(ipiv64), trnsciSuccess);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    st_free(&A);
    st_free(&B);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

int main(void) {
    if (st_start(&daemon_under_test) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sytrf),          cmocka_unit_test(test_lauum),
        cmocka_unit_test(test_laswp),          cmocka_unit_test(test_info),
        cmocka_unit_test(test_empty),          cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_gesvdj_batched), cmocka_unit_test(test_sytrd),
        cmocka_unit_test(test_lapack),
    };
    int failed = ST_RUN_BOTH("solver more", tests);
    failed += st_finish("solver_more");
    return failed ? 1 : 0;
}
