/*
 * ptrtable.c — a sorted array of disjoint ranges with binary search, and
 * the same entries sorted by buffer id (the validators name buffers by id).
 * Lookups (every kernel call resolves its pointers) take the read lock only.
 */
#include "client/ptrtable.h"

#include <stdlib.h>
#include <string.h>

void trn_ptrtable_init(trn_ptrtable *t) {
    pthread_rwlock_init(&t->lock, NULL);
    t->v = t->ids = NULL;
    t->len = t->cap = 0;
}

void trn_ptrtable_destroy(trn_ptrtable *t) {
    free(t->v);
    free(t->ids);
    t->v = t->ids = NULL;
    t->len = t->cap = 0;
    pthread_rwlock_destroy(&t->lock);
}

/* Index of the first entry with base > p. */
static size_t upper_bound(const trn_ptrtable *t, uintptr_t p) {
    size_t lo = 0, hi = t->len;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (t->v[mid].base <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Index of the first entry of ids with buffer_id >= id. */
static size_t id_lower_bound(const trn_ptrtable *t, uint64_t id) {
    size_t lo = 0, hi = t->len;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (t->ids[mid].buffer_id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void ids_remove(trn_ptrtable *t, uint64_t id) {
    const size_t k = id_lower_bound(t, id);
    if (k < t->len && t->ids[k].buffer_id == id)
        memmove(&t->ids[k], &t->ids[k + 1], (t->len - k - 1) * sizeof(*t->ids));
}

int trn_ptrtable_insert(trn_ptrtable *t, uintptr_t base, uint64_t size, uint64_t buffer_id) {
    if (size == 0 || base + size < base)
        return -1;
    pthread_rwlock_wrlock(&t->lock);
    const size_t i = upper_bound(t, base);
    const int overlaps_prev = i > 0 && t->v[i - 1].base + t->v[i - 1].size > base;
    const int overlaps_next = i < t->len && base + size > t->v[i].base;
    const size_t k = id_lower_bound(t, buffer_id);
    const int id_taken = k < t->len && t->ids[k].buffer_id == buffer_id;
    int rc = -1;
    if (!overlaps_prev && !overlaps_next && !id_taken) {
        if (t->len == t->cap) {
            const size_t cap = t->cap ? t->cap * 2 : 64;
            trn_ptr_entry *v = realloc(t->v, cap * sizeof(*v));
            if (!v)
                goto out;
            t->v = v;
            trn_ptr_entry *ids = realloc(t->ids, cap * sizeof(*ids));
            if (!ids)
                goto out; /* v is larger than needed, which is harmless */
            t->ids = ids;
            t->cap = cap;
        }
        const trn_ptr_entry e = {base, size, buffer_id};
        memmove(&t->v[i + 1], &t->v[i], (t->len - i) * sizeof(*t->v));
        t->v[i] = e;
        memmove(&t->ids[k + 1], &t->ids[k], (t->len - k) * sizeof(*t->ids));
        t->ids[k] = e;
        t->len++;
        rc = 0;
    }
out:
    pthread_rwlock_unlock(&t->lock);
    return rc;
}

int trn_ptrtable_remove(trn_ptrtable *t, uintptr_t base, trn_ptr_entry *out) {
    pthread_rwlock_wrlock(&t->lock);
    const size_t i = upper_bound(t, base);
    int rc = -1;
    if (i > 0 && t->v[i - 1].base == base) {
        *out = t->v[i - 1];
        ids_remove(t, out->buffer_id);
        memmove(&t->v[i - 1], &t->v[i], (t->len - i) * sizeof(*t->v));
        t->len--;
        rc = 0;
    }
    pthread_rwlock_unlock(&t->lock);
    return rc;
}

int trn_ptrtable_lookup(trn_ptrtable *t, const void *p, trn_ptr_entry *entry, uint64_t *offset) {
    const uintptr_t x = (uintptr_t)p;
    pthread_rwlock_rdlock(&t->lock);
    const size_t i = upper_bound(t, x);
    int rc = -1;
    if (i > 0 && x - t->v[i - 1].base < t->v[i - 1].size) {
        *entry = t->v[i - 1];
        *offset = x - t->v[i - 1].base;
        rc = 0;
    }
    pthread_rwlock_unlock(&t->lock);
    return rc;
}

int trn_ptrtable_find_id(trn_ptrtable *t, uint64_t buffer_id, trn_ptr_entry *entry) {
    pthread_rwlock_rdlock(&t->lock);
    const size_t k = id_lower_bound(t, buffer_id);
    const int rc = k < t->len && t->ids[k].buffer_id == buffer_id ? 0 : -1;
    if (rc == 0)
        *entry = t->ids[k];
    pthread_rwlock_unlock(&t->lock);
    return rc;
}

trn_ptr_entry *trn_ptrtable_take_all(trn_ptrtable *t, size_t *len) {
    pthread_rwlock_wrlock(&t->lock);
    trn_ptr_entry *v = t->v;
    *len = t->len;
    free(t->ids);
    t->ids = NULL;
    t->v = NULL;
    t->len = t->cap = 0;
    pthread_rwlock_unlock(&t->lock);
    return v;
}

uint64_t trn_ptrtable_bytes(trn_ptrtable *t) {
    uint64_t sum = 0;
    pthread_rwlock_rdlock(&t->lock);
    for (size_t i = 0; i < t->len; i++)
        sum += t->v[i].size;
    pthread_rwlock_unlock(&t->lock);
    return sum;
}
