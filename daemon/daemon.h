/*
 * daemon.h — trnscid's top-level context and life cycle.
 *
 * The context owns everything the daemon holds: configuration, backend,
 * scheduler, sessions and frontends. It is the only mutable state of the
 * process outside the logger's threshold.
 */
#ifndef TRN_DAEMON_DAEMON_H
#define TRN_DAEMON_DAEMON_H

#include "daemon/config.h"
#include "daemon/grpc_frontend.h"
#include "daemon/local_frontend.h"
#include "daemon/metrics_http.h"
#include "daemon/selftest.h"
#include "daemon/service.h"
#include "daemon/session.h"
#include "daemon/systemd.h"
#include "daemon/token.h"
#include "daemon/token_store.h"

typedef struct trnscid {
    trn_config cfg;
    trn_token_store tokens; /* --tokens-file (reloaded on SIGHUP); none: no path */
    trn_backend *backend;
    /* Executor processes (NULL with --executors off): their shared memory
     * and the pool. */
    struct trn_exec_space *space;
    struct trn_exec_pool *executors;
    /* Resident operands' write clock (ops/write_clock.h), or NULL: in the
     * space, or on the heap (wclock_heap) without executors. */
    struct trn_write_clock *wclock;
    int wclock_heap;
    /* The Neuron backend's traffic counters, or NULL: where the clock is. */
    struct trn_nc_traffic *traffic;
    /* Where big GEMMs' inputs were moved (daemon/residency.h), for placement
     * by location (--neuron-locality), or NULL. */
    struct trn_residency *residency;
    trn_sched *sched;
    trn_plan_cache *plans;
    struct trn_graph_cache *graphs;
    trn_session_table sessions;
    trn_service service;
    trn_grpc_frontend *grpc;
    trn_local_frontend *local[TRN_CONFIG_MAX_LISTEN];
    int nlocal;
    int signal_fd;
    trn_watchdog watchdog;
    trn_metrics *metrics;           /* NULL without --metrics-listen */
    trn_metrics_http *metrics_http; /* its endpoint */
    trn_selftest *selftest;
    char blas_why[256]; /* why OpenBLAS runs the kernel set it does (blas_coretype.h) */
    /* The command line, parsed again (with the config file) on SIGHUP. */
    int argc;
    char **argv;
} trnscid;

/* Starts everything; on failure logs why and returns -1 (nothing left
 * running). SIGTERM/SIGINT/SIGHUP are caught from here on and acted on by
 * trnscid_run (signals.h). */
int trnscid_start(trnscid *d);
/* Serves until SIGTERM or SIGINT (SIGHUP reloads the configuration and the
 * tokens file: see config_reload.h and token_store.h), then shuts down
 * cleanly: stops accepting,
 * drops queued work, finishes running work, tells waiting clients
 * UNAVAILABLE, releases every session. */
void trnscid_run(trnscid *d);
/* Frees what trnscid_start made. */
void trnscid_stop(trnscid *d);

#endif
