/*
 * rand_seq.h — trnrand's sequential (state-stepping) pseudo-random
 * generators on the CPU backend: XORWOW, MRG32k3a, MT19937 and MTGP32
 * (rand_seq.c; docs/numerics.md, "XORWOW", "MRG32k3a", "MT19937" and
 * "MTGP32", is the normative
 * definition). Internal to kernels/cpu/
 * and its unit tests.
 *
 * Unlike Philox, these generators cannot compute word j from j alone; word j
 * of a stream is the (j+1)-th output of the state seeded from the seed, and a
 * shard that starts at word j reaches it by an exact skip-ahead (a jump by
 * matrix powers), so the words do not depend on how the output is split.
 */
#ifndef TRN_KERNELS_CPU_RAND_SEQ_H
#define TRN_KERNELS_CPU_RAND_SEQ_H

#include <stdint.h>

/* Marsaglia's xorwow: a 160-bit xorshift register v[0..4] and a Weyl
 * counter d. */
typedef struct trn_xorwow {
    uint32_t v[5];
    uint32_t d;
} trn_xorwow;

/* The state cuRAND's curand_init(seed, 0, 0, &state) gives (the salt and
 * the mixing multipliers of curand_kernel.h). The seed 0xf7dcefddaad26b49
 * gives Marsaglia's own initial state (both mixed halves are 0). */
void trn_xorwow_seed(trn_xorwow *s, uint64_t seed);

/* Advances the state by n steps (n outputs skipped): n xorshift steps of
 * the register by powers of its GF(2) matrix, d += 362437 n mod 2^32. */
void trn_xorwow_skip(trn_xorwow *s, uint64_t n);

/* One step; returns the output (Marsaglia 2003, "Xorshift RNGs", p. 5). */
static inline uint32_t trn_xorwow_next(trn_xorwow *s) {
    const uint32_t t = s->v[0] ^ (s->v[0] >> 2);
    s->v[0] = s->v[1];
    s->v[1] = s->v[2];
    s->v[2] = s->v[3];
    s->v[3] = s->v[4];
    s->v[4] = (s->v[4] ^ (s->v[4] << 4)) ^ (t ^ (t << 1));
    s->d += 362437u;
    return s->v[4] + s->d;
}

/* L'Ecuyer's MRG32k3a ("Good parameters and implementations for combined
 * multiple recursive random number generators", Oper. Res. 47(1), 1999):
 * two order-3 recursions, oldest value first (s1[0] = x_{n-3}). */
#define TRN_MRG_M1 UINT64_C(4294967087) /* 2^32 - 209 */
#define TRN_MRG_M2 UINT64_C(4294944443) /* 2^32 - 22853 */
#define TRN_MRG_A12 UINT64_C(1403580)
#define TRN_MRG_A13N UINT64_C(810728)
#define TRN_MRG_A21 UINT64_C(527612)
#define TRN_MRG_A23N UINT64_C(1370589)

typedef struct trn_mrg32k3a {
    uint32_t s1[3]; /* mod m1 */
    uint32_t s2[3]; /* mod m2 */
} trn_mrg32k3a;

/* cuRAND's curand_init(seed, 0, 0): all six values 12345 (L'Ecuyer's
 * published seed) for seed 0; otherwise, with x1 = lo32(seed) ^ 0x55555555
 * and x2 = hi32(seed) ^ 0xAAAAAAAA, s1 = 12345 (x1, x2, x1) mod m1 and
 * s2 = 12345 (x2, x1, x2) mod m2. */
void trn_mrg32k3a_seed(trn_mrg32k3a *s, uint64_t seed);

/* Advances the state by n steps: the two 3 x 3 step matrices raised to n
 * modulo m1 and m2. */
void trn_mrg32k3a_skip(trn_mrg32k3a *s, uint64_t n);

/* One step; returns the combined integer r = (x1 - x2) mod m1 taken in
 * [1, m1] (r = m1 when x1 = x2), which L'Ecuyer scales by 1/(m1 + 1). */
static inline uint32_t trn_mrg32k3a_next(trn_mrg32k3a *s) {
    const uint64_t p1 =
        (TRN_MRG_A12 * s->s1[1] + TRN_MRG_A13N * (TRN_MRG_M1 - s->s1[0])) % TRN_MRG_M1;
    s->s1[0] = s->s1[1];
    s->s1[1] = s->s1[2];
    s->s1[2] = (uint32_t)p1;
    const uint64_t p2 =
        (TRN_MRG_A21 * s->s2[2] + TRN_MRG_A23N * (TRN_MRG_M2 - s->s2[0])) % TRN_MRG_M2;
    s->s2[0] = s->s2[1];
    s->s2[1] = s->s2[2];
    s->s2[2] = (uint32_t)p2;
    return (uint32_t)(p1 > p2 ? p1 - p2 : p1 + TRN_MRG_M1 - p2);
}

/* The raw 32-bit word of r: cuRAND's curand() for MRG32k3a,
 * (unsigned)(r * 1.000000048662) in double, truncated; r = m1 makes
 * 2^32 + 0.0017, which saturates to 2^32 - 1 as the GPU's conversion does. */
static inline uint32_t trn_mrg32k3a_word(uint32_t r) {
    const double v = (double)r * 1.000000048662;
    return v >= 4294967296.0 ? UINT32_C(0xFFFFFFFF) : (uint32_t)v;
}

/* Matsumoto and Nishimura's MT19937 ("Mersenne Twister", ACM TOMACS 8(1),
 * 1998; the 2002 initialisations init_genrand and init_by_array). trnrand
 * uses it in blocks of TRN_MT_BLOCK_WORDS words: block b of seed s is the
 * output of a generator initialised by init_by_array({lo32(s), hi32(s),
 * lo32(b), hi32(b)}), so any word is at most a block's length from a
 * starting point (docs/numerics.md, "MT19937"). */
#define TRN_MT_N 624
#define TRN_MT_BLOCK_BITS 16
#define TRN_MT_BLOCK_WORDS (UINT64_C(1) << TRN_MT_BLOCK_BITS)

typedef struct trn_mt19937 {
    uint32_t mt[TRN_MT_N];
    unsigned mti; /* next word of mt to temper; TRN_MT_N: twist first */
} trn_mt19937;

void trn_mt19937_init_genrand(trn_mt19937 *s, uint32_t seed);
void trn_mt19937_init_by_array(trn_mt19937 *s, const uint32_t *key, unsigned len);
/* The next tempered output (genrand_int32). */
uint32_t trn_mt19937_next(trn_mt19937 *s);
/* The generator of block b of seed s, positioned at the block's first word. */
void trn_mt19937_block(trn_mt19937 *s, uint64_t seed, uint64_t block);

/* Saito and Matsumoto's MTGP32 ("Variants of Mersenne Twister suitable for
 * graphic processors", ACM TOMS 39(2), 2013) with Mersenne exponent 11213:
 * a sequence x_0, x_1, ... of 32-bit words whose first TRN_MTGP_N come from
 * the seed (mtgp32_init_state) and
 *     x_{k+N} = rec(x_k, x_{k+1}, x_{k+pos}),  output_k = temper(x_{k+N}, x_{k+pos-1})
 * with the parameter set's pos, sh1, sh2 and tables (mtgp32_params.c, the
 * 200 sets of mtgp32dc_params_fast_11213, cuRAND's table). */
#define TRN_MTGP_N 351
#define TRN_MTGP_NPARAMS 200
#define TRN_MTGP_RING 512 /* a power of two above TRN_MTGP_N + 1 */

/* One parameter set: pos, sh1, sh2 and entries 1, 2, 4, 8 of the GF(2)-linear
 * tables tbl (recursion) and tmp_tbl (tempering). */
typedef struct trn_mtgp32_param {
    uint16_t pos, sh1, sh2;
    uint32_t tbl[4];
    uint32_t tmp[4];
} trn_mtgp32_param;

extern const trn_mtgp32_param trn_mtgp32_params[TRN_MTGP_NPARAMS];

/* A generator: the last TRN_MTGP_N + 1 words of the sequence in a ring,
 * k = outputs made so far. */
typedef struct trn_mtgp32 {
    uint32_t ring[TRN_MTGP_RING];
    uint32_t tbl[16], tmp[16];
    unsigned pos, sh1, sh2;
    uint64_t k;
} trn_mtgp32;

/* mtgp32_init_state of the reference code: parameter set p (< 200), 32-bit
 * seed; positioned at output 0. */
void trn_mtgp32_init(trn_mtgp32 *s, unsigned p, uint32_t seed);

/* The next output (mtgp32_genrand_uint32). */
static inline uint32_t trn_mtgp32_next(trn_mtgp32 *s) {
    const uint64_t k = s->k++;
    const uint32_t m = TRN_MTGP_RING - 1;
    uint32_t x = (s->ring[k & m] & UINT32_C(0xfff80000)) ^ s->ring[(k + 1) & m];
    x ^= x << s->sh1;
    const uint32_t y = x ^ (s->ring[(k + s->pos) & m] >> s->sh2);
    const uint32_t r = y ^ s->tbl[y & 0x0f];
    s->ring[(k + TRN_MTGP_N) & m] = r;
    uint32_t t = s->ring[(k + s->pos - 1) & m];
    t ^= t >> 16;
    t ^= t >> 8;
    return r ^ s->tmp[t & 0x0f];
}

/* Skips n outputs (steps; MTGP32 has no cheap jump). */
void trn_mtgp32_skip(trn_mtgp32 *s, uint64_t n);

/* cuRAND's host-API layout of the MTGP32 word stream (docs/numerics.md,
 * "MTGP32"): B states (ops/rand.h's TRN_RAND_MTGP_STATES_DEFAULT for cuRAND's
 * default and best orderings, TRN_RAND_MTGP_STATES_LEGACY for its legacy
 * ordering), state b of
 * seed s using parameter set b and 32-bit seed lo32(s ^ (s >> 32)) + b + 1;
 * word j is output 256 (j / 256B) + j % 256 of state (j / 256) % B. */
#define TRN_MTGP_RUN 256u

static inline uint32_t trn_mtgp32_state_seed(uint64_t seed, unsigned b) {
    return (uint32_t)(seed ^ (seed >> 32)) + (uint32_t)b + 1u;
}

#endif
