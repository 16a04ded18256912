/*
 * test_processes.c — many client processes against one daemon.
 *
 *  - two processes running GEMMs at the same time both get exact results;
 *  - a process killed with SIGKILL while its work is queued and running has
 *    its session, buffers and queued ops released, and another session is
 *    unaffected;
 *  - SIGTERM with a client waiting: the client is told the daemon is going
 *    away (trnsciErrorDevicesUnavailable), the running op finishes, and the
 *    daemon exits 0 (leak-free under the sanitizer build).
 *
 * gRPC is not fork-safe once initialised, so every client process is this
 * binary re-executed in a child role (th_spawn_role), never a bare fork.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "trnsci/trnblas.h"

static th_daemon daemon_under_test;

static void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* A child's work: `reps` GEMMs of small integer matrices, whose products are
 * exact in double, checked against a naive product. Returns 0 when all are
 * right. */
static int client_process(const char *addr, int seed, int reps) {
    enum { N = 48 };
    if (trnsciInit(addr) != trnsciSuccess)
        return 10;
    trnblasHandle_t h;
    trnsciStream_t s;
    if (trnblasCreate(&h) || trnsciStreamCreate(&s) || trnblasSetStream(h, s))
        return 11;
    double a[N * N], b[N * N], c[N * N], ref[N * N];
    double *da, *db, *dc;
    if (trnsciMalloc((void **)&da, sizeof(a)) || trnsciMalloc((void **)&db, sizeof(b)) ||
        trnsciMalloc((void **)&dc, sizeof(c)))
        return 12;
    const double one = 1, zero = 0;
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < N * N; i++) {
            a[i] = (double)((i * 7 + seed + r) % 13) - 6;
            b[i] = (double)((i * 5 + 3 * seed + r) % 11) - 5;
        }
        for (int j = 0; j < N; j++)
            for (int i = 0; i < N; i++) {
                double acc = 0;
                for (int l = 0; l < N; l++)
                    acc += a[i + l * N] * b[l + j * N];
                ref[i + j * N] = acc;
            }
        if (trnsciMemcpy(da, a, sizeof(a), trnsciMemcpyHostToDevice) ||
            trnsciMemcpy(db, b, sizeof(b), trnsciMemcpyHostToDevice) ||
            trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, N, N, N, &one, da, N, db, N, &zero, dc,
                         N) ||
            trnsciMemcpy(c, dc, sizeof(c), trnsciMemcpyDeviceToHost))
            return 13;
        for (int i = 0; i < N * N; i++)
            if (c[i] != ref[i])
                return 14;
    }
    trnsciFree(da);
    trnsciFree(db);
    trnsciFree(dc);
    trnsciStreamDestroy(s);
    trnblasDestroy(h);
    trnsciDeviceReset();
    return 0;
}

static void test_two_processes_at_once(void **state) {
    (void)state;
    pid_t kids[2];
    for (int i = 0; i < 2; i++) {
        kids[i] = th_spawn_role(i ? "client2" : "client1",
                                i ? daemon_under_test.tcp_addr : daemon_under_test.unix_addr, -1);
        assert_true(kids[i] > 0);
    }
    for (int i = 0; i < 2; i++)
        assert_int_equal(th_wait_child(kids[i]), 0);
    assert_int_equal(th_wait_daemon_idle(daemon_under_test.unix_addr, 5000), 0);
}

/* The victim queues long DGEMMs on two streams, tells the parent, and waits
 * to be killed. */
static void victim(const char *addr, int ready_fd) {
    enum { N = 900 };
    if (trnsciInit(addr) != trnsciSuccess)
        _exit(20);
    trnblasHandle_t h;
    trnsciStream_t s;
    double *da, *dc;
    const double one = 1, zero = 0;
    if (trnblasCreate(&h) || trnsciStreamCreate(&s) ||
        trnsciMalloc((void **)&da, sizeof(double) * N * N) ||
        trnsciMalloc((void **)&dc, sizeof(double) * N * N))
        _exit(21);
    for (int r = 0; r < 40; r++) {
        trnblasSetStream(h, (r & 1) ? s : NULL);
        if (trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_T, N, N, N, &one, da, N, da, N, &zero, dc, N))
            _exit(22);
    }
    /* Launches return before the daemon has them (asynchronous launch);
     * a query waits until it has queued them, and they are still running. */
    if (trnsciStreamQuery(s) == trnsciSuccess)
        _exit(24);
    const char ok = 1;
    if (write(ready_fd, &ok, 1) != 1)
        _exit(23);
    for (;;)
        pause();
}

static void test_client_killed_mid_op(void **state) {
    (void)state;
    /* This process's own session, which must survive the victim's death. */
    assert_int_equal(trnsciInit(daemon_under_test.unix_addr), trnsciSuccess);
    double *mine;
    const double host[4] = {1, 2, 3, 4};
    double back[4];
    assert_int_equal(trnsciMalloc((void **)&mine, sizeof(host)), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(mine, host, sizeof(host), trnsciMemcpyHostToDevice),
                     trnsciSuccess);

    int fds[2];
    assert_int_equal(pipe(fds), 0);
    const pid_t pid = th_spawn_role("victim", daemon_under_test.tcp_addr, fds[1]);
    assert_true(pid > 0);
    close(fds[1]);
    char ok = 0;
    assert_int_equal(read(fds[0], &ok, 1), 1);
    close(fds[0]);

    trnsciDaemonStatus st;
    assert_int_equal(trnsciDaemonGetStatus(daemon_under_test.unix_addr, &st), trnsciSuccess);
    assert_int_equal(st.sessions, 2);
    assert_true(st.opsQueued + st.opsRunning > 0);

    kill(pid, SIGKILL);
    assert_int_equal(th_wait_child(pid), 128 + SIGKILL);

    /* The victim's session goes: queued ops are dropped, running ones finish
     * and then release its buffers. Only our 32 bytes stay. */
    int released = 0;
    for (int waited = 0; waited < 15000 && !released; waited += 50) {
        assert_int_equal(trnsciDaemonGetStatus(daemon_under_test.unix_addr, &st), trnsciSuccess);
        released = st.sessions == 1 && st.buffers == 1 && st.bytesHeld == sizeof(host) &&
                   st.opsQueued == 0 && st.opsRunning == 0;
        if (!released)
            sleep_ms(50);
    }
    assert_true(released);
    assert_int_equal(trnsciMemcpy(back, mine, sizeof(back), trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    assert_memory_equal(back, host, sizeof(host));
    assert_int_equal(trnsciFree(mine), trnsciSuccess);
    trnsciDeviceReset();
    assert_int_equal(th_wait_daemon_idle(daemon_under_test.unix_addr, 5000), 0);
}

/* A client blocked in trnsciDeviceSynchronize when the daemon is stopped. */
static void test_sigterm_with_waiting_client(void **state) {
    (void)state;
    th_daemon d;
    const char *const args[] = {"--cores", "1", NULL};
    assert_int_equal(th_daemon_start(&d, args), 0);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    const pid_t pid = th_spawn_role("waiter", d.unix_addr, fds[1]);
    assert_true(pid > 0);
    close(fds[1]);
    char ok = 0;
    assert_int_equal(read(fds[0], &ok, 1), 1);
    close(fds[0]);
    sleep_ms(100); /* let the child's Synchronize reach the daemon */
    assert_int_equal(th_daemon_stop(&d), 0);
    assert_int_equal(th_wait_child(pid), 0);
}

/* The waiter queues much more work than finishes before SIGTERM, then waits
 * for all of it. */
static int waiter(const char *addr, int ready_fd) {
    enum { N = 800 };
    trnblasHandle_t h;
    double *da, *dc;
    const double one = 1, zero = 0;
    if (trnsciInit(addr) || trnblasCreate(&h) ||
        trnsciMalloc((void **)&da, sizeof(double) * N * N) ||
        trnsciMalloc((void **)&dc, sizeof(double) * N * N))
        return 30;
    for (int r = 0; r < 200; r++)
        if (trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, N, N, N, &one, da, N, da, N, &zero, dc, N))
            return 31;
    const char ok = 1;
    if (write(ready_fd, &ok, 1) != 1)
        return 32;
    const trnsciError_t e = trnsciDeviceSynchronize();
    if (e != trnsciErrorDevicesUnavailable)
        fprintf(stderr, "waiter: got %s: %s\n", trnsciGetErrorName(e), trnsciGetLastErrorMessage());
    /* The daemon is gone: the frees fail, but the client must not leak. */
    trnsciFree(da);
    trnsciFree(dc);
    trnblasDestroy(h);
    trnsciDeviceReset();
    return e == trnsciErrorDevicesUnavailable ? 0 : 33;
}

static int run_role(char **argv) {
    const char *role = argv[2], *addr = argv[3];
    const int fd = atoi(argv[4]);
    if (strcmp(role, "client1") == 0)
        return client_process(addr, 1, 25);
    if (strcmp(role, "client2") == 0)
        return client_process(addr, 2, 25);
    if (strcmp(role, "victim") == 0)
        victim(addr, fd);
    if (strcmp(role, "waiter") == 0)
        return waiter(addr, fd);
    return 99;
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "--role") == 0)
        return run_role(argv);
    if (th_daemon_start(&daemon_under_test, NULL) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_processes_at_once),
        cmocka_unit_test(test_client_killed_mid_op),
        cmocka_unit_test(test_sigterm_with_waiting_client),
    };
    int failed = cmocka_run_group_tests_name("processes", tests, NULL, NULL);
    const int rc = th_daemon_stop(&daemon_under_test);
    if (rc != 0) {
        fprintf(stderr, "trnscid exited with %d (expected a clean 0)\n", rc);
        failed++;
    }
    return failed ? 1 : 0;
}
