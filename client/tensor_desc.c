/*
 * tensor_desc.c — trntensor's host objects: tensor descriptors, operation
 * descriptors (contraction, element-wise, permutation, reduction), plan
 * preferences and plans. Only a contraction plan talks to the daemon: it is
 * made in the daemon's plan cache (PlanCreate with a TensorContractionSpec),
 * which checks the modes and extents and shares the plan with every
 * session that asks for the same contraction. The other operations are
 * checked by the daemon when they are executed; a trinary contraction's
 * mode rules are also checked when it is created (ops/tensor_trinary.c, the
 * daemon's own function), so that the call fails where cuTENSOR's does.
 */
#include <stdlib.h>
#include <string.h>

#include "client/tensor_internal.h"
#include "client/validate.h"
#include "ops/tensor_plan.h"
#include "trnsci/trn_fp16.h"

/* Protocol minor that carries trntensor. */
#define TENSOR_MINOR 5u
/* Protocol minor from which the daemon takes 16-bit tensors. */
#define NARROW_MINOR 14u

int trn_tensor_wire_compute(int compute) {
    switch (compute) {
    case 68: return TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F;
    case 70: return TRNSCI__V1__COMPUTE_TYPE__COMPUTE_64F;
    case 74: return TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_16F;
    case 75: return TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_16BF;
    case 77: return TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_TF32;
    case 1075: return TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_BF16X3;
    case 79: return TRNSCI__V1__COMPUTE_TYPE__COMPUTE_64F_EMULATED;
    default: return -1;
    }
}

trnsciDataType_t trn_tensor_scalar_type(const struct trntensorOperationDescriptor *op) {
    /* 16-bit storage computes in 32F: float scalars, as cuTENSOR's. */
    if (trn_tensor_type_narrow(op->t[TRN_T_A].type))
        return TRNSCI_R_32F;
    if (op->kind != TRN_TENSOR_PERMUTATION || op->t[TRN_T_A].type == op->t[TRN_T_D].type)
        return op->t[TRN_T_A].type;
    /* trnblasComputeType_t: 70 64F, 79 64F_EMULATED */
    return op->compute == 70 || op->compute == 79 ? TRNSCI_R_64F : TRNSCI_R_32F;
}

const char *trn_tensor_type_name(trnsciDataType_t t) {
    switch (t) {
    case TRNSCI_R_32F: return "TRNSCI_R_32F";
    case TRNSCI_R_64F: return "TRNSCI_R_64F";
    case TRNSCI_R_16F: return "TRNSCI_R_16F";
    case TRNSCI_R_16BF: return "TRNSCI_R_16BF";
    case TRNSCI_C_32F: return "TRNSCI_C_32F";
    case TRNSCI_C_64F: return "TRNSCI_C_64F";
    case TRNSCI_C_16F: return "TRNSCI_C_16F";
    default: return "an integer or unknown type";
    }
}

static Trnsci__V1__DataType wire_type(trnsciDataType_t t) {
    switch (t) {
    case TRNSCI_R_64F: return TRNSCI__V1__DATA_TYPE__R_64F;
    case TRNSCI_C_32F: return TRNSCI__V1__DATA_TYPE__C_32F;
    case TRNSCI_C_64F: return TRNSCI__V1__DATA_TYPE__C_64F;
    case TRNSCI_R_16F: return TRNSCI__V1__DATA_TYPE__R_16F;
    case TRNSCI_R_16BF: return TRNSCI__V1__DATA_TYPE__R_16BF;
    default: return TRNSCI__V1__DATA_TYPE__R_32F;
    }
}

int trn_tensor_type_narrow(trnsciDataType_t t) {
    return t == TRNSCI_R_16F || t == TRNSCI_R_16BF;
}

int trn_tensor_op_narrow(const struct trntensorOperationDescriptor *op) {
    for (int r = 0; r < TRN_T_ROLES; r++)
        if (op->present[r] && trn_tensor_type_narrow(op->t[r].type))
            return 1;
    return 0;
}

size_t trn_tensor_type_size(trnsciDataType_t t) {
    switch (t) {
    case TRNSCI_R_64F:
    case TRNSCI_C_32F: return 8;
    case TRNSCI_C_64F: return 16;
    case TRNSCI_R_16F:
    case TRNSCI_R_16BF: return 2;
    default: return 4;
    }
}

int trn_tensor_type_complex(trnsciDataType_t t) {
    return t == TRNSCI_C_32F || t == TRNSCI_C_64F;
}

void trn_tensor_wire_desc(const struct trntensorOperationDescriptor *op, int role,
                          Trnsci__V1__TensorDescriptor *w) {
    const struct trntensorTensorDescriptor *t = &op->t[role];
    trnsci__v1__tensor_descriptor__init(w);
    w->type = wire_type(t->type);
    w->n_extent = w->n_stride = w->n_mode = t->nmodes;
    w->extent = (int64_t *)t->extent;
    w->stride = (int64_t *)t->stride;
    w->mode = (int32_t *)op->mode[role];
    w->op = (uint32_t)op->op[role];
}

void trn_tensor_wire_padded(const struct trntensorOperationDescriptor *op, int64_t ext[],
                            int64_t str[], Trnsci__V1__TensorDescriptor *w) {
    const struct trntensorTensorDescriptor *t = &op->t[TRN_T_D];
    trn_tensor_wire_desc(op, TRN_T_D, w);
    uint64_t packed = 1;
    for (uint32_t i = 0; i < t->nmodes; i++) {
        /* Wrapping of absurd sizes is refused by the daemon (extent or
         * stride < 1, or an extent in memory that overflows). */
        ext[i] = (int64_t)((uint64_t)t->extent[i] + op->pad_left[i] + op->pad_right[i]);
        str[i] = t->packed ? (int64_t)packed : t->stride[i];
        packed *= (uint64_t)(ext[i] > 0 ? ext[i] : 1);
    }
    w->extent = ext;
    w->stride = str;
}

/* ---- tensor descriptors ----------------------------------------------------------- */

trntensorStatus_t trntensorCreateTensorDescriptor(const trntensorHandle_t handle,
                                                  trntensorTensorDescriptor_t *desc,
                                                  const uint32_t numModes, const int64_t extent[],
                                                  const int64_t stride[], trnsciDataType_t dataType,
                                                  uint32_t alignmentRequirement) {
    static const char fn[] = "trntensorCreateTensorDescriptor";
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    if (!desc || (numModes > 0 && !extent))
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: desc or extent is NULL", fn);
    if (numModes > TRNTENSOR_MAX_MODES)
        return trn_tensor_fail(trnsciErrorNotSupported, "%s: numModes %u exceeds the %d supported",
                               fn, numModes, TRNTENSOR_MAX_MODES);
    if (dataType != TRNSCI_R_32F && dataType != TRNSCI_R_64F && dataType != TRNSCI_C_32F &&
        dataType != TRNSCI_C_64F && !trn_tensor_type_narrow(dataType))
        return trn_tensor_fail(trnsciErrorNotSupported,
                               "%s: data type %d (%s) is not supported (TRNSCI_R_32F, "
                               "TRNSCI_R_64F, TRNSCI_C_32F, TRNSCI_C_64F, TRNSCI_R_16F, "
                               "TRNSCI_R_16BF)",
                               fn, (int)dataType, trn_tensor_type_name(dataType));
    if (alignmentRequirement & (alignmentRequirement - 1))
        return trn_tensor_fail(trnsciErrorInvalidValue,
                               "%s: alignmentRequirement %u is not a power of two", fn,
                               alignmentRequirement);
    struct trntensorTensorDescriptor *d = calloc(1, sizeof(*d));
    if (!d)
        return trn_tensor_fail(trnsciErrorMemoryAllocation, "%s: out of memory", fn);
    d->nmodes = numModes;
    d->type = dataType;
    d->packed = stride == NULL;
    int64_t packed = 1;
    for (uint32_t i = 0; i < numModes; i++) {
        d->extent[i] = extent[i];
        d->stride[i] = stride ? stride[i] : packed;
        /* Packed strides of absurd extents wrap; the daemon refuses them. */
        packed = (int64_t)((uint64_t)packed * (uint64_t)(extent[i] > 0 ? extent[i] : 1));
    }
    *desc = d;
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}

trntensorStatus_t trntensorDestroyTensorDescriptor(trntensorTensorDescriptor_t desc) {
    free(desc);
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}

/* ---- operation descriptors ------------------------------------------------------------ */

/* Copies operand `role` (descriptor, modes, operator) into op. */
static trntensorStatus_t put(struct trntensorOperationDescriptor *op, int role,
                             const trntensorTensorDescriptor_t t, const int32_t mode[],
                             trntensorOperator_t unary, const char *fn, const char *name) {
    if (!t)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: desc%s is NULL", fn, name);
    if (t->nmodes > 0 && !mode)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: mode%s is NULL", fn, name);
    /* Only a permutation converts (cuTENSOR's typeA != typeB); the other
     * operations take one data type (docs/rosetta.md lists the
     * restriction). */
    if (op->present[TRN_T_A] && t->type != op->t[TRN_T_A].type &&
        op->kind != TRN_TENSOR_PERMUTATION)
        return trn_tensor_fail(trnsciErrorNotSupported,
                               "%s: desc%s has data type %s and descA %s: the operands share one "
                               "data type (only trntensorCreatePermutation converts between "
                               "TRNSCI_R_32F and TRNSCI_R_64F)",
                               fn, name, trn_tensor_type_name(t->type),
                               trn_tensor_type_name(op->t[TRN_T_A].type));
    op->present[role] = 1;
    op->t[role] = *t;
    if (t->nmodes)
        memcpy(op->mode[role], mode, t->nmodes * sizeof(int32_t));
    op->op[role] = unary;
    return TRNTENSOR_STATUS_SUCCESS;
}

/* The common end of the Create* calls: compute descriptor, allocation. */
static trntensorStatus_t finish(const struct trntensorOperationDescriptor *op,
                                const trntensorComputeDescriptor_t compute, const char *fn,
                                trntensorOperationDescriptor_t *desc) {
    if (!compute)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: descCompute is NULL", fn);
    if (trn_tensor_wire_compute(compute->compute) < 0)
        return trn_tensor_fail(trnsciErrorNotSupported,
                               "%s: compute descriptor %s is not supported (32F, 64F, 16F, "
                               "16BF, 32F_FAST_TF32, 32F_BF16X3, 64F_EMULATED)",
                               fn, compute->name);
    struct trntensorOperationDescriptor *d = malloc(sizeof(*d));
    if (!d)
        return trn_tensor_fail(trnsciErrorMemoryAllocation, "%s: out of memory", fn);
    *d = *op;
    d->compute = compute->compute;
    *desc = d;
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}

#define PUT(role, t, m, o, name)                                                                   \
    do {                                                                                           \
        const trntensorStatus_t st_ = put(&op, role, t, m, o, fn, name);                           \
        if (st_ != TRNTENSOR_STATUS_SUCCESS)                                                       \
            return st_;                                                                            \
    } while (0)

trntensorStatus_t
trntensorCreateContraction(const trntensorHandle_t handle, trntensorOperationDescriptor_t *desc,
                           const trntensorTensorDescriptor_t descA, const int32_t modeA[],
                           trntensorOperator_t opA, const trntensorTensorDescriptor_t descB,
                           const int32_t modeB[], trntensorOperator_t opB,
                           const trntensorTensorDescriptor_t descC, const int32_t modeC[],
                           trntensorOperator_t opC, const trntensorTensorDescriptor_t descD,
                           const int32_t modeD[], const trntensorComputeDescriptor_t descCompute) {
    static const char fn[] = "trntensorCreateContraction";
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    if (!desc)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: desc is NULL", fn);
    struct trntensorOperationDescriptor op = {.kind = TRN_TENSOR_CONTRACTION};
    PUT(TRN_T_A, descA, modeA, opA, "A");
    PUT(TRN_T_B, descB, modeB, opB, "B");
    PUT(TRN_T_C, descC, modeC, opC, "C");
    PUT(TRN_T_D, descD, modeD, TRNTENSOR_OP_IDENTITY, "D");
    /* cuTENSOR's rule: C and D have one layout and the same modes. */
    const int same = descC->nmodes == descD->nmodes &&
                     !memcmp(descC->extent, descD->extent, descD->nmodes * sizeof(int64_t)) &&
                     !memcmp(descC->stride, descD->stride, descD->nmodes * sizeof(int64_t)) &&
                     !memcmp(op.mode[TRN_T_C], op.mode[TRN_T_D], descD->nmodes * sizeof(int32_t));
    if (!same)
        return trn_tensor_fail(trnsciErrorInvalidValue,
                               "%s: descC/modeC must equal descD/modeD (extents, strides, modes)",
                               fn);
    if ((opC != TRNTENSOR_OP_IDENTITY && opC != TRNTENSOR_OP_CONJ))
        return trn_tensor_fail(trnsciErrorNotSupported, "%s: opC must be IDENTITY or CONJ", fn);
    /* C is added as it is (the wire's contraction carries no operator for
     * C): CONJ is the identity on real data only. */
    if (opC == TRNTENSOR_OP_CONJ && trn_tensor_type_complex(descC->type))
        return trn_tensor_fail(trnsciErrorNotSupported,
                               "%s: opC CONJ on complex data is not supported (IDENTITY)", fn);
    return finish(&op, descCompute, fn, desc);
}

/* The layout of operand `role` of op, for the host-side trinary check. */
static void layout_of_role(const struct trntensorOperationDescriptor *op, int role,
                           trn_tensor_layout *l) {
    memset(l, 0, sizeof(*l));
    l->nmodes = (int)op->t[role].nmodes;
    for (int i = 0; i < l->nmodes; i++) {
        l->mode[i] = op->mode[role][i];
        l->extent[i] = op->t[role].extent[i];
        l->stride[i] = op->t[role].stride[i];
    }
}

/* The extents and strides the daemon's rules need (>= 1), checked on the
 * host so that the call fails where cuTENSOR's does. */
static int layout_sane(const struct trntensorTensorDescriptor *t) {
    for (uint32_t i = 0; i < t->nmodes; i++)
        if (t->extent[i] < 1 || t->stride[i] < 1)
            return 0;
    return 1;
}

trntensorStatus_t trntensorCreateContractionTrinary(
    const trntensorHandle_t handle, trntensorOperationDescriptor_t *desc,
    const trntensorTensorDescriptor_t descA, const int32_t modeA[], trntensorOperator_t opA,
    const trntensorTensorDescriptor_t descB, const int32_t modeB[], trntensorOperator_t opB,
    const trntensorTensorDescriptor_t descC, const int32_t modeC[], trntensorOperator_t opC,
    const trntensorTensorDescriptor_t descD, const int32_t modeD[], trntensorOperator_t opD,
    const trntensorTensorDescriptor_t descE, const int32_t modeE[],
    const trntensorComputeDescriptor_t descCompute) {
    static const char fn[] = "trntensorCreateContractionTrinary";
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    if (!desc)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: desc is NULL", fn);
    struct trntensorOperationDescriptor op = {.kind = TRN_TENSOR_CONTRACTION_TRINARY};
    PUT(TRN_T_A, descA, modeA, opA, "A");
    PUT(TRN_T_B, descB, modeB, opB, "B");
    PUT(TRN_T_C, descC, modeC, opC, "C");
    PUT(TRN_T_D, descD, modeD, opD, "D");
    PUT(TRN_T_E, descE, modeE, TRNTENSOR_OP_IDENTITY, "E");
    /* cuTENSOR's rule: D and E have one layout and the same modes. */
    const int same = descD->nmodes == descE->nmodes &&
                     !memcmp(descD->extent, descE->extent, descE->nmodes * sizeof(int64_t)) &&
                     !memcmp(descD->stride, descE->stride, descE->nmodes * sizeof(int64_t)) &&
                     !memcmp(op.mode[TRN_T_D], op.mode[TRN_T_E], descE->nmodes * sizeof(int32_t));
    if (!same)
        return trn_tensor_fail(trnsciErrorInvalidValue,
                               "%s: descD/modeD must equal descE/modeE (extents, strides, modes)",
                               fn);
    static const char names[4] = {'A', 'B', 'C', 'D'};
    for (int r = 0; r < 4; r++) {
        if (op.op[r] != TRNTENSOR_OP_IDENTITY && op.op[r] != TRNTENSOR_OP_CONJ)
            return trn_tensor_fail(trnsciErrorNotSupported, "%s: op%c must be IDENTITY or CONJ", fn,
                                   names[r]);
    }
    /* D is added as it is (as the binary contraction's C). */
    if (opD == TRNTENSOR_OP_CONJ && trn_tensor_type_complex(descD->type))
        return trn_tensor_fail(trnsciErrorNotSupported,
                               "%s: opD CONJ on complex data is not supported (IDENTITY)", fn);
    for (int r = 0; r < TRN_T_ROLES; r++)
        if (!layout_sane(&op.t[r]))
            return trn_tensor_fail(trnsciErrorInvalidValue,
                                   "%s: every extent and stride must be >= 1", fn);
    /* The daemon's mode rules, here too (pure: ops/tensor_trinary.c). */
    trn_tensor_layout l[4];
    layout_of_role(&op, TRN_T_A, &l[0]);
    layout_of_role(&op, TRN_T_B, &l[1]);
    layout_of_role(&op, TRN_T_C, &l[2]);
    layout_of_role(&op, TRN_T_E, &l[3]);
    for (int r = 0; r < 4; r++)
        for (int i = 0; i < l[r].nmodes; i++)
            for (int j = 0; j < i; j++)
                if (l[r].mode[i] == l[r].mode[j])
                    return trn_tensor_fail(trnsciErrorInvalidValue, "%s: mode%c repeats mode %d",
                                           fn, "ABCE"[r], (int)l[r].mode[i]);
    trn_tensor_trinary_plan *p = malloc(sizeof(*p));
    if (!p)
        return trn_tensor_fail(trnsciErrorMemoryAllocation, "%s: out of memory", fn);
    const int conj[3] = {0, 0, 0};
    char err[256];
    const trn_dtype t = descE->type == TRNSCI_R_64F    ? TRN_DTYPE_R64F
                        : descE->type == TRNSCI_C_32F  ? TRN_DTYPE_C32F
                        : descE->type == TRNSCI_C_64F  ? TRN_DTYPE_C64F
                        : descE->type == TRNSCI_R_16F  ? TRN_DTYPE_R16F
                        : descE->type == TRNSCI_R_16BF ? TRN_DTYPE_R16BF
                                                       : TRN_DTYPE_R32F;
    const int rc = trn_tensor_trinary_make(t, TRN_COMPUTE_DEFAULT, &l[0], &l[1], &l[2], &l[3], conj,
                                           p, err, sizeof(err));
    free(p);
    if (rc != 0)
        return trn_tensor_fail(rc == -2 ? trnsciErrorNotSupported : trnsciErrorInvalidValue,
                               "%s: %s", fn, err);
    return finish(&op, descCompute, fn, desc);
}

trntensorStatus_t trntensorCreateElementwiseTrinary(
    const trntensorHandle_t handle, trntensorOperationDescriptor_t *desc,
    const trntensorTensorDescriptor_t descA, const int32_t modeA[], trntensorOperator_t opA,
    const trntensorTensorDescriptor_t descB, const int32_t modeB[], trntensorOperator_t opB,
    const trntensorTensorDescriptor_t descC, const int32_t modeC[], trntensorOperator_t opC,
    const trntensorTensorDescriptor_t descD, const int32_t modeD[], trntensorOperator_t opAB,
    trntensorOperator_t opABC, const trntensorComputeDescriptor_t descCompute) {
    static const char fn[] = "trntensorCreateElementwiseTrinary";
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    if (!desc)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: desc is NULL", fn);
    struct trntensorOperationDescriptor op = {.kind = TRN_TENSOR_TRINARY};
    PUT(TRN_T_A, descA, modeA, opA, "A");
    PUT(TRN_T_B, descB, modeB, opB, "B");
    PUT(TRN_T_C, descC, modeC, opC, "C");
    PUT(TRN_T_D, descD, modeD, TRNTENSOR_OP_IDENTITY, "D");
    op.op_ab = opAB;
    op.op_abc = opABC;
    return finish(&op, descCompute, fn, desc);
}

trntensorStatus_t trntensorCreateElementwiseBinary(
    const trntensorHandle_t handle, trntensorOperationDescriptor_t *desc,
    const trntensorTensorDescriptor_t descA, const int32_t modeA[], trntensorOperator_t opA,
    const trntensorTensorDescriptor_t descC, const int32_t modeC[], trntensorOperator_t opC,
    const trntensorTensorDescriptor_t descD, const int32_t modeD[], trntensorOperator_t opAC,
    const trntensorComputeDescriptor_t descCompute) {
    static const char fn[] = "trntensorCreateElementwiseBinary";
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    if (!desc)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: desc is NULL", fn);
    struct trntensorOperationDescriptor op = {.kind = TRN_TENSOR_BINARY};
    PUT(TRN_T_A, descA, modeA, opA, "A");
    PUT(TRN_T_C, descC, modeC, opC, "C");
    PUT(TRN_T_D, descD, modeD, TRNTENSOR_OP_IDENTITY, "D");
    op.op_abc = opAC;
    return finish(&op, descCompute, fn, desc);
}

trntensorStatus_t
trntensorCreatePermutation(const trntensorHandle_t handle, trntensorOperationDescriptor_t *desc,
                           const trntensorTensorDescriptor_t descA, const int32_t modeA[],
                           trntensorOperator_t opA, const trntensorTensorDescriptor_t descB,
                           const int32_t modeB[], const trntensorComputeDescriptor_t descCompute) {
    static const char fn[] = "trntensorCreatePermutation";
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    if (!desc)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: desc is NULL", fn);
    struct trntensorOperationDescriptor op = {.kind = TRN_TENSOR_PERMUTATION};
    PUT(TRN_T_A, descA, modeA, opA, "A");
    PUT(TRN_T_D, descB, modeB, TRNTENSOR_OP_IDENTITY, "B");
    /* A conversion is formed in 32F or 64F (trnblasComputeType_t 68, 70;
     * the precision modes are for contractions), checked here rather than
     * at execution so that the call fails where cuTENSOR's would. */
    if (descA->type != descB->type &&
        (trn_tensor_type_complex(descA->type) || trn_tensor_type_complex(descB->type) ||
         trn_tensor_type_narrow(descA->type) || trn_tensor_type_narrow(descB->type)))
        return trn_tensor_fail(trnsciErrorNotSupported,
                               "%s: typeA %s and typeB %s: a permutation converts between "
                               "TRNSCI_R_32F and TRNSCI_R_64F only",
                               fn, trn_tensor_type_name(descA->type),
                               trn_tensor_type_name(descB->type));
    if (descA->type != descB->type && descCompute && descCompute->compute != 68 &&
        descCompute->compute != 70)
        return trn_tensor_fail(trnsciErrorNotSupported,
                               "%s: typeA %s and typeB %s take compute descriptor 32F or 64F, not "
                               "%s",
                               fn, trn_tensor_type_name(descA->type),
                               trn_tensor_type_name(descB->type), descCompute->name);
    return finish(&op, descCompute, fn, desc);
}

trntensorStatus_t trntensorCreateReduction(
    const trntensorHandle_t handle, trntensorOperationDescriptor_t *desc,
    const trntensorTensorDescriptor_t descA, const int32_t modeA[], trntensorOperator_t opA,
    const trntensorTensorDescriptor_t descC, const int32_t modeC[], trntensorOperator_t opC,
    const trntensorTensorDescriptor_t descD, const int32_t modeD[], trntensorOperator_t opReduce,
    const trntensorComputeDescriptor_t descCompute) {
    static const char fn[] = "trntensorCreateReduction";
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    if (!desc)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: desc is NULL", fn);
    struct trntensorOperationDescriptor op = {.kind = TRN_TENSOR_REDUCTION};
    PUT(TRN_T_A, descA, modeA, opA, "A");
    PUT(TRN_T_C, descC, modeC, opC, "C");
    PUT(TRN_T_D, descD, modeD, TRNTENSOR_OP_IDENTITY, "D");
    op.op_reduce = opReduce;
    return finish(&op, descCompute, fn, desc);
}

trntensorStatus_t trntensorDestroyOperationDescriptor(trntensorOperationDescriptor_t desc) {
    free(desc);
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}

/* FLOPs of the operation (contractions: 2 per multiply-add over every
 * distinct mode) and bytes it moves (each operand once, at its own element
 * size). */
static void op_counts(const struct trntensorOperationDescriptor *op, double *flops, double *bytes) {
    double volume = 1.0, moved = 0.0;
    int32_t seen[4 * TRNTENSOR_MAX_MODES];
    int nseen = 0;
    for (int r = 0; r < TRN_T_ROLES; r++) {
        if (!op->present[r])
            continue;
        double elems = 1.0;
        for (uint32_t i = 0; i < op->t[r].nmodes; i++) {
            elems *= (double)op->t[r].extent[i];
            int k = 0;
            while (k < nseen && seen[k] != op->mode[r][i])
                k++;
            if (k == nseen) {
                seen[nseen++] = op->mode[r][i];
                volume *= (double)op->t[r].extent[i];
            }
        }
        moved += elems * (double)trn_tensor_type_size(op->t[r].type);
    }
    /* A trinary contraction: the direct loop's 3 flops per term (the
     * daemon's pairwise order usually needs far fewer). */
    *flops = op->kind == TRN_TENSOR_CONTRACTION           ? 2.0 * volume
             : op->kind == TRN_TENSOR_CONTRACTION_TRINARY ? 3.0 * volume
                                                          : volume;
    *bytes = moved;
}

/* Checks a padding attribute's buffer for desc: a permutation, one count
 * (>= 0) per mode of its output. */
static trntensorStatus_t padding_check(const struct trntensorOperationDescriptor *desc,
                                       trntensorOperationDescriptorAttribute_t attr,
                                       size_t sizeInBytes, const char *fn) {
    const char *name = attr == TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT    ? "PADDING_LEFT"
                       : attr == TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_RIGHT ? "PADDING_RIGHT"
                                                                              : "PADDING_VALUE";
    if (desc->kind != TRN_TENSOR_PERMUTATION)
        return trn_tensor_fail(trnsciErrorNotSupported,
                               "%s: %s applies to permutations only (trntensorCreatePermutation)",
                               fn, name);
    const size_t want = attr == TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE
                            ? trn_tensor_type_size(desc->t[TRN_T_D].type)
                            : desc->t[TRN_T_D].nmodes * sizeof(uint32_t);
    if (sizeInBytes != want)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: %s takes %zu bytes (%s), not %zu", fn,
                               name, want,
                               attr == TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE
                                   ? "one value of the output's data type"
                                   : "one count per mode of the output",
                               sizeInBytes);
    return TRNTENSOR_STATUS_SUCCESS;
}

trntensorStatus_t trntensorOperationDescriptorSetAttribute(
    const trntensorHandle_t handle, trntensorOperationDescriptor_t desc,
    trntensorOperationDescriptorAttribute_t attr, const void *buf, size_t sizeInBytes) {
    static const char fn[] = "trntensorOperationDescriptorSetAttribute";
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    if (!desc || !buf)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: desc or buf is NULL", fn);
    switch (attr) {
    case TRNTENSOR_OPERATION_DESCRIPTOR_TAG:
        if (sizeInBytes != sizeof(int32_t))
            return trn_tensor_fail(trnsciErrorInvalidValue, "%s: TAG takes an int32_t", fn);
        memcpy(&desc->tag, buf, sizeof(int32_t));
        break;
    case TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT:
    case TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_RIGHT: {
        const trntensorStatus_t st = padding_check(desc, attr, sizeInBytes, fn);
        if (st != TRNTENSOR_STATUS_SUCCESS)
            return st;
        uint32_t v[TRNTENSOR_MAX_MODES];
        memcpy(v, buf, sizeInBytes);
        /* cuTENSOR's counts are uint32_t; ported code often passes int
         * arrays, so a count of 2^31 or more is taken as a negative int. */
        for (uint32_t i = 0; i < desc->t[TRN_T_D].nmodes; i++)
            if (v[i] > INT32_MAX)
                return trn_tensor_fail(trnsciErrorInvalidValue,
                                       "%s: padding count %d of mode %u is negative", fn,
                                       (int)(int32_t)v[i], i);
        memcpy(attr == TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT ? desc->pad_left
                                                                   : desc->pad_right,
               v, sizeInBytes);
        desc->padded = 0;
        for (uint32_t i = 0; i < desc->t[TRN_T_D].nmodes; i++)
            desc->padded |= desc->pad_left[i] != 0 || desc->pad_right[i] != 0;
        break;
    }
    case TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE: {
        const trntensorStatus_t st = padding_check(desc, attr, sizeInBytes, fn);
        if (st != TRNTENSOR_STATUS_SUCCESS)
            return st;
        /* One value of B's type: float, double, or their complex pairs. */
        const int single =
            desc->t[TRN_T_D].type == TRNSCI_R_32F || desc->t[TRN_T_D].type == TRNSCI_C_32F;
        if (trn_tensor_type_narrow(desc->t[TRN_T_D].type)) {
            /* one 16-bit value, widened exactly */
            uint16_t x;
            memcpy(&x, buf, sizeof(x));
            desc->pad_value[0] = desc->t[TRN_T_D].type == TRNSCI_R_16F
                                     ? trnsciHalfToFloat((trnsciHalf){x})
                                     : trnsciBfloat16ToFloat((trnsciBfloat16){x});
            desc->pad_value[1] = 0.0;
            break;
        }
        const size_t parts = trn_tensor_type_complex(desc->t[TRN_T_D].type) ? 2 : 1;
        for (size_t i = 0; i < 2; i++) {
            double v = 0.0;
            if (i < parts && single) {
                float f;
                memcpy(&f, (const char *)buf + i * sizeof(f), sizeof(f));
                v = f;
            } else if (i < parts) {
                memcpy(&v, (const char *)buf + i * sizeof(v), sizeof(v));
            }
            desc->pad_value[i] = v;
        }
        break;
    }
    default:
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: attribute %d cannot be set", fn,
                               (int)attr);
    }
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}

trntensorStatus_t trntensorOperationDescriptorGetAttribute(
    const trntensorHandle_t handle, trntensorOperationDescriptor_t desc,
    trntensorOperationDescriptorAttribute_t attr, void *buf, size_t sizeInBytes) {
    static const char fn[] = "trntensorOperationDescriptorGetAttribute";
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    if (!desc || !buf)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: desc or buf is NULL", fn);
    double flops, bytes;
    op_counts(desc, &flops, &bytes);
    switch (attr) {
    case TRNTENSOR_OPERATION_DESCRIPTOR_TAG:
        if (sizeInBytes != sizeof(int32_t))
            break;
        memcpy(buf, &desc->tag, sizeof(int32_t));
        return trn_tensor_status(trn_ok());
    case TRNTENSOR_OPERATION_DESCRIPTOR_SCALAR_TYPE: {
        if (sizeInBytes != sizeof(trnsciDataType_t))
            break;
        const trnsciDataType_t st = trn_tensor_scalar_type(desc);
        memcpy(buf, &st, sizeof(st));
        return trn_tensor_status(trn_ok());
    }
    case TRNTENSOR_OPERATION_DESCRIPTOR_FLOPS:
    case TRNTENSOR_OPERATION_DESCRIPTOR_MOVED_BYTES: {
        if (sizeInBytes != sizeof(float))
            break;
        const float v = (float)(attr == TRNTENSOR_OPERATION_DESCRIPTOR_FLOPS ? flops : bytes);
        memcpy(buf, &v, sizeof(v));
        return trn_tensor_status(trn_ok());
    }
    case TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT:
    case TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_RIGHT:
    case TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE: {
        const trntensorStatus_t st = padding_check(desc, attr, sizeInBytes, fn);
        if (st != TRNTENSOR_STATUS_SUCCESS)
            return st;
        if (attr == TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE) {
            const int single =
                desc->t[TRN_T_D].type == TRNSCI_R_32F || desc->t[TRN_T_D].type == TRNSCI_C_32F;
            if (trn_tensor_type_narrow(desc->t[TRN_T_D].type)) {
                const float f = (float)desc->pad_value[0]; /* exact */
                const uint16_t x = desc->t[TRN_T_D].type == TRNSCI_R_16F
                                       ? trnsciFloatToHalf(f).x
                                       : trnsciFloatToBfloat16(f).x;
                memcpy(buf, &x, sizeof(x));
                return trn_tensor_status(trn_ok());
            }
            const size_t parts = trn_tensor_type_complex(desc->t[TRN_T_D].type) ? 2 : 1;
            for (size_t i = 0; i < parts; i++) {
                const float f = (float)desc->pad_value[i]; /* exact: it was a float */
                if (single)
                    memcpy((char *)buf + i * sizeof(f), &f, sizeof(f));
                else
                    memcpy((char *)buf + i * sizeof(double), &desc->pad_value[i], sizeof(double));
            }
        } else if (sizeInBytes) {
            memcpy(buf,
                   attr == TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT ? desc->pad_left
                                                                       : desc->pad_right,
                   sizeInBytes);
        }
        return trn_tensor_status(trn_ok());
    }
    default:
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: unknown attribute %d", fn, (int)attr);
    }
    return trn_tensor_fail(trnsciErrorInvalidValue, "%s: sizeInBytes %zu is not the attribute's",
                           fn, sizeInBytes);
}

/* ---- plan preferences and plans ----------------------------------------------------- */

trntensorStatus_t trntensorCreatePlanPreference(const trntensorHandle_t handle,
                                                trntensorPlanPreference_t *pref,
                                                trntensorAlgo_t algo, trntensorJitMode_t jitMode) {
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    if (!pref)
        return trn_tensor_fail(trnsciErrorInvalidValue,
                               "trntensorCreatePlanPreference: pref is NULL");
    struct trntensorPlanPreference *p = malloc(sizeof(*p));
    if (!p)
        return trn_tensor_fail(trnsciErrorMemoryAllocation,
                               "trntensorCreatePlanPreference: out of memory");
    p->algo = algo;
    p->jit = jitMode;
    *pref = p;
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}

trntensorStatus_t trntensorDestroyPlanPreference(trntensorPlanPreference_t pref) {
    free(pref);
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}

trntensorStatus_t trntensorPlanPreferenceSetAttribute(const trntensorHandle_t handle,
                                                      trntensorPlanPreference_t pref,
                                                      trntensorPlanPreferenceAttribute_t attr,
                                                      const void *buf, size_t sizeInBytes) {
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    if (!pref || !buf || sizeInBytes == 0)
        return trn_tensor_fail(trnsciErrorInvalidValue,
                               "trntensorPlanPreferenceSetAttribute: pref or buf is NULL");
    if (attr == TRNTENSOR_PLAN_PREFERENCE_ALGO && sizeInBytes == sizeof(trntensorAlgo_t))
        memcpy(&pref->algo, buf, sizeof(pref->algo));
    /* The other attributes steer autotuning and JIT, which trntensor lacks:
     * accepted and ignored. */
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}

trntensorStatus_t trntensorEstimateWorkspaceSize(const trntensorHandle_t handle,
                                                 const trntensorOperationDescriptor_t desc,
                                                 const trntensorPlanPreference_t planPref,
                                                 const trntensorWorksizePreference_t workspacePref,
                                                 uint64_t *workspaceSizeEstimate) {
    (void)planPref;
    (void)workspacePref;
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    if (!desc || !workspaceSizeEstimate)
        return trn_tensor_fail(trnsciErrorInvalidValue,
                               "trntensorEstimateWorkspaceSize: desc or workspaceSizeEstimate is "
                               "NULL");
    *workspaceSizeEstimate = 0;
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}

trnsciError_t trn_tensor_plan_create(trn_client *c, struct trntensorPlan *plan, const char *fn) {
    trnsciError_t e = trn_client_need_minor(c, TENSOR_MINOR, fn);
    if (e == trnsciSuccess && trn_tensor_op_narrow(&plan->op))
        e = trn_client_need_minor(c, NARROW_MINOR,
                                  "trntensor on TRNSCI_R_16F / TRNSCI_R_16BF data");
    if (e != trnsciSuccess)
        return e;
    Trnsci__V1__TensorDescriptor a, b, d;
    trn_tensor_wire_desc(&plan->op, TRN_T_A, &a);
    trn_tensor_wire_desc(&plan->op, TRN_T_B, &b);
    trn_tensor_wire_desc(&plan->op, TRN_T_D, &d);
    Trnsci__V1__TensorContractionSpec spec = TRNSCI__V1__TENSOR_CONTRACTION_SPEC__INIT;
    spec.a = &a;
    spec.b = &b;
    spec.d = &d;
    spec.compute = (Trnsci__V1__ComputeType)trn_tensor_wire_compute(plan->op.compute);
    Trnsci__V1__PlanCreateRequest req = TRNSCI__V1__PLAN_CREATE_REQUEST__INIT;
    req.session_id = c->session_id;
    req.spec_case = TRNSCI__V1__PLAN_CREATE_REQUEST__SPEC_TENSOR;
    req.tensor = &spec;
    Trnsci__V1__PlanCreateReply *rep = NULL;
    e = trn_client_call(c, TRN_WIRE_PLAN_CREATE, &req.base,
                        &trnsci__v1__plan_create_reply__descriptor, (ProtobufCMessage **)&rep,
                        TRN_CALL_TIMEOUT_MS);
    if (e != trnsciSuccess)
        return e;
    plan->plan_id = rep->plan_id;
    plan->generation = c->generation;
    protobuf_c_message_free_unpacked(&rep->base, NULL);
    trn_client_plan_made(c, plan->plan_id, &req);
    return trnsciSuccess;
}

trntensorStatus_t trntensorCreatePlan(const trntensorHandle_t handle, trntensorPlan_t *plan,
                                      const trntensorOperationDescriptor_t desc,
                                      const trntensorPlanPreference_t pref,
                                      uint64_t workspaceSizeLimit) {
    static const char fn[] = "trntensorCreatePlan";
    (void)pref;
    (void)workspaceSizeLimit;
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    if (!plan || !desc)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: plan or desc is NULL", fn);
    struct trntensorPlan *p = calloc(1, sizeof(*p));
    if (!p)
        return trn_tensor_fail(trnsciErrorMemoryAllocation, "%s: out of memory", fn);
    p->op = *desc;
    if (desc->kind == TRN_TENSOR_CONTRACTION) {
        trnsciError_t e;
        trn_client *c = trn_client_get(&e);
        if (!c) {
            free(p);
            return TRNTENSOR_STATUS_NOT_INITIALIZED;
        }
        e = trn_tensor_plan_create(c, p, fn);
        if (e != trnsciSuccess) {
            free(p);
            return trn_tensor_status(e);
        }
        trn_tensor_handle_planned(handle, desc);
    }
    *plan = p;
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}

void trn_tensor_plan_free(struct trntensorPlan *plan) {
    trn_client *c = trn_client_peek();
    if (plan->plan_id && c && c->generation == plan->generation) {
        trn_client_plan_gone(c, plan->plan_id);
        Trnsci__V1__PlanDestroyRequest d = TRNSCI__V1__PLAN_DESTROY_REQUEST__INIT;
        d.session_id = c->session_id;
        d.plan_id = plan->plan_id;
        /* A failure (the daemon went away) leaves nothing to release. */
        trn_client_call(c, TRN_WIRE_PLAN_DESTROY, &d.base, NULL, NULL, TRN_CALL_TIMEOUT_MS);
    }
    free(plan);
}

trntensorStatus_t trntensorDestroyPlan(trntensorPlan_t plan) {
    if (!plan)
        return trn_tensor_fail(trnsciErrorInvalidValue, "trntensorDestroyPlan: plan is NULL");
    trn_tensor_plan_free(plan);
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}

trntensorStatus_t trntensorPlanGetAttribute(const trntensorHandle_t handle,
                                            const trntensorPlan_t plan,
                                            trntensorPlanAttribute_t attr, void *buf,
                                            size_t sizeInBytes) {
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    if (!plan || !buf)
        return trn_tensor_fail(trnsciErrorInvalidValue,
                               "trntensorPlanGetAttribute: plan or buf is NULL");
    if (attr != TRNTENSOR_PLAN_REQUIRED_WORKSPACE || sizeInBytes != sizeof(uint64_t))
        return trn_tensor_fail(trnsciErrorInvalidValue,
                               "trntensorPlanGetAttribute: attribute %d (size %zu) is not "
                               "REQUIRED_WORKSPACE (uint64_t)",
                               (int)attr, sizeInBytes);
    const uint64_t zero = 0;
    memcpy(buf, &zero, sizeof(zero));
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}
