/*
 * test_op_scratch.c — the pool of ops' stage scratch (daemon/op_scratch.h),
 * on the heap and in an executors' shared space: sizes in whole 2 MiB
 * units, reuse of a block given back (the same address), no reuse of a
 * block more than twice the request, the lending cap, the keeping budget
 * and trim.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "daemon/exec_space.h"
#include "daemon/op_scratch.h"

#define MIB ((size_t)1 << 20)

static void reuse_and_limits(trn_exec_space *sp) {
    trn_op_scratch *p = trn_op_scratch_create(sp, 16 * MIB, 8 * MIB);
    assert_non_null(p);
    size_t len;
    void *a = trn_op_scratch_get(p, 5 * MIB, &len);
    assert_non_null(a);
    assert_int_equal(len, 6 * MIB);
    assert_int_equal((uintptr_t)a % 4096, 0);
    memset(a, 0x5a, len); /* writable, all of it */
    trn_op_scratch_put(p, a, len);
    /* Given back, kept, and handed out again for a request it fits. */
    size_t len2;
    void *b = trn_op_scratch_get(p, 3 * MIB, &len2);
    assert_ptr_equal(b, a);
    assert_int_equal(len2, 6 * MIB);
    trn_op_scratch_put(p, b, len2);
    /* Not for a request under half its size: a new 2 MiB block. */
    void *c = trn_op_scratch_get(p, 1, &len);
    assert_non_null(c);
    assert_ptr_not_equal(c, a);
    assert_int_equal(len, 2 * MIB);
    /* The cap: 16 MiB lent at most (2 MiB out now, 6 MiB kept). */
    size_t big_len;
    void *big = trn_op_scratch_get(p, 12 * MIB, &big_len);
    assert_non_null(big);
    assert_null(trn_op_scratch_get(p, 4 * MIB, &len));
    assert_null(trn_op_scratch_get(p, 0, &len));
    trn_op_scratch_put(p, big, big_len); /* over the 8 MiB budget: released */
    trn_op_scratch_put(p, c, 2 * MIB);
    void *again = trn_op_scratch_get(p, 14 * MIB, &len);
    assert_non_null(again);
    trn_op_scratch_put(p, again, len);
    trn_op_scratch_trim(p);
    trn_op_scratch_destroy(p);
}

static void on_the_heap(void **state) {
    (void)state;
    reuse_and_limits(NULL);
}

static void in_a_shared_space(void **state) {
    (void)state;
    char err[256];
    trn_exec_space *sp =
        trn_exec_space_create((uint64_t)1 << 30, (uint64_t)1 << 20, err, sizeof(err));
    assert_non_null(sp);
    reuse_and_limits(sp);
    trn_exec_space_destroy(sp);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(on_the_heap),
        cmocka_unit_test(in_a_shared_space),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
