/*
 * service_graph.c — executable graphs: the Graph RPC (instantiate, update,
 * destroy) and the Submit of a GraphLaunchOp.
 *
 * Instantiation validates every node once (the ops layer's validators, as a
 * Submit's), takes the references its ops need (buffers, plans: their
 * builds start now), plans the lanes its launches use
 * (scheduler/graph_lanes.h), and records its structure in the graph cache.
 * A launch then validates nothing: it copies each node's descriptor into a
 * queued op on its lane, in node order, with the fences the lane plan asks
 * for, and wakes the workers once. Nodes report no completion; an error is
 * kept for the launching stream like any launched op's, naming the node.
 *
 * Lifetimes. The exec (the session's graph map holds one reference, each
 * version one) owns the topology, the lane plan and the lanes' streams. A
 * version (trn_graph_body) owns the nodes' descriptors and references; each
 * queued op of a launch holds a reference to the version it was launched
 * from, so an update (a new version) or a destroy never pulls operands from
 * under a launch still running. An exec's launches run one after another,
 * as CUDA's do: each waits for the fence the previous one signalled last.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/graph_key.h"
#include "daemon/log.h"
#include "daemon/service_internal.h"
#include "scheduler/graph_cache.h"
#include "scheduler/graph_lanes.h"

/* Nodes one graph may have. */
#define MAX_GRAPH_NODES (1u << 20)

typedef enum node_kind { NODE_OP, NODE_RECORD, NODE_WAIT, NODE_EMPTY } node_kind;

typedef struct graph_node {
    node_kind kind;
    uint32_t event_id;   /* NODE_RECORD, NODE_WAIT */
    uint64_t shape_hash; /* kind and structure (graph_key.h): what an update must keep */
    trn_op_desc desc;    /* NODE_OP; desc.kmsg points at kmsg */
    trn_op_refs refs;    /* NODE_OP: its buffers and plan */
    trn_kmsg kmsg;       /* what its kernel said last time it ran */
} graph_node;

/* A run of op nodes on one lane with no fence between them: one sequence
 * op of the scheduler (sched.h, trn_sched_op.steps) per launch. */
typedef struct segment {
    uint32_t head;  /* its first node */
    uint32_t first; /* its first step in a version's steps[] */
    uint32_t count;
} segment;

typedef struct graph_exec graph_exec;

/* One version of an exec's nodes (instantiate, then each update). */
typedef struct trn_graph_body {
    atomic_uint refs;
    graph_exec *exec; /* a reference */
    uint32_t n;
    graph_node *nodes;
    trn_sched_step *steps; /* the nodes' descriptors, segment by segment */
    uint32_t *step_node;   /* the node of each step */
    /* Per segment: the plan of its steps as one program (sched.h,
     * together_plan), a reference; NULL when they do not form one. */
    struct trn_plan_entry **seq_plan;
    uint32_t nseq_plan;
    trn_session *session; /* a reference: its quota is charged `charged` bytes */
    uint64_t charged;
} trn_graph_body;

struct graph_exec {
    trn_session_graph base; /* the session's map holds it as this */
    atomic_uint refs;
    trn_service *svc;
    trn_session *session; /* not a reference: the map's entry goes before it does */
    uint32_t id;
    uint32_t n;
    uint32_t *dep_start, *deps; /* the topology (graph_lanes.h) */
    trn_graph_lanes lanes;
    segment *segs;
    uint32_t nsegs, nsteps;
    uint32_t *seg_of;                            /* per node: its segment (op nodes only) */
    trn_sched_stream *lane[TRN_GRAPH_MAX_LANES]; /* [0] unused: the launching stream */
    pthread_mutex_t lock;                        /* guards body, last_done; serialises launches */
    trn_graph_body *body;
    trn_sched_fence *last_done; /* signalled when the latest launch has finished */
    char key[TRN_GRAPH_KEY_LEN];
};

/* ---- lifetimes ---------------------------------------------------------------- */

static void exec_put(graph_exec *x) {
    if (atomic_fetch_sub(&x->refs, 1) != 1)
        return;
    trn_sched *sched = x->svc->sched;
    for (uint32_t l = 1; l < x->lanes.nlanes; l++)
        if (x->lane[l])
            trn_sched_stream_release(sched, x->lane[l]);
    if (x->last_done)
        trn_sched_fence_release(sched, x->last_done);
    trn_graph_lanes_free(&x->lanes);
    free(x->segs);
    free(x->seg_of);
    free(x->dep_start);
    free(x->deps);
    pthread_mutex_destroy(&x->lock);
    free(x);
}

static void body_free(trn_graph_body *b) {
    for (uint32_t i = 0; i < b->n; i++)
        if (b->nodes[i].kind == NODE_OP)
            trn_op_refs_release(&b->nodes[i].refs);
    for (uint32_t k = 0; k < b->nseq_plan; k++)
        if (b->seq_plan[k])
            trn_plan_entry_release(b->seq_plan[k]);
    free(b->seq_plan);
    free(b->nodes);
    free(b->steps);
    free(b->step_node);
    if (b->session) {
        trn_session_credit(b->session, b->charged);
        trn_session_unref(b->session);
    }
    if (b->exec)
        exec_put(b->exec);
    free(b);
}

uint32_t trn_service_graph_node(const trn_service_op *op) {
    if (!op->sop.steps)
        return op->graph_node - 1;
    return op->graph->step_node[(op->sop.steps - op->graph->steps) + op->sop.stage];
}

void trn_service_graph_put(trn_graph_body *b) {
    if (atomic_fetch_sub(&b->refs, 1) == 1)
        body_free(b);
}

/* Drops the session map's reference to x, and its current version: with
 * cancel (the session is closing) its lanes' queued work is cancelled too
 * (what is running finishes); without (GRAPH_DESTROY), launches already
 * queued run to the end, as CUDA's do. */
static void exec_release(graph_exec *x, int cancel) {
    for (uint32_t l = 1; cancel && l < x->lanes.nlanes; l++)
        if (x->lane[l])
            trn_sched_stream_cancel(x->svc->sched, x->lane[l]);
    pthread_mutex_lock(&x->lock);
    trn_graph_body *b = x->body;
    x->body = NULL;
    pthread_mutex_unlock(&x->lock);
    if (b)
        trn_service_graph_put(b);
    exec_put(x);
}

static void exec_close(trn_session_graph *g) {
    exec_release((graph_exec *)g, 1);
}

/* ---- building ------------------------------------------------------------------- */

static double seconds_since(const struct timespec *t0) {
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) * 1e-9;
}

static const char *node_kind_name(const Trnsci__V1__GraphNode *w) {
    switch (w->kind_case) {
    case TRNSCI__V1__GRAPH_NODE__KIND_OP: {
        const trn_op_info *k = w->op ? trn_op_info_of((int)w->op->kind_case) : NULL;
        return k ? k->title : "op";
    }
    case TRNSCI__V1__GRAPH_NODE__KIND_EVENT_RECORD: return "event record";
    case TRNSCI__V1__GRAPH_NODE__KIND_EVENT_WAIT: return "event wait";
    case TRNSCI__V1__GRAPH_NODE__KIND_EMPTY: return "empty";
    default: return "node";
    }
}

/* Node i of the request into *out (validated against the session). */
static trn_wire_code build_node(trn_session *s, const Trnsci__V1__GraphNode *w, uint32_t i,
                                graph_node *out, char *err, size_t errlen) {
    char why[TRN_SERVICE_ERRLEN];
    trn_wire_code rc = TRN_WIRE_INVALID_ARGUMENT;
    uint64_t h = trn_graph_hash_bytes(TRN_GRAPH_HASH_INIT, &w->kind_case, sizeof(w->kind_case));
    switch (w->kind_case) {
    case TRNSCI__V1__GRAPH_NODE__KIND_OP:
        if (!w->op || !trn_op_info_of((int)w->op->kind_case)) {
            snprintf(why, sizeof(why),
                     "its op is not a kernel, copy or memset (events are event_record and "
                     "event_wait nodes; stage-outs and graph launches cannot be nodes)");
            break;
        }
        rc = trn_validate_op(s, w->op, &out->desc, &out->refs, why, sizeof(why));
        if (rc != TRN_WIRE_OK)
            break;
        out->kind = NODE_OP;
        out->desc.kmsg = &out->kmsg; /* the node never moves */
        h = trn_graph_hash_op(h, w->op);
        if (out->refs.plan) {
            const char *key = trn_plan_entry_key(out->refs.plan);
            h = trn_graph_hash_bytes(h, key, strlen(key));
        }
        break;
    case TRNSCI__V1__GRAPH_NODE__KIND_EVENT_RECORD:
    case TRNSCI__V1__GRAPH_NODE__KIND_EVENT_WAIT:
        out->event_id = w->kind_case == TRNSCI__V1__GRAPH_NODE__KIND_EVENT_RECORD ? w->event_record
                                                                                  : w->event_wait;
        out->kind =
            w->kind_case == TRNSCI__V1__GRAPH_NODE__KIND_EVENT_RECORD ? NODE_RECORD : NODE_WAIT;
        if (out->event_id == 0) {
            snprintf(why, sizeof(why), "event id 0 is not valid (ids start at 1)");
            break;
        }
        rc = TRN_WIRE_OK;
        break;
    case TRNSCI__V1__GRAPH_NODE__KIND_EMPTY:
        out->kind = NODE_EMPTY;
        rc = TRN_WIRE_OK;
        break;
    default: snprintf(why, sizeof(why), "it has no kind"); break;
    }
    if (rc != TRN_WIRE_OK) {
        snprintf(err, errlen, "graph node %u (%s): %.400s", i, node_kind_name(w), why);
        return rc;
    }
    out->shape_hash = h;
    return TRN_WIRE_OK;
}

static void nodes_free(graph_node *nodes, uint32_t n) {
    for (uint32_t i = 0; i < n; i++)
        if (nodes[i].kind == NODE_OP)
            trn_op_refs_release(&nodes[i].refs);
    free(nodes);
}

/* Every node of the request, validated: a new version (no exec yet), or
 * NULL with err written. */
static trn_graph_body *build_body(trn_session *s, const Trnsci__V1__GraphRequest *req,
                                  trn_wire_code *rc, char *err, size_t errlen) {
    const uint32_t n = (uint32_t)req->n_nodes;
    /* The daemon's memory a version takes is the session's, like a buffer's. */
    char what[64];
    snprintf(what, sizeof(what), "a graph of %u nodes", n);
    const uint64_t bytes =
        sizeof(trn_graph_body) +
        (uint64_t)n * (sizeof(graph_node) + sizeof(trn_sched_step) + sizeof(uint32_t));
    if ((*rc = trn_session_charge(s, bytes, what, err, errlen)) != TRN_WIRE_OK)
        return NULL;
    trn_graph_body *b = calloc(1, sizeof(*b));
    graph_node *nodes = b ? calloc(n ? n : 1, sizeof(*nodes)) : NULL;
    if (!nodes) {
        free(b);
        trn_session_credit(s, bytes);
        *rc = TRN_WIRE_RESOURCE_EXHAUSTED;
        snprintf(err, errlen, "daemon out of memory for a graph of %u nodes", n);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) {
        *rc = build_node(s, req->nodes[i], i, &nodes[i], err, errlen);
        if (*rc != TRN_WIRE_OK) {
            nodes_free(nodes, i);
            free(b);
            trn_session_credit(s, bytes);
            return NULL;
        }
    }
    trn_session_ref(s);
    b->session = s;
    b->charged = bytes;
    atomic_init(&b->refs, 1);
    b->n = n;
    b->nodes = nodes;
    return b;
}

/* The request's edges as a topology (into x), checking each dependency is an
 * earlier node. */
static trn_wire_code build_topology(graph_exec *x, const Trnsci__V1__GraphRequest *req, char *err,
                                    size_t errlen) {
    const uint32_t n = (uint32_t)req->n_nodes;
    size_t ndeps = 0;
    for (uint32_t i = 0; i < n; i++)
        ndeps += req->nodes[i]->n_deps;
    x->dep_start = calloc((size_t)n + 1, sizeof(uint32_t));
    x->deps = calloc(ndeps ? ndeps : 1, sizeof(uint32_t));
    if (!x->dep_start || !x->deps || ndeps > UINT32_MAX) {
        snprintf(err, errlen, "daemon out of memory for a graph's %zu edges", ndeps);
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        x->dep_start[i] = k;
        const Trnsci__V1__GraphNode *w = req->nodes[i];
        for (size_t j = 0; j < w->n_deps; j++) {
            if (w->deps[j] >= i) {
                snprintf(err, errlen,
                         "graph node %u: dependency %u is not an earlier node (nodes are "
                         "listed with every dependency before its dependants)",
                         i, w->deps[j]);
                return TRN_WIRE_INVALID_ARGUMENT;
            }
            x->deps[k++] = w->deps[j];
        }
    }
    x->dep_start[n] = k;
    x->n = n;
    return TRN_WIRE_OK;
}

/* Whether the backend runs nodes[0 .. n) of b as one program. */
static int one_program(const trn_backend *be, const trn_graph_body *b, const uint32_t *nodes,
                       uint32_t n) {
    const trn_op_desc *descs[TRN_SCHED_CHAIN_MAX];
    if (n < 2 || n > TRN_SCHED_CHAIN_MAX)
        return 0;
    for (uint32_t j = 0; j < n; j++)
        descs[j] = &b->nodes[nodes[j]].desc;
    trn_plan_spec spec;
    return be->op_seq_plan(be, descs, (int)n, &spec);
}

/* The nodes of segment k, in order, into nodes (x->segs[k].count of them). */
static void segment_nodes(const graph_exec *x, uint32_t k, uint32_t *nodes) {
    for (uint32_t i = x->segs[k].head, got = 0; got < x->segs[k].count; i++)
        if (x->seg_of[i] == k)
            nodes[got++] = i;
}

/* Segment k's nodes from `from` on, count of them (nodes: all of k's), go
 * to a new segment. */
static void cut_off(graph_exec *x, uint32_t k, const uint32_t *nodes, uint32_t from,
                    uint32_t count) {
    const uint32_t nk = x->nsegs++;
    x->segs[nk] = (segment){.head = nodes[from], .count = count};
    for (uint32_t j = from; j < from + count; j++)
        x->seg_of[nodes[j]] = nk;
    x->segs[k].count -= count;
}

/* Cuts segments so that each run of nodes the backend can run as one
 * program (op_seq_plan, for the first version's operands) is a segment of
 * its own: in a segment that mixes such a run with other nodes, or holds
 * more than one program's worth, every node would run one by one. From
 * each node, the longest run is taken. The cuts hold for every version
 * (an update that changes the operands may leave a segment that no longer
 * forms a program: it runs node by node). */
static int cut_for_programs(graph_exec *x, const trn_graph_body *b) {
    const trn_backend *be = x->svc->backend;
    if (!be->op_seq_plan || !be->run_seq)
        return 0;
    /* A segment's nodes, and where its pieces start (at most one more). */
    uint32_t *nodes = malloc(x->n * sizeof(*nodes) + 1);
    uint32_t *starts = malloc((x->n + 1) * sizeof(*starts));
    if (!nodes || !starts) {
        free(nodes);
        free(starts);
        return -1;
    }
    const uint32_t nsegs = x->nsegs;
    for (uint32_t k = 0; k < nsegs; k++) {
        const uint32_t count = x->segs[k].count;
        if (count < 3)
            continue; /* two nodes: one program or none */
        segment_nodes(x, k, nodes);
        if (one_program(be, b, nodes, count))
            continue;
        /* Pieces [start, end) of k's nodes; k keeps the first. */
        uint32_t piece = 0, pos = 0, nstarts = 0;
        while (pos < count) {
            uint32_t run = count - pos < TRN_SCHED_CHAIN_MAX ? count - pos : TRN_SCHED_CHAIN_MAX;
            while (run >= 2 && !one_program(be, b, nodes + pos, run))
                run--;
            if (run < 2) {
                pos++;
                continue;
            }
            if (pos > piece)
                starts[nstarts++] = piece;
            starts[nstarts++] = pos;
            pos += run;
            piece = pos;
        }
        if (piece < count && nstarts > 0)
            starts[nstarts++] = piece;
        /* Cut from the last piece back, so k keeps the first. */
        for (uint32_t p = nstarts; p-- > 1;) {
            const uint32_t end = p + 1 < nstarts ? starts[p + 1] : count;
            cut_off(x, k, nodes, starts[p], end - starts[p]);
        }
    }
    free(nodes);
    free(starts);
    return 0;
}

/* Splits each lane's op nodes into segments: a segment ends at a node
 * another lane waits for, at a node that is not an op, and before a node
 * that waits for another lane. Node kinds are the structure's (an update
 * keeps them), so the plan holds for every version. */
static int plan_segments(graph_exec *x, const trn_graph_body *b) {
    const trn_graph_lanes *lp = &x->lanes;
    x->segs = calloc(x->n ? x->n : 1, sizeof(*x->segs));
    x->seg_of = calloc(x->n ? x->n : 1, sizeof(*x->seg_of));
    if (!x->segs || !x->seg_of)
        return -1;
    uint32_t open[TRN_GRAPH_MAX_LANES];
    for (int l = 0; l < TRN_GRAPH_MAX_LANES; l++)
        open[l] = UINT32_MAX;
    for (uint32_t i = 0; i < x->n; i++) {
        const uint32_t l = lp->lane[i];
        x->seg_of[i] = UINT32_MAX;
        if (b->nodes[i].kind != NODE_OP) {
            open[l] = UINT32_MAX;
            continue;
        }
        if (open[l] == UINT32_MAX || lp->wait_start[i] != lp->wait_start[i + 1]) {
            open[l] = x->nsegs++;
            x->segs[open[l]].head = i;
        }
        x->seg_of[i] = open[l];
        x->segs[open[l]].count++;
        if (lp->signals[i])
            open[l] = UINT32_MAX;
    }
    if (cut_for_programs(x, b) != 0)
        return -1;
    for (uint32_t k = 0; k < x->nsegs; k++) {
        x->segs[k].first = x->nsteps;
        x->nsteps += x->segs[k].count;
    }
    return 0;
}

/* The version's steps, in the exec's segment order. */
static int make_steps(const graph_exec *x, trn_graph_body *b) {
    b->steps = calloc(x->nsteps ? x->nsteps : 1, sizeof(*b->steps));
    b->step_node = calloc(x->nsteps ? x->nsteps : 1, sizeof(*b->step_node));
    uint32_t *fill = calloc(x->nsegs ? x->nsegs : 1, sizeof(*fill));
    if (!b->steps || !b->step_node || !fill) {
        free(fill);
        return -1;
    }
    for (uint32_t i = 0; i < x->n; i++) {
        const uint32_t k = x->seg_of[i];
        if (k == UINT32_MAX)
            continue;
        const uint32_t at = x->segs[k].first + fill[k]++;
        b->step_node[at] = i;
        trn_sched_step *st = &b->steps[at];
        st->desc = &b->nodes[i].desc;
        st->plan = b->nodes[i].refs.plan;
        st->plan_part = b->nodes[i].refs.plan_part;
    }
    free(fill);
    return 0;
}

/* Offers each segment of two or more steps to the backend as one program
 * (kernels/backend.h, op_seq_plan: a segment of NeuronCore GEMMs as one
 * NEFF) and takes the plan of each it accepts, so that its compile starts
 * now. Each version plans its own: its pointers decide where each operand
 * comes from. A segment without a plan runs step by step; so does one
 * whose plan cannot be had (the reason is logged). */
static void plan_together(const graph_exec *x, trn_graph_body *b) {
    const trn_service *svc = x->svc;
    const trn_backend *be = svc->backend;
    if (!be->op_seq_plan || !be->run_seq || !svc->plans || x->nsegs == 0 ||
        !(b->seq_plan = calloc(x->nsegs, sizeof(*b->seq_plan))))
        return;
    b->nseq_plan = x->nsegs;
    for (uint32_t k = 0; k < x->nsegs; k++) {
        const segment *sg = &x->segs[k];
        if (sg->count < 2 || sg->count > TRN_SCHED_CHAIN_MAX)
            continue;
        const trn_op_desc *descs[TRN_SCHED_CHAIN_MAX];
        for (uint32_t j = 0; j < sg->count; j++)
            descs[j] = b->steps[sg->first + j].desc;
        trn_plan_spec spec;
        if (!be->op_seq_plan(be, descs, (int)sg->count, &spec))
            continue;
        char err[TRN_SERVICE_ERRLEN];
        int hit = 0;
        if (trn_plan_cache_acquire(svc->plans, &spec, 0, &b->seq_plan[k], &hit, err, sizeof(err)) !=
            TRN_PLAN_OK) {
            b->seq_plan[k] = NULL;
            trn_log(TRN_LOG_WARN, "graph %u: nodes %u to %u run one by one: %s", x->id, sg->head,
                    b->step_node[sg->first + sg->count - 1], err);
        }
    }
}

/* The structure key: node count, then each node's kind, structure and
 * edges, hashed twice with different starts. */
static void make_key(graph_exec *x, const trn_graph_body *b) {
    uint64_t h[2] = {TRN_GRAPH_HASH_INIT, TRN_GRAPH_HASH_INIT ^ 0x9e3779b97f4a7c15ull};
    for (int r = 0; r < 2; r++) {
        for (uint32_t i = 0; i < x->n; i++) {
            h[r] = trn_graph_hash_bytes(h[r], &b->nodes[i].shape_hash, sizeof(uint64_t));
            const uint32_t nd = x->dep_start[i + 1] - x->dep_start[i];
            h[r] = trn_graph_hash_bytes(h[r], &nd, sizeof(nd));
            h[r] = trn_graph_hash_bytes(h[r], x->deps + x->dep_start[i], nd * sizeof(uint32_t));
        }
    }
    snprintf(x->key, sizeof(x->key), "graph-%u-%016llx%016llx", x->n, (unsigned long long)h[0],
             (unsigned long long)h[1]);
}

/* The distinct plan keys of the version's nodes (pointers into the plan
 * entries, valid while b holds them); malloc'd, count in *n. */
static const char **plan_keys(const trn_graph_body *b, uint32_t *n) {
    *n = 0;
    const char **keys = calloc(b->n ? b->n : 1, sizeof(char *));
    for (uint32_t i = 0; keys && i < b->n; i++) {
        if (b->nodes[i].kind != NODE_OP || !b->nodes[i].refs.plan)
            continue;
        const char *k = trn_plan_entry_key(b->nodes[i].refs.plan);
        uint32_t j = 0;
        while (j < *n && strcmp(keys[j], k) != 0)
            j++;
        if (j == *n)
            keys[(*n)++] = k;
    }
    return keys;
}

static uint32_t max_lanes(const trn_service *svc) {
    const int w = trn_sched_worker_count(svc->sched);
    return w < 1 ? 1 : w > 8 ? 8 : (uint32_t)w;
}

static void on_instantiate(trn_service *svc, trn_session *s, const Trnsci__V1__GraphRequest *req,
                           trn_call *call) {
    char err[TRN_SERVICE_ERRLEN];
    trn_wire_code rc = TRN_WIRE_OK;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (req->n_nodes > MAX_GRAPH_NODES) {
        snprintf(err, sizeof(err), "a graph may have at most %u nodes; this one has %zu",
                 MAX_GRAPH_NODES, req->n_nodes);
        trn_service_finish_error(call, TRN_WIRE_INVALID_ARGUMENT, err);
        return;
    }
    graph_exec *x = calloc(1, sizeof(*x));
    if (!x) {
        trn_service_finish_error(call, TRN_WIRE_RESOURCE_EXHAUSTED,
                                 "daemon out of memory instantiating a graph");
        return;
    }
    x->base.close = exec_close;
    atomic_init(&x->refs, 1); /* the session map's */
    x->svc = svc;
    x->session = s;
    x->id = req->exec_id;
    pthread_mutex_init(&x->lock, NULL);
    trn_graph_body *b = NULL;
    if ((rc = build_topology(x, req, err, sizeof(err))) != TRN_WIRE_OK)
        goto fail;
    if (!(b = build_body(s, req, &rc, err, sizeof(err))))
        goto fail;
    const trn_graph_topology topo = {x->n, x->dep_start, x->deps};
    if (trn_graph_lanes_plan(&topo, max_lanes(svc), &x->lanes) != 0)
        goto nomem;
    for (uint32_t l = 1; l < x->lanes.nlanes; l++)
        if (!(x->lane[l] = trn_sched_stream_create(svc->sched, s->tenant)))
            goto nomem;
    if (plan_segments(x, b) != 0 || make_steps(x, b) != 0)
        goto nomem;
    plan_together(x, b);
    make_key(x, b);
    x->base.key = x->key;
    atomic_fetch_add(&x->refs, 1); /* the version's */
    b->exec = x;
    x->body = b;
    b = NULL;

    pthread_mutex_lock(&s->lock);
    if (s->closed)
        rc = TRN_WIRE_ABORTED, snprintf(err, sizeof(err), "session is closed");
    else if (trn_idmap_get(&s->graphs, x->id))
        rc = TRN_WIRE_ALREADY_EXISTS,
        snprintf(err, sizeof(err), "graph exec %u already exists in this session", x->id);
    else if (s->graphs.len >= TRN_SESSION_MAX_GRAPHS)
        rc = TRN_WIRE_RESOURCE_EXHAUSTED,
        snprintf(err, sizeof(err),
                 "this session already has the maximum of %u executable graphs; destroy some",
                 TRN_SESSION_MAX_GRAPHS);
    else if (trn_idmap_put(&s->graphs, x->id, &x->base) != 0)
        rc = TRN_WIRE_RESOURCE_EXHAUSTED,
        snprintf(err, sizeof(err), "daemon out of memory instantiating a graph");
    pthread_mutex_unlock(&s->lock);
    if (rc != TRN_WIRE_OK) {
        exec_close(&x->base);
        trn_service_finish_error(call, rc, err);
        return;
    }

    Trnsci__V1__GraphReply r = TRNSCI__V1__GRAPH_REPLY__INIT;
    double prep = seconds_since(&t0);
    uint32_t nplans = 0;
    const char **keys = plan_keys(x->body, &nplans);
    int hit = 0;
    if (svc->graphs && keys)
        hit = trn_graph_cache_note(svc->graphs, x->key, x->n, x->lanes.nlanes, &prep, keys,
                                   nplans) == 1;
    free(keys);
    r.key = x->key;
    r.cache_hit = hit;
    r.prepare_seconds = seconds_since(&t0);
    r.lanes = x->lanes.nlanes;
    trn_log(TRN_LOG_DEBUG, "session #%llu: graph %u instantiated: %s, %u lanes, %s",
            (unsigned long long)s->number, x->id, x->key, x->lanes.nlanes,
            hit ? "cache hit" : "new");
    trn_service_finish_reply(call, &r.base);
    return;

nomem:
    rc = TRN_WIRE_RESOURCE_EXHAUSTED;
    snprintf(err, sizeof(err), "daemon out of memory instantiating a graph of %u nodes", x->n);
fail:
    if (b)
        body_free(b);
    exec_close(&x->base);
    trn_service_finish_error(call, rc, err);
}

/* The session's exec `id` with a reference, or NULL. */
static graph_exec *exec_get(trn_session *s, uint32_t id) {
    pthread_mutex_lock(&s->lock);
    graph_exec *x = (graph_exec *)trn_idmap_get(&s->graphs, id);
    if (x)
        atomic_fetch_add(&x->refs, 1);
    pthread_mutex_unlock(&s->lock);
    return x;
}

/* Why the update cannot keep x's structure (GraphUpdateResult), or 0. */
static int update_mismatch(const graph_exec *x, const trn_graph_body *old,
                           const Trnsci__V1__GraphRequest *req, uint32_t *node) {
    if (req->n_nodes != x->n)
        return TRNSCI__V1__GRAPH_UPDATE_RESULT__GRAPH_UPDATE_TOPOLOGY_CHANGED;
    for (uint32_t i = 0; i < x->n; i++) {
        *node = i;
        const Trnsci__V1__GraphNode *w = req->nodes[i];
        const uint32_t nd = x->dep_start[i + 1] - x->dep_start[i];
        if (w->n_deps != nd)
            return TRNSCI__V1__GRAPH_UPDATE_RESULT__GRAPH_UPDATE_TOPOLOGY_CHANGED;
        for (uint32_t j = 0; j < nd; j++)
            if (w->deps[j] != x->deps[x->dep_start[i] + j])
                return TRNSCI__V1__GRAPH_UPDATE_RESULT__GRAPH_UPDATE_TOPOLOGY_CHANGED;
        const node_kind k = w->kind_case == TRNSCI__V1__GRAPH_NODE__KIND_OP ? NODE_OP
                            : w->kind_case == TRNSCI__V1__GRAPH_NODE__KIND_EVENT_RECORD
                                ? NODE_RECORD
                            : w->kind_case == TRNSCI__V1__GRAPH_NODE__KIND_EVENT_WAIT ? NODE_WAIT
                                                                                      : NODE_EMPTY;
        if (k != old->nodes[i].kind ||
            (k == NODE_OP && (!w->op || (int)w->op->kind_case != (int)old->nodes[i].desc.kind)))
            return TRNSCI__V1__GRAPH_UPDATE_RESULT__GRAPH_UPDATE_NODE_TYPE_CHANGED;
    }
    return 0;
}

static void on_update(trn_session *s, const Trnsci__V1__GraphRequest *req, trn_call *call) {
    char err[TRN_SERVICE_ERRLEN];
    Trnsci__V1__GraphReply r = TRNSCI__V1__GRAPH_REPLY__INIT;
    graph_exec *x = exec_get(s, req->exec_id);
    if (!x) {
        snprintf(err, sizeof(err), "graph exec %u does not exist in this session", req->exec_id);
        trn_service_finish_error(call, TRN_WIRE_NOT_FOUND, err);
        return;
    }
    pthread_mutex_lock(&x->lock);
    trn_graph_body *old = x->body;
    if (old)
        atomic_fetch_add(&old->refs, 1);
    pthread_mutex_unlock(&x->lock);
    trn_wire_code rc = TRN_WIRE_OK;
    trn_graph_body *b = NULL;
    uint32_t node = 0;
    int why = 0;
    if (!old) {
        rc = TRN_WIRE_NOT_FOUND;
        snprintf(err, sizeof(err), "graph exec %u was destroyed", x->id);
    } else if (!(why = update_mismatch(x, old, req, &node)) &&
               (b = build_body(s, req, &rc, err, sizeof(err)))) {
        for (uint32_t i = 0; i < b->n && !why; i++)
            if (b->nodes[i].shape_hash != old->nodes[i].shape_hash) {
                why = TRNSCI__V1__GRAPH_UPDATE_RESULT__GRAPH_UPDATE_PARAMETERS_CHANGED;
                node = i;
            }
    }
    if (old)
        trn_service_graph_put(old);
    if (rc != TRN_WIRE_OK || why) {
        /* A structure that differs is the update's answer, not a failed
         * call: the reply says why and where (cudaGraphExecUpdateResultInfo). */
        if (b)
            body_free(b);
        exec_put(x);
        r.update_result = why;
        r.error_node = node;
        if (rc != TRN_WIRE_OK)
            trn_service_finish_error(call, rc, err);
        else
            trn_service_finish_reply(call, &r.base);
        return;
    }
    if (make_steps(x, b) != 0) {
        body_free(b);
        exec_put(x);
        trn_service_finish_error(call, TRN_WIRE_RESOURCE_EXHAUSTED,
                                 "daemon out of memory updating a graph");
        return;
    }
    plan_together(x, b);
    b->exec = x; /* takes our reference */
    pthread_mutex_lock(&x->lock);
    trn_graph_body *prev = x->body;
    x->body = b;
    pthread_mutex_unlock(&x->lock);
    if (prev)
        trn_service_graph_put(prev);
    trn_service_finish_reply(call, &r.base);
}

static void on_destroy(trn_session *s, const Trnsci__V1__GraphRequest *req, trn_call *call) {
    pthread_mutex_lock(&s->lock);
    trn_session_graph *g = trn_idmap_remove(&s->graphs, req->exec_id);
    pthread_mutex_unlock(&s->lock);
    if (!g) {
        char err[TRN_SERVICE_ERRLEN];
        snprintf(err, sizeof(err), "graph exec %u does not exist in this session", req->exec_id);
        trn_service_finish_error(call, TRN_WIRE_NOT_FOUND, err);
        return;
    }
    exec_release((graph_exec *)g, 0);
    Trnsci__V1__GraphReply r = TRNSCI__V1__GRAPH_REPLY__INIT;
    trn_service_finish_reply(call, &r.base);
}

void trn_service_on_graph(trn_service *svc, const Trnsci__V1__GraphRequest *req, trn_call *call) {
    trn_session *s = trn_service_session(svc, req->session_id, call);
    if (!s)
        return;
    if (req->exec_id == 0) {
        trn_session_unref(s);
        trn_service_finish_error(call, TRN_WIRE_INVALID_ARGUMENT,
                                 "Graph: exec id 0 is not valid (ids start at 1)");
        return;
    }
    switch (req->action) {
    case TRNSCI__V1__GRAPH_ACTION__GRAPH_INSTANTIATE: on_instantiate(svc, s, req, call); break;
    case TRNSCI__V1__GRAPH_ACTION__GRAPH_UPDATE: on_update(s, req, call); break;
    case TRNSCI__V1__GRAPH_ACTION__GRAPH_DESTROY: on_destroy(s, req, call); break;
    default:
        trn_service_finish_error(call, TRN_WIRE_INVALID_ARGUMENT, "Graph: unknown action");
        break;
    }
    trn_session_unref(s);
}

/* ---- launch ------------------------------------------------------------------------ */

/* What one launch is queueing. */
typedef struct launch {
    trn_service *svc;
    trn_session *s;
    graph_exec *x;
    trn_graph_body *b;
    trn_sched_stream *stream; /* lane 0 */
    uint32_t stream_id;
    uint64_t seq;
    uint32_t reserved, queued;    /* ops counted as queued; of them, queued so far */
    trn_sched_fence **node_fence; /* per node that signals (NULL: none do) */
} launch;

static trn_sched_stream *lane_stream(const launch *L, uint32_t lane) {
    return lane ? L->x->lane[lane] : L->stream;
}

/* Queues one op of the launch on lane (op's stage or marker fields set).
 * -1: shutting down. */
static int put(launch *L, uint32_t lane, trn_service_op *op) {
    op->stream_id = L->stream_id;
    op->seq = L->seq;
    op->sop.defer_wake = 1;
    op->graph_exec = L->x->id;
    L->queued++;
    return trn_service_queue_reserved(L->svc, L->s, lane_stream(L, lane), op);
}

/* A marker on lane that signals and/or waits for a fence. */
static int put_marker(launch *L, uint32_t lane, trn_sched_fence *signal, trn_sched_fence *wait) {
    trn_service_op *op = trn_service_op_new(L->svc);
    if (!op)
        return -1;
    op->sop.is_marker = 1;
    op->sop.signal = signal;
    op->sop.wait = wait;
    return put(L, lane, op);
}

static int put_node(launch *L, uint32_t i) {
    const graph_node *nd = &L->b->nodes[i];
    const uint32_t lane = L->x->lanes.lane[i];
    const trn_graph_lanes *lp = &L->x->lanes;
    for (uint32_t k = lp->wait_start[i]; k < lp->wait_start[i + 1]; k++)
        if (put_marker(L, lane, NULL, L->node_fence[lp->waits[k]]) != 0)
            return -1;
    trn_sched_fence *rec = NULL, *wait = NULL;
    int rc = 0;
    switch (nd->kind) {
    case NODE_OP: {
        /* Its segment's head queues the whole segment, as one op. */
        const segment *sg = &L->x->segs[L->x->seg_of[i]];
        if (sg->head != i)
            break;
        trn_service_op *op = trn_service_op_new(L->svc);
        if (!op)
            return -1;
        op->sop.steps = L->b->steps + sg->first; /* the version holds them */
        op->sop.nsteps = (int)sg->count;
        op->sop.together_plan = L->b->seq_plan ? L->b->seq_plan[L->x->seg_of[i]] : NULL;
        atomic_fetch_add(&L->b->refs, 1);
        op->graph = L->b;
        op->graph_node = i + 1;
        rc = put(L, lane, op);
        break;
    }
    case NODE_RECORD:
        if (!(rec = trn_sched_fence_create(L->svc->sched)))
            return -1;
        rc = put_marker(L, lane, rec, NULL);
        if (rc == 0)
            trn_service_event_recorded(L->svc, L->s, nd->event_id, rec);
        else
            trn_sched_fence_release(L->svc->sched, rec);
        break;
    case NODE_WAIT:
        wait = trn_service_event_fence(L->svc, L->s, nd->event_id);
        rc = wait ? put_marker(L, lane, NULL, wait) : 0;
        if (wait)
            trn_sched_fence_release(L->svc->sched, wait);
        break;
    case NODE_EMPTY: break;
    }
    if (rc != 0 || !lp->signals[i])
        return rc;
    if (!(L->node_fence[i] = trn_sched_fence_create(L->svc->sched)))
        return -1;
    return put_marker(L, lane, L->node_fence[i], NULL);
}

/* Ops a launch of x queues at most: nodes, waits and signals, the start
 * fence and its waits, each lane's end and the stream's waits for them, the
 * previous launch's wait and this one's done marker. */
static uint32_t launch_ops(const graph_exec *x) {
    const uint32_t extra_lanes = x->lanes.nlanes - 1;
    return x->n + x->lanes.nwaits + x->lanes.nsignals + 3 * extra_lanes + 1 + 2;
}

/* Queues every op of the launch, under x->lock. */
static int put_all(launch *L) {
    trn_sched *sched = L->svc->sched;
    graph_exec *x = L->x;
    const uint32_t nlanes = x->lanes.nlanes;
    /* After the previous launch of this exec. */
    if (x->last_done && !trn_sched_fence_query(sched, x->last_done, NULL) &&
        put_marker(L, 0, NULL, x->last_done) != 0)
        return -1;
    /* The other lanes start after the stream's earlier work. */
    if (nlanes > 1) {
        trn_sched_fence *start = trn_sched_fence_create(sched);
        int rc = start ? put_marker(L, 0, start, NULL) : -1;
        for (uint32_t l = 1; rc == 0 && l < nlanes; l++)
            rc = put_marker(L, l, NULL, start);
        if (start)
            trn_sched_fence_release(sched, start);
        if (rc != 0)
            return -1;
    }
    for (uint32_t i = 0; i < x->n; i++)
        if (put_node(L, i) != 0)
            return -1;
    /* The stream's later work starts after every lane's. */
    for (uint32_t l = 1; l < nlanes; l++) {
        trn_sched_fence *end = trn_sched_fence_create(sched);
        int rc = end ? put_marker(L, l, end, NULL) : -1;
        if (rc == 0)
            rc = put_marker(L, 0, NULL, end);
        if (end)
            trn_sched_fence_release(sched, end);
        if (rc != 0)
            return -1;
    }
    trn_sched_fence *done = trn_sched_fence_create(sched);
    if (!done || put_marker(L, 0, done, NULL) != 0) {
        if (done)
            trn_sched_fence_release(sched, done);
        return -1;
    }
    if (x->last_done)
        trn_sched_fence_release(sched, x->last_done);
    x->last_done = done;
    return 0;
}

trn_wire_code trn_service_submit_graph(trn_service *svc, trn_session *s,
                                       const Trnsci__V1__SubmitRequest *req, uint64_t *seq,
                                       char *err, size_t errlen) {
    const uint32_t id = req->op->graph_launch ? req->op->graph_launch->exec_id : 0;
    graph_exec *x = id ? exec_get(s, id) : NULL;
    if (!x) {
        snprintf(err, errlen, "graph exec %u does not exist in this session", id);
        return TRN_WIRE_NOT_FOUND;
    }
    if (trn_service_room_for_users(svc, s, err, errlen) != 0) {
        exec_put(x);
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    trn_wire_code rc = TRN_WIRE_OK;
    launch L = {.svc = svc, .s = s, .x = x, .stream_id = req->stream_id};
    L.stream = trn_service_stream(svc, s, req->stream_id, seq, &rc, err, errlen);
    if (!L.stream) {
        exec_put(x);
        return rc;
    }
    L.seq = req->launch_seq ? req->launch_seq : *seq;
    pthread_mutex_lock(&x->lock);
    L.b = x->body;
    if (!L.b) {
        rc = TRN_WIRE_NOT_FOUND;
        snprintf(err, errlen, "graph exec %u was destroyed", id);
        goto out;
    }
    if (x->lanes.nsignals && !(L.node_fence = calloc(x->n, sizeof(*L.node_fence)))) {
        rc = TRN_WIRE_RESOURCE_EXHAUSTED;
        snprintf(err, errlen, "daemon out of memory launching graph %u", id);
        goto out;
    }
    L.reserved = launch_ops(x);
    trn_service_reserve_ops(s, L.reserved);
    if (put_all(&L) != 0) {
        rc = TRN_WIRE_UNAVAILABLE;
        snprintf(err, errlen, "graph %u: the daemon is shutting down or out of memory", id);
    }
    trn_service_unreserve_ops(s, L.reserved - L.queued);
    for (uint32_t i = 0; L.node_fence && i < x->n; i++)
        if (L.node_fence[i])
            trn_sched_fence_release(svc->sched, L.node_fence[i]);
out:
    pthread_mutex_unlock(&x->lock);
    free(L.node_fence);
    trn_sched_stream_release(svc->sched, L.stream);
    trn_sched_kick(svc->sched);
    exec_put(x);
    return rc;
}
