/*
 * test_sparse_sort.c — cuSPARSE's sorting helpers (client/sparse_sort.c),
 * over the local socket and TCP. The expected order is built first and the
 * input made from it by a known shuffle, so the reference does not sort:
 *   - XcoosortByRow: entries generated in (row, column) order, shuffled;
 *     the sort gives them back, and P (from CreateIdentityPermutation)
 *     gives the inverse of the shuffle;
 *   - XcoosortByColumn: the same in (column, row) order;
 *   - Xcsrsort / Xcscsort: each row's (column's) indices shuffled within it,
 *     0- and 1-based;
 *   - bad sizes and pointer arrays: INVALID_VALUE, arrays untouched.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "trnsci/trnsparse.h"

static th_daemon daemon_under_test;

static unsigned next(unsigned *s) {
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

static int *dev_ints(const int *h, int n) {
    int *d = NULL;
    assert_int_equal(trnsciMalloc((void **)&d, (size_t)(n > 0 ? n : 1) * sizeof(int)),
                     trnsciSuccess);
    if (h && n > 0)
        assert_int_equal(trnsciMemcpy(d, h, (size_t)n * sizeof(int), trnsciMemcpyHostToDevice),
                         trnsciSuccess);
    return d;
}

static int *host_ints(const int *d, int n) {
    int *h = malloc((size_t)n * sizeof(int));
    assert_non_null(h);
    assert_int_equal(trnsciMemcpy(h, d, (size_t)n * sizeof(int), trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    return h;
}

/* A random permutation of 0..n-1 (Fisher-Yates). */
static int *shuffle(int n, unsigned seed) {
    int *p = malloc((size_t)n * sizeof(int));
    assert_non_null(p);
    for (int i = 0; i < n; i++)
        p[i] = i;
    for (int i = n - 1; i > 0; i--) {
        const int j = (int)(next(&seed) % (unsigned)(i + 1)), t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
    return p;
}

/* COO entries of an m x n pattern (about a third of the places) in major
 * order: by row when by_row, else by column. Returns nnz. */
static int pattern(int m, int n, int by_row, unsigned seed, int *rows, int *cols) {
    int nnz = 0;
    for (int a = 0; a < (by_row ? m : n); a++)
        for (int b = 0; b < (by_row ? n : m); b++)
            if (next(&seed) % 3 == 0) {
                rows[nnz] = by_row ? a : b;
                cols[nnz] = by_row ? b : a;
                nnz++;
            }
    return nnz;
}

static void coo_case(trnsparseHandle_t h, int by_row) {
    enum { M = 23, N = 17 };
    int rows[M * N], cols[M * N];
    const int nnz = pattern(M, N, by_row, by_row ? 7u : 9u, rows, cols);
    int *s = shuffle(nnz, 11u + (unsigned)by_row), *in_r = malloc(nnz * sizeof(int)),
        *in_c = malloc(nnz * sizeof(int));
    for (int i = 0; i < nnz; i++) { /* input entry i is sorted entry s[i] */
        in_r[i] = rows[s[i]];
        in_c[i] = cols[s[i]];
    }
    int *dr = dev_ints(in_r, nnz), *dc = dev_ints(in_c, nnz), *dp = dev_ints(NULL, nnz);
    assert_int_equal(trnsparseCreateIdentityPermutation(h, nnz, dp), TRNSPARSE_STATUS_SUCCESS);
    size_t bytes = 99;
    assert_int_equal(trnsparseXcoosort_bufferSizeExt(h, M, N, nnz, dr, dc, &bytes),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(bytes, 0);
    assert_int_equal(by_row ? trnsparseXcoosortByRow(h, M, N, nnz, dr, dc, dp, NULL)
                            : trnsparseXcoosortByColumn(h, M, N, nnz, dr, dc, dp, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    int *gr = host_ints(dr, nnz), *gc = host_ints(dc, nnz), *gp = host_ints(dp, nnz);
    assert_memory_equal(gr, rows, (size_t)nnz * sizeof(int));
    assert_memory_equal(gc, cols, (size_t)nnz * sizeof(int));
    for (int i = 0; i < nnz; i++) /* sorted entry s[k] came from input k */
        assert_int_equal(s[gp[i]], i);
    free(s), free(in_r), free(in_c), free(gr), free(gc), free(gp);
    trnsciFree(dr), trnsciFree(dc), trnsciFree(dp);
}

static void test_coosort(void **state) {
    (void)state;
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    coo_case(h, 1);
    coo_case(h, 0);
    assert_int_equal(trnsparseDestroy(h), TRNSPARSE_STATUS_SUCCESS);
}

/* CSR (csc = 0) or CSC: the inner indices of each outer line shuffled. */
static void compressed_case(trnsparseHandle_t h, int csc, int base) {
    enum { M = 19, N = 21 };
    int rows[M * N], cols[M * N];
    const int nnz = pattern(M, N, !csc, 5u + (unsigned)base, rows, cols);
    const int outer = csc ? N : M;
    int ptr[N + 1] = {0};
    for (int k = 0; k < nnz; k++)
        ptr[(csc ? cols[k] : rows[k]) + 1]++;
    for (int r = 0; r < outer; r++)
        ptr[r + 1] += ptr[r];
    int *inner = csc ? rows : cols, *in = malloc(nnz * sizeof(int)),
        *from = malloc(nnz * sizeof(int));
    for (int r = 0; r < outer; r++) { /* shuffle within the line */
        const int len = ptr[r + 1] - ptr[r];
        int *s = shuffle(len > 0 ? len : 1, 31u + (unsigned)r);
        for (int k = 0; k < len; k++) {
            in[ptr[r] + k] = inner[ptr[r] + s[k]] + base;
            from[ptr[r] + k] = ptr[r] + s[k];
        }
        free(s);
    }
    int bptr[N + 1];
    for (int r = 0; r <= outer; r++)
        bptr[r] = ptr[r] + base;
    trnsparseMatDescr_t descr;
    assert_int_equal(trnsparseCreateMatDescr(&descr), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSetMatIndexBase(descr, base ? TRNSPARSE_INDEX_BASE_ONE
                                                          : TRNSPARSE_INDEX_BASE_ZERO),
                     TRNSPARSE_STATUS_SUCCESS);
    int *dptr = dev_ints(bptr, outer + 1), *din = dev_ints(in, nnz), *dp = dev_ints(NULL, nnz);
    assert_int_equal(trnsparseCreateIdentityPermutation(h, nnz, dp), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(csc ? trnsparseXcscsort(h, M, N, nnz, descr, dptr, din, dp, NULL)
                         : trnsparseXcsrsort(h, M, N, nnz, descr, dptr, din, dp, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    int *got = host_ints(din, nnz), *gp = host_ints(dp, nnz);
    for (int k = 0; k < nnz; k++) {
        assert_int_equal(got[k], inner[k] + base);
        assert_int_equal(from[gp[k]], k);
    }
    /* a pointer array that does not end at base + nnz is refused, untouched */
    bptr[outer] += 1;
    int *bad = dev_ints(bptr, outer + 1);
    assert_int_equal(csc ? trnsparseXcscsort(h, M, N, nnz, descr, bad, din, dp, NULL)
                         : trnsparseXcsrsort(h, M, N, nnz, descr, bad, din, dp, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    int *after = host_ints(din, nnz);
    assert_memory_equal(after, got, (size_t)nnz * sizeof(int));
    free(in), free(from), free(got), free(gp), free(after);
    trnsciFree(dptr), trnsciFree(din), trnsciFree(dp), trnsciFree(bad);
    assert_int_equal(trnsparseDestroyMatDescr(descr), TRNSPARSE_STATUS_SUCCESS);
}

static void test_csrsort_cscsort(void **state) {
    (void)state;
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    for (int csc = 0; csc < 2; csc++)
        for (int base = 0; base < 2; base++)
            compressed_case(h, csc, base);
    /* bad sizes */
    int x = 0;
    size_t bytes = 0;
    assert_int_equal(trnsparseXcoosort_bufferSizeExt(h, -1, 2, 0, &x, &x, &bytes),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    assert_int_equal(trnsparseXcoosortByRow(h, 2, 2, -3, &x, &x, NULL, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    assert_int_equal(trnsparseCreateIdentityPermutation(h, -1, &x), TRNSPARSE_STATUS_INVALID_VALUE);
    assert_int_equal(trnsparseDestroy(h), TRNSPARSE_STATUS_SUCCESS);
}

static int connect_unix(void **state) {
    (void)state;
    return trnsciInit(daemon_under_test.unix_addr) == trnsciSuccess ? 0 : -1;
}

static int connect_tcp(void **state) {
    (void)state;
    return trnsciInit(daemon_under_test.tcp_addr) == trnsciSuccess ? 0 : -1;
}

static int disconnect(void **state) {
    (void)state;
    trnsciDeviceReset();
    return th_wait_daemon_idle(daemon_under_test.unix_addr, 5000);
}

int main(void) {
    if (th_daemon_start(&daemon_under_test, NULL) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coosort),
        cmocka_unit_test(test_csrsort_cscsort),
    };
    int failed = cmocka_run_group_tests_name("sparse sort over unix socket", tests, connect_unix,
                                             disconnect);
    failed += cmocka_run_group_tests_name("sparse sort over tcp", tests, connect_tcp, disconnect);
    const int rc = th_daemon_stop(&daemon_under_test);
    if (rc != 0) {
        fprintf(stderr, "trnscid exited with %d (expected a clean 0)\n", rc);
        failed++;
    }
    return failed ? 1 : 0;
}
