/*
 * graph_cache.c — the graph cache (graph_cache.h).
 *
 * Entries form one list, most recently used first; lookups walk it (a few
 * hundred entries at most, and only at instantiation). The manifest is
 *
 *   trnsci-graph-manifest 1
 *   graph <nodes> <lanes> <hits> <prepare seconds> <key>
 *   plan <plan key>          (one line per plan of the graph above)
 *
 * rewritten whole (temporary file, then rename) when an entry is added.
 */
#include "scheduler/graph_cache.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MANIFEST_NAME "graphs.manifest"
#define MANIFEST_MAGIC "trnsci-graph-manifest 1"

typedef struct entry {
    struct entry *prev, *next;
    trn_graph_info info;
    uint64_t last_ms;
} entry;

struct trn_graph_cache {
    pthread_mutex_t lock;
    entry *head, *tail;
    uint32_t count, max_entries;
    char *dir;
    void (*warn)(const char *msg);
};

static uint64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void warn(const trn_graph_cache *gc, const char *what, const char *path) {
    if (!gc->warn)
        return;
    char msg[600];
    snprintf(msg, sizeof(msg), "graph cache: %s %.500s", what, path);
    gc->warn(msg);
}

static void plans_free(char **plans, uint32_t n) {
    for (uint32_t i = 0; i < n; i++)
        free(plans[i]);
    free(plans);
}

static void entry_free(entry *e) {
    plans_free(e->info.plans, e->info.nplans);
    free(e);
}

static void unlink_entry(trn_graph_cache *gc, entry *e) {
    if (e->prev)
        e->prev->next = e->next;
    else
        gc->head = e->next;
    if (e->next)
        e->next->prev = e->prev;
    else
        gc->tail = e->prev;
    e->prev = e->next = NULL;
    gc->count--;
}

static void push_front(trn_graph_cache *gc, entry *e) {
    e->prev = NULL;
    e->next = gc->head;
    if (gc->head)
        gc->head->prev = e;
    else
        gc->tail = e;
    gc->head = e;
    gc->count++;
    while (gc->count > gc->max_entries) {
        entry *old = gc->tail;
        unlink_entry(gc, old);
        entry_free(old);
    }
}

static entry *find(const trn_graph_cache *gc, const char *key) {
    for (entry *e = gc->head; e; e = e->next)
        if (strcmp(e->info.key, key) == 0)
            return e;
    return NULL;
}

/* A new entry, its plan keys copied; NULL when out of memory. */
static entry *entry_new(const char *key, uint32_t nodes, uint32_t lanes, double prep,
                        const char *const *plans, uint32_t nplans) {
    entry *e = calloc(1, sizeof(*e));
    if (!e)
        return NULL;
    snprintf(e->info.key, sizeof(e->info.key), "%s", key);
    e->info.nodes = nodes;
    e->info.lanes = lanes;
    e->info.prepare_seconds = prep;
    e->last_ms = now_ms();
    if (nplans) {
        e->info.plans = calloc(nplans, sizeof(char *));
        if (!e->info.plans) {
            free(e);
            return NULL;
        }
        for (uint32_t i = 0; i < nplans; i++) {
            e->info.plans[i] = strdup(plans[i]);
            e->info.nplans = i + 1;
            if (!e->info.plans[i]) {
                entry_free(e);
                return NULL;
            }
        }
    }
    return e;
}

/* ---- persistence ------------------------------------------------------------ */

static int path_of(const trn_graph_cache *gc, char *buf, size_t len, const char *suffix) {
    const int n = snprintf(buf, len, "%s/%s%s", gc->dir, MANIFEST_NAME, suffix);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Lock held. Oldest first, so that loading rebuilds the same order. */
static void save_locked(trn_graph_cache *gc) {
    char path[1024], tmp[1040];
    if (!gc->dir || path_of(gc, path, sizeof(path), "") || path_of(gc, tmp, sizeof(tmp), ".tmp"))
        return;
    FILE *f = fopen(tmp, "w");
    if (!f) {
        warn(gc, "cannot write", tmp);
        return;
    }
    fprintf(f, "%s\n", MANIFEST_MAGIC);
    for (const entry *e = gc->tail; e; e = e->prev) {
        fprintf(f, "graph %u %u %llu %.9g %s\n", e->info.nodes, e->info.lanes,
                (unsigned long long)e->info.hits, e->info.prepare_seconds, e->info.key);
        for (uint32_t i = 0; i < e->info.nplans; i++)
            fprintf(f, "plan %s\n", e->info.plans[i]);
    }
    const int bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
        warn(gc, "cannot write", path);
        remove(tmp);
    }
}

static void strip_newline(char *s) {
    s[strcspn(s, "\r\n")] = 0;
}

/* Adds a plan key to the entry being read (ignored when out of memory). */
static void add_plan(entry *e, const char *key) {
    char **p = realloc(e->info.plans, (e->info.nplans + 1) * sizeof(char *));
    if (!p)
        return;
    e->info.plans = p;
    if ((p[e->info.nplans] = strdup(key)))
        e->info.nplans++;
}

static void load(trn_graph_cache *gc) {
    char path[1024];
    if (!gc->dir || path_of(gc, path, sizeof(path), ""))
        return;
    FILE *f = fopen(path, "r");
    if (!f)
        return; /* none yet */
    char line[4096];
    if (!fgets(line, sizeof(line), f) || (strip_newline(line), strcmp(line, MANIFEST_MAGIC))) {
        warn(gc, "ignoring a file that is not a graph manifest:", path);
        fclose(f);
        return;
    }
    entry *cur = NULL;
    while (fgets(line, sizeof(line), f)) {
        strip_newline(line);
        unsigned nodes, lanes;
        unsigned long long hits;
        double prep;
        char key[TRN_GRAPH_KEY_LEN];
        if (strncmp(line, "plan ", 5) == 0 && cur) {
            add_plan(cur, line + 5);
        } else if (sscanf(line, "graph %u %u %llu %lf %95s", &nodes, &lanes, &hits, &prep, key) ==
                   5) {
            cur = entry_new(key, nodes, lanes, prep, NULL, 0);
            if (!cur)
                break;
            cur->info.hits = hits;
            entry *old = find(gc, key);
            if (old) {
                unlink_entry(gc, old);
                entry_free(old);
            }
            push_front(gc, cur);
        } else {
            warn(gc, "ignoring a line it does not understand in", path);
            cur = NULL;
        }
    }
    fclose(f);
}

/* ---- the cache ------------------------------------------------------------------ */

trn_graph_cache *trn_graph_cache_create(const char *dir, uint32_t max_entries,
                                        void (*warn_fn)(const char *msg)) {
    trn_graph_cache *gc = calloc(1, sizeof(*gc));
    if (!gc)
        return NULL;
    if (dir && !(gc->dir = strdup(dir))) {
        free(gc);
        return NULL;
    }
    pthread_mutex_init(&gc->lock, NULL);
    gc->max_entries = max_entries ? max_entries : 1;
    gc->warn = warn_fn;
    load(gc);
    return gc;
}

void trn_graph_cache_destroy(trn_graph_cache *gc) {
    if (!gc)
        return;
    while (gc->head) {
        entry *e = gc->head;
        unlink_entry(gc, e);
        entry_free(e);
    }
    pthread_mutex_destroy(&gc->lock);
    free(gc->dir);
    free(gc);
}

int trn_graph_cache_note(trn_graph_cache *gc, const char *key, uint32_t nodes, uint32_t lanes,
                         double *prepare_seconds, const char *const *plans, uint32_t nplans) {
    pthread_mutex_lock(&gc->lock);
    entry *e = find(gc, key);
    if (e) {
        unlink_entry(gc, e);
        push_front(gc, e);
        e->info.hits++;
        e->last_ms = now_ms();
        *prepare_seconds = e->info.prepare_seconds;
        pthread_mutex_unlock(&gc->lock);
        return 1;
    }
    e = entry_new(key, nodes, lanes, *prepare_seconds, plans, nplans);
    if (e) {
        push_front(gc, e);
        save_locked(gc);
    }
    pthread_mutex_unlock(&gc->lock);
    return e ? 0 : -1;
}

static int copy_info(trn_graph_info *dst, const entry *e, uint64_t now) {
    *dst = e->info;
    dst->idle_ms = now - e->last_ms;
    dst->plans = NULL;
    dst->nplans = 0;
    if (!e->info.nplans)
        return 0;
    dst->plans = calloc(e->info.nplans, sizeof(char *));
    if (!dst->plans)
        return -1;
    for (uint32_t i = 0; i < e->info.nplans; i++)
        if ((dst->plans[dst->nplans] = strdup(e->info.plans[i])))
            dst->nplans++;
    return 0;
}

size_t trn_graph_cache_list(trn_graph_cache *gc, trn_graph_info **out) {
    *out = NULL;
    pthread_mutex_lock(&gc->lock);
    const uint64_t now = now_ms();
    trn_graph_info *list = gc->count ? calloc(gc->count, sizeof(*list)) : NULL;
    size_t n = 0;
    for (const entry *e = gc->head; list && e; e = e->next)
        if (copy_info(&list[n], e, now) == 0)
            n++;
    pthread_mutex_unlock(&gc->lock);
    *out = list;
    return n;
}

void trn_graph_info_free(trn_graph_info *list, size_t n) {
    for (size_t i = 0; list && i < n; i++)
        plans_free(list[i].plans, list[i].nplans);
    free(list);
}

unsigned trn_graph_cache_clear(trn_graph_cache *gc) {
    pthread_mutex_lock(&gc->lock);
    unsigned n = 0;
    while (gc->head) {
        entry *e = gc->head;
        unlink_entry(gc, e);
        entry_free(e);
        n++;
    }
    save_locked(gc);
    pthread_mutex_unlock(&gc->lock);
    return n;
}
