/*
 * test_fft_xt.c — trnfft's work-area calls (trnfftGetSize*, trnfftEstimate*,
 * trnfftSetWorkArea, trnfftSetAutoAllocation), the 64-bit plan call
 * (trnfftMakePlanMany64), through real trnscids, against numpy.fft.
 *
 * Reference: numpy (Debian's /usr/bin/python3) in double precision on the
 * values actually stored in device memory, by one numpy process that serves
 * the whole run.
 *
 * Tolerance (error analysis, as in test_fft.c): an FFT computed in a
 * precision with unit roundoff u has a relative 2-norm error per transform
 * of at most c·log2(N)·u with a small c (Higham, "Accuracy and Stability of
 * Numerical Algorithms", §24.1); the test allows 8·log2(max(N, 2))·u with
 * u = 2^-24 (float) or 2^-53 (double), N the product of the sizes.
 *
 * Cases, over the local transport and over gRPC (a 2-core daemon planning
 * with FFTW_ESTIMATE):
 *  - every work-area size is 0, before a plan (GetSize1d/2d/3d/Many/Many64,
 *    Estimate1d/2d/3d/Many) and after it (GetSize); a program that turns
 *    auto-allocation off, allocates the (empty) work area and sets it gets
 *    numpy's results;
 *  - trnfftMakePlanMany64 in the basic and an advanced layout (strided,
 *    embedded input with padding that must stay untouched in the output);
 *  - bad input: sizes and batch beyond 2^31 - 1 (TRNFFT_INVALID_SIZE), a
 *    stride beyond it (TRNFFT_INVALID_VALUE), a NULL workSize, an unknown
 *    type, rank 4, embeds not in pairs, handles that are not live.
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
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "trnsci/trnfft.h"
#include "trnsci/trnsci.h"

static th_daemon daemon2;   /* --cores 2, estimate */
static char grpc_addr[300]; /* grpc+unix: of daemon2 */
static char work_dir[64];

typedef struct target {
    const char *addr;
} target;
static target local_t, grpc_t;

/* ---- the numpy reference ------------------------------------------------------ */

/* One request per line: "op shape in out nlast"; input and output are
 * float64 files (complex values as interleaved pairs), contiguous
 * batch x dims. Answers "ok" once the output is written. */
static const char *const numpy_script =
    "import numpy as np, sys\n"
    "while True:\n"
    "    line = sys.stdin.readline()\n"
    "    if not line: break\n"
    "    op, shape, inp, out, nl = line.split()\n"
    "    shape = tuple(int(x) for x in shape.split('x'))\n"
    "    x = np.fromfile(inp, dtype=np.float64)\n"
    "    if op != 'rfft': x = x.view(np.complex128)\n"
    "    x = x.reshape(shape)\n"
    "    axes = tuple(range(1, len(shape)))\n"
    "    if op == 'fft': y = np.fft.fftn(x, axes=axes)\n"
    "    elif op == 'ifft': y = np.fft.ifftn(x, axes=axes) * np.prod(shape[1:])\n"
    "    elif op == 'rfft': y = np.fft.rfftn(x, axes=axes)\n"
    "    else:\n"
    "        s = shape[1:-1] + (int(nl),)\n"
    "        y = np.fft.irfftn(x, s=s, axes=axes) * np.prod(s)\n"
    "    y = np.ascontiguousarray(y)\n"
    "    if y.dtype.kind == 'c': y = y.astype(np.complex128).view(np.float64)\n"
    "    y.astype(np.float64).tofile(out)\n"
    "    sys.stdout.write('ok\\n')\n"
    "    sys.stdout.flush()\n";

static FILE *numpy_in, *numpy_out;
static pid_t numpy_pid;

static void numpy_start(void) {
    char script[128];
    snprintf(script, sizeof(script), "%s/ref.py", work_dir);
    FILE *f = fopen(script, "w");
    assert_non_null(f);
    fputs(numpy_script, f);
    fclose(f);
    int to[2], from[2];
    assert_int_equal(pipe2(to, O_CLOEXEC), 0);
    assert_int_equal(pipe2(from, O_CLOEXEC), 0);
    numpy_pid = fork();
    assert_true(numpy_pid >= 0);
    if (numpy_pid == 0) {
        dup2(to[0], STDIN_FILENO); /* dup2 clears close-on-exec */
        dup2(from[1], STDOUT_FILENO);
        execl("/usr/bin/python3", "/usr/bin/python3", script, (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    numpy_in = fdopen(to[1], "w");
    numpy_out = fdopen(from[0], "r");
    assert_non_null(numpy_in);
    assert_non_null(numpy_out);
}

static void numpy_stop(void) {
    if (!numpy_in)
        return;
    fclose(numpy_in);
    fclose(numpy_out);
    waitpid(numpy_pid, NULL, 0);
    numpy_in = numpy_out = NULL;
}

/* numpy's `op` ("fft", "ifft", "rfft", "irfft") of x (in_doubles float64,
 * contiguous batch x dims); returns out_doubles float64, malloc'd. */
static double *numpy_ref(const char *op, const double *x, size_t in_doubles, int batch, int rank,
                         const int *dims, int nlast, size_t out_doubles) {
    char in_path[128], out_path[128], shape[96];
    snprintf(in_path, sizeof(in_path), "%s/in.bin", work_dir);
    snprintf(out_path, sizeof(out_path), "%s/out.bin", work_dir);
    int w = snprintf(shape, sizeof(shape), "%d", batch);
    for (int d = 0; d < rank; d++)
        w += snprintf(shape + w, sizeof(shape) - (size_t)w, "x%d", dims[d]);
    FILE *f = fopen(in_path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(x, sizeof(double), in_doubles, f), in_doubles);
    fclose(f);
    if (!numpy_in)
        numpy_start();
    fprintf(numpy_in, "%s %s %s %s %d\n", op, shape, in_path, out_path, nlast);
    fflush(numpy_in);
    char reply[16] = "";
    if (!fgets(reply, sizeof(reply), numpy_out) || strcmp(reply, "ok\n") != 0)
        fail_msg("the numpy reference process failed on %s %s", op, shape);
    double *y = malloc(out_doubles * sizeof(double));
    assert_non_null(y);
    f = fopen(out_path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(y, sizeof(double), out_doubles, f), out_doubles);
    fclose(f);
    return y;
}

static uint64_t rng_state = 0x2545f4914f6cdd1dull;
static double rnd(void) { /* uniform in [-1, 1) */
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng_state >> 11) * 0x1p-52 - 1.0;
}

/* ---- storage types ------------------------------------------------------------ */

/* How a real scalar is stored: its bytes, its unit roundoff and its
 * conversions (exact from storage to double; to storage rounded to
 * nearest). */
typedef enum store { ST_64F, ST_32F } store;

static size_t store_bytes(store s) {
    return s == ST_64F ? 8 : 4;
}

static double store_u(store s) {
    return s == ST_64F ? 0x1p-53 : 0x1p-24;
}

static void store_put(store s, void *base, size_t i, double v) {
    if (s == ST_64F)
        ((double *)base)[i] = v;
    else
        ((float *)base)[i] = (float)v;
}

static double store_get(store s, const void *base, size_t i) {
    return s == ST_64F ? ((const double *)base)[i] : (double)((const float *)base)[i];
}

/* The error bound of a transform of N points computed in precision u_c
 * and stored in s: 8·log2(N)·u_c (the computation; test_fft.c's bound). */
static double tol_for(double N, store s) {
    const double l = log2(N > 2 ? N : 2);
    return 8.0 * l * store_u(s);
}

/* ---- one case ----------------------------------------------------------------- */

typedef enum kind { K_C2C, K_R2C, K_C2R } kind;

/* A side's layout: logical sizes m[] (the complex side of a real transform
 * is Hermitian-halved), storage embed[], stride, dist, complex or not. */
typedef struct side {
    int rank, m[3], embed[3], stride;
    size_t dist;
    int cplx;
} side;

static size_t side_elems(const side *s) { /* logical elements of one transform */
    size_t e = 1;
    for (int d = 0; d < s->rank; d++)
        e *= (size_t)s->m[d];
    return e;
}

/* Storage position (elements) of logical element i (row-major over m) of
 * transform b. */
static size_t side_pos(const side *s, int b, size_t i) {
    size_t off = 0, scale = 1;
    for (int d = s->rank - 1; d >= 0; d--) {
        off += (i % (size_t)s->m[d]) * scale;
        i /= (size_t)s->m[d];
        scale *= (size_t)s->embed[d];
    }
    return (size_t)b * s->dist + off * (size_t)s->stride;
}

static size_t side_extent(const side *s, int batch) { /* elements */
    return side_pos(s, batch - 1, side_elems(s) - 1) + 1;
}

/* The plan's arguments: n[], batch and, for an advanced layout, the embeds
 * (NULL: the basic layout), strides and distances. */
typedef struct layout {
    int rank;
    long long n[3];
    long long batch;
    const long long *inembed, *onembed;
    long long istride, idist, ostride, odist;
} layout;

/* The two sides of a layout (the basic layout's as cuFFT defines it,
 * in-place real rows padded to 2(n/2+1)). */
static void sides_of(const layout *L, kind k, int inplace, side *in, side *out) {
    side *s[2] = {in, out};
    for (int j = 0; j < 2; j++) {
        const int cplx = j == 0 ? k != K_R2C : k != K_C2R;
        side *x = s[j];
        memset(x, 0, sizeof(*x));
        x->rank = L->rank;
        x->cplx = cplx;
        for (int d = 0; d < L->rank; d++)
            x->m[d] = (int)L->n[d];
        if (k != K_C2C && cplx)
            x->m[L->rank - 1] = (int)(L->n[L->rank - 1] / 2 + 1);
        const long long *emb = j == 0 ? L->inembed : L->onembed;
        if (emb) {
            for (int d = 0; d < L->rank; d++)
                x->embed[d] = (int)emb[d];
            x->stride = (int)(j == 0 ? L->istride : L->ostride);
            x->dist = (size_t)(j == 0 ? L->idist : L->odist);
        } else {
            for (int d = 0; d < L->rank; d++)
                x->embed[d] = x->m[d];
            if (inplace && !cplx && k != K_C2C)
                x->embed[L->rank - 1] = (int)(2 * (L->n[L->rank - 1] / 2 + 1));
            x->stride = 1;
            x->dist = 1;
            for (int d = 0; d < L->rank; d++)
                x->dist *= (size_t)x->embed[d];
        }
    }
}

/* Makes the plan of the case on a fresh handle with the call under test. */
typedef trnfftResult (*make_fn)(trnfftHandle h, const layout *L, kind k, store s, size_t *ws);

/* Runs the transform with the call under test. */
typedef trnfftResult (*exec_fn)(trnfftHandle h, kind k, store s, void *in, void *out, int dir);

static trnfftType type_of(kind k, store s) {
    if (s == ST_64F)
        return k == K_C2C ? TRNFFT_Z2Z : k == K_R2C ? TRNFFT_D2Z : TRNFFT_Z2D;
    return k == K_C2C ? TRNFFT_C2C : k == K_R2C ? TRNFFT_R2C : TRNFFT_C2R;
}

static trnfftResult make_many64(trnfftHandle h, const layout *L, kind k, store s, size_t *ws) {
    long long n[3];
    memcpy(n, L->n, sizeof(n));
    return trnfftMakePlanMany64(h, L->rank, n, (long long *)L->inembed, L->istride, L->idist,
                                (long long *)L->onembed, L->ostride, L->odist, type_of(k, s),
                                L->batch, ws);
}

static trnfftResult exec_legacy(trnfftHandle h, kind k, store s, void *in, void *out, int dir) {
    switch (type_of(k, s)) {
    case TRNFFT_C2C: return trnfftExecC2C(h, in, out, dir);
    case TRNFFT_Z2Z: return trnfftExecZ2Z(h, in, out, dir);
    case TRNFFT_R2C: return trnfftExecR2C(h, in, out);
    case TRNFFT_D2Z: return trnfftExecD2Z(h, in, out);
    case TRNFFT_C2R: return trnfftExecC2R(h, in, out);
    case TRNFFT_Z2D: return trnfftExecZ2D(h, in, out);
    }
    return TRNFFT_INVALID_TYPE;
}

#define PAD_BYTE 0x5a

/* Runs one case and checks every transform against numpy; outside an
 * in-place transform, output storage that is no transform's element must
 * keep its padding. With `work_area`, the program manages the work area as
 * a cuFFT program that turns auto-allocation off does. */
static void check_case(make_fn make, exec_fn run, const layout *L, kind k, store s, int dir,
                       int inplace, int work_area) {
    const int batch = (int)L->batch;
    side in, out;
    sides_of(L, k, inplace, &in, &out);
    const size_t rs = store_bytes(s);
    const size_t ies = rs * (in.cplx ? 2 : 1), oes = rs * (out.cplx ? 2 : 1);
    const size_t ib = side_extent(&in, batch) * ies, ob = side_extent(&out, batch) * oes;
    const size_t dev_bytes = inplace ? (ib > ob ? ib : ob) : ib;
    const size_t ie = side_elems(&in), oe = side_elems(&out);
    const size_t in_doubles = ie * (in.cplx ? 2 : 1) * (size_t)batch;
    const size_t out_doubles = oe * (out.cplx ? 2 : 1) * (size_t)batch;
    int dims[3], nl = (int)L->n[L->rank - 1];
    for (int d = 0; d < L->rank; d++)
        dims[d] = (int)L->n[d];

    /* Input: random values (C2R: numpy's rfft of random reals, Hermitian),
     * rounded to the storage type; xin holds the stored values exactly. */
    double *xin = malloc(in_doubles * sizeof(double));
    assert_non_null(xin);
    if (k == K_C2R) {
        const size_t nr = (size_t)batch * oe;
        double *r = malloc(nr * sizeof(double));
        for (size_t i = 0; i < nr; i++)
            r[i] = rnd();
        double *h = numpy_ref("rfft", r, nr, batch, L->rank, dims, nl, in_doubles);
        memcpy(xin, h, in_doubles * sizeof(double));
        free(h);
        free(r);
    } else {
        for (size_t i = 0; i < in_doubles; i++)
            xin[i] = rnd();
    }
    unsigned char *img = malloc(dev_bytes);
    assert_non_null(img);
    memset(img, PAD_BYTE, dev_bytes);
    const int ic = in.cplx ? 2 : 1, oc = out.cplx ? 2 : 1;
    for (int b = 0; b < batch; b++)
        for (size_t i = 0; i < ie; i++)
            for (int c = 0; c < ic; c++) {
                const size_t at = side_pos(&in, b, i) * (size_t)ic + (size_t)c;
                double *v = &xin[((size_t)b * ie + i) * (size_t)ic + (size_t)c];
                store_put(s, img, at, *v);
                *v = store_get(s, img, at);
            }
    void *din = NULL, *dout = NULL;
    assert_int_equal(trnsciMalloc(&din, dev_bytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(din, img, dev_bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    unsigned char *pad = malloc(ob);
    assert_non_null(pad);
    memset(pad, PAD_BYTE, ob);
    if (inplace)
        dout = din;
    else {
        assert_int_equal(trnsciMalloc(&dout, ob), trnsciSuccess);
        assert_int_equal(trnsciMemcpy(dout, pad, ob, trnsciMemcpyHostToDevice), trnsciSuccess);
    }

    trnfftHandle h;
    assert_int_equal(trnfftCreate(&h), TRNFFT_SUCCESS);
    void *work = (void *)1;
    if (work_area)
        assert_int_equal(trnfftSetAutoAllocation(h, 0), TRNFFT_SUCCESS);
    size_t ws = 12345;
    if (make(h, L, k, s, &ws) != TRNFFT_SUCCESS)
        fail_msg("make plan: %s", trnsciGetLastErrorMessage());
    assert_int_equal(ws, 0);
    if (work_area) {
        size_t ws2 = 777;
        assert_int_equal(trnfftGetSize(h, &ws2), TRNFFT_SUCCESS);
        assert_int_equal(ws2, 0);
        assert_int_equal(trnsciMalloc(&work, ws2), trnsciSuccess);
        assert_int_equal(trnfftSetWorkArea(h, work), TRNFFT_SUCCESS);
    }
    if (run(h, k, s, din, dout, dir) != TRNFFT_SUCCESS)
        fail_msg("exec: %s", trnsciGetLastErrorMessage());
    unsigned char *got = malloc(ob);
    assert_non_null(got);
    assert_int_equal(trnsciMemcpy(got, dout, ob, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);

    const char *op = k == K_R2C ? "rfft" : k == K_C2R ? "irfft" : dir > 0 ? "ifft" : "fft";
    int rdims[3];
    memcpy(rdims, in.m, sizeof(rdims)); /* numpy gets the input's logical shape */
    double *ref = numpy_ref(op, xin, in_doubles, batch, L->rank, rdims, nl, out_doubles);
    double N = 1;
    for (int d = 0; d < L->rank; d++)
        N *= (double)L->n[d];
    const double tol = tol_for(N, s);
    for (int b = 0; b < batch; b++) {
        double num = 0, den = 0;
        for (size_t i = 0; i < oe; i++)
            for (int c = 0; c < oc; c++) {
                const double g = store_get(s, got, side_pos(&out, b, i) * (size_t)oc + (size_t)c);
                const double w = ref[((size_t)b * oe + i) * (size_t)oc + (size_t)c];
                num += (g - w) * (g - w);
                den += w * w;
            }
        const double rel = den > 0 ? sqrt(num / den) : sqrt(num);
        if (!(rel <= tol))
            fail_msg("%s rank %d n[0] %lld batch %d %s: transform %d relative error %.3g > %.3g",
                     op, L->rank, L->n[0], batch, inplace ? "in place" : "out of place", b, rel,
                     tol);
    }
    if (!inplace) { /* storage that is no output element keeps its padding */
        unsigned char *mark = calloc(1, ob);
        assert_non_null(mark);
        for (int b = 0; b < batch; b++)
            for (size_t i = 0; i < oe; i++)
                memset(mark + side_pos(&out, b, i) * oes, 1, oes);
        for (size_t i = 0; i < ob; i++)
            if (!mark[i] && got[i] != PAD_BYTE)
                fail_msg("%s: byte %zu of the output, outside every transform, was written", op, i);
        free(mark);
    }
    assert_int_equal(trnfftDestroy(h), TRNFFT_SUCCESS);
    if (work_area)
        assert_int_equal(trnsciFree(work), trnsciSuccess);
    assert_int_equal(trnsciFree(din), trnsciSuccess);
    if (!inplace)
        assert_int_equal(trnsciFree(dout), trnsciSuccess);
    free(ref);
    free(got);
    free(pad);
    free(img);
    free(xin);
}

/* ---- tests -------------------------------------------------------------------- */

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

#define expect(call, want, needle) expect_at(__LINE__, (call), (want), (needle))
static void expect_at(int line, trnfftResult got, trnfftResult want, const char *needle) {
    if (got != want)
        fail_msg("line %d: got %s, want %s (%s)", line, trnfftGetStatusName(got),
                 trnfftGetStatusName(want), trnsciGetLastErrorMessage());
    if (needle && !strstr(trnsciGetLastErrorMessage(), needle))
        fail_msg("line %d: message \"%s\" does not mention \"%s\"", line,
                 trnsciGetLastErrorMessage(), needle);
}

/* Every work-area size is 0; the queries check their arguments as MakePlan
 * does. */
static void test_work_sizes(void **state) {
    (void)state;
    size_t ws = 99;
    int n[3] = {16, 8, 4}, emb[3] = {16, 8, 4};
    expect(trnfftEstimate1d(1000, TRNFFT_C2C, 7, &ws), TRNFFT_SUCCESS, NULL);
    assert_int_equal(ws, 0);
    ws = 99;
    expect(trnfftEstimate2d(64, 33, TRNFFT_R2C, &ws), TRNFFT_SUCCESS, NULL);
    assert_int_equal(ws, 0);
    ws = 99;
    expect(trnfftEstimate3d(8, 8, 8, TRNFFT_Z2D, &ws), TRNFFT_SUCCESS, NULL);
    assert_int_equal(ws, 0);
    ws = 99;
    expect(trnfftEstimateMany(3, n, emb, 1, 512, emb, 1, 512, TRNFFT_Z2Z, 3, &ws), TRNFFT_SUCCESS,
           NULL);
    assert_int_equal(ws, 0);
    expect(trnfftEstimate1d(0, TRNFFT_C2C, 1, &ws), TRNFFT_INVALID_SIZE, "n[0]");
    expect(trnfftEstimate1d(8, TRNFFT_C2C, 0, &ws), TRNFFT_INVALID_SIZE, "batch");
    expect(trnfftEstimate2d(8, -1, TRNFFT_C2C, &ws), TRNFFT_INVALID_SIZE, "n[1]");
    expect(trnfftEstimate1d(8, (trnfftType)0x77, 1, &ws), TRNFFT_INVALID_TYPE, "type");
    expect(trnfftEstimate1d(8, TRNFFT_C2C, 1, NULL), TRNFFT_INVALID_VALUE, "workSize");
    expect(trnfftEstimateMany(4, n, NULL, 1, 0, NULL, 1, 0, TRNFFT_C2C, 1, &ws),
           TRNFFT_INVALID_VALUE, "rank");
    expect(trnfftEstimateMany(1, n, emb, 1, 16, NULL, 1, 16, TRNFFT_C2C, 1, &ws),
           TRNFFT_INVALID_VALUE, "onembed");

    trnfftHandle h;
    expect(trnfftCreate(&h), TRNFFT_SUCCESS, NULL);
    long long n64[3] = {16, 8, 4}, e64[3] = {16, 8, 4};
    ws = 99;
    expect(trnfftGetSize1d(h, 1000, TRNFFT_C2C, 7, &ws), TRNFFT_SUCCESS, NULL);
    assert_int_equal(ws, 0);
    ws = 99;
    expect(trnfftGetSize2d(h, 64, 33, TRNFFT_D2Z, &ws), TRNFFT_SUCCESS, NULL);
    assert_int_equal(ws, 0);
    ws = 99;
    expect(trnfftGetSize3d(h, 8, 8, 8, TRNFFT_C2R, &ws), TRNFFT_SUCCESS, NULL);
    assert_int_equal(ws, 0);
    ws = 99;
    expect(trnfftGetSizeMany(h, 3, n, emb, 1, 512, emb, 1, 512, TRNFFT_C2C, 3, &ws), TRNFFT_SUCCESS,
           NULL);
    assert_int_equal(ws, 0);
    ws = 99;
    expect(trnfftGetSizeMany64(h, 3, n64, e64, 1, 512, e64, 1, 512, TRNFFT_C2C, 3, &ws),
           TRNFFT_SUCCESS, NULL);
    assert_int_equal(ws, 0);
    long long big[1] = {1LL << 31};
    expect(trnfftGetSizeMany64(h, 1, big, NULL, 1, 0, NULL, 1, 0, TRNFFT_C2C, 1, &ws),
           TRNFFT_INVALID_SIZE, "n[0]");
    expect(trnfftGetSizeMany64(h, 1, n64, NULL, 1, 0, NULL, 1, 0, TRNFFT_C2C, 1LL << 31, &ws),
           TRNFFT_INVALID_SIZE, "batch");
    expect(trnfftGetSize1d(h, 8, TRNFFT_C2C, 1, NULL), TRNFFT_INVALID_VALUE, "workSize");
    expect(trnfftGetSize1d(h, 8, (trnfftType)0, 1, &ws), TRNFFT_INVALID_TYPE, NULL);
    expect(trnfftGetSize1d(123456, 8, TRNFFT_C2C, 1, &ws), TRNFFT_INVALID_PLAN, "live");
    expect(trnfftGetSize2d(-1, 8, 8, TRNFFT_C2C, &ws), TRNFFT_INVALID_PLAN, NULL);
    /* The work-area calls on handles that are not live. */
    expect(trnfftSetWorkArea(123456, NULL), TRNFFT_INVALID_PLAN, "trnfftSetWorkArea");
    expect(trnfftSetAutoAllocation(0, 1), TRNFFT_INVALID_PLAN, "trnfftSetAutoAllocation");
    /* On a live handle without a plan: accepted, any pointer. */
    expect(trnfftSetWorkArea(h, NULL), TRNFFT_SUCCESS, NULL);
    expect(trnfftSetAutoAllocation(h, 1), TRNFFT_SUCCESS, NULL);
    expect(trnfftDestroy(h), TRNFFT_SUCCESS, NULL);
    expect(trnfftSetWorkArea(h, NULL), TRNFFT_INVALID_PLAN, NULL);
    expect(trnfftGetSize1d(h, 8, TRNFFT_C2C, 1, &ws), TRNFFT_INVALID_PLAN, NULL);
    /* No daemon is needed for an estimate. */
    trnsciDeviceReset();
    expect(trnfftEstimate1d(64, TRNFFT_C2C, 1, &ws), TRNFFT_SUCCESS, NULL);
}

/* trnfftMakePlanMany64 in the basic layout, with a user-managed work area,
 * and in an advanced layout. */
static void test_plan_many64(void **state) {
    (void)state;
    layout L = {.rank = 1, .n = {1000}, .batch = 3};
    check_case(make_many64, exec_legacy, &L, K_C2C, ST_32F, TRNFFT_FORWARD, 0, 1);
    check_case(make_many64, exec_legacy, &L, K_R2C, ST_64F, TRNFFT_FORWARD, 1, 1);
    layout L2 = {.rank = 2, .n = {12, 10}, .batch = 2};
    check_case(make_many64, exec_legacy, &L2, K_C2R, ST_32F, TRNFFT_INVERSE, 0, 0);
    /* Strided, embedded input; output padded between transforms. */
    static const long long ie[2] = {0, 13}, oe[2] = {0, 6};
    layout A = {.rank = 2,
                .n = {5, 10},
                .batch = 3,
                .inembed = ie,
                .istride = 2,
                .idist = 2 * 5 * 13 + 3,
                .onembed = oe,
                .ostride = 1,
                .odist = 5 * 6 + 4};
    check_case(make_many64, exec_legacy, &A, K_R2C, ST_64F, TRNFFT_FORWARD, 0, 0);
    static const long long ce[1] = {0};
    layout B = {.rank = 1,
                .n = {64},
                .batch = 4,
                .inembed = ce,
                .istride = 4,
                .idist = 1,
                .onembed = ce,
                .ostride = 1,
                .odist = 70};
    check_case(make_many64, exec_legacy, &B, K_C2C, ST_64F, TRNFFT_INVERSE, 0, 0);
}

static void test_plan_many64_bad(void **state) {
    (void)state;
    trnfftHandle h;
    expect(trnfftCreate(&h), TRNFFT_SUCCESS, NULL);
    size_t ws;
    long long n[2] = {64, 64}, big[1] = {1LL << 31}, emb[2] = {64, 64};
    expect(trnfftMakePlanMany64(h, 1, big, NULL, 1, 0, NULL, 1, 0, TRNFFT_C2C, 1, &ws),
           TRNFFT_INVALID_SIZE, "n[0]");
    expect(trnfftMakePlanMany64(h, 1, n, NULL, 1, 0, NULL, 1, 0, TRNFFT_C2C, 0, &ws),
           TRNFFT_INVALID_SIZE, "batch");
    expect(trnfftMakePlanMany64(h, 1, n, NULL, 1, 0, NULL, 1, 0, TRNFFT_C2C, 1LL << 31, &ws),
           TRNFFT_INVALID_SIZE, "batch");
    expect(trnfftMakePlanMany64(h, 2, n, emb, 1LL << 31, 4096, emb, 1, 4096, TRNFFT_C2C, 1, &ws),
           TRNFFT_INVALID_VALUE, "istride");
    expect(trnfftMakePlanMany64(h, 2, n, emb, 1, 4096, NULL, 1, 4096, TRNFFT_C2C, 1, &ws),
           TRNFFT_INVALID_VALUE, "onembed");
    expect(trnfftMakePlanMany64(h, 0, n, NULL, 1, 0, NULL, 1, 0, TRNFFT_C2C, 1, &ws),
           TRNFFT_INVALID_VALUE, "rank");
    expect(trnfftMakePlanMany64(h, 1, n, NULL, 1, 0, NULL, 1, 0, (trnfftType)1, 1, &ws),
           TRNFFT_INVALID_TYPE, "type");
    expect(trnfftMakePlanMany64(h + 1000, 1, n, NULL, 1, 0, NULL, 1, 0, TRNFFT_C2C, 1, &ws),
           TRNFFT_INVALID_PLAN, "trnfftMakePlanMany64");
    /* A 64-bit call whose values fit makes the plan once. */
    expect(trnfftMakePlanMany64(h, 2, n, NULL, 1, 0, NULL, 1, 0, TRNFFT_C2C, 1, NULL),
           TRNFFT_SUCCESS, NULL);
    expect(trnfftMakePlanMany64(h, 2, n, NULL, 1, 0, NULL, 1, 0, TRNFFT_C2C, 1, &ws),
           TRNFFT_INVALID_PLAN, NULL);
    expect(trnfftDestroy(h), TRNFFT_SUCCESS, NULL);
}

#define ON(fn, t) cmocka_unit_test_setup_teardown(fn, setup_##t, teardown)

int main(void) {
    snprintf(work_dir, sizeof(work_dir), "/tmp/trnsci-fftxt-XXXXXX");
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
        ON(test_work_sizes, local), ON(test_work_sizes, grpc),       ON(test_plan_many64, local),
        ON(test_plan_many64, grpc), ON(test_plan_many64_bad, local), ON(test_plan_many64_bad, grpc),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    numpy_stop();
    const int bad = th_daemon_stop_checked(&daemon2, "trnscid --cores 2");
    th_remove_dir(work_dir);
    return failed || bad;
}
