/*
 * test_sparse_convert.c — trnsparse's format conversions through a real
 * 2-core daemon, over the local transport and gRPC over TCP. Conversions
 * move indices and values without arithmetic (except adding duplicates), so
 * every result is compared EXACTLY against the textbook formats that
 * sparse_util.c builds from the same triplets (an implementation
 * independent of the daemon's kernels):
 *  - Xcsr2coo, Xcoo2csr (0- and 1-based; unsorted row indices refused);
 *  - Csr2cscEx2, NUMERIC and SYMBOLIC, float and double, both bases;
 *  - Xcsr2bsrNnz + <t>csr2bsr with either element order, blockDim 1, 3, 4
 *    and 16, sizes that are not multiples of it, a different base on each
 *    side; block offsets from another matrix refused;
 *  - <t>bsr2csr (every element of every block);
 *  - DenseToSparse (analysis sets nnz, then convert) to CSR and CSC with
 *    32- and 64-bit indices, from row- and column-major dense matrices with
 *    padding; stale offsets refused;
 *  - SparseToDense from CSR, CSC, COO (duplicates add up) and BSR, with
 *    padding between columns that must come back untouched;
 *  - round trips: dense -> CSR -> CSC -> dense, CSR -> BSR -> CSR -> dense;
 *  - conversions large enough for two shards (CSR -> COO, BSR -> CSR,
 *    CSR -> BSR, dense -> CSR) give the same exact arrays.
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

static th_daemon daemon2;

static su_transport local_t = {"local", NULL}, grpc_t = {"grpc", NULL};

/* Device memory with bytes zeroed. */
static void *dev_zero(size_t bytes) {
    void *p = NULL;
    assert_int_equal(trnsciMalloc(&p, bytes ? bytes : 1), trnsciSuccess);
    return p;
}

/* The device array equals the host one, exactly. */
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

static trnsparseMatDescr_t mat_descr(int base) {
    trnsparseMatDescr_t d;
    assert_int_equal(trnsparseCreateMatDescr(&d), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(
        trnsparseSetMatIndexBase(d, base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO),
        TRNSPARSE_STATUS_SUCCESS);
    return d;
}

/* t with its size rounded up to multiples of bs (for the expected BSR). */
static trip padded(const trip *t, int64_t bs) {
    trip p = *t;
    p.m = (t->m + bs - 1) / bs * bs;
    p.n = (t->n + bs - 1) / bs * bs;
    return p;
}

/* ---- CSR <-> COO, CSR -> CSC -------------------------------------------------------------- */

static void test_coo_csc(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    for (int dbl = 0; dbl <= 1; dbl++)
        for (int base = 0; base <= 1; base++) {
            trip t;
            trip_make(&t, SH_EMPTYROWS, 57, 43, 0.15, dbl, 21 + (uint64_t)base);
            sp_host csr, csc;
            sp_build(&csr, &t, TRNSPARSE_FORMAT_CSR, 0, base, dbl, 1, 1, TRNSPARSE_ORDER_COL, 0);
            sp_build(&csc, &t, TRNSPARSE_FORMAT_CSC, 0, base, dbl, 1, 1, TRNSPARSE_ORDER_COL, 0);
            sp_upload(&csr);
            const trnsparseIndexBase_t b =
                base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO;
            const int nnz = (int)t.nnz, m = (int)t.m, n = (int)t.n;
            /* CSR -> COO row indices: the triplets' rows. */
            int32_t *rows = malloc((size_t)nnz * 4);
            for (int k = 0; k < nnz; k++)
                rows[k] = (int32_t)(t.r[k] + base);
            int *d_rows = dev_zero((size_t)nnz * 4);
            assert_int_equal(trnsparseXcsr2coo(h, csr.d_off, nnz, m, d_rows, b),
                             TRNSPARSE_STATUS_SUCCESS);
            expect_same("cooRowInd", d_rows, rows, (size_t)nnz * 4);
            /* ... and back. */
            int *d_off = dev_zero((size_t)(m + 1) * 4);
            assert_int_equal(trnsparseXcoo2csr(h, d_rows, nnz, m, d_off, b),
                             TRNSPARSE_STATUS_SUCCESS);
            expect_same("csrRowPtr", d_off, csr.off, (size_t)(m + 1) * 4);
            /* Unsorted row indices are refused when the op runs. */
            rows[nnz / 2] = (int32_t)(m - 1 + base);
            assert_int_equal(trnsciMemcpy(d_rows, rows, (size_t)nnz * 4, trnsciMemcpyHostToDevice),
                             trnsciSuccess);
            assert_int_equal(trnsparseXcoo2csr(h, d_rows, nnz, m, d_off, b),
                             TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorInvalidValue);
            su_expect_message("row indices must be sorted");
            /* CSR -> CSC, values and structure only. */
            const size_t es = dbl ? 8 : 4;
            void *d_cval = dev_zero((size_t)nnz * es);
            int *d_cptr = dev_zero((size_t)(n + 1) * 4), *d_crow = dev_zero((size_t)nnz * 4);
            const trnsciDataType vt = dbl ? TRNSCI_R_64F : TRNSCI_R_32F;
            size_t bsz = 1;
            assert_int_equal(trnsparseCsr2cscEx2_bufferSize(h, m, n, nnz, csr.d_val, csr.d_off,
                                                            csr.d_idx, d_cval, d_cptr, d_crow, vt,
                                                            TRNSPARSE_ACTION_NUMERIC, b,
                                                            TRNSPARSE_CSR2CSC_ALG_DEFAULT, &bsz),
                             TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(bsz, 0);
            for (int numeric = 0; numeric <= 1; numeric++) {
                assert_int_equal(trnsciMemset(d_cval, 0, (size_t)nnz * es), trnsciSuccess);
                assert_int_equal(trnsparseCsr2cscEx2(h, m, n, nnz, csr.d_val, csr.d_off, csr.d_idx,
                                                     numeric ? d_cval : NULL, d_cptr, d_crow, vt,
                                                     numeric ? TRNSPARSE_ACTION_NUMERIC
                                                             : TRNSPARSE_ACTION_SYMBOLIC,
                                                     b, TRNSPARSE_CSR2CSC_ALG_DEFAULT, NULL),
                                 TRNSPARSE_STATUS_SUCCESS);
                expect_same("cscColPtr", d_cptr, csc.off, (size_t)(n + 1) * 4);
                expect_same("cscRowInd", d_crow, csc.idx, (size_t)nnz * 4);
                if (numeric)
                    expect_same("cscVal", d_cval, csc.val, (size_t)nnz * es);
            }
            free(rows);
            assert_int_equal(trnsciFree(d_rows), trnsciSuccess);
            assert_int_equal(trnsciFree(d_off), trnsciSuccess);
            assert_int_equal(trnsciFree(d_cval), trnsciSuccess);
            assert_int_equal(trnsciFree(d_cptr), trnsciSuccess);
            assert_int_equal(trnsciFree(d_crow), trnsciSuccess);
            sp_free(&csr);
            sp_free(&csc);
            trip_free(&t);
        }
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- CSR <-> BSR ----------------------------------------------------------------------- */

/* The CSR of every element of every block of b (what bsr2csr returns). */
static void bsr_as_csr(const sp_host *b, int base, int dbl, int32_t **off, int32_t **idx,
                       void **val) {
    const int64_t bs = b->rb, bsz = bs * bs, m = b->rows * bs;
    const size_t es = dbl ? 8 : 4;
    *off = malloc((size_t)(m + 1) * 4);
    *idx = malloc((size_t)(b->nnz * bsz) * 4 + 4);
    *val = malloc((size_t)(b->nnz * bsz) * es + 8);
    int64_t q = 0;
    for (int64_t I = 0; I < b->rows; I++) {
        const int64_t p0 = su_idx(b->off, (size_t)I, 0) - b->base;
        const int64_t p1 = su_idx(b->off, (size_t)I + 1, 0) - b->base;
        for (int64_t i = 0; i < bs; i++) {
            (*off)[I * bs + i] = (int32_t)(q + base);
            for (int64_t p = p0; p < p1; p++)
                for (int64_t j = 0; j < bs; j++) {
                    (*idx)[q] = (int32_t)((su_idx(b->idx, (size_t)p, 0) - b->base) * bs + j + base);
                    const int64_t at =
                        p * bsz + (b->order == TRNSPARSE_ORDER_ROW ? i * bs + j : i + j * bs);
                    su_put(*val, (size_t)q++, su_get(b->val, (size_t)at, dbl), dbl);
                }
        }
    }
    (*off)[m] = (int32_t)(q + base);
}

static void test_bsr(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    static const int dims[] = {1, 3, 4, 16};
    int cse = 0;
    for (size_t di = 0; di < sizeof(dims) / sizeof(dims[0]); di++)
        for (int dbl = 0; dbl <= 1; dbl++)
            for (int dir = 0; dir <= 1; dir++, cse++) {
                const int bs = dims[di], abase = cse % 2, cbase = (cse / 2) % 2;
                trip t;
                trip_make(&t, SH_RANDOM, 70, 53, 0.08, dbl, 300 + (uint64_t)cse);
                sp_host csr, want;
                sp_build(&csr, &t, TRNSPARSE_FORMAT_CSR, 0, abase, dbl, 1, 1, TRNSPARSE_ORDER_COL,
                         0);
                sp_upload(&csr);
                const trip tp = padded(&t, bs);
                const trnsparseOrder_t order = dir ? TRNSPARSE_ORDER_COL : TRNSPARSE_ORDER_ROW;
                sp_build(&want, &tp, TRNSPARSE_FORMAT_BSR, 0, cbase, dbl, bs, bs, order, 0);
                const trnsparseDirection_t d =
                    dir ? TRNSPARSE_DIRECTION_COLUMN : TRNSPARSE_DIRECTION_ROW;
                trnsparseMatDescr_t da = mat_descr(abase), dc = mat_descr(cbase);
                const int m = (int)t.m, n = (int)t.n, mb = (m + bs - 1) / bs;
                int *d_bptr = dev_zero((size_t)(mb + 1) * 4);
                int nnzb = -1;
                assert_int_equal(trnsparseXcsr2bsrNnz(h, d, m, n, da, csr.d_off, csr.d_idx, bs, dc,
                                                      d_bptr, &nnzb),
                                 TRNSPARSE_STATUS_SUCCESS);
                assert_int_equal(nnzb, want.nnz);
                expect_same("bsrRowPtrC", d_bptr, want.off, (size_t)(mb + 1) * 4);
                const size_t es = dbl ? 8 : 4, bsz = (size_t)bs * (size_t)bs;
                int *d_bcol = dev_zero((size_t)nnzb * 4);
                void *d_bval = dev_zero((size_t)nnzb * bsz * es);
                trnsparseStatus_t rc =
                    dbl ? trnsparseDcsr2bsr(h, d, m, n, da, csr.d_val, csr.d_off, csr.d_idx, bs, dc,
                                            d_bval, d_bptr, d_bcol)
                        : trnsparseScsr2bsr(h, d, m, n, da, csr.d_val, csr.d_off, csr.d_idx, bs, dc,
                                            d_bval, d_bptr, d_bcol);
                assert_int_equal(rc, TRNSPARSE_STATUS_SUCCESS);
                expect_same("bsrColIndC", d_bcol, want.idx, (size_t)nnzb * 4);
                expect_same("bsrValC", d_bval, want.val, (size_t)nnzb * bsz * es);
                /* ... and back: every element of every block. */
                int32_t *eoff, *eidx;
                void *eval;
                bsr_as_csr(&want, abase, dbl, &eoff, &eidx, &eval);
                const size_t enz = (size_t)nnzb * bsz;
                int *d_coff = dev_zero((size_t)(mb * bs + 1) * 4), *d_cidx = dev_zero(enz * 4);
                void *d_cval = dev_zero(enz * es);
                rc = dbl ? trnsparseDbsr2csr(h, d, mb, (n + bs - 1) / bs, dc, d_bval, d_bptr,
                                             d_bcol, bs, da, d_cval, d_coff, d_cidx)
                         : trnsparseSbsr2csr(h, d, mb, (n + bs - 1) / bs, dc, d_bval, d_bptr,
                                             d_bcol, bs, da, d_cval, d_coff, d_cidx);
                assert_int_equal(rc, TRNSPARSE_STATUS_SUCCESS);
                expect_same("csrRowPtrC", d_coff, eoff, (size_t)(mb * bs + 1) * 4);
                expect_same("csrColIndC", d_cidx, eidx, enz * 4);
                expect_same("csrValC", d_cval, eval, enz * es);
                /* Block offsets that do not match this CSR matrix. */
                if (bs == 4 && mb > 3) {
                    int32_t *bad = malloc((size_t)(mb + 1) * 4);
                    memcpy(bad, want.off, (size_t)(mb + 1) * 4);
                    bad[2] -= 1;
                    assert_int_equal(
                        trnsciMemcpy(d_bptr, bad, (size_t)(mb + 1) * 4, trnsciMemcpyHostToDevice),
                        trnsciSuccess);
                    rc = dbl ? trnsparseDcsr2bsr(h, d, m, n, da, csr.d_val, csr.d_off, csr.d_idx,
                                                 bs, dc, d_bval, d_bptr, d_bcol)
                             : trnsparseScsr2bsr(h, d, m, n, da, csr.d_val, csr.d_off, csr.d_idx,
                                                 bs, dc, d_bval, d_bptr, d_bcol);
                    assert_int_equal(rc, TRNSPARSE_STATUS_SUCCESS);
                    assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorInvalidValue);
                    su_expect_message("compute them with trnsparseXcsr2bsrNnz");
                    free(bad);
                }
                free(eoff);
                free(eidx);
                free(eval);
                void *frees[] = {d_bptr, d_bcol, d_bval, d_coff, d_cidx, d_cval};
                for (int i = 0; i < 6; i++)
                    assert_int_equal(trnsciFree(frees[i]), trnsciSuccess);
                trnsparseDestroyMatDescr(da);
                trnsparseDestroyMatDescr(dc);
                sp_free(&csr);
                sp_free(&want);
                trip_free(&t);
            }
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- dense <-> sparse ----------------------------------------------------------------- */

/* t as a dense matrix in `order` with leading dimension ld (padding: pad). */
static void *dense_of(const trip *t, trnsparseOrder_t order, int64_t ld, int dbl, double pad) {
    const int64_t outer = order == TRNSPARSE_ORDER_ROW ? t->m : t->n;
    const size_t total = (size_t)(ld * outer);
    void *d = malloc(total * (dbl ? 8 : 4) + 8);
    for (size_t i = 0; i < total; i++)
        su_put(d, i, pad, dbl);
    for (int64_t i = 0; i < t->m; i++)
        for (int64_t j = 0; j < t->n; j++) {
            const size_t at = (size_t)(order == TRNSPARSE_ORDER_ROW ? i * ld + j : i + j * ld);
            su_put(d, at, 0.0, dbl);
        }
    for (int64_t k = 0; k < t->nnz; k++) {
        const size_t at = (size_t)(order == TRNSPARSE_ORDER_ROW ? t->r[k] * ld + t->c[k]
                                                                : t->r[k] + t->c[k] * ld);
        su_put(d, at, t->v[k], dbl);
    }
    return d;
}

static void test_dense(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    int cse = 0;
    for (int dbl = 0; dbl <= 1; dbl++)
        for (int csc = 0; csc <= 1; csc++)
            for (int o = 0; o <= 1; o++, cse++) {
                const int idx64 = cse % 2, base = (cse / 2) % 2;
                const trnsparseOrder_t order = o ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL;
                trip t;
                trip_make(&t, SH_DENSEROW, 45, 38, 0.1, dbl, 500 + (uint64_t)cse);
                const int64_t ld = (o ? t.n : t.m) + 3;
                const size_t es = dbl ? 8 : 4, isz = idx64 ? 8 : 4;
                const trnsciDataType vt = dbl ? TRNSCI_R_64F : TRNSCI_R_32F;
                const trnsparseIndexType_t it = idx64 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I;
                const trnsparseIndexBase_t b =
                    base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO;
                void *dh = dense_of(&t, order, ld, dbl, 7.0); /* padding: 7 */
                const size_t dbytes = (size_t)(ld * (o ? t.m : t.n)) * es;
                void *dd = su_dev_put(dh, dbytes);
                trnsparseDnMatDescr_t dm;
                assert_int_equal(trnsparseCreateDnMat(&dm, t.m, t.n, ld, dd, vt, order),
                                 TRNSPARSE_STATUS_SUCCESS);
                sp_host want;
                sp_build(&want, &t, csc ? TRNSPARSE_FORMAT_CSC : TRNSPARSE_FORMAT_CSR, idx64, base,
                         dbl, 1, 1, TRNSPARSE_ORDER_COL, 0);
                const int64_t outer = csc ? t.n : t.m;
                void *d_off = dev_zero((size_t)(outer + 1) * isz);
                trnsparseSpMatDescr_t sm;
                assert_int_equal(
                    csc ? trnsparseCreateCsc(&sm, t.m, t.n, 0, d_off, NULL, NULL, it, it, b, vt)
                        : trnsparseCreateCsr(&sm, t.m, t.n, 0, d_off, NULL, NULL, it, it, b, vt),
                    TRNSPARSE_STATUS_SUCCESS);
                size_t bsz = 1;
                assert_int_equal(trnsparseDenseToSparse_bufferSize(
                                     h, dm, sm, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, &bsz),
                                 TRNSPARSE_STATUS_SUCCESS);
                assert_int_equal(bsz, 0);
                assert_int_equal(trnsparseDenseToSparse_analysis(
                                     h, dm, sm, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, NULL),
                                 TRNSPARSE_STATUS_SUCCESS);
                int64_t r, c, nnz = -1;
                assert_int_equal(trnsparseSpMatGetSize(sm, &r, &c, &nnz), TRNSPARSE_STATUS_SUCCESS);
                assert_int_equal(nnz, t.nnz);
                void *d_idx = dev_zero((size_t)nnz * isz), *d_val = dev_zero((size_t)nnz * es);
                assert_int_equal(csc ? trnsparseCscSetPointers(sm, d_off, d_idx, d_val)
                                     : trnsparseCsrSetPointers(sm, d_off, d_idx, d_val),
                                 TRNSPARSE_STATUS_SUCCESS);
                assert_int_equal(trnsparseDenseToSparse_convert(
                                     h, dm, sm, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, NULL),
                                 TRNSPARSE_STATUS_SUCCESS);
                expect_same("offsets", d_off, want.off, want.off_n * isz);
                expect_same("indices", d_idx, want.idx, want.idx_n * isz);
                expect_same("values", d_val, want.val, want.val_n * es);
                /* Back to dense (fresh padding must survive). */
                void *d2 = su_dev_put(dh, dbytes);
                assert_int_equal(trnsciMemset(d2, 0x5a, dbytes), trnsciSuccess);
                void *d2h = su_dev_get(d2, dbytes);
                for (int64_t i = 0; i < t.m; i++)
                    for (int64_t j = 0; j < t.n; j++) /* expected: the dense values */
                        memcpy((char *)d2h + (size_t)(o ? i * ld + j : i + j * ld) * es,
                               (char *)dh + (size_t)(o ? i * ld + j : i + j * ld) * es, es);
                trnsparseDnMatDescr_t dm2;
                assert_int_equal(trnsparseCreateDnMat(&dm2, t.m, t.n, ld, d2, vt, order),
                                 TRNSPARSE_STATUS_SUCCESS);
                assert_int_equal(
                    trnsparseSparseToDense(h, sm, dm2, TRNSPARSE_SPARSETODENSE_ALG_DEFAULT, NULL),
                    TRNSPARSE_STATUS_SUCCESS);
                expect_same("round trip", d2, d2h, dbytes);
                /* Stale offsets: the dense matrix gained an entry. */
                const double one = 1.0;
                const float onef = 1.0f;
                int64_t zero_at = -1;
                for (int64_t i = 0; i < t.m && zero_at < 0; i++)
                    for (int64_t j = 0; j < t.n && zero_at < 0; j++) {
                        const int64_t at = o ? i * ld + j : i + j * ld;
                        if (su_get(dh, (size_t)at, dbl) == 0.0)
                            zero_at = at;
                    }
                assert_int_equal(trnsciMemcpy((char *)dd + (size_t)zero_at * es,
                                              dbl ? (const void *)&one : (const void *)&onef, es,
                                              trnsciMemcpyHostToDevice),
                                 trnsciSuccess);
                assert_int_equal(trnsparseDenseToSparse_convert(
                                     h, dm, sm, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, NULL),
                                 TRNSPARSE_STATUS_SUCCESS);
                assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorInvalidValue);
                su_expect_message("compute them with trnsparseDenseToSparse_analysis");
                trnsparseDestroyDnMat(dm);
                trnsparseDestroyDnMat(dm2);
                trnsparseDestroySpMat(sm);
                void *frees[] = {dd, d2, d_off, d_idx, d_val};
                for (int i = 0; i < 5; i++)
                    assert_int_equal(trnsciFree(frees[i]), trnsciSuccess);
                free(dh);
                free(d2h);
                sp_free(&want);
                trip_free(&t);
            }
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* SparseToDense from COO (with duplicates) and BSR. */
static void test_to_dense(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    trip t;
    trip_make(&t, SH_BANDED, 32, 24, 0, 1, 9);
    for (int f = 0; f < 2; f++) {
        sp_host a;
        sp_build(&a, &t, f ? TRNSPARSE_FORMAT_BSR : TRNSPARSE_FORMAT_COO, f, f, 1, 4, 4,
                 TRNSPARSE_ORDER_ROW, 5);
        if (!f) { /* duplicate the first entry, halved twice: 0.5 v + 0.5 v = v */
            a.val_n++;
            a.idx_n++;
            a.nnz++;
            a.val = realloc(a.val, a.val_n * 8);
            a.idx = realloc(a.idx, a.idx_n * 4);
            a.rowind = realloc(a.rowind, a.idx_n * 4);
            ((double *)a.val)[a.val_n - 1] = 0.5 * ((double *)a.val)[0];
            ((double *)a.val)[0] *= 0.5;
            ((int32_t *)a.idx)[a.idx_n - 1] = ((int32_t *)a.idx)[0];
            ((int32_t *)a.rowind)[a.idx_n - 1] = ((int32_t *)a.rowind)[0];
        }
        sp_upload(&a);
        void *want = dense_of(&t, TRNSPARSE_ORDER_COL, t.m + 1, 1, 3.0);
        const size_t bytes = (size_t)((t.m + 1) * t.n) * 8;
        void *dd = su_dev_put(want, bytes);
        assert_int_equal(trnsciMemset(dd, 0, bytes), trnsciSuccess);
        for (int64_t j = 0; j < t.n; j++) /* the padding row: 3.0 */
            assert_int_equal(trnsciMemcpy((char *)dd + (size_t)(t.m + j * (t.m + 1)) * 8,
                                          (char *)want + (size_t)(t.m + j * (t.m + 1)) * 8, 8,
                                          trnsciMemcpyHostToDevice),
                             trnsciSuccess);
        trnsparseDnMatDescr_t dm;
        assert_int_equal(
            trnsparseCreateDnMat(&dm, t.m, t.n, t.m + 1, dd, TRNSCI_R_64F, TRNSPARSE_ORDER_COL),
            TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(
            trnsparseSparseToDense(h, a.descr, dm, TRNSPARSE_SPARSETODENSE_ALG_DEFAULT, NULL),
            TRNSPARSE_STATUS_SUCCESS);
        expect_same(f ? "dense from BSR" : "dense from COO", dd, want, bytes);
        trnsparseDestroyDnMat(dm);
        assert_int_equal(trnsciFree(dd), trnsciSuccess);
        free(want);
        sp_free(&a);
    }
    trip_free(&t);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- sharded conversions ----------------------------------------------------------------- */

static void test_sharded(void **state) {
    (void)state;
    const char *addr = daemon2.unix_addr;
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    trip t;
    trip_make(&t, SH_POWERLAW, 6000, 6000, 0, 0, 77);
    sp_host csr, bsr;
    sp_build(&csr, &t, TRNSPARSE_FORMAT_CSR, 0, 0, 0, 1, 1, TRNSPARSE_ORDER_COL, 0);
    sp_build(&bsr, &t, TRNSPARSE_FORMAT_BSR, 0, 0, 0, 4, 4, TRNSPARSE_ORDER_COL, 0);
    sp_upload(&csr);
    sp_upload(&bsr);
    trnsparseMatDescr_t d0 = mat_descr(0);
    const int m = (int)t.m, nnz = (int)t.nnz, mb = m / 4;
    uint64_t before = su_shards_run(addr);
    int *d_rows = dev_zero((size_t)nnz * 4);
    assert_int_equal(trnsparseXcsr2coo(h, csr.d_off, nnz, m, d_rows, TRNSPARSE_INDEX_BASE_ZERO),
                     TRNSPARSE_STATUS_SUCCESS);
    int32_t *rows = malloc((size_t)nnz * 4);
    for (int k = 0; k < nnz; k++)
        rows[k] = (int32_t)t.r[k];
    expect_same("cooRowInd (sharded)", d_rows, rows, (size_t)nnz * 4);
    assert_true(su_shards_run(addr) - before >= 2);
    /* CSR -> BSR (sharded fill). */
    int *d_bptr = dev_zero((size_t)(mb + 1) * 4), *d_bcol = dev_zero((size_t)bsr.nnz * 4);
    float *d_bval = dev_zero((size_t)bsr.nnz * 16 * 4);
    int nnzb = 0;
    assert_int_equal(trnsparseXcsr2bsrNnz(h, TRNSPARSE_DIRECTION_COLUMN, m, m, d0, csr.d_off,
                                          csr.d_idx, 4, d0, d_bptr, &nnzb),
                     TRNSPARSE_STATUS_SUCCESS);
    before = su_shards_run(addr);
    assert_int_equal(trnsparseScsr2bsr(h, TRNSPARSE_DIRECTION_COLUMN, m, m, d0, csr.d_val,
                                       csr.d_off, csr.d_idx, 4, d0, d_bval, d_bptr, d_bcol),
                     TRNSPARSE_STATUS_SUCCESS);
    expect_same("bsrColInd (sharded)", d_bcol, bsr.idx, (size_t)bsr.nnz * 4);
    expect_same("bsrVal (sharded)", d_bval, bsr.val, (size_t)bsr.nnz * 16 * 4);
    assert_true(su_shards_run(addr) - before >= 2);
    /* BSR -> CSR (sharded). */
    int32_t *eoff, *eidx;
    void *eval;
    bsr_as_csr(&bsr, 0, 0, &eoff, &eidx, &eval);
    const size_t enz = (size_t)bsr.nnz * 16;
    int *d_coff = dev_zero((size_t)(m + 1) * 4), *d_cidx = dev_zero(enz * 4);
    float *d_cval = dev_zero(enz * 4);
    before = su_shards_run(addr);
    assert_int_equal(trnsparseSbsr2csr(h, TRNSPARSE_DIRECTION_COLUMN, mb, mb, d0, bsr.d_val,
                                       bsr.d_off, bsr.d_idx, 4, d0, d_cval, d_coff, d_cidx),
                     TRNSPARSE_STATUS_SUCCESS);
    expect_same("csrRowPtr (sharded)", d_coff, eoff, (size_t)(m + 1) * 4);
    expect_same("csrColInd (sharded)", d_cidx, eidx, enz * 4);
    expect_same("csrVal (sharded)", d_cval, eval, enz * 4);
    assert_true(su_shards_run(addr) - before >= 2);
    free(eoff);
    free(eidx);
    free(eval);
    free(rows);
    void *frees[] = {d_rows, d_bptr, d_bcol, d_bval, d_coff, d_cidx, d_cval};
    for (int i = 0; i < 7; i++)
        assert_int_equal(trnsciFree(frees[i]), trnsciSuccess);
    trnsparseDestroyMatDescr(d0);
    sp_free(&csr);
    sp_free(&bsr);
    trip_free(&t);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

int main(void) {
    if (su_start_daemons(&daemon2, NULL) != 0)
        return 1;
    local_t.addr = daemon2.unix_addr;
    grpc_t.addr = daemon2.tcp_addr;
    const struct CMUnitTest tests[] = {
        SU_ON(test_coo_csc, local),  SU_ON(test_coo_csc, grpc),  SU_ON(test_bsr, local),
        SU_ON(test_bsr, grpc),       SU_ON(test_dense, local),   SU_ON(test_dense, grpc),
        SU_ON(test_to_dense, local), SU_ON(test_to_dense, grpc), SU_ONCE(test_sharded),
    };
    int failed = cmocka_run_group_tests_name("sparse_convert", tests, NULL, NULL);
    failed += th_daemon_stop_checked(&daemon2, "trnscid --cores 2");
    return failed ? 1 : 0;
}
