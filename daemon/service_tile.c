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
 * A tiled syevd/heevd (ops/solver_eig_tile.h) also owns its scratch: one
 * region holding its pieces, taken here and given back with the steps. It
 * comes from the service's pool of ops' scratch (daemon/op_scratch.h: in
 * the executors' shared space, capped, blocks kept for reuse so that a
 * repeated syevd does not fault its pages in again); without a pool
 * (--convert-ahead off) it is a memfd mapped in that space as a buffer is,
 * or heap memory without executors. When it cannot be had (the pool's
 * cap), the op is queued untiled: the same results, on one core.
 */
#include <stdlib.h>
#include <unistd.h>

#include "daemon/bufmem.h"
#include "daemon/exec_space.h"
#include "daemon/op_scratch.h"
#include "daemon/service_internal.h"
#include "daemon/session.h"
#include "ops/solver_eig_tile.h"
#include "ops/solver_tile.h"

struct trn_service_tiles {
    int nsteps;
    trn_sched_step *steps;
    trn_op_desc *descs;
    /* A tiled syevd's scratch (ops/solver_eig_tile.h): region_bytes at
     * region, from pool, else mapped in space (NULL: heap memory). */
    void *region;
    size_t region_bytes;
    trn_op_scratch *pool;
    trn_exec_space *space;
};

/* A piece's place in the region: 64-byte aligned. */
static size_t piece_span(const trn_solver_eigen_desc *e, int k) {
    return (trn_eig_tile_piece_bytes(e, k) + 63) & ~(size_t)63;
}

/* A tiled syevd's region with its pieces recorded in the state (piece 0),
 * or NULL; *bytes is its length. */
static void *region_alloc(const trn_solver_eigen_desc *e, trn_op_scratch *pool,
                          trn_exec_space *space, size_t *bytes) {
    const int n = trn_eig_tile_pieces(e);
    size_t total = 0;
    for (int k = 0; k < n; k++)
        total += piece_span(e, k);
    char *r = NULL;
    if (pool) {
        r = trn_op_scratch_get(pool, total, &total);
    } else {
        char err[128];
        int fd = -1;
        r = space ? trn_bufmem_shared(total, space, &fd, err, sizeof(err)) : trn_bufmem_heap(total);
        if (fd >= 0)
            close(fd); /* the mapping stays; no client maps it */
    }
    if (!r)
        return NULL;
    size_t off = 0;
    for (int k = 0; k < n; k++) {
        trn_eig_tile_set_piece(e, r, k, r + off);
        off += piece_span(e, k);
    }
    *bytes = total;
    return r;
}

static void region_free(void *region, size_t bytes, trn_op_scratch *pool, trn_exec_space *space) {
    if (!region)
        return;
    if (pool)
        trn_op_scratch_put(pool, region, bytes);
    else
        trn_bufmem_release(region, bytes, space != NULL, space);
}

/* The number of steps op's descriptor is cut into, or 0: not tiled. */
static int steps_of(const trn_op_desc *d) {
    if (d->kind == TRN_OP_SOLVER_EIGEN)
        return trn_eig_tile_steps(&d->u.solver_eigen);
    if (d->kind != TRN_OP_SOLVER_DENSE || !trn_tile_nb(&d->u.solver_dense))
        return 0;
    return trn_tile_steps(&d->u.solver_dense);
}

int trn_service_tile_op(trn_service *svc, trn_service_op *op, trn_session *session) {
    const int n = steps_of(&op->sop.desc);
    if (n == 0)
        return 0;
    const int eig = op->sop.desc.kind == TRN_OP_SOLVER_EIGEN;
    trn_exec_space *space = eig ? session->table->space : NULL;
    trn_op_scratch *pool = eig ? svc->scratch : NULL;
    size_t region_bytes = 0;
    void *region =
        eig ? region_alloc(&op->sop.desc.u.solver_eigen, pool, space, &region_bytes) : NULL;
    if (eig && !region)
        return 0; /* no memory for the scratch: run untiled */
    trn_service_tiles *t = calloc(1, sizeof(*t));
    trn_sched_step *steps = calloc((size_t)n, sizeof(*steps));
    trn_op_desc *descs = calloc((size_t)n, sizeof(*descs));
    if (!t || !steps || !descs) {
        free(t);
        free(steps);
        free(descs);
        region_free(region, region_bytes, pool, space);
        return -1;
    }
    for (int s = 0; s < n; s++) {
        descs[s] = (trn_op_desc){.kind = TRN_OP_SOLVER_DENSE, .kmsg = &op->sop.kmsg};
        descs[s].u.solver_dense = eig ? trn_eig_tile_step(&op->sop.desc.u.solver_eigen, s, region)
                                      : trn_tile_step(&op->sop.desc.u.solver_dense, s);
        steps[s].desc = &descs[s];
    }
    *t = (trn_service_tiles){.nsteps = n,
                             .steps = steps,
                             .descs = descs,
                             .region = region,
                             .region_bytes = region_bytes,
                             .pool = pool,
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
    region_free(t->region, t->region_bytes, t->pool, t->space);
    free(t);
    op->tiles = NULL;
}
