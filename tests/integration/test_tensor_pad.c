/*
 * test_tensor_pad.c — trntensor's padded permutations
 * (TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT / _RIGHT / _VALUE, protocol
 * 1.14) through a real 2-core daemon, over the local transport and gRPC over
 * TCP, against numpy (tensor_pad_ref.py under Debian's python3: transpose,
 * scale in the compute type, convert, numpy.pad).
 *
 * Every result must equal numpy's bit for bit: each element is one product
 * alpha * a in the compute type and one conversion to B's type (or the
 * padding value, exact in B's type), and numpy performs the same IEEE
 * operations. Cases: the layout of NVIDIA's elementwise_permute_padding
 * sample (NCHW -> NHWC-like, padding on two modes); a reversal of R_64F
 * with alpha != 1, a nonzero padding value and explicit output strides that
 * leave a gap after every mode (the gaps must stay untouched); a converting
 * permutation R_64F -> R_32F in 32F; a one-mode copy (the fused path); and
 * a 3-mode tensor of ~250 000 elements that the daemon splits over its two
 * cores. Bad input: padding on a contraction (NOT_SUPPORTED), wrong
 * attribute sizes and negative counts (INVALID_VALUE), an output buffer too
 * small for the padded extents (INVALID_VALUE from the daemon), each with a
 * message naming the rule; GetAttribute returns what was set.
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
#include "trnsci/trntensor.h"

static th_daemon two_cores;
static char tmp_dir[256];
static su_transport local_t = {"local", NULL}, grpc_t = {"grpc", NULL};

#define SENTINEL 1234.5

typedef struct pcase {
    const char *name;
    int a64, b64, c64; /* A's, B's and the compute type: 64-bit or 32-bit */
    double alpha, pad_value;
    int n;
    int64_t ext_a[4];
    int perm[4]; /* B's mode i is A's mode perm[i] */
    uint32_t left[4], right[4];
    int gaps; /* B with explicit strides leaving one element after each mode */
} pcase;

static const pcase pcases[] = {
    {"sample", 0, 0, 0, 1.0, 0.0, 4, {5, 4, 3, 2}, {2, 0, 1, 3}, {0, 1, 1, 0}, {0, 1, 1, 0}, 0},
    {"rev64", 1, 1, 1, -0.75, -3.25, 3, {7, 6, 5}, {2, 1, 0}, {2, 0, 3}, {1, 4, 0}, 1},
    {"cvt", 1, 0, 0, 1.5, 9.0, 2, {6, 5}, {1, 0}, {1, 2}, {3, 0}, 0},
    {"one", 0, 0, 0, 1.0, -1.0, 1, {10}, {0}, {3}, {2}, 0},
    {"big", 0, 0, 0, 2.0, 0.5, 3, {300, 200, 4}, {1, 0, 2}, {1, 1, 0}, {2, 0, 1}, 0},
};
#define NPCASES (sizeof(pcases) / sizeof(pcases[0]))

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static double uniform(void) { /* in [-1, 1) */
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-52 - 1.0;
}

static size_t count_a(const pcase *cs) {
    size_t n = 1;
    for (int i = 0; i < cs->n; i++)
        n *= (size_t)cs->ext_a[i];
    return n;
}

/* A's values of case cs (raw, A's type), the same on every call. */
static void *make_a(const pcase *cs, int i) {
    rng = 0x9e3779b97f4a7c15ull + (uint64_t)i;
    const size_t n = count_a(cs);
    void *p = malloc(n * 8);
    assert_non_null(p);
    for (size_t k = 0; k < n; k++) {
        const double v = uniform();
        if (cs->a64)
            ((double *)p)[k] = v;
        else
            ((float *)p)[k] = (float)v;
    }
    return p;
}

static void list(FILE *m, const int64_t *v64, const uint32_t *v32, const int *vi, int n) {
    for (int i = 0; i < n; i++)
        fprintf(m, "%s%lld", i ? "," : " ",
                v64   ? (long long)v64[i]
                : v32 ? (long long)v32[i]
                      : (long long)vi[i]);
}

static int refs_ready;

static void make_refs(void) {
    if (refs_ready)
        return;
    char path[320];
    snprintf(path, sizeof(path), "%s/manifest.txt", tmp_dir);
    FILE *m = fopen(path, "w");
    assert_non_null(m);
    for (size_t i = 0; i < NPCASES; i++) {
        const pcase *cs = &pcases[i];
        void *a = make_a(cs, (int)i);
        char name[64];
        snprintf(name, sizeof(name), "%s.a", cs->name);
        su_write_file(tmp_dir, name, a, count_a(cs) * (cs->a64 ? 8 : 4));
        free(a);
        fprintf(m, "pad %s %d %d %d %.17g %.17g", cs->name, cs->a64 ? 64 : 32, cs->b64 ? 64 : 32,
                cs->c64 ? 64 : 32, cs->alpha, cs->pad_value);
        list(m, cs->ext_a, NULL, NULL, cs->n);
        list(m, NULL, NULL, cs->perm, cs->n);
        list(m, NULL, cs->left, NULL, cs->n);
        list(m, NULL, cs->right, NULL, cs->n);
        fputc('\n', m);
    }
    fclose(m);
    su_run_ref(PYTHON3, TENSOR_PAD_REF_PY, "all", tmp_dir);
    refs_ready = 1;
}

static double raw(const void *p, int dbl, size_t k) {
    return dbl ? ((const double *)p)[k] : (double)((const float *)p)[k];
}

static void run_case(trntensorHandle_t h, const pcase *cs, int i) {
    const int32_t letters[4] = {'w', 'h', 'c', 'n'};
    int32_t mode_b[4];
    int64_t ext_b[4], padded[4], stride_b[4];
    size_t span = 1, elems = 1;
    for (int k = 0; k < cs->n; k++) {
        mode_b[k] = letters[cs->perm[k]];
        ext_b[k] = cs->ext_a[cs->perm[k]];
        padded[k] = ext_b[k] + cs->left[k] + cs->right[k];
        stride_b[k] = k == 0 ? 1 : stride_b[k - 1] * (padded[k - 1] + (cs->gaps ? 1 : 0));
        span += (size_t)(padded[k] - 1) * (size_t)stride_b[k];
        elems *= (size_t)padded[k];
    }
    const size_t eb = cs->b64 ? 8 : 4, tail = 3; /* elements past B's span: untouched */
    trntensorTensorDescriptor_t da, db;
    assert_int_equal(trntensorCreateTensorDescriptor(h, &da, (uint32_t)cs->n, cs->ext_a, NULL,
                                                     cs->a64 ? TRNSCI_R_64F : TRNSCI_R_32F, 128),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreateTensorDescriptor(h, &db, (uint32_t)cs->n, ext_b,
                                                     cs->gaps ? stride_b : NULL,
                                                     cs->b64 ? TRNSCI_R_64F : TRNSCI_R_32F, 128),
                     TRNTENSOR_STATUS_SUCCESS);
    trntensorOperationDescriptor_t op;
    assert_int_equal(trntensorCreatePermutation(
                         h, &op, da, letters, TRNTENSOR_OP_IDENTITY, db, mode_b,
                         cs->c64 ? TRNTENSOR_COMPUTE_DESC_64F : TRNTENSOR_COMPUTE_DESC_32F),
                     TRNTENSOR_STATUS_SUCCESS);
    /* int arrays, as the sample passes them */
    int left[4], right[4];
    for (int k = 0; k < cs->n; k++) {
        left[k] = (int)cs->left[k];
        right[k] = (int)cs->right[k];
    }
    assert_int_equal(
        trntensorOperationDescriptorSetAttribute(h, op, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT,
                                                 left, sizeof(int) * (size_t)cs->n),
        TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorOperationDescriptorSetAttribute(
                         h, op, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_RIGHT, right,
                         sizeof(int) * (size_t)cs->n),
                     TRNTENSOR_STATUS_SUCCESS);
    const float pv32 = (float)cs->pad_value;
    const double pv64 = cs->pad_value;
    assert_int_equal(trntensorOperationDescriptorSetAttribute(
                         h, op, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE,
                         cs->b64 ? (const void *)&pv64 : (const void *)&pv32, eb),
                     TRNTENSOR_STATUS_SUCCESS);
    uint32_t got[4];
    assert_int_equal(trntensorOperationDescriptorGetAttribute(
                         h, op, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_RIGHT, got,
                         sizeof(uint32_t) * (size_t)cs->n),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_memory_equal(got, cs->right, sizeof(uint32_t) * (size_t)cs->n);
    trntensorPlan_t plan;
    assert_int_equal(trntensorCreatePlan(h, &plan, op, NULL, 0), TRNTENSOR_STATUS_SUCCESS);
    trntensorDestroyOperationDescriptor(op); /* the plan keeps a copy */

    void *a = make_a(cs, i), *b = malloc((span + tail) * eb), *dev_a, *dev_b;
    assert_non_null(b);
    for (size_t k = 0; k < span + tail; k++) {
        if (cs->b64)
            ((double *)b)[k] = SENTINEL;
        else
            ((float *)b)[k] = (float)SENTINEL;
    }
    const size_t bytes_a = count_a(cs) * (cs->a64 ? 8 : 4);
    assert_int_equal(trnsciMalloc(&dev_a, bytes_a), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&dev_b, (span + tail) * eb), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dev_a, a, bytes_a, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dev_b, b, (span + tail) * eb, trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    const float al32 = (float)cs->alpha;
    const double al64 = cs->alpha;
    const trntensorStatus_t st = trntensorPermute(
        h, plan, cs->c64 ? (const void *)&al64 : (const void *)&al32, dev_a, dev_b, NULL);
    if (st != TRNTENSOR_STATUS_SUCCESS)
        fail_msg("%s: trntensorPermute: %d: %s", cs->name, (int)st, trnsciGetLastErrorMessage());
    assert_int_equal(trnsciMemcpy(b, dev_b, (span + tail) * eb, trnsciMemcpyDeviceToHost),
                     trnsciSuccess);

    char name[64];
    snprintf(name, sizeof(name), "%s.ref", cs->name);
    size_t ref_bytes = 0;
    void *ref = su_read_file(tmp_dir, name, &ref_bytes);
    assert_int_equal(ref_bytes, elems * eb);
    /* Walk B's padded elements (first mode fastest) against numpy's. */
    unsigned char *seen = calloc(span + tail, 1);
    assert_non_null(seen);
    int64_t idx[4] = {0};
    for (size_t e = 0; e < elems; e++) {
        size_t off = 0;
        for (int k = 0; k < cs->n; k++)
            off += (size_t)(idx[k] * stride_b[k]);
        seen[off] = 1;
        const double want = raw(ref, cs->b64, e), have = raw(b, cs->b64, off);
        if (memcmp(&want, &have, sizeof(double)) != 0)
            fail_msg("%s: element %zu (offset %zu): %.17g, numpy %.17g", cs->name, e, off, have,
                     want);
        for (int k = 0; k < cs->n && ++idx[k] == padded[k]; k++)
            idx[k] = 0;
    }
    for (size_t k = 0; k < span + tail; k++)
        if (!seen[k] && raw(b, cs->b64, k) != (cs->b64 ? SENTINEL : (double)(float)SENTINEL))
            fail_msg("%s: offset %zu outside B's elements was written", cs->name, k);
    free(seen);
    free(ref);
    free(a);
    free(b);
    trnsciFree(dev_a);
    trnsciFree(dev_b);
    trntensorDestroyPlan(plan);
    trntensorDestroyTensorDescriptor(da);
    trntensorDestroyTensorDescriptor(db);
}

static void test_padded_permutations(void **state) {
    make_refs();
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trntensorHandle_t h = NULL;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    for (size_t i = 0; i < NPCASES; i++)
        run_case(h, &pcases[i], (int)i);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    trntensorDestroy(h);
}

static void expect(trntensorStatus_t got, trntensorStatus_t want, const char *needle) {
    if (got != want)
        fail_msg("status %d (%s), expected %d: %s", (int)got, trntensorGetErrorString(got),
                 (int)want, trnsciGetLastErrorMessage());
    su_expect_message(needle);
}

static void test_padding_errors(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trntensorHandle_t h = NULL;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    const int64_t e34[2] = {3, 4}, e43[2] = {4, 3};
    const int32_t ab[2] = {'a', 'b'}, ba[2] = {'b', 'a'}, ak[2] = {'a', 'k'}, kb[2] = {'k', 'b'};
    trntensorTensorDescriptor_t d34, d43, d64;
    assert_int_equal(trntensorCreateTensorDescriptor(h, &d34, 2, e34, NULL, TRNSCI_R_32F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreateTensorDescriptor(h, &d43, 2, e43, NULL, TRNSCI_R_32F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreateTensorDescriptor(h, &d64, 2, e34, NULL, TRNSCI_R_64F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    const uint32_t pad[2] = {1, 2};
    const int neg[2] = {0, -1};
    const double v64 = 2.0;
    /* not a permutation */
    trntensorOperationDescriptor_t con, perm, perm64;
    assert_int_equal(trntensorCreateContraction(
                         h, &con, d34, ak, TRNTENSOR_OP_IDENTITY, d43, kb, TRNTENSOR_OP_IDENTITY,
                         d34, ab, TRNTENSOR_OP_IDENTITY, d34, ab, TRNTENSOR_COMPUTE_DESC_32F),
                     TRNTENSOR_STATUS_SUCCESS);
    expect(trntensorOperationDescriptorSetAttribute(
               h, con, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT, pad, sizeof(pad)),
           TRNTENSOR_STATUS_NOT_SUPPORTED, "permutations only");
    assert_int_equal(trntensorCreatePermutation(h, &perm, d34, ab, TRNTENSOR_OP_IDENTITY, d43, ba,
                                                TRNTENSOR_COMPUTE_DESC_32F),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreatePermutation(h, &perm64, d34, ab, TRNTENSOR_OP_IDENTITY, d64, ab,
                                                TRNTENSOR_COMPUTE_DESC_32F),
                     TRNTENSOR_STATUS_SUCCESS);
    /* sizes: one count per mode of B; one value of B's type */
    expect(trntensorOperationDescriptorSetAttribute(
               h, perm, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT, pad, sizeof(uint32_t)),
           TRNTENSOR_STATUS_INVALID_VALUE, "takes 8 bytes");
    expect(trntensorOperationDescriptorSetAttribute(
               h, perm, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_RIGHT, neg, sizeof(neg)),
           TRNTENSOR_STATUS_INVALID_VALUE, "negative");
    expect(trntensorOperationDescriptorSetAttribute(
               h, perm, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE, &v64, sizeof(v64)),
           TRNTENSOR_STATUS_INVALID_VALUE, "takes 4 bytes");
    const float v32 = 2.0f;
    expect(trntensorOperationDescriptorSetAttribute(
               h, perm64, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE, &v32, sizeof(v32)),
           TRNTENSOR_STATUS_INVALID_VALUE, "takes 8 bytes");
    assert_int_equal(
        trntensorOperationDescriptorSetAttribute(
            h, perm64, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE, &v64, sizeof(v64)),
        TRNTENSOR_STATUS_SUCCESS);
    double back = 0.0;
    assert_int_equal(
        trntensorOperationDescriptorGetAttribute(
            h, perm64, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE, &back, sizeof(back)),
        TRNTENSOR_STATUS_SUCCESS);
    assert_true(back == v64);
    /* B (4 x 3) padded by 1 + 1 and 2 + 2 to 6 x 7 = 42 floats; a buffer
     * of 41 is refused by the daemon, one of 42 runs */
    assert_int_equal(trntensorOperationDescriptorSetAttribute(
                         h, perm, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT, pad, sizeof(pad)),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorOperationDescriptorSetAttribute(
                         h, perm, TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_RIGHT, pad, sizeof(pad)),
                     TRNTENSOR_STATUS_SUCCESS);
    trntensorPlan_t plan;
    assert_int_equal(trntensorCreatePlan(h, &plan, perm, NULL, 0), TRNTENSOR_STATUS_SUCCESS);
    float *a = NULL, *bshort = NULL, *bok = NULL;
    assert_int_equal(trnsciMalloc((void **)&a, 12 * 4), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&bshort, 41 * 4), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&bok, 42 * 4), trnsciSuccess);
    assert_int_equal(trnsciMemset(a, 0, 12 * 4), trnsciSuccess);
    const float one = 1.0f;
    expect(trntensorPermute(h, plan, &one, a, bshort, NULL), TRNTENSOR_STATUS_INVALID_VALUE,
           "needs 168 bytes");
    assert_int_equal(trntensorPermute(h, plan, &one, a, bok, NULL), TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    trntensorDestroyPlan(plan);
    trnsciFree(a);
    trnsciFree(bshort);
    trnsciFree(bok);
    trntensorDestroyOperationDescriptor(con);
    trntensorDestroyOperationDescriptor(perm);
    trntensorDestroyOperationDescriptor(perm64);
    trntensorDestroyTensorDescriptor(d34);
    trntensorDestroyTensorDescriptor(d43);
    trntensorDestroyTensorDescriptor(d64);
    trntensorDestroy(h);
}

int main(void) {
    if (su_main_start(tmp_dir, sizeof(tmp_dir), "/tmp/trnsci-tensor-pad-XXXXXX", &two_cores, NULL,
                      &local_t, &grpc_t) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        SU_ON(test_padded_permutations, local),
        SU_ON(test_padded_permutations, grpc),
        SU_ON(test_padding_errors, local),
        SU_ON(test_padding_errors, grpc),
    };
    int failed = cmocka_run_group_tests_name("tensor_pad", tests, NULL, NULL);
    return su_main_end(failed, tmp_dir) ? 1 : 0;
}
