/*
 * op_scratch.c — the pool of ops' scratch blocks (op_scratch.h).
 *
 * Blocks are whole multiples of 2 MiB (huge-page sized, so that a shared
 * block may take transparent huge pages). The kept blocks are a short
 * list; a request takes the smallest kept block that holds it and is at
 * most twice its size (a small op never pins a huge block), else a new one.
 * A block put back when the budget is full evicts the oldest kept blocks.
 */
#include "daemon/op_scratch.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "daemon/bufmem.h"

#define SCRATCH_UNIT ((size_t)2 << 20)
#define SCRATCH_KEPT_MAX 8

typedef struct kept_block {
    void *p;
    size_t len;
} kept_block;

struct trn_op_scratch {
    trn_exec_space *sp;
    size_t max_bytes, keep_bytes;
    pthread_mutex_t lock;
    size_t lent;                       /* bytes of the blocks taken and not yet put back */
    kept_block kept[SCRATCH_KEPT_MAX]; /* oldest first */
    int nkept;
    size_t kept_bytes;
};

trn_op_scratch *trn_op_scratch_create(trn_exec_space *sp, size_t max_bytes, size_t keep_bytes) {
    trn_op_scratch *p = calloc(1, sizeof(*p));
    if (!p)
        return NULL;
    p->sp = sp;
    p->max_bytes = max_bytes;
    p->keep_bytes = keep_bytes;
    pthread_mutex_init(&p->lock, NULL);
    return p;
}

static void release(const trn_op_scratch *p, void *block, size_t len) {
    if (p->sp)
        trn_bufmem_release(block, len, 1, p->sp);
    else
        free(block);
}

/* Takes kept[i] out of the list (under the lock). */
static kept_block take_kept(trn_op_scratch *p, int i) {
    const kept_block b = p->kept[i];
    for (int j = i; j + 1 < p->nkept; j++)
        p->kept[j] = p->kept[j + 1];
    p->nkept--;
    p->kept_bytes -= b.len;
    return b;
}

void *trn_op_scratch_get(trn_op_scratch *p, size_t bytes, size_t *len) {
    if (bytes == 0 || bytes > SIZE_MAX - SCRATCH_UNIT)
        return NULL;
    const size_t want = (bytes + SCRATCH_UNIT - 1) / SCRATCH_UNIT * SCRATCH_UNIT;
    pthread_mutex_lock(&p->lock);
    int best = -1;
    for (int i = 0; i < p->nkept; i++)
        if (p->kept[i].len >= want && p->kept[i].len / 2 <= want &&
            (best < 0 || p->kept[i].len < p->kept[best].len))
            best = i;
    const size_t got = best >= 0 ? p->kept[best].len : want;
    if (got > p->max_bytes - p->lent) {
        pthread_mutex_unlock(&p->lock);
        return NULL;
    }
    p->lent += got;
    const kept_block b = best >= 0 ? take_kept(p, best) : (kept_block){0};
    pthread_mutex_unlock(&p->lock);
    *len = got;
    if (b.p)
        return b.p;
    void *block = NULL;
    if (p->sp) {
        char err[160];
        int fd;
        block = trn_bufmem_shared(want, p->sp, &fd, err, sizeof(err));
        if (block)
            close(fd); /* the space keeps its own duplicate */
    } else if (posix_memalign(&block, 4096, want) != 0) {
        block = NULL;
    }
    if (!block) {
        pthread_mutex_lock(&p->lock);
        p->lent -= got;
        pthread_mutex_unlock(&p->lock);
    }
    return block;
}

void trn_op_scratch_put(trn_op_scratch *p, void *block, size_t len) {
    if (!block)
        return;
    kept_block evicted[SCRATCH_KEPT_MAX + 1];
    int nevicted = 0;
    pthread_mutex_lock(&p->lock);
    p->lent -= len;
    if (len > p->keep_bytes) {
        evicted[nevicted++] = (kept_block){block, len};
    } else {
        while (p->nkept > 0 &&
               (p->nkept == SCRATCH_KEPT_MAX || p->kept_bytes + len > p->keep_bytes))
            evicted[nevicted++] = take_kept(p, 0);
        p->kept[p->nkept++] = (kept_block){block, len};
        p->kept_bytes += len;
    }
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < nevicted; i++) /* unmapping tells the executors: not under the lock */
        release(p, evicted[i].p, evicted[i].len);
}

void trn_op_scratch_trim(trn_op_scratch *p) {
    if (!p)
        return;
    kept_block all[SCRATCH_KEPT_MAX];
    pthread_mutex_lock(&p->lock);
    const int n = p->nkept;
    for (int i = 0; i < n; i++)
        all[i] = p->kept[i];
    p->nkept = 0;
    p->kept_bytes = 0;
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < n; i++)
        release(p, all[i].p, all[i].len);
}

void trn_op_scratch_destroy(trn_op_scratch *p) {
    if (!p)
        return;
    trn_op_scratch_trim(p);
    pthread_mutex_destroy(&p->lock);
    free(p);
}
