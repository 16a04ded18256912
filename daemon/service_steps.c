/*
 * service_steps.c — the holder of a sequence op's steps (service_steps.h):
 * one allocation, the header, then the descriptors, then the steps, so that
 * building one has a single failure and freeing it a single path whatever
 * the sequence (tiles, FFT steps) held.
 */
#include <stdlib.h>

#include "daemon/service_steps.h"
#include "scheduler/plan_cache.h"

_Static_assert(sizeof(trn_op_desc) % _Alignof(trn_sched_step) == 0,
               "the steps after the descriptors are aligned");

trn_service_steps *trn_service_steps_new(trn_service_op *op, trn_op_kind kind, int n) {
    if (n <= 0)
        return NULL;
    trn_service_steps *h =
        calloc(1, sizeof(*h) + (size_t)n * (sizeof(trn_op_desc) + sizeof(trn_sched_step)));
    if (!h)
        return NULL;
    h->nsteps = n;
    h->steps = (trn_sched_step *)(h->descs + n);
    for (int s = 0; s < n; s++) {
        h->descs[s] = (trn_op_desc){.kind = kind, .kmsg = &op->sop.kmsg};
        h->steps[s].desc = &h->descs[s];
    }
    return h;
}

void trn_service_steps_attach(trn_service_op *op, trn_service_steps *h) {
    op->own_steps = h;
    op->sop.steps = h->steps;
    op->sop.nsteps = h->nsteps;
}

void trn_service_steps_free(trn_service_steps *h) {
    if (!h)
        return;
    for (int s = 0; s < h->nsteps; s++)
        if (h->steps[s].plan)
            trn_plan_entry_release(h->steps[s].plan);
    trn_service_scratch_give(&h->scratch);
    free(h);
}
