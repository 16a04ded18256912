/*
 * service_tile.c — a validated op whose shape is tiled (ops/solver_tile.h)
 * is queued as a sequence of its steps (trn_sched_op.steps), so that the
 * scheduler spreads each step's tile tasks over every core. The op stays
 * one op to its client, its stream, the metrics and the messages; only the
 * scheduler sees the steps.
 *
 * The steps and their descriptors live in one allocation owned by the op
 * (trn_service_op.tiles), freed with it. Every step's message is the op's
 * own (the scheduler starts it afresh at each step; a step that fails ends
 * the op there).
 */
#include <stdlib.h>

#include "daemon/service_internal.h"
#include "ops/solver_tile.h"

struct trn_service_tiles {
    int nsteps;
    trn_sched_step *steps;
    trn_op_desc *descs;
};

/* The number of steps op's descriptor is cut into, or 0: not tiled. */
static int steps_of(const trn_op_desc *d) {
    if (d->kind != TRN_OP_SOLVER_DENSE || !trn_tile_nb(&d->u.solver_dense))
        return 0;
    return trn_tile_steps(&d->u.solver_dense);
}

int trn_service_tile_op(trn_service_op *op) {
    const int n = steps_of(&op->sop.desc);
    if (n == 0)
        return 0;
    trn_service_tiles *t = calloc(1, sizeof(*t));
    trn_sched_step *steps = calloc((size_t)n, sizeof(*steps));
    trn_op_desc *descs = calloc((size_t)n, sizeof(*descs));
    if (!t || !steps || !descs) {
        free(t);
        free(steps);
        free(descs);
        return -1;
    }
    for (int s = 0; s < n; s++) {
        descs[s] = (trn_op_desc){.kind = TRN_OP_SOLVER_DENSE, .kmsg = &op->sop.kmsg};
        descs[s].u.solver_dense = trn_tile_step(&op->sop.desc.u.solver_dense, s);
        steps[s].desc = &descs[s];
    }
    *t = (trn_service_tiles){.nsteps = n, .steps = steps, .descs = descs};
    op->tiles = t;
    op->sop.steps = steps;
    op->sop.nsteps = n;
    return 0;
}

void trn_service_tile_free(trn_service_op *op) {
    trn_service_tiles *t = op->tiles;
    if (!t)
        return;
    free(t->steps);
    free(t->descs);
    free(t);
    op->tiles = NULL;
}
