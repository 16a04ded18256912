/*
 * test_sparse_gebsr.c — trnsparse's general-block BSR conversions and the
 * complex conversions through a real 2-core daemon, over the local
 * transport and gRPC over TCP, against scipy.sparse (sparse_gebsr_ref.py
 * under Debian's python3). Conversions move values without arithmetic
 * (except adding duplicates, here of values whose sums are exact), so
 * every array is compared EXACTLY (bitwise values, exact indices):
 *  - Xcsr2gebsrNnz + <t>csr2gebsr (S, D, C, Z) with rowBlockDim x
 *    colBlockDim blocks 1x1, 2x3, 3x2, 4x1, 1x5, 2x2, 3x3, ROW and COLUMN
 *    order, sizes that are not multiples of the blocks, a different index
 *    base on each side, against scipy's tobsr (block data row-major,
 *    transposed per block for COLUMN); square blocks also through the
 *    legacy Xcsr2bsrNnz / <t>csr2bsr / <t>bsr2csr;
 *  - <t>gebsr2csr of that result against scipy's BSR tocsr (every element
 *    of every block);
 *  - Xgebsr2gebsrNnz + <t>gebsr2gebsr to another block size, through the
 *    buffer _bufferSize(Ext) asks for, against scipy's tobsr of that CSR;
 *  - complex Csr2cscEx2 (C_32F, C_64F; both bases) against tocsc,
 *    DenseToSparse (entries with a zero real or imaginary part kept, 0 + 0i
 *    dropped) against csr_matrix(dense), SparseToDense from COO with
 *    duplicates against coo_matrix.todense();
 *  - a conversion large enough for two shards gives the same arrays;
 *  - complex csrgeam2 (C, Z; both bases; alpha = 0 with A's values NULL):
 *    C's offsets and indices exactly the union of A's and B's patterns
 *    (scipy), its values against numpy's alpha A + beta B in complex128.
 *    Bound per real and imaginary part: an entry is (s a)_re + (t b)_re,
 *    each product part two products and a sum (error <= gamma_2 (|s||a|)
 *    by Cauchy-Schwarz), then one more rounding for the sum: gamma_3 (|alpha|
 *    |a| + |beta| |b|) in the value type, plus numpy's own gamma_3 in
 *    double;
 *  - bad input: block dimensions < 1, an unknown direction, block offsets
 *    of another block size, a NULL or short gebsr2gebsr buffer, a complex
 *    Blocked-ELL destination, a NULL handle — each with cuSPARSE's status
 *    and a message; an empty matrix.
 */
#include <complex.h>
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

static th_daemon daemon2;
static char tmp_dir[256]; /* files for sparse_gebsr_ref.py */

static su_transport local_t = {"local", NULL}, grpc_t = {"grpc", NULL};

/* ---- value types ---------------------------------------------------------------------- */

typedef enum vt { VS, VD, VC, VZ } vt;
static const trnsciDataType vt_dt[] = {TRNSCI_R_32F, TRNSCI_R_64F, TRNSCI_C_32F, TRNSCI_C_64F};
static const size_t vt_es[] = {4, 8, 8, 16};
static const char *const vt_name[] = {"S", "D", "C", "Z"};

/* n values of type t from z: the real part for S and D. The test's values
 * are multiples of 1/8 below 8 in magnitude, exact in every type. */
static void *as_type(const double complex *z, size_t n, vt t) {
    char *p = malloc(n * vt_es[t] + 1);
    for (size_t i = 0; i < n; i++) {
        char *at = p + i * vt_es[t];
        const float f[2] = {(float)creal(z[i]), (float)cimag(z[i])};
        const double d[2] = {creal(z[i]), cimag(z[i])};
        memcpy(at, t == VS || t == VC ? (const void *)f : (const void *)d, vt_es[t]);
    }
    return p;
}

/* Blocks of rb x cb, row-major, as the direction's order. */
static double complex *block_order(const double complex *z, size_t nblk, int rb, int cb, int col) {
    const size_t bsz = (size_t)rb * (size_t)cb;
    double complex *o = malloc(nblk * bsz * sizeof(*o) + 1);
    for (size_t b = 0; b < nblk; b++)
        for (int i = 0; i < rb; i++)
            for (int j = 0; j < cb; j++)
                o[b * bsz + (col ? (size_t)i + (size_t)j * rb : (size_t)i * cb + j)] =
                    z[b * bsz + (size_t)i * cb + j];
    return o;
}

/* ---- device helpers ----------------------------------------------------------------- */

static void *dev_zero(size_t bytes) {
    void *p = NULL;
    assert_int_equal(trnsciMalloc(&p, bytes ? bytes : 1), trnsciSuccess);
    assert_int_equal(trnsciMemset(p, 0, bytes ? bytes : 1), trnsciSuccess);
    return p;
}

static void expect_same(const char *what, const void *dev, const void *host, size_t bytes) {
    if (bytes == 0)
        return;
    void *got = su_dev_get(dev, bytes);
    if (memcmp(got, host, bytes) != 0) {
        size_t i = 0;
        while (((const unsigned char *)got)[i] == ((const unsigned char *)host)[i])
            i++;
        fail_msg("%s differs from the reference at byte %zu of %zu", what, i, bytes);
    }
    free(got);
}

/* n int32 values from file name of tmp_dir, plus base. */
static int32_t *ref_idx(const char *name, size_t *n, int base) {
    size_t bytes = 0;
    int32_t *p = su_read_file(tmp_dir, name, &bytes);
    *n = bytes / 4;
    for (size_t i = 0; i < *n; i++)
        p[i] += base;
    return p;
}

static double complex *ref_val(const char *name, size_t *n) {
    size_t bytes = 0;
    double complex *p = su_read_file(tmp_dir, name, &bytes);
    *n = bytes / sizeof(double complex);
    return p;
}

/* An index array with base added, on the device. */
static int *dev_idx(const int32_t *a, size_t n, int base) {
    int32_t *b = malloc(n * 4 + 4);
    for (size_t i = 0; i < n; i++)
        b[i] = a[i] + base;
    void *d = su_dev_put(b, n * 4);
    free(b);
    return d ? d : dev_zero(4);
}

static trnsparseMatDescr_t mat_descr(int base) {
    trnsparseMatDescr_t d;
    assert_int_equal(trnsparseCreateMatDescr(&d), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(
        trnsparseSetMatIndexBase(d, base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO),
        TRNSPARSE_STATUS_SUCCESS);
    return d;
}

/* ---- typed calls ---------------------------------------------------------------------- */

static trnsparseStatus_t csr2gebsr(vt t, trnsparseHandle_t h, trnsparseDirection_t dir, int m,
                                   int n, trnsparseMatDescr_t da, const void *val, const int *rp,
                                   const int *ci, trnsparseMatDescr_t dc, void *bval, int *bptr,
                                   int *bcol, int rb, int cb) {
    switch (t) {
    case VS:
        return trnsparseScsr2gebsr(h, dir, m, n, da, val, rp, ci, dc, bval, bptr, bcol, rb, cb,
                                   NULL);
    case VD:
        return trnsparseDcsr2gebsr(h, dir, m, n, da, val, rp, ci, dc, bval, bptr, bcol, rb, cb,
                                   NULL);
    case VC:
        return trnsparseCcsr2gebsr(h, dir, m, n, da, val, rp, ci, dc, bval, bptr, bcol, rb, cb,
                                   NULL);
    default:
        return trnsparseZcsr2gebsr(h, dir, m, n, da, val, rp, ci, dc, bval, bptr, bcol, rb, cb,
                                   NULL);
    }
}

static trnsparseStatus_t csr2bsr(vt t, trnsparseHandle_t h, trnsparseDirection_t dir, int m, int n,
                                 trnsparseMatDescr_t da, const void *val, const int *rp,
                                 const int *ci, int bs, trnsparseMatDescr_t dc, void *bval,
                                 int *bptr, int *bcol) {
    switch (t) {
    case VS: return trnsparseScsr2bsr(h, dir, m, n, da, val, rp, ci, bs, dc, bval, bptr, bcol);
    case VD: return trnsparseDcsr2bsr(h, dir, m, n, da, val, rp, ci, bs, dc, bval, bptr, bcol);
    case VC: return trnsparseCcsr2bsr(h, dir, m, n, da, val, rp, ci, bs, dc, bval, bptr, bcol);
    default: return trnsparseZcsr2bsr(h, dir, m, n, da, val, rp, ci, bs, dc, bval, bptr, bcol);
    }
}

static trnsparseStatus_t gebsr2csr(vt t, int legacy, trnsparseHandle_t h, trnsparseDirection_t dir,
                                   int mb, int nb, trnsparseMatDescr_t da, const void *bval,
                                   const int *bptr, const int *bcol, int rb, int cb,
                                   trnsparseMatDescr_t dc, void *val, int *rp, int *ci) {
    if (legacy) {
        switch (t) {
        case VS:
            return trnsparseSbsr2csr(h, dir, mb, nb, da, bval, bptr, bcol, rb, dc, val, rp, ci);
        case VD:
            return trnsparseDbsr2csr(h, dir, mb, nb, da, bval, bptr, bcol, rb, dc, val, rp, ci);
        case VC:
            return trnsparseCbsr2csr(h, dir, mb, nb, da, bval, bptr, bcol, rb, dc, val, rp, ci);
        default:
            return trnsparseZbsr2csr(h, dir, mb, nb, da, bval, bptr, bcol, rb, dc, val, rp, ci);
        }
    }
    switch (t) {
    case VS:
        return trnsparseSgebsr2csr(h, dir, mb, nb, da, bval, bptr, bcol, rb, cb, dc, val, rp, ci);
    case VD:
        return trnsparseDgebsr2csr(h, dir, mb, nb, da, bval, bptr, bcol, rb, cb, dc, val, rp, ci);
    case VC:
        return trnsparseCgebsr2csr(h, dir, mb, nb, da, bval, bptr, bcol, rb, cb, dc, val, rp, ci);
    default:
        return trnsparseZgebsr2csr(h, dir, mb, nb, da, bval, bptr, bcol, rb, cb, dc, val, rp, ci);
    }
}

static trnsparseStatus_t csr2gebsr_size(vt t, trnsparseHandle_t h, trnsparseDirection_t dir, int m,
                                        int n, trnsparseMatDescr_t da, int rb, int cb, int *sz,
                                        size_t *szx) {
    trnsparseStatus_t a, b;
    switch (t) {
    case VS:
        a = trnsparseScsr2gebsr_bufferSize(h, dir, m, n, da, NULL, NULL, NULL, rb, cb, sz);
        b = trnsparseScsr2gebsr_bufferSizeExt(h, dir, m, n, da, NULL, NULL, NULL, rb, cb, szx);
        break;
    case VD:
        a = trnsparseDcsr2gebsr_bufferSize(h, dir, m, n, da, NULL, NULL, NULL, rb, cb, sz);
        b = trnsparseDcsr2gebsr_bufferSizeExt(h, dir, m, n, da, NULL, NULL, NULL, rb, cb, szx);
        break;
    case VC:
        a = trnsparseCcsr2gebsr_bufferSize(h, dir, m, n, da, NULL, NULL, NULL, rb, cb, sz);
        b = trnsparseCcsr2gebsr_bufferSizeExt(h, dir, m, n, da, NULL, NULL, NULL, rb, cb, szx);
        break;
    default:
        a = trnsparseZcsr2gebsr_bufferSize(h, dir, m, n, da, NULL, NULL, NULL, rb, cb, sz);
        b = trnsparseZcsr2gebsr_bufferSizeExt(h, dir, m, n, da, NULL, NULL, NULL, rb, cb, szx);
        break;
    }
    return a != TRNSPARSE_STATUS_SUCCESS ? a : b;
}

static trnsparseStatus_t gebsr2gebsr_size(vt t, trnsparseHandle_t h, trnsparseDirection_t dir,
                                          int mb, int nb, int nnzb, trnsparseMatDescr_t da, int rbA,
                                          int cbA, int rbC, int cbC, int *sz, size_t *szx) {
    trnsparseStatus_t a, b;
#define GG_SIZE(P)                                                                                 \
    a = trnsparse##P##gebsr2gebsr_bufferSize(h, dir, mb, nb, nnzb, da, NULL, NULL, NULL, rbA, cbA, \
                                             rbC, cbC, sz);                                        \
    b = trnsparse##P##gebsr2gebsr_bufferSizeExt(h, dir, mb, nb, nnzb, da, NULL, NULL, NULL, rbA,   \
                                                cbA, rbC, cbC, szx);
    switch (t) {
    case VS: GG_SIZE(S) break;
    case VD: GG_SIZE(D) break;
    case VC: GG_SIZE(C) break;
    default: GG_SIZE(Z) break;
    }
#undef GG_SIZE
    return a != TRNSPARSE_STATUS_SUCCESS ? a : b;
}

static trnsparseStatus_t gebsr2gebsr(vt t, trnsparseHandle_t h, trnsparseDirection_t dir, int mb,
                                     int nb, int nnzb, trnsparseMatDescr_t da, const void *aval,
                                     const int *aptr, const int *acol, int rbA, int cbA,
                                     trnsparseMatDescr_t dc, void *cval, int *cptr, int *ccol,
                                     int rbC, int cbC, void *buf) {
    switch (t) {
    case VS:
        return trnsparseSgebsr2gebsr(h, dir, mb, nb, nnzb, da, aval, aptr, acol, rbA, cbA, dc, cval,
                                     cptr, ccol, rbC, cbC, buf);
    case VD:
        return trnsparseDgebsr2gebsr(h, dir, mb, nb, nnzb, da, aval, aptr, acol, rbA, cbA, dc, cval,
                                     cptr, ccol, rbC, cbC, buf);
    case VC:
        return trnsparseCgebsr2gebsr(h, dir, mb, nb, nnzb, da, aval, aptr, acol, rbA, cbA, dc, cval,
                                     cptr, ccol, rbC, cbC, buf);
    default:
        return trnsparseZgebsr2gebsr(h, dir, mb, nb, nnzb, da, aval, aptr, acol, rbA, cbA, dc, cval,
                                     cptr, ccol, rbC, cbC, buf);
    }
}

/* ---- the test matrix ---------------------------------------------------------------- */

/* A zero-based CSR matrix with sorted unique columns; values multiples of
 * 1/8 in (-8, 8), some with a zero real or imaginary part, never 0 + 0i
 * (zero_entries: every 7th entry is stored 0 + 0i instead). */
typedef struct host_csr {
    int m, n, nnz;
    int32_t *ptr, *col;
    double complex *val;
} host_csr;

static double complex eighths(uint64_t *s, int64_t k, int zero_entries) {
    if (zero_entries && k % 7 == 3)
        return 0;
    double re = (double)(int)(su_uniform(s) * 63) / 8, im = (double)(int)(su_uniform(s) * 63) / 8;
    if (k % 5 == 1)
        re = 0;
    if (k % 5 == 2)
        im = 0;
    if (re == 0 && im == 0)
        re = 0.125;
    return re + im * I;
}

static void make_csr(host_csr *a, int m, int n, double density, uint64_t seed, int zero_entries) {
    trip t;
    trip_make(&t, SH_RANDOM, m, n, density, 1, seed);
    a->m = m;
    a->n = n;
    a->nnz = (int)t.nnz;
    a->ptr = calloc((size_t)m + 1, 4);
    a->col = malloc((size_t)t.nnz * 4 + 4);
    a->val = malloc((size_t)t.nnz * sizeof(double complex) + 1);
    uint64_t s = seed * 7 + 1;
    for (int64_t k = 0; k < t.nnz; k++) {
        a->ptr[t.r[k] + 1]++;
        a->col[k] = (int32_t)t.c[k];
        a->val[k] = eighths(&s, k, zero_entries);
    }
    for (int i = 0; i < m; i++)
        a->ptr[i + 1] += a->ptr[i];
    trip_free(&t);
}

static void free_csr(host_csr *a) {
    free(a->ptr);
    free(a->col);
    free(a->val);
}

static void write_csr(const host_csr *a) {
    su_write_file(tmp_dir, "indptr", a->ptr, ((size_t)a->m + 1) * 4);
    su_write_file(tmp_dir, "indices", a->col, (size_t)a->nnz * 4);
    su_write_file(tmp_dir, "data", a->val, (size_t)a->nnz * sizeof(double complex));
}

/* ---- general BSR ------------------------------------------------------------------------ */

static const int cases[][4] = {
    /* rb, cb of the CSR -> BSR; rc, cc of the BSR -> BSR after it */
    {1, 1, 2, 3}, {2, 3, 3, 2}, {3, 2, 1, 4}, {4, 1, 2, 2},
    {1, 5, 5, 1}, {2, 2, 3, 3}, {3, 3, 2, 5},
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

static void test_gebsr(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    host_csr a;
    make_csr(&a, 41, 35, 0.12, 77, 0);
    write_csr(&a);
    char meta[512];
    int len = snprintf(meta, sizeof(meta), "%d %d %d %zu\n", a.m, a.n, a.nnz, NCASES);
    for (size_t k = 0; k < NCASES; k++)
        len += snprintf(meta + len, sizeof(meta) - (size_t)len, "%d %d %d %d\n", cases[k][0],
                        cases[k][1], cases[k][2], cases[k][3]);
    su_write_file(tmp_dir, "meta.txt", meta, strlen(meta));
    su_run_ref(PYTHON3, GEBSR_REF_PY, "gebsr", tmp_dir);

    for (size_t k = 0; k < NCASES; k++) {
        const int rb = cases[k][0], cb = cases[k][1], rc = cases[k][2], cc = cases[k][3];
        const int mb = (a.m + rb - 1) / rb, nb = (a.n + cb - 1) / cb;
        char name[64];
        size_t n_bptr, n_bcol, n_bval, n_cptr, n_ccol, n_cval, n_rptr, n_rcol, n_rval;
        int32_t *bptr0, *bcol0, *cptr0, *ccol0, *rptr0, *rcol0;
        double complex *bval, *cval, *rval;
#define LOAD(v, pre, suf) (snprintf(name, sizeof(name), pre "%zu_" suf, k), v)
        bptr0 = LOAD(ref_idx(name, &n_bptr, 0), "bsr", "indptr");
        bcol0 = LOAD(ref_idx(name, &n_bcol, 0), "bsr", "indices");
        bval = LOAD(ref_val(name, &n_bval), "bsr", "data");
        cptr0 = LOAD(ref_idx(name, &n_cptr, 0), "csr", "indptr");
        ccol0 = LOAD(ref_idx(name, &n_ccol, 0), "csr", "indices");
        cval = LOAD(ref_val(name, &n_cval), "csr", "data");
        rptr0 = LOAD(ref_idx(name, &n_rptr, 0), "re", "indptr");
        rcol0 = LOAD(ref_idx(name, &n_rcol, 0), "re", "indices");
        rval = LOAD(ref_val(name, &n_rval), "re", "data");
#undef LOAD
        const int nnzb = (int)n_bcol, nnzr = (int)n_rcol;
        assert_int_equal(n_bptr, (size_t)mb + 1);
        assert_int_equal(n_bval, (size_t)nnzb * rb * cb);
        assert_int_equal(n_cptr, (size_t)mb * rb + 1);
        const int mr = (mb * rb + rc - 1) / rc, nr = (nb * cb + cc - 1) / cc;
        assert_int_equal(n_rptr, (size_t)mr + 1);
        for (int t = VS; t <= VZ; t++)
            for (int col = 0; col <= 1; col++) {
                const int abase = (int)(k + (size_t)t) % 2, cbase = (abase + col + 1) % 2;
                /* Square blocks in COLUMN order go through the legacy names. */
                const int legacy = rb == cb && col;
                const trnsparseDirection_t dir =
                    col ? TRNSPARSE_DIRECTION_COLUMN : TRNSPARSE_DIRECTION_ROW;
                const size_t es = vt_es[t];
                trnsparseMatDescr_t da = mat_descr(abase), dc = mat_descr(cbase);
                int *d_ptr = dev_idx(a.ptr, (size_t)a.m + 1, abase);
                int *d_col = dev_idx(a.col, (size_t)a.nnz, abase);
                void *hval = as_type(a.val, (size_t)a.nnz, t);
                void *d_val = su_dev_put(hval, (size_t)a.nnz * es);
                /* CSR -> BSR */
                int sz = -1;
                size_t szx = 1;
                assert_int_equal(csr2gebsr_size(t, h, dir, a.m, a.n, da, rb, cb, &sz, &szx),
                                 TRNSPARSE_STATUS_SUCCESS);
                assert_true(sz == 0 && szx == 0);
                int *d_bptr = dev_zero(((size_t)mb + 1) * 4);
                int got_nnzb = -1;
                trnsparseStatus_t st =
                    legacy ? trnsparseXcsr2bsrNnz(h, dir, a.m, a.n, da, d_ptr, d_col, rb, dc,
                                                  d_bptr, &got_nnzb)
                           : trnsparseXcsr2gebsrNnz(h, dir, a.m, a.n, da, d_ptr, d_col, dc, d_bptr,
                                                    rb, cb, &got_nnzb, NULL);
                assert_int_equal(st, TRNSPARSE_STATUS_SUCCESS);
                assert_int_equal(got_nnzb, nnzb);
                int32_t *want_bptr = ref_idx(
                    (snprintf(name, sizeof(name), "bsr%zu_indptr", k), name), &n_bptr, cbase);
                expect_same("bsrRowPtrC", d_bptr, want_bptr, n_bptr * 4);
                int *d_bcol = dev_zero((size_t)nnzb * 4);
                void *d_bval = dev_zero((size_t)nnzb * rb * cb * es);
                st = legacy ? csr2bsr(t, h, dir, a.m, a.n, da, d_val, d_ptr, d_col, rb, dc, d_bval,
                                      d_bptr, d_bcol)
                            : csr2gebsr(t, h, dir, a.m, a.n, da, d_val, d_ptr, d_col, dc, d_bval,
                                        d_bptr, d_bcol, rb, cb);
                assert_int_equal(st, TRNSPARSE_STATUS_SUCCESS);
                int32_t *want_bcol = malloc((size_t)nnzb * 4 + 4);
                for (int i = 0; i < nnzb; i++)
                    want_bcol[i] = bcol0[i] + cbase;
                expect_same("bsrColIndC", d_bcol, want_bcol, (size_t)nnzb * 4);
                double complex *ordered = block_order(bval, (size_t)nnzb, rb, cb, col);
                void *want_bval = as_type(ordered, n_bval, t);
                expect_same("bsrValC", d_bval, want_bval, n_bval * es);
                /* BSR -> CSR (into abase) */
                const size_t enz = n_cval;
                int *d_cptr = dev_zero(n_cptr * 4), *d_ccol = dev_zero(enz * 4);
                void *d_cval = dev_zero(enz * es);
                st = gebsr2csr(t, legacy, h, dir, mb, nb, dc, d_bval, d_bptr, d_bcol, rb, cb, da,
                               d_cval, d_cptr, d_ccol);
                assert_int_equal(st, TRNSPARSE_STATUS_SUCCESS);
                int32_t *want_cptr = malloc(n_cptr * 4), *want_ccol = malloc(enz * 4 + 4);
                for (size_t i = 0; i < n_cptr; i++)
                    want_cptr[i] = cptr0[i] + abase;
                for (size_t i = 0; i < enz; i++)
                    want_ccol[i] = ccol0[i] + abase;
                void *want_cval = as_type(cval, enz, t);
                expect_same("csrRowPtrC", d_cptr, want_cptr, n_cptr * 4);
                expect_same("csrColIndC", d_ccol, want_ccol, enz * 4);
                expect_same("csrValC", d_cval, want_cval, enz * es);
                /* BSR (cbase) -> BSR of rc x cc (abase) */
                assert_int_equal(
                    gebsr2gebsr_size(t, h, dir, mb, nb, nnzb, dc, rb, cb, rc, cc, &sz, &szx),
                    TRNSPARSE_STATUS_SUCCESS);
                assert_true(sz > 0 && (size_t)sz == szx);
                void *buf = dev_zero(szx);
                int *d_rptr = dev_zero(((size_t)mr + 1) * 4);
                got_nnzb = -1;
                assert_int_equal(trnsparseXgebsr2gebsrNnz(h, dir, mb, nb, nnzb, dc, d_bptr, d_bcol,
                                                          rb, cb, da, d_rptr, rc, cc, &got_nnzb,
                                                          buf),
                                 TRNSPARSE_STATUS_SUCCESS);
                assert_int_equal(got_nnzb, nnzr);
                int32_t *want_rptr = malloc(n_rptr * 4), *want_rcol = malloc(n_rcol * 4 + 4);
                for (size_t i = 0; i < n_rptr; i++)
                    want_rptr[i] = rptr0[i] + abase;
                for (size_t i = 0; i < n_rcol; i++)
                    want_rcol[i] = rcol0[i] + abase;
                expect_same("gebsr2gebsr bsrRowPtrC", d_rptr, want_rptr, n_rptr * 4);
                int *d_rcol = dev_zero((size_t)nnzr * 4);
                void *d_rval = dev_zero(n_rval * es);
                assert_int_equal(gebsr2gebsr(t, h, dir, mb, nb, nnzb, dc, d_bval, d_bptr, d_bcol,
                                             rb, cb, da, d_rval, d_rptr, d_rcol, rc, cc, buf),
                                 TRNSPARSE_STATUS_SUCCESS);
                expect_same("gebsr2gebsr bsrColIndC", d_rcol, want_rcol, n_rcol * 4);
                double complex *rordered = block_order(rval, (size_t)nnzr, rc, cc, col);
                void *want_rval = as_type(rordered, n_rval, t);
                expect_same("gebsr2gebsr bsrValC", d_rval, want_rval, n_rval * es);
                (void)nr;

                void *frees[] = {d_ptr,  d_col,  d_val, d_bptr, d_bcol, d_bval, d_cptr,
                                 d_ccol, d_cval, buf,   d_rptr, d_rcol, d_rval};
                for (size_t i = 0; i < sizeof(frees) / sizeof(frees[0]); i++)
                    assert_int_equal(trnsciFree(frees[i]), trnsciSuccess);
                void *hfrees[] = {hval,      want_bptr, want_bcol, ordered,   want_bval, want_cptr,
                                  want_ccol, want_cval, want_rptr, want_rcol, rordered,  want_rval};
                for (size_t i = 0; i < sizeof(hfrees) / sizeof(hfrees[0]); i++)
                    free(hfrees[i]);
                trnsparseDestroyMatDescr(da);
                trnsparseDestroyMatDescr(dc);
                (void)vt_name;
            }
        void *hf[] = {bptr0, bcol0, bval, cptr0, ccol0, cval, rptr0, rcol0, rval};
        for (size_t i = 0; i < sizeof(hf) / sizeof(hf[0]); i++)
            free(hf[i]);
    }
    free_csr(&a);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- complex Csr2cscEx2, DenseToSparse, SparseToDense ----------------------------------- */

static void test_complex(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    host_csr a;
    make_csr(&a, 29, 23, 0.2, 91, 1); /* stored 0 + 0i entries: DenseToSparse drops them */
    write_csr(&a);
    /* COO with duplicates: the CSR's entries, then every third again. */
    const int ncoo = a.nnz + (a.nnz + 2) / 3;
    int32_t *crow = malloc((size_t)ncoo * 4), *ccol = malloc((size_t)ncoo * 4);
    double complex *cv = malloc((size_t)ncoo * sizeof(double complex));
    int q = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < a.m; i++)
            for (int p = a.ptr[i]; p < a.ptr[i + 1]; p++)
                if (pass == 0 || p % 3 == 0) {
                    crow[q] = i;
                    ccol[q] = a.col[p];
                    cv[q] = a.val[p] * (pass ? 0.5 : 1.0) + (pass ? 0.25 * I : 0);
                    q++;
                }
    assert_int_equal(q, ncoo);
    su_write_file(tmp_dir, "coo_row", crow, (size_t)ncoo * 4);
    su_write_file(tmp_dir, "coo_col", ccol, (size_t)ncoo * 4);
    su_write_file(tmp_dir, "coo_data", cv, (size_t)ncoo * sizeof(double complex));
    char meta[128];
    snprintf(meta, sizeof(meta), "%d %d %d %d\n", a.m, a.n, a.nnz, ncoo);
    su_write_file(tmp_dir, "meta.txt", meta, strlen(meta));
    su_run_ref(PYTHON3, GEBSR_REF_PY, "misc", tmp_dir);
    size_t n_ptr, n_idx, n_val, n_dense, n_coo;
    int32_t *csc_ptr = ref_idx("csc_indptr", &n_ptr, 0),
            *csc_idx = ref_idx("csc_indices", &n_idx, 0);
    double complex *csc_val = ref_val("csc_data", &n_val);
    double complex *dense = ref_val("dense", &n_dense);
    double complex *coo_dense = ref_val("coo_dense", &n_coo);
    size_t n_sptr, n_sidx, n_sval;
    int32_t *s_ptr = ref_idx("d2s_indptr", &n_sptr, 0), *s_idx = ref_idx("d2s_indices", &n_sidx, 0);
    double complex *s_val = ref_val("d2s_data", &n_sval);
    assert_int_equal(n_dense, (size_t)a.m * a.n);
    assert_true(n_sidx < (size_t)a.nnz); /* the stored zeros were dropped */

    for (int t = VC; t <= VZ; t++)
        for (int base = 0; base <= 1; base++) {
            const size_t es = vt_es[t];
            /* Csr2cscEx2 */
            int *d_ptr = dev_idx(a.ptr, (size_t)a.m + 1, base),
                *d_col = dev_idx(a.col, (size_t)a.nnz, base);
            void *hv = as_type(a.val, (size_t)a.nnz, t);
            void *d_val = su_dev_put(hv, (size_t)a.nnz * es);
            int *d_cptr = dev_zero(((size_t)a.n + 1) * 4), *d_cidx = dev_zero((size_t)a.nnz * 4);
            void *d_cval = dev_zero((size_t)a.nnz * es);
            size_t bsz = 1;
            assert_int_equal(trnsparseCsr2cscEx2_bufferSize(
                                 h, a.m, a.n, a.nnz, d_val, d_ptr, d_col, d_cval, d_cptr, d_cidx,
                                 vt_dt[t], TRNSPARSE_ACTION_NUMERIC,
                                 base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO,
                                 TRNSPARSE_CSR2CSC_ALG1, &bsz),
                             TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(
                trnsparseCsr2cscEx2(h, a.m, a.n, a.nnz, d_val, d_ptr, d_col, d_cval, d_cptr, d_cidx,
                                    vt_dt[t], TRNSPARSE_ACTION_NUMERIC,
                                    base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO,
                                    TRNSPARSE_CSR2CSC_ALG1, NULL),
                TRNSPARSE_STATUS_SUCCESS);
            int32_t *wp = malloc(n_ptr * 4), *wi = malloc(n_idx * 4 + 4);
            for (size_t i = 0; i < n_ptr; i++)
                wp[i] = csc_ptr[i] + base;
            for (size_t i = 0; i < n_idx; i++)
                wi[i] = csc_idx[i] + base;
            void *wv = as_type(csc_val, n_val, t);
            expect_same("cscColPtr", d_cptr, wp, n_ptr * 4);
            expect_same("cscRowInd", d_cidx, wi, n_idx * 4);
            expect_same("cscVal", d_cval, wv, n_val * es);
            free(wp);
            free(wi);
            free(wv);

            /* DenseToSparse from a column-major dense matrix with padding. */
            const int64_t ld = a.m + 3;
            double complex *padded = calloc((size_t)(ld * a.n), sizeof(double complex));
            for (int j = 0; j < a.n; j++)
                for (int i = 0; i < a.m; i++)
                    padded[i + j * ld] = dense[(size_t)i + (size_t)j * a.m];
            void *hd = as_type(padded, (size_t)(ld * a.n), t);
            void *d_dense = su_dev_put(hd, (size_t)(ld * a.n) * es);
            trnsparseDnMatDescr_t dm;
            assert_int_equal(
                trnsparseCreateDnMat(&dm, a.m, a.n, ld, d_dense, vt_dt[t], TRNSPARSE_ORDER_COL),
                TRNSPARSE_STATUS_SUCCESS);
            int *d_soff = dev_zero(((size_t)a.m + 1) * 4);
            trnsparseSpMatDescr_t sm;
            assert_int_equal(
                trnsparseCreateCsr(
                    &sm, a.m, a.n, 0, d_soff, NULL, NULL, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                    base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO, vt_dt[t]),
                TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(trnsparseDenseToSparse_analysis(
                                 h, dm, sm, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, NULL),
                             TRNSPARSE_STATUS_SUCCESS);
            int64_t r, c, nz;
            assert_int_equal(trnsparseSpMatGetSize(sm, &r, &c, &nz), TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(nz, (int64_t)n_sidx);
            int *d_sidx = dev_zero(n_sidx * 4);
            void *d_sval = dev_zero(n_sval * es);
            assert_int_equal(trnsparseCsrSetPointers(sm, d_soff, d_sidx, d_sval),
                             TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(trnsparseDenseToSparse_convert(
                                 h, dm, sm, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, NULL),
                             TRNSPARSE_STATUS_SUCCESS);
            wp = malloc(n_sptr * 4);
            wi = malloc(n_sidx * 4 + 4);
            for (size_t i = 0; i < n_sptr; i++)
                wp[i] = s_ptr[i] + base;
            for (size_t i = 0; i < n_sidx; i++)
                wi[i] = s_idx[i] + base;
            wv = as_type(s_val, n_sval, t);
            expect_same("DenseToSparse offsets", d_soff, wp, n_sptr * 4);
            expect_same("DenseToSparse indices", d_sidx, wi, n_sidx * 4);
            expect_same("DenseToSparse values", d_sval, wv, n_sval * es);
            free(wp);
            free(wi);
            free(wv);

            /* SparseToDense from COO with duplicates, into the padded matrix:
             * the padding rows must come back unchanged. */
            int *d_crow = dev_idx(crow, (size_t)ncoo, base),
                *d_ccol = dev_idx(ccol, (size_t)ncoo, base);
            void *hcv = as_type(cv, (size_t)ncoo, t);
            void *d_cv = su_dev_put(hcv, (size_t)ncoo * es);
            trnsparseSpMatDescr_t coo;
            assert_int_equal(
                trnsparseCreateCoo(&coo, a.m, a.n, ncoo, d_crow, d_ccol, d_cv, TRNSPARSE_INDEX_32I,
                                   base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO,
                                   vt_dt[t]),
                TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(
                trnsparseSparseToDense(h, coo, dm, TRNSPARSE_SPARSETODENSE_ALG_DEFAULT, NULL),
                TRNSPARSE_STATUS_SUCCESS);
            for (int j = 0; j < a.n; j++)
                for (int i = 0; i < a.m; i++)
                    padded[i + j * ld] = coo_dense[(size_t)i + (size_t)j * a.m];
            void *want_d = as_type(padded, (size_t)(ld * a.n), t);
            expect_same("SparseToDense", d_dense, want_d, (size_t)(ld * a.n) * es);
            free(want_d);

            trnsparseDestroySpMat(coo);
            trnsparseDestroySpMat(sm);
            trnsparseDestroyDnMat(dm);
            void *frees[] = {d_ptr,  d_col,  d_val,  d_cptr, d_cidx, d_cval, d_dense,
                             d_soff, d_sidx, d_sval, d_crow, d_ccol, d_cv};
            for (size_t i = 0; i < sizeof(frees) / sizeof(frees[0]); i++)
                assert_int_equal(trnsciFree(frees[i]), trnsciSuccess);
            free(hv);
            free(hd);
            free(hcv);
            free(padded);
        }
    void *hf[] = {crow, ccol, cv, csc_ptr, csc_idx, csc_val, dense, coo_dense, s_ptr, s_idx, s_val};
    for (size_t i = 0; i < sizeof(hf) / sizeof(hf[0]); i++)
        free(hf[i]);
    free_csr(&a);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- two shards --------------------------------------------------------------------- */

/* csr2gebsr and gebsr2csr split block rows over the daemon's two cores;
 * the arrays are those of the one-shard ... run: compared with scipy, as
 * above, on a matrix large enough to split. */
static void test_sharded(void **state) {
    (void)state;
    const char *addr = daemon2.unix_addr;
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    host_csr a;
    make_csr(&a, 3001, 2003, 0.01, 5, 0);
    write_csr(&a);
    const int rb = 3, cb = 5, rc = 4, cc = 2;
    char meta[128];
    snprintf(meta, sizeof(meta), "%d %d %d 1\n%d %d %d %d\n", a.m, a.n, a.nnz, rb, cb, rc, cc);
    su_write_file(tmp_dir, "meta.txt", meta, strlen(meta));
    su_run_ref(PYTHON3, GEBSR_REF_PY, "gebsr", tmp_dir);
    size_t n_bptr, n_bcol, n_bval, n_cptr, n_ccol, n_cval;
    int32_t *bptr = ref_idx("bsr0_indptr", &n_bptr, 0), *bcol = ref_idx("bsr0_indices", &n_bcol, 0);
    double complex *bval = ref_val("bsr0_data", &n_bval);
    int32_t *cptr = ref_idx("csr0_indptr", &n_cptr, 0), *ccol = ref_idx("csr0_indices", &n_ccol, 0);
    double complex *cval = ref_val("csr0_data", &n_cval);
    const int mb = (a.m + rb - 1) / rb, nb = (a.n + cb - 1) / cb, nnzb = (int)n_bcol;
    trnsparseMatDescr_t d0 = mat_descr(0);
    int *d_ptr = dev_idx(a.ptr, (size_t)a.m + 1, 0), *d_col = dev_idx(a.col, (size_t)a.nnz, 0);
    void *hv = as_type(a.val, (size_t)a.nnz, VD);
    void *d_val = su_dev_put(hv, (size_t)a.nnz * 8);
    int *d_bptr = dev_zero(n_bptr * 4), *d_bcol = dev_zero(n_bcol * 4);
    double *d_bval = dev_zero(n_bval * 8);
    int got = -1;
    assert_int_equal(trnsparseXcsr2gebsrNnz(h, TRNSPARSE_DIRECTION_ROW, a.m, a.n, d0, d_ptr, d_col,
                                            d0, d_bptr, rb, cb, &got, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(got, nnzb);
    uint64_t before = su_shards_run(addr);
    assert_int_equal(trnsparseDcsr2gebsr(h, TRNSPARSE_DIRECTION_ROW, a.m, a.n, d0, d_val, d_ptr,
                                         d_col, d0, d_bval, d_bptr, d_bcol, rb, cb, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    void *wv = as_type(bval, n_bval, VD);
    expect_same("bsrRowPtrC (sharded)", d_bptr, bptr, n_bptr * 4);
    expect_same("bsrColIndC (sharded)", d_bcol, bcol, n_bcol * 4);
    expect_same("bsrValC (sharded)", d_bval, wv, n_bval * 8);
    assert_true(su_shards_run(addr) - before >= 2);
    int *d_cptr = dev_zero(n_cptr * 4), *d_ccol = dev_zero(n_ccol * 4);
    double *d_cval = dev_zero(n_cval * 8);
    before = su_shards_run(addr);
    assert_int_equal(trnsparseDgebsr2csr(h, TRNSPARSE_DIRECTION_ROW, mb, nb, d0, d_bval, d_bptr,
                                         d_bcol, rb, cb, d0, d_cval, d_cptr, d_ccol),
                     TRNSPARSE_STATUS_SUCCESS);
    void *wc = as_type(cval, n_cval, VD);
    expect_same("csrRowPtrC (sharded)", d_cptr, cptr, n_cptr * 4);
    expect_same("csrColIndC (sharded)", d_ccol, ccol, n_ccol * 4);
    expect_same("csrValC (sharded)", d_cval, wc, n_cval * 8);
    assert_true(su_shards_run(addr) - before >= 2);
    void *frees[] = {d_ptr, d_col, d_val, d_bptr, d_bcol, d_bval, d_cptr, d_ccol, d_cval};
    for (size_t i = 0; i < sizeof(frees) / sizeof(frees[0]); i++)
        assert_int_equal(trnsciFree(frees[i]), trnsciSuccess);
    void *hf[] = {hv, wv, wc, bptr, bcol, bval, cptr, ccol, cval};
    for (size_t i = 0; i < sizeof(hf) / sizeof(hf[0]); i++)
        free(hf[i]);
    trnsparseDestroyMatDescr(d0);
    free_csr(&a);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- complex csrgeam2 ----------------------------------------------------------------- */

static void random_csr(host_csr *a, int m, int n, double density, uint64_t seed, vt t) {
    make_csr(a, m, n, density, seed, 0);
    uint64_t s = seed * 13 + 5;
    for (int k = 0; k < a->nnz; k++) {
        const double re = su_uniform(&s), im = su_uniform(&s);
        a->val[k] = t == VC ? (double)(float)re + (double)(float)im * I : re + im * I;
    }
}

static void write_named(const char *pre, const host_csr *a) {
    char name[32];
    snprintf(name, sizeof(name), "%s_indptr", pre);
    su_write_file(tmp_dir, name, a->ptr, ((size_t)a->m + 1) * 4);
    snprintf(name, sizeof(name), "%s_indices", pre);
    su_write_file(tmp_dir, name, a->col, (size_t)a->nnz * 4);
    snprintf(name, sizeof(name), "%s_data", pre);
    su_write_file(tmp_dir, name, a->val, (size_t)a->nnz * sizeof(double complex));
}

static trnsparseStatus_t csrgeam2(vt t, trnsparseHandle_t h, int m, int n, const void *alpha,
                                  trnsparseMatDescr_t da, int nnzA, const void *va, const int *pa,
                                  const int *ca, const void *beta, trnsparseMatDescr_t db, int nnzB,
                                  const void *vb, const int *pb, const int *cb,
                                  trnsparseMatDescr_t dc, void *vc, int *pc, int *cc,
                                  size_t *size) {
    if (t == VC)
        return size ? trnsparseCcsrgeam2_bufferSizeExt(h, m, n, alpha, da, nnzA, va, pa, ca, beta,
                                                       db, nnzB, vb, pb, cb, dc, vc, pc, cc, size)
                    : trnsparseCcsrgeam2(h, m, n, alpha, da, nnzA, va, pa, ca, beta, db, nnzB, vb,
                                         pb, cb, dc, vc, pc, cc, NULL);
    return size ? trnsparseZcsrgeam2_bufferSizeExt(h, m, n, alpha, da, nnzA, va, pa, ca, beta, db,
                                                   nnzB, vb, pb, cb, dc, vc, pc, cc, size)
                : trnsparseZcsrgeam2(h, m, n, alpha, da, nnzA, va, pa, ca, beta, db, nnzB, vb, pb,
                                     cb, dc, vc, pc, cc, NULL);
}

static void test_geam(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    /* Scalars exact in float; case 1 has alpha = 0 (A's values NULL). */
    static const double sc[2][4] = {{0.75, -1.25, -0.5, 2.0}, {0.0, 0.0, 1.5, 0.25}};
    const int m = 33, n = 27;
    for (int t = VC; t <= VZ; t++) {
        host_csr a, b;
        random_csr(&a, m, n, 0.15, 11 + (uint64_t)t, (vt)t);
        random_csr(&b, m, n, 0.15, 23 + (uint64_t)t, (vt)t);
        write_named("a", &a);
        write_named("b", &b);
        char meta[256];
        snprintf(meta, sizeof(meta), "%d %d 2\n%g %g %g %g\n%g %g %g %g\n", m, n, sc[0][0],
                 sc[0][1], sc[0][2], sc[0][3], sc[1][0], sc[1][1], sc[1][2], sc[1][3]);
        su_write_file(tmp_dir, "meta.txt", meta, strlen(meta));
        su_run_ref(PYTHON3, GEBSR_REF_PY, "geam", tmp_dir);
        size_t n_uptr, n_uidx;
        int32_t *uptr = ref_idx("u_indptr", &n_uptr, 0), *uidx = ref_idx("u_indices", &n_uidx, 0);
        const size_t es = vt_es[t];
        const int dbl = t == VZ;
        /* gamma_3 of the value type plus numpy's gamma_3 in double. */
        const long double g = su_gamma(dbl, 3) + su_gamma(1, 3);
        for (int k = 0; k < 2; k++)
            for (int base = 0; base <= 1; base++) {
                trnsparseMatDescr_t da = mat_descr(base), db = mat_descr(1 - base),
                                    dc = mat_descr(base);
                int *pa = dev_idx(a.ptr, (size_t)m + 1, base),
                    *ca = dev_idx(a.col, (size_t)a.nnz, base);
                int *pb = dev_idx(b.ptr, (size_t)m + 1, 1 - base),
                    *cb = dev_idx(b.col, (size_t)b.nnz, 1 - base);
                void *ha = as_type(a.val, (size_t)a.nnz, (vt)t),
                     *hb = as_type(b.val, (size_t)b.nnz, (vt)t);
                void *va = su_dev_put(ha, (size_t)a.nnz * es),
                     *vb = su_dev_put(hb, (size_t)b.nnz * es);
                const double complex al = sc[k][0] + sc[k][1] * I, be = sc[k][2] + sc[k][3] * I;
                void *hal = as_type(&al, 1, (vt)t), *hbe = as_type(&be, 1, (vt)t);
                int *pc = dev_zero(((size_t)m + 1) * 4);
                int nnzc = -1;
                assert_int_equal(trnsparseXcsrgeam2Nnz(h, m, n, da, a.nnz, pa, ca, db, b.nnz, pb,
                                                       cb, dc, pc, &nnzc, NULL),
                                 TRNSPARSE_STATUS_SUCCESS);
                assert_int_equal(nnzc, (int)n_uidx);
                int32_t *wp = malloc(n_uptr * 4), *wi = malloc(n_uidx * 4 + 4);
                for (size_t i = 0; i < n_uptr; i++)
                    wp[i] = uptr[i] + base;
                for (size_t i = 0; i < n_uidx; i++)
                    wi[i] = uidx[i] + base;
                expect_same("csrgeam2 csrRowPtrC", pc, wp, n_uptr * 4);
                int *cc = dev_zero(n_uidx * 4);
                void *vc = dev_zero(n_uidx * es);
                const void *va_k = k == 1 ? NULL : va;
                size_t size = 1;
                assert_int_equal(csrgeam2((vt)t, h, m, n, hal, da, a.nnz, va_k, pa, ca, hbe, db,
                                          b.nnz, vb, pb, cb, dc, vc, pc, cc, &size),
                                 TRNSPARSE_STATUS_SUCCESS);
                assert_int_equal(size, 0);
                assert_int_equal(csrgeam2((vt)t, h, m, n, hal, da, a.nnz, va_k, pa, ca, hbe, db,
                                          b.nnz, vb, pb, cb, dc, vc, pc, cc, NULL),
                                 TRNSPARSE_STATUS_SUCCESS);
                expect_same("csrgeam2 csrColIndC", cc, wi, n_uidx * 4);
                char name[32];
                size_t n_c, n_b;
                snprintf(name, sizeof(name), "c%d_data", k);
                double complex *want = ref_val(name, &n_c);
                snprintf(name, sizeof(name), "c%d_bound", k);
                size_t bytes = 0;
                double *bound = su_read_file(tmp_dir, name, &bytes);
                n_b = bytes / 8;
                assert_int_equal(n_c, n_uidx);
                assert_int_equal(n_b, n_uidx);
                void *got = su_dev_get(vc, n_uidx * es);
                for (size_t i = 0; i < n_uidx; i++) {
                    const long double re = dbl ? ((double *)got)[2 * i] : ((float *)got)[2 * i];
                    const long double im =
                        dbl ? ((double *)got)[2 * i + 1] : ((float *)got)[2 * i + 1];
                    const long double tol = g * bound[i];
                    if (fabsl(re - creal(want[i])) > tol || fabsl(im - cimag(want[i])) > tol)
                        fail_msg("%s csrgeam2 case %d entry %zu: (%Lg, %Lg) vs (%g, %g), bound %Lg",
                                 vt_name[t], k, i, re, im, creal(want[i]), cimag(want[i]), tol);
                }
                free(got);
                free(want);
                free(bound);
                free(wp);
                free(wi);
                void *frees[] = {pa, ca, pb, cb, va, vb, pc, cc, vc};
                for (size_t i = 0; i < sizeof(frees) / sizeof(frees[0]); i++)
                    assert_int_equal(trnsciFree(frees[i]), trnsciSuccess);
                free(ha);
                free(hb);
                free(hal);
                free(hbe);
                trnsparseDestroyMatDescr(da);
                trnsparseDestroyMatDescr(db);
                trnsparseDestroyMatDescr(dc);
            }
        free(uptr);
        free(uidx);
        free_csr(&a);
        free_csr(&b);
    }
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- bad input ------------------------------------------------------------------------- */

static void test_bad(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    host_csr a;
    make_csr(&a, 12, 10, 0.3, 3, 0);
    trnsparseMatDescr_t d0 = mat_descr(0);
    int *d_ptr = dev_idx(a.ptr, (size_t)a.m + 1, 0), *d_col = dev_idx(a.col, (size_t)a.nnz, 0);
    void *hv = as_type(a.val, (size_t)a.nnz, VZ);
    void *d_val = su_dev_put(hv, (size_t)a.nnz * 16);
    int *d_bptr = dev_zero(64 * 4), *d_bcol = dev_zero((size_t)a.nnz * 4);
    void *d_bval = dev_zero((size_t)a.nnz * 6 * 16);
    int nnzb = -1;
    /* Block dimensions < 1. */
    assert_int_equal(trnsparseXcsr2gebsrNnz(h, TRNSPARSE_DIRECTION_ROW, a.m, a.n, d0, d_ptr, d_col,
                                            d0, d_bptr, 0, 2, &nnzb, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("block size");
    assert_int_equal(trnsparseZcsr2gebsr(h, TRNSPARSE_DIRECTION_COLUMN, a.m, a.n, d0, d_val, d_ptr,
                                         d_col, d0, d_bval, d_bptr, d_bcol, 2, -1, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("block size");
    /* An unknown direction. */
    assert_int_equal(trnsparseZcsr2gebsr(h, (trnsparseDirection_t)2, a.m, a.n, d0, d_val, d_ptr,
                                         d_col, d0, d_bval, d_bptr, d_bcol, 2, 3, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("dirA");
    /* Block offsets of another block size (2 x 3, then filled as 3 x 2). */
    assert_int_equal(trnsparseXcsr2gebsrNnz(h, TRNSPARSE_DIRECTION_ROW, a.m, a.n, d0, d_ptr, d_col,
                                            d0, d_bptr, 2, 3, &nnzb, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseZcsr2gebsr(h, TRNSPARSE_DIRECTION_ROW, a.m, a.n, d0, d_val, d_ptr,
                                         d_col, d0, d_bval, d_bptr, d_bcol, 3, 2, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorInvalidValue);
    su_expect_message("compute them with trnsparseXcsr2bsrNnz");
    /* gebsr2gebsr: NULL buffer, a buffer too short, a negative nnzb. */
    assert_int_equal(trnsparseXcsr2gebsrNnz(h, TRNSPARSE_DIRECTION_ROW, a.m, a.n, d0, d_ptr, d_col,
                                            d0, d_bptr, 2, 3, &nnzb, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseZcsr2gebsr(h, TRNSPARSE_DIRECTION_ROW, a.m, a.n, d0, d_val, d_ptr,
                                         d_col, d0, d_bval, d_bptr, d_bcol, 2, 3, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    const int mb = (a.m + 1) / 2, nb = (a.n + 2) / 3;
    int sz = 0;
    assert_int_equal(trnsparseZgebsr2gebsr_bufferSize(h, TRNSPARSE_DIRECTION_ROW, mb, nb, -1, d0,
                                                      d_bval, d_bptr, d_bcol, 2, 3, 4, 4, &sz),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("nnzb=-1");
    assert_int_equal(trnsparseZgebsr2gebsr_bufferSize(h, TRNSPARSE_DIRECTION_ROW, mb, nb, nnzb, d0,
                                                      d_bval, d_bptr, d_bcol, 2, 3, 4, 4, &sz),
                     TRNSPARSE_STATUS_SUCCESS);
    int *d_rptr = dev_zero(64 * 4);
    assert_int_equal(trnsparseXgebsr2gebsrNnz(h, TRNSPARSE_DIRECTION_ROW, mb, nb, nnzb, d0, d_bptr,
                                              d_bcol, 2, 3, d0, d_rptr, 4, 4, NULL, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("pBuffer is NULL");
    void *small = dev_zero((size_t)sz / 2);
    assert_int_equal(trnsparseZgebsr2gebsr(h, TRNSPARSE_DIRECTION_ROW, mb, nb, nnzb, d0, d_bval,
                                           d_bptr, d_bcol, 2, 3, d0, d_bval, d_rptr, d_bcol, 4, 4,
                                           small),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    /* A complex Blocked-ELL destination. */
    trnsparseDnMatDescr_t dm;
    assert_int_equal(trnsparseCreateDnMat(&dm, 4, 4, 4, d_bval, TRNSCI_C_64F, TRNSPARSE_ORDER_COL),
                     TRNSPARSE_STATUS_SUCCESS);
    trnsparseSpMatDescr_t ell;
    assert_int_equal(trnsparseCreateBlockedEll(&ell, 4, 4, 2, 2, d_bcol, d_val, TRNSPARSE_INDEX_32I,
                                               TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_C_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(
        trnsparseDenseToSparse_convert(h, dm, ell, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, NULL),
        TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("complex Blocked-ELL");
    trnsparseDestroySpMat(ell);
    trnsparseDestroyDnMat(dm);
    /* A NULL handle. */
    assert_int_equal(trnsparseXcsr2gebsrNnz(NULL, TRNSPARSE_DIRECTION_ROW, a.m, a.n, d0, d_ptr,
                                            d_col, d0, d_bptr, 2, 3, &nnzb, NULL),
                     TRNSPARSE_STATUS_NOT_INITIALIZED);
    assert_int_equal(trnsparseXgebsr2gebsrNnz(NULL, TRNSPARSE_DIRECTION_ROW, mb, nb, nnzb, d0,
                                              d_bptr, d_bcol, 2, 3, d0, d_rptr, 4, 4, NULL, NULL),
                     TRNSPARSE_STATUS_NOT_INITIALIZED);
    /* An empty matrix: no block rows, the one offset is the base. */
    trnsparseMatDescr_t d1 = mat_descr(1);
    assert_int_equal(trnsparseXcsr2gebsrNnz(h, TRNSPARSE_DIRECTION_ROW, 0, 7, d0, d_ptr, d_col, d1,
                                            d_rptr, 2, 3, &nnzb, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(nnzb, 0);
    const int32_t one = 1;
    expect_same("empty bsrRowPtrC", d_rptr, &one, 4);
    trnsparseDestroyMatDescr(d1);
    /* The daemon still serves. */
    assert_int_equal(trnsparseXcsr2gebsrNnz(h, TRNSPARSE_DIRECTION_ROW, a.m, a.n, d0, d_ptr, d_col,
                                            d0, d_bptr, 2, 3, &nnzb, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_true(nnzb > 0);
    void *frees[] = {d_ptr, d_col, d_val, d_bptr, d_bcol, d_bval, d_rptr, small};
    for (size_t i = 0; i < sizeof(frees) / sizeof(frees[0]); i++)
        assert_int_equal(trnsciFree(frees[i]), trnsciSuccess);
    free(hv);
    trnsparseDestroyMatDescr(d0);
    free_csr(&a);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

int main(void) {
    snprintf(tmp_dir, sizeof(tmp_dir), "/tmp/trnsci-sparse-gebsr-XXXXXX");
    if (!mkdtemp(tmp_dir)) {
        perror("mkdtemp");
        return 1;
    }
    if (su_start_daemons(&daemon2, NULL) != 0)
        return 1;
    local_t.addr = daemon2.unix_addr;
    grpc_t.addr = daemon2.tcp_addr;
    const struct CMUnitTest tests[] = {
        SU_ON(test_gebsr, local),  SU_ON(test_gebsr, grpc), SU_ON(test_complex, local),
        SU_ON(test_complex, grpc), SU_ON(test_geam, local), SU_ON(test_geam, grpc),
        SU_ONCE(test_sharded),     SU_ON(test_bad, local),  SU_ON(test_bad, grpc),
    };
    int failed = cmocka_run_group_tests_name("sparse_gebsr", tests, NULL, NULL);
    failed += th_daemon_stop_checked(&daemon2, "trnscid --cores 2");
    th_remove_dir(tmp_dir);
    return failed ? 1 : 0;
}
