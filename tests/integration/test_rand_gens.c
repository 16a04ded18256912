/*
 * test_rand_gens.c — trnrand's other pseudo-random generators (XORWOW,
 * MRG32k3a, MT19937, MTGP32)
 * through real daemons, over the local transport (shared-memory buffers) and
 * gRPC over TCP, against independent references (rand_ref.py under Debian's
 * /usr/bin/python3):
 *
 *  - Known answers: XORWOW seeded with 0xf7dcefddaad26b49 (whose cuRAND
 *    mixing is zero) returns Marsaglia's xorwow() from his published initial
 *    values; MRG32k3a seeded with 0 (L'Ecuyer's 12345 x 6) gives cuRAND's
 *    words of the stream whose published Y_1..5, U_1000 and U_100000
 *    rand_ref.py reproduces first; MT19937 against numpy's legacy
 *    RandomState (init_by_array), after rand_ref.py checks numpy against the
 *    published mt19937ar values; other seeds and offsets (one across an
 *    MT19937 block end) up to
 *    2^64 - 2^12 against rand_ref.py's own seeding and skip-ahead (GF(2)
 *    matrices, or 3 x 3 matrices modulo m1, m2, over Python integers);
 *    MTGP32 (offsets up to 2^20, across the end of a round of its 192
 *    states, and the 64 states of the legacy ordering) against
 *    rand_ref.py's own MTGP32, written from Saito and Matsumoto's definition
 *    in cuRAND's host-API layout, which checks itself against cuRAND's
 *    first words first.
 *  - Distributions against scipy.stats with fixed seeds (deterministic):
 *    Kolmogorov-Smirnov for uniform, normal, log-normal and exponential
 *    results (statistic below the Dvoretzky-Kiefer-Wolfowitz critical value
 *    sqrt(ln(2/alpha)/(2n)) + 1e-6 at alpha = 1e-6); Poisson mean within
 *    5 sqrt(lambda/n), variance within 5 sqrt((lambda + 2 lambda^2)/n) and
 *    a chi-square test at alpha = 1e-6.
 *  - The documented word use: each distribution's results bitwise from the
 *    raw words of one trnrandGenerate call at the same seed (uniforms: exact
 *    conversions), and the offset advanced by the documented words (the raw
 *    words that follow); a call split in two gives the bits of one call.
 *  - Core count: large ops of every distribution on a 1-core and a 2-core
 *    daemon (the latter running them as >= 2 shards) bitwise equal over both
 *    transports.
 *  - Bad input: the Philox-only extensions, 64-bit results, quasi-random
 *    settings, MTGP32's refused orderings, odd normal counts, bad
 *    parameters and the stream's end (MTGP32's at word 2^32): the
 *    cuRAND-equivalent status, the
 *    offset unmoved, the daemons still up.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "harness.h"
#include "trnsci/trnrand.h"

static th_daemon one_core, two_cores;
static char tmp_dir[256]; /* sample files for rand_ref.py */

typedef struct transport {
    const char *name;
    const char *addr;
} transport;

static transport local_t = {"local", NULL}, grpc_t = {"grpc", NULL};

static const char *addr_of(void **state) {
    return ((const transport *)*state)->addr;
}

static void expect_message(const char *needle) {
    const char *msg = trnsciGetLastErrorMessage();
    if (!strstr(msg, needle))
        fail_msg("message \"%s\" does not mention \"%s\"", msg, needle);
}

/* The generators under test and rand_ref.py's name for their stream. */
static const struct {
    trnrandRngType_t type;
    const char *ref;
} GENS[] = {
    {TRNRAND_RNG_PSEUDO_XORWOW, "xorwow"},
    {TRNRAND_RNG_PSEUDO_MRG32K3A, "mrg32k3a"},
    {TRNRAND_RNG_PSEUDO_MT19937, "mt19937"},
    {TRNRAND_RNG_PSEUDO_MTGP32, "mtgp32"},
};
enum { NGENS = sizeof(GENS) / sizeof(GENS[0]) };

/* ---- device memory ----------------------------------------------------------------- */

enum { PAD = 64, SENTINEL = 0xa5 };

static void *dev_alloc(size_t bytes) {
    void *p = NULL;
    assert_int_equal(trnsciMalloc(&p, bytes + PAD), trnsciSuccess);
    assert_int_equal(trnsciMemset(p, SENTINEL, bytes + PAD), trnsciSuccess);
    return p;
}

/* The bytes at dev on the host (after the queued work), PAD checked; dev
 * freed. */
static void *dev_take(void *dev, size_t bytes) {
    unsigned char *h = malloc(bytes + PAD);
    assert_non_null(h);
    assert_int_equal(trnsciMemcpy(h, dev, bytes + PAD, trnsciMemcpyDeviceToHost), trnsciSuccess);
    for (size_t i = 0; i < PAD; i++)
        if (h[bytes + i] != SENTINEL)
            fail_msg("byte %zu after the %zu result bytes was written", i, bytes);
    assert_int_equal(trnsciFree(dev), trnsciSuccess);
    return h;
}

static trnrandGenerator_t make(trnrandRngType_t t, uint64_t seed, uint64_t offset) {
    trnrandGenerator_t g = NULL;
    assert_int_equal(trnrandCreateGenerator(&g, t), TRNRAND_STATUS_SUCCESS);
    assert_int_equal(trnrandSetPseudoRandomGeneratorSeed(g, seed), TRNRAND_STATUS_SUCCESS);
    assert_int_equal(trnrandSetGeneratorOffset(g, offset), TRNRAND_STATUS_SUCCESS);
    return g;
}

/* ---- the distributions ------------------------------------------------------------- */

typedef enum dist {
    D_U32,
    D_UF,
    D_UD,
    D_NF,
    D_ND,
    D_LNF,
    D_LND,
    D_EXPF,
    D_EXPD,
    D_POI,
    NDIST
} dist;

static const struct {
    const char *name, *typ;
    size_t size;
    unsigned words; /* raw words per result */
} dinfo[NDIST] = {
    {"Generate", "u32", 4, 1},
    {"GenerateUniform", "f32", 4, 1},
    {"GenerateUniformDouble", "f64", 8, 2},
    {"GenerateNormal", "f32", 4, 1},
    {"GenerateNormalDouble", "f64", 8, 2},
    {"GenerateLogNormal", "f32", 4, 1},
    {"GenerateLogNormalDouble", "f64", 8, 2},
    {"GenerateExponential", "f32", 4, 1},
    {"GenerateExponentialDouble", "f64", 8, 2},
    {"GeneratePoisson", "u32", 4, 2},
};

/* p: mean, stddev | lambda */
static trnrandStatus_t call(trnrandGenerator_t g, dist d, void *dev, size_t n, const double *p) {
    switch (d) {
    case D_U32: return trnrandGenerate(g, dev, n);
    case D_UF: return trnrandGenerateUniform(g, dev, n);
    case D_UD: return trnrandGenerateUniformDouble(g, dev, n);
    case D_NF: return trnrandGenerateNormal(g, dev, n, (float)p[0], (float)p[1]);
    case D_ND: return trnrandGenerateNormalDouble(g, dev, n, p[0], p[1]);
    case D_LNF: return trnrandGenerateLogNormal(g, dev, n, (float)p[0], (float)p[1]);
    case D_LND: return trnrandGenerateLogNormalDouble(g, dev, n, p[0], p[1]);
    case D_EXPF: return trnrandGenerateExponential(g, dev, n, p[0]);
    case D_EXPD: return trnrandGenerateExponentialDouble(g, dev, n, p[0]);
    case D_POI: return trnrandGeneratePoisson(g, dev, n, p[0]);
    case NDIST: break;
    }
    return TRNRAND_STATUS_INTERNAL_ERROR;
}

/* n results of d from generator g, on the host. */
static void *host_call(trnrandGenerator_t g, dist d, size_t n, const double *p) {
    void *dev = dev_alloc(n * dinfo[d].size);
    const trnrandStatus_t st = call(g, d, dev, n, p);
    if (st != TRNRAND_STATUS_SUCCESS)
        fail_msg("trnrand%s(n=%zu): status %d: %s", dinfo[d].name, n, (int)st,
                 trnsciGetLastErrorMessage());
    return dev_take(dev, n * dinfo[d].size);
}

/* ---- rand_ref.py ------------------------------------------------------------------- */

static void run_ref(const char *const *args) {
    const char *argv[16];
    int k = 0;
    argv[k++] = PYTHON3;
    argv[k++] = RAND_REF_PY;
    for (int i = 0; args[i] && k < 15; i++)
        argv[k++] = args[i];
    argv[k] = NULL;
    char out[320];
    snprintf(out, sizeof(out), "%s/ref.out", tmp_dir);
    const int rc = th_run(argv, out);
    char text[2048] = "";
    FILE *f = fopen(out, "r");
    if (f) {
        const size_t len = fread(text, 1, sizeof(text) - 1, f);
        text[len] = '\0';
        fclose(f);
    }
    printf("    rand_ref.py: %s", text);
    if (rc != 0)
        fail_msg("rand_ref.py %s %s failed (status %d): %s", args[0], args[1], rc, text);
}

static void write_file(const char *path, const void *data, size_t bytes) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, bytes, f), bytes);
    assert_int_equal(fclose(f), 0);
}

/* ---- known answers ------------------------------------------------------------------- */

static void test_known_answers(void **state) {
    assert_int_equal(trnsciInit(addr_of(state)), trnsciSuccess);
    const size_t n = 3000;
    char path[320];
    snprintf(path, sizeof(path), "%s/kat.bin", tmp_dir);
    /* Marsaglia's published initial values */
    trnrandGenerator_t g = make(TRNRAND_RNG_PSEUDO_XORWOW, UINT64_C(0xf7dcefddaad26b49), 0);
    void *h = host_call(g, D_U32, n, NULL);
    write_file(path, h, n * 4);
    free(h);
    const char *const a0[] = {"xorwow-marsaglia", path, NULL};
    run_ref(a0);
    assert_int_equal(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
    /* other seeds and offsets, against the reference's own skip-ahead */
    static const uint64_t cases[][2] = {
        {0, 0},
        {1, 1},
        {UINT64_C(0xdeadbeefcafebabe), 4099},
        {12345, (UINT64_C(1) << 40) + 3},
        {777, (UINT64_C(1) << 20) - 1500},
        {UINT64_C(0x8000000000000001), UINT64_MAX - 4096},
    };
    for (size_t gi = 0; gi < NGENS; gi++)
        for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
            /* MTGP32 steps to its offset and ends at word 2^32 */
            if (GENS[gi].type == TRNRAND_RNG_PSEUDO_MTGP32 && cases[c][1] > (UINT64_C(1) << 20))
                continue;
            g = make(GENS[gi].type, cases[c][0], cases[c][1]);
            h = host_call(g, D_U32, n, NULL);
            write_file(path, h, n * 4);
            free(h);
            char seed[32], off[32];
            snprintf(seed, sizeof(seed), "%llu", (unsigned long long)cases[c][0]);
            snprintf(off, sizeof(off), "%llu", (unsigned long long)cases[c][1]);
            const char *const a[] = {GENS[gi].ref, path, seed, off, NULL};
            run_ref(a);
            assert_int_equal(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
        }
    /* MTGP32: across the end of the first round of 192 x 256 words, and
     * the legacy ordering's 64 states across the end of theirs */
    static const struct {
        uint64_t seed, offset;
        trnrandOrdering_t order;
        const char *states;
    } mtgp[] = {
        {1234, 192 * 256 - 1500, TRNRAND_ORDERING_PSEUDO_DEFAULT, "192"},
        {UINT64_C(0xdeadbeefcafebabe), 3 * 192 * 256 + 77, TRNRAND_ORDERING_PSEUDO_BEST, "192"},
        {42, 64 * 256 - 700, TRNRAND_ORDERING_PSEUDO_LEGACY, "64"},
    };
    for (size_t c = 0; c < sizeof(mtgp) / sizeof(mtgp[0]); c++) {
        g = make(TRNRAND_RNG_PSEUDO_MTGP32, mtgp[c].seed, mtgp[c].offset);
        assert_int_equal(trnrandSetGeneratorOrdering(g, mtgp[c].order), TRNRAND_STATUS_SUCCESS);
        h = host_call(g, D_U32, n, NULL);
        write_file(path, h, n * 4);
        free(h);
        char seed[32], off[32];
        snprintf(seed, sizeof(seed), "%llu", (unsigned long long)mtgp[c].seed);
        snprintf(off, sizeof(off), "%llu", (unsigned long long)mtgp[c].offset);
        const char *const a[] = {"mtgp32", path, seed, off, mtgp[c].states, NULL};
        run_ref(a);
        assert_int_equal(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
    }
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- distributions against scipy ------------------------------------------------------ */

typedef struct ks_case {
    dist d;
    const char *ref; /* rand_ref.py's distribution */
    double p[2];
    int np;
} ks_case;

static const ks_case KS[] = {
    {D_UF, "uniform", {0}, 0},         {D_UD, "uniform", {0}, 0},
    {D_NF, "norm", {1.5, 2.0}, 2},     {D_ND, "norm", {-3.0, 0.25}, 2},
    {D_LNF, "lognorm", {0.2, 0.5}, 2}, {D_LND, "lognorm", {-1.0, 1.5}, 2},
    {D_EXPF, "expon", {0.5}, 1},       {D_EXPD, "expon", {4.0}, 1},
    {D_POI, "poisson", {0.7}, 1},      {D_POI, "poisson", {12.0}, 1},
    {D_POI, "poisson", {1e4}, 1},
};

static void test_vs_scipy(void **state) {
    assert_int_equal(trnsciInit(addr_of(state)), trnsciSuccess);
    const size_t n = (size_t)1 << 17;
    for (size_t gi = 0; gi < NGENS; gi++)
        for (size_t c = 0; c < sizeof(KS) / sizeof(KS[0]); c++) {
            const ks_case *k = &KS[c];
            trnrandGenerator_t g = make(GENS[gi].type, 0x5EED0 + c, 11 * c);
            void *h = host_call(g, k->d, n, k->p);
            char path[320], ps[2][40];
            snprintf(path, sizeof(path), "%s/ks%zu.bin", tmp_dir, c);
            write_file(path, h, n * dinfo[k->d].size);
            free(h);
            for (int i = 0; i < k->np; i++)
                snprintf(ps[i], sizeof(ps[i]), "%.17g", k->p[i]);
            if (k->d == D_POI) {
                const char *const a[] = {"poisson", path, ps[0], NULL};
                run_ref(a);
            } else {
                const char *a[8] = {"ks", path, dinfo[k->d].typ, k->ref};
                for (int i = 0; i < k->np; i++)
                    a[4 + i] = ps[i];
                a[4 + k->np] = NULL;
                run_ref(a);
            }
            assert_int_equal(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
        }
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- word use, offsets and splits ----------------------------------------------------- */

static float u32f(uint32_t x) {
    return (float)x * 0x1p-32f + 0x1p-33f;
}

static double u64f(uint32_t lo, uint32_t hi) {
    return (double)((uint64_t)lo ^ ((uint64_t)hi << 21)) * 0x1p-53 + 0x1p-54;
}

static void test_words_and_splits(void **state) {
    assert_int_equal(trnsciInit(addr_of(state)), trnsciSuccess);
    const uint64_t seed = 0xFACE, off = 77;
    const size_t nw = 20000;
    for (size_t gi = 0; gi < NGENS; gi++) {
        trnrandGenerator_t raw = make(GENS[gi].type, seed, off);
        uint32_t *w = host_call(raw, D_U32, nw, NULL);
        /* uniforms, then raw words, then a Poisson call, then raw words:
         * each from the words where the previous call left the offset */
        trnrandGenerator_t g = make(GENS[gi].type, seed, off);
        const size_t nf = 1001, nd = 999, np = 501, nr = 100;
        float *f = host_call(g, D_UF, nf, NULL);
        for (size_t i = 0; i < nf; i++)
            if (f[i] != u32f(w[i]))
                fail_msg("uniform float %zu is not u32f of word %zu", i, i);
        size_t at = nf;
        double *d = host_call(g, D_UD, nd, NULL);
        for (size_t i = 0; i < nd; i++)
            if (d[i] != u64f(w[at + 2 * i], w[at + 2 * i + 1]))
                fail_msg("uniform double %zu is not u64f of words %zu, %zu", i, at + 2 * i,
                         at + 2 * i + 1);
        at += 2 * nd;
        const double lam[1] = {3.0};
        free(host_call(g, D_POI, np, lam));
        at += 2 * np;
        uint32_t *r = host_call(g, D_U32, nr, NULL);
        assert_memory_equal(r, w + at, nr * 4);
        at += nr;
        /* a split normal call gives the bits of one call */
        const double ms[2] = {0.5, 3.0};
        trnrandGenerator_t one = make(GENS[gi].type, seed, at + off);
        double *whole = host_call(one, D_ND, 1000, ms);
        double *p1 = host_call(g, D_ND, 400, ms), *p2 = host_call(g, D_ND, 600, ms);
        assert_memory_equal(whole, p1, 400 * 8);
        assert_memory_equal(whole + 400, p2, 600 * 8);
        at += 2 * 1000;
        free(r);
        r = host_call(g, D_U32, 8, NULL);
        assert_memory_equal(r, w + at, 8 * 4);
        free(w), free(f), free(d), free(r), free(whole), free(p1), free(p2);
        assert_int_equal(trnrandDestroyGenerator(raw), TRNRAND_STATUS_SUCCESS);
        assert_int_equal(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
        assert_int_equal(trnrandDestroyGenerator(one), TRNRAND_STATUS_SUCCESS);
    }
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- one core against two ------------------------------------------------------------ */

/* Large enough that the 2-core daemon shards them (cost-weighted bytes over
 * 2 MiB), odd counts where allowed, an offset far into the stream. */
static const struct {
    dist d;
    size_t n;
    double p[2];
} BIG[] = {
    {D_U32, ((size_t)1 << 21) + 3, {0}},        {D_UF, ((size_t)1 << 21) + 1, {0}},
    {D_UD, ((size_t)1 << 20) + 5, {0}},         {D_NF, ((size_t)1 << 19) + 2, {1.0, 2.0}},
    {D_LND, ((size_t)1 << 18) + 2, {0.0, 1.0}}, {D_EXPD, ((size_t)1 << 19) + 7, {2.0}},
    {D_POI, ((size_t)1 << 18) + 9, {40.0}},
};
enum { NBIG = sizeof(BIG) / sizeof(BIG[0]) };

static uint64_t shards_run(const char *addr) {
    trnsciWorkerInfo w[64];
    int count = 0;
    assert_int_equal(trnsciDaemonGetWorkers(addr, w, 64, &count), trnsciSuccess);
    uint64_t s = 0;
    for (int i = 0; i < count && i < 64; i++)
        s += w[i].usage.shards;
    return s;
}

static void run_big(trnrandRngType_t t, const char *addr, const char *status_addr,
                    uint64_t min_shards, void *out[NBIG]) {
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    for (int i = 0; i < NBIG; i++) {
        /* MTGP32 reaches its offset by stepping and ends at word 2^32 */
        const uint64_t off = t == TRNRAND_RNG_PSEUDO_MTGP32 ? 100003 : (UINT64_C(1) << 45) + 13;
        trnrandGenerator_t g = make(t, 0xB16 + (uint64_t)i, off);
        const size_t bytes = BIG[i].n * dinfo[BIG[i].d].size;
        void *dev = dev_alloc(bytes);
        assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
        const uint64_t before = shards_run(status_addr);
        assert_int_equal(call(g, BIG[i].d, dev, BIG[i].n, BIG[i].p), TRNRAND_STATUS_SUCCESS);
        assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
        const uint64_t shards = shards_run(status_addr) - before;
        if (shards < min_shards)
            fail_msg("trnrand%s of %zu results ran as %llu shard(s), want at least %llu",
                     dinfo[BIG[i].d].name, BIG[i].n, (unsigned long long)shards,
                     (unsigned long long)min_shards);
        out[i] = dev_take(dev, bytes);
        assert_int_equal(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
    }
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

static void test_one_core_vs_two_cores(void **state) {
    (void)state;
    for (size_t gi = 0; gi < NGENS; gi++) {
        void *one[NBIG], *two_local[NBIG], *two_grpc[NBIG];
        run_big(GENS[gi].type, one_core.unix_addr, one_core.unix_addr, 1, one);
        run_big(GENS[gi].type, two_cores.unix_addr, two_cores.unix_addr, 2, two_local);
        run_big(GENS[gi].type, two_cores.tcp_addr, two_cores.unix_addr, 2, two_grpc);
        for (int i = 0; i < NBIG; i++) {
            const size_t bytes = BIG[i].n * dinfo[BIG[i].d].size;
            if (memcmp(one[i], two_local[i], bytes) != 0 || memcmp(one[i], two_grpc[i], bytes))
                fail_msg("%s trnrand%s: 2 cores differ from 1", GENS[gi].ref, dinfo[BIG[i].d].name);
            free(one[i]), free(two_local[i]), free(two_grpc[i]);
        }
    }
}

/* ---- host generators ------------------------------------------------------------------ */

/* Every generator, host and device side by side: the same numbers. The
 * first round runs before this process has a daemon (TRNSCI_ADDR names
 * none): a host generator needs none. */
static const trnrandRngType_t HOST_GENS[] = {
    TRNRAND_RNG_PSEUDO_PHILOX4_32_10, TRNRAND_RNG_PSEUDO_XORWOW, TRNRAND_RNG_PSEUDO_MRG32K3A,
    TRNRAND_RNG_PSEUDO_MT19937,       TRNRAND_RNG_PSEUDO_MTGP32, TRNRAND_RNG_QUASI_SOBOL32};
enum { NHOST = sizeof(HOST_GENS) / sizeof(HOST_GENS[0]) };
static const struct {
    dist d;
    size_t n;
    double p[2];
} HOST_CALLS[] = {
    {D_U32, 70001, {0}},      {D_UF, 4097, {0}},        {D_UD, 999, {0}},
    {D_NF, 1002, {0.5, 2.0}}, {D_LND, 64, {0.0, 0.25}}, {D_POI, 513, {7.5}},
};
enum { NHOSTCALLS = sizeof(HOST_CALLS) / sizeof(HOST_CALLS[0]) };

static int quasi_type(trnrandRngType_t t) {
    return t == TRNRAND_RNG_QUASI_SOBOL32;
}

/* Each call's numbers from a host generator of type t (seed, offset 5). */
static void host_round(trnrandRngType_t t, void *out[NHOSTCALLS]) {
    trnrandGenerator_t g = NULL;
    assert_int_equal(trnrandCreateGeneratorHost(&g, t), TRNRAND_STATUS_SUCCESS);
    if (!quasi_type(t))
        assert_int_equal(trnrandSetPseudoRandomGeneratorSeed(g, 0xD1CE), TRNRAND_STATUS_SUCCESS);
    assert_int_equal(trnrandSetGeneratorOffset(g, 5), TRNRAND_STATUS_SUCCESS);
    for (int i = 0; i < NHOSTCALLS; i++) {
        out[i] = NULL;
        if (quasi_type(t) && HOST_CALLS[i].d == D_POI)
            continue; /* Sobol has no Poisson (TYPE_ERROR, as on a device generator) */
        out[i] = malloc(HOST_CALLS[i].n * dinfo[HOST_CALLS[i].d].size);
        assert_non_null(out[i]);
        const trnrandStatus_t st =
            call(g, HOST_CALLS[i].d, out[i], HOST_CALLS[i].n, HOST_CALLS[i].p);
        if (st != TRNRAND_STATUS_SUCCESS)
            fail_msg("host trnrand%s: status %d: %s", dinfo[HOST_CALLS[i].d].name, (int)st,
                     trnsciGetLastErrorMessage());
    }
    /* Bad input as on a device generator: no output, an odd count of
     * pseudo-random normals. */
    assert_int_equal(trnrandGenerate(g, NULL, 4), TRNRAND_STATUS_OUT_OF_RANGE);
    float three[3];
    if (!quasi_type(t)) /* Sobol's normals take any count */
        assert_int_equal(trnrandGenerateNormal(g, three, 3, 0.0f, 1.0f),
                         TRNRAND_STATUS_LENGTH_NOT_MULTIPLE);
    assert_int_equal(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
}

static void test_host_generators(void **state) {
    void *host[NHOST][NHOSTCALLS];
    /* No daemon yet in this process, and none where TRNSCI_ADDR points. */
    char *saved = getenv("TRNSCI_ADDR") ? strdup(getenv("TRNSCI_ADDR")) : NULL;
    setenv("TRNSCI_ADDR", "unix:/nonexistent/trnscid.sock", 1);
    for (int t = 0; t < NHOST; t++)
        host_round(HOST_GENS[t], host[t]);
    if (saved) {
        setenv("TRNSCI_ADDR", saved, 1);
        free(saved);
    } else {
        unsetenv("TRNSCI_ADDR");
    }
    assert_int_equal(trnsciInit(addr_of(state)), trnsciSuccess);
    for (int t = 0; t < NHOST; t++) {
        trnrandGenerator_t g = NULL;
        assert_int_equal(trnrandCreateGenerator(&g, HOST_GENS[t]), TRNRAND_STATUS_SUCCESS);
        if (!quasi_type(HOST_GENS[t]))
            assert_int_equal(trnrandSetPseudoRandomGeneratorSeed(g, 0xD1CE),
                             TRNRAND_STATUS_SUCCESS);
        assert_int_equal(trnrandSetGeneratorOffset(g, 5), TRNRAND_STATUS_SUCCESS);
        for (int i = 0; i < NHOSTCALLS; i++) {
            if (!host[t][i])
                continue;
            const size_t bytes = HOST_CALLS[i].n * dinfo[HOST_CALLS[i].d].size;
            void *dev = host_call(g, HOST_CALLS[i].d, HOST_CALLS[i].n, HOST_CALLS[i].p);
            if (memcmp(dev, host[t][i], bytes) != 0)
                fail_msg("generator %d trnrand%s: host and device numbers differ",
                         (int)HOST_GENS[t], dinfo[HOST_CALLS[i].d].name);
            free(dev);
            free(host[t][i]);
        }
        assert_int_equal(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
    }
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- bad input ------------------------------------------------------------------------ */

static void test_bad_input(void **state) {
    assert_int_equal(trnsciInit(addr_of(state)), trnsciSuccess);
    const uint64_t seed = 99, off = 1001;
    for (size_t gi = 0; gi < NGENS; gi++) {
        trnrandGenerator_t g = make(GENS[gi].type, seed, off);
        trnrandGenerator_t ref = make(GENS[gi].type, seed, off);
        uint32_t *want = host_call(ref, D_U32, 4, NULL);
        void *dev = dev_alloc(4096);
        /* the Philox-only extensions */
        assert_int_equal(trnrandGenerateGamma(g, dev, 4, 1.0, 1.0), TRNRAND_STATUS_TYPE_ERROR);
        expect_message("Philox");
        assert_int_equal(trnrandGenerateBetaDouble(g, dev, 4, 1.0, 1.0), TRNRAND_STATUS_TYPE_ERROR);
        assert_int_equal(trnrandGenerateTruncatedNormal(g, dev, 4, 0.0f, 1.0f, -1.0f, 1.0f),
                         TRNRAND_STATUS_TYPE_ERROR);
        assert_int_equal(trnrandGenerateLatinHypercube(g, dev, 2, 2), TRNRAND_STATUS_TYPE_ERROR);
        /* 64-bit results, quasi-random settings */
        assert_int_equal(trnrandGenerateLongLong(g, dev, 4), TRNRAND_STATUS_TYPE_ERROR);
        assert_int_equal(trnrandSetQuasiRandomGeneratorDimensions(g, 2), TRNRAND_STATUS_TYPE_ERROR);
        assert_int_equal(trnrandSetGeneratorOrdering(g, TRNRAND_ORDERING_QUASI_DEFAULT),
                         TRNRAND_STATUS_OUT_OF_RANGE);
        const int mtgp = GENS[gi].type == TRNRAND_RNG_PSEUDO_MTGP32;
        /* cuRAND's MTGP32 refuses the seeded and dynamic orderings */
        assert_int_equal(trnrandSetGeneratorOrdering(g, TRNRAND_ORDERING_PSEUDO_SEEDED),
                         mtgp ? TRNRAND_STATUS_OUT_OF_RANGE : TRNRAND_STATUS_SUCCESS);
        assert_int_equal(trnrandSetGeneratorOrdering(g, TRNRAND_ORDERING_PSEUDO_DYNAMIC),
                         mtgp ? TRNRAND_STATUS_OUT_OF_RANGE : TRNRAND_STATUS_SUCCESS);
        assert_int_equal(trnrandSetGeneratorOrdering(g, TRNRAND_ORDERING_PSEUDO_DEFAULT),
                         TRNRAND_STATUS_SUCCESS);
        /* cuRAND's argument rules */
        assert_int_equal(trnrandGenerateNormal(g, dev, 3, 0.0f, 1.0f),
                         TRNRAND_STATUS_LENGTH_NOT_MULTIPLE);
        assert_int_equal(trnrandGenerateNormalDouble(g, dev, 4, 0.0, 0.0),
                         TRNRAND_STATUS_OUT_OF_RANGE);
        assert_int_equal(trnrandGeneratePoisson(g, dev, 4, 0.0), TRNRAND_STATUS_OUT_OF_RANGE);
        expect_message("lambda");
        assert_int_equal(trnrandGeneratePoisson(g, dev, 4, NAN), TRNRAND_STATUS_OUT_OF_RANGE);
        assert_int_equal(trnrandGenerateExponential(g, dev, 4, -1.0), TRNRAND_STATUS_OUT_OF_RANGE);
        assert_int_equal(trnrandGenerateUniformDouble(g, dev, 4096), TRNRAND_STATUS_OUT_OF_RANGE);
        /* the stream end: offset + words must stay below 2^64 */
        assert_int_equal(trnrandSetGeneratorOffset(g, UINT64_MAX - 3), TRNRAND_STATUS_SUCCESS);
        assert_int_equal(trnrandGenerateUniformDouble(g, dev, 2), TRNRAND_STATUS_OUT_OF_RANGE);
        expect_message("end of the stream");
        if (mtgp) { /* MTGP32's stream ends at word 2^32 */
            assert_int_equal(trnrandSetGeneratorOffset(g, (UINT64_C(1) << 32) - 1),
                             TRNRAND_STATUS_SUCCESS);
            assert_int_equal(trnrandGenerateUniformDouble(g, dev, 1), TRNRAND_STATUS_OUT_OF_RANGE);
            expect_message("2^32");
        }
        assert_int_equal(trnrandSetGeneratorOffset(g, off), TRNRAND_STATUS_SUCCESS);
        /* no failed call moved the offset */
        uint32_t *got = host_call(g, D_U32, 4, NULL);
        assert_memory_equal(got, want, 16);
        free(got), free(want);
        assert_int_equal(trnsciFree(dev), trnsciSuccess);
        assert_int_equal(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
        assert_int_equal(trnrandDestroyGenerator(ref), TRNRAND_STATUS_SUCCESS);
    }
    /* not a generator */
    trnrandGenerator_t x = NULL;
    assert_int_equal(trnrandCreateGenerator(&x, TRNRAND_RNG_TEST), TRNRAND_STATUS_TYPE_ERROR);
    assert_null(x);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- main ------------------------------------------------------------------------------- */

static int check_idle(void **state) {
    (void)state;
    trnsciDeviceReset();
    int rc = 0;
    const th_daemon *ds[] = {&one_core, &two_cores};
    for (int i = 0; i < 2; i++)
        if (th_wait_daemon_idle(ds[i]->unix_addr, 10000) != 0)
            rc = -1;
    return rc;
}

#define ON(fn, t)                                                                                  \
    { #fn "/" #t, fn, NULL, check_idle, &t##_t }
#define ONCE(fn)                                                                                   \
    { #fn, fn, NULL, check_idle, NULL }

int main(void) {
    snprintf(tmp_dir, sizeof(tmp_dir), "/tmp/trnsci-rand-gens-XXXXXX");
    if (!mkdtemp(tmp_dir)) {
        perror("mkdtemp");
        return 1;
    }
    const char *const args1[] = {"--cores", "1", NULL};
    const char *const args2[] = {"--cores", "2", NULL};
    if (th_daemon_start(&one_core, args1) != 0) {
        fprintf(stderr, "could not start trnscid --cores 1\n");
        return 1;
    }
    if (th_daemon_start(&two_cores, args2) != 0) {
        fprintf(stderr, "could not start trnscid --cores 2 (this test needs 2 CPUs)\n");
        th_daemon_stop(&one_core);
        return 1;
    }
    local_t.addr = two_cores.unix_addr;
    grpc_t.addr = two_cores.tcp_addr;
    const struct CMUnitTest tests[] = {
        /* first: before this process has talked to any daemon */
        ON(test_host_generators, local),  ON(test_known_answers, local),
        ON(test_known_answers, grpc),     ON(test_vs_scipy, local),
        ON(test_words_and_splits, local), ON(test_words_and_splits, grpc),
        ONCE(test_one_core_vs_two_cores), ON(test_bad_input, local),
        ON(test_bad_input, grpc),
    };
    int failed = cmocka_run_group_tests_name("rand_gens", tests, NULL, NULL);
    failed += th_daemon_stop_checked(&one_core, "trnscid --cores 1");
    failed += th_daemon_stop_checked(&two_cores, "trnscid --cores 2");
    th_remove_dir(tmp_dir);
    return failed ? 1 : 0;
}
