/*
 * plan_records.c — the table of the plans this process made
 * (client/plan_records.h): an unsorted array of references searched
 * linearly, because a process holds few plans and looks one up once per op
 * that names it.
 */
#include "client/plan_records.h"

#include <stdlib.h>

void trn_plan_records_init(trn_plan_records *r) {
    pthread_mutex_init(&r->lock, NULL);
    r->v = NULL;
    r->len = r->cap = 0;
}

void trn_plan_records_destroy(trn_plan_records *r) {
    for (size_t i = 0; i < r->len; i++)
        trn_plan_record_unref(r->v[i]);
    free(r->v);
    r->v = NULL;
    r->len = r->cap = 0;
    pthread_mutex_destroy(&r->lock);
}

trn_plan_record *trn_plan_record_new(uint32_t id) {
    trn_plan_record *rec = calloc(1, sizeof(*rec));
    if (rec) {
        rec->id = id;
        atomic_init(&rec->refs, 1);
    }
    return rec;
}

void trn_plan_record_unref(trn_plan_record *rec) {
    if (rec && atomic_fetch_sub(&rec->refs, 1) == 1)
        free(rec);
}

/* The slot of id (lock held), or NULL. */
static trn_plan_record **find_locked(trn_plan_records *r, uint32_t id) {
    for (size_t i = 0; i < r->len; i++)
        if (r->v[i]->id == id)
            return &r->v[i];
    return NULL;
}

void trn_plan_records_add(trn_plan_records *r, trn_plan_record *rec) {
    trn_plan_record *old = NULL;
    pthread_mutex_lock(&r->lock);
    trn_plan_record **slot = find_locked(r, rec->id);
    if (slot) {
        old = *slot;
        *slot = rec;
    } else {
        if (r->len == r->cap) {
            const size_t cap = r->cap ? 2 * r->cap : 8;
            trn_plan_record **v = realloc(r->v, cap * sizeof(*v));
            if (v) {
                r->v = v;
                r->cap = cap;
            }
        }
        if (r->len < r->cap)
            r->v[r->len++] = rec;
        else
            old = rec; /* no memory: not recorded */
    }
    pthread_mutex_unlock(&r->lock);
    trn_plan_record_unref(old);
}

void trn_plan_records_remove(trn_plan_records *r, uint32_t id) {
    trn_plan_record *old = NULL;
    pthread_mutex_lock(&r->lock);
    trn_plan_record **slot = find_locked(r, id);
    if (slot) {
        old = *slot;
        *slot = r->v[--r->len];
    }
    pthread_mutex_unlock(&r->lock);
    trn_plan_record_unref(old);
}

trn_plan_record *trn_plan_records_get(trn_plan_records *r, uint32_t id) {
    pthread_mutex_lock(&r->lock);
    trn_plan_record **slot = find_locked(r, id);
    trn_plan_record *rec = slot ? *slot : NULL;
    if (rec)
        atomic_fetch_add(&rec->refs, 1);
    pthread_mutex_unlock(&r->lock);
    return rec;
}
