/*
 * service_wait.c — replies that wait for work: Synchronize and the Event RPC.
 *
 * A waiter queues one marker per stream it waits on and replies when the
 * last marker completes. Waiting for an event is the same thing on a private
 * stream whose only marker waits on the event's fence.
 *
 * Timeouts: a waiter with a deadline arms a scheduler timer. When it fires,
 * the waiter's code becomes DEADLINE_EXCEEDED and its streams are cancelled:
 * everything queued on them completes at once (CANCELLED, markers included),
 * while running shards finish on their own. For Synchronize that is the
 * documented cancellation of queued work; for an event it only ends the
 * private stream's wait.
 *
 * Two owners keep a waiter alive: its markers (counted in `markers`, plus a
 * guard while they are being queued) and its armed timer. Whichever lets go
 * last replies and frees it; `owners` counts them.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/log.h"
#include "daemon/service_internal.h"

typedef struct waiter {
    trn_service *svc;
    trn_call *call;
    trn_session *session;       /* a reference */
    atomic_int markers;         /* outstanding markers + 1 guard while queueing */
    atomic_int owners;          /* the markers (as one) and the armed timer */
    atomic_int code;            /* first non-OK outcome */
    trn_sched_timer timer;      /* the deadline, when there is one */
    trn_sched_stream **streams; /* referenced; cancelled when the timer fires */
    size_t n;
    trn_sched_fence *fence; /* event waits: a reference, for the timestamp */
    /* For messages. */
    int all_streams;
    uint32_t stream_id, event_id;
    uint64_t timeout_us;
} waiter;

typedef struct wait_marker {
    trn_sched_op sop; /* first: the scheduler's op */
    waiter *w;
} wait_marker;

static void set_code(waiter *w, trn_wire_code code) {
    int expected = TRN_WIRE_OK;
    atomic_compare_exchange_strong(&w->code, &expected, (int)code);
}

/* The text of a non-OK outcome. Returns the code to reply with. */
static trn_wire_code explain(waiter *w, trn_wire_code code, char *msg, size_t len) {
    trn_session *s = w->session;
    const char *what = w->event_id ? "EventSynchronize" : "Synchronize";
    char where[64];
    if (w->event_id)
        snprintf(where, sizeof(where), "event %u", w->event_id);
    else if (w->all_streams)
        snprintf(where, sizeof(where), "all streams");
    else
        snprintf(where, sizeof(where), "stream %u", w->stream_id);
    switch (code) {
    case TRN_WIRE_DEADLINE_EXCEEDED:
        if (w->event_id)
            snprintf(msg, len, "%s: %s did not complete within the timeout (%llu us)", what, where,
                     (unsigned long long)w->timeout_us);
        else
            snprintf(msg, len,
                     "%s: %s did not finish within the timeout (%llu us; 0 means the call's "
                     "deadline); work still queued was cancelled, running work completes",
                     what, where, (unsigned long long)w->timeout_us);
        return code;
    case TRN_WIRE_UNAVAILABLE:
        snprintf(msg, len, "the daemon is shutting down; queued work was dropped");
        return code;
    case TRN_WIRE_RESOURCE_EXHAUSTED:
        snprintf(msg, len, "%s: the daemon ran out of memory queueing the wait", what);
        return code;
    default: break;
    }
    /* CANCELLED: say by what, if the session knows. */
    pthread_mutex_lock(&s->lock);
    const int closed = s->closed;
    pthread_mutex_unlock(&s->lock);
    if (closed) {
        snprintf(msg, len, "the session ended while waiting");
        return TRN_WIRE_ABORTED;
    }
    const trn_wire_code deferred =
        w->event_id ? TRN_WIRE_OK
                    : trn_session_take_error(s, w->all_streams, w->stream_id, msg, len);
    if (deferred != TRN_WIRE_OK)
        return deferred;
    snprintf(msg, len, "%s: the work %s waited for was cancelled before it ran", what, where);
    return TRN_WIRE_CANCELLED;
}

static void reply_ok(waiter *w) {
    trn_session *s = w->session;
    if (w->event_id) {
        Trnsci__V1__EventReply r = TRNSCI__V1__EVENT_REPLY__INIT;
        uint64_t t = 0;
        r.recorded = 1;
        r.complete = trn_sched_fence_query(w->svc->sched, w->fence, &t);
        r.timestamp_ns = t;
        trn_service_finish_reply(w->call, &r.base);
        return;
    }
    /* Synchronize reports the error its stream (or, of every stream, the
     * earliest) kept since the last one (session_errors.c). */
    char msg[512];
    const trn_wire_code deferred =
        trn_session_take_error(s, w->all_streams, w->stream_id, msg, sizeof(msg));
    if (deferred != TRN_WIRE_OK) {
        trn_service_finish_error(w->call, deferred, msg);
        return;
    }
    Trnsci__V1__SynchronizeReply r = TRNSCI__V1__SYNCHRONIZE_REPLY__INIT;
    trn_service_finish_reply(w->call, &r.base);
}

static void owner_put(waiter *w) {
    if (atomic_fetch_sub(&w->owners, 1) != 1)
        return;
    const trn_wire_code code = (trn_wire_code)atomic_load(&w->code);
    if (code == TRN_WIRE_OK) {
        reply_ok(w);
    } else {
        char msg[512];
        const trn_wire_code out = explain(w, code, msg, sizeof(msg));
        trn_service_finish_error(w->call, out, msg);
    }
    trn_sched *sched = w->svc->sched;
    for (size_t i = 0; i < w->n; i++)
        trn_sched_stream_release(sched, w->streams[i]);
    if (w->fence)
        trn_sched_fence_release(sched, w->fence);
    free(w->streams);
    trn_session_unref(w->session);
    free(w);
}

static void markers_put(waiter *w) {
    if (atomic_fetch_sub(&w->markers, 1) != 1)
        return;
    if (trn_sched_timer_stop(w->svc->sched, &w->timer))
        owner_put(w); /* the timer will never fire: drop its share */
    owner_put(w);
}

static void timer_fired(trn_sched_timer *t) {
    waiter *w = (waiter *)((char *)t - offsetof(waiter, timer));
    set_code(w, TRN_WIRE_DEADLINE_EXCEEDED);
    for (size_t i = 0; i < w->n; i++)
        trn_sched_stream_cancel(w->svc->sched, w->streams[i]);
    owner_put(w);
}

static void marker_done(trn_sched_op *sop, trn_sched_status status) {
    wait_marker *m = (wait_marker *)sop;
    waiter *w = m->w;
    free(m);
    if (status == TRN_SCHED_SHUTDOWN)
        set_code(w, TRN_WIRE_UNAVAILABLE);
    else if (status != TRN_SCHED_OK)
        set_code(w, TRN_WIRE_CANCELLED);
    markers_put(w);
}

static void queue_marker(waiter *w, trn_sched_stream *st, trn_sched_fence *wait_on) {
    wait_marker *m = calloc(1, sizeof(*m));
    if (!m) {
        set_code(w, TRN_WIRE_RESOURCE_EXHAUSTED);
        return;
    }
    m->sop.is_marker = 1;
    m->sop.wait = wait_on;
    m->sop.done = marker_done;
    m->sop.defer_wake = w->call->kicks_later;
    m->w = w;
    atomic_fetch_add(&w->markers, 1);
    if (trn_sched_submit(w->svc->sched, st, &m->sop) != 0) {
        free(m);
        set_code(w, TRN_WIRE_UNAVAILABLE);
        atomic_fetch_sub(&w->markers, 1);
    }
}

static waiter *waiter_new(trn_service *svc, trn_call *call, trn_session *s) {
    waiter *w = calloc(1, sizeof(*w));
    if (!w)
        return NULL;
    w->svc = svc;
    w->call = call;
    w->session = s;
    atomic_init(&w->markers, 1); /* the guard */
    atomic_init(&w->owners, 1);
    atomic_init(&w->code, TRN_WIRE_OK);
    w->timer.fire = timer_fired;
    return w;
}

/* Arms the timer (if deadline), queues the markers, drops the guard. */
static void waiter_start(waiter *w, uint64_t deadline_ns, trn_sched_fence *wait_on) {
    if (deadline_ns) {
        atomic_fetch_add(&w->owners, 1);
        w->timer.when_ns = deadline_ns;
        trn_sched_timer_start(w->svc->sched, &w->timer);
    }
    for (size_t i = 0; i < w->n; i++)
        queue_marker(w, w->streams[i], wait_on);
    markers_put(w);
}

/* ---- Synchronize ------------------------------------------------------------ */

/* The streams a Synchronize waits on, each with a reference; *n = 0 when
 * the one named does not exist (and cannot be made). */
static trn_sched_stream **sync_streams(trn_service *svc, trn_session *s,
                                       const Trnsci__V1__SynchronizeRequest *req, size_t *n) {
    trn_sched_stream **list = NULL;
    *n = 0;
    pthread_mutex_lock(&s->lock);
    if (req->all_streams) {
        list = calloc(s->streams.len + 1, sizeof(*list));
        size_t i = 0;
        uint64_t key;
        void *val;
        while (list && trn_idmap_next(&s->streams, &i, &key, &val)) {
            trn_sched_stream_retain(svc->sched, val);
            list[(*n)++] = val;
        }
    } else {
        list = calloc(1, sizeof(*list));
        trn_sched_stream *st = list ? trn_session_stream_locked(s, req->stream_id) : NULL;
        if (st) {
            list[(*n)++] = st;
            if (req->destroy_stream && req->stream_id != 0)
                trn_idmap_remove(&s->streams, (uint64_t)req->stream_id + 1); /* ref moves */
            else
                trn_sched_stream_retain(svc->sched, st);
        }
    }
    pthread_mutex_unlock(&s->lock);
    return list;
}

void trn_service_on_synchronize(trn_service *svc, const Trnsci__V1__SynchronizeRequest *req,
                                trn_call *call) {
    char err[TRN_SERVICE_ERRLEN];
    trn_session *s = trn_service_session(svc, req->session_id, call);
    if (!s)
        return;
    waiter *w = waiter_new(svc, call, s);
    size_t n = 0;
    trn_sched_stream **list = w ? sync_streams(svc, s, req, &n) : NULL;
    if (!w || !list || (n == 0 && !req->all_streams)) {
        const int oom = !w || !list;
        free(w);
        free(list);
        if (s->closed)
            trn_service_finish_error(call, TRN_WIRE_ABORTED, "session is closed");
        else if (oom)
            trn_service_finish_error(call, TRN_WIRE_RESOURCE_EXHAUSTED,
                                     "daemon out of memory in Synchronize");
        else {
            snprintf(err, sizeof(err),
                     "stream %u: this session already has the maximum of %u streams",
                     req->stream_id, svc->cfg->max_streams);
            trn_service_finish_error(call, TRN_WIRE_RESOURCE_EXHAUSTED, err);
        }
        trn_session_unref(s);
        return;
    }
    w->streams = list;
    w->n = n;
    w->all_streams = req->all_streams;
    w->stream_id = req->stream_id;
    w->timeout_us = req->timeout_us;
    waiter_start(w, trn_service_wait_deadline(call, req->timeout_us), NULL);
}

/* ---- Events ------------------------------------------------------------------- */

static trn_wire_code check_event_id(uint32_t id, const char *what, char *err, size_t errlen) {
    if (id != 0)
        return TRN_WIRE_OK;
    snprintf(err, errlen, "%s: event id 0 is not valid (ids start at 1)", what);
    return TRN_WIRE_INVALID_ARGUMENT;
}

static trn_wire_code submit_record(trn_service *svc, trn_session *s, uint32_t stream_id,
                                   uint32_t event_id, uint64_t *seq, char *err, size_t errlen) {
    pthread_mutex_lock(&s->lock);
    const int known = trn_idmap_get(&s->events, event_id) != NULL;
    const size_t count = s->events.len;
    pthread_mutex_unlock(&s->lock);
    if (!known && count >= svc->cfg->max_events) {
        snprintf(err, errlen,
                 "EventRecord: this session already has the maximum of %u events "
                 "(max-events); destroy some",
                 svc->cfg->max_events);
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    trn_sched_fence *f = trn_sched_fence_create(svc->sched);
    trn_service_op *op = f ? trn_service_op_new(svc) : NULL;
    if (!op) {
        if (f)
            trn_sched_fence_release(svc->sched, f);
        snprintf(err, errlen, "daemon out of memory recording an event");
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    op->sop.is_marker = 1;
    op->sop.signal = f;
    const trn_wire_code rc = trn_service_queue_op(svc, s, stream_id, op, seq, err, errlen);
    if (rc != TRN_WIRE_OK) {
        trn_sched_fence_release(svc->sched, f);
        return rc;
    }
    trn_service_event_recorded(svc, s, event_id, f);
    return TRN_WIRE_OK;
}

void trn_service_event_recorded(trn_service *svc, trn_session *s, uint32_t event_id,
                                trn_sched_fence *f) {
    /* The map takes our reference; the event now names this record. */
    pthread_mutex_lock(&s->lock);
    trn_sched_fence *old = s->closed ? f : trn_idmap_remove(&s->events, event_id);
    if (!s->closed && trn_idmap_put(&s->events, event_id, f) != 0)
        old = f; /* could not remember it: as if destroyed at once */
    pthread_mutex_unlock(&s->lock);
    if (old)
        trn_sched_fence_release(svc->sched, old);
}

trn_sched_fence *trn_service_event_fence(trn_service *svc, trn_session *s, uint32_t event_id) {
    pthread_mutex_lock(&s->lock);
    trn_sched_fence *f = trn_idmap_get(&s->events, event_id);
    if (f)
        trn_sched_fence_retain(svc->sched, f);
    pthread_mutex_unlock(&s->lock);
    return f;
}

static trn_wire_code submit_wait(trn_service *svc, trn_session *s, uint32_t stream_id,
                                 uint32_t event_id, uint64_t *seq, char *err, size_t errlen) {
    trn_sched_fence *f = trn_service_event_fence(svc, s, event_id);
    trn_service_op *op = trn_service_op_new(svc);
    if (!op) {
        if (f)
            trn_sched_fence_release(svc->sched, f);
        snprintf(err, errlen, "daemon out of memory queueing an event wait");
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    /* Never recorded: nothing to wait for (CUDA's rule); the marker only
     * keeps the op numbering. */
    op->sop.is_marker = 1;
    op->sop.wait = f;
    const trn_wire_code rc = trn_service_queue_op(svc, s, stream_id, op, seq, err, errlen);
    if (f) /* the scheduler holds its own reference while the marker waits */
        trn_sched_fence_release(svc->sched, f);
    return rc;
}

trn_wire_code trn_service_submit_event(trn_service *svc, trn_session *s,
                                       const Trnsci__V1__SubmitRequest *req, uint64_t *seq,
                                       char *err, size_t errlen) {
    const int record = req->op->kind_case == TRNSCI__V1__OP__KIND_EVENT_RECORD;
    const uint32_t id = record ? req->op->event_record->event_id : req->op->event_wait->event_id;
    const trn_wire_code rc =
        check_event_id(id, record ? "EventRecord" : "StreamWaitEvent", err, errlen);
    if (rc != TRN_WIRE_OK)
        return rc;
    return record ? submit_record(svc, s, req->stream_id, id, seq, err, errlen)
                  : submit_wait(svc, s, req->stream_id, id, seq, err, errlen);
}

static void event_synchronize(trn_service *svc, trn_session *s, trn_sched_fence *f,
                              const Trnsci__V1__EventRequest *req, trn_call *call) {
    waiter *w = waiter_new(svc, call, s);
    trn_sched_stream **list = w ? calloc(1, sizeof(*list)) : NULL;
    trn_sched_stream *st = list ? trn_sched_stream_create(svc->sched, s->tenant) : NULL;
    if (!st) {
        free(list);
        free(w);
        trn_sched_fence_release(svc->sched, f);
        trn_session_unref(s);
        trn_service_finish_error(call, TRN_WIRE_RESOURCE_EXHAUSTED,
                                 "daemon out of memory in EventSynchronize");
        return;
    }
    list[0] = st;
    w->streams = list;
    w->n = 1;
    w->fence = f;
    w->event_id = req->event_id;
    w->timeout_us = req->timeout_us;
    waiter_start(w, trn_service_wait_deadline(call, req->timeout_us), f);
}

void trn_service_on_event(trn_service *svc, const Trnsci__V1__EventRequest *req, trn_call *call) {
    char err[TRN_SERVICE_ERRLEN];
    trn_session *s = trn_service_session(svc, req->session_id, call);
    if (!s)
        return;
    if (check_event_id(req->event_id, "Event", err, sizeof(err)) != TRN_WIRE_OK) {
        trn_session_unref(s);
        trn_service_finish_error(call, TRN_WIRE_INVALID_ARGUMENT, err);
        return;
    }
    pthread_mutex_lock(&s->lock);
    trn_sched_fence *f = req->action == TRNSCI__V1__EVENT_ACTION__EVENT_DESTROY
                             ? trn_idmap_remove(&s->events, req->event_id)
                             : trn_idmap_get(&s->events, req->event_id);
    if (f && req->action != TRNSCI__V1__EVENT_ACTION__EVENT_DESTROY)
        trn_sched_fence_retain(svc->sched, f);
    pthread_mutex_unlock(&s->lock);

    Trnsci__V1__EventReply r = TRNSCI__V1__EVENT_REPLY__INIT;
    uint64_t t = 0;
    switch (req->action) {
    case TRNSCI__V1__EVENT_ACTION__EVENT_SYNCHRONIZE:
        if (f && !trn_sched_fence_query(svc->sched, f, NULL)) {
            event_synchronize(svc, s, f, req, call); /* takes s's and f's references */
            return;
        }
        /* Complete, or never recorded (nothing to wait for): as a query. */
        __attribute__((fallthrough));
    case TRNSCI__V1__EVENT_ACTION__EVENT_QUERY:
        r.recorded = f != NULL;
        r.complete = f ? trn_sched_fence_query(svc->sched, f, &t) : 0;
        r.timestamp_ns = t;
        break;
    case TRNSCI__V1__EVENT_ACTION__EVENT_DESTROY:
    default: break;
    }
    if (f)
        trn_sched_fence_release(svc->sched, f);
    trn_session_unref(s);
    if (req->action != TRNSCI__V1__EVENT_ACTION__EVENT_QUERY &&
        req->action != TRNSCI__V1__EVENT_ACTION__EVENT_SYNCHRONIZE &&
        req->action != TRNSCI__V1__EVENT_ACTION__EVENT_DESTROY) {
        snprintf(err, sizeof(err), "Event: action %d is not known", (int)req->action);
        trn_service_finish_error(call, TRN_WIRE_INVALID_ARGUMENT, err);
        return;
    }
    trn_service_finish_reply(call, &r.base);
}
