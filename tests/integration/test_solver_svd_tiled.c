/*
 * test_solver_svd_tiled.c — gesvd with singular vectors at sizes that run
 * as a task graph (ops/solver_svd_tile.h: n >= 512), through real trnscid
 * daemons of 1 and 2 cores (how a step's blocks are shared among 3 shards
 * is tests/unit/test_solver_eig_tile.c's), in S, D, C and Z, jobs 'S', 'A'
 * and one side 'N', square and tall.
 *
 * Checks:
 *  - S, U and VT are bitwise the same on 1 and 2 cores (the blocks depend
 *    only on the shape; docs/numerics.md "Tiled gesvd");
 *  - against LAPACK's own gesvd (LAPACKE, jobs N) on the same input:
 *    |s_i - s_i(LAPACK)| <= 2 T m eps ||A||_F (both backward stable: each
 *    within T m eps ||A||_F of the exact singular values, Weyl's theorem
 *    for singular values);
 *  - with both sides: ||A - U S VT||_F / (m ||A||_F eps) <= T; always
 *    ||U^H U - I||_F / (m eps) <= T and ||VT VT^H - I||_F / (n eps) <= T
 *    (all of U's columns with 'A'), T = 50 (the threshold of LAPACK's own
 *    SVD tests, svd.in), eps the type's machine epsilon;
 *  - one side 'N': the other side is bitwise the one the two-sided call
 *    gives (each block gets the same rotations whatever else is computed);
 *  - A scaled by 1e-170 and 1e+170 (D): dgesvd's scaling and its undoing,
 *    the values against LAPACK's relatively;
 *  - n = 511 (not tiled) meets the same bounds;
 *  - a NaN in A: info = -5, and S, U, VT untouched.
 */
#include <cblas.h>
#include <complex.h>
#include <float.h>
#include <lapacke.h>
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
#include "solver_test.h"

#define NDAEMONS 2
static th_daemon daemons[NDAEMONS]; /* 1 and 2 cores */

#define THRESH 50.0L
#define SENTINEL 7.0

static int single_ty(ty t) {
    return t == TY_S || t == TY_C;
}

static size_t rsize(ty t) {
    return single_ty(t) ? sizeof(float) : sizeof(double);
}

/* One gesvd problem and what came back. */
typedef struct svd_case {
    ty t;
    int m, n;
    char jobu, jobvt;
    double scale; /* A's entries times this */
    int lda, ldu, ldvt, ucols, vtrows;
} svd_case;

typedef struct svd_out {
    void *s, *u, *vt;
    int info;
} svd_out;

static svd_case make_case(ty t, int m, int n, char jobu, char jobvt, double scale) {
    svd_case c = {.t = t, .m = m, .n = n, .jobu = jobu, .jobvt = jobvt, .scale = scale};
    c.lda = m + 3;
    c.ldu = m + 1;
    c.ldvt = n + 2;
    c.ucols = jobu == 'A' ? m : jobu == 'S' ? n : 0;
    c.vtrows = jobvt == 'N' ? 0 : n;
    return c;
}

/* Uniform entries in [-1, 1) (both parts for complex types) times scale;
 * the rows past m hold the sentinel. */
static void *make_input(const svd_case *c) {
    void *h = malloc((size_t)c->lda * c->n * esize(c->t));
    assert_non_null(h);
    st_rng = 0x5eedu + (uint64_t)(c->m * 7 + c->n);
    for (int j = 0; j < c->n; j++)
        for (int i = 0; i < c->lda; i++)
            put(c->t, h, (size_t)j * c->lda + i,
                i < c->m ? st_random(c->t) * c->scale : (lcplx)SENTINEL);
    return h;
}

/* A device buffer of rows x cols (leading dimension ld) filled with the
 * sentinel, or NULL when cols is 0. */
static void *sentinel_buffer(ty t, int ld, int cols, void **host) {
    *host = NULL;
    if (cols == 0)
        return NULL;
    const size_t count = (size_t)ld * cols;
    *host = malloc(count * esize(t));
    assert_non_null(*host);
    for (size_t k = 0; k < count; k++)
        put(t, *host, k, SENTINEL);
    void *dev = NULL;
    assert_int_equal(trnsciMalloc(&dev, count * esize(t)), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dev, *host, count * esize(t), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    return dev;
}

static void *download(const void *dev, size_t bytes) {
    if (!dev)
        return NULL;
    void *h = malloc(bytes);
    assert_non_null(h);
    assert_int_equal(trnsciMemcpy(h, dev, bytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    return h;
}

/* gesvd of h on the daemon at addr. */
static svd_out gesvd_on(const char *addr, const svd_case *c, const void *h) {
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    trnsolverDnHandle_t handle;
    assert_int_equal(trnsolverDnCreate(&handle), TRNSOLVER_STATUS_SUCCESS);
    const ty t = c->t;
    const size_t abytes = (size_t)c->lda * c->n * esize(t), sbytes = (size_t)c->n * rsize(t);
    void *da = NULL, *ds = NULL, *hu, *hv, *hs;
    assert_int_equal(trnsciMalloc(&da, abytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(da, h, abytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    void *du = sentinel_buffer(t, c->ldu, c->ucols, &hu);
    void *dv = sentinel_buffer(t, c->ldvt, c->vtrows ? c->n : 0, &hv);
    free(hu);
    free(hv);
    assert_int_equal(trnsciMalloc(&ds, sbytes), trnsciSuccess);
    hs = malloc(sbytes);
    assert_non_null(hs);
    memset(hs, 0x7f, sbytes);
    assert_int_equal(trnsciMemcpy(ds, hs, sbytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    free(hs);
    int *info = st_info_alloc(1);
    const trnsolverStatus_t st =
        ST_CALL(t, gesvd, handle, (signed char)c->jobu, (signed char)c->jobvt, c->m, c->n, da,
                c->lda, ds, du, c->ldu, dv, c->ldvt, NULL, 0, NULL, info);
    assert_int_equal(st, TRNSOLVER_STATUS_SUCCESS);
    if (trnsciDeviceSynchronize() != trnsciSuccess)
        fail_msg("gesvd m=%d n=%d: %s", c->m, c->n, trnsciGetLastErrorMessage());
    svd_out o = {.info = st_read_int(info)};
    o.s = download(ds, sbytes);
    o.u = download(du, (size_t)c->ldu * c->ucols * esize(t));
    o.vt = download(dv, (size_t)c->ldvt * (c->vtrows ? c->n : 0) * esize(t));
    assert_int_equal(trnsciFree(da), trnsciSuccess);
    assert_int_equal(trnsciFree(ds), trnsciSuccess);
    if (du)
        assert_int_equal(trnsciFree(du), trnsciSuccess);
    if (dv)
        assert_int_equal(trnsciFree(dv), trnsciSuccess);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(handle), TRNSOLVER_STATUS_SUCCESS);
    trnsciDeviceReset();
    return o;
}

static void out_free(svd_out *o) {
    free(o->s);
    free(o->u);
    free(o->vt);
}

/* LAPACK's singular values of h (jobs N). */
static void lapack_s(const svd_case *c, const void *h, void *s) {
    const size_t bytes = (size_t)c->lda * c->n * esize(c->t);
    void *a = malloc(bytes), *sup = malloc((size_t)c->n * rsize(c->t));
    assert_non_null(a);
    assert_non_null(sup);
    memcpy(a, h, bytes);
    const int L = LAPACK_COL_MAJOR, m = c->m, n = c->n, lda = c->lda;
    lapack_int rc;
    switch (c->t) {
    case TY_S: rc = LAPACKE_sgesvd(L, 'N', 'N', m, n, a, lda, s, NULL, 1, NULL, 1, sup); break;
    case TY_D: rc = LAPACKE_dgesvd(L, 'N', 'N', m, n, a, lda, s, NULL, 1, NULL, 1, sup); break;
    case TY_C: rc = LAPACKE_cgesvd(L, 'N', 'N', m, n, a, lda, s, NULL, 1, NULL, 1, sup); break;
    default: rc = LAPACKE_zgesvd(L, 'N', 'N', m, n, a, lda, s, NULL, 1, NULL, 1, sup); break;
    }
    assert_int_equal(rc, 0);
    free(a);
    free(sup);
}

static long double s_at(ty t, const void *s, int i) {
    return single_ty(t) ? (long double)((const float *)s)[i] : (long double)((const double *)s)[i];
}

/* rows x cols of h (leading dimension ld) as double complex, divided by div. */
static double complex *widen(ty t, const void *h, int ld, int rows, int cols, double div) {
    double complex *w = malloc((size_t)rows * cols * sizeof(*w));
    assert_non_null(w);
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++)
            w[(size_t)j * rows + i] = (double complex)get(t, h, (size_t)j * ld + i) / div;
    return w;
}

static long double fro(const double complex *x, size_t count) {
    long double f = 0;
    for (size_t k = 0; k < count; k++)
        f += creal(x[k] * conj(x[k]));
    return sqrtl(f);
}

/* ||X^H X - I||_F for X rows x cols (columns orthonormal). */
static long double orth_cols(const double complex *x, int rows, int cols) {
    double complex *g = malloc((size_t)cols * cols * sizeof(*g));
    assert_non_null(g);
    const double complex one = 1, zero = 0;
    cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, cols, cols, rows, &one, x, rows, x,
                rows, &zero, g, cols);
    long double f = 0;
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < cols; i++) {
            const double complex e = g[(size_t)j * cols + i] - (i == j);
            f += creal(e * conj(e));
        }
    free(g);
    return sqrtl(f);
}

/* The bounds at the top against LAPACK's values sref. A is divided by its
 * largest magnitude first (no underflow or overflow of squares). */
static void check_result(const svd_case *c, const void *h, const svd_out *o, const void *sref,
                         const char *what) {
    const ty t = c->t;
    const int m = c->m, n = c->n;
    const long double eps = single_ty(t) ? FLT_EPSILON : DBL_EPSILON;
    double amax = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            amax = fmax(amax, (double)cabsl(get(t, h, (size_t)j * c->lda + i)));
    double complex *a = widen(t, h, c->lda, m, n, amax);
    const long double an = fro(a, (size_t)m * n);
    for (int i = 0; i < n; i++) {
        if (i > 0 && !(s_at(t, o->s, i - 1) >= s_at(t, o->s, i)))
            fail_msg("%s: S not descending at %d", what, i);
        const long double e = fabsl(s_at(t, o->s, i) - s_at(t, sref, i)) / amax;
        st_note("gesvd tiled |S - S_LAPACK| / bound", e / (2 * THRESH * m * eps * an), 1);
        if (!(e <= 2 * THRESH * m * eps * an))
            fail_msg("%s: S[%d] = %.17Lg, LAPACK's %.17Lg", what, i, s_at(t, o->s, i),
                     s_at(t, sref, i));
    }
    double complex *u = o->u ? widen(t, o->u, c->ldu, m, c->ucols, 1.0) : NULL;
    double complex *v = NULL; /* V = VT^H, n x n */
    if (o->vt) {
        double complex *vt = widen(t, o->vt, c->ldvt, n, n, 1.0);
        v = malloc((size_t)n * n * sizeof(*v));
        assert_non_null(v);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                v[(size_t)j * n + i] = conj(vt[(size_t)i * n + j]);
        free(vt);
    }
    if (u) {
        const long double orth = orth_cols(u, m, c->ucols) / (m * eps);
        st_note("gesvd tiled orthogonality of U", orth, THRESH);
        if (!(orth <= THRESH))
            fail_msg("%s: ||U^H U - I|| / (m eps) = %.3Lg", what, orth);
    }
    if (v) {
        const long double orth = orth_cols(v, n, n) / (n * eps);
        st_note("gesvd tiled orthogonality of VT", orth, THRESH);
        if (!(orth <= THRESH))
            fail_msg("%s: ||VT VT^H - I|| / (n eps) = %.3Lg", what, orth);
    }
    if (u && v) { /* A - U_n S V^H */
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                v[(size_t)j * n + i] *= (double)(s_at(t, o->s, j) / amax); /* V S */
        const double complex one = 1, minus = -1;
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, m, n, n, &minus, u, m, v, n, &one,
                    a, m);
        const long double res = fro(a, (size_t)m * n) / (m * an * eps);
        st_note("gesvd tiled residual", res, THRESH);
        if (!(res <= THRESH))
            fail_msg("%s: ||A - U S VT|| / (m ||A|| eps) = %.3Lg", what, res);
    }
    free(a);
    free(u);
    free(v);
}

/* The case on 1 and 2 cores: bitwise alike; checked against LAPACK. The
 * result on 1 core is returned in *keep when keep is not NULL. */
static void run_case(const svd_case *c, svd_out *keep) {
    char what[96];
    snprintf(what, sizeof(what), "%s gesvd m=%d n=%d jobu=%c jobvt=%c scale=%g", ty_name[c->t],
             c->m, c->n, c->jobu, c->jobvt, c->scale);
    void *h = make_input(c);
    void *sref = malloc((size_t)c->n * rsize(c->t));
    assert_non_null(sref);
    lapack_s(c, h, sref);
    svd_out o[NDAEMONS];
    const size_t ub = (size_t)c->ldu * c->ucols * esize(c->t);
    const size_t vb = (size_t)c->ldvt * (c->vtrows ? c->n : 0) * esize(c->t);
    for (int d = 0; d < NDAEMONS; d++) {
        o[d] = gesvd_on(daemons[d].unix_addr, c, h);
        if (o[d].info != 0)
            fail_msg("%s on %d cores: info %d", what, d + 1, o[d].info);
        if (d > 0 &&
            (memcmp(o[d].s, o[0].s, (size_t)c->n * rsize(c->t)) != 0 ||
             (ub && memcmp(o[d].u, o[0].u, ub) != 0) || (vb && memcmp(o[d].vt, o[0].vt, vb) != 0)))
            fail_msg("%s: the result on %d cores differs from 1 core's", what, d + 1);
    }
    check_result(c, h, &o[0], sref, what);
    for (int d = 1; d < NDAEMONS; d++)
        out_free(&o[d]);
    if (keep)
        *keep = o[0];
    else
        out_free(&o[0]);
    free(sref);
    free(h);
}

static void test_tiled_gesvd(void **state) {
    (void)state;
    static const struct {
        ty t;
        int m, n;
        char ju, jv;
    } cases[] = {
        {TY_D, 700, 600, 'S', 'S'}, {TY_S, 600, 600, 'A', 'A'},  {TY_C, 650, 520, 'A', 'S'},
        {TY_Z, 600, 600, 'S', 'A'}, {TY_D, 1100, 530, 'A', 'A'}, {TY_D, 600, 511, 'S', 'S'},
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        const svd_case c =
            make_case(cases[k].t, cases[k].m, cases[k].n, cases[k].ju, cases[k].jv, 1);
        run_case(&c, NULL);
    }
}

/* One side 'N': the other side bitwise as in the two-sided call. */
static void test_one_side(void **state) {
    (void)state;
    svd_out both, only_u, only_vt;
    const svd_case cb = make_case(TY_Z, 640, 560, 'S', 'S', 1);
    const svd_case cu = make_case(TY_Z, 640, 560, 'S', 'N', 1);
    const svd_case cv = make_case(TY_Z, 640, 560, 'N', 'S', 1);
    run_case(&cb, &both);
    run_case(&cu, &only_u);
    run_case(&cv, &only_vt);
    assert_memory_equal(only_u.s, both.s, (size_t)560 * sizeof(double));
    assert_memory_equal(only_vt.s, both.s, (size_t)560 * sizeof(double));
    assert_memory_equal(only_u.u, both.u, (size_t)cb.ldu * cb.ucols * esize(TY_Z));
    assert_memory_equal(only_vt.vt, both.vt, (size_t)cb.ldvt * cb.n * esize(TY_Z));
    out_free(&both);
    out_free(&only_u);
    out_free(&only_vt);
}

static void test_scaled(void **state) {
    (void)state;
    const svd_case tiny = make_case(TY_D, 560, 540, 'S', 'S', 1e-170);
    const svd_case huge = make_case(TY_D, 560, 540, 'S', 'S', 1e+170);
    run_case(&tiny, NULL);
    run_case(&huge, NULL);
}

static void test_nonfinite(void **state) {
    (void)state;
    const svd_case c = make_case(TY_D, 600, 520, 'A', 'S', 1);
    void *h = make_input(&c);
    put(TY_D, h, (size_t)300 * c.lda + 450, NAN);
    svd_out o = gesvd_on(daemons[1].unix_addr, &c, h);
    assert_int_equal(o.info, -5);
    for (size_t k = 0; k < (size_t)c.ldu * c.ucols; k++)
        if (((double *)o.u)[k] != SENTINEL)
            fail_msg("U written at %zu after a refused input", k);
    for (size_t k = 0; k < (size_t)c.ldvt * c.n; k++)
        if (((double *)o.vt)[k] != SENTINEL)
            fail_msg("VT written at %zu after a refused input", k);
    unsigned char untouched[sizeof(double)];
    memset(untouched, 0x7f, sizeof(untouched));
    for (int i = 0; i < c.n; i++)
        assert_memory_equal((char *)o.s + (size_t)i * sizeof(double), untouched, sizeof(double));
    out_free(&o);
    free(h);
}

int main(void) {
    /* The in-process reference on one OpenBLAS thread: under AddressSanitizer
     * this process ended at random inside LAPACKE_zgesvd with its OpenBLAS
     * thread pool running (status 255, no message; about one run in five). */
    openblas_set_num_threads(1);
    if (th_daemons_start(daemons, NDAEMONS, NULL) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiled_gesvd),
        cmocka_unit_test(test_one_side),
        cmocka_unit_test(test_scaled),
        cmocka_unit_test(test_nonfinite),
    };
    int failed = cmocka_run_group_tests_name("tiled gesvd", tests, NULL, NULL);
    failed += th_daemons_stop_checked(daemons, NDAEMONS, "trnscid");
    st_report("solver_svd_tiled");
    return failed ? 1 : 0;
}
