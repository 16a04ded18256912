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
 *
 * Right after connecting, the transport asks for the shared-memory rings
 * (trnsci_wire.h): from then on requests are pushed on the submission ring
 * and replies taken from the completion ring, with eventfd doorbells only
 * when the other side sleeps. The reader spins briefly on the completion
 * ring before sleeping. Anything that does not fit a ring, and any reply
 * carrying a descriptor, uses the socket. TRNSCI_LOCAL_RING=0 turns the rings
 * off (socket only).
 *
 * Order: the daemon takes requests in the order they were sent. A request
 * that fits the ring waits for room there rather than overtaking on the
 * socket; one that never fits waits until the daemon has taken everything
 * on the ring, then goes on the socket. Waiting for room is how an
 * asynchronous launch blocks while the daemon's launch queue is full (the
 * daemon stops taking requests then): it sleeps in growing steps, and ends
 * if the daemon goes away.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "client/transport.h"
#include "trnsci_ring.h"

/* How long connecting waits for the daemon to answer the ring setup. */
#define RING_SETUP_TIMEOUT_MS 30000

#define HDR_SIZE sizeof(trn_local_hdr)

typedef struct pending {
    uint64_t tag;
    int done;
    trn_wire_code code;
    uint8_t *body;
    size_t len;
    int fds[TRN_LOCAL_MAX_FDS];
    int nfds;
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
    /* The rings, when the daemon provided them. sq is pushed under
     * send_lock; cq is consumed by the reader only. */
    trn_ring_shared *ring;
    trn_ring_end sq, cq;
    int sq_bell, cq_bell;
    uint8_t *cq_body;
    trn_spin spin; /* the reader's: how long to watch an empty ring */
} local_transport;

static const trn_transport_ops local_ops;
static void setup_rings(local_transport *t);

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
    setup_rings(t);
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

static void close_fds(int *fds, int *nfds) {
    for (int i = 0; i < *nfds; i++)
        close(fds[i]);
    *nfds = 0;
}

/* Receives exactly n bytes; collects descriptors passed with them. */
static int recv_all(int sock, uint8_t *p, size_t n, int *fds, int *nfds) {
    while (n) {
        struct iovec iov = {p, n};
        char cbuf[CMSG_SPACE(TRN_LOCAL_MAX_FDS * sizeof(int))];
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
                const size_t k = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
                for (size_t i = 0; i < k; i++) {
                    int got;
                    memcpy(&got, CMSG_DATA(cm) + i * sizeof(int), sizeof(int));
                    if (*nfds < TRN_LOCAL_MAX_FDS)
                        fds[(*nfds)++] = got;
                    else
                        close(got);
                }
            }
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Reads one reply frame from the socket. Returns 0, or -1 when the
 * connection is gone. */
static int read_frame(local_transport *t, trn_local_hdr *h, uint8_t **body, int *fds, int *nfds) {
    *nfds = 0;
    *body = NULL;
    if (recv_all(t->sock, (uint8_t *)h, HDR_SIZE, fds, nfds) != 0 ||
        h->len > TRNSCI_WIRE_MAX_MESSAGE_BYTES)
        goto fail;
    *body = malloc(h->len ? h->len : 1);
    if (!*body || recv_all(t->sock, *body, h->len, fds, nfds) != 0)
        goto fail;
    return 0;
fail:
    free(*body);
    *body = NULL;
    close_fds(fds, nfds);
    return -1;
}

/* Hands a reply to the thread waiting for its tag (takes t->lock). */
static void deliver(local_transport *t, const trn_local_hdr *h, uint8_t *body, int *fds, int nfds) {
    pthread_mutex_lock(&t->lock);
    pending *w = t->waiting;
    while (w && w->tag != h->tag)
        w = w->next;
    if (w && !w->done) {
        w->done = 1;
        w->code = (trn_wire_code)h->kind;
        w->body = body;
        w->len = h->len;
        w->nfds = nfds;
        for (int i = 0; i < nfds; i++)
            w->fds[i] = fds[i];
    } else { /* a reply nobody waits for */
        free(body);
        close_fds(fds, &nfds);
    }
    pthread_cond_broadcast(&t->cond);
    pthread_mutex_unlock(&t->lock);
}

/* Reader: delivers every reply waiting on the completion ring. Returns the
 * number delivered, or -1 if the ring is corrupt. */
static int drain_cq(local_transport *t) {
    int n = 0;
    for (;;) {
        trn_local_hdr h;
        const int rc = trn_ring_pop(&t->cq, &h, t->cq_body, TRN_RING_BYTES / 2);
        if (rc != 0)
            return rc < 0 ? -1 : n;
        uint8_t *body = malloc(h.len ? h.len : 1);
        if (!body)
            return -1;
        memcpy(body, t->cq_body, h.len);
        deliver(t, &h, body, NULL, 0);
        n++;
    }
}

static int read_socket_frame(local_transport *t) {
    trn_local_hdr h;
    uint8_t *body;
    int fds[TRN_LOCAL_MAX_FDS], nfds;
    if (read_frame(t, &h, &body, fds, &nfds) != 0)
        return -1;
    deliver(t, &h, body, fds, nfds);
    return 0;
}

/* The trn_spin_now_ns time by which a call must be answered (timeout_ms <
 * 0: none, 0). */
static uint64_t deadline_of(int timeout_ms) {
    return timeout_ms < 0 ? 0 : trn_spin_now_ns() + (uint64_t)timeout_ms * 1000000u;
}

/* Milliseconds left until deadline for poll (-1: no deadline), rounded up. */
static int poll_ms_left(uint64_t deadline) {
    if (!deadline)
        return -1;
    const uint64_t now = trn_spin_now_ns();
    return now >= deadline ? 0 : (int)((deadline - now + 999999u) / 1000000u);
}

/* Reader, without t->lock: delivers at least one reply from the completion
 * ring or the socket, spinning on the ring for RING_SPIN_NS before sleeping.
 * Returns 0, -1 when the connection is gone, or 1 when deadline (0: none)
 * passed first. */
static int read_some(local_transport *t, uint64_t deadline) {
    uint64_t spin_start = 0;
    int spun = 0;
    for (;;) {
        if (t->ring) {
            const int n = drain_cq(t);
            if (n > 0 && spun)
                trn_spin_result(&t->spin, 1);
            if (n != 0)
                return n > 0 ? 0 : -1;
        }
        struct pollfd pf[2] = {{t->sock, POLLIN, 0}, {t->ring ? t->cq_bell : -1, POLLIN, 0}};
        if (poll(pf, 1, 0) > 0)
            return read_socket_frame(t);
        if (deadline && trn_spin_now_ns() >= deadline)
            return 1;
        if (t->ring) {
            const uint64_t now = trn_spin_now_ns();
            if (!spin_start)
                spin_start = now;
            if (now - spin_start < t->spin.ns) {
                spun = 1;
                sched_yield(); /* the daemon may be waiting for this CPU */
                continue;
            }
            spun = 0;
            __atomic_store_n(&t->ring->client_waiting, 1, __ATOMIC_RELAXED);
            __atomic_thread_fence(__ATOMIC_SEQ_CST);
            if (trn_ring_ready(&t->cq) != 0) {
                __atomic_store_n(&t->ring->client_waiting, 0, __ATOMIC_RELAXED);
                continue;
            }
        }
        int r;
        do
            r = poll(pf, t->ring ? 2 : 1, poll_ms_left(deadline));
        while (r < 0 && errno == EINTR);
        if (t->ring) {
            __atomic_store_n(&t->ring->client_waiting, 0, __ATOMIC_RELAXED);
            if (pf[1].revents & POLLIN) {
                uint64_t v;
                ssize_t k = read(t->cq_bell, &v, sizeof(v));
                (void)k;
            }
        }
        if (r < 0)
            return -1;
        if (t->ring && (pf[1].revents & POLLIN))
            trn_spin_slept(&t->spin, trn_spin_now_ns() - spin_start);
        if (pf[0].revents & (POLLIN | POLLHUP | POLLERR))
            return read_socket_frame(t);
        spin_start = 0;
    }
}

/* With t->lock held: the connection broke; fail every waiter. */
static void mark_broken(local_transport *t, const char *why) {
    if (!t->broken)
        snprintf(t->error, sizeof(t->error), "%s", why);
    t->broken = 1;
    pthread_cond_broadcast(&t->cond);
}

/* With t->lock held: a follower's wait for the reader, until deadline (0:
 * none). */
static void wait_turn(local_transport *t, uint64_t deadline) {
    if (!deadline) {
        pthread_cond_wait(&t->cond, &t->lock);
        return;
    }
    const uint64_t now = trn_spin_now_ns(), left = deadline > now ? deadline - now : 0;
    struct timespec ts; /* the condition variable's clock: CLOCK_REALTIME */
    clock_gettime(CLOCK_REALTIME, &ts);
    const uint64_t ns = (uint64_t)ts.tv_nsec + left;
    ts.tv_sec += (time_t)(ns / 1000000000u);
    ts.tv_nsec = (long)(ns % 1000000000u);
    pthread_cond_timedwait(&t->cond, &t->lock, &ts);
}

/* With t->lock held: waits until p is answered, the connection breaks or
 * deadline (0: none) passes (then returns 1; a reply that comes later is
 * dropped), acting as the reader when no other thread is. */
static int wait_for(local_transport *t, pending *p, uint64_t deadline) {
    while (!p->done && !t->broken) {
        if (deadline && trn_spin_now_ns() >= deadline)
            return 1;
        if (t->reader_active) {
            wait_turn(t, deadline);
            continue;
        }
        t->reader_active = 1;
        pthread_mutex_unlock(&t->lock);
        const int rc = read_some(t, deadline);
        pthread_mutex_lock(&t->lock);
        t->reader_active = 0;
        if (rc < 0)
            mark_broken(t, "the daemon closed the connection");
        pthread_cond_broadcast(&t->cond);
    }
    return 0;
}

/* With send_lock held: sleeps a little while the daemon catches up with
 * the submission ring: yields at first, then sleeps in steps growing to
 * 1 ms. Returns -1 when the daemon has gone away. */
static int wait_for_daemon(local_transport *t, unsigned *round) {
    if (++*round < 16) {
        sched_yield();
        return 0;
    }
    const unsigned shift = *round - 16 < 6 ? *round - 16 : 6;
    const struct timespec step = {0, (long)(16000u << shift)}; /* 16 µs … 1 ms */
    struct pollfd pf = {t->sock, 0, 0};                        /* only hang-ups and errors */
    if (ppoll(&pf, 1, &step, NULL) > 0 && (pf.revents & (POLLHUP | POLLERR)))
        return -1;
    pthread_mutex_lock(&t->lock);
    const int broken = t->broken;
    pthread_mutex_unlock(&t->lock);
    return broken ? -1 : 0;
}

/* Sends one request: on the submission ring when it fits (waiting for room
 * there), else on the socket once the daemon has taken everything on the
 * ring. Returns 0, or -1 when the connection is broken. */
static int send_request(local_transport *t, const uint8_t *frame, size_t len) {
    trn_local_hdr h;
    memcpy(&h, frame, HDR_SIZE);
    const int fits = t->ring && trn_ring_entry_bytes(h.len) <= TRN_RING_BYTES / 2;
    pthread_mutex_lock(&t->send_lock);
    int rc = 1;
    unsigned round = 0;
    if (fits) {
        while ((rc = trn_ring_push(&t->sq, &h, frame + HDR_SIZE)) == 1)
            if (wait_for_daemon(t, &round) != 0) {
                rc = -1;
                break;
            }
    } else if (t->ring) {
        while (__atomic_load_n(t->sq.peer, __ATOMIC_ACQUIRE) != t->sq.pos)
            if (wait_for_daemon(t, &round) != 0) {
                rc = -1;
                break;
            }
    }
    if (rc == 0) {
        pthread_mutex_unlock(&t->send_lock);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        if (__atomic_load_n(&t->ring->daemon_waiting, __ATOMIC_RELAXED)) {
            const uint64_t one = 1;
            ssize_t k = write(t->sq_bell, &one, sizeof(one));
            (void)k;
        }
        return 0;
    }
    rc = rc < 0 ? -1 : send_all(t->sock, frame, len);
    pthread_mutex_unlock(&t->send_lock);
    return rc;
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
    const int sent = send_request(t, frame, HDR_SIZE + len);
    free(frame);

    pthread_mutex_lock(&t->lock);
    if (sent != 0)
        mark_broken(t, "the daemon closed the connection");
    const int late = wait_for(t, &p, deadline_of(timeout_ms));
    unlink_pending(t, &p);
    const int answered = p.done;
    pthread_mutex_unlock(&t->lock);

    if (!answered && late) {
        snprintf(msg, msglen,
                 "no reply from the daemon within %d ms: it is hung, stopped or overloaded (the "
                 "call's limit, TRNSCI_CALL_TIMEOUT; its reply, if one comes, is dropped)",
                 timeout_ms);
        return TRN_WIRE_DEADLINE_EXCEEDED;
    }
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
    if (fd && code == TRN_WIRE_OK && p.nfds == 1) {
        *fd = p.fds[0];
        p.nfds = 0;
    }
    close_fds(p.fds, &p.nfds);
    return code;
}

static trn_wire_code local_launch(trn_transport *base, trn_wire_method method,
                                  const ProtobufCMessage *req, char *msg, size_t msglen) {
    local_transport *t = (local_transport *)base;
    const size_t len = protobuf_c_message_get_packed_size(req);
    if (len > TRNSCI_WIRE_MAX_MESSAGE_BYTES ||
        (t->ring && trn_ring_entry_bytes((uint32_t)len) > TRN_RING_BYTES / 2))
        /* Too large for the ring: a waited call keeps it in order. */
        return local_call(base, method, req, NULL, NULL, NULL, msg, msglen, -1);
    uint8_t stack[2048];
    uint8_t *frame = HDR_SIZE + len <= sizeof(stack) ? stack : malloc(HDR_SIZE + len);
    if (!frame) {
        snprintf(msg, msglen, "out of memory");
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    protobuf_c_message_pack(req, frame + HDR_SIZE);
    pthread_mutex_lock(&t->lock);
    const int broken = t->broken;
    const uint64_t tag = t->next_tag++;
    pthread_mutex_unlock(&t->lock);
    int sent = -1;
    if (!broken) {
        const trn_local_hdr h = {(uint32_t)len, (uint16_t)method, TRN_LOCAL_FLAG_NO_REPLY, tag};
        memcpy(frame, &h, HDR_SIZE);
        sent = send_request(t, frame, HDR_SIZE + len);
    }
    if (frame != stack)
        free(frame);
    if (sent == 0)
        return TRN_WIRE_OK;
    pthread_mutex_lock(&t->lock);
    mark_broken(t, "the daemon closed the connection");
    snprintf(msg, msglen, "%s", t->error);
    pthread_mutex_unlock(&t->lock);
    return TRN_WIRE_UNAVAILABLE;
}

static int local_attach(trn_transport *base, const ProtobufCMessage *req) {
    (void)base;
    (void)req;
    return 0; /* the connection itself holds the session */
}

static void local_close(trn_transport *base) {
    local_transport *t = (local_transport *)base;
    if (t->ring) {
        munmap(t->ring, TRN_RING_REGION_BYTES);
        close(t->sq_bell);
        close(t->cq_bell);
        free(t->cq_body);
    }
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
    .launch = local_launch,
    .attach = local_attach,
    .close = local_close,
};

/* Asks the daemon for the rings (trnsci_wire.h). Without them — an older
 * daemon, TRNSCI_LOCAL_RING=0, any failure — every request uses the socket. */
static void setup_rings(local_transport *t) {
    const char *env = getenv("TRNSCI_LOCAL_RING");
    if (env && strcmp(env, "0") == 0)
        return;
    pending p = {0};
    pthread_mutex_lock(&t->lock);
    p.tag = t->next_tag++;
    p.next = t->waiting;
    t->waiting = &p;
    pthread_mutex_unlock(&t->lock);
    const trn_local_hdr h = {0, TRN_LOCAL_RING_SETUP, 0, p.tag};
    const int sent = send_all(t->sock, (const uint8_t *)&h, HDR_SIZE);
    pthread_mutex_lock(&t->lock);
    if (sent != 0)
        mark_broken(t, "the daemon closed the connection");
    wait_for(t, &p, deadline_of(RING_SETUP_TIMEOUT_MS));
    unlink_pending(t, &p);
    pthread_mutex_unlock(&t->lock);
    free(p.body);
    if (!p.done || p.code != TRN_WIRE_OK || p.nfds != 3) {
        close_fds(p.fds, &p.nfds);
        return;
    }
    void *region =
        mmap(NULL, TRN_RING_REGION_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, p.fds[0], 0);
    close(p.fds[0]);
    trn_ring_shared *rs = region;
    t->cq_body = malloc(TRN_RING_BYTES / 2);
    if (region == MAP_FAILED || !t->cq_body || rs->magic != TRN_RING_MAGIC ||
        rs->ring_bytes != TRN_RING_BYTES) {
        if (region != MAP_FAILED)
            munmap(region, TRN_RING_REGION_BYTES);
        free(t->cq_body);
        t->cq_body = NULL;
        close(p.fds[1]);
        close(p.fds[2]);
        return;
    }
    uint8_t *rings = (uint8_t *)region + sizeof(trn_ring_shared);
    t->sq = (trn_ring_end){rings, TRN_RING_BYTES, 0, &rs->sq_tail, &rs->sq_head};
    t->cq = (trn_ring_end){rings + TRN_RING_BYTES, TRN_RING_BYTES, 0, &rs->cq_head, &rs->cq_tail};
    t->sq_bell = p.fds[1];
    t->cq_bell = p.fds[2];
    t->spin = (trn_spin){TRN_SPIN_PROBE_NS, 0};
    t->ring = rs;
}
