/*
 * validate.c — this process as the validators' host (client/validate.h):
 * buffers are its allocations, at the addresses they occupy here (the
 * shared mapping, or the reserved range of a remote buffer), so every
 * extent, alignment and overlap rule sees what the daemon sees; plans are
 * the records of the plans it made (client/plan_records.h), each held by
 * reference while it is read. Buffers are not held: a buffer freed while
 * its op is on the way is the daemon's to refuse.
 */
#include "client/validate.h"

#include "client/client.h"
#include "ops/validate/validate.h"

/* Derives what the daemon derives from a PlanCreate request into a fresh
 * (zeroed) record: 0, or -1. */
static int record_of(const Trnsci__V1__PlanCreateRequest *req, trn_plan_record *rec) {
    char err[256];
    if (req->spec_case == TRNSCI__V1__PLAN_CREATE_REQUEST__SPEC_FFT)
        return trn_vfft_plan(req->fft, &rec->spec, &rec->fft, err, sizeof(err)) == TRN_WIRE_OK ? 0
                                                                                               : -1;
    if (req->spec_case == TRNSCI__V1__PLAN_CREATE_REQUEST__SPEC_TENSOR) {
        if (trn_vtensor_plan(req->tensor, &rec->spec, err, sizeof(err)) != TRN_WIRE_OK)
            return -1;
        return trn_tensor_plan_make(&rec->spec.u.tensor, &rec->tensor, err, sizeof(err));
    }
    return -1;
}

void trn_client_plan_made(trn_client *c, uint32_t id, const Trnsci__V1__PlanCreateRequest *req) {
    trn_plan_record *rec = trn_plan_record_new(id);
    if (!rec)
        return;
    if (record_of(req, rec) != 0) {
        trn_plan_record_unref(rec);
        return;
    }
    trn_plan_records_add(&c->plans, rec);
}

void trn_client_plan_gone(trn_client *c, uint32_t id) {
    trn_plan_records_remove(&c->plans, id);
}

/* One validation's host context. */
typedef struct client_host {
    trn_client *c;
    int unknown_plan; /* the op names a plan with no record */
} client_host;

static void *buffer_get(void *ctx, uint64_t id, trn_vbuffer *out) {
    client_host *h = ctx;
    trn_ptr_entry e;
    if (trn_ptrtable_find_id(&h->c->ptrs, id, &e) != 0)
        return NULL;
    out->data = (void *)e.base;
    out->size = e.size;
    return h; /* nothing to hold */
}

static void nothing_to_put(void *held) {
    (void)held;
}

/* A record is held by reference while the validator reads it (a
 * PlanDestroy on another thread may forget it meanwhile). */
static void *plan_get(void *ctx, uint32_t id, trn_vplan *out) {
    client_host *h = ctx;
    trn_plan_record *rec = trn_plan_records_get(&h->c->plans, id);
    if (!rec) {
        h->unknown_plan = 1;
        return NULL;
    }
    out->spec = &rec->spec;
    out->plan = rec->spec.family == TRN_PLAN_TENSOR ? &rec->tensor : NULL;
    out->fft = rec->fft;
    return rec;
}

static void plan_put(void *held) {
    trn_plan_record_unref(held);
}

static const trn_vhost client_vhost = {
    .buffer_get = buffer_get,
    .buffer_put = nothing_to_put,
    .plan_get = plan_get,
    .plan_put = plan_put,
};

trn_wire_code trn_client_validate(trn_client *c, const Trnsci__V1__Op *op, char *msg,
                                  size_t msglen) {
    /* Events and stage-outs are the service's, not kernel ops: the daemon's. */
    if (!op || trn_op_index_of((int)op->kind_case) < 0)
        return TRN_WIRE_OK;
    client_host h = {.c = c};
    trn_op_refs refs;
    trn_op_refs_init(&refs, &client_vhost);
    trn_vctx vx = {&client_vhost, &h, &refs, msg, msglen};
    trn_op_desc desc;
    const trn_wire_code rc = trn_validate_wire_op(&vx, op, &desc);
    if (rc == TRN_WIRE_OK)
        trn_op_refs_release(&refs);
    /* What this process cannot judge, the daemon will. */
    return rc != TRN_WIRE_OK && h.unknown_plan ? TRN_WIRE_OK : rc;
}
