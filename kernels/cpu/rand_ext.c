/*
 * rand_ext.c — trnrand's extension distributions on the CPU backend: gamma
 * (Marsaglia-Tsang), beta (two gammas), truncated normal (inversion, tail
 * rejection) and the Latin hypercube (docs/numerics.md, "Extensions", is
 * the normative definition; this file implements it). Exponential lives in
 * rand.c, beside the uniforms it inverts.
 *
 * Sub-streams. A rejection sampler cannot map element i to a fixed number of
 * stream words, so element i of an op at offset o has the element id
 * j = o + i (mod 2^64) and reads only its own blocks
 *     B(j, a, tag) = philox4x32_10(counter {lo32(j), hi32(j), a, tag},
 *                                  key {lo32(seed), hi32(seed)})
 * for attempts a = 0, 1, ... and a tag per use (rand_ext.h). The stream of
 * rand.c always has counter word 3 = 0 and these have tag >= 1, so no
 * sub-stream block is a stream block, and distinct element ids have disjoint
 * sub-streams. The op advances the generator's offset by n (one word per
 * element, reserved, never read), so consecutive calls use new element ids.
 * Each attempt takes its block's words 0, 1 as a 53-bit integer
 * z = w0 ^ (w1 << 21) and words 2, 3 as u64f(w2, w3) in (0, 1]. After
 * TRN_RAND_MAX_ATTEMPTS rejections an element takes a documented fallback
 * value (probability below 10^-80 for gamma, 10^-200 for the normal tail).
 *
 * The Latin hypercube reads the stream itself: dimension j's six Feistel
 * round keys are words o + 6j .. o + 6j + 5 and element i's jitter words
 * o + 6 d + 2i, o + 6 d + 2i + 1.
 *
 * Floating point as in rand.c: double arithmetic, FLT_EVAL_METHOD == 0, no
 * contraction; log, exp, log1p, expm1, erf and erfc come from the C library,
 * so results are reproducible for a given libm.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include <Random123/philox.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/rand_ext.h"
#include "kernels/cpu/sobol.h"

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "rand_ext.c needs FLT_EVAL_METHOD == 0 (float and double evaluated in their own type)"
#endif

/* 1/sqrt(2), rounded to double. */
#define EXT_SQRT1_2 0.70710678118654752440

static philox4x32_key_t ext_key(uint64_t seed) {
    philox4x32_key_t k = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
    return k;
}

static philox4x32_ctr_t ext_block(philox4x32_key_t key, uint64_t j, uint32_t a, uint32_t tag) {
    philox4x32_ctr_t c = {{(uint32_t)j, (uint32_t)(j >> 32), a, tag}};
    return philox4x32_R(10, c, key);
}

/* Raw word w of the main stream (rand.c's definition). */
static uint32_t ext_word(philox4x32_key_t key, uint64_t w) {
    philox4x32_ctr_t c = {{(uint32_t)(w >> 2), (uint32_t)(w >> 34), 0, 0}};
    return philox4x32_R(10, c, key).v[w & 3u];
}

static uint64_t ext_z53(uint32_t lo, uint32_t hi) {
    return (uint64_t)lo ^ ((uint64_t)hi << 21);
}

/* rand.c's u64f: (0, 1]. */
static double ext_u64f(uint32_t lo, uint32_t hi) {
    return (double)ext_z53(lo, hi) * 0x1p-53 + 0x1p-54;
}

double trn_rand_n53(uint64_t z) {
    /* (z + 1/2) 2^-53 is exact for z < 2^52 (53 significant bits). */
    if (z < (UINT64_C(1) << 52))
        return trn_sobol_normal_icdf_lower(((double)z + 0.5) * 0x1p-53);
    const uint64_t c = (UINT64_C(1) << 53) - 1 - z;
    return -trn_sobol_normal_icdf_lower(((double)c + 0.5) * 0x1p-53);
}

/* ---- gamma ---------------------------------------------------------------- */

void trn_rand_gamma_parts(uint64_t seed, uint64_t j, uint32_t tag, double shape, double *dv,
                          double *boost, double *log_u) {
    const philox4x32_key_t key = ext_key(seed);
    const double k = shape < 1.0 ? shape + 1.0 : shape;
    const double d = k - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
    double g = d; /* the fallback: v = 1 */
    for (uint32_t a = 0; a < TRN_RAND_MAX_ATTEMPTS; a++) {
        const philox4x32_ctr_t r = ext_block(key, j, a, tag);
        const double x = trn_rand_n53(ext_z53(r.v[0], r.v[1]));
        const double u = ext_u64f(r.v[2], r.v[3]);
        const double t = 1.0 + c * x;
        if (t <= 0.0)
            continue;
        const double v = t * t * t;
        if (log(u) < 0.5 * x * x + d - d * v + d * log(v)) {
            g = d * v;
            break;
        }
    }
    *dv = g;
    *boost = 0.0;
    *log_u = 0.0;
    if (shape < 1.0) {
        const philox4x32_ctr_t r = ext_block(key, j, TRN_RAND_BOOST_ATTEMPT, tag);
        *log_u = log(ext_u64f(r.v[0], r.v[1]));
        *boost = *log_u / shape;
    }
}

static double ext_gamma(const trn_rand_desc *d, uint64_t j) {
    double dv, boost, lu;
    trn_rand_gamma_parts(d->seed, j, TRN_RAND_TAG_GAMMA, d->shape, &dv, &boost, &lu);
    return boost == 0.0 ? dv * d->scale : dv * exp(boost) * d->scale;
}

static double ext_beta(const trn_rand_desc *d, uint64_t j) {
    double dva, ba, lua, dvb, bb, lub;
    trn_rand_gamma_parts(d->seed, j, TRN_RAND_TAG_BETA_A, d->beta_a, &dva, &ba, &lua);
    trn_rand_gamma_parts(d->seed, j, TRN_RAND_TAG_BETA_B, d->beta_b, &dvb, &bb, &lub);
    const double la = log(dva) + ba, lb = log(dvb) + bb;
    if (la == -INFINITY && lb == -INFINITY) {
        /* Both boosts log(u)/shape overflowed (shapes below ~2e-307): the
         * sign of la - lb is that of log(ua) b - log(ub) a. */
        const double sa = lua * d->beta_b, sb = lub * d->beta_a;
        return sa > sb ? 1.0 : sa < sb ? 0.0 : 0.5;
    }
    /* X = Ga / (Ga + Gb) from the logs, never 0/0 or inf/inf. */
    if (la >= lb)
        return 1.0 / (1.0 + exp(lb - la));
    const double e = exp(la - lb);
    return e / (1.0 + e);
}

/* ---- truncated normal ------------------------------------------------------- */

/* The standard normal quantile for 0 < p < 1 on the lower tail: p <= 1/2
 * only (callers mirror). p <= 0 gives -inf. */
static double ext_icdf_lower(double p) {
    if (!(p > 0.0))
        return -INFINITY;
    return trn_sobol_normal_icdf_lower(p);
}

double trn_rand_truncnormal_std(uint64_t seed, uint64_t j, double alpha, double beta) {
    const philox4x32_key_t key = ext_key(seed);
    /* Mirror so that the interval's centre is at or below 0: alpha < 0 and
     * |alpha| >= |beta|. (-inf, +inf) is not mirrored (alpha > -beta is
     * false). */
    const int flip = alpha > -beta;
    double a = flip ? -beta : alpha, b = flip ? -alpha : beta;
    double x;
    if (b < -TRN_RAND_TRUNCNORMAL_TAIL) {
        /* Tail rejection on [lo, hi] = [-b, -a], lo > 30: the proposal
         * density lo..hi proportional to y exp(-y^2/2), by inversion of u0 in
         * [0, 1); accepted with probability lo/y. */
        const double lo = -b, hi = -a;
        const double m1e = -expm1(-0.5 * (hi - lo) * (hi + lo)); /* 1 - e^{-(hi^2 - lo^2)/2} */
        double y = lo;                                           /* the fallback */
        for (uint32_t t = 0; t < TRN_RAND_MAX_ATTEMPTS; t++) {
            const philox4x32_ctr_t r = ext_block(key, j, t, TRN_RAND_TAG_TRUNCNORMAL);
            const double u0 = (double)ext_z53(r.v[0], r.v[1]) * 0x1p-53;
            const double u2 = ext_u64f(r.v[2], r.v[3]);
            const double cand = sqrt(lo * lo - 2.0 * log1p(-u0 * m1e));
            if (u2 * cand <= lo) {
                y = cand;
                break;
            }
        }
        x = -y;
    } else {
        /* Inversion of block 0's z between Phi(a) and Phi(b). */
        const philox4x32_ctr_t r = ext_block(key, j, 0, TRN_RAND_TAG_TRUNCNORMAL);
        const uint64_t z = ext_z53(r.v[0], r.v[1]);
        const double u = (double)z * 0x1p-53 + 0x1p-54;
        const double v = (double)((UINT64_C(1) << 53) - 1 - z) * 0x1p-53 + 0x1p-54;
        const double pa = 0.5 * erfc(-a * EXT_SQRT1_2); /* Phi(a) */
        const double pbc = 0.5 * erfc(b * EXT_SQRT1_2); /* 1 - Phi(b) */
        const double w = b <= 0.0 ? 0.5 * erfc(-b * EXT_SQRT1_2) - pa
                                  : 0.5 * (erf(b * EXT_SQRT1_2) - erf(a * EXT_SQRT1_2));
        const double p = pa + u * w;
        if (p <= 0.5)
            x = ext_icdf_lower(p);
        else
            x = -ext_icdf_lower(pbc + v * w);
    }
    if (!(x >= a)) /* rounding, or NaN */
        x = a;
    if (!(x <= b))
        x = b;
    return flip ? -x : x;
}

static double ext_truncnormal(const trn_rand_desc *d, uint64_t j) {
    const double alpha = (d->lower - d->mean) / d->stddev;
    const double beta = (d->upper - d->mean) / d->stddev;
    double v = d->mean + d->stddev * trn_rand_truncnormal_std(d->seed, j, alpha, beta);
    if (!(v >= d->lower))
        v = d->lower;
    if (!(v <= d->upper))
        v = d->upper;
    return v;
}

/* ---- Latin hypercube --------------------------------------------------------- */

/* ceil(log2 n) for n >= 1. */
static unsigned ext_log2_ceil(uint64_t n) {
    unsigned m = 0;
    while (m < 64 && (UINT64_C(1) << m) < n)
        m++;
    return m;
}

typedef struct ext_lhs {
    philox4x32_key_t key;
    uint64_t points; /* n / lhs_dims */
    unsigned m, h;   /* ceil(log2 points); Feistel half width max(1, ceil(m/2)) */
    uint32_t keys[TRN_RAND_LHS_ROUNDS];
} ext_lhs;

static void ext_lhs_init(const trn_rand_desc *d, ext_lhs *l) {
    l->key = ext_key(d->seed);
    l->points = d->n / d->lhs_dims;
    l->m = ext_log2_ceil(l->points);
    l->h = l->m < 2 ? 1 : (l->m + 1) / 2;
}

static void ext_lhs_keys(const trn_rand_desc *d, ext_lhs *l, uint64_t dim) {
    for (unsigned r = 0; r < TRN_RAND_LHS_ROUNDS; r++)
        l->keys[r] = ext_word(l->key, d->offset + TRN_RAND_LHS_ROUNDS * dim + r);
}

/* The Feistel permutation of [0, 2^(2h)). */
static uint64_t ext_feistel(const ext_lhs *l, uint64_t x) {
    const uint64_t mask = (UINT64_C(1) << l->h) - 1;
    uint64_t L = x >> l->h, R = x & mask;
    for (unsigned r = 0; r < TRN_RAND_LHS_ROUNDS; r++) {
        const philox4x32_ctr_t c = {{(uint32_t)R, l->keys[r], r, TRN_RAND_TAG_LHS}};
        const uint64_t f = philox4x32_R(10, c, l->key).v[0] & mask;
        const uint64_t t = L ^ f;
        L = R;
        R = t;
    }
    return (L << l->h) | R;
}

/* pi_j(k): cycle-walk the Feistel permutation into [0, points). */
static uint64_t ext_lhs_perm(const ext_lhs *l, uint64_t k) {
    uint64_t y = ext_feistel(l, k);
    while (y >= l->points)
        y = ext_feistel(l, y);
    return y;
}

uint64_t trn_rand_lhs_stratum(const trn_rand_desc *d, size_t i) {
    ext_lhs l;
    ext_lhs_init(d, &l);
    ext_lhs_keys(d, &l, i / l.points);
    return ext_lhs_perm(&l, i % l.points);
}

/* The value of element i of stratum pi. */
static double ext_lhs_value(const trn_rand_desc *d, const ext_lhs *l, size_t i, uint64_t pi) {
    const int f32 = d->dist == TRN_RAND_LHS_F32;
    const unsigned b = (f32 ? 21u : 50u) - l->m;
    const uint64_t w = d->offset + TRN_RAND_LHS_ROUNDS * (uint64_t)d->lhs_dims + 2 * (uint64_t)i;
    const uint64_t z = ext_z53(ext_word(l->key, w), ext_word(l->key, w + 1));
    const double u = ((double)(z >> (53 - b)) + 0.5) * ldexp(1.0, -(int)b);
    return ((double)pi + u) / (double)l->points;
}

/* ---- the kernel -------------------------------------------------------------- */

trn_kstatus trn_cpu_rand_ext(const trn_rand_desc *d, int shard, int nshards) {
    size_t lo, hi;
    trn_cpu_shard_range(d->n, shard, nshards, &lo, &hi);
    if (lo >= hi)
        return TRN_KSTATUS_OK;
    switch (d->dist) {
    case TRN_RAND_GAMMA_F32:
    case TRN_RAND_GAMMA_F64:
        if (!(d->shape > 0.0 && d->scale > 0.0))
            return TRN_KSTATUS_FAILED;
        for (size_t i = lo; i < hi; i++) {
            const double v = ext_gamma(d, d->offset + i);
            if (d->dist == TRN_RAND_GAMMA_F32)
                ((float *)d->dst)[i] = (float)v;
            else
                ((double *)d->dst)[i] = v;
        }
        return TRN_KSTATUS_OK;
    case TRN_RAND_BETA_F32:
    case TRN_RAND_BETA_F64:
        if (!(d->beta_a > 0.0 && d->beta_b > 0.0))
            return TRN_KSTATUS_FAILED;
        for (size_t i = lo; i < hi; i++) {
            const double v = ext_beta(d, d->offset + i);
            if (d->dist == TRN_RAND_BETA_F32)
                ((float *)d->dst)[i] = (float)v;
            else
                ((double *)d->dst)[i] = v;
        }
        return TRN_KSTATUS_OK;
    case TRN_RAND_TRUNCNORMAL_F32:
    case TRN_RAND_TRUNCNORMAL_F64:
        if (!(d->stddev > 0.0 && d->lower < d->upper))
            return TRN_KSTATUS_FAILED;
        for (size_t i = lo; i < hi; i++) {
            const double v = ext_truncnormal(d, d->offset + i);
            if (d->dist == TRN_RAND_TRUNCNORMAL_F32)
                ((float *)d->dst)[i] = (float)v;
            else
                ((double *)d->dst)[i] = v;
        }
        return TRN_KSTATUS_OK;
    case TRN_RAND_LHS_F32:
    case TRN_RAND_LHS_F64: {
        const uint64_t maxp =
            d->dist == TRN_RAND_LHS_F32 ? TRN_RAND_LHS_MAX_POINTS_F32 : TRN_RAND_LHS_MAX_POINTS_F64;
        if (d->lhs_dims == 0 || d->n % d->lhs_dims != 0 || d->n / d->lhs_dims > maxp)
            return TRN_KSTATUS_FAILED;
        ext_lhs l;
        ext_lhs_init(d, &l);
        uint64_t dim = UINT64_MAX;
        for (size_t i = lo; i < hi; i++) {
            if (i / l.points != dim) {
                dim = i / l.points;
                ext_lhs_keys(d, &l, dim);
            }
            const double v = ext_lhs_value(d, &l, i, ext_lhs_perm(&l, i % l.points));
            if (d->dist == TRN_RAND_LHS_F32)
                ((float *)d->dst)[i] = (float)v;
            else
                ((double *)d->dst)[i] = v;
        }
        return TRN_KSTATUS_OK;
    }
    default: return TRN_KSTATUS_UNSUPPORTED;
    }
}
