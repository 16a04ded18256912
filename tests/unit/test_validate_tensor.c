/*
 * test_validate_tensor.c — trntensor's daemon side without a daemon:
 *  - contraction specs (trn_validate_tensor_plan, ops/tensor_plan.c):
 *    a valid one passes and gets the canonical key whatever its labels; the
 *    key parses back to the same spec; extent mismatch, a repeated mode, a
 *    mode of D from nowhere, strides or extents < 1, an extent overflowing
 *    2^62, overlapping D strides and a compute type of the other precision
 *    are INVALID_ARGUMENT; 17 modes, a mode summed within one operand,
 *    mixed data types (complex ones included) are UNIMPLEMENTED; messages name
 *    the rule;
 *  - the GEMM mapping's decisions (in place, transposed, swapped, packed);
 *  - element-wise and reduction ops through trn_validate_op with a real
 *    session table: an operand of exactly its extent passes, one element
 *    short fails, a misaligned offset fails, another session's buffer is
 *    refused; refs hold one reference per operand on success and none on
 *    failure; modes of inputs must be D's, a reduction's C must have D's
 *    layout, binary operators must be ADD/MUL/MAX/MIN;
 *  - permutations that convert (A R_64F and D R_32F, or the reverse): each
 *    operand's extent in bytes and alignment use its own element size (an
 *    exact-size buffer passes, one element short fails, an 8-byte operand
 *    at a 4-byte offset fails, a 4-byte one passes), A and D must not
 *    overlap (a conversion cannot run in place), the byte count
 *    overflows for the 8-byte operand where the 4-byte one's still fits,
 *    compute DEFAULT / 32F / 64F pass, precision modes are UNIMPLEMENTED;
 *    mixed types in a binary, trinary, reduction or contraction (complex
 *    among them) are UNIMPLEMENTED with both types named;
 *  - the permutation kernel (every type pair, 32F and 64F compute, alpha 1
 *    and not, IDENTITY and SQRT, packed, padded and transposed layouts)
 *    against a plain loop of the documented formula, split into 1, 2, 3 and
 *    7 shards, bit for bit;
 *  - the contraction kernel split into 1, 2, 3 and 5 shards gives the same
 *    bits for a packed X, a swapped and a packed-D mapping;
 *  - trinary contractions (trn_tensor_trinary_make): the pairing with the
 *    fewest flops is taken ((B C) A or (A B) C by extents, ties to (A B) C),
 *    the intermediate keeps the modes Z or E needs, and the rules' failures
 *    (a mode of E from nowhere, differing extents: -1; a mode of one input
 *    only: -2) name the rule.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "daemon/session.h"
#include "daemon/validate.h"
#include "kernels/backend.h"
#include "kernels/cpu/cpu_kernels.h"
#include "ops/fft_shape.h"
#include "ops/tensor_plan.h"
#include "scheduler/sched.h"
#include "validate_fixture.h"

/* After the project headers: cblas.h pulls in <complex.h>, whose `complex`
 * macro breaks ops/fft_shape.h. */
#include <cblas.h>

#define R32 TRNSCI__V1__DATA_TYPE__R_32F
#define R64 TRNSCI__V1__DATA_TYPE__R_64F

/* A wire descriptor with room for its arrays. */
typedef struct wdesc {
    Trnsci__V1__TensorDescriptor w;
    int64_t extent[20], stride[20];
    int32_t mode[20];
} wdesc;

/* modes: letters; extents: one per letter; strides NULL: packed. */
static void wd(wdesc *d, Trnsci__V1__DataType type, const char *modes, const int64_t *extents,
               const int64_t *strides) {
    trnsci__v1__tensor_descriptor__init(&d->w);
    const size_t n = strlen(modes);
    int64_t s = 1;
    for (size_t i = 0; i < n; i++) {
        d->mode[i] = modes[i];
        d->extent[i] = extents[i];
        d->stride[i] = strides ? strides[i] : s;
        s = (int64_t)((uint64_t)s * (uint64_t)extents[i]); /* huge extents: any value */
    }
    d->w.type = type;
    d->w.n_extent = d->w.n_stride = d->w.n_mode = n;
    d->w.extent = d->extent;
    d->w.stride = d->stride;
    d->w.mode = d->mode;
}

static trn_wire_code plan_of(const wdesc *a, const wdesc *b, const wdesc *d,
                             Trnsci__V1__ComputeType compute, trn_plan_spec *spec, char *err) {
    Trnsci__V1__TensorContractionSpec w = TRNSCI__V1__TENSOR_CONTRACTION_SPEC__INIT;
    w.a = (Trnsci__V1__TensorDescriptor *)&a->w;
    w.b = (Trnsci__V1__TensorDescriptor *)&b->w;
    w.d = (Trnsci__V1__TensorDescriptor *)&d->w;
    w.compute = compute;
    err[0] = '\0';
    return trn_validate_tensor_plan(&w, spec, err, 256);
}

static void expect_plan(const wdesc *a, const wdesc *b, const wdesc *d,
                        Trnsci__V1__ComputeType compute, trn_wire_code code, const char *needle) {
    trn_plan_spec spec;
    char err[256];
    const trn_wire_code rc = plan_of(a, b, d, compute, &spec, err);
    if (rc != code)
        fail_msg("expected %d (%s), got %d: %s", (int)code, needle ? needle : "", (int)rc, err);
    if (needle && !strstr(err, needle))
        fail_msg("message \"%s\" does not contain \"%s\"", err, needle);
}

static void test_contraction_specs(void **state) {
    (void)state;
    const int64_t e34[] = {3, 4}, e45[] = {4, 5}, e35[] = {3, 5}, e55[] = {5, 5}, e33[] = {3, 3};
    wdesc a, b, d, x;
    wd(&a, R32, "ik", e34, NULL);
    wd(&b, R32, "kj", e45, NULL);
    wd(&d, R32, "ij", e35, NULL);
    trn_plan_spec s1, s2;
    char err[256], k1[TRN_PLAN_KEY_LEN], k2[TRN_PLAN_KEY_LEN];
    assert_int_equal(plan_of(&a, &b, &d, 0, &s1, err), TRN_WIRE_OK);
    /* other labels, same contraction: same key */
    wd(&a, R32, "xq", e34, NULL);
    wd(&b, R32, "qz", e45, NULL);
    wd(&d, R32, "xz", e35, NULL);
    assert_int_equal(plan_of(&a, &b, &d, TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F, &s2, err),
                     TRN_WIRE_OK);
    trn_tensor_spec_format(&s1.u.tensor, k1, sizeof(k1));
    trn_tensor_spec_format(&s2.u.tensor, k2, sizeof(k2));
    assert_string_equal(k1, k2);
    assert_string_equal(k1, "tensor contract R_32F 32F A=a3b4/p B=b4c5/p D=a3c5/p");
    trn_tensor_contract_spec back;
    assert_int_equal(trn_tensor_spec_parse(k1, &back, err, sizeof(err)), 0);
    assert_memory_equal(&back, &s1.u.tensor, sizeof(back));
    /* the plan cache's key functions (persisted manifests) take tensor keys */
    trn_plan_spec any;
    char k3[TRN_PLAN_KEY_LEN];
    assert_int_equal(trn_plan_spec_parse(k1, &any, err, sizeof(err)), 0);
    assert_int_equal(any.family, TRN_PLAN_TENSOR);
    assert_memory_equal(&any.u.tensor, &s1.u.tensor, sizeof(back));
    trn_plan_spec_format(&any, k3, sizeof(k3));
    assert_string_equal(k3, k1);
    /* strided key round trip */
    const int64_t sd[] = {2, 7};
    wd(&d, R32, "xz", e35, sd);
    assert_int_equal(plan_of(&a, &b, &d, 0, &s2, err), TRN_WIRE_OK);
    trn_tensor_spec_format(&s2.u.tensor, k2, sizeof(k2));
    assert_string_equal(k2, "tensor contract R_32F 32F A=a3b4/p B=b4c5/p D=a3c5/2,7");
    assert_int_equal(trn_tensor_spec_parse(k2, &back, err, sizeof(err)), 0);
    assert_memory_equal(&back, &s2.u.tensor, sizeof(back));
    assert_int_equal(
        trn_tensor_spec_parse("tensor contract R_32F 32F A=a3/p B=", &back, err, sizeof(err)), -1);
    /* complex keys: conjugated operands follow the type; CONJ on real data
     * is the identity and leaves the key alone */
    wd(&a, TRNSCI__V1__DATA_TYPE__C_64F, "xq", e34, NULL);
    wd(&b, TRNSCI__V1__DATA_TYPE__C_64F, "qz", e45, NULL);
    wd(&d, TRNSCI__V1__DATA_TYPE__C_64F, "xz", e35, NULL);
    b.w.op = 9;
    assert_int_equal(plan_of(&a, &b, &d, 0, &s2, err), TRN_WIRE_OK);
    trn_tensor_spec_format(&s2.u.tensor, k2, sizeof(k2));
    assert_string_equal(k2, "tensor contract C_64F*B 64F A=a3b4/p B=b4c5/p D=a3c5/p");
    assert_int_equal(trn_tensor_spec_parse(k2, &back, err, sizeof(err)), 0);
    assert_memory_equal(&back, &s2.u.tensor, sizeof(back));
    a.w.op = 9;
    assert_int_equal(plan_of(&a, &b, &d, 0, &s2, err), TRN_WIRE_OK);
    trn_tensor_spec_format(&s2.u.tensor, k2, sizeof(k2));
    assert_string_equal(k2, "tensor contract C_64F*AB 64F A=a3b4/p B=b4c5/p D=a3c5/p");
    assert_int_equal(trn_tensor_spec_parse(k2, &back, err, sizeof(err)), 0);
    assert_memory_equal(&back, &s2.u.tensor, sizeof(back));
    expect_plan(&a, &b, &d, TRNSCI__V1__COMPUTE_TYPE__COMPUTE_64F_EMULATED, TRN_WIRE_UNIMPLEMENTED,
                "precision modes are for real data");
    assert_int_equal(trn_tensor_spec_parse("tensor contract R_32F*A 32F A=a3b4/p B=b4c5/p "
                                           "D=a3c5/p",
                                           &back, err, sizeof(err)),
                     -1);
    wd(&a, R32, "xq", e34, NULL);
    wd(&b, R32, "qz", e45, NULL);
    wd(&d, R32, "xz", e35, NULL);
    a.w.op = b.w.op = 9;
    assert_int_equal(plan_of(&a, &b, &d, 0, &s2, err), TRN_WIRE_OK);
    trn_tensor_spec_format(&s2.u.tensor, k2, sizeof(k2));
    assert_string_equal(k2, k1);

    wd(&a, R32, "ik", e34, NULL);
    wd(&b, R32, "kj", e55, NULL);
    wd(&d, R32, "ij", e35, NULL);
    expect_plan(&a, &b, &d, 0, TRN_WIRE_INVALID_ARGUMENT, "extent 5 in B but 4 in A");
    wd(&b, R32, "kj", e45, NULL);
    wd(&x, R32, "ii", e33, NULL);
    expect_plan(&a, &b, &x, 0, TRN_WIRE_INVALID_ARGUMENT, "D repeats mode");
    wd(&x, R32, "iz", e35, NULL);
    expect_plan(&a, &b, &x, 0, TRN_WIRE_INVALID_ARGUMENT, "in neither A nor B");
    const int64_t e324[] = {3, 2, 4};
    wd(&x, R32, "iyk", e324, NULL);
    expect_plan(&x, &b, &d, 0, TRN_WIRE_UNIMPLEMENTED, "trntensorReduce");
    const int64_t bad[] = {1, 2};
    wd(&x, R32, "ij", e35, bad);
    expect_plan(&a, &b, &x, 0, TRN_WIRE_INVALID_ARGUMENT, "overlap");
    const int64_t zero[] = {0, 4};
    wd(&x, R32, "ik", e34, zero);
    expect_plan(&x, &b, &d, 0, TRN_WIRE_INVALID_ARGUMENT, "must be >= 1");
    const int64_t huge[] = {INT64_C(1) << 40, INT64_C(1) << 40};
    wd(&x, R32, "ik", huge, NULL);
    expect_plan(&x, &b, &d, 0, TRN_WIRE_INVALID_ARGUMENT, "overflows");
    expect_plan(&a, &b, &d, TRNSCI__V1__COMPUTE_TYPE__COMPUTE_64F_EMULATED,
                TRN_WIRE_INVALID_ARGUMENT, "takes R_64F");
    expect_plan(&a, &b, &d, (Trnsci__V1__ComputeType)99, TRN_WIRE_INVALID_ARGUMENT,
                "not a trnblas compute type");
    int64_t ones[17];
    for (int i = 0; i < 17; i++)
        ones[i] = 1;
    wd(&x, R32, "abcdefghijklmnopq", ones, NULL);
    expect_plan(&x, &b, &d, 0, TRN_WIRE_UNIMPLEMENTED, "more than the 16 supported");
    wd(&x, TRNSCI__V1__DATA_TYPE__C_32F, "ik", e34, NULL);
    expect_plan(&x, &b, &d, 0, TRN_WIRE_UNIMPLEMENTED, "A has data type C_32F and D R_32F");
    wd(&x, R64, "ik", e34, NULL);
    expect_plan(&x, &b, &d, 0, TRN_WIRE_UNIMPLEMENTED, "A has data type R_64F and D R_32F");
    /* exactly 16 modes pass */
    wd(&x, R32, "abcdefghijklmnop", ones, NULL);
    wd(&a, R32, "abcdefghijklmnop", ones, NULL);
    wd(&d, R32, "", ones, NULL);
    expect_plan(&x, &a, &d, 0, TRN_WIRE_OK, NULL);
}

/* The mapping of "A,B->D" with the given strides (NULL: packed). */
static void map(const char *ma, const int64_t *sa, const char *mb, const int64_t *sb,
                const char *md, const int64_t *sdd, const int64_t *ext_of_letter,
                trn_tensor_plan *p) {
    wdesc a, b, d;
    int64_t ea[8], eb[8], ed[8];
    for (size_t i = 0; i < strlen(ma); i++)
        ea[i] = ext_of_letter[ma[i] - 'a'];
    for (size_t i = 0; i < strlen(mb); i++)
        eb[i] = ext_of_letter[mb[i] - 'a'];
    for (size_t i = 0; i < strlen(md); i++)
        ed[i] = ext_of_letter[md[i] - 'a'];
    wd(&a, R64, ma, ea, sa);
    wd(&b, R64, mb, eb, sb);
    wd(&d, R64, md, ed, sdd);
    trn_plan_spec s;
    char err[256];
    if (plan_of(&a, &b, &d, 0, &s, err) != TRN_WIRE_OK)
        fail_msg("%s,%s->%s: %s", ma, mb, md, err);
    assert_int_equal(trn_tensor_plan_make(&s.u.tensor, p, err, sizeof(err)), 0);
}

static const int64_t ext[26] = {5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17,
                                18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30};

static void test_mapping(void **state) {
    (void)state;
    trn_tensor_plan p;
    /* a plain GEMM: everything in place, N N */
    map("ik", NULL, "kj", NULL, "ij", NULL, ext, &p);
    assert_false(p.swap || p.x.packed || p.y.packed || p.d.packed);
    assert_int_equal(p.x.trans, TRN_TRANS_N);
    assert_int_equal(p.m, ext['i' - 'a']);
    /* A transposed in memory: trans T in place */
    map("ki", NULL, "kj", NULL, "ij", NULL, ext, &p);
    assert_false(p.x.packed);
    assert_int_equal(p.x.trans, TRN_TRANS_T);
    /* D stored with j fastest: swapped roles, D in place */
    map("ik", NULL, "kj", NULL, "ji", NULL, ext, &p);
    assert_true(p.swap);
    assert_false(p.d.packed);
    /* batch in the middle and summed modes that fuse */
    map("bik", NULL, "bkj", NULL, "bij", NULL, ext, &p);
    assert_int_equal(p.nbatch, ext['b' - 'a']);
    assert_true(p.x.packed); /* b fastest in A: neither i nor k has stride 1 */
    /* rows split around a column mode in D: n is peeled into the batch
     * loop, everything in place */
    map("pmn", NULL, "mi", NULL, "pin", NULL, ext, &p);
    assert_false(p.swap || p.x.packed || p.y.packed || p.d.packed);
    assert_int_equal(p.k, ext['m' - 'a']);
    assert_int_equal(p.m, ext['p' - 'a']);
    assert_int_equal(p.nbatch, ext['n' - 'a']);
    /* rows too narrow to peel: D packed instead */
    int64_t narrow[26];
    memcpy(narrow, ext, sizeof(narrow));
    narrow['p' - 'a'] = 4;
    map("pmn", NULL, "mi", NULL, "pin", NULL, narrow, &p);
    assert_true(p.x.packed || p.d.packed || p.swap);
}

/* ---- element-wise and reduction ops through trn_validate_op ---------------------- */

/* The shared fixture's checks, one call for both outcomes: OK with nrefs
 * buffer references held, or code with needle in the message. */
static void expect(fx *f, trn_session *s, const Trnsci__V1__Op *op, trn_wire_code code,
                   const char *needle, int nrefs) {
    if (code == TRN_WIRE_OK)
        vf_expect_ok(f, s, op, nrefs);
    else
        vf_expect_err(f, s, op, code, needle ? needle : "");
}

static Trnsci__V1__BufferRef ref(uint64_t id, uint64_t off) {
    Trnsci__V1__BufferRef r = TRNSCI__V1__BUFFER_REF__INIT;
    r.buffer_id = id;
    r.offset = off;
    return r;
}

static void test_elementwise(void **state) {
    fx *f = *state;
    /* D[a,b] (3 x 4, strides 1, 4: span 15) = alpha A[b,a] (packed 12) + gamma C[b] */
    const int64_t eab[] = {3, 4}, eba[] = {4, 3}, eb[] = {4}, sd[] = {1, 4};
    wdesc a, c, d;
    wd(&a, R32, "ba", eba, NULL);
    wd(&c, R32, "b", eb, NULL);
    wd(&d, R32, "ab", eab, sd);
    const uint64_t ba = vf_alloc(f->s1, 12 * 4), bc = vf_alloc(f->s1, 4 * 4),
                   bd = vf_alloc(f->s1, 15 * 4);
    /* a buffer id of the other session only (ids are per session) */
    uint64_t other = 0;
    for (int i = 0; i < 10; i++)
        other = vf_alloc(f->s2, 64);
    Trnsci__V1__BufferRef ra = ref(ba, 0), rc = ref(bc, 0), rd = ref(bd, 0);
    Trnsci__V1__TensorElementwiseOp w = TRNSCI__V1__TENSOR_ELEMENTWISE_OP__INIT;
    w.a = &a.w;
    w.c = &c.w;
    w.d = &d.w;
    w.op_abc = 3;
    w.a_data = &ra;
    w.c_data = &rc;
    w.d_data = &rd;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_TENSOR_ELEMENTWISE;
    op.tensor_elementwise = &w;
    expect(f, f->s1, &op, TRN_WIRE_OK, NULL, 3);
    assert_int_equal(f->desc.u.tensor_ew.elements, 12);
    /* D one element short */
    const uint64_t small = vf_alloc(f->s1, 14 * 4);
    rd = ref(small, 0);
    expect(f, f->s1, &op, TRN_WIRE_INVALID_ARGUMENT, "tensor elementwise: D", 0);
    rd = ref(bd, 2); /* misaligned */
    expect(f, f->s1, &op, TRN_WIRE_INVALID_ARGUMENT, "tensor elementwise: D", 0);
    rd = ref(bd, 0);
    ra = ref(other, 0); /* another session's buffer */
    expect(f, f->s1, &op, TRN_WIRE_INVALID_ARGUMENT, "tensor elementwise: A", 0);
    ra = ref(ba, 0);
    w.op_abc = 4;
    expect(f, f->s1, &op, TRN_WIRE_INVALID_ARGUMENT, "ADD, MUL, MAX or MIN", 0);
    w.op_abc = 6;
    a.w.op = 13; /* not a cutensorOperator_t */
    expect(f, f->s1, &op, TRN_WIRE_INVALID_ARGUMENT, "unary", 0);
    a.w.op = 0;
    const int64_t e5[] = {5};
    wdesc c5;
    wd(&c5, R32, "b", e5, NULL);
    w.c = &c5.w;
    expect(f, f->s1, &op, TRN_WIRE_INVALID_ARGUMENT, "extent 5 in C but 4 in D", 0);
    wd(&c5, R32, "z", eb, NULL);
    expect(f, f->s1, &op, TRN_WIRE_INVALID_ARGUMENT, "not a mode of D", 0);
    w.c = &c.w;
    const int64_t overlap[] = {1, 2};
    wdesc dov;
    wd(&dov, R32, "ab", eab, overlap);
    w.d = &dov.w;
    expect(f, f->s1, &op, TRN_WIRE_INVALID_ARGUMENT, "overlap", 0);
    w.d = &d.w;
    w.compute = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_16BF;
    expect(f, f->s1, &op, TRN_WIRE_UNIMPLEMENTED, "contractions only", 0);
    w.compute = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_64F;
    expect(f, f->s1, &op, TRN_WIRE_INVALID_ARGUMENT, "takes R_64F", 0);
    w.compute = 0;
    expect(f, f->s1, &op, TRN_WIRE_OK, NULL, 3);
}

/* Padding of a permutation's output (protocol 1.14): D's extents are the
 * padded ones, A's are D's less both counts; counts one per mode of D,
 * >= 0, leaving one position; permutations only; D's memory is checked at
 * its padded span. */
static void test_permute_padding(void **state) {
    fx *f = *state;
    /* A[b,a] 4 x 3 -> D[a,b] (3 + 1 + 2) x (4 + 0 + 1) = 6 x 5 */
    const int64_t eba[] = {4, 3}, ed[] = {6, 5}, eb[] = {5};
    wdesc a, d, c;
    wd(&a, R32, "ba", eba, NULL);
    wd(&d, R32, "ab", ed, NULL);
    wd(&c, R32, "b", eb, NULL);
    const uint64_t ba = vf_alloc(f->s1, 12 * 4), bd = vf_alloc(f->s1, 30 * 4),
                   small = vf_alloc(f->s1, 29 * 4), bc = vf_alloc(f->s1, 5 * 4);
    Trnsci__V1__BufferRef ra = ref(ba, 0), rd = ref(bd, 0), rc = ref(bc, 0);
    int64_t left[2] = {1, 0}, right[2] = {2, 1};
    Trnsci__V1__Scalar pv = TRNSCI__V1__SCALAR__INIT;
    pv.re = 7.0;
    Trnsci__V1__TensorElementwiseOp w = TRNSCI__V1__TENSOR_ELEMENTWISE_OP__INIT;
    w.a = &a.w;
    w.d = &d.w;
    w.a_data = &ra;
    w.d_data = &rd;
    w.n_pad_left = w.n_pad_right = 2;
    w.pad_left = left;
    w.pad_right = right;
    w.pad_value = &pv;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_TENSOR_ELEMENTWISE;
    op.tensor_elementwise = &w;
    expect(f, f->s1, &op, TRN_WIRE_OK, NULL, 2);
    const trn_tensor_ew_desc *e = &f->desc.u.tensor_ew;
    assert_int_equal(e->padded, 1);
    assert_int_equal(e->elements, 30);
    assert_int_equal(e->pad_lo[0], 1);
    assert_int_equal(e->pad_hi[0], 4);
    assert_int_equal(e->pad_hi[1], 4);
    assert_true(e->pad_value.re == 7.0);
    rd = ref(small, 0); /* D checked at its padded span */
    expect(f, f->s1, &op, TRN_WIRE_INVALID_ARGUMENT, "tensor elementwise: D", 0);
    rd = ref(bd, 0);
    right[0] = 1; /* A's extent 3 no longer fits D's 6 less 1 + 1 */
    expect(f, f->s1, &op, TRN_WIRE_INVALID_ARGUMENT, "extent 3 in A but 4 in D", 0);
    right[0] = -1;
    expect(f, f->s1, &op, TRN_WIRE_INVALID_ARGUMENT, "must be >= 0", 0);
    right[0] = 5; /* 1 + 5 = 6 leaves nothing of mode a */
    expect(f, f->s1, &op, TRN_WIRE_INVALID_ARGUMENT, "leave at least one", 0);
    right[0] = INT64_MAX; /* no overflow in the check */
    expect(f, f->s1, &op, TRN_WIRE_INVALID_ARGUMENT, "leave at least one", 0);
    right[0] = 2;
    w.n_pad_right = 1;
    expect(f, f->s1, &op, TRN_WIRE_INVALID_ARGUMENT, "D has 2 modes", 0);
    w.n_pad_right = 2;
    w.c = &c.w; /* not a permutation */
    w.c_data = &rc;
    w.op_abc = 3;
    expect(f, f->s1, &op, TRN_WIRE_INVALID_ARGUMENT, "permutation only", 0);
}

static void test_reduction(void **state) {
    fx *f = *state;
    /* D[b] = sum_a A[a,b] (3 x 4) + beta C[b] */
    const int64_t eab[] = {3, 4}, eb[] = {4}, sb2[] = {2};
    wdesc a, c, d, cbad;
    wd(&a, R64, "ab", eab, NULL);
    wd(&c, R64, "b", eb, NULL);
    wd(&d, R64, "b", eb, NULL);
    wd(&cbad, R64, "b", eb, sb2);
    const uint64_t ba = vf_alloc(f->s1, 12 * 8), bc = vf_alloc(f->s1, 4 * 8),
                   bd = vf_alloc(f->s1, 4 * 8);
    Trnsci__V1__BufferRef ra = ref(ba, 0), rc = ref(bc, 0), rd = ref(bd, 0);
    Trnsci__V1__Scalar one = TRNSCI__V1__SCALAR__INIT;
    one.re = 1.0;
    Trnsci__V1__TensorReductionOp w = TRNSCI__V1__TENSOR_REDUCTION_OP__INIT;
    w.a = &a.w;
    w.c = &c.w;
    w.d = &d.w;
    w.op_reduce = 3;
    w.alpha = &one;
    w.a_data = &ra;
    w.c_data = &rc;
    w.d_data = &rd;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_TENSOR_REDUCTION;
    op.tensor_reduction = &w;
    expect(f, f->s1, &op, TRN_WIRE_OK, NULL, 2); /* beta = 0: C not resolved */
    assert_int_equal(f->desc.u.tensor_ew.reduced, 3);
    w.beta = &one;
    expect(f, f->s1, &op, TRN_WIRE_OK, NULL, 3);
    w.c = &cbad.w;
    expect(f, f->s1, &op, TRN_WIRE_INVALID_ARGUMENT, "C must have D's", 0);
    w.c = &c.w;
    w.op_reduce = 1;
    expect(f, f->s1, &op, TRN_WIRE_INVALID_ARGUMENT, "opReduce", 0);
    w.op_reduce = 7;
    const int64_t e5[] = {5};
    wdesc d5;
    wd(&d5, R64, "c", e5, NULL);
    w.d = &d5.w;
    w.c = NULL;
    expect(f, f->s1, &op, TRN_WIRE_INVALID_ARGUMENT, "not a mode of A", 0);
    /* A of the other type: reductions take one data type */
    wd(&a, R32, "ab", eab, NULL);
    w.d = &d.w;
    expect(f, f->s1, &op, TRN_WIRE_UNIMPLEMENTED, "A has data type R_32F and D R_64F", 0);
}

/* A permutation B[c,a,b] = alpha A[a,b,c] (3 x 4 x 5) between types ta and
 * tb, with buffers of exactly the operands' size. */
typedef struct pconv {
    wdesc a, d;
    Trnsci__V1__BufferRef ra, rd;
    Trnsci__V1__TensorElementwiseOp w;
    Trnsci__V1__Op op;
    uint64_t ba, bd;
} pconv;

static void pconv_make(fx *f, pconv *p, Trnsci__V1__DataType ta, Trnsci__V1__DataType tb) {
    const int64_t eabc[] = {3, 4, 5}, ecab[] = {5, 3, 4};
    wd(&p->a, ta, "abc", eabc, NULL);
    wd(&p->d, tb, "cab", ecab, NULL);
    p->ba = vf_alloc(f->s1, 60 * (ta == R64 ? 8 : 4));
    p->bd = vf_alloc(f->s1, 60 * (tb == R64 ? 8 : 4));
    p->ra = ref(p->ba, 0);
    p->rd = ref(p->bd, 0);
    Trnsci__V1__TensorElementwiseOp w = TRNSCI__V1__TENSOR_ELEMENTWISE_OP__INIT;
    p->w = w;
    p->w.a = &p->a.w;
    p->w.d = &p->d.w;
    p->w.a_data = &p->ra;
    p->w.d_data = &p->rd;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    p->op = op;
    p->op.kind_case = TRNSCI__V1__OP__KIND_TENSOR_ELEMENTWISE;
    p->op.tensor_elementwise = &p->w;
}

static void test_permute_convert(void **state) {
    fx *f = *state;
    pconv p;
    /* 64F -> 32F: D is 60 floats (240 bytes), A 60 doubles */
    pconv_make(f, &p, R64, R32);
    expect(f, f->s1, &p.op, TRN_WIRE_OK, NULL, 2);
    const trn_tensor_ew_desc *e = &f->desc.u.tensor_ew;
    assert_int_equal(e->type, TRN_DTYPE_R32F);
    assert_int_equal(e->type_a, TRN_DTYPE_R64F);
    assert_int_equal(e->compute, TRN_COMPUTE_64F); /* DEFAULT */
    assert_int_equal(e->elements, 60);
    p.w.compute = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F;
    expect(f, f->s1, &p.op, TRN_WIRE_OK, NULL, 2);
    assert_int_equal(e->compute, TRN_COMPUTE_32F);
    p.w.compute = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_64F;
    expect(f, f->s1, &p.op, TRN_WIRE_OK, NULL, 2);
    assert_int_equal(e->compute, TRN_COMPUTE_64F);
    p.w.compute = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_16BF;
    expect(f, f->s1, &p.op, TRN_WIRE_UNIMPLEMENTED, "contractions only", 0);
    p.w.compute = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_64F_EMULATED;
    expect(f, f->s1, &p.op, TRN_WIRE_UNIMPLEMENTED, "contractions only", 0);
    p.w.compute = (Trnsci__V1__ComputeType)99;
    expect(f, f->s1, &p.op, TRN_WIRE_INVALID_ARGUMENT, "not a trnblas compute type", 0);
    p.w.compute = 0;
    /* D at a 4-byte offset: aligned for floats, one float short */
    p.rd = ref(p.bd, 4);
    expect(f, f->s1, &p.op, TRN_WIRE_INVALID_ARGUMENT, "tensor elementwise: D", 0);
    p.rd = ref(vf_alloc(f->s1, 61 * 4), 4);
    expect(f, f->s1, &p.op, TRN_WIRE_OK, NULL, 2);
    /* A one double short, and at a 4-byte offset (misaligned for doubles) */
    p.rd = ref(p.bd, 0);
    p.ra = ref(vf_alloc(f->s1, 59 * 8 + 4), 0);
    expect(f, f->s1, &p.op, TRN_WIRE_INVALID_ARGUMENT, "tensor elementwise: A", 0);
    p.ra = ref(vf_alloc(f->s1, 61 * 8), 4);
    expect(f, f->s1, &p.op, TRN_WIRE_INVALID_ARGUMENT, "tensor elementwise: A", 0);
    p.ra = ref(p.ba, 0);
    /* A and D overlapping (a conversion cannot run in place); apart in one
     * buffer they may be */
    const uint64_t both = vf_alloc(f->s1, 60 * 8 + 60 * 4);
    p.ra = ref(both, 0);
    p.rd = ref(both, 60 * 8 - 4);
    expect(f, f->s1, &p.op, TRN_WIRE_INVALID_ARGUMENT, "overlap", 0);
    p.rd = ref(both, 60 * 8);
    expect(f, f->s1, &p.op, TRN_WIRE_OK, NULL, 2);
    p.rd = ref(both, 0);
    p.ra = ref(both, 60 * 4);
    expect(f, f->s1, &p.op, TRN_WIRE_OK, NULL, 2);
    p.ra = ref(both, 60 * 4 - 8);
    expect(f, f->s1, &p.op, TRN_WIRE_INVALID_ARGUMENT, "cannot run in place", 0);
    p.ra = ref(p.ba, 0);
    p.rd = ref(p.bd, 0);
    /* complex A, complex D, an unknown type */
    p.a.w.type = TRNSCI__V1__DATA_TYPE__C_64F;
    expect(f, f->s1, &p.op, TRN_WIRE_UNIMPLEMENTED, "A has data type C_64F and D R_32F", 0);
    p.a.w.type = R64;
    p.d.w.type = TRNSCI__V1__DATA_TYPE__C_32F;
    expect(f, f->s1, &p.op, TRN_WIRE_UNIMPLEMENTED, "converts between R_32F and R_64F only", 0);
    p.d.w.type = R32;
    p.a.w.type = (Trnsci__V1__DataType)9;
    expect(f, f->s1, &p.op, TRN_WIRE_INVALID_ARGUMENT, "data type 9", 0);
    p.a.w.type = R64;
    /* a C operand makes it a binary op: one data type */
    wdesc c;
    const int64_t e5[] = {5};
    wd(&c, R64, "c", e5, NULL);
    Trnsci__V1__BufferRef rc = ref(vf_alloc(f->s1, 5 * 8), 0);
    p.w.c = &c.w;
    p.w.c_data = &rc;
    p.w.op_abc = 3;
    expect(f, f->s1, &p.op, TRN_WIRE_UNIMPLEMENTED, "A has data type R_64F and D R_32F", 0);
    wd(&c, R32, "c", e5, NULL);
    expect(f, f->s1, &p.op, TRN_WIRE_UNIMPLEMENTED, "A has data type R_64F and D R_32F", 0);
    /* ... and a B makes it trinary: B of the other type */
    wdesc b;
    wd(&b, R64, "c", e5, NULL);
    p.a.w.type = R32;
    p.w.b = &b.w;
    p.w.b_data = &rc;
    p.w.op_ab = 3;
    expect(f, f->s1, &p.op, TRN_WIRE_UNIMPLEMENTED, "B has data type R_64F and D R_32F", 0);
    p.w.b = NULL;
    p.w.c = NULL;

    /* 32F -> 64F: D is 60 doubles */
    pconv q;
    pconv_make(f, &q, R32, R64);
    expect(f, f->s1, &q.op, TRN_WIRE_OK, NULL, 2);
    assert_int_equal(f->desc.u.tensor_ew.type, TRN_DTYPE_R64F);
    assert_int_equal(f->desc.u.tensor_ew.type_a, TRN_DTYPE_R32F);
    q.ra = ref(q.ba, 4); /* floats: 4-byte offset aligned, but one short */
    expect(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "tensor elementwise: A", 0);
    q.ra = ref(q.ba, 0);
    q.rd = ref(vf_alloc(f->s1, 59 * 8 + 4), 0);
    expect(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "tensor elementwise: D", 0);

    /* The byte count of D (2^61 + 1 elements, broadcast from a scalar A)
     * overflows as R_64F but not as R_32F (then D is merely too large). */
    const int64_t huge[] = {(INT64_C(1) << 61) + 1};
    wdesc s0, dh;
    wd(&s0, R32, "", huge, NULL);
    wd(&dh, R64, "x", huge, NULL);
    Trnsci__V1__BufferRef rs = ref(vf_alloc(f->s1, 8), 0), rh = ref(q.bd, 0);
    Trnsci__V1__TensorElementwiseOp wh = TRNSCI__V1__TENSOR_ELEMENTWISE_OP__INIT;
    wh.a = &s0.w;
    wh.d = &dh.w;
    wh.a_data = &rs;
    wh.d_data = &rh;
    Trnsci__V1__Op oh = TRNSCI__V1__OP__INIT;
    oh.kind_case = TRNSCI__V1__OP__KIND_TENSOR_ELEMENTWISE;
    oh.tensor_elementwise = &wh;
    expect(f, f->s1, &oh, TRN_WIRE_INVALID_ARGUMENT, "D: its extent in bytes overflows", 0);
    dh.w.type = R32;
    s0.w.type = R64;
    vf_expect_err(f, f->s1, &oh, TRN_WIRE_INVALID_ARGUMENT, "tensor elementwise: D");
    if (strstr(f->err, "overflows"))
        fail_msg("2^61 + 1 floats do not overflow a byte count: %s", f->err);
    /* and the same for A (a vector of 2^61 + 1 elements into a D that
     * broadcasts nothing: A's modes must be D's, so D is as large) */
    wd(&dh, R32, "x", huge, NULL);
    wdesc ah;
    wd(&ah, R64, "x", huge, NULL);
    wh.a = &ah.w;
    expect(f, f->s1, &oh, TRN_WIRE_INVALID_ARGUMENT, "A: its extent in bytes overflows", 0);

    /* contractions take one data type */
    const int64_t e34[] = {3, 4}, e45[] = {4, 5}, e35[] = {3, 5};
    wdesc ca, cb, cd;
    wd(&ca, R32, "ik", e34, NULL);
    wd(&cb, R64, "kj", e45, NULL);
    wd(&cd, R32, "ij", e35, NULL);
    expect_plan(&ca, &cb, &cd, 0, TRN_WIRE_UNIMPLEMENTED, "B has data type R_64F and D R_32F");
}

/* ---- the permutation kernel ------------------------------------------------------------ */

/* The documented value of one element: a rounded to the compute type,
 * alpha opA(a) in double, rounded to the compute type, then to D's. */
static double perm_ref(double x, int c32, double alpha, int sqrt_op) {
    if (c32)
        x = (float)x;
    double v = alpha * (sqrt_op ? sqrt(x) : x);
    if (c32)
        v = (float)v;
    return v;
}

/* Runs one permutation of A (modes "abcd", extents 5 x 3 x 4 x 6) into D
 * with modes dm, in `layout` (0 packed, 1 padded), against perm_ref. */
static void perm_case(trn_dtype ta, trn_dtype td, int c32, double alpha, int op, const char *dm,
                      int layout) {
    static const int64_t ext[4] = {5, 3, 4, 6};
    trn_tensor_ew_desc d;
    memset(&d, 0, sizeof(d));
    d.type = td;
    d.type_a = ta;
    d.compute = c32 ? TRN_COMPUTE_32F : TRN_COMPUTE_64F;
    d.op_a = op;
    d.alpha.re = alpha;
    d.nmodes = 4;
    d.reduced = 1;
    d.elements = 5 * 3 * 4 * 6;
    /* A's strides (mode order abcd), padded by one element per mode */
    int64_t sa_abcd[4], s = 1;
    for (int i = 0; i < 4; i++) {
        sa_abcd[i] = s;
        s *= ext[i] + layout;
    }
    const size_t na = (size_t)s;
    s = 1;
    for (int i = 0; i < 4; i++) {
        const int m = dm[i] - 'a';
        d.extent[i] = ext[m];
        d.stride_d[i] = s;
        d.stride_a[i] = sa_abcd[m];
        s *= ext[m] + layout;
    }
    const size_t nd = (size_t)s;
    const size_t esa = ta == TRN_DTYPE_R32F ? 4 : 8, esd = td == TRN_DTYPE_R32F ? 4 : 8;
    char *a = malloc(na * esa), *ref = malloc(nd * esd), *out = malloc(nd * esd);
    for (size_t i = 0; i < na; i++) {
        /* positive (sqrt), with bits below FP32's precision */
        const double v = 0.5 + fabs(sin((double)i * 0.37)) * 3.0 + (double)i * 0x1p-40;
        if (ta == TRN_DTYPE_R32F)
            ((float *)a)[i] = (float)v;
        else
            ((double *)a)[i] = v;
    }
    memset(ref, 0x5a, nd * esd);
    for (size_t e = 0; e < d.elements; e++) {
        size_t t = e, oa = 0, od = 0;
        for (int i = 0; i < 4; i++) {
            const size_t k = t % (size_t)d.extent[i];
            t /= (size_t)d.extent[i];
            oa += k * (size_t)d.stride_a[i];
            od += k * (size_t)d.stride_d[i];
        }
        const double x = ta == TRN_DTYPE_R32F ? ((float *)a)[oa] : ((double *)a)[oa];
        const double v = perm_ref(x, c32, alpha, op == 2);
        if (td == TRN_DTYPE_R32F)
            ((float *)ref)[od] = (float)v;
        else
            ((double *)ref)[od] = v;
    }
    d.a = a;
    d.d = out;
    const int counts[] = {1, 2, 3, 7};
    for (int c = 0; c < 4; c++) {
        memset(out, 0x5a, nd * esd);
        for (int sh = 0; sh < counts[c]; sh++)
            assert_int_equal(trn_cpu_tensor_ew(&d, sh, counts[c]), TRN_KSTATUS_OK);
        if (memcmp(out, ref, nd * esd) != 0)
            fail_msg("%s -> %s (%s) compute %s alpha %g op %d layout %d: %d shards differ from the "
                     "formula",
                     ta == TRN_DTYPE_R32F ? "32F" : "64F", td == TRN_DTYPE_R32F ? "32F" : "64F", dm,
                     c32 ? "32F" : "64F", alpha, op, layout, counts[c]);
    }
    free(a);
    free(ref);
    free(out);
}

static void test_permute_kernel(void **state) {
    (void)state;
    const trn_dtype f32 = TRN_DTYPE_R32F, f64 = TRN_DTYPE_R64F;
    const char *orders[] = {"abcd", "dbca", "bacd"};
    for (int o = 0; o < 3; o++)
        for (int layout = 0; layout < 2; layout++)
            for (int op = 1; op <= 2; op++)
                for (int k = 0; k < 2; k++) {
                    const double alpha = k ? 0.7 : 1.0;
                    perm_case(f64, f32, 0, alpha, op, orders[o], layout);
                    perm_case(f64, f32, 1, alpha, op, orders[o], layout);
                    perm_case(f32, f64, 0, alpha, op, orders[o], layout);
                    perm_case(f32, f64, 1, alpha, op, orders[o], layout);
                    perm_case(f32, f32, 1, alpha, op, orders[o], layout);
                    perm_case(f64, f64, 0, alpha, op, orders[o], layout);
                }
}

/* ---- the contraction kernel's split ------------------------------------------------ */

static void contract_split(const char *ma, const int64_t *sa, const char *mb, const char *md,
                           const int64_t *sdd, const int64_t *extents) {
    trn_tensor_plan p;
    map(ma, sa, mb, NULL, md, sdd, extents, &p);
    const trn_tensor_contract_spec *s = &p.spec;
    const size_t na = trn_tensor_span(&s->a), nb = trn_tensor_span(&s->b),
                 nd = trn_tensor_span(&s->d);
    double *a = malloc(na * 8), *b = malloc(nb * 8), *ref = malloc(nd * 8), *d = malloc(nd * 8);
    for (size_t i = 0; i < na; i++)
        a[i] = sin((double)i);
    for (size_t i = 0; i < nb; i++)
        b[i] = cos((double)i * 0.7);
    for (size_t i = 0; i < nd; i++)
        ref[i] = (double)i;
    trn_tensor_contract_desc desc = {.plan = &p,
                                     .type = TRN_DTYPE_R64F,
                                     .alpha = {1.5, 0},
                                     .beta = {0.5, 0},
                                     .a = a,
                                     .b = b,
                                     .c = ref,
                                     .d = ref};
    assert_int_equal(trn_cpu_tensor_contract(&desc, NULL, 0, 1), TRN_KSTATUS_OK);
    const int counts[] = {2, 3, 5};
    for (int c = 0; c < 3; c++) {
        for (size_t i = 0; i < nd; i++)
            d[i] = (double)i;
        desc.c = desc.d = d;
        for (int sh = 0; sh < counts[c]; sh++)
            assert_int_equal(trn_cpu_tensor_contract(&desc, NULL, sh, counts[c]), TRN_KSTATUS_OK);
        if (memcmp(d, ref, nd * 8) != 0)
            fail_msg("%s,%s->%s: %d shards differ from one", ma, mb, md, counts[c]);
    }
    free(a);
    free(b);
    free(ref);
    free(d);
}

static void test_kernel_split(void **state) {
    (void)state;
    openblas_set_num_threads(1);
    int64_t e[26];
    for (int i = 0; i < 26; i++)
        e[i] = 7 + i % 5;
    e['j' - 'a'] = 100; /* several column blocks */
    e['n' - 'a'] = 60;
    const int64_t sa[] = {3, 1}; /* rows and summed modes of A interleaved: packed X */
    contract_split("ik", sa, "kj", "ij", NULL, e);
    contract_split("ik", NULL, "kj", "ji", NULL, e);   /* swapped */
    contract_split("pmn", NULL, "mi", "pin", NULL, e); /* packed D (or swapped) */
    const int64_t sdd[] = {1, 11, 11 * 9};             /* padded batch-in-the-middle D */
    contract_split("bik", NULL, "bkj", "ibj", sdd, e);
}

/* A packed layout of the modes in m with extents from ext[label - 'a']. */
static trn_tensor_layout tri_layout(const char *m, const int64_t *ext) {
    trn_tensor_layout l = {0};
    int64_t s = 1;
    for (; m[l.nmodes]; l.nmodes++) {
        const int i = l.nmodes;
        l.mode[i] = m[i];
        l.extent[i] = ext[m[i] - 'a'];
        l.stride[i] = s;
        s *= l.extent[i];
    }
    return l;
}

static void test_trinary_plan(void **state) {
    (void)state;
    trn_tensor_trinary_plan *p = malloc(sizeof(*p));
    assert_non_null(p);
    char err[256];
    const int conj[3] = {0, 0, 0};
    /* i=3, j=40, k=40, l=2: A_ij B_jk C_kl -> E_il; (B C) A costs
     * 40*40*2 + 2*40*3 = 3440, (A B) C 3*40*40 + 3*40*2 = 5040. */
    int64_t ext[26] = {0};
    ext['i' - 'a'] = 3, ext['j' - 'a'] = 40, ext['k' - 'a'] = 40, ext['l' - 'a'] = 2;
    trn_tensor_layout a = tri_layout("ij", ext), b = tri_layout("jk", ext),
                      c = tri_layout("kl", ext), e = tri_layout("il", ext);
    assert_int_equal(trn_tensor_trinary_make(TRN_DTYPE_R64F, TRN_COMPUTE_64F, &a, &b, &c, &e, conj,
                                             p, err, sizeof(err)),
                     0);
    assert_int_equal(p->last, 0);
    assert_int_equal(p->t.nmodes, 2); /* l (E's), then j (A's) */
    assert_int_equal(p->t.mode[0], 'l');
    assert_int_equal(p->t.mode[1], 'j');
    assert_int_equal(p->t_elements, 80);
    ext['i' - 'a'] = 2, ext['l' - 'a'] = 3;
    a = tri_layout("ij", ext), c = tri_layout("kl", ext), e = tri_layout("il", ext);
    assert_int_equal(trn_tensor_trinary_make(TRN_DTYPE_R32F, TRN_COMPUTE_32F, &a, &b, &c, &e, conj,
                                             p, err, sizeof(err)),
                     0);
    assert_int_equal(p->last, 2);
    /* a mode in all three inputs stays in T and is summed second */
    ext['a' - 'a'] = 4, ext['b' - 'a'] = 5, ext['c' - 'a'] = 6, ext['k' - 'a'] = 9;
    trn_tensor_layout x = tri_layout("ak", ext), y = tri_layout("bk", ext),
                      z = tri_layout("ck", ext), o = tri_layout("abc", ext);
    assert_int_equal(trn_tensor_trinary_make(TRN_DTYPE_R32F, TRN_COMPUTE_32F, &x, &y, &z, &o, conj,
                                             p, err, sizeof(err)),
                     0);
    assert_int_equal(p->last, 2);
    assert_int_equal(p->t.nmodes, 3); /* a, b, k */
    assert_int_equal(p->t.mode[2], 'k');
    /* rules */
    ext['q' - 'a'] = 2;
    trn_tensor_layout q = tri_layout("iq", ext);
    assert_int_equal(trn_tensor_trinary_make(TRN_DTYPE_R32F, TRN_COMPUTE_32F, &a, &b, &c, &q, conj,
                                             p, err, sizeof(err)),
                     -1);
    assert_non_null(strstr(err, "in none of A, B, C"));
    trn_tensor_layout a5 = a;
    a5.extent[1] = 5;
    assert_int_equal(trn_tensor_trinary_make(TRN_DTYPE_R32F, TRN_COMPUTE_32F, &a5, &b, &c, &e, conj,
                                             p, err, sizeof(err)),
                     -1);
    assert_non_null(strstr(err, "has extent"));
    trn_tensor_layout ax = tri_layout("iq", ext);
    assert_int_equal(trn_tensor_trinary_make(TRN_DTYPE_R32F, TRN_COMPUTE_32F, &ax, &b, &c, &e, conj,
                                             p, err, sizeof(err)),
                     -2);
    assert_non_null(strstr(err, "in no other operand"));
    free(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contraction_specs),
        cmocka_unit_test(test_mapping),
        cmocka_unit_test_setup_teardown(test_elementwise, vf_setup, vf_teardown),
        cmocka_unit_test_setup_teardown(test_permute_padding, vf_setup, vf_teardown),
        cmocka_unit_test_setup_teardown(test_reduction, vf_setup, vf_teardown),
        cmocka_unit_test_setup_teardown(test_permute_convert, vf_setup, vf_teardown),
        cmocka_unit_test(test_permute_kernel),
        cmocka_unit_test(test_kernel_split),
        cmocka_unit_test(test_trinary_plan),
    };
    return cmocka_run_group_tests_name("validate_tensor", tests, NULL, NULL);
}
