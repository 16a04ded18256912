/*
 * client.h — libtrnsci's internal state and helpers shared by the API files.
 *
 * The process has one connection to one daemon and one session on it (the
 * CUDA runtime's "primary context"). It is created on first use and ended by
 * trnsciDeviceReset or process exit (the daemon notices the exit).
 *
 * Ordering state, all monotonic counters:
 *  - `submitted` numbers the ops this process queued (any stream); each
 *    stream remembers the number of its latest op, and a completed
 *    synchronize remembers how far it reached, so a copy that must follow a
 *    stream's (or every stream's) work can skip a round trip when nothing is
 *    outstanding.
 *  - Device-to-host copies over gRPC are delivered by the fetch thread
 *    (fetch.c) in the order they were queued; each stream and each recorded
 *    event remembers the fetch sequence number that a synchronising call on
 *    it must wait for. These numbers, `submitted` (carried over from one
 *    session to the next), event ids and download tickets are process-wide
 *    and never restart, so a stream or event that outlives a
 *    trnsciDeviceReset can never skip a wait, wait forever, or name another's
 *    id.
 */
#ifndef TRN_CLIENT_CLIENT_H
#define TRN_CLIENT_CLIENT_H

#include <stdatomic.h>
#include <stdint.h>

#include "client/plan_records.h"
#include "client/ptrtable.h"
#include "client/transport.h"
#include "trnsci/trnsci.h"
#include "trnsci/v1/trnsci.pb-c.h"

/* Calls that never wait for work pass TRN_CALL_TIMEOUT_MS: their limit, 30 s
 * unless TRNSCI_CALL_TIMEOUT (milliseconds, 0: none) says otherwise
 * (trn_call_timeout_ms; a session reads it once, into call_timeout_ms). A
 * call past it fails with trnsciErrorTimeout on either transport. */
#define TRN_CALL_TIMEOUT_MS 30000
int trn_call_timeout_ms(void);
#define TRN_NO_TIMEOUT (-1)

struct trnsciStream_st {
    uint32_t id;
    unsigned flags;                  /* trnsciStreamCreateWithFlags */
    atomic_uint timeout_ms;          /* trnsciStreamSetTimeout; 0 = none */
    atomic_uint_fast64_t last_op;    /* `submitted` number of its latest op (0: none) */
    atomic_uint_fast64_t synced;     /* `submitted` reached by its last completed sync */
    atomic_uint_fast64_t fetch_mark; /* fetch sequence number of its latest download */
    atomic_uint query_event;         /* trnsciStreamQuery's event id, 0 until first used */
    /* Stream capture (capture.c): the capture it takes part in, and the
     * nodes its next captured call follows (guarded by the capture lock). */
    _Atomic(struct trn_capture *) capture;
    trnsciGraphNode_t *cap_deps;
    size_t n_cap_deps, cap_deps_cap;
};

struct trnsciEvent_st {
    uint32_t id;                     /* process-wide, never 0 */
    unsigned flags;                  /* trnsciEvent* flags */
    uint64_t generation;             /* the session it belongs to (trn_client.generation) */
    atomic_int recorded;             /* EventRecord succeeded at least once */
    atomic_uint_fast64_t fetch_mark; /* downloads its latest record covers */
    /* Recorded on a capturing stream (capture.c): the capture's id and the
     * stream's dependency set then (guarded by the capture lock). */
    unsigned long long capture_id;
    trnsciGraphNode_t *cap_deps;
    size_t n_cap_deps;
};

typedef struct trn_client {
    trn_transport *t;
    uint64_t session_id;
    uint64_t generation; /* counts sessions opened by this process, from 1 */
    unsigned core_count;
    /* The daemon's protocol minor (Hello): fields added to an existing
     * message in a later minor are ignored by an older daemon, so calls
     * that need them check it (trn_client_need_minor). */
    unsigned protocol_minor;
    uint64_t chunk_bytes;
    uint64_t max_session_bytes; /* Hello's limits: the session's quota (0: not said) */
    char daemon_version[32];
    char daemon_addr[160]; /* the daemon this session lives on, as connected to */
    char backend[16];
    /* From Hello's limits and OpenSession's reply (0 from a 1.0 daemon). */
    int priority_least, priority_ceiling;
    atomic_int priority; /* effective session priority */
    /* Device memory is mapped into this process (local transport): device
     * pointers are host-addressable and copies are memcpy. */
    int mapped;
    /* Host allocations (pinned memory) are daemon buffers mapped here: the
     * local transport, whatever the device pointers are. */
    int host_mapped;
    /* The daemon's device pointers are opaque (HelloReply.opaque_pointers):
     * on the local transport host↔device copies then go through `staging`,
     * a host allocation of TRNSCI_WIRE_STAGING_BYTES the daemon copies from and into
     * (memory.c), one copy at a time. */
    int opaque_pointers;
    pthread_mutex_t staging_lock;
    void *staging;       /* NULL until the first staged copy */
    uint64_t staging_id; /* its buffer id */
    trn_ptrtable ptrs;
    trn_plan_records plans; /* the plans made in this session (client/validate.h) */
    int validate_ops;       /* ops are validated before sending (not TRNSCI_CLIENT_VALIDATE=0) */
    int call_timeout_ms;    /* what TRN_CALL_TIMEOUT_MS means in this session */
    /* Ops are launched without waiting for the daemon (protocol 1.10, a
     * transport that can, not TRNSCI_LAUNCH_BLOCKING=1). */
    int launch_async;
    atomic_uint next_stream_id;
    /* Submissions so far, and how many of them a completed device-wide
     * synchronize is known to cover: trnsciMemcpy skips its implicit
     * synchronize when nothing is outstanding. */
    atomic_uint_fast64_t submitted, synced;
    /* The default stream's state (id 0). */
    struct trnsciStream_st default_stream;
} trn_client;

/* The connected client, initialising on first use; NULL with the error
 * recorded (trn_fail) when no daemon can be reached. */
trn_client *trn_client_get(trnsciError_t *err);

/* The client if it is initialised, else NULL (never initialises). */
trn_client *trn_client_peek(void);

/* Records an error for trnsciGetLastError / trnsciGetLastErrorMessage and
 * returns it. */
trnsciError_t trn_fail(trnsciError_t e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Changes the code of the error just recorded, keeping its message. */
trnsciError_t trn_retag(trnsciError_t e);
/* trnsciSuccess if the daemon speaks protocol minor `minor` or later, else
 * records trnsciErrorNotSupported naming `what` (a feature an older daemon
 * would silently ignore). */
trnsciError_t trn_client_need_minor(const trn_client *c, unsigned minor, const char *what);
/* Records success (clears the message) and returns trnsciSuccess. */
trnsciError_t trn_ok(void);
/* A query's "not yet": sets the message, leaves the last error alone (CUDA
 * does not treat cudaErrorNotReady as an error) and returns
 * trnsciErrorNotReady. */
trnsciError_t trn_not_ready(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

trnsciError_t trn_error_from_wire(trn_wire_code code);

/* A unary call on the session's transport; failures are recorded with the
 * daemon's message. */
trnsciError_t trn_client_call(trn_client *c, trn_wire_method m, const ProtobufCMessage *req,
                              const ProtobufCMessageDescriptor *reply_desc,
                              ProtobufCMessage **reply, int timeout_ms);

/* As trn_client_call, also receiving a descriptor sent with the reply (-1
 * when none). */
trnsciError_t trn_client_call_fd(trn_client *c, trn_wire_method m, const ProtobufCMessage *req,
                                 const ProtobufCMessageDescriptor *reply_desc,
                                 ProtobufCMessage **reply, int *fd, int timeout_ms);

/* A call to the daemon at address (NULL: as trnsciInit) without a session,
 * on a connection of its own; fn names the API call in errors. */
trnsciError_t trn_daemon_call(const char *address, trn_wire_method m, const ProtobufCMessage *req,
                              const ProtobufCMessageDescriptor *reply_desc, ProtobufCMessage **out,
                              const char *fn);

/* Fills ref for device pointer p (NULL → buffer 0). `what` names the argument
 * in the error. Returns trnsciSuccess or trnsciErrorInvalidValue. */
trnsciError_t trn_client_resolve(trn_client *c, const void *p, const char *what,
                                 Trnsci__V1__BufferRef *ref);
/* As trn_client_resolve, the argument named "fn: name" or "fn: name array"
 * (array may be NULL): the name is made only for the message, so a launch
 * formats nothing. */
trnsciError_t trn_client_resolve_named(trn_client *c, const void *p, const char *fn,
                                       const char *name, const char *array,
                                       Trnsci__V1__BufferRef *ref);

/* The state of stream s (NULL: the default stream). */
static inline struct trnsciStream_st *trn_stream_of(trn_client *c, trnsciStream_t s) {
    return s ? s : &c->default_stream;
}
uint32_t trn_stream_id(trnsciStream_t s);
/* The stream's timeout in microseconds, for the wire (0: none). */
uint64_t trn_stream_timeout_us(trn_client *c, trnsciStream_t s);

/* Counts one more op queued on stream s (before it is sent, so that a
 * concurrent copy does not skip its synchronize); returns its number (the
 * process's launches so far, SubmitRequest.launch_seq). */
uint64_t trn_client_note_op(trn_client *c, trnsciStream_t s);

/* Queues op on stream, with the stream's timeout. */
trnsciError_t trn_client_submit(trn_client *c, trnsciStream_t stream, Trnsci__V1__Op *op);
/* As trn_client_submit with an explicit timeout (0: none). */
trnsciError_t trn_client_submit_timeout(trn_client *c, trnsciStream_t stream, Trnsci__V1__Op *op,
                                        uint64_t timeout_us);
/* Waits for every stream of this process, downloads included. */
trnsciError_t trn_client_sync_all(trn_client *c);
/* Waits for outstanding work if any was submitted since the last full sync,
 * and for downloads not yet delivered. */
trnsciError_t trn_client_order_after_work(trn_client *c);
/* Waits for one stream's daemon-side work (with the stream's timeout) and
 * its downloads; `destroy` also has the daemon forget the stream. */
trnsciError_t trn_client_sync_stream(trn_client *c, trnsciStream_t stream, int destroy);
/* As trn_client_sync_stream without destroy, skipped when the stream has
 * nothing outstanding. */
trnsciError_t trn_client_order_after_stream(trn_client *c, trnsciStream_t stream);

/* ---- the fetch thread (fetch.c): delivers device-to-host copies over gRPC ---- */

/* Queues the delivery of a StageOutOp's data: `len` bytes fetched with
 * ReadRequest{ticket} into dst. Starts the fetch thread on first use.
 * Returns the job's sequence number (> 0), or 0 with the error recorded
 * (trnsciErrorMemoryAllocation) when it cannot be queued. */
uint64_t trn_fetch_enqueue(trn_client *c, uint64_t ticket, void *dst, size_t len);
/* A fresh download ticket (process-wide, never 0). */
uint64_t trn_fetch_ticket(void);
/* The sequence number of the latest job queued so far (0: none ever). */
uint64_t trn_fetch_mark(void);
/* Whether every job up to `mark` has been delivered (or has failed). */
int trn_fetch_done(uint64_t mark);
/* Waits until every job up to `mark` has been delivered or has failed. When
 * `report` is set and a failed job's error is pending, records it (and
 * clears it) and returns it; else returns trnsciSuccess without touching
 * the last error. */
trnsciError_t trn_fetch_wait(uint64_t mark, int report);
/* Forgets a pending fetch error of a job up to `mark` (the synchronising
 * call that waited for it already failed for the same reason). */
void trn_fetch_forget_error(uint64_t mark);
/* For trnsciDeviceReset, after CloseSession: stops the fetch thread (jobs
 * not yet started are dropped, the one in flight ends as the daemon
 * answers) and joins it; forgets any pending fetch error. */
void trn_fetch_stop(void);

/* ---- device memory (memory.c) ---- */

/* Resolves a device range [p, p+count) that must lie in one allocation
 * (what names it in the error). */
trnsciError_t trn_memory_device_range(trn_client *c, const void *p, size_t count, const char *what,
                                      Trnsci__V1__BufferRef *ref);
/* A device-to-device copy and a memset as ops (pointing at the caller's
 * storage). */
void trn_memory_copy_op(Trnsci__V1__Op *op, Trnsci__V1__CopyOp *copy, Trnsci__V1__BufferRef *dst,
                        Trnsci__V1__BufferRef *src, size_t count);
void trn_memory_memset_op(Trnsci__V1__Op *op, Trnsci__V1__MemsetOp *m, Trnsci__V1__BufferRef *ref,
                          int value, size_t count);

/* Allocates size (> 0) bytes of daemon memory and enters it in the pointer
 * table (trnsciMalloc's work; fn names the call in errors). */
trnsciError_t trn_memory_alloc(trn_client *c, size_t size, void **out, const char *fn);
/* The same for page-locked host memory (AllocRequest.host): on the local
 * transport a daemon buffer mapped here even when device pointers are
 * opaque. */
trnsciError_t trn_memory_alloc_host(trn_client *c, size_t size, void **out, const char *fn);
/* Takes the allocation starting at p out of the pointer table, unmaps it
 * and frees it on the daemon (trnsciFree's work). */
trnsciError_t trn_memory_release(trn_client *c, void *p, const char *fn);

/* The device's free and total bytes as trnsciMemGetInfo reports them. */
trnsciError_t trn_memory_info(trn_client *c, uint64_t *free_bytes, uint64_t *total_bytes);

/* ---- pinned and registered host memory (hostmem.c) ---- */

/* Whether [p, p + count) lies in one pinned allocation that is a daemon
 * buffer (local transport), so the daemon can copy to or from it. */
int trn_hostmem_daemon_range(const void *p, size_t count);
/* Whether p lies in pinned or registered host memory (host, not device,
 * memory for trnsciMemcpyDefault). */
int trn_hostmem_contains(const void *p);
/* After trnsciDeviceReset unmapped the session's buffers: forgets the
 * pinned allocations that were daemon buffers. */
void trn_hostmem_session_ended(void);

/* ---- events (event.c) ---- */

/* A fresh event id (process-wide, never 0). */
uint32_t trn_event_new_id(void);
/* Has the daemon forget event id (EVENT_DESTROY). */
trnsciError_t trn_event_forget(trn_client *c, uint32_t id);

#endif
