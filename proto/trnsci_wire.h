/*
 * Wire-level constants shared by the daemon and the client library.
 *
 * This header and the protobuf-c code generated from proto/trnsci/v1 are the
 * only things daemon/ and client/ have in common. Keep it to facts about the
 * wire: versions, method paths, sizes and the limits both sides enforce.
 * Each is written once, here; the client, the validators and the kernels
 * read it from here.
 */
#ifndef TRNSCI_WIRE_H
#define TRNSCI_WIRE_H

#include <stdint.h>

/* The release (TRNSCI_VERSION_*): the daemon reports it in
 * HelloReply.daemon_version, the client in trnsciRuntimeGetVersion. */
#include "trnsci/trnsci_version.h"

/* A client whose major differs is refused; minors are backwards compatible. */
#define TRNSCI_PROTOCOL_MAJOR 1u
#define TRNSCI_PROTOCOL_MINOR 15u

/* The byte order of buffer contents, reported in HelloReply.byte_order
 * (every platform trnsci builds on is little-endian; a client of the other
 * order refuses to connect rather than misread data). */
#define TRNSCI_WIRE_BYTE_ORDER "little"

/* The trailing metadata key of an Attach stream the daemon ends (status
 * OK): its value says why the session ended ("closed by the client",
 * "daemon exiting", "its token was removed from the tokens file", ...). */
#define TRN_ATTACH_END_REASON_KEY "trnsci-end-reason"

/* The shortest interval between HTTP/2 keepalive pings without data that
 * the daemon accepts from a gRPC client (clients may ping once a second). */
#define TRN_GRPC_MIN_PING_INTERVAL_MS 500

/* Bulk data moves in chunks of at most this many bytes per Write/Read call. */
#define TRNSCI_WIRE_CHUNK_BYTES (1u << 20)
/* A local session's staging buffer (opaque device pointers; docs/protocol.md,
 * "Write, Read"): at most this many bytes, and so at most this many per
 * staged Write/Read. The data does not travel in the message, so it may
 * exceed a chunk; fewer, larger copies mean fewer round trips. */
#define TRNSCI_WIRE_STAGING_BYTES (4u << 20)
/* Largest encoded message either side accepts (a chunk plus headroom). */
#define TRNSCI_WIRE_MAX_MESSAGE_BYTES (8u << 20)

/* Limits of ops, checked by validation on both sides. */
/* BufferRefs in one pointer array of an op (GemmOp's a/b/c_array,
 * BlasLuBatchedOp's a and c); the client splits a longer pointer-array
 * batch into ops of at most this many. */
#define TRNSCI_WIRE_MAX_POINTER_BATCH 4096u
/* Largest Poisson mean RandOp accepts (the table method's range). */
#define TRNSCI_WIRE_POISSON_LAMBDA_MAX 1e8

/* gRPC method paths, in the order of the Trnsci service. */
#define TRNSCI_METHODS(X)                                                                          \
    X(HELLO, "/trnsci.v1.Trnsci/Hello")                                                            \
    X(OPEN_SESSION, "/trnsci.v1.Trnsci/OpenSession")                                               \
    X(CLOSE_SESSION, "/trnsci.v1.Trnsci/CloseSession")                                             \
    X(ATTACH, "/trnsci.v1.Trnsci/Attach")                                                          \
    X(KEEP_ALIVE, "/trnsci.v1.Trnsci/KeepAlive")                                                   \
    X(ALLOC, "/trnsci.v1.Trnsci/Alloc")                                                            \
    X(FREE, "/trnsci.v1.Trnsci/Free")                                                              \
    X(WRITE, "/trnsci.v1.Trnsci/Write")                                                            \
    X(READ, "/trnsci.v1.Trnsci/Read")                                                              \
    X(SUBMIT, "/trnsci.v1.Trnsci/Submit")                                                          \
    X(SYNCHRONIZE, "/trnsci.v1.Trnsci/Synchronize")                                                \
    X(STATUS, "/trnsci.v1.Trnsci/Status")                                                          \
    X(SET_PRIORITY, "/trnsci.v1.Trnsci/SetPriority")                                               \
    X(EVENT, "/trnsci.v1.Trnsci/Event")                                                            \
    X(PLAN_CREATE, "/trnsci.v1.Trnsci/PlanCreate")                                                 \
    X(PLAN_DESTROY, "/trnsci.v1.Trnsci/PlanDestroy")                                               \
    X(PLANS, "/trnsci.v1.Trnsci/Plans")                                                            \
    X(SELF_TEST, "/trnsci.v1.Trnsci/SelfTest")                                                     \
    X(LAUNCH, "/trnsci.v1.Trnsci/Launch")                                                          \
    X(GRAPH, "/trnsci.v1.Trnsci/Graph")

typedef enum trn_wire_method {
#define TRN_WIRE_METHOD_ENUM(name, path) TRN_WIRE_##name,
    TRNSCI_METHODS(TRN_WIRE_METHOD_ENUM)
#undef TRN_WIRE_METHOD_ENUM
        TRN_WIRE_METHOD_COUNT
} trn_wire_method;

/* Status codes carried by replies; numerically identical to grpc_status_code
 * so that the gRPC transport passes them through unchanged. */
typedef enum trn_wire_code {
    TRN_WIRE_OK = 0,
    TRN_WIRE_CANCELLED = 1,
    TRN_WIRE_UNKNOWN = 2,
    TRN_WIRE_INVALID_ARGUMENT = 3,
    TRN_WIRE_DEADLINE_EXCEEDED = 4,
    TRN_WIRE_NOT_FOUND = 5,
    TRN_WIRE_ALREADY_EXISTS = 6,
    TRN_WIRE_PERMISSION_DENIED = 7,
    TRN_WIRE_RESOURCE_EXHAUSTED = 8,
    TRN_WIRE_FAILED_PRECONDITION = 9, /* protocol major version mismatch */
    TRN_WIRE_ABORTED = 10,            /* the session no longer exists */
    TRN_WIRE_OUT_OF_RANGE = 11,
    TRN_WIRE_UNIMPLEMENTED = 12,
    TRN_WIRE_INTERNAL = 13,
    TRN_WIRE_UNAVAILABLE = 14, /* daemon unreachable or shutting down */
    TRN_WIRE_DATA_LOSS = 15,
    TRN_WIRE_UNAUTHENTICATED = 16,
} trn_wire_code;

/*
 * The local transport (unix:/path): a stream socket carrying the same
 * protobuf-encoded requests and replies as gRPC, each behind this header.
 * Requests: kind = trn_wire_method. Replies: kind = trn_wire_code, and the
 * body is the reply message (OK) or the error text. A reply with
 * TRN_LOCAL_FLAG_FD carries one file descriptor (SCM_RIGHTS) with its first
 * byte: the memfd of a buffer Alloc made. Replies match requests by tag and
 * may come out of order. Native byte order (both ends are on one machine).
 */
typedef struct trn_local_hdr {
    uint32_t len;  /* body bytes after this header, at most TRNSCI_WIRE_MAX_MESSAGE_BYTES */
    uint16_t kind; /* method (request) or code (reply) */
    uint16_t flags;
    uint64_t tag; /* chosen by the client, echoed in the reply */
} trn_local_hdr;

#define TRN_LOCAL_FLAG_FD 1u
/* Request flag (1.10): the client does not wait for a reply (an asynchronous
 * launch: a Submit). The daemon sends none; an error it finds is kept for
 * the op's stream and reported by the next Synchronize of that stream or of
 * every stream. Any other request flag ends the connection. */
#define TRN_LOCAL_FLAG_NO_REPLY 4u
/* Most descriptors one local frame carries (TRN_LOCAL_FLAG_FD3). */
#define TRN_LOCAL_MAX_FDS 3

/*
 * The local transport's shared-memory rings. After OpenSession a client may
 * send TRN_LOCAL_RING_SETUP (an empty request on the socket); the reply
 * carries three descriptors (flags = TRN_LOCAL_FLAG_FD3): the ring region (a
 * sealed memfd laid out as trn_ring_shared, then the submission ring, then
 * the completion ring) and two eventfds, the submission doorbell (client →
 * daemon) and the completion doorbell (daemon → client).
 *
 * Each ring is a byte ring of entries, each a trn_local_hdr and its body,
 * padded to 8 bytes, wrapping around the end. Positions are byte counts that
 * only grow; position p lives at offset p % size. The producer writes the
 * entry, then publishes by storing tail (release); the consumer reads tail
 * (acquire), consumes, then stores head (release). A side that is about to
 * sleep sets its `waiting` flag, re-checks the ring, and then blocks on its
 * doorbell; a producer that sees the flag set writes the doorbell.
 *
 * Requests too large for the ring, or made while it is full, go on the
 * socket instead; replies follow the same rule. The daemon treats the region
 * as hostile: positions or lengths that do not add up end the session.
 */
#define TRN_LOCAL_RING_SETUP 0x100u /* request kind, local transport only */
#define TRN_LOCAL_FLAG_FD3 3u       /* reply flags: three descriptors follow */
#define TRN_RING_MAGIC 0x676e6972u  /* "ring" */
#define TRN_RING_BYTES (64u << 10)  /* each of the two rings */

typedef struct trn_ring_shared {
    uint32_t magic;
    uint32_t ring_bytes; /* TRN_RING_BYTES */
    uint8_t pad0[56];
    /* submission ring: client produces, daemon consumes */
    uint64_t sq_head; /* written by the daemon */
    uint8_t pad1[56];
    uint64_t sq_tail; /* written by the client */
    uint32_t daemon_waiting;
    uint8_t pad2[52];
    /* completion ring: daemon produces, client consumes */
    uint64_t cq_head; /* written by the client */
    uint8_t pad3[56];
    uint64_t cq_tail; /* written by the daemon */
    uint32_t client_waiting;
    uint8_t pad4[52];
} trn_ring_shared;

#define TRN_RING_REGION_BYTES (sizeof(trn_ring_shared) + 2u * TRN_RING_BYTES)

#endif
