/*
 * idmap.c — see idmap.h. Ids are mixed with a 64-bit finaliser so that
 * sequential ids spread over the table.
 */
#include "daemon/idmap.h"

#include <stdlib.h>

static size_t slot_of(uint64_t id, size_t cap) {
    uint64_t x = id;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x & (cap - 1);
}

void trn_idmap_init(trn_idmap *m) {
    m->keys = NULL;
    m->vals = NULL;
    m->cap = 0;
    m->len = 0;
}

void trn_idmap_free(trn_idmap *m) {
    free(m->keys);
    free(m->vals);
    trn_idmap_init(m);
}

static size_t find(const trn_idmap *m, uint64_t id) {
    size_t i = slot_of(id, m->cap);
    while (m->keys[i] != 0 && m->keys[i] != id)
        i = (i + 1) & (m->cap - 1);
    return i;
}

void *trn_idmap_get(const trn_idmap *m, uint64_t id) {
    if (id == 0 || m->cap == 0)
        return NULL;
    const size_t i = find(m, id);
    return m->keys[i] == id ? m->vals[i] : NULL;
}

static int grow(trn_idmap *m) {
    const size_t cap = m->cap ? m->cap * 2 : 16;
    trn_idmap bigger = {calloc(cap, sizeof(uint64_t)), calloc(cap, sizeof(void *)), cap, 0};
    if (!bigger.keys || !bigger.vals) {
        free(bigger.keys);
        free(bigger.vals);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (m->keys[i] != 0) {
            const size_t j = find(&bigger, m->keys[i]);
            bigger.keys[j] = m->keys[i];
            bigger.vals[j] = m->vals[i];
            bigger.len++;
        }
    }
    free(m->keys);
    free(m->vals);
    *m = bigger;
    return 0;
}

int trn_idmap_put(trn_idmap *m, uint64_t id, void *val) {
    if (id == 0)
        return -1;
    if ((m->len + 1) * 2 > m->cap && grow(m) != 0)
        return -1;
    const size_t i = find(m, id);
    if (m->keys[i] == 0)
        m->len++;
    m->keys[i] = id;
    m->vals[i] = val;
    return 0;
}

void *trn_idmap_remove(trn_idmap *m, uint64_t id) {
    if (id == 0 || m->cap == 0)
        return NULL;
    size_t i = find(m, id);
    if (m->keys[i] != id)
        return NULL;
    void *val = m->vals[i];
    m->keys[i] = 0;
    m->vals[i] = NULL;
    m->len--;
    /* Backward-shift: move later members of the probe run into the hole. */
    size_t j = i;
    for (;;) {
        j = (j + 1) & (m->cap - 1);
        if (m->keys[j] == 0)
            break;
        const size_t home = slot_of(m->keys[j], m->cap);
        /* Move j to i if its home is not in the cyclic range (i, j]. */
        const int in_range = (i <= j) ? (home > i && home <= j) : (home > i || home <= j);
        if (!in_range) {
            m->keys[i] = m->keys[j];
            m->vals[i] = m->vals[j];
            m->keys[j] = 0;
            m->vals[j] = NULL;
            i = j;
        }
    }
    return val;
}

int trn_idmap_next(const trn_idmap *m, size_t *i, uint64_t *id, void **val) {
    while (*i < m->cap) {
        const size_t k = (*i)++;
        if (m->keys[k] != 0) {
            *id = m->keys[k];
            *val = m->vals[k];
            return 1;
        }
    }
    return 0;
}
