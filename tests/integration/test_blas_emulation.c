/*
 * test_blas_emulation.c — trnblas's floating-point emulation controls
 * (cuBLAS 13: emulation strategy, special values support, fixed-point
 * mantissa control, maximum bit count, bit offset, bit count pointer)
 * through a real trnscid (2 cores), over the local transport and gRPC over
 * TCP.
 *
 * Checked: defaults and round trips of every setter/getter; the statuses
 * cuBLAS gives for bad values, NULL outputs and a NULL handle; with the
 * EAGER strategy, an SGEMM under FP32_EMULATED_BF16X9_MATH meets the BF16x9
 * bound and a DGEMM under FP64_EMULATED_FIXEDPOINT_MATH the emulated-FP64
 * bound against long-double references (tests/common/gemm_reference.h),
 * both bitwise equal to GemmEx with the emulated compute type and different
 * from the unemulated and FAST_16BF results, and the same under DEFAULT and
 * PERFORMANT (no strategy changes a compute type); the mantissa settings leave
 * the FP64 result unchanged; the bit count pointer receives
 * TRNBLAS_EMULATION_FIXEDPOINT_MANTISSA_BITS after FP64-emulated GEMMs only;
 * a mantissa bit offset with FIXED control fails FP64-emulated GEMMs only.
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

#include "../common/gemm_reference.h"

static th_daemon daemon_under_test;

/* ---- a real problem in device memory ------------------------------------------ */

typedef struct dev_problem {
    gref_problem p;
    void *a, *b, *c;
    size_t bytes_c;
} dev_problem;

static void *upload(const void *host, size_t bytes) {
    void *d = NULL;
    assert_int_equal(trnsciMalloc(&d, bytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(d, host, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    return d;
}

static void dev_init(dev_problem *d, int f32, gref_fill how) {
    gref_init(&d->p, 1, f32, 'N', 'T', 30, 50, 40, 1, how);
    const size_t es = gref_real_size(&d->p);
    d->a = upload(d->p.a, d->p.a_len * es);
    d->b = upload(d->p.b, d->p.b_len * es);
    d->c = upload(d->p.c0, d->p.c_len * es);
    d->bytes_c = d->p.c_len * es;
}

static void dev_free(dev_problem *d) {
    assert_int_equal(trnsciFree(d->a), trnsciSuccess);
    assert_int_equal(trnsciFree(d->b), trnsciSuccess);
    assert_int_equal(trnsciFree(d->c), trnsciSuccess);
    gref_free(&d->p);
}

/* C back to its initial values. */
static void dev_reset_c(dev_problem *d) {
    assert_int_equal(trnsciMemcpy(d->c, d->p.c0, d->bytes_c, trnsciMemcpyHostToDevice),
                     trnsciSuccess);
}

/* The legacy routine (Sgemm or Dgemm) on a reset C. */
static trnblasStatus_t legacy(trnblasHandle_t h, dev_problem *d) {
    const gref_problem *p = &d->p;
    dev_reset_c(d);
    if (p->f32) {
        const float af = (float)p->alpha[0], bf = (float)p->beta[0];
        return trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_T, p->m, p->n, p->k, &af, d->a, p->lda,
                            d->b, p->ldb, &bf, d->c, p->ldc);
    }
    return trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_T, p->m, p->n, p->k, &p->alpha[0], d->a, p->lda,
                        d->b, p->ldb, &p->beta[0], d->c, p->ldc);
}

/* GemmEx with compute type ct on a reset C. */
static trnblasStatus_t gemm_ex(trnblasHandle_t h, dev_problem *d, trnblasComputeType_t ct) {
    const gref_problem *p = &d->p;
    const trnsciDataType_t t = p->f32 ? TRNSCI_R_32F : TRNSCI_R_64F;
    const float af = (float)p->alpha[0], bf = (float)p->beta[0];
    const void *alpha = p->f32 ? (const void *)&af : (const void *)&p->alpha[0];
    const void *beta = p->f32 ? (const void *)&bf : (const void *)&p->beta[0];
    dev_reset_c(d);
    return trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_T, p->m, p->n, p->k, alpha, d->a, t, p->lda,
                         d->b, t, p->ldb, beta, d->c, t, p->ldc, ct, TRNBLAS_GEMM_DEFAULT);
}

/* C as it is now, in a fresh host array. */
static void *dev_result(const dev_problem *d) {
    void *r = malloc(d->bytes_c);
    assert_non_null(r);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(r, d->c, d->bytes_c, trnsciMemcpyDeviceToHost), trnsciSuccess);
    return r;
}

/* The device int *p. */
static int dev_int(const int *p) {
    int v = 0;
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(&v, p, sizeof(v), trnsciMemcpyDeviceToHost), trnsciSuccess);
    return v;
}

/* ---- settings ------------------------------------------------------------------ */

static void test_settings(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);

    /* cuBLAS's defaults. */
    trnblasEmulationStrategy_t st = (trnblasEmulationStrategy_t)-1;
    trnsciEmulationSpecialValuesSupport sv = TRNSCI_EMULATION_SPECIAL_VALUES_SUPPORT_NONE;
    trnsciEmulationMantissaControl mc = TRNSCI_EMULATION_MANTISSA_CONTROL_FIXED;
    int bits = -1, off = -1, sentinel = 0;
    int *ptr = &sentinel;
    assert_int_equal(trnblasGetEmulationStrategy(h, &st), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(st, TRNBLAS_EMULATION_STRATEGY_DEFAULT);
    assert_int_equal(trnblasGetEmulationSpecialValuesSupport(h, &sv), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(sv, TRNSCI_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT);
    assert_int_equal(trnblasGetFixedPointEmulationMantissaControl(h, &mc), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(mc, TRNSCI_EMULATION_MANTISSA_CONTROL_DYNAMIC);
    assert_int_equal(trnblasGetFixedPointEmulationMaxMantissaBitCount(h, &bits),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(bits, 0);
    assert_int_equal(trnblasGetFixedPointEmulationMantissaBitOffset(h, &off),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(off, 0);
    assert_int_equal(trnblasGetFixedPointEmulationMantissaBitCountPointer(h, &ptr),
                     TRNBLAS_STATUS_SUCCESS);
    assert_null(ptr);

    /* Round trips. */
    const trnblasEmulationStrategy_t strategies[] = {TRNBLAS_EMULATION_STRATEGY_PERFORMANT,
                                                     TRNBLAS_EMULATION_STRATEGY_EAGER,
                                                     TRNBLAS_EMULATION_STRATEGY_DEFAULT};
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(trnblasSetEmulationStrategy(h, strategies[i]), TRNBLAS_STATUS_SUCCESS);
        assert_int_equal(trnblasGetEmulationStrategy(h, &st), TRNBLAS_STATUS_SUCCESS);
        assert_int_equal(st, strategies[i]);
    }
    const int masks[] = {TRNSCI_EMULATION_SPECIAL_VALUES_SUPPORT_NONE,
                         TRNSCI_EMULATION_SPECIAL_VALUES_SUPPORT_INFINITY |
                             TRNSCI_EMULATION_SPECIAL_VALUES_SUPPORT_NAN,
                         TRNSCI_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT};
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(trnblasSetEmulationSpecialValuesSupport(
                             h, (trnsciEmulationSpecialValuesSupport)masks[i]),
                         TRNBLAS_STATUS_SUCCESS);
        assert_int_equal(trnblasGetEmulationSpecialValuesSupport(h, &sv), TRNBLAS_STATUS_SUCCESS);
        assert_int_equal(sv, masks[i]);
    }
    assert_int_equal(
        trnblasSetFixedPointEmulationMantissaControl(h, TRNSCI_EMULATION_MANTISSA_CONTROL_FIXED),
        TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasGetFixedPointEmulationMantissaControl(h, &mc), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(mc, TRNSCI_EMULATION_MANTISSA_CONTROL_FIXED);
    assert_int_equal(trnblasSetFixedPointEmulationMaxMantissaBitCount(h, 79),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasGetFixedPointEmulationMaxMantissaBitCount(h, &bits),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(bits, 79);
    assert_int_equal(trnblasSetFixedPointEmulationMantissaBitOffset(h, -16),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasGetFixedPointEmulationMantissaBitOffset(h, &off),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(off, -16);
    int *dev = NULL;
    assert_int_equal(trnsciMalloc((void **)&dev, sizeof(int)), trnsciSuccess);
    assert_int_equal(trnblasSetFixedPointEmulationMantissaBitCountPointer(h, dev),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasGetFixedPointEmulationMantissaBitCountPointer(h, &ptr),
                     TRNBLAS_STATUS_SUCCESS);
    assert_ptr_equal(ptr, dev);

    /* Bad values: INVALID_VALUE, and the setting is kept. */
    assert_int_equal(trnblasSetEmulationStrategy(h, (trnblasEmulationStrategy_t)3),
                     TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasSetEmulationStrategy(h, (trnblasEmulationStrategy_t)-1),
                     TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasGetEmulationStrategy(h, &st), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(st, TRNBLAS_EMULATION_STRATEGY_DEFAULT);
    assert_int_equal(
        trnblasSetFixedPointEmulationMantissaControl(h, (trnsciEmulationMantissaControl)2),
        TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasGetFixedPointEmulationMantissaControl(h, &mc), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(mc, TRNSCI_EMULATION_MANTISSA_CONTROL_FIXED);
    assert_int_equal(trnblasSetFixedPointEmulationMaxMantissaBitCount(h, -1),
                     TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasGetFixedPointEmulationMaxMantissaBitCount(h, &bits),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(bits, 79);
    /* 0 restores the default configuration. */
    assert_int_equal(trnblasSetFixedPointEmulationMaxMantissaBitCount(h, 0),
                     TRNBLAS_STATUS_SUCCESS);

    /* NULL outputs: INVALID_VALUE; a NULL handle: NOT_INITIALIZED. */
    assert_int_equal(trnblasGetEmulationStrategy(h, NULL), TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasGetEmulationSpecialValuesSupport(h, NULL),
                     TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasGetFixedPointEmulationMantissaControl(h, NULL),
                     TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasGetFixedPointEmulationMaxMantissaBitCount(h, NULL),
                     TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasGetFixedPointEmulationMantissaBitOffset(h, NULL),
                     TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasGetFixedPointEmulationMantissaBitCountPointer(h, NULL),
                     TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasSetEmulationStrategy(NULL, TRNBLAS_EMULATION_STRATEGY_EAGER),
                     TRNBLAS_STATUS_NOT_INITIALIZED);
    assert_int_equal(trnblasGetEmulationStrategy(NULL, &st), TRNBLAS_STATUS_NOT_INITIALIZED);
    assert_int_equal(
        trnblasSetEmulationSpecialValuesSupport(NULL, TRNSCI_EMULATION_SPECIAL_VALUES_SUPPORT_NONE),
        TRNBLAS_STATUS_NOT_INITIALIZED);
    assert_int_equal(
        trnblasSetFixedPointEmulationMantissaControl(NULL, TRNSCI_EMULATION_MANTISSA_CONTROL_FIXED),
        TRNBLAS_STATUS_NOT_INITIALIZED);
    assert_int_equal(trnblasSetFixedPointEmulationMaxMantissaBitCount(NULL, 1),
                     TRNBLAS_STATUS_NOT_INITIALIZED);
    assert_int_equal(trnblasSetFixedPointEmulationMantissaBitOffset(NULL, 1),
                     TRNBLAS_STATUS_NOT_INITIALIZED);
    assert_int_equal(trnblasSetFixedPointEmulationMantissaBitCountPointer(NULL, dev),
                     TRNBLAS_STATUS_NOT_INITIALIZED);
    assert_int_equal(trnblasGetFixedPointEmulationMantissaBitCountPointer(NULL, &ptr),
                     TRNBLAS_STATUS_NOT_INITIALIZED);

    /* Settings are per handle. */
    trnblasHandle_t h2;
    assert_int_equal(trnblasCreate(&h2), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasGetFixedPointEmulationMantissaBitOffset(h2, &off),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(off, 0);
    assert_int_equal(trnblasDestroy(h2), TRNBLAS_STATUS_SUCCESS);

    assert_int_equal(trnsciFree(dev), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* ---- EAGER: the emulated paths ------------------------------------------------ */

/* The legacy routine under `math` gives `want` under DEFAULT and PERFORMANT
 * too: no strategy changes the compute type (docs/rosetta.md). The handle
 * is left with EAGER. */
static void same_under_every_strategy(trnblasHandle_t h, dev_problem *d, trnblasMath_t math,
                                      const void *want) {
    const trnblasEmulationStrategy_t others[] = {TRNBLAS_EMULATION_STRATEGY_DEFAULT,
                                                 TRNBLAS_EMULATION_STRATEGY_PERFORMANT};
    assert_int_equal(trnblasSetMathMode(h, math), TRNBLAS_STATUS_SUCCESS);
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(trnblasSetEmulationStrategy(h, others[i]), TRNBLAS_STATUS_SUCCESS);
        assert_int_equal(legacy(h, d), TRNBLAS_STATUS_SUCCESS);
        void *got = dev_result(d);
        assert_memory_equal(got, want, d->bytes_c);
        free(got);
    }
    assert_int_equal(trnblasSetEmulationStrategy(h, TRNBLAS_EMULATION_STRATEGY_EAGER),
                     TRNBLAS_STATUS_SUCCESS);
}

/* With EAGER and the FP32 emulation math mode, Sgemm is the BF16x9 GEMM:
 * within its bound, bitwise GemmEx's COMPUTE_32F_EMULATED_16BFX9, and not
 * the unemulated or FAST_16BF results. */
static void test_eager_sgemm(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    dev_problem d;
    dev_init(&d, 1, GREF_FILL_CANCEL);

    assert_int_equal(trnblasSetEmulationStrategy(h, TRNBLAS_EMULATION_STRATEGY_EAGER),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSetMathMode(h, TRNBLAS_FP32_EMULATED_BF16X9_MATH),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(legacy(h, &d), TRNBLAS_STATUS_SUCCESS);
    void *got = dev_result(&d);
    memcpy(d.p.c, got, d.bytes_c);
    (void)gref_check(&d.p, GREF_BF16X9, 0);

    assert_int_equal(trnblasSetMathMode(h, TRNBLAS_DEFAULT_MATH), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(gemm_ex(h, &d, TRNBLAS_COMPUTE_32F_EMULATED_16BFX9), TRNBLAS_STATUS_SUCCESS);
    void *bf16x9 = dev_result(&d);
    assert_memory_equal(got, bf16x9, d.bytes_c);
    assert_int_equal(gemm_ex(h, &d, TRNBLAS_COMPUTE_32F_PEDANTIC), TRNBLAS_STATUS_SUCCESS);
    void *plain = dev_result(&d);
    assert_memory_not_equal(got, plain, d.bytes_c);
    assert_int_equal(gemm_ex(h, &d, TRNBLAS_COMPUTE_32F_FAST_16BF), TRNBLAS_STATUS_SUCCESS);
    void *fast = dev_result(&d);
    assert_memory_not_equal(got, fast, d.bytes_c);
    same_under_every_strategy(h, &d, TRNBLAS_FP32_EMULATED_BF16X9_MATH, got);
    free(got);
    free(bf16x9);
    free(plain);
    free(fast);

    /* COMPUTE_32F under the math mode is the same emulated GEMM. */
    assert_int_equal(trnblasSetMathMode(h, TRNBLAS_FP32_EMULATED_BF16X9_MATH),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(gemm_ex(h, &d, TRNBLAS_COMPUTE_32F), TRNBLAS_STATUS_SUCCESS);
    void *ex32 = dev_result(&d);
    memcpy(d.p.c, ex32, d.bytes_c);
    (void)gref_check(&d.p, GREF_BF16X9, 0);
    free(ex32);

    dev_free(&d);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* With EAGER and the FP64 emulation flag, Dgemm is the Ozaki GEMM: within
 * its bound, bitwise GemmEx's COMPUTE_64F_EMULATED_FIXEDPOINT, not DGEMM's
 * result, and unchanged by the mantissa settings. */
static void test_eager_dgemm(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    dev_problem d;
    dev_init(&d, 0, GREF_FILL_SCALED);

    assert_int_equal(trnblasSetEmulationStrategy(h, TRNBLAS_EMULATION_STRATEGY_EAGER),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSetMathMode(h, TRNBLAS_FP64_EMULATED_FIXEDPOINT_MATH),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(legacy(h, &d), TRNBLAS_STATUS_SUCCESS);
    void *got = dev_result(&d);
    memcpy(d.p.c, got, d.bytes_c);
    (void)gref_check(&d.p, GREF_64F_EMULATED, 0);

    assert_int_equal(trnblasSetMathMode(h, TRNBLAS_DEFAULT_MATH), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(gemm_ex(h, &d, TRNBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT),
                     TRNBLAS_STATUS_SUCCESS);
    void *emu = dev_result(&d);
    assert_memory_equal(got, emu, d.bytes_c);
    assert_int_equal(legacy(h, &d), TRNBLAS_STATUS_SUCCESS);
    void *native = dev_result(&d);
    assert_memory_not_equal(got, native, d.bytes_c);
    same_under_every_strategy(h, &d, TRNBLAS_FP64_EMULATED_FIXEDPOINT_MATH, got);
    free(emu);
    free(native);

    /* The mantissa settings are recorded; the result keeps its 56 bits. */
    assert_int_equal(trnblasSetMathMode(h, TRNBLAS_FP64_EMULATED_FIXEDPOINT_MATH),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(
        trnblasSetFixedPointEmulationMantissaControl(h, TRNSCI_EMULATION_MANTISSA_CONTROL_FIXED),
        TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSetFixedPointEmulationMaxMantissaBitCount(h, 20),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(legacy(h, &d), TRNBLAS_STATUS_SUCCESS);
    void *fixed = dev_result(&d);
    assert_memory_equal(got, fixed, d.bytes_c);
    free(fixed);
    free(got);

    dev_free(&d);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* ---- the bit count pointer and the offset rule ------------------------------- */

static void test_bit_count_pointer(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    trnsciStream_t s;
    assert_int_equal(trnsciStreamCreate(&s), trnsciSuccess);
    assert_int_equal(trnblasSetStream(h, s), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSetEmulationStrategy(h, TRNBLAS_EMULATION_STRATEGY_EAGER),
                     TRNBLAS_STATUS_SUCCESS);
    dev_problem d, sp;
    dev_init(&d, 0, GREF_FILL_UNIFORM);
    dev_init(&sp, 1, GREF_FILL_UNIFORM);
    int *bits = NULL;
    assert_int_equal(trnsciMalloc((void **)&bits, sizeof(int)), trnsciSuccess);
    assert_int_equal(trnsciMemset(bits, 0xff, sizeof(int)), trnsciSuccess);
    assert_int_equal(trnblasSetFixedPointEmulationMantissaBitCountPointer(h, bits),
                     TRNBLAS_STATUS_SUCCESS);

    /* Not FP64-emulated: untouched. */
    assert_int_equal(legacy(h, &d), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(dev_int(bits), -1);
    assert_int_equal(trnblasSetMathMode(h, TRNBLAS_FP32_EMULATED_BF16X9_MATH),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(legacy(h, &sp), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(legacy(h, &d), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(dev_int(bits), -1);

    /* FP64-emulated by the math mode, then by the compute type. */
    assert_int_equal(trnblasSetMathMode(h, TRNBLAS_FP64_EMULATED_FIXEDPOINT_MATH),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(legacy(h, &d), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(dev_int(bits), TRNBLAS_EMULATION_FIXEDPOINT_MANTISSA_BITS);
    assert_int_equal(TRNBLAS_EMULATION_FIXEDPOINT_MANTISSA_BITS, 56);
    assert_int_equal(trnblasSetMathMode(h, TRNBLAS_DEFAULT_MATH), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMemset(bits, 0xff, sizeof(int)), trnsciSuccess);
    assert_int_equal(gemm_ex(h, &d, TRNBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(dev_int(bits), 56);

    /* In stream order: the write follows the GEMM queued on s, after a
     * memset queued before it. */
    assert_int_equal(trnsciMemsetAsync(bits, 0, sizeof(int), s), trnsciSuccess);
    assert_int_equal(gemm_ex(h, &d, TRNBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciStreamSynchronize(s), trnsciSuccess);
    assert_int_equal(dev_int(bits), 56);

    /* A pointer outside device memory fails the GEMM that writes it. */
    int host_int = 0;
    assert_int_equal(trnblasSetFixedPointEmulationMantissaBitCountPointer(h, &host_int),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_not_equal(gemm_ex(h, &d, TRNBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT),
                         TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSetFixedPointEmulationMantissaBitCountPointer(h, NULL),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(gemm_ex(h, &d, TRNBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT),
                     TRNBLAS_STATUS_SUCCESS);

    /* A bit offset needs DYNAMIC control: FIXED fails FP64-emulated GEMMs
     * only, with INVALID_VALUE. */
    assert_int_equal(trnblasSetFixedPointEmulationMantissaBitOffset(h, -8), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(gemm_ex(h, &d, TRNBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(
        trnblasSetFixedPointEmulationMantissaControl(h, TRNSCI_EMULATION_MANTISSA_CONTROL_FIXED),
        TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(gemm_ex(h, &d, TRNBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT),
                     TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasSetMathMode(h, TRNBLAS_FP64_EMULATED_FIXEDPOINT_MATH),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(legacy(h, &d), TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(gemm_ex(h, &d, TRNBLAS_COMPUTE_64F_PEDANTIC), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(legacy(h, &sp), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSetFixedPointEmulationMantissaBitOffset(h, 0), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(legacy(h, &d), TRNBLAS_STATUS_SUCCESS);

    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnsciFree(bits), trnsciSuccess);
    dev_free(&d);
    dev_free(&sp);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciStreamDestroy(s), trnsciSuccess);
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
        cmocka_unit_test(test_settings),
        cmocka_unit_test(test_eager_sgemm),
        cmocka_unit_test(test_eager_dgemm),
        cmocka_unit_test(test_bit_count_pointer),
    };
    int failed = cmocka_run_group_tests_name("emulation controls over unix socket", tests,
                                             connect_unix, disconnect);
    failed +=
        cmocka_run_group_tests_name("emulation controls over tcp", tests, connect_tcp, disconnect);
    failed += th_daemon_stop_checked(&daemon_under_test, "trnscid");
    return failed ? 1 : 0;
}
