/*
 * harness.h — integration-test support: start a real trnscid on a private
 * unix socket and a free loopback port, wait until it answers, stop it with
 * SIGTERM and report how it exited.
 */
#ifndef TRN_TESTS_HARNESS_H
#define TRN_TESTS_HARNESS_H

#include <stddef.h>
#include <sys/types.h>

#include "trnsci/trnblas.h"

typedef struct th_daemon {
    pid_t pid;
    char dir[256];       /* private temp directory */
    char unix_addr[320]; /* unix:<dir>/trnscid.sock */
    char tcp_addr[64];   /* 127.0.0.1:<port> */
    char log_path[320];  /* the daemon's stderr */
    int port;
} th_daemon;

/* th_daemon_stop for the end of a test program: returns 0 after a clean
 * exit, else prints what happened (naming the daemon as `what`) and returns
 * 1, to be added to the failure count. */
int th_daemon_stop_checked(th_daemon *d, const char *what);
/* Removes a directory tree the test made (rm -rf); complains on failure. */
void th_remove_dir(const char *dir);

/* A TCP port on 127.0.0.1 that was free a moment ago. */
int th_free_port(void);

/* Starts TRNSCID_PATH with --listen for both addresses, --log-level debug,
 * --allow-unauthenticated-tcp (the TCP port has no tokens unless a test
 * gives a tokens file) and the given extra arguments (NULL-terminated list, may be NULL). Returns 0
 * once the daemon answers a Status call (within 20 s), -1 otherwise. */
int th_daemon_start(th_daemon *d, const char *const *extra_args);

/* Starts n daemons for a comparison across core counts: ds[d] with
 * `--cores d+1` and then extra_args (NULL-terminated, may be NULL), each as
 * th_daemon_start. Returns 0 once all answer; otherwise says on stderr
 * which one did not start, stops those it started (th_daemon_stop: the
 * failed one's log is shown) and returns -1. */
int th_daemons_start(th_daemon *ds, int n, const char *const *extra_args);
/* th_daemon_stop_checked for each of n daemons (named `what`): the number
 * that did not exit cleanly. */
int th_daemons_stop_checked(th_daemon *ds, int n, const char *what);

/* Whether the suite's daemons keep local clients' device pointers opaque
 * (TRNSCI_TEST_DAEMON_ARGS: --device-pointers opaque, or the Neuron backend
 * unless --device-pointers mapped): device memory is then not mapped into
 * the test process. */
int th_opaque_pointers(void);

/* SIGKILLs the daemon and reaps it; its directory, socket and lock file stay
 * behind, as after a crash. Returns 0 when it died of the SIGKILL. */
int th_daemon_kill(th_daemon *d);
/* Starts the daemon again on the same directory and addresses (after
 * th_daemon_kill), appending to the same log. 0 once it answers. */
int th_daemon_restart(th_daemon *d, const char *const *extra_args);

/* Open descriptors of a process (/proc/PID/fd), or -1. */
long th_count_fds(pid_t pid);
/* A "Field:" of /proc/PID/status in kB (e.g. "VmRSS:"), or -1. */
long th_status_kb(pid_t pid, const char *field);

/* Sends SIGTERM and waits (up to 20 s). Returns the exit status (0 for a
 * clean, leak-free exit), 128+signal if it died of a signal, or -1 on
 * timeout (the daemon is then killed). Removes the temp directory. */
int th_daemon_stop(th_daemon *d);

/* Starts this test binary again as `ARGV0 --role ROLE ADDR FD` (FD: a
 * descriptor the child inherits, or -1). gRPC is not fork-safe once
 * initialised, so client processes are always re-executed, never forked
 * bare. Returns the child's pid. */
pid_t th_spawn_role(const char *role, const char *addr, int fd);

/* th_spawn_role with a pipe as FD, returning once the child has written
 * one byte to it ("my work is queued"), or -1 (the child is then reaped). */
pid_t th_spawn_ready(const char *role, const char *addr);
/* SIGKILLs a child and reaps it: 0 when it died of that SIGKILL. */
int th_kill_child(pid_t pid);
/* Sleeps for ms milliseconds. */
void th_sleep_ms(int ms);
/* Waits up to timeout_ms for pid to hold at most fds descriptors; *now is
 * the last count. Returns 0, or -1 on timeout. */
int th_wait_fds_at_most(pid_t pid, long fds, int timeout_ms, long *now);

/* Waits for a child: its exit status, or 128 + signal. */
int th_wait_child(pid_t pid);

/* Runs a program and returns its exit status; output goes to out_path when
 * not NULL. */
int th_run(const char *const *argv, const char *out_path);

/* Whether the file at path contains needle. */
int th_file_contains(const char *path, const char *needle);

/* GET http://127.0.0.1:port/path into buf (headers included); returns the
 * HTTP status, or -1. */
int th_http_get(int port, const char *path, char *buf, size_t len);

/* The value of the sample `series` (e.g. `trnscid_requests_total{transport="local"}`)
 * on the /metrics page at port; -1 when the page or the sample is missing
 * (said on stderr). */
double th_metrics_sample(int port, const char *series);

/* One SGEMM C = A^T B on 16x16 integer matrices through the daemon (any
 * transport: data moves with trnsciMemcpy), checked exactly: inputs in
 * [-3, 3] make every product and sum an integer below 2^24, which float
 * arithmetic represents without rounding. Returns 0 when the result is
 * right, 1 when wrong, -1 when a call failed. */
int th_sgemm_round(trnblasHandle_t h, int round);

/* Polls trnsciDaemonGetStatus until no session, buffer, byte or op is held,
 * for up to timeout_ms. Returns 0 when idle, -1 on timeout. */
int th_wait_daemon_idle(const char *addr, int timeout_ms);

#endif
