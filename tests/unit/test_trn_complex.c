/*
 * test_trn_complex.c — the cuComplex-style helpers of trn_complex.h against
 * C99 complex arithmetic carried out in a wider type: double _Complex for
 * the float helpers (every product of two floats is exact in double), long
 * double _Complex (64-bit mantissa) for the double helpers.
 *
 * Tolerances, with u the unit roundoff of the type under test (2^-24,
 * 2^-53), follow the error analysis of each formula (Higham, "Accuracy and
 * Stability of Numerical Algorithms", §3.6):
 *  - add, sub: one rounding per part, ≤ u·|part| (plus the reference's own
 *    error, far smaller), checked as 1 u;
 *  - mul: each part is p1 ± p2 with p1, p2 rounded products, error
 *    ≤ γ2·(|p1| + |p2|) + u·|part| ≤ 3u·(|p1| + |p2|); checked against
 *    4u·(|p1| + |p2|). The bound is in terms of the products and not of
 *    the part: under cancellation the part's relative error is unbounded
 *    for any algorithm without fused operations;
 *  - fma: as mul, with |d| added to the magnitudes (two more roundings):
 *    6u·(|p1| + |p2| + |d|);
 *  - div: the scaled algorithm rounds the scaling, the scaled parts, the
 *    squared norm, its reciprocal and the two dot products: a normwise
 *    error of at most about 8u·|a|/|b|; checked against 10u·|a|/|b|;
 *  - abs: w/v, its square, 1 + t², sqrt, the product: ≤ 4u·|z| relative;
 *    checked against 4u.
 * Random operands have parts of random sign and magnitudes spread over 2^±40
 * (float) and 2^±300 (double), so that products stay finite. Separate cases
 * check where the naive formulas overflow or underflow (division by a
 * number of magnitude 1e30 in float, |z| of 3e30+4e30i and 3e-30+4e-30i) and
 * the special values of abs (0, ±inf, NaN).
 */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "trnsci/trn_complex.h"

#define SAMPLES 200000

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t next_u64(void) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

/* A random value: sign, mantissa in [1, 2), exponent in [-emax, emax]. */
static double random_value(int emax) {
    const uint64_t r = next_u64();
    const double m = 1.0 + (double)(r >> 11) * ldexp(1.0, -53);
    const int e = (int)((r >> 3) % (uint64_t)(2 * emax + 1)) - emax;
    return (r & 1) ? -ldexp(m, e) : ldexp(m, e);
}

static trnFloatComplex random_float(void) {
    return make_trnFloatComplex((float)random_value(40), (float)random_value(40));
}
static trnDoubleComplex random_double(void) {
    return make_trnDoubleComplex(random_value(300), random_value(300));
}

static double complex wide_f(trnFloatComplex z) {
    return CMPLX((double)z.x, (double)z.y);
}
static long double complex wide_d(trnDoubleComplex z) {
    return CMPLXL((long double)z.x, (long double)z.y);
}

static int within(long double got, long double want, long double bound) {
    return fabsl(got - want) <= bound;
}

#define UF ldexpl(1.0L, -24)
#define UD ldexpl(1.0L, -53)

static void test_parts_and_conj(void **state) {
    (void)state;
    const trnFloatComplex f = make_trnFloatComplex(1.5f, -2.25f);
    assert_true(trnCrealf(f) == 1.5f && trnCimagf(f) == -2.25f);
    assert_true(trnConjf(f).x == 1.5f && trnConjf(f).y == 2.25f);
    const trnDoubleComplex d = make_trnDoubleComplex(-3.0, 0.5);
    assert_true(trnCreal(d) == -3.0 && trnCimag(d) == 0.5);
    assert_true(trnConj(d).x == -3.0 && trnConj(d).y == -0.5);
    const trnComplex c = make_trnComplex(4.0f, 5.0f);
    assert_true(c.x == 4.0f && c.y == 5.0f);
    /* Conjugating a zero imaginary part gives -0, as cuConjf and conj(). */
    assert_true(signbit(trnConjf(make_trnFloatComplex(1.0f, 0.0f)).y));
    assert_true(signbit(cimag(conj(CMPLX(1.0, 0.0)))));
}

static void test_float_arithmetic(void **state) {
    (void)state;
    int bad = 0;
    for (int i = 0; i < SAMPLES; i++) {
        const trnFloatComplex a = random_float(), b = random_float(), d = random_float();
        const double complex wa = wide_f(a), wb = wide_f(b), wd = wide_f(d);
        /* add, sub */
        const double complex s = wa + wb, t = wa - wb;
        const trnFloatComplex gs = trnCaddf(a, b), gt = trnCsubf(a, b);
        bad += !within(gs.x, creal(s), UF * fabs(creal(s))) ||
               !within(gs.y, cimag(s), UF * fabs(cimag(s)));
        bad += !within(gt.x, creal(t), UF * fabs(creal(t))) ||
               !within(gt.y, cimag(t), UF * fabs(cimag(t)));
        /* mul */
        const double complex p = wa * wb;
        const trnFloatComplex gp = trnCmulf(a, b);
        const long double mre = fabsl((long double)a.x * b.x) + fabsl((long double)a.y * b.y);
        const long double mim = fabsl((long double)a.x * b.y) + fabsl((long double)a.y * b.x);
        bad += !within(gp.x, creal(p), 4 * UF * mre) || !within(gp.y, cimag(p), 4 * UF * mim);
        /* fma */
        const double complex f = wa * wb + wd;
        const trnFloatComplex gf = trnCfmaf(a, b, d);
        bad += !within(gf.x, creal(f), 6 * UF * (mre + fabsl((long double)d.x))) ||
               !within(gf.y, cimag(f), 6 * UF * (mim + fabsl((long double)d.y)));
        /* div */
        const double complex q = wa / wb;
        const trnFloatComplex gq = trnCdivf(a, b);
        const long double qb = 10 * UF * cabs(wa) / cabs(wb);
        bad += !within(gq.x, creal(q), qb) || !within(gq.y, cimag(q), qb);
        /* abs */
        const double r = cabs(wa);
        bad += !within(trnCabsf(a), r, 4 * UF * r);
        if (bad && bad < 4 && i < SAMPLES)
            fprintf(stderr, "sample %d: a = %a%+ai, b = %a%+ai\n", i, a.x, a.y, b.x, b.y);
    }
    assert_int_equal(bad, 0);
}

static void test_double_arithmetic(void **state) {
    (void)state;
    int bad = 0;
    for (int i = 0; i < SAMPLES; i++) {
        const trnDoubleComplex a = random_double(), b = random_double(), d = random_double();
        const long double complex wa = wide_d(a), wb = wide_d(b), wd = wide_d(d);
        const long double complex s = wa + wb, t = wa - wb;
        const trnDoubleComplex gs = trnCadd(a, b), gt = trnCsub(a, b);
        bad += !within(gs.x, creall(s), UD * fabsl(creall(s))) ||
               !within(gs.y, cimagl(s), UD * fabsl(cimagl(s)));
        bad += !within(gt.x, creall(t), UD * fabsl(creall(t))) ||
               !within(gt.y, cimagl(t), UD * fabsl(cimagl(t)));
        const long double complex p = wa * wb;
        const trnDoubleComplex gp = trnCmul(a, b);
        const long double mre = fabsl((long double)a.x * b.x) + fabsl((long double)a.y * b.y);
        const long double mim = fabsl((long double)a.x * b.y) + fabsl((long double)a.y * b.x);
        bad += !within(gp.x, creall(p), 4 * UD * mre) || !within(gp.y, cimagl(p), 4 * UD * mim);
        const long double complex f = wa * wb + wd;
        const trnDoubleComplex gf = trnCfma(a, b, d);
        bad += !within(gf.x, creall(f), 6 * UD * (mre + fabsl((long double)d.x))) ||
               !within(gf.y, cimagl(f), 6 * UD * (mim + fabsl((long double)d.y)));
        const long double complex q = wa / wb;
        const trnDoubleComplex gq = trnCdiv(a, b);
        const long double qb = 10 * UD * cabsl(wa) / cabsl(wb);
        bad += !within(gq.x, creall(q), qb) || !within(gq.y, cimagl(q), qb);
        const long double r = cabsl(wa);
        bad += !within(trnCabs(a), r, 4 * UD * r);
    }
    assert_int_equal(bad, 0);
}

/* Where the naive formulas overflow or underflow. */
static void test_extreme_magnitudes(void **state) {
    (void)state;
    /* (1 + i) / (2 - i) = (1 + 3i) / 5, at scale 1e30 (|b|² = 5e60 > FLT_MAX). */
    const trnFloatComplex q =
        trnCdivf(make_trnFloatComplex(1e30f, 1e30f), make_trnFloatComplex(2e30f, -1e30f));
    assert_true(within(q.x, 0.2L, 10 * UF) && within(q.y, 0.6L, 10 * UF));
    /* And at 1e-30 (|b|² = 5e-60 underflows to 0 in float). */
    const trnFloatComplex q2 =
        trnCdivf(make_trnFloatComplex(1e-30f, 1e-30f), make_trnFloatComplex(2e-30f, -1e-30f));
    assert_true(within(q2.x, 0.2L, 10 * UF) && within(q2.y, 0.6L, 10 * UF));
    const trnDoubleComplex qd =
        trnCdiv(make_trnDoubleComplex(1e300, 1e300), make_trnDoubleComplex(2e300, -1e300));
    assert_true(within(qd.x, 0.2L, 10 * UD) && within(qd.y, 0.6L, 10 * UD));
    /* A large value over a small one, still finite: (1e20) / (1e-20 i) = -1e40 i (double). */
    const trnDoubleComplex qe =
        trnCdiv(make_trnDoubleComplex(1e20, 0), make_trnDoubleComplex(0, 1e-20));
    assert_true(within(qe.x, 0, 0) && within(qe.y, -1e40L, 10 * UD * 1e40L));

    assert_true(within(trnCabsf(make_trnFloatComplex(3e30f, 4e30f)), 5e30L, 4 * UF * 5e30L));
    assert_true(within(trnCabsf(make_trnFloatComplex(-3e-30f, 4e-30f)), 5e-30L, 4 * UF * 5e-30L));
    assert_true(within(trnCabs(make_trnDoubleComplex(3e300, -4e300)), 5e300L, 4 * UD * 5e300L));
    assert_true(within(trnCabs(make_trnDoubleComplex(3e-300, 4e-300)), 5e-300L, 4 * UD * 5e-300L));
    /* The largest finite magnitudes. */
    assert_true(within(trnCabsf(make_trnFloatComplex(FLT_MAX, 0)), FLT_MAX, 0));
    assert_true(within(trnCabs(make_trnDoubleComplex(0, -DBL_MAX)), DBL_MAX, 0));
    /* Subnormals. */
    assert_true(within(trnCabsf(make_trnFloatComplex(0, FLT_TRUE_MIN)), FLT_TRUE_MIN, 0));
}

/* The special values of abs agree with C99's cabs (Annex G: an infinite
 * part gives +inf even beside a NaN). */
static void test_abs_special_values(void **state) {
    (void)state;
    const float fv[] = {0.0f, -0.0f, 1.0f, INFINITY, -INFINITY, NAN};
    for (size_t i = 0; i < sizeof(fv) / sizeof(fv[0]); i++)
        for (size_t j = 0; j < sizeof(fv) / sizeof(fv[0]); j++) {
            const float got = trnCabsf(make_trnFloatComplex(fv[i], fv[j]));
            const float want = cabsf(CMPLXF(fv[i], fv[j]));
            if (isnan(want))
                assert_true(isnan(got));
            else
                assert_true(got == want);
            const double gd = trnCabs(make_trnDoubleComplex(fv[i], fv[j]));
            const double wd = cabs(CMPLX(fv[i], fv[j]));
            if (isnan(wd))
                assert_true(isnan(gd));
            else
                assert_true(gd == wd);
        }
}

static void test_conversions(void **state) {
    (void)state;
    for (int i = 0; i < 10000; i++) {
        const trnFloatComplex f = random_float();
        const trnDoubleComplex d = trnComplexFloatToDouble(f);
        const double complex want = (double complex)CMPLXF(f.x, f.y);
        assert_true(d.x == creal(want) && d.y == cimag(want));
        const trnDoubleComplex g = random_double();
        const trnFloatComplex h = trnComplexDoubleToFloat(g);
        const float complex wf = (float complex)CMPLX(g.x, g.y);
        const float wx = crealf(wf), wy = cimagf(wf);
        assert_true((h.x == wx || (isnan(h.x) && isnan(wx))) &&
                    (h.y == wy || (isnan(h.y) && isnan(wy))));
    }
    /* Beyond FLT_MAX the conversion overflows to inf, as a C cast does. */
    const trnFloatComplex big = trnComplexDoubleToFloat(make_trnDoubleComplex(1e300, -1e300));
    assert_true(isinf(big.x) && big.x > 0 && isinf(big.y) && big.y < 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parts_and_conj),     cmocka_unit_test(test_float_arithmetic),
        cmocka_unit_test(test_double_arithmetic),  cmocka_unit_test(test_extreme_magnitudes),
        cmocka_unit_test(test_abs_special_values), cmocka_unit_test(test_conversions),
    };
    return cmocka_run_group_tests_name("trn_complex", tests, NULL, NULL);
}
