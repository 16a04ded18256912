/*
 * test_fleet.c — TRNSCI_ADDR naming three daemons (client/fleet.h): new
 * sessions are spread over them by gRPC's round_robin policy, each session
 * stays on its daemon, a session whose daemon dies gets a clear error, and
 * new sessions then go to the live daemons only.
 *
 * Three real trnscid on loopback TCP (and each on its own unix socket, which
 * the test uses to ask each daemon how many sessions it holds). The process
 * opens sessions one after another (trnsciInit / trnsciDeviceReset), which
 * is what many client processes do over time.
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
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "trnsci/trnsci.h"

#define NDAEMONS 3

static th_daemon daemons[NDAEMONS];
static int alive[NDAEMONS];

/* Which daemon holds this process's one session (-1: none, -2: several). */
static int holder(void) {
    int who = -1;
    for (int i = 0; i < NDAEMONS; i++) {
        if (!alive[i])
            continue;
        trnsciDaemonStatus st;
        assert_int_equal(trnsciDaemonGetStatus(daemons[i].unix_addr, &st), trnsciSuccess);
        if (st.sessions > 0)
            who = who == -1 ? i : -2;
    }
    return who;
}

/* Opens a session through the fleet address, does a call in it, and
 * returns the daemon it landed on (the session stays open). */
static int open_session(void) {
    assert_int_equal(trnsciInit(NULL), trnsciSuccess);
    void *p = NULL;
    assert_int_equal(trnsciMalloc(&p, 256), trnsciSuccess);
    assert_int_equal(trnsciFree(p), trnsciSuccess);
    const int who = holder();
    assert_true(who >= 0);
    return who;
}

static void test_spread_and_failover(void **state) {
    (void)state;
    char fleet[256] = "";
    for (int i = 0; i < NDAEMONS; i++) {
        const char *const args[] = {"--cores", "1", NULL};
        assert_int_equal(th_daemon_start(&daemons[i], args), 0);
        alive[i] = 1;
        snprintf(fleet + strlen(fleet), sizeof(fleet) - strlen(fleet), "%s%s", i ? "," : "",
                 daemons[i].tcp_addr);
    }
    setenv("TRNSCI_ADDR", fleet, 1);

    /* Spread: nine sessions in turn; round_robin rotates over the three
     * (the first picks may come before every connection is up, so each
     * daemon is only required to get some). */
    int per[NDAEMONS] = {0};
    for (int k = 0; k < 9; k++) {
        per[open_session()]++;
        assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
        assert_int_equal(holder(), -1);
    }
    for (int i = 0; i < NDAEMONS; i++) {
        fprintf(stderr, "daemon %d (%s): %d of 9 sessions\n", i, daemons[i].tcp_addr, per[i]);
        assert_true(per[i] >= 1);
    }

    /* A session whose daemon dies: a clear error naming that daemon. */
    const int victim = open_session();
    void *p = NULL;
    assert_int_equal(trnsciMalloc(&p, 4096), trnsciSuccess);
    kill(daemons[victim].pid, SIGKILL);
    waitpid(daemons[victim].pid, NULL, 0);
    daemons[victim].pid = 0;
    alive[victim] = 0;
    const trnsciError_t e = trnsciMemsetAsync(p, 0, 4096, 0) != trnsciSuccess
                                ? trnsciGetLastError()
                                : trnsciDeviceSynchronize();
    assert_int_equal(e, trnsciErrorDevicesUnavailable);
    const char *msg = trnsciGetLastErrorMessage();
    fprintf(stderr, "after the daemon died: %s\n", msg);
    char port[16];
    snprintf(port, sizeof(port), ":%d", daemons[victim].port);
    assert_non_null(strstr(msg, "the daemon of this session"));
    assert_non_null(strstr(msg, port));
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);

    /* New sessions go to the live daemons, both of them. */
    int live[NDAEMONS] = {0};
    for (int k = 0; k < 6; k++) {
        const int who = open_session();
        assert_true(who != victim);
        live[who]++;
        assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
    }
    for (int i = 0; i < NDAEMONS; i++)
        assert_true(i == victim ? live[i] == 0 : live[i] >= 1);

    unsetenv("TRNSCI_ADDR");
    int bad = 0;
    for (int i = 0; i < NDAEMONS; i++) {
        if (alive[i])
            bad += th_daemon_stop_checked(&daemons[i], "a live daemon of the fleet");
        else
            th_remove_dir(daemons[i].dir);
    }
    assert_int_equal(bad, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spread_and_failover),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
