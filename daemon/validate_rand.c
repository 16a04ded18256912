/*
 * validate_rand.c — argument rules of trnrand's RandGenerateOp, as cuRAND
 * states them for its pseudo-random generators (an odd normal count,
 * non-positive stddev, a non-positive Poisson lambda; lambda above
 * TRN_RAND_POISSON_LAMBDA_MAX is this implementation's limit), plus the
 * memory-safety check cuRAND leaves to the caller: the output must lie
 * inside one of the session's buffers.
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
    if (is_normal(out->dist)) {
        if (r->count % 2 != 0) {
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
     * value: so a call uses words up to 2^64 - 2 at most, and never wraps. */
    if (ck_mul(r->count, words, &used) || ck_add(r->offset, used, &end)) {
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
    out->dst = dst;
    out->n = (size_t)r->count;
    return TRN_WIRE_OK;
}
