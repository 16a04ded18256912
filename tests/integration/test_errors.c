/*
 * test_errors.c — bad input through the public API gets the CUDA-equivalent
 * status and a message naming what was wrong, and the daemon keeps serving.
 *
 * Cases (issue: foundation): negative and overflowing dimensions, lda < m, a
 * buffer too small for the op, an offset past the end, a freed buffer, a
 * pointer that was never allocated, allocation over the session quota
 * (the daemon runs with --max-session-bytes 1M), and copies past the end of
 * an allocation.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "trnsci/trnblas.h"

static th_daemon daemon_under_test;
static trnblasHandle_t handle;
static float *da, *db, *dc; /* 4×4 floats each */
static const float one = 1.0f, zero = 0.0f;

static void expect_message(const char *needle) {
    const char *msg = trnsciGetLastErrorMessage();
    if (!strstr(msg, needle))
        fail_msg("message \"%s\" does not mention \"%s\"", msg, needle);
}

static trnblasStatus_t sgemm(int m, int n, int k, const float *a, int lda, const float *b, int ldb,
                             float *c, int ldc) {
    return trnblasSgemm(handle, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &one, a, lda, b, ldb, &zero, c,
                        ldc);
}

/* A valid GEMM still works: the daemon kept serving. */
static void assert_still_serving(void) {
    assert_int_equal(sgemm(4, 4, 4, da, 4, db, 4, dc, 4), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
}

static void test_negative_dimensions(void **state) {
    (void)state;
    assert_int_equal(sgemm(-1, 4, 4, da, 4, db, 4, dc, 4), TRNBLAS_STATUS_INVALID_VALUE);
    expect_message("m=-1");
    assert_int_equal(sgemm(4, 4, INT_MIN, da, 4, db, 4, dc, 4), TRNBLAS_STATUS_INVALID_VALUE);
    expect_message("k=");
    assert_still_serving();
}

static void test_overflowing_dimensions(void **state) {
    (void)state;
    /* (n-1)*ldc + m elements of 4 bytes do not fit any buffer: validation
     * must reject the extent without overflowing. */
    assert_int_equal(sgemm(INT_MAX, INT_MAX, INT_MAX, da, INT_MAX, db, INT_MAX, dc, INT_MAX),
                     TRNBLAS_STATUS_INVALID_VALUE);
    expect_message("gemm: A");
    assert_still_serving();
}

static void test_leading_dimension(void **state) {
    (void)state;
    assert_int_equal(sgemm(4, 4, 4, da, 3, db, 4, dc, 4), TRNBLAS_STATUS_INVALID_VALUE);
    expect_message("lda=3");
    assert_int_equal(sgemm(4, 4, 4, da, 4, db, 2, dc, 4), TRNBLAS_STATUS_INVALID_VALUE);
    expect_message("ldb=2");
    assert_int_equal(sgemm(4, 4, 4, da, 4, db, 4, dc, 0), TRNBLAS_STATUS_INVALID_VALUE);
    expect_message("ldc=0");
    assert_still_serving();
}

static void test_buffer_too_small(void **state) {
    (void)state;
    /* 5×4 C with ldc 5 needs 20 floats; dc holds 16. */
    assert_int_equal(sgemm(5, 4, 4, da, 5, db, 4, dc, 5), TRNBLAS_STATUS_INVALID_VALUE);
    expect_message("gemm: A");
    assert_int_equal(sgemm(4, 5, 4, da, 4, db, 4, dc, 4), TRNBLAS_STATUS_INVALID_VALUE);
    expect_message("gemm: B");
    assert_still_serving();
}

static void test_offset_past_end(void **state) {
    (void)state;
    /* A 2×2 C starting at element 14 of a 16-element buffer needs elements
     * 14..17: two past the end. */
    assert_int_equal(sgemm(2, 2, 2, da, 2, db, 2, dc + 14, 2), TRNBLAS_STATUS_INVALID_VALUE);
    expect_message("gemm: C");
    /* A pointer one past the end belongs to no allocation. */
    assert_int_equal(sgemm(1, 1, 1, da, 1, db, 1, dc + 16, 1), TRNBLAS_STATUS_INVALID_VALUE);
    expect_message("not a trnsci device pointer");
    assert_still_serving();
}

static void test_unknown_and_freed_pointers(void **state) {
    (void)state;
    float host[16] = {0};
    assert_int_equal(sgemm(4, 4, 4, host, 4, db, 4, dc, 4), TRNBLAS_STATUS_INVALID_VALUE);
    expect_message("gemm: A");
    float *tmp;
    assert_int_equal(trnsciMalloc((void **)&tmp, 64), trnsciSuccess);
    assert_int_equal(trnsciFree(tmp), trnsciSuccess);
    assert_int_equal(sgemm(4, 4, 4, da, 4, tmp, 4, dc, 4), TRNBLAS_STATUS_INVALID_VALUE);
    expect_message("already freed");
    assert_int_equal(trnsciFree(tmp), trnsciErrorInvalidValue);    /* double free */
    assert_int_equal(trnsciFree(da + 1), trnsciErrorInvalidValue); /* not the start */
    assert_still_serving();
}

static void test_quota(void **state) {
    (void)state;
    void *big = NULL;
    assert_int_equal(trnsciMalloc(&big, 2u << 20), trnsciErrorMemoryAllocation);
    expect_message("quota");
    assert_null(big);
    /* Within the quota still works, and freeing returns the bytes. */
    void *p, *q;
    assert_int_equal(trnsciMalloc(&p, 600u << 10), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&q, 600u << 10), trnsciErrorMemoryAllocation);
    assert_int_equal(trnsciFree(p), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&q, 600u << 10), trnsciSuccess);
    assert_int_equal(trnsciFree(q), trnsciSuccess);
    assert_still_serving();
}

static void test_memcpy_bounds(void **state) {
    (void)state;
    float host[32] = {0};
    assert_int_equal(trnsciMemcpy(dc, host, sizeof(host), trnsciMemcpyHostToDevice),
                     trnsciErrorInvalidValue);
    expect_message("run past the end");
    assert_int_equal(trnsciMemcpy(host, dc + 8, 9 * sizeof(float), trnsciMemcpyDeviceToHost),
                     trnsciErrorInvalidValue);
    assert_int_equal(trnsciMemcpy(host, host + 1, 4, (trnsciMemcpyKind)42),
                     trnsciErrorInvalidMemcpyDirection);
    assert_int_equal(trnsciMemset(dc + 4, 0, 16 * sizeof(float)), trnsciErrorInvalidValue);
    assert_int_equal(
        trnblasSgemm(handle, TRNBLAS_OP_N, TRNBLAS_OP_N, 4, 4, 4, NULL, da, 4, db, 4, &zero, dc, 4),
        TRNBLAS_STATUS_INVALID_VALUE);
    assert_still_serving();
}

static void test_error_strings(void **state) {
    (void)state;
    assert_string_equal(trnsciGetErrorName(trnsciErrorInvalidValue), "trnsciErrorInvalidValue");
    assert_string_equal(trnblasGetStatusName(TRNBLAS_STATUS_INVALID_VALUE),
                        "TRNBLAS_STATUS_INVALID_VALUE");
    assert_non_null(trnsciGetErrorString((trnsciError_t)12345));
    /* The last error is sticky until read, as in CUDA. */
    assert_int_equal(trnsciFree((void *)0x10), trnsciErrorInvalidValue);
    assert_int_equal(trnsciPeekAtLastError(), trnsciErrorInvalidValue);
    assert_int_equal(trnsciGetLastError(), trnsciErrorInvalidValue);
    assert_int_equal(trnsciGetLastError(), trnsciSuccess);
}

static int setup(void **state) {
    (void)state;
    if (trnsciInit(daemon_under_test.unix_addr) != trnsciSuccess ||
        trnblasCreate(&handle) != TRNBLAS_STATUS_SUCCESS)
        return -1;
    const float init[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    if (trnsciMalloc((void **)&da, sizeof(init)) || trnsciMalloc((void **)&db, sizeof(init)) ||
        trnsciMalloc((void **)&dc, sizeof(init)))
        return -1;
    return trnsciMemcpy(da, init, sizeof(init), trnsciMemcpyHostToDevice) ||
           trnsciMemcpy(db, init, sizeof(init), trnsciMemcpyHostToDevice);
}

static int teardown(void **state) {
    (void)state;
    trnsciFree(da);
    trnsciFree(db);
    trnsciFree(dc);
    trnblasDestroy(handle);
    trnsciDeviceReset();
    return th_wait_daemon_idle(daemon_under_test.unix_addr, 5000);
}

int main(void) {
    const char *const args[] = {"--max-session-bytes", "1M", NULL};
    if (th_daemon_start(&daemon_under_test, args) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_negative_dimensions),
        cmocka_unit_test(test_overflowing_dimensions),
        cmocka_unit_test(test_leading_dimension),
        cmocka_unit_test(test_buffer_too_small),
        cmocka_unit_test(test_offset_past_end),
        cmocka_unit_test(test_unknown_and_freed_pointers),
        cmocka_unit_test(test_quota),
        cmocka_unit_test(test_memcpy_bounds),
        cmocka_unit_test(test_error_strings),
    };
    int failed = cmocka_run_group_tests_name("bad input", tests, setup, teardown);
    const int rc = th_daemon_stop(&daemon_under_test);
    if (rc != 0) {
        fprintf(stderr, "trnscid exited with %d (expected a clean 0)\n", rc);
        failed++;
    }
    return failed ? 1 : 0;
}
