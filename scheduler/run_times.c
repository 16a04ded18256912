/*
 * run_times.c — the last runs of one kind of work and their lower median
 * (run_times.h).
 */
#include "scheduler/run_times.h"

void trn_run_times_note(trn_run_times *rt, uint64_t ns) {
    const unsigned slot = atomic_fetch_add_explicit(&rt->next, 1, memory_order_relaxed);
    atomic_store_explicit(&rt->ns[slot % TRN_RUN_TIMES_KEPT], ns ? ns : 1, memory_order_relaxed);
}

uint64_t trn_run_times_estimate(const trn_run_times *rt) {
    uint64_t v[TRN_RUN_TIMES_KEPT];
    int n = 0;
    for (int i = 0; i < TRN_RUN_TIMES_KEPT; i++) {
        const uint64_t x = atomic_load_explicit(&rt->ns[i], memory_order_relaxed);
        if (!x)
            continue;
        int j = n++; /* insertion sort: at most TRN_RUN_TIMES_KEPT samples */
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
    return n ? v[(n - 1) / 2] : 0;
}
