/*
 * graph_lanes.c — the lane plan of a graph (graph_lanes.h).
 *
 * Assignment, in node order: a node continues the lane of its first
 * dependency that is still that lane's last node (a chain); a node with no
 * such dependency opens a new lane while there are fewer than max_lanes,
 * else joins its first dependency's lane (lane 0 for a root). Any choice is
 * correct (a lane only adds order); this one keeps chains on one stream and
 * gives branches their own.
 */
#include "scheduler/graph_lanes.h"

#include <stdlib.h>
#include <string.h>

void trn_graph_lanes_free(trn_graph_lanes *l) {
    free(l->lane);
    free(l->signals);
    free(l->wait_start);
    free(l->waits);
    memset(l, 0, sizeof(*l));
}

static uint32_t choose_lane(const trn_graph_topology *t, uint32_t i, const uint32_t *lane,
                            const int64_t *tail, uint32_t *nlanes, uint32_t max_lanes) {
    for (uint32_t k = t->dep_start[i]; k < t->dep_start[i + 1]; k++) {
        const uint32_t d = t->deps[k];
        if (tail[lane[d]] == (int64_t)d)
            return lane[d];
    }
    if (*nlanes < max_lanes)
        return (*nlanes)++;
    return t->dep_start[i] < t->dep_start[i + 1] ? lane[t->deps[t->dep_start[i]]] : 0;
}

int trn_graph_lanes_plan(const trn_graph_topology *t, uint32_t max_lanes, trn_graph_lanes *out) {
    memset(out, 0, sizeof(*out));
    if (max_lanes < 1)
        max_lanes = 1;
    if (max_lanes > TRN_GRAPH_MAX_LANES)
        max_lanes = TRN_GRAPH_MAX_LANES;
    const uint32_t n = t->n, ndeps = t->dep_start[n];
    out->lane = calloc(n ? n : 1, sizeof(*out->lane));
    out->signals = calloc(n ? n : 1, 1);
    out->wait_start = calloc((size_t)n + 1, sizeof(*out->wait_start));
    out->waits = calloc(ndeps ? ndeps : 1, sizeof(*out->waits));
    uint32_t *pos = calloc(n ? n : 1, sizeof(*pos));
    if (!out->lane || !out->signals || !out->wait_start || !out->waits || !pos) {
        free(pos);
        trn_graph_lanes_free(out);
        return -1;
    }
    int64_t tail[TRN_GRAPH_MAX_LANES];
    uint32_t len[TRN_GRAPH_MAX_LANES] = {0};
    /* seen[a][b]: lane a already waits for lane b's nodes before position
     * seen[a][b] (exclusive), so a later wait for one of them is implied. */
    uint32_t seen[TRN_GRAPH_MAX_LANES][TRN_GRAPH_MAX_LANES];
    memset(seen, 0, sizeof(seen));
    for (int k = 0; k < TRN_GRAPH_MAX_LANES; k++)
        tail[k] = -1;
    uint32_t nlanes = 0, nw = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t l = choose_lane(t, i, out->lane, tail, &nlanes, max_lanes);
        out->lane[i] = l;
        pos[i] = len[l]++;
        tail[l] = i;
        out->wait_start[i] = nw;
        for (uint32_t k = t->dep_start[i]; k < t->dep_start[i + 1]; k++) {
            const uint32_t d = t->deps[k], m = out->lane[d];
            if (m == l || pos[d] < seen[l][m])
                continue;
            seen[l][m] = pos[d] + 1;
            out->waits[nw++] = d;
            if (!out->signals[d]) {
                out->signals[d] = 1;
                out->nsignals++;
            }
        }
    }
    out->wait_start[n] = nw;
    out->nwaits = nw;
    out->nlanes = nlanes ? nlanes : 1;
    free(pos);
    return 0;
}
