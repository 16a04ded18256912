/*
 * test_block_pool.c — daemon/block_pool.h: blocks come back zeroed, but for
 * a hole left with trn_block_pool_leave_hole, which keeps what the last
 * user wrote there; a hole over the block's first word (the free list's
 * link) or past its end is refused; at most `keep` blocks are kept.
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

#include "daemon/block_pool.h"

enum { SIZE = 512, HOLE_OFF = 128, HOLE_LEN = 200 };

/* Whether bytes [from, to) of b are all v. */
static int all(const unsigned char *b, size_t from, size_t to, unsigned char v) {
    for (size_t i = from; i < to; i++)
        if (b[i] != v)
            return 0;
    return 1;
}

static void test_reused_block_zeroed(void **state) {
    (void)state;
    trn_block_pool p;
    trn_block_pool_init(&p, SIZE, 4);
    unsigned char *b = trn_block_pool_get(&p);
    assert_non_null(b);
    assert_true(all(b, 0, SIZE, 0));
    memset(b, 0xab, SIZE);
    trn_block_pool_put(&p, b);
    unsigned char *again = trn_block_pool_get(&p);
    assert_ptr_equal(again, b); /* reused */
    assert_true(all(again, 0, SIZE, 0));
    trn_block_pool_put(&p, again);
    trn_block_pool_destroy(&p);
}

static void test_hole_kept(void **state) {
    (void)state;
    trn_block_pool p;
    trn_block_pool_init(&p, SIZE, 4);
    trn_block_pool_leave_hole(&p, HOLE_OFF, HOLE_LEN);
    unsigned char *b = trn_block_pool_get(&p);
    assert_true(all(b, 0, SIZE, 0)); /* a new block is zeroed whole */
    memset(b, 0xcd, SIZE);
    trn_block_pool_put(&p, b);
    unsigned char *again = trn_block_pool_get(&p);
    assert_ptr_equal(again, b);
    assert_true(all(again, 0, HOLE_OFF, 0));
    assert_true(all(again, HOLE_OFF, HOLE_OFF + HOLE_LEN, 0xcd));
    assert_true(all(again, HOLE_OFF + HOLE_LEN, SIZE, 0));
    trn_block_pool_put(&p, again);
    trn_block_pool_destroy(&p);
}

static void test_bad_holes_refused(void **state) {
    (void)state;
    trn_block_pool p;
    trn_block_pool_init(&p, SIZE, 4);
    trn_block_pool_leave_hole(&p, 0, 64);           /* over the link */
    trn_block_pool_leave_hole(&p, SIZE - 8, 16);    /* past the end */
    trn_block_pool_leave_hole(&p, SIZE + 8, 0);     /* starts past the end */
    trn_block_pool_leave_hole(&p, 8, SIZE_MAX - 4); /* wraps */
    unsigned char *b = trn_block_pool_get(&p);
    memset(b, 0xef, SIZE);
    trn_block_pool_put(&p, b);
    b = trn_block_pool_get(&p);
    assert_true(all(b, 0, SIZE, 0));
    trn_block_pool_put(&p, b);
    trn_block_pool_destroy(&p);
}

static void test_keep_bound(void **state) {
    (void)state;
    trn_block_pool p;
    trn_block_pool_init(&p, SIZE, 2);
    void *b[3];
    for (int i = 0; i < 3; i++)
        b[i] = trn_block_pool_get(&p);
    for (int i = 0; i < 3; i++)
        trn_block_pool_put(&p, b[i]);
    assert_int_equal(p.count, 2);
    trn_block_pool_trim(&p);
    assert_int_equal(p.count, 0);
    trn_block_pool_destroy(&p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reused_block_zeroed),
        cmocka_unit_test(test_hole_kept),
        cmocka_unit_test(test_bad_holes_refused),
        cmocka_unit_test(test_keep_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
