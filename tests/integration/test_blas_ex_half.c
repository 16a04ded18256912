/*
 * test_blas_ex_half.c — the half-precision rows of trnblas's Level 1 Ex
 * routines (AxpyEx, ScalEx, DotEx, DotcEx, Nrm2Ex, RotEx with R_16F or
 * R_16BF data and R_32F execution) through a real trnscid, over the local
 * transport and gRPC over TCP, in host and device pointer mode, with
 * increments 1, 2, -1 and -3 and n from 1 to 1000 (scal and nrm2, which do
 * nothing for incx <= 0, leave x alone there; nrm2 runs with |incx|).
 *
 * Reference: numpy (Debian's /usr/bin/python3) on the stored bits, widened
 * by numpy itself (float16 directly, bfloat16 as the top half of a
 * float32), so nothing of the code under test enters it.
 *
 * Bounds (u = 2^-24, the FP32 unit roundoff; u_s = 2^-11 for half and 2^-8
 * for bfloat16, the storage type's; a_s = 2^-25 for half and 2^-134 for
 * bfloat16, half its smallest subnormal):
 *  - axpy, scal, rot: numpy's float32 value r32 of the same expression
 *    (alpha x + y; alpha x; c x + s y and c y - s x), whose FP32 error is at
 *    most 2u M, M the sum of the terms' magnitudes; the daemon rounds its
 *    FP32 value once to the storage type, so |got - r32| <= u_s |r32| + a_s
 *    + 2u M (1 + u_s): got is r32 rounded to nearest, allowing for an FP32
 *    evaluation that fuses a multiply-add.
 *  - dot: numpy's float64 sum s of the exact products; an FP32 sum of n
 *    products is within gamma_n M of it (M = sum |x_i y_i|, Higham §3.1)
 *    and the final rounding adds u_s |s| + a_s: |got - s| <= 1.01 n u M (1
 *    + u_s) + u_s |s| + a_s.
 *  - nrm2: numpy's float64 norm v; the scaling by a power of two is exact,
 *    the FP32 sum of squares is within gamma_{n+1} of its value, the root
 *    halves that and adds u: |got - v| <= (1.01 (n + 3) u + u_s) v (1 + u)
 *    + a_s.
 * Plus: n = 0 and incx <= 0 results (+0), bfloat16 norms whose squares
 * overflow or underflow FP32, NaN and infinity in nrm2, and bad arguments
 * (misaligned or out-of-bounds vectors, NULL scalars and results:
 * TRNBLAS_STATUS_INVALID_VALUE; combinations outside cuBLAS's tables:
 * TRNBLAS_STATUS_NOT_SUPPORTED).
 */
#define _GNU_SOURCE /* pipe2 */
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
#include "numpy_coproc.h"
#include "trnsci/trn_fp16.h"
#include "trnsci/trnblas.h"
#include "trnsci/trnsci.h"

static th_daemon daemon_under_test;
static char work_dir[64];

/* One request per line: "op type n incx incy alpha c s xfile yfile out".
 * x and y are the stored vectors (|inc| (n - 1) + 1 elements of type, raw
 * bits); the values are taken in BLAS order (from the far end for a
 * negative increment). Writes float64 values and answers "ok":
 *   axpy, scal: n values r32 then n magnitudes M;
 *   rot: r32 of x then of y, then their M (4n values);
 *   dot: the sum of products and M; nrm2: the norm. */
static const char *const numpy_script =
    "import numpy as np, sys\n"
    "def load(path, t, n, inc):\n"
    "    raw = np.fromfile(path, dtype=np.uint16)\n"
    "    if t == 'f16': v = raw.view(np.float16).astype(np.float32)\n"
    "    else: v = (raw.astype(np.uint32) << 16).view(np.float32)\n"
    "    v = v[::abs(inc)][:n]\n"
    "    return v[::-1] if inc < 0 else v\n"
    "while True:\n"
    "    line = sys.stdin.readline()\n"
    "    if not line: break\n"
    "    op, t, n, incx, incy, al, c, s, px, py, out = line.split()\n"
    "    n, incx, incy = int(n), int(incx), int(incy)\n"
    "    al, c, s = np.float32(al), np.float32(c), np.float32(s)\n"
    "    x = load(px, t, n, incx)\n"
    "    d = lambda v: np.asarray(v, dtype=np.float64)\n"
    "    if op == 'scal':\n"
    "        r = [d(al * x), d(np.abs(al * x))]\n"
    "    else:\n"
    "        y = load(py, t, n, incy)\n"
    "        if op == 'axpy': r = [d(al * x + y), d(np.abs(al * x)) + d(np.abs(y))]\n"
    "        elif op == 'rot':\n"
    "            r = [d(c * x + s * y), d(c * y - s * x),\n"
    "                 d(np.abs(c * x)) + d(np.abs(s * y)), d(np.abs(c * y)) + d(np.abs(s * x))]\n"
    "        elif op == 'dot':\n"
    "            p = d(x) * d(y)\n"
    "            r = [d([p.sum(), np.abs(p).sum()])]\n"
    "        else:\n"
    "            r = [d([np.sqrt((d(x) ** 2).sum())])]\n"
    "    np.concatenate(r).tofile(out)\n"
    "    sys.stdout.write('ok\\n')\n"
    "    sys.stdout.flush()\n";

static FILE *numpy_in, *numpy_out;
static pid_t numpy_pid;

/* ---- 16-bit values ---------------------------------------------------------------- */

static double widen(trnsciDataType_t t, uint16_t bits) {
    if (t == TRNSCI_R_16F) {
        const trnsciHalf h = {bits};
        return trnsciHalfToFloat(h);
    }
    const trnsciBfloat16 b = {bits};
    return trnsciBfloat16ToFloat(b);
}

static uint16_t narrow(trnsciDataType_t t, float v) {
    return t == TRNSCI_R_16F ? trnsciFloatToHalf(v).x : trnsciFloatToBfloat16(v).x;
}

static double type_u(trnsciDataType_t t) {
    return t == TRNSCI_R_16F ? 0x1p-11 : 0x1p-8;
}
static double type_abs(trnsciDataType_t t) {
    return t == TRNSCI_R_16F ? 0x1p-25 : 0x1p-134;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static double rnd(void) { /* uniform in [-1, 1) */
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng_state >> 11) * 0x1p-52 - 1.0;
}

static void *dev_upload(const void *host, size_t bytes) {
    void *d = NULL;
    assert_int_equal(trnsciMalloc(&d, bytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(d, host, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    return d;
}

static void write_file(const char *path, const void *p, size_t bytes) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, bytes, f), bytes);
    fclose(f);
}

/* Asks numpy; returns a malloc'd array of `count` doubles. */
static double *reference(const char *op, trnsciDataType_t t, int n, int incx, int incy, float alpha,
                         float c, float s, const uint16_t *x, size_t xs, const uint16_t *y,
                         size_t ys, size_t count) {
    char px[128], py[128], out[128];
    snprintf(px, sizeof(px), "%s/x.bin", work_dir);
    snprintf(py, sizeof(py), "%s/y.bin", work_dir);
    snprintf(out, sizeof(out), "%s/out.bin", work_dir);
    write_file(px, x, 2 * xs);
    write_file(py, y ? (const void *)y : (const void *)x, 2 * (y ? ys : xs));
    if (!numpy_in)
        numpy_coproc_start(work_dir, numpy_script, &numpy_in, &numpy_out, &numpy_pid);
    fprintf(numpy_in, "%s %s %d %d %d %.9g %.9g %.9g %s %s %s\n", op,
            t == TRNSCI_R_16F ? "f16" : "bf16", n, incx, incy, (double)alpha, (double)c, (double)s,
            px, py, out);
    fflush(numpy_in);
    char reply[16];
    if (!fgets(reply, sizeof(reply), numpy_out) || strcmp(reply, "ok\n") != 0)
        fail_msg("the numpy reference process failed");
    double *r = malloc(count * sizeof(double));
    assert_non_null(r);
    FILE *f = fopen(out, "rb");
    assert_non_null(f);
    assert_int_equal(fread(r, sizeof(double), count, f), count);
    fclose(f);
    return r;
}

/* Element k of the BLAS sequence of a vector of n with increment inc. */
static size_t at(int n, int inc, int k) {
    return inc < 0 ? (size_t)(n - 1 - k) * (size_t)(-inc) : (size_t)k * (size_t)inc;
}

static size_t stored(int n, int inc) {
    return (size_t)abs(inc) * (size_t)(n - 1) + 1;
}

/* got against r32 with the element-wise bound of the file's comment. */
static void check_elementwise(const char *what, trnsciDataType_t t, int k, double got, double r32,
                              double m) {
    const double us = type_u(t);
    const double bound = us * fabs(r32) + type_abs(t) + 2.0 * 0x1p-24 * m * (1.0 + us);
    if (!(fabs(got - r32) <= bound))
        fail_msg("%s (%s) element %d: got %.9g, numpy float32 %.9g, bound %.3g", what,
                 t == TRNSCI_R_16F ? "R_16F" : "R_16BF", k, got, r32, bound);
}

/* A handle in the given pointer mode. */
static trnblasHandle_t handle_in(int device) {
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(
        trnblasSetPointerMode(h, device ? TRNBLAS_POINTER_MODE_DEVICE : TRNBLAS_POINTER_MODE_HOST),
        TRNBLAS_STATUS_SUCCESS);
    return h;
}

/* Scalar argument p (bytes) as the pointer mode wants it: itself, or a
 * device copy (freed by the caller through *dev). */
static const void *scalar_arg(int device, const void *p, size_t bytes, void **dev) {
    *dev = device ? dev_upload(p, bytes) : NULL;
    return device ? *dev : p;
}

/* One case of every routine on random data: type t, n elements, increments
 * incx and incy, the pointer mode. */
static void run_case(trnsciDataType_t t, int n, int incx, int incy, int device) {
    trnblasHandle_t h = handle_in(device);
    const size_t xs = stored(n, incx), ys = stored(n, incy);
    uint16_t *x = malloc(2 * xs), *y = malloc(2 * ys), *got = malloc(2 * (xs > ys ? xs : ys));
    assert_non_null(x);
    assert_non_null(y);
    assert_non_null(got);
    for (size_t i = 0; i < xs; i++)
        x[i] = narrow(t, (float)(4.0 * rnd()));
    for (size_t i = 0; i < ys; i++)
        y[i] = narrow(t, (float)(4.0 * rnd()));
    const float alpha = (float)(1.5 * rnd());
    const uint16_t cb = narrow(t, 0.8f), sb = narrow(t, -0.6f);
    const float c = (float)widen(t, cb), s = (float)widen(t, sb);
    void *dx, *dy, *da, *dc, *ds;

    /* axpy */
    dx = dev_upload(x, 2 * xs);
    dy = dev_upload(y, 2 * ys);
    const void *a = scalar_arg(device, &alpha, sizeof(alpha), &da);
    assert_int_equal(trnblasAxpyEx(h, n, a, TRNSCI_R_32F, dx, t, incx, dy, t, incy, TRNSCI_R_32F),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMemcpy(got, dy, 2 * ys, trnsciMemcpyDeviceToHost), trnsciSuccess);
    double *r = reference("axpy", t, n, incx, incy, alpha, 0, 0, x, xs, y, ys, 2 * (size_t)n);
    for (int k = 0; k < n; k++)
        check_elementwise("AxpyEx", t, k, widen(t, got[at(n, incy, k)]), r[k], r[n + k]);
    free(r);

    /* scal */
    assert_int_equal(trnblasScalEx(h, n, a, TRNSCI_R_32F, dx, t, incx, TRNSCI_R_32F),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMemcpy(got, dx, 2 * xs, trnsciMemcpyDeviceToHost), trnsciSuccess);
    if (incx < 0) { /* BLAS's scal does nothing for incx <= 0 */
        assert_memory_equal(got, x, 2 * xs);
    } else {
        r = reference("scal", t, n, incx, incy, alpha, 0, 0, x, xs, NULL, 0, 2 * (size_t)n);
        for (int k = 0; k < n; k++)
            check_elementwise("ScalEx", t, k, widen(t, got[at(n, incx, k)]), r[k], r[n + k]);
        free(r);
    }
    if (da)
        assert_int_equal(trnsciFree(da), trnsciSuccess);

    /* rot, on fresh copies */
    assert_int_equal(trnsciMemcpy(dx, x, 2 * xs, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dy, y, 2 * ys, trnsciMemcpyHostToDevice), trnsciSuccess);
    const void *cp = scalar_arg(device, &cb, 2, &dc), *sp = scalar_arg(device, &sb, 2, &ds);
    assert_int_equal(trnblasRotEx(h, n, dx, t, incx, dy, t, incy, cp, sp, t, TRNSCI_R_32F),
                     TRNBLAS_STATUS_SUCCESS);
    r = reference("rot", t, n, incx, incy, 0, c, s, x, xs, y, ys, 4 * (size_t)n);
    assert_int_equal(trnsciMemcpy(got, dx, 2 * xs, trnsciMemcpyDeviceToHost), trnsciSuccess);
    for (int k = 0; k < n; k++)
        check_elementwise("RotEx x", t, k, widen(t, got[at(n, incx, k)]), r[k], r[2 * n + k]);
    assert_int_equal(trnsciMemcpy(got, dy, 2 * ys, trnsciMemcpyDeviceToHost), trnsciSuccess);
    for (int k = 0; k < n; k++)
        check_elementwise("RotEx y", t, k, widen(t, got[at(n, incy, k)]), r[n + k], r[3 * n + k]);
    free(r);
    if (dc) {
        assert_int_equal(trnsciFree(dc), trnsciSuccess);
        assert_int_equal(trnsciFree(ds), trnsciSuccess);
    }

    /* dot (and dotc, the same on real data), nrm2: results in host memory
     * or in device memory by the pointer mode */
    assert_int_equal(trnsciMemcpy(dx, x, 2 * xs, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dy, y, 2 * ys, trnsciMemcpyHostToDevice), trnsciSuccess);
    void *dres = NULL;
    assert_int_equal(trnsciMalloc(&dres, 8), trnsciSuccess);
    uint16_t res[3] = {0x1234, 0x1234, 0x1234};
    r = reference("dot", t, n, incx, incy, 0, 0, 0, x, xs, y, ys, 2);
    const double us = type_u(t);
    const double dot_bound = 1.01 * n * 0x1p-24 * r[1] * (1.0 + us) + us * fabs(r[0]) + type_abs(t);
    for (int conj = 0; conj < 2; conj++) {
        void *out = device ? dres : (void *)&res[conj];
        const trnblasStatus_t st =
            conj ? trnblasDotcEx(h, n, dx, t, incx, dy, t, incy, out, t, TRNSCI_R_32F)
                 : trnblasDotEx(h, n, dx, t, incx, dy, t, incy, out, t, TRNSCI_R_32F);
        assert_int_equal(st, TRNBLAS_STATUS_SUCCESS);
        if (device)
            assert_int_equal(trnsciMemcpy(&res[conj], dres, 2, trnsciMemcpyDeviceToHost),
                             trnsciSuccess);
        const double g = widen(t, res[conj]);
        if (!(fabs(g - r[0]) <= dot_bound))
            fail_msg("%s n=%d incx=%d incy=%d: got %.9g, numpy %.9g, bound %.3g",
                     conj ? "DotcEx" : "DotEx", n, incx, incy, g, r[0], dot_bound);
    }
    assert_int_equal(res[0], res[1]);
    free(r);
    const int nincx = incx < 0 ? -incx : incx; /* nrm2 does nothing for incx <= 0 */
    r = reference("nrm2", t, n, nincx, 1, 0, 0, 0, x, stored(n, nincx), NULL, 0, 1);
    void *out = device ? dres : (void *)&res[2];
    assert_int_equal(trnblasNrm2Ex(h, n, dx, t, nincx, out, t, TRNSCI_R_32F),
                     TRNBLAS_STATUS_SUCCESS);
    if (device)
        assert_int_equal(trnsciMemcpy(&res[2], dres, 2, trnsciMemcpyDeviceToHost), trnsciSuccess);
    const double nb = (1.01 * (n + 3) * 0x1p-24 + us) * r[0] * (1.0 + 0x1p-24) + type_abs(t);
    if (!(fabs(widen(t, res[2]) - r[0]) <= nb))
        fail_msg("Nrm2Ex n=%d incx=%d: got %.9g, numpy %.9g, bound %.3g", n, nincx,
                 widen(t, res[2]), r[0], nb);
    free(r);

    assert_int_equal(trnsciFree(dres), trnsciSuccess);
    assert_int_equal(trnsciFree(dx), trnsciSuccess);
    assert_int_equal(trnsciFree(dy), trnsciSuccess);
    free(x);
    free(y);
    free(got);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

static void test_random(void **state) {
    (void)state;
    static const int ns[] = {1, 7, 100, 1000};
    static const int incs[][2] = {{1, 1}, {2, -1}, {-3, 2}};
    static const trnsciDataType_t types[] = {TRNSCI_R_16F, TRNSCI_R_16BF};
    for (size_t ti = 0; ti < 2; ti++)
        for (size_t ni = 0; ni < sizeof(ns) / sizeof(ns[0]); ni++)
            for (size_t ii = 0; ii < sizeof(incs) / sizeof(incs[0]); ii++)
                for (int device = 0; device < 2; device++)
                    run_case(types[ti], ns[ni], incs[ii][0], incs[ii][1], device);
}

/* Norm of 16-bit values vals[0..count) (host pointer mode), as a double. */
static double norm_of(trnblasHandle_t h, trnsciDataType_t t, const float *vals, int count) {
    uint16_t x[8], res = 0x1234;
    for (int i = 0; i < count; i++)
        x[i] = narrow(t, vals[i]);
    void *dx = dev_upload(x, 2 * (size_t)count);
    assert_int_equal(trnblasNrm2Ex(h, count, dx, t, 1, &res, t, TRNSCI_R_32F),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciFree(dx), trnsciSuccess);
    return widen(t, res);
}

/* Edges: empty vectors, scaling in nrm2, NaN and infinity. */
static void test_edges(void **state) {
    (void)state;
    trnblasHandle_t h = handle_in(0);
    void *d = NULL;
    assert_int_equal(trnsciMalloc(&d, 64), trnsciSuccess);
    uint16_t res = 0x1234;
    /* n = 0 and incx <= 0 give +0 (all-zero bits). */
    assert_int_equal(trnblasDotEx(h, 0, d, TRNSCI_R_16F, 1, d, TRNSCI_R_16F, 1, &res, TRNSCI_R_16F,
                                  TRNSCI_R_32F),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(res, 0);
    res = 0x1234;
    assert_int_equal(trnblasNrm2Ex(h, 4, d, TRNSCI_R_16BF, 0, &res, TRNSCI_R_16BF, TRNSCI_R_32F),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(res, 0);
    /* bfloat16 values whose squares overflow (3e30, 4e30) or underflow
     * (3e-30, 4e-30) FP32: the norm is 5e30 / 5e-30 within the bound. */
    const float big[2] = {3e30f, 4e30f}, tiny[2] = {3e-30f, 4e-30f};
    const double bb = widen(TRNSCI_R_16BF, narrow(TRNSCI_R_16BF, 3e30f)),
                 bc = widen(TRNSCI_R_16BF, narrow(TRNSCI_R_16BF, 4e30f));
    const double want_big = sqrt(bb * bb + bc * bc);
    const double got_big = norm_of(h, TRNSCI_R_16BF, big, 2);
    assert_true(fabs(got_big - want_big) <= (5.1 * 0x1p-24 + 0x1p-8) * want_big);
    const double tb = widen(TRNSCI_R_16BF, narrow(TRNSCI_R_16BF, 3e-30f)),
                 tc = widen(TRNSCI_R_16BF, narrow(TRNSCI_R_16BF, 4e-30f));
    const double want_tiny = sqrt(tb * tb + tc * tc);
    assert_true(fabs(norm_of(h, TRNSCI_R_16BF, tiny, 2) - want_tiny) <=
                (5.1 * 0x1p-24 + 0x1p-8) * want_tiny);
    /* Half: 300^2 + 400^2 is 250000 (beyond half's range as a square, not
     * as the norm). */
    const float mid[2] = {300.0f, 400.0f};
    assert_true(norm_of(h, TRNSCI_R_16F, mid, 2) == 500.0);
    const float with_nan[3] = {1.0f, NAN, INFINITY}, with_inf[3] = {1.0f, -INFINITY, 2.0f};
    assert_true(isnan(norm_of(h, TRNSCI_R_16F, with_nan, 3)));
    assert_true(isinf(norm_of(h, TRNSCI_R_16BF, with_inf, 3)));
    /* axpy with alpha = 0 leaves y alone (BLAS's quick return), also a NaN
     * in x does not reach it. */
    uint16_t xy[4] = {0x7e00, 0x7e00, 0x3c00, 0x4000}; /* x: NaN NaN; y: 1 2 */
    assert_int_equal(trnsciMemcpy(d, xy, 8, trnsciMemcpyHostToDevice), trnsciSuccess);
    const float zero = 0.0f;
    assert_int_equal(trnblasAxpyEx(h, 2, &zero, TRNSCI_R_32F, d, TRNSCI_R_16F, 1, (char *)d + 4,
                                   TRNSCI_R_16F, 1, TRNSCI_R_32F),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMemcpy(xy, d, 8, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(xy[2], 0x3c00);
    assert_int_equal(xy[3], 0x4000);
    /* One rounding: 1 + 2^-11 + 2^-11 (each addend below half an ulp of 1)
     * stays 1 when rounded per step; one FP32 sum then one rounding gives
     * 1 + 2^-10. */
    uint16_t v[3] = {0x3c00, 0x1000, 0x1000}; /* 1, 2^-11, 2^-11 */
    uint16_t ones[3] = {0x3c00, 0x3c00, 0x3c00};
    void *dv = dev_upload(v, 6), *d1 = dev_upload(ones, 6);
    assert_int_equal(trnblasDotEx(h, 3, dv, TRNSCI_R_16F, 1, d1, TRNSCI_R_16F, 1, &res,
                                  TRNSCI_R_16F, TRNSCI_R_32F),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(res, 0x3c01);
    assert_int_equal(trnsciFree(dv), trnsciSuccess);
    assert_int_equal(trnsciFree(d1), trnsciSuccess);
    assert_int_equal(trnsciFree(d), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* Bad arguments: cuBLAS's statuses, named; the daemon keeps serving. */
static void test_bad_input(void **state) {
    (void)state;
    trnblasHandle_t h = handle_in(0);
    void *d = NULL;
    assert_int_equal(trnsciMalloc(&d, 64), trnsciSuccess);
    const float one = 1.0f;
    const uint16_t c = 0x3c00, s = 0;
    uint16_t res;
    const trnsciDataType_t F = TRNSCI_R_16F, B = TRNSCI_R_16BF, R = TRNSCI_R_32F;
    /* A 16-bit vector at an odd byte offset is misaligned. */
    assert_int_equal(trnblasAxpyEx(h, 4, &one, R, (char *)d + 1, F, 1, d, F, 1, R),
                     TRNBLAS_STATUS_INVALID_VALUE);
    /* 33 elements of 2 bytes do not fit in 64 bytes. */
    assert_int_equal(trnblasScalEx(h, 33, &one, R, d, B, 1, R), TRNBLAS_STATUS_INVALID_VALUE);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "x"));
    assert_int_equal(trnblasDotEx(h, 17, d, F, 2, d, F, 1, &res, F, R),
                     TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasAxpyEx(h, 4, NULL, R, d, F, 1, d, F, 1, R),
                     TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasRotEx(h, 4, d, B, 1, d, B, 1, &c, NULL, B, R),
                     TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasRotEx(h, 4, d, B, 1, d, B, 1, NULL, &s, B, R),
                     TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasNrm2Ex(h, 4, d, F, 1, NULL, F, R), TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnblasNrm2Ex(NULL, 4, d, F, 1, &res, F, R), TRNBLAS_STATUS_NOT_INITIALIZED);
    /* Outside cuBLAS's tables: NOT_SUPPORTED. */
    assert_int_equal(trnblasNrm2Ex(h, 4, d, F, 1, &res, R, R), TRNBLAS_STATUS_NOT_SUPPORTED);
    assert_int_equal(trnblasDotEx(h, 4, d, F, 1, d, B, 1, &res, F, R),
                     TRNBLAS_STATUS_NOT_SUPPORTED);
    assert_int_equal(trnblasAxpyEx(h, 4, &c, F, d, F, 1, d, F, 1, R), TRNBLAS_STATUS_NOT_SUPPORTED);
    assert_int_equal(trnblasRotEx(h, 4, d, F, 1, d, F, 1, &one, &one, R, R),
                     TRNBLAS_STATUS_NOT_SUPPORTED);
    assert_int_equal(trnblasScalEx(h, 4, &one, R, d, F, 1, F), TRNBLAS_STATUS_NOT_SUPPORTED);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    /* Still serving. */
    assert_int_equal(trnblasScalEx(h, 4, &one, R, d, F, 1, R), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciFree(d), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

static int connect_unix(void **state) {
    (void)state;
    return trnsciInit(daemon_under_test.unix_addr) == trnsciSuccess ? 0 : -1;
}

static int connect_tcp(void **state) {
    (void)state;
    return trnsciInit(daemon_under_test.tcp_addr) == trnsciSuccess ? 0 : -1;
}

static int disconnect(void **state) {
    (void)state;
    trnsciDeviceReset();
    return th_wait_daemon_idle(daemon_under_test.unix_addr, 5000);
}

int main(void) {
    snprintf(work_dir, sizeof(work_dir), "/tmp/trnsci-exhalf-XXXXXX");
    if (!mkdtemp(work_dir)) {
        perror("mkdtemp");
        return 1;
    }
    const char *const args[] = {"--cores", "2", NULL};
    if (th_daemon_start(&daemon_under_test, args) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_bad_input),
    };
    int failed = cmocka_run_group_tests_name("Level 1 Ex on 16-bit data over unix socket", tests,
                                             connect_unix, disconnect);
    failed += cmocka_run_group_tests_name("Level 1 Ex on 16-bit data over tcp", tests, connect_tcp,
                                          disconnect);
    numpy_coproc_stop(&numpy_in, &numpy_out, numpy_pid);
    failed += th_daemon_stop_checked(&daemon_under_test, "trnscid");
    th_remove_dir(work_dir);
    return failed ? 1 : 0;
}
