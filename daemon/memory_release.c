/*
 * memory_release.c — the idle-release decision of memory_release.h.
 *
 * Invariant: `released` is set only after a release was due, and cleared
 * whenever ops_completed moves, so each idle period yields one release.
 */
#include "daemon/memory_release.h"

void trn_memory_release_init(trn_memory_release *r, uint64_t now_ms, uint64_t ops_completed) {
    r->ops = ops_completed;
    r->since_ms = now_ms;
    /* Nothing ran yet: treat the start as already released. */
    r->released = 1;
}

int trn_memory_release_due(trn_memory_release *r, uint64_t now_ms, uint64_t ops_completed,
                           uint64_t idle_ms) {
    if (ops_completed != r->ops) {
        r->ops = ops_completed;
        r->since_ms = now_ms;
        r->released = 0;
        return 0;
    }
    if (r->released || now_ms - r->since_ms < idle_ms)
        return 0;
    r->released = 1;
    return 1;
}
