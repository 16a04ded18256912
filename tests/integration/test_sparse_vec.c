/*
 * test_sparse_vec.c — trnsparse's sparse vectors (SpVV, Axpby, Gather,
 * Scatter, Rot), the matrix attributes and the triangular solves (SpSV,
 * SpSM) through a real daemon, over the local transport and gRPC over TCP,
 * against scipy (sparse_ref.py under Debian's python3):
 *
 *  - Level 1: a vector of 1000 elements with 300 entries at unique,
 *    unsorted positions; float and double, 32- and 64-bit indices, base 0
 *    and 1. Gather and Scatter are exact. SpVV: a sum of nnz products,
 *    |err| <= gamma_nnz sum |x_k y_ik| (Higham §3.1); Axpby and Rot: two
 *    roundings per element, |err| <= gamma_2 (|beta y_i| + |alpha x_i|)
 *    (Rot: gamma_2 (|c x| + |s y|)). The reference is float64 with an error
 *    of the same form, so double results are held to twice the bound.
 *    Axpby with a repeated index adds both entries (checked in long
 *    double); nnz = 0 gives a zero dot and a scaled y. Complex values
 *    (C_32F, C_64F, both index types and bases, SpVV opX N and C) against
 *    numpy in complex128, bounds at run_level1_complex.
 *  - SpSV/SpSM: random sparse n x n matrices with entries in both
 *    triangles (the solve must ignore the other one) and a dominant
 *    diagonal (|a_ii| >= 1 + the row's off-diagonal sum, off-diagonal row
 *    sums <= 0.5), so op(T) is well conditioned; CSR and COO (entries
 *    shuffled), float and double, 32/64-bit indices, base 0/1, fill lower
 *    and upper, op N and T, unit diagonal (the stored diagonal is not 1
 *    and must be ignored), alpha != 1, SpSM with 3 right-hand sides, op(B)
 *    N and T, either order of B and C, C at a leading dimension with
 *    padding that must come back unchanged. Tolerance (Higham (8.3)): the
 *    computed x satisfies (T + dT) x = fl(alpha b), |dT| <= gamma_w |T|
 *    (w: the longest row of op(T)), so |x - x_ref| <= gamma_{w+1}
 *    |T^-1||T||x| + u |T^-1||alpha b|, evaluated by the script at its own x
 *    (a second-order change); double results are held to twice that.
 *  - Splits: an SpSM with 64 right-hand sides (2000 x 2000, op T) runs as
 *    >= 2 shards on a 2-core daemon and is bitwise equal to the 1-core run.
 *  - Bad input, each with cuSPARSE's status and a message: a non-square
 *    or CSC matrix, a size mismatch, a compute type that is not the
 *    matrix's, solve before analysis, a bad attribute (size, value), a
 *    complex sparse vector with a real dense one and the reverse, a
 *    complex SpVV whose compute type is not the values', nnz > size, SpVV without its buffer, a bad
 *    index found when the op runs (vector and matrix; SpVV, which waits,
 *    returns it); COO with a duplicate diagonal entry and one in the other
 *    triangle, exactly (op N and T); a zero diagonal
 *    entry gives Inf (no zero-pivot report) and the daemon keeps serving.
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

static double *read_f64(const char *name, size_t count) {
    size_t bytes = 0;
    double *p = su_read_file(tmp_dir, name, &bytes);
    assert_int_equal(bytes, count * 8);
    return p;
}

/* A value of the test's type (rounded to float once when !dbl). */
static double rnd(uint64_t *s, int dbl) {
    const double v = su_uniform(s);
    return dbl ? v : (double)(float)v;
}

/* ---- Level 1 ---------------------------------------------------------------------------- */

typedef struct vec_case {
    int dbl, idx64, base;
} vec_case;

/* The worst error seen as a fraction of its bound: [level 1, spsv][float, double]. */
static long double worst[2][2];
static int cur_kind, cur_dbl;

static void check_close(const char *what, size_t i, long double got, long double want,
                        long double bound) {
    if (bound > 0 && fabsl(got - want) / bound > worst[cur_kind][cur_dbl])
        worst[cur_kind][cur_dbl] = fabsl(got - want) / bound;
    if (fabsl(got - want) > bound)
        fail_msg("%s[%zu]: %.17Lg, reference %.17Lg, error %.3Lg > bound %.3Lg", what, i, got, want,
                 fabsl(got - want), bound);
}

static void run_level1(trnsparseHandle_t h, const vec_case *vc, uint64_t seed) {
    const int64_t n = 1000, nnz = 300;
    const int dbl = vc->dbl;
    cur_kind = 0;
    cur_dbl = dbl;
    const size_t es = dbl ? 8 : 4, isz = vc->idx64 ? 8 : 4;
    const trnsciDataType t = dbl ? TRNSCI_R_64F : TRNSCI_R_32F;
    uint64_t s = seed;
    /* Unique positions in random order: the first nnz of a shuffle. */
    int64_t *perm = malloc((size_t)n * 8), *pos = malloc((size_t)nnz * 8);
    double *xv = malloc((size_t)nnz * 8), *yv = malloc((size_t)n * 8);
    assert_non_null(perm);
    assert_non_null(pos);
    assert_non_null(xv);
    assert_non_null(yv);
    for (int64_t i = 0; i < n; i++)
        perm[i] = i;
    for (int64_t i = n - 1; i > 0; i--) {
        const int64_t j = (int64_t)((su_uniform(&s) + 1.0) * 0.5 * (double)(i + 1)) % (i + 1);
        const int64_t tmp = perm[i];
        perm[i] = perm[j];
        perm[j] = tmp;
    }
    void *hidx = malloc((size_t)nnz * isz), *hx = malloc((size_t)nnz * es),
         *hy = malloc((size_t)n * es);
    for (int64_t k = 0; k < nnz; k++) {
        pos[k] = perm[k];
        su_set_idx(hidx, (size_t)k, pos[k] + vc->base, vc->idx64);
        xv[k] = rnd(&s, dbl);
        su_put(hx, (size_t)k, xv[k], dbl);
    }
    for (int64_t i = 0; i < n; i++) {
        yv[i] = rnd(&s, dbl);
        su_put(hy, (size_t)i, yv[i], dbl);
    }
    /* c and s as the type holds them, so the reference sees the same numbers. */
    const double alpha = 0.75, beta = -1.25, c = dbl ? 0.6 : (double)0.6f,
                 sn = dbl ? 0.8 : (double)0.8f;
    char meta[256];
    snprintf(meta, sizeof(meta), "%lld %.17g %.17g %.17g %.17g", (long long)n, alpha, beta, c, sn);
    su_write_file(tmp_dir, "meta.txt", meta, strlen(meta));
    su_write_file(tmp_dir, "x.idx", pos, (size_t)nnz * 8);
    su_write_file(tmp_dir, "x.val", xv, (size_t)nnz * 8);
    su_write_file(tmp_dir, "y", yv, (size_t)n * 8);
    su_run_ref(PYTHON3, SPARSE_REF_PY, "spvec", tmp_dir);

    void *d_idx = su_dev_put(hidx, (size_t)nnz * isz), *d_x = su_dev_put(hx, (size_t)nnz * es);
    void *d_y = su_dev_put(hy, (size_t)n * es);
    const trnsparseIndexType_t it = vc->idx64 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I;
    const trnsparseIndexBase_t ib = vc->base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO;
    trnsparseSpVecDescr_t x;
    trnsparseDnVecDescr_t y;
    assert_int_equal(trnsparseCreateSpVec(&x, n, nnz, d_idx, d_x, it, ib, t),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnVec(&y, n, d_y, t), TRNSPARSE_STATUS_SUCCESS);
    /* The getters give back what was set. */
    int64_t gs, gn;
    void *gi, *gv;
    trnsparseIndexType_t git;
    trnsparseIndexBase_t gib;
    trnsciDataType gt;
    assert_int_equal(trnsparseSpVecGet(x, &gs, &gn, &gi, &gv, &git, &gib, &gt),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_true(gs == n && gn == nnz && gi == d_idx && gv == d_x && git == it && gib == ib &&
                gt == t);
    assert_int_equal(trnsparseSpVecGetIndexBase(x, &gib), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(gib, ib);

    /* SpVV. */
    size_t bs = 0;
    double dot = 0;
    float dotf = 0;
    void *res = dbl ? (void *)&dot : (void *)&dotf;
    assert_int_equal(
        trnsparseSpVV_bufferSize(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, x, y, res, t, &bs),
        TRNSPARSE_STATUS_SUCCESS);
    void *buf = NULL;
    assert_int_equal(trnsciMalloc(&buf, bs), trnsciSuccess);
    assert_int_equal(trnsparseSpVV(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, x, y, res, t, buf),
                     TRNSPARSE_STATUS_SUCCESS);
    double *ref = read_f64("dot", 1);
    long double mag = 0;
    for (int64_t k = 0; k < nnz; k++)
        mag += fabsl((long double)xv[k] * yv[pos[k]]);
    const long double twice = dbl ? 2.0L : 1.0L;
    check_close("spvv", 0, dbl ? dot : dotf, ref[0], twice * su_gamma(dbl, nnz) * mag);
    free(ref);

    /* Axpby on y. */
    const float af = (float)alpha, bf = (float)beta, cf = (float)c, sf = (float)sn;
    const void *pa = dbl ? (const void *)&alpha : (const void *)&af;
    const void *pb = dbl ? (const void *)&beta : (const void *)&bf;
    assert_int_equal(trnsparseAxpby(h, pa, x, pb, y), TRNSPARSE_STATUS_SUCCESS);
    void *out = su_dev_get(d_y, (size_t)n * es);
    ref = read_f64("axpby", (size_t)n);
    double *dense_x = calloc((size_t)n, 8);
    for (int64_t k = 0; k < nnz; k++)
        dense_x[pos[k]] = xv[k];
    for (int64_t i = 0; i < n; i++)
        check_close(
            "axpby", (size_t)i, su_get(out, (size_t)i, dbl), ref[i],
            twice * su_gamma(dbl, 2) *
                (fabsl((long double)beta * yv[i]) + fabsl((long double)alpha * dense_x[i])));
    free(out);
    free(ref);

    /* Gather from the original y into fresh values. */
    assert_int_equal(trnsciMemcpy(d_y, hy, (size_t)n * es, trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    void *d_g = NULL;
    assert_int_equal(trnsciMalloc(&d_g, (size_t)nnz * es), trnsciSuccess);
    assert_int_equal(trnsparseSpVecSetValues(x, d_g), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSpVecGetValues(x, &gv), TRNSPARSE_STATUS_SUCCESS);
    assert_ptr_equal(gv, d_g);
    assert_int_equal(trnsparseGather(h, y, x), TRNSPARSE_STATUS_SUCCESS);
    out = su_dev_get(d_g, (size_t)nnz * es);
    ref = read_f64("gather", (size_t)nnz);
    for (int64_t k = 0; k < nnz; k++)
        check_close("gather", (size_t)k, su_get(out, (size_t)k, dbl), ref[k], 0);
    free(out);
    free(ref);

    /* Scatter the original x into y. */
    assert_int_equal(trnsparseSpVecSetValues(x, d_x), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseScatter(h, x, y), TRNSPARSE_STATUS_SUCCESS);
    out = su_dev_get(d_y, (size_t)n * es);
    ref = read_f64("scatter", (size_t)n);
    for (int64_t i = 0; i < n; i++)
        check_close("scatter", (size_t)i, su_get(out, (size_t)i, dbl), ref[i], 0);
    free(out);
    free(ref);

    /* Rot on the original x and y. */
    assert_int_equal(trnsciMemcpy(d_y, hy, (size_t)n * es, trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    const void *pc = dbl ? (const void *)&c : (const void *)&cf;
    const void *ps = dbl ? (const void *)&sn : (const void *)&sf;
    assert_int_equal(trnsparseRot(h, pc, ps, x, y), TRNSPARSE_STATUS_SUCCESS);
    out = su_dev_get(d_x, (size_t)nnz * es);
    ref = read_f64("rot.x", (size_t)nnz);
    for (int64_t k = 0; k < nnz; k++)
        check_close("rot x", (size_t)k, su_get(out, (size_t)k, dbl), ref[k],
                    twice * su_gamma(dbl, 2) * (fabsl(c * xv[k]) + fabsl(sn * yv[pos[k]])));
    free(out);
    free(ref);
    out = su_dev_get(d_y, (size_t)n * es);
    ref = read_f64("rot.y", (size_t)n);
    for (int64_t i = 0; i < n; i++)
        check_close("rot y", (size_t)i, su_get(out, (size_t)i, dbl), ref[i],
                    twice * su_gamma(dbl, 2) * (fabsl(c * yv[i]) + fabsl(sn * dense_x[i])));
    free(out);
    free(ref);

    trnsparseDestroySpVec(x);
    trnsparseDestroyDnVec(y);
    void *frees[] = {d_idx, d_x, d_y, d_g, buf};
    for (int i = 0; i < 5; i++)
        assert_int_equal(trnsciFree(frees[i]), trnsciSuccess);
    free(perm);
    free(pos);
    free(xv);
    free(yv);
    free(hidx);
    free(hx);
    free(hy);
    free(dense_x);
}

/* A repeated index (Axpby adds both entries) and an empty vector. */
static void run_level1_edges(trnsparseHandle_t h) {
    const int32_t idx[3] = {3, 3, 5};
    const double xv[3] = {0.5, 0.25, -1.0}, y0[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    void *d_idx = su_dev_put(idx, sizeof(idx)), *d_x = su_dev_put(xv, sizeof(xv));
    void *d_y = su_dev_put(y0, sizeof(y0));
    trnsparseSpVecDescr_t x, e;
    trnsparseDnVecDescr_t y;
    assert_int_equal(trnsparseCreateSpVec(&x, 8, 3, d_idx, d_x, TRNSPARSE_INDEX_32I,
                                          TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_R_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnVec(&y, 8, d_y, TRNSCI_R_64F), TRNSPARSE_STATUS_SUCCESS);
    const double alpha = 3.0, beta = 0.5;
    assert_int_equal(trnsparseAxpby(h, &alpha, x, &beta, y), TRNSPARSE_STATUS_SUCCESS);
    double *out = su_dev_get(d_y, sizeof(y0));
    for (int i = 0; i < 8; i++) {
        long double want = 0.5L * y0[i];
        if (i == 3)
            want += 3.0L * 0.5L + 3.0L * 0.25L;
        if (i == 5)
            want += 3.0L * -1.0L;
        /* every value here is exact in double */
        check_close("axpby (repeated index)", (size_t)i, out[i], want, 0);
    }
    free(out);
    /* nnz = 0: the dot is 0 and Axpby only scales. */
    assert_int_equal(trnsparseCreateSpVec(&e, 8, 0, NULL, NULL, TRNSPARSE_INDEX_64I,
                                          TRNSPARSE_INDEX_BASE_ONE, TRNSCI_R_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    void *buf = NULL;
    assert_int_equal(trnsciMalloc(&buf, 16), trnsciSuccess);
    double dot = 42;
    assert_int_equal(
        trnsparseSpVV(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, e, y, &dot, TRNSCI_R_64F, buf),
        TRNSPARSE_STATUS_SUCCESS);
    assert_true(dot == 0.0);
    const double zero = 0.0;
    assert_int_equal(trnsparseAxpby(h, &alpha, e, &zero, y), TRNSPARSE_STATUS_SUCCESS);
    out = su_dev_get(d_y, sizeof(y0));
    for (int i = 0; i < 8; i++)
        assert_true(out[i] == 0.0);
    free(out);
    trnsparseDestroySpVec(x);
    trnsparseDestroySpVec(e);
    trnsparseDestroyDnVec(y);
    void *frees[] = {d_idx, d_x, d_y, buf};
    for (int i = 0; i < 4; i++)
        assert_int_equal(trnsciFree(frees[i]), trnsciSuccess);
}

/* ---- Level 1, complex values ------------------------------------------------------------ */

/* The worst complex error seen as a fraction of its bound: [float, double]. */
static long double worst_c[2];

/* |a - b| of two complex numbers given as (re, im). */
static long double cabs_diff(long double ar, long double ai, long double br, long double bi) {
    return hypotl(ar - br, ai - bi);
}

/* Checks n complex results (interleaved, float or double) against the
 * reference's (re, im) pairs; bound[i] < 0: exact. */
static void check_cplx(const char *what, const void *got, const double *ref, size_t n, int dbl,
                       const long double *bound) {
    for (size_t i = 0; i < n; i++) {
        const long double gr = dbl ? ((const double *)got)[2 * i] : ((const float *)got)[2 * i];
        const long double gi =
            dbl ? ((const double *)got)[2 * i + 1] : ((const float *)got)[2 * i + 1];
        const long double err = cabs_diff(gr, gi, ref[2 * i], ref[2 * i + 1]);
        const long double b = bound ? bound[i] : 0;
        if (b > 0 && err / b > worst_c[dbl])
            worst_c[dbl] = err / b;
        if (err > b)
            fail_msg("%s[%zu]: (%.17Lg, %.17Lg), reference (%.17g, %.17g), error %.3Lg > bound "
                     "%.3Lg",
                     what, i, gr, gi, ref[2 * i], ref[2 * i + 1], err, b);
    }
}

/* Complex Level 1 against numpy in complex128 (sparse_ref.py spvecz): a
 * vector of 500 elements with 150 entries at unique, unsorted positions.
 * Bounds (u the type's unit roundoff, gamma_k = k u / (1 - k u)): a complex
 * product is within sqrt(2) gamma_2 of the exact one (Higham §3.6), so
 * SpVV, a sum of nnz products, is within sqrt(2) gamma_{nnz+2} sum |x_k|
 * |y_ik| (opX C the same, conjugation is exact); Axpby beta y_i + alpha x_i
 * and Rot c x + s y, two products and a sum, are within sqrt(2) gamma_3
 * (|a||u| + |b||v|) per element; Gather and Scatter copy, exactly. The
 * reference's own error has the same form in double, so double results
 * are held to twice the bound. */
static void run_level1_complex(trnsparseHandle_t h, const vec_case *vc, uint64_t seed) {
    const int64_t n = 500, nnz = 150;
    const int dbl = vc->dbl;
    cur_kind = 0;
    cur_dbl = dbl;
    const size_t es = dbl ? 16 : 8, isz = vc->idx64 ? 8 : 4;
    const trnsciDataType t = dbl ? TRNSCI_C_64F : TRNSCI_C_32F;
    uint64_t s = seed;
    int64_t *perm = malloc((size_t)n * 8), *pos = malloc((size_t)nnz * 8);
    double *xv = malloc((size_t)nnz * 16), *yv = malloc((size_t)n * 16);
    void *hidx = malloc((size_t)nnz * isz), *hx = malloc((size_t)nnz * es),
         *hy = malloc((size_t)n * es);
    long double *bound = malloc((size_t)n * sizeof(long double));
    assert_true(perm && pos && xv && yv && hidx && hx && hy && bound);
    for (int64_t i = 0; i < n; i++)
        perm[i] = i;
    for (int64_t i = n - 1; i > 0; i--) {
        const int64_t j = (int64_t)((su_uniform(&s) + 1.0) * 0.5 * (double)(i + 1)) % (i + 1);
        const int64_t tmp = perm[i];
        perm[i] = perm[j];
        perm[j] = tmp;
    }
    for (int64_t k = 0; k < nnz; k++) {
        pos[k] = perm[k];
        su_set_idx(hidx, (size_t)k, pos[k] + vc->base, vc->idx64);
        for (int p = 0; p < 2; p++) {
            xv[2 * k + p] = rnd(&s, dbl);
            su_put(hx, (size_t)(2 * k + p), xv[2 * k + p], dbl);
        }
    }
    for (int64_t i = 0; i < n; i++)
        for (int p = 0; p < 2; p++) {
            yv[2 * i + p] = rnd(&s, dbl);
            su_put(hy, (size_t)(2 * i + p), yv[2 * i + p], dbl);
        }
    /* alpha, beta, c, s as (re, im), each exact in float. */
    const double sc[8] = {0.75, -0.5, -1.25, 0.25, 0.6, 0.125, 0.5, -0.625};
    char meta[256];
    snprintf(meta, sizeof(meta), "%lld %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g",
             (long long)n, sc[0], sc[1], sc[2], sc[3], sc[4], sc[5], sc[6], sc[7]);
    su_write_file(tmp_dir, "meta.txt", meta, strlen(meta));
    su_write_file(tmp_dir, "x.idx", pos, (size_t)nnz * 8);
    su_write_file(tmp_dir, "x.val", xv, (size_t)nnz * 16);
    su_write_file(tmp_dir, "y", yv, (size_t)n * 16);
    su_run_ref(PYTHON3, SPARSE_REF_PY, "spvecz", tmp_dir);
    float scf[8];
    for (int i = 0; i < 8; i++)
        scf[i] = (float)sc[i];
    const void *pal = dbl ? (const void *)&sc[0] : (const void *)&scf[0];
    const void *pbe = dbl ? (const void *)&sc[2] : (const void *)&scf[2];
    const void *pc = dbl ? (const void *)&sc[4] : (const void *)&scf[4];
    const void *ps = dbl ? (const void *)&sc[6] : (const void *)&scf[6];
    long double mod[4];
    for (int i = 0; i < 4; i++)
        mod[i] = hypotl(sc[2 * i], sc[2 * i + 1]);
    long double *ax = calloc((size_t)n, sizeof(long double)); /* |x| dense */
    assert_non_null(ax);
    for (int64_t k = 0; k < nnz; k++)
        ax[pos[k]] = hypotl(xv[2 * k], xv[2 * k + 1]);
    const long double twice = dbl ? 2.0L : 1.0L, r2 = sqrtl(2.0L);

    void *d_idx = su_dev_put(hidx, (size_t)nnz * isz), *d_x = su_dev_put(hx, (size_t)nnz * es);
    void *d_y = su_dev_put(hy, (size_t)n * es);
    const trnsparseIndexType_t it = vc->idx64 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I;
    const trnsparseIndexBase_t ib = vc->base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO;
    trnsparseSpVecDescr_t x;
    trnsparseDnVecDescr_t y;
    assert_int_equal(trnsparseCreateSpVec(&x, n, nnz, d_idx, d_x, it, ib, t),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnVec(&y, n, d_y, t), TRNSPARSE_STATUS_SUCCESS);

    /* SpVV, opX N and C. */
    size_t bs = 0;
    double res[2];
    assert_int_equal(
        trnsparseSpVV_bufferSize(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, x, y, res, t, &bs),
        TRNSPARSE_STATUS_SUCCESS);
    assert_true(bs >= es);
    void *buf = NULL;
    assert_int_equal(trnsciMalloc(&buf, bs), trnsciSuccess);
    long double mag = 0;
    for (int64_t k = 0; k < nnz; k++)
        mag += ax[pos[k]] * hypotl(yv[2 * pos[k]], yv[2 * pos[k] + 1]);
    bound[0] = twice * r2 * su_gamma(dbl, nnz + 2) * mag;
    static const char *const dots[2] = {"dot", "dotc"};
    for (int op = 0; op < 2; op++) {
        memset(res, 0, sizeof(res));
        const trnsparseOperation_t opx =
            op ? TRNSPARSE_OPERATION_CONJUGATE_TRANSPOSE : TRNSPARSE_OPERATION_NON_TRANSPOSE;
        assert_int_equal(trnsparseSpVV(h, opx, x, y, res, t, buf), TRNSPARSE_STATUS_SUCCESS);
        double *ref = read_f64(dots[op], 2);
        check_cplx(op ? "spvv C" : "spvv N", res, ref, 1, dbl, bound);
        free(ref);
    }

    /* Axpby on y. */
    assert_int_equal(trnsparseAxpby(h, pal, x, pbe, y), TRNSPARSE_STATUS_SUCCESS);
    void *out = su_dev_get(d_y, (size_t)n * es);
    double *ref = read_f64("axpby", (size_t)n * 2);
    for (int64_t i = 0; i < n; i++)
        bound[i] = twice * r2 * su_gamma(dbl, 3) *
                   (mod[1] * hypotl(yv[2 * i], yv[2 * i + 1]) + mod[0] * ax[i]);
    check_cplx("axpby", out, ref, (size_t)n, dbl, bound);
    free(out);
    free(ref);

    /* Gather from the original y into fresh values. */
    assert_int_equal(trnsciMemcpy(d_y, hy, (size_t)n * es, trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    void *d_g = NULL;
    assert_int_equal(trnsciMalloc(&d_g, (size_t)nnz * es), trnsciSuccess);
    assert_int_equal(trnsparseSpVecSetValues(x, d_g), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseGather(h, y, x), TRNSPARSE_STATUS_SUCCESS);
    out = su_dev_get(d_g, (size_t)nnz * es);
    ref = read_f64("gather", (size_t)nnz * 2);
    check_cplx("gather", out, ref, (size_t)nnz, dbl, NULL);
    free(out);
    free(ref);

    /* Scatter the original x into y. */
    assert_int_equal(trnsparseSpVecSetValues(x, d_x), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseScatter(h, x, y), TRNSPARSE_STATUS_SUCCESS);
    out = su_dev_get(d_y, (size_t)n * es);
    ref = read_f64("scatter", (size_t)n * 2);
    check_cplx("scatter", out, ref, (size_t)n, dbl, NULL);
    free(out);
    free(ref);

    /* Rot on the original x and y. */
    assert_int_equal(trnsciMemcpy(d_y, hy, (size_t)n * es, trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(trnsparseRot(h, pc, ps, x, y), TRNSPARSE_STATUS_SUCCESS);
    out = su_dev_get(d_x, (size_t)nnz * es);
    ref = read_f64("rot.x", (size_t)nnz * 2);
    for (int64_t k = 0; k < nnz; k++)
        bound[k] = twice * r2 * su_gamma(dbl, 3) *
                   (mod[2] * ax[pos[k]] + mod[3] * hypotl(yv[2 * pos[k]], yv[2 * pos[k] + 1]));
    check_cplx("rot x", out, ref, (size_t)nnz, dbl, bound);
    free(out);
    free(ref);
    out = su_dev_get(d_y, (size_t)n * es);
    ref = read_f64("rot.y", (size_t)n * 2);
    for (int64_t i = 0; i < n; i++)
        bound[i] = twice * r2 * su_gamma(dbl, 3) *
                   (mod[2] * hypotl(yv[2 * i], yv[2 * i + 1]) + mod[3] * ax[i]);
    check_cplx("rot y", out, ref, (size_t)n, dbl, bound);
    free(out);
    free(ref);

    trnsparseDestroySpVec(x);
    trnsparseDestroyDnVec(y);
    void *frees[] = {d_idx, d_x, d_y, d_g, buf};
    for (int i = 0; i < 5; i++)
        assert_int_equal(trnsciFree(frees[i]), trnsciSuccess);
    free(perm);
    free(pos);
    free(xv);
    free(yv);
    free(hidx);
    free(hx);
    free(hy);
    free(bound);
    free(ax);
}

static void test_level1(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    uint64_t seed = 11;
    for (int dbl = 0; dbl < 2; dbl++)
        for (int idx64 = 0; idx64 < 2; idx64++)
            for (int base = 0; base < 2; base++) {
                const vec_case vc = {dbl, idx64, base};
                run_level1(h, &vc, seed++);
                run_level1_complex(h, &vc, seed++);
            }
    run_level1_edges(h);
    printf("    level 1: worst error %.3Lf (float), %.3Lf (double) of the bound\n", worst[0][0],
           worst[0][1]);
    printf("    level 1 complex: worst error %.3Lf (C_32F), %.3Lf (C_64F) of the bound\n",
           worst_c[0], worst_c[1]);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- SpSV / SpSM ------------------------------------------------------------------------ */

typedef struct spsv_case {
    int64_t n, nrhs; /* nrhs 0: SpSV (vectors) */
    trnsparseFormat_t f;
    int dbl, idx64, base, lower, unit, trans;
    trnsparseOperation_t opb;
    trnsparseOrder_t bo, co;
    double alpha;
} spsv_case;

/* An n x n matrix, sorted triplets: the diagonal and about `per_row`
 * off-diagonal entries a row in both triangles, off-diagonal row sums of
 * magnitudes <= 0.5, |a_ii| in [1, 2) with a random sign. */
static void make_dominant(trip *t, int64_t n, int per_row, int dbl, uint64_t seed) {
    uint64_t s = seed | 1;
    const size_t cap = (size_t)n * (size_t)(per_row + 1);
    t->m = t->n = n;
    t->r = malloc(cap * 8);
    t->c = malloc(cap * 8);
    t->v = malloc(cap * 8);
    assert_true(t->r && t->c && t->v);
    unsigned char *used = calloc((size_t)n, 1);
    assert_non_null(used);
    t->nnz = 0;
    for (int64_t i = 0; i < n; i++) {
        memset(used, 0, (size_t)n);
        used[i] = 1;
        for (int k = 0; k < per_row && n > 1; k++) {
            const int64_t j = (int64_t)((su_uniform(&s) + 1.0) * 0.5 * (double)n) % n;
            used[j] = 1;
        }
        for (int64_t j = 0; j < n; j++) {
            if (!used[j])
                continue;
            double v;
            if (j == i) {
                const double d = 1.5 + 0.5 * su_uniform(&s);
                v = su_uniform(&s) < 0 ? -d : d;
            } else {
                v = su_uniform(&s) * 0.5 / (per_row + 1);
            }
            t->r[t->nnz] = i;
            t->c[t->nnz] = j;
            t->v[t->nnz] = dbl ? v : (double)(float)v;
            t->nnz++;
        }
    }
    free(used);
}

/* Writes t as 0-based int64 CSR files A.indptr, A.indices, A.data. */
static void write_csr(const trip *t) {
    int64_t *ptr = calloc((size_t)t->m + 1, 8);
    assert_non_null(ptr);
    for (int64_t k = 0; k < t->nnz; k++)
        ptr[t->r[k] + 1]++;
    for (int64_t i = 0; i < t->m; i++)
        ptr[i + 1] += ptr[i];
    su_write_file(tmp_dir, "A.indptr", ptr, (size_t)(t->m + 1) * 8);
    su_write_file(tmp_dir, "A.indices", t->c, (size_t)t->nnz * 8);
    su_write_file(tmp_dir, "A.data", t->v, (size_t)t->nnz * 8);
    free(ptr);
}

static void set_attributes(trnsparseSpMatDescr_t m, int lower, int unit) {
    trnsparseFillMode_t fm = lower ? TRNSPARSE_FILL_MODE_LOWER : TRNSPARSE_FILL_MODE_UPPER;
    trnsparseDiagType_t dt = unit ? TRNSPARSE_DIAG_TYPE_UNIT : TRNSPARSE_DIAG_TYPE_NON_UNIT;
    assert_int_equal(trnsparseSpMatSetAttribute(m, TRNSPARSE_SPMAT_FILL_MODE, &fm, sizeof(fm)),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSpMatSetAttribute(m, TRNSPARSE_SPMAT_DIAG_TYPE, &dt, sizeof(dt)),
                     TRNSPARSE_STATUS_SUCCESS);
    trnsparseFillMode_t gf;
    trnsparseDiagType_t gd;
    assert_int_equal(trnsparseSpMatGetAttribute(m, TRNSPARSE_SPMAT_FILL_MODE, &gf, sizeof(gf)),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSpMatGetAttribute(m, TRNSPARSE_SPMAT_DIAG_TYPE, &gd, sizeof(gd)),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_true(gf == fm && gd == dt);
}

/* Element (i, j) of a rows x cols matrix stored in order o with ld. */
static size_t at(trnsparseOrder_t o, int64_t ld, int64_t i, int64_t j) {
    return (size_t)(o == TRNSPARSE_ORDER_ROW ? i * ld + j : i + j * ld);
}

static void run_spsv(trnsparseHandle_t h, const spsv_case *cs, uint64_t seed) {
    const int64_t n = cs->n, k = cs->nrhs ? cs->nrhs : 1;
    const int dbl = cs->dbl, sm = cs->nrhs > 0;
    cur_kind = 1;
    cur_dbl = dbl;
    const size_t es = dbl ? 8 : 4;
    const trnsciDataType t = dbl ? TRNSCI_R_64F : TRNSCI_R_32F;
    trip a;
    make_dominant(&a, n, 4, dbl, seed);
    write_csr(&a);
    sp_host sa;
    sp_build(&sa, &a, cs->f, cs->idx64, cs->base, dbl, 1, 1, TRNSPARSE_ORDER_COL, seed + 1);
    sp_upload(&sa);
    set_attributes(sa.descr, cs->lower, cs->unit);
    /* op(B): n x k values; B stored as n x k (opB N) or k x n (T), order bo,
     * ld = inner + 2. C: n x k in order co, ld = inner + 1, padding NaN. */
    uint64_t s = seed * 7 + 3;
    double *opb = malloc((size_t)(n * k) * 8);
    assert_non_null(opb);
    for (int64_t i = 0; i < n * k; i++)
        opb[i] = rnd(&s, dbl);
    const int bt = sm && cs->opb == TRNSPARSE_OPERATION_TRANSPOSE;
    const int64_t brows = bt ? k : n, bcols = bt ? n : k;
    const trnsparseOrder_t bo = sm ? cs->bo : TRNSPARSE_ORDER_COL,
                           co = sm ? cs->co : TRNSPARSE_ORDER_COL;
    const int64_t bld = sm ? (bo == TRNSPARSE_ORDER_ROW ? bcols : brows) + 2 : n;
    const int64_t cld = sm ? (co == TRNSPARSE_ORDER_ROW ? k : n) + 1 : n;
    const size_t bsz = (size_t)(bo == TRNSPARSE_ORDER_ROW ? brows * bld : bcols * bld);
    const size_t csz = (size_t)(co == TRNSPARSE_ORDER_ROW ? n * cld : k * cld);
    void *hb = calloc(bsz, es), *hc = malloc(csz * es);
    assert_true(hb && hc);
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < k; j++)
            su_put(hb, bt ? at(bo, bld, j, i) : at(bo, bld, i, j), opb[i * k + j], dbl);
    for (size_t i = 0; i < csz; i++)
        su_put(hc, i, NAN, dbl);
    void *d_b = su_dev_put(hb, bsz * es), *d_c = su_dev_put(hc, csz * es);
    const float af = (float)cs->alpha;
    const void *al = dbl ? (const void *)&cs->alpha : (const void *)&af;
    const trnsparseOperation_t opa =
        cs->trans ? TRNSPARSE_OPERATION_TRANSPOSE : TRNSPARSE_OPERATION_NON_TRANSPOSE;
    size_t bufsize = 99;
    if (sm) {
        trnsparseDnMatDescr_t mb, mc;
        assert_int_equal(trnsparseCreateDnMat(&mb, brows, bcols, bld, d_b, t, bo),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseCreateDnMat(&mc, n, k, cld, d_c, t, co),
                         TRNSPARSE_STATUS_SUCCESS);
        trnsparseSpSMDescr_t d;
        assert_int_equal(trnsparseSpSM_createDescr(&d), TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseSpSM_bufferSize(h, opa, cs->opb, al, sa.descr, mb, mc, t,
                                                  TRNSPARSE_SPSM_ALG_DEFAULT, d, &bufsize),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(bufsize, 0);
        assert_int_equal(trnsparseSpSM_analysis(h, opa, cs->opb, al, sa.descr, mb, mc, t,
                                                TRNSPARSE_SPSM_ALG_DEFAULT, d, NULL),
                         TRNSPARSE_STATUS_SUCCESS);
        const trnsparseStatus_t st = trnsparseSpSM_solve(h, opa, cs->opb, al, sa.descr, mb, mc, t,
                                                         TRNSPARSE_SPSM_ALG_DEFAULT, d);
        if (st != TRNSPARSE_STATUS_SUCCESS)
            fail_msg("spsm solve: %s", trnsciGetLastErrorMessage());
        trnsparseSpSM_destroyDescr(d);
        trnsparseDestroyDnMat(mb);
        trnsparseDestroyDnMat(mc);
    } else {
        trnsparseDnVecDescr_t vx, vy;
        assert_int_equal(trnsparseCreateDnVec(&vx, n, d_b, t), TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseCreateDnVec(&vy, n, d_c, t), TRNSPARSE_STATUS_SUCCESS);
        trnsparseSpSVDescr_t d;
        assert_int_equal(trnsparseSpSV_createDescr(&d), TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseSpSV_bufferSize(h, opa, al, sa.descr, vx, vy, t,
                                                  TRNSPARSE_SPSV_ALG_DEFAULT, d, &bufsize),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(bufsize, 0);
        assert_int_equal(trnsparseSpSV_analysis(h, opa, al, sa.descr, vx, vy, t,
                                                TRNSPARSE_SPSV_ALG_DEFAULT, d, NULL),
                         TRNSPARSE_STATUS_SUCCESS);
        const trnsparseStatus_t st =
            trnsparseSpSV_solve(h, opa, al, sa.descr, vx, vy, t, TRNSPARSE_SPSV_ALG_DEFAULT, d);
        if (st != TRNSPARSE_STATUS_SUCCESS)
            fail_msg("spsv solve: %s", trnsciGetLastErrorMessage());
        trnsparseSpSV_destroyDescr(d);
        trnsparseDestroyDnVec(vx);
        trnsparseDestroyDnVec(vy);
    }
    void *out = su_dev_get(d_c, csz * es);
    char meta[256];
    snprintf(meta, sizeof(meta), "%lld %lld %d %d %d %.17g", (long long)n, (long long)k, cs->lower,
             cs->unit, cs->trans, cs->alpha);
    su_write_file(tmp_dir, "meta.txt", meta, strlen(meta));
    su_write_file(tmp_dir, "B", opb, (size_t)(n * k) * 8);
    su_run_ref(PYTHON3, SPARSE_REF_PY, "spsv", tmp_dir);
    double *x = read_f64("X", (size_t)(n * k)), *e1 = read_f64("E1", (size_t)(n * k)),
           *e2 = read_f64("E2", (size_t)(n * k));
    size_t wb = 0;
    int64_t *w = su_read_file(tmp_dir, "W", &wb);
    assert_int_equal(wb, 8);
    const long double u = dbl ? ldexpl(1.0L, -53) : ldexpl(1.0L, -24);
    const long double g = su_gamma(dbl, (long double)w[0] + 1), twice = dbl ? 2.0L : 1.0L;
    int inside = 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < k; j++) {
            const size_t p = at(co, cld, i, j);
            char what[64];
            snprintf(what, sizeof(what), "%s C(%lld,%lld)", sm ? "spsm" : "spsv", (long long)i,
                     (long long)j);
            check_close(what, p, su_get(out, p, dbl), x[i * k + j],
                        twice * (g * e1[i * k + j] + u * e2[i * k + j]));
        }
    /* Padding of C is untouched (still NaN). */
    for (size_t p = 0; p < csz; p++) {
        const int64_t i =
            co == TRNSPARSE_ORDER_ROW ? (int64_t)(p / (size_t)cld) : (int64_t)(p % (size_t)cld);
        const int64_t j =
            co == TRNSPARSE_ORDER_ROW ? (int64_t)(p % (size_t)cld) : (int64_t)(p / (size_t)cld);
        if (i < n && j < k)
            inside++;
        else if (!isnan((double)su_get(out, p, dbl)))
            fail_msg("C's padding at %zu was written", p);
    }
    assert_int_equal(inside, n * k);
    free(x);
    free(e1);
    free(e2);
    free(w);
    free(out);
    free(opb);
    free(hb);
    free(hc);
    assert_int_equal(trnsciFree(d_b), trnsciSuccess);
    assert_int_equal(trnsciFree(d_c), trnsciSuccess);
    sp_free(&sa);
    trip_free(&a);
}

static void test_spsv(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    const trnsparseFormat_t CSR = TRNSPARSE_FORMAT_CSR, COO = TRNSPARSE_FORMAT_COO;
    const trnsparseOperation_t N = TRNSPARSE_OPERATION_NON_TRANSPOSE,
                               T = TRNSPARSE_OPERATION_TRANSPOSE;
    const trnsparseOrder_t R = TRNSPARSE_ORDER_ROW, C = TRNSPARSE_ORDER_COL;
    const spsv_case cases[] = {
        /* n, nrhs, format, dbl, idx64, base, lower, unit, trans, opB, B, C, alpha */
        {200, 0, CSR, 1, 0, 0, 1, 0, 0, N, C, C, 1.0},
        {200, 0, CSR, 0, 1, 1, 0, 0, 0, N, C, C, -2.5},
        {200, 0, CSR, 1, 0, 1, 1, 1, 1, N, C, C, 0.5},
        {200, 0, CSR, 0, 0, 0, 0, 1, 1, N, C, C, 1.0},
        {150, 0, COO, 1, 1, 0, 1, 0, 1, N, C, C, 3.0},
        {150, 0, COO, 0, 0, 1, 0, 0, 0, N, C, C, 1.0},
        {150, 0, COO, 1, 0, 0, 0, 1, 1, N, C, C, -1.0},
        {1, 0, CSR, 1, 0, 0, 1, 0, 0, N, C, C, 2.0},
        {120, 3, CSR, 1, 0, 0, 1, 0, 0, N, C, C, 1.0},
        {120, 3, CSR, 0, 1, 1, 0, 1, 1, T, R, C, 0.25},
        {120, 3, COO, 1, 0, 1, 0, 0, 1, N, R, R, -1.5},
        {120, 3, COO, 0, 1, 0, 1, 0, 1, T, C, R, 1.0},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        run_spsv(h, &cases[i], 100 + i);
    printf("    spsv/spsm: worst error %.3Lf (float), %.3Lf (double) of the bound\n", worst[1][0],
           worst[1][1]);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- SpSM split over cores ------------------------------------------------------------ */

/* A 2000 x 2000 SpSM with 64 right-hand sides on the daemon at addr (large
 * enough for two shards); C's bytes. */
static void *spsm_on(const char *addr, uint64_t min_shards, size_t *bytes) {
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    const int64_t n = 2000, k = 64;
    trip a;
    make_dominant(&a, n, 4, 1, 77);
    sp_host sa;
    sp_build(&sa, &a, TRNSPARSE_FORMAT_CSR, 0, 0, 1, 1, 1, TRNSPARSE_ORDER_COL, 0);
    sp_upload(&sa);
    set_attributes(sa.descr, 0, 0);
    double *hb = malloc((size_t)(n * k) * 8);
    assert_non_null(hb);
    uint64_t s = 5;
    for (int64_t i = 0; i < n * k; i++)
        hb[i] = su_uniform(&s);
    *bytes = (size_t)(n * k) * 8;
    void *d_b = su_dev_put(hb, *bytes), *d_c = NULL;
    assert_int_equal(trnsciMalloc(&d_c, *bytes), trnsciSuccess);
    trnsparseDnMatDescr_t mb, mc;
    assert_int_equal(trnsparseCreateDnMat(&mb, n, k, k, d_b, TRNSCI_R_64F, TRNSPARSE_ORDER_ROW),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnMat(&mc, n, k, n, d_c, TRNSCI_R_64F, TRNSPARSE_ORDER_COL),
                     TRNSPARSE_STATUS_SUCCESS);
    const double one = 1.0;
    const trnsparseOperation_t T = TRNSPARSE_OPERATION_TRANSPOSE,
                               N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
    void *out = su_spsm_shards(h, addr, T, N, &one, sa.descr, mb, mc, TRNSCI_R_64F, d_c, *bytes,
                               min_shards);
    assert_int_equal(trnsciFree(d_b), trnsciSuccess);
    assert_int_equal(trnsciFree(d_c), trnsciSuccess);
    free(hb);
    sp_free(&sa);
    trip_free(&a);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
    return out;
}

static void test_spsm_cores(void **state) {
    (void)state;
    su_same_on_cores(spsm_on, one_core.unix_addr, two_cores.unix_addr, "SpSM");
}

/* ---- bad input --------------------------------------------------------------------------- */

static void test_errors(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    /* A 3 x 3 lower CSR with an entry above the diagonal (ignored). */
    const int32_t off[4] = {0, 2, 4, 6}, col[6] = {0, 2, 0, 1, 1, 2};
    const double val[6] = {2, 100, 1, 4, 1, 8};
    void *d_off = su_dev_put(off, sizeof(off)), *d_col = su_dev_put(col, sizeof(col));
    void *d_val = su_dev_put(val, sizeof(val));
    void *d_v = NULL;
    assert_int_equal(trnsciMalloc(&d_v, 64 * 8), trnsciSuccess);
    const double b[3] = {2, 9, 2};
    assert_int_equal(trnsciMemcpy(d_v, b, sizeof(b), trnsciMemcpyHostToDevice), trnsciSuccess);
    trnsparseSpMatDescr_t a, rect, csc;
    assert_int_equal(trnsparseCreateCsr(&a, 3, 3, 6, d_off, d_col, d_val, TRNSPARSE_INDEX_32I,
                                        TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO,
                                        TRNSCI_R_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateCsr(&rect, 3, 4, 6, d_off, d_col, d_val, TRNSPARSE_INDEX_32I,
                                        TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO,
                                        TRNSCI_R_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateCsc(&csc, 3, 3, 6, d_off, d_col, d_val, TRNSPARSE_INDEX_32I,
                                        TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO,
                                        TRNSCI_R_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    trnsparseDnVecDescr_t vx, vy, v4;
    assert_int_equal(trnsparseCreateDnVec(&vx, 3, d_v, TRNSCI_R_64F), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnVec(&vy, 3, (double *)d_v + 8, TRNSCI_R_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnVec(&v4, 4, (double *)d_v + 16, TRNSCI_R_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    const double one = 1.0;
    const trnsparseOperation_t N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
    const trnsparseSpSVAlg_t alg = TRNSPARSE_SPSV_ALG_DEFAULT;
    trnsparseSpSVDescr_t d;
    assert_int_equal(trnsparseSpSV_createDescr(&d), TRNSPARSE_STATUS_SUCCESS);

    /* Attributes. */
    trnsparseFillMode_t fm = (trnsparseFillMode_t)7;
    assert_int_equal(trnsparseSpMatSetAttribute(a, TRNSPARSE_SPMAT_FILL_MODE, &fm, sizeof(fm)),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("fill mode 7");
    fm = TRNSPARSE_FILL_MODE_LOWER;
    assert_int_equal(trnsparseSpMatSetAttribute(a, TRNSPARSE_SPMAT_FILL_MODE, &fm, 1),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("dataSize 1");
    assert_int_equal(trnsparseSpMatSetAttribute(a, (trnsparseSpMatAttribute_t)5, &fm, sizeof(fm)),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("attribute 5");

    /* Solve before analysis; analysis on shapes that do not fit. */
    assert_int_equal(trnsparseSpSV_solve(h, N, &one, a, vx, vy, TRNSCI_R_64F, alg, d),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("_analysis");
    assert_int_equal(trnsparseSpSV_analysis(h, N, &one, rect, vx, vy, TRNSCI_R_64F, alg, d, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("square");
    assert_int_equal(trnsparseSpSV_analysis(h, N, &one, csc, vx, vy, TRNSCI_R_64F, alg, d, NULL),
                     TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("CSC matrices are not supported");
    assert_int_equal(trnsparseSpSV_analysis(h, N, &one, a, vx, v4, TRNSCI_R_64F, alg, d, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("sizes do not match");
    assert_int_equal(trnsparseSpSV_analysis(h, N, &one, a, vx, vy, TRNSCI_R_32F, alg, d, NULL),
                     TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("computeType");

    /* A good solve: L = [2 0 0; 1 4 0; 0 1 8], b = (2, 9, 2) -> (1, 2, 0). */
    assert_int_equal(trnsparseSpSV_analysis(h, N, &one, a, vx, vy, TRNSCI_R_64F, alg, d, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSpSV_solve(h, N, &one, a, vx, vy, TRNSCI_R_64F, alg, d),
                     TRNSPARSE_STATUS_SUCCESS);
    double *y = su_dev_get((double *)d_v + 8, 3 * 8);
    assert_true(y[0] == 1.0 && y[1] == 2.0 && y[2] == 0.0);
    free(y);
    /* Another opA than analysed. */
    assert_int_equal(trnsparseSpSV_solve(h, TRNSPARSE_OPERATION_TRANSPOSE, &one, a, vx, vy,
                                         TRNSCI_R_64F, alg, d),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("_analysis");

    /* A zero diagonal entry: no error, Inf in the result. */
    double zval[6];
    memcpy(zval, val, sizeof(val));
    zval[3] = 0.0;
    assert_int_equal(trnsciMemcpy(d_val, zval, sizeof(zval), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(trnsparseSpSV_solve(h, N, &one, a, vx, vy, TRNSCI_R_64F, alg, d),
                     TRNSPARSE_STATUS_SUCCESS);
    y = su_dev_get((double *)d_v + 8, 3 * 8);
    assert_true(y[0] == 1.0 && isinf(y[1]));
    free(y);

    /* A bad column index: the analysis fails when it runs. */
    int32_t badcol[6];
    memcpy(badcol, col, sizeof(col));
    badcol[3] = 3;
    assert_int_equal(trnsciMemcpy(d_col, badcol, sizeof(badcol), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(trnsparseSpSV_analysis(h, N, &one, a, vx, vy, TRNSCI_R_64F, alg, d, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorInvalidValue);
    su_expect_message("matA: csrColInd[3] = 3 is outside [0, 2]");

    /* Sparse vectors. */
    trnsparseSpVecDescr_t x;
    assert_int_equal(trnsparseCreateSpVec(&x, 2, 3, d_col, d_val, TRNSPARSE_INDEX_32I,
                                          TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_R_64F),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("nnz <= size");
    assert_int_equal(trnsparseCreateSpVec(&x, 3, 2, d_col, d_val, TRNSPARSE_INDEX_32I,
                                          TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_C_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    /* A complex vector with a real dense one, a compute type that is not
     * the values' type, a real vector with a complex dense one. */
    assert_int_equal(trnsparseScatter(h, x, vy), TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("vecY: its data type must be");
    double zres[2];
    void *zbuf = NULL;
    assert_int_equal(trnsciMalloc(&zbuf, 16), trnsciSuccess);
    trnsparseDnVecDescr_t vz;
    assert_int_equal(trnsparseCreateDnVec(&vz, 3, d_v, TRNSCI_C_64F), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSpVV(h, N, x, vz, zres, TRNSCI_C_32F, zbuf),
                     TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("computeType must be");
    assert_int_equal(trnsparseSpVV(h, N, x, vz, zres, TRNSCI_R_64F, zbuf),
                     TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("computeType");
    trnsparseDestroySpVec(x);
    assert_int_equal(trnsparseCreateSpVec(&x, 3, 2, d_col, d_val, TRNSPARSE_INDEX_32I,
                                          TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_R_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseScatter(h, x, vz), TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("vecY: complex types");
    trnsparseDestroyDnVec(vz);
    assert_int_equal(trnsciFree(zbuf), trnsciSuccess);
    trnsparseDestroySpVec(x);
    assert_int_equal(trnsparseCreateSpVec(&x, 4, 2, d_col, d_val, TRNSPARSE_INDEX_32I,
                                          TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_R_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseScatter(h, x, vy), TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("vecY: size 3 must be 4");
    double dot;
    assert_int_equal(trnsparseSpVV(h, N, x, v4, &dot, TRNSCI_R_64F, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("externalBuffer");
    trnsparseDestroySpVec(x);
    /* Index 4 in a vector of 4, found when the op runs (badcol[3] = 3 is fine
     * here: use base one, so 0 is below the base). */
    assert_int_equal(trnsparseCreateSpVec(&x, 4, 2, d_col, d_val, TRNSPARSE_INDEX_32I,
                                          TRNSPARSE_INDEX_BASE_ONE, TRNSCI_R_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseScatter(h, x, v4), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorInvalidValue);
    su_expect_message("vecX: indices[0] = 0 is outside [1, 4]");
    /* SpVV waits, so the same bad index is its own status. */
    void *buf = NULL;
    assert_int_equal(trnsciMalloc(&buf, 16), trnsciSuccess);
    assert_int_equal(trnsparseSpVV(h, N, x, v4, &dot, TRNSCI_R_64F, buf),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("vecX: indices[0] = 0 is outside [1, 4]");
    assert_int_equal(trnsciFree(buf), trnsciSuccess);
    trnsparseDestroySpVec(x);

    /* COO in any order, a duplicate diagonal entry (adds up) and an entry
     * above the diagonal (ignored): L = [2 0; 2 4], b = (2, 10): y = (1, 2);
     * L^T = [2 2; 0 4]: y = (-1.5, 2.5). Every value is exact. */
    {
        const int64_t ri[5] = {1, 0, 0, 1, 0}, ci[5] = {1, 1, 0, 0, 0};
        const double cv[5] = {4, 99, 1, 2, 1}, cb[2] = {2, 10};
        void *d_ri = su_dev_put(ri, sizeof(ri)), *d_ci = su_dev_put(ci, sizeof(ci));
        void *d_cv = su_dev_put(cv, sizeof(cv));
        assert_int_equal(trnsciMemcpy(d_v, cb, sizeof(cb), trnsciMemcpyHostToDevice),
                         trnsciSuccess);
        trnsparseSpMatDescr_t coo;
        assert_int_equal(trnsparseCreateCoo(&coo, 2, 2, 5, d_ri, d_ci, d_cv, TRNSPARSE_INDEX_64I,
                                            TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_R_64F),
                         TRNSPARSE_STATUS_SUCCESS);
        trnsparseDnVecDescr_t cx, cy;
        assert_int_equal(trnsparseCreateDnVec(&cx, 2, d_v, TRNSCI_R_64F), TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseCreateDnVec(&cy, 2, (double *)d_v + 8, TRNSCI_R_64F),
                         TRNSPARSE_STATUS_SUCCESS);
        const double want[2][2] = {{1.0, 2.0}, {-1.5, 2.5}};
        for (int t = 0; t < 2; t++) {
            const trnsparseOperation_t op = t ? TRNSPARSE_OPERATION_TRANSPOSE : N;
            assert_int_equal(
                trnsparseSpSV_analysis(h, op, &one, coo, cx, cy, TRNSCI_R_64F, alg, d, NULL),
                TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(trnsparseSpSV_solve(h, op, &one, coo, cx, cy, TRNSCI_R_64F, alg, d),
                             TRNSPARSE_STATUS_SUCCESS);
            double *r = su_dev_get((double *)d_v + 8, 16);
            if (r[0] != want[t][0] || r[1] != want[t][1])
                fail_msg("COO spsv (op %d): (%g, %g), want (%g, %g)", t, r[0], r[1], want[t][0],
                         want[t][1]);
            free(r);
        }
        /* INT64_MIN as a row index with base one: refused, no overflow. */
        const int64_t worst_row = INT64_MIN;
        assert_int_equal(trnsciMemcpy(d_ri, &worst_row, 8, trnsciMemcpyHostToDevice),
                         trnsciSuccess);
        trnsparseSpMatDescr_t coo1;
        assert_int_equal(trnsparseCreateCoo(&coo1, 2, 2, 5, d_ri, d_ci, d_cv, TRNSPARSE_INDEX_64I,
                                            TRNSPARSE_INDEX_BASE_ONE, TRNSCI_R_64F),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(
            trnsparseSpSV_analysis(h, N, &one, coo1, cx, cy, TRNSCI_R_64F, alg, d, NULL),
            TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorInvalidValue);
        su_expect_message("matA: cooRowInd[0] = -9223372036854775808 is outside [1, 2]");
        trnsparseDestroySpMat(coo1);
        trnsparseDestroyDnVec(cx);
        trnsparseDestroyDnVec(cy);
        trnsparseDestroySpMat(coo);
        assert_int_equal(trnsciFree(d_ri), trnsciSuccess);
        assert_int_equal(trnsciFree(d_ci), trnsciSuccess);
        assert_int_equal(trnsciFree(d_cv), trnsciSuccess);
    }

    /* The daemon still serves: a gather of the first entries. */
    assert_int_equal(trnsparseCreateSpVec(&x, 4, 2, d_col, (double *)d_v + 32, TRNSPARSE_INDEX_32I,
                                          TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_R_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseGather(h, v4, x), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    trnsparseDestroySpVec(x);

    trnsparseSpSV_destroyDescr(d);
    trnsparseDestroyDnVec(vx);
    trnsparseDestroyDnVec(vy);
    trnsparseDestroyDnVec(v4);
    trnsparseDestroySpMat(a);
    trnsparseDestroySpMat(rect);
    trnsparseDestroySpMat(csc);
    void *frees[] = {d_off, d_col, d_val, d_v};
    for (int i = 0; i < 4; i++)
        assert_int_equal(trnsciFree(frees[i]), trnsciSuccess);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

int main(void) {
    if (su_main_start(tmp_dir, sizeof(tmp_dir), "/tmp/trnsci-sparse-vec-XXXXXX", &one_core,
                      &two_cores, &local_t, &grpc_t) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        SU_ON(test_level1, local), SU_ON(test_level1, grpc), SU_ON(test_spsv, local),
        SU_ON(test_spsv, grpc),    SU_ONCE(test_spsm_cores), SU_ON(test_errors, local),
        SU_ON(test_errors, grpc),
    };
    int failed = cmocka_run_group_tests_name("sparse_vec", tests, NULL, NULL);
    return su_main_end(failed, tmp_dir) ? 1 : 0;
}
