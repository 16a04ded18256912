/*
 * test_blas_aliases.c — the cuBLAS routines trnblas serves under another
 * name (client/blas_aliases.c), over the local socket and TCP:
 *   - <t>gemm3m, Cgemm3mEx, CgemmEx give bitwise what <t>gemm / GemmEx give
 *     (they are those routines; the GEMM's own accuracy is
 *     integration_gemm's and integration_gemm_ex's to check);
 *   - SgemmEx on half inputs gives what GemmEx with COMPUTE_32F gives;
 *   - CsyrkEx, Csyrk3mEx, CherkEx, Cherk3mEx give Csyrk's / Cherk's bits on
 *     C_32F, NOT_SUPPORTED on C_8I;
 *   - <t>trttp / <t>tpttr against packed storage built here from its
 *     definition (column j of the lower triangle at sum_{i<j} (n - i), of
 *     the upper at j(j+1)/2): exact copies, the other triangle of A
 *     untouched, for every element size, both triangles, lda > n;
 *   - bad uplo, n and lda: INVALID_VALUE.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"
#include "trnsci/trn_fp16.h"
#include "trnsci/trnblas.h"

static th_daemon daemon_under_test;

static void fill(unsigned char *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)((i * 131u + seed * 17u + (i >> 8)) & 0xffu);
}

/* n floats in [-1, 1), exactly representable. */
static void fill_floats(float *x, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++)
        x[i] = (float)((int)((i * 37u + seed * 101u) % 64u) - 32) / 32.0f;
}

static void *to_device(const void *host, size_t bytes) {
    void *d = NULL;
    assert_int_equal(trnsciMalloc(&d, bytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(d, host, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    return d;
}

static void *from_device(const void *dev, size_t bytes) {
    void *h = malloc(bytes);
    assert_non_null(h);
    assert_int_equal(trnsciMemcpy(h, dev, bytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    return h;
}

/* ---- the GEMMs -------------------------------------------------------------------- */

static void test_gemm_aliases(void **state) {
    (void)state;
    enum { M = 37, N = 29, K = 41 };
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    float ha[2 * M * K], hb[2 * K * N], hc[2 * M * N];
    fill_floats(ha, 2 * M * K, 1);
    fill_floats(hb, 2 * K * N, 2);
    fill_floats(hc, 2 * M * N, 3);
    void *a = to_device(ha, sizeof(ha)), *b = to_device(hb, sizeof(hb));
    void *c1 = to_device(hc, sizeof(hc)), *c2 = to_device(hc, sizeof(hc));
    const trnComplex alpha = {0.75f, -0.5f}, beta = {0.25f, 1.0f};
    /* Cgemm3m = Cgemm */
    assert_int_equal(
        trnblasCgemm3m(h, TRNBLAS_OP_N, TRNBLAS_OP_T, M, N, K, &alpha, a, M, b, N, &beta, c1, M),
        TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(
        trnblasCgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_T, M, N, K, &alpha, a, M, b, N, &beta, c2, M),
        TRNBLAS_STATUS_SUCCESS);
    float *r1 = from_device(c1, sizeof(hc)), *r2 = from_device(c2, sizeof(hc));
    assert_memory_equal(r1, r2, sizeof(hc));
    free(r1), free(r2);
    /* CgemmEx and Cgemm3mEx = GemmEx with COMPUTE_32F */
    assert_int_equal(trnblasCgemmEx(h, TRNBLAS_OP_C, TRNBLAS_OP_N, M, N, K, &alpha, a, TRNSCI_C_32F,
                                    K, b, TRNSCI_C_32F, K, &beta, c1, TRNSCI_C_32F, M),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasCgemm3mEx(h, TRNBLAS_OP_C, TRNBLAS_OP_N, M, N, K, &alpha, a,
                                      TRNSCI_C_32F, K, b, TRNSCI_C_32F, K, &beta, c2, TRNSCI_C_32F,
                                      M),
                     TRNBLAS_STATUS_SUCCESS);
    r1 = from_device(c1, sizeof(hc));
    r2 = from_device(c2, sizeof(hc));
    assert_memory_equal(r1, r2, sizeof(hc));
    free(r1), free(r2);
    /* Zgemm3m = Zgemm */
    double za[2 * 9 * 7], zb[2 * 7 * 5], zc[2 * 9 * 5];
    for (size_t i = 0; i < sizeof(za) / 8; i++)
        za[i] = (double)(int)(i % 13) - 6.5;
    for (size_t i = 0; i < sizeof(zb) / 8; i++)
        zb[i] = (double)(int)(i % 7) * 0.25;
    for (size_t i = 0; i < sizeof(zc) / 8; i++)
        zc[i] = 1.0 / (double)(i + 1);
    void *dza = to_device(za, sizeof(za)), *dzb = to_device(zb, sizeof(zb));
    void *dz1 = to_device(zc, sizeof(zc)), *dz2 = to_device(zc, sizeof(zc));
    const trnDoubleComplex zal = {1.5, 0.5}, zbe = {-1.0, 0.0};
    assert_int_equal(
        trnblasZgemm3m(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 9, 5, 7, &zal, dza, 9, dzb, 7, &zbe, dz1, 9),
        TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(
        trnblasZgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 9, 5, 7, &zal, dza, 9, dzb, 7, &zbe, dz2, 9),
        TRNBLAS_STATUS_SUCCESS);
    r1 = from_device(dz1, sizeof(zc));
    r2 = from_device(dz2, sizeof(zc));
    assert_memory_equal(r1, r2, sizeof(zc));
    free(r1), free(r2);
    /* SgemmEx on half inputs = GemmEx, COMPUTE_32F, float C */
    __half hha[M * K], hhb[K * N];
    for (int i = 0; i < M * K; i++)
        hha[i] = __float2half(ha[i]);
    for (int i = 0; i < K * N; i++)
        hhb[i] = __float2half(hb[i]);
    void *dha = to_device(hha, sizeof(hha)), *dhb = to_device(hhb, sizeof(hhb));
    const float one = 1.0f, zero = 0.0f;
    assert_int_equal(trnblasSgemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, M, N, K, &one, dha, TRNSCI_R_16F,
                                    M, dhb, TRNSCI_R_16F, K, &zero, c1, TRNSCI_R_32F, M),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, M, N, K, &one, dha, TRNSCI_R_16F,
                                   M, dhb, TRNSCI_R_16F, K, &zero, c2, TRNSCI_R_32F, M,
                                   TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_AUTOTUNE),
                     TRNBLAS_STATUS_SUCCESS);
    r1 = from_device(c1, (size_t)M * N * 4);
    r2 = from_device(c2, (size_t)M * N * 4);
    assert_memory_equal(r1, r2, (size_t)M * N * 4);
    free(r1), free(r2);
    void *all[] = {a, b, c1, c2, dza, dzb, dz1, dz2, dha, dhb};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        assert_int_equal(trnsciFree(all[i]), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

static void test_rank_k_aliases(void **state) {
    (void)state;
    enum { N = 23, K = 17 };
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    float ha[2 * N * K], hc[2 * N * N];
    fill_floats(ha, 2 * N * K, 4);
    fill_floats(hc, 2 * N * N, 5);
    void *a = to_device(ha, sizeof(ha));
    const trnComplex alpha = {0.5f, 0.25f}, beta = {1.0f, -0.5f};
    const float ralpha = 0.75f, rbeta = -0.25f;
    for (int routine = 0; routine < 4; routine++) {
        void *c1 = to_device(hc, sizeof(hc)), *c2 = to_device(hc, sizeof(hc));
        trnblasStatus_t st;
        if (routine < 2) {
            st = (routine == 0 ? trnblasCsyrkEx : trnblasCsyrk3mEx)(
                h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, N, K, &alpha, a, TRNSCI_C_32F, N, &beta,
                c1, TRNSCI_C_32F, N);
            assert_int_equal(trnblasCsyrk(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, N, K, &alpha, a,
                                          N, &beta, c2, N),
                             TRNBLAS_STATUS_SUCCESS);
        } else {
            st = (routine == 2 ? trnblasCherkEx : trnblasCherk3mEx)(
                h, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_C, N, K, &ralpha, a, TRNSCI_C_32F, K, &rbeta,
                c1, TRNSCI_C_32F, N);
            assert_int_equal(trnblasCherk(h, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_C, N, K, &ralpha,
                                          a, K, &rbeta, c2, N),
                             TRNBLAS_STATUS_SUCCESS);
        }
        assert_int_equal(st, TRNBLAS_STATUS_SUCCESS);
        float *r1 = from_device(c1, sizeof(hc)), *r2 = from_device(c2, sizeof(hc));
        assert_memory_equal(r1, r2, sizeof(hc));
        free(r1), free(r2);
        trnsciFree(c1);
        trnsciFree(c2);
    }
    /* cuBLAS's C_8I input rows are not provided. */
    assert_int_equal(trnblasCsyrkEx(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, N, K, &alpha, a,
                                    TRNSCI_C_8I, N, &beta, a, TRNSCI_C_32F, N),
                     TRNBLAS_STATUS_NOT_SUPPORTED);
    assert_int_equal(trnblasCherk3mEx(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, N, K, &ralpha, a,
                                      TRNSCI_C_8I, N, &rbeta, a, TRNSCI_C_32F, N),
                     TRNBLAS_STATUS_NOT_SUPPORTED);
    trnsciFree(a);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* ---- packed <-> full ---------------------------------------------------------------- */

/* <t>trttp / <t>tpttr for type t: 0 S, 1 D, 2 C, 3 Z. */
static const size_t PACKED_ES[] = {4, 8, 8, 16};

static trnblasStatus_t trttp(int t, trnblasHandle_t h, trnblasFillMode_t uplo, int n, const void *a,
                             int lda, void *ap) {
    switch (t) {
    case 0: return trnblasStrttp(h, uplo, n, a, lda, ap);
    case 1: return trnblasDtrttp(h, uplo, n, a, lda, ap);
    case 2: return trnblasCtrttp(h, uplo, n, a, lda, ap);
    default: return trnblasZtrttp(h, uplo, n, a, lda, ap);
    }
}

static trnblasStatus_t tpttr(int t, trnblasHandle_t h, trnblasFillMode_t uplo, int n,
                             const void *ap, void *a, int lda) {
    switch (t) {
    case 0: return trnblasStpttr(h, uplo, n, ap, a, lda);
    case 1: return trnblasDtpttr(h, uplo, n, ap, a, lda);
    case 2: return trnblasCtpttr(h, uplo, n, ap, a, lda);
    default: return trnblasZtpttr(h, uplo, n, ap, a, lda);
    }
}

/* Element (i, j) of the uplo triangle in packed storage, from its
 * definition (reference BLAS's). */
static size_t packed_index(int lower, int n, int i, int j) {
    return lower ? (size_t)i - (size_t)j + (size_t)j * (size_t)n - (size_t)j * (size_t)(j - 1) / 2
                 : (size_t)i + (size_t)j * (size_t)(j + 1) / 2;
}

static void test_packed(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    const int n = 13, lda = 16;
    for (int t = 0; t < 4; t++)
        for (int lower = 0; lower < 2; lower++) {
            const size_t es = PACKED_ES[t], full = (size_t)lda * n * es;
            const size_t packed = (size_t)n * (n + 1) / 2 * es;
            unsigned char *ha = malloc(full), *want = malloc(packed), *hfull = malloc(full);
            assert_true(ha && want && hfull);
            fill(ha, full, (unsigned)(t * 2 + lower));
            for (int j = 0; j < n; j++)
                for (int i = lower ? j : 0; i < (lower ? n : j + 1); i++)
                    memcpy(want + packed_index(lower, n, i, j) * es,
                           ha + ((size_t)i + (size_t)j * lda) * es, es);
            const trnblasFillMode_t uplo =
                lower ? TRNBLAS_FILL_MODE_LOWER : TRNBLAS_FILL_MODE_UPPER;
            void *da = to_device(ha, full), *dp = NULL;
            assert_int_equal(trnsciMalloc(&dp, packed), trnsciSuccess);
            assert_int_equal(trttp(t, h, uplo, n, da, lda, dp), TRNBLAS_STATUS_SUCCESS);
            unsigned char *got = from_device(dp, packed);
            assert_memory_equal(got, want, packed);
            free(got);
            /* Back into a matrix of other bytes: the triangle arrives, the
             * rest (the other triangle, the rows past n) stays. */
            fill(hfull, full, 99);
            void *db = to_device(hfull, full);
            assert_int_equal(tpttr(t, h, uplo, n, dp, db, lda), TRNBLAS_STATUS_SUCCESS);
            got = from_device(db, full);
            for (int j = 0; j < n; j++)
                for (int i = 0; i < lda; i++) {
                    const size_t at = ((size_t)i + (size_t)j * lda) * es;
                    const int in = i < n && (lower ? i >= j : i <= j);
                    if (memcmp(got + at, in ? ha + at : hfull + at, es) != 0)
                        fail_msg("tpttr es %zu %s: element (%d, %d) is wrong", es,
                                 lower ? "lower" : "upper", i, j);
                }
            free(got);
            free(ha), free(want), free(hfull);
            trnsciFree(da), trnsciFree(db), trnsciFree(dp);
        }
    /* n = 0 does nothing; bad arguments are refused. */
    float x[4];
    void *dx = to_device(x, sizeof(x));
    assert_int_equal(trnblasStrttp(h, TRNBLAS_FILL_MODE_LOWER, 0, dx, 1, dx),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasStrttp(h, (trnblasFillMode_t)7, 2, dx, 2, dx),
                     TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasStpttr(h, TRNBLAS_FILL_MODE_UPPER, -1, dx, dx, 1),
                     TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasDtpttr(h, TRNBLAS_FILL_MODE_UPPER, 3, (double *)dx, (double *)dx, 2),
                     TRNBLAS_STATUS_INVALID_VALUE);
    trnsciFree(dx);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
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
    return th_wait_daemon_idle(daemon_under_test.unix_addr, 5000);
}

int main(void) {
    if (th_daemon_start(&daemon_under_test, NULL) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemm_aliases),
        cmocka_unit_test(test_rank_k_aliases),
        cmocka_unit_test(test_packed),
    };
    int failed = cmocka_run_group_tests_name("blas aliases over unix socket", tests, connect_unix,
                                             disconnect);
    failed += cmocka_run_group_tests_name("blas aliases over tcp", tests, connect_tcp, disconnect);
    const int rc = th_daemon_stop(&daemon_under_test);
    if (rc != 0) {
        fprintf(stderr, "trnscid exited with %d (expected a clean 0)\n", rc);
        failed++;
    }
    return failed ? 1 : 0;
}
