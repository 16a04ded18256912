/*
 * blas.c — trnblas: handles, math mode, and Level 1 (the GEMM family is in
 * blas_gemm.c). Each routine
 * resolves its device pointers, encodes the op and queues it on the handle's
 * stream; the daemon validates shapes and extents (validate_blas.c) and its
 * message for a rejected call is available from trnsciGetLastErrorMessage.
 *
 * Level 1 reductions in host pointer mode: the daemon writes the result into
 * a small device buffer of the handle (allocated on first use), which is
 * copied to the caller's pointer in stream order and waited for with
 * trnsciStreamSynchronize(handle's stream), so the value is there when the
 * call returns, as with cuBLAS.
 */
#include <stdio.h>
#include <stdlib.h>

#include "client/blas_internal.h"

trnblasStatus_t trn_blas_status(trnsciError_t e) {
    switch (e) {
    case trnsciSuccess: return TRNBLAS_STATUS_SUCCESS;
    case trnsciErrorInvalidValue: return TRNBLAS_STATUS_INVALID_VALUE;
    case trnsciErrorMemoryAllocation:
    case trnsciErrorBusy: return TRNBLAS_STATUS_ALLOC_FAILED; /* no queue slot: retry later */
    case trnsciErrorNoDevice:
    case trnsciErrorInitializationError:
    case trnsciErrorInsufficientDriver: return TRNBLAS_STATUS_NOT_INITIALIZED;
    case trnsciErrorNotSupported: return TRNBLAS_STATUS_NOT_SUPPORTED;
    case trnsciErrorUnknown: return TRNBLAS_STATUS_INTERNAL_ERROR;
    default: return TRNBLAS_STATUS_EXECUTION_FAILED;
    }
}

trnblasStatus_t trnblasCreate(trnblasHandle_t *handle) {
    if (!handle)
        return trn_blas_status(trn_fail(trnsciErrorInvalidValue, "trnblasCreate: handle is NULL"));
    trnsciError_t e;
    if (!trn_client_get(&e))
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    trnblasHandle_t h = calloc(1, sizeof(*h));
    if (!h)
        return trn_blas_status(
            trn_fail(trnsciErrorMemoryAllocation, "trnblasCreate: out of memory"));
    h->emu_special = TRNSCI_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT;
    *handle = h;
    trn_ok();
    return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasDestroy(trnblasHandle_t handle) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    /* The scratch buffer belongs to the session it was allocated in: after a
     * device reset its pointer may name another buffer, so it is left alone. */
    const trn_client *c = trn_client_peek();
    if (handle->scratch && c && c->generation == handle->scratch_gen)
        (void)trnsciFree(handle->scratch);
    free(handle);
    trn_ok();
    return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasSetStream(trnblasHandle_t handle, trnsciStream_t streamId) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    handle->stream = streamId;
    handle->workspace = NULL; /* as cublasSetStream: back to the default workspace */
    handle->workspace_bytes = 0;
    trn_ok();
    return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasGetStream(trnblasHandle_t handle, trnsciStream_t *streamId) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (!streamId)
        return TRNBLAS_STATUS_INVALID_VALUE;
    *streamId = handle->stream;
    trn_ok();
    return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasSetPointerMode(trnblasHandle_t handle, trnblasPointerMode_t mode) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (mode != TRNBLAS_POINTER_MODE_HOST && mode != TRNBLAS_POINTER_MODE_DEVICE)
        return trn_blas_status(
            trn_fail(trnsciErrorInvalidValue,
                     "trnblasSetPointerMode: mode %d is not HOST (0) or DEVICE (1)", (int)mode));
    handle->mode = mode;
    trn_ok();
    return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasGetPointerMode(trnblasHandle_t handle, trnblasPointerMode_t *mode) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (!mode)
        return trn_blas_status(
            trn_fail(trnsciErrorInvalidValue, "trnblasGetPointerMode: mode is NULL"));
    *mode = handle->mode;
    trn_ok();
    return TRNBLAS_STATUS_SUCCESS;
}

/* The modes and flags trnblasMath_t defines. */
#define MATH_MODES 0x7u
#define MATH_FLAGS                                                                                 \
    (TRNBLAS_FP64_EMULATED_FIXEDPOINT_MATH | TRNBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION |   \
     TRNBLAS_COMPENSATED_REDUCTION_MATH | TRNBLAS_STOCHASTIC_ROUNDING_MATH)

trnblasStatus_t trnblasSetMathMode(trnblasHandle_t handle, trnblasMath_t mode) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    const unsigned m = (unsigned)mode;
    if ((m & ~(MATH_MODES | MATH_FLAGS)) || (m & MATH_MODES) > TRNBLAS_FP32_EMULATED_BF16X9_MATH)
        return trn_blas_status(trn_fail(trnsciErrorInvalidValue,
                                        "trnblasSetMathMode: 0x%x is not a math mode (0..4) "
                                        "OR'ed with flags 0x8, 0x10, 0x100 and 0x200",
                                        m));
    handle->math = mode;
    trn_ok();
    return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasGetMathMode(trnblasHandle_t handle, trnblasMath_t *mode) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (!mode)
        return trn_blas_status(
            trn_fail(trnsciErrorInvalidValue, "trnblasGetMathMode: mode is NULL"));
    *mode = handle->math;
    trn_ok();
    return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasSetStochasticRoundingSeed(trnblasHandle_t handle, unsigned long long seed) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    handle->sr_seed = seed;
    trn_ok();
    return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasGetStochasticRoundingSeed(trnblasHandle_t handle, unsigned long long *seed) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (!seed)
        return trn_blas_status(
            trn_fail(trnsciErrorInvalidValue, "trnblasGetStochasticRoundingSeed: seed is NULL"));
    *seed = handle->sr_seed;
    trn_ok();
    return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasGetVersion(trnblasHandle_t handle, int *version) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (!version)
        return TRNBLAS_STATUS_INVALID_VALUE;
    /* cublasGetVersion's encoding: major * 10000 + minor * 100 + patch. */
    *version = TRNSCI_VERSION_MAJOR * 10000 + TRNSCI_VERSION_MINOR * 100 + TRNSCI_VERSION_PATCH;
    trn_ok();
    return TRNBLAS_STATUS_SUCCESS;
}

const char *trnblasGetStatusName(trnblasStatus_t status) {
    switch (status) {
    case TRNBLAS_STATUS_SUCCESS: return "TRNBLAS_STATUS_SUCCESS";
    case TRNBLAS_STATUS_NOT_INITIALIZED: return "TRNBLAS_STATUS_NOT_INITIALIZED";
    case TRNBLAS_STATUS_ALLOC_FAILED: return "TRNBLAS_STATUS_ALLOC_FAILED";
    case TRNBLAS_STATUS_INVALID_VALUE: return "TRNBLAS_STATUS_INVALID_VALUE";
    case TRNBLAS_STATUS_ARCH_MISMATCH: return "TRNBLAS_STATUS_ARCH_MISMATCH";
    case TRNBLAS_STATUS_MAPPING_ERROR: return "TRNBLAS_STATUS_MAPPING_ERROR";
    case TRNBLAS_STATUS_EXECUTION_FAILED: return "TRNBLAS_STATUS_EXECUTION_FAILED";
    case TRNBLAS_STATUS_INTERNAL_ERROR: return "TRNBLAS_STATUS_INTERNAL_ERROR";
    case TRNBLAS_STATUS_NOT_SUPPORTED: return "TRNBLAS_STATUS_NOT_SUPPORTED";
    case TRNBLAS_STATUS_LICENSE_ERROR: return "TRNBLAS_STATUS_LICENSE_ERROR";
    }
    return "TRNBLAS_STATUS_UNKNOWN";
}

const char *trnblasGetStatusString(trnblasStatus_t status) {
    switch (status) {
    case TRNBLAS_STATUS_SUCCESS: return "success";
    case TRNBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
    case TRNBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
    case TRNBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
    case TRNBLAS_STATUS_ARCH_MISMATCH: return "an absent device architectural feature is required";
    case TRNBLAS_STATUS_MAPPING_ERROR: return "an access to device memory space failed";
    case TRNBLAS_STATUS_EXECUTION_FAILED: return "the program failed to execute";
    case TRNBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
    case TRNBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
    case TRNBLAS_STATUS_LICENSE_ERROR: return "error detected trying to check the license";
    }
    return "unknown status";
}

/* ---- Level 1 ------------------------------------------------------------- */

#define FN(f) TRNSCI__V1__BLAS1_FUNCTION__BLAS1_##f

trnblasStatus_t trn_blas1_submit(trnblasHandle_t handle, const trn_blas1_args *g) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (g->result_bytes && !g->result)
        return trn_blas_status(trn_fail(trnsciErrorInvalidValue, "%s: result is NULL", g->name));
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    Trnsci__V1__BufferRef x, y, r = TRNSCI__V1__BUFFER_REF__INIT;
    if ((e = trn_client_resolve_named(c, g->x, g->name, "x", NULL, &x)))
        return trn_blas_status(e);
    if ((e = trn_client_resolve_named(c, g->y, g->name, "y", NULL, &y)))
        return trn_blas_status(e);
    Trnsci__V1__BufferRef ap = TRNSCI__V1__BUFFER_REF__INIT, bp = TRNSCI__V1__BUFFER_REF__INIT;
    if (g->alpha_dev && (e = trn_client_resolve_named(c, g->alpha_dev, g->name,
                                                      g->fn == FN(ROT) ? "c" : "alpha", NULL, &ap)))
        return trn_blas_status(e);
    if (g->beta_dev && (e = trn_client_resolve_named(c, g->beta_dev, g->name, "s", NULL, &bp)))
        return trn_blas_status(e);
    const int compensated =
        (handle->math & TRNBLAS_COMPENSATED_REDUCTION_MATH) && !g->minor &&
        (g->fn == FN(DOT) || g->fn == FN(DOTC) || g->fn == FN(NRM2) || g->fn == FN(ASUM));
    if (compensated && (e = trn_client_need_minor(c, 4, "compensated reductions")))
        return trn_blas_status(e);
    if (g->minor && (e = trn_client_need_minor(c, g->minor, g->name)))
        return trn_blas_status(e);
    const int host_result = g->result_bytes && handle->mode == TRNBLAS_POINTER_MODE_HOST;
    if (g->result_bytes) {
        if (host_result && handle->scratch && handle->scratch_gen != c->generation)
            handle->scratch = NULL; /* its session ended (device reset) */
        if (host_result && !handle->scratch) {
            if ((e = trnsciMalloc(&handle->scratch, SCRATCH_BYTES)) != trnsciSuccess)
                return trn_blas_status(e);
            handle->scratch_gen = c->generation;
        }
        if ((e = trn_client_resolve_named(c, host_result ? handle->scratch : g->result, g->name,
                                          "result", NULL, &r)))
            return trn_blas_status(e);
    }
    Trnsci__V1__Scalar alpha = TRNSCI__V1__SCALAR__INIT, beta = TRNSCI__V1__SCALAR__INIT;
    alpha.re = g->a_re;
    alpha.im = g->a_im;
    beta.re = g->b_re;
    beta.im = g->b_im;
    Trnsci__V1__Blas1Op b = TRNSCI__V1__BLAS1_OP__INIT;
    b.function = g->fn;
    b.type = g->type;
    b.n = g->n;
    b.alpha = &alpha;
    b.x = &x;
    b.incx = g->incx;
    b.y = &y;
    b.incy = g->incy;
    b.beta = &beta;
    b.result = &r;
    b.real_scalar = g->real_scalar ? 1 : 0;
    b.alpha_ptr = &ap;
    b.compensated = compensated;
    b.beta_ptr = &bp;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_BLAS1;
    op.blas1 = &b;
    e = trn_client_submit(c, handle->stream, &op);
    if (e == trnsciSuccess && host_result) {
        e = trnsciMemcpyAsync(g->result, handle->scratch, g->result_bytes, trnsciMemcpyDeviceToHost,
                              handle->stream);
        if (e == trnsciSuccess)
            e = trnsciStreamSynchronize(handle->stream);
    }
    if (e == trnsciSuccess)
        trn_ok();
    return trn_blas_status(e);
}

/* Scalar inputs: host values read now (host pointer mode), or device
 * pointers the daemon reads when the op runs (device pointer mode). */
static trnblasStatus_t scalar_check(trnblasHandle_t handle, const char *name, const void *a,
                                    const void *b) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (!a || !b)
        return trn_blas_status(
            trn_fail(trnsciErrorInvalidValue, "%s: a scalar argument is NULL", name));
    return TRNBLAS_STATUS_SUCCESS;
}

#define AXPY(T, TY, DT)                                                                            \
    trnblasStatus_t trnblas##T##axpy(trnblasHandle_t handle, int n, const TY *alpha, const TY *x,  \
                                     int incx, TY *y, int incy) {                                  \
        trnblasStatus_t st = scalar_check(handle, "axpy", alpha, alpha);                           \
        if (st)                                                                                    \
            return st;                                                                             \
        const trn_blas1_args g = {.name = "axpy",                                                  \
                                  .fn = FN(AXPY),                                                  \
                                  .type = DT,                                                      \
                                  .n = n,                                                          \
                                  .a_re = DEV ? 0 : RE_##T(alpha),                                 \
                                  .a_im = DEV ? 0 : IM_##T(alpha),                                 \
                                  .alpha_dev = DEV ? alpha : NULL,                                 \
                                  .x = x,                                                          \
                                  .incx = incx,                                                    \
                                  .y = y,                                                          \
                                  .incy = incy};                                                   \
        return trn_blas1_submit(handle, &g);                                                       \
    }
AXPY(S, float, R32)
AXPY(D, double, R64)
AXPY(C, trnComplex, C32)
AXPY(Z, trnDoubleComplex, C64)

#define SCAL(NAME, T, TY, XTY, DT, REAL)                                                           \
    trnblasStatus_t trnblas##NAME(trnblasHandle_t handle, int n, const TY *alpha, XTY *x,          \
                                  int incx) {                                                      \
        trnblasStatus_t st = scalar_check(handle, "scal", alpha, alpha);                           \
        if (st)                                                                                    \
            return st;                                                                             \
        const trn_blas1_args g = {.name = "scal",                                                  \
                                  .fn = FN(SCAL),                                                  \
                                  .type = DT,                                                      \
                                  .n = n,                                                          \
                                  .a_re = DEV ? 0 : RE_##T(alpha),                                 \
                                  .a_im = DEV ? 0 : IM_##T(alpha),                                 \
                                  .alpha_dev = DEV ? alpha : NULL,                                 \
                                  .real_scalar = REAL,                                             \
                                  .x = x,                                                          \
                                  .incx = incx};                                                   \
        return trn_blas1_submit(handle, &g);                                                       \
    }
SCAL(Sscal, S, float, float, R32, 0)
SCAL(Dscal, D, double, double, R64, 0)
SCAL(Cscal, C, trnComplex, trnComplex, C32, 0)
SCAL(Zscal, Z, trnDoubleComplex, trnDoubleComplex, C64, 0)
SCAL(Csscal, S, float, trnComplex, C32, 1)
SCAL(Zdscal, D, double, trnDoubleComplex, C64, 1)

#define COPY(T, TY, DT)                                                                            \
    trnblasStatus_t trnblas##T##copy(trnblasHandle_t handle, int n, const TY *x, int incx, TY *y,  \
                                     int incy) {                                                   \
        const trn_blas1_args g = {.name = "copy",                                                  \
                                  .fn = FN(COPY),                                                  \
                                  .type = DT,                                                      \
                                  .n = n,                                                          \
                                  .x = x,                                                          \
                                  .incx = incx,                                                    \
                                  .y = y,                                                          \
                                  .incy = incy};                                                   \
        return trn_blas1_submit(handle, &g);                                                       \
    }                                                                                              \
    trnblasStatus_t trnblas##T##swap(trnblasHandle_t handle, int n, TY *x, int incx, TY *y,        \
                                     int incy) {                                                   \
        const trn_blas1_args g = {.name = "swap",                                                  \
                                  .fn = FN(SWAP),                                                  \
                                  .type = DT,                                                      \
                                  .n = n,                                                          \
                                  .x = x,                                                          \
                                  .incx = incx,                                                    \
                                  .y = y,                                                          \
                                  .incy = incy};                                                   \
        return trn_blas1_submit(handle, &g);                                                       \
    }
COPY(S, float, R32)
COPY(D, double, R64)
COPY(C, trnComplex, C32)
COPY(Z, trnDoubleComplex, C64)

#define DOT(NAME, F, TY, DT)                                                                       \
    trnblasStatus_t trnblas##NAME(trnblasHandle_t handle, int n, const TY *x, int incx,            \
                                  const TY *y, int incy, TY *result) {                             \
        const trn_blas1_args g = {.name = #NAME,                                                   \
                                  .fn = FN(F),                                                     \
                                  .type = DT,                                                      \
                                  .n = n,                                                          \
                                  .x = x,                                                          \
                                  .incx = incx,                                                    \
                                  .y = y,                                                          \
                                  .incy = incy,                                                    \
                                  .result = result,                                                \
                                  .result_bytes = sizeof(TY)};                                     \
        return trn_blas1_submit(handle, &g);                                                       \
    }
DOT(Sdot, DOT, float, R32)
DOT(Ddot, DOT, double, R64)
DOT(Cdotu, DOT, trnComplex, C32)
DOT(Cdotc, DOTC, trnComplex, C32)
DOT(Zdotu, DOT, trnDoubleComplex, C64)
DOT(Zdotc, DOTC, trnDoubleComplex, C64)

#define REDUCE(NAME, F, TY, RTY, DT)                                                               \
    trnblasStatus_t trnblas##NAME(trnblasHandle_t handle, int n, const TY *x, int incx,            \
                                  RTY *result) {                                                   \
        const trn_blas1_args g = {.name = #NAME,                                                   \
                                  .fn = FN(F),                                                     \
                                  .type = DT,                                                      \
                                  .n = n,                                                          \
                                  .x = x,                                                          \
                                  .incx = incx,                                                    \
                                  .result = result,                                                \
                                  .result_bytes = sizeof(RTY)};                                    \
        return trn_blas1_submit(handle, &g);                                                       \
    }
REDUCE(Snrm2, NRM2, float, float, R32)
REDUCE(Dnrm2, NRM2, double, double, R64)
REDUCE(Scnrm2, NRM2, trnComplex, float, C32)
REDUCE(Dznrm2, NRM2, trnDoubleComplex, double, C64)
REDUCE(Sasum, ASUM, float, float, R32)
REDUCE(Dasum, ASUM, double, double, R64)
REDUCE(Scasum, ASUM, trnComplex, float, C32)
REDUCE(Dzasum, ASUM, trnDoubleComplex, double, C64)
REDUCE(Isamax, IAMAX, float, int, R32)
REDUCE(Idamax, IAMAX, double, int, R64)
REDUCE(Icamax, IAMAX, trnComplex, int, C32)
REDUCE(Izamax, IAMAX, trnDoubleComplex, int, C64)
REDUCE(Isamin, IAMIN, float, int, R32)
REDUCE(Idamin, IAMIN, double, int, R64)
REDUCE(Icamin, IAMIN, trnComplex, int, C32)
REDUCE(Izamin, IAMIN, trnDoubleComplex, int, C64)

#define ROT(NAME, T, TY, CTY, STY, DT, REAL)                                                       \
    trnblasStatus_t trnblas##NAME(trnblasHandle_t handle, int n, TY *x, int incx, TY *y, int incy, \
                                  const CTY *c, const STY *s) {                                    \
        trnblasStatus_t st = scalar_check(handle, "rot", c, s);                                    \
        if (st)                                                                                    \
            return st;                                                                             \
        const trn_blas1_args g = {.name = "rot",                                                   \
                                  .fn = FN(ROT),                                                   \
                                  .type = DT,                                                      \
                                  .n = n,                                                          \
                                  .a_re = DEV ? 0 : (double)*c,                                    \
                                  .b_re = DEV ? 0 : RE_##T(s),                                     \
                                  .b_im = DEV ? 0 : IM_##T(s),                                     \
                                  .alpha_dev = DEV ? c : NULL,                                     \
                                  .beta_dev = DEV ? s : NULL,                                      \
                                  .real_scalar = REAL,                                             \
                                  .x = x,                                                          \
                                  .incx = incx,                                                    \
                                  .y = y,                                                          \
                                  .incy = incy};                                                   \
        return trn_blas1_submit(handle, &g);                                                       \
    }
ROT(Srot, S, float, float, float, R32, 0)
ROT(Drot, D, double, double, double, R64, 0)
ROT(Crot, C, trnComplex, float, trnComplex, C32, 0)
ROT(Zrot, Z, trnDoubleComplex, double, trnDoubleComplex, C64, 0)
ROT(Csrot, S, trnComplex, float, float, C32, 1)
ROT(Zdrot, D, trnDoubleComplex, double, double, C64, 1)

/* Copies `count` device pointers out of the device array arr (after the
 * stream's earlier work): directly from the shared mapping on the local
 * transport, with a device-to-host copy otherwise. */
static trnsciError_t read_pointers(trn_client *c, trnsciStream_t stream, const void *arr,
                                   size_t count, const char *what, void **out) {
    trn_ptr_entry e;
    uint64_t off;
    const uint64_t bytes = (uint64_t)count * sizeof(void *);
    if (trn_ptrtable_lookup(&c->ptrs, arr, &e, &off) != 0)
        return trn_fail(trnsciErrorInvalidValue,
                        "%s (%p) is not a trnsci device pointer: pointer arrays live in device "
                        "memory, as with cuBLAS",
                        what, arr);
    if (off > e.size || e.size - off < bytes)
        return trn_fail(trnsciErrorInvalidValue,
                        "%s: %zu pointers need %llu bytes but its allocation has %llu from there",
                        what, count, (unsigned long long)bytes,
                        (unsigned long long)(e.size - (off < e.size ? off : e.size)));
    if (!c->mapped)
        return trnsciMemcpy(out, arr, bytes, trnsciMemcpyDeviceToHost);
    const trnsciError_t err = trn_client_order_after_stream(c, stream);
    if (err == trnsciSuccess)
        memcpy(out, arr, bytes);
    return err;
}

trnsciError_t trn_blas_resolve_array(trn_client *c, trnsciStream_t stream, const void *arr,
                                     size_t count, const char *routine, const char *name,
                                     void **scratch, Trnsci__V1__BufferRef *refs,
                                     Trnsci__V1__BufferRef **rp) {
    char what[64];
    snprintf(what, sizeof(what), "%s: %s", routine, name);
    trnsciError_t e = read_pointers(c, stream, arr, count, what, scratch);
    for (size_t i = 0; i < count && e == trnsciSuccess; i++) {
        snprintf(what, sizeof(what), "%s: %s[%zu]", routine, name, i);
        e = trn_client_resolve(c, scratch[i], what, &refs[i]);
        rp[i] = &refs[i];
    }
    return e;
}
