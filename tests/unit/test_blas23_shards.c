/*
 * test_blas23_shards.c — sharding of trnblas Level 2 (gemv, ger) and Level
 * 3 beyond GEMM: a
 * descriptor run as 2, 3 or 5 shards (each shard called in turn, in
 * forward or in reverse order) must give bitwise the result of the same
 * descriptor run as one shard, for every routine, both sides, both
 * triangles and the transposes, on outputs of several tiles (ops/op.h:
 * 512 columns, or rows for trsm, trmm, symm and hemm from the right). And
 * the sharding policy: trn_sched_shard_count splits Level 2 gemv and ger by
 * the bytes of A, Level 3 by cost, never into more shards than tiles, and
 * only ops above the size minimums; the other Level 2 ops are one shard.
 *
 * The CPU kernels are called directly (OpenBLAS at one thread, as in the
 * daemon's workers); operands are random and in ordinary heap memory.
 */
#include <cblas.h>
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
#include "scheduler/sched.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static double uniform(void) { /* [-1, 1) */
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (double)((rng * 2685821657736338717ULL) >> 11) * 0x1p-52 - 1.0;
}

/* A random buffer of n elements of type t (diagonally dominant when used as
 * a triangular matrix of order `order` with leading dimension ld, so that
 * solves stay finite). */
static void *rand_buf(trn_dtype t, size_t n, int order, int ld) {
    const int single = t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F;
    const int cx = t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F;
    void *p = malloc(n * trn_dtype_size(t));
    assert_non_null(p);
    for (size_t i = 0; i < n * (cx ? 2 : 1); i++) {
        double v = uniform();
        if (order > 0) {
            const size_t el = i / (cx ? 2 : 1), row = el % (size_t)ld, col = el / (size_t)ld;
            if (row == col && col < (size_t)order)
                v = v >= 0 ? v + 2 : v - 2; /* the diagonal */
            else
                v /= order;
        }
        if (single)
            ((float *)p)[i] = (float)v;
        else
            ((double *)p)[i] = v;
    }
    return p;
}

/* Runs d as nshards shards, forward (or in reverse when rev), on out
 * holding a copy of the output's initial contents out0. */
static void run(const trn_blas3_desc *d0, const void *out0, void *out, size_t out_bytes,
                int nshards, int rev) {
    trn_blas3_desc d = *d0;
    memcpy(out, out0, out_bytes);
    /* The output is C (B for trsm; trmm in place: both). */
    if (d.fn == TRN_BLAS3_TRSM) {
        d.b = out;
    } else {
        if (d.b == d.c)
            d.b = out;
        d.c = out;
    }
    for (int i = 0; i < nshards; i++)
        assert_int_equal(trn_cpu_blas3(&d, rev ? nshards - 1 - i : i, nshards), TRN_KSTATUS_OK);
}

/* Operands for d (shape fields set): A, B, C, x as the routine reads them;
 * checks sharded against unsharded. */
static void check_shards(trn_blas3_desc d, const char *what) {
    const trn_dtype t = d.type;
    const size_t es = trn_dtype_size(t);
    const int m = d.m, n = d.n, k = d.k;
    const int left = d.side == TRN_SIDE_LEFT;
    size_t a_el = 0, b_el = 0, c_el = (size_t)d.ldc * (size_t)n;
    int tri = 0;
    switch (d.fn) {
    case TRN_BLAS3_SYMM:
    case TRN_BLAS3_HEMM:
    case TRN_BLAS3_TRSM:
    case TRN_BLAS3_TRMM:
        a_el = (size_t)d.lda * (size_t)(left ? m : n);
        b_el = (size_t)d.ldb * (size_t)n;
        tri = d.fn == TRN_BLAS3_TRSM || d.fn == TRN_BLAS3_TRMM ? (left ? m : n) : 0;
        break;
    case TRN_BLAS3_SYRK:
    case TRN_BLAS3_HERK:
    case TRN_BLAS3_SYR2K:
    case TRN_BLAS3_HER2K:
    case TRN_BLAS3_SYRKX:
    case TRN_BLAS3_HERKX:
        a_el = b_el = (size_t)d.lda * (size_t)(d.transa == TRN_TRANS_N ? k : n);
        break;
    case TRN_BLAS3_GEAM:
        a_el = (size_t)d.lda * (size_t)(d.transa == TRN_TRANS_N ? n : m);
        b_el = (size_t)d.ldb * (size_t)(d.transb == TRN_TRANS_N ? n : m);
        break;
    case TRN_BLAS3_DGMM: a_el = (size_t)d.lda * (size_t)n; break;
    }
    void *a = rand_buf(t, a_el, tri, d.lda), *b = b_el ? rand_buf(t, b_el, 0, 1) : NULL;
    void *c = rand_buf(t, c_el ? c_el : 1, 0, 1);
    void *x = rand_buf(t, (size_t)(left ? m : n) * 2 + 1, 0, 1);
    d.a = a;
    d.b = b;
    d.c = d.fn == TRN_BLAS3_TRSM ? NULL : c;
    d.x = x;
    const int in_place = d.fn == TRN_BLAS3_TRMM && d.ldc == 0;
    if (in_place) {
        d.c = b;
        d.ldc = d.ldb;
        c_el = b_el;
    }
    const void *out0 = d.fn == TRN_BLAS3_TRSM || in_place ? b : c;
    const size_t bytes = (d.fn == TRN_BLAS3_TRSM ? b_el : c_el) * es;
    assert_true(trn_blas3_tiles(&d) >= 3);
    void *one = malloc(bytes), *got = malloc(bytes);
    assert_true(one && got);
    run(&d, out0, one, bytes, 1, 0);
    assert_true(memcmp(one, out0, bytes) != 0);                      /* it computed something */
    static const int counts[][2] = {{2, 0}, {3, 0}, {3, 1}, {5, 1}}; /* shards, reverse */
    for (int i = 0; i < 4; i++) {
        const int ns = counts[i][0], rev = counts[i][1];
        run(&d, out0, got, bytes, ns, rev);
        if (memcmp(got, one, bytes) != 0)
            fail_msg("%s (type %d): %d shards%s differ from one shard", what, (int)t, ns,
                     rev ? " (in reverse)" : "");
    }
    free(got);
    free(one);
    free(a);
    free(b);
    free(c);
    free(x);
}

static const trn_dtype types[] = {TRN_DTYPE_R32F, TRN_DTYPE_R64F, TRN_DTYPE_C32F, TRN_DTYPE_C64F};

/* Left: 1100 columns (3 tiles); right: 1100 rows. */
static void test_symm_trsm_trmm(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++) {
        const trn_dtype t = types[ti];
        const int cx = t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F;
        for (int side = 0; side < 2; side++) {
            const int left = side == 0;
            const int m = left ? 21 : 1100, n = left ? 1100 : 21, ka = left ? m : n;
            const trn_scalar alpha = {0.75, cx ? -0.5 : 0.0}, beta = {-1.25, cx ? 0.25 : 0.0};
            for (int fn = TRN_BLAS3_SYMM; fn <= TRN_BLAS3_HEMM; fn++) {
                if (fn == TRN_BLAS3_HEMM && !cx)
                    continue;
                const trn_blas3_desc d = {.fn = (trn_blas3_fn)fn,
                                          .type = t,
                                          .side = (trn_side)side,
                                          .uplo = (trn_uplo)(side ^ (ti & 1)),
                                          .m = m,
                                          .n = n,
                                          .alpha = alpha,
                                          .beta = beta,
                                          .lda = ka + 1,
                                          .ldb = m + 2,
                                          .ldc = m + 3};
                check_shards(d, fn == TRN_BLAS3_SYMM ? "symm" : "hemm");
            }
            for (int fn = TRN_BLAS3_TRSM; fn <= TRN_BLAS3_TRMM; fn++)
                for (int tr = 0; tr < 3; tr += cx ? 1 : 2) {
                    trn_blas3_desc d = {.fn = (trn_blas3_fn)fn,
                                        .type = t,
                                        .side = (trn_side)side,
                                        .uplo = (trn_uplo)(tr & 1),
                                        .transa = (trn_trans)(cx ? tr : tr / 2),
                                        .diag = (trn_diag)(side),
                                        .m = m,
                                        .n = n,
                                        .alpha = alpha,
                                        .lda = ka + 2,
                                        .ldb = m + 1,
                                        .ldc = m + 4};
                    check_shards(d, fn == TRN_BLAS3_TRSM ? "trsm" : "trmm");
                    if (fn == TRN_BLAS3_TRMM) {
                        d.ldc = 0; /* in place: C is B */
                        check_shards(d, "trmm in place");
                    }
                }
        }
    }
}

/* C of order 1100 (3 tiles of unequal work), k = 5; S and Z (a real and a
 * complex type, single and double: C is large, and the tiles do not depend
 * on the type). */
static void test_rank_k(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti += 3) {
        const trn_dtype t = types[ti];
        const int cx = t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F;
        for (int fn = TRN_BLAS3_SYRK; fn <= TRN_BLAS3_HERKX; fn++) {
            if (fn > TRN_BLAS3_HER2K && fn < TRN_BLAS3_SYRKX)
                continue;
            const int herm = fn == TRN_BLAS3_HERK || fn == TRN_BLAS3_HER2K || fn == TRN_BLAS3_HERKX;
            if (herm && !cx)
                continue;
            for (int u = 0; u < 2; u++) {
                const int tn = u == 0;
                const trn_blas3_desc d = {.fn = (trn_blas3_fn)fn,
                                          .type = t,
                                          .uplo = (trn_uplo)u,
                                          .transa = tn     ? TRN_TRANS_N
                                                    : herm ? TRN_TRANS_C
                                                           : TRN_TRANS_T,
                                          .m = 1100,
                                          .n = 1100,
                                          .k = 5,
                                          .alpha = {0.5, fn == TRN_BLAS3_HERK || !cx ? 0.0 : 0.25},
                                          .beta = {1.5, herm || !cx ? 0.0 : -0.5},
                                          .lda = tn ? 1101 : 6,
                                          .ldb = tn ? 1101 : 6,
                                          .ldc = 1102};
                check_shards(d, "rank-k");
            }
        }
    }
}

/* geam and dgmm over 1100 columns. */
static void test_geam_dgmm(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++) {
        const trn_dtype t = types[ti];
        const int cx = t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F;
        for (int tr = 0; tr < 3; tr++) {
            const int an = tr == 0, bn = tr != 1;
            const trn_blas3_desc d = {.fn = TRN_BLAS3_GEAM,
                                      .type = t,
                                      .transa = (trn_trans)(cx ? tr : tr != 0),
                                      .transb = bn ? TRN_TRANS_N : TRN_TRANS_T,
                                      .m = 37,
                                      .n = 1100,
                                      .alpha = {1.5, cx ? 0.5 : 0.0},
                                      .beta = {-0.5, 0.0},
                                      .lda = an ? 38 : 1100,
                                      .ldb = bn ? 39 : 1101,
                                      .ldc = 40};
            check_shards(d, "geam");
        }
        for (int side = 0; side < 2; side++) {
            const trn_blas3_desc d = {.fn = TRN_BLAS3_DGMM,
                                      .type = t,
                                      .side = (trn_side)side,
                                      .m = 33,
                                      .n = 1100,
                                      .lda = 34,
                                      .ldc = 35,
                                      .incx = side ? 2 : -1};
            check_shards(d, "dgmm");
        }
    }
}

/* Level 2: gemv (no transpose: tiles of rows of A and y; with one:
 * columns of A) and ger (columns of A), at increments of either sign, on
 * 1100 elements of y (3 tiles); alpha = 0 with beta != 1 (only y = beta y)
 * too. Shards run in reverse order. */
static void test_gemv_ger(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++) {
        const trn_dtype t = types[ti];
        const int cx = t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F;
        const size_t es = trn_dtype_size(t);
        for (int c = 0; c < 5; c++) {
            const trn_trans tr = c == 0 || c == 3 ? TRN_TRANS_N
                                 : c == 2 && cx   ? TRN_TRANS_C
                                                  : TRN_TRANS_T;
            const int ger = c == 4, rows = ger || tr != TRN_TRANS_N ? 37 : 1100;
            trn_blas2_desc d = {.fn = ger ? (cx ? TRN_BLAS2_GERC : TRN_BLAS2_GER) : TRN_BLAS2_GEMV,
                                .type = t,
                                .trans = tr,
                                .m = rows,
                                .n = rows == 37 ? 1100 : 41,
                                .alpha = {c == 3 ? 0.0 : 0.75, 0.0},
                                .beta = {-0.5, cx ? 0.25 : 0.0},
                                .lda = rows + 3,
                                .incx = c % 2 ? -2 : 1,
                                .incy = c % 2 ? 1 : -3};
            const int xl = ger || tr != TRN_TRANS_N ? d.m : d.n;
            const int yl = ger || tr != TRN_TRANS_N ? d.n : d.m;
            const size_t a_el = (size_t)d.lda * (size_t)d.n;
            const size_t y_el = (size_t)abs(d.incy) * (size_t)(yl - 1) + 1;
            void *a = rand_buf(t, a_el, 0, 1), *x = rand_buf(t, (size_t)abs(d.incx) * xl, 0, 1);
            void *y = rand_buf(t, y_el, 0, 1);
            d.a = c == 3 ? NULL : a; /* alpha = 0: A and x not given */
            d.x = c == 3 ? NULL : x;
            d.y = y;
            assert_int_equal(trn_blas2_tiles(&d), 3);
            /* The output: y (gemv) or A (ger). */
            const void *out0 = ger ? a : y;
            const size_t bytes = (ger ? a_el : y_el) * es;
            void *one = malloc(bytes), *got = malloc(bytes);
            assert_true(one && got);
            for (int ns = 1; ns <= 5; ns += 2) {
                void *res = ns == 1 ? one : got;
                memcpy(res, out0, bytes);
                trn_blas2_desc r = d;
                if (ger)
                    r.a = res;
                else
                    r.y = res;
                for (int s = 0; s < ns; s++)
                    assert_int_equal(trn_cpu_blas2(&r, ns - 1 - s, ns), TRN_KSTATUS_OK);
                if (ns == 1)
                    assert_true(memcmp(one, out0, bytes) != 0);
                else if (memcmp(got, one, bytes) != 0)
                    fail_msg("blas2 case %d (type %d): %d shards differ from one", c, (int)t, ns);
            }
            free(one);
            free(got);
            free(a);
            free(x);
            free(y);
        }
    }
}

/* The policy: gemv and ger by the bytes of A, other Level 2 ops one shard;
 * Level 3 by cost; never more shards than tiles. */
static void test_shard_count(void **state) {
    (void)state;
    trn_op_desc op = {.kind = TRN_OP_BLAS2};
    /* D gemv 8192 x 8192: 512 MiB of A, 16 tiles of 512 rows. */
    op.u.blas2 =
        (trn_blas2_desc){.fn = TRN_BLAS2_GEMV, .type = TRN_DTYPE_R64F, .m = 8192, .n = 8192};
    assert_int_equal(trn_blas2_tiles(&op.u.blas2), 16);
    assert_int_equal(trn_sched_shard_count(&op, 8), 8);
    op.u.blas2.m = op.u.blas2.n = 4096; /* 128 MiB: two shards' worth */
    assert_int_equal(trn_sched_shard_count(&op, 8), 2);
    op.u.blas2.n = 4095; /* just under */
    assert_int_equal(trn_sched_shard_count(&op, 8), 1);
    op.u.blas2 = (trn_blas2_desc){
        .fn = TRN_BLAS2_GEMV, .type = TRN_DTYPE_R64F, .trans = TRN_TRANS_T, .m = 600000, .n = 100};
    assert_int_equal(trn_sched_shard_count(&op, 8), 1); /* y has 100 elements: one tile */
    op.u.blas2 =
        (trn_blas2_desc){.fn = TRN_BLAS2_SYMV, .type = TRN_DTYPE_R64F, .m = 8192, .n = 8192};
    assert_int_equal(trn_blas2_tiles(&op.u.blas2), 1);
    assert_int_equal(trn_sched_shard_count(&op, 8), 1);
    /* dtrsm from the left, m = 200, n = 1100: 44 MFLOP, 3 tiles. */
    op.kind = TRN_OP_BLAS3;
    op.u.blas3 = (trn_blas3_desc){
        .fn = TRN_BLAS3_TRSM, .type = TRN_DTYPE_R64F, .m = 200, .n = 1100, .a = &op};
    assert_int_equal(trn_blas3_tiles(&op.u.blas3), 3);
    assert_int_equal(trn_sched_shard_count(&op, 1), 1);
    assert_int_equal(trn_sched_shard_count(&op, 2), 2);
    assert_int_equal(trn_sched_shard_count(&op, 8), 2); /* 44 / 16 MFLOP */
    op.u.blas3.m = 2000;                                /* 4.4 GFLOP: the 3 tiles bound it */
    assert_int_equal(trn_sched_shard_count(&op, 8), 3);
    op.u.blas3.side = TRN_SIDE_RIGHT; /* row tiles: 2000 rows, 4 tiles of 512 */
    assert_int_equal(trn_blas3_tiles(&op.u.blas3), 4);
    /* Small: one tile, one shard whatever the cost. */
    op.u.blas3 = (trn_blas3_desc){
        .fn = TRN_BLAS3_SYMM, .type = TRN_DTYPE_C64F, .m = 500, .n = 500, .a = &op};
    assert_int_equal(trn_sched_shard_count(&op, 8), 1);
    /* Without A (alpha = 0) only C is scaled: counted as m n. */
    op.u.blas3 =
        (trn_blas3_desc){.fn = TRN_BLAS3_TRMM, .type = TRN_DTYPE_R64F, .m = 4000, .n = 4000};
    assert_int_equal(trn_sched_shard_count(&op, 8), 1);
    /* geam: by bytes touched (3 x 2 MiB per shard), 8 tiles of 512. */
    op.u.blas3 =
        (trn_blas3_desc){.fn = TRN_BLAS3_GEAM, .type = TRN_DTYPE_R64F, .m = 4096, .n = 4096};
    assert_int_equal(trn_blas3_tiles(&op.u.blas3), 8);
    assert_int_equal(trn_sched_shard_count(&op, 8), 8);
    op.u.blas3.m = 16; /* 1.5 MiB */
    assert_int_equal(trn_sched_shard_count(&op, 8), 1);
    /* Tile widths: at least 512, at most 16 tiles. */
    assert_int_equal(trn_blas3_tile_width(100), 512);
    assert_int_equal(trn_blas3_tile_width(8192), 512);
    assert_int_equal(trn_blas3_tile_width(8193), 576);
    assert_int_equal(trn_blas3_tile_width(100000), 6272);
}

int main(void) {
    openblas_set_num_threads(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_symm_trsm_trmm), cmocka_unit_test(test_rank_k),
        cmocka_unit_test(test_geam_dgmm),      cmocka_unit_test(test_gemv_ger),
        cmocka_unit_test(test_shard_count),
    };
    return cmocka_run_group_tests(tests, trn_test_install_checked_routines, NULL);
}
