/*
 * test_daemon.c — trnscid as a program: flags, one daemon per socket and
 * port, the `trnsci status` CLI, and a clean exit on SIGTERM.
 */
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
#include "trnsci/trnsci.h"

#ifndef TRNSCI_CLI_PATH
#error "TRNSCI_CLI_PATH must name the trnsci CLI under test"
#endif

static th_daemon daemon_under_test;
static char out_path[300];

static void test_help_and_version(void **state) {
    (void)state;
    const char *const help[] = {TRNSCID_PATH, "--help", NULL};
    assert_int_equal(th_run(help, out_path), 0);
    assert_true(th_file_contains(out_path, "--listen"));
    assert_true(th_file_contains(out_path, "--max-session-bytes"));
    const char *const version[] = {TRNSCID_PATH, "--version", NULL};
    assert_int_equal(th_run(version, out_path), 0);
    assert_true(th_file_contains(out_path, "trnscid "));
}

static void test_bad_flags(void **state) {
    (void)state;
    const char *const unknown[] = {TRNSCID_PATH, "--no-such-flag", NULL};
    assert_int_equal(th_run(unknown, out_path), 2);
    assert_true(th_file_contains(out_path, "--no-such-flag"));
    const char *const cores[] = {TRNSCID_PATH, "--cores", "0", NULL};
    assert_int_equal(th_run(cores, out_path), 2);
    assert_true(th_file_contains(out_path, "--cores"));
    const char *const bytes[] = {TRNSCID_PATH, "--max-session-bytes", "lots", NULL};
    assert_int_equal(th_run(bytes, out_path), 2);
    const char *const listen[] = {TRNSCID_PATH, "--listen", "unix:relative.sock", NULL};
    assert_int_equal(th_run(listen, out_path), 2);
}

static void test_second_daemon_on_same_socket(void **state) {
    (void)state;
    const char *const argv[] = {TRNSCID_PATH, "--listen", daemon_under_test.unix_addr, NULL};
    assert_int_equal(th_run(argv, out_path), 1);
    assert_true(th_file_contains(out_path, "already serving"));
    /* The first daemon still owns its socket. */
    trnsciDaemonStatus st;
    assert_int_equal(trnsciDaemonGetStatus(daemon_under_test.unix_addr, &st), trnsciSuccess);
}

static void test_second_daemon_on_same_port(void **state) {
    (void)state;
    char sock[400];
    snprintf(sock, sizeof(sock), "unix:%s/other.sock", daemon_under_test.dir);
    const char *const argv[] = {TRNSCID_PATH,
                                "--listen",
                                sock,
                                "--listen",
                                daemon_under_test.tcp_addr,
                                "--allow-unauthenticated-tcp",
                                NULL};
    assert_int_equal(th_run(argv, out_path), 1);
    assert_true(th_file_contains(out_path, "cannot listen on"));
    trnsciDaemonStatus st;
    assert_int_equal(trnsciDaemonGetStatus(daemon_under_test.tcp_addr, &st), trnsciSuccess);
}

static void test_status_cli(void **state) {
    (void)state;
    void *p;
    assert_int_equal(trnsciInit(daemon_under_test.unix_addr), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&p, 12345), trnsciSuccess);
    const char *const argv[] = {TRNSCI_CLI_PATH, "--addr", daemon_under_test.unix_addr, "status",
                                NULL};
    assert_int_equal(th_run(argv, out_path), 0);
    assert_true(th_file_contains(out_path, "sessions:       1"));
    assert_true(th_file_contains(out_path, "bytes held:     12345"));
    assert_true(th_file_contains(out_path, "cores:"));
    assert_true(th_file_contains(out_path, "ops queued:"));
    /* The session list names the transport: this process came over unix:. */
    assert_true(th_file_contains(out_path, "TRANSPORT"));
    assert_true(th_file_contains(out_path, "  local  "));
    trnsciSessionInfo info[4];
    int nsessions = 0;
    assert_int_equal(trnsciDaemonGetSessions(daemon_under_test.tcp_addr, info, 4, &nsessions),
                     trnsciSuccess);
    assert_int_equal(nsessions, 1);
    assert_string_equal(info[0].transport, "local");
    assert_int_equal(info[0].pid, (unsigned)getpid());
    assert_int_equal(info[0].uid, (unsigned)getuid());
    assert_int_equal(info[0].bytes, 12345);
    int n = 0, cores = 0;
    assert_int_equal(trnsciGetDeviceCount(&n), trnsciSuccess);
    assert_int_equal(n, 1);
    assert_int_equal(trnsciDeviceGetAttribute(&cores, trnsciDevAttrMultiProcessorCount, 0),
                     trnsciSuccess);
    assert_true(cores >= 1);
    assert_int_equal(trnsciDeviceGetAttribute(&cores, trnsciDevAttrMultiProcessorCount, 1),
                     trnsciErrorInvalidDevice);
    trnsciDeviceReset();
    assert_int_equal(th_wait_daemon_idle(daemon_under_test.unix_addr, 5000), 0);

    /* No daemon at the address: a clear error, not a hang. */
    const char *const none[] = {TRNSCI_CLI_PATH, "--addr", "unix:/nonexistent/trnscid.sock",
                                "status", NULL};
    assert_int_equal(th_run(none, out_path), 1);
    assert_true(th_file_contains(out_path, "trnsciErrorNoDevice"));
    assert_int_equal(trnsciInit("unix:/nonexistent/trnscid.sock"), trnsciErrorNoDevice);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "no trnscid reachable"));
}

int main(void) {
    if (th_daemon_start(&daemon_under_test, NULL) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    snprintf(out_path, sizeof(out_path), "%s/out.txt", daemon_under_test.dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_and_version),
        cmocka_unit_test(test_bad_flags),
        cmocka_unit_test(test_second_daemon_on_same_socket),
        cmocka_unit_test(test_second_daemon_on_same_port),
        cmocka_unit_test(test_status_cli),
    };
    int failed = cmocka_run_group_tests_name("daemon", tests, NULL, NULL);
    const int rc = th_daemon_stop(&daemon_under_test);
    if (rc != 0) {
        fprintf(stderr, "trnscid exited with %d (expected a clean 0)\n", rc);
        failed++;
    }
    return failed ? 1 : 0;
}
