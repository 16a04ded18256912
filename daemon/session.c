/*
 * session.c — see session.h.
 *
 * Lock order: table->lock before s->lock; the scheduler's lock is taken inside
 * either (via trn_sched_* calls) but never the other way round, because
 * scheduler callbacks run with no scheduler lock held.
 */
#define _GNU_SOURCE
#include "daemon/session.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "daemon/bufmem.h"
#include "daemon/log.h"
#include "daemon/token.h"
#include "ops/write_clock.h"
#include "trnsci_wire.h"

uint64_t trn_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void trn_session_table_init(trn_session_table *t, trn_sched *sched, const trn_config *cfg) {
    pthread_mutex_init(&t->lock, NULL);
    trn_idmap_init(&t->sessions);
    trn_idmap_init(&t->uids);
    t->sched = sched;
    t->cfg = cfg;
    atomic_init(&t->bytes_held, 0);
    atomic_init(&t->buffers, 0);
    atomic_init(&t->next_number, 1);
}

/* Returns every session matching pred, each with a reference. */
static size_t take_sessions(trn_session_table *t, int (*pred)(trn_session *, uint64_t),
                            uint64_t now, trn_session ***out) {
    pthread_mutex_lock(&t->lock);
    trn_session **list = calloc(t->sessions.len + 1, sizeof(*list));
    size_t n = 0, i = 0;
    uint64_t id;
    void *val;
    while (list && trn_idmap_next(&t->sessions, &i, &id, &val)) {
        trn_session *s = val;
        if (pred(s, now)) {
            trn_session_ref(s);
            list[n++] = s;
        }
    }
    pthread_mutex_unlock(&t->lock);
    *out = list;
    return n;
}

static int any_session(trn_session *s, uint64_t now) {
    (void)s;
    (void)now;
    return 1;
}

static int lease_expired(trn_session *s, uint64_t now) {
    pthread_mutex_lock(&s->lock);
    const int expired = !s->attach && now >= s->lease_deadline_ms;
    pthread_mutex_unlock(&s->lock);
    return expired;
}

/* Calls act(s, now, arg) for every session matching pred, outside the
 * table's lock, each held by a reference meanwhile. */
static void for_matching(trn_session_table *t, int (*pred)(trn_session *, uint64_t), uint64_t now,
                         void (*act)(trn_session *, uint64_t, const void *), const void *arg) {
    trn_session **list;
    const size_t n = take_sessions(t, pred, now, &list);
    for (size_t i = 0; i < n; i++) {
        act(list[i], now, arg);
        trn_session_unref(list[i]);
    }
    free(list);
}

static void close_one(trn_session *s, uint64_t now, const void *why) {
    (void)now;
    trn_session_close(s, why);
}

static void close_matching(trn_session_table *t, int (*pred)(trn_session *, uint64_t), uint64_t now,
                           const char *why) {
    for_matching(t, pred, now, close_one, why);
}

void trn_session_table_close_all(trn_session_table *t, const char *why) {
    close_matching(t, any_session, 0, why);
}

/* Kept blocks: below ("Kept blocks"). */
static int kept_stale_locked(const trn_session *s, uint64_t now);
static uint64_t kept_release_older(trn_session *s, uint64_t now);

static int kept_stale(trn_session *s, uint64_t now) {
    pthread_mutex_lock(&s->lock);
    const int stale = kept_stale_locked(s, now);
    pthread_mutex_unlock(&s->lock);
    return stale;
}

static void release_stale(trn_session *s, uint64_t now, const void *arg) {
    (void)arg;
    kept_release_older(s, now);
}

void trn_session_table_expire(trn_session_table *t, uint64_t now_ms) {
    close_matching(t, lease_expired, now_ms, "lease expired");
    for_matching(t, kept_stale, now_ms, release_stale, NULL);
}

static int token_revoked(trn_session *s, uint64_t now) {
    (void)now;
    return s->peer.token && atomic_load(&s->peer.token->revoked);
}

unsigned trn_session_table_close_revoked(trn_session_table *t) {
    trn_session **list;
    const size_t n = take_sessions(t, token_revoked, 0, &list);
    for (size_t i = 0; i < n; i++) {
        /* Nothing can reach them any more: every call with their token is
         * UNAUTHENTICATED, so what they hold could never be used again. */
        trn_session_close(list[i], "its token was removed from the tokens file");
        trn_session_unref(list[i]);
    }
    free(list);
    return (unsigned)n;
}

void trn_session_table_destroy(trn_session_table *t) {
    trn_session_table_close_all(t, "daemon exiting");
    trn_idmap_free(&t->sessions);
    size_t i = 0;
    uint64_t id;
    void *val;
    while (trn_idmap_next(&t->uids, &i, &id, &val))
        free(val);
    trn_idmap_free(&t->uids);
    pthread_mutex_destroy(&t->lock);
}

size_t trn_session_table_snapshot(trn_session_table *t, const trn_scope *scope,
                                  trn_session_info **out) {
    pthread_mutex_lock(&t->lock);
    const size_t cap = t->sessions.len;
    trn_session_info *v = cap ? calloc(cap, sizeof(*v)) : NULL;
    size_t n = 0, i = 0;
    uint64_t id;
    void *val;
    while (v && n < cap && trn_idmap_next(&t->sessions, &i, &id, &val)) {
        trn_session *s = val;
        if (scope && !trn_scope_includes(scope, &s->peer))
            continue; /* peer never changes after the session opens */
        pthread_mutex_lock(&s->lock);
        v[n].number = s->number;
        v[n].transport = s->transport;
        memcpy(v[n].client_name, s->client_name, sizeof(v[n].client_name));
        v[n].pid = s->client_pid;
        v[n].uid = s->peer.known ? s->peer.uid : 0;
        v[n].bytes = s->bytes;
        v[n].buffers = s->buffers.len;
        v[n].kept_bytes = s->kept_bytes;
        v[n].priority = s->priority;
        v[n].ops_pending = s->ops_pending;
        trn_sched_tenant_usage(t->sched, s->tenant, &v[n].usage);
        pthread_mutex_unlock(&s->lock);
        n++;
    }
    pthread_mutex_unlock(&t->lock);
    if (v && n == 0) {
        free(v);
        v = NULL;
    }
    *out = v;
    return v ? n : 0;
}

/* ---- keys held by sessions (Plans' scope) ------------------------------- */

typedef struct key_list {
    char **v;
    size_t n, cap;
    int failed;
} key_list;

static void key_add(key_list *l, const char *key) {
    if (l->failed || !key)
        return;
    if (l->n == l->cap) {
        const size_t cap = l->cap ? 2 * l->cap : 16;
        char **v = realloc(l->v, cap * sizeof(*v));
        if (!v) {
            l->failed = 1;
            return;
        }
        l->v = v;
        l->cap = cap;
    }
    if (!(l->v[l->n] = strdup(key))) {
        l->failed = 1;
        return;
    }
    l->n++;
}

static int cmp_key(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts l, drops repeats and hands it over as k (empty when it failed). */
static int key_finish(key_list *l, trn_keys *k) {
    if (l->failed) {
        k->v = l->v;
        k->n = l->n;
        trn_keys_free(k);
        return -1;
    }
    if (l->n)
        qsort(l->v, l->n, sizeof(*l->v), cmp_key);
    size_t m = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (m && strcmp(l->v[m - 1], l->v[i]) == 0)
            free(l->v[i]);
        else
            l->v[m++] = l->v[i];
    }
    k->v = l->v;
    k->n = m;
    return 0;
}

int trn_keys_has(const trn_keys *k, const char *key) {
    return k->n && bsearch(&key, k->v, k->n, sizeof(*k->v), cmp_key) != NULL;
}

void trn_keys_free(trn_keys *k) {
    for (size_t i = 0; i < k->n; i++)
        free(k->v[i]);
    free(k->v);
    k->v = NULL;
    k->n = 0;
}

int trn_session_table_held_keys(trn_session_table *t, const trn_scope *scope, trn_keys *plans,
                                trn_keys *graphs) {
    key_list p = {0}, g = {0};
    pthread_mutex_lock(&t->lock);
    size_t i = 0;
    uint64_t id;
    void *val;
    while (trn_idmap_next(&t->sessions, &i, &id, &val)) {
        trn_session *s = val;
        if (!trn_scope_includes(scope, &s->peer))
            continue;
        pthread_mutex_lock(&s->lock);
        size_t j = 0;
        while (trn_idmap_next(&s->plans, &j, &id, &val))
            key_add(&p, trn_plan_entry_key(((trn_session_plan *)val)->entry));
        j = 0;
        while (trn_idmap_next(&s->graphs, &j, &id, &val))
            key_add(&g, ((trn_session_graph *)val)->key);
        pthread_mutex_unlock(&s->lock);
    }
    pthread_mutex_unlock(&t->lock);
    const int rp = key_finish(&p, plans), rg = key_finish(&g, graphs);
    if (rp == 0 && rg == 0)
        return 0;
    trn_keys_free(plans);
    trn_keys_free(graphs);
    return -1;
}

unsigned trn_session_table_count(trn_session_table *t) {
    pthread_mutex_lock(&t->lock);
    const unsigned n = (unsigned)t->sessions.len;
    pthread_mutex_unlock(&t->lock);
    return n;
}

/* ---- per-user usage (table->lock held) ----------------------------------
 *
 * A user is a kernel-checked uid (local and grpc+unix clients: its
 * trn_uid_usage) or a bearer token (its own counters, token.h): the
 * daemon-wide per-user limits apply to each, and a token's own limits on
 * top. A session of a known uid that carries a token counts for both. */

/* The usage of uid with a new reference, created if needed; NULL when out of
 * memory. */
static trn_uid_usage *uid_usage_hold_locked(trn_session_table *t, uint32_t uid) {
    trn_uid_usage *u = trn_idmap_get(&t->uids, (uint64_t)uid + 1);
    if (!u) {
        u = calloc(1, sizeof(*u));
        if (!u)
            return NULL;
        atomic_init(&u->queued, 0);
        if (trn_idmap_put(&t->uids, (uint64_t)uid + 1, u) != 0) {
            free(u);
            return NULL;
        }
    }
    u->refs++;
    return u;
}

static void uid_usage_drop_locked(trn_session_table *t, uint32_t uid, trn_uid_usage *u) {
    if (--u->refs == 0)
        free(trn_idmap_remove(&t->uids, (uint64_t)uid + 1));
}

/* Charges bytes to a token (table->lock held): its own bytes= limit and
 * the daemon-wide per-user one. Returns -1 with err written when a limit
 * would be exceeded. */
static int token_charge_bytes_locked(const trn_config *cfg, trn_token *tk, uint64_t bytes,
                                     char *err, size_t errlen) {
    if (!tk)
        return 0;
    /* Read once: a reload may lower them at any moment, and the check and
     * its message must agree. What is held above a lowered limit stays. */
    const uint64_t max = atomic_load(&tk->max_bytes);
    const uint64_t per_user = cfg->max_bytes_per_uid;
    if (max && (bytes > max || tk->bytes > max - bytes)) {
        snprintf(err, errlen,
                 "Alloc of %llu bytes exceeds the token's limit (token %s: bytes=%llu, %llu "
                 "held)",
                 (unsigned long long)bytes, tk->name, (unsigned long long)max,
                 (unsigned long long)tk->bytes);
        return -1;
    }
    if (bytes > per_user || tk->bytes > per_user - bytes) {
        snprintf(err, errlen,
                 "Alloc of %llu bytes exceeds the per-user limit (max-bytes-per-uid %llu; token "
                 "%s holds %llu)",
                 (unsigned long long)bytes, (unsigned long long)per_user, tk->name,
                 (unsigned long long)tk->bytes);
        return -1;
    }
    tk->bytes += bytes;
    return 0;
}

/* Charges bytes to the uid of s and to its token. Returns -1 with err
 * written when a limit would be exceeded. */
static int uid_charge_bytes(trn_session *s, uint64_t bytes, char *err, size_t errlen) {
    trn_session_table *t = s->table;
    const uint64_t max = t->cfg->max_bytes_per_uid;
    trn_uid_usage *u = s->usage;
    int rc = 0;
    pthread_mutex_lock(&t->lock);
    if (u && (bytes > max || u->bytes > max - bytes)) {
        snprintf(err, errlen,
                 "Alloc of %llu bytes exceeds the per-user limit (max-bytes-per-uid %llu; uid %u "
                 "holds %llu)",
                 (unsigned long long)bytes, (unsigned long long)max, s->peer.uid,
                 (unsigned long long)u->bytes);
        rc = -1;
    } else if (token_charge_bytes_locked(t->cfg, s->peer.token, bytes, err, errlen) != 0) {
        rc = -1;
    } else if (u) {
        u->bytes += bytes;
    }
    pthread_mutex_unlock(&t->lock);
    return rc;
}

/* Gives back what uid_charge_bytes took. */
static void uid_credit_bytes(trn_session *s, uint64_t bytes) {
    trn_session_table *t = s->table;
    if (!s->peer.token && !s->usage)
        return;
    pthread_mutex_lock(&t->lock);
    if (s->peer.token)
        s->peer.token->bytes -= bytes;
    if (s->usage)
        s->usage->bytes -= bytes;
    pthread_mutex_unlock(&t->lock);
}

/* ---- Kept blocks (session.h) --------------------------------------------- */

/* Gives a kept block's memory back: unmapped everywhere, uncharged. */
static void kept_release(trn_session *s, const trn_kept_block *k) {
    trn_bufmem_release(k->data, k->bytes, 1, s->table->space);
    if (k->fd >= 0)
        close(k->fd);
    uid_credit_bytes(s, k->bytes);
    atomic_fetch_sub(&s->table->bytes_held, k->bytes);
}

/* Takes the oldest kept block out (lock held). */
static trn_kept_block kept_pop_oldest_locked(trn_session *s) {
    const trn_kept_block k = s->kept[0];
    memmove(&s->kept[0], &s->kept[1], --s->nkept * sizeof(s->kept[0]));
    s->kept_bytes -= k.bytes;
    return k;
}

/* Whether the oldest kept block has waited TRN_KEPT_AGE_MS by now. */
static int kept_stale_locked(const trn_session *s, uint64_t now) {
    return s->nkept && now - s->kept[0].kept_ms >= TRN_KEPT_AGE_MS;
}

/* Releases the kept blocks of s that are stale at `now` (all of them when
 * now is UINT64_MAX); returns the bytes released. */
static uint64_t kept_release_older(trn_session *s, uint64_t now) {
    trn_kept_block out[TRN_KEPT_BLOCKS];
    unsigned n = 0;
    uint64_t bytes = 0;
    pthread_mutex_lock(&s->lock);
    while (kept_stale_locked(s, now))
        out[n++] = kept_pop_oldest_locked(s);
    pthread_mutex_unlock(&s->lock);
    for (unsigned i = 0; i < n; i++) {
        bytes += out[i].bytes;
        kept_release(s, &out[i]);
    }
    return bytes;
}

static uint64_t kept_release_all(trn_session *s) {
    return kept_release_older(s, UINT64_MAX);
}

/* Keeps the memory of b, whose last reference is going, for the session's
 * next allocation of its size. Returns 1 when kept (b's bytes move from the
 * session's buffers to its kept blocks), 0 when the caller releases it. */
static int kept_keep(trn_session *s, const trn_buffer *b) {
    if (b->size > TRN_KEPT_MAX_BYTES || b->size > s->table->cfg->max_session_bytes / 4)
        return 0;
    int fd = -1;
    if (s->shared_memory && (fd = trn_exec_space_dup_fd(s->table->space, b->data)) < 0)
        return 0;
    /* Before it can be taken: the next owner gets zero-filled memory. */
    memset(b->data, 0, (size_t)b->size);
    trn_kept_block out[TRN_KEPT_BLOCKS];
    unsigned n = 0;
    pthread_mutex_lock(&s->lock);
    const int keep = !s->closed;
    while (keep && (s->nkept == TRN_KEPT_BLOCKS || s->kept_bytes + b->size > TRN_KEPT_MAX_BYTES))
        out[n++] = kept_pop_oldest_locked(s);
    if (keep) {
        s->kept[s->nkept++] =
            (trn_kept_block){.data = b->data, .bytes = b->size, .fd = fd, .kept_ms = trn_now_ms()};
        s->kept_bytes += b->size;
        s->bytes -= b->size;
    }
    pthread_mutex_unlock(&s->lock);
    for (unsigned i = 0; i < n; i++)
        kept_release(s, &out[i]);
    if (!keep && fd >= 0)
        close(fd);
    return keep;
}

/* A kept block of exactly `bytes`, moved back to the session's buffers'
 * bytes; 0 when there is none. */
static int kept_take(trn_session *s, uint64_t bytes, trn_kept_block *out) {
    int found = 0;
    pthread_mutex_lock(&s->lock);
    for (unsigned i = 0; i < s->nkept && !found; i++) {
        if (s->kept[i].bytes != bytes)
            continue;
        *out = s->kept[i];
        memmove(&s->kept[i], &s->kept[i + 1], (s->nkept - i - 1) * sizeof(s->kept[0]));
        s->nkept--;
        s->kept_bytes -= bytes;
        s->bytes += bytes;
        found = 1;
    }
    pthread_mutex_unlock(&s->lock);
    return found;
}

/* Clamps p to [ceiling, TRN_PRIORITY_LEAST], where the ceiling is the
 * daemon's or the token's, whichever is less urgent. */
static int clamp_priority(const trn_config *cfg, const trn_token *tk, int p) {
    int ceiling = cfg->priority_ceiling;
    const int token_ceiling = tk ? atomic_load(&tk->priority_ceiling) : ceiling;
    if (token_ceiling > ceiling)
        ceiling = token_ceiling;
    if (p > TRN_PRIORITY_LEAST)
        p = TRN_PRIORITY_LEAST;
    return p < ceiling ? ceiling : p;
}

/* A session of priority p weighs 2^-p (config.h). */
static double priority_weight(int p) {
    return ldexp(1.0, -p);
}

int trn_session_set_priority(trn_session *s, int priority) {
    const int p = clamp_priority(s->table->cfg, s->peer.token, priority);
    pthread_mutex_lock(&s->lock);
    s->priority = p;
    trn_sched_tenant_set_weight(s->table->sched, s->tenant, priority_weight(p));
    pthread_mutex_unlock(&s->lock);
    return p;
}

const char *trn_session_who(const trn_session *s, char *buf, size_t len) {
    char uid[16] = "?";
    if (s->peer.known)
        snprintf(uid, sizeof(uid), "%u", s->peer.uid);
    snprintf(buf, len, "session #%llu (%s, pid %u, uid %s)", (unsigned long long)s->number,
             s->client_name[0] ? s->client_name : "?", s->peer.known ? s->peer.pid : s->client_pid,
             uid);
    return buf;
}

trn_session *trn_session_open(trn_session_table *t, const char *client_name, uint32_t pid,
                              trn_transport_kind transport, const trn_peer *peer, int priority,
                              trn_wire_code *code, char *err, size_t errlen) {
    *code = TRN_WIRE_RESOURCE_EXHAUSTED;
    snprintf(err, errlen, "daemon out of memory opening a session");
    trn_session *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    s->priority = clamp_priority(t->cfg, peer ? peer->token : NULL, priority);
    s->tenant = trn_sched_tenant_create(t->sched, priority_weight(s->priority));
    if (!s->tenant) {
        free(s);
        return NULL;
    }
    atomic_init(&s->refs, 2); /* the table's and the caller's */
    s->table = t;
    pthread_mutex_init(&s->lock, NULL);
    trn_idmap_init(&s->buffers);
    trn_idmap_init(&s->streams);
    trn_idmap_init(&s->events);
    trn_idmap_init(&s->stages);
    trn_idmap_init(&s->plans);
    trn_idmap_init(&s->graphs);
    trn_idmap_init(&s->errors);
    s->next_buffer_id = 1;
    s->next_plan_id = 1;
    s->client_pid = peer && peer->known ? peer->pid : pid;
    s->transport = transport;
    if (peer)
        s->peer = *peer;
    s->host_shared = transport == TRN_TRANSPORT_LOCAL;
    s->shared_memory = s->host_shared && !t->opaque_pointers;
    snprintf(s->client_name, sizeof(s->client_name), "%s", client_name ? client_name : "");
    s->lease_deadline_ms = trn_now_ms() + t->cfg->lease_ms;
    s->number = atomic_fetch_add(&t->next_number, 1);

    pthread_mutex_lock(&t->lock);
    trn_uid_usage *u = s->peer.known ? uid_usage_hold_locked(t, s->peer.uid) : NULL;
    trn_token *tk = s->peer.token;
    const uint32_t tk_max = tk ? atomic_load(&tk->max_sessions) : 0;
    const uint32_t per_user = t->cfg->max_sessions_per_uid;
    int rc = -1;
    if (tk && atomic_load(&tk->revoked)) {
        /* Authenticated a moment before a reload removed the token: checked
         * under the table lock, so the reload's sweep cannot miss the
         * session. */
        *code = TRN_WIRE_UNAUTHENTICATED;
        snprintf(err, errlen, "unauthenticated");
    } else if (u && u->sessions >= per_user) {
        snprintf(err, errlen, "uid %u already has %u sessions (max-sessions-per-uid %u)",
                 s->peer.uid, u->sessions, per_user);
    } else if (tk && tk_max && tk->sessions >= tk_max) {
        snprintf(err, errlen, "token %s already has %u sessions (its sessions limit %u)", tk->name,
                 tk->sessions, tk_max);
    } else if (tk && tk->sessions >= per_user) {
        snprintf(err, errlen, "token %s already has %u sessions (max-sessions-per-uid %u)",
                 tk->name, tk->sessions, per_user);
    } else if (!s->peer.known || u) {
        do {
            if (getrandom(&s->id, sizeof(s->id), 0) != sizeof(s->id))
                s->id = 0;
        } while (s->id == 0 || trn_idmap_get(&t->sessions, s->id));
        rc = trn_idmap_put(&t->sessions, s->id, s);
        if (rc == 0 && u) {
            u->sessions++;
            s->usage = u; /* the reference taken above */
        }
        if (rc == 0 && tk) {
            tk->sessions++;
            trn_token_ref(tk); /* the session's, dropped with its last reference */
        }
    }
    if (rc != 0 && u)
        uid_usage_drop_locked(t, s->peer.uid, u);
    pthread_mutex_unlock(&t->lock);
    if (rc != 0) {
        trn_sched_tenant_release(t->sched, s->tenant);
        pthread_mutex_destroy(&s->lock);
        free(s);
        return NULL;
    }
    *code = TRN_WIRE_OK;
    return s;
}

trn_session *trn_session_find(trn_session_table *t, uint64_t id) {
    pthread_mutex_lock(&t->lock);
    trn_session *s = trn_idmap_get(&t->sessions, id);
    if (s) {
        trn_session_ref(s);
        pthread_mutex_lock(&s->lock);
        s->lease_deadline_ms = trn_now_ms() + t->cfg->lease_ms;
        pthread_mutex_unlock(&s->lock);
    }
    pthread_mutex_unlock(&t->lock);
    return s;
}

void trn_session_ref(trn_session *s) {
    atomic_fetch_add(&s->refs, 1);
}

void trn_session_unref(trn_session *s) {
    if (atomic_fetch_sub(&s->refs, 1) != 1)
        return;
    /* Last reference: every buffer, stream, event and stage is already gone. */
    trn_idmap_free(&s->buffers);
    trn_idmap_free(&s->streams);
    trn_idmap_free(&s->events);
    trn_idmap_free(&s->stages);
    trn_idmap_free(&s->plans);
    trn_idmap_free(&s->graphs);
    trn_session_errors_free(s);
    trn_sched_tenant_release(s->table->sched, s->tenant);
    kept_release_all(s); /* none after a close; before the uid's usage goes */
    if (s->usage) {      /* after the buffers and ops: what they held is given back */
        pthread_mutex_lock(&s->table->lock);
        uid_usage_drop_locked(s->table, s->peer.uid, s->usage);
        pthread_mutex_unlock(&s->table->lock);
    }
    if (s->peer.token) /* after the buffers: their release credited it */
        trn_token_unref(s->peer.token);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* The stages of a closing session, taken out of its map (which marked them
 * out of it under the session lock): a waiting Read ends with ABORTED, and
 * the map's reference is dropped (an op still running holds its own). */
static void close_stages(trn_session *s, trn_idmap *stages) {
    size_t i = 0;
    uint64_t id;
    void *val;
    while (trn_idmap_next(stages, &i, &id, &val)) {
        trn_stage *st = val;
        pthread_mutex_lock(&s->lock);
        trn_call *reader = st->reader;
        st->reader = NULL;
        const int last = --st->refs == 0;
        pthread_mutex_unlock(&s->lock);
        if (reader)
            reader->finish(reader, TRN_WIRE_ABORTED, "the session ended before the data was read",
                           NULL, 0);
        if (last)
            trn_stage_free(s, st);
    }
    trn_idmap_free(stages);
}

void trn_session_close(trn_session *s, const char *why) {
    trn_session_table *t = s->table;
    pthread_mutex_lock(&t->lock);
    const int was_listed = trn_idmap_remove(&t->sessions, s->id) != NULL;
    if (was_listed && s->usage)
        s->usage->sessions--;
    if (was_listed && s->peer.token)
        s->peer.token->sessions--;
    pthread_mutex_unlock(&t->lock);
    if (!was_listed)
        return;

    pthread_mutex_lock(&s->lock);
    s->closed = 1;
    trn_call *attach = s->attach;
    s->attach = NULL;
    trn_idmap bufs = s->buffers, streams = s->streams, events = s->events, stages = s->stages,
              plans = s->plans, graphs = s->graphs;
    size_t si = 0;
    uint64_t sid;
    void *sval;
    while (trn_idmap_next(&stages, &si, &sid, &sval))
        ((trn_stage *)sval)->in_map = 0; /* their map reference is close_stages' now */
    trn_idmap_init(&s->buffers);
    trn_idmap_init(&s->streams);
    trn_idmap_init(&s->events);
    trn_idmap_init(&s->stages);
    trn_idmap_init(&s->plans);
    trn_idmap_init(&s->graphs);
    pthread_mutex_unlock(&s->lock);

    char who[160];
    trn_log(TRN_LOG_INFO, "%s closed: %s", trn_session_who(s, who, sizeof(who)), why);

    size_t i = 0;
    uint64_t id;
    void *val;
    /* Graphs first: their launches hold streams' work behind their fences. */
    while (trn_idmap_next(&graphs, &i, &id, &val))
        ((trn_session_graph *)val)->close(val);
    trn_idmap_free(&graphs);
    i = 0;
    while (trn_idmap_next(&streams, &i, &id, &val)) {
        trn_sched_stream_cancel(t->sched, val);
        trn_sched_stream_release(t->sched, val);
    }
    trn_idmap_free(&streams);
    i = 0;
    while (trn_idmap_next(&events, &i, &id, &val))
        trn_sched_fence_release(t->sched, val);
    trn_idmap_free(&events);
    close_stages(s, &stages);
    i = 0;
    while (trn_idmap_next(&plans, &i, &id, &val)) {
        trn_session_plan *p = val;
        trn_plan_entry_release(p->entry); /* the plan stays cached for the next user */
        free(p);
    }
    trn_idmap_free(&plans);
    i = 0;
    while (trn_idmap_next(&bufs, &i, &id, &val))
        trn_buffer_unref(val);
    trn_idmap_free(&bufs);
    kept_release_all(s); /* closed: buffers released from now on are not kept */
    if (attach)          /* the Attach stream ends OK, saying why (docs/protocol.md, Attach) */
        attach->finish(attach, TRN_WIRE_OK, why, NULL, 0);
    trn_session_unref(s); /* the table's reference */
}

int trn_session_attach(trn_session *s, trn_call *call) {
    pthread_mutex_lock(&s->lock);
    const int ok = !s->closed && !s->attach;
    if (ok)
        s->attach = call;
    pthread_mutex_unlock(&s->lock);
    return ok ? 0 : -1;
}

int trn_session_detach(trn_session *s, trn_call *call) {
    pthread_mutex_lock(&s->lock);
    const int was = s->attach == call;
    if (was) {
        s->attach = NULL;
        s->lease_deadline_ms = trn_now_ms() + s->table->cfg->lease_ms;
    }
    pthread_mutex_unlock(&s->lock);
    return was;
}

/* ---- Quota --------------------------------------------------------------- */

static trn_wire_code charge_once(trn_session *s, uint64_t bytes, const char *what, char *err,
                                 size_t errlen) {
    const uint64_t quota = s->table->cfg->max_session_bytes;
    if (uid_charge_bytes(s, bytes, err, errlen) != 0)
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    pthread_mutex_lock(&s->lock);
    if (s->closed) {
        pthread_mutex_unlock(&s->lock);
        uid_credit_bytes(s, bytes);
        snprintf(err, errlen, "session is closed");
        return TRN_WIRE_ABORTED;
    }
    if (bytes > quota || s->bytes + s->kept_bytes > quota - bytes) {
        const uint64_t held = s->bytes;
        pthread_mutex_unlock(&s->lock);
        uid_credit_bytes(s, bytes);
        snprintf(err, errlen,
                 "%s of %llu bytes exceeds the session quota (max-session-bytes %llu, "
                 "%llu held)",
                 what, (unsigned long long)bytes, (unsigned long long)quota,
                 (unsigned long long)held);
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    s->bytes += bytes;
    pthread_mutex_unlock(&s->lock);
    atomic_fetch_add(&s->table->bytes_held, bytes);
    return TRN_WIRE_OK;
}

trn_wire_code trn_session_charge(trn_session *s, uint64_t bytes, const char *what, char *err,
                                 size_t errlen) {
    const trn_wire_code rc = charge_once(s, bytes, what, err, errlen);
    if (rc == TRN_WIRE_RESOURCE_EXHAUSTED && kept_release_all(s) > 0)
        return charge_once(s, bytes, what, err, errlen);
    return rc;
}

void trn_session_credit(trn_session *s, uint64_t bytes) {
    pthread_mutex_lock(&s->lock);
    s->bytes -= bytes;
    pthread_mutex_unlock(&s->lock);
    uid_credit_bytes(s, bytes);
    atomic_fetch_sub(&s->table->bytes_held, bytes);
}

/* The staging buffer's own check: bounded in size and one live per session,
 * since no quota bounds it. */
static trn_wire_code staging_claim(trn_session *s, uint64_t bytes, char *err, size_t errlen) {
    if (bytes > TRNSCI_WIRE_STAGING_BYTES) {
        snprintf(err, errlen, "Alloc: a staging buffer of %llu bytes is larger than the limit (%u)",
                 (unsigned long long)bytes, TRNSCI_WIRE_STAGING_BYTES);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    pthread_mutex_lock(&s->lock);
    const int taken = s->staging_live;
    s->staging_live = 1;
    pthread_mutex_unlock(&s->lock);
    if (taken) {
        snprintf(err, errlen, "Alloc: this session already has a staging buffer");
        return TRN_WIRE_ALREADY_EXISTS;
    }
    return TRN_WIRE_OK;
}

static void staging_release(trn_session *s) {
    pthread_mutex_lock(&s->lock);
    s->staging_live = 0;
    pthread_mutex_unlock(&s->lock);
}

trn_wire_code trn_session_alloc(trn_session *s, uint64_t bytes, trn_alloc_kind kind, uint64_t *id,
                                int *fd, char *err, size_t errlen) {
    *fd = -1;
    if (bytes == 0) {
        snprintf(err, errlen, "Alloc: bytes must be at least 1");
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const int staging = kind == TRN_ALLOC_STAGING;
    /* With executors every buffer is a memfd in their shared space; the
     * memfd goes to the client only when it maps the buffer. The staging
     * buffer is no op's operand, so executors never need it. */
    trn_exec_space *sp = staging ? NULL : s->table->space;
    const int keepable = kind == TRN_ALLOC_DEVICE && sp && bytes >= TRN_KEPT_MIN_BYTES;
    trn_kept_block kept = {.fd = -1};
    const int reused = keepable && kept_take(s, bytes, &kept);
    const trn_wire_code charged = reused    ? TRN_WIRE_OK
                                  : staging ? staging_claim(s, bytes, err, errlen)
                                            : trn_session_charge(s, bytes, "Alloc", err, errlen);
    if (charged != TRN_WIRE_OK)
        return charged;

    trn_buffer *b = calloc(1, sizeof(*b));
    const int client_maps = kind == TRN_ALLOC_DEVICE ? s->shared_memory : s->host_shared;
    const int mapped = client_maps || sp;
    void *data = reused ? kept.data : NULL;
    *fd = kept.fd;
    if (b && !reused)
        data = mapped ? trn_bufmem_shared(bytes, sp, fd, err, errlen) : trn_bufmem_heap(bytes);
    if (data && !client_maps && *fd >= 0) {
        close(*fd);
        *fd = -1;
    }
    if (!b || !data)
        goto nomem;
    atomic_init(&b->refs, 1);
    b->data = data;
    b->size = bytes;
    b->mapped = mapped;
    b->staging = staging;
    b->keepable = keepable;
    b->owner = s;

    /* Before the buffer can be found by its id (a concurrent free must find
     * the mark to take off): new contents, perhaps where another buffer
     * was; and memory the client writes itself is never resident. The
     * staging buffer is no op's operand. */
    trn_write_clock *wc = s->table->wclock;
    const int marked = wc && client_maps && !staging;
    if (wc)
        trn_write_clock_wrote(wc, data, bytes);
    if (marked)
        trn_write_clock_share(wc, data, bytes, +1);
    b->clock_marked = marked;
    pthread_mutex_lock(&s->lock);
    b->id = s->next_buffer_id++;
    const int rc = s->closed ? -1 : trn_idmap_put(&s->buffers, b->id, b);
    pthread_mutex_unlock(&s->lock);
    if (rc != 0) {
        if (marked)
            trn_write_clock_share(wc, data, bytes, -1);
        goto nomem;
    }
    trn_session_ref(s);
    if (!staging) /* transport memory, as the rings are: not a buffer in the counts */
        atomic_fetch_add(&s->table->buffers, 1);
    *id = b->id;
    return TRN_WIRE_OK;

nomem:
    if (!(mapped && b && !data)) /* else trn_bufmem_shared wrote the reason */
        snprintf(err, errlen, "Alloc of %llu bytes: the daemon is out of memory",
                 (unsigned long long)bytes);
    if (data) /* the id map could not grow */
        trn_bufmem_release(data, bytes, mapped, sp);
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
    free(b);
    if (staging)
        staging_release(s);
    else
        trn_session_credit(s, bytes);
    return TRN_WIRE_RESOURCE_EXHAUSTED;
}

int trn_session_free_buffer(trn_session *s, uint64_t id) {
    pthread_mutex_lock(&s->lock);
    trn_buffer *b = trn_idmap_remove(&s->buffers, id);
    pthread_mutex_unlock(&s->lock);
    if (!b)
        return -1;
    trn_buffer_unref(b);
    return 0;
}

trn_buffer *trn_session_buffer_get(trn_session *s, uint64_t id) {
    pthread_mutex_lock(&s->lock);
    trn_buffer *b = trn_idmap_get(&s->buffers, id);
    if (b)
        atomic_fetch_add(&b->refs, 1);
    pthread_mutex_unlock(&s->lock);
    return b;
}

void trn_buffer_unref(trn_buffer *b) {
    if (atomic_fetch_sub(&b->refs, 1) != 1)
        return;
    trn_session *s = b->owner;
    if (b->clock_marked)
        trn_write_clock_share(s->table->wclock, b->data, b->size, -1);
    if (b->staging) {
        staging_release(s);
    } else if (b->keepable && kept_keep(s, b)) {
        atomic_fetch_sub(&s->table->buffers, 1);
        goto done;
    } else {
        trn_session_credit(s, b->size);
        atomic_fetch_sub(&s->table->buffers, 1);
    }
    trn_bufmem_release(b->data, b->size, b->mapped, b->staging ? NULL : s->table->space);
done:
    free(b);
    trn_session_unref(s);
}

void trn_stage_free(trn_session *s, trn_stage *st) {
    free(st->data);
    trn_session_credit(s, st->len);
    free(st);
}

trn_sched_stream *trn_session_stream_locked(trn_session *s, uint32_t stream_id) {
    if (s->closed)
        return NULL;
    const uint64_t key = (uint64_t)stream_id + 1;
    trn_sched_stream *st = trn_idmap_get(&s->streams, key);
    if (st)
        return st;
    if (s->streams.len >= s->table->cfg->max_streams)
        return NULL;
    st = trn_sched_stream_create(s->table->sched, s->tenant);
    if (!st)
        return NULL;
    if (trn_idmap_put(&s->streams, key, st) != 0) {
        trn_sched_stream_release(s->table->sched, st);
        return NULL;
    }
    return st;
}

int trn_session_reserve_op(trn_session *s) {
    pthread_mutex_lock(&s->lock);
    const int ok = s->ops_pending < s->table->cfg->max_queued_ops;
    if (ok)
        s->ops_pending++;
    pthread_mutex_unlock(&s->lock);
    return ok ? 0 : -1;
}

void trn_session_reserve_ops_forced(trn_session *s, uint32_t n) {
    pthread_mutex_lock(&s->lock);
    s->ops_pending += n;
    pthread_mutex_unlock(&s->lock);
}

void trn_session_release_op(trn_session *s) {
    pthread_mutex_lock(&s->lock);
    s->ops_pending--;
    /* Resume a paused client only once a quarter of its queue has drained:
     * one wake-up of its frontend per many ops, not one per op. */
    const uint32_t limit = s->table->cfg->max_queued_ops;
    const uint32_t resume_at = limit - (limit / 4 ? limit / 4 : 1);
    if (s->room_wanted && s->ops_pending <= resume_at) {
        s->room_wanted = 0;
        if (s->attach && s->attach->room)
            s->attach->room(s->attach);
    }
    pthread_mutex_unlock(&s->lock);
}

int trn_session_ops_full(trn_session *s) {
    pthread_mutex_lock(&s->lock);
    const int full = s->ops_pending >= s->table->cfg->max_queued_ops;
    if (full)
        s->room_wanted = 1;
    pthread_mutex_unlock(&s->lock);
    return full;
}
