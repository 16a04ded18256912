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
 *
 * A tiled syevd/heevd (ops/solver_eig_tile.h) also owns its scratch, one
 * block allocated here and freed with the steps.
 */
#include <stdlib.h>

#include "daemon/service_internal.h"
#include "ops/solver_eig_tile.h"
#include "ops/solver_tile.h"

struct trn_service_tiles {
    int nsteps;
    trn_sched_step *steps;
    trn_op_desc *descs;
    void *scratch; /* a tiled syevd's (ops/solver_eig_tile.h), or NULL */
};

/* The number of steps op's descriptor is cut into, or 0: not tiled. */
static int steps_of(const trn_op_desc *d) {
    if (d->kind == TRN_OP_SOLVER_EIGEN)
        return trn_eig_tile_steps(&d->u.solver_eigen);
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
    const int eig = op->sop.desc.kind == TRN_OP_SOLVER_EIGEN;
    const size_t sbytes = eig ? trn_eig_tile_scratch_bytes(&op->sop.desc.u.solver_eigen) : 0;
    void *scratch = sbytes ? aligned_alloc(64, sbytes) : NULL;
    if (!t || !steps || !descs || (sbytes && !scratch)) {
        free(t);
        free(steps);
        free(descs);
        free(scratch);
        return -1;
    }
    for (int s = 0; s < n; s++) {
        descs[s] = (trn_op_desc){.kind = TRN_OP_SOLVER_DENSE, .kmsg = &op->sop.kmsg};
        descs[s].u.solver_dense = eig ? trn_eig_tile_step(&op->sop.desc.u.solver_eigen, s, scratch)
                                      : trn_tile_step(&op->sop.desc.u.solver_dense, s);
        steps[s].desc = &descs[s];
    }
    *t = (trn_service_tiles){.nsteps = n, .steps = steps, .descs = descs, .scratch = scratch};
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
    free(t->scratch);
    free(t);
    op->tiles = NULL;
}
