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
 * A tiled syevd/heevd (ops/solver_eig_tile.h) also owns its pieces of
 * scratch, allocated here in the op arena (kernels run in executors, which
 * see it at the same address; the heap without executors) and freed with
 * the steps. When they do not fit, the op is queued untiled.
 */
#include <stdlib.h>

#include "daemon/exec_space.h"
#include "daemon/session.h"

#include "daemon/service_internal.h"
#include "ops/solver_eig_tile.h"
#include "ops/solver_tile.h"

struct trn_service_tiles {
    int nsteps;
    trn_sched_step *steps;
    trn_op_desc *descs;
    /* A tiled syevd's scratch pieces (ops/solver_eig_tile.h), from space's
     * arena (NULL: the heap). */
    void **pieces;
    int npieces;
    trn_exec_space *space;
};

static void pieces_free(void **pieces, int n, trn_exec_space *space) {
    for (int k = 0; pieces && k < n; k++) {
        if (space && pieces[k])
            trn_exec_space_arena_free(space, pieces[k]);
        else
            free(pieces[k]);
    }
    free(pieces);
}

/* A tiled syevd's pieces, each recorded in the state (piece 0), or NULL
 * when one does not fit (*oom: the piece table itself did not). */
static void **pieces_alloc(const trn_solver_eigen_desc *e, trn_exec_space *space, int *oom) {
    const int n = trn_eig_tile_pieces(e);
    void **p = calloc((size_t)n, sizeof(*p));
    *oom = !p;
    for (int k = 0; p && k < n; k++) {
        const size_t bytes = trn_eig_tile_piece_bytes(e, k);
        p[k] = space ? trn_exec_space_arena_alloc(space, bytes) : calloc(1, bytes);
        if (!p[k]) {
            pieces_free(p, n, space);
            return NULL;
        }
        trn_eig_tile_set_piece(e, p[0], k, p[k]);
    }
    return p;
}

/* The number of steps op's descriptor is cut into, or 0: not tiled. */
static int steps_of(const trn_op_desc *d) {
    if (d->kind == TRN_OP_SOLVER_EIGEN)
        return trn_eig_tile_steps(&d->u.solver_eigen);
    if (d->kind != TRN_OP_SOLVER_DENSE || !trn_tile_nb(&d->u.solver_dense))
        return 0;
    return trn_tile_steps(&d->u.solver_dense);
}

int trn_service_tile_op(trn_service_op *op, trn_session *session) {
    const int n = steps_of(&op->sop.desc);
    if (n == 0)
        return 0;
    const int eig = op->sop.desc.kind == TRN_OP_SOLVER_EIGEN;
    trn_exec_space *space = eig ? session->table->space : NULL;
    void **pieces = NULL;
    if (eig) {
        int oom;
        pieces = pieces_alloc(&op->sop.desc.u.solver_eigen, space, &oom);
        if (!pieces)
            return oom ? -1 : 0; /* the arena is full: run untiled */
    }
    trn_service_tiles *t = calloc(1, sizeof(*t));
    trn_sched_step *steps = calloc((size_t)n, sizeof(*steps));
    trn_op_desc *descs = calloc((size_t)n, sizeof(*descs));
    const int npieces = eig ? trn_eig_tile_pieces(&op->sop.desc.u.solver_eigen) : 0;
    if (!t || !steps || !descs) {
        free(t);
        free(steps);
        free(descs);
        pieces_free(pieces, npieces, space);
        return -1;
    }
    for (int s = 0; s < n; s++) {
        descs[s] = (trn_op_desc){.kind = TRN_OP_SOLVER_DENSE, .kmsg = &op->sop.kmsg};
        descs[s].u.solver_dense =
            eig ? trn_eig_tile_step(&op->sop.desc.u.solver_eigen, s, pieces[0])
                : trn_tile_step(&op->sop.desc.u.solver_dense, s);
        steps[s].desc = &descs[s];
    }
    *t = (trn_service_tiles){.nsteps = n,
                             .steps = steps,
                             .descs = descs,
                             .pieces = pieces,
                             .npieces = npieces,
                             .space = space};
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
    pieces_free(t->pieces, t->npieces, t->space);
    free(t);
    op->tiles = NULL;
}
