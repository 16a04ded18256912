/*
 * runtime.c — connecting to the daemon, the session and its priority, the
 * submit/synchronize helpers, and the runtime calls that are not about
 * memory, streams or events.
 *
 * The process-wide client lives here; `init_lock` serialises initialisation,
 * reset and the priority request kept for the next session — every other
 * call reads the initialised client lock-free.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "client/client.h"
#include "client/fleet.h"
#include "client/graph.h"
#include "client/validate.h"

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static trn_client the_client;
static atomic_int initialised;
static uint64_t sessions_opened; /* under init_lock: the next generation - 1 */
/* Under init_lock: `submitted` when the last session ended. The next session
 * counts on from it, so the marks of a stream that outlives a reset never
 * look ahead of the new session's work. */
static uint64_t submitted_carry;
/* The priority the next session asks for, from trnsciSetSessionPriority
 * (under init_lock). Without one, $TRNSCI_SESSION_PRIORITY, else 0. */
static int requested_priority, have_requested_priority;

/* ---- addresses ----------------------------------------------------------- */

static void default_address(char *buf, size_t len) {
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    if (xdg && xdg[0])
        snprintf(buf, len, "unix:%s/trnscid.sock", xdg);
    else
        snprintf(buf, len, "unix:/run/trnscid/trnscid.sock");
}

/* The address to use: the argument, else $TRNSCI_ADDR, else the default. */
static void choose_address(const char *address, char *buf, size_t len) {
    const char *env = getenv("TRNSCI_ADDR");
    if (address && address[0])
        snprintf(buf, len, "%s", address);
    else if (env && env[0])
        snprintf(buf, len, "%s", env);
    else
        default_address(buf, len);
}

/* Splits "a,b,c" into at most max targets (in place). */
static int split_targets(char *list, char **out, int max) {
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok && n < max;
         tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        if (*tok)
            out[n++] = tok;
    }
    return n;
}

/* Hello on one target: returns the open transport, or NULL with *code and
 * msg set. */
static trn_transport *try_target(const char *target, trn_client *c, trn_wire_code *code, char *msg,
                                 size_t msglen) {
    trn_transport *t = trn_transport_open(target);
    if (!t) {
        *code = TRN_WIRE_RESOURCE_EXHAUSTED;
        snprintf(msg, msglen, "out of memory");
        return NULL;
    }
    Trnsci__V1__HelloRequest req = TRNSCI__V1__HELLO_REQUEST__INIT;
    req.protocol_major = TRNSCI_PROTOCOL_MAJOR;
    req.protocol_minor = TRNSCI_PROTOCOL_MINOR;
    req.client_name = "libtrnsci";
    Trnsci__V1__HelloReply *r = NULL;
    *code = trn_transport_call(t, TRN_WIRE_HELLO, &req.base, &trnsci__v1__hello_reply__descriptor,
                               (ProtobufCMessage **)&r, msg, msglen, trn_call_timeout_ms());
    if (*code != TRN_WIRE_OK) {
        trn_transport_close(t);
        return NULL;
    }
    /* Buffers hold the daemon's byte order (a daemon before protocol 1.9
     * does not say: little-endian, as every platform it builds on). */
    const char *order = r->byte_order && *r->byte_order ? r->byte_order : "little";
    const char *mine = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? "little" : "big";
    if (strcmp(order, mine) != 0) {
        *code = TRN_WIRE_FAILED_PRECONDITION;
        snprintf(msg, msglen,
                 "the daemon's buffers are %s-endian and this process is %s-endian: "
                 "libtrnsci does not convert buffer contents",
                 order, mine);
        trnsci__v1__hello_reply__free_unpacked(r, NULL);
        trn_transport_close(t);
        return NULL;
    }
    c->core_count = r->core_count;
    c->protocol_minor = r->protocol_minor;
    c->opaque_pointers = r->opaque_pointers;
    c->chunk_bytes =
        r->limits && r->limits->chunk_bytes ? r->limits->chunk_bytes : TRNSCI_WIRE_CHUNK_BYTES;
    if (c->chunk_bytes > TRNSCI_WIRE_CHUNK_BYTES)
        c->chunk_bytes = TRNSCI_WIRE_CHUNK_BYTES;
    c->max_session_bytes = r->limits ? r->limits->max_session_bytes : 0;
    c->priority_least = r->limits ? r->limits->priority_least : 0;
    c->priority_ceiling = r->limits ? r->limits->priority_ceiling : 0;
    snprintf(c->daemon_version, sizeof(c->daemon_version), "%s", r->daemon_version);
    snprintf(c->backend, sizeof(c->backend), "%s", r->backend);
    trnsci__v1__hello_reply__free_unpacked(r, NULL);
    return t;
}

/* What pointers are here: device memory is mapped on the local transport
 * unless the daemon keeps it where this process cannot map it; pinned host
 * memory is mapped on the local transport always. */
static void set_memory_model(trn_client *c) {
    c->host_mapped = c->t->ops->host_mapped;
    c->mapped = c->host_mapped && !c->opaque_pointers;
}

/* A fleet of gRPC daemons (fleet.h): gRPC's round_robin policy picks the
 * daemon, the session connects to it alone. */
static trnsciError_t connect_fleet(const char *address, const char *balancer, trn_client *c) {
    Trnsci__V1__StatusRequest req = TRNSCI__V1__STATUS_REQUEST__INIT;
    char peer[160] = "", msg[512] = "";
    /* A daemon that died a moment ago may still be picked once, before the
     * policy sees its connection close: pick again. */
    trn_wire_code code = TRN_WIRE_UNAVAILABLE;
    for (int attempt = 0; attempt < 4 && code == TRN_WIRE_UNAVAILABLE; attempt++)
        code = trn_transport_grpc_pick(balancer, &req.base, peer, sizeof(peer), msg, sizeof(msg),
                                       trn_call_timeout_ms());
    if (code == TRN_WIRE_OK && peer[0]) {
        c->t = try_target(peer, c, &code, msg, sizeof(msg));
        if (c->t) {
            set_memory_model(c);
            snprintf(c->daemon_addr, sizeof(c->daemon_addr), "%s", peer);
            return trnsciSuccess;
        }
    }
    if (code == TRN_WIRE_UNAVAILABLE || code == TRN_WIRE_DEADLINE_EXCEEDED || code == TRN_WIRE_OK)
        return trn_fail(trnsciErrorNoDevice, "no trnscid of %s reachable: %s", address, msg);
    return trn_fail(trn_error_from_wire(code), "trnscid at %s refused the connection: %s",
                    peer[0] ? peer : address, msg);
}

/* Connects to the first reachable target of the list (local sockets, or a
 * mix), starting at an index chosen by pid so that processes spread over
 * it; gRPC daemons only go through connect_fleet. */
static trnsciError_t connect_any(const char *address, trn_client *c) {
    char balancer[2048];
    const int fleet = trn_fleet_target(address, balancer, sizeof(balancer));
    if (fleet < 0)
        return trn_fail(trnsciErrorNoDevice, "trnsciInit: %s", balancer);
    if (fleet > 0)
        return connect_fleet(address, balancer, c);
    char list[2048];
    snprintf(list, sizeof(list), "%s", address);
    char *targets[32];
    const int n = split_targets(list, targets, 32);
    if (n == 0)
        return trn_fail(trnsciErrorInvalidValue, "trnsciInit: empty daemon address");
    const int start = n > 1 ? (int)(getpid() % n) : 0;
    trn_wire_code code = TRN_WIRE_UNAVAILABLE;
    char msg[512] = "";
    for (int i = 0; i < n; i++) {
        const char *target = targets[(start + i) % n];
        c->t = try_target(target, c, &code, msg, sizeof(msg));
        if (c->t) {
            set_memory_model(c);
            snprintf(c->daemon_addr, sizeof(c->daemon_addr), "%s", target);
            return trnsciSuccess;
        }
        if (code != TRN_WIRE_UNAVAILABLE && code != TRN_WIRE_DEADLINE_EXCEEDED)
            break; /* reachable but refused: report it, do not fail over */
    }
    if (code == TRN_WIRE_UNAVAILABLE || code == TRN_WIRE_DEADLINE_EXCEEDED)
        return trn_fail(trnsciErrorNoDevice,
                        "no trnscid reachable at %s (start one with `make run` or `trnscid`, "
                        "or set TRNSCI_ADDR): %s",
                        address, msg);
    return trn_fail(trn_error_from_wire(code), "trnscid at %s refused the connection: %s", address,
                    msg);
}

/* With init_lock held: the priority the new session asks for. */
static trnsciError_t initial_priority(int *out) {
    *out = 0;
    if (have_requested_priority) {
        *out = requested_priority;
        return trnsciSuccess;
    }
    const char *env = getenv("TRNSCI_SESSION_PRIORITY");
    if (!env || !env[0])
        return trnsciSuccess;
    char *end;
    errno = 0;
    const long v = strtol(env, &end, 10);
    if (errno || *end || end == env || v < INT_MIN || v > INT_MAX)
        return trn_fail(trnsciErrorInvalidValue,
                        "TRNSCI_SESSION_PRIORITY=%s is not an integer priority (lower is more "
                        "urgent, 0 is the default)",
                        env);
    *out = (int)v;
    return trnsciSuccess;
}

static trnsciError_t open_session(trn_client *c) {
    c->call_timeout_ms = trn_call_timeout_ms(); /* read once per session */
    Trnsci__V1__OpenSessionRequest req = TRNSCI__V1__OPEN_SESSION_REQUEST__INIT;
    req.protocol_major = TRNSCI_PROTOCOL_MAJOR;
    req.protocol_minor = TRNSCI_PROTOCOL_MINOR;
    req.client_name = "libtrnsci";
    req.client_pid = (uint32_t)getpid();
    trnsciError_t e = initial_priority(&req.priority);
    if (e != trnsciSuccess)
        return e;
    Trnsci__V1__OpenSessionReply *r = NULL;
    e = trn_client_call(c, TRN_WIRE_OPEN_SESSION, &req.base,
                        &trnsci__v1__open_session_reply__descriptor, (ProtobufCMessage **)&r,
                        TRN_CALL_TIMEOUT_MS);
    if (e == trnsciErrorMemoryAllocation) /* a session limit: retry later */
        return trn_retag(trnsciErrorBusy);
    if (e != trnsciSuccess)
        return e;
    c->session_id = r->session_id;
    atomic_store(&c->priority, r->priority);
    trnsci__v1__open_session_reply__free_unpacked(r, NULL);
    /* As CUDA_LAUNCH_BLOCKING=1: every launch waits for the daemon to take
     * it, and its refusal is the launching call's error. */
    const char *blocking = getenv("TRNSCI_LAUNCH_BLOCKING");
    c->launch_async =
        c->t->ops->launch && c->protocol_minor >= 10 && !(blocking && strcmp(blocking, "1") == 0);

    Trnsci__V1__AttachRequest a = TRNSCI__V1__ATTACH_REQUEST__INIT;
    a.session_id = c->session_id;
    if (trn_transport_attach(c->t, &a.base) != 0) {
        /* Do not leave the session to its lease. */
        Trnsci__V1__CloseSessionRequest close = TRNSCI__V1__CLOSE_SESSION_REQUEST__INIT;
        close.session_id = c->session_id;
        char msg[256];
        trn_transport_call(c->t, TRN_WIRE_CLOSE_SESSION, &close.base, NULL, NULL, msg, sizeof(msg),
                           c->call_timeout_ms);
        return trn_fail(trnsciErrorInitializationError, "cannot open the session's Attach stream");
    }
    return trnsciSuccess;
}

static trnsciError_t init_locked(const char *address) {
    trn_client *c = &the_client;
    char addr[2048];
    choose_address(address, addr, sizeof(addr));

    memset(c, 0, sizeof(*c));
    pthread_mutex_init(&c->staging_lock, NULL);
    trn_ptrtable_init(&c->ptrs);
    trn_plan_records_init(&c->plans);
    const char *check = getenv("TRNSCI_CLIENT_VALIDATE");
    c->validate_ops = !(check && strcmp(check, "0") == 0);
    atomic_init(&c->next_stream_id, 1);
    atomic_init(&c->submitted, submitted_carry);
    atomic_init(&c->synced, submitted_carry);
    atomic_init(&c->priority, 0);
    c->default_stream.id = 0;
    c->generation = sessions_opened + 1;
    trnsciError_t e = connect_any(addr, c);
    if (e == trnsciSuccess)
        e = open_session(c);
    if (e != trnsciSuccess) {
        trn_transport_close(c->t);
        c->t = NULL;
        trn_ptrtable_destroy(&c->ptrs);
        trn_plan_records_destroy(&c->plans);
        return e;
    }
    sessions_opened = c->generation;
    atomic_store(&initialised, 1);
    return trn_ok();
}

trnsciError_t trnsciInit(const char *address) {
    if (atomic_load(&initialised))
        return trn_ok();
    pthread_mutex_lock(&init_lock);
    const trnsciError_t e = atomic_load(&initialised) ? trn_ok() : init_locked(address);
    pthread_mutex_unlock(&init_lock);
    return e;
}

trn_client *trn_client_get(trnsciError_t *err) {
    if (!atomic_load(&initialised)) {
        *err = trnsciInit(NULL);
        if (*err != trnsciSuccess)
            return NULL;
    }
    *err = trnsciSuccess;
    return &the_client;
}

trn_client *trn_client_peek(void) {
    return atomic_load(&initialised) ? &the_client : NULL;
}

trnsciError_t trnsciDeviceReset(void) {
    pthread_mutex_lock(&init_lock);
    if (!atomic_load(&initialised)) {
        pthread_mutex_unlock(&init_lock);
        return trn_ok();
    }
    trn_client *c = &the_client;
    Trnsci__V1__CloseSessionRequest req = TRNSCI__V1__CLOSE_SESSION_REQUEST__INIT;
    req.session_id = c->session_id;
    char msg[256];
    trn_transport_call(c->t, TRN_WIRE_CLOSE_SESSION, &req.base, NULL, NULL, msg, sizeof(msg),
                       c->call_timeout_ms);
    /* The session is gone: a download in flight ends with the daemon's
     * answer, queued ones are dropped. */
    trn_fetch_stop();
    submitted_carry = atomic_load(&c->submitted);
    size_t n = 0;
    trn_ptr_entry *all = trn_ptrtable_take_all(&c->ptrs, &n);
    for (size_t i = 0; i < n; i++)
        munmap((void *)all[i].base, (size_t)all[i].size);
    free(all);
    trn_hostmem_session_ended(); /* pinned buffers were among them */
    c->staging = NULL;           /* and so was the staging buffer */
    trn_transport_close(c->t);
    c->t = NULL;
    trn_ptrtable_destroy(&c->ptrs);
    trn_plan_records_destroy(&c->plans);
    trn_capture_forget_stream(&c->default_stream); /* a capture on it ends with the session */
    atomic_store(&initialised, 0);
    pthread_mutex_unlock(&init_lock);
    return trn_ok();
}

/* ---- calls ---------------------------------------------------------------- */

int trn_call_timeout_ms(void) {
    const char *env = getenv("TRNSCI_CALL_TIMEOUT");
    if (!env || !*env)
        return TRN_CALL_TIMEOUT_MS;
    char *end;
    errno = 0;
    const long v = strtol(env, &end, 10);
    if (*end || errno || v < 0 || v > INT_MAX)
        return TRN_CALL_TIMEOUT_MS; /* not a number of milliseconds: the default */
    return v == 0 ? TRN_NO_TIMEOUT : (int)v;
}

trnsciError_t trn_client_call(trn_client *c, trn_wire_method m, const ProtobufCMessage *req,
                              const ProtobufCMessageDescriptor *reply_desc,
                              ProtobufCMessage **reply, int timeout_ms) {
    return trn_client_call_fd(c, m, req, reply_desc, reply, NULL, timeout_ms);
}

/* Records a failed call's error: the daemon's message, or that the
 * session's daemon is gone. */
static trnsciError_t call_failed(trn_client *c, trn_wire_code code, const char *msg) {
    if (code == TRN_WIRE_UNAVAILABLE)
        return trn_fail(trnsciErrorDevicesUnavailable,
                        "the daemon of this session (%s) is unreachable: %s; the session is lost "
                        "(a session lives on one daemon): trnsciDeviceReset, then trnsciInit "
                        "opens a new session on a reachable daemon",
                        c->daemon_addr, msg[0] ? msg : "connection closed");
    return trn_fail(trn_error_from_wire(code), "%s", msg[0] ? msg : "the daemon refused the call");
}

trnsciError_t trn_client_call_fd(trn_client *c, trn_wire_method m, const ProtobufCMessage *req,
                                 const ProtobufCMessageDescriptor *reply_desc,
                                 ProtobufCMessage **reply, int *fd, int timeout_ms) {
    char msg[512] = "";
    if (timeout_ms == TRN_CALL_TIMEOUT_MS)
        timeout_ms = c->call_timeout_ms;
    const trn_wire_code code =
        c->t->ops->call(c->t, m, req, reply_desc, reply, fd, msg, sizeof(msg), timeout_ms);
    return code == TRN_WIRE_OK ? trnsciSuccess : call_failed(c, code, msg);
}

trnsciError_t trn_client_need_minor(const trn_client *c, unsigned minor, const char *what) {
    if (c->protocol_minor >= minor)
        return trnsciSuccess;
    return trn_fail(trnsciErrorNotSupported,
                    "%s needs protocol %u.%u; the daemon (%s) speaks %u.%u: upgrade trnscid", what,
                    TRNSCI_PROTOCOL_MAJOR, minor, c->daemon_version, TRNSCI_PROTOCOL_MAJOR,
                    c->protocol_minor);
}

trnsciError_t trn_client_resolve_named(trn_client *c, const void *p, const char *fn,
                                       const char *name, const char *array,
                                       Trnsci__V1__BufferRef *ref) {
    trnsci__v1__buffer_ref__init(ref);
    if (!p)
        return trnsciSuccess;
    trn_ptr_entry e;
    uint64_t off;
    if (trn_ptrtable_lookup(&c->ptrs, p, &e, &off) != 0)
        return trn_fail(trnsciErrorInvalidValue,
                        "%s%s%s%s%s (%p) is not a trnsci device pointer (not from trnsciMalloc, "
                        "or already freed)",
                        fn ? fn : "", fn ? ": " : "", name, array ? " " : "", array ? array : "",
                        p);
    ref->buffer_id = e.buffer_id;
    ref->offset = off;
    return trnsciSuccess;
}

trnsciError_t trn_client_resolve(trn_client *c, const void *p, const char *what,
                                 Trnsci__V1__BufferRef *ref) {
    return trn_client_resolve_named(c, p, NULL, what, NULL, ref);
}

uint64_t trn_client_note_op(trn_client *c, trnsciStream_t s) {
    struct trnsciStream_st *st = trn_stream_of(c, s);
    const uint64_t n = atomic_fetch_add(&c->submitted, 1) + 1;
    uint_fast64_t cur = atomic_load(&st->last_op);
    while (cur < n && !atomic_compare_exchange_weak(&st->last_op, &cur, n)) {
    }
    return n;
}

trnsciError_t trn_client_submit_timeout(trn_client *c, trnsciStream_t stream, Trnsci__V1__Op *op,
                                        uint64_t timeout_us) {
    /* A bad argument fails here, as the daemon would fail it, without a
     * round trip (client/validate.h). */
    char msg[512];
    const trn_wire_code invalid =
        c->validate_ops ? trn_client_validate(c, op, msg, sizeof(msg)) : TRN_WIRE_OK;
    if (invalid != TRN_WIRE_OK) {
        trn_fail(trn_error_from_wire(invalid), "%s", msg);
        return invalid == TRN_WIRE_RESOURCE_EXHAUSTED ? trn_retag(trnsciErrorBusy)
                                                      : trn_error_from_wire(invalid);
    }
    /* A call on a capturing stream is recorded, not run (capture.c). */
    if (trn_capture_active(c, stream))
        return trn_capture_op(c, stream, op);
    Trnsci__V1__SubmitRequest req = TRNSCI__V1__SUBMIT_REQUEST__INIT;
    req.session_id = c->session_id;
    req.stream_id = trn_stream_id(stream);
    req.op = op;
    req.timeout_us = timeout_us;
    /* Count before sending: a concurrent memcpy must not skip its sync. The
     * count numbers the op in errors reported after launch. */
    req.launch_seq = trn_client_note_op(c, stream);
    if (c->launch_async) {
        /* No reply: what the daemon finds wrong now or later is reported by
         * the next synchronising call on the stream (or device). */
        char msg[512] = "";
        const trn_wire_code code =
            c->t->ops->launch(c->t, TRN_WIRE_SUBMIT, &req.base, msg, sizeof(msg));
        return code == TRN_WIRE_OK ? trnsciSuccess : call_failed(c, code, msg);
    }
    /* Submit replies once the op is queued: the usual deadline catches a hung
     * daemon, and the daemon does not carry it over to the op (whose own
     * limit is timeout_us). */
    const trnsciError_t e =
        trn_client_call(c, TRN_WIRE_SUBMIT, &req.base, NULL, NULL, TRN_CALL_TIMEOUT_MS);
    /* A queue or stream limit: retry later. */
    return e == trnsciErrorMemoryAllocation ? trn_retag(trnsciErrorBusy) : e;
}

trnsciError_t trn_client_submit(trn_client *c, trnsciStream_t stream, Trnsci__V1__Op *op) {
    return trn_client_submit_timeout(c, stream, op, trn_stream_timeout_us(c, stream));
}

/* After a synchronising call on the daemon side reached `fetch_mark`: waits
 * for the downloads it covers. A daemon error wins (the downloads' own
 * failures are usually its consequence and are forgotten); else a failed
 * download is reported. */
static trnsciError_t then_fetches(trnsciError_t daemon_err, uint64_t fetch_mark) {
    if (daemon_err != trnsciSuccess) {
        trn_fetch_wait(fetch_mark, 0);
        trn_fetch_forget_error(fetch_mark);
        return daemon_err;
    }
    return trn_fetch_wait(fetch_mark, 1);
}

trnsciError_t trn_client_sync_all(trn_client *c) {
    trnsciError_t e = trn_capture_refuse_unsafe("synchronizing the device");
    if (e != trnsciSuccess)
        return e;
    const uint64_t upto = atomic_load(&c->submitted);
    const uint64_t fetch_mark = trn_fetch_mark();
    Trnsci__V1__SynchronizeRequest req = TRNSCI__V1__SYNCHRONIZE_REQUEST__INIT;
    req.session_id = c->session_id;
    req.all_streams = 1;
    e = trn_client_call(c, TRN_WIRE_SYNCHRONIZE, &req.base, NULL, NULL, TRN_NO_TIMEOUT);
    if (e == trnsciSuccess) {
        uint_fast64_t cur = atomic_load(&c->synced);
        while (cur < upto && !atomic_compare_exchange_weak(&c->synced, &cur, upto)) {
        }
    }
    return then_fetches(e, fetch_mark);
}

trnsciError_t trn_client_order_after_work(trn_client *c) {
    const trnsciError_t e = trn_capture_refuse_unsafe("a synchronous copy or memset");
    if (e != trnsciSuccess)
        return e;
    if (atomic_load(&c->synced) == atomic_load(&c->submitted))
        return trn_fetch_wait(trn_fetch_mark(), 1);
    return trn_client_sync_all(c);
}

trnsciError_t trn_client_sync_stream(trn_client *c, trnsciStream_t stream, int destroy) {
    trnsciError_t e = trn_capture_refuse_stream(c, stream, "synchronizing a stream");
    if (e != trnsciSuccess)
        return e;
    struct trnsciStream_st *st = trn_stream_of(c, stream);
    const uint64_t upto = atomic_load(&c->submitted);
    const uint64_t fetch_mark = atomic_load(&st->fetch_mark);
    Trnsci__V1__SynchronizeRequest req = TRNSCI__V1__SYNCHRONIZE_REQUEST__INIT;
    req.session_id = c->session_id;
    req.stream_id = st->id;
    req.destroy_stream = destroy;
    req.timeout_us = trn_stream_timeout_us(c, stream);
    e = trn_client_call(c, TRN_WIRE_SYNCHRONIZE, &req.base, NULL, NULL, TRN_NO_TIMEOUT);
    if (e == trnsciSuccess) {
        uint_fast64_t cur = atomic_load(&st->synced);
        while (cur < upto && !atomic_compare_exchange_weak(&st->synced, &cur, upto)) {
        }
    }
    return then_fetches(e, fetch_mark);
}

trnsciError_t trn_client_order_after_stream(trn_client *c, trnsciStream_t stream) {
    const trnsciError_t e = trn_capture_refuse_stream(c, stream, "waiting for a stream's work");
    if (e != trnsciSuccess)
        return e;
    struct trnsciStream_st *st = trn_stream_of(c, stream);
    const uint64_t last = atomic_load(&st->last_op);
    if (last <= atomic_load(&st->synced) || last <= atomic_load(&c->synced))
        return trn_fetch_wait(atomic_load(&st->fetch_mark), 1);
    return trn_client_sync_stream(c, stream, 0);
}

/* ---- device queries ---------------------------------------------------------- */

trnsciError_t trnsciGetDeviceCount(int *count) {
    if (!count)
        return trn_fail(trnsciErrorInvalidValue, "trnsciGetDeviceCount: count is NULL");
    trnsciError_t e;
    if (!trn_client_get(&e)) {
        *count = 0;
        return e == trnsciErrorNoDevice ? trnsciErrorNoDevice : e;
    }
    *count = 1;
    return trn_ok();
}

/* The daemon's backend as a device (docs/rosetta.md, "Devices"). The
 * daemon runs no user kernels: one "thread" per compute core, no on-chip
 * memories, no clocks the client knows of. */
static void describe_device(trn_client *c, trnsciDeviceProp *p) {
    memset(p, 0, sizeof(*p));
    snprintf(p->name, sizeof(p->name), "trnscid %s (%s, %u cores)", c->daemon_version,
             c->backend[0] ? c->backend : "cpu", c->core_count);
    uint64_t free_bytes, total;
    trn_memory_info(c, &free_bytes, &total);
    p->totalGlobalMem = total > SIZE_MAX ? SIZE_MAX : (size_t)total;
    p->warpSize = 1;
    p->memPitch = SIZE_MAX;
    p->maxThreadsPerBlock = 1;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = p->maxThreadsDim[2] = 1;
    p->maxGridSize[0] = p->maxGridSize[1] = p->maxGridSize[2] = 1;
    /* The compute capability whose library features trnsci provides (FP16,
     * BF16 and TF32 math, Blocked-ELL SpMM: 8.0), so that a program gating
     * a library feature on the architecture takes it; the protocol version
     * is trnsciDaemonGetStatus's. */
    p->major = TRNSCI_COMPUTE_CAPABILITY_MAJOR;
    p->minor = TRNSCI_COMPUTE_CAPABILITY_MINOR;
    p->textureAlignment = 1;
    p->deviceOverlap = 1;
    p->multiProcessorCount = (int)c->core_count;
    p->integrated = c->mapped ? 1 : 0;
    p->canMapHostMemory = c->host_mapped ? 1 : 0;
    p->concurrentKernels = 1;
    p->asyncEngineCount = 1;
    p->unifiedAddressing = 1;
    p->maxThreadsPerMultiProcessor = 1;
    p->maxBlocksPerMultiProcessor = 1;
    p->memoryPoolsSupported = 1;
}

static trnsciError_t device_zero(int device, const char *fn) {
    if (device != 0)
        return trn_fail(trnsciErrorInvalidDevice,
                        "%s: device %d does not exist (the daemon is device 0)", fn, device);
    return trnsciSuccess;
}

trnsciError_t trnsciGetDeviceProperties(trnsciDeviceProp *prop, int device) {
    if (!prop)
        return trn_fail(trnsciErrorInvalidValue, "trnsciGetDeviceProperties: prop is NULL");
    trnsciError_t e = device_zero(device, "trnsciGetDeviceProperties");
    if (e)
        return e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    describe_device(c, prop);
    return trn_ok();
}

static int clamp_int(size_t v) {
    return v > INT_MAX ? INT_MAX : (int)v;
}

trnsciError_t trnsciDeviceGetAttribute(int *value, trnsciDeviceAttr attr, int device) {
    if (!value)
        return trn_fail(trnsciErrorInvalidValue, "trnsciDeviceGetAttribute: value is NULL");
    trnsciError_t e = device_zero(device, "trnsciDeviceGetAttribute");
    if (e)
        return e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    trnsciDeviceProp p;
    describe_device(c, &p);
    switch (attr) {
    case trnsciDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case trnsciDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case trnsciDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case trnsciDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case trnsciDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case trnsciDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case trnsciDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case trnsciDevAttrMaxSharedMemoryPerBlock: *value = clamp_int(p.sharedMemPerBlock); break;
    case trnsciDevAttrTotalConstantMemory: *value = clamp_int(p.totalConstMem); break;
    case trnsciDevAttrWarpSize: *value = p.warpSize; break;
    case trnsciDevAttrMaxPitch: *value = clamp_int(p.memPitch); break;
    case trnsciDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case trnsciDevAttrClockRate: *value = p.clockRate; break;
    case trnsciDevAttrTextureAlignment: *value = clamp_int(p.textureAlignment); break;
    case trnsciDevAttrGpuOverlap: *value = p.deviceOverlap; break;
    case trnsciDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case trnsciDevAttrKernelExecTimeout: *value = p.kernelExecTimeoutEnabled; break;
    case trnsciDevAttrIntegrated: *value = p.integrated; break;
    case trnsciDevAttrCanMapHostMemory: *value = p.canMapHostMemory; break;
    case trnsciDevAttrComputeMode: *value = p.computeMode; break;
    case trnsciDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case trnsciDevAttrEccEnabled: *value = p.ECCEnabled; break;
    case trnsciDevAttrPciBusId: *value = p.pciBusID; break;
    case trnsciDevAttrPciDeviceId: *value = p.pciDeviceID; break;
    case trnsciDevAttrMemoryClockRate: *value = p.memoryClockRate; break;
    case trnsciDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case trnsciDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case trnsciDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case trnsciDevAttrAsyncEngineCount: *value = p.asyncEngineCount; break;
    case trnsciDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case trnsciDevAttrPciDomainId: *value = p.pciDomainID; break;
    case trnsciDevAttrComputeCapabilityMajor: *value = p.major; break;
    case trnsciDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case trnsciDevAttrStreamPrioritiesSupported: *value = p.streamPrioritiesSupported; break;
    case trnsciDevAttrGlobalL1CacheSupported: *value = p.globalL1CacheSupported; break;
    case trnsciDevAttrLocalL1CacheSupported: *value = p.localL1CacheSupported; break;
    case trnsciDevAttrMaxSharedMemoryPerMultiprocessor:
        *value = clamp_int(p.sharedMemPerMultiprocessor);
        break;
    case trnsciDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case trnsciDevAttrManagedMemory: *value = p.managedMemory; break;
    case trnsciDevAttrIsMultiGpuBoard: *value = p.isMultiGpuBoard; break;
    case trnsciDevAttrHostNativeAtomicSupported: *value = p.hostNativeAtomicSupported; break;
    case trnsciDevAttrPageableMemoryAccess: *value = p.pageableMemoryAccess; break;
    case trnsciDevAttrConcurrentManagedAccess: *value = p.concurrentManagedAccess; break;
    case trnsciDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break;
    case trnsciDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    case trnsciDevAttrMemoryPoolsSupported: *value = p.memoryPoolsSupported; break;
    default:
        return trn_fail(trnsciErrorInvalidValue, "trnsciDeviceGetAttribute: unknown attribute %d",
                        (int)attr);
    }
    return trn_ok();
}

trnsciError_t trnsciSetDevice(int device) {
    trnsciError_t e = device_zero(device, "trnsciSetDevice");
    if (e)
        return e;
    if (!trn_client_get(&e))
        return e;
    return trn_ok();
}

trnsciError_t trnsciGetDevice(int *device) {
    if (!device)
        return trn_fail(trnsciErrorInvalidValue, "trnsciGetDevice: device is NULL");
    *device = 0;
    return trn_ok();
}

trnsciError_t trnsciRuntimeGetVersion(int *runtimeVersion) {
    if (!runtimeVersion)
        return trn_fail(trnsciErrorInvalidValue, "trnsciRuntimeGetVersion: argument is NULL");
    *runtimeVersion = TRNSCIRT_VERSION;
    return trn_ok();
}

trnsciError_t trnsciDriverGetVersion(int *driverVersion) {
    if (!driverVersion)
        return trn_fail(trnsciErrorInvalidValue, "trnsciDriverGetVersion: argument is NULL");
    trnsciError_t e;
    if (!trn_client_get(&e)) {
        *driverVersion = 0;
        return e == trnsciErrorNoDevice ? trn_ok() : e;
    }
    *driverVersion = TRNSCIRT_VERSION;
    return trn_ok();
}

trnsciError_t trn_daemon_call(const char *address, trn_wire_method m, const ProtobufCMessage *req,
                              const ProtobufCMessageDescriptor *reply_desc, ProtobufCMessage **out,
                              const char *fn) {
    char addr[2048];
    choose_address(address, addr, sizeof(addr));
    char *targets[1];
    if (split_targets(addr, targets, 1) != 1)
        return trn_fail(trnsciErrorInvalidValue, "%s: empty address", fn);
    trn_transport *t = trn_transport_open(targets[0]);
    if (!t)
        return trn_fail(trnsciErrorMemoryAllocation, "out of memory");
    char msg[512] = "";
    const trn_wire_code code =
        trn_transport_call(t, m, req, reply_desc, out, msg, sizeof(msg), trn_call_timeout_ms());
    trn_transport_close(t);
    if (code == TRN_WIRE_UNAVAILABLE)
        return trn_fail(trnsciErrorNoDevice, "no trnscid reachable at %s: %s", targets[0], msg);
    if (code != TRN_WIRE_OK)
        return trn_fail(trn_error_from_wire(code), "%s", msg);
    return trnsciSuccess;
}

/* The Status reply of the daemon at address, without a session. */
static trnsciError_t fetch_status(const char *address, Trnsci__V1__StatusReply **out) {
    Trnsci__V1__StatusRequest req = TRNSCI__V1__STATUS_REQUEST__INIT;
    return trn_daemon_call(address, TRN_WIRE_STATUS, &req.base,
                           &trnsci__v1__status_reply__descriptor, (ProtobufCMessage **)out,
                           "trnsciDaemonGetStatus");
}

trnsciError_t trnsciDaemonGetStatus(const char *address, trnsciDaemonStatus *out) {
    if (!out)
        return trn_fail(trnsciErrorInvalidValue, "trnsciDaemonGetStatus: status is NULL");
    Trnsci__V1__StatusReply *r = NULL;
    const trnsciError_t e = fetch_status(address, &r);
    if (e != trnsciSuccess)
        return e;
    memset(out, 0, sizeof(*out));
    snprintf(out->daemonVersion, sizeof(out->daemonVersion), "%s", r->daemon_version);
    snprintf(out->backend, sizeof(out->backend), "%s", r->backend);
    out->protocolMajor = r->protocol_major;
    out->protocolMinor = r->protocol_minor;
    out->coreCount = r->core_count;
    out->sessions = r->sessions;
    out->opsQueued = r->ops_queued;
    out->opsRunning = r->ops_running;
    out->opsCompleted = r->ops_completed;
    out->bytesHeld = r->bytes_held;
    out->buffers = r->buffers;
    out->uptimeMs = r->uptime_ms;
    out->workers = (unsigned)r->n_workers;
    trnsci__v1__status_reply__free_unpacked(r, NULL);
    return trn_ok();
}

static void usage_from_wire(const Trnsci__V1__Usage *in, trnsciUsage *out) {
    memset(out, 0, sizeof(*out));
    if (!in)
        return;
    out->ops = in->ops;
    out->shards = in->shards;
    out->queueNs = in->queue_ns;
    out->runNs = in->run_ns;
    out->cost = in->cost;
    out->expired = in->expired;
}

trnsciError_t trnsciDaemonGetSessions(const char *address, trnsciSessionInfo *sessions,
                                      int capacity, int *count) {
    if (!count || capacity < 0 || (capacity > 0 && !sessions))
        return trn_fail(trnsciErrorInvalidValue,
                        "trnsciDaemonGetSessions: count is NULL, capacity is negative, or "
                        "sessions is NULL with capacity > 0");
    Trnsci__V1__StatusReply *r = NULL;
    const trnsciError_t e = fetch_status(address, &r);
    if (e != trnsciSuccess)
        return e;
    *count = (int)r->n_session_info;
    for (size_t i = 0; i < r->n_session_info && (int)i < capacity; i++) {
        const Trnsci__V1__SessionInfo *in = r->session_info[i];
        trnsciSessionInfo *o = &sessions[i];
        memset(o, 0, sizeof(*o));
        o->number = in->number;
        snprintf(o->transport, sizeof(o->transport), "%s", in->transport);
        snprintf(o->clientName, sizeof(o->clientName), "%s", in->client_name);
        o->pid = in->pid;
        o->uid = in->uid;
        o->bytes = in->bytes;
        o->buffers = in->buffers;
        o->priority = in->priority;
        o->opsPending = in->ops_pending;
        usage_from_wire(in->usage, &o->usage);
    }
    trnsci__v1__status_reply__free_unpacked(r, NULL);
    return trn_ok();
}

trnsciError_t trnsciDaemonGetWorkers(const char *address, trnsciWorkerInfo *workers, int capacity,
                                     int *count) {
    if (!count || capacity < 0 || (capacity > 0 && !workers))
        return trn_fail(trnsciErrorInvalidValue,
                        "trnsciDaemonGetWorkers: count is NULL, capacity is negative, or "
                        "workers is NULL with capacity > 0");
    Trnsci__V1__StatusReply *r = NULL;
    const trnsciError_t e = fetch_status(address, &r);
    if (e != trnsciSuccess)
        return e;
    *count = (int)r->n_workers;
    for (size_t i = 0; i < r->n_workers && (int)i < capacity; i++) {
        const Trnsci__V1__WorkerInfo *in = r->workers[i];
        trnsciWorkerInfo *o = &workers[i];
        memset(o, 0, sizeof(*o));
        snprintf(o->engine, sizeof(o->engine), "%s", in->engine);
        o->index = in->index;
        o->cpu = in->cpu;
        usage_from_wire(in->usage, &o->usage);
    }
    trnsci__v1__status_reply__free_unpacked(r, NULL);
    return trn_ok();
}

/* ---- session priority --------------------------------------------------------- */

trnsciError_t trnsciDeviceGetSessionPriorityRange(int *least, int *greatest) {
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    if (least)
        *least = c->priority_least;
    if (greatest)
        *greatest = c->priority_ceiling;
    return trn_ok();
}

trnsciError_t trnsciSetSessionPriority(int priority) {
    pthread_mutex_lock(&init_lock);
    requested_priority = priority;
    have_requested_priority = 1;
    const int open = atomic_load(&initialised);
    pthread_mutex_unlock(&init_lock);
    if (!open)
        return trn_ok(); /* sent with OpenSession */
    trn_client *c = &the_client;
    Trnsci__V1__SetPriorityRequest req = TRNSCI__V1__SET_PRIORITY_REQUEST__INIT;
    req.session_id = c->session_id;
    req.priority = priority;
    Trnsci__V1__SetPriorityReply *r = NULL;
    const trnsciError_t e = trn_client_call(c, TRN_WIRE_SET_PRIORITY, &req.base,
                                            &trnsci__v1__set_priority_reply__descriptor,
                                            (ProtobufCMessage **)&r, TRN_CALL_TIMEOUT_MS);
    if (e != trnsciSuccess)
        return e;
    atomic_store(&c->priority, r->priority);
    trnsci__v1__set_priority_reply__free_unpacked(r, NULL);
    return trn_ok();
}

trnsciError_t trnsciGetSessionPriority(int *priority) {
    if (!priority)
        return trn_fail(trnsciErrorInvalidValue, "trnsciGetSessionPriority: priority is NULL");
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    *priority = atomic_load(&c->priority);
    return trn_ok();
}
