/*
 * test_blas_gemv_batched.c — trnblas<t>gemvBatched and gemvStridedBatched
 * in S, D, C, Z, every trans, through a real trnscid over the unix socket
 * and over TCP (there S and Z), in both pointer modes, against naive loops
 * in long double computed by this test (blas_check.h's harness, as
 * test_blas2.c).
 *
 * The batch's matrices and vectors sit in one allocation per operand at a
 * stride with gaps (strideA = lda*n + 3 elements, lda = rows + 1; x and y
 * strided with increments 1, -2, 3); pointer arrays name them in reverse
 * order. Every element no product may write (the gaps, the other entries'
 * padding) comes back bitwise unchanged; y holds NaN when beta = 0.
 * Bound (blas_check.h: bound(t, k) = gamma_k real, 2 gamma_2k complex):
 * y_i = beta y_i + alpha sum_j a_ij x_j is a chain of at most len(x) + 3
 * roundings per term, bound(t, len(x) + 3) (|alpha| sum |a_ij||x_j| +
 * |beta||y_i|), as for gemv.
 * Bad input: negative batchCount and strides, an entry whose matrix runs
 * past its allocation (named, nothing done), a host pointer array, an
 * unknown trans.
 */
#include <complex.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <limits.h>

#include "blas_check.h"

typedef struct gb_case {
    int m, n, batch, incx, incy, arrays;
    long double alpha_re, beta_re;
} gb_case;

static const gb_case gb_cases[] = {
    {5, 4, 3, 1, 1, 0, 0.75L, -1.5L}, {7, 3, 4, -2, 3, 1, -1.25L, 0.0L},
    {3, 6, 2, 3, -1, 0, 1.0L, 1.0L},  {4, 4, 5, 1, 1, 1, 0.0L, 0.5L},
    {1, 1, 1, 1, 1, 0, 2.0L, 0.0L},   {9, 17, 3, 1, -2, 1, 0.5L, 0.25L},
    {0, 3, 2, 1, 1, 0, 1.0L, 2.0L},   {4, 2, 0, 1, 1, 1, 1.0L, 1.0L},
};
#define N_GB (sizeof(gb_cases) / sizeof(gb_cases[0]))

/* A device array of the count pointers base + (count-1-i)*stride elements. */
static void *ptr_array(void *base, size_t es, size_t stride, int count) {
    void **h = malloc(sizeof(void *) * (size_t)(count > 0 ? count : 1));
    assert_non_null(h);
    for (int i = 0; i < count; i++)
        h[i] = (char *)base + (size_t)(count - 1 - i) * stride * es;
    void *d;
    assert_int_equal(trnsciMalloc(&d, sizeof(void *) * (size_t)(count > 0 ? count : 1)),
                     trnsciSuccess);
    assert_int_equal(trnsciMemcpy(d, h, sizeof(void *) * (size_t)(count > 0 ? count : 1),
                                  trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    free(h);
    return d;
}

static trnblasStatus_t call(trnblasHandle_t h, ty t, int arrays, trnblasOperation_t tr, int m,
                            int n, const void *al, void *A, int lda, long long sa, void *x,
                            int incx, long long sx, const void *be, void *y, int incy, long long sy,
                            int batch, void *Ap, void *xp, void *yp) {
    switch (t) {
    case TY_S:
        return arrays ? trnblasSgemvBatched(h, tr, m, n, al, Ap, lda, xp, incx, be, yp, incy, batch)
                      : trnblasSgemvStridedBatched(h, tr, m, n, al, A, lda, sa, x, incx, sx, be, y,
                                                   incy, sy, batch);
    case TY_D:
        return arrays ? trnblasDgemvBatched(h, tr, m, n, al, Ap, lda, xp, incx, be, yp, incy, batch)
                      : trnblasDgemvStridedBatched(h, tr, m, n, al, A, lda, sa, x, incx, sx, be, y,
                                                   incy, sy, batch);
    case TY_C:
        return arrays ? trnblasCgemvBatched(h, tr, m, n, al, Ap, lda, xp, incx, be, yp, incy, batch)
                      : trnblasCgemvStridedBatched(h, tr, m, n, al, A, lda, sa, x, incx, sx, be, y,
                                                   incy, sy, batch);
    case TY_Z:
        return arrays ? trnblasZgemvBatched(h, tr, m, n, al, Ap, lda, xp, incx, be, yp, incy, batch)
                      : trnblasZgemvStridedBatched(h, tr, m, n, al, A, lda, sa, x, incx, sx, be, y,
                                                   incy, sy, batch);
    }
    return TRNBLAS_STATUS_INTERNAL_ERROR;
}

static size_t run_case(trnblasHandle_t h, ty t, trnblasOperation_t tr, const gb_case *c) {
    const int m = c->m, n = c->n, nb = c->batch;
    const lcplx alpha = scal_val(t, c->alpha_re + (is_complex(t) ? 0.5L * I : 0));
    const lcplx beta = scal_val(
        t, c->beta_re + (is_complex(t) && c->beta_re != 0 && c->beta_re != 1 ? -0.25L * I : 0));
    const int xl = tr == TRNBLAS_OP_N ? n : m, yl = tr == TRNBLAS_OP_N ? m : n;
    const int lda = m + 1;
    const size_t sa = (size_t)lda * (size_t)(n > 0 ? n : 1) + 3;
    const size_t sx = (size_t)abs(c->incx) * (size_t)(xl > 0 ? xl - 1 : 0) + 2;
    const size_t sy = (size_t)abs(c->incy) * (size_t)(yl > 0 ? yl - 1 : 0) + 3;
    const int slots = nb > 0 ? nb : 1;
    /* one "matrix" per operand holding the whole batch: column b of a is
     * entry b's storage */
    mat a, xs, ys;
    mat_init(&a, t, (int)sa, slots, (int)sa, 1);
    mat_init(&xs, t, (int)sx, slots, (int)sx, 2);
    mat_init(&ys, t, (int)sy, slots, (int)sy, 1);
    const int beta0 = creall(beta) == 0 && cimagl(beta) == 0;
    /* entry b's element accessors */
#define A_EL(b, i, j) mat_get(&a, (i) + (j)*lda, (b))
#define VIDX(len, inc, k)                                                                          \
    ((inc) > 0 ? (size_t)(k) * (size_t)(inc) : (size_t)((len)-1 - (k)) * (size_t)(-(inc)))
    if (beta0)
        for (int b = 0; b < nb; b++)
            for (int k = 0; k < yl; k++)
                mat_set(&ys, (int)VIDX(yl, c->incy, k), b, CMPLXL(NAN, NAN));
    assert_int_equal(buf_upload(&a.b) | buf_upload(&xs.b) | buf_upload(&ys.b), 0);
    expect ey;
    expect_init(&ey, &ys.b);
    const int alpha0 = creall(alpha) == 0 && cimagl(alpha) == 0;
    const int nothing = m == 0 || n == 0 || (alpha0 && creall(beta) == 1 && cimagl(beta) == 0);
    for (int e = 0; e < nb && !nothing; e++) {
        /* pointer arrays list the storage in reverse: entry e uses slot b */
        const int b = c->arrays ? nb - 1 - e : e;
        for (int i = 0; i < yl; i++) {
            lcplx acc = 0;
            long double mag = 0;
            for (int j = 0; j < xl && !alpha0; j++) {
                lcplx aij = tr == TRNBLAS_OP_N ? A_EL(b, i, j) : A_EL(b, j, i);
                if (tr == TRNBLAS_OP_C)
                    aij = conjl(aij);
                const lcplx p = aij * mat_get(&xs, (int)VIDX(xl, c->incx, j), b);
                acc += p;
                mag += mag1(p);
            }
            const size_t yi = mat_idx(&ys, (int)VIDX(yl, c->incy, i), b);
            const lcplx y0 = beta0 ? 0 : get_el(t, ys.b.host, yi);
            expect_set(&ey, yi, alpha * acc + beta * y0,
                       bound_k(t, xl + 3) * (mag1(alpha) * mag + mag1(beta) * mag1(y0)));
        }
    }
    const size_t es = esize(t);
    void *Ap = NULL, *xp = NULL, *yp = NULL;
    if (c->arrays) {
        Ap = ptr_array(mat_ptr(&a), es, sa, nb);
        xp = ptr_array(mat_ptr(&xs), es, sx, nb);
        yp = ptr_array(mat_ptr(&ys), es, sy, nb);
    }
    const void *al = sarg(t, alpha, 0, 0), *be = sarg(t, beta, 1, 0);
    assert_int_equal(call(h, t, c->arrays, tr, m, n, al, mat_ptr(&a), lda, (long long)sa,
                          mat_ptr(&xs), c->incx, (long long)sx, be, mat_ptr(&ys), c->incy,
                          (long long)sy, nb, Ap, xp, yp),
                     TRNBLAS_STATUS_SUCCESS);
    expect ea, ex;
    expect_init(&ea, &a.b);
    expect_init(&ex, &xs.b);
    const char *name = c->arrays ? " gemvBatched" : " gemvStridedBatched";
    const size_t bad = check(name, &ys.b, &ey) + check(name, &a.b, &ea) + check(name, &xs.b, &ex);
    if (bad)
        fprintf(stderr, "  (trans %d m %d n %d batch %d incx %d incy %d, %s mode)\n", (int)tr, m, n,
                nb, c->incx, c->incy, device_mode ? "device" : "host");
    if (Ap)
        assert_int_equal(trnsciFree(Ap) | trnsciFree(xp) | trnsciFree(yp), trnsciSuccess);
    release(&ey, &ea, &ex, &a.b, &xs.b, &ys.b);
#undef A_EL
#undef VIDX
    return bad;
}

static void run_all_types(void) {
    for (int t = TY_S; t <= TY_Z; t += type_step) {
        trnblasHandle_t h;
        assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
        set_mode(h);
        size_t bad = 0;
        static const trnblasOperation_t trs[] = {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C};
        for (size_t i = 0; i < N_GB; i++)
            for (int tr = 0; tr < 3; tr++)
                bad += run_case(h, (ty)t, trs[tr], &gb_cases[i]);
        assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
        assert_int_equal(bad, 0);
    }
}

static void test_bad_input(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    float *A, *x, *y;
    assert_int_equal(trnsciMalloc((void **)&A, 64 * sizeof(float)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&x, 16 * sizeof(float)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&y, 16 * sizeof(float)), trnsciSuccess);
    const float one = 1.0f, ys[16] = {0};
    const trnblasOperation_t N = TRNBLAS_OP_N;
    assert_int_equal(trnsciMemcpy(y, ys, sizeof(ys), trnsciMemcpyHostToDevice), trnsciSuccess);
    expect_invalid(
        trnblasSgemvStridedBatched(h, N, 4, 4, &one, A, 4, 16, x, 1, 4, &one, y, 1, 4, -1),
        "gemvStridedBatched: batchCount=-1");
    expect_invalid(
        trnblasSgemvStridedBatched(h, N, 4, 4, &one, A, 4, -16, x, 1, 4, &one, y, 1, 4, 2),
        "strideA=-16");
    expect_invalid(trnblasSgemvStridedBatched(h, (trnblasOperation_t)5, 4, 4, &one, A, 4, 16, x, 1,
                                              4, &one, y, 1, 4, 2),
                   "gemv: trans=5");
    /* entry 4's A runs past the allocation (at 52 floats, 16 more do not
     * fit in 64): nothing is done, not even entries 0..3; entry 4 starting
     * past the end is named too */
    float got[16];
    const float xv[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    assert_int_equal(trnsciMemcpy(x, xv, sizeof(xv), trnsciMemcpyHostToDevice), trnsciSuccess);
    expect_invalid(
        trnblasSgemvStridedBatched(h, N, 4, 4, &one, A, 4, 13, x, 1, 0, &one, y, 1, 0, 5),
        "gemvStridedBatched: product 4: gemv: A");
    expect_invalid(
        trnblasSgemvStridedBatched(h, N, 4, 4, &one, A, 4, 16, x, 1, 0, &one, y, 1, 0, 5),
        "gemvStridedBatched: A of product 4");
    assert_int_equal(trnsciMemcpy(got, y, sizeof(got), trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_memory_equal(got, ys, sizeof(got));
    /* a host pointer array */
    const float *hostarr[2] = {A, A};
    expect_invalid(trnblasSgemvBatched(h, N, 4, 4, &one, hostarr, 4, hostarr, 1, &one,
                                       (float *const *)hostarr, 1, 2),
                   "gemvBatched: Aarray");
    assert_int_equal(trnblasSgemvBatched(NULL, N, 4, 4, &one, hostarr, 4, hostarr, 1, &one,
                                         (float *const *)hostarr, 1, 2),
                     TRNBLAS_STATUS_NOT_INITIALIZED);
    assert_int_equal(trnsciFree(A) | trnsciFree(x) | trnsciFree(y), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

int main(void) {
    if (th_daemon_start(&daemon_under_test, NULL) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_mode),
        cmocka_unit_test(test_device_mode),
        cmocka_unit_test(test_bad_input),
    };
    int failed = cmocka_run_group_tests_name("gemv batched over unix socket", tests, connect_unix,
                                             disconnect);
    failed += cmocka_run_group_tests_name("gemv batched over tcp", tests, connect_tcp, disconnect);
    print_worst();
    const int rc = th_daemon_stop(&daemon_under_test);
    if (rc != 0) {
        fprintf(stderr, "trnscid exited with %d (expected a clean 0)\n", rc);
        failed++;
    }
    return failed ? 1 : 0;
}
