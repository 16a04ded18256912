/*
 * service_selftest.c — the SelfTest RPC: the latest report of the outside
 * routines' self-test, or a new run (daemon/selftest.h), for `trnsci
 * selftest` and `trnsci status`.
 *
 * A rerun is answered from the self-test's thread when the run ends; a
 * request during a run waits for that run.
 */
#include <stdlib.h>

#include "daemon/selftest.h"
#include "daemon/service_internal.h"

/* The reply's storage: the messages and the pointer arrays protobuf-c
 * wants, freed after packing. */
typedef struct reply_store {
    Trnsci__V1__SelfTestRoutine *routines;
    Trnsci__V1__SelfTestRoutine **routine_ptrs;
    Trnsci__V1__SelfTestCandidate *cands;
    Trnsci__V1__SelfTestCandidate **cand_ptrs;
} reply_store;

static void store_free(reply_store *s) {
    free(s->routines);
    free(s->routine_ptrs);
    free(s->cands);
    free(s->cand_ptrs);
}

/* Fills r from the report; the strings point into rep and meta. Returns 0,
 * or -1 when out of memory. */
static int to_wire(const trn_st_report *rep, const trn_selftest_meta *meta,
                   Trnsci__V1__SelfTestReply *r, reply_store *s) {
    const size_t n = rep->checked, nc = n * TRN_ST_MAX_CANDIDATES;
    s->routines = calloc(n ? n : 1, sizeof(*s->routines));
    s->routine_ptrs = calloc(n ? n : 1, sizeof(*s->routine_ptrs));
    s->cands = calloc(nc ? nc : 1, sizeof(*s->cands));
    s->cand_ptrs = calloc(nc ? nc : 1, sizeof(*s->cand_ptrs));
    if (!s->routines || !s->routine_ptrs || !s->cands || !s->cand_ptrs)
        return -1;
    size_t k = 0, kc = 0;
    for (int id = 0; id < TRN_ROUTINE_COUNT && k < n; id++) {
        const trn_st_routine_result *rr = &rep->r[id];
        if (!rr->checked)
            continue;
        Trnsci__V1__SelfTestRoutine *w = &s->routines[k];
        trnsci__v1__self_test_routine__init(w);
        w->routine = (char *)trn_routine_name(id);
        w->group = (char *)trn_routine_group(id);
        w->used = (char *)trn_st_used_name(rep, id);
        w->candidates = &s->cand_ptrs[kc];
        for (int c = 0; c < rr->ncand; c++, kc++) {
            const trn_st_candidate_result *cr = &rr->cand[c];
            Trnsci__V1__SelfTestCandidate *wc = &s->cands[kc];
            trnsci__v1__self_test_candidate__init(wc);
            wc->name = (char *)(cr->name ? cr->name : "");
            wc->verdict = (char *)trn_st_verdict_name(cr->verdict);
            wc->cases = cr->cases;
            wc->failed_cases = cr->failed;
            wc->worst_ratio = cr->worst;
            wc->ms = cr->ms;
            wc->detail = (char *)cr->detail;
            s->cand_ptrs[kc] = wc;
            w->n_candidates++;
        }
        s->routine_ptrs[k++] = w;
    }
    r->n_routines = k;
    r->routines = s->routine_ptrs;
    r->checked = rep->checked;
    r->passed = rep->passed;
    r->replaced = rep->replaced;
    r->refused = rep->refused;
    r->seconds = rep->seconds;
    r->processes = (uint32_t)rep->workers;
    r->blas_core = (char *)rep->blas_core;
    r->blas_config = (char *)rep->blas_config;
    r->blas_why = (char *)(meta && meta->blas_why ? meta->blas_why : "");
    r->finished_unix_ms = meta ? meta->finished_unix_ms : 0;
    r->on_demand = meta ? meta->on_demand != 0 : 0;
    return 0;
}

static void answer(void *arg, const trn_st_report *rep, const trn_selftest_meta *meta,
                   const char *err) {
    trn_call *call = arg;
    if (!rep) {
        trn_service_finish_error(call, TRN_WIRE_UNAVAILABLE, err ? err : "no self-test report");
        return;
    }
    Trnsci__V1__SelfTestReply r = TRNSCI__V1__SELF_TEST_REPLY__INIT;
    reply_store s = {0};
    if (to_wire(rep, meta, &r, &s) != 0)
        trn_service_finish_error(call, TRN_WIRE_RESOURCE_EXHAUSTED,
                                 "SelfTest: the daemon is out of memory for the reply");
    else
        trn_service_finish_reply(call, &r.base);
    store_free(&s);
}

void trn_service_on_self_test(trn_service *svc, const Trnsci__V1__SelfTestRequest *req,
                              trn_call *call) {
    if (!svc->selftest) {
        trn_service_finish_error(call, TRN_WIRE_UNAVAILABLE,
                                 "SelfTest: no self-test in this daemon");
        return;
    }
    if (!req->rerun) {
        trn_selftest_read(svc->selftest, answer, call);
        return;
    }
    if (trn_selftest_request(svc->selftest, answer, call) != 0)
        trn_service_finish_error(call, TRN_WIRE_RESOURCE_EXHAUSTED,
                                 "SelfTest: the daemon is out of memory");
}
