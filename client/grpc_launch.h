/*
 * grpc_launch.h — asynchronous launch over gRPC: a session's Launch stream
 * (protocol 1.10; docs/protocol.md, Launch).
 *
 * Launches are encoded at once into the next LaunchBatch and sent by the
 * stream's sender thread, one batch at a time, so a burst of launches goes
 * out in few messages and the launching thread never waits for the network.
 * Order: the daemon reads the stream in order; a unary call that must come
 * after the launches before it (a Synchronize, an event query, a Read) first
 * calls trn_grpc_launch_fence, which sends a fence and waits for its ack.
 * Flow control: each ack says how many ops the session has queued and its
 * limit; a launch that could take the session past the limit fences and, if
 * the session is still full, waits, so the daemon never refuses a launch for
 * it and neither side's memory grows with the launches.
 *
 * Used only by transport_grpc.c. Thread-safe.
 */
#ifndef TRN_CLIENT_GRPC_LAUNCH_H
#define TRN_CLIENT_GRPC_LAUNCH_H

#include <grpc/grpc.h>
#include <stddef.h>

#include "trnsci/v1/trnsci.pb-c.h"
#include "trnsci_wire.h"

typedef struct trn_grpc_launch trn_grpc_launch;

/* A Launch stream on channel whose calls carry md (count entries; may be
 * 0), opened on the first launch. NULL when out of memory. */
trn_grpc_launch *trn_grpc_launch_new(grpc_channel *channel, const grpc_metadata *md, size_t count);
/* Queues req for sending (blocking while the session's queue is full).
 * TRN_WIRE_OK, or TRN_WIRE_UNAVAILABLE with msg when the stream is broken
 * (the daemon ended it: msg says why). */
trn_wire_code trn_grpc_launch_submit(trn_grpc_launch *l, const Trnsci__V1__SubmitRequest *req,
                                     char *msg, size_t msglen);
/* Returns once the daemon has queued every launch made so far (at once
 * when there are none); TRN_WIRE_UNAVAILABLE with msg when the stream broke. */
trn_wire_code trn_grpc_launch_fence(trn_grpc_launch *l, char *msg, size_t msglen);
/* Stops the sender (launches not yet sent are dropped) and ends the stream.
 * NULL is a no-op. */
void trn_grpc_launch_close(trn_grpc_launch *l);

#endif
