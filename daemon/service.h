/*
 * service.h — the Trnsci service's handlers, independent of transport.
 *
 * A frontend decodes nothing: it hands the method and the encoded request to
 * trn_service_handle, which decodes, authenticates the session, validates,
 * acts, and finishes the call (at once, or later from a worker thread for
 * Synchronize).
 */
#ifndef TRN_DAEMON_SERVICE_H
#define TRN_DAEMON_SERVICE_H

#include "daemon/service_context.h"

/* One LaunchBatch (req, len bytes) from a Launch stream (gRPC; `stream` is
 * the stream's call, for its peer): queues each submit in order as a Submit
 * nobody waits for (service_launch.c), then wakes the workers. Returns
 * TRN_WIRE_OK, and when the batch asked for it (a fence) the packed
 * LaunchAck in *ack (malloc'd, *ack_len bytes; NULL when none). Any other
 * code ends the stream, with msg saying why: a malformed batch, a session
 * that does not exist or is not the caller's, a daemon shutting down. */
trn_wire_code trn_service_launch(trn_service *svc, const uint8_t *req, size_t len,
                                 const trn_call *stream, uint8_t **ack, size_t *ack_len, char *msg,
                                 size_t msglen);

/* Wakes the workers for the ops of asynchronous launches (trn_call.no_reply)
 * dispatched so far: a frontend calls it after each burst of requests it
 * dispatched (before it waits for more), so that the workers are woken once
 * per burst rather than once per op. */
void trn_service_kick(trn_service *svc);

/* As trn_service_kick, but a small op an idle core would run next
 * (estimated at most TRN_SERVICE_RUN_HERE_MAX_NS) runs in the calling thread
 * instead, in that core's name: on the core's executor, with the core's
 * accounting (trn_sched_kick_run). Saves the wake-up of the core's worker
 * thread and two context switches on its CPU. Returns 1 when it ran one. */
#define TRN_SERVICE_RUN_HERE_MAX_NS 20000u
/* How long the calling thread waits for such an op before the core's worker
 * takes the wait over (a hung kernel never holds a frontend). */
#define TRN_SERVICE_RUN_HERE_PATIENCE_NS 200000u
int trn_service_kick_run(trn_service *svc);

/* The pool the service's queued ops come from (block_pool.h): init before
 * the first request, trim when idle (its free blocks go back to the heap),
 * destroy after the last op has completed. */
void trn_service_ops_init(trn_service *svc);
void trn_service_ops_trim(trn_service *svc);
void trn_service_ops_destroy(trn_service *svc);

/* Handles one unary call. Attach is not unary: see below. */
void trn_service_handle(trn_service *svc, trn_wire_method method, const uint8_t *req, size_t len,
                        trn_call *call);

/* Starts an Attach stream. On success returns the session (with a reference
 * the frontend keeps until trn_service_detach) and the call stays open; on
 * failure finishes the call with an error and returns NULL. */
trn_session *trn_service_attach(trn_service *svc, const uint8_t *req, size_t len, trn_call *call);
/* The Attach stream ended on the client side: the session ends. Returns 1
 * when the frontend must finish the call itself, 0 when the session already
 * did. Drops the frontend's session reference. */
int trn_service_detach(trn_service *svc, trn_session *s, trn_call *call);

/* "gemm (op #7 on stream 0) of session #3 (NAME, pid P, uid U)": the op a
 * worker is running (an op the service queued), for the fatal-signal report
 * (daemon/crash.h). */
void trn_service_describe_op(const trn_sched_op *op, char *buf, size_t len);

#endif
