/*
 * exec_op.h — an op as a core's executor is asked to run it
 * (daemon/executor.h): what the pool's callers fill in and the request
 * slot carries (daemon/executor_slot.h).
 */
#ifndef TRN_DAEMON_EXEC_OP_H
#define TRN_DAEMON_EXEC_OP_H

#include <stdint.h>

#include "ops/op.h"
#include "ops/plan.h"

/* A plan an op runs, as the executor needs it: the plan cache's key and
 * spec, and the part the op needs. */
typedef struct trn_exec_plan_ref {
    const char *key;
    const trn_plan_spec *spec;
    unsigned part;
} trn_exec_plan_ref;

/* The most ops one request carries (trn_exec_pool_run_chain). */
#define TRN_EXEC_CHAIN_MAX 64

/* One shard of an op for trn_exec_pool_run_chain: what to run, and what
 * came of it. */
typedef struct trn_exec_op {
    const trn_op_desc *op;         /* a fault's or failure's message goes to op->kmsg */
    const trn_exec_plan_ref *plan; /* the plan it runs, or NULL */
    int shard, nshards;
    uint64_t est_ns; /* the scheduler's estimate of its time (the watchdog's basis) */
    /* A chain's last op only: not to run, only named to the backend as the
     * next op (kernels/backend.h, run_next); always answered ran 0. */
    int peek;
    /* answer: ran 0 when no executor of the core could take it (a chain's
     * op after the first, handed back: status and times not set), or when
     * it is a peek */
    int ran;
    trn_kstatus status;
    uint64_t t_start, t_end; /* when it ran (CLOCK_MONOTONIC; 0: it did not) */
} trn_exec_op;

#endif
