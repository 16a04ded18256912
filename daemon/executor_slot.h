/*
 * executor_slot.h — the request slot a core's worker and its executor share
 * (daemon/executor.h), and the futex calls both sides use.
 *
 * Protocol: the worker fills the request fields, then stores a new request
 * number in `req` (release), rings `bell` and wakes the executor (which
 * sleeps on `bell`: anything for it — a request, or buffers unmapped while
 * it is idle — changes it, so no wake-up is lost) unless the executor says
 * it is `awake` (after answering a request posted with `followed` set, it
 * yields a few times before it sleeps, so a worker that posts the next op
 * at once needs no wake-up syscall and the executor none to sleep); the
 * executor runs its items in order (a chain of a stream's ops: one hand-off
 * for all), fills each item's answer, stores the same number in `done` and
 * wakes the worker if it sleeps. Only the daemon's supervisor writes TRN_EXEC_DEAD to `done`,
 * after the executor died, so a worker asleep on `done` always wakes.
 * Request numbers cycle below TRN_EXEC_DEAD.
 */
#ifndef TRN_DAEMON_EXECUTOR_SLOT_H
#define TRN_DAEMON_EXECUTOR_SLOT_H

#include <stdatomic.h>
#include <stdint.h>

#include "daemon/exec_op.h"
#include "ops/op.h"
#include "ops/plan.h"

#define TRN_EXEC_DEAD UINT32_MAX

/* What a request asks: run desc (kind 0: a ping), or prepare the plan
 * named by plan_key/plan_spec/plan_part and publish the planning knowledge
 * it gave on the back board (the planner executor), or run the items'
 * descriptors together, as one run of the first item's plan (the backend's
 * run_seq: a graph segment as one program), every item answered with its
 * status. */
enum { TRN_EXEC_TASK_OP = 0, TRN_EXEC_TASK_PLAN = 1, TRN_EXEC_TASK_TOGETHER = 2 };

/* One op of a request, and its answer. */
typedef struct trn_exec_item {
    /* request */
    trn_op_desc desc; /* its kmsg is the executor's to set (to &kmsg) */
    int32_t shard, nshards;
    /* The plan the op runs, which the executor prepares itself (its plan
     * pointer in desc is the daemon's): has_plan, its part, the plan
     * cache's key and spec. */
    int32_t has_plan;
    uint32_t plan_part;
    /* The plan and part of the item before it: plan_key and plan_spec are
     * not filled in (the executor takes that item's). */
    int32_t plan_as_prev;
    /* Not to run: only the next op named to the backend (trn_exec_op.peek). */
    int32_t peek;
    uint64_t limit_ns; /* its watchdog, from when it starts */
    char plan_key[TRN_PLAN_KEY_LEN];
    trn_plan_spec plan_spec;
    /* answer: when it ran (CLOCK_MONOTONIC; t_start is stored before `at`
     * names the item), its status and message */
    _Atomic uint64_t t_start;
    uint64_t t_end;
    int32_t status; /* trn_kstatus */
    trn_kmsg kmsg;
} trn_exec_item;

typedef struct trn_exec_slot {
    _Alignas(64) _Atomic uint32_t req;  /* the last request posted */
    _Atomic uint32_t bell;              /* rung for every request and unmap */
    _Atomic uint32_t unmaps;            /* counts rings for unmaps (before ringing) */
    _Alignas(64) _Atomic uint32_t done; /* the last request answered, or TRN_EXEC_DEAD */
    _Atomic uint32_t taken;
    /* The worker sleeps on `done` (else it yields): the executor wakes it
     * only then, saving a syscall per op. Both sides store, then load the
     * other's word, sequentially consistent, so one sees the other. */
    _Atomic uint32_t sleeping;
    /* The executor looks at `bell` without sleeping: a ring needs no
     * futex wake. Both sides store, then load the other's word (`bell` /
     * `awake`), sequentially consistent, so no ring is missed. */
    _Atomic uint32_t awake;
    /* The item the executor runs (answered: every item before it). After
     * the executor died, it names the op that was running. */
    _Atomic int32_t at;
    /* request */
    int32_t task; /* TRN_EXEC_TASK_* */
    /* More work waited behind this request when it was posted: after
     * answering, the executor stays awake a few yields for the next. */
    int32_t followed;
    uint64_t want_gen; /* the shared space's generation at dispatch */
    /* The ops, run in order whatever their statuses (a planner task and a
     * ping: one item). */
    int32_t nitems;
    trn_exec_item items[TRN_EXEC_CHAIN_MAX];
} trn_exec_slot;

/* Sleeps while *word == expect, at most timeout_ns (0: no limit). */
void trn_exec_futex_wait(_Atomic uint32_t *word, uint32_t expect, uint64_t timeout_ns);
void trn_exec_futex_wake(_Atomic uint32_t *word);

#endif
