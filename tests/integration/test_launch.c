/*
 * test_launch.c — asynchronous launch, over the local transport (no-reply
 * Submits on the submission ring) and over gRPC (the Launch stream).
 *
 * Checked against a real daemon, on each transport:
 *  - launches do not wait for the daemon: N launched ops get no reply each
 *    (trnscid_replies_total: local, none; gRPC, a LaunchAck per few hundred
 *    launches at most), the synchronize after them one; with
 *    TRNSCI_LAUNCH_BLOCKING=1 every launch gets its reply (so the count can
 *    tell the two apart). The results are exact (integer sums in float).
 *  - errors after launch: an op the daemon refuses (client-side validation
 *    off, so the client cannot foresee it) returns success at launch; the
 *    next synchronise of its stream returns the daemon's status with a
 *    message naming the op's family, routine, launch number and stream; a
 *    synchronise of another stream does not report it, and that stream's
 *    work, and the work launched after the failed op, runs; it is reported
 *    once; trnsciGetLastError/trnsciPeekAtLastError behave as CUDA's;
 *    trnsciDeviceSynchronize reports the earliest failure of any stream.
 *  - flow control: with --max-queued-ops 4 and ops that take a while, a
 *    burst of launches never has more than 4 ops in the daemon (a watcher
 *    polls the session's pending ops) and no launch fails: the launching
 *    call blocks until there is room, as a full CUDA launch queue does
 *    (local: the daemon stops reading the connection; gRPC: the client
 *    keeps within the limit the Launch stream's acks report).
 */
#include <pthread.h>
#include <stdatomic.h>
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
#include "trnsci/trnblas.h"
#include "trnsci/trnsci.h"

static int metrics_port;

/* The value of the sample `series` on the daemon's /metrics page. */
static double sample(const char *series) {
    const double v = th_metrics_sample(metrics_port, series);
    assert_true(v >= 0);
    return v;
}

/* The transport under test: its address in the daemon and its series. */
typedef struct transport {
    const char *name; /* "local" or "grpc" */
    int grpc;
} transport;

static transport local = {"local", 0}, grpc = {"grpc", 1}; /* the tests' states */

static const char *address(const th_daemon *d, const transport *t) {
    return t->grpc ? d->tcp_addr : d->unix_addr;
}

static double requests(const transport *t) {
    char series[96];
    snprintf(series, sizeof(series), "trnscid_requests_total{transport=\"%s\"}", t->name);
    return sample(series);
}

static double replies(const transport *t) {
    char series[96];
    snprintf(series, sizeof(series), "trnscid_replies_total{transport=\"%s\"}", t->name);
    return sample(series);
}

static th_daemon start_daemon(const char *max_queued) {
    th_daemon d;
    metrics_port = th_free_port();
    char listen[64];
    snprintf(listen, sizeof(listen), "127.0.0.1:%d", metrics_port);
    const char *const args[] = {"--cores",  "1", "--metrics-listen", listen, "--max-queued-ops",
                                max_queued, NULL};
    assert_int_equal(th_daemon_start(&d, args), 0);
    return d;
}

/* 1 x 1 x 1 SGEMMs C += A B with A = B = 1: after k of them C is exactly k. */
typedef struct one_by_one {
    trnblasHandle_t h;
    float *a, *c;
} one_by_one;

static void obo_make(one_by_one *o) {
    assert_int_equal(trnblasCreate(&o->h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMalloc((void **)&o->a, sizeof(float)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&o->c, sizeof(float)), trnsciSuccess);
    const float one = 1, zero = 0;
    assert_int_equal(trnsciMemcpy(o->a, &one, sizeof(one), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(trnsciMemcpy(o->c, &zero, sizeof(zero), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
}

static trnblasStatus_t obo_launch(const one_by_one *o) {
    const float one = 1;
    return trnblasSgemm(o->h, TRNBLAS_OP_N, TRNBLAS_OP_N, 1, 1, 1, &one, o->a, 1, o->a, 1, &one,
                        o->c, 1);
}

static float obo_result(const one_by_one *o) {
    float v = -1;
    assert_int_equal(trnsciMemcpy(&v, o->c, sizeof(v), trnsciMemcpyDeviceToHost), trnsciSuccess);
    return v;
}

/* C, read in stream order (a synchronize of that stream only: the device-wide
 * one of trnsciMemcpy would report the other streams' errors). */
static float obo_result_on(const one_by_one *o, trnsciStream_t s) {
    float v = -1;
    assert_int_equal(trnsciMemcpyAsync(&v, o->c, sizeof(v), trnsciMemcpyDeviceToHost, s),
                     trnsciSuccess);
    assert_int_equal(trnsciStreamSynchronize(s), trnsciSuccess);
    return v;
}

static void obo_free(one_by_one *o) {
    trnsciFree(o->a);
    trnsciFree(o->c);
    trnblasDestroy(o->h);
}

/* Launches n ops and synchronises; returns the replies the launches got. */
static double launch_replies(const transport *t, int n, float *result) {
    one_by_one o;
    obo_make(&o);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    const double req0 = requests(t), rep0 = replies(t);
    for (int i = 0; i < n; i++)
        assert_int_equal(obo_launch(&o), TRNBLAS_STATUS_SUCCESS);
    /* The launches are in the daemon's hands; with no reply each, the
     * requests arrive in any case (waited for by the synchronize). */
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    const double req1 = requests(t), rep1 = replies(t);
    if (!t->grpc)
        assert_true(req1 - req0 == n + 1); /* the launches and the synchronize */
    else
        assert_true(req1 - req0 >= 2); /* batches of launches and the synchronize */
    *result = obo_result(&o);
    obo_free(&o);
    return rep1 - rep0 - 1; /* the synchronize's reply is not a launch's */
}

static void test_no_round_trips(void **state) {
    const transport *t = *state;
    enum { N = 2000 };
    th_daemon d = start_daemon("4096");
    unsetenv("TRNSCI_LAUNCH_BLOCKING");
    assert_int_equal(trnsciInit(address(&d, t)), trnsciSuccess);
    float result;
    const double got = launch_replies(t, N, &result);
    print_message("%s: %d launches got %g replies\n", t->name, N, got);
    /* Local: none. gRPC: the acks of the fences that keep the session
     * within its queue limit (a few per 4096 launches) and the first. */
    assert_true(t->grpc ? got <= N / 100 : got == 0);
    assert_true(result == (float)N);
    trnsciDeviceReset();

    /* Blocking launches: one reply each (the count sees the difference). */
    setenv("TRNSCI_LAUNCH_BLOCKING", "1", 1);
    assert_int_equal(trnsciInit(address(&d, t)), trnsciSuccess);
    assert_true(launch_replies(t, N, &result) == N);
    assert_true(result == (float)N);
    trnsciDeviceReset();
    unsetenv("TRNSCI_LAUNCH_BLOCKING");
    assert_int_equal(th_daemon_stop(&d), 0);
}

/* An SGEMM whose C (1 float) is too small for its 2 x 2 result: the daemon
 * refuses it; with client validation off the client does not notice. */
static trnblasStatus_t launch_refused(const one_by_one *o) {
    const float one = 1;
    return trnblasSgemm(o->h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 1, &one, o->a, 2, o->a, 1, &one,
                        o->c, 2);
}

static void expect_message(const char *want) {
    const char *msg = trnsciGetLastErrorMessage();
    if (!strstr(msg, want))
        fail_msg("message \"%s\" does not say \"%s\"", msg, want);
}

static void test_deferred_errors(void **state) {
    const transport *t = *state;
    th_daemon d = start_daemon("4096");
    setenv("TRNSCI_CLIENT_VALIDATE", "0", 1);
    assert_int_equal(trnsciInit(address(&d, t)), trnsciSuccess);
    unsetenv("TRNSCI_CLIENT_VALIDATE");
    one_by_one o1, o2;
    obo_make(&o1);
    obo_make(&o2);
    trnsciStream_t s1, s2;
    assert_int_equal(trnsciStreamCreate(&s1), trnsciSuccess);
    assert_int_equal(trnsciStreamCreate(&s2), trnsciSuccess);
    assert_int_equal(trnblasSetStream(o1.h, s1), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSetStream(o2.h, s2), TRNBLAS_STATUS_SUCCESS);
    unsigned long long id1 = 0, id2 = 0, id0 = 99;
    assert_int_equal(trnsciStreamGetId(s1, &id1), trnsciSuccess);
    assert_int_equal(trnsciStreamGetId(s2, &id2), trnsciSuccess);
    assert_int_equal(trnsciStreamGetId(NULL, &id0), trnsciSuccess);
    assert_true(id1 != id2 && id1 != 0 && id2 != 0 && id0 == 0);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    (void)trnsciGetLastError(); /* as in CUDA, successes leave the last error alone */

    /* Launch numbers count this process's launches (L below is the refused
     * one's, read from the message; the ones after it follow on). */
    assert_int_equal(obo_launch(&o1), TRNBLAS_STATUS_SUCCESS);     /* launch L - 1, s1 */
    assert_int_equal(launch_refused(&o1), TRNBLAS_STATUS_SUCCESS); /* L, s1: refused later */
    assert_int_equal(obo_launch(&o1), TRNBLAS_STATUS_SUCCESS);     /* L + 1, s1 */
    assert_int_equal(obo_launch(&o2), TRNBLAS_STATUS_SUCCESS);     /* L + 2, s2 */
    assert_int_equal(trnsciGetLastError(), trnsciSuccess);

    /* Another stream's synchronize does not report it, and its work ran. */
    assert_int_equal(trnsciStreamSynchronize(s2), trnsciSuccess);
    assert_true(obo_result_on(&o2, s2) == 1.0f);

    assert_int_equal(trnsciStreamSynchronize(s1), trnsciErrorInvalidValue);
    const char *at = strstr(trnsciGetLastErrorMessage(), "launch #");
    assert_non_null(at);
    const unsigned long long launch = strtoull(at + strlen("launch #"), NULL, 10);
    assert_true(launch >= 2);
    char want[96];
    snprintf(want, sizeof(want), "blas gemm (launch #%llu on stream %llu) was refused: ", launch,
             id1);
    expect_message(want);
    expect_message("A: needs 8 bytes"); /* the daemon's reason */
    /* As CUDA: Peek keeps the error, Get returns it and resets. */
    assert_int_equal(trnsciPeekAtLastError(), trnsciErrorInvalidValue);
    assert_int_equal(trnsciGetLastError(), trnsciErrorInvalidValue);
    assert_int_equal(trnsciGetLastError(), trnsciSuccess);
    /* Reported once; the ops around the refused one ran. */
    assert_int_equal(trnsciStreamSynchronize(s1), trnsciSuccess);
    assert_true(obo_result_on(&o1, s1) == 2.0f);

    /* The device-wide synchronize reports the earliest of several. */
    assert_int_equal(launch_refused(&o2), TRNBLAS_STATUS_SUCCESS); /* s2 */
    assert_int_equal(launch_refused(&o1), TRNBLAS_STATUS_SUCCESS); /* s1, after it */
    assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorInvalidValue);
    /* The s2 one: later than L (by the copies in between: over gRPC a copy
     * to the host is a launch too). */
    at = strstr(trnsciGetLastErrorMessage(), "launch #");
    assert_non_null(at);
    const unsigned long long later = strtoull(at + strlen("launch #"), NULL, 10);
    assert_true(later > launch);
    snprintf(want, sizeof(want), "blas gemm (launch #%llu on stream %llu) was refused: ", later,
             id2);
    expect_message(want);
    expect_message("and 1 failed op(s) on other streams");
    assert_int_equal(trnsciStreamSynchronize(s1), trnsciSuccess);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);

    obo_free(&o1);
    obo_free(&o2);
    trnsciStreamDestroy(s1);
    trnsciStreamDestroy(s2);
    trnsciDeviceReset();
    assert_int_equal(th_daemon_stop(&d), 0);
}

/* ---- flow control -------------------------------------------------------- */

typedef struct watch {
    const char *addr;
    atomic_int stop;
    unsigned most; /* the session's most ops pending seen */
    int polls;
} watch;

static void *watcher(void *arg) {
    watch *w = arg;
    while (!atomic_load(&w->stop)) {
        trnsciSessionInfo info[4];
        int count = 0;
        const trnsciError_t e = trnsciDaemonGetSessions(w->addr, info, 4, &count);
        if (e != trnsciSuccess)
            print_message("sessions: %s\n", trnsciGetLastErrorMessage());
        else
            for (int i = 0; i < count; i++)
                if (info[i].opsPending > w->most)
                    w->most = info[i].opsPending;
        w->polls++;
        th_sleep_ms(1);
    }
    return NULL;
}

static void test_flow_control(void **state) {
    const transport *t = *state;
    enum { N = 500, OPS = 24 }; /* 250 MFLOP each: several ms on one core */
    th_daemon d = start_daemon("4");
    assert_int_equal(trnsciInit(address(&d, t)), trnsciSuccess);
    trnblasHandle_t h;
    double *a, *c;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMalloc((void **)&a, sizeof(double) * N * N), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&c, sizeof(double) * N * N), trnsciSuccess);
    /* A = I / 2 + 0: C = A A keeps C = I / 4 whatever the order. */
    double *host = calloc((size_t)N * N, sizeof(double));
    for (int i = 0; i < N; i++)
        host[(size_t)i * N + i] = 0.5;
    const trnsciError_t e = trnsciMemcpy(a, host, sizeof(double) * N * N, trnsciMemcpyHostToDevice);
    if (e != trnsciSuccess)
        fail_msg("memcpy: %s", trnsciGetLastErrorMessage());
    watch w = {.addr = d.unix_addr};
    pthread_t watching;
    assert_int_equal(pthread_create(&watching, NULL, watcher, &w), 0);
    const double one = 1, zero = 0;
    for (int i = 0; i < OPS; i++)
        assert_int_equal(
            trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, N, N, N, &one, a, N, a, N, &zero, c, N),
            TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    atomic_store(&w.stop, 1);
    pthread_join(watching, NULL);
    print_message("flow control (%s): most ops pending seen %u (limit 4) over %d polls\n", t->name,
                  w.most, w.polls);
    assert_true(w.most <= 4);
    assert_true(w.most >= 1);
    assert_int_equal(trnsciMemcpy(host, c, sizeof(double) * N * N, trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            assert_true(host[(size_t)j * N + i] == (i == j ? 0.25 : 0.0));
    free(host);
    trnsciFree(a);
    trnsciFree(c);
    trnblasDestroy(h);
    trnsciDeviceReset();
    assert_int_equal(th_daemon_stop(&d), 0);
}

/* A failed test leaves its session behind: start each from none. */
static int fresh_client(void **state) {
    (void)state;
    trnsciDeviceReset();
    return 0;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        {"no_round_trips (local)", test_no_round_trips, fresh_client, NULL, &local},
        {"no_round_trips (grpc)", test_no_round_trips, fresh_client, NULL, &grpc},
        {"deferred_errors (local)", test_deferred_errors, fresh_client, NULL, &local},
        {"deferred_errors (grpc)", test_deferred_errors, fresh_client, NULL, &grpc},
        {"flow_control (local)", test_flow_control, fresh_client, NULL, &local},
        {"flow_control (grpc)", test_flow_control, fresh_client, NULL, &grpc},
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
