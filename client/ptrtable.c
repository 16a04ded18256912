/*
 * ptrtable.c — a sorted array of disjoint ranges with binary search. Lookups
 * (every kernel call resolves its pointers) take the read lock only.
 */
#include "client/ptrtable.h"

#include <stdlib.h>
#include <string.h>

void trn_ptrtable_init(trn_ptrtable *t) {
    pthread_rwlock_init(&t->lock, NULL);
    t->v = NULL;
    t->len = t->cap = 0;
}

void trn_ptrtable_destroy(trn_ptrtable *t) {
    free(t->v);
    t->v = NULL;
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

int trn_ptrtable_insert(trn_ptrtable *t, uintptr_t base, uint64_t size, uint64_t buffer_id) {
    if (size == 0 || base + size < base)
        return -1;
    pthread_rwlock_wrlock(&t->lock);
    const size_t i = upper_bound(t, base);
    const int overlaps_prev = i > 0 && t->v[i - 1].base + t->v[i - 1].size > base;
    const int overlaps_next = i < t->len && base + size > t->v[i].base;
    int rc = -1;
    if (!overlaps_prev && !overlaps_next) {
        if (t->len == t->cap) {
            const size_t cap = t->cap ? t->cap * 2 : 64;
            trn_ptr_entry *v = realloc(t->v, cap * sizeof(*v));
            if (!v)
                goto out;
            t->v = v;
            t->cap = cap;
        }
        memmove(&t->v[i + 1], &t->v[i], (t->len - i) * sizeof(*t->v));
        t->v[i] = (trn_ptr_entry){base, size, buffer_id};
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

trn_ptr_entry *trn_ptrtable_take_all(trn_ptrtable *t, size_t *len) {
    pthread_rwlock_wrlock(&t->lock);
    trn_ptr_entry *v = t->v;
    *len = t->len;
    t->v = NULL;
    t->len = t->cap = 0;
    pthread_rwlock_unlock(&t->lock);
    return v;
}
