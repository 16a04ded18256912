/*
 * test_op_table.c — ops/op_table.c's lookups: trn_op_desc_bytes covers a
 * kind's own descriptor exactly (the executors copy that many bytes of
 * each op into their request slot: too few would cut the op, checked
 * against the union member of every kind); every kind's row is found;
 * a value that is no kind gives the whole descriptor and no row.
 */
#include <stddef.h>
#include <stdint.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "ops/op.h"

static void test_desc_bytes_cover_each_member(void **state) {
    (void)state;
#define CHECK(kind, value, wire, stem, field, label, title, family, engine)                        \
    assert_int_equal(trn_op_desc_bytes(TRN_OP_##kind),                                             \
                     offsetof(trn_op_desc, u) + sizeof(((trn_op_desc *)0)->u.field));
    TRN_OP_KINDS(CHECK)
#undef CHECK
    for (int i = 0; i < TRN_OP_KIND_COUNT; i++) {
        const trn_op_info *info = trn_op_info_at(i);
        assert_non_null(info);
        assert_ptr_equal(trn_op_info_of((int)info->kind), info);
        const size_t n = trn_op_desc_bytes((int)info->kind);
        assert_true(n > offsetof(trn_op_desc, u));
        assert_true(n <= offsetof(trn_op_desc, kmsg));
    }
}

static void test_no_kind(void **state) {
    (void)state;
    assert_int_equal(trn_op_desc_bytes(0), sizeof(trn_op_desc));
    assert_int_equal(trn_op_desc_bytes(-5), sizeof(trn_op_desc));
    assert_null(trn_op_info_of(0));
    assert_int_equal(trn_op_index_of(0), -1);
    assert_null(trn_op_info_at(TRN_OP_KIND_COUNT));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_desc_bytes_cover_each_member),
        cmocka_unit_test(test_no_kind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
