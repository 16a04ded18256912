/*
 * tensor.c — argument rules of trntensor: tensor descriptors
 * (modes, extents, strides), contraction specs (PlanCreate), and the
 * contraction, trinary contraction (whose plan, ops/tensor_trinary.c, the
 * validator makes into the op's owned memory), element-wise and reduction
 * ops, as cuTENSOR 2.x states them
 * (CUTENSOR_STATUS_INVALID_VALUE / NOT_SUPPORTED cases), plus the memory
 * checks cuTENSOR leaves to the caller: every operand's extent in memory
 * (1 + sum (extent - 1) stride elements, overflow-checked) must lie inside
 * one of the session's buffers, and an output's elements must not overlap.
 *
 * Data types: R_32F, R_64F, C_32F, C_64F. Every operand has D's type,
 * except A of a permutation (an element-wise op without B and C), which may
 * be the other real type: the permutation converts
 * (cutensorCreatePermutation's typeA != typeB). Other mixtures are
 * UNIMPLEMENTED (CUTENSOR_STATUS_NOT_SUPPORTED) with both types named. On
 * complex data the unary operators are IDENTITY and CONJ and the binary
 * ones (opAB, opABC, opReduce) ADD and MUL, as cuTENSOR's; scalars are
 * complex ({re, im}); contractions compute in 32F / 64F only. Each
 * operand's extent in bytes uses its own element size.
 *
 * Messages name the operation, the operand and the rule
 * ("tensor contract: mode 3 has extent 4 in A but 5 in B").
 */
#include <stdio.h>
#include <string.h>

#include "ops/tensor_plan.h"
#include "ops/validate/checked.h"
#include "ops/validate/kit.h"

/* The unary operators (cutensorOperator_t values); 0 is the identity. */
static int unary_ok(uint32_t op) {
    return op == 0 || op == 1 || op == 2 || (op >= 8 && op <= 12) || (op >= 22 && op <= 42);
}

/* ADD, MUL, MAX, MIN. */
static int binary_ok(uint32_t op) {
    return op == 3 || op == 5 || op == 6 || op == 7;
}

static const char *dtype_name(trn_dtype t) {
    switch (t) {
    case TRN_DTYPE_R32F: return "R_32F";
    case TRN_DTYPE_R64F: return "R_64F";
    case TRN_DTYPE_C32F: return "C_32F";
    case TRN_DTYPE_C64F: return "C_64F";
    case TRN_DTYPE_R16F: return "R_16F";
    case TRN_DTYPE_R16BF: return "R_16BF";
    default: return "?";
    }
}

static int narrow_dtype(trn_dtype t) {
    return t == TRN_DTYPE_R16F || t == TRN_DTYPE_R16BF;
}

/* The data types trntensor takes: R_32F, R_64F, C_32F, C_64F, and 16-bit
 * storage R_16F, R_16BF (1.14). */
static trn_wire_code tensor_dtype(trn_vctx *vx, const char *fn, const char *name,
                                  Trnsci__V1__DataType w, trn_dtype *out) {
    if (w == TRNSCI__V1__DATA_TYPE__R_16F || w == TRNSCI__V1__DATA_TYPE__R_16BF) {
        *out = w == TRNSCI__V1__DATA_TYPE__R_16F ? TRN_DTYPE_R16F : TRN_DTYPE_R16BF;
        return TRN_WIRE_OK;
    }
    if (trn_vk_dtype(w, out) != 0) {
        trn_vmsg(vx, "%s: %s: data type %d is not R_32F, R_64F, C_32F, C_64F, R_16F or R_16BF", fn,
                 name, (int)w);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    return TRN_WIRE_OK;
}

/* A complex op's operators: unary IDENTITY (0, 1) or CONJ (9). */
static trn_wire_code complex_unary(trn_vctx *vx, const char *fn, const char *name, int op) {
    if (op == 1 || op == 9)
        return TRN_WIRE_OK;
    trn_vmsg(vx, "%s: operator %d of %s is not supported on complex data (IDENTITY, CONJ)", fn, op,
             name);
    return TRN_WIRE_UNIMPLEMENTED;
}

/* ... and binary ADD (3) or MUL (5). */
static trn_wire_code complex_binary(trn_vctx *vx, const char *fn, const char *name, uint32_t op) {
    if (op == 3 || op == 5)
        return TRN_WIRE_OK;
    trn_vmsg(vx, "%s: %s %u is not supported on complex data (ADD, MUL)", fn, name, op);
    return TRN_WIRE_UNIMPLEMENTED;
}

/* A scalar of an op on data of type t (the imaginary part only for
 * complex data). */
static trn_scalar scalar_of(const Trnsci__V1__Scalar *v, trn_dtype t) {
    if (!v)
        return (trn_scalar){0.0, 0.0};
    return (trn_scalar){v->re, trn_dtype_is_complex(t) ? v->im : 0.0};
}

static int scalar_nonzero(trn_scalar s) {
    return s.re != 0.0 || s.im != 0.0;
}

/* The compute type for data type t (DEFAULT becomes t's own precision);
 * precision modes only where `modes` (contractions). */
static trn_wire_code compute_of(trn_vctx *vx, const char *fn, Trnsci__V1__ComputeType c,
                                trn_dtype t, int modes, trn_compute *out) {
    const int is32 = t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F;
    const int bits = trn_vk_compute_bits(c);
    if (narrow_dtype(t)) { /* 16-bit storage computes in FP32 */
        /* cuTENSOR's 16F (R_16F) and 16BF (R_16BF) compute descriptors,
         * which the client sends as 32F_FAST_16F / _FAST_16BF (1.15), for
         * element-wise ops, permutations and reductions (cuTENSOR's tables
         * give contractions of 16-bit data 32F only). The operands are
         * exact in the compute type; the kernel computes as under 32F
         * (docs/numerics.md "16-bit storage"). */
        const int half_compute =
            !modes &&
            ((t == TRN_DTYPE_R16F && c == TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_16F) ||
             (t == TRN_DTYPE_R16BF && c == TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_16BF));
        if (c == TRNSCI__V1__COMPUTE_TYPE__COMPUTE_DEFAULT ||
            c == TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F || half_compute) {
            *out = TRN_COMPUTE_32F;
            return TRN_WIRE_OK;
        }
        trn_vmsg(vx, "%s: %s data computes in 32F%s (compute type %d is not supported)", fn,
                 dtype_name(t),
                 modes                 ? ""
                 : t == TRN_DTYPE_R16F ? " or 16F"
                                       : " or 16BF",
                 (int)c);
        return bits < 0 ? TRN_WIRE_INVALID_ARGUMENT : TRN_WIRE_UNIMPLEMENTED;
    }
    if (bits < 0) {
        trn_vmsg(vx, "%s: compute type %d is not a trnblas compute type", fn, (int)c);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (bits == 0) {
        *out = is32 ? TRN_COMPUTE_32F : TRN_COMPUTE_64F;
        return TRN_WIRE_OK;
    }
    const int c64 = bits == 64;
    if (c64 == is32) {
        trn_vmsg(vx, "%s: compute type %d takes %s data, not %s", fn, (int)c,
                 c64 ? "R_64F or C_64F" : "R_32F or C_32F", dtype_name(t));
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const int plain =
        c == TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F || c == TRNSCI__V1__COMPUTE_TYPE__COMPUTE_64F;
    if (!plain && trn_dtype_is_complex(t)) {
        trn_vmsg(vx, "%s: %s data computes in 32F or 64F (the precision modes are for real data)",
                 fn, dtype_name(t));
        return TRN_WIRE_UNIMPLEMENTED;
    }
    if (!plain && !modes) {
        trn_vmsg(vx, "%s: the precision modes apply to contractions only", fn);
        return TRN_WIRE_UNIMPLEMENTED;
    }
    *out = (trn_compute)c; /* the wire's values are trn_compute's */
    return TRN_WIRE_OK;
}

/* The compute type of a permutation that converts between R_32F and R_64F:
 * 32F or 64F (DEFAULT: 64F, which loses nothing before the one rounding to
 * D's type). */
static trn_wire_code convert_compute_of(trn_vctx *vx, const char *fn, Trnsci__V1__ComputeType c,
                                        trn_compute *out) {
    switch (c) {
    case TRNSCI__V1__COMPUTE_TYPE__COMPUTE_DEFAULT:
    case TRNSCI__V1__COMPUTE_TYPE__COMPUTE_64F: *out = TRN_COMPUTE_64F; return TRN_WIRE_OK;
    case TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F: *out = TRN_COMPUTE_32F; return TRN_WIRE_OK;
    case TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_16BF:
    case TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_TF32:
    case TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_BF16X3:
    case TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_BF16X9:
    case TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_16F:
    case TRNSCI__V1__COMPUTE_TYPE__COMPUTE_64F_EMULATED:
        trn_vmsg(vx,
                 "%s: the precision modes apply to contractions only (a converting "
                 "permutation computes in 32F or 64F)",
                 fn);
        return TRN_WIRE_UNIMPLEMENTED;
    default:
        trn_vmsg(vx, "%s: compute type %d is not a trnblas compute type", fn, (int)c);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
}

/* A TensorDescriptor as a layout; *op its operator. Its data type must be
 * `type` (D's), or, when `any` is given, either real type (stored there). */
static trn_wire_code layout_of(trn_vctx *vx, const char *fn, const char *name,
                               const Trnsci__V1__TensorDescriptor *w, trn_dtype type,
                               trn_dtype *any, trn_tensor_layout *l, int *op) {
    if (!w) {
        trn_vmsg(vx, "%s: the descriptor of %s is missing", fn, name);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    trn_dtype t;
    trn_wire_code rc = tensor_dtype(vx, fn, name, w->type, &t);
    if (rc != TRN_WIRE_OK)
        return rc;
    if (any && t != type &&
        (trn_dtype_is_complex(t) || trn_dtype_is_complex(type) || narrow_dtype(t) ||
         narrow_dtype(type))) {
        trn_vmsg(vx,
                 "%s: %s has data type %s and D %s: a permutation converts between R_32F and "
                 "R_64F only",
                 fn, name, dtype_name(t), dtype_name(type));
        return TRN_WIRE_UNIMPLEMENTED;
    }
    if (any) {
        *any = t;
    } else if (t != type) {
        trn_vmsg(vx,
                 "%s: %s has data type %s and D %s: mixed data types are supported by a "
                 "permutation only (R_32F <-> R_64F)",
                 fn, name, dtype_name(t), dtype_name(type));
        return TRN_WIRE_UNIMPLEMENTED;
    }
    if (w->n_extent != w->n_stride || w->n_extent != w->n_mode) {
        trn_vmsg(vx, "%s: %s has %zu extents, %zu strides and %zu modes (must be equal)", fn, name,
                 w->n_extent, w->n_stride, w->n_mode);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (w->n_extent > TRN_TENSOR_MAX_MODES) {
        trn_vmsg(vx, "%s: %s has %zu modes, more than the %d supported", fn, name, w->n_extent,
                 TRN_TENSOR_MAX_MODES);
        return TRN_WIRE_UNIMPLEMENTED;
    }
    l->nmodes = (int)w->n_extent;
    for (int i = 0; i < l->nmodes; i++) {
        if (w->extent[i] < 1 || w->stride[i] < 1) {
            trn_vmsg(vx, "%s: %s mode %d: extent %lld and stride %lld must be >= 1", fn, name, i,
                     (long long)w->extent[i], (long long)w->stride[i]);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        for (int j = 0; j < i; j++)
            if (w->mode[j] == w->mode[i]) {
                trn_vmsg(vx, "%s: %s repeats mode %d (modes %d and %d)", fn, name, (int)w->mode[i],
                         j, i);
                return TRN_WIRE_INVALID_ARGUMENT;
            }
        l->mode[i] = w->mode[i];
        l->extent[i] = w->extent[i];
        l->stride[i] = w->stride[i];
    }
    if (!trn_tensor_span(l)) {
        trn_vmsg(vx, "%s: the extent of %s in memory overflows", fn, name);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (!unary_ok(w->op)) {
        trn_vmsg(vx, "%s: operator %u of %s is not a unary cutensorOperator_t", fn, w->op, name);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    *op = w->op ? (int)w->op : 1;
    return trn_dtype_is_complex(t) ? complex_unary(vx, fn, name, *op) : TRN_WIRE_OK;
}

/* Resolves the memory of an operand of layout l. */
static trn_wire_code operand(trn_vctx *vx, const Trnsci__V1__BufferRef *ref,
                             const trn_tensor_layout *l, trn_dtype type, const char *what,
                             void **out) {
    uint64_t bytes;
    if (ck_mul(trn_tensor_span(l), trn_dtype_size(type), &bytes)) {
        trn_vmsg(vx, "%s: its extent in bytes overflows", what);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    return trn_vregion(vx, ref, bytes, trn_dtype_size(type), what, out);
}

static int same_ref(const Trnsci__V1__BufferRef *a, const Trnsci__V1__BufferRef *b) {
    return (a ? a->buffer_id : 0) == (b ? b->buffer_id : 0) &&
           (a ? a->offset : 0) == (b ? b->offset : 0);
}

/* ---- contractions ---------------------------------------------------------------- */

trn_wire_code trn_vtensor_plan(const Trnsci__V1__TensorContractionSpec *w, trn_plan_spec *spec,
                               char *err, size_t errlen) {
    static const char fn[] = "tensor contraction";
    trn_vctx messages = {.err = err, .errlen = errlen}, *vx = &messages;
    memset(spec, 0, sizeof(*spec));
    spec->family = TRN_PLAN_TENSOR;
    trn_tensor_contract_spec *c = &spec->u.tensor;
    if (!w || !w->a || !w->b || !w->d) {
        trn_vmsg(vx, "%s: the descriptors of A, B and D are required", fn);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    trn_wire_code rc = tensor_dtype(vx, fn, "D", w->d->type, &c->type);
    int op;
    if (rc == TRN_WIRE_OK)
        rc = layout_of(vx, fn, "A", w->a, c->type, NULL, &c->a, &op);
    if (rc == TRN_WIRE_OK && op != 1 && op != 9) {
        trn_vmsg(vx, "%s: opA must be IDENTITY or CONJ", fn);
        rc = TRN_WIRE_UNIMPLEMENTED;
    }
    /* CONJ is the identity on real data: only complex specs record it,
     * so real keys are unchanged. */
    c->conj_a = rc == TRN_WIRE_OK && op == 9 && trn_dtype_is_complex(c->type);
    if (rc == TRN_WIRE_OK)
        rc = layout_of(vx, fn, "B", w->b, c->type, NULL, &c->b, &op);
    if (rc == TRN_WIRE_OK && op != 1 && op != 9) {
        trn_vmsg(vx, "%s: opB must be IDENTITY or CONJ", fn);
        rc = TRN_WIRE_UNIMPLEMENTED;
    }
    c->conj_b = rc == TRN_WIRE_OK && op == 9 && trn_dtype_is_complex(c->type);
    if (rc == TRN_WIRE_OK)
        rc = layout_of(vx, fn, "D", w->d, c->type, NULL, &c->d, &op);
    if (rc == TRN_WIRE_OK)
        rc = compute_of(vx, fn, w->compute, c->type, 1, &c->compute);
    if (rc != TRN_WIRE_OK)
        return rc;
    const int chk = trn_tensor_spec_check(c, err, errlen);
    if (chk != 0)
        return chk == -2 ? TRN_WIRE_UNIMPLEMENTED : TRN_WIRE_INVALID_ARGUMENT;
    trn_tensor_plan p; /* the limits of the mapping, before the cache plans it */
    if (trn_tensor_plan_make(c, &p, err, errlen) != 0)
        return TRN_WIRE_UNIMPLEMENTED;
    char key[TRN_PLAN_KEY_LEN];
    if (trn_tensor_spec_format(c, key, sizeof(key)) >= (int)sizeof(key)) {
        trn_vmsg(vx, "%s: the layouts are too long to name in the plan cache", fn);
        return TRN_WIRE_UNIMPLEMENTED;
    }
    return TRN_WIRE_OK;
}

static trn_wire_code validate_tensor_contract(trn_vctx *vx, const Trnsci__V1__TensorContractOp *w,
                                              trn_tensor_contract_desc *out) {
    trn_vplan h;
    if (trn_vplan_get(vx, w->plan_id, &h) != 0) {
        trn_vmsg(vx, "tensor contract: plan %u does not exist in this session", w->plan_id);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const trn_plan_spec *spec = h.spec;
    const void *plan = h.plan;
    if (spec->family != TRN_PLAN_TENSOR || !plan || !trn_tensor_plan_is(plan)) {
        trn_vmsg(vx, "tensor contract: plan %u is not a contraction plan", w->plan_id);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const trn_tensor_plan *p = plan;
    const trn_tensor_contract_spec *c = &spec->u.tensor;
    memset(out, 0, sizeof(*out));
    out->plan = p;
    out->type = c->type;
    out->flops = p->flops;
    out->nbatch = p->nbatch;
    out->n = p->n;
    out->alpha = scalar_of(w->alpha, c->type);
    out->beta = scalar_of(w->beta, c->type);
    void *a, *b, *cc = NULL, *d;
    trn_wire_code rc = operand(vx, w->a, &c->a, c->type, "tensor contract: A", &a);
    if (rc == TRN_WIRE_OK)
        rc = operand(vx, w->b, &c->b, c->type, "tensor contract: B", &b);
    if (rc == TRN_WIRE_OK)
        rc = operand(vx, w->d, &c->d, c->type, "tensor contract: D", &d);
    if (rc == TRN_WIRE_OK && scalar_nonzero(out->beta)) {
        if (same_ref(w->c, w->d)) {
            cc = d;
        } else {
            rc = operand(vx, w->c, &c->d, c->type, "tensor contract: C", &cc);
            const uint64_t bytes = trn_tensor_span(&c->d) * trn_dtype_size(c->type);
            if (rc == TRN_WIRE_OK && (char *)cc < (char *)d + bytes &&
                (char *)d < (char *)cc + bytes) {
                trn_vmsg(vx, "tensor contract: C and D overlap without being equal");
                rc = TRN_WIRE_INVALID_ARGUMENT;
            }
        }
    }
    if (rc != TRN_WIRE_OK)
        return rc;
    if (!a || !b || !d) {
        trn_vmsg(vx, "tensor contract: A, B and D must be device pointers, not NULL");
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->a = a;
    out->b = b;
    out->c = cc;
    out->d = d;
    vx->refs->plan_part = 0;
    return TRN_WIRE_OK;
}

/* ---- trinary contractions ------------------------------------------------------------ */

/* opA, opB, opC of a contraction: IDENTITY or CONJ; *conj for complex data. */
static trn_wire_code contract_op(trn_vctx *vx, const char *fn, const char *name, int op,
                                 trn_dtype t, int *conj) {
    if (op != 1 && op != 9) {
        trn_vmsg(vx, "%s: op%s must be IDENTITY or CONJ", fn, name);
        return TRN_WIRE_UNIMPLEMENTED;
    }
    *conj = op == 9 && trn_dtype_is_complex(t);
    return TRN_WIRE_OK;
}

static int same_layout(const trn_tensor_layout *x, const trn_tensor_layout *y) {
    if (x->nmodes != y->nmodes)
        return 0;
    for (int i = 0; i < x->nmodes; i++)
        if (x->mode[i] != y->mode[i] || x->extent[i] != y->extent[i] ||
            x->stride[i] != y->stride[i])
            return 0;
    return 1;
}

static trn_wire_code validate_tensor_contract_trinary(trn_vctx *vx,
                                                      const Trnsci__V1__TensorContractTrinaryOp *w,
                                                      trn_tensor_trinary_desc *out) {
    static const char fn[] = "tensor contract trinary";
    memset(out, 0, sizeof(*out));
    if (!w->a || !w->b || !w->c || !w->d || !w->e) {
        trn_vmsg(vx, "%s: the descriptors of A, B, C, D and E are required", fn);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    trn_tensor_layout la, lb, lc, ld, le;
    int op, conj[3] = {0, 0, 0};
    trn_compute compute = TRN_COMPUTE_32F;
    trn_wire_code rc = tensor_dtype(vx, fn, "E", w->e->type, &out->type);
    if (rc == TRN_WIRE_OK)
        rc = layout_of(vx, fn, "A", w->a, out->type, NULL, &la, &op);
    if (rc == TRN_WIRE_OK)
        rc = contract_op(vx, fn, "A", op, out->type, &conj[0]);
    if (rc == TRN_WIRE_OK)
        rc = layout_of(vx, fn, "B", w->b, out->type, NULL, &lb, &op);
    if (rc == TRN_WIRE_OK)
        rc = contract_op(vx, fn, "B", op, out->type, &conj[1]);
    if (rc == TRN_WIRE_OK)
        rc = layout_of(vx, fn, "C", w->c, out->type, NULL, &lc, &op);
    if (rc == TRN_WIRE_OK)
        rc = contract_op(vx, fn, "C", op, out->type, &conj[2]);
    if (rc == TRN_WIRE_OK)
        rc = layout_of(vx, fn, "D", w->d, out->type, NULL, &ld, &op);
    /* D is added as it is: CONJ is the identity on real data only (as
     * the binary contraction's opC). */
    if (rc == TRN_WIRE_OK && (op != 1 && op != 9)) {
        trn_vmsg(vx, "%s: opD must be IDENTITY or CONJ", fn);
        rc = TRN_WIRE_UNIMPLEMENTED;
    }
    if (rc == TRN_WIRE_OK && op == 9 && trn_dtype_is_complex(out->type)) {
        trn_vmsg(vx, "%s: opD CONJ on complex data is not supported (IDENTITY)", fn);
        rc = TRN_WIRE_UNIMPLEMENTED;
    }
    if (rc == TRN_WIRE_OK)
        rc = layout_of(vx, fn, "E", w->e, out->type, NULL, &le, &op);
    if (rc == TRN_WIRE_OK)
        rc = compute_of(vx, fn, w->compute, out->type, 1, &compute);
    if (rc != TRN_WIRE_OK)
        return rc;
    if (!same_layout(&ld, &le)) {
        trn_vmsg(vx,
                 "%s: D must have E's modes, extents and strides (descD = descE, modeD = "
                 "modeE)",
                 fn);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    trn_tensor_trinary_plan *p = trn_vowned(vx, sizeof(*p));
    if (!p) {
        trn_vmsg(vx, "%s: out of memory for the plan", fn);
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    const int chk = trn_tensor_trinary_make(out->type, compute, &la, &lb, &lc, &le, conj, p,
                                            vx->err, vx->errlen);
    if (chk != 0)
        return chk == -2 ? TRN_WIRE_UNIMPLEMENTED : TRN_WIRE_INVALID_ARGUMENT;
    out->plan = p;
    out->flops = p->flops;
    out->alpha = scalar_of(w->alpha, out->type);
    out->beta = scalar_of(w->beta, out->type);
    void *pa = NULL, *pb = NULL, *pc = NULL, *pe = NULL, *pd = NULL;
    rc = operand(vx, w->a_data, &la, out->type, "tensor contract trinary: A", &pa);
    if (rc == TRN_WIRE_OK)
        rc = operand(vx, w->b_data, &lb, out->type, "tensor contract trinary: B", &pb);
    if (rc == TRN_WIRE_OK)
        rc = operand(vx, w->c_data, &lc, out->type, "tensor contract trinary: C", &pc);
    if (rc == TRN_WIRE_OK)
        rc = operand(vx, w->e_data, &le, out->type, "tensor contract trinary: E", &pe);
    if (rc == TRN_WIRE_OK && scalar_nonzero(out->beta)) {
        if (same_ref(w->d_data, w->e_data)) {
            pd = pe;
        } else {
            rc = operand(vx, w->d_data, &le, out->type, "tensor contract trinary: D", &pd);
            const uint64_t bytes = trn_tensor_span(&le) * trn_dtype_size(out->type);
            if (rc == TRN_WIRE_OK && (char *)pd < (char *)pe + bytes &&
                (char *)pe < (char *)pd + bytes) {
                trn_vmsg(vx, "%s: D and E overlap without being equal", fn);
                rc = TRN_WIRE_INVALID_ARGUMENT;
            }
        }
    }
    if (rc != TRN_WIRE_OK)
        return rc;
    if (!pa || !pb || !pc || !pe) {
        trn_vmsg(vx, "%s: A, B, C and E must be device pointers, not NULL", fn);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->a = pa;
    out->b = pb;
    out->c = pc;
    out->d = pd;
    out->e = pe;
    return TRN_WIRE_OK;
}

/* ---- element-wise and reductions ------------------------------------------------------ */

/* Strides of input x (layout l) per mode of D (0 where x lacks the mode);
 * every mode of x must be one of D's with D's extent. */
static trn_wire_code align_to(trn_vctx *vx, const char *fn, const char *name,
                              const trn_tensor_layout *l, const trn_tensor_layout *dl,
                              int64_t *stride) {
    for (int i = 0; i < dl->nmodes; i++)
        stride[i] = 0;
    for (int i = 0; i < l->nmodes; i++) {
        int j = 0;
        while (j < dl->nmodes && dl->mode[j] != l->mode[i])
            j++;
        if (j == dl->nmodes) {
            trn_vmsg(vx, "%s: mode %d of %s is not a mode of D", fn, (int)l->mode[i], name);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        if (dl->extent[j] != l->extent[i]) {
            trn_vmsg(vx, "%s: mode %d has extent %lld in %s but %lld in D", fn, (int)l->mode[i],
                     (long long)l->extent[i], name, (long long)dl->extent[j]);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        stride[j] = l->stride[i];
    }
    return TRN_WIRE_OK;
}

/* D's layout (no overlaps), its element count and type. */
static trn_wire_code output_of(trn_vctx *vx, const char *fn, const Trnsci__V1__TensorDescriptor *wd,
                               trn_tensor_layout *dl, trn_tensor_ew_desc *out) {
    if (!wd) {
        trn_vmsg(vx, "%s: the descriptor of D is missing", fn);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    trn_wire_code rc = tensor_dtype(vx, fn, "D", wd->type, &out->type);
    int op;
    if (rc == TRN_WIRE_OK)
        rc = layout_of(vx, fn, "D", wd, out->type, NULL, dl, &op);
    if (rc != TRN_WIRE_OK)
        return rc;
    if (trn_tensor_overlaps(dl)) {
        trn_vmsg(vx, "%s: the strides of D make two of its elements overlap", fn);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->nmodes = dl->nmodes;
    out->elements = 1;
    for (int i = 0; i < dl->nmodes; i++) {
        out->extent[i] = dl->extent[i];
        out->stride_d[i] = dl->stride[i];
        out->elements *= (uint64_t)dl->extent[i]; /* <= D's span, which fits */
    }
    out->reduced = 1;
    return TRN_WIRE_OK;
}

/* The padding of a permutation (pad_left, pad_right: one count per mode
 * of D, whose extents are the padded ones): out's interior bounds, and in
 * *inner D's layout with the interior's extents, which A's modes must
 * match. Without padding *inner is dl. */
static trn_wire_code padding_of(trn_vctx *vx, const char *fn,
                                const Trnsci__V1__TensorElementwiseOp *w,
                                const trn_tensor_layout *dl, trn_tensor_layout *inner,
                                trn_tensor_ew_desc *out) {
    *inner = *dl;
    if (w->n_pad_left == 0 && w->n_pad_right == 0)
        return TRN_WIRE_OK;
    if (w->b || w->c) {
        trn_vmsg(vx, "%s: padding applies to a permutation only (no B, no C)", fn);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (w->n_pad_left != (size_t)dl->nmodes || w->n_pad_right != (size_t)dl->nmodes) {
        trn_vmsg(vx, "%s: pad_left and pad_right have %zu and %zu counts; D has %d modes", fn,
                 w->n_pad_left, w->n_pad_right, dl->nmodes);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    for (int i = 0; i < dl->nmodes; i++) {
        const int64_t l = w->pad_left[i], r = w->pad_right[i];
        /* extent >= 1 and l, r >= 0, so the differences cannot overflow. */
        if (l < 0 || r < 0 || l > dl->extent[i] - 1 || r > dl->extent[i] - 1 - l) {
            trn_vmsg(vx,
                     "%s: mode %d of D: padding %lld left and %lld right must be >= 0 and leave "
                     "at least one of its %lld positions",
                     fn, (int)dl->mode[i], (long long)l, (long long)r, (long long)dl->extent[i]);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        inner->extent[i] = dl->extent[i] - l - r;
        out->pad_lo[i] = l;
        out->pad_hi[i] = l + inner->extent[i];
    }
    out->padded = 1;
    out->pad_value = scalar_of(w->pad_value, out->type);
    return TRN_WIRE_OK;
}

static trn_wire_code validate_tensor_elementwise(trn_vctx *vx,
                                                 const Trnsci__V1__TensorElementwiseOp *w,
                                                 trn_tensor_ew_desc *out) {
    static const char fn[] = "tensor elementwise";
    memset(out, 0, sizeof(*out));
    trn_tensor_layout dl, la, lb, lc, inner;
    /* A permutation (no B, no C) may convert A to D's type. */
    const int permutation = !w->b && !w->c;
    trn_wire_code rc = output_of(vx, fn, w->d, &dl, out);
    if (rc == TRN_WIRE_OK)
        rc = padding_of(vx, fn, w, &dl, &inner, out);
    out->type_a = out->type;
    if (rc == TRN_WIRE_OK)
        rc = layout_of(vx, fn, "A", w->a, out->type, permutation ? &out->type_a : NULL, &la,
                       &out->op_a);
    if (rc == TRN_WIRE_OK)
        rc = out->type_a == out->type ? compute_of(vx, fn, w->compute, out->type, 0, &out->compute)
                                      : convert_compute_of(vx, fn, w->compute, &out->compute);
    if (rc == TRN_WIRE_OK)
        rc = align_to(vx, fn, "A", &la, &inner, out->stride_a);
    if (rc == TRN_WIRE_OK && w->b) {
        rc = layout_of(vx, fn, "B", w->b, out->type, NULL, &lb, &out->op_b);
        if (rc == TRN_WIRE_OK)
            rc = align_to(vx, fn, "B", &lb, &dl, out->stride_b);
    }
    if (rc == TRN_WIRE_OK && w->c) {
        rc = layout_of(vx, fn, "C", w->c, out->type, NULL, &lc, &out->op_c);
        if (rc == TRN_WIRE_OK)
            rc = align_to(vx, fn, "C", &lc, &dl, out->stride_c);
    }
    if (rc != TRN_WIRE_OK)
        return rc;
    if ((w->b && !binary_ok(w->op_ab)) || (w->c && !binary_ok(w->op_abc))) {
        trn_vmsg(vx, "%s: %s %u must be ADD, MUL, MAX or MIN", fn,
                 w->b && !binary_ok(w->op_ab) ? "opAB" : "opABC",
                 w->b && !binary_ok(w->op_ab) ? w->op_ab : w->op_abc);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (trn_dtype_is_complex(out->type)) {
        rc = w->b ? complex_binary(vx, fn, "opAB", w->op_ab) : TRN_WIRE_OK;
        if (rc == TRN_WIRE_OK && w->c)
            rc = complex_binary(vx, fn, "opABC", w->op_abc);
        if (rc != TRN_WIRE_OK)
            return rc;
    }
    out->op_ab = (int)w->op_ab;
    out->op_abc = (int)w->op_abc;
    out->alpha = scalar_of(w->alpha, out->type);
    out->beta = scalar_of(w->beta, out->type);
    out->gamma = scalar_of(w->gamma, out->type);
    void *p = NULL;
    rc = operand(vx, w->a_data, &la, out->type_a, "tensor elementwise: A", &p);
    out->a = p;
    if (rc == TRN_WIRE_OK && w->b) {
        rc = operand(vx, w->b_data, &lb, out->type, "tensor elementwise: B", &p);
        out->b = p;
    }
    if (rc == TRN_WIRE_OK && w->c) {
        rc = operand(vx, w->c_data, &lc, out->type, "tensor elementwise: C", &p);
        out->c = p;
    }
    if (rc == TRN_WIRE_OK)
        rc = operand(vx, w->d_data, &dl, out->type, "tensor elementwise: D", &out->d);
    if (rc == TRN_WIRE_OK && (!out->a || !out->d || (w->b && !out->b) || (w->c && !out->c))) {
        trn_vmsg(vx, "%s: every operand must be a device pointer, not NULL", fn);
        rc = TRN_WIRE_INVALID_ARGUMENT;
    }
    /* A conversion cannot run in place: elements of the other size would
     * overwrite elements not yet read (cuTENSOR: A must not overlap B). */
    if (rc == TRN_WIRE_OK && out->type_a != out->type) {
        const char *a = out->a, *d = out->d;
        const uint64_t na = trn_tensor_span(&la) * trn_dtype_size(out->type_a),
                       nd = trn_tensor_span(&dl) * trn_dtype_size(out->type); /* checked above */
        if (a < d + nd && d < a + na) {
            trn_vmsg(vx, "%s: A (%s) and D (%s) overlap: a conversion cannot run in place", fn,
                     dtype_name(out->type_a), dtype_name(out->type));
            rc = TRN_WIRE_INVALID_ARGUMENT;
        }
    }
    return rc;
}

static trn_wire_code validate_tensor_reduction(trn_vctx *vx, const Trnsci__V1__TensorReductionOp *w,
                                               trn_tensor_ew_desc *out) {
    static const char fn[] = "tensor reduction";
    memset(out, 0, sizeof(*out));
    out->reduce = 1;
    trn_tensor_layout dl, la, lc;
    trn_wire_code rc = output_of(vx, fn, w->d, &dl, out);
    out->type_a = out->type;
    if (rc == TRN_WIRE_OK)
        rc = layout_of(vx, fn, "A", w->a, out->type, NULL, &la, &out->op_a);
    if (rc == TRN_WIRE_OK)
        rc = compute_of(vx, fn, w->compute, out->type, 0, &out->compute);
    if (rc != TRN_WIRE_OK)
        return rc;
    out->op_c = 1;
    if (w->c) {
        rc = layout_of(vx, fn, "C", w->c, out->type, NULL, &lc, &out->op_c);
        if (rc != TRN_WIRE_OK)
            return rc;
        int same = lc.nmodes == dl.nmodes;
        for (int i = 0; same && i < dl.nmodes; i++)
            same = lc.mode[i] == dl.mode[i] && lc.extent[i] == dl.extent[i] &&
                   lc.stride[i] == dl.stride[i];
        if (!same) {
            trn_vmsg(vx, "%s: C must have D's modes, extents and strides", fn);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
    }
    /* Modes of A: D's (with D's extents) or reduced. */
    for (int i = 0; i < dl.nmodes; i++) {
        int j = 0;
        while (j < la.nmodes && la.mode[j] != dl.mode[i])
            j++;
        if (j == la.nmodes) {
            trn_vmsg(vx, "%s: mode %d of D is not a mode of A", fn, (int)dl.mode[i]);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        if (la.extent[j] != dl.extent[i]) {
            trn_vmsg(vx, "%s: mode %d has extent %lld in A but %lld in D", fn, (int)dl.mode[i],
                     (long long)la.extent[j], (long long)dl.extent[i]);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        out->stride_a[i] = la.stride[j];
    }
    for (int j = 0; j < la.nmodes; j++) {
        int i = 0;
        while (i < dl.nmodes && dl.mode[i] != la.mode[j])
            i++;
        if (i < dl.nmodes)
            continue;
        out->rextent[out->nrmodes] = la.extent[j];
        out->rstride_a[out->nrmodes++] = la.stride[j];
        out->reduced *= (uint64_t)la.extent[j]; /* <= A's span, which fits */
    }
    if (!binary_ok(w->op_reduce)) {
        trn_vmsg(vx, "%s: opReduce %u must be ADD, MUL, MAX or MIN", fn, w->op_reduce);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (trn_dtype_is_complex(out->type)) {
        rc = complex_binary(vx, fn, "opReduce", w->op_reduce);
        if (rc != TRN_WIRE_OK)
            return rc;
    }
    out->op_red = (int)w->op_reduce;
    out->alpha = scalar_of(w->alpha, out->type);
    out->beta = scalar_of(w->beta, out->type);
    for (int i = 0; i < dl.nmodes; i++)
        out->stride_c[i] = dl.stride[i];
    void *p = NULL;
    rc = operand(vx, w->a_data, &la, out->type, "tensor reduction: A", &p);
    out->a = p;
    if (rc == TRN_WIRE_OK)
        rc = operand(vx, w->d_data, &dl, out->type, "tensor reduction: D", &out->d);
    if (rc == TRN_WIRE_OK && scalar_nonzero(out->beta)) {
        if (same_ref(w->c_data, w->d_data)) {
            out->c = out->d;
        } else {
            rc = operand(vx, w->c_data, &dl, out->type, "tensor reduction: C", &p);
            out->c = p;
        }
    }
    if (rc == TRN_WIRE_OK && (!out->a || !out->d || (scalar_nonzero(out->beta) && !out->c))) {
        trn_vmsg(vx, "%s: every operand must be a device pointer, not NULL", fn);
        rc = TRN_WIRE_INVALID_ARGUMENT;
    }
    return rc;
}

/* The table's entries (validate.h). */
TRN_VALIDATE_ENTRY(tensor_contract,
                   validate_tensor_contract(vx, op->tensor_contract, &out->u.tensor_contract))
TRN_VALIDATE_ENTRY(tensor_elementwise,
                   validate_tensor_elementwise(vx, op->tensor_elementwise, &out->u.tensor_ew))
TRN_VALIDATE_ENTRY(tensor_reduction,
                   validate_tensor_reduction(vx, op->tensor_reduction, &out->u.tensor_ew))
TRN_VALIDATE_ENTRY(tensor_contract_trinary,
                   validate_tensor_contract_trinary(vx, op->tensor_contract_trinary,
                                                    &out->u.tensor_trinary))
