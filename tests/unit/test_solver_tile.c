/*
 * test_solver_tile.c — the tiled Cholesky's task graph (ops/solver_tile.h)
 * and its CPU kernel, without a daemon:
 *  - which shapes are tiled (4 tiles of 256 and up), the step count 3T - 2,
 *    and each step's tasks: DIAG one, PANEL the tiles below the diagonal
 *    tile, UPDATE every tile k < j <= i < T exactly once;
 *  - a step's tasks shared among 1 to 7 shards: the runs are contiguous,
 *    cover every task exactly once, and the scheduler gives a step as many
 *    shards as it has tasks, up to the workers;
 *  - the whole factorisation run step by step with every step cut into 1,
 *    2, 3 and 5 shards (each shard called in turn, forwards and backwards)
 *    gives bitwise the same factor, in S, D, C and Z, lower and upper, and
 *    the same factor as LAPACK's potrf to within the rounding of a
 *    different summation order (|L - L_lapack| <= c n u |L| |L^H|-scaled,
 *    here 8 n u max|A|, ample for a matrix of condition number < 3).
 */
#include <cblas.h>
#include <complex.h>
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

#include "tests/common/checked_routines.h"

#include "kernels/cpu/cpu_kernels.h"
#include "ops/solver_tile.h"
#include "scheduler/sched.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static double uniform(void) { /* [-1, 1) */
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (double)((rng * 2685821657736338717ULL) >> 11) * 0x1p-52 - 1.0;
}

static trn_solver_dense_desc whole(int n, trn_dtype t, int lower, void *a, int lda, int32_t *info) {
    return (trn_solver_dense_desc){.fn = TRN_SOLVER_POTRF,
                                   .type = t,
                                   .lower = lower,
                                   .n = n,
                                   .a = a,
                                   .lda = lda,
                                   .info = info,
                                   .tile_nb = trn_tile_potrf_nb(n, t)};
}

static void test_graph(void **state) {
    (void)state;
    assert_int_equal(trn_tile_potrf_nb(768, TRN_DTYPE_R64F), 0);
    assert_int_equal(trn_tile_potrf_nb(769, TRN_DTYPE_R64F), 256);
    assert_int_equal(trn_tile_potrf_nb(100000, TRN_DTYPE_C64F), 256);
    for (int n = 769; n <= 3000; n += 331) {
        const trn_solver_dense_desc w = whole(n, TRN_DTYPE_R64F, 1, NULL, n, NULL);
        const int T = trn_tile_count(n, 256), steps = trn_tile_potrf_steps(&w);
        assert_int_equal(steps, 3 * T - 2);
        double flops = 0;
        for (int s = 0; s < steps; s++) {
            const trn_solver_dense_desc d = trn_tile_potrf_step(&w, s);
            assert_int_equal(d.tile_k, s / 3);
            const size_t n_tasks = trn_tile_tasks(&d);
            /* Every tile of the step exactly once. */
            char *seen = calloc((size_t)T * T, 1);
            assert_non_null(seen);
            for (size_t t = 0; t < n_tasks; t++) {
                int i, j;
                trn_tile_task(&d, t, &i, &j);
                assert_true(j <= i && i < T);
                if (d.fn == TRN_SOLVER_TILE_DIAG)
                    assert_true(i == d.tile_k && j == d.tile_k);
                else if (d.fn == TRN_SOLVER_TILE_PANEL)
                    assert_true(j == d.tile_k && i > d.tile_k);
                else
                    assert_true(j > d.tile_k);
                assert_int_equal(seen[i * T + j]++, 0);
            }
            if (d.fn == TRN_SOLVER_TILE_UPDATE) {
                const size_t r = (size_t)(T - 1 - d.tile_k);
                assert_int_equal(n_tasks, r * (r + 1) / 2);
            }
            free(seen);
            /* Runs of 1 .. 7 shards: contiguous, covering, disjoint. */
            for (int S = 1; S <= 7; S++) {
                size_t next = 0;
                for (int sh = 0; sh < S; sh++) {
                    size_t lo, hi;
                    trn_tile_shard_tasks(&d, sh, S, &lo, &hi);
                    assert_int_equal(lo, next);
                    assert_true(hi >= lo);
                    next = hi;
                }
                assert_int_equal(next, n_tasks);
            }
            /* The scheduler: one shard a task, up to the workers. */
            const trn_op_desc op = {.kind = TRN_OP_SOLVER_DENSE, .u.solver_dense = d};
            const int want3 = n_tasks < 3 ? (int)n_tasks : 3;
            assert_int_equal(trn_sched_shard_count(&op, 3), want3 ? want3 : 1);
            assert_int_equal(trn_sched_shard_count(&op, 1), 1);
            flops += trn_tile_step_flops(&d);
        }
        /* The steps' flops add up to potrf's n^3/3 + lower-order terms. */
        const double n3 = (double)n * n * n / 3.0;
        assert_true(flops > 0.99 * n3 && flops < 1.0 * n3 + 2.0 * (double)n * n * 256);
    }
}

/* Element i of a (S/D/C/Z) as a double complex. */
static double complex elem(trn_dtype t, const void *a, size_t i) {
    switch (t) {
    case TRN_DTYPE_R32F: return ((const float *)a)[i];
    case TRN_DTYPE_R64F: return ((const double *)a)[i];
    case TRN_DTYPE_C32F: return ((const float complex *)a)[i];
    default: return ((const double complex *)a)[i];
    }
}

static void set_elem(trn_dtype t, void *a, size_t i, double complex v) {
    switch (t) {
    case TRN_DTYPE_R32F: ((float *)a)[i] = (float)creal(v); break;
    case TRN_DTYPE_R64F: ((double *)a)[i] = creal(v); break;
    case TRN_DTYPE_C32F: ((float complex *)a)[i] = (float complex)v; break;
    default: ((double complex *)a)[i] = v; break;
    }
}

/* Runs the tiled factorisation of a (a copy is factored and returned)
 * with every step cut into S shards, called in order or backwards. */
static void *factor(trn_dtype t, int n, int lda, int lower, const void *a, int S, int backwards) {
    const size_t bytes = (size_t)lda * n * trn_dtype_size(t);
    void *m = malloc(bytes);
    assert_non_null(m);
    memcpy(m, a, bytes);
    int32_t info = -1;
    const trn_solver_dense_desc w = whole(n, t, lower, m, lda, &info);
    for (int s = 0; s < trn_tile_potrf_steps(&w); s++) {
        const trn_solver_dense_desc d = trn_tile_potrf_step(&w, s);
        const int shards = d.fn == TRN_SOLVER_TILE_DIAG ? 1 : S;
        for (int k = 0; k < shards; k++)
            assert_int_equal(trn_cpu_solver_dense(&d, NULL, backwards ? shards - 1 - k : k, shards),
                             TRN_KSTATUS_OK);
    }
    assert_int_equal(info, 0);
    return m;
}

static void test_kernel(void **state) {
    (void)state;
    const trn_dtype types[] = {TRN_DTYPE_R32F, TRN_DTYPE_R64F, TRN_DTYPE_C32F, TRN_DTYPE_C64F};
    const int n = 1100, lda = n + 3; /* 5 tiles, the last 76 wide */
    for (int ti = 0; ti < 4; ti++)
        for (int lower = 0; lower < 2; lower++) {
            const trn_dtype t = types[ti];
            const int cx = t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F;
            const double u = t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F ? 0x1p-24 : 0x1p-53;
            void *a = calloc((size_t)lda * n, trn_dtype_size(t));
            assert_non_null(a);
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++) {
                    const int stored = lower ? i >= j : i <= j;
                    double complex v = 0;
                    if (i == j)
                        v = n;
                    else if (stored)
                        v = cx ? 0.7 * uniform() + 0.7 * I * uniform() : uniform();
                    set_elem(t, a, (size_t)j * lda + i, v);
                }
            void *one = factor(t, n, lda, lower, a, 1, 0);
            const int shard_counts[] = {2, 3, 5};
            for (int k = 0; k < 3; k++)
                for (int back = 0; back < 2; back++) {
                    void *m = factor(t, n, lda, lower, a, shard_counts[k], back);
                    assert_memory_equal(one, m, (size_t)lda * n * trn_dtype_size(t));
                    free(m);
                }
            /* LAPACK's blocked potrf on the same matrix. */
            void *ref = malloc((size_t)lda * n * trn_dtype_size(t));
            assert_non_null(ref);
            memcpy(ref, a, (size_t)lda * n * trn_dtype_size(t));
            const char uplo = lower ? 'L' : 'U';
            lapack_int info =
                t == TRN_DTYPE_R32F   ? LAPACKE_spotrf(LAPACK_COL_MAJOR, uplo, n, ref, lda)
                : t == TRN_DTYPE_R64F ? LAPACKE_dpotrf(LAPACK_COL_MAJOR, uplo, n, ref, lda)
                : t == TRN_DTYPE_C32F ? LAPACKE_cpotrf(LAPACK_COL_MAJOR, uplo, n, ref, lda)
                                      : LAPACKE_zpotrf(LAPACK_COL_MAJOR, uplo, n, ref, lda);
            assert_int_equal(info, 0);
            double worst = 0;
            for (int j = 0; j < n; j++)
                for (int i = lower ? j : 0; i < (lower ? n : j + 1); i++) {
                    const size_t at = (size_t)j * lda + i;
                    const double e = cabs(elem(t, one, at) - elem(t, ref, at));
                    worst = e > worst ? e : worst;
                }
            /* Both factors are backward stable for A, whose condition
             * number is below 3 (Gershgorin), so they agree to a few n u
             * times max|L| (= sqrt(n) here). */
            const double bound = 8.0 * n * u * sqrt((double)n);
            if (!(worst <= bound))
                fail_msg("type %d lower %d: |L - L_lapack| = %g > %g", (int)t, lower, worst, bound);
            free(ref);
            free(one);
            free(a);
        }
}

int main(void) {
    openblas_set_num_threads(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_graph),
        cmocka_unit_test(test_kernel),
    };
    return cmocka_run_group_tests(tests, trn_test_install_checked_routines, NULL);
}
