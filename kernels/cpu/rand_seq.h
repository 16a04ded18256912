/*
 * rand_seq.h — trnrand's sequential (state-stepping) pseudo-random
 * generators on the CPU backend: XORWOW (rand_seq.c; docs/numerics.md,
 * "XORWOW", is the normative definition). Internal to kernels/cpu/ and its
 * unit tests.
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

#endif
