/*
 * test_fft_xt.c — trnfft's work-area calls (trnfftGetSize*, trnfftEstimate*,
 * trnfftSetWorkArea, trnfftSetAutoAllocation), the 64-bit plan call
 * (trnfftMakePlanMany64) and trnfftXt (trnfftXtMakePlanMany, trnfftXtExec,
 * trnfftXtGetSizeMany) in half, bfloat16, float and double, through real
 * trnscids, against numpy.fft.
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
 * Half and bfloat16 storage computes in float and rounds each stored
 * component to nearest: |fl(y) - y| <= u_s·|y| (u_s = 2^-11 for binary16,
 * 2^-8 for bfloat16) in the normal range, and at most half binary16's
 * subnormal quantum, 2^-25, below it. With the float computation's relative
 * error e_c = 8·log2(N)·2^-24, a transform of M stored components is within
 * (u_s·(1 + e_c) + e_c)·||y|| + sqrt(M)·2^-25 of numpy's (in the 2-norm;
 * the input is the stored values, so the rounding of the input does not
 * count). Separately, single results are checked bit for bit: ties to even,
 * overflow to infinity, subnormals, NaN.
 *
 * Cases, over the local transport and over gRPC (a 2-core daemon planning
 * with FFTW_ESTIMATE):
 *  - every work-area size is 0, before a plan (GetSize1d/2d/3d/Many/Many64,
 *    Estimate1d/2d/3d/Many) and after it (GetSize); a program that turns
 *    auto-allocation off, allocates the (empty) work area and sets it gets
 *    numpy's results;
 *  - trnfftMakePlanMany64 in the basic and an advanced layout (strided,
 *    embedded input with padding that must stay untouched in the output);
 *  - trnfftXt in half and bfloat16: C2C both directions, R2C, C2R, 1D (a
 *    prime size too), 2D and 3D, batched, in place with cuFFT's padded real
 *    rows, advanced layouts (strided, embedded, interleaved) whose padding
 *    must stay untouched; in float and double through the same calls;
 *    trnfftXtExec of a plan from trnfftPlan1d and trnfftExecC2C of a plan
 *    from trnfftXtMakePlanMany;
 *  - bad input: sizes and batch beyond 2^31 - 1 (TRNFFT_INVALID_SIZE), a
 *    stride beyond it (TRNFFT_INVALID_VALUE), a NULL workSize, an unknown
 *    type, rank 4, embeds not in pairs, handles that are not live; type
 *    combinations cufftXtMakePlanMany does not take (TRNFFT_INVALID_TYPE),
 *    trnfftExec* of a half plan, a bad direction, a buffer too small.
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
#include "numpy_coproc.h"
#include "trnsci/trnfft.h"
#include "trnsci/trnfftXt.h"
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
    numpy_coproc_start(work_dir, numpy_script, &numpy_in, &numpy_out, &numpy_pid);
}

static void numpy_stop(void) {
    numpy_coproc_stop(&numpy_in, &numpy_out, numpy_pid);
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
typedef enum store { ST_64F, ST_32F, ST_16F, ST_16BF } store;

static size_t store_bytes(store s) {
    return s == ST_64F ? 8 : s == ST_32F ? 4 : 2;
}

/* Unit roundoff of the storage type. */
static double store_u(store s) {
    return s == ST_64F ? 0x1p-53 : s == ST_32F ? 0x1p-24 : s == ST_16F ? 0x1p-11 : 0x1p-8;
}

/* binary16 bits of v rounded to nearest (v NaN or within binary16's range). */
static uint16_t f16_bits(double v) {
    if (isnan(v))
        return 0x7e00;
    const uint16_t sign = v < 0 ? 0x8000 : 0;
    const double a = fabs(v);
    if (a < 0x1p-14) /* subnormal: multiples of 2^-24 (1024 of them is 2^-14, encoded so) */
        return sign | (uint16_t)nearbyint(a * 0x1p24);
    int e;
    frexp(a, &e);                           /* a = f·2^e, f in [0.5, 1) */
    double q = nearbyint(ldexp(a, 11 - e)); /* 11 significant bits */
    if (q == 2048) {
        q = 1024;
        e++;
    }
    return sign | (uint16_t)((e - 1 + 15) << 10) | (uint16_t)(q - 1024);
}

static double f16_value(uint16_t h) {
    const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    const double v = e == 0    ? ldexp(m, -24)
                     : e == 31 ? (m ? NAN : INFINITY)
                               : ldexp(1024 + m, e - 25);
    return h & 0x8000 ? -v : v;
}

static uint16_t bf16_bits(double v) {
    const float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

static double bf16_value(uint16_t h) {
    const uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

static void store_put(store s, void *base, size_t i, double v) {
    switch (s) {
    case ST_64F: ((double *)base)[i] = v; break;
    case ST_32F: ((float *)base)[i] = (float)v; break;
    case ST_16F: ((uint16_t *)base)[i] = f16_bits(v); break;
    case ST_16BF: ((uint16_t *)base)[i] = bf16_bits(v); break;
    }
}

static double store_get(store s, const void *base, size_t i) {
    switch (s) {
    case ST_64F: return ((const double *)base)[i];
    case ST_32F: return ((const float *)base)[i];
    case ST_16F: return f16_value(((const uint16_t *)base)[i]);
    case ST_16BF: return bf16_value(((const uint16_t *)base)[i]);
    }
    return NAN;
}

/* The error bound of a transform of N points stored in s, relative to the
 * 2-norm of the result: 8·log2(N)·u_c for the computation (u_c the unit
 * roundoff of float for 16-bit storage), plus u_s·(1 + that) for rounding
 * 16-bit results; the absolute term of binary16's subnormals is added by
 * the caller. */
static double tol_for(double N, store s) {
    const double l = log2(N > 2 ? N : 2);
    if (s == ST_64F || s == ST_32F)
        return 8.0 * l * store_u(s);
    const double ec = 8.0 * l * 0x1p-24;
    return store_u(s) * (1 + ec) + ec;
}

/* The worst error seen per storage type, as a fraction of its bound. */
static double worst_share[4];

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

static const char *const store_names[] = {"double", "float", "half", "bfloat16"};

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

/* The data types of cufftXtMakePlanMany for the case. */
static void xt_types(kind k, store s, trnsciDataType *in, trnsciDataType *out,
                     trnsciDataType *exec) {
    static const trnsciDataType real[] = {TRNSCI_R_64F, TRNSCI_R_32F, TRNSCI_R_16F, TRNSCI_R_16BF};
    static const trnsciDataType cplx[] = {TRNSCI_C_64F, TRNSCI_C_32F, TRNSCI_C_16F, TRNSCI_C_16BF};
    *in = k == K_R2C ? real[s] : cplx[s];
    *out = k == K_C2R ? real[s] : cplx[s];
    *exec = cplx[s];
}

static trnfftResult make_xt(trnfftHandle h, const layout *L, kind k, store s, size_t *ws) {
    long long n[3];
    memcpy(n, L->n, sizeof(n));
    trnsciDataType it, ot, et;
    xt_types(k, s, &it, &ot, &et);
    size_t est = 99;
    trnfftResult r =
        trnfftXtGetSizeMany(h, L->rank, n, (long long *)L->inembed, L->istride, L->idist, it,
                            (long long *)L->onembed, L->ostride, L->odist, ot, L->batch, &est, et);
    if (r != TRNFFT_SUCCESS || est != 0)
        return r != TRNFFT_SUCCESS ? r : TRNFFT_INTERNAL_ERROR;
    return trnfftXtMakePlanMany(h, L->rank, n, (long long *)L->inembed, L->istride, L->idist, it,
                                (long long *)L->onembed, L->ostride, L->odist, ot, L->batch, ws,
                                et);
}

static trnfftResult exec_xt(trnfftHandle h, kind k, store s, void *in, void *out, int dir) {
    (void)k, (void)s;
    return trnfftXtExec(h, in, out, dir);
}

/* trnfftPlanMany's plan run by trnfftXtExec (float and double only). */
static trnfftResult make_plan_many(trnfftHandle h, const layout *L, kind k, store s, size_t *ws) {
    int n[3] = {(int)L->n[0], (int)L->n[1], (int)L->n[2]};
    return trnfftMakePlanMany(h, L->rank, n, NULL, 1, 0, NULL, 1, 0, type_of(k, s), (int)L->batch,
                              ws);
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
    /* binary16's subnormals: at most 2^-25 off per component. */
    const double sub = s == ST_16F ? sqrt((double)(oe * (size_t)oc)) * 0x1p-25 : 0;
    for (int b = 0; b < batch; b++) {
        double num = 0, den = 0;
        for (size_t i = 0; i < oe; i++)
            for (int c = 0; c < oc; c++) {
                const double g = store_get(s, got, side_pos(&out, b, i) * (size_t)oc + (size_t)c);
                const double w = ref[((size_t)b * oe + i) * (size_t)oc + (size_t)c];
                num += (g - w) * (g - w);
                den += w * w;
            }
        const double bound = tol + (den > 0 ? sub / sqrt(den) : sub);
        const double rel = den > 0 ? sqrt(num / den) : sqrt(num);
        if (rel / bound > worst_share[s])
            worst_share[s] = rel / bound;
        if (!(rel <= bound))
            fail_msg("%s %s rank %d n[0] %lld batch %d %s: transform %d relative error %.3g > "
                     "%.3g",
                     store_names[s], op, L->rank, L->n[0], batch,
                     inplace ? "in place" : "out of place", b, rel, bound);
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

/* Half and bfloat16 through trnfftXtMakePlanMany + trnfftXtExec. */
static void test_xt_16bit(void **state) {
    (void)state;
    static const long long ie[2] = {0, 13}, oe[2] = {0, 6}, ce[1] = {0};
    for (store s = ST_16F; s <= ST_16BF; s++) {
        layout L = {.rank = 1, .n = {1024}, .batch = 3};
        check_case(make_xt, exec_xt, &L, K_C2C, s, TRNFFT_FORWARD, 0, 0);
        check_case(make_xt, exec_xt, &L, K_C2C, s, TRNFFT_INVERSE, 1, 1);
        layout P = {.rank = 1, .n = {997}, .batch = 1};
        check_case(make_xt, exec_xt, &P, K_C2C, s, TRNFFT_FORWARD, 0, 0);
        layout R = {.rank = 1, .n = {1000}, .batch = 2};
        check_case(make_xt, exec_xt, &R, K_R2C, s, TRNFFT_FORWARD, 1, 0);
        check_case(make_xt, exec_xt, &R, K_C2R, s, TRNFFT_INVERSE, 0, 0);
        layout O = {.rank = 1, .n = {63}, .batch = 2};
        check_case(make_xt, exec_xt, &O, K_C2R, s, TRNFFT_INVERSE, 1, 0);
        layout Q = {.rank = 2, .n = {12, 10}, .batch = 2};
        check_case(make_xt, exec_xt, &Q, K_C2R, s, TRNFFT_INVERSE, 0, 0);
        check_case(make_xt, exec_xt, &Q, K_C2C, s, TRNFFT_INVERSE, 1, 0);
        layout C = {.rank = 3, .n = {8, 6, 10}, .batch = 1};
        check_case(make_xt, exec_xt, &C, K_C2C, s, TRNFFT_FORWARD, 0, 0);
        check_case(make_xt, exec_xt, &C, K_R2C, s, TRNFFT_FORWARD, 0, 0);
        /* Strided, embedded input; output padded between transforms. */
        layout A = {.rank = 2,
                    .n = {5, 10},
                    .batch = 3,
                    .inembed = ie,
                    .istride = 2,
                    .idist = 2 * 5 * 13 + 3,
                    .onembed = oe,
                    .ostride = 1,
                    .odist = 5 * 6 + 4};
        check_case(make_xt, exec_xt, &A, K_R2C, s, TRNFFT_FORWARD, 0, 0);
        /* Interleaved input (stride = batch, dist = 1), padded output. */
        layout B = {.rank = 1,
                    .n = {64},
                    .batch = 4,
                    .inembed = ce,
                    .istride = 4,
                    .idist = 1,
                    .onembed = ce,
                    .ostride = 1,
                    .odist = 70};
        check_case(make_xt, exec_xt, &B, K_C2C, s, TRNFFT_INVERSE, 0, 0);
    }
}

/* Float and double through the same calls; the Xt and the plain calls run
 * each other's plans. */
static void test_xt_float_double(void **state) {
    (void)state;
    for (store s = ST_64F; s <= ST_32F; s++) {
        layout L = {.rank = 1, .n = {1000}, .batch = 3};
        check_case(make_xt, exec_xt, &L, K_C2C, s, TRNFFT_INVERSE, 0, 0);
        check_case(make_xt, exec_xt, &L, K_R2C, s, TRNFFT_FORWARD, 1, 0);
        layout Q = {.rank = 2, .n = {12, 9}, .batch = 2};
        check_case(make_xt, exec_xt, &Q, K_C2R, s, TRNFFT_INVERSE, 0, 1);
        check_case(make_plan_many, exec_xt, &L, K_C2C, s, TRNFFT_FORWARD, 0, 0);
        check_case(make_plan_many, exec_xt, &Q, K_C2R, s, TRNFFT_INVERSE, 1, 0);
        check_case(make_xt, exec_legacy, &Q, K_R2C, s, TRNFFT_FORWARD, 0, 0);
    }
}

/* x0 + x1 and x0 - x1 of a size-2 C2C forward transform of 16-bit storage
 * (exact in float), as stored: the rounding of single values. */
static void two_point(store s, double x0, double x1, uint16_t *y0, uint16_t *y1) {
    uint16_t in[4];
    store_put(s, in, 0, x0);
    store_put(s, in, 1, 0);
    store_put(s, in, 2, x1);
    store_put(s, in, 3, 0);
    if (!isnan(x0))
        assert_true(store_get(s, in, 0) == x0 && store_get(s, in, 2) == x1);
    void *d;
    assert_int_equal(trnsciMalloc(&d, sizeof(in)), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(d, in, sizeof(in), trnsciMemcpyHostToDevice), trnsciSuccess);
    trnfftHandle h;
    assert_int_equal(trnfftCreate(&h), TRNFFT_SUCCESS);
    layout L = {.rank = 1, .n = {2}, .batch = 1};
    if (make_xt(h, &L, K_C2C, s, NULL) != TRNFFT_SUCCESS)
        fail_msg("make: %s", trnsciGetLastErrorMessage());
    assert_int_equal(trnfftXtExec(h, d, d, TRNFFT_FORWARD), TRNFFT_SUCCESS);
    uint16_t out[4];
    assert_int_equal(trnsciMemcpy(out, d, sizeof(out), trnsciMemcpyDeviceToHost), trnsciSuccess);
    *y0 = out[0];
    *y1 = out[2];
    assert_int_equal(trnfftDestroy(h), TRNFFT_SUCCESS);
    assert_int_equal(trnsciFree(d), trnsciSuccess);
}

static void test_xt_rounding(void **state) {
    (void)state;
    uint16_t a, b;
    /* binary16: 1 + 2^-11 is halfway between 1 and 1 + 2^-10: to even (1);
     * 1 + 3·2^-11 between 1 + 2^-10 and 1 + 2^-9: to even (up). */
    two_point(ST_16F, 1, 0x1p-11, &a, &b);
    assert_int_equal(a, 0x3c00);
    assert_int_equal(b, 0x3bff); /* 1 - 2^-11, exact */
    two_point(ST_16F, 1 + 0x1p-10, 0x1p-11, &a, &b);
    assert_int_equal(a, 0x3c02);
    assert_int_equal(b, 0x3c00); /* 1 + 2^-11: to even (1) */
    /* Past 65504: 60000 + 60000 is infinite, 60000 - 60000 is 0. */
    two_point(ST_16F, 60000, 60000, &a, &b);
    assert_int_equal(a, 0x7c00);
    assert_int_equal(b, 0x0000);
    two_point(ST_16F, -60000, -60000, &a, &b);
    assert_int_equal(a, 0xfc00);
    /* Subnormals are kept: 3·2^-24 and -2^-24. */
    two_point(ST_16F, 0x1p-24, 0x1p-23, &a, &b);
    assert_int_equal(a, 0x0003);
    assert_int_equal(b, 0x8001);
    /* NaN stays NaN. */
    two_point(ST_16F, NAN, 1, &a, &b);
    assert_true((a & 0x7c00) == 0x7c00 && (a & 0x03ff) != 0);
    /* bfloat16: 1 + 2^-8 to even (1), 1 + 3·2^-8 to even (1 + 2^-6). */
    two_point(ST_16BF, 1, 0x1p-8, &a, &b);
    assert_int_equal(a, 0x3f80);
    assert_int_equal(b, 0x3f7f); /* 1 - 2^-8, exact */
    two_point(ST_16BF, 1 + 0x1p-7, 0x1p-8, &a, &b);
    assert_int_equal(a, 0x3f82);
    /* The largest bfloat16 twice is infinite. */
    two_point(ST_16BF, 0x1.fep127, 0x1.fep127, &a, &b);
    assert_int_equal(a, 0x7f80);
    assert_int_equal(b, 0x0000);
    two_point(ST_16BF, NAN, 1, &a, &b);
    assert_true((a & 0x7f80) == 0x7f80 && (a & 0x007f) != 0);
}

static void test_xt_bad(void **state) {
    (void)state;
    trnfftHandle h;
    expect(trnfftCreate(&h), TRNFFT_SUCCESS, NULL);
    size_t ws = 5;
    long long n[1] = {64}, big[1] = {1LL << 31};
    /* Combinations cufftXtMakePlanMany does not take. */
    const trnsciDataType bad[][3] = {
        {TRNSCI_C_16F, TRNSCI_C_32F, TRNSCI_C_32F},
        {TRNSCI_C_16F, TRNSCI_C_16F, TRNSCI_C_32F},
        {TRNSCI_R_16F, TRNSCI_R_16F, TRNSCI_C_16F},
        {TRNSCI_R_32F, TRNSCI_C_32F, TRNSCI_R_32F},
        {TRNSCI_C_16BF, TRNSCI_C_16F, TRNSCI_C_16BF},
        {TRNSCI_R_64F, TRNSCI_C_32F, TRNSCI_C_64F},
        {TRNSCI_C_8I, TRNSCI_C_8I, TRNSCI_C_8I},
        {(trnsciDataType)99, TRNSCI_C_32F, TRNSCI_C_32F},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        expect(trnfftXtMakePlanMany(h, 1, n, NULL, 1, 0, bad[i][0], NULL, 1, 0, bad[i][1], 1, &ws,
                                    bad[i][2]),
               TRNFFT_INVALID_TYPE, "types");
        expect(trnfftXtGetSizeMany(h, 1, n, NULL, 1, 0, bad[i][0], NULL, 1, 0, bad[i][1], 1, &ws,
                                   bad[i][2]),
               TRNFFT_INVALID_TYPE, "types");
    }
    expect(trnfftXtMakePlanMany(h, 1, big, NULL, 1, 0, TRNSCI_C_16F, NULL, 1, 0, TRNSCI_C_16F, 1,
                                &ws, TRNSCI_C_16F),
           TRNFFT_INVALID_SIZE, "n[0]");
    expect(trnfftXtMakePlanMany(h, 1, n, NULL, 1, 0, TRNSCI_C_16F, NULL, 1, 0, TRNSCI_C_16F, 0, &ws,
                                TRNSCI_C_16F),
           TRNFFT_INVALID_SIZE, "batch");
    expect(trnfftXtMakePlanMany(h, 4, n, NULL, 1, 0, TRNSCI_C_16F, NULL, 1, 0, TRNSCI_C_16F, 1, &ws,
                                TRNSCI_C_16F),
           TRNFFT_INVALID_VALUE, "rank");
    expect(trnfftXtMakePlanMany(h, 1, n, n, 0, 64, TRNSCI_C_16F, n, 1, 64, TRNSCI_C_16F, 1, &ws,
                                TRNSCI_C_16F),
           TRNFFT_INVALID_VALUE, "istride");
    expect(trnfftXtMakePlanMany(h, 1, n, n, 1, 64, TRNSCI_C_16F, NULL, 1, 64, TRNSCI_C_16F, 1, &ws,
                                TRNSCI_C_16F),
           TRNFFT_INVALID_VALUE, "onembed");
    expect(trnfftXtGetSizeMany(h, 1, n, NULL, 1, 0, TRNSCI_C_16F, NULL, 1, 0, TRNSCI_C_16F, 1, NULL,
                               TRNSCI_C_16F),
           TRNFFT_INVALID_VALUE, "workSize");
    expect(trnfftXtGetSizeMany(h + 999, 1, n, NULL, 1, 0, TRNSCI_C_16F, NULL, 1, 0, TRNSCI_C_16F, 1,
                               &ws, TRNSCI_C_16F),
           TRNFFT_INVALID_PLAN, NULL);
    expect(trnfftXtMakePlanMany(h + 999, 1, n, NULL, 1, 0, TRNSCI_C_16F, NULL, 1, 0, TRNSCI_C_16F,
                                1, &ws, TRNSCI_C_16F),
           TRNFFT_INVALID_PLAN, NULL);
    /* A half C2C plan of 64 points, batch 2. */
    expect(trnfftXtMakePlanMany(h, 1, n, NULL, 1, 0, TRNSCI_C_16F, NULL, 1, 0, TRNSCI_C_16F, 2, &ws,
                                TRNSCI_C_16F),
           TRNFFT_SUCCESS, NULL);
    assert_int_equal(ws, 0);
    expect(trnfftXtMakePlanMany(h, 1, n, NULL, 1, 0, TRNSCI_C_16F, NULL, 1, 0, TRNSCI_C_16F, 2, &ws,
                                TRNSCI_C_16F),
           TRNFFT_INVALID_PLAN, NULL);
    void *buf, *small;
    assert_int_equal(trnsciMalloc(&buf, 2 * 64 * 4), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&small, 2 * 64 * 4 - 4), trnsciSuccess);
    expect(trnfftExecC2C(h, buf, buf, TRNFFT_FORWARD), TRNFFT_INVALID_TYPE, "C2C half");
    expect(trnfftXtExec(h, buf, buf, 0), TRNFFT_INVALID_VALUE, "direction");
    expect(trnfftXtExec(h, small, small, TRNFFT_FORWARD), TRNFFT_INVALID_VALUE, NULL);
    expect(trnfftXtExec(h, buf, (char *)buf + 8, TRNFFT_FORWARD), TRNFFT_INVALID_VALUE, NULL);
    expect(trnfftXtExec(h, buf, buf, TRNFFT_FORWARD), TRNFFT_SUCCESS, NULL);
    expect(trnfftXtExec(h + 999, buf, buf, TRNFFT_FORWARD), TRNFFT_INVALID_PLAN, "trnfftXtExec");
    /* Direction is ignored for real plans. */
    trnfftHandle r;
    expect(trnfftCreate(&r), TRNFFT_SUCCESS, NULL);
    expect(trnfftXtMakePlanMany(r, 1, n, NULL, 1, 0, TRNSCI_R_16BF, NULL, 1, 0, TRNSCI_C_16BF, 1,
                                NULL, TRNSCI_C_16BF),
           TRNFFT_SUCCESS, NULL);
    expect(trnfftXtExec(r, buf, small, 12345), TRNFFT_SUCCESS, NULL);
    expect(trnfftExecR2C(r, buf, small), TRNFFT_INVALID_TYPE, "R2C bfloat16");
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    expect(trnfftDestroy(r), TRNFFT_SUCCESS, NULL);
    expect(trnfftDestroy(h), TRNFFT_SUCCESS, NULL);
    expect(trnfftXtExec(h, buf, buf, TRNFFT_FORWARD), TRNFFT_INVALID_PLAN, NULL);
    assert_int_equal(trnsciFree(buf), trnsciSuccess);
    assert_int_equal(trnsciFree(small), trnsciSuccess);
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
        ON(test_work_sizes, local),      ON(test_work_sizes, grpc),
        ON(test_plan_many64, local),     ON(test_plan_many64, grpc),
        ON(test_plan_many64_bad, local), ON(test_plan_many64_bad, grpc),
        ON(test_xt_16bit, local),        ON(test_xt_16bit, grpc),
        ON(test_xt_float_double, local), ON(test_xt_float_double, grpc),
        ON(test_xt_rounding, local),     ON(test_xt_rounding, grpc),
        ON(test_xt_bad, local),          ON(test_xt_bad, grpc),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    numpy_stop();
    printf("worst error / bound: double %.3f, float %.3f, half %.3f, bfloat16 %.3f\n",
           worst_share[ST_64F], worst_share[ST_32F], worst_share[ST_16F], worst_share[ST_16BF]);
    const int bad = th_daemon_stop_checked(&daemon2, "trnscid --cores 2");
    th_remove_dir(work_dir);
    return failed || bad;
}
