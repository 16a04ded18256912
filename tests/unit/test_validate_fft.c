/*
 * test_validate_fft.c — daemon/validate_fft.c: FftPlanSpec rules and
 * FftExecOp extents, alignment, overlap, plan ownership and references.
 *
 * A real CPU backend and plan cache (estimate effort) behind two gRPC
 * sessions with heap buffers; plan handles are made the way the service
 * makes them (validate the spec, acquire the entry, put it in the session's
 * map). Extents are checked at the boundary: exactly enough passes, one
 * element short fails.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "daemon/session.h"
#include "daemon/validate.h"
#include "kernels/backend.h"
#include "scheduler/plan_cache.h"
#include "scheduler/sched.h"

typedef struct fx {
    trn_backend *be;
    trn_sched *sched;
    trn_plan_cache *pc;
    trn_config cfg;
    trn_session_table table;
    trn_session *s1, *s2;
    trn_op_desc desc;
    trn_op_refs refs;
    char err[512];
} fx;

static int setup(void **state) {
    fx *f = calloc(1, sizeof(*f));
    f->be = trn_backend_cpu_create();
    char err[256];
    const trn_sched_config sc = {.cpus = NULL, .ncores = 1, .ncopy = 0};
    f->sched = trn_sched_create(f->be, &sc, err, sizeof(err));
    const trn_plan_cache_config pcc = {.max_bytes = 1 << 30, .effort = TRN_PLAN_ESTIMATE};
    f->pc = trn_plan_cache_create(f->be, &pcc);
    assert_int_equal(trn_plan_cache_start(f->pc), 0);
    f->cfg.max_session_bytes = 1 << 20;
    f->cfg.max_streams = 4;
    f->cfg.lease_ms = 30000;
    f->cfg.ncores = 1;
    trn_session_table_init(&f->table, f->sched, &f->cfg);
    trn_wire_code code;
    f->s1 =
        trn_session_open(&f->table, "a", 1, TRN_TRANSPORT_GRPC, NULL, 0, &code, err, sizeof(err));
    f->s2 =
        trn_session_open(&f->table, "b", 2, TRN_TRANSPORT_GRPC, NULL, 0, &code, err, sizeof(err));
    assert_non_null(f->s1);
    assert_non_null(f->s2);
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fx *f = *state;
    trn_session_close(f->s1, "done");
    trn_session_unref(f->s1);
    trn_session_close(f->s2, "done");
    trn_session_unref(f->s2);
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

static uint64_t alloc(trn_session *s, uint64_t bytes) {
    uint64_t id = 0;
    int fd;
    char err[256];
    assert_int_equal(trn_session_alloc(s, bytes, &id, &fd, err, sizeof(err)), TRN_WIRE_OK);
    return id;
}

/* A plan handle made as PlanCreate makes it; returns its id. */
static uint32_t make_plan(fx *f, trn_session *s, Trnsci__V1__FftPlanSpec *w) {
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

typedef struct exec_msg {
    Trnsci__V1__Op op;
    Trnsci__V1__FftExecOp e;
    Trnsci__V1__BufferRef in, out;
} exec_msg;

static void exec_init(exec_msg *m, uint32_t plan, Trnsci__V1__FftType type, int dir, uint64_t ib,
                      uint64_t ioff, uint64_t ob, uint64_t ooff) {
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

static trn_wire_code run(fx *f, trn_session *s, exec_msg *m) {
    memset(&f->desc, 0, sizeof(f->desc));
    f->err[0] = '\0';
    const trn_wire_code rc = trn_validate_op(s, &m->op, &f->desc, &f->refs, f->err, sizeof(f->err));
    if (rc != TRN_WIRE_OK) {
        assert_int_equal(f->refs.n, 0); /* nothing held on failure */
        assert_null(f->refs.plan);
    }
    return rc;
}

static void expect_fail(fx *f, trn_session *s, exec_msg *m, const char *needle) {
    const trn_wire_code rc = run(f, s, m);
    if (rc != TRN_WIRE_INVALID_ARGUMENT)
        fail_msg("expected INVALID_ARGUMENT naming \"%s\", got %d: %s", needle, (int)rc, f->err);
    if (!strstr(f->err, needle))
        fail_msg("message \"%s\" does not contain \"%s\"", f->err, needle);
}

static void expect_pass(fx *f, trn_session *s, exec_msg *m, unsigned variant) {
    const trn_wire_code rc = run(f, s, m);
    if (rc != TRN_WIRE_OK)
        fail_msg("expected OK: %s", f->err);
    assert_int_equal(f->desc.kind, TRN_OP_FFT);
    assert_int_equal(f->desc.u.fft.variant, variant);
    assert_non_null(f->refs.plan);
    assert_int_equal(f->refs.plan_part, variant);
    trn_op_refs_release(&f->refs);
}

static void test_c2c_extents(void **state) {
    fx *f = *state;
    int64_t n[1] = {16};
    Trnsci__V1__FftPlanSpec w = TRNSCI__V1__FFT_PLAN_SPEC__INIT;
    w.type = TRNSCI__V1__FFT_TYPE__FFT_C2C;
    w.n_n = 1;
    w.n = n;
    w.batch = 3;
    const uint32_t p = make_plan(f, f->s1, &w);
    const uint64_t a = alloc(f->s1, 3 * 16 * 8), b = alloc(f->s1, 3 * 16 * 8 + 16);
    exec_msg m;
    exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, -1, a, 0, b, 0);
    expect_pass(f, f->s1, &m, 0);
    assert_int_equal(f->desc.u.fft.batch, 3);
    assert_int_equal(f->desc.u.fft.idist, 16);
    exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, 1, a, 0, b, 16); /* inverse, 16-byte offset */
    expect_pass(f, f->s1, &m, TRN_FFT_VARIANT_INVERSE);
    exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, 1, a, 0, b, 8); /* 8 bytes: unaligned */
    expect_pass(f, f->s1, &m, TRN_FFT_VARIANT_INVERSE | TRN_FFT_VARIANT_UNALIGNED);
    exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, -1, a, 0, a, 0); /* in place */
    expect_pass(f, f->s1, &m, TRN_FFT_VARIANT_INPLACE);
    exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, -1, a, 8, b, 0); /* one element short */
    expect_fail(f, f->s1, &m, "idata");
    exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, -1, a, 0, b, 24);
    expect_fail(f, f->s1, &m, "odata");
    exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, -1, a, 0, b, 4); /* misaligned */
    expect_fail(f, f->s1, &m, "multiple of the element size");
    exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_R2C, -1, a, 0, b, 0);
    expect_fail(f, f->s1, &m, "c2c plan, not r2c");
    exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, 0, a, 0, b, 0);
    expect_fail(f, f->s1, &m, "direction 0");
    exec_init(&m, p, (Trnsci__V1__FftType)99, -1, a, 0, b, 0);
    expect_fail(f, f->s1, &m, "an FFT type");
    const uint64_t big = alloc(f->s1, 2 * 3 * 16 * 8);
    exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, -1, big, 0, big, 64);
    expect_fail(f, f->s1, &m, "overlap without being equal");
    exec_init(&m, p + 100, TRNSCI__V1__FFT_TYPE__FFT_C2C, -1, a, 0, b, 0);
    expect_fail(f, f->s1, &m, "does not exist");
    /* Another session's plan is the same error as none; so is its buffer. */
    exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, -1, a, 0, b, 0);
    expect_fail(f, f->s2, &m, "does not exist");
    const uint32_t p2 = make_plan(f, f->s2, &w);
    exec_init(&m, p2, TRNSCI__V1__FFT_TYPE__FFT_C2C, -1, a, 0, b, 0);
    expect_fail(f, f->s2, &m, "does not exist in this session");
}

static void test_real_in_place(void **state) {
    fx *f = *state;
    int64_t n[1] = {10}; /* padded rows: 2*(10/2+1) = 12 reals */
    Trnsci__V1__FftPlanSpec w = TRNSCI__V1__FFT_PLAN_SPEC__INIT;
    w.type = TRNSCI__V1__FFT_TYPE__FFT_R2C;
    w.n_n = 1;
    w.n = n;
    w.batch = 2;
    const uint32_t p = make_plan(f, f->s1, &w);
    const uint64_t exact = alloc(f->s1, 2 * 12 * 4), in = alloc(f->s1, 2 * 10 * 4),
                   out = alloc(f->s1, 2 * 6 * 8);
    exec_msg m;
    exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_R2C, 0, exact, 0, exact, 0);
    expect_pass(f, f->s1, &m, TRN_FFT_VARIANT_INPLACE);
    assert_int_equal(f->desc.u.fft.idist, 12); /* reals: one padded row */
    assert_int_equal(f->desc.u.fft.odist, 6);
    exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_R2C, 0, exact, 4, exact, 4);
    expect_fail(f, f->s1, &m, "idata (= odata)");
    /* Out of place, unpadded: rows of 40 bytes, so the transforms are not all
     * 16-byte aligned. */
    exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_R2C, 0, in, 0, out, 0);
    expect_pass(f, f->s1, &m, TRN_FFT_VARIANT_UNALIGNED);
    assert_int_equal(f->desc.u.fft.idist, 10);
    exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_R2C, 0, in, 4, out, 0);
    expect_fail(f, f->s1, &m, "idata");
}

static void test_advanced_overlap(void **state) {
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
    uint32_t p = make_plan(f, f->s1, &w);
    const uint64_t a = alloc(f->s1, 4096), b = alloc(f->s1, 4096);
    exec_msg m;
    exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, -1, a, 0, b, 0);
    expect_fail(f, f->s1, &m, "outputs of the batch's transforms overlap");
    w.ostride = 4; /* interleaved: batch * dist <= stride */
    p = make_plan(f, f->s1, &w);
    exec_init(&m, p, TRNSCI__V1__FFT_TYPE__FFT_C2C, -1, a, 0, b, 0);
    expect_pass(f, f->s1, &m, TRN_FFT_VARIANT_UNALIGNED); /* odist 8 bytes */
}

static void test_plan_spec_rules(void **state) {
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
    w.type = (Trnsci__V1__FftType)7;
    assert_int_equal(trn_validate_fft_plan(&w, &spec, &h, err, sizeof(err)),
                     TRN_WIRE_INVALID_ARGUMENT);
    assert_non_null(strstr(err, "type 7"));
    assert_int_equal(trn_validate_fft_plan(NULL, &spec, &h, err, sizeof(err)),
                     TRN_WIRE_INVALID_ARGUMENT);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_c2c_extents, setup, teardown),
        cmocka_unit_test_setup_teardown(test_real_in_place, setup, teardown),
        cmocka_unit_test_setup_teardown(test_advanced_overlap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_plan_spec_rules, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
