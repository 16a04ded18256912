/*
 * executor_main.c — an executor process's life (daemon/executor.h): pin to
 * its core, drop privileges, then answer requests from its slot until the
 * daemon goes away.
 *
 * Plans: an op that runs a plan names it by the plan cache's key and spec.
 * The executor keeps its own plans (the daemon's are pointers into the
 * daemon's memory), made with the backend's plan_create and plan_build
 * after importing the daemon's planning knowledge from the board
 * (exec_space.h), so each is the plan the daemon's cache prepared, and is
 * ready in milliseconds — also in a restarted executor. At most
 * EXEC_MAX_PLANS are kept, the least recently used dropped first.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
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

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void pin(int cpu) {
    if (cpu < 0)
        return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof(set), &set);
}

#define EXEC_MAX_PLANS 64
/* After answering a request posted with more work waiting behind it
 * (executor_slot.h, `followed`), the executor yields up to this many times
 * looking for the next request before it sleeps on the bell: the worker,
 * usually on this CPU, posts it straight after the answer. After any other
 * answer it sleeps at once: on a CPU shared with a client that waits for
 * each op, yields would only come between the client and the daemon (1x1
 * SGEMM + sync on one CPU: 12.8 -> 14.7 us with 4 yields after every
 * answer). */
#define EXEC_IDLE_YIELDS 4

/* One of the executor's plans. */
typedef struct exec_plan {
    char key[TRN_PLAN_KEY_LEN];
    void *plan;
    uint64_t parts; /* bit v: part v is prepared */
    struct exec_plan *next;
} exec_plan;

typedef struct exec_plans {
    exec_plan *head; /* most recently used first */
    int count;
    uint64_t board_gen;
    /* The plan the last item with a plan ran (NULL: none, or it failed),
     * for the next item of its request with the same (plan_as_prev); only
     * valid within one request (a plan may be dropped between requests). */
    void *last;
    /* The item after the one running in this request, or NULL: the
     * backend's run-next hint (kernels/backend.h). */
    const trn_exec_item *next;
} exec_plans;

/* The executor's plan for the item's key with the item's part prepared, or
 * NULL with the reason in the item's kmsg and *k. */
static void *plan_for(trn_exec_pool *p, exec_plans *t, trn_exec_item *slot, trn_kstatus *k) {
    const trn_backend *be = p->be;
    exec_plan **pp = &t->head, *e = NULL;
    for (; *pp; pp = &(*pp)->next)
        if (strcmp((*pp)->key, slot->plan_key) == 0) {
            e = *pp;
            *pp = e->next; /* to the front, below */
            t->count--;
            break;
        }
    char err[TRN_KMSG_LEN] = "";
    if (!e || !(e->parts & (1ull << (slot->plan_part & 63)))) {
        /* What the daemon learnt since, so the plan is the one it made. */
        char *text = trn_exec_space_board_take(p->sp, &t->board_gen);
        if (text && be->plan_state_import)
            (void)be->plan_state_import(be, text);
        free(text);
    }
    if (!e) {
        e = calloc(1, sizeof(*e));
        *k = TRN_KSTATUS_NO_MEMORY;
        if (!e || !(e->plan = be->plan_create(be, &slot->plan_spec, k, err, sizeof(err)))) {
            free(e);
            trn_kmsg_post(&slot->kmsg, 0, *k == TRN_KSTATUS_NO_MEMORY, "plan: %s",
                          err[0] ? err : "out of memory");
            return NULL;
        }
        snprintf(e->key, sizeof(e->key), "%s", slot->plan_key);
    }
    if (!(e->parts & (1ull << (slot->plan_part & 63)))) {
        *k = be->plan_build(be, e->plan, slot->plan_part, err, sizeof(err));
        if (*k != TRN_KSTATUS_OK) {
            trn_kmsg_post(&slot->kmsg, 0, 0, "plan: %s", err[0] ? err : "planning failed");
            be->plan_release(be, e->plan);
            free(e);
            return NULL;
        }
        e->parts |= 1ull << (slot->plan_part & 63);
    }
    e->next = t->head;
    t->head = e;
    if (++t->count > EXEC_MAX_PLANS) {
        exec_plan *prev = t->head;
        while (prev->next && prev->next->next)
            prev = prev->next;
        exec_plan *last = prev->next;
        prev->next = NULL;
        be->plan_release(be, last->plan);
        free(last);
        t->count--;
    }
    return e->plan;
}

/* Points the descriptor at the executor's own plan. */
static void set_plan(trn_op_desc *d, void *plan) {
    switch (d->kind) {
    case TRN_OP_FFT: d->u.fft.plan = plan; break;
    case TRN_OP_TENSOR_CONTRACT: d->u.tensor_contract.plan = plan; break;
    default: break;
    }
}

/* Runs one op of the request. */
static trn_kstatus run_op(trn_exec_pool *p, exec_plans *plans, trn_exec_item *slot) {
    void *plan = NULL;
    if (slot->has_plan) {
        trn_kstatus k;
        if (slot->plan_as_prev && plans->last) {
            plan = plans->last; /* the item before it ran it: no lookup */
        } else {
            if (slot->plan_as_prev) { /* it failed there: this item tries too */
                const trn_exec_item *prev = slot - 1;
                memcpy(slot->plan_key, prev->plan_key, sizeof(slot->plan_key));
                slot->plan_spec = prev->plan_spec;
                slot->plan_part = prev->plan_part;
            }
            plan = plan_for(p, plans, slot, &k);
        }
        plans->last = plan;
        if (!plan)
            return k;
        set_plan(&slot->desc, plan);
    }
    trn_exec_fault_maybe(p, &slot->desc);
    /* Only an item that shares this plan can use what the backend moves
     * ahead for it. */
    const trn_exec_item *next = plans->next;
    if (p->be->run_next && plan && next && next->has_plan && next->plan_as_prev)
        p->be->run_next(p->be, &next->desc, plan, next->shard, next->nshards);
    return p->be->run(p->be, &slot->desc, plan, slot->shard, slot->nshards);
}

/* Runs the request's items together (TRN_EXEC_TASK_TOGETHER): item 0's plan
 * is that of all of them as one program. Every item is answered with the
 * run's status and times; item 0 carries the watchdog (`at` stays 0). */
static void run_together(trn_exec_pool *p, exec_plans *plans, trn_exec_slot *slot) {
    const int n = slot->nitems < TRN_EXEC_CHAIN_MAX ? slot->nitems : TRN_EXEC_CHAIN_MAX;
    const trn_op_desc *descs[TRN_EXEC_CHAIN_MAX];
    for (int i = 0; i < n; i++) {
        trn_exec_item *it = &slot->items[i];
        trn_kmsg_init(&it->kmsg);
        it->desc.kmsg = &it->kmsg;
        descs[i] = &it->desc;
    }
    trn_exec_item *first = &slot->items[0];
    const uint64_t t0 = now_ns();
    atomic_store_explicit(&first->t_start, t0, memory_order_relaxed);
    atomic_store_explicit(&slot->at, 0, memory_order_release);
    trn_kstatus k = TRN_KSTATUS_FAILED;
    void *plan = first->has_plan ? plan_for(p, plans, first, &k) : NULL;
    if (plan && p->be->run_seq) {
        for (int i = 0; i < n; i++)
            trn_exec_fault_maybe(p, descs[i]);
        k = p->be->run_seq(p->be, descs, n, plan);
    } else if (plan) {
        trn_kmsg_post(&first->kmsg, 0, 0, "this backend cannot run ops together");
    }
    const uint64_t t1 = now_ns();
    for (int i = 0; i < n; i++) {
        slot->items[i].status = (int32_t)k;
        atomic_store_explicit(&slot->items[i].t_start, t0, memory_order_relaxed);
        slot->items[i].t_end = t1;
    }
}

/* The planner executor's task: prepares the slot's plan part, then puts
 * all it knows now on the back board for the daemon. */
static trn_kstatus prepare_plan(trn_exec_pool *p, exec_plans *plans, trn_exec_item *slot) {
    trn_exec_fault_plan_maybe(p, &slot->plan_spec);
    trn_kstatus k;
    if (!plan_for(p, plans, slot, &k))
        return k;
    char *text = p->be->plan_state_export ? p->be->plan_state_export(p->be) : NULL;
    if (text && trn_exec_space_back_publish(p->sp, text) != 0)
        trn_kmsg_post(&slot->kmsg, 0, 0, "planning knowledge of %zu bytes does not fit the board",
                      strlen(text));
    free(text);
    return TRN_KSTATUS_OK;
}

/* Runs item i of the slot's request with fn, stamping when it ran: its
 * start before `at` names it (the supervisor's watchdog reads both). */
static void run_item(trn_exec_pool *p, exec_plans *plans, trn_exec_slot *slot, int i,
                     trn_kstatus (*fn)(trn_exec_pool *, exec_plans *, trn_exec_item *)) {
    trn_exec_item *it = &slot->items[i];
    trn_kmsg_init(&it->kmsg);
    it->desc.kmsg = &it->kmsg;
    atomic_store_explicit(&it->t_start, now_ns(), memory_order_relaxed);
    atomic_store_explicit(&slot->at, i, memory_order_release);
    /* kind 0: a ping, the executor is ready */
    it->status = it->desc.kind == 0 && fn == run_op ? TRN_KSTATUS_OK : (int32_t)fn(p, plans, it);
    it->t_end = now_ns();
}

void trn_executor_main(void *arg, int core, int channel) {
    trn_exec_pool *p = arg;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    const int planner = core == p->cfg.ncores;
    char name[16];
    if (planner)
        snprintf(name, sizeof(name), "trn-planner");
    else
        snprintf(name, sizeof(name), "trn-exec%d", core);
    prctl(PR_SET_NAME, name);
    if (planner) /* background work, as the daemon's planner thread */
        (void)setpriority(PRIO_PROCESS, 0, 10);
    reset_signals();
    pin(p->cpus[core]);
    if (!planner && p->be->core_init && p->be->core_init(p->be, core) != 0)
        _exit(TRN_EXEC_EXIT_SETUP);
    if (trn_exec_sandbox_enter(channel) != 0)
        _exit(TRN_EXEC_EXIT_SETUP);

    trn_exec_slot *slot = &p->slots[core];
    exec_plans plans = {0};
    uint64_t gen = 0;
    uint32_t last = atomic_load_explicit(&slot->done, memory_order_acquire);
    uint32_t unmaps_seen = 0;
    int yields = 0, budget = 0;
    atomic_store(&slot->awake, 1);
    for (;;) {
        const uint32_t bell = atomic_load_explicit(&slot->bell, memory_order_acquire);
        const uint32_t req = atomic_load_explicit(&slot->req, memory_order_acquire);
        if (req == last) {
            /* Idle. Buffers the daemon unmapped since the last look (it
             * counts them before it rings): apply them now, so their memory
             * leaves this process too. */
            const uint32_t unmaps = atomic_load_explicit(&slot->unmaps, memory_order_acquire);
            if (unmaps != unmaps_seen) {
                if (trn_exec_space_apply_queued(p->sp, channel, &gen) != 0)
                    _exit(TRN_EXEC_EXIT_CHANNEL);
                unmaps_seen = unmaps;
                continue;
            }
            if (yields < budget) {
                /* Awake: the worker, often on this CPU, posts the next op
                 * of a stream straight after this answer; yielding lets it
                 * run and saves both sides a futex syscall. */
                yields++;
                sched_yield();
                continue;
            }
            atomic_store_explicit(&slot->awake, 0, memory_order_seq_cst);
            if (atomic_load_explicit(&slot->bell, memory_order_seq_cst) == bell)
                trn_exec_futex_wait(&slot->bell, bell, 0);
            atomic_store_explicit(&slot->awake, 1, memory_order_seq_cst);
            yields = 0;
            budget = 0;
            continue;
        }
        yields = 0;
        /* Read before the answer: then the slot is the worker's again. */
        budget = slot->followed ? EXEC_IDLE_YIELDS : 0;
        atomic_store_explicit(&slot->taken, req, memory_order_release);
        if (trn_exec_space_apply(p->sp, channel, &gen, slot->want_gen) != 0)
            _exit(TRN_EXEC_EXIT_CHANNEL);
        plans.last = NULL;
        if (slot->task == TRN_EXEC_TASK_PLAN)
            run_item(p, &plans, slot, 0, prepare_plan);
        else if (slot->task == TRN_EXEC_TASK_TOGETHER)
            run_together(p, &plans, slot);
        else
            for (int i = 0; i < slot->nitems && i < TRN_EXEC_CHAIN_MAX; i++) {
                if (slot->items[i].peek)
                    break; /* the last item, only the next op of the one before */
                plans.next =
                    i + 1 < slot->nitems && i + 1 < TRN_EXEC_CHAIN_MAX ? &slot->items[i + 1] : NULL;
                run_item(p, &plans, slot, i, run_op);
            }
        /* Nothing may still read this request's memory once it is answered.
         * A peek's move runs under the peek's name (its watchdog; a fault
         * here fails no op: daemon/executor.c, conclude). */
        const int npeek = slot->task == TRN_EXEC_TASK_OP ? slot->nitems - 1 : -1;
        if (npeek > 0 && npeek < TRN_EXEC_CHAIN_MAX && slot->items[npeek].peek) {
            atomic_store_explicit(&slot->items[npeek].t_start, now_ns(), memory_order_relaxed);
            atomic_store_explicit(&slot->at, npeek, memory_order_release);
        }
        if (p->be->run_next_wait)
            p->be->run_next_wait(p->be);
        last = req;
        atomic_store_explicit(&slot->done, req, memory_order_seq_cst);
        if (atomic_load(&slot->sleeping))
            trn_exec_futex_wake(&slot->done);
    }
}
