/*
 * test_rand.c — the CPU kernel of trnrand (kernels/cpu/rand.c) against the
 * stream definition of ops/op.h and docs/numerics.md ("trnrand streams").
 *
 * Checked:
 *  - Philox4x32-10 known answers: the three "philox4x32 10" lines of
 *    Random123's tests/kat_vectors through the header's philox4x32_R(10, ...)
 *    and philox4x32(...), and the one whose counter words 2, 3 are zero
 *    (counter 0, key 0) through the kernel, at every start lane.
 *  - Distribution known answers for seed 0, offset 0 (whose first four words
 *    are that KAT): uniform values computed exactly with rationals, normal and
 *    log-normal values with 200-bit mpmath, from the documented formulas
 *    (computed outside this code base). Uniforms must match bitwise; normals
 *    to within the rounding of the double computation (F64: 1e-13 absolute,
 *    relative for log-normal) or one float ulp (F32).
 *  - Raw words against a one-Philox-call-per-word loop written here, for many
 *    seeds, offsets not multiple of 4, offsets past 2^34 (counter word 1 in
 *    use), offsets near 2^64 and one that wraps modulo 2^64.
 *  - Every element of every distribution against a per-element reference
 *    written here from the documented formulas (bitwise: same arithmetic, same
 *    libm), over several chunks of the kernel.
 *  - Sharding: nshards = 2, 3, 7, 64 bitwise equal to nshards = 1 for every
 *    distribution, odd and even n, odd offsets; each shard writes exactly the
 *    elements of its range (pairs split by trn_cpu_shard_range, boundaries
 *    even) and nothing past n. Splitting a request into calls (offset advanced
 *    by w per element) gives the same bits.
 *  - Dispatch through the CPU backend (engine: cores); an unknown
 *    distribution is TRN_KSTATUS_UNSUPPORTED; n = 0 with dst NULL is a no-op.
 *  - Statistics, with fixed seeds so they are deterministic: uniforms lie in
 *    (0, 1]; sample mean within 5 sigma/sqrt(n) and sample variance within
 *    5 sigma^2 sqrt(2/n) of the true values; Kolmogorov-Smirnov statistic D_n
 *    against the exact CDF (normal: erfc) below the alpha = 1e-6 critical
 *    value. By the Dvoretzky-Kiefer-Wolfowitz inequality with Massart's
 *    constant, P(D_n > eps) <= 2 exp(-2 n eps^2) for every n, so
 *    eps = sqrt(ln(2/alpha) / (2n)) = 2.6934/sqrt(n) at alpha = 1e-6; 1e-6 is
 *    added for the float grid (the CDF rises at most ~2^-21 between
 *    neighbouring float outputs) and the truncated normal tail (u1 >= 2^-33,
 *    mass <= 2^-33).
 *  - Poisson (inversion of UNIFORM_F64's u): every element of many calls
 *    against an independent reference CDF computed here in long double (pmf
 *    recurrence from k = 0 with a running binary exponent, normalised), for
 *    lambda from 1e-3 to the limit 1e8: the returned k must satisfy
 *    F(k-1) < u + tol and F(k) >= u - tol with tol the accuracy bound of
 *    docs/numerics.md, 4 L 2^-53 + 2^-80, L = 21.1 sqrt(lambda) + 30; and how
 *    many differ from the reference inversion at all is printed (expected 0).
 *    Shards 1/2/3/7/64 and call splits bitwise; mean within 5 sqrt(lambda/n),
 *    variance within 5 sqrt((lambda + 2 lambda^2)/n) (Var(s^2) of a Poisson
 *    sample is (mu4 - sigma^4 (n-3)/(n-1))/n, mu4 = lambda + 3 lambda^2);
 *    Kolmogorov-Smirnov at every integer against the exact CDF with the same
 *    DKW critical value (conservative for a discrete law); and a chi-square
 *    test over cells of expected count >= 50 (tails pooled) at alpha = 1e-6,
 *    critical value from the Wilson-Hilferty approximation
 *    df (1 - 2/(9 df) + z sqrt(2/(9 df)))^3 with z = 4.7534 (upper 1e-6
 *    normal quantile), plus 10% for the approximation.
 *  - Sobol32 (kernels/cpu/sobol.c): raw points against golden values from
 *    scipy.stats.qmc.Sobol (dimensions 0 .. 15, points 0 .. 23; dimensions
 *    0, 1, 2, 100, 511, 1023 at points 1000 .. 1007); the (0, m, 1)-net
 *    property of every dimension's first 2^m points, m <= 10, all 1024
 *    dimensions; every element of every distribution of both generators
 *    against a direct (non-incremental) reference, for 1/3/7/1024
 *    dimensions and offsets up to the last points before 2^32; shards
 *    2/3/7 bitwise equal to one, each writing exactly its range; call
 *    splits (offset advanced by points); the conversions at their ends; the
 *    scramble constants against the Philox reference; the inverse normal
 *    CDF against scipy.special.ndtri and its antisymmetry; refusals.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
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

#include "kernels/backend.h"
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/sobol.h"

#define GUARD 8         /* elements after n that must stay untouched */
#define FILL_BYTE 0xA5u /* what the buffers hold before a run */

static const trn_rand_dist ALL_DISTS[] = {
    TRN_RAND_U32,        TRN_RAND_UNIFORM_F32,   TRN_RAND_UNIFORM_F64,   TRN_RAND_NORMAL_F32,
    TRN_RAND_NORMAL_F64, TRN_RAND_LOGNORMAL_F32, TRN_RAND_LOGNORMAL_F64,
};
#define NDISTS (sizeof(ALL_DISTS) / sizeof(ALL_DISTS[0]))

/* ---- the reference: one Philox call per word, formulas re-typed from docs */

static uint32_t ref_word(uint64_t seed, uint64_t j) {
    const uint64_t b = j / 4;
    philox4x32_ctr_t c = {{(uint32_t)b, (uint32_t)(b >> 32), 0, 0}};
    philox4x32_key_t k = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
    return philox4x32_R(10, c, k).v[j % 4];
}

static float ref_u32f(uint32_t x) {
    return (float)x * 0x1p-32f + 0x1p-33f;
}

static double ref_u64f(uint32_t lo, uint32_t hi) {
    const uint64_t z = (uint64_t)lo ^ ((uint64_t)hi << 21);
    return (double)z * 0x1p-53 + 0x1p-54;
}

static int is_pair_dist(trn_rand_dist d) {
    return d == TRN_RAND_NORMAL_F32 || d == TRN_RAND_NORMAL_F64 || d == TRN_RAND_LOGNORMAL_F32 ||
           d == TRN_RAND_LOGNORMAL_F64;
}

/* Element i of the op, stored into out (element size bytes). */
static void ref_element(const trn_rand_desc *d, size_t i, void *out) {
    const uint64_t w = trn_rand_words_per_element(d->dist);
    const uint64_t j = d->offset + w * (uint64_t)i;
    switch (d->dist) {
    case TRN_RAND_U32: {
        const uint32_t v = ref_word(d->seed, j);
        memcpy(out, &v, 4);
        return;
    }
    case TRN_RAND_UNIFORM_F32: {
        const float v = ref_u32f(ref_word(d->seed, j));
        memcpy(out, &v, 4);
        return;
    }
    case TRN_RAND_UNIFORM_F64: {
        const double v = ref_u64f(ref_word(d->seed, j), ref_word(d->seed, j + 1));
        memcpy(out, &v, 8);
        return;
    }
    default: break;
    }
    /* Pairs: the pair's first word, then u1 and u2. */
    const uint64_t p = d->offset + w * (uint64_t)(i & ~(size_t)1);
    double u1, u2;
    if (w == 1) {
        u1 = (double)ref_u32f(ref_word(d->seed, p));
        u2 = (double)ref_u32f(ref_word(d->seed, p + 1));
    } else {
        u1 = ref_u64f(ref_word(d->seed, p), ref_word(d->seed, p + 1));
        u2 = ref_u64f(ref_word(d->seed, p + 2), ref_word(d->seed, p + 3));
    }
    const double r = sqrt(-2.0 * log(u1));
    const double t = 6.283185307179586476925286766559 * u2;
    const double z = (i & 1) ? r * sin(t) : r * cos(t);
    double v = d->mean + d->stddev * z;
    if (d->dist == TRN_RAND_LOGNORMAL_F32 || d->dist == TRN_RAND_LOGNORMAL_F64)
        v = exp(v);
    if (d->dist == TRN_RAND_NORMAL_F32 || d->dist == TRN_RAND_LOGNORMAL_F32) {
        const float f = (float)v;
        memcpy(out, &f, 4);
    } else {
        memcpy(out, &v, 8);
    }
}

/* ---- running the kernel ------------------------------------------------- */

static trn_rand_desc mkdesc(trn_rand_dist dist, uint64_t seed, uint64_t offset, size_t n) {
    trn_rand_desc d;
    memset(&d, 0, sizeof(d));
    d.dist = dist;
    d.seed = seed;
    d.offset = offset;
    d.mean = 0.25;
    d.stddev = 1.75;
    d.n = n;
    return d;
}

static int guard_intact(const unsigned char *buf, size_t from, size_t to) {
    for (size_t b = from; b < to; b++)
        if (buf[b] != FILL_BYTE)
            return 0;
    return 1;
}

/* Runs all shards of d (into a fresh buffer of n + GUARD elements filled
 * with FILL_BYTE), checks the guard, returns the buffer (caller frees). */
static unsigned char *run_all(trn_rand_desc d, int nshards) {
    const size_t es = trn_rand_element_size(d.dist);
    unsigned char *buf = malloc((d.n + GUARD) * es);
    assert_non_null(buf);
    memset(buf, FILL_BYTE, (d.n + GUARD) * es);
    d.dst = buf;
    for (int s = 0; s < nshards; s++)
        assert_int_equal(trn_cpu_rand(&d, NULL, s, nshards), TRN_KSTATUS_OK);
    assert_true(guard_intact(buf, d.n * es, (d.n + GUARD) * es));
    return buf;
}

/* ---- known answers ------------------------------------------------------ */

typedef struct kat {
    uint32_t ctr[4], key[2], out[4];
} kat;

/* Random123 tests/kat_vectors, the "philox4x32 10" lines (CTR, KEY, EXPECTED). */
static const kat PHILOX_KATS[] = {
    {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

static void test_philox_kat(void **state) {
    (void)state;
    for (size_t t = 0; t < sizeof(PHILOX_KATS) / sizeof(PHILOX_KATS[0]); t++) {
        const kat *k = &PHILOX_KATS[t];
        philox4x32_ctr_t c = {{k->ctr[0], k->ctr[1], k->ctr[2], k->ctr[3]}};
        philox4x32_key_t key = {{k->key[0], k->key[1]}};
        const philox4x32_ctr_t r10 = philox4x32_R(10, c, key);
        const philox4x32_ctr_t rdef = philox4x32(c, key);
        for (int l = 0; l < 4; l++) {
            assert_int_equal(r10.v[l], k->out[l]);
            assert_int_equal(rdef.v[l], k->out[l]);
        }
    }
    /* The zero-counter line through the kernel (seed = key, offset = 4 *
     * counter), starting at every lane of the block. */
    for (unsigned start = 0; start < 4; start++) {
        trn_rand_desc d = mkdesc(TRN_RAND_U32, 0, start, 4 - start);
        uint32_t *out = (uint32_t *)run_all(d, 1);
        for (unsigned l = start; l < 4; l++)
            assert_int_equal(out[l - start], PHILOX_KATS[0].out[l]);
        free(out);
    }
}

/* Closest float/double neighbour distance of x (one ulp). */
static double ulp_f32(double x) {
    const float f = (float)fabs(x);
    return (double)nextafterf(f, INFINITY) - (double)f;
}

static void test_distribution_kat(void **state) {
    (void)state;
    /* seed 0, offset 0: words 6627e8d5 e169c58d bc57ac4c 9b00dbd8. */
    static const float uf32[4] = {0x1.989fa4p-2f, 0x1.c2d38cp-1f, 0x1.78af58p-1f, 0x1.3601b8p-1f};
    static const double uf64[2] = {0x1.c2d38d787e8d6p-1, 0x1.3601bc757ac4cp-1};
    /* mean 0.5, stddev 2 (200-bit mpmath from the exact u values). */
    static const double n32[4] = {2.4822756428770759798, -1.3493248183328353588,
                                  -0.73521791192330058501, -0.46413728437798804385};
    static const double n64[2] = {-0.29533427263007065429, -0.12079147200075301888};
    static const double ln32[4] = {11.968469413852347617, 0.25941535402053724263,
                                   0.47940098040207254992, 0.62867724097850420315};
    static const double ln64[2] = {0.74428275252566844264, 0.88621874174719125449};

    trn_rand_desc d = mkdesc(TRN_RAND_UNIFORM_F32, 0, 0, 4);
    float *f = (float *)run_all(d, 1);
    assert_memory_equal(f, uf32, sizeof(uf32));
    free(f);
    d = mkdesc(TRN_RAND_UNIFORM_F64, 0, 0, 2);
    double *g = (double *)run_all(d, 1);
    assert_memory_equal(g, uf64, sizeof(uf64));
    free(g);

    d = mkdesc(TRN_RAND_NORMAL_F32, 0, 0, 4);
    d.mean = 0.5;
    d.stddev = 2.0;
    f = (float *)run_all(d, 1);
    for (int i = 0; i < 4; i++)
        assert_true(fabs((double)f[i] - n32[i]) <= ulp_f32(n32[i]));
    free(f);
    d.dist = TRN_RAND_LOGNORMAL_F32;
    f = (float *)run_all(d, 1);
    for (int i = 0; i < 4; i++)
        assert_true(fabs((double)f[i] - ln32[i]) <= ulp_f32(ln32[i]));
    free(f);
    d.dist = TRN_RAND_NORMAL_F64;
    d.n = 2;
    g = (double *)run_all(d, 1);
    for (int i = 0; i < 2; i++)
        assert_true(fabs(g[i] - n64[i]) <= 1e-13);
    free(g);
    d.dist = TRN_RAND_LOGNORMAL_F64;
    g = (double *)run_all(d, 1);
    for (int i = 0; i < 2; i++)
        assert_true(fabs(g[i] - ln64[i]) <= 1e-13 * ln64[i]);
    free(g);
}

/* The conversions' ends, as docs/numerics.md states them (the kernel matches
 * these functions bitwise, test_elements_vs_reference). */
static void test_uniform_formula_ends(void **state) {
    (void)state;
    assert_true(ref_u32f(0) == 0x1p-33f);
    assert_true(ref_u32f(0xffffffffu) == 1.0f);
    assert_true(ref_u32f(0xffffff80u) == 1.0f);           /* rounds to 2^32 */
    assert_true(ref_u32f(0xffffff7fu) == 0x1.fffffep-1f); /* 1 - 2^-24 */
    assert_true(ref_u64f(0, 0) == 0x1p-54);
    assert_true(ref_u64f(0x1fffffu, 0xffffffffu) == 1.0); /* z = 2^53 - 1 */
    assert_true(ref_u64f(0x1ffffeu, 0xffffffffu) == 0x1.ffffffffffffep-1);
    /* All of (lo, hi) reach z's 53 bits: hi's low 11 bits overlap lo's top. */
    assert_true(ref_u64f(0x80000000u, 0) == 0x1p-22 + 0x1p-54);
    assert_true(ref_u64f(0, 1) == 0x1p-32 + 0x1p-54);
}

/* ---- the stream ---------------------------------------------------------- */

static void test_words_vs_reference(void **state) {
    (void)state;
    static const uint64_t seeds[] = {
        0, 1, 0x299f31d0a4093822ull, 0xdeadbeefcafebabeull, UINT64_MAX, (uint64_t)1 << 32};
    static const uint64_t offsets[] = {0,
                                       1,
                                       2,
                                       3,
                                       5,
                                       4095,
                                       (uint64_t)1 << 34,
                                       ((uint64_t)1 << 34) + 3,
                                       ((uint64_t)7 << 40) + 1,
                                       UINT64_MAX - 1000,
                                       UINT64_MAX - 7};
    static const size_t counts[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 63, 1023, 1024, 1025, 2500};
    for (size_t a = 0; a < sizeof(seeds) / sizeof(seeds[0]); a++)
        for (size_t b = 0; b < sizeof(offsets) / sizeof(offsets[0]); b++)
            for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
                const trn_rand_desc d = mkdesc(TRN_RAND_U32, seeds[a], offsets[b], counts[c]);
                uint32_t *out = (uint32_t *)run_all(d, 1);
                for (size_t i = 0; i < d.n; i++)
                    assert_int_equal(out[i], ref_word(d.seed, d.offset + i));
                free(out);
            }
    /* Past 2^34 words the counter's second word is in use. */
    assert_int_not_equal(((uint64_t)1 << 34) / 4 >> 32, 0);
    /* Word indices are taken modulo 2^64: this call wraps to word 0. */
    const trn_rand_desc d = mkdesc(TRN_RAND_U32, 42, UINT64_MAX - 2, 8);
    uint32_t *out = (uint32_t *)run_all(d, 1);
    for (size_t i = 0; i < 8; i++)
        assert_int_equal(out[i], ref_word(42, UINT64_MAX - 2 + i));
    assert_int_equal(out[3], ref_word(42, 0));
    free(out);
}

static void test_elements_vs_reference(void **state) {
    (void)state;
    static const uint64_t seeds[] = {0, 7, 0x0123456789abcdefull, UINT64_MAX};
    static const uint64_t offsets[] = {
        0, 1, 2, 3, 6, 1001, ((uint64_t)1 << 36) + 5, UINT64_MAX - 20000};
    static const size_t counts[] = {0, 2, 3, 6, 1024, 2050, 4097};
    unsigned char want[8];
    for (size_t k = 0; k < NDISTS; k++)
        for (size_t a = 0; a < sizeof(seeds) / sizeof(seeds[0]); a++)
            for (size_t b = 0; b < sizeof(offsets) / sizeof(offsets[0]); b++)
                for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
                    const trn_rand_desc d = mkdesc(ALL_DISTS[k], seeds[a], offsets[b], counts[c]);
                    const size_t es = trn_rand_element_size(d.dist);
                    unsigned char *out = run_all(d, 1);
                    for (size_t i = 0; i < d.n; i++) {
                        ref_element(&d, i, want);
                        assert_memory_equal(out + i * es, want, es);
                    }
                    free(out);
                }
}

/* ---- shards and call splits --------------------------------------------- */

/* The documented split: ceil(n/2) pairs through trn_cpu_shard_range. */
static void doc_shard_range(size_t n, int s, int ns, size_t *lo, size_t *hi) {
    size_t plo, phi;
    trn_cpu_shard_range(n / 2 + n % 2, s, ns, &plo, &phi);
    *lo = 2 * plo < n ? 2 * plo : n;
    *hi = 2 * phi < n ? 2 * phi : n;
}

static void test_shards_bitwise(void **state) {
    (void)state;
    static const size_t counts[] = {0, 1, 2, 3, 5, 17, 1000, 1001, 2049, 5003};
    static const uint64_t offsets[] = {0, 1, 3, 7, ((uint64_t)1 << 40) + 3};
    static const int nshards[] = {2, 3, 7, 64};
    for (size_t k = 0; k < NDISTS; k++)
        for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++)
            for (size_t o = 0; o < sizeof(offsets) / sizeof(offsets[0]); o++) {
                trn_rand_desc d = mkdesc(ALL_DISTS[k], 0x5eed0000ull + c, offsets[o], counts[c]);
                const size_t es = trn_rand_element_size(d.dist);
                unsigned char *one = run_all(d, 1);
                for (size_t t = 0; t < sizeof(nshards) / sizeof(nshards[0]); t++) {
                    const int ns = nshards[t];
                    unsigned char *many = run_all(d, ns);
                    if (d.n > 0)
                        assert_memory_equal(one, many, d.n * es);
                    free(many);
                    /* Each shard alone: exactly its range, boundaries even. */
                    size_t covered = 0;
                    for (int s = 0; s < ns; s++) {
                        size_t lo, hi;
                        doc_shard_range(d.n, s, ns, &lo, &hi);
                        assert_true(lo % 2 == 0 || lo == d.n);
                        assert_true(hi % 2 == 0 || hi == d.n);
                        assert_true(lo <= hi && hi <= d.n);
                        assert_int_equal(lo, covered);
                        covered = hi;
                        unsigned char *buf = malloc((d.n + GUARD) * es);
                        assert_non_null(buf);
                        memset(buf, FILL_BYTE, (d.n + GUARD) * es);
                        d.dst = buf;
                        assert_int_equal(trn_cpu_rand(&d, NULL, s, ns), TRN_KSTATUS_OK);
                        assert_true(guard_intact(buf, 0, lo * es));
                        if (hi > lo)
                            assert_memory_equal(buf + lo * es, one + lo * es, (hi - lo) * es);
                        assert_true(guard_intact(buf, hi * es, (d.n + GUARD) * es));
                        free(buf);
                    }
                    assert_int_equal(covered, d.n);
                }
                free(one);
            }
}

/* Generating n elements in one call or in pieces (each piece's offset
 * advanced by w words per element before it) gives the same bits. */
static void test_call_splits(void **state) {
    (void)state;
    const size_t n = 3001;
    static const size_t cuts[] = {1, 2, 3, 4, 5, 1022, 1023, 1024, 1025, 2048, 3000};
    for (size_t k = 0; k < NDISTS; k++) {
        const trn_rand_desc d = mkdesc(ALL_DISTS[k], 99, 13, n);
        const size_t es = trn_rand_element_size(d.dist);
        const uint64_t w = trn_rand_words_per_element(d.dist);
        unsigned char *whole = run_all(d, 1);
        for (size_t c = 0; c < sizeof(cuts) / sizeof(cuts[0]); c++) {
            const size_t cut = cuts[c];
            if (is_pair_dist(d.dist) && cut % 2)
                continue; /* pairs are never cut */
            trn_rand_desc a = d, b = d;
            a.n = cut;
            b.n = n - cut;
            b.offset = d.offset + w * cut;
            unsigned char *pa = run_all(a, 1), *pb = run_all(b, 3);
            assert_memory_equal(pa, whole, cut * es);
            assert_memory_equal(pb, whole + cut * es, (n - cut) * es);
            free(pa);
            free(pb);
        }
        free(whole);
    }
}

static void test_backend_and_edges(void **state) {
    (void)state;
    trn_backend *be = trn_backend_cpu_create();
    assert_non_null(be);
    trn_op_desc op;
    memset(&op, 0, sizeof(op));
    op.kind = TRN_OP_RAND;
    op.u.rand = mkdesc(TRN_RAND_NORMAL_F64, 5, 3, 100);
    assert_int_equal(be->engine_for(be, &op), TRN_ENGINE_CORE);
    unsigned char *want = run_all(op.u.rand, 1);
    double got[100];
    op.u.rand.dst = got;
    for (int s = 0; s < 4; s++)
        assert_int_equal(be->run(be, &op, NULL, s, 4), TRN_KSTATUS_OK);
    assert_memory_equal(got, want, sizeof(got));
    free(want);
    be->destroy(be);

    /* n = 0 with no buffer touches nothing. */
    for (size_t k = 0; k < NDISTS; k++) {
        trn_rand_desc d = mkdesc(ALL_DISTS[k], 1, 1, 0);
        d.dst = NULL;
        assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_OK);
        assert_int_equal(trn_cpu_rand(&d, NULL, 2, 3), TRN_KSTATUS_OK);
    }
    trn_rand_desc d = mkdesc((trn_rand_dist)99, 1, 1, 4);
    uint32_t sink[4];
    d.dst = sink;
    assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_UNSUPPORTED);
}

/* ---- statistics ----------------------------------------------------------- */

#define NSTAT ((size_t)1 << 20)

/* Output of d (n elements) as doubles (caller frees). */
static double *sample(trn_rand_dist dist, uint64_t seed, uint64_t offset, double mean,
                      double stddev, size_t n) {
    trn_rand_desc d = mkdesc(dist, seed, offset, n);
    d.mean = mean;
    d.stddev = stddev;
    unsigned char *raw = run_all(d, 4);
    double *x = malloc(n * sizeof(double));
    assert_non_null(x);
    for (size_t i = 0; i < n; i++) {
        if (trn_rand_element_size(dist) == 4) {
            float f;
            memcpy(&f, raw + 4 * i, 4);
            x[i] = (double)f;
        } else {
            memcpy(&x[i], raw + 8 * i, 8);
        }
    }
    free(raw);
    return x;
}

static int cmp_double(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef double (*cdf_fn)(double x, double mean, double stddev);

static double cdf_uniform(double x, double mean, double stddev) {
    (void)mean;
    (void)stddev;
    return x <= 0 ? 0 : x >= 1 ? 1 : x;
}

static double cdf_normal(double x, double mean, double stddev) {
    return 0.5 * erfc(-(x - mean) / (stddev * sqrt(2.0)));
}

static double cdf_lognormal(double x, double mean, double stddev) {
    return x <= 0 ? 0 : cdf_normal(log(x), mean, stddev);
}

/* D_n = sup |F_n - F| of x[0..n) with stride (sorts a copy). */
static double ks_stat(const double *x, size_t n, size_t stride, cdf_fn f, double mean,
                      double stddev) {
    double *s = malloc(n * sizeof(double));
    assert_non_null(s);
    for (size_t i = 0; i < n; i++)
        s[i] = x[i * stride];
    qsort(s, n, sizeof(double), cmp_double);
    double dmax = 0;
    for (size_t i = 0; i < n; i++) {
        const double F = f(s[i], mean, stddev);
        const double up = (double)(i + 1) / (double)n - F, down = F - (double)i / (double)n;
        dmax = fmax(dmax, fmax(up, down));
    }
    free(s);
    return dmax;
}

/* DKW-Massart critical value at alpha = 1e-6, plus the 1e-6 slack above. */
static double ks_crit(size_t n) {
    return sqrt(log(2.0 / 1e-6) / (2.0 * (double)n)) + 1e-6;
}

static void test_uniform_range(void **state) {
    (void)state;
    static const trn_rand_dist dists[] = {TRN_RAND_UNIFORM_F32, TRN_RAND_UNIFORM_F64};
    for (size_t k = 0; k < 2; k++)
        for (uint64_t seed = 1; seed <= 2; seed++) {
            double *x = sample(dists[k], seed, 3, 0, 1, NSTAT);
            for (size_t i = 0; i < NSTAT; i++)
                assert_true(x[i] > 0.0 && x[i] <= 1.0);
            free(x);
        }
}

static void check_moments(const double *x, size_t n, double mean, double var) {
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    const double m = s / (double)n;
    double q = 0;
    for (size_t i = 0; i < n; i++)
        q += (x[i] - m) * (x[i] - m);
    const double v = q / (double)(n - 1);
    assert_true(fabs(m - mean) < 5.0 * sqrt(var / (double)n));
    /* sd of the sample variance: var sqrt(2/(n-1)) for a normal sample; for a
     * uniform (kurtosis 1.8) it is smaller, so the bound is conservative. */
    assert_true(fabs(v - var) < 5.0 * var * sqrt(2.0 / (double)(n - 1)));
}

static void test_moments(void **state) {
    (void)state;
    const double mu = 1.5, sd = 2.5;
    double *x = sample(TRN_RAND_UNIFORM_F32, 11, 0, 0, 1, NSTAT);
    check_moments(x, NSTAT, 0.5, 1.0 / 12.0);
    free(x);
    x = sample(TRN_RAND_UNIFORM_F64, 12, 1, 0, 1, NSTAT);
    check_moments(x, NSTAT, 0.5, 1.0 / 12.0);
    free(x);
    x = sample(TRN_RAND_NORMAL_F32, 13, 2, mu, sd, NSTAT);
    check_moments(x, NSTAT, mu, sd * sd);
    free(x);
    x = sample(TRN_RAND_NORMAL_F64, 14, 3, mu, sd, NSTAT);
    check_moments(x, NSTAT, mu, sd * sd);
    free(x);
    /* log of a log-normal sample is normal(mu, sd). */
    const double lmu = 0.1, lsd = 0.75;
    static const trn_rand_dist logs[] = {TRN_RAND_LOGNORMAL_F32, TRN_RAND_LOGNORMAL_F64};
    for (size_t k = 0; k < 2; k++) {
        x = sample(logs[k], 15 + k, 5, lmu, lsd, NSTAT);
        for (size_t i = 0; i < NSTAT; i++) {
            assert_true(x[i] > 0);
            x[i] = log(x[i]);
        }
        check_moments(x, NSTAT, lmu, lsd * lsd);
        free(x);
    }
}

static void test_kolmogorov_smirnov(void **state) {
    (void)state;
    static const struct {
        trn_rand_dist dist;
        cdf_fn cdf;
        double mean, stddev;
    } cases[] = {
        {TRN_RAND_UNIFORM_F32, cdf_uniform, 0, 1},
        {TRN_RAND_UNIFORM_F64, cdf_uniform, 0, 1},
        {TRN_RAND_NORMAL_F32, cdf_normal, 0, 1},
        {TRN_RAND_NORMAL_F64, cdf_normal, 0, 1},
        {TRN_RAND_NORMAL_F32, cdf_normal, -3, 0.5},
        {TRN_RAND_NORMAL_F64, cdf_normal, 10, 4},
        {TRN_RAND_LOGNORMAL_F32, cdf_lognormal, 0, 1},
        {TRN_RAND_LOGNORMAL_F64, cdf_lognormal, 0.5, 0.25},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        double *x = sample(cases[c].dist, 2024 + c, 17, cases[c].mean, cases[c].stddev, NSTAT);
        const double d = ks_stat(x, NSTAT, 1, cases[c].cdf, cases[c].mean, cases[c].stddev);
        print_message("KS dist %d mean %g sd %g: D = %.3e sqrt(n) D = %.3f (crit %.3e)\n",
                      (int)cases[c].dist, cases[c].mean, cases[c].stddev, d,
                      d * sqrt((double)NSTAT), ks_crit(NSTAT));
        assert_true(d < ks_crit(NSTAT));
        if (is_pair_dist(cases[c].dist)) {
            /* The cos half and the sin half of the pairs on their own. */
            for (size_t half = 0; half < 2; half++) {
                const double dh =
                    ks_stat(x + half, NSTAT / 2, 2, cases[c].cdf, cases[c].mean, cases[c].stddev);
                assert_true(dh < ks_crit(NSTAT / 2));
            }
        }
        free(x);
    }
}

/* ---- Poisson -------------------------------------------------------------- */

static const double POISSON_LAMBDAS[] = {1e-3, 0.5, 1.0, 7.5, 30.0, 100.0, 1e4, 1e6, 1e8};
#define NPOISSON (sizeof(POISSON_LAMBDAS) / sizeof(POISSON_LAMBDAS[0]))

/* The reference CDF F(k) of Poisson(lambda) for k in [lo, lo + len), in
 * long double: p(k) / p(0) = prod_{j<=k} lambda / j from k = 0, kept as a
 * mantissa and a binary exponent (rescaled by 2^1000 whenever it leaves
 * [2^-1000, 2^1000]), brought to one exponent inside the window, summed and
 * normalised. The window is lambda -+ (40 sqrt(lambda) + 200): the mass
 * outside is below 1e-300. */
typedef struct pref {
    size_t lo, len;
    long double *F;
} pref;

static pref poisson_ref(double lambda) {
    const double sd = sqrt(lambda);
    const size_t hi = (size_t)(lambda + 40 * sd + 200);
    const size_t lo = lambda - 40 * sd - 200 > 0 ? (size_t)(lambda - 40 * sd - 200) : 0;
    pref r = {lo, hi - lo + 1, NULL};
    r.F = malloc(r.len * sizeof(long double));
    long *ex = malloc(r.len * sizeof(long));
    assert_non_null(r.F);
    assert_non_null(ex);
    long double mant = 1.0L;
    long e = 0, emax = LONG_MIN;
    for (size_t k = 0; k <= hi; k++) {
        if (k > 0)
            mant *= (long double)lambda / (long double)k;
        if (mant > 0x1p1000L) {
            mant = ldexpl(mant, -1000);
            e += 1000;
        } else if (mant < 0x1p-1000L) {
            mant = ldexpl(mant, 1000);
            e -= 1000;
        }
        if (k >= lo) {
            r.F[k - lo] = mant;
            ex[k - lo] = e;
            if (e > emax)
                emax = e;
        }
    }
    long double sum = 0.0L;
    for (size_t j = 0; j < r.len; j++) {
        const long d = ex[j] - emax;
        sum += d < -20000 ? 0.0L : ldexpl(r.F[j], (int)d);
        r.F[j] = sum;
    }
    for (size_t j = 0; j < r.len; j++)
        r.F[j] /= sum;
    free(ex);
    return r;
}

/* F(k) of the reference (k may be -1). */
static long double pref_F(const pref *r, long long k) {
    if (k < (long long)r->lo)
        return 0.0L;
    if (k >= (long long)(r->lo + r->len))
        return 1.0L;
    return r->F[k - (long long)r->lo];
}

/* The smallest k with F(k) >= u. */
static long long pref_invert(const pref *r, double u) {
    size_t a = 0, b = r->len - 1;
    while (a < b) {
        const size_t mid = a + (b - a) / 2;
        if (r->F[mid] >= (long double)u)
            b = mid;
        else
            a = mid + 1;
    }
    return (long long)(r->lo + a);
}

/* The accuracy bound of docs/numerics.md on |F^(k) - F(k)|. */
static double poisson_tol(double lambda) {
    return 4.0 * (21.1 * sqrt(lambda) + 30.0) * 0x1p-53 + 0x1p-80;
}

static trn_rand_desc poisson_desc(double lambda, uint64_t seed, uint64_t offset, size_t n) {
    trn_rand_desc d = mkdesc(TRN_RAND_POISSON, seed, offset, n);
    d.mean = 0.0;
    d.stddev = 0.0;
    d.lambda = lambda;
    return d;
}

static void test_poisson_vs_reference(void **state) {
    (void)state;
    static const uint64_t offsets[] = {0, 3, ((uint64_t)1 << 40) + 1};
    const size_t n = 20000;
    for (size_t c = 0; c < NPOISSON; c++) {
        const double lambda = POISSON_LAMBDAS[c];
        const pref r = poisson_ref(lambda);
        const double tol = poisson_tol(lambda);
        size_t differ = 0;
        double maxgap = 0.0;
        for (size_t o = 0; o < sizeof(offsets) / sizeof(offsets[0]); o++) {
            const trn_rand_desc d = poisson_desc(lambda, 0xC0FFEEull + c, offsets[o], n);
            uint32_t *x = (uint32_t *)run_all(d, 3);
            for (size_t i = 0; i < n; i++) {
                const uint64_t j = d.offset + 2 * (uint64_t)i;
                const double u = ref_u64f(ref_word(d.seed, j), ref_word(d.seed, j + 1));
                const long long k = x[i];
                if (!(pref_F(&r, k) >= (long double)u - tol &&
                      pref_F(&r, k - 1) < (long double)u + tol))
                    fail_msg("lambda %g element %zu: u = %a gives %lld, but F(k-1) = %.20Lg, "
                             "F(k) = %.20Lg (tol %g)",
                             lambda, i, u, k, pref_F(&r, k - 1), pref_F(&r, k), tol);
                const long long want = pref_invert(&r, u);
                if (k != want) {
                    differ++;
                    const double gap = (double)fabsl(pref_F(&r, k < want ? k : want) - u);
                    if (gap > maxgap)
                        maxgap = gap;
                }
            }
            free(x);
        }
        print_message("poisson lambda %g: %zu of %zu differ from the long double inversion "
                      "(largest |F - u| among them %g, tol %g)\n",
                      lambda, differ, 3 * n, maxgap, tol);
        /* A difference needs u within tol of a CDF value: probability
         * <= 2 tol per element, under 1e-5 over all of them. */
        assert_int_equal(differ, 0);
        free(r.F);
    }
}

static void test_poisson_shards_and_splits(void **state) {
    (void)state;
    static const size_t counts[] = {1, 2, 3, 17, 513, 1001, 2049};
    static const int nshards[] = {2, 3, 7, 64};
    static const double lambdas[] = {1e-3, 7.5, 1e4, 1e8};
    for (size_t l = 0; l < sizeof(lambdas) / sizeof(lambdas[0]); l++)
        for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
            const trn_rand_desc d = poisson_desc(lambdas[l], 77 + c, 5, counts[c]);
            unsigned char *one = run_all(d, 1);
            for (size_t t = 0; t < sizeof(nshards) / sizeof(nshards[0]); t++) {
                unsigned char *many = run_all(d, nshards[t]);
                assert_memory_equal(one, many, d.n * 4);
                free(many);
            }
            free(one);
        }
    const size_t n = 3001;
    static const size_t cuts[] = {1, 2, 3, 511, 512, 513, 1000, 3000};
    for (size_t l = 0; l < sizeof(lambdas) / sizeof(lambdas[0]); l++) {
        const trn_rand_desc d = poisson_desc(lambdas[l], 4242, 11, n);
        unsigned char *whole = run_all(d, 1);
        for (size_t c = 0; c < sizeof(cuts) / sizeof(cuts[0]); c++) {
            trn_rand_desc a = d, b = d;
            a.n = cuts[c];
            b.n = n - cuts[c];
            b.offset = d.offset + 2 * cuts[c];
            unsigned char *pa = run_all(a, 2), *pb = run_all(b, 7);
            assert_memory_equal(pa, whole, a.n * 4);
            assert_memory_equal(pb, whole + a.n * 4, b.n * 4);
            free(pa);
            free(pb);
        }
        free(whole);
    }
    /* A bad lambda reaching the kernel fails instead of looping; n = 0 is a
     * no-op whatever lambda is. */
    uint32_t sink[4];
    static const double bad[] = {0.0, -1.0, NAN, INFINITY, 2e8};
    for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
        trn_rand_desc d = poisson_desc(bad[b], 1, 0, 4);
        d.dst = sink;
        assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_FAILED);
        d.n = 0;
        d.dst = NULL;
        assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_OK);
    }
}

/* Wilson-Hilferty upper quantile of chi-square(df) at alpha = 1e-6. */
static double chi2_crit(double df) {
    const double z = 4.7534, a = 2.0 / (9.0 * df);
    const double c = 1.0 - a + z * sqrt(a);
    return df * c * c * c;
}

static void test_poisson_statistics(void **state) {
    (void)state;
    for (size_t c = 0; c < NPOISSON; c++) {
        const double lambda = POISSON_LAMBDAS[c];
        const size_t n = NSTAT;
        const trn_rand_desc d = poisson_desc(lambda, 0x5747ull + c, 1, n);
        uint32_t *x = (uint32_t *)run_all(d, 4);
        const pref r = poisson_ref(lambda);

        /* Moments. */
        double s = 0.0;
        for (size_t i = 0; i < n; i++)
            s += x[i];
        const double mean = s / (double)n;
        double ss = 0.0;
        for (size_t i = 0; i < n; i++)
            ss += ((double)x[i] - mean) * ((double)x[i] - mean);
        const double var = ss / (double)(n - 1);
        assert_true(fabs(mean - lambda) <= 5.0 * sqrt(lambda / (double)n));
        assert_true(fabs(var - lambda) <= 5.0 * sqrt((lambda + 2.0 * lambda * lambda) / (double)n));

        /* Counts per value in the reference window (x outside it: fail). */
        size_t *cnt = calloc(r.len, sizeof(size_t));
        assert_non_null(cnt);
        for (size_t i = 0; i < n; i++) {
            assert_true(x[i] >= r.lo && x[i] < r.lo + r.len);
            cnt[x[i] - r.lo]++;
        }
        /* Kolmogorov-Smirnov at every integer of the window. */
        double dks = 0.0;
        size_t below = 0;
        for (size_t j = 0; j < r.len; j++) {
            below += cnt[j];
            const double g = fabs((double)below / (double)n - (double)r.F[j]);
            if (g > dks)
                dks = g;
        }
        assert_true(dks < ks_crit(n));

        /* Chi-square over cells of expected count >= 50: cells are grown
         * from the left until they reach it, the last one absorbs the
         * rest of the window. */
        double chi2 = 0.0, cell_p = 0.0, cell_o = 0.0, prevF = 0.0;
        int cells = 0;
        for (size_t j = 0; j < r.len; j++) {
            const double Fj = (double)r.F[j];
            cell_p += Fj - prevF;
            prevF = Fj;
            cell_o += (double)cnt[j];
            const double rest = 1.0 - Fj;
            if (j + 1 == r.len || (cell_p * (double)n >= 50.0 && rest * (double)n >= 50.0)) {
                if (j + 1 == r.len)
                    cell_p += 1.0 - Fj; /* mass past the window, < 1e-300 */
                const double e = cell_p * (double)n;
                chi2 += (cell_o - e) * (cell_o - e) / e;
                cells++;
                cell_p = 0.0;
                cell_o = 0.0;
            }
        }
        const double df = cells > 1 ? cells - 1 : 1;
        print_message("poisson lambda %g: mean %.6g var %.6g KS %.3g (crit %.3g) chi2 %.1f on "
                      "%d cells (crit %.1f)\n",
                      lambda, mean, var, dks, ks_crit(n), chi2, cells, 1.1 * chi2_crit(df));
        if (cells > 1)
            assert_true(chi2 < 1.1 * chi2_crit(df));
        free(cnt);
        free(r.F);
        free(x);
    }
}

/* ---- Sobol32 (kernels/cpu/sobol.c) -----------------------------------------
 *
 * Golden values: produced at development time by
 *     /usr/bin/python3 -c 'import numpy as np, warnings; from scipy.stats import qmc;
 *         warnings.simplefilter("ignore");
 *         X = qmc.Sobol(d=1024, scramble=False, bits=32).random(1008);
 *         Xi = (X * 2.0**32).astype(np.uint64)'
 * (scipy 1.10.1, Debian; scipy's Sobol uses Gray-code order and its float
 * output is x * 2^-32 exactly), printing Xi[k, j] for the points k and
 * dimensions j below. SOBOL_GOLD_A[j][k]: point k (0 .. 23) of dimension j
 * (0 .. 15); SOBOL_GOLD_B[r][k]: point 1000 + k of dimension
 * SOBOL_GOLD_B_DIMS[r]. */
static const uint32_t SOBOL_GOLD_A[16][24] = {
    {
        0x00000000u, 0x80000000u, 0xc0000000u, 0x40000000u, 0x60000000u, 0xe0000000u,
        0xa0000000u, 0x20000000u, 0x30000000u, 0xb0000000u, 0xf0000000u, 0x70000000u,
        0x50000000u, 0xd0000000u, 0x90000000u, 0x10000000u, 0x18000000u, 0x98000000u,
        0xd8000000u, 0x58000000u, 0x78000000u, 0xf8000000u, 0xb8000000u, 0x38000000u,
    },
    {
        0x00000000u, 0x80000000u, 0x40000000u, 0xc0000000u, 0x60000000u, 0xe0000000u,
        0x20000000u, 0xa0000000u, 0x50000000u, 0xd0000000u, 0x10000000u, 0x90000000u,
        0x30000000u, 0xb0000000u, 0x70000000u, 0xf0000000u, 0x78000000u, 0xf8000000u,
        0x38000000u, 0xb8000000u, 0x18000000u, 0x98000000u, 0x58000000u, 0xd8000000u,
    },
    {
        0x00000000u, 0x80000000u, 0x40000000u, 0xc0000000u, 0xa0000000u, 0x20000000u,
        0xe0000000u, 0x60000000u, 0xf0000000u, 0x70000000u, 0xb0000000u, 0x30000000u,
        0x50000000u, 0xd0000000u, 0x10000000u, 0x90000000u, 0x78000000u, 0xf8000000u,
        0x38000000u, 0xb8000000u, 0xd8000000u, 0x58000000u, 0x98000000u, 0x18000000u,
    },
    {
        0x00000000u, 0x80000000u, 0x40000000u, 0xc0000000u, 0xe0000000u, 0x60000000u,
        0xa0000000u, 0x20000000u, 0x70000000u, 0xf0000000u, 0x30000000u, 0xb0000000u,
        0x90000000u, 0x10000000u, 0xd0000000u, 0x50000000u, 0xa8000000u, 0x28000000u,
        0xe8000000u, 0x68000000u, 0x48000000u, 0xc8000000u, 0x08000000u, 0x88000000u,
    },
    {
        0x00000000u, 0x80000000u, 0xc0000000u, 0x40000000u, 0x60000000u, 0xe0000000u,
        0xa0000000u, 0x20000000u, 0x90000000u, 0x10000000u, 0x50000000u, 0xd0000000u,
        0xf0000000u, 0x70000000u, 0x30000000u, 0xb0000000u, 0x48000000u, 0xc8000000u,
        0x88000000u, 0x08000000u, 0x28000000u, 0xa8000000u, 0xe8000000u, 0x68000000u,
    },
    {
        0x00000000u, 0x80000000u, 0xc0000000u, 0x40000000u, 0x20000000u, 0xa0000000u,
        0xe0000000u, 0x60000000u, 0x50000000u, 0xd0000000u, 0x90000000u, 0x10000000u,
        0x70000000u, 0xf0000000u, 0xb0000000u, 0x30000000u, 0xf8000000u, 0x78000000u,
        0x38000000u, 0xb8000000u, 0xd8000000u, 0x58000000u, 0x18000000u, 0x98000000u,
    },
    {
        0x00000000u, 0x80000000u, 0x40000000u, 0xc0000000u, 0x60000000u, 0xe0000000u,
        0x20000000u, 0xa0000000u, 0x70000000u, 0xf0000000u, 0x30000000u, 0xb0000000u,
        0x10000000u, 0x90000000u, 0x50000000u, 0xd0000000u, 0x88000000u, 0x08000000u,
        0xc8000000u, 0x48000000u, 0xe8000000u, 0x68000000u, 0xa8000000u, 0x28000000u,
    },
    {
        0x00000000u, 0x80000000u, 0xc0000000u, 0x40000000u, 0xe0000000u, 0x60000000u,
        0x20000000u, 0xa0000000u, 0xf0000000u, 0x70000000u, 0x30000000u, 0xb0000000u,
        0x10000000u, 0x90000000u, 0xd0000000u, 0x50000000u, 0xd8000000u, 0x58000000u,
        0x18000000u, 0x98000000u, 0x38000000u, 0xb8000000u, 0xf8000000u, 0x78000000u,
    },
    {
        0x00000000u, 0x80000000u, 0xc0000000u, 0x40000000u, 0xe0000000u, 0x60000000u,
        0x20000000u, 0xa0000000u, 0xf0000000u, 0x70000000u, 0x30000000u, 0xb0000000u,
        0x10000000u, 0x90000000u, 0xd0000000u, 0x50000000u, 0x78000000u, 0xf8000000u,
        0xb8000000u, 0x38000000u, 0x98000000u, 0x18000000u, 0x58000000u, 0xd8000000u,
    },
    {
        0x00000000u, 0x80000000u, 0xc0000000u, 0x40000000u, 0xa0000000u, 0x20000000u,
        0x60000000u, 0xe0000000u, 0x50000000u, 0xd0000000u, 0x90000000u, 0x10000000u,
        0xf0000000u, 0x70000000u, 0x30000000u, 0xb0000000u, 0x28000000u, 0xa8000000u,
        0xe8000000u, 0x68000000u, 0x88000000u, 0x08000000u, 0x48000000u, 0xc8000000u,
    },
    {
        0x00000000u, 0x80000000u, 0xc0000000u, 0x40000000u, 0xe0000000u, 0x60000000u,
        0x20000000u, 0xa0000000u, 0xb0000000u, 0x30000000u, 0x70000000u, 0xf0000000u,
        0x50000000u, 0xd0000000u, 0x90000000u, 0x10000000u, 0x18000000u, 0x98000000u,
        0xd8000000u, 0x58000000u, 0xf8000000u, 0x78000000u, 0x38000000u, 0xb8000000u,
    },
    {
        0x00000000u, 0x80000000u, 0xc0000000u, 0x40000000u, 0x60000000u, 0xe0000000u,
        0xa0000000u, 0x20000000u, 0x10000000u, 0x90000000u, 0xd0000000u, 0x50000000u,
        0x70000000u, 0xf0000000u, 0xb0000000u, 0x30000000u, 0x68000000u, 0xe8000000u,
        0xa8000000u, 0x28000000u, 0x08000000u, 0x88000000u, 0xc8000000u, 0x48000000u,
    },
    {
        0x00000000u, 0x80000000u, 0x40000000u, 0xc0000000u, 0x60000000u, 0xe0000000u,
        0x20000000u, 0xa0000000u, 0xf0000000u, 0x70000000u, 0xb0000000u, 0x30000000u,
        0x90000000u, 0x10000000u, 0xd0000000u, 0x50000000u, 0xa8000000u, 0x28000000u,
        0xe8000000u, 0x68000000u, 0xc8000000u, 0x48000000u, 0x88000000u, 0x08000000u,
    },
    {
        0x00000000u, 0x80000000u, 0x40000000u, 0xc0000000u, 0xa0000000u, 0x20000000u,
        0xe0000000u, 0x60000000u, 0xf0000000u, 0x70000000u, 0xb0000000u, 0x30000000u,
        0x50000000u, 0xd0000000u, 0x10000000u, 0x90000000u, 0xa8000000u, 0x28000000u,
        0xe8000000u, 0x68000000u, 0x08000000u, 0x88000000u, 0x48000000u, 0xc8000000u,
    },
    {
        0x00000000u, 0x80000000u, 0xc0000000u, 0x40000000u, 0x60000000u, 0xe0000000u,
        0xa0000000u, 0x20000000u, 0xd0000000u, 0x50000000u, 0x10000000u, 0x90000000u,
        0xb0000000u, 0x30000000u, 0x70000000u, 0xf0000000u, 0x58000000u, 0xd8000000u,
        0x98000000u, 0x18000000u, 0x38000000u, 0xb8000000u, 0xf8000000u, 0x78000000u,
    },
    {
        0x00000000u, 0x80000000u, 0x40000000u, 0xc0000000u, 0xe0000000u, 0x60000000u,
        0xa0000000u, 0x20000000u, 0xf0000000u, 0x70000000u, 0xb0000000u, 0x30000000u,
        0x10000000u, 0x90000000u, 0x50000000u, 0xd0000000u, 0x08000000u, 0x88000000u,
        0x48000000u, 0xc8000000u, 0xe8000000u, 0x68000000u, 0xa8000000u, 0x28000000u,
    },
};
static const unsigned SOBOL_GOLD_B_DIMS[6] = {0, 1, 2, 100, 511, 1023};
static const uint32_t SOBOL_GOLD_B[6][8] = {
    {
        0x38400000u,
        0xb8400000u,
        0xf8400000u,
        0x78400000u,
        0x58400000u,
        0xd8400000u,
        0x98400000u,
        0x18400000u,
    },
    {
        0x18c00000u,
        0x98c00000u,
        0x58c00000u,
        0xd8c00000u,
        0x78c00000u,
        0xf8c00000u,
        0x38c00000u,
        0xb8c00000u,
    },
    {
        0x84c00000u,
        0x04c00000u,
        0xc4c00000u,
        0x44c00000u,
        0x24c00000u,
        0xa4c00000u,
        0x64c00000u,
        0xe4c00000u,
    },
    {
        0xc4c00000u,
        0x44c00000u,
        0x84c00000u,
        0x04c00000u,
        0x64c00000u,
        0xe4c00000u,
        0x24c00000u,
        0xa4c00000u,
    },
    {
        0x65400000u,
        0xe5400000u,
        0xa5400000u,
        0x25400000u,
        0x05400000u,
        0x85400000u,
        0xc5400000u,
        0x45400000u,
    },
    {
        0xb6c00000u,
        0x36c00000u,
        0x76c00000u,
        0xf6c00000u,
        0x56c00000u,
        0xd6c00000u,
        0x96c00000u,
        0x16c00000u,
    },
};

/* Phi^-1((x + 1/2) 2^-32) from scipy.special.ndtri (Cephes), the same
 * scipy, printed with %.17g; trn_sobol_normal(x) is minus these. */
static const struct {
    uint32_t x;
    double z;
} SOBOL_NDTRI[] = {
    {0x00000000u, -6.3379577545537895},     {0x00000001u, -6.1664295178197506},
    {0x00000002u, -6.0851045457830306},     {0x00000003u, -6.0309670191182523},
    {0x00000007u, -5.9065973439837753},     {0x00000064u, -5.4630625543895386},
    {0x00003039u, -4.5354227620904286},     {0x00100000u, -3.48710397659169},
    {0x00ffffffu, -2.6600674786549479},     {0x01000000u, -2.660067458579972},
    {0x063f0000u, -1.9703557984111009},     {0x10000000u, -1.5341205434059566},
    {0x20000000u, -1.1503493798104829},     {0x3fffffffu, -0.67448975056242511},
    {0x40000000u, -0.67448974982973842},    {0x5a5a5a5au, -0.37739194373639262},
    {0x7ffff000u, -2.3902151963582819e-06}, {0x7fffffffu, -2.9180993729166229e-10},
    {0x80000000u, 2.9180993729166229e-10},  {0x80000001u, 8.7542981187498687e-10},
    {0x9e3779b9u, 0.30032138539168957},     {0xc0000000u, 0.67448975056242511},
    {0xe0000000u, 1.1503493809415328},      {0xf9c10000u, 1.9703558024770436},
    {0xfff00000u, 3.4871042316372285},      {0xfffffff0u, 5.7857779654710431},
    {0xfffffffeu, 6.1664295178197506},      {0xffffffffu, 6.3379577545537895},
};

static const trn_rand_dist SOBOL_DISTS[] = {
    TRN_RAND_U32,        TRN_RAND_UNIFORM_F32,   TRN_RAND_UNIFORM_F64,   TRN_RAND_NORMAL_F32,
    TRN_RAND_NORMAL_F64, TRN_RAND_LOGNORMAL_F32, TRN_RAND_LOGNORMAL_F64,
};
#define NSOBOL_DISTS (sizeof(SOBOL_DISTS) / sizeof(SOBOL_DISTS[0]))

static trn_rand_desc sobol_desc(trn_rand_gen gen, trn_rand_dist dist, uint32_t dims,
                                uint64_t offset, size_t n) {
    trn_rand_desc d = mkdesc(dist, 0, offset, n);
    d.gen = gen;
    d.dims = dims;
    return d;
}

/* Point k of dimension j straight from the definition: XOR of the direction
 * numbers over the set bits of the Gray code (no incremental update). */
static uint32_t ref_sobol(unsigned j, uint64_t k) {
    const uint64_t g = k ^ (k >> 1);
    uint32_t x = 0;
    for (unsigned b = 0; b < 32; b++)
        if ((g >> b) & 1u)
            x ^= trn_sobol_directions32()[j][b];
    return x;
}

/* Scramble constant of dimension j: raw word j of the Philox stream of
 * TRN_SOBOL_SCRAMBLE_SEED, through the Philox reference above. */
static uint32_t ref_scramble(unsigned j) {
    return ref_word(UINT64_C(0x536F626F6C333221), j);
}

/* Element i of a Sobol op from the documented formulas. */
static void ref_sobol_element(const trn_rand_desc *d, size_t i, void *out) {
    const size_t per = d->n / d->dims;
    const unsigned j = (unsigned)(i / per);
    uint32_t x = ref_sobol(j, d->offset + i % per);
    if (d->gen == TRN_RAND_SCRAMBLED_SOBOL32)
        x ^= ref_scramble(j);
    const double z = d->mean + d->stddev * trn_sobol_normal(x);
    switch (d->dist) {
    case TRN_RAND_U32: memcpy(out, &x, 4); break;
    case TRN_RAND_UNIFORM_F32: {
        const float f = (float)x * 0x1p-32f + 0x1p-33f;
        memcpy(out, &f, 4);
        break;
    }
    case TRN_RAND_UNIFORM_F64: {
        const double f = ((double)x + 0.5) / 4294967296.0;
        memcpy(out, &f, 8);
        break;
    }
    case TRN_RAND_NORMAL_F32: {
        const float f = (float)z;
        memcpy(out, &f, 4);
        break;
    }
    case TRN_RAND_NORMAL_F64: memcpy(out, &z, 8); break;
    case TRN_RAND_LOGNORMAL_F32: {
        const float f = (float)exp(z);
        memcpy(out, &f, 4);
        break;
    }
    case TRN_RAND_LOGNORMAL_F64: {
        const double f = exp(z);
        memcpy(out, &f, 8);
        break;
    }
    default: fail(); /* not a Sobol32 distribution */
    }
}

static void test_sobol_golden(void **state) {
    (void)state;
    trn_rand_desc d = sobol_desc(TRN_RAND_SOBOL32, TRN_RAND_U32, 16, 0, 16 * 24);
    uint32_t *a = (uint32_t *)run_all(d, 1);
    for (unsigned j = 0; j < 16; j++)
        for (unsigned k = 0; k < 24; k++)
            assert_int_equal(a[j * 24 + k], SOBOL_GOLD_A[j][k]);
    free(a);
    d = sobol_desc(TRN_RAND_SOBOL32, TRN_RAND_U32, TRN_SOBOL_MAX_DIMS, 1000,
                   TRN_SOBOL_MAX_DIMS * 8);
    uint32_t *b = (uint32_t *)run_all(d, 3);
    for (unsigned r = 0; r < 6; r++)
        for (unsigned k = 0; k < 8; k++)
            assert_int_equal(b[SOBOL_GOLD_B_DIMS[r] * 8 + k], SOBOL_GOLD_B[r][k]);
    free(b);
    /* The helpers agree with the table too. */
    for (unsigned j = 0; j < 16; j++)
        for (unsigned k = 0; k < 24; k++)
            assert_int_equal(trn_sobol_point(j, k), SOBOL_GOLD_A[j][k]);
}

/* The defining property: for every dimension, the first 2^m points form a
 * (0, m, 1)-net, one point in each dyadic interval [i 2^-m, (i+1) 2^-m),
 * i.e. their top m bits are all different; m = 0 .. 10, all dimensions. */
static void test_sobol_nets(void **state) {
    (void)state;
    const size_t per = 1024;
    trn_rand_desc d =
        sobol_desc(TRN_RAND_SOBOL32, TRN_RAND_U32, TRN_SOBOL_MAX_DIMS, 0, TRN_SOBOL_MAX_DIMS * per);
    uint32_t *x = (uint32_t *)run_all(d, 7);
    unsigned char seen[1024];
    for (unsigned j = 0; j < TRN_SOBOL_MAX_DIMS; j++)
        for (unsigned m = 0; m <= 10; m++) {
            memset(seen, 0, sizeof(seen));
            for (size_t k = 0; k < ((size_t)1 << m); k++) {
                const uint32_t cell = m == 0 ? 0 : x[j * per + k] >> (32 - m);
                assert_int_equal(seen[cell], 0);
                seen[cell] = 1;
            }
        }
    free(x);
}

/* Every element of every distribution, both generators, several dimension
 * counts and offsets (including the last points before 2^32), against the
 * reference; shards 2/3/7 bitwise equal to 1 shard, and each shard writes
 * exactly its contiguous range. */
static void test_sobol_elements_and_shards(void **state) {
    (void)state;
    static const uint32_t dims[] = {1, 3, 7, 1024};
    static const size_t points[] = {1, 2, 5, 64, 333};
    static const uint64_t offsets[] = {0, 1, 1000, ((uint64_t)1 << 31) - 3,
                                       ((uint64_t)1 << 32) - 333};
    static const int nshards[] = {2, 3, 7};
    unsigned char want[8];
    for (int gen = TRN_RAND_SOBOL32; gen <= TRN_RAND_SCRAMBLED_SOBOL32; gen++)
        for (size_t k = 0; k < NSOBOL_DISTS; k++)
            for (size_t a = 0; a < sizeof(dims) / sizeof(dims[0]); a++)
                for (size_t p = 0; p < sizeof(points) / sizeof(points[0]); p++)
                    for (size_t o = 0; o < sizeof(offsets) / sizeof(offsets[0]); o++) {
                        if (dims[a] == 1024 && points[p] > 5)
                            continue; /* keep the run short */
                        const trn_rand_desc d =
                            sobol_desc((trn_rand_gen)gen, SOBOL_DISTS[k], dims[a], offsets[o],
                                       (size_t)dims[a] * points[p]);
                        const size_t es = trn_rand_element_size(d.dist);
                        unsigned char *one = run_all(d, 1);
                        for (size_t i = 0; i < d.n; i++) {
                            ref_sobol_element(&d, i, want);
                            assert_memory_equal(one + i * es, want, es);
                        }
                        for (size_t t = 0; t < sizeof(nshards) / sizeof(nshards[0]); t++) {
                            unsigned char *many = run_all(d, nshards[t]);
                            assert_memory_equal(one, many, d.n * es);
                            free(many);
                            for (int s = 0; s < nshards[t]; s++) {
                                trn_rand_desc e = d;
                                size_t lo, hi;
                                trn_cpu_shard_range(d.n, s, nshards[t], &lo, &hi);
                                unsigned char *buf = malloc((d.n + GUARD) * es);
                                assert_non_null(buf);
                                memset(buf, FILL_BYTE, (d.n + GUARD) * es);
                                e.dst = buf;
                                assert_int_equal(trn_cpu_rand(&e, NULL, s, nshards[t]),
                                                 TRN_KSTATUS_OK);
                                assert_true(guard_intact(buf, 0, lo * es));
                                if (hi > lo)
                                    assert_memory_equal(buf + lo * es, one + lo * es,
                                                        (hi - lo) * es);
                                assert_true(guard_intact(buf, hi * es, (d.n + GUARD) * es));
                                free(buf);
                            }
                        }
                        free(one);
                    }
}

/* Two calls of p1 and p2 points per dimension (the second at offset + p1)
 * give, dimension by dimension, the points of one call of p1 + p2. */
static void test_sobol_call_splits(void **state) {
    (void)state;
    const uint32_t dims = 5;
    const size_t per = 1500;
    static const size_t cuts[] = {1, 2, 3, 511, 512, 513, 1024, 1499};
    for (int gen = TRN_RAND_SOBOL32; gen <= TRN_RAND_SCRAMBLED_SOBOL32; gen++)
        for (size_t k = 0; k < NSOBOL_DISTS; k++) {
            const trn_rand_desc d =
                sobol_desc((trn_rand_gen)gen, SOBOL_DISTS[k], dims, 77, dims * per);
            const size_t es = trn_rand_element_size(d.dist);
            unsigned char *whole = run_all(d, 2);
            for (size_t c = 0; c < sizeof(cuts) / sizeof(cuts[0]); c++) {
                const size_t p1 = cuts[c], p2 = per - p1;
                trn_rand_desc a = d, b = d;
                a.n = dims * p1;
                b.n = dims * p2;
                b.offset = d.offset + p1;
                unsigned char *pa = run_all(a, 3), *pb = run_all(b, 7);
                for (size_t j = 0; j < dims; j++) {
                    assert_memory_equal(pa + j * p1 * es, whole + j * per * es, p1 * es);
                    assert_memory_equal(pb + j * p2 * es, whole + (j * per + p1) * es, p2 * es);
                }
                free(pa);
                free(pb);
            }
            free(whole);
        }
}

/* Conversions at the ends, the scramble constants, the inverse normal CDF
 * against scipy.special.ndtri (relative error 4e-15, docs/numerics.md says
 * 1e-15 measured) and its exact antisymmetry, the kernel's refusals. */
static void test_sobol_conversions_and_edges(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof(SOBOL_NDTRI) / sizeof(SOBOL_NDTRI[0]); i++) {
        const double z = trn_sobol_normal(SOBOL_NDTRI[i].x), r = SOBOL_NDTRI[i].z;
        assert_true(fabs(z + r) <= 4e-15 * fabs(r)); /* cuRAND's sign: z = -ndtri */
        assert_true(trn_sobol_normal(~SOBOL_NDTRI[i].x) == -z);
    }
    for (unsigned j = 0; j < TRN_SOBOL_MAX_DIMS; j++)
        assert_int_equal(trn_sobol_scramble_constant(j), ref_scramble(j));

    /* Point 0 of every dimension is 0, so the first uniforms are the
     * smallest ones and the scrambled generator's first point is c_j. */
    trn_rand_desc d = sobol_desc(TRN_RAND_SOBOL32, TRN_RAND_UNIFORM_F64, 2, 0, 4);
    double *u = (double *)run_all(d, 1);
    assert_true(u[0] == 0x1p-33 && u[1] == 0.5 + 0x1p-33 && u[2] == 0x1p-33);
    free(u);
    d.dist = TRN_RAND_UNIFORM_F32;
    float *f = (float *)run_all(d, 1);
    assert_true(f[0] == 0x1p-33f && f[1] == 0.5f);
    free(f);
    d = sobol_desc(TRN_RAND_SCRAMBLED_SOBOL32, TRN_RAND_U32, 3, 0, 3);
    uint32_t *s = (uint32_t *)run_all(d, 1);
    for (unsigned j = 0; j < 3; j++)
        assert_int_equal(s[j], ref_scramble(j));
    free(s);
    /* x = 2^32 - 1: float rounds to exactly 1, double stays below. */
    assert_true((float)UINT32_MAX * 0x1p-32f + 0x1p-33f == 1.0f);
    assert_true((double)UINT32_MAX * 0x1p-32 + 0x1p-33 == 1.0 - 0x1p-33);

    /* Refusals: not a multiple, bad dimensions, past 2^32 points, Poisson. */
    uint32_t sink[8];
    d = sobol_desc(TRN_RAND_SOBOL32, TRN_RAND_U32, 3, 0, 4);
    d.dst = sink;
    assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_FAILED);
    d.dims = 0;
    assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_FAILED);
    d.dims = TRN_SOBOL_MAX_DIMS + 1;
    assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_FAILED);
    d.dims = 2;
    d.offset = ((uint64_t)1 << 32) - 1;
    assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_FAILED);
    d.offset = ((uint64_t)1 << 32) - 2; /* the last two points */
    assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_OK);
    assert_int_equal(sink[1], ref_sobol(0, UINT32_MAX));
    d.dist = TRN_RAND_POISSON;
    d.offset = 0;
    assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_UNSUPPORTED);
    d = sobol_desc((trn_rand_gen)99, TRN_RAND_U32, 1, 0, 4);
    d.dst = sink;
    assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_UNSUPPORTED);
    /* n = 0 touches nothing. */
    d = sobol_desc(TRN_RAND_SOBOL32, TRN_RAND_U32, 0, 0, 0);
    d.dst = NULL;
    assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_OK);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_philox_kat),
        cmocka_unit_test(test_distribution_kat),
        cmocka_unit_test(test_uniform_formula_ends),
        cmocka_unit_test(test_words_vs_reference),
        cmocka_unit_test(test_elements_vs_reference),
        cmocka_unit_test(test_shards_bitwise),
        cmocka_unit_test(test_call_splits),
        cmocka_unit_test(test_backend_and_edges),
        cmocka_unit_test(test_uniform_range),
        cmocka_unit_test(test_moments),
        cmocka_unit_test(test_kolmogorov_smirnov),
        cmocka_unit_test(test_poisson_vs_reference),
        cmocka_unit_test(test_poisson_shards_and_splits),
        cmocka_unit_test(test_poisson_statistics),
        cmocka_unit_test(test_sobol_golden),
        cmocka_unit_test(test_sobol_nets),
        cmocka_unit_test(test_sobol_elements_and_shards),
        cmocka_unit_test(test_sobol_call_splits),
        cmocka_unit_test(test_sobol_conversions_and_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
