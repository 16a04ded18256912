/*
 * test_sparse_ilu.c — trnsparse's incomplete factorisations (csric02,
 * csrilu02: S and D, info objects, analysis, zero pivots) through a real
 * daemon, over the local transport and gRPC over TCP, against IC0 / ILU0
 * written out on the pattern in sparse_ilu_ref.py (numpy, float64):
 *
 *  - Matrices: a 12 x 12 grid's 5-point stencil (m = 144) with random
 *    off-diagonal weights in [-1, -0.1] plus a few random far entries
 *    (symmetric for IC0), diagonal = 1 + the row's off-diagonal sum (row
 *    diagonally dominant, so the factors exist and multipliers are < 1);
 *    index base 0 and 1; the upper triangle must come back unchanged from
 *    csric02.
 *  - Tolerances. Backward, independent of the reference (Higham Thm 9.3
 *    applied to the pattern, where the factorisation is exact in exact
 *    arithmetic): for each stored (i, j), |a_ij - sum_k l_ik u_kj| <=
 *    gamma_{w+1} sum_k |l_ik||u_kj| over the k the algorithm uses (IC0:
 *    l_ik l_jk), w the longest row. Forward, against the reference: errors
 *    of earlier rows reach row i through multipliers below 1 and add at
 *    most once per row, so |f - f_ref| <= m gamma_{w+1} (|f_ref| + 1) (and
 *    the float64 reference's own error, the same form in double: double
 *    results are held to twice that).
 *  - Zero pivots: a missing diagonal entry found by the analysis and by
 *    the factorisation, an exact zero pivot ([1 1; 1 1]: u_11 = 0, and
 *    l_11^2 = 0 for IC0), positions in the matrix's base; none: SUCCESS and
 *    -1. Bad input: unsorted columns (the op fails when it runs, with a
 *    message), a bad policy, NULL info, a NULL handle; the daemon keeps
 *    serving.
 */
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
#include "sparse_util.h"
#include "trnsci/trnsparse.h"

static th_daemon one_core;
static char tmp_dir[256];

static su_transport local_t = {"local", NULL}, grpc_t = {"grpc", NULL};

static double worst[2][2]; /* [backward, forward][dbl] */

/* A grid x grid 5-point pattern plus far entries, CSR 0-based, sorted;
 * symmetric values when sym. */
static void make_matrix(int grid, int sym, int dbl, uint64_t seed, int *m_out, int **rp, int **ci,
                        double **v) {
    const int m = grid * grid;
    double *dense = calloc((size_t)m * m, sizeof(double));
    assert_non_null(dense);
    uint64_t s = seed;
    for (int i = 0; i < m; i++) {
        const int r = i / grid, c = i % grid;
        const int nb[4] = {r > 0 ? i - grid : -1, c > 0 ? i - 1 : -1, c + 1 < grid ? i + 1 : -1,
                           r + 1 < grid ? i + grid : -1};
        for (int t = 0; t < 4; t++) {
            const int j = nb[t];
            if (j < 0 || (sym && j < i))
                continue;
            const double w = -(0.55 + 0.45 * su_uniform(&s));
            dense[(size_t)i * m + j] = w;
            if (sym)
                dense[(size_t)j * m + i] = w;
        }
        if (su_uniform(&s) > 0.8) { /* a far entry */
            const int j = (int)((su_uniform(&s) + 1.0) * 0.5 * m) % m;
            if (j != i && (!sym || j > i)) {
                const double w = -(0.55 + 0.45 * su_uniform(&s));
                dense[(size_t)i * m + j] = w;
                if (sym)
                    dense[(size_t)j * m + i] = w;
            }
        }
    }
    *rp = calloc((size_t)m + 1, sizeof(int));
    *ci = malloc((size_t)m * m * sizeof(int));
    *v = malloc((size_t)m * m * sizeof(double));
    int k = 0;
    for (int i = 0; i < m; i++) {
        (*rp)[i] = k;
        double off = 0;
        for (int j = 0; j < m; j++)
            if (j != i && dense[(size_t)i * m + j] != 0) {
                off += fabs(dense[(size_t)i * m + j]);
            }
        for (int j = 0; j < m; j++) {
            double w = j == i ? 1.0 + off : dense[(size_t)i * m + j];
            if (w == 0)
                continue;
            if (!dbl)
                w = (double)(float)w;
            (*ci)[k] = j;
            (*v)[k++] = w;
        }
    }
    (*rp)[m] = k;
    *m_out = m;
    free(dense);
}

static void run_case(trnsparseHandle_t h, int cholesky, int dbl, int base, uint64_t seed) {
    int m, *rp, *ci;
    double *v;
    make_matrix(12, cholesky, dbl, seed, &m, &rp, &ci, &v);
    const int nnz = rp[m];
    const size_t es = dbl ? 8 : 4;
    /* The reference (0-based int64 structure). */
    int64_t *p64 = malloc(((size_t)m + 1) * 8), *i64 = malloc((size_t)nnz * 8);
    int w = 0;
    for (int i = 0; i <= m; i++) {
        p64[i] = rp[i];
        if (i < m && rp[i + 1] - rp[i] > w)
            w = rp[i + 1] - rp[i];
    }
    for (int p = 0; p < nnz; p++)
        i64[p] = ci[p];
    char meta[32];
    snprintf(meta, sizeof(meta), "%d", m);
    su_write_file(tmp_dir, "meta.txt", meta, strlen(meta));
    su_write_file(tmp_dir, "indptr", p64, ((size_t)m + 1) * 8);
    su_write_file(tmp_dir, "indices", i64, (size_t)nnz * 8);
    su_write_file(tmp_dir, "data", v, (size_t)nnz * 8);
    su_run_ref(PYTHON3, ILU_REF_PY, cholesky ? "ic0" : "ilu0", tmp_dir);
    size_t bytes = 0;
    double *ref = su_read_file(tmp_dir, "factor", &bytes);
    assert_int_equal(bytes, (size_t)nnz * 8);
    /* The device matrix in the case's base and type. */
    for (int i = 0; i <= m; i++)
        rp[i] += base;
    for (int p = 0; p < nnz; p++)
        ci[p] += base;
    void *hv = malloc((size_t)nnz * es);
    for (int p = 0; p < nnz; p++)
        su_put(hv, (size_t)p, v[p], dbl);
    void *d_rp = su_dev_put(rp, ((size_t)m + 1) * 4), *d_ci = su_dev_put(ci, (size_t)nnz * 4),
         *d_v = su_dev_put(hv, (size_t)nnz * es);
    trnsparseMatDescr_t descr;
    assert_int_equal(trnsparseCreateMatDescr(&descr), TRNSPARSE_STATUS_SUCCESS);
    trnsparseSetMatIndexBase(descr, base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO);
    const trnsparseSolvePolicy_t pol = TRNSPARSE_SOLVE_POLICY_USE_LEVEL;
    int bs = -1, pos = 7;
    trnsparseStatus_t st;
    if (cholesky) {
        csric02Info_t info;
        assert_int_equal(trnsparseCreateCsric02Info(&info), TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(
            dbl ? trnsparseDcsric02_bufferSize(h, m, nnz, descr, d_v, d_rp, d_ci, info, &bs)
                : trnsparseScsric02_bufferSize(h, m, nnz, descr, d_v, d_rp, d_ci, info, &bs),
            TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(bs, 0);
        st = dbl ? trnsparseDcsric02_analysis(h, m, nnz, descr, d_v, d_rp, d_ci, info, pol, NULL)
                 : trnsparseScsric02_analysis(h, m, nnz, descr, d_v, d_rp, d_ci, info, pol, NULL);
        assert_int_equal(st, TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseXcsric02_zeroPivot(h, info, &pos), TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(pos, -1);
        st = dbl ? trnsparseDcsric02(h, m, nnz, descr, d_v, d_rp, d_ci, info, pol, NULL)
                 : trnsparseScsric02(h, m, nnz, descr, d_v, d_rp, d_ci, info, pol, NULL);
        if (st != TRNSPARSE_STATUS_SUCCESS)
            fail_msg("csric02: %s", trnsciGetLastErrorMessage());
        assert_int_equal(trnsparseXcsric02_zeroPivot(h, info, &pos), TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(pos, -1);
        trnsparseDestroyCsric02Info(info);
    } else {
        csrilu02Info_t info;
        assert_int_equal(trnsparseCreateCsrilu02Info(&info), TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(
            dbl ? trnsparseDcsrilu02_bufferSize(h, m, nnz, descr, d_v, d_rp, d_ci, info, &bs)
                : trnsparseScsrilu02_bufferSize(h, m, nnz, descr, d_v, d_rp, d_ci, info, &bs),
            TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(bs, 0);
        st = dbl ? trnsparseDcsrilu02_analysis(h, m, nnz, descr, d_v, d_rp, d_ci, info, pol, NULL)
                 : trnsparseScsrilu02_analysis(h, m, nnz, descr, d_v, d_rp, d_ci, info, pol, NULL);
        assert_int_equal(st, TRNSPARSE_STATUS_SUCCESS);
        st = dbl ? trnsparseDcsrilu02(h, m, nnz, descr, d_v, d_rp, d_ci, info, pol, NULL)
                 : trnsparseScsrilu02(h, m, nnz, descr, d_v, d_rp, d_ci, info, pol, NULL);
        if (st != TRNSPARSE_STATUS_SUCCESS)
            fail_msg("csrilu02: %s", trnsciGetLastErrorMessage());
        assert_int_equal(trnsparseXcsrilu02_zeroPivot(h, info, &pos), TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(pos, -1);
        trnsparseDestroyCsrilu02Info(info);
    }
    void *out = su_dev_get(d_v, (size_t)nnz * es);
    const long double g = su_gamma(dbl, (long double)w + 1);
    /* Dense views of the result (0-based). */
    long double *f = calloc((size_t)m * m, sizeof(long double));
    char *in = calloc((size_t)m * m, 1);
    for (int i = 0; i < m; i++)
        for (int p = rp[i] - base; p < rp[i + 1] - base; p++) {
            f[(size_t)i * m + (ci[p] - base)] = su_get(out, (size_t)p, dbl);
            in[(size_t)i * m + (ci[p] - base)] = 1;
        }
    for (int i = 0; i < m; i++)
        for (int p = rp[i] - base; p < rp[i + 1] - base; p++) {
            const int j = ci[p] - base;
            const long double got = su_get(out, (size_t)p, dbl);
            if (cholesky && j > i) { /* above the diagonal: untouched */
                if (got != (long double)su_get(hv, (size_t)p, dbl))
                    fail_msg("csric02 wrote A(%d,%d) above the diagonal", i, j);
                continue;
            }
            /* Backward: the product on the pattern reproduces a_ij. */
            long double prod = 0, mag = 0;
            const int top = j < i ? j : i;
            for (int k = 0; k <= top; k++) {
                long double x, y;
                if (cholesky) { /* (L L^T)_ij, i >= j */
                    if (!in[(size_t)i * m + k] || !in[(size_t)j * m + k])
                        continue;
                    x = f[(size_t)i * m + k];
                    y = f[(size_t)j * m + k];
                } else { /* (L U)_ij with l_ii = 1 */
                    if (!in[(size_t)i * m + k] || !in[(size_t)k * m + j])
                        continue;
                    x = k == i ? 1.0L : f[(size_t)i * m + k];
                    y = f[(size_t)k * m + j];
                }
                prod += x * y;
                mag += fabsl(x * y);
            }
            const long double a = v[p], be = g * mag, r = fabsl(prod - a);
            if (be > 0 && r / be > worst[0][dbl])
                worst[0][dbl] = (double)(r / be);
            if (!(r <= be))
                fail_msg("%s (%s, base %d): backward error at (%d,%d) %.3Lg > %.3Lg",
                         cholesky ? "csric02" : "csrilu02", dbl ? "D" : "S", base, i, j, r, be);
            /* Forward, against the reference. */
            const long double fb = (dbl ? 2.0L : 1.0L) * m * g * (fabsl(ref[p]) + 1.0L);
            const long double fe = fabsl(got - ref[p]);
            if (fe / fb > worst[1][dbl])
                worst[1][dbl] = (double)(fe / fb);
            if (!(fe <= fb))
                fail_msg("%s (%s, base %d): (%d,%d) = %.17Lg, reference %.17g, error %.3Lg > %.3Lg",
                         cholesky ? "csric02" : "csrilu02", dbl ? "D" : "S", base, i, j, got,
                         ref[p], fe, fb);
        }
    trnsparseDestroyMatDescr(descr);
    trnsciFree(d_rp);
    trnsciFree(d_ci);
    trnsciFree(d_v);
    free(out);
    free(f);
    free(in);
    free(hv);
    free(ref);
    free(p64);
    free(i64);
    free(rp);
    free(ci);
    free(v);
}

static void test_factor(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    uint64_t seed = 31;
    for (int chol = 0; chol < 2; chol++)
        for (int dbl = 0; dbl < 2; dbl++)
            for (int base = 0; base < 2; base++)
                run_case(h, chol, dbl, base, seed++);
    printf("    worst backward / bound: S %.3g, D %.3g; forward / bound: S %.3g, D %.3g\n",
           worst[0][0], worst[0][1], worst[1][0], worst[1][1]);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* A small matrix (rows given 0-based, sorted) on the device in base `base`. */
typedef struct small {
    void *rp, *ci, *v;
    int m, nnz;
} small;

static small small_put(int m, const int *rp, const int *ci, const double *v, int base) {
    small s = {.m = m, .nnz = rp[m]};
    int r[8], c[16];
    for (int i = 0; i <= m; i++)
        r[i] = rp[i] + base;
    for (int p = 0; p < s.nnz; p++)
        c[p] = ci[p] + base;
    s.rp = su_dev_put(r, ((size_t)m + 1) * 4);
    s.ci = su_dev_put(c, (size_t)s.nnz * 4);
    s.v = su_dev_put(v, (size_t)s.nnz * 8);
    return s;
}

static void small_free(small *s) {
    trnsciFree(s->rp);
    trnsciFree(s->ci);
    trnsciFree(s->v);
}

static void test_pivots(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    const trnsparseSolvePolicy_t pol = TRNSPARSE_SOLVE_POLICY_NO_LEVEL;
    for (int base = 0; base < 2; base++) {
        trnsparseMatDescr_t d;
        assert_int_equal(trnsparseCreateMatDescr(&d), TRNSPARSE_STATUS_SUCCESS);
        trnsparseSetMatIndexBase(d, base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO);
        csric02Info_t ic;
        csrilu02Info_t ilu;
        assert_int_equal(trnsparseCreateCsric02Info(&ic), TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseCreateCsrilu02Info(&ilu), TRNSPARSE_STATUS_SUCCESS);
        int pos = 0;
        /* A fresh info reports no pivot. */
        assert_int_equal(trnsparseXcsrilu02_zeroPivot(h, ilu, &pos), TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(pos, -1);
        /* 4 x 4 with row 2's diagonal missing: structural zero at 2. */
        const int rp1[5] = {0, 2, 4, 5, 7}, ci1[7] = {0, 1, 0, 1, 1, 2, 3};
        const double v1[7] = {4, 1, 1, 4, 1, 1, 4};
        small s1 = small_put(4, rp1, ci1, v1, base);
        assert_int_equal(
            trnsparseDcsrilu02_analysis(h, 4, 7, d, s1.v, s1.rp, s1.ci, ilu, pol, NULL),
            TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseXcsrilu02_zeroPivot(h, ilu, &pos), TRNSPARSE_STATUS_ZERO_PIVOT);
        assert_int_equal(pos, 2 + base);
        assert_int_equal(trnsparseDcsric02(h, 4, 7, d, s1.v, s1.rp, s1.ci, ic, pol, NULL),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseXcsric02_zeroPivot(h, ic, &pos), TRNSPARSE_STATUS_ZERO_PIVOT);
        assert_int_equal(pos, 2 + base);
        small_free(&s1);
        /* [1 1; 1 1]: an exact zero pivot at 1, for both. */
        const int rp2[3] = {0, 2, 4}, ci2[4] = {0, 1, 0, 1};
        const double v2[4] = {1, 1, 1, 1};
        small s2 = small_put(2, rp2, ci2, v2, base);
        assert_int_equal(trnsparseDcsrilu02(h, 2, 4, d, s2.v, s2.rp, s2.ci, ilu, pol, NULL),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseXcsrilu02_zeroPivot(h, ilu, &pos), TRNSPARSE_STATUS_ZERO_PIVOT);
        assert_int_equal(pos, 1 + base);
        small_free(&s2);
        s2 = small_put(2, rp2, ci2, v2, base);
        assert_int_equal(trnsparseDcsric02(h, 2, 4, d, s2.v, s2.rp, s2.ci, ic, pol, NULL),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseXcsric02_zeroPivot(h, ic, &pos), TRNSPARSE_STATUS_ZERO_PIVOT);
        assert_int_equal(pos, 1 + base);
        /* Unsorted columns: the op fails when it runs. */
        const int ci3[4] = {1, 0, 0, 1};
        small s3 = small_put(2, rp2, ci3, v2, base);
        assert_int_equal(trnsparseDcsrilu02(h, 2, 4, d, s3.v, s3.rp, s3.ci, ilu, pol, NULL),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_not_equal(trnsciDeviceSynchronize(), trnsciSuccess);
        su_expect_message("not strictly increasing");
        small_free(&s3);
        /* Bad arguments. */
        assert_int_equal(trnsparseDcsrilu02(h, 2, 4, d, s2.v, s2.rp, s2.ci, ilu,
                                            (trnsparseSolvePolicy_t)5, NULL),
                         TRNSPARSE_STATUS_INVALID_VALUE);
        su_expect_message("policy");
        assert_int_equal(trnsparseDcsrilu02(h, 2, 4, d, s2.v, s2.rp, s2.ci, NULL, pol, NULL),
                         TRNSPARSE_STATUS_INVALID_VALUE);
        assert_int_equal(trnsparseDcsrilu02(NULL, 2, 4, d, s2.v, s2.rp, s2.ci, ilu, pol, NULL),
                         TRNSPARSE_STATUS_NOT_INITIALIZED);
        assert_int_equal(trnsparseXcsric02_zeroPivot(h, ic, NULL), TRNSPARSE_STATUS_INVALID_VALUE);
        /* Still serving: [4 1; 1 4] has no zero pivot. */
        const double v4[4] = {4, 1, 1, 4};
        small s4 = small_put(2, rp2, ci2, v4, base);
        assert_int_equal(trnsparseDcsrilu02(h, 2, 4, d, s4.v, s4.rp, s4.ci, ilu, pol, NULL),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseXcsrilu02_zeroPivot(h, ilu, &pos), TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(pos, -1);
        double back[4];
        assert_int_equal(trnsciMemcpy(back, s4.v, sizeof(back), trnsciMemcpyDeviceToHost),
                         trnsciSuccess);
        assert_true(back[0] == 4 && back[1] == 1 && back[2] == 0.25 && back[3] == 3.75);
        small_free(&s4);
        small_free(&s2);
        trnsparseDestroyCsric02Info(ic);
        trnsparseDestroyCsrilu02Info(ilu);
        trnsparseDestroyMatDescr(d);
    }
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

int main(void) {
    snprintf(tmp_dir, sizeof(tmp_dir), "/tmp/trnsci-sparse-ilu-XXXXXX");
    if (!mkdtemp(tmp_dir)) {
        perror("mkdtemp");
        return 1;
    }
    if (su_start_daemons(&one_core, NULL) != 0)
        return 1;
    local_t.addr = one_core.unix_addr;
    grpc_t.addr = one_core.tcp_addr;
    const struct CMUnitTest tests[] = {
        SU_ON(test_factor, local),
        SU_ON(test_factor, grpc),
        SU_ON(test_pivots, local),
        SU_ON(test_pivots, grpc),
    };
    int failed = cmocka_run_group_tests_name("sparse_ilu", tests, NULL, NULL);
    failed += th_daemon_stop_checked(&one_core, "trnscid --cores 2");
    th_remove_dir(tmp_dir);
    return failed ? 1 : 0;
}
