/*
 * trnrand.h — random number generation (the cuRAND host API analog).
 *
 * A generator is created for one algorithm, given a seed and an offset, and
 * fills device memory with numbers from its stream. The default pseudo-random
 * algorithm is Philox4x32-10, a counter-based generator: raw 32-bit word j of the
 * stream of seed s is element j mod 4 of philox4x32_10(counter
 * {lo32(j/4), hi32(j/4), 0, 0}, key {lo32(s), hi32(s)}), the function of
 * Random123 (Salmon et al., SC11), and element i of a call's output is made
 * from the words offset + w*i .. offset + w*i + w - 1, where w is 1 for
 * 32-bit results (trnrandGenerate, Uniform, Normal, LogNormal) and 2 for
 * double results and for Poisson results. docs/numerics.md gives how each distribution turns its
 * words into a value. The output therefore never depends on how the daemon
 * splits the work over its cores.
 *
 * TRNRAND_RNG_PSEUDO_XORWOW is Marsaglia's xorwow (Xorshift RNGs, 2003) seeded
 * as cuRAND's curand_init(seed, 0, 0): its raw word j is the output of step
 * j + 1, and every distribution reads those words exactly as it reads
 * Philox's (same w, same conversions). Each core reaches its first word by an
 * exact skip-ahead (GF(2) matrix powers), so XORWOW output does not depend on
 * the split over cores either. Its words equal cuRAND's device API sequence
 * (curand() after curand_init(seed, 0, j)), not the bits of cuRAND's host API
 * XORWOW generator, which interleaves subsequences in an undocumented layout
 * (docs/numerics.md, "XORWOW").
 *
 * TRNRAND_RNG_PSEUDO_MRG32K3A is L'Ecuyer's MRG32k3a seeded as cuRAND's
 * curand_init(seed, 0, 0) (seed 0: L'Ecuyer's 12345 x 6), with the same
 * rules: raw word j is cuRAND's curand() of step j + 1 (the combined value
 * times 1.000000048662, truncated), reached by skip-ahead (3 x 3 matrix
 * powers modulo m1, m2). Its uniforms are the Philox conversions of those
 * words, not cuRAND's MRG32k3a-specific scaling (docs/numerics.md,
 * "MRG32k3a").
 *
 * TRNRAND_RNG_PSEUDO_MT19937 is Matsumoto and Nishimura's MT19937 with the
 * same rules, its stream cut into blocks of 2^16 words: block b of seed s is
 * the output of MT19937 initialised by init_by_array({lo32(s), hi32(s),
 * lo32(b), hi32(b)}), so a core starts anywhere after at most one block of
 * steps. This is neither cuRAND's seeding nor its output order, which cuRAND
 * does not document (docs/numerics.md, "MT19937").
 *
 * TRNRAND_RNG_PSEUDO_MTGP32 is Saito and Matsumoto's MTGP32 with cuRAND's
 * parameter sets (mtgp32dc 11213) in cuRAND's host-API word order: state b
 * uses parameter set b and the seed lo32(s ^ (s >> 32)) + b + 1, and raw
 * word j is output 256 (j / 256B) + j % 256 of state (j / 256) % B, with
 * B = 192 states (orderings PSEUDO_DEFAULT, PSEUDO_BEST) or 64
 * (PSEUDO_LEGACY); PSEUDO_SEEDED and PSEUDO_DYNAMIC are refused, as in
 * cuRAND. trnrandGenerate and trnrandGenerateUniform give cuRAND's bits;
 * the other distributions read the words as Philox's do. Each core steps
 * the states to its first word, so the stream ends at word 2^32
 * (TRNRAND_STATUS_OUT_OF_RANGE past it); a device generator needs a
 * protocol 1.15 daemon (docs/numerics.md, "MTGP32").
 *
 * The quasi-random algorithms are Sobol32, scrambled Sobol32, Sobol64 and
 * scrambled Sobol64 with Joe & Kuo's direction numbers, up to 21201
 * dimensions (docs/numerics.md,
 * "Sobol32" and "Sobol64"): a generator of d
 * dimensions (trnrandSetQuasiRandomGeneratorDimensions, default 1) writes n
 * results, n a multiple of d, dimension-major as cuRAND does: the first n/d
 * results are points offset .. offset + n/d - 1 of dimension 0, the next n/d
 * those of dimension 1, and so on. Its offset counts points per dimension
 * and advances by n/d per call; a call must stay inside the 2^32 points
 * (offset + n/d <= 2^32; Sobol64: offset + n/d <= 2^64 - 1). Every point is
 * computed from its own index, so the output does not depend on the split
 * over cores either.
 *
 * trnsci extensions (not in cuRAND; Philox generators only except
 * exponential, which XORWOW, MRG32K3A, MT19937 and MTGP32 also make; otherwise
 * TRNRAND_STATUS_TYPE_ERROR): exponential, gamma, beta and
 * truncated normal results and Latin hypercube designs, declared at the end
 * of this header. Gamma, beta and truncated normal are rejection or
 * inversion samplers whose result i reads only its own sub-stream of the
 * Philox key (docs/numerics.md, "Extensions"), so they too are bitwise the
 * same for any split over cores, shards or calls.
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
    TRNRAND_STATUS_LENGTH_NOT_MULTIPLE = 105, /* odd normal count; quasi: n % dimensions */
    TRNRAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106, /* not returned */
    TRNRAND_STATUS_LAUNCH_FAILURE = 201,            /* the daemon could not queue the op */
    TRNRAND_STATUS_PREEXISTING_FAILURE = 202,       /* the daemon went away or ended the session */
    TRNRAND_STATUS_INITIALIZATION_FAILED = 203,     /* no daemon reachable, protocol mismatch */
    TRNRAND_STATUS_ARCH_MISMATCH = 204,             /* the daemon does not serve random numbers */
    TRNRAND_STATUS_INTERNAL_ERROR = 999,
} trnrandStatus_t;

/* Values are those of curandRngType_t. The available generators are
 * Philox (TRNRAND_RNG_PSEUDO_DEFAULT selects it; cuRAND's default is XORWOW),
 * XORWOW, MRG32K3A, MTGP32, MT19937, SOBOL32 (also TRNRAND_RNG_QUASI_DEFAULT,
 * as in cuRAND), SCRAMBLED_SOBOL32, SOBOL64 and SCRAMBLED_SOBOL64. */
typedef enum trnrandRngType {
    TRNRAND_RNG_TEST = 0,              /* not a generator: TRNRAND_STATUS_TYPE_ERROR */
    TRNRAND_RNG_PSEUDO_DEFAULT = 100,  /* here: PHILOX4_32_10 */
    TRNRAND_RNG_PSEUDO_XORWOW = 101,   /* cuRAND's curand_init(seed, 0, 0) sequence */
    TRNRAND_RNG_PSEUDO_MRG32K3A = 121, /* cuRAND's curand_init(seed, 0, 0) sequence */
    TRNRAND_RNG_PSEUDO_MTGP32 = 141,   /* cuRAND's host-API words; ends at word 2^32 */
    TRNRAND_RNG_PSEUDO_MT19937 = 142,  /* in blocks of 2^16 words, not cuRAND's layout */
    TRNRAND_RNG_PSEUDO_PHILOX4_32_10 = 161,
    TRNRAND_RNG_QUASI_DEFAULT = 200,
    TRNRAND_RNG_QUASI_SOBOL32 = 201,
    TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 202,
    TRNRAND_RNG_QUASI_SOBOL64 = 203,
    TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 204,
} trnrandRngType_t;

/* Values are those of curandOrdering_t. The pseudo-random streams'
 * output does not depend on the ordering: every pseudo-random ordering gives
 * the stream defined above, except for MTGP32, whose PSEUDO_LEGACY layout
 * has 64 states instead of 192 and which refuses PSEUDO_SEEDED and
 * PSEUDO_DYNAMIC (TRNRAND_STATUS_OUT_OF_RANGE), as cuRAND does. Quasi-random generators take
 * TRNRAND_ORDERING_QUASI_DEFAULT only (their default). */
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

/* The most dimensions a Sobol32 or Sobol64 generator takes: all 21201 of
 * Joe & Kuo's new-joe-kuo-6.21201 direction numbers (cuRAND takes up to
 * 20000 and refuses more). A device generator of more than 1024 dimensions
 * needs a protocol 1.14 daemon (TRNRAND_STATUS_ARCH_MISMATCH from an
 * older one). */
#define TRNRAND_SOBOL32_MAX_DIMENSIONS 21201
#define TRNRAND_SOBOL64_MAX_DIMENSIONS 21201

/* Values are those of curandDirectionVectorSet_t: which table
 * trnrandGetDirectionVectors32/64 return. */
typedef enum trnrandDirectionVectorSet {
    TRNRAND_DIRECTION_VECTORS_32_JOEKUO6 = 101,
    TRNRAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6 = 102,
    TRNRAND_DIRECTION_VECTORS_64_JOEKUO6 = 103,
    TRNRAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6 = 104,
} trnrandDirectionVectorSet_t;

/* The direction numbers of one dimension (curandDirectionVectors32_t,
 * curandDirectionVectors64_t): element b is bit b's, v[b] = m_(b+1) << (31 - b)
 * (64-bit: << (63 - b)), m the Joe & Kuo recurrence; point k of the dimension
 * is the XOR of v[b] over the set bits b of the Gray code k ^ (k >> 1). */
typedef unsigned int trnrandDirectionVectors32_t[32];
typedef unsigned long long trnrandDirectionVectors64_t[64];

/* Creates a generator of type rng_type with seed 0, offset 0, the default
 * ordering of its kind (TRNRAND_ORDERING_PSEUDO_DEFAULT or
 * TRNRAND_ORDERING_QUASI_DEFAULT), 1 dimension (quasi-random) and the
 * default stream, and initialises the runtime (connecting to the daemon) if
 * it is not yet. TRNRAND_RNG_PSEUDO_DEFAULT and
 * TRNRAND_RNG_PSEUDO_PHILOX4_32_10 give the Philox4x32-10 generator;
 * TRNRAND_RNG_PSEUDO_XORWOW the XORWOW generator;
 * TRNRAND_RNG_PSEUDO_MRG32K3A the MRG32k3a generator;
 * TRNRAND_RNG_PSEUDO_MT19937 the MT19937 generator;
 * TRNRAND_RNG_PSEUDO_MTGP32 the MTGP32 generator;
 * TRNRAND_RNG_QUASI_DEFAULT and TRNRAND_RNG_QUASI_SOBOL32 the Sobol32
 * generator; TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL32 the scrambled one;
 * TRNRAND_RNG_QUASI_SOBOL64 and TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL64 the
 * 64-bit ones. Any other
 * type gives TRNRAND_STATUS_TYPE_ERROR (not available yet), as does a value
 * that is not a trnrandRngType_t. TRNRAND_STATUS_INITIALIZATION_FAILED when no daemon
 * can be reached; TRNRAND_STATUS_OUT_OF_RANGE when generator is NULL. */
trnrandStatus_t trnrandCreateGenerator(trnrandGenerator_t *generator, trnrandRngType_t rng_type);

/* A host generator (curandCreateGeneratorHost): the same generators, whose
 * trnrandGenerate* calls write host memory (any pointer of this process,
 * not a device pointer) and return when it is written. The numbers are
 * computed in the calling thread by the kernel the daemon's cores run, from
 * the request a device generator would send, validated as the daemon
 * validates it: bitwise the device generator's for the same seed, offset,
 * ordering, dimensions and calls. No daemon is needed; the stream
 * (trnrandSetStream) is kept but not used. Statuses as
 * trnrandCreateGenerator's. */
trnrandStatus_t trnrandCreateGeneratorHost(trnrandGenerator_t *generator,
                                           trnrandRngType_t rng_type);

/* Destroys a generator. Ops it queued still complete; it does not wait for
 * them (curandDestroyGenerator does). Afterwards the handle gives
 * TRNRAND_STATUS_NOT_INITIALIZED. */
trnrandStatus_t trnrandDestroyGenerator(trnrandGenerator_t generator);

/* Queues the generator's later ops on stream (NULL: the default stream). */
trnrandStatus_t trnrandSetStream(trnrandGenerator_t generator, trnsciStream_t stream);

/* Sets the seed; every 64-bit value is valid. The offset is left as it is
 * (set it with trnrandSetGeneratorOffset to restart from a given word).
 * TRNRAND_STATUS_TYPE_ERROR for a quasi-random generator (cuRAND's rule). */
trnrandStatus_t trnrandSetPseudoRandomGeneratorSeed(trnrandGenerator_t generator,
                                                    unsigned long long seed);

/* Sets the absolute offset: the raw 32-bit word of the stream the next
 * generation call starts at (quasi-random: the point of each dimension).
 * Every value is valid; a generation call whose end (offset + words it
 * consumes) would not be below 2^64 gives TRNRAND_STATUS_OUT_OF_RANGE, as
 * does a quasi-random call whose offset + n/dimensions exceeds 2^32 and an
 * MTGP32 call whose offset + words exceeds 2^32 (cuRAND refuses offsets
 * for MTGP32 altogether). */
trnrandStatus_t trnrandSetGeneratorOffset(trnrandGenerator_t generator, unsigned long long offset);

/* Sets the number of dimensions of a quasi-random generator, 1 ..
 * TRNRAND_SOBOL32_MAX_DIMENSIONS (TRNRAND_STATUS_OUT_OF_RANGE otherwise);
 * the offset is left as it is. TRNRAND_STATUS_TYPE_ERROR for a
 * pseudo-random generator. */
trnrandStatus_t trnrandSetQuasiRandomGeneratorDimensions(trnrandGenerator_t generator,
                                                         unsigned int num_dimensions);

/* Sets the ordering. For a pseudo-random generator the pseudo-random
 * orderings (BEST, DEFAULT, SEEDED, LEGACY, DYNAMIC) are accepted and change
 * nothing: the output is the stream defined above whatever the ordering; for
 * a quasi-random generator TRNRAND_ORDERING_QUASI_DEFAULT is. MTGP32, as in
 * cuRAND, takes BEST and DEFAULT (192 states) and LEGACY (64 states), which
 * change its words, and refuses SEEDED and DYNAMIC. Any other value gives
 * TRNRAND_STATUS_OUT_OF_RANGE. */
trnrandStatus_t trnrandSetGeneratorOrdering(trnrandGenerator_t generator, trnrandOrdering_t order);

/* The generation calls. Each writes num (or n) results to outputPtr, a
 * trnsci device pointer (from trnsciMalloc, plus an offset) aligned to the
 * result's size, with room for all of them inside one allocation; otherwise
 * TRNRAND_STATUS_OUT_OF_RANGE. A count of 0 does nothing (outputPtr is not
 * checked). Words consumed per result: 1 for unsigned int and float results,
 * 2 for double results and for trnrandGeneratePoisson.
 *
 * Quasi-random generators: n must be a multiple of the dimensions
 * (TRNRAND_STATUS_LENGTH_NOT_MULTIPLE), each result is one 32-bit Sobol
 * value x (docs/numerics.md): trnrandGenerate gives x, Uniform x 2^-32 +
 * 2^-33 in float, UniformDouble (x + 1/2) 2^-32 (in (0, 1), a 32-bit grid,
 * as cuRAND's Sobol32), Normal and LogNormal by the inverse normal CDF,
 * z = -Phi^-1((x + 1/2) 2^-32) (cuRAND's sign; no even-count rule);
 * trnrandGeneratePoisson gives
 * TRNRAND_STATUS_TYPE_ERROR (not available for quasi-random generators).
 * Sobol64 generators make one 64-bit Sobol value x per result, as cuRAND's:
 * trnrandGenerateLongLong gives x (trnrandGenerate gives
 * TRNRAND_STATUS_TYPE_ERROR), Uniform (x >> 32) 2^-32 + 2^-33 in float,
 * UniformDouble (x >> 11) 2^-53 + 2^-54 (53 bits, in (0, 1]), Normal and
 * LogNormal z = -Phi^-1(((x >> 11) + 1/2) 2^-53). */

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

/* 64-bit Sobol values (curandGenerateLongLong): Sobol64 and scrambled
 * Sobol64 generators only; any other generator gives
 * TRNRAND_STATUS_TYPE_ERROR, as in cuRAND. The rules of the quasi-random
 * calls above (n a multiple of the dimensions). */
trnrandStatus_t trnrandGenerateLongLong(trnrandGenerator_t generator, unsigned long long *outputPtr,
                                        size_t num);

/* ---- trnsci extensions (not in cuRAND) ---------------------------------------
 *
 * Philox generators only (exponential: also XORWOW, MRG32K3A, MT19937, MTGP32): another generator
 * gives TRNRAND_STATUS_TYPE_ERROR. A bad parameter gives TRNRAND_STATUS_OUT_OF_RANGE (as cuRAND
 * reports a bad Poisson lambda) with a message naming it. Output pointers follow the rules of the
 * calls above. docs/numerics.md, "Extensions", defines every result bit for bit; the float variants
 * compute in double and round once. The offset advances by the words a call reserves: n for gamma,
 * beta and truncated normal (one sub-stream per result), n (float) or 2n (double) for exponential,
 * and 2 n_points dims + 6 dims for a Latin hypercube. */

/* Exponential(lambda): -log(u) / lambda, u the uniform of
 * trnrandGenerateUniform (1 word, float) or trnrandGenerateUniformDouble
 * (2 words), so in [0, inf). lambda (the rate) finite and > 0. Any n. */
trnrandStatus_t trnrandGenerateExponential(trnrandGenerator_t generator, float *outputPtr, size_t n,
                                           double lambda);
trnrandStatus_t trnrandGenerateExponentialDouble(trnrandGenerator_t generator, double *outputPtr,
                                                 size_t n, double lambda);

/* Gamma(shape k, scale theta), density x^(k-1) e^(-x/theta) /
 * (Gamma(k) theta^k): Marsaglia-Tsang rejection (k < 1: Gamma(k + 1) times
 * u^(1/k)) on each result's own sub-stream. shape and scale finite and > 0.
 * Any n. */
trnrandStatus_t trnrandGenerateGamma(trnrandGenerator_t generator, float *outputPtr, size_t n,
                                     double shape, double scale);
trnrandStatus_t trnrandGenerateGammaDouble(trnrandGenerator_t generator, double *outputPtr,
                                           size_t n, double shape, double scale);

/* Beta(a, b) on [0, 1]: Ga / (Ga + Gb) from two gammas of shapes a and b
 * on the result's own sub-streams. a and b finite and > 0. Any n. */
trnrandStatus_t trnrandGenerateBeta(trnrandGenerator_t generator, float *outputPtr, size_t n,
                                    double a, double b);
trnrandStatus_t trnrandGenerateBetaDouble(trnrandGenerator_t generator, double *outputPtr, size_t n,
                                          double a, double b);

/* The normal distribution of mean and stddev truncated to [lo, hi]: by
 * inversion of the normal CDF between Phi(lo) and Phi(hi) (tail rejection
 * when the interval lies more than 30 stddev from the mean). mean finite,
 * stddev finite and > 0, lo < hi (lo may be -INFINITY, hi INFINITY).
 * Results lie in [lo, hi]. Any n. */
trnrandStatus_t trnrandGenerateTruncatedNormal(trnrandGenerator_t generator, float *outputPtr,
                                               size_t n, float mean, float stddev, float lo,
                                               float hi);
trnrandStatus_t trnrandGenerateTruncatedNormalDouble(trnrandGenerator_t generator,
                                                     double *outputPtr, size_t n, double mean,
                                                     double stddev, double lo, double hi);

/* A Latin hypercube design of n_points points in dims dimensions, in (0, 1):
 * n_points x dims results, dimension-major as the quasi-random generators
 * (the first n_points are dimension 0). In every dimension each stratum
 * [s / n_points, (s + 1) / n_points) holds exactly one point (strictly
 * inside it); the stratum of point k of dimension j is a permutation of
 * k drawn from the Philox stream (a keyed Feistel network, docs/numerics.md)
 * and its place inside the stratum a uniform jitter. dims >= 1; n_points at
 * most 2^20 (float) or 2^32 (double); n_points x dims must fit in size_t
 * (TRNRAND_STATUS_OUT_OF_RANGE otherwise). n_points = 0 does nothing. */
trnrandStatus_t trnrandGenerateLatinHypercube(trnrandGenerator_t generator, float *outputPtr,
                                              size_t n_points, unsigned int dims);
trnrandStatus_t trnrandGenerateLatinHypercubeDouble(trnrandGenerator_t generator, double *outputPtr,
                                                    size_t n_points, unsigned int dims);

/* The direction numbers the Sobol32 generators use
 * (curandGetDirectionVectors32): *vectors is set to a host array of
 * TRNRAND_SOBOL32_MAX_DIMENSIONS (>= cuRAND's 20000) direction vectors,
 * dimension j's at (*vectors)[j], computed at the first call and constant
 * for the life of the process (do not write or free it). set must be
 * TRNRAND_DIRECTION_VECTORS_32_JOEKUO6 or
 * TRNRAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6, which give the same table
 * here: trnsci's scrambled Sobol32 is the unscrambled points XOR a constant
 * per dimension (cuRAND's scrambled set is a different table; see
 * docs/rosetta.md). Any other set: TRNRAND_STATUS_OUT_OF_RANGE. vectors NULL:
 * TRNRAND_STATUS_OUT_OF_RANGE. Needs no daemon. */
trnrandStatus_t trnrandGetDirectionVectors32(trnrandDirectionVectors32_t **vectors,
                                             trnrandDirectionVectorSet_t set);
/* The 64-bit direction numbers (curandGetDirectionVectors64): as
 * trnrandGetDirectionVectors32 with the 64-bit sets
 * TRNRAND_DIRECTION_VECTORS_64_JOEKUO6 and
 * TRNRAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6. The top 32 bits of
 * element b < 32 are the 32-bit table's element b. */
trnrandStatus_t trnrandGetDirectionVectors64(trnrandDirectionVectors64_t **vectors,
                                             trnrandDirectionVectorSet_t set);
/* The scramble constants of scrambled Sobol32 (curandGetScrambleConstants32):
 * *constants is set to a host array of TRNRAND_SOBOL32_MAX_DIMENSIONS
 * constants, dimension j's at (*constants)[j]: raw word j of the Philox4x32-10
 * stream of seed 0x536F626F6C333221 (docs/numerics.md, "Sobol32"), not
 * cuRAND's constants. Constant for the life of the process. constants NULL:
 * TRNRAND_STATUS_OUT_OF_RANGE. Needs no daemon. */
trnrandStatus_t trnrandGetScrambleConstants32(unsigned int **constants);
/* The 64-bit scramble constants of scrambled Sobol64
 * (curandGetScrambleConstants64): dimension j's is raw words 2j (low half)
 * and 2j + 1 (high half) of the Philox4x32-10 stream of seed
 * 0x536F626F6C363421 (docs/numerics.md, "Sobol64"). As
 * trnrandGetScrambleConstants32 otherwise. */
trnrandStatus_t trnrandGetScrambleConstants64(unsigned long long **constants);

/* Library version, encoded as CURAND_VERSION: major*1000 + minor*100 + patch
 * (100 for 0.1.0). TRNRAND_STATUS_OUT_OF_RANGE when version is NULL. */
trnrandStatus_t trnrandGetVersion(int *version);

#ifdef __cplusplus
}
#endif

#endif
