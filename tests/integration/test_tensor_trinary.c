/*
 * test_tensor_trinary.c — trntensor's trinary contraction
 * (trntensorCreateContractionTrinary + trntensorContractTrinary, protocol
 * 1.15) and cuTENSOR's 16F / 16BF compute descriptors, through a real
 * 2-core daemon over the local transport and gRPC over TCP, against numpy's
 * einsum in complex128 (tensor_trinary_ref.py under Debian's python3).
 *
 * Trinary cases: a matrix chain, a mode shared by all three inputs (summed
 * by the second step), an addend D that is E itself (in place), two chains
 * whose extents make the daemon take (B C) A and (A B) C, complex data with
 * conjugated operands and complex scalars, a batch mode, R_16F / R_16BF
 * storage, and D and E at twice the packed strides (an R_16F one, whose E is
 * rounded from an FP32 copy element by element, and an R_64F one in place),
 * whose gaps must come back unchanged. The 16F / 16BF cases: a binary contraction of R_32F data
 * under 16F (trnblas's 32F_FAST_16F), and element-wise, reduction and permutation on R_16F / R_16BF
 * data under their 16-bit compute descriptor.
 *
 * Tolerances, with u the unit roundoff of the compute precision (2^-24 for
 * 32F, 2^-53 for 64F), gamma_n = n u / (1 - n u), S the same formula on
 * magnitudes (|alpha| sum |a||b||c| + |beta||d|, numpy), and k from the
 * reference (for three inputs the largest k1 + k2 over the three pairwise
 * orders, k1 and k2 the products of the extents each step sums; the
 * daemon's order is one of them):
 *  - real trinary: |E - ref| <= gamma_{k+2} S. The first step's inner
 *    products of k1 terms are within gamma_{k1} of |X||Y| (T is stored in
 *    the compute precision, so that is the one rounding of T); the second
 *    step's, with alpha and beta, within gamma_{k2+2}; gamma_a + gamma_b +
 *    gamma_a gamma_b <= gamma_{a+b};
 *  - complex trinary: 2 (k + 6) u S (each step a complex inner product,
 *    within sqrt(2) gamma_{k_i+2} of the magnitudes, plus gamma_2 for
 *    alpha, beta; 2 (k + 6) u bounds their sum for k u < 0.01);
 *  - 16-bit storage (32F compute, FP32 intermediate, one rounding of E):
 *    u16 (|ref| + e) + e + tiny with e the real bound in FP32, u16 = 2^-11
 *    (binary16) or 2^-8 (bfloat16) and tiny half the type's smallest
 *    subnormal;
 *  - R_32F contraction under 16F (inputs rounded to binary16, FP32 sums):
 *    (2 u_r + u_r^2) S + gamma_{k+2} (1 + u_r)^2 S, u_r = 2^-11;
 *  - element-wise and permutations on 16-bit data (double, FP32, then one
 *    rounding to 16 bits): u16 |ref| + 4u (|ref| + S) + tiny; reductions of
 *    k terms: (u16 + 2u) |ref| + 2 (k + 4) 2^-53 S + tiny.
 *
 * Bad input (cuTENSOR's statuses, with the message): descD != descE, a mode
 * of E in no input, extents that differ, a mode in one input only, opA
 * SQRT, opD CONJ on complex data, mixed data types, a 16F compute
 * descriptor on an R_16F contraction, NULL scalars, E past its allocation
 * or not device memory, and plans of the other contraction kind; the plan
 * preference, workspace estimate, plan attribute and SCALAR_TYPE calls on a
 * trinary descriptor.
 */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "harness.h"
#include "sparse_util.h"
#include "trnsci/trn_fp16.h"
#include "trnsci/trntensor.h"

static th_daemon two_cores;
static char tmp_dir[256];
static su_transport local_t = {"local", NULL}, grpc_t = {"grpc", NULL};

enum { K_TRI, K_CON, K_EW, K_RED, K_PERM };

#define ID TRNTENSOR_OP_IDENTITY
#define CJ TRNTENSOR_OP_CONJ

typedef struct tcase {
    int kind;
    const char *name;
    trnsciDataType_t type;
    const char *m[3]; /* inputs in order; NULL: absent */
    int op[3];
    const char *me, *ext;
    double alpha[2], beta[2]; /* beta: gamma of K_EW */
    int in_place;             /* D is E */
    int c16;                  /* the 16F / 16BF compute descriptor */
    int gap;                  /* D and E at twice the packed strides: the gaps stay */
} tcase;

// clang-format off
static const tcase tcases[] = {
    {K_TRI, "chain64", TRNSCI_R_64F, {"ik", "kl", "lj"}, {ID, ID, ID}, "ij",
     "i=13,k=17,l=5,j=11", {0.5, 0}, {-0.25, 0}, 0, 0, 0},
    {K_TRI, "hyper32", TRNSCI_R_32F, {"ak", "bk", "ck"}, {ID, ID, ID}, "abc",
     "a=4,b=5,c=6,k=9", {1.5, 0}, {0, 0}, 0, 0, 0},
    {K_TRI, "inplace64", TRNSCI_R_64F, {"ijk", "jl", "klm"}, {ID, ID, ID}, "iml",
     "i=3,j=4,k=5,l=6,m=2", {1, 0}, {2, 0}, 1, 0, 0},
    {K_TRI, "order_bc", TRNSCI_R_64F, {"ij", "jk", "kl"}, {ID, ID, ID}, "il",
     "i=3,j=40,k=40,l=2", {1, 0}, {0.5, 0}, 0, 0, 0},
    {K_TRI, "order_ab", TRNSCI_R_32F, {"ij", "jk", "kl"}, {ID, ID, ID}, "il",
     "i=2,j=40,k=40,l=3", {-1, 0}, {0, 0}, 0, 0, 0},
    {K_TRI, "cplx32", TRNSCI_C_32F, {"ik", "kl", "lj"}, {CJ, ID, CJ}, "ij",
     "i=7,k=9,l=6,j=5", {0.5, -1}, {0.25, 0.5}, 0, 0, 0},
    {K_TRI, "cplx64_batch", TRNSCI_C_64F, {"nik", "nkj", "jl"}, {ID, CJ, ID}, "nil",
     "n=3,i=4,k=5,j=6,l=7", {1, 0.5}, {0, 0}, 0, 0, 0},
    {K_TRI, "half", TRNSCI_R_16F, {"ik", "kl", "lj"}, {ID, ID, ID}, "ij",
     "i=9,k=12,l=7,j=8", {1, 0}, {0.5, 0}, 0, 0, 0},
    {K_TRI, "bf16", TRNSCI_R_16BF, {"ak", "bk", "ck"}, {ID, ID, ID}, "abc",
     "a=3,b=4,c=5,k=6", {0.75, 0}, {-1, 0}, 1, 0, 0},
    {K_CON, "con_r32_16f", TRNSCI_R_32F, {"ik", "kj", NULL}, {ID, ID, ID}, "ij",
     "i=20,k=33,j=15", {1, 0}, {0.5, 0}, 0, 1, 0},
    {K_EW, "ew_h_16f", TRNSCI_R_16F, {"ab", "b", NULL}, {ID, ID, ID}, "ab",
     "a=5,b=7", {0.5, 0}, {-1.25, 0}, 0, 1, 0},
    {K_EW, "ew_bf_16bf", TRNSCI_R_16BF, {"ba", "ab", NULL}, {ID, ID, ID}, "ab",
     "a=6,b=4", {2, 0}, {0.5, 0}, 0, 1, 0},
    {K_RED, "red_h_16f", TRNSCI_R_16F, {"abc", NULL, NULL}, {ID, ID, ID}, "b",
     "a=5,b=6,c=7", {1, 0}, {0.5, 0}, 0, 1, 0},
    {K_RED, "red_bf_16bf", TRNSCI_R_16BF, {"ab", NULL, NULL}, {ID, ID, ID}, "a",
     "a=8,b=9", {0.25, 0}, {0, 0}, 0, 1, 0},
    {K_PERM, "perm_bf_16bf", TRNSCI_R_16BF, {"ab", NULL, NULL}, {ID, ID, ID}, "ba",
     "a=5,b=3", {3, 0}, {0, 0}, 0, 1, 0},
    {K_TRI, "gap_half", TRNSCI_R_16F, {"ik", "kl", "lj"}, {ID, ID, ID}, "ij",
     "i=6,k=5,l=7,j=4", {1, 0}, {0.5, 0}, 0, 0, 1},
    {K_TRI, "gap64_inplace", TRNSCI_R_64F, {"ak", "bk", "ck"}, {ID, ID, ID}, "cab",
     "a=3,b=4,c=5,k=6", {-0.5, 0}, {1.5, 0}, 1, 0, 1},
};
// clang-format on
#define NTCASES (sizeof(tcases) / sizeof(tcases[0]))

static uint64_t rng;

static double uniform(void) { /* in [-1, 1) */
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-52 - 1.0;
}

static int64_t ext_of(const char *ext, char c) {
    for (const char *p = ext; *p; p++)
        if (*p == c && p[1] == '=' && (p == ext || p[-1] == ','))
            return strtoll(p + 2, NULL, 10);
    fail_msg("no extent for mode %c in %s", c, ext);
    return 0;
}

static size_t count_of(const char *m, const char *ext) {
    size_t n = 1;
    for (const char *p = m; *p; p++)
        n *= (size_t)ext_of(ext, *p);
    return n;
}

static int is_complex(trnsciDataType_t t) {
    return t == TRNSCI_C_32F || t == TRNSCI_C_64F;
}

static int is_narrow(trnsciDataType_t t) {
    return t == TRNSCI_R_16F || t == TRNSCI_R_16BF;
}

static size_t elem_size(trnsciDataType_t t) {
    return t == TRNSCI_C_64F                        ? 16
           : t == TRNSCI_R_64F || t == TRNSCI_C_32F ? 8
           : is_narrow(t)                           ? 2
                                                    : 4;
}

/* x rounded to the (real part's) type. */
static double to_type(trnsciDataType_t t, double x) {
    switch (t) {
    case TRNSCI_R_32F:
    case TRNSCI_C_32F: return (float)x;
    case TRNSCI_R_16F: return trnsciHalfToFloat(trnsciFloatToHalf((float)x));
    case TRNSCI_R_16BF: return trnsciBfloat16ToFloat(trnsciFloatToBfloat16((float)x));
    default: return x;
    }
}

static void store_elem(trnsciDataType_t t, void *p, size_t k, double complex v) {
    switch (t) {
    case TRNSCI_R_64F: ((double *)p)[k] = creal(v); break;
    case TRNSCI_R_32F: ((float *)p)[k] = (float)creal(v); break;
    case TRNSCI_C_64F: ((double complex *)p)[k] = v; break;
    case TRNSCI_C_32F:
        ((float *)p)[2 * k] = (float)creal(v);
        ((float *)p)[2 * k + 1] = (float)cimag(v);
        break;
    case TRNSCI_R_16F: ((uint16_t *)p)[k] = trnsciFloatToHalf((float)creal(v)).x; break;
    default: ((uint16_t *)p)[k] = trnsciFloatToBfloat16((float)creal(v)).x;
    }
}

static double complex load_elem(trnsciDataType_t t, const void *p, size_t k) {
    switch (t) {
    case TRNSCI_R_64F: return ((const double *)p)[k];
    case TRNSCI_R_32F: return ((const float *)p)[k];
    case TRNSCI_C_64F: return ((const double complex *)p)[k];
    case TRNSCI_C_32F: return CMPLX(((const float *)p)[2 * k], ((const float *)p)[2 * k + 1]);
    case TRNSCI_R_16F: return trnsciHalfToFloat((trnsciHalf){((const uint16_t *)p)[k]});
    default: return trnsciBfloat16ToFloat((trnsciBfloat16){((const uint16_t *)p)[k]});
    }
}

/* n values exact in the type; written to NAME<suffix> (complex128) when
 * dev is NULL, else uploaded (*dev), value k at element k * stride (the
 * others all bits set). */
static double complex *values(const tcase *cs, size_t n, const char *suffix, void **dev,
                              size_t stride) {
    double complex *v = malloc(n * sizeof(double complex));
    assert_non_null(v);
    for (size_t k = 0; k < n; k++) {
        const double re = to_type(cs->type, uniform());
        const double im = is_complex(cs->type) ? to_type(cs->type, uniform()) : 0.0;
        v[k] = CMPLX(re, im);
    }
    if (!dev) {
        char name[64];
        snprintf(name, sizeof(name), "%s%s", cs->name, suffix);
        su_write_file(tmp_dir, name, v, n * sizeof(double complex));
        return v;
    }
    const size_t es = elem_size(cs->type), bytes = n * stride * es;
    void *h = malloc(bytes);
    assert_non_null(h);
    memset(h, 0xff, bytes);
    for (size_t k = 0; k < n; k++)
        store_elem(cs->type, h, k * stride, v[k]);
    assert_int_equal(trnsciMalloc(dev, bytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(*dev, h, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    free(h);
    return v;
}

static int has_d(const tcase *cs) {
    return cs->kind != K_EW && cs->kind != K_PERM && (cs->beta[0] != 0.0 || cs->beta[1] != 0.0);
}

/* The operands of case i in a fixed order: inputs, then D. */
static void operands(const tcase *cs, int i, void **dev, double complex **val) {
    rng = 0x2545f4914f6cdd1dull + (uint64_t)i;
    static const char *const suffix[3] = {".0", ".1", ".2"};
    for (int r = 0; r < 3; r++)
        if (cs->m[r])
            val[r] = values(cs, count_of(cs->m[r], cs->ext), suffix[r], dev ? &dev[r] : NULL, 1);
    if (has_d(cs))
        val[3] = values(cs, count_of(cs->me, cs->ext), ".d", dev ? &dev[3] : NULL, cs->gap ? 2 : 1);
}

static int refs_ready;

static void make_refs(void) {
    if (refs_ready)
        return;
    char path[320];
    snprintf(path, sizeof(path), "%s/manifest.txt", tmp_dir);
    FILE *m = fopen(path, "w");
    assert_non_null(m);
    for (size_t i = 0; i < NTCASES; i++) {
        const tcase *cs = &tcases[i];
        double complex *val[4] = {NULL, NULL, NULL, NULL};
        operands(cs, (int)i, NULL, val);
        for (int r = 0; r < 4; r++)
            free(val[r]);
        if (cs->kind == K_EW) {
            fprintf(m, "ew %s %s %s %.17g %.17g %.17g %.17g %s %s\n", cs->name, cs->me, cs->ext,
                    cs->alpha[0], cs->alpha[1], cs->beta[0], cs->beta[1], cs->m[0], cs->m[1]);
            continue;
        }
        fprintf(m, "con %s %s %s %.17g %.17g %.17g %.17g ", cs->name, cs->me, cs->ext, cs->alpha[0],
                cs->alpha[1], has_d(cs) ? cs->beta[0] : 0.0, has_d(cs) ? cs->beta[1] : 0.0);
        for (int r = 0; r < 3 && cs->m[r]; r++)
            fprintf(m, "%s%s:%d", r ? "," : "", cs->m[r], cs->op[r]);
        fprintf(m, "\n");
    }
    fclose(m);
    su_run_ref(PYTHON3, TENSOR_TRINARY_REF_PY, "all", tmp_dir);
    refs_ready = 1;
}

/* A descriptor of modes m, packed, or at twice the packed strides (gap). */
static trntensorTensorDescriptor_t describe(trntensorHandle_t h, const tcase *cs, const char *m,
                                            int32_t *modes, int gap) {
    int64_t e[TRNTENSOR_MAX_MODES], st[TRNTENSOR_MAX_MODES], packed = 1;
    const int n = (int)strlen(m);
    for (int i = 0; i < n; i++) {
        modes[i] = m[i];
        e[i] = ext_of(cs->ext, m[i]);
        st[i] = 2 * packed;
        packed *= e[i];
    }
    trntensorTensorDescriptor_t d;
    assert_int_equal(
        trntensorCreateTensorDescriptor(h, &d, (uint32_t)n, e, gap ? st : NULL, cs->type, 0),
        TRNTENSOR_STATUS_SUCCESS);
    return d;
}

static trntensorComputeDescriptor_t compute_of(const tcase *cs) {
    if (cs->c16)
        return cs->type == TRNSCI_R_16BF ? TRNTENSOR_COMPUTE_DESC_16BF : TRNTENSOR_COMPUTE_DESC_16F;
    return cs->type == TRNSCI_R_64F || cs->type == TRNSCI_C_64F ? TRNTENSOR_COMPUTE_DESC_64F
                                                                : TRNTENSOR_COMPUTE_DESC_32F;
}

static double run_case(trntensorHandle_t h, const tcase *cs, int i) {
    void *dev[4] = {NULL, NULL, NULL, NULL};
    double complex *val[4] = {NULL, NULL, NULL, NULL};
    operands(cs, i, dev, val);
    int32_t mode[4][TRNTENSOR_MAX_MODES];
    trntensorTensorDescriptor_t desc[4] = {NULL, NULL, NULL, NULL};
    for (int r = 0; r < 3; r++)
        if (cs->m[r])
            desc[r] = describe(h, cs, cs->m[r], mode[r], 0);
    desc[3] = describe(h, cs, cs->me, mode[3], cs->gap);
    const trntensorComputeDescriptor_t cd = compute_of(cs);
    trntensorOperationDescriptor_t o = NULL;
    trntensorStatus_t st;
    switch (cs->kind) {
    case K_TRI:
        st = trntensorCreateContractionTrinary(h, &o, desc[0], mode[0], cs->op[0], desc[1], mode[1],
                                               cs->op[1], desc[2], mode[2], cs->op[2], desc[3],
                                               mode[3], ID, desc[3], mode[3], cd);
        break;
    case K_CON:
        st = trntensorCreateContraction(h, &o, desc[0], mode[0], cs->op[0], desc[1], mode[1],
                                        cs->op[1], desc[3], mode[3], ID, desc[3], mode[3], cd);
        break;
    case K_EW:
        st = trntensorCreateElementwiseBinary(h, &o, desc[0], mode[0], ID, desc[1], mode[1], ID,
                                              desc[3], mode[3], TRNTENSOR_OP_ADD, cd);
        break;
    case K_RED:
        st = trntensorCreateReduction(h, &o, desc[0], mode[0], ID, desc[3], mode[3], ID, desc[3],
                                      mode[3], TRNTENSOR_OP_ADD, cd);
        break;
    default: st = trntensorCreatePermutation(h, &o, desc[0], mode[0], ID, desc[3], mode[3], cd);
    }
    if (st != TRNTENSOR_STATUS_SUCCESS)
        fail_msg("%s: create: %d: %s", cs->name, (int)st, trnsciGetLastErrorMessage());
    trnsciDataType_t sty;
    assert_int_equal(trntensorOperationDescriptorGetAttribute(
                         h, o, TRNTENSOR_OPERATION_DESCRIPTOR_SCALAR_TYPE, &sty, sizeof(sty)),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(sty, is_narrow(cs->type) ? TRNSCI_R_32F : cs->type);
    trntensorPlan_t plan;
    assert_int_equal(trntensorCreatePlan(h, &plan, o, NULL, 0), TRNTENSOR_STATUS_SUCCESS);
    const size_t ne = count_of(cs->me, cs->ext), es = elem_size(cs->type);
    const size_t step = cs->gap ? 2 : 1; /* E's element j is at j * step */
    void *e = NULL;
    if (cs->in_place) {
        e = dev[3];
    } else {
        assert_int_equal(trnsciMalloc(&e, ne * step * es), trnsciSuccess);
        assert_int_equal(trnsciMemset(e, 0xff, ne * step * es), trnsciSuccess); /* NaNs */
    }
    double s64[2][2];
    float s32[2][2];
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < 2; j++) {
            const double v = k ? cs->beta[j] : cs->alpha[j];
            s64[k][j] = v;
            s32[k][j] = (float)v;
        }
    const int dbl = cs->type == TRNSCI_R_64F || cs->type == TRNSCI_C_64F;
    const void *al = dbl ? (const void *)s64[0] : (const void *)s32[0];
    const void *be = dbl ? (const void *)s64[1] : (const void *)s32[1];
    switch (cs->kind) {
    case K_TRI:
        st = trntensorContractTrinary(h, plan, al, dev[0], dev[1], dev[2], be, dev[3], e, NULL, 0,
                                      NULL);
        break;
    case K_CON:
        st = trntensorContract(h, plan, al, dev[0], dev[1], be, dev[3], e, NULL, 0, NULL);
        break;
    case K_EW:
        st = trntensorElementwiseBinaryExecute(h, plan, al, dev[0], be, dev[1], e, NULL);
        break;
    case K_RED: st = trntensorReduce(h, plan, al, dev[0], be, dev[3], e, NULL, 0, NULL); break;
    default: st = trntensorPermute(h, plan, al, dev[0], e, NULL);
    }
    if (st != TRNTENSOR_STATUS_SUCCESS)
        fail_msg("%s: execute: %d: %s", cs->name, (int)st, trnsciGetLastErrorMessage());
    void *he = malloc(ne * step * es);
    assert_non_null(he);
    assert_int_equal(trnsciMemcpy(he, e, ne * step * es, trnsciMemcpyDeviceToHost), trnsciSuccess);
    for (size_t j = 0; cs->gap && j < ne; j++) /* the gaps: never written */
        for (size_t b = 0; b < es; b++)
            if (((const unsigned char *)he)[(2 * j + 1) * es + b] != 0xff)
                fail_msg("%s: the gap after element %zu was written", cs->name, j);

    char name[64];
    size_t bytes = 0;
    snprintf(name, sizeof(name), "%s.ref", cs->name);
    double complex *ref = su_read_file(tmp_dir, name, &bytes);
    assert_int_equal(bytes, ne * sizeof(double complex));
    snprintf(name, sizeof(name), "%s.abs", cs->name);
    double *mag = su_read_file(tmp_dir, name, &bytes);
    assert_int_equal(bytes, ne * sizeof(double));
    snprintf(name, sizeof(name), "%s.k", cs->name);
    double *kp = su_read_file(tmp_dir, name, &bytes);
    assert_int_equal(bytes, sizeof(double));
    const double k = *kp;
    free(kp);
    /* the bounds of the file's comment */
    const double u = dbl ? 0x1p-53 : 0x1p-24;
    const double u16 = cs->type == TRNSCI_R_16BF ? 0x1p-8 : 0x1p-11;
    const double tiny = cs->type == TRNSCI_R_16BF ? 0x1p-134 : 0x1p-25;
    const double gk = (k + 2.0) * u / (1.0 - (k + 2.0) * u);
    double worst = 0.0;
    for (size_t j = 0; j < ne; j++) {
        const double complex got = load_elem(cs->type, he, j * step);
        const double r = cabs(ref[j]), s = mag[j];
        double bound;
        if (cs->kind == K_TRI || cs->kind == K_CON) {
            if (is_complex(cs->type)) {
                bound = 2.0 * (k + 6.0) * u * s;
            } else if (is_narrow(cs->type)) {
                bound = u16 * (r + gk * s) + gk * s + tiny;
            } else if (cs->c16) {
                const double ur = 0x1p-11;
                bound = (2.0 * ur + ur * ur) * s + gk * (1.0 + ur) * (1.0 + ur) * s;
            } else {
                bound = gk * s;
            }
        } else if (cs->kind == K_RED) {
            bound = (u16 + 2.0 * u) * r + 2.0 * (k + 4.0) * 0x1p-53 * s + tiny;
        } else {
            bound = u16 * r + 4.0 * u * (r + s) + tiny;
        }
        const double err = cabs(got - ref[j]);
        if (!(err <= bound))
            fail_msg("%s: element %zu: (%.9g, %.9g), numpy (%.9g, %.9g), error %.3g > bound %.3g",
                     cs->name, j, creal(got), cimag(got), creal(ref[j]), cimag(ref[j]), err, bound);
        if (bound > 0.0 && err / bound > worst)
            worst = err / bound;
    }
    free(ref);
    free(mag);
    free(he);
    if (!cs->in_place)
        trnsciFree(e);
    trntensorDestroyPlan(plan);
    trntensorDestroyOperationDescriptor(o);
    for (int r = 0; r < 4; r++) {
        if (desc[r])
            trntensorDestroyTensorDescriptor(desc[r]);
        if (dev[r])
            trnsciFree(dev[r]);
        free(val[r]);
    }
    return worst;
}

static void test_trinary(void **state) {
    make_refs();
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trntensorHandle_t h = NULL;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    for (size_t i = 0; i < NTCASES; i++)
        printf("%s: worst error / bound %.3g\n", tcases[i].name, run_case(h, &tcases[i], (int)i));
    trntensorDestroy(h);
}

/* A descriptor of n modes of extent e each (packed). */
static trntensorTensorDescriptor_t td(trntensorHandle_t h, uint32_t n, int64_t e,
                                      trnsciDataType_t t) {
    int64_t ext[4] = {e, e, e, e};
    trntensorTensorDescriptor_t d;
    assert_int_equal(trntensorCreateTensorDescriptor(h, &d, n, ext, NULL, t, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    return d;
}

static void test_trinary_errors(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trntensorHandle_t h = NULL;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    const int32_t ik[2] = {'i', 'k'}, kl[2] = {'k', 'l'}, lj[2] = {'l', 'j'}, ij[2] = {'i', 'j'};
    const int32_t iq[2] = {'i', 'q'}, ix[2] = {'i', 'x'};
    trntensorTensorDescriptor_t f4 = td(h, 2, 4, TRNSCI_R_32F), f5 = td(h, 2, 5, TRNSCI_R_32F);
    trntensorTensorDescriptor_t d4 = td(h, 2, 4, TRNSCI_R_64F), c4 = td(h, 2, 4, TRNSCI_C_32F);
    trntensorTensorDescriptor_t h4 = td(h, 2, 4, TRNSCI_R_16F);
    const trntensorComputeDescriptor_t c32 = TRNTENSOR_COMPUTE_DESC_32F;
    trntensorOperationDescriptor_t o = NULL;

    /* descD != descE */
    assert_int_equal(trntensorCreateContractionTrinary(h, &o, f4, ik, ID, f4, kl, ID, f4, lj, ID,
                                                       f5, ij, ID, f4, ij, c32),
                     TRNTENSOR_STATUS_INVALID_VALUE);
    su_expect_message("descD/modeD must equal descE/modeE");
    /* a mode of E in no input */
    assert_int_equal(trntensorCreateContractionTrinary(h, &o, f4, ik, ID, f4, kl, ID, f4, lj, ID,
                                                       f4, iq, ID, f4, iq, c32),
                     TRNTENSOR_STATUS_INVALID_VALUE);
    su_expect_message("in none of A, B, C");
    /* extents that differ (k: 4 in A, 5 in B) */
    assert_int_equal(trntensorCreateContractionTrinary(h, &o, f4, ik, ID, f5, kl, ID, f4, lj, ID,
                                                       f4, ij, ID, f4, ij, c32),
                     TRNTENSOR_STATUS_INVALID_VALUE);
    su_expect_message("has extent");
    /* x only in A */
    assert_int_equal(trntensorCreateContractionTrinary(h, &o, f4, ix, ID, f4, kl, ID, f4, lj, ID,
                                                       f4, ij, ID, f4, ij, c32),
                     TRNTENSOR_STATUS_NOT_SUPPORTED);
    su_expect_message("in no other operand");
    assert_int_equal(trntensorCreateContractionTrinary(h, &o, f4, ik, TRNTENSOR_OP_SQRT, f4, kl, ID,
                                                       f4, lj, ID, f4, ij, ID, f4, ij, c32),
                     TRNTENSOR_STATUS_NOT_SUPPORTED);
    su_expect_message("opA must be IDENTITY or CONJ");
    assert_int_equal(trntensorCreateContractionTrinary(h, &o, c4, ik, ID, c4, kl, ID, c4, lj, ID,
                                                       c4, ij, CJ, c4, ij, c32),
                     TRNTENSOR_STATUS_NOT_SUPPORTED);
    su_expect_message("opD CONJ on complex data");
    assert_int_equal(trntensorCreateContractionTrinary(h, &o, d4, ik, ID, f4, kl, ID, f4, lj, ID,
                                                       f4, ij, ID, f4, ij, c32),
                     TRNTENSOR_STATUS_NOT_SUPPORTED);
    su_expect_message("share one data type");

    /* A valid one: the plan calls accept it. */
    assert_int_equal(trntensorCreateContractionTrinary(h, &o, f4, ik, ID, f4, kl, ID, f4, lj, ID,
                                                       f4, ij, ID, f4, ij, c32),
                     TRNTENSOR_STATUS_SUCCESS);
    trnsciDataType_t sty;
    assert_int_equal(trntensorOperationDescriptorGetAttribute(
                         h, o, TRNTENSOR_OPERATION_DESCRIPTOR_SCALAR_TYPE, &sty, sizeof(sty)),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(sty, TRNSCI_R_32F);
    trntensorPlanPreference_t pref;
    assert_int_equal(
        trntensorCreatePlanPreference(h, &pref, TRNTENSOR_ALGO_DEFAULT, TRNTENSOR_JIT_MODE_NONE),
        TRNTENSOR_STATUS_SUCCESS);
    uint64_t ws = 99;
    assert_int_equal(trntensorEstimateWorkspaceSize(h, o, pref, TRNTENSOR_WORKSPACE_DEFAULT, &ws),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(ws, 0);
    trntensorPlan_t plan;
    assert_int_equal(trntensorCreatePlan(h, &plan, o, pref, ws), TRNTENSOR_STATUS_SUCCESS);
    ws = 99;
    assert_int_equal(
        trntensorPlanGetAttribute(h, plan, TRNTENSOR_PLAN_REQUIRED_WORKSPACE, &ws, sizeof(ws)),
        TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(ws, 0);
    void *x, *y, *small;
    assert_int_equal(trnsciMalloc(&x, 64), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&small, 32), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&y, 64), trnsciSuccess);
    const float one = 1.0f, zero = 0.0f;
    assert_int_equal(
        trntensorContractTrinary(h, plan, NULL, x, x, x, &zero, x, small, NULL, 0, NULL),
        TRNTENSOR_STATUS_INVALID_VALUE);
    /* E (16 floats) past its 32-byte allocation */
    assert_int_equal(
        trntensorContractTrinary(h, plan, &one, x, x, x, &zero, NULL, small, NULL, 0, NULL),
        TRNTENSOR_STATUS_INVALID_VALUE);
    float host[16];
    assert_int_equal(
        trntensorContractTrinary(h, plan, &one, x, x, x, &zero, NULL, host, NULL, 0, NULL),
        TRNTENSOR_STATUS_INVALID_VALUE);
    /* a trinary plan to trntensorContract, and a binary plan here */
    assert_int_equal(trntensorContract(h, plan, &one, x, x, &zero, x, x, NULL, 0, NULL),
                     TRNTENSOR_STATUS_INVALID_VALUE);
    su_expect_message("another operation");
    trntensorOperationDescriptor_t ob = NULL;
    const int32_t kj[2] = {'k', 'j'};
    assert_int_equal(
        trntensorCreateContraction(h, &ob, f4, ik, ID, f4, kj, ID, f4, ij, ID, f4, ij, c32),
        TRNTENSOR_STATUS_SUCCESS);
    trntensorPlan_t pb;
    assert_int_equal(trntensorCreatePlan(h, &pb, ob, NULL, 0), TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorContractTrinary(h, pb, &one, x, x, x, &zero, x, x, NULL, 0, NULL),
                     TRNTENSOR_STATUS_INVALID_VALUE);
    su_expect_message("another operation");
    /* the daemon still serves: a valid launch completes */
    assert_int_equal(trnsciMemset(x, 0, 64), trnsciSuccess);
    assert_int_equal(
        trntensorContractTrinary(h, plan, &one, x, x, x, &zero, NULL, y, NULL, 0, NULL),
        TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    trntensorDestroyPlan(pb);
    trntensorDestroyOperationDescriptor(ob);
    trntensorDestroyPlan(plan);
    trntensorDestroyPlanPreference(pref);
    trntensorDestroyOperationDescriptor(o);

    /* 16F compute on an R_16F contraction: cuTENSOR's tables give it 32F */
    assert_int_equal(trntensorCreateContractionTrinary(h, &o, h4, ik, ID, h4, kl, ID, h4, lj, ID,
                                                       h4, ij, ID, h4, ij,
                                                       TRNTENSOR_COMPUTE_DESC_16F),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreatePlan(h, &plan, o, NULL, 0), TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(
        trntensorContractTrinary(h, plan, &one, x, x, x, &zero, NULL, x, NULL, 0, NULL),
        TRNTENSOR_STATUS_NOT_SUPPORTED);
    su_expect_message("R_16F data computes in 32F");
    trntensorDestroyPlan(plan);
    trntensorDestroyOperationDescriptor(o);
    trnsciFree(x);
    trnsciFree(small);
    trnsciFree(y);
    trntensorDestroyTensorDescriptor(f4);
    trntensorDestroyTensorDescriptor(f5);
    trntensorDestroyTensorDescriptor(d4);
    trntensorDestroyTensorDescriptor(c4);
    trntensorDestroyTensorDescriptor(h4);
    trntensorDestroy(h);
}

int main(void) {
    if (su_main_start(tmp_dir, sizeof(tmp_dir), "/tmp/trnsci-tensor-trinary-XXXXXX", &two_cores,
                      NULL, &local_t, &grpc_t) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        SU_ON(test_trinary, local),
        SU_ON(test_trinary, grpc),
        SU_ON(test_trinary_errors, local),
        SU_ON(test_trinary_errors, grpc),
    };
    int failed = cmocka_run_group_tests_name("tensor_trinary", tests, NULL, NULL);
    return su_main_end(failed, tmp_dir) ? 1 : 0;
}
