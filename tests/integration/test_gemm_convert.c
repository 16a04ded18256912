/*
 * test_gemm_convert.c — a precision-mode GEMM whose operand conversion runs
 * as a stage of its own on a copy engine (ops/convert_stage.h), against
 * the same GEMM converted inline.
 *
 * Three daemons: 2 cores with conversions ahead (the default), 2 cores
 * with --convert-ahead off, and 1 core. For each precision mode that cuts
 * its operands into low-precision pieces (FAST_16BF, FAST_TF32, FAST_16F,
 * BF16X3, BF16X9, and FAST_16BF with stochastic rounding), real and
 * complex, with transposed and conjugated operands, at shapes large enough
 * for the GEMM to be split over cores (so the conversion goes ahead):
 *  - the result meets the mode's bound against the long-double reference
 *    (tests/common/gemm_reference.h; derivations in
 *    tests/unit/test_gemm_modes.c);
 *  - it is bitwise the inline conversion's and the 1-core daemon's: the
 *    pieces are the same values in the same layout, and the GEMM stage
 *    makes the same BLAS calls on them;
 *  - the conversion did run as a stage of its own: the daemon's workers ran
 *    more shards than the inline daemon's for the same calls (on an idle
 *    daemon the stage takes the cores, split over both; under load the
 *    copy engine, unit_sched_fair checks the choice).
 *
 * A chain of FAST_16BF GEMMs on one stream, some reading the C of the one
 * before (its conversion must wait for it), some not (it may run ahead of
 * its turn, while the one before computes: scheduler/sched.h, run-ahead):
 * every C bitwise alike on the three daemons, and each dependent one
 * different from what the stale operand would give (the chain is not
 * trivially alike).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "harness.h"
#include "trnsci/trnblas.h"
#include "trnsci/trnsci.h"

#include "tests/common/gemm_reference.h"

enum { AHEAD, INLINE, ONE_CORE, NDAEMONS };
static th_daemon daemons[NDAEMONS];
static int metrics_port[NDAEMONS];

static trnblasOperation_t op_of(char t) {
    return t == 'N' ? TRNBLAS_OP_N : t == 'T' ? TRNBLAS_OP_T : TRNBLAS_OP_C;
}

static void *upload(const void *host, size_t bytes) {
    void *d = NULL;
    assert_int_equal(trnsciMalloc(&d, bytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(d, host, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    return d;
}

/* The ops daemon d ran ahead of their turn so far (trnscid_ops_run_ahead_total). */
static double run_ahead_ops(int port) {
    const double v = th_metrics_sample(port, "trnscid_ops_run_ahead_total");
    assert_true(v >= 0);
    return v;
}

/* Every worker's shards so far (trnscid_worker_shards_total). */
static double worker_shards(int port) {
    static char page[1 << 17];
    assert_int_equal(th_http_get(port, "/metrics", page, sizeof(page)), 200);
    double total = 0;
    const char *key = "\ntrnscid_worker_shards_total{";
    for (const char *p = strstr(page, key); p; p = strstr(p + 1, key)) {
        const char *v = strchr(p, ' ');
        if (v)
            total += strtod(v + 1, NULL);
    }
    return total;
}

/* C of p computed on daemon d in compute type ct (seed: stochastic
 * rounding's, 0 for none), downloaded into a fresh array. */
static void *run_on(int d, const gref_problem *p, trnblasComputeType_t ct,
                    unsigned long long seed) {
    assert_int_equal(trnsciInit(daemons[d].unix_addr), trnsciSuccess);
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    if (seed)
        assert_int_equal(trnblasSetStochasticRoundingSeed(h, seed), TRNBLAS_STATUS_SUCCESS);
    const size_t es = sizeof(float) * (size_t)p->comps;
    void *a = upload(p->a, p->a_len * es), *b = upload(p->b, p->b_len * es);
    void *c = upload(p->c0, p->c_len * es);
    const trnsciDataType_t t = p->comps == 2 ? TRNSCI_C_32F : TRNSCI_R_32F;
    const float alpha[2] = {(float)p->alpha[0], (float)p->alpha[1]};
    const float beta[2] = {(float)p->beta[0], (float)p->beta[1]};
    assert_int_equal(trnblasGemmEx(h, op_of(p->ta), op_of(p->tb), p->m, p->n, p->k, alpha, a, t,
                                   p->lda, b, t, p->ldb, beta, c, t, p->ldc, ct,
                                   TRNBLAS_GEMM_DEFAULT),
                     TRNBLAS_STATUS_SUCCESS);
    void *out = malloc(p->c_len * es);
    assert_non_null(out);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(out, c, p->c_len * es, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(trnsciFree(a), trnsciSuccess);
    assert_int_equal(trnsciFree(b), trnsciSuccess);
    assert_int_equal(trnsciFree(c), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
    return out;
}

static void test_modes(void **state) {
    (void)state;
    static const struct {
        trnblasComputeType_t ct;
        gref_mode mode;
        unsigned long long seed;
    } cases[] = {
        {TRNBLAS_COMPUTE_32F_FAST_16BF, GREF_FAST_16BF, 0},
        {TRNBLAS_COMPUTE_32F_FAST_TF32, GREF_FAST_TF32, 0},
        {TRNBLAS_COMPUTE_32F_FAST_16F, GREF_FAST_16F, 0},
        {TRNBLAS_COMPUTE_32F_BF16X3, GREF_BF16X3, 0},
        {TRNBLAS_COMPUTE_32F_EMULATED_16BFX9, GREF_BF16X9, 0},
        {TRNBLAS_COMPUTE_32F_FAST_16BF, GREF_FAST_16BF, 2024},
    };
    static const char tr[][2] = {{'N', 'N'}, {'T', 'N'}, {'N', 'T'}, {'C', 'T'}};
    for (size_t ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ci++)
        for (int comps = 1; comps <= 2; comps++) {
            const size_t t = (ci + (size_t)comps) % 4;
            const char ta = comps == 1 && tr[t][0] == 'C' ? 'T' : tr[t][0];
            /* Above the split threshold (two GEMM shards of >= 16e6 flops and
             * 128 columns each, ops/shard.h), not multiples of 128. */
            const int m = comps == 1 ? 301 : 157, n = 283, k = comps == 1 ? 297 : 151;
            gref_problem p;
            gref_init(&p, comps, 1, ta, tr[t][1], m, n, k, 1,
                      cases[ci].mode == GREF_FAST_16F ? GREF_FILL_HALFWIDE : GREF_FILL_CANCEL);
            const double before[2] = {worker_shards(metrics_port[AHEAD]),
                                      worker_shards(metrics_port[INLINE])};
            void *got[NDAEMONS];
            for (int d = 0; d < NDAEMONS; d++)
                got[d] = run_on(d, &p, cases[ci].ct, cases[ci].seed);
            const double ahead = worker_shards(metrics_port[AHEAD]) - before[0];
            const double inl = worker_shards(metrics_port[INLINE]) - before[1];
            if (!(ahead > inl))
                fail_msg("case %zu (%d comps): %g shards ahead, %g inline: no conversion stage", ci,
                         comps, ahead, inl);
            const size_t bytes = p.c_len * sizeof(float) * (size_t)p.comps;
            for (int d = 1; d < NDAEMONS; d++)
                if (memcmp(got[AHEAD], got[d], bytes) != 0)
                    fail_msg("case %zu (%d comps, %c%c): daemon %d differs from the "
                             "conversion ahead",
                             ci, comps, ta, tr[t][1], d);
            memcpy(p.c, got[AHEAD], bytes);
            (void)gref_check(&p, cases[ci].mode, cases[ci].seed != 0);
            for (int d = 0; d < NDAEMONS; d++)
                free(got[d]);
            gref_free(&p);
        }
}

/* X1 = A B, X2 = X1 B (reads X1), X3 = A B2 (does not: may run ahead of
 * X2's turn), X4 = X3 X2 (reads both), all FAST_16BF on one stream of
 * daemon d; X1 .. X4 downloaded into out (4 n^2 floats). */
enum { CN = 300 };
static void chain_on(int d, const float *a, const float *b, const float *b2, float *out) {
    assert_int_equal(trnsciInit(daemons[d].unix_addr), trnsciSuccess);
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    const size_t bytes = sizeof(float) * CN * CN;
    float *da = upload(a, bytes), *db = upload(b, bytes), *db2 = upload(b2, bytes), *x[4];
    for (int i = 0; i < 4; i++) {
        assert_int_equal(trnsciMalloc((void **)&x[i], bytes), trnsciSuccess);
        assert_int_equal(trnsciMemset(x[i], 0, bytes), trnsciSuccess);
    }
    const float one = 1.0f, zero = 0.0f;
    const float *lhs[4] = {da, x[0], da, x[2]}, *rhs[4] = {db, db, db2, x[1]};
    for (int i = 0; i < 4; i++)
        assert_int_equal(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, CN, CN, CN, &one, lhs[i],
                                       TRNSCI_R_32F, CN, rhs[i], TRNSCI_R_32F, CN, &zero, x[i],
                                       TRNSCI_R_32F, CN, TRNBLAS_COMPUTE_32F_FAST_16BF,
                                       TRNBLAS_GEMM_DEFAULT),
                         TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(
            trnsciMemcpy(out + (size_t)i * CN * CN, x[i], bytes, trnsciMemcpyDeviceToHost),
            trnsciSuccess);
        assert_int_equal(trnsciFree(x[i]), trnsciSuccess);
    }
    assert_int_equal(trnsciFree(da), trnsciSuccess);
    assert_int_equal(trnsciFree(db), trnsciSuccess);
    assert_int_equal(trnsciFree(db2), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

static void test_chain_on_one_stream(void **state) {
    (void)state;
    const size_t nn = (size_t)CN * CN;
    float *a = malloc(3 * nn * sizeof(float)), *got[NDAEMONS];
    assert_non_null(a);
    uint64_t r = 0x2545f4914f6cdd1dull;
    for (size_t i = 0; i < 3 * nn; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        a[i] = (float)((double)(r >> 11) * 0x1p-53 - 0.5);
    }
    const double before = run_ahead_ops(metrics_port[AHEAD]);
    for (int d = 0; d < NDAEMONS; d++) {
        got[d] = malloc(4 * nn * sizeof(float));
        assert_non_null(got[d]);
        chain_on(d, a, a + nn, a + 2 * nn, got[d]);
    }
    /* X2 and X4 read the C before them: only X3 may have converted ahead
     * (it does unless X2 was already done when X3 reached the queue). */
    const double ahead = run_ahead_ops(metrics_port[AHEAD]) - before;
    assert_true(ahead <= 1);
    print_message("chain: %g GEMM converted ahead of its turn\n", ahead);
    for (int d = 1; d < NDAEMONS; d++)
        if (memcmp(got[AHEAD], got[d], 4 * nn * sizeof(float)) != 0)
            fail_msg("the chain on daemon %d differs from the conversions ahead", d);
    /* X2 and X4 are not what zeros for their first operand would give. */
    for (int i = 1; i < 4; i += 2) {
        double s = 0;
        for (size_t e = 0; e < nn; e++)
            s += fabs(got[AHEAD][(size_t)i * nn + e]);
        assert_true(s > 1.0);
    }
    for (int d = 0; d < NDAEMONS; d++)
        free(got[d]);
    free(a);
}

int main(void) {
    char listen[NDAEMONS][64];
    for (int d = 0; d < NDAEMONS; d++) {
        metrics_port[d] = th_free_port();
        snprintf(listen[d], sizeof(listen[d]), "127.0.0.1:%d", metrics_port[d]);
    }
    const char *const ahead[] = {"--cores", "2", "--metrics-listen", listen[AHEAD], "--run-ahead",
                                 "on",      NULL};
    const char *const off[] = {"--cores",      "2", "--convert-ahead", "off", "--metrics-listen",
                               listen[INLINE], NULL};
    const char *const one[] = {"--cores", "1", "--metrics-listen", listen[ONE_CORE], NULL};
    const char *const *args[NDAEMONS] = {ahead, off, one};
    for (int d = 0; d < NDAEMONS; d++)
        if (th_daemon_start(&daemons[d], args[d]) != 0) {
            fprintf(stderr, "could not start trnscid %d\n", d);
            return 1;
        }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_modes),
        cmocka_unit_test(test_chain_on_one_stream),
    };
    int failed = cmocka_run_group_tests_name("GEMM conversions ahead", tests, NULL, NULL);
    for (int d = 0; d < NDAEMONS; d++)
        failed += th_daemon_stop_checked(&daemons[d], "trnscid");
    return failed ? 1 : 0;
}
