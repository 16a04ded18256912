/*
 * rand.h — the descriptor of trnrand's generators and distributions.
 */
#ifndef TRN_OPS_RAND_H
#define TRN_OPS_RAND_H

#include "ops/types.h"
#include "trnsci_wire.h"

/* Random numbers from the Philox4x32-10 stream (docs/numerics.md, "trnrand
 * streams"): raw word j of the stream of seed s is element j mod 4 of
 * philox4x32_10(counter {lo32(j/4), hi32(j/4), 0, 0}, key {lo32(s), hi32(s)}).
 * Element i of the output consumes raw words offset + w*i .. offset + w*i +
 * w - 1, where w is trn_rand_words_per_element(dist), so any element can be
 * computed on its own: any split of the output gives the same bits. Gamma,
 * beta and truncated normal reserve w = 1 word per element but read only
 * element i's own sub-stream, the Philox blocks with counter
 * {lo32(offset + i), hi32(offset + i), attempt, tag}, tag != 0
 * (docs/numerics.md, "Sub-streams"); a Latin hypercube reads 6 key words per
 * dimension, then w = 2 words per element. */
typedef enum trn_rand_dist {
    TRN_RAND_U32 = 1,           /* the raw words */
    TRN_RAND_UNIFORM_F32 = 2,   /* (0, 1] */
    TRN_RAND_UNIFORM_F64 = 3,   /* (0, 1] */
    TRN_RAND_NORMAL_F32 = 4,    /* mean, stddev; n even */
    TRN_RAND_NORMAL_F64 = 5,    /* mean, stddev; n even */
    TRN_RAND_LOGNORMAL_F32 = 6, /* exp(normal(mean, stddev)); n even */
    TRN_RAND_LOGNORMAL_F64 = 7, /* exp(normal(mean, stddev)); n even */
    TRN_RAND_POISSON = 8,       /* uint32, Poisson(lambda) by inversion */
    /* trnsci extensions, Philox only (docs/numerics.md, "Extensions"). */
    TRN_RAND_EXPONENTIAL_F32 = 9, /* rate lambda, by inversion */
    TRN_RAND_EXPONENTIAL_F64 = 10,
    TRN_RAND_GAMMA_F32 = 11, /* shape, scale; per-element sub-stream */
    TRN_RAND_GAMMA_F64 = 12,
    TRN_RAND_BETA_F32 = 13, /* beta_a, beta_b; per-element sub-stream */
    TRN_RAND_BETA_F64 = 14,
    TRN_RAND_TRUNCNORMAL_F32 = 15, /* mean, stddev, lower, upper; sub-stream */
    TRN_RAND_TRUNCNORMAL_F64 = 16,
    TRN_RAND_LHS_F32 = 17, /* n = points x lhs_dims, dimension-major */
    TRN_RAND_LHS_F64 = 18,
    TRN_RAND_U64 = 19, /* Sobol64 generators only: the 64-bit points */
} trn_rand_dist;

/* The largest lambda a Poisson op accepts (docs/numerics.md, "Poisson"). */
#define TRN_RAND_POISSON_LAMBDA_MAX TRNSCI_WIRE_POISSON_LAMBDA_MAX

/* The most points per dimension of a Latin hypercube op (docs/numerics.md,
 * "Latin hypercube"): float results resolve at most 2^20 strata, doubles
 * 2^32. */
#define TRN_RAND_LHS_MAX_POINTS_F32 (UINT64_C(1) << 20)
#define TRN_RAND_LHS_MAX_POINTS_F64 (UINT64_C(1) << 32)
/* Round keys per dimension of the Latin hypercube permutation. */
#define TRN_RAND_LHS_ROUNDS 6

/* The generator behind an op. TRN_RAND_PHILOX is the stream above. The Sobol
 * generators (docs/numerics.md, "Sobol32") make `dims` dimensions of 32-bit
 * Sobol points: n is a multiple of dims, element i is point
 * offset + i % (n/dims) of dimension i / (n/dims) (cuRAND's dimension-major
 * layout), offset counts points and offset + n/dims <= 2^32. Every element
 * is a function of (dimension, point index) alone. Sobol ops take U32,
 * UNIFORM_* and (LOG)NORMAL_* (by the inverse normal CDF, any n); seed is
 * not used; POISSON is not available. */
typedef enum trn_rand_gen {
    TRN_RAND_PHILOX = 0,
    TRN_RAND_SOBOL32 = 1,
    TRN_RAND_SCRAMBLED_SOBOL32 = 2, /* each dimension XORed with a constant */
    TRN_RAND_SOBOL64 = 3,           /* 64-bit points, offset + n/dims <= 2^64 */
    TRN_RAND_SCRAMBLED_SOBOL64 = 4,
    /* Sequential pseudo-random generators (kernels/cpu/rand_seq.h): raw word
     * j of the stream of seed s is output j + 1 of the generator seeded as
     * cuRAND's curand_init(s, 0, 0) seeds it (MT19937: per block), as a
     * 32-bit word (MRG32k3a:
     * cuRAND's curand() of the combined value; docs/numerics.md); the
     * distributions use the words as Philox's do (same w, same formulas).
     * The extensions other than exponential are Philox only. */
    TRN_RAND_XORWOW = 5,
    TRN_RAND_MRG32K3A = 6,
    TRN_RAND_MT19937 = 7, /* in blocks of 2^16 words, see rand_seq.h */
    /* cuRAND's host-API MTGP32 word order (mtgp_states interleaved states,
     * rand_seq.h); reached by stepping, so offset + words is limited to
     * TRN_RAND_MTGP_MAX_WORDS. */
    TRN_RAND_MTGP32 = 8,
} trn_rand_gen;

/* The end of an MTGP32 stream in words: a shard reaches its first word by
 * stepping every state (a few ns per word), so this bounds an op's start-up
 * to some tens of seconds. */
#define TRN_RAND_MTGP_MAX_WORDS (UINT64_C(1) << 32)
/* MTGP32 layouts: states interleaved for cuRAND's default and best
 * orderings, and for its legacy ordering. */
#define TRN_RAND_MTGP_STATES_DEFAULT 192u
#define TRN_RAND_MTGP_STATES_LEGACY 64u

/* A Sobol generator (dimension-major points, no seed). */
static inline int trn_rand_gen_is_quasi(trn_rand_gen g) {
    return g == TRN_RAND_SOBOL32 || g == TRN_RAND_SCRAMBLED_SOBOL32 || g == TRN_RAND_SOBOL64 ||
           g == TRN_RAND_SCRAMBLED_SOBOL64;
}

/* Dimensions of the Sobol direction-number tables (kernels/cpu/sobol.h): all
 * of Joe & Kuo's new-joe-kuo-6.21201 (cuRAND takes 20000). Protocol 1.13 and
 * older daemons took 1024. */
#define TRN_SOBOL_MAX_DIMS 21201
#define TRN_SOBOL_MAX_DIMS_1_13 1024

typedef struct trn_rand_desc {
    trn_rand_dist dist;
    trn_rand_gen gen;
    uint32_t dims; /* Sobol: 1 .. TRN_SOBOL_MAX_DIMS; Philox: unused */
    uint64_t seed;
    uint64_t offset; /* Philox: raw word where element 0 starts; Sobol: point */
    double mean, stddev;
    double lambda;         /* Poisson: 0 < lambda <= TRN_RAND_POISSON_LAMBDA_MAX;
                              exponential: the rate, finite and > 0 */
    double shape, scale;   /* gamma: finite, > 0 */
    double beta_a, beta_b; /* beta: finite, > 0 */
    double lower, upper;   /* truncated normal: not NaN, lower < upper */
    uint32_t lhs_dims;     /* Latin hypercube: >= 1, n % lhs_dims == 0 */
    uint32_t mtgp_states;  /* MTGP32: 192 (cuRAND's default order) or 64 (legacy) */
    void *dst;             /* n elements of the distribution's type */
    size_t n;
} trn_rand_desc;

/* Raw 32-bit words one element consumes (0 for an unknown dist). Normal
 * distributions make their elements in Box-Muller pairs from the words of
 * the pair, and a pair never straddles a shard (shards split at even
 * elements). */
static inline unsigned trn_rand_words_per_element(trn_rand_dist d) {
    switch (d) {
    case TRN_RAND_U32:
    case TRN_RAND_UNIFORM_F32:
    case TRN_RAND_NORMAL_F32:
    case TRN_RAND_LOGNORMAL_F32:
    case TRN_RAND_EXPONENTIAL_F32:
    case TRN_RAND_GAMMA_F32:
    case TRN_RAND_GAMMA_F64:
    case TRN_RAND_BETA_F32:
    case TRN_RAND_BETA_F64:
    case TRN_RAND_TRUNCNORMAL_F32:
    case TRN_RAND_TRUNCNORMAL_F64: return 1;
    case TRN_RAND_UNIFORM_F64:
    case TRN_RAND_NORMAL_F64:
    case TRN_RAND_LOGNORMAL_F64:
    case TRN_RAND_POISSON:
    case TRN_RAND_EXPONENTIAL_F64:
    case TRN_RAND_LHS_F32:
    case TRN_RAND_LHS_F64: return 2;
    case TRN_RAND_U64: return 0; /* Sobol64 only */
    }
    return 0;
}

/* Bytes of one element of dist's output. */
static inline size_t trn_rand_element_size(trn_rand_dist d) {
    switch (d) {
    case TRN_RAND_U32:
    case TRN_RAND_UNIFORM_F32:
    case TRN_RAND_NORMAL_F32:
    case TRN_RAND_LOGNORMAL_F32:
    case TRN_RAND_POISSON:
    case TRN_RAND_EXPONENTIAL_F32:
    case TRN_RAND_GAMMA_F32:
    case TRN_RAND_BETA_F32:
    case TRN_RAND_TRUNCNORMAL_F32:
    case TRN_RAND_LHS_F32: return 4;
    case TRN_RAND_UNIFORM_F64:
    case TRN_RAND_NORMAL_F64:
    case TRN_RAND_LOGNORMAL_F64:
    case TRN_RAND_EXPONENTIAL_F64:
    case TRN_RAND_GAMMA_F64:
    case TRN_RAND_BETA_F64:
    case TRN_RAND_TRUNCNORMAL_F64:
    case TRN_RAND_LHS_F64:
    case TRN_RAND_U64: return 8;
    }
    return 0;
}

/* This family's op kinds: its rows of the list of kinds (ops/op_kinds.h
 * says what each column is). */
#define TRN_RAND_KINDS(X) X(RAND, 48, RAND_GENERATE, rand, rand, "rand", "rand", "rand", CORE)

/* Its descriptors' places in trn_op_desc.u (ops/op.h): X(type, field). */
#define TRN_RAND_DESCS(X) X(trn_rand_desc, rand)

#endif
