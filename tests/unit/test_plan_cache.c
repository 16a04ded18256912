/*
 * test_plan_cache.c — the plan cache (scheduler/plan_cache.c) and plan keys
 * (ops/fft_shape.c), with a fake backend whose plans cost nothing and
 * whose builds can be made to fail or to block.
 *
 *  - keys: format/parse round trips (basic and advanced layouts, every type
 *    and effort), garbage and out-of-range keys refused, the shape rules
 *    (sizes, embeds, strides, 2^62 spans);
 *  - sharing: the same spec twice is one entry (a hit), another is a miss;
 *    the cache's effort replaces the caller's;
 *  - parts: wait builds what nothing queued; a failed build is remembered
 *    (acquire and wait fail at once, no second build); a build that ran out
 *    of memory is not: its waiters fail with TRN_PLAN_WAIT_NOMEM, and the
 *    next require or acquire builds it again; a plan that cannot be
 *    created for memory is TRN_PLAN_NOMEM; a waiter blocked on a
 *    slow build wakes when it finishes; stopping fails queued parts;
 *  - LRU under the byte bound: unreferenced entries are evicted oldest first,
 *    referenced ones never; clear drops the unused ones only;
 *  - kernel programs: their keys; two compile at once on the compile threads
 *    while the planner thread prepares an FFT plan; their run times and the
 *    estimate made from them;
 *  - persistence: the manifest written to the directory lists the prepared
 *    parts; a new cache loads it and prepares them (hits, not misses); a
 *    manifest of another backend version, and garbage, are ignored with a
 *    warning; warm() rejects lines it cannot parse.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "ops/fft_shape.h"
#include "scheduler/plan_cache.h"
#include "scheduler/run_times.h"

/* ---- the fake backend ------------------------------------------------------------- */

typedef struct fake_plan {
    unsigned built; /* parts */
    int program;    /* a kernel program (prepared on the compile threads) */
} fake_plan;

typedef struct fake_state {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int builds, releases, fail_part, block; /* block: builds wait until cleared */
    int nomem_part, create_nomem;           /* out of memory building / making plans */
    int state_saves, state_loads;
    char warnings[4096];
    int gate;            /* program builds wait while it is set */
    int compiling, most; /* program builds running now, and at most */
    /* The thread of the last FFT build (the planner's), and the calls of
     * the `built` hook: how many, and how many from another thread. */
    pthread_t fft_thread;
    int hook_calls, hook_elsewhere;
} fake_state;

static fake_state fake = {.lock = PTHREAD_MUTEX_INITIALIZER,
                          .cond = PTHREAD_COND_INITIALIZER,
                          .fail_part = -1,
                          .nomem_part = -1};

static void *fake_create(const trn_backend *be, const trn_plan_spec *spec, trn_kstatus *why,
                         char *err, size_t errlen) {
    (void)be;
    *why = TRN_KSTATUS_FAILED;
    if (spec->family == TRN_PLAN_PROGRAM) {
        fake_plan *p = calloc(1, sizeof(fake_plan));
        if (p)
            p->program = 1;
        return p;
    }
    if (trn_fft_shape_check(&spec->u.fft, err, errlen))
        return NULL;
    if (fake.create_nomem) {
        snprintf(err, errlen, "no memory for the plan");
        *why = TRN_KSTATUS_NO_MEMORY;
        return NULL;
    }
    return calloc(1, sizeof(fake_plan));
}

static trn_kstatus fake_build(const trn_backend *be, void *plan, unsigned part, char *err,
                              size_t errlen) {
    (void)be;
    pthread_mutex_lock(&fake.lock);
    if (!((fake_plan *)plan)->program)
        fake.fft_thread = pthread_self();
    if (((fake_plan *)plan)->program) {
        fake.compiling++;
        if (fake.compiling > fake.most)
            fake.most = fake.compiling;
        pthread_cond_broadcast(&fake.cond);
        while (fake.gate)
            pthread_cond_wait(&fake.cond, &fake.lock);
        fake.compiling--;
    }
    while (fake.block)
        pthread_cond_wait(&fake.cond, &fake.lock);
    fake.builds++;
    const int fail = (int)part == fake.fail_part, nomem = (int)part == fake.nomem_part;
    pthread_mutex_unlock(&fake.lock);
    if (fail) {
        snprintf(err, errlen, "part %u cannot be planned", part);
        return TRN_KSTATUS_FAILED;
    }
    if (nomem) {
        snprintf(err, errlen, "no memory to plan part %u", part);
        return TRN_KSTATUS_NO_MEMORY;
    }
    ((fake_plan *)plan)->built |= 1u << part;
    return TRN_KSTATUS_OK;
}

static uint64_t fake_bytes(const trn_backend *be, const void *plan) {
    (void)be;
    return 1000 + 1000 * (uint64_t)__builtin_popcount(((const fake_plan *)plan)->built);
}

static void fake_release(const trn_backend *be, void *plan) {
    (void)be;
    pthread_mutex_lock(&fake.lock);
    fake.releases++;
    pthread_mutex_unlock(&fake.lock);
    free(plan);
}

static int fake_load(const trn_backend *be, const char *dir, char *err, size_t errlen) {
    (void)be;
    (void)dir;
    (void)err;
    (void)errlen;
    fake.state_loads++;
    return 0;
}

static int fake_save(const trn_backend *be, const char *dir, char *err, size_t errlen) {
    (void)be;
    (void)dir;
    (void)err;
    (void)errlen;
    fake.state_saves++;
    return 0;
}

static trn_backend fake_be = {
    .name = "fake",
    .version = "fake-1",
    .plan_create = fake_create,
    .plan_build = fake_build,
    .plan_bytes = fake_bytes,
    .plan_release = fake_release,
    .plan_state_load = fake_load,
    .plan_state_save = fake_save,
};

static void on_warn(const char *msg) {
    pthread_mutex_lock(&fake.lock);
    strncat(fake.warnings, msg, sizeof(fake.warnings) - strlen(fake.warnings) - 2);
    strcat(fake.warnings, "\n");
    pthread_mutex_unlock(&fake.lock);
}

static int reset(void **state) {
    (void)state;
    fake.builds = fake.releases = fake.block = fake.state_saves = fake.state_loads = 0;
    fake.fail_part = fake.nomem_part = -1;
    fake.create_nomem = 0;
    fake.warnings[0] = '\0';
    fake.gate = fake.compiling = fake.most = 0;
    fake.hook_calls = fake.hook_elsewhere = 0;
    return 0;
}

static trn_plan_spec fft_spec(trn_fft_type t, int n0, int n1) {
    trn_plan_spec s;
    memset(&s, 0, sizeof(s));
    s.family = TRN_PLAN_FFT;
    s.effort = TRN_PLAN_PATIENT; /* replaced by the cache's */
    s.u.fft.type = t;
    s.u.fft.rank = n1 ? 2 : 1;
    s.u.fft.n[0] = n0;
    s.u.fft.n[1] = n1;
    s.u.fft.basic = 1;
    return s;
}

static trn_plan_cache *cache(uint64_t max_bytes, const char *dir) {
    const trn_plan_cache_config cfg = {
        .max_bytes = max_bytes, .dir = dir, .effort = TRN_PLAN_ESTIMATE, .warn = on_warn};
    trn_plan_cache *pc = trn_plan_cache_create(&fake_be, &cfg);
    assert_non_null(pc);
    assert_int_equal(trn_plan_cache_start(pc), 0);
    return pc;
}

/* Waits until the planner thread has nothing left to do. */
static void settle(trn_plan_cache *pc) {
    for (int i = 0; i < 400; i++) {
        trn_plan_info *v = NULL;
        const size_t n = trn_plan_cache_list(pc, &v);
        int busy = 0;
        for (size_t k = 0; k < n; k++)
            busy |= strcmp(v[k].state, "warming") == 0;
        free(v);
        if (!busy)
            return;
        usleep(5000);
    }
    fail_msg("the planner thread did not settle");
}

/* ---- keys ---------------------------------------------------------------------------- */

static void test_keys(void **state) {
    (void)state;
    char key[160], err[200];
    trn_plan_spec s = fft_spec(TRN_FFT_R2C, 96, 20), back;
    s.effort = TRN_PLAN_MEASURE;
    trn_plan_spec_format(&s, key, sizeof(key));
    assert_string_equal(key, "fft r2c 96x20 basic measure");
    assert_int_equal(trn_plan_spec_parse(key, &back, err, sizeof(err)), 0);
    assert_int_equal(back.u.fft.type, TRN_FFT_R2C);
    assert_int_equal(back.u.fft.n[1], 20);
    assert_int_equal(back.effort, TRN_PLAN_MEASURE);

    trn_plan_spec a = fft_spec(TRN_FFT_Z2D, 6, 10);
    a.u.fft.basic = 0;
    a.u.fft.inembed[1] = 12;
    a.u.fft.istride = 2;
    a.u.fft.onembed[1] = 11;
    a.u.fft.ostride = 3;
    a.effort = TRN_PLAN_ESTIMATE;
    trn_plan_spec_format(&a, key, sizeof(key));
    /* inembed[0] is not part of a layout: the key shows the logical size. */
    assert_string_equal(key, "fft z2d 6x10 in=6x12:2 out=6x11:3 estimate");
    assert_int_equal(trn_plan_spec_parse(key, &back, err, sizeof(err)), 0);
    char again[160];
    trn_plan_spec_format(&back, again, sizeof(again));
    assert_string_equal(again, key);

    /* The 16-bit types (trnfftXt): names, and 2-byte elements. */
    const char *const half_keys[] = {
        "fft c2c16f 64 basic estimate", "fft r2c16f 8x10 in=8x13:2 out=8x6:1 measure",
        "fft c2r16bf 63 basic patient", "fft c2c16bf 4x4x4 basic measure",
        "fft r2c16bf 7 basic estimate", "fft c2r16f 9 basic estimate"};
    for (size_t i = 0; i < sizeof(half_keys) / sizeof(half_keys[0]); i++) {
        assert_int_equal(trn_plan_spec_parse(half_keys[i], &back, err, sizeof(err)), 0);
        assert_true(trn_fft_type_half(back.u.fft.type) != TRN_FFT_HALF_NONE);
        trn_plan_spec_format(&back, again, sizeof(again));
        assert_string_equal(again, half_keys[i]);
        trn_fft_side in, out;
        trn_fft_sides(&back.u.fft, 0, &in, &out);
        assert_int_equal(trn_fft_elem_size(&in), in.cplx ? 4 : 2);
        assert_int_equal(trn_fft_elem_size(&out), out.cplx ? 4 : 2);
    }

    const char *const bad[] = {"",
                               "fft",
                               "fft c2c 0 basic measure",
                               "fft c2c -4 basic measure",
                               "fft c2c 8 basic fast",
                               "fft c2x 8 basic measure",
                               "fft c2c16 8 basic measure",
                               "fft z2z16f 8 basic measure",
                               "fft c2c 8x8x8x8 basic measure",
                               "fft c2c 8 in=8:0 out=8:1 measure",
                               "fft c2c 8x8 in=8x4:1 out=8x8:1 measure",
                               "fft c2c 8 in=8:1x2 out=8:1 measure",
                               "fft c2c 99999999999 basic measure",
                               "fft r2c 2147483646 basic measure",
                               "fft c2c 1073741824x1073741824x1073741824 basic measure",
                               "gemm s 8 basic measure"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        if (trn_plan_spec_parse(bad[i], &back, err, sizeof(err)) == 0)
            fail_msg("key \"%s\" was accepted", bad[i]);
}

static void test_layout(void **state) {
    (void)state;
    /* In-place R2C of the basic layout pads real rows to 2(n/2+1). */
    trn_plan_spec s = fft_spec(TRN_FFT_R2C, 4, 7);
    trn_fft_side in, out;
    trn_fft_sides(&s.u.fft, 1, &in, &out);
    assert_int_equal(in.embed[1], 8);
    assert_int_equal(out.n[1], 4);
    assert_int_equal(trn_fft_block(&in), 32);
    assert_int_equal(trn_fft_span(&in), 3 * 8 + 7);
    trn_fft_sides(&s.u.fft, 0, &in, &out);
    assert_int_equal(in.embed[1], 7);
    assert_int_equal(trn_fft_span(&out), 3 * 4 + 4);
    assert_int_equal(trn_fft_elem_size(&out), 8);
}

/* ---- sharing and parts -------------------------------------------------------------- */

static void test_sharing(void **state) {
    (void)state;
    trn_plan_cache *pc = cache(1 << 20, NULL);
    trn_plan_entry *a, *b, *c;
    int hit;
    char err[200];
    const trn_plan_spec s = fft_spec(TRN_FFT_C2C, 1024, 0);
    assert_int_equal(trn_plan_cache_acquire(pc, &s, 0, &a, &hit, err, sizeof(err)), 0);
    assert_false(hit);
    assert_string_equal(trn_plan_entry_key(a), "fft c2c 1024 basic estimate");
    assert_int_equal(trn_plan_cache_acquire(pc, &s, 0, &b, &hit, err, sizeof(err)), 0);
    assert_true(hit);
    assert_ptr_equal(a, b);
    const trn_plan_spec other = fft_spec(TRN_FFT_C2C, 1000, 0);
    assert_int_equal(trn_plan_cache_acquire(pc, &other, -1, &c, &hit, err, sizeof(err)), 0);
    assert_false(hit);
    assert_int_equal(trn_plan_entry_wait(a, 0, err, sizeof(err)), 0);
    /* A part nobody queued is built by the wait. */
    assert_int_equal(trn_plan_entry_wait(c, 3, err, sizeof(err)), 0);
    assert_int_equal(((fake_plan *)trn_plan_entry_plan(c))->built, 1u << 3);
    trn_plan_cache_stats st;
    trn_plan_cache_get_stats(pc, &st);
    assert_int_equal(st.hits, 1);
    assert_int_equal(st.misses, 2);
    assert_int_equal(st.entries, 2);
    assert_int_equal(st.builds, 2);
    /* Bad specs are refused by the backend. */
    trn_plan_spec bad = fft_spec(TRN_FFT_C2C, 0, 0);
    trn_plan_entry *none;
    assert_int_equal(trn_plan_cache_acquire(pc, &bad, 0, &none, &hit, err, sizeof(err)),
                     TRN_PLAN_INVALID);
    trn_plan_entry_release(a);
    trn_plan_entry_release(b);
    trn_plan_entry_release(c);
    trn_plan_cache_destroy(pc);
    assert_int_equal(fake.releases, 2);
    /* A transform larger than the bound is refused before any planning. */
    const trn_plan_cache_config small = {
        .max_bytes = 1 << 20, .effort = TRN_PLAN_ESTIMATE, .max_transform_bytes = 8 * 1024};
    pc = trn_plan_cache_create(&fake_be, &small);
    trn_plan_spec just = fft_spec(TRN_FFT_C2C, 1024, 0), over = fft_spec(TRN_FFT_C2C, 1025, 0);
    assert_int_equal(trn_plan_cache_acquire(pc, &over, 0, &c, &hit, err, sizeof(err)),
                     TRN_PLAN_TOO_BIG);
    assert_non_null(strstr(err, "8200 bytes"));
    assert_int_equal(trn_plan_cache_acquire(pc, &just, -1, &c, &hit, err, sizeof(err)),
                     TRN_PLAN_OK);
    trn_plan_entry_release(c);
    trn_plan_cache_destroy(pc);
    assert_int_equal(fake.releases, 3);
}

static void test_failure_remembered(void **state) {
    (void)state;
    trn_plan_cache *pc = cache(1 << 20, NULL);
    fake.fail_part = 0;
    trn_plan_entry *a, *b;
    int hit;
    char err[200];
    const trn_plan_spec s = fft_spec(TRN_FFT_C2C, 64, 0);
    assert_int_equal(trn_plan_cache_acquire(pc, &s, 0, &a, &hit, err, sizeof(err)), 0);
    assert_int_equal(trn_plan_entry_wait(a, 0, err, sizeof(err)), -1);
    assert_string_equal(err, "part 0 cannot be planned");
    assert_int_equal(trn_plan_entry_wait(a, 0, err, sizeof(err)), -1);
    assert_int_equal(trn_plan_cache_acquire(pc, &s, 0, &b, &hit, err, sizeof(err)),
                     TRN_PLAN_FAILED);
    assert_non_null(strstr(err, "failed earlier"));
    trn_plan_entry_require(a, 0);
    settle(pc);
    assert_int_equal(fake.builds, 1); /* never retried */
    trn_plan_info *v = NULL;
    assert_int_equal(trn_plan_cache_list(pc, &v), 1);
    assert_non_null(strstr(v[0].state, "failed: part 0"));
    free(v);
    trn_plan_cache_stats st;
    trn_plan_cache_get_stats(pc, &st);
    assert_int_equal(st.build_failures, 1);
    trn_plan_entry_release(a);
    trn_plan_cache_destroy(pc);
}

/* Out of memory is not a property of the shape: only the ops waiting for
 * that build fail, the next require / acquire builds the part again. */
static void test_nomem_not_remembered(void **state) {
    (void)state;
    trn_plan_cache *pc = cache(1 << 20, NULL);
    trn_plan_entry *a, *b;
    int hit;
    char err[200];
    const trn_plan_spec s = fft_spec(TRN_FFT_C2C, 64, 0);
    fake.create_nomem = 1;
    assert_int_equal(trn_plan_cache_acquire(pc, &s, 0, &a, &hit, err, sizeof(err)), TRN_PLAN_NOMEM);
    assert_string_equal(err, "no memory for the plan");
    fake.create_nomem = 0;

    fake.nomem_part = 0;
    assert_int_equal(trn_plan_cache_acquire(pc, &s, 0, &a, &hit, err, sizeof(err)), 0);
    assert_int_equal(trn_plan_entry_wait(a, 0, err, sizeof(err)), TRN_PLAN_WAIT_NOMEM);
    assert_string_equal(err, "no memory to plan part 0");
    /* A waiter of the same build (no require since) fails too, at once. */
    assert_int_equal(trn_plan_entry_wait(a, 0, err, sizeof(err)), TRN_PLAN_WAIT_NOMEM);
    assert_int_equal(fake.builds, 1);
    trn_plan_info *v = NULL;
    assert_int_equal(trn_plan_cache_list(pc, &v), 1);
    assert_non_null(strstr(v[0].state, "out of memory"));
    free(v);
    /* The next op requires it: built again (and still short of memory). */
    trn_plan_entry_require(a, 0);
    assert_int_equal(trn_plan_entry_wait(a, 0, err, sizeof(err)), TRN_PLAN_WAIT_NOMEM);
    assert_int_equal(fake.builds, 2);
    /* Memory is back: PlanCreate's acquire queues it, and it is ready. */
    fake.nomem_part = -1;
    assert_int_equal(trn_plan_cache_acquire(pc, &s, 0, &b, &hit, err, sizeof(err)), 0);
    assert_int_equal(hit, 1);
    assert_int_equal(trn_plan_entry_wait(b, 0, err, sizeof(err)), 0);
    assert_int_equal(fake.builds, 3);
    trn_plan_cache_stats st;
    trn_plan_cache_get_stats(pc, &st);
    assert_int_equal(st.build_failures, 2);
    trn_plan_entry_release(a);
    trn_plan_entry_release(b);
    trn_plan_cache_destroy(pc);
}

typedef struct waiter_arg {
    trn_plan_entry *e;
    int rc;
} waiter_arg;

static void *waiter(void *p) {
    waiter_arg *w = p;
    w->rc = trn_plan_entry_wait(w->e, 1, NULL, 0);
    return NULL;
}

static void test_waiters_and_stop(void **state) {
    (void)state;
    trn_plan_cache *pc = cache(1 << 20, NULL);
    fake.block = 1;
    trn_plan_entry *a;
    int hit;
    char err[200];
    const trn_plan_spec s = fft_spec(TRN_FFT_C2C, 128, 0);
    assert_int_equal(trn_plan_cache_acquire(pc, &s, 0, &a, &hit, err, sizeof(err)), 0);
    waiter_arg w = {a, 99};
    pthread_t t;
    pthread_create(&t, NULL, waiter, &w);
    usleep(20000);
    assert_int_equal(w.rc, 99); /* still waiting: part 0 blocks the planner */
    pthread_mutex_lock(&fake.lock);
    fake.block = 0;
    pthread_cond_broadcast(&fake.cond);
    pthread_mutex_unlock(&fake.lock);
    pthread_join(t, NULL);
    assert_int_equal(w.rc, 0);
    /* Stopping fails what is queued; a later wait fails at once. */
    fake.block = 1;
    trn_plan_entry_require(a, 5);
    trn_plan_entry_require(a, 6);
    pthread_mutex_lock(&fake.lock);
    fake.block = 0;
    pthread_cond_broadcast(&fake.cond);
    pthread_mutex_unlock(&fake.lock);
    trn_plan_cache_stop(pc);
    assert_int_equal(trn_plan_entry_wait(a, 7, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "shutting down"));
    trn_plan_entry_release(a);
    trn_plan_cache_destroy(pc);
}

/* ---- memory bound ---------------------------------------------------------------------- */

static void test_lru(void **state) {
    (void)state;
    /* Each entry is 2000 bytes once part 0 is built: the bound holds 3. */
    trn_plan_cache *pc = cache(6500, NULL);
    trn_plan_entry *e[5];
    int hit;
    char err[200];
    for (int i = 0; i < 5; i++) {
        const trn_plan_spec s = fft_spec(TRN_FFT_C2C, 10 + i, 0);
        assert_int_equal(trn_plan_cache_acquire(pc, &s, 0, &e[i], &hit, err, sizeof(err)), 0);
        assert_int_equal(trn_plan_entry_wait(e[i], 0, err, sizeof(err)), 0);
    }
    /* Referenced: nothing may go, whatever the bound. */
    settle(pc);
    trn_plan_cache_stats st;
    trn_plan_cache_get_stats(pc, &st);
    assert_int_equal(st.entries, 5);
    /* Entry 1 is in use; drop the others, oldest first: 0, 2 go, 3 and 4
     * stay (with 1, three entries, 6000 bytes). */
    for (int i = 0; i < 5; i++)
        if (i != 1)
            trn_plan_entry_release(e[i]);
    trn_plan_entry_retain(e[1]); /* ... and hold it twice */
    trn_plan_entry_release(e[1]);
    const trn_plan_spec again = fft_spec(TRN_FFT_C2C, 14, 0); /* touch 4: most recent */
    trn_plan_entry *t;
    assert_int_equal(trn_plan_cache_acquire(pc, &again, -1, &t, &hit, err, sizeof(err)), 0);
    assert_true(hit);
    trn_plan_entry_release(t);
    for (int i = 0; i < 200; i++) {
        trn_plan_cache_get_stats(pc, &st);
        if (st.entries <= 3)
            break;
        usleep(5000);
    }
    assert_int_equal(st.entries, 3);
    assert_int_equal(st.evictions, 2);
    trn_plan_info *v = NULL;
    const size_t n = trn_plan_cache_list(pc, &v);
    assert_int_equal(n, 3);
    assert_string_equal(v[0].key, "fft c2c 14 basic estimate");
    int has1 = 0, has3 = 0;
    for (size_t i = 0; i < n; i++) {
        has1 |= strcmp(v[i].key, "fft c2c 11 basic estimate") == 0;
        has3 |= strcmp(v[i].key, "fft c2c 13 basic estimate") == 0;
    }
    free(v);
    assert_true(has1 && has3);
    unsigned kept;
    assert_int_equal(trn_plan_cache_clear(pc, &kept), 2);
    assert_int_equal(kept, 1);
    trn_plan_entry_release(e[1]);
    trn_plan_cache_destroy(pc);
    assert_int_equal(fake.releases, 5);
}

/* ---- persistence ---------------------------------------------------------------------- */

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_persistence(void **state) {
    (void)state;
    char dir[] = "/tmp/trnsci-plancache-XXXXXX", path[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/plans.manifest", dir);
    trn_plan_cache *pc = cache(1 << 20, dir);
    trn_plan_entry *a;
    int hit;
    char err[200];
    const trn_plan_spec s = fft_spec(TRN_FFT_R2C, 30, 4);
    assert_int_equal(trn_plan_cache_acquire(pc, &s, 0, &a, &hit, err, sizeof(err)), 0);
    assert_int_equal(trn_plan_entry_wait(a, 0, err, sizeof(err)), 0);
    assert_int_equal(trn_plan_entry_wait(a, 2, err, sizeof(err)), 0);
    trn_plan_entry_release(a);
    trn_plan_cache_destroy(pc); /* the planner saved before it stopped */
    assert_true(fake.state_saves >= 1);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char text[512] = "";
    assert_true(fread(text, 1, sizeof(text) - 1, f) > 0);
    fclose(f);
    /* Parts 0 and 2, the planning time, the key. */
    assert_non_null(strstr(text, "trnsci-plan-manifest 1 fake-1\n5/0.0"));
    assert_non_null(strstr(text, " fft r2c 30x4 basic estimate\n"));

    /* A new cache prepares it before anyone asks. */
    fake.builds = 0;
    pc = cache(1 << 20, dir);
    settle(pc);
    assert_int_equal(fake.builds, 2);
    assert_int_equal(fake.state_loads, 1);
    assert_int_equal(trn_plan_cache_acquire(pc, &s, 0, &a, &hit, err, sizeof(err)), 0);
    assert_true(hit);
    trn_plan_cache_stats st;
    trn_plan_cache_get_stats(pc, &st);
    assert_int_equal(st.misses, 0);
    assert_true(st.prewarm_done);
    trn_plan_entry_release(a);
    trn_plan_cache_destroy(pc);

    /* Another backend's manifest, then garbage: ignored with a warning. */
    const char *const foreign[] = {"trnsci-plan-manifest 1 other-9\n1 fft c2c 8 basic estimate\n",
                                   "\x7f\x45garbage\n\n\n", ""};
    for (int i = 0; i < 3; i++) {
        write_text(path, foreign[i]);
        fake.warnings[0] = '\0';
        fake.state_loads = 0;
        pc = cache(1 << 20, dir);
        settle(pc);
        trn_plan_cache_get_stats(pc, &st);
        assert_int_equal(st.entries, 0);
        assert_int_equal(fake.state_loads, 0); /* its wisdom is not trusted either */
        assert_non_null(strstr(fake.warnings, "ignored"));
        trn_plan_cache_destroy(pc);
    }
    /* A good header with bad lines: the good ones load, the bad ones warn. */
    write_text(path, "trnsci-plan-manifest 1 fake-1\nzz fft c2c 9 basic estimate\n"
                     "1 fft c2c 0 basic estimate\n1/x fft c2c 10 basic estimate\n"
                     "3/6.5 fft z2z 12 basic measure\n");
    fake.warnings[0] = '\0';
    pc = cache(1 << 20, dir);
    settle(pc);
    trn_plan_cache_get_stats(pc, &st);
    assert_int_equal(st.entries, 1);
    assert_non_null(strstr(fake.warnings, "fft c2c 0"));
    assert_non_null(strstr(fake.warnings, "planning time"));
    /* A hit saves the planning time the manifest carried, not the rebuild's. */
    const trn_plan_spec z = fft_spec(TRN_FFT_Z2Z, 12, 0);
    assert_int_equal(trn_plan_cache_acquire(pc, &z, 0, &a, &hit, err, sizeof(err)), TRN_PLAN_OK);
    assert_true(hit);
    trn_plan_cache_get_stats(pc, &st);
    assert_true(st.saved_seconds >= 6.5);
    trn_plan_entry_release(a);
    trn_plan_cache_destroy(pc);
    remove(path);
    snprintf(path, sizeof(path), "rm -rf %s", dir);
    assert_int_equal(system(path), 0);
}

/* ---- kernel programs on the compile threads ------------------------------------------- */

static int fake_concurrent(const trn_backend *be, const trn_plan_spec *spec) {
    (void)be;
    return spec->family == TRN_PLAN_PROGRAM;
}

static trn_plan_spec program_spec(const char *params) {
    trn_plan_spec s;
    memset(&s, 0, sizeof(s));
    s.family = TRN_PLAN_PROGRAM;
    snprintf(s.u.program.kernel, sizeof(s.u.program.kernel), "gemm");
    snprintf(s.u.program.params, sizeof(s.u.program.params), "%s", params);
    return s;
}

static void test_program_keys(void **state) {
    (void)state;
    char key[TRN_PLAN_KEY_LEN], err[200];
    trn_plan_spec s = program_spec("dtype=f32 mode=bf16 m=130 n=70 k=257 batch=1"), back;
    trn_plan_spec_format(&s, key, sizeof(key));
    assert_string_equal(key, "program gemm dtype=f32 mode=bf16 m=130 n=70 k=257 batch=1");
    assert_int_equal(trn_plan_spec_parse(key, &back, err, sizeof(err)), 0);
    assert_int_equal(back.family, TRN_PLAN_PROGRAM);
    assert_string_equal(back.u.program.kernel, "gemm");
    assert_string_equal(back.u.program.params, s.u.program.params);
    const char *bad[] = {"program gemm", "program Gemm x=1", "program  x=1", "program g\x01 x=1",
                         "program gemm x=\x7f"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        assert_int_not_equal(trn_plan_spec_parse(bad[i], &back, err, sizeof(err)), 0);
    /* A program's key is put together without snprintf: into any buffer,
     * down to none, it gives what snprintf gives (the text truncated with
     * its NUL, and the full length). */
    const int full = (int)strlen(key);
    for (size_t len = 0; len <= (size_t)full + 2; len++) {
        char got[TRN_PLAN_KEY_LEN], want[TRN_PLAN_KEY_LEN];
        memset(got, '#', sizeof(got));
        memset(want, '#', sizeof(want));
        assert_int_equal(
            trn_plan_spec_format(&s, got, len),
            snprintf(want, len, "program %s %s", s.u.program.kernel, s.u.program.params));
        assert_int_equal(trn_plan_spec_format(&s, got, len), full);
        assert_memory_equal(got, want, sizeof(got));
    }
}

/* Rule (scheduler/run_times.h): a program's estimate is the lower median
 * of its last TRN_RUN_TIMES_KEPT runs: 0 before any; one slow run among
 * them (a load onto a core) does not move it; older runs drop out. The
 * listing says it ("runs in 2 ms") after the cores the program ran on. */
static void test_program_run_times(void **state) {
    (void)state;
    trn_run_times rt = {0};
    assert_int_equal(trn_run_times_estimate(&rt), 0);
    trn_run_times_note(&rt, 0); /* counts as 1 ns: a note is never "none" */
    assert_int_equal(trn_run_times_estimate(&rt), 1);
    const uint64_t runs[] = {900, 40000000, 1000, 1100, 1000}; /* one load among runs */
    for (size_t i = 0; i < 5; i++)
        trn_run_times_note(&rt, runs[i]); /* the 0 above drops out */
    assert_int_equal(trn_run_times_estimate(&rt), 1000);
    trn_run_times_note(&rt, 3000); /* drops 900: 1000 1000 1100 3000 4e7 */
    assert_int_equal(trn_run_times_estimate(&rt), 1100);
    trn_run_times one = {0}, two = {0};
    trn_run_times_note(&one, 7);
    trn_run_times_note(&two, 7);
    trn_run_times_note(&two, 5); /* lower median of two: the smaller */
    assert_int_equal(trn_run_times_estimate(&one), 7);
    assert_int_equal(trn_run_times_estimate(&two), 5);

    trn_plan_cache *pc = cache(1 << 20, NULL);
    trn_plan_entry *p;
    int hit;
    char err[200];
    trn_plan_spec a = program_spec("m=3");
    assert_int_equal(trn_plan_cache_acquire(pc, &a, 0, &p, &hit, err, sizeof(err)), TRN_PLAN_OK);
    assert_int_equal(trn_plan_entry_wait(p, 0, err, sizeof(err)), 0);
    assert_int_equal(trn_plan_entry_run_ns(p), 0);
    trn_plan_entry_ran_on(p, 1);
    trn_plan_entry_note_run(p, 2000000);
    assert_int_equal(trn_plan_entry_run_ns(p), 2000000);
    trn_plan_info *v;
    assert_int_equal(trn_plan_cache_list(pc, &v), 1);
    assert_non_null(strstr(v[0].state, "; ran on cores 1; runs in 2 ms"));
    free(v);
    trn_plan_entry_release(p);
    trn_plan_cache_stop(pc);
    trn_plan_cache_destroy(pc);
}

/* The `built` hook: counts its calls, and those not on the thread that
 * prepared the last FFT plan. */
static void on_built(void *ctx) {
    (void)ctx;
    pthread_mutex_lock(&fake.lock);
    fake.hook_calls++;
    fake.hook_elsewhere += !pthread_equal(pthread_self(), fake.fft_thread);
    pthread_mutex_unlock(&fake.lock);
}

/* Two programs compile at the same time on two compile threads, while an
 * FFT plan is still prepared by the planner thread meanwhile. The `built`
 * hook runs on the planner thread only (plan_cache.h), after the FFT plan:
 * regression, it ran on the compile threads too, where the daemon's export
 * of FFTW's wisdom raced the planner's FFTW calls (a crash). */
static void test_programs_compile_concurrently(void **state) {
    (void)state;
    trn_backend be = fake_be;
    be.plan_concurrent = fake_concurrent;
    const trn_plan_cache_config cfg = {.max_bytes = 1 << 20,
                                       .effort = TRN_PLAN_ESTIMATE,
                                       .warn = on_warn,
                                       .built = on_built,
                                       .compile_threads = 2};
    trn_plan_cache *pc = trn_plan_cache_create(&be, &cfg);
    assert_non_null(pc);
    assert_int_equal(trn_plan_cache_start(pc), 0);
    pthread_mutex_lock(&fake.lock);
    fake.gate = 1;
    pthread_mutex_unlock(&fake.lock);
    trn_plan_entry *p1, *p2, *f;
    int hit;
    char err[200];
    trn_plan_spec a = program_spec("m=1"), b = program_spec("m=2"),
                  c = fft_spec(TRN_FFT_C2C, 64, 0);
    assert_int_equal(trn_plan_cache_acquire(pc, &a, 0, &p1, &hit, err, sizeof(err)), TRN_PLAN_OK);
    assert_int_equal(trn_plan_cache_acquire(pc, &b, 0, &p2, &hit, err, sizeof(err)), TRN_PLAN_OK);
    pthread_mutex_lock(&fake.lock);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    while (fake.compiling < 2 && pthread_cond_timedwait(&fake.cond, &fake.lock, &until) == 0)
        ;
    const int both = fake.compiling == 2;
    pthread_mutex_unlock(&fake.lock);
    assert_true(both);
    /* The planner thread is free for FFTW. */
    assert_int_equal(trn_plan_cache_acquire(pc, &c, 0, &f, &hit, err, sizeof(err)), TRN_PLAN_OK);
    assert_int_equal(trn_plan_entry_wait(f, 0, err, sizeof(err)), 0);
    pthread_mutex_lock(&fake.lock);
    fake.gate = 0;
    pthread_cond_broadcast(&fake.cond);
    pthread_mutex_unlock(&fake.lock);
    assert_int_equal(trn_plan_entry_wait(p1, 0, err, sizeof(err)), 0);
    assert_int_equal(trn_plan_entry_wait(p2, 0, err, sizeof(err)), 0);
    assert_int_equal(fake.most, 2);
    pthread_mutex_lock(&fake.lock);
    const int calls = fake.hook_calls, elsewhere = fake.hook_elsewhere;
    pthread_mutex_unlock(&fake.lock);
    assert_int_equal(calls, 1);
    assert_int_equal(elsewhere, 0);
    trn_plan_entry_release(p1);
    trn_plan_entry_release(p2);
    trn_plan_entry_release(f);
    trn_plan_cache_stop(pc);
    trn_plan_cache_destroy(pc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_keys, reset),
        cmocka_unit_test_setup(test_program_keys, reset),
        cmocka_unit_test_setup(test_programs_compile_concurrently, reset),
        cmocka_unit_test_setup(test_program_run_times, reset),
        cmocka_unit_test_setup(test_layout, reset),
        cmocka_unit_test_setup(test_sharing, reset),
        cmocka_unit_test_setup(test_failure_remembered, reset),
        cmocka_unit_test_setup(test_nomem_not_remembered, reset),
        cmocka_unit_test_setup(test_waiters_and_stop, reset),
        cmocka_unit_test_setup(test_lru, reset),
        cmocka_unit_test_setup(test_persistence, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
