/*
 * test_selftest.c — the self-test of the outside routines
 * (kernels/cpu/selftest/): its decisions, its candidates, and that its
 * checks fail wrong routines.
 *
 * A faulty routine is injected as the library candidate of its routine
 * (trn_st_options.overrides, fork mode: the checking children share this
 * process's memory):
 *  - wrong results on some shapes (scasum off when n is not a multiple of
 *    8, the bug of OpenBLAS 0.3.21's Cooperlake kernels): failed, with the
 *    case in the report; replaced by the first candidate that passes; after
 *    installing, the kernel that uses it (trn_cpu_blas1) is right;
 *  - a read past its operand: crashed, naming the operand; replaced;
 *  - a routine that never returns: timed out; replaced;
 *  - a wrong LAPACK routine, which has no other candidate: refused; an op
 *    that needs it fails as UNSUPPORTED with a message naming it, through
 *    the backend, whatever it computed.
 * Every in-tree BLAS kernel and every alternative passes every check. And
 * routines wrong in the ways the checks exist for fail them (mutants):
 * NaN from a C that beta = 0 must not read, a write into padding or into
 * the other triangle, a read of the other triangle, the last of tied
 * maxima, a norm that overflows, an error of 2^-10 in one entry.
 */
#include <cblas.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "kernels/backend.h"
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/refblas/refblas.h"
#include "kernels/cpu/routines.h"
#include "kernels/cpu/selftest/checks.h"
#include "kernels/cpu/selftest/selftest.h"

/* The routines a run checks: `only` lists them (a test-only global, read by
 * the `want` callback in the forked children). */
static int only[TRN_ROUTINE_COUNT];
static int nonly;

static int want_only(int id) {
    for (int i = 0; i < nonly; i++)
        if (only[i] == id)
            return 1;
    return 0;
}

/* Runs the self-test on the routines in ids[] with the overrides; returns
 * the report (heap). */
static trn_st_report *run(const int *ids, int n, const trn_st_override *ov, int nov,
                          unsigned stall_ms) {
    nonly = n;
    memcpy(only, ids, sizeof(int) * (size_t)n);
    trn_st_report *r = malloc(sizeof(*r));
    assert_non_null(r);
    const trn_st_options o = {
        .workers = 2, .stall_ms = stall_ms, .want = want_only, .overrides = ov, .noverrides = nov};
    char err[256] = "";
    if (trn_st_run(&o, r, err, sizeof(err)) != 0)
        fail_msg("trn_st_run: %s", err);
    return r;
}

static int all_ids_of(const char *group, int *ids) {
    int n = 0;
    for (int id = 0; id < TRN_ROUTINE_COUNT; id++)
        if (strcmp(trn_routine_group(id), group) == 0)
            ids[n++] = id;
    return n;
}

/* ---- injected faults ------------------------------------------------------------------- */

/* scasum as OpenBLAS 0.3.21's Cooperlake kernels compute it: right for n a
 * multiple of 8 only (here: off by the last element). */
static float faulty_scasum(const blasint n, const void *x, const blasint incx) {
    const float s = cblas_scasum(n, x, incx);
    if (n % 8 == 0 || incx <= 0)
        return s;
    const float *last = (const float *)x + 2 * (size_t)(n - 1) * (size_t)incx;
    return s - fabsf(last[0]);
}

/* sdot that reads one element past the end of x. */
static float overreading_sdot(const blasint n, const float *x, const blasint incx, const float *y,
                              const blasint incy) {
    volatile float past = 0;
    if (n > 0 && incx > 0)
        past = x[(size_t)n * (size_t)incx];
    return cblas_sdot(n, x, incx, y, incy) + 0 * past;
}

/* isamax that never returns. */
static CBLAS_INDEX stuck_isamax(const blasint n, const float *x, const blasint incx) {
    volatile int forever = 1;
    while (forever)
        ;
    return cblas_isamax(n, x, incx);
}

/* dpotrf whose factor is off by 2^-20 in its first entry. */
static lapack_int faulty_dpotrf(int layout, char uplo, lapack_int n, double *a, lapack_int lda) {
    const lapack_int info = LAPACKE_dpotrf_work(layout, uplo, n, a, lda);
    if (n > 0)
        a[0] *= 1.0 + 0x1p-20;
    return info;
}

static void test_wrong_results_replaced(void **state) {
    (void)state;
    const int ids[] = {TRN_R_cblas_scasum, TRN_R_cblas_dzasum};
    const trn_st_override ov[] = {{TRN_R_cblas_scasum, (void *)faulty_scasum}};
    trn_st_report *r = run(ids, 2, ov, 1, 0);
    const trn_st_routine_result *rr = &r->r[TRN_R_cblas_scasum];
    assert_int_equal(rr->cand[0].verdict, TRN_ST_FAILED);
    assert_true(rr->cand[0].failed > 0 && rr->cand[0].failed < rr->cand[0].cases);
    assert_non_null(strstr(rr->cand[0].detail, "n="));
    assert_non_null(strstr(rr->cand[0].detail, "got"));
    assert_true(rr->chosen >= 1);
    assert_int_equal(rr->cand[rr->chosen].verdict, TRN_ST_PASSED);
    assert_int_equal(r->r[TRN_R_cblas_dzasum].chosen, 0);
    assert_int_equal(r->checked, 2);
    assert_int_equal(r->replaced, 1);
    char line[1024];
    trn_st_describe(r, TRN_R_cblas_scasum, line, sizeof(line));
    assert_non_null(strstr(line, "cblas_scasum"));
    assert_non_null(strstr(line, "replaced by"));

    /* Installed: the kernel computes asum right where the injected routine
     * was wrong. The override never reached the table: install uses the
     * candidate list, whose first entry is the library's routine, so point
     * the table at the faulty one first, as a daemon would have it. */
    trn_routine_install(TRN_R_cblas_scasum, (void *)faulty_scasum, 0);
    trn_st_install(r);
    assert_ptr_not_equal(trn_routine_current(TRN_R_cblas_scasum), (void *)faulty_scasum);
    float x[2 * 37];
    long double want = 0;
    for (int i = 0; i < 2 * 37; i++) {
        x[i] = (float)sin(1.7 * i) * 3.0f;
        want += fabsl((long double)x[i]);
    }
    float got = 0;
    trn_blas1_desc d = {0};
    d.fn = TRN_BLAS1_ASUM;
    d.type = TRN_DTYPE_C32F;
    d.n = 37;
    d.incx = 1;
    d.x = x;
    d.result = &got;
    assert_int_equal(trn_cpu_blas1(&d, 0, 1), TRN_KSTATUS_OK);
    /* asum of 74 components in float: (2n+1)·u·sum. */
    assert_true(fabsl(got - want) <= 75.0L * 0x1p-24L * want);
    trn_routine_reset();
    free(r);
}

static void test_crash_and_stall_replaced(void **state) {
    (void)state;
    const int ids[] = {TRN_R_cblas_sdot, TRN_R_cblas_isamax};
    const trn_st_override ov[] = {{TRN_R_cblas_sdot, (void *)overreading_sdot},
                                  {TRN_R_cblas_isamax, (void *)stuck_isamax}};
    trn_st_report *r = run(ids, 2, ov, 2, 500);
    const trn_st_routine_result *dot = &r->r[TRN_R_cblas_sdot];
    assert_int_equal(dot->cand[0].verdict, TRN_ST_CRASHED);
    assert_non_null(strstr(dot->cand[0].detail, "SIGSEGV"));
    assert_non_null(strstr(dot->cand[0].detail, "past the end of operand #0"));
    assert_string_equal(dot->cand[dot->chosen].name, "in-tree");
    const trn_st_routine_result *amax = &r->r[TRN_R_cblas_isamax];
    assert_int_equal(amax->cand[0].verdict, TRN_ST_TIMED_OUT);
    assert_string_equal(amax->cand[amax->chosen].name, "in-tree");
    assert_int_equal(r->replaced, 2);
    assert_int_equal(r->refused, 0);
    free(r);
}

static void test_refused_routine_fails_its_ops(void **state) {
    (void)state;
    const int ids[] = {TRN_R_LAPACKE_dpotrf_work, TRN_R_LAPACKE_spotrf_work};
    const trn_st_override ov[] = {{TRN_R_LAPACKE_dpotrf_work, (void *)faulty_dpotrf}};
    trn_st_report *r = run(ids, 2, ov, 1, 0);
    assert_int_equal(r->r[TRN_R_LAPACKE_dpotrf_work].cand[0].verdict, TRN_ST_FAILED);
    assert_int_equal(r->r[TRN_R_LAPACKE_dpotrf_work].chosen, -1);
    assert_int_equal(r->r[TRN_R_LAPACKE_spotrf_work].chosen, 0);
    assert_int_equal(r->refused, 1);
    trn_st_install(r);
    assert_true(trn_routine_is_refused(TRN_R_LAPACKE_dpotrf_work));
    assert_false(trn_routine_is_refused(TRN_R_LAPACKE_spotrf_work));

    /* dpotrf through the backend: UNSUPPORTED, and the message names it. */
    trn_backend *be = trn_backend_cpu_create();
    assert_non_null(be);
    double a[4] = {4, 2, 2, 3}; /* SPD */
    int32_t info = -7;
    trn_kmsg msg;
    trn_kmsg_init(&msg);
    trn_op_desc op;
    memset(&op, 0, sizeof(op));
    op.kind = TRN_OP_SOLVER_DENSE;
    op.kmsg = &msg;
    op.u.solver_dense.fn = TRN_SOLVER_POTRF;
    op.u.solver_dense.type = TRN_DTYPE_R64F;
    op.u.solver_dense.lower = 1;
    op.u.solver_dense.n = 2;
    op.u.solver_dense.a = a;
    op.u.solver_dense.lda = 2;
    op.u.solver_dense.info = &info;
    assert_int_equal(be->run(be, &op, NULL, 0, 1), TRN_KSTATUS_UNSUPPORTED);
    assert_true(msg.set);
    assert_non_null(strstr(msg.text, "LAPACKE_dpotrf_work"));
    assert_non_null(strstr(msg.text, "self-test"));
    /* The single precision routine still runs. */
    float af[4] = {4, 2, 2, 3};
    trn_kmsg_init(&msg);
    op.u.solver_dense.type = TRN_DTYPE_R32F;
    op.u.solver_dense.a = af;
    assert_int_equal(be->run(be, &op, NULL, 0, 1), TRN_KSTATUS_OK);
    assert_false(msg.set);
    assert_float_equal(af[0], 2.0f, 1e-6f);
    be->destroy(be);
    trn_routine_reset();
    free(r);
}

/* Every in-tree kernel passes every check of its routine. */
static void test_in_tree_kernels_pass(void **state) {
    (void)state;
    int ids[TRN_ROUTINE_COUNT], n = 0;
    trn_st_override ov[TRN_ROUTINE_COUNT];
    for (int id = 0; id < TRN_ROUTINE_COUNT; id++) {
        void *ref = trn_ref_blas(id);
        if (!ref)
            continue;
        ov[n].id = id;
        ov[n].fn = ref;
        ids[n++] = id;
    }
    assert_int_equal(n, 108);
    trn_st_report *r = run(ids, n, ov, n, 0);
    for (int i = 0; i < n; i++) {
        const trn_st_candidate_result *c = &r->r[ids[i]].cand[0];
        if (c->verdict != TRN_ST_PASSED)
            fail_msg("in-tree %s: %s: %s", trn_routine_name(ids[i]),
                     trn_st_verdict_name(c->verdict), c->detail);
    }
    free(r);
}

/* Every alternative (alternatives.c) passes every check of its routine. */
static void test_alternatives_pass(void **state) {
    (void)state;
    int ids[TRN_ROUTINE_COUNT], n = 0;
    trn_st_override ov[TRN_ROUTINE_COUNT];
    for (int id = 0; id < TRN_ROUTINE_COUNT; id++) {
        const char *name;
        void *alt = st_alternative(id, &name);
        if (!alt)
            continue;
        ov[n].id = id;
        ov[n].fn = alt;
        ids[n++] = id;
    }
    assert_true(n >= 12);
    trn_st_report *r = run(ids, n, ov, n, 0);
    for (int i = 0; i < n; i++) {
        const trn_st_candidate_result *c = &r->r[ids[i]].cand[0];
        if (c->verdict != TRN_ST_PASSED)
            fail_msg("alternative of %s: %s: %s", trn_routine_name(ids[i]),
                     trn_st_verdict_name(c->verdict), c->detail);
    }
    free(r);
}

/* ---- mutants: each wrong in one way the checks exist for ----------------------------- */

/* gemm that multiplies C by beta even when beta is 0 (NaN in C survives). */
static void mutant_beta_reads_c(const enum CBLAS_ORDER o, const enum CBLAS_TRANSPOSE ta,
                                const enum CBLAS_TRANSPOSE tb, const blasint m, const blasint n,
                                const blasint k, const double alpha, const double *a,
                                const blasint lda, const double *b, const blasint ldb,
                                const double beta, double *c, const blasint ldc) {
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            c[(size_t)j * (size_t)ldc + (size_t)i] *= beta;
    cblas_dgemm(o, ta, tb, m, n, k, alpha, a, lda, b, ldb, 1.0, c, ldc);
}

/* gemm that zeroes the padding row below C's first column. */
static void mutant_writes_padding(const enum CBLAS_ORDER o, const enum CBLAS_TRANSPOSE ta,
                                  const enum CBLAS_TRANSPOSE tb, const blasint m, const blasint n,
                                  const blasint k, const float alpha, const float *a,
                                  const blasint lda, const float *b, const blasint ldb,
                                  const float beta, float *c, const blasint ldc) {
    cblas_sgemm(o, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    if (ldc > m && n > 1)
        c[m] = 0.0f;
}

/* gemm with one entry off by 2^-10 of its magnitude. */
static void mutant_inexact(const enum CBLAS_ORDER o, const enum CBLAS_TRANSPOSE ta,
                           const enum CBLAS_TRANSPOSE tb, const blasint m, const blasint n,
                           const blasint k, const double alpha, const double *a, const blasint lda,
                           const double *b, const blasint ldb, const double beta, double *c,
                           const blasint ldc) {
    cblas_dgemm(o, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    if (m > 0 && n > 0)
        c[0] *= 1.0 + 0x1p-10;
}

/* syrk that mirrors its triangle into the other one. */
static void mutant_writes_other_triangle(const enum CBLAS_ORDER o, const enum CBLAS_UPLO uplo,
                                         const enum CBLAS_TRANSPOSE t, const blasint n,
                                         const blasint k, const double alpha, const double *a,
                                         const blasint lda, const double beta, double *c,
                                         const blasint ldc) {
    cblas_dsyrk(o, uplo, t, n, k, alpha, a, lda, beta, c, ldc);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if (uplo == CblasUpper ? i > j : i < j)
                c[(size_t)j * (size_t)ldc + (size_t)i] = c[(size_t)i * (size_t)ldc + (size_t)j];
}

/* trsv that adds the other triangle's first entry (reading it) into x. */
static void mutant_reads_other_triangle(const enum CBLAS_ORDER o, const enum CBLAS_UPLO uplo,
                                        const enum CBLAS_TRANSPOSE t, const enum CBLAS_DIAG d,
                                        const blasint n, const float *a, const blasint lda,
                                        float *x, const blasint incx) {
    cblas_strsv(o, uplo, t, d, n, a, lda, x, incx);
    if (n > 1) {
        const float other = uplo == CblasUpper ? a[1] : a[lda];
        x[0] += 0.0f * other; /* a NaN there reaches x */
    }
}

/* isamax that returns the last of tied maxima. */
static CBLAS_INDEX mutant_last_tie(const blasint n, const float *x, const blasint incx) {
    if (n <= 0 || incx <= 0)
        return 0;
    CBLAS_INDEX best = 0;
    for (int i = 1; i < n; i++)
        if (fabsf(x[(size_t)i * (size_t)incx]) >= fabsf(x[best * (size_t)incx]))
            best = (CBLAS_INDEX)i;
    return best;
}

/* nrm2 that squares in single precision (overflows for |x| near 2^64). */
static float mutant_naive_nrm2(const blasint n, const float *x, const blasint incx) {
    float s = 0;
    for (int i = 0; i < n && incx > 0; i++)
        s += x[(size_t)i * (size_t)incx] * x[(size_t)i * (size_t)incx];
    return sqrtf(s);
}

/* geev whose vectors are right but whose first eigenvalue is off by 1/4
 * (from n = 2; not on the workspace query). */
static lapack_int mutant_geev_shifted(int layout, char jobvl, char jobvr, lapack_int n, double *a,
                                      lapack_int lda, double *wr, double *wi, double *vl,
                                      lapack_int ldvl, double *vr, lapack_int ldvr, double *work,
                                      lapack_int lwork) {
    const lapack_int info = LAPACKE_dgeev_work(layout, jobvl, jobvr, n, a, lda, wr, wi, vl, ldvl,
                                               vr, ldvr, work, lwork);
    if (lwork != -1 && n >= 2)
        wr[0] += 0.25;
    return info;
}

/* gebrd whose first diagonal entry is off by 2^-10 of itself (not on the
 * workspace query). */
static lapack_int mutant_gebrd_d0(int layout, lapack_int m, lapack_int n, double *a, lapack_int lda,
                                  double *d, double *e, double *tauq, double *taup, double *work,
                                  lapack_int lwork) {
    const lapack_int info =
        LAPACKE_dgebrd_work(layout, m, n, a, lda, d, e, tauq, taup, work, lwork);
    if (lwork != -1 && n >= 1)
        d[0] *= 1.0 + 0x1p-10;
    return info;
}

/* bdsqr that leaves VT's first entry off by 2^-10 of itself. */
static lapack_int mutant_bdsqr_vt(int layout, char uplo, lapack_int n, lapack_int ncvt,
                                  lapack_int nru, lapack_int ncc, double *d, double *e, double *vt,
                                  lapack_int ldvt, double *u, lapack_int ldu, double *c,
                                  lapack_int ldc, double *work) {
    const lapack_int info =
        LAPACKE_dbdsqr_work(layout, uplo, n, ncvt, nru, ncc, d, e, vt, ldvt, u, ldu, c, ldc, work);
    if (ncvt > 0 && n >= 2)
        vt[0] *= 1.0 + 0x1p-10;
    return info;
}

static void test_checks_fail_mutants(void **state) {
    (void)state;
    const struct {
        int id;
        void *fn;
        const char *expect; /* in the first failure's text */
    } m[] = {
        {TRN_R_cblas_dgemm, (void *)mutant_beta_reads_c, "beta=0"},
        {TRN_R_cblas_sgemm, (void *)mutant_writes_padding, "padding"},
        {TRN_R_cblas_dsyrk, (void *)mutant_writes_other_triangle, "outside the part"},
        {TRN_R_cblas_strsv, (void *)mutant_reads_other_triangle, "nan"},
        {TRN_R_cblas_isamax, (void *)mutant_last_tie, "with ties"},
        {TRN_R_cblas_snrm2, (void *)mutant_naive_nrm2, "scaled by 2^70"},
        {TRN_R_LAPACKE_dgeev_work, (void *)mutant_geev_shifted, "W[0]"},
        {TRN_R_LAPACKE_dgebrd_work, (void *)mutant_gebrd_d0, "A·P − Q·B"},
        {TRN_R_LAPACKE_dbdsqr_work, (void *)mutant_bdsqr_vt, "VT"},
    };
    const int nm = (int)(sizeof(m) / sizeof(m[0]));
    int ids[12], n = 0;
    trn_st_override ov[12];
    for (int i = 0; i < nm; i++) {
        ids[n] = m[i].id;
        ov[n].id = m[i].id;
        ov[n].fn = m[i].fn;
        n++;
    }
    trn_st_report *r = run(ids, n, ov, n, 0);
    for (int i = 0; i < nm; i++) {
        const trn_st_candidate_result *c = &r->r[m[i].id].cand[0];
        if (c->verdict != TRN_ST_FAILED || !strstr(c->detail, m[i].expect))
            fail_msg("mutant of %s: %s (%s), expected a failure mentioning \"%s\"",
                     trn_routine_name(m[i].id), trn_st_verdict_name(c->verdict), c->detail,
                     m[i].expect);
    }
    free(r);
    /* An error of 2^-10 in one entry (a separate run: it shares dgemm). */
    const int one[] = {TRN_R_cblas_dgemm};
    const trn_st_override inexact[] = {{TRN_R_cblas_dgemm, (void *)mutant_inexact}};
    r = run(one, 1, inexact, 1, 0);
    assert_int_equal(r->r[TRN_R_cblas_dgemm].cand[0].verdict, TRN_ST_FAILED);
    assert_non_null(strstr(r->r[TRN_R_cblas_dgemm].cand[0].detail, "bound"));
    free(r);
}

/* The whole self-test on this machine's libraries: every routine gets a
 * verdict and ends with a candidate that passed or is refused. */
static void test_every_routine_decided(void **state) {
    (void)state;
    int ids[TRN_ROUTINE_COUNT];
    int n = 0;
    static const char *const groups[] = {"blas1", "blas2", "blas3", "lapack", "fftw"};
    for (size_t g = 0; g < 5; g++)
        n += all_ids_of(groups[g], ids + n);
    assert_int_equal(n, TRN_ROUTINE_COUNT);
    trn_st_report *r = run(ids, n, NULL, 0, 0);
    assert_int_equal(r->checked, TRN_ROUTINE_COUNT);
    assert_int_equal(r->passed + r->replaced + r->refused, TRN_ROUTINE_COUNT);
    assert_true(r->blas_core[0] != '\0');
    for (int id = 0; id < TRN_ROUTINE_COUNT; id++) {
        const trn_st_routine_result *rr = &r->r[id];
        assert_true(rr->cand[0].verdict != TRN_ST_UNTRIED);
        if (rr->chosen >= 0)
            assert_int_equal(rr->cand[rr->chosen].verdict, TRN_ST_PASSED);
        if (rr->chosen != 0)
            print_message("%s: %s\n", trn_routine_name(id), rr->cand[0].detail);
    }
    print_message("self-test of %d routines on OpenBLAS %s: %.2f s, %u replaced, %u refused\n", n,
                  r->blas_core, r->seconds, r->replaced, r->refused);
    free(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrong_results_replaced),
        cmocka_unit_test(test_crash_and_stall_replaced),
        cmocka_unit_test(test_refused_routine_fails_its_ops),
        cmocka_unit_test(test_checks_fail_mutants),
        cmocka_unit_test(test_alternatives_pass),
        cmocka_unit_test(test_in_tree_kernels_pass),
        cmocka_unit_test(test_every_routine_decided),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
