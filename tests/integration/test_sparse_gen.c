/*
 * test_sparse_gen.c — trnsparse's Blocked-ELL and Sliced-ELL matrices,
 * strided batches of CSR and COO matrices in SpMM, DenseToSparse into
 * Blocked-ELL, SpSV with a Sliced-ELL A and SpGEMMreuse, through a real daemon over the local
 * transport and gRPC over TCP.
 *
 * References are dense products in long double of the matrix the format's
 * definition describes (built here from the arrays, independently of the
 * library's kernels): for C = alpha A B + beta C0, each computed element is
 * a sum of at most w products (w: the stored entries of the row, padding
 * and empty slots included as exact zeros that are skipped), so (Higham
 * §3.1) |c - c_ref| <= gamma_{w+2} (|alpha| sum_k |a_ik b_kj| + |beta c0|),
 * with gamma_k = k u / (1 - k u) for the values' type. SpGEMMreuse: each
 * element of C is a sum of at most k products, |err| <= gamma_{k+1}
 * |alpha| sum |a_ik b_kj|. DenseToSparse is a copy: exact. SpSV (lower op N, upper op
 * T, a dominant diagonal, entries of the other triangle to ignore): by its residual in
 * long double (test_spsv_sell states the bound).
 *
 * Cases: float and double, 32- and 64-bit indices, base 0 and 1; Blocked-ELL
 * with rows and columns that are not multiples of the block size (the cut
 * edge blocks hold values that must be ignored), empty slots (-1) whose
 * values must be ignored; Sliced-ELL with a last slice shorter than the
 * slice size and padding entries (-1) holding values that must be ignored;
 * SpMV and SpMM, B column- and row-major, C at a leading dimension whose
 * padding must come back unchanged; batches of 3 with per-matrix and shared
 * row offsets, A broadcast (strides 0) and B broadcast (batch count 1); a
 * Blocked-ELL SpMM large enough to split over 2 cores, bitwise equal to
 * the 1-core run. Bad input, each with cuSPARSE's status and a message.
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

static th_daemon one_core, two_cores;
static su_transport local_t = {"local", NULL}, grpc_t = {"grpc", NULL};

/* A dense operand on the host: values of the test's type, element (i, j)
 * at i * r + j * c. */
typedef struct dn {
    int64_t rows, cols, ld;
    int row_major, dbl;
    void *h, *d;
} dn;

static void dn_make(dn *x, int64_t rows, int64_t cols, int64_t ld, int row_major, int dbl,
                    uint64_t *s) {
    *x = (dn){rows, cols, ld, row_major, dbl, NULL, NULL};
    const size_t n = (size_t)ld * (size_t)(row_major ? rows : cols), es = dbl ? 8 : 4;
    x->h = malloc(n * es + 1);
    assert_non_null(x->h);
    for (size_t i = 0; i < n; i++)
        su_put(x->h, i, su_uniform(s), dbl);
    x->d = su_dev_put(x->h, n * es);
}

static size_t dn_at(const dn *x, int64_t i, int64_t j) {
    return (size_t)(x->row_major ? i * x->ld + j : i + j * x->ld);
}

static size_t dn_count(const dn *x) {
    return (size_t)x->ld * (size_t)(x->row_major ? x->rows : x->cols);
}

static void dn_free(dn *x) {
    free(x->h);
    trnsciFree(x->d);
}

static trnsparseDnMatDescr_t dn_descr(const dn *x) {
    trnsparseDnMatDescr_t m;
    assert_int_equal(trnsparseCreateDnMat(&m, x->rows, x->cols, x->ld, x->d,
                                          x->dbl ? TRNSCI_R_64F : TRNSCI_R_32F,
                                          x->row_major ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL),
                     TRNSPARSE_STATUS_SUCCESS);
    return m;
}

/* C (device, read back) against alpha A B + beta C0 for a dense A (m x k,
 * row-major, long double) whose rows hold at most w stored entries; C's
 * elements outside its m x n must equal C0's. Offsets: matrix b of a batch
 * at element cofs of C and C0, bofs of B. */
static void check_product(const char *what, int dbl, const long double *A, int64_t k, int64_t w,
                          const dn *B, size_t bofs, double alpha, double beta, const dn *C,
                          size_t cofs) {
    const size_t es = dbl ? 8 : 4, total = dn_count(C);
    char *got = su_dev_get((const char *)C->d + cofs * es, total * es);
    const char *c0 = (const char *)C->h + cofs * es, *b = (const char *)B->h + bofs * es;
    const long double g = su_gamma(dbl, (long double)(w + 2));
    for (size_t p = 0; p < total; p++) {
        const int64_t i =
            C->row_major ? (int64_t)(p / (size_t)C->ld) : (int64_t)(p % (size_t)C->ld);
        const int64_t j =
            C->row_major ? (int64_t)(p % (size_t)C->ld) : (int64_t)(p / (size_t)C->ld);
        const long double old = su_get(c0, p, dbl), v = su_get(got, p, dbl);
        if (i >= C->rows || j >= C->cols) {
            if (memcmp(got + p * es, c0 + p * es, es) != 0)
                fail_msg("%s: padding element %zu changed", what, p);
            continue;
        }
        long double ref = 0, mag = 0;
        for (int64_t q = 0; q < k; q++) {
            const long double t = A[i * k + q] * su_get(b, dn_at(B, q, j), dbl);
            ref += t;
            mag += fabsl(t);
        }
        ref = (long double)alpha * ref + (long double)beta * old;
        const long double bound = g * (fabsl((long double)alpha) * mag + fabsl(beta * old));
        if (fabsl(v - ref) > bound)
            fail_msg("%s: C(%lld, %lld) = %.17Lg, reference %.17Lg, error %.3Lg > %.3Lg", what,
                     (long long)i, (long long)j, v, ref, fabsl(v - ref), bound);
    }
    free(got);
}

static void *idx_array(size_t n, int idx64) {
    void *p = calloc(n ? n : 1, idx64 ? 8 : 4);
    assert_non_null(p);
    return p;
}

/* Runs SpMM (n > 1 or force_mm) or SpMV (n = 1) with A, alpha 1.5, beta
 * -0.5, and checks against the dense A. */
static void run_product(trnsparseHandle_t h, const char *what, trnsparseSpMatDescr_t a,
                        const long double *A, int64_t m, int64_t k, int64_t w, int64_t n, int dbl,
                        int row_major_b, uint64_t *s) {
    const double alpha = 1.5, beta = -0.5;
    const float af = 1.5f, bf = -0.5f;
    const void *al = dbl ? (const void *)&alpha : &af, *be = dbl ? (const void *)&beta : &bf;
    const trnsciDataType t = dbl ? TRNSCI_R_64F : TRNSCI_R_32F;
    dn B, C;
    dn_make(&B, k, n, row_major_b ? n + 1 : k + 2, row_major_b, dbl, s);
    dn_make(&C, m, n, n == 1 ? m : m + 3, 0, dbl, s);
    if (n == 1) {
        trnsparseDnVecDescr_t x, y;
        assert_int_equal(trnsparseCreateDnVec(&x, k, B.d, t), TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseCreateDnVec(&y, m, C.d, t), TRNSPARSE_STATUS_SUCCESS);
        size_t bytes = 1;
        assert_int_equal(trnsparseSpMV_bufferSize(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, al, a, x,
                                                  be, y, t, TRNSPARSE_SPMV_ALG_DEFAULT, &bytes),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseSpMV(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, al, a, x, be, y, t,
                                       TRNSPARSE_SPMV_ALG_DEFAULT, NULL),
                         TRNSPARSE_STATUS_SUCCESS);
        trnsparseDestroyDnVec(x);
        trnsparseDestroyDnVec(y);
    } else {
        trnsparseDnMatDescr_t bm = dn_descr(&B), cm = dn_descr(&C);
        assert_int_equal(trnsparseSpMM(h, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                       TRNSPARSE_OPERATION_NON_TRANSPOSE, al, a, bm, be, cm, t,
                                       TRNSPARSE_SPMM_ALG_DEFAULT, NULL),
                         TRNSPARSE_STATUS_SUCCESS);
        trnsparseDestroyDnMat(bm);
        trnsparseDestroyDnMat(cm);
    }
    check_product(what, dbl, A, k, w, &B, 0, alpha, beta, &C, 0);
    dn_free(&B);
    dn_free(&C);
}

/* ---- Blocked-ELL ------------------------------------------------------------------ */

typedef struct bell {
    int64_t m, k, bs, ell_cols;
    int idx64, base, dbl;
    void *col, *val, *d_col, *d_val;
    long double *A; /* the dense matrix it describes, m x k row-major */
    trnsparseSpMatDescr_t descr;
} bell;

/* Random distinct block columns per block row, every third row's slot 1
 * empty; every value random (those of empty slots and of columns past k
 * must be ignored). */
static void bell_make(bell *e, int64_t m, int64_t k, int64_t bs, int64_t slots, int idx64, int base,
                      int dbl, uint64_t *s) {
    *e = (bell){
        .m = m, .k = k, .bs = bs, .ell_cols = slots * bs, .idx64 = idx64, .base = base, .dbl = dbl};
    const int64_t br = (m + bs - 1) / bs, bc = (k + bs - 1) / bs, es = dbl ? 8 : 4;
    assert_true(slots <= bc);
    e->col = idx_array((size_t)(br * slots), idx64);
    e->val = malloc((size_t)(m * e->ell_cols * es) + 1);
    e->A = calloc((size_t)(m * k), sizeof(long double));
    assert_non_null(e->val);
    assert_non_null(e->A);
    for (int64_t i = 0; i < m * e->ell_cols; i++)
        su_put(e->val, (size_t)i, su_uniform(s), dbl);
    int64_t *perm = malloc((size_t)bc * 8);
    assert_non_null(perm);
    for (int64_t I = 0; I < br; I++) {
        for (int64_t j = 0; j < bc; j++)
            perm[j] = j;
        for (int64_t j = bc - 1; j > 0; j--) {
            const int64_t r = (int64_t)((su_uniform(s) + 1.0) * 0.5 * (double)(j + 1)) % (j + 1);
            const int64_t t = perm[j];
            perm[j] = perm[r];
            perm[r] = t;
        }
        for (int64_t sl = 0; sl < slots; sl++) {
            const int64_t J = (sl == 1 && I % 3 == 0) ? -1 : perm[sl];
            su_set_idx(e->col, (size_t)(I * slots + sl), J < 0 ? -1 : J + base, idx64);
            if (J < 0)
                continue;
            for (int64_t i = I * bs; i < I * bs + bs && i < m; i++)
                for (int64_t jj = 0; jj < bs && J * bs + jj < k; jj++)
                    e->A[i * k + J * bs + jj] +=
                        su_get(e->val, (size_t)(i * e->ell_cols + sl * bs + jj), dbl);
        }
    }
    free(perm);
    e->d_col = su_dev_put(e->col, (size_t)(br * slots) * (idx64 ? 8 : 4));
    e->d_val = su_dev_put(e->val, (size_t)(m * e->ell_cols * es));
    assert_int_equal(
        trnsparseCreateBlockedEll(&e->descr, m, k, bs, e->ell_cols, e->d_col, e->d_val,
                                  idx64 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I,
                                  base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO,
                                  dbl ? TRNSCI_R_64F : TRNSCI_R_32F),
        TRNSPARSE_STATUS_SUCCESS);
}

static void bell_free(bell *e) {
    trnsparseDestroySpMat(e->descr);
    trnsciFree(e->d_col);
    trnsciFree(e->d_val);
    free(e->col);
    free(e->val);
    free(e->A);
}

static void test_blocked_ell(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    uint64_t s = 0x5eed;
    for (int c = 0; c < 8; c++) {
        const int dbl = c & 1, idx64 = (c >> 1) & 1, base = (c >> 2) & 1;
        bell e;
        bell_make(&e, 37, 30, 4, 3, idx64, base, dbl, &s);
        /* The getter returns what was created. */
        int64_t rows, cols, bs, ec;
        void *ci, *cv;
        trnsparseIndexType_t it;
        trnsparseIndexBase_t ib;
        trnsciDataType vt;
        assert_int_equal(
            trnsparseBlockedEllGet(e.descr, &rows, &cols, &bs, &ec, &ci, &cv, &it, &ib, &vt),
            TRNSPARSE_STATUS_SUCCESS);
        assert_true(rows == 37 && cols == 30 && bs == 4 && ec == 12 && ci == e.d_col &&
                    cv == e.d_val && (int)ib == base);
        trnsparseFormat_t f;
        assert_int_equal(trnsparseSpMatGetFormat(e.descr, &f), TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(f, TRNSPARSE_FORMAT_BLOCKED_ELL);
        char what[64];
        snprintf(what, sizeof(what), "blocked-ell spmm case %d", c);
        run_product(h, what, e.descr, e.A, 37, 30, 12, 5, dbl, c % 3 == 0, &s);
        snprintf(what, sizeof(what), "blocked-ell spmv case %d", c);
        run_product(h, what, e.descr, e.A, 37, 30, 12, 1, dbl, 0, &s);
        bell_free(&e);
    }
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- Sliced-ELL --------------------------------------------------------------------- */

static void test_sliced_ell(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    uint64_t s = 0xce11;
    const int64_t m = 37, k = 30, S = 4, nsl = (m + S - 1) / S;
    for (int c = 0; c < 8; c++) {
        const int dbl = c & 1, idx64 = (c >> 1) & 1, base = (c >> 2) & 1;
        const size_t es = dbl ? 8 : 4, isz = idx64 ? 8 : 4;
        /* Row lengths 0..6 (distinct columns); a slice is as wide as its
         * longest row. */
        int64_t len[40] = {0}, cols[40][8];
        for (int64_t i = 0; i < m; i++) {
            len[i] = (int64_t)((su_uniform(&s) + 1.0) * 3.5) % 7;
            for (int64_t q = 0; q < len[i]; q++) {
                int dup;
                do {
                    cols[i][q] = (int64_t)((su_uniform(&s) + 1.0) * 0.5 * (double)k) % k;
                    dup = 0;
                    for (int64_t p = 0; p < q; p++)
                        dup |= cols[i][p] == cols[i][q];
                } while (dup);
            }
        }
        int64_t width[10], size = 0, nnz = 0;
        for (int64_t sl = 0; sl < nsl; sl++) {
            width[sl] = 0;
            for (int64_t r = sl * S; r < sl * S + S && r < m; r++)
                width[sl] = len[r] > width[sl] ? len[r] : width[sl];
            size += width[sl] * S;
        }
        void *off = idx_array((size_t)nsl + 1, idx64), *col = idx_array((size_t)size, idx64);
        void *val = malloc((size_t)size * es + 1);
        long double *A = calloc((size_t)(m * k), sizeof(long double));
        assert_non_null(val);
        assert_non_null(A);
        int64_t p0 = 0;
        for (int64_t sl = 0; sl < nsl; sl++) {
            su_set_idx(off, (size_t)sl, p0 + base, idx64);
            for (int64_t q = 0; q < width[sl]; q++)
                for (int64_t r = 0; r < S; r++) {
                    const int64_t i = sl * S + r, p = p0 + q * S + r;
                    su_put(val, (size_t)p, su_uniform(&s), dbl);
                    if (i < m && q < len[i]) {
                        su_set_idx(col, (size_t)p, cols[i][q] + base, idx64);
                        A[i * k + cols[i][q]] = su_get(val, (size_t)p, dbl);
                        nnz++;
                    } else {
                        su_set_idx(col, (size_t)p, -1, idx64);
                    }
                }
            p0 += width[sl] * S;
        }
        su_set_idx(off, (size_t)nsl, p0 + base, idx64);
        void *d_off = su_dev_put(off, ((size_t)nsl + 1) * isz);
        void *d_col = su_dev_put(col, (size_t)size * isz),
             *d_val = su_dev_put(val, (size_t)size * es);
        const trnsparseIndexType_t it = idx64 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I;
        trnsparseSpMatDescr_t a;
        assert_int_equal(
            trnsparseCreateSlicedEll(&a, m, k, nnz, size, S, d_off, d_col, d_val, it, it,
                                     base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO,
                                     dbl ? TRNSCI_R_64F : TRNSCI_R_32F),
            TRNSPARSE_STATUS_SUCCESS);
        int64_t r_, c_, z_;
        assert_int_equal(trnsparseSpMatGetSize(a, &r_, &c_, &z_), TRNSPARSE_STATUS_SUCCESS);
        assert_true(r_ == m && c_ == k && z_ == nnz);
        char what[64];
        snprintf(what, sizeof(what), "sliced-ell spmv case %d", c);
        run_product(h, what, a, A, m, k, 6, 1, dbl, 0, &s);
        snprintf(what, sizeof(what), "sliced-ell spmm case %d", c);
        run_product(h, what, a, A, m, k, 6, 4, dbl, c & 1, &s);
        trnsparseDestroySpMat(a);
        trnsciFree(d_off);
        trnsciFree(d_col);
        trnsciFree(d_val);
        free(off);
        free(col);
        free(val);
        free(A);
    }
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- SpSV with a Sliced-ELL A ------------------------------------------------------------ */

/* The Sliced-ELL arrays of the stored entries of the n x n matrix A (row-major long double,
 * values of the test's type; entries that are exactly 0 are not stored), slices of S rows
 * with one padding entry (-1, a random value) past each slice's longest row. */
typedef struct sell {
    void *off, *col, *val, *d_off, *d_col, *d_val;
    trnsparseSpMatDescr_t descr;
} sell;

static void sell_from_dense(sell *e, const long double *A, int64_t n, int64_t S, int dbl,
                            uint64_t *s) {
    const int64_t nsl = (n + S - 1) / S;
    const size_t es = dbl ? 8 : 4;
    int64_t size = 0, nnz = 0;
    for (int64_t sl = 0; sl < nsl; sl++) {
        int64_t w = 0;
        for (int64_t i = sl * S; i < sl * S + S && i < n; i++) {
            int64_t len = 0;
            for (int64_t j = 0; j < n; j++)
                len += A[i * n + j] != 0;
            nnz += len;
            w = len > w ? len : w;
        }
        size += (w + 1) * S;
    }
    e->off = idx_array((size_t)nsl + 1, 0);
    e->col = idx_array((size_t)size, 0);
    e->val = malloc((size_t)size * es);
    assert_non_null(e->val);
    int64_t p0 = 0;
    for (int64_t sl = 0; sl < nsl; sl++) {
        su_set_idx(e->off, (size_t)sl, p0, 0);
        int64_t w = 0;
        for (int64_t r = 0; r < S; r++) {
            const int64_t i = sl * S + r;
            int64_t q = 0;
            for (int64_t j = 0; i < n && j < n; j++)
                if (A[i * n + j] != 0) {
                    su_set_idx(e->col, (size_t)(p0 + q * S + r), j, 0);
                    su_put(e->val, (size_t)(p0 + q * S + r), A[i * n + j], dbl);
                    q++;
                }
            w = q > w ? q : w;
        }
        w++; /* a padding column in every slice */
        for (int64_t r = 0; r < S; r++) {
            const int64_t i = sl * S + r;
            int64_t q = 0;
            for (int64_t j = 0; i < n && j < n; j++)
                q += A[i * n + j] != 0;
            for (; q < w; q++) {
                su_set_idx(e->col, (size_t)(p0 + q * S + r), -1, 0);
                su_put(e->val, (size_t)(p0 + q * S + r), su_uniform(s), dbl);
            }
        }
        p0 += w * S;
    }
    assert_int_equal(p0, size);
    su_set_idx(e->off, (size_t)nsl, p0, 0);
    e->d_off = su_dev_put(e->off, ((size_t)nsl + 1) * 4);
    e->d_col = su_dev_put(e->col, (size_t)size * 4);
    e->d_val = su_dev_put(e->val, (size_t)size * es);
    assert_int_equal(trnsparseCreateSlicedEll(&e->descr, n, n, nnz, size, S, e->d_off, e->d_col,
                                              e->d_val, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                              TRNSPARSE_INDEX_BASE_ZERO,
                                              dbl ? TRNSCI_R_64F : TRNSCI_R_32F),
                     TRNSPARSE_STATUS_SUCCESS);
}

static void sell_free(sell *e) {
    trnsparseDestroySpMat(e->descr);
    trnsciFree(e->d_off);
    trnsciFree(e->d_col);
    trnsciFree(e->d_val);
    free(e->off);
    free(e->col);
    free(e->val);
}

/* op(T) x = alpha b for the triangle `upper` of a random A with entries in both triangles
 * and a dominant diagonal. Checked by the residual in long double: substitution is
 * componentwise backward stable (Higham Thm 8.5), (T + dT) x = fl(alpha b) with
 * |dT| <= gamma_w |T| (w: the longest row of op(T)), so |alpha b - op(T) x| <=
 * gamma_w (|op(T)| |x|) + u |alpha b|. */
static void test_spsv_sell(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    uint64_t s = 0x5e11;
    const int64_t n = 37;
    for (int c = 0; c < 4; c++) {
        const int dbl = c & 1, upper = c >> 1;
        const size_t es = dbl ? 8 : 4;
        long double *A = calloc((size_t)(n * n), sizeof(long double));
        assert_non_null(A);
        for (int64_t i = 0; i < n; i++) {
            long double sum = 0;
            for (int64_t j = 0; j < n; j++)
                if (i != j && su_uniform(&s) > 0.6) {
                    A[i * n + j] = (long double)(dbl ? su_uniform(&s) : (float)su_uniform(&s));
                    sum += fabsl(A[i * n + j]);
                }
            A[i * n + i] = (long double)(dbl ? (double)(2 + sum) : (float)(2 + sum));
        }
        sell e;
        sell_from_dense(&e, A, n, 4, dbl, &s);
        trnsparseFillMode_t fill = upper ? TRNSPARSE_FILL_MODE_UPPER : TRNSPARSE_FILL_MODE_LOWER;
        assert_int_equal(
            trnsparseSpMatSetAttribute(e.descr, TRNSPARSE_SPMAT_FILL_MODE, &fill, sizeof(fill)),
            TRNSPARSE_STATUS_SUCCESS);
        const trnsparseOperation_t op =
            upper ? TRNSPARSE_OPERATION_TRANSPOSE : TRNSPARSE_OPERATION_NON_TRANSPOSE;
        dn b, x;
        dn_make(&b, n, 1, n, 0, dbl, &s);
        dn_make(&x, n, 1, n, 0, dbl, &s);
        const trnsciDataType t = dbl ? TRNSCI_R_64F : TRNSCI_R_32F;
        trnsparseDnVecDescr_t vb, vx;
        assert_int_equal(trnsparseCreateDnVec(&vb, n, b.d, t), TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseCreateDnVec(&vx, n, x.d, t), TRNSPARSE_STATUS_SUCCESS);
        const double alpha = 1.25;
        const float af = 1.25f;
        const void *al = dbl ? (const void *)&alpha : &af;
        trnsparseSpSVDescr_t sv;
        assert_int_equal(trnsparseSpSV_createDescr(&sv), TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseSpSV_analysis(h, op, al, e.descr, vb, vx, t,
                                                TRNSPARSE_SPSV_ALG_DEFAULT, sv, NULL),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(
            trnsparseSpSV_solve(h, op, al, e.descr, vb, vx, t, TRNSPARSE_SPSV_ALG_DEFAULT, sv),
            TRNSPARSE_STATUS_SUCCESS);
        char *got = su_dev_get(x.d, (size_t)n * es);
        /* M = op(T): rows of the triangle (transposed for op T). */
        for (int64_t i = 0; i < n; i++) {
            long double r = (long double)alpha * su_get(b.h, (size_t)i, dbl), mag = 0;
            int64_t w = 0;
            for (int64_t j = 0; j < n; j++) {
                const long double tij = upper ? (j <= i ? A[j * n + i] : 0) /* op T of upper */
                                              : (j <= i ? A[i * n + j] : 0);
                if (tij == 0)
                    continue;
                r -= tij * su_get(got, (size_t)j, dbl);
                mag += fabsl(tij * su_get(got, (size_t)j, dbl));
                w++;
            }
            const long double bound = su_gamma(dbl, (long double)(w + 1)) * mag +
                                      su_gamma(dbl, 1) * fabsl(alpha * su_get(b.h, (size_t)i, dbl));
            if (fabsl(r) > bound)
                fail_msg("spsv sell case %d: residual %lld = %.3Lg > %.3Lg", c, (long long)i,
                         fabsl(r), bound);
        }
        free(got);
        trnsparseSpSV_destroyDescr(sv);
        trnsparseDestroyDnVec(vb);
        trnsparseDestroyDnVec(vx);
        dn_free(&b);
        dn_free(&x);
        sell_free(&e);
        free(A);
    }
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- strided batches ---------------------------------------------------------------- */

/* batch matrices m x k with `per` distinct random columns per row (so all
 * have the same offsets), CSR or COO arrays of all of them back to back. */
static void test_batched(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    uint64_t s = 0xba7c;
    const int64_t m = 20, k = 15, n = 4, per = 3, nnz = m * per, batch = 3;
    /* variant: 0 CSR own offsets, 1 CSR shared offsets, 2 COO, 3 CSR A
     * broadcast (strides 0), 4 COO with B broadcast (batch count 1). */
    for (int c = 0; c < 20; c++) {
        const int variant = c % 5, dbl = (c / 5) & 1, idx64 = (c / 10) & 1, base = c & 1;
        const int coo = variant == 2 || variant == 4;
        const size_t es = dbl ? 8 : 4, isz = idx64 ? 8 : 4;
        const int64_t ab = variant == 3 ? 1 : batch; /* distinct A matrices stored */
        void *off = idx_array((size_t)(batch * (m + 1)), idx64);
        void *row = idx_array((size_t)(ab * nnz), idx64),
             *col = idx_array((size_t)(ab * nnz), idx64);
        void *val = malloc((size_t)(ab * nnz) * es);
        long double *A = calloc((size_t)(ab * m * k), sizeof(long double));
        assert_non_null(val);
        assert_non_null(A);
        for (int64_t b = 0; b < batch; b++)
            for (int64_t i = 0; i <= m; i++)
                su_set_idx(off, (size_t)(b * (m + 1) + i), i * per + base, idx64);
        for (int64_t b = 0; b < ab; b++)
            for (int64_t i = 0; i < m; i++) {
                int64_t used[3];
                for (int64_t q = 0; q < per; q++) {
                    int dup;
                    do {
                        used[q] = (int64_t)((su_uniform(&s) + 1.0) * 0.5 * (double)k) % k;
                        dup = 0;
                        for (int64_t p = 0; p < q; p++)
                            dup |= used[p] == used[q];
                    } while (dup);
                    const size_t p = (size_t)(b * nnz + i * per + q);
                    su_set_idx(row, p, i + base, idx64);
                    su_set_idx(col, p, used[q] + base, idx64);
                    su_put(val, p, su_uniform(&s), dbl);
                    A[(b * m + i) * k + used[q]] = su_get(val, p, dbl);
                }
            }
        void *d_off = su_dev_put(off, (size_t)(batch * (m + 1)) * isz);
        void *d_row = su_dev_put(row, (size_t)(ab * nnz) * isz);
        void *d_col = su_dev_put(col, (size_t)(ab * nnz) * isz);
        void *d_val = su_dev_put(val, (size_t)(ab * nnz) * es);
        const trnsparseIndexType_t it = idx64 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I;
        const trnsparseIndexBase_t ib = base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO;
        const trnsciDataType t = dbl ? TRNSCI_R_64F : TRNSCI_R_32F;
        trnsparseSpMatDescr_t a;
        if (coo) {
            assert_int_equal(trnsparseCreateCoo(&a, m, k, nnz, d_row, d_col, d_val, it, ib, t),
                             TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(trnsparseCooSetStridedBatch(a, (int)batch, nnz),
                             TRNSPARSE_STATUS_SUCCESS);
        } else {
            assert_int_equal(trnsparseCreateCsr(&a, m, k, nnz, d_off, d_col, d_val, it, it, ib, t),
                             TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(trnsparseCsrSetStridedBatch(a, (int)batch, variant == 0 ? m + 1 : 0,
                                                         variant == 3 ? 0 : nnz),
                             TRNSPARSE_STATUS_SUCCESS);
        }
        const int64_t bb = variant == 4 ? 1 : batch;
        dn B, C;
        dn_make(&B, k, n * bb, k + 1, 0, dbl, &s); /* bb matrices k x n side by side */
        dn_make(&C, m, n * batch, m + 2, 0, dbl, &s);
        trnsparseDnMatDescr_t bm, cm;
        assert_int_equal(trnsparseCreateDnMat(&bm, k, n, k + 1, B.d, t, TRNSPARSE_ORDER_COL),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseCreateDnMat(&cm, m, n, m + 2, C.d, t, TRNSPARSE_ORDER_COL),
                         TRNSPARSE_STATUS_SUCCESS);
        if (bb > 1)
            assert_int_equal(trnsparseDnMatSetStridedBatch(bm, (int)bb, n * (k + 1)),
                             TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseDnMatSetStridedBatch(cm, (int)batch, n * (m + 2)),
                         TRNSPARSE_STATUS_SUCCESS);
        const double alpha = -2.0, beta = 0.25;
        const float af = -2.0f, bf = 0.25f;
        assert_int_equal(
            trnsparseSpMM(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                          dbl ? (const void *)&alpha : &af, a, bm, dbl ? (const void *)&beta : &bf,
                          cm, t, TRNSPARSE_SPMM_CSR_ALG2, NULL),
            TRNSPARSE_STATUS_SUCCESS);
        /* One batch entry at a time: C_b's and B_b's columns as matrices of
         * their own (the padding of C_b checked too). */
        for (int64_t b = 0; b < batch; b++) {
            dn Bb = B, Cb = C;
            Bb.cols = n;
            Cb.cols = n;
            Bb.h = (char *)B.h + (size_t)(bb > 1 ? b * n * (k + 1) : 0) * es;
            Cb.h = (char *)C.h + (size_t)(b * n * (m + 2)) * es;
            Cb.d = (char *)C.d + (size_t)(b * n * (m + 2)) * es;
            char what[64];
            snprintf(what, sizeof(what), "batched spmm case %d entry %lld", c, (long long)b);
            check_product(what, dbl, A + (ab > 1 ? b : 0) * m * k, k, per, &Bb, 0, alpha, beta, &Cb,
                          0);
        }
        trnsparseDestroyDnMat(bm);
        trnsparseDestroyDnMat(cm);
        trnsparseDestroySpMat(a);
        dn_free(&B);
        dn_free(&C);
        trnsciFree(d_off);
        trnsciFree(d_row);
        trnsciFree(d_col);
        trnsciFree(d_val);
        free(off);
        free(row);
        free(col);
        free(val);
        free(A);
    }
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- DenseToSparse into Blocked-ELL --------------------------------------------------- */

static void test_dense_to_bell(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    uint64_t s = 0xd2be;
    for (int c = 0; c < 4; c++) {
        const int dbl = c & 1, row_major = (c >> 1) & 1;
        const size_t es = dbl ? 8 : 4;
        bell e;
        bell_make(&e, 23, 18, 4, 3, c & 1, c >> 1, dbl, &s);
        dn D;
        dn_make(&D, 23, 18, row_major ? 19 : 25, row_major, dbl, &s);
        trnsparseDnMatDescr_t dm = dn_descr(&D);
        size_t bytes = 1;
        assert_int_equal(trnsparseDenseToSparse_bufferSize(
                             h, dm, e.descr, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, &bytes),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseDenseToSparse_analysis(h, dm, e.descr,
                                                         TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, NULL),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseDenseToSparse_convert(h, dm, e.descr,
                                                        TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, NULL),
                         TRNSPARSE_STATUS_SUCCESS);
        char *got = su_dev_get(e.d_val, (size_t)(23 * 12) * es);
        for (int64_t i = 0; i < 23; i++)
            for (int64_t sl = 0; sl < 3; sl++) {
                const int64_t J = su_idx(e.col, (size_t)((i / 4) * 3 + sl), c & 1);
                for (int64_t jj = 0; jj < 4; jj++) {
                    const int64_t j = (J - (c >> 1)) * 4 + jj;
                    const long double want =
                        J == -1 || j >= 18 ? 0.0L : su_get(D.h, dn_at(&D, i, j), dbl);
                    const long double v = su_get(got, (size_t)(i * 12 + sl * 4 + jj), dbl);
                    if (v != want)
                        fail_msg("dense2bell case %d: ellValue(%lld, %lld) = %Lg, want %Lg", c,
                                 (long long)i, (long long)(sl * 4 + jj), v, want);
                }
            }
        free(got);
        trnsparseDestroyDnMat(dm);
        dn_free(&D);
        bell_free(&e);
    }
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- SpGEMMreuse -------------------------------------------------------------------- */

static void test_spgemm_reuse(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    for (int c = 0; c < 4; c++) {
        const int dbl = c & 1, idx64 = c >> 1;
        const size_t es = dbl ? 8 : 4, isz = idx64 ? 8 : 4;
        const int64_t m = 30, k = 25, n = 20;
        trip ta, tb;
        trip_make(&ta, SH_RANDOM, m, k, 0.15, dbl, 11 + (uint64_t)c);
        trip_make(&tb, SH_RANDOM, k, n, 0.15, dbl, 23 + (uint64_t)c);
        sp_host a, b;
        sp_build(&a, &ta, TRNSPARSE_FORMAT_CSR, idx64, 0, dbl, 1, 1, TRNSPARSE_ORDER_COL, 1);
        sp_build(&b, &tb, TRNSPARSE_FORMAT_CSR, idx64, 0, dbl, 1, 1, TRNSPARSE_ORDER_COL, 1);
        sp_upload(&a);
        sp_upload(&b);
        const trnsparseIndexType_t it = idx64 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I;
        const trnsciDataType t = dbl ? TRNSCI_R_64F : TRNSCI_R_32F;
        void *d_coff = NULL;
        assert_int_equal(trnsciMalloc(&d_coff, (size_t)(m + 1) * isz), trnsciSuccess);
        trnsparseSpMatDescr_t cm;
        assert_int_equal(trnsparseCreateCsr(&cm, m, n, 0, d_coff, NULL, NULL, it, it,
                                            TRNSPARSE_INDEX_BASE_ZERO, t),
                         TRNSPARSE_STATUS_SUCCESS);
        trnsparseSpGEMMDescr_t g;
        assert_int_equal(trnsparseSpGEMM_createDescr(&g), TRNSPARSE_STATUS_SUCCESS);
        const trnsparseOperation_t N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
        size_t s1 = 1, s2 = 1, s3 = 1, s4 = 0, s5 = 0;
        assert_int_equal(trnsparseSpGEMMreuse_workEstimation(
                             h, N, N, a.descr, b.descr, cm, TRNSPARSE_SPGEMM_DEFAULT, g, &s1, NULL),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseSpGEMMreuse_nnz(h, N, N, a.descr, b.descr, cm,
                                                  TRNSPARSE_SPGEMM_DEFAULT, g, &s2, NULL, &s3, NULL,
                                                  &s4, NULL),
                         TRNSPARSE_STATUS_SUCCESS);
        void *d4 = NULL, *d5 = NULL;
        assert_int_equal(trnsciMalloc(&d4, s4), trnsciSuccess);
        assert_int_equal(trnsparseSpGEMMreuse_nnz(h, N, N, a.descr, b.descr, cm,
                                                  TRNSPARSE_SPGEMM_DEFAULT, g, &s2, NULL, &s3, NULL,
                                                  &s4, d4),
                         TRNSPARSE_STATUS_SUCCESS);
        /* nnz: the (i, j) reached by some stored a_iq b_qj. */
        long double *Ad = calloc((size_t)(m * k), sizeof(long double));
        long double *Bd = calloc((size_t)(k * n), sizeof(long double));
        char *reach = calloc((size_t)(m * n), 1);
        int64_t want_nnz = 0;
        for (int64_t p = 0; p < ta.nnz; p++)
            Ad[ta.r[p] * k + ta.c[p]] = ta.v[p];
        for (int64_t p = 0; p < tb.nnz; p++)
            Bd[tb.r[p] * n + tb.c[p]] = tb.v[p];
        for (int64_t p = 0; p < ta.nnz; p++)
            for (int64_t q = 0; q < tb.nnz; q++)
                if (tb.r[q] == ta.c[p] && !reach[ta.r[p] * n + tb.c[q]]) {
                    reach[ta.r[p] * n + tb.c[q]] = 1;
                    want_nnz++;
                }
        int64_t r_, c_, nnz;
        assert_int_equal(trnsparseSpMatGetSize(cm, &r_, &c_, &nnz), TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(nnz, want_nnz);
        void *d_ccol = NULL, *d_cval = NULL;
        assert_int_equal(trnsciMalloc(&d_ccol, (size_t)nnz * isz + 8), trnsciSuccess);
        assert_int_equal(trnsciMalloc(&d_cval, (size_t)nnz * es + 8), trnsciSuccess);
        assert_int_equal(trnsparseCsrSetPointers(cm, d_coff, d_ccol, d_cval),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseSpGEMMreuse_copy(h, N, N, a.descr, b.descr, cm,
                                                   TRNSPARSE_SPGEMM_DEFAULT, g, &s5, NULL),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsciMalloc(&d5, s5), trnsciSuccess);
        assert_int_equal(trnsparseSpGEMMreuse_copy(h, N, N, a.descr, b.descr, cm,
                                                   TRNSPARSE_SPGEMM_DEFAULT, g, &s5, d5),
                         TRNSPARSE_STATUS_SUCCESS);
        for (int round = 0; round < 2; round++) {
            if (round == 1) { /* new values of A, same structure */
                for (int64_t p = 0; p < ta.nnz; p++) {
                    su_put(a.val, (size_t)p, 0.5L - su_get(a.val, (size_t)p, dbl), dbl);
                    Ad[ta.r[p] * k + ta.c[p]] = su_get(a.val, (size_t)p, dbl);
                }
                assert_int_equal(
                    trnsciMemcpy(a.d_val, a.val, (size_t)ta.nnz * es, trnsciMemcpyHostToDevice),
                    trnsciSuccess);
            }
            const double alpha = 2.0, beta = 0.0;
            const float af = 2.0f, bf = 0.0f;
            assert_int_equal(trnsparseSpGEMMreuse_compute(h, N, N, dbl ? (const void *)&alpha : &af,
                                                          a.descr, b.descr,
                                                          dbl ? (const void *)&beta : &bf, cm, t,
                                                          TRNSPARSE_SPGEMM_DEFAULT, g),
                             TRNSPARSE_STATUS_SUCCESS);
            char *off = su_dev_get(d_coff, (size_t)(m + 1) * isz);
            char *col = su_dev_get(d_ccol, (size_t)nnz * isz);
            char *val = su_dev_get(d_cval, (size_t)nnz * es);
            const long double g_k = su_gamma(dbl, (long double)(k + 1));
            for (int64_t i = 0; i < m; i++) {
                const int64_t p0 = su_idx(off, (size_t)i, idx64),
                              p1 = su_idx(off, (size_t)i + 1, idx64);
                int64_t count = 0;
                for (int64_t j = 0; j < n; j++)
                    count += reach[i * n + j];
                assert_int_equal(p1 - p0, count);
                for (int64_t p = p0; p < p1; p++) {
                    const int64_t j = su_idx(col, (size_t)p, idx64);
                    assert_true(j >= 0 && j < n && reach[i * n + j]);
                    assert_true(p == p0 || j > su_idx(col, (size_t)p - 1, idx64));
                    long double ref = 0, mag = 0;
                    for (int64_t q = 0; q < k; q++) {
                        ref += Ad[i * k + q] * Bd[q * n + j];
                        mag += fabsl(Ad[i * k + q] * Bd[q * n + j]);
                    }
                    ref *= 2;
                    const long double v = su_get(val, (size_t)p, dbl), bound = g_k * 2 * mag;
                    if (fabsl(v - ref) > bound)
                        fail_msg("spgemm reuse case %d round %d: C(%lld, %lld) = %.17Lg, want "
                                 "%.17Lg (bound %.3Lg)",
                                 c, round, (long long)i, (long long)j, v, ref, bound);
                }
            }
            free(off);
            free(col);
            free(val);
        }
        trnsparseSpGEMM_destroyDescr(g);
        trnsparseDestroySpMat(cm);
        trnsciFree(d_coff);
        trnsciFree(d_ccol);
        trnsciFree(d_cval);
        trnsciFree(d4);
        trnsciFree(d5);
        free(Ad);
        free(Bd);
        free(reach);
        sp_free(&a);
        sp_free(&b);
        trip_free(&ta);
        trip_free(&tb);
    }
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- splits ----------------------------------------------------------------------------- */

/* A Blocked-ELL SpMM of 2000 block rows splits over 2 cores and gives the
 * 1-core bits. */
static void test_split(void **state) {
    (void)state;
    char *res[2] = {NULL, NULL};
    const int64_t m = 8000, k = 4000, n = 8;
    for (int d = 0; d < 2; d++) {
        const char *addr = d ? two_cores.unix_addr : one_core.unix_addr;
        assert_int_equal(trnsciInit(addr), trnsciSuccess);
        trnsparseHandle_t h;
        assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
        uint64_t s = 77;
        bell e;
        bell_make(&e, m, k, 4, 6, 0, 0, 0, &s);
        dn B, C;
        dn_make(&B, k, n, k, 0, 0, &s);
        dn_make(&C, m, n, m, 0, 0, &s);
        trnsparseDnMatDescr_t bm = dn_descr(&B), cm = dn_descr(&C);
        const float one = 1.0f, zero = 0.0f;
        const uint64_t before = su_shards_run(addr);
        assert_int_equal(trnsparseSpMM(h, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                       TRNSPARSE_OPERATION_NON_TRANSPOSE, &one, e.descr, bm, &zero,
                                       cm, TRNSCI_R_32F, TRNSPARSE_SPMM_BLOCKED_ELL_ALG1, NULL),
                         TRNSPARSE_STATUS_SUCCESS);
        res[d] = su_dev_get(C.d, (size_t)(m * n) * 4);
        if (d == 1 && su_shards_run(addr) - before < 2)
            fail_msg("the 2-core run took %llu shard(s)",
                     (unsigned long long)(su_shards_run(addr) - before));
        trnsparseDestroyDnMat(bm);
        trnsparseDestroyDnMat(cm);
        dn_free(&B);
        dn_free(&C);
        bell_free(&e);
        trnsparseDestroy(h);
        assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
    }
    assert_memory_equal(res[0], res[1], (size_t)(m * n) * 4);
    free(res[0]);
    free(res[1]);
}

/* ---- bad input ----------------------------------------------------------------------------- */

static void test_errors(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    uint64_t s = 0xbad;
    const float one = 1.0f, zero = 0.0f;
    const trnsparseOperation_t N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
    trnsparseSpMatDescr_t x;
    /* Create-time rules. */
    assert_int_equal(trnsparseCreateBlockedEll(&x, 8, 8, 4, 6, NULL, NULL, TRNSPARSE_INDEX_32I,
                                               TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_R_32F),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("ellCols");
    assert_int_equal(trnsparseCreateBlockedEll(&x, 8, 8, 0, 0, NULL, NULL, TRNSPARSE_INDEX_32I,
                                               TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_R_32F),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    assert_int_equal(trnsparseCreateSlicedEll(&x, 8, 8, 9, 8, 2, NULL, NULL, NULL,
                                              TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                              TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_R_32F),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("nnz");
    assert_int_equal(trnsparseCreateSlicedEll(&x, 8, 8, 0, 8, 0, NULL, NULL, NULL,
                                              TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                              TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_R_32F),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    bell e;
    bell_make(&e, 16, 16, 4, 2, 0, 0, 0, &s);
    assert_int_equal(trnsparseCsrSetStridedBatch(e.descr, 2, 0, 0), TRNSPARSE_STATUS_INVALID_VALUE);
    assert_int_equal(
        trnsparseBlockedEllGet(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
        TRNSPARSE_STATUS_INVALID_VALUE);
    dn B, C;
    dn_make(&B, 16, 3, 16, 0, 0, &s);
    dn_make(&C, 16, 3, 16, 0, 0, &s);
    trnsparseDnMatDescr_t bm = dn_descr(&B), cm = dn_descr(&C);
    /* op T of a Blocked-ELL A: NOT_SUPPORTED. */
    assert_int_equal(trnsparseSpMM(h, TRNSPARSE_OPERATION_TRANSPOSE, N, &one, e.descr, bm, &zero,
                                   cm, TRNSCI_R_32F, TRNSPARSE_SPMM_ALG_DEFAULT, NULL),
                     TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("NON_TRANSPOSE");
    /* A Blocked-ELL matrix where only CSR/COO are taken (SpSV). */
    trnsparseSpSVDescr_t sv;
    assert_int_equal(trnsparseSpSV_createDescr(&sv), TRNSPARSE_STATUS_SUCCESS);
    trnsparseDnVecDescr_t vx, vy;
    assert_int_equal(trnsparseCreateDnVec(&vx, 16, B.d, TRNSCI_R_32F), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnVec(&vy, 16, C.d, TRNSCI_R_32F), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSpSV_analysis(h, N, &one, e.descr, vx, vy, TRNSCI_R_32F,
                                            TRNSPARSE_SPSV_ALG_DEFAULT, sv, NULL),
                     TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("Blocked-ELL");
    /* A bad block column found when the op runs; the daemon keeps serving. */
    const int32_t bad = 7;
    assert_int_equal(trnsciMemcpy(e.d_col, &bad, 4, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsparseSpMM(h, N, N, &one, e.descr, bm, &zero, cm, TRNSCI_R_32F,
                                   TRNSPARSE_SPMM_ALG_DEFAULT, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorInvalidValue);
    su_expect_message("ellColInd[0] = 7");
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    /* ellValue shorter than rows * ellCols. */
    trnsparseSpMatDescr_t shortv;
    assert_int_equal(trnsparseCreateBlockedEll(&shortv, 16, 16, 4, 12, e.d_col, e.d_val,
                                               TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO,
                                               TRNSCI_R_32F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSpMM(h, N, N, &one, shortv, bm, &zero, cm, TRNSCI_R_32F,
                                   TRNSPARSE_SPMM_ALG_DEFAULT, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("ellColInd");
    trnsparseDestroySpMat(shortv);
    /* Sliced-ELL offsets that do not differ by a multiple of the slice
     * size, found when the op runs. */
    const int32_t off[3] = {0, 3, 4}, col[4] = {0, 1, 2, 3};
    const float val[4] = {1, 2, 3, 4};
    void *d_off = su_dev_put(off, sizeof(off)), *d_col = su_dev_put(col, sizeof(col)),
         *d_val = su_dev_put(val, sizeof(val));
    trnsparseSpMatDescr_t sl;
    assert_int_equal(trnsparseCreateSlicedEll(&sl, 4, 16, 4, 4, 2, d_off, d_col, d_val,
                                              TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                              TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_R_32F),
                     TRNSPARSE_STATUS_SUCCESS);
    trnsparseDnVecDescr_t y4;
    assert_int_equal(trnsparseCreateDnVec(&y4, 4, C.d, TRNSCI_R_32F), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSpMV(h, N, &one, sl, vx, &zero, y4, TRNSCI_R_32F,
                                   TRNSPARSE_SPMV_ALG_DEFAULT, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorInvalidValue);
    su_expect_message("sellSliceOffsets");
    /* Batched: counts that do not match, and a batch past the arrays. */
    trip t;
    trip_make(&t, SH_RANDOM, 16, 16, 0.2, 0, 5);
    sp_host a;
    sp_build(&a, &t, TRNSPARSE_FORMAT_CSR, 0, 0, 0, 1, 1, TRNSPARSE_ORDER_COL, 1);
    sp_upload(&a);
    assert_int_equal(trnsparseCsrSetStridedBatch(a.descr, 2, 0, 0), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseDnMatSetStridedBatch(cm, 3, 0), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSpMM(h, N, N, &one, a.descr, bm, &zero, cm, TRNSCI_R_32F,
                                   TRNSPARSE_SPMM_ALG_DEFAULT, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    assert_int_equal(trnsparseCsrSetStridedBatch(a.descr, 3, 0, t.nnz), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseDnMatSetStridedBatch(cm, 3, 16 * 3), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSpMM(h, N, N, &one, a.descr, bm, &zero, cm, TRNSCI_R_32F,
                                   TRNSPARSE_SPMM_ALG_DEFAULT, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    assert_int_equal(trnsparseCooSetStridedBatch(a.descr, 2, 0), TRNSPARSE_STATUS_INVALID_VALUE);
    assert_int_equal(trnsparseCsrSetStridedBatch(a.descr, 0, 0, 0), TRNSPARSE_STATUS_INVALID_VALUE);
    /* A batched matrix where the routine takes one (SpMV). */
    assert_int_equal(trnsparseCsrSetStridedBatch(a.descr, 2, 0, 0), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSpMV(h, N, &one, a.descr, vx, &zero, vy, TRNSCI_R_32F,
                                   TRNSPARSE_SPMV_ALG_DEFAULT, NULL),
                     TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("batch");
    /* SpGEMMreuse before _nnz. */
    trnsparseSpGEMMDescr_t g;
    assert_int_equal(trnsparseSpGEMM_createDescr(&g), TRNSPARSE_STATUS_SUCCESS);
    sp_host b;
    sp_build(&b, &t, TRNSPARSE_FORMAT_CSR, 0, 0, 0, 1, 1, TRNSPARSE_ORDER_COL, 1);
    sp_upload(&b);
    assert_int_equal(trnsparseSpGEMMreuse_compute(h, N, N, &one, b.descr, b.descr, &zero, b.descr,
                                                  TRNSCI_R_32F, TRNSPARSE_SPGEMM_DEFAULT, g),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("SpGEMMreuse_nnz");
    assert_int_equal(trnsparseSpGEMMreuse_workEstimation(h, N, N, b.descr, b.descr, b.descr,
                                                         TRNSPARSE_SPGEMM_DEFAULT, g, NULL, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    assert_int_equal(trnsparseSpGEMMreuse_nnz(NULL, N, N, b.descr, b.descr, b.descr,
                                              TRNSPARSE_SPGEMM_DEFAULT, g, NULL, NULL, NULL, NULL,
                                              NULL, NULL),
                     TRNSPARSE_STATUS_NOT_INITIALIZED);
    /* The daemon still serves: a correct Blocked-ELL SpMM. */
    const int32_t good = 1;
    assert_int_equal(trnsciMemcpy(e.d_col, &good, 4, trnsciMemcpyHostToDevice), trnsciSuccess);
    trnsparseDestroyDnMat(cm);
    cm = dn_descr(&C);
    assert_int_equal(trnsparseSpMM(h, N, N, &one, e.descr, bm, &zero, cm, TRNSCI_R_32F,
                                   TRNSPARSE_SPMM_ALG_DEFAULT, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    trnsparseSpGEMM_destroyDescr(g);
    trnsparseSpSV_destroyDescr(sv);
    trnsparseDestroyDnVec(vx);
    trnsparseDestroyDnVec(vy);
    trnsparseDestroyDnVec(y4);
    trnsparseDestroySpMat(sl);
    trnsparseDestroyDnMat(bm);
    trnsparseDestroyDnMat(cm);
    trnsciFree(d_off);
    trnsciFree(d_col);
    trnsciFree(d_val);
    sp_free(&a);
    sp_free(&b);
    trip_free(&t);
    dn_free(&B);
    dn_free(&C);
    bell_free(&e);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

int main(void) {
    if (su_start_daemons(&one_core, &two_cores) != 0)
        return 1;
    local_t.addr = two_cores.unix_addr;
    grpc_t.addr = two_cores.tcp_addr;
    const struct CMUnitTest tests[] = {
        SU_ON(test_blocked_ell, local),
        SU_ON(test_blocked_ell, grpc),
        SU_ON(test_sliced_ell, local),
        SU_ON(test_sliced_ell, grpc),
        SU_ON(test_spsv_sell, local),
        SU_ON(test_spsv_sell, grpc),
        SU_ON(test_batched, local),
        SU_ON(test_batched, grpc),
        SU_ON(test_dense_to_bell, local),
        SU_ON(test_dense_to_bell, grpc),
        SU_ON(test_spgemm_reuse, local),
        SU_ON(test_spgemm_reuse, grpc),
        SU_ONCE(test_split),
        SU_ON(test_errors, local),
        SU_ON(test_errors, grpc),
    };
    int failed = cmocka_run_group_tests_name("sparse_gen", tests, NULL, NULL);
    failed += th_daemon_stop_checked(&one_core, "trnscid --cores 1");
    failed += th_daemon_stop_checked(&two_cores, "trnscid --cores 2");
    return failed ? 1 : 0;
}
