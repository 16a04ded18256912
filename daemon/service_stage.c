/*
 * service_stage.c — host transfers in stream order, for clients whose memory
 * the daemon cannot map (gRPC): cudaMemcpyAsync over the wire.
 *
 * Upload (ordered Write): the chunk is copied out of the request into staging
 * memory charged to the session, and a copy op (staging → buffer) is queued
 * on the stream; the client gets its reply once the data is staged, so it can
 * reuse its memory, and the copy engine applies it when the stream gets
 * there.
 *
 * Download (StageOutOp + Read{ticket}): the op copies the buffer region into
 * staging memory when the stream gets there; the client's Read with the same
 * ticket returns it, waiting if the op has not run yet. A stage lives in the
 * session's map from Submit until its Read (or the session's end); its bytes
 * count against the session's quota and a session holds at most
 * max-queued-ops of them, so unread data is bounded.
 *
 * Ownership: a stage has two references, the op's (dropped when it
 * completes) and the map's (dropped by the Read that takes it out, or by the
 * session's end); the last one frees it. Both are counted under the session
 * lock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/log.h"
#include "daemon/service_internal.h"

/* ---- upload -------------------------------------------------------------------- */

static trn_wire_code ordered_write(trn_service *svc, trn_session *s,
                                   const Trnsci__V1__WriteRequest *req, char *err, size_t errlen) {
    const size_t len = req->src ? (size_t)req->length : req->data.len;
    trn_wire_code rc = req->src ? trn_validate_staged(req->length, "Write: data", err, errlen)
                                : trn_validate_chunk(len, "Write: data", err, errlen);
    if (rc != TRN_WIRE_OK || len == 0)
        return rc;
    /* Staged by the client in a host buffer of the session: its bytes are
     * taken now, as inline data would be. */
    const void *data = req->data.data;
    trn_op_refs src_refs = {.n = 0};
    if (req->src) {
        void *p = NULL;
        rc = trn_validate_region(s, req->src, len, 1, "Write: src", &src_refs, &p, err, errlen);
        if (rc != TRN_WIRE_OK)
            return rc;
        data = p;
    }
    trn_service_op *op = trn_service_op_new(svc);
    if (!op) {
        snprintf(err, errlen, "daemon out of memory staging a Write");
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    void *dst = NULL;
    rc = trn_validate_region(s, req->dst, len, 1, "Write: dst", &op->refs, &dst, err, errlen);
    if (rc == TRN_WIRE_OK)
        rc = trn_session_charge(s, len, "ordered Write staging", err, errlen);
    if (rc != TRN_WIRE_OK) {
        trn_op_refs_release(&op->refs);
        trn_op_refs_release(&src_refs);
        trn_service_op_discard(op);
        return rc;
    }
    op->staging = malloc(len);
    op->staging_len = len;
    if (!op->staging) {
        trn_session_credit(s, len);
        op->staging_len = 0;
        trn_op_refs_release(&op->refs);
        trn_op_refs_release(&src_refs);
        trn_service_op_discard(op);
        snprintf(err, errlen, "daemon out of memory staging a Write of %zu bytes", len);
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    memcpy(op->staging, data, len);
    trn_op_refs_release(&src_refs);
    op->sop.desc.kind = TRN_OP_COPY;
    op->sop.desc.u.copy = (trn_copy_desc){.dst = dst, .src = op->staging, .bytes = len};
    op->sop.deadline_ns = trn_service_op_deadline(req->timeout_us);
    uint64_t seq;
    return trn_service_queue_op(svc, s, req->stream_id, op, &seq, err, errlen);
}

void trn_service_on_ordered_write(trn_service *svc, trn_session *s,
                                  const Trnsci__V1__WriteRequest *req, trn_call *call) {
    char err[TRN_SERVICE_ERRLEN];
    const trn_wire_code rc = ordered_write(svc, s, req, err, sizeof(err));
    if (rc != TRN_WIRE_OK) {
        trn_service_finish_error(call, rc, err);
        return;
    }
    Trnsci__V1__WriteReply r = TRNSCI__V1__WRITE_REPLY__INIT;
    trn_service_finish_reply(call, &r.base);
}

/* ---- download -------------------------------------------------------------------- */

static void reply_stage(trn_call *call, const trn_stage *st) {
    if (st->code != TRN_WIRE_OK) {
        trn_service_finish_error(call, st->code, st->msg);
        return;
    }
    Trnsci__V1__ReadReply r = TRNSCI__V1__READ_REPLY__INIT;
    r.data.data = st->data;
    r.data.len = st->len;
    trn_service_finish_reply(call, &r.base);
}

trn_wire_code trn_service_submit_stage_out(trn_service *svc, trn_session *s,
                                           const Trnsci__V1__SubmitRequest *req, uint64_t *seq,
                                           char *err, size_t errlen) {
    const Trnsci__V1__StageOutOp *so = req->op->stage_out;
    trn_wire_code rc = trn_validate_chunk(so->bytes, "stage-out: bytes", err, errlen);
    if (rc != TRN_WIRE_OK)
        return rc;
    if (so->ticket == 0 || so->bytes == 0) {
        snprintf(err, errlen, "stage-out: %s must not be 0", so->ticket == 0 ? "ticket" : "bytes");
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    trn_service_op *op = trn_service_op_new(svc);
    trn_stage *st = calloc(1, sizeof(*st));
    if (!op || !st) {
        trn_service_op_discard(op);
        free(st);
        snprintf(err, errlen, "daemon out of memory queueing a stage-out");
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    void *src = NULL;
    rc = trn_validate_region(s, so->src, so->bytes, 1, "stage-out: src", &op->refs, &src, err,
                             errlen);
    if (rc == TRN_WIRE_OK)
        rc = trn_session_charge(s, so->bytes, "stage-out staging", err, errlen);
    if (rc != TRN_WIRE_OK)
        goto fail;
    st->ticket = so->ticket;
    st->refs = 2; /* the map's and the op's */
    st->len = (size_t)so->bytes;
    st->data = malloc(st->len);
    if (!st->data) {
        trn_session_credit(s, so->bytes);
        snprintf(err, errlen, "daemon out of memory staging %llu bytes",
                 (unsigned long long)so->bytes);
        rc = TRN_WIRE_RESOURCE_EXHAUSTED;
        goto fail;
    }
    pthread_mutex_lock(&s->lock);
    if (s->stages.len >= svc->cfg->max_queued_ops) {
        snprintf(err, errlen,
                 "stage-out: this session already has %u stage-outs whose data was not read "
                 "(max-queued-ops); read them first",
                 svc->cfg->max_queued_ops);
        rc = TRN_WIRE_RESOURCE_EXHAUSTED;
    } else if (trn_idmap_get(&s->stages, st->ticket)) {
        snprintf(err, errlen, "stage-out: ticket %llu is already pending in this session",
                 (unsigned long long)st->ticket);
        rc = TRN_WIRE_ALREADY_EXISTS;
    } else if (trn_idmap_put(&s->stages, st->ticket, st) != 0) {
        snprintf(err, errlen, "daemon out of memory queueing a stage-out");
        rc = TRN_WIRE_RESOURCE_EXHAUSTED;
    } else {
        st->in_map = 1;
    }
    pthread_mutex_unlock(&s->lock);
    if (rc != TRN_WIRE_OK) {
        trn_stage_free(s, st);
        st = NULL;
        goto fail;
    }
    op->stage = st;
    op->sop.desc.kind = TRN_OP_COPY;
    op->sop.desc.u.copy = (trn_copy_desc){.dst = st->data, .src = src, .bytes = st->len};
    op->sop.deadline_ns = trn_service_op_deadline(req->timeout_us);
    op->seq = req->launch_seq;
    rc = trn_service_queue_op(svc, s, req->stream_id, op, seq, err, errlen);
    if (rc != TRN_WIRE_OK) { /* the op is gone without running: drop its reference and,
                                unless the session's end took the map, the map's */
        pthread_mutex_lock(&s->lock);
        st->refs--;
        if (st->in_map) {
            trn_idmap_remove(&s->stages, st->ticket);
            st->in_map = 0;
            st->refs--;
        }
        const int last = st->refs == 0;
        pthread_mutex_unlock(&s->lock);
        if (last)
            trn_stage_free(s, st);
    }
    return rc;

fail:
    trn_op_refs_release(&op->refs);
    trn_service_op_discard(op);
    free(st);
    return rc;
}

static trn_wire_code stage_code(trn_sched_status status, char *msg, size_t len) {
    switch (status) {
    case TRN_SCHED_OK: return TRN_WIRE_OK;
    case TRN_SCHED_EXPIRED:
        snprintf(msg, len, "the stage-out did not start before its deadline");
        return TRN_WIRE_DEADLINE_EXCEEDED;
    case TRN_SCHED_CANCELLED:
        snprintf(msg, len, "the stage-out was cancelled before it ran");
        return TRN_WIRE_CANCELLED;
    case TRN_SCHED_SHUTDOWN:
        snprintf(msg, len, "the daemon is shutting down; queued work was dropped");
        return TRN_WIRE_UNAVAILABLE;
    case TRN_SCHED_NO_MEMORY:
    case TRN_SCHED_KERNEL_FAILED:
    case TRN_SCHED_UNSUPPORTED: break;
    }
    snprintf(msg, len, "the stage-out copy failed");
    return TRN_WIRE_INTERNAL;
}

void trn_service_stage_done(trn_service_op *op, trn_sched_status status) {
    trn_session *s = op->session;
    trn_stage *st = op->stage;
    pthread_mutex_lock(&s->lock);
    st->code = stage_code(status, st->msg, sizeof(st->msg));
    st->done = 1;
    st->refs--; /* the op's */
    trn_call *reader = st->reader;
    st->reader = NULL;
    if (reader && st->in_map) { /* the Read takes the stage out of the map */
        trn_idmap_remove(&s->stages, st->ticket);
        st->in_map = 0;
        st->refs--;
    }
    const int last = st->refs == 0;
    pthread_mutex_unlock(&s->lock);
    if (reader)
        reply_stage(reader, st);
    if (last)
        trn_stage_free(s, st);
}

void trn_service_on_ticket_read(trn_service *svc, trn_session *s,
                                const Trnsci__V1__ReadRequest *req, trn_call *call) {
    (void)svc;
    char err[TRN_SERVICE_ERRLEN];
    pthread_mutex_lock(&s->lock);
    trn_stage *st = trn_idmap_get(&s->stages, req->ticket);
    trn_wire_code rc = TRN_WIRE_OK;
    if (!st) {
        snprintf(err, sizeof(err), "Read: no stage-out with ticket %llu is pending in this session",
                 (unsigned long long)req->ticket);
        rc = TRN_WIRE_NOT_FOUND;
    } else if (st->reader) {
        snprintf(err, sizeof(err), "Read: another Read is already waiting for ticket %llu",
                 (unsigned long long)req->ticket);
        rc = TRN_WIRE_ALREADY_EXISTS;
    } else if (st->done) { /* the op's reference is gone: the map's is the last */
        trn_idmap_remove(&s->stages, st->ticket);
        st->in_map = 0;
        st->refs--;
    } else {
        st->reader = call; /* trn_service_stage_done replies */
        st = NULL;
    }
    pthread_mutex_unlock(&s->lock);
    if (rc != TRN_WIRE_OK) {
        trn_service_finish_error(call, rc, err);
        return;
    }
    if (st) {
        reply_stage(call, st);
        trn_stage_free(s, st);
    }
}
