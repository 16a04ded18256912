/*
 * graph.c — graphs (trnsci_graph.h): graph objects and their nodes, the DOT
 * print, and executable graphs (instantiate, launch, update, destroy).
 *
 * Instantiation flattens the graph (child graphs inlined, nodes in an order
 * where every dependency comes first) into one GraphRequest: the daemon
 * validates and prepares it and keeps it under a process-wide exec id. A
 * launch is a Submit of a GraphLaunchOp, asynchronous like any launch. An
 * update sends the new graph's flattened nodes under the same id; the daemon
 * checks the structure is the same.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/graph.h"
#include "ops/op.h"

struct trnsciGraphExec_st {
    uint32_t id;         /* process-wide, never 0 */
    uint64_t generation; /* the session it lives in */
    trnsciGraph_t graph; /* a copy of what it was made from (a launch under capture) */
};

static atomic_uint next_exec_id = 1;

/* ---- graphs and nodes ------------------------------------------------------------ */

static void node_free(trnsciGraphNode_t n) {
    if (n->op)
        trnsci__v1__op__free_unpacked(n->op, NULL);
    if (n->child)
        trn_graph_free(n->child);
    free(n->deps);
    free(n);
}

void trn_graph_free(trnsciGraph_t g) {
    for (size_t i = 0; i < g->n; i++)
        node_free(g->nodes[i]);
    free(g->nodes);
    free(g);
}

/* Appends x to the array v (n used, cap allocated) unless it holds it:
 * 0, or -1 when out of memory. Node dependencies and flattening's sets. */
static int u32_add_unique(uint32_t **v, size_t *n, size_t *cap, uint32_t x) {
    for (size_t i = 0; i < *n; i++)
        if ((*v)[i] == x)
            return 0;
    if (*n == *cap) {
        const size_t grown = *cap ? 2 * *cap : 4;
        uint32_t *p = realloc(*v, grown * sizeof(*p));
        if (!p)
            return -1;
        *v = p;
        *cap = grown;
    }
    (*v)[(*n)++] = x;
    return 0;
}

static int add_dep(trnsciGraphNode_t n, uint32_t dep) {
    return u32_add_unique(&n->deps, &n->ndeps, &n->cap, dep);
}

trnsciError_t trn_graph_add_node(trnsciGraph_t graph, trnsciGraphNodeType type,
                                 const trnsciGraphNode_t *deps, size_t ndeps, const char *fn,
                                 trnsciGraphNode_t *out) {
    if (!graph || (ndeps && !deps))
        return trn_fail(trnsciErrorInvalidValue,
                        "%s: graph is NULL, or pDependencies is NULL with numDependencies > 0", fn);
    for (size_t i = 0; i < ndeps; i++)
        if (!deps[i] || deps[i]->graph != graph)
            return trn_fail(trnsciErrorInvalidValue,
                            "%s: dependency %zu is not a node of this graph", fn, i);
    if (graph->n >= UINT32_MAX)
        return trn_fail(trnsciErrorMemoryAllocation, "%s: the graph has too many nodes", fn);
    trnsciGraphNode_t n = calloc(1, sizeof(*n));
    if (!n)
        goto nomem;
    n->graph = graph;
    n->type = type;
    n->index = (uint32_t)graph->n;
    for (size_t i = 0; i < ndeps; i++)
        if (add_dep(n, deps[i]->index) != 0)
            goto nomem;
    if (graph->n == graph->cap) {
        const size_t cap = graph->cap ? 2 * graph->cap : 16;
        trnsciGraphNode_t *nodes = realloc(graph->nodes, cap * sizeof(*nodes));
        if (!nodes)
            goto nomem;
        graph->nodes = nodes;
        graph->cap = cap;
    }
    graph->nodes[graph->n++] = n;
    *out = n;
    return trnsciSuccess;
nomem:
    if (n)
        node_free(n);
    return trn_fail(trnsciErrorMemoryAllocation, "%s: out of memory", fn);
}

/* A deep copy of op (protobuf-c: packed, then unpacked). */
static Trnsci__V1__Op *op_copy(const Trnsci__V1__Op *op) {
    const size_t len = protobuf_c_message_get_packed_size(&op->base);
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf)
        return NULL;
    protobuf_c_message_pack(&op->base, buf);
    Trnsci__V1__Op *copy = trnsci__v1__op__unpack(NULL, len, buf);
    free(buf);
    return copy;
}

static trnsciGraphNodeType op_node_type(const Trnsci__V1__Op *op) {
    switch (op->kind_case) {
    case TRNSCI__V1__OP__KIND_COPY: return trnsciGraphNodeTypeMemcpy;
    case TRNSCI__V1__OP__KIND_MEMSET: return trnsciGraphNodeTypeMemset;
    default: return trnsciGraphNodeTypeKernel;
    }
}

trnsciError_t trn_graph_add_op(trnsciGraph_t graph, const Trnsci__V1__Op *op,
                               const trnsciGraphNode_t *deps, size_t ndeps, trnsciGraphNode_t *out,
                               const char *fn) {
    Trnsci__V1__Op *copy = op_copy(op);
    if (!copy)
        return trn_fail(trnsciErrorMemoryAllocation, "%s: out of memory", fn);
    trnsciGraphNode_t n;
    const trnsciError_t e = trn_graph_add_node(graph, op_node_type(op), deps, ndeps, fn, &n);
    if (e != trnsciSuccess) {
        trnsci__v1__op__free_unpacked(copy, NULL);
        return e;
    }
    n->op = copy;
    if (out)
        *out = n;
    return trnsciSuccess;
}

trnsciGraph_t trn_graph_clone(trnsciGraph_t g) {
    trnsciGraph_t c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->nodes = calloc(g->n ? g->n : 1, sizeof(*c->nodes));
    if (!c->nodes) {
        free(c);
        return NULL;
    }
    c->cap = g->n ? g->n : 1;
    for (size_t i = 0; i < g->n; i++) {
        const trnsciGraphNode_t src = g->nodes[i];
        trnsciGraphNode_t n = calloc(1, sizeof(*n));
        if (!n)
            goto fail;
        c->nodes[c->n++] = n;
        *n = *src;
        n->graph = c;
        n->op = NULL;
        n->child = NULL;
        n->deps = malloc((src->ndeps ? src->ndeps : 1) * sizeof(uint32_t));
        n->cap = src->ndeps;
        if (!n->deps || (src->op && !(n->op = op_copy(src->op))) ||
            (src->child && !(n->child = trn_graph_clone(src->child))))
            goto fail;
        if (src->ndeps)
            memcpy(n->deps, src->deps, src->ndeps * sizeof(uint32_t));
    }
    return c;
fail:
    trn_graph_free(c);
    return NULL;
}

trnsciError_t trnsciGraphCreate(trnsciGraph_t *pGraph, unsigned int flags) {
    if (!pGraph || flags)
        return trn_fail(trnsciErrorInvalidValue, "trnsciGraphCreate: pGraph is NULL or flags "
                                                 "is not 0");
    *pGraph = calloc(1, sizeof(**pGraph));
    if (!*pGraph)
        return trn_fail(trnsciErrorMemoryAllocation, "trnsciGraphCreate: out of memory");
    return trn_ok();
}

trnsciError_t trnsciGraphDestroy(trnsciGraph_t graph) {
    if (!graph)
        return trn_fail(trnsciErrorInvalidValue, "trnsciGraphDestroy: graph is NULL");
    trn_graph_free(graph);
    return trn_ok();
}

trnsciError_t trnsciGraphClone(trnsciGraph_t *pGraphClone, trnsciGraph_t originalGraph) {
    if (!pGraphClone || !originalGraph)
        return trn_fail(trnsciErrorInvalidValue,
                        "trnsciGraphClone: pGraphClone or originalGraph is NULL");
    *pGraphClone = trn_graph_clone(originalGraph);
    if (!*pGraphClone)
        return trn_fail(trnsciErrorMemoryAllocation, "trnsciGraphClone: out of memory");
    return trn_ok();
}

trnsciError_t trnsciGraphAddEmptyNode(trnsciGraphNode_t *pGraphNode, trnsciGraph_t graph,
                                      const trnsciGraphNode_t *pDependencies,
                                      size_t numDependencies) {
    if (!pGraphNode)
        return trn_fail(trnsciErrorInvalidValue, "trnsciGraphAddEmptyNode: pGraphNode is NULL");
    const trnsciError_t e =
        trn_graph_add_node(graph, trnsciGraphNodeTypeEmpty, pDependencies, numDependencies,
                           "trnsciGraphAddEmptyNode", pGraphNode);
    return e == trnsciSuccess ? trn_ok() : e;
}

trnsciError_t trnsciGraphAddMemcpyNode1D(trnsciGraphNode_t *pGraphNode, trnsciGraph_t graph,
                                         const trnsciGraphNode_t *pDependencies,
                                         size_t numDependencies, void *dst, const void *src,
                                         size_t count, trnsciMemcpyKind kind) {
    static const char fn[] = "trnsciGraphAddMemcpyNode1D";
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    if (!pGraphNode)
        return trn_fail(trnsciErrorInvalidValue, "%s: pGraphNode is NULL", fn);
    if (kind != trnsciMemcpyDeviceToDevice && kind != trnsciMemcpyDefault)
        return trn_fail(trnsciErrorNotSupported,
                        "%s: only device-to-device copies can be graph nodes (kind %d)", fn,
                        (int)kind);
    Trnsci__V1__BufferRef dref, sref;
    if ((e = trn_memory_device_range(c, dst, count, "trnsciGraphAddMemcpyNode1D: dst", &dref)) ||
        (e = trn_memory_device_range(c, src, count, "trnsciGraphAddMemcpyNode1D: src", &sref)))
        return kind == trnsciMemcpyDefault ? trn_retag(trnsciErrorNotSupported) : e;
    Trnsci__V1__CopyOp copy;
    Trnsci__V1__Op op;
    trn_memory_copy_op(&op, &copy, &dref, &sref, count);
    e = trn_graph_add_op(graph, &op, pDependencies, numDependencies, pGraphNode, fn);
    return e == trnsciSuccess ? trn_ok() : e;
}

trnsciError_t trnsciGraphAddMemsetNode(trnsciGraphNode_t *pGraphNode, trnsciGraph_t graph,
                                       const trnsciGraphNode_t *pDependencies,
                                       size_t numDependencies, const trnsciMemsetParams *p) {
    static const char fn[] = "trnsciGraphAddMemsetNode";
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    if (!pGraphNode || !p)
        return trn_fail(trnsciErrorInvalidValue, "%s: pGraphNode or pMemsetParams is NULL", fn);
    const unsigned es = p->elementSize;
    if (es != 1 && es != 2 && es != 4)
        return trn_fail(trnsciErrorInvalidValue, "%s: elementSize %u is not 1, 2 or 4", fn, es);
    const unsigned byte = p->value & 0xffu;
    for (unsigned k = 1; k < es; k++)
        if (((p->value >> (8 * k)) & 0xffu) != byte)
            return trn_fail(trnsciErrorNotSupported,
                            "%s: value 0x%x of %u-byte elements is not one byte repeated (memset "
                            "nodes set bytes)",
                            fn, p->value, es);
    const size_t row = p->width * es;
    if (p->width && row / p->width != es)
        return trn_fail(trnsciErrorInvalidValue, "%s: width * elementSize overflows", fn);
    if (p->height > 1 && p->pitch != row)
        return trn_fail(trnsciErrorNotSupported,
                        "%s: a pitched memset (pitch %zu, row %zu bytes) cannot be a node: only a "
                        "contiguous range",
                        fn, p->pitch, row);
    const size_t h = p->height ? p->height : 1;
    if (row && h > SIZE_MAX / row)
        return trn_fail(trnsciErrorInvalidValue, "%s: the range's size overflows", fn);
    Trnsci__V1__BufferRef ref;
    if ((e = trn_memory_device_range(c, p->dst, row * h, "trnsciGraphAddMemsetNode: dst", &ref)))
        return e;
    Trnsci__V1__MemsetOp m;
    Trnsci__V1__Op op;
    trn_memory_memset_op(&op, &m, &ref, (int)byte, row * h);
    e = trn_graph_add_op(graph, &op, pDependencies, numDependencies, pGraphNode, fn);
    return e == trnsciSuccess ? trn_ok() : e;
}

static trnsciError_t add_event_node(trnsciGraphNode_t *out, trnsciGraph_t graph,
                                    const trnsciGraphNode_t *deps, size_t ndeps,
                                    trnsciEvent_t event, trnsciGraphNodeType type, const char *fn) {
    if (!out || !event)
        return trn_fail(trnsciErrorInvalidValue, "%s: pGraphNode or event is NULL", fn);
    const trnsciError_t e = trn_graph_add_node(graph, type, deps, ndeps, fn, out);
    if (e != trnsciSuccess)
        return e;
    (*out)->event_id = event->id;
    return trn_ok();
}

trnsciError_t trnsciGraphAddEventRecordNode(trnsciGraphNode_t *pGraphNode, trnsciGraph_t graph,
                                            const trnsciGraphNode_t *pDependencies,
                                            size_t numDependencies, trnsciEvent_t event) {
    return add_event_node(pGraphNode, graph, pDependencies, numDependencies, event,
                          trnsciGraphNodeTypeEventRecord, "trnsciGraphAddEventRecordNode");
}

trnsciError_t trnsciGraphAddEventWaitNode(trnsciGraphNode_t *pGraphNode, trnsciGraph_t graph,
                                          const trnsciGraphNode_t *pDependencies,
                                          size_t numDependencies, trnsciEvent_t event) {
    return add_event_node(pGraphNode, graph, pDependencies, numDependencies, event,
                          trnsciGraphNodeTypeWaitEvent, "trnsciGraphAddEventWaitNode");
}

trnsciError_t trnsciGraphAddChildGraphNode(trnsciGraphNode_t *pGraphNode, trnsciGraph_t graph,
                                           const trnsciGraphNode_t *pDependencies,
                                           size_t numDependencies, trnsciGraph_t childGraph) {
    static const char fn[] = "trnsciGraphAddChildGraphNode";
    if (!pGraphNode || !childGraph || childGraph == graph)
        return trn_fail(trnsciErrorInvalidValue,
                        "%s: pGraphNode or childGraph is NULL, or childGraph is graph", fn);
    trnsciGraph_t copy = trn_graph_clone(childGraph);
    if (!copy)
        return trn_fail(trnsciErrorMemoryAllocation, "%s: out of memory", fn);
    const trnsciError_t e = trn_graph_add_node(graph, trnsciGraphNodeTypeGraph, pDependencies,
                                               numDependencies, fn, pGraphNode);
    if (e != trnsciSuccess) {
        trn_graph_free(copy);
        return e;
    }
    (*pGraphNode)->child = copy;
    return trn_ok();
}

trnsciError_t trnsciGraphAddDependencies(trnsciGraph_t graph, const trnsciGraphNode_t *from,
                                         const trnsciGraphNode_t *to, size_t numDependencies) {
    if (!graph || (numDependencies && (!from || !to)))
        return trn_fail(trnsciErrorInvalidValue,
                        "trnsciGraphAddDependencies: graph, from or to is NULL");
    for (size_t i = 0; i < numDependencies; i++)
        if (!from[i] || !to[i] || from[i]->graph != graph || to[i]->graph != graph ||
            from[i] == to[i])
            return trn_fail(trnsciErrorInvalidValue,
                            "trnsciGraphAddDependencies: edge %zu does not join two different "
                            "nodes of this graph",
                            i);
    for (size_t i = 0; i < numDependencies; i++)
        if (add_dep(to[i], from[i]->index) != 0)
            return trn_fail(trnsciErrorMemoryAllocation,
                            "trnsciGraphAddDependencies: out of memory");
    return trn_ok();
}

/* ---- queries ------------------------------------------------------------------------- */

/* The nodes of list (n) for which keep() holds, as trnsciGraphGetNodes
 * returns them. */
static trnsciError_t list_nodes(trnsciGraphNode_t const *list, size_t n,
                                int (*keep)(trnsciGraphNode_t), trnsciGraphNode_t *out,
                                size_t *count, const char *fn) {
    if (!count)
        return trn_fail(trnsciErrorInvalidValue, "%s: the count pointer is NULL", fn);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (keep && !keep(list[i]))
            continue;
        if (out && k < *count)
            out[k] = list[i];
        k++;
    }
    if (out && k > *count)
        k = *count;
    *count = k;
    return trn_ok();
}

static int is_root(trnsciGraphNode_t n) {
    return n->ndeps == 0;
}

trnsciError_t trnsciGraphGetNodes(trnsciGraph_t graph, trnsciGraphNode_t *nodes, size_t *numNodes) {
    if (!graph)
        return trn_fail(trnsciErrorInvalidValue, "trnsciGraphGetNodes: graph is NULL");
    return list_nodes(graph->nodes, graph->n, NULL, nodes, numNodes, "trnsciGraphGetNodes");
}

trnsciError_t trnsciGraphGetRootNodes(trnsciGraph_t graph, trnsciGraphNode_t *pRootNodes,
                                      size_t *pNumRootNodes) {
    if (!graph)
        return trn_fail(trnsciErrorInvalidValue, "trnsciGraphGetRootNodes: graph is NULL");
    return list_nodes(graph->nodes, graph->n, is_root, pRootNodes, pNumRootNodes,
                      "trnsciGraphGetRootNodes");
}

trnsciError_t trnsciGraphNodeGetType(trnsciGraphNode_t node, trnsciGraphNodeType *pType) {
    if (!node || !pType)
        return trn_fail(trnsciErrorInvalidValue, "trnsciGraphNodeGetType: node or pType is NULL");
    *pType = node->type;
    return trn_ok();
}

trnsciError_t trnsciGraphNodeGetDependencies(trnsciGraphNode_t node,
                                             trnsciGraphNode_t *pDependencies,
                                             size_t *pNumDependencies) {
    if (!node || !pNumDependencies)
        return trn_fail(trnsciErrorInvalidValue,
                        "trnsciGraphNodeGetDependencies: node or pNumDependencies is NULL");
    size_t k = 0;
    for (size_t i = 0; i < node->ndeps; i++, k++)
        if (pDependencies && k < *pNumDependencies)
            pDependencies[k] = node->graph->nodes[node->deps[i]];
    *pNumDependencies = pDependencies && k > *pNumDependencies ? *pNumDependencies : k;
    return trn_ok();
}

trnsciError_t trnsciGraphChildGraphNodeGetGraph(trnsciGraphNode_t node, trnsciGraph_t *pGraph) {
    if (!node || !pGraph || node->type != trnsciGraphNodeTypeGraph)
        return trn_fail(trnsciErrorInvalidValue,
                        "trnsciGraphChildGraphNodeGetGraph: node is not a child graph node, or "
                        "pGraph is NULL");
    *pGraph = node->child;
    return trn_ok();
}

/* ---- topological order and flattening ----------------------------------------------- */

/* g's node indices with every dependency before its dependants (Kahn), or
 * NULL: out of memory (*cycle 0) or a cycle (*cycle 1). */
static uint32_t *topo_order(trnsciGraph_t g, int *cycle) {
    *cycle = 0;
    const size_t n = g->n;
    size_t nedges = 0;
    for (size_t i = 0; i < n; i++)
        nedges += g->nodes[i]->ndeps;
    uint32_t *order = malloc((n ? n : 1) * sizeof(uint32_t));
    uint32_t *indeg = calloc(n ? n : 1, sizeof(uint32_t));
    uint32_t *start = calloc(n + 1, sizeof(uint32_t));
    uint32_t *out = malloc((nedges ? nedges : 1) * sizeof(uint32_t));
    if (!order || !indeg || !start || !out)
        goto fail;
    for (size_t i = 0; i < n; i++) {
        indeg[i] = (uint32_t)g->nodes[i]->ndeps;
        for (size_t k = 0; k < g->nodes[i]->ndeps; k++)
            start[g->nodes[i]->deps[k] + 1]++;
    }
    for (size_t i = 0; i < n; i++)
        start[i + 1] += start[i];
    uint32_t *fill = calloc(n ? n : 1, sizeof(uint32_t));
    if (!fill)
        goto fail;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < g->nodes[i]->ndeps; k++) {
            const uint32_t d = g->nodes[i]->deps[k];
            out[start[d] + fill[d]++] = (uint32_t)i;
        }
    free(fill);
    size_t head = 0, tail = 0;
    for (size_t i = 0; i < n; i++)
        if (!indeg[i])
            order[tail++] = (uint32_t)i;
    while (head < tail) {
        const uint32_t v = order[head++];
        for (uint32_t k = start[v]; k < start[v + 1]; k++)
            if (--indeg[out[k]] == 0)
                order[tail++] = out[k];
    }
    if (tail != n) {
        *cycle = 1;
        goto fail;
    }
    free(indeg);
    free(start);
    free(out);
    return order;
fail:
    free(order);
    free(indeg);
    free(start);
    free(out);
    return NULL;
}

/* A set of flat node indices. */
typedef struct idset {
    uint32_t *v;
    size_t n, cap;
} idset;

static int idset_add(idset *s, uint32_t x) {
    return u32_add_unique(&s->v, &s->n, &s->cap, x);
}

static int idset_union(idset *s, const idset *t) {
    for (size_t i = 0; i < t->n; i++)
        if (idset_add(s, t->v[i]) != 0)
            return -1;
    return 0;
}

/* The flattened graph: wire nodes in order, and the graph node each came from. */
typedef struct flat {
    Trnsci__V1__GraphNode **nodes;
    trnsciGraphNode_t *origin;
    size_t n, cap;
} flat;

static void flat_free(flat *f) {
    for (size_t i = 0; i < f->n; i++) {
        free(f->nodes[i]->deps);
        free(f->nodes[i]);
    }
    free(f->nodes);
    free(f->origin);
}

/* Appends node src (not a child graph) after deps; its flat index in *idx. */
static int flat_add(flat *f, trnsciGraphNode_t src, const idset *deps, uint32_t *idx) {
    if (f->n == f->cap) {
        const size_t cap = f->cap ? 2 * f->cap : 64;
        Trnsci__V1__GraphNode **nodes = realloc(f->nodes, cap * sizeof(*nodes));
        if (!nodes)
            return -1;
        f->nodes = nodes;
        trnsciGraphNode_t *origin = realloc(f->origin, cap * sizeof(*origin));
        if (!origin)
            return -1;
        f->origin = origin;
        f->cap = cap;
    }
    Trnsci__V1__GraphNode *w = malloc(sizeof(*w));
    if (!w)
        return -1;
    trnsci__v1__graph_node__init(w);
    w->deps = malloc((deps->n ? deps->n : 1) * sizeof(uint32_t));
    if (!w->deps) {
        free(w);
        return -1;
    }
    if (deps->n)
        memcpy(w->deps, deps->v, deps->n * sizeof(uint32_t));
    w->n_deps = deps->n;
    switch (src->type) {
    case trnsciGraphNodeTypeEventRecord:
        w->kind_case = TRNSCI__V1__GRAPH_NODE__KIND_EVENT_RECORD;
        w->event_record = src->event_id;
        break;
    case trnsciGraphNodeTypeWaitEvent:
        w->kind_case = TRNSCI__V1__GRAPH_NODE__KIND_EVENT_WAIT;
        w->event_wait = src->event_id;
        break;
    case trnsciGraphNodeTypeEmpty:
        w->kind_case = TRNSCI__V1__GRAPH_NODE__KIND_EMPTY;
        w->empty = 1;
        break;
    default:
        w->kind_case = TRNSCI__V1__GRAPH_NODE__KIND_OP;
        w->op = src->op;
        break;
    }
    *idx = (uint32_t)f->n;
    f->origin[f->n] = src;
    f->nodes[f->n++] = w;
    return 0;
}

/* Flattens g after the flat nodes `after`; its exit (the flat nodes
 * whatever follows g must wait for) into *exit. 0, -1 out of memory, -2 a
 * cycle. */
static int flatten(trnsciGraph_t g, const idset *after, flat *f, idset *exit) {
    int cycle;
    uint32_t *order = topo_order(g, &cycle);
    if (!order)
        return cycle ? -2 : -1;
    idset *node_exit = calloc(g->n ? g->n : 1, sizeof(*node_exit));
    uint8_t *followed = calloc(g->n ? g->n : 1, 1);
    int rc = node_exit && followed ? 0 : -1;
    for (size_t k = 0; rc == 0 && k < g->n; k++) {
        const trnsciGraphNode_t v = g->nodes[order[k]];
        idset deps = {0};
        if (v->ndeps == 0)
            rc = idset_union(&deps, after);
        for (size_t d = 0; rc == 0 && d < v->ndeps; d++) {
            rc = idset_union(&deps, &node_exit[v->deps[d]]);
            followed[v->deps[d]] = 1;
        }
        if (rc == 0 && v->type == trnsciGraphNodeTypeGraph) {
            rc = flatten(v->child, &deps, f, &node_exit[order[k]]);
        } else if (rc == 0) {
            uint32_t idx;
            rc = flat_add(f, v, &deps, &idx);
            if (rc == 0)
                rc = idset_add(&node_exit[order[k]], idx);
        }
        free(deps.v);
    }
    /* The graph's exit: its leaves' exits (an empty graph passes `after` on). */
    if (rc == 0 && g->n == 0)
        rc = idset_union(exit, after);
    for (size_t i = 0; rc == 0 && i < g->n; i++)
        if (!followed[i])
            rc = idset_union(exit, &node_exit[i]);
    for (size_t i = 0; node_exit && i < g->n; i++)
        free(node_exit[i].v);
    free(node_exit);
    free(followed);
    free(order);
    return rc;
}

/* The flattened graph, or an error recorded (fn names the call). */
static trnsciError_t flatten_graph(trnsciGraph_t g, flat *f, const char *fn) {
    memset(f, 0, sizeof(*f));
    idset none = {0}, exit = {0};
    const int rc = flatten(g, &none, f, &exit);
    free(exit.v);
    if (rc == 0 && f->n > UINT32_MAX)
        return trn_fail(trnsciErrorInvalidValue, "%s: the graph has too many nodes", fn);
    if (rc == 0)
        return trnsciSuccess;
    flat_free(f);
    memset(f, 0, sizeof(*f));
    return rc == -2 ? trn_fail(trnsciErrorInvalidValue, "%s: the graph has a cycle", fn)
                    : trn_fail(trnsciErrorMemoryAllocation, "%s: out of memory", fn);
}

/* ---- executable graphs ------------------------------------------------------------------ */

trnsciGraph_t trn_graph_exec_graph(trnsciGraphExec_t x) {
    return x->graph;
}

static trnsciError_t graph_call(trn_client *c, Trnsci__V1__GraphAction action, uint32_t id,
                                const flat *f, Trnsci__V1__GraphReply **reply) {
    Trnsci__V1__GraphRequest req = TRNSCI__V1__GRAPH_REQUEST__INIT;
    req.session_id = c->session_id;
    req.action = action;
    req.exec_id = id;
    if (f) {
        req.nodes = f->nodes;
        req.n_nodes = f->n;
    }
    return trn_client_call(c, TRN_WIRE_GRAPH, &req.base,
                           reply ? &trnsci__v1__graph_reply__descriptor : NULL,
                           (ProtobufCMessage **)reply, TRN_CALL_TIMEOUT_MS);
}

trnsciError_t trnsciGraphInstantiateWithFlags(trnsciGraphExec_t *pGraphExec, trnsciGraph_t graph,
                                              unsigned long long flags) {
    static const char fn[] = "trnsciGraphInstantiate";
    if (!pGraphExec || !graph)
        return trn_fail(trnsciErrorInvalidValue, "%s: pGraphExec or graph is NULL", fn);
    if (flags & ~trnsciGraphInstantiateFlagAutoFreeOnLaunch)
        return trn_fail(trnsciErrorInvalidValue, "%s: unknown flags 0x%llx", fn, flags);
    *pGraphExec = NULL;
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    if ((e = trn_client_need_minor(c, 11, "graphs")))
        return e;
    trnsciGraphExec_t x = calloc(1, sizeof(*x));
    if (!x || !(x->graph = trn_graph_clone(graph))) {
        free(x);
        return trn_fail(trnsciErrorMemoryAllocation, "%s: out of memory", fn);
    }
    flat f;
    if ((e = flatten_graph(graph, &f, fn))) {
        trn_graph_free(x->graph);
        free(x);
        return e;
    }
    x->id = atomic_fetch_add(&next_exec_id, 1);
    x->generation = c->generation;
    Trnsci__V1__GraphReply *r = NULL;
    e = graph_call(c, TRNSCI__V1__GRAPH_ACTION__GRAPH_INSTANTIATE, x->id, &f, &r);
    flat_free(&f);
    if (e != trnsciSuccess) {
        trn_graph_free(x->graph);
        free(x);
        return e;
    }
    trnsci__v1__graph_reply__free_unpacked(r, NULL);
    *pGraphExec = x;
    return trn_ok();
}

trnsciError_t trnsciGraphInstantiate(trnsciGraphExec_t *pGraphExec, trnsciGraph_t graph,
                                     unsigned long long flags) {
    return trnsciGraphInstantiateWithFlags(pGraphExec, graph, flags);
}

/* c, checking x belongs to its session; NULL with the error recorded. */
static trn_client *exec_client(trnsciGraphExec_t x, const char *fn, trnsciError_t *e) {
    trn_client *c = trn_client_get(e);
    if (!c)
        return NULL;
    if (!x || x->generation != c->generation) {
        *e =
            trn_fail(trnsciErrorInvalidResourceHandle,
                     "%s: the executable graph is NULL or belongs to a session that was reset", fn);
        return NULL;
    }
    return c;
}

trnsciError_t trnsciGraphLaunch(trnsciGraphExec_t graphExec, trnsciStream_t stream) {
    trnsciError_t e;
    trn_client *c = exec_client(graphExec, "trnsciGraphLaunch", &e);
    if (!c)
        return e;
    if (trn_capture_active(c, stream))
        return trn_capture_graph(c, stream, graphExec);
    Trnsci__V1__GraphLaunchOp g = TRNSCI__V1__GRAPH_LAUNCH_OP__INIT;
    g.exec_id = graphExec->id;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_GRAPH_LAUNCH;
    op.graph_launch = &g;
    e = trn_client_submit(c, stream, &op);
    return e == trnsciSuccess ? trn_ok() : e;
}

trnsciError_t trnsciGraphExecDestroy(trnsciGraphExec_t graphExec) {
    if (!graphExec)
        return trn_fail(trnsciErrorInvalidValue, "trnsciGraphExecDestroy: graphExec is NULL");
    trn_client *c = trn_client_peek();
    trnsciError_t e = trnsciSuccess;
    /* A reset session took its graphs with it. */
    if (c && c->generation == graphExec->generation)
        e = graph_call(c, TRNSCI__V1__GRAPH_ACTION__GRAPH_DESTROY, graphExec->id, NULL, NULL);
    trn_graph_free(graphExec->graph);
    free(graphExec);
    return e == trnsciSuccess ? trn_ok() : e;
}

trnsciError_t trnsciGraphExecUpdate(trnsciGraphExec_t hGraphExec, trnsciGraph_t hGraph,
                                    trnsciGraphExecUpdateResultInfo *resultInfo) {
    static const char fn[] = "trnsciGraphExecUpdate";
    trnsciError_t e;
    if (resultInfo)
        memset(resultInfo, 0, sizeof(*resultInfo));
    trn_client *c = exec_client(hGraphExec, fn, &e);
    if (!c)
        return e;
    if (!hGraph)
        return trn_fail(trnsciErrorInvalidValue, "%s: hGraph is NULL", fn);
    trnsciGraph_t copy = trn_graph_clone(hGraph);
    if (!copy)
        return trn_fail(trnsciErrorMemoryAllocation, "%s: out of memory", fn);
    flat f;
    if ((e = flatten_graph(hGraph, &f, fn))) {
        trn_graph_free(copy);
        return e;
    }
    Trnsci__V1__GraphReply *r = NULL;
    e = graph_call(c, TRNSCI__V1__GRAPH_ACTION__GRAPH_UPDATE, hGraphExec->id, &f, &r);
    if (e == trnsciSuccess && r->update_result != 0) {
        const trnsciGraphNode_t at = r->error_node < f.n ? f.origin[r->error_node] : NULL;
        if (resultInfo) {
            resultInfo->result = (trnsciGraphExecUpdateResult)r->update_result;
            resultInfo->errorNode = at;
        }
        e = trn_fail(
            trnsciErrorGraphExecUpdateFailure, "%s: node %u of the new graph %s", fn, r->error_node,
            r->update_result == TRNSCI__V1__GRAPH_UPDATE_RESULT__GRAPH_UPDATE_TOPOLOGY_CHANGED
                ? "changes the topology (node count or dependencies)"
            : r->update_result == TRNSCI__V1__GRAPH_UPDATE_RESULT__GRAPH_UPDATE_NODE_TYPE_CHANGED
                ? "changes a node's type or routine"
                : "changes a shape, type or mode (only operands and scalars may)");
    } else if (e != trnsciSuccess && resultInfo) {
        resultInfo->result = trnsciGraphExecUpdateError;
    }
    if (r)
        trnsci__v1__graph_reply__free_unpacked(r, NULL);
    flat_free(&f);
    if (e != trnsciSuccess) {
        trn_graph_free(copy);
        return e;
    }
    trn_graph_free(hGraphExec->graph);
    hGraphExec->graph = copy;
    return trn_ok();
}
