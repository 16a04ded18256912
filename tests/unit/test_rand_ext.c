/*
 * test_rand_ext.c — trnrand's extension distributions (kernels/cpu/rand.c
 * exponential, kernels/cpu/rand_ext.c gamma, beta, truncated normal, Latin
 * hypercube) and Sobol64 (kernels/cpu/sobol.c) against docs/numerics.md
 * ("Extensions", "Sobol64").
 *
 * Checked:
 *  - Exponential: every element bitwise against the documented formula with a
 *    one-Philox-call-per-word reference written here.
 *  - Gamma and beta: every element bitwise against a reference written here
 *    from the documented sub-stream definition (Marsaglia-Tsang on the blocks
 *    {lo32(j), hi32(j), a, tag}, the boost block for shape < 1, the fallback),
 *    for shapes from 0.05 to 1000.
 *  - Truncated normal: every result inside [lo, hi]; in the inversion region
 *    the standardised value against a long-double inversion (bisection on
 *    erfcl) of the same u, within 1e-9 (1 + |x|); tail intervals (beyond 30
 *    stddev) inside their bounds and deterministic.
 *  - Split invariance (the hard requirement): nshards = 2, 3, 7, 64 bitwise
 *    equal to 1 for every extension and for Sobol64, each shard writing only
 *    its range; call splits (offset advanced by the documented words) and
 *    single elements computed alone bitwise equal to the whole.
 *  - Latin hypercube: for several point counts and dimensions, float and
 *    double, every stratum of every dimension holds exactly one point,
 *    strictly inside it (s < x n < s + 1, checked in long double, exact for
 *    these n); the strata against a Feistel reference written here from the
 *    definition; permutations differ between dimensions and seeds; the
 *    jitter frac(x n) passes a Kolmogorov-Smirnov test against U(0, 1) at
 *    alpha = 1e-6 (DKW critical value sqrt(ln(2/alpha)/(2n)) plus the 2^-b
 *    grid of the jitter).
 *  - Sobol64: raw 64-bit points against golden values computed from
 *    scipy.stats.qmc.Sobol(d=1024, scramble=False, bits=64)'s direction
 *    numbers (Sobol._sv) in Gray-code order, outside this code base
 *    (dimensions 0 .. 7 at points 0 .. 11; dimensions 0, 1, 2, 100, 511, 1023
 *    at points 2^40 + 3 .. 2^40 + 5, 2^63 + 5 and 2^64 - 2); the top 32 bits
 *    equal to Sobol32 for the same dimension and point (necessary, not
 *    sufficient); the scrambled generator XORs the constant from the Philox
 *    reference; the conversions (uniform float/double, normal, log-normal)
 *    element by element against the documented formulas.
 *  - Refusals: bad parameters give TRN_KSTATUS_FAILED, RAND_U64 on Philox and
 *    extensions on Sobol give TRN_KSTATUS_UNSUPPORTED.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include <Random123/philox.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/rand_ext.h"
#include "kernels/cpu/sobol.h"

#define GUARD 8
#define FILL_BYTE 0xA5u

/* ---- references written from docs/numerics.md ------------------------------ */

static uint32_t ref_word(uint64_t seed, uint64_t j) {
    const uint64_t b = j / 4;
    philox4x32_ctr_t c = {{(uint32_t)b, (uint32_t)(b >> 32), 0, 0}};
    philox4x32_key_t k = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
    return philox4x32_R(10, c, k).v[j % 4];
}

static philox4x32_ctr_t ref_block(uint64_t seed, uint64_t j, uint32_t a, uint32_t tag) {
    philox4x32_ctr_t c = {{(uint32_t)j, (uint32_t)(j >> 32), a, tag}};
    philox4x32_key_t k = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
    return philox4x32_R(10, c, k);
}

static uint64_t ref_z53(uint32_t lo, uint32_t hi) {
    return (uint64_t)lo ^ ((uint64_t)hi << 21);
}

static double ref_u64f(uint32_t lo, uint32_t hi) {
    return (double)ref_z53(lo, hi) * 0x1p-53 + 0x1p-54;
}

/* N(z) = Phi^-1((z + 1/2) 2^-53), mirrored (the icdf itself is tested
 * against scipy.special.ndtri in test_rand.c). */
static double ref_n53(uint64_t z) {
    if (z < (UINT64_C(1) << 52))
        return trn_sobol_normal_icdf_lower(((double)z + 0.5) * 0x1p-53);
    return -trn_sobol_normal_icdf_lower(((double)((UINT64_C(1) << 53) - 1 - z) + 0.5) * 0x1p-53);
}

/* log of Gamma(k, 1) of element id j, sub-stream tag (as dv, boost). */
static void ref_gamma(uint64_t seed, uint64_t j, uint32_t tag, double k, double *dv, double *boost,
                      double *log_u) {
    const double kk = k < 1.0 ? k + 1.0 : k;
    const double d = kk - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
    double g = d;
    for (uint32_t a = 0; a < 64; a++) {
        const philox4x32_ctr_t r = ref_block(seed, j, a, tag);
        const double x = ref_n53(ref_z53(r.v[0], r.v[1]));
        const double u = ref_u64f(r.v[2], r.v[3]);
        const double t = 1.0 + c * x;
        if (!(t > 0.0))
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
    if (k < 1.0) {
        const philox4x32_ctr_t r = ref_block(seed, j, 0xFFFFFFFFu, tag);
        *log_u = log(ref_u64f(r.v[0], r.v[1]));
        *boost = *log_u / k;
    }
}

/* ---- running the kernel ------------------------------------------------------ */

static trn_rand_desc mk(trn_rand_dist dist, uint64_t seed, uint64_t offset, size_t n) {
    trn_rand_desc d;
    memset(&d, 0, sizeof(d));
    d.dist = dist;
    d.seed = seed;
    d.offset = offset;
    d.n = n;
    return d;
}

static unsigned char *run_all(trn_rand_desc d, int nshards) {
    const size_t es = trn_rand_element_size(d.dist);
    unsigned char *buf = malloc((d.n + GUARD) * es);
    assert_non_null(buf);
    memset(buf, FILL_BYTE, (d.n + GUARD) * es);
    d.dst = buf;
    for (int s = 0; s < nshards; s++)
        assert_int_equal(trn_cpu_rand(&d, NULL, s, nshards), TRN_KSTATUS_OK);
    for (size_t b = d.n * es; b < (d.n + GUARD) * es; b++)
        assert_int_equal(buf[b], FILL_BYTE);
    return buf;
}

/* One shard alone writes exactly its range. */
static void check_one_shard(trn_rand_desc d, int s, int ns, const unsigned char *whole) {
    const size_t es = trn_rand_element_size(d.dist);
    unsigned char *buf = malloc((d.n + GUARD) * es);
    assert_non_null(buf);
    memset(buf, FILL_BYTE, (d.n + GUARD) * es);
    d.dst = buf;
    assert_int_equal(trn_cpu_rand(&d, NULL, s, ns), TRN_KSTATUS_OK);
    size_t lo, hi;
    if (d.gen == TRN_RAND_PHILOX &&
        (d.dist == TRN_RAND_EXPONENTIAL_F32 || d.dist == TRN_RAND_EXPONENTIAL_F64)) {
        /* rand.c shares pairs out */
        trn_cpu_shard_range(d.n / 2 + (d.n & 1u), s, ns, &lo, &hi);
        lo = 2 * lo < d.n ? 2 * lo : d.n;
        hi = 2 * hi < d.n ? 2 * hi : d.n;
    } else {
        trn_cpu_shard_range(d.n, s, ns, &lo, &hi);
    }
    for (size_t b = 0; b < (d.n + GUARD) * es; b++) {
        if (b >= lo * es && b < hi * es)
            assert_int_equal(buf[b], whole[b]);
        else
            assert_int_equal(buf[b], FILL_BYTE);
    }
    free(buf);
}

/* The split-invariance checks of one op: shards, one shard alone, call
 * splits (element i of the second call at offset + w n1), and single
 * elements alone (sub-stream and Philox distributions; w words each). */
static void check_splits(trn_rand_desc d, uint64_t w, int calls) {
    const size_t es = trn_rand_element_size(d.dist);
    unsigned char *one = run_all(d, 1);
    static const int NS[] = {2, 3, 7, 64};
    for (size_t t = 0; t < sizeof(NS) / sizeof(NS[0]); t++) {
        unsigned char *b = run_all(d, NS[t]);
        assert_memory_equal(one, b, d.n * es);
        free(b);
        check_one_shard(d, NS[t] / 2, NS[t], one);
    }
    if (calls) {
        const size_t cuts[] = {1, 2, 5, d.n / 3, d.n - 1};
        for (size_t c = 0; c < sizeof(cuts) / sizeof(cuts[0]); c++) {
            const size_t n1 = cuts[c];
            if (n1 == 0 || n1 >= d.n)
                continue;
            trn_rand_desc a = d, b = d;
            a.n = n1;
            b.n = d.n - n1;
            b.offset = d.offset + w * n1;
            unsigned char *ra = run_all(a, 3), *rb = run_all(b, 2);
            assert_memory_equal(one, ra, n1 * es);
            assert_memory_equal(one + n1 * es, rb, (d.n - n1) * es);
            free(ra);
            free(rb);
        }
        for (size_t i = 0; i < d.n; i += 1 + d.n / 17) {
            trn_rand_desc e = d;
            e.n = 1;
            e.offset = d.offset + w * i;
            unsigned char *r = run_all(e, 1);
            assert_memory_equal(one + i * es, r, es);
            free(r);
        }
    }
    free(one);
}

static double get(const unsigned char *buf, trn_rand_dist dist, size_t i) {
    if (trn_rand_element_size(dist) == 4) {
        float f;
        memcpy(&f, buf + 4 * i, 4);
        return f;
    }
    double v;
    memcpy(&v, buf + 8 * i, 8);
    return v;
}

/* ---- exponential --------------------------------------------------------------- */

static void test_exponential_vs_reference(void **state) {
    (void)state;
    static const uint64_t offs[] = {0, 1, 3, 5, UINT64_C(1) << 35};
    static const double lambdas[] = {1e-3, 0.5, 1.0, 2.5, 1e6};
    for (size_t o = 0; o < sizeof(offs) / sizeof(offs[0]); o++) {
        for (size_t l = 0; l < sizeof(lambdas) / sizeof(lambdas[0]); l++) {
            for (int f64 = 0; f64 <= 1; f64++) {
                trn_rand_desc d = mk(f64 ? TRN_RAND_EXPONENTIAL_F64 : TRN_RAND_EXPONENTIAL_F32,
                                     77 + o, offs[o], 3001);
                d.lambda = lambdas[l];
                unsigned char *buf = run_all(d, 1);
                for (size_t i = 0; i < d.n; i++) {
                    double want;
                    if (f64) {
                        const uint64_t w = d.offset + 2 * i;
                        want = (0.0 - log(ref_u64f(ref_word(d.seed, w), ref_word(d.seed, w + 1)))) /
                               d.lambda;
                    } else {
                        const float u = (float)ref_word(d.seed, d.offset + i) * 0x1p-32f + 0x1p-33f;
                        want = (float)((0.0 - log((double)u)) / d.lambda);
                    }
                    const double got = get(buf, d.dist, i);
                    assert_true(got == want);
                    assert_false(signbit(got));
                }
                free(buf);
                check_splits(d, f64 ? 2 : 1, o < 2 && l == 1);
            }
        }
    }
}

/* ---- gamma and beta -------------------------------------------------------------- */

static const double SHAPES[] = {0.05, 0.3, 0.999, 1.0, 1.5, 4.5, 30.0, 1000.0};
#define NSHAPES (sizeof(SHAPES) / sizeof(SHAPES[0]))

static void test_gamma_vs_definition(void **state) {
    (void)state;
    for (size_t s = 0; s < NSHAPES; s++) {
        for (int f64 = 0; f64 <= 1; f64++) {
            trn_rand_desc d =
                mk(f64 ? TRN_RAND_GAMMA_F64 : TRN_RAND_GAMMA_F32, 1000 + s, 12345 + 7 * s, 2000);
            d.shape = SHAPES[s];
            d.scale = 0.75;
            unsigned char *buf = run_all(d, 1);
            for (size_t i = 0; i < d.n; i++) {
                double dv, boost, lu;
                ref_gamma(d.seed, d.offset + i, 1, d.shape, &dv, &boost, &lu);
                double want = boost == 0.0 ? dv * d.scale : dv * exp(boost) * d.scale;
                if (!f64)
                    want = (float)want;
                const double got = get(buf, d.dist, i);
                assert_true(got == want);
                assert_true(got >= 0.0 && isfinite(got));
            }
            free(buf);
            check_splits(d, 1, s % 3 == 0);
        }
    }
}

static void test_beta_vs_definition(void **state) {
    (void)state;
    /* the last two: both gammas' logs can be -inf (the boost overflows) */
    static const double AB[][2] = {{0.5, 0.5}, {0.05, 3.0},      {2.0, 5.0},      {1.0, 1.0},
                                   {300, 0.2}, {1e-310, 2e-310}, {1e-320, 1e-320}};
    for (size_t s = 0; s < sizeof(AB) / sizeof(AB[0]); s++) {
        for (int f64 = 0; f64 <= 1; f64++) {
            trn_rand_desc d =
                mk(f64 ? TRN_RAND_BETA_F64 : TRN_RAND_BETA_F32, 5 + s, UINT64_MAX - 5000 - s, 1500);
            d.beta_a = AB[s][0];
            d.beta_b = AB[s][1];
            unsigned char *buf = run_all(d, 1);
            for (size_t i = 0; i < d.n; i++) {
                double dva, ba, lua, dvb, bb, lub;
                ref_gamma(d.seed, d.offset + i, 2, d.beta_a, &dva, &ba, &lua);
                ref_gamma(d.seed, d.offset + i, 3, d.beta_b, &dvb, &bb, &lub);
                const double la = log(dva) + ba, lb = log(dvb) + bb;
                double want;
                if (la == -INFINITY && lb == -INFINITY) {
                    const double sa = lua * d.beta_b, sb = lub * d.beta_a;
                    want = sa > sb ? 1.0 : sa < sb ? 0.0 : 0.5;
                } else if (la >= lb) {
                    want = 1.0 / (1.0 + exp(lb - la));
                } else {
                    const double e = exp(la - lb);
                    want = e / (1.0 + e);
                }
                if (!f64)
                    want = (float)want;
                const double got = get(buf, d.dist, i);
                assert_true(got == want);
                assert_true(got >= 0.0 && got <= 1.0);
            }
            free(buf);
            check_splits(d, 1, s < 2);
        }
    }
}

/* ---- truncated normal ----------------------------------------------------------- */

static long double phi_l(long double x) {
    return 0.5L * erfcl(-x / sqrtl(2.0L));
}

/* The long-double inversion of the same u as the kernel (block 0's z). */
static long double ref_trunc_inverse(uint64_t seed, uint64_t j, double a, double b) {
    const philox4x32_ctr_t r = ref_block(seed, j, 0, 4);
    const uint64_t z = ref_z53(r.v[0], r.v[1]);
    const long double u = ((long double)z + 0.5L) * 0x1p-53L;
    const int flip = a > -b;
    long double lo = flip ? -(long double)b : a, hi = flip ? -(long double)a : b;
    const long double pa = phi_l(lo), pb = phi_l(hi);
    const long double target = pa + u * (pb - pa); /* in the mirrored coordinates */
    /* Phi is increasing: bisect in [lo, hi] (with infinities replaced). */
    long double x0 = isinf(lo) ? -40.0L : lo, x1 = isinf(hi) ? 40.0L : hi;
    for (int it = 0; it < 200; it++) {
        const long double m = 0.5L * (x0 + x1);
        if (phi_l(m) < target)
            x0 = m;
        else
            x1 = m;
    }
    const long double x = 0.5L * (x0 + x1);
    return flip ? -x : x;
}

static void test_truncnormal(void **state) {
    (void)state;
    /* mean, stddev, lo, hi: inversion region (including one-sided, narrow,
     * far-off-centre) and tail region. */
    static const double C[][4] = {
        {1.0, 2.0, -1.0, 8.0},           {0.0, 1.0, -INFINITY, 0.5}, {0.0, 1.0, 2.0, INFINITY},
        {0.0, 1.0, -1e-6, 1e-6},         {0.0, 1.0, -8.0, -7.5},     {0.0, 1.0, 7.5, 8.0},
        {3.0, 0.5, -INFINITY, INFINITY}, {0.0, 1.0, -29.0, -28.0},   {0.0, 1.0, 28.0, 29.5},
        {0.0, 1.0, 31.0, 31.5},          {0.0, 1.0, -1e3, -40.0},    {5.0, 1e-3, 5.2, INFINITY},
    };
    for (size_t c = 0; c < sizeof(C) / sizeof(C[0]); c++) {
        for (int f64 = 0; f64 <= 1; f64++) {
            trn_rand_desc d = mk(f64 ? TRN_RAND_TRUNCNORMAL_F64 : TRN_RAND_TRUNCNORMAL_F32, 99 + c,
                                 (uint64_t)c << 40, 2000);
            d.mean = C[c][0];
            d.stddev = C[c][1];
            /* the float API rounds the bounds to float (through volatile: at -O2
             * GCC 12 kept the unrounded constants here) */
            volatile float lf = (float)C[c][2], uf = (float)C[c][3];
            d.lower = f64 ? C[c][2] : (double)lf;
            d.upper = f64 ? C[c][3] : (double)uf;
            unsigned char *buf = run_all(d, 1);
            const double a = (d.lower - d.mean) / d.stddev, b = (d.upper - d.mean) / d.stddev;
            const int tail = (a > -b ? -b : b) < -30.0 || (a > -b ? -a : a) > 30.0;
            for (size_t i = 0; i < d.n; i++) {
                const double got = get(buf, d.dist, i);
                if (!(got >= d.lower && got <= d.upper))
                    fail_msg("case %zu f64 %d element %zu: %.17g outside [%.17g, %.17g]", c, f64, i,
                             got, d.lower, d.upper);
                const double x = trn_rand_truncnormal_std(d.seed, d.offset + i, a, b);
                assert_true(x >= a && x <= b);
                if (f64 && !tail) {
                    const long double want = ref_trunc_inverse(d.seed, d.offset + i, a, b);
                    const long double tol = 1e-9L * (1.0L + fabsl(want));
                    if (!(fabsl((long double)x - want) <= tol))
                        fail_msg("case %zu element %zu: %.17g, long double %.17Lg", c, i, x, want);
                }
            }
            free(buf);
            check_splits(d, 1, c % 4 == 0);
        }
    }
}

/* ---- Latin hypercube ------------------------------------------------------------- */

/* pi_j(k) from the definition: Feistel network of 6 rounds on 2h bits,
 * h = max(1, ceil(m/2)), m = ceil(log2 n), keys = words o + 6j + r,
 * F = philox(counter {R, K, r, 5}, key seed)[0] & (2^h - 1), cycle-walked. */
static uint64_t ref_lhs_perm(uint64_t seed, uint64_t off, uint64_t n, uint64_t j, uint64_t k) {
    unsigned m = 0;
    while ((UINT64_C(1) << m) < n)
        m++;
    const unsigned h = m < 2 ? 1 : (m + 1) / 2;
    const uint64_t mask = (UINT64_C(1) << h) - 1;
    uint32_t K[6];
    for (unsigned r = 0; r < 6; r++)
        K[r] = ref_word(seed, off + 6 * j + r);
    uint64_t y = k;
    do {
        uint64_t L = y >> h, R = y & mask;
        for (unsigned r = 0; r < 6; r++) {
            philox4x32_ctr_t c = {{(uint32_t)R, K[r], r, 5}};
            philox4x32_key_t key = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
            const uint64_t f = philox4x32_R(10, c, key).v[0] & mask;
            const uint64_t t = L ^ f;
            L = R;
            R = t;
        }
        y = (L << h) | R;
    } while (y >= n);
    return y;
}

static int cmp_double(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void test_lhs(void **state) {
    (void)state;
    static const size_t NP[] = {1, 2, 3, 7, 64, 1000, 1024, 2047};
    static const unsigned ND[] = {1, 3, 5};
    for (size_t a = 0; a < sizeof(NP) / sizeof(NP[0]); a++) {
        for (size_t b = 0; b < sizeof(ND) / sizeof(ND[0]); b++) {
            for (int f64 = 0; f64 <= 1; f64++) {
                const size_t n = NP[a];
                const unsigned dims = ND[b];
                trn_rand_desc d = mk(f64 ? TRN_RAND_LHS_F64 : TRN_RAND_LHS_F32, 31 + a,
                                     1000003 * b + 1, n * dims);
                d.lhs_dims = dims;
                unsigned char *buf = run_all(d, 1);
                unsigned char *seen = calloc(n, 1);
                assert_non_null(seen);
                size_t fixed = 0;
                for (unsigned j = 0; j < dims; j++) {
                    memset(seen, 0, n);
                    for (size_t k = 0; k < n; k++) {
                        const size_t i = (size_t)j * n + k;
                        const double x = get(buf, d.dist, i);
                        assert_true(x > 0.0 && x < 1.0);
                        const long double xn = (long double)x * (long double)n;
                        const uint64_t s = (uint64_t)floorl(xn);
                        assert_true(s < n);
                        assert_true(xn > (long double)s); /* strictly inside */
                        assert_int_equal(seen[s], 0);
                        seen[s] = 1;
                        assert_int_equal(s, ref_lhs_perm(d.seed, d.offset, n, j, k));
                        assert_int_equal(s, trn_rand_lhs_stratum(&d, i));
                        fixed += s == k;
                    }
                }
                if (n >= 64) /* a random permutation has ~1 fixed point */
                    assert_true(fixed < 10 * dims);
                free(seen);
                free(buf);
                check_splits(d, 0, 0);
            }
        }
    }
    /* Dimensions and seeds give different permutations. */
    trn_rand_desc d = mk(TRN_RAND_LHS_F64, 1, 0, 2 * 500);
    d.lhs_dims = 2;
    unsigned char *b1 = run_all(d, 1);
    d.seed = 2;
    unsigned char *b2 = run_all(d, 1);
    size_t same01 = 0, same_seed = 0;
    for (size_t k = 0; k < 500; k++) {
        same01 += floor(get(b1, d.dist, k) * 500) == floor(get(b1, d.dist, 500 + k) * 500);
        same_seed += floor(get(b1, d.dist, k) * 500) == floor(get(b2, d.dist, k) * 500);
    }
    assert_true(same01 < 10 && same_seed < 10);
    free(b1);
    free(b2);

    /* Jitter uniformity: frac(x n) of 2^16 x 2 points, KS at alpha = 1e-6. */
    const size_t n = 1u << 16;
    for (int f64 = 0; f64 <= 1; f64++) {
        trn_rand_desc e = mk(f64 ? TRN_RAND_LHS_F64 : TRN_RAND_LHS_F32, 7, 3, 2 * n);
        e.lhs_dims = 2;
        unsigned char *buf = run_all(e, 3);
        double *fr = malloc(2 * n * sizeof(double));
        assert_non_null(fr);
        for (size_t i = 0; i < 2 * n; i++) {
            const long double xn = (long double)get(buf, e.dist, i) * (long double)n;
            fr[i] = (double)(xn - floorl(xn));
        }
        qsort(fr, 2 * n, sizeof(double), cmp_double);
        double D = 0.0;
        for (size_t i = 0; i < 2 * n; i++) {
            const double lo = fr[i] - (double)i / (2.0 * n),
                         hi = (double)(i + 1) / (2.0 * n) - fr[i];
            D = fmax(D, fmax(lo, hi));
        }
        /* grid of the jitter: 2^-b with b = 50 - 16 (double) or 21 - 16 (float). */
        const double crit = sqrt(log(2.0 / 1e-6) / (2.0 * 2 * n)) + (f64 ? 0x1p-34 : 0x1p-5);
        assert_true(D < crit);
        free(fr);
        free(buf);
    }
}

/* ---- Sobol64 -------------------------------------------------------------------- */

/* Generated from scipy.stats.qmc.Sobol(d=1024, scramble=False, bits=64):
 * the XOR of Sobol._sv[j][b] over the set bits b of k ^ (k >> 1). */
#include "test_rand_sobol64_gold.h"

static uint64_t ref_scramble64(unsigned j) {
    const uint64_t s = UINT64_C(0x536F626F6C363421);
    return (uint64_t)ref_word(s, 2 * (uint64_t)j) |
           ((uint64_t)ref_word(s, 2 * (uint64_t)j + 1) << 32);
}

/* ---- all 21201 dimensions -------------------------------------------------------- */

#include "test_rand_sobol_hd_gold.h"

#define NHD (sizeof(SOBOL_HD_DIMS) / sizeof(SOBOL_HD_DIMS[0]))

/* Dimensions up to 21200 against scipy (exact): Sobol32 through the kernel
 * with every dimension at once (cuRAND's dimension-major layout) at points
 * K0 .. K0 + 15 and at the last two points before 2^32, Sobol64 at far
 * points through the kernel and the point helper; the scrambled generators
 * XOR one constant per dimension, the getters' tables; one more dimension
 * is refused. */
static void test_sobol_high_dims(void **state) {
    (void)state;
    const uint32_t D = TRN_SOBOL_MAX_DIMS;
    assert_int_equal(D, 21201);
    trn_rand_desc d = mk(TRN_RAND_U32, 0, SOBOL_HD_K0, (size_t)D * 16);
    d.gen = TRN_RAND_SOBOL32;
    d.dims = D;
    uint32_t *x = (uint32_t *)run_all(d, 3);
    for (size_t r = 0; r < NHD; r++)
        for (unsigned k = 0; k < 16; k++)
            assert_int_equal(x[(size_t)SOBOL_HD_DIMS[r] * 16 + k], SOBOL_HD_GOLD32[r][k]);
    d.gen = TRN_RAND_SCRAMBLED_SOBOL32;
    uint32_t *sx = (uint32_t *)run_all(d, 2);
    const uint32_t *c32 = trn_sobol_scramble_constants32();
    for (uint32_t j = 0; j < D; j++) {
        assert_int_equal(c32[j], trn_sobol_scramble_constant(j));
        for (unsigned k = 0; k < 16; k++)
            assert_int_equal(sx[(size_t)j * 16 + k], x[(size_t)j * 16 + k] ^ c32[j]);
    }
    free(sx);
    free(x);

    /* the last two points of Sobol32: 2^32 - 2, 2^32 - 1 */
    d = mk(TRN_RAND_U32, 0, (UINT64_C(1) << 32) - 2, (size_t)D * 2);
    d.gen = TRN_RAND_SOBOL32;
    d.dims = D;
    x = (uint32_t *)run_all(d, 2);
    for (size_t r = 0; r < NHD; r++) {
        const unsigned j = SOBOL_HD_DIMS[r];
        assert_int_equal(x[(size_t)j * 2], SOBOL_HD_FAR32[r][2]);
        assert_int_equal(x[(size_t)j * 2 + 1], SOBOL_HD_FAR32[r][1]);
        assert_int_equal(trn_sobol_point(j, SOBOL_HD_FAR[0]), SOBOL_HD_FAR32[r][0]);
    }
    free(x);

    /* Sobol64 at far points */
    for (size_t i = 0; i < sizeof(SOBOL_HD_FAR) / sizeof(SOBOL_HD_FAR[0]); i++) {
        d = mk(TRN_RAND_U64, 0, SOBOL_HD_FAR[i], D);
        d.gen = TRN_RAND_SOBOL64;
        d.dims = D;
        uint64_t *y = (uint64_t *)run_all(d, 2);
        for (size_t r = 0; r < NHD; r++) {
            assert_true(y[SOBOL_HD_DIMS[r]] == SOBOL_HD_GOLD64[r][i]);
            assert_true(trn_sobol64_point(SOBOL_HD_DIMS[r], SOBOL_HD_FAR[i]) ==
                        SOBOL_HD_GOLD64[r][i]);
        }
        if (i == 0) {
            d.gen = TRN_RAND_SCRAMBLED_SOBOL64;
            uint64_t *sy = (uint64_t *)run_all(d, 1);
            const uint64_t *c64 = trn_sobol_scramble_constants64();
            for (uint32_t j = 0; j < D; j++) {
                assert_true(c64[j] == ref_scramble64(j));
                assert_true(sy[j] == (y[j] ^ c64[j]));
            }
            free(sy);
        }
        free(y);
    }

    /* The tables, every dimension: v[b] = m_(b+1) 2^(63-b) with m_(b+1) odd,
     * so bit 63 - b is set and the bits below it are clear (what makes each
     * dimension a (0, m, 1)-net); the 32-bit numbers are the top halves. */
    const uint32_t(*v32)[32] = trn_sobol_directions32();
    const uint64_t(*v64)[64] = trn_sobol_directions64();
    assert_non_null(v32);
    assert_non_null(v64);
    for (uint32_t j = 0; j < D; j++)
        for (unsigned b = 0; b < 64; b++) {
            assert_true(((v64[j][b] >> (63 - b)) & 1u) == 1u);
            assert_true((v64[j][b] & ((UINT64_C(1) << (63 - b)) - 1u)) == 0);
            if (b < 32)
                assert_int_equal(v32[j][b], (uint32_t)(v64[j][b] >> 32));
        }

    uint32_t sink[2];
    d = mk(TRN_RAND_U32, 0, 0, D + 1);
    d.gen = TRN_RAND_SOBOL32;
    d.dims = D + 1;
    d.dst = sink;
    assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_FAILED);
}

static void test_sobol64_golden(void **state) {
    (void)state;
    for (unsigned j = 0; j < 8; j++)
        for (uint64_t k = 0; k < 12; k++)
            assert_true(trn_sobol64_point(j, k) == SOBOL64_GOLD_A[j][k]);
    for (unsigned t = 0; t < 6; t++)
        for (unsigned p = 0; p < 5; p++)
            assert_true(trn_sobol64_point(SOBOL64_GOLD_B_DIMS[t], SOBOL64_GOLD_B_POINTS[p]) ==
                        SOBOL64_GOLD_B[t][p]);
    /* Through the kernel: 8 dimensions x 12 points, and the far points. */
    trn_rand_desc d = mk(TRN_RAND_U64, 0, 0, 8 * 12);
    d.gen = TRN_RAND_SOBOL64;
    d.dims = 8;
    unsigned char *buf = run_all(d, 3);
    for (unsigned j = 0; j < 8; j++)
        for (unsigned k = 0; k < 12; k++) {
            uint64_t x;
            memcpy(&x, buf + 8 * (j * 12 + k), 8);
            assert_true(x == SOBOL64_GOLD_A[j][k]);
        }
    free(buf);
    d.dims = 1024;
    d.n = 1024 * 3;
    d.offset = (UINT64_C(1) << 40) + 3;
    buf = run_all(d, 7);
    for (unsigned t = 0; t < 6; t++)
        for (unsigned p = 0; p < 3; p++) {
            uint64_t x;
            memcpy(&x, buf + 8 * (SOBOL64_GOLD_B_DIMS[t] * 3 + p), 8);
            assert_true(x == SOBOL64_GOLD_B[t][p]);
        }
    free(buf);
    /* The top 32 bits are Sobol32's. */
    for (unsigned j = 0; j < TRN_SOBOL_MAX_DIMS; j += 7)
        for (uint64_t k = 0; k < (UINT64_C(1) << 32); k += UINT64_C(0x1000193) * (j + 1))
            assert_int_equal((uint32_t)(trn_sobol64_point(j, k) >> 32), trn_sobol_point(j, k));
    for (unsigned j = 0; j < TRN_SOBOL_MAX_DIMS; j++) {
        assert_true(trn_sobol64_scramble_constant(j) == ref_scramble64(j));
        for (unsigned b = 0; b < 32; b++)
            assert_int_equal((uint32_t)(trn_sobol_directions64()[j][b] >> 32),
                             trn_sobol_directions32()[j][b]);
    }
}

static const trn_rand_dist SOBOL64_DISTS[] = {
    TRN_RAND_U64,        TRN_RAND_UNIFORM_F32,   TRN_RAND_UNIFORM_F64,   TRN_RAND_NORMAL_F32,
    TRN_RAND_NORMAL_F64, TRN_RAND_LOGNORMAL_F32, TRN_RAND_LOGNORMAL_F64,
};

static void test_sobol64_conversions_and_splits(void **state) {
    (void)state;
    static const uint64_t offs[] = {0, 5, UINT64_C(1) << 45, UINT64_MAX - 200};
    for (int scr = 0; scr <= 1; scr++) {
        for (size_t o = 0; o < sizeof(offs) / sizeof(offs[0]); o++) {
            for (size_t t = 0; t < sizeof(SOBOL64_DISTS) / sizeof(SOBOL64_DISTS[0]); t++) {
                const unsigned dims = o == 1 ? 1024 : 3;
                trn_rand_desc d = mk(SOBOL64_DISTS[t], 0, offs[o], (size_t)dims * 40);
                d.gen = scr ? TRN_RAND_SCRAMBLED_SOBOL64 : TRN_RAND_SOBOL64;
                d.dims = dims;
                d.mean = 0.25;
                d.stddev = 1.75;
                unsigned char *buf = run_all(d, 1);
                for (size_t i = 0; i < d.n; i++) {
                    const unsigned j = (unsigned)(i / 40);
                    uint64_t x = trn_sobol64_point(j, d.offset + i % 40);
                    if (scr)
                        x ^= ref_scramble64(j);
                    const uint64_t tt = x >> 11;
                    const double z =
                        tt >= (UINT64_C(1) << 52)
                            ? trn_sobol_normal_icdf_lower(
                                  ((double)((UINT64_C(1) << 53) - 1 - tt) + 0.5) * 0x1p-53)
                            : -trn_sobol_normal_icdf_lower(((double)tt + 0.5) * 0x1p-53);
                    const double v = d.mean + d.stddev * z;
                    switch (d.dist) {
                    case TRN_RAND_U64: {
                        uint64_t g;
                        memcpy(&g, buf + 8 * i, 8);
                        assert_true(g == x);
                        break;
                    }
                    case TRN_RAND_UNIFORM_F32:
                        assert_true(get(buf, d.dist, i) ==
                                    (double)((float)(uint32_t)(x >> 32) * 0x1p-32f + 0x1p-33f));
                        break;
                    case TRN_RAND_UNIFORM_F64: {
                        const double u = (double)tt * 0x1p-53 + 0x1p-54;
                        assert_true(get(buf, d.dist, i) == u);
                        assert_true(u > 0.0 && u <= 1.0);
                        break;
                    }
                    case TRN_RAND_NORMAL_F32: assert_true(get(buf, d.dist, i) == (float)v); break;
                    case TRN_RAND_NORMAL_F64: assert_true(get(buf, d.dist, i) == v); break;
                    case TRN_RAND_LOGNORMAL_F32:
                        assert_true(get(buf, d.dist, i) == (float)exp(v));
                        break;
                    default: assert_true(get(buf, d.dist, i) == exp(v)); break;
                    }
                }
                free(buf);
                check_splits(d, 0, 0);
                /* call split: p1 points per dimension, then the rest */
                const size_t p1 = 13;
                trn_rand_desc a = d, b = d;
                a.n = (size_t)dims * p1;
                b.n = (size_t)dims * (40 - p1);
                b.offset = d.offset + p1;
                unsigned char *whole = run_all(d, 1), *ra = run_all(a, 2), *rb = run_all(b, 3);
                const size_t es = trn_rand_element_size(d.dist);
                for (unsigned j = 0; j < dims; j++) {
                    assert_memory_equal(whole + es * (j * 40), ra + es * (j * p1), es * p1);
                    assert_memory_equal(whole + es * (j * 40 + p1), rb + es * (j * (40 - p1)),
                                        es * (40 - p1));
                }
                free(whole);
                free(ra);
                free(rb);
            }
        }
    }
}

/* ---- refusals ------------------------------------------------------------------- */

static void test_refusals(void **state) {
    (void)state;
    float out[4];
    trn_rand_desc d = mk(TRN_RAND_GAMMA_F32, 1, 0, 4);
    d.dst = out;
    d.shape = 0.0;
    d.scale = 1.0;
    assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_FAILED);
    d.dist = TRN_RAND_BETA_F32;
    d.beta_a = 1.0;
    assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_FAILED);
    d.dist = TRN_RAND_TRUNCNORMAL_F32;
    d.stddev = 1.0;
    d.lower = 1.0;
    d.upper = 1.0;
    assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_FAILED);
    d.dist = TRN_RAND_EXPONENTIAL_F32;
    d.lambda = -1.0;
    assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_FAILED);
    d.dist = TRN_RAND_LHS_F32;
    d.lhs_dims = 3; /* 4 % 3 != 0 */
    assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_FAILED);
    d.dist = TRN_RAND_U64;
    assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_UNSUPPORTED);
    d.dist = TRN_RAND_U32;
    d.gen = TRN_RAND_SOBOL64;
    d.dims = 1;
    assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_UNSUPPORTED);
    d.dist = TRN_RAND_GAMMA_F32;
    assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_UNSUPPORTED);
    d.gen = TRN_RAND_SOBOL32;
    d.dist = TRN_RAND_U64;
    assert_int_equal(trn_cpu_rand(&d, NULL, 0, 1), TRN_KSTATUS_UNSUPPORTED);
    /* n = 0 with dst NULL touches nothing. */
    trn_rand_desc z = mk(TRN_RAND_BETA_F64, 1, 0, 0);
    z.beta_a = z.beta_b = 1.0;
    assert_int_equal(trn_cpu_rand(&z, NULL, 0, 1), TRN_KSTATUS_OK);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exponential_vs_reference),
        cmocka_unit_test(test_gamma_vs_definition),
        cmocka_unit_test(test_beta_vs_definition),
        cmocka_unit_test(test_truncnormal),
        cmocka_unit_test(test_lhs),
        cmocka_unit_test(test_sobol64_golden),
        cmocka_unit_test(test_sobol_high_dims),
        cmocka_unit_test(test_sobol64_conversions_and_splits),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
