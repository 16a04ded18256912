/*
 * ptrtable.h — device pointer → (buffer id, offset).
 *
 * Every allocation occupies [base, base + size) of the client's address
 * space: on the remote transport a reserved, inaccessible range (so a device
 * pointer never aliases host memory, and dereferencing one faults like a CUDA
 * device pointer does); on the local transport, the shared mapping itself.
 * Ranges never overlap, so any pointer inside one resolves to exactly one
 * allocation; buffer ids are unique too, so an id resolves to at most one.
 * Thread-safe (a reader-writer lock).
 */
#ifndef TRN_CLIENT_PTRTABLE_H
#define TRN_CLIENT_PTRTABLE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

typedef struct trn_ptr_entry {
    uintptr_t base;
    uint64_t size;
    uint64_t buffer_id;
} trn_ptr_entry;

typedef struct trn_ptrtable {
    pthread_rwlock_t lock;
    trn_ptr_entry *v;   /* sorted by base */
    trn_ptr_entry *ids; /* the same entries, sorted by buffer id */
    size_t len, cap;
} trn_ptrtable;

void trn_ptrtable_init(trn_ptrtable *t);
void trn_ptrtable_destroy(trn_ptrtable *t);
/* Adds [base, base+size). Returns 0, or -1 (overlap, size 0, out of memory). */
int trn_ptrtable_insert(trn_ptrtable *t, uintptr_t base, uint64_t size, uint64_t buffer_id);
/* Removes the allocation starting exactly at base; returns 0 and its entry,
 * or -1 if base is not the start of an allocation. */
int trn_ptrtable_remove(trn_ptrtable *t, uintptr_t base, trn_ptr_entry *out);
/* Resolves p: returns 0 with the allocation's entry and p's byte offset in
 * it, or -1 if p lies in no allocation. */
int trn_ptrtable_lookup(trn_ptrtable *t, const void *p, trn_ptr_entry *entry, uint64_t *offset);
/* The allocation of buffer id: returns 0 with its entry, or -1 if none. */
int trn_ptrtable_find_id(trn_ptrtable *t, uint64_t buffer_id, trn_ptr_entry *entry);
/* The sum of the sizes of the allocations in the table. */
uint64_t trn_ptrtable_bytes(trn_ptrtable *t);
/* Takes every entry out (for reset). Returns the array (caller frees) and its
 * length. */
trn_ptr_entry *trn_ptrtable_take_all(trn_ptrtable *t, size_t *len);

#endif
