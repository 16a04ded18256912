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
    /* The plan-cache keys of the contractions planned with this handle
     * (tensor_cache.c: trntensorHandleWritePlanCacheToFile). */
    char **keys;
    size_t nkeys, cap;
};

/* A compute descriptor: the trnblasComputeType_t value it stands for, or 0
 * when trntensor does not support it. */
struct trntensorComputeDescriptor {
    int compute;
    const char *name;
};

struct trntensorTensorDescriptor {
    uint32_t nmodes;
    int64_t extent[TRNTENSOR_MAX_MODES];
    int64_t stride[TRNTENSOR_MAX_MODES];
    trnsciDataType_t type;
    /* Made with stride NULL: as the output of a padded permutation, its
     * packed strides are those of the padded extents. */
    int packed;
};

/* What an operation descriptor describes. */
typedef enum trn_tensor_kind {
    TRN_TENSOR_CONTRACTION = 1,
    TRN_TENSOR_TRINARY = 2,
    TRN_TENSOR_BINARY = 3,
    TRN_TENSOR_PERMUTATION = 4,
    TRN_TENSOR_REDUCTION = 5,
    TRN_TENSOR_CONTRACTION_TRINARY = 6, /* E = alpha A B C + beta D */
} trn_tensor_kind;

/* Operands by role; an operation uses some of them (a permutation's output
 * is D; E is a trinary contraction's output, D its addend). */
enum { TRN_T_A = 0, TRN_T_B = 1, TRN_T_C = 2, TRN_T_D = 3, TRN_T_E = 4, TRN_T_ROLES = 5 };

struct trntensorOperationDescriptor {
    trn_tensor_kind kind;
    int present[TRN_T_ROLES];
    struct trntensorTensorDescriptor t[TRN_T_ROLES]; /* copies */
    int32_t mode[TRN_T_ROLES][TRNTENSOR_MAX_MODES];
    trntensorOperator_t op[TRN_T_ROLES];
    trntensorOperator_t op_ab, op_abc, op_reduce;
    int compute; /* trnblasComputeType_t value */
    int32_t tag;
    /* Permutations: the output's padding
     * (TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT/RIGHT/VALUE), per mode
     * of the output (D); padded when any count is set. pad_value is the
     * value of D's type, widened. */
    int padded;
    uint32_t pad_left[TRNTENSOR_MAX_MODES], pad_right[TRNTENSOR_MAX_MODES];
    double pad_value[2]; /* real, imaginary part */
};

struct trntensorPlanPreference {
    trntensorAlgo_t algo;
    trntensorJitMode_t jit;
};

struct trntensorPlan {
    struct trntensorOperationDescriptor op;
    /* Contractions: the daemon's plan (PlanCreate) in session `generation`. */
    uint32_t plan_id;
    uint64_t generation;
};

/* The wire's ComputeType of a trnblasComputeType_t value, or -1. */
int trn_tensor_wire_compute(int compute);
/* Makes plan->plan_id in the client's current session (PlanCreate); fn
 * names the caller in messages. */
trnsciError_t trn_tensor_plan_create(trn_client *c, struct trntensorPlan *plan, const char *fn);
/* Releases plan (and the daemon's handle) without touching the last error
 * (trntensorDestroyPlan, and trntensorEinsum after a failure). */
void trn_tensor_plan_free(struct trntensorPlan *plan);
/* The descriptor of operand `role` of op as a wire message (arrays point
 * into op). */
void trn_tensor_wire_desc(const struct trntensorOperationDescriptor *op, int role,
                          Trnsci__V1__TensorDescriptor *w);
/* D's descriptor of a padded permutation: the padded extents in ext[],
 * and in str[] the strides (packed over the padded extents when descB was
 * made with stride NULL, else descB's). */
void trn_tensor_wire_padded(const struct trntensorOperationDescriptor *op, int64_t ext[],
                            int64_t str[], Trnsci__V1__TensorDescriptor *w);

/* The type of op's host scalars (alpha, beta, gamma): the data type, or
 * for a permutation that converts (typeA != typeB) the compute
 * descriptor's precision (64F: TRNSCI_R_64F, else TRNSCI_R_32F), as
 * cuTENSOR's CUTENSOR_OPERATION_DESCRIPTOR_SCALAR_TYPE. */
trnsciDataType_t trn_tensor_scalar_type(const struct trntensorOperationDescriptor *op);
/* Bytes of one element of a trntensor data type (R/C 32F/64F). */
size_t trn_tensor_type_size(trnsciDataType_t t);
/* Whether t is TRNSCI_C_32F or TRNSCI_C_64F. */
int trn_tensor_type_complex(trnsciDataType_t t);
/* Whether t is 16-bit storage (TRNSCI_R_16F, TRNSCI_R_16BF), and whether
 * any operand of op is (such ops need protocol 1.14). */
int trn_tensor_type_narrow(trnsciDataType_t t);
int trn_tensor_op_narrow(const struct trntensorOperationDescriptor *op);
/* "TRNSCI_R_32F", ... for messages. */
const char *trn_tensor_type_name(trnsciDataType_t t);

/* Records a contraction planned with h (its plan-cache key), and frees
 * the record (tensor_cache.c). */
void trn_tensor_handle_planned(trntensorHandle_t h, const struct trntensorOperationDescriptor *op);
void trn_tensor_handle_forget(trntensorHandle_t h);

/* trnsciError_t -> trntensorStatus_t. */
trntensorStatus_t trn_tensor_status(trnsciError_t e);
/* Records the message (trnsciGetLastErrorMessage) and returns the status of e. */
trntensorStatus_t trn_tensor_fail(trnsciError_t e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
