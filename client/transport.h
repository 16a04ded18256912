/*
 * transport.h — how libtrnsci reaches the daemon.
 *
 * Two implementations behind one interface:
 *   transport_local.c  unix:/path       the local transport: framed requests on a
 *                                       unix socket, buffers are shared memory
 *                                       mapped into this process (zero copy)
 *   transport_grpc.c   grpc+unix:/path  gRPC (the only file calling gRPC core)
 *                      host:port
 * Both carry the same protobuf-encoded requests.
 */
#ifndef TRN_CLIENT_TRANSPORT_H
#define TRN_CLIENT_TRANSPORT_H

#include <protobuf-c/protobuf-c.h>
#include <stddef.h>

#include "trnsci_wire.h"

typedef struct trn_transport trn_transport;

typedef struct trn_transport_ops {
    const char *name; /* "local" or "grpc" */
    /* Device memory is mapped into this process: Alloc replies carry a memfd
     * and copies are plain memcpy. */
    int host_mapped;
    /* One unary call; see trn_transport_call. fd, when not NULL, receives a
     * descriptor that came with the reply (or -1). */
    trn_wire_code (*call)(trn_transport *t, trn_wire_method method, const ProtobufCMessage *req,
                          const ProtobufCMessageDescriptor *reply_desc, ProtobufCMessage **reply,
                          int *fd, char *msg, size_t msglen, int timeout_ms);
    /* Sends a request without waiting for a reply (protocol 1.10: an
     * asynchronous Submit; the daemon keeps an error for the op's stream).
     * Requests reach the daemon in the order they were sent, launched or
     * called, from any thread. Blocks while the daemon takes no more (its
     * launch queue is full). May fall back to a waited call (a request too
     * large for the ring): then a refusal is returned as by `call`. NULL
     * when the transport cannot (callers use `call`). */
    trn_wire_code (*launch)(trn_transport *t, trn_wire_method method, const ProtobufCMessage *req,
                            char *msg, size_t msglen);
    /* Ties the session to this connection (gRPC: the Attach stream). */
    int (*attach)(trn_transport *t, const ProtobufCMessage *req);
    void (*close)(trn_transport *t);
} trn_transport_ops;

struct trn_transport {
    const trn_transport_ops *ops;
};

/* Opens a transport for one address ("unix:/path", "grpc+unix:/path",
 * "host:port"). A transport that cannot connect still opens; its calls fail
 * with TRN_WIRE_UNAVAILABLE. NULL on allocation failure. */
trn_transport *trn_transport_open(const char *address);
trn_transport *trn_transport_local_open(const char *path);
trn_transport *trn_transport_grpc_open(const char *target);
/* Fleets: makes the call `req` (a StatusRequest) on a process-wide channel to
 * `target` (several daemons: "ipv4:a:p,b:p", or a DNS name with several
 * records) load-balanced by gRPC's round_robin policy, and writes the
 * address of the daemon that answered into peer ("ipv4:a:p"), for the
 * session to connect to. Successive picks rotate over the reachable daemons.
 * The channel carries the credentials the environment names at the pick
 * (credentials.h): a pick after they changed gets a new channel. */
trn_wire_code trn_transport_grpc_pick(const char *target, const ProtobufCMessage *req, char *peer,
                                      size_t peerlen, char *msg, size_t msglen, int timeout_ms);

/* One unary call. On TRN_WIRE_OK, *reply (when reply_desc is not NULL) is the
 * unpacked reply, to be freed with protobuf_c_message_free_unpacked. On any
 * other code msg holds the daemon's (or the transport's) explanation.
 * timeout_ms < 0 waits forever (the local transport always waits). Thread-safe. */
static inline trn_wire_code trn_transport_call(trn_transport *t, trn_wire_method method,
                                               const ProtobufCMessage *req,
                                               const ProtobufCMessageDescriptor *reply_desc,
                                               ProtobufCMessage **reply, char *msg, size_t msglen,
                                               int timeout_ms) {
    return t->ops->call(t, method, req, reply_desc, reply, NULL, msg, msglen, timeout_ms);
}

/* Keeps the session alive for as long as the transport is open. Returns 0,
 * or -1 if that could not be arranged. */
static inline int trn_transport_attach(trn_transport *t, const ProtobufCMessage *req) {
    return t->ops->attach(t, req);
}

/* Ends the session's tie (if any) and closes the connection. NULL is a no-op. */
static inline void trn_transport_close(trn_transport *t) {
    if (t)
        t->ops->close(t);
}

#endif
