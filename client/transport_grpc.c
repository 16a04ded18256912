/*
 * transport_grpc.c — the client's gRPC transport (gRPC core 1.51 C API).
 *
 * Each unary call uses its own pluck completion queue, so any number of
 * application threads can call concurrently. The Attach stream is started
 * once per session and never polled: the daemon watches it, and when this
 * process exits or crashes the kernel closes the connection, which ends the
 * stream and releases the session at once.
 *
 * Asynchronous launches go on the session's Launch stream (grpc_launch.h),
 * opened on the first one; a unary call made while launches are not yet
 * known to be queued fences the stream first, so the daemon takes it after
 * them.
 *
 * Credentials (client/credentials.h): TCP targets use TLS when TRNSCI_TLS_CA
 * is set; every call carries `authorization: Bearer <token>` when a token is
 * configured. If the environment names credentials that cannot be used, the
 * transport fails every call instead of connecting without them.
 */
#include "client/credentials.h"
#include "client/grpc_launch.h"
#include "client/transport.h"

#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/support/alloc.h>
#include <grpc/support/log.h>
#include <grpc/support/time.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What every call on a channel carries: the bearer token as call metadata
 * (count 0: none); error non-empty: the environment names credentials that
 * cannot be used, and every call fails with it. */
typedef struct call_auth {
    grpc_metadata md;
    size_t count;
    char error[256];
} call_auth;

typedef struct grpc_transport {
    trn_transport base;
    grpc_channel *channel;
    char *target;
    /* The Attach stream. */
    grpc_call *attach_call;
    grpc_completion_queue *attach_cq;
    grpc_metadata_array attach_md, attach_trailing;
    grpc_status_code attach_status;
    grpc_slice attach_details;
    grpc_byte_buffer *attach_req;
    call_auth auth;
    /* The Launch stream, made on the first launch (under launch_lock). */
    pthread_mutex_t launch_lock;
    trn_grpc_launch *_Atomic launch;
} grpc_transport;

static const trn_transport_ops grpc_ops;

static const char *const method_paths[TRN_WIRE_METHOD_COUNT] = {
#define TRN_WIRE_METHOD_PATH(name, path) [TRN_WIRE_##name] = path,
    TRNSCI_METHODS(TRN_WIRE_METHOD_PATH)
#undef TRN_WIRE_METHOD_PATH
};

static pthread_once_t grpc_once = PTHREAD_ONCE_INIT;

static void grpc_start(void) {
    gpr_set_log_verbosity(GPR_LOG_SEVERITY_ERROR);
    grpc_init();
}

/* A channel to target with the credentials cc (TLS on TCP when it has a CA),
 * filling auth with what its calls must carry. cc stays the caller's. */
static grpc_channel *open_channel(const char *target, const grpc_channel_args *args,
                                  const trn_client_creds *cc, call_auth *auth) {
    memset(auth, 0, sizeof(*auth));
    snprintf(auth->error, sizeof(auth->error), "%s", cc->error);
    if (cc->token) {
        char *value = malloc(strlen(cc->token) + 8);
        if (value) {
            sprintf(value, "Bearer %s", cc->token);
            auth->md.key = grpc_slice_from_static_string("authorization");
            auth->md.value = grpc_slice_from_copied_string(value);
            auth->count = 1;
            memset(value, 0, strlen(value));
            free(value);
        }
    }
    /* Unix sockets are protected by the kernel; TLS is for TCP. */
    const int tls = cc->ca_pem && strncmp(target, "unix:", 5) != 0;
    grpc_ssl_pem_key_cert_pair pair = {.private_key = cc->key_pem, .cert_chain = cc->cert_pem};
    grpc_channel_credentials *creds =
        tls ? grpc_ssl_credentials_create(cc->ca_pem, cc->cert_pem ? &pair : NULL, NULL, NULL)
            : grpc_insecure_credentials_create();
    grpc_channel *ch = grpc_channel_create(target, creds, args);
    grpc_channel_credentials_release(creds);
    return ch;
}

static void call_auth_release(call_auth *auth) {
    if (auth->count) {
        grpc_slice_unref(auth->md.key);
        grpc_slice_unref(auth->md.value);
    }
    memset(auth, 0, sizeof(*auth));
}

trn_transport *trn_transport_grpc_open(const char *target) {
    pthread_once(&grpc_once, grpc_start);
    grpc_transport *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    t->base.ops = &grpc_ops;
    pthread_mutex_init(&t->launch_lock, NULL);
    t->target = strdup(target);
    grpc_arg args[3];
    memset(args, 0, sizeof(args));
    args[0].type = GRPC_ARG_INTEGER;
    args[0].key = GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
    args[0].value.integer = (int)TRNSCI_WIRE_MAX_MESSAGE_BYTES;
    args[1].type = GRPC_ARG_INTEGER;
    args[1].key = GRPC_ARG_MAX_SEND_MESSAGE_LENGTH;
    args[1].value.integer = (int)TRNSCI_WIRE_MAX_MESSAGE_BYTES;
    /* Connections are this transport's own: never shared with another
     * transport of the process that may carry other credentials, and not
     * held back by another one's reconnect backoff. */
    args[2].type = GRPC_ARG_INTEGER;
    args[2].key = GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL;
    args[2].value.integer = 1;
    const grpc_channel_args chargs = {3, args};
    trn_client_creds cc;
    trn_client_creds_from_env(&cc);
    t->channel = open_channel(target, &chargs, &cc, &t->auth);
    trn_client_creds_free(&cc);
    if (!t->target || !t->channel) {
        if (t->channel)
            grpc_channel_destroy(t->channel);
        call_auth_release(&t->auth);
        free(t->target);
        free(t);
        return NULL;
    }
    return &t->base;
}

static grpc_byte_buffer *pack(const ProtobufCMessage *msg) {
    const size_t len = protobuf_c_message_get_packed_size(msg);
    grpc_slice slice = grpc_slice_malloc(len);
    protobuf_c_message_pack(msg, GRPC_SLICE_START_PTR(slice));
    grpc_byte_buffer *bb = grpc_raw_byte_buffer_create(&slice, 1);
    grpc_slice_unref(slice);
    return bb;
}

static ProtobufCMessage *unpack(const ProtobufCMessageDescriptor *desc, grpc_byte_buffer *bb) {
    grpc_byte_buffer_reader reader;
    if (!bb || !grpc_byte_buffer_reader_init(&reader, bb))
        return NULL;
    grpc_slice s = grpc_byte_buffer_reader_readall(&reader);
    grpc_byte_buffer_reader_destroy(&reader);
    ProtobufCMessage *m =
        protobuf_c_message_unpack(desc, NULL, GRPC_SLICE_LENGTH(s), GRPC_SLICE_START_PTR(s));
    grpc_slice_unref(s);
    return m;
}

static gpr_timespec deadline_of(int timeout_ms) {
    if (timeout_ms < 0)
        return gpr_inf_future(GPR_CLOCK_REALTIME);
    return gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC),
                        gpr_time_from_millis(timeout_ms, GPR_TIMESPAN));
}

/* One unary call on channel carrying auth's metadata; with peer not NULL,
 * also the address of the server that answered (grpc_call_get_peer:
 * "ipv4:10.0.0.7:7450"). */
static trn_wire_code unary_on(grpc_channel *channel, const call_auth *auth, trn_wire_method method,
                              const ProtobufCMessage *req,
                              const ProtobufCMessageDescriptor *reply_desc,
                              ProtobufCMessage **reply, char *msg, size_t msglen, int timeout_ms,
                              char *peer, size_t peerlen) {
    if (auth->error[0]) {
        snprintf(msg, msglen, "%s", auth->error);
        return TRN_WIRE_UNAVAILABLE;
    }
    grpc_completion_queue *cq = grpc_completion_queue_create_for_pluck(NULL);
    grpc_slice path = grpc_slice_from_static_string(method_paths[method]);
    grpc_call *call = grpc_channel_create_call(channel, NULL, GRPC_PROPAGATE_DEFAULTS, cq, path,
                                               NULL, deadline_of(timeout_ms), NULL);
    grpc_byte_buffer *send = pack(req), *recv = NULL;
    grpc_metadata_array md, trailing;
    grpc_metadata_array_init(&md);
    grpc_metadata_array_init(&trailing);
    grpc_status_code status = GRPC_STATUS_UNKNOWN;
    grpc_slice details = grpc_empty_slice();

    grpc_op ops[6];
    memset(ops, 0, sizeof(ops));
    ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
    ops[0].data.send_initial_metadata.count = auth->count;
    ops[0].data.send_initial_metadata.metadata = (grpc_metadata *)&auth->md;
    ops[1].op = GRPC_OP_SEND_MESSAGE;
    ops[1].data.send_message.send_message = send;
    ops[2].op = GRPC_OP_SEND_CLOSE_FROM_CLIENT;
    ops[3].op = GRPC_OP_RECV_INITIAL_METADATA;
    ops[3].data.recv_initial_metadata.recv_initial_metadata = &md;
    ops[4].op = GRPC_OP_RECV_MESSAGE;
    ops[4].data.recv_message.recv_message = &recv;
    ops[5].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
    ops[5].data.recv_status_on_client.trailing_metadata = &trailing;
    ops[5].data.recv_status_on_client.status = &status;
    ops[5].data.recv_status_on_client.status_details = &details;

    trn_wire_code code;
    if (grpc_call_start_batch(call, ops, 6, call, NULL) != GRPC_CALL_OK) {
        code = TRN_WIRE_INTERNAL;
        snprintf(msg, msglen, "gRPC refused to start the call");
    } else {
        grpc_completion_queue_pluck(cq, call, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
        code = (trn_wire_code)status;
        if (code == TRN_WIRE_OK && reply_desc) {
            *reply = unpack(reply_desc, recv);
            if (!*reply) {
                code = TRN_WIRE_INTERNAL;
                snprintf(msg, msglen, "the daemon's %s reply could not be decoded",
                         reply_desc->short_name);
            }
        } else if (code != TRN_WIRE_OK) {
            const size_t n = GRPC_SLICE_LENGTH(details);
            const size_t k = n < msglen - 1 ? n : msglen - 1;
            memcpy(msg, GRPC_SLICE_START_PTR(details), k);
            msg[k] = '\0';
        }
    }
    if (peer) {
        char *p = grpc_call_get_peer(call);
        snprintf(peer, peerlen, "%s", p ? p : "");
        gpr_free(p);
    }
    grpc_slice_unref(details);
    grpc_metadata_array_destroy(&md);
    grpc_metadata_array_destroy(&trailing);
    grpc_byte_buffer_destroy(send);
    if (recv)
        grpc_byte_buffer_destroy(recv);
    grpc_call_unref(call);
    grpc_completion_queue_shutdown(cq);
    grpc_completion_queue_destroy(cq);
    return code;
}

static trn_wire_code grpc_call_unary(trn_transport *base, trn_wire_method method,
                                     const ProtobufCMessage *req,
                                     const ProtobufCMessageDescriptor *reply_desc,
                                     ProtobufCMessage **reply, int *fd, char *msg, size_t msglen,
                                     int timeout_ms) {
    grpc_transport *t = (grpc_transport *)base;
    if (fd)
        *fd = -1; /* gRPC carries no descriptors */
    trn_grpc_launch *l = atomic_load(&t->launch);
    if (l) { /* after the launches made so far */
        const trn_wire_code fenced = trn_grpc_launch_fence(l, msg, msglen);
        if (fenced != TRN_WIRE_OK)
            return fenced;
    }
    return unary_on(t->channel, &t->auth, method, req, reply_desc, reply, msg, msglen, timeout_ms,
                    NULL, 0);
}

/* ---- fleets: choosing a daemon with gRPC's round_robin policy ---------------- */

/* One balancing channel per process, for the last fleet target and
 * credentials asked about: round_robin keeps rotating over its ready daemons
 * from one session to the next, and skips daemons it cannot reach. The
 * credentials are part of what the channel is for: a pick made after the
 * environment's token or TLS files changed (a refused token replaced by the
 * right one) needs a new channel, or it would present the old ones. */
static pthread_mutex_t balancer_lock = PTHREAD_MUTEX_INITIALIZER;
static grpc_channel *balancer;
static call_auth balancer_auth;
static trn_client_creds balancer_creds; /* what balancer was made with */
static char *balancer_target;
static int balancer_users; /* picks in flight on it */
static int balancer_stale; /* no daemon answered: make a new one when unused */

static void balancer_drop_locked(void) {
    if (balancer)
        grpc_channel_destroy(balancer);
    call_auth_release(&balancer_auth);
    trn_client_creds_free(&balancer_creds);
    free(balancer_target);
    balancer = NULL;
    balancer_target = NULL;
    balancer_stale = 0;
}

static int same_text(const char *a, const char *b) {
    return a == b || (a && b && strcmp(a, b) == 0);
}

static int same_creds(const trn_client_creds *a, const trn_client_creds *b) {
    return same_text(a->token, b->token) && same_text(a->ca_pem, b->ca_pem) &&
           same_text(a->cert_pem, b->cert_pem) && same_text(a->key_pem, b->key_pem) &&
           strcmp(a->error, b->error) == 0;
}

static grpc_channel *balancer_for_locked(const char *target) {
    trn_client_creds cc;
    trn_client_creds_from_env(&cc);
    if (balancer && strcmp(balancer_target, target) == 0 && same_creds(&cc, &balancer_creds)) {
        trn_client_creds_free(&cc);
        return balancer;
    }
    balancer_drop_locked();
    balancer_target = strdup(target);
    if (!balancer_target) {
        trn_client_creds_free(&cc);
        return NULL;
    }
    grpc_arg args[2];
    memset(args, 0, sizeof(args));
    args[0].type = GRPC_ARG_STRING;
    args[0].key = GRPC_ARG_SERVICE_CONFIG;
    args[0].value.string = "{\"loadBalancingConfig\": [{\"round_robin\": {}}]}";
    /* Its own subchannels: a session's channel to the chosen daemon must not
     * share (and so keep alive) the balancer's connections. */
    args[1].type = GRPC_ARG_INTEGER;
    args[1].key = GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL;
    args[1].value.integer = 1;
    const grpc_channel_args chargs = {2, args};
    balancer = open_channel(target, &chargs, &cc, &balancer_auth);
    balancer_creds = cc; /* kept (wiped when dropped) to compare the next pick's */
    return balancer;
}

trn_wire_code trn_transport_grpc_pick(const char *target, const ProtobufCMessage *req, char *peer,
                                      size_t peerlen, char *msg, size_t msglen, int timeout_ms) {
    pthread_once(&grpc_once, grpc_start);
    pthread_mutex_lock(&balancer_lock);
    grpc_channel *ch = balancer_for_locked(target);
    if (ch)
        balancer_users++;
    pthread_mutex_unlock(&balancer_lock);
    if (!ch) {
        snprintf(msg, msglen, "out of memory");
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    /* The channel stays valid while this pick uses it: it is only replaced
     * when unused, or by a pick for another target or with other
     * credentials, which a process does not make concurrently with this one
     * (picks are made under runtime.c's init_lock). */
    const trn_wire_code code = unary_on(ch, &balancer_auth, TRN_WIRE_STATUS, req, NULL, NULL, msg,
                                        msglen, timeout_ms, peer, peerlen);
    /* No daemon reachable: the next pick starts over on a new channel, so
     * a daemon that restarts (a couple of seconds with its self-test) is
     * found at once rather than after the old channel's reconnect backoff,
     * which keeps its subchannels failing long after the daemon is back. */
    pthread_mutex_lock(&balancer_lock);
    balancer_users--;
    if (ch == balancer) {
        if (code == TRN_WIRE_UNAVAILABLE)
            balancer_stale = 1;
        if (balancer_stale && balancer_users == 0)
            balancer_drop_locked();
    }
    pthread_mutex_unlock(&balancer_lock);
    return code;
}

static trn_wire_code grpc_launch(trn_transport *base, trn_wire_method method,
                                 const ProtobufCMessage *req, char *msg, size_t msglen) {
    grpc_transport *t = (grpc_transport *)base;
    if (method != TRN_WIRE_SUBMIT) /* only Submits travel on the stream */
        return grpc_call_unary(base, method, req, NULL, NULL, NULL, msg, msglen, -1);
    if (t->auth.error[0]) {
        snprintf(msg, msglen, "%s", t->auth.error);
        return TRN_WIRE_UNAVAILABLE;
    }
    trn_grpc_launch *l = atomic_load(&t->launch);
    if (!l) {
        pthread_mutex_lock(&t->launch_lock);
        l = atomic_load(&t->launch);
        if (!l) {
            l = trn_grpc_launch_new(t->channel, &t->auth.md, t->auth.count);
            atomic_store(&t->launch, l);
        }
        pthread_mutex_unlock(&t->launch_lock);
        if (!l) {
            snprintf(msg, msglen, "out of memory");
            return TRN_WIRE_RESOURCE_EXHAUSTED;
        }
    }
    return trn_grpc_launch_submit(l, (const Trnsci__V1__SubmitRequest *)req, msg, msglen);
}

static int grpc_attach(trn_transport *base, const ProtobufCMessage *req) {
    grpc_transport *t = (grpc_transport *)base;
    if (t->auth.error[0])
        return -1;
    t->attach_cq = grpc_completion_queue_create_for_pluck(NULL);
    grpc_slice path = grpc_slice_from_static_string(method_paths[TRN_WIRE_ATTACH]);
    t->attach_call =
        grpc_channel_create_call(t->channel, NULL, GRPC_PROPAGATE_DEFAULTS, t->attach_cq, path,
                                 NULL, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
    t->attach_req = pack(req);
    grpc_metadata_array_init(&t->attach_md);
    grpc_metadata_array_init(&t->attach_trailing);
    t->attach_details = grpc_empty_slice();

    grpc_op ops[5];
    memset(ops, 0, sizeof(ops));
    ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
    ops[0].data.send_initial_metadata.count = t->auth.count;
    ops[0].data.send_initial_metadata.metadata = &t->auth.md;
    ops[1].op = GRPC_OP_SEND_MESSAGE;
    ops[1].data.send_message.send_message = t->attach_req;
    ops[2].op = GRPC_OP_SEND_CLOSE_FROM_CLIENT;
    ops[3].op = GRPC_OP_RECV_INITIAL_METADATA;
    ops[3].data.recv_initial_metadata.recv_initial_metadata = &t->attach_md;
    ops[4].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
    ops[4].data.recv_status_on_client.trailing_metadata = &t->attach_trailing;
    ops[4].data.recv_status_on_client.status = &t->attach_status;
    ops[4].data.recv_status_on_client.status_details = &t->attach_details;
    if (grpc_call_start_batch(t->attach_call, ops, 5, t->attach_call, NULL) != GRPC_CALL_OK) {
        grpc_call_unref(t->attach_call);
        t->attach_call = NULL;
        grpc_slice_unref(t->attach_details);
        grpc_metadata_array_destroy(&t->attach_md);
        grpc_metadata_array_destroy(&t->attach_trailing);
        return -1;
    }
    return 0;
}

static void grpc_close(trn_transport *base) {
    grpc_transport *t = (grpc_transport *)base;
    trn_grpc_launch_close(atomic_load(&t->launch));
    pthread_mutex_destroy(&t->launch_lock);
    if (t->attach_cq) {
        if (t->attach_call) {
            grpc_call_cancel(t->attach_call, NULL);
            grpc_completion_queue_pluck(t->attach_cq, t->attach_call,
                                        gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
            grpc_call_unref(t->attach_call);
            grpc_slice_unref(t->attach_details);
            grpc_metadata_array_destroy(&t->attach_md);
            grpc_metadata_array_destroy(&t->attach_trailing);
        }
        if (t->attach_req)
            grpc_byte_buffer_destroy(t->attach_req);
        grpc_completion_queue_shutdown(t->attach_cq);
        grpc_completion_queue_destroy(t->attach_cq);
    }
    grpc_channel_destroy(t->channel);
    call_auth_release(&t->auth);
    free(t->target);
    free(t);
}

static const trn_transport_ops grpc_ops = {
    .name = "grpc",
    .host_mapped = 0,
    .call = grpc_call_unary,
    .launch = grpc_launch,
    .attach = grpc_attach,
    .close = grpc_close,
};
