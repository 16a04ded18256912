/*
 * trnrand.h — random number generation (the cuRAND host API analog).
 *
 * A generator is created for one algorithm, given a seed and an offset, and
 * fills device memory with numbers from its stream. Today the only algorithm
 * is Philox4x32-10, a counter-based generator: raw 32-bit word j of the
 * stream of seed s is element j mod 4 of philox4x32_10(counter
 * {lo32(j/4), hi32(j/4), 0, 0}, key {lo32(s), hi32(s)}), the function of
 * Random123 (Salmon et al., SC11), and element i of a call's output is made
 * from the words offset + w*i .. offset + w*i + w - 1, where w is 1 for
 * 32-bit results (trnrandGenerate, Uniform, Normal, LogNormal) and 2 for
 * double results and for Poisson results. docs/numerics.md gives how each distribution turns its
 * words into a value. The output therefore never depends on how the daemon
 * splits the work over its cores.
 *
 * The generator's state (seed, offset) lives in this process, as cuRAND's
 * host API keeps it on the host: each generation call queues one op on the
 * generator's stream at the current offset, then advances the offset by the
 * words it consumed (count × w), so consecutive calls continue one stream.
 * Calls are asynchronous with respect to the host, like trnblas routines:
 * they return once the daemon has validated and queued the op; the numbers
 * are in device memory after a synchronising call that covers the stream
 * (trnsciStreamSynchronize, trnsciDeviceSynchronize, a device trnsciMemcpy,
 * …). A call that fails leaves the offset where it was.
 *
 * On failure, trnsciGetLastErrorMessage() says why (the library's or the
 * daemon's explanation). Generators are thread-safe: concurrent calls on one
 * generator are serialised, each getting its own range of the stream.
 *
 * Deviations from cuRAND are listed in docs/rosetta.md.
 */
#ifndef TRNSCI_TRNRAND_H
#define TRNSCI_TRNRAND_H

#include <stddef.h>

#include <trnsci/trnsci.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Values are those of curandStatus_t. */
typedef enum trnrandStatus {
    TRNRAND_STATUS_SUCCESS = 0,
    TRNRAND_STATUS_VERSION_MISMATCH = 100,    /* not returned */
    TRNRAND_STATUS_NOT_INITIALIZED = 101,     /* generator NULL, destroyed or never created */
    TRNRAND_STATUS_ALLOCATION_FAILED = 102,   /* out of memory, or a daemon queue/stream limit */
    TRNRAND_STATUS_TYPE_ERROR = 103,          /* rng type unknown or not available yet */
    TRNRAND_STATUS_OUT_OF_RANGE = 104,        /* a bad argument (see each call) */
    TRNRAND_STATUS_LENGTH_NOT_MULTIPLE = 105, /* an odd count for a normal distribution */
    TRNRAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106, /* not returned */
    TRNRAND_STATUS_LAUNCH_FAILURE = 201,            /* the daemon could not queue the op */
    TRNRAND_STATUS_PREEXISTING_FAILURE = 202,       /* the daemon went away or ended the session */
    TRNRAND_STATUS_INITIALIZATION_FAILED = 203,     /* no daemon reachable, protocol mismatch */
    TRNRAND_STATUS_ARCH_MISMATCH = 204,             /* the daemon does not serve random numbers */
    TRNRAND_STATUS_INTERNAL_ERROR = 999,
} trnrandStatus_t;

/* Values are those of curandRngType_t. Only the Philox generator is
 * available today: TRNRAND_RNG_PSEUDO_DEFAULT selects it (cuRAND's default
 * is XORWOW). The other types are TRNRAND_STATUS_TYPE_ERROR for now. */
typedef enum trnrandRngType {
    TRNRAND_RNG_TEST = 0,             /* not a generator: TRNRAND_STATUS_TYPE_ERROR */
    TRNRAND_RNG_PSEUDO_DEFAULT = 100, /* here: PHILOX4_32_10 */
    TRNRAND_RNG_PSEUDO_XORWOW = 101,
    TRNRAND_RNG_PSEUDO_MRG32K3A = 121,
    TRNRAND_RNG_PSEUDO_MTGP32 = 141,
    TRNRAND_RNG_PSEUDO_MT19937 = 142,
    TRNRAND_RNG_PSEUDO_PHILOX4_32_10 = 161,
    TRNRAND_RNG_QUASI_DEFAULT = 200,
    TRNRAND_RNG_QUASI_SOBOL32 = 201,
    TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 202,
    TRNRAND_RNG_QUASI_SOBOL64 = 203,
    TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 204,
} trnrandRngType_t;

/* Values are those of curandOrdering_t. The Philox stream's output does not
 * depend on the ordering: every pseudo-random ordering gives the stream
 * defined above. */
typedef enum trnrandOrdering {
    TRNRAND_ORDERING_PSEUDO_BEST = 100,
    TRNRAND_ORDERING_PSEUDO_DEFAULT = 101,
    TRNRAND_ORDERING_PSEUDO_SEEDED = 102,
    TRNRAND_ORDERING_PSEUDO_LEGACY = 103,
    TRNRAND_ORDERING_PSEUDO_DYNAMIC = 104,
    TRNRAND_ORDERING_QUASI_DEFAULT = 201, /* quasi-random generators only */
} trnrandOrdering_t;

/* A generator (curandGenerator_t). Opaque: a handle, not a memory address. */
typedef struct trnrandGenerator_st *trnrandGenerator_t;

/* Creates a generator of type rng_type with seed 0, offset 0, ordering
 * TRNRAND_ORDERING_PSEUDO_DEFAULT and the default stream, and initialises
 * the runtime (connecting to the daemon) if it is not yet.
 * TRNRAND_RNG_PSEUDO_DEFAULT and TRNRAND_RNG_PSEUDO_PHILOX4_32_10 give the
 * Philox4x32-10 generator. Any other pseudo-random or quasi-random type gives
 * TRNRAND_STATUS_TYPE_ERROR (not available yet), as does a value that is not
 * a trnrandRngType_t. TRNRAND_STATUS_INITIALIZATION_FAILED when no daemon
 * can be reached; TRNRAND_STATUS_OUT_OF_RANGE when generator is NULL. */
trnrandStatus_t trnrandCreateGenerator(trnrandGenerator_t *generator, trnrandRngType_t rng_type);

/* Destroys a generator. Ops it queued still complete; it does not wait for
 * them (curandDestroyGenerator does). Afterwards the handle gives
 * TRNRAND_STATUS_NOT_INITIALIZED. */
trnrandStatus_t trnrandDestroyGenerator(trnrandGenerator_t generator);

/* Queues the generator's later ops on stream (NULL: the default stream). */
trnrandStatus_t trnrandSetStream(trnrandGenerator_t generator, trnsciStream_t stream);

/* Sets the seed; every 64-bit value is valid. The offset is left as it is
 * (set it with trnrandSetGeneratorOffset to restart from a given word). */
trnrandStatus_t trnrandSetPseudoRandomGeneratorSeed(trnrandGenerator_t generator,
                                                    unsigned long long seed);

/* Sets the absolute offset: the raw 32-bit word of the stream the next
 * generation call starts at. Every value is valid; a generation call whose
 * end (offset + words it consumes) would not be below 2^64 gives
 * TRNRAND_STATUS_OUT_OF_RANGE. */
trnrandStatus_t trnrandSetGeneratorOffset(trnrandGenerator_t generator, unsigned long long offset);

/* Sets the ordering. The pseudo-random orderings (BEST, DEFAULT, SEEDED,
 * LEGACY, DYNAMIC) are accepted and change nothing: the output is the
 * stream defined above whatever the ordering. TRNRAND_ORDERING_QUASI_DEFAULT
 * and other values give TRNRAND_STATUS_OUT_OF_RANGE. */
trnrandStatus_t trnrandSetGeneratorOrdering(trnrandGenerator_t generator, trnrandOrdering_t order);

/* The generation calls. Each writes num (or n) results to outputPtr, a
 * trnsci device pointer (from trnsciMalloc, plus an offset) aligned to the
 * result's size, with room for all of them inside one allocation; otherwise
 * TRNRAND_STATUS_OUT_OF_RANGE. A count of 0 does nothing (outputPtr is not
 * checked). Words consumed per result: 1 for unsigned int and float results,
 * 2 for double results and for trnrandGeneratePoisson. */

/* Raw 32-bit words of the stream, every bit random (curandGenerate). */
trnrandStatus_t trnrandGenerate(trnrandGenerator_t generator, unsigned int *outputPtr, size_t num);
/* Floats uniform in (0, 1]: 0 excluded, 1 included. */
trnrandStatus_t trnrandGenerateUniform(trnrandGenerator_t generator, float *outputPtr, size_t num);
/* Doubles uniform in (0, 1]. */
trnrandStatus_t trnrandGenerateUniformDouble(trnrandGenerator_t generator, double *outputPtr,
                                             size_t num);
/* Normally distributed floats with the given mean and standard deviation,
 * made in Box-Muller pairs: n must be even (TRNRAND_STATUS_LENGTH_NOT_MULTIPLE),
 * mean finite and stddev finite and > 0 (TRNRAND_STATUS_OUT_OF_RANGE). */
trnrandStatus_t trnrandGenerateNormal(trnrandGenerator_t generator, float *outputPtr, size_t n,
                                      float mean, float stddev);
/* Normally distributed doubles; the rules of trnrandGenerateNormal. */
trnrandStatus_t trnrandGenerateNormalDouble(trnrandGenerator_t generator, double *outputPtr,
                                            size_t n, double mean, double stddev);
/* exp() of normally distributed floats of the given mean and stddev (those
 * of the associated normal distribution); the rules of trnrandGenerateNormal. */
trnrandStatus_t trnrandGenerateLogNormal(trnrandGenerator_t generator, float *outputPtr, size_t n,
                                         float mean, float stddev);
/* Log-normally distributed doubles; the rules of trnrandGenerateNormal. */
trnrandStatus_t trnrandGenerateLogNormalDouble(trnrandGenerator_t generator, double *outputPtr,
                                               size_t n, double mean, double stddev);
/* Poisson-distributed unsigned ints of mean lambda, by inversion of one
 * double uniform per result (2 words each, docs/numerics.md): any n.
 * lambda must be finite, > 0 and <= 1e8 (TRNRAND_STATUS_OUT_OF_RANGE; cuRAND
 * also refuses lambda <= 0 that way, 1e8 is this implementation's limit). */
trnrandStatus_t trnrandGeneratePoisson(trnrandGenerator_t generator, unsigned int *outputPtr,
                                       size_t n, double lambda);

/* Library version, encoded as CURAND_VERSION: major*1000 + minor*100 + patch
 * (100 for 0.1.0). TRNRAND_STATUS_OUT_OF_RANGE when version is NULL. */
trnrandStatus_t trnrandGetVersion(int *version);

#ifdef __cplusplus
}
#endif

#endif
