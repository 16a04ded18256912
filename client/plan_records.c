/*
 * plan_records.c — the table of the plans this process made
 * (client/plan_records.h): an unsorted array searched linearly, because a
 * process holds few plans and looks one up once per op that names it.
 */
#include "client/plan_records.h"

#include <stdlib.h>

void trn_plan_records_init(trn_plan_records *r) {
    pthread_mutex_init(&r->lock, NULL);
    r->v = NULL;
    r->len = r->cap = 0;
}

void trn_plan_records_destroy(trn_plan_records *r) {
    free(r->v);
    r->v = NULL;
    r->len = r->cap = 0;
    pthread_mutex_destroy(&r->lock);
}

/* The record of id (lock held), or NULL. */
static trn_plan_record *find_locked(trn_plan_records *r, uint32_t id) {
    for (size_t i = 0; i < r->len; i++)
        if (r->v[i].id == id)
            return &r->v[i];
    return NULL;
}

void trn_plan_records_put(trn_plan_records *r, const trn_plan_record *rec) {
    pthread_mutex_lock(&r->lock);
    trn_plan_record *old = find_locked(r, rec->id);
    if (old) {
        *old = *rec;
    } else {
        if (r->len == r->cap) {
            const size_t cap = r->cap ? 2 * r->cap : 8;
            trn_plan_record *v = realloc(r->v, cap * sizeof(*v));
            if (v) {
                r->v = v;
                r->cap = cap;
            }
        }
        if (r->len < r->cap)
            r->v[r->len++] = *rec;
    }
    pthread_mutex_unlock(&r->lock);
}

void trn_plan_records_remove(trn_plan_records *r, uint32_t id) {
    pthread_mutex_lock(&r->lock);
    trn_plan_record *p = find_locked(r, id);
    if (p)
        *p = r->v[--r->len];
    pthread_mutex_unlock(&r->lock);
}

int trn_plan_records_get(trn_plan_records *r, uint32_t id, trn_plan_record *out) {
    pthread_mutex_lock(&r->lock);
    const trn_plan_record *p = find_locked(r, id);
    if (p)
        *out = *p;
    pthread_mutex_unlock(&r->lock);
    return p ? 0 : -1;
}
