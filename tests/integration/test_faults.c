/*
 * test_faults.c — the daemon under faults: clients and the daemon itself
 * killed, a cache directory that cannot be written.
 *
 *  - clients SIGKILLed at a random moment (0–15 ms after their work is
 *    queued) over both transports, alternately, while this process keeps
 *    checking exact SGEMM results over gRPC. Afterwards no session, buffer,
 *    byte or op is held and the daemon has no more descriptors than before.
 *    TRNSCI_FAULT_ITERATIONS sets the number of kills (default 16; the long
 *    form is 500, see docs/security.md).
 *  - the daemon SIGKILLed with work queued, on each transport: the waiting
 *    client gets an error within seconds (not a hang), and so does its next
 *    call. The daemon restarted on the same socket (stale socket and lock
 *    file left behind) takes the client back after trnsciDeviceReset +
 *    trnsciInit, and the FFT plan made before the kill comes back from the
 *    cache directory: the same plan is a hit.
 *  - a cache directory that cannot be created (its parent is a file) and one
 *    whose files land on a full device (/dev/full): the daemon warns, keeps
 *    serving FFTs with correct results and exits cleanly.
 *  - a kernel whose workspace allocation fails (the daemon runs with a
 *    malloc that refuses large requests, malloc_limit.c): that op fails with
 *    trnsciErrorMemoryAllocation, the daemon and the session go on (Release
 *    build only: a preloaded malloc cannot come before ASan's runtime).
 *
 * SGEMM checks are exact (th_sgemm_round).
 * Client processes are this binary re-executed (gRPC is not fork-safe).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "trnsci/trnblas.h"
#include "trnsci/trnfft.h"
#include "trnsci/trnrand.h"

static th_daemon dmn;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- clients killed mid-op ------------------------------------------------------- */

static atomic_int checker_stop, checker_rounds;

static void *checker(void *arg) {
    (void)arg;
    trnblasHandle_t h;
    if (trnblasCreate(&h))
        return (void *)1;
    intptr_t bad = 0;
    for (int r = 0; !atomic_load(&checker_stop) && !bad; r++) {
        bad = th_sgemm_round(h, r) != 0;
        atomic_fetch_add(&checker_rounds, 1);
    }
    trnblasDestroy(h);
    return (void *)bad;
}

/* The victim: mixed families queued (DGEMMs, uniform and normal random
 * numbers, memsets) on two streams, then it signals and waits for SIGKILL. */
static int victim(const char *addr, int ready_fd) {
    enum { N = 256 };
    trnblasHandle_t h;
    trnsciStream_t s;
    trnrandGenerator_t g;
    double *a, *c;
    const double one = 1, zero = 0;
    if (trnsciInit(addr) || trnblasCreate(&h) || trnsciStreamCreate(&s) ||
        trnsciMalloc((void **)&a, sizeof(double) * N * N) ||
        trnsciMalloc((void **)&c, sizeof(double) * N * N) ||
        trnrandCreateGenerator(&g, TRNRAND_RNG_PSEUDO_PHILOX4_32_10) || trnrandSetStream(g, s))
        return 20;
    if (trnsciMemsetAsync(a, 0x3f, sizeof(double) * N * N, s) ||
        trnrandGenerateUniformDouble(g, c, N * N) || trnrandGenerateNormalDouble(g, a, N * N, 0, 1))
        return 21;
    for (int r = 0; r < 6; r++) {
        trnblasSetStream(h, (r & 1) ? s : NULL);
        if (trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, N, N, N, &one, a, N, a, N, &zero, c, N))
            return 22;
    }
    const char ok = 1;
    if (write(ready_fd, &ok, 1) != 1)
        return 23;
    for (;;)
        pause();
}

static int iterations(void) {
    const char *v = getenv("TRNSCI_FAULT_ITERATIONS");
    const int n = v ? atoi(v) : 16;
    return n > 0 ? n : 16;
}

static void test_kill_clients(void **state) {
    (void)state;
    const int n = iterations();
    const pid_t dpid = dmn.pid;
    /* The baseline includes this process's gRPC balancer connection, which
     * lasts across sessions (client/transport_grpc.c): open and close one
     * session first. */
    assert_int_equal(trnsciInit(dmn.tcp_addr), trnsciSuccess);
    trnsciDeviceReset();
    assert_int_equal(th_wait_daemon_idle(dmn.unix_addr, 5000), 0);
    /* The closed session's connection goes: wait until the count holds. */
    long fds0 = th_count_fds(dpid);
    for (int waited = 0; waited < 3000; waited += 100) {
        th_sleep_ms(100);
        const long now = th_count_fds(dpid);
        if (now == fds0)
            break;
        fds0 = now;
    }
    assert_true(fds0 > 0);
    assert_int_equal(trnsciInit(dmn.tcp_addr), trnsciSuccess);
    atomic_store(&checker_stop, 0);
    atomic_store(&checker_rounds, 0);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, checker, NULL), 0);
    unsigned seed = 12345;
    for (int i = 0; i < n; i++) {
        const pid_t pid = th_spawn_ready("victim", i % 2 ? dmn.tcp_addr : dmn.unix_addr);
        assert_true(pid > 0);
        th_sleep_ms((int)(rand_r(&seed) % 16));
        assert_int_equal(th_kill_child(pid), 0);
    }
    atomic_store(&checker_stop, 1);
    void *bad;
    assert_int_equal(pthread_join(t, &bad), 0);
    assert_null(bad);
    assert_true(atomic_load(&checker_rounds) > 0);
    trnsciDeviceReset();

    assert_int_equal(th_wait_daemon_idle(dmn.unix_addr, 15000), 0);
    long fds1 = -1;
    const int fds_back = th_wait_fds_at_most(dpid, fds0, 5000, &fds1);
    fprintf(stderr, "%d clients killed over both transports: daemon fds %ld -> %ld, %d checks\n", n,
            fds0, fds1, atomic_load(&checker_rounds));
    assert_int_equal(fds_back, 0);
}

/* ---- the daemon killed ----------------------------------------------------------- */

#define PLAN_KEY "fft c2c 1024 basic estimate"

/* Waits for the cache's pre-warm; returns whether PLAN_KEY is ready, and the
 * cache's counters in st. */
static int plan_ready(const char *addr, trnsciPlanCacheStats *st) {
    for (int i = 0; i < 400; i++) {
        trnsciPlanInfo plans[16];
        int count = 0;
        assert_int_equal(trnsciDaemonGetPlans(addr, plans, 16, &count, st), trnsciSuccess);
        if (!st->prewarmDone) {
            th_sleep_ms(50);
            continue;
        }
        for (int k = 0; k < count && k < 16; k++)
            if (strcmp(plans[k].key, PLAN_KEY) == 0)
                return strcmp(plans[k].state, "ready") == 0;
        return 0;
    }
    fail_msg("pre-warm did not finish in 20 s");
    return 0;
}

static void wait_manifest(const char *dir) {
    char path[400];
    snprintf(path, sizeof(path), "%s/plans.manifest", dir);
    for (int i = 0; i < 200; i++) {
        if (th_file_contains(path, PLAN_KEY))
            return;
        th_sleep_ms(50);
    }
    fail_msg("%s never listed %s", path, PLAN_KEY);
}

static void daemon_killed(int grpc) {
    char dir[300];
    th_daemon m;
    static char cache[300];
    snprintf(cache, sizeof(cache), "/tmp/trnsci-faults-cache-%d-%d", (int)getpid(), grpc);
    const char *args[] = {"--cores", "1", "--plan-effort", "estimate", "--cache-dir", cache, NULL};
    assert_int_equal(th_daemon_start(&m, args), 0);
    snprintf(dir, sizeof(dir), "%s", cache);
    const char *addr = grpc ? m.tcp_addr : m.unix_addr;

    /* A plan, persisted; then work queued behind a stream. */
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    trnfftHandle plan;
    assert_int_equal(trnfftPlan1d(&plan, 1024, TRNFFT_C2C, 1), TRNFFT_SUCCESS);
    wait_manifest(dir);
    enum { N = 512 };
    float *a;
    trnblasHandle_t h;
    trnsciStream_t s;
    const float one = 1, zero = 0;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciStreamCreate(&s), trnsciSuccess);
    assert_int_equal(trnblasSetStream(h, s), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMalloc((void **)&a, sizeof(float) * N * N), trnsciSuccess);
    assert_int_equal(trnsciMemsetAsync(a, 0, sizeof(float) * N * N, s), trnsciSuccess);
    for (int r = 0; r < 40; r++)
        assert_int_equal(
            trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, N, N, N, &one, a, N, a, N, &zero, a, N),
            TRNBLAS_STATUS_SUCCESS);

    assert_int_equal(th_daemon_kill(&m), 0);
    double t0 = now_s();
    const trnsciError_t e = trnsciStreamSynchronize(s);
    const double waited = now_s() - t0;
    fprintf(stderr, "daemon killed (%s): synchronize returned %s after %.3f s: %s\n",
            grpc ? "gRPC" : "local", trnsciGetErrorName(e), waited, trnsciGetLastErrorMessage());
    assert_int_not_equal(e, trnsciSuccess);
    assert_true(waited < 10.0);
    assert_true(trnsciGetLastErrorMessage()[0] != '\0');
    t0 = now_s();
    float *b = NULL;
    assert_int_not_equal(trnsciMalloc((void **)&b, 64), trnsciSuccess);
    assert_true(now_s() - t0 < 10.0);
    /* Handles of the lost session can still be destroyed (client memory). */
    trnblasDestroy(h);
    trnsciStreamDestroy(s);
    trnfftDestroy(plan);

    /* Restart on the same addresses; the client comes back. */
    assert_int_equal(th_daemon_restart(&m, args), 0);
    /* The daemon answers on its unix socket a moment before its TCP port is
     * bound: a reconnecting client retries, as a real one would. */
    trnsciError_t back = trnsciErrorNoDevice;
    for (int i = 0; i < 100 && back != trnsciSuccess; i++) {
        trnsciDeviceReset();
        back = trnsciInit(addr);
        if (back != trnsciSuccess)
            th_sleep_ms(50);
    }
    assert_int_equal(back, trnsciSuccess);
    trnsciPlanCacheStats st;
    assert_true(plan_ready(addr, &st)); /* the plan survived the kill */
    const uint64_t hits0 = st.hits;
    assert_int_equal(trnfftPlan1d(&plan, 1024, TRNFFT_C2C, 1), TRNFFT_SUCCESS);
    assert_true(plan_ready(addr, &st));
    assert_int_equal(st.hits, hits0 + 1);
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(th_sgemm_round(h, 3), 0);
    trnblasDestroy(h);
    trnfftDestroy(plan);
    trnsciDeviceReset();
    assert_int_equal(th_daemon_stop_checked(&m, "restarted daemon"), 0);
    th_remove_dir(dir);
}

static void test_daemon_killed_local(void **state) {
    (void)state;
    daemon_killed(0);
}

static void test_daemon_killed_grpc(void **state) {
    (void)state;
    daemon_killed(1);
}

/* ---- a cache directory that cannot be written ---------------------------------- */

/* trnfft C2C of a unit impulse at 0: every output is exactly 1. */
static void impulse_fft(void) {
    enum { N = 256 };
    trnfftComplex *d, h[N];
    trnfftHandle p;
    memset(h, 0, sizeof(h));
    h[0].x = 1;
    assert_int_equal(trnsciMalloc((void **)&d, sizeof(h)), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(d, h, sizeof(h), trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnfftPlan1d(&p, N, TRNFFT_C2C, 1), TRNFFT_SUCCESS);
    assert_int_equal(trnfftExecC2C(p, d, d, TRNFFT_FORWARD), TRNFFT_SUCCESS);
    assert_int_equal(trnsciMemcpy(h, d, sizeof(h), trnsciMemcpyDeviceToHost), trnsciSuccess);
    for (int i = 0; i < N; i++) {
        assert_true(h[i].x == 1.0f);
        assert_true(h[i].y == 0.0f);
    }
    trnfftDestroy(p);
    trnsciFree(d);
}

static void test_cache_dir_faults(void **state) {
    (void)state;
    char base[] = "/tmp/trnsci-faults-XXXXXX";
    assert_non_null(mkdtemp(base));
    char file[300], unwritable[320], full[300], link[340];
    snprintf(file, sizeof(file), "%s/a-file", base);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(unwritable, sizeof(unwritable), "%s/cache", file); /* ENOTDIR */
    snprintf(full, sizeof(full), "%s/full", base);
    assert_int_equal(mkdir(full, 0700), 0);
    const char *names[] = {"plans.manifest.tmp", "fftwf.wisdom", "fftw.wisdom"};
    for (int i = 0; i < 3; i++) {
        snprintf(link, sizeof(link), "%s/%s", full, names[i]);
        assert_int_equal(symlink("/dev/full", link), 0);
    }
    const char *dirs[2] = {unwritable, full};
    const char *warnings[2] = {"plans will not persist", "cannot write"};
    for (int k = 0; k < 2; k++) {
        th_daemon m;
        const char *args[] = {"--cores", "1", "--plan-effort", "estimate", "--cache-dir",
                              dirs[k],   NULL};
        assert_int_equal(th_daemon_start(&m, args), 0);
        assert_int_equal(trnsciInit(m.unix_addr), trnsciSuccess);
        impulse_fft();
        int warned = 0;
        for (int i = 0; i < 100 && !warned; i++) {
            warned = th_file_contains(m.log_path, warnings[k]);
            if (!warned)
                th_sleep_ms(50);
        }
        if (!warned)
            fail_msg("no '%s' warning with --cache-dir %s", warnings[k], dirs[k]);
        impulse_fft(); /* still serving */
        trnsciDeviceReset();
        assert_int_equal(th_daemon_stop_checked(&m, "daemon with a broken cache directory"), 0);
    }
    th_remove_dir(base);
}

/* ---- a kernel that cannot allocate its workspace ------------------------------ */

/* A daemon whose malloc refuses more than 8 MiB (malloc_limit.c): a BF16
 * GEMM of 1200^3 needs (m k + k n) 4-byte words = 11.5 MB of workspace for
 * its rounded copies, so that op fails with trnsciErrorMemoryAllocation
 * (RESOURCE_EXHAUSTED); the daemon lives, and the next ops are exact. */
static void test_kernel_out_of_memory(void **state) {
    (void)state;
#ifdef TRNSCI_TEST_NO_PRELOAD
    skip(); /* the sanitizer build: its runtime must be loaded first */
#endif
    setenv("LD_PRELOAD", MALLOC_LIMIT_SO, 1);
    setenv("TRNSCI_TEST_MALLOC_LIMIT", "8388608", 1);
    th_daemon m;
    /* Converting inline: ahead, the pieces would be in the daemon's shared
     * scratch pool (daemon/op_scratch.h), which is not malloc. */
    const char *args[] = {"--cores", "1", "--convert-ahead", "off", NULL};
    const int started = th_daemon_start(&m, args);
    unsetenv("LD_PRELOAD");
    unsetenv("TRNSCI_TEST_MALLOC_LIMIT");
    assert_int_equal(started, 0);

    assert_int_equal(trnsciInit(m.unix_addr), trnsciSuccess);
    enum { N = 1200 };
    float *a, *c;
    trnblasHandle_t h;
    const float one = 1, zero = 0;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMalloc((void **)&a, sizeof(float) * N * N), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&c, sizeof(float) * N * N), trnsciSuccess);
    assert_int_equal(trnsciMemset(a, 0, sizeof(float) * N * N), trnsciSuccess);
    assert_int_equal(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, N, N, N, &one, a, TRNSCI_R_32F, N,
                                   a, TRNSCI_R_32F, N, &zero, c, TRNSCI_R_32F, N,
                                   TRNBLAS_COMPUTE_32F_FAST_16BF, TRNBLAS_GEMM_DEFAULT),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorMemoryAllocation);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "out of memory"));
    /* The daemon and the session go on. */
    for (int r = 0; r < 3; r++)
        assert_int_equal(th_sgemm_round(h, r), 0);
    trnsciFree(a);
    trnsciFree(c);
    trnblasDestroy(h);
    trnsciDeviceReset();
    assert_true(th_file_contains(m.log_path, "out of memory for its workspace"));
    assert_int_equal(th_daemon_stop_checked(&m, "daemon with a malloc limit"), 0);
}

static int setup(void **state) {
    (void)state;
    const char *args[] = {"--cores", "1", NULL};
    return th_daemon_start(&dmn, args);
}

static int teardown(void **state) {
    (void)state;
    return th_daemon_stop_checked(&dmn, "trnscid");
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "--role") == 0 && strcmp(argv[2], "victim") == 0)
        return victim(argv[3], atoi(argv[4]));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kill_clients),         cmocka_unit_test(test_daemon_killed_local),
        cmocka_unit_test(test_daemon_killed_grpc),   cmocka_unit_test(test_cache_dir_faults),
        cmocka_unit_test(test_kernel_out_of_memory),
    };
    return cmocka_run_group_tests_name("faults", tests, setup, teardown);
}
