/*
 * test_solver_svd_tile.c — the tiled gesvd's task graph
 * (ops/solver_svd_tile.h) and its CPU kernel, without a daemon:
 *  - which ops are tiled (gesvd with at least one side 'S' or 'A' from
 *    n = 512 and up to 65536 rows; not 'O', not both sides 'N'), the two
 *    steps, the QR step's blocks (VT's columns first, then U's rows) and a
 *    step's tasks shared among 1 to 7 shards as contiguous runs covering
 *    each task once;
 *  - the graph run with its QR step shared by 3 threads claiming blocks
 *    (ops/solver_tile.h, "Claiming"), by 3 fixed shards called backwards
 *    and by one shard gives bitwise the same S, U and VT, in D and C;
 *    their accuracy against LAPACK is tests/integration/
 *    test_solver_svd_tiled.c's;
 *  - a NaN in A: info = -5 and S, U, VT untouched; the QR step does
 *    nothing after it.
 */
#include <cblas.h>
#include <complex.h>
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
#include "tests/common/tile_test.h"

#include "kernels/cpu/cpu_kernels.h"
#include "ops/solver_svd_tile.h"
#include "ops/solver_tile.h"

static trn_solver_eigen_desc svd(trn_dtype t, int m, int n, char jobu, char jobvt) {
    return (trn_solver_eigen_desc){
        .fn = TRN_SOLVER_GESVD, .type = t, .jobu = jobu, .jobvt = jobvt, .m = m, .n = n};
}

static void test_graph(void **state) {
    (void)state;
    trn_solver_eigen_desc e = svd(TRN_DTYPE_R64F, 600, 511, 'S', 'S');
    assert_int_equal(trn_svd_tile_steps(&e), 0);
    e.n = 512;
    assert_int_equal(trn_svd_tile_steps(&e), 2);
    static const char no[][2] = {{'N', 'N'}, {'O', 'S'}, {'S', 'O'}};
    for (size_t k = 0; k < sizeof(no) / sizeof(no[0]); k++) {
        trn_solver_eigen_desc x = svd(TRN_DTYPE_C32F, 600, 600, no[k][0], no[k][1]);
        assert_int_equal(trn_svd_tile_steps(&x), 0);
    }
    trn_solver_eigen_desc big = svd(TRN_DTYPE_R32F, 65536, 600, 'N', 'A');
    assert_int_equal(trn_svd_tile_steps(&big), 2);
    big.m = 65537;
    assert_int_equal(trn_svd_tile_steps(&big), 0);
    e.fn = TRN_SOLVER_GESVDJ;
    assert_int_equal(trn_svd_tile_steps(&e), 0);

    /* The QR step's blocks for each pair of jobs: VT's first. */
    static const char jobs[][2] = {{'S', 'S'}, {'A', 'S'}, {'N', 'A'}, {'S', 'N'}};
    const int m = 1100, n = 600, nb = TRN_SVD_TILE_NB;
    const int vb = (n + nb - 1) / nb, ub = (m + nb - 1) / nb;
    for (size_t k = 0; k < sizeof(jobs) / sizeof(jobs[0]); k++) {
        trn_solver_eigen_desc x = svd(TRN_DTYPE_R64F, m, n, jobs[k][0], jobs[k][1]);
        const trn_solver_dense_desc brd = trn_svd_tile_step(&x, 0, NULL);
        const trn_solver_dense_desc qr = trn_svd_tile_step(&x, 1, NULL);
        assert_true(trn_tile_fn(brd.fn) && trn_tile_fn(qr.fn));
        assert_int_equal(trn_tile_tasks(&brd), 1);
        assert_null(brd.tile_claim);
        const size_t nv = jobs[k][1] == 'N' ? 0 : (size_t)vb;
        const size_t nu = jobs[k][0] == 'N' ? 0 : (size_t)ub;
        assert_int_equal(trn_tile_tasks(&qr), nv + nu);
        assert_int_equal(qr.ucols, jobs[k][0] == 'A' ? m : jobs[k][0] == 'S' ? n : 0);
        for (size_t t = 0; t < nv + nu; t++) {
            int i, j;
            trn_tile_task(&qr, t, &i, &j);
            assert_int_equal(j, t < nv ? (int)t : -1);
            assert_int_equal(i, t < nv ? -1 : (int)(t - nv));
        }
        /* Each block's flops are proportional to its width: 12 n^2 per
         * column of VT or row of U. */
        const double want = 12.0 * n * n * ((nv ? n : 0) + (nu ? m : 0));
        assert_true(fabs(trn_tile_step_flops(&qr) - want) <= 1e-9 * want);
        check_shard_runs(&qr, nv + nu);
    }
}

/* One gesvd's buffers: A (m x n, lda m + 1), S, U (m x ucols, ldu m + 2),
 * VT (n x n, ldvt n + 1), info, and the state. */
typedef struct bufs {
    trn_solver_eigen_desc e;
    void *state;
    int32_t info;
} bufs;

static void bufs_make(bufs *b, trn_dtype t, int m, int n, char jobu, char jobvt, const void *a) {
    const size_t es = trn_dtype_size(t), rs = t == TRN_DTYPE_C32F ? 4 : 8;
    b->e = svd(t, m, n, jobu, jobvt);
    b->e.lda = m + 1;
    b->e.ldu = m + 2;
    b->e.ldv = n + 1;
    const int ucols = jobu == 'A' ? m : jobu == 'S' ? n : 0;
    b->e.a = malloc((size_t)b->e.lda * n * es);
    b->e.w = malloc((size_t)n * rs);
    b->e.u = ucols ? malloc((size_t)b->e.ldu * ucols * es) : NULL;
    b->e.v = jobvt != 'N' ? malloc((size_t)b->e.ldv * n * es) : NULL;
    b->e.info = &b->info;
    b->info = 99;
    b->state = calloc(1, trn_svd_tile_state_bytes(&b->e));
    assert_true(b->e.a && b->e.w && b->state);
    memcpy(b->e.a, a, (size_t)b->e.lda * n * es);
    memset(b->e.w, 0x7f, (size_t)n * rs);
    if (b->e.u)
        memset(b->e.u, 0x7f, (size_t)b->e.ldu * ucols * es);
    if (b->e.v)
        memset(b->e.v, 0x7f, (size_t)b->e.ldv * n * es);
}

static void bufs_free(bufs *b) {
    free(b->e.a);
    free(b->e.w);
    free(b->e.u);
    free(b->e.v);
    free(b->state);
}

/* The graph on b: the QR step by `threads` threads claiming its blocks
 * (0: one shard without the counter; negative: -threads fixed shards
 * called backwards). */
static void run_graph(bufs *b, int threads) {
    const trn_solver_dense_desc brd = trn_svd_tile_step(&b->e, 0, b->state);
    assert_int_equal(trn_cpu_solver_dense(&brd, NULL, 0, 1), TRN_KSTATUS_OK);
    trn_solver_dense_desc qr = trn_svd_tile_step(&b->e, 1, b->state);
    if (threads <= 0) {
        const int S = threads < 0 ? -threads : 1;
        qr.tile_claim = NULL;
        for (int k = S - 1; k >= 0; k--)
            assert_int_equal(trn_cpu_solver_dense(&qr, NULL, k, S), TRN_KSTATUS_OK);
        return;
    }
    run_threads(&qr, threads);
    assert_int_equal(*trn_svd_tile_layout(&qr).claim, trn_tile_tasks(&qr) + (uint64_t)threads);
}

static void *random_a(trn_dtype t, int m, int n) {
    const size_t count = (size_t)(m + 1) * n * (t == TRN_DTYPE_C32F ? 2 : 1);
    void *a = malloc(count * (t == TRN_DTYPE_C32F ? sizeof(float) : sizeof(double)));
    assert_non_null(a);
    for (size_t k = 0; k < count; k++) {
        if (t == TRN_DTYPE_C32F)
            ((float *)a)[k] = (float)uniform();
        else
            ((double *)a)[k] = uniform();
    }
    return a;
}

static void test_claimed_alike(void **state) {
    (void)state;
    static const struct {
        trn_dtype t;
        int m, n;
        char ju, jv;
    } cases[] = {{TRN_DTYPE_R64F, 700, 600, 'A', 'S'}, {TRN_DTYPE_C32F, 560, 530, 'S', 'A'}};
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        const trn_dtype t = cases[c].t;
        const int m = cases[c].m, n = cases[c].n;
        void *a = random_a(t, m, n);
        bufs r[3];
        const int how[3] = {0, 3, -3};
        for (int k = 0; k < 3; k++) {
            bufs_make(&r[k], t, m, n, cases[c].ju, cases[c].jv, a);
            run_graph(&r[k], how[k]);
            assert_int_equal(r[k].info, 0);
        }
        const size_t es = trn_dtype_size(t), rs = t == TRN_DTYPE_C32F ? 4 : 8;
        const int ucols = cases[c].ju == 'A' ? m : n;
        for (int k = 1; k < 3; k++) {
            assert_memory_equal(r[k].e.w, r[0].e.w, (size_t)n * rs);
            assert_memory_equal(r[k].e.u, r[0].e.u, (size_t)r[0].e.ldu * ucols * es);
            assert_memory_equal(r[k].e.v, r[0].e.v, (size_t)r[0].e.ldv * n * es);
        }
        /* Descending, non-negative, and not the sentinel. */
        for (int i = 0; i < n; i++) {
            const double s = t == TRN_DTYPE_C32F ? ((float *)r[0].e.w)[i] : ((double *)r[0].e.w)[i];
            const double prev = i == 0                ? INFINITY
                                : t == TRN_DTYPE_C32F ? ((float *)r[0].e.w)[i - 1]
                                                      : ((double *)r[0].e.w)[i - 1];
            assert_true(s >= 0 && s <= prev && s < 1e6);
        }
        for (int k = 0; k < 3; k++)
            bufs_free(&r[k]);
        free(a);
    }
}

static void test_nonfinite(void **state) {
    (void)state;
    const int m = 600, n = 520;
    double *a = random_a(TRN_DTYPE_R64F, m, n);
    a[(size_t)400 * (m + 1) + 17] = NAN;
    bufs b;
    bufs_make(&b, TRN_DTYPE_R64F, m, n, 'S', 'A', a);
    run_graph(&b, -2);
    assert_int_equal(b.info, -5);
    const unsigned char *w = b.e.w, *u = b.e.u, *v = b.e.v;
    for (size_t k = 0; k < (size_t)n * sizeof(double); k++)
        assert_int_equal(w[k], 0x7f);
    for (size_t k = 0; k < (size_t)b.e.ldu * n * sizeof(double); k++)
        assert_int_equal(u[k], 0x7f);
    for (size_t k = 0; k < (size_t)b.e.ldv * n * sizeof(double); k++)
        assert_int_equal(v[k], 0x7f);
    bufs_free(&b);
    free(a);
}

int main(void) {
    openblas_set_num_threads(1); /* as in the daemon's workers */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_graph),
        cmocka_unit_test(test_claimed_alike),
        cmocka_unit_test(test_nonfinite),
    };
    return cmocka_run_group_tests(tests, trn_test_install_checked_routines, NULL);
}
