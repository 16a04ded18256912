/*
 * idmap.h — a hash map from non-zero 64-bit ids to pointers.
 *
 * Open addressing with linear probing and backward-shift deletion; grows at
 * 50% load. Not thread-safe: the owner locks.
 */
#ifndef TRN_DAEMON_IDMAP_H
#define TRN_DAEMON_IDMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct trn_idmap {
    uint64_t *keys; /* 0 = empty slot */
    void **vals;
    size_t cap; /* power of two, or 0 */
    size_t len;
} trn_idmap;

void trn_idmap_init(trn_idmap *m);
void trn_idmap_free(trn_idmap *m);
void *trn_idmap_get(const trn_idmap *m, uint64_t id);
/* Inserts or replaces. Returns 0, or -1 on allocation failure (map unchanged). */
int trn_idmap_put(trn_idmap *m, uint64_t id, void *val);
/* Removes id and returns its value, or NULL if absent. */
void *trn_idmap_remove(trn_idmap *m, uint64_t id);
/* Iteration: i from 0 while trn_idmap_next returns non-zero. Do not modify
 * the map while iterating. */
int trn_idmap_next(const trn_idmap *m, size_t *i, uint64_t *id, void **val);

#endif
