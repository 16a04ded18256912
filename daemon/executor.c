/*
 * executor.c — the daemon's side of executor processes (executor.h): the
 * request slots, starting and restarting executors through the zygote, the
 * supervisor thread that hears of their deaths, the watchdog, backoff and
 * quarantine.
 *
 * Invariants: only the holder of core c's `use` lock posts to slot c and
 * starts core c's executor: its worker while it runs an op, or the
 * supervisor restarting an executor that died while idle (so that every
 * core has an executor again without waiting for an op). Otherwise the
 * supervisor only marks a slot dead (after its executor died, so nothing
 * else writes it) and clears the pid. An executor is
 * "ready" once it has answered a ping (a request of kind 0), so the first
 * real op after a restart never waits for its setup.
 */
#define _GNU_SOURCE
#include "daemon/executor.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon/executor_internal.h"
#include "daemon/log.h"
#include "ops/write_clock.h"

/* How long a killed executor's death report may take before it is given up
 * on (the zygote is gone). */
#define DEATH_WAIT_NS 10000000000ull
/* A start that answers no ping within this is a failed start. */
#define START_WAIT_NS 10000000000ull
#define CHANNEL_SNDBUF (8 << 20)
/* How many executors an op is offered to when they die before taking it
 * (or cannot be started) before it fails. */
#define RUN_ATTEMPTS 3
/* A worker waiting for its executor yields this many times before it
 * sleeps (bench: 1×1 SGEMM + sync 16.8 → 15.6 µs on one CPU). */
#define HANDOFF_YIELDS 8
/* How often the supervisor looks for ops past their watchdog. */
#define SUPERVISOR_TICK_MS 50

/* Slots: one per core, then the planner executor's (PLANNER). */
#define NSLOTS(p) ((p)->cfg.ncores + 1)
#define PLANNER(p) ((p)->cfg.ncores)
/* The planner's watchdog: 20 watchdog floors (10 minutes by default), and
 * never under 2 minutes: planning a big transform (FFTW measuring its
 * candidates, at a low priority on a busy machine) may take minutes, and
 * no estimate of it exists. */
#define PLANNER_WATCHDOG_FLOORS 20
#define PLANNER_WATCHDOG_MIN_NS (120ull * 1000000000ull)

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Wakes the slot's executor (executor_slot.h): no syscall while it is
 * awake, looking at the bell. */
static void ring(trn_exec_slot *slot) {
    atomic_fetch_add_explicit(&slot->bell, 1, memory_order_seq_cst);
    if (!atomic_load_explicit(&slot->awake, memory_order_seq_cst))
        trn_exec_futex_wake(&slot->bell);
}

static uint32_t next_seq(trn_exec_core *c) {
    c->seq = c->seq + 1 >= TRN_EXEC_DEAD - 1 ? 1 : c->seq + 1;
    return c->seq;
}

trn_exec_pool *trn_exec_pool_create(const trn_exec_pool_config *cfg, const trn_backend *be,
                                    trn_exec_space *sp, char *err, size_t errlen) {
    trn_exec_pool *p = calloc(1, sizeof(*p));
    if (!p)
        goto nomem;
    p->cfg = *cfg;
    p->be = be;
    p->sp = sp;
    p->stop[0] = p->stop[1] = -1;
    const int nslots = cfg->ncores + 1; /* the cores', then the planner's */
    p->cpus = calloc((size_t)nslots, sizeof(int));
    p->cores = calloc((size_t)nslots, sizeof(trn_exec_core));
    p->restart_wanted = calloc((size_t)nslots, 1);
    if (!p->cpus || !p->cores || !p->restart_wanted)
        goto nomem;
    pthread_mutex_init(&p->restart_lock, NULL);
    pthread_cond_init(&p->restart_cv, NULL);
    for (int i = 0; i < nslots; i++) {
        p->cpus[i] = cfg->cpus && i < cfg->ncores ? cfg->cpus[i] : -1;
        pthread_mutex_init(&p->cores[i].lock, NULL);
        sem_init(&p->cores[i].use, 0, 1);
        p->cores[i].channel = -1;
    }
    atomic_init(&p->in_service, cfg->ncores);
    p->slots_bytes = (size_t)nslots * sizeof(trn_exec_slot);
    void *s = mmap(NULL, p->slots_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (s == MAP_FAILED) {
        snprintf(err, errlen, "cannot map the executors' request slots: %s", strerror(errno));
        goto fail;
    }
    p->slots = s;
    if (pipe2(p->stop, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot make a pipe: %s", strerror(errno));
        goto fail;
    }
    p->zygote = trn_zygote_start(trn_executor_main, p, err, errlen);
    if (!p->zygote)
        goto fail;
    return p;
nomem:
    snprintf(err, errlen, "out of memory");
fail:
    trn_exec_pool_destroy(p);
    return NULL;
}

/* ---- deaths ---- */

static const char *signal_name(int sig) {
    const char *abbrev = sigabbrev_np(sig);
    return abbrev ? abbrev : "?";
}

static int start_executor(trn_exec_pool *p, int core, char *why, size_t whylen);
static int running(trn_exec_pool *p, int core);
static void backoff(const trn_exec_core *c);

/* Takes core's `use` semaphore. */
static void use_take(trn_exec_core *c) {
    while (sem_wait(&c->use) != 0 && errno == EINTR)
        ;
}

/* Asks the restarter to start core's executor again (it died while the
 * core was idle, e.g. killed from outside). */
static void restart_idle(trn_exec_pool *p, int core) {
    pthread_mutex_lock(&p->restart_lock);
    p->restart_wanted[core] = 1;
    pthread_cond_signal(&p->restart_cv);
    pthread_mutex_unlock(&p->restart_lock);
}

/* The restarter: every executor asked for is started again, unless its
 * core's worker got there first or the core is out of service. */
static void *restarter_main(void *arg) {
    trn_exec_pool *p = arg;
    pthread_setname_np(pthread_self(), "trn-exec-start");
    pthread_mutex_lock(&p->restart_lock);
    while (!p->restarter_stop) {
        int core = -1;
        for (int i = 0; i < NSLOTS(p) && core < 0; i++)
            if (p->restart_wanted[i])
                core = i;
        if (core < 0) {
            pthread_cond_wait(&p->restart_cv, &p->restart_lock);
            continue;
        }
        p->restart_wanted[core] = 0;
        pthread_mutex_unlock(&p->restart_lock);
        trn_exec_core *c = &p->cores[core];
        char why[128];
        use_take(c);
        if (!atomic_load(&c->quarantined) && !running(p, core)) {
            /* A start that failed is tried again when its executor's death
             * report comes (kill_executor waits for it): after a backoff. */
            backoff(c);
            if (start_executor(p, core, why, sizeof(why)) != 0) {
                trn_log(TRN_LOG_ERROR, "core %d: cannot start its executor: %s", core, why);
                c->consecutive++;
            }
        }
        sem_post(&c->use);
        pthread_mutex_lock(&p->restart_lock);
    }
    pthread_mutex_unlock(&p->restart_lock);
    return NULL;
}

/* Marks the slot of the executor pid, which died with wait status st;
 * returns its core, or -1. */
static int mark_dead(trn_exec_pool *p, int pid, int st) {
    for (int i = 0; i < NSLOTS(p); i++) {
        trn_exec_core *c = &p->cores[i];
        pthread_mutex_lock(&c->lock);
        const int match = c->pid == pid;
        if (match) {
            c->dead_status = st;
            c->pid = 0;
            atomic_store_explicit(&p->slots[i].done, TRN_EXEC_DEAD, memory_order_release);
            trn_exec_futex_wake(&p->slots[i].done);
        }
        pthread_mutex_unlock(&c->lock);
        if (match)
            return i;
    }
    return -1;
}

/* Kills the executors whose op ran past its deadline. Without the zygote's
 * death reports, the slot is marked dead here (a SIGKILLed process writes
 * nothing more). */
/* When the op core's executor runs must end: posted (deadline_ns: the
 * first item's limit from when it was posted) until the executor starts a
 * later item of the request, then that item's limit from its start. The
 * slot's request is not rewritten while deadline_ns is set. */
static uint64_t op_deadline(const trn_exec_pool *p, int core, uint64_t posted) {
    trn_exec_slot *slot = &p->slots[core];
    const int at = atomic_load_explicit(&slot->at, memory_order_acquire);
    if (at <= 0 || at >= TRN_EXEC_CHAIN_MAX)
        return posted;
    const uint64_t t = atomic_load_explicit(&slot->items[at].t_start, memory_order_relaxed);
    return t ? t + slot->items[at].limit_ns : posted;
}

static void enforce_watchdogs(trn_exec_pool *p, int reports) {
    const uint64_t now = now_ns();
    for (int i = 0; i < NSLOTS(p); i++) {
        trn_exec_core *c = &p->cores[i];
        const uint64_t posted = atomic_load(&c->deadline_ns);
        if (!posted)
            continue;
        const uint64_t d = op_deadline(p, i, posted);
        /* A new request posted meanwhile: its own deadline, next tick. */
        if (now < d || atomic_load(&c->deadline_ns) != posted)
            continue;
        pthread_mutex_lock(&c->lock);
        const int32_t pid = c->pid;
        pthread_mutex_unlock(&c->lock);
        /* Dead already (its slot marked): not the watchdog's doing. */
        if (pid <= 0 || atomic_exchange(&c->watchdog_fired, 1))
            continue;
        kill(pid, SIGKILL);
        if (!reports)
            mark_dead(p, pid, SIGKILL);
    }
}

/* The supervisor: marks the slot of each executor that died, and keeps the
 * watchdog (every SUPERVISOR_TICK_MS). */
static void *supervisor_main(void *arg) {
    trn_exec_pool *p = arg;
    pthread_setname_np(pthread_self(), "trn-exec-sup");
    int reports = 1;
    for (;;) {
        struct pollfd pf[2] = {
            {.fd = reports ? trn_zygote_events_fd(p->zygote) : -1, .events = POLLIN},
            {.fd = p->stop[0], .events = POLLIN}};
        if (poll(pf, 2, SUPERVISOR_TICK_MS) < 0 && errno != EINTR)
            break;
        if (pf[1].revents)
            break;
        if (reports && pf[0].revents) {
            int pid, st;
            if (trn_zygote_read_death(p->zygote, &pid, &st) == 0) {
                const int core = mark_dead(p, pid, st);
                if (core >= 0)
                    restart_idle(p, core);
            } else {
                trn_log(TRN_LOG_ERROR, "the executors' parent process ended: executors that "
                                       "crash are no longer told apart from hangs");
                reports = 0;
            }
        }
        enforce_watchdogs(p, reports);
    }
    return NULL;
}

/* Waits until the slot's request seq is answered (1), the executor died
 * (0), or deadline passed (-1; deadline 0: no limit — the hot path, where
 * the supervisor keeps the watchdog, so that no timer is armed per op). */
static int wait_answer(trn_exec_slot *slot, uint32_t seq, uint64_t deadline) {
    for (;;) {
        const uint32_t d = atomic_load_explicit(&slot->done, memory_order_acquire);
        if (d == seq)
            return 1;
        if (d == TRN_EXEC_DEAD)
            return 0;
        /* The executor may share this CPU: yielding hands it over without a
         * sleep and a wake-up syscall (a short op is answered before the
         * yields run out). */
        for (int y = 0; y < HANDOFF_YIELDS && atomic_load(&slot->done) == d; y++)
            sched_yield();
        if (atomic_load(&slot->done) != d)
            continue;
        uint64_t left = 0;
        if (deadline) {
            const uint64_t t = now_ns();
            if (t >= deadline)
                return -1;
            left = deadline - t;
        }
        /* Asleep: the executor wakes us (executor_slot.h, `sleeping`). */
        atomic_store(&slot->sleeping, 1);
        if (atomic_load(&slot->done) == d)
            trn_exec_futex_wait(&slot->done, d, left);
        atomic_store(&slot->sleeping, 0);
    }
}

/* Kills core's executor and waits for its death report: the supervisor
 * marks the slot dead and asks for a restart (restart_idle). */
static void kill_executor(trn_exec_pool *p, int core) {
    trn_exec_core *c = &p->cores[core];
    pthread_mutex_lock(&c->lock);
    const int32_t pid = c->pid;
    pthread_mutex_unlock(&c->lock);
    if (pid > 0)
        kill(pid, SIGKILL);
    /* A request number never used (next_seq): only the death mark ends
     * the wait early, whatever `done` holds now. */
    if (wait_answer(&p->slots[core], TRN_EXEC_DEAD - 1, now_ns() + DEATH_WAIT_NS) != 0) {
        pthread_mutex_lock(&c->lock);
        c->pid = 0; /* no report came: the zygote is gone */
        pthread_mutex_unlock(&c->lock);
    }
}

/* ---- starting ---- */

static void close_channel(trn_exec_pool *p, trn_exec_core *c) {
    if (c->channel < 0)
        return;
    trn_exec_space_unsubscribe(p->sp, c->channel);
    close(c->channel);
    c->channel = -1;
}

/* Starts core's executor and waits until it answers a ping. */
static int start_executor(trn_exec_pool *p, int core, char *why, size_t whylen) {
    trn_exec_core *c = &p->cores[core];
    trn_exec_slot *slot = &p->slots[core];
    const uint64_t t0 = now_ns();
    close_channel(p, c);
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(why, whylen, "socketpair: %s", strerror(errno));
        return -1;
    }
    const int sndbuf = CHANNEL_SNDBUF;
    if (setsockopt(sv[0], SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf, sizeof(sndbuf)) != 0)
        (void)setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
    atomic_store(&slot->req, 0);
    atomic_store(&slot->done, 0);
    atomic_store(&slot->taken, 0);
    atomic_store(&slot->awake, 0); /* a dead executor's: the new one is rung */
    atomic_store(&c->watchdog_fired, 0);
    c->seq = 0;
    pthread_mutex_lock(&c->lock);
    const int pid = trn_zygote_spawn(p->zygote, core, sv[1]);
    c->pid = pid > 0 ? pid : 0;
    pthread_mutex_unlock(&c->lock);
    atomic_fetch_add(&c->epoch, 1);
    close(sv[1]);
    if (pid <= 0) {
        close(sv[0]);
        snprintf(why, whylen, "the executors' parent process is gone");
        return -1;
    }
    c->channel = sv[0];
    c->starts++;
    trn_exec_fault_start_gap(p);
    /* The planner maps no buffer: it never runs an op. */
    if (core != PLANNER(p) && trn_exec_space_subscribe(p->sp, c->channel) != 0) {
        snprintf(why, whylen, "cannot send the buffers to the new executor");
        kill_executor(p, core);
        close_channel(p, c);
        return -1;
    }
    /* The ping: kind 0 runs no kernel. */
    const uint32_t seq = next_seq(c);
    memset(&slot->items[0].desc, 0, sizeof(slot->items[0].desc));
    slot->items[0].has_plan = 0;
    slot->items[0].peek = 0;
    slot->nitems = 1;
    atomic_store(&slot->at, 0);
    slot->followed = 0;
    slot->task = TRN_EXEC_TASK_OP;
    slot->want_gen = core == PLANNER(p) ? 0 : trn_exec_space_generation(p->sp);
    atomic_store_explicit(&slot->req, seq, memory_order_release);
    ring(slot);
    const int r = wait_answer(slot, seq, now_ns() + START_WAIT_NS);
    if (r != 1) {
        if (r < 0)
            kill_executor(p, core);
        const int st = c->dead_status;
        snprintf(why, whylen, "the new executor %s",
                 WIFEXITED(st) ? "could not set itself up" : "died while starting");
        close_channel(p, c);
        return -1;
    }
    c->restart_us = (now_ns() - t0) / 1000;
    return 0;
}

/* After a buffer was unmapped: idle executors apply it now (a wake-up with
 * no new request), so its memory leaves them. */
static void nudge_executors(void *ctx) {
    trn_exec_pool *p = ctx;
    for (int i = 0; i < p->cfg.ncores; i++) {
        atomic_fetch_add_explicit(&p->slots[i].unmaps, 1, memory_order_release);
        ring(&p->slots[i]);
    }
}

int trn_exec_pool_start(trn_exec_pool *p, char *err, size_t errlen) {
    trn_exec_space_set_unmap_hook(p->sp, nudge_executors, p);
    if (pthread_create(&p->supervisor, NULL, supervisor_main, p) != 0) {
        snprintf(err, errlen, "cannot start the executors' supervisor thread");
        return -1;
    }
    p->supervisor_started = 1;
    if (pthread_create(&p->restarter, NULL, restarter_main, p) != 0) {
        snprintf(err, errlen, "cannot start the executors' restarter thread");
        return -1;
    }
    p->restarter_started = 1;
    for (int i = 0; i < NSLOTS(p); i++) {
        char why[128];
        if (start_executor(p, i, why, sizeof(why)) != 0) {
            if (i == PLANNER(p))
                snprintf(err, errlen, "cannot start the planner executor: %s", why);
            else
                snprintf(err, errlen, "cannot start the executor of core %d: %s", i, why);
            return -1;
        }
    }
    return 0;
}

void trn_exec_pool_destroy(trn_exec_pool *p) {
    if (!p)
        return;
    trn_exec_space_set_unmap_hook(p->sp, NULL, NULL);
    if (p->restarter_started) {
        pthread_mutex_lock(&p->restart_lock);
        p->restarter_stop = 1;
        pthread_cond_signal(&p->restart_cv);
        pthread_mutex_unlock(&p->restart_lock);
        pthread_join(p->restarter, NULL);
    }
    if (p->supervisor_started) {
        (void)!write(p->stop[1], "x", 1);
        pthread_join(p->supervisor, NULL);
    }
    trn_zygote_stop(p->zygote);
    for (int i = 0; p->cores && i < NSLOTS(p); i++) {
        close_channel(p, &p->cores[i]);
        pthread_mutex_destroy(&p->cores[i].lock);
        sem_destroy(&p->cores[i].use);
    }
    for (int i = 0; i < 2; i++)
        if (p->stop[i] >= 0)
            close(p->stop[i]);
    if (p->slots)
        munmap(p->slots, p->slots_bytes);
    if (p->restart_wanted) {
        pthread_mutex_destroy(&p->restart_lock);
        pthread_cond_destroy(&p->restart_cv);
    }
    free(p->restart_wanted);
    free(p->cores);
    free(p->cpus);
    free(p);
}

/* ---- running ---- */

static uint64_t watchdog_ns(const trn_exec_pool *p, uint64_t est_ns) {
    const double floor_ns = (double)p->cfg.watchdog_floor_ms * 1e6;
    const double by_cost = (double)est_ns * p->cfg.watchdog_factor;
    const double w = by_cost > floor_ns ? by_cost : floor_ns;
    return w > 1e18 ? (uint64_t)1e18 : (uint64_t)w;
}

static uint64_t planner_watchdog_ns(const trn_exec_pool *p) {
    const uint64_t w = PLANNER_WATCHDOG_FLOORS * (uint64_t)p->cfg.watchdog_floor_ms * 1000000u;
    return w > PLANNER_WATCHDOG_MIN_NS ? w : PLANNER_WATCHDOG_MIN_NS;
}

/* Counts a fault of core; takes the core out of service when they come too
 * often and another core is still in service. */
static void count_fault(trn_exec_pool *p, int core) {
    trn_exec_core *c = &p->cores[core];
    const uint64_t now_ms = now_ns() / 1000000u;
    pthread_mutex_lock(&c->lock);
    c->faults++;
    c->consecutive++;
    c->fault_ms[c->nfaults_seen++ % TRN_EXEC_QUARANTINE_FAULTS] = now_ms;
    const int full = c->nfaults_seen >= TRN_EXEC_QUARANTINE_FAULTS;
    /* The oldest of the last K faults is the next slot of the ring. */
    const uint64_t oldest = c->fault_ms[c->nfaults_seen % TRN_EXEC_QUARANTINE_FAULTS];
    pthread_mutex_unlock(&c->lock);
    if (core == PLANNER(p) || !full || now_ms - oldest > TRN_EXEC_QUARANTINE_WINDOW_MS)
        return;
    int left = atomic_load(&p->in_service);
    while (left > 1 && !atomic_compare_exchange_weak(&p->in_service, &left, left - 1))
        ;
    if (left <= 1) {
        trn_log(TRN_LOG_ERROR,
                "core %d: %d executor faults within %d s, but it is the last core in service: "
                "it stays",
                core, TRN_EXEC_QUARANTINE_FAULTS, TRN_EXEC_QUARANTINE_WINDOW_MS / 1000);
        return;
    }
    atomic_store(&c->quarantined, 1);
    trn_log(TRN_LOG_ERROR,
            "core %d taken out of service: %d executor faults within %d s; it stays out until the "
            "daemon restarts",
            core, TRN_EXEC_QUARANTINE_FAULTS, TRN_EXEC_QUARANTINE_WINDOW_MS / 1000);
}

/* Before a start that follows faults: wait 0, 10, 20, 40 … ms. */
static void backoff(const trn_exec_core *c) {
    if (c->consecutive < 2)
        return;
    const unsigned shift = c->consecutive - 2 < 16 ? c->consecutive - 2 : 16;
    uint64_t ms = (uint64_t)10 << shift;
    if (ms > TRN_EXEC_BACKOFF_MAX_MS)
        ms = TRN_EXEC_BACKOFF_MAX_MS;
    const struct timespec ts = {.tv_sec = (time_t)(ms / 1000),
                                .tv_nsec = (long)(ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

/* The op failed because its executor ended: say how, count it. */
static trn_kstatus fault(trn_exec_pool *p, int core, const trn_op_desc *op, int by_watchdog,
                         uint64_t limit_ns) {
    trn_exec_core *c = &p->cores[core];
    char how[96];
    const int st = c->dead_status;
    /* A death by a signal of its own (not the watchdog's SIGKILL) was a
     * crash even when the watchdog fired too: on a loaded machine the death
     * report of a crash can come after the deadline. */
    if (by_watchdog && WIFSIGNALED(st) && WTERMSIG(st) != SIGKILL)
        by_watchdog = 0;
    if (by_watchdog) {
        c->watchdog++;
        snprintf(how, sizeof(how), "ran past its watchdog (%.3f s) and its executor was killed",
                 (double)limit_ns / 1e9);
    } else if (WIFSIGNALED(st)) {
        c->last_signal = WTERMSIG(st);
        snprintf(how, sizeof(how), "crashed its executor (signal %d, SIG%s)", WTERMSIG(st),
                 signal_name(WTERMSIG(st)));
    } else {
        snprintf(how, sizeof(how), "ended its executor (exit status %d)",
                 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    }
    if (!op) { /* moving a peek's inputs ahead (executor_main.c): no op failed */
        trn_log(TRN_LOG_WARN, "moving the next op's inputs on core %d %s", core, how);
    } else if (core == PLANNER(p)) {
        /* Short: the op's message already names the plan. */
        trn_kmsg_post(op->kmsg, 0, 0, "planning %s; the planner is restarted", how);
        const trn_exec_plan_ref *plan = c->req.ops[0].plan; /* the planner's one op */
        trn_log(TRN_LOG_WARN, "planning %s %s", plan ? plan->key : "", how);
    } else {
        trn_kmsg_post(op->kmsg, 0, 0, "%s on core %d %s; the executor is restarted",
                      trn_op_title(op), core, how);
        trn_log(TRN_LOG_WARN, "%s on core %d %s", trn_op_title(op), core, how);
    }
    count_fault(p, core);
    if (p->cfg.wclock && op)
        trn_write_clock_after_op(p->cfg.wclock, op);
    return TRN_KSTATUS_FAILED;
}

/* Starts core's executor again after a fault (after the backoff), unless
 * the core went out of service. Returns 0, or -1 with why. */
static int restart(trn_exec_pool *p, int core, char *why, size_t whylen) {
    trn_exec_core *c = &p->cores[core];
    if (atomic_load(&c->quarantined)) {
        snprintf(why, whylen, "the core is out of service");
        return -1;
    }
    backoff(c);
    if (start_executor(p, core, why, whylen) == 0)
        return 0;
    trn_log(TRN_LOG_ERROR, "core %d: cannot start its executor: %s", core, why);
    c->consecutive++;
    return -1;
}

/* Whether core's executor is running (its slot not marked dead). */
static int running(trn_exec_pool *p, int core) {
    trn_exec_core *c = &p->cores[core];
    pthread_mutex_lock(&c->lock);
    const int up = c->pid > 0;
    pthread_mutex_unlock(&c->lock);
    return up && atomic_load(&p->slots[core].done) != TRN_EXEC_DEAD;
}

/* The ops of c->req not answered yet fail with the reason no executor
 * could take them; in a chain, those after its first op are handed back
 * instead (trn_exec_op.ran 0), so that another core runs them. */
static void fail_unanswered(trn_exec_request *rq, int core, const char *why) {
    for (; rq->first < rq->n; rq->first++) {
        trn_exec_op *o = &rq->ops[rq->first];
        if (rq->hand_back && rq->first > 0) {
            o->ran = 0;
            continue;
        }
        trn_kmsg_post(o->op->kmsg, 0, 0, "%s: core %d has no executor (%s)", trn_op_title(o->op),
                      core, why);
        o->status = TRN_KSTATUS_FAILED;
        o->ran = 1;
    }
}

/* Copies op o into a request item, with its watchdog limit; prev: the op
 * of the item before it, or NULL. */
static void fill_item(trn_exec_item *it, const trn_exec_op *o, const trn_exec_op *prev,
                      uint64_t limit_ns) {
    /* Its kind's descriptor only (the union's largest member is 1.3 KB,
     * a GEMM's a fraction of it); the executor sets kmsg. */
    memcpy(&it->desc, o->op, trn_op_desc_bytes((int)o->op->kind));
    it->desc.kmsg = NULL;
    it->shard = o->shard;
    it->nshards = o->nshards;
    it->peek = o->peek;
    it->limit_ns = limit_ns;
    atomic_store_explicit(&it->t_start, 0, memory_order_relaxed);
    it->has_plan = o->plan != NULL;
    it->plan_part = o->plan ? o->plan->part : 0;
    /* A chain of one shape runs one plan: its key and spec once. */
    it->plan_as_prev = o->plan && prev && prev->plan && prev->plan->key == o->plan->key &&
                       prev->plan->part == o->plan->part;
    if (o->plan && !it->plan_as_prev) {
        /* A copy, not snprintf: this runs for every op with a plan. */
        const size_t n = strnlen(o->plan->key, sizeof(it->plan_key) - 1);
        memcpy(it->plan_key, o->plan->key, n);
        it->plan_key[n] = '\0';
        it->plan_spec = *o->plan->spec;
    }
}

/* Posts the unanswered ops of c->req to core's executor (starting one
 * first when none runs). Returns 0, or -1 when the core has no executor
 * (those ops failed, their messages posted). */
static int post(trn_exec_pool *p, int core) {
    trn_exec_core *c = &p->cores[core];
    trn_exec_slot *slot = &p->slots[core];
    trn_exec_request *rq = &c->req;
    char why[128] = "";
    for (;;) {
        rq->attempt++;
        /* Killed from outside while idle, or a restart that failed. */
        if (running(p, core) || restart(p, core, why, sizeof(why)) == 0)
            break;
        if (rq->attempt < RUN_ATTEMPTS && !atomic_load(&c->quarantined))
            continue;
        fail_unanswered(rq, core, why);
        return -1;
    }
    rq->seq = next_seq(c);
    slot->want_gen = core == PLANNER(p) ? 0 : trn_exec_space_generation(p->sp);
    slot->task = rq->task;
    slot->followed = rq->followed;
    slot->nitems = rq->n - rq->first;
    atomic_store_explicit(&slot->at, 0, memory_order_relaxed);
    for (int i = 0; i < slot->nitems; i++) {
        const trn_exec_op *o = &rq->ops[rq->first + i];
        fill_item(&slot->items[i], o, i > 0 ? o - 1 : NULL,
                  core == PLANNER(p) ? planner_watchdog_ns(p) : watchdog_ns(p, o->est_ns));
    }
    atomic_store(&c->deadline_ns, now_ns() + slot->items[0].limit_ns);
    atomic_store_explicit(&slot->req, rq->seq, memory_order_release);
    ring(slot);
    return 0;
}

/* The answers of the first `count` items posted go to their ops. */
static void harvest(trn_exec_request *rq, trn_exec_slot *slot, int count) {
    for (int i = 0; i < count; i++, rq->first++) {
        const trn_exec_item *it = &slot->items[i];
        trn_exec_op *o = &rq->ops[rq->first];
        if (o->peek) /* never run: its item holds no answer */
            continue;
        if (it->kmsg.set)
            trn_kmsg_post(o->op->kmsg, it->kmsg.rank, it->kmsg.bad_input, "%s", it->kmsg.text);
        o->status = (trn_kstatus)it->status;
        o->ran = 1;
        o->t_start = atomic_load_explicit(&it->t_start, memory_order_relaxed);
        o->t_end = it->t_end;
    }
}

/* The executor died running c->req's ops together: the fault fails all of
 * them (its message on the first), and every op's writes are stamped on the
 * write clock (fault stamps the first's), since the run may have written
 * any of their results back before it died; the executor is started
 * again. */
static void fail_together(trn_exec_pool *p, int core, int by_watchdog) {
    trn_exec_core *c = &p->cores[core];
    trn_exec_request *rq = &c->req;
    const trn_kstatus k =
        fault(p, core, rq->ops[0].op, by_watchdog, p->slots[core].items[0].limit_ns);
    const uint64_t t0 =
        atomic_load_explicit(&p->slots[core].items[0].t_start, memory_order_relaxed);
    for (; rq->first < rq->n; rq->first++) {
        trn_exec_op *o = &rq->ops[rq->first];
        if (p->cfg.wclock && rq->first > 0)
            trn_write_clock_after_op(p->cfg.wclock, o->op);
        o->status = k;
        o->ran = 1;
        o->t_start = t0;
        o->t_end = now_ns();
    }
    char why[128];
    (void)restart(p, core, why, sizeof(why));
}

/* Waits for the answers to c->req, posted, posting it again when the
 * executor died before taking it, and posting the ops after one that
 * faulted to the restarted executor. With patience_ns > 0, gives up
 * waiting after that long, and at once when the executor died: sets
 * *pending and leaves the rest to trn_exec_pool_finish (its caller must
 * not be held by a fault's backoff and restart). */
static void conclude(trn_exec_pool *p, int core, uint64_t patience_ns, int *pending) {
    trn_exec_core *c = &p->cores[core];
    trn_exec_slot *slot = &p->slots[core];
    trn_exec_request *rq = &c->req;
    const uint64_t until = patience_ns ? now_ns() + patience_ns : 0;
    for (;;) {
        const int r = wait_answer(slot, rq->seq, until);
        if (r >= 0) /* answered, or dead: no watchdog from here */
            atomic_store(&c->deadline_ns, 0);
        if (r < 0 || (r == 0 && patience_ns)) {
            *pending = 1;
            return;
        }
        if (r == 1) {
            c->consecutive = 0;
            harvest(rq, slot, rq->n - rq->first);
            return;
        }
        const int by_watchdog = atomic_exchange(&c->watchdog_fired, 0);
        const int took = atomic_load(&slot->taken) == rq->seq;
        /* Died before it took the request (killed from outside while
         * idle): not the ops' fault; they go to a new executor. */
        if (!by_watchdog && !took && rq->attempt < RUN_ATTEMPTS) {
            if (post(p, core) != 0)
                return;
            continue;
        }
        if (rq->task == TRN_EXEC_TASK_TOGETHER) { /* one run: every op fails */
            fail_together(p, core, by_watchdog);
            return;
        }
        /* The op it was running fails; those before it were answered. */
        int at = took ? atomic_load_explicit(&slot->at, memory_order_acquire) : 0;
        if (at < 0 || at >= rq->n - rq->first)
            at = 0;
        harvest(rq, slot, at);
        trn_exec_op *o = &rq->ops[rq->first++];
        if (o->peek) { /* it died moving the peek's inputs: the others answered */
            (void)fault(p, core, NULL, by_watchdog, slot->items[at].limit_ns);
        } else {
            o->status = fault(p, core, o->op, by_watchdog, slot->items[at].limit_ns);
            o->ran = 1;
            o->t_start = atomic_load_explicit(&slot->items[at].t_start, memory_order_relaxed);
            o->t_end = now_ns();
        }
        /* At once, so that the core is served again before its next op. */
        char why[128];
        (void)restart(p, core, why, sizeof(why));
        if (rq->first == rq->n || rq->ops[rq->first].peek)
            return; /* a peek alone is not worth a request: it stays unrun */
        rq->attempt = 0;
        if (post(p, core) != 0)
            return;
    }
}

trn_kstatus trn_exec_pool_run(trn_exec_pool *p, int core, const trn_op_desc *op,
                              const trn_exec_plan_ref *plan, int shard, int nshards,
                              uint64_t est_ns, uint64_t patience_ns, int *pending, int followed) {
    trn_exec_core *c = &p->cores[core];
    use_take(c);
    if (plan)
        c->one_plan = *plan;
    c->one = (trn_exec_op){.op = op,
                           .plan = plan ? &c->one_plan : NULL,
                           .shard = shard,
                           .nshards = nshards,
                           .est_ns = est_ns};
    c->req = (trn_exec_request){.ops = &c->one, .n = 1, .followed = followed};
    int waiting = 0;
    if (patience_ns && !running(p, core))
        waiting = 1; /* starting an executor is trn_exec_pool_finish's */
    else if (post(p, core) == 0)
        conclude(p, core, patience_ns, &waiting);
    if (pending)
        *pending = waiting;
    if (waiting)
        return TRN_KSTATUS_OK;
    sem_post(&c->use);
    return c->one.status;
}

void trn_exec_pool_run_chain(trn_exec_pool *p, int core, trn_exec_op *ops, int n, int followed) {
    trn_exec_core *c = &p->cores[core];
    use_take(c);
    c->req = (trn_exec_request){.ops = ops, .n = n, .followed = followed, .hand_back = 1};
    int never = 0;
    if (post(p, core) == 0)
        conclude(p, core, 0, &never);
    sem_post(&c->use);
}

void trn_exec_pool_run_together(trn_exec_pool *p, int core, trn_exec_op *ops, int n, int followed) {
    trn_exec_core *c = &p->cores[core];
    use_take(c);
    c->req = (trn_exec_request){
        .ops = ops, .n = n, .followed = followed, .task = TRN_EXEC_TASK_TOGETHER};
    int never = 0;
    if (post(p, core) == 0)
        conclude(p, core, 0, &never);
    sem_post(&c->use);
}

int trn_exec_pool_plan(trn_exec_pool *p, const trn_exec_plan_ref *plan, char *err, size_t errlen) {
    trn_exec_core *c = &p->cores[PLANNER(p)];
    trn_kmsg km;
    trn_kmsg_init(&km);
    const trn_op_desc none = {.kmsg = &km}; /* for the fault's message */
    use_take(c);
    c->one_plan = *plan;
    c->one = (trn_exec_op){.op = &none, .plan = &c->one_plan, .nshards = 1};
    c->req = (trn_exec_request){.ops = &c->one, .n = 1, .task = TRN_EXEC_TASK_PLAN};
    int never = 0;
    if (post(p, PLANNER(p)) == 0)
        conclude(p, PLANNER(p), 0, &never);
    const trn_kstatus k = c->one.status;
    sem_post(&c->use);
    if (k != TRN_KSTATUS_OK) {
        snprintf(err, errlen, "%s", km.set ? km.text : "planning failed in the planner executor");
        return k == TRN_KSTATUS_NO_MEMORY ? -2 : -1;
    }
    char *text = trn_exec_space_back_take(p->sp, &c->back_gen);
    if (text && p->be->plan_state_import)
        (void)p->be->plan_state_import(p->be, text);
    free(text);
    return 0;
}

trn_kstatus trn_exec_pool_finish(trn_exec_pool *p, int core) {
    trn_exec_core *c = &p->cores[core];
    int never = 0;
    if (c->req.attempt > 0 || post(p, core) == 0)
        conclude(p, core, 0, &never);
    sem_post(&c->use);
    return c->req.ops[0].status;
}

int trn_exec_pool_takes(const trn_op_desc *op) {
    const trn_op_info *info = trn_op_info_of((int)op->kind);
    return info && info->engine == TRN_ENGINE_CORE && strcmp(info->family, "memory") != 0;
}

void trn_exec_pool_publish_plans(trn_exec_pool *p) {
    if (!p->be->plan_state_export)
        return;
    char *text = p->be->plan_state_export(p->be);
    if (text)
        trn_exec_space_board_publish(p->sp, text);
    free(text);
}

unsigned trn_exec_pool_core_starts(trn_exec_pool *p, int core) {
    return atomic_load(&p->cores[core].epoch);
}

int trn_exec_pool_core_in_service(trn_exec_pool *p, int core) {
    return !atomic_load(&p->cores[core].quarantined);
}

int trn_exec_pool_ncores(const trn_exec_pool *p) {
    return p->cfg.ncores;
}

void trn_exec_pool_core_info(trn_exec_pool *p, int core, trn_exec_core_info *out) {
    trn_exec_core *c = &p->cores[core];
    pthread_mutex_lock(&c->lock);
    *out = (trn_exec_core_info){.pid = c->pid,
                                .starts = c->starts,
                                .faults = c->faults,
                                .watchdog = c->watchdog,
                                .quarantined = atomic_load(&c->quarantined),
                                .last_signal = c->last_signal,
                                .restart_us = c->restart_us};
    pthread_mutex_unlock(&c->lock);
}
