/*
 * call.h — a request in flight, as the transport-neutral service sees it.
 *
 * Each frontend (gRPC today, the shared-memory ring later) wraps its own call
 * object in this interface, so the service's handlers exist once.
 */
#ifndef TRN_DAEMON_CALL_H
#define TRN_DAEMON_CALL_H

#include <stddef.h>
#include <stdint.h>

#include "trnsci_wire.h"

typedef struct trn_call trn_call;
struct trn_session;

typedef enum trn_transport_kind {
    TRN_TRANSPORT_GRPC = 0,
    TRN_TRANSPORT_LOCAL = 1, /* unix socket + shared-memory buffers */
} trn_transport_kind;

struct trn_token;

/* The peer's credentials: uid/gid/pid from SO_PEERCRED (local transport
 * only), or the bearer token a gRPC call authenticated with (daemon/token.h;
 * NULL when the daemon has no tokens file). */
typedef struct trn_peer {
    int known;
    uint32_t uid, gid, pid;
    struct trn_token *token;
} trn_peer;

struct trn_call {
    /* Completes the call, exactly once, from any thread. With TRN_WIRE_OK,
     * body/len is the packed reply (malloc'd; ownership passes to the
     * transport; NULL/0 for an empty reply). Otherwise msg says what was
     * wrong (body is NULL). */
    void (*finish)(trn_call *call, trn_wire_code code, const char *msg, uint8_t *body, size_t len);

    trn_transport_kind transport;
    trn_peer peer;
    /* A handler may set a file descriptor to travel with an OK reply (local
     * transport only; the transport closes it once sent). -1 when none. */
    int reply_fd;
    /* Local transport: ties a session just opened to the connection, so that
     * the session ends when the connection does. Returns -1 when the
     * connection already has a session. NULL on gRPC. */
    int (*bind_session)(trn_call *call, struct trn_session *s);
    /* Local transport: a connection may name only its own session. When
     * scoped, session_scope is that session's id (0 before OpenSession). */
    int scoped;
    uint64_t session_scope;
    /* When the client stops waiting for the reply (gRPC deadline), on the
     * scheduler's clock (trn_sched_now_ns); 0 = never. */
    uint64_t deadline_ns;
    /* Set by the service when the request body did not decode. */
    int malformed;
    /* The client does not wait for the reply (local transport,
     * TRN_LOCAL_FLAG_NO_REPLY): the transport drops it, so a handler keeps
     * an error for a later synchronising call instead (Submit). */
    int no_reply;
    /* The transport calls trn_service_kick (or trn_service_kick_run) once
     * the burst this request came in is dispatched: the ops it queues, and
     * the markers of a synchronising call, need not wake the workers. */
    int kicks_later;
    /* On a session's attach call: the session has room for queued ops again
     * after trn_session_ops_full said it had none. Called with the session's
     * lock held, from any thread; must not block. NULL when the transport
     * does not pause for room (gRPC). */
    void (*room)(trn_call *attach);
};

#endif
