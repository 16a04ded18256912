/*
 * local_frontend.c — the local transport: a libuv loop thread, one unix
 * stream socket per client, trn_local_hdr frames carrying the same encoded
 * requests as gRPC, and buffer memfds passed with SCM_RIGHTS.
 *
 * Threads: the loop thread accepts, reads and dispatches requests, and owns
 * every uv handle. Replies may be produced on any thread (a Synchronize
 * finishes on a worker): they are written straight to the socket under the
 * connection's lock; only when the socket is full does the loop thread get
 * woken (uv_async) to wait for it to drain.
 *
 * Lifetime of a connection: one reference for the loop (dropped when its poll
 * handle is closed) plus one per call in flight. After the socket closes,
 * replies still in flight are dropped.
 *
 * Bad input: a frame longer than TRNSCI_WIRE_MAX_MESSAGE_BYTES or with
 * unknown flags ends the connection — and so its session — with a logged
 * error; other connections do not notice. A well-framed but undecodable body
 * is answered INVALID_ARGUMENT by the service, as on gRPC.
 */
#define _GNU_SOURCE
#include "daemon/local_frontend.h"

#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <uv.h>

#include "daemon/lockfile.h"
#include "daemon/log.h"
#include "trnsci_wire.h"

#define HDR_SIZE sizeof(trn_local_hdr)

typedef struct out_frame {
    struct out_frame *next;
    size_t len, off;
    int fd; /* sent with the first byte, then closed; -1 when none */
    uint8_t buf[];
} out_frame;

typedef struct conn conn;

struct conn {
    trn_local_frontend *fe;
    int fd;
    uv_poll_t poll;
    int writable_wanted; /* loop thread: UV_WRITABLE is on */
    int closing;         /* loop thread: close started */
    atomic_int refs;
    pthread_mutex_t lock; /* out queue, closed, need_writable, session */
    out_frame *out_head, *out_tail;
    int closed;
    int need_writable;
    trn_session *session;
    trn_call attach; /* handed to trn_session_attach: ends with the session */
    trn_peer peer;
    uint8_t *rbuf;
    size_t rlen, rcap;
    conn *prev, *next; /* loop thread */
};

typedef struct local_call {
    trn_call base;
    conn *c;
    uint64_t tag;
} local_call;

struct trn_local_frontend {
    trn_service *svc;
    uv_loop_t loop;
    uv_poll_t listen_poll;
    uv_async_t wake;
    pthread_t thread;
    int thread_started;
    int listen_fd, lock_fd;
    int listening; /* loop thread */
    char *path;
    atomic_int stop_accepting, stopping;
    conn *conns; /* loop thread */
};

/* ---- connections -------------------------------------------------------- */

static void conn_unref(conn *c) {
    if (atomic_fetch_sub(&c->refs, 1) != 1)
        return;
    for (out_frame *f = c->out_head, *next; f; f = next) {
        next = f->next;
        if (f->fd >= 0)
            close(f->fd);
        free(f);
    }
    pthread_mutex_destroy(&c->lock);
    free(c->rbuf);
    free(c);
}

/* With c->lock held: writes queued frames until done or the socket is full.
 * Returns -1 when the socket is broken. */
static int flush_locked(conn *c) {
    while (c->out_head) {
        out_frame *f = c->out_head;
        struct iovec iov = {f->buf + f->off, f->len - f->off};
        struct msghdr msg = {0};
        char cbuf[CMSG_SPACE(sizeof(int))];
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        if (f->fd >= 0) {
            memset(cbuf, 0, sizeof(cbuf));
            msg.msg_control = cbuf;
            msg.msg_controllen = sizeof(cbuf);
            struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
            cm->cmsg_level = SOL_SOCKET;
            cm->cmsg_type = SCM_RIGHTS;
            cm->cmsg_len = CMSG_LEN(sizeof(int));
            memcpy(CMSG_DATA(cm), &f->fd, sizeof(int));
        }
        const ssize_t n = sendmsg(c->fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
        }
        if (f->fd >= 0) { /* the descriptor went with the first byte */
            close(f->fd);
            f->fd = -1;
        }
        f->off += (size_t)n;
        if (f->off == f->len) {
            c->out_head = f->next;
            if (!c->out_head)
                c->out_tail = NULL;
            free(f);
        }
    }
    return 0;
}

/* From any thread: queue a frame and write what the socket takes now. */
static void conn_send(conn *c, out_frame *f) {
    pthread_mutex_lock(&c->lock);
    if (c->closed) {
        pthread_mutex_unlock(&c->lock);
        if (f->fd >= 0)
            close(f->fd);
        free(f);
        return;
    }
    f->next = NULL;
    if (c->out_tail)
        c->out_tail->next = f;
    else
        c->out_head = f;
    c->out_tail = f;
    const int broken = flush_locked(c) != 0;
    if ((c->out_head || broken) && !c->need_writable) {
        /* Let the loop wait for the socket to drain (or notice it broke). */
        c->need_writable = 1;
        uv_async_send(&c->fe->wake);
    }
    pthread_mutex_unlock(&c->lock);
}

static out_frame *frame_new(uint16_t kind, uint64_t tag, const void *body, size_t len, int fd) {
    out_frame *f = malloc(sizeof(*f) + HDR_SIZE + len);
    if (!f)
        return NULL;
    const trn_local_hdr h = {(uint32_t)len, kind, fd >= 0 ? TRN_LOCAL_FLAG_FD : 0, tag};
    memcpy(f->buf, &h, HDR_SIZE);
    if (len)
        memcpy(f->buf + HDR_SIZE, body, len);
    f->len = HDR_SIZE + len;
    f->off = 0;
    f->fd = fd;
    return f;
}

/* ---- calls ------------------------------------------------------------------ */

static void local_finish(trn_call *base, trn_wire_code code, const char *msg, uint8_t *body,
                         size_t len) {
    local_call *lc = (local_call *)base;
    conn *c = lc->c;
    int fd = base->reply_fd;
    if (code != TRN_WIRE_OK && fd >= 0) {
        close(fd);
        fd = -1;
    }
    const void *payload = code == TRN_WIRE_OK ? (const void *)body : (const void *)msg;
    const size_t plen = code == TRN_WIRE_OK ? len : (msg ? strlen(msg) : 0);
    out_frame *f = frame_new((uint16_t)code, lc->tag, payload, plen, fd);
    free(body);
    if (f) {
        conn_send(c, f);
    } else {
        trn_log(TRN_LOG_ERROR, "out of memory replying on the local transport");
        if (fd >= 0)
            close(fd);
    }
    conn_unref(c);
    free(lc);
}

static int local_bind_session(trn_call *base, trn_session *s) {
    conn *c = ((local_call *)base)->c;
    pthread_mutex_lock(&c->lock);
    const int taken = c->session != NULL || c->closed;
    if (!taken) {
        c->session = s;
        trn_session_ref(s);
    }
    pthread_mutex_unlock(&c->lock);
    if (taken)
        return -1;
    trn_session_attach(s, &c->attach);
    return 0;
}

/* The session ended from the daemon's side (CloseSession, shutdown): the
 * connection stays open without one. */
static void conn_session_ended(trn_call *attach, trn_wire_code code, const char *msg, uint8_t *body,
                               size_t len) {
    (void)code;
    (void)msg;
    (void)len;
    free(body);
    conn *c = (conn *)((char *)attach - offsetof(conn, attach));
    pthread_mutex_lock(&c->lock);
    trn_session *s = c->session;
    c->session = NULL;
    pthread_mutex_unlock(&c->lock);
    if (s)
        trn_session_unref(s);
}

static void dispatch(conn *c, const trn_local_hdr *h, const uint8_t *body) {
    local_call *lc = calloc(1, sizeof(*lc));
    if (!lc) {
        trn_log(TRN_LOG_ERROR, "out of memory on the local transport");
        return;
    }
    lc->base.finish = local_finish;
    lc->base.transport = TRN_TRANSPORT_LOCAL;
    lc->base.peer = c->peer;
    lc->base.reply_fd = -1;
    lc->base.bind_session = local_bind_session;
    lc->c = c;
    lc->tag = h->tag;
    atomic_fetch_add(&c->refs, 1);
    if (h->kind == TRN_WIRE_ATTACH) {
        local_finish(&lc->base, TRN_WIRE_UNIMPLEMENTED,
                     "Attach is not used on the local transport: the connection holds the "
                     "session",
                     NULL, 0);
        return;
    }
    trn_service_handle(c->fe->svc, (trn_wire_method)h->kind, body, h->len, &lc->base);
}

/* ---- the loop thread ------------------------------------------------------- */

static void on_conn_closed(uv_handle_t *h) {
    conn *c = h->data;
    close(c->fd);
    conn_unref(c);
}

static void conn_close(conn *c, const char *why) {
    if (c->closing)
        return;
    c->closing = 1;
    pthread_mutex_lock(&c->lock);
    c->closed = 1;
    trn_session *s = c->session;
    c->session = NULL;
    pthread_mutex_unlock(&c->lock);
    if (why)
        trn_log(TRN_LOG_DEBUG, "local connection (pid %u) closed: %s", c->peer.pid, why);
    if (c->prev)
        c->prev->next = c->next;
    else
        c->fe->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    uv_poll_stop(&c->poll);
    uv_close((uv_handle_t *)&c->poll, on_conn_closed);
    if (s) {
        if (trn_session_detach(s, &c->attach))
            trn_session_close(s, "client disconnected");
        trn_session_unref(s);
    }
}

static void conn_set_writable(conn *c, int on) {
    if (c->closing || c->writable_wanted == on)
        return;
    c->writable_wanted = on;
    uv_poll_start(&c->poll, UV_READABLE | UV_DISCONNECT | (on ? UV_WRITABLE : 0), NULL);
}

/* Parses and dispatches every complete frame in the read buffer. Returns -1
 * (after logging) when the peer sent garbage. */
static int consume_frames(conn *c) {
    size_t pos = 0;
    while (c->rlen - pos >= HDR_SIZE) {
        trn_local_hdr h;
        memcpy(&h, c->rbuf + pos, HDR_SIZE);
        if (h.len > TRNSCI_WIRE_MAX_MESSAGE_BYTES || h.flags != 0) {
            trn_log(TRN_LOG_WARN,
                    "local client (pid %u, uid %u) sent a malformed frame (length %u, flags "
                    "%u): closing its connection and session",
                    c->peer.pid, c->peer.uid, h.len, h.flags);
            return -1;
        }
        if (c->rlen - pos - HDR_SIZE < h.len)
            break;
        dispatch(c, &h, c->rbuf + pos + HDR_SIZE);
        pos += HDR_SIZE + h.len;
    }
    memmove(c->rbuf, c->rbuf + pos, c->rlen - pos);
    c->rlen -= pos;
    return 0;
}

static int ensure_rbuf(conn *c) {
    size_t need = HDR_SIZE;
    if (c->rlen >= HDR_SIZE) {
        trn_local_hdr h;
        memcpy(&h, c->rbuf, HDR_SIZE);
        need = HDR_SIZE + h.len; /* h.len already checked by consume_frames */
    }
    if (need < 64 * 1024)
        need = 64 * 1024;
    if (c->rcap - c->rlen >= 4096 && c->rcap >= need)
        return 0;
    size_t cap = c->rcap ? c->rcap : 64 * 1024;
    while (cap < need || cap - c->rlen < 4096)
        cap *= 2;
    uint8_t *p = realloc(c->rbuf, cap);
    if (!p)
        return -1;
    c->rbuf = p;
    c->rcap = cap;
    return 0;
}

static void on_conn_event(uv_poll_t *h, int status, int events) {
    conn *c = h->data;
    if (status < 0) {
        conn_close(c, uv_strerror(status));
        return;
    }
    if (events & UV_WRITABLE) {
        pthread_mutex_lock(&c->lock);
        const int broken = flush_locked(c) != 0;
        const int drained = c->out_head == NULL;
        if (drained || broken)
            c->need_writable = 0;
        pthread_mutex_unlock(&c->lock);
        if (broken) {
            conn_close(c, "write failed");
            return;
        }
        if (drained)
            conn_set_writable(c, 0);
    }
    if (events & (UV_READABLE | UV_DISCONNECT)) {
        for (;;) {
            if (ensure_rbuf(c) != 0) {
                conn_close(c, "out of memory");
                return;
            }
            const ssize_t n = recv(c->fd, c->rbuf + c->rlen, c->rcap - c->rlen, MSG_DONTWAIT);
            if (n == 0) {
                conn_close(c, "end of stream");
                return;
            }
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                if (errno == EAGAIN || errno == EWOULDBLOCK)
                    break;
                conn_close(c, strerror(errno));
                return;
            }
            c->rlen += (size_t)n;
            if (consume_frames(c) != 0) {
                conn_close(c, "malformed frame");
                return;
            }
        }
    }
}

static void on_accept(uv_poll_t *h, int status, int events) {
    (void)events;
    trn_local_frontend *fe = h->data;
    if (status < 0)
        return;
    for (;;) {
        const int fd = accept4(fe->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK)
                trn_log(TRN_LOG_WARN, "accept on %s: %s", fe->path, strerror(errno));
            return;
        }
        conn *c = calloc(1, sizeof(*c));
        struct ucred cred;
        socklen_t clen = sizeof(cred);
        if (!c || uv_poll_init(&fe->loop, &c->poll, fd) != 0) {
            free(c);
            close(fd);
            trn_log(TRN_LOG_ERROR, "cannot accept a local client: out of memory");
            continue;
        }
        c->fe = fe;
        c->fd = fd;
        atomic_init(&c->refs, 1);
        pthread_mutex_init(&c->lock, NULL);
        c->attach.finish = conn_session_ended;
        c->attach.transport = TRN_TRANSPORT_LOCAL;
        c->attach.reply_fd = -1;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) == 0) {
            c->peer = (trn_peer){1, (uint32_t)cred.uid, (uint32_t)cred.gid, (uint32_t)cred.pid};
        }
        c->poll.data = c;
        c->next = fe->conns;
        if (fe->conns)
            fe->conns->prev = c;
        fe->conns = c;
        uv_poll_start(&c->poll, UV_READABLE | UV_DISCONNECT, on_conn_event);
    }
}

static void on_listen_closed(uv_handle_t *h) {
    trn_local_frontend *fe = h->data;
    close(fe->listen_fd);
    fe->listen_fd = -1;
}

static void stop_listening(trn_local_frontend *fe) {
    if (!fe->listening)
        return;
    fe->listening = 0;
    uv_poll_stop(&fe->listen_poll);
    uv_close((uv_handle_t *)&fe->listen_poll, on_listen_closed);
}

static void on_wake(uv_async_t *h) {
    trn_local_frontend *fe = h->data;
    if (atomic_load(&fe->stop_accepting))
        stop_listening(fe);
    if (atomic_load(&fe->stopping)) {
        while (fe->conns)
            conn_close(fe->conns, "daemon shutting down");
        uv_close((uv_handle_t *)&fe->wake, NULL);
        return;
    }
    for (conn *c = fe->conns, *next; c; c = next) {
        next = c->next;
        pthread_mutex_lock(&c->lock);
        const int want = c->need_writable;
        pthread_mutex_unlock(&c->lock);
        if (want)
            conn_set_writable(c, 1);
    }
}

static void *loop_main(void *arg) {
    trn_local_frontend *fe = arg;
    uv_run(&fe->loop, UV_RUN_DEFAULT);
    return NULL;
}

/* ---- start and stop ---------------------------------------------------------- */

static int bind_socket(trn_local_frontend *fe, const char *group, char *err, size_t errlen) {
    struct sockaddr_un addr = {0};
    addr.sun_family = AF_UNIX;
    if (strlen(fe->path) >= sizeof(addr.sun_path)) {
        snprintf(err, errlen, "socket path %s is longer than %zu bytes", fe->path,
                 sizeof(addr.sun_path) - 1);
        return -1;
    }
    strcpy(addr.sun_path, fe->path);
    fe->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fe->listen_fd < 0)
        goto fail;
    unlink(fe->path); /* a stale socket: the lock file says no daemon owns it */
    if (bind(fe->listen_fd, (struct sockaddr *)&addr, sizeof(addr)) != 0)
        goto fail;
    if (chmod(fe->path, 0660) != 0)
        goto fail;
    if (group) {
        const struct group *g = getgrnam(group);
        if (!g) {
            snprintf(err, errlen, "--socket-group %s: no such group", group);
            return -1;
        }
        if (chown(fe->path, (uid_t)-1, g->gr_gid) != 0)
            goto fail;
    }
    if (listen(fe->listen_fd, 128) != 0)
        goto fail;
    return 0;
fail:
    snprintf(err, errlen, "cannot listen on unix:%s: %s", fe->path, strerror(errno));
    return -1;
}

trn_local_frontend *trn_local_frontend_start(trn_service *svc, const char *path, const char *group,
                                             char *err, size_t errlen) {
    trn_local_frontend *fe = calloc(1, sizeof(*fe));
    if (!fe) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    fe->svc = svc;
    fe->listen_fd = -1;
    fe->path = strdup(path);
    fe->lock_fd = trn_lockfile_acquire(path, err, errlen);
    if (fe->lock_fd < 0 || bind_socket(fe, group, err, errlen) != 0)
        goto fail;
    uv_loop_init(&fe->loop);
    uv_async_init(&fe->loop, &fe->wake, on_wake);
    fe->wake.data = fe;
    uv_poll_init(&fe->loop, &fe->listen_poll, fe->listen_fd);
    fe->listen_poll.data = fe;
    uv_poll_start(&fe->listen_poll, UV_READABLE, on_accept);
    fe->listening = 1;
    if (pthread_create(&fe->thread, NULL, loop_main, fe) != 0) {
        snprintf(err, errlen, "cannot start the local transport's thread");
        uv_close((uv_handle_t *)&fe->listen_poll, NULL);
        uv_close((uv_handle_t *)&fe->wake, NULL);
        uv_run(&fe->loop, UV_RUN_DEFAULT);
        uv_loop_close(&fe->loop);
        goto fail;
    }
    fe->thread_started = 1;
    trn_log(TRN_LOG_INFO, "listening on unix:%s (local transport, shared memory)", path);
    return fe;
fail:
    if (fe->listen_fd >= 0) {
        close(fe->listen_fd);
        unlink(path);
    }
    if (fe->lock_fd >= 0)
        close(fe->lock_fd);
    free(fe->path);
    free(fe);
    return NULL;
}

void trn_local_frontend_stop_accepting(trn_local_frontend *fe) {
    atomic_store(&fe->stop_accepting, 1);
    uv_async_send(&fe->wake);
}

void trn_local_frontend_destroy(trn_local_frontend *fe) {
    if (!fe)
        return;
    atomic_store(&fe->stop_accepting, 1);
    atomic_store(&fe->stopping, 1);
    uv_async_send(&fe->wake);
    pthread_join(fe->thread, NULL);
    uv_loop_close(&fe->loop);
    unlink(fe->path);
    close(fe->lock_fd);
    free(fe->path);
    free(fe);
}
