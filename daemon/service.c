/*
 * service.c — the Trnsci service: decode, check the session, act, reply.
 *
 * Every handler finishes its call exactly once. Errors carry a message that
 * names what was wrong; the client library surfaces it through
 * trnsciGetLastErrorMessage. Ops are validated here (validate.c) and then
 * handed to the scheduler; their completion callbacks run on worker threads.
 * Waiting (Synchronize, events) lives in service_wait.c, stream-ordered host
 * transfers in service_stage.c.
 */
#include "daemon/service.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/log.h"
#include "daemon/metrics.h"
#include "daemon/op_scratch.h"
#include "daemon/service_internal.h"
#include "daemon/service_steps.h"
#include "daemon/status_scope.h"
#include "ops/convert_stage.h"
#include "ops/write_clock.h"
#include "trnsci_wire.h"

#define ERRLEN TRN_SERVICE_ERRLEN

void trn_service_finish_error(trn_call *call, trn_wire_code code, const char *msg) {
    call->finish(call, code, msg, NULL, 0);
}

void trn_service_finish_reply(trn_call *call, const ProtobufCMessage *reply) {
    if (call->no_reply) { /* nobody reads it: do not pack it */
        call->finish(call, TRN_WIRE_OK, NULL, NULL, 0);
        return;
    }
    const size_t len = protobuf_c_message_get_packed_size(reply);
    uint8_t *body = len ? malloc(len) : NULL;
    if (len && !body) {
        trn_service_finish_error(call, TRN_WIRE_RESOURCE_EXHAUSTED,
                                 "daemon out of memory packing a reply");
        return;
    }
    if (len)
        protobuf_c_message_pack(reply, body);
    call->finish(call, TRN_WIRE_OK, NULL, body, len);
}

static int check_version(uint32_t major, uint32_t minor, char *err, size_t errlen) {
    if (major == TRNSCI_PROTOCOL_MAJOR)
        return 0;
    snprintf(err, errlen,
             "protocol version %u.%u is not supported: this daemon speaks %u.%u (same major "
             "required)",
             major, minor, TRNSCI_PROTOCOL_MAJOR, TRNSCI_PROTOCOL_MINOR);
    return -1;
}

trn_session *trn_service_session(trn_service *svc, uint64_t id, trn_call *call) {
    /* A call that authenticated a moment before a reload removed its token:
     * refused as the frontend refuses it from then on. */
    if (call->peer.token && atomic_load(&call->peer.token->revoked)) {
        trn_service_finish_error(call, TRN_WIRE_UNAUTHENTICATED, "unauthenticated");
        return NULL;
    }
    /* Another connection's session is the same error as none at all. */
    trn_session *s =
        call->scoped && id != call->session_scope ? NULL : trn_session_find(svc->sessions, id);
    if (s && s->peer.token != call->peer.token) { /* opened with another token */
        trn_session_unref(s);
        s = NULL;
    }
    /* A session of a kernel-checked uid (grpc+unix) is that uid's alone:
     * it is charged to that uid. */
    if (s && s->peer.known && (!call->peer.known || call->peer.uid != s->peer.uid)) {
        trn_session_unref(s);
        s = NULL;
    }
    if (!s) {
        char err[128];
        snprintf(err, sizeof(err),
                 "session %016llx does not exist (closed, expired, or never opened)",
                 (unsigned long long)id);
        trn_service_finish_error(call, TRN_WIRE_ABORTED, err);
    }
    return s;
}

static void fill_limits(const trn_service *svc, Trnsci__V1__Limits *l) {
    l->max_message_bytes = TRNSCI_WIRE_MAX_MESSAGE_BYTES;
    l->chunk_bytes = TRNSCI_WIRE_CHUNK_BYTES;
    l->max_session_bytes = svc->cfg->max_session_bytes;
    l->max_streams_per_session = svc->cfg->max_streams;
    l->lease_ms = svc->cfg->lease_ms;
    l->priority_least = TRN_PRIORITY_LEAST;
    l->priority_ceiling = svc->cfg->priority_ceiling;
    l->max_events_per_session = svc->cfg->max_events;
}

uint64_t trn_service_op_deadline(uint64_t timeout_us) {
    if (!timeout_us)
        return 0;
    const uint64_t cap = 365ull * 86400 * 1000000; /* keeps the sum in range */
    return trn_sched_now_ns() + (timeout_us < cap ? timeout_us : cap) * 1000;
}

uint64_t trn_service_wait_deadline(const trn_call *call, uint64_t timeout_us) {
    const uint64_t d = trn_service_op_deadline(timeout_us);
    return call->deadline_ns && (!d || call->deadline_ns < d) ? call->deadline_ns : d;
}

static void daemon_version(char *buf, size_t len) {
    snprintf(buf, len, "%d.%d.%d", TRNSCI_VERSION_MAJOR, TRNSCI_VERSION_MINOR,
             TRNSCI_VERSION_PATCH);
}

/* ---- Hello, sessions ---------------------------------------------------- */

static const char *transport_name(trn_transport_kind t) {
    return t == TRN_TRANSPORT_LOCAL ? "local" : "grpc";
}

static void on_hello(trn_service *svc, const Trnsci__V1__HelloRequest *req, trn_call *call) {
    char err[ERRLEN], version[32];
    if (check_version(req->protocol_major, req->protocol_minor, err, sizeof(err))) {
        trn_service_finish_error(call, TRN_WIRE_FAILED_PRECONDITION, err);
        return;
    }
    Trnsci__V1__Limits limits = TRNSCI__V1__LIMITS__INIT;
    fill_limits(svc, &limits);
    daemon_version(version, sizeof(version));
    Trnsci__V1__HelloReply r = TRNSCI__V1__HELLO_REPLY__INIT;
    r.protocol_major = TRNSCI_PROTOCOL_MAJOR;
    r.protocol_minor = TRNSCI_PROTOCOL_MINOR;
    r.daemon_version = version;
    r.core_count = (uint32_t)svc->cfg->ncores;
    const char *families[TRN_OP_KIND_COUNT];
    r.n_families = trn_op_families(families, TRN_OP_KIND_COUNT);
    r.families = (char **)families;
    r.byte_order = (char *)TRNSCI_WIRE_BYTE_ORDER;
    r.limits = &limits;
    r.backend = (char *)svc->backend->name;
    r.opaque_pointers = svc->sessions->opaque_pointers;
    trn_service_finish_reply(call, &r.base);
}

static void on_open_session(trn_service *svc, const Trnsci__V1__OpenSessionRequest *req,
                            trn_call *call) {
    char err[ERRLEN];
    if (check_version(req->protocol_major, req->protocol_minor, err, sizeof(err))) {
        trn_service_finish_error(call, TRN_WIRE_FAILED_PRECONDITION, err);
        return;
    }
    if (svc->sessions->opaque_pointers && call->transport == TRN_TRANSPORT_LOCAL &&
        req->protocol_major == TRNSCI_PROTOCOL_MAJOR && req->protocol_minor < 14) {
        /* An older libtrnsci would map every buffer, and this daemon sends
         * no memory to map. */
        snprintf(err, sizeof(err),
                 "this daemon's device pointers are opaque (--device-pointers): a local client "
                 "needs protocol 1.14 or later, and this one speaks %u.%u",
                 req->protocol_major, req->protocol_minor);
        trn_service_finish_error(call, TRN_WIRE_FAILED_PRECONDITION, err);
        return;
    }
    trn_wire_code code;
    trn_session *s =
        trn_session_open(svc->sessions, req->client_name, req->client_pid, call->transport,
                         &call->peer, req->priority, &code, err, sizeof(err));
    if (!s) {
        char uid[16] = "?";
        if (call->peer.known)
            snprintf(uid, sizeof(uid), "%u", call->peer.uid);
        trn_log(TRN_LOG_WARN, "refused a session for %s (pid %u, uid %s): %s",
                req->client_name[0] ? req->client_name : "?",
                call->peer.known ? call->peer.pid : req->client_pid, uid, err);
        trn_service_finish_error(call, code, err);
        return;
    }
    if (call->bind_session && call->bind_session(call, s) != 0) {
        trn_session_close(s, "a second session on one connection");
        trn_session_unref(s);
        trn_service_finish_error(call, TRN_WIRE_ALREADY_EXISTS,
                                 "this connection already has a session (one per connection)");
        return;
    }
    char who[160];
    trn_log(TRN_LOG_INFO, "%s opened over %s%s%s", trn_session_who(s, who, sizeof(who)),
            transport_name(s->transport), s->peer.token ? " with token " : "",
            s->peer.token ? s->peer.token->name : "");
    Trnsci__V1__OpenSessionReply r = TRNSCI__V1__OPEN_SESSION_REPLY__INIT;
    r.session_id = s->id;
    r.lease_ms = svc->cfg->lease_ms;
    r.priority = s->priority;
    trn_session_unref(s);
    trn_service_finish_reply(call, &r.base);
}

static void on_close_session(trn_service *svc, const Trnsci__V1__CloseSessionRequest *req,
                             trn_call *call) {
    trn_session *s = trn_service_session(svc, req->session_id, call);
    if (!s)
        return;
    trn_session_close(s, "closed by the client");
    trn_session_unref(s);
    Trnsci__V1__CloseSessionReply r = TRNSCI__V1__CLOSE_SESSION_REPLY__INIT;
    trn_service_finish_reply(call, &r.base);
}

static void on_keep_alive(trn_service *svc, const Trnsci__V1__KeepAliveRequest *req,
                          trn_call *call) {
    trn_session *s = trn_service_session(svc, req->session_id, call);
    if (!s)
        return;
    trn_session_unref(s);
    Trnsci__V1__KeepAliveReply r = TRNSCI__V1__KEEP_ALIVE_REPLY__INIT;
    trn_service_finish_reply(call, &r.base);
}

static void on_set_priority(trn_service *svc, const Trnsci__V1__SetPriorityRequest *req,
                            trn_call *call) {
    trn_session *s = trn_service_session(svc, req->session_id, call);
    if (!s)
        return;
    Trnsci__V1__SetPriorityReply r = TRNSCI__V1__SET_PRIORITY_REPLY__INIT;
    r.priority = trn_session_set_priority(s, req->priority);
    char who[160];
    trn_log(TRN_LOG_DEBUG, "%s: priority %d (asked %d)", trn_session_who(s, who, sizeof(who)),
            r.priority, req->priority);
    trn_session_unref(s);
    trn_service_finish_reply(call, &r.base);
}

/* ---- Buffers and data movement ------------------------------------------ */

static void on_alloc(trn_service *svc, const Trnsci__V1__AllocRequest *req, trn_call *call) {
    char err[ERRLEN];
    trn_session *s = trn_service_session(svc, req->session_id, call);
    if (!s)
        return;
    uint64_t id = 0;
    int fd = -1;
    const trn_wire_code rc = trn_session_alloc(s, req->bytes,
                                               req->staging ? TRN_ALLOC_STAGING
                                               : req->host  ? TRN_ALLOC_HOST
                                                            : TRN_ALLOC_DEVICE,
                                               &id, &fd, err, sizeof(err));
    trn_session_unref(s);
    if (rc != TRN_WIRE_OK) {
        trn_service_finish_error(call, rc, err);
        return;
    }
    call->reply_fd = fd; /* shared-memory sessions: the client maps the buffer */
    Trnsci__V1__AllocReply r = TRNSCI__V1__ALLOC_REPLY__INIT;
    r.buffer_id = id;
    trn_service_finish_reply(call, &r.base);
}

static void on_free(trn_service *svc, const Trnsci__V1__FreeRequest *req, trn_call *call) {
    char err[ERRLEN];
    trn_session *s = trn_service_session(svc, req->session_id, call);
    if (!s)
        return;
    const int rc = trn_session_free_buffer(s, req->buffer_id);
    trn_session_unref(s);
    if (rc != 0) {
        snprintf(err, sizeof(err), "Free: buffer %llu does not exist in this session",
                 (unsigned long long)req->buffer_id);
        trn_service_finish_error(call, TRN_WIRE_INVALID_ARGUMENT, err);
        return;
    }
    Trnsci__V1__FreeReply r = TRNSCI__V1__FREE_REPLY__INIT;
    trn_service_finish_reply(call, &r.base);
}

/* Resolves [ref.offset, +len) of a session buffer for Write/Read; len is
 * at most a chunk, or with `staged` (the data is in the staging buffer, not
 * the message) at most the staging buffer's size. */
static trn_buffer *region_or_fail(trn_session *s, const Trnsci__V1__BufferRef *ref, uint64_t len,
                                  int staged, const char *what, trn_call *call, void **out) {
    char err[ERRLEN];
    if (staged ? trn_validate_staged(len, what, err, sizeof(err))
               : trn_validate_chunk(len, what, err, sizeof(err))) {
        trn_service_finish_error(call, TRN_WIRE_INVALID_ARGUMENT, err);
        return NULL;
    }
    trn_op_refs refs = {.n = 0};
    const trn_wire_code rc =
        trn_validate_region(s, ref, len, 1, what, &refs, out, err, sizeof(err));
    if (rc != TRN_WIRE_OK) {
        trn_service_finish_error(call, rc, err);
        return NULL;
    }
    if (refs.n == 0) { /* len 0 with no buffer */
        snprintf(err, sizeof(err), "%s: no buffer given (buffer 0)", what);
        trn_service_finish_error(call, TRN_WIRE_INVALID_ARGUMENT, err);
        return NULL;
    }
    return refs.buf[0];
}

static void on_write(trn_service *svc, const Trnsci__V1__WriteRequest *req, trn_call *call) {
    trn_session *s = trn_service_session(svc, req->session_id, call);
    if (!s)
        return;
    if (req->ordered) {
        trn_service_on_ordered_write(svc, s, req, call);
        trn_session_unref(s);
        return;
    }
    const uint64_t len = req->src ? req->length : req->data.len;
    void *dst, *src = req->data.data;
    const int staged = req->src != NULL;
    trn_buffer *b = region_or_fail(s, req->dst, len, staged, "Write: dst", call, &dst);
    trn_buffer *sb = NULL;
    if (b && staged && !(sb = region_or_fail(s, req->src, len, 1, "Write: src", call, &src))) {
        trn_buffer_unref(b);
        b = NULL;
    }
    trn_session_unref(s);
    if (!b)
        return;
    if (len)
        memmove(dst, src, (size_t)len); /* staging and dst may be one buffer */
    if (svc->sessions->wclock)
        trn_write_clock_wrote(svc->sessions->wclock, dst, (size_t)len);
    trn_buffer_unref(b);
    if (sb)
        trn_buffer_unref(sb);
    Trnsci__V1__WriteReply r = TRNSCI__V1__WRITE_REPLY__INIT;
    trn_service_finish_reply(call, &r.base);
}

static void on_read(trn_service *svc, const Trnsci__V1__ReadRequest *req, trn_call *call) {
    trn_session *s = trn_service_session(svc, req->session_id, call);
    if (!s)
        return;
    if (req->ticket) {
        trn_service_on_ticket_read(svc, s, req, call);
        trn_session_unref(s);
        return;
    }
    void *src, *dst = NULL;
    const int staged = req->dst != NULL;
    trn_buffer *b = region_or_fail(s, req->src, req->length, staged, "Read: src", call, &src);
    trn_buffer *db = NULL;
    if (b && staged &&
        !(db = region_or_fail(s, req->dst, req->length, 1, "Read: dst", call, &dst))) {
        trn_buffer_unref(b);
        b = NULL;
    }
    trn_session_unref(s);
    if (!b)
        return;
    Trnsci__V1__ReadReply r = TRNSCI__V1__READ_REPLY__INIT;
    if (db) { /* into the client's staging buffer: the reply carries nothing */
        memmove(dst, src, (size_t)req->length);
        /* Whatever buffer the request named: a write like any other. */
        if (svc->sessions->wclock)
            trn_write_clock_wrote(svc->sessions->wclock, dst, (size_t)req->length);
        trn_buffer_unref(db);
    } else {
        r.data.data = src;
        r.data.len = (size_t)req->length;
    }
    trn_service_finish_reply(call, &r.base);
    trn_buffer_unref(b);
}

/* ---- Ops ------------------------------------------------------------------ */

/* The descriptor the op is running (a sequence's current step's). */
static const trn_op_desc *op_desc(const trn_service_op *op) {
    return op->sop.steps ? op->sop.steps[op->sop.stage].desc : &op->sop.desc;
}

static const char *op_name(const trn_service_op *op) {
    if (op->stage)
        return "stage-out";
    if (op->staging)
        return "ordered write";
    return trn_op_title(op_desc(op));
}

/* "blas gemm (launch #12 on stream 3)": how messages name an op. */
static const char *op_label(const trn_service_op *op, char *buf, size_t len) {
    const trn_op_info *k = op->stage || op->staging ? NULL : trn_op_info_of(op_desc(op)->kind);
    if (op->graph_node)
        snprintf(buf, len, "%s %s (node %u of graph %u, launch #%llu on stream %u)",
                 k ? k->family : "memory", op_name(op), trn_service_graph_node(op), op->graph_exec,
                 (unsigned long long)op->seq, op->stream_id);
    else
        snprintf(buf, len, "%s %s (launch #%llu on stream %u)", k ? k->family : "memory",
                 op_name(op), (unsigned long long)op->seq, op->stream_id);
    return buf;
}

void trn_service_describe_op(const trn_sched_op *sop, char *buf, size_t len) {
    const trn_service_op *op = (const trn_service_op *)sop; /* sop is its first member */
    char who[160] = "no session", label[128];
    if (op->session)
        trn_session_who(op->session, who, sizeof(who));
    snprintf(buf, len, "%s of %s", op_label(op, label, sizeof(label)), who);
}

/* Keeps a failed op's error for its stream (session_errors.c: the next
 * Synchronize of the stream, or of every stream, reports it). A
 * cancelled op reports nothing: what cancelled it (an expired op before it, a
 * Synchronize timeout, the session's end) has said so already. */
static void report_failure(trn_service_op *op, trn_sched_status status) {
    if (status == TRN_SCHED_OK || status == TRN_SCHED_CANCELLED || status == TRN_SCHED_SHUTDOWN)
        return; /* every op comes here: nothing to format for most */
    char msg[TRN_KMSG_LEN + 200], label[128];
    op_label(op, label, sizeof(label));
    trn_wire_code code = TRN_WIRE_INTERNAL;
    const uint64_t waited_ms = (trn_sched_now_ns() - op->sop.t_submit) / 1000000;
    const trn_sched_step *step = op->sop.steps ? &op->sop.steps[op->sop.stage] : NULL;
    const trn_kmsg *km = step ? step->desc->kmsg : &op->sop.kmsg;
    struct trn_plan_entry *plan = step ? step->plan : op->sop.plan;
    const unsigned part = step ? step->plan_part : op->sop.plan_part;
    char why[200];
    switch (status) {
    case TRN_SCHED_KERNEL_FAILED:
    case TRN_SCHED_UNSUPPORTED:
        if (plan && trn_plan_entry_wait(plan, part, why, sizeof(why)) != 0) {
            snprintf(msg, sizeof(msg), "%s failed: its plan (%.70s) could not be prepared: %.90s",
                     label, trn_plan_entry_key(plan), why);
            break;
        }
        code = status == TRN_SCHED_UNSUPPORTED ? TRN_WIRE_UNIMPLEMENTED : TRN_WIRE_INTERNAL;
        if (km->set) {
            /* The kernel said why (e.g. the first bad index of a sparse
             * matrix, or a routine the self-test refused); input the client
             * sent is its own error. */
            snprintf(msg, sizeof(msg), "%s failed: %s", label, km->text);
            if (status != TRN_SCHED_UNSUPPORTED && km->bad_input)
                code = TRN_WIRE_INVALID_ARGUMENT;
            break;
        }
        snprintf(msg, sizeof(msg), "%s %s in the compute backend", label,
                 status == TRN_SCHED_UNSUPPORTED ? "is not supported" : "failed");
        break;
    case TRN_SCHED_NO_MEMORY:
        /* The daemon's memory, not the client's input: the op fails, the
         * daemon and every other op go on (cudaErrorMemoryAllocation). The
         * kernel's message says how much memory for what
         * (trn_kmsg_no_memory), when it posted one. */
        code = TRN_WIRE_RESOURCE_EXHAUSTED;
        if (km->set && !km->bad_input)
            snprintf(msg, sizeof(msg), "%s failed: %s", label, km->text);
        else
            snprintf(msg, sizeof(msg), "%s failed: the daemon is out of memory for its workspace",
                     label);
        trn_log(TRN_LOG_WARN, "session #%llu: %s", (unsigned long long)op->session->number, msg);
        break;
    case TRN_SCHED_EXPIRED:
        code = TRN_WIRE_DEADLINE_EXCEEDED;
        snprintf(msg, sizeof(msg),
                 "%s did not start before its deadline (waited %llu ms); it and the work queued "
                 "after it on stream %u were cancelled",
                 label, (unsigned long long)waited_ms, op->stream_id);
        break;
    case TRN_SCHED_OK:
    case TRN_SCHED_CANCELLED:
    case TRN_SCHED_SHUTDOWN: return;
    }
    trn_session_defer_error(op->session, op->stream_id, op->seq, code, msg);
}

void trn_service_kick(trn_service *svc) {
    trn_sched_kick(svc->sched);
}

int trn_service_kick_run(trn_service *svc) {
    return trn_sched_kick_run(svc->sched, TRN_SERVICE_RUN_HERE_MAX_NS,
                              TRN_SERVICE_RUN_HERE_PATIENCE_NS);
}

/* Up to a session's default queue of ops is kept for reuse. */
void trn_service_ops_init(trn_service *svc) {
    trn_block_pool_init(&svc->op_pool, sizeof(trn_service_op), 4096);
    /* The stages after the first: whoever gives an op more stages writes
     * each whole (nthen of them), and the scheduler reads no others. */
    trn_block_pool_leave_hole(&svc->op_pool, offsetof(trn_service_op, sop.then),
                              sizeof(((trn_service_op *)0)->sop.then));
}

void trn_service_ops_trim(trn_service *svc) {
    trn_block_pool_trim(&svc->op_pool);
    trn_op_scratch_trim(svc->scratch);
}

void trn_service_ops_destroy(trn_service *svc) {
    trn_block_pool_destroy(&svc->op_pool);
}

trn_service_op *trn_service_op_new(trn_service *svc) {
    trn_service_op *op = trn_block_pool_get(&svc->op_pool);
    if (op)
        op->pool = &svc->op_pool;
    return op;
}

void trn_service_op_discard(trn_service_op *op) {
    if (op)
        trn_block_pool_put(op->pool, op);
}

/* What shape_op gave the op: its steps or stages and their scratch. */
static void unshape_op(trn_service_op *op) {
    trn_service_steps_free(op->own_steps);
    op->own_steps = NULL;
    trn_service_convert_free(op);
}

static void op_free(trn_service_op *op) {
    trn_session *s = op->session;
    if (op->staging) {
        free(op->staging);
        trn_session_credit(s, op->staging_len);
    }
    trn_op_refs_release(&op->refs);
    if (op->graph)
        trn_service_graph_put(op->graph);
    unshape_op(op);
    trn_block_pool_put(op->pool, op);
    trn_session_unref(s);
}

/* Counts one more op against the users of s: its token (its queued-ops=
 * limit and the daemon-wide per-user one) and its uid (the per-user one).
 * Returns 0, or -1 with err written and nothing counted. */
static int reserve_user_op(trn_service *svc, trn_session *s, char *err, size_t errlen) {
    trn_token *tk = s->peer.token;
    trn_uid_usage *u = s->usage;
    /* Read once: a reload may change them; ops already queued above a
     * lowered limit run on, and new ones are refused until the count is
     * under it. */
    const uint32_t per_user = svc->cfg->max_queued_ops_per_uid;
    if (tk) {
        const uint32_t tk_max = atomic_load(&tk->max_queued_ops);
        const unsigned q = atomic_fetch_add(&tk->queued, 1);
        if ((tk_max && q >= tk_max) || q >= per_user) {
            atomic_fetch_sub(&tk->queued, 1);
            if (tk_max && q >= tk_max)
                snprintf(err, errlen,
                         "token %s already has %u ops queued or running (its queued-ops limit "
                         "%u): synchronize and submit again",
                         tk->name, q, tk_max);
            else
                snprintf(err, errlen,
                         "token %s already has %u ops queued or running (max-queued-ops-per-uid "
                         "%u): synchronize and submit again",
                         tk->name, q, per_user);
            return -1;
        }
    }
    if (u) {
        const unsigned q = atomic_fetch_add(&u->queued, 1);
        if (q >= per_user) {
            atomic_fetch_sub(&u->queued, 1);
            if (tk)
                atomic_fetch_sub(&tk->queued, 1);
            snprintf(err, errlen,
                     "uid %u already has %u ops queued or running (max-queued-ops-per-uid %u): "
                     "synchronize and submit again",
                     s->peer.uid, q, per_user);
            return -1;
        }
    }
    return 0;
}

static void unreserve_user_ops(trn_session *s, uint32_t n) {
    if (s->peer.token)
        atomic_fetch_sub(&s->peer.token->queued, n);
    if (s->usage)
        atomic_fetch_sub(&s->usage->queued, n);
}

/* Backpressure: reserves a place for one more op of the session, or fails
 * with err written when the session already has max-queued-ops, or its
 * token or uid its limit. */
static int reserve_op(trn_service *svc, trn_session *s, char *err, size_t errlen) {
    if (reserve_user_op(svc, s, err, errlen) != 0)
        return -1;
    if (trn_session_reserve_op(s) == 0)
        return 0;
    unreserve_user_ops(s, 1);
    const uint32_t limit = svc->cfg->max_queued_ops;
    snprintf(err, errlen,
             "this session already has %u ops queued or running (max-queued-ops %u): "
             "synchronize and submit again",
             limit, limit);
    return -1;
}

static void unreserve_op(trn_session *s) {
    trn_session_release_op(s);
    unreserve_user_ops(s, 1);
}

int trn_service_room_for_users(trn_service *svc, trn_session *s, char *err, size_t errlen) {
    if (reserve_user_op(svc, s, err, errlen) != 0)
        return -1;
    unreserve_user_ops(s, 1);
    return 0;
}

void trn_service_reserve_ops(trn_session *s, uint32_t n) {
    trn_session_reserve_ops_forced(s, n);
    if (s->peer.token)
        atomic_fetch_add(&s->peer.token->queued, n);
    if (s->usage)
        atomic_fetch_add(&s->usage->queued, n);
}

void trn_service_unreserve_ops(trn_session *s, uint32_t n) {
    for (uint32_t i = 0; i < n; i++)
        unreserve_op(s);
}

/* Whether a plan is a kernel program a NeuronCore ran (the Neuron
 * backend's NEFFs). */
static int on_neuroncore(const struct trn_plan_entry *plan) {
    return plan && trn_plan_entry_spec(plan)->family == TRN_PLAN_PROGRAM;
}

static void op_done(trn_sched_op *sop, trn_sched_status status) {
    trn_service_op *op = (trn_service_op *)sop;
    /* A graph's sequence counts each node; a tiled op is one op. */
    const int nodes = sop->steps && !op->own_steps;
    if (op->metrics && nodes) {
        for (int k = 0; sop->t_start && k <= sop->stage; k++)
            trn_metrics_placed(op->metrics, on_neuroncore(sop->steps[k].plan));
    } else if (op->metrics) {
        trn_metrics_placed(op->metrics, on_neuroncore(sop->plan));
    }
    if (op->metrics && nodes) {
        /* A graph's sequence: each step that ran counts as an op of its
         * kind, sharing the sequence's times. */
        const int ran = sop->t_start ? sop->stage + 1 : 0;
        for (int k = 0; k < ran; k++)
            trn_metrics_op_done(op->metrics, (int)sop->steps[k].desc->kind,
                                k == sop->stage ? (int)status : (int)TRN_SCHED_OK,
                                k ? 0 : sop->t_start - sop->t_ready,
                                (sop->t_end - sop->t_start) / (uint64_t)ran);
    } else if (op->metrics) {
        trn_metrics_op_done(op->metrics, (int)sop->desc.kind, (int)status,
                            sop->t_start ? sop->t_start - sop->t_ready : 0,
                            sop->t_start ? sop->t_end - sop->t_start : 0);
    }
    report_failure(op, status);
    if (op->stage)
        trn_service_stage_done(op, status);
    unreserve_op(op->session);
    op_free(op);
}

/* The stream for id with an extra reference (or NULL), and the op's
 * sequence number, under one hold of s->lock. */
static trn_sched_stream *stream_for_op(trn_service *svc, trn_session *s, uint32_t id,
                                       uint64_t *seq) {
    pthread_mutex_lock(&s->lock);
    trn_sched_stream *st = trn_session_stream_locked(s, id);
    if (st) {
        trn_sched_stream_retain(svc->sched, st);
        *seq = ++s->op_seq;
    }
    pthread_mutex_unlock(&s->lock);
    return st;
}

static trn_wire_code stream_limit_error(trn_service *svc, trn_session *s, uint32_t id, char *err,
                                        size_t errlen) {
    if (s->closed) {
        snprintf(err, errlen, "session is closed");
        return TRN_WIRE_ABORTED;
    }
    snprintf(err, errlen, "stream %u: this session already has the maximum of %u streams", id,
             svc->cfg->max_streams);
    return TRN_WIRE_RESOURCE_EXHAUSTED;
}

trn_sched_stream *trn_service_stream(trn_service *svc, trn_session *s, uint32_t stream_id,
                                     uint64_t *seq, trn_wire_code *rc, char *err, size_t errlen) {
    trn_sched_stream *st = stream_for_op(svc, s, stream_id, seq);
    if (!st)
        *rc = stream_limit_error(svc, s, stream_id, err, errlen);
    return st;
}

int trn_service_queue_reserved(trn_service *svc, trn_session *s, trn_sched_stream *st,
                               trn_service_op *op) {
    op->session = s;
    op->sop.done = op_done;
    op->metrics = svc->metrics;
    trn_session_ref(s); /* the op's */
    if (trn_sched_submit(svc->sched, st, &op->sop) == 0)
        return 0;
    unreserve_op(s);
    op_free(op);
    return -1;
}

trn_wire_code trn_service_queue_op(trn_service *svc, trn_session *s, uint32_t stream_id,
                                   trn_service_op *op, uint64_t *seq, char *err, size_t errlen) {
    trn_wire_code rc = TRN_WIRE_OK;
    op->session = s;
    op->stream_id = stream_id;
    op->sop.done = op_done;
    op->metrics = svc->metrics;
    if (reserve_op(svc, s, err, errlen) != 0) {
        rc = TRN_WIRE_RESOURCE_EXHAUSTED;
        goto fail;
    }
    uint64_t op_seq = 0;
    trn_sched_stream *st = stream_for_op(svc, s, stream_id, &op_seq);
    if (!op->seq) /* not numbered by the client (SubmitRequest.launch_seq) */
        op->seq = op_seq;
    if (!st) {
        unreserve_op(s);
        rc = stream_limit_error(svc, s, stream_id, err, errlen);
        goto fail;
    }
    trn_session_ref(s); /* the op's */
    if (trn_sched_submit(svc->sched, st, &op->sop) != 0) {
        trn_sched_stream_release(svc->sched, st);
        unreserve_op(s);
        snprintf(err, errlen, "the daemon is shutting down");
        op_free(op);
        return TRN_WIRE_UNAVAILABLE;
    }
    trn_sched_stream_release(svc->sched, st);
    *seq = op_seq; /* not op->seq: the op may have completed and been freed already */
    return TRN_WIRE_OK;

fail:
    trn_session_ref(s); /* op_free drops one */
    op_free(op);
    return rc;
}

/* What sop reads and writes, when known (ops/span.h), for run-ahead
 * (sched.h): the op behind it may then run its conversion while it
 * computes, and a conversion of its own may run while the op in front of
 * it does. Nothing to declare when run-ahead is off: the spans are read
 * only on its behalf, and this is on every op's way in. */
static void declare_spans(const trn_service *svc, trn_sched_op *sop) {
    if (!svc->run_ahead)
        return;
    const int nw = trn_op_write_spans(&sop->desc, sop->writes, TRN_SCHED_MAX_SPANS);
    const int nr = trn_op_read_spans(&sop->desc, sop->reads, TRN_SCHED_MAX_SPANS);
    sop->writes_known = nw >= 0;
    sop->nwrites = nw > 0 ? nw : 0;
    sop->reads_known = nr >= 0;
    sop->nreads = nr > 0 ? nr : 0;
    if (trn_convert_standalone(&sop->desc) && nw >= 0 && nr >= 0 && !sop->steps &&
        sop->nthen == 0) {
        sop->first_stage_ahead = 1;
        sop->nahead_reads = sop->nreads;
        memcpy(sop->ahead_reads, sop->reads, sizeof(sop->ahead_reads));
    }
}

/* How a validated op is queued: one big enough runs as steps of tile tasks
 * over every core (a tiled factorisation or syevd, a CG or BiCGStab, one large FFT),
 * a precision-mode GEMM with its conversion as a stage ahead; any other
 * as it is. The kind picks the file that may shape it; that file decides
 * whether it does. On failure, err says why (what was taken is given back
 * by unshape_op). */
static trn_wire_code shape_op(trn_service *svc, trn_session *s, trn_service_op *op, char *err,
                              size_t errlen) {
    int rc = 0;
    switch (op->sop.desc.kind) {
    case TRN_OP_SOLVER_DENSE:
    case TRN_OP_SOLVER_EIGEN: rc = trn_service_tile_op(svc, op, s); break;
    case TRN_OP_SOLVER_KRYLOV: rc = trn_service_krylov_op(svc, op, s); break;
    case TRN_OP_GEMM: trn_service_convert_op(svc, op, s); break;
    case TRN_OP_FFT: return trn_service_fftstep_op(svc, s, op, err, errlen);
    default: break;
    }
    if (rc != 0) {
        snprintf(err, errlen, "daemon out of memory queueing an op");
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    declare_spans(svc, &op->sop);
    return TRN_WIRE_OK;
}

/* A kernel op (memset, copy, gemm). */
static trn_wire_code submit_kernel(trn_service *svc, trn_session *s,
                                   const Trnsci__V1__SubmitRequest *req, int defer_wake,
                                   uint64_t *seq, char *err, size_t errlen) {
    trn_service_op *op = trn_service_op_new(svc);
    if (!op) {
        snprintf(err, errlen, "daemon out of memory queueing an op");
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    const trn_wire_code rc = trn_validate_op(s, req->op, &op->sop.desc, &op->refs, err, errlen);
    if (rc != TRN_WIRE_OK) {
        trn_service_op_discard(op);
        return rc;
    }
    op->sop.deadline_ns = trn_service_op_deadline(req->timeout_us);
    op->seq = req->launch_seq;
    op->sop.defer_wake = defer_wake;
    op->sop.plan = op->refs.plan; /* held by refs until the op is freed */
    op->sop.plan_part = op->refs.plan_part;
    const trn_wire_code src = shape_op(svc, s, op, err, errlen);
    if (src != TRN_WIRE_OK) {
        unshape_op(op);
        trn_op_refs_release(&op->refs);
        trn_service_op_discard(op);
        return src;
    }
    return trn_service_queue_op(svc, s, req->stream_id, op, seq, err, errlen);
}

/* An asynchronous launch the daemon refused: nobody hears the reply, so the
 * next Synchronize of its stream reports it, naming the op as the client
 * numbered it. */
static void defer_rejection(trn_session *s, const Trnsci__V1__SubmitRequest *req, trn_wire_code rc,
                            const char *err) {
    const int kind = req->op ? (int)req->op->kind_case : 0;
    const trn_op_info *k = trn_op_info_of(kind);
    const char *event = kind == TRNSCI__V1__OP__KIND_EVENT_RECORD   ? "event record"
                        : kind == TRNSCI__V1__OP__KIND_EVENT_WAIT   ? "event wait"
                        : kind == TRNSCI__V1__OP__KIND_STAGE_OUT    ? "stage-out"
                        : kind == TRNSCI__V1__OP__KIND_GRAPH_LAUNCH ? "graph launch"
                                                                    : "op";
    char msg[TRN_SERVICE_ERRLEN + 160];
    snprintf(msg, sizeof(msg), "%s %s (launch #%llu on stream %u) was refused: %s",
             k ? k->family : "memory", k ? k->title : event, (unsigned long long)req->launch_seq,
             req->stream_id, err);
    trn_session_defer_error(s, req->stream_id, req->launch_seq, rc, msg);
}

void trn_service_on_submit(trn_service *svc, const Trnsci__V1__SubmitRequest *req, trn_call *call) {
    char err[ERRLEN];
    trn_session *s = trn_service_session(svc, req->session_id, call);
    if (!s)
        return;
    uint64_t seq = 0;
    trn_wire_code rc;
    switch (req->op ? req->op->kind_case : TRNSCI__V1__OP__KIND__NOT_SET) {
    case TRNSCI__V1__OP__KIND_EVENT_RECORD:
    case TRNSCI__V1__OP__KIND_EVENT_WAIT:
        rc = trn_service_submit_event(svc, s, req, &seq, err, sizeof(err));
        break;
    case TRNSCI__V1__OP__KIND_STAGE_OUT:
        rc = trn_service_submit_stage_out(svc, s, req, &seq, err, sizeof(err));
        break;
    case TRNSCI__V1__OP__KIND_GRAPH_LAUNCH:
        rc = trn_service_submit_graph(svc, s, req, &seq, err, sizeof(err));
        break;
    default:
        /* An asynchronous launch wakes no worker: its frontend calls
         * trn_service_kick after the burst it came in. */
        rc =
            submit_kernel(svc, s, req, call->no_reply || call->kicks_later, &seq, err, sizeof(err));
        break;
    }
    if (rc != TRN_WIRE_OK) {
        char who[160];
        trn_log(TRN_LOG_DEBUG, "%s: rejected: %s", trn_session_who(s, who, sizeof(who)), err);
        if (call->no_reply)
            defer_rejection(s, req, rc, err);
        trn_session_unref(s);
        trn_service_finish_error(call, rc, err);
        return;
    }
    trn_session_unref(s);
    Trnsci__V1__SubmitReply r = TRNSCI__V1__SUBMIT_REPLY__INIT;
    r.op_seq = seq;
    trn_service_finish_reply(call, &r.base);
}

/* ---- Status ----------------------------------------------------------------- */

static void usage_to_wire(const trn_sched_usage *u, Trnsci__V1__Usage *w) {
    trnsci__v1__usage__init(w);
    w->ops = u->ops;
    w->shards = u->shards;
    w->queue_ns = u->queue_ns;
    w->run_ns = u->run_ns;
    w->cost = u->cost;
    w->expired = u->expired;
}

/* Status lists only the sessions the caller may see (status_scope.h,
 * trn_status_scope); the daemon-wide counters above the list are aggregates
 * that name no session, and /metrics publishes them anyway. */
static void on_status(trn_service *svc, trn_call *call) {
    char version[32];
    trn_sched_stats st;
    trn_sched_get_stats(svc->sched, &st);
    daemon_version(version, sizeof(version));
    Trnsci__V1__StatusReply r = TRNSCI__V1__STATUS_REPLY__INIT;
    r.daemon_version = version;
    r.core_count = (uint32_t)svc->cfg->ncores;
    r.sessions = trn_session_table_count(svc->sessions);
    r.ops_queued = st.ops_queued;
    r.ops_running = st.ops_running;
    r.ops_completed = st.ops_completed;
    r.bytes_held = atomic_load(&svc->sessions->bytes_held);
    r.buffers = atomic_load(&svc->sessions->buffers);
    r.uptime_ms = trn_now_ms() - svc->start_ms;
    r.n_listen = (size_t)svc->cfg->nlisten;
    r.listen = (char **)svc->cfg->listen;
    r.backend = (char *)svc->backend->name;
    r.protocol_major = TRNSCI_PROTOCOL_MAJOR;
    r.protocol_minor = TRNSCI_PROTOCOL_MINOR;
    const trn_scope scope =
        trn_status_scope(&call->peer, call->transport,
                         svc->tokens && trn_token_store_required(svc->tokens), svc->daemon_uid);
    trn_session_info *snap = NULL;
    const size_t n = trn_session_table_snapshot(svc->sessions, &scope, &snap);
    Trnsci__V1__SessionInfo *infos = n ? calloc(n, sizeof(*infos)) : NULL;
    Trnsci__V1__SessionInfo **ptrs = n ? calloc(n, sizeof(*ptrs)) : NULL;
    Trnsci__V1__Usage *usages = n ? calloc(n, sizeof(*usages)) : NULL;
    if (infos && ptrs && usages) {
        for (size_t i = 0; i < n; i++) {
            trnsci__v1__session_info__init(&infos[i]);
            infos[i].number = snap[i].number;
            infos[i].transport = (char *)transport_name(snap[i].transport);
            infos[i].client_name = snap[i].client_name;
            infos[i].pid = snap[i].pid;
            infos[i].uid = snap[i].uid;
            infos[i].bytes = snap[i].bytes;
            infos[i].buffers = snap[i].buffers;
            infos[i].priority = snap[i].priority;
            infos[i].ops_pending = snap[i].ops_pending;
            usage_to_wire(&snap[i].usage, &usages[i]);
            infos[i].usage = &usages[i];
            ptrs[i] = &infos[i];
        }
        r.n_session_info = n;
        r.session_info = ptrs;
    }
    const int nw = trn_sched_worker_count(svc->sched);
    Trnsci__V1__WorkerInfo *winfo = calloc((size_t)nw, sizeof(*winfo));
    Trnsci__V1__WorkerInfo **wptrs = calloc((size_t)nw, sizeof(*wptrs));
    Trnsci__V1__Usage *wusage = calloc((size_t)nw, sizeof(*wusage));
    if (winfo && wptrs && wusage) {
        for (int i = 0; i < nw; i++) {
            trn_sched_worker_info wi;
            trn_sched_worker_get(svc->sched, i, &wi);
            trnsci__v1__worker_info__init(&winfo[i]);
            winfo[i].engine = (char *)trn_engine_name(wi.engine);
            winfo[i].index = (uint32_t)wi.index;
            winfo[i].cpu = wi.cpu;
            usage_to_wire(&wi.usage, &wusage[i]);
            winfo[i].usage = &wusage[i];
            wptrs[i] = &winfo[i];
        }
        r.n_workers = (size_t)nw;
        r.workers = wptrs;
    }
    Trnsci__V1__PlanCacheStats pcs;
    trn_service_plan_stats(svc, &pcs);
    r.plan_cache = &pcs;
    trn_service_finish_reply(call, &r.base);
    free(wusage);
    free(wptrs);
    free(winfo);
    free(usages);
    free(ptrs);
    free(infos);
    free(snap);
}

/* ---- Dispatch ------------------------------------------------------------------ */

typedef void (*handler_fn)(trn_service *, const ProtobufCMessage *, trn_call *);

typedef struct method_entry {
    const ProtobufCMessageDescriptor *request;
    handler_fn handler;
    const char *name;
} method_entry;

/* Adapts a typed handler to handler_fn without calling through a cast
 * function pointer. */
#define HANDLER(fn, type)                                                                          \
    static void fn##_entry(trn_service *svc, const ProtobufCMessage *m, trn_call *call) {          \
        fn(svc, (const type *)m, call);                                                            \
    }
HANDLER(on_hello, Trnsci__V1__HelloRequest)
HANDLER(on_open_session, Trnsci__V1__OpenSessionRequest)
HANDLER(on_close_session, Trnsci__V1__CloseSessionRequest)
HANDLER(on_keep_alive, Trnsci__V1__KeepAliveRequest)
HANDLER(on_alloc, Trnsci__V1__AllocRequest)
HANDLER(on_free, Trnsci__V1__FreeRequest)
HANDLER(on_write, Trnsci__V1__WriteRequest)
HANDLER(on_read, Trnsci__V1__ReadRequest)
HANDLER(trn_service_on_submit, Trnsci__V1__SubmitRequest)
HANDLER(trn_service_on_synchronize, Trnsci__V1__SynchronizeRequest)
HANDLER(on_set_priority, Trnsci__V1__SetPriorityRequest)
HANDLER(trn_service_on_event, Trnsci__V1__EventRequest)
HANDLER(trn_service_on_plan_create, Trnsci__V1__PlanCreateRequest)
HANDLER(trn_service_on_plan_destroy, Trnsci__V1__PlanDestroyRequest)
HANDLER(trn_service_on_plans, Trnsci__V1__PlansRequest)
HANDLER(trn_service_on_self_test, Trnsci__V1__SelfTestRequest)
HANDLER(trn_service_on_graph, Trnsci__V1__GraphRequest)
#undef HANDLER

#define ENTRY(desc, fn, name)                                                                      \
    { &(desc), fn##_entry, name }

static const method_entry methods[TRN_WIRE_METHOD_COUNT] = {
    [TRN_WIRE_HELLO] = ENTRY(trnsci__v1__hello_request__descriptor, on_hello, "Hello"),
    [TRN_WIRE_OPEN_SESSION] =
        ENTRY(trnsci__v1__open_session_request__descriptor, on_open_session, "OpenSession"),
    [TRN_WIRE_CLOSE_SESSION] =
        ENTRY(trnsci__v1__close_session_request__descriptor, on_close_session, "CloseSession"),
    [TRN_WIRE_KEEP_ALIVE] =
        ENTRY(trnsci__v1__keep_alive_request__descriptor, on_keep_alive, "KeepAlive"),
    [TRN_WIRE_ALLOC] = ENTRY(trnsci__v1__alloc_request__descriptor, on_alloc, "Alloc"),
    [TRN_WIRE_FREE] = ENTRY(trnsci__v1__free_request__descriptor, on_free, "Free"),
    [TRN_WIRE_WRITE] = ENTRY(trnsci__v1__write_request__descriptor, on_write, "Write"),
    [TRN_WIRE_READ] = ENTRY(trnsci__v1__read_request__descriptor, on_read, "Read"),
    [TRN_WIRE_SUBMIT] =
        ENTRY(trnsci__v1__submit_request__descriptor, trn_service_on_submit, "Submit"),
    [TRN_WIRE_SYNCHRONIZE] = ENTRY(trnsci__v1__synchronize_request__descriptor,
                                   trn_service_on_synchronize, "Synchronize"),
    [TRN_WIRE_SET_PRIORITY] =
        ENTRY(trnsci__v1__set_priority_request__descriptor, on_set_priority, "SetPriority"),
    [TRN_WIRE_EVENT] = ENTRY(trnsci__v1__event_request__descriptor, trn_service_on_event, "Event"),
    [TRN_WIRE_PLAN_CREATE] = ENTRY(trnsci__v1__plan_create_request__descriptor,
                                   trn_service_on_plan_create, "PlanCreate"),
    [TRN_WIRE_PLAN_DESTROY] = ENTRY(trnsci__v1__plan_destroy_request__descriptor,
                                    trn_service_on_plan_destroy, "PlanDestroy"),
    [TRN_WIRE_PLANS] = ENTRY(trnsci__v1__plans_request__descriptor, trn_service_on_plans, "Plans"),
    [TRN_WIRE_SELF_TEST] =
        ENTRY(trnsci__v1__self_test_request__descriptor, trn_service_on_self_test, "SelfTest"),
    [TRN_WIRE_GRAPH] = ENTRY(trnsci__v1__graph_request__descriptor, trn_service_on_graph, "Graph"),
};

/* Requests are unpacked into an arena on the handling thread's stack: a
 * submit's dozen small allocations and their frees (a third of the
 * decoding's time) become bumps of a pointer. What does not fit (a big
 * request: a graph, a batch of pointers) comes from the heap, and only then
 * is the message freed field by field. */
#define UNPACK_ARENA_BYTES 8192

typedef struct unpack_arena {
    _Alignas(max_align_t) unsigned char buf[UNPACK_ARENA_BYTES];
    size_t used;
    int spilled; /* something came from the heap */
} unpack_arena;

static void *arena_alloc(void *data, size_t size) {
    unpack_arena *a = data;
    if (size == 0)
        size = 1; /* never the arena's end, which arena_free would not know */
    const size_t n = (size + _Alignof(max_align_t) - 1) & ~(size_t)(_Alignof(max_align_t) - 1);
    if (n >= size && n <= sizeof(a->buf) - a->used) {
        void *p = a->buf + a->used;
        a->used += n;
        return p;
    }
    a->spilled = 1;
    return malloc(size);
}

static void arena_free(void *data, void *p) {
    unpack_arena *a = data;
    const unsigned char *c = p;
    if (c < a->buf || c >= a->buf + sizeof(a->buf))
        free(p);
}

static void unpack_arena_init(unpack_arena *a, ProtobufCAllocator *alloc) {
    a->used = 0;
    a->spilled = 0;
    *alloc = (ProtobufCAllocator){.alloc = arena_alloc, .free = arena_free, .allocator_data = a};
}

void trn_service_handle(trn_service *svc, trn_wire_method method, const uint8_t *req, size_t len,
                        trn_call *call) {
    char err[ERRLEN];
    if (svc->metrics)
        trn_metrics_received(svc->metrics, call->transport, len);
    if (method == TRN_WIRE_STATUS) {
        on_status(svc, call);
        return;
    }
    if ((unsigned)method >= TRN_WIRE_METHOD_COUNT || !methods[method].handler) {
        trn_service_finish_error(call, TRN_WIRE_UNIMPLEMENTED, "unknown method");
        return;
    }
    if (atomic_load(&svc->draining)) {
        trn_service_finish_error(call, TRN_WIRE_UNAVAILABLE, "the daemon is shutting down");
        return;
    }
    const method_entry *e = &methods[method];
    unpack_arena arena;
    ProtobufCAllocator alloc;
    unpack_arena_init(&arena, &alloc);
    ProtobufCMessage *msg = protobuf_c_message_unpack(e->request, &alloc, len, req);
    if (!msg) {
        snprintf(err, sizeof(err), "malformed %s request: the body is not a valid %s message",
                 e->name, e->request->name);
        trn_log(TRN_LOG_DEBUG, "%s", err);
        call->malformed = 1;
        trn_service_finish_error(call, TRN_WIRE_INVALID_ARGUMENT, err);
        return;
    }
    e->handler(svc, msg, call);
    if (arena.spilled) /* else everything is in the arena, on the stack */
        protobuf_c_message_free_unpacked(msg, &alloc);
}

trn_session *trn_service_attach(trn_service *svc, const uint8_t *req, size_t len, trn_call *call) {
    if (atomic_load(&svc->draining)) {
        trn_service_finish_error(call, TRN_WIRE_UNAVAILABLE, "the daemon is shutting down");
        return NULL;
    }
    Trnsci__V1__AttachRequest *a = trnsci__v1__attach_request__unpack(NULL, len, req);
    if (!a) {
        trn_service_finish_error(
            call, TRN_WIRE_INVALID_ARGUMENT,
            "malformed Attach request: the body is not a valid AttachRequest message");
        return NULL;
    }
    trn_session *s = trn_service_session(svc, a->session_id, call);
    trnsci__v1__attach_request__free_unpacked(a, NULL);
    if (!s)
        return NULL;
    if (trn_session_attach(s, call) != 0) {
        trn_session_unref(s);
        trn_service_finish_error(call, TRN_WIRE_ALREADY_EXISTS,
                                 "the session already has an Attach stream");
        return NULL;
    }
    return s;
}

int trn_service_detach(trn_service *svc, trn_session *s, trn_call *call) {
    (void)svc;
    const int was_attached = trn_session_detach(s, call);
    if (was_attached)
        trn_session_close(s, "client disconnected");
    trn_session_unref(s);
    return was_attached;
}
