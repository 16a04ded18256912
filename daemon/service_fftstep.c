/*
 * service_fftstep.c — a validated FFT op that is one large transform
 * (ops/fft_step.h) is queued as a sequence of its steps (trn_sched_op.steps),
 * so that the scheduler spreads each step's tile tasks over every core. As
 * for tiled factorisations (service_tile.c), the op stays one op to its
 * client, its stream, the metrics and the messages.
 *
 * Each step runs a plan of its own, a smaller transform's, taken from the
 * plan cache (shared with every other use of that shape, prepared by the
 * planner like any plan, the same plan on every core): the op holds a
 * reference to each until it is freed. The steps, their descriptors,
 * those references and the scratch array live in the op's step holder
 * (service_steps.h: trn_service_op.own_steps). Out of place no intermediate array is needed:
 * the first step writes the client's output, the second transforms it in
 * place (ops/fft_step.h).
 *
 * A 1D transform in place goes through a scratch array of the transform's
 * size (at most TRN_FFTSTEP_MAX_SCRATCH), owned by the op from when it is
 * queued until it is freed, charged to the session's memory quota like
 * staged transfers (trn_service_scratch_take). It comes from the service's
 * scratch pool (daemon/op_scratch.h: in the executors' space, blocks kept
 * for reuse so that a transform does not pay a page fault per page of it).
 * Without room for it (the quota, the pool's cap) the op is refused
 * (RESOURCE_EXHAUSTED): running it on one core instead would give other
 * bits.
 */
#include <stdio.h>

#include "daemon/service_steps.h"
#include "daemon/validate.h"
#include "ops/fft_step.h"
#include "scheduler/plan_cache.h"

trn_wire_code trn_service_fftstep_op(trn_service *svc, trn_session *sess, trn_service_op *op,
                                     char *err, size_t errlen) {
    const trn_op_desc *d = &op->sop.desc;
    trn_plan_cache *pc = sess->table->plans;
    if (d->kind != TRN_OP_FFT || !op->refs.plan || !pc || op->sop.steps)
        return TRN_WIRE_OK;
    const trn_plan_spec *spec = trn_plan_entry_spec(op->refs.plan);
    if (spec->family != TRN_PLAN_FFT)
        return TRN_WIRE_OK;
    const int n = trn_fftstep_count(&spec->u.fft, d->u.fft.batch, d->u.fft.variant);
    if (n <= 0 || n > TRN_FFTSTEP_MAX_STEPS)
        return TRN_WIRE_OK;
    trn_service_steps *h = trn_service_steps_new(op, TRN_OP_FFT, n);
    if (!h) {
        snprintf(err, errlen, "daemon out of memory queueing an op");
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    trn_wire_code rc = TRN_WIRE_OK;
    const size_t sb = trn_fftstep_scratch_bytes(&spec->u.fft, d->u.fft.variant);
    if (sb) {
        rc = trn_service_scratch_take(svc, sess, sb, "the scratch array of an in-place FFT",
                                      &h->scratch, err, errlen);
        if (rc != TRN_WIRE_OK)
            goto fail;
    }
    for (int s = 0; s < n; s++) {
        trn_op_desc *sd = &h->descs[s];
        trn_plan_spec sub = {.family = TRN_PLAN_FFT, .effort = spec->effort};
        trn_fftstep_step(&spec->u.fft, &d->u.fft, s, h->scratch.p, &sd->u.fft, &sub.u.fft);
        if (sub.u.fft.rank == 0) /* a step without a plan */
            continue;
        trn_plan_entry *e = NULL;
        int hit = 0;
        rc = trn_plan_error_code(
            trn_plan_cache_acquire(pc, &sub, (int)sd->u.fft.variant, &e, &hit, err, errlen));
        if (rc != TRN_WIRE_OK)
            goto fail;
        sd->u.fft.plan = trn_plan_entry_plan(e);
        h->steps[s].plan = e; /* the holder's reference */
        h->steps[s].plan_part = sd->u.fft.variant;
    }
    trn_service_steps_attach(op, h);
    return TRN_WIRE_OK;

fail:
    trn_service_steps_free(h);
    return rc;
}
