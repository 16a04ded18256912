/*
 * plans.c — the daemon's plan cache seen from a client: list, clear, warm
 * (trnsciDaemonGetPlans and friends, what `trnsci plans` uses). Each call is
 * one Plans RPC on a connection of its own, without a session.
 */
#include <stdio.h>
#include <string.h>

#include "client/client.h"

static trnsciError_t plans_call(const char *address, Trnsci__V1__PlansAction action,
                                const char *manifest, Trnsci__V1__PlansReply **out,
                                const char *fn) {
    Trnsci__V1__PlansRequest req = TRNSCI__V1__PLANS_REQUEST__INIT;
    req.action = action;
    req.manifest = (char *)(manifest ? manifest : "");
    return trn_daemon_call(address, TRN_WIRE_PLANS, &req.base, &trnsci__v1__plans_reply__descriptor,
                           (ProtobufCMessage **)out, fn);
}

static void stats_from_wire(const Trnsci__V1__PlanCacheStats *w, trnsciPlanCacheStats *s) {
    memset(s, 0, sizeof(*s));
    if (!w)
        return;
    s->hits = w->hits;
    s->misses = w->misses;
    s->entries = w->entries;
    s->bytes = w->bytes;
    s->maxBytes = w->max_bytes;
    s->evictions = w->evictions;
    s->builds = w->builds;
    s->buildFailures = w->build_failures;
    s->buildSeconds = w->build_seconds;
    s->savedSeconds = w->saved_seconds;
    s->prewarmDone = w->prewarm_done;
}

trnsciError_t trnsciDaemonGetPlans(const char *address, trnsciPlanInfo *plans, int capacity,
                                   int *count, trnsciPlanCacheStats *stats) {
    if (!count || capacity < 0 || (capacity > 0 && !plans))
        return trn_fail(trnsciErrorInvalidValue,
                        "trnsciDaemonGetPlans: count is NULL, capacity is negative, or plans is "
                        "NULL with capacity > 0");
    Trnsci__V1__PlansReply *r = NULL;
    const trnsciError_t e =
        plans_call(address, TRNSCI__V1__PLANS_ACTION__PLANS_LIST, NULL, &r, "trnsciDaemonGetPlans");
    if (e != trnsciSuccess)
        return e;
    *count = (int)r->n_plans;
    for (size_t i = 0; i < r->n_plans && (int)i < capacity; i++) {
        const Trnsci__V1__PlanInfo *in = r->plans[i];
        trnsciPlanInfo *o = &plans[i];
        memset(o, 0, sizeof(*o));
        snprintf(o->key, sizeof(o->key), "%s", in->key);
        snprintf(o->state, sizeof(o->state), "%s", in->state);
        o->hits = in->hits;
        o->uses = in->uses;
        o->bytes = in->bytes;
        o->idleMs = in->idle_ms;
        o->buildSeconds = in->build_seconds;
    }
    if (stats)
        stats_from_wire(r->stats, stats);
    trnsci__v1__plans_reply__free_unpacked(r, NULL);
    return trn_ok();
}

trnsciError_t trnsciDaemonClearPlans(const char *address, unsigned *cleared, unsigned *kept) {
    Trnsci__V1__PlansReply *r = NULL;
    const trnsciError_t e = plans_call(address, TRNSCI__V1__PLANS_ACTION__PLANS_CLEAR, NULL, &r,
                                       "trnsciDaemonClearPlans");
    if (e != trnsciSuccess)
        return e;
    if (cleared)
        *cleared = r->cleared;
    if (kept)
        *kept = r->kept;
    trnsci__v1__plans_reply__free_unpacked(r, NULL);
    return trn_ok();
}

trnsciError_t trnsciDaemonWarmPlans(const char *address, const char *manifest, unsigned *queued,
                                    unsigned *rejected) {
    if (!manifest)
        return trn_fail(trnsciErrorInvalidValue, "trnsciDaemonWarmPlans: manifest is NULL");
    Trnsci__V1__PlansReply *r = NULL;
    const trnsciError_t e = plans_call(address, TRNSCI__V1__PLANS_ACTION__PLANS_WARM, manifest, &r,
                                       "trnsciDaemonWarmPlans");
    if (e != trnsciSuccess)
        return e;
    if (queued)
        *queued = r->queued;
    if (rejected)
        *rejected = (unsigned)r->n_rejected;
    for (size_t i = 0; i < r->n_rejected; i++)
        trn_fail(trnsciSuccess, "rejected: %s", r->rejected[i]); /* the last one, for the message */
    trnsci__v1__plans_reply__free_unpacked(r, NULL);
    if (rejected && *rejected)
        return trnsciSuccess; /* the message names the last rejected line */
    return trn_ok();
}

trnsciError_t trnsciDaemonGetGraphs(const char *address, trnsciGraphCacheInfo *graphs, int capacity,
                                    int *count) {
    if (!count || capacity < 0 || (capacity > 0 && !graphs))
        return trn_fail(trnsciErrorInvalidValue,
                        "trnsciDaemonGetGraphs: count is NULL, capacity is negative, or graphs "
                        "is NULL with capacity > 0");
    Trnsci__V1__PlansReply *r = NULL;
    const trnsciError_t e = plans_call(address, TRNSCI__V1__PLANS_ACTION__PLANS_LIST, NULL, &r,
                                       "trnsciDaemonGetGraphs");
    if (e != trnsciSuccess)
        return e;
    *count = (int)r->n_graphs;
    for (size_t i = 0; i < r->n_graphs && (int)i < capacity; i++) {
        const Trnsci__V1__GraphInfo *in = r->graphs[i];
        trnsciGraphCacheInfo *o = &graphs[i];
        memset(o, 0, sizeof(*o));
        snprintf(o->key, sizeof(o->key), "%s", in->key);
        o->nodes = in->nodes;
        o->lanes = in->lanes;
        o->hits = in->hits;
        o->prepareSeconds = in->prepare_seconds;
        o->plans = (unsigned)in->n_plans;
        o->idleMs = in->idle_ms;
    }
    trnsci__v1__plans_reply__free_unpacked(r, NULL);
    return trn_ok();
}
