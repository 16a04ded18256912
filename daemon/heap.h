/*
 * heap.h — the daemon's heap policy hook (heap_jemalloc.c, heap_libc.c).
 */
#ifndef TRN_DAEMON_HEAP_H
#define TRN_DAEMON_HEAP_H

/* Returns the heap pages the allocator keeps cached to the system. Called
 * from the main thread when the daemon has been idle (memory_release.h). */
void trn_heap_release(void);

#endif
