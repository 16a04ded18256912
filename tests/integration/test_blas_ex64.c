/*
 * test_blas_ex64.c — trnblas's Level 1 *Ex routines (AxpyEx, DotEx,
 * DotcEx, Nrm2Ex, ScalEx, RotEx) and the _64 (ILP64) forms, through a real
 * trnscid.
 *
 * Each supported type combination of the *Ex routines is checked in host
 * and device pointer mode against an independent reference, naive loops in
 * long double computed here (vectors with increments 2 and -1, so the
 * element order of a negative increment is exercised; scal and nrm2, which
 * do nothing for incx <= 0, use 2):
 *  - axpy, scal, rot: exact. Data are integers in [-8, 8] and the scalars
 *    multiples of 1/4 of magnitude below 4, so every product and sum has a
 *    handful of significant bits and is exactly representable in float;
 *    the result must equal the reference bitwise.
 *  - dot, dotc: |fl(x.y) - x.y| <= gamma_n sum |x_i||y_i| for real data and
 *    2 gamma_{n+2} sum |x_i||y_i| for complex (Higham §3.1, §3.6), gamma_k =
 *    k u / (1 - k u), u = 2^-24 (float) or 2^-53 (double): n u to first
 *    order.
 *  - nrm2: gamma_{2n+2} ||x|| (the sum of 2n squares, then the root).
 * Unsupported combinations give TRNBLAS_STATUS_NOT_SUPPORTED naming the
 * types (the half-precision rows are test_blas_ex_half.c's).
 *
 * The _64 forms: one representative per signature shape (vector update,
 * scalar result, index result, Level 2, Level 3 and GEMM matrices, the Ex
 * routines, the helper copies) gives results bitwise identical to the
 * 32-bit routine on the same input, and an argument above INT_MAX (or below
 * INT_MIN) gives TRNBLAS_STATUS_NOT_SUPPORTED with a message naming it.
 */
#include <complex.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <limits.h>

#include "harness.h"
#include "trnsci/trnblas.h"
#include "typed.h"

static th_daemon daemon_under_test;

static const trnsciDataType_t dt[] = {TRNSCI_R_32F, TRNSCI_R_64F, TRNSCI_C_32F, TRNSCI_C_64F};
static const ty real_of[] = {TY_S, TY_D, TY_S, TY_D};

static long double gam(ty t, long double k) {
    const long double u = (t == TY_S || t == TY_C) ? ldexpl(1.0L, -24) : ldexpl(1.0L, -53);
    return k * u / (1.0L - k * u);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t next(void) { /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}
static long double uniform(void) { /* [-1, 1) */
    return (long double)(next() >> 11) * ldexpl(1.0L, -52) - 1.0L;
}
static long double small_int(void) { /* an integer in [-8, 8] */
    return (long double)(int)(next() % 17) - 8.0L;
}

/* A device vector of n elements at increment inc, and its upload. */
typedef struct vec {
    ty t;
    int n, inc;
    size_t total;
    void *host, *dev;
} vec;

static void vec_init(vec *v, ty t, int n, int inc, int exact) {
    v->t = t;
    v->n = n;
    v->inc = inc;
    v->total = (size_t)abs(inc) * (size_t)(n - 1) + 1;
    v->host = malloc(v->total * esize(t));
    assert_non_null(v->host);
    for (size_t i = 0; i < v->total; i++) {
        const long double re = exact ? small_int() : uniform();
        const long double im = exact ? small_int() : uniform();
        put(t, v->host, i, is_complex(t) ? re + I * im : re);
    }
    assert_int_equal(trnsciMalloc(&v->dev, v->total * esize(t)), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(v->dev, v->host, v->total * esize(t), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
}

static size_t at(const vec *v, int i) { /* storage index of BLAS element i */
    return v->inc >= 0 ? (size_t)i * (size_t)v->inc : (size_t)(v->n - 1 - i) * (size_t)-v->inc;
}

static lcplx el(const vec *v, int i) {
    return get(v->t, v->host, at(v, i));
}

/* The device vector now (after the stream's work). */
static void *vec_download(const vec *v) {
    void *r = malloc(v->total * esize(v->t));
    assert_non_null(r);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(r, v->dev, v->total * esize(v->t), trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    return r;
}

static void vec_free(vec *v) {
    assert_int_equal(trnsciFree(v->dev), trnsciSuccess);
    free(v->host);
}

/* Element i of the downloaded vector equals want[i] exactly (checked as
 * long double values: the reference is exact, see the top comment). */
static void expect_exact(const char *what, const vec *v, const void *got, const lcplx *want) {
    for (int i = 0; i < v->n; i++) {
        const lcplx g = get(v->t, got, at(v, i));
        if (g != want[i]) {
            fprintf(stderr, "%s %s [%d]: got %Lg%+Lgi want %Lg%+Lgi\n", what, ty_name[v->t], i,
                    creall(g), cimagl(g), creall(want[i]), cimagl(want[i]));
            fail();
        }
    }
}

/* A scalar argument: its host bytes, and in device pointer mode a device
 * copy. */
typedef struct scalar {
    unsigned char host[16];
    void *dev;
} scalar;

static const void *scalar_arg(scalar *s, int device, ty t, lcplx v) {
    memset(s->host, 0, sizeof(s->host));
    put(t, s->host, 0, v);
    s->dev = NULL;
    if (!device)
        return s->host;
    assert_int_equal(trnsciMalloc(&s->dev, 16), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(s->dev, s->host, 16, trnsciMemcpyHostToDevice), trnsciSuccess);
    return s->dev;
}

static void scalar_free(scalar *s) {
    if (s->dev)
        assert_int_equal(trnsciFree(s->dev), trnsciSuccess);
}

/* A result argument: host memory, or a device buffer (device pointer mode)
 * read back by result_value. */
static void *result_arg(scalar *r, int device) {
    memset(r->host, 0xa5, sizeof(r->host));
    r->dev = NULL;
    if (!device)
        return r->host;
    assert_int_equal(trnsciMalloc(&r->dev, 16), trnsciSuccess);
    return r->dev;
}

static lcplx result_value(scalar *r, ty t) {
    if (r->dev) {
        assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
        assert_int_equal(trnsciMemcpy(r->host, r->dev, 16, trnsciMemcpyDeviceToHost),
                         trnsciSuccess);
        assert_int_equal(trnsciFree(r->dev), trnsciSuccess);
        r->dev = NULL;
    }
    return get(t, r->host, 0);
}

static trnblasHandle_t handle_in(int device) {
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(
        trnblasSetPointerMode(h, device ? TRNBLAS_POINTER_MODE_DEVICE : TRNBLAS_POINTER_MODE_HOST),
        TRNBLAS_STATUS_SUCCESS);
    return h;
}

enum { N = 37 };

/* A scalar that keeps the exact tests exact: a multiple of 1/4 below 4 in
 * magnitude (complex for complex t). */
static lcplx exact_scalar(ty t) {
    const long double re = small_int() / 4.0L, im = small_int() / 4.0L;
    return is_complex(t) ? re + I * im : re;
}

/* ---- *Ex against the reference ------------------------------------------ */

static void test_axpy_ex(void **state) {
    (void)state;
    for (int device = 0; device < 2; device++)
        for (ty t = TY_S; t <= TY_Z; t++) {
            trnblasHandle_t h = handle_in(device);
            vec x, y;
            vec_init(&x, t, N, 2, 1);
            vec_init(&y, t, N, -1, 1);
            const lcplx a = exact_scalar(t);
            scalar sa;
            const void *alpha = scalar_arg(&sa, device, t, a);
            assert_int_equal(
                trnblasAxpyEx(h, N, alpha, dt[t], x.dev, dt[t], 2, y.dev, dt[t], -1, dt[t]),
                TRNBLAS_STATUS_SUCCESS);
            lcplx want[N];
            for (int i = 0; i < N; i++)
                want[i] = a * el(&x, i) + el(&y, i);
            void *got = vec_download(&y);
            expect_exact(device ? "AxpyEx (device)" : "AxpyEx", &y, got, want);
            free(got);
            scalar_free(&sa);
            vec_free(&x);
            vec_free(&y);
            assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
        }
}

static void test_scal_ex(void **state) {
    (void)state;
    /* (alpha, x): the four same-type rows and csscal's, zdscal's. */
    static const ty rows[][2] = {{TY_S, TY_S}, {TY_D, TY_D}, {TY_C, TY_C},
                                 {TY_Z, TY_Z}, {TY_S, TY_C}, {TY_D, TY_Z}};
    for (int device = 0; device < 2; device++)
        for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
            const ty ta = rows[r][0], tx = rows[r][1];
            trnblasHandle_t h = handle_in(device);
            vec x;
            vec_init(&x, tx, N, 2, 1); /* scal does nothing for incx <= 0 */
            const lcplx a = exact_scalar(ta);
            scalar sa;
            const void *alpha = scalar_arg(&sa, device, ta, a);
            assert_int_equal(trnblasScalEx(h, N, alpha, dt[ta], x.dev, dt[tx], 2, dt[tx]),
                             TRNBLAS_STATUS_SUCCESS);
            lcplx want[N];
            for (int i = 0; i < N; i++)
                want[i] = a * el(&x, i);
            void *got = vec_download(&x);
            expect_exact(device ? "ScalEx (device)" : "ScalEx", &x, got, want);
            free(got);
            scalar_free(&sa);
            vec_free(&x);
            assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
        }
}

static void test_rot_ex(void **state) {
    (void)state;
    /* (x and y, c and s): srot, drot, csrot, crot, zdrot, zrot. */
    static const ty rows[][2] = {{TY_S, TY_S}, {TY_D, TY_D}, {TY_C, TY_S},
                                 {TY_C, TY_C}, {TY_Z, TY_D}, {TY_Z, TY_Z}};
    for (int device = 0; device < 2; device++)
        for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
            const ty tx = rows[r][0], tcs = rows[r][1];
            trnblasHandle_t h = handle_in(device);
            vec x, y;
            vec_init(&x, tx, N, 2, 1);
            vec_init(&y, tx, N, -1, 1);
            /* c is real; with a complex csType its imaginary part is not
             * read, so it is given a value that would show if it were. */
            const long double cr = small_int() / 4.0L;
            const lcplx cv = is_complex(tcs) ? cr + 3.0L * I : cr;
            const lcplx sv = exact_scalar(tcs);
            scalar sc, ss;
            const void *c = scalar_arg(&sc, device, tcs, cv);
            const void *s = scalar_arg(&ss, device, tcs, sv);
            assert_int_equal(
                trnblasRotEx(h, N, x.dev, dt[tx], 2, y.dev, dt[tx], -1, c, s, dt[tcs], dt[tx]),
                TRNBLAS_STATUS_SUCCESS);
            lcplx wx[N], wy[N];
            for (int i = 0; i < N; i++) {
                wx[i] = cr * el(&x, i) + sv * el(&y, i);
                wy[i] = cr * el(&y, i) - conjl(sv) * el(&x, i);
            }
            void *gx = vec_download(&x), *gy = vec_download(&y);
            expect_exact(device ? "RotEx x (device)" : "RotEx x", &x, gx, wx);
            expect_exact(device ? "RotEx y (device)" : "RotEx y", &y, gy, wy);
            free(gx);
            free(gy);
            scalar_free(&sc);
            scalar_free(&ss);
            vec_free(&x);
            vec_free(&y);
            assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
        }
}

static void test_dot_ex(void **state) {
    (void)state;
    for (int device = 0; device < 2; device++)
        for (int conj = 0; conj < 2; conj++)
            for (ty t = TY_S; t <= TY_Z; t++) {
                trnblasHandle_t h = handle_in(device);
                vec x, y;
                vec_init(&x, t, N, 2, 0);
                vec_init(&y, t, N, -1, 0);
                scalar sr;
                void *res = result_arg(&sr, device);
                const trnblasStatus_t st =
                    conj ? trnblasDotcEx(h, N, x.dev, dt[t], 2, y.dev, dt[t], -1, res, dt[t], dt[t])
                         : trnblasDotEx(h, N, x.dev, dt[t], 2, y.dev, dt[t], -1, res, dt[t], dt[t]);
                assert_int_equal(st, TRNBLAS_STATUS_SUCCESS);
                lcplx want = 0;
                long double mag = 0;
                for (int i = 0; i < N; i++) {
                    const lcplx xi = conj ? conjl(el(&x, i)) : el(&x, i);
                    want += xi * el(&y, i);
                    mag += cabsl(xi) * cabsl(el(&y, i));
                }
                const long double bound = is_complex(t) ? 2 * gam(t, N + 2) * mag : gam(t, N) * mag;
                const lcplx got = result_value(&sr, t);
                if (!(cabsl(got - want) <= bound)) {
                    fprintf(stderr, "%s %s%s: got %Lg%+Lgi want %Lg%+Lgi bound %Lg\n",
                            conj ? "DotcEx" : "DotEx", ty_name[t], device ? " (device)" : "",
                            creall(got), cimagl(got), creall(want), cimagl(want), bound);
                    fail();
                }
                vec_free(&x);
                vec_free(&y);
                assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
            }
}

static void test_nrm2_ex(void **state) {
    (void)state;
    for (int device = 0; device < 2; device++)
        for (ty t = TY_S; t <= TY_Z; t++) {
            const ty tr = real_of[t];
            trnblasHandle_t h = handle_in(device);
            vec x;
            vec_init(&x, t, N, 2, 0);
            scalar sr;
            void *res = result_arg(&sr, device);
            assert_int_equal(trnblasNrm2Ex(h, N, x.dev, dt[t], 2, res, dt[tr], dt[tr]),
                             TRNBLAS_STATUS_SUCCESS);
            long double ss = 0;
            for (int i = 0; i < N; i++)
                ss += cabsl(el(&x, i)) * cabsl(el(&x, i));
            const long double want = sqrtl(ss), bound = gam(t, 2 * N + 2) * want;
            const long double got = creall(result_value(&sr, tr));
            if (!(fabsl(got - want) <= bound)) {
                fprintf(stderr, "Nrm2Ex %s%s: got %Lg want %Lg bound %Lg\n", ty_name[t],
                        device ? " (device)" : "", got, want, bound);
                fail();
            }
            vec_free(&x);
            assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
        }
}

/* ---- *Ex refusals --------------------------------------------------------- */

static void expect_refused(trnblasStatus_t st, const char *needle) {
    assert_int_equal(st, TRNBLAS_STATUS_NOT_SUPPORTED);
    const char *msg = trnsciGetLastErrorMessage();
    if (!strstr(msg, needle)) {
        fprintf(stderr, "message \"%s\" does not contain \"%s\"\n", msg, needle);
        fail();
    }
}

static void test_ex_refused(void **state) {
    (void)state;
    trnblasHandle_t h = handle_in(0);
    float *d;
    assert_int_equal(trnsciMalloc((void **)&d, 64), trnsciSuccess);
    const float one = 1, c = 1, s = 0;
    float r;
    const trnsciDataType_t R16F = TRNSCI_R_16F, R32F = TRNSCI_R_32F, R64F = TRNSCI_R_64F,
                           C32F = TRNSCI_C_32F, C64F = TRNSCI_C_64F;
    /* Combinations cuBLAS refuses too. */
    const char *combo = "is not a supported combination";
    expect_refused(trnblasAxpyEx(h, 4, &one, R64F, d, R32F, 1, d, R32F, 1, R32F), combo);
    expect_refused(trnblasAxpyEx(h, 4, &one, R32F, d, C32F, 1, d, C32F, 1, C32F), combo);
    expect_refused(trnblasDotEx(h, 4, d, R32F, 1, d, R32F, 1, &r, R32F, R64F), combo);
    expect_refused(trnblasDotEx(h, 4, d, C32F, 1, d, C32F, 1, &r, R32F, C32F), combo);
    expect_refused(trnblasDotcEx(h, 4, d, R32F, 1, d, R64F, 1, &r, R32F, R32F), combo);
    expect_refused(trnblasNrm2Ex(h, 4, d, C32F, 1, &r, C32F, R32F), combo);
    expect_refused(trnblasNrm2Ex(h, 4, d, R64F, 1, &r, R64F, R32F), combo);
    expect_refused(trnblasScalEx(h, 4, &one, C32F, d, R32F, 1, R32F), combo);
    expect_refused(trnblasScalEx(h, 4, &one, R32F, d, C32F, 1, R32F), combo);
    expect_refused(trnblasScalEx(h, 4, &one, R32F, d, R16F, 1, R16F), combo);
    expect_refused(trnblasRotEx(h, 4, d, R32F, 1, d, R32F, 1, &c, &s, R64F, R32F), combo);
    expect_refused(trnblasRotEx(h, 4, d, C64F, 1, d, C64F, 1, &c, &s, R32F, C64F), combo);
    expect_refused(
        trnblasAxpyEx(h, 4, &one, TRNSCI_R_8I, d, TRNSCI_R_8I, 1, d, TRNSCI_R_8I, 1, TRNSCI_R_32I),
        "TRNSCI_R_8I");
    /* What the routine a combination runs as checks is still checked. */
    assert_int_equal(trnblasAxpyEx(h, 4, NULL, R32F, d, R32F, 1, d, R32F, 1, R32F),
                     TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasNrm2Ex(h, 4, d, R32F, 1, NULL, R32F, R32F),
                     TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasDotEx(NULL, 4, d, R32F, 1, d, R32F, 1, &r, R32F, R32F),
                     TRNBLAS_STATUS_NOT_INITIALIZED);
    assert_int_equal(trnsciFree(d), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* ---- _64 forms ------------------------------------------------------------- */

enum { BUF = 8192 }; /* bytes of each buffer of the _64 comparisons */

/* Two copies of the same random data on the device. */
static void twin(size_t bytes, void **a, void **b) {
    unsigned char *host = malloc(bytes);
    assert_non_null(host);
    /* Floats in [-1, 1): read as doubles (the GEMM and Level 3 checks)
     * each pair is finite too, its high word giving a normal exponent. */
    for (size_t i = 0; i + 4 <= bytes; i += 4) {
        const float v = (float)uniform();
        memcpy(host + i, &v, 4);
    }
    assert_int_equal(trnsciMalloc(a, bytes), trnsciSuccess);
    assert_int_equal(trnsciMalloc(b, bytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(*a, host, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(*b, host, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    free(host);
}

/* The device buffers a and b (of BUF bytes) are bitwise equal. */
static void expect_same(const char *what, const void *a, const void *b) {
    const size_t bytes = BUF;
    unsigned char *ha = malloc(bytes), *hb = malloc(bytes);
    assert_non_null(ha);
    assert_non_null(hb);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(ha, a, bytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(hb, b, bytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    if (memcmp(ha, hb, bytes) != 0) {
        fprintf(stderr, "%s: _64 and 32-bit results differ\n", what);
        fail();
    }
    free(ha);
    free(hb);
}

static void free2(void *a, void *b) {
    assert_int_equal(trnsciFree(a), trnsciSuccess);
    assert_int_equal(trnsciFree(b), trnsciSuccess);
}

static void test_64_same_as_32(void **state) {
    (void)state;
    trnblasHandle_t h = handle_in(0);
    enum { M = 23, K = 17, NN = 19 };
    void *x, *x2, *y, *y2, *a, *a2;
    twin(BUF, &x, &x2);
    twin(BUF, &y, &y2);
    twin(BUF, &a, &a2);

    /* Level 1 vector update. */
    const float fa = 0.75f;
    assert_int_equal(trnblasSaxpy(h, 40, &fa, x, 3, y, -1), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSaxpy_64(h, 40, &fa, x2, 3, y2, -1), TRNBLAS_STATUS_SUCCESS);
    expect_same("Saxpy_64", y, y2);

    /* Scalar results, both pointer modes. */
    double d1 = 1, d2 = 2;
    assert_int_equal(trnblasDdot(h, 50, x, 1, y, 2, &d1), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasDdot_64(h, 50, x2, 1, y2, 2, &d2), TRNBLAS_STATUS_SUCCESS);
    assert_memory_equal(&d1, &d2, sizeof(d1));
    assert_int_equal(trnblasDznrm2(h, 60, x, 1, &d1), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasDznrm2_64(h, 60, x2, 1, &d2), TRNBLAS_STATUS_SUCCESS);
    assert_memory_equal(&d1, &d2, sizeof(d1));
    trnDoubleComplex z1, z2;
    assert_int_equal(trnblasDotcEx(h, 30, x, TRNSCI_C_64F, 2, y, TRNSCI_C_64F, -1, &z1,
                                   TRNSCI_C_64F, TRNSCI_C_64F),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasDotcEx_64(h, 30, x2, TRNSCI_C_64F, 2, y2, TRNSCI_C_64F, -1, &z2,
                                      TRNSCI_C_64F, TRNSCI_C_64F),
                     TRNBLAS_STATUS_SUCCESS);
    assert_memory_equal(&z1, &z2, sizeof(z1));

    /* Index results: host mode, then device mode into a buffer whose upper
     * bytes start non-zero. */
    for (int device = 0; device < 2; device++) {
        assert_int_equal(trnblasSetPointerMode(h, device ? TRNBLAS_POINTER_MODE_DEVICE
                                                         : TRNBLAS_POINTER_MODE_HOST),
                         TRNBLAS_STATUS_SUCCESS);
        int i32 = -5;
        int64_t i64 = -5, dev_init = -1;
        void *di32 = NULL, *di64 = NULL;
        if (device) {
            assert_int_equal(trnsciMalloc(&di32, sizeof(int)), trnsciSuccess);
            assert_int_equal(trnsciMalloc(&di64, sizeof(int64_t)), trnsciSuccess);
            assert_int_equal(
                trnsciMemcpy(di64, &dev_init, sizeof(dev_init), trnsciMemcpyHostToDevice),
                trnsciSuccess);
        }
        assert_int_equal(trnblasIcamax(h, 45, x, 1, device ? di32 : &i32), TRNBLAS_STATUS_SUCCESS);
        assert_int_equal(trnblasIcamax_64(h, 45, x2, 1, device ? di64 : &i64),
                         TRNBLAS_STATUS_SUCCESS);
        if (device) {
            assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
            assert_int_equal(trnsciMemcpy(&i32, di32, sizeof(i32), trnsciMemcpyDeviceToHost),
                             trnsciSuccess);
            assert_int_equal(trnsciMemcpy(&i64, di64, sizeof(i64), trnsciMemcpyDeviceToHost),
                             trnsciSuccess);
            free2(di32, di64);
        }
        assert_true(i32 >= 1 && i32 <= 45);
        assert_true(i64 == (int64_t)i32);
    }
    assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_HOST), TRNBLAS_STATUS_SUCCESS);

    /* Level 2: y = alpha A^T x + beta y, A M x K with lda M + 2. */
    const float fb = -0.5f;
    assert_int_equal(trnblasSgemv(h, TRNBLAS_OP_T, M, K, &fa, a, M + 2, x, 1, &fb, y, 2),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSgemv_64(h, TRNBLAS_OP_T, M, K, &fa, a2, M + 2, x2, 1, &fb, y2, 2),
                     TRNBLAS_STATUS_SUCCESS);
    expect_same("Sgemv_64", y, y2);

    /* GEMM and Level 3 matrices: C (M x NN, in y) = alpha A B + beta C, B
     * (K x NN) in x; then syrk, and GemmStridedBatchedEx over 2 batches. */
    const double da = 1.25, db = 0.5;
    assert_int_equal(
        trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, M, NN, K, &da, a, M, x, K, &db, y, M),
        TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(
        trnblasDgemm_64(h, TRNBLAS_OP_N, TRNBLAS_OP_N, M, NN, K, &da, a2, M, x2, K, &db, y2, M),
        TRNBLAS_STATUS_SUCCESS);
    expect_same("Dgemm_64", y, y2);
    assert_int_equal(
        trnblasDsyrk(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, NN, K, &da, x, NN, &db, y, NN),
        TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(
        trnblasDsyrk_64(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, NN, K, &da, x2, NN, &db, y2, NN),
        TRNBLAS_STATUS_SUCCESS);
    expect_same("Dsyrk_64", y, y2);
    const float fone = 1, fzero = 0;
    assert_int_equal(trnblasGemmStridedBatchedEx(h, TRNBLAS_OP_N, TRNBLAS_OP_T, 8, 9, 5, &fone, a,
                                                 TRNSCI_R_32F, 8, 40, x, TRNSCI_R_32F, 9, 45,
                                                 &fzero, y, TRNSCI_R_32F, 8, 72, 2,
                                                 TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasGemmStridedBatchedEx_64(h, TRNBLAS_OP_N, TRNBLAS_OP_T, 8, 9, 5, &fone,
                                                    a2, TRNSCI_R_32F, 8, 40, x2, TRNSCI_R_32F, 9,
                                                    45, &fzero, y2, TRNSCI_R_32F, 8, 72, 2,
                                                    TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT),
                     TRNBLAS_STATUS_SUCCESS);
    expect_same("GemmStridedBatchedEx_64", y, y2);

    /* Helpers: a strided copy out and back. */
    double host[20], back[20] = {0};
    for (int i = 0; i < 20; i++)
        host[i] = i - 7.5;
    assert_int_equal(trnblasSetVector_64(10, sizeof(double), host, 2, y2, 3),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasGetVector_64(10, sizeof(double), y2, 3, back, 2),
                     TRNBLAS_STATUS_SUCCESS);
    for (int i = 0; i < 20; i += 2)
        assert_true(back[i] == host[i]);

    free2(x, x2);
    free2(y, y2);
    free2(a, a2);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

static void test_64_too_big(void **state) {
    (void)state;
    trnblasHandle_t h = handle_in(0);
    void *d;
    assert_int_equal(trnsciMalloc(&d, 4096), trnsciSuccess);
    const int64_t big = (int64_t)INT_MAX + 1, low = (int64_t)INT_MIN - 1;
    const float one = 1;
    const double done = 1;
    float r = 7;
    expect_refused(trnblasSaxpy_64(h, big, &one, d, 1, d, 1), "trnblasSaxpy_64: n = 2147483648");
    expect_refused(trnblasSaxpy_64(h, 4, &one, d, low, d, 1),
                   "trnblasSaxpy_64: incx = -2147483649");
    expect_refused(trnblasSdot_64(h, 4, d, 1, d, big, &r), "trnblasSdot_64: incy = 2147483648");
    assert_true(r == 7); /* nothing was written */
    int64_t idx = 9;
    expect_refused(trnblasIsamax_64(h, big, d, 1, &idx), "trnblasIsamax_64: n = 2147483648");
    assert_true(idx == 9);
    expect_refused(trnblasDotEx_64(h, 4, d, TRNSCI_R_32F, 1, d, TRNSCI_R_32F, big, &r, TRNSCI_R_32F,
                                   TRNSCI_R_32F),
                   "trnblasDotEx_64: incy = 2147483648");
    expect_refused(trnblasDgemv_64(h, TRNBLAS_OP_N, 4, 4, &done, d, big, d, 1, &done, d, 1),
                   "trnblasDgemv_64: lda = 2147483648");
    expect_refused(
        trnblasDgemm_64(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, big, &done, d, 2, d, 2, &done, d, 2),
        "trnblasDgemm_64: k = 2147483648");
    expect_refused(trnblasSgemmStridedBatched_64(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, d, 2,
                                                 4, d, 2, 4, &one, d, 2, 4, big),
                   "trnblasSgemmStridedBatched_64: batchCount = 2147483648");
    expect_refused(trnblasSetMatrix_64(2, 2, big, d, 2, d, 2),
                   "trnblasSetMatrix_64: elemSize = 2147483648");
    /* The first argument that does not fit is named. */
    expect_refused(trnblasDtrsm_64(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N,
                                   TRNBLAS_DIAG_UNIT, 2, 2, &done, d, big, d, low),
                   "trnblasDtrsm_64: lda = 2147483648");
    /* INT_MAX itself fits and reaches the 32-bit routine (which then
     * rejects the extent as test_blas1 shows). */
    assert_int_equal(trnblasScopy_64(h, INT_MAX, d, INT_MAX, d, 1), TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnsciFree(d), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

static int connect_unix(void **state) {
    (void)state;
    return trnsciInit(daemon_under_test.unix_addr) == trnsciSuccess ? 0 : -1;
}

static int disconnect(void **state) {
    (void)state;
    trnsciDeviceReset();
    return th_wait_daemon_idle(daemon_under_test.unix_addr, 5000);
}

int main(void) {
    if (th_daemon_start(&daemon_under_test, NULL) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_axpy_ex),       cmocka_unit_test(test_scal_ex),
        cmocka_unit_test(test_rot_ex),        cmocka_unit_test(test_dot_ex),
        cmocka_unit_test(test_nrm2_ex),       cmocka_unit_test(test_ex_refused),
        cmocka_unit_test(test_64_same_as_32), cmocka_unit_test(test_64_too_big),
    };
    int failed = cmocka_run_group_tests_name("blas Ex and _64", tests, connect_unix, disconnect);
    const int rc = th_daemon_stop(&daemon_under_test);
    if (rc != 0) {
        fprintf(stderr, "trnscid exited with %d (expected a clean 0)\n", rc);
        failed++;
    }
    return failed ? 1 : 0;
}
