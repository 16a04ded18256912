/*
 * tensor_internal.h — what the trntensor client files (client/tensor*.c)
 * share: the handle, descriptor, operation and plan records, the compute
 * descriptors, and the status mapping. Internal to client/.
 *
 * Descriptors and operation descriptors are plain host records of what the
 * user passed, copied (never pointing into user arrays); the daemon checks
 * them again when a plan is made or an op is submitted.
 */
#ifndef TRN_CLIENT_TENSOR_INTERNAL_H
#define TRN_CLIENT_TENSOR_INTERNAL_H

#include "client/client.h"
#include "trnsci/trntensor.h"

struct trntensorHandle {
    trnsciStream_t stream; /* for calls without a stream argument */
};

/* A compute descriptor: the trnblasComputeType_t value it stands for, or 0
 * when trntensor does not support it. */
struct trntensorComputeDescriptor {
    int compute;
    const char *name;
};

/* trnsciError_t -> trntensorStatus_t. */
trntensorStatus_t trn_tensor_status(trnsciError_t e);
/* Records the message (trnsciGetLastErrorMessage) and returns the status of e. */
trntensorStatus_t trn_tensor_fail(trnsciError_t e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
