/*
 * checked_routines.h — for the unit tests of the CPU kernels: run the
 * self-test of the outside routines (kernels/cpu/selftest/) and install
 * its verdicts, as trnscid does before it serves, so that a kernel under
 * test calls what the daemon would call (on a CPU whose OpenBLAS kernel set
 * has a broken routine, its replacement). Header-only; a cmocka group
 * setup. The checks run in forked children.
 */
#ifndef TRN_TESTS_CHECKED_ROUTINES_H
#define TRN_TESTS_CHECKED_ROUTINES_H

#include <stdio.h>
#include <stdlib.h>

#include "kernels/cpu/selftest/selftest.h"

static int trn_test_install_checked_routines(void **state) {
    (void)state;
    trn_st_report *r = malloc(sizeof(*r));
    if (!r)
        return -1;
    const trn_st_options o = {.workers = 2};
    char err[256] = "";
    if (trn_st_run(&o, r, err, sizeof(err)) != 0) {
        fprintf(stderr, "self-test: %s\n", err);
        free(r);
        return -1;
    }
    trn_st_install(r);
    if (r->replaced || r->refused)
        fprintf(stderr, "self-test on OpenBLAS %s: %u replaced, %u refused\n", r->blas_core,
                r->replaced, r->refused);
    free(r);
    return 0;
}

#endif
