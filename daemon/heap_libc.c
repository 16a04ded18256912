/*
 * heap_libc.c — trnscid's heap policy with the libc allocator (sanitizer
 * builds, or -DTRNSCI_USE_JEMALLOC=OFF): glibc trims its own heap, and
 * malloc_trim gives back what it kept.
 */
#include <malloc.h>

#include "daemon/heap.h"

void trn_heap_release(void) {
    malloc_trim(0);
}
