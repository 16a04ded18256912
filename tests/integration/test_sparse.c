/*
 * test_sparse.c — trnsparse SpMV and SpMM through real daemons, over the
 * local transport (shared-memory buffers) and gRPC over TCP, against an
 * independent reference: a loop over the matrix's triplets in long double
 * (64-bit mantissa) written here.
 *
 * Tolerance (Higham, Accuracy and Stability, §3.1): an output element is
 * alpha * s + beta * c with s a sum of k products a_ij b_j (k = the stored
 * entries of A that feed it; explicit zeros inside BSR blocks add exactly).
 * Whatever the summation order, |fl(s) - s| <= gamma_k sum |a_ij b_j|, and
 * the scaling and the update add two roundings, so
 *     |got - ref| <= gamma_{k+2} (|alpha| sum |a_ij b_j| + |beta c|),
 * gamma_k = k u / (1 - k u), u = 2^-24 (float) or 2^-53 (double). The
 * worst error as a fraction of that bound is printed per group.
 *
 * Covered: CSR, CSC, COO and BSR (4x4 column-major blocks, 8x2 row-major,
 * 16x16 both orders: the OpenBLAS path) x op(A) N and T x float and double
 * x 32- and 64-bit indices x 0- and 1-based, for SpMV and SpMM with
 * row-major and column-major B (and op(B) = T) and C with padding between
 * columns that must come back untouched; alpha = 0 (A not read, NULL arrays
 * accepted) and beta = 0 (C filled with NaN, not read); matrices that are
 * banded, have power-law rows, empty rows, one dense row; results on a
 * 1-core and a 2-core daemon bitwise equal with the latter running >= 2
 * shards (row splits balanced by nnz, column splits of scatter kernels);
 * every malformed-structure case (non-monotone offsets, a column index out
 * of range, offsets beyond nnz, inconsistent BSR block offsets, the wrong
 * index base, COO and CSC indices, INT64_MIN) reported by the next
 * synchronize as trnsciErrorInvalidValue naming the array and the first bad
 * position, also when two shards find errors; bad arguments refused at the
 * call with the cuSPARSE status and a message.
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

enum { PAD = 6 };
#define SENTINEL 12345.0

/* ---- one product against the reference -------------------------------------------- */

typedef struct layout {
    int64_t n;           /* columns of C (1 with spmv: vectors) */
    int spmv;            /* SpMV with vectors */
    trnsparseOrder_t bo; /* B's order */
    int btrans;          /* op(B) = B^T (B stored n x k) */
    trnsparseOrder_t co; /* C's order; column-major C gets ld = rows + 2 */
} layout;

/* Index of element (i, j) of a rows x cols matrix with leading dimension ld. */
static size_t at(trnsparseOrder_t o, int64_t i, int64_t j, int64_t ld) {
    return (size_t)(o == TRNSPARSE_ORDER_ROW ? i * ld + j : i + j * ld);
}

typedef struct stats {
    double worst; /* largest error / bound */
    long checked;
} stats;

/* C = alpha op(A) op(B) + beta C with A = a (uploaded, holding t's entries);
 * checks every element against the reference and the padding. */
static void run_product(trnsparseHandle_t h, const trip *t, const sp_host *a, int trans,
                        const layout *l, double alpha, double beta, uint64_t seed, stats *st) {
    const int dbl = a->dbl;
    const size_t es = dbl ? 8 : 4;
    const trnsciDataType vt = dbl ? TRNSCI_R_64F : TRNSCI_R_32F;
    const int64_t m = trans ? t->n : t->m, k = trans ? t->m : t->n, n = l->n;
    uint64_t s = seed | 1;

    /* B: op(B) is k x n; stored k x n, or n x k when btrans. */
    const int64_t brows = l->btrans ? n : k, bcols = l->btrans ? k : n;
    const int64_t bld = l->bo == TRNSPARSE_ORDER_ROW ? bcols : brows;
    const size_t bsz = (size_t)(bld * (l->bo == TRNSPARSE_ORDER_ROW ? brows : bcols));
    void *bh = calloc(bsz + 1, es);
    assert_non_null(bh);
    for (size_t i = 0; i < bsz; i++)
        su_put(bh, i, su_uniform(&s), dbl);
        /* op(B)(p, j) */
#define OPB(p, j) su_get(bh, l->btrans ? at(l->bo, j, p, bld) : at(l->bo, p, j, bld), dbl)

    const int64_t cld = l->co == TRNSPARSE_ORDER_ROW ? n : m + 2;
    const size_t csz = (size_t)(cld * (l->co == TRNSPARSE_ORDER_ROW ? m : n));
    void *ch = malloc((csz + PAD + 1) * es);
    assert_non_null(ch);
    for (size_t i = 0; i < csz + PAD; i++)
        su_put(ch, i, beta == 0.0 ? (long double)NAN : su_uniform(&s), dbl);
    /* gaps between columns and the padding: a sentinel */
    for (int64_t j = 0; j < n && l->co == TRNSPARSE_ORDER_COL; j++)
        for (int64_t i = m; i < cld; i++)
            su_put(ch, at(l->co, i, j, cld), SENTINEL, dbl);
    for (size_t i = csz; i < csz + PAD; i++)
        su_put(ch, i, SENTINEL, dbl);

    void *bd = su_dev_put(bh, bsz * es);
    /* C one element into its allocation: offsets are honoured. */
    void *cd_alloc = NULL;
    assert_int_equal(trnsciMalloc(&cd_alloc, (csz + PAD + 1) * es), trnsciSuccess);
    void *cd = (char *)cd_alloc + es;
    assert_int_equal(trnsciMemcpy(cd, ch, (csz + PAD) * es, trnsciMemcpyHostToDevice),
                     trnsciSuccess);

    const float af = (float)alpha, bf = (float)beta;
    const void *ap = dbl ? (const void *)&alpha : (const void *)&af;
    const void *bp = dbl ? (const void *)&beta : (const void *)&bf;
    const trnsparseOperation_t op =
        trans ? TRNSPARSE_OPERATION_TRANSPOSE : TRNSPARSE_OPERATION_NON_TRANSPOSE;
    if (l->spmv) {
        trnsparseDnVecDescr_t x, y;
        assert_int_equal(trnsparseCreateDnVec(&x, k, bd, vt), TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseCreateDnVec(&y, m, cd, vt), TRNSPARSE_STATUS_SUCCESS);
        size_t bs = 99;
        assert_int_equal(trnsparseSpMV_bufferSize(h, op, ap, a->descr, x, bp, y, vt,
                                                  TRNSPARSE_SPMV_ALG_DEFAULT, &bs),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(bs, 0);
        const trnsparseStatus_t rc =
            trnsparseSpMV(h, op, ap, a->descr, x, bp, y, vt, TRNSPARSE_SPMV_ALG_DEFAULT, NULL);
        if (rc != TRNSPARSE_STATUS_SUCCESS)
            fail_msg("spmv: %s: %s", trnsparseGetErrorName(rc), trnsciGetLastErrorMessage());
        trnsparseDestroyDnVec(x);
        trnsparseDestroyDnVec(y);
    } else {
        trnsparseDnMatDescr_t bm, cm;
        assert_int_equal(trnsparseCreateDnMat(&bm, brows, bcols, bld, bd, vt, l->bo),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseCreateDnMat(&cm, m, n, cld, cd, vt, l->co),
                         TRNSPARSE_STATUS_SUCCESS);
        const trnsparseOperation_t opb =
            l->btrans ? TRNSPARSE_OPERATION_TRANSPOSE : TRNSPARSE_OPERATION_NON_TRANSPOSE;
        const trnsparseStatus_t rc = trnsparseSpMM(h, op, opb, ap, a->descr, bm, bp, cm, vt,
                                                   TRNSPARSE_SPMM_ALG_DEFAULT, NULL);
        if (rc != TRNSPARSE_STATUS_SUCCESS)
            fail_msg("spmm: %s: %s", trnsparseGetErrorName(rc), trnsciGetLastErrorMessage());
        trnsparseDestroyDnMat(bm);
        trnsparseDestroyDnMat(cm);
    }
    void *got = su_dev_get(cd, (csz + PAD) * es);

    /* The reference, from the triplets. */
    long double *ref = calloc((size_t)(m * n) + 1, sizeof(long double));
    long double *mag = calloc((size_t)(m * n) + 1, sizeof(long double));
    int64_t *terms = calloc((size_t)m + 1, sizeof(int64_t));
    assert_true(ref && mag && terms);
    if (alpha != 0.0)
        for (int64_t e = 0; e < t->nnz; e++) {
            const int64_t o = trans ? t->c[e] : t->r[e], in = trans ? t->r[e] : t->c[e];
            terms[o]++;
            for (int64_t j = 0; j < n; j++) {
                const long double p = (long double)t->v[e] * OPB(in, j);
                ref[o * n + j] += p;
                mag[o * n + j] += fabsl(p);
            }
        }
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            const size_t ci = at(l->co, i, j, cld);
            const long double c0 = beta == 0.0 ? 0.0L : su_get(ch, ci, dbl);
            const long double want = (long double)alpha * ref[i * n + j] + (long double)beta * c0;
            const long double bound =
                su_gamma(dbl, (long double)terms[i] + 2) *
                (fabsl((long double)alpha) * mag[i * n + j] + fabsl((long double)beta * c0));
            const long double g = su_get(got, ci, dbl), err = fabsl(g - want);
            if (!(err <= bound))
                fail_msg("%s (%lld, %lld): got %.17Lg, want %.17Lg (error %.3Lg > bound %.3Lg)",
                         trans ? "op T" : "op N", (long long)i, (long long)j, g, want, err, bound);
            if (bound > 0 && (double)(err / bound) > st->worst)
                st->worst = (double)(err / bound);
            st->checked++;
        }
    /* Untouched: the gaps of a column-major C and the padding after it. */
    for (int64_t j = 0; j < n && l->co == TRNSPARSE_ORDER_COL; j++)
        for (int64_t i = m; i < cld; i++)
            assert_true(su_get(got, at(l->co, i, j, cld), dbl) == SENTINEL);
    for (size_t i = csz; i < csz + PAD; i++)
        assert_true(su_get(got, i, dbl) == SENTINEL);
#undef OPB
    free(ref);
    free(mag);
    free(terms);
    free(got);
    free(bh);
    free(ch);
    if (bd)
        assert_int_equal(trnsciFree(bd), trnsciSuccess);
    assert_int_equal(trnsciFree(cd_alloc), trnsciSuccess);
}

/* ---- every format x op x type x index x base ------------------------------------------- */

typedef struct fmt_case {
    const char *name;
    trnsparseFormat_t f;
    int64_t rb, cb;
    trnsparseOrder_t order;
} fmt_case;

static const fmt_case fmts[] = {
    {"CSR", TRNSPARSE_FORMAT_CSR, 1, 1, TRNSPARSE_ORDER_COL},
    {"CSC", TRNSPARSE_FORMAT_CSC, 1, 1, TRNSPARSE_ORDER_COL},
    {"COO", TRNSPARSE_FORMAT_COO, 1, 1, TRNSPARSE_ORDER_COL},
    {"BSR 4x4 col", TRNSPARSE_FORMAT_BSR, 4, 4, TRNSPARSE_ORDER_COL},
    {"BSR 8x2 row", TRNSPARSE_FORMAT_BSR, 8, 2, TRNSPARSE_ORDER_ROW},
    {"BSR 16x16 col", TRNSPARSE_FORMAT_BSR, 16, 16, TRNSPARSE_ORDER_COL},
    {"BSR 16x16 row", TRNSPARSE_FORMAT_BSR, 16, 16, TRNSPARSE_ORDER_ROW},
};
#define NFMT (sizeof(fmts) / sizeof(fmts[0]))

static const layout layouts[] = {
    {1, 1, TRNSPARSE_ORDER_COL, 0, TRNSPARSE_ORDER_COL},  /* SpMV */
    {5, 0, TRNSPARSE_ORDER_ROW, 0, TRNSPARSE_ORDER_ROW},  /* row-major B and C */
    {9, 0, TRNSPARSE_ORDER_COL, 0, TRNSPARSE_ORDER_COL},  /* column-major, padded C */
    {20, 0, TRNSPARSE_ORDER_COL, 1, TRNSPARSE_ORDER_ROW}, /* op(B) = B^T */
};
#define NLAYOUT (sizeof(layouts) / sizeof(layouts[0]))

static void test_formats(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    for (int dbl = 0; dbl <= 1; dbl++) {
        stats st = {0};
        trip t;
        trip_make(&t, SH_RANDOM, 96, 80, 0.08, dbl, 11 + (uint64_t)dbl);
        for (size_t f = 0; f < NFMT; f++)
            for (int trans = 0; trans <= 1; trans++) {
                /* Every format sees all four (index type, base) pairs. */
                const int combo = (int)(f + (size_t)trans * 2 + (size_t)dbl) % 4;
                sp_host a;
                sp_build(&a, &t, fmts[f].f, combo & 1, combo >> 1, dbl, fmts[f].rb, fmts[f].cb,
                         fmts[f].order, 77 + f);
                sp_upload(&a);
                for (size_t l = 0; l < NLAYOUT; l++) {
                    const double beta = (l + f) % 3 == 0 ? 0.0 : -0.75;
                    run_product(h, &t, &a, trans, &layouts[l], 1.25, beta,
                                1000 * f + 10 * l + (uint64_t)trans, &st);
                }
                sp_free(&a);
            }
        trip_free(&t);
        printf("    formats %s: %ld elements, worst error %.3f of its bound\n",
               dbl ? "double" : "float", st.checked, st.worst);
    }
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- structured matrices, alpha = 0 ---------------------------------------------------- */

static void test_structures(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    static const struct {
        const char *name;
        shape sh;
    } shapes[] = {{"banded", SH_BANDED},
                  {"power-law rows", SH_POWERLAW},
                  {"empty rows", SH_EMPTYROWS},
                  {"one dense row", SH_DENSEROW}};
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
        for (int dbl = 0; dbl <= 1; dbl++) {
            stats st = {0};
            trip t;
            trip_make(&t, shapes[i].sh, 120, 64, 0.05, dbl, 5 + i);
            for (int f = 0; f < 2; f++) { /* CSR (gather) and CSC (scatter) */
                sp_host a;
                sp_build(&a, &t, f ? TRNSPARSE_FORMAT_CSC : TRNSPARSE_FORMAT_CSR, dbl, 0, dbl, 1, 1,
                         TRNSPARSE_ORDER_COL, 3);
                sp_upload(&a);
                for (size_t l = 0; l < 3; l++)
                    for (int trans = 0; trans <= 1; trans++)
                        run_product(h, &t, &a, trans, &layouts[l], -0.5, 2.0, 40 * l + i, &st);
                sp_free(&a);
            }
            /* alpha = 0: A is not read, so its arrays may be absent. */
            trnsparseSpMatDescr_t none;
            assert_int_equal(trnsparseCreateCsr(&none, t.m, t.n, t.nnz, NULL, NULL, NULL,
                                                TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                                TRNSPARSE_INDEX_BASE_ZERO,
                                                dbl ? TRNSCI_R_64F : TRNSCI_R_32F),
                             TRNSPARSE_STATUS_SUCCESS);
            sp_host shell = {.descr = none, .dbl = dbl};
            run_product(h, &t, &shell, 0, &layouts[1], 0.0, 3.0, 9, &st);
            trnsparseDestroySpMat(none);
            trip_free(&t);
            printf("    %s %s: %ld elements, worst error %.3f of its bound\n", shapes[i].name,
                   dbl ? "double" : "float", st.checked, st.worst);
        }
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- sharding: bitwise equal on 1 and 2 cores ------------------------------------------ */

typedef struct big_case {
    const char *name;
    trnsparseFormat_t f;
    int64_t rb;
    int trans, dbl;
    shape sh;
    int64_t m, k, n; /* A is m x k; n columns of C (1: SpMV) */
    double density;
} big_case;

/* Each is big enough for >= 2 shards (trn_op_cost >= 2 TRN_SHARD_SPARSE_MIN_COST). */
static const big_case bigs[] = {
    {"CSR spmv", TRNSPARSE_FORMAT_CSR, 1, 0, 0, SH_RANDOM, 20000, 20000, 1, 0.002},
    {"CSR spmm power-law rows", TRNSPARSE_FORMAT_CSR, 1, 0, 1, SH_POWERLAW, 5000, 4000, 16, 0},
    {"CSR op T column split", TRNSPARSE_FORMAT_CSR, 1, 1, 1, SH_RANDOM, 1500, 1000, 16, 0.04},
    {"COO column split", TRNSPARSE_FORMAT_COO, 1, 0, 0, SH_RANDOM, 1500, 1000, 16, 0.04},
    {"BSR 16 block-row split", TRNSPARSE_FORMAT_BSR, 16, 0, 0, SH_RANDOM, 256, 256, 16, 0.05},
};
#define NBIG (sizeof(bigs) / sizeof(bigs[0]))

/* Runs every big case on the daemon at addr (a local transport address);
 * out[i] gets C's bytes. */
static void run_bigs(const char *addr, uint64_t min_shards, void *out[NBIG], size_t len[NBIG]) {
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    for (size_t i = 0; i < NBIG; i++) {
        const big_case *b = &bigs[i];
        trip t;
        trip_make(&t, b->sh, b->m, b->k, b->density, b->dbl, 100 + i);
        sp_host a;
        sp_build(&a, &t, b->f, 0, 0, b->dbl, b->rb, b->rb, TRNSPARSE_ORDER_COL, 9);
        sp_upload(&a);
        const int64_t m = b->trans ? b->k : b->m, kk = b->trans ? b->m : b->k;
        const size_t es = b->dbl ? 8 : 4;
        uint64_t s = 42;
        void *bh = malloc((size_t)(kk * b->n) * es);
        assert_non_null(bh);
        for (int64_t e = 0; e < kk * b->n; e++)
            su_put(bh, (size_t)e, su_uniform(&s), b->dbl);
        void *bd = su_dev_put(bh, (size_t)(kk * b->n) * es);
        void *cd = NULL;
        assert_int_equal(trnsciMalloc(&cd, (size_t)(m * b->n) * es), trnsciSuccess);
        const trnsciDataType vt = b->dbl ? TRNSCI_R_64F : TRNSCI_R_32F;
        const double one = 1.0, zero = 0.0;
        const float onef = 1.0f, zerof = 0.0f;
        const void *al = b->dbl ? (const void *)&one : (const void *)&onef;
        const void *be = b->dbl ? (const void *)&zero : (const void *)&zerof;
        const trnsparseOperation_t op =
            b->trans ? TRNSPARSE_OPERATION_TRANSPOSE : TRNSPARSE_OPERATION_NON_TRANSPOSE;
        assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
        const uint64_t before = su_shards_run(addr);
        if (b->n == 1) {
            trnsparseDnVecDescr_t x, y;
            assert_int_equal(trnsparseCreateDnVec(&x, kk, bd, vt), TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(trnsparseCreateDnVec(&y, m, cd, vt), TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(
                trnsparseSpMV(h, op, al, a.descr, x, be, y, vt, TRNSPARSE_SPMV_ALG_DEFAULT, NULL),
                TRNSPARSE_STATUS_SUCCESS);
            trnsparseDestroyDnVec(x);
            trnsparseDestroyDnVec(y);
        } else {
            trnsparseDnMatDescr_t bm, cm;
            assert_int_equal(trnsparseCreateDnMat(&bm, kk, b->n, b->n, bd, vt, TRNSPARSE_ORDER_ROW),
                             TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(trnsparseCreateDnMat(&cm, m, b->n, m, cd, vt, TRNSPARSE_ORDER_COL),
                             TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(trnsparseSpMM(h, op, TRNSPARSE_OPERATION_NON_TRANSPOSE, al, a.descr,
                                           bm, be, cm, vt, TRNSPARSE_SPMM_ALG_DEFAULT, NULL),
                             TRNSPARSE_STATUS_SUCCESS);
            trnsparseDestroyDnMat(bm);
            trnsparseDestroyDnMat(cm);
        }
        assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
        const uint64_t shards = su_shards_run(addr) - before;
        if (shards < min_shards)
            fail_msg("%s ran as %llu shard(s), want at least %llu", b->name,
                     (unsigned long long)shards, (unsigned long long)min_shards);
        len[i] = (size_t)(m * b->n) * es;
        out[i] = su_dev_get(cd, len[i]);
        /* And it is right: C's first column against the triplets, every
         * 37th row. */
        long double *want = calloc((size_t)m, sizeof(long double));
        long double *mag = calloc((size_t)m, sizeof(long double));
        int64_t *terms = calloc((size_t)m, sizeof(int64_t));
        assert_true(want && mag && terms);
        for (int64_t e = 0; e < t.nnz; e++) {
            const int64_t o = b->trans ? t.c[e] : t.r[e], in = b->trans ? t.r[e] : t.c[e];
            const long double p = (long double)t.v[e] * su_get(bh, (size_t)(in * b->n), b->dbl);
            want[o] += p;
            mag[o] += fabsl(p);
            terms[o]++;
        }
        for (int64_t o = 0; o < m; o += 37) {
            const long double g = su_get(out[i], (size_t)o, b->dbl);
            if (!(fabsl(g - want[o]) <= su_gamma(b->dbl, (long double)terms[o] + 2) * mag[o]))
                fail_msg("%s: row %lld: got %.10Lg, want %.10Lg", b->name, (long long)o, g,
                         want[o]);
        }
        free(want);
        free(mag);
        free(terms);
        free(bh);
        assert_int_equal(trnsciFree(bd), trnsciSuccess);
        assert_int_equal(trnsciFree(cd), trnsciSuccess);
        sp_free(&a);
        trip_free(&t);
    }
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

static void test_one_core_vs_two_cores(void **state) {
    (void)state;
    void *one[NBIG], *two[NBIG];
    size_t len1[NBIG], len2[NBIG];
    run_bigs(one_core.unix_addr, 1, one, len1);
    run_bigs(two_cores.unix_addr, 2, two, len2);
    for (size_t i = 0; i < NBIG; i++) {
        assert_int_equal(len1[i], len2[i]);
        if (memcmp(one[i], two[i], len1[i]) != 0)
            fail_msg("%s: 2 cores differ from 1 core", bigs[i].name);
        free(one[i]);
        free(two[i]);
    }
}

/* ---- malformed structure: caught when the op runs --------------------------------------- */

/* Runs SpMV with a (whose arrays were corrupted on the host before
 * sp_upload) and expects the next synchronize to fail with needle. */
static void expect_bad_structure(trnsparseHandle_t h, const sp_host *a, int trans,
                                 const char *needle, const char *needle2) {
    const int64_t m = trans ? a->cols * a->cb : a->rows * a->rb;
    const int64_t k = trans ? a->rows * a->rb : a->cols * a->cb;
    const trnsciDataType vt = a->dbl ? TRNSCI_R_64F : TRNSCI_R_32F;
    const size_t es = a->dbl ? 8 : 4;
    void *x = NULL, *y = NULL;
    assert_int_equal(trnsciMalloc(&x, (size_t)k * es + 8), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&y, (size_t)m * es + 8), trnsciSuccess);
    trnsparseDnVecDescr_t xv, yv;
    assert_int_equal(trnsparseCreateDnVec(&xv, k, x, vt), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnVec(&yv, m, y, vt), TRNSPARSE_STATUS_SUCCESS);
    const double one = 1.0;
    const float onef = 1.0f;
    const void *al = a->dbl ? (const void *)&one : (const void *)&onef;
    /* The call itself succeeds: the arrays' contents are not arguments. */
    assert_int_equal(
        trnsparseSpMV(h, trans ? TRNSPARSE_OPERATION_TRANSPOSE : TRNSPARSE_OPERATION_NON_TRANSPOSE,
                      al, a->descr, xv, al, yv, vt, TRNSPARSE_SPMV_ALG_DEFAULT, NULL),
        TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorInvalidValue);
    su_expect_message(needle);
    if (needle2)
        su_expect_message(needle2);
    /* Reported once; the session goes on. */
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    trnsparseDestroyDnVec(xv);
    trnsparseDestroyDnVec(yv);
    assert_int_equal(trnsciFree(x), trnsciSuccess);
    assert_int_equal(trnsciFree(y), trnsciSuccess);
}

static void test_malformed(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    trip t;
    trip_make(&t, SH_RANDOM, 40, 32, 0.2, 1, 3);
    sp_host a;
    char want[128];

    for (int idx64 = 0; idx64 <= 1; idx64++)
        for (int trans = 0; trans <= 1; trans++) {
            /* Non-monotone row offsets. */
            sp_build(&a, &t, TRNSPARSE_FORMAT_CSR, idx64, 0, 1, 1, 1, TRNSPARSE_ORDER_COL, 1);
            su_set_idx(a.off, 7, su_idx(a.off, 6, idx64) - 1, idx64);
            sp_upload(&a);
            expect_bad_structure(h, &a, trans, "must not decrease", "csrRowOffsets[7]");
            sp_free(&a);
            /* A column index out of range (first bad position: the lowest row). */
            sp_build(&a, &t, TRNSPARSE_FORMAT_CSR, idx64, 1, 1, 1, 1, TRNSPARSE_ORDER_COL, 1);
            const int64_t p9 = su_idx(a.off, 9, idx64) - 1, p20 = su_idx(a.off, 20, idx64) - 1;
            su_set_idx(a.idx, (size_t)p20, 0, idx64); /* below base 1 */
            su_set_idx(a.idx, (size_t)p9, 33, idx64); /* cols + base */
            sp_upload(&a);
            snprintf(want, sizeof(want), "csrColInd[%lld] = 33 is outside [1, 32] (row 9)",
                     (long long)p9);
            expect_bad_structure(h, &a, trans, want, NULL);
            sp_free(&a);
            /* Row offsets beyond nnz. */
            sp_build(&a, &t, TRNSPARSE_FORMAT_CSR, idx64, 0, 1, 1, 1, TRNSPARSE_ORDER_COL, 1);
            su_set_idx(a.off, 40, t.nnz + 1, idx64);
            sp_upload(&a);
            expect_bad_structure(h, &a, trans, "csrRowOffsets[40] = ", "is beyond nnz + base");
            sp_free(&a);
            /* The wrong index base: 0-based arrays declared 1-based, and back. */
            sp_build(&a, &t, TRNSPARSE_FORMAT_CSR, idx64, 0, 1, 1, 1, TRNSPARSE_ORDER_COL, 1);
            a.base = 1;
            sp_upload(&a);
            expect_bad_structure(h, &a, trans, "csrRowOffsets[0] = 0 is not the index base 1",
                                 NULL);
            sp_free(&a);
            sp_build(&a, &t, TRNSPARSE_FORMAT_CSR, idx64, 1, 1, 1, 1, TRNSPARSE_ORDER_COL, 1);
            a.base = 0;
            sp_upload(&a);
            expect_bad_structure(h, &a, trans, "csrRowOffsets[0] = 1 is not the index base 0",
                                 NULL);
            sp_free(&a);
            /* CSC row indices, COO indices. */
            sp_build(&a, &t, TRNSPARSE_FORMAT_CSC, idx64, 0, 1, 1, 1, TRNSPARSE_ORDER_COL, 1);
            su_set_idx(a.idx, 3, -2, idx64);
            sp_upload(&a);
            expect_bad_structure(h, &a, trans, "cscRowInd[3] = -2 is outside [0, 39] (column",
                                 NULL);
            sp_free(&a);
            sp_build(&a, &t, TRNSPARSE_FORMAT_COO, idx64, 0, 1, 1, 1, TRNSPARSE_ORDER_COL, 1);
            su_set_idx(a.rowind, 5, 40, idx64);
            sp_upload(&a);
            expect_bad_structure(h, &a, trans, "cooRowInd[5] = 40 is outside [0, 39]", NULL);
            sp_free(&a);
            sp_build(&a, &t, TRNSPARSE_FORMAT_COO, idx64, 1, 1, 1, 1, TRNSPARSE_ORDER_COL, 1);
            su_set_idx(a.idx, 0, 0, idx64);
            sp_upload(&a);
            expect_bad_structure(h, &a, trans, "cooColInd[0] = 0 is outside [1, 32]", NULL);
            sp_free(&a);
            /* BSR: inconsistent block offsets, a block column out of range. */
            sp_build(&a, &t, TRNSPARSE_FORMAT_BSR, idx64, 0, 1, 4, 4, TRNSPARSE_ORDER_COL, 1);
            su_set_idx(a.off, 3, su_idx(a.off, 4, idx64) + 1, idx64);
            sp_upload(&a);
            expect_bad_structure(h, &a, trans, "bsrRowOffsets[4] = ", "must not decrease");
            sp_free(&a);
            sp_build(&a, &t, TRNSPARSE_FORMAT_BSR, idx64, 0, 1, 8, 4, TRNSPARSE_ORDER_ROW, 1);
            su_set_idx(a.off, 5, (int64_t)a.nnz + 3, idx64);
            sp_upload(&a);
            expect_bad_structure(h, &a, trans, "bsrRowOffsets[5] = ", "beyond nnz");
            sp_free(&a);
            sp_build(&a, &t, TRNSPARSE_FORMAT_BSR, idx64, 0, 1, 4, 4, TRNSPARSE_ORDER_COL, 1);
            su_set_idx(a.idx, 2, 8, idx64);
            sp_upload(&a);
            expect_bad_structure(h, &a, trans, "bsrColInd[2] = 8 is outside [0, 7]", NULL);
            sp_free(&a);
        }
    /* INT64_MIN and INT64_MAX indices: out of range, not an overflow. */
    sp_build(&a, &t, TRNSPARSE_FORMAT_CSR, 1, 1, 1, 1, 1, TRNSPARSE_ORDER_COL, 1);
    su_set_idx(a.idx, 4, INT64_MIN, 1);
    sp_upload(&a);
    expect_bad_structure(h, &a, 0, "csrColInd[4] = -9223372036854775808 is outside [1, 32]", NULL);
    sp_free(&a);
    sp_build(&a, &t, TRNSPARSE_FORMAT_CSR, 1, 1, 1, 1, 1, TRNSPARSE_ORDER_COL, 1);
    su_set_idx(a.off, 2, INT64_MIN, 1);
    sp_upload(&a);
    expect_bad_structure(h, &a, 0, "csrRowOffsets[2] = -9223372036854775808", NULL);
    sp_free(&a);
    trip_free(&t);

    /* Sharded (2 cores): errors in both halves; the message names the first. */
    trip_make(&t, SH_RANDOM, 10000, 10000, 0.008, 0, 8);
    sp_build(&a, &t, TRNSPARSE_FORMAT_CSR, 0, 0, 0, 1, 1, TRNSPARSE_ORDER_COL, 1);
    const int64_t first = su_idx(a.off, 100, 0), late = su_idx(a.off, 9500, 0);
    su_set_idx(a.idx, (size_t)late, 10000, 0);
    su_set_idx(a.idx, (size_t)first, 10001, 0);
    sp_upload(&a);
    snprintf(want, sizeof(want), "csrColInd[%lld] = 10001 is outside [0, 9999] (row 100)",
             (long long)first);
    for (int rep = 0; rep < 3; rep++)
        expect_bad_structure(h, &a, 0, want, NULL);
    sp_free(&a);
    trip_free(&t);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- bad arguments: refused by the call ------------------------------------------------ */

static void test_bad_args(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    trip t;
    trip_make(&t, SH_RANDOM, 30, 20, 0.2, 1, 4);
    sp_host a;
    sp_build(&a, &t, TRNSPARSE_FORMAT_CSR, 0, 0, 1, 1, 1, TRNSPARSE_ORDER_COL, 1);
    sp_upload(&a);
    void *x = NULL, *y = NULL;
    assert_int_equal(trnsciMalloc(&x, 3 * 20 * 8), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&y, 3 * 30 * 8), trnsciSuccess);
    trnsparseDnVecDescr_t xv, yv, short_y, fy;
    assert_int_equal(trnsparseCreateDnVec(&xv, 20, x, TRNSCI_R_64F), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnVec(&yv, 30, y, TRNSCI_R_64F), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnVec(&short_y, 29, y, TRNSCI_R_64F), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnVec(&fy, 30, y, TRNSCI_R_32F), TRNSPARSE_STATUS_SUCCESS);
    const double one = 1.0;
    const trnsparseOperation_t N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
#define SPMV(A, X, Y, CT)                                                                          \
    trnsparseSpMV(h, N, &one, A, X, &one, Y, CT, TRNSPARSE_SPMV_ALG_DEFAULT, NULL)
    assert_int_equal(SPMV(a.descr, xv, yv, TRNSCI_R_64F), TRNSPARSE_STATUS_SUCCESS);
    /* Shapes and types. */
    assert_int_equal(SPMV(a.descr, xv, short_y, TRNSCI_R_64F), TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("vecY: size 29 must be 30");
    assert_int_equal(SPMV(a.descr, xv, fy, TRNSCI_R_64F), TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("vecY: its data type must be the sparse matrix's");
    assert_int_equal(SPMV(a.descr, xv, yv, TRNSCI_R_32F), TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("computeType must be the matrices' type");
    assert_int_equal(SPMV(a.descr, xv, yv, TRNSCI_R_16F), TRNSPARSE_STATUS_NOT_SUPPORTED);
    assert_int_equal(trnsparseSpMV(h, (trnsparseOperation_t)7, &one, a.descr, xv, &one, yv,
                                   TRNSCI_R_64F, TRNSPARSE_SPMV_ALG_DEFAULT, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("opA=7");
    /* Descriptors whose arrays do not fit their allocations. */
    trnsparseSpMatDescr_t bad;
    assert_int_equal(trnsparseCreateCsr(&bad, 30, 20, t.nnz + 1, a.d_off, a.d_idx, a.d_val,
                                        TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                        TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_R_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(SPMV(bad, xv, yv, TRNSCI_R_64F), TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("spmv: matA csrColInd: needs");
    trnsparseDestroySpMat(bad);
    assert_int_equal(trnsparseCreateCsr(&bad, 30, 20, t.nnz, a.d_off, a.d_idx, a.d_val,
                                        TRNSPARSE_INDEX_64I, TRNSPARSE_INDEX_64I,
                                        TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_R_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(SPMV(bad, xv, yv, TRNSCI_R_64F), TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("spmv: matA csrRowOffsets: needs 248 bytes");
    trnsparseDestroySpMat(bad);
    assert_int_equal(trnsparseCreateCsr(&bad, 30, 20, t.nnz, a.d_off, a.d_idx, a.d_val,
                                        TRNSPARSE_INDEX_64I, TRNSPARSE_INDEX_32I,
                                        TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_R_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(SPMV(bad, xv, yv, TRNSCI_R_64F), TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("different index types");
    trnsparseDestroySpMat(bad);
    assert_int_equal(trnsparseCreateCsr(&bad, 30, 20, t.nnz, a.d_off, a.d_idx, a.d_val,
                                        TRNSPARSE_INDEX_16U, TRNSPARSE_INDEX_16U,
                                        TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_R_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(SPMV(bad, xv, yv, TRNSCI_R_64F), TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("is not CUSPARSE_INDEX_32I");
    trnsparseDestroySpMat(bad);
    /* A pointer that is not device memory; a freed one. */
    int64_t host_off[31] = {0};
    assert_int_equal(trnsparseCreateCsr(&bad, 30, 20, 0, host_off, NULL, NULL, TRNSPARSE_INDEX_64I,
                                        TRNSPARSE_INDEX_64I, TRNSPARSE_INDEX_BASE_ZERO,
                                        TRNSCI_R_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(SPMV(bad, xv, yv, TRNSCI_R_64F), TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("csrRowOffsets");
    trnsparseDestroySpMat(bad);
    /* Create-time rules, NULL handles and descriptors. */
    assert_int_equal(trnsparseCreateCsr(&bad, -1, 20, 0, NULL, NULL, NULL, TRNSPARSE_INDEX_32I,
                                        TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO,
                                        TRNSCI_R_64F),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    assert_int_equal(trnsparseCreateCsr(&bad, 1, 1, 0, NULL, NULL, NULL, TRNSPARSE_INDEX_32I,
                                        TRNSPARSE_INDEX_32I, (trnsparseIndexBase_t)2, TRNSCI_R_64F),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    assert_int_equal(trnsparseSpMV(NULL, N, &one, a.descr, xv, &one, yv, TRNSCI_R_64F,
                                   TRNSPARSE_SPMV_ALG_DEFAULT, NULL),
                     TRNSPARSE_STATUS_NOT_INITIALIZED);
    assert_int_equal(SPMV(NULL, xv, yv, TRNSCI_R_64F), TRNSPARSE_STATUS_INVALID_VALUE);
    assert_int_equal(trnsparseSpMV(h, N, NULL, a.descr, xv, &one, yv, TRNSCI_R_64F,
                                   TRNSPARSE_SPMV_ALG_DEFAULT, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    assert_int_equal(trnsparseSetPointerMode(h, TRNSPARSE_POINTER_MODE_DEVICE),
                     TRNSPARSE_STATUS_NOT_SUPPORTED);
    /* SpMM shapes. */
    trnsparseDnMatDescr_t bm, cm;
    assert_int_equal(trnsparseCreateDnMat(&bm, 20, 2, 20, x, TRNSCI_R_64F, TRNSPARSE_ORDER_COL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnMat(&cm, 30, 2, 29, y, TRNSCI_R_64F, TRNSPARSE_ORDER_COL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSpMM(h, N, N, &one, a.descr, bm, &one, cm, TRNSCI_R_64F,
                                   TRNSPARSE_SPMM_ALG_DEFAULT, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("matC: ld=29 must be >= max(1, rows) = 30");
    trnsparseDestroyDnMat(cm);
    assert_int_equal(trnsparseCreateDnMat(&cm, 30, 3, 30, y, TRNSCI_R_64F, TRNSPARSE_ORDER_COL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSpMM(h, N, N, &one, a.descr, bm, &one, cm, TRNSCI_R_64F,
                                   TRNSPARSE_SPMM_ALG_DEFAULT, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("shapes do not match");
    trnsparseDestroyDnMat(cm);
    trnsparseDestroyDnMat(bm);
#undef SPMV
    trnsparseDestroyDnVec(xv);
    trnsparseDestroyDnVec(yv);
    trnsparseDestroyDnVec(short_y);
    trnsparseDestroyDnVec(fy);
    assert_int_equal(trnsciFree(x), trnsciSuccess);
    assert_int_equal(trnsciFree(y), trnsciSuccess);
    /* A freed array. */
    const trnsparseSpMatDescr_t stale = a.descr;
    a.descr = NULL;
    assert_int_equal(trnsciFree(a.d_val), trnsciSuccess);
    a.d_val = NULL;
    void *x2 = NULL, *y2 = NULL;
    assert_int_equal(trnsciMalloc(&x2, 20 * 8), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&y2, 30 * 8), trnsciSuccess);
    trnsparseDnVecDescr_t x2v, y2v;
    assert_int_equal(trnsparseCreateDnVec(&x2v, 20, x2, TRNSCI_R_64F), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnVec(&y2v, 30, y2, TRNSCI_R_64F), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSpMV(h, N, &one, stale, x2v, &one, y2v, TRNSCI_R_64F,
                                   TRNSPARSE_SPMV_ALG_DEFAULT, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("csrValues");
    trnsparseDestroySpMat(stale);
    trnsparseDestroyDnVec(x2v);
    trnsparseDestroyDnVec(y2v);
    assert_int_equal(trnsciFree(x2), trnsciSuccess);
    assert_int_equal(trnsciFree(y2), trnsciSuccess);
    sp_free(&a);
    trip_free(&t);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

int main(void) {
    if (su_start_daemons(&one_core, &two_cores) != 0)
        return 1;
    local_t.addr = two_cores.unix_addr;
    grpc_t.addr = two_cores.tcp_addr;
    const struct CMUnitTest tests[] = {
        SU_ON(test_formats, local),          SU_ON(test_formats, grpc),
        SU_ON(test_structures, local),       SU_ON(test_structures, grpc),
        SU_ONCE(test_one_core_vs_two_cores), SU_ON(test_malformed, local),
        SU_ON(test_malformed, grpc),         SU_ON(test_bad_args, local),
        SU_ON(test_bad_args, grpc),
    };
    int failed = cmocka_run_group_tests_name("sparse", tests, NULL, NULL);
    failed += th_daemon_stop_checked(&one_core, "trnscid --cores 1");
    failed += th_daemon_stop_checked(&two_cores, "trnscid --cores 2");
    return failed ? 1 : 0;
}
