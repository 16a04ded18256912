/*
 * validate_rand.c — argument rules of trnrand's RandGenerateOp, as cuRAND
 * states them for its pseudo-random generators (an odd normal count,
 * non-positive stddev, a non-positive Poisson lambda; lambda above
 * TRN_RAND_POISSON_LAMBDA_MAX is this implementation's limit), plus the
 * memory-safety check cuRAND leaves to the caller: the output must lie
 * inside one of the session's buffers. For the Sobol generators, cuRAND's
 * quasi-random rules: 1 <= dimensions (<= TRN_SOBOL_MAX_DIMS here, 20000 in
 * cuRAND), count a multiple of dimensions, no Poisson (this
 * implementation's limit), and points offset .. offset + count/dimensions - 1
 * inside the 2^32 points of Sobol32.
 */
#include <math.h>
#include <stdio.h>

#include "daemon/checked.h"
#include "daemon/validate.h"

static int dist_of(Trnsci__V1__RandDistribution d, trn_rand_dist *out) {
    switch (d) {
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_U32: *out = TRN_RAND_U32; return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_UNIFORM_F32: *out = TRN_RAND_UNIFORM_F32; return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_UNIFORM_F64: *out = TRN_RAND_UNIFORM_F64; return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_NORMAL_F32: *out = TRN_RAND_NORMAL_F32; return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_NORMAL_F64: *out = TRN_RAND_NORMAL_F64; return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_LOGNORMAL_F32:
        *out = TRN_RAND_LOGNORMAL_F32;
        return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_LOGNORMAL_F64:
        *out = TRN_RAND_LOGNORMAL_F64;
        return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_POISSON: *out = TRN_RAND_POISSON; return 0;
    default: return -1;
    }
}

static int gen_of(Trnsci__V1__RandGenerator g, trn_rand_gen *out) {
    switch (g) {
    case TRNSCI__V1__RAND_GENERATOR__RAND_GENERATOR_PHILOX: *out = TRN_RAND_PHILOX; return 0;
    case TRNSCI__V1__RAND_GENERATOR__RAND_GENERATOR_SOBOL32: *out = TRN_RAND_SOBOL32; return 0;
    case TRNSCI__V1__RAND_GENERATOR__RAND_GENERATOR_SCRAMBLED_SOBOL32:
        *out = TRN_RAND_SCRAMBLED_SOBOL32;
        return 0;
    default: return -1;
    }
}

/* The Sobol rules (out->dist and out->gen set). */
static trn_wire_code check_sobol(const Trnsci__V1__RandGenerateOp *r, const trn_rand_desc *out,
                                 char *err, size_t errlen) {
    if (out->dist == TRN_RAND_POISSON) {
        snprintf(err, errlen, "rand: Poisson values are not available from a Sobol generator");
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (r->dimensions < 1 || r->dimensions > TRN_SOBOL_MAX_DIMS) {
        snprintf(err, errlen, "rand: Sobol dimensions must be 1 .. %d, got %u", TRN_SOBOL_MAX_DIMS,
                 (unsigned)r->dimensions);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (r->count % r->dimensions != 0) {
        snprintf(err, errlen,
                 "rand: a Sobol count must be a multiple of the dimensions (%u), got %llu",
                 (unsigned)r->dimensions, (unsigned long long)r->count);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const uint64_t points = r->count / r->dimensions, period = UINT64_C(1) << 32;
    if (r->offset > period || points > period - r->offset) {
        snprintf(err, errlen,
                 "rand: Sobol offset %llu + %llu points per dimension runs past the 2^32 "
                 "points of Sobol32",
                 (unsigned long long)r->offset, (unsigned long long)points);
        return TRN_WIRE_OUT_OF_RANGE;
    }
    return TRN_WIRE_OK;
}

static int is_normal(trn_rand_dist d) {
    return d == TRN_RAND_NORMAL_F32 || d == TRN_RAND_NORMAL_F64 || d == TRN_RAND_LOGNORMAL_F32 ||
           d == TRN_RAND_LOGNORMAL_F64;
}

trn_wire_code trn_validate_rand(trn_session *s, const Trnsci__V1__RandGenerateOp *r,
                                trn_rand_desc *out, trn_op_refs *refs, char *err, size_t errlen) {
    if (dist_of(r->distribution, &out->dist) != 0) {
        snprintf(err, errlen, "rand: distribution %d is not known", (int)r->distribution);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (gen_of(r->generator, &out->gen) != 0) {
        snprintf(err, errlen, "rand: generator %d is not known", (int)r->generator);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const int sobol = out->gen != TRN_RAND_PHILOX;
    if (sobol) {
        const trn_wire_code rc = check_sobol(r, out, err, errlen);
        if (rc != TRN_WIRE_OK)
            return rc;
    }
    if (is_normal(out->dist)) {
        if (!sobol && r->count % 2 != 0) {
            snprintf(err, errlen,
                     "rand: a normal or log-normal count must be even (values come in "
                     "Box-Muller pairs), got %llu",
                     (unsigned long long)r->count);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        if (!isfinite(r->mean) || !isfinite(r->stddev) || !(r->stddev > 0.0)) {
            snprintf(err, errlen,
                     "rand: mean must be finite and stddev finite and > 0 (mean %g, stddev %g)",
                     r->mean, r->stddev);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
    }
    if (out->dist == TRN_RAND_POISSON &&
        !(isfinite(r->lambda) && r->lambda > 0.0 && r->lambda <= TRN_RAND_POISSON_LAMBDA_MAX)) {
        snprintf(err, errlen, "rand: Poisson lambda must be finite, > 0 and <= %g (got %g)",
                 TRN_RAND_POISSON_LAMBDA_MAX, r->lambda);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const uint64_t es = trn_rand_element_size(out->dist);
    const uint64_t words = trn_rand_words_per_element(out->dist);
    uint64_t bytes, used, end;
    if (ck_mul(r->count, es, &bytes) || bytes > SIZE_MAX) {
        snprintf(err, errlen, "rand: count %llu is too large", (unsigned long long)r->count);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    /* The generator's offset after the call, offset + words, must be a 64-bit
     * value: so a call uses words up to 2^64 - 2 at most, and never wraps.
     * (Sobol offsets were checked against 2^32 above.) */
    if (!sobol && (ck_mul(r->count, words, &used) || ck_add(r->offset, used, &end))) {
        snprintf(err, errlen,
                 "rand: offset %llu + %llu values of %llu words runs past the end of the "
                 "stream (offset + words must stay below 2^64)",
                 (unsigned long long)r->offset, (unsigned long long)r->count,
                 (unsigned long long)words);
        return TRN_WIRE_OUT_OF_RANGE;
    }
    void *dst = NULL;
    const trn_wire_code rc =
        trn_validate_region(s, r->dst, bytes, es, "rand: dst", refs, &dst, err, errlen);
    if (rc != TRN_WIRE_OK)
        return rc;
    out->seed = r->seed;
    out->offset = r->offset;
    out->mean = r->mean;
    out->stddev = r->stddev;
    out->lambda = out->dist == TRN_RAND_POISSON ? r->lambda : 0.0;
    out->dims = sobol ? r->dimensions : 0;
    out->dst = dst;
    out->n = (size_t)r->count;
    return TRN_WIRE_OK;
}
