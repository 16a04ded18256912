/*
 * service_context.h — what the service works with: the daemon's
 * configuration, backend, scheduler, plan cache, sessions, tokens, metrics
 * and self-test, set up by daemon.c.
 *
 * Apart from service.h (the dispatcher frontends call) so that the files the
 * dispatcher uses (metrics.c renders from this; the service's own files)
 * need not include the dispatcher.
 */
#ifndef TRN_DAEMON_SERVICE_CONTEXT_H
#define TRN_DAEMON_SERVICE_CONTEXT_H

#include <stdatomic.h>
#include <stdint.h>

#include "daemon/block_pool.h"
#include "daemon/call.h"
#include "daemon/session.h"
#include "daemon/token_store.h"
#include "kernels/backend.h"

typedef struct trn_service {
    const trn_config *cfg;
    const trn_backend *backend;
    trn_sched *sched;
    trn_plan_cache *plans;
    trn_session_table *sessions;
    trn_token_store *tokens; /* bearer tokens of gRPC calls; no path: no check */
    uint32_t daemon_uid;     /* its effective uid: sees every session in Status */
    uint64_t start_ms;
    atomic_int draining;             /* shutting down: new requests get UNAVAILABLE */
    struct trn_metrics *metrics;     /* NULL: metrics off (metrics.h) */
    struct trn_selftest *selftest;   /* the outside routines' self-test (selftest.h) */
    struct trn_exec_pool *executors; /* kernels' processes (executor.h); NULL: none */
    trn_block_pool op_pool;          /* trn_service_op blocks (service_internal.h) */
    struct trn_graph_cache *graphs;  /* instantiated graphs' structures (graph_cache.h) */
    struct trn_op_scratch *scratch;  /* ops' step and stage scratch (op_scratch.h) */
    int convert_ahead;               /* format conversions as stages (service_convert.c) */
    int run_ahead;                   /* conversions may start before their turn (sched.h) */
} trn_service;

#endif
