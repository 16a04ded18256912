/*
 * block_pool.c — the cache of zeroed blocks (block_pool.h).
 *
 * Invariant: every block on the free list was handed out by this pool and
 * given back; `count` is the length of the list and never exceeds `keep`.
 */
#include "daemon/block_pool.h"

#include <stdlib.h>
#include <string.h>

void trn_block_pool_init(trn_block_pool *p, size_t size, size_t keep) {
    pthread_mutex_init(&p->lock, NULL);
    p->free = NULL;
    p->count = 0;
    p->keep = keep;
    p->size = size < sizeof(void *) ? sizeof(void *) : size;
    p->hole_off = p->hole_len = 0;
}

/* Detaches the free list (under the lock) and frees it (outside). */
static void free_list(trn_block_pool *p) {
    pthread_mutex_lock(&p->lock);
    void *b = p->free;
    p->free = NULL;
    p->count = 0;
    pthread_mutex_unlock(&p->lock);
    while (b) {
        void *next;
        memcpy(&next, b, sizeof(next));
        free(b);
        b = next;
    }
}

void trn_block_pool_destroy(trn_block_pool *p) {
    free_list(p);
    pthread_mutex_destroy(&p->lock);
}

void trn_block_pool_trim(trn_block_pool *p) {
    free_list(p);
}

void *trn_block_pool_get(trn_block_pool *p) {
    pthread_mutex_lock(&p->lock);
    void *b = p->free;
    if (b) {
        memcpy(&p->free, b, sizeof(void *));
        p->count--;
    }
    pthread_mutex_unlock(&p->lock);
    if (!b)
        return calloc(1, p->size);
    const size_t end = p->hole_off + p->hole_len;
    memset(b, 0, p->hole_len ? p->hole_off : p->size);
    if (p->hole_len)
        memset((char *)b + end, 0, p->size - end);
    return b;
}

void trn_block_pool_leave_hole(trn_block_pool *p, size_t off, size_t len) {
    /* Never the first word: it links the free list. */
    if (off >= sizeof(void *) && off <= p->size && len <= p->size - off) {
        p->hole_off = off;
        p->hole_len = len;
    }
}

void trn_block_pool_put(trn_block_pool *p, void *block) {
    if (!block)
        return;
    pthread_mutex_lock(&p->lock);
    const int kept = p->count < p->keep;
    if (kept) {
        memcpy(block, &p->free, sizeof(void *));
        p->free = block;
        p->count++;
    }
    pthread_mutex_unlock(&p->lock);
    if (!kept)
        free(block);
}
