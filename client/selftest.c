/*
 * selftest.c — the daemon's self-test report seen from a client
 * (trnsciDaemonSelfTest, what `trnsci selftest` and `trnsci status` use):
 * one SelfTest RPC on a connection of its own, without a session.
 */
#include <stdio.h>
#include <string.h>

#include "client/client.h"

static void routine_from_wire(const Trnsci__V1__SelfTestRoutine *w, trnsciSelfTestRoutine *o) {
    memset(o, 0, sizeof(*o));
    snprintf(o->routine, sizeof(o->routine), "%s", w->routine);
    snprintf(o->group, sizeof(o->group), "%s", w->group);
    snprintf(o->used, sizeof(o->used), "%s", w->used);
    const int refused = strcmp(w->used, "refused") == 0;
    const int first = w->n_candidates > 0 && strcmp(w->candidates[0]->name, w->used) == 0;
    snprintf(o->result, sizeof(o->result), "%s",
             refused ? "refused"
             : first ? "passed"
                     : "replaced");
    if (w->n_candidates == 0)
        return;
    const Trnsci__V1__SelfTestCandidate *c = w->candidates[0];
    o->cases = c->cases;
    o->failedCases = c->failed_cases;
    o->worstRatio = c->worst_ratio;
    o->ms = c->ms;
    snprintf(o->verdict, sizeof(o->verdict), "%s", c->verdict);
    snprintf(o->detail, sizeof(o->detail), "%s", c->detail);
}

trnsciError_t trnsciDaemonSelfTest(const char *address, int rerun, trnsciSelfTestRoutine *routines,
                                   int capacity, int *count, trnsciSelfTestSummary *summary) {
    if (capacity < 0 || (capacity > 0 && !routines))
        return trn_fail(trnsciErrorInvalidValue,
                        "trnsciDaemonSelfTest: capacity is negative, or routines is NULL with "
                        "capacity > 0");
    Trnsci__V1__SelfTestRequest req = TRNSCI__V1__SELF_TEST_REQUEST__INIT;
    req.rerun = rerun != 0;
    Trnsci__V1__SelfTestReply *r = NULL;
    const trnsciError_t e = trn_daemon_call(address, TRN_WIRE_SELF_TEST, &req.base,
                                            &trnsci__v1__self_test_reply__descriptor,
                                            (ProtobufCMessage **)&r, "trnsciDaemonSelfTest");
    if (e != trnsciSuccess)
        return e;
    if (count)
        *count = (int)r->n_routines;
    for (size_t i = 0; i < r->n_routines && (int)i < capacity; i++)
        routine_from_wire(r->routines[i], &routines[i]);
    if (summary) {
        memset(summary, 0, sizeof(*summary));
        summary->checked = r->checked;
        summary->passed = r->passed;
        summary->replaced = r->replaced;
        summary->refused = r->refused;
        summary->seconds = r->seconds;
        summary->processes = r->processes;
        snprintf(summary->blasCore, sizeof(summary->blasCore), "%s", r->blas_core);
        snprintf(summary->blasConfig, sizeof(summary->blasConfig), "%s", r->blas_config);
        snprintf(summary->blasWhy, sizeof(summary->blasWhy), "%s", r->blas_why);
        summary->finishedUnixMs = r->finished_unix_ms;
        summary->onDemand = r->on_demand;
    }
    trnsci__v1__self_test_reply__free_unpacked(r, NULL);
    return trn_ok();
}
