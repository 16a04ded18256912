/*
 * plan_cache.c — the daemon-wide plan cache (see plan_cache.h).
 *
 * One lock guards everything: the entry list (kept in most-recently-used
 * order, so it is also the LRU list; a linear search is fine for the
 * hundreds of shapes a daemon sees), the build queue, part states and
 * statistics. The planner thread is the only caller of the backend's plan
 * hooks apart from plan_create (which only allocates); it builds queued
 * parts one at a time without the lock, frees evicted plans, and rewrites
 * the persisted manifest when builds have changed it.
 *
 * Part states: NONE → QUEUED → BUILDING → READY | FAILED | NOMEM. `done` is
 * broadcast whenever a part leaves BUILDING or QUEUED. NOMEM (the build ran
 * out of memory) fails the waiters of that build like FAILED, but is not
 * remembered: the next require or acquire queues the part again.
 */
#include "scheduler/plan_cache.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ops/fft_shape.h"
#include "scheduler/run_times.h"

#define MANIFEST_NAME "plans.manifest"
#define MANIFEST_MAGIC "trnsci-plan-manifest 1"

enum { PART_NONE = 0, PART_QUEUED, PART_BUILDING, PART_READY, PART_FAILED, PART_NOMEM };

struct trn_plan_entry {
    trn_plan_cache *pc;
    char key[TRN_PLAN_KEY_LEN];
    trn_plan_spec spec;
    void *plan;
    unsigned refs;
    unsigned char part[TRN_PLAN_MAX_PARTS];
    char failure[160]; /* the first failed build's error */
    char nomem[160];   /* the last build's error that ran out of memory */
    uint64_t hits, bytes, last_use_ms;
    double build_seconds; /* planning time spent on it in this run */
    /* What planning it cost when it was made: carried across restarts in the
     * manifest (a restarted daemon rebuilds from wisdom in milliseconds), and
     * what a hit saves. */
    double cost_seconds;
    _Atomic uint64_t ran_on;     /* bit c: a core-engine worker c < 64 ran an op with it */
    trn_run_times runs;          /* how long its ops' shards ran (kernel programs) */
    _Atomic uint64_t busy_wait;  /* trn_plan_entry_spend_busy_wait */
    trn_plan_entry *prev, *next; /* the cache's list, most recent first */
};

typedef struct build_job {
    trn_plan_entry *e; /* holds a reference */
    unsigned part;
    struct build_job *next;
} build_job;

struct trn_plan_cache {
    const trn_backend *be;
    trn_plan_cache_config cfg;
    char *dir;
    pthread_mutex_t lock;
    pthread_cond_t work; /* the planner thread waits here */
    pthread_cond_t done; /* a part finished (or was abandoned) */
    trn_plan_entry *head, *tail;
    build_job *urgent, *background; /* FIFOs: ops' parts first */
    trn_plan_entry *graveyard;      /* evicted: plans to free on the planner thread */
    pthread_t thread;
    pthread_t *compilers; /* cfg.compile_threads of them, for concurrent plans */
    int ncompilers;       /* started */
    int started, stopping, dirty;
    trn_plan_cache_stats st;
};

static uint64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void warn(const trn_plan_cache *pc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void warn(const trn_plan_cache *pc, const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (pc->cfg.warn)
        pc->cfg.warn(msg);
}

trn_plan_cache *trn_plan_cache_create(const trn_backend *be, const trn_plan_cache_config *cfg) {
    trn_plan_cache *pc = calloc(1, sizeof(*pc));
    if (!pc)
        return NULL;
    pc->be = be;
    pc->cfg = *cfg;
    if (cfg->dir && cfg->dir[0] && !(pc->dir = strdup(cfg->dir))) {
        free(pc);
        return NULL;
    }
    pc->cfg.dir = pc->dir;
    pc->st.max_bytes = cfg->max_bytes;
    pthread_mutex_init(&pc->lock, NULL);
    pthread_cond_init(&pc->work, NULL);
    pthread_cond_init(&pc->done, NULL);
    return pc;
}

/* ---- the list (lock held) ---------------------------------------------------------- */

static void list_unlink(trn_plan_cache *pc, trn_plan_entry *e) {
    if (e->prev)
        e->prev->next = e->next;
    else
        pc->head = e->next;
    if (e->next)
        e->next->prev = e->prev;
    else
        pc->tail = e->prev;
    e->prev = e->next = NULL;
}

static void list_push_front(trn_plan_cache *pc, trn_plan_entry *e) {
    e->prev = NULL;
    e->next = pc->head;
    if (pc->head)
        pc->head->prev = e;
    else
        pc->tail = e;
    pc->head = e;
}

static trn_plan_entry *find(trn_plan_cache *pc, const char *key) {
    for (trn_plan_entry *e = pc->head; e; e = e->next)
        if (strcmp(e->key, key) == 0)
            return e;
    return NULL;
}

static void touch(trn_plan_cache *pc, trn_plan_entry *e) {
    e->last_use_ms = now_ms();
    if (pc->head != e) {
        list_unlink(pc, e);
        list_push_front(pc, e);
    }
}

/* Bytes of the larger side of one transform of spec, in or out of place. */
static uint64_t transform_bytes(const trn_plan_spec *spec) {
    uint64_t most = 0;
    for (int inplace = 0; inplace < 2; inplace++) {
        trn_fft_side in, out;
        trn_fft_sides(&spec->u.fft, inplace, &in, &out);
        const uint64_t a = trn_fft_span(&in) * trn_fft_elem_size(&in);
        const uint64_t b = trn_fft_span(&out) * trn_fft_elem_size(&out);
        most = a > most ? a : most;
        most = b > most ? b : most;
    }
    return most;
}

/* A new entry for spec (effort already the cache's) in *out, or an error
 * with err written. */
static trn_plan_error entry_new(trn_plan_cache *pc, const trn_plan_spec *spec, const char *key,
                                trn_plan_entry **out, char *err, size_t errlen) {
    if (!pc->be->plan_create) {
        snprintf(err, errlen, "the %s backend has no plans", pc->be->name);
        return TRN_PLAN_INVALID;
    }
    if (spec->family == TRN_PLAN_FFT && trn_fft_shape_check(&spec->u.fft, err, errlen) != 0)
        return TRN_PLAN_INVALID;
    /* Contraction plans allocate nothing of the operands' size. */
    const uint64_t bytes = spec->family == TRN_PLAN_FFT ? transform_bytes(spec) : 0;
    if (pc->cfg.max_transform_bytes && bytes > pc->cfg.max_transform_bytes) {
        snprintf(err, errlen,
                 "one transform of %s spans %llu bytes, more than the %llu a buffer may hold "
                 "(max-session-bytes)",
                 key, (unsigned long long)bytes, (unsigned long long)pc->cfg.max_transform_bytes);
        return TRN_PLAN_TOO_BIG;
    }
    trn_plan_entry *e = calloc(1, sizeof(*e));
    if (!e) {
        snprintf(err, errlen, "daemon out of memory for a plan");
        return TRN_PLAN_NOMEM;
    }
    trn_kstatus why = TRN_KSTATUS_FAILED;
    e->plan = pc->be->plan_create(pc->be, spec, &why, err, errlen);
    if (!e->plan) {
        free(e);
        return why == TRN_KSTATUS_NO_MEMORY ? TRN_PLAN_NOMEM : TRN_PLAN_INVALID;
    }
    e->pc = pc;
    e->spec = *spec;
    snprintf(e->key, sizeof(e->key), "%s", key);
    e->bytes = pc->be->plan_bytes ? pc->be->plan_bytes(pc->be, e->plan) : 0;
    e->last_use_ms = now_ms();
    list_push_front(pc, e);
    pc->st.entries++;
    pc->st.bytes += e->bytes;
    *out = e;
    return TRN_PLAN_OK;
}

/* Queues a build of part unless it has one, is prepared, or failed (a
 * build that ran out of memory is tried again). */
static void queue_part(trn_plan_cache *pc, trn_plan_entry *e, unsigned part, int urgent) {
    if (part >= TRN_PLAN_MAX_PARTS || (e->part[part] != PART_NONE && e->part[part] != PART_NOMEM))
        return;
    if (pc->stopping) {
        e->part[part] = PART_FAILED;
        if (!e->failure[0])
            snprintf(e->failure, sizeof(e->failure), "the daemon is shutting down");
        return;
    }
    build_job *j = malloc(sizeof(*j));
    if (!j) {
        e->part[part] = PART_NOMEM;
        snprintf(e->nomem, sizeof(e->nomem), "daemon out of memory queueing a plan build");
        return;
    }
    j->e = e;
    j->part = part;
    j->next = NULL;
    e->refs++;
    e->part[part] = PART_QUEUED;
    build_job **q = urgent ? &pc->urgent : &pc->background;
    while (*q)
        q = &(*q)->next;
    *q = j;
    pthread_cond_broadcast(&pc->work);
}

/* Moves unreferenced entries from the LRU end to the graveyard while the
 * cache is over its bound. */
static void evict_over_bound(trn_plan_cache *pc) {
    trn_plan_entry *e = pc->tail;
    while (e && pc->st.bytes > pc->cfg.max_bytes) {
        trn_plan_entry *prev = e->prev;
        if (e->refs == 0) {
            list_unlink(pc, e);
            pc->st.entries--;
            pc->st.bytes -= e->bytes;
            pc->st.evictions++;
            e->next = pc->graveyard;
            pc->graveyard = e;
            pc->dirty = 1;
        }
        e = prev;
    }
}

/* ---- the API ---------------------------------------------------------------------- */

trn_plan_error trn_plan_cache_acquire(trn_plan_cache *pc, const trn_plan_spec *spec, int warm,
                                      trn_plan_entry **out, int *hit, char *err, size_t errlen) {
    trn_plan_spec s = *spec;
    s.effort = pc->cfg.effort;
    char key[TRN_PLAN_KEY_LEN];
    trn_plan_spec_format(&s, key, sizeof(key));
    pthread_mutex_lock(&pc->lock);
    trn_plan_entry *e = find(pc, key);
    *hit = e != NULL;
    if (e) {
        if (warm >= 0 && warm < TRN_PLAN_MAX_PARTS && e->part[warm] == PART_FAILED) {
            snprintf(err, errlen, "planning %s failed earlier: %s", key, e->failure);
            pthread_mutex_unlock(&pc->lock);
            return TRN_PLAN_FAILED;
        }
        pc->st.hits++;
        pc->st.saved_seconds += e->cost_seconds;
        e->hits++;
        touch(pc, e);
    } else {
        pc->st.misses++;
        const trn_plan_error rc = entry_new(pc, &s, key, &e, err, errlen);
        if (rc != TRN_PLAN_OK) {
            pthread_mutex_unlock(&pc->lock);
            return rc;
        }
    }
    e->refs++;
    if (warm >= 0)
        queue_part(pc, e, (unsigned)warm, 0);
    pthread_mutex_unlock(&pc->lock);
    *out = e;
    return TRN_PLAN_OK;
}

void trn_plan_entry_retain(trn_plan_entry *e) {
    pthread_mutex_lock(&e->pc->lock);
    e->refs++;
    pthread_mutex_unlock(&e->pc->lock);
}

void trn_plan_entry_release(trn_plan_entry *e) {
    trn_plan_cache *pc = e->pc;
    pthread_mutex_lock(&pc->lock);
    e->last_use_ms = now_ms();
    if (--e->refs == 0 && pc->st.bytes > pc->cfg.max_bytes)
        pthread_cond_broadcast(&pc->work); /* the planner thread evicts */
    pthread_mutex_unlock(&pc->lock);
}

void trn_plan_entry_require(trn_plan_entry *e, unsigned part) {
    pthread_mutex_lock(&e->pc->lock);
    queue_part(e->pc, e, part, 1);
    pthread_mutex_unlock(&e->pc->lock);
}

int trn_plan_entry_wait(trn_plan_entry *e, unsigned part, char *err, size_t errlen) {
    trn_plan_cache *pc = e->pc;
    if (part >= TRN_PLAN_MAX_PARTS) {
        if (err)
            snprintf(err, errlen, "plan part %u does not exist", part);
        return -1;
    }
    pthread_mutex_lock(&pc->lock);
    for (;;) {
        const int st = e->part[part];
        if (st == PART_READY || st == PART_FAILED || st == PART_NOMEM)
            break;
        if (st == PART_NONE)
            queue_part(pc, e, part, 1);
        else
            pthread_cond_wait(&pc->done, &pc->lock);
    }
    const int st = e->part[part];
    const int rc = st == PART_READY ? 0 : st == PART_NOMEM ? TRN_PLAN_WAIT_NOMEM : -1;
    if (rc && err)
        snprintf(err, errlen, "%s", st == PART_NOMEM ? e->nomem : e->failure);
    pthread_mutex_unlock(&pc->lock);
    return rc;
}

int trn_plan_entry_ready(trn_plan_entry *e, unsigned part) {
    if (part >= TRN_PLAN_MAX_PARTS)
        return 0;
    pthread_mutex_lock(&e->pc->lock);
    const int ready = e->part[part] == PART_READY;
    pthread_mutex_unlock(&e->pc->lock);
    return ready;
}

void *trn_plan_entry_plan(const trn_plan_entry *e) {
    return e->plan;
}

const trn_plan_spec *trn_plan_entry_spec(const trn_plan_entry *e) {
    return &e->spec;
}

const char *trn_plan_entry_key(const trn_plan_entry *e) {
    return e->key;
}

void trn_plan_cache_get_stats(trn_plan_cache *pc, trn_plan_cache_stats *st) {
    pthread_mutex_lock(&pc->lock);
    *st = pc->st;
    pthread_mutex_unlock(&pc->lock);
}

static void entry_state(const trn_plan_entry *e, char *buf, size_t len) {
    int warming = 0, ready = 0, nomem = 0;
    for (unsigned p = 0; p < TRN_PLAN_MAX_PARTS; p++) {
        if (e->part[p] == PART_FAILED) {
            snprintf(buf, len, "failed: %s", e->failure);
            return;
        }
        warming |= e->part[p] == PART_QUEUED || e->part[p] == PART_BUILDING;
        ready |= e->part[p] == PART_READY;
        nomem |= e->part[p] == PART_NOMEM;
    }
    if (nomem && !warming)
        snprintf(buf, len, "out of memory (built again when next used): %.150s", e->nomem);
    else
        snprintf(buf, len, "%s", warming ? "warming" : ready ? "ready" : "unprepared");
}

void trn_plan_entry_ran_on(trn_plan_entry *e, int core) {
    if (core >= 0 && core < 64)
        atomic_fetch_or_explicit(&e->ran_on, 1ull << core, memory_order_relaxed);
}

void trn_plan_entry_note_run(trn_plan_entry *e, uint64_t ns) {
    trn_run_times_note(&e->runs, ns);
}

uint64_t trn_plan_entry_run_ns(const trn_plan_entry *e) {
    return trn_run_times_estimate(&e->runs);
}

int trn_plan_entry_spend_busy_wait(trn_plan_entry *e, uint64_t ns, uint64_t budget) {
    const uint64_t total = atomic_load_explicit(&e->busy_wait, memory_order_relaxed) + ns;
    const int spent = total < budget;
    atomic_store_explicit(&e->busy_wait, spent ? total : 0, memory_order_relaxed);
    return spent;
}

/* "; ran on cores 0,1; runs in 81.2 ms" after a kernel program's state:
 * where its NEFF was loaded (and stays resident until evicted), and the
 * scheduler's estimate of its runs. */
static void append_program_state(const trn_plan_entry *e, char *state, size_t len) {
    const uint64_t m = atomic_load_explicit(&e->ran_on, memory_order_relaxed);
    if (e->spec.family != TRN_PLAN_PROGRAM || !m)
        return;
    size_t n = strlen(state);
    n += (size_t)snprintf(state + n, n < len ? len - n : 0, "; ran on cores ");
    for (int c = 0, first = 1; c < 64 && n < len; c++)
        if (m & (1ull << c)) {
            n += (size_t)snprintf(state + n, len - n, first ? "%d" : ",%d", c);
            first = 0;
        }
    const uint64_t run = trn_run_times_estimate(&e->runs);
    if (run && n < len)
        snprintf(state + n, len - n, "; runs in %.3g ms", (double)run * 1e-6);
}

size_t trn_plan_cache_list(trn_plan_cache *pc, trn_plan_info **out) {
    *out = NULL;
    pthread_mutex_lock(&pc->lock);
    const size_t n = (size_t)pc->st.entries;
    trn_plan_info *v = n ? calloc(n, sizeof(*v)) : NULL;
    size_t i = 0;
    const uint64_t t = now_ms();
    for (trn_plan_entry *e = pc->head; e && v && i < n; e = e->next, i++) {
        snprintf(v[i].key, sizeof(v[i].key), "%s", e->key);
        entry_state(e, v[i].state, sizeof(v[i].state));
        append_program_state(e, v[i].state, sizeof(v[i].state));
        v[i].hits = e->hits;
        v[i].uses = e->refs;
        v[i].bytes = e->bytes;
        v[i].idle_ms = e->refs ? 0 : t - e->last_use_ms;
        v[i].build_seconds = e->cost_seconds;
    }
    pthread_mutex_unlock(&pc->lock);
    *out = v;
    return v ? i : 0;
}

unsigned trn_plan_cache_clear(trn_plan_cache *pc, unsigned *kept) {
    unsigned dropped = 0;
    *kept = 0;
    pthread_mutex_lock(&pc->lock);
    for (trn_plan_entry *e = pc->head, *next; e; e = next) {
        next = e->next;
        if (e->refs) {
            ++*kept;
            continue;
        }
        list_unlink(pc, e);
        pc->st.entries--;
        pc->st.bytes -= e->bytes;
        e->next = pc->graveyard;
        pc->graveyard = e;
        dropped++;
    }
    pc->dirty = 1;
    pthread_cond_broadcast(&pc->work);
    pthread_mutex_unlock(&pc->lock);
    return dropped;
}

/* One manifest line, "<parts in hex>[/<planning seconds>] <key>" or just
 * "<key>" (part 0): finds or makes the entry and queues its parts. Lock
 * held. */
static int warm_line(trn_plan_cache *pc, const char *line, char *err, size_t errlen) {
    char *end;
    unsigned long parts = strtoul(line, &end, 16);
    double cost = 0;
    if (end != line && *end == '/') {
        char *e2;
        cost = strtod(end + 1, &e2);
        if (e2 == end + 1 || !(cost >= 0 && cost < 1e9)) {
            snprintf(err, errlen, "the planning time after '/' is not a number of seconds");
            return -1;
        }
        end = e2;
    }
    const char *key = line;
    if (end != line && *end == ' ')
        key = end + 1;
    else
        parts = 1;
    trn_plan_spec spec;
    if (trn_plan_spec_parse(key, &spec, err, errlen) != 0)
        return -1;
    spec.effort = pc->cfg.effort;
    char canon[TRN_PLAN_KEY_LEN];
    trn_plan_spec_format(&spec, canon, sizeof(canon));
    trn_plan_entry *e = find(pc, canon);
    if (!e && entry_new(pc, &spec, canon, &e, err, errlen) != TRN_PLAN_OK)
        return -1;
    if (cost > e->cost_seconds)
        e->cost_seconds = cost;
    for (unsigned p = 0; p < TRN_PLAN_MAX_PARTS; p++)
        if (parts & (1ul << p))
            queue_part(pc, e, p, 0);
    return 0;
}

unsigned trn_plan_cache_warm(trn_plan_cache *pc, const char *manifest,
                             void (*reject)(void *ctx, const char *line, const char *why),
                             void *ctx) {
    unsigned queued = 0;
    const char *p = manifest;
    pthread_mutex_lock(&pc->lock);
    while (p && *p) {
        const char *nl = strchr(p, '\n');
        const size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[TRN_PLAN_KEY_LEN + 64], err[256];
        if (len < sizeof(line)) {
            memcpy(line, p, len);
            line[len] = '\0';
            if (len && line[len - 1] == '\r')
                line[len - 1] = '\0';
        } else {
            snprintf(line, sizeof(line), "%.200s...", p);
        }
        p = nl ? nl + 1 : NULL;
        if (!line[0] || line[0] == '#' || strncmp(line, MANIFEST_MAGIC, 20) == 0)
            continue;
        if (len >= sizeof(line)) {
            if (reject)
                reject(ctx, line, "line too long");
            continue;
        }
        if (warm_line(pc, line, err, sizeof(err)) == 0)
            queued++;
        else if (reject)
            reject(ctx, line, err);
    }
    pthread_mutex_unlock(&pc->lock);
    return queued;
}

/* ---- persistence ----------------------------------------------------------------- */

static int manifest_path(const trn_plan_cache *pc, char *buf, size_t len, const char *suffix) {
    const int n = snprintf(buf, len, "%s/%s%s", pc->dir, MANIFEST_NAME, suffix);
    return n > 0 && (size_t)n < len ? 0 : -1;
}

/* The manifest text of the current entries (malloc'd). Lock held. */
static char *manifest_text(const trn_plan_cache *pc) {
    size_t cap = 256 + (size_t)pc->st.entries * 180, w = 0;
    char *buf = malloc(cap);
    if (!buf)
        return NULL;
    w += (size_t)snprintf(buf, cap, "%s %s\n", MANIFEST_MAGIC, pc->be->version);
    /* Oldest first, so that loading restores the LRU order. */
    for (const trn_plan_entry *e = pc->tail; e && w < cap; e = e->prev) {
        unsigned long parts = 0;
        for (unsigned p = 0; p < TRN_PLAN_MAX_PARTS; p++)
            if (e->part[p] == PART_READY)
                parts |= 1ul << p;
        if (parts)
            w +=
                (size_t)snprintf(buf + w, cap - w, "%lx/%.6f %s\n", parts, e->cost_seconds, e->key);
    }
    return buf;
}

/* Writes the manifest (atomically: temporary file, then rename) and the
 * backend's planning state. Planner thread, lock not held. */
static void save(trn_plan_cache *pc, const char *text) {
    char path[4096], tmp[4096], err[512];
    if (manifest_path(pc, path, sizeof(path), "") || manifest_path(pc, tmp, sizeof(tmp), ".tmp"))
        return;
    /* The first failure's errno; the file is closed whatever fputs did, so
     * a full disk does not leak it. */
    int e = 0;
    FILE *f = fopen(tmp, "w");
    if (!f) {
        e = errno;
    } else {
        if (fputs(text, f) < 0)
            e = errno;
        if (fclose(f) != 0 && !e)
            e = errno;
    }
    if (!e && rename(tmp, path) != 0)
        e = errno;
    if (e) {
        warn(pc, "plan cache: cannot write %s: %s", path, strerror(e));
        if (f)
            remove(tmp);
        return;
    }
    if (pc->be->plan_state_save && pc->be->plan_state_save(pc->be, pc->dir, err, sizeof(err)))
        warn(pc, "plan cache: %s", err);
}

static void reject_loaded(void *ctx, const char *line, const char *why) {
    trn_plan_cache *pc = ctx;
    warn(pc, "plan cache: ignoring a manifest line \"%.200s\": %.250s", line, why);
}

/* Reads the manifest and, when it is this backend's, the planning state,
 * and queues the manifest's plans. */
static void load(trn_plan_cache *pc) {
    char path[4096], err[512];
    if (mkdir(pc->dir, 0700) != 0 && errno != EEXIST) {
        warn(pc, "plan cache: cannot create %s: %s; plans will not persist", pc->dir,
             strerror(errno));
        free(pc->dir);
        pc->dir = NULL;
        pc->cfg.dir = NULL;
        return;
    }
    if (manifest_path(pc, path, sizeof(path), ""))
        return;
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno != ENOENT)
            warn(pc, "plan cache: cannot read %s: %s", path, strerror(errno));
        return;
    }
    /* The whole file, at most 16 MiB (a manifest line is under 200 bytes). */
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    char *text = size >= 0 && size <= (16l << 20) && fseek(f, 0, SEEK_SET) == 0
                     ? malloc((size_t)size + 1)
                     : NULL;
    const size_t len = text ? fread(text, 1, (size_t)size, f) : 0;
    fclose(f);
    if (!text) {
        warn(pc, "plan cache: %s is unreadable or too large: ignored", path);
        return;
    }
    text[len] = '\0';
    char header[256];
    snprintf(header, sizeof(header), "%s %s\n", MANIFEST_MAGIC, pc->be->version);
    if (strncmp(text, header, strlen(header)) != 0 || memchr(text, '\0', len)) {
        warn(pc, "plan cache: %s is not a manifest of this daemon's backend (%s): ignored", path,
             pc->be->version);
        free(text);
        return;
    }
    if (pc->be->plan_state_load && pc->be->plan_state_load(pc->be, pc->dir, err, sizeof(err)))
        warn(pc, "plan cache: %s", err);
    else if (pc->cfg.built)
        pc->cfg.built(pc->cfg.hook_ctx); /* what was loaded, before anything is prepared */
    trn_plan_cache_warm(pc, text, reject_loaded, pc);
    free(text);
}

/* ---- the planner thread ---------------------------------------------------------- */

/* Which jobs a thread takes. */
enum { TAKE_ANY, TAKE_SERIAL, TAKE_CONCURRENT };

/* Whether a job may be prepared on the compile threads. */
static int job_concurrent(const trn_plan_cache *pc, const build_job *j) {
    return pc->cfg.compile_threads > 0 && pc->be->plan_concurrent &&
           pc->be->plan_concurrent(pc->be, &j->e->spec);
}

/* The first job of the urgent FIFO, else of the background one, that the
 * taker may prepare; NULL when none. */
static build_job *pop_job(trn_plan_cache *pc, int take) {
    build_job **queues[2] = {&pc->urgent, &pc->background};
    for (int i = 0; i < 2; i++)
        for (build_job **q = queues[i]; *q; q = &(*q)->next) {
            build_job *j = *q;
            if (take != TAKE_ANY && job_concurrent(pc, j) != (take == TAKE_CONCURRENT))
                continue;
            *q = j->next;
            return j;
        }
    return NULL;
}

static void free_entry(trn_plan_cache *pc, trn_plan_entry *e) {
    if (pc->be->plan_release)
        pc->be->plan_release(pc->be, e->plan);
    free(e);
}

/* Prepares j's part. The hooks run on the planner thread only
 * (plan_cache.h): a compile thread's build (a kernel program) teaches the
 * daemon's planners nothing, and the hooks use FFTW, which one thread at a
 * time may call. */
static void build(trn_plan_cache *pc, build_job *j, int on_planner) {
    trn_plan_entry *e = j->e;
    char err[160] = "";
    e->part[j->part] = PART_BUILDING;
    pthread_mutex_unlock(&pc->lock);
    const double t0 = now_s();
    trn_kstatus k = TRN_KSTATUS_OK;
    if (pc->cfg.prepare_first && on_planner) {
        const int r =
            pc->cfg.prepare_first(pc->cfg.hook_ctx, e->key, &e->spec, j->part, err, sizeof(err));
        k = r == 0 ? TRN_KSTATUS_OK : r == -2 ? TRN_KSTATUS_NO_MEMORY : TRN_KSTATUS_FAILED;
    }
    if (k == TRN_KSTATUS_OK)
        k = pc->be->plan_build(pc->be, e->plan, j->part, err, sizeof(err));
    if (k == TRN_KSTATUS_OK && pc->cfg.built && on_planner)
        pc->cfg.built(pc->cfg.hook_ctx);
    const double dt = now_s() - t0;
    const uint64_t bytes = pc->be->plan_bytes ? pc->be->plan_bytes(pc->be, e->plan) : e->bytes;
    pthread_mutex_lock(&pc->lock);
    e->build_seconds += dt;
    if (e->build_seconds > e->cost_seconds)
        e->cost_seconds = e->build_seconds;
    pc->st.builds++;
    pc->st.build_seconds += dt;
    if (k == TRN_KSTATUS_OK) {
        e->part[j->part] = PART_READY;
        pc->dirty = 1;
    } else if (k == TRN_KSTATUS_NO_MEMORY) {
        /* Not remembered: the waiters fail, the next user builds again. */
        e->part[j->part] = PART_NOMEM;
        pc->st.build_failures++;
        snprintf(e->nomem, sizeof(e->nomem), "%s", err[0] ? err : "planning ran out of memory");
    } else {
        e->part[j->part] = PART_FAILED;
        pc->st.build_failures++;
        if (!e->failure[0])
            snprintf(e->failure, sizeof(e->failure), "%s", err[0] ? err : "planning failed");
    }
    pc->st.bytes += bytes - e->bytes; /* listed: the job's reference kept it */
    e->bytes = bytes;
    e->refs--;
    free(j);
    pthread_cond_broadcast(&pc->done);
}

static void *planner_main(void *arg) {
    trn_plan_cache *pc = arg;
    /* Background work: planning yields the CPU to the frontends (a reply
     * waiting to go out) and to the workers. Failure leaves nice 0. */
    (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
    pthread_mutex_lock(&pc->lock);
    for (;;) {
        evict_over_bound(pc);
        if (pc->graveyard) {
            trn_plan_entry *g = pc->graveyard;
            pc->graveyard = NULL;
            pthread_mutex_unlock(&pc->lock);
            while (g) {
                trn_plan_entry *next = g->next;
                free_entry(pc, g);
                g = next;
            }
            pthread_mutex_lock(&pc->lock);
            continue;
        }
        build_job *j = pop_job(pc, pc->stopping ? TAKE_ANY : TAKE_SERIAL);
        if (j && !pc->stopping) {
            build(pc, j, 1);
            continue;
        }
        if (j) { /* stopping: abandon it */
            trn_plan_entry *e = j->e;
            e->part[j->part % TRN_PLAN_MAX_PARTS] = PART_FAILED;
            if (!e->failure[0])
                snprintf(e->failure, sizeof(e->failure), "the daemon is shutting down");
            e->refs--;
            free(j);
            pthread_cond_broadcast(&pc->done);
            continue;
        }
        if (!pc->urgent && !pc->background) /* compile threads may have some */
            pc->st.prewarm_done = 1;
        if (pc->dirty && pc->dir) {
            pc->dirty = 0;
            char *text = manifest_text(pc);
            pthread_mutex_unlock(&pc->lock);
            if (text)
                save(pc, text);
            free(text);
            pthread_mutex_lock(&pc->lock);
            continue;
        }
        if (pc->stopping)
            break;
        pthread_cond_wait(&pc->work, &pc->lock);
    }
    pthread_mutex_unlock(&pc->lock);
    return NULL;
}

/* A compile thread: prepares the plans whose parts may be prepared
 * concurrently (backend.h, plan_concurrent), so that one long compile does
 * not hold up FFTW planning or other compiles. The planner thread keeps the
 * manifest, eviction and shutdown's abandoned jobs. */
static void *compiler_main(void *arg) {
    trn_plan_cache *pc = arg;
    (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
    pthread_mutex_lock(&pc->lock);
    while (!pc->stopping) {
        build_job *j = pop_job(pc, TAKE_CONCURRENT);
        if (j) {
            build(pc, j, 0);
            pthread_cond_broadcast(&pc->work); /* the planner saves the manifest */
            continue;
        }
        pthread_cond_wait(&pc->work, &pc->lock);
    }
    pthread_mutex_unlock(&pc->lock);
    return NULL;
}

int trn_plan_cache_start(trn_plan_cache *pc) {
    if (pc->dir)
        load(pc);
    if (pthread_create(&pc->thread, NULL, planner_main, pc) != 0)
        return -1;
    pc->started = 1;
    const int n = pc->cfg.compile_threads;
    pc->compilers = n > 0 ? calloc((size_t)n, sizeof(*pc->compilers)) : NULL;
    for (int i = 0; pc->compilers && i < n; i++) {
        if (pthread_create(&pc->compilers[i], NULL, compiler_main, pc) != 0)
            break;
        pc->ncompilers++;
    }
    if (n > 0 && pc->ncompilers == 0) {
        /* None could start: the planner prepares everything. */
        pthread_mutex_lock(&pc->lock);
        pc->cfg.compile_threads = 0;
        pthread_mutex_unlock(&pc->lock);
    }
    return 0;
}

void trn_plan_cache_stop(trn_plan_cache *pc) {
    pthread_mutex_lock(&pc->lock);
    pc->stopping = 1;
    pthread_cond_broadcast(&pc->work);
    pthread_mutex_unlock(&pc->lock);
    for (int i = 0; i < pc->ncompilers; i++)
        pthread_join(pc->compilers[i], NULL);
    pc->ncompilers = 0;
    free(pc->compilers);
    pc->compilers = NULL;
    if (pc->started) {
        pthread_join(pc->thread, NULL);
        pc->started = 0;
    }
}

void trn_plan_cache_destroy(trn_plan_cache *pc) {
    if (!pc)
        return;
    trn_plan_cache_stop(pc);
    for (build_job *j; (j = pop_job(pc, TAKE_ANY));) {
        j->e->refs--;
        free(j);
    }
    for (trn_plan_entry *e = pc->head, *next; e; e = next) {
        next = e->next;
        free_entry(pc, e);
    }
    for (trn_plan_entry *e = pc->graveyard, *next; e; e = next) {
        next = e->next;
        free_entry(pc, e);
    }
    pthread_cond_destroy(&pc->work);
    pthread_cond_destroy(&pc->done);
    pthread_mutex_destroy(&pc->lock);
    free(pc->dir);
    free(pc);
}
