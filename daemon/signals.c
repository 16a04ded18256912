/*
 * signals.c — see signals.h. The write end of the pipe is the one piece of
 * process-global state the daemon has outside its context: a signal handler
 * can reach nothing else. It is set once, before any handler is installed.
 */
#define _GNU_SOURCE
#include "daemon/signals.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static int signal_pipe_write = -1;

static void on_signal(int sig) {
    const int saved = errno;
    const unsigned char b = (unsigned char)sig;
    ssize_t n = write(signal_pipe_write, &b, 1); /* async-signal-safe; a full pipe drops it */
    (void)n;
    errno = saved;
}

int trn_signals_install(void) {
    int fds[2];
    if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0)
        return -1;
    signal_pipe_write = fds[1];
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    return fds[0];
}

int trn_signals_read(int fd) {
    unsigned char buf[64];
    int mask = 0;
    ssize_t n;
    while ((n = read(fd, buf, sizeof(buf))) > 0) {
        for (ssize_t i = 0; i < n; i++)
            mask |= buf[i] == SIGHUP ? TRN_SIGNAL_RELOAD : TRN_SIGNAL_STOP;
    }
    return mask;
}

void trn_signals_uninstall(int fd) {
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    close(fd);
    close(signal_pipe_write);
    signal_pipe_write = -1;
}
