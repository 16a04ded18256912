/*
 * test_fft_parallel.c — single large FFTs run on every core as steps of
 * tile tasks (ops/fft_step.h), through real trnscid daemons of 1 and 2
 * cores, against numpy.fft.
 *
 * Reference: numpy (Debian's /usr/bin/python3) in double precision on the
 * same input values (pocketfft: an implementation independent of FFTW and
 * of the four-step decomposition).
 *
 * Tolerance (error analysis): an FFT with twiddles accurate to a few units
 * of the working precision's roundoff u has a relative error in the 2-norm
 * bounded by c·log2(N)·u (Higham, "Accuracy and Stability of Numerical
 * Algorithms", §24.1). The steps compute the same sum in another order: two
 * FFTs of sizes n1 and n2 (log2 n1 + log2 n2 = log2 N) and one extra
 * twiddle multiply (an error of about 3u, the table product in double,
 * then one rounding to the working precision). The test allows
 * c = 8: 8·log2(N)·u per transform, u = 2^-24 (float) or 2^-53 (double),
 * the bound test_fft.c uses for whole transforms.
 *
 * Cases (local transport; both daemons plan with FFTW_ESTIMATE, so the
 * sub-plans are the same in both and the result must be bitwise equal):
 *  - 1D Z2Z, 2^18 forward and 3·2^17 inverse (n1 = 512, n2 = 768);
 *  - 1D C2C 2^20 forward (float);
 *  - 2D Z2Z 512 x 640, out of place and in place; 3D Z2Z 64 x 64 x 80
 *    inverse; 3D C2C 64^3 forward;
 *  - 1D in place (Z2Z 2^18, C2C 3·2^17 inverse), through the op's scratch
 *    array;
 *  - D2Z 512 x 640, R2C 64 x 64 x 80, D2Z 2^18 and R2C 3·2^18 (out of
 *    place and in place) against rfftn; Z2D 2^18, C2R 3·2^18 (both ways),
 *    Z2D 512×640 and C2R 64×64×80 against irfftn;
 *  - a shape that is not split keeps working: a 1D Z2Z whose size is prime
 *    (262147);
 *  - bad input (a daemon without a scratch pool, so that the arrays are
 *    mappings of their own): an in-place 1D transform whose scratch array
 *    does not fit the session's memory quota is refused
 *    (TRNFFT_ALLOC_FAILED, or the next synchronize's error, naming the
 *    scratch array), one that fits runs, again and again (the scratch goes
 *    back to the quota); the daemon stays up;
 * the others each on the 1-core and the 2-core daemon: the outputs are
 * bitwise the same, and within the bound of numpy's.
 */
#define _GNU_SOURCE /* pipe2 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "numpy_coproc.h"
#include "trnsci/trnfft.h"
#include "trnsci/trnsci.h"

#define NDAEMONS 2
static th_daemon daemons[NDAEMONS]; /* 1 and 2 cores */
static th_daemon small;             /* a 6 MiB memory quota per session */
static char work_dir[64];

/* The numpy process: one request per line ("op dt shape in out"); answers
 * "ok" once the result (complex128) is written. */
static const char *const numpy_script =
    "import numpy as np, sys\n"
    "while True:\n"
    "    line = sys.stdin.readline()\n"
    "    if not line: break\n"
    "    op, dt, shape, inp, out = line.split()\n"
    "    shape = tuple(int(x) for x in shape.split('x'))\n"
    "    x = np.fromfile(inp, dtype=dt).reshape(shape)\n"
    "    if op == 'rfft': y = np.fft.rfftn(x.astype(np.float64))\n"
    "    elif op == 'irfft':\n"
    "        s = shape[:-1] + (2 * (shape[-1] - 1),)\n"
    "        y = np.fft.irfftn(x.astype(np.complex128), s) * np.prod(s)\n"
    "    elif op == 'fft': y = np.fft.fftn(x.astype(np.complex128))\n"
    "    else: y = np.fft.ifftn(x.astype(np.complex128)) * x.size\n"
    "    np.ascontiguousarray(y).tofile(out)\n"
    "    sys.stdout.write('ok\\n')\n"
    "    sys.stdout.flush()\n";
static FILE *numpy_in, *numpy_out;
static pid_t numpy_pid;

static double *numpy_ref(const char *op, const char *dt, const void *x, size_t bytes, int rank,
                         const int *dims, size_t points) {
    char in_path[128], out_path[128], shape[96];
    snprintf(in_path, sizeof(in_path), "%s/in.bin", work_dir);
    snprintf(out_path, sizeof(out_path), "%s/out.bin", work_dir);
    int w = snprintf(shape, sizeof(shape), "%d", dims[0]);
    for (int d = 1; d < rank; d++)
        w += snprintf(shape + w, sizeof(shape) - (size_t)w, "x%d", dims[d]);
    FILE *f = fopen(in_path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(x, 1, bytes, f), bytes);
    fclose(f);
    if (!numpy_in)
        numpy_coproc_start(work_dir, numpy_script, &numpy_in, &numpy_out, &numpy_pid);
    fprintf(numpy_in, "%s %s %s %s %s\n", op, dt, shape, in_path, out_path);
    fflush(numpy_in);
    char reply[16] = "";
    if (!fgets(reply, sizeof(reply), numpy_out) || strcmp(reply, "ok\n") != 0)
        fail_msg("the numpy reference process failed on %s %s %s", op, dt, shape);
    double *y = malloc(2 * points * sizeof(double));
    assert_non_null(y);
    f = fopen(out_path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(y, sizeof(double), 2 * points, f), 2 * points);
    fclose(f);
    return y;
}

static uint64_t rng_state = 0x2545f4914f6cdd1dull;
static double rnd(void) { /* uniform in [-1, 1) */
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng_state >> 11) * 0x1p-52 - 1.0;
}

static double worst_share[2]; /* worst error / bound per precision, printed at the end */

/* One transform as the daemons run it: type, shape (basic layout), sign
 * (complex-to-complex only) and placement, and its arrays' sizes. */
typedef struct fft_case {
    trnfftType type;
    int rank;
    const int *dims;
    int dir; /* TRNFFT_FORWARD or TRNFFT_INVERSE */
    int inplace;
    size_t ibytes, obytes;
} fft_case;

static int is_double(trnfftType t) {
    return t == TRNFFT_Z2Z || t == TRNFFT_D2Z || t == TRNFFT_Z2D;
}

static size_t points_of(int rank, const int *dims) {
    size_t N = 1;
    for (int d = 0; d < rank; d++)
        N *= (size_t)dims[d];
    return N;
}

/* count values uniform in [-1, 1), in double or float. */
static void *random_values(int dbl, size_t count) {
    void *x = malloc(count * (dbl ? 8 : 4));
    assert_non_null(x);
    for (size_t i = 0; i < count; i++) {
        if (dbl)
            ((double *)x)[i] = rnd();
        else
            ((float *)x)[i] = (float)rnd();
    }
    return x;
}

static trnfftResult exec_plan(trnfftHandle plan, const fft_case *c, void *in, void *out) {
    switch (c->type) {
    case TRNFFT_Z2Z: return trnfftExecZ2Z(plan, in, out, c->dir);
    case TRNFFT_C2C: return trnfftExecC2C(plan, in, out, c->dir);
    case TRNFFT_D2Z: return trnfftExecD2Z(plan, in, out);
    case TRNFFT_R2C: return trnfftExecR2C(plan, in, out);
    case TRNFFT_Z2D: return trnfftExecZ2D(plan, in, out);
    case TRNFFT_C2R: return trnfftExecC2R(plan, in, out);
    }
    return TRNFFT_INVALID_TYPE;
}

/* Runs c on x on each daemon: got[d] (malloc'd, obytes) is daemon d's
 * output. */
static void run_on_daemons(const fft_case *c, const void *x, void *got[NDAEMONS]) {
    for (int d = 0; d < NDAEMONS; d++) {
        trnsciDeviceReset();
        assert_int_equal(trnsciInit(daemons[d].unix_addr), trnsciSuccess);
        void *din = NULL, *dout = NULL;
        assert_int_equal(trnsciMalloc(&din, c->ibytes), trnsciSuccess);
        if (c->inplace)
            dout = din;
        else
            assert_int_equal(trnsciMalloc(&dout, c->obytes), trnsciSuccess);
        assert_int_equal(trnsciMemcpy(din, x, c->ibytes, trnsciMemcpyHostToDevice), trnsciSuccess);
        trnfftHandle plan;
        int n[3] = {c->dims[0], c->rank > 1 ? c->dims[1] : 0, c->rank > 2 ? c->dims[2] : 0};
        assert_int_equal(trnfftPlanMany(&plan, c->rank, n, NULL, 1, 0, NULL, 1, 0, c->type, 1),
                         TRNFFT_SUCCESS);
        if (exec_plan(plan, c, din, dout) != TRNFFT_SUCCESS)
            fail_msg("exec: %s", trnsciGetLastErrorMessage());
        got[d] = malloc(c->obytes);
        assert_non_null(got[d]);
        assert_int_equal(trnsciMemcpy(got[d], dout, c->obytes, trnsciMemcpyDeviceToHost),
                         trnsciSuccess);
        assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
        assert_int_equal(trnfftDestroy(plan), TRNFFT_SUCCESS);
        assert_int_equal(trnsciFree(din), trnsciSuccess);
        if (!c->inplace)
            assert_int_equal(trnsciFree(dout), trnsciSuccess);
    }
}

/* The outputs of c on every daemon are bitwise alike, and the first (count
 * values) within 8 log2(N) u of ref, N the transform's points; then frees
 * them. */
static void compare(const fft_case *c, void *got[NDAEMONS], const double *ref, size_t count) {
    static const char *const names[] = {
        [TRNFFT_Z2Z] = "Z2Z", [TRNFFT_C2C] = "C2C", [TRNFFT_D2Z] = "D2Z",
        [TRNFFT_R2C] = "R2C", [TRNFFT_Z2D] = "Z2D", [TRNFFT_C2R] = "C2R"};
    const int dbl = is_double(c->type);
    const int c2c = c->type == TRNFFT_Z2Z || c->type == TRNFFT_C2C;
    char what[96];
    size_t w = (size_t)snprintf(what, sizeof(what), "%s %s%d", names[c->type],
                                !c2c                       ? ""
                                : c->dir == TRNFFT_INVERSE ? "inverse "
                                                           : "forward ",
                                c->dims[0]);
    for (int d = 1; d < c->rank && w < sizeof(what); d++)
        w += (size_t)snprintf(what + w, sizeof(what) - w, "x%d", c->dims[d]);
    if (c->inplace && w < sizeof(what))
        snprintf(what + w, sizeof(what) - w, " in place");
    for (int d = 1; d < NDAEMONS; d++)
        if (memcmp(got[0], got[d], c->obytes) != 0)
            fail_msg("%s: the result on %d cores differs from the one on 1", what, d + 1);
    double num = 0.0, den = 0.0;
    for (size_t i = 0; i < count; i++) {
        const double g = dbl ? ((double *)got[0])[i] : (double)((float *)got[0])[i];
        num += (g - ref[i]) * (g - ref[i]);
        den += ref[i] * ref[i];
    }
    const double rel = sqrt(num / den);
    const double tol = 8.0 * log2((double)points_of(c->rank, c->dims)) * (dbl ? 0x1p-53 : 0x1p-24);
    if (rel / tol > worst_share[dbl])
        worst_share[dbl] = rel / tol;
    if (!(rel <= tol))
        fail_msg("%s: relative error %.3g above the bound %.3g", what, rel, tol);
    for (int d = 0; d < NDAEMONS; d++)
        free(got[d]);
}

/* One transform of dims (basic layout) on each daemon: bitwise alike, and
 * within 8 log2(N) u of numpy's. */
static void check(int dbl, int rank, const int *dims, int inverse, int inplace) {
    const size_t N = points_of(rank, dims), bytes = N * (dbl ? 16 : 8);
    void *x = random_values(dbl, 2 * N), *got[NDAEMONS];
    const fft_case c = {dbl ? TRNFFT_Z2Z : TRNFFT_C2C,
                        rank,
                        dims,
                        inverse ? TRNFFT_INVERSE : TRNFFT_FORWARD,
                        inplace,
                        bytes,
                        bytes};
    run_on_daemons(&c, x, got);
    double *ref = numpy_ref(inverse ? "ifft" : "fft", dbl ? "complex128" : "complex64", x, bytes,
                            rank, dims, N);
    compare(&c, got, ref, 2 * N);
    free(ref);
    free(x);
}

/* The rows of the last dimension (last values each) of src into rows of
 * pad values of dst: cuFFT's in-place real layout. */
static void pad_rows(const void *src, void *dst, size_t rows, size_t last, size_t pad, size_t rs) {
    for (size_t r = 0; r < rows; r++)
        memcpy((char *)dst + r * pad * rs, (const char *)src + r * last * rs, last * rs);
}

/* One R2C (dbl 0) or D2Z transform on each daemon, out of place or in
 * place (the real rows padded to 2 (last / 2 + 1)): bitwise alike, and
 * within 8 log2(N) u of numpy's rfftn. */
static void check_real_at(int dbl, int rank, const int *dims, int inplace) {
    const size_t N = points_of(rank, dims), last = (size_t)dims[rank - 1];
    const size_t M = N / last * (last / 2 + 1);
    const size_t rs = dbl ? 8 : 4;
    void *x = random_values(dbl, N), *got[NDAEMONS];
    void *xi = x;
    if (inplace) {
        xi = calloc(2 * M, rs);
        assert_non_null(xi);
        pad_rows(x, xi, N / last, last, 2 * (last / 2 + 1), rs);
    }
    const fft_case c = {dbl ? TRNFFT_D2Z : TRNFFT_R2C, rank,      dims, TRNFFT_FORWARD, inplace,
                        inplace ? 2 * M * rs : N * rs, 2 * M * rs};
    run_on_daemons(&c, xi, got);
    double *ref = numpy_ref("rfft", dbl ? "float64" : "float32", x, N * rs, rank, dims, M);
    compare(&c, got, ref, 2 * M);
    free(ref);
    if (xi != x)
        free(xi);
    free(x);
}

static void check_real(int dbl, int rank, const int *dims) {
    check_real_at(dbl, rank, dims, 0);
}

/* One C2R (dbl 0) or Z2D transform of dims (the last even) on each
 * daemon, out of place or in place (the result's real rows padded to
 * 2 (last / 2 + 1)), of the Hermitian half of a real array's transform
 * (numpy's rfftn): bitwise alike, and within 8 log2(N) u of numpy's
 * irfftn times N. */
static void check_c2r_at(int dbl, int rank, const int *dims, int inplace) {
    const size_t N = points_of(rank, dims), rs = dbl ? 8 : 4;
    const size_t M = N / (size_t)dims[rank - 1] * (size_t)(dims[rank - 1] / 2 + 1);
    double *r = random_values(1, N);
    int half[3];
    for (int d = 0; d < rank; d++)
        half[d] = d + 1 < rank ? dims[d] : dims[d] / 2 + 1;
    double *h = numpy_ref("rfft", "float64", r, N * sizeof(double), rank, dims, M);
    void *x = malloc(2 * M * rs), *got[NDAEMONS];
    assert_non_null(x);
    for (size_t i = 0; i < 2 * M; i++) {
        if (dbl)
            ((double *)x)[i] = h[i];
        else
            ((float *)x)[i] = (float)h[i];
    }
    const fft_case c = {
        dbl ? TRNFFT_Z2D : TRNFFT_C2R, rank, dims, TRNFFT_INVERSE, inplace, 2 * M * rs,
        inplace ? 2 * M * rs : N * rs};
    run_on_daemons(&c, x, got);
    /* numpy's result is complex128 of N / 2 elements' bytes: N doubles. */
    double *ref =
        numpy_ref("irfft", dbl ? "complex128" : "complex64", x, c.ibytes, rank, half, N / 2);
    if (inplace) { /* the padded rows packed, in place (rows only move down) */
        const size_t last = (size_t)dims[rank - 1];
        for (int d = 0; d < NDAEMONS; d++)
            for (size_t r = 0; r < N / last; r++)
                memmove((char *)got[d] + r * last * rs,
                        (const char *)got[d] + r * 2 * (last / 2 + 1) * rs, last * rs);
    }
    compare(&c, got, ref, N);
    free(ref);
    free(h);
    free(r);
    free(x);
}

static void check_c2r(int dbl, int rank, const int *dims) {
    check_c2r_at(dbl, rank, dims, 0);
}

static void test_real(void **state) {
    (void)state;
    const int a[2] = {512, 640}, b[3] = {64, 64, 80}, c[1] = {1 << 18}, d[1] = {3 << 18};
    check_real(1, 2, a);
    check_real(0, 3, b);
    check_real(1, 1, c);
    check_real(0, 1, d);
    const int e[1] = {1 << 18}, f[1] = {3 << 18};
    check_c2r(1, 1, e);
    check_c2r(0, 1, f);
    check_c2r(1, 2, a); /* 2D and 3D: pencils on the input, then the slabs */
    check_c2r(0, 3, b);
    /* In place (2D/3D): each padded real slab is its Hermitian half's bytes. */
    check_real_at(0, 2, a, 1);
    check_real_at(1, 3, b, 1);
    check_c2r_at(0, 2, a, 1);
    check_c2r_at(1, 3, b, 1);
    /* In place (1D): the columns through the op's scratch array. */
    check_real_at(1, 1, c, 1);
    check_real_at(0, 1, d, 1);
    check_c2r_at(1, 1, e, 1);
    check_c2r_at(0, 1, f, 1);
}

static void test_1d(void **state) {
    (void)state;
    const int a[1] = {1 << 18}, b[1] = {3 << 17}, c[1] = {1 << 20};
    check(1, 1, a, 0, 0);
    check(1, 1, b, 1, 0);
    check(0, 1, c, 0, 0);
}

static void test_multi_dim(void **state) {
    (void)state;
    const int a[2] = {512, 640}, b[3] = {64, 64, 80}, c[3] = {64, 64, 64};
    check(1, 2, a, 0, 0);
    check(1, 2, a, 1, 1);
    check(1, 3, b, 1, 0);
    check(0, 3, c, 0, 0);
}

static void test_in_place(void **state) {
    (void)state;
    const int a[1] = {1 << 18}, b[1] = {3 << 17};
    check(1, 1, a, 0, 1);
    check(0, 1, b, 1, 1);
}

/* An in-place 1D transform whose scratch array the session's quota has no
 * room for is refused with the quota's message (cuFFT's allocation
 * failure), and the daemon goes on. */
static void test_scratch_quota(void **state) {
    (void)state;
    trnsciDeviceReset();
    assert_int_equal(trnsciInit(small.unix_addr), trnsciSuccess);
    const size_t n = (size_t)1 << 18, bytes = n * 16; /* 4 MiB; the scratch 4 more */
    void *buf = NULL;
    assert_int_equal(trnsciMalloc(&buf, bytes), trnsciSuccess);
    assert_int_equal(trnsciMemset(buf, 0, bytes), trnsciSuccess);
    trnfftHandle plan;
    assert_int_equal(trnfftPlan1d(&plan, (int)n, TRNFFT_Z2Z, 1), TRNFFT_SUCCESS);
    const trnfftResult r = trnfftExecZ2Z(plan, buf, buf, TRNFFT_FORWARD);
    if (r == TRNFFT_SUCCESS) /* an asynchronous launch: the refusal comes with the sync */
        assert_int_not_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    else
        assert_int_equal(r, TRNFFT_ALLOC_FAILED);
    if (!strstr(trnsciGetLastErrorMessage(), "scratch array"))
        fail_msg("message: %s", trnsciGetLastErrorMessage());
    /* A C2C one's scratch (2 MiB beside its 2 MiB) fits, and goes back to the
     * quota with the op: three in a row run. */
    trnsciDeviceReset();
    assert_int_equal(trnsciInit(small.unix_addr), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&buf, bytes / 2), trnsciSuccess);
    assert_int_equal(trnsciMemset(buf, 0, bytes / 2), trnsciSuccess);
    assert_int_equal(trnfftPlan1d(&plan, (int)n, TRNFFT_C2C, 1), TRNFFT_SUCCESS);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(trnfftExecC2C(plan, buf, buf, TRNFFT_FORWARD), TRNFFT_SUCCESS);
        if (trnsciDeviceSynchronize() != trnsciSuccess)
            fail_msg("in-place C2C %d: %s", i, trnsciGetLastErrorMessage());
    }
    trnsciDeviceReset();
    trnsciDaemonStatus st;
    assert_int_equal(trnsciDaemonGetStatus(small.unix_addr, &st), trnsciSuccess);
}

static void test_not_split(void **state) {
    (void)state;
    const int prime[1] = {262147};
    check(1, 1, prime, 1, 0);
}

int main(void) {
    snprintf(work_dir, sizeof(work_dir), "/tmp/trnsci-pfft-XXXXXX");
    if (!mkdtemp(work_dir)) {
        perror("mkdtemp");
        return 1;
    }
    const char *const estimate[] = {"--plan-effort", "estimate", NULL};
    if (th_daemons_start(daemons, NDAEMONS, estimate) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_1d),        cmocka_unit_test(test_multi_dim),
        cmocka_unit_test(test_in_place),  cmocka_unit_test(test_real),
        cmocka_unit_test(test_not_split), cmocka_unit_test(test_scratch_quota),
    };
    /* --convert-ahead off changes GEMM conversions only: the scratch
     * arrays still come from the op scratch pool, charged to the quota. */
    const char *const quota[] = {
        "--cores", "1", "--max-session-bytes", "6M", "--plan-effort", "estimate", "--convert-ahead",
        "off",     NULL};
    if (th_daemon_start(&small, quota) != 0) {
        fprintf(stderr, "could not start trnscid (6M quota)\n");
        return 1;
    }
    int failed = cmocka_run_group_tests_name("parallel single FFTs", tests, NULL, NULL);
    numpy_coproc_stop(&numpy_in, &numpy_out, numpy_pid);
    printf("worst relative error / bound (8 log2(N) u): single %.3f, double %.3f\n", worst_share[0],
           worst_share[1]);
    failed += th_daemons_stop_checked(daemons, NDAEMONS, "trnscid");
    failed += th_daemon_stop_checked(&small, "trnscid --max-session-bytes 6M");
    th_remove_dir(work_dir);
    return failed ? 1 : 0;
}
