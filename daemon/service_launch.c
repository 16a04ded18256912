/*
 * service_launch.c — the batches of a Launch stream: asynchronous launch
 * over gRPC (protocol 1.10).
 *
 * A client keeps one Launch stream per session and sends its launches on it
 * in LaunchBatch messages. Each submit of a batch goes through the very
 * Submit handler a unary call does, as a call nobody waits for: a refusal is
 * kept for the op's stream (session_errors.c) and reported by its next
 * Synchronize. A batch with a fence is answered once its submits (and so
 * every earlier one: the stream is read in order) are queued, with the
 * session's queued-op count, which is how the client keeps within
 * --max-queued-ops without being refused (docs/protocol.md, Launch).
 */
#include <stdio.h>
#include <stdlib.h>

#include "daemon/log.h"
#include "daemon/metrics.h"
#include "daemon/service.h"
#include "daemon/service_internal.h"

/* A submit's call: the stream's peer, no reply; what it finished with is
 * kept for the batch (a session that does not exist ends the stream). */
typedef struct launch_call {
    trn_call base;
    trn_wire_code code;
    char msg[256];
} launch_call;

static void launch_finish(trn_call *base, trn_wire_code code, const char *msg, uint8_t *body,
                          size_t len) {
    (void)len;
    launch_call *lc = (launch_call *)base;
    free(body);
    lc->code = code;
    snprintf(lc->msg, sizeof(lc->msg), "%s", msg ? msg : "");
}

static void launch_call_init(launch_call *lc, const trn_call *stream) {
    *lc = (launch_call){0};
    lc->base.finish = launch_finish;
    lc->base.transport = stream->transport;
    lc->base.peer = stream->peer;
    lc->base.reply_fd = -1;
    lc->base.no_reply = 1;
}

/* The session's queued-op count and limit into a packed LaunchAck. */
static trn_wire_code pack_ack(trn_service *svc, const Trnsci__V1__LaunchBatch *b,
                              const trn_call *stream, uint8_t **ack, size_t *ack_len, char *msg,
                              size_t msglen) {
    launch_call lc;
    launch_call_init(&lc, stream);
    lc.base.no_reply = 0;
    trn_session *s = trn_service_session(svc, b->session_id, &lc.base);
    if (!s) {
        snprintf(msg, msglen, "%s", lc.msg);
        return lc.code;
    }
    Trnsci__V1__LaunchAck a = TRNSCI__V1__LAUNCH_ACK__INIT;
    a.fence = b->fence;
    pthread_mutex_lock(&s->lock);
    a.ops_pending = s->ops_pending;
    pthread_mutex_unlock(&s->lock);
    a.max_queued_ops = svc->cfg->max_queued_ops;
    trn_session_unref(s);
    *ack_len = trnsci__v1__launch_ack__get_packed_size(&a);
    *ack = malloc(*ack_len ? *ack_len : 1);
    if (!*ack) {
        snprintf(msg, msglen, "daemon out of memory acknowledging a launch batch");
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    trnsci__v1__launch_ack__pack(&a, *ack);
    return TRN_WIRE_OK;
}

trn_wire_code trn_service_launch(trn_service *svc, const uint8_t *req, size_t len,
                                 const trn_call *stream, uint8_t **ack, size_t *ack_len, char *msg,
                                 size_t msglen) {
    *ack = NULL;
    *ack_len = 0;
    if (svc->metrics)
        trn_metrics_received(svc->metrics, stream->transport, len);
    if (atomic_load(&svc->draining)) {
        snprintf(msg, msglen, "the daemon is shutting down");
        return TRN_WIRE_UNAVAILABLE;
    }
    Trnsci__V1__LaunchBatch *b = trnsci__v1__launch_batch__unpack(NULL, len, req);
    if (!b) {
        snprintf(msg, msglen, "malformed Launch message: the body is not a valid LaunchBatch");
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    trn_wire_code rc = TRN_WIRE_OK;
    for (size_t i = 0; i < b->n_submits && rc == TRN_WIRE_OK; i++) {
        const Trnsci__V1__SubmitRequest *sub = b->submits[i];
        if (sub->session_id != b->session_id) {
            snprintf(msg, msglen,
                     "Launch: submit %zu of the batch names session %016llx, the batch %016llx", i,
                     (unsigned long long)sub->session_id, (unsigned long long)b->session_id);
            rc = TRN_WIRE_INVALID_ARGUMENT;
            break;
        }
        launch_call lc;
        launch_call_init(&lc, stream);
        trn_service_on_submit(svc, sub, &lc.base);
        /* A refusal of the op was kept for its stream; one of the session
         * (gone, not the caller's) or of the caller ends the stream. */
        if (lc.code == TRN_WIRE_ABORTED || lc.code == TRN_WIRE_UNAUTHENTICATED) {
            snprintf(msg, msglen, "%s", lc.msg);
            rc = lc.code;
        }
    }
    trn_service_kick(svc);
    if (rc == TRN_WIRE_OK && b->fence)
        rc = pack_ack(svc, b, stream, ack, ack_len, msg, msglen);
    trnsci__v1__launch_batch__free_unpacked(b, NULL);
    return rc;
}
