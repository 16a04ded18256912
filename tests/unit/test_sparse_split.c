/*
 * test_sparse_split.c — the parts of trnsparse's sharding and failure
 * reporting that do not need a daemon:
 *  - trn_sp_row_split (kernels/cpu/sparse_common.c): for 1..8 shards the
 *    ranges are contiguous, in order, cover [0, nrows) exactly once, and
 *    each holds at most its share of entries plus one row's; with garbage
 *    offsets (decreasing, negative, INT64_MIN, beyond nnz) the ranges still
 *    cover every row once and stay inside [0, nrows];
 *  - trn_sched_shard_count for sparse ops: small ops run as one shard, big
 *    ones on every worker; BSR with op T, SpGEMM's count pass, Schwarz
 *    bounds, sparse-vector ops and SpSV analyses stay one shard; alpha = 0
 *    splits C's rows; SpSV/SpSM solves split C's columns;
 *  - trn_kmsg_post: the lowest rank wins whatever the order of posting, and
 *    bad_input travels with the winning message;
 *  - a kernel run directly (trn_cpu_spmm) as two shards over a matrix with
 *    bad indices in both halves: both shards fail, and the message names
 *    the first bad row.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "tests/common/checked_routines.h"

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/sparse_common.h"
#include "scheduler/sched.h"

static uint64_t rng = 12345;
static uint64_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Every row in exactly one range, ranges in order. */
static void expect_cover(const trn_sp_rows *s, int nshards) {
    int64_t expect_lo = 0;
    for (int k = 0; k < nshards; k++) {
        int64_t lo, hi;
        trn_sp_row_split(s, k, nshards, &lo, &hi);
        assert_true(lo >= 0 && hi <= s->nrows && lo <= hi);
        assert_int_equal(lo, expect_lo);
        expect_lo = hi;
    }
    assert_int_equal(expect_lo, s->nrows);
}

static void test_row_split_valid(void **state) {
    (void)state;
    const int64_t m = 1000;
    int64_t *off = malloc((m + 1) * sizeof(int64_t)), nnz = 0, maxrow = 0;
    off[0] = 1; /* base 1 */
    for (int64_t i = 0; i < m; i++) {
        const int64_t len = i % 97 == 0 ? 500 : (int64_t)(next() % 8); /* a few heavy rows */
        nnz += len;
        maxrow = len > maxrow ? len : maxrow;
        off[i + 1] = off[i] + len;
    }
    const trn_sp_rows s = {.off = off,
                           .nrows = m,
                           .nnz = nnz,
                           .base = 1,
                           .idx64 = 1,
                           .format = TRN_SP_CSR,
                           .mat = "A"};
    for (int n = 1; n <= 8; n++) {
        expect_cover(&s, n);
        /* Balanced: a shard's weight (entries + rows) is at most its share
         * plus one row's. */
        const int64_t total = nnz + m;
        for (int k = 0; k < n; k++) {
            int64_t lo, hi;
            trn_sp_row_split(&s, k, n, &lo, &hi);
            const int64_t w = (off[hi] - off[lo]) + (hi - lo);
            assert_true(w <= total / n + maxrow + 2);
        }
    }
    free(off);
}

static void test_row_split_garbage(void **state) {
    (void)state;
    const int64_t m = 300;
    int64_t *off = malloc((m + 1) * sizeof(int64_t));
    int32_t *off32 = malloc((m + 1) * sizeof(int32_t));
    for (int rep = 0; rep < 50; rep++) {
        for (int64_t i = 0; i <= m; i++) {
            const uint64_t r = next();
            off[i] = r % 5 == 0 ? INT64_MIN : r % 5 == 1 ? INT64_MAX : (int64_t)(r % 2000) - 100;
            off32[i] = (int32_t)r;
        }
        const trn_sp_rows s = {.off = off,
                               .nrows = m,
                               .nnz = 1000,
                               .base = rep % 2,
                               .idx64 = 1,
                               .format = TRN_SP_CSR,
                               .mat = "A"};
        const trn_sp_rows s32 = {.off = off32,
                                 .nrows = m,
                                 .nnz = 1000,
                                 .base = 1,
                                 .idx64 = 0,
                                 .format = TRN_SP_CSR,
                                 .mat = "A"};
        for (int n = 1; n <= 8; n++) {
            expect_cover(&s, n);
            expect_cover(&s32, n);
        }
    }
    free(off);
    free(off32);
}

/* A float CSR SpMV descriptor over m rows with k entries per row. */
static trn_op_desc spmv(int64_t m, int64_t k, double alpha) {
    trn_op_desc d = {.kind = TRN_OP_SPMV};
    d.u.spmm.alpha = alpha;
    d.u.spmm.op_a = TRN_TRANS_N;
    d.u.spmm.a = (trn_sp_mat){.format = TRN_SP_CSR,
                              .type = TRN_DTYPE_R32F,
                              .rows = m,
                              .cols = m,
                              .brows = m,
                              .bcols = m,
                              .nnz = m * k,
                              .rb = 1,
                              .cb = 1};
    d.u.spmm.b = (trn_dn_mat){.type = TRN_DTYPE_R32F, .rows = m, .cols = 1, .ld = m, .batch = 1};
    d.u.spmm.c = d.u.spmm.b;
    return d;
}

static void test_shard_counts(void **state) {
    (void)state;
    /* 2 nnz + 2 m flops: 1000 x 10 is far below a shard, 100000 x 10 is
     * 4.4 shards' worth. */
    trn_op_desc small = spmv(1000, 10, 1.0), big = spmv(100000, 10, 1.0);
    assert_int_equal(trn_sched_shard_count(&small, 2), 1);
    assert_int_equal(trn_sched_shard_count(&big, 1), 1);
    assert_int_equal(trn_sched_shard_count(&big, 2), 2);
    assert_int_equal(trn_sched_shard_count(&big, 4), 4);
    assert_int_equal(trn_sched_shard_count(&big, 16), 4);
    /* BSR with op T: one shard (BLAS widths), however big. */
    trn_op_desc bsr = big;
    bsr.kind = TRN_OP_SPMM;
    bsr.u.spmm.a.format = TRN_SP_BSR;
    bsr.u.spmm.op_a = TRN_TRANS_T;
    assert_int_equal(trn_sched_shard_count(&bsr, 4), 1);
    /* Scatter forms split C's columns: one column, one shard. */
    trn_op_desc coo = big;
    coo.u.spmm.a.format = TRN_SP_COO;
    assert_int_equal(trn_sched_shard_count(&coo, 4), 1);
    coo.u.spmm.c.cols = coo.u.spmm.b.cols = 3;
    assert_int_equal(trn_sched_shard_count(&coo, 4), 3);
    /* alpha = 0 only scales C: rows, by C's size. */
    trn_op_desc zero = spmv(1000000, 10, 0.0);
    assert_int_equal(trn_sched_shard_count(&zero, 2), 2);
    /* SpGEMM's count pass and Schwarz bounds are one shard. */
    trn_op_desc g = {.kind = TRN_OP_SPGEMM};
    g.u.spgemm.a = big.u.spmm.a;
    g.u.spgemm.b = big.u.spmm.a;
    assert_int_equal(trn_sched_shard_count(&g, 4), 1);
    g.u.spgemm.fill = 1;
    assert_int_equal(trn_sched_shard_count(&g, 4), 4);
    trn_op_desc sch = {.kind = TRN_OP_SCHWARZ};
    sch.u.schwarz.diag.rows = 100000000;
    assert_int_equal(trn_sched_shard_count(&sch, 4), 1);
    /* Sparse vectors are one shard; SpSV/SpSM split C's columns (one column,
     * or the analysis: one shard). */
    trn_op_desc v = {.kind = TRN_OP_SPVEC};
    v.u.spvec.fn = TRN_SPVEC_AXPBY;
    v.u.spvec.x.nnz = v.u.spvec.y.rows = 100000000;
    assert_int_equal(trn_sched_shard_count(&v, 4), 1);
    trn_op_desc sv = {.kind = TRN_OP_SPSV};
    sv.u.spsv.a = big.u.spmm.a;
    sv.u.spsv.c.rows = sv.u.spsv.a.rows;
    sv.u.spsv.c.cols = 1;
    assert_int_equal(trn_sched_shard_count(&sv, 4), 1);
    sv.u.spsv.c.cols = 3;
    assert_int_equal(trn_sched_shard_count(&sv, 4), 3);
    sv.u.spsv.c.cols = 64;
    assert_int_equal(trn_sched_shard_count(&sv, 4), 4);
    sv.u.spsv.analysis = 1;
    assert_int_equal(trn_sched_shard_count(&sv, 4), 1);
}

static void test_kmsg(void **state) {
    (void)state;
    trn_kmsg m;
    trn_kmsg_init(&m);
    assert_false(m.set);
    trn_kmsg_post(&m, 7, 1, "row %d", 7);
    trn_kmsg_post(&m, 9, 0, "row %d", 9);
    assert_string_equal(m.text, "row 7");
    trn_kmsg_post(&m, 3, 0, "row %d", 3);
    assert_string_equal(m.text, "row 3");
    assert_int_equal(m.bad_input, 0);
    trn_kmsg_post(&m, 3, 1, "again");
    assert_string_equal(m.text, "row 3");
    trn_kmsg_post(NULL, 0, 1, "nowhere"); /* a descriptor run outside a scheduler */
}

static void test_two_shards_first_row_wins(void **state) {
    (void)state;
    const int64_t m = 2000, k = 5, nnz = m * k;
    int32_t *off = malloc((m + 1) * 4), *col = malloc(nnz * 4);
    float *val = malloc(nnz * 4), *x = malloc(m * 4), *y = malloc(m * 4);
    for (int64_t i = 0; i <= m; i++)
        off[i] = (int32_t)(i * k);
    for (int64_t p = 0; p < nnz; p++) {
        col[p] = (int32_t)(next() % m);
        val[p] = 1.0f;
    }
    for (int64_t i = 0; i < m; i++)
        x[i] = 1.0f;
    col[1900 * k + 2] = (int32_t)m; /* in the second half */
    col[300 * k + 4] = -1;          /* in the first: the one to report */
    trn_op_desc d = spmv(m, k, 1.0);
    d.u.spmm.a.offsets = off;
    d.u.spmm.a.indices = col;
    d.u.spmm.a.values = val;
    d.u.spmm.b.values = x;
    d.u.spmm.c.values = y;
    trn_kmsg msg;
    trn_kmsg_init(&msg);
    /* Shard 1 first: order must not matter. */
    assert_int_equal(trn_cpu_spmm(&d.u.spmm, &msg, 1, 2), TRN_KSTATUS_FAILED);
    assert_int_equal(trn_cpu_spmm(&d.u.spmm, &msg, 0, 2), TRN_KSTATUS_FAILED);
    assert_true(msg.bad_input);
    assert_non_null(strstr(msg.text, "csrColInd[1504] = -1 is outside [0, 1999] (row 300)"));
    free(off);
    free(col);
    free(val);
    free(x);
    free(y);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_row_split_valid),
        cmocka_unit_test(test_row_split_garbage),
        cmocka_unit_test(test_shard_counts),
        cmocka_unit_test(test_kmsg),
        cmocka_unit_test(test_two_shards_first_row_wins),
    };
    return cmocka_run_group_tests_name("sparse_split", tests, trn_test_install_checked_routines,
                                       NULL);
}
