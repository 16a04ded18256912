/*
 * graph.h — libtrnsci's graphs and stream capture, shared by graph.c
 * (graph objects, nodes, DOT, instantiation and launch), capture.c (stream
 * capture) and the calls capture intercepts (runtime.c, event.c, stream.c,
 * memory.c).
 *
 * A node's dependencies are indices of nodes of its own graph. Nodes are
 * kept in the order they were added; trnsciGraphAddDependencies may add an
 * edge to an earlier node, so instantiation sorts them (and refuses a
 * cycle).
 */
#ifndef TRN_CLIENT_GRAPH_H
#define TRN_CLIENT_GRAPH_H

#include "client/client.h"

struct trnsciGraphNode_st {
    trnsciGraph_t graph;
    uint32_t index;
    trnsciGraphNodeType type;
    Trnsci__V1__Op *op;  /* kernel, memcpy, memset: a deep copy (protobuf-c unpacked) */
    uint32_t event_id;   /* event record / wait */
    trnsciGraph_t child; /* child graph: owned */
    uint32_t *deps;
    size_t ndeps, cap;
};

struct trnsciGraph_st {
    trnsciGraphNode_t *nodes;
    size_t n, cap;
};

/* A new node of graph in *out (type set, nothing else) after deps (nodes
 * of graph, checked); an error is recorded (fn names the call). */
trnsciError_t trn_graph_add_node(trnsciGraph_t graph, trnsciGraphNodeType type,
                                 const trnsciGraphNode_t *deps, size_t ndeps, const char *fn,
                                 trnsciGraphNode_t *out);
/* Adds a node for op (copied) to graph. */
trnsciError_t trn_graph_add_op(trnsciGraph_t graph, const Trnsci__V1__Op *op,
                               const trnsciGraphNode_t *deps, size_t ndeps, trnsciGraphNode_t *out,
                               const char *fn);
/* A copy of g (NULL when out of memory). */
trnsciGraph_t trn_graph_clone(trnsciGraph_t g);
void trn_graph_free(trnsciGraph_t g);
/* The graph an executable graph was made from (its own copy). */
trnsciGraph_t trn_graph_exec_graph(trnsciGraphExec_t x);

/* ---- capture (capture.c) ---- */

/* Whether stream is being captured (cheap: a load). */
int trn_capture_active(trn_client *c, trnsciStream_t stream);
/* Records op (validated) as a node of stream's capture. Ops that cannot
 * be captured fail with trnsciErrorStreamCaptureUnsupported and
 * invalidate the capture. */
trnsciError_t trn_capture_op(trn_client *c, trnsciStream_t stream, const Trnsci__V1__Op *op);
/* Launches exec into stream's capture, as a child graph node. */
trnsciError_t trn_capture_graph(trn_client *c, trnsciStream_t stream, trnsciGraphExec_t exec);
/* trnsciEventRecord / trnsciStreamWaitEvent in capture: returns 1 when the
 * call belongs to a capture (handled: *e is its result), 0 when it is an
 * ordinary one. */
int trn_capture_event_record(trn_client *c, trnsciEvent_t ev, trnsciStream_t stream,
                             trnsciError_t *e);
int trn_capture_event_wait(trn_client *c, trnsciStream_t stream, trnsciEvent_t ev,
                           trnsciError_t *e);
/* A call that waits for stream (synchronize, query, copies to or from the
 * host): trnsciErrorStreamCaptureUnsupported (recorded, the capture
 * invalidated) while stream is capturing; else trnsciSuccess. */
trnsciError_t trn_capture_refuse_stream(trn_client *c, trnsciStream_t stream, const char *fn);
/* A call that synchronises implicitly (allocation, device synchronize, a
 * synchronous copy): refused as CUDA's capture modes say (trnsci_graph.h),
 * invalidating the captures it would disturb. */
trnsciError_t trn_capture_refuse_unsafe(const char *fn);
/* An event query or synchronize: trnsciErrorCapturedEvent while the event's
 * latest record was captured in a capture still active. */
trnsciError_t trn_capture_refuse_event(trnsciEvent_t ev, const char *fn);
/* Forgets what a destroyed stream or event had to do with captures. */
void trn_capture_forget_stream(trnsciStream_t stream);
void trn_capture_forget_event(trnsciEvent_t ev);

#endif
