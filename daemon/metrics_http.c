/*
 * metrics_http.c — see metrics_http.h. One libmicrohttpd daemon with its
 * internal polling thread; at most 16 connections, idle ones closed after
 * 10 s, GET only.
 */
#define _GNU_SOURCE
#include "daemon/metrics_http.h"

#include <microhttpd.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "daemon/log.h"
#include "daemon/service.h"
#include "daemon/session.h"

/* A main loop that has not turned for this long is not alive. */
#define HEARTBEAT_STALE_MS 10000

struct trn_metrics_http {
    struct MHD_Daemon *mhd;
    trn_metrics *m;
    struct trn_service *svc;
    int port;
};

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned status, char *body, size_t len,
                             const char *type) {
    struct MHD_Response *r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(body);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    const enum MHD_Result ok = MHD_queue_response(conn, status, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result reply_text(struct MHD_Connection *conn, unsigned status, const char *text) {
    char *body = strdup(text);
    if (!body)
        return MHD_NO;
    return reply(conn, status, body, strlen(body), "text/plain; charset=utf-8");
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls) {
    (void)version;
    (void)upload_data;
    (void)upload_data_size;
    (void)con_cls;
    trn_metrics_http *h = cls;
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
        return reply_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "GET only\n");
    if (strcmp(url, "/metrics") == 0) {
        size_t len = 0;
        char *page = trn_metrics_render(h->m, h->svc, &len);
        if (!page)
            return reply_text(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
        return reply(conn, MHD_HTTP_OK, page, len, "text/plain; version=0.0.4; charset=utf-8");
    }
    if (strcmp(url, "/healthz") == 0) {
        const uint64_t age = trn_metrics_since_heartbeat(h->m, trn_now_ms());
        if (age > HEARTBEAT_STALE_MS) {
            char msg[96];
            snprintf(msg, sizeof(msg), "main loop stalled for %llu ms\n", (unsigned long long)age);
            return reply_text(conn, MHD_HTTP_SERVICE_UNAVAILABLE, msg);
        }
        return reply_text(conn, MHD_HTTP_OK, "ok\n");
    }
    if (strcmp(url, "/readyz") == 0) {
        char why[128], msg[140];
        const int ready = trn_metrics_ready(h->m, h->svc, why, sizeof(why));
        snprintf(msg, sizeof(msg), "%s\n", why);
        return reply_text(conn, ready ? MHD_HTTP_OK : MHD_HTTP_SERVICE_UNAVAILABLE, msg);
    }
    return reply_text(conn, MHD_HTTP_NOT_FOUND, "not found: try /metrics, /healthz, /readyz\n");
}

/* "host:port" or "[v6]:port" → a socket address. */
static int resolve(const char *addr, struct sockaddr_storage *out, char *err, size_t errlen) {
    char host[256];
    const char *colon = strrchr(addr, ':');
    if (!colon || colon == addr || (size_t)(colon - addr) >= sizeof(host) || !colon[1]) {
        snprintf(err, errlen, "--metrics-listen %s: expected host:port", addr);
        return -1;
    }
    size_t hl = (size_t)(colon - addr);
    const char *h = addr;
    if (h[0] == '[' && hl >= 2 && h[hl - 1] == ']') {
        h++;
        hl -= 2;
    }
    memcpy(host, h, hl);
    host[hl] = '\0';
    struct addrinfo hints = {.ai_family = AF_UNSPEC,
                             .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_NUMERICSERV | AI_PASSIVE};
    struct addrinfo *res = NULL;
    const int rc = getaddrinfo(host, colon + 1, &hints, &res);
    if (rc != 0 || !res) {
        snprintf(err, errlen, "--metrics-listen %s: %s", addr, gai_strerror(rc));
        return -1;
    }
    memset(out, 0, sizeof(*out));
    memcpy(out, res->ai_addr, res->ai_addrlen);
    freeaddrinfo(res);
    return 0;
}

trn_metrics_http *trn_metrics_http_start(const char *addr, trn_metrics *m, struct trn_service *svc,
                                         char *err, size_t errlen) {
    struct sockaddr_storage sa;
    if (resolve(addr, &sa, err, errlen) != 0)
        return NULL;
    trn_metrics_http *h = calloc(1, sizeof(*h));
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    h->m = m;
    h->svc = svc;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL;
    if (sa.ss_family == AF_INET6)
        flags |= MHD_USE_IPv6;
    h->mhd = MHD_start_daemon(flags, 0, NULL, NULL, on_request, h, MHD_OPTION_SOCK_ADDR,
                              (struct sockaddr *)&sa, MHD_OPTION_CONNECTION_LIMIT, 16u,
                              MHD_OPTION_CONNECTION_TIMEOUT, 10u, MHD_OPTION_END);
    if (!h->mhd) {
        snprintf(err, errlen, "--metrics-listen %s: cannot listen (address in use?)", addr);
        free(h);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(h->mhd, MHD_DAEMON_INFO_BIND_PORT);
    h->port = info ? (int)info->port : 0;
    trn_log(TRN_LOG_INFO, "metrics on http://%s/metrics (port %d; /healthz, /readyz)", addr,
            h->port);
    return h;
}

int trn_metrics_http_port(const trn_metrics_http *h) {
    return h->port;
}

void trn_metrics_http_stop(trn_metrics_http *h) {
    if (!h)
        return;
    MHD_stop_daemon(h->mhd);
    free(h);
}
