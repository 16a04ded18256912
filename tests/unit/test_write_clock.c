/*
 * test_write_clock.c — the write clock (ops/write_clock.h): a copy taken at
 * a tick stays current until a write touches a page of its memory (exactly
 * the pages written: not the neighbours' unless they share a slot), a write
 * of unknown extent or memory the client maps; after_op stamps an op's
 * known writes, or everything.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ops/op.h"
#include "ops/write_clock.h"

#define PAGE 4096u

static trn_write_clock *clock_new(void) {
    trn_write_clock *wc = calloc(1, trn_write_clock_bytes());
    assert_non_null(wc);
    return wc;
}

/* Fake addresses, page-aligned: nothing is dereferenced. */
static const void *at(uintptr_t page, uintptr_t byte) {
    return (const void *)(page * PAGE + byte);
}

static void test_copy_current_until_written(void **state) {
    (void)state;
    trn_write_clock *wc = clock_new();
    const uint64_t t0 = trn_write_clock_now(wc);
    assert_true(trn_write_clock_unchanged(wc, at(100, 0), 3 * PAGE, t0));
    /* A write to the page after the copy's: still current. */
    trn_write_clock_wrote(wc, at(103, 0), 10);
    assert_true(trn_write_clock_unchanged(wc, at(100, 0), 3 * PAGE, t0));
    /* Its last byte's page. */
    trn_write_clock_wrote(wc, at(102, PAGE - 1), 1);
    assert_false(trn_write_clock_unchanged(wc, at(100, 0), 3 * PAGE, t0));
    /* A copy taken after that write is current. */
    const uint64_t t1 = trn_write_clock_now(wc);
    assert_true(t1 > t0);
    assert_true(trn_write_clock_unchanged(wc, at(100, 0), 3 * PAGE, t1));
    /* Zero bytes write nothing and change nothing. */
    trn_write_clock_wrote(wc, at(100, 0), 0);
    assert_true(trn_write_clock_unchanged(wc, at(100, 0), 3 * PAGE, t1));
    /* A write spanning the copy. */
    trn_write_clock_wrote(wc, at(99, 5), 5 * PAGE);
    assert_false(trn_write_clock_unchanged(wc, at(101, 0), 1, t1));
    free(wc);
}

static void test_shared_slots_and_everything(void **state) {
    (void)state;
    trn_write_clock *wc = clock_new();
    uint64_t t = trn_write_clock_now(wc);
    /* Regression: memory 2^40 bytes away (2^28 pages: how ASan's allocator
     * lays out its size classes) or 2^32 (2^20 pages) does not share a
     * slot for that alone: a page's slot has its higher bits folded in. */
    trn_write_clock_wrote(wc, at(7 + ((uintptr_t)1 << 28), 0), 1);
    trn_write_clock_wrote(wc, at(7 + ((uintptr_t)1 << 20), 0), 1);
    assert_true(trn_write_clock_unchanged(wc, at(7, 0), PAGE, t));
    /* A page that does share the slot (page 6 + 2^20: 6 with 1 folded in is
     * 7): the copy looks changed (never the other way round). */
    trn_write_clock_wrote(wc, at(6 + TRN_WRITE_CLOCK_SLOTS, 0), 1);
    assert_false(trn_write_clock_unchanged(wc, at(7, 0), PAGE, t));
    assert_true(trn_write_clock_unchanged(wc, at(8, 0), PAGE, t));
    /* Unknown writes: everything is out of date. */
    t = trn_write_clock_now(wc);
    trn_write_clock_wrote_all(wc);
    assert_false(trn_write_clock_unchanged(wc, at(8, 0), PAGE, t));
    assert_false(trn_write_clock_unchanged(wc, at(8, 0), 0, t));
    /* A write of more pages than slots is everything too. */
    t = trn_write_clock_now(wc);
    trn_write_clock_wrote(wc, at(1, 0), ((size_t)TRN_WRITE_CLOCK_SLOTS + 1) * PAGE);
    assert_false(trn_write_clock_unchanged(wc, at(1u << 30, 0), PAGE, t));
    /* And memory checked over more pages than slots reads every slot. */
    t = trn_write_clock_now(wc);
    assert_true(
        trn_write_clock_unchanged(wc, at(0, 0), ((size_t)TRN_WRITE_CLOCK_SLOTS + 9) * PAGE, t));
    trn_write_clock_wrote(wc, at(5, 0), 1);
    assert_false(
        trn_write_clock_unchanged(wc, at(0, 0), ((size_t)TRN_WRITE_CLOCK_SLOTS + 9) * PAGE, t));
    free(wc);
}

static void test_client_mapped_never_current(void **state) {
    (void)state;
    trn_write_clock *wc = clock_new();
    trn_write_clock_share(wc, at(50, 0), 2 * PAGE, +1);
    const uint64_t t = trn_write_clock_now(wc);
    assert_false(trn_write_clock_unchanged(wc, at(51, 8), 4, t));
    assert_true(trn_write_clock_unchanged(wc, at(52, 0), PAGE, t));
    /* Two marks on one page: current again only when both are gone. */
    trn_write_clock_share(wc, at(51, 0), PAGE, +1);
    trn_write_clock_share(wc, at(50, 0), 2 * PAGE, -1);
    assert_true(trn_write_clock_unchanged(wc, at(50, 0), PAGE, t));
    assert_false(trn_write_clock_unchanged(wc, at(51, 0), PAGE, t));
    trn_write_clock_share(wc, at(51, 0), PAGE, -1);
    assert_true(trn_write_clock_unchanged(wc, at(50, 0), 2 * PAGE, t));
    /* A mark over more pages than slots covers everything. */
    trn_write_clock_share(wc, at(0, 0), ((size_t)TRN_WRITE_CLOCK_SLOTS + 1) * PAGE, +1);
    assert_false(trn_write_clock_unchanged(wc, at(3, 0), 1, t));
    trn_write_clock_share(wc, at(0, 0), ((size_t)TRN_WRITE_CLOCK_SLOTS + 1) * PAGE, -1);
    assert_true(trn_write_clock_unchanged(wc, at(3, 0), 1, t));
    free(wc);
}

static void test_after_op(void **state) {
    (void)state;
    trn_write_clock *wc = clock_new();
    trn_op_desc d;
    memset(&d, 0, sizeof(d));
    d.kind = TRN_OP_MEMSET;
    d.u.memset = (trn_memset_desc){.dst = (void *)at(20, 0), .value = 0, .bytes = PAGE};
    uint64_t t = trn_write_clock_now(wc);
    trn_write_clock_after_op(wc, &d);
    assert_false(trn_write_clock_unchanged(wc, at(20, 0), 1, t));
    assert_true(trn_write_clock_unchanged(wc, at(21, 0), 1, t));
    /* A GEMM: its C, whatever happened to its A. */
    memset(&d, 0, sizeof(d));
    d.kind = TRN_OP_GEMM;
    d.u.gemm.type = TRN_DTYPE_R32F;
    d.u.gemm.m = d.u.gemm.n = d.u.gemm.k = 32;
    d.u.gemm.lda = d.u.gemm.ldb = d.u.gemm.ldc = 32;
    d.u.gemm.a = (void *)at(30, 0);
    d.u.gemm.b = (void *)at(31, 0);
    d.u.gemm.c = (void *)at(40, 0);
    t = trn_write_clock_now(wc);
    trn_write_clock_after_op(wc, &d);
    assert_true(trn_write_clock_unchanged(wc, at(30, 0), 2 * PAGE, t));
    assert_false(trn_write_clock_unchanged(wc, at(40, 0), 1, t));
    /* An op whose writes are not known: everything. */
    memset(&d, 0, sizeof(d));
    d.kind = TRN_OP_BLAS1;
    t = trn_write_clock_now(wc);
    trn_write_clock_after_op(wc, &d);
    assert_false(trn_write_clock_unchanged(wc, at(30, 0), 1, t));
    free(wc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copy_current_until_written),
        cmocka_unit_test(test_shared_slots_and_everything),
        cmocka_unit_test(test_client_mapped_never_current),
        cmocka_unit_test(test_after_op),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
