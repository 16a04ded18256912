/*
 * tensor.c — trntensor: the handle, the compute descriptors, status texts
 * and the version. The descriptor, plan and execute calls live in the other
 * client/tensor*.c files; all share client/tensor_internal.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "client/tensor_internal.h"

/* trnblasComputeType_t values (include/trnsci/trnblas.h). */
enum {
    CT_32F = 68,
    CT_64F = 70,
    CT_32F_FAST_16F = 74,
    CT_32F_FAST_16BF = 75,
    CT_32F_FAST_TF32 = 77,
    CT_32F_BF16X3 = 1075,
    CT_64F_EMULATED = 79,
};

/* 16F: inputs rounded to binary16 with FP32 accumulation in contractions
 * of R_32F data (trnblas's 32F_FAST_16F, as cuTENSOR's tensor cores), and
 * cuTENSOR's 16F compute of R_16F element-wise ops, permutations and
 * reductions (protocol 1.15; docs/numerics.md). */
static const struct trntensorComputeDescriptor desc_16f = {CT_32F_FAST_16F, "16F"};
static const struct trntensorComputeDescriptor desc_3xtf32 = {0, "3XTF32"};
static const struct trntensorComputeDescriptor desc_32f = {CT_32F, "32F"};
static const struct trntensorComputeDescriptor desc_64f = {CT_64F, "64F"};
static const struct trntensorComputeDescriptor desc_fast_16bf = {CT_32F_FAST_16BF, "32F_FAST_16BF"};
static const struct trntensorComputeDescriptor desc_fast_tf32 = {CT_32F_FAST_TF32, "32F_FAST_TF32"};
static const struct trntensorComputeDescriptor desc_bf16x3 = {CT_32F_BF16X3, "32F_BF16X3"};
static const struct trntensorComputeDescriptor desc_64f_emulated = {CT_64F_EMULATED,
                                                                    "64F_EMULATED"};

const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_16F = &desc_16f;
const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_16BF = &desc_fast_16bf;
const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_TF32 = &desc_fast_tf32;
const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_3XTF32 = &desc_3xtf32;
const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_32F = &desc_32f;
const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_64F = &desc_64f;
const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_32F_FAST_16BF = &desc_fast_16bf;
const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_32F_FAST_TF32 = &desc_fast_tf32;
const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_32F_BF16X3 = &desc_bf16x3;
const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_64F_EMULATED = &desc_64f_emulated;

trntensorStatus_t trn_tensor_status(trnsciError_t e) {
    switch (e) {
    case trnsciSuccess: return TRNTENSOR_STATUS_SUCCESS;
    case trnsciErrorInvalidValue: return TRNTENSOR_STATUS_INVALID_VALUE;
    case trnsciErrorMemoryAllocation:
    case trnsciErrorBusy: return TRNTENSOR_STATUS_ALLOC_FAILED; /* no queue slot: retry later */
    case trnsciErrorNoDevice:
    case trnsciErrorInitializationError: return TRNTENSOR_STATUS_NOT_INITIALIZED;
    case trnsciErrorInsufficientDriver: return TRNTENSOR_STATUS_INSUFFICIENT_DRIVER;
    case trnsciErrorNotSupported: return TRNTENSOR_STATUS_NOT_SUPPORTED;
    case trnsciErrorUnknown: return TRNTENSOR_STATUS_INTERNAL_ERROR;
    default: return TRNTENSOR_STATUS_EXECUTION_FAILED;
    }
}

trntensorStatus_t trn_tensor_fail(trnsciError_t e, const char *fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return trn_tensor_status(trn_fail(e, "%s", msg));
}

trntensorStatus_t trntensorCreate(trntensorHandle_t *handle) {
    if (!handle)
        return trn_tensor_fail(trnsciErrorInvalidValue, "trntensorCreate: handle is NULL");
    trnsciError_t e;
    if (!trn_client_get(&e))
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    trntensorHandle_t h = calloc(1, sizeof(*h));
    if (!h)
        return trn_tensor_fail(trnsciErrorMemoryAllocation, "trntensorCreate: out of memory");
    *handle = h;
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}

trntensorStatus_t trntensorDestroy(trntensorHandle_t handle) {
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    trn_tensor_handle_forget(handle);
    free(handle);
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}

trntensorStatus_t trntensorSetStream(trntensorHandle_t handle, trnsciStream_t stream) {
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    handle->stream = stream;
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}

trntensorStatus_t trntensorGetStream(trntensorHandle_t handle, trnsciStream_t *stream) {
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    if (!stream)
        return trn_tensor_fail(trnsciErrorInvalidValue, "trntensorGetStream: stream is NULL");
    *stream = handle->stream;
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}

const char *trntensorGetErrorString(trntensorStatus_t error) {
    switch (error) {
    case TRNTENSOR_STATUS_SUCCESS: return "TRNTENSOR_STATUS_SUCCESS";
    case TRNTENSOR_STATUS_NOT_INITIALIZED: return "TRNTENSOR_STATUS_NOT_INITIALIZED";
    case TRNTENSOR_STATUS_ALLOC_FAILED: return "TRNTENSOR_STATUS_ALLOC_FAILED";
    case TRNTENSOR_STATUS_INVALID_VALUE: return "TRNTENSOR_STATUS_INVALID_VALUE";
    case TRNTENSOR_STATUS_ARCH_MISMATCH: return "TRNTENSOR_STATUS_ARCH_MISMATCH";
    case TRNTENSOR_STATUS_MAPPING_ERROR: return "TRNTENSOR_STATUS_MAPPING_ERROR";
    case TRNTENSOR_STATUS_EXECUTION_FAILED: return "TRNTENSOR_STATUS_EXECUTION_FAILED";
    case TRNTENSOR_STATUS_INTERNAL_ERROR: return "TRNTENSOR_STATUS_INTERNAL_ERROR";
    case TRNTENSOR_STATUS_NOT_SUPPORTED: return "TRNTENSOR_STATUS_NOT_SUPPORTED";
    case TRNTENSOR_STATUS_LICENSE_ERROR: return "TRNTENSOR_STATUS_LICENSE_ERROR";
    case TRNTENSOR_STATUS_TRNBLAS_ERROR: return "TRNTENSOR_STATUS_TRNBLAS_ERROR";
    case TRNTENSOR_STATUS_TRNSCI_ERROR: return "TRNTENSOR_STATUS_TRNSCI_ERROR";
    case TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE: return "TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE";
    case TRNTENSOR_STATUS_INSUFFICIENT_DRIVER: return "TRNTENSOR_STATUS_INSUFFICIENT_DRIVER";
    case TRNTENSOR_STATUS_IO_ERROR: return "TRNTENSOR_STATUS_IO_ERROR";
    }
    return "TRNTENSOR_STATUS_UNKNOWN";
}

size_t trntensorGetVersion(void) {
    return 20000; /* the cuTENSOR 2.0 API */
}
