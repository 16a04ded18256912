/*
 * transport.h — how libtrnsci reaches the daemon. The gRPC implementation is
 * transport_grpc.c, the only client file that calls gRPC core; the local
 * shared-memory transport will implement the same interface.
 */
#ifndef TRN_CLIENT_TRANSPORT_H
#define TRN_CLIENT_TRANSPORT_H

#include <protobuf-c/protobuf-c.h>
#include <stddef.h>

#include "trnsci_wire.h"

typedef struct trn_transport trn_transport;

/* Creates a channel to target ("unix:/path", "host:port"). Does not connect:
 * the first call does. NULL on allocation failure. */
trn_transport *trn_transport_open(const char *target);
/* Ends the Attach stream (if any) and closes the channel. */
void trn_transport_close(trn_transport *t);

/* One unary call. On TRN_WIRE_OK, *reply (when reply_desc is not NULL) is the
 * unpacked reply, to be freed with protobuf_c_message_free_unpacked. On any
 * other code msg holds the daemon's (or the transport's) explanation.
 * timeout_ms < 0 waits forever. Thread-safe. */
trn_wire_code trn_transport_call(trn_transport *t, trn_wire_method method,
                                 const ProtobufCMessage *req,
                                 const ProtobufCMessageDescriptor *reply_desc,
                                 ProtobufCMessage **reply, char *msg, size_t msglen,
                                 int timeout_ms);

/* Opens the session's Attach stream and leaves it open until
 * trn_transport_close. Returns 0, or -1 if the call could not be started. */
int trn_transport_attach(trn_transport *t, const ProtobufCMessage *req);

#endif
