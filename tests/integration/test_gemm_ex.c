/*
 * test_gemm_ex.c — trnblas's GEMM family through a real trnscid (2 cores),
 * over the local transport and gRPC over TCP: GemmEx with every supported
 * compute type, the strided and pointer-array batched routines (S/D/C/Z and
 * the Ex forms), the math modes (TF32, BF16X9, FP64 emulation, compensated
 * reductions, stochastic rounding with its seed), device pointer mode for
 * GEMM scalars, and the bad inputs cuBLAS rejects.
 *
 * Results are checked element by element against long-double references
 * with the bound of each precision mode (tests/common/gemm_reference.h; the
 * derivations are in tests/unit/test_gemm_modes.c), C's padding must come
 * back untouched; the compensated dot against a __float128 reference with
 * the Dot2 bound u |x.y| + gamma_n^2 sum |x_i y_i| and bitwise against Dot2
 * written here from its paper. Where two routes must compute the same thing
 * (a math mode and the compute type it stands for; device and host scalars)
 * the results are compared bitwise.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "harness.h"
#include "trnsci/trnblas.h"
#include "trnsci/trnsci.h"

#include "tests/common/gemm_reference.h"

static th_daemon daemon_under_test;

/* ---- a reference problem in device memory ------------------------------------ */

typedef struct dev_problem {
    gref_problem p;
    void *a, *b, *c; /* device copies of p.a, p.b, p.c0 */
    size_t es;       /* bytes per element */
} dev_problem;

static trnsciDataType_t data_type(const gref_problem *p) {
    if (p->comps == 2)
        return p->f32 ? TRNSCI_C_32F : TRNSCI_C_64F;
    return p->f32 ? TRNSCI_R_32F : TRNSCI_R_64F;
}

static trnblasOperation_t op_of(char t) {
    return t == 'N' ? TRNBLAS_OP_N : t == 'T' ? TRNBLAS_OP_T : TRNBLAS_OP_C;
}

static void *upload(const void *host, size_t bytes) {
    void *d = NULL;
    assert_int_equal(trnsciMalloc(&d, bytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(d, host, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    return d;
}

static void dev_init(dev_problem *d, int comps, int f32, char ta, char tb, int m, int n, int k,
                     size_t batch, gref_fill how) {
    gref_init(&d->p, comps, f32, ta, tb, m, n, k, batch, how);
    d->es = gref_real_size(&d->p) * (size_t)comps;
    d->a = upload(d->p.a, batch * d->p.a_len * d->es);
    d->b = upload(d->p.b, batch * d->p.b_len * d->es);
    d->c = upload(d->p.c0, batch * d->p.c_len * d->es);
}

/* Downloads C into p.c and checks it with the mode's bound. */
static void dev_check(dev_problem *d, gref_mode mode, int stochastic) {
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(
        trnsciMemcpy(d->p.c, d->c, d->p.batch * d->p.c_len * d->es, trnsciMemcpyDeviceToHost),
        trnsciSuccess);
    (void)gref_check(&d->p, mode, stochastic);
}

/* C back to its initial values. */
static void dev_reset_c(dev_problem *d) {
    assert_int_equal(
        trnsciMemcpy(d->c, d->p.c0, d->p.batch * d->p.c_len * d->es, trnsciMemcpyHostToDevice),
        trnsciSuccess);
}

/* C as it is now, in a fresh host array. */
static void *dev_result(const dev_problem *d) {
    const size_t bytes = d->p.batch * d->p.c_len * d->es;
    void *r = malloc(bytes);
    assert_non_null(r);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(r, d->c, bytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    return r;
}

static void dev_free(dev_problem *d) {
    assert_int_equal(trnsciFree(d->a), trnsciSuccess);
    assert_int_equal(trnsciFree(d->b), trnsciSuccess);
    assert_int_equal(trnsciFree(d->c), trnsciSuccess);
    gref_free(&d->p);
}

static trnblasStatus_t gemm_ex(trnblasHandle_t h, dev_problem *d, trnblasComputeType_t ct) {
    const gref_problem *p = &d->p;
    const trnsciDataType_t t = data_type(p);
    float af[2] = {(float)p->alpha[0], (float)p->alpha[1]};
    float bf[2] = {(float)p->beta[0], (float)p->beta[1]};
    const void *alpha = p->f32 ? (const void *)af : (const void *)p->alpha;
    const void *beta = p->f32 ? (const void *)bf : (const void *)p->beta;
    return trnblasGemmEx(h, op_of(p->ta), op_of(p->tb), p->m, p->n, p->k, alpha, d->a, t, p->lda,
                         d->b, t, p->ldb, beta, d->c, t, p->ldc, ct, TRNBLAS_GEMM_DEFAULT);
}

/* ---- GemmEx: every compute type ---------------------------------------------- */

static void test_gemm_ex_modes(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    const struct {
        int f32;
        trnblasComputeType_t ct;
        gref_mode mode;
    } cases[] = {
        {1, TRNBLAS_COMPUTE_32F, GREF_32F},
        {1, TRNBLAS_COMPUTE_32F_PEDANTIC, GREF_32F},
        {1, TRNBLAS_COMPUTE_32F_FAST_16BF, GREF_FAST_16BF},
        {1, TRNBLAS_COMPUTE_32F_FAST_TF32, GREF_FAST_TF32},
        {1, TRNBLAS_COMPUTE_32F_FAST_16F, GREF_FAST_16F},
        {1, TRNBLAS_COMPUTE_32F_BF16X3, GREF_BF16X3},
        {1, TRNBLAS_COMPUTE_32F_EMULATED_16BFX9, GREF_BF16X9},
        {0, TRNBLAS_COMPUTE_64F, GREF_64F},
        {0, TRNBLAS_COMPUTE_64F_PEDANTIC, GREF_64F},
        {0, TRNBLAS_COMPUTE_64F_EMULATED, GREF_64F_EMULATED},
    };
    const char tr[][2] = {{'N', 'N'}, {'T', 'N'}, {'N', 'T'}, {'C', 'T'}};
    for (size_t ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ci++)
        for (int comps = 1; comps <= 2; comps++) {
            const size_t t = (ci + (size_t)comps) % 4;
            if (comps == 1 && tr[t][0] == 'C')
                continue;
            dev_problem d;
            dev_init(&d, comps, cases[ci].f32, tr[t][0], tr[t][1], 23, 61, 37, 1,
                     cases[ci].mode == GREF_FAST_16F ? GREF_FILL_HALFWIDE : GREF_FILL_CANCEL);
            assert_int_equal(gemm_ex(h, &d, cases[ci].ct), TRNBLAS_STATUS_SUCCESS);
            dev_check(&d, cases[ci].mode, 0);
            dev_free(&d);
        }
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* ---- batches ------------------------------------------------------------------- */

/* A device array of the batch's matrix pointers of operand x (one matrix
 * every len elements), listed in reverse order. */
static void *pointer_array(void *x, size_t len, size_t es, size_t batch, int reverse, void **host) {
    for (size_t i = 0; i < batch; i++)
        host[i] = (char *)x + (reverse ? batch - 1 - i : i) * len * es;
    return upload(host, batch * sizeof(void *));
}

static void test_batches(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    for (int type = 0; type < 4; type++) {
        const int comps = type >= 2 ? 2 : 1, f32 = type % 2 == 0;
        const gref_mode mode = f32 ? GREF_32F : GREF_64F;
        dev_problem d;
        dev_init(&d, comps, f32, 'T', comps == 2 ? 'C' : 'N', 19, 40, 21, 5, GREF_FILL_UNIFORM);
        const gref_problem *p = &d.p;
        const trnblasOperation_t ta = op_of(p->ta), tb = op_of(p->tb);
        const long long sa = (long long)p->a_len, sb = (long long)p->b_len,
                        sc = (long long)p->c_len;
        const float af[2] = {(float)p->alpha[0], (float)p->alpha[1]};
        const float bf[2] = {(float)p->beta[0], (float)p->beta[1]};
        trnblasStatus_t st;
        switch (type) {
        case 0:
            st = trnblasSgemmStridedBatched(h, ta, tb, p->m, p->n, p->k, af, d.a, p->lda, sa, d.b,
                                            p->ldb, sb, bf, d.c, p->ldc, sc, (int)p->batch);
            break;
        case 1:
            st = trnblasDgemmStridedBatched(h, ta, tb, p->m, p->n, p->k, p->alpha, d.a, p->lda, sa,
                                            d.b, p->ldb, sb, p->beta, d.c, p->ldc, sc,
                                            (int)p->batch);
            break;
        case 2:
            st = trnblasCgemmStridedBatched(h, ta, tb, p->m, p->n, p->k, (const trnComplex *)af,
                                            d.a, p->lda, sa, d.b, p->ldb, sb,
                                            (const trnComplex *)bf, d.c, p->ldc, sc, (int)p->batch);
            break;
        default:
            st = trnblasZgemmStridedBatched(
                h, ta, tb, p->m, p->n, p->k, (const trnDoubleComplex *)p->alpha, d.a, p->lda, sa,
                d.b, p->ldb, sb, (const trnDoubleComplex *)p->beta, d.c, p->ldc, sc, (int)p->batch);
            break;
        }
        assert_int_equal(st, TRNBLAS_STATUS_SUCCESS);
        dev_check(&d, mode, 0);

        /* The same products from pointer arrays that list the matrices in
         * reverse order (the pairing A_i, B_i, C_i is kept). */
        dev_reset_c(&d);
        void *ha[5], *hb[5], *hc[5];
        void *pa = pointer_array(d.a, p->a_len, d.es, p->batch, 1, ha);
        void *pb = pointer_array(d.b, p->b_len, d.es, p->batch, 1, hb);
        void *pc = pointer_array(d.c, p->c_len, d.es, p->batch, 1, hc);
        switch (type) {
        case 0:
            st = trnblasSgemmBatched(h, ta, tb, p->m, p->n, p->k, af, pa, p->lda, pb, p->ldb, bf,
                                     pc, p->ldc, (int)p->batch);
            break;
        case 1:
            st = trnblasDgemmBatched(h, ta, tb, p->m, p->n, p->k, p->alpha, pa, p->lda, pb, p->ldb,
                                     p->beta, pc, p->ldc, (int)p->batch);
            break;
        case 2:
            st =
                trnblasCgemmBatched(h, ta, tb, p->m, p->n, p->k, (const trnComplex *)af, pa, p->lda,
                                    pb, p->ldb, (const trnComplex *)bf, pc, p->ldc, (int)p->batch);
            break;
        default:
            st = trnblasZgemmBatched(h, ta, tb, p->m, p->n, p->k,
                                     (const trnDoubleComplex *)p->alpha, pa, p->lda, pb, p->ldb,
                                     (const trnDoubleComplex *)p->beta, pc, p->ldc, (int)p->batch);
            break;
        }
        assert_int_equal(st, TRNBLAS_STATUS_SUCCESS);
        dev_check(&d, mode, 0);

        /* The Ex forms with a precision mode. */
        dev_reset_c(&d);
        const trnsciDataType_t t = data_type(p);
        const void *alpha = f32 ? (const void *)af : (const void *)p->alpha;
        const void *beta = f32 ? (const void *)bf : (const void *)p->beta;
        st = trnblasGemmStridedBatchedEx(
            h, ta, tb, p->m, p->n, p->k, alpha, d.a, t, p->lda, sa, d.b, t, p->ldb, sb, beta, d.c,
            t, p->ldc, sc, (int)p->batch,
            f32 ? TRNBLAS_COMPUTE_32F_FAST_16BF : TRNBLAS_COMPUTE_64F_EMULATED,
            TRNBLAS_GEMM_DEFAULT_TENSOR_OP);
        assert_int_equal(st, TRNBLAS_STATUS_SUCCESS);
        dev_check(&d, f32 ? GREF_FAST_16BF : GREF_64F_EMULATED, 0);
        dev_reset_c(&d);
        st = trnblasGemmBatchedEx(
            h, ta, tb, p->m, p->n, p->k, alpha, (const void *const *)pa, t, p->lda,
            (const void *const *)pb, t, p->ldb, beta, (void *const *)pc, t, p->ldc, (int)p->batch,
            f32 ? TRNBLAS_COMPUTE_32F_BF16X3 : TRNBLAS_COMPUTE_64F, TRNBLAS_GEMM_ALGO5);
        assert_int_equal(st, TRNBLAS_STATUS_SUCCESS);
        dev_check(&d, f32 ? GREF_BF16X3 : GREF_64F, 0);
        assert_int_equal(trnsciFree(pa), trnsciSuccess);
        assert_int_equal(trnsciFree(pb), trnsciSuccess);
        assert_int_equal(trnsciFree(pc), trnsciSuccess);
        dev_free(&d);
    }
    /* Stride 0: one B for every product, checked against a problem whose
     * B matrices are all copies of the first. */
    dev_problem d;
    dev_init(&d, 1, 0, 'N', 'N', 12, 30, 9, 3, GREF_FILL_UNIFORM);
    gref_problem *p = &d.p;
    for (size_t i = 1; i < p->batch; i++)
        memcpy((double *)p->b + i * p->b_len, p->b, p->b_len * sizeof(double));
    assert_int_equal(trnblasDgemmStridedBatched(h, TRNBLAS_OP_N, TRNBLAS_OP_N, p->m, p->n, p->k,
                                                p->alpha, d.a, p->lda, (long long)p->a_len, d.b,
                                                p->ldb, 0, p->beta, d.c, p->ldc,
                                                (long long)p->c_len, (int)p->batch),
                     TRNBLAS_STATUS_SUCCESS);
    dev_check(&d, GREF_64F, 0);
    dev_free(&d);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* ---- math modes, stochastic rounding, device scalars --------------------------- */

/* C after `run` on problem d, from its initial values. */
typedef trnblasStatus_t (*gemm_fn)(trnblasHandle_t h, dev_problem *d);

static void *result_of(trnblasHandle_t h, dev_problem *d, gemm_fn run) {
    dev_reset_c(d);
    assert_int_equal(run(h, d), TRNBLAS_STATUS_SUCCESS);
    return dev_result(d);
}

static trnblasStatus_t legacy(trnblasHandle_t h, dev_problem *d) {
    const gref_problem *p = &d->p;
    const trnblasOperation_t ta = op_of(p->ta), tb = op_of(p->tb);
    const float af[2] = {(float)p->alpha[0], (float)p->alpha[1]};
    const float bf[2] = {(float)p->beta[0], (float)p->beta[1]};
    if (p->comps == 1 && p->f32)
        return trnblasSgemm(h, ta, tb, p->m, p->n, p->k, af, d->a, p->lda, d->b, p->ldb, bf, d->c,
                            p->ldc);
    if (p->comps == 1)
        return trnblasDgemm(h, ta, tb, p->m, p->n, p->k, p->alpha, d->a, p->lda, d->b, p->ldb,
                            p->beta, d->c, p->ldc);
    if (p->f32)
        return trnblasCgemm(h, ta, tb, p->m, p->n, p->k, (const trnComplex *)af, d->a, p->lda, d->b,
                            p->ldb, (const trnComplex *)bf, d->c, p->ldc);
    return trnblasZgemm(h, ta, tb, p->m, p->n, p->k, (const trnDoubleComplex *)p->alpha, d->a,
                        p->lda, d->b, p->ldb, (const trnDoubleComplex *)p->beta, d->c, p->ldc);
}

static trnblasComputeType_t ex_ct;
static trnblasStatus_t ex(trnblasHandle_t h, dev_problem *d) {
    return gemm_ex(h, d, ex_ct);
}

/* Whether `run` under math mode `math` computes what GemmEx with ct does. */
static void same_as(trnblasHandle_t h, dev_problem *d, trnblasMath_t math, gemm_fn run,
                    trnblasComputeType_t ct) {
    assert_int_equal(trnblasSetMathMode(h, math), TRNBLAS_STATUS_SUCCESS);
    void *got = result_of(h, d, run);
    assert_int_equal(trnblasSetMathMode(h, TRNBLAS_DEFAULT_MATH), TRNBLAS_STATUS_SUCCESS);
    ex_ct = ct;
    void *want = result_of(h, d, ex);
    assert_memory_equal(got, want, d->p.batch * d->p.c_len * d->es);
    free(got);
    free(want);
}

static void test_math_modes(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    dev_problem s, c, z, dd;
    dev_init(&s, 1, 1, 'N', 'T', 30, 50, 40, 1, GREF_FILL_UNIFORM);
    dev_init(&c, 2, 1, 'C', 'N', 30, 50, 40, 1, GREF_FILL_UNIFORM);
    dev_init(&dd, 1, 0, 'T', 'T', 30, 50, 40, 1, GREF_FILL_SCALED);
    dev_init(&z, 2, 0, 'N', 'C', 30, 50, 40, 1, GREF_FILL_UNIFORM);
    same_as(h, &s, TRNBLAS_TF32_TENSOR_OP_MATH, legacy, TRNBLAS_COMPUTE_32F_FAST_TF32);
    same_as(h, &c, TRNBLAS_FP32_EMULATED_BF16X9_MATH, legacy, TRNBLAS_COMPUTE_32F_EMULATED_16BFX9);
    same_as(h, &dd, TRNBLAS_FP64_EMULATED_FIXEDPOINT_MATH, legacy,
            TRNBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT);
    same_as(h, &z, TRNBLAS_FP64_EMULATED_FIXEDPOINT_MATH | TRNBLAS_COMPENSATED_REDUCTION_MATH,
            legacy, TRNBLAS_COMPUTE_64F_EMULATED);
    /* COMPUTE_32F follows the math mode; the PEDANTIC type does not. */
    ex_ct = TRNBLAS_COMPUTE_32F;
    same_as(h, &s, TRNBLAS_TF32_TENSOR_OP_MATH, ex, TRNBLAS_COMPUTE_32F_FAST_TF32);
    ex_ct = TRNBLAS_COMPUTE_32F_PEDANTIC;
    same_as(h, &s, TRNBLAS_TF32_TENSOR_OP_MATH, ex, TRNBLAS_COMPUTE_32F);
    /* PEDANTIC_MATH keeps DGEMM even with the emulation flag. */
    same_as(h, &dd, TRNBLAS_PEDANTIC_MATH | TRNBLAS_FP64_EMULATED_FIXEDPOINT_MATH, legacy,
            TRNBLAS_COMPUTE_64F);
    /* The modes really differ from plain FP32 here. */
    void *plain = result_of(h, &s, legacy);
    assert_int_equal(trnblasSetMathMode(h, TRNBLAS_TF32_TENSOR_OP_MATH), TRNBLAS_STATUS_SUCCESS);
    void *tf32 = result_of(h, &s, legacy);
    assert_memory_not_equal(plain, tf32, s.p.c_len * s.es);
    free(plain);
    free(tf32);

    /* Stochastic rounding: reproducible from the seed, another seed gives
     * other bits, and the result keeps the stochastic bound. */
    assert_int_equal(trnblasSetMathMode(h, TRNBLAS_STOCHASTIC_ROUNDING_MATH),
                     TRNBLAS_STATUS_SUCCESS);
    trnblasMath_t m;
    assert_int_equal(trnblasGetMathMode(h, &m), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(m, TRNBLAS_STOCHASTIC_ROUNDING_MATH);
    assert_int_equal(trnblasSetStochasticRoundingSeed(h, 2024), TRNBLAS_STATUS_SUCCESS);
    unsigned long long seed = 0;
    assert_int_equal(trnblasGetStochasticRoundingSeed(h, &seed), TRNBLAS_STATUS_SUCCESS);
    assert_true(seed == 2024);
    ex_ct = TRNBLAS_COMPUTE_32F_FAST_16BF;
    void *r1 = result_of(h, &c, ex), *r2 = result_of(h, &c, ex);
    assert_memory_equal(r1, r2, c.p.c_len * c.es);
    dev_check(&c, GREF_FAST_16BF, 1);
    assert_int_equal(trnblasSetStochasticRoundingSeed(h, 2025), TRNBLAS_STATUS_SUCCESS);
    void *r3 = result_of(h, &c, ex);
    assert_memory_not_equal(r1, r3, c.p.c_len * c.es);
    assert_int_equal(trnblasSetMathMode(h, TRNBLAS_DEFAULT_MATH), TRNBLAS_STATUS_SUCCESS);
    void *rn = result_of(h, &c, ex);
    assert_memory_not_equal(r1, rn, c.p.c_len * c.es);
    free(r1);
    free(r2);
    free(r3);
    free(rn);

    /* Device pointer mode: alpha and beta from device memory give the host
     * mode's bits. */
    void *host_mode = result_of(h, &dd, legacy);
    void *scal = upload(dd.p.alpha, 2 * sizeof(double));
    void *scal_b = upload(dd.p.beta, 2 * sizeof(double));
    assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_DEVICE), TRNBLAS_STATUS_SUCCESS);
    dev_reset_c(&dd);
    const gref_problem *p = &dd.p;
    assert_int_equal(trnblasDgemm(h, op_of(p->ta), op_of(p->tb), p->m, p->n, p->k, scal, dd.a,
                                  p->lda, dd.b, p->ldb, scal_b, dd.c, p->ldc),
                     TRNBLAS_STATUS_SUCCESS);
    void *dev_mode = dev_result(&dd);
    assert_memory_equal(host_mode, dev_mode, p->c_len * dd.es);
    assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_HOST), TRNBLAS_STATUS_SUCCESS);
    free(host_mode);
    free(dev_mode);
    assert_int_equal(trnsciFree(scal), trnsciSuccess);
    assert_int_equal(trnsciFree(scal_b), trnsciSuccess);
    dev_free(&s);
    dev_free(&c);
    dev_free(&z);
    dev_free(&dd);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* Ogita, Rump and Oishi's Dot2 in float, written from their paper, in the
 * sequential order blas1_compensated.c documents: what the compensated
 * sdot must return bit for bit. */
static float dot2_reference(int n, const float *x, const float *y) {
    float s = 0, c = 0;
    for (int i = 0; i < n; i++) {
        const float p = x[i] * y[i], pe = fmaf(x[i], y[i], -p);
        const float t = s + p, z = t - s, se = (s - (t - z)) + (p - z);
        s = t;
        c += se + pe;
    }
    return s + c;
}

/* TRNBLAS_COMPENSATED_REDUCTION_MATH: sdot where every partial sum carries
 * +-2^24 (so a plain FP32 sum rounds the small terms to multiples of 2)
 * that cancels at the end. */
static void test_compensated_dot(void **state) {
    (void)state;
    enum { N = 2000, BIG = 64 };
    float x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)ldexp(gref_rng_unit(), (int)(gref_rng_next() % 8) - 4);
        y[i] = (float)gref_rng_unit();
    }
    for (int i = 0; i < BIG; i++) {
        x[i] = 0x1p24f;
        y[i] = 1.0f;
        x[N - BIG + i] = -0x1p24f;
        y[N - BIG + i] = 1.0f;
    }
    __float128 exact = 0;
    double mag = 0;
    for (int i = 0; i < N; i++) {
        exact += (__float128)x[i] * (__float128)y[i];
        mag += fabs((double)x[i] * (double)y[i]);
    }
    const double u = 0x1p-24, g = gref_gamma(N, u);
    const double bound = u * fabs((double)exact) + g * g * mag;
    void *dx = upload(x, sizeof(x)), *dy = upload(y, sizeof(y));
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    float comp = 0;
    assert_int_equal(trnblasSetMathMode(h, TRNBLAS_COMPENSATED_REDUCTION_MATH),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSdot(h, N, dx, 1, dy, 1, &comp), TRNBLAS_STATUS_SUCCESS);
    assert_true(fabs((double)comp - (double)exact) <= bound);
    const float want = dot2_reference(N, x, y);
    assert_memory_equal(&comp, &want, sizeof(comp));
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciFree(dx), trnsciSuccess);
    assert_int_equal(trnsciFree(dy), trnsciSuccess);
}

/* ---- bad input ------------------------------------------------------------------ */

static void expect(trnblasStatus_t got, trnblasStatus_t want, const char *needle) {
    assert_int_equal(got, want);
    if (needle && !strstr(trnsciGetLastErrorMessage(), needle))
        fail_msg("message \"%s\" does not name \"%s\"", trnsciGetLastErrorMessage(), needle);
}

static void test_bad_input(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    float *a, *c;
    assert_int_equal(trnsciMalloc((void **)&a, 64 * sizeof(float)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&c, 64 * sizeof(float)), trnsciSuccess);
    const float one = 1, zero = 0;
    const double done = 1;
    /* batchCount. */
    expect(trnblasSgemmStridedBatched(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, a, 2, 4, a, 2,
                                      4, &zero, c, 2, 4, -1),
           TRNBLAS_STATUS_INVALID_VALUE, "batchCount=-1");
    expect(trnblasSgemmStridedBatched(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, a, 2, 4, a, 2,
                                      4, &zero, c, 2, 4, 0),
           TRNBLAS_STATUS_SUCCESS, NULL);
    /* Overlapping C matrices (stride 2 < one 2x2 matrix), and a negative stride. */
    expect(trnblasSgemmStridedBatched(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, a, 2, 4, a, 2,
                                      4, &zero, c, 2, 2, 3),
           TRNBLAS_STATUS_INVALID_VALUE, "overlap");
    expect(trnblasSgemmStridedBatched(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, a, 2, -4, a, 2,
                                      4, &zero, c, 2, 4, 3),
           TRNBLAS_STATUS_INVALID_VALUE, "stride_a=-4");
    /* The batch runs past the allocation. */
    expect(trnblasSgemmStridedBatched(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, a, 2, 4, a, 2,
                                      4, &zero, c, 2, 4, 17),
           TRNBLAS_STATUS_INVALID_VALUE, "gemm: A");
    /* GemmEx types and compute types. */
    expect(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, a, TRNSCI_R_32F, 2, a,
                         TRNSCI_R_32F, 2, &zero, c, TRNSCI_R_64F, 2, TRNBLAS_COMPUTE_32F,
                         TRNBLAS_GEMM_DEFAULT),
           TRNBLAS_STATUS_NOT_SUPPORTED, "Ctype");
    /* bfloat16 storage takes COMPUTE_32F only (test_gemm_half.c has the rest). */
    expect(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, a, TRNSCI_R_16BF, 2, a,
                         TRNSCI_R_16BF, 2, &zero, c, TRNSCI_R_16BF, 2, TRNBLAS_COMPUTE_16F,
                         TRNBLAS_GEMM_DEFAULT),
           TRNBLAS_STATUS_NOT_SUPPORTED, "Atype");
    expect(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, a, TRNSCI_R_32F, 2, a,
                         TRNSCI_R_32F, 2, &zero, c, TRNSCI_R_32F, 2, TRNBLAS_COMPUTE_64F,
                         TRNBLAS_GEMM_DEFAULT),
           TRNBLAS_STATUS_NOT_SUPPORTED, "computeType 70");
    expect(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &done, a, TRNSCI_R_64F, 2, a,
                         TRNSCI_R_64F, 2, &done, c, TRNSCI_R_64F, 2, TRNBLAS_COMPUTE_32F_FAST_16BF,
                         TRNBLAS_GEMM_DEFAULT),
           TRNBLAS_STATUS_NOT_SUPPORTED, "computeType 75");
    expect(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, a, TRNSCI_R_32F, 2, a,
                         TRNSCI_R_32F, 2, &zero, c, TRNSCI_R_32F, 2, TRNBLAS_COMPUTE_16F,
                         TRNBLAS_GEMM_DEFAULT),
           TRNBLAS_STATUS_NOT_SUPPORTED, "computeType 64");
    expect(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, a, TRNSCI_R_32F, 2, a,
                         TRNSCI_R_32F, 2, &zero, c, TRNSCI_R_32F, 2, TRNBLAS_COMPUTE_32F,
                         (trnblasGemmAlgo_t)50),
           TRNBLAS_STATUS_INVALID_VALUE, "algo 50");
    expect(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, a, TRNSCI_R_32F, 1, a,
                         TRNSCI_R_32F, 2, &zero, c, TRNSCI_R_32F, 2, TRNBLAS_COMPUTE_32F,
                         TRNBLAS_GEMM_DEFAULT),
           TRNBLAS_STATUS_INVALID_VALUE, "lda=1");
    /* Pointer arrays: host memory, too short, a freed matrix. */
    const float *host_list[2] = {a, a};
    float *host_c[2] = {c, c + 8};
    expect(trnblasSgemmBatched(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, host_list, 2,
                               host_list, 2, &zero, host_c, 2, 2),
           TRNBLAS_STATUS_INVALID_VALUE, "Aarray");
    void *dl = upload(host_list, sizeof(host_list));
    void *dc = upload(host_c, sizeof(host_c));
    expect(trnblasSgemmBatched(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, dl, 2, dl, 2, &zero,
                               dc, 2, 3),
           TRNBLAS_STATUS_INVALID_VALUE, "3 pointers need 24 bytes");
    expect(trnblasSgemmBatched(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, dl, 2, dl, 2, &zero,
                               dc, 2, 2),
           TRNBLAS_STATUS_SUCCESS, NULL);
    float *gone;
    assert_int_equal(trnsciMalloc((void **)&gone, 64), trnsciSuccess);
    float *with_gone[2] = {c, gone};
    void *dg = upload(with_gone, sizeof(with_gone));
    assert_int_equal(trnsciFree(gone), trnsciSuccess);
    expect(trnblasSgemmBatched(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, dl, 2, dl, 2, &zero,
                               dg, 2, 2),
           TRNBLAS_STATUS_INVALID_VALUE, "Carray[1]");
    /* Two entries naming the same C: the daemon refuses the overlap. */
    float *same[2] = {c, c};
    void *ds = upload(same, sizeof(same));
    expect(trnblasSgemmBatched(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, dl, 2, dl, 2, &zero,
                               ds, 2, 2),
           TRNBLAS_STATUS_INVALID_VALUE, "overlap");
    /* Math modes. */
    expect(trnblasSetMathMode(h, (trnblasMath_t)5), TRNBLAS_STATUS_INVALID_VALUE, "math mode");
    expect(trnblasSetMathMode(h, (trnblasMath_t)0x400), TRNBLAS_STATUS_INVALID_VALUE, "math mode");
    expect(trnblasGetMathMode(h, NULL), TRNBLAS_STATUS_INVALID_VALUE, "NULL");
    /* NULL scalars and handle. */
    expect(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, NULL, a, TRNSCI_R_32F, 2, a,
                         TRNSCI_R_32F, 2, &zero, c, TRNSCI_R_32F, 2, TRNBLAS_COMPUTE_32F,
                         TRNBLAS_GEMM_DEFAULT),
           TRNBLAS_STATUS_INVALID_VALUE, "alpha or beta is NULL");
    expect(trnblasSgemmBatched(NULL, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, dl, 2, dl, 2, &zero,
                               dc, 2, 2),
           TRNBLAS_STATUS_NOT_INITIALIZED, NULL);
    /* The daemon is still there and the good call above ran. */
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    void *lists[] = {dl, dc, dg, ds};
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(trnsciFree(lists[i]), trnsciSuccess);
    assert_int_equal(trnsciFree(a), trnsciSuccess);
    assert_int_equal(trnsciFree(c), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

static int connect_unix(void **state) {
    (void)state;
    return trnsciInit(daemon_under_test.unix_addr) == trnsciSuccess ? 0 : -1;
}

static int connect_tcp(void **state) {
    (void)state;
    return trnsciInit(daemon_under_test.tcp_addr) == trnsciSuccess ? 0 : -1;
}

static int disconnect(void **state) {
    (void)state;
    trnsciDeviceReset();
    return th_wait_daemon_idle(daemon_under_test.unix_addr, 5000);
}

int main(void) {
    const char *const args[] = {"--cores", "2", NULL};
    if (th_daemon_start(&daemon_under_test, args) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemm_ex_modes), cmocka_unit_test(test_batches),
        cmocka_unit_test(test_math_modes),    cmocka_unit_test(test_compensated_dot),
        cmocka_unit_test(test_bad_input),
    };
    int failed = cmocka_run_group_tests_name("gemm family over unix socket", tests, connect_unix,
                                             disconnect);
    failed += cmocka_run_group_tests_name("gemm family over tcp", tests, connect_tcp, disconnect);
    failed += th_daemon_stop_checked(&daemon_under_test, "trnscid");
    return failed ? 1 : 0;
}
