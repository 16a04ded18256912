/*
 * gemm_reference.h — GEMM test problems and their error bounds, shared by
 * the unit tests of the CPU kernels (tests/unit/test_gemm_modes.c) and the
 * integration tests through the daemon (tests/integration/test_gemm_ex.c).
 * Header-only; include it after cmocka.h.
 *
 * A problem is a batch of column-major op(A) op(B) products with padded
 * leading dimensions (padding holds values that must not be read, or, in C,
 * overwritten), filled deterministically; gref_check compares the computed C
 * with a long-double reference element by element against the bound of the
 * precision mode. The bounds and their derivation are in
 * tests/unit/test_gemm_modes.c's header comment.
 */
#ifndef TRN_TESTS_GEMM_REFERENCE_H
#define TRN_TESTS_GEMM_REFERENCE_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The precision modes, as the bounds distinguish them. */
typedef enum gref_mode {
    GREF_DEFAULT, /* the data type's precision: SGEMM/DGEMM */
    GREF_32F,
    GREF_64F,
    GREF_FAST_16BF,
    GREF_FAST_TF32,
    GREF_FAST_16F,
    GREF_BF16X3,
    GREF_BF16X9,
    GREF_64F_EMULATED,
} gref_mode;

/* ---- data ---------------------------------------------------------------- */

static uint64_t gref_rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t gref_rng_next(void) {
    uint64_t x = gref_rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return gref_rng_state = x;
}

/* Uniform in [-1, 1). */
static double gref_rng_unit(void) {
    return (double)(gref_rng_next() >> 11) * 0x1p-52 - 1.0;
}

static double gref_gamma(double n, double u) {
    return n * u / (1.0 - n * u);
}

/* ---- GEMM problems --------------------------------------------------------- */

typedef enum gref_fill {
    GREF_FILL_UNIFORM,  /* [-1, 1) */
    GREF_FILL_SCALED,   /* rows and columns scaled by 2^-20 .. 2^20, and spread within rows */
    GREF_FILL_CANCEL,   /* A = [X X], B = [Y; -Y + E], |E| ~ 2^-20 |Y|: AB = X E << S */
    GREF_FILL_HALFWIDE, /* for binary16: [-1, 1) with some entries below 2^-14 */
} gref_fill;

typedef struct gref_problem {
    char ta, tb; /* 'N', 'T' or 'C' */
    int m, n, k, lda, ldb, ldc;
    size_t batch;
    int comps; /* 1 real, 2 complex */
    int f32;
    void *a, *b, *c, *c0;       /* stored operands (batch strided: stride = one matrix) */
    size_t a_len, b_len, c_len; /* elements of one matrix (with padding) */
    double alpha[2], beta[2];   /* re, im */
} gref_problem;

static size_t gref_real_size(const gref_problem *p) {
    return p->f32 ? sizeof(float) : sizeof(double);
}

static double gref_load(const gref_problem *p, const void *x, size_t i) {
    return p->f32 ? (double)((const float *)x)[i] : ((const double *)x)[i];
}

static void gref_store(const gref_problem *p, void *x, size_t i, double v) {
    if (p->f32)
        ((float *)x)[i] = (float)v;
    else
        ((double *)x)[i] = v;
}

/* Component c of op(X)(r, q) of matrix `bi` of the batch. */
static double gref_op_at(const gref_problem *p, const void *x, size_t len, int ld, char t,
                         size_t bi, int r, int q, int c) {
    const size_t at = t == 'N' ? (size_t)r + (size_t)q * ld : (size_t)q + (size_t)r * ld;
    const double v = gref_load(p, x, (bi * len + at) * p->comps + c);
    return (c == 1 && t == 'C') ? -v : v;
}

static void gref_init(gref_problem *p, int comps, int f32, char ta, char tb, int m, int n, int k,
                      size_t batch, gref_fill how) {
    memset(p, 0, sizeof(*p));
    p->ta = ta;
    p->tb = tb;
    p->m = m;
    p->n = n;
    p->k = k;
    p->batch = batch;
    p->comps = comps;
    p->f32 = f32;
    const int ra = ta == 'N' ? m : k, ca = ta == 'N' ? k : m;
    const int rb = tb == 'N' ? k : n, cb = tb == 'N' ? n : k;
    p->lda = ra + 3;
    p->ldb = rb + 2;
    p->ldc = m + 5;
    p->a_len = (size_t)p->lda * ca;
    p->b_len = (size_t)p->ldb * cb;
    p->c_len = (size_t)p->ldc * n;
    const size_t es = gref_real_size(p) * p->comps;
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
        gref_store(p, p->a, i, gref_rng_unit());
    for (size_t i = 0; i < batch * p->b_len * p->comps; i++)
        gref_store(p, p->b, i, gref_rng_unit());
    for (size_t i = 0; i < batch * p->c_len * p->comps; i++)
        gref_store(p, p->c0, i, gref_rng_unit());
    const size_t kh = (size_t)k / 2;
    for (size_t bi = 0; bi < batch && how != GREF_FILL_UNIFORM; bi++) {
        for (int r = 0; r < ra; r++)
            for (int q = 0; q < ca; q++)
                for (int c = 0; c < p->comps; c++) {
                    const size_t at =
                        (bi * p->a_len + (size_t)r + (size_t)q * p->lda) * p->comps + c;
                    const int row = ta == 'N' ? r : q, col = ta == 'N' ? q : r;
                    double v = gref_load(p, p->a, at);
                    if (how == GREF_FILL_SCALED)
                        v = ldexp(v, (row * 7) % 41 - 20 + (col * 3) % 11 - 5);
                    else if (how == GREF_FILL_HALFWIDE && (row + col) % 5 == 0)
                        v = ldexp(v, -16);
                    else if (how == GREF_FILL_CANCEL && (size_t)col >= kh && (size_t)col < 2 * kh) {
                        /* op(A)(:, kh + p) = op(A)(:, p) */
                        const int r2 = ta == 'N' ? r : r - (int)kh;
                        const int q2 = ta == 'N' ? q - (int)kh : q;
                        v = gref_load(
                            p, p->a,
                            (bi * p->a_len + (size_t)r2 + (size_t)q2 * p->lda) * p->comps + c);
                    }
                    gref_store(p, p->a, at, v);
                }
        for (int r = 0; r < rb; r++)
            for (int q = 0; q < cb; q++)
                for (int c = 0; c < p->comps; c++) {
                    const size_t at =
                        (bi * p->b_len + (size_t)r + (size_t)q * p->ldb) * p->comps + c;
                    const int row = tb == 'N' ? r : q, col = tb == 'N' ? q : r;
                    double v = gref_load(p, p->b, at);
                    if (how == GREF_FILL_SCALED)
                        v = ldexp(v, (col * 5) % 41 - 20);
                    else if (how == GREF_FILL_CANCEL && (size_t)row >= kh && (size_t)row < 2 * kh) {
                        /* op(B)(kh + p, :) = -op(B)(p, :) + 2^-20 noise */
                        const int r2 = tb == 'N' ? r - (int)kh : r;
                        const int q2 = tb == 'N' ? q : q - (int)kh;
                        const double y = gref_load(
                            p, p->b,
                            (bi * p->b_len + (size_t)r2 + (size_t)q2 * p->ldb) * p->comps + c);
                        v = -y + ldexp(gref_rng_unit(), -20);
                    }
                    gref_store(p, p->b, at, v);
                }
    }
    memcpy(p->c, p->c0, batch * p->c_len * es);
    p->alpha[0] = 1.25;
    p->alpha[1] = p->comps == 2 ? -0.5 : 0.0;
    p->beta[0] = -0.75;
    p->beta[1] = p->comps == 2 ? 0.25 : 0.0;
}

static void gref_free(gref_problem *p) {
    free(p->a);
    free(p->b);
    free(p->c);
    free(p->c0);
}

typedef struct gref_terms {
    long double ref[2];
    double mag;     /* S = sum_p |a||b| */
    double rounded; /* sum_p of the FAST-mode first-order terms */
    double rmag;    /* sum_p of the rounded magnitudes */
    double scale;   /* 2^(e_i + f_j) */
} gref_terms;

static int gref_exponent(double mx) {
    int e = 0;
    if (mx > 0)
        (void)frexp(mx, &e);
    return e;
}

static void gref_terms_at(const gref_problem *p, size_t bi, int i, int j, double u, double eta,
                          gref_terms *t) {
    memset(t, 0, sizeof(*t));
    double amax = 0, bmax = 0;
    for (int q = 0; q < p->k; q++)
        for (int c = 0; c < p->comps; c++) {
            amax = fmax(amax, fabs(gref_op_at(p, p->a, p->a_len, p->lda, p->ta, bi, i, q, c)));
            bmax = fmax(bmax, fabs(gref_op_at(p, p->b, p->b_len, p->ldb, p->tb, bi, q, j, c)));
        }
    t->scale = ldexp(1.0, gref_exponent(amax) + gref_exponent(bmax));
    for (int q = 0; q < p->k; q++) {
        const long double ar = gref_op_at(p, p->a, p->a_len, p->lda, p->ta, bi, i, q, 0);
        const long double br = gref_op_at(p, p->b, p->b_len, p->ldb, p->tb, bi, q, j, 0);
        const long double ai =
            p->comps == 2 ? gref_op_at(p, p->a, p->a_len, p->lda, p->ta, bi, i, q, 1) : 0;
        const long double bi_ =
            p->comps == 2 ? gref_op_at(p, p->b, p->b_len, p->ldb, p->tb, bi, q, j, 1) : 0;
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
static double gref_check(const gref_problem *p, gref_mode mode, int stochastic) {
    const double uf = 0x1p-24, ud = 0x1p-53;
    const double na = hypot(p->alpha[0], p->alpha[1]), nb = hypot(p->beta[0], p->beta[1]);
    const double kk = p->comps == 2 ? 2.0 * p->k : p->k;
    double u = 0, eta = 0;
    switch (mode) {
    case GREF_FAST_16BF: u = stochastic ? 0x1p-7 : 0x1p-8; break;
    case GREF_FAST_TF32: u = stochastic ? 0x1p-10 : 0x1p-11; break;
    case GREF_FAST_16F:
        u = 0x1p-11;
        eta = 0x1p-25;
        break;
    default: break;
    }
    double worst = 0;
    for (size_t bi = 0; bi < p->batch; bi++)
        for (int j = 0; j < p->n; j++)
            for (int i = 0; i < p->m; i++) {
                gref_terms t;
                gref_terms_at(p, bi, i, j, u, eta, &t);
                const size_t at = (bi * p->c_len + (size_t)i + (size_t)j * p->ldc) * p->comps;
                const long double c0r = gref_load(p, p->c0, at);
                const long double c0i = p->comps == 2 ? gref_load(p, p->c0, at + 1) : 0;
                const long double er =
                    (long double)p->alpha[0] * t.ref[0] - (long double)p->alpha[1] * t.ref[1] +
                    (long double)p->beta[0] * c0r - (long double)p->beta[1] * c0i;
                const long double ei =
                    (long double)p->alpha[0] * t.ref[1] + (long double)p->alpha[1] * t.ref[0] +
                    (long double)p->beta[0] * c0i + (long double)p->beta[1] * c0r;
                const double c0 = (double)(fabsl(c0r) + fabsl(c0i));
                double bound;
                switch (mode) {
                case GREF_FAST_16BF:
                case GREF_FAST_TF32:
                case GREF_FAST_16F:
                    bound = na * t.rounded + gref_gamma(kk + 2, uf) * (na * t.rmag + nb * c0);
                    break;
                case GREF_BF16X3:
                    bound = na * 3.1 * 0x1p-16 * t.mag +
                            gref_gamma(3 * kk + 4, uf) * (1.02 * na * t.mag + nb * c0);
                    break;
                case GREF_BF16X9:
                    bound = na * 2.1 * 0x1p-24 * t.mag +
                            gref_gamma(9 * kk + 10, uf) * (1.02 * na * t.mag + nb * c0);
                    break;
                case GREF_64F_EMULATED: {
                    const int kb = p->comps == 2 ? 512 : 1024;
                    const double nadd = 36.0 * ((p->k + kb - 1) / kb);
                    const double prod =
                        1.01 * p->k * 10 * 0x1p-56 * t.scale +
                        gref_gamma(nadd, ud) * 1.02 * p->k * t.scale * (p->comps == 2 ? 2 : 1);
                    bound = na * prod + gref_gamma(3, ud) * (na * (t.mag + prod) + nb * c0);
                    break;
                }
                case GREF_64F:
                case GREF_DEFAULT:
                    bound = gref_gamma(kk + 2, p->f32 ? uf : ud) * (na * t.mag + nb * c0);
                    break;
                default: bound = gref_gamma(kk + 2, uf) * (na * t.mag + nb * c0); break;
                }
                const double gr = gref_load(p, p->c, at),
                             gi = p->comps == 2 ? gref_load(p, p->c, at + 1) : 0;
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
                    assert_true(gref_load(p, p->c, at) == gref_load(p, p->c0, at));
                }
    return worst;
}

#endif
