/*
 * test_ops.c — trnscid as an operated service: the config file and SIGHUP
 * reload, systemd readiness/status/watchdog notifications, socket
 * activation, and journald log prefixes. A real daemon each time; the
 * systemd side is played by this test through the documented environment
 * protocols (sd_notify(3), sd_listen_fds(3), systemd.exec(5) JOURNAL_STREAM),
 * so no systemd is needed.
 *
 * Rules checked:
 *  - reload: a live key changed in the file (max-session-bytes) takes effect
 *    in a running session after SIGHUP and is logged; a key that needs a restart
 *    (cores) is logged as ignored; a file that no longer parses changes
 *    nothing and the error names file:line;
 *  - notify: READY=1 with a STATUS= once serving, WATCHDOG=1 at half of
 *    WATCHDOG_USEC, RELOADING=1 then READY=1 around a SIGHUP, STOPPING=1 on
 *    SIGTERM;
 *  - socket activation: a daemon given a listening socket (LISTEN_FDS=1,
 *    LISTEN_PID) serves clients on it and leaves its path in place on exit;
 *  - metrics: /healthz and /readyz answer 200, unknown paths 404; /metrics
 *    counts exactly the ops run (by family, op and outcome, with queue and
 *    run time histograms), the local session, its buffer bytes and the
 *    transport's requests and bytes; without --metrics-listen nothing
 *    listens;
 *  - the CLI: status (per-session rows), status/plans/top --json are valid
 *    JSON naming this process's session, top --once and batch mode print
 *    per-core rows and the session, bench's check of every family passes
 *    (its own exact references: tools/bench.c);
 *  - per-session log lines name the session, its pid and uid;
 *  - journald: with JOURNAL_STREAM naming stderr, every line starts with a
 *    "<N>" priority; with a JOURNAL_STREAM naming another file, plain lines.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "trnsci/trnsci.h"

static void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Waits up to timeout_ms for `needle` to appear in the file at path. */
static int wait_for_text(const char *path, const char *needle, int timeout_ms) {
    for (int waited = 0; waited <= timeout_ms; waited += 20) {
        if (th_file_contains(path, needle))
            return 1;
        sleep_ms(20);
    }
    fprintf(stderr, "waited %d ms for \"%s\" in %s\n", timeout_ms, needle, path);
    return 0;
}

/* ---- config file and SIGHUP ------------------------------------------------ */

static void test_reload(void **state) {
    (void)state;
    char dir[] = "/tmp/trnsci-ops-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char conf[300];
    snprintf(conf, sizeof(conf), "%s/trnscid.conf", dir);
    write_file(conf, "# test\nmax-session-bytes = 4K\ncores = 1\n");
    th_daemon d;
    const char *const args[] = {"--config", conf, NULL};
    assert_int_equal(th_daemon_start(&d, args), 0);

    /* 8 KiB is over the 4 KiB quota. */
    assert_int_equal(trnsciInit(d.unix_addr), trnsciSuccess);
    void *p = NULL;
    assert_int_equal(trnsciMalloc(&p, 1024), trnsciSuccess);
    assert_int_equal(trnsciFree(p), trnsciSuccess);
    /* Per-session log lines carry the session, pid and uid. */
    char who[160];
    snprintf(who, sizeof(who), "session #1 (libtrnsci, pid %u, uid %u) opened over local",
             (unsigned)getpid(), (unsigned)getuid());
    assert_true(wait_for_text(d.log_path, who, 5000));
    assert_int_equal(trnsciMalloc(&p, 8192), trnsciErrorMemoryAllocation);
    (void)trnsciGetLastError();

    /* Raise it, and change a key that needs a restart. */
    write_file(conf, "max-session-bytes = 16K\ncores = 2\n");
    kill(d.pid, SIGHUP);
    assert_true(wait_for_text(d.log_path, "reload: max-session-bytes 4K -> 16K", 5000));
    assert_true(
        wait_for_text(d.log_path, "reload: cores changed (1 -> 2) but needs a restart", 5000));
    assert_int_equal(trnsciMalloc(&p, 8192), trnsciSuccess);
    trnsciDaemonStatus st;
    assert_int_equal(trnsciDaemonGetStatus(d.unix_addr, &st), trnsciSuccess);
    assert_int_equal(st.coreCount, 1);

    /* A broken file changes nothing and says where it is broken: the quota
     * stays 16 KiB (a second 8 KiB fits, a third does not). */
    write_file(conf, "max-session-bytes = 1G\nmax-session-bytes = 0\n");
    kill(d.pid, SIGHUP);
    char want[400];
    snprintf(want, sizeof(want), "reload: %s:2: max-session-bytes 0: expected", conf);
    assert_true(wait_for_text(d.log_path, want, 5000));
    assert_true(wait_for_text(d.log_path, "the running configuration stays", 5000));
    void *q = NULL, *r = NULL;
    assert_int_equal(trnsciMalloc(&q, 8192), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&r, 8192), trnsciErrorMemoryAllocation);
    (void)trnsciGetLastError();

    assert_int_equal(trnsciFree(p), trnsciSuccess);
    assert_int_equal(trnsciFree(q), trnsciSuccess);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
    assert_int_equal(th_daemon_stop(&d), 0);
    th_remove_dir(dir);
}

/* A bad config file at start-up: exit status 2, file:line on stderr. */
static void test_bad_config_file(void **state) {
    (void)state;
    char dir[] = "/tmp/trnsci-ops-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char conf[300], out[300], want[400];
    snprintf(conf, sizeof(conf), "%s/trnscid.conf", dir);
    snprintf(out, sizeof(out), "%s/out", dir);
    write_file(conf, "max-streams = 4\nno-such-key = 1\n");
    const char *const argv[] = {TRNSCID_PATH, "--config", conf, NULL};
    assert_int_equal(th_run(argv, out), 2);
    snprintf(want, sizeof(want), "%s:2: unknown key 'no-such-key'", conf);
    assert_true(th_file_contains(out, want));
    th_remove_dir(dir);
}

/* ---- sd_notify ----------------------------------------------------------------- */

/* Receives one notification (up to timeout_ms) into buf; returns its length
 * or -1. */
static int recv_notify(int fd, char *buf, size_t len, int timeout_ms) {
    struct pollfd p = {.fd = fd, .events = POLLIN};
    if (poll(&p, 1, timeout_ms) != 1)
        return -1;
    const ssize_t n = recv(fd, buf, len - 1, 0);
    if (n < 0)
        return -1;
    buf[n] = '\0';
    return (int)n;
}

/* Reads notifications until one contains `needle` (up to timeout_ms). */
static int expect_notify(int fd, const char *needle, int timeout_ms) {
    char buf[1024];
    for (int waited = 0; waited <= timeout_ms; waited += 50)
        if (recv_notify(fd, buf, sizeof(buf), 50) >= 0 && strstr(buf, needle))
            return 1;
    fprintf(stderr, "no notification with \"%s\" within %d ms\n", needle, timeout_ms);
    return 0;
}

static void test_notify(void **state) {
    (void)state;
    char dir[] = "/tmp/trnsci-ops-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    snprintf(a.sun_path, sizeof(a.sun_path), "%s/notify", dir);
    const int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    assert_true(fd >= 0);
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
    setenv("NOTIFY_SOCKET", a.sun_path, 1);
    setenv("WATCHDOG_USEC", "400000", 1); /* 0.4 s: pings every 0.2 s */
    th_daemon d;
    const char *const args[] = {"--cores", "1", NULL};
    const int started = th_daemon_start(&d, args);
    unsetenv("NOTIFY_SOCKET");
    unsetenv("WATCHDOG_USEC");
    assert_int_equal(started, 0);

    /* The self-test runs first, and says so; then READY. */
    char buf[1024];
    assert_true(recv_notify(fd, buf, sizeof(buf), 5000) > 0);
    assert_non_null(strstr(buf, "STATUS=checking the outside routines (self-test)"));
    assert_true(recv_notify(fd, buf, sizeof(buf), 5000) > 0);
    assert_non_null(strstr(buf, "READY=1"));
    assert_non_null(strstr(buf, "STATUS=serving on 1 cores"));
    /* 1.5 s at one ping per 0.2 s: at least 3 even on a loaded machine. */
    int watchdogs = 0;
    for (int waited = 0; waited < 1500; waited += 50)
        if (recv_notify(fd, buf, sizeof(buf), 50) >= 0 && strstr(buf, "WATCHDOG=1"))
            watchdogs++;
    assert_true(watchdogs >= 3);
    assert_true(th_file_contains(d.log_path, "watchdog: 400 ms"));

    kill(d.pid, SIGHUP);
    assert_true(expect_notify(fd, "RELOADING=1", 5000));
    assert_true(expect_notify(fd, "READY=1", 5000));
    const pid_t pid = d.pid;
    kill(pid, SIGTERM);
    assert_true(expect_notify(fd, "STOPPING=1", 5000));
    assert_int_equal(th_daemon_stop(&d), 0);
    close(fd);
    th_remove_dir(dir);
}

/* ---- socket activation and journald, with the daemon started by hand -------- */

/* Decimal digits of v into buf (async-signal-safe, for the child). */
static void utoa(unsigned long v, char *buf) {
    char tmp[24];
    int n = 0;
    do
        tmp[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    for (int i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    buf[n] = '\0';
}

/* Starts trnscid with stderr into log_fd and, when listen_fd >= 0, that
 * socket passed as systemd would (fd 3, LISTEN_FDS=1, LISTEN_PID). extra_env
 * is one more "NAME=value" or NULL. */
static pid_t spawn_daemon(const char *const *argv, int log_fd, int listen_fd,
                          const char *extra_env) {
    const pid_t pid = fork();
    if (pid != 0)
        return pid;
    char listen_pid[48] = "LISTEN_PID=";
    utoa((unsigned long)getpid(), listen_pid + strlen(listen_pid));
    const char *env[8];
    int n = 0;
    env[n++] = "PATH=/usr/bin:/bin";
    if (listen_fd >= 0) {
        env[n++] = "LISTEN_FDS=1";
        env[n++] = listen_pid;
        if (listen_fd != 3) {
            dup2(listen_fd, 3);
            close(listen_fd);
        } else {
            fcntl(3, F_SETFD, 0);
        }
    }
    if (extra_env)
        env[n++] = extra_env;
    env[n] = NULL;
    /* A failing test must not leave its daemon behind (holding the test
     * runner's output open). */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    dup2(log_fd, STDERR_FILENO);
    dup2(log_fd, STDOUT_FILENO);
    execve(argv[0], (char *const *)argv, (char *const *)env);
    _exit(127);
}

static int wait_ready(const char *addr, pid_t pid) {
    for (int waited = 0; waited < 20000; waited += 50) {
        trnsciDaemonStatus st;
        if (trnsciDaemonGetStatus(addr, &st) == trnsciSuccess)
            return 0;
        if (waitpid(pid, NULL, WNOHANG) == pid)
            return -1;
        sleep_ms(50);
    }
    return -1;
}

static int stop_daemon(pid_t pid) {
    kill(pid, SIGTERM);
    int status;
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void test_socket_activation(void **state) {
    (void)state;
    char dir[] = "/tmp/trnsci-ops-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    snprintf(a.sun_path, sizeof(a.sun_path), "%s/trnscid.sock", dir);
    const int lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    assert_true(lfd >= 0);
    assert_int_equal(bind(lfd, (struct sockaddr *)&a, sizeof(a)), 0);
    assert_int_equal(listen(lfd, 16), 0);
    char addr[200], log_path[200];
    snprintf(addr, sizeof(addr), "unix:%s", a.sun_path);
    snprintf(log_path, sizeof(log_path), "%s/log", dir);
    const int log_fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    assert_true(log_fd >= 0);

    const char *const argv[] = {TRNSCID_PATH, "--listen", addr, "--cores", "1", NULL};
    const pid_t pid = spawn_daemon(argv, log_fd, lfd, NULL);
    assert_true(pid > 0);
    assert_int_equal(wait_ready(addr, pid), 0);
    assert_true(wait_for_text(log_path, "socket passed by the service manager", 5000));
    /* A client session over the passed socket. */
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    void *p = NULL;
    assert_int_equal(trnsciMalloc(&p, 4096), trnsciSuccess);
    assert_int_equal(trnsciMemset(p, 7, 4096), trnsciSuccess);
    unsigned char back[16];
    assert_int_equal(trnsciMemcpy(back, p, sizeof(back), trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(back[15], 7);
    assert_int_equal(trnsciFree(p), trnsciSuccess);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
    assert_int_equal(stop_daemon(pid), 0);
    /* The service manager's socket stays where it was. */
    struct stat st;
    assert_int_equal(stat(a.sun_path, &st), 0);
    assert_true(S_ISSOCK(st.st_mode));
    close(lfd);
    close(log_fd);
    th_remove_dir(dir);
}

/* Whether line starts with a level: "<6>info: " (journal) or "trnscid:
 * info: " (plain), for any of the levels. */
static int starts_with_level(const char *line, int journal) {
    static const char *const levels[][2] = {{"<3>error: ", "trnscid: error: "},
                                            {"<4>warn: ", "trnscid: warn: "},
                                            {"<6>info: ", "trnscid: info: "},
                                            {"<7>debug: ", "trnscid: debug: "}};
    for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
        const char *p = levels[i][journal ? 0 : 1];
        if (strncmp(line, p, strlen(p)) == 0)
            return 1;
    }
    return 0;
}

/* Runs a daemon with JOURNAL_STREAM naming `journal_of` (a file's dev:ino)
 * while stderr goes to log_path; returns whether every line starts with a
 * level in the journal's form (journal) or the plain one. (The first lines
 * may be warnings: the self-test's, on a CPU where a routine failed.) */
static int lines_start(const char *dir, const char *log_path, const char *journal_of, int journal) {
    const int log_fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    assert_true(log_fd >= 0);
    struct stat st;
    assert_int_equal(stat(journal_of, &st), 0);
    char env[96];
    snprintf(env, sizeof(env), "JOURNAL_STREAM=%llu:%llu", (unsigned long long)st.st_dev,
             (unsigned long long)st.st_ino);
    char addr[200];
    snprintf(addr, sizeof(addr), "unix:%s/j.sock", dir);
    const char *const argv[] = {TRNSCID_PATH, "--listen", addr, "--cores", "1", NULL};
    const pid_t pid = spawn_daemon(argv, log_fd, -1, env);
    assert_int_equal(wait_ready(addr, pid), 0);
    assert_int_equal(stop_daemon(pid), 0);
    close(log_fd);
    FILE *f = fopen(log_path, "r");
    assert_non_null(f);
    char line[2048] = "";
    int all = 1, n = 0;
    while (fgets(line, sizeof(line), f)) {
        n++;
        all &= starts_with_level(line, journal);
    }
    fclose(f);
    return n > 0 && all;
}

static void test_journal_prefix(void **state) {
    (void)state;
    char dir[] = "/tmp/trnsci-ops-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char log_path[200], other[200];
    snprintf(log_path, sizeof(log_path), "%s/log", dir);
    snprintf(other, sizeof(other), "%s/other", dir);
    write_file(log_path, "");
    write_file(other, "");
    /* stderr is the journal stream: "<6>info: listening on ...". */
    assert_true(lines_start(dir, log_path, log_path, 1));
    assert_true(th_file_contains(log_path, "<6>info: listening on"));
    assert_false(th_file_contains(log_path, "trnscid: info"));
    /* The variable names another file (inherited from a parent): plain. */
    assert_true(lines_start(dir, log_path, other, 0));
    assert_true(th_file_contains(log_path, "trnscid: info: listening on"));
    assert_false(th_file_contains(log_path, "<6>"));
    th_remove_dir(dir);
}

/* ---- metrics --------------------------------------------------------------------- */

/* The value of the sample `series` (exact name and labels) in a page, or -1. */
static double sample(const char *page, const char *series) {
    const size_t n = strlen(series);
    for (const char *p = strstr(page, series); p; p = strstr(p + 1, series))
        if ((p == page || p[-1] == '\n') && p[n] == ' ')
            return strtod(p + n + 1, NULL);
    return -1;
}

static void test_metrics(void **state) {
    (void)state;
    const int port = th_free_port();
    char listen[64];
    snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
    th_daemon d;
    const char *const args[] = {"--cores", "1", "--metrics-listen", listen, NULL};
    assert_int_equal(th_daemon_start(&d, args), 0);
    static char page[1 << 17];
    assert_int_equal(th_http_get(port, "/healthz", page, sizeof(page)), 200);
    /* Clients may be served a moment before start-up completes and /readyz
     * turns 200 (as a readiness probe would, poll). */
    int ready = 0;
    for (int waited = 0; waited < 5000 && ready != 200; waited += 20) {
        ready = th_http_get(port, "/readyz", page, sizeof(page));
        if (ready != 200) {
            assert_int_equal(ready, 503);
            sleep_ms(20);
        }
    }
    assert_int_equal(ready, 200);
    assert_non_null(strstr(page, "ready: 1 cores"));
    assert_int_equal(th_http_get(port, "/nope", page, sizeof(page)), 404);

    /* Seven memsets queued on the default stream over the local transport. */
    assert_int_equal(trnsciInit(d.unix_addr), trnsciSuccess);
    void *p = NULL;
    assert_int_equal(trnsciMalloc(&p, 65536), trnsciSuccess);
    for (int i = 0; i < 7; i++)
        assert_int_equal(trnsciMemsetAsync(p, i, 65536, 0), trnsciSuccess);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(th_http_get(port, "/metrics", page, sizeof(page)), 200);
    assert_non_null(strstr(page, "Content-Type: text/plain; version=0.0.4"));
    if (getenv("TRNSCI_TEST_SHOW"))
        fputs(page, stderr);
    assert_true(sample(page, "trnscid_cores") == 1);
    assert_true(sample(page, "trnscid_sessions{transport=\"local\"}") == 1);
    assert_true(sample(page, "trnscid_sessions{transport=\"grpc\"}") == 0);
    assert_true(sample(page, "trnscid_buffer_bytes") == 65536);
    assert_true(sample(page, "trnscid_ops_total{family=\"memory\",op=\"memset\",outcome=\"ok\"}") ==
                7);
    assert_true(sample(page, "trnscid_op_run_seconds_count{family=\"memory\",op=\"memset\"}") == 7);
    assert_true(sample(page, "trnscid_op_queue_seconds_bucket{family=\"memory\",op=\"memset\","
                             "le=\"+Inf\"}") == 7);
    assert_true(sample(page, "trnscid_requests_total{transport=\"local\"}") >= 9);
    assert_true(sample(page, "trnscid_transport_received_bytes_total{transport=\"local\"}") > 0);
    assert_true(sample(page, "trnscid_transport_sent_bytes_total{transport=\"local\"}") > 0);
    assert_true(sample(page, "trnscid_plan_cache_prewarm_done") == 1);
    assert_true(sample(page, "trnscid_memory_resident_bytes") > 0);
    /* Memsets run on the copy engine or, without one, on the cores. */
    assert_true(sample(page, "trnscid_worker_shards_total{engine=\"core\",index=\"0\"}") +
                    sample(page, "trnscid_worker_shards_total{engine=\"copy\",index=\"0\"}") >=
                7);
    assert_int_equal(trnsciFree(p), trnsciSuccess);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
    assert_int_equal(th_daemon_stop(&d), 0);

    /* Without --metrics-listen nothing listens on the port. */
    const char *const none[] = {"--cores", "1", NULL};
    assert_int_equal(th_daemon_start(&d, none), 0);
    assert_int_equal(th_http_get(port, "/metrics", page, sizeof(page)), -1);
    assert_int_equal(th_daemon_stop(&d), 0);
}

/* ---- the CLI's read commands: --json and top ------------------------------------ */

/* Runs the CLI with args into out; returns its exit status. */
static int cli(const char *addr, const char *const *args, const char *out) {
    const char *argv[16] = {TRNSCI_CLI_PATH, "--addr", addr};
    int n = 3;
    for (int i = 0; args[i] && n < 15; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    return th_run(argv, out);
}

static int valid_json(const char *path) {
    const char *const argv[] = {"/usr/bin/python3", "-m", "json.tool", path, NULL};
    return th_run(argv, "/dev/null") == 0;
}

static void test_cli(void **state) {
    (void)state;
    th_daemon d;
    const char *const args[] = {"--cores", "1", "--plan-effort", "estimate", NULL};
    assert_int_equal(th_daemon_start(&d, args), 0);
    assert_int_equal(trnsciInit(d.unix_addr), trnsciSuccess);
    void *p = NULL;
    assert_int_equal(trnsciMalloc(&p, 4096), trnsciSuccess);
    assert_int_equal(trnsciMemsetAsync(p, 1, 4096, 0), trnsciSuccess);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    char out[300], pid[64];
    snprintf(out, sizeof(out), "%s/cli.out", d.dir);
    snprintf(pid, sizeof(pid), "\"pid\": %u", (unsigned)getpid());

    /* status: per-session rows, as text and as JSON. */
    assert_int_equal(cli(d.unix_addr, (const char *const[]){"status", NULL}, out), 0);
    assert_true(th_file_contains(out, "TRANSPORT"));
    assert_true(th_file_contains(out, "libtrnsci"));
    assert_int_equal(cli(d.unix_addr, (const char *const[]){"status", "--json", NULL}, out), 0);
    assert_true(valid_json(out));
    assert_true(th_file_contains(out, pid));
    assert_true(th_file_contains(out, "\"ops\": 1,"));
    assert_int_equal(cli(d.unix_addr, (const char *const[]){"plans", "--json", NULL}, out), 0);
    assert_true(valid_json(out));
    assert_true(th_file_contains(out, "\"prewarm_done\": true"));

    /* top: one frame, text and JSON; two frames in batch mode. */
    assert_int_equal(
        cli(d.unix_addr, (const char *const[]){"top", "--once", "--interval", "0.1", NULL}, out),
        0);
    assert_true(th_file_contains(out, "core   0  cpu 0"));
    assert_true(th_file_contains(out, "local"));
    assert_int_equal(
        cli(d.unix_addr,
            (const char *const[]){"top", "--once", "--json", "--interval", "0.1", NULL}, out),
        0);
    assert_true(valid_json(out));
    assert_true(th_file_contains(out, pid));
    assert_true(th_file_contains(out, "\"utilisation\": "));
    assert_int_equal(
        cli(d.unix_addr,
            (const char *const[]){"top", "--iterations", "2", "--interval", "0.1", NULL}, out),
        0);
    assert_int_equal(cli(d.unix_addr, (const char *const[]){"top", "--bogus", NULL}, out), 2);

    /* bench: every family's check passes, as a table and as JSON. */
    assert_int_equal(cli(d.unix_addr, (const char *const[]){"bench", NULL}, out), 0);
    assert_true(th_file_contains(out, "sparse  SpMV CSR 65536 identity  ok"));
    assert_int_equal(cli(d.unix_addr, (const char *const[]){"bench", "--json", NULL}, out), 0);
    assert_true(valid_json(out));
    assert_true(th_file_contains(out, "{\"ok\": true,"));

    assert_int_equal(trnsciFree(p), trnsciSuccess);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
    assert_int_equal(th_daemon_stop(&d), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reload),
        cmocka_unit_test(test_bad_config_file),
        cmocka_unit_test(test_notify),
        cmocka_unit_test(test_socket_activation),
        cmocka_unit_test(test_journal_prefix),
        cmocka_unit_test(test_metrics),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
