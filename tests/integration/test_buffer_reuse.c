/*
 * test_buffer_reuse.c — kept blocks (daemon/session.h): the memory of a
 * session's freed device buffers kept for its next allocation of the same
 * size.
 *
 * Over the local transport and gRPC, against a daemon with executors and a
 * 4 MiB session quota:
 *  - a freed 1 MiB buffer leaves the session's bytes and buffers but stays
 *    in the daemon's held bytes (and trnscid_buffer_kept_bytes); the next 1 MiB allocation takes it
 * (held bytes do not grow) and reads back zero-filled, as every allocation, both through
 * trnsciMemcpy and in a kernel (a DGEMM with beta = 1 into it, exact on small integers);
 *  - blocks under 256 KiB are not kept; at most 4 are, the oldest released
 *    first; an allocation that the kept blocks would push over the quota
 *    releases them and succeeds;
 *  - another session never gets a block this one kept (a child process
 *    allocating the same size makes the held bytes grow, and reads zeros);
 *  - a block not reused for a second is released while the session stays
 *    open, and the session's end releases what it kept (the daemon goes
 *    idle).
 *
 * Client processes are this binary re-executed (gRPC is not fork-safe).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "trnsci/trnblas.h"
#include "trnsci/trnsci.h"

#define KIB ((size_t)1 << 10)
#define MIB ((size_t)1 << 20)

static th_daemon daemon_under_test;
static int metrics_port;
static const char *addr; /* the transport of the current test */

/* Status and sessions are asked over the local socket, where this user sees
 * every session (over TCP without a token it would see none). */
static const char *status_addr;

static uint64_t held_bytes(void) {
    trnsciDaemonStatus st;
    assert_int_equal(trnsciDaemonGetStatus(status_addr, &st), trnsciSuccess);
    return st.bytesHeld;
}

/* This process's session as the daemon lists it. */
static trnsciSessionInfo my_session(void) {
    trnsciSessionInfo all[16];
    int n = 0;
    assert_int_equal(trnsciDaemonGetSessions(status_addr, all, 16, &n), trnsciSuccess);
    for (int i = 0; i < n && i < 16; i++)
        if (all[i].pid == (unsigned)getpid())
            return all[i];
    fail_msg("no session of this process among %d", n);
    return all[0];
}

/* Whether `bytes` of device memory at p read back as zeros. */
static int reads_zero(const void *p, size_t bytes) {
    unsigned char *h = malloc(bytes);
    assert_non_null(h);
    assert_int_equal(trnsciMemcpy(h, p, bytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    size_t nonzero = 0;
    for (size_t i = 0; i < bytes; i++)
        nonzero += h[i] != 0;
    free(h);
    return nonzero == 0;
}

static void *alloc_filled(size_t bytes, unsigned char fill) {
    void *p = NULL;
    assert_int_equal(trnsciMalloc(&p, bytes), trnsciSuccess);
    assert_int_equal(trnsciMemset(p, fill, bytes), trnsciSuccess);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    return p;
}

static void reuse_and_zero(void **state) {
    addr = *state; /* the transport: the test's initial state */
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    const uint64_t base = held_bytes();
    trnsciFree(alloc_filled(MIB, 0x5a));
    /* Kept: not the session's any more, still the daemon's. */
    const trnsciSessionInfo s = my_session();
    assert_int_equal(s.bytes, 0);
    assert_int_equal(s.buffers, 0);
    assert_int_equal(held_bytes(), base + MIB);
    assert_true(th_metrics_sample(metrics_port, "trnscid_buffer_kept_bytes") == (double)MIB);

    void *p = NULL;
    assert_int_equal(trnsciMalloc(&p, MIB), trnsciSuccess);
    assert_int_equal(held_bytes(), base + MIB); /* the kept block, not new memory */
    assert_int_equal(my_session().bytes, MIB);
    assert_true(th_metrics_sample(metrics_port, "trnscid_buffer_kept_bytes") == 0);
    assert_true(reads_zero(p, MIB));
    trnsciFree(p);

    /* In a kernel: C = A·B + 1·C into the reused block is A·B exactly
     * (entries of A and B in [-2, 2], n = 256: sums below 2^11, exact). */
    enum { N = 256 };
    const size_t cbytes = sizeof(double) * N * N; /* 512 KiB: kept */
    double *ha = malloc(cbytes), *hc = malloc(cbytes);
    assert_non_null(ha);
    assert_non_null(hc);
    for (int i = 0; i < N * N; i++)
        ha[i] = (double)(i % 5) - 2;
    double *a = NULL;
    assert_int_equal(trnsciMalloc((void **)&a, cbytes), trnsciSuccess);
    double *c = alloc_filled(cbytes, 0x7f);
    trnsciFree(c);
    const uint64_t before = held_bytes();
    assert_int_equal(trnsciMalloc((void **)&c, cbytes), trnsciSuccess);
    assert_int_equal(held_bytes(), before); /* c took the kept block */
    assert_int_equal(trnsciMemcpy(a, ha, cbytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    const double one = 1;
    assert_int_equal(
        trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, N, N, N, &one, a, N, a, N, &one, c, N),
        TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMemcpy(hc, c, cbytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    for (int j = 0; j < N; j += 17)
        for (int i = 0; i < N; i++) {
            double ref = 0;
            for (int l = 0; l < N; l++)
                ref += ha[i + l * N] * ha[l + j * N];
            assert_true(hc[i + j * N] == ref);
        }
    trnblasDestroy(h);
    trnsciFree(a);
    trnsciFree(c);
    free(ha);
    free(hc);
    trnsciDeviceReset();
    assert_int_equal(th_wait_daemon_idle(addr, 10000), 0); /* the end released them */
}

static void limits(void **state) {
    addr = *state; /* the transport: the test's initial state */
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    const uint64_t base = held_bytes();
    trnsciFree(alloc_filled(128 * KIB, 1)); /* under the minimum: released */
    assert_int_equal(held_bytes(), base);

    void *p[5];
    for (int i = 0; i < 5; i++)
        p[i] = alloc_filled(512 * KIB, 2);
    for (int i = 0; i < 5; i++)
        trnsciFree(p[i]);
    assert_int_equal(held_bytes(), base + 4 * 512 * KIB); /* four kept */

    /* 2 MiB kept + 3 MiB > the 4 MiB quota: the kept blocks make room. */
    void *big = NULL;
    assert_int_equal(trnsciMalloc(&big, 3 * MIB), trnsciSuccess);
    assert_int_equal(held_bytes(), base + 3 * MIB);
    assert_true(reads_zero(big, 3 * MIB));
    /* Over the quota with nothing kept is still refused. */
    void *more = NULL;
    assert_int_equal(trnsciMalloc(&more, 2 * MIB), trnsciErrorMemoryAllocation);
    trnsciFree(big);
    trnsciDeviceReset();
    assert_int_equal(th_wait_daemon_idle(addr, 10000), 0);
}

static void not_across_sessions(void **state) {
    addr = *state; /* the transport: the test's initial state */
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    const uint64_t base = held_bytes();
    trnsciFree(alloc_filled(MIB, 0x33));
    assert_int_equal(held_bytes(), base + MIB);
    const pid_t kid = th_spawn_role("other", addr, -1);
    assert_true(kid > 0);
    assert_int_equal(th_wait_child(kid), 0);
    assert_int_equal(held_bytes(), base + MIB); /* still ours, after the child's end */
    /* Unused for TRN_KEPT_AGE_MS (1 s), it is released within about 2 s
     * while the session stays open. */
    uint64_t held = 0;
    for (int waited = 0; waited < 5000 && (held = held_bytes()) != base; waited += 50)
        th_sleep_ms(50);
    assert_int_equal(held, base);
    trnsciDeviceReset();
    assert_int_equal(th_wait_daemon_idle(addr, 10000), 0);
}

/* The child: its 1 MiB is new memory (held bytes grow) and zero. */
static int other_session(const char *at, const char *local) {
    addr = at;
    status_addr = local;
    if (trnsciInit(at) != trnsciSuccess)
        return 2;
    const uint64_t base = held_bytes();
    void *p = NULL;
    if (trnsciMalloc(&p, MIB) != trnsciSuccess)
        return 3;
    const int fresh = held_bytes() == base + MIB;
    const int zero = reads_zero(p, MIB);
    trnsciFree(p);
    trnsciDeviceReset();
    return fresh && zero ? 0 : 4;
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "--role") == 0 && strcmp(argv[2], "other") == 0)
        return other_session(argv[3], getenv("TRN_TEST_STATUS_ADDR"));
    metrics_port = th_free_port();
    char metrics[64];
    snprintf(metrics, sizeof(metrics), "127.0.0.1:%d", metrics_port);
    const char *const args[] = {
        "--executors", "on", "--max-session-bytes", "4194304", "--metrics-listen", metrics, NULL};
    if (th_daemon_start(&daemon_under_test, args) != 0) {
        fprintf(stderr, "daemon did not start\n");
        return 1;
    }
    status_addr = daemon_under_test.unix_addr;
    setenv("TRN_TEST_STATUS_ADDR", status_addr, 1); /* for the child */
    /* Each check over both transports: the address is the test's state. */
    char *const local = daemon_under_test.unix_addr, *const grpc = daemon_under_test.tcp_addr;
    const struct CMUnitTest tests[] = {
        {"local_reuse", reuse_and_zero, NULL, NULL, local},
        {"grpc_reuse", reuse_and_zero, NULL, NULL, grpc},
        {"local_limits", limits, NULL, NULL, local},
        {"grpc_limits", limits, NULL, NULL, grpc},
        {"local_sessions", not_across_sessions, NULL, NULL, local},
        {"grpc_sessions", not_across_sessions, NULL, NULL, grpc},
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    failed += th_daemon_stop_checked(&daemon_under_test, "trnscid");
    return failed;
}
