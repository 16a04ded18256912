/*
 * test_sparse_banded.c — trnsparse's banded solves (cuSPARSE's legacy
 * <t>gtsv2, gtsv2_nopivot, gtsv2StridedBatch, gtsvInterleavedBatch,
 * gpsvInterleavedBatch and their _bufferSizeExt) through a real daemon,
 * over the local transport and gRPC over TCP, against scipy's
 * solve_banded (sparse_banded_ref.py under Debian's python3):
 *
 *  - Every routine in S, D, C and Z: random systems whose out-of-band
 *    entries (dl[0], du[m-1], ds[0..1], dw[m-2..]) hold garbage that must
 *    not be read; B at a leading dimension and the strided batch at a
 *    stride with padding that must come back unchanged. The routines that
 *    do not pivot (gtsv2_nopivot, the strided batch, interleaved algo 0)
 *    get row diagonally dominant matrices; the pivoting ones general
 *    matrices with a small diagonal, so that rows are swapped.
 *  - Tolerance: banded Gaussian elimination (with partial pivoting, or
 *    without on a diagonally dominant matrix) is backward stable,
 *    (A + dA) x^ = b with ||dA|| <= gamma_{3kl+2} rho ||A|| (Higham, Thm
 *    9.3/9.14 for a band of kl + ku + 1 entries a row, ku <= 2kl after
 *    fill), with growth rho <= 2^(3kl-1) with pivoting (Bohte's band bound,
 *    ku = kl) and rho <= 2 without on a diagonally dominant matrix. Hence
 *    ||x^ - x||_inf <= 2 gamma_{3kl+2} rho kappa_inf(A) ||x||_inf to first
 *    order; the test allows 4x that (complex products add a small factor),
 *    and kappa_inf is computed by the script from the dense inverse. The
 *    float64 reference has an error of the same form in double, so double
 *    and complex double results are held to twice the bound.
 *  - Splits: an interleaved batch of 2000 systems runs as >= 2 shards on a
 *    2-core daemon and is bitwise equal to the 1-core run.
 *  - Bad input, each with cuSPARSE's status and a message: m < 3 for the
 *    gtsv2 family, ldb < m, batchStride < m, an unknown algo (gtsv 3,
 *    gpsv 1), x overlapping a diagonal, a host pointer, a NULL handle or
 *    bufferSizeInBytes; _bufferSizeExt gives the solve's verdict and 0
 *    bytes. A singular matrix gives non-finite values, no error, and the
 *    daemon keeps serving.
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

static th_daemon one_core, two_cores;
static char tmp_dir[256]; /* files for sparse_banded_ref.py */

static su_transport local_t = {"local", NULL}, grpc_t = {"grpc", NULL};

enum { T_S, T_D, T_C, T_Z };
enum { R_GTSV2, R_NOPIVOT, R_STRIDED, R_GTSV_IL, R_GPSV_IL };

static const char *const type_names[] = {"S", "D", "C", "Z"};
static const char *const routine_names[] = {"gtsv2", "gtsv2_nopivot", "gtsv2StridedBatch",
                                            "gtsvInterleavedBatch", "gpsvInterleavedBatch"};

static size_t type_size(int t) {
    return t == T_S ? 4 : t == T_D || t == T_C ? 8 : 16;
}

static int is_dbl(int t) {
    return t == T_D || t == T_Z;
}

static int is_cplx(int t) {
    return t == T_C || t == T_Z;
}

static void put(void *a, size_t i, double complex v, int t) {
    switch (t) {
    case T_S: ((float *)a)[i] = (float)creal(v); break;
    case T_D: ((double *)a)[i] = creal(v); break;
    case T_C:
        ((float *)a)[2 * i] = (float)creal(v);
        ((float *)a)[2 * i + 1] = (float)cimag(v);
        break;
    default:
        ((double *)a)[2 * i] = creal(v);
        ((double *)a)[2 * i + 1] = cimag(v);
        break;
    }
}

static double complex get(const void *a, size_t i, int t) {
    switch (t) {
    case T_S: return ((const float *)a)[i];
    case T_D: return ((const double *)a)[i];
    case T_C: return CMPLX(((const float *)a)[2 * i], ((const float *)a)[2 * i + 1]);
    default: return CMPLX(((const double *)a)[2 * i], ((const double *)a)[2 * i + 1]);
    }
}

/* A value of the type (rounded to float once for S and C). */
static double complex rnd(uint64_t *s, int t) {
    double re = su_uniform(s), im = is_cplx(t) ? su_uniform(s) : 0.0;
    if (!is_dbl(t)) {
        re = (double)(float)re;
        im = (double)(float)im;
    }
    return CMPLX(re, im);
}

static double abs1(double complex z) {
    return fabs(creal(z)) + fabs(cimag(z));
}

/* The worst error seen as a fraction of its bound, per type. */
static double worst[4], worst_eta[4];

typedef struct bcase {
    int type, routine, algo;
    int m, n, batch, pad; /* n: gtsv2's right-hand sides; pad: ldb - m or stride - m */
} bcase;

/* The layout of case c: element i of system k (column j of gtsv2's B)
 * at i * es + k * ss (+ j * ld); len elements per array. */
typedef struct layout {
    int64_t es, ss, ld, len;
    int nsys; /* systems (gtsv2: one) */
    int kl;
} layout;

static layout layout_of(const bcase *c) {
    layout l = {0};
    l.kl = c->routine == R_GPSV_IL ? 2 : 1;
    switch (c->routine) {
    case R_GTSV2:
    case R_NOPIVOT:
        l.es = 1;
        l.ss = 0;
        l.ld = c->m + c->pad;
        l.nsys = 1;
        l.len = l.ld * c->n;
        break;
    case R_STRIDED:
        l.es = 1;
        l.ss = c->m + c->pad;
        l.ld = 0;
        l.nsys = c->batch;
        l.len = l.ss * c->batch;
        break;
    default:
        l.es = c->batch;
        l.ss = 1;
        l.ld = 0;
        l.nsys = c->batch;
        l.len = (int64_t)c->m * c->batch;
        break;
    }
    return l;
}

static int pivots(const bcase *c) {
    return c->routine == R_GTSV2 || c->routine == R_GPSV_IL ||
           (c->routine == R_GTSV_IL && c->algo != 0);
}

/* Calls the routine of case c on device arrays (diags: ds, dl, d, du, dw). */
static trnsparseStatus_t call(trnsparseHandle_t h, const bcase *c, void *const dg[5], void *x,
                              const layout *l) {
    const int m = c->m, ld = (int)l->ld, st = (int)l->ss, b = c->batch, al = c->algo;
    void *ds = dg[0], *dl = dg[1], *d = dg[2], *du = dg[3], *dw = dg[4];
    void *buf = NULL; /* 0 bytes: no buffer */
#define CALLS(P, T)                                                                                \
    switch (c->routine) {                                                                          \
    case R_GTSV2: return trnsparse##P##gtsv2(h, m, c->n, dl, d, du, x, ld, buf);                   \
    case R_NOPIVOT: return trnsparse##P##gtsv2_nopivot(h, m, c->n, dl, d, du, x, ld, buf);         \
    case R_STRIDED: return trnsparse##P##gtsv2StridedBatch(h, m, dl, d, du, x, b, st, buf);        \
    case R_GTSV_IL: return trnsparse##P##gtsvInterleavedBatch(h, al, m, dl, d, du, x, b, buf);     \
    default: return trnsparse##P##gpsvInterleavedBatch(h, al, m, ds, dl, d, du, dw, x, b, buf);    \
    }
    switch (c->type) {
    case T_S: CALLS(S, float)
    case T_D: CALLS(D, double)
    case T_C: CALLS(C, trnComplex)
    default: CALLS(Z, trnDoubleComplex)
    }
#undef CALLS
}

/* The _bufferSizeExt of case c. */
static trnsparseStatus_t size_of(trnsparseHandle_t h, const bcase *c, void *const dg[5], void *x,
                                 const layout *l, size_t *bytes) {
    const int m = c->m, ld = (int)l->ld, st = (int)l->ss, b = c->batch, al = c->algo;
    void *ds = dg[0], *dl = dg[1], *d = dg[2], *du = dg[3], *dw = dg[4];
#define SIZES(P)                                                                                   \
    switch (c->routine) {                                                                          \
    case R_GTSV2: return trnsparse##P##gtsv2_bufferSizeExt(h, m, c->n, dl, d, du, x, ld, bytes);   \
    case R_NOPIVOT:                                                                                \
        return trnsparse##P##gtsv2_nopivot_bufferSizeExt(h, m, c->n, dl, d, du, x, ld, bytes);     \
    case R_STRIDED:                                                                                \
        return trnsparse##P##gtsv2StridedBatch_bufferSizeExt(h, m, dl, d, du, x, b, st, bytes);    \
    case R_GTSV_IL:                                                                                \
        return trnsparse##P##gtsvInterleavedBatch_bufferSizeExt(h, al, m, dl, d, du, x, b, bytes); \
    default:                                                                                       \
        return trnsparse##P##gpsvInterleavedBatch_bufferSizeExt(h, al, m, ds, dl, d, du, dw, x, b, \
                                                                bytes);                            \
    }
    switch (c->type) {
    case T_S: SIZES(S)
    case T_D: SIZES(D)
    case T_C: SIZES(C)
    default: SIZES(Z)
    }
#undef SIZES
}

static const double complex GARBAGE = 7.0; /* out-of-band entries and padding */

/* Runs case c and checks it against the reference. */
static void run_case(trnsparseHandle_t h, const bcase *c, uint64_t seed) {
    const layout l = layout_of(c);
    const int t = c->type, m = c->m, kl = l.kl, w = 2 * kl + 1;
    const size_t es = type_size(t), len = (size_t)l.len;
    /* The reference's systems: gtsv2's one matrix once per right-hand side. */
    const int nref = c->routine == R_GTSV2 || c->routine == R_NOPIVOT ? c->n : l.nsys;
    double complex *dg = calloc((size_t)nref * (size_t)w * (size_t)m, sizeof(double complex));
    double complex *rhs = calloc((size_t)nref * (size_t)m, sizeof(double complex));
    void *hd[5], *hx = malloc(len * es);
    assert_non_null(dg);
    assert_non_null(rhs);
    assert_non_null(hx);
    for (int r = 0; r < 5; r++) {
        hd[r] = malloc(len * es);
        assert_non_null(hd[r]);
        for (size_t i = 0; i < len; i++)
            put(hd[r], i, GARBAGE, t);
    }
    for (size_t i = 0; i < len; i++)
        put(hx, i, GARBAGE, t);
    uint64_t s = seed;
    /* Host arrays hd[r] hold the diagonal at offset r - 2 (ds, dl, d, du, dw). */
    for (int k = 0; k < l.nsys; k++) {
        for (int i = 0; i < m; i++) {
            double complex row[5] = {0};
            double off = 0;
            for (int r = 2 - kl; r <= 2 + kl; r++) {
                if (r == 2)
                    continue;
                const int j = i + r - 2;
                if (j < 0 || j >= m)
                    continue; /* out of band: left as garbage */
                row[r] = rnd(&s, t);
                off += abs1(row[r]);
            }
            if (pivots(c)) {
                /* Tiny (rounded to the type): without the row swaps the
                 * elimination's growth is ~1e4 and the backward error
                 * check below fails. */
                row[2] = 1e-4 * rnd(&s, t);
                if (!is_dbl(t))
                    row[2] = CMPLX((float)creal(row[2]), (float)cimag(row[2]));
            } else {
                /* Row dominant: |d| >= 1 + sum |off| (sign and phase random). */
                const double complex u = rnd(&s, t);
                const double mag = 1.0 + off + 0.5 * fabs(creal(u));
                row[2] = creal(u) < 0 ? -mag : mag;
                if (is_cplx(t))
                    row[2] *= CMPLX(0.6, 0.8);
                if (!is_dbl(t))
                    row[2] = CMPLX((float)creal(row[2]), (float)cimag(row[2]));
            }
            const size_t e = (size_t)(i * l.es + k * l.ss);
            for (int r = 2 - kl; r <= 2 + kl; r++) {
                const int j = i + r - 2;
                if (j < 0 || j >= m)
                    continue;
                put(hd[r], e, row[r], t);
            }
            /* The reference's copy (per right-hand side for gtsv2). */
            const int reps = nref / l.nsys;
            for (int q = 0; q < reps; q++)
                for (int r = 2 - kl; r <= 2 + kl; r++)
                    dg[((size_t)(k + q) * (size_t)w + (size_t)(r - 2 + kl)) * (size_t)m +
                       (size_t)i] = row[r];
        }
    }
    for (int q = 0; q < nref; q++)
        for (int i = 0; i < m; i++) {
            const double complex v = rnd(&s, t);
            const size_t e =
                l.nsys == 1 && nref > 1 ? (size_t)(i + q * l.ld) : (size_t)(i * l.es + q * l.ss);
            put(hx, e, v, t);
            rhs[(size_t)q * (size_t)m + (size_t)i] = v;
        }
    char meta[128];
    snprintf(meta, sizeof(meta), "%d %d %d", m, nref, kl);
    su_write_file(tmp_dir, "meta.txt", meta, strlen(meta));
    su_write_file(tmp_dir, "diag", dg,
                  (size_t)nref * (size_t)w * (size_t)m * sizeof(double complex));
    su_write_file(tmp_dir, "b", rhs, (size_t)nref * (size_t)m * sizeof(double complex));
    su_run_ref(PYTHON3, BANDED_REF_PY, "solve", tmp_dir);
    size_t bytes = 0;
    double complex *ref = su_read_file(tmp_dir, "x", &bytes);
    assert_int_equal(bytes, (size_t)nref * (size_t)m * sizeof(double complex));
    double *kappa = su_read_file(tmp_dir, "kappa", &bytes);
    assert_int_equal(bytes, (size_t)nref * 8);

    void *dd[5];
    for (int r = 0; r < 5; r++)
        dd[r] = su_dev_put(hd[r], len * es);
    void *dx = su_dev_put(hx, len * es);
    void *const args[5] = {dd[0], dd[1], dd[2], dd[3], dd[4]};
    size_t bsize = 99;
    assert_int_equal(size_of(h, c, args, dx, &l, &bsize), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(bsize, 0);
    if (call(h, c, args, dx, &l) != TRNSPARSE_STATUS_SUCCESS)
        fail_msg("%s%s: %s", type_names[t], routine_names[c->routine], trnsciGetLastErrorMessage());
    void *out = su_dev_get(dx, len * es);
    /* The diagonals are not written. */
    for (int r = 0; r < 5; r++) {
        void *back = su_dev_get(dd[r], len * es);
        if (memcmp(back, hd[r], len * es) != 0)
            fail_msg("%s%s: diagonal %d was written", type_names[t], routine_names[c->routine], r);
        free(back);
    }
    /* The bound of the file comment. */
    const double u = is_dbl(t) ? ldexp(1.0, -53) : ldexp(1.0, -24);
    const double rho = pivots(c) ? ldexp(1.0, 3 * kl - 1) : 2.0;
    const double g = (3 * kl + 2) * u / (1.0 - (3 * kl + 2) * u);
    const double twice = is_dbl(t) ? 2.0 : 1.0;
    int *seen = calloc(len, sizeof(int));
    assert_non_null(seen);
    for (int q = 0; q < nref; q++) {
        double xmax = 0;
        for (int i = 0; i < m; i++)
            xmax = fmax(xmax, cabs(ref[(size_t)q * (size_t)m + (size_t)i]));
        const double bound = twice * 4.0 * 2.0 * g * rho * kappa[q] * xmax;
        for (int i = 0; i < m; i++) {
            const size_t e =
                l.nsys == 1 && nref > 1 ? (size_t)(i + q * l.ld) : (size_t)(i * l.es + q * l.ss);
            seen[e] = 1;
            const double complex got = get(out, e, t),
                                 want = ref[(size_t)q * (size_t)m + (size_t)i];
            const double err = cabs(got - want);
            if (bound > 0 && err / bound > worst[t])
                worst[t] = err / bound;
            if (!(err <= bound))
                fail_msg("%s%s (algo %d) system %d x[%d]: (%.9g, %.9g), reference (%.17g, %.17g), "
                         "error %.3g > bound %.3g (kappa %.3g)",
                         type_names[t], routine_names[c->routine], c->algo, q, i, creal(got),
                         cimag(got), creal(want), cimag(want), err, bound, kappa[q]);
        }
    }
    /* Backward error (Rigal-Gaches, Higham Thm 7.1), independent of the
     * reference and sensitive to growth: eta = ||b - A x^||_inf /
     * (||A||_inf ||x^||_inf + ||b||_inf) <= (kl + 1) rho gamma_{3kl+2}
     * (||L^||U^|| <= (kl + 1) rho ||A|| for a band LU), allowed 4x for
     * complex arithmetic and the residual's own rounding (long double). */
    for (int q = 0; q < nref; q++) {
        long double rmax = 0, anorm = 0, xn = 0, bn = 0;
        for (int i = 0; i < m; i++) {
            long double complex r = rhs[(size_t)q * (size_t)m + (size_t)i];
            long double arow = 0;
            for (int rr = 0; rr < w; rr++) {
                const int j = i + rr - kl;
                if (j < 0 || j >= m)
                    continue;
                const double complex a =
                    dg[((size_t)q * (size_t)w + (size_t)rr) * (size_t)m + (size_t)i];
                const size_t e = l.nsys == 1 && nref > 1 ? (size_t)(j + q * l.ld)
                                                         : (size_t)(j * l.es + q * l.ss);
                r -= (long double complex)a * (long double complex)get(out, e, t);
                arow += cabsl((long double complex)a);
            }
            const size_t e =
                l.nsys == 1 && nref > 1 ? (size_t)(i + q * l.ld) : (size_t)(i * l.es + q * l.ss);
            rmax = fmaxl(rmax, cabsl(r));
            anorm = fmaxl(anorm, arow);
            xn = fmaxl(xn, cabsl((long double complex)get(out, e, t)));
            bn = fmaxl(bn, cabsl((long double complex)rhs[(size_t)q * (size_t)m + (size_t)i]));
        }
        const long double eta = rmax / (anorm * xn + bn), eb = 4.0L * (kl + 1) * rho * g;
        if (eta / eb > worst_eta[t])
            worst_eta[t] = (double)(eta / eb);
        if (!(eta <= eb))
            fail_msg("%s%s (algo %d) system %d: backward error %.3Lg > bound %.3Lg", type_names[t],
                     routine_names[c->routine], c->algo, q, eta, eb);
    }
    /* Padding comes back unchanged. */
    for (size_t i = 0; i < len; i++)
        if (!seen[i] && get(out, i, t) != GARBAGE)
            fail_msg("%s%s: padding element %zu was written", type_names[t],
                     routine_names[c->routine], i);
    free(seen);
    free(out);
    for (int r = 0; r < 5; r++) {
        trnsciFree(dd[r]);
        free(hd[r]);
    }
    trnsciFree(dx);
    free(hx);
    free(ref);
    free(kappa);
    free(dg);
    free(rhs);
}

static void test_solves(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    uint64_t seed = 101;
    for (int t = T_S; t <= T_Z; t++) {
        const bcase cases[] = {
            {t, R_GTSV2, 0, 60, 3, 1, 5},   {t, R_GTSV2, 0, 3, 1, 1, 0},
            {t, R_NOPIVOT, 0, 60, 3, 1, 2}, {t, R_STRIDED, 0, 40, 1, 5, 3},
            {t, R_STRIDED, 0, 3, 1, 2, 0},  {t, R_GTSV_IL, 0, 30, 1, 7, 0},
            {t, R_GTSV_IL, 1, 30, 1, 7, 0}, {t, R_GTSV_IL, 2, 30, 1, 7, 0},
            {t, R_GTSV_IL, 1, 1, 1, 3, 0},  {t, R_GPSV_IL, 0, 30, 1, 7, 0},
            {t, R_GPSV_IL, 0, 4, 1, 2, 0},  {t, R_GPSV_IL, 0, 2, 1, 3, 0},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
            run_case(h, &cases[i], seed++);
    }
    printf("    worst error / bound: S %.3g, D %.3g, C %.3g, Z %.3g\n", worst[0], worst[1],
           worst[2], worst[3]);
    printf("    worst backward error / bound: S %.3g, D %.3g, C %.3g, Z %.3g\n", worst_eta[0],
           worst_eta[1], worst_eta[2], worst_eta[3]);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- 1 core vs 2 cores ------------------------------------------------------------------- */

/* A Z interleaved batch (algo 1) of 2000 systems of 200 on the daemon at
 * addr: the solution's bytes. */
static void *batch_on(const char *addr, size_t *bytes, uint64_t *shards) {
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    const int m = 200, batch = 2000;
    const size_t n = (size_t)m * batch, es = 16;
    void *host = malloc(n * es);
    assert_non_null(host);
    void *d[4];
    uint64_t s = 7;
    for (int r = 0; r < 4; r++) {
        for (size_t i = 0; i < n; i++)
            put(host, i, rnd(&s, T_Z) + (r == 1 ? 0.2 : 0.0), T_Z);
        d[r] = su_dev_put(host, n * es);
    }
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    const uint64_t before = su_shards_run(addr);
    assert_int_equal(trnsparseZgtsvInterleavedBatch(h, 1, m, d[0], d[1], d[2], d[3], batch, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    *shards = su_shards_run(addr) - before;
    void *out = su_dev_get(d[3], n * es);
    for (int r = 0; r < 4; r++)
        trnsciFree(d[r]);
    free(host);
    *bytes = n * es;
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
    return out;
}

static void test_cores(void **state) {
    (void)state;
    size_t b1, b2;
    uint64_t s1, s2;
    void *one = batch_on(one_core.unix_addr, &b1, &s1);
    void *two = batch_on(two_cores.unix_addr, &b2, &s2);
    if (s2 < 2)
        fail_msg("gtsvInterleavedBatch ran as %llu shard(s) on 2 cores", (unsigned long long)s2);
    assert_int_equal(b1, b2);
    if (memcmp(one, two, b1) != 0)
        fail_msg("gtsvInterleavedBatch: 2 cores differ from 1 core");
    free(one);
    free(two);
}

/* ---- bad input --------------------------------------------------------------------------- */

static void test_errors(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    double *p = NULL;
    assert_int_equal(trnsciMalloc((void **)&p, 64 * 8), trnsciSuccess);
    double *dl = p, *d = p + 8, *du = p + 16, *x = p + 24;
    const double ones[32] = {0, 1, 1, 1, 1, 1, 1, 1, 4, 4, 4, 4, 4, 4, 4, 4,
                             1, 1, 1, 1, 1, 1, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8};
    assert_int_equal(trnsciMemcpy(p, ones, sizeof(ones), trnsciMemcpyHostToDevice), trnsciSuccess);
    size_t bs = 0;
    assert_int_equal(trnsparseDgtsv2(h, 2, 1, dl, d, du, x, 2, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("m=2 must be >= 3");
    assert_int_equal(trnsparseDgtsv2_bufferSizeExt(h, 2, 1, dl, d, du, x, 2, &bs),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("m=2 must be >= 3");
    assert_int_equal(trnsparseDgtsv2_bufferSizeExt(h, 8, 1, dl, d, du, x, 8, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("bufferSizeInBytes is NULL");
    assert_int_equal(trnsparseDgtsv2_nopivot(h, 8, 1, dl, d, du, x, 7, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("ldb");
    assert_int_equal(trnsparseDgtsv2StridedBatch(h, 8, dl, d, du, x, 2, 7, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("batchStride=7 must be >= m=8");
    assert_int_equal(trnsparseDgtsvInterleavedBatch(h, 3, 8, dl, d, du, x, 1, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("algo=3");
    assert_int_equal(trnsparseDgpsvInterleavedBatch(h, 1, 8, dl, dl, d, du, du, x, 1, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("algo=1");
    /* B overlapping the main diagonal. */
    assert_int_equal(trnsparseDgtsv2(h, 8, 1, dl, d, du, d + 4, 8, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("B and d overlap");
    /* A batch running past the allocation. */
    assert_int_equal(trnsparseDgtsv2StridedBatch(h, 8, dl, d, du, x, 8, 8, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    /* Host memory. */
    double host[8] = {0};
    assert_int_equal(trnsparseDgtsv2(h, 8, 1, dl, host, du, x, 8, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("d");
    assert_int_equal(trnsparseDgtsv2(NULL, 8, 1, dl, d, du, x, 8, NULL),
                     TRNSPARSE_STATUS_NOT_INITIALIZED);
    /* Empty work is fine and touches nothing. */
    assert_int_equal(trnsparseDgtsv2(h, 8, 0, dl, d, du, x, 8, NULL), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseDgtsvInterleavedBatch(h, 0, 8, dl, d, du, x, 0, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    /* A singular matrix (zero diagonal, no pivoting): non-finite, no error. */
    assert_int_equal(trnsciMemset(d, 0, 8 * 8), trnsciSuccess);
    assert_int_equal(trnsparseDgtsv2_nopivot(h, 8, 1, dl, d, du, x, 8, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    double back[8];
    assert_int_equal(trnsciMemcpy(back, x, sizeof(back), trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_false(isfinite(back[0]) && isfinite(back[7]));
    /* The daemon still serves: a 3 x 3 system [4 1 0; 1 4 1; 0 1 4] x = (5 6 5)^T, x = 1. */
    const double sys[12] = {0, 1, 1, 4, 4, 4, 1, 1, 0, 5, 6, 5};
    assert_int_equal(trnsciMemcpy(p, sys, sizeof(sys), trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsparseDgtsv2(h, 3, 1, p, p + 3, p + 6, p + 9, 3, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciMemcpy(back, p + 9, 3 * 8, trnsciMemcpyDeviceToHost), trnsciSuccess);
    for (int i = 0; i < 3; i++)
        assert_true(fabs(back[i] - 1.0) <= 8 * ldexp(1.0, -53));
    trnsciFree(p);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

int main(void) {
    snprintf(tmp_dir, sizeof(tmp_dir), "/tmp/trnsci-sparse-banded-XXXXXX");
    if (!mkdtemp(tmp_dir)) {
        perror("mkdtemp");
        return 1;
    }
    if (su_start_daemons(&one_core, &two_cores) != 0)
        return 1;
    local_t.addr = two_cores.unix_addr;
    grpc_t.addr = two_cores.tcp_addr;
    const struct CMUnitTest tests[] = {
        SU_ON(test_solves, local), SU_ON(test_solves, grpc), SU_ONCE(test_cores),
        SU_ON(test_errors, local), SU_ON(test_errors, grpc),
    };
    int failed = cmocka_run_group_tests_name("sparse_banded", tests, NULL, NULL);
    failed += th_daemon_stop_checked(&one_core, "trnscid --cores 1");
    failed += th_daemon_stop_checked(&two_cores, "trnscid --cores 2");
    th_remove_dir(tmp_dir);
    return failed ? 1 : 0;
}
