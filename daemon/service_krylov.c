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
 * what queued ops hold), or without a pool a memfd of its own. It is
 * charged to the session like a buffer, taken here when the op is queued
 * and given back with the op (trn_service_krylov_free). When it cannot be
 * had (the session's quota, the pool's cap, memory) the solve runs as one
 * kernel on one core, as smaller ones do: a slower path, never a failure.
 */
#include <stdlib.h>
#include <unistd.h>

#include "daemon/bufmem.h"
#include "daemon/op_scratch.h"
#include "daemon/service_internal.h"
#include "daemon/session.h"
#include "ops/solver_kpar.h"

struct trn_service_krylov {
    trn_sched_step steps[TRN_KPAR_STEPS];
    trn_op_desc descs[TRN_KPAR_STEPS];
    void *scratch;
    uint64_t bytes;       /* what the session is charged */
    trn_op_scratch *pool; /* the block's pool, or NULL: a memfd of its own */
    size_t len;           /* the block's or the mapping's length */
    trn_exec_space *space;
    trn_session *charged; /* the session the scratch is charged to */
};

int trn_service_krylov_op(trn_service *svc, trn_service_op *op, trn_session *s) {
    const trn_op_desc *d = &op->sop.desc;
    if (d->kind != TRN_OP_SOLVER_KRYLOV || op->sop.steps || !trn_kpar_eligible(&d->u.solver_krylov))
        return 0;
    trn_kpar_layout l;
    if (trn_kpar_layout_of(&d->u.solver_krylov, &l) != 0)
        return 0;
    char err[TRN_SERVICE_ERRLEN];
    if (trn_session_charge(s, l.total, "the state of a CG run over every core", err, sizeof(err)) !=
        TRN_WIRE_OK)
        return 0; /* one core, as a smaller solve */
    trn_service_krylov *k = calloc(1, sizeof(*k));
    trn_exec_space *sp = s->table->space;
    size_t len = l.total;
    void *mem = NULL;
    if (k && svc->scratch) {
        mem = trn_op_scratch_get(svc->scratch, l.total, &len);
    } else if (k) {
        int fd = -1;
        mem = trn_bufmem_shared(l.total, sp, &fd, err, sizeof(err));
        if (fd >= 0)
            close(fd); /* the space keeps its own */
    }
    if (!mem) {
        free(k);
        trn_session_credit(s, l.total);
        return 0;
    }
    *k = (trn_service_krylov){.scratch = mem,
                              .bytes = l.total,
                              .pool = svc->scratch,
                              .len = len,
                              .space = sp,
                              .charged = s};
    for (int i = 0; i < TRN_KPAR_STEPS; i++) {
        k->descs[i] = (trn_op_desc){.kind = TRN_OP_SOLVER_KRYLOV, .kmsg = &op->sop.kmsg};
        k->descs[i].u.solver_krylov = trn_kpar_step(&d->u.solver_krylov, i, mem, l.total);
        k->steps[i].desc = &k->descs[i];
    }
    op->krylov = k;
    op->sop.steps = k->steps;
    op->sop.nsteps = TRN_KPAR_STEPS;
    op->sop.loop_first = TRN_KPAR_LOOP_FIRST;
    op->sop.loop_last = TRN_KPAR_LOOP_LAST;
    return 0;
}

void trn_service_krylov_free(trn_service_op *op) {
    trn_service_krylov *k = op->krylov;
    if (!k)
        return;
    if (k->pool)
        trn_op_scratch_put(k->pool, k->scratch, k->len);
    else
        trn_bufmem_release(k->scratch, k->len, 1, k->space);
    trn_session_credit(k->charged, k->bytes);
    free(k);
    op->krylov = NULL;
}
