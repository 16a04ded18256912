/*
 * test_gemm_modes.c — the GEMM precision modes, batches and compensated
 * reductions of the CPU backend (kernels/cpu/blas_gemm.c, gemm_lowprec.c,
 * gemm_ozaki.c, blas1_compensated.c, lowprec.h) against references written
 * here: long-double GEMM loops, __float128 dot products, and rounding
 * functions that find the nearest representable number by a different
 * method (candidates from the encoding, compared in double).
 *
 * Error bounds (u_f = 2^-24, u_d = 2^-53, gref_gamma = n u / (1 - n u); for
 * element (i, j), S = sum_p |a_ip| |b_pj|, with complex magnitudes bounded
 * by |re| + |im|; a complex dot of length k is, per component, a real sum of
 * 2k products, so complex bounds use 2k):
 *  - 32F (SGEMM): |c^ - c| <= gamma_(k+2) (|alpha| S + |beta| |c0|).
 *  - FAST modes: each input is rounded with relative error <= u_r and, for
 *    binary16 below 2^-14, absolute error <= 2^-25 (eta); the products of
 *    rounded inputs are exact in FP32 (at most 22 significant bits), and the
 *    accumulation adds gamma_(k+2) of the rounded magnitudes:
 *    |alpha| sum_p [(u|a|+eta)((1+u)|b|+eta) + |a|(u|b|+eta)]
 *      + gamma_(k+2) (|alpha| sum_p ((1+u)|a|+eta)((1+u)|b|+eta) + |beta||c0|).
 *    u_r = 2^-8 (bfloat16, round to nearest), 2^-7 (bfloat16, stochastic:
 *    any point of the gap), 2^-11 (TF32, binary16).
 *  - BF16X3: a = a0 + a1 + ra with |a - a0| <= u|a|, |a1| <= u(1+u)|a|,
 *    |ra| <= u^2 |a| (u = 2^-8); the three products kept are exact, and the
 *    dropped part a1 b1 + (a0 + a1) rb + ra (b0 + b1) + ra rb is at most
 *    (u^2(1+u)^2 + 2u^2(1+u^2) + u^4) |a||b| <= 3.1 u^2 |a||b|. The 3k
 *    products are summed in FP32 over three SGEMMs: gamma_(3k+4) times their
 *    magnitudes, <= (1+u)^2 (1+u(1+u))^2 |a||b| <= 1.02 |a||b| each.
 *  - BF16X9: three pieces, |ra| <= u^3 |a|, all nine products kept: dropped
 *    (2u^3(1+u^3) + u^6) |a||b| <= 2.1 u^3 |a||b|; sum of 9k products in
 *    nine SGEMMs: gamma_(9k+10) times 1.02 S.
 *  - 64F_EMULATED (gemm_ozaki.c): with 2^e_i bounding row i of op(A), 2^f_j
 *    column j of op(B), S_d = 8 digits of BETA = 7 bits: truncation and
 *    dropped digit products <= k (S_d + 2) 2^(-S_d BETA) 2^(e_i + f_j) (1.01
 *    for second-order terms); the exact FP32 digit products summed in double,
 *    N = 36 ceil(k / KB) additions per element over terms of total magnitude
 *    <= 1.02 k 2^(e_i + f_j): gamma_N 1.02 k 2^(e_i + f_j); then alpha and
 *    beta: gamma_3 (|alpha| |c| + |beta| |c0|).
 *  - Compensated dot (Dot2): |r - x.y| <= u |x.y| + gref_gamma^2 sum |x_i y_i|;
 *    nrm2: (1.5 u + gref_gamma^2) ||x||; asum: (2u + gref_gamma^2) sum |x_i|.
 * The long-double reference's own error (k 2^-64 S) is below every bound by
 * 2^5 or more.
 */
#include <float.h>
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

#include "tests/common/checked_routines.h"

#include <cblas.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/lowprec.h"

#include "tests/common/gemm_reference.h"

/* ---- rounding ---------------------------------------------------------- */

/* The nearest value with the top 32 - drop bits of an FP32 encoding, ties to
 * even, found by comparing the two candidates around x in double. */
static float ref_round_bits(float x, unsigned drop) {
    if (isnan(x) || isinf(x))
        return x;
    const uint32_t mask = (UINT32_C(1) << drop) - 1;
    const uint32_t lo = lp_bits(x) & ~mask; /* toward zero */
    const uint32_t hi = lo + (mask + 1);    /* away from zero (may encode infinity) */
    /* Past the largest finite value, the next candidate is 2^128 (IEEE: a
     * value rounds to infinity when it would round to 2^128 with an
     * unbounded exponent). */
    const double vlo = lp_float(lo);
    const double vhi = isinf(lp_float(hi)) ? copysign(0x1p128, (double)x) : lp_float(hi);
    const double dl = fabs((double)x - vlo), dh = fabs(vhi - (double)x);
    if (dl != dh)
        return dl < dh ? lp_float(lo) : lp_float(hi);
    return ((lo >> drop) & 1) ? lp_float(hi) : lp_float(lo);
}

/* binary16: 11 significant bits, quantum 2^-24 below 2^-14, infinity from
 * 65520 up. */
static float ref_fp16(float x) {
    if (isnan(x) || isinf(x))
        return x;
    const double v = x;
    double r;
    if (fabs(v) < 0x1p-14) {
        r = nearbyint(v * 0x1p24) * 0x1p-24;
    } else {
        int e;
        (void)frexp(v, &e);
        r = ldexp(nearbyint(ldexp(v, 11 - e)), e - 11);
    }
    if (fabs(r) >= 65520.0)
        return v > 0 ? INFINITY : -INFINITY;
    return (float)r;
}

static float random_float(void) {
    /* A wide spread of exponents, both signs, some FP32 subnormals. */
    const int e = (int)(gref_rng_next() % 300) - 160;
    return (float)ldexp(gref_rng_unit(), e < -149 ? -149 : e > 127 ? 127 : e);
}

static void test_round_nearest(void **state) {
    (void)state;
    const float edge[] = {0.0f,     -0.0f,     1.0f,           FLT_MAX,         -FLT_MAX,
                          FLT_MIN,  0x1p-149f, 1.0f + 0x1p-8f, 1.0f + 0x1p-9f,  1.0f + 0x3p-9f,
                          65504.0f, 65519.0f,  65520.0f,       0x1p-24f,        0x1p-25f,
                          0x3p-26f, 3.0e-5f,   -6.1e-5f,       0x1.fffffep127f, 0x1.ff7ffep127f};
    for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]) + 200000; i++) {
        const float x = i < sizeof(edge) / sizeof(edge[0]) ? edge[i] : random_float();
        const float b = lp_bf16(x), rb = ref_round_bits(x, LP_BF16_DROP);
        const float t = lp_round_rne(x, LP_TF32_DROP), rt = ref_round_bits(x, LP_TF32_DROP);
        assert_true(lp_bits(b) == lp_bits(rb));
        assert_true(lp_bits(t) == lp_bits(rt));
        assert_true((lp_bits(b) & 0xffffu) == 0 && (lp_bits(t) & 0x1fffu) == 0);
        const float h = lp_fp16(x), rh = ref_fp16(x);
        assert_true(h == rh || (isnan(h) && isnan(rh)));
    }
    const float nan = lp_float(0x7f800001u); /* a NaN whose payload is in the dropped bits */
    assert_true(isnan(lp_bf16(nan)) && isnan(lp_round_rne(nan, LP_TF32_DROP)));
    assert_true(isinf(lp_bf16(INFINITY)) && lp_bf16(-INFINITY) < 0);
}

static void test_round_stochastic(void **state) {
    (void)state;
    /* Exactly representable values never move. */
    for (int i = 0; i < 10000; i++) {
        const float x = lp_bf16(random_float());
        assert_true(lp_bits(lp_round_sr(x, LP_BF16_DROP, (uint32_t)gref_rng_next())) == lp_bits(x));
    }
    /* Any value goes to one of its two neighbours, and up with probability
     * equal to its place in the gap: x = 1 + 2^-10 in a gap of 2^-7 rounds up
     * with p = 1/8. Over N draws the count is Binomial(N, p): within 6
     * standard deviations. */
    const int N = 1 << 16;
    int up = 0;
    uint32_t words[1024];
    for (int i = 0; i < N; i += 1024) {
        lp_random_words(42, 0, 1, (uint64_t)i, 1024, words);
        for (int w = 0; w < 1024; w++) {
            const float r = lp_round_sr(1.0f + 0x1p-10f, LP_BF16_DROP, words[w]);
            assert_true(r == 1.0f || r == 1.0f + 0x1p-7f);
            up += r != 1.0f;
        }
    }
    const double p = 0.125, sd = sqrt(N * p * (1 - p));
    assert_true(fabs(up - N * p) <= 6 * sd);
    /* Negative values round away from zero with the same probability. */
    lp_random_words(7, 0, 1, 0, 1024, words);
    for (int w = 0; w < 1024; w++) {
        const float r = lp_round_sr(-1.0f - 0x1p-10f, LP_BF16_DROP, words[w]);
        assert_true(r == -1.0f || r == -1.0f - 0x1p-7f);
    }
    /* The words: a function of (seed, batch, tag, index) only. */
    uint32_t a[10], b[10];
    lp_random_words(5, 3, 2, 1000, 10, a);
    for (int i = 0; i < 10; i++) {
        lp_random_words(5, 3, 2, 1000 + (uint64_t)i, 1, b + i);
        assert_int_equal(a[i], b[i]);
    }
    lp_random_words(6, 3, 2, 1000, 10, b);
    assert_memory_not_equal(a, b, sizeof(a));
}

/* ---- the kernel's view of a reference problem ---------------------------- */

typedef gref_problem problem;

static trn_dtype dtype_of(const problem *p) {
    if (p->comps == 2)
        return p->f32 ? TRN_DTYPE_C32F : TRN_DTYPE_C64F;
    return p->f32 ? TRN_DTYPE_R32F : TRN_DTYPE_R64F;
}

static char trans_char(trn_trans t) {
    return t == TRN_TRANS_N ? 'N' : t == TRN_TRANS_T ? 'T' : 'C';
}

static trn_trans trans_of(char c) {
    return c == 'N' ? TRN_TRANS_N : c == 'T' ? TRN_TRANS_T : TRN_TRANS_C;
}

static void problem_init(problem *p, trn_dtype type, trn_trans ta, trn_trans tb, int m, int n,
                         int k, size_t batch, gref_fill how) {
    const int cx = type == TRN_DTYPE_C32F || type == TRN_DTYPE_C64F;
    const int f32 = type == TRN_DTYPE_R32F || type == TRN_DTYPE_C32F;
    gref_init(p, cx ? 2 : 1, f32, trans_char(ta), trans_char(tb), m, n, k, batch, how);
}

static gref_mode mode_of(trn_compute c) {
    switch (c) {
    case TRN_COMPUTE_DEFAULT: return GREF_DEFAULT;
    case TRN_COMPUTE_32F: return GREF_32F;
    case TRN_COMPUTE_64F: return GREF_64F;
    case TRN_COMPUTE_32F_FAST_16BF: return GREF_FAST_16BF;
    case TRN_COMPUTE_32F_FAST_TF32: return GREF_FAST_TF32;
    case TRN_COMPUTE_32F_FAST_16F: return GREF_FAST_16F;
    case TRN_COMPUTE_32F_BF16X3: return GREF_BF16X3;
    case TRN_COMPUTE_32F_BF16X9: return GREF_BF16X9;
    case TRN_COMPUTE_64F_EMULATED: return GREF_64F_EMULATED;
    case TRN_COMPUTE_16F:
    case TRN_COMPUTE_32I: break; /* narrow storage: test_gemm_half.c */
    }
    return GREF_DEFAULT;
}

static void check(const problem *p, trn_compute c, int stochastic) {
    (void)gref_check(p, mode_of(c), stochastic);
}

static trn_gemm_desc problem_desc(const problem *p, trn_compute compute) {
    trn_gemm_desc d = {.type = dtype_of(p),
                       .transa = trans_of(p->ta),
                       .transb = trans_of(p->tb),
                       .m = p->m,
                       .n = p->n,
                       .k = p->k,
                       .alpha = {p->alpha[0], p->alpha[1]},
                       .beta = {p->beta[0], p->beta[1]},
                       .a = p->a,
                       .lda = p->lda,
                       .b = p->b,
                       .ldb = p->ldb,
                       .c = p->c,
                       .ldc = p->ldc,
                       .compute = compute,
                       .batch = p->batch,
                       .stride_a = p->a_len,
                       .stride_b = p->b_len,
                       .stride_c = p->c_len};
    return d;
}

static void run(const trn_gemm_desc *d, int nshards) {
    for (int s = 0; s < nshards; s++)
        assert_int_equal(trn_cpu_gemm(d, NULL, s, nshards), TRN_KSTATUS_OK);
}

/* The bound on |c^ - c| for element (i, j) of matrix bi, per mode (see the
 * file comment). */
static const trn_trans trans_pairs[][2] = {{TRN_TRANS_N, TRN_TRANS_N},
                                           {TRN_TRANS_T, TRN_TRANS_N},
                                           {TRN_TRANS_N, TRN_TRANS_T},
                                           {TRN_TRANS_C, TRN_TRANS_C}};

static void test_fp32_modes(void **state) {
    (void)state;
    const trn_compute modes[] = {TRN_COMPUTE_32F,           TRN_COMPUTE_32F_FAST_16BF,
                                 TRN_COMPUTE_32F_FAST_TF32, TRN_COMPUTE_32F_FAST_16F,
                                 TRN_COMPUTE_32F_BF16X3,    TRN_COMPUTE_32F_BF16X9};
    const trn_dtype types[] = {TRN_DTYPE_R32F, TRN_DTYPE_C32F};
    for (size_t ti = 0; ti < 2; ti++)
        for (size_t mi = 0; mi < sizeof(modes) / sizeof(modes[0]); mi++)
            for (size_t tp = 0; tp < 4; tp++) {
                if (types[ti] == TRN_DTYPE_R32F && trans_pairs[tp][0] == TRN_TRANS_C)
                    continue;
                problem p;
                const gref_fill how = modes[mi] == TRN_COMPUTE_32F_FAST_16F ? GREF_FILL_HALFWIDE
                                      : tp == 1                             ? GREF_FILL_CANCEL
                                                                            : GREF_FILL_UNIFORM;
                problem_init(&p, types[ti], trans_pairs[tp][0], trans_pairs[tp][1], 29, 50, 66, 2,
                             how);
                const trn_gemm_desc d = problem_desc(&p, modes[mi]);
                run(&d, 1);
                check(&p, modes[mi], 0);
                gref_free(&p);
            }
}

static void test_emulated_fp64(void **state) {
    (void)state;
    const gref_fill fills[] = {GREF_FILL_UNIFORM, GREF_FILL_SCALED, GREF_FILL_CANCEL};
    const trn_dtype types[] = {TRN_DTYPE_R64F, TRN_DTYPE_C64F};
    for (size_t ti = 0; ti < 2; ti++)
        for (size_t fi = 0; fi < 3; fi++)
            for (size_t tp = 0; tp < 4; tp++) {
                if (types[ti] == TRN_DTYPE_R64F && trans_pairs[tp][0] == TRN_TRANS_C)
                    continue;
                problem p;
                /* k > 1024 (and > 512 for complex) crosses digit blocks; m > 512
                 * crosses row tiles. */
                const int big = fi == 0 && tp == 0;
                problem_init(&p, types[ti], trans_pairs[tp][0], trans_pairs[tp][1], big ? 530 : 31,
                             big ? 9 : 40, big ? 1100 : 70, 1, fills[fi]);
                const trn_gemm_desc d = problem_desc(&p, TRN_COMPUTE_64F_EMULATED);
                run(&d, 1);
                check(&p, TRN_COMPUTE_64F_EMULATED, 0);
                gref_free(&p);
            }
}

/* A sharded result is bitwise the unsharded one, for every mode, over a
 * batch (shards cut matrices and column blocks). */
static void test_shard_invariance(void **state) {
    (void)state;
    const struct {
        trn_dtype t;
        trn_compute c;
        int sr;
    } cases[] = {{TRN_DTYPE_R32F, TRN_COMPUTE_32F, 0},
                 {TRN_DTYPE_R32F, TRN_COMPUTE_32F_FAST_16BF, 0},
                 {TRN_DTYPE_R32F, TRN_COMPUTE_32F_FAST_16BF, 1},
                 {TRN_DTYPE_C32F, TRN_COMPUTE_32F_FAST_TF32, 1},
                 {TRN_DTYPE_C32F, TRN_COMPUTE_32F_BF16X9, 0},
                 {TRN_DTYPE_R32F, TRN_COMPUTE_32F_BF16X3, 0},
                 {TRN_DTYPE_R64F, TRN_COMPUTE_64F_EMULATED, 0},
                 {TRN_DTYPE_C64F, TRN_COMPUTE_64F_EMULATED, 0},
                 {TRN_DTYPE_R64F, TRN_COMPUTE_64F, 0},
                 {TRN_DTYPE_C32F, TRN_COMPUTE_32F, 0},
                 {TRN_DTYPE_C64F, TRN_COMPUTE_64F, 0}};
    for (size_t ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ci++) {
        problem p;
        problem_init(&p, cases[ci].t, TRN_TRANS_N, TRN_TRANS_T, 40, 100, 33, 3, GREF_FILL_UNIFORM);
        trn_gemm_desc d = problem_desc(&p, cases[ci].c);
        d.stochastic = cases[ci].sr;
        d.seed = 1234;
        run(&d, 1);
        const size_t bytes = p.batch * p.c_len * gref_real_size(&p) * p.comps;
        void *one = malloc(bytes);
        assert_non_null(one);
        memcpy(one, p.c, bytes);
        for (int ns = 2; ns <= 7; ns += 5) {
            memcpy(p.c, p.c0, bytes);
            run(&d, ns);
            assert_memory_equal(one, p.c, bytes);
        }
        if (cases[ci].sr) { /* the bound with stochastic rounding's gap */
            check(&p, cases[ci].c, 1);
            /* Another seed: other bits. */
            memcpy(p.c, p.c0, bytes);
            d.seed = 1235;
            run(&d, 1);
            assert_memory_not_equal(one, p.c, bytes);
        }
        free(one);
        gref_free(&p);
    }
}

/* Pointer-array batches (matrices in any order), a broadcast A (stride 0)
 * and device-mode scalars. */
static void test_batches_and_scalars(void **state) {
    (void)state;
    problem p;
    problem_init(&p, TRN_DTYPE_R64F, TRN_TRANS_T, TRN_TRANS_N, 17, 30, 12, 4, GREF_FILL_UNIFORM);
    /* Strided with A shared: every product uses matrix 0 of A. */
    trn_gemm_desc d = problem_desc(&p, TRN_COMPUTE_64F);
    d.stride_a = 0;
    run(&d, 3);
    for (size_t bi = 1; bi < p.batch; bi++) /* make the reference see A broadcast */
        memcpy((double *)p.a + bi * p.a_len, p.a, p.a_len * sizeof(double));
    check(&p, TRN_COMPUTE_64F, 0);

    /* Pointer arrays, matrices listed in reverse, scalars from memory. */
    memcpy(p.c, p.c0, p.batch * p.c_len * sizeof(double));
    const void *al[4], *bl[4];
    void *cl[4];
    for (size_t bi = 0; bi < 4; bi++) {
        const size_t r = 3 - bi;
        al[bi] = (double *)p.a + r * p.a_len;
        bl[bi] = (double *)p.b + r * p.b_len;
        cl[bi] = (double *)p.c + r * p.c_len;
    }
    const double alpha = p.alpha[0], beta = p.beta[0];
    d = problem_desc(&p, TRN_COMPUTE_64F_EMULATED);
    d.a = d.b = d.c = NULL;
    d.a_list = al;
    d.b_list = bl;
    d.c_list = cl;
    d.alpha = d.beta = (trn_scalar){99, 0}; /* must not be used */
    d.alpha_ptr = &alpha;
    d.beta_ptr = &beta;
    run(&d, 2);
    check(&p, TRN_COMPUTE_64F_EMULATED, 0);

    /* A device-mode alpha of 0 reads neither A nor B: C = beta C. */
    const double zero = 0;
    d.alpha_ptr = &zero;
    d.a_list = d.b_list = NULL; /* would crash if read */
    memcpy(p.c, p.c0, p.batch * p.c_len * sizeof(double));
    run(&d, 1);
    for (size_t bi = 0; bi < p.batch; bi++)
        for (int j = 0; j < p.n; j++)
            for (int i = 0; i < p.m; i++) {
                const size_t at = bi * p.c_len + (size_t)i + (size_t)j * p.ldc;
                assert_true(((double *)p.c)[at] == beta * ((double *)p.c0)[at]);
            }
    gref_free(&p);
}

/* ---- compensated reductions ---------------------------------------------- */

typedef __float128 quad;

static double qabs(quad x) {
    return (double)(x < 0 ? -x : x);
}

/* x with |x.y| tiny against sum |x_i y_i|: random pairs, then the negated
 * first half appended with a small perturbation. */
static void ill_vectors(double *x, double *y, int n, int f32) {
    const int h = n / 2;
    for (int i = 0; i < h; i++) {
        x[i] = ldexp(gref_rng_unit(), (int)(gref_rng_next() % 30) - 15);
        y[i] = gref_rng_unit();
        x[h + i] = -x[i];
        y[h + i] = y[i] + ldexp(gref_rng_unit(), -30);
    }
    for (int i = 2 * h; i < n; i++)
        x[i] = y[i] = gref_rng_unit();
    if (f32)
        for (int i = 0; i < n; i++) {
            x[i] = (float)x[i];
            y[i] = (float)y[i];
        }
}

static void test_compensated_real(void **state) {
    (void)state;
    const int n = 2001;
    double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
    float *xf = malloc(n * sizeof(float)), *yf = malloc(n * sizeof(float));
    assert_non_null(x);
    assert_non_null(y);
    assert_non_null(xf);
    assert_non_null(yf);
    for (int trial = 0; trial < 6; trial++) {
        const int f32 = trial % 2, inc = trial < 4 ? 1 : -2, len = inc == 1 ? n : (n + 1) / 2;
        ill_vectors(x, y, n, f32);
        for (int i = 0; i < n; i++) {
            xf[i] = (float)x[i];
            yf[i] = (float)y[i];
        }
        /* The BLAS sequence of each vector: element i at i*inc from the
         * first (the last in memory for inc < 0). */
        quad dot = 0, sq = 0, as = 0;
        double mag = 0;
        const double u = f32 ? 0x1p-24 : 0x1p-53;
        for (int i = 0; i < len; i++) {
            const int at = inc > 0 ? i * inc : (len - 1 - i) * -inc;
            const double xv = f32 ? xf[at] : x[at], yv = f32 ? yf[at] : y[at];
            dot += (quad)xv * (quad)yv;
            sq += (quad)xv * (quad)xv;
            as += (quad)fabs(xv);
            mag += fabs(xv * yv);
        }
        const double g2 = gref_gamma(len, u) * gref_gamma(len, u);
        const double r =
            f32 ? trn_comp_dot_s(len, xf, inc, yf, inc) : trn_comp_dot_d(len, x, inc, y, inc);
        assert_true(qabs((quad)r - dot) <= u * qabs(dot) + g2 * mag);
        const double nr = f32 ? trn_comp_nrm2_s(len, xf, inc, 1) : trn_comp_nrm2_d(len, x, inc, 1);
        const double exact = sqrt((double)sq);
        assert_true(fabs(nr - exact) <= (1.5 * u + g2) * exact + 2 * DBL_EPSILON * exact);
        const double sr = f32 ? trn_comp_asum_s(len, xf, inc, 1) : trn_comp_asum_d(len, x, inc, 1);
        assert_true(qabs((quad)sr - as) <= (2 * u + g2) * qabs(as));
    }
    /* nrm2 of values that would overflow or underflow when squared. */
    double big[3] = {1e300, -1e300, 1e300}, tiny[2] = {3e-310, 4e-310};
    assert_true(fabs(trn_comp_nrm2_d(3, big, 1, 1) - sqrt(3.0) * 1e300) <= 4e-16 * 1.8e300);
    assert_true(fabs(trn_comp_nrm2_d(2, tiny, 1, 1) - 5e-310) <= 1e-323 + 4e-16 * 5e-310);
    free(x);
    free(y);
    free(xf);
    free(yf);
}

static void test_compensated_complex(void **state) {
    (void)state;
    const int n = 500;
    double x[2 * 500], y[2 * 500], re[2 * 500], im[2 * 500];
    float xf[2 * 500], yf[2 * 500];
    ill_vectors(re, im, 2 * n, 0);
    for (int i = 0; i < 2 * n; i++) {
        x[i] = re[i];
        y[i] = im[(i * 7) % (2 * n)];
        xf[i] = (float)x[i];
        yf[i] = (float)y[i];
    }
    for (int f32 = 0; f32 < 2; f32++)
        for (int conj = 0; conj < 2; conj++) {
            const double u = f32 ? 0x1p-24 : 0x1p-53;
            quad cr = 0, ci = 0;
            double mr = 0, mi = 0;
            for (int i = 0; i < n; i++) {
                const double xr = f32 ? xf[2 * i] : x[2 * i];
                const double xi = (conj ? -1 : 1) * (f32 ? xf[2 * i + 1] : x[2 * i + 1]);
                const double yr = f32 ? yf[2 * i] : y[2 * i],
                             yi = f32 ? yf[2 * i + 1] : y[2 * i + 1];
                cr += (quad)xr * yr - (quad)xi * yi;
                ci += (quad)xr * yi + (quad)xi * yr;
                mr += fabs(xr * yr) + fabs(xi * yi);
                mi += fabs(xr * yi) + fabs(xi * yr);
            }
            double out[2];
            if (f32) {
                float o[2];
                trn_comp_cdot_s(n, xf, 1, yf, 1, conj, o);
                out[0] = o[0];
                out[1] = o[1];
            } else {
                trn_comp_cdot_d(n, x, 1, y, 1, conj, out);
            }
            const double g2 = gref_gamma(2 * n, u) * gref_gamma(2 * n, u);
            assert_true(qabs((quad)out[0] - cr) <= u * qabs(cr) + g2 * mr);
            assert_true(qabs((quad)out[1] - ci) <= u * qabs(ci) + g2 * mi);
        }
}

int main(void) {
    /* As in the daemon's workers (kernels/cpu/backend_cpu.c): OpenBLAS on one
     * thread, or its own split of a call would change the last bits. */
    openblas_set_num_threads(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_nearest),    cmocka_unit_test(test_round_stochastic),
        cmocka_unit_test(test_fp32_modes),       cmocka_unit_test(test_emulated_fp64),
        cmocka_unit_test(test_shard_invariance), cmocka_unit_test(test_batches_and_scalars),
        cmocka_unit_test(test_compensated_real), cmocka_unit_test(test_compensated_complex),
    };
    return cmocka_run_group_tests(tests, trn_test_install_checked_routines, NULL);
}
