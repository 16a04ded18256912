/*
 * test_tensor_complex.c — trntensor on complex data (TRNSCI_C_32F with
 * TRNTENSOR_COMPUTE_DESC_32F, TRNSCI_C_64F with _64F) through a real 2-core
 * daemon, over the local transport and gRPC over TCP, against numpy's
 * einsum and element-wise arithmetic in complex128 (tensor_complex_ref.py
 * under Debian's python3):
 *
 *  - contractions: a matrix product with A conjugated and C apart (beta
 *    complex), a batched contraction with B conjugated and beta = 0, one
 *    whose A and B are used transposed in place and both conjugated
 *    (conjugate-transposed GEMM operands), and one large enough to be split
 *    over both cores with A conjugated and used untransposed (packed and
 *    conjugated by the kernel);
 *  - element-wise binary (CONJ, ADD), trinary (MUL then ADD, broadcast),
 *    permutations with CONJ and a complex alpha, padded with a complex
 *    value; reductions (ADD with CONJ and beta != 0, MUL).
 *
 * Tolerances, with u the unit roundoff of the data type (2^-24, 2^-53), u64
 * = 2^-53, and S the same formula evaluated on magnitudes (numpy): a
 * contraction summing K products per element: |err| <= 2 (K + 4) u S (a
 * complex product is within sqrt(2) gamma_2 of the exact one, each of the K
 * - 1 additions adds gamma_1 relative to the partial sums' magnitudes, and
 * alpha and beta add two more products and a sum; 2 (K + 4) u bounds
 * sqrt(2) gamma_{K+2} + gamma_2 for K u < 0.01); element-wise ops and
 * padded permutations (computed in double complex, rounded once to the
 * type): 4 u (|ref| + S); reductions of n elements (sums and products in
 * double complex): 4 u (|ref| + S) + 2 (n + 4) u64 S. Padding positions
 * (the value, exact in the type) are held to the element-wise bound.
 *
 * The plan-cache file calls round-trip a conjugated complex contraction's
 * key (test_plan_cache_file).
 *
 * Bad input: complex operators other than IDENTITY and CONJ, MAX as a
 * complex binary operator, a converting permutation to complex, opC CONJ in
 * a complex contraction, and a precision-mode compute descriptor on complex
 * data: TRNTENSOR_STATUS_NOT_SUPPORTED with a message naming the rule.
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
#include "trnsci/trntensor.h"

static th_daemon two_cores;
static char tmp_dir[256];
static su_transport local_t = {"local", NULL}, grpc_t = {"grpc", NULL};

enum { K_CONTRACT, K_EW, K_REDUCE, K_PAD };

typedef struct xcase {
    int kind;
    const char *name;
    int dbl;
    const char *ma, *mb, *mc, *md;  /* "-": absent */
    const char *ext;                /* "a=3,b=4" */
    int opa, opb, opc, opab, opabc; /* opabc: opReduce of a reduction */
    double alpha[2], beta[2], gamma[2];
    const char *left, *right; /* padding (K_PAD), one count per mode of D */
    double pad[2];
} xcase;

#define ID TRNTENSOR_OP_IDENTITY
#define CJ TRNTENSOR_OP_CONJ
#define ADD TRNTENSOR_OP_ADD
#define MUL TRNTENSOR_OP_MUL

// clang-format off
static const xcase xcases[] = {
    {K_CONTRACT, "mm_conja", 0, "ik", "kj", "-", "ij", "i=13,k=17,j=11", CJ, ID, ID, 0, 0,
     {0.5, -1.0}, {0.25, 0.5}, {0, 0}, NULL, NULL, {0, 0}},
    {K_CONTRACT, "batch_conjb", 1, "abk", "kcb", "-", "acb", "a=6,b=3,k=9,c=5", ID, CJ, ID, 0, 0,
     {1.0, 0.5}, {0, 0}, {0, 0}, NULL, NULL, {0, 0}},
    {K_CONTRACT, "trans_conj", 1, "ki", "jk", "-", "ij", "i=7,k=12,j=8", CJ, CJ, ID, 0, 0,
     {1.0, 0.0}, {-1.0, 2.0}, {0, 0}, NULL, NULL, {0, 0}},
    {K_CONTRACT, "big_conja", 0, "ik", "kj", "-", "ij", "i=150,k=64,j=200", CJ, ID, ID, 0, 0,
     {0.75, 0.25}, {0, 0}, {0, 0}, NULL, NULL, {0, 0}},
    {K_EW, "binary", 0, "ba", "-", "ab", "ab", "a=5,b=7", CJ, ID, ID, 0, ADD,
     {0.5, 0.25}, {0, 0}, {-1.0, 1.0}, NULL, NULL, {0, 0}},
    {K_EW, "trinary", 1, "abc", "ca", "abc", "abc", "a=4,b=3,c=6", ID, CJ, ID, MUL, ADD,
     {1.0, -0.5}, {0.5, 2.0}, {-0.25, 0.0}, NULL, NULL, {0, 0}},
    {K_EW, "permute", 1, "abc", "-", "-", "cab", "a=4,b=5,c=3", CJ, ID, ID, 0, 0,
     {0.0, 1.5}, {0, 0}, {0, 0}, NULL, NULL, {0, 0}},
    {K_EW, "permute32", 0, "ab", "-", "-", "ba", "a=9,b=8", ID, ID, ID, 0, 0,
     {2.0, -1.0}, {0, 0}, {0, 0}, NULL, NULL, {0, 0}},
    {K_REDUCE, "sum_conj", 0, "bac", "-", "a", "a", "a=6,b=5,c=4", CJ, ID, ID, 0, ADD,
     {1.0, -1.0}, {0.5, 0.0}, {0, 0}, NULL, NULL, {0, 0}},
    {K_REDUCE, "prod", 1, "ab", "-", "-", "b", "a=4,b=7", ID, ID, ID, 0, MUL,
     {1.0, 0.0}, {0, 0}, {0, 0}, NULL, NULL, {0, 0}},
    {K_PAD, "pad", 0, "ab", "-", "-", "ba", "a=4,b=3", CJ, ID, ID, 0, 0,
     {1.0, 0.5}, {0, 0}, {0, 0}, "1,0", "2,1", {1.5, -2.0}},
};
// clang-format on
#define NXCASES (sizeof(xcases) / sizeof(xcases[0]))

static uint64_t rng = 0x2545f4914f6cdd1dull;

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

static int absent(const char *m) {
    return strcmp(m, "-") == 0;
}

static size_t count_of(const char *m, const char *ext) {
    size_t n = 1;
    for (const char *p = m; *p && !absent(m); p++)
        n *= (size_t)ext_of(ext, *p);
    return n;
}

/* An operand's values (exact in the data type), its file and its device
 * copy in the data type. */
typedef struct xop {
    size_t n;
    double complex *v;
    void *dev;
} xop;

static void xop_make(xop *o, const xcase *cs, const char *m, const char *suffix, int upload) {
    o->n = count_of(m, cs->ext);
    o->v = malloc(o->n * sizeof(double complex));
    assert_non_null(o->v);
    for (size_t k = 0; k < o->n; k++) {
        double re = uniform(), im = uniform();
        if (!cs->dbl) {
            re = (float)re;
            im = (float)im;
        }
        o->v[k] = CMPLX(re, im);
    }
    char name[64];
    snprintf(name, sizeof(name), "%s%s", cs->name, suffix);
    if (!upload) {
        su_write_file(tmp_dir, name, o->v, o->n * sizeof(double complex));
        o->dev = NULL;
        return;
    }
    const size_t es = cs->dbl ? 16 : 8;
    void *h = malloc(o->n * es);
    assert_non_null(h);
    for (size_t k = 0; k < o->n; k++) {
        if (cs->dbl) {
            ((double complex *)h)[k] = o->v[k];
        } else {
            ((float *)h)[2 * k] = (float)creal(o->v[k]);
            ((float *)h)[2 * k + 1] = (float)cimag(o->v[k]);
        }
    }
    assert_int_equal(trnsciMalloc(&o->dev, o->n * es), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(o->dev, h, o->n * es, trnsciMemcpyHostToDevice), trnsciSuccess);
    free(h);
}

static void xop_free(xop *o) {
    free(o->v);
    if (o->dev)
        trnsciFree(o->dev);
}

/* The operands of case cs in a fixed order (the same values in make_refs
 * and run_case). */
static const char *const SUFFIX[3] = {".a", ".b", ".c"};
static const char *case_modes(const xcase *cs, int r) {
    if (cs->kind == K_CONTRACT)
        return r == 0 ? cs->ma : r == 1 ? cs->mb : cs->beta[0] || cs->beta[1] ? cs->md : "-";
    if (cs->kind == K_REDUCE)
        return r == 0 ? cs->ma : r == 2 && (cs->beta[0] || cs->beta[1]) ? cs->md : "-";
    return r == 0 ? cs->ma : r == 1 ? cs->mb : cs->mc;
}

static void sc(char *buf, size_t len, const double *s) {
    snprintf(buf, len, "%.17g %.17g", s[0], s[1]);
}

static int refs_ready;

static void make_refs(void) {
    if (refs_ready)
        return;
    char path[320];
    snprintf(path, sizeof(path), "%s/manifest.txt", tmp_dir);
    FILE *m = fopen(path, "w");
    assert_non_null(m);
    for (size_t i = 0; i < NXCASES; i++) {
        const xcase *cs = &xcases[i];
        rng = 0x2545f4914f6cdd1dull + i;
        for (int r = 0; r < 3; r++) {
            if (absent(case_modes(cs, r)))
                continue;
            xop o;
            xop_make(&o, cs, case_modes(cs, r), SUFFIX[r], 0);
            xop_free(&o);
        }
        char al[64], be[64], ga[64], pv[64];
        sc(al, sizeof(al), cs->alpha);
        sc(be, sizeof(be), cs->beta);
        sc(ga, sizeof(ga), cs->gamma);
        sc(pv, sizeof(pv), cs->pad);
        switch (cs->kind) {
        case K_CONTRACT:
            fprintf(m, "contract %s %s %s %s %s %d %d %s %s\n", cs->name, cs->ma, cs->mb, cs->md,
                    cs->ext, cs->opa, cs->opb, al, be);
            break;
        case K_EW:
            fprintf(m, "ew %s %s %s %s %s %s %d %d %d %d %d %s %s %s\n", cs->name, cs->ma, cs->mb,
                    cs->mc, cs->md, cs->ext, cs->opa, cs->opb, cs->opc, cs->opab, cs->opabc, al, be,
                    ga);
            break;
        case K_REDUCE:
            fprintf(m, "reduce %s %s %s %s %d %d %s %s\n", cs->name, cs->ma, cs->md, cs->ext,
                    cs->opa, cs->opabc, al, be);
            break;
        default:
            fprintf(m, "pad %s %s %s %s %d %s %s %s %s\n", cs->name, cs->ma, cs->md, cs->ext,
                    cs->opa, al, pv, cs->left, cs->right);
        }
    }
    fclose(m);
    su_run_ref(PYTHON3, TENSOR_COMPLEX_REF_PY, "all", tmp_dir);
    refs_ready = 1;
}

/* A packed descriptor of modes m (padded by the counts in pad, or NULL). */
static trntensorTensorDescriptor_t describe(trntensorHandle_t h, const xcase *cs, const char *m,
                                            int32_t *modes) {
    int64_t e[TRNTENSOR_MAX_MODES];
    const int n = absent(m) ? 0 : (int)strlen(m);
    for (int i = 0; i < n; i++) {
        modes[i] = m[i];
        e[i] = ext_of(cs->ext, m[i]);
    }
    trntensorTensorDescriptor_t d;
    assert_int_equal(trntensorCreateTensorDescriptor(h, &d, (uint32_t)n, e, NULL,
                                                     cs->dbl ? TRNSCI_C_64F : TRNSCI_C_32F, 16),
                     TRNTENSOR_STATUS_SUCCESS);
    return d;
}

static void counts(const char *s, int *out, int n) {
    for (int i = 0; i < n; i++) {
        out[i] = (int)strtol(s, (char **)&s, 10);
        if (*s == ',')
            s++;
    }
}

static double run_case(trntensorHandle_t h, const xcase *cs, int i) {
    rng = 0x2545f4914f6cdd1dull + (uint64_t)i;
    xop op[3] = {{0}};
    for (int r = 0; r < 3; r++)
        if (!absent(case_modes(cs, r)))
            xop_make(&op[r], cs, case_modes(cs, r), SUFFIX[r], 1);
    int32_t mode[4][TRNTENSOR_MAX_MODES];
    trntensorTensorDescriptor_t desc[4] = {NULL, NULL, NULL, NULL};
    for (int r = 0; r < 3; r++)
        if (!absent(case_modes(cs, r)) || (cs->kind == K_CONTRACT && r == 2))
            desc[r] = describe(h, cs, r == 2 && cs->kind == K_CONTRACT ? cs->md : case_modes(cs, r),
                               mode[r]);
    desc[3] = describe(h, cs, cs->md, mode[3]);
    const trntensorComputeDescriptor_t cd =
        cs->dbl ? TRNTENSOR_COMPUTE_DESC_64F : TRNTENSOR_COMPUTE_DESC_32F;
    trntensorOperationDescriptor_t o = NULL;
    int nmd = (int)strlen(cs->md), left[TRNTENSOR_MAX_MODES] = {0},
        right[TRNTENSOR_MAX_MODES] = {0};
    size_t nd = count_of(cs->md, cs->ext);
    switch (cs->kind) {
    case K_CONTRACT:
        assert_int_equal(trntensorCreateContraction(h, &o, desc[0], mode[0], cs->opa, desc[1],
                                                    mode[1], cs->opb, desc[2], mode[2], ID, desc[3],
                                                    mode[3], cd),
                         TRNTENSOR_STATUS_SUCCESS);
        break;
    case K_REDUCE:
        assert_int_equal(trntensorCreateReduction(h, &o, desc[0], mode[0], cs->opa,
                                                  desc[2] ? desc[2] : desc[3], mode[3], ID, desc[3],
                                                  mode[3], cs->opabc, cd),
                         TRNTENSOR_STATUS_SUCCESS);
        break;
    case K_PAD:
    case K_EW:
        if (!desc[1] && !desc[2]) {
            assert_int_equal(
                trntensorCreatePermutation(h, &o, desc[0], mode[0], cs->opa, desc[3], mode[3], cd),
                TRNTENSOR_STATUS_SUCCESS);
        } else if (!desc[1]) {
            assert_int_equal(trntensorCreateElementwiseBinary(h, &o, desc[0], mode[0], cs->opa,
                                                              desc[2], mode[2], cs->opc, desc[3],
                                                              mode[3], cs->opabc, cd),
                             TRNTENSOR_STATUS_SUCCESS);
        } else {
            assert_int_equal(trntensorCreateElementwiseTrinary(h, &o, desc[0], mode[0], cs->opa,
                                                               desc[1], mode[1], cs->opb, desc[2],
                                                               mode[2], cs->opc, desc[3], mode[3],
                                                               cs->opab, cs->opabc, cd),
                             TRNTENSOR_STATUS_SUCCESS);
        }
        break;
    }
    if (cs->kind == K_PAD) {
        counts(cs->left, left, nmd);
        counts(cs->right, right, nmd);
        assert_int_equal(
            trntensorOperationDescriptorSetAttribute(
                h, o, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT, left, sizeof(int) * (size_t)nmd),
            TRNTENSOR_STATUS_SUCCESS);
        assert_int_equal(trntensorOperationDescriptorSetAttribute(
                             h, o, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_RIGHT, right,
                             sizeof(int) * (size_t)nmd),
                         TRNTENSOR_STATUS_SUCCESS);
        const float pv[2] = {(float)cs->pad[0], (float)cs->pad[1]};
        assert_int_equal(trntensorOperationDescriptorSetAttribute(
                             h, o, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE, pv, sizeof(pv)),
                         TRNTENSOR_STATUS_SUCCESS);
        nd = 1;
        for (int k = 0; k < nmd; k++)
            nd *= (size_t)(ext_of(cs->ext, cs->md[k]) + left[k] + right[k]);
    }
    trnsciDataType_t st;
    assert_int_equal(trntensorOperationDescriptorGetAttribute(
                         h, o, TRNTENSOR_OPERATION_DESCRIPTOR_SCALAR_TYPE, &st, sizeof(st)),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(st, cs->dbl ? TRNSCI_C_64F : TRNSCI_C_32F);
    trntensorPlan_t plan;
    assert_int_equal(trntensorCreatePlan(h, &plan, o, NULL, 0), TRNTENSOR_STATUS_SUCCESS);
    const size_t es = cs->dbl ? 16 : 8;
    void *dd;
    assert_int_equal(trnsciMalloc(&dd, nd * es), trnsciSuccess);
    assert_int_equal(trnsciMemset(dd, 0xff, nd * es), trnsciSuccess); /* NaNs */
    /* scalars of the data type */
    double s64[3][2];
    float s32[3][2];
    const double *src[3] = {cs->alpha, cs->beta, cs->gamma};
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 2; j++) {
            s64[k][j] = src[k][j];
            s32[k][j] = (float)src[k][j];
        }
    const void *al = cs->dbl ? (const void *)s64[0] : (const void *)s32[0];
    const void *be = cs->dbl ? (const void *)s64[1] : (const void *)s32[1];
    const void *ga = cs->dbl ? (const void *)s64[2] : (const void *)s32[2];
    trntensorStatus_t rs;
    switch (cs->kind) {
    case K_CONTRACT:
        rs = trntensorContract(h, plan, al, op[0].dev, op[1].dev, be, op[2].dev, dd, NULL, 0, NULL);
        break;
    case K_REDUCE:
        rs = trntensorReduce(h, plan, al, op[0].dev, be, op[2].dev, dd, NULL, 0, NULL);
        break;
    default:
        if (!desc[1] && !desc[2])
            rs = trntensorPermute(h, plan, al, op[0].dev, dd, NULL);
        else if (!desc[1])
            rs = trntensorElementwiseBinaryExecute(h, plan, al, op[0].dev, ga, op[2].dev, dd, NULL);
        else
            rs = trntensorElementwiseTrinaryExecute(h, plan, al, op[0].dev, be, op[1].dev, ga,
                                                    op[2].dev, dd, NULL);
    }
    if (rs != TRNTENSOR_STATUS_SUCCESS)
        fail_msg("%s: %d: %s", cs->name, (int)rs, trnsciGetLastErrorMessage());
    void *hd = malloc(nd * es);
    assert_non_null(hd);
    assert_int_equal(trnsciMemcpy(hd, dd, nd * es, trnsciMemcpyDeviceToHost), trnsciSuccess);

    char name[64];
    size_t bytes = 0;
    snprintf(name, sizeof(name), "%s.ref", cs->name);
    double complex *ref = su_read_file(tmp_dir, name, &bytes);
    assert_int_equal(bytes, nd * sizeof(double complex));
    snprintf(name, sizeof(name), "%s.abs", cs->name);
    double *mag = su_read_file(tmp_dir, name, &bytes);
    assert_int_equal(bytes, nd * sizeof(double));
    /* the bound's terms (see the file's comment) */
    const double u = cs->dbl ? 0x1p-53 : 0x1p-24;
    double nsum = 1.0;
    for (const char *p = cs->ma; *p; p++)
        if (!strchr(cs->md, *p))
            nsum *= (double)ext_of(cs->ext, *p);
    double worst = 0.0;
    for (size_t k = 0; k < nd; k++) {
        const double complex got = cs->dbl ? ((double complex *)hd)[k]
                                           : CMPLX(((float *)hd)[2 * k], ((float *)hd)[2 * k + 1]);
        double bound;
        if (cs->kind == K_CONTRACT)
            bound = 2.0 * (nsum + 4.0) * u * mag[k];
        else if (cs->kind == K_REDUCE)
            bound = 4.0 * u * (cabs(ref[k]) + mag[k]) + 2.0 * (nsum + 4.0) * 0x1p-53 * mag[k];
        else
            bound = 4.0 * u * (cabs(ref[k]) + mag[k]);
        const double err = cabs(got - ref[k]);
        if (!(err <= bound))
            fail_msg("%s: element %zu: (%.9g, %.9g), numpy (%.9g, %.9g), error %.3g > bound %.3g",
                     cs->name, k, creal(got), cimag(got), creal(ref[k]), cimag(ref[k]), err, bound);
        if (bound > 0.0 && err / bound > worst)
            worst = err / bound;
    }
    free(ref);
    free(mag);
    free(hd);
    trnsciFree(dd);
    trntensorDestroyPlan(plan);
    trntensorDestroyOperationDescriptor(o);
    for (int r = 0; r < 4; r++)
        if (desc[r])
            trntensorDestroyTensorDescriptor(desc[r]);
    for (int r = 0; r < 3; r++)
        if (op[r].v)
            xop_free(&op[r]);
    return worst;
}

static void test_complex(void **state) {
    make_refs();
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trntensorHandle_t h = NULL;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    for (size_t i = 0; i < NXCASES; i++) {
        const double w = run_case(h, &xcases[i], (int)i);
        printf("%s: worst error / bound %.3g\n", xcases[i].name, w);
    }
    trntensorDestroy(h);
}

static void refused(trntensorStatus_t got, const char *needle) {
    if (got != TRNTENSOR_STATUS_NOT_SUPPORTED)
        fail_msg("status %d, expected NOT_SUPPORTED: %s", (int)got, trnsciGetLastErrorMessage());
    su_expect_message(needle);
}

static void test_complex_errors(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trntensorHandle_t h = NULL;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    const int64_t e34[2] = {3, 4}, e44[2] = {4, 4};
    const int32_t ab[2] = {'a', 'b'}, ba[2] = {'b', 'a'}, bc[2] = {'b', 'c'}, ac[2] = {'a', 'c'};
    trntensorTensorDescriptor_t c34, c44, r34;
    assert_int_equal(trntensorCreateTensorDescriptor(h, &c34, 2, e34, NULL, TRNSCI_C_32F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreateTensorDescriptor(h, &c44, 2, e44, NULL, TRNSCI_C_32F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreateTensorDescriptor(h, &r34, 2, e34, NULL, TRNSCI_R_32F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    trntensorOperationDescriptor_t o = NULL;
    trntensorPlan_t plan = NULL;
    float *a = NULL, *d = NULL;
    assert_int_equal(trnsciMalloc((void **)&a, 12 * 8), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&d, 12 * 8), trnsciSuccess);
    const float one[2] = {1.0f, 0.0f};
    /* SQRT on complex data: refused by the daemon when executed */
    assert_int_equal(trntensorCreatePermutation(h, &o, c34, ab, TRNTENSOR_OP_SQRT, c34, ab,
                                                TRNTENSOR_COMPUTE_DESC_32F),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreatePlan(h, &plan, o, NULL, 0), TRNTENSOR_STATUS_SUCCESS);
    refused(trntensorPermute(h, plan, one, a, d, NULL), "IDENTITY, CONJ");
    trntensorDestroyPlan(plan);
    trntensorDestroyOperationDescriptor(o);
    /* MAX as a complex binary operator */
    assert_int_equal(trntensorCreateElementwiseBinary(h, &o, c34, ab, ID, c34, ab, ID, c34, ab,
                                                      TRNTENSOR_OP_MAX, TRNTENSOR_COMPUTE_DESC_32F),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreatePlan(h, &plan, o, NULL, 0), TRNTENSOR_STATUS_SUCCESS);
    refused(trntensorElementwiseBinaryExecute(h, plan, one, a, one, a, d, NULL), "ADD, MUL");
    trntensorDestroyPlan(plan);
    trntensorDestroyOperationDescriptor(o);
    /* converting to or from complex */
    refused(trntensorCreatePermutation(h, &o, r34, ab, ID, c34, ba, TRNTENSOR_COMPUTE_DESC_32F),
            "between TRNSCI_R_32F and TRNSCI_R_64F only");
    /* opC CONJ in a contraction; a precision mode on complex data */
    refused(trntensorCreateContraction(h, &o, c34, ab, ID, c44, bc, ID, c34, ac, CJ, c34, ac,
                                       TRNTENSOR_COMPUTE_DESC_32F),
            "opC CONJ");
    assert_int_equal(trntensorCreateContraction(h, &o, c34, ab, ID, c44, bc, ID, c34, ac, ID, c34,
                                                ac, TRNTENSOR_COMPUTE_DESC_32F_FAST_16BF),
                     TRNTENSOR_STATUS_SUCCESS);
    refused(trntensorCreatePlan(h, &plan, o, NULL, 0), "precision modes are for real data");
    trntensorDestroyOperationDescriptor(o);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    trnsciFree(a);
    trnsciFree(d);
    trntensorDestroyTensorDescriptor(c34);
    trntensorDestroyTensorDescriptor(c44);
    trntensorDestroyTensorDescriptor(r34);
    trntensorDestroy(h);
}

/* The plan-cache file: a handle writes the keys of the contractions it
 * planned (one C_64F with B conjugated: "C_64F*B"); another handle reads
 * the file, which plans the contraction in the daemon again (a cache hit,
 * counted by the daemon) and reports one line; a file without the header
 * and a missing file are IO_ERROR; the kernel cache file round-trips. */
static void test_plan_cache_file(void **state) {
    (void)state;
    assert_int_equal(trnsciInit(two_cores.unix_addr), trnsciSuccess);
    trntensorHandle_t h = NULL, h2 = NULL;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    const int64_t e[3] = {7, 11, 5};
    const int32_t ik[2] = {'i', 'k'}, kj[2] = {'k', 'j'}, ij[2] = {'i', 'j'};
    const int64_t eik[2] = {e[0], e[1]}, ekj[2] = {e[1], e[2]}, eij[2] = {e[0], e[2]};
    trntensorTensorDescriptor_t a, b, d;
    assert_int_equal(trntensorCreateTensorDescriptor(h, &a, 2, eik, NULL, TRNSCI_C_64F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreateTensorDescriptor(h, &b, 2, ekj, NULL, TRNSCI_C_64F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreateTensorDescriptor(h, &d, 2, eij, NULL, TRNSCI_C_64F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    trntensorOperationDescriptor_t o;
    assert_int_equal(trntensorCreateContraction(h, &o, a, ik, ID, b, kj, CJ, d, ij, ID, d, ij,
                                                TRNTENSOR_COMPUTE_DESC_64F),
                     TRNTENSOR_STATUS_SUCCESS);
    trntensorPlan_t plan;
    assert_int_equal(trntensorCreatePlan(h, &plan, o, NULL, 0), TRNTENSOR_STATUS_SUCCESS);
    char path[320], bad[320], kpath[320];
    snprintf(path, sizeof(path), "%s/plans.txt", tmp_dir);
    snprintf(bad, sizeof(bad), "%s/manifest.txt", tmp_dir);
    snprintf(kpath, sizeof(kpath), "%s/kernels.txt", tmp_dir);
    assert_int_equal(trntensorHandleWritePlanCacheToFile(h, path), TRNTENSOR_STATUS_SUCCESS);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[700];
    assert_non_null(fgets(line, sizeof(line), f));
    assert_non_null(fgets(line, sizeof(line), f));
    assert_non_null(strstr(line, "tensor contract C_64F*B 64F A=a7b11/p B=b11c5/p D=a7c5/p"));
    assert_null(fgets(line, sizeof(line), f));
    fclose(f);
    trntensorDestroyPlan(plan);

    trnsciPlanCacheStats s0, s1;
    int count = 0;
    assert_int_equal(trnsciDaemonGetPlans(two_cores.unix_addr, NULL, 0, &count, &s0),
                     trnsciSuccess);
    assert_int_equal(trntensorCreate(&h2), TRNTENSOR_STATUS_SUCCESS);
    uint32_t n = 99;
    assert_int_equal(trntensorHandleReadPlanCacheFromFile(h2, path, &n), TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(n, 1);
    assert_int_equal(trnsciDaemonGetPlans(two_cores.unix_addr, NULL, 0, &count, &s1),
                     trnsciSuccess);
    assert_int_equal(s1.hits, s0.hits + 1);
    assert_int_equal(trntensorHandleReadPlanCacheFromFile(h2, bad, &n), TRNTENSOR_STATUS_IO_ERROR);
    su_expect_message("not a plan cache file");
    snprintf(line, sizeof(line), "%s/absent.txt", tmp_dir);
    assert_int_equal(trntensorHandleReadPlanCacheFromFile(h2, line, &n), TRNTENSOR_STATUS_IO_ERROR);
    assert_int_equal(trntensorWriteKernelCacheToFile(h2, kpath), TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorReadKernelCacheFromFile(h2, kpath), TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorReadKernelCacheFromFile(h2, path), TRNTENSOR_STATUS_IO_ERROR);
    /* the handle that read the file lists the contraction too */
    snprintf(line, sizeof(line), "%s/plans2.txt", tmp_dir);
    assert_int_equal(trntensorHandleWritePlanCacheToFile(h2, line), TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorHandleReadPlanCacheFromFile(h, line, &n), TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(n, 1);
    trntensorDestroyOperationDescriptor(o);
    trntensorDestroyTensorDescriptor(a);
    trntensorDestroyTensorDescriptor(b);
    trntensorDestroyTensorDescriptor(d);
    trntensorDestroy(h);
    trntensorDestroy(h2);
}

int main(void) {
    if (su_main_start(tmp_dir, sizeof(tmp_dir), "/tmp/trnsci-tensor-complex-XXXXXX", &two_cores,
                      NULL, &local_t, &grpc_t) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        SU_ON(test_complex, local),        SU_ON(test_complex, grpc),
        SU_ON(test_complex_errors, local), SU_ON(test_complex_errors, grpc),
        SU_ONCE(test_plan_cache_file),
    };
    int failed = cmocka_run_group_tests_name("tensor_complex", tests, NULL, NULL);
    return su_main_end(failed, tmp_dir) ? 1 : 0;
}
