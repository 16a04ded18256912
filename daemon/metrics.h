/*
 * metrics.h — trnscid's operational counters and their Prometheus text
 * exposition (served by metrics_http.h when --metrics-listen is set).
 *
 * Hot-path counters (ops by kind and outcome, queue and run time histograms,
 * bytes per transport) are relaxed atomic adds on fixed arrays: no lock, no
 * allocation, a few nanoseconds per op. Everything else (worker busy time,
 * queue depth, sessions, plan cache, memory) is read from its owner when a
 * scrape renders the page, so it costs nothing between scrapes.
 *
 * With metrics off the daemon has no trn_metrics (svc->metrics is NULL) and
 * the hot path skips the adds.
 */
#ifndef TRN_DAEMON_METRICS_H
#define TRN_DAEMON_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/call.h"

struct trn_service;
typedef struct trn_metrics trn_metrics;

/* NULL when out of memory. */
trn_metrics *trn_metrics_create(void);
void trn_metrics_destroy(trn_metrics *m);

/* An op completed: kind is its trn_op_kind, status its trn_sched_status;
 * queue_ns from ready to first shard, run_ns from first shard to last (0
 * for an op that never ran). Any thread. */
void trn_metrics_op_done(trn_metrics *m, int kind, int status, uint64_t queue_ns, uint64_t run_ns);
/* A request of `bytes` arrived / a reply of `bytes` left on a transport. */
/* One op completed on a NeuronCore (on_neuroncore) or on the host. */
void trn_metrics_placed(trn_metrics *m, int on_neuroncore);
void trn_metrics_received(trn_metrics *m, trn_transport_kind t, size_t bytes);
void trn_metrics_sent(trn_metrics *m, trn_transport_kind t, size_t bytes);

/* The main loop is alive (for /healthz); now_ms on trn_now_ms's clock. */
void trn_metrics_heartbeat(trn_metrics *m, uint64_t now_ms);
/* Milliseconds since the last heartbeat. */
uint64_t trn_metrics_since_heartbeat(const trn_metrics *m, uint64_t now_ms);

/* The whole exposition page (text format 0.0.4), malloc'd, for svc's
 * daemon; NULL when out of memory. */
char *trn_metrics_render(trn_metrics *m, struct trn_service *svc, size_t *len);

/* The daemon's listeners are up (set once start-up is complete). */
void trn_metrics_set_serving(trn_metrics *m);
/* Readiness (for /readyz): 1 when start-up is complete (cores and
 * listeners up), the plan cache's pre-warm is done and the daemon is not
 * draining; else 0 with why. */
int trn_metrics_ready(trn_metrics *m, struct trn_service *svc, char *why, size_t len);

#endif
