/*
 * validate.c — a session as the validators' host (ops/validate/): its
 * buffers and plan handles, looked up under its lock and held by reference
 * until the op completes.
 */
#include "daemon/validate.h"

#include <pthread.h>
#include <stdlib.h>

#include "daemon/exec_space.h"
#include "daemon/idmap.h"
#include "scheduler/plan_cache.h"

/* Any buffer of the session: the service's own Write, Read and stage-out. */
static void *session_buffer_get_any(void *ctx, uint64_t id, trn_vbuffer *out) {
    trn_buffer *b = trn_session_buffer_get(ctx, id);
    if (b) {
        out->data = b->data;
        out->size = b->size;
    }
    return b;
}

/* A buffer an op may use: not the session's staging buffer, which lives
 * outside the executors' space and is the transport's, not the program's
 * (to ops it does not exist). */
static void *session_buffer_get(void *ctx, uint64_t id, trn_vbuffer *out) {
    trn_buffer *b = session_buffer_get_any(ctx, id, out);
    if (b && b->staging) {
        trn_buffer_unref(b);
        return NULL;
    }
    return b;
}

static void session_buffer_put(void *held) {
    trn_buffer_unref(held);
}

int trn_validate_plan_get(trn_session *s, uint32_t id, trn_session_plan *h) {
    pthread_mutex_lock(&s->lock);
    const trn_session_plan *p = id ? trn_idmap_get(&s->plans, id) : NULL;
    if (p) {
        *h = *p;
        trn_plan_entry_retain(h->entry);
    }
    pthread_mutex_unlock(&s->lock);
    return p ? 0 : -1;
}

static void *session_plan_get(void *ctx, uint32_t id, trn_vplan *out) {
    trn_session_plan h;
    if (trn_validate_plan_get(ctx, id, &h) != 0)
        return NULL;
    out->spec = trn_plan_entry_spec(h.entry);
    out->plan = trn_plan_entry_plan(h.entry);
    out->fft.batch = h.batch;
    out->fft.idist = h.idist;
    out->fft.odist = h.odist;
    return h.entry;
}

static void session_plan_put(void *held) {
    trn_plan_entry_release(held);
}

/* A descriptor's arrays: in the op arena when kernels run in executors
 * (they must see them at the same address), else on the heap. */
static void *session_owned_alloc(void *ctx, size_t bytes, void **pool) {
    trn_session *s = ctx;
    trn_exec_space *sp = s->table->space;
    *pool = sp;
    return sp ? trn_exec_space_arena_alloc(sp, bytes) : calloc(1, bytes);
}

static void session_owned_free(void *pool, void *p) {
    if (pool)
        trn_exec_space_arena_free(pool, p);
    else
        free(p);
}

const trn_vhost trn_session_vhost = {
    .buffer_get = session_buffer_get,
    .buffer_put = session_buffer_put,
    .plan_get = session_plan_get,
    .plan_put = session_plan_put,
    .owned_alloc = session_owned_alloc,
    .owned_free = session_owned_free,
};

static const trn_vhost service_vhost = {
    .buffer_get = session_buffer_get_any,
    .buffer_put = session_buffer_put,
    .plan_get = session_plan_get,
    .plan_put = session_plan_put,
    .owned_alloc = session_owned_alloc,
    .owned_free = session_owned_free,
};

trn_wire_code trn_plan_error_code(trn_plan_error r) {
    switch (r) {
    case TRN_PLAN_OK: break;
    case TRN_PLAN_INVALID: return TRN_WIRE_INVALID_ARGUMENT;
    case TRN_PLAN_FAILED: return TRN_WIRE_INTERNAL;
    case TRN_PLAN_TOO_BIG:
    case TRN_PLAN_NOMEM: return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    return TRN_WIRE_OK;
}

/* An op the backend runs from a plan of its own (a NEFF compiled for its
 * shape): the plan cache's entry, held by refs like a plan handle's. A
 * plan whose compile failed before is still taken: the op fails when it
 * runs, with the plan's message, as an FFT's would. */
static trn_wire_code backend_plan(const trn_session_table *t, const trn_op_desc *op,
                                  trn_op_refs *refs, char *err, size_t errlen) {
    trn_plan_spec spec;
    if (!t->plans || !t->backend || !t->backend->op_plan ||
        !t->backend->op_plan(t->backend, op, &spec))
        return TRN_WIRE_OK;
    trn_plan_entry *e = NULL;
    int hit = 0;
    const trn_wire_code rc =
        trn_plan_error_code(trn_plan_cache_acquire(t->plans, &spec, -1, &e, &hit, err, errlen));
    if (rc != TRN_WIRE_OK)
        return rc;
    refs->plan = e;
    refs->plan_part = 0;
    return TRN_WIRE_OK;
}

trn_wire_code trn_validate_op(trn_session *s, const Trnsci__V1__Op *op, trn_op_desc *out,
                              trn_op_refs *refs, char *err, size_t errlen) {
    trn_op_refs_init(refs, &trn_session_vhost);
    trn_vctx vx = {&trn_session_vhost, s, refs, err, errlen};
    trn_wire_code rc = trn_validate_wire_op(&vx, op, out);
    if (rc == TRN_WIRE_OK && !refs->plan)
        rc = backend_plan(s->table, out, refs, err, errlen);
    /* Planning starts as soon as the op is accepted, before it is queued. */
    if (rc == TRN_WIRE_OK && refs->plan)
        trn_plan_entry_require(refs->plan, refs->plan_part);
    return rc;
}

static trn_wire_code region(trn_session *s, const Trnsci__V1__BufferRef *ref, uint64_t bytes,
                            uint64_t align, const char *what, trn_op_refs *refs, void **out,
                            char *err, size_t errlen, int many) {
    if (!refs->host)
        trn_op_refs_init(refs, &service_vhost);
    trn_vctx vx = {&service_vhost, s, refs, err, errlen};
    return many ? trn_vregion_many(&vx, ref, bytes, align, what, out)
                : trn_vregion(&vx, ref, bytes, align, what, out);
}

trn_wire_code trn_validate_region(trn_session *s, const Trnsci__V1__BufferRef *ref, uint64_t bytes,
                                  uint64_t align, const char *what, trn_op_refs *refs, void **out,
                                  char *err, size_t errlen) {
    return region(s, ref, bytes, align, what, refs, out, err, errlen, 0);
}

trn_wire_code trn_validate_region_many(trn_session *s, const Trnsci__V1__BufferRef *ref,
                                       uint64_t bytes, uint64_t align, const char *what,
                                       trn_op_refs *refs, void **out, char *err, size_t errlen) {
    return region(s, ref, bytes, align, what, refs, out, err, errlen, 1);
}

trn_wire_code trn_validate_fft_plan(const Trnsci__V1__FftPlanSpec *w, trn_plan_spec *spec,
                                    trn_session_plan *handle, char *err, size_t errlen) {
    trn_fft_batch b = {handle->batch, handle->idist, handle->odist};
    const trn_wire_code rc = trn_vfft_plan(w, spec, &b, err, errlen);
    handle->batch = b.batch;
    handle->idist = b.idist;
    handle->odist = b.odist;
    return rc;
}

trn_wire_code trn_validate_tensor_plan(const Trnsci__V1__TensorContractionSpec *w,
                                       trn_plan_spec *spec, char *err, size_t errlen) {
    return trn_vtensor_plan(w, spec, err, errlen);
}
