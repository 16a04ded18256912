/*
 * test_solver_eig_tiled.c — syevd/heevd with vectors at orders that run as
 * a task graph (ops/solver_eig_tile.h: n >= 1024), through real trnscid
 * daemons of 1 and 2 cores (--cores takes at most the machine's CPUs; how
 * a step's tasks are shared among 3 shards is
 * tests/unit/test_solver_eig_tile.c's), in S, D, C and Z, lower and upper.
 *
 * Checks:
 *  - W and the eigenvectors are bitwise the same on 1 and 2 cores (the
 *    task graph depends only on n and the type; docs/numerics.md "Tiled
 *    syevd");
 *  - against LAPACK's own syevd/heevd (LAPACKE, jobz N) on the same input:
 *    |w_i - w_i(LAPACK)| <= 2 T n eps ||A||_F (both backward stable: each
 *    within T n eps ||A||_F of the exact eigenvalues, Weyl's theorem);
 *  - the scaled residuals ||A Z - Z W||_F / (n ||A||_F eps) <= T and
 *    ||Z^H Z - I||_F / (n eps) <= T, T = 50 (the threshold of LAPACK's own
 *    eigensolver tests, sep.in), eps the type's machine epsilon;
 *  - an ill-conditioned, clustered input (D): Q D Q^H with half the
 *    eigenvalues within 1e-13 of 1 and the rest graded from 1e-12 to 1;
 *  - n = 1023 (not tiled) meets the same bounds;
 *  - a NaN in the referenced triangle: info = -4 and A unchanged, as the
 *    untiled syevd reports it.
 */
#include <cblas.h>
#include <complex.h>
#include <float.h>
#include <lapacke.h>
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

#define NDAEMONS 2
static th_daemon daemons[NDAEMONS]; /* 1 and 2 cores */

#define THRESH 50.0L

static int single_ty(ty t) {
    return t == TY_S || t == TY_C;
}

static size_t rsize(ty t) {
    return single_ty(t) ? sizeof(float) : sizeof(double);
}

/* Random Hermitian (clustered 0) or Q D Q^H with Q = H_1 H_2 two random
 * reflectors and the clustered, graded D (clustered 1); the other triangle
 * holds 7 (not referenced). */
static void *make_input(ty t, int n, int ld, int lower, int clustered) {
    double complex *f = calloc((size_t)n * n, sizeof(*f));
    assert_non_null(f);
    st_rng = 0x5eed0u + (uint32_t)n;
    if (!clustered) {
        for (int j = 0; j < n; j++)
            for (int i = j; i < n; i++) {
                const double complex v =
                    i == j ? (double)st_uniform()
                           : (double complex)(is_complex(t) ? st_uniform() + I * st_uniform()
                                                            : st_uniform());
                f[(size_t)j * n + i] = v;
                f[(size_t)i * n + j] = conj(v);
            }
    } else {
        for (int i = 0; i < n; i++)
            f[(size_t)i * n + i] =
                i < n / 2 ? 1.0 + 1e-13 * i / n : pow(10.0, -12.0 * (i - n / 2) / (n - n / 2));
        double complex *v = malloc((size_t)n * sizeof(*v)), *p = malloc((size_t)n * sizeof(*p));
        assert_non_null(v);
        assert_non_null(p);
        for (int r = 0; r < 2; r++) { /* F = H F H, H = I - 2 v v^H / v^H v */
            double vv = 0;
            for (int i = 0; i < n; i++) {
                v[i] = (double complex)(is_complex(t) ? st_uniform() + I * st_uniform()
                                                      : st_uniform());
                vv += creal(v[i] * conj(v[i]));
            }
            for (int side = 0; side < 2; side++) {
                for (int j = 0; j < n; j++) {
                    double complex s = 0;
                    for (int i = 0; i < n; i++)
                        s += side == 0 ? conj(v[i]) * f[(size_t)j * n + i]
                                       : f[(size_t)i * n + j] * v[i];
                    p[j] = s * (2.0 / vv);
                }
                for (int j = 0; j < n; j++)
                    for (int i = 0; i < n; i++)
                        f[(size_t)j * n + i] -= side == 0 ? v[i] * p[j] : p[i] * conj(v[j]);
            }
        }
        free(v);
        free(p);
    }
    void *h = malloc((size_t)ld * n * esize(t));
    assert_non_null(h);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < ld; i++) {
            const int stored = i < n && (lower ? i >= j : i <= j);
            lcplx v = stored ? (lcplx)f[(size_t)j * n + i] : 7;
            if (i == j)
                v = creall(v);
            put(t, h, (size_t)j * ld + i, v);
        }
    free(f);
    return h;
}

/* syevd of h on the daemon at addr: the vectors (A after the call) come
 * back, W into w, info into *info. */
static void *syevd_on(const char *addr, ty t, int n, int ld, int lower, const void *h, void *w,
                      int *info_out) {
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    trnsolverDnHandle_t handle;
    assert_int_equal(trnsolverDnCreate(&handle), TRNSOLVER_STATUS_SUCCESS);
    const size_t bytes = (size_t)ld * n * esize(t), wbytes = (size_t)n * rsize(t);
    void *dev = NULL, *dw = NULL;
    assert_int_equal(trnsciMalloc(&dev, bytes), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&dw, wbytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dev, h, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    int *info = st_info_alloc(1);
    const trnsolverEigMode_t jobz = TRNSOLVER_EIG_MODE_VECTOR;
    const trnblasFillMode_t uplo = lower ? TRNBLAS_FILL_MODE_LOWER : TRNBLAS_FILL_MODE_UPPER;
    int lwork = -1;
    assert_int_equal(
        ST_CALL2(t, syevd_bufferSize, heevd_bufferSize, handle, jobz, uplo, n, dev, ld, dw, &lwork),
        TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(lwork, 0); /* the daemon owns the scratch */
    assert_int_equal(
        ST_CALL2(t, syevd, heevd, handle, jobz, uplo, n, dev, ld, dw, NULL, lwork, info),
        TRNSOLVER_STATUS_SUCCESS);
    const trnsciError_t sync = trnsciDeviceSynchronize();
    if (sync != trnsciSuccess)
        fail_msg("syevd n=%d: %s", n, trnsciGetLastErrorMessage());
    *info_out = st_read_int(info);
    void *got = malloc(bytes);
    assert_non_null(got);
    assert_int_equal(trnsciMemcpy(got, dev, bytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(w, dw, wbytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(trnsciFree(dev), trnsciSuccess);
    assert_int_equal(trnsciFree(dw), trnsciSuccess);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(handle), TRNSOLVER_STATUS_SUCCESS);
    trnsciDeviceReset();
    return got;
}

/* LAPACK's eigenvalues of h (jobz N). */
static void lapack_w(ty t, int n, int ld, int lower, const void *h, void *w) {
    const size_t bytes = (size_t)ld * n * esize(t);
    void *c = malloc(bytes);
    assert_non_null(c);
    memcpy(c, h, bytes);
    const char u = lower ? 'L' : 'U';
    lapack_int rc;
    switch (t) {
    case TY_S: rc = LAPACKE_ssyevd(LAPACK_COL_MAJOR, 'N', u, n, c, ld, w); break;
    case TY_D: rc = LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', u, n, c, ld, w); break;
    case TY_C: rc = LAPACKE_cheevd(LAPACK_COL_MAJOR, 'N', u, n, c, ld, w); break;
    default: rc = LAPACKE_zheevd(LAPACK_COL_MAJOR, 'N', u, n, c, ld, w); break;
    }
    assert_int_equal(rc, 0);
    free(c);
}

static long double w_at(ty t, const void *w, int i) {
    return single_ty(t) ? (long double)((const float *)w)[i] : (long double)((const double *)w)[i];
}

/* The bounds at the top against LAPACK's eigenvalues wref. A is divided by
 * its largest magnitude first (no underflow of squares). */
static void check_result(ty t, int n, int ld, int lower, const void *h, const void *z,
                         const void *w, const void *wref, const char *what) {
    const long double eps = single_ty(t) ? FLT_EPSILON : DBL_EPSILON;
    const size_t nn = (size_t)n * n;
    double complex *ad = malloc(nn * sizeof(*ad)), *zd = malloc(nn * sizeof(*zd)),
                   *r = malloc(nn * sizeof(*r));
    assert_non_null(ad);
    assert_non_null(zd);
    assert_non_null(r);
    double amax = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            const int stored = lower ? i >= j : i <= j;
            const lcplx v =
                stored ? get(t, h, (size_t)j * ld + i) : conjl(get(t, h, (size_t)i * ld + j));
            ad[(size_t)j * n + i] = i == j ? (double)creall(v) : (double complex)v;
            zd[(size_t)j * n + i] = (double complex)get(t, z, (size_t)j * ld + i);
            amax = fmax(amax, cabs(ad[(size_t)j * n + i]));
        }
    long double an = 0;
    for (size_t k = 0; k < nn; k++) {
        ad[k] /= amax;
        an += creal(ad[k] * conj(ad[k]));
    }
    an = sqrtl(an);
    for (int i = 0; i < n; i++) {
        if (i > 0 && !(w_at(t, w, i - 1) <= w_at(t, w, i)))
            fail_msg("%s: W not ascending at %d", what, i);
        const long double e = fabsl(w_at(t, w, i) - w_at(t, wref, i)) / amax;
        st_note("syevd tiled |W - W_LAPACK| / bound", e / (2 * THRESH * n * eps * an), 1);
        if (!(e <= 2 * THRESH * n * eps * an))
            fail_msg("%s: W[%d] = %.17Lg, LAPACK's %.17Lg", what, i, w_at(t, w, i),
                     w_at(t, wref, i));
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            r[(size_t)j * n + i] = -zd[(size_t)j * n + i] * (double)(w_at(t, w, j) / amax);
    const double complex one = 1, zero = 0;
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, &one, ad, n, zd, n, &one, r, n);
    long double rn = 0, on = 0;
    for (size_t k = 0; k < nn; k++)
        rn += creal(r[k] * conj(r[k]));
    cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, n, n, n, &one, zd, n, zd, n, &zero, r,
                n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            const double complex g = r[(size_t)j * n + i] - (i == j);
            on += creal(g * conj(g));
        }
    const long double res = sqrtl(rn) / (n * an * eps), orth = sqrtl(on) / (n * eps);
    st_note("syevd tiled residual", res, THRESH);
    st_note("syevd tiled orthogonality", orth, THRESH);
    if (!(res <= THRESH) || !(orth <= THRESH))
        fail_msg("%s: residual %.3Lg, orthogonality %.3Lg (bound %.0Lf)", what, res, orth, THRESH);
    free(ad);
    free(zd);
    free(r);
}

static void run_case(ty t, int n, int lower, int clustered) {
    const int ld = n + 5;
    char what[96];
    snprintf(what, sizeof(what), "%s syevd n=%d %s%s", ty_name[t], n, lower ? "lower" : "upper",
             clustered ? " clustered" : "");
    void *h = make_input(t, n, ld, lower, clustered);
    void *wref = malloc((size_t)n * rsize(t)), *w[NDAEMONS], *z[NDAEMONS];
    assert_non_null(wref);
    lapack_w(t, n, ld, lower, h, wref);
    for (int d = 0; d < NDAEMONS; d++) {
        int info = 99;
        w[d] = malloc((size_t)n * rsize(t));
        assert_non_null(w[d]);
        z[d] = syevd_on(daemons[d].unix_addr, t, n, ld, lower, h, w[d], &info);
        if (info != 0)
            fail_msg("%s on %d cores: info %d", what, d + 1, info);
        if (d > 0 && (memcmp(w[d], w[0], (size_t)n * rsize(t)) != 0 ||
                      memcmp(z[d], z[0], (size_t)ld * n * esize(t)) != 0))
            fail_msg("%s: the result on %d cores differs from 1 core's", what, d + 1);
    }
    check_result(t, n, ld, lower, h, z[0], w[0], wref, what);
    for (int d = 0; d < NDAEMONS; d++) {
        free(w[d]);
        free(z[d]);
    }
    free(wref);
    free(h);
}

static void test_tiled_syevd(void **state) {
    (void)state;
    for (int k = 0; k < 4; k++)
        run_case(all_types[k], 1030, k % 2 == 0, 0);
    run_case(TY_D, 1030, 0, 0);
    run_case(TY_D, 1023, 1, 0);
}

static void test_tiled_clustered(void **state) {
    (void)state;
    run_case(TY_D, 1100, 1, 1);
}

static void test_tiled_nonfinite(void **state) {
    (void)state;
    const int n = 1030, ld = n + 5;
    for (int lower = 0; lower <= 1; lower++) {
        void *h = make_input(TY_Z, n, ld, lower, 0);
        put(TY_Z, h, (size_t)600 * ld + (lower ? 900 : 100), NAN);
        void *w = malloc((size_t)n * sizeof(double));
        assert_non_null(w);
        int info = 0;
        void *z = syevd_on(daemons[1].unix_addr, TY_Z, n, ld, lower, h, w, &info);
        assert_int_equal(info, -4);
        assert_memory_equal(z, h, (size_t)ld * n * esize(TY_Z));
        free(z);
        free(w);
        free(h);
    }
}

int main(void) {
    if (th_daemons_start(daemons, NDAEMONS, NULL) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiled_syevd),
        cmocka_unit_test(test_tiled_clustered),
        cmocka_unit_test(test_tiled_nonfinite),
    };
    int failed = cmocka_run_group_tests_name("tiled syevd", tests, NULL, NULL);
    failed += th_daemons_stop_checked(daemons, NDAEMONS, "trnscid");
    st_report("solver_eig_tiled");
    return failed ? 1 : 0;
}
