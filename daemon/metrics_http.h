/*
 * metrics_http.h — the HTTP endpoint of --metrics-listen: GET /metrics
 * (Prometheus text exposition, metrics.h), /healthz (the main loop is
 * alive) and /readyz (cores up, plan pre-warm done, not shutting down).
 *
 * libmicrohttpd serves it from its own thread; a scrape reads counters and
 * takes the scheduler's, sessions' and plan cache's locks only as long as
 * their existing snapshot calls do, so the workers never wait on HTTP.
 */
#ifndef TRN_DAEMON_METRICS_HTTP_H
#define TRN_DAEMON_METRICS_HTTP_H

#include <stddef.h>

#include "daemon/metrics.h"

struct trn_service;
typedef struct trn_metrics_http trn_metrics_http;

/* Listens on addr ("host:port", "[v6]:port"; port 0 picks one, logged) and
 * starts the server thread. NULL with err written on failure. */
trn_metrics_http *trn_metrics_http_start(const char *addr, trn_metrics *m, struct trn_service *svc,
                                         char *err, size_t errlen);
/* The port it listens on. */
int trn_metrics_http_port(const trn_metrics_http *h);
/* Stops the thread and closes the socket. NULL is fine. */
void trn_metrics_http_stop(trn_metrics_http *h);

#endif
