/*
 * event.c — events (cudaEvent_t): record, query, synchronize, elapsed time,
 * and streams waiting on them.
 *
 * An event is a client-side handle with an id the client picks (a process-
 * wide counter, never 0); the daemon learns the id from the first
 * EventRecordOp and forgets it on EVENT_DESTROY. Creating one costs no round
 * trip. Recording queues EventRecordOp on the stream; waiting queues
 * EventWaitOp; query, synchronize and elapsed time use the Event RPC, whose
 * reply carries the completion time on the daemon's clock.
 *
 * Invariants:
 *  - An event belongs to the session that was open when it was created
 *    (its generation); after trnsciDeviceReset it is an invalid handle,
 *    except to trnsciEventDestroy, which only frees it.
 *  - CUDA's rules for an event never recorded: query and synchronize
 *    succeed at once, a wait on it imposes nothing, elapsed time refuses it.
 *  - Each record remembers the stream's download mark (fetch.c) at that
 *    moment, so synchronizing or querying the event also covers the host
 *    side of device-to-host copies queued before it.
 */
#include <stdlib.h>

#include "client/client.h"
#include "client/graph.h"

static atomic_uint next_event_id = 1;

uint32_t trn_event_new_id(void) {
    unsigned id;
    do
        id = atomic_fetch_add(&next_event_id, 1);
    while (id == 0);
    return id;
}

trnsciError_t trn_event_forget(trn_client *c, uint32_t id) {
    Trnsci__V1__EventRequest req = TRNSCI__V1__EVENT_REQUEST__INIT;
    req.session_id = c->session_id;
    req.event_id = id;
    req.action = TRNSCI__V1__EVENT_ACTION__EVENT_DESTROY;
    return trn_client_call(c, TRN_WIRE_EVENT, &req.base, NULL, NULL, TRN_CALL_TIMEOUT_MS);
}

/* The client for a call on event ev, or NULL with the error recorded: a NULL
 * event, or one from a session that has ended. */
static trn_client *client_for(trnsciEvent_t ev, const char *fn, const char *what,
                              trnsciError_t *err) {
    if (!ev) {
        *err = trn_fail(trnsciErrorInvalidResourceHandle, "%s: %s is NULL", fn, what);
        return NULL;
    }
    trn_client *c = trn_client_get(err);
    if (!c)
        return NULL;
    if (ev->generation != c->generation) {
        *err = trn_fail(trnsciErrorInvalidResourceHandle,
                        "%s: %s (event %u) was created before trnsciDeviceReset and belongs to "
                        "a session that has ended",
                        fn, what, (unsigned)ev->id);
        return NULL;
    }
    return c;
}

/* Asks the daemon about event ev (QUERY or SYNCHRONIZE). */
static trnsciError_t ask(trn_client *c, trnsciEvent_t ev, Trnsci__V1__EventAction action,
                         int *recorded, int *complete, uint64_t *t_ns) {
    Trnsci__V1__EventRequest req = TRNSCI__V1__EVENT_REQUEST__INIT;
    req.session_id = c->session_id;
    req.event_id = ev->id;
    req.action = action;
    Trnsci__V1__EventReply *r = NULL;
    const trnsciError_t e = trn_client_call(
        c, TRN_WIRE_EVENT, &req.base, &trnsci__v1__event_reply__descriptor, (ProtobufCMessage **)&r,
        action == TRNSCI__V1__EVENT_ACTION__EVENT_SYNCHRONIZE ? TRN_NO_TIMEOUT
                                                              : TRN_CALL_TIMEOUT_MS);
    if (e != trnsciSuccess)
        return e;
    *recorded = r->recorded;
    *complete = r->complete;
    *t_ns = r->timestamp_ns;
    trnsci__v1__event_reply__free_unpacked(r, NULL);
    return trnsciSuccess;
}

trnsciError_t trnsciEventCreateWithFlags(trnsciEvent_t *event, unsigned int flags) {
    if (!event)
        return trn_fail(trnsciErrorInvalidValue, "trnsciEventCreate: event is NULL");
    const unsigned known = trnsciEventBlockingSync | trnsciEventDisableTiming;
    if (flags & ~known)
        return trn_fail(trnsciErrorInvalidValue,
                        "trnsciEventCreateWithFlags: flags 0x%x has unknown bits 0x%x (known: "
                        "trnsciEventBlockingSync 0x1, trnsciEventDisableTiming 0x2)",
                        flags, flags & ~known);
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    trnsciEvent_t ev = calloc(1, sizeof(*ev));
    if (!ev)
        return trn_fail(trnsciErrorMemoryAllocation, "trnsciEventCreate: out of memory");
    ev->id = trn_event_new_id();
    ev->flags = flags;
    ev->generation = c->generation;
    atomic_init(&ev->recorded, 0);
    atomic_init(&ev->fetch_mark, 0);
    *event = ev;
    return trn_ok();
}

trnsciError_t trnsciEventCreate(trnsciEvent_t *event) {
    return trnsciEventCreateWithFlags(event, trnsciEventDefault);
}

trnsciError_t trnsciEventDestroy(trnsciEvent_t event) {
    if (!event)
        return trn_fail(trnsciErrorInvalidResourceHandle, "trnsciEventDestroy: event is NULL");
    trnsciError_t e = trnsciSuccess;
    trn_client *c = trn_client_peek(); /* destroying never initialises */
    /* The daemon knows the event only once recorded, and only in its own
     * session. */
    if (c && event->generation == c->generation && atomic_load(&event->recorded))
        e = trn_event_forget(c, event->id);
    trn_capture_forget_event(event);
    free(event);
    return e == trnsciSuccess ? trn_ok() : e;
}

trnsciError_t trnsciEventRecord(trnsciEvent_t event, trnsciStream_t stream) {
    trnsciError_t e;
    trn_client *c = client_for(event, "trnsciEventRecord", "event", &e);
    if (!c)
        return e;
    /* On a capturing stream: the capture's fork point, not an op. */
    if (trn_capture_event_record(c, event, stream, &e))
        return e;
    /* Downloads queued on the stream so far are part of what it covers. */
    const uint64_t mark = atomic_load(&trn_stream_of(c, stream)->fetch_mark);
    Trnsci__V1__EventRecordOp rec = TRNSCI__V1__EVENT_RECORD_OP__INIT;
    rec.event_id = event->id;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_EVENT_RECORD;
    op.event_record = &rec;
    if ((e = trn_client_submit(c, stream, &op)))
        return e;
    atomic_store(&event->fetch_mark, mark);
    atomic_store(&event->recorded, 1);
    return trn_ok();
}

trnsciError_t trnsciEventQuery(trnsciEvent_t event) {
    trnsciError_t e;
    trn_client *c = client_for(event, "trnsciEventQuery", "event", &e);
    if (!c || (e = trn_capture_refuse_event(event, "trnsciEventQuery")))
        return e;
    if (!atomic_load(&event->recorded))
        return trn_ok();
    const uint64_t mark = atomic_load(&event->fetch_mark);
    int recorded, complete;
    uint64_t t;
    if ((e = ask(c, event, TRNSCI__V1__EVENT_ACTION__EVENT_QUERY, &recorded, &complete, &t)))
        return e;
    if (recorded && !complete)
        return trn_not_ready("trnsciEventQuery: event %u has not completed yet",
                             (unsigned)event->id);
    if (!trn_fetch_done(mark))
        return trn_not_ready("trnsciEventQuery: event %u has completed, but device-to-host copies "
                             "before it are not yet delivered",
                             (unsigned)event->id);
    return trn_ok();
}

trnsciError_t trnsciEventSynchronize(trnsciEvent_t event) {
    trnsciError_t e;
    trn_client *c = client_for(event, "trnsciEventSynchronize", "event", &e);
    if (!c || (e = trn_capture_refuse_event(event, "trnsciEventSynchronize")))
        return e;
    if (!atomic_load(&event->recorded))
        return trn_ok();
    const uint64_t mark = atomic_load(&event->fetch_mark);
    int recorded, complete;
    uint64_t t;
    e = ask(c, event, TRNSCI__V1__EVENT_ACTION__EVENT_SYNCHRONIZE, &recorded, &complete, &t);
    if (e != trnsciSuccess) {
        trn_fetch_wait(mark, 0);
        trn_fetch_forget_error(mark);
        return e;
    }
    if ((e = trn_fetch_wait(mark, 1)))
        return e;
    return trn_ok();
}

/* Whether ev can be one end of an elapsed-time measurement at all. */
static trnsciError_t check_timed(trnsciEvent_t ev, const char *what) {
    if (ev->flags & trnsciEventDisableTiming)
        return trn_fail(trnsciErrorInvalidResourceHandle,
                        "trnsciEventElapsedTime: %s (event %u) was created with "
                        "trnsciEventDisableTiming",
                        what, (unsigned)ev->id);
    if (!atomic_load(&ev->recorded))
        return trn_fail(trnsciErrorInvalidResourceHandle,
                        "trnsciEventElapsedTime: %s (event %u) has never been recorded", what,
                        (unsigned)ev->id);
    return trnsciSuccess;
}

/* One end of an elapsed-time measurement: its completion time. */
static trnsciError_t end_time(trn_client *c, trnsciEvent_t ev, const char *what, uint64_t *t_ns) {
    int recorded, complete;
    trnsciError_t e;
    if ((e = ask(c, ev, TRNSCI__V1__EVENT_ACTION__EVENT_QUERY, &recorded, &complete, t_ns)))
        return e;
    if (!recorded)
        return trn_fail(trnsciErrorInvalidResourceHandle,
                        "trnsciEventElapsedTime: the daemon has no record of %s (event %u)", what,
                        (unsigned)ev->id);
    if (!complete)
        return trn_not_ready("trnsciEventElapsedTime: %s (event %u) has not completed yet", what,
                             (unsigned)ev->id);
    return trnsciSuccess;
}

trnsciError_t trnsciEventElapsedTime(float *ms, trnsciEvent_t start, trnsciEvent_t end) {
    if (!ms)
        return trn_fail(trnsciErrorInvalidValue, "trnsciEventElapsedTime: ms is NULL");
    trnsciError_t e;
    trn_client *c = client_for(start, "trnsciEventElapsedTime", "start", &e);
    if (!c || !(c = client_for(end, "trnsciEventElapsedTime", "end", &e)))
        return e;
    uint64_t t0, t1;
    if ((e = check_timed(start, "start")) || (e = check_timed(end, "end")) ||
        (e = end_time(c, start, "start", &t0)) || (e = end_time(c, end, "end", &t1)))
        return e;
    *ms = (float)(((double)t1 - (double)t0) / 1e6);
    return trn_ok();
}

trnsciError_t trnsciStreamWaitEvent(trnsciStream_t stream, trnsciEvent_t event,
                                    unsigned int flags) {
    if (flags != 0)
        return trn_fail(trnsciErrorInvalidValue,
                        "trnsciStreamWaitEvent: flags must be 0 (got 0x%x)", flags);
    trnsciError_t e;
    trn_client *c = client_for(event, "trnsciStreamWaitEvent", "event", &e);
    if (!c)
        return e;
    /* A fork into, or a join within, a capture. */
    if (trn_capture_event_wait(c, stream, event, &e))
        return e;
    if (!atomic_load(&event->recorded))
        return trn_ok(); /* nothing recorded: nothing to wait for */
    Trnsci__V1__EventWaitOp w = TRNSCI__V1__EVENT_WAIT_OP__INIT;
    w.event_id = event->id;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_EVENT_WAIT;
    op.event_wait = &w;
    if ((e = trn_client_submit(c, stream, &op)))
        return e;
    return trn_ok();
}
