/*
 * test_sparse_ext.c — trnsparse's trnsci extensions through real daemons,
 * over the local transport and gRPC over TCP:
 *
 *  - Block-sparse attention against a dense numpy reference (sparse_ref.py
 *    under Debian's python3: softmax over the whole masked score matrix in
 *    float64) with a local-window block mask (|I - J| <= 1), one block row
 *    left empty (its output must be exactly 0), batches of heads with
 *    strided layouts, either order, 32 x 32 and 128 x 128 blocks, float
 *    and double. Tolerance for output (i, c) (first order in u):
 *    a score's error is at most D_i = gamma_{d+1} |scale| max_j sum_t
 *    |q_it k_jt| (a dot of d terms, then the scaling); with exp's own error
 *    (< 1 ulp, 2u) each softmax weight moves by a factor within
 *    exp(+-2(D_i + 2u)), so the weighted mean of V moves by at most
 *    (exp(2(D_i + 2u)) - 1) M_c, M_c = max_j |v_jc| over allowed keys; the
 *    sums of n_i = (blocks in the row) * cb terms (numerator and
 *    denominator), the rescalings (an exp and a product per block) and
 *    the final division add 2 gamma_{n_i + 3 nb_i + 1} M_c. The double
 *    reference has an error of the same form, so double results are held
 *    to twice the bound.
 *    On a 1-core and a 2-core daemon the result is bitwise the same (the
 *    latter running >= 2 shards).
 *  - Schwarz screening: A = G G^T (positive semi-definite, entries decaying
 *    along the diagonal) as BSR; trnsparseSchwarzBounds from its diagonal
 *    exactly sqrt(max diag) per block; trnsparseSpMMScreened equals the
 *    long-double product over the kept blocks (gamma bound as test_sparse.c)
 *    and differs from the full product by at most the skipped blocks'
 *    bounds[I] bounds[J] sum |B_J| (Cauchy-Schwarz) plus rounding; the same
 *    with CSR and per-entry bounds; bad bounds refused.
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
static char tmp_dir[256];

static su_transport local_t = {"local", NULL}, grpc_t = {"grpc", NULL};

/* ---- block-sparse attention ---------------------------------------------------------- */

typedef struct attn_case {
    int batch, dbl, base;
    int64_t bq, bk, rb, cb; /* blocks of the pattern and their size */
    int64_t d, dv;
    trnsparseOrder_t qo, ko, vo, oo;
    int64_t empty_row; /* a block row with no block (-1: none) */
} attn_case;

/* A matrix of rows x cols per batch entry in order o, with ld = inner + 2
 * and a batch stride of one matrix + 5 (padding everywhere). */
typedef struct dn {
    int64_t rows, cols, ld, stride;
    trnsparseOrder_t o;
    void *host, *dev;
    size_t bytes;
} dn;

static size_t dn_at(const dn *m, int b, int64_t i, int64_t j) {
    return (size_t)(b * m->stride + (m->o == TRNSPARSE_ORDER_ROW ? i * m->ld + j : i + j * m->ld));
}

static void dn_make(dn *m, int64_t rows, int64_t cols, trnsparseOrder_t o, int batch, int dbl,
                    uint64_t seed, double scale) {
    m->rows = rows;
    m->cols = cols;
    m->o = o;
    m->ld = (o == TRNSPARSE_ORDER_ROW ? cols : rows) + 2;
    m->stride = m->ld * (o == TRNSPARSE_ORDER_ROW ? rows : cols) + 5;
    const size_t n = (size_t)(m->stride * batch);
    m->bytes = n * (dbl ? 8 : 4);
    m->host = malloc(m->bytes + 8);
    uint64_t s = seed | 1;
    for (size_t i = 0; i < n; i++)
        su_put(m->host, i, scale * su_uniform(&s), dbl);
    m->dev = su_dev_put(m->host, m->bytes);
}

static trnsparseDnMatDescr_t dn_descr(const dn *m, int batch, int dbl) {
    trnsparseDnMatDescr_t d;
    assert_int_equal(trnsparseCreateDnMat(&d, m->rows, m->cols, m->ld, m->dev,
                                          dbl ? TRNSCI_R_64F : TRNSCI_R_32F, m->o),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseDnMatSetStridedBatch(d, batch, m->stride), TRNSPARSE_STATUS_SUCCESS);
    return d;
}

/* The mask: the local window |I - J| <= 1, one block row empty. */
static int allowed(const attn_case *c, int64_t I, int64_t J) {
    return I != c->empty_row && llabs(I - J) <= 1;
}

/* Runs a case on the daemon the process is connected to; returns O's
 * bytes (the whole padded buffer). With check, compares with numpy. */
static void *run_attention(trnsparseHandle_t h, const attn_case *c, int check, double *worst) {
    const int dbl = c->dbl;
    const int64_t sq = c->bq * c->rb, sk = c->bk * c->cb;
    dn q, k, v, o;
    dn_make(&q, sq, c->d, c->qo, c->batch, dbl, 11, 2.0);
    dn_make(&k, sk, c->d, c->ko, c->batch, dbl, 12, 2.0);
    dn_make(&v, sk, c->dv, c->vo, c->batch, dbl, 13, 1.0);
    dn_make(&o, sq, c->dv, c->oo, c->batch, dbl, 14, 1.0);
    /* The pattern as BSR, structure only. */
    int32_t *off = malloc((size_t)(c->bq + 1) * 4), *col = malloc((size_t)(c->bq * c->bk) * 4);
    unsigned char *mask = malloc((size_t)(c->bq * c->bk));
    int32_t nb = 0;
    for (int64_t I = 0; I < c->bq; I++) {
        off[I] = nb + c->base;
        for (int64_t J = 0; J < c->bk; J++) {
            mask[I * c->bk + J] = (unsigned char)allowed(c, I, J);
            if (mask[I * c->bk + J])
                col[nb++] = (int32_t)J + c->base;
        }
    }
    off[c->bq] = nb + c->base;
    void *d_off = su_dev_put(off, (size_t)(c->bq + 1) * 4),
         *d_col = su_dev_put(col, (size_t)nb * 4);
    trnsparseConstSpMatDescr_t pat;
    assert_int_equal(
        trnsparseCreateConstBsr(&pat, c->bq, c->bk, nb, c->rb, c->cb, d_off, d_col, NULL,
                                TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                c->base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO,
                                dbl ? TRNSCI_R_64F : TRNSCI_R_32F, TRNSPARSE_ORDER_ROW),
        TRNSPARSE_STATUS_SUCCESS);
    trnsparseDnMatDescr_t dq = dn_descr(&q, c->batch, dbl), dk = dn_descr(&k, c->batch, dbl);
    trnsparseDnMatDescr_t dv = dn_descr(&v, c->batch, dbl), dof = dn_descr(&o, c->batch, dbl);
    const double scale = 1.0 / sqrt((double)c->d);
    const float scalef = (float)scale;
    const trnsparseStatus_t st =
        trnsparseBlockSparseAttention(h, dbl ? (const void *)&scale : (const void *)&scalef, dq, dk,
                                      dv, pat, dof, dbl ? TRNSCI_R_64F : TRNSCI_R_32F);
    if (st != TRNSPARSE_STATUS_SUCCESS)
        fail_msg("attention: %s", trnsciGetLastErrorMessage());
    void *got = su_dev_get(o.dev, o.bytes);
    /* Outside O's matrices (padding, gaps) nothing changed. */
    for (int b = 0; b < c->batch; b++)
        for (int64_t i = 0; i < sq; i++)
            for (int64_t j = 0; j < c->dv; j++)
                su_put(o.host, dn_at(&o, b, i, j), su_get(got, dn_at(&o, b, i, j), dbl), dbl);
    if (memcmp(got, o.host, o.bytes) != 0)
        fail_msg("attention wrote outside O");
    if (check) {
        /* Inputs for numpy: float64, row-major, dense per batch entry. */
        const int64_t B = c->batch;
        double *Q = malloc((size_t)(B * sq * c->d) * 8), *K = malloc((size_t)(B * sk * c->d) * 8);
        double *V = malloc((size_t)(B * sk * c->dv) * 8);
        for (int b = 0; b < B; b++) {
            for (int64_t i = 0; i < sq; i++)
                for (int64_t t = 0; t < c->d; t++)
                    Q[(b * sq + i) * c->d + t] = (double)su_get(q.host, dn_at(&q, b, i, t), dbl);
            for (int64_t j = 0; j < sk; j++) {
                for (int64_t t = 0; t < c->d; t++)
                    K[(b * sk + j) * c->d + t] = (double)su_get(k.host, dn_at(&k, b, j, t), dbl);
                for (int64_t t = 0; t < c->dv; t++)
                    V[(b * sk + j) * c->dv + t] = (double)su_get(v.host, dn_at(&v, b, j, t), dbl);
            }
        }
        char meta[160];
        snprintf(meta, sizeof(meta), "%d %lld %lld %lld %lld %lld %lld %.17g", c->batch,
                 (long long)sq, (long long)sk, (long long)c->d, (long long)c->dv, (long long)c->rb,
                 (long long)c->cb, (double)(dbl ? scale : (double)scalef));
        su_write_file(tmp_dir, "meta.txt", meta, strlen(meta));
        su_write_file(tmp_dir, "Q", Q, (size_t)(B * sq * c->d) * 8);
        su_write_file(tmp_dir, "K", K, (size_t)(B * sk * c->d) * 8);
        su_write_file(tmp_dir, "V", V, (size_t)(B * sk * c->dv) * 8);
        su_write_file(tmp_dir, "mask", mask, (size_t)(c->bq * c->bk));
        su_run_ref(PYTHON3, SPARSE_REF_PY, "attention", tmp_dir);
        size_t rbytes;
        double *R = su_read_file(tmp_dir, "O", &rbytes);
        assert_int_equal(rbytes, (size_t)(B * sq * c->dv) * 8);
        const long double sc = fabsl((long double)(dbl ? scale : (double)scalef));
        const long double u = dbl ? ldexpl(1.0L, -53) : ldexpl(1.0L, -24);
        for (int b = 0; b < B; b++)
            for (int64_t i = 0; i < sq; i++) {
                const int64_t I = i / c->rb;
                long double D = 0;
                int64_t nblk = 0;
                for (int64_t J = 0; J < c->bk; J++)
                    if (mask[I * c->bk + J]) {
                        nblk++;
                        for (int64_t j = J * c->cb; j < (J + 1) * c->cb; j++) {
                            long double dot = 0;
                            for (int64_t t = 0; t < c->d; t++)
                                dot += fabsl((long double)Q[(b * sq + i) * c->d + t] *
                                             K[(b * sk + j) * c->d + t]);
                            D = dot > D ? dot : D;
                        }
                    }
                D *= su_gamma(dbl, (long double)c->d + 1) * sc;
                const long double rel =
                    expl(2.0L * (D + 2.0L * u)) - 1.0L +
                    2.0L * su_gamma(dbl, (long double)(nblk * c->cb + 3 * nblk + 1));
                for (int64_t cc = 0; cc < c->dv; cc++) {
                    const long double g = su_get(got, dn_at(&o, b, i, cc), dbl);
                    const long double want = R[(b * sq + i) * c->dv + cc];
                    if (nblk == 0) {
                        if (g != 0.0L)
                            fail_msg("row %lld has no block but O = %.6Lg", (long long)i, g);
                        continue;
                    }
                    long double M = 0;
                    for (int64_t J = 0; J < c->bk; J++)
                        if (mask[I * c->bk + J])
                            for (int64_t j = J * c->cb; j < (J + 1) * c->cb; j++)
                                M = fabsl(V[(b * sk + j) * c->dv + cc]) > M
                                        ? fabsl(V[(b * sk + j) * c->dv + cc])
                                        : M;
                    const long double bound = (dbl ? 2.0L : 1.0L) * rel * M;
                    const long double err = fabsl(g - want);
                    if (!(err <= bound))
                        fail_msg("O[%d][%lld][%lld]: got %.10Lg, want %.10Lg (error %.3Lg > "
                                 "bound %.3Lg)",
                                 b, (long long)i, (long long)cc, g, want, err, bound);
                    if ((double)(err / bound) > *worst)
                        *worst = (double)(err / bound);
                }
            }
        free(Q);
        free(K);
        free(V);
        free(R);
    }
    trnsparseDestroyDnMat(dq);
    trnsparseDestroyDnMat(dk);
    trnsparseDestroyDnMat(dv);
    trnsparseDestroyDnMat(dof);
    trnsparseDestroySpMat(pat);
    dn *all[] = {&q, &k, &v, &o};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(trnsciFree(all[i]->dev), trnsciSuccess);
        free(all[i]->host);
    }
    assert_int_equal(trnsciFree(d_off), trnsciSuccess);
    assert_int_equal(trnsciFree(d_col), trnsciSuccess);
    free(off);
    free(col);
    free(mask);
    return got;
}

static const attn_case attn_cases[] = {
    {2, 0, 0, 8, 8, 32, 32, 40, 24, TRNSPARSE_ORDER_ROW, TRNSPARSE_ORDER_ROW, TRNSPARSE_ORDER_ROW,
     TRNSPARSE_ORDER_ROW, 5},
    {2, 1, 1, 8, 8, 32, 32, 40, 24, TRNSPARSE_ORDER_COL, TRNSPARSE_ORDER_ROW, TRNSPARSE_ORDER_COL,
     TRNSPARSE_ORDER_COL, 0},
    {1, 0, 1, 6, 5, 16, 24, 33, 17, TRNSPARSE_ORDER_COL, TRNSPARSE_ORDER_COL, TRNSPARSE_ORDER_ROW,
     TRNSPARSE_ORDER_ROW, -1},
    {1, 0, 0, 4, 4, 128, 128, 64, 64, TRNSPARSE_ORDER_ROW, TRNSPARSE_ORDER_ROW, TRNSPARSE_ORDER_ROW,
     TRNSPARSE_ORDER_ROW, 3},
};

static void test_attention(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    double worst[2] = {0, 0};
    for (size_t i = 0; i < sizeof(attn_cases) / sizeof(attn_cases[0]); i++)
        free(run_attention(h, &attn_cases[i], 1, &worst[attn_cases[i].dbl]));
    printf("    attention: worst error %.3f (float), %.3f (double) of the bound\n", worst[0],
           worst[1]);
    /* Shapes that do not fit the pattern. */
    void *m = NULL;
    assert_int_equal(trnsciMalloc(&m, 1 << 16), trnsciSuccess);
    int32_t off[3] = {0, 1, 2}, col[2] = {0, 1};
    void *d_off = su_dev_put(off, sizeof(off)), *d_col = su_dev_put(col, sizeof(col));
    trnsparseConstSpMatDescr_t pat;
    assert_int_equal(trnsparseCreateConstBsr(&pat, 2, 2, 2, 8, 8, d_off, d_col, NULL,
                                             TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                             TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_R_32F,
                                             TRNSPARSE_ORDER_ROW),
                     TRNSPARSE_STATUS_SUCCESS);
    trnsparseDnMatDescr_t q, k, o;
    assert_int_equal(trnsparseCreateDnMat(&q, 16, 4, 4, m, TRNSCI_R_32F, TRNSPARSE_ORDER_ROW),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnMat(&k, 15, 4, 4, m, TRNSCI_R_32F, TRNSPARSE_ORDER_ROW),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnMat(&o, 16, 4, 4, m, TRNSCI_R_32F, TRNSPARSE_ORDER_ROW),
                     TRNSPARSE_STATUS_SUCCESS);
    const float one = 1.0f;
    assert_int_equal(trnsparseBlockSparseAttention(h, &one, q, k, k, pat, o, TRNSCI_R_32F),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("shapes do not match");
    trnsparseDestroyDnMat(k);
    assert_int_equal(trnsparseCreateDnMat(&k, 16, 4, 4, m, TRNSCI_R_32F, TRNSPARSE_ORDER_ROW),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseDnMatSetStridedBatch(o, 2, 64), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseBlockSparseAttention(h, &one, q, k, k, pat, o, TRNSCI_R_32F),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("same batch count");
    /* A bad block column in the pattern: found when the op runs. */
    assert_int_equal(trnsparseDnMatSetStridedBatch(o, 1, 0), TRNSPARSE_STATUS_SUCCESS);
    col[1] = 2;
    assert_int_equal(trnsciMemcpy(d_col, col, sizeof(col), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(trnsparseBlockSparseAttention(h, &one, q, k, k, pat, o, TRNSCI_R_32F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorInvalidValue);
    su_expect_message("pattern: bsrColInd[1] = 2 is outside [0, 1] (block row 1)");
    trnsparseDestroyDnMat(q);
    trnsparseDestroyDnMat(k);
    trnsparseDestroyDnMat(o);
    trnsparseDestroySpMat(pat);
    assert_int_equal(trnsciFree(m), trnsciSuccess);
    assert_int_equal(trnsciFree(d_off), trnsciSuccess);
    assert_int_equal(trnsciFree(d_col), trnsciSuccess);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

static void *attention_on(const char *addr, uint64_t min_shards) {
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    double worst = 0;
    const uint64_t before = su_shards_run(addr);
    void *o = run_attention(h, &attn_cases[0], 0, &worst);
    if (su_shards_run(addr) - before < min_shards)
        fail_msg("attention ran as fewer than %llu shards", (unsigned long long)min_shards);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
    return o;
}

static void test_attention_cores(void **state) {
    (void)state;
    void *a = attention_on(one_core.unix_addr, 1), *b = attention_on(two_cores.unix_addr, 2);
    const attn_case *c = &attn_cases[0];
    const size_t bytes = (size_t)((c->bq * c->rb * (c->dv + 2) + 5) * c->batch) * (c->dbl ? 8 : 4);
    if (memcmp(a, b, bytes) != 0)
        fail_msg("attention: 2 cores differ from 1 core");
    free(a);
    free(b);
}

/* ---- Schwarz screening ------------------------------------------------------------------ */

static void test_screening(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    const int64_t n = 64, r = 12, bs = 8, nb = n / bs, nrhs = 5;
    /* A = G G^T with rows of G scaled by exp(-i / 6): PSD, entries fading
     * away from the top-left corner. */
    double *G = malloc((size_t)(n * r) * 8), *A = malloc((size_t)(n * n) * 8);
    uint64_t s = 99;
    for (int64_t i = 0; i < n; i++)
        for (int64_t t = 0; t < r; t++)
            G[i * r + t] = exp(-(double)i / 6.0) * su_uniform(&s);
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            long double x = 0;
            for (int64_t t = 0; t < r; t++)
                x += (long double)G[i * r + t] * G[j * r + t];
            A[i * n + j] = (double)x;
        }
    for (int pass = 0; pass < 2; pass++) { /* BSR blocks, then CSR entries */
        const int csr = pass == 1;
        const int64_t units = csr ? n : nb, usz = csr ? 1 : bs;
        /* matA: every entry stored (a dense matrix in sparse form). */
        trip t = {.m = n, .n = n, .nnz = n * n};
        t.r = malloc((size_t)(n * n) * 8);
        t.c = malloc((size_t)(n * n) * 8);
        t.v = malloc((size_t)(n * n) * 8);
        for (int64_t i = 0; i < n * n; i++) {
            t.r[i] = i / n;
            t.c[i] = i % n;
            t.v[i] = A[i];
        }
        sp_host a;
        sp_build(&a, &t, csr ? TRNSPARSE_FORMAT_CSR : TRNSPARSE_FORMAT_BSR, 0, 0, 1, bs, bs,
                 TRNSPARSE_ORDER_COL, 0);
        sp_upload(&a);
        /* Bounds from the diagonal. */
        double *diag = malloc((size_t)n * 8), *want_b = malloc((size_t)units * 8);
        for (int64_t i = 0; i < n; i++)
            diag[i] = A[i * n + i];
        for (int64_t I = 0; I < units; I++) {
            double m = 0;
            for (int64_t i = I * usz; i < (I + 1) * usz; i++)
                m = diag[i] > m ? diag[i] : m;
            want_b[I] = sqrt(m);
        }
        void *d_diag = su_dev_put(diag, (size_t)n * 8), *d_bnd = NULL;
        assert_int_equal(trnsciMalloc(&d_bnd, (size_t)units * 8), trnsciSuccess);
        trnsparseDnVecDescr_t vd, vb;
        assert_int_equal(trnsparseCreateDnVec(&vd, n, d_diag, TRNSCI_R_64F),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseCreateDnVec(&vb, units, d_bnd, TRNSCI_R_64F),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseSchwarzBounds(h, vd, usz, vb), TRNSPARSE_STATUS_SUCCESS);
        double *bnd = su_dev_get(d_bnd, (size_t)units * 8);
        assert_memory_equal(bnd, want_b, (size_t)units * 8);
        /* The threshold: the geometric middle of the bound products, moved
         * off any product. */
        double thr = bnd[0] * bnd[units - 1];
        thr = sqrt(bnd[0] * bnd[0] * thr);
        for (int64_t I = 0; I < units; I++)
            for (int64_t J = 0; J < units; J++)
                if (fabs(bnd[I] * bnd[J] - thr) < 1e-9 * thr)
                    thr *= 1.001;
        /* B and C. */
        double *B = malloc((size_t)(n * nrhs) * 8), *C0 = malloc((size_t)(n * nrhs) * 8);
        for (int64_t i = 0; i < n * nrhs; i++) {
            B[i] = su_uniform(&s);
            C0[i] = su_uniform(&s);
        }
        void *d_b = su_dev_put(B, (size_t)(n * nrhs) * 8),
             *d_c = su_dev_put(C0, (size_t)(n * nrhs) * 8);
        trnsparseDnMatDescr_t mb, mc;
        assert_int_equal(
            trnsparseCreateDnMat(&mb, n, nrhs, nrhs, d_b, TRNSCI_R_64F, TRNSPARSE_ORDER_ROW),
            TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(
            trnsparseCreateDnMat(&mc, n, nrhs, n, d_c, TRNSCI_R_64F, TRNSPARSE_ORDER_COL),
            TRNSPARSE_STATUS_SUCCESS);
        const double alpha = 1.0, beta = 0.5;
        const trnsparseOperation_t N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
        assert_int_equal(trnsparseSpMMScreened(h, N, N, &alpha, a.descr, mb, &beta, mc, vb, vb, thr,
                                               TRNSCI_R_64F, TRNSPARSE_SPMM_ALG_DEFAULT, NULL),
                         TRNSPARSE_STATUS_SUCCESS);
        double *got = su_dev_get(d_c, (size_t)(n * nrhs) * 8);
        int64_t kept = 0, skipped = 0;
        for (int64_t I = 0; I < units; I++)
            for (int64_t J = 0; J < units; J++)
                if (bnd[I] * bnd[J] >= thr)
                    kept++;
                else
                    skipped++;
        assert_true(kept > 0 && skipped > 0);
        for (int64_t i = 0; i < n; i++)
            for (int64_t c = 0; c < nrhs; c++) {
                long double screened = 0, full = 0, mag = 0, dropped = 0;
                int64_t terms = 0;
                for (int64_t j = 0; j < n; j++) {
                    const long double p = (long double)A[i * n + j] * B[j * nrhs + c];
                    full += p;
                    if (bnd[i / usz] * bnd[j / usz] >= thr) {
                        screened += p;
                        mag += fabsl(p);
                        terms++;
                    } else {
                        dropped +=
                            (long double)bnd[i / usz] * bnd[j / usz] * fabsl(B[j * nrhs + c]);
                    }
                }
                const long double c0 = (long double)beta * C0[c * n + i];
                const long double bound = su_gamma(1, (long double)terms + 2) * (mag + fabsl(c0));
                if (!(fabsl(got[c * n + i] - (screened + c0)) <= bound))
                    fail_msg("screened C(%lld, %lld) = %.17g, want %.17Lg", (long long)i,
                             (long long)c, got[c * n + i], screened + c0);
                /* Cauchy-Schwarz: what was skipped is within the bounds. */
                if (!(fabsl(got[c * n + i] - (full + c0)) <= dropped * 1.000001L + bound))
                    fail_msg("C(%lld, %lld): skipped %.3Lg exceeds the Schwarz bound %.3Lg",
                             (long long)i, (long long)c, fabsl(got[c * n + i] - (full + c0)),
                             dropped);
            }
        printf("    screening %s: %lld of %lld %s skipped\n", csr ? "CSR" : "BSR",
               (long long)skipped, (long long)(kept + skipped), csr ? "entries" : "blocks");
        /* Bounds of the wrong length; one bound missing. */
        trnsparseDnVecDescr_t shortv;
        assert_int_equal(trnsparseCreateDnVec(&shortv, units - 1, d_bnd, TRNSCI_R_64F),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseSpMMScreened(h, N, N, &alpha, a.descr, mb, &beta, mc, shortv, vb,
                                               thr, TRNSCI_R_64F, TRNSPARSE_SPMM_ALG_DEFAULT, NULL),
                         TRNSPARSE_STATUS_INVALID_VALUE);
        su_expect_message("rowBounds: size");
        assert_int_equal(trnsparseSpMMScreened(h, N, N, &alpha, a.descr, mb, &beta, mc, NULL, vb,
                                               thr, TRNSCI_R_64F, TRNSPARSE_SPMM_ALG_DEFAULT, NULL),
                         TRNSPARSE_STATUS_INVALID_VALUE);
        assert_int_equal(trnsparseSchwarzBounds(h, vd, 0, vb), TRNSPARSE_STATUS_INVALID_VALUE);
        su_expect_message("blockSize 0");
        trnsparseDestroyDnVec(shortv);
        trnsparseDestroyDnVec(vd);
        trnsparseDestroyDnVec(vb);
        trnsparseDestroyDnMat(mb);
        trnsparseDestroyDnMat(mc);
        void *frees[] = {d_diag, d_bnd, d_b, d_c};
        for (int i = 0; i < 4; i++)
            assert_int_equal(trnsciFree(frees[i]), trnsciSuccess);
        free(diag);
        free(want_b);
        free(bnd);
        free(B);
        free(C0);
        free(got);
        sp_free(&a);
        trip_free(&t);
    }
    free(G);
    free(A);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

int main(void) {
    if (su_main_start(tmp_dir, sizeof(tmp_dir), "/tmp/trnsci-sparse-ext-XXXXXX", &one_core,
                      &two_cores, &local_t, &grpc_t) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        SU_ON(test_attention, local), SU_ON(test_attention, grpc), SU_ONCE(test_attention_cores),
        SU_ON(test_screening, local), SU_ON(test_screening, grpc),
    };
    int failed = cmocka_run_group_tests_name("sparse_ext", tests, NULL, NULL);
    return su_main_end(failed, tmp_dir) ? 1 : 0;
}
