/*
 * test_gemm_modes.c — the GEMM precision modes, batches and compensated
 * reductions of the CPU backend (kernels/cpu/blas_gemm.c, gemm_lowprec.c,
 * gemm_ozaki.c, blas1_compensated.c, lowprec.h) against references written
 * here: long-double GEMM loops, __float128 dot products, and rounding
 * functions that find the nearest representable number by a different
 * method (candidates from the encoding, compared in double).
 *
 * Error bounds (u_f = 2^-24, u_d = 2^-53, gamma_n = n u / (1 - n u); for
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
 *  - Compensated dot (Dot2): |r - x.y| <= u |x.y| + gamma_n^2 sum |x_i y_i|;
 *    nrm2: (1.5 u + gamma_n^2) ||x||; asum: (2u + gamma_n^2) sum |x_i|.
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

#include <cblas.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/lowprec.h"

/* ---- data ---------------------------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng_next(void) {
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

/* Uniform in [-1, 1). */
static double rng_unit(void) {
    return (double)(rng_next() >> 11) * 0x1p-52 - 1.0;
}

static double gamma_n(double n, double u) {
    return n * u / (1.0 - n * u);
}

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
    const int e = (int)(rng_next() % 300) - 160;
    return (float)ldexp(rng_unit(), e < -149 ? -149 : e > 127 ? 127 : e);
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
        assert_true(lp_bits(lp_round_sr(x, LP_BF16_DROP, (uint32_t)rng_next())) == lp_bits(x));
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

/* ---- GEMM problems --------------------------------------------------------- */

typedef enum fill {
    FILL_UNIFORM,  /* [-1, 1) */
    FILL_SCALED,   /* rows and columns scaled by 2^-20 .. 2^20, and spread within rows */
    FILL_CANCEL,   /* A = [X X], B = [Y; -Y + E], |E| ~ 2^-20 |Y|: AB = X E << S */
    FILL_HALFWIDE, /* for binary16: [-1, 1) with some entries below 2^-14 */
} fill;

typedef struct problem {
    trn_dtype type;
    trn_trans ta, tb;
    int m, n, k, lda, ldb, ldc;
    size_t batch;
    int comps; /* 1 real, 2 complex */
    int f32;
    void *a, *b, *c, *c0;       /* stored operands (batch strided: stride = one matrix) */
    size_t a_len, b_len, c_len; /* elements of one matrix (with padding) */
    trn_scalar alpha, beta;
} problem;

static size_t real_size(const problem *p) {
    return p->f32 ? sizeof(float) : sizeof(double);
}

static double load(const problem *p, const void *x, size_t i) {
    return p->f32 ? (double)((const float *)x)[i] : ((const double *)x)[i];
}

static void store(const problem *p, void *x, size_t i, double v) {
    if (p->f32)
        ((float *)x)[i] = (float)v;
    else
        ((double *)x)[i] = v;
}

/* Component c of op(X)(r, q) of matrix `bi` of the batch. */
static double op_at(const problem *p, const void *x, size_t len, int ld, trn_trans t, size_t bi,
                    int r, int q, int c) {
    const size_t at = t == TRN_TRANS_N ? (size_t)r + (size_t)q * ld : (size_t)q + (size_t)r * ld;
    const double v = load(p, x, (bi * len + at) * p->comps + c);
    return (c == 1 && t == TRN_TRANS_C) ? -v : v;
}

static void problem_init(problem *p, trn_dtype type, trn_trans ta, trn_trans tb, int m, int n,
                         int k, size_t batch, fill how) {
    memset(p, 0, sizeof(*p));
    p->type = type;
    p->ta = ta;
    p->tb = tb;
    p->m = m;
    p->n = n;
    p->k = k;
    p->batch = batch;
    p->comps = (type == TRN_DTYPE_C32F || type == TRN_DTYPE_C64F) ? 2 : 1;
    p->f32 = type == TRN_DTYPE_R32F || type == TRN_DTYPE_C32F;
    const int ra = ta == TRN_TRANS_N ? m : k, ca = ta == TRN_TRANS_N ? k : m;
    const int rb = tb == TRN_TRANS_N ? k : n, cb = tb == TRN_TRANS_N ? n : k;
    p->lda = ra + 3;
    p->ldb = rb + 2;
    p->ldc = m + 5;
    p->a_len = (size_t)p->lda * ca;
    p->b_len = (size_t)p->ldb * cb;
    p->c_len = (size_t)p->ldc * n;
    const size_t es = real_size(p) * p->comps;
    p->a = calloc(batch * p->a_len, es);
    p->b = calloc(batch * p->b_len, es);
    p->c = calloc(batch * p->c_len, es);
    p->c0 = calloc(batch * p->c_len, es);
    assert_non_null(p->a);
    assert_non_null(p->b);
    assert_non_null(p->c);
    assert_non_null(p->c0);
    /* Every stored element (padding too) gets a value; padding must not be
     * read (A, B) or written (C). */
    for (size_t i = 0; i < batch * p->a_len * p->comps; i++)
        store(p, p->a, i, rng_unit());
    for (size_t i = 0; i < batch * p->b_len * p->comps; i++)
        store(p, p->b, i, rng_unit());
    for (size_t i = 0; i < batch * p->c_len * p->comps; i++)
        store(p, p->c0, i, rng_unit());
    const size_t kh = (size_t)k / 2;
    for (size_t bi = 0; bi < batch && how != FILL_UNIFORM; bi++) {
        for (int r = 0; r < ra; r++)
            for (int q = 0; q < ca; q++)
                for (int c = 0; c < p->comps; c++) {
                    const size_t at =
                        (bi * p->a_len + (size_t)r + (size_t)q * p->lda) * p->comps + c;
                    const int row = ta == TRN_TRANS_N ? r : q, col = ta == TRN_TRANS_N ? q : r;
                    double v = load(p, p->a, at);
                    if (how == FILL_SCALED)
                        v = ldexp(v, (row * 7) % 41 - 20 + (col * 3) % 11 - 5);
                    else if (how == FILL_HALFWIDE && (row + col) % 5 == 0)
                        v = ldexp(v, -16);
                    else if (how == FILL_CANCEL && (size_t)col >= kh && (size_t)col < 2 * kh) {
                        /* op(A)(:, kh + p) = op(A)(:, p) */
                        const int r2 = ta == TRN_TRANS_N ? r : q - (int)kh;
                        const int q2 = ta == TRN_TRANS_N ? q - (int)kh : r;
                        v = load(p, p->a,
                                 (bi * p->a_len + (size_t)r2 + (size_t)q2 * p->lda) * p->comps + c);
                    }
                    store(p, p->a, at, v);
                }
        for (int r = 0; r < rb; r++)
            for (int q = 0; q < cb; q++)
                for (int c = 0; c < p->comps; c++) {
                    const size_t at =
                        (bi * p->b_len + (size_t)r + (size_t)q * p->ldb) * p->comps + c;
                    const int row = tb == TRN_TRANS_N ? r : q, col = tb == TRN_TRANS_N ? q : r;
                    double v = load(p, p->b, at);
                    if (how == FILL_SCALED)
                        v = ldexp(v, (col * 5) % 41 - 20);
                    else if (how == FILL_CANCEL && (size_t)row >= kh && (size_t)row < 2 * kh) {
                        /* op(B)(kh + p, :) = -op(B)(p, :) + 2^-20 noise */
                        const int r2 = tb == TRN_TRANS_N ? r - (int)kh : r;
                        const int q2 = tb == TRN_TRANS_N ? q : q - (int)kh;
                        const double y =
                            load(p, p->b,
                                 (bi * p->b_len + (size_t)r2 + (size_t)q2 * p->ldb) * p->comps + c);
                        v = -y + ldexp(rng_unit(), -20);
                    }
                    store(p, p->b, at, v);
                }
    }
    memcpy(p->c, p->c0, batch * p->c_len * es);
    p->alpha = (trn_scalar){1.25, p->comps == 2 ? -0.5 : 0.0};
    p->beta = (trn_scalar){-0.75, p->comps == 2 ? 0.25 : 0.0};
}

static void problem_free(problem *p) {
    free(p->a);
    free(p->b);
    free(p->c);
    free(p->c0);
}

static trn_gemm_desc problem_desc(const problem *p, trn_compute compute) {
    trn_gemm_desc d = {.type = p->type,
                       .transa = p->ta,
                       .transb = p->tb,
                       .m = p->m,
                       .n = p->n,
                       .k = p->k,
                       .alpha = p->alpha,
                       .beta = p->beta,
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
        assert_int_equal(trn_cpu_gemm(d, s, nshards), TRN_KSTATUS_OK);
}

/* The bound on |c^ - c| for element (i, j) of matrix bi, per mode (see the
 * file comment). */
typedef struct bound_terms {
    long double ref[2];
    double mag;     /* S = sum_p |a||b| */
    double rounded; /* sum_p of the FAST-mode first-order terms */
    double rmag;    /* sum_p of the rounded magnitudes */
    double scale;   /* 2^(e_i + f_j) */
} bound_terms;

static int exponent_of(double mx) {
    int e = 0;
    if (mx > 0)
        (void)frexp(mx, &e);
    return e;
}

static void terms_at(const problem *p, size_t bi, int i, int j, double u, double eta,
                     bound_terms *t) {
    memset(t, 0, sizeof(*t));
    double amax = 0, bmax = 0;
    for (int q = 0; q < p->k; q++)
        for (int c = 0; c < p->comps; c++) {
            amax = fmax(amax, fabs(op_at(p, p->a, p->a_len, p->lda, p->ta, bi, i, q, c)));
            bmax = fmax(bmax, fabs(op_at(p, p->b, p->b_len, p->ldb, p->tb, bi, q, j, c)));
        }
    t->scale = ldexp(1.0, exponent_of(amax) + exponent_of(bmax));
    for (int q = 0; q < p->k; q++) {
        const long double ar = op_at(p, p->a, p->a_len, p->lda, p->ta, bi, i, q, 0);
        const long double br = op_at(p, p->b, p->b_len, p->ldb, p->tb, bi, q, j, 0);
        const long double ai =
            p->comps == 2 ? op_at(p, p->a, p->a_len, p->lda, p->ta, bi, i, q, 1) : 0;
        const long double bi_ =
            p->comps == 2 ? op_at(p, p->b, p->b_len, p->ldb, p->tb, bi, q, j, 1) : 0;
        t->ref[0] += ar * br - ai * bi_;
        t->ref[1] += ar * bi_ + ai * br;
        const double a = (double)(fabsl(ar) + fabsl(ai)), b = (double)(fabsl(br) + fabsl(bi_));
        t->mag += a * b;
        t->rounded += (u * a + eta) * ((1 + u) * b + eta) + a * (u * b + eta);
        t->rmag += ((1 + u) * a + eta) * ((1 + u) * b + eta);
    }
}

/* Checks every element of every matrix against the reference and the
 * mode's bound, and that C's padding is untouched. Returns the largest
 * |error| / S seen. */
static double check(const problem *p, trn_compute mode, int stochastic) {
    const double uf = 0x1p-24, ud = 0x1p-53;
    const double na = hypot(p->alpha.re, p->alpha.im), nb = hypot(p->beta.re, p->beta.im);
    const double kk = p->comps == 2 ? 2.0 * p->k : p->k;
    double u = 0, eta = 0;
    switch (mode) {
    case TRN_COMPUTE_32F_FAST_16BF: u = stochastic ? 0x1p-7 : 0x1p-8; break;
    case TRN_COMPUTE_32F_FAST_TF32: u = stochastic ? 0x1p-10 : 0x1p-11; break;
    case TRN_COMPUTE_32F_FAST_16F:
        u = 0x1p-11;
        eta = 0x1p-25;
        break;
    default: break;
    }
    double worst = 0;
    for (size_t bi = 0; bi < p->batch; bi++)
        for (int j = 0; j < p->n; j++)
            for (int i = 0; i < p->m; i++) {
                bound_terms t;
                terms_at(p, bi, i, j, u, eta, &t);
                const size_t at = (bi * p->c_len + (size_t)i + (size_t)j * p->ldc) * p->comps;
                const long double c0r = load(p, p->c0, at);
                const long double c0i = p->comps == 2 ? load(p, p->c0, at + 1) : 0;
                const long double er =
                    (long double)p->alpha.re * t.ref[0] - (long double)p->alpha.im * t.ref[1] +
                    (long double)p->beta.re * c0r - (long double)p->beta.im * c0i;
                const long double ei =
                    (long double)p->alpha.re * t.ref[1] + (long double)p->alpha.im * t.ref[0] +
                    (long double)p->beta.re * c0i + (long double)p->beta.im * c0r;
                const double c0 = (double)(fabsl(c0r) + fabsl(c0i));
                double bound;
                switch (mode) {
                case TRN_COMPUTE_32F_FAST_16BF:
                case TRN_COMPUTE_32F_FAST_TF32:
                case TRN_COMPUTE_32F_FAST_16F:
                    bound = na * t.rounded + gamma_n(kk + 2, uf) * (na * t.rmag + nb * c0);
                    break;
                case TRN_COMPUTE_32F_BF16X3:
                    bound = na * 3.1 * 0x1p-16 * t.mag +
                            gamma_n(3 * kk + 4, uf) * (1.02 * na * t.mag + nb * c0);
                    break;
                case TRN_COMPUTE_32F_BF16X9:
                    bound = na * 2.1 * 0x1p-24 * t.mag +
                            gamma_n(9 * kk + 10, uf) * (1.02 * na * t.mag + nb * c0);
                    break;
                case TRN_COMPUTE_64F_EMULATED: {
                    const int kb = p->comps == 2 ? 512 : 1024;
                    const double nadd = 36.0 * ((p->k + kb - 1) / kb);
                    const double prod =
                        1.01 * p->k * 10 * 0x1p-56 * t.scale +
                        gamma_n(nadd, ud) * 1.02 * p->k * t.scale * (p->comps == 2 ? 2 : 1);
                    bound = na * prod + gamma_n(3, ud) * (na * (t.mag + prod) + nb * c0);
                    break;
                }
                case TRN_COMPUTE_64F:
                case TRN_COMPUTE_DEFAULT:
                    bound = gamma_n(kk + 2, p->f32 ? uf : ud) * (na * t.mag + nb * c0);
                    break;
                default: bound = gamma_n(kk + 2, uf) * (na * t.mag + nb * c0); break;
                }
                const double gr = load(p, p->c, at), gi = p->comps == 2 ? load(p, p->c, at + 1) : 0;
                const double err =
                    (double)(fabsl((long double)gr - er) + fabsl((long double)gi - ei));
                if (!(err <= bound))
                    print_error("mode %d batch %zu (%d,%d): error %g > bound %g (S %g)\n",
                                (int)mode, bi, i, j, err, bound, t.mag);
                assert_true(err <= bound);
                worst = fmax(worst, t.mag > 0 ? err / t.mag : 0);
            }
    /* Padding rows of C: untouched. */
    for (size_t bi = 0; bi < p->batch; bi++)
        for (int j = 0; j < p->n; j++)
            for (int i = p->m; i < p->ldc; i++)
                for (int c = 0; c < p->comps; c++) {
                    const size_t at =
                        (bi * p->c_len + (size_t)i + (size_t)j * p->ldc) * p->comps + c;
                    assert_true(load(p, p->c, at) == load(p, p->c0, at));
                }
    return worst;
}

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
                const fill how = modes[mi] == TRN_COMPUTE_32F_FAST_16F ? FILL_HALFWIDE
                                 : tp == 1                             ? FILL_CANCEL
                                                                       : FILL_UNIFORM;
                problem_init(&p, types[ti], trans_pairs[tp][0], trans_pairs[tp][1], 29, 50, 66, 2,
                             how);
                const trn_gemm_desc d = problem_desc(&p, modes[mi]);
                run(&d, 1);
                check(&p, modes[mi], 0);
                problem_free(&p);
            }
}

static void test_emulated_fp64(void **state) {
    (void)state;
    const fill fills[] = {FILL_UNIFORM, FILL_SCALED, FILL_CANCEL};
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
                problem_free(&p);
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
        problem_init(&p, cases[ci].t, TRN_TRANS_N, TRN_TRANS_T, 40, 100, 33, 3, FILL_UNIFORM);
        trn_gemm_desc d = problem_desc(&p, cases[ci].c);
        d.stochastic = cases[ci].sr;
        d.seed = 1234;
        run(&d, 1);
        const size_t bytes = p.batch * p.c_len * real_size(&p) * p.comps;
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
        problem_free(&p);
    }
}

/* Pointer-array batches (matrices in any order), a broadcast A (stride 0)
 * and device-mode scalars. */
static void test_batches_and_scalars(void **state) {
    (void)state;
    problem p;
    problem_init(&p, TRN_DTYPE_R64F, TRN_TRANS_T, TRN_TRANS_N, 17, 30, 12, 4, FILL_UNIFORM);
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
    const double alpha = p.alpha.re, beta = p.beta.re;
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
    problem_free(&p);
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
        x[i] = ldexp(rng_unit(), (int)(rng_next() % 30) - 15);
        y[i] = rng_unit();
        x[h + i] = -x[i];
        y[h + i] = y[i] + ldexp(rng_unit(), -30);
    }
    for (int i = 2 * h; i < n; i++)
        x[i] = y[i] = rng_unit();
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
        const double g2 = gamma_n(len, u) * gamma_n(len, u);
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
            const double g2 = gamma_n(2 * n, u) * gamma_n(2 * n, u);
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
    return cmocka_run_group_tests(tests, NULL, NULL);
}
