/*
 * grpc_frontend.h — the daemon's gRPC transport. All of the daemon's gRPC
 * core calls live in grpc_frontend.c: the core C API changes between minor
 * versions, and this keeps the blast radius to one file.
 *
 * Threading: one thread (the daemon's main loop) calls every function here;
 * calls are finished from any thread through trn_call.
 */
#ifndef TRN_DAEMON_GRPC_FRONTEND_H
#define TRN_DAEMON_GRPC_FRONTEND_H

#include <stddef.h>

#include "daemon/service.h"

typedef struct trn_grpc_frontend trn_grpc_frontend;

/* Binds every address ("unix:/path", "host:port"; port 0 picks one) and starts
 * serving. Fails, with err written, if any address cannot be bound — in
 * particular when another daemon holds it. */
trn_grpc_frontend *trn_grpc_frontend_start(trn_service *svc, char *const *addrs, int naddrs,
                                           char *err, size_t errlen);
/* Serves completions for at most timeout_ms. */
void trn_grpc_frontend_poll(trn_grpc_frontend *fe, int timeout_ms);
/* Stops accepting calls; calls in flight continue. */
void trn_grpc_frontend_begin_shutdown(trn_grpc_frontend *fe);
/* Whether every call has completed since begin_shutdown. */
int trn_grpc_frontend_idle(trn_grpc_frontend *fe);
/* Cancels calls still open (after a grace period). */
void trn_grpc_frontend_cancel_all(trn_grpc_frontend *fe);
/* Destroys the server and the completion queue; unlinks unix sockets. */
void trn_grpc_frontend_destroy(trn_grpc_frontend *fe);

#endif
