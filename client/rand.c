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
#include "client/rand_host.h"
#include "ops/rand.h"
#include "trnsci/trnrand.h"

typedef struct rand_gen {
    uint64_t id;
    pthread_mutex_t lock; /* the fields below */
    trnsciStream_t stream;
    uint64_t seed, offset;
    trnrandRngType_t type;
    trnrandOrdering_t ordering;
    uint32_t dims; /* Sobol generators: 1 .. TRNRAND_SOBOL32_MAX_DIMENSIONS */
    int host;      /* trnrandCreateGeneratorHost: computed here, into host memory */
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
    return t == TRNRAND_RNG_QUASI_SOBOL32 || t == TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL32 ||
           t == TRNRAND_RNG_QUASI_SOBOL64 || t == TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL64;
}

/* trnrandCreateGenerator and trnrandCreateGeneratorHost (fn). */
static trnrandStatus_t create(trnrandGenerator_t *generator, trnrandRngType_t rng_type, int host,
                              const char *fn) {
    if (!generator) {
        trn_fail(trnsciErrorInvalidValue, "%s: generator is NULL", fn);
        return TRNRAND_STATUS_OUT_OF_RANGE;
    }
    const char *name = rng_name(rng_type);
    if (!name || rng_type == TRNRAND_RNG_TEST) {
        trn_fail(trnsciErrorInvalidValue,
                 "%s: rng_type %d is not a generator type (use "
                 "TRNRAND_RNG_PSEUDO_PHILOX4_32_10 or TRNRAND_RNG_PSEUDO_DEFAULT)",
                 fn, (int)rng_type);
        return TRNRAND_STATUS_TYPE_ERROR;
    }
    trnrandRngType_t type;
    switch (rng_type) {
    case TRNRAND_RNG_PSEUDO_DEFAULT:
    case TRNRAND_RNG_PSEUDO_PHILOX4_32_10: type = TRNRAND_RNG_PSEUDO_PHILOX4_32_10; break;
    case TRNRAND_RNG_PSEUDO_XORWOW: type = TRNRAND_RNG_PSEUDO_XORWOW; break;
    case TRNRAND_RNG_PSEUDO_MRG32K3A: type = TRNRAND_RNG_PSEUDO_MRG32K3A; break;
    case TRNRAND_RNG_PSEUDO_MT19937: type = TRNRAND_RNG_PSEUDO_MT19937; break;
    case TRNRAND_RNG_PSEUDO_MTGP32: type = TRNRAND_RNG_PSEUDO_MTGP32; break;
    case TRNRAND_RNG_QUASI_DEFAULT: /* cuRAND's quasi default is SOBOL32 too */
    case TRNRAND_RNG_QUASI_SOBOL32: type = TRNRAND_RNG_QUASI_SOBOL32; break;
    case TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL32: type = TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL32; break;
    case TRNRAND_RNG_QUASI_SOBOL64: type = TRNRAND_RNG_QUASI_SOBOL64; break;
    case TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL64: type = TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL64; break;
    default:
        trn_fail(trnsciErrorNotSupported,
                 "%s: %s is not available yet; the generators are "
                 "TRNRAND_RNG_PSEUDO_PHILOX4_32_10 (also TRNRAND_RNG_PSEUDO_DEFAULT), "
                 "TRNRAND_RNG_PSEUDO_XORWOW, TRNRAND_RNG_PSEUDO_MRG32K3A, "
                 "TRNRAND_RNG_PSEUDO_MT19937, TRNRAND_RNG_PSEUDO_MTGP32, "
                 "TRNRAND_RNG_QUASI_SOBOL32 (also "
                 "TRNRAND_RNG_QUASI_DEFAULT), "
                 "TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL32, TRNRAND_RNG_QUASI_SOBOL64 and "
                 "TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL64",
                 fn, name);
        return TRNRAND_STATUS_TYPE_ERROR;
    }
    trnsciError_t e;
    if (!host && !trn_client_get(&e))
        return TRNRAND_STATUS_INITIALIZATION_FAILED; /* the error is recorded */
    rand_gen *g = calloc(1, sizeof(*g));
    if (!g || pthread_mutex_init(&g->lock, NULL) != 0) {
        free(g);
        trn_fail(trnsciErrorMemoryAllocation, "%s: out of memory", fn);
        return TRNRAND_STATUS_ALLOCATION_FAILED;
    }
    g->type = type;
    g->host = host;
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
            trn_fail(trnsciErrorMemoryAllocation, "%s: out of memory", fn);
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

trnrandStatus_t trnrandCreateGenerator(trnrandGenerator_t *generator, trnrandRngType_t rng_type) {
    return create(generator, rng_type, 0, "trnrandCreateGenerator");
}

trnrandStatus_t trnrandCreateGeneratorHost(trnrandGenerator_t *generator,
                                           trnrandRngType_t rng_type) {
    return create(generator, rng_type, 1, "trnrandCreateGeneratorHost");
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
        /* cuRAND's MTGP32 has two layouts (default/best and legacy) and
         * refuses the seeded and dynamic orderings. */
        if (g->type == TRNRAND_RNG_PSEUDO_MTGP32 &&
            (order == TRNRAND_ORDERING_PSEUDO_SEEDED || order == TRNRAND_ORDERING_PSEUDO_DYNAMIC))
            ok = 0;
        if (ok)
            g->ordering = order;
    });
    if (!ok) {
        trn_fail(trnsciErrorInvalidValue,
                 "trnrandSetGeneratorOrdering: ordering %d is not one of this generator's "
                 "(pseudo-random: TRNRAND_ORDERING_PSEUDO_BEST, _DEFAULT, _SEEDED, _LEGACY, "
                 "_DYNAMIC, MTGP32 only _BEST, _DEFAULT and _LEGACY; quasi-random: "
                 "TRNRAND_ORDERING_QUASI_DEFAULT)",
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

/* What a distribution checks and sends besides the common fields. */
typedef enum dist_kind {
    K_PLAIN,   /* raw words, uniforms */
    K_NORMAL,  /* Box-Muller pairs (Philox): count even, mean and stddev */
    K_POISSON, /* lambda */
    K_EXP,     /* rate lambda; pseudo-random generators */
    K_GAMMA,   /* shape, scale; Philox only */
    K_BETA,    /* a, b; Philox only */
    K_TRUNC,   /* mean, stddev, lower, upper; Philox only */
    K_LHS,     /* points x dims; Philox only */
    K_U64,     /* Sobol64 only */
} dist_kind;

typedef struct dist_info {
    Trnsci__V1__RandDistribution wire;
    unsigned words; /* raw 32-bit words per result (Philox) */
    size_t size;    /* bytes per result */
    dist_kind kind;
} dist_info;

#define DIST(name, w, sz, k)                                                                       \
    { TRNSCI__V1__RAND_DISTRIBUTION__RAND_##name, w, sz, k }
static const dist_info U32 = DIST(U32, 1, 4, K_PLAIN);
static const dist_info UNIFORM_F32 = DIST(UNIFORM_F32, 1, 4, K_PLAIN);
static const dist_info UNIFORM_F64 = DIST(UNIFORM_F64, 2, 8, K_PLAIN);
static const dist_info NORMAL_F32 = DIST(NORMAL_F32, 1, 4, K_NORMAL);
static const dist_info NORMAL_F64 = DIST(NORMAL_F64, 2, 8, K_NORMAL);
static const dist_info LOGNORMAL_F32 = DIST(LOGNORMAL_F32, 1, 4, K_NORMAL);
static const dist_info LOGNORMAL_F64 = DIST(LOGNORMAL_F64, 2, 8, K_NORMAL);
static const dist_info POISSON = DIST(POISSON, 2, 4, K_POISSON);
static const dist_info EXP_F32 = DIST(EXPONENTIAL_F32, 1, 4, K_EXP);
static const dist_info EXP_F64 = DIST(EXPONENTIAL_F64, 2, 8, K_EXP);
static const dist_info GAMMA_F32 = DIST(GAMMA_F32, 1, 4, K_GAMMA);
static const dist_info GAMMA_F64 = DIST(GAMMA_F64, 1, 8, K_GAMMA);
static const dist_info BETA_F32 = DIST(BETA_F32, 1, 4, K_BETA);
static const dist_info BETA_F64 = DIST(BETA_F64, 1, 8, K_BETA);
static const dist_info TRUNC_F32 = DIST(TRUNCATED_NORMAL_F32, 1, 4, K_TRUNC);
static const dist_info TRUNC_F64 = DIST(TRUNCATED_NORMAL_F64, 1, 8, K_TRUNC);
static const dist_info LHS_F32 = DIST(LATIN_HYPERCUBE_F32, 2, 4, K_LHS);
static const dist_info LHS_F64 = DIST(LATIN_HYPERCUBE_F64, 2, 8, K_LHS);
static const dist_info U64 = DIST(U64, 0, 8, K_U64);
#undef DIST

/* The parameters of a call (those its distribution does not use are 0). */
typedef struct gen_args {
    double mean, stddev, lambda, shape, scale, a, b, lower, upper;
    uint32_t lhs_dims;
} gen_args;

/* Round keys per dimension of a Latin hypercube (the daemon's
 * TRN_RAND_LHS_ROUNDS) and its largest points per dimension. */
#define LHS_ROUNDS 6u
#define LHS_MAX_POINTS_F32 (UINT64_C(1) << 20)
#define LHS_MAX_POINTS_F64 (UINT64_C(1) << 32)

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

static int is_wide(trnrandRngType_t t) {
    return t == TRNRAND_RNG_QUASI_SOBOL64 || t == TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL64;
}

static int pos_finite(double x) {
    return isfinite(x) && x > 0.0;
}

/* The argument rules only the arguments decide (no generator state). */
static trnrandStatus_t check_args(const char *fn, const dist_info *d, size_t n, int quasi,
                                  const gen_args *a) {
    switch (d->kind) {
    case K_PLAIN:
    case K_U64: return TRNRAND_STATUS_SUCCESS;
    case K_NORMAL:
        if (!quasi && n % 2 != 0) {
            trn_fail(trnsciErrorInvalidValue,
                     "%s: n = %zu is odd; normal and log-normal results come in Box-Muller "
                     "pairs, so n must be even",
                     fn, n);
            return TRNRAND_STATUS_LENGTH_NOT_MULTIPLE;
        }
        if (!isfinite(a->mean) || !pos_finite(a->stddev)) {
            trn_fail(trnsciErrorInvalidValue,
                     "%s: mean must be finite and stddev finite and > 0 (mean %g, stddev %g)", fn,
                     a->mean, a->stddev);
            return TRNRAND_STATUS_OUT_OF_RANGE;
        }
        return TRNRAND_STATUS_SUCCESS;
    case K_POISSON:
        if (!(pos_finite(a->lambda) && a->lambda <= TRNSCI_WIRE_POISSON_LAMBDA_MAX)) {
            trn_fail(trnsciErrorInvalidValue, "%s: lambda must be finite, > 0 and <= %g (got %g)",
                     fn, TRNSCI_WIRE_POISSON_LAMBDA_MAX, a->lambda);
            return TRNRAND_STATUS_OUT_OF_RANGE;
        }
        return TRNRAND_STATUS_SUCCESS;
    case K_EXP:
        if (!pos_finite(a->lambda)) {
            trn_fail(trnsciErrorInvalidValue, "%s: lambda must be finite and > 0 (got %g)", fn,
                     a->lambda);
            return TRNRAND_STATUS_OUT_OF_RANGE;
        }
        return TRNRAND_STATUS_SUCCESS;
    case K_GAMMA:
        if (!pos_finite(a->shape)) {
            trn_fail(trnsciErrorInvalidValue, "%s: shape must be finite and > 0 (got %g)", fn,
                     a->shape);
            return TRNRAND_STATUS_OUT_OF_RANGE;
        }
        if (!pos_finite(a->scale)) {
            trn_fail(trnsciErrorInvalidValue, "%s: scale must be finite and > 0 (got %g)", fn,
                     a->scale);
            return TRNRAND_STATUS_OUT_OF_RANGE;
        }
        return TRNRAND_STATUS_SUCCESS;
    case K_BETA:
        if (!pos_finite(a->a)) {
            trn_fail(trnsciErrorInvalidValue, "%s: a must be finite and > 0 (got %g)", fn, a->a);
            return TRNRAND_STATUS_OUT_OF_RANGE;
        }
        if (!pos_finite(a->b)) {
            trn_fail(trnsciErrorInvalidValue, "%s: b must be finite and > 0 (got %g)", fn, a->b);
            return TRNRAND_STATUS_OUT_OF_RANGE;
        }
        return TRNRAND_STATUS_SUCCESS;
    case K_TRUNC:
        if (!isfinite(a->mean) || !pos_finite(a->stddev)) {
            trn_fail(trnsciErrorInvalidValue,
                     "%s: mean must be finite and stddev finite and > 0 (mean %g, stddev %g)", fn,
                     a->mean, a->stddev);
            return TRNRAND_STATUS_OUT_OF_RANGE;
        }
        if (!(a->lower < a->upper)) {
            trn_fail(trnsciErrorInvalidValue, "%s: lo must be < hi (lo %g, hi %g)", fn, a->lower,
                     a->upper);
            return TRNRAND_STATUS_OUT_OF_RANGE;
        }
        return TRNRAND_STATUS_SUCCESS;
    case K_LHS: {
        const uint64_t maxp = d->size == 4 ? LHS_MAX_POINTS_F32 : LHS_MAX_POINTS_F64;
        if (a->lhs_dims < 1) {
            trn_fail(trnsciErrorInvalidValue, "%s: dims must be >= 1, got 0", fn);
            return TRNRAND_STATUS_OUT_OF_RANGE;
        }
        if ((uint64_t)(n / a->lhs_dims) > maxp) {
            trn_fail(trnsciErrorInvalidValue,
                     "%s: n_points = %llu exceeds the %llu points a %s Latin hypercube resolves",
                     fn, (unsigned long long)(n / a->lhs_dims), (unsigned long long)maxp,
                     d->size == 4 ? "float" : "double");
            return TRNRAND_STATUS_OUT_OF_RANGE;
        }
        return TRNRAND_STATUS_SUCCESS;
    }
    }
    return TRNRAND_STATUS_INTERNAL_ERROR;
}

/* n results of distribution d with the parameters in a (n = points x dims
 * for a Latin hypercube). */
static trnrandStatus_t generate(trnrandGenerator_t generator, const char *fn, const dist_info *d,
                                void *out, size_t n, const gen_args *a) {
    rand_gen *g = acquire(generator, fn);
    if (!g)
        return TRNRAND_STATUS_NOT_INITIALIZED;
    /* type never changes after creation; dims is read under the lock below
     * and checked here from a snapshot. */
    const int quasi = is_quasi(g->type), wide = is_wide(g->type);
    const int philox_only = d->kind != K_PLAIN && d->kind != K_NORMAL && d->kind != K_U64;
    /* Gamma, beta, truncated normal and Latin hypercubes read Philox
     * sub-streams or keyed Philox blocks. */
    const int needs_philox =
        d->kind == K_GAMMA || d->kind == K_BETA || d->kind == K_TRUNC || d->kind == K_LHS;
    pthread_mutex_lock(&g->lock);
    const uint32_t dims = g->dims;
    pthread_mutex_unlock(&g->lock);
    trnrandStatus_t st = TRNRAND_STATUS_SUCCESS;
    if (quasi && philox_only) {
        trn_fail(trnsciErrorNotSupported,
                 "%s: these results are not available from a quasi-random generator (Philox "
                 "only)",
                 fn);
        st = TRNRAND_STATUS_TYPE_ERROR;
    } else if (needs_philox && g->type != TRNRAND_RNG_PSEUDO_PHILOX4_32_10) {
        trn_fail(trnsciErrorNotSupported,
                 "%s: these results are available from Philox generators only "
                 "(TRNRAND_RNG_PSEUDO_PHILOX4_32_10)",
                 fn);
        st = TRNRAND_STATUS_TYPE_ERROR;
    } else if (d->kind == K_U64 && !wide) {
        trn_fail(trnsciErrorNotSupported,
                 "%s: 64-bit results need a 64-bit generator (TRNRAND_RNG_QUASI_SOBOL64 or "
                 "TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL64)",
                 fn);
        st = TRNRAND_STATUS_TYPE_ERROR;
    } else if (d == &U32 && wide) {
        trn_fail(trnsciErrorNotSupported,
                 "%s: a 64-bit generator makes unsigned long long results "
                 "(trnrandGenerateLongLong)",
                 fn);
        st = TRNRAND_STATUS_TYPE_ERROR;
    } else if (quasi && n % dims != 0) {
        trn_fail(trnsciErrorInvalidValue,
                 "%s: n = %zu is not a multiple of the generator's %u dimensions", fn, n,
                 (unsigned)dims);
        st = TRNRAND_STATUS_LENGTH_NOT_MULTIPLE;
    } else {
        st = check_args(fn, d, n, quasi, a);
    }
    if (st != TRNRAND_STATUS_SUCCESS || n == 0) {
        release(g);
        if (st == TRNRAND_STATUS_SUCCESS)
            trn_ok();
        return st;
    }
    trnsciError_t e;
    trn_client *c = NULL;
    Trnsci__V1__BufferRef dst = TRNSCI__V1__BUFFER_REF__INIT;
    if (g->host) { /* host memory, computed here (client/rand_host.c) */
        if (!out || n > SIZE_MAX / d->size) {
            release(g);
            trn_fail(trnsciErrorInvalidValue, "%s: outputPtr is NULL, or %zu results do not fit",
                     fn, n);
            return TRNRAND_STATUS_OUT_OF_RANGE;
        }
        dst.buffer_id = TRN_RAND_HOST_BUFFER;
    } else {
        c = trn_client_get(&e);
        if (!c) {
            release(g);
            return status_of(e);
        }
        if (resolve_output(c, fn, out, n, d->size, &dst) != 0) {
            release(g);
            return TRNRAND_STATUS_OUT_OF_RANGE;
        }
    }
    pthread_mutex_lock(&g->lock);
    /* n fits in the allocation, so n * words (+ 6 per Latin hypercube
     * dimension, dims <= n) cannot overflow. A Sobol call uses n / dims
     * points of each dimension, of 2^32 (Sobol64: up to 2^64 - 1). */
    uint64_t used = quasi ? (uint64_t)(n / g->dims) : (uint64_t)n * d->words;
    if (d->kind == K_LHS)
        used += (uint64_t)LHS_ROUNDS * a->lhs_dims;
    const uint64_t period = UINT64_C(1) << 32;
    if (quasi && n % g->dims != 0) { /* dimensions changed since the check above */
        trn_fail(trnsciErrorInvalidValue,
                 "%s: n = %zu is not a multiple of the generator's %u dimensions", fn, n,
                 (unsigned)g->dims);
        st = TRNRAND_STATUS_LENGTH_NOT_MULTIPLE;
    } else if (quasi && !wide && (g->offset > period || used > period - g->offset)) {
        trn_fail(trnsciErrorInvalidValue,
                 "%s: %llu points per dimension from offset %llu run past the 2^32 points "
                 "of a Sobol32 generator",
                 fn, (unsigned long long)used, (unsigned long long)g->offset);
        st = TRNRAND_STATUS_OUT_OF_RANGE;
    } else if ((wide || !quasi) && g->offset > UINT64_MAX - used) {
        trn_fail(trnsciErrorInvalidValue,
                 "%s: %zu results from offset %llu run past the end of the stream "
                 "(the offset after the call must stay below 2^64)",
                 fn, n, (unsigned long long)g->offset);
        st = TRNRAND_STATUS_OUT_OF_RANGE;
    } else {
        Trnsci__V1__RandGenerateOp r = TRNSCI__V1__RAND_GENERATE_OP__INIT;
        r.distribution = d->wire;
        r.seed = g->seed;
        r.offset = g->offset;
        if (d->kind == K_NORMAL || d->kind == K_TRUNC) {
            r.mean = a->mean;
            r.stddev = a->stddev;
        }
        if (d->kind == K_POISSON || d->kind == K_EXP)
            r.lambda = a->lambda;
        r.shape = a->shape;
        r.scale = a->scale;
        r.beta_a = a->a;
        r.beta_b = a->b;
        r.lower = a->lower;
        r.upper = a->upper;
        r.lhs_dimensions = a->lhs_dims;
        if (quasi) {
            switch (g->type) {
            case TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL32:
                r.generator = TRNSCI__V1__RAND_GENERATOR__RAND_GENERATOR_SCRAMBLED_SOBOL32;
                break;
            case TRNRAND_RNG_QUASI_SOBOL64:
                r.generator = TRNSCI__V1__RAND_GENERATOR__RAND_GENERATOR_SOBOL64;
                break;
            case TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL64:
                r.generator = TRNSCI__V1__RAND_GENERATOR__RAND_GENERATOR_SCRAMBLED_SOBOL64;
                break;
            default: r.generator = TRNSCI__V1__RAND_GENERATOR__RAND_GENERATOR_SOBOL32; break;
            }
            r.dimensions = g->dims;
        } else if (g->type == TRNRAND_RNG_PSEUDO_XORWOW) {
            r.generator = TRNSCI__V1__RAND_GENERATOR__RAND_GENERATOR_XORWOW;
        } else if (g->type == TRNRAND_RNG_PSEUDO_MRG32K3A) {
            r.generator = TRNSCI__V1__RAND_GENERATOR__RAND_GENERATOR_MRG32K3A;
        } else if (g->type == TRNRAND_RNG_PSEUDO_MT19937) {
            r.generator = TRNSCI__V1__RAND_GENERATOR__RAND_GENERATOR_MT19937;
        } else if (g->type == TRNRAND_RNG_PSEUDO_MTGP32) {
            r.generator = TRNSCI__V1__RAND_GENERATOR__RAND_GENERATOR_MTGP32;
            r.mtgp_states = g->ordering == TRNRAND_ORDERING_PSEUDO_LEGACY
                                ? TRN_RAND_MTGP_STATES_LEGACY
                                : TRN_RAND_MTGP_STATES_DEFAULT;
        }
        r.dst = &dst;
        r.count = (uint64_t)n;
        Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
        op.kind_case = TRNSCI__V1__OP__KIND_RAND_GENERATE;
        op.rand_generate = &r;
        /* A 1.12 daemon would refuse these generators as unknown values. */
        const int new_generator = !quasi && g->type != TRNRAND_RNG_PSEUDO_PHILOX4_32_10 &&
                                  g->type != TRNRAND_RNG_PSEUDO_DEFAULT;
        /* A 1.13 daemon's tables stop at TRN_SOBOL_MAX_DIMS_1_13 dimensions. */
        const int many_dims = quasi && g->dims > TRN_SOBOL_MAX_DIMS_1_13;
        if (g->host) {
            e = trn_rand_host_generate(&op, out, n * d->size, fn);
        } else {
            e = new_generator
                    ? trn_client_need_minor(c, 13, "the XORWOW, MRG32k3a and MT19937 generators")
                    : trnsciSuccess;
            /* A 1.14 daemon does not know MTGP32. */
            if (e == trnsciSuccess && g->type == TRNRAND_RNG_PSEUDO_MTGP32)
                e = trn_client_need_minor(c, 15, "the MTGP32 generator");
            if (e == trnsciSuccess && many_dims)
                e = trn_client_need_minor(c, 14, "Sobol generators of more than 1024 dimensions");
            if (e == trnsciSuccess)
                e = trn_client_submit(c, g->stream, &op);
        }
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

/* Calls with the distribution's mean and stddev (normal kinds) only. */
static trnrandStatus_t generate_ms(trnrandGenerator_t generator, const char *fn, const dist_info *d,
                                   void *out, size_t n, double mean, double stddev) {
    gen_args a = {0};
    a.mean = mean;
    a.stddev = stddev;
    return generate(generator, fn, d, out, n, &a);
}

trnrandStatus_t trnrandGenerate(trnrandGenerator_t generator, unsigned int *outputPtr, size_t num) {
    return generate_ms(generator, "trnrandGenerate", &U32, outputPtr, num, 0, 0);
}

trnrandStatus_t trnrandGenerateUniform(trnrandGenerator_t generator, float *outputPtr, size_t num) {
    return generate_ms(generator, "trnrandGenerateUniform", &UNIFORM_F32, outputPtr, num, 0, 0);
}

trnrandStatus_t trnrandGenerateUniformDouble(trnrandGenerator_t generator, double *outputPtr,
                                             size_t num) {
    return generate_ms(generator, "trnrandGenerateUniformDouble", &UNIFORM_F64, outputPtr, num, 0,
                       0);
}

trnrandStatus_t trnrandGenerateNormal(trnrandGenerator_t generator, float *outputPtr, size_t n,
                                      float mean, float stddev) {
    return generate_ms(generator, "trnrandGenerateNormal", &NORMAL_F32, outputPtr, n, mean, stddev);
}

trnrandStatus_t trnrandGenerateNormalDouble(trnrandGenerator_t generator, double *outputPtr,
                                            size_t n, double mean, double stddev) {
    return generate_ms(generator, "trnrandGenerateNormalDouble", &NORMAL_F64, outputPtr, n, mean,
                       stddev);
}

trnrandStatus_t trnrandGenerateLogNormal(trnrandGenerator_t generator, float *outputPtr, size_t n,
                                         float mean, float stddev) {
    return generate_ms(generator, "trnrandGenerateLogNormal", &LOGNORMAL_F32, outputPtr, n, mean,
                       stddev);
}

trnrandStatus_t trnrandGenerateLogNormalDouble(trnrandGenerator_t generator, double *outputPtr,
                                               size_t n, double mean, double stddev) {
    return generate_ms(generator, "trnrandGenerateLogNormalDouble", &LOGNORMAL_F64, outputPtr, n,
                       mean, stddev);
}

trnrandStatus_t trnrandGeneratePoisson(trnrandGenerator_t generator, unsigned int *outputPtr,
                                       size_t n, double lambda) {
    gen_args a = {0};
    a.lambda = lambda;
    return generate(generator, "trnrandGeneratePoisson", &POISSON, outputPtr, n, &a);
}

trnrandStatus_t trnrandGenerateLongLong(trnrandGenerator_t generator, unsigned long long *outputPtr,
                                        size_t num) {
    return generate_ms(generator, "trnrandGenerateLongLong", &U64, outputPtr, num, 0, 0);
}

/* ---- trnsci extensions ---------------------------------------------------- */

trnrandStatus_t trnrandGenerateExponential(trnrandGenerator_t generator, float *outputPtr, size_t n,
                                           double lambda) {
    gen_args a = {0};
    a.lambda = lambda;
    return generate(generator, "trnrandGenerateExponential", &EXP_F32, outputPtr, n, &a);
}

trnrandStatus_t trnrandGenerateExponentialDouble(trnrandGenerator_t generator, double *outputPtr,
                                                 size_t n, double lambda) {
    gen_args a = {0};
    a.lambda = lambda;
    return generate(generator, "trnrandGenerateExponentialDouble", &EXP_F64, outputPtr, n, &a);
}

trnrandStatus_t trnrandGenerateGamma(trnrandGenerator_t generator, float *outputPtr, size_t n,
                                     double shape, double scale) {
    gen_args a = {0};
    a.shape = shape;
    a.scale = scale;
    return generate(generator, "trnrandGenerateGamma", &GAMMA_F32, outputPtr, n, &a);
}

trnrandStatus_t trnrandGenerateGammaDouble(trnrandGenerator_t generator, double *outputPtr,
                                           size_t n, double shape, double scale) {
    gen_args a = {0};
    a.shape = shape;
    a.scale = scale;
    return generate(generator, "trnrandGenerateGammaDouble", &GAMMA_F64, outputPtr, n, &a);
}

trnrandStatus_t trnrandGenerateBeta(trnrandGenerator_t generator, float *outputPtr, size_t n,
                                    double a, double b) {
    gen_args g = {0};
    g.a = a;
    g.b = b;
    return generate(generator, "trnrandGenerateBeta", &BETA_F32, outputPtr, n, &g);
}

trnrandStatus_t trnrandGenerateBetaDouble(trnrandGenerator_t generator, double *outputPtr, size_t n,
                                          double a, double b) {
    gen_args g = {0};
    g.a = a;
    g.b = b;
    return generate(generator, "trnrandGenerateBetaDouble", &BETA_F64, outputPtr, n, &g);
}

trnrandStatus_t trnrandGenerateTruncatedNormal(trnrandGenerator_t generator, float *outputPtr,
                                               size_t n, float mean, float stddev, float lo,
                                               float hi) {
    gen_args a = {0};
    a.mean = mean;
    a.stddev = stddev;
    a.lower = lo;
    a.upper = hi;
    return generate(generator, "trnrandGenerateTruncatedNormal", &TRUNC_F32, outputPtr, n, &a);
}

trnrandStatus_t trnrandGenerateTruncatedNormalDouble(trnrandGenerator_t generator,
                                                     double *outputPtr, size_t n, double mean,
                                                     double stddev, double lo, double hi) {
    gen_args a = {0};
    a.mean = mean;
    a.stddev = stddev;
    a.lower = lo;
    a.upper = hi;
    return generate(generator, "trnrandGenerateTruncatedNormalDouble", &TRUNC_F64, outputPtr, n,
                    &a);
}

/* n_points x dims results; the product must fit in size_t. */
static trnrandStatus_t lhs(trnrandGenerator_t generator, const char *fn, const dist_info *d,
                           void *out, size_t n_points, unsigned int dims) {
    if (dims < 1) {
        trn_fail(trnsciErrorInvalidValue, "%s: dims must be >= 1, got 0", fn);
        return TRNRAND_STATUS_OUT_OF_RANGE;
    }
    if (n_points > SIZE_MAX / dims) {
        trn_fail(trnsciErrorInvalidValue, "%s: n_points = %zu times dims = %u overflows", fn,
                 n_points, dims);
        return TRNRAND_STATUS_OUT_OF_RANGE;
    }
    gen_args a = {0};
    a.lhs_dims = dims;
    return generate(generator, fn, d, out, n_points * dims, &a);
}

trnrandStatus_t trnrandGenerateLatinHypercube(trnrandGenerator_t generator, float *outputPtr,
                                              size_t n_points, unsigned int dims) {
    return lhs(generator, "trnrandGenerateLatinHypercube", &LHS_F32, outputPtr, n_points, dims);
}

trnrandStatus_t trnrandGenerateLatinHypercubeDouble(trnrandGenerator_t generator, double *outputPtr,
                                                    size_t n_points, unsigned int dims) {
    return lhs(generator, "trnrandGenerateLatinHypercubeDouble", &LHS_F64, outputPtr, n_points,
               dims);
}
