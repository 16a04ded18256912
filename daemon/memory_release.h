/*
 * memory_release.h — when the daemon gives its cached heap back to the
 * system.
 *
 * trnscid's allocator keeps the pages kernels free (their scratch: the
 * rounded operands of the low-precision GEMM modes, LAPACK workspaces,
 * staging copies) instead of returning them at once: returning and
 * re-faulting an 8 MiB scratch costs ~2000 page faults, ~30 ms on this
 * class of VM, per op (docs/architecture.md, "Memory"). The cache is
 * released once the scheduler has completed no op for an idle period, so a
 * burst's high-water mark does not stay resident on an idle machine.
 *
 * This file holds only the decision (pure, unit-tested); main.c supplies
 * the action for the allocator it was linked with.
 */
#ifndef TRN_DAEMON_MEMORY_RELEASE_H
#define TRN_DAEMON_MEMORY_RELEASE_H

#include <stdint.h>

/* The idle time after which the cached heap is released. */
#define TRN_MEMORY_RELEASE_IDLE_MS 10000

typedef struct trn_memory_release {
    uint64_t ops;      /* ops_completed when last seen changing */
    uint64_t since_ms; /* when it last changed (or the start) */
    int released;      /* released since the last change */
} trn_memory_release;

/* Starts watching at now_ms with the scheduler's ops_completed count. */
void trn_memory_release_init(trn_memory_release *r, uint64_t now_ms, uint64_t ops_completed);

/* Called periodically with the scheduler's ops_completed count: returns 1
 * exactly once per idle period, when no op has completed for idle_ms and
 * at least one op completed before (a daemon that never ran anything has
 * nothing cached to release); 0 otherwise. */
int trn_memory_release_due(trn_memory_release *r, uint64_t now_ms, uint64_t ops_completed,
                           uint64_t idle_ms);

#endif
