/*
 * test_tensor_half.c — trntensor on 16-bit storage (TRNSCI_R_16F, binary16,
 * and TRNSCI_R_16BF, bfloat16, with TRNTENSOR_COMPUTE_DESC_32F; protocol
 * 1.14) through a real 2-core daemon, over the local transport and gRPC over
 * TCP, against numpy (tensor_half_ref.py under Debian's python3).
 *
 * Operands hold values exact in their 16-bit type, widened exactly. With
 * u16 the unit roundoff of the storage type (2^-11, 2^-8), u = 2^-24 and S
 * the same formula on magnitudes (numpy, float64):
 *  - contractions (FP32 products and sums, k terms, one rounding to 16
 *    bits): |D - ref| <= u16 (|ref| + e) + e + tiny with e = gamma_{k+2} S
 *    (the FP32 error) and tiny half of the type's smallest subnormal (one
 *    case has D's row modes apart, and one has C and D at stride 2, so
 *    that D is computed in a packed copy: beta C is then added by the GEMM
 *    before the one rounding; D's gaps must stay untouched);
 *  - a binary op alpha A + gamma C (double, then FP32, then 16 bits):
 *    u16 |ref| + 4u (|ref| + S) + tiny;
 *  - a reduction of n terms (summed in double): u16 |ref| + 2u |ref| +
 *    2 (n + 4) 2^-53 S + tiny;
 *  - permutations (one FP32 product, one rounding to 16 bits), padded or
 *    not, bit for bit against numpy's float32 product rounded to the type
 *    to nearest even (numpy's astype(float16); bfloat16 from the float32
 *    bits).
 * Bad input: a 64F compute descriptor on 16-bit data and a permutation
 * converting R_32F to R_16F are TRNTENSOR_STATUS_NOT_SUPPORTED.
 */
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

enum { K_CONTRACT, K_BINARY, K_REDUCE, K_PERMUTE };

typedef struct hcase {
    int kind;
    const char *name;
    int bf; /* bfloat16, else binary16 */
    const char *ma, *mb, *md, *ext;
    double alpha, beta, pad;
    const char *left, *right;
    int gap; /* C and D at stride 2 elements (every other one), so never in place */
} hcase;

// clang-format off
static const hcase hcases[] = {
    {K_CONTRACT, "mm", 0, "ik", "kj", "ij", "i=20,k=33,j=18", 1.0, 0.5, 0, NULL, NULL, 0},
    {K_CONTRACT, "batch", 1, "abk", "kcb", "acb", "a=6,b=3,k=9,c=5", 0.5, 0.0, 0, NULL, NULL, 0},
    {K_CONTRACT, "trans", 0, "ki", "jk", "ji", "i=7,k=40,j=30", -1.0, 2.0, 0, NULL, NULL, 0},
    {K_CONTRACT, "split_rows", 0, "imk", "kj", "ijm", "i=5,m=3,k=20,j=6", 1.0, 0.75, 0, NULL, NULL, 0},
    {K_CONTRACT, "gapped", 1, "ik", "kj", "ij", "i=9,k=25,j=7", -0.5, 1.25, 0, NULL, NULL, 1},
    {K_BINARY, "binary", 0, "ba", "ab", "ab", "a=5,b=7", 1.5, -0.5, 0, NULL, NULL, 0},
    {K_REDUCE, "reduce", 1, "bac", "-", "a", "a=6,b=5,c=8", 1.0, 0.0, 0, NULL, NULL, 0},
    {K_PERMUTE, "permute", 1, "abc", "-", "cab", "a=4,b=5,c=3", 1.5, 0.0, 0.0, "0,0,0", "0,0,0", 0},
    {K_PERMUTE, "padded", 0, "ab", "-", "ba", "a=6,b=5", -2.0, 0.0, 3.5, "1,2", "0,1", 0},
};
// clang-format on
#define NHCASES (sizeof(hcases) / sizeof(hcases[0]))

static uint64_t rng = 0x853c49e6748fea9bull;

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
    for (const char *p = m; *p && strcmp(m, "-") != 0; p++)
        n *= (size_t)ext_of(ext, *p);
    return n;
}

static uint16_t to16(int bf, float f) {
    return bf ? trnsciFloatToBfloat16(f).x : trnsciFloatToHalf(f).x;
}

static float from16(int bf, uint16_t x) {
    return bf ? trnsciBfloat16ToFloat((trnsciBfloat16){x}) : trnsciHalfToFloat((trnsciHalf){x});
}

/* An operand: values exact in the type (float), written to NAME.suffix, and
 * a device copy of their 16-bit patterns when dev is given. */
static float *operand(const hcase *cs, const char *m, const char *suffix, void **dev, int gap) {
    const size_t n = count_of(m, cs->ext);
    float *v = malloc(n * sizeof(float));
    uint16_t *b = malloc(n * sizeof(uint16_t));
    assert_non_null(v);
    assert_non_null(b);
    for (size_t k = 0; k < n; k++) {
        b[k] = to16(cs->bf, (float)uniform());
        v[k] = from16(cs->bf, b[k]);
    }
    if (dev && gap) { /* element k at 2k; the gaps hold 0xffff (a NaN) */
        uint16_t *g = malloc(n * 4);
        assert_non_null(g);
        for (size_t k = 0; k < n; k++) {
            g[2 * k] = b[k];
            g[2 * k + 1] = 0xffff;
        }
        assert_int_equal(trnsciMalloc(dev, n * 4), trnsciSuccess);
        assert_int_equal(trnsciMemcpy(*dev, g, n * 4, trnsciMemcpyHostToDevice), trnsciSuccess);
        free(g);
    } else if (dev) {
        assert_int_equal(trnsciMalloc(dev, n * 2), trnsciSuccess);
        assert_int_equal(trnsciMemcpy(*dev, b, n * 2, trnsciMemcpyHostToDevice), trnsciSuccess);
    } else {
        char name[64];
        snprintf(name, sizeof(name), "%s%s", cs->name, suffix);
        su_write_file(tmp_dir, name, v, n * sizeof(float));
    }
    free(b);
    return v;
}

/* The operands of case cs, in order: A, then B (contractions) or C
 * (binary), then C of a contraction with beta != 0. */
static const char *opmodes(const hcase *cs, int r) {
    if (r == 0)
        return cs->ma;
    if (r == 1)
        return cs->kind == K_CONTRACT || cs->kind == K_BINARY ? cs->mb : "-";
    return cs->kind == K_CONTRACT && cs->beta != 0.0 ? cs->md : "-";
}
static const char *const SUFFIX[3] = {".a", ".b", ".c"};

static int refs_ready;

static void make_refs(void) {
    if (refs_ready)
        return;
    char path[320];
    snprintf(path, sizeof(path), "%s/manifest.txt", tmp_dir);
    FILE *m = fopen(path, "w");
    assert_non_null(m);
    for (size_t i = 0; i < NHCASES; i++) {
        const hcase *cs = &hcases[i];
        rng = 0x853c49e6748fea9bull + i;
        for (int r = 0; r < 3; r++)
            if (strcmp(opmodes(cs, r), "-") != 0) {
                /* a binary op's second operand is C in the reference */
                const char *suf = cs->kind == K_BINARY && r == 1 ? ".c" : SUFFIX[r];
                free(operand(cs, opmodes(cs, r), suf, NULL, 0));
            }
        const char *t = cs->bf ? "16BF" : "16F";
        switch (cs->kind) {
        case K_CONTRACT:
            fprintf(m, "contract %s %s %s %s %s %s %.17g %.17g\n", cs->name, t, cs->ma, cs->mb,
                    cs->md, cs->ext, cs->alpha, cs->beta);
            break;
        case K_BINARY:
            fprintf(m, "binary %s %s %s %s %s %s %.17g %.17g\n", cs->name, t, cs->ma, cs->mb,
                    cs->md, cs->ext, cs->alpha, cs->beta);
            break;
        case K_REDUCE:
            fprintf(m, "reduce %s %s %s %s %s %.17g\n", cs->name, t, cs->ma, cs->md, cs->ext,
                    cs->alpha);
            break;
        default:
            fprintf(m, "permute %s %s %s %s %s %.17g %.17g %s %s\n", cs->name, t, cs->ma, cs->md,
                    cs->ext, cs->alpha, cs->pad, cs->left, cs->right);
        }
    }
    fclose(m);
    su_run_ref(PYTHON3, TENSOR_HALF_REF_PY, "all", tmp_dir);
    refs_ready = 1;
}

static trntensorTensorDescriptor_t describe(trntensorHandle_t h, const hcase *cs, const char *m,
                                            int32_t *modes, int gap) {
    int64_t e[TRNTENSOR_MAX_MODES], st[TRNTENSOR_MAX_MODES];
    const int n = (int)strlen(m);
    for (int i = 0; i < n; i++) {
        modes[i] = m[i];
        e[i] = ext_of(cs->ext, m[i]);
        st[i] = i == 0 ? 2 : st[i - 1] * e[i - 1];
    }
    trntensorTensorDescriptor_t d;
    assert_int_equal(trntensorCreateTensorDescriptor(h, &d, (uint32_t)n, e, gap ? st : NULL,
                                                     cs->bf ? TRNSCI_R_16BF : TRNSCI_R_16F, 2),
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

static double run_case(trntensorHandle_t h, const hcase *cs, int i) {
    rng = 0x853c49e6748fea9bull + (uint64_t)i;
    void *dev[3] = {NULL, NULL, NULL};
    float *val[3] = {NULL, NULL, NULL};
    for (int r = 0; r < 3; r++)
        if (strcmp(opmodes(cs, r), "-") != 0)
            val[r] = operand(cs, opmodes(cs, r), SUFFIX[r], &dev[r], r == 2 && cs->gap);
    int32_t mode[4][TRNTENSOR_MAX_MODES];
    trntensorTensorDescriptor_t da = describe(h, cs, cs->ma, mode[0], 0), db = NULL,
                                dd = describe(h, cs, cs->md, mode[3], cs->gap);
    if (cs->kind == K_CONTRACT || cs->kind == K_BINARY)
        db = describe(h, cs, cs->mb, mode[1], 0);
    const trntensorComputeDescriptor_t cd = TRNTENSOR_COMPUTE_DESC_32F;
    trntensorOperationDescriptor_t o;
    const int nmd = (int)strlen(cs->md);
    int left[TRNTENSOR_MAX_MODES] = {0}, right[TRNTENSOR_MAX_MODES] = {0};
    switch (cs->kind) {
    case K_CONTRACT:
        assert_int_equal(trntensorCreateContraction(h, &o, da, mode[0], TRNTENSOR_OP_IDENTITY, db,
                                                    mode[1], TRNTENSOR_OP_IDENTITY, dd, mode[3],
                                                    TRNTENSOR_OP_IDENTITY, dd, mode[3], cd),
                         TRNTENSOR_STATUS_SUCCESS);
        break;
    case K_BINARY:
        assert_int_equal(trntensorCreateElementwiseBinary(h, &o, da, mode[0], TRNTENSOR_OP_IDENTITY,
                                                          db, mode[1], TRNTENSOR_OP_IDENTITY, dd,
                                                          mode[3], TRNTENSOR_OP_ADD, cd),
                         TRNTENSOR_STATUS_SUCCESS);
        break;
    case K_REDUCE:
        assert_int_equal(trntensorCreateReduction(h, &o, da, mode[0], TRNTENSOR_OP_IDENTITY, dd,
                                                  mode[3], TRNTENSOR_OP_IDENTITY, dd, mode[3],
                                                  TRNTENSOR_OP_ADD, cd),
                         TRNTENSOR_STATUS_SUCCESS);
        break;
    default:
        assert_int_equal(
            trntensorCreatePermutation(h, &o, da, mode[0], TRNTENSOR_OP_IDENTITY, dd, mode[3], cd),
            TRNTENSOR_STATUS_SUCCESS);
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
        const uint16_t pv = to16(cs->bf, (float)cs->pad);
        assert_int_equal(trntensorOperationDescriptorSetAttribute(
                             h, o, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE, &pv, sizeof(pv)),
                         TRNTENSOR_STATUS_SUCCESS);
    }
    trnsciDataType_t st;
    assert_int_equal(trntensorOperationDescriptorGetAttribute(
                         h, o, TRNTENSOR_OPERATION_DESCRIPTOR_SCALAR_TYPE, &st, sizeof(st)),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(st, TRNSCI_R_32F); /* 32F compute: float scalars */
    trntensorPlan_t plan;
    assert_int_equal(trntensorCreatePlan(h, &plan, o, NULL, 0), TRNTENSOR_STATUS_SUCCESS);
    size_t nd = 1;
    for (int k = 0; k < nmd; k++)
        nd *= (size_t)(ext_of(cs->ext, cs->md[k]) + left[k] + right[k]);
    const size_t sd = cs->gap ? 2 : 1; /* D's element k at sd k */
    void *d;
    assert_int_equal(trnsciMalloc(&d, nd * sd * 2), trnsciSuccess);
    assert_int_equal(trnsciMemset(d, 0xff, nd * sd * 2), trnsciSuccess); /* NaNs */
    const float alpha = (float)cs->alpha, beta = (float)cs->beta;
    trntensorStatus_t rs;
    switch (cs->kind) {
    case K_CONTRACT:
        rs = trntensorContract(h, plan, &alpha, dev[0], dev[1], &beta, dev[2], d, NULL, 0, NULL);
        break;
    case K_BINARY:
        rs = trntensorElementwiseBinaryExecute(h, plan, &alpha, dev[0], &beta, dev[1], d, NULL);
        break;
    case K_REDUCE: {
        const float zero = 0.0f;
        rs = trntensorReduce(h, plan, &alpha, dev[0], &zero, NULL, d, NULL, 0, NULL);
        break;
    }
    default: rs = trntensorPermute(h, plan, &alpha, dev[0], d, NULL);
    }
    if (rs != TRNTENSOR_STATUS_SUCCESS)
        fail_msg("%s: %d: %s", cs->name, (int)rs, trnsciGetLastErrorMessage());
    uint16_t *raw = malloc(nd * sd * 2), *got = malloc(nd * 2);
    assert_non_null(raw);
    assert_non_null(got);
    assert_int_equal(trnsciMemcpy(raw, d, nd * sd * 2, trnsciMemcpyDeviceToHost), trnsciSuccess);
    for (size_t k = 0; k < nd; k++) {
        got[k] = raw[k * sd];
        if (sd == 2 && raw[2 * k + 1] != 0xffff)
            fail_msg("%s: the gap after element %zu was written", cs->name, k);
    }
    free(raw);
    char name[64];
    size_t bytes = 0;
    snprintf(name, sizeof(name), "%s.ref", cs->name);
    void *ref = su_read_file(tmp_dir, name, &bytes);
    double worst = 0.0;
    if (cs->kind == K_PERMUTE) {
        assert_int_equal(bytes, nd * 2);
        for (size_t k = 0; k < nd; k++)
            if (got[k] != ((uint16_t *)ref)[k])
                fail_msg("%s: element %zu: 0x%04x, numpy 0x%04x", cs->name, k, got[k],
                         ((uint16_t *)ref)[k]);
    } else {
        assert_int_equal(bytes, nd * 8);
        snprintf(name, sizeof(name), "%s.abs", cs->name);
        double *mag = su_read_file(tmp_dir, name, &bytes);
        const double u16 = cs->bf ? 0x1p-8 : 0x1p-11, u = 0x1p-24;
        const double tiny = cs->bf ? 0x1p-134 : 0x1p-25;
        double n = 1.0;
        for (const char *p = cs->ma; *p; p++)
            if (!strchr(cs->md, *p))
                n *= (double)ext_of(cs->ext, *p);
        for (size_t k = 0; k < nd; k++) {
            const double r = ((double *)ref)[k], g = from16(cs->bf, got[k]);
            double bound;
            if (cs->kind == K_CONTRACT) {
                const double e = (n + 2.0) * u / (1.0 - (n + 2.0) * u) * mag[k];
                bound = u16 * (fabs(r) + e) + e + tiny;
            } else if (cs->kind == K_BINARY) {
                bound = u16 * fabs(r) + 4.0 * u * (fabs(r) + mag[k]) + tiny;
            } else {
                bound = (u16 + 2.0 * u) * fabs(r) + 2.0 * (n + 4.0) * 0x1p-53 * mag[k] + tiny;
            }
            const double err = fabs(g - r);
            if (!(err <= bound))
                fail_msg("%s: element %zu: %.9g, numpy %.9g, error %.3g > bound %.3g", cs->name, k,
                         g, r, err, bound);
            if (err / bound > worst)
                worst = err / bound;
        }
        free(mag);
    }
    free(ref);
    free(got);
    trnsciFree(d);
    trntensorDestroyPlan(plan);
    trntensorDestroyOperationDescriptor(o);
    trntensorDestroyTensorDescriptor(da);
    trntensorDestroyTensorDescriptor(dd);
    if (db)
        trntensorDestroyTensorDescriptor(db);
    for (int r = 0; r < 3; r++) {
        free(val[r]);
        if (dev[r])
            trnsciFree(dev[r]);
    }
    return worst;
}

static void test_half(void **state) {
    make_refs();
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trntensorHandle_t h = NULL;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    for (size_t i = 0; i < NHCASES; i++)
        printf("%s: worst error / bound %.3g\n", hcases[i].name, run_case(h, &hcases[i], (int)i));
    trntensorDestroy(h);
}

static void test_half_errors(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trntensorHandle_t h = NULL;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    const int64_t e34[2] = {3, 4};
    const int32_t ab[2] = {'a', 'b'}, ba[2] = {'b', 'a'};
    trntensorTensorDescriptor_t h34, f34;
    assert_int_equal(trntensorCreateTensorDescriptor(h, &h34, 2, e34, NULL, TRNSCI_R_16F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreateTensorDescriptor(h, &f34, 2, e34, NULL, TRNSCI_R_32F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    trntensorOperationDescriptor_t o = NULL;
    assert_int_equal(trntensorCreatePermutation(h, &o, f34, ab, TRNTENSOR_OP_IDENTITY, h34, ba,
                                                TRNTENSOR_COMPUTE_DESC_32F),
                     TRNTENSOR_STATUS_NOT_SUPPORTED);
    su_expect_message("between TRNSCI_R_32F and TRNSCI_R_64F only");
    /* 64F compute on 16-bit data: refused by the daemon when executed */
    assert_int_equal(trntensorCreatePermutation(h, &o, h34, ab, TRNTENSOR_OP_IDENTITY, h34, ba,
                                                TRNTENSOR_COMPUTE_DESC_64F),
                     TRNTENSOR_STATUS_SUCCESS);
    trntensorPlan_t plan;
    assert_int_equal(trntensorCreatePlan(h, &plan, o, NULL, 0), TRNTENSOR_STATUS_SUCCESS);
    void *a, *d;
    assert_int_equal(trnsciMalloc(&a, 24), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&d, 24), trnsciSuccess);
    const float one = 1.0f;
    assert_int_equal(trntensorPermute(h, plan, &one, a, d, NULL), TRNTENSOR_STATUS_NOT_SUPPORTED);
    su_expect_message("R_16F data computes in 32F");
    trntensorDestroyPlan(plan);
    trntensorDestroyOperationDescriptor(o);
    trnsciFree(a);
    trnsciFree(d);
    trntensorDestroyTensorDescriptor(h34);
    trntensorDestroyTensorDescriptor(f34);
    trntensorDestroy(h);
}

int main(void) {
    if (su_main_start(tmp_dir, sizeof(tmp_dir), "/tmp/trnsci-tensor-half-XXXXXX", &two_cores, NULL,
                      &local_t, &grpc_t) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        SU_ON(test_half, local),
        SU_ON(test_half, grpc),
        SU_ON(test_half_errors, local),
        SU_ON(test_half_errors, grpc),
    };
    int failed = cmocka_run_group_tests_name("tensor_half", tests, NULL, NULL);
    return su_main_end(failed, tmp_dir) ? 1 : 0;
}
