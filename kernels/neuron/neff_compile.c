/*
 * neff_compile.c — runs the Neuron compiler in a process of its own
 * (neff_compile.h).
 */
#define _GNU_SOURCE
#include "kernels/neuron/neff_compile.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define OUTPUT_KEPT 2048

static long long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Starts argv[0] in a process group of its own, its stdout and stderr into
 * a pipe whose read end is *out. Returns the pid, or -1 with msg. */
static pid_t start(char *const argv[], int *out, char *msg, size_t msglen) {
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) {
        snprintf(msg, msglen, "cannot run %s: %s", argv[0], strerror(errno));
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&at);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, p[1], 1);
    posix_spawn_file_actions_adddup2(&fa, p[1], 2);
    /* Its own process group, so that a deadline kills what it started too;
     * default signal handling, whatever the daemon set. */
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setsigdefault(&at, &all);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                      POSIX_SPAWN_SETSIGDEF);
    pid_t pid;
    const int rc = posix_spawn(&pid, argv[0], &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(p[1]);
    if (rc != 0) {
        close(p[0]);
        snprintf(msg, msglen, "cannot run %s: %s", argv[0], strerror(rc));
        return -1;
    }
    *out = p[0];
    return pid;
}

/* Collects what the process prints (the first OUTPUT_KEPT bytes) until it
 * closes its output or the deadline passes, then reaps it. Returns its wait
 * status, or -1 when it was killed at the deadline. */
static int finish(pid_t pid, int out, long long deadline, char *text, size_t textlen) {
    size_t kept = 0;
    int late = 0;
    for (;;) {
        const long long left = deadline - now_ms();
        if (left <= 0) {
            late = 1;
            break;
        }
        struct pollfd pf = {.fd = out, .events = POLLIN};
        const int r = poll(&pf, 1, left > 1000 ? 1000 : (int)left);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            continue;
        char buf[512];
        const ssize_t n = read(out, buf, sizeof(buf));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        const size_t take = kept + (size_t)n < textlen ? (size_t)n : textlen - 1 - kept;
        memcpy(text + kept, buf, take);
        kept += take;
    }
    text[kept] = '\0';
    close(out);
    if (late)
        kill(-pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return late ? -1 : status;
}

/* text on one line: newlines and tabs become spaces, trailing space goes. */
static void one_line(char *text) {
    for (char *c = text; *c; c++)
        if (*c == '\n' || *c == '\r' || *c == '\t')
            *c = ' ';
    for (size_t n = strlen(text); n > 0 && text[n - 1] == ' '; n--)
        text[n - 1] = '\0';
}

int trn_neff_compiler_version(const char *compiler, char *out, size_t outlen, char *msg,
                              size_t msglen) {
    char *argv[] = {(char *)compiler, "--version", NULL};
    int fd;
    const pid_t pid = start(argv, &fd, msg, msglen);
    if (pid < 0)
        return -1;
    char text[OUTPUT_KEPT];
    const int st = finish(pid, fd, now_ms() + 60000, text, sizeof(text));
    char *nl = strchr(text, '\n');
    if (nl)
        *nl = '\0';
    if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || !text[0]) {
        snprintf(msg, msglen, "%s --version failed: %.300s", compiler, text);
        return -1;
    }
    snprintf(out, outlen, "%s", text);
    return 0;
}

int trn_neff_compile(const trn_neff_compile_job *job, char *msg, size_t msglen) {
    char *argv[] = {(char *)job->compiler,
                    "compile",
                    "--source",
                    (char *)job->source,
                    "--kernel",
                    (char *)job->kernel,
                    "--params",
                    (char *)job->params,
                    "--target",
                    (char *)job->target,
                    "--output",
                    (char *)job->output,
                    NULL};
    int fd;
    const pid_t pid = start(argv, &fd, msg, msglen);
    if (pid < 0)
        return -1;
    char text[OUTPUT_KEPT];
    const int st = finish(pid, fd, now_ms() + job->timeout_ms, text, sizeof(text));
    one_line(text);
    if (st < 0) {
        snprintf(msg, msglen, "the compiler ran past its deadline of %d s and was stopped",
                 job->timeout_ms / 1000);
        return -1;
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0;
    /* The compiler's own words first: messages are cut to fit. */
    if (WIFEXITED(st))
        snprintf(msg, msglen, "%.400s (compiler exit status %d)", text[0] ? text : "no message",
                 WEXITSTATUS(st));
    else
        snprintf(msg, msglen, "%.400s (compiler killed by signal %d)", text, WTERMSIG(st));
    return -1;
}
