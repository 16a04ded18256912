/*
 * test_gemm.c — S/D/C/Z GEMM through a real trnscid, over the unix socket and
 * over TCP, against an independent reference: a naive triple loop in long
 * double (64-bit mantissa on x86-64), computed by this test from the inputs.
 *
 * Every case uses sub-matrices: each operand starts at an element offset
 * inside a larger allocation and has a leading dimension larger than its row
 * count; the padding of C must come back untouched.
 *
 * Tolerance (Higham, Accuracy and Stability, §3.5): for an inner product of
 * length k, |fl(x·y) − x·y| ≤ γ_k |x|·|y| with γ_k = k u / (1 − k u). Adding
 * the alpha/beta scaling gives, elementwise,
 *   |C − C_ref| ≤ γ_{k+2} (|α| (|op(A)| |op(B)|) + |β| |C0|),
 * and a complex multiply–add costs at most a further factor of 2√2 < 4
 * (complex products have relative error ≤ √2 γ_2). u is 2^-24 for S/C and
 * 2^-53 for D/Z.
 */
#include <complex.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "trnsci/trnblas.h"
#include "typed.h"

static th_daemon daemon_under_test;

static long double unit_roundoff(ty t) {
    return (t == TY_S || t == TY_C) ? ldexpl(1.0L, -24) : ldexpl(1.0L, -53);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static long double uniform(void) { /* [-1, 1), xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    const uint64_t r = rng_state * 2685821657736338717ULL;
    return (long double)(r >> 11) * ldexpl(1.0L, -52) - 1.0L;
}

/* A matrix stored in a host buffer laid out exactly like its device copy:
 * `off` elements of leading padding, then rows×cols with leading dim ld. */
typedef struct mat {
    ty t;
    int rows, cols, ld;
    size_t off, total; /* elements */
    void *host;
    void *dev; /* allocation base */
} mat;

static void mat_init(mat *x, ty t, int rows, int cols, int ld, size_t off) {
    x->t = t;
    x->rows = rows;
    x->cols = cols;
    x->ld = ld;
    x->off = off;
    x->total = off + (size_t)ld * (size_t)cols + 7; /* trailing slack too */
    x->host = malloc(x->total * esize(t));
    assert_non_null(x->host);
    for (size_t i = 0; i < x->total; i++)
        put(t, x->host, i, is_complex(t) ? uniform() + I * uniform() : uniform());
    assert_int_equal(trnsciMalloc(&x->dev, x->total * esize(t)), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(x->dev, x->host, x->total * esize(t), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
}

static void *mat_dev_ptr(const mat *x) {
    return (char *)x->dev + x->off * esize(x->t);
}

static lcplx mat_at(const mat *x, int i, int j) {
    return get(x->t, x->host, x->off + (size_t)i + (size_t)j * (size_t)x->ld);
}

static void mat_free(mat *x) {
    assert_int_equal(trnsciFree(x->dev), trnsciSuccess);
    free(x->host);
}

/* op(X)(i, l) for trans = N, T, C. */
static lcplx op_at(const mat *x, trnblasOperation_t tr, int i, int l) {
    if (tr == TRNBLAS_OP_N)
        return mat_at(x, i, l);
    const lcplx v = mat_at(x, l, i);
    return tr == TRNBLAS_OP_C ? conjl(v) : v;
}

static trnblasStatus_t run_gemm(trnblasHandle_t h, ty t, trnblasOperation_t ta,
                                trnblasOperation_t tb, int m, int n, int k, lcplx alpha,
                                const mat *a, const mat *b, lcplx beta, mat *c) {
    switch (t) {
    case TY_S: {
        const float al = (float)creall(alpha), be = (float)creall(beta);
        return trnblasSgemm(h, ta, tb, m, n, k, &al, mat_dev_ptr(a), a->ld, mat_dev_ptr(b), b->ld,
                            &be, mat_dev_ptr(c), c->ld);
    }
    case TY_D: {
        const double al = (double)creall(alpha), be = (double)creall(beta);
        return trnblasDgemm(h, ta, tb, m, n, k, &al, mat_dev_ptr(a), a->ld, mat_dev_ptr(b), b->ld,
                            &be, mat_dev_ptr(c), c->ld);
    }
    case TY_C: {
        const trnComplex al = {(float)creall(alpha), (float)cimagl(alpha)};
        const trnComplex be = {(float)creall(beta), (float)cimagl(beta)};
        return trnblasCgemm(h, ta, tb, m, n, k, &al, mat_dev_ptr(a), a->ld, mat_dev_ptr(b), b->ld,
                            &be, mat_dev_ptr(c), c->ld);
    }
    case TY_Z: {
        const trnDoubleComplex al = {(double)creall(alpha), (double)cimagl(alpha)};
        const trnDoubleComplex be = {(double)creall(beta), (double)cimagl(beta)};
        return trnblasZgemm(h, ta, tb, m, n, k, &al, mat_dev_ptr(a), a->ld, mat_dev_ptr(b), b->ld,
                            &be, mat_dev_ptr(c), c->ld);
    }
    }
    return TRNBLAS_STATUS_INTERNAL_ERROR;
}

/* One GEMM case: compute on the daemon, compare with the reference, check
 * that C's padding is untouched. */
static void check_case(trnblasHandle_t h, ty t, trnblasOperation_t ta, trnblasOperation_t tb, int m,
                       int n, int k, lcplx alpha, lcplx beta) {
    if (!is_complex(t)) {
        alpha = creall(alpha);
        beta = creall(beta);
    }
    const int a_rows = ta == TRNBLAS_OP_N ? m : k, a_cols = ta == TRNBLAS_OP_N ? k : m;
    const int b_rows = tb == TRNBLAS_OP_N ? k : n, b_cols = tb == TRNBLAS_OP_N ? n : k;
    mat a, b, c;
    mat_init(&a, t, a_rows, a_cols, a_rows + 3, 5);
    mat_init(&b, t, b_rows, b_cols, b_rows + 1, 11);
    mat_init(&c, t, m, n, m + 2, 3);
    void *result = malloc(c.total * esize(t));
    assert_non_null(result);

    assert_int_equal(run_gemm(h, t, ta, tb, m, n, k, alpha, &a, &b, beta, &c),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMemcpy(result, c.dev, c.total * esize(t), trnsciMemcpyDeviceToHost),
                     trnsciSuccess);

    const long double u = unit_roundoff(t);
    const long double gamma = (k + 2) * u / (1.0L - (k + 2) * u) * (is_complex(t) ? 4.0L : 1.0L);
    size_t bad = 0;
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < m; i++) {
            lcplx acc = 0;
            long double mag = 0;
            for (int l = 0; l < k; l++) {
                const lcplx x = op_at(&a, ta, i, l), y = op_at(&b, tb, l, j);
                acc += x * y;
                mag += cabsl(x) * cabsl(y);
            }
            const lcplx c0 = mat_at(&c, i, j);
            const lcplx ref = alpha * acc + beta * c0;
            const long double bound = gamma * (cabsl(alpha) * mag + cabsl(beta) * cabsl(c0));
            const lcplx got = get(t, result, c.off + (size_t)i + (size_t)j * (size_t)c.ld);
            if (cabsl(got - ref) > bound) {
                if (bad++ < 3)
                    fprintf(stderr, "%sgemm %d%d (%d,%d): got %Lg%+Lgi want %Lg%+Lgi bound %Lg\n",
                            ty_name[t], ta, tb, i, j, creall(got), cimagl(got), creall(ref),
                            cimagl(ref), bound);
            }
        }
    }
    /* Everything outside the m×n sub-matrix of C is untouched. */
    for (size_t e = 0; e < c.total; e++) {
        const size_t rel = e - c.off;
        const int inside =
            e >= c.off && rel % (size_t)c.ld < (size_t)m && rel / (size_t)c.ld < (size_t)n;
        if (!inside && get(t, result, e) != get(t, c.host, e)) {
            if (bad++ < 3)
                fprintf(stderr, "%sgemm: element %zu outside C was modified\n", ty_name[t], e);
        }
    }
    assert_int_equal(bad, 0);
    free(result);
    mat_free(&a);
    mat_free(&b);
    mat_free(&c);
}

static void all_transposes(ty t) {
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    const trnblasOperation_t ops[] = {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C};
    for (int x = 0; x < 3; x++)
        for (int y = 0; y < 3; y++)
            check_case(h, t, ops[x], ops[y], 23, 17, 31, 1.5L - 0.5L * I, -0.75L + 0.25L * I);
    trnblasDestroy(h);
}

static void test_sgemm(void **state) {
    (void)state;
    all_transposes(TY_S);
}
static void test_dgemm(void **state) {
    (void)state;
    all_transposes(TY_D);
}
static void test_cgemm(void **state) {
    (void)state;
    all_transposes(TY_C);
}
static void test_zgemm(void **state) {
    (void)state;
    all_transposes(TY_Z);
}

/* Edge shapes: k = 0 and alpha = 0 give C = beta C; beta = 0 ignores C's
 * input (BLAS: "when beta is zero C need not be set", so NaN input is
 * overwritten); a tall-skinny case; a case whose operands span several 1 MiB
 * transfer chunks. */
static void test_edge_shapes(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    check_case(h, TY_D, TRNBLAS_OP_N, TRNBLAS_OP_N, 9, 7, 0, 2.0L, 0.5L);
    check_case(h, TY_Z, TRNBLAS_OP_T, TRNBLAS_OP_C, 9, 7, 5, 0.0L, 0.5L - 1.0L * I);
    check_case(h, TY_S, TRNBLAS_OP_N, TRNBLAS_OP_T, 257, 1, 300, 1.0L, 0.0L);
    check_case(h, TY_D, TRNBLAS_OP_T, TRNBLAS_OP_N, 260, 190, 300, 1.0L, 1.0L);

    /* beta = 0 with NaN in C. */
    double *dc, nan_c[4] = {NAN, NAN, NAN, NAN}, out[4];
    const double a[4] = {1, 2, 3, 4}, one = 1.0, zero = 0.0;
    double *da;
    assert_int_equal(trnsciMalloc((void **)&da, sizeof(a)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&dc, sizeof(nan_c)), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(da, a, sizeof(a), trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dc, nan_c, sizeof(nan_c), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(
        trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, da, 2, da, 2, &zero, dc, 2),
        TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMemcpy(out, dc, sizeof(out), trnsciMemcpyDeviceToHost), trnsciSuccess);
    /* [1 3; 2 4]^2 = [7 15; 10 22], exact in binary floating point. */
    assert_true(out[0] == 7 && out[1] == 10 && out[2] == 15 && out[3] == 22);
    trnsciFree(da);
    trnsciFree(dc);
    trnblasDestroy(h);
}

/* Work on two streams and the default stream, then one device-wide sync. */
static void test_streams(void **state) {
    (void)state;
    trnsciStream_t s1, s2;
    trnblasHandle_t h1, h2;
    assert_int_equal(trnsciStreamCreate(&s1), trnsciSuccess);
    assert_int_equal(trnsciStreamCreate(&s2), trnsciSuccess);
    assert_int_equal(trnblasCreate(&h1), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasCreate(&h2), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSetStream(h1, s1), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSetStream(h2, s2), TRNBLAS_STATUS_SUCCESS);
    trnsciStream_t got;
    assert_int_equal(trnblasGetStream(h1, &got), TRNBLAS_STATUS_SUCCESS);
    assert_ptr_equal(got, s1);

    /* On each stream: C = A*A then C = C*A (in order) must give A^3. */
    const float a[4] = {1, 1, 0, 1}; /* [1 0; 1 1] */
    float *da, *dc1, *dc2, *dt1, *dt2, one = 1, zero = 0, out[4];
    assert_int_equal(trnsciMalloc((void **)&da, sizeof(a)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&dc1, sizeof(a)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&dc2, sizeof(a)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&dt1, sizeof(a)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&dt2, sizeof(a)), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(da, a, sizeof(a), trnsciMemcpyHostToDevice), trnsciSuccess);
    for (int rep = 0; rep < 20; rep++) {
        assert_int_equal(trnblasSgemm(h1, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, da, 2, da, 2,
                                      &zero, dt1, 2),
                         TRNBLAS_STATUS_SUCCESS);
        assert_int_equal(trnblasSgemm(h2, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, da, 2, da, 2,
                                      &zero, dt2, 2),
                         TRNBLAS_STATUS_SUCCESS);
        assert_int_equal(trnblasSgemm(h1, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, dt1, 2, da, 2,
                                      &zero, dc1, 2),
                         TRNBLAS_STATUS_SUCCESS);
        assert_int_equal(trnblasSgemm(h2, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, dt2, 2, da, 2,
                                      &zero, dc2, 2),
                         TRNBLAS_STATUS_SUCCESS);
    }
    assert_int_equal(trnsciStreamSynchronize(s1), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(out, dc1, sizeof(out), trnsciMemcpyDeviceToHost), trnsciSuccess);
    /* [1 0; 1 1]^3 = [1 0; 3 1] */
    assert_true(out[0] == 1 && out[1] == 3 && out[2] == 0 && out[3] == 1);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(out, dc2, sizeof(out), trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_true(out[0] == 1 && out[1] == 3 && out[2] == 0 && out[3] == 1);

    /* Device-to-device copy and memset. */
    assert_int_equal(trnsciMemcpy(dt1, dc1, sizeof(a), trnsciMemcpyDeviceToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(out, dt1, sizeof(out), trnsciMemcpyDefault), trnsciSuccess);
    assert_true(out[0] == 1 && out[1] == 3 && out[2] == 0 && out[3] == 1);
    assert_int_equal(trnsciMemset(dt1, 0, sizeof(a)), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(out, dt1, sizeof(out), trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_true(out[0] == 0 && out[1] == 0 && out[2] == 0 && out[3] == 0);

    trnsciFree(da);
    trnsciFree(dc1);
    trnsciFree(dc2);
    trnsciFree(dt1);
    trnsciFree(dt2);
    trnblasDestroy(h1);
    trnblasDestroy(h2);
    assert_int_equal(trnsciStreamDestroy(s1), trnsciSuccess);
    assert_int_equal(trnsciStreamDestroy(s2), trnsciSuccess);
}

/* libtrnsci is thread-safe: threads sharing the process's session, each with
 * its own stream, handle and buffers, get exact results (integer-valued data,
 * products exact in double). */
enum { THREADS = 4, THREAD_REPS = 10, TN = 24 };

static void *thread_body(void *arg) {
    const int seed = (int)(intptr_t)arg;
    trnsciStream_t s;
    trnblasHandle_t h;
    double a[TN * TN], c[TN * TN], ref[TN * TN], *da, *dc;
    const double one = 1, zero = 0;
    if (trnsciStreamCreate(&s) || trnblasCreate(&h) || trnblasSetStream(h, s) ||
        trnsciMalloc((void **)&da, sizeof(a)) || trnsciMalloc((void **)&dc, sizeof(c)))
        return (void *)1;
    intptr_t bad = 0;
    for (int r = 0; r < THREAD_REPS && !bad; r++) {
        for (int i = 0; i < TN * TN; i++)
            a[i] = (double)((i * 3 + seed * 7 + r) % 9) - 4;
        for (int j = 0; j < TN; j++)
            for (int i = 0; i < TN; i++) {
                double acc = 0;
                for (int l = 0; l < TN; l++)
                    acc += a[i + l * TN] * a[j + l * TN]; /* A·Aᵀ */
                ref[i + j * TN] = acc;
            }
        bad = trnsciMemcpy(da, a, sizeof(a), trnsciMemcpyHostToDevice) ||
              trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_T, TN, TN, TN, &one, da, TN, da, TN, &zero,
                           dc, TN) ||
              trnsciStreamSynchronize(s) ||
              trnsciMemcpy(c, dc, sizeof(c), trnsciMemcpyDeviceToHost) ||
              memcmp(c, ref, sizeof(c)) != 0;
    }
    trnsciFree(da);
    trnsciFree(dc);
    trnblasDestroy(h);
    trnsciStreamDestroy(s);
    return (void *)bad;
}

static void test_threads(void **state) {
    (void)state;
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, thread_body, (void *)(intptr_t)(i + 1)), 0);
    for (int i = 0; i < THREADS; i++) {
        void *bad;
        assert_int_equal(pthread_join(t[i], &bad), 0);
        assert_null(bad);
    }
}

static int connect_unix(void **state) {
    (void)state;
    return trnsciInit(daemon_under_test.unix_addr) == trnsciSuccess ? 0 : -1;
}

static int connect_tcp(void **state) {
    (void)state;
    return trnsciInit(daemon_under_test.tcp_addr) == trnsciSuccess ? 0 : -1;
}

static int disconnect(void **state) {
    (void)state;
    trnsciDeviceReset();
    /* Everything this process held is released by the daemon. */
    return th_wait_daemon_idle(daemon_under_test.unix_addr, 5000);
}

int main(void) {
    if (th_daemon_start(&daemon_under_test, NULL) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sgemm),       cmocka_unit_test(test_dgemm),
        cmocka_unit_test(test_cgemm),       cmocka_unit_test(test_zgemm),
        cmocka_unit_test(test_edge_shapes), cmocka_unit_test(test_streams),
        cmocka_unit_test(test_threads),
    };
    int failed =
        cmocka_run_group_tests_name("gemm over unix socket", tests, connect_unix, disconnect);
    failed += cmocka_run_group_tests_name("gemm over tcp", tests, connect_tcp, disconnect);
    const int rc = th_daemon_stop(&daemon_under_test);
    if (rc != 0) {
        fprintf(stderr, "trnscid exited with %d (expected a clean 0)\n", rc);
        failed++;
    }
    return failed ? 1 : 0;
}
