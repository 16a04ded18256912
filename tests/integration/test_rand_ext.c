/*
 * test_rand_ext.c — trnrand's extensions (exponential, gamma, beta, truncated
 * normal, Latin hypercube) and Sobol64 through real daemons, over the local
 * transport (shared-memory buffers) and gRPC over TCP, against independent
 * references:
 *
 *  - Kolmogorov-Smirnov tests against scipy.stats (expon, gamma, beta,
 *    truncnorm) run by rand_ref.py under Debian's /usr/bin/python3, with
 *    fixed seeds (deterministic), at significance level alpha = 1e-6: the
 *    statistic must stay below the Dvoretzky-Kiefer-Wolfowitz critical value
 *    sqrt(ln(2/alpha)/(2n)) (+1e-6 for the float grid). Float variants use
 *    parameters whose mass within a float ulp of an end is far below that
 *    value (beta with b < 1 piles mass at 1 that floats cannot resolve).
 *  - Exponential: every result bitwise against -log(u)/lambda with u from a
 *    Random123 loop written here (the documented words).
 *  - Sobol64: 64-bit points exactly against the points scipy's own 64-bit
 *    direction numbers give (scipy.stats.qmc.Sobol(d, scramble=False,
 *    bits=64)), and the uniform doubles against Sobol.random() within 2^-52
 *    (rand_ref.py); the top 32 bits equal to what the Sobol32 generator
 *    returns for the same dimensions and offset (necessary, not sufficient);
 *    the scrambled generator differs from the plain one by one constant per
 *    dimension.
 *  - Sobol32 of all 21201 dimensions exactly against scipy's random()
 *    (rand_ref.py sobol32), the direction-number getters against scipy's
 *    own direction numbers (rand_ref.py directions), the scramble-constant
 *    getters against the documented Philox words.
 *  - Latin hypercube: each stratum of each dimension exactly once, strictly
 *    inside it (checked in long double), for several sizes.
 *  - Split invariance: a call split in two (the second continuing the
 *    generator's offset) gives the bits of one call; the offset advances by
 *    the documented words (checked by the raw words that follow); large ops
 *    on a 1-core and a 2-core daemon (the latter running them as >= 2 shards)
 *    bitwise equal over both transports.
 *  - Bad input: non-positive or non-finite parameters, lo >= hi, dims 0,
 *    oversize Latin hypercubes, extensions on a quasi-random generator,
 *    trnrandGenerateLongLong on a 32-bit generator, trnrandGenerate on
 *    Sobol64, unknown generator types: the cuRAND-equivalent status, a
 *    message naming the argument, the offset unmoved, the daemons still up.
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

#include <Random123/philox.h>

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

static uint32_t ref_word(uint64_t seed, uint64_t j) {
    const uint64_t b = j / 4;
    const philox4x32_ctr_t c = {{(uint32_t)b, (uint32_t)(b >> 32), 0, 0}};
    const philox4x32_key_t k = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
    return philox4x32_R(10, c, k).v[j % 4];
}

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

/* ---- the extension calls ---------------------------------------------------------- */

typedef enum ext { E_EXPF, E_EXPD, E_GAMF, E_GAMD, E_BETF, E_BETD, E_TNF, E_TND, NEXT } ext;

static const struct {
    const char *name, *typ;
    size_t size;
} einfo[NEXT] = {
    {"GenerateExponential", "f32", 4},
    {"GenerateExponentialDouble", "f64", 8},
    {"GenerateGamma", "f32", 4},
    {"GenerateGammaDouble", "f64", 8},
    {"GenerateBeta", "f32", 4},
    {"GenerateBetaDouble", "f64", 8},
    {"GenerateTruncatedNormal", "f32", 4},
    {"GenerateTruncatedNormalDouble", "f64", 8},
};

/* p: lambda | shape, scale | a, b | mean, stddev, lo, hi */
static trnrandStatus_t ext_call(trnrandGenerator_t g, ext e, void *dev, size_t n, const double *p) {
    switch (e) {
    case E_EXPF: return trnrandGenerateExponential(g, dev, n, p[0]);
    case E_EXPD: return trnrandGenerateExponentialDouble(g, dev, n, p[0]);
    case E_GAMF: return trnrandGenerateGamma(g, dev, n, p[0], p[1]);
    case E_GAMD: return trnrandGenerateGammaDouble(g, dev, n, p[0], p[1]);
    case E_BETF: return trnrandGenerateBeta(g, dev, n, p[0], p[1]);
    case E_BETD: return trnrandGenerateBetaDouble(g, dev, n, p[0], p[1]);
    case E_TNF:
        return trnrandGenerateTruncatedNormal(g, dev, n, (float)p[0], (float)p[1], (float)p[2],
                                              (float)p[3]);
    case E_TND: return trnrandGenerateTruncatedNormalDouble(g, dev, n, p[0], p[1], p[2], p[3]);
    case NEXT: break;
    }
    return TRNRAND_STATUS_INTERNAL_ERROR;
}

static trnrandGenerator_t philox(uint64_t seed, uint64_t offset) {
    trnrandGenerator_t g = NULL;
    assert_int_equal(trnrandCreateGenerator(&g, TRNRAND_RNG_PSEUDO_PHILOX4_32_10),
                     TRNRAND_STATUS_SUCCESS);
    assert_int_equal(trnrandSetPseudoRandomGeneratorSeed(g, seed), TRNRAND_STATUS_SUCCESS);
    assert_int_equal(trnrandSetGeneratorOffset(g, offset), TRNRAND_STATUS_SUCCESS);
    return g;
}

/* n results of e from generator g, on the host. */
static void *ext_host(trnrandGenerator_t g, ext e, size_t n, const double *p) {
    void *dev = dev_alloc(n * einfo[e].size);
    const trnrandStatus_t st = ext_call(g, e, dev, n, p);
    if (st != TRNRAND_STATUS_SUCCESS)
        fail_msg("trnrand%s(n=%zu): status %d: %s", einfo[e].name, n, (int)st,
                 trnsciGetLastErrorMessage());
    return dev_take(dev, n * einfo[e].size);
}

/* Runs rand_ref.py with the arguments; fails the test (showing its output)
 * unless it exits 0. */
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

/* ---- Kolmogorov-Smirnov against scipy.stats -------------------------------------- */

typedef struct ks_case {
    ext e;
    const char *dist; /* rand_ref.py's name */
    double p[4];
    int np;
} ks_case;

static const ks_case KS[] = {
    {E_EXPD, "expon", {2.5}, 1},
    {E_EXPF, "expon", {0.125}, 1},
    {E_GAMD, "gamma", {0.3, 2.0}, 2},
    {E_GAMD, "gamma", {4.5, 0.5}, 2},
    {E_GAMF, "gamma", {1.0, 3.0}, 2},
    {E_GAMF, "gamma", {25.0, 1.0}, 2},
    {E_BETD, "beta", {0.5, 2.0}, 2},
    {E_BETD, "beta", {3.0, 0.2}, 2},
    {E_BETF, "beta", {2.0, 5.0}, 2},
    {E_TND, "truncnorm", {1.0, 2.0, -1.0, 8.0}, 4},
    {E_TND, "truncnorm", {0.0, 1.0, 2.5, INFINITY}, 4},
    {E_TND, "truncnorm", {0.0, 1.0, -6.0, -5.0}, 4},
    {E_TNF, "truncnorm", {0.5, 2.0, -INFINITY, 1.5}, 4},
};

static void test_ks_vs_scipy(void **state) {
    assert_int_equal(trnsciInit(addr_of(state)), trnsciSuccess);
    const size_t n = (size_t)1 << 17;
    for (size_t c = 0; c < sizeof(KS) / sizeof(KS[0]); c++) {
        trnrandGenerator_t g = philox(0xC0FFEE + c, 3 * c);
        void *h = ext_host(g, KS[c].e, n, KS[c].p);
        char path[320];
        snprintf(path, sizeof(path), "%s/ks%zu.bin", tmp_dir, c);
        write_file(path, h, n * einfo[KS[c].e].size);
        char ps[4][40];
        const char *args[10] = {"ks", path, einfo[KS[c].e].typ, KS[c].dist};
        for (int i = 0; i < KS[c].np; i++) {
            snprintf(ps[i], sizeof(ps[i]), "%.17g", KS[c].p[i]);
            args[4 + i] = ps[i];
        }
        args[4 + KS[c].np] = NULL;
        run_ref(args);
        free(h);
        assert_int_equal(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
    }
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- exponential values, splits and offsets --------------------------------------- */

/* The generator's next raw words are those at want_off. */
static void expect_offset(trnrandGenerator_t g, uint64_t seed, uint64_t want_off) {
    unsigned *dev = dev_alloc(16);
    assert_int_equal(trnrandGenerate(g, dev, 4), TRNRAND_STATUS_SUCCESS);
    uint32_t *h = dev_take(dev, 16);
    for (unsigned i = 0; i < 4; i++)
        if (h[i] != ref_word(seed, want_off + i))
            fail_msg("the generator is not at word %llu", (unsigned long long)want_off);
    free(h);
}

static void test_values_and_splits(void **state) {
    assert_int_equal(trnsciInit(addr_of(state)), trnsciSuccess);
    const uint64_t seed = 0x5eed, off = 13;
    /* exponential against the documented words */
    trnrandGenerator_t g = philox(seed, off);
    const double lam[1] = {0.75};
    const size_t n = 4099;
    float *ef = ext_host(g, E_EXPF, n, lam);
    double *ed = ext_host(g, E_EXPD, n, lam);
    for (size_t i = 0; i < n; i++) {
        const float u = (float)ref_word(seed, off + i) * 0x1p-32f + 0x1p-33f;
        assert_true(ef[i] == (float)((0.0 - log((double)u)) / 0.75));
        const uint64_t w = off + n + 2 * i;
        const uint64_t z = (uint64_t)ref_word(seed, w) ^ ((uint64_t)ref_word(seed, w + 1) << 21);
        const double ud = (double)z * 0x1p-53 + 0x1p-54;
        assert_true(ed[i] == (0.0 - log(ud)) / 0.75);
    }
    free(ef);
    free(ed);
    expect_offset(g, seed, off + 3 * n);
    assert_int_equal(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);

    /* every distribution: one call, then the same split in two calls;
     * the offset after each */
    static const double P[NEXT][4] = {
        {2.0}, {2.0}, {0.4, 1.5}, {7.0, 0.5}, {0.7, 0.9}, {2.0, 0.3}, {0, 1, -1, 2}, {3, 2, 3.5, 9},
    };
    static const unsigned words[NEXT] = {1, 2, 1, 1, 1, 1, 1, 1};
    for (int e = 0; e < NEXT; e++) {
        const size_t m = 5001, n1 = 1237;
        g = philox(seed + (uint64_t)e, off);
        unsigned char *whole = ext_host(g, (ext)e, m, P[e]);
        expect_offset(g, seed + (uint64_t)e, off + words[e] * m);
        assert_int_equal(trnrandSetGeneratorOffset(g, off), TRNRAND_STATUS_SUCCESS);
        unsigned char *a = ext_host(g, (ext)e, n1, P[e]);
        unsigned char *b = ext_host(g, (ext)e, m - n1, P[e]);
        assert_memory_equal(whole, a, n1 * einfo[e].size);
        assert_memory_equal(whole + n1 * einfo[e].size, b, (m - n1) * einfo[e].size);
        free(whole);
        free(a);
        free(b);
        assert_int_equal(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
    }
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- Latin hypercube -------------------------------------------------------------------- */

static void test_latin_hypercube(void **state) {
    assert_int_equal(trnsciInit(addr_of(state)), trnsciSuccess);
    static const size_t NP[] = {1, 5, 1000, 4096};
    static const unsigned ND[] = {1, 4};
    for (size_t a = 0; a < sizeof(NP) / sizeof(NP[0]); a++) {
        for (size_t b = 0; b < sizeof(ND) / sizeof(ND[0]); b++) {
            for (int f64 = 0; f64 <= 1; f64++) {
                const size_t n = NP[a], es = f64 ? 8 : 4;
                const unsigned dims = ND[b];
                trnrandGenerator_t g = philox(77 + a, 11 * b);
                void *dev = dev_alloc(n * dims * es);
                const trnrandStatus_t st =
                    f64 ? trnrandGenerateLatinHypercubeDouble(g, dev, n, dims)
                        : trnrandGenerateLatinHypercube(g, dev, n, dims);
                assert_int_equal(st, TRNRAND_STATUS_SUCCESS);
                unsigned char *h = dev_take(dev, n * dims * es);
                expect_offset(g, 77 + a, 11 * b + 2 * n * dims + 6 * dims);
                unsigned char *seen = calloc(n, 1);
                assert_non_null(seen);
                for (unsigned j = 0; j < dims; j++) {
                    memset(seen, 0, n);
                    for (size_t k = 0; k < n; k++) {
                        double x;
                        if (f64) {
                            memcpy(&x, h + 8 * (j * n + k), 8);
                        } else {
                            float xf;
                            memcpy(&xf, h + 4 * (j * n + k), 4);
                            x = xf;
                        }
                        assert_true(x > 0.0 && x < 1.0);
                        const long double xn = (long double)x * (long double)n;
                        const size_t s = (size_t)floorl(xn);
                        assert_true(s < n && xn > (long double)s);
                        assert_int_equal(seen[s], 0);
                        seen[s] = 1;
                    }
                }
                free(seen);
                free(h);
                assert_int_equal(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
            }
        }
    }
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- Sobol64 -------------------------------------------------------------------------- */

static trnrandGenerator_t quasi(trnrandRngType_t t, unsigned dims, uint64_t offset) {
    trnrandGenerator_t g = NULL;
    assert_int_equal(trnrandCreateGenerator(&g, t), TRNRAND_STATUS_SUCCESS);
    assert_int_equal(trnrandSetQuasiRandomGeneratorDimensions(g, dims), TRNRAND_STATUS_SUCCESS);
    assert_int_equal(trnrandSetGeneratorOffset(g, offset), TRNRAND_STATUS_SUCCESS);
    return g;
}

static void test_sobol64(void **state) {
    assert_int_equal(trnsciInit(addr_of(state)), trnsciSuccess);
    const unsigned dims = 6;
    const size_t per = 1000, n = dims * per;
    static const uint64_t offs[] = {0, 1000, (UINT64_C(1) << 40) + 123, UINT64_C(1) << 62};
    for (size_t o = 0; o < sizeof(offs) / sizeof(offs[0]); o++) {
        trnrandGenerator_t g = quasi(TRNRAND_RNG_QUASI_SOBOL64, dims, offs[o]);
        void *dev = dev_alloc(n * 8);
        assert_int_equal(trnrandGenerateLongLong(g, dev, n), TRNRAND_STATUS_SUCCESS);
        uint64_t *x = dev_take(dev, n * 8);
        char path[320], ds[16], ps[24], os[32];
        snprintf(path, sizeof(path), "%s/s64u.bin", tmp_dir);
        write_file(path, x, n * 8);
        snprintf(ds, sizeof(ds), "%u", dims);
        snprintf(ps, sizeof(ps), "%zu", per);
        snprintf(os, sizeof(os), "%llu", (unsigned long long)offs[o]);
        const char *args[] = {"sobol64", path, "u64", ds, ps, os, NULL};
        run_ref(args);
        /* continuing: the next call starts at offs[o] + per */
        dev = dev_alloc(dims * 8);
        assert_int_equal(trnrandGenerateLongLong(g, dev, dims), TRNRAND_STATUS_SUCCESS);
        uint64_t *next = dev_take(dev, dims * 8);
        trnrandGenerator_t g2 = quasi(TRNRAND_RNG_QUASI_SOBOL64, dims, offs[o] + per);
        dev = dev_alloc(dims * 8);
        assert_int_equal(trnrandGenerateLongLong(g2, dev, dims), TRNRAND_STATUS_SUCCESS);
        uint64_t *want = dev_take(dev, dims * 8);
        assert_memory_equal(next, want, dims * 8);
        free(next);
        free(want);
        assert_int_equal(trnrandDestroyGenerator(g2), TRNRAND_STATUS_SUCCESS);
        /* the top 32 bits are Sobol32's (for points below 2^32) */
        if (offs[o] + per <= (UINT64_C(1) << 32)) {
            trnrandGenerator_t s32 = quasi(TRNRAND_RNG_QUASI_SOBOL32, dims, offs[o]);
            dev = dev_alloc(n * 4);
            assert_int_equal(trnrandGenerate(s32, dev, n), TRNRAND_STATUS_SUCCESS);
            uint32_t *y = dev_take(dev, n * 4);
            for (size_t i = 0; i < n; i++)
                assert_int_equal((uint32_t)(x[i] >> 32), y[i]);
            free(y);
            assert_int_equal(trnrandDestroyGenerator(s32), TRNRAND_STATUS_SUCCESS);
        }
        /* scrambled: one constant per dimension */
        trnrandGenerator_t sc = quasi(TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL64, dims, offs[o]);
        dev = dev_alloc(n * 8);
        assert_int_equal(trnrandGenerateLongLong(sc, dev, n), TRNRAND_STATUS_SUCCESS);
        uint64_t *s = dev_take(dev, n * 8);
        for (unsigned j = 0; j < dims; j++) {
            const uint64_t c = s[j * per] ^ x[j * per];
            assert_true(c != 0);
            for (size_t k = 0; k < per; k++)
                assert_true((s[j * per + k] ^ x[j * per + k]) == c);
        }
        free(s);
        assert_int_equal(trnrandDestroyGenerator(sc), TRNRAND_STATUS_SUCCESS);
        free(x);
        /* uniform doubles against scipy's random() */
        if (o < 2) {
            assert_int_equal(trnrandSetGeneratorOffset(g, offs[o]), TRNRAND_STATUS_SUCCESS);
            dev = dev_alloc(n * 8);
            assert_int_equal(trnrandGenerateUniformDouble(g, dev, n), TRNRAND_STATUS_SUCCESS);
            double *u = dev_take(dev, n * 8);
            snprintf(path, sizeof(path), "%s/s64f.bin", tmp_dir);
            write_file(path, u, n * 8);
            const char *fargs[] = {"sobol64", path, "f64", ds, ps, os, NULL};
            run_ref(fargs);
            free(u);
        }
        assert_int_equal(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
    }
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- one core against two --------------------------------------------------------------- */

typedef struct big_case {
    int kind; /* an ext, or -1: Latin hypercube (double), -2: Sobol64 U64 */
    size_t n;
    double p[4];
} big_case;

/* Large enough that the 2-core daemon shards them (cost-weighted bytes over
 * 2 MiB), odd counts. */
static const big_case BIG[] = {
    {E_EXPF, ((size_t)1 << 20) + 3, {0.5}},
    {E_GAMD, ((size_t)1 << 17) + 1, {0.6, 2.0}},
    {E_BETF, ((size_t)1 << 16) + 5, {0.5, 0.5}},
    {E_TND, ((size_t)1 << 17) + 7, {0.0, 1.0, 31.0, 32.0}},
    {-1, (size_t)3 * 30011, {0}},
    {-2, (size_t)5 * ((1 << 18) + 1), {0}},
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

static size_t big_bytes(const big_case *b) {
    return b->n * (b->kind >= 0 ? einfo[b->kind].size : 8);
}

static void run_big(const char *addr, const char *status_addr, uint64_t min_shards,
                    void *out[NBIG]) {
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    for (int i = 0; i < NBIG; i++) {
        const big_case *b = &BIG[i];
        trnrandGenerator_t g = b->kind == -2 ? quasi(TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL64, 5, 99)
                                             : philox(0xB16 + (uint64_t)i, 7);
        void *dev = dev_alloc(big_bytes(b));
        assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
        const uint64_t before = shards_run(status_addr);
        trnrandStatus_t st;
        if (b->kind == -1)
            st = trnrandGenerateLatinHypercubeDouble(g, dev, b->n / 3, 3);
        else if (b->kind == -2)
            st = trnrandGenerateLongLong(g, dev, b->n);
        else
            st = ext_call(g, (ext)b->kind, dev, b->n, b->p);
        assert_int_equal(st, TRNRAND_STATUS_SUCCESS);
        assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
        const uint64_t shards = shards_run(status_addr) - before;
        if (shards < min_shards)
            fail_msg("big case %d ran as %llu shard(s), want at least %llu", i,
                     (unsigned long long)shards, (unsigned long long)min_shards);
        out[i] = dev_take(dev, big_bytes(b));
        assert_int_equal(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
    }
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

static void test_one_core_vs_two_cores(void **state) {
    (void)state;
    void *one[NBIG], *two_local[NBIG], *two_grpc[NBIG];
    run_big(one_core.unix_addr, one_core.unix_addr, 1, one);
    run_big(two_cores.unix_addr, two_cores.unix_addr, 2, two_local);
    run_big(two_cores.tcp_addr, two_cores.unix_addr, 2, two_grpc);
    for (int i = 0; i < NBIG; i++) {
        assert_memory_equal(one[i], two_local[i], big_bytes(&BIG[i]));
        assert_memory_equal(one[i], two_grpc[i], big_bytes(&BIG[i]));
        free(one[i]), free(two_local[i]), free(two_grpc[i]);
    }
}

/* ---- bad input ------------------------------------------------------------------------ */

static void test_bad_input(void **state) {
    assert_int_equal(trnsciInit(addr_of(state)), trnsciSuccess);
    const uint64_t seed = 99, off = 1001;
    trnrandGenerator_t g = philox(seed, off);
    void *dev = dev_alloc(4096);
    static const double bad[] = {0.0, -1.0, NAN, INFINITY, -INFINITY};
    for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
        const double x = bad[b];
        assert_int_equal(trnrandGenerateExponential(g, dev, 4, x), TRNRAND_STATUS_OUT_OF_RANGE);
        expect_message("lambda");
        assert_int_equal(trnrandGenerateExponentialDouble(g, dev, 4, x),
                         TRNRAND_STATUS_OUT_OF_RANGE);
        expect_message("lambda");
        assert_int_equal(trnrandGenerateGamma(g, dev, 4, x, 1.0), TRNRAND_STATUS_OUT_OF_RANGE);
        expect_message("shape");
        assert_int_equal(trnrandGenerateGammaDouble(g, dev, 4, 1.0, x),
                         TRNRAND_STATUS_OUT_OF_RANGE);
        expect_message("scale");
        assert_int_equal(trnrandGenerateBeta(g, dev, 4, x, 1.0), TRNRAND_STATUS_OUT_OF_RANGE);
        expect_message("a must be");
        assert_int_equal(trnrandGenerateBetaDouble(g, dev, 4, 1.0, x), TRNRAND_STATUS_OUT_OF_RANGE);
        expect_message("b must be");
        assert_int_equal(trnrandGenerateTruncatedNormalDouble(g, dev, 4, 0.0, x, -1.0, 1.0),
                         TRNRAND_STATUS_OUT_OF_RANGE);
        expect_message("stddev");
    }
    static const double lohi[][2] = {{1.0, 1.0}, {2.0, 1.0}, {NAN, 1.0}, {INFINITY, INFINITY}};
    for (size_t b = 0; b < sizeof(lohi) / sizeof(lohi[0]); b++) {
        assert_int_equal(trnrandGenerateTruncatedNormal(g, dev, 4, 0.0f, 1.0f, (float)lohi[b][0],
                                                        (float)lohi[b][1]),
                         TRNRAND_STATUS_OUT_OF_RANGE);
        expect_message("lo must be < hi");
    }
    assert_int_equal(trnrandGenerateTruncatedNormalDouble(g, dev, 4, NAN, 1.0, -1.0, 1.0),
                     TRNRAND_STATUS_OUT_OF_RANGE);
    expect_message("mean");
    assert_int_equal(trnrandGenerateLatinHypercube(g, dev, 4, 0), TRNRAND_STATUS_OUT_OF_RANGE);
    expect_message("dims must be >= 1");
    assert_int_equal(trnrandGenerateLatinHypercube(g, dev, ((size_t)1 << 20) + 1, 1),
                     TRNRAND_STATUS_OUT_OF_RANGE);
    expect_message("n_points");
    assert_int_equal(trnrandGenerateLatinHypercubeDouble(g, dev, SIZE_MAX / 2, 3),
                     TRNRAND_STATUS_OUT_OF_RANGE);
    expect_message("overflows");
    assert_int_equal(trnrandGenerateGammaDouble(g, dev, 4096, 1.0, 1.0),
                     TRNRAND_STATUS_OUT_OF_RANGE);
    expect_message("do not fit");
    assert_int_equal(trnrandGenerateLongLong(g, dev, 4), TRNRAND_STATUS_TYPE_ERROR);
    expect_message("64-bit");
    assert_int_equal(trnrandGenerateGamma(NULL, dev, 4, 1.0, 1.0), TRNRAND_STATUS_NOT_INITIALIZED);
    /* the stream end: offset + words must stay below 2^64 */
    assert_int_equal(trnrandSetGeneratorOffset(g, UINT64_MAX - 3), TRNRAND_STATUS_SUCCESS);
    assert_int_equal(trnrandGenerateGamma(g, dev, 4, 1.0, 1.0), TRNRAND_STATUS_OUT_OF_RANGE);
    expect_message("end of the stream");
    assert_int_equal(trnrandSetGeneratorOffset(g, off), TRNRAND_STATUS_SUCCESS);
    expect_offset(g, seed, off); /* no failed call moved it */

    /* quasi-random generators */
    trnrandGenerator_t q32 = quasi(TRNRAND_RNG_QUASI_SOBOL32, 2, 0);
    trnrandGenerator_t q64 = quasi(TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL64, 2, 0);
    const trnrandGenerator_t qs[2] = {q32, q64};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(trnrandGenerateExponential(qs[i], dev, 4, 1.0), TRNRAND_STATUS_TYPE_ERROR);
        expect_message("quasi-random");
        assert_int_equal(trnrandGenerateGammaDouble(qs[i], dev, 4, 1.0, 1.0),
                         TRNRAND_STATUS_TYPE_ERROR);
        assert_int_equal(trnrandGenerateBeta(qs[i], dev, 4, 1.0, 1.0), TRNRAND_STATUS_TYPE_ERROR);
        assert_int_equal(trnrandGenerateTruncatedNormalDouble(qs[i], dev, 4, 0, 1, -1, 1),
                         TRNRAND_STATUS_TYPE_ERROR);
        assert_int_equal(trnrandGenerateLatinHypercube(qs[i], dev, 2, 2),
                         TRNRAND_STATUS_TYPE_ERROR);
        assert_int_equal(trnrandGeneratePoisson(qs[i], dev, 4, 1.0), TRNRAND_STATUS_TYPE_ERROR);
    }
    assert_int_equal(trnrandGenerateLongLong(q32, dev, 4), TRNRAND_STATUS_TYPE_ERROR);
    expect_message("64-bit generator");
    assert_int_equal(trnrandGenerate(q64, dev, 4), TRNRAND_STATUS_TYPE_ERROR);
    expect_message("trnrandGenerateLongLong");
    assert_int_equal(trnrandGenerateLongLong(q64, dev, 3), TRNRAND_STATUS_LENGTH_NOT_MULTIPLE);
    assert_int_equal(trnrandSetQuasiRandomGeneratorDimensions(q64, 21202),
                     TRNRAND_STATUS_OUT_OF_RANGE);
    /* Sobol64's end: offset + points <= 2^64 - 1 */
    assert_int_equal(trnrandSetGeneratorOffset(q64, UINT64_MAX - 2), TRNRAND_STATUS_SUCCESS);
    assert_int_equal(trnrandGenerateLongLong(q64, dev, 6), TRNRAND_STATUS_OUT_OF_RANGE);
    expect_message("2^64");
    assert_int_equal(trnrandGenerateLongLong(q64, dev, 4), TRNRAND_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnrandDestroyGenerator(q32), TRNRAND_STATUS_SUCCESS);
    assert_int_equal(trnrandDestroyGenerator(q64), TRNRAND_STATUS_SUCCESS);
    /* unknown generator types */
    static const int junk[] = {TRNRAND_RNG_TEST, 205, 203 + 100, -7};
    for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
        trnrandGenerator_t x = NULL;
        assert_int_equal(trnrandCreateGenerator(&x, (trnrandRngType_t)junk[i]),
                         TRNRAND_STATUS_TYPE_ERROR);
        assert_null(x);
    }
    assert_int_equal(trnsciFree(dev), trnsciSuccess);
    assert_int_equal(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
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

/* ---- all 21201 dimensions and the Sobol tables ------------------------------------------ */

/* Sobol32 of every dimension (21201) through the daemon against scipy
 * (rand_ref.py sobol32, exact); a host generator gives the same bits; the
 * scrambled generator XORs the getter's constant per dimension; the getters'
 * direction numbers against scipy's (rand_ref.py directions) and their
 * scramble constants against the documented Philox words; bad sets and
 * NULL pointers; one dimension too many. */
static void test_sobol_all_dims(void **state) {
    assert_int_equal(trnsciInit(addr_of(state)), trnsciSuccess);
    const unsigned dims = TRNRAND_SOBOL32_MAX_DIMENSIONS;
    const size_t per = 8, n = (size_t)dims * per;
    const uint64_t offset = 3000;
    trnrandGenerator_t g = quasi(TRNRAND_RNG_QUASI_SOBOL32, dims, offset);
    void *dev = dev_alloc(n * 4);
    assert_int_equal(trnrandGenerate(g, dev, n), TRNRAND_STATUS_SUCCESS);
    uint32_t *x = dev_take(dev, n * 4);
    char path[320], path64[320], ds[16], ps[24], os[32];
    snprintf(path, sizeof(path), "%s/s32u.bin", tmp_dir);
    write_file(path, x, n * 4);
    snprintf(ds, sizeof(ds), "%u", dims);
    snprintf(ps, sizeof(ps), "%zu", per);
    snprintf(os, sizeof(os), "%llu", (unsigned long long)offset);
    const char *args[] = {"sobol32", path, ds, ps, os, NULL};
    run_ref(args);
    assert_int_equal(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);

    trnrandGenerator_t h = NULL;
    assert_int_equal(trnrandCreateGeneratorHost(&h, TRNRAND_RNG_QUASI_SOBOL32),
                     TRNRAND_STATUS_SUCCESS);
    assert_int_equal(trnrandSetQuasiRandomGeneratorDimensions(h, dims), TRNRAND_STATUS_SUCCESS);
    assert_int_equal(trnrandSetGeneratorOffset(h, offset), TRNRAND_STATUS_SUCCESS);
    uint32_t *hx = malloc(n * 4);
    assert_non_null(hx);
    assert_int_equal(trnrandGenerate(h, hx, n), TRNRAND_STATUS_SUCCESS);
    assert_memory_equal(hx, x, n * 4);
    free(hx);
    assert_int_equal(trnrandDestroyGenerator(h), TRNRAND_STATUS_SUCCESS);

    unsigned int *c32 = NULL;
    unsigned long long *c64 = NULL;
    assert_int_equal(trnrandGetScrambleConstants32(&c32), TRNRAND_STATUS_SUCCESS);
    assert_int_equal(trnrandGetScrambleConstants64(&c64), TRNRAND_STATUS_SUCCESS);
    const uint64_t s32 = UINT64_C(0x536F626F6C333221), s64 = UINT64_C(0x536F626F6C363421);
    for (unsigned j = 0; j < dims; j++) {
        assert_int_equal(c32[j], ref_word(s32, j));
        assert_true(c64[j] == ((uint64_t)ref_word(s64, 2 * (uint64_t)j) |
                               (uint64_t)ref_word(s64, 2 * (uint64_t)j + 1) << 32));
    }
    trnrandGenerator_t sc = quasi(TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL32, dims, offset);
    dev = dev_alloc(n * 4);
    assert_int_equal(trnrandGenerate(sc, dev, n), TRNRAND_STATUS_SUCCESS);
    uint32_t *sx = dev_take(dev, n * 4);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(sx[i] ^ x[i], c32[i / per]);
    free(sx);
    free(x);
    assert_int_equal(trnrandDestroyGenerator(sc), TRNRAND_STATUS_SUCCESS);

    trnrandDirectionVectors32_t *v32 = NULL, *v32s = NULL;
    trnrandDirectionVectors64_t *v64 = NULL, *v64s = NULL;
    assert_int_equal(trnrandGetDirectionVectors32(&v32, TRNRAND_DIRECTION_VECTORS_32_JOEKUO6),
                     TRNRAND_STATUS_SUCCESS);
    assert_int_equal(
        trnrandGetDirectionVectors32(&v32s, TRNRAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6),
        TRNRAND_STATUS_SUCCESS);
    assert_int_equal(trnrandGetDirectionVectors64(&v64, TRNRAND_DIRECTION_VECTORS_64_JOEKUO6),
                     TRNRAND_STATUS_SUCCESS);
    assert_int_equal(
        trnrandGetDirectionVectors64(&v64s, TRNRAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6),
        TRNRAND_STATUS_SUCCESS);
    assert_ptr_equal(v32, v32s);
    assert_ptr_equal(v64, v64s);
    snprintf(path, sizeof(path), "%s/dir32.bin", tmp_dir);
    snprintf(path64, sizeof(path64), "%s/dir64.bin", tmp_dir);
    write_file(path, v32, (size_t)dims * sizeof(*v32));
    write_file(path64, v64, (size_t)dims * sizeof(*v64));
    const char *dargs[] = {"directions", path, path64, ds, NULL};
    run_ref(dargs);

    /* bad sets, NULL outputs */
    trnrandDirectionVectors32_t *keep32 = v32;
    assert_int_equal(trnrandGetDirectionVectors32(&v32, TRNRAND_DIRECTION_VECTORS_64_JOEKUO6),
                     TRNRAND_STATUS_OUT_OF_RANGE);
    expect_message("set 103");
    assert_ptr_equal(v32, keep32);
    assert_int_equal(trnrandGetDirectionVectors64(&v64, (trnrandDirectionVectorSet_t)100),
                     TRNRAND_STATUS_OUT_OF_RANGE);
    expect_message("set 100");
    assert_int_equal(trnrandGetDirectionVectors32(NULL, TRNRAND_DIRECTION_VECTORS_32_JOEKUO6),
                     TRNRAND_STATUS_OUT_OF_RANGE);
    expect_message("vectors is NULL");
    assert_int_equal(trnrandGetDirectionVectors64(NULL, TRNRAND_DIRECTION_VECTORS_64_JOEKUO6),
                     TRNRAND_STATUS_OUT_OF_RANGE);
    assert_int_equal(trnrandGetScrambleConstants32(NULL), TRNRAND_STATUS_OUT_OF_RANGE);
    expect_message("constants is NULL");
    assert_int_equal(trnrandGetScrambleConstants64(NULL), TRNRAND_STATUS_OUT_OF_RANGE);

    trnrandGenerator_t q = NULL;
    assert_int_equal(trnrandCreateGenerator(&q, TRNRAND_RNG_QUASI_SOBOL64), TRNRAND_STATUS_SUCCESS);
    assert_int_equal(trnrandSetQuasiRandomGeneratorDimensions(q, dims + 1),
                     TRNRAND_STATUS_OUT_OF_RANGE);
    expect_message("num_dimensions must be 1 .. 21201");
    assert_int_equal(trnrandDestroyGenerator(q), TRNRAND_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

int main(void) {
    snprintf(tmp_dir, sizeof(tmp_dir), "/tmp/trnsci-rand-ext-XXXXXX");
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
        ON(test_ks_vs_scipy, local),       ON(test_ks_vs_scipy, grpc),
        ON(test_values_and_splits, local), ON(test_values_and_splits, grpc),
        ON(test_latin_hypercube, local),   ON(test_latin_hypercube, grpc),
        ON(test_sobol64, local),           ON(test_sobol64, grpc),
        ON(test_sobol_all_dims, local),    ON(test_sobol_all_dims, grpc),
        ONCE(test_one_core_vs_two_cores),  ON(test_bad_input, local),
        ON(test_bad_input, grpc),
    };
    int failed = cmocka_run_group_tests_name("rand_ext", tests, NULL, NULL);
    failed += th_daemon_stop_checked(&one_core, "trnscid --cores 1");
    failed += th_daemon_stop_checked(&two_cores, "trnscid --cores 2");
    th_remove_dir(tmp_dir);
    return failed ? 1 : 0;
}
