/*
 * test_solver_legacy.c — cuSOLVER's legacy routines that other trnsolver
 * routines serve (client/solver_legacy.c): each must give bitwise what the
 * routine serving it gives on the same input (those are checked against
 * LAPACK and scipy in integration_solver_x and integration_solver_eigen):
 *   - <t>syevdx / <t>heevdx = Xsyevdx (RANGE_I and RANGE_V, with vectors),
 *     meig on the host, lwork in elements;
 *   - <t>syevjBatched / <t>heevjBatched = one <t>syevj per matrix, W and
 *     info per matrix;
 *   - cuSOLVER's limits: n > 32 for the batched solver, lda < n, NULL meig.
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
#include "trnsci/trnsolver.h"

static th_daemon daemon_under_test;

/* A symmetric (Hermitian) n x n matrix of element size es (real parts
 * symmetric, imaginary parts antisymmetric, zero diagonal). */
static void *hermitian(int n, int cplx, int dbl, unsigned seed) {
    const size_t es = (size_t)(cplx ? 2 : 1) * (dbl ? 8 : 4);
    unsigned char *a = malloc((size_t)n * n * es);
    assert_non_null(a);
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= j; i++) {
            const double re =
                (double)((i * 7 + j * 13 + (int)seed) % 17) / 8.0 - 1.0 + (i == j ? 3.0 : 0.0);
            const double im = i == j ? 0.0 : (double)((i * 5 + j * 3 + (int)seed) % 11) / 8.0;
            for (int k = 0; k < (cplx ? 2 : 1); k++) {
                const double up = k == 0 ? re : im, low = k == 0 ? re : -im;
                unsigned char *pu =
                    a + (((size_t)i + (size_t)j * n) * (cplx ? 2 : 1) + k) * (es / (cplx ? 2 : 1));
                unsigned char *pl =
                    a + (((size_t)j + (size_t)i * n) * (cplx ? 2 : 1) + k) * (es / (cplx ? 2 : 1));
                if (dbl) {
                    memcpy(pu, &up, 8);
                    memcpy(pl, &low, 8);
                } else {
                    const float fu = (float)up, fl = (float)low;
                    memcpy(pu, &fu, 4);
                    memcpy(pl, &fl, 4);
                }
            }
        }
    return a;
}

/* A device copy of h, or zeros when h is NULL. */
static void *dev_copy(const void *h, size_t bytes) {
    void *d = NULL;
    assert_int_equal(trnsciMalloc(&d, bytes ? bytes : 1), trnsciSuccess);
    if (h && bytes)
        assert_int_equal(trnsciMemcpy(d, h, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    else if (bytes)
        assert_int_equal(trnsciMemset(d, 0, bytes), trnsciSuccess);
    return d;
}

static void *host_copy(const void *d, size_t bytes) {
    void *h = malloc(bytes);
    assert_non_null(h);
    assert_int_equal(trnsciMemcpy(h, d, bytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    return h;
}

/* ---- syevdx ------------------------------------------------------------------------ */

static void test_syevdx(void **state) {
    (void)state;
    enum { N = 12 };
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    for (int t = 0; t < 4; t++) {
        const int cplx = t >= 2, dbl = t & 1;
        const size_t es = (size_t)(cplx ? 2 : 1) * (dbl ? 8 : 4), rs = dbl ? 8 : 4;
        const trnsciDataType_t dt =
            cplx ? (dbl ? TRNSCI_C_64F : TRNSCI_C_32F) : (dbl ? TRNSCI_R_64F : TRNSCI_R_32F);
        const trnsciDataType_t rt = dbl ? TRNSCI_R_64F : TRNSCI_R_32F;
        for (int range = 0; range < 2; range++) {
            const trnsolverEigRange_t r = range ? TRNSOLVER_EIG_RANGE_V : TRNSOLVER_EIG_RANGE_I;
            void *a = hermitian(N, cplx, dbl, (unsigned)(t * 2 + range));
            void *a1 = dev_copy(a, (size_t)N * N * es), *a2 = dev_copy(a, (size_t)N * N * es);
            void *w1 = dev_copy(NULL, N * rs), *w2 = dev_copy(NULL, N * rs);
            int *info = NULL;
            assert_int_equal(trnsciMalloc((void **)&info, 2 * sizeof(int)), trnsciSuccess);
            const double vl = -1.0, vu = 3.5;
            const float vlf = (float)vl, vuf = (float)vu;
            const int il = 3, iu = 8;
            /* the legacy routine */
            int lwork = -1, meig = -1;
            trnsolverStatus_t st;
            switch (t) {
            case 0:
                st = trnsolverDnSsyevdx_bufferSize(h, TRNSOLVER_EIG_MODE_VECTOR, r,
                                                   TRNBLAS_FILL_MODE_LOWER, N, a1, N, vlf, vuf, il,
                                                   iu, &meig, w1, &lwork);
                break;
            case 1:
                st = trnsolverDnDsyevdx_bufferSize(h, TRNSOLVER_EIG_MODE_VECTOR, r,
                                                   TRNBLAS_FILL_MODE_LOWER, N, a1, N, vl, vu, il,
                                                   iu, &meig, w1, &lwork);
                break;
            case 2:
                st = trnsolverDnCheevdx_bufferSize(h, TRNSOLVER_EIG_MODE_VECTOR, r,
                                                   TRNBLAS_FILL_MODE_LOWER, N, a1, N, vlf, vuf, il,
                                                   iu, &meig, w1, &lwork);
                break;
            default:
                st = trnsolverDnZheevdx_bufferSize(h, TRNSOLVER_EIG_MODE_VECTOR, r,
                                                   TRNBLAS_FILL_MODE_LOWER, N, a1, N, vl, vu, il,
                                                   iu, &meig, w1, &lwork);
            }
            assert_int_equal(st, TRNSOLVER_STATUS_SUCCESS);
            assert_true(lwork >= 0);
            void *work = dev_copy(NULL, (size_t)lwork * es);
            switch (t) {
            case 0:
                st = trnsolverDnSsyevdx(h, TRNSOLVER_EIG_MODE_VECTOR, r, TRNBLAS_FILL_MODE_LOWER, N,
                                        a1, N, vlf, vuf, il, iu, &meig, w1, work, lwork, info);
                break;
            case 1:
                st = trnsolverDnDsyevdx(h, TRNSOLVER_EIG_MODE_VECTOR, r, TRNBLAS_FILL_MODE_LOWER, N,
                                        a1, N, vl, vu, il, iu, &meig, w1, work, lwork, info);
                break;
            case 2:
                st = trnsolverDnCheevdx(h, TRNSOLVER_EIG_MODE_VECTOR, r, TRNBLAS_FILL_MODE_LOWER, N,
                                        a1, N, vlf, vuf, il, iu, &meig, w1, work, lwork, info);
                break;
            default:
                st = trnsolverDnZheevdx(h, TRNSOLVER_EIG_MODE_VECTOR, r, TRNBLAS_FILL_MODE_LOWER, N,
                                        a1, N, vl, vu, il, iu, &meig, w1, work, lwork, info);
            }
            assert_int_equal(st, TRNSOLVER_STATUS_SUCCESS);
            /* the generic routine */
            size_t dev = 0, host = 0;
            int64_t m2 = -1;
            assert_int_equal(trnsolverDnXsyevdx_bufferSize(h, NULL, TRNSOLVER_EIG_MODE_VECTOR, r,
                                                           TRNBLAS_FILL_MODE_LOWER, N, dt, a2, N,
                                                           dbl ? (void *)&vl : (void *)&vlf,
                                                           dbl ? (void *)&vu : (void *)&vuf, il, iu,
                                                           &m2, rt, w2, dt, &dev, &host),
                             TRNSOLVER_STATUS_SUCCESS);
            void *work2 = dev_copy(NULL, dev);
            assert_int_equal(trnsolverDnXsyevdx(h, NULL, TRNSOLVER_EIG_MODE_VECTOR, r,
                                                TRNBLAS_FILL_MODE_LOWER, N, dt, a2, N,
                                                dbl ? (void *)&vl : (void *)&vlf,
                                                dbl ? (void *)&vu : (void *)&vuf, il, iu, &m2, rt,
                                                w2, dt, work2, dev, NULL, 0, info + 1),
                             TRNSOLVER_STATUS_SUCCESS);
            assert_int_equal(meig, (int)m2);
            assert_true(meig > 0 && meig <= N);
            if (range == 0)
                assert_int_equal(meig, iu - il + 1);
            void *ga1 = host_copy(a1, (size_t)N * N * es), *ga2 = host_copy(a2, (size_t)N * N * es);
            void *gw1 = host_copy(w1, N * rs), *gw2 = host_copy(w2, N * rs);
            int ginfo[2];
            assert_int_equal(trnsciMemcpy(ginfo, info, sizeof(ginfo), trnsciMemcpyDeviceToHost),
                             trnsciSuccess);
            assert_memory_equal(gw1, gw2, (size_t)meig * rs);
            assert_memory_equal(ga1, ga2, (size_t)N * meig * es);
            assert_int_equal(ginfo[0], 0);
            assert_int_equal(ginfo[1], 0);
            free(a), free(ga1), free(ga2), free(gw1), free(gw2);
            void *all[] = {a1, a2, w1, w2, info, work, work2};
            for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
                trnsciFree(all[i]);
        }
    }
    /* meig is required; lda < n is the generic routine's refusal. */
    assert_int_equal(trnsolverDnDsyevdx(h, TRNSOLVER_EIG_MODE_VECTOR, TRNSOLVER_EIG_RANGE_ALL,
                                        TRNBLAS_FILL_MODE_LOWER, 2, NULL, 2, 0, 0, 0, 0, NULL, NULL,
                                        NULL, 0, NULL),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    int lw = 0, m = 0;
    assert_int_equal(trnsolverDnSsyevdx_bufferSize(h, TRNSOLVER_EIG_MODE_VECTOR,
                                                   TRNSOLVER_EIG_RANGE_ALL, TRNBLAS_FILL_MODE_LOWER,
                                                   4, NULL, 2, 0, 0, 0, 0, &m, NULL, &lw),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* ---- syevjBatched ------------------------------------------------------------------- */

static void test_syevj_batched(void **state) {
    (void)state;
    enum { N = 9, BATCH = 4 };
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    syevjInfo_t params;
    assert_int_equal(trnsolverDnCreateSyevjInfo(&params), TRNSOLVER_STATUS_SUCCESS);
    for (int t = 0; t < 4; t++) {
        const int cplx = t >= 2, dbl = t & 1;
        const size_t es = (size_t)(cplx ? 2 : 1) * (dbl ? 8 : 4), rs = dbl ? 8 : 4;
        const size_t mat = (size_t)N * N * es;
        unsigned char *a = malloc(mat * BATCH);
        assert_non_null(a);
        for (int b = 0; b < BATCH; b++) {
            void *one = hermitian(N, cplx, dbl, (unsigned)(b + 5 * t));
            memcpy(a + b * mat, one, mat);
            free(one);
        }
        void *da = dev_copy(a, mat * BATCH), *dw = dev_copy(NULL, (size_t)N * BATCH * rs);
        int *info = NULL;
        assert_int_equal(trnsciMalloc((void **)&info, (BATCH + 1) * sizeof(int)), trnsciSuccess);
        int lwork = 0;
        trnsolverStatus_t st;
        switch (t) {
        case 0:
            st = trnsolverDnSsyevjBatched_bufferSize(h, TRNSOLVER_EIG_MODE_VECTOR,
                                                     TRNBLAS_FILL_MODE_UPPER, N, da, N, dw, &lwork,
                                                     params, BATCH);
            break;
        case 1:
            st = trnsolverDnDsyevjBatched_bufferSize(h, TRNSOLVER_EIG_MODE_VECTOR,
                                                     TRNBLAS_FILL_MODE_UPPER, N, da, N, dw, &lwork,
                                                     params, BATCH);
            break;
        case 2:
            st = trnsolverDnCheevjBatched_bufferSize(h, TRNSOLVER_EIG_MODE_VECTOR,
                                                     TRNBLAS_FILL_MODE_UPPER, N, da, N, dw, &lwork,
                                                     params, BATCH);
            break;
        default:
            st = trnsolverDnZheevjBatched_bufferSize(h, TRNSOLVER_EIG_MODE_VECTOR,
                                                     TRNBLAS_FILL_MODE_UPPER, N, da, N, dw, &lwork,
                                                     params, BATCH);
        }
        assert_int_equal(st, TRNSOLVER_STATUS_SUCCESS);
        void *work = dev_copy(NULL, (size_t)(lwork > 0 ? lwork : 1) * es);
        switch (t) {
        case 0:
            st = trnsolverDnSsyevjBatched(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_UPPER, N,
                                          da, N, dw, work, lwork, info, params, BATCH);
            break;
        case 1:
            st = trnsolverDnDsyevjBatched(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_UPPER, N,
                                          da, N, dw, work, lwork, info, params, BATCH);
            break;
        case 2:
            st = trnsolverDnCheevjBatched(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_UPPER, N,
                                          da, N, dw, work, lwork, info, params, BATCH);
            break;
        default:
            st = trnsolverDnZheevjBatched(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_UPPER, N,
                                          da, N, dw, work, lwork, info, params, BATCH);
        }
        assert_int_equal(st, TRNSOLVER_STATUS_SUCCESS);
        unsigned char *ga = host_copy(da, mat * BATCH), *gw = host_copy(dw, (size_t)N * BATCH * rs);
        int ginfo[BATCH + 1];
        assert_int_equal(trnsciMemcpy(ginfo, info, BATCH * sizeof(int), trnsciMemcpyDeviceToHost),
                         trnsciSuccess);
        /* each matrix alone through <t>syevj */
        for (int b = 0; b < BATCH; b++) {
            void *d1 = dev_copy(a + b * mat, mat), *w1 = dev_copy(NULL, (size_t)N * rs);
            switch (t) {
            case 0:
                st = trnsolverDnSsyevj(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_UPPER, N, d1,
                                       N, w1, work, lwork, info + BATCH, params);
                break;
            case 1:
                st = trnsolverDnDsyevj(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_UPPER, N, d1,
                                       N, w1, work, lwork, info + BATCH, params);
                break;
            case 2:
                st = trnsolverDnCheevj(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_UPPER, N, d1,
                                       N, w1, work, lwork, info + BATCH, params);
                break;
            default:
                st = trnsolverDnZheevj(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_UPPER, N, d1,
                                       N, w1, work, lwork, info + BATCH, params);
            }
            assert_int_equal(st, TRNSOLVER_STATUS_SUCCESS);
            void *ga1 = host_copy(d1, mat), *gw1 = host_copy(w1, (size_t)N * rs);
            assert_memory_equal(ga + b * mat, ga1, mat);
            assert_memory_equal(gw + (size_t)b * N * rs, gw1, (size_t)N * rs);
            assert_int_equal(ginfo[b], 0);
            free(ga1), free(gw1);
            trnsciFree(d1), trnsciFree(w1);
        }
        free(a), free(ga), free(gw);
        trnsciFree(da), trnsciFree(dw), trnsciFree(info), trnsciFree(work);
    }
    /* cuSOLVER's limits */
    int lw = 0;
    assert_int_equal(trnsolverDnSsyevjBatched_bufferSize(h, TRNSOLVER_EIG_MODE_VECTOR,
                                                         TRNBLAS_FILL_MODE_UPPER, 33, NULL, 33,
                                                         NULL, &lw, params, 2),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverDnDsyevjBatched(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_UPPER,
                                              4, NULL, 3, NULL, NULL, 0, NULL, params, 2),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverDnDestroySyevjInfo(params), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static int connect_unix(void **state) {
    (void)state;
    return trnsciInit(daemon_under_test.unix_addr) == trnsciSuccess ? 0 : -1;
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
        cmocka_unit_test(test_syevdx),
        cmocka_unit_test(test_syevj_batched),
    };
    int failed = cmocka_run_group_tests_name("solver legacy", tests, connect_unix, disconnect);
    const int rc = th_daemon_stop(&daemon_under_test);
    if (rc != 0) {
        fprintf(stderr, "trnscid exited with %d (expected a clean 0)\n", rc);
        failed++;
    }
    return failed ? 1 : 0;
}
