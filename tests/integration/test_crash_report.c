/*
 * test_crash_report.c — a daemon that dies of a fatal signal names the op
 * it was running (daemon/crash.h).
 *
 * No kernel faults on purpose, so the fault is delivered from outside: the
 * daemon runs one core worker ("trn-core0"); while it runs a long DGEMM of
 * this client's, SIGSEGV is sent to that thread alone (tgkill). The handler
 * runs on the worker exactly as it would for a fault inside the kernel. The
 * daemon must then die of SIGSEGV (the default action, so a core dump could
 * be written; this test sets RLIMIT_CORE to 0), its log must give the
 * signal, the op (gemm, its op and stream numbers, the session with client
 * name and pid) and a backtrace, and the waiting client must get an error,
 * not a hang.
 *
 * The daemon runs with --executors off: a kernel that faults in an
 * executor fails only its op (test_executor.c); this is the report of a
 * fault in the daemon itself, which ops that still run there (FFT, data
 * movement) or a daemon without executors can have.
 *
 * Sanitizer builds skip it: their runtimes own the fatal signals there.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "trnsci/trnblas.h"

/* The id of the daemon's thread named `name`, or -1. */
static pid_t find_thread(pid_t pid, const char *name) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
    DIR *dir = opendir(path);
    if (!dir)
        return -1;
    pid_t found = -1;
    for (struct dirent *e; (e = readdir(dir)) && found < 0;) {
        if (e->d_name[0] == '.')
            continue;
        char comm_path[384], comm[32] = "";
        snprintf(comm_path, sizeof(comm_path), "%s/%s/comm", path, e->d_name);
        FILE *f = fopen(comm_path, "r");
        if (!f)
            continue;
        if (fgets(comm, sizeof(comm), f)) {
            comm[strcspn(comm, "\n")] = '\0';
            if (strcmp(comm, name) == 0)
                found = (pid_t)atoi(e->d_name);
        }
        fclose(f);
    }
    closedir(dir);
    return found;
}

/* User + system clock ticks of thread tid, or -1. */
static long thread_ticks(pid_t pid, pid_t tid) {
    char path[96], buf[1024];
    snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, (int)tid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    const size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* comm may hold spaces */
    long utime = -1, stime = -1;
    /* after ")": state ppid pgrp session tty tpgid flags minflt cminflt
     * majflt cmajflt utime stime */
    if (!p ||
        sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %ld %ld", &utime, &stime) != 2)
        return -1;
    return utime + stime;
}

static void test_fault_in_a_kernel_is_reported(void **state) {
    (void)state;
#ifdef TRNSCI_TEST_SANITIZED
    skip();
#endif
    const struct rlimit no_core = {0, 0};
    assert_int_equal(setrlimit(RLIMIT_CORE, &no_core), 0);
    th_daemon d;
    const char *args[] = {"--cores", "1", "--copy-engines", "0", "--executors", "off", NULL};
    assert_int_equal(th_daemon_start(&d, args), 0);
    assert_int_equal(trnsciInit(d.unix_addr), trnsciSuccess);

    /* Four DGEMMs of 1500^3 (about 0.15 s each on one core). */
    enum { N = 1500, ROUNDS = 4 };
    const size_t bytes = sizeof(double) * N * N;
    double *a, *c;
    assert_int_equal(trnsciMalloc((void **)&a, bytes), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&c, bytes), trnsciSuccess);
    assert_int_equal(trnsciMemset(a, 0, bytes), trnsciSuccess);
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    const double one = 1, zero = 0;
    for (int r = 0; r < ROUNDS; r++)
        assert_int_equal(
            trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, N, N, N, &one, a, N, a, N, &zero, c, N),
            TRNBLAS_STATUS_SUCCESS);

    /* The worker, once it has burnt 30 ms of CPU on them. */
    const pid_t tid = find_thread(d.pid, "trn-core0");
    assert_true(tid > 0);
    const long t0 = thread_ticks(d.pid, tid);
    assert_true(t0 >= 0);
    for (int i = 0; i < 400 && thread_ticks(d.pid, tid) < t0 + 3; i++)
        th_sleep_ms(5);
    assert_int_equal(syscall(SYS_tgkill, d.pid, tid, SIGSEGV), 0);

    int status = 0;
    assert_int_equal(waitpid(d.pid, &status, 0), d.pid);
    d.pid = 0;
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGSEGV);
    assert_true(th_file_contains(
        d.log_path, "error: fatal signal 11 (SIGSEGV, segmentation fault) sent by pid"));
    assert_true(
        th_file_contains(d.log_path, "the crashing worker was running blas gemm (launch #"));
    char who[96];
    snprintf(who, sizeof(who), "pid %d", (int)getpid());
    assert_true(th_file_contains(d.log_path, who));
    assert_true(th_file_contains(d.log_path, "shard 1 of 1"));
    assert_true(th_file_contains(d.log_path, "error: backtrace:"));
    assert_true(th_file_contains(d.log_path, "trnscid("));

    /* The client hears about it instead of waiting. */
    assert_int_not_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    trnsciDeviceReset();
    th_remove_dir(d.dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fault_in_a_kernel_is_reported),
    };
    return cmocka_run_group_tests_name("crash report", tests, NULL, NULL);
}
