/*
 * service_internal.h — what the service's files share (daemon/service*.c).
 *
 *   service.c        dispatch, Hello, sessions, buffers, Submit, Status
 *   service_wait.c   waiting: Synchronize and the Event RPC, with timeouts
 *   service_stage.c  stream-ordered host transfers: ordered Write, StageOutOp
 *                    and the Read that fetches its data
 *   service_plan.c   plans: PlanCreate, PlanDestroy, and Plans for operators
 *   service_selftest.c  SelfTest: the outside routines' self-test report
 *
 * Not for frontends: they see service.h only.
 */
#ifndef TRN_DAEMON_SERVICE_INTERNAL_H
#define TRN_DAEMON_SERVICE_INTERNAL_H

#include "daemon/service_context.h"
#include "daemon/validate.h"
#include "trnsci/v1/trnsci.pb-c.h"

#define TRN_SERVICE_ERRLEN 512

void trn_service_finish_error(trn_call *call, trn_wire_code code, const char *msg);
/* Packs reply and finishes the call with it. */
void trn_service_finish_reply(trn_call *call, const ProtobufCMessage *reply);
/* The session named by id with a reference, or NULL after finishing call
 * with ABORTED. */
trn_session *trn_service_session(trn_service *svc, uint64_t id, trn_call *call);

/* The deadline (trn_sched_now_ns clock; 0 = none) of an op that must start
 * within timeout_us (0 = no limit) of now. */
uint64_t trn_service_op_deadline(uint64_t timeout_us);
/* The deadline (trn_sched_now_ns clock; 0 = none) of a wait that may last
 * timeout_us (0 = no limit) and must end by the call's own deadline. */
uint64_t trn_service_wait_deadline(const trn_call *call, uint64_t timeout_us);

/* Scratch an op owns between its steps or stages (daemon/op_scratch.h),
 * charged to its session's memory quota like a buffer (service_scratch.c).
 * take returns TRN_WIRE_OK, or RESOURCE_EXHAUSTED with err written (the
 * quota, the pool's cap, memory) and *l empty; `what` names the scratch in
 * that message. give returns it (an empty lease: no-op). */
typedef struct trn_scratch_lease {
    void *p;
    size_t len;       /* the block's */
    uint64_t charged; /* to session */
    struct trn_op_scratch *pool;
    struct trn_session *session;
} trn_scratch_lease;
trn_wire_code trn_service_scratch_take(trn_service *svc, struct trn_session *s, uint64_t bytes,
                                       const char *what, trn_scratch_lease *l, char *err,
                                       size_t errlen);
void trn_service_scratch_give(trn_scratch_lease *l);

/* An op the service queued: a kernel op, or a marker of an event. */
typedef struct trn_service_op {
    trn_sched_op sop;
    trn_session *session; /* a reference */
    trn_op_refs refs;
    uint32_t stream_id;
    uint64_t seq;
    void *staging; /* ordered Write: the staged data, charged to the session */
    size_t staging_len;
    trn_stage *stage;            /* StageOutOp: where the data goes */
    struct trn_metrics *metrics; /* the service's, or NULL */
    trn_block_pool *pool;        /* where it goes back (trn_service_op_new) */
    /* A graph node's op (service_graph.c): the graph version it runs (a
     * reference, dropped with trn_service_graph_put), its exec id, and
     * 1 + its node's index. */
    struct trn_graph_body *graph;
    uint32_t graph_exec, graph_node;
    /* The steps it owns (service_steps.h): a tiled factorisation's
     * (service_tile.c), one large FFT's (service_fftstep.c) or a Krylov
     * solve's (service_krylov.c); NULL: none
     * (a graph's sequence belongs to its version). */
    struct trn_service_steps *own_steps;
    /* The scratch its conversion and compute stages share (service_convert.c). */
    trn_scratch_lease convert;
} trn_service_op;

/* Format conversions ahead (service_convert.c): makes a validated op whose
 * operands need one (ops/convert_stage.h) a conversion stage and a compute
 * stage, when the backend runs it so and scratch can be had; otherwise
 * leaves it as it is. convert_free gives its scratch back (none: no-op). */
void trn_service_convert_op(trn_service *svc, trn_service_op *op, trn_session *s);
void trn_service_convert_free(trn_service_op *op);

/* Tiled factorisations (service_tile.c): makes a validated op whose shape
 * is tiled (ops/solver_tile.h, ops/solver_eig_tile.h) a sequence of its
 * steps (op->own_steps); a tiled syevd's scratch comes from svc's pool
 * (daemon/op_scratch.h), without which it stays untiled. Returns 0 (also
 * when it is not tiled), or -1 out of memory. */
int trn_service_tile_op(trn_service *svc, trn_service_op *op, trn_session *s);

/* One large FFT (service_fftstep.c): makes a validated FFT op that is a
 * single transform big enough (ops/fft_step.h) a sequence of its steps
 * (op->own_steps), each with its sub-plan from the plan cache. Returns
 * TRN_WIRE_OK (also when it is not split), or the error with err written
 * (nothing kept). */
trn_wire_code trn_service_fftstep_op(trn_service *svc, trn_session *s, trn_service_op *op,
                                     char *err, size_t errlen);
/* Krylov solves over every core (service_krylov.c): makes a validated
 * solve that qualifies (ops/solver_kpar.h) a looping sequence of its steps
 * with its state (from svc's op scratch pool) charged to s. Returns 0
 * (also when it does not qualify or its state cannot be had: it then runs
 * as one kernel); the steps and the state are op->own_steps. */
int trn_service_krylov_op(trn_service *svc, trn_service_op *op, trn_session *s);

/* A zeroed op from the service's pool (block_pool.h), or NULL when out of
 * memory. */
trn_service_op *trn_service_op_new(trn_service *svc);
/* Gives back an op that was never queued (its refs already released; NULL:
 * no-op). */
void trn_service_op_discard(trn_service_op *op);

/* Queues op (desc, or marker fields, already set; refs taken) on the
 * session's stream_id, reserving a place under max-queued-ops. On success
 * returns TRN_WIRE_OK with the op owned by the scheduler and *seq set. On
 * failure nothing was queued, op's refs are released and op is freed, and
 * err says why. Takes its own session reference for the op. */
trn_wire_code trn_service_queue_op(trn_service *svc, trn_session *s, uint32_t stream_id,
                                   trn_service_op *op, uint64_t *seq, char *err, size_t errlen);

/* For a graph launch (service_graph.c): counts n ops of session s as
 * queued, whatever max-queued-ops says (trn_session_reserve_ops_forced),
 * and queues op (fields set) on the scheduler stream st under one of them,
 * taking its own session reference. unreserve gives back n places when the
 * ops were not all queued. queue_reserved returns 0, or -1 when the daemon
 * is shutting down (op freed, its place given back). */
void trn_service_reserve_ops(trn_session *s, uint32_t n);
/* Whether the session's token and uid are under their queued-op limits
 * (queued-ops=, max-queued-ops-per-uid): 0, or -1 with err written. A graph
 * launch checks this before it reserves its ops whatever the limits, so a
 * user exceeds them by one graph at most. */
int trn_service_room_for_users(trn_service *svc, trn_session *s, char *err, size_t errlen);
void trn_service_unreserve_ops(trn_session *s, uint32_t n);
int trn_service_queue_reserved(trn_service *svc, trn_session *s, trn_sched_stream *st,
                               trn_service_op *op);
/* The session's scheduler stream for stream_id with a reference, and the
 * next per-session op number in *seq; NULL with err written (the stream
 * limit, or a closed session). */
trn_sched_stream *trn_service_stream(trn_service *svc, trn_session *s, uint32_t stream_id,
                                     uint64_t *seq, trn_wire_code *rc, char *err, size_t errlen);
/* Makes f event_id's latest record (the session's event map takes the
 * caller's reference to f). */
void trn_service_event_recorded(trn_service *svc, trn_session *s, uint32_t event_id,
                                trn_sched_fence *f);
/* The fence of event_id's latest record with a reference, or NULL. */
trn_sched_fence *trn_service_event_fence(trn_service *svc, trn_session *s, uint32_t event_id);

/* Graphs (service_graph.c): the Graph RPC; a Submit of a GraphLaunchOp;
 * dropping an op's reference to its graph version. */
void trn_service_on_graph(trn_service *svc, const Trnsci__V1__GraphRequest *req, trn_call *call);
trn_wire_code trn_service_submit_graph(trn_service *svc, trn_session *s,
                                       const Trnsci__V1__SubmitRequest *req, uint64_t *seq,
                                       char *err, size_t errlen);
void trn_service_graph_put(struct trn_graph_body *body);
/* The graph node a graph's op is running (or stopped at): a sequence op's
 * current step's node. */
uint32_t trn_service_graph_node(const trn_service_op *op);

/* Submit: validates and queues one op; with call->no_reply a refusal is
 * kept for the op's stream instead (service.c). */
void trn_service_on_submit(trn_service *svc, const Trnsci__V1__SubmitRequest *req, trn_call *call);

/* SelfTest (service_selftest.c). */
void trn_service_on_self_test(trn_service *svc, const Trnsci__V1__SelfTestRequest *req,
                              trn_call *call);

/* Handlers (service_wait.c). */
void trn_service_on_synchronize(trn_service *svc, const Trnsci__V1__SynchronizeRequest *req,
                                trn_call *call);
void trn_service_on_event(trn_service *svc, const Trnsci__V1__EventRequest *req, trn_call *call);
/* Submit of an EventRecordOp / EventWaitOp (service_wait.c). */
trn_wire_code trn_service_submit_event(trn_service *svc, trn_session *s,
                                       const Trnsci__V1__SubmitRequest *req, uint64_t *seq,
                                       char *err, size_t errlen);

/* Handlers (service_plan.c). */
void trn_service_on_plan_create(trn_service *svc, const Trnsci__V1__PlanCreateRequest *req,
                                trn_call *call);
void trn_service_on_plan_destroy(trn_service *svc, const Trnsci__V1__PlanDestroyRequest *req,
                                 trn_call *call);
void trn_service_on_plans(trn_service *svc, const Trnsci__V1__PlansRequest *req, trn_call *call);
/* Plan-cache figures for a StatusReply / PlansReply. */
void trn_service_plan_stats(trn_service *svc, Trnsci__V1__PlanCacheStats *w);

/* Handlers (service_stage.c). */
void trn_service_on_ordered_write(trn_service *svc, trn_session *s,
                                  const Trnsci__V1__WriteRequest *req, trn_call *call);
void trn_service_on_ticket_read(trn_service *svc, trn_session *s,
                                const Trnsci__V1__ReadRequest *req, trn_call *call);
/* Submit of a StageOutOp (service_stage.c). */
trn_wire_code trn_service_submit_stage_out(trn_service *svc, trn_session *s,
                                           const Trnsci__V1__SubmitRequest *req, uint64_t *seq,
                                           char *err, size_t errlen);
/* A StageOutOp completed (called by the op's completion). */
void trn_service_stage_done(trn_service_op *op, trn_sched_status status);

#endif
