/*
 * grpc_launch.c — a session's Launch stream (grpc_launch.h).
 *
 * State, under `lock`:
 *   buf/len        the `submits` fields of the next LaunchBatch, encoded as
 *                  launches arrive (protobuf field 2, length-delimited)
 *   launched       launches appended, ever
 *   covered        launches the daemon is known to have queued: those taken
 *                  into the batch of the last acknowledged fence, or before
 *   fence_want     the highest fence asked for; fence_sent, fence_acked
 *   pending_at_ack, max_queued   the session's queue as of that ack
 * The sender thread takes buf (and a fence, if one is wanted) as one batch,
 * sends it and, for a fence, reads the ack in the same gRPC batch. At most
 * one batch is in flight, so fences are acknowledged in order.
 *
 * Upper bound on the session's queued ops: pending_at_ack + launched -
 * covered. A launch that would reach max_queued fences first and, while the
 * session stays full, sleeps and fences again.
 */
#include "client/grpc_launch.h"

#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/support/alloc.h>
#include <grpc/support/time.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LAUNCH_PATH "/trnsci.v1.Trnsci/Launch"
/* Unsent launch bytes past which a launch waits for the sender: well under
 * the 8 MiB message limit. */
#define BATCH_BYTES_MAX (4u << 20)
/* Launches allowed before the first ack has told the session's limit: the
 * first launch goes with a fence, the next waits for its ack (one round
 * trip per session), so a session whose limit is small is never refused. */
#define FIRST_WINDOW 1u

struct trn_grpc_launch {
    grpc_channel *channel;
    const grpc_metadata *md;
    size_t nmd;
    pthread_mutex_t lock;
    pthread_cond_t work; /* the sender waits for launches or a fence */
    pthread_cond_t done; /* launchers and fencers wait for acks and room */
    pthread_t thread;
    int started, has_thread, stopping, broken, sender_waiting, sent_initial_md;
    char error[256];
    grpc_call *call;
    grpc_completion_queue *cq;
    /* The stream's end (posted at start, read when it broke or at close). */
    grpc_metadata_array initial_md, status_md;
    grpc_status_code status;
    grpc_slice status_details;
    int status_read;
    uint64_t session_id;
    uint8_t *buf;
    size_t len, cap;
    uint64_t launched, covered;
    uint64_t fence_next, fence_want, fence_sent, fence_acked;
    uint32_t pending_at_ack, max_queued;
};

trn_grpc_launch *trn_grpc_launch_new(grpc_channel *channel, const grpc_metadata *md, size_t count) {
    trn_grpc_launch *l = calloc(1, sizeof(*l));
    if (!l)
        return NULL;
    l->channel = channel;
    l->md = md;
    l->nmd = count;
    pthread_mutex_init(&l->lock, NULL);
    pthread_cond_init(&l->work, NULL);
    pthread_cond_init(&l->done, NULL);
    grpc_metadata_array_init(&l->initial_md);
    grpc_metadata_array_init(&l->status_md);
    l->status_details = grpc_empty_slice();
    return l;
}

/* ---- encoding ------------------------------------------------------------- */

static size_t put_varint(uint8_t *p, uint64_t v) {
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

/* With lock held: appends req as a `submits` field. 0, or -1 when out of
 * memory. */
static int append_locked(trn_grpc_launch *l, const Trnsci__V1__SubmitRequest *req) {
    const size_t size = trnsci__v1__submit_request__get_packed_size(req);
    const size_t need = l->len + 1 + 10 + size;
    if (need > l->cap) {
        size_t cap = l->cap ? l->cap : 4096;
        while (cap < need)
            cap *= 2;
        uint8_t *p = realloc(l->buf, cap);
        if (!p)
            return -1;
        l->buf = p;
        l->cap = cap;
    }
    l->buf[l->len++] = (2u << 3) | 2u; /* field 2, length-delimited */
    l->len += put_varint(l->buf + l->len, size);
    l->len += trnsci__v1__submit_request__pack(req, l->buf + l->len);
    return 0;
}

/* ---- the sender ------------------------------------------------------------- */

/* Reads why the stream ended (it has: a batch failed). */
static void read_end(trn_grpc_launch *l, char *why, size_t len) {
    if (!l->status_read) {
        const gpr_timespec wait =
            gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC), gpr_time_from_seconds(5, GPR_TIMESPAN));
        const grpc_event ev = grpc_completion_queue_pluck(l->cq, &l->status, wait, NULL);
        l->status_read = ev.type == GRPC_OP_COMPLETE;
    }
    char *details = grpc_slice_to_c_string(l->status_details);
    if (l->status_read)
        snprintf(why, len, "the daemon ended the session's Launch stream (status %d): %s",
                 (int)l->status, details && details[0] ? details : "no reason given");
    else
        snprintf(why, len, "the session's Launch stream broke");
    gpr_free(details);
}

/* Sends one LaunchBatch: `body` (the submits, taken) and, with fence, waits
 * for its ack into *ack. Returns 0, or -1 when the stream broke. */
static int send_batch(trn_grpc_launch *l, uint8_t *body, size_t blen, uint64_t fence,
                      Trnsci__V1__LaunchAck **ack) {
    uint8_t head[9], tail[11];
    head[0] = (1u << 3) | 1u; /* field 1, fixed64 */
    for (int i = 0; i < 8; i++)
        head[1 + i] = (uint8_t)(l->session_id >> (8 * i));
    size_t ntail = 0;
    if (fence) {
        tail[ntail++] = (3u << 3) | 0u; /* field 3, varint */
        ntail += put_varint(tail + ntail, fence);
    }
    grpc_slice slices[3];
    size_t ns = 0;
    slices[ns++] = grpc_slice_from_copied_buffer((const char *)head, sizeof(head));
    if (blen)
        slices[ns++] = grpc_slice_new(body, blen, free);
    else
        free(body);
    if (ntail)
        slices[ns++] = grpc_slice_from_copied_buffer((const char *)tail, ntail);
    grpc_byte_buffer *send = grpc_raw_byte_buffer_create(slices, ns);
    for (size_t i = 0; i < ns; i++)
        grpc_slice_unref(slices[i]);
    grpc_byte_buffer *recv = NULL;

    grpc_op ops[3];
    size_t n = 0;
    memset(ops, 0, sizeof(ops));
    if (!l->sent_initial_md) {
        ops[n].op = GRPC_OP_SEND_INITIAL_METADATA;
        ops[n].data.send_initial_metadata.count = l->nmd;
        ops[n].data.send_initial_metadata.metadata = (grpc_metadata *)l->md;
        n++;
        l->sent_initial_md = 1;
    }
    ops[n].op = GRPC_OP_SEND_MESSAGE;
    ops[n].data.send_message.send_message = send;
    n++;
    if (fence) {
        ops[n].op = GRPC_OP_RECV_MESSAGE;
        ops[n].data.recv_message.recv_message = &recv;
        n++;
    }
    int ok = grpc_call_start_batch(l->call, ops, n, l, NULL) == GRPC_CALL_OK;
    if (ok)
        ok =
            grpc_completion_queue_pluck(l->cq, l, gpr_inf_future(GPR_CLOCK_REALTIME), NULL).success;
    grpc_byte_buffer_destroy(send);
    if (ok && fence) {
        grpc_byte_buffer_reader reader;
        *ack = NULL;
        if (recv && grpc_byte_buffer_reader_init(&reader, recv)) {
            grpc_slice s = grpc_byte_buffer_reader_readall(&reader);
            grpc_byte_buffer_reader_destroy(&reader);
            *ack =
                trnsci__v1__launch_ack__unpack(NULL, GRPC_SLICE_LENGTH(s), GRPC_SLICE_START_PTR(s));
            grpc_slice_unref(s);
        }
        ok = *ack != NULL && (*ack)->fence == fence;
        if (*ack && !ok) {
            trnsci__v1__launch_ack__free_unpacked(*ack, NULL);
            *ack = NULL;
        }
    }
    if (recv)
        grpc_byte_buffer_destroy(recv);
    return ok ? 0 : -1;
}

static void *sender_main(void *arg) {
    trn_grpc_launch *l = arg;
    pthread_mutex_lock(&l->lock);
    for (;;) {
        while (!l->stopping && l->len == 0 && l->fence_want == l->fence_sent) {
            l->sender_waiting = 1;
            pthread_cond_wait(&l->work, &l->lock);
            l->sender_waiting = 0;
        }
        if (l->stopping)
            break; /* launches not yet sent are dropped with the session */
        uint8_t *body = l->buf;
        const size_t blen = l->len;
        l->buf = NULL;
        l->len = l->cap = 0;
        const uint64_t fence = l->fence_want > l->fence_sent ? l->fence_want : 0;
        l->fence_sent = l->fence_want;
        const uint64_t upto = l->launched;
        pthread_cond_broadcast(&l->done); /* room for launches waiting on the batch size */
        pthread_mutex_unlock(&l->lock);

        Trnsci__V1__LaunchAck *ack = NULL;
        const int rc = send_batch(l, body, blen, fence, &ack);
        char why[256] = "";
        if (rc != 0)
            read_end(l, why, sizeof(why));

        pthread_mutex_lock(&l->lock);
        if (rc != 0) {
            l->broken = 1;
            snprintf(l->error, sizeof(l->error), "%s", why);
            break;
        }
        if (ack) {
            l->fence_acked = ack->fence;
            l->covered = upto;
            l->pending_at_ack = ack->ops_pending;
            l->max_queued = ack->max_queued_ops;
            trnsci__v1__launch_ack__free_unpacked(ack, NULL);
            pthread_cond_broadcast(&l->done);
        }
    }
    pthread_cond_broadcast(&l->done);
    pthread_mutex_unlock(&l->lock);
    return NULL;
}

/* With lock held: opens the stream and starts the sender. 0, or -1 (broken). */
static int start_locked(trn_grpc_launch *l, uint64_t session_id) {
    l->started = 1;
    l->session_id = session_id;
    l->cq = grpc_completion_queue_create_for_pluck(NULL);
    l->call = grpc_channel_create_call(l->channel, NULL, GRPC_PROPAGATE_DEFAULTS, l->cq,
                                       grpc_slice_from_static_string(LAUNCH_PATH), NULL,
                                       gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
    /* The daemon's initial metadata (messages follow it) and its status. */
    grpc_op ops[2];
    memset(ops, 0, sizeof(ops));
    ops[0].op = GRPC_OP_RECV_INITIAL_METADATA;
    ops[0].data.recv_initial_metadata.recv_initial_metadata = &l->initial_md;
    ops[1].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
    ops[1].data.recv_status_on_client.trailing_metadata = &l->status_md;
    ops[1].data.recv_status_on_client.status = &l->status;
    ops[1].data.recv_status_on_client.status_details = &l->status_details;
    if (!l->call || grpc_call_start_batch(l->call, ops, 2, &l->status, NULL) != GRPC_CALL_OK) {
        l->status_read = 1; /* nothing was posted */
        goto fail;
    }
    /* The first batch asks for an ack: it tells the session's limit. */
    l->fence_want = ++l->fence_next;
    if (pthread_create(&l->thread, NULL, sender_main, l) != 0)
        goto fail;
    l->has_thread = 1;
    return 0;
fail:
    l->broken = 1;
    l->stopping = 1;
    snprintf(l->error, sizeof(l->error), "cannot open the session's Launch stream");
    return -1;
}

/* With lock held: asks for a fence and waits for its ack (or the end). */
static void fence_locked(trn_grpc_launch *l) {
    const uint64_t f = ++l->fence_next;
    l->fence_want = f;
    if (l->sender_waiting)
        pthread_cond_signal(&l->work);
    while (!l->broken && l->fence_acked < f)
        pthread_cond_wait(&l->done, &l->lock);
}

/* With lock held: whether one more launch could take the session past its
 * limit (ops queued ≤ pending_at_ack + launches since the acked batch). */
static int full_locked(const trn_grpc_launch *l) {
    const uint64_t window = l->max_queued ? l->max_queued : FIRST_WINDOW;
    return l->pending_at_ack + (l->launched - l->covered) >= window;
}

static trn_wire_code broken_locked(trn_grpc_launch *l, char *msg, size_t msglen) {
    snprintf(msg, msglen, "%s", l->error);
    pthread_mutex_unlock(&l->lock);
    return TRN_WIRE_UNAVAILABLE;
}

trn_wire_code trn_grpc_launch_submit(trn_grpc_launch *l, const Trnsci__V1__SubmitRequest *req,
                                     char *msg, size_t msglen) {
    pthread_mutex_lock(&l->lock);
    if (!l->started)
        start_locked(l, req->session_id);
    for (;;) {
        if (l->broken || l->stopping)
            return broken_locked(l, msg, msglen);
        if (l->len >= BATCH_BYTES_MAX) { /* the sender is behind: wait for it */
            pthread_cond_wait(&l->done, &l->lock);
            continue;
        }
        if (!full_locked(l))
            break;
        fence_locked(l);
        if (!l->broken && full_locked(l)) {
            /* Still full: the session's ops take their time. */
            pthread_mutex_unlock(&l->lock);
            const struct timespec nap = {0, 200 * 1000};
            nanosleep(&nap, NULL);
            pthread_mutex_lock(&l->lock);
        }
    }
    if (append_locked(l, req) != 0) {
        pthread_mutex_unlock(&l->lock);
        snprintf(msg, msglen, "out of memory");
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    l->launched++;
    if (l->sender_waiting)
        pthread_cond_signal(&l->work);
    pthread_mutex_unlock(&l->lock);
    return TRN_WIRE_OK;
}

trn_wire_code trn_grpc_launch_fence(trn_grpc_launch *l, char *msg, size_t msglen) {
    pthread_mutex_lock(&l->lock);
    if (l->started && !l->broken && l->covered < l->launched)
        fence_locked(l);
    if (l->broken && l->covered < l->launched)
        return broken_locked(l, msg, msglen);
    pthread_mutex_unlock(&l->lock);
    return TRN_WIRE_OK;
}

void trn_grpc_launch_close(trn_grpc_launch *l) {
    if (!l)
        return;
    pthread_mutex_lock(&l->lock);
    l->stopping = 1;
    pthread_cond_broadcast(&l->work);
    pthread_mutex_unlock(&l->lock);
    if (l->call)
        grpc_call_cancel(l->call, NULL); /* a batch in flight ends now */
    if (l->has_thread)                   /* set before the thread ran; only close reads it after */
        pthread_join(l->thread, NULL);
    if (l->call) {
        if (!l->status_read)
            grpc_completion_queue_pluck(l->cq, &l->status, gpr_inf_future(GPR_CLOCK_REALTIME),
                                        NULL);
        grpc_call_unref(l->call);
    }
    if (l->cq) {
        grpc_completion_queue_shutdown(l->cq);
        grpc_completion_queue_destroy(l->cq);
    }
    grpc_slice_unref(l->status_details);
    grpc_metadata_array_destroy(&l->initial_md);
    grpc_metadata_array_destroy(&l->status_md);
    free(l->buf);
    pthread_cond_destroy(&l->work);
    pthread_cond_destroy(&l->done);
    pthread_mutex_destroy(&l->lock);
    free(l);
}
