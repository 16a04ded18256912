/*
 * rand.c — argument rules of trnrand's RandGenerateOp, as cuRAND
 * states them for its pseudo-random generators (an odd normal count,
 * non-positive stddev, a non-positive Poisson lambda; lambda above
 * TRN_RAND_POISSON_LAMBDA_MAX is this implementation's limit), plus the
 * memory-safety check cuRAND leaves to the caller: the output must lie
 * inside one of the session's buffers. For the Sobol generators, cuRAND's
 * quasi-random rules: 1 <= dimensions (<= TRN_SOBOL_MAX_DIMS here, 20000 in
 * cuRAND), count a multiple of dimensions, no Poisson (this
 * implementation's limit), and points offset .. offset + count/dimensions - 1
 * inside the 2^32 points of Sobol32 (Sobol64: offset + count/dimensions
 * <= 2^64 - 1). RAND_U64 is for the Sobol64 generators only. The trnsci
 * extensions (exponential, gamma, beta, truncated normal, Latin hypercube)
 * are Philox only (exponential also XORWOW, MRG32k3a, MT19937 and MTGP32, whose words it
 * inverts), with
 * their parameters checked as docs/protocol.md
 * states: rate, shape, scale, a, b finite and > 0; truncated normal mean
 * finite, stddev finite and > 0, lower < upper (either may be infinite);
 * Latin hypercube lhs_dimensions >= 1, count a multiple of it, points per
 * dimension <= 2^20 (float) or 2^32 (double). MTGP32: mtgp_states 0 (192), 192
 * or 64 (0 for the other generators), and offset + words <= 2^32
 * (TRN_RAND_MTGP_MAX_WORDS, out of range past it).
 */
#include <math.h>
#include <stdio.h>

#include "ops/validate/checked.h"
#include "ops/validate/validate.h"

static int dist_of(Trnsci__V1__RandDistribution d, trn_rand_dist *out) {
    switch (d) {
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_U32: *out = TRN_RAND_U32; return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_UNIFORM_F32: *out = TRN_RAND_UNIFORM_F32; return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_UNIFORM_F64: *out = TRN_RAND_UNIFORM_F64; return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_NORMAL_F32: *out = TRN_RAND_NORMAL_F32; return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_NORMAL_F64: *out = TRN_RAND_NORMAL_F64; return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_LOGNORMAL_F32: *out = TRN_RAND_LOGNORMAL_F32; return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_LOGNORMAL_F64: *out = TRN_RAND_LOGNORMAL_F64; return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_POISSON: *out = TRN_RAND_POISSON; return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_EXPONENTIAL_F32:
        *out = TRN_RAND_EXPONENTIAL_F32;
        return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_EXPONENTIAL_F64:
        *out = TRN_RAND_EXPONENTIAL_F64;
        return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_GAMMA_F32: *out = TRN_RAND_GAMMA_F32; return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_GAMMA_F64: *out = TRN_RAND_GAMMA_F64; return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_BETA_F32: *out = TRN_RAND_BETA_F32; return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_BETA_F64: *out = TRN_RAND_BETA_F64; return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_TRUNCATED_NORMAL_F32:
        *out = TRN_RAND_TRUNCNORMAL_F32;
        return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_TRUNCATED_NORMAL_F64:
        *out = TRN_RAND_TRUNCNORMAL_F64;
        return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_LATIN_HYPERCUBE_F32: *out = TRN_RAND_LHS_F32; return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_LATIN_HYPERCUBE_F64: *out = TRN_RAND_LHS_F64; return 0;
    case TRNSCI__V1__RAND_DISTRIBUTION__RAND_U64: *out = TRN_RAND_U64; return 0;
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
    case TRNSCI__V1__RAND_GENERATOR__RAND_GENERATOR_SOBOL64: *out = TRN_RAND_SOBOL64; return 0;
    case TRNSCI__V1__RAND_GENERATOR__RAND_GENERATOR_SCRAMBLED_SOBOL64:
        *out = TRN_RAND_SCRAMBLED_SOBOL64;
        return 0;
    case TRNSCI__V1__RAND_GENERATOR__RAND_GENERATOR_XORWOW: *out = TRN_RAND_XORWOW; return 0;
    case TRNSCI__V1__RAND_GENERATOR__RAND_GENERATOR_MRG32K3A: *out = TRN_RAND_MRG32K3A; return 0;
    case TRNSCI__V1__RAND_GENERATOR__RAND_GENERATOR_MT19937: *out = TRN_RAND_MT19937; return 0;
    case TRNSCI__V1__RAND_GENERATOR__RAND_GENERATOR_MTGP32: *out = TRN_RAND_MTGP32; return 0;
    default: return -1;
    }
}

static int is_wide(trn_rand_gen g) {
    return g == TRN_RAND_SOBOL64 || g == TRN_RAND_SCRAMBLED_SOBOL64;
}

/* The distributions of the Philox generator only. */
static int is_philox_only(trn_rand_dist d) {
    return d == TRN_RAND_POISSON || (d >= TRN_RAND_EXPONENTIAL_F32 && d <= TRN_RAND_LHS_F64);
}

/* The Sobol rules (out->dist and out->gen set). */
static trn_wire_code check_sobol(trn_vctx *vx, const Trnsci__V1__RandGenerateOp *r,
                                 const trn_rand_desc *out) {
    if (out->dist == TRN_RAND_POISSON) {
        trn_vmsg(vx, "rand: Poisson values are not available from a Sobol generator");
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (is_philox_only(out->dist)) {
        trn_vmsg(vx, "rand: distribution %d is not available from a Sobol generator (Philox only)",
                 (int)r->distribution);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (out->dist == TRN_RAND_U64 && !is_wide(out->gen)) {
        trn_vmsg(vx, "rand: RAND_U64 needs a Sobol64 generator (Sobol32 makes 32-bit words)");
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (out->dist == TRN_RAND_U32 && is_wide(out->gen)) {
        trn_vmsg(vx, "rand: a Sobol64 generator makes 64-bit words (RAND_U64), not U32");
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (r->dimensions < 1 || r->dimensions > TRN_SOBOL_MAX_DIMS) {
        trn_vmsg(vx, "rand: Sobol dimensions must be 1 .. %d, got %u", TRN_SOBOL_MAX_DIMS,
                 (unsigned)r->dimensions);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (r->count % r->dimensions != 0) {
        trn_vmsg(vx, "rand: a Sobol count must be a multiple of the dimensions (%u), got %llu",
                 (unsigned)r->dimensions, (unsigned long long)r->count);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const uint64_t points = r->count / r->dimensions, period = UINT64_C(1) << 32;
    if (is_wide(out->gen)) {
        if (points > UINT64_MAX - r->offset) {
            trn_vmsg(vx, "rand: Sobol64 offset %llu + %llu points per dimension runs past 2^64 - 1",
                     (unsigned long long)r->offset, (unsigned long long)points);
            return TRN_WIRE_OUT_OF_RANGE;
        }
        return TRN_WIRE_OK;
    }
    if (r->offset > period || points > period - r->offset) {
        trn_vmsg(vx,
                 "rand: Sobol offset %llu + %llu points per dimension runs past the 2^32 "
                 "points of Sobol32",
                 (unsigned long long)r->offset, (unsigned long long)points);
        return TRN_WIRE_OUT_OF_RANGE;
    }
    return TRN_WIRE_OK;
}

static int pos_finite(double x) {
    return isfinite(x) && x > 0.0;
}

/* The extensions' parameters (Philox only). */
static trn_wire_code check_ext(trn_vctx *vx, const Trnsci__V1__RandGenerateOp *r, trn_rand_dist d) {
    switch (d) {
    case TRN_RAND_EXPONENTIAL_F32:
    case TRN_RAND_EXPONENTIAL_F64:
        if (!pos_finite(r->lambda)) {
            trn_vmsg(vx, "rand: exponential lambda must be finite and > 0 (got %g)", r->lambda);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        return TRN_WIRE_OK;
    case TRN_RAND_GAMMA_F32:
    case TRN_RAND_GAMMA_F64:
        if (!pos_finite(r->shape)) {
            trn_vmsg(vx, "rand: gamma shape must be finite and > 0 (got %g)", r->shape);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        if (!pos_finite(r->scale)) {
            trn_vmsg(vx, "rand: gamma scale must be finite and > 0 (got %g)", r->scale);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        return TRN_WIRE_OK;
    case TRN_RAND_BETA_F32:
    case TRN_RAND_BETA_F64:
        if (!pos_finite(r->beta_a)) {
            trn_vmsg(vx, "rand: beta a must be finite and > 0 (got %g)", r->beta_a);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        if (!pos_finite(r->beta_b)) {
            trn_vmsg(vx, "rand: beta b must be finite and > 0 (got %g)", r->beta_b);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        return TRN_WIRE_OK;
    case TRN_RAND_TRUNCNORMAL_F32:
    case TRN_RAND_TRUNCNORMAL_F64:
        if (!isfinite(r->mean) || !pos_finite(r->stddev)) {
            trn_vmsg(vx,
                     "rand: truncated normal mean must be finite and stddev finite and > 0 "
                     "(mean %g, stddev %g)",
                     r->mean, r->stddev);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        if (!(r->lower < r->upper)) {
            trn_vmsg(vx, "rand: truncated normal lower must be < upper (lower %g, upper %g)",
                     r->lower, r->upper);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        return TRN_WIRE_OK;
    case TRN_RAND_LHS_F32:
    case TRN_RAND_LHS_F64: {
        const uint64_t maxp =
            d == TRN_RAND_LHS_F32 ? TRN_RAND_LHS_MAX_POINTS_F32 : TRN_RAND_LHS_MAX_POINTS_F64;
        if (r->lhs_dimensions < 1) {
            trn_vmsg(vx, "rand: Latin hypercube lhs_dimensions must be >= 1, got 0");
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        if (r->count % r->lhs_dimensions != 0) {
            trn_vmsg(vx,
                     "rand: a Latin hypercube count must be a multiple of lhs_dimensions (%u), "
                     "got %llu",
                     (unsigned)r->lhs_dimensions, (unsigned long long)r->count);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        if (r->count / r->lhs_dimensions > maxp) {
            trn_vmsg(vx,
                     "rand: a Latin hypercube of %llu points per dimension exceeds the %llu "
                     "points of its type",
                     (unsigned long long)(r->count / r->lhs_dimensions), (unsigned long long)maxp);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        return TRN_WIRE_OK;
    }
    default: return TRN_WIRE_OK;
    }
}

static int is_normal(trn_rand_dist d) {
    return d == TRN_RAND_NORMAL_F32 || d == TRN_RAND_NORMAL_F64 || d == TRN_RAND_LOGNORMAL_F32 ||
           d == TRN_RAND_LOGNORMAL_F64;
}

static trn_wire_code validate_rand(trn_vctx *vx, const Trnsci__V1__RandGenerateOp *r,
                                   trn_rand_desc *out) {
    if (dist_of(r->distribution, &out->dist) != 0) {
        trn_vmsg(vx, "rand: distribution %d is not known", (int)r->distribution);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (gen_of(r->generator, &out->gen) != 0) {
        trn_vmsg(vx, "rand: generator %d is not known", (int)r->generator);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const int mtgp = out->gen == TRN_RAND_MTGP32;
    if (mtgp ? (r->mtgp_states != 0 && r->mtgp_states != TRN_RAND_MTGP_STATES_DEFAULT &&
                r->mtgp_states != TRN_RAND_MTGP_STATES_LEGACY)
             : r->mtgp_states != 0) {
        trn_vmsg(vx,
                 "rand: mtgp_states must be 0, 192 or 64 for MTGP32 and 0 for other generators, "
                 "got %u",
                 (unsigned)r->mtgp_states);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const int sobol = trn_rand_gen_is_quasi(out->gen);
    if (sobol) {
        const trn_wire_code rc = check_sobol(vx, r, out);
        if (rc != TRN_WIRE_OK)
            return rc;
    } else {
        if (out->dist == TRN_RAND_U64) {
            trn_vmsg(vx, "rand: RAND_U64 needs a Sobol64 generator (pseudo-random generators make "
                         "32-bit words)");
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        /* Gamma, beta, truncated normal and the Latin hypercube read Philox
         * sub-streams (or keyed Philox blocks): Philox only. */
        if (out->gen != TRN_RAND_PHILOX && out->dist >= TRN_RAND_GAMMA_F32 &&
            out->dist <= TRN_RAND_LHS_F64) {
            trn_vmsg(vx, "rand: distribution %d is not available from this generator (Philox only)",
                     (int)r->distribution);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        const trn_wire_code rc = check_ext(vx, r, out->dist);
        if (rc != TRN_WIRE_OK)
            return rc;
    }
    if (is_normal(out->dist)) {
        if (!sobol && r->count % 2 != 0) {
            trn_vmsg(vx,
                     "rand: a normal or log-normal count must be even (values come in "
                     "Box-Muller pairs), got %llu",
                     (unsigned long long)r->count);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        if (!isfinite(r->mean) || !isfinite(r->stddev) || !(r->stddev > 0.0)) {
            trn_vmsg(vx, "rand: mean must be finite and stddev finite and > 0 (mean %g, stddev %g)",
                     r->mean, r->stddev);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
    }
    if (out->dist == TRN_RAND_POISSON &&
        !(isfinite(r->lambda) && r->lambda > 0.0 && r->lambda <= TRN_RAND_POISSON_LAMBDA_MAX)) {
        trn_vmsg(vx, "rand: Poisson lambda must be finite, > 0 and <= %g (got %g)",
                 TRN_RAND_POISSON_LAMBDA_MAX, r->lambda);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const uint64_t es = trn_rand_element_size(out->dist);
    const uint64_t words = trn_rand_words_per_element(out->dist);
    uint64_t bytes, used = 0, end = 0;
    if (ck_mul(r->count, es, &bytes) || bytes > SIZE_MAX) {
        trn_vmsg(vx, "rand: count %llu is too large", (unsigned long long)r->count);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    /* The generator's offset after the call, offset + words, must be a 64-bit
     * value: so a call uses words up to 2^64 - 2 at most, and never wraps.
     * (Sobol offsets were checked against 2^32 above.) */
    const int lhs = out->dist == TRN_RAND_LHS_F32 || out->dist == TRN_RAND_LHS_F64;
    if (!sobol &&
        (ck_mul(r->count, words, &used) ||
         (lhs && ck_add(used, (uint64_t)TRN_RAND_LHS_ROUNDS * r->lhs_dimensions, &used)) ||
         ck_add(r->offset, used, &end))) {
        trn_vmsg(vx,
                 "rand: offset %llu + %llu values of %llu words%s runs past the end of the "
                 "stream (offset + words must stay below 2^64)",
                 (unsigned long long)r->offset, (unsigned long long)r->count,
                 (unsigned long long)words, lhs ? " (+ 6 per dimension)" : "");
        return TRN_WIRE_OUT_OF_RANGE;
    }
    if (mtgp && end > TRN_RAND_MTGP_MAX_WORDS) {
        trn_vmsg(vx,
                 "rand: MTGP32 offset %llu + %llu values of %llu words runs past word 2^32 "
                 "(MTGP32 reaches its offset by stepping)",
                 (unsigned long long)r->offset, (unsigned long long)r->count,
                 (unsigned long long)words);
        return TRN_WIRE_OUT_OF_RANGE;
    }
    void *dst = NULL;
    const trn_wire_code rc = trn_vregion(vx, r->dst, bytes, es, "rand: dst", &dst);
    if (rc != TRN_WIRE_OK)
        return rc;
    out->seed = r->seed;
    out->offset = r->offset;
    out->mean = r->mean;
    out->stddev = r->stddev;
    const int has_lambda = out->dist == TRN_RAND_POISSON || out->dist == TRN_RAND_EXPONENTIAL_F32 ||
                           out->dist == TRN_RAND_EXPONENTIAL_F64;
    out->lambda = has_lambda ? r->lambda : 0.0;
    out->shape = r->shape;
    out->scale = r->scale;
    out->beta_a = r->beta_a;
    out->beta_b = r->beta_b;
    out->lower = r->lower;
    out->upper = r->upper;
    out->lhs_dims = lhs ? r->lhs_dimensions : 0;
    out->dims = sobol ? r->dimensions : 0;
    out->mtgp_states =
        !mtgp ? 0 : (r->mtgp_states ? r->mtgp_states : (uint32_t)TRN_RAND_MTGP_STATES_DEFAULT);
    out->dst = dst;
    out->n = (size_t)r->count;
    return TRN_WIRE_OK;
}

/* The table's entries (validate.h). */
TRN_VALIDATE_ENTRY(rand, validate_rand(vx, op->rand_generate, &out->u.rand))
