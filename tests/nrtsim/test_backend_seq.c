/*
 * test_backend_seq.c — the Neuron backend runs GEMMs together as one
 * gemm_seq program (kernels/backend.h op_seq_plan / run_seq), on the
 * simulated runtime and compiler, in this process (no executors).
 *
 * Rule (program.h, gemm_seq): the sequence's results are bitwise those of
 * its GEMMs run one by one through the gemm program; its operands that an
 * earlier node wrote come from that node's result in the core's memory.
 * The sequence here: T = W1 X; Y = T^T B1 (op(A) is d0 transposed); Z =
 * A2 B2 + 0.5 Y (C is d1); in f32 and c32, bf16x3. The same GEMMs with
 * Z into a C of its own are not the sequence their plan was made for, and
 * fail with a message. The sequence stamps every node's writes on the
 * write clock.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "kernels/backend.h"
#include "kernels/neuron/backend_neuron.h"
#include "ops/write_clock.h"

static trn_backend *be;
static trn_write_clock *wclock;
static char lockdir[64];

static int group_setup(void **state) {
    (void)state;
    snprintf(lockdir, sizeof(lockdir), "/tmp/nrtsim-seq-XXXXXX");
    if (!mkdtemp(lockdir))
        return -1;
    setenv("NRTSIM_LOCK_DIR", lockdir, 1);
    setenv("NRTSIM_CORES", "1", 1);
    setenv("NRTSIM_CC_MS", "0", 1);
    unsetenv("NEURON_RT_VISIBLE_CORES");
    char err[512];
    trn_neuron_probe probe;
    if (trn_backend_neuron_probe(NRTSIM_LIB, &probe, err, sizeof(err)) != 0 || probe.ncores != 1) {
        fprintf(stderr, "probe: %s\n", err);
        return -1;
    }
    const trn_neuron_config cfg = {.library = NRTSIM_LIB,
                                   .compiler = NRTSIM_CC,
                                   .kernels_dir = NKI_DIR,
                                   .target = "trn2",
                                   .compile_timeout_ms = 60000,
                                   .split_min_flop = (uint64_t)1 << 30};
    be = trn_backend_neuron_create(&cfg, probe.ncores, trn_backend_cpu_create(), err, sizeof(err));
    if (!be || be->core_init(be, 0) != 0) {
        fprintf(stderr, "backend: %s\n", err);
        return -1;
    }
    wclock = calloc(1, trn_write_clock_bytes());
    if (!wclock)
        return -1;
    trn_backend_neuron_set_write_clock(be, wclock);
    return 0;
}

static int group_teardown(void **state) {
    (void)state;
    if (be)
        be->destroy(be);
    free(wclock);
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", lockdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* A column-major matrix of rows x cols (complex: interleaved) of random
 * values in [-1, 1). */
static float *matrix(int rows, int cols, int cplx, unsigned *seed) {
    const size_t n = (size_t)rows * (size_t)cols * (cplx ? 2u : 1u);
    float *x = malloc(n * sizeof(float));
    assert_non_null(x);
    for (size_t i = 0; i < n; i++)
        x[i] = (float)rand_r(seed) / (float)RAND_MAX * 2.0f - 1.0f;
    return x;
}

static trn_op_desc gemm(int cplx, trn_trans ta, int m, int n, int k, const float *a, int lda,
                        const float *b, int ldb, float *c, int ldc, double beta, trn_kmsg *msg) {
    trn_op_desc op;
    memset(&op, 0, sizeof(op));
    op.kind = TRN_OP_GEMM;
    op.kmsg = msg;
    trn_gemm_desc *g = &op.u.gemm;
    g->type = cplx ? TRN_DTYPE_C32F : TRN_DTYPE_R32F;
    g->compute = TRN_COMPUTE_32F_BF16X3;
    g->transa = ta;
    g->transb = TRN_TRANS_N;
    g->m = m, g->n = n, g->k = k;
    g->alpha.re = 1.25;
    g->alpha.im = cplx ? -0.5 : 0;
    g->beta.re = beta;
    g->a = a, g->lda = lda;
    g->b = b, g->ldb = ldb;
    g->c = c, g->ldc = ldc;
    return op;
}

/* The backend's plan for spec, prepared (the simulated compile). */
static void *plan_for(const trn_plan_spec *spec) {
    trn_kstatus why;
    char err[512] = "";
    void *p = be->plan_create(be, spec, &why, err, sizeof(err));
    if (!p)
        fail_msg("plan_create: %s", err);
    if (be->plan_build(be, p, 0, err, sizeof(err)) != TRN_KSTATUS_OK)
        fail_msg("plan_build: %s", err);
    return p;
}

static void run_case(int cplx) {
    unsigned seed = 7 + (unsigned)cplx;
    const size_t e = cplx ? 2 : 1;
    float *w1 = matrix(130, 20, cplx, &seed), *x = matrix(20, 64, cplx, &seed);
    float *b1 = matrix(130, 7, cplx, &seed), *a2 = matrix(64, 5, cplx, &seed);
    float *b2 = matrix(5, 7, cplx, &seed);
    float *c_init[3] = {matrix(130, 64, cplx, &seed), matrix(64, 7, cplx, &seed),
                        matrix(64, 7, cplx, &seed)};
    const size_t c_elems[3] = {130 * 64 * e, 64 * 7 * e, 64 * 7 * e};
    float *c_seq[3], *c_one[3];
    for (int j = 0; j < 3; j++) {
        c_seq[j] = malloc(c_elems[j] * sizeof(float));
        c_one[j] = malloc(c_elems[j] * sizeof(float));
        assert_true(c_seq[j] && c_one[j]);
        memcpy(c_seq[j], c_init[j], c_elems[j] * sizeof(float));
        memcpy(c_one[j], c_init[j], c_elems[j] * sizeof(float));
    }
    trn_kmsg msg;
    trn_kmsg_init(&msg);
    float **c[2] = {c_seq, c_one};
    trn_op_desc ops[2][3];
    for (int v = 0; v < 2; v++) {
        ops[v][0] = gemm(cplx, TRN_TRANS_N, 130, 64, 20, w1, 130, x, 20, c[v][0], 130, 0, &msg);
        ops[v][1] =
            gemm(cplx, TRN_TRANS_T, 64, 7, 130, c[v][0], 130, b1, 130, c[v][1], 64, 0, &msg);
        ops[v][2] = gemm(cplx, TRN_TRANS_N, 64, 7, 5, a2, 64, b2, 5, c[v][2], 64, 0.5, &msg);
        ops[v][2].u.gemm.c = c[v][1]; /* Z is written over Y: C is d1 */
    }
    const trn_op_desc *seq[3] = {&ops[0][0], &ops[0][1], &ops[0][2]};
    trn_plan_spec spec;
    assert_int_equal(be->op_seq_plan(be, seq, 3, &spec), 1);
    char want[300];
    snprintf(want, sizeof(want),
             "dtype=%s mode=bf16x3 nodes=3 g0=130x64x20x1:in,in,in g1=64x7x130x1:d0,in,in "
             "g2=64x7x5x1:in,in,d1",
             cplx ? "c32" : "f32");
    assert_string_equal(spec.u.program.kernel, "gemm_seq");
    assert_string_equal(spec.u.program.params, want);
    void *plan = plan_for(&spec);
    const uint64_t before = trn_write_clock_now(wclock);
    assert_int_equal(be->run_seq(be, seq, 3, plan), TRN_KSTATUS_OK);
    /* Every node's writes are stamped (T and Y): a copy of them left in a
     * core's memory is no longer current. (That the rest is not cannot be
     * checked: pages far apart share the clock's slots.) */
    assert_false(trn_write_clock_unchanged(wclock, c_seq[0], c_elems[0] * sizeof(float), before));
    assert_false(trn_write_clock_unchanged(wclock, c_seq[1], c_elems[1] * sizeof(float), before));
    /* The same GEMMs one by one, each through its gemm program. */
    for (int j = 0; j < 3; j++) {
        trn_plan_spec one;
        assert_int_equal(be->op_plan(be, &ops[1][j], &one), 1);
        void *p = plan_for(&one);
        assert_int_equal(be->run(be, &ops[1][j], p, 0, 1), TRN_KSTATUS_OK);
        be->plan_release(be, p);
    }
    for (int j = 0; j < 2; j++) /* T, and Y then Z over it */
        if (memcmp(c_seq[j], c_one[j], c_elems[j] * sizeof(float)) != 0)
            fail_msg("%s: C%d of the sequence differs from its GEMMs run one by one",
                     cplx ? "c32" : "f32", j);
    assert_memory_equal(c_seq[2], c_init[2], c_elems[2] * sizeof(float)); /* never written */
    /* Z into its own C: node 2's C is an input now, not the plan's sequence. */
    ops[0][2].u.gemm.c = c_seq[2];
    assert_int_equal(be->run_seq(be, seq, 3, plan), TRN_KSTATUS_FAILED);
    if (!strstr(msg.text, "do not make the sequence"))
        fail_msg("message \"%s\"", msg.text);
    be->plan_release(be, plan);
    free(w1), free(x), free(b1), free(a2), free(b2);
    for (int j = 0; j < 3; j++) {
        free(c_init[j]);
        free(c_seq[j]);
        free(c_one[j]);
    }
}

static void test_sequence_f32(void **state) {
    (void)state;
    run_case(0);
}

static void test_sequence_c32(void **state) {
    (void)state;
    run_case(1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sequence_f32),
        cmocka_unit_test(test_sequence_c32),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
