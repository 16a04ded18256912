/*
 * test_span.c — ops/span.h: the memory spans the scheduler's run-ahead
 * compares.
 *
 * Checks: overlap of half-open spans (touching is not overlapping; empty
 * spans overlap nothing); a GEMM writes exactly its C (column-major, the
 * last column m elements, a strided batch's last matrix included); C given
 * as a list of pointers, or any other op, is not known (-1); a GEMM in a
 * precision mode whose conversion runs as a stage reads exactly op(A) and
 * op(B) (transposed shapes included); any other GEMM has no such stage; a
 * GEMM reads A, B and C; a permutation that only converts reads its A and
 * writes its D (strided spans), and is not described when a stride is
 * negative or it pads.
 */
#include <stdint.h>
#include <string.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "ops/convert_stage.h"
#include "ops/op.h"
#include "ops/span.h"

static void test_overlap(void **state) {
    (void)state;
    const trn_span a = {100, 200}, touch = {200, 300}, in = {150, 160}, empty = {150, 150};
    assert_true(trn_spans_overlap(&a, 1, &in, 1));
    assert_true(trn_spans_overlap(&in, 1, &a, 1));
    assert_false(trn_spans_overlap(&a, 1, &touch, 1));
    assert_false(trn_spans_overlap(&a, 1, &empty, 1));
    const trn_span two[2] = {{0, 10}, {199, 201}};
    assert_true(trn_spans_overlap(two, 2, &a, 1));
    assert_false(trn_spans_overlap(two, 1, &a, 1));
}

static trn_op_desc gemm(int m, int n, int k, trn_trans ta, trn_trans tb) {
    static float store[1 << 20];
    trn_op_desc d;
    memset(&d, 0, sizeof(d));
    d.kind = TRN_OP_GEMM;
    trn_gemm_desc *g = &d.u.gemm;
    g->type = TRN_DTYPE_R32F;
    g->m = m;
    g->n = n;
    g->k = k;
    g->transa = ta;
    g->transb = tb;
    g->alpha.re = 1.0;
    g->a = store;
    g->lda = (ta == TRN_TRANS_N ? m : k) + 3;
    g->b = store + 200000;
    g->ldb = (tb == TRN_TRANS_N ? k : n) + 5;
    g->c = store + 400000;
    g->ldc = m + 7;
    return d;
}

static void test_gemm_writes_c(void **state) {
    (void)state;
    trn_op_desc d = gemm(10, 20, 30, TRN_TRANS_N, TRN_TRANS_N);
    trn_span w[2];
    assert_int_equal(trn_op_write_spans(&d, w, 2), 1);
    const uintptr_t c = (uintptr_t)d.u.gemm.c;
    assert_true(w[0].lo == c);
    assert_true(w[0].hi == c + (size_t)(19 * 17 + 10) * sizeof(float));
    d.u.gemm.batch = 3;
    d.u.gemm.stride_c = 400;
    assert_int_equal(trn_op_write_spans(&d, w, 2), 1);
    assert_true(w[0].hi == c + (size_t)(2 * 400 + 19 * 17 + 10) * sizeof(float));
    void *list[1] = {NULL};
    d.u.gemm.c_list = list;
    assert_int_equal(trn_op_write_spans(&d, w, 2), -1);
    trn_op_desc other;
    memset(&other, 0, sizeof(other));
    other.kind = TRN_OP_BLAS1;
    assert_int_equal(trn_op_write_spans(&other, w, 2), -1);
}

/* A memset and a copy write their destination's bytes, nothing else. */
static void test_memset_and_copy_write_dst(void **state) {
    (void)state;
    static char mem[1000];
    trn_op_desc d;
    memset(&d, 0, sizeof(d));
    d.kind = TRN_OP_MEMSET;
    d.u.memset = (trn_memset_desc){.dst = mem + 10, .value = 7, .bytes = 100};
    trn_span w[1];
    assert_int_equal(trn_op_write_spans(&d, w, 1), 1);
    assert_true(w[0].lo == (uintptr_t)(mem + 10) && w[0].hi == (uintptr_t)(mem + 110));
    memset(&d, 0, sizeof(d));
    d.kind = TRN_OP_COPY;
    d.u.copy = (trn_copy_desc){.dst = mem + 500, .src = mem, .bytes = 300};
    assert_int_equal(trn_op_write_spans(&d, w, 1), 1);
    assert_true(w[0].lo == (uintptr_t)(mem + 500) && w[0].hi == (uintptr_t)(mem + 800));
    assert_int_equal(trn_op_write_spans(&d, w, 0), -1);
}

static void test_conversion_reads(void **state) {
    (void)state;
    /* Big enough for its GEMM to be split: a conversion stage of its own. */
    trn_op_desc d = gemm(512, 512, 128, TRN_TRANS_T, TRN_TRANS_N);
    trn_span r[2];
    assert_int_equal(trn_convert_stage_read_spans(&d, r, 2), -1); /* FP32: no pieces */
    d.u.gemm.compute = TRN_COMPUTE_32F_FAST_16BF;
    if (trn_convert_stage_bytes(&d) == 0)
        fail_msg("the test's GEMM has no conversion stage");
    assert_int_equal(trn_convert_stage_read_spans(&d, r, 2), 2);
    const trn_gemm_desc *g = &d.u.gemm;
    /* op(A) = A^T: A is k x m (128 x 512), lda = k + 3. */
    assert_true(r[0].lo == (uintptr_t)g->a);
    assert_true(r[0].hi == (uintptr_t)g->a + (size_t)(511 * 131 + 128) * sizeof(float));
    /* B is k x n, ldb = k + 5. */
    assert_true(r[1].lo == (uintptr_t)g->b);
    assert_true(r[1].hi == (uintptr_t)g->b + (size_t)(511 * 133 + 128) * sizeof(float));
    assert_int_equal(trn_convert_stage_read_spans(&d, r, 1), -1); /* no room */
}

static void test_gemm_reads(void **state) {
    (void)state;
    trn_op_desc d = gemm(10, 20, 30, TRN_TRANS_T, TRN_TRANS_N);
    trn_span r[3];
    assert_int_equal(trn_op_read_spans(&d, r, 3), 3);
    const trn_gemm_desc *g = &d.u.gemm;
    /* A^T: A is 30 x 10 (lda 33); B 30 x 20 (ldb 35); C 10 x 20 (ldc 17). */
    assert_true(r[0].hi - r[0].lo == (size_t)(9 * 33 + 30) * sizeof(float));
    assert_true(r[1].hi - r[1].lo == (size_t)(19 * 35 + 30) * sizeof(float));
    assert_true(r[2].lo == (uintptr_t)g->c);
    assert_true(r[2].hi - r[2].lo == (size_t)(19 * 17 + 10) * sizeof(float));
    assert_int_equal(trn_op_read_spans(&d, r, 2), -1); /* no room for C */
}

static void test_permutation(void **state) {
    (void)state;
    static double a[64];
    static float dst[64];
    trn_op_desc d;
    memset(&d, 0, sizeof(d));
    d.kind = TRN_OP_TENSOR_ELEMENTWISE;
    trn_tensor_ew_desc *e = &d.u.tensor_ew;
    e->type = TRN_DTYPE_R32F;
    e->type_a = TRN_DTYPE_R64F;
    e->op_a = 1; /* identity: a conversion of its own */
    e->nmodes = 2;
    e->extent[0] = 3;
    e->extent[1] = 4;
    e->stride_a[0] = 4; /* A is 4 x 3 transposed into D: 3 x 4 */
    e->stride_a[1] = 1;
    e->stride_d[0] = 1;
    e->stride_d[1] = 3;
    e->a = a;
    e->d = dst;
    assert_true(trn_convert_standalone(&d));
    trn_span s;
    assert_int_equal(trn_op_read_spans(&d, &s, 1), 1);
    assert_true(s.lo == (uintptr_t)a && s.hi == (uintptr_t)(a + 12));
    assert_int_equal(trn_op_write_spans(&d, &s, 1), 1);
    assert_true(s.lo == (uintptr_t)dst && s.hi == (uintptr_t)(dst + 12));
    e->stride_a[1] = -1; /* not described here */
    assert_int_equal(trn_op_read_spans(&d, &s, 1), -1);
    e->stride_a[1] = 1;
    e->padded = 1;
    assert_int_equal(trn_op_write_spans(&d, &s, 1), -1);
}

/* A 10 x 7 CSR or CSC matrix of 30 doubles. */
static trn_sp_mat compressed(trn_sp_format f, void *offsets, void *indices, void *values) {
    return (trn_sp_mat){.format = f,
                        .type = TRN_DTYPE_R64F,
                        .rows = 10,
                        .cols = 7,
                        .brows = 10,
                        .bcols = 7,
                        .nnz = 30,
                        .rb = 1,
                        .cb = 1,
                        .offsets = offsets,
                        .indices = indices,
                        .values = values,
                        .batch = 1};
}

/* A sparse conversion's arrays: CSR -> CSC reads the CSR's three and writes
 * the CSC's three; CSR -> BSR also reads the BSR block-row offsets and
 * writes its block columns and blocks; the others, and batches, are not
 * described. */
static void test_sparse_conversion(void **state) {
    (void)state;
    static int32_t rowptr[11], col[30], cscptr[8], rowind[30], bsrptr[6], bcol[12];
    static double val[30], cscval[30], bval[12 * 6];
    trn_op_desc d;
    memset(&d, 0, sizeof(d));
    d.kind = TRN_OP_SPCONVERT;
    trn_spconvert_desc *c = &d.u.spconvert;
    c->fn = TRN_SPC_CSR_TO_CSC;
    c->values = 1;
    c->src = compressed(TRN_SP_CSR, rowptr, col, val);
    c->dst = compressed(TRN_SP_CSC, cscptr, rowind, cscval);
    assert_true(trn_convert_standalone(&d));
    trn_span s[4];
    assert_int_equal(trn_op_read_spans(&d, s, 4), 3);
    assert_true(s[0].lo == (uintptr_t)rowptr && s[0].hi == (uintptr_t)(rowptr + 11));
    assert_true(s[1].lo == (uintptr_t)col && s[1].hi == (uintptr_t)(col + 30));
    assert_true(s[2].lo == (uintptr_t)val && s[2].hi == (uintptr_t)(val + 30));
    assert_int_equal(trn_op_write_spans(&d, s, 4), 3);
    assert_true(s[0].lo == (uintptr_t)cscptr && s[0].hi == (uintptr_t)(cscptr + 8));
    assert_true(s[1].lo == (uintptr_t)rowind && s[1].hi == (uintptr_t)(rowind + 30));
    assert_true(s[2].lo == (uintptr_t)cscval && s[2].hi == (uintptr_t)(cscval + 30));
    assert_int_equal(trn_op_write_spans(&d, s, 2), -1); /* no room */
    c->values = 0;                                      /* structure only: no value arrays */
    c->src.values = c->dst.values = NULL;
    assert_int_equal(trn_op_write_spans(&d, s, 4), 3);
    assert_true(s[2].lo == s[2].hi);
    /* CSR 10 x 7 -> BSR of 2 x 3 blocks: 5 x 3 block rows and columns, 12
     * blocks of 6 values. */
    c->fn = TRN_SPC_CSR_TO_BSR;
    c->src.values = val;
    c->dst = (trn_sp_mat){.format = TRN_SP_BSR,
                          .type = TRN_DTYPE_R64F,
                          .rows = 10,
                          .cols = 9,
                          .brows = 5,
                          .bcols = 3,
                          .nnz = 12,
                          .rb = 2,
                          .cb = 3,
                          .offsets = bsrptr,
                          .indices = bcol,
                          .values = bval,
                          .batch = 1};
    assert_int_equal(trn_op_read_spans(&d, s, 4), 4);
    assert_true(s[2].lo == (uintptr_t)val && s[2].hi == (uintptr_t)(val + 30));
    assert_true(s[3].lo == (uintptr_t)bsrptr && s[3].hi == (uintptr_t)(bsrptr + 6));
    assert_int_equal(trn_op_read_spans(&d, s, 3), -1); /* no room */
    assert_int_equal(trn_op_write_spans(&d, s, 4), 2);
    assert_true(s[0].lo == (uintptr_t)bcol && s[0].hi == (uintptr_t)(bcol + 12));
    assert_true(s[1].lo == (uintptr_t)bval && s[1].hi == (uintptr_t)(bval + 72));
    c->src.batch = 2; /* a batch: not described */
    assert_int_equal(trn_op_read_spans(&d, s, 4), -1);
    c->src.batch = 1;
    c->fn = TRN_SPC_BSR_TO_CSR; /* not described */
    assert_int_equal(trn_op_write_spans(&d, s, 4), -1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_overlap),
        cmocka_unit_test(test_gemm_writes_c),
        cmocka_unit_test(test_memset_and_copy_write_dst),
        cmocka_unit_test(test_conversion_reads),
        cmocka_unit_test(test_gemm_reads),
        cmocka_unit_test(test_permutation),
        cmocka_unit_test(test_sparse_conversion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
