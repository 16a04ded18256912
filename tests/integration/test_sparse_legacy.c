/*
 * test_sparse_legacy.c — trnsparse's legacy BSR products
 * (trnsparse<t>bsrmv, trnsparse<t>bsrmm, S and D) through a real daemon,
 * over the local transport and gRPC over TCP, against a long double
 * reference computed here from the dense expansion of the blocks:
 *
 *  - Random block patterns (about 40% of the blocks stored, columns in
 *    random order within a block row, some block rows empty), blockDim 3
 *    and 2, index base 0 and 1 (from the matrix descriptor), block storage
 *    by rows and by columns (dirA), beta 0 (y, C not read: they hold NaN)
 *    and beta != 0, bsrmm with transB N and T, B and C at leading
 *    dimensions with padding that must come back unchanged.
 *  - Tolerance: each output is alpha s + beta c with s a sum of at most
 *    w = kb blockDim products, computed in the type: |err| <= gamma_{w+2}
 *    (|alpha| sum |a_ij x_j| + |beta c|) (Higham §3.1); the reference is
 *    long double (its own error is below 2^-63 relative, negligible).
 *  - Bad input, each with cuSPARSE's status and a message: transA T
 *    (NOT_SUPPORTED), blockDim 1 for bsrmm and 0 for bsrmv, ldb and ldc
 *    too small, a bad dirA, NULL alpha (INVALID_VALUE), a NULL handle
 *    (NOT_INITIALIZED); the daemon keeps serving.
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

static su_transport local_t = {"local", NULL}, grpc_t = {"grpc", NULL};

static double worst[2];

/* A value of the type (rounded to float once for S). */
static double rnd(uint64_t *s, int dbl) {
    const double v = su_uniform(s);
    return dbl ? v : (double)(float)v;
}

typedef struct bsr_case {
    int dbl, base, bd, rowdir, mm, transb, beta0;
    int mb, kb, n;
} bsr_case;

static void run_case(trnsparseHandle_t h, const bsr_case *c, uint64_t seed) {
    uint64_t s = seed;
    const int dbl = c->dbl, bd = c->bd, mb = c->mb, kb = c->kb;
    const size_t es = dbl ? 8 : 4, bb = (size_t)bd * (size_t)bd;
    const int64_t m = (int64_t)mb * bd, k = (int64_t)kb * bd, n = c->mm ? c->n : 1;
    /* The pattern: block row 1 empty, others ~40% of the blocks, columns
     * shuffled within a row. */
    int *rowptr = calloc((size_t)mb + 1, sizeof(int)), *colind = malloc((size_t)mb * kb * 4);
    long double *dense = calloc((size_t)(m * k), sizeof(long double));
    assert_non_null(rowptr);
    assert_non_null(colind);
    assert_non_null(dense);
    int nnzb = 0;
    for (int I = 0; I < mb; I++) {
        rowptr[I] = nnzb + c->base;
        const int start = nnzb;
        for (int J = 0; J < kb; J++)
            if (I != 1 && su_uniform(&s) < -0.2)
                colind[nnzb++] = J;
        for (int q = nnzb - 1; q > start; q--) {
            const int r =
                start + (int)((su_uniform(&s) + 1.0) * 0.5 * (q - start + 1)) % (q - start + 1);
            const int t = colind[q];
            colind[q] = colind[r];
            colind[r] = t;
        }
    }
    rowptr[mb] = nnzb + c->base;
    void *val = malloc((size_t)nnzb * bb * es + 1);
    assert_non_null(val);
    for (int I = 0; I < mb; I++)
        for (int p = rowptr[I] - c->base; p < rowptr[I + 1] - c->base; p++) {
            const int J = colind[p];
            for (int i = 0; i < bd; i++)
                for (int j = 0; j < bd; j++) {
                    const double v = rnd(&s, dbl);
                    const size_t at =
                        (size_t)p * bb + (size_t)(c->rowdir ? i * bd + j : i + j * bd);
                    su_put(val, at, v, dbl);
                    dense[(size_t)(I * bd + i) * (size_t)k + (size_t)(J * bd + j)] = v;
                }
        }
    for (int p = 0; p < nnzb; p++)
        colind[p] += c->base;
    /* B (k x n, or n x k for transB T) and C (m x n) with padding rows. */
    const int64_t brows = c->transb ? n : k, bcols = c->transb ? k : n;
    const int64_t ldb = brows + 2, ldc = m + 3;
    const size_t blen = (size_t)(ldb * bcols), clen = (size_t)(ldc * n);
    void *hb = malloc(blen * es), *hc = malloc(clen * es);
    assert_non_null(hb);
    assert_non_null(hc);
    for (size_t i = 0; i < blen; i++)
        su_put(hb, i, rnd(&s, dbl), dbl);
    for (size_t i = 0; i < clen; i++)
        su_put(hc, i, c->beta0 && (int64_t)(i % (size_t)ldc) < m ? NAN : rnd(&s, dbl), dbl);
    const double alpha = dbl ? 1.25 : (double)1.25f, beta = c->beta0 ? 0.0 : -0.75;
    void *d_val = su_dev_put(val, (size_t)nnzb * bb * es + 1);
    void *d_row = su_dev_put(rowptr, ((size_t)mb + 1) * 4),
         *d_col = su_dev_put(colind, (size_t)nnzb * 4 + 1);
    void *d_b = su_dev_put(hb, blen * es), *d_c = su_dev_put(hc, clen * es);
    trnsparseMatDescr_t descr;
    assert_int_equal(trnsparseCreateMatDescr(&descr), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSetMatIndexBase(descr, c->base ? TRNSPARSE_INDEX_BASE_ONE
                                                             : TRNSPARSE_INDEX_BASE_ZERO),
                     TRNSPARSE_STATUS_SUCCESS);
    const trnsparseDirection_t dir =
        c->rowdir ? TRNSPARSE_DIRECTION_ROW : TRNSPARSE_DIRECTION_COLUMN;
    const trnsparseOperation_t N = TRNSPARSE_OPERATION_NON_TRANSPOSE,
                               tb = c->transb ? TRNSPARSE_OPERATION_TRANSPOSE : N;
    const float af = (float)alpha, bf = (float)beta;
    trnsparseStatus_t st;
    if (c->mm)
        st = dbl ? trnsparseDbsrmm(h, dir, N, tb, mb, (int)n, kb, nnzb, &alpha, descr, d_val, d_row,
                                   d_col, bd, d_b, (int)ldb, &beta, d_c, (int)ldc)
                 : trnsparseSbsrmm(h, dir, N, tb, mb, (int)n, kb, nnzb, &af, descr, d_val, d_row,
                                   d_col, bd, d_b, (int)ldb, &bf, d_c, (int)ldc);
    else /* x is B's first column, y C's */
        st = dbl ? trnsparseDbsrmv(h, dir, N, mb, kb, nnzb, &alpha, descr, d_val, d_row, d_col, bd,
                                   d_b, &beta, d_c)
                 : trnsparseSbsrmv(h, dir, N, mb, kb, nnzb, &af, descr, d_val, d_row, d_col, bd,
                                   d_b, &bf, d_c);
    if (st != TRNSPARSE_STATUS_SUCCESS)
        fail_msg("%s: %s", c->mm ? "bsrmm" : "bsrmv", trnsciGetLastErrorMessage());
    void *out = su_dev_get(d_c, clen * es);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < ldc; i++) {
            const size_t at = (size_t)(i + j * ldc);
            const long double got = su_get(out, at, dbl);
            if (i >= m || !c->mm) {
                /* Padding (and bsrmv's y beyond m) is unchanged. */
                if (i >= m && memcmp((char *)out + at * es, (char *)hc + at * es, es) != 0)
                    fail_msg("C padding (%lld, %lld) was written", (long long)i, (long long)j);
                if (i >= m)
                    continue;
            }
            long double sum = 0, mag = 0;
            for (int64_t l = 0; l < k; l++) {
                const long double a = dense[(size_t)i * (size_t)k + (size_t)l];
                const long double b =
                    su_get(hb, (size_t)(c->transb ? j + l * ldb : l + j * ldb), dbl);
                sum += a * b;
                mag += fabsl(a * b);
            }
            const long double c0 = c->beta0 ? 0 : su_get(hc, at, dbl);
            const long double want = alpha * sum + beta * c0;
            const long double bound =
                su_gamma(dbl, (long double)k + 2) * (fabsl(alpha) * mag + fabsl(beta * c0));
            const long double err = fabsl(got - want);
            if (bound > 0 && err / bound > worst[dbl])
                worst[dbl] = (double)(err / bound);
            if (!(err <= bound) && !(err == 0))
                fail_msg("%s (%s, base %d, bd %d, %s) y[%lld, %lld] = %.17Lg, reference %.17Lg, "
                         "error %.3Lg > %.3Lg",
                         c->mm ? "bsrmm" : "bsrmv", dbl ? "D" : "S", c->base, bd,
                         c->rowdir ? "row" : "column", (long long)i, (long long)j, got, want, err,
                         bound);
        }
    trnsparseDestroyMatDescr(descr);
    free(out);
    trnsciFree(d_val);
    trnsciFree(d_row);
    trnsciFree(d_col);
    trnsciFree(d_b);
    trnsciFree(d_c);
    free(rowptr);
    free(colind);
    free(dense);
    free(val);
    free(hb);
    free(hc);
}

static void test_bsr(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    uint64_t seed = 5;
    for (int mm = 0; mm < 2; mm++)
        for (int dbl = 0; dbl < 2; dbl++)
            for (int base = 0; base < 2; base++)
                for (int rowdir = 0; rowdir < 2; rowdir++)
                    for (int v = 0; v < 2; v++) {
                        const bsr_case c = {dbl, base, v ? 2 : 3, rowdir, mm, mm && v, v, 7, 5, 4};
                        run_case(h, &c, seed++);
                    }
    printf("    worst error / bound: S %.3g, D %.3g\n", worst[0], worst[1]);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

static void test_errors(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    trnsparseMatDescr_t descr;
    assert_int_equal(trnsparseCreateMatDescr(&descr), TRNSPARSE_STATUS_SUCCESS);
    /* One 2 x 2 block [1 2; 3 4] (row storage), x = (1, 1): y = (3, 7). */
    const int rp[2] = {0, 1}, ci[1] = {0};
    const double v[4] = {1, 2, 3, 4}, x[2] = {1, 1};
    void *d_rp = su_dev_put(rp, sizeof(rp)), *d_ci = su_dev_put(ci, sizeof(ci));
    void *d_v = su_dev_put(v, sizeof(v)), *d_x = su_dev_put(x, sizeof(x));
    double *d_y = NULL;
    assert_int_equal(trnsciMalloc((void **)&d_y, 64), trnsciSuccess);
    const double one = 1, zero = 0;
    const trnsparseOperation_t N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
    const trnsparseDirection_t R = TRNSPARSE_DIRECTION_ROW;
    assert_int_equal(trnsparseDbsrmv(h, R, TRNSPARSE_OPERATION_TRANSPOSE, 1, 1, 1, &one, descr, d_v,
                                     d_rp, d_ci, 2, d_x, &zero, d_y),
                     TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("transA");
    assert_int_equal(
        trnsparseDbsrmv(h, R, N, 1, 1, 1, &one, descr, d_v, d_rp, d_ci, 0, d_x, &zero, d_y),
        TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("blockDim=0");
    assert_int_equal(trnsparseDbsrmv(h, (trnsparseDirection_t)7, N, 1, 1, 1, &one, descr, d_v, d_rp,
                                     d_ci, 2, d_x, &zero, d_y),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("dirA");
    assert_int_equal(
        trnsparseDbsrmv(h, R, N, 1, 1, 1, NULL, descr, d_v, d_rp, d_ci, 2, d_x, &zero, d_y),
        TRNSPARSE_STATUS_INVALID_VALUE);
    assert_int_equal(
        trnsparseDbsrmv(NULL, R, N, 1, 1, 1, &one, descr, d_v, d_rp, d_ci, 2, d_x, &zero, d_y),
        TRNSPARSE_STATUS_NOT_INITIALIZED);
    assert_int_equal(trnsparseDbsrmm(h, R, N, N, 1, 1, 1, 1, &one, descr, d_v, d_rp, d_ci, 1, d_x,
                                     1, &zero, d_y, 1),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("blockDim=1 must be >= 2");
    assert_int_equal(trnsparseDbsrmm(h, R, N, N, 1, 1, 1, 1, &one, descr, d_v, d_rp, d_ci, 2, d_x,
                                     1, &zero, d_y, 2),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("ldb=1");
    /* x past its allocation (the daemon's SpMV rule). */
    assert_int_equal(trnsparseDbsrmv(h, R, N, 1, 1, 1, &one, descr, d_v, d_rp, d_ci, 2,
                                     (double *)d_x + 1, &zero, d_y),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    /* Still serving. */
    assert_int_equal(
        trnsparseDbsrmv(h, R, N, 1, 1, 1, &one, descr, d_v, d_rp, d_ci, 2, d_x, &zero, d_y),
        TRNSPARSE_STATUS_SUCCESS);
    double y[2];
    assert_int_equal(trnsciMemcpy(y, d_y, sizeof(y), trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_true(y[0] == 3 && y[1] == 7);
    trnsparseDestroyMatDescr(descr);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

int main(void) {
    if (su_start_daemons(&one_core, NULL) != 0)
        return 1;
    local_t.addr = one_core.unix_addr;
    grpc_t.addr = one_core.tcp_addr;
    const struct CMUnitTest tests[] = {
        SU_ON(test_bsr, local),
        SU_ON(test_bsr, grpc),
        SU_ON(test_errors, local),
        SU_ON(test_errors, grpc),
    };
    int failed = cmocka_run_group_tests_name("sparse_legacy", tests, NULL, NULL);
    failed += th_daemon_stop_checked(&one_core, "trnscid --cores 2");
    return failed ? 1 : 0;
}
