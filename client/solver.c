/*
 * solver.c — trnsolver: the handle, statuses, and the helpers every solver
 * routine goes through (client/solver_*.c). A routine resolves its device
 * pointers, encodes one Solver*Op and queues it on the handle's stream; the
 * daemon validates it (daemon/validate_solver*.c) and its message for a
 * rejected call is available from trnsciGetLastErrorMessage.
 */
#include <stdlib.h>

#include "client/solver_internal.h"

trnsolverStatus_t trn_solver_status(trnsciError_t e) {
    switch (e) {
    case trnsciSuccess: return TRNSOLVER_STATUS_SUCCESS;
    case trnsciErrorInvalidValue: return TRNSOLVER_STATUS_INVALID_VALUE;
    case trnsciErrorMemoryAllocation:
    case trnsciErrorBusy: return TRNSOLVER_STATUS_ALLOC_FAILED; /* no queue slot: retry later */
    case trnsciErrorNoDevice:
    case trnsciErrorInitializationError:
    case trnsciErrorInsufficientDriver: return TRNSOLVER_STATUS_NOT_INITIALIZED;
    case trnsciErrorNotSupported: return TRNSOLVER_STATUS_NOT_SUPPORTED;
    case trnsciErrorUnknown: return TRNSOLVER_STATUS_INTERNAL_ERROR;
    default: return TRNSOLVER_STATUS_EXECUTION_FAILED;
    }
}

trn_client *trn_solver_begin(trnsolverDnHandle_t handle, trnsolverStatus_t *st) {
    if (!handle) {
        trn_fail(trnsciErrorInvalidValue, "trnsolver: handle is NULL");
        *st = TRNSOLVER_STATUS_NOT_INITIALIZED;
        return NULL;
    }
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        *st = TRNSOLVER_STATUS_NOT_INITIALIZED;
    return c;
}

int trn_solver_ref(trn_client *c, const void *p, const char *what, Trnsci__V1__BufferRef *ref,
                   trnsolverStatus_t *st) {
    const trnsciError_t e = trn_client_resolve(c, p, what, ref);
    if (e == trnsciSuccess)
        return 0;
    *st = trn_solver_status(e);
    return -1;
}

trnsolverStatus_t trn_solver_submit(trn_client *c, trnsolverDnHandle_t handle, Trnsci__V1__Op *op) {
    const trnsciError_t e = trn_client_submit(c, handle->stream, op);
    if (e == trnsciSuccess)
        trn_ok();
    return trn_solver_status(e);
}

trnsolverStatus_t trn_solver_no_workspace(trnsolverDnHandle_t handle, int *lwork, const char *fn) {
    if (!handle)
        return TRNSOLVER_STATUS_NOT_INITIALIZED;
    if (!lwork)
        return trn_solver_status(trn_fail(trnsciErrorInvalidValue, "%s: lwork is NULL", fn));
    *lwork = 0;
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnCreate(trnsolverDnHandle_t *handle) {
    if (!handle)
        return trn_solver_status(
            trn_fail(trnsciErrorInvalidValue, "trnsolverDnCreate: handle is NULL"));
    trnsciError_t e;
    if (!trn_client_get(&e))
        return TRNSOLVER_STATUS_NOT_INITIALIZED;
    trnsolverDnHandle_t h = calloc(1, sizeof(*h));
    if (!h)
        return trn_solver_status(
            trn_fail(trnsciErrorMemoryAllocation, "trnsolverDnCreate: out of memory"));
    *handle = h;
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnDestroy(trnsolverDnHandle_t handle) {
    if (!handle)
        return TRNSOLVER_STATUS_NOT_INITIALIZED;
    free(handle);
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnSetStream(trnsolverDnHandle_t handle, trnsciStream_t streamId) {
    if (!handle)
        return TRNSOLVER_STATUS_NOT_INITIALIZED;
    handle->stream = streamId;
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnGetStream(trnsolverDnHandle_t handle, trnsciStream_t *streamId) {
    if (!handle)
        return TRNSOLVER_STATUS_NOT_INITIALIZED;
    if (!streamId)
        return trn_solver_status(
            trn_fail(trnsciErrorInvalidValue, "trnsolverDnGetStream: streamId is NULL"));
    *streamId = handle->stream;
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnSetDeterministicMode(trnsolverDnHandle_t handle,
                                                  trnsolverDeterministicMode_t mode) {
    if (!handle)
        return TRNSOLVER_STATUS_NOT_INITIALIZED;
    if (mode != TRNSOLVER_DETERMINISTIC_RESULTS &&
        mode != TRNSOLVER_ALLOW_NON_DETERMINISTIC_RESULTS)
        return trn_solver_status(trn_fail(trnsciErrorInvalidValue,
                                          "trnsolverDnSetDeterministicMode: mode %d is not "
                                          "DETERMINISTIC_RESULTS (1) or "
                                          "ALLOW_NON_DETERMINISTIC_RESULTS (2)",
                                          (int)mode));
    handle->mode = mode; /* every kernel is deterministic either way */
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnGetDeterministicMode(trnsolverDnHandle_t handle,
                                                  trnsolverDeterministicMode_t *mode) {
    if (!handle)
        return TRNSOLVER_STATUS_NOT_INITIALIZED;
    if (!mode)
        return trn_solver_status(
            trn_fail(trnsciErrorInvalidValue, "trnsolverDnGetDeterministicMode: mode is NULL"));
    *mode = handle->mode ? handle->mode : TRNSOLVER_DETERMINISTIC_RESULTS;
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverGetVersion(int *version) {
    if (!version)
        return trn_solver_status(
            trn_fail(trnsciErrorInvalidValue, "trnsolverGetVersion: version is NULL"));
    *version = TRNSCI_VERSION_MAJOR * 10000 + TRNSCI_VERSION_MINOR * 100 + TRNSCI_VERSION_PATCH;
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

const char *trnsolverGetStatusName(trnsolverStatus_t status) {
    switch (status) {
#define NAME(s)                                                                                    \
    case TRNSOLVER_STATUS_##s: return "TRNSOLVER_STATUS_" #s;
        NAME(SUCCESS)
        NAME(NOT_INITIALIZED)
        NAME(ALLOC_FAILED)
        NAME(INVALID_VALUE)
        NAME(ARCH_MISMATCH)
        NAME(MAPPING_ERROR)
        NAME(EXECUTION_FAILED)
        NAME(INTERNAL_ERROR)
        NAME(MATRIX_TYPE_NOT_SUPPORTED)
        NAME(NOT_SUPPORTED)
        NAME(ZERO_PIVOT)
        NAME(INVALID_LICENSE)
        NAME(IRS_PARAMS_NOT_INITIALIZED)
        NAME(IRS_PARAMS_INVALID)
        NAME(IRS_PARAMS_INVALID_PREC)
        NAME(IRS_PARAMS_INVALID_REFINE)
        NAME(IRS_PARAMS_INVALID_MAXITER)
        NAME(IRS_INTERNAL_ERROR)
        NAME(IRS_NOT_SUPPORTED)
        NAME(IRS_OUT_OF_RANGE)
        NAME(IRS_NRHS_NOT_SUPPORTED_FOR_REFINE_GMRES)
        NAME(IRS_INFOS_NOT_INITIALIZED)
        NAME(IRS_INFOS_NOT_DESTROYED)
        NAME(IRS_MATRIX_SINGULAR)
        NAME(INVALID_WORKSPACE)
#undef NAME
    }
    return "TRNSOLVER_STATUS_UNKNOWN";
}

const char *trnsolverGetStatusString(trnsolverStatus_t status) {
    switch (status) {
    case TRNSOLVER_STATUS_SUCCESS: return "the operation completed successfully";
    case TRNSOLVER_STATUS_NOT_INITIALIZED: return "the library was not initialized";
    case TRNSOLVER_STATUS_ALLOC_FAILED: return "resource allocation failed";
    case TRNSOLVER_STATUS_INVALID_VALUE: return "an unsupported value or parameter was passed";
    case TRNSOLVER_STATUS_ARCH_MISMATCH:
        return "an absent device architectural feature is required";
    case TRNSOLVER_STATUS_MAPPING_ERROR: return "an access to device memory space failed";
    case TRNSOLVER_STATUS_EXECUTION_FAILED: return "the program failed to execute";
    case TRNSOLVER_STATUS_INTERNAL_ERROR: return "an internal operation failed";
    case TRNSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "the matrix type is not supported";
    case TRNSOLVER_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
    case TRNSOLVER_STATUS_ZERO_PIVOT: return "a zero pivot was encountered";
    case TRNSOLVER_STATUS_INVALID_LICENSE: return "the license is invalid";
    case TRNSOLVER_STATUS_IRS_PARAMS_NOT_INITIALIZED:
    case TRNSOLVER_STATUS_IRS_PARAMS_INVALID:
    case TRNSOLVER_STATUS_IRS_PARAMS_INVALID_PREC:
    case TRNSOLVER_STATUS_IRS_PARAMS_INVALID_REFINE:
    case TRNSOLVER_STATUS_IRS_PARAMS_INVALID_MAXITER:
    case TRNSOLVER_STATUS_IRS_INTERNAL_ERROR:
    case TRNSOLVER_STATUS_IRS_NOT_SUPPORTED:
    case TRNSOLVER_STATUS_IRS_OUT_OF_RANGE:
    case TRNSOLVER_STATUS_IRS_NRHS_NOT_SUPPORTED_FOR_REFINE_GMRES:
    case TRNSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED:
    case TRNSOLVER_STATUS_IRS_INFOS_NOT_DESTROYED:
    case TRNSOLVER_STATUS_IRS_MATRIX_SINGULAR: return "an iterative refinement (IRS) status";
    case TRNSOLVER_STATUS_INVALID_WORKSPACE: return "the workspace is invalid";
    }
    return "unknown status";
}
