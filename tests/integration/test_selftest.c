/*
 * test_selftest.c — trnscid's self-test of the outside routines, end to end.
 *
 * A daemon starts with three routines made wrong by a preloaded library
 * (faulty_blas.c), as an OpenBLAS kernel set can be wrong on some CPU:
 * cblas_scasum (off unless n is a multiple of 8), cblas_dgemm (off when k
 * is odd) and LAPACKE_dpotrf_work (its factor off). Then:
 *  - the start-up log names each, the case that failed, and what replaced
 *    it; `trnsci selftest --latest --json` says the same, and so does
 *    /metrics (trnscid_selftest_failures, per routine);
 *  - every op that uses the first two is right: Scasum for n and
 *    increments the fault hits, and DGEMM through Dgemm,
 *    DgemmStridedBatched, GemmEx (64F) and a trntensor contraction in
 *    double, with odd k, against long double references within
 *    k·u·Σ|terms|;
 *  - dpotrf has no correct implementation: Dpotrf fails with
 *    TRNSOLVER_STATUS_NOT_SUPPORTED at the synchronize that reports it, with a
 *    message naming LAPACKE_dpotrf_work; Spotrf still works;
 *  - `trnsci selftest` runs the checks again on demand (exit status 1).
 * And `trnscid --self-test` exits 1 with a faulty routine, 0 on a kernel set
 * where every routine passes (Haswell, when the CPU runs it; skipped
 * otherwise), 2 for a kernel set the CPU cannot run or an unknown name.
 * A self-test child whose daemon dies goes with it (a check stuck in a loop
 * once outlived a killed daemon, spinning on a CPU): run by a process that
 * exits at once, it ends by SIGKILL or as orphaned (status 3), never by
 * running its checks on.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "harness.h"
#include "trnsci/trnblas.h"
#include "trnsci/trnsolver.h"
#include "trnsci/trntensor.h"

#ifndef FAULTY_BLAS_SO
#error "FAULTY_BLAS_SO must name the preloaded faulty library"
#endif

#define FAULTY "cblas_scasum,cblas_dgemm,LAPACKE_dpotrf_work"

static th_daemon dmn;
static int metrics_port;

/* Runs argv with the faulty library preloaded when `faulty`; returns its
 * exit status, its output in out_path. */
static int run_with(const char *const *argv, const char *out_path, int faulty);

/* ---- environment of a faulty process ------------------------------------------------------ */

static char saved_asan[1024];
static int had_asan;

static void faulty_env(int on) {
    if (on) {
        const char *old = getenv("ASAN_OPTIONS");
        had_asan = old != NULL;
        snprintf(saved_asan, sizeof(saved_asan), "%s", old ? old : "");
        /* The sanitizer runtime wants to be first; the preload is not
         * instrumented and only wraps three routines. */
        char opts[1200];
        snprintf(opts, sizeof(opts), "%s%sverify_asan_link_order=0", saved_asan,
                 saved_asan[0] ? ":" : "");
        setenv("ASAN_OPTIONS", opts, 1);
        setenv("LD_PRELOAD", FAULTY_BLAS_SO, 1);
        setenv("TRNSCI_TEST_FAULTY", FAULTY, 1);
        return;
    }
    if (had_asan)
        setenv("ASAN_OPTIONS", saved_asan, 1);
    else
        unsetenv("ASAN_OPTIONS");
    unsetenv("LD_PRELOAD");
    unsetenv("TRNSCI_TEST_FAULTY");
}

static int run_with(const char *const *argv, const char *out_path, int faulty) {
    if (faulty)
        faulty_env(1);
    const int rc = th_run(argv, out_path);
    if (faulty)
        faulty_env(0);
    return rc;
}

/* ---- helpers ------------------------------------------------------------------------------- */

static void *dev_from(const void *host, size_t bytes) {
    void *p = NULL;
    assert_int_equal(trnsciMalloc(&p, bytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(p, host, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    return p;
}

static void to_host(void *host, const void *dev, size_t bytes) {
    assert_int_equal(trnsciMemcpy(host, dev, bytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
}

static double value(int i, int j, int salt) {
    return sin(0.37 * i + 1.3 * j + 0.71 * salt);
}

/* C = alpha·A·B + beta·C (column-major, no transposes) against long double:
 * |c − ref| ≤ (k + 2)·2·u·(|alpha|·Σ|a||b| + |beta||c|). */
static void check_dgemm_result(int m, int n, int k, double alpha, const double *a, const double *b,
                               double beta, const double *c0, const double *c, const char *what) {
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            long double s = 0, mag = 0;
            for (int l = 0; l < k; l++) {
                s += (long double)a[(size_t)l * m + i] * b[(size_t)j * k + l];
                mag += fabsl((long double)a[(size_t)l * m + i] * b[(size_t)j * k + l]);
            }
            const long double want = alpha * s + beta * (long double)c0[(size_t)j * m + i];
            const long double bound = (k + 2) * 2.0L * 0x1p-53L *
                                      (fabs(alpha) * mag + fabs(beta * c0[(size_t)j * m + i]));
            const long double err = fabsl(c[(size_t)j * m + i] - want);
            if (!(err <= bound))
                fail_msg("%s m=%d n=%d k=%d: C(%d,%d) = %.17g, want %.17Lg (error %.3Lg > %.3Lg)",
                         what, m, n, k, i, j, c[(size_t)j * m + i], want, err, bound);
        }
}

/* ---- the tests ------------------------------------------------------------------------------ */

static void test_start_up_report(void **state) {
    (void)state;
    assert_true(th_file_contains(dmn.log_path, "self-test: cblas_scasum (OpenBLAS) failed"));
    assert_true(th_file_contains(dmn.log_path, "replaced by cblas_sasum over 2n reals"));
    assert_true(th_file_contains(dmn.log_path, "self-test: cblas_dgemm (OpenBLAS) failed"));
    assert_true(th_file_contains(dmn.log_path, "LAPACKE_dpotrf_work (LAPACK (OpenBLAS)) failed"));
    assert_true(th_file_contains(dmn.log_path, "no correct implementation"));

    char out[400];
    snprintf(out, sizeof(out), "%s/selftest.json", dmn.dir);
    const char *argv[] = {TRNSCI_CLI_PATH, "--addr", dmn.unix_addr, "selftest",
                          "--latest",      "--json", NULL};
    assert_int_equal(run_with(argv, out, 0), 1);
    assert_true(th_file_contains(out, "\"on_demand\": false"));
    assert_true(th_file_contains(
        out, "{\"routine\": \"cblas_scasum\", \"group\": \"blas1\", \"result\": \"replaced\", "
             "\"used\": \"cblas_sasum over 2n reals\", \"verdict\": \"failed\""));
    assert_true(th_file_contains(out, "{\"routine\": \"cblas_dgemm\", \"group\": \"blas3\", "
                                      "\"result\": \"replaced\", \"used\": \"in-tree\""));
    assert_true(th_file_contains(out,
                                 "{\"routine\": \"LAPACKE_dpotrf_work\", \"group\": "
                                 "\"lapack\", \"result\": \"refused\", \"used\": \"refused\""));
    assert_true(th_file_contains(out, "{\"routine\": \"cblas_sgemm\", \"group\": \"blas3\", "
                                      "\"result\": \"passed\""));

    /* `trnsci status` carries the summary. */
    const char *status[] = {TRNSCI_CLI_PATH, "--addr", dmn.unix_addr, "status", NULL};
    assert_int_equal(run_with(status, out, 0), 0);
    assert_true(th_file_contains(out, "self-test:"));
    assert_true(th_file_contains(out, "LAPACKE_dpotrf_work refused"));

    /* /metrics: a series per routine that did not pass. */
    char page[1 << 16];
    assert_int_equal(th_http_get(metrics_port, "/metrics", page, sizeof(page)), 200);
    assert_non_null(strstr(page,
                           "trnscid_selftest_failures{routine=\"cblas_scasum\",group=\"blas1\","
                           "used=\"cblas_sasum over 2n reals\"}"));
    assert_non_null(strstr(page, "trnscid_selftest_failures{routine=\"LAPACKE_dpotrf_work\""));
    assert_non_null(strstr(page, "trnscid_selftest_routines{result=\"refused\"} 1"));
    assert_non_null(strstr(page, "trnscid_blas_info{core="));
}

/* Scasum where the faulty routine is wrong: n not a multiple of 8, unit
 * and strided. |got − Σ(|re|+|im|)| ≤ (2n+1)·u·Σ. */
static void test_scasum_right(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    const int ns[] = {1, 9, 37, 64, 100};
    for (size_t t = 0; t < sizeof(ns) / sizeof(ns[0]); t++)
        for (int inc = 1; inc <= 2; inc++) {
            const int n = ns[t];
            const size_t len = 2 * (size_t)n * (size_t)inc;
            float *x = calloc(len, sizeof(float));
            long double want = 0;
            for (int i = 0; i < n; i++) {
                x[2 * (size_t)i * inc] = (float)value(i, 0, 1) * 3;
                x[2 * (size_t)i * inc + 1] = (float)value(i, 1, 2) * 3;
                want += fabsl((long double)x[2 * (size_t)i * inc]) +
                        fabsl((long double)x[2 * (size_t)i * inc + 1]);
            }
            void *dx = dev_from(x, len * sizeof(float));
            float got = -1;
            assert_int_equal(trnblasScasum(h, n, dx, inc, &got), TRNBLAS_STATUS_SUCCESS);
            const long double bound = (2 * n + 1) * 0x1p-24L * want;
            if (!(fabsl(got - want) <= bound))
                fail_msg("Scasum n=%d incx=%d: got %.9g, want %.9Lg (bound %.3Lg)", n, inc, got,
                         want, bound);
            trnsciFree(dx);
            free(x);
        }
    trnblasDestroy(h);
}

/* DGEMM with odd k (where the faulty routine is wrong) through three APIs. */
static void test_dgemm_right(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    const int shapes[][3] = {{1, 1, 1}, {7, 5, 3}, {33, 17, 65}, {129, 64, 97}};
    const int batch = 3;
    for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
        const int m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
        const size_t sa = (size_t)m * k, sb = (size_t)k * n, sc = (size_t)m * n;
        double *a = malloc(sizeof(double) * sa * batch), *b = malloc(sizeof(double) * sb * batch);
        double *c0 = malloc(sizeof(double) * sc * batch), *c = malloc(sizeof(double) * sc * batch);
        for (size_t i = 0; i < sa * batch; i++)
            a[i] = value((int)i, 1, 3);
        for (size_t i = 0; i < sb * batch; i++)
            b[i] = value((int)i, 2, 5);
        for (size_t i = 0; i < sc * batch; i++)
            c0[i] = value((int)i, 3, 7);
        void *da = dev_from(a, sizeof(double) * sa * batch);
        void *db = dev_from(b, sizeof(double) * sb * batch);
        void *dc = dev_from(c0, sizeof(double) * sc * batch);
        const double alpha = 0.75, beta = -0.5;
        assert_int_equal(trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, da, m, db, k,
                                      &beta, dc, m),
                         TRNBLAS_STATUS_SUCCESS);
        to_host(c, dc, sizeof(double) * sc);
        check_dgemm_result(m, n, k, alpha, a, b, beta, c0, c, "Dgemm");

        assert_int_equal(
            trnsciMemcpy(dc, c0, sizeof(double) * sc * batch, trnsciMemcpyHostToDevice),
            trnsciSuccess);
        assert_int_equal(trnblasDgemmStridedBatched(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha,
                                                    da, m, (long long)sa, db, k, (long long)sb,
                                                    &beta, dc, m, (long long)sc, batch),
                         TRNBLAS_STATUS_SUCCESS);
        to_host(c, dc, sizeof(double) * sc * batch);
        for (int e = 0; e < batch; e++)
            check_dgemm_result(m, n, k, alpha, a + e * sa, b + e * sb, beta, c0 + e * sc,
                               c + e * sc, "DgemmStridedBatched");

        assert_int_equal(trnsciMemcpy(dc, c0, sizeof(double) * sc, trnsciMemcpyHostToDevice),
                         trnsciSuccess);
        assert_int_equal(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, da,
                                       TRNSCI_R_64F, m, db, TRNSCI_R_64F, k, &beta, dc,
                                       TRNSCI_R_64F, m, TRNBLAS_COMPUTE_64F, TRNBLAS_GEMM_DEFAULT),
                         TRNBLAS_STATUS_SUCCESS);
        to_host(c, dc, sizeof(double) * sc);
        check_dgemm_result(m, n, k, alpha, a, b, beta, c0, c, "GemmEx 64F");
        trnsciFree(da);
        trnsciFree(db);
        trnsciFree(dc);
        free(a);
        free(b);
        free(c0);
        free(c);
    }
    trnblasDestroy(h);
}

/* A trntensor contraction in double ("mk,kn->mn", k odd) runs through the
 * same routine from another family. */
static void test_contraction_right(void **state) {
    (void)state;
    const int m = 33, n = 17, k = 65;
    const size_t sa = (size_t)m * k, sb = (size_t)k * n, sc = (size_t)m * n;
    double *a = malloc(sizeof(double) * sa), *b = malloc(sizeof(double) * sb);
    double *c0 = calloc(sc, sizeof(double)), *d = malloc(sizeof(double) * sc);
    for (size_t i = 0; i < sa; i++)
        a[i] = value((int)i, 4, 1);
    for (size_t i = 0; i < sb; i++)
        b[i] = value((int)i, 5, 2);
    void *da = dev_from(a, sizeof(double) * sa), *db = dev_from(b, sizeof(double) * sb);
    void *dd = dev_from(c0, sizeof(double) * sc);
    trntensorHandle_t h;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    const int64_t ea[2] = {m, k}, eb[2] = {k, n}, ed[2] = {m, n};
    const int32_t ma[2] = {'m', 'k'}, mb[2] = {'k', 'n'}, md[2] = {'m', 'n'};
    trntensorTensorDescriptor_t ta, tb, td;
    assert_int_equal(trntensorCreateTensorDescriptor(h, &ta, 2, ea, NULL, TRNSCI_R_64F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreateTensorDescriptor(h, &tb, 2, eb, NULL, TRNSCI_R_64F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreateTensorDescriptor(h, &td, 2, ed, NULL, TRNSCI_R_64F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    trntensorOperationDescriptor_t op;
    assert_int_equal(trntensorCreateContraction(
                         h, &op, ta, ma, TRNTENSOR_OP_IDENTITY, tb, mb, TRNTENSOR_OP_IDENTITY, td,
                         md, TRNTENSOR_OP_IDENTITY, td, md, TRNTENSOR_COMPUTE_DESC_64F),
                     TRNTENSOR_STATUS_SUCCESS);
    trntensorPlan_t plan;
    assert_int_equal(trntensorCreatePlan(h, &plan, op, NULL, 0), TRNTENSOR_STATUS_SUCCESS);
    const double alpha = 1.0, beta = 0.0;
    assert_int_equal(trntensorContract(h, plan, &alpha, da, db, &beta, NULL, dd, NULL, 0, NULL),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    to_host(d, dd, sizeof(double) * sc);
    check_dgemm_result(m, n, k, alpha, a, b, beta, c0, d, "trntensorContract 64F");
    trntensorDestroyPlan(plan);
    trntensorDestroyOperationDescriptor(op);
    trntensorDestroyTensorDescriptor(ta);
    trntensorDestroyTensorDescriptor(tb);
    trntensorDestroyTensorDescriptor(td);
    trntensorDestroy(h);
    trnsciFree(da);
    trnsciFree(db);
    trnsciFree(dd);
    free(a);
    free(b);
    free(c0);
    free(d);
}

/* Dpotrf is refused: it fails, naming the routine; Spotrf works. */
static void test_refused_dpotrf(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    const int n = 3;
    const double a[9] = {4, 1, 0, 1, 3, 1, 0, 1, 2};
    double *da = dev_from(a, sizeof(a));
    int *dinfo = NULL;
    assert_int_equal(trnsciMalloc((void **)&dinfo, sizeof(int)), trnsciSuccess);
    int lwork = 0;
    assert_int_equal(trnsolverDnDpotrf_bufferSize(h, TRNBLAS_FILL_MODE_LOWER, n, da, n, &lwork),
                     TRNSOLVER_STATUS_SUCCESS);
    const trnsolverStatus_t st =
        trnsolverDnDpotrf(h, TRNBLAS_FILL_MODE_LOWER, n, da, n, NULL, lwork, dinfo);
    const trnsciError_t sync = trnsciDeviceSynchronize();
    /* The launch may report it (when it waits for info) or the synchronize. */
    assert_true(st != TRNSOLVER_STATUS_SUCCESS || sync != trnsciSuccess);
    if (sync != trnsciSuccess)
        assert_int_equal(sync, trnsciErrorNotSupported);
    const char *msg = trnsciGetLastErrorMessage();
    if (!strstr(msg, "LAPACKE_dpotrf_work") || !strstr(msg, "self-test"))
        fail_msg("Dpotrf's error does not name the refused routine: %s", msg);

    const float af[9] = {4, 1, 0, 1, 3, 1, 0, 1, 2};
    float *daf = dev_from(af, sizeof(af));
    assert_int_equal(trnsolverDnSpotrf(h, TRNBLAS_FILL_MODE_LOWER, n, daf, n, NULL, lwork, dinfo),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    float l[9];
    int info = -1;
    to_host(l, daf, sizeof(l));
    to_host(&info, dinfo, sizeof(info));
    assert_int_equal(info, 0);
    assert_float_equal(l[0], 2.0f, 1e-6f); /* sqrt(4) */
    trnsciFree(da);
    trnsciFree(daf);
    trnsciFree(dinfo);
    trnsolverDnDestroy(h);
}

/* On demand: the checks run again and find the same. */
static void test_on_demand(void **state) {
    (void)state;
    char out[400];
    snprintf(out, sizeof(out), "%s/ondemand.json", dmn.dir);
    const char *argv[] = {TRNSCI_CLI_PATH, "--addr", dmn.tcp_addr, "selftest", "--json", NULL};
    assert_int_equal(run_with(argv, out, 0), 1);
    assert_true(th_file_contains(out, "\"on_demand\": true"));
    assert_true(th_file_contains(out, "\"replaced\": 2, \"refused\": 1") ||
                th_file_contains(out, "\"refused\": 1"));
    assert_true(th_file_contains(dmn.log_path, "self-test (on demand)"));
}

/* trnscid --self-test exit statuses. */
static void test_self_test_command(void **state) {
    (void)state;
    char out[400];
    snprintf(out, sizeof(out), "%s/selftest.txt", dmn.dir);
    const char *faulty[] = {TRNSCID_PATH, "--self-test", NULL};
    assert_int_equal(run_with(faulty, out, 1), 1);
    assert_true(th_file_contains(out, "cblas_scasum (OpenBLAS) failed"));
    assert_true(th_file_contains(out, "LAPACKE_dpotrf_work"));

    const char *unknown[] = {TRNSCID_PATH, "--self-test", "--blas-coretype", "Pentium4", NULL};
    assert_int_equal(run_with(unknown, out, 0), 2);
    assert_true(th_file_contains(out, "--blas-coretype Pentium4: expected"));

    const char *check[] = {TRNSCID_PATH, "--check-config", "--blas-coretype", "Haswell", NULL};
    if (run_with(check, out, 0) != 0) {
        print_message("this CPU cannot run the Haswell kernels: the exit status 0 is not "
                      "checked\n");
        return;
    }
    const char *clean[] = {TRNSCID_PATH, "--self-test", "--blas-coretype", "Haswell", NULL};
    const int rc = run_with(clean, out, 0);
    if (rc != 0) {
        FILE *f = fopen(out, "r");
        char line[1024];
        while (f && fgets(line, sizeof(line), f))
            fputs(line, stderr);
        if (f)
            fclose(f);
    }
    assert_int_equal(rc, 0);
    assert_true(th_file_contains(out, "0 replaced, 0 refused"));
}

static int setup(void **state) {
    (void)state;
    char metrics[64];
    metrics_port = th_free_port();
    snprintf(metrics, sizeof(metrics), "127.0.0.1:%d", metrics_port);
    const char *args[] = {"--metrics-listen", metrics, NULL};
    faulty_env(1);
    const int rc = th_daemon_start(&dmn, args);
    faulty_env(0);
    if (rc != 0)
        return rc;
    return trnsciInit(dmn.unix_addr) == trnsciSuccess ? 0 : -1;
}

extern char **environ;

static void test_child_dies_with_parent(void **state) {
    (void)state;
    /* Orphans come to this process, so it can reap the child. */
    assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
    int records[2], report[2];
    assert_int_equal(pipe(records), 0); /* never read: a child running on would block */
    assert_int_equal(pipe(report), 0);
    const pid_t mid = fork();
    assert_true(mid >= 0);
    if (mid == 0) { /* the "daemon": spawns a child for all routines, then dies */
        char fd[16], parent[16];
        snprintf(fd, sizeof(fd), "%d", records[1]);
        snprintf(parent, sizeof(parent), "%d", (int)getpid());
        char *argv[] = {(char *)TRNSCID_PATH, "--self-test-child", fd, "0", "1", "0", "0", parent,
                        NULL};
        pid_t child = -1;
        if (posix_spawn(&child, TRNSCID_PATH, NULL, NULL, argv, environ) != 0)
            child = -1;
        _exit(write(report[1], &child, sizeof(child)) == (ssize_t)sizeof(child) ? 0 : 1);
    }
    pid_t child = -1;
    assert_int_equal(read(report[0], &child, sizeof(child)), (ssize_t)sizeof(child));
    assert_true(child > 0);
    int status = 0;
    assert_int_equal(waitpid(mid, &status, 0), mid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    /* A child that outlives its parent blocks on the unread pipe: after a
     * minute it is killed here and the test fails. */
    pid_t got = 0;
    for (int k = 0; k < 600 && got == 0; k++) {
        got = waitpid(child, &status, WNOHANG);
        if (got == 0)
            usleep(100000);
    }
    if (got == 0) {
        kill(child, SIGKILL);
        waitpid(child, &status, 0);
        fail_msg("the self-test child outlived its parent by a minute");
    }
    assert_int_equal(got, child);
    if (!((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) ||
          (WIFEXITED(status) && WEXITSTATUS(status) == 3)))
        fail_msg("the orphaned self-test child ended with status %#x", status);
    close(records[0]);
    close(records[1]);
    close(report[0]);
    close(report[1]);
    assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 0), 0);
}

static int teardown(void **state) {
    (void)state;
    trnsciDeviceReset();
    return th_daemon_stop_checked(&dmn, "daemon with faulty routines");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_up_report),   cmocka_unit_test(test_scasum_right),
        cmocka_unit_test(test_dgemm_right),       cmocka_unit_test(test_contraction_right),
        cmocka_unit_test(test_refused_dpotrf),    cmocka_unit_test(test_on_demand),
        cmocka_unit_test(test_self_test_command), cmocka_unit_test(test_child_dies_with_parent),
    };
    return cmocka_run_group_tests_name("selftest", tests, setup, teardown);
}
