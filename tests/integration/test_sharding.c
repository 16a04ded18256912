/*
 * test_sharding.c — one big GEMM spread over every core, with bitwise
 * reproducible results.
 *
 * Two real daemons: `--cores 1` (every op runs as one shard) and `--cores 2`
 * (GEMMs above the sharding policy's minimums — 2 x 16 MFLOP and 2 x 128
 * columns, scheduler/sched.h — run as two shards, blocks of C's columns, on
 * two workers). The same S/D/C/Z GEMMs, with transposes, sub-matrix offsets,
 * leading dimensions larger than the row count and beta != 0, run on both:
 *
 *  - the 2-core daemon really shards them: during one big SGEMM two of its
 *    threads each spend about half of the compute time (CPU time from
 *    /proc/PID/task/TID/schedstat; an unsharded op runs on one worker only);
 *  - the 1-core (unsharded) and 2-core (sharded) results are bitwise equal,
 *    C's padding included;
 *  - on the 2-core daemon, two more runs while another client process keeps
 *    both workers busy with sharded GEMMs of its own on two streams give the
 *    same bits again (the split never depends on load);
 *  - the 1-core results agree with an independent reference, a naive product
 *    in long double, within the γ_k bound of test_gemm.c (Higham §3.5:
 *    |C − C_ref| ≤ γ_{k+2} (|α| |op(A)| |op(B)| + |β| |C0|), times 4 for
 *    complex), and C's padding is untouched.
 *
 * gRPC is not fork-safe once initialised, so the loading client is this
 * binary re-executed in a child role (as in test_processes.c).
 */
#define _GNU_SOURCE
#include <complex.h>
#include <dirent.h>
#include <math.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "trnsci/trnblas.h"
#include "typed.h"

static th_daemon one_core, two_cores;

/* xorshift64*, uniform in [-1, 1). */
static long double uniform(uint64_t *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return (long double)((*s * 2685821657736338717ULL) >> 11) * ldexpl(1.0L, -52) - 1.0L;
}

/* ---- the cases ------------------------------------------------------------------ */

/* Every case is above the policy's minimums for two shards (cost >= 32 MFLOP,
 * n >= 256), and most have n not a multiple of the 24-column alignment, so
 * the two shards differ in width. `ref`: also checked against long double. */
typedef struct gcase {
    ty t;
    trnblasOperation_t ta, tb;
    int m, n, k;
    int ref;
} gcase;

#define OP_N TRNBLAS_OP_N
#define OP_T TRNBLAS_OP_T
#define OP_C TRNBLAS_OP_C
static const gcase cases[] = {
    {TY_S, OP_N, OP_N, 300, 400, 250, 0}, /* 60 MFLOP */
    {TY_S, OP_T, OP_N, 257, 301, 333, 1}, /* 52 MFLOP */
    {TY_S, OP_N, OP_T, 200, 515, 190, 0}, /* 39 MFLOP */
    {TY_D, OP_N, OP_T, 260, 290, 270, 1}, /* 41 MFLOP */
    {TY_D, OP_T, OP_T, 199, 350, 311, 0}, /* 43 MFLOP */
    {TY_C, OP_C, OP_N, 150, 270, 160, 0}, /* 52 MFLOP */
    {TY_Z, OP_T, OP_C, 130, 262, 150, 1}, /* 41 MFLOP */
    {TY_Z, OP_N, OP_N, 120, 280, 150, 0}, /* 40 MFLOP */
};
enum { NCASES = sizeof(cases) / sizeof(cases[0]) };

static const lcplx alpha_of = 1.25L - 0.5L * I, beta_of = -0.75L + 0.25L * I;

/* One operand as laid out in its allocation: `off` elements of leading
 * padding, then cols columns of ld elements, then 7 elements of slack. */
typedef struct layout {
    int rows, cols, ld;
    size_t off, total;
} layout;

static layout layout_of(int rows, int cols, int ld_extra, size_t off) {
    layout l = {rows, cols, rows + ld_extra, off, 0};
    l.total = off + (size_t)l.ld * (size_t)cols + 7;
    return l;
}

typedef struct shapes {
    layout a, b, c;
} shapes;

static shapes shapes_of(const gcase *g) {
    shapes s;
    s.a = layout_of(g->ta == OP_N ? g->m : g->k, g->ta == OP_N ? g->k : g->m, 3, 5);
    s.b = layout_of(g->tb == OP_N ? g->k : g->n, g->tb == OP_N ? g->n : g->k, 1, 11);
    s.c = layout_of(g->m, g->n, 2, 3);
    return s;
}

/* The host inputs of case i: the same bits on every call. */
static void case_inputs(int i, void **a, void **b, void **c0) {
    const gcase *g = &cases[i];
    const shapes s = shapes_of(g);
    const ty t = g->t;
    uint64_t seed = 0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1);
    void **bufs[3] = {a, b, c0};
    const layout *ls[3] = {&s.a, &s.b, &s.c};
    for (int x = 0; x < 3; x++) {
        *bufs[x] = malloc(ls[x]->total * esize(t));
        assert_non_null(*bufs[x]);
        for (size_t e = 0; e < ls[x]->total; e++) {
            const long double re = uniform(&seed);
            put(t, *bufs[x], e, is_complex(t) ? re + I * uniform(&seed) : re);
        }
    }
}

static trnblasStatus_t run_gemm(trnblasHandle_t h, const gcase *g, const shapes *s, void *da,
                                void *db, void *dc) {
    const ty t = g->t;
    const size_t es = esize(t);
    const void *a = (char *)da + s->a.off * es, *b = (char *)db + s->b.off * es;
    void *c = (char *)dc + s->c.off * es;
    switch (t) {
    case TY_S: {
        const float al = (float)creall(alpha_of), be = (float)creall(beta_of);
        return trnblasSgemm(h, g->ta, g->tb, g->m, g->n, g->k, &al, a, s->a.ld, b, s->b.ld, &be, c,
                            s->c.ld);
    }
    case TY_D: {
        const double al = (double)creall(alpha_of), be = (double)creall(beta_of);
        return trnblasDgemm(h, g->ta, g->tb, g->m, g->n, g->k, &al, a, s->a.ld, b, s->b.ld, &be, c,
                            s->c.ld);
    }
    case TY_C: {
        const trnComplex al = {(float)creall(alpha_of), (float)cimagl(alpha_of)};
        const trnComplex be = {(float)creall(beta_of), (float)cimagl(beta_of)};
        return trnblasCgemm(h, g->ta, g->tb, g->m, g->n, g->k, &al, a, s->a.ld, b, s->b.ld, &be, c,
                            s->c.ld);
    }
    case TY_Z: {
        const trnDoubleComplex al = {(double)creall(alpha_of), (double)cimagl(alpha_of)};
        const trnDoubleComplex be = {(double)creall(beta_of), (double)cimagl(beta_of)};
        return trnblasZgemm(h, g->ta, g->tb, g->m, g->n, g->k, &al, a, s->a.ld, b, s->b.ld, &be, c,
                            s->c.ld);
    }
    }
    return TRNBLAS_STATUS_INTERNAL_ERROR;
}

/* Runs every case on the daemon at addr, each on its own stream, and returns
 * the whole C allocations (padding included) in out[i] (malloc'd). */
static void run_cases(const char *addr, void *out[NCASES]) {
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    trnblasHandle_t h;
    trnsciStream_t st;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciStreamCreate(&st), trnsciSuccess);
    assert_int_equal(trnblasSetStream(h, st), TRNBLAS_STATUS_SUCCESS);
    for (int i = 0; i < NCASES; i++) {
        const gcase *g = &cases[i];
        const shapes s = shapes_of(g);
        const size_t es = esize(g->t);
        void *a, *b, *c0, *da, *db, *dc;
        case_inputs(i, &a, &b, &c0);
        assert_int_equal(trnsciMalloc(&da, s.a.total * es), trnsciSuccess);
        assert_int_equal(trnsciMalloc(&db, s.b.total * es), trnsciSuccess);
        assert_int_equal(trnsciMalloc(&dc, s.c.total * es), trnsciSuccess);
        assert_int_equal(trnsciMemcpy(da, a, s.a.total * es, trnsciMemcpyHostToDevice),
                         trnsciSuccess);
        assert_int_equal(trnsciMemcpy(db, b, s.b.total * es, trnsciMemcpyHostToDevice),
                         trnsciSuccess);
        assert_int_equal(trnsciMemcpy(dc, c0, s.c.total * es, trnsciMemcpyHostToDevice),
                         trnsciSuccess);
        assert_int_equal(run_gemm(h, g, &s, da, db, dc), TRNBLAS_STATUS_SUCCESS);
        assert_int_equal(trnsciStreamSynchronize(st), trnsciSuccess);
        out[i] = malloc(s.c.total * es);
        assert_non_null(out[i]);
        assert_int_equal(trnsciMemcpy(out[i], dc, s.c.total * es, trnsciMemcpyDeviceToHost),
                         trnsciSuccess);
        assert_int_equal(trnsciFree(da), trnsciSuccess);
        assert_int_equal(trnsciFree(db), trnsciSuccess);
        assert_int_equal(trnsciFree(dc), trnsciSuccess);
        free(a);
        free(b);
        free(c0);
    }
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciStreamDestroy(st), trnsciSuccess);
    trnsciDeviceReset();
}

static void free_results(void *r[NCASES]) {
    for (int i = 0; i < NCASES; i++) {
        free(r[i]);
        r[i] = NULL;
    }
}

/* Bitwise comparison of two runs; names the first differing element. */
static void expect_same_bits(void *want[NCASES], void *got[NCASES], const char *what) {
    int bad = 0;
    for (int i = 0; i < NCASES; i++) {
        const gcase *g = &cases[i];
        const shapes s = shapes_of(g);
        const size_t es = esize(g->t);
        if (memcmp(want[i], got[i], s.c.total * es) == 0)
            continue;
        size_t e = 0;
        while (memcmp((char *)want[i] + e * es, (char *)got[i] + e * es, es) == 0)
            e++;
        const size_t rel = e - s.c.off;
        const lcplx x = get(g->t, want[i], e), y = get(g->t, got[i], e);
        fprintf(stderr,
                "%s: case %d (%sgemm %d%d %dx%dx%d): element %zu (row %zu, column %zu) is "
                "%.21Lg%+.21Lgi, want %.21Lg%+.21Lgi\n",
                what, i, ty_name[g->t], g->ta, g->tb, g->m, g->n, g->k, e, rel % (size_t)s.c.ld,
                rel / (size_t)s.c.ld, creall(y), cimagl(y), creall(x), cimagl(x));
        bad++;
    }
    assert_int_equal(bad, 0);
}

static long double magnitude(ty t, lcplx v) {
    return is_complex(t) ? cabsl(v) : fabsl(creall(v));
}

/* Case i's result against the naive long double product, and C's padding
 * against its input. */
static void expect_reference(int i, const void *result) {
    const gcase *g = &cases[i];
    const shapes s = shapes_of(g);
    const ty t = g->t;
    void *a, *b, *c0;
    case_inputs(i, &a, &b, &c0);
    const lcplx alpha = is_complex(t) ? alpha_of : creall(alpha_of);
    const lcplx beta = is_complex(t) ? beta_of : creall(beta_of);
    const long double u = (t == TY_S || t == TY_C) ? ldexpl(1.0L, -24) : ldexpl(1.0L, -53);
    const long double gamma =
        (g->k + 2) * u / (1.0L - (g->k + 2) * u) * (is_complex(t) ? 4.0L : 1.0L);
    size_t bad = 0;
    for (int j = 0; j < g->n; j++) {
        for (int r = 0; r < g->m; r++) {
            lcplx acc = 0;
            long double mag = 0;
            for (int l = 0; l < g->k; l++) {
                const size_t ai = g->ta == OP_N ? (size_t)r + (size_t)l * (size_t)s.a.ld
                                                : (size_t)l + (size_t)r * (size_t)s.a.ld;
                const size_t bi = g->tb == OP_N ? (size_t)l + (size_t)j * (size_t)s.b.ld
                                                : (size_t)j + (size_t)l * (size_t)s.b.ld;
                lcplx x = get(t, a, s.a.off + ai), y = get(t, b, s.b.off + bi);
                if (g->ta == OP_C)
                    x = conjl(x);
                if (g->tb == OP_C)
                    y = conjl(y);
                acc += x * y;
                mag += magnitude(t, x) * magnitude(t, y);
            }
            const size_t ci = s.c.off + (size_t)r + (size_t)j * (size_t)s.c.ld;
            const lcplx c = get(t, c0, ci), want = alpha * acc + beta * c;
            const long double bound = gamma * (cabsl(alpha) * mag + cabsl(beta) * magnitude(t, c));
            const lcplx got = get(t, result, ci);
            if (cabsl(got - want) > bound && bad++ < 3)
                fprintf(stderr, "case %d (%sgemm): (%d,%d) = %Lg%+Lgi, want %Lg%+Lgi, bound %Lg\n",
                        i, ty_name[t], r, j, creall(got), cimagl(got), creall(want), cimagl(want),
                        bound);
        }
    }
    for (size_t e = 0; e < s.c.total; e++) {
        const size_t rel = e - s.c.off;
        const int inside = e >= s.c.off && rel % (size_t)s.c.ld < (size_t)g->m &&
                           rel / (size_t)s.c.ld < (size_t)g->n;
        if (!inside &&
            memcmp((const char *)result + e * esize(t), (char *)c0 + e * esize(t), esize(t)) != 0 &&
            bad++ < 3)
            fprintf(stderr, "case %d: element %zu outside C was modified\n", i, e);
    }
    free(a);
    free(b);
    free(c0);
    assert_int_equal(bad, 0);
}

/* ---- the daemon's threads ------------------------------------------------------- */

enum { MAX_TASKS = 256 };

typedef struct task_time {
    int tid;
    unsigned long long ns; /* time on a CPU (schedstat) */
} task_time;

static int sample_tasks(pid_t pid, task_time *out) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while (n < MAX_TASKS && (e = readdir(d)) != NULL) {
        const int tid = atoi(e->d_name);
        if (tid <= 0)
            continue;
        char p[96], buf[128];
        snprintf(p, sizeof(p), "/proc/%d/task/%d/schedstat", (int)pid, tid);
        FILE *f = fopen(p, "r");
        if (!f)
            continue;
        if (fgets(buf, sizeof(buf), f)) {
            out[n].tid = tid;
            out[n].ns = strtoull(buf, NULL, 10);
            n++;
        }
        fclose(f);
    }
    closedir(d);
    return n;
}

/* CPU time each daemon thread gained between two samples: the largest two. */
static void top_two(const task_time *before, int nb, const task_time *after, int na,
                    unsigned long long *first, unsigned long long *second) {
    *first = *second = 0;
    for (int i = 0; i < na; i++) {
        unsigned long long prev = 0;
        for (int j = 0; j < nb; j++)
            if (before[j].tid == after[i].tid)
                prev = before[j].ns;
        const unsigned long long d = after[i].ns - prev;
        if (d > *first) {
            *second = *first;
            *first = d;
        } else if (d > *second) {
            *second = d;
        }
    }
}

/* ---- tests ---------------------------------------------------------------------- */

static void *baseline[NCASES]; /* the 1-core daemon's results */

static void test_daemons_report_their_cores(void **state) {
    (void)state;
    trnsciDaemonStatus st;
    assert_int_equal(trnsciDaemonGetStatus(one_core.unix_addr, &st), trnsciSuccess);
    assert_int_equal(st.coreCount, 1);
    assert_int_equal(trnsciDaemonGetStatus(two_cores.unix_addr, &st), trnsciSuccess);
    assert_int_equal(st.coreCount, 2);
}

/* The 2-core daemon shards a big SGEMM (n = 1536, 7 GFLOP, tens of ms per
 * shard): during that one op, the second-busiest daemon thread spends at
 * least half as much CPU time as the busiest, i.e. each worker computed one
 * half of the columns. Unsharded, one worker computes it all and every other
 * thread only handles two requests (a few percent). A worker kept off its CPU
 * for a whole shard's time (other load on the machine) lets the other worker
 * take both shards, so this is tried up to 5 times and must hold once. */
static void test_two_core_daemon_shards(void **state) {
    (void)state;
    enum { N = 1536 };
    assert_int_equal(trnsciInit(two_cores.unix_addr), trnsciSuccess);
    float *da, *dc;
    const size_t bytes = sizeof(float) * N * N;
    assert_int_equal(trnsciMalloc((void **)&da, bytes), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&dc, bytes), trnsciSuccess);
    assert_int_equal(trnsciMemset(da, 0x3c, bytes), trnsciSuccess); /* 0x3c3c3c3c: 0.0115 */
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    const float one = 1, zero = 0;
    assert_int_equal(
        trnblasSgemm(h, OP_N, OP_N, N, N, N, &one, da, N, da, N, &zero, dc, N), /* warm-up */
        TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    static task_time before[MAX_TASKS], after[MAX_TASKS];
    int sharded = 0;
    double best = 0;
    for (int attempt = 0; attempt < 5 && !sharded; attempt++) {
        const int nb = sample_tasks(two_cores.pid, before);
        assert_int_equal(trnblasSgemm(h, OP_N, OP_N, N, N, N, &one, da, N, da, N, &zero, dc, N),
                         TRNBLAS_STATUS_SUCCESS);
        assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
        const int na = sample_tasks(two_cores.pid, after);
        unsigned long long first, second;
        top_two(before, nb, after, na, &first, &second);
        const double ratio = first ? (double)second / (double)first : 0.0;
        if (ratio > best)
            best = ratio;
        sharded = ratio >= 0.5;
    }
    if (!sharded)
        fprintf(stderr, "second-busiest/busiest daemon thread CPU time: at best %.3f\n", best);
    assert_true(sharded);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciFree(da), trnsciSuccess);
    assert_int_equal(trnsciFree(dc), trnsciSuccess);
    trnsciDeviceReset();
}

/* Unsharded (1 core) and sharded (2 cores): the same bits; and the 1-core
 * results are right (reference cases) with C's padding untouched. */
static void test_one_core_vs_two_cores(void **state) {
    (void)state;
    void *two[NCASES];
    run_cases(one_core.unix_addr, baseline);
    run_cases(two_cores.unix_addr, two);
    expect_same_bits(baseline, two, "2 cores vs 1 core");
    free_results(two);
    for (int i = 0; i < NCASES; i++)
        if (cases[i].ref)
            expect_reference(i, baseline[i]);
}

/* ---- the loading client (a child process) --------------------------------------- */

/* Sharded DGEMMs (256 x 480 x 256, 63 MFLOP) on two streams, small integers,
 * so every product is exact and checked; runs until the parent closes (or
 * writes to) the control socket. Writes one byte once its first round is
 * done. Returns 0 when every result was right. */
static int loader(const char *addr, int ctl) {
    enum { M = 256, N = 480, K = 256, STREAMS = 2 };
    if (trnsciInit(addr) != trnsciSuccess)
        return 10;
    trnblasHandle_t h[STREAMS];
    trnsciStream_t st[STREAMS];
    double *da, *db, *dc[STREAMS];
    double *a = malloc(sizeof(double) * M * K), *b = malloc(sizeof(double) * K * N),
           *ref = malloc(sizeof(double) * M * N), *c = malloc(sizeof(double) * M * N);
    if (!a || !b || !ref || !c)
        return 11;
    for (int i = 0; i < M * K; i++)
        a[i] = (double)(i % 7 - 3);
    for (int i = 0; i < K * N; i++)
        b[i] = (double)((i * 3) % 5 - 2);
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++) {
            double acc = 0;
            for (int l = 0; l < K; l++)
                acc += a[i + l * M] * b[l + j * K];
            ref[i + j * M] = acc;
        }
    if (trnsciMalloc((void **)&da, sizeof(double) * M * K) ||
        trnsciMalloc((void **)&db, sizeof(double) * K * N) ||
        trnsciMemcpy(da, a, sizeof(double) * M * K, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(db, b, sizeof(double) * K * N, trnsciMemcpyHostToDevice))
        return 12;
    for (int s = 0; s < STREAMS; s++)
        if (trnblasCreate(&h[s]) || trnsciStreamCreate(&st[s]) || trnblasSetStream(h[s], st[s]) ||
            trnsciMalloc((void **)&dc[s], sizeof(double) * M * N))
            return 13;
    const double one = 1, zero = 0;
    int rc = 0;
    for (long round = 0; rc == 0; round++) {
        for (int rep = 0; rep < 4; rep++)
            for (int s = 0; s < STREAMS; s++)
                if (trnblasDgemm(h[s], OP_N, OP_N, M, N, K, &one, da, M, db, K, &zero, dc[s], M))
                    rc = 14;
        for (int s = 0; s < STREAMS && rc == 0; s++) {
            if (trnsciStreamSynchronize(st[s]) ||
                trnsciMemcpy(c, dc[s], sizeof(double) * M * N, trnsciMemcpyDeviceToHost))
                rc = 15;
            else if (memcmp(c, ref, sizeof(double) * M * N) != 0)
                rc = 16;
        }
        if (round == 0 && write(ctl, "r", 1) != 1)
            rc = 17;
        struct pollfd p = {ctl, POLLIN, 0};
        if (poll(&p, 1, 0) != 0)
            break; /* the parent wrote or closed: stop */
    }
    for (int s = 0; s < STREAMS; s++) {
        trnsciFree(dc[s]);
        trnblasDestroy(h[s]);
        trnsciStreamDestroy(st[s]);
    }
    trnsciFree(da);
    trnsciFree(db);
    trnsciDeviceReset();
    free(a);
    free(b);
    free(ref);
    free(c);
    return rc;
}

/* Two runs on the 2-core daemon while the loader keeps both of its workers
 * busy: the same bits as the 1-core daemon's. */
static void test_sharded_under_load(void **state) {
    (void)state;
    for (int i = 0; i < NCASES; i++)
        assert_non_null(baseline[i]); /* test_one_core_vs_two_cores ran */
    int sv[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    const pid_t pid = th_spawn_role("loader", two_cores.unix_addr, sv[1]);
    assert_true(pid > 0);
    close(sv[1]);
    char ready = 0;
    assert_int_equal(read(sv[0], &ready, 1), 1); /* its first round is done */

    void *run1[NCASES], *run2[NCASES];
    run_cases(two_cores.unix_addr, run1);
    run_cases(two_cores.unix_addr, run2);
    /* The loader was still at work all along (it stops only when told). */
    const int loader_alive = waitpid(pid, NULL, WNOHANG) == 0;

    assert_int_equal(write(sv[0], "q", 1), 1);
    close(sv[0]);
    assert_int_equal(th_wait_child(pid), 0);
    assert_true(loader_alive);
    expect_same_bits(baseline, run1, "2 cores under load, run 1 vs 1 core");
    expect_same_bits(baseline, run2, "2 cores under load, run 2 vs 1 core");
    free_results(run1);
    free_results(run2);
    assert_int_equal(th_wait_daemon_idle(two_cores.unix_addr, 5000), 0);
    assert_int_equal(th_wait_daemon_idle(one_core.unix_addr, 5000), 0);
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "--role") == 0 && strcmp(argv[2], "loader") == 0)
        return loader(argv[3], atoi(argv[4]));
    const char *const args1[] = {"--cores", "1", NULL}, *const args2[] = {"--cores", "2", NULL};
    if (th_daemon_start(&one_core, args1) != 0) {
        fprintf(stderr, "could not start trnscid --cores 1\n");
        return 1;
    }
    if (th_daemon_start(&two_cores, args2) != 0) {
        fprintf(stderr, "could not start trnscid --cores 2 (this test needs 2 CPUs)\n");
        th_daemon_stop(&one_core);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_daemons_report_their_cores),
        cmocka_unit_test(test_two_core_daemon_shards),
        cmocka_unit_test(test_one_core_vs_two_cores),
        cmocka_unit_test(test_sharded_under_load),
    };
    int failed = cmocka_run_group_tests_name("sharding", tests, NULL, NULL);
    free_results(baseline);
    failed += th_daemon_stop_checked(&one_core, "trnscid --cores 1");
    failed += th_daemon_stop_checked(&two_cores, "trnscid --cores 2");
    return failed ? 1 : 0;
}
