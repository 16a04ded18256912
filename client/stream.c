/*
 * stream.c — streams, their timeouts, and synchronisation. Stream ids are
 * chosen by the client (the daemon creates a stream on first use), so
 * creating one costs no round trip.
 *
 * A stream's handle carries its client-side state (client.h): the timeout
 * its ops travel with, how far its work is known to be done, the downloads
 * a synchronize on it must wait for, and the event id trnsciStreamQuery
 * records. The default stream's state lives in the client. Synchronising a
 * stream waits for the daemon, then for the stream's downloads (fetch.c).
 */
#include <stdlib.h>

#include "client/client.h"
#include "client/graph.h"

uint32_t trn_stream_id(trnsciStream_t s) {
    return s ? s->id : 0;
}

uint64_t trn_stream_timeout_us(trn_client *c, trnsciStream_t s) {
    return (uint64_t)atomic_load(&trn_stream_of(c, s)->timeout_ms) * 1000u;
}

static trnsciError_t create_stream(trnsciStream_t *pStream, unsigned flags, const char *fn) {
    if (!pStream)
        return trn_fail(trnsciErrorInvalidValue, "%s: pStream is NULL", fn);
    if (flags & ~trnsciStreamNonBlocking)
        return trn_fail(trnsciErrorInvalidValue,
                        "%s: unknown flags 0x%x (trnsciStreamDefault or trnsciStreamNonBlocking)",
                        fn, flags);
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    trnsciStream_t s = calloc(1, sizeof(*s));
    if (!s)
        return trn_fail(trnsciErrorMemoryAllocation, "%s: out of memory", fn);
    s->id = atomic_fetch_add(&c->next_stream_id, 1);
    s->flags = flags;
    *pStream = s;
    return trn_ok();
}

trnsciError_t trnsciStreamCreate(trnsciStream_t *pStream) {
    return create_stream(pStream, trnsciStreamDefault, "trnsciStreamCreate");
}

/* Every stream already behaves as non-blocking (the default stream does not
 * synchronise with others), so the flag is only recorded. */
trnsciError_t trnsciStreamCreateWithFlags(trnsciStream_t *pStream, unsigned int flags) {
    return create_stream(pStream, flags, "trnsciStreamCreateWithFlags");
}

/* Stream priorities range over [0, 0] (trnsciDeviceGetStreamPriorityRange):
 * any priority is clamped to 0, as CUDA clamps out-of-range ones. */
trnsciError_t trnsciStreamCreateWithPriority(trnsciStream_t *pStream, unsigned int flags,
                                             int priority) {
    (void)priority;
    return create_stream(pStream, flags, "trnsciStreamCreateWithPriority");
}

trnsciError_t trnsciStreamGetFlags(trnsciStream_t stream, unsigned int *flags) {
    if (!flags)
        return trn_fail(trnsciErrorInvalidValue, "trnsciStreamGetFlags: flags is NULL");
    *flags = stream ? stream->flags : trnsciStreamDefault;
    return trn_ok();
}

trnsciError_t trnsciStreamGetPriority(trnsciStream_t stream, int *priority) {
    (void)stream;
    if (!priority)
        return trn_fail(trnsciErrorInvalidValue, "trnsciStreamGetPriority: priority is NULL");
    *priority = 0;
    return trn_ok();
}

trnsciError_t trnsciDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority) {
    if (leastPriority)
        *leastPriority = 0;
    if (greatestPriority)
        *greatestPriority = 0;
    return trn_ok();
}

trnsciError_t trnsciStreamDestroy(trnsciStream_t stream) {
    if (!stream)
        return trn_fail(trnsciErrorInvalidResourceHandle,
                        "trnsciStreamDestroy: the default stream cannot be destroyed");
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c) {
        free(stream);
        return e;
    }
    trn_capture_forget_stream(stream);
    e = trn_client_sync_stream(c, stream, 1);
    const uint32_t query_event = atomic_load(&stream->query_event);
    if (query_event) {
        /* Keep the synchronize's error (and message) if it had one. */
        const trnsciError_t forget = trn_event_forget(c, query_event);
        if (e == trnsciSuccess)
            e = forget;
    }
    free(stream);
    return e == trnsciSuccess ? trn_ok() : e;
}

trnsciError_t trnsciStreamSynchronize(trnsciStream_t stream) {
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    e = trn_client_sync_stream(c, stream, 0);
    return e == trnsciSuccess ? trn_ok() : e;
}

trnsciError_t trnsciDeviceSynchronize(void) {
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    e = trn_client_sync_all(c);
    return e == trnsciSuccess ? trn_ok() : e;
}

trnsciError_t trnsciStreamSetTimeout(trnsciStream_t stream, unsigned int ms) {
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    atomic_store(&trn_stream_of(c, stream)->timeout_ms, ms);
    return trn_ok();
}

trnsciError_t trnsciStreamGetTimeout(trnsciStream_t stream, unsigned int *ms) {
    if (!ms)
        return trn_fail(trnsciErrorInvalidValue, "trnsciStreamGetTimeout: ms is NULL");
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    *ms = atomic_load(&trn_stream_of(c, stream)->timeout_ms);
    return trn_ok();
}

trnsciError_t trnsciStreamGetId(trnsciStream_t stream, unsigned long long *streamId) {
    if (!streamId)
        return trn_fail(trnsciErrorInvalidValue, "trnsciStreamGetId: streamId is NULL");
    *streamId = trn_stream_id(stream);
    return trn_ok();
}

/* A stream with nothing queued since its last completed synchronize needs
 * no round trip; otherwise an event (one per stream, re-recorded each time,
 * without the stream's timeout: a query must not expire work) is recorded
 * and queried. */
trnsciError_t trnsciStreamQuery(trnsciStream_t stream) {
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    if ((e = trn_capture_refuse_stream(c, stream, "trnsciStreamQuery")))
        return e;
    struct trnsciStream_st *st = trn_stream_of(c, stream);
    const uint64_t fetch_mark = atomic_load(&st->fetch_mark);
    const uint64_t last = atomic_load(&st->last_op);
    if (last > atomic_load(&st->synced) && last > atomic_load(&c->synced)) {
        unsigned id = atomic_load(&st->query_event);
        if (!id) {
            unsigned fresh = trn_event_new_id();
            id = atomic_compare_exchange_strong(&st->query_event, &id, fresh) ? fresh : id;
        }
        Trnsci__V1__EventRecordOp rec = TRNSCI__V1__EVENT_RECORD_OP__INIT;
        rec.event_id = id;
        Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
        op.kind_case = TRNSCI__V1__OP__KIND_EVENT_RECORD;
        op.event_record = &rec;
        if ((e = trn_client_submit_timeout(c, stream, &op, 0)))
            return e;
        Trnsci__V1__EventRequest req = TRNSCI__V1__EVENT_REQUEST__INIT;
        req.session_id = c->session_id;
        req.event_id = id;
        req.action = TRNSCI__V1__EVENT_ACTION__EVENT_QUERY;
        Trnsci__V1__EventReply *r = NULL;
        if ((e = trn_client_call(c, TRN_WIRE_EVENT, &req.base, &trnsci__v1__event_reply__descriptor,
                                 (ProtobufCMessage **)&r, TRN_CALL_TIMEOUT_MS)))
            return e;
        const int complete = !r->recorded || r->complete;
        trnsci__v1__event_reply__free_unpacked(r, NULL);
        if (!complete)
            return trn_not_ready("trnsciStreamQuery: stream %u still has work queued or running",
                                 (unsigned)st->id);
    }
    if (!trn_fetch_done(fetch_mark))
        return trn_not_ready("trnsciStreamQuery: stream %u has device-to-host copies not yet "
                             "delivered",
                             (unsigned)st->id);
    return trn_ok();
}
