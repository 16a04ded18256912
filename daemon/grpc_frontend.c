/*
 * grpc_frontend.c — Trnsci over gRPC core (1.51 C API).
 *
 * One completion queue, polled by the daemon's main thread. For every
 * registered method one request is always posted; when it completes, a new
 * one is posted and the call is handed to the service. A generic request is
 * also always posted so that unknown methods get UNIMPLEMENTED instead of
 * hanging until their deadline.
 *
 * Call lifetime (fe_call.refs):
 *   unary call:  1 ref, dropped when the final batch (reply + status +
 *                RECV_CLOSE_ON_SERVER) completes.
 *   Attach:      1 ref held by the session (dropped by the status batch the
 *                session's close sends, or by us if the client leaves first)
 *                + 1 ref for the pending RECV_CLOSE_ON_SERVER.
 *   Launch:      1 ref for the stream, held by its pending RECV_MESSAGE and
 *                then by the final status batch + 1 ref per LaunchAck being
 *                sent. Batches are handled in order on this thread
 *                (service_launch.c); acks wait in a short queue, since gRPC
 *                takes one SEND_MESSAGE at a time.
 *
 * Authentication: with a tokens file, every call (known method or not) is
 * checked before anything else looks at it; a call without a valid bearer
 * token ends with UNAUTHENTICATED and a fixed message, so a probe learns
 * nothing about why (missing, malformed or unknown token are alike). The
 * call holds a reference to its token until it is freed, so a reload that
 * removes the token meanwhile (daemon/token_store.h) frees nothing under it.
 * TCP listeners use TLS credentials when configured (daemon/tls.h).
 *
 * grpc+unix sockets are the daemon's own (daemon/unix_socket.h: the local
 * socket's mode and group): its accept thread takes each connection,
 * records the client's kernel-checked uid, gid and pid, and hands it to
 * gRPC by descriptor; every call on it carries those credentials
 * (daemon/peer_fds.h), so grpc+unix clients count as their uid as local
 * ones do.
 */
#include "daemon/grpc_frontend.h"

#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_posix.h>
#include <grpc/grpc_security.h>
#include <grpc/support/alloc.h>
#include <grpc/support/log.h>
#include <grpc/support/time.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/lockfile.h"
#include "daemon/log.h"
#include "daemon/metrics.h"
#include "daemon/peer_fds.h"
#include "daemon/tls.h"
#include "daemon/token.h"
#include "daemon/token_store.h"
#include "daemon/unix_socket.h"
#include "scheduler/sched.h"
#include "trnsci_wire.h"

#define GENERIC_METHOD (-1)

typedef enum tag_kind {
    TAG_NEW,
    TAG_DONE,
    TAG_CLOSED,
    TAG_SHUTDOWN,
    TAG_LAUNCH_RECV, /* a LaunchBatch arrived (or the stream ended) */
    TAG_LAUNCH_SENT, /* a LaunchAck went out */
} tag_kind;

/* A LaunchAck waiting for the one before it to be sent. */
typedef struct fe_ack {
    struct fe_ack *next;
    uint8_t *body;
    size_t len;
} fe_ack;

/* Most acks a Launch stream may have waiting: a client waits for each
 * before its next fence (docs/protocol.md); more ends the stream. */
#define MAX_PENDING_ACKS 16

typedef struct fe_call fe_call;

typedef struct fe_tag {
    tag_kind kind;
    fe_call *call;
} fe_tag;

struct fe_call {
    trn_call base;
    trn_grpc_frontend *fe;
    int method; /* trn_wire_method, or GENERIC_METHOD */
    grpc_call *call;
    gpr_timespec deadline;
    grpc_metadata_array md;
    grpc_call_details details; /* generic calls only */
    grpc_byte_buffer *payload;
    grpc_byte_buffer *reply;
    grpc_slice status_details;
    int has_status_details;
    grpc_metadata end_reason; /* Attach: why the session ended (trailing metadata) */
    int has_end_reason;
    int sent_initial_md;
    int cancelled;
    atomic_int refs;
    trn_session *session; /* Attach: the attached session */
    /* Launch: acks queued behind the one being sent (c->reply). */
    fe_ack *acks, *acks_tail;
    int nacks, sending;
    fe_tag t_new, t_done, t_closed, t_recv, t_sent;
};

struct trn_grpc_frontend {
    trn_service *svc;
    grpc_server *server;
    grpc_completion_queue *cq;
    void *registered[TRN_WIRE_METHOD_COUNT];
    fe_tag t_shutdown;
    int shutting_down;
    int shutdown_done;
    atomic_int live_calls;
    int lock_fds[8];
    int nlocks;
    char *unix_paths[8];
    int npaths;
    trn_peer_fds *peers;               /* grpc+unix connections, or NULL */
    grpc_server_credentials *fd_creds; /* what they are handed to gRPC with */
};

static const char *const method_paths[TRN_WIRE_METHOD_COUNT] = {
#define TRN_WIRE_METHOD_PATH(name, path) [TRN_WIRE_##name] = path,
    TRNSCI_METHODS(TRN_WIRE_METHOD_PATH)
#undef TRN_WIRE_METHOD_PATH
};

static void fe_finish(trn_call *base, trn_wire_code code, const char *msg, uint8_t *body,
                      size_t len);
static void launch_start(fe_call *c);

static fe_call *call_new(trn_grpc_frontend *fe, int method) {
    fe_call *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->base.finish = fe_finish;
    c->base.transport = TRN_TRANSPORT_GRPC;
    c->base.reply_fd = -1;
    c->fe = fe;
    c->method = method;
    atomic_init(&c->refs, 1);
    grpc_metadata_array_init(&c->md);
    if (method == GENERIC_METHOD)
        grpc_call_details_init(&c->details);
    c->t_new = (fe_tag){TAG_NEW, c};
    c->t_done = (fe_tag){TAG_DONE, c};
    c->t_closed = (fe_tag){TAG_CLOSED, c};
    c->t_recv = (fe_tag){TAG_LAUNCH_RECV, c};
    c->t_sent = (fe_tag){TAG_LAUNCH_SENT, c};
    atomic_fetch_add(&fe->live_calls, 1);
    return c;
}

static void call_unref(fe_call *c) {
    if (atomic_fetch_sub(&c->refs, 1) != 1)
        return;
    trn_grpc_frontend *fe = c->fe;
    if (c->call)
        grpc_call_unref(c->call);
    grpc_metadata_array_destroy(&c->md);
    if (c->method == GENERIC_METHOD)
        grpc_call_details_destroy(&c->details);
    if (c->payload)
        grpc_byte_buffer_destroy(c->payload);
    if (c->reply)
        grpc_byte_buffer_destroy(c->reply);
    if (c->has_status_details)
        grpc_slice_unref(c->status_details);
    if (c->has_end_reason) {
        grpc_slice_unref(c->end_reason.key);
        grpc_slice_unref(c->end_reason.value);
    }
    if (c->base.peer.token)
        trn_token_unref(c->base.peer.token);
    for (fe_ack *a = c->acks, *next; a; a = next) {
        next = a->next;
        free(a->body);
        free(a);
    }
    free(c);
    atomic_fetch_sub(&fe->live_calls, 1);
}

/* Posts the request that will receive the next call of `method`. */
static void post_request(trn_grpc_frontend *fe, int method) {
    if (fe->shutting_down)
        return;
    fe_call *c = call_new(fe, method);
    if (!c) {
        trn_log(TRN_LOG_ERROR, "out of memory posting a gRPC request");
        return;
    }
    grpc_call_error e;
    if (method == GENERIC_METHOD)
        e = grpc_server_request_call(fe->server, &c->call, &c->details, &c->md, fe->cq, fe->cq,
                                     &c->t_new);
    else
        e = grpc_server_request_registered_call(
            fe->server, fe->registered[method], &c->call, &c->deadline, &c->md,
            method == TRN_WIRE_LAUNCH ? NULL : &c->payload, fe->cq, fe->cq, &c->t_new);
    if (e != GRPC_CALL_OK) {
        trn_log(TRN_LOG_ERROR, "gRPC request_call failed (%d)", (int)e);
        call_unref(c);
    }
}

/* Completes a call: from any thread, exactly once per call. */
static void fe_finish(trn_call *base, trn_wire_code code, const char *msg, uint8_t *body,
                      size_t len) {
    fe_call *c = (fe_call *)base;
    if (c->fe->svc->metrics)
        trn_metrics_sent(c->fe->svc->metrics, TRN_TRANSPORT_GRPC,
                         code == TRN_WIRE_OK ? len : (msg ? strlen(msg) : 0));
    if (c->base.reply_fd >= 0) { /* gRPC cannot carry descriptors */
        close(c->base.reply_fd);
        c->base.reply_fd = -1;
    }
    grpc_op ops[4];
    size_t n = 0;
    memset(ops, 0, sizeof(ops));
    if (!c->sent_initial_md) {
        ops[n].op = GRPC_OP_SEND_INITIAL_METADATA;
        n++;
        c->sent_initial_md = 1;
    }
    /* A successful Attach is a stream with no messages whose
     * RECV_CLOSE_ON_SERVER is already pending (start_attach_stream). */
    const int streaming = c->method == TRN_WIRE_ATTACH && code == TRN_WIRE_OK;
    if (code == TRN_WIRE_OK && !streaming) {
        grpc_slice slice = len ? grpc_slice_new(body, len, free) : grpc_empty_slice();
        c->reply = grpc_raw_byte_buffer_create(&slice, 1);
        grpc_slice_unref(slice);
        ops[n].op = GRPC_OP_SEND_MESSAGE;
        ops[n].data.send_message.send_message = c->reply;
        n++;
    } else {
        free(body);
    }
    c->status_details = grpc_slice_from_copied_string(msg ? msg : "");
    c->has_status_details = 1;
    ops[n].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
    ops[n].data.send_status_from_server.status = (grpc_status_code)code;
    ops[n].data.send_status_from_server.status_details = &c->status_details;
    ops[n].data.send_status_from_server.trailing_metadata_count = 0;
    if (streaming && msg && *msg) { /* the session ended: say why */
        c->end_reason.key = grpc_slice_from_static_string(TRN_ATTACH_END_REASON_KEY);
        c->end_reason.value = grpc_slice_from_copied_string(msg);
        c->has_end_reason = 1;
        ops[n].data.send_status_from_server.trailing_metadata_count = 1;
        ops[n].data.send_status_from_server.trailing_metadata = &c->end_reason;
    }
    n++;
    if (!streaming) {
        ops[n].op = GRPC_OP_RECV_CLOSE_ON_SERVER;
        ops[n].data.recv_close_on_server.cancelled = &c->cancelled;
        n++;
    }
    const grpc_call_error e = grpc_call_start_batch(c->call, ops, n, &c->t_done, NULL);
    if (e != GRPC_CALL_OK) {
        trn_log(TRN_LOG_ERROR, "gRPC start_batch for a reply failed (%d)", (int)e);
        call_unref(c);
    }
}

/* Copies the request payload into one contiguous slice. */
static grpc_slice payload_slice(fe_call *c) {
    if (!c->payload)
        return grpc_empty_slice();
    grpc_byte_buffer_reader reader;
    if (!grpc_byte_buffer_reader_init(&reader, c->payload))
        return grpc_empty_slice();
    grpc_slice s = grpc_byte_buffer_reader_readall(&reader);
    grpc_byte_buffer_reader_destroy(&reader);
    return s;
}

static void start_attach_stream(fe_call *c) {
    grpc_op ops[2];
    memset(ops, 0, sizeof(ops));
    ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
    ops[1].op = GRPC_OP_RECV_CLOSE_ON_SERVER;
    ops[1].data.recv_close_on_server.cancelled = &c->cancelled;
    c->sent_initial_md = 1;
    atomic_fetch_add(&c->refs, 1); /* for TAG_CLOSED */
    if (grpc_call_start_batch(c->call, ops, 2, &c->t_closed, NULL) != GRPC_CALL_OK) {
        trn_log(TRN_LOG_ERROR, "gRPC start_batch for Attach failed");
        call_unref(c);
        if (trn_service_detach(c->fe->svc, c->session, &c->base))
            call_unref(c);
    }
}

/* A gRPC deadline on the scheduler's clock (0 when the call has none). */
static uint64_t deadline_ns(gpr_timespec deadline) {
    const gpr_timespec now = gpr_now(GPR_CLOCK_MONOTONIC);
    const gpr_timespec d = gpr_convert_clock_type(deadline, GPR_CLOCK_MONOTONIC);
    if (gpr_time_cmp(d, gpr_inf_future(GPR_CLOCK_MONOTONIC)) == 0)
        return 0;
    const gpr_timespec left = gpr_time_sub(d, now);
    const int64_t ns = left.tv_sec < 0 ? 0 : left.tv_sec * 1000000000ll + left.tv_nsec;
    return trn_sched_now_ns() + (uint64_t)(ns > 0 ? ns : 1);
}

/* The token of the call's `authorization` metadata with a reference, or
 * NULL. */
static trn_token *call_token(trn_token_store *tokens, const grpc_metadata_array *md) {
    for (size_t i = 0; i < md->count; i++) {
        const grpc_slice k = md->metadata[i].key;
        if (GRPC_SLICE_LENGTH(k) == 13 && memcmp(GRPC_SLICE_START_PTR(k), "authorization", 13) == 0)
            return trn_token_store_authenticate(
                tokens, (const char *)GRPC_SLICE_START_PTR(md->metadata[i].value),
                GRPC_SLICE_LENGTH(md->metadata[i].value));
    }
    return NULL;
}

static void on_new_call(fe_call *c, int ok) {
    trn_grpc_frontend *fe = c->fe;
    if (!ok) { /* the server is shutting down: no call was received */
        call_unref(c);
        return;
    }
    post_request(fe, c->method);
    if (fe->peers) { /* who a grpc+unix caller is: its connection's credentials */
        char *peer = grpc_call_get_peer(c->call);
        const int found = peer ? trn_peer_fds_lookup(fe->peers, peer, &c->base.peer) : -1;
        gpr_free(peer);
        if (found < 0) {
            fe_finish(&c->base, TRN_WIRE_INTERNAL,
                      "the daemon cannot tell whose connection this is", NULL, 0);
            return;
        }
    }
    trn_token_store *tokens = fe->svc->tokens;
    if (tokens && trn_token_store_required(tokens)) {
        c->base.peer.token = call_token(tokens, &c->md);
        if (!c->base.peer.token) {
            fe_finish(&c->base, TRN_WIRE_UNAUTHENTICATED, "unauthenticated", NULL, 0);
            return;
        }
    }
    if (c->method == GENERIC_METHOD) {
        char msg[256];
        char *m = grpc_slice_to_c_string(c->details.method);
        snprintf(msg, sizeof(msg), "method %s is not part of the trnsci.v1.Trnsci service", m);
        gpr_free(m);
        fe_finish(&c->base, TRN_WIRE_UNIMPLEMENTED, msg, NULL, 0);
        return;
    }
    c->base.deadline_ns = deadline_ns(c->deadline);
    grpc_slice req = payload_slice(c);
    const uint8_t *bytes = GRPC_SLICE_START_PTR(req);
    const size_t len = GRPC_SLICE_LENGTH(req);
    if (c->method == TRN_WIRE_LAUNCH) {
        launch_start(c);
    } else if (c->method == TRN_WIRE_ATTACH) {
        c->session = trn_service_attach(fe->svc, bytes, len, &c->base);
        if (c->session)
            start_attach_stream(c);
    } else {
        trn_service_handle(fe->svc, (trn_wire_method)c->method, bytes, len, &c->base);
    }
    grpc_slice_unref(req);
}

/* ---- Launch streams ------------------------------------------------------------ */

/* Ends a Launch stream with code and msg (its last ref goes with the batch). */
static void launch_end(fe_call *c, trn_wire_code code, const char *msg) {
    grpc_op ops[2];
    memset(ops, 0, sizeof(ops));
    c->status_details = grpc_slice_from_copied_string(msg ? msg : "");
    c->has_status_details = 1;
    ops[0].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
    ops[0].data.send_status_from_server.status = (grpc_status_code)code;
    ops[0].data.send_status_from_server.status_details = &c->status_details;
    ops[1].op = GRPC_OP_RECV_CLOSE_ON_SERVER;
    ops[1].data.recv_close_on_server.cancelled = &c->cancelled;
    if (grpc_call_start_batch(c->call, ops, 2, &c->t_done, NULL) != GRPC_CALL_OK) {
        trn_log(TRN_LOG_ERROR, "gRPC start_batch ending a Launch stream failed");
        call_unref(c);
    }
}

/* Posts the read of the stream's next LaunchBatch (with the initial
 * metadata the first time). */
static void launch_read(fe_call *c) {
    grpc_op ops[2];
    size_t n = 0;
    memset(ops, 0, sizeof(ops));
    if (!c->sent_initial_md) {
        ops[n++].op = GRPC_OP_SEND_INITIAL_METADATA;
        c->sent_initial_md = 1;
    }
    ops[n].op = GRPC_OP_RECV_MESSAGE;
    ops[n].data.recv_message.recv_message = &c->payload;
    n++;
    if (grpc_call_start_batch(c->call, ops, n, &c->t_recv, NULL) != GRPC_CALL_OK) {
        trn_log(TRN_LOG_ERROR, "gRPC start_batch reading a Launch stream failed");
        launch_end(c, TRN_WIRE_INTERNAL, "the daemon could not read the stream");
    }
}

static void launch_start(fe_call *c) {
    launch_read(c);
}

/* Sends the first queued ack (c->sending: one at a time). */
static void launch_send_next(fe_call *c) {
    fe_ack *a = c->acks;
    if (!a || c->sending)
        return;
    c->acks = a->next;
    if (!c->acks)
        c->acks_tail = NULL;
    c->nacks--;
    grpc_slice slice = grpc_slice_new(a->body, a->len, free);
    free(a);
    c->reply = grpc_raw_byte_buffer_create(&slice, 1);
    grpc_slice_unref(slice);
    grpc_op op;
    memset(&op, 0, sizeof(op));
    op.op = GRPC_OP_SEND_MESSAGE;
    op.data.send_message.send_message = c->reply;
    atomic_fetch_add(&c->refs, 1); /* for TAG_LAUNCH_SENT */
    c->sending = 1;
    if (grpc_call_start_batch(c->call, &op, 1, &c->t_sent, NULL) != GRPC_CALL_OK) {
        grpc_byte_buffer_destroy(c->reply);
        c->reply = NULL;
        c->sending = 0;
        call_unref(c);
    }
}

static void on_launch_sent(fe_call *c) {
    if (c->reply)
        grpc_byte_buffer_destroy(c->reply);
    c->reply = NULL;
    c->sending = 0;
    launch_send_next(c);
    call_unref(c);
}

/* Queues an ack (taking body); -1 when too many wait already. */
static int launch_queue_ack(fe_call *c, uint8_t *body, size_t len) {
    fe_ack *a = c->nacks < MAX_PENDING_ACKS ? malloc(sizeof(*a)) : NULL;
    if (!a) {
        free(body);
        return -1;
    }
    *a = (fe_ack){NULL, body, len};
    if (c->acks_tail)
        c->acks_tail->next = a;
    else
        c->acks = a;
    c->acks_tail = a;
    c->nacks++;
    launch_send_next(c);
    return 0;
}

static void on_launch_recv(fe_call *c, int ok) {
    if (!ok || !c->payload) { /* the client closed its side, or the call ended */
        launch_end(c, TRN_WIRE_OK, "");
        return;
    }
    grpc_slice req = payload_slice(c);
    grpc_byte_buffer_destroy(c->payload);
    c->payload = NULL;
    uint8_t *ack = NULL;
    size_t ack_len = 0;
    char msg[320] = "";
    const trn_wire_code rc =
        trn_service_launch(c->fe->svc, GRPC_SLICE_START_PTR(req), GRPC_SLICE_LENGTH(req), &c->base,
                           &ack, &ack_len, msg, sizeof(msg));
    grpc_slice_unref(req);
    if (rc != TRN_WIRE_OK) {
        launch_end(c, rc, msg);
        return;
    }
    if (ack && c->fe->svc->metrics)
        trn_metrics_sent(c->fe->svc->metrics, TRN_TRANSPORT_GRPC, ack_len);
    if (ack && launch_queue_ack(c, ack, ack_len) != 0) {
        launch_end(c, TRN_WIRE_RESOURCE_EXHAUSTED,
                   "Launch: more than 16 fences wait for their acks (send a fence only after "
                   "the previous one's LaunchAck)");
        return;
    }
    launch_read(c);
}

static void on_attach_closed(fe_call *c) {
    if (trn_service_detach(c->fe->svc, c->session, &c->base))
        call_unref(c); /* the session's reference: it will never finish us */
    c->session = NULL;
    call_unref(c);
}

void trn_grpc_frontend_poll(trn_grpc_frontend *fe, int timeout_ms) {
    gpr_timespec deadline =
        gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC), gpr_time_from_millis(timeout_ms, GPR_TIMESPAN));
    for (;;) {
        grpc_event ev = grpc_completion_queue_next(fe->cq, deadline, NULL);
        if (ev.type != GRPC_OP_COMPLETE) {
            if (ev.type == GRPC_QUEUE_TIMEOUT && fe->peers)
                trn_peer_fds_drained(fe->peers); /* every call so far was attributed */
            return;
        }
        fe_tag *tag = ev.tag;
        switch (tag->kind) {
        case TAG_NEW: on_new_call(tag->call, ev.success); break;
        case TAG_DONE: call_unref(tag->call); break;
        case TAG_CLOSED: on_attach_closed(tag->call); break;
        case TAG_SHUTDOWN: fe->shutdown_done = 1; break;
        case TAG_LAUNCH_RECV: on_launch_recv(tag->call, ev.success); break;
        case TAG_LAUNCH_SENT: on_launch_sent(tag->call); break;
        }
        /* Drain whatever else is ready without waiting again. */
        deadline = gpr_time_0(GPR_CLOCK_MONOTONIC);
    }
}

static int bind_address(trn_grpc_frontend *fe, grpc_server_credentials *tcp_creds, const char *addr,
                        char *err, size_t errlen) {
    /* "grpc+unix:/path" is gRPC's "unix:/path". */
    const int is_unix = strncmp(addr, "grpc+unix:", 10) == 0;
    char tcp_target[300];
    const char *target = is_unix ? addr + 5 : tcp_target;
    if (!is_unix) {
        if (trn_listen_target(addr, tcp_target, sizeof(tcp_target)) != 0) {
            snprintf(err, errlen, "--listen %s: address too long", addr);
            return -1;
        }
        if (trn_listen_check(fe->svc->cfg, tcp_target, err, errlen) != 0)
            return -1;
    }
    if (is_unix) {
        if (fe->nlocks == (int)(sizeof(fe->lock_fds) / sizeof(fe->lock_fds[0]))) {
            snprintf(err, errlen, "too many unix listen addresses");
            return -1;
        }
        const int fd = trn_lockfile_acquire(addr + 10, err, errlen);
        if (fd < 0)
            return -1;
        fe->lock_fds[fe->nlocks++] = fd;
        /* The daemon accepts these itself, to know who connects. */
        if (!fe->peers && !(fe->peers = trn_peer_fds_create())) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        const int lfd =
            trn_unix_listen(addr + 10, fe->svc->cfg->socket_group, "grpc+unix", err, errlen);
        if (lfd < 0)
            return -1;
        fe->unix_paths[fe->npaths++] = strdup(addr + 10);
        if (trn_peer_fds_add_listener(fe->peers, lfd, addr) != 0) {
            close(lfd);
            snprintf(err, errlen, "too many grpc+unix listen addresses");
            return -1;
        }
        trn_log(TRN_LOG_INFO, "listening on %s (gRPC)", addr);
        return 0;
    }
    const int port = grpc_server_add_http2_port(fe->server, target, tcp_creds);
    if (port == 0) {
        snprintf(err, errlen,
                 "cannot listen on %s: the address is in use (another trnscid?) or not "
                 "available",
                 addr);
        return -1;
    }
    trn_log(TRN_LOG_INFO, "listening on %s (gRPC%s, port %d)", target,
            fe->svc->cfg->tls_cert ? fe->svc->cfg->tls_client_ca ? " over TLS, client "
                                                                   "certificates required"
                                                                 : " over TLS"
                                   : "",
            port);
    if (!fe->svc->cfg->tls_cert && !trn_listen_is_loopback(target))
        trn_log(TRN_LOG_WARN, "%s is reachable from the network WITHOUT TLS (--insecure-remote)",
                target);
    if (!fe->svc->cfg->tokens_file)
        trn_log(TRN_LOG_WARN,
                "%s takes calls WITHOUT tokens (--allow-unauthenticated-tcp): any user who can "
                "reach it gets in, around the local socket's permissions, and its sessions are "
                "held to no per-user limit",
                target);
    return 0;
}

/* The accept thread's hand-over of a grpc+unix connection (peer_fds.h). */
static void serve_fd(void *ctx, int fd) {
    trn_grpc_frontend *fe = ctx;
    grpc_server_add_channel_from_fd(fe->server, fd, fe->fd_creds);
}

trn_grpc_frontend *trn_grpc_frontend_start(trn_service *svc, char *const *addrs, int naddrs,
                                           char *err, size_t errlen) {
    trn_grpc_frontend *fe = calloc(1, sizeof(*fe));
    if (!fe) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    fe->svc = svc;
    atomic_init(&fe->live_calls, 0);
    fe->t_shutdown = (fe_tag){TAG_SHUTDOWN, NULL};
    gpr_set_log_verbosity(GPR_LOG_SEVERITY_ERROR);
    grpc_init();

    grpc_arg args[5];
    memset(args, 0, sizeof(args));
    args[0].type = GRPC_ARG_INTEGER;
    args[0].key = GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
    args[0].value.integer = (int)TRNSCI_WIRE_MAX_MESSAGE_BYTES;
    args[1].type = GRPC_ARG_INTEGER;
    args[1].key = GRPC_ARG_MAX_SEND_MESSAGE_LENGTH;
    args[1].value.integer = (int)TRNSCI_WIRE_MAX_MESSAGE_BYTES;
    args[2].type = GRPC_ARG_INTEGER;
    args[2].key = GRPC_ARG_ALLOW_REUSEPORT; /* a second daemon must not share the port */
    args[2].value.integer = 0;
    /* Keepalive pings: clients may ping as often as once a second, with or
     * without calls (gRPC's default, one per 5 minutes, answers a 1 s pinger
     * with GOAWAY too_many_pings after three pings, which ends its Attach
     * stream and so its session). 500 ms leaves room for a 1 s timer's
     * jitter; faster pingers still get strikes. docs/protocol.md. */
    args[3].type = GRPC_ARG_INTEGER;
    args[3].key = GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS;
    args[3].value.integer = TRN_GRPC_MIN_PING_INTERVAL_MS;
    args[4].type = GRPC_ARG_INTEGER;
    args[4].key = GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS;
    args[4].value.integer = 1;
    const grpc_channel_args chargs = {5, args};
    fe->server = grpc_server_create(&chargs, NULL);
    fe->cq = grpc_completion_queue_create_for_next(NULL);
    grpc_server_register_completion_queue(fe->server, fe->cq, NULL);
    for (int m = 0; m < TRN_WIRE_METHOD_COUNT; m++) /* Launch is a stream: its messages
                                                         are read one by one */
        fe->registered[m] = grpc_server_register_method(
            fe->server, method_paths[m], NULL,
            m == TRN_WIRE_LAUNCH ? GRPC_SRM_PAYLOAD_NONE
                                 : GRPC_SRM_PAYLOAD_READ_INITIAL_BYTE_BUFFER,
            0);

    grpc_server_credentials *creds = trn_tls_server_credentials(svc->cfg, err, errlen);
    int rc = creds ? 0 : -1;
    for (int i = 0; i < naddrs && rc == 0; i++)
        rc = bind_address(fe, creds, addrs[i], err, errlen);
    if (creds)
        grpc_server_credentials_release(creds);
    if (rc != 0) {
        fe->shutting_down = 1;
        grpc_server_start(fe->server);
        grpc_server_shutdown_and_notify(fe->server, fe->cq, &fe->t_shutdown);
        while (!fe->shutdown_done)
            trn_grpc_frontend_poll(fe, 100);
        trn_grpc_frontend_destroy(fe);
        return NULL;
    }
    grpc_server_start(fe->server);
    for (int m = 0; m < TRN_WIRE_METHOD_COUNT; m++)
        post_request(fe, m);
    post_request(fe, GENERIC_METHOD);
    if (fe->peers) {
        fe->fd_creds = grpc_insecure_server_credentials_create();
        if (trn_peer_fds_start(fe->peers, serve_fd, fe, err, errlen) != 0) {
            trn_grpc_frontend_begin_shutdown(fe);
            while (!fe->shutdown_done)
                trn_grpc_frontend_poll(fe, 100);
            trn_grpc_frontend_destroy(fe);
            return NULL;
        }
    }
    return fe;
}

void trn_grpc_frontend_begin_shutdown(trn_grpc_frontend *fe) {
    if (fe->shutting_down)
        return;
    fe->shutting_down = 1;
    if (fe->peers) /* no connection is handed to a server that is shutting down */
        trn_peer_fds_stop(fe->peers);
    grpc_server_shutdown_and_notify(fe->server, fe->cq, &fe->t_shutdown);
}

int trn_grpc_frontend_idle(trn_grpc_frontend *fe) {
    return fe->shutdown_done && atomic_load(&fe->live_calls) == 0;
}

void trn_grpc_frontend_cancel_all(trn_grpc_frontend *fe) {
    grpc_server_cancel_all_calls(fe->server);
}

void trn_grpc_frontend_destroy(trn_grpc_frontend *fe) {
    if (!fe)
        return;
    grpc_server_destroy(fe->server);
    grpc_completion_queue_shutdown(fe->cq);
    for (;;) {
        grpc_event ev =
            grpc_completion_queue_next(fe->cq, gpr_inf_future(GPR_CLOCK_MONOTONIC), NULL);
        if (ev.type == GRPC_QUEUE_SHUTDOWN)
            break;
    }
    grpc_completion_queue_destroy(fe->cq);
    for (int i = 0; i < fe->npaths; i++) {
        unlink(fe->unix_paths[i]);
        free(fe->unix_paths[i]);
    }
    for (int i = 0; i < fe->nlocks; i++)
        close(fe->lock_fds[i]);
    trn_peer_fds_destroy(fe->peers);
    if (fe->fd_creds)
        grpc_server_credentials_release(fe->fd_creds);
    free(fe);
    grpc_shutdown();
}
