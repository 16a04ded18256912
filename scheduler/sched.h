/*
 * sched.h — the scheduler: streams of ops, one pinned worker thread per core.
 *
 * Ordering: ops on one stream run one after another in submission order (all
 * shards of an op finish before the next op starts); different streams are
 * independent. An op is split into shards that run on any workers; its
 * completion callback runs once, after its last shard.
 *
 * Markers are ops with no kernel: a marker completes when every op queued
 * before it on its stream has completed. Synchronize is built from them.
 *
 * Callbacks run on a worker thread or on the thread that called submit/cancel,
 * never with a scheduler lock held; they may call back into the scheduler.
 *
 * Sharding: an op big enough to gain from several cores is split into
 * shards (trn_sched_shard_count below) that idle workers take from the ready
 * queue one by one, so they run concurrently. The split depends only on the
 * op and the configured core count, never on load, so the result of an op is
 * bitwise the same whatever else the daemon is doing. An op counts as started
 * (and will finish) once any of its shards has been taken by a worker.
 *
 * Ready ops are served first come first served; fair queuing and deadlines
 * plug in at the ready queue in sched.c.
 */
#ifndef TRN_SCHEDULER_SCHED_H
#define TRN_SCHEDULER_SCHED_H

#include <stdint.h>

#include "kernels/backend.h"

typedef struct trn_sched trn_sched;
typedef struct trn_sched_stream trn_sched_stream;
typedef struct trn_sched_op trn_sched_op;

typedef enum trn_sched_status {
    TRN_SCHED_OK = 0,
    TRN_SCHED_KERNEL_FAILED, /* the backend reported failure */
    TRN_SCHED_UNSUPPORTED,   /* the backend has no kernel for the op */
    TRN_SCHED_CANCELLED,     /* removed before it ran (stream cancelled) */
    TRN_SCHED_SHUTDOWN,      /* removed before it ran (scheduler shutting down) */
} trn_sched_status;

typedef void (*trn_sched_done_fn)(trn_sched_op *op, trn_sched_status status);

struct trn_sched_op {
    /* Set by the submitter. */
    trn_op_desc desc;
    int is_marker;          /* no kernel: completes when reaching its stream's head */
    trn_sched_done_fn done; /* required */
    void *user;

    /* Private to the scheduler. */
    trn_sched_op *next; /* stream FIFO, then the completion list */
    trn_sched_op *ready_next;
    trn_sched_stream *stream;
    int nshards, next_shard, shards_left;
    trn_kstatus kstatus;
    trn_sched_status final_status;
};

/* The sharding policy's constants; sched.c (trn_sched_shard_count) explains
 * how they were measured. Each is a minimum per shard: an op gets as many
 * shards as the configured cores, but no more than its size allows. */
#define TRN_SHARD_GEMM_MIN_FLOP 16e6 /* trn_op_cost of one GEMM shard */
#define TRN_SHARD_GEMM_MIN_COLS 128  /* columns of C in one GEMM shard */
/* trn_op_cost of one memset/copy shard: the bytes it touches (a memset
 * writes them; a copy reads and writes, so counts each byte twice). */
#define TRN_SHARD_MEM_MIN_BYTES ((size_t)2 << 20)

/* The number of shards op d is split into on a scheduler with ncores workers:
 * between 1 and ncores. A pure function of the descriptor and ncores. */
int trn_sched_shard_count(const trn_op_desc *d, int ncores);

typedef struct trn_sched_stats {
    uint64_t ops_queued;    /* submitted, not yet started (markers excluded) */
    uint64_t ops_running;   /* at the head of their stream: waiting for a core or running */
    uint64_t ops_completed; /* kernels completed, any status */
    unsigned workers;
} trn_sched_stats;

/* Starts one worker per entry of cpus, pinned to that CPU (cpus may be NULL:
 * ncores unpinned workers). On failure returns NULL and writes err. */
trn_sched *trn_sched_create(const trn_backend *be, const int *cpus, int ncores, char *err,
                            size_t errlen);

/* Stops accepting ops, completes every queued op and marker with
 * TRN_SCHED_SHUTDOWN, waits for running shards, and joins the workers.
 * Idempotent. */
void trn_sched_shutdown(trn_sched *s);
/* Frees the scheduler; call after trn_sched_shutdown and once every stream
 * has been released. */
void trn_sched_destroy(trn_sched *s);

trn_sched_stream *trn_sched_stream_create(trn_sched *s);
/* Takes an extra reference (dropped with trn_sched_stream_release). */
void trn_sched_stream_retain(trn_sched *s, trn_sched_stream *st);
/* Drops the creator's reference; the stream is freed once its queued ops
 * have completed. */
void trn_sched_stream_release(trn_sched *s, trn_sched_stream *st);
/* Completes every op of the stream that has not started with
 * TRN_SCHED_CANCELLED; a running op finishes normally. */
void trn_sched_stream_cancel(trn_sched *s, trn_sched_stream *st);

/* Queues op on st. Returns 0, or -1 when shutting down (op untouched, its
 * callback not called). */
int trn_sched_submit(trn_sched *s, trn_sched_stream *st, trn_sched_op *op);

void trn_sched_get_stats(trn_sched *s, trn_sched_stats *out);

#endif
