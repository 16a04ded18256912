/*
 * test_sparse_ops.c — trnsparse SpGEMM and SDDMM through real daemons, over
 * the local transport and gRPC over TCP, against independent references:
 *
 *  - SpGEMM against scipy.sparse (sparse_ref.py under Debian's python3): C's
 *    structure exactly (the product of the patterns, columns sorted), its
 *    values within gamma_{c+1} |alpha| (|A||B|)_ij, c = the number of
 *    products summed into c_ij (Higham §3.1: a sum of c products, then the
 *    scaling by alpha); float and double, mixed index types and bases, empty
 *    and power-law rows; cuSPARSE's phases (workEstimation, compute with a
 *    NULL buffer for the size, compute, copy); errors: beta != 0 and op T
 *    (NOT_SUPPORTED), copy before compute, A changed between compute and
 *    copy, a bad index found by compute (its status is the op's).
 *  - SDDMM against a long-double loop written here: each C entry is
 *    alpha a_i.b_.j + beta c_ij, within gamma_{k+2} (|alpha| sum |a||b| +
 *    |beta c|); every op(A), op(B) and order, beta = 0 with NaN in C.
 *  - Splits: a SpGEMM fill and an SDDMM large enough for two shards are
 *    bitwise equal on a 1-core and a 2-core daemon.
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
static char tmp_dir[256]; /* files for sparse_ref.py */

static su_transport local_t = {"local", NULL}, grpc_t = {"grpc", NULL};

/* Runs sparse_ref.py CMD on tmp_dir. */
/* ---- SpGEMM ----------------------------------------------------------------------------- */

/* Writes t as 0-based int64 CSR files P.indptr, P.indices, P.data. */
static void write_csr(const char *p, const trip *t) {
    int64_t *ptr = calloc((size_t)t->m + 1, 8);
    assert_non_null(ptr);
    for (int64_t k = 0; k < t->nnz; k++)
        ptr[t->r[k] + 1]++;
    for (int64_t i = 0; i < t->m; i++)
        ptr[i + 1] += ptr[i];
    char name[64];
    snprintf(name, sizeof(name), "%s.indptr", p);
    su_write_file(tmp_dir, name, ptr, (size_t)(t->m + 1) * 8);
    snprintf(name, sizeof(name), "%s.indices", p);
    su_write_file(tmp_dir, name, t->c, (size_t)t->nnz * 8);
    snprintf(name, sizeof(name), "%s.data", p);
    su_write_file(tmp_dir, name, t->v, (size_t)t->nnz * 8);
    free(ptr);
}

typedef struct spgemm_case {
    shape sha;
    int64_t m, k, n;
    double da, db;
    int dbl;
    int a64, abase, b64, bbase, c64, cbase;
} spgemm_case;

/* C = alpha A B through the daemon (A, B built from ta, tb); returns C's
 * host arrays in *c (its format as given by the case). */
static void run_spgemm(trnsparseHandle_t h, const spgemm_case *cs, const trip *ta, const trip *tb,
                       double alpha, sp_host *c) {
    sp_host a, b;
    sp_build(&a, ta, TRNSPARSE_FORMAT_CSR, cs->a64, cs->abase, cs->dbl, 1, 1, TRNSPARSE_ORDER_COL,
             0);
    sp_build(&b, tb, TRNSPARSE_FORMAT_CSR, cs->b64, cs->bbase, cs->dbl, 1, 1, TRNSPARSE_ORDER_COL,
             0);
    sp_upload(&a);
    sp_upload(&b);
    const trnsciDataType vt = cs->dbl ? TRNSCI_R_64F : TRNSCI_R_32F;
    const trnsparseIndexType_t ct = cs->c64 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I;
    const size_t isz = cs->c64 ? 8 : 4, es = cs->dbl ? 8 : 4;
    void *c_off = NULL;
    assert_int_equal(trnsciMalloc(&c_off, (size_t)(cs->m + 1) * isz), trnsciSuccess);
    trnsparseSpMatDescr_t cm;
    assert_int_equal(
        trnsparseCreateCsr(&cm, cs->m, cs->n, 0, c_off, NULL, NULL, ct, ct,
                           cs->cbase ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO, vt),
        TRNSPARSE_STATUS_SUCCESS);
    const float af = (float)alpha, zf = 0.0f;
    const double zero = 0.0;
    const void *al = cs->dbl ? (const void *)&alpha : (const void *)&af;
    const void *be = cs->dbl ? (const void *)&zero : (const void *)&zf;
    const trnsparseOperation_t N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
    trnsparseSpGEMMDescr_t g;
    assert_int_equal(trnsparseSpGEMM_createDescr(&g), TRNSPARSE_STATUS_SUCCESS);
    size_t s1 = 99, s2 = 0;
    assert_int_equal(trnsparseSpGEMM_workEstimation(h, N, N, al, a.descr, b.descr, be, cm, vt,
                                                    TRNSPARSE_SPGEMM_DEFAULT, g, &s1, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(s1, 0);
    assert_int_equal(trnsparseSpGEMM_compute(h, N, N, al, a.descr, b.descr, be, cm, vt,
                                             TRNSPARSE_SPGEMM_DEFAULT, g, &s2, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(s2, (size_t)(cs->m + 1) * 8);
    void *buf2 = NULL;
    assert_int_equal(trnsciMalloc(&buf2, s2), trnsciSuccess);
    const trnsparseStatus_t st = trnsparseSpGEMM_compute(h, N, N, al, a.descr, b.descr, be, cm, vt,
                                                         TRNSPARSE_SPGEMM_DEFAULT, g, &s2, buf2);
    if (st != TRNSPARSE_STATUS_SUCCESS)
        fail_msg("spgemm compute: %s", trnsciGetLastErrorMessage());
    int64_t rows, cols, nnz;
    assert_int_equal(trnsparseSpMatGetSize(cm, &rows, &cols, &nnz), TRNSPARSE_STATUS_SUCCESS);
    void *c_idx = NULL, *c_val = NULL;
    assert_int_equal(trnsciMalloc(&c_idx, (size_t)nnz * isz + 1), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&c_val, (size_t)nnz * es + 1), trnsciSuccess);
    assert_int_equal(trnsparseCsrSetPointers(cm, c_off, c_idx, c_val), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSpGEMM_copy(h, N, N, al, a.descr, b.descr, be, cm, vt,
                                          TRNSPARSE_SPGEMM_DEFAULT, g),
                     TRNSPARSE_STATUS_SUCCESS);
    memset(c, 0, sizeof(*c));
    c->rows = cs->m;
    c->cols = cs->n;
    c->nnz = nnz;
    c->idx64 = cs->c64;
    c->base = cs->cbase;
    c->dbl = cs->dbl;
    c->off = su_dev_get(c_off, (size_t)(cs->m + 1) * isz);
    c->idx = su_dev_get(c_idx, (size_t)nnz * isz);
    c->val = su_dev_get(c_val, (size_t)nnz * es);
    trnsparseSpGEMM_destroyDescr(g);
    trnsparseDestroySpMat(cm);
    void *frees[] = {c_off, c_idx, c_val, buf2};
    for (int i = 0; i < 4; i++)
        assert_int_equal(trnsciFree(frees[i]), trnsciSuccess);
    sp_free(&a);
    sp_free(&b);
}

/* Checks c against sparse_ref.py's product of ta, tb; returns the worst
 * error / bound. */
static double check_spgemm(const trip *ta, const trip *tb, double alpha, const sp_host *c) {
    char meta[128];
    snprintf(meta, sizeof(meta), "%lld %lld %lld %.17g", (long long)ta->m, (long long)ta->n,
             (long long)tb->n, alpha);
    su_write_file(tmp_dir, "meta.txt", meta, strlen(meta));
    write_csr("A", ta);
    write_csr("B", tb);
    su_run_ref(PYTHON3, SPARSE_REF_PY, "spgemm", tmp_dir);
    size_t n1, n2, n3, n4, n5;
    int64_t *ptr = su_read_file(tmp_dir, "C.indptr", &n1),
            *col = su_read_file(tmp_dir, "C.indices", &n2);
    double *val = su_read_file(tmp_dir, "C.data", &n3), *mag = su_read_file(tmp_dir, "C.mag", &n4);
    double *cnt = su_read_file(tmp_dir, "C.cnt", &n5);
    assert_int_equal(n2 / 8, (size_t)c->nnz);
    double worst = 0;
    for (int64_t i = 0; i <= c->rows; i++)
        if (su_idx(c->off, (size_t)i, c->idx64) != ptr[i] + c->base)
            fail_msg("C's row offset %lld: %lld, want %lld", (long long)i,
                     (long long)su_idx(c->off, (size_t)i, c->idx64), (long long)(ptr[i] + c->base));
    /* Values: against a long-double product of the triplets (scipy's are
     * double sums in the same order as ours, so they only confirm). */
    long double *acc = calloc((size_t)tb->n + 1, sizeof(long double));
    int64_t *bptr = calloc((size_t)tb->m + 1, 8);
    assert_true(acc && bptr);
    for (int64_t q = 0; q < tb->nnz; q++)
        bptr[tb->r[q] + 1]++;
    for (int64_t r = 0; r < tb->m; r++)
        bptr[r + 1] += bptr[r];
    int64_t e = 0;
    for (int64_t i = 0; i < c->rows; i++) {
        for (; e < ta->nnz && ta->r[e] == i; e++)
            for (int64_t q = bptr[ta->c[e]]; q < bptr[ta->c[e] + 1]; q++)
                acc[tb->c[q]] += (long double)ta->v[e] * tb->v[q];
        for (int64_t p = ptr[i]; p < ptr[i + 1]; p++) {
            if (su_idx(c->idx, (size_t)p, c->idx64) != col[p] + c->base)
                fail_msg("C's column index %lld: %lld, want %lld", (long long)p,
                         (long long)su_idx(c->idx, (size_t)p, c->idx64),
                         (long long)(col[p] + c->base));
            const long double want = (long double)alpha * acc[col[p]];
            const long double got = su_get(c->val, (size_t)p, c->dbl);
            const long double bound = su_gamma(c->dbl, (long double)cnt[p] + 1) * mag[p];
            const long double err = fabsl(got - want);
            if (!(err <= bound) || !(fabsl((long double)val[p] - want) <= bound))
                fail_msg("C value %lld: got %.17Lg, want %.17Lg, scipy %.17g (bound %.3Lg)",
                         (long long)p, got, want, val[p], bound);
            if (bound > 0 && (double)(err / bound) > worst)
                worst = (double)(err / bound);
            acc[col[p]] = 0;
        }
    }
    free(acc);
    free(bptr);
    free(ptr);
    free(col);
    free(val);
    free(mag);
    free(cnt);
    return worst;
}

static void test_spgemm(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    static const spgemm_case cases[] = {
        {SH_RANDOM, 70, 50, 60, 0.08, 0.1, 1, 0, 0, 0, 0, 0, 0},
        {SH_RANDOM, 70, 50, 60, 0.08, 0.1, 0, 1, 1, 0, 1, 1, 0},
        {SH_EMPTYROWS, 90, 40, 33, 0.1, 0.2, 1, 0, 1, 1, 0, 0, 1},
        {SH_POWERLAW, 64, 64, 64, 0, 0.05, 0, 1, 0, 0, 0, 1, 1},
    };
    double worst[2] = {0, 0};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const spgemm_case *cs = &cases[i];
        trip ta, tb;
        trip_make(&ta, cs->sha, cs->m, cs->k, cs->da, cs->dbl, 40 + i);
        trip_make(&tb, SH_RANDOM, cs->k, cs->n, cs->db, cs->dbl, 80 + i);
        sp_host c;
        run_spgemm(h, cs, &ta, &tb, -1.5, &c);
        const double w = check_spgemm(&ta, &tb, -1.5, &c);
        if (w > worst[cs->dbl])
            worst[cs->dbl] = w;
        free(c.off);
        free(c.idx);
        free(c.val);
        trip_free(&ta);
        trip_free(&tb);
    }
    printf("    spgemm: worst error %.3f (float), %.3f (double) of the bound\n", worst[0],
           worst[1]);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

static void test_spgemm_errors(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    trip ta, tb;
    trip_make(&ta, SH_RANDOM, 30, 20, 0.2, 1, 1);
    trip_make(&tb, SH_RANDOM, 20, 25, 0.2, 1, 2);
    sp_host a, b;
    sp_build(&a, &ta, TRNSPARSE_FORMAT_CSR, 0, 0, 1, 1, 1, TRNSPARSE_ORDER_COL, 0);
    sp_build(&b, &tb, TRNSPARSE_FORMAT_CSR, 0, 0, 1, 1, 1, TRNSPARSE_ORDER_COL, 0);
    sp_upload(&a);
    sp_upload(&b);
    void *c_off = NULL, *buf2 = NULL;
    assert_int_equal(trnsciMalloc(&c_off, 31 * 4), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&buf2, 31 * 8), trnsciSuccess);
    trnsparseSpMatDescr_t cm;
    assert_int_equal(trnsparseCreateCsr(&cm, 30, 25, 0, c_off, NULL, NULL, TRNSPARSE_INDEX_32I,
                                        TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO,
                                        TRNSCI_R_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    const double one = 1.0, zero = 0.0;
    const trnsparseOperation_t N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
    trnsparseSpGEMMDescr_t g;
    assert_int_equal(trnsparseSpGEMM_createDescr(&g), TRNSPARSE_STATUS_SUCCESS);
    size_t s2 = 31 * 8;
#define COMPUTE(OPA, BETA, BUF)                                                                    \
    trnsparseSpGEMM_compute(h, OPA, N, &one, a.descr, b.descr, BETA, cm, TRNSCI_R_64F,             \
                            TRNSPARSE_SPGEMM_DEFAULT, g, &s2, BUF)
    assert_int_equal(COMPUTE(N, &one, buf2), TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("beta must be 0");
    assert_int_equal(COMPUTE(TRNSPARSE_OPERATION_TRANSPOSE, &zero, buf2),
                     TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("NON_TRANSPOSE");
    /* Copy before compute. */
    assert_int_equal(trnsparseSpGEMM_copy(h, N, N, &one, a.descr, b.descr, &zero, cm, TRNSCI_R_64F,
                                          TRNSPARSE_SPGEMM_DEFAULT, g),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("call trnsparseSpGEMM_compute");
    /* A buffer too small for the counts. */
    s2 = 30 * 8;
    void *small = NULL;
    assert_int_equal(trnsciMalloc(&small, 30 * 8), trnsciSuccess);
    assert_int_equal(COMPUTE(N, &zero, small), TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("externalBuffer2: needs 248 bytes");
    assert_int_equal(trnsciFree(small), trnsciSuccess);
    /* Compute, then change A: copy fails naming the row. */
    assert_int_equal(COMPUTE(N, &zero, buf2), TRNSPARSE_STATUS_SUCCESS);
    int64_t r, c, nnz;
    trnsparseSpMatGetSize(cm, &r, &c, &nnz);
    void *c_idx = NULL, *c_val = NULL;
    assert_int_equal(trnsciMalloc(&c_idx, (size_t)nnz * 4), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&c_val, (size_t)nnz * 8), trnsciSuccess);
    trnsparseCsrSetPointers(cm, c_off, c_idx, c_val);
    /* Row 3 of A now points at another row of B. */
    const int32_t p3 = ((int32_t *)a.off)[3];
    int32_t other = (((int32_t *)a.idx)[p3] + 7) % 20;
    for (int32_t q = p3; q < ((int32_t *)a.off)[4]; q++)
        if (((int32_t *)a.idx)[q] == other)
            other = (other + 1) % 20;
    assert_int_equal(trnsciMemcpy((int32_t *)a.d_idx + p3, &other, 4, trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(trnsparseSpGEMM_copy(h, N, N, &one, a.descr, b.descr, &zero, cm, TRNSCI_R_64F,
                                          TRNSPARSE_SPGEMM_DEFAULT, g),
                     TRNSPARSE_STATUS_SUCCESS);
    const trnsciError_t e = trnsciDeviceSynchronize();
    if (e == trnsciSuccess) { /* the same count by chance: the pattern did change, though */
        print_message("    (the changed row kept its count)\n");
    } else {
        assert_int_equal(e, trnsciErrorInvalidValue);
        su_expect_message("changed since trnsparseSpGEMM_compute");
    }
    /* A bad index in B: compute fails with the op's status and message. */
    const int32_t bad = 25;
    assert_int_equal(trnsciMemcpy((int32_t *)b.d_idx + 2, &bad, 4, trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    s2 = 31 * 8;
    assert_int_equal(COMPUTE(N, &zero, buf2), TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("matB: csrColInd[2] = 25 is outside [0, 24]");
#undef COMPUTE
    trnsparseSpGEMM_destroyDescr(g);
    trnsparseDestroySpMat(cm);
    void *frees[] = {c_off, buf2, c_idx, c_val};
    for (int i = 0; i < 4; i++)
        assert_int_equal(trnsciFree(frees[i]), trnsciSuccess);
    sp_free(&a);
    sp_free(&b);
    trip_free(&ta);
    trip_free(&tb);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- SDDMM ------------------------------------------------------------------------------ */

/* C = alpha op(A) op(B) o spy(C) + beta C for pattern t (m x n), inner k. */
static void *run_sddmm(trnsparseHandle_t h, const trip *t, int64_t k, int dbl, int opa, int opb,
                       trnsparseOrder_t ao, trnsparseOrder_t bo, double alpha, double beta,
                       double *worst, int check) {
    const int64_t m = t->m, n = t->n;
    const size_t es = dbl ? 8 : 4;
    const trnsciDataType vt = dbl ? TRNSCI_R_64F : TRNSCI_R_32F;
    uint64_t s = (uint64_t)(k * 31 + opa * 7 + opb * 3 + ao + 11 * bo);
    /* A stored: op N -> m x k, op T -> k x m. */
    const int64_t ar = opa ? k : m, acn = opa ? m : k, br = opb ? n : k, bcn = opb ? k : n;
    const int64_t lda = ao == TRNSPARSE_ORDER_ROW ? acn : ar,
                  ldb = bo == TRNSPARSE_ORDER_ROW ? bcn : br;
    const size_t asz = (size_t)(ar * acn), bsz = (size_t)(br * bcn);
    void *ah = malloc(asz * es), *bh = malloc(bsz * es);
    for (size_t i = 0; i < asz; i++)
        su_put(ah, i, su_uniform(&s), dbl);
    for (size_t i = 0; i < bsz; i++)
        su_put(bh, i, su_uniform(&s), dbl);
#define AT(o, i, j, ld) ((size_t)((o) == TRNSPARSE_ORDER_ROW ? (i) * (ld) + (j) : (i) + (j) * (ld)))
#define OPA(i, t_) su_get(ah, opa ? AT(ao, t_, i, lda) : AT(ao, i, t_, lda), dbl)
#define OPB(t_, j) su_get(bh, opb ? AT(bo, j, t_, ldb) : AT(bo, t_, j, ldb), dbl)
    sp_host c;
    sp_build(&c, t, TRNSPARSE_FORMAT_CSR, 0, 1, dbl, 1, 1, TRNSPARSE_ORDER_COL, 0);
    void *c0 = malloc(c.val_n * es + 8);
    for (size_t p = 0; p < c.val_n; p++)
        su_put(c.val, p, beta == 0.0 ? (long double)NAN : su_uniform(&s), dbl);
    memcpy(c0, c.val, c.val_n * es);
    sp_upload(&c);
    void *ad = su_dev_put(ah, asz * es), *bd = su_dev_put(bh, bsz * es);
    trnsparseDnMatDescr_t am, bm;
    assert_int_equal(trnsparseCreateDnMat(&am, ar, acn, lda, ad, vt, ao), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnMat(&bm, br, bcn, ldb, bd, vt, bo), TRNSPARSE_STATUS_SUCCESS);
    const float af = (float)alpha, bf = (float)beta;
    const void *al = dbl ? (const void *)&alpha : (const void *)&af;
    const void *be = dbl ? (const void *)&beta : (const void *)&bf;
    const trnsparseOperation_t oa =
        opa ? TRNSPARSE_OPERATION_TRANSPOSE : TRNSPARSE_OPERATION_NON_TRANSPOSE;
    const trnsparseOperation_t ob =
        opb ? TRNSPARSE_OPERATION_TRANSPOSE : TRNSPARSE_OPERATION_NON_TRANSPOSE;
    size_t bs = 1;
    assert_int_equal(trnsparseSDDMM_bufferSize(h, oa, ob, al, am, bm, be, c.descr, vt,
                                               TRNSPARSE_SDDMM_ALG_DEFAULT, &bs),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(bs, 0);
    assert_int_equal(trnsparseSDDMM_preprocess(h, oa, ob, al, am, bm, be, c.descr, vt,
                                               TRNSPARSE_SDDMM_ALG_DEFAULT, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    const trnsparseStatus_t st =
        trnsparseSDDMM(h, oa, ob, al, am, bm, be, c.descr, vt, TRNSPARSE_SDDMM_ALG_DEFAULT, NULL);
    if (st != TRNSPARSE_STATUS_SUCCESS)
        fail_msg("sddmm: %s", trnsciGetLastErrorMessage());
    void *got = su_dev_get(c.d_val, c.val_n * es);
    for (int64_t p = 0; check && p < t->nnz; p++) {
        const int64_t i = t->r[p], j = t->c[p];
        long double dot = 0, mag = 0;
        for (int64_t q = 0; q < k; q++) {
            const long double x = OPA(i, q) * OPB(q, j);
            dot += x;
            mag += fabsl(x);
        }
        const long double cold = beta == 0.0 ? 0.0L : su_get(c0, (size_t)p, dbl);
        const long double want = (long double)alpha * dot + (long double)beta * cold;
        const long double bound =
            su_gamma(dbl, (long double)k + 2) *
            (fabsl((long double)alpha) * mag + fabsl((long double)beta * cold));
        const long double err = fabsl(su_get(got, (size_t)p, dbl) - want);
        if (!(err <= bound))
            fail_msg("sddmm (%lld, %lld): got %.17Lg, want %.17Lg", (long long)i, (long long)j,
                     su_get(got, (size_t)p, dbl), want);
        if (bound > 0 && (double)(err / bound) > *worst)
            *worst = (double)(err / bound);
    }
#undef OPA
#undef OPB
#undef AT
    trnsparseDestroyDnMat(am);
    trnsparseDestroyDnMat(bm);
    assert_int_equal(trnsciFree(ad), trnsciSuccess);
    assert_int_equal(trnsciFree(bd), trnsciSuccess);
    free(ah);
    free(bh);
    free(c0);
    sp_free(&c);
    return got;
}

static void test_sddmm(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    double worst[2] = {0, 0};
    for (int dbl = 0; dbl <= 1; dbl++) {
        trip t;
        trip_make(&t, SH_EMPTYROWS, 40, 36, 0.2, dbl, 7 + (uint64_t)dbl);
        for (int v = 0; v < 16; v++) {
            const int opa = v & 1, opb = (v >> 1) & 1;
            const trnsparseOrder_t ao = (v >> 2) & 1 ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL;
            const trnsparseOrder_t bo = (v >> 3) & 1 ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL;
            free(run_sddmm(h, &t, 17, dbl, opa, opb, ao, bo, 0.75, v % 3 ? 0.5 : 0.0, &worst[dbl],
                           1));
        }
        trip_free(&t);
    }
    printf("    sddmm: worst error %.3f (float), %.3f (double) of the bound\n", worst[0], worst[1]);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- splits: 1 core against 2 --------------------------------------------------------- */

/* The big SpGEMM's C values and SDDMM's on the daemon at addr. */
static void run_big(const char *addr, uint64_t min_shards, void **spgemm_val, size_t *spgemm_len,
                    void **sddmm_val, size_t *sddmm_len) {
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    /* 1000 x 1000 with 10 entries a row times 55 a row: 5.5e5 products. */
    const spgemm_case cs = {SH_RANDOM, 1000, 1000, 1000, 0.0134, 0.073, 1, 0, 0, 0, 0, 0, 0};
    trip ta, tb;
    trip_make(&ta, cs.sha, cs.m, cs.k, cs.da, 1, 5);
    trip_make(&tb, SH_RANDOM, cs.k, cs.n, cs.db, 1, 6);
    sp_host c;
    uint64_t before = su_shards_run(addr);
    run_spgemm(h, &cs, &ta, &tb, 1.0, &c);
    if (su_shards_run(addr) - before < min_shards + 1) /* + the count pass */
        fail_msg("the SpGEMM fill ran as fewer than %llu shards", (unsigned long long)min_shards);
    *spgemm_val = c.val;
    *spgemm_len = (size_t)c.nnz * 8;
    free(c.off);
    free(c.idx);
    trip_free(&ta);
    trip_free(&tb);
    trip t;
    trip_make(&t, SH_POWERLAW, 3000, 3000, 0, 0, 9);
    double worst = 0;
    before = su_shards_run(addr);
    *sddmm_val = run_sddmm(h, &t, 32, 0, 0, 1, TRNSPARSE_ORDER_ROW, TRNSPARSE_ORDER_ROW, 1.0, 0.0,
                           &worst, 0);
    if (su_shards_run(addr) - before < min_shards)
        fail_msg("the SDDMM ran as fewer than %llu shards", (unsigned long long)min_shards);
    *sddmm_len = (size_t)t.nnz * 4;
    trip_free(&t);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

static void test_one_core_vs_two_cores(void **state) {
    (void)state;
    void *g1, *g2, *s1, *s2;
    size_t gl1, gl2, sl1, sl2;
    run_big(one_core.unix_addr, 1, &g1, &gl1, &s1, &sl1);
    run_big(two_cores.unix_addr, 2, &g2, &gl2, &s2, &sl2);
    assert_int_equal(gl1, gl2);
    assert_int_equal(sl1, sl2);
    if (memcmp(g1, g2, gl1) != 0)
        fail_msg("SpGEMM: 2 cores differ from 1 core");
    if (memcmp(s1, s2, sl1) != 0)
        fail_msg("SDDMM: 2 cores differ from 1 core");
    free(g1);
    free(g2);
    free(s1);
    free(s2);
}

int main(void) {
    snprintf(tmp_dir, sizeof(tmp_dir), "/tmp/trnsci-sparse-ops-XXXXXX");
    if (!mkdtemp(tmp_dir)) {
        perror("mkdtemp");
        return 1;
    }
    if (su_start_daemons(&one_core, &two_cores) != 0)
        return 1;
    local_t.addr = two_cores.unix_addr;
    grpc_t.addr = two_cores.tcp_addr;
    const struct CMUnitTest tests[] = {
        SU_ON(test_spgemm, local),
        SU_ON(test_spgemm, grpc),
        SU_ON(test_spgemm_errors, local),
        SU_ON(test_spgemm_errors, grpc),
        SU_ON(test_sddmm, local),
        SU_ON(test_sddmm, grpc),
        SU_ONCE(test_one_core_vs_two_cores),
    };
    int failed = cmocka_run_group_tests_name("sparse_ops", tests, NULL, NULL);
    failed += th_daemon_stop_checked(&one_core, "trnscid --cores 1");
    failed += th_daemon_stop_checked(&two_cores, "trnscid --cores 2");
    th_remove_dir(tmp_dir);
    return failed ? 1 : 0;
}
