/*
 * test_gemm_seq.c — which GEMMs run as one gemm_seq program, and where
 * each operand comes from (kernels/neuron/gemm_seq.h). Addresses are fake:
 * nothing is dereferenced.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "kernels/neuron/gemm_seq.h"

#define MIB ((uintptr_t)1 << 20)
/* Buffers 64 MiB apart. */
#define W1 ((uintptr_t)1 << 32)
#define W2 (W1 + 64 * MIB)
#define X (W1 + 128 * MIB)
#define T (W1 + 192 * MIB)
#define Y (W1 + 256 * MIB)

/* C (m x n, at c, ldc) = A (m x k at a, lda) B (k x n at b, ldb) + beta C:
 * SGEMM, no transposes, alpha 1. */
static trn_gemm_desc gemm(uintptr_t a, int lda, uintptr_t b, int ldb, uintptr_t c, int ldc, int m,
                          int n, int k, float beta) {
    trn_gemm_desc g;
    memset(&g, 0, sizeof(g));
    g.type = TRN_DTYPE_R32F;
    g.transa = g.transb = TRN_TRANS_N;
    g.m = m, g.n = n, g.k = k;
    g.alpha.re = 1;
    g.beta.re = beta;
    g.a = (const void *)a, g.lda = lda;
    g.b = (const void *)b, g.ldb = ldb;
    g.c = (void *)c, g.ldc = ldc;
    return g;
}

/* The sequence of d[0 .. n) on 2 cores splitting at 1024 MFLOP; its text. */
static int seq_of(const trn_gemm_desc *d, int n, trn_nprog_seq *s, char *text) {
    const trn_gemm_desc *p[TRN_NPROG_SEQ_MAX + 1];
    for (int i = 0; i < n; i++)
        p[i] = &d[i];
    const int ok = trn_ngemm_seq_of(p, n, 2, (uint64_t)1 << 30, s);
    if (ok)
        assert_true(trn_nprog_seq_format(s, text, TRN_NPROG_SEQ_PARAMS_LEN) > 0);
    return ok;
}

/* Rule: Y = W2 (W1 X) reads T from the first node's result; a third node
 * that adds to Y (beta 1) reads Y from the second's; one that multiplies
 * by T transposed reads its op(A) from the first's. */
static void test_results_feed_later_nodes(void **state) {
    (void)state;
    trn_gemm_desc d[4] = {
        gemm(W1, 1024, X, 256, T, 1024, 1024, 64, 256, 0),  /* T = W1 X */
        gemm(W2, 512, T, 1024, Y, 512, 512, 64, 1024, 0),   /* Y = W2 T */
        gemm(W2, 512, T, 1024, Y, 512, 512, 64, 1024, 1),   /* Y += W2 T */
        gemm(T, 1024, X, 1024, W2, 64, 64, 64, 1024, 0.5f), /* W2' = T^T X' + .5 W2 */
    };
    d[3].transa = TRN_TRANS_T;
    d[3].b = (const void *)(X + 32 * MIB); /* another X, not overlapping */
    trn_nprog_seq s;
    char text[TRN_NPROG_SEQ_PARAMS_LEN];
    assert_true(seq_of(d, 2, &s, text));
    assert_string_equal(text, "dtype=f32 mode=fp32 nodes=2 g0=1024x64x256x1:in,in,in "
                              "g1=512x64x1024x1:in,d0,in");
    assert_true(seq_of(d, 3, &s, text));
    assert_string_equal(text, "dtype=f32 mode=fp32 nodes=3 g0=1024x64x256x1:in,in,in "
                              "g1=512x64x1024x1:in,d0,in g2=512x64x1024x1:in,d0,d1");
    /* Node 3 reads W2 (its C, beta 0.5), which node 0 and 1 read but
     * nobody wrote: an input; its op(A) is T transposed. */
    assert_true(seq_of(d, 4, &s, text));
    assert_int_equal(s.src[3][0], 0);
    assert_int_equal(s.src[3][1], TRN_NPROG_SEQ_IN);
    assert_int_equal(s.src[3][2], TRN_NPROG_SEQ_IN);
}

/* Rule: of several earlier writers of an operand, the latest is its
 * source; a C that is not read (beta 0) is an input whatever overlaps it. */
static void test_latest_writer(void **state) {
    (void)state;
    trn_gemm_desc d[3] = {
        gemm(W1, 1024, X, 256, T, 1024, 1024, 64, 256, 0),
        gemm(W1, 1024, X + MIB, 256, T, 1024, 1024, 64, 256, 0), /* T again */
        gemm(W2, 512, T, 1024, T + 8, 512, 512, 64, 1024, 0),    /* C inside T, unread */
    };
    trn_nprog_seq s;
    char text[TRN_NPROG_SEQ_PARAMS_LEN];
    assert_true(seq_of(d, 3, &s, text));
    assert_int_equal(s.src[2][1], 1);
    assert_int_equal(s.src[2][2], TRN_NPROG_SEQ_IN);
    d[2].beta.re = 1; /* now read: part of T, not an earlier result exactly */
    assert_false(seq_of(d, 3, &s, text));
}

/* The ways a pair T = W1 X, Y = W2 T stops being a sequence. */
static const char *const BREAKS[] = {
    "B a column into T",
    "B with another leading dimension",
    "B transposed",
    "another mode",
    "alpha on the device",
    "FP64",
    "a node split over the cores (no alias)",
    "a pipelined batch (no alias)",
    "op(A) the conjugate transpose of a complex T",
    "another batch stride",
};

static void break_pair(trn_gemm_desc *e, int which) {
    switch (which) {
    case 0: e[1].b = (const void *)(T + 4096); break;
    case 1: e[1].ldb = 2048; break;
    case 2: e[1].transb = TRN_TRANS_T, e[1].ldb = 64; break;
    case 3: e[1].compute = TRN_COMPUTE_32F_BF16X3; break;
    case 4: e[1].alpha_ptr = (const void *)Y; break;
    case 5: e[0].type = TRN_DTYPE_R64F; break;
    case 6: /* 8192 x 1024 x 8192: 137 GFLOP, past 1024 MFLOP a part */
        e[0].m = e[0].k = e[0].lda = e[0].ldb = e[0].ldc = 8192;
        e[0].n = 1024;
        e[1].b = (const void *)X; /* no alias: only the split keeps them apart */
        break;
    case 7: /* 16 matrices of 128^3: 3 MiB of operands, 3 executions */
        e[0].batch = 16;
        e[0].stride_a = e[0].stride_b = e[0].stride_c = MIB;
        e[0].m = e[0].n = e[0].k = e[0].lda = e[0].ldb = e[0].ldc = 128;
        e[1].b = (const void *)(X + 32 * MIB); /* no alias: only the pipelining */
        break;
    case 8: /* Y = T^H X, complex: not d0 in the at layout (no conjugation) */
        e[0].type = e[1].type = TRN_DTYPE_C32F;
        e[1].a = (const void *)T, e[1].lda = 1024, e[1].transa = TRN_TRANS_C;
        e[1].m = 64, e[1].k = 1024, e[1].b = (const void *)X, e[1].ldb = 1024, e[1].ldc = 64;
        break;
    default: /* two batches of 2, node 1 reading T with another stride */
        e[0].batch = e[1].batch = 2;
        e[0].stride_a = e[0].stride_b = 1, e[0].stride_c = 1024 * 64;
        e[1].stride_a = 1, e[1].stride_c = 512 * 64;
        e[1].stride_b = 1024 * 64 + 1024;
        break;
    }
}

/* Rule: an operand that overlaps an earlier result but is not exactly it
 * keeps the nodes apart; so does any node that is not one execution of
 * one program of the sequence's dtype and mode; a sequence has 2 to 8
 * nodes. */
static void test_not_a_sequence(void **state) {
    (void)state;
    const trn_gemm_desc t = gemm(W1, 1024, X, 256, T, 1024, 1024, 64, 256, 0);
    const trn_gemm_desc y = gemm(W2, 512, T, 1024, Y, 512, 512, 64, 1024, 0);
    trn_gemm_desc d[TRN_NPROG_SEQ_MAX + 1];
    trn_nprog_seq s;
    char text[TRN_NPROG_SEQ_PARAMS_LEN];
    d[0] = t;
    d[1] = y;
    assert_true(seq_of(d, 2, &s, text));
    /* Without the break, the complex pair is a sequence: op(A) the
     * transpose (not the conjugate transpose) of T is d0. */
    d[0].type = d[1].type = TRN_DTYPE_C32F;
    d[1].a = (const void *)T, d[1].lda = 1024, d[1].transa = TRN_TRANS_T;
    d[1].m = 64, d[1].k = 1024, d[1].b = (const void *)X, d[1].ldb = 1024, d[1].ldc = 64;
    assert_true(seq_of(d, 2, &s, text));
    assert_int_equal(s.src[1][0], 0);
    for (int i = 0; i < (int)(sizeof(BREAKS) / sizeof(BREAKS[0])); i++) {
        d[0] = t;
        d[1] = y;
        break_pair(d, i);
        if (seq_of(d, 2, &s, text))
            fail_msg("%s: a sequence", BREAKS[i]);
    }
    d[0] = t;
    assert_false(seq_of(d, 1, &s, text));
    for (int i = 0; i <= TRN_NPROG_SEQ_MAX; i++)
        d[i] = gemm(W1, 1024, X, 256, T + (uintptr_t)i * MIB, 1024, 1024, 64, 256, 0);
    assert_true(seq_of(d, TRN_NPROG_SEQ_MAX, &s, text));
    assert_false(seq_of(d, TRN_NPROG_SEQ_MAX + 1, &s, text));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_results_feed_later_nodes),
        cmocka_unit_test(test_latest_writer),
        cmocka_unit_test(test_not_a_sequence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
