/*
 * test_ptrtable.c — client/ptrtable.h, the client's device pointer →
 * (buffer id, offset) table.
 *
 * Rules checked (from ptrtable.h): an allocation covers the half-open range
 * [base, base + size):
 *  - lookup of base, of an interior pointer and of base + size - 1 resolves
 *    to the allocation with offset = p - base; base + size and base - 1 miss;
 *  - insert refuses size 0, a range that wraps the address space, and any
 *    range overlapping an existing one (touching ranges are fine);
 *  - remove succeeds only at the exact base, once;
 *  - take_all hands over every entry (sorted by base) and leaves the table
 *    empty but usable;
 *  - lookups stay correct while another thread inserts and removes.
 * Addresses are plain numbers; the table never dereferences them.
 */
#include <stdint.h>
#include <stdlib.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "client/ptrtable.h"

#define P(x) ((const void *)(uintptr_t)(x))

static void expect_hit(trn_ptrtable *t, uintptr_t p, uintptr_t base, uint64_t size, uint64_t id,
                       uint64_t offset) {
    trn_ptr_entry e = {0, 0, 0};
    uint64_t off = ~0ull;
    assert_int_equal(trn_ptrtable_lookup(t, P(p), &e, &off), 0);
    assert_int_equal(e.base, base);
    assert_int_equal(e.size, size);
    assert_int_equal(e.buffer_id, id);
    assert_int_equal(off, offset);
}

static void expect_miss(trn_ptrtable *t, uintptr_t p) {
    trn_ptr_entry e;
    uint64_t off;
    assert_int_equal(trn_ptrtable_lookup(t, P(p), &e, &off), -1);
}

/* Rule: [base, base+size) resolves with offset p - base; the bytes just
 * outside (base - 1 and base + size) do not. */
static void test_lookup_boundaries(void **state) {
    (void)state;
    trn_ptrtable t;
    trn_ptrtable_init(&t);
    expect_miss(&t, 0x10000); /* empty table */

    assert_int_equal(trn_ptrtable_insert(&t, 0x10000, 0x1000, 7), 0);
    expect_hit(&t, 0x10000, 0x10000, 0x1000, 7, 0);
    expect_hit(&t, 0x10800, 0x10000, 0x1000, 7, 0x800);
    expect_hit(&t, 0x10fff, 0x10000, 0x1000, 7, 0xfff);
    expect_miss(&t, 0x11000);
    expect_miss(&t, 0xffff);
    expect_miss(&t, 0);
    expect_miss(&t, UINTPTR_MAX);

    /* A one-byte allocation holds exactly one address. */
    assert_int_equal(trn_ptrtable_insert(&t, 0x20000, 1, 8), 0);
    expect_hit(&t, 0x20000, 0x20000, 1, 8, 0);
    expect_miss(&t, 0x20001);
    expect_miss(&t, 0x1ffff);

    /* A range high in the address space (the last byte before its end). */
    assert_int_equal(trn_ptrtable_insert(&t, UINTPTR_MAX - 0x1ff, 0x100, 9), 0);
    expect_hit(&t, UINTPTR_MAX - 0x100, UINTPTR_MAX - 0x1ff, 0x100, 9, 0xff);
    expect_miss(&t, UINTPTR_MAX - 0xff);
    expect_miss(&t, UINTPTR_MAX - 0x200);
    trn_ptrtable_destroy(&t);
}

/* Rule: a new range may not share a single byte with an existing one; size 0
 * and wrapping ranges are refused; touching ranges are accepted and each
 * address resolves to the one range that holds it. */
static void test_insert_overlap_rejected(void **state) {
    (void)state;
    trn_ptrtable t;
    trn_ptrtable_init(&t);
    assert_int_equal(trn_ptrtable_insert(&t, 0x10000, 0x1000, 1), 0);

    assert_int_equal(trn_ptrtable_insert(&t, 0x10000, 0x1000, 2), -1);         /* identical */
    assert_int_equal(trn_ptrtable_insert(&t, 0x10000, 1, 2), -1);              /* same base */
    assert_int_equal(trn_ptrtable_insert(&t, 0x10800, 0x10, 2), -1);           /* inside */
    assert_int_equal(trn_ptrtable_insert(&t, 0x10fff, 0x1000, 2), -1);         /* last byte */
    assert_int_equal(trn_ptrtable_insert(&t, 0xf001, 0x1000, 2), -1);          /* first byte */
    assert_int_equal(trn_ptrtable_insert(&t, 0xf000, 0x3000, 2), -1);          /* encloses */
    assert_int_equal(trn_ptrtable_insert(&t, 0x20000, 0, 2), -1);              /* size 0 */
    assert_int_equal(trn_ptrtable_insert(&t, UINTPTR_MAX - 0xf, 0x20, 2), -1); /* wraps */

    /* Ranges touching at either end are disjoint, so allowed. */
    assert_int_equal(trn_ptrtable_insert(&t, 0x11000, 0x1000, 3), 0);
    assert_int_equal(trn_ptrtable_insert(&t, 0xf000, 0x1000, 4), 0);
    expect_hit(&t, 0xffff, 0xf000, 0x1000, 4, 0xfff);
    expect_hit(&t, 0x10000, 0x10000, 0x1000, 1, 0);
    expect_hit(&t, 0x10fff, 0x10000, 0x1000, 1, 0xfff);
    expect_hit(&t, 0x11000, 0x11000, 0x1000, 3, 0);
    expect_miss(&t, 0x12000);

    /* A range filling the gap between two others exactly is allowed; one byte
     * longer overlaps the right neighbour. */
    assert_int_equal(trn_ptrtable_insert(&t, 0x13000, 0x1000, 5), 0);
    assert_int_equal(trn_ptrtable_insert(&t, 0x12000, 0x1001, 6), -1);
    assert_int_equal(trn_ptrtable_insert(&t, 0x12000, 0x1000, 6), 0);
    expect_hit(&t, 0x12fff, 0x12000, 0x1000, 6, 0xfff);
    expect_hit(&t, 0x13000, 0x13000, 0x1000, 5, 0);
    trn_ptrtable_destroy(&t);
}

/* Rule: remove takes out only the allocation starting exactly at base; any
 * other pointer (inside, one before, already removed) fails and changes
 * nothing. */
static void test_remove_exact_base_only(void **state) {
    (void)state;
    trn_ptrtable t;
    trn_ptrtable_init(&t);
    assert_int_equal(trn_ptrtable_insert(&t, 0x10000, 0x1000, 1), 0);
    assert_int_equal(trn_ptrtable_insert(&t, 0x20000, 0x1000, 2), 0);

    trn_ptr_entry e = {0, 0, 0};
    assert_int_equal(trn_ptrtable_remove(&t, 0x10001, &e), -1);
    assert_int_equal(trn_ptrtable_remove(&t, 0x10fff, &e), -1);
    assert_int_equal(trn_ptrtable_remove(&t, 0xffff, &e), -1);
    assert_int_equal(trn_ptrtable_remove(&t, 0x11000, &e), -1);
    expect_hit(&t, 0x10001, 0x10000, 0x1000, 1, 1);

    assert_int_equal(trn_ptrtable_remove(&t, 0x10000, &e), 0);
    assert_int_equal(e.base, 0x10000);
    assert_int_equal(e.size, 0x1000);
    assert_int_equal(e.buffer_id, 1);
    expect_miss(&t, 0x10000);
    expect_miss(&t, 0x10fff);
    assert_int_equal(trn_ptrtable_remove(&t, 0x10000, &e), -1);
    expect_hit(&t, 0x20010, 0x20000, 0x1000, 2, 0x10);

    /* The freed range can be reused, with a different size. */
    assert_int_equal(trn_ptrtable_insert(&t, 0x10000, 0x10, 3), 0);
    expect_hit(&t, 0x1000f, 0x10000, 0x10, 3, 0xf);
    expect_miss(&t, 0x10010);
    trn_ptrtable_destroy(&t);
}

enum { NRANGES = 1000 };

/* Range i: base 0x100000 + i * 0x1000, size 0x100 + i (a gap follows each). */
static uintptr_t range_base(size_t i) {
    return 0x100000 + (uintptr_t)i * 0x1000;
}
static uint64_t range_size(size_t i) {
    return 0x100 + i;
}

/* Rule: with many ranges inserted in a scrambled order, every range resolves
 * at its first and last byte, the gaps between ranges miss, and take_all
 * returns all of them sorted by base, leaving the table empty and usable. */
static void test_many_ranges_and_take_all(void **state) {
    (void)state;
    trn_ptrtable t;
    trn_ptrtable_init(&t);
    /* 7 is coprime with 1000, so i*7 mod 1000 visits every index once. */
    for (size_t k = 0; k < NRANGES; k++) {
        const size_t i = (k * 7) % NRANGES;
        assert_int_equal(trn_ptrtable_insert(&t, range_base(i), range_size(i), i + 1), 0);
    }
    for (size_t i = 0; i < NRANGES; i++) {
        expect_hit(&t, range_base(i), range_base(i), range_size(i), i + 1, 0);
        expect_hit(&t, range_base(i) + range_size(i) - 1, range_base(i), range_size(i), i + 1,
                   range_size(i) - 1);
        expect_miss(&t, range_base(i) + range_size(i));
        expect_miss(&t, range_base(i) - 1);
    }

    size_t n = 0;
    trn_ptr_entry *all = trn_ptrtable_take_all(&t, &n);
    assert_int_equal(n, NRANGES);
    assert_non_null(all);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(all[i].base, range_base(i));
        assert_int_equal(all[i].size, range_size(i));
        assert_int_equal(all[i].buffer_id, i + 1);
    }
    free(all);

    /* Empty afterwards, and usable. */
    expect_miss(&t, range_base(0));
    trn_ptr_entry e;
    assert_int_equal(trn_ptrtable_remove(&t, range_base(0), &e), -1);
    assert_int_equal(trn_ptrtable_insert(&t, range_base(0), 0x10, 99), 0);
    expect_hit(&t, range_base(0) + 4, range_base(0), 0x10, 99, 4);
    all = trn_ptrtable_take_all(&t, &n);
    assert_int_equal(n, 1);
    free(all);
    all = trn_ptrtable_take_all(&t, &n);
    assert_int_equal(n, 0);
    free(all);
    trn_ptrtable_destroy(&t);
}

/* ---- concurrent readers ------------------------------------------------------ */

typedef struct reader_arg {
    trn_ptrtable *t;
    int failures;
} reader_arg;

/* Stable ranges are the even indices; the writer churns the odd ones. */
static void *reader_main(void *p) {
    reader_arg *a = p;
    for (int round = 0; round < 200; round++) {
        for (size_t i = 0; i < 64; i += 2) {
            trn_ptr_entry e;
            uint64_t off;
            const uintptr_t q = range_base(i) + 5;
            if (trn_ptrtable_lookup(a->t, P(q), &e, &off) != 0 || e.buffer_id != i + 1 || off != 5)
                a->failures++;
        }
    }
    return NULL;
}

/* Rule: the table is thread-safe — lookups of allocations nobody touches
 * stay correct while another thread inserts and removes neighbours. */
static void test_concurrent_lookup(void **state) {
    (void)state;
    trn_ptrtable t;
    trn_ptrtable_init(&t);
    for (size_t i = 0; i < 64; i += 2)
        assert_int_equal(trn_ptrtable_insert(&t, range_base(i), range_size(i), i + 1), 0);
    enum { NREADERS = 3 };
    pthread_t th[NREADERS];
    reader_arg args[NREADERS];
    for (int r = 0; r < NREADERS; r++) {
        args[r] = (reader_arg){&t, 0};
        assert_int_equal(pthread_create(&th[r], NULL, reader_main, &args[r]), 0);
    }
    for (int round = 0; round < 200; round++) {
        for (size_t i = 1; i < 64; i += 2)
            assert_int_equal(trn_ptrtable_insert(&t, range_base(i), range_size(i), i + 1), 0);
        for (size_t i = 1; i < 64; i += 2) {
            trn_ptr_entry e;
            assert_int_equal(trn_ptrtable_remove(&t, range_base(i), &e), 0);
            assert_int_equal(e.buffer_id, i + 1);
        }
    }
    for (int r = 0; r < NREADERS; r++) {
        assert_int_equal(pthread_join(th[r], NULL), 0);
        assert_int_equal(args[r].failures, 0);
    }
    trn_ptrtable_destroy(&t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lookup_boundaries),
        cmocka_unit_test(test_insert_overlap_rejected),
        cmocka_unit_test(test_remove_exact_base_only),
        cmocka_unit_test(test_many_ranges_and_take_all),
        cmocka_unit_test(test_concurrent_lookup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
