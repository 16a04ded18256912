/*
 * test_validate_blas23.c — the validators of trnblas Level 2 (Blas2Op,
 * daemon/validate_blas2.c) and Level 3 beyond GEMM (Blas3Op,
 * daemon/validate_blas3.c), fed hand-built protobuf-c structs through
 * trn_validate_op against a real scheduler and two open sessions.
 *
 * Rules checked, each at its boundary (the limit passes, one past it
 * fails, the message names the argument):
 *  - enums: function, data type (hemv, gerc, her, her2, hemm, herk, her2k
 *    for complex types only), trans (complex syrk/syr2k N or T, herk/her2k N
 *    or C), uplo (FILL_MODE_FULL refused), diag, side;
 *  - sizes 0 .. INT_MAX (m, n, k, kl, ku); leading dimensions >= max(1,
 *    rows) (gbmv: kl + ku + 1); Level 2 increments not 0;
 *  - extents: a rows x cols matrix spans ((cols - 1) ld + rows) elements, a
 *    vector (|inc|(len - 1) + 1); exactly enough bytes pass and one byte
 *    short fails; offsets aligned to the real component; 64-bit overflow is
 *    refused; another session's buffer and a freed buffer are refused;
 *  - what is read: nothing for empty shapes or reference BLAS's quick
 *    returns, no A/x (B) with alpha = 0 known, k = 0 for the rank-k
 *    updates, geam's B with beta = 0; device-pointer-mode scalars are
 *    checked (an element, or a real component for her's alpha, herk's
 *    alpha and beta, her2k's beta) and make their operands read;
 *  - in place: geam's C = A (lda = ldc, transa N) and C = B, trmm's C = B
 *    (ldc = ldb), dgmm's C = A (ldc = lda);
 *  - on success refs holds one reference per operand given, on failure
 *    none.
 */
#include <limits.h>
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
#include "scheduler/sched.h"

typedef struct fx {
    trn_backend *be;
    trn_sched *sched;
    trn_config cfg;
    trn_session_table table;
    trn_session *s1, *s2;
    trn_op_desc desc;
    trn_op_refs refs;
    char err[512];
} fx;

static int fd_unused;

static int setup(void **state) {
    fx *f = calloc(1, sizeof(*f));
    assert_non_null(f);
    f->be = trn_backend_cpu_create();
    assert_non_null(f->be);
    char err[256] = "";
    const trn_sched_config sc = {.cpus = NULL, .ncores = 1, .ncopy = 0};
    f->sched = trn_sched_create(f->be, &sc, err, sizeof(err));
    assert_non_null(f->sched);
    f->cfg.max_session_bytes = 1u << 20;
    f->cfg.max_streams = 4;
    f->cfg.lease_ms = 30000;
    f->cfg.ncores = 1;
    f->cfg.log_level = TRN_LOG_WARN;
    trn_session_table_init(&f->table, f->sched, &f->cfg);
    trn_wire_code code;
    f->s1 = trn_session_open(&f->table, "unit-a", (uint32_t)getpid(), TRN_TRANSPORT_GRPC, NULL, 0,
                             &code, err, sizeof(err));
    f->s2 = trn_session_open(&f->table, "unit-b", (uint32_t)getpid(), TRN_TRANSPORT_GRPC, NULL, 0,
                             &code, err, sizeof(err));
    assert_non_null(f->s1);
    assert_non_null(f->s2);
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fx *f = *state;
    trn_session_close(f->s1, "test done");
    trn_session_unref(f->s1);
    trn_session_close(f->s2, "test done");
    trn_session_unref(f->s2);
    assert_int_equal(atomic_load(&f->table.bytes_held), 0);
    assert_int_equal(atomic_load(&f->table.buffers), 0);
    trn_sched_shutdown(f->sched);
    trn_session_table_destroy(&f->table);
    trn_sched_destroy(f->sched);
    f->be->destroy(f->be);
    free(f);
    return 0;
}

static uint64_t alloc(trn_session *s, uint64_t bytes) {
    uint64_t id = 0;
    char err[256] = "";
    if (trn_session_alloc(s, bytes, TRN_ALLOC_DEVICE, &id, &fd_unused, err, sizeof(err)) != TRN_WIRE_OK)
        fail_msg("alloc %llu: %s", (unsigned long long)bytes, err);
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
    return r - 2;
}

static trn_wire_code validate(fx *f, const Trnsci__V1__Op *op) {
    memset(&f->desc, 0, sizeof(f->desc));
    f->refs.n = -1;
    f->err[0] = '\0';
    return trn_validate_op(f->s1, op, &f->desc, &f->refs, f->err, sizeof(f->err));
}

/* Validates, expects success with nrefs references, and releases them. */
static void expect_ok(fx *f, const Trnsci__V1__Op *op, int nrefs) {
    const trn_wire_code rc = validate(f, op);
    if (rc != TRN_WIRE_OK)
        fail_msg("expected OK, got %d: %s", (int)rc, f->err);
    assert_int_equal(f->refs.n, nrefs);
}

static void expect_err(fx *f, const Trnsci__V1__Op *op, const char *needle) {
    const trn_wire_code rc = validate(f, op);
    if (rc != TRN_WIRE_INVALID_ARGUMENT)
        fail_msg("expected INVALID_ARGUMENT (\"%s\"), got %d: %s", needle, (int)rc, f->err);
    if (!strstr(f->err, needle))
        fail_msg("message \"%s\" does not contain \"%s\"", f->err, needle);
    assert_int_equal(f->refs.n, 0);
}

#define R_32F TRNSCI__V1__DATA_TYPE__R_32F
#define R_64F TRNSCI__V1__DATA_TYPE__R_64F
#define C_32F TRNSCI__V1__DATA_TYPE__C_32F
#define C_64F TRNSCI__V1__DATA_TYPE__C_64F
#define OP_N TRNSCI__V1__OPERATION__OP_N
#define OP_T TRNSCI__V1__OPERATION__OP_T
#define OP_C TRNSCI__V1__OPERATION__OP_C
#define LOWER TRNSCI__V1__FILL_MODE__FILL_MODE_LOWER
#define UPPER TRNSCI__V1__FILL_MODE__FILL_MODE_UPPER
#define FULL TRNSCI__V1__FILL_MODE__FILL_MODE_FULL
#define B2(f) TRNSCI__V1__BLAS2_FUNCTION__BLAS2_##f
#define B3(f) TRNSCI__V1__BLAS3_FUNCTION__BLAS3_##f

/* ---- Level 2 ---------------------------------------------------------------------- */

typedef struct b2_msg {
    Trnsci__V1__Op op;
    Trnsci__V1__Blas2Op b;
    Trnsci__V1__Scalar alpha, beta;
    Trnsci__V1__BufferRef a, x, y, ap, bp;
} b2_msg;

/* alpha = 1, beta = 0. */
static void b2_init(b2_msg *q, Trnsci__V1__Blas2Function fn, Trnsci__V1__DataType type, int64_t m,
                    int64_t n, int64_t lda, int64_t incx, int64_t incy) {
    const Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    const Trnsci__V1__Blas2Op b = TRNSCI__V1__BLAS2_OP__INIT;
    const Trnsci__V1__Scalar sc = TRNSCI__V1__SCALAR__INIT;
    const Trnsci__V1__BufferRef br = TRNSCI__V1__BUFFER_REF__INIT;
    q->op = op;
    q->b = b;
    q->alpha = q->beta = sc;
    q->a = q->x = q->y = q->ap = q->bp = br;
    q->op.kind_case = TRNSCI__V1__OP__KIND_BLAS2;
    q->op.blas2 = &q->b;
    q->b.function = fn;
    q->b.type = type;
    q->b.m = m;
    q->b.n = n;
    q->b.lda = lda;
    q->b.incx = incx;
    q->b.incy = incy;
    q->alpha.re = 1.0;
    q->b.alpha = &q->alpha;
    q->b.beta = &q->beta;
    q->b.a = &q->a;
    q->b.x = &q->x;
    q->b.y = &q->y;
    q->b.alpha_ptr = &q->ap;
    q->b.beta_ptr = &q->bp;
}

/* Rule: A spans ((n-1) lda + m) elements, x (|incx|(n-1)+1), y
 * (|incy|(m-1)+1) for op(A) = A; exactly enough passes, one byte short
 * fails naming the operand, and nothing stays held. S gemv m=4 n=3 lda=5
 * incx=2 incy=-1: A (2*5+4)*4 = 56 bytes, x (2*2+1)*4 = 20, y 4*4 = 16. */
static void test_gemv_extents(void **state) {
    fx *f = *state;
    const uint64_t A = alloc(f->s1, 56), X = alloc(f->s1, 20), Y = alloc(f->s1, 16),
                   S = alloc(f->s1, 55);
    b2_msg q;
    b2_init(&q, B2(GEMV), R_32F, 4, 3, 5, 2, -1);
    q.a.buffer_id = A, q.x.buffer_id = X, q.y.buffer_id = Y;
    expect_ok(f, &q.op, 3);
    const trn_blas2_desc *d = &f->desc.u.blas2;
    assert_int_equal(f->desc.kind, TRN_OP_BLAS2);
    assert_int_equal(d->fn, TRN_BLAS2_GEMV);
    assert_int_equal(d->m, 4);
    assert_int_equal(d->n, 3);
    assert_int_equal(d->lda, 5);
    assert_int_equal(d->incx, 2);
    assert_int_equal(d->incy, -1);
    assert_ptr_equal(d->a, data_of(f->s1, A));
    assert_ptr_equal(d->y, data_of(f->s1, Y));
    assert_int_equal(extra_refs(f->s1, A), 1);
    trn_op_refs_release(&f->refs);
    assert_int_equal(extra_refs(f->s1, A), 0);
    /* One byte short, each operand in turn; nothing held after. */
    q.a.buffer_id = S;
    expect_err(f, &q.op, "gemv: A");
    q.a.buffer_id = A;
    q.x.offset = 4;
    expect_err(f, &q.op, "gemv: x");
    q.x.offset = 0;
    q.y.offset = 4;
    expect_err(f, &q.op, "gemv: y");
    assert_int_equal(extra_refs(f->s1, A), 0);
    assert_int_equal(extra_refs(f->s1, X), 0);
    /* Misaligned. */
    q.y.offset = 2;
    expect_err(f, &q.op, "gemv: y");
    q.y.offset = 0;
    /* Transposed: x has m = 4 elements (incx 2: 7 floats = 28 > 20). */
    q.b.trans = OP_T;
    expect_err(f, &q.op, "gemv: x");
    q.b.incx = 1; /* 16 bytes of x, y has n = 3 elements: 12 */
    expect_ok(f, &q.op, 3);
    trn_op_refs_release(&f->refs);
    /* lda: 4 = m passes, 3 fails; trans 3 fails; real OP_C is OP_T. */
    q.b.trans = OP_C;
    q.b.lda = 4;
    expect_ok(f, &q.op, 3);
    assert_int_equal(f->desc.u.blas2.trans, TRN_TRANS_T);
    trn_op_refs_release(&f->refs);
    q.b.lda = 3;
    expect_err(f, &q.op, "gemv: lda=3");
    q.b.lda = 4;
    q.b.trans = (Trnsci__V1__Operation)3;
    expect_err(f, &q.op, "gemv: trans=3");
    q.b.trans = OP_N;
    /* Increments: 0 refused; sizes: negative and past INT_MAX refused. */
    q.b.incx = 0;
    expect_err(f, &q.op, "gemv: incx=0");
    q.b.incx = 1;
    q.b.incy = 0;
    expect_err(f, &q.op, "gemv: incy=0");
    q.b.incy = 1;
    q.b.m = -1;
    expect_err(f, &q.op, "gemv: m=-1");
    q.b.m = 4;
    q.b.n = (int64_t)INT_MAX + 1;
    expect_err(f, &q.op, "gemv: n=");
    q.b.n = 3;
    q.b.incx = (int64_t)INT_MIN - 1;
    expect_err(f, &q.op, "gemv: incx=");
}

/* Rule: with alpha = 0 known, A and x are not read (y = beta y); with beta
 * = 1 too, nothing is; an empty shape reads nothing. A device-mode alpha
 * is an element of the type (4 bytes for S) and makes A and x read. */
static void test_gemv_quick_returns_and_scalars(void **state) {
    fx *f = *state;
    const uint64_t Y = alloc(f->s1, 16), A = alloc(f->s1, 64), X = alloc(f->s1, 16),
                   P = alloc(f->s1, 8);
    b2_msg q;
    b2_init(&q, B2(GEMV), R_32F, 4, 4, 4, 1, 1);
    q.alpha.re = 0.0;
    q.beta.re = 2.0;
    q.y.buffer_id = Y;
    expect_ok(f, &q.op, 1); /* A and x not given, not needed */
    assert_null(f->desc.u.blas2.a);
    assert_null(f->desc.u.blas2.x);
    trn_op_refs_release(&f->refs);
    q.beta.re = 1.0;
    q.y.buffer_id = 0;
    expect_ok(f, &q.op, 0);
    assert_int_equal(f->desc.u.blas2.m, 0);
    /* Empty: m = 0 with nothing given. */
    q.b.m = 0;
    q.alpha.re = 3.0;
    expect_ok(f, &q.op, 0);
    /* Device-mode alpha: 4 bytes at offset 4 pass, at offset 5 fail
     * (misaligned) and at 6 too; A and x are then read. */
    q.b.m = 4;
    q.ap.buffer_id = P;
    q.ap.offset = 4;
    q.a.buffer_id = A, q.x.buffer_id = X, q.y.buffer_id = Y;
    expect_ok(f, &q.op, 4);
    assert_ptr_equal(f->desc.u.blas2.alpha_ptr, data_of(f->s1, P) + 4);
    trn_op_refs_release(&f->refs);
    q.ap.offset = 6;
    expect_err(f, &q.op, "gemv: alpha");
    /* Device-mode beta: 8 bytes for C_32F; her's alpha is 4 bytes. */
    q.ap.buffer_id = 0;
    q.bp.buffer_id = P;
    q.bp.offset = 4;
    q.b.type = C_32F; /* A 4x4 C: 128 bytes > 64 */
    expect_err(f, &q.op, "gemv: beta");
    q.bp.offset = 0;
    expect_err(f, &q.op, "gemv: A");
    b2_msg h;
    b2_init(&h, B2(HER), C_32F, 0, 2, 2, 1, 0);
    h.ap.buffer_id = P;
    h.ap.offset = 4;
    h.a.buffer_id = A; /* 2x2 C: 32 bytes */
    h.x.buffer_id = X; /* 2 C: 16 bytes */
    expect_ok(f, &h.op, 3);
    trn_op_refs_release(&f->refs);
    h.b.function = B2(HER2); /* a complex alpha: 8 bytes at 4 do not fit */
    h.b.incy = 1;
    h.y.buffer_id = Y;
    expect_err(f, &h.op, "her2: alpha");
    /* Updates do nothing with alpha = 0: no operand needed. */
    b2_init(&h, B2(SYR2), R_64F, 0, 1000, 1000, 1, 1);
    h.alpha.re = 0.0;
    expect_ok(f, &h.op, 0);
}

/* Rule: uplo LOWER/UPPER only (FULL refused); diag NON_UNIT/UNIT; the
 * Hermitian routines and gerc for complex types only; gbmv's lda >= kl +
 * ku + 1 and A spans ((n-1) lda + kl + ku + 1) elements; trmv/trsv read
 * no y (incy ignored); another session's and freed buffers are refused. */
static void test_blas2_enums_band_and_buffers(void **state) {
    fx *f = *state;
    const uint64_t A = alloc(f->s1, 1024), X = alloc(f->s1, 64);
    b2_msg q;
    b2_init(&q, B2(TRMV), R_64F, 0, 4, 4, 1, 0);
    q.a.buffer_id = A, q.x.buffer_id = X;
    q.b.uplo = UPPER;
    q.b.diag = TRNSCI__V1__DIAG_TYPE__DIAG_UNIT;
    expect_ok(f, &q.op, 2);
    assert_int_equal(f->desc.u.blas2.uplo, TRN_UPLO_UPPER);
    assert_int_equal(f->desc.u.blas2.diag, TRN_DIAG_UNIT);
    trn_op_refs_release(&f->refs);
    q.b.uplo = FULL;
    expect_err(f, &q.op, "trmv: uplo=2");
    q.b.uplo = LOWER;
    q.b.diag = (Trnsci__V1__DiagType)2;
    expect_err(f, &q.op, "trmv: diag=2");
    q.b.diag = TRNSCI__V1__DIAG_TYPE__DIAG_NON_UNIT;
    q.b.function = B2(HEMV);
    expect_err(f, &q.op, "hemv: data type");
    q.b.function = B2(GERC);
    expect_err(f, &q.op, "gerc: data type");
    /* band and packed (protocol 1.12): types, k and lda >= k + 1 */
    q.b.function = B2(HBMV);
    expect_err(f, &q.op, "hbmv: data type");
    q.b.function = B2(TBMV);
    q.b.k = -1;
    expect_err(f, &q.op, "tbmv: k=");
    q.b.k = 4;
    expect_err(f, &q.op, "tbmv: lda=4");
    q.b.k = 3;
    expect_ok(f, &q.op, 2);
    assert_int_equal(f->desc.u.blas2.k, 3);
    trn_op_refs_release(&f->refs);
    q.b.k = 0;
    q.b.function = B2(TPSV);
    expect_ok(f, &q.op, 2); /* AP: 10 doubles */
    trn_op_refs_release(&f->refs);
    q.b.function = (Trnsci__V1__Blas2Function)25;
    expect_err(f, &q.op, "blas2: function 25");
    q.b.function = B2(UNSPECIFIED);
    expect_err(f, &q.op, "blas2: function 0");
    /* gbmv D m=5 n=4 kl=1 ku=2: lda >= 4; A ((4-1)*4 + 4)*8 = 128 bytes. */
    b2_msg g;
    b2_init(&g, B2(GBMV), R_64F, 5, 4, 4, 1, 1);
    g.b.kl = 1, g.b.ku = 2;
    const uint64_t G = alloc(f->s1, 128), G1 = alloc(f->s1, 127);
    g.a.buffer_id = G, g.x.buffer_id = X, g.y.buffer_id = X;
    expect_ok(f, &g.op, 3);
    trn_op_refs_release(&f->refs);
    g.a.buffer_id = G1;
    expect_err(f, &g.op, "gbmv: A");
    g.a.buffer_id = G;
    g.b.lda = 3;
    expect_err(f, &g.op, "gbmv: lda=3 must be >= max(1, kl + ku + 1) = 4");
    g.b.lda = 4;
    g.b.ku = -1;
    expect_err(f, &g.op, "gbmv: ku=-1");
    /* Another session's buffer (an id this session does not have), a freed
     * one. */
    uint64_t theirs = 0;
    for (int i = 0; i < 8; i++)
        theirs = alloc(f->s2, 64);
    q.b.function = B2(TRMV);
    q.a.buffer_id = theirs;
    expect_err(f, &q.op, "trmv: A");
    const uint64_t gone = alloc(f->s1, 1024);
    assert_int_equal(trn_session_free_buffer(f->s1, gone), 0);
    q.a.buffer_id = gone;
    expect_err(f, &q.op, "trmv: A");
    /* Overflow: n = INT_MAX at incx = INT_MAX (D): 8 (INT_MAX (INT_MAX-1)
     * + 1) bytes exceed 2^64. */
    q.a.buffer_id = A;
    q.b.n = INT_MAX;
    q.b.lda = INT_MAX;
    q.b.incx = INT_MAX;
    q.b.function = B2(TRSV);
    expect_err(f, &q.op, "trsv: the extent of A");
}

/* ---- Level 3 ---------------------------------------------------------------------- */

typedef struct b3_msg {
    Trnsci__V1__Op op;
    Trnsci__V1__Blas3Op b;
    Trnsci__V1__Scalar alpha, beta;
    Trnsci__V1__BufferRef a, bb, c, x, ap, bp;
} b3_msg;

/* alpha = 1, beta = 0 (alpha = 1 and beta = 1 would not be special). */
static void b3_init(b3_msg *q, Trnsci__V1__Blas3Function fn, Trnsci__V1__DataType type, int64_t m,
                    int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc) {
    const Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    const Trnsci__V1__Blas3Op b = TRNSCI__V1__BLAS3_OP__INIT;
    const Trnsci__V1__Scalar sc = TRNSCI__V1__SCALAR__INIT;
    const Trnsci__V1__BufferRef br = TRNSCI__V1__BUFFER_REF__INIT;
    q->op = op;
    q->b = b;
    q->alpha = q->beta = sc;
    q->a = q->bb = q->c = q->x = q->ap = q->bp = br;
    q->op.kind_case = TRNSCI__V1__OP__KIND_BLAS3;
    q->op.blas3 = &q->b;
    q->b.function = fn;
    q->b.type = type;
    q->b.m = m;
    q->b.n = n;
    q->b.k = k;
    q->b.lda = lda;
    q->b.ldb = ldb;
    q->b.ldc = ldc;
    q->alpha.re = 1.0;
    q->b.alpha = &q->alpha;
    q->b.beta = &q->beta;
    q->b.a = &q->a;
    q->b.b = &q->bb;
    q->b.c = &q->c;
    q->b.x = &q->x;
    q->b.alpha_ptr = &q->ap;
    q->b.beta_ptr = &q->bp;
}

/* Rule (symm/hemm): A is ka x ka with ka = m (left) or n (right), lda >=
 * max(1, ka); B and C m x n, ldb, ldc >= max(1, m). D symm left m=3 n=2
 * lda=4 ldb=3 ldc=5: A ((3-1)*4+3)*8 = 88 bytes, B 6*8 = 48, C (5+3)*8 =
 * 64. */
static void test_symm_extents(void **state) {
    fx *f = *state;
    const uint64_t A = alloc(f->s1, 88), B = alloc(f->s1, 48), C = alloc(f->s1, 64),
                   S = alloc(f->s1, 87);
    b3_msg q;
    b3_init(&q, B3(SYMM), R_64F, 3, 2, 0, 4, 3, 5);
    q.b.uplo = UPPER;
    q.a.buffer_id = A, q.bb.buffer_id = B, q.c.buffer_id = C;
    expect_ok(f, &q.op, 3);
    const trn_blas3_desc *d = &f->desc.u.blas3;
    assert_int_equal(f->desc.kind, TRN_OP_BLAS3);
    assert_int_equal(d->fn, TRN_BLAS3_SYMM);
    assert_int_equal(d->side, TRN_SIDE_LEFT);
    assert_int_equal(d->uplo, TRN_UPLO_UPPER);
    assert_ptr_equal(d->c, data_of(f->s1, C));
    assert_int_equal(extra_refs(f->s1, C), 1);
    trn_op_refs_release(&f->refs);
    q.a.buffer_id = S;
    expect_err(f, &q.op, "symm: A");
    q.a.buffer_id = A;
    q.bb.offset = 8;
    expect_err(f, &q.op, "symm: B");
    q.bb.offset = 0;
    q.c.offset = 4; /* misaligned and short */
    expect_err(f, &q.op, "symm: C");
    assert_int_equal(extra_refs(f->s1, A), 0);
    q.c.offset = 0;
    /* Side right: A is n x n = 2 x 2, lda 2 passes (and 1 fails). */
    q.b.side = TRNSCI__V1__SIDE_MODE__SIDE_RIGHT;
    q.b.lda = 2;
    expect_ok(f, &q.op, 3);
    trn_op_refs_release(&f->refs);
    q.b.lda = 1;
    expect_err(f, &q.op, "symm: lda=1 must be >= max(1, n) = 2");
    q.b.lda = 2;
    q.b.ldb = 2;
    expect_err(f, &q.op, "symm: ldb=2");
    q.b.ldb = 3;
    q.b.side = (Trnsci__V1__SideMode)2;
    expect_err(f, &q.op, "symm: side=2");
    q.b.side = TRNSCI__V1__SIDE_MODE__SIDE_LEFT;
    q.b.lda = 4;
    q.b.uplo = FULL;
    expect_err(f, &q.op, "symm: uplo=2");
    q.b.uplo = LOWER;
    q.b.function = B3(HEMM);
    expect_err(f, &q.op, "hemm: data type");
    /* alpha = 0: A and B not read; with beta = 1 nothing is. */
    q.b.function = B3(SYMM);
    q.alpha.re = 0.0;
    q.a.buffer_id = q.bb.buffer_id = 0;
    expect_ok(f, &q.op, 1);
    trn_op_refs_release(&f->refs);
    q.beta.re = 1.0;
    q.c.buffer_id = 0;
    expect_ok(f, &q.op, 0);
    assert_int_equal(f->desc.u.blas3.m, 0);
    /* A device-mode alpha makes them read again (and must fit: 8 bytes). */
    q.ap.buffer_id = S;
    q.ap.offset = 72;
    expect_err(f, &q.op, "symm: A");
    q.a.buffer_id = A, q.bb.buffer_id = B, q.c.buffer_id = C;
    expect_ok(f, &q.op, 4);
    trn_op_refs_release(&f->refs);
    q.ap.offset = 81;
    expect_err(f, &q.op, "symm: alpha");
}

/* Rule (syrk..her2k): C is n x n, ldc >= max(1, n); A (and B) n x k for
 * trans N (lda >= n) or k x n (lda >= k); complex syrk/syr2k take N or T,
 * herk/her2k N or C, and real types treat C as T; k = 0 reads no A or B;
 * herk's alpha and beta, her2k's beta, are real components (device mode). */
static void test_rank_k(void **state) {
    fx *f = *state;
    /* Z syr2k trans T n=3 k=2 lda=ldb=2 ldc=3: A, B ((3-1)*2+2)*16 = 96
     * bytes, C 9*16 = 144. */
    const uint64_t A = alloc(f->s1, 96), B = alloc(f->s1, 96), C = alloc(f->s1, 144),
                   P = alloc(f->s1, 16);
    b3_msg q;
    b3_init(&q, B3(SYR2K), C_64F, 0, 3, 2, 2, 2, 3);
    q.b.transa = OP_T;
    q.a.buffer_id = A, q.bb.buffer_id = B, q.c.buffer_id = C;
    expect_ok(f, &q.op, 3);
    assert_int_equal(f->desc.u.blas3.m, 3); /* m is n for these */
    trn_op_refs_release(&f->refs);
    q.b.ldb = 1;
    expect_err(f, &q.op, "syr2k: ldb=1 must be >= max(1, k) = 2");
    q.b.ldb = 2;
    q.b.transa = OP_C;
    expect_err(f, &q.op, "syr2k: trans=OP_C");
    q.b.function = B3(HER2K);
    expect_ok(f, &q.op, 3);
    trn_op_refs_release(&f->refs);
    q.b.transa = OP_T;
    expect_err(f, &q.op, "her2k: trans=OP_T");
    /* her2k's beta by device pointer: a real component, 8 bytes for Z. */
    q.b.transa = OP_N; /* A, B 3 x 2, lda 3 */
    q.b.lda = q.b.ldb = 3;
    q.bp.buffer_id = P;
    q.bp.offset = 8;
    expect_ok(f, &q.op, 4);
    trn_op_refs_release(&f->refs);
    q.bp.offset = 16;
    expect_err(f, &q.op, "her2k: beta");
    q.bp.buffer_id = 0;
    /* k = 0: no A or B; with beta = 1, nothing. */
    q.b.k = 0;
    q.a.buffer_id = q.bb.buffer_id = 0;
    expect_ok(f, &q.op, 1);
    trn_op_refs_release(&f->refs);
    q.beta.re = 1.0;
    expect_ok(f, &q.op, 0);
    /* herk: alpha real by device pointer (8 bytes for Z), on a real type
     * refused; trans OP_T refused. */
    b3_init(&q, B3(HERK), C_64F, 0, 3, 2, 3, 0, 3);
    q.a.buffer_id = A, q.c.buffer_id = C;
    q.ap.buffer_id = P;
    q.ap.offset = 8;
    expect_ok(f, &q.op, 3);
    trn_op_refs_release(&f->refs);
    q.b.transa = OP_T;
    expect_err(f, &q.op, "herk: trans=OP_T");
    q.b.transa = OP_N;
    q.b.type = R_64F;
    expect_err(f, &q.op, "herk: data type");
    /* Real syrk with OP_C is OP_T: A is k x n, lda >= k. */
    b3_init(&q, B3(SYRK), R_32F, 0, 3, 2, 2, 0, 3);
    q.b.transa = OP_C;
    q.a.buffer_id = A, q.c.buffer_id = C;
    expect_ok(f, &q.op, 2);
    assert_int_equal(f->desc.u.blas3.transa, TRN_TRANS_T);
    trn_op_refs_release(&f->refs);
    q.b.k = -1;
    expect_err(f, &q.op, "syrk: k=-1");
}

/* Rule (trsm, trmm): A ka x ka (lda >= ka), B m x n (ldb >= m); trsm
 * writes B and has no C; trmm writes C (ldc >= m), which may be B only
 * with ldc = ldb; alpha = 0 reads no A (trmm: no B either). */
static void test_triangular(void **state) {
    fx *f = *state;
    /* S trsm right m=2 n=3 lda=3 ldb=2: A 9*4 = 36 bytes, B 6*4 = 24 (of
     * 48). */
    const uint64_t A = alloc(f->s1, 36), B = alloc(f->s1, 48), C = alloc(f->s1, 24);
    b3_msg q;
    b3_init(&q, B3(TRSM), R_32F, 2, 3, 0, 3, 2, 0);
    q.b.side = TRNSCI__V1__SIDE_MODE__SIDE_RIGHT;
    q.a.buffer_id = A, q.bb.buffer_id = B;
    expect_ok(f, &q.op, 2); /* ldc 0 is not checked: trsm has no C */
    assert_null(f->desc.u.blas3.c);
    trn_op_refs_release(&f->refs);
    q.b.diag = (Trnsci__V1__DiagType)5;
    expect_err(f, &q.op, "trsm: diag=5");
    q.b.diag = TRNSCI__V1__DIAG_TYPE__DIAG_UNIT;
    q.b.lda = 2;
    expect_err(f, &q.op, "trsm: lda=2");
    q.b.lda = 3;
    q.alpha.re = 0.0; /* B = 0: A not read */
    q.a.buffer_id = 0;
    expect_ok(f, &q.op, 1);
    trn_op_refs_release(&f->refs);
    /* trmm in place: C = B with ldc = ldb; ldc = 3 is refused. */
    b3_init(&q, B3(TRMM), R_32F, 2, 3, 0, 3, 2, 2);
    q.b.side = TRNSCI__V1__SIDE_MODE__SIDE_RIGHT;
    q.a.buffer_id = A, q.bb.buffer_id = B, q.c.buffer_id = B;
    expect_ok(f, &q.op, 3);
    assert_ptr_equal(f->desc.u.blas3.c, f->desc.u.blas3.b);
    trn_op_refs_release(&f->refs);
    q.b.ldc = 3; /* C = B 2 x 3 at ldc 3: 32 bytes, inside B's 48 */
    expect_err(f, &q.op, "trmm: C is B");
    q.c.buffer_id = C;
    q.b.ldc = 2;
    q.alpha.re = 0.0; /* C = 0: neither A nor B read */
    q.a.buffer_id = q.bb.buffer_id = 0;
    expect_ok(f, &q.op, 1);
    trn_op_refs_release(&f->refs);
}

/* Rule (geam): op(A), op(B) and C are m x n; lda >= m for transa N else n
 * (ldb likewise); A is read only when alpha != 0, B when beta != 0; C = A
 * needs ldc = lda and transa N, C = B likewise. (dgmm): A and C m x n, x
 * has m (left) or n (right) elements at any increment; C = A needs ldc =
 * lda. */
static void test_geam_dgmm(void **state) {
    fx *f = *state;
    /* C geam m=2 n=3 transa T (A 3 x 2, lda 3), transb N (ldb 2), ldc 2: A
     * (3+3)*8 = 48 bytes, B 6*8 = 48, C 48. */
    const uint64_t A = alloc(f->s1, 48), B = alloc(f->s1, 48), C = alloc(f->s1, 48),
                   X = alloc(f->s1, 24);
    b3_msg q;
    b3_init(&q, B3(GEAM), C_32F, 2, 3, 0, 3, 2, 2);
    q.b.transa = OP_T;
    q.beta.re = 0.5;
    q.a.buffer_id = A, q.bb.buffer_id = B, q.c.buffer_id = C;
    expect_ok(f, &q.op, 3);
    trn_op_refs_release(&f->refs);
    q.b.lda = 2;
    expect_err(f, &q.op, "geam: lda=2 must be >= max(1, n) = 3");
    q.b.lda = 3;
    q.b.transb = (Trnsci__V1__Operation)7;
    expect_err(f, &q.op, "geam: transb=7");
    q.b.transb = OP_N;
    /* beta = 0: B not read; alpha = 0 too: only C. */
    q.beta.re = 0.0;
    q.bb.buffer_id = 0;
    expect_ok(f, &q.op, 2);
    trn_op_refs_release(&f->refs);
    q.alpha.re = 0.0;
    q.a.buffer_id = 0;
    expect_ok(f, &q.op, 1);
    trn_op_refs_release(&f->refs);
    /* In place: C = A with transa T is refused; with N and lda = ldc it
     * passes (A 2 x 3, lda 2). */
    q.alpha.re = 1.0;
    q.a.buffer_id = A;
    q.c.buffer_id = A;
    expect_err(f, &q.op, "geam: C is A");
    q.b.transa = OP_N;
    q.b.lda = 2;
    expect_ok(f, &q.op, 2);
    trn_op_refs_release(&f->refs);
    q.b.ldc = 3; /* C 2 x 3 at ldc 3: 8 elements = 64 bytes > 48 */
    expect_err(f, &q.op, "geam: C");
    /* dgmm D left m=3 n=2 lda=3 ldc=3 incx=-2: x (2*2+1)*8 = 40 > 24;
     * incx = 0 reads one element; C = A needs ldc = lda. */
    b3_init(&q, B3(DGMM), R_64F, 3, 2, 0, 3, 0, 3);
    q.b.incx = -2;
    q.a.buffer_id = A, q.c.buffer_id = C, q.x.buffer_id = X;
    expect_err(f, &q.op, "dgmm: x");
    q.b.incx = 0;
    q.x.offset = 16;
    expect_ok(f, &q.op, 3);
    trn_op_refs_release(&f->refs);
    q.b.incx = 1;
    q.x.offset = 0;
    q.c.buffer_id = A;
    q.b.ldc = 4; /* 3 x 2 at ld 4: 7 doubles = 56 > 48 fails first */
    expect_err(f, &q.op, "dgmm: C");
    q.b.lda = 2;
    q.b.m = 2;
    q.b.ldc = 3;
    expect_err(f, &q.op, "dgmm: C is A");
    q.b.ldc = 2;
    expect_ok(f, &q.op, 3);
    trn_op_refs_release(&f->refs);
    q.b.side = TRNSCI__V1__SIDE_MODE__SIDE_RIGHT; /* x has n = 2 elements */
    q.b.incx = 3;                                 /* (3 + 1) * 8 = 32 > 24 */
    expect_err(f, &q.op, "dgmm: x");
}

/* Rule: the function and sizes, overflow, foreign and freed buffers. */
static void test_blas3_misc(void **state) {
    fx *f = *state;
    const uint64_t M = alloc(f->s1, 4096);
    b3_msg q;
    b3_init(&q, (Trnsci__V1__Blas3Function)13, R_64F, 2, 2, 0, 2, 2, 2);
    expect_err(f, &q.op, "blas3: function 13");
    /* syrkx / herkx (protocol 1.12): herkx for complex types only, with
     * OP_N or OP_C; complex syrkx with OP_N or OP_T */
    q.b.function = B3(HERKX);
    expect_err(f, &q.op, "herkx: data type");
    q.b.function = B3(SYRKX);
    q.b.type = C_64F;
    q.b.transa = TRNSCI__V1__OPERATION__OP_C;
    expect_err(f, &q.op, "syrkx: trans=OP_C");
    q.b.function = B3(HERKX);
    q.b.transa = TRNSCI__V1__OPERATION__OP_T;
    expect_err(f, &q.op, "herkx: trans=OP_T");
    q.b.transa = TRNSCI__V1__OPERATION__OP_N;
    q.b.type = R_64F;
    q.b.function = B3(GEAM);
    q.b.type = TRNSCI__V1__DATA_TYPE__DATA_TYPE_UNSPECIFIED;
    expect_err(f, &q.op, "geam: data type 0");
    q.b.type = R_64F;
    q.b.m = (int64_t)INT_MAX + 1;
    expect_err(f, &q.op, "geam: m=");
    /* D geam m = n = lda = INT_MAX: 8 ((INT_MAX - 1) INT_MAX + INT_MAX)
     * bytes exceed 2^64. */
    q.b.m = q.b.n = q.b.lda = q.b.ldb = q.b.ldc = INT_MAX;
    q.a.buffer_id = M;
    expect_err(f, &q.op, "geam: the extent of A");
    /* Buffers of another session and freed ones. */
    q.b.m = q.b.n = q.b.lda = q.b.ldb = q.b.ldc = 2;
    uint64_t theirs = 0; /* an id this session does not have */
    for (int i = 0; i < 4; i++)
        theirs = alloc(f->s2, 64);
    q.bb.buffer_id = theirs;
    q.beta.re = 1.0;
    q.c.buffer_id = M;
    expect_err(f, &q.op, "geam: B");
    assert_int_equal(extra_refs(f->s1, M), 0);
    const uint64_t gone = alloc(f->s1, 64);
    assert_int_equal(trn_session_free_buffer(f->s1, gone), 0);
    q.bb.buffer_id = M;
    q.c.buffer_id = gone;
    expect_err(f, &q.op, "geam: C");
    q.c.buffer_id = M;
    q.c.offset = 64;
    expect_ok(f, &q.op, 3);
    trn_op_refs_release(&f->refs);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_gemv_extents, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemv_quick_returns_and_scalars, setup, teardown),
        cmocka_unit_test_setup_teardown(test_blas2_enums_band_and_buffers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_symm_extents, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rank_k, setup, teardown),
        cmocka_unit_test_setup_teardown(test_triangular, setup, teardown),
        cmocka_unit_test_setup_teardown(test_geam_dgmm, setup, teardown),
        cmocka_unit_test_setup_teardown(test_blas3_misc, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
