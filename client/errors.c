/*
 * errors.c — error codes, their names and texts, and the per-thread last
 * error (as the CUDA runtime keeps it). trnsciErrorNotReady, a query's "not
 * yet", sets the message but is not recorded as the last error.
 */
#include <stdarg.h>
#include <stdio.h>

#include "client/client.h"

static _Thread_local trnsciError_t last_error = trnsciSuccess;
static _Thread_local char last_message[512];

trnsciError_t trn_fail(trnsciError_t e, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_message, sizeof(last_message), fmt, ap);
    va_end(ap);
    last_error = e;
    return e;
}

trnsciError_t trn_not_ready(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_message, sizeof(last_message), fmt, ap);
    va_end(ap);
    return trnsciErrorNotReady;
}

trnsciError_t trn_retag(trnsciError_t e) {
    last_error = e;
    return e;
}

trnsciError_t trn_ok(void) {
    last_message[0] = '\0';
    return trnsciSuccess;
}

trnsciError_t trnsciGetLastError(void) {
    const trnsciError_t e = last_error;
    last_error = trnsciSuccess;
    return e;
}

trnsciError_t trnsciPeekAtLastError(void) {
    return last_error;
}

const char *trnsciGetLastErrorMessage(void) {
    return last_message;
}

trnsciError_t trn_error_from_wire(trn_wire_code code) {
    switch (code) {
    case TRN_WIRE_OK: return trnsciSuccess;
    case TRN_WIRE_INVALID_ARGUMENT:
    case TRN_WIRE_OUT_OF_RANGE:
    case TRN_WIRE_NOT_FOUND:
    case TRN_WIRE_ALREADY_EXISTS: return trnsciErrorInvalidValue;
    case TRN_WIRE_RESOURCE_EXHAUSTED: return trnsciErrorMemoryAllocation;
    case TRN_WIRE_FAILED_PRECONDITION: return trnsciErrorInsufficientDriver;
    case TRN_WIRE_ABORTED: return trnsciErrorContextIsDestroyed;
    case TRN_WIRE_UNIMPLEMENTED: return trnsciErrorNotSupported;
    case TRN_WIRE_UNAVAILABLE: return trnsciErrorDevicesUnavailable;
    case TRN_WIRE_DEADLINE_EXCEEDED: return trnsciErrorTimeout;
    case TRN_WIRE_CANCELLED: return trnsciErrorCancelled;
    case TRN_WIRE_UNAUTHENTICATED: return trnsciErrorUnauthenticated;
    case TRN_WIRE_PERMISSION_DENIED: return trnsciErrorNotPermitted;
    case TRN_WIRE_INTERNAL: return trnsciErrorLaunchFailure;
    case TRN_WIRE_UNKNOWN:
    case TRN_WIRE_DATA_LOSS: break;
    }
    return trnsciErrorUnknown;
}

typedef struct error_text {
    trnsciError_t code;
    const char *name;
    const char *text;
} error_text;

static const error_text texts[] = {
    {trnsciSuccess, "trnsciSuccess", "no error"},
    {trnsciErrorInvalidValue, "trnsciErrorInvalidValue", "invalid argument"},
    {trnsciErrorMemoryAllocation, "trnsciErrorMemoryAllocation", "out of memory"},
    {trnsciErrorInitializationError, "trnsciErrorInitializationError", "initialization error"},
    {trnsciErrorInvalidPitchValue, "trnsciErrorInvalidPitchValue", "invalid pitch argument"},
    {trnsciErrorHostMemoryAlreadyRegistered, "trnsciErrorHostMemoryAlreadyRegistered",
     "part or all of the requested memory range is already mapped"},
    {trnsciErrorHostMemoryNotRegistered, "trnsciErrorHostMemoryNotRegistered",
     "pointer does not correspond to a registered memory region"},
    {trnsciErrorInvalidMemcpyDirection, "trnsciErrorInvalidMemcpyDirection",
     "invalid copy direction for memcpy"},
    {trnsciErrorInsufficientDriver, "trnsciErrorInsufficientDriver",
     "the daemon speaks an incompatible protocol version"},
    {trnsciErrorDevicesUnavailable, "trnsciErrorDevicesUnavailable",
     "the daemon is unavailable or shutting down"},
    {trnsciErrorNoDevice, "trnsciErrorNoDevice", "no trnscid daemon is reachable"},
    {trnsciErrorInvalidDevice, "trnsciErrorInvalidDevice", "invalid device ordinal"},
    {trnsciErrorInvalidResourceHandle, "trnsciErrorInvalidResourceHandle",
     "invalid resource handle"},
    {trnsciErrorNotReady, "trnsciErrorNotReady", "the work queried has not completed yet"},
    {trnsciErrorContextIsDestroyed, "trnsciErrorContextIsDestroyed",
     "the daemon ended this process's session"},
    {trnsciErrorLaunchFailure, "trnsciErrorLaunchFailure", "a kernel failed in the daemon"},
    {trnsciErrorNotPermitted, "trnsciErrorNotPermitted", "operation not permitted"},
    {trnsciErrorNotSupported, "trnsciErrorNotSupported", "operation not supported"},
    {trnsciErrorTimeout, "trnsciErrorTimeout", "timeout expired"},
    {trnsciErrorIllegalState, "trnsciErrorIllegalState",
     "the operation cannot be performed in the present state"},
    {trnsciErrorStreamCaptureUnsupported, "trnsciErrorStreamCaptureUnsupported",
     "operation not permitted when stream is capturing"},
    {trnsciErrorStreamCaptureInvalidated, "trnsciErrorStreamCaptureInvalidated",
     "operation failed due to a previous error during capture"},
    {trnsciErrorStreamCaptureMerge, "trnsciErrorStreamCaptureMerge",
     "operation would result in a merge of separate capture sequences"},
    {trnsciErrorStreamCaptureUnmatched, "trnsciErrorStreamCaptureUnmatched",
     "capture was not ended in the same stream as it began"},
    {trnsciErrorStreamCaptureUnjoined, "trnsciErrorStreamCaptureUnjoined",
     "capturing stream has unjoined work"},
    {trnsciErrorStreamCaptureIsolation, "trnsciErrorStreamCaptureIsolation",
     "dependency created on uncaptured work in another stream"},
    {trnsciErrorStreamCaptureImplicit, "trnsciErrorStreamCaptureImplicit",
     "operation would make the legacy stream depend on a capturing blocking stream"},
    {trnsciErrorCapturedEvent, "trnsciErrorCapturedEvent",
     "operation not permitted on an event last recorded in a capturing stream"},
    {trnsciErrorStreamCaptureWrongThread, "trnsciErrorStreamCaptureWrongThread",
     "attempt to terminate a thread-local capture sequence from another thread"},
    {trnsciErrorGraphExecUpdateFailure, "trnsciErrorGraphExecUpdateFailure",
     "the graph update was not performed because it included changes which violated "
     "constraints specific to instantiated graph update"},
    {trnsciErrorUnknown, "trnsciErrorUnknown", "unknown error"},
    {trnsciErrorBusy, "trnsciErrorBusy", "a daemon limit was reached"},
    {trnsciErrorUnauthenticated, "trnsciErrorUnauthenticated",
     "the daemon refused the credentials"},
    {trnsciErrorCancelled, "trnsciErrorCancelled", "the operation was cancelled"},
};

static const error_text *find(trnsciError_t e) {
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
        if (texts[i].code == e)
            return &texts[i];
    return NULL;
}

const char *trnsciGetErrorString(trnsciError_t error) {
    const error_text *t = find(error);
    return t ? t->text : "unrecognized error code";
}

const char *trnsciGetErrorName(trnsciError_t error) {
    const error_text *t = find(error);
    return t ? t->name : "unrecognized error code";
}
