/*
 * test_residency.c — where big GEMMs' inputs were last moved
 * (daemon/residency.h): the core that holds the most of a GEMM's A and B
 * for its plan part, current by the write clock and the core's epoch; at
 * most TRN_RESIDENCY_SETS operands of a part per core; small GEMMs and
 * other ops not recorded. Addresses are fake: nothing is dereferenced.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "daemon/residency.h"
#include "ops/op.h"

#define MIB ((uintptr_t)1 << 20)

/* Y (1024 x 64) = A (1024 x 256, 1 MiB at a) B (256 x 64, 64 KiB at b). */
static trn_op_desc gemm(uintptr_t a, uintptr_t b) {
    trn_op_desc d;
    memset(&d, 0, sizeof(d));
    d.kind = TRN_OP_GEMM;
    trn_gemm_desc *g = &d.u.gemm;
    g->type = TRN_DTYPE_R32F;
    g->transa = g->transb = TRN_TRANS_N;
    g->m = 1024;
    g->n = 64;
    g->k = 256;
    g->a = (void *)a;
    g->lda = 1024;
    g->b = (void *)b;
    g->ldb = 256;
    g->c = (void *)(uintptr_t)(900 * MIB);
    g->ldc = 1024;
    return d;
}

typedef struct fixture {
    trn_write_clock *clock;
    unsigned epoch[2];
    trn_residency *r;
} fixture;

static unsigned epoch_of(void *ctx, int core) {
    return ((const fixture *)ctx)->epoch[core];
}

static int setup(void **state) {
    fixture *f = calloc(1, sizeof(*f));
    f->clock = calloc(1, trn_write_clock_bytes());
    f->r = trn_residency_create(2, f->clock, epoch_of, f);
    assert_non_null(f->r);
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fixture *f = *state;
    trn_residency_destroy(f->r);
    free(f->clock);
    free(f);
    return 0;
}

static void note(fixture *f, int core, const trn_op_desc *op, const void *plan) {
    trn_residency_note(f->r, core, op, plan, 0, trn_write_clock_now(f->clock),
                       trn_residency_epoch(f->r, core));
}

/* Rule: the core that holds A and B (current) is named, with the bytes it
 * holds beyond the asking core's; ties and nothing held name the asker. */
static void test_locate_where_inputs_are(void **state) {
    fixture *f = *state;
    const int plan = 0;
    const trn_op_desc op = gemm(100 * MIB, 200 * MIB);
    uint64_t extra = 1;
    assert_int_equal(trn_residency_locate(f->r, &op, &plan, 0, 0, &extra), 0);
    assert_int_equal(extra, 0);
    note(f, 1, &op, &plan);
    assert_int_equal(trn_residency_locate(f->r, &op, &plan, 0, 0, &extra), 1);
    assert_int_equal(extra, MIB + 64 * 1024);
    assert_int_equal(trn_residency_locate(f->r, &op, &plan, 0, 1, &extra), 1);
    assert_int_equal(extra, 0);
    /* Another program, or another part of it: not held there. */
    const int other = 0;
    assert_int_equal(trn_residency_locate(f->r, &op, &other, 0, 0, &extra), 0);
    assert_int_equal(extra, 0);
    assert_int_equal(trn_residency_locate(f->r, &op, &plan, 1, 0, &extra), 0);
    assert_int_equal(extra, 0);
    /* Both hold it: the asker. */
    note(f, 0, &op, &plan);
    assert_int_equal(trn_residency_locate(f->r, &op, &plan, 0, 0, &extra), 0);
    assert_int_equal(extra, 0);
}

/* Rule: a write to A after the move (the write clock) leaves only B held;
 * a restarted core (its epoch changed) holds nothing. */
static void test_written_or_restarted_not_held(void **state) {
    fixture *f = *state;
    const int plan = 0;
    const trn_op_desc op = gemm(100 * MIB, 200 * MIB);
    uint64_t extra = 0;
    note(f, 1, &op, &plan);
    trn_write_clock_wrote(f->clock, (const void *)(100 * MIB + 4096), 8);
    assert_int_equal(trn_residency_locate(f->r, &op, &plan, 0, 0, &extra), 1);
    assert_int_equal(extra, 64 * 1024);
    f->epoch[1]++;
    assert_int_equal(trn_residency_locate(f->r, &op, &plan, 0, 0, &extra), 0);
    assert_int_equal(extra, 0);
}

/* Rule: a program part keeps TRN_RESIDENCY_SETS (2) operands on a core, the
 * latest: a third GEMM of the part replaces the oldest. The same GEMM again
 * renews its record (its age) instead of taking another: op[0], op[1],
 * op[0] again, op[2] leaves op[0] and op[2]. */
static void test_two_per_part(void **state) {
    fixture *f = *state;
    const int plan = 0;
    trn_op_desc op[3];
    for (int i = 0; i < 3; i++)
        op[i] = gemm((uintptr_t)(100 + 10 * i) * MIB, (uintptr_t)(200 + 10 * i) * MIB);
    uint64_t extra;
    note(f, 1, &op[0], &plan);
    note(f, 1, &op[1], &plan);
    note(f, 1, &op[0], &plan); /* renewed: op[1] is now the oldest */
    note(f, 1, &op[2], &plan);
    assert_int_equal(trn_residency_locate(f->r, &op[0], &plan, 0, 0, &extra), 1);
    assert_int_equal(trn_residency_locate(f->r, &op[2], &plan, 0, 0, &extra), 1);
    assert_int_equal(trn_residency_locate(f->r, &op[1], &plan, 0, 0, &extra), 0);
}

/* Rule: GEMMs whose A and B are under 1 MiB, and ops other than GEMMs, are
 * not recorded: two of them noted after a big GEMM of the same part do not
 * push it out (two records would, by the rule above), and they are not
 * located. */
static void test_small_and_other_ops_ignored(void **state) {
    fixture *f = *state;
    const int plan = 0;
    const trn_op_desc big = gemm(100 * MIB, 200 * MIB);
    note(f, 1, &big, &plan);
    trn_op_desc small[2];
    for (int i = 0; i < 2; i++) {
        small[i] = gemm((uintptr_t)(300 + 10 * i) * MIB, (uintptr_t)(400 + 10 * i) * MIB);
        small[i].u.gemm.m = 512; /* A 512 KiB + B 64 KiB */
        small[i].u.gemm.lda = 512;
        note(f, 1, &small[i], &plan);
    }
    trn_op_desc ms;
    memset(&ms, 0, sizeof(ms));
    ms.kind = TRN_OP_MEMSET;
    ms.u.memset.dst = (void *)(500 * MIB);
    ms.u.memset.bytes = 8 * MIB;
    note(f, 1, &ms, &plan);
    uint64_t extra;
    assert_int_equal(trn_residency_locate(f->r, &big, &plan, 0, 0, &extra), 1);
    assert_int_equal(trn_residency_locate(f->r, &small[0], &plan, 0, 0, &extra), 0);
    assert_int_equal(trn_residency_locate(f->r, &ms, &plan, 0, 0, &extra), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_locate_where_inputs_are, setup, teardown),
        cmocka_unit_test_setup_teardown(test_written_or_restarted_not_held, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_per_part, setup, teardown),
        cmocka_unit_test_setup_teardown(test_small_and_other_ops_ignored, setup, teardown),
    };
    return cmocka_run_group_tests_name("residency", tests, NULL, NULL);
}
