/*
 * rand.c — trnrand: generators and the generation calls.
 *
 * A generator is client state only (type, seed, offset, ordering, stream,
 * and the dimensions of a Sobol generator);
 * each generation call checks its arguments, resolves the output pointer
 * through the pointer table, queues one RandGenerateOp at the current offset
 * on the generator's stream and, once the daemon has accepted it, advances
 * the offset by the words consumed. The daemon checks the same rules again
 * (validate_rand.c) and its message for a rejected call is available from
 * trnsciGetLastErrorMessage.
 *
 * Handles are ids, never reused, looked up in a registry: a destroyed (or
 * never created) generator is reported as TRNRAND_STATUS_NOT_INITIALIZED
 * instead of touching freed memory. A call holds a reference to the
 * generator, so a concurrent destroy frees it only after the call; calls on
 * one generator are serialised by its mutex, so each takes its own range of
 * the stream and their ops are queued in that order.
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "client/client.h"
#include "trnsci/trnrand.h"

typedef struct rand_gen {
    uint64_t id;
    pthread_mutex_t lock; /* the fields below */
    trnsciStream_t stream;
    uint64_t seed, offset;
    trnrandRngType_t type;
    trnrandOrdering_t ordering;
    uint32_t dims; /* Sobol generators: 1 .. TRNRAND_SOBOL32_MAX_DIMENSIONS */
    unsigned refs; /* the registry's + calls in progress; under reg_lock */
} rand_gen;

/* Live generators, sorted by id (ids only grow, so appending keeps order). */
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static rand_gen **reg;
static size_t reg_len, reg_cap;
static uint64_t next_id = 1;

static size_t reg_find(uint64_t id, int *found) {
    size_t lo = 0, hi = reg_len;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (reg[mid]->id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < reg_len && reg[lo]->id == id;
    return lo;
}

static uint64_t id_of(trnrandGenerator_t g) {
    return (uint64_t)(uintptr_t)g;
}

static void gen_free(rand_gen *g) {
    pthread_mutex_destroy(&g->lock);
    free(g);
}

/* The live generator behind handle h with a reference taken, or NULL (the
 * error recorded) when h is NULL, destroyed or was never created. */
static rand_gen *acquire(trnrandGenerator_t h, const char *fn) {
    rand_gen *g = NULL;
    pthread_mutex_lock(&reg_lock);
    int found = 0;
    const size_t i = h ? reg_find(id_of(h), &found) : 0;
    if (found) {
        g = reg[i];
        g->refs++;
    }
    pthread_mutex_unlock(&reg_lock);
    if (!g)
        trn_fail(trnsciErrorInvalidResourceHandle,
                 "%s: generator %p is NULL, destroyed, or was never created", fn, (void *)h);
    return g;
}

static void release(rand_gen *g) {
    pthread_mutex_lock(&reg_lock);
    const unsigned left = --g->refs;
    pthread_mutex_unlock(&reg_lock);
    if (left == 0)
        gen_free(g);
}

/* The runtime error of a call that reached (or tried to reach) the daemon,
 * as the closest cuRAND status. The daemon's argument errors cannot be told
 * apart by code, and every rule with a more specific status (an odd normal
 * count) is checked here first, so an argument error left to the daemon is
 * a range one (a buffer freed meanwhile, say). */
static trnrandStatus_t status_of(trnsciError_t e) {
    switch (e) {
    case trnsciSuccess: return TRNRAND_STATUS_SUCCESS;
    case trnsciErrorInvalidValue: return TRNRAND_STATUS_OUT_OF_RANGE;
    case trnsciErrorMemoryAllocation:
    case trnsciErrorBusy: return TRNRAND_STATUS_ALLOCATION_FAILED; /* retry later */
    case trnsciErrorNoDevice:
    case trnsciErrorInitializationError:
    case trnsciErrorInsufficientDriver:
    case trnsciErrorUnauthenticated:
    case trnsciErrorNotPermitted: return TRNRAND_STATUS_INITIALIZATION_FAILED;
    case trnsciErrorDevicesUnavailable:
    case trnsciErrorContextIsDestroyed: return TRNRAND_STATUS_PREEXISTING_FAILURE;
    case trnsciErrorNotSupported: return TRNRAND_STATUS_ARCH_MISMATCH;
    case trnsciErrorUnknown: return TRNRAND_STATUS_INTERNAL_ERROR;
    default: return TRNRAND_STATUS_LAUNCH_FAILURE;
    }
}

static const char *rng_name(trnrandRngType_t t) {
    switch (t) {
    case TRNRAND_RNG_TEST: return "TRNRAND_RNG_TEST";
    case TRNRAND_RNG_PSEUDO_DEFAULT: return "TRNRAND_RNG_PSEUDO_DEFAULT";
    case TRNRAND_RNG_PSEUDO_XORWOW: return "TRNRAND_RNG_PSEUDO_XORWOW";
    case TRNRAND_RNG_PSEUDO_MRG32K3A: return "TRNRAND_RNG_PSEUDO_MRG32K3A";
    case TRNRAND_RNG_PSEUDO_MTGP32: return "TRNRAND_RNG_PSEUDO_MTGP32";
    case TRNRAND_RNG_PSEUDO_MT19937: return "TRNRAND_RNG_PSEUDO_MT19937";
    case TRNRAND_RNG_PSEUDO_PHILOX4_32_10: return "TRNRAND_RNG_PSEUDO_PHILOX4_32_10";
    case TRNRAND_RNG_QUASI_DEFAULT: return "TRNRAND_RNG_QUASI_DEFAULT";
    case TRNRAND_RNG_QUASI_SOBOL32: return "TRNRAND_RNG_QUASI_SOBOL32";
    case TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL32: return "TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL32";
    case TRNRAND_RNG_QUASI_SOBOL64: return "TRNRAND_RNG_QUASI_SOBOL64";
    case TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL64: return "TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL64";
    }
    return NULL;
}

/* A Sobol generator (the stored type, after CreateGenerator resolved the
 * defaults). */
static int is_quasi(trnrandRngType_t t) {
    return t == TRNRAND_RNG_QUASI_SOBOL32 || t == TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL32;
}

trnrandStatus_t trnrandCreateGenerator(trnrandGenerator_t *generator, trnrandRngType_t rng_type) {
    if (!generator) {
        trn_fail(trnsciErrorInvalidValue, "trnrandCreateGenerator: generator is NULL");
        return TRNRAND_STATUS_OUT_OF_RANGE;
    }
    const char *name = rng_name(rng_type);
    if (!name || rng_type == TRNRAND_RNG_TEST) {
        trn_fail(trnsciErrorInvalidValue,
                 "trnrandCreateGenerator: rng_type %d is not a generator type (use "
                 "TRNRAND_RNG_PSEUDO_PHILOX4_32_10 or TRNRAND_RNG_PSEUDO_DEFAULT)",
                 (int)rng_type);
        return TRNRAND_STATUS_TYPE_ERROR;
    }
    trnrandRngType_t type;
    switch (rng_type) {
    case TRNRAND_RNG_PSEUDO_DEFAULT:
    case TRNRAND_RNG_PSEUDO_PHILOX4_32_10: type = TRNRAND_RNG_PSEUDO_PHILOX4_32_10; break;
    case TRNRAND_RNG_QUASI_DEFAULT: /* cuRAND's quasi default is SOBOL32 too */
    case TRNRAND_RNG_QUASI_SOBOL32: type = TRNRAND_RNG_QUASI_SOBOL32; break;
    case TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL32: type = TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL32; break;
    default:
        trn_fail(trnsciErrorNotSupported,
                 "trnrandCreateGenerator: %s is not available yet; the generators are "
                 "TRNRAND_RNG_PSEUDO_PHILOX4_32_10 (also TRNRAND_RNG_PSEUDO_DEFAULT), "
                 "TRNRAND_RNG_QUASI_SOBOL32 (also TRNRAND_RNG_QUASI_DEFAULT) and "
                 "TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL32",
                 name);
        return TRNRAND_STATUS_TYPE_ERROR;
    }
    trnsciError_t e;
    if (!trn_client_get(&e))
        return TRNRAND_STATUS_INITIALIZATION_FAILED; /* the error is recorded */
    rand_gen *g = calloc(1, sizeof(*g));
    if (!g || pthread_mutex_init(&g->lock, NULL) != 0) {
        free(g);
        trn_fail(trnsciErrorMemoryAllocation, "trnrandCreateGenerator: out of memory");
        return TRNRAND_STATUS_ALLOCATION_FAILED;
    }
    g->type = type;
    g->ordering = is_quasi(type) ? TRNRAND_ORDERING_QUASI_DEFAULT : TRNRAND_ORDERING_PSEUDO_DEFAULT;
    g->dims = 1;
    g->refs = 1;
    pthread_mutex_lock(&reg_lock);
    if (reg_len == reg_cap) {
        const size_t cap = reg_cap ? 2 * reg_cap : 16;
        rand_gen **v = realloc(reg, cap * sizeof(*v));
        if (!v) {
            pthread_mutex_unlock(&reg_lock);
            gen_free(g);
            trn_fail(trnsciErrorMemoryAllocation, "trnrandCreateGenerator: out of memory");
            return TRNRAND_STATUS_ALLOCATION_FAILED;
        }
        reg = v;
        reg_cap = cap;
    }
    g->id = next_id++;
    reg[reg_len++] = g;
    pthread_mutex_unlock(&reg_lock);
    *generator = (trnrandGenerator_t)(uintptr_t)g->id;
    trn_ok();
    return TRNRAND_STATUS_SUCCESS;
}

trnrandStatus_t trnrandDestroyGenerator(trnrandGenerator_t generator) {
    rand_gen *g = NULL;
    pthread_mutex_lock(&reg_lock);
    int found = 0;
    const size_t i = generator ? reg_find(id_of(generator), &found) : 0;
    if (found) {
        g = reg[i];
        memmove(&reg[i], &reg[i + 1], (reg_len - i - 1) * sizeof(*reg));
        reg_len--;
    }
    pthread_mutex_unlock(&reg_lock);
    if (!g) {
        trn_fail(trnsciErrorInvalidResourceHandle,
                 "trnrandDestroyGenerator: generator %p is NULL, already destroyed, or was "
                 "never created",
                 (void *)generator);
        return TRNRAND_STATUS_NOT_INITIALIZED;
    }
    release(g); /* the registry's reference */
    trn_ok();
    return TRNRAND_STATUS_SUCCESS;
}

/* Runs `body` on the generator's fields under its lock. */
#define WITH_GEN(h, fn, body)                                                                      \
    do {                                                                                           \
        rand_gen *g_ = acquire((h), (fn));                                                         \
        if (!g_)                                                                                   \
            return TRNRAND_STATUS_NOT_INITIALIZED;                                                 \
        pthread_mutex_lock(&g_->lock);                                                             \
        rand_gen *const g = g_;                                                                    \
        body;                                                                                      \
        pthread_mutex_unlock(&g_->lock);                                                           \
        release(g_);                                                                               \
    } while (0)

trnrandStatus_t trnrandSetStream(trnrandGenerator_t generator, trnsciStream_t stream) {
    WITH_GEN(generator, "trnrandSetStream", g->stream = stream);
    trn_ok();
    return TRNRAND_STATUS_SUCCESS;
}

trnrandStatus_t trnrandSetPseudoRandomGeneratorSeed(trnrandGenerator_t generator,
                                                    unsigned long long seed) {
    int quasi = 0;
    WITH_GEN(generator, "trnrandSetPseudoRandomGeneratorSeed", {
        quasi = is_quasi(g->type);
        if (!quasi)
            g->seed = (uint64_t)seed;
    });
    if (quasi) {
        trn_fail(trnsciErrorInvalidValue,
                 "trnrandSetPseudoRandomGeneratorSeed: a quasi-random generator has no seed");
        return TRNRAND_STATUS_TYPE_ERROR;
    }
    trn_ok();
    return TRNRAND_STATUS_SUCCESS;
}

trnrandStatus_t trnrandSetQuasiRandomGeneratorDimensions(trnrandGenerator_t generator,
                                                         unsigned int num_dimensions) {
    const char *fn = "trnrandSetQuasiRandomGeneratorDimensions";
    const int in_range = num_dimensions >= 1 && num_dimensions <= TRNRAND_SOBOL32_MAX_DIMENSIONS;
    int quasi = 0;
    WITH_GEN(generator, fn, {
        quasi = is_quasi(g->type);
        if (quasi && in_range)
            g->dims = (uint32_t)num_dimensions;
    });
    if (!quasi) {
        trn_fail(trnsciErrorInvalidValue, "%s: the generator is not a quasi-random generator", fn);
        return TRNRAND_STATUS_TYPE_ERROR;
    }
    if (!in_range) {
        trn_fail(trnsciErrorInvalidValue, "%s: num_dimensions must be 1 .. %d, got %u", fn,
                 TRNRAND_SOBOL32_MAX_DIMENSIONS, num_dimensions);
        return TRNRAND_STATUS_OUT_OF_RANGE;
    }
    trn_ok();
    return TRNRAND_STATUS_SUCCESS;
}

trnrandStatus_t trnrandSetGeneratorOffset(trnrandGenerator_t generator, unsigned long long offset) {
    WITH_GEN(generator, "trnrandSetGeneratorOffset", g->offset = (uint64_t)offset);
    trn_ok();
    return TRNRAND_STATUS_SUCCESS;
}

trnrandStatus_t trnrandSetGeneratorOrdering(trnrandGenerator_t generator, trnrandOrdering_t order) {
    int pseudo_order = 0;
    switch (order) {
    case TRNRAND_ORDERING_PSEUDO_BEST:
    case TRNRAND_ORDERING_PSEUDO_DEFAULT:
    case TRNRAND_ORDERING_PSEUDO_SEEDED:
    case TRNRAND_ORDERING_PSEUDO_LEGACY:
    case TRNRAND_ORDERING_PSEUDO_DYNAMIC: pseudo_order = 1; break;
    case TRNRAND_ORDERING_QUASI_DEFAULT: break;
    default: pseudo_order = -1; break;
    }
    int ok = 0;
    WITH_GEN(generator, "trnrandSetGeneratorOrdering", {
        ok = pseudo_order >= 0 && pseudo_order == !is_quasi(g->type);
        if (ok)
            g->ordering = order;
    });
    if (!ok) {
        trn_fail(trnsciErrorInvalidValue,
                 "trnrandSetGeneratorOrdering: ordering %d is not one of this generator's "
                 "(pseudo-random: TRNRAND_ORDERING_PSEUDO_BEST, _DEFAULT, _SEEDED, _LEGACY, "
                 "_DYNAMIC; quasi-random: TRNRAND_ORDERING_QUASI_DEFAULT)",
                 (int)order);
        return TRNRAND_STATUS_OUT_OF_RANGE;
    }
    trn_ok();
    return TRNRAND_STATUS_SUCCESS;
}

trnrandStatus_t trnrandGetVersion(int *version) {
    if (!version) {
        trn_fail(trnsciErrorInvalidValue, "trnrandGetVersion: version is NULL");
        return TRNRAND_STATUS_OUT_OF_RANGE;
    }
    /* CURAND_VERSION's encoding: major * 1000 + minor * 100 + patch. */
    *version = TRNSCI_VERSION_MAJOR * 1000 + TRNSCI_VERSION_MINOR * 100 + TRNSCI_VERSION_PATCH;
    trn_ok();
    return TRNRAND_STATUS_SUCCESS;
}

/* ---- generation ------------------------------------------------------------ */

typedef struct dist_info {
    Trnsci__V1__RandDistribution wire;
    unsigned words; /* raw 32-bit words per result */
    size_t size;    /* bytes per result */
    int normal;     /* Box-Muller pairs: count even, mean and stddev checked */
    int poisson;    /* lambda checked and sent */
} dist_info;

static const dist_info U32 = {TRNSCI__V1__RAND_DISTRIBUTION__RAND_U32, 1, 4, 0, 0};
static const dist_info UNIFORM_F32 = {TRNSCI__V1__RAND_DISTRIBUTION__RAND_UNIFORM_F32, 1, 4, 0, 0};
static const dist_info UNIFORM_F64 = {TRNSCI__V1__RAND_DISTRIBUTION__RAND_UNIFORM_F64, 2, 8, 0, 0};
static const dist_info NORMAL_F32 = {TRNSCI__V1__RAND_DISTRIBUTION__RAND_NORMAL_F32, 1, 4, 1, 0};
static const dist_info NORMAL_F64 = {TRNSCI__V1__RAND_DISTRIBUTION__RAND_NORMAL_F64, 2, 8, 1, 0};
static const dist_info LOGNORMAL_F32 = {TRNSCI__V1__RAND_DISTRIBUTION__RAND_LOGNORMAL_F32, 1, 4, 1,
                                        0};
static const dist_info LOGNORMAL_F64 = {TRNSCI__V1__RAND_DISTRIBUTION__RAND_LOGNORMAL_F64, 2, 8, 1,
                                        0};
static const dist_info POISSON = {TRNSCI__V1__RAND_DISTRIBUTION__RAND_POISSON, 2, 4, 0, 1};

/* Checks the output range [p, p + n*size) on the client: one allocation,
 * aligned. Fills ref. Returns 0, or -1 with the error recorded. */
static int resolve_output(trn_client *c, const char *fn, const void *p, size_t n, size_t size,
                          Trnsci__V1__BufferRef *ref) {
    trnsci__v1__buffer_ref__init(ref);
    if (!p) {
        trn_fail(trnsciErrorInvalidValue, "%s: outputPtr is NULL but %zu results were asked for",
                 fn, n);
        return -1;
    }
    trn_ptr_entry e;
    uint64_t off;
    if (trn_ptrtable_lookup(&c->ptrs, p, &e, &off) != 0) {
        trn_fail(trnsciErrorInvalidValue,
                 "%s: outputPtr (%p) is not a trnsci device pointer (not from trnsciMalloc, or "
                 "already freed)",
                 fn, p);
        return -1;
    }
    if (off % size != 0) {
        trn_fail(trnsciErrorInvalidValue,
                 "%s: outputPtr (%p) is at byte %llu of its allocation, not a multiple of the "
                 "result size %zu",
                 fn, p, (unsigned long long)off, size);
        return -1;
    }
    const uint64_t room = (e.size - off) / size;
    if ((uint64_t)n > room) {
        trn_fail(trnsciErrorInvalidValue,
                 "%s: %zu results of %zu bytes do not fit: outputPtr (%p) is at byte %llu of an "
                 "allocation of %llu bytes, room for %llu",
                 fn, n, size, p, (unsigned long long)off, (unsigned long long)e.size,
                 (unsigned long long)room);
        return -1;
    }
    ref->buffer_id = e.buffer_id;
    ref->offset = off;
    return 0;
}

/* The largest Poisson lambda (the daemon's TRN_RAND_POISSON_LAMBDA_MAX,
 * docs/numerics.md). */
#define POISSON_LAMBDA_MAX 1e8

/* mean and stddev are the normal kinds' parameters; for Poisson, mean is
 * lambda. */
static trnrandStatus_t generate(trnrandGenerator_t generator, const char *fn, const dist_info *d,
                                void *out, size_t n, double mean, double stddev) {
    rand_gen *g = acquire(generator, fn);
    if (!g)
        return TRNRAND_STATUS_NOT_INITIALIZED;
    /* type never changes after creation; dims is read under the lock below
     * and checked here from a snapshot. */
    const int quasi = is_quasi(g->type);
    pthread_mutex_lock(&g->lock);
    const uint32_t dims = g->dims;
    pthread_mutex_unlock(&g->lock);
    trnrandStatus_t st = TRNRAND_STATUS_SUCCESS;
    if (quasi && d->poisson) {
        trn_fail(trnsciErrorNotSupported,
                 "%s: Poisson results are not available from a quasi-random generator", fn);
        st = TRNRAND_STATUS_TYPE_ERROR;
    } else if (quasi && n % dims != 0) {
        trn_fail(trnsciErrorInvalidValue,
                 "%s: n = %zu is not a multiple of the generator's %u dimensions", fn, n,
                 (unsigned)dims);
        st = TRNRAND_STATUS_LENGTH_NOT_MULTIPLE;
    } else if (!quasi && d->normal && n % 2 != 0) {
        trn_fail(trnsciErrorInvalidValue,
                 "%s: n = %zu is odd; normal and log-normal results come in Box-Muller pairs, "
                 "so n must be even",
                 fn, n);
        st = TRNRAND_STATUS_LENGTH_NOT_MULTIPLE;
    } else if (d->normal && (!isfinite(mean) || !isfinite(stddev) || !(stddev > 0.0))) {
        trn_fail(trnsciErrorInvalidValue,
                 "%s: mean must be finite and stddev finite and > 0 (mean %g, stddev %g)", fn, mean,
                 stddev);
        st = TRNRAND_STATUS_OUT_OF_RANGE;
    } else if (d->poisson && !(isfinite(mean) && mean > 0.0 && mean <= POISSON_LAMBDA_MAX)) {
        trn_fail(trnsciErrorInvalidValue, "%s: lambda must be finite, > 0 and <= %g (got %g)", fn,
                 POISSON_LAMBDA_MAX, mean);
        st = TRNRAND_STATUS_OUT_OF_RANGE;
    }
    if (st != TRNRAND_STATUS_SUCCESS || n == 0) {
        release(g);
        if (st == TRNRAND_STATUS_SUCCESS)
            trn_ok();
        return st;
    }
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c) {
        release(g);
        return status_of(e);
    }
    Trnsci__V1__BufferRef dst;
    if (resolve_output(c, fn, out, n, d->size, &dst) != 0) {
        release(g);
        return TRNRAND_STATUS_OUT_OF_RANGE;
    }
    pthread_mutex_lock(&g->lock);
    /* n fits in the allocation, so n * words cannot overflow. A Sobol call
     * uses n / dims points of each dimension, of 2^32. */
    const uint64_t used = quasi ? (uint64_t)(n / g->dims) : (uint64_t)n * d->words;
    if (quasi && (n % g->dims != 0 || g->offset > (UINT64_C(1) << 32) ||
                  used > (UINT64_C(1) << 32) - g->offset)) {
        if (n % g->dims != 0) { /* dimensions changed since the check above */
            trn_fail(trnsciErrorInvalidValue,
                     "%s: n = %zu is not a multiple of the generator's %u dimensions", fn, n,
                     (unsigned)g->dims);
            st = TRNRAND_STATUS_LENGTH_NOT_MULTIPLE;
        } else {
            trn_fail(trnsciErrorInvalidValue,
                     "%s: %llu points per dimension from offset %llu run past the 2^32 points "
                     "of a Sobol32 generator",
                     fn, (unsigned long long)used, (unsigned long long)g->offset);
            st = TRNRAND_STATUS_OUT_OF_RANGE;
        }
    } else if (!quasi && g->offset > UINT64_MAX - used) {
        trn_fail(trnsciErrorInvalidValue,
                 "%s: %zu results of %u words from offset %llu run past the end of the stream "
                 "(offset + words must stay below 2^64)",
                 fn, n, d->words, (unsigned long long)g->offset);
        st = TRNRAND_STATUS_OUT_OF_RANGE;
    } else {
        Trnsci__V1__RandGenerateOp r = TRNSCI__V1__RAND_GENERATE_OP__INIT;
        r.distribution = d->wire;
        r.seed = g->seed;
        r.offset = g->offset;
        r.mean = d->normal ? mean : 0.0;
        r.stddev = d->normal ? stddev : 0.0;
        r.lambda = d->poisson ? mean : 0.0;
        if (quasi) {
            r.generator = g->type == TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL32
                              ? TRNSCI__V1__RAND_GENERATOR__RAND_GENERATOR_SCRAMBLED_SOBOL32
                              : TRNSCI__V1__RAND_GENERATOR__RAND_GENERATOR_SOBOL32;
            r.dimensions = g->dims;
        }
        r.dst = &dst;
        r.count = (uint64_t)n;
        Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
        op.kind_case = TRNSCI__V1__OP__KIND_RAND_GENERATE;
        op.rand_generate = &r;
        e = trn_client_submit(c, g->stream, &op);
        if (e == trnsciSuccess) {
            g->offset += used;
            trn_ok();
        }
        st = status_of(e);
    }
    pthread_mutex_unlock(&g->lock);
    release(g);
    return st;
}

trnrandStatus_t trnrandGenerate(trnrandGenerator_t generator, unsigned int *outputPtr, size_t num) {
    return generate(generator, "trnrandGenerate", &U32, outputPtr, num, 0, 0);
}

trnrandStatus_t trnrandGenerateUniform(trnrandGenerator_t generator, float *outputPtr, size_t num) {
    return generate(generator, "trnrandGenerateUniform", &UNIFORM_F32, outputPtr, num, 0, 0);
}

trnrandStatus_t trnrandGenerateUniformDouble(trnrandGenerator_t generator, double *outputPtr,
                                             size_t num) {
    return generate(generator, "trnrandGenerateUniformDouble", &UNIFORM_F64, outputPtr, num, 0, 0);
}

trnrandStatus_t trnrandGenerateNormal(trnrandGenerator_t generator, float *outputPtr, size_t n,
                                      float mean, float stddev) {
    return generate(generator, "trnrandGenerateNormal", &NORMAL_F32, outputPtr, n, mean, stddev);
}

trnrandStatus_t trnrandGenerateNormalDouble(trnrandGenerator_t generator, double *outputPtr,
                                            size_t n, double mean, double stddev) {
    return generate(generator, "trnrandGenerateNormalDouble", &NORMAL_F64, outputPtr, n, mean,
                    stddev);
}

trnrandStatus_t trnrandGenerateLogNormal(trnrandGenerator_t generator, float *outputPtr, size_t n,
                                         float mean, float stddev) {
    return generate(generator, "trnrandGenerateLogNormal", &LOGNORMAL_F32, outputPtr, n, mean,
                    stddev);
}

trnrandStatus_t trnrandGenerateLogNormalDouble(trnrandGenerator_t generator, double *outputPtr,
                                               size_t n, double mean, double stddev) {
    return generate(generator, "trnrandGenerateLogNormalDouble", &LOGNORMAL_F64, outputPtr, n, mean,
                    stddev);
}

trnrandStatus_t trnrandGeneratePoisson(trnrandGenerator_t generator, unsigned int *outputPtr,
                                       size_t n, double lambda) {
    return generate(generator, "trnrandGeneratePoisson", &POISSON, outputPtr, n, lambda, 0);
}
