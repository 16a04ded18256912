/*
 * harness.c — see harness.h.
 */
#define _GNU_SOURCE
#include "harness.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "trnsci/trnblas.h"
#include "trnsci/trnsci.h"

#ifndef TRNSCID_PATH
#error "TRNSCID_PATH must name the daemon binary under test"
#endif

static void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int th_free_port(void) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(a);
    int port = -1;
    if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
        getsockname(fd, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    if (fd >= 0)
        close(fd);
    return port;
}

/* Starts the daemon on d's addresses and waits until it answers. */
/* Whether 127.0.0.1:port accepts a TCP connection. */
static int tcp_accepts(int port) {
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return 0;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const int ok = connect(fd, (const struct sockaddr *)&a, sizeof(a)) == 0;
    close(fd);
    return ok;
}

static int exec_daemon(th_daemon *d, const char *const *extra_args) {
    const char *argv[64];
    int n = 0;
    argv[n++] = TRNSCID_PATH;
    argv[n++] = "--listen";
    argv[n++] = d->unix_addr;
    argv[n++] = "--listen";
    argv[n++] = d->tcp_addr;
    argv[n++] = "--log-level";
    argv[n++] = "debug";
    /* The loopback port carries no tokens unless a test gives a tokens file
     * (then this flag changes nothing). */
    argv[n++] = "--allow-unauthenticated-tcp";
    /* The suite's own extras (e.g. the simulated Neuron backend, for the
     * tests ctest runs again on it), before the test's: flags given later
     * win. Split at spaces; the text lives as long as the process. */
    static char suite_args[2048];
    const char *env = getenv("TRNSCI_TEST_DAEMON_ARGS");
    if (env && env[0]) {
        snprintf(suite_args, sizeof(suite_args), "%s", env);
        for (char *save = NULL, *tok = strtok_r(suite_args, " ", &save); tok && n < 48;
             tok = strtok_r(NULL, " ", &save))
            argv[n++] = tok;
    }
    for (int i = 0; extra_args && extra_args[i] && n < 62; i++)
        argv[n++] = extra_args[i];
    argv[n] = NULL;

    /* On the simulated Neuron backend a test may run several daemons at
     * once, and one process owns a core: each daemon started gets the next
     * of TRNSCI_TEST_NEURON_SLOTS pairs of simulated cores. */
    static unsigned started;
    const char *slots_env = getenv("TRNSCI_TEST_NEURON_SLOTS");
    const unsigned slots = slots_env ? (unsigned)atoi(slots_env) : 0;
    const unsigned slot = slots ? started++ % slots : 0;
    d->pid = fork();
    if (d->pid < 0)
        return -1;
    if (d->pid == 0) {
        if (slots) {
            char cores[32];
            snprintf(cores, sizeof(cores), "%u-%u", 2 * slot, 2 * slot + 1);
            setenv("NEURON_RT_VISIBLE_CORES", cores, 1);
        }
        /* A test that dies must not leave its daemon behind (holding the
         * test runner's output pipe open). */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        const int fd = open(d->log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, STDERR_FILENO);
            close(fd);
        }
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    /* Ready when the local socket answers a Status and the TCP port accepts
     * connections: the local frontend starts before the gRPC one, so a
     * test's first TCP call could otherwise come too early. */
    for (int waited = 0; waited < 20000; waited += 50) {
        trnsciDaemonStatus st;
        if (trnsciDaemonGetStatus(d->unix_addr, &st) == trnsciSuccess && tcp_accepts(d->port))
            return 0;
        int status;
        if (waitpid(d->pid, &status, WNOHANG) == d->pid) {
            d->pid = 0;
            return -1;
        }
        sleep_ms(50);
    }
    return -1;
}

int th_daemon_start(th_daemon *d, const char *const *extra_args) {
    memset(d, 0, sizeof(*d));
    snprintf(d->dir, sizeof(d->dir), "/tmp/trnsci-test-XXXXXX");
    if (!mkdtemp(d->dir))
        return -1;
    d->port = th_free_port();
    snprintf(d->unix_addr, sizeof(d->unix_addr), "unix:%s/trnscid.sock", d->dir);
    snprintf(d->tcp_addr, sizeof(d->tcp_addr), "127.0.0.1:%d", d->port);
    snprintf(d->log_path, sizeof(d->log_path), "%s/trnscid.log", d->dir);
    return exec_daemon(d, extra_args);
}

int th_daemons_start(th_daemon *ds, int n, const char *const *extra_args) {
    for (int d = 0; d < n; d++) {
        char cores[16];
        snprintf(cores, sizeof(cores), "%d", d + 1);
        const char *argv[64] = {"--cores", cores};
        int k = 2;
        for (int i = 0; extra_args && extra_args[i] && k < 63; i++)
            argv[k++] = extra_args[i];
        argv[k] = NULL;
        if (th_daemon_start(&ds[d], argv) != 0) {
            fprintf(stderr, "could not start trnscid (%d cores)\n", d + 1);
            for (int e = 0; e <= d; e++)
                th_daemon_stop(&ds[e]);
            return -1;
        }
    }
    return 0;
}

int th_daemons_stop_checked(th_daemon *ds, int n, const char *what) {
    int failed = 0;
    for (int d = 0; d < n; d++)
        failed += th_daemon_stop_checked(&ds[d], what);
    return failed;
}

int th_daemon_kill(th_daemon *d) {
    if (d->pid <= 0)
        return -1;
    kill(d->pid, SIGKILL);
    int status;
    const int rc =
        waitpid(d->pid, &status, 0) == d->pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL
            ? 0
            : -1;
    d->pid = 0;
    return rc;
}

int th_daemon_restart(th_daemon *d, const char *const *extra_args) {
    return exec_daemon(d, extra_args);
}

long th_count_fds(pid_t pid) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
    DIR *dir = opendir(path);
    if (!dir)
        return -1;
    long n = 0;
    for (struct dirent *e; (e = readdir(dir));)
        n += e->d_name[0] != '.';
    closedir(dir);
    return n;
}

long th_status_kb(pid_t pid, const char *field) {
    char path[64], line[256];
    snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    long v = -1;
    while (f && fgets(line, sizeof(line), f))
        if (strncmp(line, field, strlen(field)) == 0)
            v = atol(line + strlen(field) + 1);
    if (f)
        fclose(f);
    return v;
}

int th_daemon_stop(th_daemon *d) {
    int result = -1;
    if (d->pid > 0) {
        kill(d->pid, SIGTERM);
        for (int waited = 0; waited < 20000; waited += 20) {
            int status;
            if (waitpid(d->pid, &status, WNOHANG) == d->pid) {
                result = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
                break;
            }
            sleep_ms(20);
        }
        if (result == -1) {
            kill(d->pid, SIGKILL);
            waitpid(d->pid, NULL, 0);
        }
        d->pid = 0;
    }
    if (result != 0) {
        /* Show the daemon's log to explain the failure. */
        fprintf(stderr, "---- trnscid log (%s), exit %d ----\n", d->log_path, result);
        FILE *f = fopen(d->log_path, "r");
        char line[1024];
        while (f && fgets(line, sizeof(line), f))
            fputs(line, stderr);
        if (f)
            fclose(f);
    }
    char cmd[400];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d->dir);
    if (system(cmd) != 0)
        fprintf(stderr, "harness: could not remove %s\n", d->dir);
    return result;
}

pid_t th_spawn_role(const char *role, const char *addr, int fd) {
    char fdbuf[16];
    snprintf(fdbuf, sizeof(fdbuf), "%d", fd);
    const pid_t pid = fork();
    if (pid == 0) {
        execl("/proc/self/exe", "test-role", "--role", role, addr, fdbuf, (char *)NULL);
        _exit(127);
    }
    return pid;
}

pid_t th_spawn_ready(const char *role, const char *addr) {
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    const pid_t pid = th_spawn_role(role, addr, fds[1]);
    close(fds[1]);
    char ok = 0;
    const int ready = pid > 0 && read(fds[0], &ok, 1) == 1;
    close(fds[0]);
    if (pid > 0 && !ready) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
    return ready ? pid : -1;
}

int th_kill_child(pid_t pid) {
    kill(pid, SIGKILL);
    return th_wait_child(pid) == 128 + SIGKILL ? 0 : -1;
}

void th_sleep_ms(int ms) {
    sleep_ms(ms);
}

int th_wait_fds_at_most(pid_t pid, long fds, int timeout_ms, long *now) {
    for (int waited = 0;; waited += 50) {
        *now = th_count_fds(pid);
        if (*now <= fds)
            return 0;
        if (waited >= timeout_ms)
            return -1;
        sleep_ms(50);
    }
}

int th_wait_child(pid_t pid) {
    int status;
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int th_run(const char *const *argv, const char *out_path) {
    const pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (out_path) {
            const int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd >= 0) {
                dup2(fd, STDOUT_FILENO);
                dup2(fd, STDERR_FILENO);
                close(fd);
            }
        }
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int th_file_contains(const char *path, const char *needle) {
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[4096];
    int found = 0;
    while (!found && fgets(line, sizeof(line), f))
        found = strstr(line, needle) != NULL;
    fclose(f);
    return found;
}

int th_wait_daemon_idle(const char *addr, int timeout_ms) {
    for (int waited = 0; waited <= timeout_ms; waited += 50) {
        trnsciDaemonStatus st;
        if (trnsciDaemonGetStatus(addr, &st) == trnsciSuccess && st.sessions == 0 &&
            st.buffers == 0 && st.bytesHeld == 0 && st.opsQueued == 0 && st.opsRunning == 0)
            return 0;
        sleep_ms(50);
    }
    return -1;
}

int th_daemon_stop_checked(th_daemon *d, const char *what) {
    const int rc = th_daemon_stop(d);
    if (rc == 0)
        return 0;
    fprintf(stderr, "%s exited with %d (expected a clean 0)\n", what, rc);
    return 1;
}

void th_remove_dir(const char *dir) {
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

/* One SGEMM C = A^T B on 16x16 integer matrices through the daemon (any
 * transport: data moves with trnsciMemcpy), checked exactly. Returns 0 when
 * the result is right, 1 when wrong, -1 when a call failed. */
int th_sgemm_round(trnblasHandle_t h, int round) {
    enum { N = 16 };
    float a[N * N], b[N * N], c[N * N];
    for (int i = 0; i < N * N; i++) {
        a[i] = (float)((i + round) % 5 - 2);
        b[i] = (float)((3 * i + round) % 7 - 3);
    }
    float *da = NULL, *db = NULL, *dc = NULL;
    const float one = 1, zero = 0;
    int rc = -1;
    if (trnsciMalloc((void **)&da, sizeof(a)) || trnsciMalloc((void **)&db, sizeof(b)) ||
        trnsciMalloc((void **)&dc, sizeof(c)) ||
        trnsciMemcpy(da, a, sizeof(a), trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(db, b, sizeof(b), trnsciMemcpyHostToDevice) ||
        trnblasSgemm(h, TRNBLAS_OP_T, TRNBLAS_OP_N, N, N, N, &one, da, N, db, N, &zero, dc, N) ||
        trnsciMemcpy(c, dc, sizeof(c), trnsciMemcpyDeviceToHost))
        goto out;
    rc = 0;
    for (int j = 0; j < N && !rc; j++)
        for (int i = 0; i < N && !rc; i++) {
            long ref = 0;
            for (int l = 0; l < N; l++)
                ref += (long)a[l + i * N] * (long)b[l + j * N];
            rc = c[i + j * N] != (float)ref;
        }
out:
    trnsciFree(da);
    trnsciFree(db);
    trnsciFree(dc);
    return rc;
}

int th_http_get(int port, const char *path, char *buf, size_t len) {
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    char req[256];
    const int n = snprintf(req, sizeof(req), "GET %s HTTP/1.0\r\nHost: localhost\r\n\r\n", path);
    size_t got = 0;
    if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0 || write(fd, req, (size_t)n) != n) {
        close(fd);
        return -1;
    }
    ssize_t r;
    while (got + 1 < len && (r = read(fd, buf + got, len - 1 - got)) > 0)
        got += (size_t)r;
    buf[got] = '\0';
    close(fd);
    int status = -1;
    if (sscanf(buf, "HTTP/1.%*d %d", &status) != 1)
        return -1;
    return status;
}

double th_metrics_sample(int port, const char *series) {
    static char page[1 << 17];
    if (th_http_get(port, "/metrics", page, sizeof(page)) != 200) {
        fprintf(stderr, "th_metrics_sample: no /metrics page on port %d\n", port);
        return -1;
    }
    const size_t n = strlen(series);
    for (const char *p = strstr(page, series); p; p = strstr(p + 1, series))
        if ((p == page || p[-1] == '\n') && p[n] == ' ')
            return strtod(p + n + 1, NULL);
    fprintf(stderr, "th_metrics_sample: no sample %s\n", series);
    return -1;
}

int th_opaque_pointers(void) {
    const char *env = getenv("TRNSCI_TEST_DAEMON_ARGS");
    if (!env)
        return 0;
    if (strstr(env, "--device-pointers opaque"))
        return 1;
    return strstr(env, "--backend neuron") && !strstr(env, "--device-pointers mapped");
}
