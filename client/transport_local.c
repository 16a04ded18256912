/*
 * transport_local.c — the client side of the local transport (unix:/path).
 *
 * Requests go out as trn_local_hdr frames with a fresh tag; replies may come
 * back in any order. Whichever calling thread finds no reader active becomes
 * the reader (leader/followers): it receives frames and hands each to the
 * thread waiting for its tag, so any number of threads can have calls in
 * flight and a long Synchronize on one thread does not stall the others.
 *
 * The connection is the session's lifeline: when this process exits or
 * crashes, the kernel closes the socket and the daemon releases the session.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "client/transport.h"

#define HDR_SIZE sizeof(trn_local_hdr)

typedef struct pending {
    uint64_t tag;
    int done;
    trn_wire_code code;
    uint8_t *body;
    size_t len;
    int fd;
    struct pending *next;
} pending;

typedef struct local_transport {
    trn_transport base;
    int sock;                  /* -1 when the connection could not be made */
    char error[256];           /* why it is broken */
    pthread_mutex_t send_lock; /* keeps frames whole on the socket */
    pthread_mutex_t lock;      /* everything below */
    pthread_cond_t cond;
    int reader_active;
    int broken;
    uint64_t next_tag;
    pending *waiting;
} local_transport;

static const trn_transport_ops local_ops;

trn_transport *trn_transport_local_open(const char *path) {
    local_transport *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    t->base.ops = &local_ops;
    pthread_mutex_init(&t->send_lock, NULL);
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->cond, NULL);
    t->next_tag = 1;
    struct sockaddr_un addr = {0};
    addr.sun_family = AF_UNIX;
    t->sock = -1;
    if (strlen(path) >= sizeof(addr.sun_path)) {
        snprintf(t->error, sizeof(t->error), "socket path %s is too long", path);
        t->broken = 1;
        return &t->base;
    }
    strcpy(addr.sun_path, path);
    const int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0 || connect(s, (struct sockaddr *)&addr, sizeof(addr)) != 0) {
        snprintf(t->error, sizeof(t->error), "cannot connect to unix:%s: %s", path,
                 strerror(errno));
        if (s >= 0)
            close(s);
        t->broken = 1;
        return &t->base;
    }
    t->sock = s;
    return &t->base;
}

static int send_all(int sock, const uint8_t *p, size_t n) {
    while (n) {
        const ssize_t k = send(sock, p, n, MSG_NOSIGNAL);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Receives exactly n bytes; collects a descriptor passed with them. */
static int recv_all(int sock, uint8_t *p, size_t n, int *fd) {
    while (n) {
        struct iovec iov = {p, n};
        char cbuf[CMSG_SPACE(sizeof(int))];
        struct msghdr msg = {0};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        msg.msg_control = cbuf;
        msg.msg_controllen = sizeof(cbuf);
        const ssize_t k = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        for (struct cmsghdr *cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
            if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) {
                int got;
                memcpy(&got, CMSG_DATA(cm), sizeof(int));
                if (*fd >= 0)
                    close(*fd);
                *fd = got;
            }
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Reads one reply frame. Returns 0, or -1 when the connection is gone. */
static int read_frame(local_transport *t, trn_local_hdr *h, uint8_t **body, int *fd) {
    *fd = -1;
    *body = NULL;
    if (recv_all(t->sock, (uint8_t *)h, HDR_SIZE, fd) != 0 ||
        h->len > TRNSCI_WIRE_MAX_MESSAGE_BYTES)
        goto fail;
    *body = malloc(h->len ? h->len : 1);
    if (!*body || recv_all(t->sock, *body, h->len, fd) != 0)
        goto fail;
    return 0;
fail:
    free(*body);
    *body = NULL;
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
    return -1;
}

/* With t->lock held: the connection broke; fail every waiter. */
static void mark_broken(local_transport *t, const char *why) {
    if (!t->broken)
        snprintf(t->error, sizeof(t->error), "%s", why);
    t->broken = 1;
    pthread_cond_broadcast(&t->cond);
}

/* With t->lock held: receives frames until p is answered or the socket
 * breaks, acting as the reader (or waiting for the current one). */
static void wait_for(local_transport *t, pending *p) {
    while (!p->done && !t->broken) {
        if (t->reader_active) {
            pthread_cond_wait(&t->cond, &t->lock);
            continue;
        }
        t->reader_active = 1;
        pthread_mutex_unlock(&t->lock);
        trn_local_hdr h;
        uint8_t *body;
        int fd;
        const int rc = read_frame(t, &h, &body, &fd);
        pthread_mutex_lock(&t->lock);
        t->reader_active = 0;
        if (rc != 0) {
            mark_broken(t, "the daemon closed the connection");
            break;
        }
        pending *w = t->waiting;
        while (w && w->tag != h.tag)
            w = w->next;
        if (w && !w->done) {
            w->done = 1;
            w->code = (trn_wire_code)h.kind;
            w->body = body;
            w->len = h.len;
            w->fd = fd;
        } else { /* a reply nobody waits for */
            free(body);
            if (fd >= 0)
                close(fd);
        }
        pthread_cond_broadcast(&t->cond);
    }
}

static void unlink_pending(local_transport *t, pending *p) {
    pending **l = &t->waiting;
    while (*l && *l != p)
        l = &(*l)->next;
    if (*l)
        *l = p->next;
}

static trn_wire_code local_call(trn_transport *base, trn_wire_method method,
                                const ProtobufCMessage *req,
                                const ProtobufCMessageDescriptor *reply_desc,
                                ProtobufCMessage **reply, int *fd, char *msg, size_t msglen,
                                int timeout_ms) {
    (void)timeout_ms;
    local_transport *t = (local_transport *)base;
    if (fd)
        *fd = -1;
    const size_t len = protobuf_c_message_get_packed_size(req);
    uint8_t *frame = malloc(HDR_SIZE + len);
    if (!frame) {
        snprintf(msg, msglen, "out of memory");
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    protobuf_c_message_pack(req, frame + HDR_SIZE);
    pending p = {0};
    p.fd = -1;

    pthread_mutex_lock(&t->lock);
    if (t->broken) {
        snprintf(msg, msglen, "%s", t->error);
        pthread_mutex_unlock(&t->lock);
        free(frame);
        return TRN_WIRE_UNAVAILABLE;
    }
    p.tag = t->next_tag++;
    p.next = t->waiting;
    t->waiting = &p;
    pthread_mutex_unlock(&t->lock);

    const trn_local_hdr h = {(uint32_t)len, (uint16_t)method, 0, p.tag};
    memcpy(frame, &h, HDR_SIZE);
    pthread_mutex_lock(&t->send_lock);
    const int sent = send_all(t->sock, frame, HDR_SIZE + len);
    pthread_mutex_unlock(&t->send_lock);
    free(frame);

    pthread_mutex_lock(&t->lock);
    if (sent != 0)
        mark_broken(t, "the daemon closed the connection");
    wait_for(t, &p);
    unlink_pending(t, &p);
    const int answered = p.done;
    pthread_mutex_unlock(&t->lock);

    if (!answered) {
        snprintf(msg, msglen, "%s", t->error);
        return TRN_WIRE_UNAVAILABLE;
    }
    trn_wire_code code = p.code;
    if (code == TRN_WIRE_OK) {
        if (reply_desc) {
            *reply = protobuf_c_message_unpack(reply_desc, NULL, p.len, p.body);
            if (!*reply) {
                code = TRN_WIRE_INTERNAL;
                snprintf(msg, msglen, "the daemon's %s reply could not be decoded",
                         reply_desc->short_name);
            }
        }
    } else {
        const size_t k = p.len < msglen - 1 ? p.len : msglen - 1;
        memcpy(msg, p.body, k);
        msg[k] = '\0';
    }
    free(p.body);
    if (fd && code == TRN_WIRE_OK)
        *fd = p.fd;
    else if (p.fd >= 0)
        close(p.fd);
    return code;
}

static int local_attach(trn_transport *base, const ProtobufCMessage *req) {
    (void)base;
    (void)req;
    return 0; /* the connection itself holds the session */
}

static void local_close(trn_transport *base) {
    local_transport *t = (local_transport *)base;
    if (t->sock >= 0)
        close(t->sock);
    pthread_cond_destroy(&t->cond);
    pthread_mutex_destroy(&t->lock);
    pthread_mutex_destroy(&t->send_lock);
    free(t);
}

static const trn_transport_ops local_ops = {
    .name = "local",
    .host_mapped = 1,
    .call = local_call,
    .attach = local_attach,
    .close = local_close,
};
