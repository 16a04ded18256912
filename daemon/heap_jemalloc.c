/*
 * heap_jemalloc.c — trnscid's heap policy when it is linked with jemalloc
 * (the default build; sanitizer builds use the libc allocator and skip this
 * file).
 *
 * jemalloc reads `malloc_conf` before the first allocation. Its defaults
 * return freed pages to the system within one op here: scratch of 8 MiB and
 * more goes to the "oversize" arena, which purges at once, and the decay of
 * the other arenas still purged each freed 8 MiB block between two
 * back-to-back GEMMs, so every op faulted its scratch in again (measured:
 * COMPUTE_32F_FAST_16BF at n = 1024 took 50 ms instead of 22 ms, with
 * ~1500 extra page faults per op). Freed pages are therefore kept (decay
 * disabled) and handed back by trn_heap_release() when the daemon has been
 * idle (memory_release.h).
 */
#include <jemalloc/jemalloc.h>

#include "daemon/heap.h"
#include "daemon/log.h"

#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

/* jemalloc's documented configuration hook: a global it reads at start. */
const char *malloc_conf = "dirty_decay_ms:-1,muzzy_decay_ms:-1";

void trn_heap_release(void) {
    if (mallctl("arena." STRINGIFY(MALLCTL_ARENAS_ALL) ".purge", NULL, NULL, NULL, 0) != 0)
        trn_log(TRN_LOG_WARN, "could not release cached heap pages (jemalloc arena purge)");
    else
        trn_log(TRN_LOG_DEBUG, "idle: released cached heap pages to the system");
}
