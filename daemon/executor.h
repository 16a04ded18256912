/*
 * executor.h — kernels in executor processes: one process per core, started
 * and supervised by the daemon, so that a kernel that crashes or hangs
 * fails only the op it was running (docs/architecture.md, "Executors").
 *
 * The daemon stays the control plane: sessions, validation, scheduling, the
 * plan cache, metrics. Its worker thread for core c still takes shards from
 * the scheduler; it hands each to the executor of core c through a request
 * slot in shared memory and sleeps until the executor answers, the
 * executor dies, or the op's watchdog runs out:
 *
 *   worker (daemon, pinned to cpu c)          executor c (pinned to cpu c)
 *   slot.desc = *op; slot.req = n; wake  ──►  applies buffer maps, runs the
 *   sleep on slot.done                   ◄──  kernel; slot.done = n; wake
 *
 * Both sleep on futexes in the slot, and both are pinned to the same CPU, so
 * a hand-off is a context switch on that CPU, not a cross-CPU wake-up.
 *
 * Faults: a fatal signal ends the executor; its parent (daemon/zygote.h)
 * reports the death, the supervisor thread marks the slot, and the worker
 * fails the op with a message naming the signal. An op running past its
 * watchdog (max(floor, factor × its estimated time); config keys
 * executor-watchdog-floor-ms and executor-watchdog-factor) gets its
 * executor killed, and fails saying so. The executor is started again, at
 * once the first time and after a doubling delay while faults follow each
 * other (up to TRN_EXEC_BACKOFF_MAX_MS); a core whose executor faults
 * TRN_EXEC_QUARANTINE_FAULTS times within TRN_EXEC_QUARANTINE_WINDOW_MS is
 * taken out of service and reported (never the last core in service).
 *
 * What runs where: every compute kernel runs in an executor, ops with a
 * plan included (an FFT or contraction is named by its plan-cache key and
 * the executor makes its own plan from the daemon's published planning
 * knowledge); data movement (memset, copies, staged transfers) runs in the
 * daemon's copy engine or worker, and FFTW's planning in the planner
 * executor (docs/architecture.md, "Executors"). Executors hold nothing that
 * cannot be rebuilt: their buffers come from the shared space
 * (daemon/exec_space.h), their ops from the slot.
 *
 * Least privilege: an executor has no socket but its channel, cannot make
 * sockets, processes or open files (a seccomp filter), gets a private mount
 * namespace when the kernel allows it, and dies with its parent.
 */
#ifndef TRN_DAEMON_EXECUTOR_H
#define TRN_DAEMON_EXECUTOR_H

#include <stdint.h>

#include "daemon/exec_op.h"
#include "daemon/exec_space.h"
#include "daemon/executor_config.h"
#include "kernels/backend.h"

typedef struct trn_exec_pool trn_exec_pool;

/* Forks the executors' parent process now: call while the daemon has one
 * thread. be and sp are inherited by every executor. NULL with err. */
trn_exec_pool *trn_exec_pool_create(const trn_exec_pool_config *cfg, const trn_backend *be,
                                    trn_exec_space *sp, char *err, size_t errlen);
/* Starts the supervisor thread and every core's executor. 0 or -1 with err. */
int trn_exec_pool_start(trn_exec_pool *p, char *err, size_t errlen);
/* Ends the executors and their parent (call after the workers stopped). */
void trn_exec_pool_destroy(trn_exec_pool *p);

/* Runs one shard of op on core's executor, in that core's name (one run
 * per core at a time). plan: the plan it runs, or NULL. est_ns: the
 * scheduler's estimate of the shard's time (the watchdog's basis). A fault
 * fails the op (TRN_KSTATUS_FAILED, its message in op->kmsg).
 * patience_ns 0 waits for the answer. Otherwise the caller is held at most
 * that long and never by slow work: when the answer has not come by then,
 * or the executor died, or must first be started, *pending is set, the run
 * goes on (or starts), the core stays taken, and trn_exec_pool_finish (from
 * any thread) concludes it and returns its status. pending may be NULL when
 * patience_ns is 0. followed: more work waits behind this op
 * (trn_sched_running_followed), so the executor looks for its next request
 * for a while after answering instead of sleeping at once. */
trn_kstatus trn_exec_pool_run(trn_exec_pool *p, int core, const trn_op_desc *op,
                              const trn_exec_plan_ref *plan, int shard, int nshards,
                              uint64_t est_ns, uint64_t patience_ns, int *pending, int followed);
/* Runs ops[0 .. n) (1 <= n <= TRN_EXEC_CHAIN_MAX, ops the executor takes:
 * trn_exec_pool_takes) on core's executor, in that order, as one request:
 * one hand-off for all of them. Each op runs whatever the others' statuses
 * and gets its own status, message and times; each has its own watchdog,
 * from when it starts. A fault fails only the op that was running: the ops
 * after it go to the restarted executor, or, when the core has none (it
 * went out of service), are handed back unrun (ran 0). The last op may be
 * a peek (trn_exec_op.peek): named to the backend as the next op, never
 * run, always answered ran 0; a fault while its inputs move fails no op.
 * Waits for all of them. */
void trn_exec_pool_run_chain(trn_exec_pool *p, int core, trn_exec_op *ops, int n, int followed);
/* Runs ops[0 .. n) (2 <= n <= TRN_EXEC_CHAIN_MAX, ops the executor takes)
 * together on core's executor: one call of the backend's run_seq with
 * ops[0].plan, the plan of all of them as one program (the others' plan
 * NULL), under one watchdog from ops[0].est_ns, the estimate of the whole.
 * Every op is answered with that run's status and times; a fault fails
 * them all (its message in ops[0].op->kmsg). Waits for the answer. */
void trn_exec_pool_run_together(trn_exec_pool *p, int core, trn_exec_op *ops, int n, int followed);
/* Waits for the run trn_exec_pool_run left pending on core; returns its
 * status as trn_exec_pool_run would have. */
trn_kstatus trn_exec_pool_finish(trn_exec_pool *p, int core);
/* Prepares a part of a plan in the planner executor — an unpinned executor
 * that runs no ops and maps no buffer, so that a planner that crashes or
 * hangs (FFTW aborts when it cannot allocate) fails only that plan — then
 * imports the planning knowledge it published (FFTW wisdom) into this
 * process, so that the plan cache prepares the same plan here without
 * measuring again. From the plan cache's planner thread only. Returns 0;
 * -2 when it ran out of memory; -1 with err otherwise (a fault names the
 * signal or the watchdog; the planner executor is restarted). */
int trn_exec_pool_plan(trn_exec_pool *p, const trn_exec_plan_ref *plan, char *err, size_t errlen);
/* Hands the daemon's planning knowledge to the executors (from the plan
 * cache's planner thread, after each part it prepares). */
void trn_exec_pool_publish_plans(trn_exec_pool *p);
/* Whether op runs in an executor (else in the daemon's worker: see "What
 * runs where"). */
int trn_exec_pool_takes(const trn_op_desc *op);
/* Whether core is in service (not quarantined). */
int trn_exec_pool_core_in_service(trn_exec_pool *p, int core);
/* How many executors were started on core so far: it changes when one
 * died and another took its place (what the old one held is gone). */
unsigned trn_exec_pool_core_starts(trn_exec_pool *p, int core);

/* What status and metrics show. */
typedef struct trn_exec_core_info {
    int32_t pid;         /* its executor now (0: none running) */
    uint64_t starts;     /* executors started for it */
    uint64_t faults;     /* ops failed by a crash or the watchdog */
    uint64_t watchdog;   /* of which by the watchdog */
    int quarantined;     /* taken out of service */
    int last_signal;     /* of the last crash (0: none) */
    uint64_t restart_us; /* how long the last start took */
} trn_exec_core_info;
int trn_exec_pool_ncores(const trn_exec_pool *p);
/* core: 0 … ncores-1, or ncores for the planner executor. */
void trn_exec_pool_core_info(trn_exec_pool *p, int core, trn_exec_core_info *out);

#endif
