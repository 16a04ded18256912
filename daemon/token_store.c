/*
 * token_store.c — see token_store.h.
 *
 * Only the thread that reloads (the main loop's) ever replaces s->cur, so it
 * may read s->cur without the lock; every other reader takes the lock. A
 * reload builds the whole new table first, marks the removed tokens revoked
 * and then swaps: a call that authenticated against the old table a moment
 * before is refused where it would open or use a session (revoked), so no
 * session of a removed token outlives the sweep that follows.
 */
#include "daemon/token_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/log.h"

int trn_token_store_init(trn_token_store *s, const char *path, char *err, size_t errlen) {
    memset(s, 0, sizeof(*s));
    if (path) {
        if (trn_tokens_load(&s->cur, path, err, errlen) != 0)
            return -1;
        s->path = strdup(path);
        if (!s->path) {
            snprintf(err, errlen, "out of memory");
            trn_tokens_free(&s->cur);
            return -1;
        }
    }
    pthread_mutex_init(&s->lock, NULL);
    return 0;
}

void trn_token_store_destroy(trn_token_store *s) {
    trn_tokens_free(&s->cur);
    free(s->path);
    s->path = NULL;
    pthread_mutex_destroy(&s->lock);
}

int trn_token_store_required(const trn_token_store *s) {
    return s->path != NULL;
}

size_t trn_token_store_count(trn_token_store *s) {
    pthread_mutex_lock(&s->lock);
    const size_t n = s->cur.n;
    pthread_mutex_unlock(&s->lock);
    return n;
}

trn_token *trn_token_store_authenticate(trn_token_store *s, const char *value, size_t len) {
    pthread_mutex_lock(&s->lock);
    trn_token *tk = trn_tokens_authenticate(&s->cur, value, len);
    if (tk)
        trn_token_ref(tk); /* before the lock goes: a swap may drop the table's */
    pthread_mutex_unlock(&s->lock);
    return tk;
}

/* ---- reload ------------------------------------------------------------------ */

static trn_token *find_name(const trn_tokens *t, const char *name) {
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->v[i]->name, name) == 0)
            return t->v[i];
    return NULL;
}

static int same_secret(const trn_token *a, const trn_token *b) {
    return a->secret_len == b->secret_len && memcmp(a->secret, b->secret, a->secret_len) == 0;
}

static void limit_text(char *buf, size_t len, uint64_t v) {
    if (v)
        snprintf(buf, len, "%llu", (unsigned long long)v);
    else
        snprintf(buf, len, "unlimited");
}

/* Appends "key a -> b" to the line (at *used) when a limit differs. */
static void diff_limit(char *line, size_t len, size_t *used, const char *key, uint64_t was,
                       uint64_t now) {
    if (was == now || *used >= len)
        return;
    char a[24], b[24];
    limit_text(a, sizeof(a), was);
    limit_text(b, sizeof(b), now);
    const int n =
        snprintf(line + *used, len - *used, "%s%s %s -> %s", *used ? ", " : "", key, a, b);
    if (n > 0)
        *used += (size_t)n;
}

/* A kept token takes the new file's limits; returns whether any changed,
 * after logging which. */
static int adopt_limits(trn_token *kept, const trn_token *fresh) {
    const trn_token_limits was = trn_token_get_limits(kept);
    const trn_token_limits now = trn_token_get_limits(fresh);
    char line[256] = "";
    size_t used = 0;
    diff_limit(line, sizeof(line), &used, "sessions", was.sessions, now.sessions);
    diff_limit(line, sizeof(line), &used, "bytes", was.bytes, now.bytes);
    diff_limit(line, sizeof(line), &used, "queued-ops", was.queued_ops, now.queued_ops);
    if (was.priority_ceiling != now.priority_ceiling && used < sizeof(line)) {
        const int n = snprintf(line + used, sizeof(line) - used, "%spriority-ceiling %d -> %d",
                               used ? ", " : "", was.priority_ceiling, now.priority_ceiling);
        if (n > 0)
            used += (size_t)n;
    }
    if (was.admin != now.admin && used < sizeof(line)) {
        const int n =
            snprintf(line + used, sizeof(line) - used, "%sscope %s -> %s", used ? ", " : "",
                     was.admin ? "admin" : "user", now.admin ? "admin" : "user");
        if (n > 0)
            used += (size_t)n;
    }
    if (!used)
        return 0;
    atomic_store(&kept->admin, now.admin);
    atomic_store(&kept->max_sessions, now.sessions);
    atomic_store(&kept->max_bytes, now.bytes);
    atomic_store(&kept->max_queued_ops, now.queued_ops);
    atomic_store(&kept->priority_ceiling, now.priority_ceiling);
    trn_log(TRN_LOG_INFO, "reload: token %s: %s (for new requests; accepted work goes on)",
            kept->name, line);
    return 1;
}

int trn_token_store_reload(trn_token_store *s, trn_tokens_reload *r, char *err, size_t errlen) {
    memset(r, 0, sizeof(*r));
    if (!s->path) {
        snprintf(err, errlen, "no --tokens-file");
        return -1;
    }
    trn_tokens fresh = {0};
    if (trn_tokens_load(&fresh, s->path, err, errlen) != 0)
        return -1;
    const trn_tokens *old = &s->cur;
    /* Kept tokens replace their fresh copies, so that sessions, usage and
     * pointer identity (a session belongs to its token) carry over. */
    for (size_t i = 0; i < fresh.n; i++) {
        trn_token *f = fresh.v[i];
        trn_token *o = find_name(old, f->name);
        if (o && same_secret(o, f)) {
            r->changed += (unsigned)adopt_limits(o, f);
            trn_token_ref(o);
            trn_token_unref(f);
            fresh.v[i] = o;
        } else if (o) {
            trn_log(TRN_LOG_INFO,
                    "reload: token %s: its secret changed: the old one is removed (its sessions "
                    "are closed) and the new one added",
                    f->name);
            r->added++;
        } else {
            trn_log(TRN_LOG_INFO, "reload: token %s added", f->name);
            r->added++;
        }
    }
    for (size_t i = 0; i < old->n; i++) {
        trn_token *o = old->v[i];
        int kept = 0;
        for (size_t j = 0; j < fresh.n && !kept; j++)
            kept = fresh.v[j] == o;
        if (kept)
            continue;
        atomic_store(&o->revoked, 1);
        r->removed++;
        if (find_name(&fresh, o->name)) /* its secret changed: logged above */
            continue;
        trn_log(TRN_LOG_INFO,
                "reload: token %s removed: it authenticates no more calls and its sessions are "
                "closed",
                o->name);
    }
    r->total = (unsigned)fresh.n;
    pthread_mutex_lock(&s->lock);
    trn_tokens was = s->cur;
    s->cur = fresh;
    pthread_mutex_unlock(&s->lock);
    trn_tokens_free(&was); /* the removed tokens live on while sessions or calls hold them */
    return 0;
}
