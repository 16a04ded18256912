/*
 * session.h — sessions and the buffers and streams they own.
 *
 * Everything a client creates belongs to its session and is released when the
 * session ends (CloseSession, its Attach stream ending, lease expiry, daemon
 * shutdown). Buffers are reference counted: the session's table holds one
 * reference and every queued op that names the buffer holds one, so freeing a
 * buffer (or ending the session) while an op still uses it defers the release
 * until the op completes. Quota: bytes are charged at allocation and credited
 * when the memory is actually released.
 *
 * Ids: session ids are random 64-bit values; buffer and plan ids are
 * per-session counters, so a session can only ever name its own buffers and
 * plans. A plan handle holds a reference to a plan-cache entry, dropped when
 * the handle is destroyed or the session ends; the plan stays cached.
 */
#ifndef TRN_DAEMON_SESSION_H
#define TRN_DAEMON_SESSION_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#include "daemon/call.h"
#include "daemon/config.h"
#include "daemon/idmap.h"
#include "daemon/status_scope.h"
#include "scheduler/plan_cache.h"
#include "scheduler/sched.h"

typedef struct trn_session trn_session;
typedef struct trn_session_table trn_session_table;
typedef struct trn_uid_usage trn_uid_usage;

/* Data a StageOutOp copied out of a buffer, waiting for the client's Read
 * with its ticket (daemon/service_stage.c). Guarded by the session lock,
 * including refs: one for the op until it completes, one for the session's
 * stage map (held by trn_session_close once it has taken the map away). */
typedef struct trn_stage {
    uint64_t ticket;
    void *data; /* len bytes, charged to the session */
    size_t len;
    unsigned refs;
    int in_map;         /* in s->stages (its reference is the map's) */
    int done;           /* the op completed: code/msg say how */
    trn_wire_code code; /* TRN_WIRE_OK: data is valid */
    char msg[160];
    trn_call *reader; /* a Read waiting for it, or NULL */
} trn_stage;

/* A plan handle of the session (trnfftPlan*): the cache entry plus what a
 * plan key leaves out (batch, distances). */
typedef struct trn_session_plan {
    trn_plan_entry *entry; /* a reference */
    uint64_t batch;
    uint64_t idist, odist; /* advanced layout; the basic one derives them */
} trn_session_plan;

/* An executable graph of the session (daemon/service_graph.c), as the
 * session's graph map holds it: the session's close calls close(self) for
 * each, which cancels what it has queued and drops the map's reference. */
typedef struct trn_session_graph {
    void (*close)(struct trn_session_graph *self);
    const char *key; /* its structure's key in the graph cache: set before it is mapped */
} trn_session_graph;

/* Executable graphs one session may hold. */
#define TRN_SESSION_MAX_GRAPHS 4096

/* Plan handles one session may hold. */
#define TRN_SESSION_MAX_PLANS 65536

typedef struct trn_buffer {
    uint64_t id;
    atomic_uint refs;
    void *data;
    uint64_t size;
    int mapped;         /* data is a shared mapping of `size` bytes (munmap), else heap */
    int staging;        /* the session's staging buffer: charged to no quota */
    int keepable;       /* its memory may be kept for the session's next allocation */
    int clock_marked;   /* marked on the write clock as written by the client */
    trn_session *owner; /* holds a session reference */
} trn_buffer;

/* Kept blocks: the memory of a session's freed device buffers, kept mapped
 * in the daemon and every executor for the session's next allocation of the
 * same size, so that a program allocating an output per call (NumPy's `@`)
 * does not take a page fault per 4 KiB page each time (10-50 us each on the
 * machines measured, bufmem.h). Only device buffers in the executors' space
 * of TRN_KEPT_MIN_BYTES and more; at most TRN_KEPT_BLOCKS blocks and
 * TRN_KEPT_MAX_BYTES a session, the oldest released first. A block is
 * zeroed before it is kept (allocations are zero-filled), is only ever
 * reused by the session that freed it, and is released when the session
 * closes or needs the room, or after TRN_KEPT_AGE_MS unused: kept bytes count against the session
 * quota with its buffers', and stay charged to its uid and token and in the daemon's held bytes,
 * but are not the session's bytes or buffers in Status. */
#define TRN_KEPT_BLOCKS 4
#define TRN_KEPT_MIN_BYTES ((uint64_t)256 << 10)
#define TRN_KEPT_MAX_BYTES ((uint64_t)256 << 20)
/* A block not reused within this long is released (by the session table's
 * once-a-second expiry, so within about twice that): a program that stops
 * allocating gives its memory back, as a freed buffer's. */
#define TRN_KEPT_AGE_MS 1000

typedef struct trn_kept_block {
    void *data; /* mapped in the executors' space */
    uint64_t bytes;
    int fd;           /* its memfd for the client to map (shared-memory sessions), else -1 */
    uint64_t kept_ms; /* when it was kept (trn_now_ms) */
} trn_kept_block;

struct trn_session {
    uint64_t id;     /* the session's credential: only its client knows it */
    uint64_t number; /* public: names the session in listings and logs */
    atomic_uint refs;
    trn_session_table *table;
    pthread_mutex_t lock; /* guards everything below */
    trn_idmap buffers;    /* buffer id → trn_buffer* */
    uint64_t next_buffer_id;
    uint64_t bytes;    /* charged against the quota */
    trn_idmap streams; /* stream id + 1 → trn_sched_stream* */
    trn_idmap events;  /* event id → trn_sched_fence* of its latest record */
    trn_idmap stages;  /* StageOutOp ticket → trn_stage* */
    trn_idmap plans;   /* plan id → trn_session_plan* */
    trn_idmap graphs;  /* exec id → trn_session_graph* (service_graph.c) */
    uint64_t next_plan_id;
    trn_sched_tenant *tenant; /* the session's share of the engines */
    int priority;
    uint64_t op_seq;
    uint32_t ops_pending; /* submitted, not yet completed (max-queued-ops) */
    int room_wanted;      /* a frontend paused until ops_pending drops (ops_full) */
    /* Errors after launch, per stream, until a Synchronize reports them
     * (session_errors.c): stream id + 1 → trn_deferred_error*. */
    trn_idmap errors;
    uint64_t errors_dropped; /* more streams with errors than max-streams */
    uint64_t lease_deadline_ms;
    trn_call *attach; /* the open Attach stream, if any */
    int closed;
    char client_name[64];
    uint32_t client_pid;
    trn_transport_kind transport;
    trn_peer peer;
    trn_uid_usage *usage;                 /* its uid's, when peer.known (a reference: refs) */
    int shared_memory;                    /* buffers are sealed memfds mapped by the client too */
    int host_shared;                      /* host allocations (Alloc.host) are, at least */
    int staging_live;                     /* the session has a staging buffer (Alloc.staging) */
    trn_kept_block kept[TRN_KEPT_BLOCKS]; /* oldest first */
    unsigned nkept;
    uint64_t kept_bytes;
};

struct trn_session_table {
    pthread_mutex_t lock;
    trn_idmap sessions;
    trn_idmap uids; /* uid + 1 → trn_uid_usage*, for clients whose uid is known */
    trn_sched *sched;
    const trn_config *cfg;
    /* Where buffers live when kernels run in executors (NULL: not). */
    struct trn_exec_space *space;
    /* Ops the backend runs from a plan of its own (a NEFF) take it from the
     * plan cache when accepted (daemon/validate.c); NULL: none do. */
    const struct trn_backend *backend;
    /* Local clients' device pointers are opaque (--device-pointers): only
     * host allocations are shared memory they map. */
    int opaque_pointers;
    /* Resident operands' write clock (ops/write_clock.h), or NULL: every
     * buffer's allocation and a Write into it stamp it. */
    struct trn_write_clock *wclock;
    struct trn_plan_cache *plans;
    atomic_uint_fast64_t bytes_held; /* all sessions, until memory is released */
    atomic_uint_fast64_t buffers;
    atomic_uint_fast64_t next_number;
};

/* Milliseconds on the monotonic clock. */
uint64_t trn_now_ms(void);

void trn_session_table_init(trn_session_table *t, trn_sched *sched, const trn_config *cfg);
/* Closes every session (queued work is cancelled). */
void trn_session_table_close_all(trn_session_table *t, const char *why);
void trn_session_table_destroy(trn_session_table *t);
unsigned trn_session_table_count(trn_session_table *t);
/* What `trnsci status` lists about one session. */
typedef struct trn_session_info {
    uint64_t number;
    trn_transport_kind transport;
    char client_name[64];
    uint32_t pid, uid;
    uint64_t bytes, buffers;
    uint64_t kept_bytes; /* its kept blocks' (not in bytes) */
    int priority;
    uint32_t ops_pending;
    trn_sched_usage usage;
} trn_session_info;

struct trn_scope;
/* A snapshot of the open sessions that scope includes (NULL: all, for
 * daemon-wide figures): returns the count and a malloc'd array in *out (NULL
 * when there are none or memory ran out). */
size_t trn_session_table_snapshot(trn_session_table *t, const struct trn_scope *scope,
                                  trn_session_info **out);

/* A sorted list of distinct strings (trn_session_table_held_keys). */
typedef struct trn_keys {
    char **v;
    size_t n;
} trn_keys;
/* Whether key is in k. */
int trn_keys_has(const trn_keys *k, const char *key);
void trn_keys_free(trn_keys *k);
/* The plan-cache keys of the plan handles (plans) and the graph-cache keys
 * of the executable graphs (graphs) that the sessions scope includes hold:
 * what a Plans caller who is not an administrator may see. Returns 0, or
 * -1 when out of memory (both then empty). */
int trn_session_table_held_keys(trn_session_table *t, const struct trn_scope *scope,
                                trn_keys *plans, trn_keys *graphs);

/* Closes sessions whose lease ran out with no Attach stream. */
void trn_session_table_expire(trn_session_table *t, uint64_t now_ms);
/* Closes the sessions whose token a reload removed (token.h: revoked), the
 * way a disconnected client's are; returns how many. */
unsigned trn_session_table_close_revoked(trn_session_table *t);

/* What one uid's sessions hold (max-sessions-per-uid, max-bytes-per-uid,
 * max-queued-ops-per-uid). Lives while a session of the uid does: refs
 * counts them until each one's last reference (by then what it held is
 * given back). sessions, bytes and refs under the table's lock; queued
 * atomically (the op path). A token's own counters (token.h) play the same
 * part for the sessions of a token. */
struct trn_uid_usage {
    uint32_t sessions;
    uint64_t bytes;
    atomic_uint queued;
    unsigned refs;
};

/* "session #N (NAME, pid P, uid U)" for log lines about a session (uid "?"
 * when the transport cannot tell, e.g. gRPC over TCP). Returns buf. */
const char *trn_session_who(const trn_session *s, char *buf, size_t len);

/* Opens a session for a client on `transport` (peer: its credentials when
 * known; the session takes its own reference to peer->token); returns it
 * with a reference for the caller, or NULL with *code and err set (the
 * uid's or the token's session limit, a revoked token, out of memory).
 * Sessions on the local transport get shared-memory buffers. */
trn_session *trn_session_open(trn_session_table *t, const char *client_name, uint32_t pid,
                              trn_transport_kind transport, const trn_peer *peer, int priority,
                              trn_wire_code *code, char *err, size_t errlen);
/* Sets the session's priority, clamped to [cfg->priority_ceiling,
 * TRN_PRIORITY_LEAST]; returns what it got. */
int trn_session_set_priority(trn_session *s, int priority);
/* Looks a session up, renews its lease and returns it with a reference for
 * the caller, or NULL when there is no such (open) session. */
trn_session *trn_session_find(trn_session_table *t, uint64_t id);
void trn_session_ref(trn_session *s);
void trn_session_unref(trn_session *s);
/* Ends a session: removes it from the table, cancels its queued work, drops
 * its buffers and ends its Attach stream. Idempotent. */
void trn_session_close(trn_session *s, const char *why);

/* Attach/detach the session's client stream. attach fails (-1) when one is
 * already attached or the session is closed. detach returns 1 when call was
 * still attached (the caller then finishes it), 0 when the session already
 * finished it. */
int trn_session_attach(trn_session *s, trn_call *call);
int trn_session_detach(trn_session *s, trn_call *call);

/* What an Alloc asks for. */
typedef enum trn_alloc_kind {
    TRN_ALLOC_DEVICE = 0,
    TRN_ALLOC_HOST = 1,    /* page-locked host memory */
    TRN_ALLOC_STAGING = 2, /* the session's staging buffer: host memory of at most
                              TRNSCI_WIRE_STAGING_BYTES, one live, charged to no quota */
} trn_alloc_kind;

/* Allocates zeroed memory for the session, charged to its quota (but for
 * the staging buffer), a kept block of the same size when it has one.
 * Returns 0 and the new id, or a wire code with err
 * written (quota, out of memory, a second staging buffer). When the client
 * maps it (a shared-memory session, or host memory on the local transport)
 * *fd is the buffer's memfd — sealed against shrinking and growing — for
 * the caller to send to the client and close; otherwise *fd is -1. */
trn_wire_code trn_session_alloc(trn_session *s, uint64_t bytes, trn_alloc_kind kind, uint64_t *id,
                                int *fd, char *err, size_t errlen);
/* Charges bytes of daemon memory that is not a buffer (staged transfers) to
 * the session's quota and its uid, releasing its kept blocks first when they
 * are what stands in the way; credit gives them back. */
trn_wire_code trn_session_charge(trn_session *s, uint64_t bytes, const char *what, char *err,
                                 size_t errlen);
void trn_session_credit(trn_session *s, uint64_t bytes);
/* Drops the session's reference to a buffer. Returns 0, or -1 if unknown. */
int trn_session_free_buffer(trn_session *s, uint64_t id);
/* A buffer of this session with a reference for the caller, or NULL. */
trn_buffer *trn_session_buffer_get(trn_session *s, uint64_t id);
void trn_buffer_unref(trn_buffer *b);

/* The scheduler stream for a client stream id, created on first use (up to
 * cfg->max_streams). NULL when the limit is reached or the session is closed.
 * Call with s->lock held. */
trn_sched_stream *trn_session_stream_locked(trn_session *s, uint32_t stream_id);

/* Frees a stage whose last reference is gone. */
void trn_stage_free(trn_session *s, trn_stage *st);

/* Ops queued under max-queued-ops. reserve_op counts one more (0), or
 * fails (-1) at the limit; release_op counts one less and, when a frontend
 * waits for room (ops_full) and the count has dropped by a quarter of the
 * limit, tells it through the attach call's `room`. */
int trn_session_reserve_op(trn_session *s);
void trn_session_release_op(trn_session *s);
/* Counts n more ops whatever the limit: a graph launch, which must go as a
 * whole (frontends stop taking requests while the count is over the limit,
 * so it can exceed it by one graph at most). */
void trn_session_reserve_ops_forced(trn_session *s, uint32_t n);
/* Whether the session has max-queued-ops queued; if so, its attach call's
 * `room` is called once it has room again. For a frontend that stops taking
 * a client's requests while its launch queue is full. */
int trn_session_ops_full(trn_session *s);

/* ---- errors after launch (session_errors.c) ----
 *
 * An op that fails after its Submit was answered (or was never answered:
 * an asynchronous launch) leaves its error with its stream. Each stream keeps
 * its earliest (lowest launch number); a Synchronize of that stream takes it,
 * one of every stream takes the earliest of all and clears the others. */

/* Keeps code and msg (which names the op) for stream_id. */
void trn_session_defer_error(trn_session *s, uint32_t stream_id, uint64_t launch_seq,
                             trn_wire_code code, const char *msg);
/* Takes the error kept for stream_id (all_streams: the earliest of every
 * stream, clearing them all; msg then also counts the others). Returns
 * TRN_WIRE_OK, with msg untouched, when there is none. */
trn_wire_code trn_session_take_error(trn_session *s, int all_streams, uint32_t stream_id, char *msg,
                                     size_t len);
/* Frees what is kept (the session's last reference). */
void trn_session_errors_free(trn_session *s);

#endif
