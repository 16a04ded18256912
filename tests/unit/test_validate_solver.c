/*
 * test_validate_solver.c — the trnsolver validators (daemon/validate_solver.c,
 * validate_solver_iter.c: wire Solver*Op → descriptor), the sharding rule of
 * the batched routines, and the batched kernel's split.
 *
 * Each test runs against a real scheduler (CPU backend, 1 worker) and two
 * sessions, and feeds hand-built protobuf-c structs to trn_validate_op.
 * Rules checked (cuSOLVER's argument rules, LAPACK's where cuSOLVER defers
 * to it):
 *  - dimensions 0 .. INT_MAX; leading dimensions >= max(1, rows) with the
 *    routine's rows (potrf: n; getrf/geqrf: m; ormqr: m or n by side, ldc:
 *    m); uplo LOWER/UPPER only; getrs trans N/T/C; ormqr trans N and T (real)
 *    or C (complex), side LEFT/RIGHT; orgqr m >= n >= k; jobz 0/1; itype
 *    1..3; gesvd jobu/jobvt in A/S/O/N, not both O, m >= n, and ldu/ldvt
 *    only where U/VT are written; gesvdj econ 0/1;
 *  - every operand's extent ((cols-1) ld + rows) elements from its offset
 *    inside the session's buffer (exactly enough passes, one element short
 *    fails), offsets aligned to the real component, ipiv min(m,n) int32s
 *    (or none: no pivoting), tau min(m,n) or k elements, W/S real, info
 *    required, the iteration record optional and 8-byte aligned;
 *  - potrfBatched: one region per matrix, any number of matrices (past the
 *    fixed reference slots), infoArray batch int32s, potrsBatched nrhs = 1
 *    and as many B as A; another session's or a freed buffer anywhere in
 *    the batch is refused with nothing held;
 *  - Jacobi, refinement and Krylov controls: 0 means the documented
 *    default, negative or non-finite values are refused, tolerances below
 *    the machine epsilon are raised to it (Jacobi), restart and block size
 *    are clamped to n, omega in (0, 2), known preconditioner, the dense
 *    operator required; refinements take R_64F only, invSqrtSpd R_32F too;
 *  - on success one reference per operand (and the pointer arrays owned by
 *    the references), on failure none, and the message names the argument;
 *  - the shard count of a batch: one below 2 x 16 MFLOP, never more shards
 *    than matrices; a 2-shard run of the batched kernel gives the bytes of
 *    the 1-shard run.
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
#include "kernels/cpu/cpu_kernels.h"
#include "scheduler/sched.h"

#define QUOTA (4u << 20)

typedef struct sfx {
    trn_backend *be;
    trn_sched *sched;
    trn_config cfg;
    trn_session_table table;
    trn_session *s1, *s2;
    trn_op_desc desc;
    trn_op_refs refs;
    char err[512];
} sfx;

static int sfd_unused;

static int sv_setup(void **state) {
    sfx *f = calloc(1, sizeof(*f));
    assert_non_null(f);
    f->be = trn_backend_cpu_create();
    char err[256] = "";
    const trn_sched_config sc = {.cpus = NULL, .ncores = 1, .ncopy = 0};
    f->sched = trn_sched_create(f->be, &sc, err, sizeof(err));
    assert_non_null(f->sched);
    f->cfg.max_session_bytes = QUOTA;
    f->cfg.max_streams = 4;
    f->cfg.lease_ms = 30000;
    f->cfg.ncores = 1;
    f->cfg.log_level = TRN_LOG_WARN;
    trn_session_table_init(&f->table, f->sched, &f->cfg);
    trn_wire_code code;
    f->s1 = trn_session_open(&f->table, "solver-a", (uint32_t)getpid(), TRN_TRANSPORT_GRPC, NULL, 0,
                             &code, err, sizeof(err));
    f->s2 = trn_session_open(&f->table, "solver-b", (uint32_t)getpid(), TRN_TRANSPORT_GRPC, NULL, 0,
                             &code, err, sizeof(err));
    assert_non_null(f->s1);
    assert_non_null(f->s2);
    *state = f;
    return 0;
}

static int sv_teardown(void **state) {
    sfx *f = *state;
    trn_session_close(f->s1, "done");
    trn_session_unref(f->s1);
    trn_session_close(f->s2, "done");
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

static uint64_t buf(trn_session *s, uint64_t bytes) {
    uint64_t id = 0;
    char err[256] = "";
    if (trn_session_alloc(s, bytes, TRN_ALLOC_DEVICE, &id, &sfd_unused, err, sizeof(err)) !=
        TRN_WIRE_OK)
        fail_msg("alloc %llu: %s", (unsigned long long)bytes, err);
    return id;
}

static trn_wire_code run(sfx *f, trn_session *s, const Trnsci__V1__Op *op) {
    memset(&f->desc, 0, sizeof(f->desc));
    f->err[0] = '\0';
    const trn_wire_code rc = trn_validate_op(s, op, &f->desc, &f->refs, f->err, sizeof(f->err));
    return rc;
}

/* Expects success with nrefs references held, then releases them. */
static void ok(sfx *f, trn_session *s, const Trnsci__V1__Op *op, int nrefs) {
    const trn_wire_code rc = run(f, s, op);
    if (rc != TRN_WIRE_OK)
        fail_msg("expected OK, got %d: %s", (int)rc, f->err);
    assert_int_equal(f->refs.n + f->refs.nmore, nrefs);
    trn_op_refs_release(&f->refs);
}

/* Expects a failure naming needle, with nothing held. */
static void bad(sfx *f, trn_session *s, const Trnsci__V1__Op *op, const char *needle) {
    const trn_wire_code rc = run(f, s, op);
    if (rc == TRN_WIRE_OK)
        fail_msg("expected a failure naming \"%s\", got OK", needle);
    if (!strstr(f->err, needle))
        fail_msg("message \"%s\" does not contain \"%s\"", f->err, needle);
    assert_int_equal(f->refs.n, 0);
    assert_int_equal(f->refs.nmore, 0);
    assert_null(f->refs.owned);
}

#define R32 TRNSCI__V1__DATA_TYPE__R_32F
#define R64 TRNSCI__V1__DATA_TYPE__R_64F
#define C32 TRNSCI__V1__DATA_TYPE__C_32F
#define C64 TRNSCI__V1__DATA_TYPE__C_64F
#define FN(x) TRNSCI__V1__SOLVER_FUNCTION__SOLVER_##x

static Trnsci__V1__BufferRef ref(uint64_t id, uint64_t off) {
    Trnsci__V1__BufferRef r = TRNSCI__V1__BUFFER_REF__INIT;
    r.buffer_id = id;
    r.offset = off;
    return r;
}

/* ---- SolverDenseOp ------------------------------------------------------------------ */

typedef struct dmsg {
    Trnsci__V1__Op op;
    Trnsci__V1__SolverDenseOp w;
    Trnsci__V1__BufferRef a, b, ipiv, tau, info;
} dmsg;

static void dense_init(dmsg *q, Trnsci__V1__SolverFunction fn, Trnsci__V1__DataType t) {
    const Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    const Trnsci__V1__SolverDenseOp w = TRNSCI__V1__SOLVER_DENSE_OP__INIT;
    q->op = op;
    q->w = w;
    q->a = q->b = q->ipiv = q->tau = q->info = ref(0, 0);
    q->op.kind_case = TRNSCI__V1__OP__KIND_SOLVER_DENSE;
    q->op.solver_dense = &q->w;
    q->w.function = fn;
    q->w.type = t;
    q->w.a = &q->a;
    q->w.b = &q->b;
    q->w.ipiv = &q->ipiv;
    q->w.tau = &q->tau;
    q->w.info = &q->info;
}

/* Rule: potrf n x n with lda >= max(1, n); the extent (n-1) lda + n
 * elements exactly fits, one element less does not; uplo 0/1; info
 * required, 4-byte aligned. */
static void test_potrf(void **state) {
    sfx *f = *state;
    const uint64_t A = buf(f->s1, 4096), I = buf(f->s1, 64);
    dmsg q;
    dense_init(&q, FN(POTRF), R64);
    q.w.n = 4;
    q.w.lda = 6;
    q.a = ref(A, 4096 - (3 * 6 + 4) * 8); /* exactly enough */
    q.info = ref(I, 0);
    ok(f, f->s1, &q.op, 2);
    assert_int_equal(f->desc.kind, TRN_OP_SOLVER_DENSE);
    assert_int_equal(f->desc.u.solver_dense.n, 4);
    assert_int_equal(f->desc.u.solver_dense.lda, 6);
    assert_int_equal(f->desc.u.solver_dense.lower, 1);
    q.a = ref(A, 4096 - (3 * 6 + 4) * 8 + 8);
    bad(f, f->s1, &q.op, "potrf: A");
    q.a = ref(A, 4);
    bad(f, f->s1, &q.op, "multiple of the element size");
    q.a = ref(A, 0);
    q.w.lda = 3;
    bad(f, f->s1, &q.op, "lda=3 must be >= max(1, n) = 4");
    q.w.lda = 4;
    q.w.n = -1;
    bad(f, f->s1, &q.op, "potrf: n=-1");
    q.w.n = (int64_t)INT_MAX + 1;
    bad(f, f->s1, &q.op, "n=2147483648");
    q.w.n = 4;
    q.w.uplo = 2;
    bad(f, f->s1, &q.op, "uplo=2");
    q.w.uplo = 1;
    ok(f, f->s1, &q.op, 2);
    assert_int_equal(f->desc.u.solver_dense.lower, 0);
    q.info = ref(0, 0);
    bad(f, f->s1, &q.op, "potrf: info");
    q.info = ref(I, 2);
    bad(f, f->s1, &q.op, "potrf: info");
    q.info = ref(I, 60);
    ok(f, f->s1, &q.op, 2);
    q.info = ref(I, 64);
    bad(f, f->s1, &q.op, "potrf: info");
    /* n = 0 needs no matrix, only info. */
    q.info = ref(I, 0);
    q.w.n = 0;
    q.w.lda = 1;
    q.a = ref(0, 0);
    ok(f, f->s1, &q.op, 1);
    /* Complex: 16-byte elements, 8-byte alignment. */
    dense_init(&q, FN(POTRF), C64);
    q.w.n = 16;
    q.w.lda = 16;
    q.a = ref(A, 0);
    q.info = ref(I, 0);
    ok(f, f->s1, &q.op, 2);
    q.w.n = 17;
    q.w.lda = 17;
    bad(f, f->s1, &q.op, "potrf: A");
    /* Another session's buffer, an unknown type, an unknown function. */
    dense_init(&q, FN(POTRF), R32);
    q.w.n = 2;
    q.w.lda = 2;
    q.a = ref(A, 0);
    q.info = ref(I, 0);
    bad(f, f->s2, &q.op, "does not exist in this session");
    q.w.type = (Trnsci__V1__DataType)9;
    bad(f, f->s1, &q.op, "data type 9");
    q.w.type = R32;
    q.w.function = (Trnsci__V1__SolverFunction)16; /* a batched function */
    bad(f, f->s1, &q.op, "function 16");
    /* A freed buffer. */
    assert_int_equal(trn_session_free_buffer(f->s1, A), 0);
    q.w.function = FN(POTRF);
    bad(f, f->s1, &q.op, "freed or never allocated");
}

/* Rule (protocol 1.14): sytrf/sytri/lauum n x n, lda >= max(1, n), ipiv n
 * ints or none (lauum none); sytrs B n x nrhs; laswp A lda x n with
 * 1 <= k1 <= k2 <= lda, ipiv k1 + (k2 - k1)|incx| ints (none when incx = 0
 * or n = 0), no info. */
static void test_sytrf_laswp(void **state) {
    sfx *f = *state;
    const uint64_t A = buf(f->s1, 4096), P = buf(f->s1, 64), I = buf(f->s1, 64);
    dmsg q;
    dense_init(&q, FN(SYTRF), R64);
    q.w.n = 4;
    q.w.lda = 4;
    q.a = ref(A, 0);
    q.ipiv = ref(P, 64 - 16); /* exactly n ints */
    q.info = ref(I, 0);
    ok(f, f->s1, &q.op, 3);
    assert_int_equal(f->desc.u.solver_dense.fn, TRN_SOLVER_SYTRF);
    q.ipiv = ref(P, 64 - 12);
    bad(f, f->s1, &q.op, "sytrf: ipiv");
    q.ipiv = ref(0, 0); /* no pivoting */
    ok(f, f->s1, &q.op, 2);
    q.w.lda = 3;
    bad(f, f->s1, &q.op, "lda=3");
    q.w.lda = 4;
    q.w.uplo = 3;
    bad(f, f->s1, &q.op, "uplo=3");
    q.w.uplo = 0;
    q.w.function = FN(SYTRI);
    ok(f, f->s1, &q.op, 2);
    q.w.function = FN(LAUUM);
    q.w.type = C64;
    ok(f, f->s1, &q.op, 2);
    q.info = ref(0, 0);
    bad(f, f->s1, &q.op, "lauum: info");
    /* sytrs: B n x nrhs. */
    dense_init(&q, FN(SYTRS), R32);
    q.w.n = 4;
    q.w.nrhs = 2;
    q.w.lda = 4;
    q.w.ldb = 5;
    q.a = ref(A, 0);
    q.b = ref(A, 4096 - (5 + 4) * 4);
    q.info = ref(I, 0);
    ok(f, f->s1, &q.op, 3);
    q.b = ref(A, 4096 - (5 + 4) * 4 + 4);
    bad(f, f->s1, &q.op, "sytrs: B");
    q.b = ref(A, 0);
    q.w.ldb = 3;
    bad(f, f->s1, &q.op, "ldb=3");
    /* laswp: A is lda x n; ipiv's extent from k1, k2, incx; no info. */
    dense_init(&q, FN(LASWP), R64);
    q.w.n = 3;
    q.w.lda = 10;
    q.w.k = 2;
    q.w.k2 = 5;
    q.w.incx = -3; /* 2 + 3 * 3 = 11 ints */
    q.a = ref(A, 4096 - 30 * 8);
    q.ipiv = ref(P, 64 - 44);
    ok(f, f->s1, &q.op, 2);
    assert_int_equal(f->desc.u.solver_dense.k2, 5);
    assert_int_equal(f->desc.u.solver_dense.incx, -3);
    q.ipiv = ref(P, 64 - 40);
    bad(f, f->s1, &q.op, "laswp: devIpiv");
    q.a = ref(A, 4096 - 30 * 8 + 8);
    q.ipiv = ref(P, 0);
    bad(f, f->s1, &q.op, "laswp: A");
    q.a = ref(A, 0);
    q.w.incx = 0; /* LAPACK: nothing to do, ipiv not read */
    q.ipiv = ref(0, 0);
    ok(f, f->s1, &q.op, 1);
    q.w.incx = (int64_t)INT_MAX + 1;
    bad(f, f->s1, &q.op, "incx=2147483648");
    q.w.incx = 1;
    q.ipiv = ref(P, 0);
    q.w.k = 0;
    bad(f, f->s1, &q.op, "k1=0");
    q.w.k = 6;
    bad(f, f->s1, &q.op, "k1=6, k2=5");
    q.w.k = 2;
    q.w.k2 = 11;
    bad(f, f->s1, &q.op, "lda=10");
    q.w.k2 = 5;
    q.w.lda = 0;
    bad(f, f->s1, &q.op, "lda=0");
}

/* Rule (protocol 1.14): sytrd n x n with d (n reals), e and tau (n - 1);
 * orgtr tau n - 1; ormtr A nq x nq (nq = m left, n right), tau nq - 1, C
 * m x n, trans N or T (real) / C (complex); 16 and 17 are not dense. */
static void test_tridiagonal(void **state) {
    sfx *f = *state;
    const uint64_t A = buf(f->s1, 4096), R = buf(f->s1, 256), I = buf(f->s1, 64);
    dmsg q;
    Trnsci__V1__BufferRef d = ref(R, 0), e = ref(R, 64);
    dense_init(&q, FN(SYTRD), C32);
    q.w.d = &d;
    q.w.e = &e;
    q.w.n = 5;
    q.w.lda = 5;
    q.a = ref(A, 0);
    q.tau = ref(R, 256 - 4 * 8); /* 4 complex floats exactly */
    q.info = ref(I, 0);
    ok(f, f->s1, &q.op, 5);
    e = ref(R, 256 - 12); /* e: 4 floats, one short */
    bad(f, f->s1, &q.op, "hetrd: e");
    e = ref(R, 64);
    d = ref(R, 256 - 16); /* d: 5 floats */
    bad(f, f->s1, &q.op, "hetrd: d");
    d = ref(R, 0);
    q.tau = ref(R, 256 - 24);
    bad(f, f->s1, &q.op, "hetrd: tau");
    /* n = 1: no reflector, tau and e may be buffer 0. */
    q.w.n = 1;
    q.tau = ref(0, 0);
    e = ref(0, 0);
    ok(f, f->s1, &q.op, 3);
    dense_init(&q, FN(ORGTR), R64);
    q.w.n = 4;
    q.w.lda = 4;
    q.a = ref(A, 0);
    q.tau = ref(R, 256 - 24);
    q.info = ref(I, 0);
    ok(f, f->s1, &q.op, 3);
    q.w.uplo = 2;
    bad(f, f->s1, &q.op, "uplo=2");
    /* ormtr, side right: A n x n, C m x n. */
    dense_init(&q, FN(ORMTR), R64);
    q.w.side = 1;
    q.w.trans = TRNSCI__V1__OPERATION__OP_T;
    q.w.m = 6;
    q.w.n = 3;
    q.w.lda = 3;
    q.w.ldb = 6;
    q.a = ref(A, 0);
    q.tau = ref(R, 256 - 16);
    q.b = ref(A, 4096 - 18 * 8);
    q.info = ref(I, 0);
    ok(f, f->s1, &q.op, 4);
    q.w.trans = TRNSCI__V1__OPERATION__OP_C;
    bad(f, f->s1, &q.op, "trans=2 must be OP_N or OP_T");
    q.w.trans = TRNSCI__V1__OPERATION__OP_N;
    q.w.ldb = 5;
    bad(f, f->s1, &q.op, "ldc=5");
    q.w.ldb = 6;
    q.w.side = 0; /* left: A is m x m = 6 x 6 with lda 3 */
    bad(f, f->s1, &q.op, "lda=3");
    q.w.side = 2;
    bad(f, f->s1, &q.op, "side=2");
    q.w.side = 1;
    q.w.function = FN(POTRS_BATCHED);
    bad(f, f->s1, &q.op, "function 17");
}

/* Rule (protocol 1.15): gebrd m >= n, lda >= max(1, m), D, TAUQ, TAUP n
 * elements (D real), E n - 1; orgbr side LEFT m >= n >= min(m, k), RIGHT
 * n >= m >= min(n, k), k >= 0, lda >= max(1, m), tau min(m, k) (LEFT) or
 * min(n, k) (RIGHT) elements. */
static void test_bidiagonal(void **state) {
    sfx *f = *state;
    const uint64_t A = buf(f->s1, 4096), R = buf(f->s1, 256), I = buf(f->s1, 64);
    dmsg q;
    Trnsci__V1__BufferRef d = ref(R, 0), e = ref(R, 32), taup = ref(R, 256 - 32);
    dense_init(&q, FN(GEBRD), R64);
    q.w.d = &d;
    q.w.e = &e;
    q.w.taup = &taup;
    q.w.m = 6;
    q.w.n = 4;
    q.w.lda = 6;
    q.a = ref(A, 4096 - 24 * 8); /* 6 x 4 exactly */
    q.tau = ref(R, 64);
    q.info = ref(I, 0);
    ok(f, f->s1, &q.op, 6);
    taup = ref(R, 256 - 24);
    bad(f, f->s1, &q.op, "gebrd: TAUP");
    taup = ref(R, 256 - 32);
    q.a = ref(A, 4096 - 23 * 8);
    bad(f, f->s1, &q.op, "gebrd: A");
    q.a = ref(A, 0);
    q.w.m = 3;
    q.w.lda = 3;
    bad(f, f->s1, &q.op, "m=3 must be >= n=4");
    q.w.m = 6;
    q.w.lda = 5;
    bad(f, f->s1, &q.op, "lda=5");
    /* orgbr, side LEFT: Q 6 x 4 from k = 4 reflectors. */
    dense_init(&q, FN(ORGBR), R64);
    q.w.m = 6;
    q.w.n = 4;
    q.w.k = 4;
    q.w.lda = 6;
    q.a = ref(A, 0);
    q.tau = ref(R, 256 - 32);
    q.info = ref(I, 0);
    ok(f, f->s1, &q.op, 3);
    q.tau = ref(R, 256 - 24);
    bad(f, f->s1, &q.op, "orgbr: tau");
    q.tau = ref(R, 0);
    q.w.n = 3;
    bad(f, f->s1, &q.op, "m >= n >= min(m, k)");
    q.w.n = 4;
    q.w.k = -1;
    bad(f, f->s1, &q.op, "k=-1");
    /* side RIGHT: P^H 3 x 6 from k = 3 rows (k < n). */
    q.w.side = 1;
    q.w.m = 3;
    q.w.n = 6;
    q.w.k = 3;
    q.w.lda = 3;
    ok(f, f->s1, &q.op, 3);
    q.w.m = 2;
    q.w.lda = 2;
    bad(f, f->s1, &q.op, "n >= m >= min(n, k)");
    q.w.m = 3;
    q.w.side = 2;
    bad(f, f->s1, &q.op, "side=2");
}

/* Rule: potrs B n x nrhs with ldb >= max(1, n); getrs trans N/T/C, ipiv
 * n ints or none; getrf ipiv min(m, n) ints, lda >= max(1, m). */
static void test_solves_and_lu(void **state) {
    sfx *f = *state;
    const uint64_t A = buf(f->s1, 8192), I = buf(f->s1, 256);
    dmsg q;
    dense_init(&q, FN(POTRS), R32);
    q.w.n = 5;
    q.w.nrhs = 3;
    q.w.lda = 5;
    q.w.ldb = 7;
    q.a = ref(A, 0);
    q.b = ref(A, 8192 - (2 * 7 + 5) * 4);
    q.info = ref(I, 0);
    ok(f, f->s1, &q.op, 3);
    assert_int_equal(f->desc.u.solver_dense.nrhs, 3);
    q.b = ref(A, 8192 - (2 * 7 + 5) * 4 + 4);
    bad(f, f->s1, &q.op, "potrs: B");
    q.b = ref(A, 0);
    q.w.ldb = 4;
    bad(f, f->s1, &q.op, "ldb=4");
    q.w.ldb = 5;
    q.w.nrhs = -3;
    bad(f, f->s1, &q.op, "nrhs=-3");

    dense_init(&q, FN(GETRF), R64);
    q.w.m = 6;
    q.w.n = 4;
    q.w.lda = 6;
    q.a = ref(A, 0);
    q.ipiv = ref(I, 256 - 16); /* 4 ints exactly */
    q.info = ref(I, 0);
    ok(f, f->s1, &q.op, 3);
    assert_non_null(f->desc.u.solver_dense.ipiv);
    q.ipiv = ref(I, 256 - 12);
    bad(f, f->s1, &q.op, "getrf: devIpiv");
    q.ipiv = ref(0, 0); /* no pivoting */
    ok(f, f->s1, &q.op, 2);
    assert_null(f->desc.u.solver_dense.ipiv);
    q.w.lda = 5;
    bad(f, f->s1, &q.op, "lda=5 must be >= max(1, m) = 6");

    dense_init(&q, FN(GETRS), C32);
    q.w.n = 4;
    q.w.nrhs = 1;
    q.w.lda = 4;
    q.w.ldb = 4;
    q.w.trans = TRNSCI__V1__OPERATION__OP_C;
    q.a = ref(A, 0);
    q.b = ref(A, 1024);
    q.ipiv = ref(I, 0);
    q.info = ref(I, 100);
    ok(f, f->s1, &q.op, 4);
    assert_int_equal(f->desc.u.solver_dense.trans, TRN_TRANS_C);
    q.w.trans = (Trnsci__V1__Operation)3;
    bad(f, f->s1, &q.op, "trans=3");
}

/* Rule: geqrf tau min(m, n); orgqr m >= n >= k, tau k; ormqr side, trans
 * N/T (real) or N/C (complex), k <= nq, A nq x k with lda >= nq, C m x n
 * with ldc >= m. */
static void test_qr(void **state) {
    sfx *f = *state;
    const uint64_t A = buf(f->s1, 8192), I = buf(f->s1, 64);
    dmsg q;
    dense_init(&q, FN(GEQRF), R64);
    q.w.m = 8;
    q.w.n = 3;
    q.w.lda = 8;
    q.a = ref(A, 0);
    q.tau = ref(A, 8192 - 3 * 8);
    q.info = ref(I, 0);
    ok(f, f->s1, &q.op, 3);
    q.tau = ref(A, 8192 - 2 * 8);
    bad(f, f->s1, &q.op, "geqrf: tau");

    dense_init(&q, FN(ORGQR), C64);
    q.w.m = 8;
    q.w.n = 4;
    q.w.k = 4;
    q.w.lda = 8;
    q.a = ref(A, 0);
    q.tau = ref(A, 4096);
    q.info = ref(I, 0);
    ok(f, f->s1, &q.op, 3);
    q.w.k = 5;
    bad(f, f->s1, &q.op, "ungqr: m=8, n=4, k=5");
    q.w.k = 4;
    q.w.n = 9;
    bad(f, f->s1, &q.op, "m >= n >= k");

    dense_init(&q, FN(ORMQR), R32);
    q.w.side = 1; /* right: nq = n */
    q.w.trans = TRNSCI__V1__OPERATION__OP_T;
    q.w.m = 3;
    q.w.n = 6;
    q.w.k = 6;
    q.w.lda = 6;
    q.w.ldb = 3;
    q.a = ref(A, 0);
    q.tau = ref(A, 2048);
    q.b = ref(A, 4096);
    q.info = ref(I, 0);
    ok(f, f->s1, &q.op, 4);
    assert_int_equal(f->desc.u.solver_dense.left, 0);
    q.w.k = 7;
    bad(f, f->s1, &q.op, "k=7 must be <= n=6");
    q.w.k = 6;
    q.w.lda = 5;
    bad(f, f->s1, &q.op, "lda=5");
    q.w.lda = 6;
    q.w.ldb = 2;
    bad(f, f->s1, &q.op, "ldc=2");
    q.w.ldb = 3;
    q.w.trans = TRNSCI__V1__OPERATION__OP_C;
    bad(f, f->s1, &q.op, "must be OP_N or OP_T");
    q.w.type = C32;
    ok(f, f->s1, &q.op, 4);
    q.w.trans = TRNSCI__V1__OPERATION__OP_T;
    bad(f, f->s1, &q.op, "unmqr: trans=1 must be OP_N or OP_C");
    q.w.side = 2;
    bad(f, f->s1, &q.op, "side=2");
}

/* ---- SolverBatchedOp ------------------------------------------------------------------ */

#define NB 20

typedef struct bmsg {
    Trnsci__V1__Op op;
    Trnsci__V1__SolverBatchedOp w;
    Trnsci__V1__BufferRef a[NB], b[NB], info;
    Trnsci__V1__BufferRef *ap[NB], *bp[NB];
} bmsg;

static void batched_init(bmsg *q, Trnsci__V1__SolverFunction fn, int count, uint64_t id,
                         uint64_t stride) {
    const Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    const Trnsci__V1__SolverBatchedOp w = TRNSCI__V1__SOLVER_BATCHED_OP__INIT;
    q->op = op;
    q->w = w;
    q->op.kind_case = TRNSCI__V1__OP__KIND_SOLVER_BATCHED;
    q->op.solver_batched = &q->w;
    q->w.function = fn;
    q->w.type = R64;
    for (int i = 0; i < NB; i++) {
        q->a[i] = ref(id, (uint64_t)i * stride);
        q->b[i] = ref(id, (uint64_t)i * stride + stride / 2);
        q->ap[i] = &q->a[i];
        q->bp[i] = &q->b[i];
    }
    q->w.n_a = (size_t)count;
    q->w.a = q->ap;
    q->info = ref(0, 0);
    q->w.info = &q->info;
}

/* Rule: one region per matrix (any number of them), infoArray of batch
 * int32s; potrsBatched nrhs = 1, one info, len(B) = len(A). */
static void test_batched(void **state) {
    sfx *f = *state;
    const uint64_t A = buf(f->s1, NB * 512), I = buf(f->s1, 4 * NB);
    bmsg q;
    batched_init(&q, FN(POTRF_BATCHED), NB, A, 512);
    q.w.n = 4;
    q.w.lda = 4;
    q.info = ref(I, 0);
    ok(f, f->s1, &q.op, NB + 1); /* 20 matrices: past the 8 fixed slots */
    /* The pointers are checked while the references are held. */
    assert_int_equal(run(f, f->s1, &q.op), TRN_WIRE_OK);
    assert_int_equal(f->desc.u.solver_batched.batch, NB);
    assert_non_null(f->refs.owned);
    for (int i = 0; i < NB; i++)
        assert_ptr_equal((char *)f->desc.u.solver_batched.a[i] -
                             (char *)f->desc.u.solver_batched.a[0],
                         (ptrdiff_t)i * 512);
    trn_op_refs_release(&f->refs);
    /* The last matrix one element short. */
    q.a[NB - 1] = ref(A, NB * 512 - 15 * 8);
    bad(f, f->s1, &q.op, "potrfBatched: Aarray[19]");
    q.a[NB - 1] = ref(A, 0);
    /* infoArray one int short. */
    q.info = ref(I, 4);
    bad(f, f->s1, &q.op, "infoArray");
    q.info = ref(I, 0);
    /* Another session's buffer in the middle of the batch (ids count per
     * session: the third of s2 names nothing in s1). */
    (void)buf(f->s2, 8);
    (void)buf(f->s2, 8);
    const uint64_t other = buf(f->s2, 512);
    q.a[11] = ref(other, 0);
    bad(f, f->s1, &q.op, "Aarray[11]");
    q.a[11] = ref(A, 0);
    /* No B for potrf. */
    q.w.n_b = 1;
    q.w.b = q.bp;
    bad(f, f->s1, &q.op, "takes no B");
    /* An empty batch holds only info (0 bytes: no buffer needed). */
    batched_init(&q, FN(POTRF_BATCHED), 0, A, 512);
    q.w.n = 4;
    q.w.lda = 4;
    ok(f, f->s1, &q.op, 0);

    batched_init(&q, FN(POTRS_BATCHED), 3, A, 512);
    q.w.n = 4;
    q.w.lda = 4;
    q.w.ldb = 4;
    q.w.nrhs = 1;
    q.w.n_b = 3;
    q.w.b = q.bp;
    q.info = ref(I, 0);
    ok(f, f->s1, &q.op, 7);
    q.w.nrhs = 2;
    bad(f, f->s1, &q.op, "nrhs=2 must be 1");
    q.w.nrhs = 1;
    q.w.n_b = 2;
    bad(f, f->s1, &q.op, "Barray has 2 matrices but Aarray has 3");
    q.w.n_b = 3;
    q.w.ldb = 3;
    bad(f, f->s1, &q.op, "ldb=3");
}

/* Rule: a batch shards only when it is worth two GEMM shards' flops, into
 * whole matrices; and the kernel's 2-shard run equals its 1-shard run. */
static void test_batched_shards(void **state) {
    (void)state;
    trn_op_desc d;
    memset(&d, 0, sizeof(d));
    d.kind = TRN_OP_SOLVER_BATCHED;
    d.u.solver_batched.fn = TRN_SOLVER_POTRF_BATCHED;
    d.u.solver_batched.type = TRN_DTYPE_R64F;
    d.u.solver_batched.n = 128;    /* n^3 / 3 = 699k flops a matrix */
    d.u.solver_batched.batch = 40; /* 28 MFLOP: under 2 x 16 */
    assert_int_equal(trn_sched_shard_count(&d, 2), 1);
    d.u.solver_batched.batch = 64; /* 45 MFLOP */
    assert_int_equal(trn_sched_shard_count(&d, 2), 2);
    d.u.solver_batched.n = 2000; /* one huge matrix: never split */
    d.u.solver_batched.batch = 1;
    assert_int_equal(trn_sched_shard_count(&d, 2), 1);
    d.u.solver_batched.batch = 3;
    assert_int_equal(trn_sched_shard_count(&d, 8), 3);
    d.kind = TRN_OP_SOLVER_DENSE; /* a single factorisation: one core */
    d.u.solver_dense.fn = TRN_SOLVER_POTRF;
    d.u.solver_dense.n = 4000;
    assert_int_equal(trn_sched_shard_count(&d, 2), 1);

    /* The kernel: 5 matrices of 16, diagonally dominant; 1 shard vs 2. */
    enum { N = 16, COUNT = 5 };
    double *m1 = calloc(COUNT * N * N, sizeof(double)), *m2 = calloc(COUNT * N * N, sizeof(double));
    assert_non_null(m1);
    assert_non_null(m2);
    for (int k = 0; k < COUNT; k++)
        for (int j = 0; j < N; j++)
            for (int i = 0; i < N; i++)
                m1[(k * N + j) * N + i] = i == j ? N + k : 1.0 / (1 + i + j);
    memcpy(m2, m1, COUNT * N * N * sizeof(double));
    void *p1[COUNT], *p2[COUNT];
    for (int k = 0; k < COUNT; k++) {
        p1[k] = m1 + k * N * N;
        p2[k] = m2 + k * N * N;
    }
    int32_t i1[COUNT], i2[COUNT];
    trn_solver_batched_desc b = {.fn = TRN_SOLVER_POTRF_BATCHED,
                                 .type = TRN_DTYPE_R64F,
                                 .lower = 1,
                                 .n = N,
                                 .lda = N,
                                 .a = p1,
                                 .info = i1,
                                 .batch = COUNT};
    assert_int_equal(trn_cpu_solver_batched(&b, 0, 1), TRN_KSTATUS_OK);
    b.a = p2;
    b.info = i2;
    assert_int_equal(trn_cpu_solver_batched(&b, 0, 2), TRN_KSTATUS_OK);
    assert_int_equal(trn_cpu_solver_batched(&b, 1, 2), TRN_KSTATUS_OK);
    assert_memory_equal(m1, m2, COUNT * N * N * sizeof(double));
    assert_memory_equal(i1, i2, sizeof(i1));
    free(m1);
    free(m2);
}

/* ---- SolverEigenOp ------------------------------------------------------------------- */

typedef struct emsg {
    Trnsci__V1__Op op;
    Trnsci__V1__SolverEigenOp w;
    Trnsci__V1__BufferRef a, b, wv, u, v, rwork, info, stats;
} emsg;

static void eigen_init(emsg *q, Trnsci__V1__SolverFunction fn, Trnsci__V1__DataType t) {
    const Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    const Trnsci__V1__SolverEigenOp w = TRNSCI__V1__SOLVER_EIGEN_OP__INIT;
    q->op = op;
    q->w = w;
    q->a = q->b = q->wv = q->u = q->v = q->rwork = q->info = q->stats = ref(0, 0);
    q->op.kind_case = TRNSCI__V1__OP__KIND_SOLVER_EIGEN;
    q->op.solver_eigen = &q->w;
    q->w.function = fn;
    q->w.type = t;
    q->w.a = &q->a;
    q->w.b = &q->b;
    q->w.w = &q->wv;
    q->w.u = &q->u;
    q->w.v = &q->v;
    q->w.rwork = &q->rwork;
    q->w.info = &q->info;
    q->w.stats = &q->stats;
}

/* Rule (protocol 1.15): Xgeev jobvl 0 only (1 unsupported), jobvr 0/1,
 * lda >= max(1, n), ldvl >= 1, ldvr >= n with VR (else >= 1), W 2n reals
 * of A's precision, w_split for a real A only. */
static void test_geev(void **state) {
    sfx *f = *state;
    const uint64_t A = buf(f->s1, 4096), W = buf(f->s1, 256), I = buf(f->s1, 64);
    emsg q;
    eigen_init(&q, FN(GEEV), R64);
    q.w.jobz = 1;
    q.w.n = 4;
    q.w.lda = 4;
    q.w.ldv = 4;
    q.w.ldvl = 1;
    q.a = ref(A, 0);
    q.wv = ref(W, 256 - 64); /* 8 doubles exactly */
    q.v = ref(A, 4096 - 128);
    q.info = ref(I, 0);
    ok(f, f->s1, &q.op, 4);
    q.w.w_split = 1;
    ok(f, f->s1, &q.op, 4);
    q.wv = ref(W, 256 - 56);
    bad(f, f->s1, &q.op, "Xgeev: W");
    q.wv = ref(W, 0);
    q.w.jobvl = 1;
    bad(f, f->s1, &q.op, "jobvl=TRNSOLVER_EIG_MODE_VECTOR is not supported");
    q.w.jobvl = 2;
    bad(f, f->s1, &q.op, "jobvl=2");
    q.w.jobvl = 0;
    q.w.ldvl = 0;
    bad(f, f->s1, &q.op, "ldvl=0");
    q.w.ldvl = 1;
    q.w.ldv = 3;
    bad(f, f->s1, &q.op, "ldvr=3");
    q.w.jobz = 0; /* no VR: ldvr 1 and buffer 0 */
    q.w.ldv = 1;
    q.v = ref(0, 0);
    ok(f, f->s1, &q.op, 3);
    q.w.jobz = 2;
    bad(f, f->s1, &q.op, "jobvr=2");
    eigen_init(&q, FN(GEEV), C64);
    q.w.n = 2;
    q.w.lda = 2;
    q.w.ldv = 1;
    q.w.ldvl = 1;
    q.w.w_split = 1;
    q.a = ref(A, 0);
    q.wv = ref(W, 0);
    q.info = ref(I, 0);
    bad(f, f->s1, &q.op, "w_split=1");
}
/* Rule: syevd/sygvd/syevj jobz 0/1, uplo 0/1, itype 1..3, W n reals (float
 * for C); syevj's controls (0: epsilon and 100 sweeps; raised to epsilon;
 * negative refused) and its optional, 8-byte aligned record. */
static void test_eigen(void **state) {
    sfx *f = *state;
    const uint64_t A = buf(f->s1, 8192), I = buf(f->s1, 64);
    emsg q;
    eigen_init(&q, FN(SYEVD), C32);
    q.w.jobz = 1;
    q.w.n = 8;
    q.w.lda = 8;
    q.a = ref(A, 0);
    q.wv = ref(A, 8192 - 8 * 4); /* 8 floats for a C matrix */
    q.info = ref(I, 0);
    ok(f, f->s1, &q.op, 3);
    q.wv = ref(A, 8192 - 7 * 4);
    bad(f, f->s1, &q.op, "heevd: W");
    q.wv = ref(A, 4096);
    q.w.jobz = 2;
    bad(f, f->s1, &q.op, "jobz=2");
    q.w.jobz = 0;
    q.w.uplo = -1;
    bad(f, f->s1, &q.op, "uplo=-1");

    eigen_init(&q, FN(SYGVD), R64);
    q.w.itype = 1;
    q.w.n = 4;
    q.w.lda = 4;
    q.w.ldb = 4;
    q.a = ref(A, 0);
    q.b = ref(A, 1024);
    q.wv = ref(A, 2048);
    q.info = ref(I, 0);
    ok(f, f->s1, &q.op, 4);
    q.w.itype = 4;
    bad(f, f->s1, &q.op, "itype=4");
    q.w.itype = 3;
    q.w.ldb = 2;
    bad(f, f->s1, &q.op, "ldb=2");

    eigen_init(&q, FN(SYEVJ), R32);
    q.w.n = 4;
    q.w.lda = 4;
    q.a = ref(A, 0);
    q.wv = ref(A, 1024);
    q.info = ref(I, 0);
    ok(f, f->s1, &q.op, 3); /* no record: fine */
    assert_true(f->desc.u.solver_eigen.tol == FLT_EPSILON);
    assert_int_equal(f->desc.u.solver_eigen.max_sweeps, 100);
    q.stats = ref(I, 16);
    q.w.tolerance = 1e-12; /* below float's epsilon: raised */
    q.w.max_sweeps = 7;
    ok(f, f->s1, &q.op, 4);
    assert_true(f->desc.u.solver_eigen.tol == FLT_EPSILON);
    assert_int_equal(f->desc.u.solver_eigen.max_sweeps, 7);
    q.stats = ref(I, 20);
    bad(f, f->s1, &q.op, "syevj: result");
    q.stats = ref(I, 16);
    q.w.tolerance = -1;
    bad(f, f->s1, &q.op, "tolerance=-1");
    q.w.tolerance = NAN;
    bad(f, f->s1, &q.op, "tolerance=nan");
    q.w.tolerance = 0;
    q.w.max_sweeps = -2;
    bad(f, f->s1, &q.op, "max_sweeps=-2");
}

/* Rule (protocol 1.15): sygvdx's selection (range 1001..1003; 1 <= il <=
 * iu <= n; finite vl < vu) and optional int32 count; sygvj as sygvd with
 * syevj's controls; gesvdaStridedBatched's m >= n, 1 <= rank <= n, strides
 * of at least one matrix, each operand's whole batch inside a buffer, and
 * the optional 8-byte aligned residuals; 37 is no eigen function. */
static void test_eigen_115(void **state) {
    sfx *f = *state;
    const uint64_t A = buf(f->s1, 8192), I = buf(f->s1, 64);
    emsg q;
    Trnsci__V1__BufferRef cnt = ref(I, 16), res = ref(A, 4096);
    eigen_init(&q, FN(SYGVDX), R64);
    q.w.itype = 1;
    q.w.n = 4;
    q.w.lda = 4;
    q.w.ldb = 4;
    q.a = ref(A, 0);
    q.b = ref(A, 1024);
    q.wv = ref(A, 2048);
    q.info = ref(I, 0);
    q.w.meig = &cnt;
    q.w.range = 1002;
    q.w.il = 2;
    q.w.iu = 3;
    ok(f, f->s1, &q.op, 5);
    q.w.iu = 5;
    bad(f, f->s1, &q.op, "iu=5");
    q.w.il = 0;
    q.w.iu = 2;
    bad(f, f->s1, &q.op, "il=0");
    q.w.range = 1003;
    q.w.vl = 1.0;
    q.w.vu = 1.0;
    bad(f, f->s1, &q.op, "vl=1, vu=1");
    q.w.vu = INFINITY;
    bad(f, f->s1, &q.op, "finite");
    q.w.vu = 2.0;
    ok(f, f->s1, &q.op, 5);
    q.w.range = 1000;
    bad(f, f->s1, &q.op, "range=1000");
    q.w.range = 1001;
    q.w.function = 41; /* past GESVDA_STRIDED_BATCHED: no SolverEigenOp function */
    bad(f, f->s1, &q.op, "one of SYEVD .. GESVDA_STRIDED_BATCHED");

    eigen_init(&q, FN(SYGVJ), C32);
    q.w.itype = 2;
    q.w.n = 4;
    q.w.lda = 4;
    q.w.ldb = 4;
    q.a = ref(A, 0);
    q.b = ref(A, 1024);
    q.wv = ref(A, 2048);
    q.info = ref(I, 0);
    q.stats = ref(I, 32);
    ok(f, f->s1, &q.op, 5);
    q.w.tolerance = -1.0;
    bad(f, f->s1, &q.op, "tolerance");
    q.w.tolerance = 0.0;
    q.w.itype = 0;
    bad(f, f->s1, &q.op, "itype=0");

    /* 2 matrices 4 x 3, rank 2. */
    eigen_init(&q, FN(GESVDA_STRIDED_BATCHED), R64);
    q.w.jobz = 1;
    q.w.rank = 2;
    q.w.m = 4;
    q.w.n = 3;
    q.w.lda = 4;
    q.w.stride_a = 12;
    q.w.stride_s = 2;
    q.w.ldu = 4;
    q.w.stride_u = 8;
    q.w.ldv = 3;
    q.w.stride_v = 6;
    q.w.batch = 2;
    q.a = ref(A, 0);
    q.wv = ref(A, 1024);
    q.u = ref(A, 2048);
    q.v = ref(A, 3072);
    q.info = ref(I, 0);
    q.w.residuals = &res;
    ok(f, f->s1, &q.op, 6);
    q.w.jobz = 0; /* no U, V */
    ok(f, f->s1, &q.op, 4);
    q.w.jobz = 1;
    res = ref(A, 4100);
    bad(f, f->s1, &q.op, "h_R_nrmF");
    res = ref(A, 4096);
    q.w.stride_a = 11;
    bad(f, f->s1, &q.op, "strideA=11");
    q.w.stride_a = 12;
    q.w.stride_v = 5;
    bad(f, f->s1, &q.op, "strideV=5");
    q.w.stride_v = 6;
    q.w.rank = 4;
    bad(f, f->s1, &q.op, "rank=4");
    q.w.rank = 2;
    q.w.m = 2;
    q.w.lda = 2;
    bad(f, f->s1, &q.op, "m=2 must be >= n=3");
    q.w.m = 4;
    q.w.lda = 4;
    q.a = ref(A, 8192 - 12 * 8); /* the second matrix past the buffer */
    bad(f, f->s1, &q.op, "gesvdaStridedBatched: A");
    q.a = ref(A, 0);
    q.w.batch = -1;
    bad(f, f->s1, &q.op, "batchSize=-1");
}

/* gesvdaStridedBatched splits by whole matrices, and any split gives the
 * unsplit run's bits. */
static void test_gesvda_shards(void **state) {
    (void)state;
    trn_op_desc d;
    memset(&d, 0, sizeof(d));
    d.kind = TRN_OP_SOLVER_EIGEN;
    trn_solver_eigen_desc *e = &d.u.solver_eigen;
    e->fn = TRN_SOLVER_GESVDA_STRIDED_BATCHED;
    e->type = TRN_DTYPE_R64F;
    e->m = e->n = 64; /* 20 n^3 = 5.2 MFLOP a matrix */
    e->batch = 64;
    assert_int_equal(trn_sched_shard_count(&d, 2), 2);
    e->batch = 1;
    assert_int_equal(trn_sched_shard_count(&d, 2), 1);
    e->fn = TRN_SOLVER_SYGVJ; /* one problem: one core */
    e->batch = 64;
    assert_int_equal(trn_sched_shard_count(&d, 2), 1);

    enum { M = 6, N = 4, R = 3, COUNT = 5 };
    double a[COUNT * M * N], s[2][COUNT * R], u[2][COUNT * M * R], v[2][COUNT * N * R];
    double res[2][COUNT];
    int32_t info[2][COUNT];
    for (int i = 0; i < COUNT * M * N; i++)
        a[i] = cos(1.0 + 0.37 * i);
    for (int split = 0; split < 2; split++) {
        trn_solver_eigen_desc g = {.fn = TRN_SOLVER_GESVDA_STRIDED_BATCHED,
                                   .type = TRN_DTYPE_R64F,
                                   .vectors = 1,
                                   .m = M,
                                   .n = N,
                                   .a = a,
                                   .lda = M,
                                   .w = s[split],
                                   .u = u[split],
                                   .ldu = M,
                                   .v = v[split],
                                   .ldv = N,
                                   .info = info[split],
                                   .rank = R,
                                   .stride_a = M * N,
                                   .stride_s = R,
                                   .stride_u = M * R,
                                   .stride_v = N * R,
                                   .batch = COUNT,
                                   .residuals = res[split]};
        const int nsh = split ? 2 : 1;
        for (int sh = 0; sh < nsh; sh++)
            assert_int_equal(trn_cpu_solver_gesvda(&g, NULL, sh, nsh), TRN_KSTATUS_OK);
    }
    assert_memory_equal(s[0], s[1], sizeof(s[0]));
    assert_memory_equal(u[0], u[1], sizeof(u[0]));
    assert_memory_equal(v[0], v[1], sizeof(v[0]));
    assert_memory_equal(res[0], res[1], sizeof(res[0]));
    assert_memory_equal(info[0], info[1], sizeof(info[0]));
    for (int k = 0; k < COUNT; k++)
        assert_int_equal(info[0][k], 0);
}

/* Rule (gesvd): jobu/jobvt 'A','S','O','N', not both 'O', m >= n; U m x m
 * ('A') or m x min ('S'), VT n x n or min x n, each checked only when
 * written, ldu/ldvt >= 1 otherwise; rwork optional, min(m,n) - 1 reals.
 * gesvdj: econ 0/1, any m, n; ldu >= m, ldv >= n; U/V only with VECTOR. */
static void test_svd(void **state) {
    sfx *f = *state;
    const uint64_t A = buf(f->s1, 16384), I = buf(f->s1, 64);
    emsg q;
    eigen_init(&q, FN(GESVD), R64);
    q.w.jobu = 'A';
    q.w.jobvt = 'S';
    q.w.m = 6;
    q.w.n = 4;
    q.w.lda = 6;
    q.w.ldu = 6;
    q.w.ldv = 4;
    q.a = ref(A, 0);
    q.wv = ref(A, 1024);
    q.u = ref(A, 2048);
    q.v = ref(A, 16384 - (3 * 4 + 4) * 8);
    q.rwork = ref(A, 16384 - 3 * 8);
    q.info = ref(I, 0);
    ok(f, f->s1, &q.op, 6);
    q.v = ref(A, 16384 - (3 * 4 + 4) * 8 + 8);
    bad(f, f->s1, &q.op, "gesvd: VT");
    q.v = ref(A, 4096);
    q.rwork = ref(A, 16384 - 2 * 8);
    bad(f, f->s1, &q.op, "gesvd: rwork");
    q.rwork = ref(0, 0);
    ok(f, f->s1, &q.op, 5);
    q.w.ldu = 5;
    bad(f, f->s1, &q.op, "ldu=5");
    /* jobu 'N': U is not referenced, ldu 1 is fine, no buffer needed. */
    q.w.jobu = 'N';
    q.w.ldu = 1;
    q.u = ref(0, 0);
    ok(f, f->s1, &q.op, 4);
    q.w.jobu = 'X';
    bad(f, f->s1, &q.op, "jobu=88");
    q.w.jobu = 'O';
    q.w.jobvt = 'O';
    bad(f, f->s1, &q.op, "both be 'O'");
    q.w.jobvt = 'N';
    q.w.m = 3;
    q.w.lda = 3;
    bad(f, f->s1, &q.op, "m=3 must be >= n=4");

    eigen_init(&q, FN(GESVDJ), C64);
    q.w.jobz = 1;
    q.w.econ = 1;
    q.w.m = 3;
    q.w.n = 5; /* wide: U 3 x 3, V 5 x 3 */
    q.w.lda = 3;
    q.w.ldu = 3;
    q.w.ldv = 5;
    q.a = ref(A, 0);
    q.wv = ref(A, 1024);
    q.u = ref(A, 2048);
    q.v = ref(A, 16384 - (2 * 5 + 5) * 16);
    q.info = ref(I, 0);
    ok(f, f->s1, &q.op, 5);
    q.w.econ = 0; /* V 5 x 5 no longer fits there */
    bad(f, f->s1, &q.op, "gesvdj: V");
    q.w.econ = 2;
    bad(f, f->s1, &q.op, "econ=2");
    q.w.econ = 1;
    q.w.ldv = 4;
    bad(f, f->s1, &q.op, "ldv=4");
    q.w.ldv = 5;
    q.w.jobz = 0; /* no vectors: U and V unused */
    q.u = q.v = ref(0, 0);
    ok(f, f->s1, &q.op, 3);
}

/* ---- SolverRefineOp and SolverKrylovOp -------------------------------------------------- */

/* Rule: invSqrtSpd R_32F/R_64F, A and X n x n; solveSpd and gmresIr R_64F
 * only, B and X n x nrhs, info required; defaults filled in; restart
 * clamped to n. */
static void test_refine(void **state) {
    sfx *f = *state;
    const uint64_t A = buf(f->s1, 16384), I = buf(f->s1, 64);
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    Trnsci__V1__SolverRefineOp w = TRNSCI__V1__SOLVER_REFINE_OP__INIT;
    Trnsci__V1__BufferRef a = ref(A, 0), b = ref(A, 4096), x = ref(A, 8192), st = ref(I, 16),
                          info = ref(I, 0);
    op.kind_case = TRNSCI__V1__OP__KIND_SOLVER_REFINE;
    op.solver_refine = &w;
    w.a = &a;
    w.b = &b;
    w.x = &x;
    w.stats = &st;
    w.info = &info;
    w.function = FN(INV_SQRT_SPD);
    w.type = R32;
    w.n = 10;
    w.lda = 10;
    w.ldx = 10;
    ok(f, f->s1, &op, 3); /* A, X, the record */
    assert_int_equal(f->desc.u.solver_refine.max_iters, 100);
    assert_true(f->desc.u.solver_refine.tol > 0);
    w.type = C32;
    bad(f, f->s1, &op, "data type");
    w.type = R64;
    w.ldx = 9;
    bad(f, f->s1, &op, "ldx=9");
    w.ldx = 10;

    w.function = FN(SOLVE_SPD_IR);
    w.type = R32;
    bad(f, f->s1, &op, "is not R_64F");
    w.type = R64;
    w.nrhs = 2;
    w.ldb = 10;
    w.uplo = 1;
    ok(f, f->s1, &op, 5);
    assert_int_equal(f->desc.u.solver_refine.max_iters, 30);
    assert_int_equal(f->desc.u.solver_refine.lower, 0);
    w.uplo = 3;
    bad(f, f->s1, &op, "uplo=3");
    w.uplo = 0;
    info = ref(0, 0);
    bad(f, f->s1, &op, "solveSpd: info");
    info = ref(I, 0);
    w.tolerance = -1e-3;
    bad(f, f->s1, &op, "tolerance");
    w.tolerance = 0;
    w.max_iters = -1;
    bad(f, f->s1, &op, "max_iters=-1");
    w.max_iters = 0;

    w.function = FN(GMRES_IR);
    w.restart = 500; /* more than n: clamped */
    ok(f, f->s1, &op, 5);
    assert_int_equal(f->desc.u.solver_refine.restart, 10);
    w.restart = -1;
    bad(f, f->s1, &op, "restart=-1");
}

/* Rule (IRS_GELS): any of the four types; 0 <= n <= m; ldda, lddb >=
 * max(1, m), lddx >= max(1, n); A m x n, B m x nrhs, X n x nrhs fit;
 * ipiv is ignored; defaults (50 iterations, sqrt(n) u) filled in; m is
 * carried to the descriptor. */
static void test_irs_gels(void **state) {
    sfx *f = *state;
    const uint64_t A = buf(f->s1, 16384), I = buf(f->s1, 64);
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    Trnsci__V1__SolverRefineOp w = TRNSCI__V1__SOLVER_REFINE_OP__INIT;
    Trnsci__V1__BufferRef a = ref(A, 0), b = ref(A, 4096), x = ref(A, 8192), st = ref(I, 16),
                          info = ref(I, 0), piv = ref(A, 12288);
    op.kind_case = TRNSCI__V1__OP__KIND_SOLVER_REFINE;
    op.solver_refine = &w;
    w.function = FN(IRS_GELS);
    w.type = C64;
    w.a = &a;
    w.b = &b;
    w.x = &x;
    w.stats = &st;
    w.info = &info;
    w.ipiv = &piv;
    w.m = 12;
    w.n = 8;
    w.nrhs = 2;
    w.lda = 12;
    w.ldb = 12;
    w.ldx = 8;
    ok(f, f->s1, &op, 5); /* A, B, X, the record, info: not ipiv */
    assert_int_equal(f->desc.u.solver_refine.m, 12);
    assert_int_equal(f->desc.u.solver_refine.max_iters, 50);
    assert_null(f->desc.u.solver_refine.ipiv);
    assert_true(f->desc.u.solver_refine.tol == sqrt(8.0) * DBL_EPSILON / 2);
    w.m = 7;
    bad(f, f->s1, &op, "n=8 must be <= m=7");
    w.m = -1;
    bad(f, f->s1, &op, "m=-1");
    w.m = 12;
    w.lda = 11;
    bad(f, f->s1, &op, "ldda=11");
    w.lda = 12;
    w.ldb = 8;
    bad(f, f->s1, &op, "lddb=8");
    w.ldb = 12;
    w.ldx = 7;
    bad(f, f->s1, &op, "lddx=7");
    w.ldx = 8;
    w.m = 200; /* A: 200 x 8 complex doubles no longer fit in the buffer */
    w.lda = 200;
    w.ldb = 200;
    bad(f, f->s1, &op, "dA");
    w.m = 12;
    w.lda = 12;
    w.ldb = 12;
    w.lowest_precision = 1205 + 10; /* C_16F */
    w.type = R64;
    bad(f, f->s1, &op, "lowest precision");
    w.type = C64;
    ok(f, f->s1, &op, 5);
    assert_int_equal(f->desc.u.solver_refine.lowest, TRN_IRS_PREC_16F);
    w.m = w.n = 0; /* empty: lddx >= 1 still */
    ok(f, f->s1, &op, 5);
}

/* Rule: CG/GMRES/BiCGStab R_32F/R_64F; the dense operator is required
 * (lda >= n, n x n), b and x n elements; preconditioner known, block size
 * clamped to n, omega in (0, 2) (0: 1). */
static void test_krylov(void **state) {
    sfx *f = *state;
    const uint64_t A = buf(f->s1, 16384), I = buf(f->s1, 64);
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    Trnsci__V1__SolverKrylovOp w = TRNSCI__V1__SOLVER_KRYLOV_OP__INIT;
    Trnsci__V1__SolverDenseMatrix dm = TRNSCI__V1__SOLVER_DENSE_MATRIX__INIT;
    Trnsci__V1__BufferRef a = ref(A, 0), b = ref(A, 8192), x = ref(A, 16384 - 12 * 8),
                          st = ref(I, 0);
    op.kind_case = TRNSCI__V1__OP__KIND_SOLVER_KRYLOV;
    op.solver_krylov = &w;
    dm.a = &a;
    dm.lda = 12;
    w.b = &b;
    w.x = &x;
    w.stats = &st;
    w.function = FN(CG);
    w.type = R64;
    w.n = 12;
    bad(f, f->s1, &op, "no matrix given");
    w.matrix_case = TRNSCI__V1__SOLVER_KRYLOV_OP__MATRIX_DENSE;
    w.dense = &dm;
    ok(f, f->s1, &op, 4);
    assert_int_equal(f->desc.u.solver_krylov.op.kind, TRN_LINOP_DENSE);
    assert_int_equal(f->desc.u.solver_krylov.max_iters, 120);
    assert_true(f->desc.u.solver_krylov.tol == 1e-10);
    x = ref(A, 16384 - 11 * 8);
    bad(f, f->s1, &op, "cg: x");
    x = ref(A, 16384 - 12 * 8);
    dm.lda = 11;
    bad(f, f->s1, &op, "lda=11");
    dm.lda = 12;
    w.type = C64;
    bad(f, f->s1, &op, "R_32F or R_64F");
    w.type = R32;
    ok(f, f->s1, &op, 4);
    assert_true(f->desc.u.solver_krylov.tol == 1e-5);
    st = ref(I, 4);
    bad(f, f->s1, &op, "cg: result");
    st = ref(I, 0);

    w.function = FN(GMRES);
    ok(f, f->s1, &op, 4);
    assert_int_equal(f->desc.u.solver_krylov.restart, 12); /* default 30, clamped */
    w.preconditioner = TRNSCI__V1__SOLVER_PRECONDITIONER__SOLVER_PRECOND_BLOCK_JACOBI;
    w.block_size = 100;
    ok(f, f->s1, &op, 4);
    assert_int_equal(f->desc.u.solver_krylov.block_size, 12);
    w.block_size = -4;
    bad(f, f->s1, &op, "block_size=-4");
    w.preconditioner = TRNSCI__V1__SOLVER_PRECONDITIONER__SOLVER_PRECOND_SSOR;
    ok(f, f->s1, &op, 4);
    assert_true(f->desc.u.solver_krylov.omega == 1.0);
    w.omega = 2.0;
    bad(f, f->s1, &op, "omega=2");
    w.omega = -0.5;
    bad(f, f->s1, &op, "omega=-0.5");
    w.preconditioner = (Trnsci__V1__SolverPreconditioner)9;
    bad(f, f->s1, &op, "preconditioner 9");
    w.preconditioner = TRNSCI__V1__SOLVER_PRECONDITIONER__SOLVER_PRECOND_NONE;
    w.function = (Trnsci__V1__SolverFunction)69;
    bad(f, f->s1, &op, "function 69");
}

/* Rule: a sparse operator is CSR or BSR (COO: UNIMPLEMENTED), of the
 * routine's type, n x n elements (BSR: blocks times block size); its four
 * arrays are resolved (offsets rows + 1, indices and values nnz) and its
 * contents are left to the kernel. */
static void test_krylov_sparse(void **state) {
    sfx *f = *state;
    const uint64_t A = buf(f->s1, 16384), I = buf(f->s1, 64);
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    Trnsci__V1__SolverKrylovOp w = TRNSCI__V1__SOLVER_KRYLOV_OP__INIT;
    Trnsci__V1__SparseMatrix sm = TRNSCI__V1__SPARSE_MATRIX__INIT;
    /* 12 x 12 CSR, 40 entries: offsets 13 int32 at 0, indices at 64, values
     * (double) at 256; b and x after them. */
    Trnsci__V1__BufferRef off = ref(A, 0), idx = ref(A, 64), val = ref(A, 256), b = ref(A, 8192),
                          x = ref(A, 16384 - 12 * 8), st = ref(I, 0);
    op.kind_case = TRNSCI__V1__OP__KIND_SOLVER_KRYLOV;
    op.solver_krylov = &w;
    sm.format = TRNSCI__V1__SPARSE_FORMAT__SPARSE_FORMAT_CSR;
    sm.type = R64;
    sm.rows = sm.cols = 12;
    sm.nnz = 40;
    sm.offsets_type = sm.index_type = TRNSCI__V1__SPARSE_INDEX_TYPE__SPARSE_INDEX_32I;
    sm.offsets = &off;
    sm.indices = &idx;
    sm.values = &val;
    w.matrix_case = TRNSCI__V1__SOLVER_KRYLOV_OP__MATRIX_SPARSE;
    w.sparse = &sm;
    w.b = &b;
    w.x = &x;
    w.stats = &st;
    w.function = FN(BICGSTAB);
    w.type = R64;
    w.n = 12;
    ok(f, f->s1, &op, 6); /* offsets, indices, values, b, x, the record */
    const trn_linop *lo = &f->desc.u.solver_krylov.op;
    assert_int_equal(lo->kind, TRN_LINOP_SPARSE);
    assert_int_equal(lo->sp.format, TRN_SP_CSR);
    assert_int_equal(lo->sp.nnz, 40);
    w.n = 11;
    bad(f, f->s1, &op, "n x n with n=11");
    w.n = 12;
    sm.cols = 13;
    bad(f, f->s1, &op, "square");
    sm.cols = 12;
    w.type = R32;
    bad(f, f->s1, &op, "does not match");
    w.type = R64;
    sm.nnz = (16384 - 256) / 8 + 1; /* values one element past the buffer */
    bad(f, f->s1, &op, "A");
    sm.nnz = 40;
    sm.format = TRNSCI__V1__SPARSE_FORMAT__SPARSE_FORMAT_COO;
    bad(f, f->s1, &op, "COO");
    assert_int_equal(run(f, f->s1, &op), TRN_WIRE_UNIMPLEMENTED);
    /* BSR: 3 x 3 blocks of 4 x 4 = 12 x 12 elements, 5 blocks. */
    sm.format = TRNSCI__V1__SPARSE_FORMAT__SPARSE_FORMAT_BSR;
    sm.rows = sm.cols = 3;
    sm.nnz = 5;
    sm.row_block = sm.col_block = 4;
    ok(f, f->s1, &op, 6);
    assert_int_equal(lo->sp.format, TRN_SP_BSR);
    assert_int_equal(lo->sp.rows, 12);
    sm.row_block = 3; /* 9 x 12 */
    bad(f, f->s1, &op, "square");
}

int main(void) {
    trn_log_set_level(TRN_LOG_WARN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_potrf, sv_setup, sv_teardown),
        cmocka_unit_test_setup_teardown(test_solves_and_lu, sv_setup, sv_teardown),
        cmocka_unit_test_setup_teardown(test_sytrf_laswp, sv_setup, sv_teardown),
        cmocka_unit_test_setup_teardown(test_tridiagonal, sv_setup, sv_teardown),
        cmocka_unit_test_setup_teardown(test_qr, sv_setup, sv_teardown),
        cmocka_unit_test_setup_teardown(test_batched, sv_setup, sv_teardown),
        cmocka_unit_test(test_batched_shards),
        cmocka_unit_test_setup_teardown(test_eigen, sv_setup, sv_teardown),
        cmocka_unit_test_setup_teardown(test_bidiagonal, sv_setup, sv_teardown),
        cmocka_unit_test_setup_teardown(test_geev, sv_setup, sv_teardown),
        cmocka_unit_test_setup_teardown(test_svd, sv_setup, sv_teardown),
        cmocka_unit_test_setup_teardown(test_eigen_115, sv_setup, sv_teardown),
        cmocka_unit_test(test_gesvda_shards),
        cmocka_unit_test_setup_teardown(test_refine, sv_setup, sv_teardown),
        cmocka_unit_test_setup_teardown(test_irs_gels, sv_setup, sv_teardown),
        cmocka_unit_test_setup_teardown(test_krylov, sv_setup, sv_teardown),
        cmocka_unit_test_setup_teardown(test_krylov_sparse, sv_setup, sv_teardown),
    };
    return cmocka_run_group_tests_name("validate_solver", tests, NULL, NULL);
}
