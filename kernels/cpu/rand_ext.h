/*
 * rand_ext.h — trnrand's extension distributions on the CPU backend
 * (rand_ext.c; docs/numerics.md, "Extensions", is the normative
 * definition): gamma, beta and truncated normal from per-element
 * sub-streams, and the Latin hypercube. Internal to kernels/cpu/ and its
 * unit tests.
 */
#ifndef TRN_KERNELS_CPU_RAND_EXT_H
#define TRN_KERNELS_CPU_RAND_EXT_H

#include <stdint.h>

#include "ops/op.h"

/* Counter word 3 of the sub-stream blocks of each use (the main stream
 * always has counter word 3 = 0, so no sub-stream block is a stream block). */
#define TRN_RAND_TAG_GAMMA 1u
#define TRN_RAND_TAG_BETA_A 2u
#define TRN_RAND_TAG_BETA_B 3u
#define TRN_RAND_TAG_TRUNCNORMAL 4u
#define TRN_RAND_TAG_LHS 5u

/* Rejection attempts per element before the documented fallback. */
#define TRN_RAND_MAX_ATTEMPTS 64u
/* Counter word 2 of the gamma boost block (shape < 1). */
#define TRN_RAND_BOOST_ATTEMPT UINT32_C(0xFFFFFFFF)
/* A truncated normal whose standardised interval lies below -30 (or, mirrored,
 * above 30) is sampled by tail rejection instead of inversion. */
#define TRN_RAND_TRUNCNORMAL_TAIL 30.0

/* The standard normal value of a 53-bit integer z < 2^53: Phi^-1((z + 1/2)
 * 2^-53), computed on the lower tail (antisymmetric: n53(2^53 - 1 - z) =
 * -n53(z)). */
double trn_rand_n53(uint64_t z);

/* The log of a Gamma(shape, 1) value of element id j's sub-stream tag (the
 * gamma of element j for tag TRN_RAND_TAG_GAMMA). *dv receives d*v (or the
 * fallback d), *boost the added log(u)/shape (0 for shape >= 1), so that the
 * value is dv * exp(boost) and its log is log(dv) + boost; *log_u receives
 * log(u) of the boost block (0 for shape >= 1). */
void trn_rand_gamma_parts(uint64_t seed, uint64_t j, uint32_t tag, double shape, double *dv,
                          double *boost, double *log_u);

/* The standard truncated normal of element id j on [alpha, beta]
 * (alpha < beta, either may be infinite). */
double trn_rand_truncnormal_std(uint64_t seed, uint64_t j, double alpha, double beta);

/* The stratum (0 .. points - 1) of element i (< n) of a Latin hypercube op. */
uint64_t trn_rand_lhs_stratum(const trn_rand_desc *d, size_t i);

/* Gamma, beta, truncated normal and Latin hypercube ops (Philox only).
 * Every element is computed on its own, so shards own contiguous ranges
 * (trn_cpu_shard_range over n) and any split gives the same bits. */
trn_kstatus trn_cpu_rand_ext(const trn_rand_desc *d, int shard, int nshards);

#endif
