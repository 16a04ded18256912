/*
 * blas_ex.c — trnblas Level 1 with explicit data types (cuBLAS's AxpyEx,
 * DotEx, DotcEx, Nrm2Ex, ScalEx, RotEx). Each supported combination of
 * FP32/FP64 types is exactly one of the typed routines of blas.c (saxpy,
 * csscal, dznrm2, ...), so a call is a dispatch on the types, and checks,
 * pointer modes and results are those of the routine it runs as.
 *
 * cuBLAS's half-precision rows (R_16F or R_16BF data with R_32F execution:
 * AxpyEx and ScalEx with a float alpha, DotEx/DotcEx and Nrm2Ex with the
 * result in the data's type, RotEx with c and s in the data's type) are one
 * Blas1Op on 16-bit data (protocol 1.14; an older daemon gives
 * NOT_SUPPORTED naming the version), computed by the daemon in FP32 from
 * exactly widened elements and rounded once per stored value
 * (docs/numerics.md). Every other combination is refused with
 * TRNBLAS_STATUS_NOT_SUPPORTED, as cuBLAS refuses it.
 */
#include <string.h>

#include "client/blas_internal.h"
#include "trnsci/trn_fp16.h"

#define R32F TRNSCI_R_32F
#define R64F TRNSCI_R_64F
#define C32F TRNSCI_C_32F
#define C64F TRNSCI_C_64F

    static const char *type_name(trnsciDataType_t t) {
    switch (t) {
    case TRNSCI_R_32F: return "TRNSCI_R_32F";
    case TRNSCI_R_64F: return "TRNSCI_R_64F";
    case TRNSCI_R_16F: return "TRNSCI_R_16F";
    case TRNSCI_R_8I: return "TRNSCI_R_8I";
    case TRNSCI_C_32F: return "TRNSCI_C_32F";
    case TRNSCI_C_64F: return "TRNSCI_C_64F";
    case TRNSCI_C_16F: return "TRNSCI_C_16F";
    case TRNSCI_C_8I: return "TRNSCI_C_8I";
    case TRNSCI_R_8U: return "TRNSCI_R_8U";
    case TRNSCI_C_8U: return "TRNSCI_C_8U";
    case TRNSCI_R_32I: return "TRNSCI_R_32I";
    case TRNSCI_C_32I: return "TRNSCI_C_32I";
    case TRNSCI_R_32U: return "TRNSCI_R_32U";
    case TRNSCI_C_32U: return "TRNSCI_C_32U";
    case TRNSCI_R_16BF: return "TRNSCI_R_16BF";
    case TRNSCI_C_16BF: return "TRNSCI_C_16BF";
    case TRNSCI_R_64I: return "TRNSCI_R_64I";
    case TRNSCI_C_64I: return "TRNSCI_C_64I";
    case TRNSCI_R_64U: return "TRNSCI_R_64U";
    case TRNSCI_C_64U: return "TRNSCI_C_64U";
    }
    return "an unknown data type";
}

/* The 16-bit element types of cuBLAS's half-precision rows. */
static int is_half(trnsciDataType_t t) {
    return t == TRNSCI_R_16F || t == TRNSCI_R_16BF;
}

#define HALF_MINOR 14u /* Blas1Op on R_16F / R_16BF data */

static Trnsci__V1__DataType half_wire(trnsciDataType_t t) {
    return t == TRNSCI_R_16F ? TRNSCI__V1__DATA_TYPE__R_16F : TRNSCI__V1__DATA_TYPE__R_16BF;
}

/* A host scalar of 16-bit type t, widened exactly. */
static double half_value(trnsciDataType_t t, const void *p) {
    uint16_t bits;
    memcpy(&bits, p, sizeof(bits));
    if (t == TRNSCI_R_16F) {
        const trnsciHalf h = {bits};
        return trnsciHalfToFloat(h);
    }
    const trnsciBfloat16 b = {bits};
    return trnsciBfloat16ToFloat(b);
}

/* A NULL host scalar (cuBLAS reads it in host pointer mode). */
static trnblasStatus_t null_scalar(const char *routine, const char *name) {
    return trn_blas_status(trn_fail(trnsciErrorInvalidValue, "%s: %s is NULL", routine, name));
}

/* A combination cuBLAS refuses too: names lists the count (3 or 4) type
 * arguments a, b, c, d by name. */
static trnblasStatus_t combination_refused(const char *routine, const char *names, int count,
                                           trnsciDataType_t a, trnsciDataType_t b,
                                           trnsciDataType_t c, trnsciDataType_t d) {
    return trn_blas_status(trn_fail(trnsciErrorNotSupported,
                                    "%s: %s = %s, %s, %s%s%s is not a supported combination",
                                    routine, names, type_name(a), type_name(b), type_name(c),
                                    count > 3 ? ", " : "", count > 3 ? type_name(d) : ""));
}

trnblasStatus_t trnblasAxpyEx(trnblasHandle_t handle, int n, const void *alpha,
                              trnsciDataType_t alphaType, const void *x, trnsciDataType_t xType,
                              int incx, void *y, trnsciDataType_t yType, int incy,
                              trnsciDataType_t executiontype) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    const int same = alphaType == xType && xType == yType && yType == executiontype;
    if (same && xType == R32F)
        return trnblasSaxpy(handle, n, alpha, x, incx, y, incy);
    if (same && xType == R64F)
        return trnblasDaxpy(handle, n, alpha, x, incx, y, incy);
    if (same && xType == C32F)
        return trnblasCaxpy(handle, n, alpha, x, incx, y, incy);
    if (same && xType == C64F)
        return trnblasZaxpy(handle, n, alpha, x, incx, y, incy);
    if (alphaType == R32F && is_half(xType) && yType == xType && executiontype == R32F) {
        if (!alpha)
            return null_scalar("trnblasAxpyEx", "alpha");
        const trn_blas1_args g = {.name = "trnblasAxpyEx",
                                  .fn = TRNSCI__V1__BLAS1_FUNCTION__BLAS1_AXPY,
                                  .type = half_wire(xType),
                                  .n = n,
                                  .a_re = DEV ? 0 : (double)*(const float *)alpha,
                                  .alpha_dev = DEV ? alpha : NULL,
                                  .x = x,
                                  .incx = incx,
                                  .y = y,
                                  .incy = incy,
                                  .minor = HALF_MINOR};
        return trn_blas1_submit(handle, &g);
    }
    return combination_refused("trnblasAxpyEx", "alphaType, xType, yType, executiontype", 4,
                               alphaType, xType, yType, executiontype);
}

/* DotEx and DotcEx: conj selects the conjugating complex routines. */
static trnblasStatus_t dot_ex(const char *routine, int conj, trnblasHandle_t handle, int n,
                              const void *x, trnsciDataType_t xType, int incx, const void *y,
                              trnsciDataType_t yType, int incy, void *result,
                              trnsciDataType_t resultType, trnsciDataType_t executionType) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    const int same = xType == yType && yType == resultType;
    if (same && executionType == xType) {
        switch (xType) {
        case R32F: return trnblasSdot(handle, n, x, incx, y, incy, result);
        case R64F: return trnblasDdot(handle, n, x, incx, y, incy, result);
        case C32F:
            return conj ? trnblasCdotc(handle, n, x, incx, y, incy, result)
                        : trnblasCdotu(handle, n, x, incx, y, incy, result);
        case C64F:
            return conj ? trnblasZdotc(handle, n, x, incx, y, incy, result)
                        : trnblasZdotu(handle, n, x, incx, y, incy, result);
        default: break;
        }
    }
    if (same && is_half(xType) && executionType == R32F) { /* real: DotcEx is DotEx */
        const trn_blas1_args g = {.name = routine,
                                  .fn = TRNSCI__V1__BLAS1_FUNCTION__BLAS1_DOT,
                                  .type = half_wire(xType),
                                  .n = n,
                                  .x = x,
                                  .incx = incx,
                                  .y = y,
                                  .incy = incy,
                                  .result = result,
                                  .result_bytes = 2,
                                  .minor = HALF_MINOR};
        return trn_blas1_submit(handle, &g);
    }
    return combination_refused(routine, "xType, yType, resultType, executionType", 4, xType, yType,
                               resultType, executionType);
}

trnblasStatus_t trnblasDotEx(trnblasHandle_t handle, int n, const void *x, trnsciDataType_t xType,
                             int incx, const void *y, trnsciDataType_t yType, int incy,
                             void *result, trnsciDataType_t resultType,
                             trnsciDataType_t executionType) {
    return dot_ex("trnblasDotEx", 0, handle, n, x, xType, incx, y, yType, incy, result, resultType,
                  executionType);
}

trnblasStatus_t trnblasDotcEx(trnblasHandle_t handle, int n, const void *x, trnsciDataType_t xType,
                              int incx, const void *y, trnsciDataType_t yType, int incy,
                              void *result, trnsciDataType_t resultType,
                              trnsciDataType_t executionType) {
    return dot_ex("trnblasDotcEx", 1, handle, n, x, xType, incx, y, yType, incy, result, resultType,
                  executionType);
}

trnblasStatus_t trnblasNrm2Ex(trnblasHandle_t handle, int n, const void *x, trnsciDataType_t xType,
                              int incx, void *result, trnsciDataType_t resultType,
                              trnsciDataType_t executionType) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (resultType == R32F && executionType == R32F) {
        if (xType == R32F)
            return trnblasSnrm2(handle, n, x, incx, result);
        if (xType == C32F)
            return trnblasScnrm2(handle, n, x, incx, result);
    }
    if (resultType == R64F && executionType == R64F) {
        if (xType == R64F)
            return trnblasDnrm2(handle, n, x, incx, result);
        if (xType == C64F)
            return trnblasDznrm2(handle, n, x, incx, result);
    }
    if (is_half(xType) && resultType == xType && executionType == R32F) {
        const trn_blas1_args g = {.name = "trnblasNrm2Ex",
                                  .fn = TRNSCI__V1__BLAS1_FUNCTION__BLAS1_NRM2,
                                  .type = half_wire(xType),
                                  .n = n,
                                  .x = x,
                                  .incx = incx,
                                  .result = result,
                                  .result_bytes = 2,
                                  .minor = HALF_MINOR};
        return trn_blas1_submit(handle, &g);
    }
    return combination_refused("trnblasNrm2Ex", "xType, resultType, executionType", 3, xType,
                               resultType, executionType, executionType);
}

trnblasStatus_t trnblasScalEx(trnblasHandle_t handle, int n, const void *alpha,
                              trnsciDataType_t alphaType, void *x, trnsciDataType_t xType, int incx,
                              trnsciDataType_t executionType) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (xType == executionType) {
        if (alphaType == xType) {
            switch (xType) {
            case R32F: return trnblasSscal(handle, n, alpha, x, incx);
            case R64F: return trnblasDscal(handle, n, alpha, x, incx);
            case C32F: return trnblasCscal(handle, n, alpha, x, incx);
            case C64F: return trnblasZscal(handle, n, alpha, x, incx);
            default: break;
            }
        }
        if (alphaType == R32F && xType == C32F)
            return trnblasCsscal(handle, n, alpha, x, incx);
        if (alphaType == R64F && xType == C64F)
            return trnblasZdscal(handle, n, alpha, x, incx);
    }
    if (alphaType == R32F && is_half(xType) && executionType == R32F) {
        if (!alpha)
            return null_scalar("trnblasScalEx", "alpha");
        const trn_blas1_args g = {.name = "trnblasScalEx",
                                  .fn = TRNSCI__V1__BLAS1_FUNCTION__BLAS1_SCAL,
                                  .type = half_wire(xType),
                                  .n = n,
                                  .a_re = DEV ? 0 : (double)*(const float *)alpha,
                                  .alpha_dev = DEV ? alpha : NULL,
                                  .x = x,
                                  .incx = incx,
                                  .minor = HALF_MINOR};
        return trn_blas1_submit(handle, &g);
    }
    return combination_refused("trnblasScalEx", "alphaType, xType, executionType", 3, alphaType,
                               xType, executionType, executionType);
}

trnblasStatus_t trnblasRotEx(trnblasHandle_t handle, int n, void *x, trnsciDataType_t xType,
                             int incx, void *y, trnsciDataType_t yType, int incy, const void *c,
                             const void *s, trnsciDataType_t csType,
                             trnsciDataType_t executiontype) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (xType == yType && xType == executiontype) {
        /* A complex c is used through its real part, the first component of
         * the value, so the same pointer serves in both pointer modes. */
        if (xType == R32F && csType == R32F)
            return trnblasSrot(handle, n, x, incx, y, incy, c, s);
        if (xType == R64F && csType == R64F)
            return trnblasDrot(handle, n, x, incx, y, incy, c, s);
        if (xType == C32F && csType == R32F)
            return trnblasCsrot(handle, n, x, incx, y, incy, c, s);
        if (xType == C32F && csType == C32F)
            return trnblasCrot(handle, n, x, incx, y, incy, c, s);
        if (xType == C64F && csType == R64F)
            return trnblasZdrot(handle, n, x, incx, y, incy, c, s);
        if (xType == C64F && csType == C64F)
            return trnblasZrot(handle, n, x, incx, y, incy, c, s);
    }
    if (is_half(xType) && yType == xType && csType == xType && executiontype == R32F) {
        if (!c || !s)
            return null_scalar("trnblasRotEx", !c ? "c" : "s");
        const trn_blas1_args g = {.name = "trnblasRotEx",
                                  .fn = TRNSCI__V1__BLAS1_FUNCTION__BLAS1_ROT,
                                  .type = half_wire(xType),
                                  .n = n,
                                  .a_re = DEV ? 0 : half_value(csType, c),
                                  .b_re = DEV ? 0 : half_value(csType, s),
                                  .alpha_dev = DEV ? c : NULL,
                                  .beta_dev = DEV ? s : NULL,
                                  .x = x,
                                  .incx = incx,
                                  .y = y,
                                  .incy = incy,
                                  .minor = HALF_MINOR};
        return trn_blas1_submit(handle, &g);
    }
    return combination_refused("trnblasRotEx", "xType, yType, csType, executiontype", 4, xType,
                               yType, csType, executiontype);
}
