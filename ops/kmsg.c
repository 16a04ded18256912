/*
 * kmsg.c — a kernel's message about a failed op: of all the shards that
 * post one, the lowest rank wins (ops/types.h), so the client hears the
 * same reason whichever shard finished first.
 */
#include <stdarg.h>
#include <stdio.h>

#include "ops/types.h"

void trn_kmsg_init(trn_kmsg *m) {
    atomic_init(&m->busy, 0);
    m->set = 0;
    m->bad_input = 0;
    m->rank = 0;
    m->text[0] = '\0';
}

void trn_kmsg_post(trn_kmsg *m, uint64_t rank, int bad_input, const char *fmt, ...) {
    if (!m)
        return;
    char text[TRN_KMSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    /* A spin lock: only failing shards of one op ever contend, briefly. */
    while (atomic_exchange_explicit(&m->busy, 1, memory_order_acquire))
        ;
    if (!m->set || rank < m->rank) {
        m->set = 1;
        m->rank = rank;
        m->bad_input = bad_input;
        snprintf(m->text, sizeof(m->text), "%s", text);
    }
    atomic_store_explicit(&m->busy, 0, memory_order_release);
}

trn_kstatus trn_kmsg_no_memory(trn_kmsg *m, int shard, size_t bytes, const char *what, ...) {
    char w[TRN_KMSG_LEN];
    va_list ap;
    va_start(ap, what);
    vsnprintf(w, sizeof(w), what, ap);
    va_end(ap);
    trn_kmsg_post(m, TRN_KMSG_RANK_NO_MEMORY + (uint64_t)(shard > 0 ? shard : 0), 0,
                  "the daemon is out of memory for its workspace: %zu bytes for %s could not be "
                  "allocated",
                  bytes, w);
    return TRN_KSTATUS_NO_MEMORY;
}
