/*
 * plan_records.h — the plans this process made in its session, as the
 * daemon holds them: each successful PlanCreate is recorded with the spec
 * the daemon derives from its request (the same pure functions of ops/),
 * each PlanDestroy forgets it. client/validate.c reads them to check ops
 * that name a plan.
 *
 * Thread-safe: every function takes the table's lock.
 */
#ifndef TRN_CLIENT_PLAN_RECORDS_H
#define TRN_CLIENT_PLAN_RECORDS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "ops/plan.h"
#include "ops/tensor_plan.h"
#include "ops/validate/validate.h"

/* A plan as the daemon holds it. Immutable once recorded; reference
 * counted, so a validation reads it without copying while a PlanDestroy on
 * another thread forgets it. */
typedef struct trn_plan_record {
    uint32_t id;
    atomic_int refs;
    trn_plan_spec spec;
    trn_fft_batch fft;      /* an FFT plan's batch layout */
    trn_tensor_plan tensor; /* a contraction's mapping (what the daemon's plan holds) */
} trn_plan_record;

typedef struct trn_plan_records {
    pthread_mutex_t lock;
    trn_plan_record **v; /* the table's references */
    size_t len, cap;
} trn_plan_records;

void trn_plan_records_init(trn_plan_records *r);
void trn_plan_records_destroy(trn_plan_records *r);

/* A new, zeroed record of id with one reference (the caller's), or NULL
 * without memory. */
trn_plan_record *trn_plan_record_new(uint32_t id);
/* Drops a reference; the last frees the record. */
void trn_plan_record_unref(trn_plan_record *rec);

/* Records rec under rec->id, taking the caller's reference and replacing a
 * record of the same id. Best effort: without memory rec is dropped (an op
 * naming the plan is then left to the daemon to judge). */
void trn_plan_records_add(trn_plan_records *r, trn_plan_record *rec);
/* Forgets the record of id, if any. */
void trn_plan_records_remove(trn_plan_records *r, uint32_t id);
/* The record of id with a reference for the caller, or NULL. */
trn_plan_record *trn_plan_records_get(trn_plan_records *r, uint32_t id);

#endif
