/*
 * tensor_ew.c — trntensor element-wise operations, permutations and
 * reductions on the CPU backend (cutensorElementwiseTrinaryExecute,
 * ElementwiseBinaryExecute, Permute, Reduce semantics; op.h's
 * trn_tensor_ew_desc).
 *
 * Each element of D is computed by one shard (shards own contiguous ranges
 * of D's elements, first mode fastest), from its inputs only, so any split
 * gives the same bits. Arithmetic is in double for both data types, with
 * one rounding to the data type at the store; a reduction sums A's elements
 * in the order of its reduced modes (first fastest), independent of the
 * split.
 */
#include <math.h>

#include "kernels/cpu/cpu_kernels.h"

/* cutensorOperator_t values (include/trnsci/trntensor.h). */
enum {
    OP_IDENTITY = 1,
    OP_SQRT = 2,
    OP_ADD = 3,
    OP_MUL = 5,
    OP_MAX = 6,
    OP_MIN = 7,
    OP_RELU = 8,
    OP_CONJ = 9,
    OP_RCP = 10,
    OP_SIGMOID = 11,
    OP_TANH = 12,
    OP_EXP = 22,
    OP_LOG = 23,
    OP_ABS = 24,
    OP_NEG = 25,
    OP_SIN = 26,
    OP_COS = 27,
    OP_TAN = 28,
    OP_SINH = 29,
    OP_COSH = 30,
    OP_ASIN = 31,
    OP_ACOS = 32,
    OP_ATAN = 33,
    OP_ASINH = 34,
    OP_ACOSH = 35,
    OP_ATANH = 36,
    OP_CEIL = 37,
    OP_FLOOR = 38,
    OP_MISH = 39,
    OP_SWISH = 40,
    OP_SOFT_PLUS = 41,
    OP_SOFT_SIGN = 42,
};

static double unary(int op, double x) {
    switch (op) {
    case OP_SQRT: return sqrt(x);
    case OP_RELU: return x > 0.0 ? x : 0.0;
    case OP_RCP: return 1.0 / x;
    case OP_SIGMOID: return 1.0 / (1.0 + exp(-x));
    case OP_TANH: return tanh(x);
    case OP_EXP: return exp(x);
    case OP_LOG: return log(x);
    case OP_ABS: return fabs(x);
    case OP_NEG: return -x;
    case OP_SIN: return sin(x);
    case OP_COS: return cos(x);
    case OP_TAN: return tan(x);
    case OP_SINH: return sinh(x);
    case OP_COSH: return cosh(x);
    case OP_ASIN: return asin(x);
    case OP_ACOS: return acos(x);
    case OP_ATAN: return atan(x);
    case OP_ASINH: return asinh(x);
    case OP_ACOSH: return acosh(x);
    case OP_ATANH: return atanh(x);
    case OP_CEIL: return ceil(x);
    case OP_FLOOR: return floor(x);
    case OP_MISH: return x * tanh(log1p(exp(x)));
    case OP_SWISH: return x / (1.0 + exp(-x));
    case OP_SOFT_PLUS: return log1p(exp(x));
    case OP_SOFT_SIGN: return x / (1.0 + fabs(x));
    default: return x; /* IDENTITY, CONJ (real data) */
    }
}

static double binary(int op, double x, double y) {
    switch (op) {
    case OP_MUL: return x * y;
    case OP_MAX: return x > y ? x : y;
    case OP_MIN: return x < y ? x : y;
    default: return x + y; /* ADD */
    }
}

/* The identity of a reduction operator. */
static double neutral(int op) {
    switch (op) {
    case OP_MUL: return 1.0;
    case OP_MAX: return -INFINITY;
    case OP_MIN: return INFINITY;
    default: return 0.0;
    }
}

static double load(trn_dtype t, const void *p, int64_t i) {
    return t == TRN_DTYPE_R32F ? (double)((const float *)p)[i] : ((const double *)p)[i];
}

static void store(trn_dtype t, void *p, int64_t i, double v) {
    if (t == TRN_DTYPE_R32F)
        ((float *)p)[i] = (float)v;
    else
        ((double *)p)[i] = v;
}

/* alpha red(opA(A[oa + reduced offsets])) over the reduced modes. */
static double reduce_at(const trn_tensor_ew_desc *d, int64_t oa) {
    int64_t idx[TRN_TENSOR_MAX_MODES] = {0};
    double acc = neutral(d->op_red);
    for (uint64_t r = 0; r < d->reduced; r++) {
        acc = binary(d->op_red, acc, unary(d->op_a, load(d->type, d->a, oa)));
        for (int i = 0; i < d->nrmodes; i++) { /* odometer over the reduced modes */
            oa += d->rstride_a[i];
            if (++idx[i] < d->rextent[i])
                break;
            oa -= idx[i] * d->rstride_a[i];
            idx[i] = 0;
        }
    }
    return acc;
}

trn_kstatus trn_cpu_tensor_ew(const trn_tensor_ew_desc *d, int shard, int nshards) {
    size_t lo, hi;
    trn_cpu_shard_range((size_t)d->elements, shard, nshards, &lo, &hi);
    if (lo >= hi)
        return TRN_KSTATUS_OK;
    /* D's multi-index of element lo and the operands' offsets there. */
    int64_t idx[TRN_TENSOR_MAX_MODES] = {0}, oa = 0, ob = 0, oc = 0, od = 0;
    size_t t = lo;
    for (int i = 0; i < d->nmodes; i++) {
        idx[i] = (int64_t)(t % (size_t)d->extent[i]);
        t /= (size_t)d->extent[i];
        oa += idx[i] * d->stride_a[i];
        ob += idx[i] * d->stride_b[i];
        oc += idx[i] * d->stride_c[i];
        od += idx[i] * d->stride_d[i];
    }
    for (size_t e = lo; e < hi; e++) {
        double v;
        if (d->reduce) {
            v = d->alpha.re * reduce_at(d, oa);
            if (d->c)
                v += d->beta.re * unary(d->op_c, load(d->type, d->c, oc));
        } else {
            v = d->alpha.re * unary(d->op_a, load(d->type, d->a, oa));
            if (d->b)
                v = binary(d->op_ab, v, d->beta.re * unary(d->op_b, load(d->type, d->b, ob)));
            if (d->c)
                v = binary(d->op_abc, v, d->gamma.re * unary(d->op_c, load(d->type, d->c, oc)));
        }
        store(d->type, d->d, od, v);
        for (int i = 0; i < d->nmodes; i++) { /* odometer over D's modes */
            oa += d->stride_a[i];
            ob += d->stride_b[i];
            oc += d->stride_c[i];
            od += d->stride_d[i];
            if (++idx[i] < d->extent[i])
                break;
            oa -= idx[i] * d->stride_a[i];
            ob -= idx[i] * d->stride_b[i];
            oc -= idx[i] * d->stride_c[i];
            od -= idx[i] * d->stride_d[i];
            idx[i] = 0;
        }
    }
    return TRN_KSTATUS_OK;
}
