/*
 * session_errors.c — errors that arise after launch, kept per stream until a
 * synchronising call reports them.
 *
 * What lands here: a kernel's failure, an op whose deadline passed, a plan
 * that could not be prepared, and an asynchronous launch the daemon refused
 * (the client does not wait for a Submit's reply then). Each message already
 * names the op: its family and routine, its launch number and its stream.
 *
 * Invariants: at most one error per stream — its earliest launch, the one
 * that explains what followed — and at most max-streams + 1 streams with an
 * error (a client naming ever new stream ids cannot grow the daemon's
 * memory; the excess is counted and mentioned by the next device-wide
 * Synchronize). Everything is under the session's lock.
 */
#include <stdio.h>
#include <stdlib.h>

#include "daemon/session.h"

typedef struct trn_deferred_error {
    uint64_t launch_seq;
    trn_wire_code code;
    char msg[400];
} trn_deferred_error;

void trn_session_defer_error(trn_session *s, uint32_t stream_id, uint64_t launch_seq,
                             trn_wire_code code, const char *msg) {
    const uint64_t key = (uint64_t)stream_id + 1;
    pthread_mutex_lock(&s->lock);
    trn_deferred_error *e = trn_idmap_get(&s->errors, key);
    if (e && e->launch_seq <= launch_seq)
        goto out; /* an earlier op on the stream failed first */
    if (!e) {
        e = s->errors.len <= s->table->cfg->max_streams ? malloc(sizeof(*e)) : NULL;
        if (!e || trn_idmap_put(&s->errors, key, e) != 0) {
            free(e);
            s->errors_dropped++;
            goto out;
        }
    }
    e->launch_seq = launch_seq;
    e->code = code;
    snprintf(e->msg, sizeof(e->msg), "%s", msg);
out:
    pthread_mutex_unlock(&s->lock);
}

/* With s->lock held: the earliest error of every stream, removed with all
 * the others (freed, except the one returned); *others counts them. */
static trn_deferred_error *take_earliest_locked(trn_session *s, uint64_t *others) {
    trn_deferred_error *first = NULL;
    *others = s->errors_dropped;
    size_t i = 0;
    uint64_t id;
    void *val;
    while (trn_idmap_next(&s->errors, &i, &id, &val)) {
        trn_deferred_error *e = val;
        if (!first || e->launch_seq < first->launch_seq) {
            if (first) {
                free(first);
                ++*others;
            }
            first = e;
        } else {
            free(e);
            ++*others;
        }
    }
    trn_idmap_free(&s->errors);
    trn_idmap_init(&s->errors);
    s->errors_dropped = 0;
    return first;
}

trn_wire_code trn_session_take_error(trn_session *s, int all_streams, uint32_t stream_id, char *msg,
                                     size_t len) {
    uint64_t others = 0;
    pthread_mutex_lock(&s->lock);
    trn_deferred_error *e = all_streams ? take_earliest_locked(s, &others)
                                        : trn_idmap_remove(&s->errors, (uint64_t)stream_id + 1);
    pthread_mutex_unlock(&s->lock);
    if (!e && !others)
        return TRN_WIRE_OK;
    trn_wire_code code;
    if (!e) {
        snprintf(msg, len,
                 "ops failed on more streams than max-streams; their errors were not kept");
        code = TRN_WIRE_INTERNAL;
    } else if (others) {
        snprintf(msg, len, "%s (and %llu failed op(s) on other streams)", e->msg,
                 (unsigned long long)others);
        code = e->code;
    } else {
        snprintf(msg, len, "%s", e->msg);
        code = e->code;
    }
    free(e);
    return code;
}

void trn_session_errors_free(trn_session *s) {
    size_t i = 0;
    uint64_t id;
    void *val;
    while (trn_idmap_next(&s->errors, &i, &id, &val))
        free(val);
    trn_idmap_free(&s->errors);
}
