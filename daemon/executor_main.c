/*
 * executor_main.c — an executor process's life (daemon/executor.h): pin to
 * its core, drop privileges, then answer requests from its slot until the
 * daemon goes away.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "daemon/executor_internal.h"

void trn_exec_futex_wait(_Atomic uint32_t *word, uint32_t expect, uint64_t timeout_ns) {
    struct timespec ts = {.tv_sec = (time_t)(timeout_ns / 1000000000u),
                          .tv_nsec = (long)(timeout_ns % 1000000000u)};
    /* Not FUTEX_PRIVATE: the word is shared between processes. */
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT, expect, timeout_ns ? &ts : NULL, NULL, 0);
}

void trn_exec_futex_wake(_Atomic uint32_t *word) {
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE, 1, NULL, NULL, 0);
}

/* Signals as a plain process has them: crashes end the executor (its
 * parent reports how), stop signals are the daemon's. */
static void reset_signals(void) {
    static const int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS};
    for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
        signal(fatal[i], SIG_DFL);
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

static void pin(int cpu) {
    if (cpu < 0)
        return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof(set), &set);
}

void trn_executor_main(void *arg, int core, int channel) {
    trn_exec_pool *p = arg;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    char name[16];
    snprintf(name, sizeof(name), "trn-exec%d", core);
    prctl(PR_SET_NAME, name);
    reset_signals();
    pin(p->cpus[core]);
    if (p->be->core_init && p->be->core_init(p->be, core) != 0)
        _exit(TRN_EXEC_EXIT_SETUP);
    if (trn_exec_sandbox_enter(channel) != 0)
        _exit(TRN_EXEC_EXIT_SETUP);

    trn_exec_slot *slot = &p->slots[core];
    uint64_t gen = 0;
    uint32_t last = atomic_load_explicit(&slot->done, memory_order_acquire);
    for (;;) {
        const uint32_t req = atomic_load_explicit(&slot->req, memory_order_acquire);
        if (req == last) {
            trn_exec_futex_wait(&slot->req, last, 0);
            continue;
        }
        if (trn_exec_space_apply(p->sp, channel, &gen, slot->want_gen) != 0)
            _exit(TRN_EXEC_EXIT_CHANNEL);
        trn_kmsg_init(&slot->kmsg);
        slot->desc.kmsg = &slot->kmsg;
        if (slot->desc.kind == 0) { /* a ping: the executor is ready */
            slot->status = TRN_KSTATUS_OK;
        } else {
            trn_exec_fault_maybe(p, &slot->desc);
            slot->status =
                (int32_t)p->be->run(p->be, &slot->desc, NULL, slot->shard, slot->nshards);
        }
        last = req;
        atomic_store_explicit(&slot->done, req, memory_order_release);
        trn_exec_futex_wake(&slot->done);
    }
}
