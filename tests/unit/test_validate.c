/*
 * test_validate.c — daemon/validate.h (wire op → kernel descriptor) and the
 * buffer side of daemon/session.h (allocation, quota, ownership).
 *
 * Each test runs against a real scheduler (CPU backend, 1 worker), a session
 * table and two open sessions, and feeds hand-built protobuf-c structs to
 * trn_validate_op. Rules checked:
 *  - cuBLAS <t>gemm argument rules: m, n, k >= 0 (and <= INT_MAX, cuBLAS takes
 *    int); lda >= max(1, m) for op(A) = A and >= max(1, k) for A^T / A^H;
 *    ldb >= max(1, k) for op(B) = B and >= max(1, n) for B^T / B^H;
 *    ldc >= max(1, m); known data type and operation; alpha = 0 or k = 0 means
 *    A and B are not read (so need not be given).
 *  - Memory safety: a column-major rows x cols matrix with leading dimension ld
 *    spans ((cols - 1) * ld + rows) * elem_size bytes; that many bytes must lie
 *    inside one buffer of the calling session from the given offset (exactly
 *    enough passes, one byte short fails); offsets are aligned to the element's
 *    real component (4 bytes for S/C, 8 for D/Z); extents that overflow 64 bits
 *    are refused; a buffer of another session is indistinguishable from one
 *    that does not exist; freed buffers are gone.
 *  - On success the descriptor holds data + offset for each operand and one
 *    reference per operand in refs; on failure nothing is held and the message
 *    names the argument ("lda", "gemm: A", ...).
 *  - The GEMM family: strided batches span (batch-1)*stride + one matrix per
 *    operand, stride 0 is allowed, C matrices that share an element are
 *    refused (interleaved ones that do not are accepted); pointer-array
 *    batches resolve one region per matrix (beyond TRN_OP_MAX_BUFFERS),
 *    counts match batch_count, overlapping or foreign entries fail with
 *    nothing held; compute types match the data type's precision
 *    (UNIMPLEMENTED otherwise); stochastic rounding only with the FAST
 *    bfloat16/TF32 modes; device-mode alpha/beta are one element each and
 *    make A and B required.
 *  - BLAS Level 1 (Blas1Op): a vector spans |inc|(n-1)+1 elements from its
 *    offset for either sign of inc; n <= 0 (and incx <= 0 for scal, nrm2,
 *    asum, i?amax, i?amin) reads nothing; reductions need an aligned result
 *    of the right size; n and increments fit in int; dotc and real_scalar
 *    only for complex types; 64-bit overflow, foreign and freed buffers.
 *  - memset value is a byte; memset/copy regions are bounds-checked; an op
 *    with no kind is UNIMPLEMENTED.
 *  - rand: the output's extent and alignment, even normal counts, stddev > 0,
 *    finite parameters, no run past the end of the 2^64-word stream; Sobol
 *    generators: dimensions 1 .. 1024, count a multiple of them, points
 *    below 2^32, no Poisson.
 *  - fft: FftPlanSpec rules (rank, sizes, embeds, batch, a batch past 2^63
 *    bytes); FftExecOp extents of basic and padded in-place layouts (exactly
 *    enough passes, one element short fails), element alignment, the plan's
 *    type, direction, overlapping buffers and overlapping output transforms,
 *    another session's plan; the variant bits (inverse, in place, unaligned)
 *    and the plan reference taken with the buffers, none held on failure.
 *  - Quota: an allocation beyond max_session_bytes is RESOURCE_EXHAUSTED with
 *    a message naming the quota; 0 bytes is INVALID_ARGUMENT; bytes are
 *    credited only when the memory is released (after the last op reference).
 * Teardown closes everything and checks that the table holds no bytes and no
 * buffers (and the ASan build checks nothing leaks).
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
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

#include "daemon/log.h"
#include "daemon/session.h"
#include "daemon/validate.h"
#include "kernels/backend.h"
#include "scheduler/plan_cache.h"
#include "scheduler/sched.h"

#define QUOTA (1u << 20)

typedef struct fx {
    trn_backend *be;
    trn_sched *sched;
    trn_config cfg;
    trn_session_table table;
    trn_session *s1, *s2;
    trn_plan_cache *pc; /* for FftExecOp's plans */
    /* The last validate call's outputs. */
    trn_op_desc desc;
    trn_op_refs refs;
    char err[512];
} fx;

/* These sessions are gRPC sessions: heap buffers, so no memfd comes back. */
static int fd_unused;
static trn_wire_code open_code;
static char open_err[128];

static int setup(void **state) {
    fx *f = calloc(1, sizeof(*f));
    assert_non_null(f);
    f->be = trn_backend_cpu_create();
    assert_non_null(f->be);
    char err[256] = "";
    const trn_sched_config sc = {.cpus = NULL, .ncores = 1, .ncopy = 0};
    f->sched = trn_sched_create(f->be, &sc, err, sizeof(err));
    assert_non_null(f->sched);
    memset(&f->cfg, 0, sizeof(f->cfg));
    f->cfg.max_session_bytes = QUOTA;
    f->cfg.max_streams = 4;
    f->cfg.lease_ms = 30000;
    f->cfg.ncores = 1;
    f->cfg.log_level = TRN_LOG_WARN;
    const trn_plan_cache_config pcc = {.max_bytes = 1 << 30, .effort = TRN_PLAN_ESTIMATE};
    f->pc = trn_plan_cache_create(f->be, &pcc);
    assert_non_null(f->pc);
    assert_int_equal(trn_plan_cache_start(f->pc), 0);
    trn_session_table_init(&f->table, f->sched, &f->cfg);
    f->s1 = trn_session_open(&f->table, "unit-a", (uint32_t)getpid(), TRN_TRANSPORT_GRPC, NULL, 0,
                             &open_code, open_err, sizeof(open_err));
    f->s2 = trn_session_open(&f->table, "unit-b", (uint32_t)getpid(), TRN_TRANSPORT_GRPC, NULL, 0,
                             &open_code, open_err, sizeof(open_err));
    assert_non_null(f->s1);
    assert_non_null(f->s2);
    assert_int_not_equal(f->s1->id, f->s2->id);
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fx *f = *state;
    trn_session_close(f->s1, "test done");
    trn_session_unref(f->s1);
    trn_session_close(f->s2, "test done");
    trn_session_unref(f->s2);
    /* Every buffer released, every byte credited. */
    assert_int_equal(atomic_load(&f->table.bytes_held), 0);
    assert_int_equal(atomic_load(&f->table.buffers), 0);
    assert_int_equal(trn_session_table_count(&f->table), 0);
    trn_sched_shutdown(f->sched);
    trn_session_table_destroy(&f->table);
    trn_sched_destroy(f->sched);
    trn_plan_cache_stop(f->pc); /* queued builds give their references back */
    /* Every plan reference was given back: nothing is in use. */
    trn_plan_info *v = NULL;
    const size_t n = trn_plan_cache_list(f->pc, &v);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(v[i].uses, 0);
    free(v);
    trn_plan_cache_destroy(f->pc);
    f->be->destroy(f->be);
    free(f);
    return 0;
}

/* ---- helpers -------------------------------------------------------------------- */

static uint64_t alloc(trn_session *s, uint64_t bytes) {
    uint64_t id = 0;
    char err[256] = "";
    const trn_wire_code rc =
        trn_session_alloc(s, bytes, TRN_ALLOC_DEVICE, &id, &fd_unused, err, sizeof(err));
    if (rc != TRN_WIRE_OK)
        fail_msg("alloc %llu: %d %s", (unsigned long long)bytes, (int)rc, err);
    assert_int_not_equal(id, 0);
    return id;
}

static char *data_of(trn_session *s, uint64_t id) {
    trn_buffer *b = trn_session_buffer_get(s, id);
    assert_non_null(b);
    char *d = b->data;
    trn_buffer_unref(b);
    return d;
}

/* References held on a buffer besides the session table's one. */
static unsigned extra_refs(trn_session *s, uint64_t id) {
    trn_buffer *b = trn_session_buffer_get(s, id);
    assert_non_null(b);
    const unsigned r = atomic_load(&b->refs);
    trn_buffer_unref(b);
    return r - 2; /* minus ours, minus the table's */
}

static trn_wire_code validate(fx *f, trn_session *s, const Trnsci__V1__Op *op) {
    memset(&f->desc, 0, sizeof(f->desc));
    f->refs.n = -1;
    f->err[0] = '\0';
    return trn_validate_op(s, op, &f->desc, &f->refs, f->err, sizeof(f->err));
}

static void expect_ok(fx *f, trn_session *s, const Trnsci__V1__Op *op, int nrefs) {
    const trn_wire_code rc = validate(f, s, op);
    if (rc != TRN_WIRE_OK)
        fail_msg("expected OK, got %d: %s", (int)rc, f->err);
    assert_int_equal(f->refs.n, nrefs);
}

static void expect_err(fx *f, trn_session *s, const Trnsci__V1__Op *op, trn_wire_code code,
                       const char *needle) {
    const trn_wire_code rc = validate(f, s, op);
    if (rc != code)
        fail_msg("expected code %d (message naming \"%s\"), got %d: %s", (int)code, needle, (int)rc,
                 f->err);
    if (!strstr(f->err, needle))
        fail_msg("message \"%s\" does not contain \"%s\"", f->err, needle);
    assert_int_equal(f->refs.n, 0); /* nothing held on failure */
}

/* A GemmOp wrapped in an Op, with its sub-messages in place. Not copyable
 * (it points into itself). */
typedef struct gemm_msg {
    Trnsci__V1__Op op;
    Trnsci__V1__GemmOp g;
    Trnsci__V1__Scalar alpha, beta;
    Trnsci__V1__BufferRef a, b, c;
} gemm_msg;

#define OP_N TRNSCI__V1__OPERATION__OP_N
#define OP_T TRNSCI__V1__OPERATION__OP_T
#define OP_C TRNSCI__V1__OPERATION__OP_C
#define R_32F TRNSCI__V1__DATA_TYPE__R_32F
#define R_64F TRNSCI__V1__DATA_TYPE__R_64F
#define C_32F TRNSCI__V1__DATA_TYPE__C_32F
#define C_64F TRNSCI__V1__DATA_TYPE__C_64F

/* alpha = 1, beta = 0, no buffers. */
static void gemm_init(gemm_msg *q, Trnsci__V1__DataType type, Trnsci__V1__Operation ta,
                      Trnsci__V1__Operation tb, int64_t m, int64_t n, int64_t k, int64_t lda,
                      int64_t ldb, int64_t ldc) {
    const Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    const Trnsci__V1__GemmOp g = TRNSCI__V1__GEMM_OP__INIT;
    const Trnsci__V1__Scalar sc = TRNSCI__V1__SCALAR__INIT;
    const Trnsci__V1__BufferRef br = TRNSCI__V1__BUFFER_REF__INIT;
    q->op = op;
    q->g = g;
    q->alpha = sc;
    q->beta = sc;
    q->a = q->b = q->c = br;
    q->op.kind_case = TRNSCI__V1__OP__KIND_GEMM;
    q->op.gemm = &q->g;
    q->g.type = type;
    q->g.transa = ta;
    q->g.transb = tb;
    q->g.m = m;
    q->g.n = n;
    q->g.k = k;
    q->g.lda = lda;
    q->g.ldb = ldb;
    q->g.ldc = ldc;
    q->alpha.re = 1.0;
    q->g.alpha = &q->alpha;
    q->g.beta = &q->beta;
    q->g.a = &q->a;
    q->g.b = &q->b;
    q->g.c = &q->c;
}

static void gemm_bufs(gemm_msg *q, uint64_t a, uint64_t a_off, uint64_t b, uint64_t b_off,
                      uint64_t c, uint64_t c_off) {
    q->a.buffer_id = a;
    q->a.offset = a_off;
    q->b.buffer_id = b;
    q->b.offset = b_off;
    q->c.buffer_id = c;
    q->c.offset = c_off;
}

/* The standard SGEMM case used by several tests: C(4x3) = A(4x5) B(5x3), no
 * padding. Bytes: A ((5-1)*4+4)*4 = 80, B ((3-1)*5+5)*4 = 60,
 * C ((3-1)*4+4)*4 = 48. */
#define SA 80
#define SB 60
#define SC 48
static void sgemm_std(gemm_msg *q) {
    gemm_init(q, R_32F, OP_N, OP_N, 4, 3, 5, 4, 5, 4);
}

/* ---- valid GEMMs ---------------------------------------------------------------- */

/* Rule: exactly sized, unpadded S GEMM is accepted; the descriptor carries
 * every argument and data + offset for A, B, C, with one reference each. */
static void test_sgemm_nn_valid(void **state) {
    fx *f = *state;
    const uint64_t A = alloc(f->s1, SA), B = alloc(f->s1, SB), C = alloc(f->s1, SC);
    gemm_msg q;
    sgemm_std(&q);
    q.alpha.re = 2.0;
    q.beta.re = 0.5;
    gemm_bufs(&q, A, 0, B, 0, C, 0);
    expect_ok(f, f->s1, &q.op, 3);
    const trn_gemm_desc *g = &f->desc.u.gemm;
    assert_int_equal(f->desc.kind, TRN_OP_GEMM);
    assert_int_equal(g->type, TRN_DTYPE_R32F);
    assert_int_equal(g->transa, TRN_TRANS_N);
    assert_int_equal(g->transb, TRN_TRANS_N);
    assert_int_equal(g->m, 4);
    assert_int_equal(g->n, 3);
    assert_int_equal(g->k, 5);
    assert_int_equal(g->lda, 4);
    assert_int_equal(g->ldb, 5);
    assert_int_equal(g->ldc, 4);
    assert_true(g->alpha.re == 2.0 && g->alpha.im == 0.0);
    assert_true(g->beta.re == 0.5 && g->beta.im == 0.0);
    assert_ptr_equal(g->a, data_of(f->s1, A));
    assert_ptr_equal(g->b, data_of(f->s1, B));
    assert_ptr_equal(g->c, data_of(f->s1, C));
    assert_int_equal(extra_refs(f->s1, A), 1);
    assert_int_equal(extra_refs(f->s1, B), 1);
    assert_int_equal(extra_refs(f->s1, C), 1);
    trn_op_refs_release(&f->refs);
    assert_int_equal(f->refs.n, 0);
    assert_int_equal(extra_refs(f->s1, A), 0);
    assert_int_equal(extra_refs(f->s1, B), 0);
    assert_int_equal(extra_refs(f->s1, C), 0);
}

/* Rule: D GEMM with op(A) = A^T and a padded lda: A is stored k x m with
 * lda >= k. m=3, n=2, k=4, lda=6: A ((3-1)*6+4)*8 = 128 bytes; B (N, 4x2,
 * ldb=4) ((2-1)*4+4)*8 = 64; C (3x2, ldc=3) ((2-1)*3+3)*8 = 48. All three in
 * one buffer of 240 bytes at offsets 0, 128, 192 (each a multiple of 8). */
static void test_dgemm_tn_one_buffer(void **state) {
    fx *f = *state;
    const uint64_t X = alloc(f->s1, 240);
    char *x = data_of(f->s1, X);
    gemm_msg q;
    gemm_init(&q, R_64F, OP_T, OP_N, 3, 2, 4, 6, 4, 3);
    gemm_bufs(&q, X, 0, X, 128, X, 192);
    expect_ok(f, f->s1, &q.op, 3);
    const trn_gemm_desc *g = &f->desc.u.gemm;
    assert_int_equal(g->type, TRN_DTYPE_R64F);
    assert_int_equal(g->transa, TRN_TRANS_T);
    assert_int_equal(g->transb, TRN_TRANS_N);
    assert_ptr_equal(g->a, x);
    assert_ptr_equal(g->b, x + 128);
    assert_ptr_equal(g->c, x + 192);
    assert_int_equal(extra_refs(f->s1, X), 3);
    trn_op_refs_release(&f->refs);
    assert_int_equal(extra_refs(f->s1, X), 0);

    /* C one byte further (ends at 241 > 240) no longer fits. */
    gemm_bufs(&q, X, 0, X, 128, X, 193);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: C");
    assert_int_equal(extra_refs(f->s1, X), 0); /* A's and B's references dropped */
}

/* Rule: C GEMM with op(A) = A^H and op(B) = B^T. m=2, n=3, k=4: A stored 4x2,
 * lda=4: ((2-1)*4+4)*8 = 64 bytes; B stored n x k = 3x4, ldb >= n = 3:
 * ((4-1)*3+3)*8 = 96; C 2x3, ldc=2: ((3-1)*2+2)*8 = 48. A at offset 8 of a
 * 72-byte buffer (ends exactly at the end), C at offset 16 of 64. */
static void test_cgemm_ct_offsets(void **state) {
    fx *f = *state;
    const uint64_t A = alloc(f->s1, 72), B = alloc(f->s1, 96), C = alloc(f->s1, 64);
    gemm_msg q;
    gemm_init(&q, C_32F, OP_C, OP_T, 2, 3, 4, 4, 3, 2);
    q.alpha.re = 1.0;
    q.alpha.im = -1.0;
    q.beta.im = 2.0;
    gemm_bufs(&q, A, 8, B, 0, C, 16);
    expect_ok(f, f->s1, &q.op, 3);
    const trn_gemm_desc *g = &f->desc.u.gemm;
    assert_int_equal(g->type, TRN_DTYPE_C32F);
    assert_int_equal(g->transa, TRN_TRANS_C);
    assert_int_equal(g->transb, TRN_TRANS_T);
    assert_true(g->alpha.re == 1.0 && g->alpha.im == -1.0);
    assert_true(g->beta.re == 0.0 && g->beta.im == 2.0);
    assert_ptr_equal(g->a, data_of(f->s1, A) + 8);
    assert_ptr_equal(g->b, data_of(f->s1, B));
    assert_ptr_equal(g->c, data_of(f->s1, C) + 16);
    trn_op_refs_release(&f->refs);

    /* A one byte later runs past the end of its buffer. */
    gemm_bufs(&q, A, 12, B, 0, C, 16);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: A");
}

/* Complex int8 storage (protocol 1.14): A and B in C_8I (2 bytes an
 * element, byte-aligned) take C in C_32F under COMPUTE_32F (or DEFAULT)
 * only, with complex float scalars; every other row is UNIMPLEMENTED, and
 * C_8I is never C's type nor any other op's. m=4, n=3, k=5, unpadded: A 20
 * elements (40 bytes), B 15 (30), C 12 (96). */
static void test_gemm_c8i(void **state) {
    fx *f = *state;
    const uint64_t A = alloc(f->s1, 64), B = alloc(f->s1, 64), C = alloc(f->s1, 128);
    gemm_msg q;
    const Trnsci__V1__DataType C8 = TRNSCI__V1__DATA_TYPE__C_8I, I8 = TRNSCI__V1__DATA_TYPE__R_8I;
    const Trnsci__V1__ComputeType C32 = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F,
                                  DEF = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_DEFAULT;
    const Trnsci__V1__ComputeType ok[] = {C32, DEF};
    for (size_t i = 0; i < 2; i++) {
        gemm_init(&q, C_32F, OP_C, OP_T, 4, 3, 5, 5, 3, 4);
        q.g.ab_type = C8;
        q.g.compute_type = ok[i];
        gemm_bufs(&q, A, 0, B, 0, C, 0);
        expect_ok(f, f->s1, &q.op, 3);
        const trn_gemm_desc *g = &f->desc.u.gemm;
        assert_int_equal(g->compute, TRN_COMPUTE_32F);
        assert_int_equal(trn_gemm_ab_type(g), TRN_DTYPE_C8I);
        assert_int_equal(trn_gemm_scale_type(g), TRN_DTYPE_C32F);
        assert_true(trn_gemm_narrow(g));
        trn_op_refs_release(&f->refs);
    }
    const struct {
        Trnsci__V1__DataType ab, c;
        Trnsci__V1__ComputeType ct;
    } bad[] = {
        {C8, C8, C32},
        {C8, C_32F, TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32I},
        {C8, C_32F, TRNSCI__V1__COMPUTE_TYPE__COMPUTE_16F},
        {C8, C_32F, TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_TF32},
        {C8, R_32F, C32},
        {C8, C_64F, C32},
        {C8, TRNSCI__V1__DATA_TYPE__R_32I, C32},
        {I8, C_32F, C32},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        gemm_init(&q, bad[i].c, OP_N, OP_N, 4, 3, 5, 4, 5, 4);
        q.g.ab_type =
            bad[i].ab == bad[i].c ? TRNSCI__V1__DATA_TYPE__DATA_TYPE_UNSPECIFIED : bad[i].ab;
        q.g.compute_type = bad[i].ct;
        gemm_bufs(&q, A, 0, B, 0, C, 0);
        expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "gemm: ");
    }
    /* Extents in 2-byte elements, any byte offset: A (40 bytes) fits at 24
     * and at odd 23 of 64, not at 25; B (30 bytes) at 34, not at 35. */
    gemm_init(&q, C_32F, OP_N, OP_N, 4, 3, 5, 4, 5, 4);
    q.g.ab_type = C8;
    gemm_bufs(&q, A, 23, B, 34, C, 0);
    expect_ok(f, f->s1, &q.op, 3);
    assert_ptr_equal(f->desc.u.gemm.a, data_of(f->s1, A) + 23);
    trn_op_refs_release(&f->refs);
    gemm_bufs(&q, A, 25, B, 0, C, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: A");
    gemm_bufs(&q, A, 0, B, 35, C, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: B");
    /* C (96 bytes) at 32 of 128 but not at 36. */
    gemm_bufs(&q, A, 0, B, 0, C, 32);
    expect_ok(f, f->s1, &q.op, 3);
    trn_op_refs_release(&f->refs);
    gemm_bufs(&q, A, 0, B, 0, C, 36);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: C");
    /* Device scalars are complex floats: 8 bytes at 120 of 128 fit, at 124 not. */
    Trnsci__V1__BufferRef ap = TRNSCI__V1__BUFFER_REF__INIT, bp = TRNSCI__V1__BUFFER_REF__INIT;
    const uint64_t S = alloc(f->s1, 128);
    gemm_bufs(&q, A, 0, B, 0, C, 0);
    ap.buffer_id = bp.buffer_id = S;
    ap.offset = 112;
    bp.offset = 120;
    q.g.alpha_ptr = &ap;
    q.g.beta_ptr = &bp;
    expect_ok(f, f->s1, &q.op, 5);
    trn_op_refs_release(&f->refs);
    bp.offset = 124;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: beta");
}

/* Rules of 16-bit and int8 storage (protocol 1.13): the accepted (A/B,
 * C, compute) rows of cublasGemmEx's table and UNIMPLEMENTED for the rest;
 * extents in each operand's own element size (A and B ab_type's, C
 * type's) and alignment to it; the scale type of device scalars; int32
 * scalars for COMPUTE_32I. m=4, n=3, k=5, unpadded: A 20 elements, B 15,
 * C 12. */
static void test_gemm_narrow(void **state) {
    fx *f = *state;
    const uint64_t A = alloc(f->s1, 64), B = alloc(f->s1, 64), C = alloc(f->s1, 64);
    gemm_msg q;
    const Trnsci__V1__DataType F16 = TRNSCI__V1__DATA_TYPE__R_16F,
                               BF16 = TRNSCI__V1__DATA_TYPE__R_16BF,
                               I8 = TRNSCI__V1__DATA_TYPE__R_8I, I32 = TRNSCI__V1__DATA_TYPE__R_32I;
    const Trnsci__V1__ComputeType C16 = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_16F,
                                  C32 = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F,
                                  C32I = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32I,
                                  TF32 = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_TF32,
                                  DEF = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_DEFAULT;
    const struct {
        Trnsci__V1__DataType ab, c;
        Trnsci__V1__ComputeType ct;
        trn_compute want;
    } ok[] = {
        {F16, F16, C16, TRN_COMPUTE_16F},   {F16, F16, C32, TRN_COMPUTE_32F},
        {F16, F16, DEF, TRN_COMPUTE_32F},   {F16, R_32F, C32, TRN_COMPUTE_32F},
        {BF16, BF16, C32, TRN_COMPUTE_32F}, {BF16, R_32F, C32, TRN_COMPUTE_32F},
        {I8, I32, C32I, TRN_COMPUTE_32I},   {I8, I32, DEF, TRN_COMPUTE_32I},
        {I8, R_32F, C32, TRN_COMPUTE_32F},
    };
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        gemm_init(&q, ok[i].c, OP_N, OP_N, 4, 3, 5, 4, 5, 4);
        q.g.ab_type = ok[i].ab == ok[i].c ? TRNSCI__V1__DATA_TYPE__DATA_TYPE_UNSPECIFIED : ok[i].ab;
        q.g.compute_type = ok[i].ct;
        gemm_bufs(&q, A, 0, B, 0, C, 0);
        expect_ok(f, f->s1, &q.op, 3);
        const trn_gemm_desc *g = &f->desc.u.gemm;
        assert_int_equal(g->compute, ok[i].want);
        assert_true(trn_gemm_narrow(g));
        trn_op_refs_release(&f->refs);
    }
    const struct {
        Trnsci__V1__DataType ab, c;
        Trnsci__V1__ComputeType ct;
    } bad[] = {
        {F16, R_32F, C16},    {F16, BF16, C32},  {F16, F16, TF32},  {BF16, BF16, C16},
        {BF16, F16, C32},     {I8, I8, C32I},    {I8, I32, C32},    {I8, R_32F, C32I},
        {I32, I32, C32I},     {R_32F, F16, C32}, {F16, R_64F, C32}, {R_32F, R_32F, C16},
        {R_64F, R_64F, C32I},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        gemm_init(&q, bad[i].c, OP_N, OP_N, 4, 3, 5, 4, 5, 4);
        q.g.ab_type =
            bad[i].ab == bad[i].c ? TRNSCI__V1__DATA_TYPE__DATA_TYPE_UNSPECIFIED : bad[i].ab;
        q.g.compute_type = bad[i].ct;
        gemm_bufs(&q, A, 0, B, 0, C, 0);
        expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "gemm: ");
    }
    /* An unknown ab_type. */
    gemm_init(&q, F16, OP_N, OP_N, 4, 3, 5, 4, 5, 4);
    q.g.ab_type = (Trnsci__V1__DataType)42;
    gemm_bufs(&q, A, 0, B, 0, C, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "ab_type 42");

    /* Extents: half A of 20 elements is 40 bytes, so it fits at offset 24
     * of 64 but not at 26; C in R_32F (48 bytes) at 16 but not at 20. */
    gemm_init(&q, R_32F, OP_N, OP_N, 4, 3, 5, 4, 5, 4);
    q.g.ab_type = F16;
    gemm_bufs(&q, A, 24, B, 0, C, 16);
    expect_ok(f, f->s1, &q.op, 3);
    assert_ptr_equal(f->desc.u.gemm.a, data_of(f->s1, A) + 24);
    trn_op_refs_release(&f->refs);
    gemm_bufs(&q, A, 26, B, 0, C, 16);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: A");
    gemm_bufs(&q, A, 24, B, 0, C, 20);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: C");
    /* Alignment: half at an odd offset; int8 at any; int32 C at 2. */
    gemm_bufs(&q, A, 1, B, 0, C, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: A");
    gemm_init(&q, I32, OP_N, OP_N, 4, 3, 5, 4, 5, 4);
    q.g.ab_type = I8;
    q.g.compute_type = C32I;
    gemm_bufs(&q, A, 3, B, 1, C, 0);
    expect_ok(f, f->s1, &q.op, 3);
    trn_op_refs_release(&f->refs);
    gemm_bufs(&q, A, 3, B, 1, C, 2);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: C");
    /* COMPUTE_32I scalars are int32 values. */
    gemm_bufs(&q, A, 0, B, 0, C, 0);
    q.alpha.re = 0.5;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "int32");
    q.alpha.re = 3e9;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "int32");
    q.alpha.re = -2147483648.0;
    q.beta.re = 2147483647.0;
    expect_ok(f, f->s1, &q.op, 3);
    trn_op_refs_release(&f->refs);

    /* Device scalars of COMPUTE_16F are halves: 2 bytes at offset 62 fit. */
    Trnsci__V1__BufferRef ap = TRNSCI__V1__BUFFER_REF__INIT, bp = TRNSCI__V1__BUFFER_REF__INIT;
    const uint64_t S = alloc(f->s1, 64);
    gemm_init(&q, F16, OP_N, OP_N, 4, 3, 5, 4, 5, 4);
    q.g.compute_type = C16;
    gemm_bufs(&q, A, 0, B, 0, C, 0);
    ap.buffer_id = bp.buffer_id = S;
    ap.offset = 60;
    bp.offset = 62;
    q.g.alpha_ptr = &ap;
    q.g.beta_ptr = &bp;
    expect_ok(f, f->s1, &q.op, 5);
    trn_op_refs_release(&f->refs);
    /* ... while COMPUTE_32F's are floats: 4 bytes at 62 do not. */
    q.g.compute_type = C32;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: beta");

    /* The narrow types are GEMM's only: other ops refuse them. */
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    Trnsci__V1__Blas1Op b1 = TRNSCI__V1__BLAS1_OP__INIT;
    Trnsci__V1__BufferRef x = TRNSCI__V1__BUFFER_REF__INIT;
    x.buffer_id = A;
    op.kind_case = TRNSCI__V1__OP__KIND_BLAS1;
    op.blas1 = &b1;
    b1.function = TRNSCI__V1__BLAS1_FUNCTION__BLAS1_COPY;
    b1.type = F16;
    b1.n = 4;
    b1.incx = b1.incy = 1;
    b1.x = b1.y = &x;
    expect_err(f, f->s1, &op, TRN_WIRE_INVALID_ARGUMENT, "type");
}

/* Rule: Z GEMM; alpha = i is not zero, so A and B are read. m=n=k=2, all ld=2:
 * ((2-1)*2+2)*16 = 64 bytes each, packed in one 192-byte buffer. */
static void test_zgemm_alpha_imaginary(void **state) {
    fx *f = *state;
    const uint64_t X = alloc(f->s1, 192);
    char *x = data_of(f->s1, X);
    gemm_msg q;
    gemm_init(&q, C_64F, OP_N, OP_N, 2, 2, 2, 2, 2, 2);
    q.alpha.re = 0.0;
    q.alpha.im = 1.0;
    gemm_bufs(&q, X, 0, X, 64, X, 128);
    expect_ok(f, f->s1, &q.op, 3);
    const trn_gemm_desc *g = &f->desc.u.gemm;
    assert_int_equal(g->type, TRN_DTYPE_C64F);
    assert_true(g->alpha.re == 0.0 && g->alpha.im == 1.0);
    assert_ptr_equal(g->a, x);
    assert_ptr_equal(g->b, x + 64);
    assert_ptr_equal(g->c, x + 128);
    trn_op_refs_release(&f->refs);

    /* With A missing, alpha = i still needs it. */
    gemm_bufs(&q, 0, 0, X, 64, X, 128);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: A");
}

/* ---- dimension and leading-dimension rules ---------------------------------- */

/* Rule: m, n, k must be in 0..INT_MAX. */
static void test_gemm_dims(void **state) {
    fx *f = *state;
    gemm_msg q;
    gemm_init(&q, R_32F, OP_N, OP_N, -1, 3, 5, 4, 5, 4);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: m");
    gemm_init(&q, R_32F, OP_N, OP_N, 4, -1, 5, 4, 5, 4);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: n");
    gemm_init(&q, R_32F, OP_N, OP_N, 4, 3, -1, 4, 5, 4);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: k");
    gemm_init(&q, R_32F, OP_N, OP_N, (int64_t)INT_MAX + 1, 3, 5, 4, 5, 4);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: m");
    gemm_init(&q, R_32F, OP_N, OP_N, 4, INT64_MIN, 5, 4, 5, 4);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: n");
    gemm_init(&q, R_32F, OP_N, OP_N, 4, 3, INT64_MAX, 4, 5, 4);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: k");

    /* INT_MAX itself is a valid dimension: m = INT_MAX with n = 0 has an
     * empty C, so nothing at all is needed. */
    gemm_init(&q, R_32F, OP_N, OP_N, INT_MAX, 0, 0, INT_MAX, 1, INT_MAX);
    expect_ok(f, f->s1, &q.op, 0);
    assert_int_equal(f->desc.u.gemm.m, INT_MAX);
    trn_op_refs_release(&f->refs);
}

/* Rule: lda >= max(1, m) when op(A) = A, >= max(1, k) when A^T/A^H;
 * ldb >= max(1, k) when op(B) = B, >= max(1, n) when B^T/B^H; ldc >= max(1, m);
 * every ld <= INT_MAX. m=6, n=5, k=2 in single precision. */
static void test_gemm_leading_dims(void **state) {
    fx *f = *state;
    /* Sizes for the passing cases: A as 6x2 (N, lda 6) or 2x6 (T, lda 2) is
     * ((2-1)*6+6)*4 = ((6-1)*2+2)*4 = 48 bytes; B as 2x5 (N, ldb 2) is
     * ((5-1)*2+2)*4 = 40 and 5x2 (T, ldb 5) ((2-1)*5+5)*4 = 40; C 6x5, ldc 6:
     * ((5-1)*6+6)*4 = 120. */
    const uint64_t A = alloc(f->s1, 48), B = alloc(f->s1, 40), C = alloc(f->s1, 120);
    gemm_msg q;

    /* lda, op(A) = A: needs 6. */
    gemm_init(&q, R_32F, OP_N, OP_N, 6, 5, 2, 5, 2, 6);
    gemm_bufs(&q, A, 0, B, 0, C, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "lda");
    q.g.lda = 2; /* k would do for A^T, not for A */
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "lda");
    q.g.lda = 6;
    expect_ok(f, f->s1, &q.op, 3);
    trn_op_refs_release(&f->refs);

    /* lda, op(A) = A^T or A^H: needs only k = 2. */
    gemm_init(&q, R_32F, OP_T, OP_N, 6, 5, 2, 2, 2, 6);
    gemm_bufs(&q, A, 0, B, 0, C, 0);
    expect_ok(f, f->s1, &q.op, 3);
    trn_op_refs_release(&f->refs);
    q.g.transa = OP_C;
    expect_ok(f, f->s1, &q.op, 3);
    trn_op_refs_release(&f->refs);
    q.g.lda = 1;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "lda");

    /* ldb, op(B) = B: needs k = 2. */
    gemm_init(&q, R_32F, OP_N, OP_N, 6, 5, 2, 6, 1, 6);
    gemm_bufs(&q, A, 0, B, 0, C, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "ldb");
    q.g.ldb = 2;
    expect_ok(f, f->s1, &q.op, 3);
    trn_op_refs_release(&f->refs);

    /* ldb, op(B) = B^T: needs n = 5, k is not enough. */
    gemm_init(&q, R_32F, OP_N, OP_T, 6, 5, 2, 6, 2, 6);
    gemm_bufs(&q, A, 0, B, 0, C, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "ldb");
    q.g.ldb = 4;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "ldb");
    q.g.ldb = 5;
    expect_ok(f, f->s1, &q.op, 3);
    trn_op_refs_release(&f->refs);

    /* ldc: needs m = 6. */
    gemm_init(&q, R_32F, OP_N, OP_N, 6, 5, 2, 6, 2, 5);
    gemm_bufs(&q, A, 0, B, 0, C, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "ldc");

    /* max(1, .): with m = 0 and k = 0, lda = 0 and ldc = 0 are still refused. */
    gemm_init(&q, R_32F, OP_N, OP_N, 0, 5, 2, 0, 2, 1);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "lda");
    gemm_init(&q, R_32F, OP_N, OP_N, 0, 5, 2, 1, 2, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "ldc");
    gemm_init(&q, R_32F, OP_N, OP_N, 6, 5, 0, 6, 0, 6);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "ldb");

    /* Negative and beyond-int leading dimensions. */
    gemm_init(&q, R_32F, OP_N, OP_N, 6, 5, 2, -6, 2, 6);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "lda");
    gemm_init(&q, R_32F, OP_N, OP_N, 6, 5, 2, (int64_t)INT_MAX + 1, 2, 6);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "lda");
    gemm_init(&q, R_32F, OP_N, OP_N, 6, 5, 2, 6, (int64_t)INT_MAX + 1, 6);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "ldb");
    gemm_init(&q, R_32F, OP_N, OP_N, 6, 5, 2, 6, 2, INT64_MIN);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "ldc");
}

/* Rule: data type must be R_32F/R_64F/C_32F/C_64F; operations N/T/C. */
static void test_gemm_type_and_trans(void **state) {
    fx *f = *state;
    gemm_msg q;
    sgemm_std(&q);
    q.g.type = TRNSCI__V1__DATA_TYPE__DATA_TYPE_UNSPECIFIED;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "data type");
    q.g.type = (Trnsci__V1__DataType)99;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "data type");
    sgemm_std(&q);
    q.g.transa = (Trnsci__V1__Operation)7;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "transa");
    sgemm_std(&q);
    q.g.transb = (Trnsci__V1__Operation)7;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "transb");
    sgemm_std(&q);
    q.g.transa = (Trnsci__V1__Operation)-1;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "transa");
}

/* ---- buffer extents ---------------------------------------------------------- */

/* Rule: exactly enough bytes passes, one byte short fails, for each of A, B
 * and C, with and without an offset; the message names the operand and the
 * exact byte count needed. A failure after A and B resolved drops their
 * references. */
static void test_gemm_exact_boundary(void **state) {
    fx *f = *state;
    const uint64_t A = alloc(f->s1, SA), B = alloc(f->s1, SB), C = alloc(f->s1, SC);
    const uint64_t A1 = alloc(f->s1, SA - 1), B1 = alloc(f->s1, SB - 1), C1 = alloc(f->s1, SC - 1);
    const uint64_t A8 = alloc(f->s1, 8 + SA), A8s = alloc(f->s1, 8 + SA - 1);
    gemm_msg q;
    sgemm_std(&q);

    gemm_bufs(&q, A, 0, B, 0, C, 0);
    expect_ok(f, f->s1, &q.op, 3);
    trn_op_refs_release(&f->refs);

    gemm_bufs(&q, A1, 0, B, 0, C, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: A");
    assert_non_null(strstr(f->err, "needs 80 bytes"));
    gemm_bufs(&q, A, 0, B1, 0, C, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: B");
    assert_non_null(strstr(f->err, "needs 60 bytes"));
    assert_int_equal(extra_refs(f->s1, A), 0);
    gemm_bufs(&q, A, 0, B, 0, C1, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: C");
    assert_non_null(strstr(f->err, "needs 48 bytes"));
    assert_int_equal(extra_refs(f->s1, A), 0);
    assert_int_equal(extra_refs(f->s1, B), 0);

    /* With an offset of 8 the buffer must hold 8 + 80 bytes. */
    gemm_bufs(&q, A8, 8, B, 0, C, 0);
    expect_ok(f, f->s1, &q.op, 3);
    assert_ptr_equal(f->desc.u.gemm.a, data_of(f->s1, A8) + 8);
    trn_op_refs_release(&f->refs);
    gemm_bufs(&q, A8s, 8, B, 0, C, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: A");

    /* Padding counts: ldc = 5 makes C ((3-1)*5+4)*4 = 56 bytes, not 48 and not
     * 3*5*4 = 60 (the last column stops at row m). */
    gemm_init(&q, R_32F, OP_N, OP_N, 4, 3, 5, 4, 5, 5);
    const uint64_t C56 = alloc(f->s1, 56), C55 = alloc(f->s1, 55);
    gemm_bufs(&q, A, 0, B, 0, C56, 0);
    expect_ok(f, f->s1, &q.op, 3);
    trn_op_refs_release(&f->refs);
    gemm_bufs(&q, A, 0, B, 0, C55, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: C");
    assert_non_null(strstr(f->err, "needs 56 bytes"));
}

/* Rule: an offset at or past the end, or one that would wrap, is refused;
 * offsets must be multiples of the real component size (4 for S/C, 8 for
 * D/Z). */
static void test_gemm_offsets(void **state) {
    fx *f = *state;
    const uint64_t A = alloc(f->s1, 256), B = alloc(f->s1, SB), C = alloc(f->s1, SC);
    gemm_msg q;
    sgemm_std(&q);

    gemm_bufs(&q, A, 256, B, 0, C, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: A");
    gemm_bufs(&q, A, 257, B, 0, C, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: A");
    gemm_bufs(&q, A, UINT64_MAX - 3, B, 0, C, 0); /* offset + 80 wraps */
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: A");
    gemm_bufs(&q, A, 256 - SA + 4, B, 0, C, 0); /* 4 bytes past the end */
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: A");

    /* Alignment, single precision: 4 passes, 2 fails. */
    gemm_bufs(&q, A, 4, B, 0, C, 0);
    expect_ok(f, f->s1, &q.op, 3);
    trn_op_refs_release(&f->refs);
    gemm_bufs(&q, A, 2, B, 0, C, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: A");
    assert_non_null(strstr(f->err, "multiple"));

    /* Double precision 2x2x2 (32 bytes per matrix): 8 passes, 4 fails, for
     * each operand. */
    gemm_init(&q, R_64F, OP_N, OP_N, 2, 2, 2, 2, 2, 2);
    gemm_bufs(&q, A, 8, A, 64, A, 128);
    expect_ok(f, f->s1, &q.op, 3);
    trn_op_refs_release(&f->refs);
    gemm_bufs(&q, A, 4, A, 64, A, 128);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: A");
    gemm_bufs(&q, A, 8, A, 68, A, 128);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: B");
    gemm_bufs(&q, A, 8, A, 64, A, 132);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: C");
    assert_int_equal(extra_refs(f->s1, A), 0);

    /* Complex double: 4 is not a multiple of 8. */
    gemm_init(&q, C_64F, OP_N, OP_N, 1, 1, 1, 1, 1, 1);
    gemm_bufs(&q, A, 4, A, 64, A, 128);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: A");
}

/* Rule: extents are computed without wrapping. With m = n = k = lda = ldb =
 * ldc = INT_MAX = 2^31 - 1 a matrix spans (2^31 - 1)^2 elements:
 * S: 4 (2^31 - 1)^2 = 18446744056529682436 bytes (fits in 64 bits, so the
 * error is the buffer being too small, with that exact count);
 * D: 8 (2^31 - 1)^2 > 2^64: the extent itself is refused, for A/B and — with
 * alpha = 0, when only C is needed — for C. */
static void test_gemm_extent_overflow(void **state) {
    fx *f = *state;
    const uint64_t X = alloc(f->s1, 64);
    gemm_msg q;
    gemm_init(&q, R_32F, OP_N, OP_N, INT_MAX, INT_MAX, INT_MAX, INT_MAX, INT_MAX, INT_MAX);
    gemm_bufs(&q, X, 0, X, 0, X, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: A");
    assert_non_null(strstr(f->err, "18446744056529682436"));

    gemm_init(&q, R_64F, OP_N, OP_N, INT_MAX, INT_MAX, INT_MAX, INT_MAX, INT_MAX, INT_MAX);
    gemm_bufs(&q, X, 0, X, 0, X, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "overflow");
    q.alpha.re = 0.0;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "overflow");
    assert_non_null(strstr(f->err, " C "));

    /* Z with a tall A^T: k = INT_MAX rows stored, lda = INT_MAX, m = 2^30
     * columns: ((2^30 - 1) * (2^31 - 1) + 2^31 - 1) * 16 = 2^30 (2^31 - 1) 16
     * = 2^34 (2^31 - 1) < 2^65 but > 2^64. */
    gemm_init(&q, C_64F, OP_T, OP_N, 1 << 30, 1, INT_MAX, INT_MAX, INT_MAX, 1 << 30);
    gemm_bufs(&q, X, 0, X, 0, X, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "overflow");
    assert_int_equal(extra_refs(f->s1, X), 0);
}

/* ---- when A and B are not needed ------------------------------------------------ */

/* Rule: with alpha = 0 (or absent: proto3 default 0) BLAS does not read A or
 * B, so they need not be given or valid; C is still required. */
static void test_gemm_alpha_zero(void **state) {
    fx *f = *state;
    const uint64_t C = alloc(f->s1, SC), C1 = alloc(f->s1, SC - 1);
    gemm_msg q;
    sgemm_std(&q);
    q.alpha.re = 0.0;
    q.beta.re = 3.0;
    gemm_bufs(&q, 0, 0, 0, 0, C, 0);
    expect_ok(f, f->s1, &q.op, 1);
    assert_null(f->desc.u.gemm.a);
    assert_null(f->desc.u.gemm.b);
    assert_ptr_equal(f->desc.u.gemm.c, data_of(f->s1, C));
    trn_op_refs_release(&f->refs);

    gemm_bufs(&q, 999, 3, 998, 1, C, 0); /* junk A/B are ignored */
    expect_ok(f, f->s1, &q.op, 1);
    trn_op_refs_release(&f->refs);

    q.g.alpha = NULL;
    gemm_bufs(&q, 0, 0, 0, 0, C, 0);
    expect_ok(f, f->s1, &q.op, 1);
    assert_true(f->desc.u.gemm.alpha.re == 0.0 && f->desc.u.gemm.alpha.im == 0.0);
    trn_op_refs_release(&f->refs);

    gemm_bufs(&q, 0, 0, 0, 0, C1, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: C");
    gemm_bufs(&q, 0, 0, 0, 0, 0, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: C");
}

/* Rule: k = 0 is C = beta C: A and B are not read, but lda/ldb still follow
 * the max(1, .) rules and C must fit. */
static void test_gemm_k_zero(void **state) {
    fx *f = *state;
    const uint64_t C = alloc(f->s1, SC);
    gemm_msg q;
    gemm_init(&q, R_32F, OP_N, OP_N, 4, 3, 0, 4, 1, 4);
    gemm_bufs(&q, 0, 0, 0, 0, C, 0);
    expect_ok(f, f->s1, &q.op, 1);
    assert_int_equal(f->desc.u.gemm.k, 0);
    assert_null(f->desc.u.gemm.a);
    assert_null(f->desc.u.gemm.b);
    assert_ptr_equal(f->desc.u.gemm.c, data_of(f->s1, C));
    trn_op_refs_release(&f->refs);

    q.g.lda = 3;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "lda");
    q.g.lda = 4;
    q.g.ldb = 0;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "ldb");
}

/* Rule: m = 0 or n = 0 means an empty C: no operand needs any bytes, so no
 * buffer at all is valid; a C buffer given is accepted (0 bytes from its
 * start). */
static void test_gemm_empty_c(void **state) {
    fx *f = *state;
    const uint64_t C = alloc(f->s1, 16);
    gemm_msg q;
    gemm_init(&q, R_32F, OP_N, OP_N, 0, 3, 5, 1, 5, 1);
    expect_ok(f, f->s1, &q.op, 0);
    assert_null(f->desc.u.gemm.c);
    trn_op_refs_release(&f->refs);
    gemm_bufs(&q, 0, 0, 0, 0, C, 0);
    expect_ok(f, f->s1, &q.op, 1);
    assert_ptr_equal(f->desc.u.gemm.c, data_of(f->s1, C));
    trn_op_refs_release(&f->refs);

    gemm_init(&q, R_64F, OP_T, OP_T, 4, 0, 5, 5, 1, 4);
    expect_ok(f, f->s1, &q.op, 0);
    trn_op_refs_release(&f->refs);
}

/* ---- buffer ownership ------------------------------------------------------------ */

/* Rule: a buffer id that does not exist in the calling session is refused the
 * same way whether it was never allocated, was freed, or belongs to another
 * session (the message must not reveal which). */
static void test_gemm_buffer_ownership(void **state) {
    fx *f = *state;
    const uint64_t A = alloc(f->s1, SA), B = alloc(f->s1, SB), C = alloc(f->s1, SC);
    /* s2 owns ids 1..5; s1 only 1..3. */
    uint64_t theirs = 0;
    for (int i = 0; i < 5; i++)
        theirs = alloc(f->s2, 256);
    assert_true(theirs > C);

    gemm_msg q;
    sgemm_std(&q);
    gemm_bufs(&q, theirs, 0, B, 0, C, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: A");
    assert_non_null(strstr(f->err, "does not exist"));
    char owned_elsewhere[512];
    strcpy(owned_elsewhere, f->err);
    assert_int_equal(extra_refs(f->s2, theirs), 0);

    /* The same id once nobody owns it: the identical message. */
    assert_int_equal(trn_session_free_buffer(f->s2, theirs), 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: A");
    assert_string_equal(f->err, owned_elsewhere);

    /* Never allocated anywhere. */
    gemm_bufs(&q, A, 0, 999, 0, C, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: B");
    assert_non_null(strstr(f->err, "does not exist"));

    /* No buffer (id 0) where bytes are needed. */
    gemm_bufs(&q, A, 0, B, 0, 0, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: C");

    /* Freed: gone at once, and freeing twice fails. */
    assert_int_equal(trn_session_free_buffer(f->s1, B), 0);
    assert_int_equal(trn_session_free_buffer(f->s1, B), -1);
    assert_int_equal(trn_session_free_buffer(f->s1, 0), -1);
    gemm_bufs(&q, A, 0, B, 0, C, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: B");
    assert_non_null(strstr(f->err, "does not exist"));

    /* An id s2 never had cannot be freed through s2; s1's A is untouched. */
    assert_int_equal(trn_session_free_buffer(f->s2, 999), -1);
    assert_int_equal(extra_refs(f->s1, A), 0);
}

/* ---- ops other than GEMM ---------------------------------------------------------- */

/* ---- the GEMM family: batches, compute types, device scalars -------------------- */

/* Rule: strided batches span (batch-1)*stride*es + one matrix per operand
 * (exactly enough passes, one byte short fails), stride 0 reuses one
 * matrix, strides and batch_count are checked, and C matrices that share an
 * element are refused (found by the b loop and by the dj loop). */
static void test_gemm_strided_batches(void **state) {
    fx *f = *state;
    /* S 4x3 = (4x5)(5x3), batch 3, strides one matrix apart: A 20, B 15, C 12
     * elements, so A spans 2*20*4 + 80 = 240 bytes, B 2*15*4 + 60 = 180, C
     * 2*12*4 + 48 = 144. */
    const uint64_t A = alloc(f->s1, 240), B = alloc(f->s1, 180), C = alloc(f->s1, 144);
    const uint64_t A1 = alloc(f->s1, 239);
    gemm_msg q;
    sgemm_std(&q);
    q.g.batch_count = 3;
    q.g.stride_a = 20;
    q.g.stride_b = 15;
    q.g.stride_c = 12;
    gemm_bufs(&q, A, 0, B, 0, C, 0);
    expect_ok(f, f->s1, &q.op, 3);
    const trn_gemm_desc *g = &f->desc.u.gemm;
    assert_int_equal(g->batch, 3);
    assert_int_equal(g->stride_a, 20);
    assert_int_equal(g->stride_c, 12);
    assert_null(g->a_list);
    trn_op_refs_release(&f->refs);
    gemm_bufs(&q, A1, 0, B, 0, C, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: A");
    /* Stride 0: every product reads matrix 0 of A, which spans 80 bytes. */
    q.g.stride_a = 0;
    const uint64_t A0 = alloc(f->s1, SA);
    gemm_bufs(&q, A0, 0, B, 0, C, 0);
    expect_ok(f, f->s1, &q.op, 3);
    trn_op_refs_release(&f->refs);
    q.g.stride_a = 20;
    gemm_bufs(&q, A, 0, B, 0, C, 0);
    /* Overlapping C: one column apart. */
    q.g.stride_c = 4;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "C matrices 0 and 1 overlap");
    q.g.stride_c = 0;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "C matrices 0 and 1 overlap");
    q.g.stride_c = -1;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "stride_c=-1");
    q.g.stride_c = 12;
    q.g.stride_a = INT64_MAX;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "overflows");
    q.g.stride_a = 20;
    q.g.batch_count = -1;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "batch_count=-1");
    q.g.batch_count = (int64_t)INT_MAX + 1;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "batch_count");

    /* Interleaved C: m = 2 rows of ldc = 4, two matrices 2 elements apart
     * share no element; a third one (4 apart: column 1 of matrix 0) does. */
    const uint64_t Ci = alloc(f->s1, ((3 - 1) * 4 + 4) * 4 + 2 * 2 * 4);
    gemm_init(&q, R_32F, OP_N, OP_N, 2, 3, 5, 2, 5, 4);
    q.alpha.re = 0; /* C only */
    q.g.batch_count = 2;
    q.g.stride_c = 2;
    gemm_bufs(&q, 0, 0, 0, 0, Ci, 0);
    expect_ok(f, f->s1, &q.op, 1);
    trn_op_refs_release(&f->refs);
    q.g.batch_count = 3;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "C matrices 0 and 2 overlap");

    /* More matrices than columns (the dj search): m = 1, n = 2, ldc = 10,
     * matrices one element apart. Matrix b holds elements b and 10 + b: ten of
     * them are disjoint, the eleventh (b = 10) meets matrix 0's column 1. */
    const uint64_t Cd = alloc(f->s1, (10 * 1 + 11) * 4);
    gemm_init(&q, R_32F, OP_N, OP_N, 1, 2, 5, 1, 5, 10);
    q.alpha.re = 0;
    q.g.batch_count = 10;
    q.g.stride_c = 1;
    gemm_bufs(&q, 0, 0, 0, 0, Cd, 0);
    expect_ok(f, f->s1, &q.op, 1);
    trn_op_refs_release(&f->refs);
    q.g.batch_count = 11;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "C matrices 0 and 10 overlap");
}

/* Pointer-array batches: one region per listed matrix (more than
 * TRN_OP_MAX_BUFFERS references), counts that match batch_count, a, b, c
 * unset, C matrices that do not overlap; a foreign entry fails with nothing
 * held. */
static void test_gemm_pointer_arrays(void **state) {
    fx *f = *state;
    enum { NB = 4 };
    uint64_t a[NB], b[NB], c[NB];
    for (int i = 0; i < NB; i++) {
        a[i] = alloc(f->s1, SA);
        b[i] = alloc(f->s1, SB);
        c[i] = alloc(f->s1, SC);
    }
    Trnsci__V1__BufferRef ra[NB], rb[NB], rc[NB], *pa[NB], *pb[NB], *pc[NB];
    for (int i = 0; i < NB; i++) {
        const Trnsci__V1__BufferRef z = TRNSCI__V1__BUFFER_REF__INIT;
        ra[i] = rb[i] = rc[i] = z;
        ra[i].buffer_id = a[i];
        rb[i].buffer_id = b[i];
        rc[i].buffer_id = c[i];
        pa[i] = &ra[i];
        pb[i] = &rb[i];
        pc[i] = &rc[i];
    }
    gemm_msg q;
    sgemm_std(&q);
    q.g.batch_count = NB;
    q.g.n_a_array = q.g.n_b_array = q.g.n_c_array = NB;
    q.g.a_array = pa;
    q.g.b_array = pb;
    q.g.c_array = pc;
    expect_ok(f, f->s1, &q.op, TRN_OP_MAX_BUFFERS);
    assert_int_equal(f->refs.nmore, 3 * NB - TRN_OP_MAX_BUFFERS);
    const trn_gemm_desc *g = &f->desc.u.gemm;
    for (int i = 0; i < NB; i++) {
        assert_ptr_equal(g->a_list[i], data_of(f->s1, a[i]));
        assert_ptr_equal(g->b_list[i], data_of(f->s1, b[i]));
        assert_ptr_equal(g->c_list[i], data_of(f->s1, c[i]));
        assert_int_equal(extra_refs(f->s1, c[i]), 1);
    }
    trn_op_refs_release(&f->refs);
    assert_int_equal(extra_refs(f->s1, c[NB - 1]), 0);

    /* One entry short of B. */
    rb[2].offset = 4;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: Barray[2]");
    assert_int_equal(f->refs.nmore, 0);
    rb[2].offset = 0;
    /* A buffer that does not exist (ownership is test_gemm_buffer_ownership's). */
    rc[3].buffer_id = 9999;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: Carray[3]");
    rc[3].buffer_id = c[3];
    /* Two entries naming the same C. */
    rc[1].buffer_id = c[0];
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "Carray[0] and Carray[1] overlap");
    rc[1].buffer_id = c[1];
    /* Counts. */
    q.g.n_b_array = NB - 1;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "pointer arrays hold");
    /* With alpha = 0 A and B are not needed. */
    q.g.n_a_array = q.g.n_b_array = 0;
    q.alpha.re = 0;
    expect_ok(f, f->s1, &q.op, NB);
    trn_op_refs_release(&f->refs);
    q.alpha.re = 1;
    q.g.n_a_array = q.g.n_b_array = NB;
    /* a, b, c must be unset. */
    gemm_bufs(&q, a[0], 0, 0, 0, 0, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "must be unset");
}

/* Rule: a 32F compute type takes R_32F/C_32F data, a 64F one R_64F/C_64F
 * (else UNIMPLEMENTED, cuBLAS's NOT_SUPPORTED); DEFAULT is the data type's
 * precision; unknown values are refused; stochastic rounding only with
 * FAST_16BF and FAST_TF32. */
static void test_gemm_compute_types(void **state) {
    fx *f = *state;
    const uint64_t A = alloc(f->s1, 2 * SA), B = alloc(f->s1, 2 * SB), C = alloc(f->s1, 2 * SC);
    gemm_msg q;
    sgemm_std(&q);
    gemm_bufs(&q, A, 0, B, 0, C, 0);
    expect_ok(f, f->s1, &q.op, 3);
    assert_int_equal(f->desc.u.gemm.compute, TRN_COMPUTE_32F);
    trn_op_refs_release(&f->refs);
    q.g.compute_type = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_64F_EMULATED;
    expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "64F mode");
    q.g.compute_type = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_BF16X3;
    expect_ok(f, f->s1, &q.op, 3);
    assert_int_equal(f->desc.u.gemm.compute, TRN_COMPUTE_32F_BF16X3);
    trn_op_refs_release(&f->refs);
    q.g.compute_type = (Trnsci__V1__ComputeType)99;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "compute type 99");
    q.g.compute_type = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F;
    q.g.stochastic_rounding = 1;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "stochastic rounding");
    q.g.compute_type = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_16BF;
    q.g.rounding_seed = 77;
    expect_ok(f, f->s1, &q.op, 3);
    assert_true(f->desc.u.gemm.stochastic == 1 && f->desc.u.gemm.seed == 77);
    trn_op_refs_release(&f->refs);
    /* The same shape in double: 64F modes only. */
    gemm_init(&q, R_64F, OP_N, OP_N, 4, 3, 5, 4, 5, 4);
    gemm_bufs(&q, A, 0, B, 0, C, 0);
    expect_ok(f, f->s1, &q.op, 3);
    assert_int_equal(f->desc.u.gemm.compute, TRN_COMPUTE_64F);
    trn_op_refs_release(&f->refs);
    q.g.compute_type = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_TF32;
    expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "32F mode");
    q.g.compute_type = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_64F_EMULATED;
    expect_ok(f, f->s1, &q.op, 3);
    trn_op_refs_release(&f->refs);
}

/* Rule: device-mode alpha and beta are regions of one element of the data
 * type; a device alpha means A and B must be valid (its value is unknown
 * until the op runs). */
static void test_gemm_device_scalars(void **state) {
    fx *f = *state;
    const uint64_t A = alloc(f->s1, SA), B = alloc(f->s1, SB), C = alloc(f->s1, SC);
    const uint64_t S = alloc(f->s1, 8), S3 = alloc(f->s1, 3);
    gemm_msg q;
    sgemm_std(&q);
    Trnsci__V1__BufferRef ap = TRNSCI__V1__BUFFER_REF__INIT, bp = TRNSCI__V1__BUFFER_REF__INIT;
    ap.buffer_id = S;
    bp.buffer_id = S;
    bp.offset = 4;
    q.g.alpha_ptr = &ap;
    q.g.beta_ptr = &bp;
    q.alpha.re = 0; /* ignored: the device alpha may be anything */
    gemm_bufs(&q, 0, 0, 0, 0, C, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: A");
    gemm_bufs(&q, A, 0, B, 0, C, 0);
    expect_ok(f, f->s1, &q.op, 5);
    assert_ptr_equal(f->desc.u.gemm.alpha_ptr, data_of(f->s1, S));
    assert_ptr_equal(f->desc.u.gemm.beta_ptr, data_of(f->s1, S) + 4);
    trn_op_refs_release(&f->refs);
    bp.offset = 5; /* past the end for 4 bytes, and misaligned */
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: beta");
    ap.buffer_id = S3;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gemm: alpha");
}

/* Rule: no op is INVALID_ARGUMENT; an op kind the daemon does not know (none
 * set, or a future field) is UNIMPLEMENTED. */
static void test_op_kinds(void **state) {
    fx *f = *state;
    expect_err(f, f->s1, NULL, TRN_WIRE_INVALID_ARGUMENT, "op");
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    expect_err(f, f->s1, &op, TRN_WIRE_UNIMPLEMENTED, "kind");
    op.kind_case = (Trnsci__V1__Op__KindCase)4000; /* no family's number */
    expect_err(f, f->s1, &op, TRN_WIRE_UNIMPLEMENTED, "kind");
}

typedef struct memset_msg {
    Trnsci__V1__Op op;
    Trnsci__V1__MemsetOp m;
    Trnsci__V1__BufferRef dst;
} memset_msg;

static void memset_init(memset_msg *q, uint64_t id, uint64_t off, uint32_t value, uint64_t bytes) {
    const Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    const Trnsci__V1__MemsetOp m = TRNSCI__V1__MEMSET_OP__INIT;
    const Trnsci__V1__BufferRef br = TRNSCI__V1__BUFFER_REF__INIT;
    q->op = op;
    q->m = m;
    q->dst = br;
    q->op.kind_case = TRNSCI__V1__OP__KIND_MEMSET;
    q->op.memset = &q->m;
    q->m.dst = &q->dst;
    q->dst.buffer_id = id;
    q->dst.offset = off;
    q->m.value = value;
    q->m.bytes = bytes;
}

/* Rule (cudaMemset): value is one byte (0..255); dst[offset, offset + bytes)
 * must lie in the buffer; 0 bytes needs no buffer. */
static void test_memset(void **state) {
    fx *f = *state;
    const uint64_t X = alloc(f->s1, 100);
    memset_msg q;
    memset_init(&q, X, 0, 255, 100);
    expect_ok(f, f->s1, &q.op, 1);
    assert_int_equal(f->desc.kind, TRN_OP_MEMSET);
    assert_ptr_equal(f->desc.u.memset.dst, data_of(f->s1, X));
    assert_int_equal(f->desc.u.memset.value, 255);
    assert_int_equal(f->desc.u.memset.bytes, 100);
    trn_op_refs_release(&f->refs);

    memset_init(&q, X, 10, 0, 90);
    expect_ok(f, f->s1, &q.op, 1);
    assert_ptr_equal(f->desc.u.memset.dst, data_of(f->s1, X) + 10);
    trn_op_refs_release(&f->refs);

    memset_init(&q, X, 0, 256, 100);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "value");
    memset_init(&q, X, 0, UINT32_MAX, 1);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "value");
    memset_init(&q, X, 0, 1, 101);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "memset: dst");
    memset_init(&q, X, 10, 1, 91);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "memset: dst");
    memset_init(&q, X, 101, 1, 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "memset: dst");
    memset_init(&q, X, 1, 1, UINT64_MAX);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "memset");
    memset_init(&q, 0, 0, 1, 5);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "memset: dst");
    q.m.dst = NULL; /* absent sub-message = buffer 0 */
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "memset: dst");

    memset_init(&q, 0, 0, 7, 0);
    expect_ok(f, f->s1, &q.op, 0);
    assert_null(f->desc.u.memset.dst);
    assert_int_equal(f->desc.u.memset.bytes, 0);
    trn_op_refs_release(&f->refs);
}

typedef struct rand_msg {
    Trnsci__V1__Op op;
    Trnsci__V1__RandGenerateOp r;
    Trnsci__V1__BufferRef dst;
} rand_msg;

static void rand_init(rand_msg *q, Trnsci__V1__RandDistribution dist, uint64_t buf, uint64_t off,
                      uint64_t count) {
    const Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    const Trnsci__V1__RandGenerateOp r = TRNSCI__V1__RAND_GENERATE_OP__INIT;
    const Trnsci__V1__BufferRef br = TRNSCI__V1__BUFFER_REF__INIT;
    q->op = op;
    q->r = r;
    q->dst = br;
    q->op.kind_case = TRNSCI__V1__OP__KIND_RAND_GENERATE;
    q->op.rand_generate = &q->r;
    q->r.distribution = dist;
    q->r.seed = 1234;
    q->r.offset = 5;
    q->r.stddev = 1.0;
    q->r.dst = &q->dst;
    q->dst.buffer_id = buf;
    q->dst.offset = off;
    q->r.count = count;
}

#define RAND(x) TRNSCI__V1__RAND_DISTRIBUTION__RAND_##x

/* Rules (curandGenerate*): output of count elements of the distribution's
 * type inside one buffer, aligned to the element size; normal and log-normal
 * counts even (Box-Muller pairs), stddev > 0, mean and stddev finite; a
 * Poisson lambda finite, > 0 and <= TRN_RAND_POISSON_LAMBDA_MAX (any count,
 * 2 words and 4 bytes per element); the call must not run past word
 * 2^64 - 1 of the stream; a known distribution. */
static void test_rand(void **state) {
    fx *f = *state;
    const uint64_t X = alloc(f->s1, 64);
    rand_msg q;
    rand_init(&q, RAND(UNIFORM_F32), X, 0, 16);
    expect_ok(f, f->s1, &q.op, 1);
    assert_int_equal(f->desc.kind, TRN_OP_RAND);
    assert_int_equal(f->desc.u.rand.dist, TRN_RAND_UNIFORM_F32);
    assert_ptr_equal(f->desc.u.rand.dst, data_of(f->s1, X));
    assert_int_equal(f->desc.u.rand.n, 16);
    assert_int_equal(f->desc.u.rand.seed, 1234);
    assert_int_equal(f->desc.u.rand.offset, 5);
    trn_op_refs_release(&f->refs);
    rand_init(&q, RAND(UNIFORM_F64), X, 8, 7); /* exactly the 56 bytes left */
    expect_ok(f, f->s1, &q.op, 1);
    trn_op_refs_release(&f->refs);

    rand_init(&q, RAND(UNIFORM_F64), X, 8, 8); /* 8 bytes short */
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "rand: dst");
    rand_init(&q, RAND(UNIFORM_F64), X, 4, 2); /* misaligned for doubles */
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "rand: dst");
    rand_init(&q, RAND(NORMAL_F32), X, 0, 3);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "even");
    rand_init(&q, RAND(LOGNORMAL_F64), X, 0, 2);
    q.r.stddev = 0.0;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "stddev");
    rand_init(&q, RAND(NORMAL_F64), X, 0, 2);
    q.r.mean = NAN;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "mean");
    /* Poisson: 16 uint32 fill the 64 bytes; odd counts are fine. */
    rand_init(&q, RAND(POISSON), X, 0, 16);
    q.r.lambda = 7.5;
    expect_ok(f, f->s1, &q.op, 1);
    assert_int_equal(f->desc.u.rand.dist, TRN_RAND_POISSON);
    assert_true(f->desc.u.rand.lambda == 7.5);
    assert_int_equal(f->desc.u.rand.n, 16);
    trn_op_refs_release(&f->refs);
    rand_init(&q, RAND(POISSON), X, 4, 15);
    q.r.lambda = TRN_RAND_POISSON_LAMBDA_MAX;
    expect_ok(f, f->s1, &q.op, 1);
    trn_op_refs_release(&f->refs);
    rand_init(&q, RAND(POISSON), X, 4, 16); /* 4 bytes short */
    q.r.lambda = 1.0;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "rand: dst");
    static const double bad_lambda[] = {
        0.0, -0.0, -1.0, NAN, INFINITY, -INFINITY, TRN_RAND_POISSON_LAMBDA_MAX * (1 + 0x1p-52)};
    for (size_t b = 0; b < sizeof(bad_lambda) / sizeof(bad_lambda[0]); b++) {
        rand_init(&q, RAND(POISSON), X, 0, 4);
        q.r.lambda = bad_lambda[b];
        expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "lambda");
    }
    rand_init(&q, RAND(POISSON), X, 0, 4); /* lambda left at 0 */
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "lambda");
    rand_init(&q, RAND(POISSON), X, 0, 4);
    q.r.lambda = 3.0;
    q.r.offset = UINT64_MAX - 7; /* 8 words from here would reach 2^64 */
    expect_err(f, f->s1, &q.op, TRN_WIRE_OUT_OF_RANGE, "end of the stream");
    rand_init(&q, RAND(U32), X, 0, 4);
    q.r.offset = UINT64_MAX - 2; /* 4 words from here would pass 2^64 */
    expect_err(f, f->s1, &q.op, TRN_WIRE_OUT_OF_RANGE, "end of the stream");
    q.r.offset = UINT64_MAX - 4; /* the last 4 words: allowed */
    expect_ok(f, f->s1, &q.op, 1);
    trn_op_refs_release(&f->refs);
    rand_init(&q, RAND(U32), X, 0, UINT64_MAX / 2);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "count");
    rand_init(&q, RAND(DISTRIBUTION_UNSPECIFIED), X, 0, 4);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "distribution");
    rand_init(&q, (Trnsci__V1__RandDistribution)99, X, 0, 4);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "distribution");
    rand_init(&q, RAND(U32), X + 1, 0, 4); /* no such buffer in this session */
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "rand: dst");
}

#define RGEN(x) TRNSCI__V1__RAND_GENERATOR__RAND_GENERATOR_##x

/* Rules of the Sobol generators (curandSetQuasiRandomGeneratorDimensions,
 * curandGenerate* on a quasi-random generator): a known generator;
 * dimensions 1 .. TRN_SOBOL_MAX_DIMS; count a multiple of dimensions (odd
 * normal counts are fine: no Box-Muller pairs); points offset ..
 * offset + count/dimensions - 1 below 2^32; no Poisson; the output rules of
 * the Philox ops. */
static void test_rand_sobol(void **state) {
    fx *f = *state;
    const uint64_t X = alloc(f->s1, 64);
    rand_msg q;
    rand_init(&q, RAND(U32), X, 0, 16);
    q.r.generator = RGEN(SOBOL32);
    q.r.dimensions = 4;
    expect_ok(f, f->s1, &q.op, 1);
    assert_int_equal(f->desc.u.rand.gen, TRN_RAND_SOBOL32);
    assert_int_equal(f->desc.u.rand.dims, 4);
    assert_int_equal(f->desc.u.rand.offset, 5);
    assert_int_equal(f->desc.u.rand.n, 16);
    trn_op_refs_release(&f->refs);
    rand_init(&q, RAND(NORMAL_F32), X, 4, 15); /* odd: fine for Sobol */
    q.r.generator = RGEN(SCRAMBLED_SOBOL32);
    q.r.dimensions = 5;
    expect_ok(f, f->s1, &q.op, 1);
    assert_int_equal(f->desc.u.rand.gen, TRN_RAND_SCRAMBLED_SOBOL32);
    trn_op_refs_release(&f->refs);
    rand_init(&q, RAND(UNIFORM_F32), X, 0, 16); /* 16 dimensions */
    q.r.generator = RGEN(SOBOL32);
    q.r.dimensions = 16;
    q.r.offset = ((uint64_t)1 << 32) - 1; /* the last point */
    expect_ok(f, f->s1, &q.op, 1);
    trn_op_refs_release(&f->refs);
    /* Philox ignores dimensions. */
    rand_init(&q, RAND(U32), X, 0, 3);
    q.r.dimensions = 2;
    expect_ok(f, f->s1, &q.op, 1);
    assert_int_equal(f->desc.u.rand.gen, TRN_RAND_PHILOX);
    trn_op_refs_release(&f->refs);

    static const uint32_t bad_dims[] = {0, TRN_SOBOL_MAX_DIMS + 1, 100000, UINT32_MAX};
    for (size_t b = 0; b < sizeof(bad_dims) / sizeof(bad_dims[0]); b++) {
        rand_init(&q, RAND(U32), X, 0, 4);
        q.r.generator = RGEN(SOBOL32);
        q.r.dimensions = bad_dims[b];
        expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "dimensions");
    }
    rand_init(&q, RAND(U32), X, 0, 10);
    q.r.generator = RGEN(SOBOL32);
    q.r.dimensions = 4;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "multiple");
    rand_init(&q, RAND(UNIFORM_F64), X, 0, 4);
    q.r.generator = RGEN(SCRAMBLED_SOBOL32);
    q.r.dimensions = 2;
    q.r.offset = ((uint64_t)1 << 32) - 1; /* 2 points from here pass 2^32 */
    expect_err(f, f->s1, &q.op, TRN_WIRE_OUT_OF_RANGE, "2^32");
    q.r.offset = UINT64_MAX;
    expect_err(f, f->s1, &q.op, TRN_WIRE_OUT_OF_RANGE, "2^32");
    rand_init(&q, RAND(POISSON), X, 0, 4);
    q.r.generator = RGEN(SOBOL32);
    q.r.dimensions = 1;
    q.r.lambda = 2.0;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "Poisson");
    rand_init(&q, RAND(U32), X, 0, 4);
    q.r.generator = (Trnsci__V1__RandGenerator)9; /* after MTGP32 */
    q.r.dimensions = 1;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "generator 9 is not known");
    rand_init(&q, RAND(U32), X, 4, 16); /* 4 bytes short */
    q.r.generator = RGEN(SOBOL32);
    q.r.dimensions = 2;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "rand: dst");
    rand_init(&q, RAND(NORMAL_F64), X, 0, 2);
    q.r.generator = RGEN(SOBOL32);
    q.r.dimensions = 1;
    q.r.stddev = -1.0;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "stddev");
}

/* Sobol64: RAND_U64 only from it, offsets up to 2^64 - 1. */
static void test_rand_sobol64(void **state) {
    fx *f = *state;
    const uint64_t X = alloc(f->s1, 64);
    rand_msg q;
    rand_init(&q, RAND(U64), X, 0, 8);
    q.r.generator = RGEN(SOBOL64);
    q.r.dimensions = 2;
    expect_ok(f, f->s1, &q.op, 1);
    assert_int_equal(f->desc.u.rand.gen, TRN_RAND_SOBOL64);
    assert_int_equal(f->desc.u.rand.dist, TRN_RAND_U64);
    trn_op_refs_release(&f->refs);
    rand_init(&q, RAND(UNIFORM_F64), X, 0, 8);
    q.r.generator = RGEN(SCRAMBLED_SOBOL64);
    q.r.dimensions = 1;
    q.r.offset = UINT64_MAX - 8; /* offset + 8 points = 2^64 - 1: allowed */
    expect_ok(f, f->s1, &q.op, 1);
    assert_int_equal(f->desc.u.rand.gen, TRN_RAND_SCRAMBLED_SOBOL64);
    trn_op_refs_release(&f->refs);
    q.r.offset = UINT64_MAX - 7; /* one past */
    expect_err(f, f->s1, &q.op, TRN_WIRE_OUT_OF_RANGE, "2^64");
    rand_init(&q, RAND(U64), X, 8, 8); /* 8 bytes short */
    q.r.generator = RGEN(SOBOL64);
    q.r.dimensions = 1;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "rand: dst");
    rand_init(&q, RAND(U32), X, 0, 4);
    q.r.generator = RGEN(SOBOL64);
    q.r.dimensions = 1;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "RAND_U64");
    rand_init(&q, RAND(U64), X, 0, 4);
    q.r.generator = RGEN(SOBOL32);
    q.r.dimensions = 1;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "RAND_U64");
    rand_init(&q, RAND(U64), X, 0, 4); /* Philox */
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "Sobol64");
    rand_init(&q, RAND(U64), X, 0, 4);
    q.r.generator = RGEN(SOBOL64);
    q.r.dimensions = TRN_SOBOL_MAX_DIMS + 1;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "dimensions");
    rand_init(&q, RAND(GAMMA_F64), X, 0, 4);
    q.r.generator = RGEN(SOBOL64);
    q.r.dimensions = 1;
    q.r.shape = q.r.scale = 1.0;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "Philox only");
}

/* The extensions: each parameter's boundary accepted and one past refused,
 * the message naming it; Philox only; extents and offsets overflow-checked. */
/* The sequential pseudo-random generators (XORWOW, MRG32k3a, MT19937): the
 * Philox rules (offset in words, even normal counts, Poisson lambda), the
 * exponential extension, not the Philox sub-stream extensions nor U64. */
static void test_rand_seq_gens(void **state) {
    fx *f = *state;
    const uint64_t X = alloc(f->s1, 64);
    rand_msg q;
    static const struct {
        Trnsci__V1__RandGenerator wire;
        trn_rand_gen gen;
    } g[] = {{RGEN(XORWOW), TRN_RAND_XORWOW},
             {RGEN(MRG32K3A), TRN_RAND_MRG32K3A},
             {RGEN(MT19937), TRN_RAND_MT19937},
             {RGEN(MTGP32), TRN_RAND_MTGP32}};
    for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
        rand_init(&q, RAND(POISSON), X, 0, 16);
        q.r.generator = g[i].wire;
        q.r.lambda = 3.0;
        q.r.dimensions = 9; /* ignored */
        expect_ok(f, f->s1, &q.op, 1);
        assert_int_equal(f->desc.u.rand.gen, g[i].gen);
        assert_int_equal(f->desc.u.rand.dims, 0);
        assert_int_equal(f->desc.u.rand.offset, 5);
        trn_op_refs_release(&f->refs);
        rand_init(&q, RAND(EXPONENTIAL_F32), X, 0, 16);
        q.r.generator = g[i].wire;
        q.r.lambda = 1.0;
        expect_ok(f, f->s1, &q.op, 1);
        trn_op_refs_release(&f->refs);
        rand_init(&q, RAND(NORMAL_F32), X, 0, 3);
        q.r.generator = g[i].wire;
        q.r.stddev = 1.0;
        expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "even");
        rand_init(&q, RAND(GAMMA_F32), X, 0, 4);
        q.r.generator = g[i].wire;
        q.r.shape = q.r.scale = 1.0;
        expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "Philox only");
        rand_init(&q, RAND(LATIN_HYPERCUBE_F64), X, 0, 4);
        q.r.generator = g[i].wire;
        q.r.lhs_dimensions = 2;
        expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "Philox only");
        rand_init(&q, RAND(U64), X, 0, 4);
        q.r.generator = g[i].wire;
        expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "Sobol64");
        rand_init(&q, RAND(U32), X, 0, 4);
        q.r.generator = g[i].wire;
        q.r.offset = UINT64_MAX - 3;
        expect_err(f, f->s1, &q.op, TRN_WIRE_OUT_OF_RANGE, "end of the stream");
    }
}

/* MTGP32: its layout field (0 -> 192, 192, 64; nothing else, and 0 for the
 * other generators) and its stream's end at word 2^32. */
static void test_rand_mtgp32(void **state) {
    fx *f = *state;
    const uint64_t X = alloc(f->s1, 64);
    rand_msg q;
    static const struct { uint32_t wire, desc; } ok[] = {{0, 192}, {192, 192}, {64, 64}};
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        rand_init(&q, RAND(U32), X, 0, 4);
        q.r.generator = RGEN(MTGP32);
        q.r.mtgp_states = ok[i].wire;
        expect_ok(f, f->s1, &q.op, 1);
        assert_int_equal(f->desc.u.rand.gen, TRN_RAND_MTGP32);
        assert_int_equal(f->desc.u.rand.mtgp_states, ok[i].desc);
        trn_op_refs_release(&f->refs);
    }
    static const uint32_t bad[] = {1, 63, 65, 128, 191, 193, 200, UINT32_MAX};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        rand_init(&q, RAND(U32), X, 0, 4);
        q.r.generator = RGEN(MTGP32);
        q.r.mtgp_states = bad[i];
        expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "mtgp_states");
    }
    rand_init(&q, RAND(U32), X, 0, 4);
    q.r.generator = RGEN(XORWOW);
    q.r.mtgp_states = 64;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "mtgp_states");
    /* offset + words <= 2^32 */
    rand_init(&q, RAND(UNIFORM_F64), X, 0, 2);
    q.r.generator = RGEN(MTGP32);
    q.r.offset = (UINT64_C(1) << 32) - 4;
    expect_ok(f, f->s1, &q.op, 1);
    trn_op_refs_release(&f->refs);
    q.r.offset = (UINT64_C(1) << 32) - 3;
    expect_err(f, f->s1, &q.op, TRN_WIRE_OUT_OF_RANGE, "2^32");
    q.r.offset = UINT64_MAX - 1;
    expect_err(f, f->s1, &q.op, TRN_WIRE_OUT_OF_RANGE, "end of the stream");
}

static void test_rand_ext(void **state) {
    fx *f = *state;
    const uint64_t X = alloc(f->s1, 64);
    rand_msg q;
    static const double bad_pos[] = {0.0, -0.0, -1.0, NAN, INFINITY, -INFINITY};
    const double tiny = 0x1p-1074;
    /* exponential: lambda */
    rand_init(&q, RAND(EXPONENTIAL_F64), X, 0, 8);
    q.r.lambda = tiny;
    expect_ok(f, f->s1, &q.op, 1);
    assert_int_equal(f->desc.u.rand.dist, TRN_RAND_EXPONENTIAL_F64);
    assert_true(f->desc.u.rand.lambda == tiny);
    trn_op_refs_release(&f->refs);
    rand_init(&q, RAND(EXPONENTIAL_F32), X, 0, 16);
    q.r.lambda = DBL_MAX;
    expect_ok(f, f->s1, &q.op, 1);
    trn_op_refs_release(&f->refs);
    rand_init(&q, RAND(EXPONENTIAL_F64), X, 0, 9); /* 8 bytes short */
    q.r.lambda = 1.0;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "rand: dst");
    rand_init(&q, RAND(EXPONENTIAL_F64), X, 0, 4);
    q.r.lambda = 1.0;
    q.r.offset = UINT64_MAX - 8; /* 8 words: the offset after is 2^64 - 1 */
    expect_ok(f, f->s1, &q.op, 1);
    trn_op_refs_release(&f->refs);
    q.r.offset = UINT64_MAX - 7;
    expect_err(f, f->s1, &q.op, TRN_WIRE_OUT_OF_RANGE, "end of the stream");
    for (size_t b = 0; b < sizeof(bad_pos) / sizeof(bad_pos[0]); b++) {
        rand_init(&q, RAND(EXPONENTIAL_F32), X, 0, 4);
        q.r.lambda = bad_pos[b];
        expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "exponential lambda");
        rand_init(&q, RAND(GAMMA_F32), X, 0, 4);
        q.r.shape = bad_pos[b];
        q.r.scale = 1.0;
        expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gamma shape");
        q.r.shape = 1.0;
        q.r.scale = bad_pos[b];
        expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "gamma scale");
        rand_init(&q, RAND(BETA_F64), X, 0, 4);
        q.r.beta_a = bad_pos[b];
        q.r.beta_b = 1.0;
        expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "beta a");
        q.r.beta_a = 1.0;
        q.r.beta_b = bad_pos[b];
        expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "beta b");
        rand_init(&q, RAND(TRUNCATED_NORMAL_F64), X, 0, 4);
        q.r.stddev = bad_pos[b];
        q.r.lower = -1.0;
        q.r.upper = 1.0;
        expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "stddev");
    }
    /* gamma, beta: the smallest positive values pass; one element per id */
    rand_init(&q, RAND(GAMMA_F64), X, 0, 8);
    q.r.shape = tiny;
    q.r.scale = tiny;
    q.r.offset = UINT64_MAX - 8; /* 1 word per element */
    expect_ok(f, f->s1, &q.op, 1);
    assert_true(f->desc.u.rand.shape == tiny && f->desc.u.rand.scale == tiny);
    trn_op_refs_release(&f->refs);
    q.r.offset = UINT64_MAX - 7;
    expect_err(f, f->s1, &q.op, TRN_WIRE_OUT_OF_RANGE, "end of the stream");
    rand_init(&q, RAND(BETA_F32), X, 0, 16);
    q.r.beta_a = tiny;
    q.r.beta_b = DBL_MAX;
    expect_ok(f, f->s1, &q.op, 1);
    assert_true(f->desc.u.rand.beta_a == tiny && f->desc.u.rand.beta_b == DBL_MAX);
    trn_op_refs_release(&f->refs);
    /* truncated normal: lower < upper, infinities allowed, NaN refused */
    rand_init(&q, RAND(TRUNCATED_NORMAL_F32), X, 0, 16);
    q.r.mean = 1.0;
    q.r.stddev = 2.0;
    q.r.lower = -INFINITY;
    q.r.upper = INFINITY;
    expect_ok(f, f->s1, &q.op, 1);
    assert_true(f->desc.u.rand.lower == -INFINITY && f->desc.u.rand.upper == INFINITY);
    trn_op_refs_release(&f->refs);
    q.r.lower = 1.0;
    q.r.upper = nextafter(1.0, 2.0);
    expect_ok(f, f->s1, &q.op, 1);
    trn_op_refs_release(&f->refs);
    static const double bad_lu[][2] = {{1.0, 1.0}, {2.0, 1.0},           {NAN, 1.0},
                                       {0.0, NAN}, {INFINITY, INFINITY}, {-INFINITY, -INFINITY}};
    for (size_t b = 0; b < sizeof(bad_lu) / sizeof(bad_lu[0]); b++) {
        q.r.lower = bad_lu[b][0];
        q.r.upper = bad_lu[b][1];
        expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "lower must be < upper");
    }
    q.r.lower = -1.0;
    q.r.upper = 1.0;
    q.r.mean = INFINITY;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "mean");
    /* Latin hypercube: dims >= 1, count a multiple, 2 words per element + 6
     * per dimension, the points limit of each type. */
    rand_init(&q, RAND(LATIN_HYPERCUBE_F64), X, 0, 8);
    q.r.lhs_dimensions = 4;
    expect_ok(f, f->s1, &q.op, 1);
    assert_int_equal(f->desc.u.rand.lhs_dims, 4);
    trn_op_refs_release(&f->refs);
    q.r.offset = UINT64_MAX - 40; /* 16 + 24 words: offset after 2^64 - 1 */
    expect_ok(f, f->s1, &q.op, 1);
    trn_op_refs_release(&f->refs);
    q.r.offset = UINT64_MAX - 39;
    expect_err(f, f->s1, &q.op, TRN_WIRE_OUT_OF_RANGE, "end of the stream");
    q.r.offset = 0;
    q.r.lhs_dimensions = 0;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "lhs_dimensions");
    q.r.lhs_dimensions = 3;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "multiple of lhs_dimensions");
    q.r.lhs_dimensions = UINT32_MAX;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "multiple of lhs_dimensions");
    /* points per dimension over the limit (checked before the extent) */
    rand_init(&q, RAND(LATIN_HYPERCUBE_F32), X, 0, (UINT64_C(1) << 20) + 1);
    q.r.lhs_dimensions = 1;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "points");
    rand_init(&q, RAND(LATIN_HYPERCUBE_F64), X, 0, (UINT64_C(1) << 32) + 1);
    q.r.lhs_dimensions = 1;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "points");
    rand_init(&q, RAND(LATIN_HYPERCUBE_F64), X, 0, UINT64_MAX - 1);
    q.r.lhs_dimensions = 2; /* 2^63 - 1 points: over the limit */
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "points");
    /* overflowing counts */
    rand_init(&q, RAND(GAMMA_F64), X, 0, UINT64_MAX / 4);
    q.r.shape = q.r.scale = 1.0;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "count");
    /* quasi generators: the extensions are Philox only */
    rand_init(&q, RAND(BETA_F32), X, 0, 4);
    q.r.beta_a = q.r.beta_b = 1.0;
    q.r.generator = RGEN(SOBOL32);
    q.r.dimensions = 1;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "Philox only");
    rand_init(&q, (Trnsci__V1__RandDistribution)20, X, 0, 4); /* after RAND_U64 */
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "distribution 20 is not known");
}

typedef struct copy_msg {
    Trnsci__V1__Op op;
    Trnsci__V1__CopyOp c;
    Trnsci__V1__BufferRef dst, src;
} copy_msg;

static void copy_init(copy_msg *q, uint64_t dst, uint64_t dst_off, uint64_t src, uint64_t src_off,
                      uint64_t bytes) {
    const Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    const Trnsci__V1__CopyOp c = TRNSCI__V1__COPY_OP__INIT;
    const Trnsci__V1__BufferRef br = TRNSCI__V1__BUFFER_REF__INIT;
    q->op = op;
    q->c = c;
    q->dst = q->src = br;
    q->op.kind_case = TRNSCI__V1__OP__KIND_COPY;
    q->op.copy = &q->c;
    q->c.dst = &q->dst;
    q->c.src = &q->src;
    q->dst.buffer_id = dst;
    q->dst.offset = dst_off;
    q->src.buffer_id = src;
    q->src.offset = src_off;
    q->c.bytes = bytes;
}

/* Rule (cudaMemcpy device to device): both [offset, offset + bytes) ranges
 * must lie in their buffers; overlap within one buffer is allowed. */
static void test_copy(void **state) {
    fx *f = *state;
    const uint64_t D = alloc(f->s1, 100), S = alloc(f->s1, 50);
    copy_msg q;
    copy_init(&q, D, 50, S, 0, 50);
    expect_ok(f, f->s1, &q.op, 2);
    assert_int_equal(f->desc.kind, TRN_OP_COPY);
    assert_ptr_equal(f->desc.u.copy.dst, data_of(f->s1, D) + 50);
    assert_ptr_equal(f->desc.u.copy.src, data_of(f->s1, S));
    assert_int_equal(f->desc.u.copy.bytes, 50);
    trn_op_refs_release(&f->refs);

    copy_init(&q, D, 0, S, 0, 51); /* dst fits, src is one byte short */
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "copy: src");
    assert_int_equal(extra_refs(f->s1, D), 0);
    copy_init(&q, D, 51, S, 0, 50); /* dst one byte short */
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "copy: dst");
    copy_init(&q, D, 0, S, 1, 50);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "copy: src");
    copy_init(&q, D, 0, 999, 0, 10);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "copy: src");
    copy_init(&q, 999, 0, S, 0, 10);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "copy: dst");

    /* Overlapping ranges in one buffer. */
    copy_init(&q, D, 10, D, 0, 60);
    expect_ok(f, f->s1, &q.op, 2);
    assert_ptr_equal(f->desc.u.copy.dst, data_of(f->s1, D) + 10);
    assert_ptr_equal(f->desc.u.copy.src, data_of(f->s1, D));
    trn_op_refs_release(&f->refs);
}

/* ---- quota ------------------------------------------------------------------------ */

/* Rule: a session may hold at most max_session_bytes; beyond it Alloc is
 * RESOURCE_EXHAUSTED naming the quota, and other sessions are unaffected;
 * 0 bytes is INVALID_ARGUMENT; freeing returns the bytes. */
static void test_quota(void **state) {
    fx *f = *state;
    uint64_t id = 0;
    char err[256] = "";
    assert_int_equal(
        trn_session_alloc(f->s1, 0, TRN_ALLOC_DEVICE, &id, &fd_unused, err, sizeof(err)),
        TRN_WIRE_INVALID_ARGUMENT);

    const uint64_t big = alloc(f->s1, QUOTA - 100);
    const uint64_t rest = alloc(f->s1, 100); /* exactly the quota */
    assert_int_not_equal(big, rest);
    err[0] = '\0';
    assert_int_equal(
        trn_session_alloc(f->s1, 1, TRN_ALLOC_DEVICE, &id, &fd_unused, err, sizeof(err)),
        TRN_WIRE_RESOURCE_EXHAUSTED);
    assert_non_null(strstr(err, "max-session-bytes"));
    assert_int_equal(
        trn_session_alloc(f->s1, UINT64_MAX, TRN_ALLOC_DEVICE, &id, &fd_unused, err, sizeof(err)),
        TRN_WIRE_RESOURCE_EXHAUSTED);

    /* The quota is per session. */
    const uint64_t other = alloc(f->s2, QUOTA);
    assert_int_equal(
        trn_session_alloc(f->s2, QUOTA + 1ull, TRN_ALLOC_DEVICE, &id, &fd_unused, err, sizeof(err)),
        TRN_WIRE_RESOURCE_EXHAUSTED);
    assert_int_equal(atomic_load(&f->table.bytes_held), 2ull * QUOTA);
    assert_int_equal(atomic_load(&f->table.buffers), 3);

    /* Freeing returns the bytes. */
    assert_int_equal(trn_session_free_buffer(f->s1, rest), 0);
    const uint64_t again = alloc(f->s1, 100);
    assert_int_not_equal(again, rest); /* ids are not reused */
    assert_int_equal(trn_session_free_buffer(f->s2, other), 0);
    assert_int_equal(atomic_load(&f->table.bytes_held), (uint64_t)QUOTA);
}

/* Rule: bytes are credited when the memory is released, i.e. after the last
 * op reference: a freed buffer still used by a validated op keeps counting
 * against the quota (and its memory stays valid for the op) until the op's
 * references are released. */
static void test_quota_credit_after_release(void **state) {
    fx *f = *state;
    const uint64_t X = alloc(f->s1, QUOTA);
    memset_msg q;
    memset_init(&q, X, 0, 0xab, QUOTA);
    expect_ok(f, f->s1, &q.op, 1);
    trn_op_refs held = f->refs;
    unsigned char *dst = f->desc.u.memset.dst;

    assert_int_equal(trn_session_free_buffer(f->s1, X), 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "memset: dst");
    uint64_t id;
    char err[256] = "";
    assert_int_equal(
        trn_session_alloc(f->s1, 1, TRN_ALLOC_DEVICE, &id, &fd_unused, err, sizeof(err)),
        TRN_WIRE_RESOURCE_EXHAUSTED);
    assert_int_equal(atomic_load(&f->table.bytes_held), (uint64_t)QUOTA);
    memset(dst, 0xcd, QUOTA); /* still the op's memory */
    assert_int_equal(dst[QUOTA - 1], 0xcd);

    trn_op_refs_release(&held);
    assert_int_equal(atomic_load(&f->table.bytes_held), 0);
    assert_int_equal(atomic_load(&f->table.buffers), 0);
    const uint64_t Y = alloc(f->s1, QUOTA);
    assert_int_equal(trn_session_free_buffer(f->s1, Y), 0);
}

/* Rule: a closed session allocates nothing (ABORTED) and its buffers are gone. */
static void test_closed_session(void **state) {
    fx *f = *state;
    const uint64_t X = alloc(f->s1, 64);
    trn_session_close(f->s1, "test");
    trn_session_close(f->s1, "test again"); /* idempotent */
    uint64_t id;
    char err[256] = "";
    assert_int_equal(
        trn_session_alloc(f->s1, 8, TRN_ALLOC_DEVICE, &id, &fd_unused, err, sizeof(err)),
        TRN_WIRE_ABORTED);
    assert_null(trn_session_buffer_get(f->s1, X));
    assert_null(trn_session_find(&f->table, f->s1->id));
    memset_msg q;
    memset_init(&q, X, 0, 0, 8);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "memset: dst");
    /* The other session is untouched. */
    trn_session *s2 = trn_session_find(&f->table, f->s2->id);
    assert_ptr_equal(s2, f->s2);
    trn_session_unref(s2);
}

/* ---- FFT (validate_fft.c) ------------------------------------------------------ */

/* A plan handle made as PlanCreate makes it; returns its id. */
static uint32_t fft_make_plan(fx *f, trn_session *s, Trnsci__V1__FftPlanSpec *w) {
    trn_plan_spec spec;
    trn_session_plan h = {0};
    char err[256];
    const trn_wire_code rc = trn_validate_fft_plan(w, &spec, &h, err, sizeof(err));
    if (rc != TRN_WIRE_OK)
        fail_msg("plan: %s", err);
    int hit;
    assert_int_equal(trn_plan_cache_acquire(f->pc, &spec, 0, &h.entry, &hit, err, sizeof(err)), 0);
    trn_session_plan *p = malloc(sizeof(*p));
    *p = h;
    const uint32_t id = (uint32_t)s->next_plan_id++;
    assert_int_equal(trn_idmap_put(&s->plans, id, p), 0);
    return id;
}

typedef struct fft_exec_msg {
    Trnsci__V1__Op op;
    Trnsci__V1__FftExecOp e;
    Trnsci__V1__BufferRef in, out;
} fft_exec_msg;

static void fft_exec_init(fft_exec_msg *m, uint32_t plan, Trnsci__V1__FftType type, int dir,
                          uint64_t ib, uint64_t ioff, uint64_t ob, uint64_t ooff) {
    trnsci__v1__op__init(&m->op);
    trnsci__v1__fft_exec_op__init(&m->e);
    trnsci__v1__buffer_ref__init(&m->in);
    trnsci__v1__buffer_ref__init(&m->out);
    m->in.buffer_id = ib;
    m->in.offset = ioff;
    m->out.buffer_id = ob;
    m->out.offset = ooff;
    m->e.plan_id = plan;
    m->e.type = type;
    m->e.direction = dir;
    m->e.idata = &m->in;
    m->e.odata = &m->out;
    m->op.kind_case = TRNSCI__V1__OP__KIND_FFT_EXEC;
    m->op.fft_exec = &m->e;
}

static trn_wire_code fft_run(fx *f, trn_session *s, fft_exec_msg *m) {
    memset(&f->desc, 0, sizeof(f->desc));
    f->err[0] = '\0';
    const trn_wire_code rc = trn_validate_op(s, &m->op, &f->desc, &f->refs, f->err, sizeof(f->err));
    if (rc != TRN_WIRE_OK) {
        assert_int_equal(f->refs.n, 0); /* nothing held on failure */
        assert_null(f->refs.plan);
    }
    return rc;
}

static void fft_expect_fail(fx *f, trn_session *s, fft_exec_msg *m, const char *needle) {
    const trn_wire_code rc = fft_run(f, s, m);
    if (rc != TRN_WIRE_INVALID_ARGUMENT)
        fail_msg("expected INVALID_ARGUMENT naming \"%s\", got %d: %s", needle, (int)rc, f->err);
    if (!strstr(f->err, needle))
        fail_msg("message \"%s\" does not contain \"%s\"", f->err, needle);
}

static void fft_expect_pass(fx *f, trn_session *s, fft_exec_msg *m, unsigned variant) {
    const trn_wire_code rc = fft_run(f, s, m);
    if (rc != TRN_WIRE_OK)
        fail_msg("expected OK: %s", f->err);
    assert_int_equal(f->desc.kind, TRN_OP_FFT);
    assert_int_equal(f->desc.u.fft.variant, variant);
    assert_non_null(f->refs.plan);
    assert_int_equal(f->refs.plan_part, variant);
    trn_op_refs_release(&f->refs);
}

static void test_fft_c2c_extents(void **state) {
    fx *f = *state;
    int64_t n[1] = {16};
    Trnsci__V1__FftPlanSpec w = TRNSCI__V1__FFT_PLAN_SPEC__INIT;
    w.type = TRNSCI__V1__FFT_TYPE__FFT_C2C;
    w.n_n = 1;
    w.n = n;
    w.batch = 3;
    const uint32_t p = fft_make_plan(f, f->s1, &w);
    const uint64_t a = alloc(f->s1, 3 * 16 * 8), b = alloc(f->s1, 3 * 16 * 8 + 16);
    fft_exec_msg m;
    fft_exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, -1, a, 0, b, 0);
    fft_expect_pass(f, f->s1, &m, 0);
    assert_int_equal(f->desc.u.fft.batch, 3);
    assert_int_equal(f->desc.u.fft.idist, 16);
    fft_exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, 1, a, 0, b,
                  16); /* inverse, 16-byte offset */
    fft_expect_pass(f, f->s1, &m, TRN_FFT_VARIANT_INVERSE);
    fft_exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, 1, a, 0, b, 8); /* 8 bytes: unaligned */
    fft_expect_pass(f, f->s1, &m, TRN_FFT_VARIANT_INVERSE | TRN_FFT_VARIANT_UNALIGNED);
    fft_exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, -1, a, 0, a, 0); /* in place */
    fft_expect_pass(f, f->s1, &m, TRN_FFT_VARIANT_INPLACE);
    fft_exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, -1, a, 8, b, 0); /* one element short */
    fft_expect_fail(f, f->s1, &m, "idata");
    fft_exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, -1, a, 0, b, 24);
    fft_expect_fail(f, f->s1, &m, "odata");
    fft_exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, -1, a, 0, b, 4); /* misaligned */
    fft_expect_fail(f, f->s1, &m, "multiple of the element size");
    fft_exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_R2C, -1, a, 0, b, 0);
    fft_expect_fail(f, f->s1, &m, "c2c plan, not r2c");
    fft_exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, 0, a, 0, b, 0);
    fft_expect_fail(f, f->s1, &m, "direction 0");
    fft_exec_init(&m, p, (Trnsci__V1__FftType)99, -1, a, 0, b, 0);
    fft_expect_fail(f, f->s1, &m, "an FFT type");
    const uint64_t big = alloc(f->s1, 2 * 3 * 16 * 8);
    fft_exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, -1, big, 0, big, 64);
    fft_expect_fail(f, f->s1, &m, "overlap without being equal");
    fft_exec_init(&m, p + 100, TRNSCI__V1__FFT_TYPE__FFT_C2C, -1, a, 0, b, 0);
    fft_expect_fail(f, f->s1, &m, "does not exist");
    /* Another session's plan is the same error as none; so is its buffer. */
    fft_exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, -1, a, 0, b, 0);
    fft_expect_fail(f, f->s2, &m, "does not exist");
    const uint32_t p2 = fft_make_plan(f, f->s2, &w);
    fft_exec_init(&m, p2, TRNSCI__V1__FFT_TYPE__FFT_C2C, -1, a, 0, b, 0);
    fft_expect_fail(f, f->s2, &m, "does not exist in this session");
}

static void test_fft_real_in_place(void **state) {
    fx *f = *state;
    int64_t n[1] = {10}; /* padded rows: 2*(10/2+1) = 12 reals */
    Trnsci__V1__FftPlanSpec w = TRNSCI__V1__FFT_PLAN_SPEC__INIT;
    w.type = TRNSCI__V1__FFT_TYPE__FFT_R2C;
    w.n_n = 1;
    w.n = n;
    w.batch = 2;
    const uint32_t p = fft_make_plan(f, f->s1, &w);
    const uint64_t exact = alloc(f->s1, 2 * 12 * 4), in = alloc(f->s1, 2 * 10 * 4),
                   out = alloc(f->s1, 2 * 6 * 8);
    fft_exec_msg m;
    fft_exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_R2C, 0, exact, 0, exact, 0);
    fft_expect_pass(f, f->s1, &m, TRN_FFT_VARIANT_INPLACE);
    assert_int_equal(f->desc.u.fft.idist, 12); /* reals: one padded row */
    assert_int_equal(f->desc.u.fft.odist, 6);
    fft_exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_R2C, 0, exact, 4, exact, 4);
    fft_expect_fail(f, f->s1, &m, "idata (= odata)");
    /* Out of place, unpadded: rows of 40 bytes, so the transforms are not all
     * 16-byte aligned. */
    fft_exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_R2C, 0, in, 0, out, 0);
    fft_expect_pass(f, f->s1, &m, TRN_FFT_VARIANT_UNALIGNED);
    assert_int_equal(f->desc.u.fft.idist, 10);
    fft_exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_R2C, 0, in, 4, out, 0);
    fft_expect_fail(f, f->s1, &m, "idata");
}

static void test_fft_advanced_overlap(void **state) {
    fx *f = *state;
    int64_t n[1] = {16}, emb[1] = {16};
    Trnsci__V1__FftPlanSpec w = TRNSCI__V1__FFT_PLAN_SPEC__INIT;
    w.type = TRNSCI__V1__FFT_TYPE__FFT_C2C;
    w.n_n = w.n_inembed = w.n_onembed = 1;
    w.n = n;
    w.inembed = w.onembed = emb;
    w.istride = 1;
    w.idist = 16;
    w.ostride = 1;
    w.odist = 1; /* outputs overlap one another */
    w.batch = 4;
    uint32_t p = fft_make_plan(f, f->s1, &w);
    const uint64_t a = alloc(f->s1, 4096), b = alloc(f->s1, 4096);
    fft_exec_msg m;
    fft_exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, -1, a, 0, b, 0);
    fft_expect_fail(f, f->s1, &m, "outputs of the batch's transforms overlap");
    w.ostride = 4; /* interleaved: batch * dist <= stride */
    p = fft_make_plan(f, f->s1, &w);
    fft_exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, -1, a, 0, b, 0);
    fft_expect_pass(f, f->s1, &m, TRN_FFT_VARIANT_UNALIGNED); /* odist 8 bytes */
}

static void test_fft_plan_spec_rules(void **state) {
    (void)state;
    trn_plan_spec spec;
    trn_session_plan h;
    char err[256];
    int64_t n3[4] = {4, 4, 4, 4}, emb[2] = {4, 2};
    Trnsci__V1__FftPlanSpec w = TRNSCI__V1__FFT_PLAN_SPEC__INIT;
    w.type = TRNSCI__V1__FFT_TYPE__FFT_C2C;
    w.n = n3;
    w.batch = 1;
    const struct {
        size_t rank;
        int64_t batch;
        const char *needle;
    } cases[] = {{0, 1, "rank 0"},
                 {4, 1, "rank 4"},
                 {1, 0, "batch = 0"},
                 {1, 1ll << 31, "batch = 2147483648"}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        w.n_n = cases[i].rank;
        w.batch = cases[i].batch;
        assert_int_equal(trn_validate_fft_plan(&w, &spec, &h, err, sizeof(err)),
                         TRN_WIRE_INVALID_ARGUMENT);
        if (!strstr(err, cases[i].needle))
            fail_msg("\"%s\" does not contain \"%s\"", err, cases[i].needle);
    }
    w.n_n = 2;
    w.batch = 1;
    w.n_inembed = 2; /* without onembed */
    w.inembed = emb;
    assert_int_equal(trn_validate_fft_plan(&w, &spec, &h, err, sizeof(err)),
                     TRN_WIRE_INVALID_ARGUMENT);
    assert_non_null(strstr(err, "both"));
    w.n_onembed = 2;
    w.onembed = emb;
    w.istride = w.ostride = 1;
    assert_int_equal(trn_validate_fft_plan(&w, &spec, &h, err, sizeof(err)),
                     TRN_WIRE_INVALID_ARGUMENT);
    assert_non_null(strstr(err, "inembed[1] = 2"));
    int64_t big[1] = {1ll << 30};
    w.n = big;
    w.n_n = 1;
    w.n_inembed = w.n_onembed = 0;
    w.batch = (1ll << 31) - 1;
    w.type = TRNSCI__V1__FFT_TYPE__FFT_Z2Z;
    assert_int_equal(trn_validate_fft_plan(&w, &spec, &h, err, sizeof(err)),
                     TRN_WIRE_INVALID_ARGUMENT);
    assert_non_null(strstr(err, "2^63"));
    w.type = (Trnsci__V1__FftType)13; /* past FFT_C2R_16BF */
    assert_int_equal(trn_validate_fft_plan(&w, &spec, &h, err, sizeof(err)),
                     TRN_WIRE_INVALID_ARGUMENT);
    assert_non_null(strstr(err, "type 13"));
    assert_int_equal(trn_validate_fft_plan(NULL, &spec, &h, err, sizeof(err)),
                     TRN_WIRE_INVALID_ARGUMENT);
}

/* ---- BLAS Level 1 --------------------------------------------------------------- */

/* A Blas1Op wrapped in an Op, with its sub-messages in place. Not copyable. */
typedef struct blas1_msg {
    Trnsci__V1__Op op;
    Trnsci__V1__Blas1Op b;
    Trnsci__V1__Scalar alpha, beta;
    Trnsci__V1__BufferRef x, y, r;
} blas1_msg;

#define B1(f) TRNSCI__V1__BLAS1_FUNCTION__BLAS1_##f

static void blas1_init(blas1_msg *q, Trnsci__V1__Blas1Function fn, Trnsci__V1__DataType type,
                       int64_t n, int64_t incx, int64_t incy) {
    const Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    const Trnsci__V1__Blas1Op b = TRNSCI__V1__BLAS1_OP__INIT;
    const Trnsci__V1__Scalar sc = TRNSCI__V1__SCALAR__INIT;
    const Trnsci__V1__BufferRef br = TRNSCI__V1__BUFFER_REF__INIT;
    q->op = op;
    q->b = b;
    q->alpha = q->beta = sc;
    q->x = q->y = q->r = br;
    q->op.kind_case = TRNSCI__V1__OP__KIND_BLAS1;
    q->op.blas1 = &q->b;
    q->b.function = fn;
    q->b.type = type;
    q->b.n = n;
    q->b.incx = incx;
    q->b.incy = incy;
    q->b.alpha = &q->alpha;
    q->b.beta = &q->beta;
    q->b.x = &q->x;
    q->b.y = &q->y;
    q->b.result = &q->r;
}

/* Rule: x spans (|incx|(n-1)+1) elements from its offset, also for incx < 0
 * (reference BLAS: the pointer is the lowest element); exactly enough passes,
 * one element short fails naming the vector; a failure on y drops x's
 * reference. S axpy n=5 incx=2 incy=-3: x (2*4+1)*4 = 36 bytes, y
 * (3*4+1)*4 = 52 bytes. */
static void test_blas1_axpy_extents(void **state) {
    fx *f = *state;
    const uint64_t X = alloc(f->s1, 36), Y = alloc(f->s1, 52), Y1 = alloc(f->s1, 52);
    blas1_msg q;
    blas1_init(&q, B1(AXPY), R_32F, 5, 2, -3);
    q.alpha.re = 1.5;
    q.x.buffer_id = X;
    q.y.buffer_id = Y;
    expect_ok(f, f->s1, &q.op, 2);
    const trn_blas1_desc *d = &f->desc.u.blas1;
    assert_int_equal(f->desc.kind, TRN_OP_BLAS1);
    assert_int_equal(d->fn, TRN_BLAS1_AXPY);
    assert_int_equal(d->type, TRN_DTYPE_R32F);
    assert_int_equal(d->n, 5);
    assert_int_equal(d->incx, 2);
    assert_int_equal(d->incy, -3);
    assert_true(d->alpha.re == 1.5);
    assert_ptr_equal(d->x, data_of(f->s1, X));
    assert_ptr_equal(d->y, data_of(f->s1, Y));
    assert_null(d->result);
    assert_int_equal(extra_refs(f->s1, X), 1);
    assert_int_equal(extra_refs(f->s1, Y), 1);
    trn_op_refs_release(&f->refs);
    assert_int_equal(extra_refs(f->s1, X), 0);

    /* y one element short: 52 bytes from offset 4 of a 52-byte buffer. */
    q.y.buffer_id = Y1;
    q.y.offset = 4;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "axpy: y");
    assert_int_equal(extra_refs(f->s1, X), 0);
    /* x one element short: incx=-3 needs (3*4+1)*4 = 52 > 36. */
    q.y.offset = 0;
    q.b.incx = -3;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "axpy: x");
    /* incx = 0 reads one element, as reference BLAS does. */
    q.b.incx = 0;
    expect_ok(f, f->s1, &q.op, 2);
    trn_op_refs_release(&f->refs);
    /* Misaligned: 2 bytes into x. */
    q.b.incx = 1;
    q.x.offset = 2;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "axpy: x");
    /* n <= 0 is a no-op: nothing is read, nothing held, even with no buffers. */
    blas1_init(&q, B1(AXPY), R_32F, -7, 1, 1);
    expect_ok(f, f->s1, &q.op, 0);
    assert_int_equal(f->desc.u.blas1.n, 0);
    assert_null(f->desc.u.blas1.x);
}

/* Rule (protocol 1.14): R_16F / R_16BF data for axpy, scal, dot, nrm2 and
 * rot only (cuBLAS's Level 1 Ex half rows), 2-byte elements aligned to 2;
 * axpy/scal's device alpha is a float (4 bytes, 4-aligned), rot's c and s
 * elements of the type; dot's and nrm2's result one element; real_scalar
 * and compensated refused. F16 axpy n=5: x and y 10 bytes each. */
static void test_blas1_half(void **state) {
    fx *f = *state;
    const uint64_t X = alloc(f->s1, 10), Y = alloc(f->s1, 10), S = alloc(f->s1, 8);
    const Trnsci__V1__DataType F16 = TRNSCI__V1__DATA_TYPE__R_16F,
                               BF16 = TRNSCI__V1__DATA_TYPE__R_16BF;
    blas1_msg q;
    blas1_init(&q, B1(AXPY), F16, 5, 1, 1);
    q.alpha.re = 0.5;
    q.x.buffer_id = X;
    q.y.buffer_id = Y;
    expect_ok(f, f->s1, &q.op, 2);
    assert_int_equal(f->desc.u.blas1.type, TRN_DTYPE_R16F);
    trn_op_refs_release(&f->refs);
    q.y.offset = 2; /* one element short */
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "axpy: y");
    q.y.offset = 0;
    q.x.offset = 1; /* misaligned */
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "axpy: x");
    q.x.offset = 0;
    /* Device alpha: a float. */
    Trnsci__V1__BufferRef ap = TRNSCI__V1__BUFFER_REF__INIT;
    ap.buffer_id = S;
    q.b.alpha_ptr = &ap;
    expect_ok(f, f->s1, &q.op, 3);
    assert_ptr_equal(f->desc.u.blas1.alpha_ptr, data_of(f->s1, S));
    trn_op_refs_release(&f->refs);
    ap.offset = 2;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "axpy: alpha");
    ap.offset = 6; /* 4 bytes do not fit */
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "axpy: alpha");
    /* rot: c and s are 2-byte elements. */
    blas1_init(&q, B1(ROT), BF16, 5, 1, 1);
    q.x.buffer_id = X;
    q.y.buffer_id = Y;
    Trnsci__V1__BufferRef cp = TRNSCI__V1__BUFFER_REF__INIT, sp = TRNSCI__V1__BUFFER_REF__INIT;
    cp.buffer_id = sp.buffer_id = S;
    cp.offset = 6;
    sp.offset = 4;
    q.b.alpha_ptr = &cp;
    q.b.beta_ptr = &sp;
    expect_ok(f, f->s1, &q.op, 4);
    trn_op_refs_release(&f->refs);
    /* dot and nrm2: one 2-byte result. */
    blas1_init(&q, B1(DOT), BF16, 5, 1, 1);
    q.x.buffer_id = X;
    q.y.buffer_id = Y;
    q.r.buffer_id = S;
    q.r.offset = 6;
    expect_ok(f, f->s1, &q.op, 3);
    trn_op_refs_release(&f->refs);
    q.r.offset = 7;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "dot: result");
    q.r.offset = 0;
    q.b.compensated = 1;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "16-bit");
    q.b.compensated = 0;
    q.b.function = B1(NRM2);
    q.r.offset = 6;
    expect_ok(f, f->s1, &q.op, 2);
    trn_op_refs_release(&f->refs);
    /* Not for the other routines, nor with real_scalar. */
    q.b.function = B1(ASUM);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "16-bit");
    q.b.function = B1(DOTC);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "16-bit");
    q.b.function = B1(SCAL);
    q.b.real_scalar = 1;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "16-bit");
    /* Other narrow types stay refused. */
    blas1_init(&q, B1(AXPY), TRNSCI__V1__DATA_TYPE__R_8I, 5, 1, 1);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "data type");
}

/* Rule: reductions write one result (an element of the type for dot, its
 * real component for nrm2/asum, an int32 for i?amax/i?amin), aligned, and a
 * result is required also when n = 0; dotc is for complex types only;
 * scal/nrm2/asum/iamax/iamin with incx <= 0 read nothing (result 0). */
static void test_blas1_reductions(void **state) {
    fx *f = *state;
    const uint64_t X = alloc(f->s1, 48), R = alloc(f->s1, 24), R4 = alloc(f->s1, 4);
    blas1_msg q;
    /* Z dotc n=3: x and y 48 bytes each (the same buffer), result 16 at 8. */
    blas1_init(&q, B1(DOTC), C_64F, 3, 1, 1);
    q.x.buffer_id = q.y.buffer_id = X;
    q.r.buffer_id = R;
    q.r.offset = 8;
    expect_ok(f, f->s1, &q.op, 3);
    assert_int_equal(f->desc.u.blas1.fn, TRN_BLAS1_DOTC);
    assert_ptr_equal(f->desc.u.blas1.result, data_of(f->s1, R) + 8);
    assert_int_equal(extra_refs(f->s1, X), 2);
    trn_op_refs_release(&f->refs);
    q.r.offset = 9; /* 16 bytes no longer fit, and misaligned */
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "dotc: result");
    assert_int_equal(extra_refs(f->s1, X), 0);
    q.r.buffer_id = 0;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "dotc: result");
    /* dotc of a real type. */
    blas1_init(&q, B1(DOTC), R_64F, 3, 1, 1);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "dotc: data type");
    /* Z nrm2: an 8-byte result; C nrm2: 4 bytes, exactly R4. */
    blas1_init(&q, B1(NRM2), C_32F, 6, 1, 0);
    q.x.buffer_id = X;
    q.r.buffer_id = R4;
    expect_ok(f, f->s1, &q.op, 2);
    trn_op_refs_release(&f->refs);
    q.b.type = C_64F; /* 6 Z elements need 96 bytes of x */
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "nrm2: x");
    q.b.n = 3;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "nrm2: result");
    /* iamax: an int32 result; incx <= 0 reads no x at all. */
    blas1_init(&q, B1(IAMAX), C_64F, 1000, 0, 0);
    q.r.buffer_id = R4;
    expect_ok(f, f->s1, &q.op, 1);
    assert_int_equal(f->desc.u.blas1.n, 0);
    assert_null(f->desc.u.blas1.x);
    trn_op_refs_release(&f->refs);
    q.b.incx = -1;
    expect_ok(f, f->s1, &q.op, 1);
    trn_op_refs_release(&f->refs);
    /* scal with incx <= 0: nothing at all. */
    blas1_init(&q, B1(SCAL), R_64F, 1000, -2, 0);
    expect_ok(f, f->s1, &q.op, 0);
    /* dot with negative increments reads both vectors: n=3, incx=-2 needs
     * (2*2+1)*8 = 40 <= 48 bytes of D; incy=-3 needs 56 > 48. */
    blas1_init(&q, B1(DOT), R_64F, 3, -2, -3);
    q.x.buffer_id = q.y.buffer_id = X;
    q.r.buffer_id = R;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "dot: y");
    q.b.incy = -2;
    expect_ok(f, f->s1, &q.op, 3);
    trn_op_refs_release(&f->refs);
}

/* Rule: n, incx, incy fit in int; the function and type are known values;
 * real_scalar only for complex scal/rot; extents that overflow 64 bits are
 * refused; another session's buffer and a freed one do not exist. */
static void test_blas1_args(void **state) {
    fx *f = *state;
    blas1_msg q;
    blas1_init(&q, B1(AXPY), R_32F, (int64_t)INT_MAX + 1, 1, 1);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "axpy: n=");
    blas1_init(&q, B1(COPY), R_32F, 4, INT64_MIN, 1);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "copy: incx=");
    blas1_init(&q, B1(SWAP), R_32F, 4, 1, (int64_t)INT_MIN - 1);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "swap: incy=");
    blas1_init(&q, (Trnsci__V1__Blas1Function)15, R_32F, 4, 1, 1);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "function 15");
    /* rotm, rotg, rotmg (protocol 1.12) */
    blas1_init(&q, B1(ROTM), C_32F, 4, 1, 1);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "rotm: data type");
    blas1_init(&q, B1(ROTM), R_32F, 0, 1, 1);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "rotm: param has 0 values, not 5");
    blas1_init(&q, B1(ROTG), R_64F, 0, 1, 1);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "rotg: 0 scalar arguments");
    blas1_init(&q, B1(ROTMG), C_64F, 0, 1, 1);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "rotmg: data type");
    blas1_init(&q, B1(UNSPECIFIED), R_32F, 4, 1, 1);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "function 0");
    blas1_init(&q, B1(ROT), TRNSCI__V1__DATA_TYPE__DATA_TYPE_UNSPECIFIED, 4, 1, 1);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "rot: data type");
    blas1_init(&q, B1(AXPY), C_32F, 4, 1, 1);
    q.b.real_scalar = 1;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "real_scalar");
    blas1_init(&q, B1(SCAL), R_32F, 4, 1, 1);
    q.b.real_scalar = 1;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "real_scalar");
    /* INT_MAX elements at increment INT_MIN: (2^31 (2^31 - 2) + 1) * 16 bytes
     * overflows 64 bits. */
    blas1_init(&q, B1(ROT), C_64F, INT_MAX, INT_MIN, 1);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "rot: the extent of x");
    blas1_init(&q, B1(ROT), C_64F, INT_MAX, 1, INT_MAX);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "rot: the extent of y");
    /* Large but representable ((2^31 - 1)(2^31 - 2) + 1) * 4 < 2^64 bytes:
     * refused by the buffer's size, not wrapped. */
    blas1_init(&q, B1(ASUM), R_32F, INT_MAX, INT_MAX, 0);
    const uint64_t R = alloc(f->s1, 8);
    q.x.buffer_id = R;
    q.r.buffer_id = R;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "asum: x");
    assert_int_equal(extra_refs(f->s1, R), 0);
    /* Another session's buffer: s2's id does not exist in s1. */
    const uint64_t theirs = alloc(f->s2, 64), theirs2 = alloc(f->s2, 64);
    (void)theirs;
    blas1_init(&q, B1(COPY), R_32F, 4, 1, 1);
    q.x.buffer_id = R;
    q.b.n = 2;
    q.y.buffer_id = theirs2 + 100;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "copy: y");
    q.y.buffer_id = theirs2;
    if (theirs2 != R) /* ids are per session: an id s1 does not have */
        expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "does not exist");
    /* A freed buffer. */
    const uint64_t Y = alloc(f->s1, 8);
    q.y.buffer_id = Y;
    expect_ok(f, f->s1, &q.op, 2);
    trn_op_refs_release(&f->refs);
    assert_int_equal(trn_session_free_buffer(f->s1, Y), 0);
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "copy: y");
    assert_int_equal(extra_refs(f->s1, R), 0);
}

/* Rule: device-mode scalars (alpha_ptr, beta_ptr) are regions of one element
 * of the type (a real component for rot's c and with real_scalar), read only
 * when there is work; each holds a reference. */
static void test_blas1_device_scalars(void **state) {
    fx *f = *state;
    const uint64_t X = alloc(f->s1, 64), S8 = alloc(f->s1, 8), S16 = alloc(f->s1, 16);
    const Trnsci__V1__BufferRef br = TRNSCI__V1__BUFFER_REF__INIT;
    Trnsci__V1__BufferRef ap = br, bp = br;
    blas1_msg q;
    blas1_init(&q, B1(AXPY), C_32F, 4, 1, 1);
    q.x.buffer_id = q.y.buffer_id = X;
    q.b.alpha_ptr = &ap;
    q.b.beta_ptr = &bp;
    ap.buffer_id = S8; /* a C_32F alpha: 8 bytes exactly */
    expect_ok(f, f->s1, &q.op, 3);
    assert_ptr_equal(f->desc.u.blas1.alpha_ptr, data_of(f->s1, S8));
    assert_null(f->desc.u.blas1.beta_ptr);
    trn_op_refs_release(&f->refs);
    ap.offset = 4; /* 4 bytes left */
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "axpy: alpha");
    assert_int_equal(extra_refs(f->s1, X), 0);
    q.b.n = 0; /* nothing to do: the scalar is not read */
    expect_ok(f, f->s1, &q.op, 0);
    /* Z rot: c is 8 bytes; s 16, or 8 with real_scalar. */
    blas1_init(&q, B1(ROT), C_64F, 2, 1, 1);
    q.x.buffer_id = q.y.buffer_id = X;
    q.b.alpha_ptr = &ap;
    q.b.beta_ptr = &bp;
    ap.offset = 0;
    bp.buffer_id = S8;
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "rot: s");
    q.b.real_scalar = 1;
    expect_ok(f, f->s1, &q.op, 4);
    trn_op_refs_release(&f->refs);
    q.b.real_scalar = 0;
    bp.buffer_id = S16;
    expect_ok(f, f->s1, &q.op, 4);
    assert_ptr_equal(f->desc.u.blas1.beta_ptr, data_of(f->s1, S16));
    trn_op_refs_release(&f->refs);
    bp.offset = 4; /* misaligned for Z */
    expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "rot: s");
    assert_int_equal(extra_refs(f->s1, S8), 0);
}

int main(void) {
    trn_log_set_level(TRN_LOG_WARN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_sgemm_nn_valid, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_strided_batches, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_pointer_arrays, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_compute_types, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_device_scalars, setup, teardown),
        cmocka_unit_test_setup_teardown(test_blas1_axpy_extents, setup, teardown),
        cmocka_unit_test_setup_teardown(test_blas1_reductions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_blas1_half, setup, teardown),
        cmocka_unit_test_setup_teardown(test_blas1_args, setup, teardown),
        cmocka_unit_test_setup_teardown(test_blas1_device_scalars, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dgemm_tn_one_buffer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cgemm_ct_offsets, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_narrow, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_c8i, setup, teardown),
        cmocka_unit_test_setup_teardown(test_zgemm_alpha_imaginary, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_dims, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_leading_dims, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_type_and_trans, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_exact_boundary, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_offsets, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_extent_overflow, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_alpha_zero, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_k_zero, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_empty_c, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_buffer_ownership, setup, teardown),
        cmocka_unit_test_setup_teardown(test_op_kinds, setup, teardown),
        cmocka_unit_test_setup_teardown(test_memset, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rand, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rand_sobol, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rand_sobol64, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rand_ext, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rand_seq_gens, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rand_mtgp32, setup, teardown),
        cmocka_unit_test_setup_teardown(test_quota, setup, teardown),
        cmocka_unit_test_setup_teardown(test_quota_credit_after_release, setup, teardown),
        cmocka_unit_test_setup_teardown(test_closed_session, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fft_c2c_extents, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fft_real_in_place, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fft_advanced_overlap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fft_plan_spec_rules, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
