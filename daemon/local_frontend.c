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
 * Launch queue: a request flagged TRN_LOCAL_FLAG_NO_REPLY (an asynchronous
 * Submit) gets no reply. While the connection's session has max-queued-ops
 * queued, the loop takes none of its requests (ring or socket): the client's
 * ring and socket fill and its launches block, as a full CUDA launch queue
 * does, until the session's ops drain by a quarter (trn_session_ops_full;
 * its `room` callback wakes the loop). Memory stays bounded on both sides
 * and a well-behaved client never sees a queue-full error.
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
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <uv.h>

#include "daemon/bufmem.h"
#include "daemon/lockfile.h"
#include "daemon/log.h"
#include "daemon/metrics.h"
#include "daemon/unix_socket.h"
#include "trnsci_ring.h"
#include "trnsci_wire.h"

#define HDR_SIZE sizeof(trn_local_hdr)

typedef struct out_frame {
    struct out_frame *next;
    size_t len, off;
    int nfds; /* descriptors sent with the first byte, then closed */
    int fds[TRN_LOCAL_MAX_FDS];
    uint8_t buf[];
} out_frame;

static void frame_close_fds(out_frame *f) {
    for (int i = 0; i < f->nfds; i++)
        close(f->fds[i]);
    f->nfds = 0;
}

typedef struct conn conn;

struct conn {
    trn_local_frontend *fe;
    int fd;
    uv_poll_t poll;
    int writable_wanted; /* loop thread: UV_WRITABLE is on */
    int read_paused;     /* loop thread: too many replies queued, requests wait */
    int ops_paused;      /* loop thread: the session's launch queue is full, requests wait */
    atomic_int room;     /* set by the session (conn_room) when ops_paused may end */
    int unkicked;        /* loop thread: launches dispatched since the last conn_kick */
    atomic_int owed;     /* replies owed for requests taken from the ring */
    int closing;         /* loop thread: close started */
    atomic_int refs;
    pthread_mutex_t lock; /* out queue, closed, need_writable, session */
    out_frame *out_head, *out_tail;
    size_t out_bytes; /* queued reply bytes not yet written */
    int closed;
    int need_writable;
    trn_session *session;
    trn_call attach; /* handed to trn_session_attach: ends with the session */
    trn_peer peer;
    uint8_t *rbuf;
    size_t rlen, rcap;
    conn *prev, *next; /* loop thread */
    /* The shared-memory rings, once the client asked for them. */
    trn_ring_shared *ring; /* the mapping, or NULL */
    trn_ring_end sq;       /* consumer: loop thread only */
    trn_ring_end cq;       /* producer: under lock */
    int ring_corrupt;      /* under lock: the client broke the completion ring */
    int sq_bell, cq_bell;  /* eventfds */
    uv_poll_t bell_poll;
    int bell_polling; /* loop thread */
    uint8_t *sq_body; /* one popped request body */
    trn_spin spin;    /* loop thread: how long to watch an empty ring */
};

typedef struct local_call {
    trn_call base;
    conn *c;
    uint64_t tag;
    int via_ring; /* arrived on the submission ring: reply on the completion ring */
} local_call;

struct trn_local_frontend {
    trn_service *svc;
    uv_loop_t loop;
    uv_poll_t listen_poll;
    uv_async_t wake;
    pthread_t thread;
    int thread_started;
    int listen_fd, lock_fd;
    int inherited; /* listen_fd came from the service manager: never unlink its path */
    int listening; /* loop thread */
    char *path;
    atomic_int stop_accepting, stopping;
    conn *conns; /* loop thread */
};

/* ---- connections -------------------------------------------------------- */

static void ring_release(conn *c);

static void conn_unref(conn *c) {
    if (atomic_fetch_sub(&c->refs, 1) != 1)
        return;
    for (out_frame *f = c->out_head, *next; f; f = next) {
        next = f->next;
        frame_close_fds(f);
        free(f);
    }
    ring_release(c);
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
        char cbuf[CMSG_SPACE(TRN_LOCAL_MAX_FDS * sizeof(int))];
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        if (f->nfds > 0) {
            memset(cbuf, 0, sizeof(cbuf));
            msg.msg_control = cbuf;
            msg.msg_controllen = CMSG_SPACE((size_t)f->nfds * sizeof(int));
            struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
            cm->cmsg_level = SOL_SOCKET;
            cm->cmsg_type = SCM_RIGHTS;
            cm->cmsg_len = CMSG_LEN((size_t)f->nfds * sizeof(int));
            memcpy(CMSG_DATA(cm), f->fds, (size_t)f->nfds * sizeof(int));
        }
        const ssize_t n = sendmsg(c->fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
        }
        frame_close_fds(f); /* the descriptors went with the first byte */
        f->off += (size_t)n;
        if (f->off == f->len) {
            c->out_bytes -= f->len;
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
        frame_close_fds(f);
        free(f);
        return;
    }
    f->next = NULL;
    if (c->out_tail)
        c->out_tail->next = f;
    else
        c->out_head = f;
    c->out_tail = f;
    c->out_bytes += f->len;
    const int broken = flush_locked(c) != 0;
    if ((c->out_head || broken) && !c->need_writable) {
        /* Let the loop wait for the socket to drain (or notice it broke). */
        c->need_writable = 1;
        uv_async_send(&c->fe->wake);
    }
    pthread_mutex_unlock(&c->lock);
}

/* A reply frame carrying nfds descriptors (0, 1 or 3; see trnsci_wire.h). */
static out_frame *frame_new(uint16_t kind, uint64_t tag, const void *body, size_t len,
                            const int *fds, int nfds) {
    out_frame *f = malloc(sizeof(*f) + HDR_SIZE + len);
    if (!f)
        return NULL;
    const uint16_t flags = (uint16_t)(nfds == 3 ? TRN_LOCAL_FLAG_FD3
                                      : nfds    ? TRN_LOCAL_FLAG_FD
                                                : 0);
    const trn_local_hdr h = {(uint32_t)len, kind, flags, tag};
    memcpy(f->buf, &h, HDR_SIZE);
    if (len)
        memcpy(f->buf + HDR_SIZE, body, len);
    f->len = HDR_SIZE + len;
    f->off = 0;
    f->nfds = nfds;
    for (int i = 0; i < nfds; i++)
        f->fds[i] = fds[i];
    return f;
}

/* ---- backpressure --------------------------------------------------------- */

/* Replies queued for a client that does not read them. Past this the loop
 * stops taking its requests (from the socket and the ring) until the queue
 * drains to half, so a client cannot grow the daemon's memory. */
#define OUT_LIMIT (8u << 20)

static int over_limit(conn *c) {
    pthread_mutex_lock(&c->lock);
    const int over = c->out_bytes > OUT_LIMIT;
    pthread_mutex_unlock(&c->lock);
    return over;
}

static void on_conn_event(uv_poll_t *h, int status, int events);

/* Loop thread: polls for what the connection needs now. */
static void conn_update_poll(conn *c) {
    if (c->closing)
        return;
    const int ev = (c->read_paused || c->ops_paused ? 0 : UV_READABLE) |
                   (c->writable_wanted ? UV_WRITABLE : 0);
    uv_poll_start(&c->poll, ev | UV_DISCONNECT, on_conn_event);
}

/* Loop thread: stops taking requests until the replies drain. */
static void conn_pause_reading(conn *c) {
    c->read_paused = 1;
    c->writable_wanted = 1;
    conn_update_poll(c);
}

/* Loop thread: wakes the workers for the launches dispatched so far (their
 * ops were queued without a wake-up: trn_service_kick). */
static void conn_kick(conn *c) {
    if (!c->unkicked)
        return;
    c->unkicked = 0;
    trn_service_kick(c->fe->svc);
}

/* Whether the connection's session has a full launch queue; if so the
 * session calls conn_room once it has room. */
static int session_full(conn *c) {
    pthread_mutex_lock(&c->lock);
    trn_session *s = c->session;
    if (s)
        trn_session_ref(s);
    pthread_mutex_unlock(&c->lock);
    if (!s)
        return 0;
    const int full = trn_session_ops_full(s);
    trn_session_unref(s);
    return full;
}

/* Loop thread, before taking a request: whether it must wait (and the
 * connection is paused until it may go on). */
static int must_wait(conn *c) {
    if (!c->read_paused && !c->ops_paused) {
        if (over_limit(c))
            conn_pause_reading(c);
        else if (session_full(c)) {
            c->ops_paused = 1;
            conn_update_poll(c);
        } else
            return 0;
    }
    conn_kick(c); /* the launches taken so far run while it waits */
    return 1;
}

/* The session's `room` callback (any thread, the session's lock held). */
static void conn_room(trn_call *attach) {
    conn *c = (conn *)((char *)attach - offsetof(conn, attach));
    atomic_store(&c->room, 1);
    uv_async_send(&c->fe->wake);
}

/* ---- rings ---------------------------------------------------------------- */

static void ring_release(conn *c) {
    if (!c->ring)
        return;
    munmap(c->ring, TRN_RING_REGION_BYTES);
    c->ring = NULL;
    close(c->sq_bell);
    close(c->cq_bell);
    free(c->sq_body);
    c->sq_body = NULL;
}

/* With c->lock held: the client broke its rings; the loop thread ends the
 * connection (woken through the same path as a full socket). */
static void mark_corrupt_locked(conn *c) {
    c->ring_corrupt = 1;
    if (!c->need_writable) {
        c->need_writable = 1;
        uv_async_send(&c->fe->wake);
    }
}

/* From any thread: puts a reply on the completion ring and rings the client
 * if it sleeps. Returns 0, or -1 when the reply must go on the socket (the
 * ring is full, absent or corrupt). */
static int ring_reply(conn *c, uint16_t code, uint64_t tag, const void *body, size_t len) {
    int rc = -1;
    pthread_mutex_lock(&c->lock);
    if (c->ring && !c->ring_corrupt && !c->closed && len <= UINT32_MAX) {
        const trn_local_hdr h = {(uint32_t)len, code, 0, tag};
        const int pushed = trn_ring_push(&c->cq, &h, body);
        if (pushed == 0) {
            rc = 0;
            __atomic_thread_fence(__ATOMIC_SEQ_CST);
            if (__atomic_load_n(&c->ring->client_waiting, __ATOMIC_RELAXED)) {
                const uint64_t one = 1;
                ssize_t w = write(c->cq_bell, &one, sizeof(one));
                (void)w;
            }
        } else if (pushed < 0) {
            mark_corrupt_locked(c);
        }
    }
    pthread_mutex_unlock(&c->lock);
    return rc;
}

static void dispatch(conn *c, const trn_local_hdr *h, const uint8_t *body, int via_ring);
static void conn_close(conn *c, const char *why);

/* Launches taken from the ring between two wake-ups of the workers: while a
 * client launches faster than the workers run, they run in batches of this
 * many, without a wake-up (a context switch on a shared CPU) per op. */
#define KICK_EVERY 32

/* Loop thread: serves the submission ring until it has been empty for
 * RING_SPIN_NS, then arms the doorbell. Returns -1 after closing the
 * connection over a corrupt ring. */
static int ring_drain(conn *c) {
    __atomic_store_n(&c->ring->daemon_waiting, 0, __ATOMIC_RELAXED);
    unsigned burst = 0;
    uint64_t idle_since = 0;
    int spun = 0, owed_seen = 0;
    for (;;) {
        if (must_wait(c))
            return 0; /* resumed once replies drain or the session has room */
        trn_local_hdr h;
        const int rc = trn_ring_pop(&c->sq, &h, c->sq_body, TRN_RING_BYTES / 2);
        if (rc < 0 || (rc == 0 && (h.flags & ~TRN_LOCAL_FLAG_NO_REPLY) != 0)) {
            trn_log(TRN_LOG_WARN,
                    "local client (pid %u, uid %u) corrupted its submission ring: closing its "
                    "connection and session",
                    c->peer.pid, c->peer.uid);
            conn_close(c, "corrupt submission ring");
            return -1;
        }
        if (rc == 0) {
            if (spun)
                trn_spin_result(&c->spin, 1);
            spun = 0;
            dispatch(c, &h, c->sq_body, 1);
            if (++burst % KICK_EVERY == 0)
                conn_kick(c);
            idle_since = 0;
            continue;
        }
        /* The ring is empty: run what it brought — a small op here, on its
         * core's executor, rather than waking the core's worker. */
        if (c->unkicked) {
            c->unkicked = 0;
            if (trn_service_kick_run(c->fe->svc))
                continue;
        }
        const uint64_t now = trn_spin_now_ns();
        if (!idle_since) {
            idle_since = now;
            owed_seen = 0;
        }
        /* While a reply the client waits for is still to come (a
         * Synchronize), its next request follows soon after it: keep
         * watching for a while whatever the budget says. (With asynchronous
         * launch that wait is the only one per iteration; letting the budget
         * decay to sleeping there would make both sides pay a doorbell for
         * every request.) */
        if (atomic_load(&c->owed) > 0) {
            owed_seen = 1;
        } else if (owed_seen == 1) {
            /* The reply went out while we watched: the client's next
             * request follows it, so the window starts again here. */
            idle_since = now;
            owed_seen = 2;
        }
        const uint64_t budget =
            owed_seen && c->spin.ns < TRN_SPIN_MAX_NS ? TRN_SPIN_MAX_NS : c->spin.ns;
        if (now - idle_since < budget) {
            spun = 1;
            sched_yield(); /* the client may be waiting for this CPU */
            continue;
        }
        if (spun || c->spin.ns == 0)
            trn_spin_result(&c->spin, 0);
        spun = 0;
        /* Going to sleep: say so, then look once more (the client checks the
         * flag after publishing, so one of us sees the other). */
        __atomic_store_n(&c->ring->daemon_waiting, 1, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        const int ready = trn_ring_ready(&c->sq);
        if (ready == 0)
            return 0;
        __atomic_store_n(&c->ring->daemon_waiting, 0, __ATOMIC_RELAXED);
        idle_since = 0;
    }
}

static void on_bell(uv_poll_t *h, int status, int events) {
    (void)events;
    conn *c = h->data;
    if (status < 0)
        return;
    uint64_t v;
    ssize_t r = read(c->sq_bell, &v, sizeof(v)); /* reset the eventfd */
    (void)r;
    ring_drain(c);
}

/* Loop thread: creates the rings and replies with their three descriptors. */
static void ring_setup(conn *c, uint64_t tag) {
    char err[256] = "";
    int mfd = -1, fds[3] = {-1, -1, -1};
    if (c->ring) {
        snprintf(err, sizeof(err), "this connection already has rings");
        goto fail;
    }
    void *region = trn_bufmem_shared(TRN_RING_REGION_BYTES, NULL, &mfd, err, sizeof(err));
    if (!region)
        goto fail;
    c->sq_bell = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    c->cq_bell = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    c->sq_body = malloc(TRN_RING_BYTES / 2);
    if (c->sq_bell < 0 || c->cq_bell < 0 || !c->sq_body || (fds[1] = dup(c->sq_bell)) < 0 ||
        (fds[2] = dup(c->cq_bell)) < 0 ||
        uv_poll_init(&c->fe->loop, &c->bell_poll, c->sq_bell) != 0) {
        snprintf(err, sizeof(err), "cannot set up rings: %s", strerror(errno));
        munmap(region, TRN_RING_REGION_BYTES);
        close(mfd);
        if (c->sq_bell >= 0)
            close(c->sq_bell);
        if (c->cq_bell >= 0)
            close(c->cq_bell);
        free(c->sq_body);
        c->sq_body = NULL;
        mfd = -1;
        goto fail;
    }
    trn_ring_shared *rs = region;
    rs->magic = TRN_RING_MAGIC;
    rs->ring_bytes = TRN_RING_BYTES;
    uint8_t *rings = (uint8_t *)region + sizeof(trn_ring_shared);
    c->sq = (trn_ring_end){rings, TRN_RING_BYTES, 0, &rs->sq_head, &rs->sq_tail};
    c->spin = (trn_spin){TRN_SPIN_PROBE_NS, 0};
    c->cq = (trn_ring_end){rings + TRN_RING_BYTES, TRN_RING_BYTES, 0, &rs->cq_tail, &rs->cq_head};
    __atomic_store_n(&rs->daemon_waiting, 1, __ATOMIC_RELEASE);
    c->bell_poll.data = c;
    uv_poll_start(&c->bell_poll, UV_READABLE, on_bell);
    c->bell_polling = 1;
    pthread_mutex_lock(&c->lock);
    c->ring = rs;
    pthread_mutex_unlock(&c->lock);
    fds[0] = mfd;
    out_frame *f = frame_new(TRN_WIRE_OK, tag, NULL, 0, fds, 3);
    if (f)
        conn_send(c, f);
    else
        for (int i = 0; i < 3; i++)
            close(fds[i]);
    return;
fail:
    for (int i = 1; i < 3; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    out_frame *e = frame_new(TRN_WIRE_RESOURCE_EXHAUSTED, tag, err, strlen(err), NULL, 0);
    if (e)
        conn_send(c, e);
}

/* ---- calls ------------------------------------------------------------------ */

static void local_finish(trn_call *base, trn_wire_code code, const char *msg, uint8_t *body,
                         size_t len) {
    local_call *lc = (local_call *)base;
    conn *c = lc->c;
    int fd = base->reply_fd;
    if (lc->via_ring && !base->no_reply)
        atomic_fetch_sub(&c->owed, 1);
    if (base->no_reply) { /* the client does not wait: nothing to send */
        if (fd >= 0)
            close(fd);
        free(body);
        conn_unref(c);
        free(lc);
        return;
    }
    if (code != TRN_WIRE_OK && fd >= 0) {
        close(fd);
        fd = -1;
    }
    if (lc->via_ring && base->malformed) {
        /* Garbage on a ring ends the session (on the socket, an undecodable
         * body is only an error reply, as on gRPC). */
        pthread_mutex_lock(&c->lock);
        mark_corrupt_locked(c);
        pthread_mutex_unlock(&c->lock);
    }
    const void *payload = code == TRN_WIRE_OK ? (const void *)body : (const void *)msg;
    const size_t plen = code == TRN_WIRE_OK ? len : (msg ? strlen(msg) : 0);
    if (c->fe->svc->metrics)
        trn_metrics_sent(c->fe->svc->metrics, TRN_TRANSPORT_LOCAL, plen);
    if (fd < 0 && lc->via_ring && ring_reply(c, (uint16_t)code, lc->tag, payload, plen) == 0) {
        free(body);
        conn_unref(c);
        free(lc);
        return;
    }
    out_frame *f = frame_new((uint16_t)code, lc->tag, payload, plen, &fd, fd >= 0 ? 1 : 0);
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
    /* The session's pointer to c->attach holds a reference to the connection:
     * the session may finish it from another thread after the loop has
     * closed the connection. Dropped by conn_session_ended, or by conn_close
     * when it takes the attach back first. */
    atomic_fetch_add(&c->refs, 1);
    if (trn_session_attach(s, &c->attach) != 0) {
        pthread_mutex_lock(&c->lock);
        c->session = NULL;
        pthread_mutex_unlock(&c->lock);
        trn_session_unref(s);
        conn_unref(c);
        return -1;
    }
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
    conn_unref(c); /* the session's reference (local_bind_session) */
}

static void dispatch(conn *c, const trn_local_hdr *h, const uint8_t *body, int via_ring) {
    if (h->kind == TRN_LOCAL_RING_SETUP && !via_ring) {
        ring_setup(c, h->tag);
        return;
    }
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
    lc->via_ring = via_ring;
    lc->base.no_reply = (h->flags & TRN_LOCAL_FLAG_NO_REPLY) != 0;
    /* ring_drain kicks when the ring is empty; a socket frame, after it. */
    lc->base.kicks_later = via_ring || lc->base.no_reply;
    c->unkicked |= lc->base.kicks_later;
    if (via_ring && !lc->base.no_reply)
        atomic_fetch_add(&c->owed, 1);
    lc->base.scoped = 1;
    pthread_mutex_lock(&c->lock);
    lc->base.session_scope = c->session ? c->session->id : 0;
    pthread_mutex_unlock(&c->lock);
    atomic_fetch_add(&c->refs, 1);
    if (h->kind == TRN_WIRE_LAUNCH) {
        local_finish(&lc->base, TRN_WIRE_UNIMPLEMENTED,
                     "Launch is gRPC's asynchronous launch; on the local transport a Submit "
                     "frame flagged TRN_LOCAL_FLAG_NO_REPLY is",
                     NULL, 0);
        return;
    }
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
    if (c->bell_polling) {
        /* The bell's handle closes first; the connection's close callback,
         * queued after it, releases the rings. */
        c->bell_polling = 0;
        uv_poll_stop(&c->bell_poll);
        uv_close((uv_handle_t *)&c->bell_poll, NULL);
    }
    uv_poll_stop(&c->poll);
    uv_close((uv_handle_t *)&c->poll, on_conn_closed);
    if (s) {
        if (trn_session_detach(s, &c->attach)) {
            trn_session_close(s, "client disconnected");
            conn_unref(c); /* the session's reference: it will not finish c->attach */
        }
        trn_session_unref(s);
    }
}

static void conn_set_writable(conn *c, int on) {
    if (c->closing || c->writable_wanted == on)
        return;
    c->writable_wanted = on;
    conn_update_poll(c);
}

/* Parses and dispatches every complete frame in the read buffer. Returns -1
 * (after logging) when the peer sent garbage. */
static int consume_frames(conn *c) {
    size_t pos = 0;
    while (c->rlen - pos >= HDR_SIZE) {
        trn_local_hdr h;
        memcpy(&h, c->rbuf + pos, HDR_SIZE);
        if (h.len > TRNSCI_WIRE_MAX_MESSAGE_BYTES || (h.flags & ~TRN_LOCAL_FLAG_NO_REPLY) != 0) {
            trn_log(TRN_LOG_WARN,
                    "local client (pid %u, uid %u) sent a malformed frame (length %u, flags "
                    "%u): closing its connection and session",
                    c->peer.pid, c->peer.uid, h.len, h.flags);
            return -1;
        }
        if (c->rlen - pos - HDR_SIZE < h.len || must_wait(c))
            break;
        dispatch(c, &h, c->rbuf + pos + HDR_SIZE, 0);
        pos += HDR_SIZE + h.len;
    }
    conn_kick(c);
    memmove(c->rbuf, c->rbuf + pos, c->rlen - pos);
    c->rlen -= pos;
    return 0;
}

/* Loop thread: takes up the requests left waiting after a pause, buffered
 * frames first. Returns -1 after closing the connection. */
static int conn_resume(conn *c) {
    if (consume_frames(c) != 0) {
        conn_close(c, "malformed frame");
        return -1;
    }
    if (c->ring && !c->read_paused && !c->ops_paused && ring_drain(c) != 0)
        return -1;
    conn_update_poll(c);
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
        const int below_half = c->out_bytes <= OUT_LIMIT / 2;
        if (drained || broken)
            c->need_writable = 0;
        pthread_mutex_unlock(&c->lock);
        if (broken) {
            conn_close(c, "write failed");
            return;
        }
        if (c->read_paused && below_half) {
            c->read_paused = 0;
            if (conn_resume(c) != 0)
                return;
        }
        if (drained && !c->read_paused)
            c->writable_wanted = 0;
        conn_update_poll(c);
    }
    if ((events & (UV_READABLE | UV_DISCONNECT)) && !c->read_paused && !c->ops_paused) {
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
            if (c->read_paused || c->ops_paused)
                break;
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
        c->attach.room = conn_room;
        c->attach.transport = TRN_TRANSPORT_LOCAL;
        c->attach.reply_fd = -1;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) == 0) {
            c->peer =
                (trn_peer){1, (uint32_t)cred.uid, (uint32_t)cred.gid, (uint32_t)cred.pid, NULL};
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
        const int want = c->need_writable, corrupt = c->ring_corrupt;
        pthread_mutex_unlock(&c->lock);
        if (corrupt) {
            trn_log(TRN_LOG_WARN,
                    "local client (pid %u, uid %u) corrupted its rings: closing its connection "
                    "and session",
                    c->peer.pid, c->peer.uid);
            conn_close(c, "corrupt ring");
            continue;
        }
        if (want)
            conn_set_writable(c, 1);
        if (atomic_exchange(&c->room, 0) && c->ops_paused && !c->closing) {
            c->ops_paused = 0;
            conn_resume(c);
        }
    }
}

static void *loop_main(void *arg) {
    trn_local_frontend *fe = arg;
    uv_run(&fe->loop, UV_RUN_DEFAULT);
    return NULL;
}

/* ---- start and stop ---------------------------------------------------------- */

trn_local_frontend *trn_local_frontend_start(trn_service *svc, const char *path, const char *group,
                                             int inherited_fd, char *err, size_t errlen) {
    trn_local_frontend *fe = calloc(1, sizeof(*fe));
    if (!fe) {
        snprintf(err, errlen, "out of memory");
        if (inherited_fd >= 0)
            close(inherited_fd);
        return NULL;
    }
    fe->svc = svc;
    fe->listen_fd = inherited_fd;
    fe->inherited = inherited_fd >= 0;
    fe->path = strdup(path);
    fe->lock_fd = trn_lockfile_acquire(path, err, errlen);
    if (fe->lock_fd < 0)
        goto fail;
    if (!fe->inherited && (fe->listen_fd = trn_unix_listen(path, group, "unix", err, errlen)) < 0)
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
    trn_log(TRN_LOG_INFO, "listening on unix:%s (local transport, shared memory%s)", path,
            fe->inherited ? "; socket passed by the service manager" : "");
    return fe;
fail:
    if (fe->listen_fd >= 0) {
        close(fe->listen_fd);
        if (!fe->inherited)
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
    if (!fe->inherited) /* the service manager's socket outlives this process */
        unlink(fe->path);
    close(fe->lock_fd);
    free(fe->path);
    free(fe);
}
