/*
 * block_pool.h — a cache of equal-sized, zeroed heap blocks for objects made
 * and freed at a high rate on different threads (the service's queued ops).
 *
 * Why: an asynchronous launch makes one queued-op object per op on the
 * frontend's thread and a worker frees it, hundreds of thousands of times a
 * second. jemalloc serves such a pattern (5 KB objects, made on one thread,
 * freed on another) by cutting new slabs from untouched memory over and over
 * (measured: a page fault per two ops and 200 MB resident for 4096 ops in
 * flight); blocks kept here are reused while still mapped and cached.
 *
 * Thread-safe. At most `keep` free blocks are kept; trim hands them back.
 */
#ifndef TRN_DAEMON_BLOCK_POOL_H
#define TRN_DAEMON_BLOCK_POOL_H

#include <pthread.h>
#include <stddef.h>

typedef struct trn_block_pool {
    pthread_mutex_t lock;
    void *free;   /* singly linked through each block's first word */
    size_t count; /* blocks on the free list */
    size_t keep;  /* most blocks kept */
    size_t size;  /* bytes per block, at least a pointer */
    /* Bytes [hole_off, hole_off + hole_len) of a reused block are left as
     * they were (trn_block_pool_leave_hole). */
    size_t hole_off, hole_len;
} trn_block_pool;

void trn_block_pool_init(trn_block_pool *p, size_t size, size_t keep);
/* Frees the kept blocks (blocks handed out must be back or freed). */
void trn_block_pool_destroy(trn_block_pool *p);
/* Reused blocks keep bytes [off, off + len) as they were instead of being
 * zeroed: for a large part of the object its user always writes before
 * reading (zeroing a 4 KB array per op costs more than the rest of the
 * block's, once thousands of blocks in flight are out of the cache). */
void trn_block_pool_leave_hole(trn_block_pool *p, size_t off, size_t len);
/* A zeroed block of p->size bytes (but for the hole, on reuse), or NULL
 * when out of memory. */
void *trn_block_pool_get(trn_block_pool *p);
/* Gives a block from trn_block_pool_get back (NULL: no-op). */
void trn_block_pool_put(trn_block_pool *p, void *block);
/* Frees every kept block (an idle daemon returning memory). */
void trn_block_pool_trim(trn_block_pool *p);

#endif
