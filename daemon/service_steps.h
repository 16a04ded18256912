/*
 * service_steps.h — what a sequence op the service builds owns
 * (trn_sched_op.steps): its steps, their descriptors, the scratch they
 * share and the plan references they run, in one allocation held by the op
 * (trn_service_op.own_steps) from when it is shaped until it is freed.
 * service_tile.c (tiled factorisations, syevd), service_fftstep.c (one
 * large FFT) and service_krylov.c (a Krylov solve's loop) build theirs with it; a graph's sequence
 * is not one of these (its steps belong to the graph's version, service_graph.c).
 *
 * Invariants:
 *  - steps[s].desc == &descs[s] for every s < nsteps; each descriptor is
 *    made with the steps' kind and the op's own message (kmsg), so a
 *    step's failure message is the op's.
 *  - every non-NULL steps[s].plan is a reference the holder holds, dropped
 *    by trn_service_steps_free; a step without a plan has NULL.
 *  - scratch is empty or a lease charged to the op's session, given back by
 *    trn_service_steps_free (after the op's last step ran, or instead of it
 *    running).
 *  - a holder not yet attached belongs to whoever made it, who frees it on
 *    an error path; once attached it belongs to the op (freed with it).
 */
#ifndef TRN_DAEMON_SERVICE_STEPS_H
#define TRN_DAEMON_SERVICE_STEPS_H

#include "daemon/service_internal.h"

typedef struct trn_service_steps {
    int nsteps;
    trn_scratch_lease scratch; /* the steps' shared scratch, or empty */
    trn_sched_step *steps;     /* [nsteps], after descs[nsteps] */
    trn_op_desc descs[];
} trn_service_steps;

/* n (>= 1) steps of op, each descriptor of `kind` with op's message and
 * nothing else set, no plans, no scratch; NULL out of memory. */
trn_service_steps *trn_service_steps_new(trn_service_op *op, trn_op_kind kind, int n);
/* Makes h op's sequence (op->sop.steps, nsteps) and op its owner. The
 * caller sets any loop (sop.loop_first / loop_last) itself. */
void trn_service_steps_attach(trn_service_op *op, trn_service_steps *h);
/* Drops h's plan references, gives its scratch back and frees it (NULL:
 * no-op). */
void trn_service_steps_free(trn_service_steps *h);

#endif
