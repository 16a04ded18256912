/*
 * fetch.c — the fetch thread: delivers stream-ordered device-to-host copies
 * over gRPC without blocking the thread that queued them.
 *
 * trnsciMemcpyAsync(DeviceToHost) queues one StageOutOp per chunk on the
 * stream (the daemon's copy engine copies the chunk into daemon memory when
 * the stream reaches it) and hands a job {ticket, dst, len} to this file.
 * One thread per process takes the jobs in FIFO order, fetches each with
 * ReadRequest{ticket} (which the daemon answers once the chunk is staged)
 * and copies the data into the host destination.
 *
 * Invariants:
 *  - Jobs get sequence numbers 1, 2, … in queueing order and complete in
 *    that order, so "delivered" is one counter: every job with seq <=
 *    delivered is finished (data copied, or failed). The counters never
 *    restart, not even across trnsciDeviceReset.
 *  - A failed job records the first pending error (code, message, seq); a
 *    synchronising call that waits past that seq reports it once.
 *  - The thread is started on the first job and joined by trn_fetch_stop
 *    (trnsciDeviceReset). At process exit an idle thread is stopped and
 *    joined; one inside a Read is left to the exit (nothing waits for a
 *    download nobody synchronised).
 *  - A job fetches with no client deadline: the chunk may be queued behind
 *    any amount of work, and the daemon answers (with an error) if the
 *    stage-out is cancelled or the session ends.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/client.h"

typedef struct fetch_job {
    uint64_t seq, ticket;
    void *dst;
    size_t len;
    struct fetch_job *next;
} fetch_job;

static struct {
    pthread_mutex_t lock;
    pthread_cond_t work; /* a job was queued, or stop */
    pthread_cond_t done; /* delivered advanced */
    pthread_t thread;
    int running; /* the thread exists (not yet joined) */
    int busy;    /* it is fetching a job */
    int stop;
    trn_client *client;
    fetch_job *head, *tail;
    uint64_t enqueued, delivered;
    /* The first failure not yet reported. */
    trnsciError_t err;
    uint64_t err_seq;
    char err_msg[512];
} F = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .work = PTHREAD_COND_INITIALIZER,
    .done = PTHREAD_COND_INITIALIZER,
};

static atomic_uint_fast64_t next_ticket = 1;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

uint64_t trn_fetch_ticket(void) {
    return atomic_fetch_add(&next_ticket, 1);
}

/* Fetches one job's data. Returns trnsciSuccess, or the error with its
 * message copied into msg. */
static trnsciError_t fetch_one(trn_client *c, const fetch_job *j, char *msg, size_t msglen) {
    Trnsci__V1__ReadRequest req = TRNSCI__V1__READ_REQUEST__INIT;
    req.session_id = c->session_id;
    req.ticket = j->ticket;
    req.length = j->len;
    Trnsci__V1__ReadReply *r = NULL;
    trnsciError_t e =
        trn_client_call(c, TRN_WIRE_READ, &req.base, &trnsci__v1__read_reply__descriptor,
                        (ProtobufCMessage **)&r, TRN_NO_TIMEOUT);
    if (e != trnsciSuccess) {
        snprintf(msg, msglen, "trnsciMemcpyAsync: fetching %zu bytes (ticket %llu) failed: %s",
                 j->len, (unsigned long long)j->ticket, trnsciGetLastErrorMessage());
        return e;
    }
    if (r->data.len == j->len) {
        memcpy(j->dst, r->data.data, j->len);
    } else {
        snprintf(msg, msglen,
                 "trnsciMemcpyAsync: the daemon returned %zu bytes for ticket %llu, expected %zu",
                 r->data.len, (unsigned long long)j->ticket, j->len);
        e = trnsciErrorUnknown;
    }
    trnsci__v1__read_reply__free_unpacked(r, NULL);
    return e;
}

/* With F.lock held: jobs not yet started are dropped (counted delivered). */
static void drop_queued_locked(void) {
    while (F.head) {
        fetch_job *j = F.head;
        F.head = j->next;
        F.delivered = j->seq;
        free(j);
    }
    F.tail = NULL;
    pthread_cond_broadcast(&F.done);
}

static void *fetch_main(void *arg) {
    (void)arg;
    pthread_mutex_lock(&F.lock);
    for (;;) {
        while (!F.head && !F.stop)
            pthread_cond_wait(&F.work, &F.lock);
        if (F.stop) {
            drop_queued_locked();
            break;
        }
        fetch_job *j = F.head;
        F.head = j->next;
        if (!F.head)
            F.tail = NULL;
        F.busy = 1;
        trn_client *c = F.client;
        pthread_mutex_unlock(&F.lock);

        char msg[512] = "";
        const trnsciError_t e = fetch_one(c, j, msg, sizeof(msg));

        pthread_mutex_lock(&F.lock);
        F.busy = 0;
        if (e != trnsciSuccess && F.err == trnsciSuccess) {
            F.err = e;
            F.err_seq = j->seq;
            snprintf(F.err_msg, sizeof(F.err_msg), "%s", msg);
        }
        F.delivered = j->seq;
        free(j);
        pthread_cond_broadcast(&F.done);
    }
    pthread_mutex_unlock(&F.lock);
    return NULL;
}

/* At exit: an idle thread is stopped and joined; a busy one is told to stop
 * after its Read and left to the exit. */
static void fetch_at_exit(void) {
    pthread_mutex_lock(&F.lock);
    if (!F.running) {
        pthread_mutex_unlock(&F.lock);
        return;
    }
    F.stop = 1;
    drop_queued_locked();
    const int idle = !F.busy;
    if (idle)
        F.running = 0;
    pthread_cond_broadcast(&F.work);
    pthread_mutex_unlock(&F.lock);
    if (idle)
        pthread_join(F.thread, NULL);
}

static void register_exit(void) {
    atexit(fetch_at_exit);
}

uint64_t trn_fetch_enqueue(trn_client *c, uint64_t ticket, void *dst, size_t len) {
    fetch_job *j = calloc(1, sizeof(*j));
    if (!j) {
        trn_fail(trnsciErrorMemoryAllocation, "trnsciMemcpyAsync: out of client memory");
        return 0;
    }
    j->ticket = ticket;
    j->dst = dst;
    j->len = len;
    pthread_once(&exit_once, register_exit);
    pthread_mutex_lock(&F.lock);
    if (!F.running) {
        F.stop = 0;
        F.client = c;
        if (pthread_create(&F.thread, NULL, fetch_main, NULL) != 0) {
            pthread_mutex_unlock(&F.lock);
            free(j);
            trn_fail(trnsciErrorMemoryAllocation,
                     "trnsciMemcpyAsync: cannot start the library's download thread");
            return 0;
        }
        F.running = 1;
    }
    j->seq = ++F.enqueued;
    if (F.tail)
        F.tail->next = j;
    else
        F.head = j;
    F.tail = j;
    const uint64_t seq = j->seq;
    pthread_cond_signal(&F.work);
    pthread_mutex_unlock(&F.lock);
    return seq;
}

uint64_t trn_fetch_mark(void) {
    pthread_mutex_lock(&F.lock);
    const uint64_t m = F.enqueued;
    pthread_mutex_unlock(&F.lock);
    return m;
}

int trn_fetch_done(uint64_t mark) {
    pthread_mutex_lock(&F.lock);
    const int done = F.delivered >= mark;
    pthread_mutex_unlock(&F.lock);
    return done;
}

trnsciError_t trn_fetch_wait(uint64_t mark, int report) {
    pthread_mutex_lock(&F.lock);
    while (F.delivered < mark)
        pthread_cond_wait(&F.done, &F.lock);
    trnsciError_t e = trnsciSuccess;
    char msg[512];
    if (report && F.err != trnsciSuccess && F.err_seq <= mark) {
        e = F.err;
        snprintf(msg, sizeof(msg), "%s", F.err_msg);
        F.err = trnsciSuccess;
    }
    pthread_mutex_unlock(&F.lock);
    return e == trnsciSuccess ? trnsciSuccess : trn_fail(e, "%s", msg);
}

void trn_fetch_forget_error(uint64_t mark) {
    pthread_mutex_lock(&F.lock);
    if (F.err != trnsciSuccess && F.err_seq <= mark)
        F.err = trnsciSuccess;
    pthread_mutex_unlock(&F.lock);
}

void trn_fetch_stop(void) {
    pthread_mutex_lock(&F.lock);
    const int running = F.running;
    if (running) {
        F.stop = 1;
        F.running = 0;
        pthread_cond_broadcast(&F.work);
    }
    pthread_mutex_unlock(&F.lock);
    if (running)
        pthread_join(F.thread, NULL);
    pthread_mutex_lock(&F.lock);
    drop_queued_locked();
    F.err = trnsciSuccess;
    F.stop = 0;
    pthread_mutex_unlock(&F.lock);
}
