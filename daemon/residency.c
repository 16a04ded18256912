/*
 * residency.c — where big GEMMs' inputs were last moved (residency.h).
 *
 * Each core has a small table of records, newest replacing oldest. A
 * record is one GEMM's A and B spans, its plan part, and the clock's tick
 * before they were moved. A program part keeps at most TRN_RESIDENCY_SETS
 * records on a core, as its loaded program has that many tensor sets.
 */
#include "daemon/residency.h"

#include <pthread.h>
#include <stdlib.h>

#include "ops/op.h"
#include "ops/span.h"

#define RECORDS_PER_CORE 8

typedef struct record {
    const void *plan; /* NULL: unused */
    unsigned part;
    trn_span a, b;
    uint64_t tick;
    unsigned epoch; /* the core's when it was noted */
    uint64_t age;   /* larger: newer */
} record;

struct trn_residency {
    pthread_mutex_t lock;
    const trn_write_clock *clock;
    unsigned (*epoch)(void *ctx, int core);
    void *epoch_ctx;
    int ncores;
    uint64_t age;
    record *records; /* ncores * RECORDS_PER_CORE */
};

trn_residency *trn_residency_create(int ncores, const trn_write_clock *clock,
                                    unsigned (*epoch)(void *ctx, int core), void *ctx) {
    trn_residency *r = calloc(1, sizeof(*r));
    if (!r)
        return NULL;
    r->records = calloc((size_t)ncores * RECORDS_PER_CORE, sizeof(record));
    if (!r->records) {
        free(r);
        return NULL;
    }
    pthread_mutex_init(&r->lock, NULL);
    r->clock = clock;
    r->epoch = epoch;
    r->epoch_ctx = ctx;
    r->ncores = ncores;
    return r;
}

void trn_residency_destroy(trn_residency *r) {
    if (!r)
        return;
    pthread_mutex_destroy(&r->lock);
    free(r->records);
    free(r);
}

static uint64_t span_bytes(const trn_span *s) {
    return s->hi > s->lo ? (uint64_t)(s->hi - s->lo) : 0;
}

/* op's A and B (out[0], out[1]) when op is a GEMM big enough to record. */
static int big_gemm_inputs(const struct trn_op_desc *op, trn_span out[3]) {
    if (op->kind != TRN_OP_GEMM || trn_op_read_spans(op, out, 3) != 3)
        return 0;
    return span_bytes(&out[0]) + span_bytes(&out[1]) >= TRN_RESIDENCY_MIN_BYTES;
}

/* Lock held: the record to overwrite on core for (plan, part): the oldest
 * of that part's when it already has TRN_RESIDENCY_SETS, else an unused
 * one, else the core's oldest. */
static record *slot_for(trn_residency *r, int core, const void *plan, unsigned part) {
    record *rec = &r->records[(size_t)core * RECORDS_PER_CORE];
    record *oldest_same = NULL, *unused = NULL, *oldest = NULL;
    int same = 0;
    for (int i = 0; i < RECORDS_PER_CORE; i++) {
        if (!rec[i].plan) {
            unused = unused ? unused : &rec[i];
            continue;
        }
        if (rec[i].plan == plan && rec[i].part == part) {
            same++;
            if (!oldest_same || rec[i].age < oldest_same->age)
                oldest_same = &rec[i];
        }
        if (!oldest || rec[i].age < oldest->age)
            oldest = &rec[i];
    }
    if (same >= TRN_RESIDENCY_SETS)
        return oldest_same;
    return unused ? unused : oldest;
}

static int same_span(const trn_span *x, const trn_span *y) {
    return x->lo == y->lo && x->hi == y->hi;
}

int trn_residency_big_gemm(const struct trn_op_desc *op) {
    trn_span s[3];
    return big_gemm_inputs(op, s);
}

unsigned trn_residency_epoch(const trn_residency *r, int core) {
    return r && r->epoch ? r->epoch(r->epoch_ctx, core) : 0;
}

void trn_residency_note(trn_residency *r, int core, const struct trn_op_desc *op, const void *plan,
                        unsigned part, uint64_t tick, unsigned epoch) {
    trn_span s[3];
    if (!r || core < 0 || core >= r->ncores || !plan || !big_gemm_inputs(op, s))
        return;
    pthread_mutex_lock(&r->lock);
    record *rec = &r->records[(size_t)core * RECORDS_PER_CORE];
    record *slot = NULL;
    for (int i = 0; i < RECORDS_PER_CORE && !slot; i++) /* the same operands again */
        if (rec[i].plan == plan && rec[i].part == part && same_span(&rec[i].a, &s[0]) &&
            same_span(&rec[i].b, &s[1]))
            slot = &rec[i];
    if (!slot)
        slot = slot_for(r, core, plan, part);
    *slot = (record){.plan = plan,
                     .part = part,
                     .a = s[0],
                     .b = s[1],
                     .tick = tick,
                     .epoch = epoch,
                     .age = ++r->age};
    pthread_mutex_unlock(&r->lock);
}

/* Lock held: the bytes of A and B (s[0], s[1]) core holds current. */
static uint64_t held_bytes(const trn_residency *r, int core, const void *plan, unsigned part,
                           const trn_span s[2]) {
    const record *rec = &r->records[(size_t)core * RECORDS_PER_CORE];
    const unsigned epoch = trn_residency_epoch(r, core); /* a restarted core holds nothing */
    uint64_t best = 0;
    for (int i = 0; i < RECORDS_PER_CORE; i++) {
        if (rec[i].plan != plan || rec[i].part != part || rec[i].epoch != epoch)
            continue;
        uint64_t bytes = 0;
        for (int k = 0; k < 2; k++) {
            const trn_span *held = k == 0 ? &rec[i].a : &rec[i].b;
            if (same_span(held, &s[k]) && trn_write_clock_unchanged(r->clock, (const void *)s[k].lo,
                                                                    span_bytes(&s[k]), rec[i].tick))
                bytes += span_bytes(&s[k]);
        }
        if (bytes > best)
            best = bytes;
    }
    return best;
}

int trn_residency_locate(trn_residency *r, const struct trn_op_desc *op, const void *plan,
                         unsigned part, int here, uint64_t *extra) {
    *extra = 0;
    trn_span s[3];
    if (!r || !plan || here < 0 || here >= r->ncores || !big_gemm_inputs(op, s))
        return here;
    pthread_mutex_lock(&r->lock);
    const uint64_t mine = held_bytes(r, here, plan, part, s);
    int best = here;
    uint64_t most = mine;
    for (int c = 0; c < r->ncores; c++) {
        const uint64_t bytes = c == here ? 0 : held_bytes(r, c, plan, part, s);
        if (bytes > most) {
            most = bytes;
            best = c;
        }
    }
    pthread_mutex_unlock(&r->lock);
    *extra = most - mine;
    return best;
}
