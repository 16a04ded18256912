/*
 * peer_fds.c — see peer_fds.h.
 */
#define _GNU_SOURCE
#include "daemon/peer_fds.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "daemon/idmap.h"
#include "daemon/log.h"

/* Placement numbers run from PLACE_FIRST up to the descriptor limit, or
 * PLACE_END when that is higher (a bigger range only grows the kernel's
 * descriptor table). */
#define PLACE_FIRST 3
#define PLACE_END 16384

/* One connection placed at `fd`. */
typedef struct record {
    trn_peer peer;
    dev_t dev; /* the socket placed there: while fd refers to it, the connection is open */
    ino_t ino;
    int closed;             /* seen closed */
    uint64_t closed_ms;     /* when */
    unsigned closed_drains; /* trn_peer_fds_drained count then */
} record;

struct trn_peer_fds {
    pthread_mutex_t lock; /* guards records and cursor */
    trn_idmap records;    /* fd + 1 → record* */
    int cursor;
    int end;
    atomic_uint drains;
    int listen_fd[TRN_PEER_FDS_MAX_LISTEN];
    char *listen_name[TRN_PEER_FDS_MAX_LISTEN];
    int nlisten;
    int wake[2]; /* a pipe: stop */
    pthread_t thread;
    int started;
    trn_peer_fds_serve serve;
    void *ctx;
};

static uint64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

trn_peer_fds *trn_peer_fds_create(void) {
    trn_peer_fds *p = calloc(1, sizeof(*p));
    if (!p)
        return NULL;
    pthread_mutex_init(&p->lock, NULL);
    trn_idmap_init(&p->records);
    atomic_init(&p->drains, 0);
    p->wake[0] = p->wake[1] = -1;
    struct rlimit rl;
    p->end = PLACE_END;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)PLACE_END)
        p->end = (int)rl.rlim_cur;
    p->cursor = PLACE_FIRST;
    return p;
}

int trn_peer_fds_add_listener(trn_peer_fds *p, int fd, const char *name) {
    if (p->nlisten == TRN_PEER_FDS_MAX_LISTEN || p->started)
        return -1;
    p->listen_name[p->nlisten] = strdup(name);
    p->listen_fd[p->nlisten++] = fd;
    return 0;
}

/* Whether the record's connection is still open at fd: fd refers to the
 * very socket placed there (a socket's inode is unique while it exists). */
static int still_open(int fd, const record *r) {
    struct stat st;
    return fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_dev == r->dev &&
           st.st_ino == r->ino;
}

/* Notes closed connections and retires the records no call can need any
 * more (lock held). */
static void sweep_locked(trn_peer_fds *p, uint64_t now) {
    const unsigned drains = atomic_load(&p->drains);
    size_t i = 0;
    uint64_t key;
    void *val;
    uint64_t retire[64];
    size_t nretire = 0;
    while (trn_idmap_next(&p->records, &i, &key, &val)) {
        record *r = val;
        if (!r->closed) {
            if (still_open((int)(key - 1), r))
                continue;
            r->closed = 1;
            r->closed_ms = now;
            r->closed_drains = drains;
            continue;
        }
        if (now - r->closed_ms >= TRN_PEER_FDS_GRACE_MS && drains - r->closed_drains >= 2 &&
            nretire < sizeof(retire) / sizeof(retire[0]))
            retire[nretire++] = key; /* the map is not changed while iterating */
    }
    for (size_t k = 0; k < nretire; k++)
        free(trn_idmap_remove(&p->records, retire[k]));
}

/* Places the accepted socket fd at a number with no record (lock held) and
 * returns it (fd closed), or -1 with fd untouched. */
static int place_locked(trn_peer_fds *p, int fd) {
    int wrapped = 0;
    /* Each number skipped has a record, so this ends within that many. */
    for (size_t tries = 0; tries <= p->records.len + 2;) {
        const int n = p->cursor < p->end ? fcntl(fd, F_DUPFD_CLOEXEC, p->cursor) : -1;
        if (n < 0) {
            if (wrapped || p->cursor == PLACE_FIRST)
                return -1;
            p->cursor = PLACE_FIRST; /* the end of the range: start again */
            wrapped = 1;
            continue;
        }
        p->cursor = n + 1;
        if (trn_idmap_get(&p->records, (uint64_t)n + 1)) {
            close(n); /* its last connection's calls may still be attributed */
            tries++;
            continue;
        }
        close(fd);
        return n;
    }
    return -1;
}

/* Records and hands over one accepted connection. */
static void take(trn_peer_fds *p, int fd, const char *name) {
    struct ucred cred;
    socklen_t clen = sizeof(cred);
    struct stat st;
    record *r = calloc(1, sizeof(*r));
    if (!r || getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) != 0 || fstat(fd, &st) != 0) {
        trn_log(TRN_LOG_WARN, "%s: a connection without credentials was refused: %s", name,
                r ? strerror(errno) : "out of memory");
        free(r);
        close(fd);
        return;
    }
    r->peer = (trn_peer){1, (uint32_t)cred.uid, (uint32_t)cred.gid, (uint32_t)cred.pid, NULL};
    r->dev = st.st_dev;
    r->ino = st.st_ino;
    pthread_mutex_lock(&p->lock);
    sweep_locked(p, now_ms());
    const int n = place_locked(p, fd);
    const int rc = n < 0 ? -1 : trn_idmap_put(&p->records, (uint64_t)n + 1, r);
    pthread_mutex_unlock(&p->lock);
    if (rc != 0) {
        trn_log(TRN_LOG_WARN, "%s: a connection (pid %u, uid %u) was refused: %s", name,
                (unsigned)cred.pid, (unsigned)cred.uid,
                n < 0 ? "no descriptor number free" : "out of memory");
        close(n < 0 ? fd : n);
        free(r);
        return;
    }
    trn_log(TRN_LOG_DEBUG, "%s: connection from pid %u, uid %u at fd:%d", name, (unsigned)cred.pid,
            (unsigned)cred.uid, n);
    p->serve(p->ctx, n);
}

static void *accept_main(void *arg) {
    trn_peer_fds *p = arg;
    struct pollfd pf[TRN_PEER_FDS_MAX_LISTEN + 1];
    for (;;) {
        for (int i = 0; i < p->nlisten; i++)
            pf[i] = (struct pollfd){.fd = p->listen_fd[i], .events = POLLIN};
        pf[p->nlisten] = (struct pollfd){.fd = p->wake[0], .events = POLLIN};
        if (poll(pf, (nfds_t)p->nlisten + 1, -1) < 0 && errno != EINTR)
            break;
        if (pf[p->nlisten].revents)
            break;
        for (int i = 0; i < p->nlisten; i++) {
            if (!pf[i].revents)
                continue;
            for (;;) {
                const int fd = accept4(p->listen_fd[i], NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
                if (fd >= 0) {
                    take(p, fd, p->listen_name[i]);
                    continue;
                }
                if (errno == EINTR)
                    continue;
                if (errno != EAGAIN && errno != EWOULDBLOCK) {
                    trn_log(TRN_LOG_WARN, "accept on %s: %s", p->listen_name[i], strerror(errno));
                    if (errno == EMFILE || errno == ENFILE)
                        poll(NULL, 0, 100); /* let descriptors free up */
                }
                break;
            }
        }
    }
    return NULL;
}

int trn_peer_fds_start(trn_peer_fds *p, trn_peer_fds_serve serve, void *ctx, char *err,
                       size_t errlen) {
    p->serve = serve;
    p->ctx = ctx;
    if (pipe2(p->wake, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot start the grpc+unix accept thread: %s", strerror(errno));
        return -1;
    }
    if (pthread_create(&p->thread, NULL, accept_main, p) != 0) {
        snprintf(err, errlen, "cannot start the grpc+unix accept thread");
        return -1;
    }
    p->started = 1;
    return 0;
}

void trn_peer_fds_stop(trn_peer_fds *p) {
    if (p->started) {
        const char b = 1;
        if (write(p->wake[1], &b, 1) != 1)
            trn_log(TRN_LOG_ERROR, "cannot stop the grpc+unix accept thread");
        pthread_join(p->thread, NULL);
        p->started = 0;
    }
    for (int i = 0; i < p->nlisten; i++) {
        close(p->listen_fd[i]);
        free(p->listen_name[i]);
    }
    p->nlisten = 0;
}

void trn_peer_fds_destroy(trn_peer_fds *p) {
    if (!p)
        return;
    trn_peer_fds_stop(p);
    for (int i = 0; i < 2; i++)
        if (p->wake[i] >= 0)
            close(p->wake[i]);
    size_t i = 0;
    uint64_t key;
    void *val;
    while (trn_idmap_next(&p->records, &i, &key, &val))
        free(val);
    trn_idmap_free(&p->records);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

int trn_peer_fds_lookup(trn_peer_fds *p, const char *peer, trn_peer *out) {
    if (strncmp(peer, "fd:", 3) != 0)
        return 0;
    char *end;
    errno = 0;
    const long n = strtol(peer + 3, &end, 10);
    if (errno || end == peer + 3 || *end != '\0' || n < 0 || n > INT32_MAX)
        return -1;
    pthread_mutex_lock(&p->lock);
    const record *r = trn_idmap_get(&p->records, (uint64_t)n + 1);
    if (r)
        *out = r->peer;
    pthread_mutex_unlock(&p->lock);
    return r ? 1 : -1;
}

void trn_peer_fds_drained(trn_peer_fds *p) {
    atomic_fetch_add(&p->drains, 1);
}
