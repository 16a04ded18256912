/*
 * executor_internal.h — what the pool (executor.c), the executor process
 * (executor_main.c), its sandbox and the test-fault hook share.
 */
#ifndef TRN_DAEMON_EXECUTOR_INTERNAL_H
#define TRN_DAEMON_EXECUTOR_INTERNAL_H

#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>

#include "daemon/exec_space.h"
#include "daemon/executor_config.h"
#include "daemon/executor_slot.h"
#include "daemon/zygote.h"
#include "kernels/backend.h"

/* Exit codes of an executor that could not go on (not a fault of an op). */
#define TRN_EXEC_EXIT_SETUP 70   /* core_init or the sandbox failed */
#define TRN_EXEC_EXIT_CHANNEL 71 /* its channel closed or a mapping failed */

/* What one request runs on an executor (posted again, from its first op
 * not answered, after the executor died before taking it or while running
 * an earlier op), and what concluding it needs. */
typedef struct trn_exec_request {
    trn_exec_op *ops; /* ops[0 .. n): each one shard, run in order */
    int n;
    int first;    /* ops before it are answered */
    int32_t task; /* TRN_EXEC_TASK_* */
    int followed; /* more work waited behind it (trn_exec_slot.followed) */
    /* A chain: ops after the first that no executor could take are handed
     * back (ran 0) instead of failed, to run on another core. */
    int hand_back;
    uint32_t seq; /* as posted */
    int attempt;
} trn_exec_request;

/* The daemon's record of one core's executor. `lock` guards pid against
 * the supervisor matching a death report while a start is under way; the
 * rest is the core's worker's, read under lock for status. */
typedef struct trn_exec_core {
    pthread_mutex_t lock;
    /* Held by whoever drives the executor: the thread that runs an op on it
     * (until trn_exec_pool_finish, for a run its caller stopped waiting
     * for), or the restarter starting an executor that died idle. A
     * semaphore, because a run may be finished by another thread. */
    sem_t use;
    /* The request being run, kept for trn_exec_pool_finish, and the one op
     * of a request made by trn_exec_pool_run or _plan. */
    trn_exec_request req;
    trn_exec_op one;
    trn_exec_plan_ref one_plan;
    uint64_t back_gen; /* the planner's: the back board's text last taken */
    int32_t pid;       /* 0: none running */
    int channel;       /* the daemon's end of its channel (-1: none) */
    int dead_status;   /* wait status from the death report */
    uint32_t seq;
    uint64_t starts, faults, watchdog, restart_us;
    int last_signal;
    uint32_t consecutive; /* faults since the last op it answered */
    uint64_t fault_ms[TRN_EXEC_QUARANTINE_FAULTS];
    /* The watchdog, kept by the supervisor: when the running op must end
     * (0: none running), and whether it killed the executor for it. */
    _Atomic uint64_t deadline_ns;
    atomic_int watchdog_fired;
    unsigned nfaults_seen;
    atomic_int quarantined;
    /* Executors started on the core so far (starts, atomic: read by any
     * thread): a new one's memory, and its NeuronCore's, holds nothing of
     * the last one's. */
    atomic_uint epoch;
} trn_exec_core;

typedef struct trn_exec_pool trn_exec_pool;

struct trn_exec_pool {
    trn_exec_pool_config cfg;
    int *cpus; /* cfg.cpus, copied (-1: unpinned) */
    const trn_backend *be;
    trn_exec_space *sp;
    trn_exec_slot *slots; /* shared with every executor (mapped before the fork) */
    size_t slots_bytes;
    trn_exec_core *cores;
    atomic_int in_service;
    trn_zygote *zygote;
    pthread_t supervisor;
    int supervisor_started;
    /* The restarter thread: starts again the executors that died while
     * their core was idle (the supervisor only asks: it must stay free to
     * read death reports, which a start waits for). */
    pthread_t restarter;
    int restarter_started, restarter_stop;
    pthread_mutex_t restart_lock;
    pthread_cond_t restart_cv;
    unsigned char *restart_wanted; /* per core, under restart_lock */
    int stop[2];                   /* a pipe that ends the supervisor */
};

/* The executor process (executor_main.c); never returns. */
void trn_executor_main(void *arg, int core, int channel);
/* Drops what an executor does not need (executor_sandbox.c): 0, or -1. */
int trn_exec_sandbox_enter(int channel);
/* Test builds with fault injection on: crashes or hangs as the op asks
 * (executor_fault.c); otherwise nothing. */
void trn_exec_fault_maybe(const trn_exec_pool *p, const trn_op_desc *op);
/* The same for the planner executor: planning a 1D complex FFT of a size
 * listed in executor_fault.c crashes or hangs it. */
void trn_exec_fault_plan_maybe(const trn_exec_pool *p, const trn_plan_spec *spec);
/* With fault injection: a pause between an executor's spawn and the first
 * message the daemon sends it, so that a test can kill it in between. */
void trn_exec_fault_start_gap(const trn_exec_pool *p);

#endif
