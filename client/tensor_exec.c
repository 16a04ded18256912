/*
 * tensor_exec.c — trntensor's execute calls: trntensorContract,
 * trntensorContractTrinary, trntensorElementwiseTrinaryExecute /
 * BinaryExecute, trntensorPermute and trntensorReduce. Each reads its host
 * scalars, resolves the device pointers, encodes the op (TensorContractOp
 * with the plan's daemon handle, or TensorContractTrinaryOp /
 * TensorElementwiseOp / TensorReductionOp carrying the descriptors) and
 * queues it on the stream; the daemon checks the rest
 * (daemon/validate_tensor.c).
 */
#include <stdio.h>
#include <string.h>

#include "client/tensor_internal.h"

#define TENSOR_MINOR 5u
/* Protocol minor from which the daemon accepts a permutation whose A and B
 * have different data types (an older one refuses it as invalid). */
#define CONVERT_MINOR 6u
/* Protocol minor from which the daemon pads a permutation's output. */
#define PAD_MINOR 14u
/* Protocol minor from which the daemon runs trinary contractions and the
 * 16F / 16BF compute descriptors on 16-bit data. */
#define TRINARY_MINOR 15u

/* A host scalar of the operation's scalar type (trn_tensor_scalar_type). */
static void scalar_of(const struct trntensorOperationDescriptor *op, const void *p,
                      Trnsci__V1__Scalar *s) {
    trnsci__v1__scalar__init(s);
    if (!p)
        return;
    const trnsciDataType_t t = trn_tensor_scalar_type(op);
    if (t == TRNSCI_R_64F || t == TRNSCI_C_64F) {
        double v[2] = {0.0, 0.0};
        memcpy(v, p, t == TRNSCI_C_64F ? sizeof(v) : sizeof(v[0]));
        s->re = v[0];
        s->im = v[1];
    } else {
        float v[2] = {0.0f, 0.0f};
        memcpy(v, p, t == TRNSCI_C_32F ? sizeof(v) : sizeof(v[0]));
        s->re = v[0];
        s->im = v[1];
    }
}

/* beta != 0: C is read. */
static int nonzero(const Trnsci__V1__Scalar *s) {
    return s->re != 0.0 || s->im != 0.0;
}

/* The checks every execute call starts with; *out is the client. */
static trntensorStatus_t begin(const trntensorHandle_t handle, const trntensorPlan_t plan, int kind,
                               int kind2, const char *fn, trn_client **out) {
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    if (!plan)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: plan is NULL", fn);
    if ((int)plan->op.kind != kind && (int)plan->op.kind != kind2)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: the plan is of another operation", fn);
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    e = trn_client_need_minor(c, TENSOR_MINOR, fn);
    if (e == trnsciSuccess && plan->op.kind == TRN_TENSOR_PERMUTATION &&
        plan->op.t[TRN_T_A].type != plan->op.t[TRN_T_D].type)
        e = trn_client_need_minor(c, CONVERT_MINOR, "trntensorPermute with typeA != typeB");
    if (e == trnsciSuccess && plan->op.padded)
        e = trn_client_need_minor(c, PAD_MINOR, "trntensorPermute with padding");
    if (e == trnsciSuccess && trn_tensor_op_narrow(&plan->op))
        e = trn_client_need_minor(c, PAD_MINOR, "trntensor on TRNSCI_R_16F / TRNSCI_R_16BF data");
    /* trnblasComputeType_t 74 / 75: the 16F / 16BF descriptors */
    if (e == trnsciSuccess && trn_tensor_op_narrow(&plan->op) &&
        (plan->op.compute == 74 || plan->op.compute == 75))
        e = trn_client_need_minor(c, TRINARY_MINOR,
                                  "compute descriptor 16F / 16BF on TRNSCI_R_16F / TRNSCI_R_16BF "
                                  "data");
    if (e == trnsciSuccess && plan->op.kind == TRN_TENSOR_CONTRACTION_TRINARY)
        e = trn_client_need_minor(c, TRINARY_MINOR, fn);
    if (e != trnsciSuccess)
        return trn_tensor_status(e);
    *out = c;
    return TRNTENSOR_STATUS_SUCCESS;
}

static trntensorStatus_t submit(trn_client *c, trnsciStream_t stream, Trnsci__V1__Op *op) {
    const trnsciError_t e = trn_client_submit(c, stream, op);
    if (e != trnsciSuccess)
        return trn_tensor_status(e);
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}

trntensorStatus_t trntensorContract(const trntensorHandle_t handle, const trntensorPlan_t plan,
                                    const void *alpha, const void *A, const void *B,
                                    const void *beta, const void *C, void *D, void *workspace,
                                    uint64_t workspaceSize, trnsciStream_t stream) {
    static const char fn[] = "trntensorContract";
    (void)workspace;
    (void)workspaceSize;
    trn_client *c = NULL;
    trntensorStatus_t st = begin(handle, plan, TRN_TENSOR_CONTRACTION, 0, fn, &c);
    if (st != TRNTENSOR_STATUS_SUCCESS)
        return st;
    if (!alpha || !beta)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: alpha or beta is NULL", fn);
    /* A plan made in an earlier session (the daemon restarted) is made
     * again in this one. */
    if (plan->generation != c->generation) {
        const trnsciError_t e = trn_tensor_plan_create(c, plan, fn);
        if (e != trnsciSuccess)
            return trn_tensor_status(e);
    }
    Trnsci__V1__TensorContractOp w = TRNSCI__V1__TENSOR_CONTRACT_OP__INIT;
    Trnsci__V1__Scalar sa, sb;
    scalar_of(&plan->op, alpha, &sa);
    scalar_of(&plan->op, beta, &sb);
    Trnsci__V1__BufferRef ra = TRNSCI__V1__BUFFER_REF__INIT, rb = ra, rc = ra, rd = ra;
    trnsciError_t e = trn_client_resolve(c, A, "trntensorContract: A", &ra);
    if (e == trnsciSuccess)
        e = trn_client_resolve(c, B, "trntensorContract: B", &rb);
    if (e == trnsciSuccess && nonzero(&sb))
        e = trn_client_resolve(c, C, "trntensorContract: C", &rc);
    if (e == trnsciSuccess)
        e = trn_client_resolve(c, D, "trntensorContract: D", &rd);
    if (e != trnsciSuccess)
        return trn_tensor_status(e);
    w.plan_id = plan->plan_id;
    w.alpha = &sa;
    w.beta = &sb;
    w.a = &ra;
    w.b = &rb;
    w.c = &rc;
    w.d = &rd;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_TENSOR_CONTRACT;
    op.tensor_contract = &w;
    return submit(c, stream, &op);
}

/* Element-wise ops and permutations: D = opABC(opAB(alpha A, beta B), gamma C)
 * with the operands the plan has. */
static trntensorStatus_t elementwise(const trntensorHandle_t handle, const trntensorPlan_t plan,
                                     int kind, const void *alpha, const void *A, const void *beta,
                                     const void *B, const void *gamma, const void *C, void *D,
                                     trnsciStream_t stream, const char *fn) {
    trn_client *c = NULL;
    trntensorStatus_t st = begin(handle, plan, kind, kind, fn, &c);
    if (st != TRNTENSOR_STATUS_SUCCESS)
        return st;
    const struct trntensorOperationDescriptor *o = &plan->op;
    if (!alpha || (o->present[TRN_T_B] && !beta) || (o->present[TRN_T_C] && !gamma))
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: a scalar is NULL", fn);
    Trnsci__V1__TensorElementwiseOp w = TRNSCI__V1__TENSOR_ELEMENTWISE_OP__INIT;
    Trnsci__V1__TensorDescriptor da, db, dc, dd;
    Trnsci__V1__Scalar sa, sb, sg;
    Trnsci__V1__BufferRef ra = TRNSCI__V1__BUFFER_REF__INIT, rb = ra, rc = ra, rd = ra;
    trn_tensor_wire_desc(o, TRN_T_A, &da);
    int64_t pext[TRNTENSOR_MAX_MODES], pstr[TRNTENSOR_MAX_MODES];
    int64_t pl[TRNTENSOR_MAX_MODES], pr[TRNTENSOR_MAX_MODES];
    Trnsci__V1__Scalar spad = TRNSCI__V1__SCALAR__INIT;
    if (o->padded) {
        trn_tensor_wire_padded(o, pext, pstr, &dd);
        for (uint32_t i = 0; i < o->t[TRN_T_D].nmodes; i++) {
            pl[i] = o->pad_left[i];
            pr[i] = o->pad_right[i];
        }
        w.n_pad_left = w.n_pad_right = o->t[TRN_T_D].nmodes;
        w.pad_left = pl;
        w.pad_right = pr;
        spad.re = o->pad_value[0];
        spad.im = o->pad_value[1];
        w.pad_value = &spad;
    } else {
        trn_tensor_wire_desc(o, TRN_T_D, &dd);
    }
    scalar_of(o, alpha, &sa);
    scalar_of(o, beta, &sb);
    scalar_of(o, gamma, &sg);
    trnsciError_t e = trn_client_resolve_named(c, A, fn, "A", NULL, &ra);
    if (e == trnsciSuccess && o->present[TRN_T_B]) {
        trn_tensor_wire_desc(o, TRN_T_B, &db);
        w.b = &db;
        e = trn_client_resolve_named(c, B, fn, "B", NULL, &rb);
    }
    if (e == trnsciSuccess && o->present[TRN_T_C]) {
        trn_tensor_wire_desc(o, TRN_T_C, &dc);
        w.c = &dc;
        e = trn_client_resolve_named(c, C, fn, "C", NULL, &rc);
    }
    if (e == trnsciSuccess) {
        e = trn_client_resolve_named(c, D, fn, kind == TRN_TENSOR_PERMUTATION ? "B" : "D", NULL,
                                     &rd);
    }
    if (e != trnsciSuccess)
        return trn_tensor_status(e);
    w.a = &da;
    w.d = &dd;
    w.op_ab = (uint32_t)o->op_ab;
    w.op_abc = (uint32_t)o->op_abc;
    w.compute = (Trnsci__V1__ComputeType)trn_tensor_wire_compute(o->compute);
    w.alpha = &sa;
    w.beta = &sb;
    w.gamma = &sg;
    w.a_data = &ra;
    w.b_data = &rb;
    w.c_data = &rc;
    w.d_data = &rd;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_TENSOR_ELEMENTWISE;
    op.tensor_elementwise = &w;
    return submit(c, stream, &op);
}

trntensorStatus_t trntensorElementwiseTrinaryExecute(const trntensorHandle_t handle,
                                                     const trntensorPlan_t plan, const void *alpha,
                                                     const void *A, const void *beta, const void *B,
                                                     const void *gamma, const void *C, void *D,
                                                     trnsciStream_t stream) {
    return elementwise(handle, plan, TRN_TENSOR_TRINARY, alpha, A, beta, B, gamma, C, D, stream,
                       "trntensorElementwiseTrinaryExecute");
}

trntensorStatus_t trntensorElementwiseBinaryExecute(const trntensorHandle_t handle,
                                                    const trntensorPlan_t plan, const void *alpha,
                                                    const void *A, const void *gamma, const void *C,
                                                    void *D, trnsciStream_t stream) {
    return elementwise(handle, plan, TRN_TENSOR_BINARY, alpha, A, NULL, NULL, gamma, C, D, stream,
                       "trntensorElementwiseBinaryExecute");
}

trntensorStatus_t trntensorPermute(const trntensorHandle_t handle, const trntensorPlan_t plan,
                                   const void *alpha, const void *A, void *B,
                                   trnsciStream_t stream) {
    return elementwise(handle, plan, TRN_TENSOR_PERMUTATION, alpha, A, NULL, NULL, NULL, NULL, B,
                       stream, "trntensorPermute");
}

trntensorStatus_t trntensorReduce(const trntensorHandle_t handle, const trntensorPlan_t plan,
                                  const void *alpha, const void *A, const void *beta, const void *C,
                                  void *D, void *workspace, uint64_t workspaceSize,
                                  trnsciStream_t stream) {
    static const char fn[] = "trntensorReduce";
    (void)workspace;
    (void)workspaceSize;
    trn_client *c = NULL;
    trntensorStatus_t st = begin(handle, plan, TRN_TENSOR_REDUCTION, 0, fn, &c);
    if (st != TRNTENSOR_STATUS_SUCCESS)
        return st;
    if (!alpha || !beta)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: alpha or beta is NULL", fn);
    const struct trntensorOperationDescriptor *o = &plan->op;
    Trnsci__V1__TensorReductionOp w = TRNSCI__V1__TENSOR_REDUCTION_OP__INIT;
    Trnsci__V1__TensorDescriptor da, dc, dd;
    Trnsci__V1__Scalar sa, sb;
    Trnsci__V1__BufferRef ra = TRNSCI__V1__BUFFER_REF__INIT, rc = ra, rd = ra;
    trn_tensor_wire_desc(o, TRN_T_A, &da);
    trn_tensor_wire_desc(o, TRN_T_C, &dc);
    trn_tensor_wire_desc(o, TRN_T_D, &dd);
    scalar_of(o, alpha, &sa);
    scalar_of(o, beta, &sb);
    trnsciError_t e = trn_client_resolve(c, A, "trntensorReduce: A", &ra);
    if (e == trnsciSuccess && nonzero(&sb))
        e = trn_client_resolve(c, C, "trntensorReduce: C", &rc);
    if (e == trnsciSuccess)
        e = trn_client_resolve(c, D, "trntensorReduce: D", &rd);
    if (e != trnsciSuccess)
        return trn_tensor_status(e);
    w.a = &da;
    w.c = &dc;
    w.d = &dd;
    w.op_reduce = (uint32_t)o->op_reduce;
    w.compute = (Trnsci__V1__ComputeType)trn_tensor_wire_compute(o->compute);
    w.alpha = &sa;
    w.beta = &sb;
    w.a_data = &ra;
    w.c_data = &rc;
    w.d_data = &rd;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_TENSOR_REDUCTION;
    op.tensor_reduction = &w;
    return submit(c, stream, &op);
}

trntensorStatus_t trntensorContractTrinary(const trntensorHandle_t handle,
                                           const trntensorPlan_t plan, const void *alpha,
                                           const void *A, const void *B, const void *C,
                                           const void *beta, const void *D, void *E,
                                           void *workspace, uint64_t workspaceSize,
                                           trnsciStream_t stream) {
    static const char fn[] = "trntensorContractTrinary";
    (void)workspace;
    (void)workspaceSize;
    trn_client *c = NULL;
    trntensorStatus_t st = begin(handle, plan, TRN_TENSOR_CONTRACTION_TRINARY, 0, fn, &c);
    if (st != TRNTENSOR_STATUS_SUCCESS)
        return st;
    if (!alpha || !beta)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: alpha or beta is NULL", fn);
    const struct trntensorOperationDescriptor *o = &plan->op;
    Trnsci__V1__TensorContractTrinaryOp w = TRNSCI__V1__TENSOR_CONTRACT_TRINARY_OP__INIT;
    Trnsci__V1__TensorDescriptor da, db, dc, dd, de;
    Trnsci__V1__Scalar sa, sb;
    Trnsci__V1__BufferRef ra = TRNSCI__V1__BUFFER_REF__INIT, rb = ra, rc = ra, rd = ra, re = ra;
    trn_tensor_wire_desc(o, TRN_T_A, &da);
    trn_tensor_wire_desc(o, TRN_T_B, &db);
    trn_tensor_wire_desc(o, TRN_T_C, &dc);
    trn_tensor_wire_desc(o, TRN_T_D, &dd);
    trn_tensor_wire_desc(o, TRN_T_E, &de);
    scalar_of(o, alpha, &sa);
    scalar_of(o, beta, &sb);
    trnsciError_t e = trn_client_resolve_named(c, A, fn, "A", NULL, &ra);
    if (e == trnsciSuccess)
        e = trn_client_resolve_named(c, B, fn, "B", NULL, &rb);
    if (e == trnsciSuccess)
        e = trn_client_resolve_named(c, C, fn, "C", NULL, &rc);
    if (e == trnsciSuccess && nonzero(&sb))
        e = trn_client_resolve_named(c, D, fn, "D", NULL, &rd);
    if (e == trnsciSuccess)
        e = trn_client_resolve_named(c, E, fn, "E", NULL, &re);
    if (e != trnsciSuccess)
        return trn_tensor_status(e);
    w.a = &da;
    w.b = &db;
    w.c = &dc;
    w.d = &dd;
    w.e = &de;
    w.compute = (Trnsci__V1__ComputeType)trn_tensor_wire_compute(o->compute);
    w.alpha = &sa;
    w.beta = &sb;
    w.a_data = &ra;
    w.b_data = &rb;
    w.c_data = &rc;
    w.d_data = &rd;
    w.e_data = &re;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_TENSOR_CONTRACT_TRINARY;
    op.tensor_contract_trinary = &w;
    return submit(c, stream, &op);
}
