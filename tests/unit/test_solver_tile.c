/*
 * test_solver_tile.c — the tiled Cholesky's task graph (ops/solver_tile.h)
 * and its CPU kernel, without a daemon:
 *  - which shapes are tiled (4 tiles of 256 and up), the step count 3T - 2,
 *    and each step's tasks: DIAG one, PANEL the tiles below the diagonal
 *    tile, UPDATE every tile k < j <= i < T exactly once;
 *  - a step's tasks shared among 1 to 7 shards: the runs are contiguous,
 *    cover every task exactly once, and the scheduler gives a step as many
 *    shards as it has tasks, up to the workers;
 *  - LU with partial pivoting likewise (square, tall and wide): factors,
 *    pivots and info bitwise alike for 1, 2, 3 and 5 shards, the backward
 *    error of P A = L U within Higham's Thm 9.3 bound along random vectors,
 *    |L| <= 1 (sqrt 2 for complex), and an exactly zero column giving
 *    LAPACK's info;
 *  - QR (geqrf) likewise: factors and tau bitwise alike for 1, 2, 3 and 5
 *    shards, and LAPACK's geqrf's (the same reflectors) to within the
 *    rounding of another blocking;
 *  - the whole Cholesky run step by step with every step cut into 1,
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
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "tests/common/checked_routines.h"
#include "tests/common/tile_test.h"

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/solver_lapack.h"
#include "ops/solver_tile.h"
#include "scheduler/sched.h"

static trn_solver_dense_desc whole(int n, trn_dtype t, int lower, void *a, int lda, int32_t *info) {
    trn_solver_dense_desc d = {.fn = TRN_SOLVER_POTRF,
                               .type = t,
                               .lower = lower,
                               .n = n,
                               .a = a,
                               .lda = lda,
                               .info = info};
    d.tile_nb = trn_tile_nb(&d);
    return d;
}

static trn_solver_dense_desc whole_lu(int m, int n, trn_dtype t, void *a, int lda, int32_t *ipiv,
                                      int32_t *info) {
    trn_solver_dense_desc d = {.fn = TRN_SOLVER_GETRF,
                               .type = t,
                               .m = m,
                               .n = n,
                               .a = a,
                               .lda = lda,
                               .ipiv = ipiv,
                               .info = info};
    d.tile_nb = trn_tile_nb(&d);
    return d;
}

/* The steps of w: each step's tasks name distinct tiles of the right
 * region, the shard runs of 1 .. 7 shards cover them, the scheduler gives
 * a step one shard a task up to the workers. Returns the flops of all steps. */
static double check_steps(const trn_solver_dense_desc *w) {
    const int lu = w->fn == TRN_SOLVER_GETRF || w->fn == TRN_SOLVER_GEQRF;
    const int Tr = trn_tile_count(lu ? w->m : w->n, 256), Tc = trn_tile_count(w->n, 256);
    double flops = 0;
    for (int s = 0; s < trn_tile_steps(w); s++) {
        const trn_solver_dense_desc d = trn_tile_step(w, s);
        const int k = d.tile_k;
        const size_t n_tasks = trn_tile_tasks(&d);
        assert_true(n_tasks > 0);
        char *seen = calloc((size_t)Tr * Tc, 1);
        assert_non_null(seen);
        const int gr = trn_tile_group(&d), gc = trn_tile_group_cols(&d);
        assert_true(gr >= 1 && gr <= TRN_TILE_GROUP && gc >= 1 && gc <= TRN_TILE_GROUP_COLS);
        assert_true(gr * gc <= TRN_TILE_GROUP_AREA);
        for (size_t t = 0; t < n_tasks; t++) {
            const trn_tile_span sp = trn_tile_task_span(&d, t);
            const int i = sp.i, j = sp.j, ni = sp.ni, nj = sp.nj;
            assert_true(i >= 0 && i + ni <= (d.fn == TRN_SOLVER_TILE_LU_UPDATE ? Tr : Tc) &&
                        j >= 0 && j + nj <= Tc && ni >= 1 && nj >= 1);
            /* Groups of up to the step's group shape; LU's look-ahead task
             * is all of block column k + 1. */
            const int lead =
                (d.fn == TRN_SOLVER_TILE_LU_UPDATE || d.fn == TRN_SOLVER_TILE_UPDATE) && t == 0 &&
                trn_tile_carries_next_panel(&d);
            if (lead)
                assert_true(j == k + 1 && i == k + 1 && i + ni == Tr && nj == 1);
            else
                assert_true(ni <= gr && nj <= gc);
            switch (d.fn) {
            case TRN_SOLVER_TILE_DIAG:
            case TRN_SOLVER_TILE_LU_PANEL: assert_true(i == k && j == k); break;
            case TRN_SOLVER_TILE_PANEL: assert_true(j == k && i > k && nj == 1); break;
            case TRN_SOLVER_TILE_UPDATE: assert_true(j > k && i >= j); break;
            case TRN_SOLVER_TILE_LU_ROW: /* block columns right of k; the tail, j = k, last */
                assert_true(i == k && ni == 1 && nj == 1 && (j > k || t + 1 == n_tasks));
                break;
            case TRN_SOLVER_TILE_LU_LEFT: /* the last step: block columns left of the last panel */
                assert_true(i == j && ni == 1 && nj == 1 && j < k && s + 1 == trn_tile_steps(w));
                break;
            case TRN_SOLVER_TILE_LU_UPDATE: assert_true(i > k && j > k); break;
            case TRN_SOLVER_TILE_QR_PANEL: assert_true(i == k && j == k && t == 0); break;
            case TRN_SOLVER_TILE_QR_UPDATE: /* block columns right of k; the tail, j = k */
                assert_true(i == k && ni == 1 && (j > k || (nj == 1 && t + 1 == n_tasks)));
                if (t == 0 && trn_tile_carries_next_panel(&d))
                    assert_true(j == k + 1 && nj == 1);
                break;
            default: fail_msg("step %d: fn %d", s, (int)d.fn);
            }
            for (int c = j; c < j + nj; c++)
                for (int r = i; r < i + ni; r++)
                    if (d.fn != TRN_SOLVER_TILE_UPDATE || r >= c)
                        assert_int_equal(seen[r * Tc + c]++, 0);
            if (d.fn == TRN_SOLVER_TILE_QR_UPDATE && j == k && k + 1 < Tc)
                assert_true(trn_tile_tasks(&d) == t + 1); /* the tail is last */
            if (d.fn == TRN_SOLVER_TILE_QR_UPDATE || d.fn == TRN_SOLVER_TILE_QR_PANEL)
                continue; /* its columns: below */
            /* Largest first: the last task of a grouped update is one tile. */
            if ((d.fn == TRN_SOLVER_TILE_UPDATE || d.fn == TRN_SOLVER_TILE_LU_UPDATE) &&
                t + 1 == n_tasks && !lead)
                assert_true(ni == 1 && nj == 1);
        }
        /* Every tile of the step's region is some task's, once. */
        size_t tiles = 0;
        for (int q = 0; q < Tr * Tc; q++)
            tiles += (size_t)seen[q];
        if (d.fn == TRN_SOLVER_TILE_PANEL)
            assert_int_equal(tiles, (size_t)(Tc - 1 - k));
        if (d.fn == TRN_SOLVER_TILE_UPDATE)
            assert_int_equal(tiles, (size_t)(Tc - 1 - k) * (size_t)(Tc - k) / 2);
        if (d.fn == TRN_SOLVER_TILE_LU_UPDATE)
            assert_int_equal(tiles, (size_t)(Tr - 1 - k) * (size_t)(Tc - 1 - k));
        if (d.fn == TRN_SOLVER_TILE_LU_LEFT) /* every block column left of the last panel */
            assert_int_equal(tiles, (size_t)k);
        if (d.fn == TRN_SOLVER_TILE_QR_UPDATE) /* every block column right of k (and k's tail) */
            assert_true(tiles == (size_t)(Tc - 1 - k) || tiles == (size_t)(Tc - k));
        /* Grouping leaves a step at least TRN_TILE_MIN_TASKS tasks (or one a
         * tile) besides the look-ahead column, one task. */
        if (d.fn == TRN_SOLVER_TILE_PANEL || d.fn == TRN_SOLVER_TILE_UPDATE) {
            const int lead = d.fn == TRN_SOLVER_TILE_UPDATE && trn_tile_carries_next_panel(&d);
            const size_t rest = tiles - (lead ? (size_t)(Tc - 1 - k) : 0);
            assert_true(n_tasks - (size_t)lead >=
                        (rest < TRN_TILE_MIN_TASKS ? rest : TRN_TILE_MIN_TASKS));
        }
        /* Panels past the first are factored by the update step before. */
        if (d.fn == TRN_SOLVER_TILE_DIAG || d.fn == TRN_SOLVER_TILE_PANEL ||
            d.fn == TRN_SOLVER_TILE_LU_PANEL || d.fn == TRN_SOLVER_TILE_QR_PANEL)
            assert_int_equal(k, 0);
        free(seen);
        check_shard_runs(&d, n_tasks);
        const trn_op_desc op = {.kind = TRN_OP_SOLVER_DENSE, .u.solver_dense = d};
        assert_int_equal(trn_sched_shard_count(&op, 3), n_tasks < 3 ? (int)n_tasks : 3);
        assert_int_equal(trn_sched_shard_count(&op, 1), 1);
        flops += trn_tile_step_flops(&d);
    }
    return flops;
}

static void test_graph(void **state) {
    (void)state;
    assert_int_equal(whole(768, TRN_DTYPE_R64F, 1, NULL, 768, NULL).tile_nb, 0);
    assert_int_equal(whole(769, TRN_DTYPE_R64F, 1, NULL, 769, NULL).tile_nb, 256);
    assert_int_equal(whole(100000, TRN_DTYPE_C64F, 0, NULL, 100000, NULL).tile_nb, 256);
    int32_t piv;
    assert_int_equal(whole_lu(5000, 768, TRN_DTYPE_R64F, NULL, 5000, &piv, NULL).tile_nb, 0);
    assert_int_equal(whole_lu(769, 5000, TRN_DTYPE_R64F, NULL, 769, &piv, NULL).tile_nb, 256);
    /* Without pivoting getrf stays one call. */
    assert_int_equal(whole_lu(5000, 5000, TRN_DTYPE_R64F, NULL, 5000, NULL, NULL).tile_nb, 0);
    const int chol_sizes[] = {769, 1100, 1431, 1762, 2093, 2424, 2755, 4100, 8192, 12345};
    for (size_t q = 0; q < sizeof(chol_sizes) / sizeof(chol_sizes[0]); q++) {
        const int n = chol_sizes[q];
        const trn_solver_dense_desc w = whole(n, TRN_DTYPE_R64F, 1, NULL, n, NULL);
        /* DIAG and PANEL of block column 0, then one update step a block
         * column but the last. */
        assert_int_equal(trn_tile_steps(&w), trn_tile_count(n, 256) + 1);
        /* The steps' flops add up to potrf's n^3/3 + lower-order terms. */
        const double flops = check_steps(&w), n3 = (double)n * n * n / 3.0;
        assert_true(flops > 0.99 * n3 && flops < n3 + 2.0 * (double)n * n * 256);
    }
    const int shapes[][2] = {{769, 769},   {1100, 1100}, {2000, 900},  {900, 2000},
                             {1024, 1024}, {4100, 4100}, {8192, 8192}, {9000, 5000}};
    for (size_t q = 0; q < sizeof(shapes) / sizeof(shapes[0]); q++) {
        const int m = shapes[q][0], n = shapes[q][1], mn = m < n ? m : n;
        const trn_solver_dense_desc w = whole_lu(m, n, TRN_DTYPE_R64F, NULL, m, &piv, NULL);
        /* LU's flops: 2 (m n mn - (m + n) mn^2 / 2 + mn^3 / 3), up to
         * lower-order terms. */
        const double f = 2.0 * ((double)m * n * mn - (double)(m + n) * mn * mn / 2.0 +
                                (double)mn * mn * mn / 3.0);
        const double flops = check_steps(&w);
        assert_true(flops > 0.98 * f && flops < f + 4.0 * (double)m * n * 256);
        trn_solver_dense_desc qr = w;
        qr.fn = TRN_SOLVER_GEQRF;
        qr.ipiv = NULL;
        qr.tile_nb = trn_tile_nb(&qr);
        check_steps(&qr);
    }
}

/* max |x - y| over the m x n matrices x and y (leading dimension ld). */
static double max_abs_diff(trn_dtype t, const void *x, const void *y, int m, int n, int ld) {
    double worst = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            const size_t at = (size_t)j * ld + i;
            const double e = cabs(elem(t, x, at) - elem(t, y, at));
            worst = e > worst ? e : worst;
        }
    return worst;
}

/* Runs the tiled Cholesky of a (a copy is factored and returned) with
 * every step cut into S shards, called in order or backwards. */
static void *factor(trn_dtype t, int n, int lda, int lower, const void *a, int S, int backwards) {
    const size_t bytes = (size_t)lda * n * trn_dtype_size(t);
    void *m = malloc(bytes);
    assert_non_null(m);
    memcpy(m, a, bytes);
    int32_t info = -1;
    const trn_solver_dense_desc w = whole(n, t, lower, m, lda, &info);
    run_steps(&w, S, backwards);
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

/* The tiled LU of a (copied) with steps cut into S shards; the factors,
 * pivots and info come back in *fac, piv, *info. */
static void *lu(trn_dtype t, int m, int n, int lda, const void *a, int S, int back, int32_t *piv,
                int32_t *info) {
    const size_t bytes = (size_t)lda * n * trn_dtype_size(t);
    void *f = malloc(bytes);
    assert_non_null(f);
    memcpy(f, a, bytes);
    *info = -1;
    const trn_solver_dense_desc w = whole_lu(m, n, t, f, lda, piv, info);
    assert_int_equal(w.tile_nb, 256);
    run_steps(&w, S, back);
    return f;
}

/* Backward error of P A = L U along three random vectors, in long double:
 * |(P^T A) v - L (U v)| <= c gamma_mn |L| (|U| |v|) componentwise (Higham
 * Thm 9.3; c = 1 real, 2 complex with gamma_{mn+1}). Also |L_ij| <= 1. */
static void check_lu(trn_dtype t, int m, int n, int lda, const void *a, const void *f,
                     const int32_t *piv) {
    const int mn = m < n ? m : n;
    const int cx = t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F;
    const long double u = t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F ? 0x1p-24L : 0x1p-53L;
    const long double k = cx ? mn + 1 : mn, c = (cx ? 2.0L : 1.0L) * k * u / (1.0L - k * u);
    int *row = malloc((size_t)m * sizeof(int)); /* row r of P^T A is A's row row[r] */
    long double complex *v = malloc((size_t)n * sizeof(*v)), *w = malloc((size_t)mn * sizeof(*w));
    long double *av = malloc((size_t)n * sizeof(*av)), *aw = malloc((size_t)mn * sizeof(*aw));
    assert_true(row && v && w && av && aw);
    for (int r = 0; r < m; r++)
        row[r] = r;
    for (int r = 0; r < mn; r++) {
        assert_true(piv[r] >= r + 1 && piv[r] <= m);
        const int p = piv[r] - 1, x = row[r];
        row[r] = row[p];
        row[p] = x;
    }
    /* Complex pivots are chosen by |re| + |im| (LAPACK's icamax), which
     * bounds |L_ij| by sqrt(2) (one rounding of the division beyond). */
    const double lmax = (cx ? sqrt(2.0) : 1.0) * (1.0 + 4.0 * (double)u);
    for (int j = 0; j < mn; j++)
        for (int i = j + 1; i < m; i++)
            if (!(cabs(elem(t, f, (size_t)j * lda + i)) <= lmax))
                fail_msg("LU type %d: |L(%d, %d)| = %g > %g", (int)t, i, j,
                         cabs(elem(t, f, (size_t)j * lda + i)), lmax);
    for (int rep = 0; rep < 3; rep++) {
        for (int j = 0; j < n; j++) {
            v[j] = uniform();
            av[j] = fabsl(creall(v[j]));
        }
        for (int i = 0; i < mn; i++) { /* w = U v, aw = |U| |v| */
            long double complex x = 0;
            long double ax = 0;
            for (int j = i; j < n; j++) {
                const long double complex e = elem(t, f, (size_t)j * lda + i);
                x += e * v[j];
                ax += cabsl(e) * av[j];
            }
            w[i] = x;
            aw[i] = ax;
        }
        for (int i = 0; i < m; i++) {
            long double complex lw = 0, pav = 0;
            long double b = 0;
            for (int l = 0; l <= (i < mn - 1 ? i : mn - 1); l++) {
                const long double complex e = l == i ? 1.0L : elem(t, f, (size_t)l * lda + i);
                lw += e * w[l];
                b += cabsl(e) * aw[l];
            }
            for (int j = 0; j < n; j++)
                pav += elem(t, a, (size_t)j * lda + row[i]) * v[j];
            if (!(cabsl(pav - lw) <= c * b))
                fail_msg("LU type %d %dx%d row %d: |r| = %Lg > %Lg", (int)t, m, n, i,
                         cabsl(pav - lw), c * b);
        }
    }
    free(row);
    free(v);
    free(w);
    free(av);
    free(aw);
}

static void test_lu(void **state) {
    (void)state;
    const trn_dtype types[] = {TRN_DTYPE_R32F, TRN_DTYPE_R64F, TRN_DTYPE_C32F, TRN_DTYPE_C64F};
    const int shapes[][2] = {{1100, 1100}, {1500, 900}, {900, 1500}};
    for (int ti = 0; ti < 4; ti++)
        for (int q = 0; q < 3; q++) {
            const trn_dtype t = types[ti];
            const int m = shapes[q][0], n = shapes[q][1], lda = m + 2, mn = m < n ? m : n;
            const size_t bytes = (size_t)lda * n * trn_dtype_size(t);
            void *a = malloc(bytes);
            int32_t *piv1 = malloc((size_t)mn * sizeof(int32_t)),
                    *pivs = malloc((size_t)mn * sizeof(int32_t));
            assert_true(a && piv1 && pivs);
            const int cx = t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F;
            for (size_t e = 0; e < (size_t)lda * n; e++)
                set_elem(t, a, e, cx ? uniform() + I * uniform() : uniform());
            int32_t info1, infos;
            void *one = lu(t, m, n, lda, a, 1, 0, piv1, &info1);
            assert_int_equal(info1, 0);
            const int shard_counts[] = {2, 3, 5};
            for (int k = 0; k < 3; k++) {
                void *f = lu(t, m, n, lda, a, shard_counts[k], k == 1, pivs, &infos);
                assert_memory_equal(one, f, bytes);
                assert_memory_equal(piv1, pivs, (size_t)mn * sizeof(int32_t));
                assert_int_equal(infos, info1);
                free(f);
            }
            check_lu(t, m, n, lda, a, one, piv1);
            free(one);
            free(a);
            free(piv1);
            free(pivs);
        }
    /* An exactly zero column: info is its 1-based index, LAPACK's, and the
     * factorisation goes on. */
    const int n = 1100;
    double *a = malloc((size_t)n * n * sizeof(double));
    int32_t *piv = malloc((size_t)n * sizeof(int32_t));
    assert_true(a && piv);
    for (size_t e = 0; e < (size_t)n * n; e++)
        a[e] = uniform();
    memset(a + (size_t)600 * n, 0, (size_t)n * sizeof(double));
    for (int S = 1; S <= 3; S += 2) {
        int32_t info;
        free(lu(TRN_DTYPE_R64F, n, n, n, a, S, 0, piv, &info));
        assert_int_equal(info, 601);
    }
    free(a);
    free(piv);
}

/* QR: the tiled geqrf of a with steps cut into S shards (factors and tau
 * returned). */
static void *qr(trn_dtype t, int m, int n, int lda, const void *a, int S, int back, void *tau) {
    const size_t bytes = (size_t)lda * n * trn_dtype_size(t);
    void *f = malloc(bytes);
    assert_non_null(f);
    memcpy(f, a, bytes);
    int32_t info = -1;
    trn_solver_dense_desc w = {
        .fn = TRN_SOLVER_GEQRF, .type = t, .m = m, .n = n, .a = f, .lda = lda, .tau = tau};
    w.info = &info;
    w.tile_nb = trn_tile_nb(&w);
    assert_int_equal(w.tile_nb, 256);
    run_steps(&w, S, back);
    assert_int_equal(info, 0);
    return f;
}

/* geqrf tiled: factors and tau bitwise alike for 1, 2, 3 and 5 shards, and
 * equal to LAPACK's geqrf (the same Householder reflectors, computed with
 * another blocking) to within c m u max|A| elementwise (A has condition
 * number of a random matrix, ~1e2 here). */
static void test_qr(void **state) {
    (void)state;
    const trn_dtype types[] = {TRN_DTYPE_R32F, TRN_DTYPE_R64F, TRN_DTYPE_C32F, TRN_DTYPE_C64F};
    /* The last (D only): 17 block columns, the first updates in groups of
     * 2 block columns. */
    const int shapes[][2] = {{1100, 1100}, {1500, 900}, {900, 1500}, {1100, 4100}};
    for (int ti = 0; ti < 4; ti++)
        for (int q = 0; q < 4; q++) {
            const trn_dtype t = types[ti];
            if (q == 3 && t != TRN_DTYPE_R64F)
                continue;
            const int m = shapes[q][0], n = shapes[q][1], lda = m + 2, mn = m < n ? m : n;
            const int cx = t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F;
            const double u = t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F ? 0x1p-24 : 0x1p-53;
            const size_t es = trn_dtype_size(t), bytes = (size_t)lda * n * es;
            void *a = malloc(bytes), *tau1 = malloc((size_t)mn * es),
                 *taus = malloc((size_t)mn * es), *ref = malloc(bytes),
                 *rtau = malloc((size_t)mn * es);
            assert_true(a && tau1 && taus && ref && rtau);
            for (size_t e = 0; e < (size_t)lda * n; e++)
                set_elem(t, a, e, cx ? uniform() + I * uniform() : uniform());
            void *one = qr(t, m, n, lda, a, 1, 0, tau1);
            const int shard_counts[] = {2, 3, 5};
            for (int k = 0; k < 3; k++) {
                void *f = qr(t, m, n, lda, a, shard_counts[k], k == 2, taus);
                assert_memory_equal(one, f, bytes);
                assert_memory_equal(tau1, taus, (size_t)mn * es);
                free(f);
            }
            memcpy(ref, a, bytes);
            const lapack_int info =
                t == TRN_DTYPE_R32F   ? LAPACKE_sgeqrf(LAPACK_COL_MAJOR, m, n, ref, lda, rtau)
                : t == TRN_DTYPE_R64F ? LAPACKE_dgeqrf(LAPACK_COL_MAJOR, m, n, ref, lda, rtau)
                : t == TRN_DTYPE_C32F ? LAPACKE_cgeqrf(LAPACK_COL_MAJOR, m, n, ref, lda, rtau)
                                      : LAPACKE_zgeqrf(LAPACK_COL_MAJOR, m, n, ref, lda, rtau);
            assert_int_equal(info, 0);
            const double worst = max_abs_diff(t, one, ref, m, n, lda);
            double tworst = 0;
            for (int j = 0; j < mn; j++) {
                const double e = cabs(elem(t, tau1, (size_t)j) - elem(t, rtau, (size_t)j));
                tworst = e > tworst ? e : tworst;
            }
            /* R's entries are O(sqrt(m)), the reflectors' and tau O(1); both
             * computations are backward stable, and A's condition number
             * (random, ~1e2..1e3 for these shapes) amplifies the difference
             * of the reflectors of later columns. */
            const double bound = 1e3 * m * u * sqrt((double)m);
            if (!(worst <= bound && tworst <= bound))
                fail_msg("QR type %d %dx%d: |F - F_lapack| = %g, |tau - tau_lapack| = %g > %g",
                         (int)t, m, n, worst, tworst, bound);
            free(one);
            free(a);
            free(tau1);
            free(taus);
            free(ref);
            free(rtau);
        }
}

/* No task may write what another task of its step reads, even for a
 * moment: LAPACK's unblocked ormqr (orm2r, which ormqr calls when the panel
 * is at most its block size wide) sets each reflector's diagonal element to
 * 1 while it applies it, and a concurrent task reading the same panel then
 * restores the wrong value. So every QR update step here runs with its
 * panel's columns read-only (mprotect): a task writing there faults. A
 * wide QR's last panel (32 columns) takes the unblocked path. */
static void test_update_reads_panel_only(void **state) {
    (void)state;
    const long page = sysconf(_SC_PAGESIZE);
    const int m = 800, n = 1400, lda = 1024; /* a column is 8 KiB: whole pages */
    assert_true(((size_t)lda * sizeof(double)) % (size_t)page == 0);
    const size_t bytes = (size_t)lda * n * sizeof(double);
    double *a = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    double *tau = malloc((size_t)m * sizeof(double));
    assert_true(a != MAP_FAILED && tau);
    for (size_t e = 0; e < (size_t)lda * n; e++)
        a[e] = uniform();
    int32_t info = -1;
    trn_solver_dense_desc w = {
        .fn = TRN_SOLVER_GEQRF, .type = TRN_DTYPE_R64F, .m = m, .n = n, .a = a, .lda = lda};
    w.tau = tau;
    w.info = &info;
    w.tile_nb = trn_tile_nb(&w);
    int protected_steps = 0;
    for (int s = 0; s < trn_tile_steps(&w); s++) {
        const trn_solver_dense_desc d = trn_tile_step(&w, s);
        const int r0 = d.tile_k * d.tile_nb, pw = m - r0 < 256 ? m - r0 : 256;
        double *panel = a + (size_t)r0 * lda;
        const size_t pbytes = (size_t)pw * lda * sizeof(double);
        const int update = d.fn == TRN_SOLVER_TILE_QR_UPDATE;
        if (update) {
            assert_int_equal(mprotect(panel, pbytes, PROT_READ), 0);
            protected_steps++;
        }
        assert_int_equal(trn_cpu_solver_dense(&d, NULL, 0, 1), TRN_KSTATUS_OK);
        if (update)
            assert_int_equal(mprotect(panel, pbytes, PROT_READ | PROT_WRITE), 0);
    }
    assert_int_equal(info, 0);
    assert_int_equal(protected_steps, 4); /* panels 0 .. 3, the last 32 wide */
    munmap(a, bytes);
    free(tau);
}

/* Matrices large enough for groups of several block columns (17 tiles,
 * the last 4 wide): 3 threads claiming each step's tasks give the bits of
 * one shard running them in order, and the factors are LAPACK's within
 * the bounds of test_kernel and check_lu. */
static void test_claimed_groups(void **state) {
    (void)state;
    const int n = 4100, lda = n + 1;
    const size_t bytes = (size_t)lda * n * sizeof(double);
    double *a = malloc(bytes), *f1 = malloc(bytes), *f3 = malloc(bytes);
    int32_t *piv1 = malloc((size_t)n * sizeof(int32_t)),
            *piv3 = malloc((size_t)n * sizeof(int32_t));
    assert_true(a && f1 && f3 && piv1 && piv3);
    for (int lower = 0; lower < 2; lower++) {
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                a[(size_t)j * lda + i] = i == j ? (double)n : uniform();
        int32_t info1 = -1, info3 = -1;
        memcpy(f1, a, bytes);
        memcpy(f3, a, bytes);
        const trn_solver_dense_desc w1 = whole(n, TRN_DTYPE_R64F, lower, f1, lda, &info1);
        const trn_solver_dense_desc w3 = whole(n, TRN_DTYPE_R64F, lower, f3, lda, &info3);
        int wide = 0; /* some step groups several block columns */
        for (int s = 0; s < trn_tile_steps(&w1); s++) {
            const trn_solver_dense_desc d = trn_tile_step(&w1, s);
            wide |= trn_tile_group_cols(&d) > 1;
        }
        assert_true(wide);
        run_steps(&w1, 1, 0);
        run_claimed(&w3, 3);
        assert_int_equal(info1, 0);
        assert_int_equal(info3, 0);
        assert_memory_equal(f1, f3, bytes);
        double *ref = malloc(bytes);
        assert_non_null(ref);
        memcpy(ref, a, bytes);
        assert_int_equal(LAPACKE_dpotrf(LAPACK_COL_MAJOR, lower ? 'L' : 'U', n, ref, lda), 0);
        double worst = 0;
        for (int j = 0; j < n; j++)
            for (int i = lower ? j : 0; i < (lower ? n : j + 1); i++) {
                const double e = fabs(f1[(size_t)j * lda + i] - ref[(size_t)j * lda + i]);
                worst = e > worst ? e : worst;
            }
        const double bound = 8.0 * n * 0x1p-53 * sqrt((double)n); /* as test_kernel */
        if (!(worst <= bound))
            fail_msg("lower %d: |L - L_lapack| = %g > %g", lower, worst, bound);
        free(ref);
    }
    for (size_t e = 0; e < (size_t)lda * n; e++)
        a[e] = uniform();
    int32_t info1, info3;
    memcpy(f1, a, bytes);
    memcpy(f3, a, bytes);
    const trn_solver_dense_desc w1 = whole_lu(n, n, TRN_DTYPE_R64F, f1, lda, piv1, &info1);
    const trn_solver_dense_desc w3 = whole_lu(n, n, TRN_DTYPE_R64F, f3, lda, piv3, &info3);
    const trn_solver_dense_desc first_update = trn_tile_step(&w1, 2);
    assert_int_equal(first_update.fn, TRN_SOLVER_TILE_LU_UPDATE);
    assert_true(trn_tile_group_cols(&first_update) > 1);
    run_steps(&w1, 1, 0);
    run_claimed(&w3, 3);
    assert_int_equal(info1, 0);
    assert_int_equal(info3, 0);
    assert_memory_equal(f1, f3, bytes);
    assert_memory_equal(piv1, piv3, (size_t)n * sizeof(int32_t));
    check_lu(TRN_DTYPE_R64F, n, n, lda, a, f1, piv1);
    /* QR of a wide 1100 x 4100 matrix: updates of 2 block columns a task;
     * test_qr checks its factors against LAPACK's. */
    const int qm = 1100;
    double *tau1 = malloc((size_t)qm * sizeof(double)), *tau3 = malloc((size_t)qm * sizeof(double));
    assert_true(tau1 && tau3);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < qm; i++)
            f1[(size_t)j * qm + i] = f3[(size_t)j * qm + i] = uniform();
    trn_solver_dense_desc q1 = {.fn = TRN_SOLVER_GEQRF,
                                .type = TRN_DTYPE_R64F,
                                .m = qm,
                                .n = n,
                                .a = f1,
                                .lda = qm,
                                .tau = tau1,
                                .info = &info1};
    trn_solver_dense_desc q3 = q1;
    q3.a = f3;
    q3.tau = tau3;
    q3.info = &info3;
    q1.tile_nb = q3.tile_nb = trn_tile_nb(&q1);
    const trn_solver_dense_desc qr_update = trn_tile_step(&q1, 1);
    assert_int_equal(qr_update.fn, TRN_SOLVER_TILE_QR_UPDATE);
    assert_int_equal(trn_tile_group_cols(&qr_update), 2);
    run_steps(&q1, 1, 0);
    run_claimed(&q3, 3);
    assert_memory_equal(f1, f3, (size_t)qm * n * sizeof(double));
    assert_memory_equal(tau1, tau3, (size_t)qm * sizeof(double));
    free(tau1);
    free(tau3);
    free(a);
    free(f1);
    free(f3);
    free(piv1);
    free(piv3);
}

/* trn_blas_trsm_split against the library's trsm, every side, triangle,
 * transpose and diagonal, real and complex, with orders that split
 * unevenly. The triangles are well conditioned (diagonal 2 + i/4, other
 * entries below 0.5 / order: kappa < 3), so both backward-stable solves
 * agree to 8 order u kappa max|X|. */
static void test_trsm_split(void **state) {
    (void)state;
    const trn_dtype types[] = {TRN_DTYPE_R64F, TRN_DTYPE_C64F};
    const CBLAS_SIDE sides[] = {CblasLeft, CblasRight};
    const CBLAS_UPLO uplos[] = {CblasLower, CblasUpper};
    const CBLAS_TRANSPOSE transs[] = {CblasNoTrans, CblasTrans, CblasConjTrans};
    const CBLAS_DIAG diags[] = {CblasNonUnit, CblasUnit};
    const int m = 203, n = 150, lda = 211, ldb = 207;
    for (int ti = 0; ti < 2; ti++) {
        const trn_dtype t = types[ti];
        const size_t es = trn_dtype_size(t);
        void *a = calloc((size_t)lda * lda, es), *b = malloc((size_t)ldb * n * es);
        void *x1 = malloc((size_t)ldb * n * es), *x2 = malloc((size_t)ldb * n * es);
        assert_true(a && b && x1 && x2);
        for (int q = 0; q < 24; q++) {
            const CBLAS_SIDE side = sides[q % 2];
            const CBLAS_UPLO uplo = uplos[(q / 2) % 2];
            const CBLAS_TRANSPOSE tr = transs[(q / 4) % 3];
            const CBLAS_DIAG dg = diags[q / 12];
            const int order = side == CblasLeft ? m : n;
            for (int j = 0; j < order; j++)
                for (int i = 0; i < order; i++) {
                    const int in = uplo == CblasLower ? i >= j : i <= j;
                    double complex v = 0;
                    if (i == j)
                        v = 2.0 + (i % 4) / 4.0 + (ti ? 0.5 * I : 0);
                    else if (in)
                        v = (0.5 / order) * (uniform() + (ti ? I * uniform() : 0));
                    set_elem(t, a, (size_t)j * lda + i, v);
                }
            for (size_t e = 0; e < (size_t)ldb * n; e++)
                set_elem(t, b, e, uniform() + (ti ? I * uniform() : 0));
            memcpy(x1, b, (size_t)ldb * n * es);
            memcpy(x2, b, (size_t)ldb * n * es);
            trn_blas_trsm(t, side, uplo, tr, dg, m, n, 1.0, a, lda, x1, ldb);
            trn_blas_trsm_split(t, side, uplo, tr, dg, m, n, a, lda, x2, ldb);
            const double worst = max_abs_diff(t, x1, x2, m, n, ldb);
            double xmax = 0;
            for (int j = 0; j < n; j++)
                for (int i = 0; i < m; i++)
                    xmax = fmax(xmax, cabs(elem(t, x1, (size_t)j * ldb + i)));
            const double bound = 8.0 * order * 0x1p-53 * 3.0 * xmax;
            if (!(worst <= bound))
                fail_msg("type %d case %d: |X - X_trsm| = %g > %g", (int)t, q, worst, bound);
            /* Rows (left) or columns (right) past the solve stay as they were. */
            for (int j = 0; j < n; j++)
                assert_memory_equal((char *)x2 + ((size_t)j * ldb + m) * es,
                                    (char *)b + ((size_t)j * ldb + m) * es, (size_t)(ldb - m) * es);
        }
        free(a);
        free(b);
        free(x1);
        free(x2);
    }
}

int main(void) {
    openblas_set_num_threads(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_graph),
        cmocka_unit_test(test_kernel),
        cmocka_unit_test(test_lu),
        cmocka_unit_test(test_qr),
        cmocka_unit_test(test_update_reads_panel_only),
        cmocka_unit_test(test_claimed_groups),
        cmocka_unit_test(test_trsm_split),
    };
    return cmocka_run_group_tests(tests, trn_test_install_checked_routines, NULL);
}
