/*
 * test_solver_geev.c — trnsolver's 64-bit nonsymmetric eigensolver Xgeev
 * (and Xgeev_bufferSize) for R_32F, R_64F, C_32F and C_64F through a real
 * trnscid, over the local transport and gRPC over TCP.
 *
 * Test matrices: A = Q T Q^H in long double, Q a random unitary (real
 * orthogonal for real types), T upper triangular with eigenvalues 1, 2,
 * ..., n (real types: every third k with k + 1 < n a 2x2 block giving
 * k+1 +- 0.75i) and strictly upper entries below 0.1/n in magnitude. Then
 * the eigenvalues are known exactly, separated by >= 1, and the departure
 * from normality ||N||_F < 0.071 keeps every eigenvalue's condition number
 * below 2 (Henrici's bound; Golub & Van Loan §7.2.2).
 * References (u the unit roundoff, complex arithmetic doubling the
 * constants, THRESH = 30):
 *  - eigenvalues, as a multiset: each computed one within THRESH n u
 *    ||A||_F * 2 (the backward error of the Hessenberg QR, Higham §26 /
 *    LAWN 41, times the condition bound) of a distinct exact one;
 *  - right eigenvectors (jobvr VECTOR): ||A v - w v||_2 <= THRESH n u
 *    ||A||_F ||v||_2 per eigenpair (LAPACK's geev test ratio), and ||v||_2
 *    = 1 within THRESH n u; a real A's complex pair as VR(:,j) +-
 *    i VR(:,j+1);
 *  - W as n complex values, and for a real A also as 2n reals (WR then
 *    WI) with dataTypeW = dataTypeA; info 0; padding around A, W, VR
 *    unchanged.
 * Bad input: jobvl VECTOR and mismatched data types give NOT_SUPPORTED,
 * negative sizes and short leading dimensions INVALID_VALUE, with a message
 * naming the argument and nothing queued; a NaN in A gives info = -6 (A's
 * position) and the daemon serves the next call.
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

#include "harness.h"
#include "solver_test.h"

#define THRESH 30.0L
#define NOVEC TRNSOLVER_EIG_MODE_NOVECTOR
#define VEC TRNSOLVER_EIG_MODE_VECTOR

#define EXPECT(call, status, needle)                                                               \
    do {                                                                                           \
        assert_int_equal((call), (status));                                                        \
        st_expect_message(needle);                                                                 \
    } while (0)

static th_daemon daemon_under_test;

static trnsciDataType_t dtype(ty t) {
    static const trnsciDataType_t d[] = {TRNSCI_R_32F, TRNSCI_R_64F, TRNSCI_C_32F, TRNSCI_C_64F};
    return d[t];
}

static ty cx_of(ty t) {
    return t == TY_S ? TY_C : t == TY_D ? TY_Z : t;
}

static long double cf(ty t) {
    return is_complex(t) ? 2.0L : 1.0L;
}

static void check_ratio(const char *what, long double value, long double limit) {
    st_note(what, limit > 0 ? value / limit : value, 1.0L);
    if (!(value <= limit))
        fail_msg("%s: %Lg exceeds the bound %Lg", what, value, limit);
}

/* A = Q T Q^H (see the top) into a, the exact eigenvalues into lam. */
static void make_input(ty t, int n, lcplx *a, lcplx *lam) {
    lcplx *tm = st_lmat(n, n), *q = st_unitary(t, n), *qt = st_lmat(n, n);
    for (int k = 0; k < n; k++) {
        const int pair = !is_complex(t) && k % 3 == 0 && k + 1 < n;
        tm[(size_t)k * n + k] = k + 1;
        lam[k] = k + 1;
        if (pair) {
            tm[(size_t)(k + 1) * n + k + 1] = k + 1;
            tm[(size_t)(k + 1) * n + k] = 0.75L;
            tm[(size_t)k * n + k + 1] = -0.75L;
            lam[k] = k + 1 + 0.75L * I;
            lam[k + 1] = k + 1 - 0.75L * I;
        }
        for (int j = k + 1 + pair; j < n; j++)
            tm[(size_t)j * n + k] = 0.1L / n * st_random(t) / 2;
        k += pair;
    }
    st_lmul(n, n, n, q, 0, tm, qt);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            lcplx s = 0;
            for (int l = 0; l < n; l++)
                s += qt[(size_t)l * n + i] * conjl(q[(size_t)l * n + j]);
            a[(size_t)j * n + i] = is_complex(t) ? s : creall(s);
        }
    free(tm);
    free(q);
    free(qt);
}

static void check_geev(ty t, int n, int vectors, int split) {
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const long double u = st_u(t);
    const trnsciDataType_t ta = dtype(t), tw = split ? ta : dtype(cx_of(t));
    st_mat A, W, V;
    st_alloc(&A, t, n, n, n + 2);
    lcplx *a = st_lmat(n, n), *lam = st_lmat(n, 1);
    make_input(t, n, a, lam);
    st_fill(&A, a);
    st_upload(&A);
    /* W: n complex values, or 2n reals (WR then WI). */
    if (split)
        st_alloc(&W, t, 2 * n, 1, 2 * n > 0 ? 2 * n : 1);
    else
        st_alloc(&W, cx_of(t), n, 1, n > 0 ? n : 1);
    st_upload(&W);
    st_alloc(&V, t, vectors ? n : 1, vectors ? n : 1, n + 3);
    st_upload(&V);
    int *info = st_info_alloc(1);
    size_t dsz = 99, hsz = 99;
    const trnsolverEigMode_t jobvr = vectors ? VEC : NOVEC;
    assert_int_equal(trnsolverDnXgeev_bufferSize(h, NULL, NOVEC, jobvr, n, ta, st_ptr(&A), A.ld, tw,
                                                 st_ptr(&W), ta, NULL, 1, ta, st_ptr(&V), V.ld, ta,
                                                 &dsz, &hsz),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(dsz, 0);
    assert_int_equal(hsz, 0);
    assert_int_equal(trnsolverDnXgeev(h, NULL, NOVEC, jobvr, n, ta, st_ptr(&A), A.ld, tw,
                                      st_ptr(&W), ta, NULL, 1, ta, st_ptr(&V), V.ld, ta, NULL, 0,
                                      NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    free(st_download(&A, NULL, NULL)); /* A is overwritten; its padding is not */
    void *gw = st_download(&W, NULL, NULL);
    void *gv = vectors ? st_download(&V, NULL, NULL) : NULL;
    if (!vectors)
        st_untouched(&V);
    lcplx *w = st_lmat(n, 1);
    for (int j = 0; j < n; j++)
        w[j] = split ? st_got(&W, gw, j, 0) + I * st_got(&W, gw, n + j, 0) : st_got(&W, gw, j, 0);
    /* Eigenvalues as a multiset: nearest exact ones, each taken once. */
    const long double na = st_lfro(n, n, a), eb = THRESH * cf(t) * n * u * na * 2;
    int *used = calloc((size_t)(n > 0 ? n : 1), sizeof(int));
    assert_non_null(used);
    long double worst = 0;
    for (int j = 0; j < n; j++) {
        int best = 0;
        for (int k = 1; k < n; k++)
            if (cabsl(w[j] - lam[k]) < cabsl(w[j] - lam[best]))
                best = k;
        if (used[best])
            fail_msg("W[%d] = %Lg%+Lgi: its nearest eigenvalue is matched twice", j, creall(w[j]),
                     cimagl(w[j]));
        used[best] = 1;
        worst = fmaxl(worst, cabsl(w[j] - lam[best]));
    }
    check_ratio("Xgeev |w - lambda|", worst, eb);
    if (vectors) {
        lcplx *v = st_lmat(n, 1), *r = st_lmat(n, 1);
        long double worst_r = 0, worst_n = 0;
        for (int j = 0; j < n; j++) {
            const int pair = !is_complex(t) && cimagl(w[j]) != 0;
            const int j0 = pair && cimagl(w[j]) < 0 ? j - 1 : j;
            if (pair && (j0 < 0 || j0 + 1 >= n))
                fail_msg("W[%d] is complex with no partner column", j);
            for (int i = 0; i < n; i++) {
                v[i] = st_got(&V, gv, i, j0);
                if (pair)
                    v[i] += (j0 == j ? 1 : -1) * I * st_got(&V, gv, i, j0 + 1);
            }
            st_lmul(n, 1, n, a, 0, v, r);
            for (int i = 0; i < n; i++)
                r[i] -= w[j] * v[i];
            const long double nv = st_lfro(n, 1, v);
            worst_r = fmaxl(worst_r, st_lfro(n, 1, r) / (na * nv));
            worst_n = fmaxl(worst_n, fabsl(nv - 1));
        }
        check_ratio("Xgeev ||A v - w v|| / (||A|| ||v||)", worst_r, THRESH * cf(t) * n * u);
        check_ratio("Xgeev | ||v|| - 1 |", worst_n, THRESH * cf(t) * n * u);
        free(v);
        free(r);
    }
    free(used);
    free(w);
    free(gw);
    free(gv);
    free(a);
    free(lam);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    st_free(&A);
    st_free(&W);
    st_free(&V);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_geev(void **state) {
    (void)state;
    static const int sizes[] = {0, 1, 2, 5, 12, 31};
    for (int ti = 0; ti < 4; ti++)
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
            for (int vec = 0; vec <= 1; vec++)
                for (int split = 0; split <= !is_complex(all_types[ti]); split++)
                    check_geev(all_types[ti], sizes[s], vec, split);
}

static void test_bad_input(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const int n = 4;
    const trnsciDataType_t D = TRNSCI_R_64F, Z = TRNSCI_C_64F;
    st_mat A, W, V;
    st_alloc(&A, TY_D, n, n, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            st_set(&A, i, j, i == j ? 2.0L : 0.25L);
    st_upload(&A);
    st_alloc(&W, TY_Z, n, 1, n);
    st_upload(&W);
    st_alloc(&V, TY_D, n, n, n);
    st_upload(&V);
    void *a = st_ptr(&A), *w = st_ptr(&W), *v = st_ptr(&V);
    int *info = st_info_alloc(1);
    size_t dsz = 0, hsz = 0;
    assert_int_equal(trnsolverDnXgeev_bufferSize(NULL, NULL, NOVEC, VEC, n, D, a, n, Z, w, D, NULL,
                                                 1, D, v, n, D, &dsz, &hsz),
                     TRNSOLVER_STATUS_NOT_INITIALIZED);
    EXPECT(trnsolverDnXgeev_bufferSize(h, NULL, NOVEC, VEC, n, D, a, n, Z, w, D, NULL, 1, D, v, n,
                                       D, &dsz, NULL),
           TRNSOLVER_STATUS_INVALID_VALUE, "workspaceInBytesOnHost");
    EXPECT(trnsolverDnXgeev_bufferSize(h, NULL, VEC, VEC, n, D, a, n, Z, w, D, NULL, n, D, v, n, D,
                                       &dsz, &hsz),
           TRNSOLVER_STATUS_NOT_SUPPORTED, "jobvl");
    EXPECT(trnsolverDnXgeev(h, NULL, VEC, VEC, n, D, a, n, Z, w, D, NULL, n, D, v, n, D, NULL, 0,
                            NULL, 0, info),
           TRNSOLVER_STATUS_NOT_SUPPORTED, "jobvl");
    EXPECT(trnsolverDnXgeev(h, NULL, NOVEC, VEC, n, D, a, n, TRNSCI_C_32F, w, D, NULL, 1, D, v, n,
                            D, NULL, 0, NULL, 0, info),
           TRNSOLVER_STATUS_NOT_SUPPORTED, "dataTypeW");
    EXPECT(trnsolverDnXgeev(h, NULL, NOVEC, VEC, n, D, a, n, Z, w, D, NULL, 1, Z, v, n, D, NULL, 0,
                            NULL, 0, info),
           TRNSOLVER_STATUS_NOT_SUPPORTED, "dataTypeVR");
    EXPECT(trnsolverDnXgeev(h, NULL, NOVEC, VEC, n, TRNSCI_R_16F, a, n, Z, w, D, NULL, 1, D, v, n,
                            D, NULL, 0, NULL, 0, info),
           TRNSOLVER_STATUS_NOT_SUPPORTED, "dataTypeA");
    EXPECT(trnsolverDnXgeev(h, NULL, NOVEC, VEC, n, D, a, n, Z, w, D, NULL, 1, D, v, n, Z, NULL, 0,
                            NULL, 0, info),
           TRNSOLVER_STATUS_NOT_SUPPORTED, "computeType");
    EXPECT(trnsolverDnXgeev(h, NULL, NOVEC, VEC, -1, D, a, n, Z, w, D, NULL, 1, D, v, n, D, NULL, 0,
                            NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "n=-1");
    EXPECT(trnsolverDnXgeev(h, NULL, NOVEC, VEC, n, D, a, n - 1, Z, w, D, NULL, 1, D, v, n, D, NULL,
                            0, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "lda=3");
    EXPECT(trnsolverDnXgeev(h, NULL, NOVEC, VEC, n, D, a, n, Z, w, D, NULL, 0, D, v, n, D, NULL, 0,
                            NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "ldvl=0");
    EXPECT(trnsolverDnXgeev(h, NULL, NOVEC, VEC, n, D, a, n, Z, w, D, NULL, 1, D, v, n - 1, D, NULL,
                            0, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "ldvr=3");
    double host[8] = {0};
    EXPECT(trnsolverDnXgeev(h, NULL, NOVEC, VEC, n, D, a, n, Z, host, D, NULL, 1, D, v, n, D, NULL,
                            0, NULL, 0, info),
           TRNSOLVER_STATUS_INVALID_VALUE, "Xgeev: W");
    EXPECT(trnsolverDnXgeev(h, NULL, NOVEC, VEC, (int64_t)INT_MAX + 1, D, a, n, Z, w, D, NULL, 1, D,
                            v, n, D, NULL, 0, NULL, 0, info),
           TRNSOLVER_STATUS_NOT_SUPPORTED, "n=2147483648");
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess); /* nothing was queued */
    st_untouched(&A);
    st_untouched(&W);
    st_untouched(&V);

    /* A NaN in A: info = -6, nothing else written; then the daemon serves. */
    const double nan_v = NAN;
    assert_int_equal(trnsciMemcpy((double *)a + 5, &nan_v, sizeof(nan_v), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(trnsolverDnXgeev(h, NULL, NOVEC, VEC, n, D, a, n, Z, w, D, NULL, 1, D, v, n, D,
                                      NULL, 0, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), -6);
    st_untouched(&W);
    st_untouched(&V);
    st_upload(&A);
    assert_int_equal(trnsolverDnXgeev(h, NULL, NOVEC, NOVEC, n, D, a, n, Z, w, D, NULL, 1, D, NULL,
                                      1, D, NULL, 0, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    st_free(&A);
    st_free(&W);
    st_free(&V);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

int main(void) {
    if (st_start(&daemon_under_test) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geev),
        cmocka_unit_test(test_bad_input),
    };
    int failed = ST_RUN_BOTH("solver geev", tests);
    failed += st_finish("solver_geev");
    return failed ? 1 : 0;
}
