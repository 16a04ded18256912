/*
 * executor_config.h — the settings of the executor pool (daemon/executor.h).
 */
#ifndef TRN_DAEMON_EXECUTOR_CONFIG_H
#define TRN_DAEMON_EXECUTOR_CONFIG_H

#include <stdint.h>

#define TRN_EXEC_BACKOFF_MAX_MS 2000
#define TRN_EXEC_QUARANTINE_FAULTS 5
#define TRN_EXEC_QUARANTINE_WINDOW_MS 60000

typedef struct trn_exec_pool_config {
    int ncores;
    const int *cpus;            /* each core's CPU (NULL: unpinned) */
    uint64_t watchdog_floor_ms; /* the least time an op may run */
    double watchdog_factor;     /* × the op's estimated time */
    int fault_injection;        /* test builds: the test-fault trigger runs (executor_fault.c) */
    /* Resident operands' write clock (ops/write_clock.h), or NULL: an op
     * whose executor ended may have written part of what it writes. */
    struct trn_write_clock *wclock;
} trn_exec_pool_config;

#endif
