/*
 * service_tile.c — a validated op whose shape is tiled (ops/solver_tile.h)
 * is queued as a sequence of its steps (trn_sched_op.steps), so that the
 * scheduler spreads each step's tile tasks over every core. The op stays
 * one op to its client, its stream, the metrics and the messages; only the
 * scheduler sees the steps.
 *
 * The steps and their descriptors live in the op's step holder
 * (service_steps.h: trn_service_op.own_steps), freed with it. Every step's
 * message is the op's own (the scheduler starts it afresh at each step; a
 * step that fails ends the op there).
 *
 * A tiled syevd/heevd (ops/solver_eig_tile.h) also owns its scratch: one
 * region holding its pieces, taken here and given back with the steps. It
 * comes from the service's pool of ops' scratch (daemon/op_scratch.h: in
 * the executors' shared space, capped, blocks kept for reuse so that a
 * repeated syevd does not fault its pages in again), charged to the
 * session (trn_service_scratch_take). When it cannot be had (the quota,
 * the pool's cap), the op is queued untiled: the same results, on one core.
 *
 * A tiled gesvd (ops/solver_svd_tile.h) takes one zeroed state piece from
 * the same pool, which holds its QR step's claim counter too; without it
 * the op runs untiled.
 *
 * A tiled potrf, getrf or geqrf takes a claim counter per step from the
 * same pool (ops/solver_tile.h, "Claiming": its shards share each step's
 * tasks as they go). Without it each shard runs a fixed run of tasks: the
 * same results.
 */
#include <string.h>

#include "daemon/service_steps.h"
#include "daemon/session.h"
#include "ops/solver_eig_tile.h"
#include "ops/solver_svd_tile.h"
#include "ops/solver_tile.h"

/* A piece's place in the region: 64-byte aligned. */
static size_t piece_span(const trn_solver_eigen_desc *e, int k) {
    return (trn_eig_tile_piece_bytes(e, k) + 63) & ~(size_t)63;
}

/* A tiled syevd's region with its pieces recorded in the state (piece 0):
 * 0, or -1 when it cannot be had (the quota, the pool's cap). */
static int region_take(trn_service *svc, trn_session *session, const trn_solver_eigen_desc *e,
                       trn_scratch_lease *l) {
    const int n = trn_eig_tile_pieces(e);
    size_t total = 0;
    for (int k = 0; k < n; k++)
        total += piece_span(e, k);
    char err[TRN_SERVICE_ERRLEN];
    if (trn_service_scratch_take(svc, session, total, "the workspace of a syevd over every core", l,
                                 err, sizeof(err)) != TRN_WIRE_OK)
        return -1;
    char *r = l->p;
    size_t off = 0;
    for (int k = 0; k < n; k++) {
        trn_eig_tile_set_piece(e, r, k, r + off);
        off += piece_span(e, k);
    }
    return 0;
}

/* A tiled gesvd's state, zeroed: 0, or -1 when it cannot be had. */
static int svd_state_take(trn_service *svc, trn_session *session, const trn_solver_eigen_desc *e,
                          trn_scratch_lease *l) {
    const size_t bytes = trn_svd_tile_state_bytes(e);
    char err[TRN_SERVICE_ERRLEN];
    if (trn_service_scratch_take(svc, session, bytes, "the state of a gesvd over every core", l,
                                 err, sizeof(err)) != TRN_WIRE_OK)
        return -1;
    memset(l->p, 0, bytes);
    return 0;
}

/* The number of steps op's descriptor is cut into, or 0: not tiled. */
static int steps_of(const trn_op_desc *d) {
    if (d->kind == TRN_OP_SOLVER_EIGEN)
        return d->u.solver_eigen.fn == TRN_SOLVER_GESVD ? trn_svd_tile_steps(&d->u.solver_eigen)
                                                        : trn_eig_tile_steps(&d->u.solver_eigen);
    if (d->kind != TRN_OP_SOLVER_DENSE || !trn_tile_nb(&d->u.solver_dense))
        return 0;
    return trn_tile_steps(&d->u.solver_dense);
}

/* A zeroed counter per step for a tiled factorisation's shards to claim
 * tasks with (an empty lease when it cannot be had: the fixed split). */
static void claims_take(trn_service *svc, trn_session *session, int nsteps, trn_scratch_lease *l) {
    const size_t bytes = (size_t)nsteps * sizeof(uint64_t);
    char err[TRN_SERVICE_ERRLEN];
    if (trn_service_scratch_take(svc, session, bytes, "the task counters of a factorisation", l,
                                 err, sizeof(err)) == TRN_WIRE_OK)
        memset(l->p, 0, bytes);
}

int trn_service_tile_op(trn_service *svc, trn_service_op *op, trn_session *session) {
    const int n = steps_of(&op->sop.desc);
    if (n == 0)
        return 0;
    const int eig = op->sop.desc.kind == TRN_OP_SOLVER_EIGEN;
    const trn_solver_eigen_desc *e = &op->sop.desc.u.solver_eigen;
    const int svd = eig && e->fn == TRN_SOLVER_GESVD;
    trn_scratch_lease region = {0};
    if (eig && (svd ? svd_state_take(svc, session, e, &region)
                    : region_take(svc, session, e, &region)) != 0)
        return 0; /* no memory for the scratch: run untiled */
    if (!eig)
        claims_take(svc, session, n, &region);
    trn_service_steps *h = trn_service_steps_new(op, TRN_OP_SOLVER_DENSE, n);
    if (!h) {
        trn_service_scratch_give(&region);
        return -1;
    }
    h->scratch = region;
    for (int s = 0; s < n; s++) {
        trn_solver_dense_desc *d = &h->descs[s].u.solver_dense;
        if (eig) {
            *d = svd ? trn_svd_tile_step(e, s, region.p) : trn_eig_tile_step(e, s, region.p);
            continue;
        }
        *d = trn_tile_step(&op->sop.desc.u.solver_dense, s);
        d->tile_claim = region.p ? (uint64_t *)region.p + s : NULL;
    }
    trn_service_steps_attach(op, h);
    return 0;
}
