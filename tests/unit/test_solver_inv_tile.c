/*
 * test_solver_inv_tile.c — the tiled potri's task graph
 * (ops/solver_inv_tile.h) and its CPU kernel, without a daemon:
 *  - which orders are tiled (4 tiles of 256 and up, as potrf), the step
 *    count 3 T + 2, and each step writing exactly the tiles the algorithm
 *    names, each once; the shard runs of 1 .. 7 shards cover the tasks;
 *  - the whole inverse run step by step with every step cut into 1, 2, 3
 *    and 5 shards (called in turn, forwards and backwards) and with 3
 *    threads claiming tasks: bitwise one result, in S, D, C and Z, lower
 *    and upper, the other triangle untouched;
 *  - that result against LAPACK's potri from the same factor: A is
 *    Hermitian with diagonal n and off-diagonal entries of size <= 1 (<= 1
 *    in complex), so kappa(A) < 3 (Gershgorin) and both inverses are within
 *    c n u kappa |X| of the exact one (Higham, "Accuracy and Stability",
 *    14.3: the triangular inverse and the product W^H W are each
 *    componentwise stable); the test allows 8 n u kappa max|X| with
 *    kappa = 3, where a missing or doubled tile update is off by about
 *    max|X| itself;
 *  - an exactly zero diagonal element: LAPACK's info (its index), A
 *    bitwise unchanged, on any shard count.
 */
#include <cblas.h>
#include <complex.h>
#include <lapacke.h>
#include <math.h>
#include <pthread.h>
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

#include "tests/common/checked_routines.h"
#define TILE_TEST_SEED 0x2545f4914f6cdd1dULL
#include "tests/common/tile_test.h"

#include "kernels/cpu/cpu_kernels.h"
#include "ops/solver_inv_tile.h"
#include "ops/solver_tile.h"

static trn_solver_dense_desc whole(int n, trn_dtype t, int lower, void *a, int lda, int32_t *info) {
    trn_solver_dense_desc d = {.fn = TRN_SOLVER_POTRI,
                               .type = t,
                               .lower = lower,
                               .n = n,
                               .a = a,
                               .lda = lda,
                               .info = info};
    d.tile_nb = trn_tile_nb(&d);
    return d;
}

/* Whether step d writes tile (i, j) (i >= j), as ops/solver_inv_tile.h
 * names the algorithm. */
static int writes(const trn_solver_dense_desc *d, int T, int i, int j) {
    const int k = d->tile_k;
    switch (d->fn) {
    case TRN_SOLVER_TILE_INV_CHECK: return 0; /* info only */
    case TRN_SOLVER_TILE_INV_DIAG: return i == j;
    case TRN_SOLVER_TILE_INV_TRTRI:
        return (i == k - 1 && j < k - 1) ||   /* (c)_{k-1} */
               (j == k + 1 && i > k + 1) ||   /* (a)_{k+1} */
               (k == 0 && j == 0 && i > 0) || /* (a)_0 */
               (i > k && j < k);              /* (b)_k */
    case TRN_SOLVER_TILE_INV_LAUUM: return i < k && j <= i;
    case TRN_SOLVER_TILE_INV_ROW: return i == k && j < k;
    case TRN_SOLVER_TILE_INV_LAST: return i == T - 1 && j == T - 1;
    default: return 0;
    }
}

/* The steps of the tiled potri of order n: 3 T + 2 of them in the documented
 * order, each writing exactly its tiles once; shard runs cover the tasks. */
static void check_graph(int n) {
    int32_t info = 0;
    const trn_solver_dense_desc w = whole(n, TRN_DTYPE_R64F, 1, NULL, n, &info);
    const int T = trn_tile_count(n, 256);
    assert_int_equal(w.tile_nb, 256);
    assert_int_equal(trn_tile_steps(&w), 3 * T + 2);
    int *seen = calloc((size_t)T * T, sizeof(int));
    assert_non_null(seen);
    double flops = 0;
    for (int s = 0; s < trn_tile_steps(&w); s++) {
        const trn_solver_dense_desc d = trn_tile_step(&w, s);
        assert_true(trn_tile_fn(d.fn) && trn_inv_tile_fn(d.fn));
        memset(seen, 0, (size_t)T * T * sizeof(int));
        const size_t tasks = trn_tile_tasks(&d);
        assert_true(tasks > 0);
        for (size_t t = 0; t < tasks; t++) {
            const trn_tile_span sp = trn_tile_task_span(&d, t);
            assert_true(sp.ni >= 1 && sp.nj >= 1 && sp.i >= 0 && sp.j >= 0);
            assert_true(sp.i + sp.ni <= T && sp.j + sp.nj <= T);
            assert_true(sp.ni <= trn_tile_group(&d) && sp.nj <= trn_tile_group_cols(&d));
            for (int r = sp.i; r < sp.i + sp.ni; r++)
                for (int c = sp.j; c < sp.j + sp.nj; c++)
                    if (r >= c && d.fn != TRN_SOLVER_TILE_INV_CHECK) /* the check writes no tile */
                        seen[r * T + c]++;
        }
        for (int r = 0; r < T; r++)
            for (int c = 0; c <= r; c++)
                if (seen[r * T + c] != writes(&d, T, r, c))
                    fail_msg("n %d step %d (fn %d k %d): tile (%d, %d) written %d times", n, s,
                             (int)d.fn, d.tile_k, r, c, seen[r * T + c]);
        check_shard_runs(&d, tasks);
        flops += trn_tile_step_flops(&d);
    }
    /* trtri and lauum are n^3 / 3 each; the diagonal tiles' full-tile
     * solves and multiplies add up to 2 n nb^2 more. */
    const double want = 2.0 * n * (double)n * n / 3.0;
    assert_true(flops >= 0.9 * want && flops <= want + 2.0 * n * 256.0 * 256.0 + 0.1 * want);
    free(seen);
}

static void test_graph(void **state) {
    (void)state;
    int32_t info = 0;
    trn_solver_dense_desc small = whole(768, TRN_DTYPE_R64F, 1, NULL, 768, &info);
    assert_int_equal(small.tile_nb, 0); /* 3 tiles: one core */
    check_graph(769);                   /* 4 tiles, the last one 1 wide */
    check_graph(1024);
    check_graph(2600); /* groups of several tiles */
    check_graph(4100);
}

/* The tiled potri of the factor f (copied; returned) with S shards, or
 * claimed by 3 threads (S = 0). */
static void *invert(trn_dtype t, int n, int lda, int lower, const void *f, int S, int backwards,
                    int32_t *info) {
    const size_t bytes = (size_t)lda * n * trn_dtype_size(t);
    void *m = malloc(bytes);
    assert_non_null(m);
    memcpy(m, f, bytes);
    *info = -1;
    const trn_solver_dense_desc w = whole(n, t, lower, m, lda, info);
    if (S)
        run_steps(&w, S, backwards);
    else
        run_claimed(&w, 3);
    return m;
}

static lapack_int lapack(trn_dtype t, int potri, char uplo, int n, void *a, int lda) {
    if (potri)
        return t == TRN_DTYPE_R32F   ? LAPACKE_spotri(LAPACK_COL_MAJOR, uplo, n, a, lda)
               : t == TRN_DTYPE_R64F ? LAPACKE_dpotri(LAPACK_COL_MAJOR, uplo, n, a, lda)
               : t == TRN_DTYPE_C32F ? LAPACKE_cpotri(LAPACK_COL_MAJOR, uplo, n, a, lda)
                                     : LAPACKE_zpotri(LAPACK_COL_MAJOR, uplo, n, a, lda);
    return t == TRN_DTYPE_R32F   ? LAPACKE_spotrf(LAPACK_COL_MAJOR, uplo, n, a, lda)
           : t == TRN_DTYPE_R64F ? LAPACKE_dpotrf(LAPACK_COL_MAJOR, uplo, n, a, lda)
           : t == TRN_DTYPE_C32F ? LAPACKE_cpotrf(LAPACK_COL_MAJOR, uplo, n, a, lda)
                                 : LAPACKE_zpotrf(LAPACK_COL_MAJOR, uplo, n, a, lda);
}

/* A Hermitian matrix, diagonal n, its uplo triangle stored, the other
 * filled with a marker; factored by LAPACK's potrf. */
static void *factor_of(trn_dtype t, int n, int lda, int lower) {
    const int cx = t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F;
    void *a = malloc((size_t)lda * n * trn_dtype_size(t));
    assert_non_null(a);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < lda; i++) {
            const int stored = lower ? i >= j : i <= j;
            double complex v = 7.0; /* the marker */
            if (i == j)
                v = n;
            else if (stored && i < n)
                v = cx ? 0.7 * uniform() + 0.7 * I * uniform() : uniform();
            set_elem(t, a, (size_t)j * lda + i, v);
        }
    assert_int_equal(lapack(t, 0, lower ? 'L' : 'U', n, a, lda), 0);
    return a;
}

static void check_inverse(trn_dtype t, int n, int lower) {
    const int lda = n + 3;
    const size_t bytes = (size_t)lda * n * trn_dtype_size(t);
    const double u = t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F ? 0x1p-24 : 0x1p-53;
    void *f = factor_of(t, n, lda, lower);
    int32_t info;
    void *one = invert(t, n, lda, lower, f, 1, 0, &info);
    assert_int_equal(info, 0);
    const int shard_counts[] = {2, 3, 5};
    for (int k = 0; k < 3; k++)
        for (int back = 0; back < 2; back++) {
            void *m = invert(t, n, lda, lower, f, shard_counts[k], back, &info);
            assert_int_equal(info, 0);
            assert_memory_equal(one, m, bytes);
            free(m);
        }
    void *claimed = invert(t, n, lda, lower, f, 0, 0, &info);
    assert_int_equal(info, 0);
    assert_memory_equal(one, claimed, bytes);
    free(claimed);
    void *ref = malloc(bytes);
    assert_non_null(ref);
    memcpy(ref, f, bytes);
    assert_int_equal(lapack(t, 1, lower ? 'L' : 'U', n, ref, lda), 0);
    double worst = 0, xmax = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < lda; i++) {
            const size_t at = (size_t)j * lda + i;
            const int stored = (lower ? i >= j : i <= j) && i < n;
            if (!stored) { /* the other triangle and the rows past n: as given */
                assert_true(elem(t, one, at) == elem(t, f, at));
                continue;
            }
            const double e = cabs(elem(t, one, at) - elem(t, ref, at));
            const double x = cabs(elem(t, ref, at));
            worst = e > worst ? e : worst;
            xmax = x > xmax ? x : xmax;
        }
    const double bound = 8.0 * n * u * 3.0 * xmax;
    if (!(worst <= bound))
        fail_msg("type %d n %d lower %d: |X - X_lapack| = %g > %g", (int)t, n, lower, worst, bound);
    free(ref);
    free(one);
    free(f);
}

static void test_kernel(void **state) {
    (void)state;
    const trn_dtype types[] = {TRN_DTYPE_R32F, TRN_DTYPE_R64F, TRN_DTYPE_C32F, TRN_DTYPE_C64F};
    for (int ti = 0; ti < 4; ti++)
        for (int lower = 0; lower < 2; lower++)
            check_inverse(types[ti], 769, lower); /* the last tile 1 wide */
    check_inverse(TRN_DTYPE_R64F, 1100, 1);       /* 5 tiles, the last 76 wide */
    check_inverse(TRN_DTYPE_R64F, 1100, 0);
}

/* A zero on the factor's diagonal: info is its index and A stays as it
 * was, on 1 and 3 shards, wherever the zero is. */
static void test_singular(void **state) {
    (void)state;
    const int n = 900, lda = n;
    const size_t bytes = (size_t)lda * n * sizeof(double);
    const int where[] = {0, 600, n - 1};
    for (int w = 0; w < 3; w++)
        for (int lower = 0; lower < 2; lower++) {
            double *f = factor_of(TRN_DTYPE_R64F, n, lda, lower);
            f[(size_t)where[w] * lda + where[w]] = -0.0;
            for (int S = 1; S <= 3; S += 2) {
                int32_t info;
                void *m = invert(TRN_DTYPE_R64F, n, lda, lower, f, S, 0, &info);
                assert_int_equal(info, where[w] + 1);
                assert_memory_equal(m, f, bytes);
                free(m);
            }
            free(f);
        }
}

/* An infinite diagonal element is not a zero pivot (LAPACK's info 0): its
 * inverse, 0, written by one task of the diagonal step, must not be taken
 * for one by another (the zero scan is a step of its own, before any tile
 * changes). info 0 and the same bits on 1 and 3 shards and 3 claiming
 * threads, every run. */
static void test_infinite_pivot(void **state) {
    (void)state;
    const int n = 1100, lda = n;
    const size_t bytes = (size_t)lda * n * sizeof(double);
    double *f = factor_of(TRN_DTYPE_R64F, n, lda, 1);
    f[(size_t)700 * lda + 700] = INFINITY; /* in the third tile */
    int32_t info;
    void *one = invert(TRN_DTYPE_R64F, n, lda, 1, f, 1, 0, &info);
    assert_int_equal(info, 0);
    for (int rep = 0; rep < 4; rep++) {
        void *m = invert(TRN_DTYPE_R64F, n, lda, 1, f, rep % 2 ? 3 : 0, 0, &info);
        assert_int_equal(info, 0);
        assert_memory_equal(one, m, bytes);
        free(m);
    }
    free(one);
    free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_graph),
        cmocka_unit_test(test_kernel),
        cmocka_unit_test(test_singular),
        cmocka_unit_test(test_infinite_pivot),
    };
    return cmocka_run_group_tests(tests, trn_test_install_checked_routines, NULL);
}
