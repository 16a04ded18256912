/*
 * test_blas_helpers.c — trnblas's helper functions (cuBLAS's
 * cublasSetMatrix, GetMatrix, SetVector, GetVector and their Async forms,
 * SetWorkspace, Get/SetAtomicsMode, GetProperty) through a real trnscid,
 * over the unix socket (device memory mapped into this process) and over
 * TCP (copies as requests).
 *
 * The copies are exact: every element copied must equal its source
 * bitwise, and every byte of the destination allocation that is not an
 * element of the destination (the rows between ldb and rows, the gaps of a
 * strided vector, the padding around it) must come back as it was. Shapes
 * cover lda = ldb = rows (one contiguous copy), lda != ldb, element sizes
 * 1, 4, 8 and 16, increments 1 and > 1, and the empty shapes. The Async
 * forms run on a created stream and are read after trnsciStreamSynchronize.
 * Bad input: each cuBLAS INVALID_VALUE case (rows or cols < 0, elemSize,
 * lda, ldb, incx or incy <= 0) and MAPPING_ERROR for a device operand that
 * is not inside an allocation or runs past it.
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
#include "trnsci/trnblas.h"

static th_daemon daemon_under_test;

static void fill(unsigned char *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)((i * 131u + seed * 17u + (i >> 8)) & 0xffu);
}

/* Set then Get an m x n matrix of element size es with the given leading
 * dimensions (host lda, device ldd, host ldb for the way back), sync or
 * async. */
static void matrix_round_trip(int rows, int cols, int es, int lda, int ldd, int ldb, int async) {
    trnsciStream_t s = NULL;
    if (async)
        assert_int_equal(trnsciStreamCreate(&s), trnsciSuccess);
    const size_t pad = 3 * (size_t)es;
    const size_t hbytes = (size_t)lda * (size_t)(cols > 0 ? cols : 1) * (size_t)es;
    const size_t dbytes = pad + (size_t)ldd * (size_t)(cols > 0 ? cols : 1) * (size_t)es + pad;
    const size_t bbytes = (size_t)ldb * (size_t)(cols > 0 ? cols : 1) * (size_t)es;
    unsigned char *a = malloc(hbytes), *d0 = malloc(dbytes), *dg = malloc(dbytes),
                  *b = malloc(bbytes), *b0 = malloc(bbytes);
    assert_non_null(a);
    assert_non_null(d0);
    assert_non_null(dg);
    assert_non_null(b);
    assert_non_null(b0);
    fill(a, hbytes, 1);
    fill(d0, dbytes, 2);
    fill(b, bbytes, 3);
    memcpy(b0, b, bbytes);
    void *dev;
    assert_int_equal(trnsciMalloc(&dev, dbytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dev, d0, dbytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    unsigned char *B = (unsigned char *)dev + pad;
    trnblasStatus_t st = async ? trnblasSetMatrixAsync(rows, cols, es, a, lda, B, ldd, s)
                               : trnblasSetMatrix(rows, cols, es, a, lda, B, ldd);
    assert_int_equal(st, TRNBLAS_STATUS_SUCCESS);
    st = async ? trnblasGetMatrixAsync(rows, cols, es, B, ldd, b, ldb, s)
               : trnblasGetMatrix(rows, cols, es, B, ldd, b, ldb);
    assert_int_equal(st, TRNBLAS_STATUS_SUCCESS);
    if (async)
        assert_int_equal(trnsciStreamSynchronize(s), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dg, dev, dbytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    /* The device allocation: the matrix where it belongs, the rest as it was. */
    unsigned char *want = malloc(dbytes), *wantb = malloc(bbytes);
    assert_non_null(want);
    assert_non_null(wantb);
    memcpy(want, d0, dbytes);
    memcpy(wantb, b0, bbytes);
    for (int j = 0; j < cols; j++) {
        memcpy(want + pad + (size_t)j * ldd * es, a + (size_t)j * lda * es, (size_t)rows * es);
        memcpy(wantb + (size_t)j * ldb * es, a + (size_t)j * lda * es, (size_t)rows * es);
    }
    if (memcmp(dg, want, dbytes) != 0)
        fail_msg("SetMatrix%s rows=%d cols=%d es=%d lda=%d ldb=%d: device bytes differ",
                 async ? "Async" : "", rows, cols, es, lda, ldd);
    if (memcmp(b, wantb, bbytes) != 0)
        fail_msg("GetMatrix%s rows=%d cols=%d es=%d lda=%d ldb=%d: host bytes differ",
                 async ? "Async" : "", rows, cols, es, ldd, ldb);
    free(want);
    free(wantb);
    free(a);
    free(d0);
    free(dg);
    free(b);
    free(b0);
    assert_int_equal(trnsciFree(dev), trnsciSuccess);
    if (async)
        assert_int_equal(trnsciStreamDestroy(s), trnsciSuccess);
}

static void vector_round_trip(int n, int es, int incx, int incd, int incy, int async) {
    trnsciStream_t s = NULL;
    if (async)
        assert_int_equal(trnsciStreamCreate(&s), trnsciSuccess);
    const size_t pad = 2 * (size_t)es, len = n > 0 ? (size_t)n : 1;
    const size_t xbytes = len * (size_t)incx * (size_t)es;
    const size_t dbytes = pad + len * (size_t)incd * (size_t)es + pad;
    const size_t ybytes = len * (size_t)incy * (size_t)es;
    unsigned char *x = malloc(xbytes), *d0 = malloc(dbytes), *dg = malloc(dbytes),
                  *y = malloc(ybytes), *want = malloc(dbytes), *wanty = malloc(ybytes);
    assert_true(x && d0 && dg && y && want && wanty);
    fill(x, xbytes, 4);
    fill(d0, dbytes, 5);
    fill(y, ybytes, 6);
    memcpy(want, d0, dbytes);
    memcpy(wanty, y, ybytes);
    for (int i = 0; i < n; i++) {
        memcpy(want + pad + (size_t)i * incd * es, x + (size_t)i * incx * es, (size_t)es);
        memcpy(wanty + (size_t)i * incy * es, x + (size_t)i * incx * es, (size_t)es);
    }
    void *dev;
    assert_int_equal(trnsciMalloc(&dev, dbytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dev, d0, dbytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    unsigned char *D = (unsigned char *)dev + pad;
    trnblasStatus_t st = async ? trnblasSetVectorAsync(n, es, x, incx, D, incd, s)
                               : trnblasSetVector(n, es, x, incx, D, incd);
    assert_int_equal(st, TRNBLAS_STATUS_SUCCESS);
    st = async ? trnblasGetVectorAsync(n, es, D, incd, y, incy, s)
               : trnblasGetVector(n, es, D, incd, y, incy);
    assert_int_equal(st, TRNBLAS_STATUS_SUCCESS);
    if (async)
        assert_int_equal(trnsciStreamSynchronize(s), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dg, dev, dbytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    if (memcmp(dg, want, dbytes) != 0)
        fail_msg("SetVector%s n=%d es=%d incx=%d incy=%d: device bytes differ",
                 async ? "Async" : "", n, es, incx, incd);
    if (memcmp(y, wanty, ybytes) != 0)
        fail_msg("GetVector%s n=%d es=%d incx=%d incy=%d: host bytes differ", async ? "Async" : "",
                 n, es, incd, incy);
    free(x);
    free(d0);
    free(dg);
    free(y);
    free(want);
    free(wanty);
    assert_int_equal(trnsciFree(dev), trnsciSuccess);
    if (async)
        assert_int_equal(trnsciStreamDestroy(s), trnsciSuccess);
}

static void test_matrices(void **state) {
    (void)state;
    static const int shapes[][6] = {
        /* rows, cols, es, lda, ldd, ldb */
        {5, 4, 4, 5, 5, 5}, {5, 4, 8, 7, 5, 6},      {7, 3, 16, 7, 9, 8},
        {1, 9, 4, 1, 3, 2}, {33, 17, 8, 40, 33, 35}, {3, 2, 1, 3, 5, 4},
        {0, 4, 8, 1, 1, 1}, {4, 0, 8, 4, 4, 4},      {64, 64, 4, 64, 64, 64},
    };
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
        for (int async = 0; async < 2; async++)
            matrix_round_trip(shapes[i][0], shapes[i][1], shapes[i][2], shapes[i][3], shapes[i][4],
                              shapes[i][5], async);
}

static void test_vectors(void **state) {
    (void)state;
    static const int shapes[][5] = {
        /* n, es, incx, incd, incy */
        {10, 4, 1, 1, 1}, {10, 8, 2, 3, 1},  {7, 16, 1, 2, 3}, {1, 8, 5, 7, 9},
        {0, 8, 1, 1, 1},  {100, 1, 3, 1, 2}, {-3, 4, 1, 1, 1},
    };
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
        for (int async = 0; async < 2; async++)
            vector_round_trip(shapes[i][0], shapes[i][1], shapes[i][2], shapes[i][3], shapes[i][4],
                              async);
}

static void test_bad_input(void **state) {
    (void)state;
    float host[64] = {0};
    void *dev;
    assert_int_equal(trnsciMalloc(&dev, 64 * sizeof(float)), trnsciSuccess);
    const trnblasStatus_t inv = TRNBLAS_STATUS_INVALID_VALUE;
    assert_int_equal(trnblasSetMatrix(-1, 2, 4, host, 1, dev, 1), inv);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "trnblasSetMatrix: rows=-1"));
    assert_int_equal(trnblasSetMatrix(2, -1, 4, host, 2, dev, 2), inv);
    assert_int_equal(trnblasSetMatrix(2, 2, 0, host, 2, dev, 2), inv);
    assert_int_equal(trnblasGetMatrix(2, 2, 4, dev, 0, host, 2), inv);
    assert_int_equal(trnblasGetMatrix(2, 2, 4, dev, 2, host, 0), inv);
    assert_int_equal(trnblasSetMatrixAsync(2, 2, -4, host, 2, dev, 2, NULL), inv);
    assert_int_equal(trnblasSetVector(4, 4, host, 0, dev, 1), inv);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "incx=0"));
    assert_int_equal(trnblasSetVector(4, 4, host, 1, dev, -1), inv);
    assert_int_equal(trnblasGetVector(4, 0, dev, 1, host, 1), inv);
    assert_int_equal(trnblasGetVectorAsync(4, 4, dev, 1, host, 0, NULL), inv);
    /* Device operands outside any allocation, or past the end of one. */
    const trnblasStatus_t map = TRNBLAS_STATUS_MAPPING_ERROR;
    assert_int_equal(trnblasSetMatrix(2, 2, 4, host, 2, host + 8, 2), map);
    assert_int_equal(trnblasSetMatrix(8, 9, 4, host, 8, dev, 8), map); /* 72 floats > 64 */
    assert_int_equal(trnblasGetMatrix(8, 8, 4, (float *)dev + 1, 8, host, 8), map);
    assert_int_equal(trnblasSetVector(33, 4, host, 1, dev, 2), map);
    assert_int_equal(trnblasGetVectorAsync(2, 4, host, 1, host + 4, 1, NULL), map);
    assert_int_equal(trnsciFree(dev), trnsciSuccess);
}

static void test_handle_settings(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    trnblasAtomicsMode_t m = TRNBLAS_ATOMICS_ALLOWED;
    assert_int_equal(trnblasGetAtomicsMode(h, &m), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(m, TRNBLAS_ATOMICS_NOT_ALLOWED); /* cuBLAS's default */
    assert_int_equal(trnblasSetAtomicsMode(h, TRNBLAS_ATOMICS_ALLOWED), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasGetAtomicsMode(h, &m), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(m, TRNBLAS_ATOMICS_ALLOWED);
    assert_int_equal(trnblasSetAtomicsMode(h, (trnblasAtomicsMode_t)2),
                     TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasGetAtomicsMode(h, NULL), TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasSetAtomicsMode(NULL, TRNBLAS_ATOMICS_ALLOWED),
                     TRNBLAS_STATUS_NOT_INITIALIZED);

    int v = -1;
    assert_int_equal(trnblasGetProperty(TRNSCI_MAJOR_VERSION, &v), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(v, TRNSCI_VERSION_MAJOR);
    assert_int_equal(trnblasGetProperty(TRNSCI_MINOR_VERSION, &v), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(v, TRNSCI_VERSION_MINOR);
    assert_int_equal(trnblasGetProperty(TRNSCI_PATCH_LEVEL, &v), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(v, TRNSCI_VERSION_PATCH);
    assert_int_equal(trnblasGetProperty((trnsciLibraryPropertyType)3, &v),
                     TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasGetProperty(TRNSCI_MAJOR_VERSION, NULL), TRNBLAS_STATUS_INVALID_VALUE);

    void *ws;
    assert_int_equal(trnsciMalloc(&ws, 4096), trnsciSuccess);
    assert_int_equal(trnblasSetWorkspace(h, ws, 4096), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSetWorkspace(h, (char *)ws + 8, 256), TRNBLAS_STATUS_INVALID_VALUE);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "256"));
    assert_int_equal(trnblasSetWorkspace(h, ws, 8192), TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasSetWorkspace(h, NULL, 0), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSetWorkspace(NULL, ws, 4096), TRNBLAS_STATUS_NOT_INITIALIZED);
    /* Routines still run with a workspace set. */
    assert_int_equal(trnblasSetWorkspace(h, ws, 4096), TRNBLAS_STATUS_SUCCESS);
    float one = 1.0f, r = 0.0f;
    float *x;
    assert_int_equal(trnsciMalloc((void **)&x, 4 * sizeof(float)), trnsciSuccess);
    const float xs[4] = {1, 2, 3, 4};
    assert_int_equal(trnblasSetVector(4, sizeof(float), xs, 1, x, 1), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSscal(h, 4, &one, x, 1), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSasum(h, 4, x, 1, &r), TRNBLAS_STATUS_SUCCESS);
    assert_true(r == 10.0f);
    assert_int_equal(trnsciFree(x), trnsciSuccess);
    assert_int_equal(trnsciFree(ws), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
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
        cmocka_unit_test(test_matrices),
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_handle_settings),
    };
    int failed = cmocka_run_group_tests_name("blas helpers over unix socket", tests, connect_unix,
                                             disconnect);
    failed += cmocka_run_group_tests_name("blas helpers over tcp", tests, connect_tcp, disconnect);
    const int rc = th_daemon_stop(&daemon_under_test);
    if (rc != 0) {
        fprintf(stderr, "trnscid exited with %d (expected a clean 0)\n", rc);
        failed++;
    }
    return failed ? 1 : 0;
}
