/*
 * exec_space.c — see exec_space.h.
 *
 * The range allocator is a first-fit list of free extents sorted by
 * address, merged on release; buffers of 2 MiB and more are placed on 2 MiB
 * boundaries so that transparent huge pages can back them (bufmem.h). The
 * arena allocator keeps a free list per power-of-two size class and cuts
 * new blocks from the top; the arrays it serves are small (pointer lists)
 * and live as long as their op.
 */
#define _GNU_SOURCE
#include "daemon/exec_space.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "daemon/fdpass.h"

#define PAGE ((uint64_t)4096)
#define HUGE_ALIGN ((uint64_t)2 << 20)
#define ARENA_MIN_SHIFT 6  /* 64-byte blocks */
#define ARENA_MAX_SHIFT 26 /* 64 MiB blocks */
#define ARENA_HEADER 16    /* keeps blocks 16-byte aligned; holds the class */
#define MAX_SUBSCRIBERS 1024

typedef enum msg_kind { MSG_MAP = 1, MSG_UNMAP = 2, MSG_SYNC = 3 } msg_kind;

/* One message on an executor's channel; MSG_MAP carries the memfd. */
typedef struct space_msg {
    uint32_t kind;
    uint32_t pad;
    uint64_t gen; /* the generation once applied (MSG_MAP of a snapshot: 0) */
    uint64_t addr, len;
} space_msg;

struct board {
    _Atomic uint64_t seq; /* odd while the writer writes */
    uint64_t len;
    char text[];
};

typedef struct extent {
    uint64_t start, len;
    struct extent *next;
} extent;

typedef struct mapped {
    uint64_t addr, len;
    int fd; /* the space's own duplicate, for executors that subscribe later */
    struct mapped *next;
} mapped;

struct trn_exec_space {
    pthread_mutex_t lock;
    uint64_t base, size; /* the buffer range */
    extent *free_list;
    mapped *buffers;
    uint64_t gen;
    int subs[MAX_SUBSCRIBERS];
    int nsubs;
    void (*unmap_hook)(void *ctx);
    void *unmap_ctx;

    /* The planning boards, shared mappings of TRN_EXEC_BOARD_BYTES each
     * (header, then text): the daemon's knowledge for every executor, and
     * the planner executor's answer for the daemon. */
    struct board *board, *back;

    pthread_mutex_t arena_lock;
    char *arena;
    uint64_t arena_size, arena_top;
    void *arena_free[ARENA_MAX_SHIFT + 1];
};

/* ---- messages ---- */

/* Never blocks: an executor that stopped reading is not waited for (the
 * caller drops it, and it is started again). */
static int send_msg(int fd, const space_msg *m, int memfd) {
    return trn_fdpass_send(fd, m, sizeof(*m), memfd, MSG_DONTWAIT) == (ssize_t)sizeof(*m) ? 0 : -1;
}

/* Sends m to every subscriber (lock held); drops those whose channel fails. */
static void broadcast_locked(trn_exec_space *sp, const space_msg *m, int memfd) {
    for (int i = 0; i < sp->nsubs;) {
        if (send_msg(sp->subs[i], m, memfd) == 0) {
            i++;
            continue;
        }
        /* Its executor reads end of file and exits; it is started again. */
        shutdown(sp->subs[i], SHUT_RDWR);
        sp->subs[i] = sp->subs[--sp->nsubs];
    }
}

/* ---- the range ---- */

static uint64_t align_up(uint64_t v, uint64_t a) {
    return (v + a - 1) & ~(a - 1);
}

/* First fit, aligned (lock held). Returns 0 when nothing fits. */
static uint64_t range_take(trn_exec_space *sp, uint64_t len, uint64_t align) {
    for (extent **pp = &sp->free_list; *pp; pp = &(*pp)->next) {
        extent *e = *pp;
        const uint64_t at = align_up(e->start, align);
        if (at - e->start > e->len || e->len - (at - e->start) < len)
            continue;
        const uint64_t head = at - e->start, tail = e->len - head - len;
        if (head && tail) {
            extent *t = malloc(sizeof(*t));
            if (!t)
                return 0;
            *t = (extent){.start = at + len, .len = tail, .next = e->next};
            e->len = head;
            e->next = t;
        } else if (head) {
            e->len = head;
        } else if (tail) {
            e->start = at + len;
            e->len = tail;
        } else {
            *pp = e->next;
            free(e);
        }
        return at;
    }
    return 0;
}

/* Gives [start, start+len) back, merging with its neighbours (lock held). */
static void range_give(trn_exec_space *sp, uint64_t start, uint64_t len) {
    extent **pp = &sp->free_list;
    extent *prev = NULL;
    while (*pp && (*pp)->start < start) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    extent *next = *pp;
    if (prev && prev->start + prev->len == start) {
        prev->len += len;
        if (next && prev->start + prev->len == next->start) {
            prev->len += next->len;
            prev->next = next->next;
            free(next);
        }
        return;
    }
    if (next && start + len == next->start) {
        next->start = start;
        next->len += len;
        return;
    }
    extent *e = malloc(sizeof(*e));
    if (!e)
        return; /* the addresses are lost to reuse, nothing else */
    *e = (extent){.start = start, .len = len, .next = next};
    *pp = e;
}

trn_exec_space *trn_exec_space_create(uint64_t range_bytes, uint64_t arena_bytes, char *err,
                                      size_t errlen) {
    trn_exec_space *sp = calloc(1, sizeof(*sp));
    if (!sp) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    range_bytes = align_up(range_bytes, HUGE_ALIGN);
    void *r = mmap(NULL, (size_t)range_bytes, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    void *a = r == MAP_FAILED ? MAP_FAILED
                              : mmap(NULL, (size_t)arena_bytes, PROT_READ | PROT_WRITE,
                                     MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    void *bd = a == MAP_FAILED
                   ? MAP_FAILED
                   : mmap(NULL, 2 * (size_t)TRN_EXEC_BOARD_BYTES, PROT_READ | PROT_WRITE,
                          MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    extent *e = malloc(sizeof(*e));
    if (r == MAP_FAILED || a == MAP_FAILED || bd == MAP_FAILED || !e) {
        snprintf(err, errlen, "cannot reserve %llu bytes of addresses for buffers: %s",
                 (unsigned long long)range_bytes, strerror(errno));
        if (r != MAP_FAILED)
            munmap(r, (size_t)range_bytes);
        if (a != MAP_FAILED)
            munmap(a, (size_t)arena_bytes);
        free(e);
        free(sp);
        return NULL;
    }
    pthread_mutex_init(&sp->lock, NULL);
    pthread_mutex_init(&sp->arena_lock, NULL);
    sp->base = (uint64_t)(uintptr_t)r;
    sp->size = range_bytes;
    /* The first page stays unused: no buffer ever sits at the range's start,
     * so 0 can mean "nothing fits" in range_take. */
    *e = (extent){.start = sp->base + PAGE, .len = range_bytes - PAGE, .next = NULL};
    sp->free_list = e;
    sp->arena = a;
    sp->arena_size = arena_bytes;
    sp->board = bd;
    sp->back = (struct board *)((char *)bd + TRN_EXEC_BOARD_BYTES);
    return sp;
}

void trn_exec_space_destroy(trn_exec_space *sp) {
    if (!sp)
        return;
    while (sp->buffers) {
        mapped *m = sp->buffers;
        sp->buffers = m->next;
        close(m->fd);
        free(m);
    }
    while (sp->free_list) {
        extent *e = sp->free_list;
        sp->free_list = e->next;
        free(e);
    }
    munmap((void *)(uintptr_t)sp->base, (size_t)sp->size);
    munmap(sp->arena, (size_t)sp->arena_size);
    munmap(sp->board, 2 * (size_t)TRN_EXEC_BOARD_BYTES);
    pthread_mutex_destroy(&sp->lock);
    pthread_mutex_destroy(&sp->arena_lock);
    free(sp);
}

void *trn_exec_space_map(trn_exec_space *sp, int fd, uint64_t len) {
    const uint64_t span = align_up(len, PAGE);
    mapped *m = malloc(sizeof(*m));
    const int dup_fd = m ? fcntl(fd, F_DUPFD_CLOEXEC, 0) : -1;
    if (dup_fd < 0) {
        free(m);
        errno = ENOMEM;
        return NULL;
    }
    pthread_mutex_lock(&sp->lock);
    const uint64_t at = range_take(sp, span, span >= HUGE_ALIGN ? HUGE_ALIGN : PAGE);
    void *p = at ? mmap((void *)(uintptr_t)at, (size_t)len, PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_FIXED, fd, 0)
                 : MAP_FAILED;
    if (p == MAP_FAILED) {
        const int e = at ? errno : ENOMEM;
        if (at)
            range_give(sp, at, span);
        pthread_mutex_unlock(&sp->lock);
        close(dup_fd);
        free(m);
        errno = e;
        return NULL;
    }
    *m = (mapped){.addr = at, .len = len, .fd = dup_fd, .next = sp->buffers};
    sp->buffers = m;
    const space_msg msg = {.kind = MSG_MAP, .gen = ++sp->gen, .addr = at, .len = len};
    broadcast_locked(sp, &msg, dup_fd);
    pthread_mutex_unlock(&sp->lock);
    return p;
}

int trn_exec_space_dup_fd(trn_exec_space *sp, const void *addr) {
    const uint64_t at = (uint64_t)(uintptr_t)addr;
    int fd = -1;
    pthread_mutex_lock(&sp->lock);
    for (const mapped *m = sp->buffers; m; m = m->next)
        if (m->addr == at) {
            fd = fcntl(m->fd, F_DUPFD_CLOEXEC, 0);
            break;
        }
    pthread_mutex_unlock(&sp->lock);
    return fd;
}

void trn_exec_space_unmap(trn_exec_space *sp, void *addr, uint64_t len) {
    const uint64_t at = (uint64_t)(uintptr_t)addr, span = align_up(len, PAGE);
    pthread_mutex_lock(&sp->lock);
    mapped *m = NULL;
    for (mapped **pp = &sp->buffers; *pp; pp = &(*pp)->next)
        if ((*pp)->addr == at) {
            m = *pp;
            *pp = m->next;
            break;
        }
    /* Back to no access (never munmap: another mapping could land there). */
    (void)mmap(addr, (size_t)span, PROT_NONE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
    range_give(sp, at, span);
    if (m) {
        const space_msg msg = {.kind = MSG_UNMAP, .gen = ++sp->gen, .addr = at, .len = len};
        broadcast_locked(sp, &msg, -1);
    }
    pthread_mutex_unlock(&sp->lock);
    if (m) {
        close(m->fd);
        free(m);
        if (sp->unmap_hook)
            sp->unmap_hook(sp->unmap_ctx);
    }
}

void trn_exec_space_set_unmap_hook(trn_exec_space *sp, void (*fn)(void *ctx), void *ctx) {
    sp->unmap_hook = fn;
    sp->unmap_ctx = ctx;
}

uint64_t trn_exec_space_generation(trn_exec_space *sp) {
    pthread_mutex_lock(&sp->lock);
    const uint64_t g = sp->gen;
    pthread_mutex_unlock(&sp->lock);
    return g;
}

int trn_exec_space_subscribe(trn_exec_space *sp, int fd) {
    int rc = 0;
    pthread_mutex_lock(&sp->lock);
    for (const mapped *m = sp->buffers; m && rc == 0; m = m->next) {
        const space_msg msg = {.kind = MSG_MAP, .gen = 0, .addr = m->addr, .len = m->len};
        rc = send_msg(fd, &msg, m->fd);
    }
    const space_msg sync = {.kind = MSG_SYNC, .gen = sp->gen};
    if (rc == 0)
        rc = send_msg(fd, &sync, -1);
    if (rc == 0 && sp->nsubs < MAX_SUBSCRIBERS)
        sp->subs[sp->nsubs++] = fd;
    else
        rc = -1;
    pthread_mutex_unlock(&sp->lock);
    return rc;
}

void trn_exec_space_unsubscribe(trn_exec_space *sp, int fd) {
    pthread_mutex_lock(&sp->lock);
    for (int i = 0; i < sp->nsubs; i++)
        if (sp->subs[i] == fd) {
            sp->subs[i] = sp->subs[--sp->nsubs];
            break;
        }
    pthread_mutex_unlock(&sp->lock);
}

/* ---- the op arena ---- */

void *trn_exec_space_arena_alloc(trn_exec_space *sp, size_t bytes) {
    if (bytes > ((size_t)1 << ARENA_MAX_SHIFT) - ARENA_HEADER)
        return NULL;
    unsigned k = ARENA_MIN_SHIFT;
    while (((size_t)1 << k) < bytes + ARENA_HEADER)
        k++;
    const size_t block = (size_t)1 << k;
    char *b = NULL;
    pthread_mutex_lock(&sp->arena_lock);
    if (sp->arena_free[k]) {
        b = sp->arena_free[k];
        memcpy(&sp->arena_free[k], b + ARENA_HEADER, sizeof(void *));
    } else if (sp->arena_size - sp->arena_top >= block) {
        b = sp->arena + sp->arena_top;
        sp->arena_top += block;
    }
    pthread_mutex_unlock(&sp->arena_lock);
    if (!b)
        return NULL;
    memset(b, 0, block);
    b[0] = (char)k;
    return b + ARENA_HEADER;
}

void trn_exec_space_arena_free(trn_exec_space *sp, void *p) {
    if (!p)
        return;
    char *b = (char *)p - ARENA_HEADER;
    const unsigned k = (unsigned char)b[0];
    pthread_mutex_lock(&sp->arena_lock);
    memcpy(p, &sp->arena_free[k], sizeof(void *));
    sp->arena_free[k] = b;
    pthread_mutex_unlock(&sp->arena_lock);
}

/* ---- the planning board ---- */

/* A board's sequence is odd while its writer writes. A writer that died
 * mid-write (the planner executor) left it odd: its successor starts from
 * the next odd number, and readers give up after BOARD_READ_TRIES looks at
 * an odd one rather than wait for a writer that may be gone. */
#define BOARD_READ_TRIES 1000000

static int board_publish(struct board *b, const char *text) {
    const size_t len = strlen(text);
    if (len + 1 > TRN_EXEC_BOARD_BYTES - sizeof(struct board))
        return -1;
    const uint64_t s = atomic_load_explicit(&b->seq, memory_order_relaxed);
    const uint64_t writing = s + ((s & 1) ? 2 : 1);
    atomic_store_explicit(&b->seq, writing, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    memcpy(b->text, text, len + 1);
    b->len = len;
    atomic_store_explicit(&b->seq, writing + 1, memory_order_release);
    return 0;
}

static char *board_take(const struct board *b, uint64_t *gen) {
    for (long tries = 0; tries < BOARD_READ_TRIES; tries++) {
        const uint64_t s1 = atomic_load_explicit(&b->seq, memory_order_acquire);
        if (s1 == *gen || s1 == 0)
            return NULL;
        if (s1 & 1)
            continue;
        const uint64_t len = b->len;
        char *copy = len < TRN_EXEC_BOARD_BYTES ? malloc(len + 1) : NULL;
        if (!copy)
            return NULL;
        memcpy(copy, b->text, len);
        copy[len] = '\0';
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&b->seq, memory_order_relaxed) == s1) {
            *gen = s1;
            return copy;
        }
        free(copy);
    }
    return NULL;
}

void trn_exec_space_board_publish(trn_exec_space *sp, const char *text) {
    (void)board_publish(sp->board, text);
}

char *trn_exec_space_board_take(trn_exec_space *sp, uint64_t *gen) {
    return board_take(sp->board, gen);
}

int trn_exec_space_back_publish(trn_exec_space *sp, const char *text) {
    return board_publish(sp->back, text);
}

char *trn_exec_space_back_take(trn_exec_space *sp, uint64_t *gen) {
    return board_take(sp->back, gen);
}

/* ---- the executor's side ---- */

/* Receives one message and its memfd, if any (-1): 0, or -1 (flags
 * MSG_DONTWAIT: also when none is queued, with errno EAGAIN). */
static int recv_msg(int fd, space_msg *m, int *memfd, int flags) {
    return trn_fdpass_recv(fd, m, sizeof(*m), memfd, flags) == (ssize_t)sizeof(*m) ? 0 : -1;
}

static int in_range(const trn_exec_space *sp, uint64_t addr, uint64_t len) {
    return addr >= sp->base && len <= sp->size && addr - sp->base <= sp->size - len;
}

/* Receives and applies one message: 1, 0 when none is queued (flags
 * MSG_DONTWAIT), -1 when the channel closed or a mapping failed. */
static int apply_one(trn_exec_space *sp, int fd, uint64_t *gen, int flags) {
    space_msg m;
    int memfd;
    if (recv_msg(fd, &m, &memfd, flags) != 0)
        return (flags & MSG_DONTWAIT) && errno == EAGAIN ? 0 : -1;
    const uint64_t span = align_up(m.len, PAGE);
    int ok = m.kind == MSG_SYNC || in_range(sp, m.addr, span);
    if (ok && m.kind == MSG_MAP)
        ok = memfd >= 0 && mmap((void *)(uintptr_t)m.addr, (size_t)m.len, PROT_READ | PROT_WRITE,
                                MAP_SHARED | MAP_FIXED, memfd, 0) != MAP_FAILED;
    else if (ok && m.kind == MSG_UNMAP)
        ok = mmap((void *)(uintptr_t)m.addr, (size_t)span, PROT_NONE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0) != MAP_FAILED;
    if (memfd >= 0)
        close(memfd);
    if (!ok)
        return -1;
    if (m.gen)
        *gen = m.gen;
    return 1;
}

int trn_exec_space_apply(trn_exec_space *sp, int fd, uint64_t *gen, uint64_t want) {
    while (*gen < want)
        if (apply_one(sp, fd, gen, 0) != 1)
            return -1;
    return 0;
}

int trn_exec_space_apply_queued(trn_exec_space *sp, int fd, uint64_t *gen) {
    int r;
    while ((r = apply_one(sp, fd, gen, MSG_DONTWAIT)) == 1)
        ;
    return r;
}
