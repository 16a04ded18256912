/*
 * test_rand_seq.c — trnrand's sequential generators (XORWOW, MRG32k3a,
 * MT19937, MTGP32) on
 * the CPU backend
 * (kernels/cpu/rand_seq.c, rand.c) without a daemon:
 *
 *  - XORWOW seeding: the seed 0xf7dcefddaad26b49 (both mixed halves 0)
 *    gives Marsaglia's initial state x, y, z, w, v, d = 123456789,
 *    362436069, 521288629, 88675123, 5783321, 6615241 (the values printed
 *    in "Xorshift RNGs", 2003), and the words the kernel returns are his
 *    xorwow() outputs, from a loop written here from the paper's text.
 *  - Skip-ahead: trn_xorwow_skip(n) gives the state of n single steps, for
 *    n on both sides of the stepping/matrix threshold and for sums of
 *    skips (skip(a) then skip(b) = skip(a + b), checked up to 2^62 where
 *    stepping is impossible).
 *  - Sharding (XORWOW, MRG32k3a, MT19937, offsets across an MT block end): nshards = 2, 3, 7
 * bitwise equal to nshards = 1 for every distribution they take, odd offsets and counts; the raw
 * words of an op at offset o equal words o.. of an op at offset 0.
 *  - MRG32k3a: seed 0 is L'Ecuyer's published state (all six values 12345)
 *    and its first combined values are the published Y_i = 545508589,
 *    1368065410, 1327943761, 3546985096, 951893194; his published uniforms
 *    U_1000, U_100000 and U_1000000 of that stream (RngStream.c's
 *    Y * 2.328306549295728e-10) at the skip-ahead's positions; skip(n) equal
 *    to n steps around the stepping threshold and skip additivity to 2^63;
 *    the 32-bit word of r = m1 saturates.
 *  - MT19937: the published known answers of mt19937ar.c, init_genrand(5489)
 *    -> 3499211612 first, and init_by_array({0x123, 0x234, 0x345, 0x456}) ->
 *    the first ten values of mt19937ar.out and its 1000th (3460025646);
 *    the kernel's words across a block boundary equal the block generators'
 *    outputs, each block from its own init_by_array key.
 *  - MTGP32: parameter set 0 seeded with 1235 gives the first outputs of
 *    cuRAND's host MTGP32 generator of seed 1234 (its state 0), and kernel
 *    words far into both layouts (192 states; 64 for the legacy ordering)
 *    equal the words cuRAND's host generator returned there, recorded
 *    (curandCreateGeneratorHost, CURAND_RNG_PSEUDO_MTGP32, seed 1234,
 *    orderings PSEUDO_DEFAULT and PSEUDO_LEGACY); sharding as above in both
 *    layouts; a layout or range the daemon never sends is refused.
 *  - Refusals: the Philox-only extensions give TRN_KSTATUS_UNSUPPORTED.
 */
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

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/rand_seq.h"

#define MARSAGLIA_SEED UINT64_C(0xf7dcefddaad26b49)

/* Marsaglia's xorwow, written from the paper (static state in his code;
 * a struct here). */
typedef struct mars {
    uint32_t x, y, z, w, v, d;
} mars;

static uint32_t mars_next(mars *m) {
    uint32_t t = m->x ^ (m->x >> 2);
    m->x = m->y;
    m->y = m->z;
    m->z = m->w;
    m->w = m->v;
    m->v = (m->v ^ (m->v << 4)) ^ (t ^ (t << 1));
    return (m->d += 362437) + m->v;
}

static void test_marsaglia_state(void **state) {
    (void)state;
    trn_xorwow s;
    trn_xorwow_seed(&s, MARSAGLIA_SEED);
    assert_int_equal(s.v[0], 123456789u);
    assert_int_equal(s.v[1], 362436069u);
    assert_int_equal(s.v[2], 521288629u);
    assert_int_equal(s.v[3], 88675123u);
    assert_int_equal(s.v[4], 5783321u);
    assert_int_equal(s.d, 6615241u);
    mars m = {123456789u, 362436069u, 521288629u, 88675123u, 5783321u, 6615241u};
    for (int i = 0; i < 100000; i++)
        assert_int_equal(trn_xorwow_next(&s), mars_next(&m));
}

static int same_state(const trn_xorwow *a, const trn_xorwow *b) {
    return memcmp(a->v, b->v, sizeof(a->v)) == 0 && a->d == b->d;
}

static void test_skip(void **state) {
    (void)state;
    static const uint64_t ns[] = {0, 1, 2, 31, 1000, 32767, 32768, 32769, 65537, 200003};
    for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
        trn_xorwow a, b;
        trn_xorwow_seed(&a, 0x1234 + k);
        b = a;
        for (uint64_t i = 0; i < ns[k]; i++)
            (void)trn_xorwow_next(&a);
        trn_xorwow_skip(&b, ns[k]);
        if (!same_state(&a, &b))
            fail_msg("skip(%llu) is not %llu steps", (unsigned long long)ns[k],
                     (unsigned long long)ns[k]);
    }
    /* additivity far beyond stepping */
    static const uint64_t big[][2] = {{UINT64_C(1) << 40, 12345},
                                      {(UINT64_C(1) << 62) + 99, (UINT64_C(1) << 61) + 7},
                                      {UINT64_C(0x123456789abcdef), 40000}};
    for (size_t k = 0; k < sizeof(big) / sizeof(big[0]); k++) {
        trn_xorwow a, b;
        trn_xorwow_seed(&a, 77);
        b = a;
        trn_xorwow_skip(&a, big[k][0]);
        trn_xorwow_skip(&a, big[k][1]);
        trn_xorwow_skip(&b, big[k][0] + big[k][1]);
        assert_true(same_state(&a, &b));
        /* and skip(a) then b steps */
        trn_xorwow c;
        trn_xorwow_seed(&c, 77);
        trn_xorwow_skip(&c, big[k][0]);
        for (uint64_t i = 0; i < 5000; i++)
            (void)trn_xorwow_next(&c);
        trn_xorwow_seed(&b, 77);
        trn_xorwow_skip(&b, big[k][0] + 5000);
        assert_true(same_state(&b, &c));
    }
}

#define MRG_NORM 2.328306549295728e-10

static void test_mrg32k3a(void **state) {
    (void)state;
    trn_mrg32k3a s;
    trn_mrg32k3a_seed(&s, 0);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(s.s1[i], 12345u);
        assert_int_equal(s.s2[i], 12345u);
    }
    static const uint32_t y[5] = {545508589u, 1368065410u, 1327943761u, 3546985096u, 951893194u};
    for (int i = 0; i < 5; i++)
        assert_int_equal(trn_mrg32k3a_next(&s), y[i]);
    /* published U_i (1-based i) of the seed-12345 stream */
    static const struct {
        uint64_t i;
        double u;
    } pub[] = {{1, 0.12701112204657714},
               {1000, 0.98607848680213228},
               {100000, 0.69628910995743587},
               {1000000, 0.37578835621568801}};
    for (size_t k = 0; k < sizeof(pub) / sizeof(pub[0]); k++) {
        trn_mrg32k3a t;
        trn_mrg32k3a_seed(&t, 0);
        trn_mrg32k3a_skip(&t, pub[k].i - 1);
        const double u = (double)trn_mrg32k3a_next(&t) * MRG_NORM;
        if (u != pub[k].u)
            fail_msg("U_%llu = %.17g, published %.17g", (unsigned long long)pub[k].i, u, pub[k].u);
    }
    /* skip(n) = n steps, both sides of the threshold */
    static const uint64_t ns[] = {0, 1, 63, 64, 65, 1000, 123457};
    for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
        trn_mrg32k3a a, b;
        trn_mrg32k3a_seed(&a, 0x9876543210ULL + k);
        b = a;
        for (uint64_t i = 0; i < ns[k]; i++)
            (void)trn_mrg32k3a_next(&a);
        trn_mrg32k3a_skip(&b, ns[k]);
        assert_memory_equal(&a, &b, sizeof(a));
    }
    trn_mrg32k3a a, b;
    trn_mrg32k3a_seed(&a, 5);
    b = a;
    trn_mrg32k3a_skip(&a, UINT64_C(1) << 63);
    trn_mrg32k3a_skip(&a, (UINT64_C(1) << 63) - 1);
    trn_mrg32k3a_skip(&b, UINT64_MAX);
    assert_memory_equal(&a, &b, sizeof(a));
    /* the word conversion at its ends */
    assert_int_equal(trn_mrg32k3a_word(1), 1u);
    assert_int_equal(trn_mrg32k3a_word((uint32_t)TRN_MRG_M1), 0xFFFFFFFFu);
    /* (m1 - 1) 1.000000048662 = 2^32 - 1 + 0.0017, (m1 - 2) ... = 2^32 - 2 + 0.0017 */
    assert_int_equal(trn_mrg32k3a_word((uint32_t)TRN_MRG_M1 - 1), 0xFFFFFFFFu);
    assert_int_equal(trn_mrg32k3a_word((uint32_t)TRN_MRG_M1 - 2), 0xFFFFFFFEu);
}

static void test_mt19937_published(void **state) {
    (void)state;
    static trn_mt19937 s; /* 2.5 KB */
    trn_mt19937_init_genrand(&s, 5489u);
    assert_int_equal(trn_mt19937_next(&s), 3499211612u);
    static const uint32_t key[4] = {0x123, 0x234, 0x345, 0x456};
    static const uint32_t out[10] = {1067595299u, 955945823u,  477289528u,  4107218783u,
                                     4228976476u, 3344332714u, 3355579695u, 227628506u,
                                     810200273u,  2591290167u};
    trn_mt19937_init_by_array(&s, key, 4);
    for (int i = 0; i < 10; i++)
        assert_int_equal(trn_mt19937_next(&s), out[i]);
    for (int i = 10; i < 999; i++)
        (void)trn_mt19937_next(&s);
    assert_int_equal(trn_mt19937_next(&s), 3460025646u);
}

enum { GUARD = 16, FILL = 0xCD };

static unsigned char *run(trn_rand_desc d, int nshards) {
    const size_t es = trn_rand_element_size(d.dist);
    unsigned char *buf = malloc((d.n + GUARD) * es);
    assert_non_null(buf);
    memset(buf, FILL, (d.n + GUARD) * es);
    d.dst = buf;
    for (int s = 0; s < nshards; s++)
        assert_int_equal(trn_cpu_rand(&d, NULL, s, nshards), TRN_KSTATUS_OK);
    for (size_t i = d.n * es; i < (d.n + GUARD) * es; i++)
        assert_int_equal(buf[i], FILL);
    return buf;
}

static trn_rand_gen cur_gen = TRN_RAND_XORWOW;
static uint32_t cur_states = TRN_RAND_MTGP_STATES_DEFAULT; /* MTGP32 */

static trn_rand_desc xdesc(trn_rand_dist dist, uint64_t seed, uint64_t offset, size_t n) {
    trn_rand_desc d;
    memset(&d, 0, sizeof(d));
    d.gen = cur_gen;
    d.dist = dist;
    d.seed = seed;
    d.offset = offset;
    d.mean = 0.5;
    d.stddev = 2.0;
    d.lambda = 3.5;
    d.n = n;
    d.mtgp_states = cur_gen == TRN_RAND_MTGP32 ? cur_states : 0;
    return d;
}

static void test_shards(void **state) {
    cur_gen = *(const trn_rand_gen *)*state;
    static const trn_rand_dist dists[] = {TRN_RAND_U32,
                                          TRN_RAND_UNIFORM_F32,
                                          TRN_RAND_UNIFORM_F64,
                                          TRN_RAND_NORMAL_F32,
                                          TRN_RAND_NORMAL_F64,
                                          TRN_RAND_LOGNORMAL_F32,
                                          TRN_RAND_LOGNORMAL_F64,
                                          TRN_RAND_POISSON,
                                          TRN_RAND_EXPONENTIAL_F32,
                                          TRN_RAND_EXPONENTIAL_F64};
    static const uint64_t offs[] = {0, 7, (UINT64_C(1) << 20) - 9000, (UINT64_C(1) << 50) + 1};
    static const size_t ns[] = {1, 2, 1001, 20000};
    for (size_t a = 0; a < sizeof(dists) / sizeof(dists[0]); a++)
        for (size_t b = 0; b < sizeof(offs) / sizeof(offs[0]); b++)
            for (size_t c = 0; c < sizeof(ns) / sizeof(ns[0]); c++) {
                /* far offsets (a GF(2) matrix jump per shard for XORWOW,
                 * slow under sanitizers) with one size only */
                if (offs[b] > (UINT64_C(1) << 40) && ns[c] != 1001)
                    continue;
                /* MTGP32 steps to its offset and ends at word 2^32 */
                if (cur_gen == TRN_RAND_MTGP32 && offs[b] > (UINT64_C(1) << 20))
                    continue;
                size_t n = ns[c];
                const trn_rand_dist dd = dists[a];
                if ((dd == TRN_RAND_NORMAL_F32 || dd == TRN_RAND_NORMAL_F64 ||
                     dd == TRN_RAND_LOGNORMAL_F32 || dd == TRN_RAND_LOGNORMAL_F64) &&
                    n % 2)
                    n++;
                const trn_rand_desc d = xdesc(dd, 0xABC + a, offs[b], n);
                const size_t bytes = n * trn_rand_element_size(dd);
                unsigned char *one = run(d, 1);
                static const int shards[] = {2, 3, 7};
                for (int s = 0; s < 3; s++) {
                    unsigned char *many = run(d, shards[s]);
                    if (memcmp(one, many, bytes) != 0)
                        fail_msg("dist %d offset %llu n %zu: %d shards differ from 1", (int)dd,
                                 (unsigned long long)offs[b], n, shards[s]);
                    free(many);
                }
                free(one);
            }
    /* words at an offset continue the words from 0 */
    const trn_rand_desc whole = xdesc(TRN_RAND_U32, 5, 0, 50000);
    const trn_rand_desc tail = xdesc(TRN_RAND_U32, 5, 40001, 9999);
    uint32_t *w = (uint32_t *)run(whole, 3), *t = (uint32_t *)run(tail, 2);
    assert_memory_equal(w + 40001, t, 9999 * sizeof(uint32_t));
    free(w);
    free(t);
}

/* MT19937's words across a block boundary against the block generators. */
static void test_mt19937_blocks(void **state) {
    (void)state;
    const uint64_t seed = UINT64_C(0x123456789abcdef0), off = TRN_MT_BLOCK_WORDS * 3 - 1000;
    const size_t n = 3000;
    trn_rand_desc d;
    memset(&d, 0, sizeof(d));
    d.gen = TRN_RAND_MT19937;
    d.dist = TRN_RAND_U32;
    d.seed = seed;
    d.offset = off;
    d.n = n;
    uint32_t *got = (uint32_t *)run(d, 1);
    static trn_mt19937 s;
    trn_mt19937_block(&s, seed, 2);
    for (uint64_t k = 0; k < TRN_MT_BLOCK_WORDS - 1000; k++)
        (void)trn_mt19937_next(&s);
    for (size_t i = 0; i < 1000; i++)
        assert_int_equal(got[i], trn_mt19937_next(&s));
    const uint32_t key[4] = {(uint32_t)seed, (uint32_t)(seed >> 32), 3, 0};
    trn_mt19937_init_by_array(&s, key, 4);
    for (size_t i = 1000; i < n; i++)
        assert_int_equal(got[i], trn_mt19937_next(&s));
    free(got);
}

static void test_refusals(void **state) {
    cur_gen = *(const trn_rand_gen *)*state;
    float out[4];
    static const trn_rand_dist ext[] = {TRN_RAND_GAMMA_F32, TRN_RAND_BETA_F64,
                                        TRN_RAND_TRUNCNORMAL_F32, TRN_RAND_LHS_F32};
    for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
        trn_rand_desc d = xdesc(ext[i], 1, 0, 2);
        d.shape = d.scale = d.beta_a = d.beta_b = 1.0;
        d.lower = -1.0, d.upper = 1.0;
        d.lhs_dims = 1;
        d.dst = out;
        assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_UNSUPPORTED);
    }
}

/* MTGP32 against cuRAND's host generator (seed 1234), recorded. */
static void test_mtgp32_curand(void **state) {
    (void)state;
    static trn_mtgp32 g;
    trn_mtgp32_init(&g, 0, trn_mtgp32_state_seed(1234, 0));
    static const uint32_t first[5] = {2501053709u, 1991185121u, 2644103708u, 4279383218u,
                                      507727339u};
    for (int i = 0; i < 5; i++)
        assert_int_equal(trn_mtgp32_next(&g), first[i]);
    static const struct {
        uint32_t states;
        uint64_t word;
        uint32_t value;
    } at[] = {
        {192, 147687, 148767929u},  /* state 0, output 999 */
        {192, 48896, 1850711398u},  /* state 191, output 0 */
        {192, 999999, 1911539181u}, /* state 65, output 5207 */
        {64, 32512, 3255545850u},   /* legacy: state 63, output 256 */
        {64, 99999, 1402559804u},
    };
    for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
        trn_rand_desc d;
        memset(&d, 0, sizeof(d));
        d.gen = TRN_RAND_MTGP32;
        d.dist = TRN_RAND_U32;
        d.seed = 1234;
        d.offset = at[i].word - 3;
        d.n = 7;
        d.mtgp_states = at[i].states;
        uint32_t *w = (uint32_t *)run(d, 2);
        assert_int_equal(w[3], at[i].value);
        free(w);
    }
    /* what the daemon never sends */
    uint32_t out[4];
    trn_rand_desc d;
    memset(&d, 0, sizeof(d));
    d.gen = TRN_RAND_MTGP32;
    d.dist = TRN_RAND_U32;
    d.n = 4;
    d.dst = out;
    d.mtgp_states = 100;
    assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_FAILED);
    d.mtgp_states = 192;
    d.offset = TRN_RAND_MTGP_MAX_WORDS - 3;
    assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_FAILED);
}

/* The shard tests in the legacy layout. */
static void test_mtgp32_legacy_shards(void **state) {
    cur_states = TRN_RAND_MTGP_STATES_LEGACY;
    test_shards(state);
    cur_states = TRN_RAND_MTGP_STATES_DEFAULT;
}

static const trn_rand_gen XW = TRN_RAND_XORWOW, MRG = TRN_RAND_MRG32K3A, MT = TRN_RAND_MT19937,
                          MTGP = TRN_RAND_MTGP32;

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_marsaglia_state),
        cmocka_unit_test(test_skip),
        cmocka_unit_test(test_mrg32k3a),
        cmocka_unit_test_prestate(test_shards, (void *)&XW),
        cmocka_unit_test_prestate(test_shards, (void *)&MRG),
        cmocka_unit_test_prestate(test_refusals, (void *)&XW),
        cmocka_unit_test_prestate(test_refusals, (void *)&MRG),
        cmocka_unit_test(test_mt19937_published),
        cmocka_unit_test(test_mt19937_blocks),
        cmocka_unit_test_prestate(test_shards, (void *)&MT),
        cmocka_unit_test_prestate(test_refusals, (void *)&MT),
        cmocka_unit_test(test_mtgp32_curand),
        cmocka_unit_test_prestate(test_shards, (void *)&MTGP),
        cmocka_unit_test_prestate(test_mtgp32_legacy_shards, (void *)&MTGP),
        cmocka_unit_test_prestate(test_refusals, (void *)&MTGP),
    };
    return cmocka_run_group_tests_name("rand_seq", tests, NULL, NULL);
}
