/*
 * test_nc_cost.c — what NeuronCore work is estimated to cost
 * (kernels/neuron/nc_cost.h): the move rate is nominal until the timed
 * writes add up to TRN_NC_RATE_MIN_BYTES, then the measured one; writes
 * under TRN_NC_TIMED_MIN_BYTES are not timed; a GEMM program's nominal
 * time is the sum, per execution, of a dispatch, its FLOPs at its mode's
 * rate and its bytes at the move rate, computed here from the published
 * per-chip figures the header names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "kernels/neuron/nc_cost.h"

static void test_move_rate(void **state) {
    (void)state;
    assert_true(trn_nc_move_bytes_per_ns(NULL) == TRN_NC_NOMINAL_MOVE_BYTES_PER_NS);
    trn_nc_traffic t;
    memset(&t, 0, sizeof(t));
    assert_true(trn_nc_move_bytes_per_ns(&t) == TRN_NC_NOMINAL_MOVE_BYTES_PER_NS);
    /* alpha and beta, however slow, are not timed */
    trn_nc_note_timed_write(&t, 8, 1000000);
    assert_int_equal(atomic_load(&t.timed_bytes), 0);
    assert_int_equal(atomic_load(&t.timed_ns), 0);
    /* 512 KiB timed: not enough to believe */
    trn_nc_note_timed_write(&t, 512u << 10, 26214400); /* 0.02 bytes/ns */
    assert_true(trn_nc_move_bytes_per_ns(&t) == TRN_NC_NOMINAL_MOVE_BYTES_PER_NS);
    trn_nc_note_timed_write(&t, 512u << 10, 26214400);
    assert_true(trn_nc_move_bytes_per_ns(&t) == 0.02);
    /* a faster move: the rate is the bytes over the time, summed */
    trn_nc_note_timed_write(&t, 1u << 20, 1u << 20);
    assert_true(trn_nc_move_bytes_per_ns(&t) == (double)(2u << 20) / (52428800.0 + 1048576.0));
    trn_nc_note_timed_write(NULL, 1u << 20, 1); /* not counted anywhere: no crash */
}

/* Per execution: dispatch + flop / rate + (at + b + c + d + scal) / move. */
static double expected(double m, double n, double k, double batch, double planes,
                       double flop_per_ns, double move) {
    const double flop = 2 * m * n * k * batch * (planes == 2 ? 4 : 1);
    const double bytes = 4 * batch * planes * (k * m + k * n + 2 * m * n) + 4 * 2 * planes;
    return TRN_NC_NOMINAL_DISPATCH_NS + flop / flop_per_ns + bytes / move;
}

static void assert_near(double got, double want) {
    if (!(got >= want * (1 - 1e-12) && got <= want * (1 + 1e-12)))
        fail_msg("estimate %.6f ns, expected %.6f", got, want);
}

static void test_gemm_estimate(void **state) {
    (void)state;
    /* trn1: 47.5 FP32 and 190 BF16 TFLOPS per chip, 2 cores */
    const double fp32 = 47.5e12 / 2 / 1e9, bf16 = 190e12 / 2 / 1e9;
    trn_nprog_gemm g = {
        .complex = 0, .mode = TRN_NPROG_FP32, .m = 1024, .n = 512, .k = 256, .batch = 1};
    assert_near(trn_nc_gemm_estimate_ns(&g, 1, "trn1", 16.0),
                expected(1024, 512, 256, 1, 1, fp32, 16.0));
    assert_near(trn_nc_gemm_estimate_ns(&g, 3, "trn1", 0.5),
                3 * expected(1024, 512, 256, 1, 1, fp32, 0.5));
    assert_near(trn_nc_gemm_estimate_ns(&g, 1, "no such", 16.0), /* trn1's rates */
                expected(1024, 512, 256, 1, 1, fp32, 16.0));
    g.mode = TRN_NPROG_BF16;
    assert_near(trn_nc_gemm_estimate_ns(&g, 1, "trn1", 16.0),
                expected(1024, 512, 256, 1, 1, bf16, 16.0));
    g.mode = TRN_NPROG_BF16X3; /* three BF16 products */
    assert_near(trn_nc_gemm_estimate_ns(&g, 1, "trn1", 16.0),
                expected(1024, 512, 256, 1, 1, bf16 / 3, 16.0));
    g.complex = 1;
    g.batch = 4;
    assert_near(trn_nc_gemm_estimate_ns(&g, 1, "trn1", 16.0),
                expected(1024, 512, 256, 4, 2, bf16 / 3, 16.0));
    /* trn2: 181 FP32 TFLOPS per chip, 8 cores */
    g.complex = 0;
    g.batch = 1;
    g.mode = TRN_NPROG_FP32;
    assert_near(trn_nc_gemm_estimate_ns(&g, 1, "trn2", 16.0),
                expected(1024, 512, 256, 1, 1, 181e12 / 8 / 1e9, 16.0));
    /* no rate given: the nominal one */
    assert_near(trn_nc_gemm_estimate_ns(&g, 0, "trn1", 0),
                expected(1024, 512, 256, 1, 1, fp32, TRN_NC_NOMINAL_MOVE_BYTES_PER_NS));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_move_rate),
        cmocka_unit_test(test_gemm_estimate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
