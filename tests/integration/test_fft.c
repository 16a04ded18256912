/*
 * test_fft.c — trnfft through real trnscids, against numpy.fft.
 *
 * Reference: numpy (Debian's /usr/bin/python3) in double precision on the
 * same input values, on files this test writes, by one numpy process that
 * serves the whole run (numpy_ref). numpy's
 * pocketfft is an independent implementation (not FFTW).
 *
 * Tolerance (error analysis): for an FFT computed with accurate twiddle
 * factors in precision with unit roundoff u, the relative error in the
 * 2-norm of each transform is bounded by c·log2(N)·u with a small constant
 * (Higham, "Accuracy and Stability of Numerical Algorithms", §24.1, c about
 * sqrt(2)·(1 + μ/u) with μ the twiddle error); prime sizes go through Rader
 * or Bluestein, a convolution of 2-4 FFTs of about twice the size, which
 * adds a factor of a few. The test allows 8·log2(max(N, 2))·u per transform,
 * with u = 2^-24 (float) or 2^-53 (double); N is the product of the sizes.
 *
 * Cases, over the local transport and over gRPC (a 2-core daemon, which
 * splits batches over both cores, planning with FFTW_ESTIMATE to keep the
 * test fast; one case on a --plan-effort measure daemon):
 *  - C2C forward and inverse, unnormalised, sizes 1, 2, 7, 12, 997, 1024,
 *    65537 and 2^20, out of place and in place; Z2Z the same in double;
 *  - R2C / C2R and D2Z / Z2D: odd and even sizes, the Hermitian half, in
 *    place with cuFFT's padded rows, C2R(R2C(x)) = N x;
 *  - 2D and 3D of every type; batched 1D with 1000 transforms (sharded);
 *  - the advanced layout: embedded and strided inputs and outputs, and an
 *    interleaved batch (stride = batch, dist = 1), with padding that must
 *    come back untouched; pointers at offsets not 16-byte aligned;
 *  - a batch split over two cores is bitwise the same as on one core;
 *  - the plan cache: a second process's identical plan is a hit, handles
 *    with different batch sizes share one plan, persistence across a
 *    restart (the second daemon's first plan is a hit, its build time
 *    saved), a corrupt and a foreign cache directory are ignored with a
 *    warning, `trnsci plans clear` and `warm`;
 *  - bad input: sizes <= 0 (TRNFFT_INVALID_SIZE), rank 4, an unknown type
 *    (TRNFFT_INVALID_TYPE), Exec of another type than the plan's, a bad
 *    direction, buffers too small by one element for the batch, a freed or
 *    foreign pointer, overlapping out-of-place buffers, overlapping output
 *    transforms, destroyed handles (TRNFFT_INVALID_PLAN); each with a
 *    message, and the daemon stays up.
 */
#define _GNU_SOURCE /* pipe2 */
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "numpy_coproc.h"
#include "trnsci/trnfft.h"
#include "trnsci/trnsci.h"

static th_daemon daemon2;   /* --cores 2, estimate */
static th_daemon measured;  /* --cores 1, measure */
static char grpc_addr[300]; /* grpc+unix: of daemon2 */
static char work_dir[64];

typedef struct target {
    const char *addr;
} target;
static target local_t, grpc_t;

/* One numpy process serves every reference of the run: it reads one request
 * per line ("op dt shape in out nlast") and answers "ok" once the result file
 * is written. Starting python and numpy costs ~0.3 s, and this test needs a
 * few hundred references. */
static const char *const numpy_script =
    "import numpy as np, sys\n"
    "while True:\n"
    "    line = sys.stdin.readline()\n"
    "    if not line: break\n"
    "    op, dt, shape, inp, out, nl = line.split()\n"
    "    shape = tuple(int(x) for x in shape.split('x'))\n"
    "    x = np.fromfile(inp, dtype=dt).reshape(shape)\n"
    "    axes = tuple(range(1, len(shape)))\n"
    "    if op == 'fft': y = np.fft.fftn(x.astype(np.complex128), axes=axes)\n"
    "    elif op == 'ifft': y = np.fft.ifftn(x.astype(np.complex128), axes=axes) * "
    "np.prod(shape[1:])\n"
    "    elif op == 'rfft': y = np.fft.rfftn(x.astype(np.float64), axes=axes)\n"
    "    else:\n"
    "        s = shape[1:-1] + (int(nl),)\n"
    "        y = np.fft.irfftn(x.astype(np.complex128), s=s, axes=axes) * np.prod(s)\n"
    "    y = np.ascontiguousarray(y)\n"
    "    y.astype(np.complex128 if y.dtype.kind == 'c' else np.float64).tofile(out)\n"
    "    sys.stdout.write('ok\\n')\n"
    "    sys.stdout.flush()\n";

static FILE *numpy_in, *numpy_out; /* the numpy process's stdin and stdout */
static pid_t numpy_pid;

static void numpy_start(void) {
    numpy_coproc_start(work_dir, numpy_script, &numpy_in, &numpy_out, &numpy_pid);
}

static void numpy_stop(void) {
    numpy_coproc_stop(&numpy_in, &numpy_out, numpy_pid);
}

/* numpy's transform of `count` values of type dt ("complex64", "float32",
 * ...) shaped batch x dims (contiguous); returns the result as doubles
 * (complex interleaved), malloc'd. */
static double *numpy_ref(const char *op, const char *dt, const void *x, size_t bytes, int batch,
                         int rank, const int *dims, int nlast, size_t out_doubles) {
    char in_path[128], out_path[128], shape[96];
    snprintf(in_path, sizeof(in_path), "%s/in.bin", work_dir);
    snprintf(out_path, sizeof(out_path), "%s/out.bin", work_dir);
    int w = snprintf(shape, sizeof(shape), "%d", batch);
    for (int d = 0; d < rank; d++)
        w += snprintf(shape + w, sizeof(shape) - (size_t)w, "x%d", dims[d]);
    FILE *f = fopen(in_path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(x, 1, bytes, f), bytes);
    fclose(f);
    if (!numpy_in)
        numpy_start();
    fprintf(numpy_in, "%s %s %s %s %s %d\n", op, dt, shape, in_path, out_path, nlast);
    fflush(numpy_in);
    char reply[16] = "";
    if (!fgets(reply, sizeof(reply), numpy_out) || strcmp(reply, "ok\n") != 0)
        fail_msg("the numpy reference process failed on %s %s %s", op, dt, shape);
    double *y = malloc(out_doubles * sizeof(double));
    assert_non_null(y);
    f = fopen(out_path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(y, sizeof(double), out_doubles, f), out_doubles);
    fclose(f);
    return y;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static double rnd(void) { /* uniform in [-1, 1) */
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng_state >> 11) * 0x1p-52 - 1.0;
}

/* The worst relative error seen per precision, as a fraction of the
 * allowed bound, printed at the end (docs/numerics.md quotes them). */
static double worst_share[2];

static double tol_for(double N, int dbl) {
    const double u = dbl ? 0x1p-53 : 0x1p-24;
    return 8.0 * log2(N > 2 ? N : 2) * u;
}

static int connect_to(const target *t) {
    return trnsciInit(t->addr) == trnsciSuccess ? 0 : -1;
}

static int setup_local(void **state) {
    *state = &local_t;
    return connect_to(&local_t);
}
static int setup_grpc(void **state) {
    *state = &grpc_t;
    return connect_to(&grpc_t);
}
static int teardown(void **state) {
    (void)state;
    trnsciDeviceReset();
    return 0;
}

/* ---- contiguous transforms against numpy ------------------------------------- */

/* One case of the basic layout: type, rank, dims, batch, in place or not.
 * Checks every transform's relative L2 error against numpy. */
static void check_basic(trnfftType type, int rank, const int *dims, int batch, int inplace) {
    const int dbl = type == TRNFFT_Z2Z || type == TRNFFT_D2Z || type == TRNFFT_Z2D;
    const int rs = dbl ? 8 : 4; /* real scalar bytes */
    const int real_in = type == TRNFFT_R2C || type == TRNFFT_D2Z;
    const int real_out = type == TRNFFT_C2R || type == TRNFFT_Z2D;
    size_t N = 1, outer = 1;
    for (int d = 0; d < rank; d++)
        N *= (size_t)dims[d];
    for (int d = 0; d < rank - 1; d++)
        outer *= (size_t)dims[d];
    const int nl = dims[rank - 1], nh = nl / 2 + 1;
    const size_t half = outer * (size_t)nh; /* complex elements of a Hermitian side */
    /* Logical elements per transform on each side, and the device layout's
     * row length (in-place real rows padded to 2*nh reals). */
    const size_t in_elems = real_in ? N : real_out ? half : N;
    const size_t out_elems = real_out ? N : real_in ? half : N;
    const int in_row = real_in ? (inplace ? 2 * nh : nl) : real_out ? nh : nl;
    const int out_row = real_out ? (inplace ? 2 * nh : nl) : real_in ? nh : nl;
    const int in_cplx = !real_in, out_cplx = !real_out;
    const size_t in_dist = outer * (size_t)in_row, out_dist = outer * (size_t)out_row;
    const size_t in_es = (size_t)rs * (in_cplx ? 2 : 1), out_es = (size_t)rs * (out_cplx ? 2 : 1);
    const size_t in_bytes = in_dist * in_es * batch, out_bytes = out_dist * out_es * batch;

    /* Input values: random, packed (batch x logical) as doubles, then the
     * device image in the working precision. C2R input: numpy's rfftn of
     * random reals, so that it is Hermitian. */
    const size_t in_doubles = in_elems * (in_cplx ? 2 : 1) * (size_t)batch;
    double *xin = malloc(in_doubles * sizeof(double));
    assert_non_null(xin);
    if (real_out) {
        double *r = malloc(N * (size_t)batch * sizeof(double));
        for (size_t i = 0; i < N * (size_t)batch; i++)
            r[i] = rnd();
        double *h = numpy_ref("rfft", "float64", r, N * batch * sizeof(double), batch, rank, dims,
                              nl, in_doubles);
        memcpy(xin, h, in_doubles * sizeof(double));
        free(h);
        free(r);
    } else {
        for (size_t i = 0; i < in_doubles; i++)
            xin[i] = rnd();
    }
    /* Round to the working precision, packed, for numpy. */
    void *packed = malloc(in_doubles * (size_t)rs);
    for (size_t i = 0; i < in_doubles; i++) {
        if (dbl)
            ((double *)packed)[i] = xin[i];
        else {
            ((float *)packed)[i] = (float)xin[i];
            xin[i] = (double)((float *)packed)[i];
        }
    }
    const size_t dev_bytes = inplace ? (in_bytes > out_bytes ? in_bytes : out_bytes) : in_bytes;
    unsigned char *himg = calloc(1, dev_bytes);
    const size_t row_vals = (size_t)(in_cplx ? 2 : 1);
    for (int b = 0; b < batch; b++)
        for (size_t r = 0; r < outer; r++) {
            const int len = real_in ? nl : real_out ? nh : nl;
            memcpy(himg + ((size_t)b * in_dist + r * (size_t)in_row) * in_es,
                   (char *)packed +
                       (((size_t)b * in_elems + r * (size_t)len) * row_vals) * (size_t)rs,
                   (size_t)len * in_es);
        }
    void *din = NULL, *dout = NULL;
    assert_int_equal(trnsciMalloc(&din, dev_bytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(din, himg, dev_bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    if (inplace)
        dout = din;
    else
        assert_int_equal(trnsciMalloc(&dout, out_bytes), trnsciSuccess);

    trnfftHandle plan;
    int n[3] = {dims[0], rank > 1 ? dims[1] : 0, rank > 2 ? dims[2] : 0};
    assert_int_equal(trnfftPlanMany(&plan, rank, n, NULL, 1, 0, NULL, 1, 0, type, batch),
                     TRNFFT_SUCCESS);
    const int inverse = (unsigned)N % 2; /* C2C: both directions over the cases */
    trnfftResult r;
    switch (type) {
    case TRNFFT_C2C:
        r = trnfftExecC2C(plan, din, dout, inverse ? TRNFFT_INVERSE : TRNFFT_FORWARD);
        break;
    case TRNFFT_Z2Z:
        r = trnfftExecZ2Z(plan, din, dout, inverse ? TRNFFT_INVERSE : TRNFFT_FORWARD);
        break;
    case TRNFFT_R2C: r = trnfftExecR2C(plan, din, dout); break;
    case TRNFFT_D2Z: r = trnfftExecD2Z(plan, din, dout); break;
    case TRNFFT_C2R: r = trnfftExecC2R(plan, din, dout); break;
    default: r = trnfftExecZ2D(plan, din, dout); break;
    }
    if (r != TRNFFT_SUCCESS)
        fail_msg("exec: %s", trnsciGetLastErrorMessage());
    unsigned char *hout = malloc(out_bytes);
    assert_int_equal(trnsciMemcpy(hout, dout, out_bytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);

    const char *op = real_in ? "rfft" : real_out ? "irfft" : inverse ? "ifft" : "fft";
    const char *dt = real_in ? (dbl ? "float64" : "float32") : (dbl ? "complex128" : "complex64");
    const size_t out_doubles = out_elems * (out_cplx ? 2 : 1) * (size_t)batch;
    int ref_dims[3] = {dims[0], rank > 1 ? dims[1] : 0, rank > 2 ? dims[2] : 0};
    if (real_out)
        ref_dims[rank - 1] = nh; /* numpy gets the Hermitian half */
    double *ref =
        numpy_ref(op, dt, packed, in_doubles * (size_t)rs, batch, rank, ref_dims, nl, out_doubles);
    const double tol = tol_for((double)N, dbl);
    const int out_len = real_out ? nl : real_in ? nh : nl;
    for (int b = 0; b < batch; b++) {
        double num = 0, den = 0;
        for (size_t rr = 0; rr < outer; rr++)
            for (int k = 0; k < out_len * (out_cplx ? 2 : 1); k++) {
                const size_t dev =
                    ((size_t)b * out_dist + rr * (size_t)out_row) * (out_cplx ? 2 : 1) + (size_t)k;
                const double got = dbl ? ((double *)hout)[dev] : (double)((float *)hout)[dev];
                const double want =
                    ref[((size_t)b * out_elems + rr * (size_t)out_len) * (out_cplx ? 2 : 1) +
                        (size_t)k];
                num += (got - want) * (got - want);
                den += want * want;
            }
        const double rel = den > 0 ? sqrt(num / den) : sqrt(num);
        if (rel / tol > worst_share[dbl])
            worst_share[dbl] = rel / tol;
        if (!(rel <= tol))
            fail_msg(
                "type 0x%x rank %d dims %dx%dx%d batch %d %s: transform %d relative error %.3g "
                "> %.3g",
                (unsigned)type, rank, dims[0], rank > 1 ? dims[1] : 1, rank > 2 ? dims[2] : 1,
                batch, inplace ? "in place" : "out of place", b, rel, tol);
    }
    assert_int_equal(trnfftDestroy(plan), TRNFFT_SUCCESS);
    trnsciFree(din);
    if (!inplace)
        trnsciFree(dout);
    free(ref);
    free(hout);
    free(himg);
    free(packed);
    free(xin);
}

static void test_c2c_sizes(void **state) {
    (void)state;
    /* 1, powers of 2 up to 2^20, primes (7, 997, 65537), odd and even
     * composites. */
    const int sizes[] = {1,   2,    4,    7,    12,      16,    105,     256,
                         997, 1024, 2187, 4096, 1 << 16, 65537, 1 << 18, 1 << 20};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        check_basic(TRNFFT_C2C, 1, &sizes[i], 1, 0);
        if (sizes[i] <= 65537) { /* the large ones once: numpy's reference costs seconds */
            check_basic(TRNFFT_C2C, 1, &sizes[i], 1, 1);
            check_basic(TRNFFT_Z2Z, 1, &sizes[i], 1, i % 2);
        }
    }
    const int n = 1 << 20;
    check_basic(TRNFFT_Z2Z, 1, &n, 1, 0);
}

static void test_real_sizes(void **state) {
    (void)state;
    const int sizes[] = {1, 2, 7, 16, 1000, 4097};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        for (int inplace = 0; inplace < 2; inplace++) {
            check_basic(TRNFFT_R2C, 1, &sizes[i], 3, inplace);
            check_basic(TRNFFT_C2R, 1, &sizes[i], 3, inplace);
            check_basic(TRNFFT_D2Z, 1, &sizes[i], 2, inplace);
            check_basic(TRNFFT_Z2D, 1, &sizes[i], 2, inplace);
        }
}

static void test_multi_dim(void **state) {
    (void)state;
    const int d2[] = {64, 48}, d2odd[] = {15, 9}, d3[] = {8, 6, 10}, d3odd[] = {5, 3, 7};
    const trnfftType types[] = {TRNFFT_C2C, TRNFFT_Z2Z, TRNFFT_R2C,
                                TRNFFT_C2R, TRNFFT_D2Z, TRNFFT_Z2D};
    for (size_t t = 0; t < 6; t++)
        for (int inplace = 0; inplace < 2; inplace++) {
            check_basic(types[t], 2, d2, 1, inplace);
            check_basic(types[t], 2, d2odd, 2, inplace);
            check_basic(types[t], 3, d3, 1, inplace);
            check_basic(types[t], 3, d3odd, 2, inplace);
        }
}

static void test_batched(void **state) {
    (void)state;
    const int n = 1024, small = 100;
    check_basic(TRNFFT_C2C, 1, &n, 1000, 0); /* split over both cores */
    check_basic(TRNFFT_C2C, 1, &small, 1000, 1);
    check_basic(TRNFFT_R2C, 1, &n, 300, 0);
    check_basic(TRNFFT_Z2D, 1, &small, 500, 0);
}

/* C2R(R2C(x)) = N·x, in single and double precision, out of place and in
 * place: the round trip on the daemon alone, against the input. The error
 * bound is the sum of both transforms' (each 8·log2(N)·u relative to ‖X‖ =
 * sqrt(N)·‖x‖ for the forward one), so ‖C2R(R2C(x)) − N·x‖ ≤ 16·log2(N)·u·N·‖x‖. */
static void test_real_round_trip(void **state) {
    (void)state;
    const int sizes[] = {2, 15, 64, 1000};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        for (int dbl = 0; dbl < 2; dbl++)
            for (int inplace = 0; inplace < 2; inplace++) {
                const int n = sizes[i], nh = n / 2 + 1, batch = 3;
                const size_t rs = dbl ? 8 : 4, row = inplace ? 2 * (size_t)nh : (size_t)n;
                const size_t rbytes = row * batch * rs, cbytes = (size_t)nh * batch * 2 * rs;
                void *x, *spec, *y;
                assert_int_equal(trnsciMalloc(&x, rbytes > cbytes ? rbytes : cbytes),
                                 trnsciSuccess);
                assert_int_equal(trnsciMalloc(&spec, cbytes), trnsciSuccess);
                double *hx = calloc(row * batch, sizeof(double));
                unsigned char *img = calloc(1, rbytes > cbytes ? rbytes : cbytes);
                for (int b = 0; b < batch; b++)
                    for (int k = 0; k < n; k++) {
                        const double v = rnd();
                        hx[(size_t)b * row + (size_t)k] = dbl ? v : (double)(float)v;
                        if (dbl)
                            ((double *)img)[(size_t)b * row + (size_t)k] = v;
                        else
                            ((float *)img)[(size_t)b * row + (size_t)k] = (float)v;
                    }
                assert_int_equal(trnsciMemcpy(x, img, rbytes, trnsciMemcpyHostToDevice),
                                 trnsciSuccess);
                trnfftHandle fwd, inv;
                assert_int_equal(trnfftPlan1d(&fwd, n, dbl ? TRNFFT_D2Z : TRNFFT_R2C, batch),
                                 TRNFFT_SUCCESS);
                assert_int_equal(trnfftPlan1d(&inv, n, dbl ? TRNFFT_Z2D : TRNFFT_C2R, batch),
                                 TRNFFT_SUCCESS);
                void *mid = inplace ? x : spec;
                y = x;
                if (dbl) {
                    assert_int_equal(trnfftExecD2Z(fwd, x, mid), TRNFFT_SUCCESS);
                    assert_int_equal(trnfftExecZ2D(inv, mid, y), TRNFFT_SUCCESS);
                } else {
                    assert_int_equal(trnfftExecR2C(fwd, x, mid), TRNFFT_SUCCESS);
                    assert_int_equal(trnfftExecC2R(inv, mid, y), TRNFFT_SUCCESS);
                }
                assert_int_equal(trnsciMemcpy(img, y, rbytes, trnsciMemcpyDeviceToHost),
                                 trnsciSuccess);
                const double tol = 2 * tol_for(n, dbl);
                for (int b = 0; b < batch; b++) {
                    double num = 0, den = 0;
                    for (int k = 0; k < n; k++) {
                        const size_t e = (size_t)b * row + (size_t)k;
                        const double got = dbl ? ((double *)img)[e] : ((float *)img)[e];
                        const double want = n * hx[e];
                        num += (got - want) * (got - want);
                        den += want * want;
                    }
                    if (!(sqrt(num / den) <= tol))
                        fail_msg("round trip n=%d %s %s: error %.3g > %.3g", n,
                                 dbl ? "double" : "float", inplace ? "in place" : "out of place",
                                 sqrt(num / den), tol);
                }
                trnfftDestroy(fwd);
                trnfftDestroy(inv);
                trnsciFree(x);
                trnsciFree(spec);
                free(hx);
                free(img);
            }
}

/* ---- the advanced layout ---------------------------------------------------------- */

/* A strided/embedded C2C batch: input x[b*idist + istride*(i*inembed1 + j)],
 * output likewise; padding is set to a sentinel that must survive. The
 * reference is a naive DFT in long double (small sizes). */
static void check_advanced(int n0, int n1, int ie1, int istride, int idist, int oe1, int ostride,
                           int odist, int batch, size_t offset_bytes) {
    const int rank = n1 ? 2 : 1;
    int n[2] = {n0, n1}, inembed[2] = {n0, ie1}, onembed[2] = {n0, oe1};
    const int cols = n1 ? n1 : 1, icols = n1 ? ie1 : 1, ocols = n1 ? oe1 : 1;
    const size_t in_span =
        (size_t)(batch - 1) * idist + (size_t)istride * ((n0 - 1) * icols + cols - 1) + 1;
    const size_t out_span =
        (size_t)(batch - 1) * odist + (size_t)ostride * ((n0 - 1) * ocols + cols - 1) + 1;
    const size_t in_bytes = offset_bytes + in_span * 8,
                 out_bytes = offset_bytes + out_span * 8 + 64;
    float *hin = malloc(in_bytes), *hout = malloc(out_bytes);
    for (size_t i = 0; i < in_bytes / 4; i++)
        hin[i] = (float)rnd();
    for (size_t i = 0; i < out_bytes / 4; i++)
        hout[i] = 12345.0f; /* sentinel */
    void *din, *dout;
    assert_int_equal(trnsciMalloc(&din, in_bytes), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&dout, out_bytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(din, hin, in_bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dout, hout, out_bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    trnfftHandle plan;
    assert_int_equal(trnfftPlanMany(&plan, rank, n, inembed, istride, idist, onembed, ostride,
                                    odist, TRNFFT_C2C, batch),
                     TRNFFT_SUCCESS);
    const trnfftResult r =
        trnfftExecC2C(plan, (trnfftComplex *)((char *)din + offset_bytes),
                      (trnfftComplex *)((char *)dout + offset_bytes), TRNFFT_FORWARD);
    if (r != TRNFFT_SUCCESS)
        fail_msg("advanced exec: %s", trnsciGetLastErrorMessage());
    float *got = malloc(out_bytes);
    assert_int_equal(trnsciMemcpy(got, dout, out_bytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    char *written = calloc(1, out_bytes / 8 + 1);
    const float *x = (const float *)((char *)hin + offset_bytes);
    const float *y = (const float *)((char *)got + offset_bytes);
    const double tol = tol_for((double)n0 * cols, 0);
    const long double pi = 3.14159265358979323846264338327950288L;
    for (int b = 0; b < batch; b++) {
        long double num = 0, den = 0;
        for (int k0 = 0; k0 < n0; k0++)
            for (int k1 = 0; k1 < cols; k1++) {
                long double re = 0, im = 0;
                for (int j0 = 0; j0 < n0; j0++)
                    for (int j1 = 0; j1 < cols; j1++) {
                        const size_t e = (size_t)b * idist + (size_t)istride * (j0 * icols + j1);
                        const long double ang =
                            -2 * pi * ((long double)k0 * j0 / n0 + (long double)k1 * j1 / cols);
                        re += x[2 * e] * cosl(ang) - x[2 * e + 1] * sinl(ang);
                        im += x[2 * e] * sinl(ang) + x[2 * e + 1] * cosl(ang);
                    }
                const size_t o = (size_t)b * odist + (size_t)ostride * (k0 * ocols + k1);
                written[o] = 1;
                num +=
                    (y[2 * o] - re) * (y[2 * o] - re) + (y[2 * o + 1] - im) * (y[2 * o + 1] - im);
                den += re * re + im * im;
            }
        const double rel = (double)sqrtl(num / (den > 0 ? den : 1));
        if (!(rel <= tol))
            fail_msg("advanced layout batch %d: relative error %.3g > %.3g", b, rel, tol);
    }
    for (size_t e = 0; e < out_span; e++)
        if (!written[e] && (y[2 * e] != 12345.0f || y[2 * e + 1] != 12345.0f))
            fail_msg("advanced layout: padding element %zu was written", e);
    for (size_t i = 0; i < offset_bytes / 4; i++)
        assert_true(got[i] == 12345.0f);
    assert_int_equal(trnfftDestroy(plan), TRNFFT_SUCCESS);
    trnsciFree(din);
    trnsciFree(dout);
    free(written);
    free(got);
    free(hin);
    free(hout);
}

static void test_advanced_layout(void **state) {
    (void)state;
    check_advanced(16, 0, 0, 2, 40, 0, 1, 20, 5, 0);    /* strided input, padded dists */
    check_advanced(12, 0, 0, 7, 1, 0, 7, 1, 7, 0);      /* interleaved batch of 7 */
    check_advanced(6, 10, 12, 1, 80, 11, 2, 140, 3, 0); /* 2D, embedded rows, strided out */
    check_advanced(9, 0, 0, 1, 9, 0, 1, 9, 4, 8);       /* at an 8-byte offset: unaligned */
    check_advanced(5, 3, 3, 1, 15, 3, 1, 17, 6, 24);    /* odd dists: unaligned transforms */
}

/* ---- sharding ------------------------------------------------------------------------- */

/* 1000 transforms of 512 points on a 2-core daemon are split over both
 * cores; the same batch on the 1-core daemon runs in one piece. Every
 * transform uses one plan, so the results must be bitwise equal. The
 * 1-core daemon plans with measure, the 2-core one with estimate: the plans
 * differ, so this compares one batch on each daemon with and without a
 * split instead: the 2-core daemon's batch of 1000 against its own single
 * transforms. */
static void test_split_is_bitwise(void **state) {
    (void)state;
    const int n = 512, batch = 1000;
    const size_t bytes = (size_t)n * batch * 8;
    float *h = malloc(bytes), *a = malloc(bytes), *one = malloc((size_t)n * 8);
    for (size_t i = 0; i < bytes / 4; i++)
        h[i] = (float)rnd();
    void *din, *dout;
    assert_int_equal(trnsciMalloc(&din, bytes), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&dout, bytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(din, h, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    trnfftHandle big, single;
    assert_int_equal(trnfftPlan1d(&big, n, TRNFFT_C2C, batch), TRNFFT_SUCCESS);
    assert_int_equal(trnfftPlan1d(&single, n, TRNFFT_C2C, 1), TRNFFT_SUCCESS);
    assert_int_equal(trnfftExecC2C(big, din, dout, TRNFFT_FORWARD), TRNFFT_SUCCESS);
    assert_int_equal(trnsciMemcpy(a, dout, bytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    for (int b = 0; b < batch; b += 137) {
        trnfftComplex *i = (trnfftComplex *)din + (size_t)b * n;
        trnfftComplex *o = (trnfftComplex *)dout + (size_t)b * n;
        assert_int_equal(trnfftExecC2C(single, i, o, TRNFFT_FORWARD), TRNFFT_SUCCESS);
        assert_int_equal(trnsciMemcpy(one, o, (size_t)n * 8, trnsciMemcpyDeviceToHost),
                         trnsciSuccess);
        assert_memory_equal(one, a + (size_t)b * n * 2, (size_t)n * 8);
    }
    trnfftDestroy(big);
    trnfftDestroy(single);
    trnsciFree(din);
    trnsciFree(dout);
    free(h);
    free(a);
    free(one);
}

/* ---- plan cache ------------------------------------------------------------------------- */

static int find_plan(const char *addr, const char *key, trnsciPlanInfo *out,
                     trnsciPlanCacheStats *st) {
    trnsciPlanInfo v[64];
    int count = 0;
    if (trnsciDaemonGetPlans(addr, v, 64, &count, st) != trnsciSuccess)
        return -1;
    for (int i = 0; i < count && i < 64; i++)
        if (strcmp(v[i].key, key) == 0) {
            *out = v[i];
            return 0;
        }
    return -1;
}

/* A child process (re-executed) makes the same plan: a hit. */
static int role_plan(const char *addr) {
    if (trnsciInit(addr) != trnsciSuccess)
        return 10;
    trnfftHandle p;
    if (trnfftPlan1d(&p, 4096, TRNFFT_C2C, 3) != TRNFFT_SUCCESS)
        return 11;
    return trnfftDestroy(p) == TRNFFT_SUCCESS ? 0 : 12;
}

static void test_plan_sharing(void **state) {
    const target *t = *state;
    trnsciPlanCacheStats before, after;
    trnsciPlanInfo info;
    int count;
    assert_int_equal(trnsciDaemonGetPlans(t->addr, NULL, 0, &count, &before), trnsciSuccess);
    trnfftHandle p;
    assert_int_equal(trnfftPlan1d(&p, 4096, TRNFFT_C2C, 1), TRNFFT_SUCCESS);
    assert_int_equal(find_plan(t->addr, "fft c2c 4096 basic estimate", &info, NULL), 0);
    const pid_t child = th_spawn_role("plan", t->addr, -1);
    assert_int_equal(th_wait_child(child), 0);
    assert_int_equal(find_plan(t->addr, "fft c2c 4096 basic estimate", &info, &after), 0);
    /* This process's plan was a hit or a miss (an earlier case may have made
     * it); the child's was a hit whatever happened before. */
    assert_true(after.hits >= before.hits + 1);
    assert_true(info.hits >= 1);
    assert_int_equal(trnfftDestroy(p), TRNFFT_SUCCESS);
}

static const char *const *measure_args(const char *dir) {
    static const char *args[8];
    args[0] = "--cores";
    args[1] = "1";
    args[2] = "--plan-effort";
    args[3] = "measure";
    args[4] = "--cache-dir";
    args[5] = dir;
    args[6] = NULL;
    return args;
}

static void wait_prewarm(const char *addr) {
    for (int i = 0; i < 600; i++) {
        int count;
        trnsciPlanCacheStats st;
        assert_int_equal(trnsciDaemonGetPlans(addr, NULL, 0, &count, &st), trnsciSuccess);
        if (st.prewarmDone)
            return;
        usleep(50000);
    }
    fail_msg("pre-warm did not finish in 30 s");
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Plan and run on a measuring daemon with a cache directory, restart it:
 * the second daemon has the plan ready before anyone asks, and the first
 * PlanCreate of the same key is a hit that saves the build time. */
static void test_persistence(void **state) {
    (void)state;
    char dir[128];
    snprintf(dir, sizeof(dir), "%s/cache", work_dir);
    trnsciDeviceReset();
    for (int round = 0; round < 3; round++) {
        char path[192];
        if (round == 2) { /* corrupt wisdom: a warning, the plans still come back */
            snprintf(path, sizeof(path), "%s/fftwf.wisdom", dir);
            write_file(path, "(fftw-3.3.10 fftwf_wisdom #x0 garbage\n");
        }
        assert_int_equal(th_daemon_start(&measured, measure_args(dir)), 0);
        wait_prewarm(measured.unix_addr);
        trnsciPlanInfo info;
        trnsciPlanCacheStats st;
        const int found = find_plan(measured.unix_addr, "fft c2c 2048 basic measure", &info, &st);
        if (round == 0) {
            assert_int_equal(found, -1);
        } else {
            assert_int_equal(found, 0);
            assert_string_equal(info.state, "ready");
        }
        assert_int_equal(trnsciInit(measured.unix_addr), trnsciSuccess);
        const int n = 2048;
        check_basic(TRNFFT_C2C, 1, &n, 1, 0);
        assert_int_equal(find_plan(measured.unix_addr, "fft c2c 2048 basic measure", &info, &st),
                         0);
        if (round >= 1) {
            assert_true(st.hits >= 1);
            assert_true(st.savedSeconds > 0);
            assert_int_equal(st.misses, 0);
        }
        trnsciDeviceReset();
        const int warned = th_file_contains(measured.log_path, "not FFTW wisdom");
        assert_int_equal(th_daemon_stop(&measured), 0);
        assert_int_equal(warned, round == 2);
        struct stat sb;
        snprintf(path, sizeof(path), "%s/plans.manifest", dir);
        assert_int_equal(stat(path, &sb), 0);
        snprintf(path, sizeof(path), "%s/fftwf.wisdom", dir);
        assert_int_equal(stat(path, &sb), 0);
    }
    th_remove_dir(dir);
}

/* Garbage in the manifest and the wisdom, then a manifest of another
 * backend version: each daemon warns, starts empty and works. */
static void test_corrupt_cache(void **state) {
    (void)state;
    char dir[128], path[192];
    snprintf(dir, sizeof(dir), "%s/bad-cache", work_dir);
    assert_int_equal(mkdir(dir, 0700), 0);
    trnsciDeviceReset();
    const char *const manifests[] = {
        "\x01\x02garbage\xff\n\n",
        "trnsci-plan-manifest 1 cpu-0 fftw-0.0\n1 fft c2c 64 basic measure\n",
    };
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof(path), "%s/plans.manifest", dir);
        write_file(path, manifests[i]);
        snprintf(path, sizeof(path), "%s/fftwf.wisdom", dir);
        write_file(path, "(not-wisdom (((\n");
        assert_int_equal(th_daemon_start(&measured, measure_args(dir)), 0);
        wait_prewarm(measured.unix_addr);
        int count = -1;
        assert_int_equal(trnsciDaemonGetPlans(measured.unix_addr, NULL, 0, &count, NULL),
                         trnsciSuccess);
        assert_int_equal(count, 0);
        assert_int_equal(trnsciInit(measured.unix_addr), trnsciSuccess);
        const int n = 64;
        check_basic(TRNFFT_C2C, 1, &n, 2, 0);
        trnsciDeviceReset();
        const int warned = th_file_contains(measured.log_path, "ignored");
        assert_int_equal(th_daemon_stop(&measured), 0);
        assert_true(warned);
    }
    th_remove_dir(dir);
}

static void test_clear_and_warm(void **state) {
    const target *t = *state;
    unsigned queued = 0, rejected = 0, cleared = 0, kept = 0;
    assert_int_equal(trnsciDaemonWarmPlans(t->addr,
                                           "# comment\n1 fft r2c 96x20 basic measure\n"
                                           "fft z2z 33 in=33:2 out=33:1 estimate\n"
                                           "fft c2c 0 basic estimate\nnonsense\n",
                                           &queued, &rejected),
                     trnsciSuccess);
    assert_int_equal(queued, 2);
    assert_int_equal(rejected, 2);
    trnsciPlanInfo info;
    /* The daemon's effort replaces the line's. */
    for (int i = 0; i < 200 && (find_plan(t->addr, "fft r2c 96x20 basic estimate", &info, NULL) ||
                                strcmp(info.state, "ready") != 0);
         i++)
        usleep(20000);
    assert_string_equal(info.state, "ready");
    trnfftHandle p;
    assert_int_equal(trnfftPlan1d(&p, 333, TRNFFT_C2C, 1), TRNFFT_SUCCESS);
    assert_int_equal(trnsciDaemonClearPlans(t->addr, &cleared, &kept), trnsciSuccess);
    assert_true(kept >= 1);
    assert_true(cleared >= 2);
    assert_int_equal(find_plan(t->addr, "fft c2c 333 basic estimate", &info, NULL), 0);
    assert_int_not_equal(find_plan(t->addr, "fft r2c 96x20 basic estimate", &info, NULL), 0);
    assert_int_equal(trnfftDestroy(p), TRNFFT_SUCCESS);
}

/* The CLI: `trnsci plans warm FILE` queues a manifest, `trnsci plans` lists
 * it, `trnsci status` counts it, `trnsci plans clear` drops it. */
static void test_cli(void **state) {
    const target *t = *state;
    char manifest[128], out[128];
    snprintf(manifest, sizeof(manifest), "%s/warm.manifest", work_dir);
    snprintf(out, sizeof(out), "%s/cli.out", work_dir);
    write_file(manifest, "fft d2z 48x30 basic estimate\n");
    const char *const warm[] = {TRNSCI_CLI_PATH, "--addr", t->addr, "plans",
                                "warm",          manifest, NULL};
    assert_int_equal(th_run(warm, out), 0);
    assert_true(th_file_contains(out, "queued 1 plans"));
    const char *const list[] = {TRNSCI_CLI_PATH, "--addr", t->addr, "plans", NULL};
    assert_int_equal(th_run(list, out), 0);
    assert_true(th_file_contains(out, "fft d2z 48x30 basic estimate"));
    assert_true(th_file_contains(out, "hits"));
    const char *const status[] = {TRNSCI_CLI_PATH, "--addr", t->addr, "status", NULL};
    assert_int_equal(th_run(status, out), 0);
    assert_true(th_file_contains(out, "plans:"));
    const char *const clear[] = {TRNSCI_CLI_PATH, "--addr", t->addr, "plans", "clear", NULL};
    assert_int_equal(th_run(clear, out), 0);
    assert_true(th_file_contains(out, "cleared"));
    const char *const bad[] = {TRNSCI_CLI_PATH, "--addr", t->addr, "plans", "frob", NULL};
    assert_int_equal(th_run(bad, out), 2);
    write_file(manifest, "fft q2q 8 basic estimate\n");
    assert_int_equal(th_run(warm, out), 1);
    assert_true(th_file_contains(out, "1 lines rejected"));
}

/* ---- bad input ----------------------------------------------------------------------- */

#define expect(got, want, needle) expect_at(__LINE__, got, want, needle)

static void expect_at(int line, trnfftResult got, trnfftResult want, const char *needle) {
    if (got != want)
        fail_msg("line %d: got %s, want %s (%s)", line, trnfftGetStatusName(got),
                 trnfftGetStatusName(want), trnsciGetLastErrorMessage());
    if (needle && !strstr(trnsciGetLastErrorMessage(), needle))
        fail_msg("line %d: message \"%s\" does not mention \"%s\"", line,
                 trnsciGetLastErrorMessage(), needle);
}

static void test_bad_input(void **state) {
    (void)state;
    trnfftHandle p = -1;
    int n[4] = {8, 8, 8, 8};
    expect(trnfftPlan1d(&p, 0, TRNFFT_C2C, 1), TRNFFT_INVALID_SIZE, "n[0]");
    expect(trnfftPlan1d(&p, 8, TRNFFT_C2C, 0), TRNFFT_INVALID_SIZE, "batch");
    expect(trnfftPlan2d(&p, 8, -3, TRNFFT_R2C), TRNFFT_INVALID_SIZE, "n[1]");
    expect(trnfftPlanMany(&p, 4, n, NULL, 1, 0, NULL, 1, 0, TRNFFT_C2C, 1), TRNFFT_INVALID_VALUE,
           "rank");
    expect(trnfftPlan1d(&p, 8, (trnfftType)0x77, 1), TRNFFT_INVALID_TYPE, "type");
    expect(trnfftPlan1d(NULL, 8, TRNFFT_C2C, 1), TRNFFT_INVALID_VALUE, "NULL");
    int emb[2] = {8, 4}; /* inembed[1] < n[1]; inembed[0] is not used, as in cuFFT */
    expect(trnfftPlanMany(&p, 2, n, emb, 1, 64, emb, 1, 64, TRNFFT_C2C, 2), TRNFFT_INVALID_VALUE,
           "inembed[1]");
    /* A batch no memory could hold (sizes and batch each valid). */
    expect(trnfftPlan1d(&p, 0x7fffffff, TRNFFT_C2C, 0x7fffffff), TRNFFT_INVALID_SIZE, "2^59");
    /* One transform larger than any buffer of a session (32 GiB > the
     * default max-session-bytes of 16 GiB): refused before planning. */
    expect(trnfftPlan1d(&p, 0x7fffffff, TRNFFT_Z2Z, 1), TRNFFT_ALLOC_FAILED, "max-session-bytes");
    /* A real size whose padded in-place row would not fit in an int. */
    expect(trnfftPlan1d(&p, 0x7ffffffe, TRNFFT_R2C, 1), TRNFFT_INVALID_VALUE, "2147483645");
    /* Sizes whose span overflows 2^62 elements. */
    int huge[3] = {1 << 30, 1 << 30, 1 << 30};
    expect(trnfftPlan3d(&p, huge[0], huge[1], huge[2], TRNFFT_C2C), TRNFFT_INVALID_SIZE, "2^59");

    void *buf, *other;
    const int len = 64, batch = 4;
    const size_t need = (size_t)len * batch * sizeof(trnfftComplex);
    assert_int_equal(trnsciMalloc(&buf, need), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&other, need), trnsciSuccess);
    assert_int_equal(trnfftPlan1d(&p, len, TRNFFT_C2C, batch), TRNFFT_SUCCESS);
    expect(trnfftExecR2C(p, buf, other), TRNFFT_INVALID_TYPE, "C2C");
    expect(trnfftExecC2C(p, buf, other, 0), TRNFFT_INVALID_VALUE, "direction");
    /* One element short for the batch: the output at an offset of one. */
    expect(trnfftExecC2C(p, buf, (trnfftComplex *)other + 1, TRNFFT_FORWARD), TRNFFT_INVALID_VALUE,
           "odata");
    expect(trnfftExecC2C(p, (trnfftComplex *)buf + 1, other, TRNFFT_FORWARD), TRNFFT_INVALID_VALUE,
           "idata");
    /* Out of place but overlapping. */
    void *big;
    assert_int_equal(trnsciMalloc(&big, 2 * need), trnsciSuccess);
    expect(trnfftExecC2C(p, big, (trnfftComplex *)big + 8, TRNFFT_FORWARD), TRNFFT_INVALID_VALUE,
           "overlap");
    /* A host pointer, a freed pointer. */
    trnfftComplex host[256];
    expect(trnfftExecC2C(p, host, other, TRNFFT_FORWARD), TRNFFT_INVALID_VALUE, NULL);
    assert_int_equal(trnsciFree(other), trnsciSuccess);
    expect(trnfftExecC2C(p, buf, other, TRNFFT_FORWARD), TRNFFT_INVALID_VALUE, NULL);
    /* Output transforms that overlap one another (dist 1, stride 1). */
    trnfftHandle q;
    int n1[1] = {16}, e1[1] = {16};
    assert_int_equal(trnfftPlanMany(&q, 1, n1, e1, 1, 16, e1, 1, 1, TRNFFT_C2C, 4), TRNFFT_SUCCESS);
    expect(trnfftExecC2C(q, buf, big, TRNFFT_FORWARD), TRNFFT_INVALID_VALUE, "overlap");
    /* Destroyed and never-made handles. */
    assert_int_equal(trnfftDestroy(q), TRNFFT_SUCCESS);
    expect(trnfftExecC2C(q, buf, big, TRNFFT_FORWARD), TRNFFT_INVALID_PLAN, "no plan");
    expect(trnfftDestroy(q), TRNFFT_INVALID_PLAN, NULL);
    expect(trnfftDestroy(123456), TRNFFT_INVALID_PLAN, NULL);
    trnfftHandle empty;
    assert_int_equal(trnfftCreate(&empty), TRNFFT_SUCCESS);
    expect(trnfftExecC2C(empty, buf, big, TRNFFT_FORWARD), TRNFFT_INVALID_PLAN, NULL);
    size_t ws = 1;
    assert_int_equal(trnfftMakePlan1d(empty, 32, TRNFFT_C2C, 1, &ws), TRNFFT_SUCCESS);
    assert_int_equal(ws, 0);
    expect(trnfftMakePlan1d(empty, 32, TRNFFT_C2C, 1, &ws), TRNFFT_INVALID_PLAN, NULL);
    assert_int_equal(trnfftGetSize(empty, &ws), TRNFFT_SUCCESS);
    assert_int_equal(trnfftDestroy(empty), TRNFFT_SUCCESS);
    /* After a device reset the handle is invalid. */
    trnsciDeviceReset();
    expect(trnfftExecC2C(p, buf, big, TRNFFT_FORWARD), TRNFFT_INVALID_PLAN, "trnsciDeviceReset");
    assert_int_equal(trnfftDestroy(p), TRNFFT_SUCCESS);
    /* The daemon is still up. */
    trnsciDaemonStatus st;
    assert_int_equal(trnsciDaemonGetStatus(daemon2.unix_addr, &st), trnsciSuccess);
    int v;
    assert_int_equal(trnfftGetVersion(&v), TRNFFT_SUCCESS);
    assert_int_equal(v, TRNFFT_VERSION);
}

#define ON(fn, t) cmocka_unit_test_setup_teardown(fn, setup_##t, teardown)

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "--role") == 0 && strcmp(argv[2], "plan") == 0)
        return role_plan(argv[3]);
    snprintf(work_dir, sizeof(work_dir), "/tmp/trnsci-fft-XXXXXX");
    if (!mkdtemp(work_dir)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(grpc_addr, sizeof(grpc_addr), "grpc+unix:%s/grpc.sock", work_dir);
    const char *const args2[] = {"--cores", "2", "--plan-effort", "estimate", "--listen",
                                 grpc_addr, NULL};
    if (th_daemon_start(&daemon2, args2) != 0) {
        fprintf(stderr, "could not start trnscid --cores 2\n");
        return 1;
    }
    local_t.addr = daemon2.unix_addr;
    grpc_t.addr = grpc_addr;
    const struct CMUnitTest tests[] = {
        ON(test_c2c_sizes, local),
        ON(test_c2c_sizes, grpc),
        ON(test_real_sizes, local),
        ON(test_real_sizes, grpc),
        ON(test_multi_dim, local),
        ON(test_multi_dim, grpc),
        ON(test_batched, local),
        ON(test_real_round_trip, local),
        ON(test_real_round_trip, grpc),
        ON(test_advanced_layout, local),
        ON(test_advanced_layout, grpc),
        ON(test_split_is_bitwise, local),
        ON(test_plan_sharing, local),
        ON(test_plan_sharing, grpc),
        ON(test_clear_and_warm, local),
        ON(test_cli, local),
        ON(test_cli, grpc),
        ON(test_bad_input, local),
        ON(test_bad_input, grpc),
        ON(test_persistence, local),
        ON(test_corrupt_cache, local),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    numpy_stop();
    printf("worst relative error / bound (8 log2(N) u): single %.3f, double %.3f\n", worst_share[0],
           worst_share[1]);
    const int bad = th_daemon_stop_checked(&daemon2, "trnscid --cores 2");
    th_remove_dir(work_dir);
    return failed || bad;
}
