/*
 * service_plan.c — plans: a session's plan handles (PlanCreate,
 * PlanDestroy) on the daemon-wide plan cache, and the operators' view of
 * that cache (Plans: list, clear, warm).
 *
 * Plans are FFT transforms (trnfftPlan*) and tensor contractions
 * (trntensorCreatePlan). PlanCreate replies as soon as the plan is found or made in the cache: the
 * cache prepares it on its planner thread, and the first op that needs a part
 * not yet prepared waits for it on the worker (scheduler/plan_cache.h). So a
 * frontend thread never plans.
 *
 * The cache is shared by every tenant, so clearing and warming it are the
 * administrators' (root, the daemon's user, a token with scope=admin:
 * trn_caller_is_admin), and a listing shows a caller who is not one only
 * the plans and graphs its own sessions hold (the sessions Status would
 * list to it), beside the cache's daemon-wide counters (docs/security.md,
 * "The shared plan cache").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/log.h"
#include "daemon/service_internal.h"
#include "ops/fft_shape.h"
#include "scheduler/graph_cache.h"

void trn_service_plan_stats(trn_service *svc, Trnsci__V1__PlanCacheStats *w) {
    trn_plan_cache_stats st;
    trn_plan_cache_get_stats(svc->plans, &st);
    trnsci__v1__plan_cache_stats__init(w);
    w->hits = st.hits;
    w->misses = st.misses;
    w->entries = st.entries;
    w->bytes = st.bytes;
    w->max_bytes = st.max_bytes;
    w->evictions = st.evictions;
    w->builds = st.builds;
    w->build_failures = st.build_failures;
    w->build_seconds = st.build_seconds;
    w->saved_seconds = st.saved_seconds;
    w->prewarm_done = st.prewarm_done != 0;
}

/* The part a new plan of this type is prepared with first: the forward
 * transform out of place (the inverse for C2R/Z2D, which have no forward). */
static int first_part(trn_fft_type t) {
    return trn_fft_type_c2r(t) ? (int)TRN_FFT_VARIANT_INVERSE : 0;
}

/* Gives the session handle h (taking over its entry reference); returns the
 * id, or 0 when the session is closed or holds too many plans. */
static uint32_t add_handle(trn_session *s, trn_session_plan *h) {
    trn_session_plan *p = malloc(sizeof(*p));
    if (!p)
        return 0;
    *p = *h;
    uint32_t id = 0;
    pthread_mutex_lock(&s->lock);
    if (!s->closed && s->next_plan_id <= UINT32_MAX && s->plans.len < TRN_SESSION_MAX_PLANS &&
        trn_idmap_put(&s->plans, s->next_plan_id, p) == 0)
        id = (uint32_t)s->next_plan_id++;
    pthread_mutex_unlock(&s->lock);
    if (!id)
        free(p);
    return id;
}

void trn_service_on_plan_create(trn_service *svc, const Trnsci__V1__PlanCreateRequest *req,
                                trn_call *call) {
    char err[TRN_SERVICE_ERRLEN];
    trn_session *s = trn_service_session(svc, req->session_id, call);
    if (!s)
        return;
    trn_plan_spec spec;
    trn_session_plan h = {0};
    /* A contraction's plan is made whole (part 0); an FFT's by variant. */
    const int tensor = req->spec_case == TRNSCI__V1__PLAN_CREATE_REQUEST__SPEC_TENSOR;
    trn_wire_code rc =
        tensor ? trn_validate_tensor_plan(req->tensor, &spec, err, sizeof(err))
               : trn_validate_fft_plan(
                     req->spec_case == TRNSCI__V1__PLAN_CREATE_REQUEST__SPEC_FFT ? req->fft : NULL,
                     &spec, &h, err, sizeof(err));
    int hit = 0;
    if (rc == TRN_WIRE_OK) {
        rc = trn_plan_error_code(trn_plan_cache_acquire(svc->plans, &spec,
                                                        tensor ? 0 : first_part(spec.u.fft.type),
                                                        &h.entry, &hit, err, sizeof(err)));
    }
    uint32_t id = 0;
    if (rc == TRN_WIRE_OK && !(id = add_handle(s, &h))) {
        trn_plan_entry_release(h.entry);
        snprintf(err, sizeof(err), "PlanCreate: the session is closed or already holds %u plans",
                 TRN_SESSION_MAX_PLANS);
        rc = TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    if (rc != TRN_WIRE_OK) {
        char who[160];
        trn_log(TRN_LOG_DEBUG, "%s: PlanCreate refused: %s", trn_session_who(s, who, sizeof(who)),
                err);
        trn_session_unref(s);
        trn_service_finish_error(call, rc, err);
        return;
    }
    char who[160];
    trn_log(TRN_LOG_DEBUG, "%s: plan %u = %s (%s)", trn_session_who(s, who, sizeof(who)), id,
            trn_plan_entry_key(h.entry), hit ? "cache hit" : "new");
    Trnsci__V1__PlanCreateReply r = TRNSCI__V1__PLAN_CREATE_REPLY__INIT;
    r.plan_id = id;
    r.cache_hit = hit != 0;
    r.key = (char *)trn_plan_entry_key(h.entry);
    trn_service_finish_reply(call, &r.base);
    trn_session_unref(s);
}

void trn_service_on_plan_destroy(trn_service *svc, const Trnsci__V1__PlanDestroyRequest *req,
                                 trn_call *call) {
    trn_session *s = trn_service_session(svc, req->session_id, call);
    if (!s)
        return;
    pthread_mutex_lock(&s->lock);
    trn_session_plan *p = req->plan_id ? trn_idmap_remove(&s->plans, req->plan_id) : NULL;
    pthread_mutex_unlock(&s->lock);
    trn_session_unref(s);
    if (!p) {
        char err[96];
        snprintf(err, sizeof(err), "PlanDestroy: plan %u does not exist in this session",
                 req->plan_id);
        trn_service_finish_error(call, TRN_WIRE_INVALID_ARGUMENT, err);
        return;
    }
    trn_plan_entry_release(p->entry); /* queued ops hold their own */
    free(p);
    Trnsci__V1__PlanDestroyReply r = TRNSCI__V1__PLAN_DESTROY_REPLY__INIT;
    trn_service_finish_reply(call, &r.base);
}

/* Rejected manifest lines of a PLANS_WARM, collected for the reply. */
typedef struct rejects {
    char **lines;
    size_t n, cap;
} rejects;

static void collect_reject(void *ctx, const char *line, const char *why) {
    rejects *r = ctx;
    if (r->n == r->cap) {
        const size_t cap = r->cap ? 2 * r->cap : 8;
        char **v = cap <= 1024 ? realloc(r->lines, cap * sizeof(*v)) : NULL;
        if (!v)
            return;
        r->lines = v;
        r->cap = cap;
    }
    const size_t len = strlen(line) + strlen(why) + 8;
    char *msg = malloc(len);
    if (!msg)
        return;
    snprintf(msg, len, "%s: %s", line, why);
    r->lines[r->n++] = msg;
}

/* Refuses an action only administrators may take; returns 0 when the
 * caller is one. */
static int require_admin(trn_service *svc, trn_call *call, const char *what) {
    if (trn_caller_is_admin(&call->peer, svc->daemon_uid))
        return 0;
    char err[TRN_SERVICE_ERRLEN];
    snprintf(err, sizeof(err),
             "Plans %s changes the plan cache every client shares: it needs root, the daemon's "
             "own user (uid %u), or a token with scope=admin",
             what, svc->daemon_uid);
    char uid[16] = "?";
    if (call->peer.known)
        snprintf(uid, sizeof(uid), "%u", call->peer.uid);
    trn_log(TRN_LOG_WARN, "refused Plans %s to uid %s%s%s: not an administrator", what, uid,
            call->peer.token ? ", token " : "", call->peer.token ? call->peer.token->name : "");
    trn_service_finish_error(call, TRN_WIRE_PERMISSION_DENIED, err);
    return -1;
}

void trn_service_on_plans(trn_service *svc, const Trnsci__V1__PlansRequest *req, trn_call *call) {
    Trnsci__V1__PlansReply r = TRNSCI__V1__PLANS_REPLY__INIT;
    rejects rj = {0};
    if ((req->action == TRNSCI__V1__PLANS_ACTION__PLANS_CLEAR &&
         require_admin(svc, call, "clear")) ||
        (req->action == TRNSCI__V1__PLANS_ACTION__PLANS_WARM && require_admin(svc, call, "warm")))
        return;
    /* What the caller may see listed: everything, or what its sessions hold. */
    const trn_scope scope =
        trn_status_scope(&call->peer, call->transport,
                         svc->tokens && trn_token_store_required(svc->tokens), svc->daemon_uid);
    const int all = scope.kind == TRN_SCOPE_ALL;
    trn_keys held_plans = {0}, held_graphs = {0};
    if (!all && trn_session_table_held_keys(svc->sessions, &scope, &held_plans, &held_graphs)) {
        trn_service_finish_error(call, TRN_WIRE_RESOURCE_EXHAUSTED,
                                 "daemon out of memory listing plans");
        return;
    }
    switch (req->action) {
    case TRNSCI__V1__PLANS_ACTION__PLANS_LIST: break;
    case TRNSCI__V1__PLANS_ACTION__PLANS_CLEAR: {
        unsigned kept;
        r.cleared = trn_plan_cache_clear(svc->plans, &kept);
        r.kept = kept;
        if (svc->graphs)
            trn_graph_cache_clear(svc->graphs);
        trn_log(TRN_LOG_INFO, "plan cache cleared: %u plans dropped, %u in use kept", r.cleared,
                kept);
        break;
    }
    case TRNSCI__V1__PLANS_ACTION__PLANS_WARM:
        r.queued = trn_plan_cache_warm(svc->plans, req->manifest ? req->manifest : "",
                                       collect_reject, &rj);
        r.n_rejected = rj.n;
        r.rejected = rj.lines;
        trn_log(TRN_LOG_INFO, "plan cache: warming %u plans (%zu lines rejected)", r.queued, rj.n);
        break;
    default:
        trn_keys_free(&held_plans);
        trn_keys_free(&held_graphs);
        trn_service_finish_error(call, TRN_WIRE_INVALID_ARGUMENT, "Plans: unknown action");
        return;
    }
    trn_plan_info *info = NULL;
    const size_t n = trn_plan_cache_list(svc->plans, &info);
    Trnsci__V1__PlanInfo *w = n ? calloc(n, sizeof(*w)) : NULL;
    Trnsci__V1__PlanInfo **ptrs = n ? calloc(n, sizeof(*ptrs)) : NULL;
    if (w && ptrs) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            if (!all && !trn_keys_has(&held_plans, info[i].key))
                continue;
            trnsci__v1__plan_info__init(&w[k]);
            w[k].key = info[i].key;
            w[k].state = info[i].state;
            w[k].hits = info[i].hits;
            w[k].uses = info[i].uses;
            w[k].build_seconds = info[i].build_seconds;
            w[k].bytes = info[i].bytes;
            w[k].idle_ms = info[i].idle_ms;
            ptrs[k] = &w[k];
            k++;
        }
        r.n_plans = k;
        r.plans = ptrs;
    }
    trn_graph_info *ginfo = NULL;
    const size_t ng = svc->graphs ? trn_graph_cache_list(svc->graphs, &ginfo) : 0;
    Trnsci__V1__GraphInfo *gw = ng ? calloc(ng, sizeof(*gw)) : NULL;
    Trnsci__V1__GraphInfo **gptrs = ng ? calloc(ng, sizeof(*gptrs)) : NULL;
    if (gw && gptrs) {
        size_t k = 0;
        for (size_t i = 0; i < ng; i++) {
            if (!all && !trn_keys_has(&held_graphs, ginfo[i].key))
                continue;
            trnsci__v1__graph_info__init(&gw[k]);
            gw[k].key = ginfo[i].key;
            gw[k].nodes = ginfo[i].nodes;
            gw[k].lanes = ginfo[i].lanes;
            gw[k].hits = ginfo[i].hits;
            gw[k].prepare_seconds = ginfo[i].prepare_seconds;
            gw[k].n_plans = ginfo[i].nplans;
            gw[k].plans = ginfo[i].plans;
            gw[k].idle_ms = ginfo[i].idle_ms;
            gptrs[k] = &gw[k];
            k++;
        }
        r.n_graphs = k;
        r.graphs = gptrs;
    }
    Trnsci__V1__PlanCacheStats st;
    trn_service_plan_stats(svc, &st);
    r.stats = &st;
    trn_service_finish_reply(call, &r.base);
    trn_graph_info_free(ginfo, ng);
    trn_keys_free(&held_plans);
    trn_keys_free(&held_graphs);
    free(gw);
    free(gptrs);
    for (size_t i = 0; i < rj.n; i++)
        free(rj.lines[i]);
    free(rj.lines);
    free(ptrs);
    free(w);
    free(info);
}
