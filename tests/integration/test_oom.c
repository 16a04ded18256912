/*
 * test_oom.c — kernels that cannot allocate their workspace, one family at
 * a time, on a daemon whose allocations over 1 MiB fail: in the Release
 * build a preloaded malloc (malloc_limit.c: malloc, calloc, realloc and
 * the aligned allocators), in the sanitizer builds the sanitizer's own
 * limit (max_allocation_size_mb=1 with allocator_may_return_null=1: a
 * preloaded malloc cannot come before the sanitizer's runtime), which also
 * checks that no failure path leaks (the daemon's exit at the end).
 *
 * Buffers are shared memory, not malloc, so each op below has buffers of
 * any size while its scratch, chosen to exceed 1 MiB in one allocation,
 * fails:
 *  - trnblas: a BF16 GemmEx (the low-precision pieces of A and B);
 *  - trnsparse: Csr2cscEx2 with 200000 columns (column starts), and
 *    Xcsr2bsrNnz with a host nnz pointer, whose synchronous status is
 *    TRNSPARSE_STATUS_ALLOC_FAILED;
 *  - trnsolver: syevj of n = 600 (its working copy of A; the synchronous
 *    trnsolverDnXsyevjGetResidual says TRNSOLVER_STATUS_ALLOC_FAILED) and
 *    GMRES(30) on a sparse operator of n = 20000 (its Krylov basis; x and
 *    the iteration record untouched);
 *  - trntensor: a contraction whose A must be packed ("amc,acn->mn"),
 *    AoToMo and Mp2Energy (their scratch blocks);
 *  - trnrand: Poisson with lambda = 1e8 (its table);
 *  - trnfft: a Z2Z transform of 2^17 points (its planning scratch), twice:
 *    a plan build that ran out of memory is not remembered as a failure.
 * Each fails at the next synchronize with trnsciErrorMemoryAllocation
 * (exactly, once) and a message with "out of memory" and what could not be
 * allocated; then a small op of the same family succeeds with the right
 * result. Bad input to a kernel that allocates still fails as
 * trnsciErrorInvalidValue. At the end no session, buffer or op is held, the
 * daemon logged the failures and exits cleanly.
 */
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

#include "harness.h"
#include "trnsci/trnblas.h"
#include "trnsci/trnfft.h"
#include "trnsci/trnrand.h"
#include "trnsci/trnsolver.h"
#include "trnsci/trnsparse.h"
#include "trnsci/trntensor_chem.h"

#define LIMIT_BYTES (1u << 20)

static th_daemon dmn;

/* ---- helpers ------------------------------------------------------------------ */

static void *dev_alloc(size_t bytes) {
    void *p = NULL;
    assert_int_equal(trnsciMalloc(&p, bytes), trnsciSuccess);
    assert_int_equal(trnsciMemset(p, 0, bytes), trnsciSuccess);
    return p;
}

static void *dev_from(const void *host, size_t bytes) {
    void *p = dev_alloc(bytes);
    assert_int_equal(trnsciMemcpy(p, host, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    return p;
}

static void to_host(void *host, const void *dev, size_t bytes) {
    assert_int_equal(trnsciMemcpy(host, dev, bytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
}

/* The last call's message names out of memory and `what`. */
static void expect_message(const char *what) {
    const char *m = trnsciGetLastErrorMessage();
    if (!m || !strstr(m, "out of memory") || !strstr(m, what))
        fail_msg("expected an out-of-memory message naming \"%s\", got \"%s\"", what,
                 m ? m : "(null)");
}

/* The op queued last failed for memory: the next synchronize says so,
 * exactly once. */
static void expect_oom(const char *what) {
    assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorMemoryAllocation);
    expect_message(what);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
}

/* ---- trnblas -------------------------------------------------------------------- */

static void test_blas(void **state) {
    (void)state;
    enum { N = 600 };
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    float *a = dev_alloc(sizeof(float) * N * N), *c = dev_alloc(sizeof(float) * N * N);
    const float one = 1, zero = 0;
    /* Each shard rounds all of A and its columns of B: > 2 MB of pieces. */
    assert_int_equal(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, N, N, N, &one, a, TRNSCI_R_32F, N,
                                   a, TRNSCI_R_32F, N, &zero, c, TRNSCI_R_32F, N,
                                   TRNBLAS_COMPUTE_32F_FAST_16BF, TRNBLAS_GEMM_DEFAULT),
                     TRNBLAS_STATUS_SUCCESS);
    expect_oom("low-precision pieces");
    for (int r = 0; r < 2; r++)
        assert_int_equal(th_sgemm_round(h, r), 0);
    assert_int_equal(trnsciFree(a), trnsciSuccess);
    assert_int_equal(trnsciFree(c), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* ---- trnsparse ------------------------------------------------------------------ */

/* A 4 x n CSR matrix with a_ii = i + 1 (32-bit indices, base 0). */
typedef struct csr4 {
    int *off, *idx;
    float *val;
} csr4;

static csr4 csr4_make(int bad_col) {
    const int off[5] = {0, 1, 2, 3, 4}, idx[4] = {0, 1, bad_col ? 1 << 30 : 2, 3};
    const float val[4] = {1, 2, 3, 4};
    csr4 m = {dev_from(off, sizeof(off)), dev_from(idx, sizeof(idx)), dev_from(val, sizeof(val))};
    return m;
}

static void csr4_free(csr4 *m) {
    trnsciFree(m->off);
    trnsciFree(m->idx);
    trnsciFree(m->val);
}

static trnsparseStatus_t csr2csc(trnsparseHandle_t h, const csr4 *a, int n, int *cptr, int *rind,
                                 float *cval) {
    return trnsparseCsr2cscEx2(h, 4, n, 4, a->val, a->off, a->idx, cval, cptr, rind, TRNSCI_R_32F,
                               TRNSPARSE_ACTION_NUMERIC, TRNSPARSE_INDEX_BASE_ZERO,
                               TRNSPARSE_CSR2CSC_ALG1, NULL);
}

static void test_sparse(void **state) {
    (void)state;
    enum { WIDE = 200000 }; /* start and cursor: 1.6 MB each */
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    csr4 a = csr4_make(0);
    int *cptr = dev_alloc(sizeof(int) * (WIDE + 1)), *rind = dev_alloc(sizeof(int) * 4);
    float *cval = dev_alloc(sizeof(float) * 4);
    assert_int_equal(csr2csc(h, &a, WIDE, cptr, rind, cval), TRNSPARSE_STATUS_SUCCESS);
    expect_oom("column starts");

    /* A call that waits reports it as its own status. */
    trnsparseMatDescr_t da, dc;
    assert_int_equal(trnsparseCreateMatDescr(&da), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateMatDescr(&dc), TRNSPARSE_STATUS_SUCCESS);
    int *bptr = dev_alloc(sizeof(int) * 5), nnzb = -1;
    assert_int_equal(trnsparseXcsr2bsrNnz(h, TRNSPARSE_DIRECTION_ROW, 4, WIDE, da, a.off, a.idx, 1,
                                          dc, bptr, &nnzb),
                     TRNSPARSE_STATUS_ALLOC_FAILED);
    expect_message("block-column marks");
    assert_int_equal(nnzb, -1);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);

    /* A small conversion is exact; bad structure is still bad input. */
    assert_int_equal(csr2csc(h, &a, 4, cptr, rind, cval), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    int got_ptr[5], got_ind[4];
    float got_val[4];
    to_host(got_ptr, cptr, sizeof(got_ptr));
    to_host(got_ind, rind, sizeof(got_ind));
    to_host(got_val, cval, sizeof(got_val));
    for (int j = 0; j < 4; j++) {
        assert_int_equal(got_ptr[j], j);
        assert_int_equal(got_ind[j], j);
        assert_true(got_val[j] == (float)(j + 1));
    }
    assert_int_equal(got_ptr[4], 4);
    csr4 bad = csr4_make(1);
    assert_int_equal(csr2csc(h, &bad, 4, cptr, rind, cval), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorInvalidValue);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "csrColInd[2]"));
    csr4_free(&bad);

    trnsparseDestroyMatDescr(da);
    trnsparseDestroyMatDescr(dc);
    trnsciFree(bptr);
    trnsciFree(cptr);
    trnsciFree(rind);
    trnsciFree(cval);
    csr4_free(&a);
    assert_int_equal(trnsparseDestroy(h), TRNSPARSE_STATUS_SUCCESS);
}

/* ---- trnsolver ------------------------------------------------------------------ */

/* syevj of diag(d) (n x n, float): returns the device A. */
static float *diag_matrix(int n, const float *d) {
    float *h = calloc((size_t)n * (size_t)n, sizeof(float));
    assert_non_null(h);
    for (int i = 0; i < n; i++)
        h[(size_t)i * (size_t)n + (size_t)i] = d ? d[i] : (float)(i + 1);
    float *a = dev_from(h, sizeof(float) * (size_t)n * (size_t)n);
    free(h);
    return a;
}

static void test_syevj(void **state) {
    (void)state;
    enum { BIG = 600 }; /* the working copies of A (blocked, padded to 624): 3.5 MB */
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    syevjInfo_t params;
    assert_int_equal(trnsolverDnCreateSyevjInfo(&params), TRNSOLVER_STATUS_SUCCESS);
    float *a = diag_matrix(BIG, NULL), *w = dev_alloc(sizeof(float) * BIG);
    int *info = dev_alloc(sizeof(int));
    assert_int_equal(trnsciMemset(info, 0x7f, sizeof(int)), trnsciSuccess);
    assert_int_equal(trnsolverDnSsyevj(h, TRNSOLVER_EIG_MODE_NOVECTOR, TRNBLAS_FILL_MODE_LOWER, BIG,
                                       a, BIG, w, NULL, 0, info, params),
                     TRNSOLVER_STATUS_SUCCESS);
    /* GetResidual waits for the op: the failure is its status. */
    double res = -1.0;
    assert_int_equal(trnsolverDnXsyevjGetResidual(h, params, &res), TRNSOLVER_STATUS_ALLOC_FAILED);
    expect_message("syevj's working copy of A");
    assert_true(res == -1.0);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    int got_info;
    to_host(&got_info, info, sizeof(int));
    assert_int_equal(got_info, 0x7f7f7f7f); /* not written */

    const float d3[3] = {3, 1, 2};
    float *a3 = diag_matrix(3, d3);
    assert_int_equal(trnsolverDnSsyevj(h, TRNSOLVER_EIG_MODE_NOVECTOR, TRNBLAS_FILL_MODE_LOWER, 3,
                                       a3, 3, w, NULL, 0, info, params),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    float got_w[3];
    to_host(got_w, w, sizeof(got_w));
    to_host(&got_info, info, sizeof(int));
    assert_int_equal(got_info, 0);
    for (int i = 0; i < 3; i++)
        assert_true(got_w[i] == (float)(i + 1));
    trnsciFree(a3);
    trnsciFree(a);
    trnsciFree(w);
    trnsciFree(info);
    trnsolverDnDestroySyevjInfo(params);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* The n x n tridiagonal (-1, 2, -1) in CSR on the device. */
typedef struct tridiag {
    int *off, *idx;
    double *val;
    trnsparseSpMatDescr_t descr;
} tridiag;

static tridiag tridiag_make(int n) {
    int *off = malloc(sizeof(int) * (size_t)(n + 1)), *idx = malloc(sizeof(int) * (size_t)3 * n);
    double *val = malloc(sizeof(double) * (size_t)3 * n);
    assert_true(off && idx && val);
    int k = 0;
    for (int i = 0; i < n; i++) {
        off[i] = k;
        for (int j = i - 1; j <= i + 1; j++)
            if (j >= 0 && j < n) {
                idx[k] = j;
                val[k++] = i == j ? 2.0 : -1.0;
            }
    }
    off[n] = k;
    tridiag t = {dev_from(off, sizeof(int) * (size_t)(n + 1)),
                 dev_from(idx, sizeof(int) * (size_t)k), dev_from(val, sizeof(double) * (size_t)k),
                 NULL};
    free(off);
    free(idx);
    free(val);
    assert_int_equal(trnsparseCreateCsr(&t.descr, n, n, k, t.off, t.idx, t.val, TRNSPARSE_INDEX_32I,
                                        TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO,
                                        TRNSCI_R_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    return t;
}

static void tridiag_free(tridiag *t) {
    trnsparseDestroySpMat(t->descr);
    trnsciFree(t->off);
    trnsciFree(t->idx);
    trnsciFree(t->val);
}

/* GMRES on tridiag(n) with b = 1, x = 0; the record in *r. */
static void gmres(trnsolverDnHandle_t h, int n, trnsolverIterResult_t *r, double *x_first) {
    tridiag t = tridiag_make(n);
    double *b = malloc(sizeof(double) * (size_t)n);
    assert_non_null(b);
    for (int i = 0; i < n; i++)
        b[i] = 1.0;
    double *db = dev_from(b, sizeof(double) * (size_t)n),
           *dx = dev_alloc(sizeof(double) * (size_t)n);
    free(b);
    trnsolverIterResult_t *dr = dev_alloc(sizeof(*dr));
    assert_int_equal(trnsciMemset(dr, 0x7f, sizeof(*dr)), trnsciSuccess);
    trnsolverOperator_t op;
    assert_int_equal(trnsolverCreateSparseOperator(&op, t.descr), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDgmres(h, op, db, dx, NULL, dr), TRNSOLVER_STATUS_SUCCESS);
    const trnsciError_t e = trnsciDeviceSynchronize();
    if (e == trnsciErrorMemoryAllocation) {
        expect_message("GMRES(30) basis");
        assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    } else {
        assert_int_equal(e, trnsciSuccess);
    }
    to_host(r, dr, sizeof(*r));
    to_host(x_first, dx, sizeof(double));
    assert_int_equal(trnsolverDestroyOperator(op), TRNSOLVER_STATUS_SUCCESS);
    trnsciFree(db);
    trnsciFree(dx);
    trnsciFree(dr);
    tridiag_free(&t);
}

static void test_krylov(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    /* n = 20000: the operator's copy (under 1 MiB per array) is made, the
     * GMRES(30) basis (33 n doubles, 5.3 MB) is not. */
    trnsolverIterResult_t r;
    double x0 = -1.0;
    gmres(h, 20000, &r, &x0);
    assert_int_equal(r.iterations, 0x7f7f7f7f); /* the record is not written */
    assert_true(x0 == 0.0);                     /* nor x */
    /* A small one converges: x_1 = n / 2 for b = 1 (x_i = i (n + 1 - i) / 2). */
    gmres(h, 50, &r, &x0);
    assert_int_equal(r.status, TRNSOLVER_ITER_CONVERGED);
    assert_true(fabs(x0 - 25.0) < 1e-6);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

/* ---- trntensor ------------------------------------------------------------------ */

static trntensorTensorDescriptor_t tdesc(trntensorHandle_t h, uint32_t n, const int64_t *ext,
                                         trnsciDataType_t t) {
    trntensorTensorDescriptor_t d;
    assert_int_equal(trntensorCreateTensorDescriptor(h, &d, n, ext, NULL, t, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    return d;
}

static void test_contraction(void **state) {
    (void)state;
    trntensorHandle_t h;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    /* D[m,n] = sum_{a,c} A[a,m,c] B[a,c,n]: A's summed modes a and c do not
     * fuse (m lies between them), so A is packed: m x (a c) floats, 2 MiB. */
    const int64_t ea[3] = {64, 128, 64}, eb[3] = {64, 64, 16}, ed[2] = {128, 16};
    trntensorTensorDescriptor_t da = tdesc(h, 3, ea, TRNSCI_R_32F),
                                db = tdesc(h, 3, eb, TRNSCI_R_32F),
                                dd = tdesc(h, 2, ed, TRNSCI_R_32F);
    float *a = dev_alloc(sizeof(float) * 64 * 128 * 64),
          *b = dev_alloc(sizeof(float) * 64 * 64 * 16), *d = dev_alloc(sizeof(float) * 128 * 16);
    const float one = 1, zero = 0;
    assert_int_equal(trntensorEinsum(h, "amc,acn->mn", &one, da, a, db, b, &zero, dd, d,
                                     TRNTENSOR_COMPUTE_DESC_32F),
                     TRNTENSOR_STATUS_SUCCESS);
    expect_oom("packed operands");
    trntensorDestroyTensorDescriptor(da);
    trntensorDestroyTensorDescriptor(db);
    trntensorDestroyTensorDescriptor(dd);
    trnsciFree(a);
    trnsciFree(b);
    trnsciFree(d);

    /* A small product is exact. */
    const int64_t e2[2] = {2, 2};
    trntensorTensorDescriptor_t d2 = tdesc(h, 2, e2, TRNSCI_R_32F);
    const float ha[4] = {1, 2, 3, 4}, hb[4] = {5, 6, 7, 8}; /* column-major */
    float *sa = dev_from(ha, sizeof(ha)), *sb = dev_from(hb, sizeof(hb)), *sc = dev_alloc(16);
    assert_int_equal(trntensorEinsum(h, "ik,kj->ij", &one, d2, sa, d2, sb, &zero, d2, sc,
                                     TRNTENSOR_COMPUTE_DESC_32F),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    float got[4];
    to_host(got, sc, sizeof(got));
    const float want[4] = {23, 34, 31, 46};
    for (int i = 0; i < 4; i++)
        assert_true(got[i] == want[i]);
    trntensorDestroyTensorDescriptor(d2);
    trnsciFree(sa);
    trnsciFree(sb);
    trnsciFree(sc);
    assert_int_equal(trntensorDestroy(h), TRNTENSOR_STATUS_SUCCESS);
}

static void test_chem(void **state) {
    (void)state;
    trntensorHandle_t h;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    /* AoToMo: the half-transformed block is nbf p_block nocc doubles
     * (48 x 128 x 32: 1.5 MiB). */
    {
        enum { NBF = 48, NOCC = 32, NVIR = 8, NAUX = 128 };
        double *co = dev_alloc(sizeof(double) * NBF * NOCC),
               *cv = dev_alloc(sizeof(double) * NBF * NVIR),
               *l = dev_alloc(sizeof(double) * NBF * NBF * NAUX),
               *b = dev_alloc(sizeof(double) * NOCC * NVIR * NAUX);
        assert_int_equal(
            trntensorAoToMo(h, TRNSCI_R_64F, NBF, NOCC, NVIR, NAUX, co, NBF, cv, NBF, l, b),
            TRNTENSOR_STATUS_SUCCESS);
        expect_oom("aoToMo's half-transformed block");
        trnsciFree(co);
        trnsciFree(cv);
        trnsciFree(l);
        trnsciFree(b);
    }
    /* Mp2Energy: the integrals of a block of pairs, nvir^2 j_block doubles
     * (200^2 x 8: 2.5 MB). */
    {
        enum { NOCC = 8, NVIR = 200, NAUX = 16 };
        double eo[NOCC], ev[NVIR];
        for (int i = 0; i < NOCC; i++)
            eo[i] = -1.0 - i;
        for (int a = 0; a < NVIR; a++)
            ev[a] = 1.0 + a;
        double *b = dev_alloc(sizeof(double) * NOCC * NVIR * NAUX), *deo = dev_from(eo, sizeof(eo)),
               *dev = dev_from(ev, sizeof(ev)), *e = dev_alloc(sizeof(double));
        assert_int_equal(trntensorMp2Energy(h, TRNSCI_R_64F, NOCC, NVIR, NAUX, b, deo, dev, e),
                         TRNTENSOR_STATUS_SUCCESS);
        expect_oom("mp2Energy's integral block");
        trnsciFree(b);
        trnsciFree(deo);
        trnsciFree(dev);
        trnsciFree(e);
    }
    /* One of each, 1 x 1 x 1: B = Cocc Cvir (P|mu nu) = 2 * 3 * 5; E = B^4 (2 - 1) / (2 e_i - 2
     * e_a) with B = 1, e_i = -1, e_a = 1: -0.25. */
    {
        const double co = 2, cv = 3, l = 5, one = 1, eo = -1, ev = 1;
        double *dco = dev_from(&co, 8), *dcv = dev_from(&cv, 8), *dl = dev_from(&l, 8),
               *db = dev_alloc(8), *d1 = dev_from(&one, 8), *deo = dev_from(&eo, 8),
               *dev = dev_from(&ev, 8), *de = dev_alloc(8);
        assert_int_equal(trntensorAoToMo(h, TRNSCI_R_64F, 1, 1, 1, 1, dco, 1, dcv, 1, dl, db),
                         TRNTENSOR_STATUS_SUCCESS);
        assert_int_equal(trntensorMp2Energy(h, TRNSCI_R_64F, 1, 1, 1, d1, deo, dev, de),
                         TRNTENSOR_STATUS_SUCCESS);
        assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
        double got_b, got_e;
        to_host(&got_b, db, 8);
        to_host(&got_e, de, 8);
        assert_true(got_b == 30.0);
        assert_true(got_e == -0.25);
        trnsciFree(dco);
        trnsciFree(dcv);
        trnsciFree(dl);
        trnsciFree(db);
        trnsciFree(d1);
        trnsciFree(deo);
        trnsciFree(dev);
        trnsciFree(de);
    }
    assert_int_equal(trntensorDestroy(h), TRNTENSOR_STATUS_SUCCESS);
}

/* ---- trnrand -------------------------------------------------------------------- */

static void test_poisson(void **state) {
    (void)state;
    enum { N = 1000 };
    trnrandGenerator_t g;
    assert_int_equal(trnrandCreateGenerator(&g, TRNRAND_RNG_PSEUDO_PHILOX4_32_10),
                     TRNRAND_STATUS_SUCCESS);
    unsigned *out = dev_alloc(sizeof(unsigned) * N);
    /* lambda 1e8: the table spans about +-10.5 sigma, 2.5 MB of doubles. */
    assert_int_equal(trnrandGeneratePoisson(g, out, N, 1e8), TRNRAND_STATUS_SUCCESS);
    expect_oom("Poisson table");
    assert_int_equal(trnrandGeneratePoisson(g, out, N, 4.0), TRNRAND_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    unsigned got[N];
    to_host(got, out, sizeof(got));
    double mean = 0.0;
    for (int i = 0; i < N; i++) {
        assert_true(got[i] < 40);
        mean += got[i];
    }
    mean /= N;
    assert_true(mean > 3.6 && mean < 4.4); /* sd of the mean: 0.063 */
    trnsciFree(out);
    assert_int_equal(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
}

/* ---- trnfft --------------------------------------------------------------------- */

static void test_fft(void **state) {
    (void)state;
    /* 2 MiB of planning scratch on each side; under 2^18 points, so one
     * plan of the whole transform (a larger one is split into steps whose
     * smaller plans fit, ops/fft_step.h). */
    enum { BIG = 1 << 17 };
    trnfftHandle p;
    assert_int_equal(trnfftPlan1d(&p, BIG, TRNFFT_Z2Z, 1), TRNFFT_SUCCESS);
    trnfftDoubleComplex *zin = dev_alloc(sizeof(trnfftDoubleComplex) * BIG),
                        *zout = dev_alloc(sizeof(trnfftDoubleComplex) * BIG);
    /* Twice: the failed build is tried again, and fails for memory again
     * (not as a remembered planning failure). */
    for (int round = 0; round < 2; round++) {
        assert_int_equal(trnfftExecZ2Z(p, zin, zout, TRNFFT_FORWARD), TRNFFT_SUCCESS);
        expect_oom("scratch to plan");
    }
    trnfftComplex *in = (trnfftComplex *)zin, *out = (trnfftComplex *)zout;
    assert_int_equal(trnfftDestroy(p), TRNFFT_SUCCESS);

    /* 8 points: the transform of an impulse is all ones. */
    trnfftComplex imp[8] = {{1, 0}};
    assert_int_equal(trnfftPlan1d(&p, 8, TRNFFT_C2C, 1), TRNFFT_SUCCESS);
    assert_int_equal(trnsciMemcpy(in, imp, sizeof(imp), trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnfftExecC2C(p, in, out, TRNFFT_FORWARD), TRNFFT_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    trnfftComplex got[8];
    to_host(got, out, sizeof(got));
    for (int i = 0; i < 8; i++)
        assert_true(got[i].x == 1.0f && got[i].y == 0.0f);
    assert_int_equal(trnfftDestroy(p), TRNFFT_SUCCESS);
    trnsciFree(in);
    trnsciFree(out);
}

/* ---- the daemon ------------------------------------------------------------------ */

#ifdef TRNSCI_TEST_SANITIZER_ENV
static char saved_san[1024];
static int had_san;
#endif

/* The daemon's allocations over LIMIT_BYTES fail; this process's do not. */
static int setup(void **state) {
    (void)state;
#ifdef TRNSCI_TEST_SANITIZER_ENV
    const char *old = getenv(TRNSCI_TEST_SANITIZER_ENV);
    had_san = old != NULL;
    snprintf(saved_san, sizeof(saved_san), "%s", old ? old : "");
    char opts[1200];
    snprintf(opts, sizeof(opts), "%s%sallocator_may_return_null=1:max_allocation_size_mb=%u",
             saved_san, saved_san[0] ? ":" : "", LIMIT_BYTES >> 20);
    setenv(TRNSCI_TEST_SANITIZER_ENV, opts, 1);
#else
    char limit[32];
    snprintf(limit, sizeof(limit), "%u", LIMIT_BYTES);
    setenv("LD_PRELOAD", MALLOC_LIMIT_SO, 1);
    setenv("TRNSCI_TEST_MALLOC_LIMIT", limit, 1);
#endif
    /* Two cores: the ops that split run as several shards, all failing. */
    /* The BF16 GemmEx converts inline, so its pieces are malloc'd (ahead,
     * they would come from the shared scratch pool, daemon/op_scratch.h). */
    const char *args[] = {"--cores", "2", "--convert-ahead", "off", NULL};
    const int rc = th_daemon_start(&dmn, args);
#ifdef TRNSCI_TEST_SANITIZER_ENV
    if (had_san)
        setenv(TRNSCI_TEST_SANITIZER_ENV, saved_san, 1);
    else
        unsetenv(TRNSCI_TEST_SANITIZER_ENV);
#else
    unsetenv("LD_PRELOAD");
    unsetenv("TRNSCI_TEST_MALLOC_LIMIT");
#endif
    if (rc != 0)
        return rc;
    return trnsciInit(dmn.unix_addr) == trnsciSuccess ? 0 : -1;
}

/* Nothing is held once the session ends; the daemon logged the failures
 * and exits cleanly (in the sanitizer builds: without a leak). */
static int teardown(void **state) {
    (void)state;
    trnsciDeviceReset();
    int bad = 0;
    if (th_wait_daemon_idle(dmn.unix_addr, 10000) != 0) {
        fprintf(stderr, "the daemon still holds sessions, buffers or ops\n");
        bad = 1;
    }
    if (!th_file_contains(dmn.log_path, "out of memory for its workspace")) {
        fprintf(stderr, "the daemon did not log the failures\n");
        bad = 1;
    }
    return th_daemon_stop_checked(&dmn, "daemon with an allocation limit") || bad;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blas),        cmocka_unit_test(test_sparse),
        cmocka_unit_test(test_syevj),       cmocka_unit_test(test_krylov),
        cmocka_unit_test(test_contraction), cmocka_unit_test(test_chem),
        cmocka_unit_test(test_poisson),     cmocka_unit_test(test_fft),
    };
    return cmocka_run_group_tests_name("oom", tests, setup, teardown);
}
