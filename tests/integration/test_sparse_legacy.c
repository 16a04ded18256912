/*
 * test_sparse_legacy.c — trnsparse's legacy BSR products
 * (trnsparse<t>bsrmv, trnsparse<t>bsrmm, S and D) and C = alpha A + beta B
 * (trnsparseXcsrgeam2Nnz, trnsparse<t>csrgeam2) through a real daemon,
 * over the local transport and gRPC over TCP, against a long double
 * reference computed here from the dense expansion of the blocks:
 *
 *  - Random block patterns (about 40% of the blocks stored, columns in
 *    random order within a block row, some block rows empty), blockDim 3
 *    and 2, index base 0 and 1 (from the matrix descriptor), block storage
 *    by rows and by columns (dirA), beta 0 (y, C not read: they hold NaN)
 *    and beta != 0, bsrmm with transB N and T, B and C at leading
 *    dimensions with padding that must come back unchanged.
 *  - Tolerance: each output is alpha s + beta c with s a sum of at most
 *    w = kb blockDim products, computed in the type: |err| <= gamma_{w+2}
 *    (|alpha| sum |a_ij x_j| + |beta c|) (Higham §3.1); the reference is
 *    long double (its own error is below 2^-63 relative, negligible).
 *  - csrgeam2 (S, D): random A (columns sorted) and B (shuffled), every
 *    combination of bases, alpha = 0 (A's values NULL): C's count, offsets
 *    and sorted columns exactly the union of the patterns, values within
 *    gamma_3 (|alpha a| + |beta b|) of long double (a product and a sum);
 *    offsets edited after Xcsrgeam2Nnz fail the fill at the next sync;
 *    C overlapping A, NULL scalars and a NULL handle are refused.
 *  - Bad input, each with cuSPARSE's status and a message: transA T
 *    (NOT_SUPPORTED), blockDim 1 for bsrmm and 0 for bsrmv, ldb and ldc
 *    too small, a bad dirA, NULL alpha (INVALID_VALUE), a NULL handle
 *    (NOT_INITIALIZED); the daemon keeps serving.
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
#include "sparse_util.h"
#include "trnsci/trnsparse.h"

static th_daemon one_core;

static su_transport local_t = {"local", NULL}, grpc_t = {"grpc", NULL};

static double worst[2];

/* A value of the type (rounded to float once for S). */
static double rnd(uint64_t *s, int dbl) {
    const double v = su_uniform(s);
    return dbl ? v : (double)(float)v;
}

typedef struct bsr_case {
    int dbl, base, bd, rowdir, mm, transb, beta0;
    int mb, kb, n;
} bsr_case;

static void run_case(trnsparseHandle_t h, const bsr_case *c, uint64_t seed) {
    uint64_t s = seed;
    const int dbl = c->dbl, bd = c->bd, mb = c->mb, kb = c->kb;
    const size_t es = dbl ? 8 : 4, bb = (size_t)bd * (size_t)bd;
    const int64_t m = (int64_t)mb * bd, k = (int64_t)kb * bd, n = c->mm ? c->n : 1;
    /* The pattern: block row 1 empty, others ~40% of the blocks, columns
     * shuffled within a row. */
    int *rowptr = calloc((size_t)mb + 1, sizeof(int)), *colind = malloc((size_t)mb * kb * 4);
    long double *dense = calloc((size_t)(m * k), sizeof(long double));
    assert_non_null(rowptr);
    assert_non_null(colind);
    assert_non_null(dense);
    int nnzb = 0;
    for (int I = 0; I < mb; I++) {
        rowptr[I] = nnzb + c->base;
        const int start = nnzb;
        for (int J = 0; J < kb; J++)
            if (I != 1 && su_uniform(&s) < -0.2)
                colind[nnzb++] = J;
        for (int q = nnzb - 1; q > start; q--) {
            const int r =
                start + (int)((su_uniform(&s) + 1.0) * 0.5 * (q - start + 1)) % (q - start + 1);
            const int t = colind[q];
            colind[q] = colind[r];
            colind[r] = t;
        }
    }
    rowptr[mb] = nnzb + c->base;
    void *val = malloc((size_t)nnzb * bb * es + 1);
    assert_non_null(val);
    for (int I = 0; I < mb; I++)
        for (int p = rowptr[I] - c->base; p < rowptr[I + 1] - c->base; p++) {
            const int J = colind[p];
            for (int i = 0; i < bd; i++)
                for (int j = 0; j < bd; j++) {
                    const double v = rnd(&s, dbl);
                    const size_t at =
                        (size_t)p * bb + (size_t)(c->rowdir ? i * bd + j : i + j * bd);
                    su_put(val, at, v, dbl);
                    dense[(size_t)(I * bd + i) * (size_t)k + (size_t)(J * bd + j)] = v;
                }
        }
    for (int p = 0; p < nnzb; p++)
        colind[p] += c->base;
    /* B (k x n, or n x k for transB T) and C (m x n) with padding rows. */
    const int64_t brows = c->transb ? n : k, bcols = c->transb ? k : n;
    const int64_t ldb = brows + 2, ldc = m + 3;
    const size_t blen = (size_t)(ldb * bcols), clen = (size_t)(ldc * n);
    void *hb = malloc(blen * es), *hc = malloc(clen * es);
    assert_non_null(hb);
    assert_non_null(hc);
    for (size_t i = 0; i < blen; i++)
        su_put(hb, i, rnd(&s, dbl), dbl);
    for (size_t i = 0; i < clen; i++)
        su_put(hc, i, c->beta0 && (int64_t)(i % (size_t)ldc) < m ? NAN : rnd(&s, dbl), dbl);
    const double alpha = dbl ? 1.25 : (double)1.25f, beta = c->beta0 ? 0.0 : -0.75;
    void *d_val = su_dev_put(val, (size_t)nnzb * bb * es + 1);
    void *d_row = su_dev_put(rowptr, ((size_t)mb + 1) * 4),
         *d_col = su_dev_put(colind, (size_t)nnzb * 4 + 1);
    void *d_b = su_dev_put(hb, blen * es), *d_c = su_dev_put(hc, clen * es);
    trnsparseMatDescr_t descr;
    assert_int_equal(trnsparseCreateMatDescr(&descr), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSetMatIndexBase(descr, c->base ? TRNSPARSE_INDEX_BASE_ONE
                                                             : TRNSPARSE_INDEX_BASE_ZERO),
                     TRNSPARSE_STATUS_SUCCESS);
    const trnsparseDirection_t dir =
        c->rowdir ? TRNSPARSE_DIRECTION_ROW : TRNSPARSE_DIRECTION_COLUMN;
    const trnsparseOperation_t N = TRNSPARSE_OPERATION_NON_TRANSPOSE,
                               tb = c->transb ? TRNSPARSE_OPERATION_TRANSPOSE : N;
    const float af = (float)alpha, bf = (float)beta;
    trnsparseStatus_t st;
    if (c->mm)
        st = dbl ? trnsparseDbsrmm(h, dir, N, tb, mb, (int)n, kb, nnzb, &alpha, descr, d_val, d_row,
                                   d_col, bd, d_b, (int)ldb, &beta, d_c, (int)ldc)
                 : trnsparseSbsrmm(h, dir, N, tb, mb, (int)n, kb, nnzb, &af, descr, d_val, d_row,
                                   d_col, bd, d_b, (int)ldb, &bf, d_c, (int)ldc);
    else /* x is B's first column, y C's */
        st = dbl ? trnsparseDbsrmv(h, dir, N, mb, kb, nnzb, &alpha, descr, d_val, d_row, d_col, bd,
                                   d_b, &beta, d_c)
                 : trnsparseSbsrmv(h, dir, N, mb, kb, nnzb, &af, descr, d_val, d_row, d_col, bd,
                                   d_b, &bf, d_c);
    if (st != TRNSPARSE_STATUS_SUCCESS)
        fail_msg("%s: %s", c->mm ? "bsrmm" : "bsrmv", trnsciGetLastErrorMessage());
    void *out = su_dev_get(d_c, clen * es);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < ldc; i++) {
            const size_t at = (size_t)(i + j * ldc);
            const long double got = su_get(out, at, dbl);
            if (i >= m || !c->mm) {
                /* Padding (and bsrmv's y beyond m) is unchanged. */
                if (i >= m && memcmp((char *)out + at * es, (char *)hc + at * es, es) != 0)
                    fail_msg("C padding (%lld, %lld) was written", (long long)i, (long long)j);
                if (i >= m)
                    continue;
            }
            long double sum = 0, mag = 0;
            for (int64_t l = 0; l < k; l++) {
                const long double a = dense[(size_t)i * (size_t)k + (size_t)l];
                const long double b =
                    su_get(hb, (size_t)(c->transb ? j + l * ldb : l + j * ldb), dbl);
                sum += a * b;
                mag += fabsl(a * b);
            }
            const long double c0 = c->beta0 ? 0 : su_get(hc, at, dbl);
            const long double want = alpha * sum + beta * c0;
            const long double bound =
                su_gamma(dbl, (long double)k + 2) * (fabsl(alpha) * mag + fabsl(beta * c0));
            const long double err = fabsl(got - want);
            if (bound > 0 && err / bound > worst[dbl])
                worst[dbl] = (double)(err / bound);
            if (!(err <= bound) && !(err == 0))
                fail_msg("%s (%s, base %d, bd %d, %s) y[%lld, %lld] = %.17Lg, reference %.17Lg, "
                         "error %.3Lg > %.3Lg",
                         c->mm ? "bsrmm" : "bsrmv", dbl ? "D" : "S", c->base, bd,
                         c->rowdir ? "row" : "column", (long long)i, (long long)j, got, want, err,
                         bound);
        }
    trnsparseDestroyMatDescr(descr);
    free(out);
    trnsciFree(d_val);
    trnsciFree(d_row);
    trnsciFree(d_col);
    trnsciFree(d_b);
    trnsciFree(d_c);
    free(rowptr);
    free(colind);
    free(dense);
    free(val);
    free(hb);
    free(hc);
}

static void test_bsr(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    uint64_t seed = 5;
    for (int mm = 0; mm < 2; mm++)
        for (int dbl = 0; dbl < 2; dbl++)
            for (int base = 0; base < 2; base++)
                for (int rowdir = 0; rowdir < 2; rowdir++)
                    for (int v = 0; v < 2; v++) {
                        const bsr_case c = {dbl, base, v ? 2 : 3, rowdir, mm, mm && v, v, 7, 5, 4};
                        run_case(h, &c, seed++);
                    }
    printf("    worst error / bound: S %.3g, D %.3g\n", worst[0], worst[1]);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- csrgeam2 ---------------------------------------------------------------------------- */

/* A random m x n CSR pattern (about 20% dense, row 2 empty), 0-based,
 * columns shuffled in each row when shuffle, values rounded to the type. */
static void random_csr(uint64_t *s, int m, int n, int dbl, int shuffle, int **rp, int **ci,
                       double **v, int *nnz) {
    *rp = calloc((size_t)m + 1, sizeof(int));
    *ci = malloc((size_t)m * (size_t)n * sizeof(int) + 4);
    *v = malloc((size_t)m * (size_t)n * sizeof(double) + 8);
    assert_true(*rp && *ci && *v);
    int k = 0;
    for (int i = 0; i < m; i++) {
        (*rp)[i] = k;
        const int start = k;
        for (int j = 0; j < n; j++)
            if (i != 2 && su_uniform(s) < -0.6) {
                (*ci)[k] = j;
                (*v)[k++] = rnd(s, dbl);
            }
        for (int q = k - 1; shuffle && q > start; q--) {
            const int r =
                start + (int)((su_uniform(s) + 1.0) * 0.5 * (q - start + 1)) % (q - start + 1);
            const int t = (*ci)[q];
            (*ci)[q] = (*ci)[r];
            (*ci)[r] = t;
            const double tv = (*v)[q];
            (*v)[q] = (*v)[r];
            (*v)[r] = tv;
        }
    }
    (*rp)[m] = k;
    *nnz = k;
}

static void *typed(const double *v, int n, int dbl) {
    void *p = malloc((size_t)n * 8 + 8);
    assert_non_null(p);
    for (int i = 0; i < n; i++)
        su_put(p, (size_t)i, v[i], dbl);
    return p;
}

static void run_geam(trnsparseHandle_t h, int dbl, int ba, int bb, int bc, int alpha0,
                     uint64_t seed) {
    uint64_t s = seed;
    const int m = 40, n = 30;
    const size_t es = dbl ? 8 : 4;
    int *ra, *ca, *rb, *cb, na, nb;
    double *va, *vb;
    random_csr(&s, m, n, dbl, 0, &ra, &ca, &va, &na);
    random_csr(&s, m, n, dbl, 1, &rb, &cb, &vb, &nb);
    /* The reference: the dense union in long double, its pattern exact. */
    long double *ref = calloc((size_t)m * n, sizeof(long double)),
                *mag = calloc((size_t)m * n, sizeof(long double));
    char *in = calloc((size_t)m * n, 1);
    assert_true(ref && mag && in);
    const double alpha = alpha0 ? 0.0 : (dbl ? 0.3 : (double)0.3f), beta = -1.5;
    for (int i = 0; i < m; i++) {
        for (int p = ra[i]; p < ra[i + 1]; p++) {
            in[i * n + ca[p]] = 1;
            ref[i * n + ca[p]] += (long double)alpha * va[p];
            mag[i * n + ca[p]] += fabsl((long double)alpha * va[p]);
        }
        for (int p = rb[i]; p < rb[i + 1]; p++) {
            in[i * n + cb[p]] = 1;
            ref[i * n + cb[p]] += (long double)beta * vb[p];
            mag[i * n + cb[p]] += fabsl((long double)beta * vb[p]);
        }
    }
    int want_nnz = 0;
    for (int i = 0; i < m * n; i++)
        want_nnz += in[i];
    /* Bases applied. */
    for (int i = 0; i <= m; i++) {
        ra[i] += ba;
        rb[i] += bb;
    }
    for (int p = 0; p < na; p++)
        ca[p] += ba;
    for (int p = 0; p < nb; p++)
        cb[p] += bb;
    void *ta = typed(va, na, dbl), *tb = typed(vb, nb, dbl);
    void *d_ra = su_dev_put(ra, ((size_t)m + 1) * 4), *d_ca = su_dev_put(ca, (size_t)na * 4 + 4),
         *d_va = su_dev_put(ta, (size_t)na * es + 8);
    void *d_rb = su_dev_put(rb, ((size_t)m + 1) * 4), *d_cb = su_dev_put(cb, (size_t)nb * 4 + 4),
         *d_vb = su_dev_put(tb, (size_t)nb * es + 8);
    int *d_rc = NULL, *d_cc = NULL;
    void *d_vc = NULL;
    assert_int_equal(trnsciMalloc((void **)&d_rc, ((size_t)m + 1) * 4), trnsciSuccess);
    trnsparseMatDescr_t da, db, dc;
    assert_int_equal(trnsparseCreateMatDescr(&da), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateMatDescr(&db), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateMatDescr(&dc), TRNSPARSE_STATUS_SUCCESS);
    trnsparseSetMatIndexBase(da, ba ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO);
    trnsparseSetMatIndexBase(db, bb ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO);
    trnsparseSetMatIndexBase(dc, bc ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO);
    const float af = (float)alpha, bf = (float)beta;
    const void *pa = dbl ? (const void *)&alpha : (const void *)&af;
    const void *pb = dbl ? (const void *)&beta : (const void *)&bf;
    size_t bs = 7;
    assert_int_equal(
        dbl ? trnsparseDcsrgeam2_bufferSizeExt(h, m, n, pa, da, na, d_va, d_ra, d_ca, pb, db, nb,
                                               d_vb, d_rb, d_cb, dc, NULL, d_rc, NULL, &bs)
            : trnsparseScsrgeam2_bufferSizeExt(h, m, n, pa, da, na, d_va, d_ra, d_ca, pb, db, nb,
                                               d_vb, d_rb, d_cb, dc, NULL, d_rc, NULL, &bs),
        TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(bs, 0);
    int nnzc = -1;
    if (trnsparseXcsrgeam2Nnz(h, m, n, da, na, d_ra, d_ca, db, nb, d_rb, d_cb, dc, d_rc, &nnzc,
                              NULL) != TRNSPARSE_STATUS_SUCCESS)
        fail_msg("Xcsrgeam2Nnz: %s", trnsciGetLastErrorMessage());
    assert_int_equal(nnzc, want_nnz);
    assert_int_equal(trnsciMalloc((void **)&d_cc, (size_t)nnzc * 4 + 4), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&d_vc, (size_t)nnzc * es + 8), trnsciSuccess);
    const trnsparseStatus_t st =
        dbl ? trnsparseDcsrgeam2(h, m, n, pa, da, na, alpha0 ? NULL : d_va, d_ra, d_ca, pb, db, nb,
                                 d_vb, d_rb, d_cb, dc, d_vc, d_rc, d_cc, NULL)
            : trnsparseScsrgeam2(h, m, n, pa, da, na, alpha0 ? NULL : d_va, d_ra, d_ca, pb, db, nb,
                                 d_vb, d_rb, d_cb, dc, d_vc, d_rc, d_cc, NULL);
    if (st != TRNSPARSE_STATUS_SUCCESS)
        fail_msg("csrgeam2: %s", trnsciGetLastErrorMessage());
    int *rc = su_dev_get(d_rc, ((size_t)m + 1) * 4), *cc = su_dev_get(d_cc, (size_t)nnzc * 4 + 4);
    void *vc = su_dev_get(d_vc, (size_t)nnzc * es + 8);
    /* Offsets: the union's prefix sums; columns: the union, ascending. */
    int k = 0;
    for (int i = 0; i < m; i++) {
        if (rc[i] != k + bc)
            fail_msg("rowPtrC[%d] = %d, expected %d", i, rc[i], k + bc);
        for (int j = 0; j < n; j++) {
            if (!in[i * n + j])
                continue;
            if (cc[k] != j + bc)
                fail_msg("colIndC[%d] = %d, expected %d (row %d)", k, cc[k], j + bc, i);
            /* Two roundings at most (product, sum), Higham §2.2: gamma_3 for slack. */
            const long double got = su_get(vc, (size_t)k, dbl), want = ref[i * n + j];
            const long double bound = su_gamma(dbl, 3) * mag[i * n + j];
            if (fabsl(got - want) > bound)
                fail_msg("valC[%d] (%d, %d) = %.17Lg, reference %.17Lg, bound %.3Lg", k, i, j, got,
                         want, bound);
            k++;
        }
    }
    assert_int_equal(rc[m], k + bc);
    /* Offsets that are not Nnz's fail the fill (reported at the next sync). */
    if (m > 3) {
        int bad = rc[3] + 1;
        assert_int_equal(trnsciMemcpy(d_rc + 3, &bad, 4, trnsciMemcpyHostToDevice), trnsciSuccess);
        assert_int_equal(dbl ? trnsparseDcsrgeam2(h, m, n, pa, da, na, d_va, d_ra, d_ca, pb, db, nb,
                                                  d_vb, d_rb, d_cb, dc, d_vc, d_rc, d_cc, NULL)
                             : trnsparseScsrgeam2(h, m, n, pa, da, na, d_va, d_ra, d_ca, pb, db, nb,
                                                  d_vb, d_rb, d_cb, dc, d_vc, d_rc, d_cc, NULL),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_not_equal(trnsciDeviceSynchronize(), trnsciSuccess);
        su_expect_message("Xcsrgeam2Nnz");
    }
    free(rc);
    free(cc);
    free(vc);
    trnsparseDestroyMatDescr(da);
    trnsparseDestroyMatDescr(db);
    trnsparseDestroyMatDescr(dc);
    void *devs[] = {d_ra, d_ca, d_va, d_rb, d_cb, d_vb, d_rc, d_cc, d_vc};
    for (size_t i = 0; i < sizeof devs / sizeof devs[0]; i++)
        trnsciFree(devs[i]);
    free(ra);
    free(ca);
    free(va);
    free(rb);
    free(cb);
    free(vb);
    free(ta);
    free(tb);
    free(ref);
    free(mag);
    free(in);
}

static void test_geam(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    uint64_t seed = 77;
    for (int dbl = 0; dbl < 2; dbl++)
        for (int v = 0; v < 4; v++)
            run_geam(h, dbl, v & 1, (v >> 1) & 1, v == 1 || v == 2, v == 3, seed++);
    /* Bad input: a NULL handle, NULL scalars, C overlapping A. */
    trnsparseMatDescr_t d;
    assert_int_equal(trnsparseCreateMatDescr(&d), TRNSPARSE_STATUS_SUCCESS);
    int *buf = NULL;
    assert_int_equal(trnsciMalloc((void **)&buf, 64 * 4), trnsciSuccess);
    assert_int_equal(trnsciMemset(buf, 0, 64 * 4), trnsciSuccess);
    int nnz = 0;
    assert_int_equal(
        trnsparseXcsrgeam2Nnz(NULL, 3, 3, d, 0, buf, buf, d, 0, buf, buf, d, buf + 8, &nnz, NULL),
        TRNSPARSE_STATUS_NOT_INITIALIZED);
    assert_int_equal(
        trnsparseXcsrgeam2Nnz(h, 3, 3, d, 0, buf, buf, d, 0, buf, buf, d, buf + 2, &nnz, NULL),
        TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("overlap");
    const double one = 1;
    assert_int_equal(trnsparseDcsrgeam2(h, 3, 3, NULL, d, 0, NULL, buf, buf, &one, d, 0, NULL, buf,
                                        buf, d, NULL, buf + 8, NULL, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("alpha or beta is NULL");
    /* Empty A and B: C has no entries. */
    assert_int_equal(
        trnsparseXcsrgeam2Nnz(h, 3, 3, d, 0, buf, buf, d, 0, buf, buf, d, buf + 8, &nnz, NULL),
        TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(nnz, 0);
    trnsciFree(buf);
    trnsparseDestroyMatDescr(d);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

static void test_errors(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    trnsparseMatDescr_t descr;
    assert_int_equal(trnsparseCreateMatDescr(&descr), TRNSPARSE_STATUS_SUCCESS);
    /* One 2 x 2 block [1 2; 3 4] (row storage), x = (1, 1): y = (3, 7). */
    const int rp[2] = {0, 1}, ci[1] = {0};
    const double v[4] = {1, 2, 3, 4}, x[2] = {1, 1};
    void *d_rp = su_dev_put(rp, sizeof(rp)), *d_ci = su_dev_put(ci, sizeof(ci));
    void *d_v = su_dev_put(v, sizeof(v)), *d_x = su_dev_put(x, sizeof(x));
    double *d_y = NULL;
    assert_int_equal(trnsciMalloc((void **)&d_y, 64), trnsciSuccess);
    const double one = 1, zero = 0;
    const trnsparseOperation_t N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
    const trnsparseDirection_t R = TRNSPARSE_DIRECTION_ROW;
    assert_int_equal(trnsparseDbsrmv(h, R, TRNSPARSE_OPERATION_TRANSPOSE, 1, 1, 1, &one, descr, d_v,
                                     d_rp, d_ci, 2, d_x, &zero, d_y),
                     TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("transA");
    assert_int_equal(
        trnsparseDbsrmv(h, R, N, 1, 1, 1, &one, descr, d_v, d_rp, d_ci, 0, d_x, &zero, d_y),
        TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("blockDim=0");
    assert_int_equal(trnsparseDbsrmv(h, (trnsparseDirection_t)7, N, 1, 1, 1, &one, descr, d_v, d_rp,
                                     d_ci, 2, d_x, &zero, d_y),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("dirA");
    assert_int_equal(
        trnsparseDbsrmv(h, R, N, 1, 1, 1, NULL, descr, d_v, d_rp, d_ci, 2, d_x, &zero, d_y),
        TRNSPARSE_STATUS_INVALID_VALUE);
    assert_int_equal(
        trnsparseDbsrmv(NULL, R, N, 1, 1, 1, &one, descr, d_v, d_rp, d_ci, 2, d_x, &zero, d_y),
        TRNSPARSE_STATUS_NOT_INITIALIZED);
    assert_int_equal(trnsparseDbsrmm(h, R, N, N, 1, 1, 1, 1, &one, descr, d_v, d_rp, d_ci, 1, d_x,
                                     1, &zero, d_y, 1),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("blockDim=1 must be >= 2");
    assert_int_equal(trnsparseDbsrmm(h, R, N, N, 1, 1, 1, 1, &one, descr, d_v, d_rp, d_ci, 2, d_x,
                                     1, &zero, d_y, 2),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("ldb=1");
    /* x past its allocation (the daemon's SpMV rule). */
    assert_int_equal(trnsparseDbsrmv(h, R, N, 1, 1, 1, &one, descr, d_v, d_rp, d_ci, 2,
                                     (double *)d_x + 1, &zero, d_y),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    /* Still serving. */
    assert_int_equal(
        trnsparseDbsrmv(h, R, N, 1, 1, 1, &one, descr, d_v, d_rp, d_ci, 2, d_x, &zero, d_y),
        TRNSPARSE_STATUS_SUCCESS);
    double y[2];
    assert_int_equal(trnsciMemcpy(y, d_y, sizeof(y), trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_true(y[0] == 3 && y[1] == 7);
    trnsparseDestroyMatDescr(descr);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

int main(void) {
    if (su_start_daemons(&one_core, NULL) != 0)
        return 1;
    local_t.addr = one_core.unix_addr;
    grpc_t.addr = one_core.tcp_addr;
    const struct CMUnitTest tests[] = {
        SU_ON(test_bsr, local),   SU_ON(test_bsr, grpc),   SU_ON(test_errors, local),
        SU_ON(test_errors, grpc), SU_ON(test_geam, local), SU_ON(test_geam, grpc),
    };
    int failed = cmocka_run_group_tests_name("sparse_legacy", tests, NULL, NULL);
    failed += th_daemon_stop_checked(&one_core, "trnscid --cores 2");
    return failed ? 1 : 0;
}
