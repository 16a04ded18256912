/*
 * test_solver_eig_tile.c — the tiled syevd/heevd's task graph
 * (ops/solver_eig_tile.h) and its CPU kernel, without a daemon:
 *  - which ops are tiled (syevd with vectors from n = 1024; not jobz N, not
 *    sygvd, not below), the three steps and their task counts, and a step's
 *    tasks shared among 1 to 7 shards as contiguous runs covering each task
 *    once;
 *  - the whole graph run with every step cut into 1, 2 and 3 shards (and 3
 *    called backwards) gives bitwise the same W and eigenvectors, in S, D, C
 *    and Z, lower and upper;
 *  - against LAPACK's own syevd/heevd on the same input: |w_i - w_i(LAPACK)|
 *    <= 2 T n eps ||A||_F (both backward stable: each within T n eps ||A||_F
 *    of the exact eigenvalues by Weyl's theorem), and the scaled residuals
 *    ||A Z - Z W||_F / (n ||A||_F eps) <= T and ||Z^H Z - I||_F / (n eps) <= T
 *    with T = 50, the threshold of LAPACK's own eigensolver tests (sep.in);
 *    eps is the machine epsilon of the type (2^-23, 2^-52);
 *  - a clustered, graded spectrum (half the eigenvalues within 1e-13 of 1,
 *    the rest spread from 1e-12 to 1: deflation throughout stedc), a matrix
 *    scaled by 1e-150 (dsyevd's scaling path, checked relative to ||A||),
 *    and a NaN in the referenced triangle (info = -4, A and W untouched).
 */
#include <cblas.h>
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "kernels/cpu/cpu_kernels.h"
#define TILE_TEST_SEED 0x2545f4914f6cdd1dULL
#include "ops/solver_eig_tile.h"
#include "ops/solver_tile.h"
#include "tests/common/tile_test.h"

#define THRESH 50.0

static int cx(trn_dtype t) {
    return t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F;
}

static int single(trn_dtype t) {
    return t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F;
}

static double eps_of(trn_dtype t) {
    return single(t) ? FLT_EPSILON : DBL_EPSILON;
}

static double real_at(trn_dtype t, const void *w, int i) {
    return single(t) ? (double)((const float *)w)[i] : ((const double *)w)[i];
}

static trn_solver_eigen_desc eig(trn_dtype t, int n, int lower, void *a, int lda, void *w,
                                 int32_t *info) {
    return (trn_solver_eigen_desc){.fn = TRN_SOLVER_SYEVD,
                                   .type = t,
                                   .vectors = 1,
                                   .lower = lower,
                                   .n = n,
                                   .a = a,
                                   .lda = lda,
                                   .w = w,
                                   .info = info};
}

static void test_graph(void **state) {
    (void)state;
    int32_t info;
    trn_solver_eigen_desc e = eig(TRN_DTYPE_R64F, 1023, 1, NULL, 1023, NULL, &info);
    assert_int_equal(trn_eig_tile_steps(&e), 0);
    assert_int_equal(trn_eig_tile_pieces(&e), 0);
    e.n = 1024;
    assert_int_equal(trn_eig_tile_steps(&e), 3);
    /* The largest order is tiled, one more is not. */
    trn_solver_eigen_desc big = eig(TRN_DTYPE_C64F, 65536, 1, NULL, 65536, NULL, &info);
    assert_int_equal(trn_eig_tile_pieces(&big), 1 + 2 * (65536 / TRN_EIG_TILE_NB));
    big.n = 65537;
    assert_int_equal(trn_eig_tile_steps(&big), 0);
    e.vectors = 0;
    assert_int_equal(trn_eig_tile_steps(&e), 0);
    e.vectors = 1;
    e.fn = TRN_SOLVER_SYGVD;
    assert_int_equal(trn_eig_tile_steps(&e), 0);
    e.fn = TRN_SOLVER_SYEVD;
    for (int n = 1024; n <= 1300; n += 276) {
        e.n = n;
        e.lda = n;
        const size_t blocks = (size_t)(n + TRN_EIG_TILE_NB - 1) / TRN_EIG_TILE_NB;
        const size_t want[3] = {1, 1, blocks};
        for (int s = 0; s < 3; s++) {
            const trn_solver_dense_desc d = trn_eig_tile_step(&e, s, NULL);
            assert_true(trn_tile_fn(d.fn));
            assert_int_equal(trn_tile_tasks(&d), want[s]);
            check_shard_runs(&d, want[s]);
            if (s == 2) {
                double f = 0;
                for (size_t k = 0; k < blocks; k++) {
                    int i, j;
                    trn_tile_task(&d, k, &i, &j);
                    assert_int_equal(j, (int)k);
                }
                f = trn_tile_step_flops(&d);
                assert_true(fabs(f - 2.0 * n * n * n) <= 1e-9 * f);
            }
        }
    }
}

/* The input: random Hermitian (kind 0) or Q D Q^H with a clustered, graded
 * D and Q = H_1 H_2 two random reflectors (kind 1); the other triangle
 * holds 7 (not referenced). lda = n + 3. */
static void *make_input(trn_dtype t, int n, int lower, int kind) {
    const int lda = n + 3;
    void *a = malloc((size_t)lda * n * trn_dtype_size(t));
    assert_non_null(a);
    double complex *f = calloc((size_t)n * n, sizeof(*f));
    assert_non_null(f);
    if (kind == 0) {
        for (int j = 0; j < n; j++)
            for (int i = j; i < n; i++) {
                const double complex v = i == j  ? uniform()
                                         : cx(t) ? uniform() + I * uniform()
                                                 : uniform();
                f[(size_t)j * n + i] = v;
                f[(size_t)i * n + j] = conj(v);
            }
    } else {
        for (int i = 0; i < n; i++)
            f[(size_t)i * n + i] =
                i < n / 2 ? 1.0 + 1e-13 * i / n : pow(10.0, -12.0 * (i - n / 2) / (n - n / 2));
        for (int r = 0; r < 2; r++) { /* F = H F H, H = I - 2 v v^H / v^H v */
            double complex *v = malloc((size_t)n * sizeof(*v)), *p = malloc((size_t)n * sizeof(*p));
            assert_non_null(v);
            assert_non_null(p);
            double vv = 0;
            for (int i = 0; i < n; i++) {
                v[i] = cx(t) ? uniform() + I * uniform() : uniform();
                vv += creal(v[i] * conj(v[i]));
            }
            for (int side = 0; side < 2; side++) { /* left: F -= v (2/vv) (v^H F); right likewise */
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
            free(v);
            free(p);
        }
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            const int stored = lower ? i >= j : i <= j;
            double complex v = stored ? f[(size_t)j * n + i] : 7.0;
            if (i == j)
                v = creal(v);
            set_elem(t, a, (size_t)j * lda + i, v);
        }
    free(f);
    return a;
}

/* The tiled syevd of a (copied; the copy comes back with the vectors)
 * with every step cut into S shards, called in order or backwards. */
static void *run_tiled(trn_dtype t, int n, int lower, const void *a, void *w, int S, int back,
                       int32_t *info) {
    const int lda = n + 3;
    const size_t bytes = (size_t)lda * n * trn_dtype_size(t);
    void *c = malloc(bytes);
    assert_non_null(c);
    memcpy(c, a, bytes);
    const trn_solver_eigen_desc e = eig(t, n, lower, c, lda, w, info);
    assert_int_equal(trn_eig_tile_steps(&e), 3);
    const int np = trn_eig_tile_pieces(&e);
    void **pieces = calloc((size_t)np, sizeof(*pieces));
    assert_non_null(pieces);
    for (int k = 0; k < np; k++) {
        pieces[k] = calloc(1, trn_eig_tile_piece_bytes(&e, k));
        assert_non_null(pieces[k]);
        trn_eig_tile_set_piece(&e, pieces[0], k, pieces[k]);
    }
    for (int s = 0; s < 3; s++) {
        const trn_solver_dense_desc d = trn_eig_tile_step(&e, s, pieces[0]);
        const int tasks = (int)trn_tile_tasks(&d), shards = tasks < S ? tasks : S;
        for (int k = 0; k < shards; k++)
            assert_int_equal(trn_cpu_solver_dense(&d, NULL, back ? shards - 1 - k : k, shards),
                             TRN_KSTATUS_OK);
    }
    for (int k = 0; k < np; k++)
        free(pieces[k]);
    free(pieces);
    return c;
}

/* LAPACK's syevd/heevd eigenvalues of a. */
static void lapack_w(trn_dtype t, int n, int lower, const void *a, void *w) {
    const int lda = n + 3;
    const size_t bytes = (size_t)lda * n * trn_dtype_size(t);
    void *c = malloc(bytes);
    assert_non_null(c);
    memcpy(c, a, bytes);
    const char u = lower ? 'L' : 'U';
    lapack_int rc;
    switch (t) {
    case TRN_DTYPE_R32F: rc = LAPACKE_ssyevd(LAPACK_COL_MAJOR, 'N', u, n, c, lda, w); break;
    case TRN_DTYPE_R64F: rc = LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', u, n, c, lda, w); break;
    case TRN_DTYPE_C32F: rc = LAPACKE_cheevd(LAPACK_COL_MAJOR, 'N', u, n, c, lda, w); break;
    default: rc = LAPACKE_zheevd(LAPACK_COL_MAJOR, 'N', u, n, c, lda, w); break;
    }
    assert_int_equal(rc, 0);
    free(c);
}

/* The checks against LAPACK and the scaled residuals (top of the file).
 * A and W are divided by ||A||_F first, so that the residual of a tiny A
 * (test_scaled) does not underflow when squared. */
static void check_result(trn_dtype t, int n, int lower, const void *a, const void *z, const void *w,
                         const void *wref) {
    const int lda = n + 3;
    const double eps = eps_of(t);
    double complex *ad = malloc((size_t)n * n * sizeof(*ad)),
                   *zd = malloc((size_t)n * n * sizeof(*zd)),
                   *r = malloc((size_t)n * n * sizeof(*r));
    assert_non_null(ad);
    assert_non_null(zd);
    assert_non_null(r);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            const int stored = lower ? i >= j : i <= j;
            const double complex v =
                stored ? elem(t, a, (size_t)j * lda + i) : conj(elem(t, a, (size_t)i * lda + j));
            ad[(size_t)j * n + i] = i == j ? creal(v) : v;
            zd[(size_t)j * n + i] = elem(t, z, (size_t)j * lda + i);
        }
    double amax = 0, an = 0;
    for (size_t k = 0; k < (size_t)n * n; k++)
        amax = fmax(amax, cabs(ad[k]));
    for (size_t k = 0; k < (size_t)n * n; k++) {
        ad[k] /= amax;
        an += creal(ad[k] * conj(ad[k]));
    }
    an = sqrt(an); /* ||A||_F / amax */
    for (int i = 0; i < n; i++) {
        const double got = real_at(t, w, i), want = real_at(t, wref, i);
        if (i > 0)
            assert_true(real_at(t, w, i - 1) <= got);
        if (!(fabs(got - want) / amax <= 2 * THRESH * n * eps * an))
            fail_msg("%s w[%d] = %.17g, LAPACK's %.17g (||A||_F %g)", lower ? "lower" : "upper", i,
                     got, want, an * amax);
    }
    /* R = A Z - Z W */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            r[(size_t)j * n + i] = -zd[(size_t)j * n + i] * (real_at(t, w, j) / amax);
    const double complex one = 1, zero = 0;
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, &one, ad, n, zd, n, &one, r, n);
    double rn = 0;
    for (size_t k = 0; k < (size_t)n * n; k++)
        rn += creal(r[k] * conj(r[k]));
    const double res = sqrt(rn) / (n * an * eps);
    cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, n, n, n, &one, zd, n, zd, n, &zero, r,
                n);
    double on = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            const double complex g = r[(size_t)j * n + i] - (i == j);
            on += creal(g * conj(g));
        }
    const double orth = sqrt(on) / (n * eps);
    print_message("    n=%d %s: residual %.3g, orthogonality %.3g (bound %g)\n", n,
                  lower ? "lower" : "upper", res, orth, THRESH);
    assert_true(res <= THRESH);
    assert_true(orth <= THRESH);
    free(ad);
    free(zd);
    free(r);
}

static void run_case(trn_dtype t, int n, int lower, int kind) {
    void *a = make_input(t, n, lower, kind);
    const size_t rs = single(t) ? 4 : 8, abytes = (size_t)(n + 3) * n * trn_dtype_size(t);
    void *wref = malloc((size_t)n * rs), *w[4], *z[4];
    assert_non_null(wref);
    lapack_w(t, n, lower, a, wref);
    const int shards[4] = {1, 2, 3, 3};
    for (int k = 0; k < 4; k++) {
        int32_t info = 99;
        w[k] = malloc((size_t)n * rs);
        assert_non_null(w[k]);
        z[k] = run_tiled(t, n, lower, a, w[k], shards[k], k == 3, &info);
        assert_int_equal(info, 0);
        if (k > 0) {
            assert_memory_equal(w[k], w[0], (size_t)n * rs);
            assert_memory_equal(z[k], z[0], abytes);
        }
    }
    check_result(t, n, lower, a, z[0], w[0], wref);
    for (int k = 0; k < 4; k++) {
        free(w[k]);
        free(z[k]);
    }
    free(wref);
    free(a);
}

static void test_types(void **state) {
    (void)state;
    const trn_dtype ts[4] = {TRN_DTYPE_R32F, TRN_DTYPE_R64F, TRN_DTYPE_C32F, TRN_DTYPE_C64F};
    for (int k = 0; k < 4; k++)
        for (int lower = 0; lower <= 1; lower++)
            if ((k + lower) % 2 == 0 || ts[k] == TRN_DTYPE_R64F)
                run_case(ts[k], 1030, lower, 0);
}

static void test_clustered(void **state) {
    (void)state;
    run_case(TRN_DTYPE_R64F, 1100, 1, 1);
    run_case(TRN_DTYPE_C64F, 1030, 0, 1);
}

/* A tiny matrix (largest entry 1e-150, below dsyevd's rmin): eigenvalues
 * against LAPACK's relative to ||A||, vectors as usual. */
static void test_scaled(void **state) {
    (void)state;
    const int n = 1024, lda = n + 3;
    double *a = make_input(TRN_DTYPE_R64F, n, 1, 0);
    for (size_t k = 0; k < (size_t)lda * n; k++)
        a[k] *= 1e-150;
    double *wref = malloc((size_t)n * sizeof(double)), *w = malloc((size_t)n * sizeof(double));
    assert_non_null(wref);
    assert_non_null(w);
    lapack_w(TRN_DTYPE_R64F, n, 1, a, wref);
    int32_t info = 99;
    void *z = run_tiled(TRN_DTYPE_R64F, n, 1, a, w, 2, 0, &info);
    assert_int_equal(info, 0);
    check_result(TRN_DTYPE_R64F, n, 1, a, z, w, wref);
    free(z);
    free(w);
    free(wref);
    free(a);
}

/* A NaN in the referenced triangle: info -4, A and W untouched. */
static void test_nonfinite(void **state) {
    (void)state;
    const int n = 1024, lda = n + 3;
    for (int lower = 0; lower <= 1; lower++) {
        double *a = make_input(TRN_DTYPE_R64F, n, lower, 0);
        a[(size_t)700 * lda + 300 + (lower ? 400 : 0)] = NAN;
        double *w = malloc((size_t)n * sizeof(double));
        assert_non_null(w);
        for (int i = 0; i < n; i++)
            w[i] = 5.0;
        int32_t info = 0;
        double *z = run_tiled(TRN_DTYPE_R64F, n, lower, a, w, 2, 0, &info);
        assert_int_equal(info, -4);
        for (int i = 0; i < n; i++)
            assert_true(w[i] == 5.0);
        for (size_t k = 0; k < (size_t)lda * n; k++)
            assert_true(memcmp(&z[k], &a[k], sizeof(double)) == 0);
        free(z);
        free(w);
        free(a);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_graph),     cmocka_unit_test(test_types),
        cmocka_unit_test(test_clustered), cmocka_unit_test(test_scaled),
        cmocka_unit_test(test_nonfinite),
    };
    return cmocka_run_group_tests_name("tiled syevd", tests, NULL, NULL);
}
