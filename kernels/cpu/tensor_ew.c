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
 * split. As in cuTENSOR, an operand whose scalar (alpha, beta or gamma) is
 * zero is not read: its term is zero, its unary operator not applied, so a
 * NaN or an infinity there does not reach D.
 *
 * Permutations run apart (permute()): they are the way to convert a tensor
 * between R_64F and R_32F on the device, so they must run at memory
 * bandwidth. Modes that are contiguous in both A and D are fused, and each
 * run along D's first (fused) mode is a plain loop specialised for the type
 * pair; with unit strides and alpha = 1 it is a conversion the compiler
 * vectorises. The value is alpha opA(a) formed in the compute precision
 * (32F: a is rounded to FP32 first and the result rounded to FP32; the
 * arithmetic itself is in double, as everywhere here) and rounded once to
 * D's type, round to nearest even (the C conversions under the default
 * rounding mode). The specialised loops compute exactly that value. A
 * padded permutation (permute_padded) writes the padding value around the
 * interior; its interior runs through the same loops.
 *
 * Complex data (C32F, C64F) take ew_complex(): one element at a time in
 * double complex (unary IDENTITY or CONJ, binary ADD or MUL, complex
 * scalars), rounded once to the type at the store, with the same rules for
 * zero scalars, reductions and padding as real data.
 *
 * 16-bit storage (R16F, R16BF; 32F compute) takes ew_narrow(): elements are
 * widened exactly, each result is computed as real data's are (in double)
 * and rounded to FP32, the compute type, then once to the 16-bit type, to
 * nearest even (trn_fp16.h's conversions).
 */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "include/trnsci/trn_fp16.h"

#include "kernels/cpu/cpu_kernels.h"

/* glibc's <complex.h> defines CMPLX for GCC only; clang (the fuzz build)
 * has the same builtin. */
#ifndef CMPLX
#define CMPLX(x, y) __builtin_complex((double)(x), (double)(y))
#endif

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
        acc = binary(d->op_red, acc, unary(d->op_a, load(d->type_a, d->a, oa)));
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

/* ---- permutations ------------------------------------------------------------------ */

/* One run of n elements along D's first fused mode: d[k sd] = f(a[k sa]). */
typedef void (*perm_run)(const trn_tensor_ew_desc *desc, void *d, int64_t sd, const void *a,
                         int64_t sa, int64_t n);

/* The value of one element, in double: alpha = 1 with the identity (the
 * conversion alone), alpha a in 64F, and alpha a in 32F (a rounded to
 * FP32, the product rounded to FP32: a product of two FP32 values is exact
 * in double, so this is FP32 multiplication when alpha is an FP32 value, as
 * the client sends it). The caller's cast to D's type is the one rounding
 * of 64F compute into R_32F. */
static inline double val_one(double alpha, double x) {
    (void)alpha;
    return x;
}
static inline double val_64(double alpha, double x) {
    return alpha * x;
}
static inline double val_32(double alpha, double x) {
    return (float)(alpha * (double)(float)x);
}

/* Unit strides get a loop of their own so that the compiler vectorises it.
 * No restrict: a same-type permutation may run in place (a converting one
 * may not: the validator refuses overlapping A and D). */
#define PERM_RUN(NAME, TA, TB, VAL)                                                                \
    static void NAME(const trn_tensor_ew_desc *desc, void *dv, int64_t sd, const void *av,         \
                     int64_t sa, int64_t n) {                                                      \
        TB *dp = dv;                                                                               \
        const TA *ap = av;                                                                         \
        const double alpha = desc->alpha.re;                                                       \
        if (sd == 1 && sa == 1) {                                                                  \
            for (int64_t k = 0; k < n; k++)                                                        \
                dp[k] = (TB)VAL(alpha, (double)ap[k]);                                             \
        } else {                                                                                   \
            for (int64_t k = 0; k < n; k++)                                                        \
                dp[k * sd] = (TB)VAL(alpha, (double)ap[k * sa]);                                   \
        }                                                                                          \
    }

PERM_RUN(cvt_dd, double, double, val_one)
PERM_RUN(cvt_df, double, float, val_one)
PERM_RUN(cvt_fd, float, double, val_one)
PERM_RUN(cvt_ff, float, float, val_one)
PERM_RUN(s64_dd, double, double, val_64)
PERM_RUN(s64_df, double, float, val_64)
PERM_RUN(s64_fd, float, double, val_64)
PERM_RUN(s32_df, double, float, val_32)
PERM_RUN(s32_fd, float, double, val_32)
PERM_RUN(s32_ff, float, float, val_32)

/* Any unary operator: load, op, store, with the compute type's roundings. */
static void run_general(const trn_tensor_ew_desc *desc, void *d, int64_t sd, const void *a,
                        int64_t sa, int64_t n) {
    const int c32 = desc->compute == TRN_COMPUTE_32F;
    for (int64_t k = 0; k < n; k++) {
        double x = load(desc->type_a, a, k * sa);
        if (c32)
            x = (float)x;
        double v = desc->alpha.re * unary(desc->op_a, x);
        if (c32)
            v = (float)v;
        store(desc->type, d, k * sd, v);
    }
}

/* alpha = 0: zeros, A not read (cuTENSOR: "if alpha is zero, A is not read
 * and the corresponding unary operator is not applied"). */
static void run_zero(const trn_tensor_ew_desc *desc, void *d, int64_t sd, const void *a, int64_t sa,
                     int64_t n) {
    (void)a;
    (void)sa;
    for (int64_t k = 0; k < n; k++)
        store(desc->type, d, k * sd, 0.0);
}

static perm_run perm_pick(const trn_tensor_ew_desc *d) {
    const int fa = d->type_a == TRN_DTYPE_R32F, fd = d->type == TRN_DTYPE_R32F;
    if (d->alpha.re == 0.0)
        return run_zero;
    const int c32 = d->compute == TRN_COMPUTE_32F;
    if (d->op_a != OP_IDENTITY && d->op_a != OP_CONJ)
        return run_general;
    /* Rounding through FP32 changes nothing when A or D is FP32 already. */
    if (d->alpha.re == 1.0 && (!c32 || fa || fd))
        return fa ? (fd ? cvt_ff : cvt_fd) : (fd ? cvt_df : cvt_dd);
    if (c32 && (fa || fd))
        return fa ? (fd ? s32_ff : s32_fd) : s32_df;
    if (!c32 && !(fa && fd))
        return fa ? s64_fd : (fd ? s64_df : s64_dd);
    return run_general; /* a pairing the validator does not produce */
}

/* D = alpha opA(A) over D's elements [lo, hi). */
static void permute(const trn_tensor_ew_desc *d, size_t lo, size_t hi) {
    /* Fuse mode i into the one before when both A and D continue across
     * it (packed tensors become one mode, one run per shard). */
    int nm = 0;
    int64_t ext[TRN_TENSOR_MAX_MODES], sa[TRN_TENSOR_MAX_MODES], sd[TRN_TENSOR_MAX_MODES];
    for (int i = 0; i < d->nmodes; i++) {
        if (nm > 0 && (uint64_t)sa[nm - 1] * (uint64_t)ext[nm - 1] == (uint64_t)d->stride_a[i] &&
            (uint64_t)sd[nm - 1] * (uint64_t)ext[nm - 1] == (uint64_t)d->stride_d[i]) {
            ext[nm - 1] *= d->extent[i]; /* <= D's elements */
            continue;
        }
        ext[nm] = d->extent[i];
        sa[nm] = d->stride_a[i];
        sd[nm] = d->stride_d[i];
        nm++;
    }
    if (nm == 0) { /* a scalar */
        ext[0] = sa[0] = sd[0] = 1;
        nm = 1;
    }
    const perm_run run = perm_pick(d);
    const size_t esa = trn_dtype_size(d->type_a), esd = trn_dtype_size(d->type);
    int64_t idx[TRN_TENSOR_MAX_MODES] = {0}, oa = 0, od = 0;
    size_t t = lo;
    for (int i = 0; i < nm; i++) {
        idx[i] = (int64_t)(t % (size_t)ext[i]);
        t /= (size_t)ext[i];
        oa += idx[i] * sa[i];
        od += idx[i] * sd[i];
    }
    for (size_t e = lo; e < hi;) {
        int64_t n = ext[0] - idx[0];
        if ((size_t)n > hi - e)
            n = (int64_t)(hi - e);
        run(d, (char *)d->d + od * (int64_t)esd, sd[0], (const char *)d->a + oa * (int64_t)esa,
            sa[0], n);
        e += (size_t)n;
        idx[0] += n;
        oa += n * sa[0];
        od += n * sd[0];
        for (int i = 0; i < nm && idx[i] == ext[i]; i++) { /* carry */
            oa -= idx[i] * sa[i];
            od -= idx[i] * sd[i];
            idx[i] = 0;
            if (i + 1 < nm) {
                idx[i + 1]++;
                oa += sa[i + 1];
                od += sd[i + 1];
            }
        }
    }
}

/* pad_value into n elements of D at stride sd. */
static void fill_pad(const trn_tensor_ew_desc *d, char *dp, int64_t sd, int64_t n) {
    const int64_t es = (int64_t)trn_dtype_size(d->type);
    for (int64_t k = 0; k < n; k++)
        store(d->type, dp + k * sd * es, 0, d->pad_value.re);
}

/* A padded permutation over D's (padded) elements [lo, hi): each run
 * along mode 0 is split into its leading padding, the interior (the same
 * run functions as an unpadded permutation, so the interior's bits are
 * those of one) and its trailing padding; a run outside the interior in
 * another mode is padding throughout. Modes are not fused: a padded mode
 * does not continue into the next. */
static void permute_padded(const trn_tensor_ew_desc *d, size_t lo, size_t hi) {
    const int nm = d->nmodes;
    const perm_run run = perm_pick(d);
    const int64_t esa = (int64_t)trn_dtype_size(d->type_a), esd = (int64_t)trn_dtype_size(d->type);
    int64_t idx[TRN_TENSOR_MAX_MODES] = {0};
    size_t t = lo;
    for (int i = 0; i < nm; i++) {
        idx[i] = (int64_t)(t % (size_t)d->extent[i]);
        t /= (size_t)d->extent[i];
    }
    const int64_t ext0 = nm ? d->extent[0] : 1, sd0 = nm ? d->stride_d[0] : 1;
    const int64_t sa0 = nm ? d->stride_a[0] : 1;
    for (size_t e = lo; e < hi;) {
        const int64_t first = nm ? idx[0] : 0;
        int64_t n = ext0 - first;
        if ((size_t)n > hi - e)
            n = (int64_t)(hi - e);
        /* Offsets of the run's first element; inside: the other modes'
         * indices are in the interior. */
        int64_t od = 0, oa = 0;
        int inside = 1;
        for (int i = 0; i < nm; i++) {
            od += idx[i] * d->stride_d[i];
            if (i > 0) {
                inside &= idx[i] >= d->pad_lo[i] && idx[i] < d->pad_hi[i];
                oa += (idx[i] - d->pad_lo[i]) * d->stride_a[i];
            }
        }
        char *dp = (char *)d->d + od * esd;
        const int64_t end = first + n;
        if (!inside || nm == 0) {
            if (nm == 0) /* a scalar: no padding is possible */
                run(d, dp, 1, d->a, 1, 1);
            else
                fill_pad(d, dp, sd0, n);
        } else {
            /* [first, end) against the interior [lo0, hi0) of mode 0. */
            const int64_t lo0 = d->pad_lo[0], hi0 = d->pad_hi[0];
            const int64_t b = first > lo0 ? first : lo0, c = end < hi0 ? end : hi0;
            if (b >= c) {
                fill_pad(d, dp, sd0, n);
            } else {
                fill_pad(d, dp, sd0, b - first);
                run(d, dp + (b - first) * sd0 * esd, sd0,
                    (const char *)d->a + (oa + (b - lo0) * sa0) * esa, sa0, c - b);
                fill_pad(d, dp + (c - first) * sd0 * esd, sd0, end - c);
            }
        }
        e += (size_t)n;
        if (nm == 0)
            break;
        idx[0] += n;
        for (int i = 0; i < nm && idx[i] == d->extent[i]; i++) { /* carry */
            idx[i] = 0;
            if (i + 1 < nm)
                idx[i + 1]++;
        }
    }
}

/* ---- 16-bit storage ------------------------------------------------------------------ */

static double nload(trn_dtype t, const void *p, int64_t i) {
    uint16_t x;
    memcpy(&x, (const char *)p + 2 * i, 2);
    if (t == TRN_DTYPE_R16F)
        return trnsciHalfToFloat((trnsciHalf){x});
    return trnsciBfloat16ToFloat((trnsciBfloat16){x});
}

static void nstore(trn_dtype t, void *p, int64_t i, double v) {
    const float f = (float)v; /* the FP32 result of 32F compute */
    const uint16_t x = t == TRN_DTYPE_R16F ? trnsciFloatToHalf(f).x : trnsciFloatToBfloat16(f).x;
    memcpy((char *)p + 2 * i, &x, 2);
}

/* alpha red(opA(A[oa + reduced offsets])) over the reduced modes. */
static double nreduce_at(const trn_tensor_ew_desc *d, int64_t oa) {
    int64_t idx[TRN_TENSOR_MAX_MODES] = {0};
    double acc = neutral(d->op_red);
    for (uint64_t r = 0; r < d->reduced; r++) {
        acc = binary(d->op_red, acc, unary(d->op_a, nload(d->type, d->a, oa)));
        for (int i = 0; i < d->nrmodes; i++) {
            oa += d->rstride_a[i];
            if (++idx[i] < d->rextent[i])
                break;
            oa -= idx[i] * d->rstride_a[i];
            idx[i] = 0;
        }
    }
    return acc;
}

/* Every 16-bit op over D's elements [lo, hi), one element at a time. */
static void ew_narrow(const trn_tensor_ew_desc *d, size_t lo, size_t hi) {
    int64_t idx[TRN_TENSOR_MAX_MODES] = {0};
    size_t t = lo;
    for (int i = 0; i < d->nmodes; i++) {
        idx[i] = (int64_t)(t % (size_t)d->extent[i]);
        t /= (size_t)d->extent[i];
    }
    const double alpha = d->alpha.re, beta = d->beta.re, gamma = d->gamma.re;
    for (size_t e = lo; e < hi; e++) {
        int64_t oa = 0, ob = 0, oc = 0, od = 0;
        int inside = 1;
        for (int i = 0; i < d->nmodes; i++) {
            const int64_t ia = d->padded ? idx[i] - d->pad_lo[i] : idx[i];
            if (d->padded)
                inside &= idx[i] >= d->pad_lo[i] && idx[i] < d->pad_hi[i];
            oa += ia * d->stride_a[i];
            ob += idx[i] * d->stride_b[i];
            oc += idx[i] * d->stride_c[i];
            od += idx[i] * d->stride_d[i];
        }
        double v;
        if (!inside) {
            v = d->pad_value.re;
        } else if (d->reduce) {
            v = alpha == 0.0 ? 0.0 : alpha * nreduce_at(d, oa);
            if (d->c && beta != 0.0)
                v += beta * unary(d->op_c, nload(d->type, d->c, oc));
        } else {
            v = alpha == 0.0 ? 0.0 : alpha * unary(d->op_a, nload(d->type, d->a, oa));
            if (d->b)
                v = binary(d->op_ab, v,
                           beta == 0.0 ? 0.0 : beta * unary(d->op_b, nload(d->type, d->b, ob)));
            if (d->c)
                v = binary(d->op_abc, v,
                           gamma == 0.0 ? 0.0 : gamma * unary(d->op_c, nload(d->type, d->c, oc)));
        }
        nstore(d->type, d->d, od, v);
        for (int i = 0; i < d->nmodes && ++idx[i] == d->extent[i]; i++)
            idx[i] = 0;
    }
}

/* ---- complex data ------------------------------------------------------------------ */

static double complex cload(trn_dtype t, const void *p, int64_t i) {
    if (t == TRN_DTYPE_C32F) {
        const float *f = (const float *)p + 2 * i;
        return CMPLX((double)f[0], (double)f[1]);
    }
    const double *f = (const double *)p + 2 * i;
    return CMPLX(f[0], f[1]);
}

static void cstore(trn_dtype t, void *p, int64_t i, double complex v) {
    if (t == TRN_DTYPE_C32F) {
        float *f = (float *)p + 2 * i;
        f[0] = (float)creal(v);
        f[1] = (float)cimag(v);
    } else {
        double *f = (double *)p + 2 * i;
        f[0] = creal(v);
        f[1] = cimag(v);
    }
}

static double complex cunary(int op, double complex x) {
    return op == OP_CONJ ? conj(x) : x;
}

static double complex cbinary(int op, double complex x, double complex y) {
    return op == OP_MUL ? x * y : x + y;
}

static double complex cscalar(trn_scalar s) {
    return CMPLX(s.re, s.im);
}

static int nonzero(trn_scalar s) {
    return s.re != 0.0 || s.im != 0.0;
}

/* alpha red(opA(A[oa + reduced offsets])) over the reduced modes. */
static double complex creduce_at(const trn_tensor_ew_desc *d, int64_t oa) {
    int64_t idx[TRN_TENSOR_MAX_MODES] = {0};
    double complex acc = d->op_red == OP_MUL ? 1.0 : 0.0;
    for (uint64_t r = 0; r < d->reduced; r++) {
        acc = cbinary(d->op_red, acc, cunary(d->op_a, cload(d->type, d->a, oa)));
        for (int i = 0; i < d->nrmodes; i++) {
            oa += d->rstride_a[i];
            if (++idx[i] < d->rextent[i])
                break;
            oa -= idx[i] * d->rstride_a[i];
            idx[i] = 0;
        }
    }
    return acc;
}

/* Every complex op over D's elements [lo, hi), one element at a time. */
static void ew_complex(const trn_tensor_ew_desc *d, size_t lo, size_t hi) {
    int64_t idx[TRN_TENSOR_MAX_MODES] = {0};
    size_t t = lo;
    for (int i = 0; i < d->nmodes; i++) {
        idx[i] = (int64_t)(t % (size_t)d->extent[i]);
        t /= (size_t)d->extent[i];
    }
    const double complex alpha = cscalar(d->alpha), beta = cscalar(d->beta),
                         gamma = cscalar(d->gamma);
    const int a_nz = nonzero(d->alpha), b_nz = nonzero(d->beta), g_nz = nonzero(d->gamma);
    for (size_t e = lo; e < hi; e++) {
        int64_t oa = 0, ob = 0, oc = 0, od = 0;
        int inside = 1;
        for (int i = 0; i < d->nmodes; i++) {
            const int64_t ia = d->padded ? idx[i] - d->pad_lo[i] : idx[i];
            if (d->padded)
                inside &= idx[i] >= d->pad_lo[i] && idx[i] < d->pad_hi[i];
            oa += ia * d->stride_a[i];
            ob += idx[i] * d->stride_b[i];
            oc += idx[i] * d->stride_c[i];
            od += idx[i] * d->stride_d[i];
        }
        double complex v;
        if (!inside) {
            v = cscalar(d->pad_value);
        } else if (d->reduce) {
            v = a_nz ? alpha * creduce_at(d, oa) : 0.0;
            if (d->c && b_nz)
                v += beta * cunary(d->op_c, cload(d->type, d->c, oc));
        } else {
            v = a_nz ? alpha * cunary(d->op_a, cload(d->type, d->a, oa)) : 0.0;
            if (d->b)
                v = cbinary(d->op_ab, v,
                            b_nz ? beta * cunary(d->op_b, cload(d->type, d->b, ob)) : 0.0);
            if (d->c)
                v = cbinary(d->op_abc, v,
                            g_nz ? gamma * cunary(d->op_c, cload(d->type, d->c, oc)) : 0.0);
        }
        cstore(d->type, d->d, od, v);
        for (int i = 0; i < d->nmodes && ++idx[i] == d->extent[i]; i++)
            idx[i] = 0;
    }
}

trn_kstatus trn_cpu_tensor_ew(const trn_tensor_ew_desc *d, int shard, int nshards) {
    size_t lo, hi;
    trn_cpu_shard_range((size_t)d->elements, shard, nshards, &lo, &hi);
    if (lo >= hi)
        return TRN_KSTATUS_OK;
    if (d->type == TRN_DTYPE_C32F || d->type == TRN_DTYPE_C64F) {
        ew_complex(d, lo, hi);
        return TRN_KSTATUS_OK;
    }
    if (d->type == TRN_DTYPE_R16F || d->type == TRN_DTYPE_R16BF) {
        ew_narrow(d, lo, hi);
        return TRN_KSTATUS_OK;
    }
    if (!d->reduce && !d->b && !d->c) {
        if (d->padded)
            permute_padded(d, lo, hi);
        else
            permute(d, lo, hi);
        return TRN_KSTATUS_OK;
    }
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
        /* A term whose scalar is zero is zero, its operand not read. */
        if (d->reduce) {
            v = d->alpha.re == 0.0 ? 0.0 : d->alpha.re * reduce_at(d, oa);
            if (d->c && d->beta.re != 0.0)
                v += d->beta.re * unary(d->op_c, load(d->type, d->c, oc));
        } else {
            v = d->alpha.re == 0.0 ? 0.0 : d->alpha.re * unary(d->op_a, load(d->type_a, d->a, oa));
            if (d->b)
                v = binary(
                    d->op_ab, v,
                    d->beta.re == 0.0 ? 0.0 : d->beta.re * unary(d->op_b, load(d->type, d->b, ob)));
            if (d->c)
                v = binary(d->op_abc, v,
                           d->gamma.re == 0.0
                               ? 0.0
                               : d->gamma.re * unary(d->op_c, load(d->type, d->c, oc)));
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

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(tensor_elementwise, trn_cpu_tensor_ew(&op->u.tensor_ew, shard, nshards))
TRN_CPU_ENTRY(tensor_reduction, trn_cpu_tensor_ew(&op->u.tensor_ew, shard, nshards))
