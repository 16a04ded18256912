/*
 * test_validate_kit.c — the validators' kit (ops/validate/kit.h) and
 * context (ops/validate/validate.h) on their own, against a table of fake
 * buffers: no daemon, session or kernel.
 *
 *  - overflow at every boundary: a matrix or vector whose byte extent is
 *    exactly 2^64 - 1 passes the arithmetic (and fails only for not fitting
 *    a buffer), one more byte overflows; offset + bytes at 2^64;
 *  - negative increments span |inc| (n - 1) + 1 elements, inc = 0 one;
 *  - ld < rows, ld > INT_MAX, dimensions outside 0..INT_MAX;
 *  - regions: ending exactly at the buffer's end passes, one byte more
 *    fails, offsets past the end, misaligned offsets, buffer 0, unknown
 *    buffers, the 13th region of an op;
 *  - every reference taken is released (on failure at once, on success with
 *    the op's references);
 *  - the enum mappings refuse values outside the enums;
 *  - listed output matrices (trn_vk_disjoint): interleaved layouts that
 *    share no element pass, one shared element (first, last, or a middle
 *    one reached through the leading dimension) fails naming both, whatever
 *    the order of the list; partial-element overlaps count.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "ops/validate/checked.h"
#include "ops/validate/kit.h"

/* ---- a host of fake buffers ------------------------------------------------------- */

#define NBUF 3

typedef struct fake_host {
    uint64_t size[NBUF + 1]; /* buffer id i (1..NBUF) holds size[i] bytes */
    char *base[NBUF + 1];    /* fake addresses, 4096-aligned and far apart */
    int held;                /* references outstanding */
} fake_host;

static void *fake_get(void *ctx, uint64_t id, trn_vbuffer *out) {
    fake_host *h = ctx;
    if (id == 0 || id > NBUF)
        return NULL;
    out->data = h->base[id];
    out->size = h->size[id];
    h->held++;
    return h;
}

static void fake_put(void *held) {
    ((fake_host *)held)->held--;
}

static void *fake_plan_get(void *ctx, uint32_t id, trn_vplan *out) {
    (void)ctx;
    (void)id;
    (void)out;
    return NULL;
}

static void fake_plan_put(void *held) {
    (void)held;
}

static const trn_vhost fake_vhost = {.buffer_get = fake_get,
                                     .buffer_put = fake_put,
                                     .plan_get = fake_plan_get,
                                     .plan_put = fake_plan_put};

typedef struct fx {
    fake_host host;
    trn_op_refs refs;
    char err[256];
    trn_vctx vx;
} fx;

static int setup(void **state) {
    static fx f;
    memset(&f, 0, sizeof(f));
    static char arena[3][64] __attribute__((aligned(4096)));
    for (int i = 1; i <= NBUF; i++)
        f.host.base[i] = arena[i - 1];
    f.host.size[1] = 1000;
    f.host.size[2] = UINT64_MAX; /* a buffer no extent exceeds */
    f.host.size[3] = 64;
    trn_op_refs_init(&f.refs, &fake_vhost);
    f.vx = (trn_vctx){&fake_vhost, &f.host, &f.refs, f.err, sizeof(f.err)};
    *state = &f;
    return 0;
}

static int teardown(void **state) {
    fx *f = *state;
    trn_op_refs_release(&f->refs);
    assert_int_equal(f->host.held, 0);
    return 0;
}

static Trnsci__V1__BufferRef ref_of(uint64_t id, uint64_t off) {
    Trnsci__V1__BufferRef r = TRNSCI__V1__BUFFER_REF__INIT;
    r.buffer_id = id;
    r.offset = off;
    return r;
}

static void expect_msg(const fx *f, const char *needle) {
    if (!strstr(f->err, needle))
        fail_msg("message \"%s\" does not contain \"%s\"", f->err, needle);
}

/* ---- regions ----------------------------------------------------------------------- */

static void test_region_bounds(void **state) {
    fx *f = *state;
    void *p = NULL;
    Trnsci__V1__BufferRef r = ref_of(1, 0);
    /* Exactly the whole buffer; then one byte more. */
    assert_int_equal(trn_vregion(&f->vx, &r, 1000, 1, "t: x", &p), TRN_WIRE_OK);
    assert_ptr_equal(p, f->host.base[1]);
    assert_int_equal(trn_vregion(&f->vx, &r, 1001, 1, "t: x", &p), TRN_WIRE_INVALID_ARGUMENT);
    expect_msg(f, "t: x: needs 1001 bytes at offset 0 but buffer 1 holds 1000 bytes");
    /* Ending exactly at the end from an offset; offset at the end with 0
     * bytes; offset past the end. */
    r = ref_of(1, 992);
    assert_int_equal(trn_vregion(&f->vx, &r, 8, 8, "t: x", &p), TRN_WIRE_OK);
    assert_ptr_equal(p, f->host.base[1] + 992);
    r = ref_of(1, 1000);
    assert_int_equal(trn_vregion(&f->vx, &r, 0, 1, "t: x", &p), TRN_WIRE_OK);
    r = ref_of(1, 1001);
    assert_int_equal(trn_vregion(&f->vx, &r, 0, 1, "t: x", &p), TRN_WIRE_INVALID_ARGUMENT);
    /* offset + bytes reaching 2^64 is refused, not wrapped (buffer 2 holds
     * 2^64 - 1 bytes, so only the sum's overflow can refuse it). */
    r = ref_of(2, UINT64_MAX - 7);
    assert_int_equal(trn_vregion(&f->vx, &r, 8, 1, "t: x", &p), TRN_WIRE_INVALID_ARGUMENT);
    assert_int_equal(trn_vregion(&f->vx, &r, UINT64_MAX, 1, "t: x", &p), TRN_WIRE_INVALID_ARGUMENT);
    /* Alignment: the offset, to the element's component size. */
    r = ref_of(1, 4);
    assert_int_equal(trn_vregion(&f->vx, &r, 8, 8, "t: x", &p), TRN_WIRE_INVALID_ARGUMENT);
    expect_msg(f, "offset 4 is not a multiple of the element size 8");
    assert_int_equal(trn_vregion(&f->vx, &r, 8, 4, "t: x", &p), TRN_WIRE_OK);
    /* Four regions taken (the failures released theirs at once). */
    assert_int_equal(f->refs.n, 4);
    assert_int_equal(f->host.held, 4);
}

static void test_region_buffers(void **state) {
    fx *f = *state;
    void *p = (void *)1;
    /* Buffer 0: NULL for no bytes, an error for some. */
    assert_int_equal(trn_vregion(&f->vx, NULL, 0, 8, "t: x", &p), TRN_WIRE_OK);
    assert_null(p);
    Trnsci__V1__BufferRef r = ref_of(0, 0);
    assert_int_equal(trn_vregion(&f->vx, &r, 1, 1, "t: x", &p), TRN_WIRE_INVALID_ARGUMENT);
    expect_msg(f, "no buffer given but 1 bytes are needed");
    /* A buffer the caller does not have. */
    r = ref_of(NBUF + 1, 0);
    assert_int_equal(trn_vregion(&f->vx, &r, 1, 1, "t: x", &p), TRN_WIRE_INVALID_ARGUMENT);
    expect_msg(f, "buffer 4 does not exist");
    assert_int_equal(f->refs.n, 0);
    assert_int_equal(f->host.held, 0);
    /* At most TRN_OP_MAX_BUFFERS regions, unless the op takes any number. */
    r = ref_of(3, 0);
    for (int i = 0; i < TRN_OP_MAX_BUFFERS; i++)
        assert_int_equal(trn_vregion(&f->vx, &r, 8, 8, "t: x", &p), TRN_WIRE_OK);
    assert_int_equal(trn_vregion(&f->vx, &r, 8, 8, "t: x", &p), TRN_WIRE_INVALID_ARGUMENT);
    expect_msg(f, "too many buffer arguments");
    for (int i = 0; i < 40; i++)
        assert_int_equal(trn_vregion_many(&f->vx, &r, 8, 8, "t: x", &p), TRN_WIRE_OK);
    assert_int_equal(f->refs.n, TRN_OP_MAX_BUFFERS);
    assert_int_equal(f->refs.nmore, 40);
    assert_int_equal(f->host.held, TRN_OP_MAX_BUFFERS + 40);
    trn_op_refs_release(&f->refs);
    assert_int_equal(f->host.held, 0);
    assert_int_equal(f->refs.n + f->refs.nmore, 0);
}

/* ---- extents ------------------------------------------------------------------------ */

static void test_matrix_extent(void **state) {
    fx *f = *state;
    void *p;
    Trnsci__V1__BufferRef big = ref_of(2, 0), small = ref_of(1, 0);
    /* ((cols-1) ld + rows) es: 3 x 4 doubles with ld 5 span 18 elements. */
    uint64_t b;
    assert_int_equal(ck_matrix_bytes(3, 4, 5, 8, &b), 0);
    assert_int_equal(b, 144);
    assert_int_equal(trn_vk_matrix(&f->vx, &small, 3, 4, 5, 8, 8, "t", "A", &p), TRN_WIRE_OK);
    /* Empty: no bytes, and NULL without a buffer. */
    assert_int_equal(trn_vk_matrix(&f->vx, NULL, 0, 4, 1, 8, 8, "t", "A", &p), TRN_WIRE_OK);
    assert_null(p);
    assert_int_equal(trn_vk_matrix(&f->vx, NULL, 3, 0, 3, 8, 8, "t", "A", &p), TRN_WIRE_OK);
    /* The largest matrix int dimensions allow spans (2^31-2)(2^31-1) +
     * 2^31-1 = 4611686014132420609 elements: 2^64 - 17179869180 bytes in
     * 4-byte elements, which fits, and twice that in 8-byte ones, which does
     * not. */
    assert_int_equal(trn_vk_matrix(&f->vx, &big, INT_MAX, INT_MAX, INT_MAX, 4, 4, "t", "A", &p),
                     TRN_WIRE_OK);
    assert_int_equal(ck_matrix_bytes(INT_MAX, INT_MAX, INT_MAX, 4, &b), 0);
    assert_int_equal(b, UINT64_MAX - 17179869179u);
    assert_int_equal(trn_vk_matrix(&f->vx, &big, INT_MAX, INT_MAX, INT_MAX, 8, 8, "t", "A", &p),
                     TRN_WIRE_INVALID_ARGUMENT);
    /* At the boundary itself: exactly 2^64 - 1 bytes passes the arithmetic,
     * 2^64 does not. */
    assert_int_equal(ck_matrix_bytes(1, 1, 1, UINT64_MAX, &b), 0);
    assert_int_equal(b, UINT64_MAX);
    assert_int_equal(ck_matrix_bytes(2, 1, 2, UINT64_MAX / 2 + 1, &b), -1);
    assert_int_equal(ck_matrix_bytes(1, 2, 1, UINT64_MAX / 2, &b), 0);
    assert_int_equal(ck_matrix_bytes(1, 2, 1, UINT64_MAX / 2 + 1, &b), -1);
    assert_int_equal(trn_vk_matrix(&f->vx, &big, 1, 2, 1, UINT64_MAX / 2 + 1, 1, "t", "A", &p),
                     TRN_WIRE_INVALID_ARGUMENT);
    expect_msg(f, "t: the extent of A (1 x 2, ld=1) overflows 64 bits");
    expect_msg(f, "t: A");
    /* Negative dimensions never reach the arithmetic. */
    assert_int_equal(trn_vk_matrix(&f->vx, &big, -1, 2, 1, 8, 8, "t", "A", &p),
                     TRN_WIRE_INVALID_ARGUMENT);
    expect_msg(f, "is not a matrix");
    /* 5 x 25 doubles fill buffer 1 exactly; one element further in, they
     * end one element past it, as does a 26th column. */
    assert_int_equal(trn_vk_matrix(&f->vx, &small, 5, 25, 5, 8, 8, "t", "A", &p), TRN_WIRE_OK);
    Trnsci__V1__BufferRef off8 = ref_of(1, 8);
    assert_int_equal(trn_vk_matrix(&f->vx, &off8, 5, 25, 5, 8, 8, "t", "A", &p),
                     TRN_WIRE_INVALID_ARGUMENT);
    expect_msg(f, "t: A: needs 1000 bytes at offset 8");
    assert_int_equal(trn_vk_matrix(&f->vx, &small, 1, 26, 5, 8, 8, "t", "A", &p),
                     TRN_WIRE_INVALID_ARGUMENT);
    expect_msg(f, "t: A: needs 1008 bytes at offset 0");
    /* Batches: (batch-1) stride es + one matrix. */
    assert_int_equal(trn_vk_batch_bytes(144, 3, 100, 8, &b), 0);
    assert_int_equal(b, 2 * 100 * 8 + 144);
    assert_int_equal(trn_vk_batch_bytes(0, 3, 100, 8, &b), 0);
    assert_int_equal(b, 0);
    assert_int_equal(trn_vk_batch_bytes(8, 2, UINT64_MAX / 8, 8, &b), -1);
    assert_int_equal(trn_vk_batch_bytes(7, 2, UINT64_MAX / 8, 8, &b), 0);
    assert_int_equal(b, (UINT64_MAX / 8) * 8 + 7);
}

static void test_vector_extent(void **state) {
    fx *f = *state;
    void *p;
    uint64_t b;
    /* |inc| (n - 1) + 1 elements, whatever inc's sign; inc = 0 reads one. */
    assert_int_equal(trn_vk_vector_bytes(10, 3, 4, &b), 0);
    assert_int_equal(b, (3 * 9 + 1) * 4);
    assert_int_equal(trn_vk_vector_bytes(10, -3, 4, &b), 0);
    assert_int_equal(b, (3 * 9 + 1) * 4);
    assert_int_equal(trn_vk_vector_bytes(10, 0, 4, &b), 0);
    assert_int_equal(b, 4);
    assert_int_equal(trn_vk_vector_bytes(INT_MAX, INT_MIN, 1, &b), 0); /* |INT_MIN| = 2^31 */
    assert_int_equal(b, ((uint64_t)1 << 31) * ((uint64_t)INT_MAX - 1) + 1);
    assert_int_equal(trn_vk_vector_bytes(0, 1, 4, &b), -1);
    /* The 2^64 boundary: n = 2, es = 2^63 fits only with |inc| = 0. */
    assert_int_equal(trn_vk_vector_bytes(2, 0, (uint64_t)1 << 63, &b), 0);
    assert_int_equal(trn_vk_vector_bytes(2, 1, (uint64_t)1 << 63, &b), -1);
    assert_int_equal(trn_vk_vector_bytes(2, -1, (uint64_t)1 << 63, &b), -1);
    Trnsci__V1__BufferRef small = ref_of(1, 0);
    /* 125 doubles fill buffer 1 exactly; with inc = -2, 63 of them do. */
    assert_int_equal(trn_vk_vector(&f->vx, &small, 63, -2, 8, 8, "t", "x", &p), TRN_WIRE_OK);
    assert_int_equal(trn_vk_vector(&f->vx, &small, 64, -2, 8, 8, "t", "x", &p),
                     TRN_WIRE_INVALID_ARGUMENT);
    expect_msg(f, "t: x: needs 1016 bytes");
    assert_int_equal(trn_vk_vector(&f->vx, &small, 2, 1, (uint64_t)1 << 63, 8, "t", "x", &p),
                     TRN_WIRE_INVALID_ARGUMENT);
    expect_msg(f, "t: the extent of x (2 elements, inc=1) overflows 64 bits");
    assert_int_equal(trn_vk_vector(&f->vx, NULL, 0, 1, 8, 8, "t", "x", &p), TRN_WIRE_OK);
    assert_null(p);
    assert_int_equal(trn_vk_vector(&f->vx, NULL, -1, 1, 8, 8, "t", "x", &p),
                     TRN_WIRE_INVALID_ARGUMENT);
    /* Arrays: count * es, exact at 2^64 - 1. */
    Trnsci__V1__BufferRef big = ref_of(2, 0);
    assert_int_equal(trn_vk_array(&f->vx, &big, UINT64_MAX / 3, 3, 1, "t", "w", &p), TRN_WIRE_OK);
    assert_int_equal(trn_vk_array(&f->vx, &big, UINT64_MAX / 3 + 1, 3, 1, "t", "w", &p),
                     TRN_WIRE_INVALID_ARGUMENT);
    expect_msg(f, "t: the extent of w");
}

/* ---- numbers and enums ------------------------------------------------------------- */

static void test_numbers(void **state) {
    fx *f = *state;
    int v = -7;
    assert_int_equal(trn_vk_dim(&f->vx, "t", "m", 0, &v), TRN_WIRE_OK);
    assert_int_equal(v, 0);
    assert_int_equal(trn_vk_dim(&f->vx, "t", "m", INT_MAX, &v), TRN_WIRE_OK);
    assert_int_equal(trn_vk_dim(&f->vx, "t", "m", (int64_t)INT_MAX + 1, &v),
                     TRN_WIRE_INVALID_ARGUMENT);
    expect_msg(f, "t: m=2147483648 is outside 0..2147483647");
    assert_int_equal(trn_vk_dim(&f->vx, "t", "m", -1, &v), TRN_WIRE_INVALID_ARGUMENT);
    /* ld >= max(1, rows), <= INT_MAX. */
    assert_int_equal(trn_vk_ld(&f->vx, "t", "lda", 5, 5, "m", &v), TRN_WIRE_OK);
    assert_int_equal(trn_vk_ld(&f->vx, "t", "lda", 4, 5, "m", &v), TRN_WIRE_INVALID_ARGUMENT);
    expect_msg(f, "t: lda=4 must be >= max(1, m) = 5");
    assert_int_equal(trn_vk_ld(&f->vx, "t", "lda", 0, 0, "m", &v), TRN_WIRE_INVALID_ARGUMENT);
    assert_int_equal(trn_vk_ld(&f->vx, "t", "lda", 1, 0, "m", &v), TRN_WIRE_OK);
    assert_int_equal(trn_vk_ld(&f->vx, "t", "lda", (int64_t)INT_MAX + 1, 5, "m", &v),
                     TRN_WIRE_INVALID_ARGUMENT);
    /* Increments: any int, negative included. */
    assert_int_equal(trn_vk_int(&f->vx, "t", "incx", INT_MIN, &v), TRN_WIRE_OK);
    assert_int_equal(v, INT_MIN);
    assert_int_equal(trn_vk_int(&f->vx, "t", "incx", (int64_t)INT_MIN - 1, &v),
                     TRN_WIRE_INVALID_ARGUMENT);
    /* Counts and tolerances: 0 is the default. */
    assert_int_equal(trn_vk_count(&f->vx, "t", "maxIters", 0, 50, &v), TRN_WIRE_OK);
    assert_int_equal(v, 50);
    assert_int_equal(trn_vk_count(&f->vx, "t", "maxIters", -1, 50, &v), TRN_WIRE_INVALID_ARGUMENT);
    double d;
    assert_int_equal(trn_vk_tol(&f->vx, "t", "tol", 0.0, 1e-6, &d), TRN_WIRE_OK);
    assert_true(d == 1e-6);
    assert_int_equal(trn_vk_tol(&f->vx, "t", "tol", NAN, 1e-6, &d), TRN_WIRE_INVALID_ARGUMENT);
    assert_int_equal(trn_vk_tol(&f->vx, "t", "tol", -1e-9, 1e-6, &d), TRN_WIRE_INVALID_ARGUMENT);
    assert_int_equal(trn_vk_tol(&f->vx, "t", "tol", INFINITY, 1e-6, &d), TRN_WIRE_INVALID_ARGUMENT);
}

static void test_enums(void **state) {
    fx *f = *state;
    trn_dtype t;
    assert_int_equal(trn_vk_dtype(TRNSCI__V1__DATA_TYPE__C_64F, &t), 0);
    assert_int_equal(t, TRN_DTYPE_C64F);
    assert_int_equal(trn_vk_dtype((Trnsci__V1__DataType)99, &t), -1);
    assert_int_equal(trn_vk_real_dtype(&f->vx, "t", "A", TRNSCI__V1__DATA_TYPE__R_32F, &t),
                     TRN_WIRE_OK);
    assert_int_equal(t, TRN_DTYPE_R32F);
    assert_int_equal(trn_vk_real_dtype(&f->vx, "t", "A", TRNSCI__V1__DATA_TYPE__C_32F, &t),
                     TRN_WIRE_UNIMPLEMENTED);
    assert_int_equal(trn_vk_real_dtype(&f->vx, "t", "A", (Trnsci__V1__DataType)-1, &t),
                     TRN_WIRE_INVALID_ARGUMENT);
    trn_trans tr;
    assert_int_equal(trn_vk_trans(TRNSCI__V1__OPERATION__OP_C, &tr), 0);
    assert_int_equal(tr, TRN_TRANS_C);
    assert_int_equal(trn_vk_trans((Trnsci__V1__Operation)3, &tr), -1);
    trn_uplo u;
    assert_int_equal(trn_vk_uplo(TRNSCI__V1__FILL_MODE__FILL_MODE_FULL, &u), -1);
    trn_diag dg;
    assert_int_equal(trn_vk_diag((Trnsci__V1__DiagType)7, &dg), -1);
    trn_side sd;
    assert_int_equal(trn_vk_side(TRNSCI__V1__SIDE_MODE__SIDE_RIGHT, &sd), 0);
    assert_int_equal(sd, TRN_SIDE_RIGHT);
}

/* An op kind this build does not know, and no op at all. */
static void test_dispatch(void **state) {
    fx *f = *state;
    trn_op_desc d;
    assert_int_equal(trn_validate_wire_op(&f->vx, NULL, &d), TRN_WIRE_INVALID_ARGUMENT);
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = (Trnsci__V1__Op__KindCase)7;
    assert_int_equal(trn_validate_wire_op(&f->vx, &op, &d), TRN_WIRE_UNIMPLEMENTED);
    expect_msg(f, "op kind 7 is not supported");
    /* A memset through the list of kinds; a failing copy holds nothing. */
    Trnsci__V1__MemsetOp m = TRNSCI__V1__MEMSET_OP__INIT;
    Trnsci__V1__BufferRef r = ref_of(3, 0);
    m.dst = &r;
    m.bytes = 64;
    m.value = 7;
    op.kind_case = TRNSCI__V1__OP__KIND_MEMSET;
    op.memset = &m;
    assert_int_equal(trn_validate_wire_op(&f->vx, &op, &d), TRN_WIRE_OK);
    assert_int_equal(d.kind, TRN_OP_MEMSET);
    assert_int_equal(d.u.memset.bytes, 64);
    assert_int_equal(f->refs.n, 1);
    trn_op_refs_release(&f->refs);
    Trnsci__V1__CopyOp c = TRNSCI__V1__COPY_OP__INIT;
    Trnsci__V1__BufferRef src = ref_of(1, 990);
    c.dst = &r;
    c.src = &src;
    c.bytes = 11;
    op.kind_case = TRNSCI__V1__OP__KIND_COPY;
    op.copy = &c;
    assert_int_equal(trn_validate_wire_op(&f->vx, &op, &d), TRN_WIRE_INVALID_ARGUMENT);
    expect_msg(f, "copy: src: needs 11 bytes at offset 990");
    assert_int_equal(f->refs.n, 0);
    assert_int_equal(f->host.held, 0);
}

/* ---- overlap of listed matrices ---------------------------------------------------- */

/* 3 x 2 matrices of 8-byte elements with ld = 6: columns 0..2 and 6..8 of
 * each. Offsets in elements from a common base. */
static trn_wire_code disjoint_at(fx *f, const long *offs, size_t n) {
    static double space[64];
    void *mats[8];
    for (size_t i = 0; i < n; i++)
        mats[i] = (char *)space + offs[i] * 8;
    f->err[0] = 0;
    return trn_vk_disjoint(&f->vx, "fn", "Carray", mats, n, 3, 2, 6, 8);
}

static void test_disjoint(void **state) {
    fx *f = *state;
    /* Interleaved: rows 3..5 of each column are the next matrix's. */
    assert_int_equal(disjoint_at(f, (const long[]){0, 3}, 2), TRN_WIRE_OK);
    assert_int_equal(disjoint_at(f, (const long[]){3, 0, 12, 15}, 4), TRN_WIRE_OK);
    /* One shared element: the last of one is the first of the other
     * (offset 8 = column 1, row 2), or a middle one (offset 6 = column 1,
     * row 0 of the first is row 0, column 0 of the second). */
    assert_int_equal(disjoint_at(f, (const long[]){0, 8}, 2), TRN_WIRE_INVALID_ARGUMENT);
    expect_msg(f, "fn: Carray[0] and Carray[1] overlap");
    assert_int_equal(disjoint_at(f, (const long[]){12, 6, 0}, 3), TRN_WIRE_INVALID_ARGUMENT);
    expect_msg(f, "Carray[1] and Carray[2] overlap");
    assert_int_equal(disjoint_at(f, (const long[]){2, 2}, 2), TRN_WIRE_INVALID_ARGUMENT);
    /* Starting just past the other's last element, and in the gap rows. */
    assert_int_equal(disjoint_at(f, (const long[]){0, 9}, 2), TRN_WIRE_OK);
    assert_int_equal(disjoint_at(f, (const long[]){0, 4}, 2), TRN_WIRE_INVALID_ARGUMENT);
    /* Half an element apart overlaps. */
    static double space[64];
    void *mats[2] = {space, (char *)space + 8 * 3 - 4};
    assert_int_equal(trn_vk_disjoint(&f->vx, "fn", "C", mats, 2, 3, 2, 6, 8),
                     TRN_WIRE_INVALID_ARGUMENT);
    /* One matrix, or an empty shape, never overlaps. */
    assert_int_equal(disjoint_at(f, (const long[]){0}, 1), TRN_WIRE_OK);
    void *same[2] = {space, space};
    assert_int_equal(trn_vk_disjoint(&f->vx, "fn", "C", same, 2, 0, 2, 6, 8), TRN_WIRE_OK);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_region_bounds, setup, teardown),
        cmocka_unit_test_setup_teardown(test_region_buffers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_matrix_extent, setup, teardown),
        cmocka_unit_test_setup_teardown(test_vector_extent, setup, teardown),
        cmocka_unit_test_setup_teardown(test_numbers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_enums, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dispatch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_disjoint, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
