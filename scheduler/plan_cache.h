/*
 * plan_cache.h — the daemon-wide plan cache: plans made once, shared by
 * every session, kept across restarts.
 *
 * A plan (kernels/backend.h) is whatever is expensive to prepare for a
 * shape: FFTW plans today. The cache keys plans by the text of their spec
 * (ops/fft_shape.h: family, op, shape, layout, type, planning effort),
 * so two sessions asking for the same transform share one entry: the second
 * is a hit. A plan is prepared in parts (an FFT's variants), each when first
 * needed, by the cache's one planner thread: planning is serialised (FFTW's
 * planner is not thread-safe) and never runs on a frontend or worker thread,
 * except kernel programs compiled by an outside compiler, which its compile
 * threads prepare side by side (cfg.compile_threads);
 * so it never blocks the execution of plans already prepared. A worker whose
 * op needs a part still being prepared waits for that part only.
 *
 * Lifetime: entries are reference counted (session handles, queued ops,
 * queued builds). An entry nobody references stays cached; when the
 * estimated bytes of all entries exceed the bound, the least recently used
 * unreferenced ones are evicted. A plan in use is never evicted. A part
 * whose build failed stays failed: later uses get the same error at once,
 * except a build that ran out of memory: the ops waiting for it fail, and
 * the next op or PlanCreate that needs the part builds it again (memory may
 * have been freed meanwhile).
 *
 * Persistence: with a directory, the cache keeps there the backend's
 * planning state (FFTW wisdom) and a manifest of its entries and prepared
 * parts, rewritten after builds. On start it loads both and prepares the
 * manifest's plans in the background while the daemon serves, so a restarted
 * daemon is warm. A manifest or wisdom file that is corrupt or from another
 * backend version is ignored with a warning.
 */
#ifndef TRN_SCHEDULER_PLAN_CACHE_H
#define TRN_SCHEDULER_PLAN_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/backend.h"

typedef struct trn_plan_cache trn_plan_cache;
typedef struct trn_plan_entry trn_plan_entry;

/* Parts per plan: part indices are 0 .. TRN_PLAN_MAX_PARTS - 1. */
#define TRN_PLAN_MAX_PARTS 32

typedef struct trn_plan_cache_config {
    uint64_t max_bytes;     /* bound on the estimated bytes of cached plans */
    const char *dir;        /* persistence directory, or NULL */
    trn_plan_effort effort; /* planning effort of every plan made */
    /* The largest single transform (bytes of either side) a plan may be made
     * for: planning allocates scratch of that size. 0: no limit. */
    uint64_t max_transform_bytes;
    /* Warnings (corrupt cache files, write errors); may be NULL. */
    void (*warn)(const char *msg);
    /* Called on the planner thread before a part is prepared here: the
     * daemon prepares it first in its planner executor, out of its own
     * process, and imports what that learnt (daemon/executor.h,
     * trn_exec_pool_plan). Returns 0; -2 when it ran out of memory, -1 with
     * err when it failed (the part fails with err). May be NULL. */
    int (*prepare_first)(void *ctx, const char *key, const trn_plan_spec *spec, unsigned part,
                         char *err, size_t errlen);
    /* Called on the planner thread after every part prepared, before its
     * waiters are told (the daemon hands the planning knowledge to its
     * executors there); may be NULL. */
    void (*built)(void *ctx);
    void *hook_ctx; /* of prepare_first and built */
    /* Threads that prepare the plans the backend says may be prepared
     * concurrently (kernels/backend.h, plan_concurrent: compiled kernel
     * programs): at most this many compiles at a time, beside the planner
     * thread. 0: the planner thread prepares everything. */
    int compile_threads;
} trn_plan_cache_config;

typedef struct trn_plan_cache_stats {
    uint64_t hits, misses, entries, bytes, max_bytes, evictions;
    uint64_t builds, build_failures;
    double build_seconds; /* spent preparing parts */
    double saved_seconds; /* the build seconds of entries hits found */
    int prewarm_done;     /* the persisted manifest has been prepared */
} trn_plan_cache_stats;

/* One entry, as `trnsci plans` lists it. */
typedef struct trn_plan_info {
    char key[TRN_PLAN_KEY_LEN];
    char state[200]; /* "warming", "ready", "failed: why" */
    uint64_t hits, uses, bytes, idle_ms;
    double build_seconds;
} trn_plan_info;

/* Creates the cache (nothing is loaded or started yet). NULL when out of
 * memory. */
trn_plan_cache *trn_plan_cache_create(const trn_backend *be, const trn_plan_cache_config *cfg);
/* Loads the persisted cache (when there is a directory) and starts the
 * planner thread, which prepares the loaded plans in the background.
 * Returns 0, or -1 when the thread cannot start. */
int trn_plan_cache_start(trn_plan_cache *pc);
/* Stops the planner thread: the build it is running finishes, queued builds
 * fail ("the daemon is shutting down") and their waiters wake. Idempotent. */
void trn_plan_cache_stop(trn_plan_cache *pc);
/* Frees every entry and the cache. Call after trn_plan_cache_stop, when no
 * op and no session holds an entry. */
void trn_plan_cache_destroy(trn_plan_cache *pc);

/* Why trn_plan_cache_acquire failed. */
typedef enum trn_plan_error {
    TRN_PLAN_OK = 0,
    TRN_PLAN_INVALID = -1, /* the backend cannot plan spec */
    TRN_PLAN_TOO_BIG = -2, /* one transform exceeds max_transform_bytes */
    TRN_PLAN_FAILED = -3,  /* its preparation failed earlier (remembered) */
    TRN_PLAN_NOMEM = -4,   /* the daemon is out of memory for the plan */
} trn_plan_error;

/* The entry for spec (its effort replaced by the cache's), found or made,
 * with a reference for the caller; *hit says whether it was found. Queues
 * the build of part `warm` (-1: none) if not yet prepared or failed (a
 * build that ran out of memory is queued again). Returns TRN_PLAN_OK, or an
 * error with err written (TRN_PLAN_FAILED when part `warm` of the existing
 * entry failed earlier, TRN_PLAN_NOMEM when the backend could not allocate
 * the plan). */
trn_plan_error trn_plan_cache_acquire(trn_plan_cache *pc, const trn_plan_spec *spec, int warm,
                                      trn_plan_entry **out, int *hit, char *err, size_t errlen);
void trn_plan_entry_retain(trn_plan_entry *e);
/* Drops a reference. The entry stays cached. */
void trn_plan_entry_release(trn_plan_entry *e);

/* Queues the build of part if it is neither prepared, queued nor failed
 * (a build that ran out of memory is queued again); a part an op needs goes
 * before background (pre-warm) builds. */
void trn_plan_entry_require(trn_plan_entry *e, unsigned part);
/* What trn_plan_entry_wait returns when the part's build ran out of memory
 * (TRN_KSTATUS_NO_MEMORY). */
#define TRN_PLAN_WAIT_NOMEM (-2)
/* Blocks until part is prepared (0) or failed (-1, or TRN_PLAN_WAIT_NOMEM
 * when its last build ran out of memory; the build's error in err when err
 * is not NULL). Queues the build if nothing has. */
int trn_plan_entry_wait(trn_plan_entry *e, unsigned part, char *err, size_t errlen);

/* Notes that core-engine worker `core` ran an op with the plan (listed for
 * kernel programs: the cores their NEFF was loaded on). Lock-free. */
void trn_plan_entry_ran_on(trn_plan_entry *e, int core);

/* A kernel program's run times (scheduler/run_times.h): the scheduler notes
 * how long each shard of an op with the plan ran, and estimates the next
 * from them (listed: "runs in 81.2 ms"). Lock-free. */
void trn_plan_entry_note_run(trn_plan_entry *e, uint64_t ns);
/* The estimate, or 0 before the first run. */
uint64_t trn_plan_entry_run_ns(const trn_plan_entry *e);
/* The time the plan's ops were placed to wait for busy cores (the
 * scheduler's placement by location, sched.h): adds ns and returns 1 when
 * the total stays under budget; else sets the total back to 0 and returns
 * 0 (the op moves its inputs instead, which leaves a second copy). The
 * scheduler calls it under its lock. */
int trn_plan_entry_spend_busy_wait(trn_plan_entry *e, uint64_t ns, uint64_t budget);

/* Whether part is prepared (never blocks). */
int trn_plan_entry_ready(trn_plan_entry *e, unsigned part);

/* The backend's plan, its spec and key. */
void *trn_plan_entry_plan(const trn_plan_entry *e);
const trn_plan_spec *trn_plan_entry_spec(const trn_plan_entry *e);
const char *trn_plan_entry_key(const trn_plan_entry *e);

void trn_plan_cache_get_stats(trn_plan_cache *pc, trn_plan_cache_stats *st);
/* A snapshot of every entry, most recently used first: returns the count and
 * a malloc'd array in *out (NULL when empty or out of memory). */
size_t trn_plan_cache_list(trn_plan_cache *pc, trn_plan_info **out);
/* Drops every entry nobody holds (and rewrites the persisted manifest);
 * *kept counts the entries in use that stay. Returns the number dropped. */
unsigned trn_plan_cache_clear(trn_plan_cache *pc, unsigned *kept);
/* Prepares the plans listed in manifest text (the persisted format:
 * docs/operations.md) in the background. Returns the number of entries
 * queued; lines not understood are passed to reject (with a reason). */
unsigned trn_plan_cache_warm(trn_plan_cache *pc, const char *manifest,
                             void (*reject)(void *ctx, const char *line, const char *why),
                             void *ctx);

#endif
