/*
 * zygote.c — see zygote.h.
 */
#define _GNU_SOURCE
#include "daemon/zygote.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/fdpass.h"

struct trn_zygote {
    pid_t pid;
    int req;    /* daemon's end: spawn requests, replies */
    int events; /* read end: death reports */
    pthread_mutex_t lock;
};

typedef struct death_report {
    int32_t pid;
    int32_t wstatus;
} death_report;

/* Reaps every child that ended and reports it. */
static void reap(int events) {
    int st;
    pid_t pid;
    while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
        const death_report r = {.pid = pid, .wstatus = st};
        ssize_t n;
        do
            n = write(events, &r, sizeof(r));
        while (n < 0 && errno == EINTR);
    }
}

/* The zygote's life: fork on request, report deaths; ends when the daemon
 * closes its end. */
static void zygote_main(int req, int events, trn_zygote_child_fn fn, void *arg) {
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, NULL);
    const int sfd = signalfd(-1, &chld, SFD_CLOEXEC);
    if (sfd < 0)
        _exit(1);
    for (;;) {
        struct pollfd pf[2] = {{.fd = req, .events = POLLIN}, {.fd = sfd, .events = POLLIN}};
        if (poll(pf, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (pf[1].revents) {
            struct signalfd_siginfo si;
            (void)!read(sfd, &si, sizeof(si));
            reap(events);
        }
        if (!pf[0].revents)
            continue;
        int32_t core;
        int channel;
        if (trn_fdpass_recv(req, &core, sizeof(core), &channel, 0) != (ssize_t)sizeof(core))
            break; /* the daemon is gone */
        const pid_t pid = channel >= 0 ? fork() : -1;
        if (pid == 0) {
            close(req);
            close(sfd);
            close(events);
            sigprocmask(SIG_UNBLOCK, &chld, NULL);
            fn(arg, core, channel);
            _exit(0);
        }
        if (channel >= 0)
            close(channel);
        const int32_t reply = pid;
        (void)!write(req, &reply, sizeof(reply));
    }
    /* The daemon is gone or stopping: the executors die with this process
     * (each set PR_SET_PDEATHSIG). */
    _exit(0);
}

trn_zygote *trn_zygote_start(trn_zygote_child_fn fn, void *arg, char *err, size_t errlen) {
    trn_zygote *z = calloc(1, sizeof(*z));
    int sv[2] = {-1, -1}, ev[2] = {-1, -1};
    if (!z || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0 ||
        pipe2(ev, O_CLOEXEC) != 0)
        goto fail;
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0)
        goto fail;
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(0);
        prctl(PR_SET_NAME, "trnscid-zygote");
        /* Stop signals are the daemon's to act on (a terminal's ^C reaches
         * the whole process group). */
        signal(SIGINT, SIG_IGN);
        signal(SIGTERM, SIG_IGN);
        signal(SIGHUP, SIG_IGN);
        signal(SIGPIPE, SIG_IGN);
        close(sv[0]);
        close(ev[0]);
        zygote_main(sv[1], ev[1], fn, arg);
    }
    close(sv[1]);
    close(ev[1]);
    z->pid = pid;
    z->req = sv[0];
    z->events = ev[0];
    pthread_mutex_init(&z->lock, NULL);
    return z;
fail:
    snprintf(err, errlen, "cannot start the executors' parent process: %s", strerror(errno));
    for (int i = 0; i < 2; i++) {
        if (sv[i] >= 0)
            close(sv[i]);
        if (ev[i] >= 0)
            close(ev[i]);
    }
    free(z);
    return NULL;
}

int trn_zygote_spawn(trn_zygote *z, int core, int channel) {
    const int32_t c = core;
    int32_t pid = -1;
    pthread_mutex_lock(&z->lock);
    if (trn_fdpass_send(z->req, &c, sizeof(c), channel, 0) == (ssize_t)sizeof(c)) {
        ssize_t n;
        do
            n = read(z->req, &pid, sizeof(pid));
        while (n < 0 && errno == EINTR);
        if (n != (ssize_t)sizeof(pid))
            pid = -1;
    }
    pthread_mutex_unlock(&z->lock);
    return pid;
}

int trn_zygote_events_fd(const trn_zygote *z) {
    return z->events;
}

int trn_zygote_read_death(trn_zygote *z, int *pid, int *wstatus) {
    death_report r;
    ssize_t n;
    do
        n = read(z->events, &r, sizeof(r));
    while (n < 0 && errno == EINTR);
    if (n != (ssize_t)sizeof(r))
        return -1;
    *pid = r.pid;
    *wstatus = r.wstatus;
    return 0;
}

void trn_zygote_stop(trn_zygote *z) {
    if (!z)
        return;
    shutdown(z->req, SHUT_RDWR);
    close(z->req);
    int st;
    while (waitpid(z->pid, &st, 0) < 0 && errno == EINTR)
        ;
    close(z->events);
    pthread_mutex_destroy(&z->lock);
    free(z);
}
