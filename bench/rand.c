/*
 * rand.c — trnrand float generation through trnscid versus a
 * single-threaded in-process reference loop, in one run, on one core and on
 * every core.
 *
 * Three sides, each producing --mib MiB of float output per timed
 * repetition (default 64 MiB = 16 Mi floats), for four distributions:
 * trnrandGenerateUniform (UNIFORM_F32) and trnrandGenerateNormal
 * (NORMAL_F32, mean 0, stddev 1) of the Philox generator,
 * trnrandGenerateUniform of a Sobol32 generator of one dimension
 * (sobol32_uniform_f32: dimension 0, the van der Corput sequence in
 * Gray-code order) and trnrandGenerateExponential (EXPONENTIAL_F32,
 * lambda 1) of the Philox generator:
 *   inprocess      a loop in this program written against
 *                  <Random123/philox.h> as docs/numerics.md ("trnrand
 *                  streams") defines the stream and the conversions: one
 *                  philox4x32_R(10, ...) per four words, u32f, Box-Muller in
 *                  double, -log(u)/lambda in double; Sobol32 dimension 0 by
 *                  its Gray-code update x ^= 2^31 >> ctz(k) (its direction
 *                  numbers are 2^(31-b), written here, not read from the
 *                  daemon's table). One thread, pinned to the CPU the one-core
 *                  daemon's worker runs on (--inproc-cpu). It does not call
 *                  the daemon's kernel.
 *   trnsci_1core   a client process of a daemon with one core (--addr-1):
 *                  the output buffer is allocated once (trnsciMalloc, data
 *                  resident); one repetition = one generation call into it
 *                  + trnsciStreamSynchronize, timed in the client.
 *   trnsci_allcores the same against a daemon with every core (--addr-all),
 *                  which shards each op over its cores.
 * The coordinator (this process without --role) runs the in-process side
 * itself and drives two client processes (fork + exec of this binary with
 * --role client; the coordinator never calls libtrnsci, so each client has
 * its own session and its own resident buffer). After a warm-up of each side,
 * the timed repetitions are interleaved: round r runs one repetition of each
 * side, the order rotating with r, so a slow period of the machine hits all
 * three alike. Each generator continues its own stream from one repetition to
 * the next (the offset advances, as consecutive cuRAND calls do).
 *
 * Reported per distribution: median/min/max ms and GB/s (10^9 bytes of
 * output / median) of each side; ratio_1core = trnsci_1core GB/s / inprocess
 * GB/s (1.0 = the daemon adds nothing); scaling = trnsci_allcores GB/s /
 * (cores x inprocess GB/s), cores = the all-core daemon's core count, against
 * the target 0.9; the busy fraction of the daemons' workers during their
 * repetitions (from /proc, with --pid-1 / --pid-all).
 *
 * Correctness. The in-process loop is first checked against the known
 * answers of docs/numerics.md (seed 0, offset 0). Each client then checks its
 * daemon's output bitwise against the in-process loop run in the client
 * (same seed, same offset): 16 windows of 4096 elements spread over the last
 * timed repetition's output (first and last element included), and one extra
 * call of 65536 elements at offset 2^34 + 3 (counter word 1 in use, an odd
 * offset so normal pairs straddle Philox blocks; Sobol32: point 2^31 + 3).
 * Any difference: the JSON says so and the exit status is 3.
 *
 * usage: bench_rand --addr-1 ADDRESS --addr-all ADDRESS [--pid-1 PID]
 *                   [--pid-all PID] [--inproc-cpu CPU] [--mib M]
 *                   [--reps-uniform N] [--reps-normal N] [--reps-sobol N]
 *                   [--reps-exponential N] [--warmup N] [--seed S]
 *   --addr-1 / --addr-all  the one-core and the all-core daemon
 *   --pid-1 / --pid-all    their pids, for /proc sampling of their threads
 *   --inproc-cpu  the CPU the in-process loop pins itself to (default: the
 *                 CPU the one-core daemon's busiest thread last ran on during
 *                 the warm-up, with --pid-1; else no pinning)
 *   --mib M       MiB of output per repetition (default 64)
 *   --reps-uniform N / --reps-normal N / --reps-sobol N / --reps-exponential N
 *                 timed repetitions per side (default 31 / 15 / 31 / 15)
 *   --warmup N    untimed repetitions per side and distribution (default 1)
 *   --seed S      the generators' seed (default 1234)
 * bench/run_rand.sh starts both daemons and sets up the placement (see
 * docs/benchmarks.md).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <trnsci/trnrand.h>
#include <trnsci/trnsci.h>
#include <unistd.h>

#include <Random123/philox.h>

#include "bench_util.h"

#define MAX_REPS 200
#define NKIND 4
#define NSIDE 3
#define CHECK_WINDOWS 16
#define CHECK_WINDOW 4096
#define CHECK_EXTRA 65536
#define CHECK_EXTRA_OFFSET ((1ULL << 34) + 3u)
#define CHECK_EXTRA_OFFSET_SOBOL ((1ULL << 31) + 3u)
#define SETUP_TIMEOUT_MS 60000

enum { KIND_UNIFORM, KIND_NORMAL, KIND_SOBOL, KIND_EXP };
enum { SIDE_INPROC, SIDE_TRN1, SIDE_TRNALL };
static const char *const kind_name[NKIND] = {"uniform_f32", "normal_f32", "sobol32_uniform_f32",
                                             "exponential_f32"};
static const char *const kind_gen[NKIND] = {"philox4x32_10", "philox4x32_10", "sobol32",
                                            "philox4x32_10"};
static const char kind_code[NKIND] = {'U', 'N', 'S', 'E'};
static const char *const side_name[NSIDE] = {"inprocess", "trnsci_1core", "trnsci_allcores"};

/* Box-Muller parameters of the normal side (docs/numerics.md: mean and
 * stddev are taken as doubles; floats 0 and 1 are exact). */
#define NORMAL_MEAN 0.0f
#define NORMAL_STDDEV 1.0f
/* The exponential side's rate. */
#define EXP_LAMBDA 1.0

/* ---- the in-process loop (docs/numerics.md, "trnrand streams") ------------------- */

/* 2*pi rounded to double, as docs/numerics.md writes it. */
#define TWO_PI 6.283185307179586

static philox4x32_key_t key_of(uint64_t seed) {
    philox4x32_key_t k = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
    return k;
}

/* The four words 4b .. 4b + 3 of the stream. Always inlined: as an
 * out-of-line call (GCC's choice once it has three callers) it halves the
 * loop's speed. */
static inline __attribute__((always_inline)) philox4x32_ctr_t block_of(philox4x32_key_t key,
                                                                       uint64_t b) {
    philox4x32_ctr_t c = {{(uint32_t)b, (uint32_t)(b >> 32), 0, 0}};
    return philox4x32_R(10, c, key);
}

/* Word j of the stream, one Philox call per block, the last block kept (for
 * offsets that are not a multiple of 4). */
typedef struct word_cursor {
    philox4x32_key_t key;
    uint64_t block;
    int valid;
    philox4x32_ctr_t r;
} word_cursor;

static uint32_t word_at(word_cursor *c, uint64_t j) {
    if (!c->valid || c->block != j >> 2) {
        c->block = j >> 2;
        c->r = block_of(c->key, c->block);
        c->valid = 1;
    }
    return c->r.v[j & 3u];
}

/* u32f: (0, 1] in float arithmetic. */
static inline float u32f(uint32_t x) {
    return (float)x * 0x1p-32f + 0x1p-33f;
}

/* Elements 0 .. n-1 of UNIFORM_F32 at offset: out[i] = u32f(word(offset + i)). */
static void inproc_uniform(uint64_t seed, uint64_t offset, float *out, size_t n) {
    const philox4x32_key_t key = key_of(seed);
    size_t i = 0;
    uint64_t j = offset;
    word_cursor c = {.key = key};
    for (; i < n && (j & 3u); i++, j++)
        out[i] = u32f(word_at(&c, j));
    /* Whole blocks: one Philox call, four floats. */
    const size_t nb = (n - i) / 4;
    const uint64_t b0 = j >> 2;
    float *o = out + i;
    for (size_t b = 0; b < nb; b++) {
        const philox4x32_ctr_t r = block_of(key, b0 + b);
        o[4 * b] = u32f(r.v[0]);
        o[4 * b + 1] = u32f(r.v[1]);
        o[4 * b + 2] = u32f(r.v[2]);
        o[4 * b + 3] = u32f(r.v[3]);
    }
    i += 4 * nb;
    j += 4 * nb;
    for (; i < n; i++, j++)
        out[i] = u32f(word_at(&c, j));
}

/* One Box-Muller pair from its two words, in double, rounded once to float. */
static inline void box_muller(uint32_t a, uint32_t b, double mean, double stddev, float *o) {
    const double u1 = (double)u32f(a), u2 = (double)u32f(b);
    const double r = sqrt(-2.0 * log(u1));
    const double t = TWO_PI * u2;
    o[0] = (float)(mean + stddev * (r * cos(t)));
    o[1] = (float)(mean + stddev * (r * sin(t)));
}

/* Elements 0 .. n-1 (n even) of NORMAL_F32 at offset: pair m from the words
 * offset + 2m and offset + 2m + 1. */
static void inproc_normal(uint64_t seed, uint64_t offset, float *out, size_t n, double mean,
                          double stddev) {
    const philox4x32_key_t key = key_of(seed);
    size_t i = 0;
    uint64_t j = offset;
    if ((offset & 3u) == 0) {
        /* Two pairs per Philox block. */
        const size_t nb = n / 4;
        for (size_t b = 0; b < nb; b++) {
            const philox4x32_ctr_t r = block_of(key, (offset >> 2) + b);
            box_muller(r.v[0], r.v[1], mean, stddev, out + 4 * b);
            box_muller(r.v[2], r.v[3], mean, stddev, out + 4 * b + 2);
        }
        i = 4 * nb;
        j = offset + 4 * nb;
    }
    word_cursor c = {.key = key};
    for (; i + 1 < n; i += 2, j += 2) {
        const uint32_t a = word_at(&c, j), b = word_at(&c, j + 1);
        box_muller(a, b, mean, stddev, out + i);
    }
}

/* Elements 0 .. n-1 of EXPONENTIAL_F32 at offset: (0 - log(u32f(word(offset
 * + i)))) / lambda in double, rounded to float. */
static void inproc_exponential(uint64_t seed, uint64_t offset, float *out, size_t n,
                               double lambda) {
    const philox4x32_key_t key = key_of(seed);
    size_t i = 0;
    uint64_t j = offset;
    word_cursor c = {.key = key};
    for (; i < n && (j & 3u); i++, j++)
        out[i] = (float)((0.0 - log((double)u32f(word_at(&c, j)))) / lambda);
    const size_t nb = (n - i) / 4;
    const uint64_t b0 = j >> 2;
    float *o = out + i;
    for (size_t b = 0; b < nb; b++) {
        const philox4x32_ctr_t r = block_of(key, b0 + b);
        for (int e = 0; e < 4; e++)
            o[4 * b + e] = (float)((0.0 - log((double)u32f(r.v[e]))) / lambda);
    }
    i += 4 * nb;
    j += 4 * nb;
    for (; i < n; i++, j++)
        out[i] = (float)((0.0 - log((double)u32f(word_at(&c, j)))) / lambda);
}

/* Points offset .. offset + n - 1 of Sobol32 dimension 0 as UNIFORM_F32:
 * P(k) = the bit reversal of the Gray code k ^ (k >> 1) (direction numbers
 * 2^(31-b)), then P(k + 1) = P(k) ^ (2^31 >> ctz(k + 1)). */
static void inproc_sobol(uint64_t offset, float *out, size_t n) {
    if (n == 0)
        return;
    uint32_t g = (uint32_t)(offset ^ (offset >> 1)), x = 0;
    for (int b = 0; b < 32; b++)
        if ((g >> b) & 1u)
            x |= 0x80000000u >> b;
    out[0] = u32f(x);
    uint64_t k = offset;
    for (size_t i = 1; i < n; i++) {
        k++;
        x ^= 0x80000000u >> __builtin_ctzll(k);
        out[i] = u32f(x);
    }
}

static void inproc_gen(int kind, uint64_t seed, uint64_t offset, float *out, size_t n) {
    switch (kind) {
    case KIND_UNIFORM: inproc_uniform(seed, offset, out, n); break;
    case KIND_NORMAL: inproc_normal(seed, offset, out, n, NORMAL_MEAN, NORMAL_STDDEV); break;
    case KIND_SOBOL: inproc_sobol(offset, out, n); break;
    default: inproc_exponential(seed, offset, out, n, EXP_LAMBDA); break;
    }
}

/* The known answers of docs/numerics.md (seed 0, offset 0): uniforms exact;
 * normals (mean 0.5, stddev 2) to their float rounding (relative 1e-6 of the
 * exact values). Returns 1 if the loop reproduces them. */
static int inproc_known_answers(void) {
    static const float uni[4] = {0x1.989fa4p-2f, 0x1.c2d38cp-1f, 0x1.78af58p-1f, 0x1.3601b8p-1f};
    static const double nrm[4] = {2.48227564, -1.34932481, -0.73521791, -0.46413728};
    float u[4], z[4];
    inproc_uniform(0, 0, u, 4);
    inproc_normal(0, 0, z, 4, 0.5, 2.0);
    int ok = memcmp(u, uni, sizeof(u)) == 0;
    for (int i = 0; i < 4; i++)
        ok &= fabs((double)z[i] - nrm[i]) <= 1e-6 * fabs(nrm[i]);
    /* The generic path (an odd offset) agrees with the block path. */
    float a[8], b[8];
    inproc_uniform(7, 1, a, 8);
    inproc_uniform(7, 0, b, 8);
    ok &= memcmp(a, b + 1, 7 * sizeof(float)) == 0;
    inproc_normal(7, 2, a, 6, 0.0, 1.0);
    inproc_normal(7, 0, b, 8, 0.0, 1.0);
    ok &= memcmp(a, b + 2, 6 * sizeof(float)) == 0;
    inproc_exponential(7, 3, a, 5, 2.0);
    inproc_exponential(7, 0, b, 8, 2.0);
    ok &= memcmp(a, b + 3, 5 * sizeof(float)) == 0;
    /* The first Sobol32 points of dimension 0 (numerics.md, Gray-code order:
     * 0, 1/2, 3/4, 1/4, 3/8, 7/8, 5/8, 1/8), and a start at an offset. */
    static const uint32_t vdc[8] = {0x00000000u, 0x80000000u, 0xc0000000u, 0x40000000u,
                                    0x60000000u, 0xe0000000u, 0xa0000000u, 0x20000000u};
    inproc_sobol(0, b, 8);
    for (int i = 0; i < 8; i++)
        ok &= b[i] == u32f(vdc[i]);
    inproc_sobol(5, a, 3);
    ok &= memcmp(a, b + 5, 3 * sizeof(float)) == 0;
    return ok;
}

/* ---- client role: one session of one daemon ------------------------------------- */

typedef struct client_args {
    const char *addr, *label;
    int ctl_fd, rep_fd;
    size_t n;
    uint64_t seed;
} client_args;

static void client_die(const client_args *a, const char *what) {
    fprintf(stderr, "bench_rand[%s]: %s failed: %s\n", a->label, what, trnsciGetLastErrorMessage());
    exit(1);
}

/* g: the Philox generator; q: the Sobol32 one. */
static void client_gen(const client_args *a, trnrandGenerator_t g, trnrandGenerator_t q, int kind,
                       float *d, size_t n) {
    trnrandStatus_t s;
    switch (kind) {
    case KIND_UNIFORM: s = trnrandGenerateUniform(g, d, n); break;
    case KIND_NORMAL: s = trnrandGenerateNormal(g, d, n, NORMAL_MEAN, NORMAL_STDDEV); break;
    case KIND_SOBOL: s = trnrandGenerateUniform(q, d, n); break;
    default: s = trnrandGenerateExponential(g, d, n, EXP_LAMBDA); break;
    }
    if (s != TRNRAND_STATUS_SUCCESS)
        client_die(a, kind_name[kind]);
    if (trnsciStreamSynchronize(NULL) != trnsciSuccess)
        client_die(a, "trnsciStreamSynchronize");
}

/* Elements [e, e + cnt) of the device output of a call at offset, against
 * the in-process loop; adds the differing elements to *bad (and the first to
 * *first_bad). */
static void client_compare(const client_args *a, int kind, const float *d, uint64_t offset,
                           size_t e, size_t cnt, float *got, float *ref, size_t *bad,
                           long long *first_bad) {
    if (trnsciMemcpy(got, d + e, cnt * sizeof(float), trnsciMemcpyDeviceToHost) != trnsciSuccess)
        client_die(a, "trnsciMemcpy (download)");
    inproc_gen(kind, a->seed, offset + e, ref, cnt);
    for (size_t i = 0; i < cnt; i++)
        if (memcmp(&got[i], &ref[i], sizeof(float)) != 0) {
            if (*first_bad < 0)
                *first_bad = (long long)(e + i);
            ++*bad;
        }
}

static int client_main(const client_args *a) {
    char line[256];
    if (trnsciInit(a->addr) != trnsciSuccess)
        client_die(a, "trnsciInit");
    trnsciDaemonStatus st;
    if (trnsciDaemonGetStatus(a->addr, &st) != trnsciSuccess)
        client_die(a, "trnsciDaemonGetStatus");
    float *d = NULL;
    if (trnsciMalloc((void **)&d, a->n * sizeof(float)) != trnsciSuccess)
        client_die(a, "trnsciMalloc");
    trnrandGenerator_t g, q;
    if (trnrandCreateGenerator(&g, TRNRAND_RNG_PSEUDO_PHILOX4_32_10) != TRNRAND_STATUS_SUCCESS ||
        trnrandSetPseudoRandomGeneratorSeed(g, a->seed) != TRNRAND_STATUS_SUCCESS)
        client_die(a, "trnrandCreateGenerator / seed");
    if (trnrandCreateGenerator(&q, TRNRAND_RNG_QUASI_SOBOL32) != TRNRAND_STATUS_SUCCESS)
        client_die(a, "trnrandCreateGenerator (Sobol32)");
    snprintf(line, sizeof(line), "READY %u %s %s\n", st.coreCount, st.daemonVersion, st.backend);
    if (bench_write_str(a->rep_fd, line))
        client_die(a, "write READY");

    /* offset: the Philox generator's (uniform, normal and exponential
     * continue one stream); qoffset: the Sobol32 generator's (points). */
    uint64_t offset = 0, qoffset = 0, last_offset[NKIND] = {0};
    float *got = malloc(CHECK_EXTRA * sizeof(float)), *ref = malloc(CHECK_EXTRA * sizeof(float));
    if (!got || !ref)
        client_die(a, "malloc");
    for (;;) {
        if (bench_read_line(a->ctl_fd, line, sizeof(line), -1) < 0)
            client_die(a, "read command");
        if (!strcmp(line, "QUIT"))
            break;
        int kind = KIND_UNIFORM;
        for (int k = 0; k < NKIND; k++)
            if (line[1] == kind_code[k])
                kind = k;
        const int sobol = kind == KIND_SOBOL;
        trnrandGenerator_t gk = sobol ? q : g;
        uint64_t *off = sobol ? &qoffset : &offset;
        if (line[0] == 'G') {
            /* G<kind>: one repetition, timed here. */
            const int64_t t0 = bench_now_ns();
            client_gen(a, g, q, kind, d, a->n);
            const int64_t t1 = bench_now_ns();
            last_offset[kind] = *off;
            *off += a->n; /* one word (Sobol: one point) per float */
            snprintf(line, sizeof(line), "T %.6f %d\n", (double)(t1 - t0) * 1e-6, sched_getcpu());
        } else if (line[0] == 'C') {
            /* C<kind>: the last repetition of this kind must still be in d
             * (the coordinator checks each kind right after its reps). */
            size_t bad = 0, checked = 0;
            long long first_bad = -1;
            for (int w = 0; w < CHECK_WINDOWS; w++) {
                size_t e = (a->n - CHECK_WINDOW) / (CHECK_WINDOWS - 1) * (size_t)w;
                if (w == CHECK_WINDOWS - 1)
                    e = a->n - CHECK_WINDOW;
                e &= ~(size_t)1; /* pairs start at even elements */
                client_compare(a, kind, d, last_offset[kind], e, CHECK_WINDOW, got, ref, &bad,
                               &first_bad);
                checked += CHECK_WINDOW;
            }
            /* One more call at an odd offset past 2^34 (then the stream
             * continues where it was). */
            const uint64_t extra_off = sobol ? CHECK_EXTRA_OFFSET_SOBOL : CHECK_EXTRA_OFFSET;
            if (trnrandSetGeneratorOffset(gk, extra_off) != TRNRAND_STATUS_SUCCESS)
                client_die(a, "trnrandSetGeneratorOffset");
            client_gen(a, g, q, kind, d, CHECK_EXTRA);
            size_t bad2 = 0;
            long long first_bad2 = -1;
            client_compare(a, kind, d, extra_off, 0, CHECK_EXTRA, got, ref, &bad2, &first_bad2);
            if (trnrandSetGeneratorOffset(gk, *off) != TRNRAND_STATUS_SUCCESS)
                client_die(a, "trnrandSetGeneratorOffset");
            snprintf(line, sizeof(line), "C %zu %zu %lld %zu %zu %lld\n", checked, bad, first_bad,
                     (size_t)CHECK_EXTRA, bad2, first_bad2);
        } else {
            client_die(a, "parse command");
        }
        if (bench_write_str(a->rep_fd, line))
            client_die(a, "write report");
    }
    trnrandDestroyGenerator(g);
    trnrandDestroyGenerator(q);
    trnsciFree(d);
    free(got);
    free(ref);
    return 0;
}

/* ---- coordinator ------------------------------------------------------------------ */

typedef struct client {
    const char *label;
    pid_t pid;
    int ctl, rep;
    unsigned cores;
    char version[64], backend[32];
    int last_cpu; /* the client's CPU at the end of its last repetition */
} client;

typedef struct check_result {
    size_t checked, bad, extra, extra_bad;
    long long first_bad, extra_first_bad;
} check_result;

static void fatal(const char *msg) {
    fprintf(stderr, "bench_rand: %s\n", msg);
    exit(1);
}

static void spawn_client(client *c, const char *label, const char *addr, size_t n, uint64_t seed) {
    char sn[32], ss[32];
    snprintf(sn, sizeof(sn), "%zu", n);
    snprintf(ss, sizeof(ss), "%" PRIu64, seed);
    c->label = label;
    c->pid = bench_spawn_role(&c->ctl, &c->rep, "bench_rand", "--role", "client", "--label", label,
                              "--n", sn, "--seed", ss, "--addr", addr, (char *)NULL);
    if (c->pid < 0)
        fatal("cannot start a client (pipe2 or fork failed)");
}

static void client_ready(client *c) {
    char line[256];
    if (bench_read_line(c->rep, line, sizeof(line), SETUP_TIMEOUT_MS) < 0 ||
        sscanf(line, "READY %u %63s %31s", &c->cores, c->version, c->backend) != 3)
        fatal("a client did not get ready (see its error above)");
}

static void client_cmd(client *c, const char *cmd, char *line, size_t len) {
    char buf[16];
    snprintf(buf, sizeof(buf), "%s\n", cmd);
    if (bench_write_str(c->ctl, buf) || bench_read_line(c->rep, line, len, -1) < 0)
        fatal("lost a client (see its error above)");
}

/* One repetition on a client: its own timing (ms). */
static double client_rep(client *c, int kind) {
    char cmd[4] = {'G', kind_code[kind], 0, 0}, line[128];
    double ms;
    client_cmd(c, cmd, line, sizeof(line));
    if (sscanf(line, "T %lf %d", &ms, &c->last_cpu) != 2)
        fatal("bad report from a client");
    return ms;
}

static check_result client_check(client *c, int kind) {
    char cmd[4] = {'C', kind_code[kind], 0, 0}, line[256];
    check_result r;
    client_cmd(c, cmd, line, sizeof(line));
    if (sscanf(line, "C %zu %zu %lld %zu %zu %lld", &r.checked, &r.bad, &r.first_bad, &r.extra,
               &r.extra_bad, &r.extra_first_bad) != 6)
        fatal("bad check report from a client");
    return r;
}

/* One in-process repetition, pinned to cpu (>= 0), the affinity restored
 * after; returns ms and the CPU it ended on. */
static double inproc_rep(int kind, uint64_t seed, uint64_t *offset, float *out, size_t n, int cpu,
                         const cpu_set_t *restore, int *ran_on) {
    if (cpu >= 0 && bench_pin_self(cpu) != 0) {
        fprintf(stderr, "bench_rand: cannot pin to CPU %d: %s\n", cpu, strerror(errno));
        exit(1);
    }
    const int64_t t0 = bench_now_ns();
    inproc_gen(kind, seed, *offset, out, n);
    const int64_t t1 = bench_now_ns();
    *ran_on = sched_getcpu();
    if (cpu >= 0)
        sched_setaffinity(0, sizeof(*restore), restore);
    *offset += n;
    return (double)(t1 - t0) * 1e-6;
}

/* The busiest thread of pid between two samples. */
static int busiest(const bench_thread_sample *b, int nb, const bench_thread_sample *a, int na,
                   bench_thread_sample *out) {
    bench_acc_set *s = calloc(1, sizeof(*s));
    if (!s)
        return 0;
    bench_acc_add(s, b, nb, a, na);
    bench_acc_sort(s);
    const int found = s->n > 0;
    if (found)
        *out = s->t[0].last;
    free(s);
    return found;
}

/* CPU time of the k busiest threads of a / wall_ms. */
static double top_busy(bench_acc_set *a, int k, double wall_ms) {
    bench_acc_sort(a);
    unsigned long long ns = 0;
    for (int i = 0; i < k && i < a->n; i++)
        ns += a->t[i].ns;
    return wall_ms > 0 ? (double)ns * 1e-6 / wall_ms : 0.0;
}

static double total_busy(bench_acc_set *a, double wall_ms) {
    const unsigned long long ns = bench_acc_sort(a);
    return wall_ms > 0 ? (double)ns * 1e-6 / wall_ms : 0.0;
}

static void usage(void) {
    fputs("usage: bench_rand --addr-1 ADDRESS --addr-all ADDRESS [--pid-1 PID] [--pid-all PID]\n"
          "                  [--inproc-cpu CPU] [--mib M] [--reps-uniform N]\n"
          "                  [--reps-normal N] [--reps-sobol N] [--reps-exponential N]\n"
          "                  [--warmup N] [--seed S]\n",
          stderr);
    exit(2);
}

/* Per-side /proc accumulators: [kind][side] for the daemon (trnsci sides)
 * and for the process doing the work's calling side (the client for trnsci,
 * this process for inprocess). */
static bench_acc_set daemon_acc[NKIND][NSIDE], caller_acc[NKIND][NSIDE];
static bench_thread_sample sb[2][BENCH_MAX_THREADS], sa[2][BENCH_MAX_THREADS];

int main(int argc, char **argv) {
    const char *addr1 = NULL, *addr_all = NULL, *role = NULL, *label = "client", *addr = NULL,
               *seed_str = "1234", *n_str = NULL;
    int pid1 = 0, pid_all = 0, inproc_cpu = -1, mib = 64, warmup = 1, ctl_fd = -1, rep_fd = -1;
    int reps[NKIND] = {31, 15, 31, 15};
    const bench_opt opts[] = {{"--addr-1", BENCH_OPT_STR, &addr1},
                              {"--addr-all", BENCH_OPT_STR, &addr_all},
                              {"--pid-1", BENCH_OPT_INT, &pid1},
                              {"--pid-all", BENCH_OPT_INT, &pid_all},
                              {"--inproc-cpu", BENCH_OPT_INT, &inproc_cpu},
                              {"--mib", BENCH_OPT_INT, &mib},
                              {"--reps-uniform", BENCH_OPT_INT, &reps[KIND_UNIFORM]},
                              {"--reps-normal", BENCH_OPT_INT, &reps[KIND_NORMAL]},
                              {"--reps-sobol", BENCH_OPT_INT, &reps[KIND_SOBOL]},
                              {"--reps-exponential", BENCH_OPT_INT, &reps[KIND_EXP]},
                              {"--warmup", BENCH_OPT_INT, &warmup},
                              {"--seed", BENCH_OPT_STR, &seed_str},
                              /* the client role (spawn_client) */
                              {"--role", BENCH_OPT_STR, &role},
                              {"--label", BENCH_OPT_STR, &label},
                              {"--addr", BENCH_OPT_STR, &addr},
                              {"--n", BENCH_OPT_STR, &n_str},
                              {"--ctl-fd", BENCH_OPT_INT, &ctl_fd},
                              {"--rep-fd", BENCH_OPT_INT, &rep_fd},
                              {NULL, BENCH_OPT_FLAG, NULL}};
    if (bench_parse_args(opts, argc, argv, NULL) != 0)
        usage();
    const uint64_t seed = strtoull(seed_str, NULL, 0);
    if (role) {
        if (strcmp(role, "client") || !addr || !n_str || ctl_fd < 0 || rep_fd < 0)
            usage();
        const client_args ca = {.addr = addr,
                                .label = label,
                                .ctl_fd = ctl_fd,
                                .rep_fd = rep_fd,
                                .n = (size_t)strtoull(n_str, NULL, 10),
                                .seed = seed};
        return client_main(&ca);
    }
    if (!addr1 || !addr_all || mib < 1 || warmup < 0)
        usage();
    for (int k = 0; k < NKIND; k++)
        if (reps[k] < 1 || reps[k] > MAX_REPS)
            usage();
    const size_t bytes = (size_t)mib << 20, n = bytes / sizeof(float);
    if (n < (size_t)CHECK_EXTRA)
        usage();

    cpu_set_t start_set;
    CPU_ZERO(&start_set);
    sched_getaffinity(0, sizeof(start_set), &start_set);
    char start_cpus[256];
    bench_cpuset_str(&start_set, start_cpus, sizeof(start_cpus));

    const int kat_ok = inproc_known_answers();
    if (!kat_ok)
        fprintf(stderr, "bench_rand: the in-process loop misses the known answers of "
                        "docs/numerics.md\n");

    /* Clients first (fork before anything else), then our own buffer. */
    client cl[NSIDE];
    memset(cl, 0, sizeof(cl));
    spawn_client(&cl[SIDE_TRN1], "trnsci_1core", addr1, n, seed);
    spawn_client(&cl[SIDE_TRNALL], "trnsci_allcores", addr_all, n, seed);
    client_ready(&cl[SIDE_TRN1]);
    client_ready(&cl[SIDE_TRNALL]);
    char client_cpus[NSIDE][64] = {"", "", ""};
    bench_cpus_allowed(cl[SIDE_TRN1].pid, client_cpus[SIDE_TRN1], sizeof(client_cpus[0]));
    bench_cpus_allowed(cl[SIDE_TRNALL].pid, client_cpus[SIDE_TRNALL], sizeof(client_cpus[0]));
    const int dpid[NSIDE] = {0, pid1, pid_all};

    float *out = malloc(bytes);
    if (!out)
        fatal("out of host memory");
    memset(out, 0, bytes); /* fault the pages in */
    /* The in-process side's offsets: Philox words, Sobol32 points. */
    uint64_t inproc_off[2] = {0, 0};
    int inproc_ran_on = -1;

    /* Warm-up: the daemons fault in their buffers; the one-core daemon's
     * busiest thread shows where its worker runs. */
    bench_thread_sample worker1 = {0};
    int worker1_found = 0;
    {
        const int nb = pid1 ? bench_sample_threads(pid1, sb[0], BENCH_MAX_THREADS, 1) : 0;
        for (int w = 0; w < warmup; w++)
            for (int k = 0; k < NKIND; k++)
                client_rep(&cl[SIDE_TRN1], k);
        if (pid1) {
            const int na = bench_sample_threads(pid1, sa[0], BENCH_MAX_THREADS, 1);
            worker1_found = busiest(sb[0], nb, sa[0], na, &worker1);
        }
        for (int w = 0; w < warmup; w++)
            for (int k = 0; k < NKIND; k++)
                client_rep(&cl[SIDE_TRNALL], k);
    }
    if (inproc_cpu < 0 && worker1_found)
        inproc_cpu = worker1.last_cpu;
    for (int w = 0; w < warmup; w++)
        for (int k = 0; k < NKIND; k++)
            inproc_rep(k, seed, &inproc_off[k == KIND_SOBOL], out, n, inproc_cpu, &start_set,
                       &inproc_ran_on);

    /* Timed repetitions, interleaved, the order rotating per round. Each
     * distribution in turn, then the clients check that distribution (its
     * last repetition is still in their buffers). */
    static double t[NKIND][NSIDE][MAX_REPS];
    double wall[NKIND][NSIDE] = {{0}};
    int ran_on[NKIND][NSIDE];
    check_result chk[NKIND][NSIDE];
    const int self = (int)getpid();
    for (int k = 0; k < NKIND; k++) {
        for (int r = 0; r < reps[k]; r++) {
            for (int q = 0; q < NSIDE; q++) {
                const int s = (q + r) % NSIDE;
                /* /proc samples outside the timed region: the daemon's
                 * threads and the calling process's threads. */
                const int wpid = s == SIDE_INPROC ? self : cl[s].pid;
                const int nd0 =
                    dpid[s] ? bench_sample_threads(dpid[s], sb[0], BENCH_MAX_THREADS, 1) : 0;
                const int nc0 = bench_sample_threads(wpid, sb[1], BENCH_MAX_THREADS, 1);
                if (s == SIDE_INPROC)
                    t[k][s][r] = inproc_rep(k, seed, &inproc_off[k == KIND_SOBOL], out, n,
                                            inproc_cpu, &start_set, &ran_on[k][s]);
                else {
                    t[k][s][r] = client_rep(&cl[s], k);
                    ran_on[k][s] = cl[s].last_cpu;
                }
                const int nc1 = bench_sample_threads(wpid, sa[1], BENCH_MAX_THREADS, 1);
                const int nd1 =
                    dpid[s] ? bench_sample_threads(dpid[s], sa[0], BENCH_MAX_THREADS, 1) : 0;
                if (dpid[s])
                    bench_acc_add(&daemon_acc[k][s], sb[0], nd0, sa[0], nd1);
                bench_acc_add(&caller_acc[k][s], sb[1], nc0, sa[1], nc1);
                wall[k][s] += t[k][s][r];
            }
        }
        chk[k][SIDE_TRN1] = client_check(&cl[SIDE_TRN1], k);
        chk[k][SIDE_TRNALL] = client_check(&cl[SIDE_TRNALL], k);
    }
    for (int s = SIDE_TRN1; s <= SIDE_TRNALL; s++) {
        if (bench_write_str(cl[s].ctl, "QUIT\n"))
            fatal("lost a client");
        int status = 0;
        waitpid(cl[s].pid, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            fatal("a client failed (see its error above)");
    }

    /* ---- JSON ---- */
    const unsigned ncores = cl[SIDE_TRNALL].cores;
    int ok = kat_ok;
    printf("{\n  \"benchmark\": \"rand\",\n");
    printf("  \"generator\": \"philox4x32_10\",\n"); /* the pseudo-random rows */
    printf("  \"output_bytes_per_rep\": %zu,\n  \"elements_per_rep\": %zu,\n", bytes, n);
    printf("  \"seed\": %" PRIu64 ",\n  \"normal\": {\"mean\": %.1f, \"stddev\": %.1f},\n", seed,
           (double)NORMAL_MEAN, (double)NORMAL_STDDEV);
    printf("  \"exponential\": {\"lambda\": %.1f},\n  \"sobol32\": {\"dimensions\": 1},\n",
           EXP_LAMBDA);
    printf("  \"order\": \"interleaved, rotating\",\n  \"warmup\": %d,\n", warmup);
    printf("  \"daemons\": {\n");
    for (int s = SIDE_TRN1; s <= SIDE_TRNALL; s++)
        printf("    \"%s\": {\"address\": \"%s\", \"pid\": %d, \"version\": \"%s\", "
               "\"backend\": \"%s\", \"cores\": %u}%s\n",
               side_name[s], s == SIDE_TRN1 ? addr1 : addr_all, dpid[s], cl[s].version,
               cl[s].backend, cl[s].cores, s == SIDE_TRN1 ? "," : "");
    printf("  },\n");
    printf("  \"inprocess_known_answers\": %s,\n", kat_ok ? "true" : "false");

    /* Placement: what actually happened, over the normal repetitions (the
     * longest; the uniform ones ran on the same CPUs). */
    printf("  \"placement\": {\n");
    printf("    \"bench_process_cpus\": \"%s\",\n", start_cpus);
    printf("    \"inprocess_pinned_cpu\": %d,\n", inproc_cpu);
    printf("    \"inprocess_ran_on\": {");
    for (int k = 0; k < NKIND; k++)
        printf("\"%s\": %d%s", kind_name[k], ran_on[k][SIDE_INPROC], k + 1 < NKIND ? ", " : "");
    printf("},\n");
    for (int s = SIDE_TRN1; s <= SIDE_TRNALL; s++)
        printf("    \"%s_client\": {\"pid\": %d, \"cpus_allowed\": \"%s\", \"last_cpu\": %d},\n",
               side_name[s], (int)cl[s].pid, client_cpus[s], cl[s].last_cpu);
    bench_thread_sample w1 = {0};
    int w1_found = 0;
    if (pid1) {
        bench_acc_sort(&daemon_acc[KIND_NORMAL][SIDE_TRN1]);
        if (daemon_acc[KIND_NORMAL][SIDE_TRN1].n > 0) {
            w1 = daemon_acc[KIND_NORMAL][SIDE_TRN1].t[0].last;
            w1_found = 1;
        }
    }
    if (pid1)
        bench_json_threads("trnsci_1core_daemon_threads", &daemon_acc[KIND_NORMAL][SIDE_TRN1], 2,
                           wall[KIND_NORMAL][SIDE_TRN1], ",");
    if (pid_all)
        bench_json_threads("trnsci_allcores_daemon_threads", &daemon_acc[KIND_NORMAL][SIDE_TRNALL],
                           (int)ncores + 1, wall[KIND_NORMAL][SIDE_TRNALL], ",");
    printf("    \"same_core\": %s\n",
           w1_found ? (w1.last_cpu == inproc_cpu && ran_on[KIND_NORMAL][SIDE_INPROC] == inproc_cpu
                           ? "true"
                           : "false")
                    : "null");
    printf("  },\n");
    bench_json_host(",\n");

    printf("  \"results\": {\n");
    for (int k = 0; k < NKIND; k++) {
        bench_stats st[NSIDE];
        double gbps[NSIDE];
        for (int s = 0; s < NSIDE; s++) {
            st[s] = bench_stats_copy(t[k][s], reps[k]);
            gbps[s] = (double)bytes * 1e-9 / (st[s].median * 1e-3);
        }
        const double ratio = gbps[SIDE_TRN1] / gbps[SIDE_INPROC];
        const double scaling = gbps[SIDE_TRNALL] / ((double)ncores * gbps[SIDE_INPROC]);
        /* The same from the fastest repetitions, less sensitive to the VM's
         * slow periods. */
        const double scaling_of_mins = st[SIDE_INPROC].min / ((double)ncores * st[SIDE_TRNALL].min);
        printf("    \"%s\": {\n      \"generator\": \"%s\", \"reps\": %d,\n", kind_name[k],
               kind_gen[k], reps[k]);
        for (int s = 0; s < NSIDE; s++)
            printf("      \"%s\": {\"ms\": {\"median\": %.3f, \"min\": %.3f, \"max\": %.3f}, "
                   "\"gb_per_s\": %.4f},\n",
                   side_name[s], st[s].median, st[s].min, st[s].max, gbps[s]);
        printf("      \"inprocess_busy\": %.3f,\n",
               top_busy(&caller_acc[k][SIDE_INPROC], 1, wall[k][SIDE_INPROC]));
        if (pid1)
            printf("      \"trnsci_1core_worker_busy\": %.3f, "
                   "\"trnsci_1core_other_daemon_threads_busy\": %.3f,\n",
                   top_busy(&daemon_acc[k][SIDE_TRN1], 1, wall[k][SIDE_TRN1]),
                   total_busy(&daemon_acc[k][SIDE_TRN1], wall[k][SIDE_TRN1]) -
                       top_busy(&daemon_acc[k][SIDE_TRN1], 1, wall[k][SIDE_TRN1]));
        if (pid_all)
            printf("      \"trnsci_allcores_workers_busy\": %.3f, "
                   "\"trnsci_allcores_other_daemon_threads_busy\": %.3f,\n",
                   top_busy(&daemon_acc[k][SIDE_TRNALL], (int)ncores, wall[k][SIDE_TRNALL]),
                   total_busy(&daemon_acc[k][SIDE_TRNALL], wall[k][SIDE_TRNALL]) -
                       top_busy(&daemon_acc[k][SIDE_TRNALL], (int)ncores, wall[k][SIDE_TRNALL]));
        printf("      \"client_busy\": {\"trnsci_1core\": %.3f, \"trnsci_allcores\": %.3f},\n",
               total_busy(&caller_acc[k][SIDE_TRN1], wall[k][SIDE_TRN1]),
               total_busy(&caller_acc[k][SIDE_TRNALL], wall[k][SIDE_TRNALL]));
        printf("      \"ratio_1core\": %.4f,\n", ratio);
        printf("      \"cores\": %u, \"scaling\": %.4f, \"scaling_of_mins\": %.4f, "
               "\"scaling_target\": 0.9, \"scaling_met\": %s,\n",
               ncores, scaling, scaling_of_mins, scaling >= 0.9 ? "true" : "false");
        printf("      \"bitwise_check\": {");
        for (int s = SIDE_TRN1; s <= SIDE_TRNALL; s++) {
            const check_result *c = &chk[k][s];
            const int agree = c->bad == 0 && c->extra_bad == 0;
            ok &= agree;
            printf("\"%s\": {\"elements\": %zu, \"differ\": %zu, \"first_differing\": %lld, "
                   "\"extra_offset\": %llu, \"extra_elements\": %zu, \"extra_differ\": %zu, "
                   "\"agree\": %s}%s",
                   side_name[s], c->checked, c->bad, c->first_bad,
                   (unsigned long long)(k == KIND_SOBOL ? CHECK_EXTRA_OFFSET_SOBOL
                                                        : CHECK_EXTRA_OFFSET),
                   c->extra, c->extra_bad, agree ? "true" : "false", s == SIDE_TRN1 ? ", " : "");
        }
        printf("}\n    }%s\n", k + 1 < NKIND ? "," : "");
    }
    printf("  }\n}\n");
    free(out);
    return ok ? 0 : 3;
}
