/*
 * capture.c — stream capture (trnsciStreamBeginCapture ... EndCapture), as
 * CUDA's.
 *
 * A capture owns the graph being built and the streams taking part: the
 * stream it began on (its origin) and every stream that joined by waiting
 * for an event recorded in it. Each member stream has a dependency set: the
 * nodes its next captured call follows (a call replaces the set with its own
 * node). An event recorded on a member stream remembers the stream's set and
 * the capture's id, which is how work forks to other streams and joins back.
 *
 * Invariants: a stream's `capture` pointer is set and cleared under the one
 * capture lock, and read without it only to learn whether the stream is
 * capturing at all; member streams' dependency sets and events' captured
 * sets are guarded by the lock. An invalidated capture records nothing more:
 * its calls fail with trnsciErrorStreamCaptureInvalidated until EndCapture
 * reports it and frees the graph.
 *
 * Which calls a capture forbids follows CUDA's modes (trnsci_graph.h): the
 * thread's interaction mode (trnsciThreadExchangeStreamCaptureMode, Global
 * by default) decides whether another thread's global capture, or only this
 * thread's own captures, make an implicitly synchronising call illegal.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/graph.h"

typedef struct trn_capture {
    unsigned long long id;
    trnsciGraph_t graph;
    trnsciStreamCaptureMode mode;
    pthread_t thread; /* that began it */
    struct trnsciStream_st *origin;
    int invalidated;
    struct trnsciStream_st **members; /* origin first */
    size_t nmembers, cap;
    struct trn_capture *next;
} trn_capture;

static pthread_mutex_t capture_lock = PTHREAD_MUTEX_INITIALIZER;
static trn_capture *active;        /* guarded by capture_lock */
static unsigned long long next_id; /* guarded by capture_lock */
static atomic_int strict_captures; /* active captures not in relaxed mode */
static _Thread_local trnsciStreamCaptureMode thread_mode = trnsciStreamCaptureModeGlobal;

/* ---- helpers (lock held) --------------------------------------------------------------- */

static trn_capture *capture_of(const struct trnsciStream_st *st) {
    return atomic_load(&st->capture);
}

static trn_capture *find_capture(unsigned long long id) {
    for (trn_capture *c = active; id && c; c = c->next)
        if (c->id == id)
            return c;
    return NULL;
}

static int deps_set(struct trnsciStream_st *st, const trnsciGraphNode_t *nodes, size_t n) {
    if (n > st->cap_deps_cap) {
        trnsciGraphNode_t *d = realloc(st->cap_deps, n * sizeof(*d));
        if (!d)
            return -1;
        st->cap_deps = d;
        st->cap_deps_cap = n;
    }
    if (n)
        memcpy(st->cap_deps, nodes, n * sizeof(*nodes));
    st->n_cap_deps = n;
    return 0;
}

static int deps_add(struct trnsciStream_st *st, trnsciGraphNode_t node) {
    for (size_t i = 0; i < st->n_cap_deps; i++)
        if (st->cap_deps[i] == node)
            return 0;
    if (st->n_cap_deps == st->cap_deps_cap) {
        const size_t cap = st->cap_deps_cap ? 2 * st->cap_deps_cap : 4;
        trnsciGraphNode_t *d = realloc(st->cap_deps, cap * sizeof(*d));
        if (!d)
            return -1;
        st->cap_deps = d;
        st->cap_deps_cap = cap;
    }
    st->cap_deps[st->n_cap_deps++] = node;
    return 0;
}

static int add_member(trn_capture *cap, struct trnsciStream_st *st) {
    if (cap->nmembers == cap->cap) {
        const size_t n = cap->cap ? 2 * cap->cap : 4;
        struct trnsciStream_st **m = realloc(cap->members, n * sizeof(*m));
        if (!m)
            return -1;
        cap->members = m;
        cap->cap = n;
    }
    cap->members[cap->nmembers++] = st;
    st->n_cap_deps = 0;
    atomic_store(&st->capture, cap);
    return 0;
}

/* Ends cap: its members stop capturing; the caller owns its graph. */
static trnsciGraph_t end_capture(trn_capture *cap) {
    for (size_t i = 0; i < cap->nmembers; i++) {
        atomic_store(&cap->members[i]->capture, NULL);
        cap->members[i]->n_cap_deps = 0;
    }
    for (trn_capture **p = &active; *p; p = &(*p)->next)
        if (*p == cap) {
            *p = cap->next;
            break;
        }
    if (cap->mode != trnsciStreamCaptureModeRelaxed)
        atomic_fetch_sub(&strict_captures, 1);
    trnsciGraph_t g = cap->graph;
    free(cap->members);
    free(cap);
    return g;
}

static trnsciError_t invalidate(trn_capture *cap, trnsciError_t e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static trnsciError_t invalidate(trn_capture *cap, trnsciError_t e, const char *fmt, ...) {
    cap->invalidated = 1;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return trn_fail(e, "%s (the capture is invalidated)", msg);
}

static trnsciError_t invalidated(const char *fn) {
    return trn_fail(trnsciErrorStreamCaptureInvalidated,
                    "%s: the stream's capture was invalidated by an earlier error; end it with "
                    "trnsciStreamEndCapture",
                    fn);
}

/* ---- capture control ------------------------------------------------------------------ */

trnsciError_t trnsciStreamBeginCapture(trnsciStream_t stream, trnsciStreamCaptureMode mode) {
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    if (mode != trnsciStreamCaptureModeGlobal && mode != trnsciStreamCaptureModeThreadLocal &&
        mode != trnsciStreamCaptureModeRelaxed)
        return trn_fail(trnsciErrorInvalidValue, "trnsciStreamBeginCapture: mode %d is not valid",
                        (int)mode);
    struct trnsciStream_st *st = trn_stream_of(c, stream);
    trn_capture *cap = calloc(1, sizeof(*cap));
    trnsciGraph_t g = NULL;
    if (!cap || (e = trnsciGraphCreate(&g, 0))) {
        free(cap);
        return trn_fail(trnsciErrorMemoryAllocation, "trnsciStreamBeginCapture: out of memory");
    }
    pthread_mutex_lock(&capture_lock);
    if (capture_of(st)) {
        pthread_mutex_unlock(&capture_lock);
        trn_graph_free(g);
        free(cap);
        return trn_fail(trnsciErrorIllegalState,
                        "trnsciStreamBeginCapture: stream %u is already being captured", st->id);
    }
    cap->id = ++next_id;
    cap->graph = g;
    cap->mode = mode;
    cap->thread = pthread_self();
    cap->origin = st;
    if (add_member(cap, st) != 0) {
        pthread_mutex_unlock(&capture_lock);
        trn_graph_free(g);
        free(cap);
        return trn_fail(trnsciErrorMemoryAllocation, "trnsciStreamBeginCapture: out of memory");
    }
    cap->next = active;
    active = cap;
    if (mode != trnsciStreamCaptureModeRelaxed)
        atomic_fetch_add(&strict_captures, 1);
    pthread_mutex_unlock(&capture_lock);
    return trn_ok();
}

/* Whether every node of `st`'s dependency set is the origin's or an
 * ancestor of one of the origin's (the stream joined back). */
static int joined(const trn_capture *cap, const struct trnsciStream_st *st, uint8_t *seen,
                  uint32_t *stack) {
    const trnsciGraph_t g = cap->graph;
    memset(seen, 0, g->n);
    size_t top = 0;
    for (size_t i = 0; i < cap->origin->n_cap_deps; i++) {
        const uint32_t v = cap->origin->cap_deps[i]->index;
        if (!seen[v]) {
            seen[v] = 1;
            stack[top++] = v;
        }
    }
    while (top) {
        const trnsciGraphNode_t n = g->nodes[stack[--top]];
        for (size_t k = 0; k < n->ndeps; k++)
            if (!seen[n->deps[k]]) {
                seen[n->deps[k]] = 1;
                stack[top++] = n->deps[k];
            }
    }
    for (size_t i = 0; i < st->n_cap_deps; i++)
        if (!seen[st->cap_deps[i]->index])
            return 0;
    return 1;
}

/* The first member stream that did not join back, or NULL. */
static struct trnsciStream_st *unjoined(const trn_capture *cap) {
    const size_t n = cap->graph->n;
    uint8_t *seen = malloc(n ? n : 1);
    uint32_t *stack = malloc((n ? n : 1) * sizeof(uint32_t));
    struct trnsciStream_st *bad = NULL;
    for (size_t i = 1; seen && stack && !bad && i < cap->nmembers; i++)
        if (!joined(cap, cap->members[i], seen, stack))
            bad = cap->members[i];
    free(seen);
    free(stack);
    return bad;
}

trnsciError_t trnsciStreamEndCapture(trnsciStream_t stream, trnsciGraph_t *pGraph) {
    if (!pGraph)
        return trn_fail(trnsciErrorInvalidValue, "trnsciStreamEndCapture: pGraph is NULL");
    *pGraph = NULL;
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    struct trnsciStream_st *st = trn_stream_of(c, stream);
    pthread_mutex_lock(&capture_lock);
    trn_capture *cap = capture_of(st);
    if (!cap || cap->origin != st) {
        pthread_mutex_unlock(&capture_lock);
        return trn_fail(trnsciErrorStreamCaptureUnmatched,
                        "trnsciStreamEndCapture: stream %u did not begin a capture%s", st->id,
                        cap ? " (it joined one begun on another stream)" : "");
    }
    if (cap->mode != trnsciStreamCaptureModeRelaxed &&
        !pthread_equal(cap->thread, pthread_self())) {
        pthread_mutex_unlock(&capture_lock);
        return trn_fail(trnsciErrorStreamCaptureWrongThread,
                        "trnsciStreamEndCapture: the capture on stream %u was begun by another "
                        "thread in %s mode",
                        st->id,
                        cap->mode == trnsciStreamCaptureModeGlobal ? "global" : "thread-local");
    }
    const int was_invalid = cap->invalidated;
    const struct trnsciStream_st *loose = was_invalid ? NULL : unjoined(cap);
    const uint32_t loose_id = loose ? loose->id : 0;
    trnsciGraph_t g = end_capture(cap);
    pthread_mutex_unlock(&capture_lock);
    if (was_invalid || loose) {
        trn_graph_free(g);
        if (was_invalid)
            return trn_fail(trnsciErrorStreamCaptureInvalidated,
                            "trnsciStreamEndCapture: the capture on stream %u was invalidated by "
                            "an earlier error (trnsciGetLastErrorMessage said which when it "
                            "happened)",
                            st->id);
        return trn_fail(trnsciErrorStreamCaptureUnjoined,
                        "trnsciStreamEndCapture: stream %u joined the capture but its work was "
                        "not joined back into stream %u (record an event on it and wait for it "
                        "on stream %u)",
                        loose_id, st->id, st->id);
    }
    *pGraph = g;
    return trn_ok();
}

trnsciError_t trnsciStreamIsCapturing(trnsciStream_t stream,
                                      trnsciStreamCaptureStatus *pCaptureStatus) {
    return trnsciStreamGetCaptureInfo(stream, pCaptureStatus, NULL, NULL, NULL, NULL);
}

trnsciError_t trnsciStreamGetCaptureInfo(trnsciStream_t stream,
                                         trnsciStreamCaptureStatus *captureStatus_out,
                                         unsigned long long *id_out, trnsciGraph_t *graph_out,
                                         const trnsciGraphNode_t **dependencies_out,
                                         size_t *numDependencies_out) {
    if (!captureStatus_out)
        return trn_fail(trnsciErrorInvalidValue,
                        "trnsciStreamGetCaptureInfo: captureStatus_out is NULL");
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    struct trnsciStream_st *st = trn_stream_of(c, stream);
    pthread_mutex_lock(&capture_lock);
    const trn_capture *cap = capture_of(st);
    *captureStatus_out = !cap               ? trnsciStreamCaptureStatusNone
                         : cap->invalidated ? trnsciStreamCaptureStatusInvalidated
                                            : trnsciStreamCaptureStatusActive;
    if (id_out)
        *id_out = cap ? cap->id : 0;
    if (graph_out)
        *graph_out = cap ? cap->graph : NULL;
    if (dependencies_out)
        *dependencies_out = cap ? st->cap_deps : NULL;
    if (numDependencies_out)
        *numDependencies_out = cap ? st->n_cap_deps : 0;
    pthread_mutex_unlock(&capture_lock);
    return trn_ok();
}

trnsciError_t trnsciThreadExchangeStreamCaptureMode(trnsciStreamCaptureMode *mode) {
    if (!mode ||
        (*mode != trnsciStreamCaptureModeGlobal && *mode != trnsciStreamCaptureModeThreadLocal &&
         *mode != trnsciStreamCaptureModeRelaxed))
        return trn_fail(trnsciErrorInvalidValue,
                        "trnsciThreadExchangeStreamCaptureMode: mode is NULL or not valid");
    const trnsciStreamCaptureMode old = thread_mode;
    thread_mode = *mode;
    *mode = old;
    return trn_ok();
}

/* ---- what captured calls do -------------------------------------------------------- */

int trn_capture_active(trn_client *c, trnsciStream_t stream) {
    return capture_of(trn_stream_of(c, stream)) != NULL;
}

/* Adds a node made by add() after the stream's dependency set, which it
 * then replaces. */
static trnsciError_t capture_node(trn_client *c, trnsciStream_t stream, const char *fn,
                                  trnsciError_t (*add)(trn_capture *, struct trnsciStream_st *,
                                                       const void *, trnsciGraphNode_t *),
                                  const void *arg) {
    struct trnsciStream_st *st = trn_stream_of(c, stream);
    pthread_mutex_lock(&capture_lock);
    trn_capture *cap = capture_of(st);
    trnsciError_t e;
    trnsciGraphNode_t node = NULL;
    if (!cap)
        e = trn_fail(trnsciErrorIllegalState, "%s: the stream's capture has ended", fn);
    else if (cap->invalidated)
        e = invalidated(fn);
    else if ((e = add(cap, st, arg, &node)) == trnsciSuccess && deps_set(st, &node, 1) != 0)
        e = invalidate(cap, trnsciErrorMemoryAllocation, "%s: out of memory", fn);
    pthread_mutex_unlock(&capture_lock);
    return e == trnsciSuccess ? trn_ok() : e;
}

static trnsciError_t add_op(trn_capture *cap, struct trnsciStream_st *st, const void *arg,
                            trnsciGraphNode_t *node) {
    const Trnsci__V1__Op *op = arg;
    switch (op->kind_case) {
    case TRNSCI__V1__OP__KIND_STAGE_OUT:
        return invalidate(cap, trnsciErrorStreamCaptureUnsupported,
                          "a copy to host memory cannot be captured (stream %u)", st->id);
    case TRNSCI__V1__OP__KIND_EVENT_RECORD:
    case TRNSCI__V1__OP__KIND_EVENT_WAIT:
    case TRNSCI__V1__OP__KIND_GRAPH_LAUNCH:
    case TRNSCI__V1__OP__KIND__NOT_SET:
        return invalidate(cap, trnsciErrorStreamCaptureUnsupported,
                          "this operation cannot be captured (stream %u)", st->id);
    default: break;
    }
    const trnsciError_t e =
        trn_graph_add_op(cap->graph, op, st->cap_deps, st->n_cap_deps, node, "stream capture");
    if (e != trnsciSuccess)
        cap->invalidated = 1;
    return e;
}

trnsciError_t trn_capture_op(trn_client *c, trnsciStream_t stream, const Trnsci__V1__Op *op) {
    return capture_node(c, stream, "stream capture", add_op, op);
}

static trnsciError_t add_child(trn_capture *cap, struct trnsciStream_st *st, const void *arg,
                               trnsciGraphNode_t *node) {
    trnsciGraph_t child = trn_graph_clone(trn_graph_exec_graph((trnsciGraphExec_t)arg));
    if (!child)
        return invalidate(cap, trnsciErrorMemoryAllocation, "trnsciGraphLaunch: out of memory");
    const trnsciError_t e = trn_graph_add_node(cap->graph, trnsciGraphNodeTypeGraph, st->cap_deps,
                                               st->n_cap_deps, "trnsciGraphLaunch", node);
    if (e != trnsciSuccess) {
        trn_graph_free(child);
        cap->invalidated = 1;
        return e;
    }
    (*node)->child = child;
    return trnsciSuccess;
}

trnsciError_t trn_capture_graph(trn_client *c, trnsciStream_t stream, trnsciGraphExec_t exec) {
    return capture_node(c, stream, "trnsciGraphLaunch", add_child, exec);
}

int trn_capture_event_record(trn_client *c, trnsciEvent_t ev, trnsciStream_t stream,
                             trnsciError_t *e) {
    struct trnsciStream_st *st = trn_stream_of(c, stream);
    pthread_mutex_lock(&capture_lock);
    trn_capture *cap = capture_of(st);
    ev->capture_id = 0; /* re-recorded: what it said before no longer holds */
    ev->n_cap_deps = 0;
    if (!cap) {
        pthread_mutex_unlock(&capture_lock);
        return 0;
    }
    *e = trnsciSuccess;
    if (cap->invalidated) {
        *e = invalidated("trnsciEventRecord");
    } else {
        trnsciGraphNode_t *d = st->n_cap_deps ? malloc(st->n_cap_deps * sizeof(*d)) : NULL;
        if (st->n_cap_deps && !d) {
            *e = invalidate(cap, trnsciErrorMemoryAllocation, "trnsciEventRecord: out of memory");
        } else {
            if (st->n_cap_deps)
                memcpy(d, st->cap_deps, st->n_cap_deps * sizeof(*d));
            free(ev->cap_deps);
            ev->cap_deps = d;
            ev->n_cap_deps = st->n_cap_deps;
            ev->capture_id = cap->id;
        }
    }
    pthread_mutex_unlock(&capture_lock);
    if (*e == trnsciSuccess)
        *e = trn_ok();
    return 1;
}

int trn_capture_event_wait(trn_client *c, trnsciStream_t stream, trnsciEvent_t ev,
                           trnsciError_t *e) {
    struct trnsciStream_st *st = trn_stream_of(c, stream);
    pthread_mutex_lock(&capture_lock);
    trn_capture *cap = capture_of(st), *from = find_capture(ev->capture_id);
    if (!cap && !from) {
        pthread_mutex_unlock(&capture_lock);
        return 0;
    }
    *e = trnsciSuccess;
    if ((cap && cap->invalidated) || (from && from->invalidated)) {
        *e = invalidated("trnsciStreamWaitEvent");
    } else if (!from) {
        *e = invalidate(cap, trnsciErrorStreamCaptureIsolation,
                        "trnsciStreamWaitEvent: stream %u is being captured and event %u was not "
                        "recorded in its capture",
                        st->id, ev->id);
    } else if (cap && cap != from) {
        cap->invalidated = 1;
        *e = invalidate(from, trnsciErrorStreamCaptureMerge,
                        "trnsciStreamWaitEvent: stream %u and event %u belong to different "
                        "captures",
                        st->id, ev->id);
    } else {
        /* Join the capture (fork), or add the event's nodes (join). */
        int rc = cap ? 0 : add_member(from, st);
        for (size_t i = 0; rc == 0 && i < ev->n_cap_deps; i++)
            rc = deps_add(st, ev->cap_deps[i]);
        if (rc != 0)
            *e = invalidate(from, trnsciErrorMemoryAllocation,
                            "trnsciStreamWaitEvent: out of memory");
    }
    pthread_mutex_unlock(&capture_lock);
    if (*e == trnsciSuccess)
        *e = trn_ok();
    return 1;
}

trnsciError_t trn_capture_refuse_stream(trn_client *c, trnsciStream_t stream, const char *fn) {
    struct trnsciStream_st *st = trn_stream_of(c, stream);
    if (!capture_of(st))
        return trnsciSuccess;
    pthread_mutex_lock(&capture_lock);
    trn_capture *cap = capture_of(st);
    trnsciError_t e = trnsciSuccess;
    if (cap)
        e = invalidate(cap, trnsciErrorStreamCaptureUnsupported,
                       "%s: not permitted while stream %u is being captured", fn, st->id);
    pthread_mutex_unlock(&capture_lock);
    return e;
}

trnsciError_t trn_capture_refuse_unsafe(const char *fn) {
    if (atomic_load(&strict_captures) == 0 || thread_mode == trnsciStreamCaptureModeRelaxed)
        return trnsciSuccess;
    pthread_mutex_lock(&capture_lock);
    int refused = 0;
    const pthread_t self = pthread_self();
    for (trn_capture *cap = active; cap; cap = cap->next) {
        if (cap->mode == trnsciStreamCaptureModeRelaxed)
            continue;
        const int mine = pthread_equal(cap->thread, self);
        if (mine || (thread_mode == trnsciStreamCaptureModeGlobal &&
                     cap->mode == trnsciStreamCaptureModeGlobal)) {
            cap->invalidated = 1;
            refused = 1;
        }
    }
    pthread_mutex_unlock(&capture_lock);
    if (!refused)
        return trnsciSuccess;
    return trn_fail(trnsciErrorStreamCaptureUnsupported,
                    "%s: not permitted while a stream is being captured (it would synchronise "
                    "implicitly; the capture is invalidated; use relaxed mode to allow it)",
                    fn);
}

trnsciError_t trn_capture_refuse_event(trnsciEvent_t ev, const char *fn) {
    if (!ev->capture_id)
        return trnsciSuccess;
    pthread_mutex_lock(&capture_lock);
    const int captured = find_capture(ev->capture_id) != NULL;
    pthread_mutex_unlock(&capture_lock);
    if (!captured)
        return trnsciSuccess;
    return trn_fail(trnsciErrorCapturedEvent,
                    "%s: event %u was last recorded in a capture that is still going on", fn,
                    ev->id);
}

void trn_capture_forget_stream(trnsciStream_t stream) {
    if (!stream)
        return;
    pthread_mutex_lock(&capture_lock);
    trn_capture *cap = capture_of(stream);
    trnsciGraph_t orphan = NULL;
    if (cap && cap->origin == stream) {
        orphan = end_capture(cap); /* nobody can end it any more */
    } else if (cap) {
        cap->invalidated = 1;
        for (size_t i = 0; i < cap->nmembers; i++)
            if (cap->members[i] == stream)
                cap->members[i] = cap->members[--cap->nmembers];
        atomic_store(&stream->capture, NULL);
    }
    free(stream->cap_deps); /* kept from its last capture, if any */
    stream->cap_deps = NULL;
    stream->n_cap_deps = stream->cap_deps_cap = 0;
    pthread_mutex_unlock(&capture_lock);
    if (orphan)
        trn_graph_free(orphan);
}

void trn_capture_forget_event(trnsciEvent_t ev) {
    pthread_mutex_lock(&capture_lock);
    free(ev->cap_deps);
    ev->cap_deps = NULL;
    ev->n_cap_deps = 0;
    ev->capture_id = 0;
    pthread_mutex_unlock(&capture_lock);
}
