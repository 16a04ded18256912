/*
 * crash.c — see crash.h.
 *
 * The describe callback is process-global state, like the signal pipe of
 * signals.c: a signal handler can reach nothing else. It is set once,
 * before the handlers are installed.
 *
 * The handler runs on the faulting thread with the process already broken,
 * so it does as little as it can: formatting into stack buffers, write(2)
 * to stderr (the daemon's log), backtrace_symbols_fd (which does not
 * allocate; backtrace() is called once at install time so that libgcc is
 * loaded before any fault). Then it restores the default action and raises
 * the signal again, unblocked, so the process dies of it (with a core dump
 * where the system keeps them) whether it came from a fault or was sent.
 */
#define _GNU_SOURCE
#include "daemon/crash.h"

#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Sanitizer runtimes own the fatal signals: no handlers there. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TRN_CRASH_HANDLERS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TRN_CRASH_HANDLERS 0
#endif
#endif
#ifndef TRN_CRASH_HANDLERS
#define TRN_CRASH_HANDLERS 1
#endif

#if TRN_CRASH_HANDLERS
static trn_crash_describe_fn crash_describe;

static void put(const char *s) {
    size_t n = strlen(s);
    while (n > 0) {
        const ssize_t w = write(STDERR_FILENO, s, n);
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

/* The signal's name, from a table: strsignal may translate, and so
 * allocate, which a handler on a broken process must not. */
static const char *signal_name(int sig) {
    switch (sig) {
    case SIGSEGV: return "SIGSEGV, segmentation fault";
    case SIGBUS: return "SIGBUS, bus error";
    case SIGFPE: return "SIGFPE, arithmetic exception";
    case SIGILL: return "SIGILL, illegal instruction";
    case SIGABRT: return "SIGABRT, aborted";
    default: return "fatal";
    }
}

static void on_fatal(int sig, siginfo_t *si, void *uc) {
    (void)uc;
    char line[768];
    if (si && si->si_code <= 0) /* sent (kill, tgkill), not raised by an instruction */
        snprintf(line, sizeof(line),
                 "trnscid: error: fatal signal %d (%s) sent by pid %ld to thread %ld\n", sig,
                 signal_name(sig), (long)si->si_pid, (long)gettid());
    else
        snprintf(line, sizeof(line),
                 "trnscid: error: fatal signal %d (%s) at address %p, thread %ld\n", sig,
                 signal_name(sig), si ? si->si_addr : NULL, (long)gettid());
    put(line);
    int shard = 0, nshards = 0;
    const trn_sched_op *op = trn_sched_running_op(&shard, &nshards);
    if (op) {
        char what[512] = "an op";
        if (crash_describe)
            crash_describe(op, what, sizeof(what));
        snprintf(line, sizeof(line),
                 "trnscid: error: the crashing worker was running %s, shard %d of %d\n", what,
                 shard + 1, nshards);
        put(line);
    } else {
        put("trnscid: error: the crashing thread was not running a kernel\n");
    }
    put("trnscid: error: backtrace:\n");
    void *frames[64];
    const int n = backtrace(frames, 64);
    backtrace_symbols_fd(frames, n, STDERR_FILENO);
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
}

#endif /* TRN_CRASH_HANDLERS */

void trn_crash_install(trn_crash_describe_fn describe) {
#if TRN_CRASH_HANDLERS
    crash_describe = describe;
    void *warm[1];
    (void)backtrace(warm, 1); /* loads libgcc's unwinder now, not in the handler */
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
        sigaction(sigs[i], &sa, NULL);
#else
    (void)describe;
#endif
}
