/*
 * graph_lanes.h — how a graph's nodes map onto streams: the schedule an
 * executable graph is launched with.
 *
 * A graph is a DAG of nodes listed in topological order (every dependency
 * before its dependants). Launching it queues each node on one of a few
 * streams ("lanes") in that order: lane 0 is the stream the graph is
 * launched on, the others are the graph's own. On one lane, order gives the
 * dependencies between its nodes for free; a dependency on a node of another
 * lane becomes a fence that node's lane signals after it and this node's
 * lane waits for before it. Chains extend a lane, so a graph captured from
 * one stream runs on lane 0 alone with no fence at all, and independent
 * branches get lanes of their own (up to max_lanes) and run concurrently.
 *
 * A wait that an earlier wait of the same lane already implies (a node no
 * later on the same other lane) is dropped. The plan depends only on the
 * topology and max_lanes, so a graph always runs the same way.
 */
#ifndef TRN_SCHEDULER_GRAPH_LANES_H
#define TRN_SCHEDULER_GRAPH_LANES_H

#include <stdint.h>

/* Most lanes a graph may use (including the launching stream). */
#define TRN_GRAPH_MAX_LANES 16

/* Node i depends on deps[dep_start[i] .. dep_start[i + 1]), each < i. */
typedef struct trn_graph_topology {
    uint32_t n;
    const uint32_t *dep_start; /* n + 1 entries */
    const uint32_t *deps;
} trn_graph_topology;

typedef struct trn_graph_lanes {
    uint32_t nlanes;
    uint32_t *lane;       /* per node: the lane it runs on */
    uint8_t *signals;     /* per node: a node on another lane waits for it */
    uint32_t *wait_start; /* per node: its waits are waits[wait_start[i] .. wait_start[i + 1]) */
    uint32_t *waits;      /* nodes on other lanes to wait for (their fences) */
    uint32_t nsignals, nwaits;
} trn_graph_lanes;

/* Plans the lanes of topology t with at most max_lanes (1 ..
 * TRN_GRAPH_MAX_LANES). Returns 0, or -1 when out of memory (out zeroed). */
int trn_graph_lanes_plan(const trn_graph_topology *t, uint32_t max_lanes, trn_graph_lanes *out);
void trn_graph_lanes_free(trn_graph_lanes *l);

#endif
