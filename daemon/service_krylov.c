/*
 * service_krylov.c — a validated Krylov solve big enough to gain from every
 * core (ops/solver_kpar.h) is queued as a looping sequence of its steps
 * (trn_sched_op.steps with loop_first / loop_last), so that the scheduler
 * spreads each step's row blocks over the cores. The op stays one op to
 * its client, its stream, the metrics and the messages.
 *
 * The solve's state (vectors, partials, the operator's checked copy) is
 * scratch memory the op owns, in the executors' shared space (at the same
 * address in every executor, as buffers are): a block of the service's op
 * scratch pool (daemon/op_scratch.h: blocks given back are reused, so a
 * repeated solve does not fault its pages in again; the pool's cap bounds
 * what queued ops hold), charged to the session like a buffer
 * (trn_service_scratch_take), taken here when the op is queued and given
 * back with the op (its step holder, daemon/service_steps.h). When it cannot be
 * had (the session's quota, the pool's cap, memory) the solve runs as one
 * kernel on one core, as smaller ones do: a slower path, never a failure.
 */
#include <stdlib.h>

#include "daemon/service_internal.h"
#include "daemon/service_steps.h"
#include "daemon/session.h"
#include "ops/solver_kpar.h"

int trn_service_krylov_op(trn_service *svc, trn_service_op *op, trn_session *s) {
    const trn_op_desc *d = &op->sop.desc;
    if (d->kind != TRN_OP_SOLVER_KRYLOV || op->sop.steps || !trn_kpar_eligible(&d->u.solver_krylov))
        return 0;
    trn_kpar_layout l;
    if (trn_kpar_layout_of(&d->u.solver_krylov, &l) != 0)
        return 0;
    const trn_solver_krylov_desc *w = &d->u.solver_krylov;
    const int nsteps = trn_kpar_nsteps(w);
    trn_service_steps *h = trn_service_steps_new(op, TRN_OP_SOLVER_KRYLOV, nsteps);
    if (!h)
        return 0; /* one core, as a smaller solve */
    char err[TRN_SERVICE_ERRLEN];
    if (trn_service_scratch_take(
            svc, s, l.total,
            trn_kpar_bicg(w->fn)    ? "the state of a BiCGStab run over every core"
            : trn_kpar_gmres(w->fn) ? "the state of a GMRES run over every core"
                                    : "the state of a CG run over every core",
            &h->scratch, err, sizeof(err)) != TRN_WIRE_OK) {
        trn_service_steps_free(h);
        return 0;
    }
    for (int i = 0; i < nsteps; i++)
        h->descs[i].u.solver_krylov = trn_kpar_step(w, i, h->scratch.p, l.total);
    trn_service_steps_attach(op, h);
    op->sop.loop_first = trn_kpar_loop_first(w);
    op->sop.loop_last = trn_kpar_loop_last(w);
    return 0;
}
