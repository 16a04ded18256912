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
 * executor runs it,
 * fills the answer, stores the same number in `done` and wakes
 * the worker if it sleeps. Only the daemon's supervisor writes TRN_EXEC_DEAD to `done`,
 * after the executor died, so a worker asleep on `done` always wakes.
 * Request numbers cycle below TRN_EXEC_DEAD.
 */
#ifndef TRN_DAEMON_EXECUTOR_SLOT_H
#define TRN_DAEMON_EXECUTOR_SLOT_H

#include <stdatomic.h>
#include <stdint.h>

#include "ops/op.h"
#include "ops/plan.h"

#define TRN_EXEC_DEAD UINT32_MAX

/* What a request asks: run desc (kind 0: a ping), or prepare the plan
 * named by plan_key/plan_spec/plan_part and publish the planning knowledge
 * it gave on the back board (the planner executor). */
enum { TRN_EXEC_TASK_OP = 0, TRN_EXEC_TASK_PLAN = 1 };

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
    /* request */
    int32_t task; /* TRN_EXEC_TASK_* */
    /* More work waited behind this request when it was posted: after
     * answering, the executor stays awake a few yields for the next. */
    int32_t followed;
    uint64_t want_gen; /* the shared space's generation at dispatch */
    int32_t shard, nshards;
    trn_op_desc desc; /* its kmsg is the executor's to set (to &kmsg) */
    /* The plan the op runs, which the executor prepares itself (its plan
     * pointer in desc is the daemon's): has_plan, its part, the plan
     * cache's key and spec. */
    int32_t has_plan;
    uint32_t plan_part;
    char plan_key[TRN_PLAN_KEY_LEN];
    trn_plan_spec plan_spec;
    /* answer */
    int32_t status; /* trn_kstatus */
    trn_kmsg kmsg;
} trn_exec_slot;

/* Sleeps while *word == expect, at most timeout_ns (0: no limit). */
void trn_exec_futex_wait(_Atomic uint32_t *word, uint32_t expect, uint64_t timeout_ns);
void trn_exec_futex_wake(_Atomic uint32_t *word);

#endif
