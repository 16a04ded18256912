/*
 * trnsci_graph.h — stream capture and graphs, as CUDA Graphs (cudaGraph*,
 * cudaStreamBeginCapture, ...) renamed. Included by trnsci.h.
 *
 * A graph is a set of nodes (library routines, device-to-device copies,
 * memsets, event records and waits, child graphs, empty join points) and
 * the dependencies between them. Build one by stream capture — every
 * library call of the six families made on a capturing stream is recorded
 * as a node instead of run, exactly as cuBLAS/cuFFT/... calls are under CUDA
 * capture — or node by node. Instantiate it once: the daemon validates every
 * node and prepares its plans then, and keeps the executable graph for the
 * session. Each trnsciGraphLaunch is then one message, however many nodes
 * the graph has; the daemon runs independent nodes concurrently and reports
 * no per-node completion. Results are bitwise those of the same calls made
 * one by one.
 *
 * Deviations from CUDA (docs/rosetta.md): there are no kernel nodes built
 * from a function pointer (library calls are captured instead) and no host
 * nodes; memcpy nodes copy device to device (a copy to or from host memory
 * cannot be captured: trnsciErrorStreamCaptureUnsupported); memset nodes set
 * bytes (elementSize 1, or a value whose bytes are all equal) over a
 * contiguous range (height 1, or pitch == width * elementSize).
 *
 * Objects are not thread-safe (as CUDA's): one thread at a time may change
 * a graph.
 */
#ifndef TRNSCI_GRAPH_H
#define TRNSCI_GRAPH_H

/* Standalone use: the runtime's types (trnsci.h includes this header at its
 * end, after them). */
#include <trnsci/trnsci.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct trnsciGraph_st *trnsciGraph_t;
typedef struct trnsciGraphExec_st *trnsciGraphExec_t;
typedef struct trnsciGraphNode_st *trnsciGraphNode_t;

/* ---- stream capture ---- */

/* Which calls a capture forbids (cudaStreamCaptureMode). Global: while any
 * thread has a global-mode capture, or this thread has any non-relaxed
 * capture, calls that would synchronise implicitly (trnsciMalloc,
 * trnsciFree, trnsciMemcpy, trnsciDeviceSynchronize, ...) fail with
 * trnsciErrorStreamCaptureUnsupported and invalidate the capture.
 * ThreadLocal: only this thread's captures count. Relaxed: nothing is
 * forbidden. */
typedef enum trnsciStreamCaptureMode {
    trnsciStreamCaptureModeGlobal = 0,
    trnsciStreamCaptureModeThreadLocal = 1,
    trnsciStreamCaptureModeRelaxed = 2,
} trnsciStreamCaptureMode;

typedef enum trnsciStreamCaptureStatus {
    trnsciStreamCaptureStatusNone = 0,
    trnsciStreamCaptureStatusActive = 1,
    trnsciStreamCaptureStatusInvalidated = 2, /* an error ended it; EndCapture reports it */
} trnsciStreamCaptureStatus;

/* Starts capturing stream: its later work is recorded into a new graph, not
 * run. Other streams join the capture by waiting for an event recorded on a
 * capturing stream (trnsciStreamWaitEvent), and must be joined back into
 * stream before trnsciStreamEndCapture. trnsciErrorIllegalState when stream
 * is already capturing. */
trnsciError_t trnsciStreamBeginCapture(trnsciStream_t stream, trnsciStreamCaptureMode mode);
/* Ends the capture begun on stream and returns the graph (the caller
 * destroys it with trnsciGraphDestroy). *pGraph is NULL on failure:
 * trnsciErrorStreamCaptureUnmatched (stream did not begin a capture),
 * trnsciErrorStreamCaptureWrongThread (another thread began a non-relaxed
 * capture), trnsciErrorStreamCaptureInvalidated (an error during capture),
 * trnsciErrorStreamCaptureUnjoined (a stream that joined did not join back). */
trnsciError_t trnsciStreamEndCapture(trnsciStream_t stream, trnsciGraph_t *pGraph);
trnsciError_t trnsciStreamIsCapturing(trnsciStream_t stream,
                                      trnsciStreamCaptureStatus *pCaptureStatus);
/* Status and, while active, the capture's id (unique in the process), its
 * graph, and the nodes the stream's next captured call will depend on
 * (valid until the next call on the stream). Any output may be NULL. */
trnsciError_t trnsciStreamGetCaptureInfo(trnsciStream_t stream,
                                         trnsciStreamCaptureStatus *captureStatus_out,
                                         unsigned long long *id_out, trnsciGraph_t *graph_out,
                                         const trnsciGraphNode_t **dependencies_out,
                                         size_t *numDependencies_out);
/* Swaps the calling thread's capture mode with *mode. */
trnsciError_t trnsciThreadExchangeStreamCaptureMode(trnsciStreamCaptureMode *mode);

/* ---- graphs ---- */

typedef enum trnsciGraphNodeType {
    trnsciGraphNodeTypeKernel = 0, /* a library routine */
    trnsciGraphNodeTypeMemcpy = 1,
    trnsciGraphNodeTypeMemset = 2,
    trnsciGraphNodeTypeHost = 3, /* not supported */
    trnsciGraphNodeTypeGraph = 4,
    trnsciGraphNodeTypeEmpty = 5,
    trnsciGraphNodeTypeWaitEvent = 6,
    trnsciGraphNodeTypeEventRecord = 7,
} trnsciGraphNodeType;

/* cudaMemsetParams. */
typedef struct trnsciMemsetParams {
    void *dst;
    size_t pitch;
    unsigned int value;
    unsigned int elementSize; /* 1, 2 or 4 */
    size_t width;             /* elements per row */
    size_t height;            /* rows */
} trnsciMemsetParams;

/* flags must be 0. */
trnsciError_t trnsciGraphCreate(trnsciGraph_t *pGraph, unsigned int flags);
/* Destroys graph and its nodes (executable graphs made from it live on). */
trnsciError_t trnsciGraphDestroy(trnsciGraph_t graph);
trnsciError_t trnsciGraphClone(trnsciGraph_t *pGraphClone, trnsciGraph_t originalGraph);

/* Node builders: each adds a node that runs after the numDependencies nodes
 * of pDependencies (nodes of graph). */
trnsciError_t trnsciGraphAddEmptyNode(trnsciGraphNode_t *pGraphNode, trnsciGraph_t graph,
                                      const trnsciGraphNode_t *pDependencies,
                                      size_t numDependencies);
/* count bytes from device memory src to device memory dst. */
trnsciError_t trnsciGraphAddMemcpyNode1D(trnsciGraphNode_t *pGraphNode, trnsciGraph_t graph,
                                         const trnsciGraphNode_t *pDependencies,
                                         size_t numDependencies, void *dst, const void *src,
                                         size_t count, trnsciMemcpyKind kind);
trnsciError_t trnsciGraphAddMemsetNode(trnsciGraphNode_t *pGraphNode, trnsciGraph_t graph,
                                       const trnsciGraphNode_t *pDependencies,
                                       size_t numDependencies,
                                       const trnsciMemsetParams *pMemsetParams);
/* Records event / waits for event's latest record when the node runs. */
trnsciError_t trnsciGraphAddEventRecordNode(trnsciGraphNode_t *pGraphNode, trnsciGraph_t graph,
                                            const trnsciGraphNode_t *pDependencies,
                                            size_t numDependencies, trnsciEvent_t event);
trnsciError_t trnsciGraphAddEventWaitNode(trnsciGraphNode_t *pGraphNode, trnsciGraph_t graph,
                                          const trnsciGraphNode_t *pDependencies,
                                          size_t numDependencies, trnsciEvent_t event);
/* Embeds a copy of childGraph. */
trnsciError_t trnsciGraphAddChildGraphNode(trnsciGraphNode_t *pGraphNode, trnsciGraph_t graph,
                                           const trnsciGraphNode_t *pDependencies,
                                           size_t numDependencies, trnsciGraph_t childGraph);
/* Adds edges from[i] -> to[i]. */
trnsciError_t trnsciGraphAddDependencies(trnsciGraph_t graph, const trnsciGraphNode_t *from,
                                         const trnsciGraphNode_t *to, size_t numDependencies);

/* With nodes NULL, *numNodes is the node count; else fills up to *numNodes
 * nodes (in the order they were added) and sets *numNodes to how many. */
trnsciError_t trnsciGraphGetNodes(trnsciGraph_t graph, trnsciGraphNode_t *nodes, size_t *numNodes);
trnsciError_t trnsciGraphGetRootNodes(trnsciGraph_t graph, trnsciGraphNode_t *pRootNodes,
                                      size_t *pNumRootNodes);
trnsciError_t trnsciGraphNodeGetType(trnsciGraphNode_t node, trnsciGraphNodeType *pType);
/* As trnsciGraphGetNodes, for the nodes node depends on. */
trnsciError_t trnsciGraphNodeGetDependencies(trnsciGraphNode_t node,
                                             trnsciGraphNode_t *pDependencies,
                                             size_t *pNumDependencies);
/* The child graph of a child-graph node (owned by the node). */
trnsciError_t trnsciGraphChildGraphNodeGetGraph(trnsciGraphNode_t node, trnsciGraph_t *pGraph);

/* Writes graph to path as Graphviz DOT: one vertex per node, labelled with
 * its type and routine and that routine's shape arguments (dimensions,
 * leading dimensions, strides, types, modes), and its edges; a child graph
 * is a cluster. flags: 0. */
trnsciError_t trnsciGraphDebugDotPrint(trnsciGraph_t graph, const char *path, unsigned int flags);

/* ---- executable graphs ---- */

/* trnsciGraphInstantiate flag: accepted, and ignored (launches never leave
 * memory allocated by the graph behind: it has no allocation nodes). */
#define trnsciGraphInstantiateFlagAutoFreeOnLaunch 1ULL

/* The daemon validates every node (a bad argument fails here, with the
 * daemon's message naming the node) and prepares what its nodes need. */
trnsciError_t trnsciGraphInstantiate(trnsciGraphExec_t *pGraphExec, trnsciGraph_t graph,
                                     unsigned long long flags);
trnsciError_t trnsciGraphInstantiateWithFlags(trnsciGraphExec_t *pGraphExec, trnsciGraph_t graph,
                                              unsigned long long flags);
/* Queues the graph on stream (asynchronous, as any launch): it starts after
 * stream's earlier work and after this executable graph's previous launch;
 * stream's later work starts after all of it. On a capturing stream the
 * graph is captured as a child graph node. */
trnsciError_t trnsciGraphLaunch(trnsciGraphExec_t graphExec, trnsciStream_t stream);
trnsciError_t trnsciGraphExecDestroy(trnsciGraphExec_t graphExec);

typedef enum trnsciGraphExecUpdateResult {
    trnsciGraphExecUpdateSuccess = 0,
    trnsciGraphExecUpdateError = 1,
    trnsciGraphExecUpdateErrorTopologyChanged = 2,
    trnsciGraphExecUpdateErrorNodeTypeChanged = 3,
    trnsciGraphExecUpdateErrorFunctionChanged = 4,
    trnsciGraphExecUpdateErrorParametersChanged = 5,
    trnsciGraphExecUpdateErrorNotSupported = 6,
} trnsciGraphExecUpdateResult;

typedef struct trnsciGraphExecUpdateResultInfo {
    trnsciGraphExecUpdateResult result;
    trnsciGraphNode_t errorNode;     /* the node of hGraph the update failed at, or NULL */
    trnsciGraphNode_t errorFromNode; /* NULL */
} trnsciGraphExecUpdateResultInfo;

/* Gives hGraphExec hGraph's operands and scalars without instantiating
 * again: hGraph must have the topology, node types and each node's routine,
 * shapes, types and modes of the graph hGraphExec was made from; else
 * trnsciErrorGraphExecUpdateFailure, with why in resultInfo (may be NULL),
 * and hGraphExec is unchanged. Launches already queued keep their operands. */
trnsciError_t trnsciGraphExecUpdate(trnsciGraphExec_t hGraphExec, trnsciGraph_t hGraph,
                                    trnsciGraphExecUpdateResultInfo *resultInfo);

/* The daemon's graph cache (a trnsci extension; `trnsci plans` lists it):
 * every graph structure instantiated, by any process. */
typedef struct trnsciGraphCacheInfo {
    char key[96];          /* structure key: routines, shapes, types, modes, edges */
    unsigned nodes, lanes; /* lanes: streams its nodes run on */
    uint64_t hits;         /* instantiations that found it */
    double prepareSeconds; /* what its first instantiation cost */
    unsigned plans;        /* plans (FFT, contraction) its nodes use */
    uint64_t idleMs;
} trnsciGraphCacheInfo;

/* Fills up to capacity entries (most recently used first) and sets *count
 * to the number of graphs cached. */
trnsciError_t trnsciDaemonGetGraphs(const char *address, trnsciGraphCacheInfo *graphs, int capacity,
                                    int *count);

#ifdef __cplusplus
}
#endif

#endif
