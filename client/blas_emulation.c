/*
 * blas_emulation.c — cuBLAS 13's floating-point emulation controls, per
 * handle: the emulation strategy, the special values support, and the
 * fixed-point (FP64) emulation's mantissa control, maximum mantissa bit
 * count, mantissa bit offset and mantissa bit count pointer.
 *
 * What they change in trnblas (docs/rosetta.md, "trnblas"):
 *  - The strategy changes no compute type. cuBLAS's PERFORMANT (and
 *    DEFAULT) emulate where a speed heuristic finds it pays, EAGER wherever
 *    the math mode or computeType allows it; trnblas has no such heuristic
 *    (the daemon's CPU and NeuronCore paths have no native-versus-emulated
 *    speed trade-off to imitate), and every GEMM whose math mode or
 *    computeType allows emulation runs emulated: COMPUTE_32F_BF16X9 for
 *    FP32, COMPUTE_64F_EMULATED for FP64 (blas_gemm.c's legacy_compute and
 *    ex_compute), which is EAGER's behaviour under every strategy.
 *  - The FP64 emulation (kernels/cpu/gemm_ozaki.c) always cuts each value
 *    into 8 digits of 7 bits, 56 mantissa bits: the wire's GemmOp has no
 *    field for a bit count, so the mantissa control, maximum bit count and
 *    offset are validated and recorded only. As in cuBLAS, a non-zero
 *    offset with FIXED control makes an FP64-emulated GEMM return
 *    INVALID_VALUE.
 *  - The bit count pointer receives TRNBLAS_EMULATION_FIXEDPOINT_MANTISSA_BITS
 *    after every FP64-emulated GEMM, by two memsets queued on the handle's
 *    stream (so in stream order, without waiting).
 *  - The special values mask is recorded.
 */
#include <stdint.h>
#include <string.h>

#include "client/blas_internal.h"

/* ---- the hooks of blas_gemm.c ------------------------------------------- */

static int fp64_emulated(Trnsci__V1__ComputeType compute) {
    return compute == TRNSCI__V1__COMPUTE_TYPE__COMPUTE_64F_EMULATED;
}

trnblasStatus_t trn_blas_emulation_check(trnblasHandle_t handle, const char *routine,
                                         Trnsci__V1__ComputeType compute) {
    if (fp64_emulated(compute) && handle->emu_bit_offset != 0 &&
        handle->emu_control == TRNSCI_EMULATION_MANTISSA_CONTROL_FIXED)
        return trn_blas_status(trn_fail(trnsciErrorInvalidValue,
                                        "%s: mantissa bit offset %d needs the DYNAMIC mantissa "
                                        "control, not FIXED, for FP64 emulation",
                                        routine, handle->emu_bit_offset));
    return TRNBLAS_STATUS_SUCCESS;
}

trnsciError_t trn_blas_emulation_report(trnblasHandle_t handle, Trnsci__V1__ComputeType compute) {
    if (!fp64_emulated(compute) || !handle->emu_bits_ptr)
        return trnsciSuccess;
    /* The int TRNBLAS_EMULATION_FIXEDPOINT_MANTISSA_BITS (< 256) in the
     * host's byte order: all bytes 0, then the low-order byte. */
    const int bits = TRNBLAS_EMULATION_FIXEDPOINT_MANTISSA_BITS;
    unsigned char repr[sizeof(int)];
    memcpy(repr, &bits, sizeof(repr));
    size_t low = 0;
    while (low < sizeof(repr) && repr[low] == 0)
        low++;
    trnsciError_t e = trnsciMemsetAsync(handle->emu_bits_ptr, 0, sizeof(int), handle->stream);
    if (e == trnsciSuccess)
        e = trnsciMemsetAsync((unsigned char *)handle->emu_bits_ptr + low, repr[low], 1,
                              handle->stream);
    return e;
}

/* ---- setters and getters ------------------------------------------------- */

/* A NULL output pointer `what` of `routine`: INVALID_VALUE. */
static trnblasStatus_t null_out(const char *routine, const char *what) {
    return trn_blas_status(trn_fail(trnsciErrorInvalidValue, "%s: %s is NULL", routine, what));
}

static trnblasStatus_t ok(void) {
    trn_ok();
    return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasSetEmulationStrategy(trnblasHandle_t handle,
                                            trnblasEmulationStrategy_t emulationStrategy) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    switch (emulationStrategy) {
    case TRNBLAS_EMULATION_STRATEGY_DEFAULT:
    case TRNBLAS_EMULATION_STRATEGY_PERFORMANT:
    case TRNBLAS_EMULATION_STRATEGY_EAGER: break;
    default:
        return trn_blas_status(trn_fail(trnsciErrorInvalidValue,
                                        "trnblasSetEmulationStrategy: strategy %d is not DEFAULT "
                                        "(0), PERFORMANT (1) or EAGER (2)",
                                        (int)emulationStrategy));
    }
    handle->emu_strategy = emulationStrategy;
    return ok();
}

trnblasStatus_t trnblasGetEmulationStrategy(trnblasHandle_t handle,
                                            trnblasEmulationStrategy_t *emulationStrategy) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (!emulationStrategy)
        return null_out("trnblasGetEmulationStrategy", "emulationStrategy");
    *emulationStrategy = handle->emu_strategy;
    return ok();
}

trnblasStatus_t trnblasSetEmulationSpecialValuesSupport(trnblasHandle_t handle,
                                                        trnsciEmulationSpecialValuesSupport mask) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    handle->emu_special = mask;
    return ok();
}

trnblasStatus_t trnblasGetEmulationSpecialValuesSupport(trnblasHandle_t handle,
                                                        trnsciEmulationSpecialValuesSupport *mask) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (!mask)
        return null_out("trnblasGetEmulationSpecialValuesSupport", "mask");
    *mask = handle->emu_special;
    return ok();
}

trnblasStatus_t
trnblasSetFixedPointEmulationMantissaControl(trnblasHandle_t handle,
                                             trnsciEmulationMantissaControl mantissaControl) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (mantissaControl != TRNSCI_EMULATION_MANTISSA_CONTROL_DYNAMIC &&
        mantissaControl != TRNSCI_EMULATION_MANTISSA_CONTROL_FIXED)
        return trn_blas_status(trn_fail(trnsciErrorInvalidValue,
                                        "trnblasSetFixedPointEmulationMantissaControl: control %d "
                                        "is not DYNAMIC (0) or FIXED (1)",
                                        (int)mantissaControl));
    handle->emu_control = mantissaControl;
    return ok();
}

trnblasStatus_t
trnblasGetFixedPointEmulationMantissaControl(trnblasHandle_t handle,
                                             trnsciEmulationMantissaControl *mantissaControl) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (!mantissaControl)
        return null_out("trnblasGetFixedPointEmulationMantissaControl", "mantissaControl");
    *mantissaControl = handle->emu_control;
    return ok();
}

trnblasStatus_t trnblasSetFixedPointEmulationMaxMantissaBitCount(trnblasHandle_t handle,
                                                                 int maxMantissaBitCount) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (maxMantissaBitCount < 0)
        return trn_blas_status(trn_fail(trnsciErrorInvalidValue,
                                        "trnblasSetFixedPointEmulationMaxMantissaBitCount: "
                                        "maxMantissaBitCount %d is negative",
                                        maxMantissaBitCount));
    handle->emu_max_bits = maxMantissaBitCount;
    return ok();
}

trnblasStatus_t trnblasGetFixedPointEmulationMaxMantissaBitCount(trnblasHandle_t handle,
                                                                 int *maxMantissaBitCount) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (!maxMantissaBitCount)
        return null_out("trnblasGetFixedPointEmulationMaxMantissaBitCount", "maxMantissaBitCount");
    *maxMantissaBitCount = handle->emu_max_bits;
    return ok();
}

trnblasStatus_t trnblasSetFixedPointEmulationMantissaBitOffset(trnblasHandle_t handle,
                                                               int mantissaBitOffset) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    handle->emu_bit_offset = mantissaBitOffset;
    return ok();
}

trnblasStatus_t trnblasGetFixedPointEmulationMantissaBitOffset(trnblasHandle_t handle,
                                                               int *mantissaBitOffset) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (!mantissaBitOffset)
        return null_out("trnblasGetFixedPointEmulationMantissaBitOffset", "mantissaBitOffset");
    *mantissaBitOffset = handle->emu_bit_offset;
    return ok();
}

trnblasStatus_t trnblasSetFixedPointEmulationMantissaBitCountPointer(trnblasHandle_t handle,
                                                                     int *mantissaBitCount) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    handle->emu_bits_ptr = mantissaBitCount;
    return ok();
}

trnblasStatus_t trnblasGetFixedPointEmulationMantissaBitCountPointer(trnblasHandle_t handle,
                                                                     int **mantissaBitCount) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (!mantissaBitCount)
        return null_out("trnblasGetFixedPointEmulationMantissaBitCountPointer", "mantissaBitCount");
    *mantissaBitCount = handle->emu_bits_ptr;
    return ok();
}
