/*
 * sobol.c — trnrand's Sobol32 and scrambled Sobol32 quasi-random generators
 * on the CPU backend (docs/numerics.md, "Sobol32", is the normative
 * definition; this file implements it).
 *
 * Points. Point k (0 <= k < 2^32) of dimension j is
 *     P(j, k) = XOR of v[j][b] over the set bits b of g = k ^ (k >> 1)
 * (Gray-code order, as cuRAND and scipy.stats.qmc.Sobol number the points),
 * v the Joe-Kuo direction numbers of sobol_tables.c. Scrambled Sobol32
 * gives P(j, k) ^ c_j, c_j = raw word j of the Philox4x32-10 stream of seed
 * TRN_SOBOL_SCRAMBLE_SEED (rand.c's stream: element j mod 4 of
 * philox4x32_10(counter {j/4, 0, 0, 0}, key {lo32(seed), hi32(seed)})).
 *
 * Layout. With d dimensions and p = n/d points per dimension, element i of
 * the output is point offset + i % p of dimension i / p (cuRAND's layout:
 * dimension 0's p points, then dimension 1's, ...).
 *
 * Distributions of a Sobol word x:
 *   U32           x
 *   UNIFORM_F32   (float)x * 2^-32 + 2^-33 in float arithmetic, in
 *                 [2^-33, 1] (cuRAND's _curand_uniform, as for Philox)
 *   UNIFORM_F64   (double)x * 2^-32 + 2^-33 = (x + 1/2) 2^-32 exactly, in
 *                 [2^-33, 1 - 2^-33] (cuRAND's _curand_uniform_double of a
 *                 32-bit word)
 *   NORMAL_*      mean + stddev * trn_sobol_normal(x) in double, rounded
 *                 once to the output type, where trn_sobol_normal(x) =
 *                 -Phi^-1((x + 1/2) 2^-32), cuRAND's sign convention
 *                 (_curand_normal_icdf_double: sqrt 2 erfcinv(2p), mirrored)
 *   LOGNORMAL_*   exp of that, in double, rounded once
 *
 * Sobol64 and scrambled Sobol64 (64-bit points, 64-bit direction numbers
 * and constants, point k < 2^64) convert a word x as cuRAND's Sobol64 does:
 *   U64           x
 *   UNIFORM_F32   u32f(x >> 32) (cuRAND's _curand_uniform(unsigned long long))
 *   UNIFORM_F64   (double)(x >> 11) * 2^-53 + 2^-54, in [2^-54, 1] (cuRAND's
 *                 _curand_uniform_double(unsigned long long))
 *   (LOG)NORMAL_* as above with trn_sobol64_normal(x) = -Phi^-1((t + 1/2)
 *                 2^-53), t = x >> 11
 *
 * Sharding. trn_cpu_shard_range over the n elements. A shard walks each
 * dimension's run of its range: the first point directly (P above), the
 * next ones by P(j, k + 1) = P(j, k) ^ v[j][ctz(k + 1)] (the Gray codes of
 * k and k + 1 differ in bit ctz(k + 1) only), which is the same value, so
 * the bits do not depend on the split into shards or calls.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include <Random123/philox.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/sobol.h"

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "sobol.c needs FLT_EVAL_METHOD == 0 (float and double evaluated in their own type)"
#endif

uint32_t trn_sobol_point(unsigned dim, uint64_t k) {
    const uint32_t *v = trn_sobol_directions32()[dim];
    uint32_t g = (uint32_t)(k ^ (k >> 1)), x = 0;
    for (unsigned b = 0; g != 0; b++, g >>= 1)
        if (g & 1u)
            x ^= v[b];
    return x;
}

uint32_t trn_sobol_scramble_constant(unsigned dim) {
    const philox4x32_key_t key = {
        {(uint32_t)TRN_SOBOL_SCRAMBLE_SEED, (uint32_t)(TRN_SOBOL_SCRAMBLE_SEED >> 32)}};
    const philox4x32_ctr_t ctr = {{dim / 4u, 0, 0, 0}};
    return philox4x32_R(10, ctr, key).v[dim % 4u];
}

uint64_t trn_sobol64_point(unsigned dim, uint64_t k) {
    const uint64_t *v = trn_sobol_directions64()[dim];
    uint64_t g = k ^ (k >> 1), x = 0;
    for (unsigned b = 0; g != 0; b++, g >>= 1)
        if (g & 1u)
            x ^= v[b];
    return x;
}

uint64_t trn_sobol64_scramble_constant(unsigned dim) {
    const philox4x32_key_t key = {
        {(uint32_t)TRN_SOBOL64_SCRAMBLE_SEED, (uint32_t)(TRN_SOBOL64_SCRAMBLE_SEED >> 32)}};
    /* words 2 dim, 2 dim + 1: one block holds two dimensions' constants */
    const philox4x32_ctr_t ctr = {{dim / 2u, 0, 0, 0}};
    const philox4x32_ctr_t r = philox4x32_R(10, ctr, key);
    const unsigned l = 2u * (dim % 2u);
    return (uint64_t)r.v[l] | ((uint64_t)r.v[l + 1] << 32);
}

/* ---- the inverse normal CDF ------------------------------------------------
 *
 * P. J. Acklam's rational approximation (relative error below 1.15e-9),
 * lower tail (p < 0.02425) and central region, followed by one Halley step
 * on e(z) = Phi(z) - p with Phi(z) = erfc(-z / sqrt 2) / 2 from the C
 * library, which brings the error to a few ulp of the double result
 * (tests/unit/test_rand.c checks against scipy.special.ndtri). */

static const double ICDF_A[6] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                 -2.759285104469687e+02, 1.383577518672690e+02,
                                 -3.066479806614716e+01, 2.506628277459239e+00};
static const double ICDF_B[5] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                 -1.556989798598866e+02, 6.680131188771972e+01,
                                 -1.328068155288572e+01};
static const double ICDF_C[6] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                 -2.400758277161838e+00, -2.549732539343734e+00,
                                 4.374664141464968e+00,  2.938163982698783e+00};
static const double ICDF_D[4] = {7.784695709041462e-03, 3.224671290700398e-01,
                                 2.445134137142996e+00, 3.754408661907416e+00};

/* sqrt(2 pi) and 1/sqrt(2), rounded to double. */
#define SOBOL_SQRT_2PI 2.5066282746310002416
#define SOBOL_SQRT1_2 0.70710678118654752440

double trn_sobol_normal_icdf_lower(double p) {
    double z, e;
    if (p < 0.02425) {
        const double q = sqrt(-2.0 * log(p));
        z = (((((ICDF_C[0] * q + ICDF_C[1]) * q + ICDF_C[2]) * q + ICDF_C[3]) * q + ICDF_C[4]) * q +
             ICDF_C[5]) /
            ((((ICDF_D[0] * q + ICDF_D[1]) * q + ICDF_D[2]) * q + ICDF_D[3]) * q + 1.0);
        e = 0.5 * erfc(-z * SOBOL_SQRT1_2) - p;
    } else {
        /* q is exact for p >= 0.25 (Sterbenz) and for every p of a Sobol
         * word (a multiple of 2^-33); Phi(z) - 1/2 = erf(z / sqrt 2) / 2 keeps
         * the residual's relative accuracy near the centre, where
         * Phi(z) - p would cancel. */
        const double q = p - 0.5, r = q * q;
        z = (((((ICDF_A[0] * r + ICDF_A[1]) * r + ICDF_A[2]) * r + ICDF_A[3]) * r + ICDF_A[4]) * r +
             ICDF_A[5]) *
            q /
            (((((ICDF_B[0] * r + ICDF_B[1]) * r + ICDF_B[2]) * r + ICDF_B[3]) * r + ICDF_B[4]) * r +
             1.0);
        e = 0.5 * erf(z * SOBOL_SQRT1_2) - q;
    }
    const double u = e * SOBOL_SQRT_2PI * exp(0.5 * z * z);
    return z - u / (1.0 + 0.5 * z * u);
}

double trn_sobol_normal(uint32_t x) {
    if (x >= UINT32_C(0x80000000))
        return trn_sobol_normal_icdf_lower((double)(UINT32_MAX - x) * 0x1p-32 + 0x1p-33);
    return -trn_sobol_normal_icdf_lower((double)x * 0x1p-32 + 0x1p-33);
}

double trn_sobol64_normal(uint64_t x) {
    const uint64_t t = x >> 11;
    /* (t + 1/2) 2^-53 is exact for t < 2^52. */
    if (t >= (UINT64_C(1) << 52))
        return trn_sobol_normal_icdf_lower(((double)((UINT64_C(1) << 53) - 1 - t) + 0.5) * 0x1p-53);
    return -trn_sobol_normal_icdf_lower(((double)t + 0.5) * 0x1p-53);
}

/* ---- the kernel -------------------------------------------------------------- */

/* Stores the value of Sobol64 word x as element i of d's output. */
static void sobol64_store(const trn_rand_desc *d, size_t i, uint64_t x) {
    switch (d->dist) {
    case TRN_RAND_U64: ((uint64_t *)d->dst)[i] = x; break;
    case TRN_RAND_UNIFORM_F32:
        ((float *)d->dst)[i] = (float)(uint32_t)(x >> 32) * 0x1p-32f + 0x1p-33f;
        break;
    case TRN_RAND_UNIFORM_F64: ((double *)d->dst)[i] = (double)(x >> 11) * 0x1p-53 + 0x1p-54; break;
    case TRN_RAND_NORMAL_F32:
        ((float *)d->dst)[i] = (float)(d->mean + d->stddev * trn_sobol64_normal(x));
        break;
    case TRN_RAND_NORMAL_F64:
        ((double *)d->dst)[i] = d->mean + d->stddev * trn_sobol64_normal(x);
        break;
    case TRN_RAND_LOGNORMAL_F32:
        ((float *)d->dst)[i] = (float)exp(d->mean + d->stddev * trn_sobol64_normal(x));
        break;
    case TRN_RAND_LOGNORMAL_F64:
        ((double *)d->dst)[i] = exp(d->mean + d->stddev * trn_sobol64_normal(x));
        break;
    default: break; /* refused by sobol_dist_ok */
    }
}

/* The distributions a Sobol generator of width 32 or 64 makes. */
static int sobol_dist_ok(trn_rand_dist dist, int wide) {
    switch (dist) {
    case TRN_RAND_U32: return !wide;
    case TRN_RAND_U64: return wide;
    case TRN_RAND_UNIFORM_F32:
    case TRN_RAND_UNIFORM_F64:
    case TRN_RAND_NORMAL_F32:
    case TRN_RAND_NORMAL_F64:
    case TRN_RAND_LOGNORMAL_F32:
    case TRN_RAND_LOGNORMAL_F64: return 1;
    default: return 0;
    }
}

/* Stores the value of word x as element i of d's output. */
static void sobol_store(const trn_rand_desc *d, size_t i, uint32_t x) {
    switch (d->dist) {
    case TRN_RAND_U32: ((uint32_t *)d->dst)[i] = x; break;
    case TRN_RAND_UNIFORM_F32: ((float *)d->dst)[i] = (float)x * 0x1p-32f + 0x1p-33f; break;
    case TRN_RAND_UNIFORM_F64: ((double *)d->dst)[i] = (double)x * 0x1p-32 + 0x1p-33; break;
    case TRN_RAND_NORMAL_F32:
        ((float *)d->dst)[i] = (float)(d->mean + d->stddev * trn_sobol_normal(x));
        break;
    case TRN_RAND_NORMAL_F64:
        ((double *)d->dst)[i] = d->mean + d->stddev * trn_sobol_normal(x);
        break;
    case TRN_RAND_LOGNORMAL_F32:
        ((float *)d->dst)[i] = (float)exp(d->mean + d->stddev * trn_sobol_normal(x));
        break;
    case TRN_RAND_LOGNORMAL_F64:
        ((double *)d->dst)[i] = exp(d->mean + d->stddev * trn_sobol_normal(x));
        break;
    default: break; /* refused by sobol_dist_ok */
    }
}

/* Number of trailing zero bits of k (k != 0). */
static unsigned sobol_ctz(uint64_t k) {
    return (unsigned)__builtin_ctzll(k);
}

trn_kstatus trn_cpu_sobol(const trn_rand_desc *d, int shard, int nshards) {
    const int wide = d->gen == TRN_RAND_SOBOL64 || d->gen == TRN_RAND_SCRAMBLED_SOBOL64;
    if (!wide && d->gen != TRN_RAND_SOBOL32 && d->gen != TRN_RAND_SCRAMBLED_SOBOL32)
        return TRN_KSTATUS_UNSUPPORTED;
    if (!sobol_dist_ok(d->dist, wide))
        return TRN_KSTATUS_UNSUPPORTED;
    size_t lo, hi;
    trn_cpu_shard_range(d->n, shard, nshards, &lo, &hi);
    if (lo >= hi)
        return TRN_KSTATUS_OK;
    /* The daemon checks these; a kernel called outside them refuses rather
     * than index out of range. */
    if (d->dims == 0 || d->dims > TRN_SOBOL_MAX_DIMS || d->n % d->dims != 0)
        return TRN_KSTATUS_FAILED;
    const size_t per = d->n / d->dims;
    const uint32_t(*dir32)[32] = trn_sobol_directions32();
    const uint64_t(*dir64)[64] = trn_sobol_directions64();
    if (!dir32 || !dir64)
        return TRN_KSTATUS_FAILED;
    if (wide) {
        if ((uint64_t)per > UINT64_MAX - d->offset)
            return TRN_KSTATUS_FAILED;
        const int scrambled = d->gen == TRN_RAND_SCRAMBLED_SOBOL64;
        for (size_t i = lo; i < hi;) {
            const unsigned j = (unsigned)(i / per);
            const size_t end = (size_t)(j + 1) * per < hi ? (size_t)(j + 1) * per : hi;
            const uint64_t *v = dir64[j];
            uint64_t k = d->offset + (uint64_t)(i - (size_t)j * per);
            uint64_t x =
                trn_sobol64_point(j, k) ^ (scrambled ? trn_sobol64_scramble_constant(j) : 0u);
            sobol64_store(d, i++, x);
            for (; i < end; i++) {
                k++;
                x ^= v[sobol_ctz(k)];
                sobol64_store(d, i, x);
            }
        }
        return TRN_KSTATUS_OK;
    }
    if (d->offset > (UINT64_C(1) << 32) || (uint64_t)per > (UINT64_C(1) << 32) - d->offset)
        return TRN_KSTATUS_FAILED;
    const int scrambled = d->gen == TRN_RAND_SCRAMBLED_SOBOL32;
    for (size_t i = lo; i < hi;) {
        const unsigned j = (unsigned)(i / per);
        const size_t end = (size_t)(j + 1) * per < hi ? (size_t)(j + 1) * per : hi;
        const uint32_t *v = dir32[j];
        uint64_t k = d->offset + (uint64_t)(i - (size_t)j * per);
        uint32_t x = trn_sobol_point(j, k) ^ (scrambled ? trn_sobol_scramble_constant(j) : 0u);
        sobol_store(d, i++, x);
        /* The same values as sobol_store, with the distribution's switch
         * out of the loop for the cheap kinds. */
        if (d->dist == TRN_RAND_U32) {
            uint32_t *o = (uint32_t *)d->dst;
            for (; i < end; i++) {
                k++;
                x ^= v[sobol_ctz(k)];
                o[i] = x;
            }
        } else if (d->dist == TRN_RAND_UNIFORM_F32) {
            float *o = (float *)d->dst;
            for (; i < end; i++) {
                k++;
                x ^= v[sobol_ctz(k)];
                o[i] = (float)x * 0x1p-32f + 0x1p-33f;
            }
        }
        for (; i < end; i++) {
            k++;
            x ^= v[sobol_ctz(k)];
            sobol_store(d, i, x);
        }
    }
    return TRN_KSTATUS_OK;
}
