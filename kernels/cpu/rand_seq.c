/*
 * rand_seq.c — seeding and skip-ahead for trnrand's sequential generators
 * (rand_seq.h; docs/numerics.md, "XORWOW", "MRG32k3a", "MT19937" and
 * "MTGP32"). MRG32k3a's skip-ahead, MT19937's blocks and MTGP32's seeding
 * are described above their code below.
 *
 * XORWOW. The register update of trn_xorwow_next is linear over GF(2): the
 * 160-bit register after one step is M x for a fixed 160 x 160 bit matrix M
 * (built here by stepping the 160 unit vectors), so after n steps it is
 * M^n x. trn_xorwow_skip applies M^n by binary powering: M^(2^k) for the set
 * bits k of n, each a squaring of the previous power. The Weyl counter is
 * additive, d + 362437 n mod 2^32. Short skips step the generator instead,
 * which is cheaper below a few tens of thousands of steps; both give the same
 * state, which the unit tests check.
 *
 * Cost: a squaring is 160 matrix-vector products (~13k word XORs each), so a
 * skip by n costs about log2(n) x 2 M word operations: a few milliseconds for
 * n near 2^64, once per shard of an op. No state outlives a call.
 */
#include <string.h>

#include "kernels/cpu/rand_seq.h"

/* Skips shorter than this step the generator (~2 ns per step) rather than
 * square matrices (~30-60 us per squaring). */
#define XW_DIRECT_STEPS (UINT64_C(1) << 15)

enum { XW_BITS = 160 };

/* A 160 x 160 bit matrix by columns: column b is the image of unit vector
 * e_b (bit b % 32 of word b / 32). */
typedef struct xw_mat {
    uint32_t col[XW_BITS][5];
} xw_mat;

/* y = m x. */
static void xw_apply(const xw_mat *m, const uint32_t x[5], uint32_t y[5]) {
    uint32_t r[5] = {0, 0, 0, 0, 0};
    for (unsigned w = 0; w < 5; w++) {
        uint32_t bits = x[w];
        while (bits) {
            const unsigned b = 32 * w + (unsigned)__builtin_ctz(bits);
            bits &= bits - 1;
            for (unsigned k = 0; k < 5; k++)
                r[k] ^= m->col[b][k];
        }
    }
    memcpy(y, r, sizeof(r));
}

/* *m = m m; t is scratch. */
static void xw_square(xw_mat *m, xw_mat *t) {
    for (unsigned b = 0; b < XW_BITS; b++)
        xw_apply(m, m->col[b], t->col[b]);
    memcpy(m, t, sizeof(*m));
}

/* M: one register step of each unit vector (the Weyl counter is not part
 * of the linear map). */
static void xw_step_matrix(xw_mat *m) {
    for (unsigned b = 0; b < XW_BITS; b++) {
        trn_xorwow s;
        memset(&s, 0, sizeof(s));
        s.v[b / 32] = UINT32_C(1) << (b % 32);
        (void)trn_xorwow_next(&s);
        memcpy(m->col[b], s.v, sizeof(s.v));
    }
}

void trn_xorwow_seed(trn_xorwow *s, uint64_t seed) {
    /* cuRAND's curand_init(seed, 0, 0): salt each half, then mix it with an
     * odd multiplier; Marsaglia's initial values are offset by the mix. */
    const uint32_t s0 = (uint32_t)seed ^ UINT32_C(0xaad26b49);
    const uint32_t s1 = (uint32_t)(seed >> 32) ^ UINT32_C(0xf7dcefdd);
    const uint32_t t0 = UINT32_C(1099087573) * s0;
    const uint32_t t1 = UINT32_C(2591861531) * s1;
    s->d = UINT32_C(6615241) + t1 + t0;
    s->v[0] = UINT32_C(123456789) + t0;
    s->v[1] = UINT32_C(362436069) ^ t0;
    s->v[2] = UINT32_C(521288629) + t1;
    s->v[3] = UINT32_C(88675123) ^ t1;
    s->v[4] = UINT32_C(5783321) + t0;
}

void trn_xorwow_skip(trn_xorwow *s, uint64_t n) {
    if (n < XW_DIRECT_STEPS) {
        for (uint64_t i = 0; i < n; i++)
            (void)trn_xorwow_next(s);
        return;
    }
    /* Two 3.2 KB matrices: on the stack of the calling worker. */
    xw_mat p, t;
    xw_step_matrix(&p);
    s->d += UINT32_C(362437) * (uint32_t)n; /* mod 2^32 */
    for (uint64_t k = n;;) {
        if (k & 1u)
            xw_apply(&p, s->v, s->v);
        k >>= 1;
        if (!k)
            break;
        xw_square(&p, &t);
    }
}

/* ---- MRG32k3a ---------------------------------------------------------------
 *
 * A state (x_{n-3}, x_{n-2}, x_{n-1}) of each component steps by a 3 x 3
 * matrix modulo its m: A1 = [0 1 0; 0 0 1; -a13n a12 0] (mod m1) and
 * A2 = [0 1 0; 0 0 1; -a23n 0 a21] (mod m2), so n steps are A^n, computed by
 * binary powering (L'Ecuyer's A1p/A2p tables are such powers for fixed n).
 * Entries are below 2^32, so each product fits in 64 bits and is reduced
 * before the next is added. */

typedef uint64_t mrg_mat[3][3];

/* c = a b mod m (c may alias a or b). */
static void mrg_mul(const mrg_mat a, const mrg_mat b, uint64_t m, mrg_mat c) {
    mrg_mat r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            uint64_t acc = 0;
            for (int k = 0; k < 3; k++)
                acc = (acc + (a[i][k] * b[k][j]) % m) % m;
            r[i][j] = acc;
        }
    memcpy(c, r, sizeof(r));
}

/* v = a^n v mod m. */
static void mrg_pow_apply(const mrg_mat a, uint64_t n, uint64_t m, uint32_t v[3]) {
    mrg_mat p, acc = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    memcpy(p, a, sizeof(p));
    while (n) {
        if (n & 1u)
            mrg_mul(p, acc, m, acc);
        n >>= 1;
        if (n)
            mrg_mul(p, p, m, p);
    }
    uint64_t r[3];
    for (int i = 0; i < 3; i++) {
        uint64_t t = 0;
        for (int k = 0; k < 3; k++)
            t = (t + (acc[i][k] * v[k]) % m) % m;
        r[i] = t;
    }
    for (int i = 0; i < 3; i++)
        v[i] = (uint32_t)r[i];
}

void trn_mrg32k3a_seed(trn_mrg32k3a *s, uint64_t seed) {
    for (int i = 0; i < 3; i++)
        s->s1[i] = s->s2[i] = 12345u;
    if (seed == 0)
        return;
    const uint64_t x1 = (uint32_t)seed ^ UINT32_C(0x55555555);
    const uint64_t x2 = (uint32_t)(seed >> 32) ^ UINT32_C(0xAAAAAAAA);
    s->s1[0] = (uint32_t)(x1 * 12345u % TRN_MRG_M1);
    s->s1[1] = (uint32_t)(x2 * 12345u % TRN_MRG_M1);
    s->s1[2] = (uint32_t)(x1 * 12345u % TRN_MRG_M1);
    s->s2[0] = (uint32_t)(x2 * 12345u % TRN_MRG_M2);
    s->s2[1] = (uint32_t)(x1 * 12345u % TRN_MRG_M2);
    s->s2[2] = (uint32_t)(x2 * 12345u % TRN_MRG_M2);
}

void trn_mrg32k3a_skip(trn_mrg32k3a *s, uint64_t n) {
    if (n < 64) { /* cheaper than ~2 x 64 matrix products */
        for (uint64_t i = 0; i < n; i++)
            (void)trn_mrg32k3a_next(s);
        return;
    }
    const mrg_mat a1 = {{0, 1, 0}, {0, 0, 1}, {TRN_MRG_M1 - TRN_MRG_A13N, TRN_MRG_A12, 0}};
    const mrg_mat a2 = {{0, 1, 0}, {0, 0, 1}, {TRN_MRG_M2 - TRN_MRG_A23N, 0, TRN_MRG_A21}};
    mrg_pow_apply(a1, n, TRN_MRG_M1, s->s1);
    mrg_pow_apply(a2, n, TRN_MRG_M2, s->s2);
}

/* ---- MT19937 -------------------------------------------------------------------
 *
 * Written from the published algorithm: the 624-word state, the twist with
 * MATRIX_A = 0x9908b0df on the upper bit of one word and the lower 31 of the
 * next, tempering by (11, 7 & 0x9d2c5680, 15 & 0xefc60000, 18), and the two
 * 2002 initialisations. A skip within a block steps the generator (at most
 * 2^16 words, ~0.1 ms); blocks make long skips unnecessary. */

#define MT_M 397
#define MT_MATRIX_A UINT32_C(0x9908b0df)
#define MT_UPPER UINT32_C(0x80000000)
#define MT_LOWER UINT32_C(0x7fffffff)

void trn_mt19937_init_genrand(trn_mt19937 *s, uint32_t seed) {
    s->mt[0] = seed;
    for (unsigned i = 1; i < TRN_MT_N; i++)
        s->mt[i] = UINT32_C(1812433253) * (s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) + i;
    s->mti = TRN_MT_N;
}

void trn_mt19937_init_by_array(trn_mt19937 *s, const uint32_t *key, unsigned len) {
    trn_mt19937_init_genrand(s, UINT32_C(19650218));
    unsigned i = 1, j = 0;
    for (unsigned k = TRN_MT_N > len ? TRN_MT_N : len; k; k--) {
        s->mt[i] =
            (s->mt[i] ^ ((s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) * UINT32_C(1664525))) + key[j] + j;
        i++;
        j++;
        if (i >= TRN_MT_N) {
            s->mt[0] = s->mt[TRN_MT_N - 1];
            i = 1;
        }
        if (j >= len)
            j = 0;
    }
    for (unsigned k = TRN_MT_N - 1; k; k--) {
        s->mt[i] = (s->mt[i] ^ ((s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) * UINT32_C(1566083941))) - i;
        i++;
        if (i >= TRN_MT_N) {
            s->mt[0] = s->mt[TRN_MT_N - 1];
            i = 1;
        }
    }
    s->mt[0] = UINT32_C(0x80000000); /* a non-zero state */
    s->mti = TRN_MT_N;
}

static void mt_twist(trn_mt19937 *s) {
    for (unsigned k = 0; k < TRN_MT_N; k++) {
        const uint32_t y = (s->mt[k] & MT_UPPER) | (s->mt[(k + 1) % TRN_MT_N] & MT_LOWER);
        s->mt[k] = s->mt[(k + MT_M) % TRN_MT_N] ^ (y >> 1) ^ ((y & 1u) ? MT_MATRIX_A : 0u);
    }
    s->mti = 0;
}

uint32_t trn_mt19937_next(trn_mt19937 *s) {
    if (s->mti >= TRN_MT_N)
        mt_twist(s);
    uint32_t y = s->mt[s->mti++];
    y ^= y >> 11;
    y ^= (y << 7) & UINT32_C(0x9d2c5680);
    y ^= (y << 15) & UINT32_C(0xefc60000);
    y ^= y >> 18;
    return y;
}

void trn_mt19937_block(trn_mt19937 *s, uint64_t seed, uint64_t block) {
    const uint32_t key[4] = {(uint32_t)seed, (uint32_t)(seed >> 32), (uint32_t)block,
                             (uint32_t)(block >> 32)};
    trn_mt19937_init_by_array(s, key, 4);
}

/* ---- MTGP32 ---------------------------------------------------------------------
 *
 * Written from the published algorithm (Saito and Matsumoto's mtgp32-fast):
 * the tables are expanded from their four basis entries, and the state is
 * initialised as mtgp32_init_state does. Its first two words are the seed
 * and a "hidden seed" from the parameter set; every word starts as a byte
 * from the hidden seed repeated four times, and then words 1 .. N-1 are
 * mixed by the same recurrence as MT19937's init_genrand. */

static void mtgp_expand(const uint32_t basis[4], uint32_t out[16]) {
    for (unsigned i = 0; i < 16; i++) {
        uint32_t v = 0;
        for (unsigned b = 0; b < 4; b++)
            if (i & (1u << b))
                v ^= basis[b];
        out[i] = v;
    }
}

void trn_mtgp32_init(trn_mtgp32 *s, unsigned p, uint32_t seed) {
    const trn_mtgp32_param *q = &trn_mtgp32_params[p % TRN_MTGP_NPARAMS];
    mtgp_expand(q->tbl, s->tbl);
    mtgp_expand(q->tmp, s->tmp);
    s->pos = q->pos;
    s->sh1 = q->sh1;
    s->sh2 = q->sh2;
    const uint32_t hidden = s->tbl[4] ^ (s->tbl[8] << 16);
    uint32_t t = hidden;
    t += t >> 16;
    t += t >> 8;
    const uint32_t fill = (t & 0xffu) * UINT32_C(0x01010101);
    for (unsigned i = 0; i < TRN_MTGP_N; i++)
        s->ring[i] = fill;
    s->ring[0] = seed;
    s->ring[1] = hidden;
    for (unsigned i = 1; i < TRN_MTGP_N; i++)
        s->ring[i] ^= UINT32_C(1812433253) * (s->ring[i - 1] ^ (s->ring[i - 1] >> 30)) + i;
    s->k = 0;
}

void trn_mtgp32_skip(trn_mtgp32 *s, uint64_t n) {
    for (uint64_t i = 0; i < n; i++)
        (void)trn_mtgp32_next(s);
}
