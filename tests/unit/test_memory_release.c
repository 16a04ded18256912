/*
 * test_memory_release.c — the idle-release decision (daemon/memory_release.h):
 * one release per idle period, none before the first op, none while ops
 * keep completing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "daemon/memory_release.h"

#define IDLE 10000u

static void nothing_ran_nothing_released(void **state) {
    (void)state;
    trn_memory_release r;
    trn_memory_release_init(&r, 1000, 0);
    for (uint64_t t = 1000; t < 100000; t += 1000)
        assert_int_equal(trn_memory_release_due(&r, t, 0, IDLE), 0);
}

static void one_release_per_idle_period(void **state) {
    (void)state;
    trn_memory_release r;
    trn_memory_release_init(&r, 0, 0);
    assert_int_equal(trn_memory_release_due(&r, 1000, 5, IDLE), 0);  /* ops ran at t = 1 s */
    assert_int_equal(trn_memory_release_due(&r, 10999, 5, IDLE), 0); /* idle 9.999 s */
    assert_int_equal(trn_memory_release_due(&r, 11000, 5, IDLE), 1); /* idle 10 s: release */
    assert_int_equal(trn_memory_release_due(&r, 12000, 5, IDLE), 0); /* once */
    assert_int_equal(trn_memory_release_due(&r, 60000, 5, IDLE), 0);
    assert_int_equal(trn_memory_release_due(&r, 61000, 6, IDLE), 0); /* work again */
    assert_int_equal(trn_memory_release_due(&r, 70000, 6, IDLE), 0);
    assert_int_equal(trn_memory_release_due(&r, 71000, 6, IDLE), 1); /* next idle period */
}

static void busy_daemon_keeps_its_pages(void **state) {
    (void)state;
    trn_memory_release r;
    trn_memory_release_init(&r, 0, 0);
    uint64_t ops = 0;
    for (uint64_t t = 1000; t < 100000; t += 1000)
        assert_int_equal(trn_memory_release_due(&r, t, ++ops, IDLE), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nothing_ran_nothing_released),
        cmocka_unit_test(one_release_per_idle_period),
        cmocka_unit_test(busy_daemon_keeps_its_pages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
