/*
 * test_graph_families.c — stream capture of every library family against a
 * real daemon (2 cores), over the local transport and over gRPC.
 *
 * For each family (trnblas, trnfft, trnrand, trnsolver, trnsparse,
 * trntensor) a short sequence of its routines, each reading what the one
 * before wrote, is
 *  1. run eagerly on one set of device buffers, and
 *  2. captured on a stream (global mode) on a second, identically
 *     initialised set, instantiated and launched,
 * and then:
 *  - right after EndCapture, before any launch, the captured set is bitwise
 *    as initialised (capture records, it does not run);
 *  - the graph has one kernel node per call, in a single chain (one root);
 *  - after each launch every buffer of the captured set (inputs, outputs,
 *    info words, pivots, device-mode scalars) is bitwise the eager one.
 *    Sequences that only write what they do not read are launched twice
 *    back to back (a replay must not depend on state the first launch left,
 *    e.g. a generator's offset); the others have their inputs uploaded
 *    again before the second launch.
 * Whatever the host must do (handles, plans, workspace and buffer size
 * queries, pointer mode, generator seed and offset, sparse descriptors)
 * happens before BeginCapture: a global-mode capture refuses allocations
 * and copies to or from the host.
 *
 * Why bitwise equality: a graph node is the very op the eager call submits
 * (same routine, same descriptors and plans, same scalars), validated and
 * run by the same kernels on the same daemon with the same number of cores,
 * and the daemon's results do not depend on how it splits an op over its
 * cores. Nothing may differ, not even rounding, so any difference is a bug.
 */
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
#include "trnsci/trnblas.h"
#include "trnsci/trnfft.h"
#include "trnsci/trnrand.h"
#include "trnsci/trnsci.h"
#include "trnsci/trnsolver.h"
#include "trnsci/trnsparse.h"
#include "trnsci/trntensor.h"

static th_daemon daemon_under_test;

/* Every family's success status is 0; on failure the library says why. */
#define OK(call) expect_ok((int)(call), #call)

static void expect_ok(int status, const char *what) {
    if (status != 0)
        fail_msg("%s: status %d: %s", what, status, trnsciGetLastErrorMessage());
}

/* ---- a family's sequence, and its device buffers ------------------------------------ */

#define MAXBUF 10

/* One set of device buffers, and the host objects that name them. */
typedef struct bufset {
    void *dev[MAXBUF];
    void *aux;
} bufset;

typedef struct family {
    const char *name;
    int nbuf;
    const char *names[MAXBUF];
    size_t bytes[MAXBUF];
    unsigned written; /* bit i: the sequence writes buffer i */
    size_t nodes;     /* calls in the sequence */
    int idempotent;   /* writes nothing it reads: may be replayed as is */
    /* The initial contents of buffer i. */
    void (*fill)(int i, void *host, size_t bytes);
    /* Handles and plans (host side, before any capture). */
    void *(*open)(void);
    void (*close)(void *ctx);
    /* Host objects naming one set's buffers (may be NULL). */
    void (*bind)(void *ctx, bufset *b);
    void (*unbind)(bufset *b);
    /* Host state a run on stream s needs: handle streams, generator seed. */
    void (*prepare)(void *ctx, trnsciStream_t s);
    /* The sequence, on stream s. */
    void (*run)(void *ctx, trnsciStream_t s, const bufset *b);
    /* Sanity of the eager results (may be NULL). */
    void (*check)(void *const host[MAXBUF]);
} family;

/* Simple deterministic values: quarters in [-5/4, 5/4], never all zero. */
static void fill_doubles(void *p, size_t bytes, int seed) {
    double *d = p;
    for (size_t i = 0; i < bytes / sizeof(double); i++)
        d[i] = (double)((int)((i * 7 + (size_t)seed * 3) % 11) - 5) / 4.0;
}

static void fill_floats(void *p, size_t bytes, int seed) {
    float *f = p;
    for (size_t i = 0; i < bytes / sizeof(float); i++)
        f[i] = (float)((int)((i * 5 + (size_t)seed * 3) % 9) - 4) / 4.0f;
}

/* For outputs: a pattern no routine writes by accident (finite in float
 * and double), so an output left alone shows. */
static void fill_sentinel(void *p, size_t bytes) {
    memset(p, 0x7f, bytes);
}

static void set_upload(const family *f, const bufset *b) {
    for (int i = 0; i < f->nbuf; i++) {
        void *h = malloc(f->bytes[i]);
        assert_non_null(h);
        f->fill(i, h, f->bytes[i]);
        assert_int_equal(trnsciMemcpy(b->dev[i], h, f->bytes[i], trnsciMemcpyHostToDevice),
                         trnsciSuccess);
        free(h);
    }
}

static void set_make(const family *f, void *ctx, bufset *b) {
    memset(b, 0, sizeof(*b));
    for (int i = 0; i < f->nbuf; i++)
        assert_int_equal(trnsciMalloc(&b->dev[i], f->bytes[i]), trnsciSuccess);
    set_upload(f, b);
    if (f->bind)
        f->bind(ctx, b);
}

static void set_free(const family *f, bufset *b) {
    if (f->unbind)
        f->unbind(b);
    for (int i = 0; i < f->nbuf; i++)
        trnsciFree(b->dev[i]);
}

/* Host copies of a set's buffers. */
typedef struct snapshot {
    void *buf[MAXBUF];
} snapshot;

static void snap_initial(const family *f, snapshot *s) {
    for (int i = 0; i < f->nbuf; i++) {
        s->buf[i] = malloc(f->bytes[i]);
        assert_non_null(s->buf[i]);
        f->fill(i, s->buf[i], f->bytes[i]);
    }
}

static void snap_read(const family *f, const bufset *b, snapshot *s) {
    for (int i = 0; i < f->nbuf; i++) {
        s->buf[i] = malloc(f->bytes[i]);
        assert_non_null(s->buf[i]);
        assert_int_equal(trnsciMemcpy(s->buf[i], b->dev[i], f->bytes[i], trnsciMemcpyDeviceToHost),
                         trnsciSuccess);
    }
}

static void snap_free(const family *f, snapshot *s) {
    for (int i = 0; i < f->nbuf; i++)
        free(s->buf[i]);
}

/* Every buffer bitwise equal; the first that is not is named. */
static void snap_expect_equal(const family *f, const snapshot *got, const snapshot *want,
                              const char *when) {
    for (int i = 0; i < f->nbuf; i++)
        if (memcmp(got->buf[i], want->buf[i], f->bytes[i]) != 0)
            fail_msg("%s: buffer %s differs %s", f->name, f->names[i], when);
}

/* ---- trnblas: Level 1 in device pointer mode, gemv, gemm, trsm, syrk ------------------ */

#define BN 32

enum { BL_S, BL_X, BL_Y, BL_Z, BL_A, BL_B, BL_T, BL_C, BL_D, BL_COUNT };

/* The device-mode scalars: alpha, beta, ... and the dot product's slot. */
enum { SC_TWO, SC_HALF, SC_ONE, SC_ZERO, SC_DOT, SC_MINUS_ONE, SC_COUNT };

static void blas_fill(int i, void *host, size_t bytes) {
    double *d = host;
    switch (i) {
    case BL_S: {
        const double s[SC_COUNT] = {2, 0.5, 1, 0, 0, -1};
        memcpy(host, s, sizeof(s));
        break;
    }
    case BL_T: /* lower triangular, well conditioned; the upper part is not read */
        fill_doubles(host, bytes, i);
        for (int j = 0; j < BN; j++)
            for (int r = 0; r < BN; r++)
                d[j * BN + r] = r == j ? 4.0 + r % 3 : r > j ? d[j * BN + r] / 8 : 99.0;
        break;
    case BL_C: fill_sentinel(host, bytes); break;
    default: fill_doubles(host, bytes, i); break;
    }
}

static void *blas_open(void) {
    trnblasHandle_t h;
    OK(trnblasCreate(&h));
    /* dot writes its result to device memory; scal reads it from there. */
    OK(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_DEVICE));
    return h;
}

static void blas_close(void *ctx) {
    OK(trnblasDestroy(ctx));
}

static void blas_prepare(void *ctx, trnsciStream_t s) {
    OK(trnblasSetStream(ctx, s));
}

static void blas_run(void *ctx, trnsciStream_t s, const bufset *b) {
    (void)s;
    trnblasHandle_t h = ctx;
    double *const *d = (double *const *)b->dev;
    const double *sc = d[BL_S];
    OK(trnblasDaxpy(h, BN, &sc[SC_TWO], d[BL_X], 1, d[BL_Y], 1));
    OK(trnblasDdot(h, BN, d[BL_X], 1, d[BL_Y], 1, d[BL_S] + SC_DOT));
    OK(trnblasDscal(h, BN, &sc[SC_DOT], d[BL_Z], 1));
    OK(trnblasDgemv(h, TRNBLAS_OP_T, BN, BN, &sc[SC_ONE], d[BL_A], BN, d[BL_Y], 1, &sc[SC_HALF],
                    d[BL_Z], 1));
    OK(trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, BN, BN, BN, &sc[SC_TWO], d[BL_A], BN, d[BL_B],
                    BN, &sc[SC_ZERO], d[BL_C], BN));
    OK(trnblasDtrsm(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N,
                    TRNBLAS_DIAG_NON_UNIT, BN, BN, &sc[SC_ONE], d[BL_T], BN, d[BL_C], BN));
    OK(trnblasDsyrk(h, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, BN, BN, &sc[SC_MINUS_ONE], d[BL_C],
                    BN, &sc[SC_ONE], d[BL_D], BN));
}

static const family blas_family = {
    .name = "blas",
    .nbuf = BL_COUNT,
    .names = {"scalars", "x", "y", "z", "A", "B", "T", "C", "D"},
    .bytes = {sizeof(double) * SC_COUNT, sizeof(double) * BN, sizeof(double) * BN,
              sizeof(double) * BN, sizeof(double) * BN *BN, sizeof(double) * BN *BN,
              sizeof(double) * BN *BN, sizeof(double) * BN *BN, sizeof(double) * BN *BN},
    .written = 1u << BL_S | 1u << BL_Y | 1u << BL_Z | 1u << BL_C | 1u << BL_D,
    .nodes = 7,
    .idempotent = 0, /* axpy, scal, gemv and syrk update in place */
    .fill = blas_fill,
    .open = blas_open,
    .close = blas_close,
    .prepare = blas_prepare,
    .run = blas_run,
};

/* ---- trnfft: C2C forward and inverse, R2C, C2R ------------------------------------- */

#define FN 32
#define FBATCH 2
#define FHALF (FN / 2 + 1)

enum { FT_CIN, FT_CMID, FT_COUT, FT_RIN, FT_RFREQ, FT_RBACK, FT_COUNT };

typedef struct fft_ctx {
    trnfftHandle c2c, r2c, c2r;
} fft_ctx;

static void fft_fill(int i, void *host, size_t bytes) {
    if (i == FT_CIN || i == FT_RIN)
        fill_floats(host, bytes, i);
    else
        fill_sentinel(host, bytes);
}

static void *fft_open(void) {
    fft_ctx *c = malloc(sizeof(*c));
    assert_non_null(c);
    OK(trnfftPlan1d(&c->c2c, FN, TRNFFT_C2C, FBATCH));
    OK(trnfftPlan1d(&c->r2c, FN, TRNFFT_R2C, FBATCH));
    OK(trnfftPlan1d(&c->c2r, FN, TRNFFT_C2R, FBATCH));
    return c;
}

static void fft_close(void *ctx) {
    fft_ctx *c = ctx;
    OK(trnfftDestroy(c->c2c));
    OK(trnfftDestroy(c->r2c));
    OK(trnfftDestroy(c->c2r));
    free(c);
}

static void fft_prepare(void *ctx, trnsciStream_t s) {
    const fft_ctx *c = ctx;
    OK(trnfftSetStream(c->c2c, s));
    OK(trnfftSetStream(c->r2c, s));
    OK(trnfftSetStream(c->c2r, s));
}

static void fft_run(void *ctx, trnsciStream_t s, const bufset *b) {
    (void)s;
    const fft_ctx *c = ctx;
    void *const *d = b->dev;
    OK(trnfftExecC2C(c->c2c, d[FT_CIN], d[FT_CMID], TRNFFT_FORWARD));
    OK(trnfftExecC2C(c->c2c, d[FT_CMID], d[FT_COUT], TRNFFT_INVERSE));
    OK(trnfftExecR2C(c->r2c, d[FT_RIN], d[FT_RFREQ]));
    /* C2R may overwrite its input: R2C writes it afresh on every run. */
    OK(trnfftExecC2R(c->c2r, d[FT_RFREQ], d[FT_RBACK]));
}

/* An inverse of a forward transform is the input times FN. */
static void fft_check(void *const host[MAXBUF]) {
    const float *in = host[FT_RIN], *back = host[FT_RBACK];
    for (int i = 0; i < FN * FBATCH; i++)
        assert_float_equal(back[i], in[i] * FN, 1e-3);
}

static const family fft_family = {
    .name = "fft",
    .nbuf = FT_COUNT,
    .names = {"cin", "cmid", "cout", "rin", "rfreq", "rback"},
    .bytes = {sizeof(trnfftComplex) * FN * FBATCH, sizeof(trnfftComplex) * FN *FBATCH,
              sizeof(trnfftComplex) * FN *FBATCH, sizeof(float) * FN *FBATCH,
              sizeof(trnfftComplex) * FHALF *FBATCH, sizeof(float) * FN *FBATCH},
    .written = 1u << FT_CMID | 1u << FT_COUT | 1u << FT_RFREQ | 1u << FT_RBACK,
    .nodes = 4,
    .idempotent = 1,
    .fill = fft_fill,
    .open = fft_open,
    .close = fft_close,
    .prepare = fft_prepare,
    .run = fft_run,
    .check = fft_check,
};

/* ---- trnrand: a Philox generator, seven distributions ------------------------------- */

#define RN 64

enum {
    RD_RAW,
    RD_UNIFORM,
    RD_NORMAL,
    RD_LOGNORMAL,
    RD_UNIFORM_D,
    RD_NORMAL_D,
    RD_POISSON,
    RD_COUNT
};

static void rand_fill(int i, void *host, size_t bytes) {
    (void)i;
    fill_sentinel(host, bytes);
}

static void *rand_open(void) {
    trnrandGenerator_t g;
    OK(trnrandCreateGenerator(&g, TRNRAND_RNG_PSEUDO_PHILOX4_32_10));
    return g;
}

static void rand_close(void *ctx) {
    OK(trnrandDestroyGenerator(ctx));
}

/* Both runs start from the same point of the same stream: the offset each
 * call uses is taken (and advanced) on the host, when the call is made. */
static void rand_prepare(void *ctx, trnsciStream_t s) {
    OK(trnrandSetStream(ctx, s));
    OK(trnrandSetPseudoRandomGeneratorSeed(ctx, 20240611ULL));
    OK(trnrandSetGeneratorOffset(ctx, 12345));
}

static void rand_run(void *ctx, trnsciStream_t s, const bufset *b) {
    (void)s;
    trnrandGenerator_t g = ctx;
    void *const *d = b->dev;
    OK(trnrandGenerate(g, d[RD_RAW], RN));
    OK(trnrandGenerateUniform(g, d[RD_UNIFORM], RN));
    OK(trnrandGenerateNormal(g, d[RD_NORMAL], RN, 1.0f, 2.0f));
    OK(trnrandGenerateLogNormal(g, d[RD_LOGNORMAL], RN, 0.0f, 0.5f));
    OK(trnrandGenerateUniformDouble(g, d[RD_UNIFORM_D], RN));
    OK(trnrandGenerateNormalDouble(g, d[RD_NORMAL_D], RN, -1.0, 0.25));
    OK(trnrandGeneratePoisson(g, d[RD_POISSON], RN, 4.0));
}

static const family rand_family = {
    .name = "rand",
    .nbuf = RD_COUNT,
    .names = {"raw", "uniform", "normal", "lognormal", "uniform double", "normal double",
              "poisson"},
    .bytes = {sizeof(unsigned) * RN, sizeof(float) * RN, sizeof(float) * RN, sizeof(float) * RN,
              sizeof(double) * RN, sizeof(double) * RN, sizeof(unsigned) * RN},
    .written = (1u << RD_COUNT) - 1,
    .nodes = 7,
    .idempotent = 1, /* each node keeps the offset it was captured with */
    .fill = rand_fill,
    .open = rand_open,
    .close = rand_close,
    .prepare = rand_prepare,
    .run = rand_run,
};

/* ---- trnsolver: potrf + potrs (double), getrf + getrs (float) ----------------------- */

#define SN 16
#define SNRHS 3

enum {
    SV_A,
    SV_B,
    SV_INFO_POTRF,
    SV_INFO_POTRS,
    SV_A2,
    SV_IPIV,
    SV_B2,
    SV_INFO_GETRF,
    SV_INFO_GETRS,
    SV_COUNT
};

/* The workspaces the size queries asked for, per set. */
typedef struct solver_work {
    double *dwork;
    float *swork;
    int dlwork;
} solver_work;

static void solver_fill(int i, void *host, size_t bytes) {
    double *a = host;
    float *a2 = host;
    switch (i) {
    case SV_A: /* symmetric positive definite: diagonally dominant */
        for (int j = 0; j < SN; j++)
            for (int r = 0; r < SN; r++)
                a[j * SN + r] = 1.0 / (1 + abs(r - j)) + (r == j ? SN : 0);
        break;
    case SV_A2: /* dominant on a shifted diagonal: partial pivoting swaps rows */
        fill_floats(host, bytes, i);
        for (int j = 0; j < SN; j++)
            a2[j * SN + (j + 1) % SN] += 10.0f;
        break;
    case SV_B: fill_doubles(host, bytes, i); break;
    case SV_B2: fill_floats(host, bytes, i); break;
    default: fill_sentinel(host, bytes); break; /* infos, pivots */
    }
}

static void *solver_open(void) {
    trnsolverDnHandle_t h;
    OK(trnsolverDnCreate(&h));
    return h;
}

static void solver_close(void *ctx) {
    OK(trnsolverDnDestroy(ctx));
}

static void solver_bind(void *ctx, bufset *b) {
    solver_work *w = calloc(1, sizeof(*w));
    assert_non_null(w);
    int slwork = 0;
    OK(trnsolverDnDpotrf_bufferSize(ctx, TRNBLAS_FILL_MODE_LOWER, SN, b->dev[SV_A], SN,
                                    &w->dlwork));
    OK(trnsolverDnSgetrf_bufferSize(ctx, SN, SN, b->dev[SV_A2], SN, &slwork));
    OK(trnsciMalloc((void **)&w->dwork, sizeof(double) * (size_t)(w->dlwork > 0 ? w->dlwork : 1)));
    OK(trnsciMalloc((void **)&w->swork, sizeof(float) * (size_t)(slwork > 0 ? slwork : 1)));
    b->aux = w;
}

static void solver_unbind(bufset *b) {
    solver_work *w = b->aux;
    trnsciFree(w->dwork);
    trnsciFree(w->swork);
    free(w);
}

static void solver_prepare(void *ctx, trnsciStream_t s) {
    OK(trnsolverDnSetStream(ctx, s));
}

static void solver_run(void *ctx, trnsciStream_t s, const bufset *b) {
    (void)s;
    trnsolverDnHandle_t h = ctx;
    const solver_work *w = b->aux;
    void *const *d = b->dev;
    OK(trnsolverDnDpotrf(h, TRNBLAS_FILL_MODE_LOWER, SN, d[SV_A], SN, w->dwork, w->dlwork,
                         d[SV_INFO_POTRF]));
    OK(trnsolverDnDpotrs(h, TRNBLAS_FILL_MODE_LOWER, SN, SNRHS, d[SV_A], SN, d[SV_B], SN,
                         d[SV_INFO_POTRS]));
    OK(trnsolverDnSgetrf(h, SN, SN, d[SV_A2], SN, w->swork, d[SV_IPIV], d[SV_INFO_GETRF]));
    OK(trnsolverDnSgetrs(h, TRNBLAS_OP_N, SN, SNRHS, d[SV_A2], SN, d[SV_IPIV], d[SV_B2], SN,
                         d[SV_INFO_GETRS]));
}

/* Every factorisation and solve succeeded, and getrf did pivot. */
static void solver_check(void *const host[MAXBUF]) {
    assert_int_equal(*(const int *)host[SV_INFO_POTRF], 0);
    assert_int_equal(*(const int *)host[SV_INFO_POTRS], 0);
    assert_int_equal(*(const int *)host[SV_INFO_GETRF], 0);
    assert_int_equal(*(const int *)host[SV_INFO_GETRS], 0);
    assert_int_not_equal(((const int *)host[SV_IPIV])[0], 1);
}

static const family solver_family = {
    .name = "solver",
    .nbuf = SV_COUNT,
    .names = {"A", "B", "potrf info", "potrs info", "A2", "ipiv", "B2", "getrf info", "getrs info"},
    .bytes = {sizeof(double) * SN * SN, sizeof(double) * SN *SNRHS, sizeof(int), sizeof(int),
              sizeof(float) * SN *SN, sizeof(int) * SN, sizeof(float) * SN *SNRHS, sizeof(int),
              sizeof(int)},
    .written = (1u << SV_COUNT) - 1,
    .nodes = 4,
    .idempotent = 0, /* factorisations and solves are in place */
    .fill = solver_fill,
    .open = solver_open,
    .close = solver_close,
    .bind = solver_bind,
    .unbind = solver_unbind,
    .prepare = solver_prepare,
    .run = solver_run,
    .check = solver_check,
};

/* ---- trnsparse: SpMV (N, then T on its result) and SpMM with CSR -------------------- */

#define PN 32
#define PPER 4 /* stored entries per row */
#define PNNZ (PN * PPER)
#define PK 5 /* columns of the dense SpMM operand */

enum { SP_OFF, SP_IDX, SP_VAL, SP_X, SP_Y, SP_W, SP_B, SP_C, SP_COUNT };

/* The descriptors of one set (they hold its device pointers). */
typedef struct sparse_desc {
    trnsparseSpMatDescr_t a;
    trnsparseDnVecDescr_t x, y, w;
    trnsparseDnMatDescr_t b, c;
    void *spmv_buf, *spmm_buf;
} sparse_desc;

/* Row r stores columns r, r+1, r+3, r+10 (mod PN), sorted. */
static void csr_row(int r, int *cols) {
    const int off[PPER] = {0, 1, 3, 10};
    for (int k = 0; k < PPER; k++)
        cols[k] = (r + off[k]) % PN;
    for (int i = 1; i < PPER; i++)
        for (int k = i; k > 0 && cols[k - 1] > cols[k]; k--) {
            const int t = cols[k];
            cols[k] = cols[k - 1];
            cols[k - 1] = t;
        }
}

static void sparse_fill(int i, void *host, size_t bytes) {
    int *ip = host;
    switch (i) {
    case SP_OFF:
        for (int r = 0; r <= PN; r++)
            ip[r] = r * PPER;
        break;
    case SP_IDX:
        for (int r = 0; r < PN; r++)
            csr_row(r, ip + r * PPER);
        break;
    case SP_Y:
    case SP_W:
    case SP_C: fill_sentinel(host, bytes); break;
    default: fill_doubles(host, bytes, i); break;
    }
}

static void *sparse_open(void) {
    trnsparseHandle_t h;
    OK(trnsparseCreate(&h));
    return h;
}

static void sparse_close(void *ctx) {
    OK(trnsparseDestroy(ctx));
}

static const double sp_one = 1, sp_two = 2, sp_zero = 0;

static void *sized_buffer(size_t bytes) {
    void *p = NULL;
    if (bytes)
        OK(trnsciMalloc(&p, bytes));
    return p;
}

static void sparse_bind(void *ctx, bufset *b) {
    sparse_desc *s = calloc(1, sizeof(*s));
    assert_non_null(s);
    void *const *d = b->dev;
    OK(trnsparseCreateCsr(&s->a, PN, PN, PNNZ, d[SP_OFF], d[SP_IDX], d[SP_VAL], TRNSPARSE_INDEX_32I,
                          TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_R_64F));
    OK(trnsparseCreateDnVec(&s->x, PN, d[SP_X], TRNSCI_R_64F));
    OK(trnsparseCreateDnVec(&s->y, PN, d[SP_Y], TRNSCI_R_64F));
    OK(trnsparseCreateDnVec(&s->w, PN, d[SP_W], TRNSCI_R_64F));
    OK(trnsparseCreateDnMat(&s->b, PN, PK, PK, d[SP_B], TRNSCI_R_64F, TRNSPARSE_ORDER_ROW));
    OK(trnsparseCreateDnMat(&s->c, PN, PK, PK, d[SP_C], TRNSCI_R_64F, TRNSPARSE_ORDER_ROW));
    size_t v = 0, m = 0;
    OK(trnsparseSpMV_bufferSize(ctx, TRNSPARSE_OPERATION_NON_TRANSPOSE, &sp_one, s->a, s->x,
                                &sp_zero, s->y, TRNSCI_R_64F, TRNSPARSE_SPMV_CSR_ALG1, &v));
    OK(trnsparseSpMM_bufferSize(ctx, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                TRNSPARSE_OPERATION_NON_TRANSPOSE, &sp_one, s->a, s->b, &sp_zero,
                                s->c, TRNSCI_R_64F, TRNSPARSE_SPMM_CSR_ALG1, &m));
    s->spmv_buf = sized_buffer(v);
    s->spmm_buf = sized_buffer(m);
    b->aux = s;
}

static void sparse_unbind(bufset *b) {
    sparse_desc *s = b->aux;
    trnsparseDestroySpMat(s->a);
    trnsparseDestroyDnVec(s->x);
    trnsparseDestroyDnVec(s->y);
    trnsparseDestroyDnVec(s->w);
    trnsparseDestroyDnMat(s->b);
    trnsparseDestroyDnMat(s->c);
    trnsciFree(s->spmv_buf);
    trnsciFree(s->spmm_buf);
    free(s);
}

static void sparse_prepare(void *ctx, trnsciStream_t s) {
    OK(trnsparseSetStream(ctx, s));
}

static void sparse_run(void *ctx, trnsciStream_t s, const bufset *b) {
    (void)s;
    trnsparseHandle_t h = ctx;
    const sparse_desc *d = b->aux;
    /* y = A x; w = 2 A^T y (reads y); C = A B. beta 0: outputs are not read. */
    OK(trnsparseSpMV(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, &sp_one, d->a, d->x, &sp_zero, d->y,
                     TRNSCI_R_64F, TRNSPARSE_SPMV_CSR_ALG1, d->spmv_buf));
    OK(trnsparseSpMV(h, TRNSPARSE_OPERATION_TRANSPOSE, &sp_two, d->a, d->y, &sp_zero, d->w,
                     TRNSCI_R_64F, TRNSPARSE_SPMV_CSR_ALG1, d->spmv_buf));
    OK(trnsparseSpMM(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                     &sp_one, d->a, d->b, &sp_zero, d->c, TRNSCI_R_64F, TRNSPARSE_SPMM_CSR_ALG1,
                     d->spmm_buf));
}

static const family sparse_family = {
    .name = "sparse",
    .nbuf = SP_COUNT,
    .names = {"row offsets", "column indices", "values", "x", "y", "w", "B", "C"},
    .bytes = {sizeof(int) * (PN + 1), sizeof(int) * PNNZ, sizeof(double) * PNNZ,
              sizeof(double) * PN, sizeof(double) * PN, sizeof(double) * PN,
              sizeof(double) * PN *PK, sizeof(double) * PN *PK},
    .written = 1u << SP_Y | 1u << SP_W | 1u << SP_C,
    .nodes = 3,
    .idempotent = 1,
    .fill = sparse_fill,
    .open = sparse_open,
    .close = sparse_close,
    .bind = sparse_bind,
    .unbind = sparse_unbind,
    .prepare = sparse_prepare,
    .run = sparse_run,
};

/* ---- trntensor: contraction, element-wise, permutation, reduction ------------------- */

/* D[m,n] = sum_{k,p} A[m,k,p] B[k,p,n]; E = D + 0.5 tanh(G); F[n,m] = 2 E[m,n];
 * r[n] = sum_m F[n,m]. */
#define TM 6
#define TK 4
#define TP 3
#define TNN 5

enum { TS_A, TS_B, TS_D, TS_G, TS_E, TS_F, TS_R, TS_COUNT };

typedef struct tensor_ctx {
    trntensorHandle_t h;
    trntensorPlan_t contract, elementwise, permute, reduce;
} tensor_ctx;

static void tensor_fill(int i, void *host, size_t bytes) {
    if (i == TS_A || i == TS_B || i == TS_G)
        fill_floats(host, bytes, i);
    else
        fill_sentinel(host, bytes);
}

static trntensorTensorDescriptor_t tdesc(trntensorHandle_t h, uint32_t n, const int64_t *ext) {
    trntensorTensorDescriptor_t d;
    OK(trntensorCreateTensorDescriptor(h, &d, n, ext, NULL, TRNSCI_R_32F, 0));
    return d;
}

/* Makes the plan of op and drops the descriptor (the plan keeps a copy). */
static trntensorPlan_t plan_of(trntensorHandle_t h, trntensorOperationDescriptor_t op) {
    trntensorPlan_t p;
    OK(trntensorCreatePlan(h, &p, op, NULL, 0));
    OK(trntensorDestroyOperationDescriptor(op));
    return p;
}

static void *tensor_open(void) {
    tensor_ctx *c = calloc(1, sizeof(*c));
    assert_non_null(c);
    OK(trntensorCreate(&c->h));
    const int64_t ea[3] = {TM, TK, TP}, eb[3] = {TK, TP, TNN}, emn[2] = {TM, TNN},
                  enm[2] = {TNN, TM}, en[1] = {TNN};
    const int32_t ma[3] = {'m', 'k', 'p'}, mb[3] = {'k', 'p', 'n'}, mmn[2] = {'m', 'n'},
                  mnm[2] = {'n', 'm'}, mn[1] = {'n'};
    trntensorTensorDescriptor_t da = tdesc(c->h, 3, ea), db = tdesc(c->h, 3, eb),
                                dmn = tdesc(c->h, 2, emn), dnm = tdesc(c->h, 2, enm),
                                dn = tdesc(c->h, 1, en);
    trntensorOperationDescriptor_t op;
    OK(trntensorCreateContraction(c->h, &op, da, ma, TRNTENSOR_OP_IDENTITY, db, mb,
                                  TRNTENSOR_OP_IDENTITY, dmn, mmn, TRNTENSOR_OP_IDENTITY, dmn, mmn,
                                  TRNTENSOR_COMPUTE_DESC_32F));
    c->contract = plan_of(c->h, op);
    OK(trntensorCreateElementwiseBinary(c->h, &op, dmn, mmn, TRNTENSOR_OP_IDENTITY, dmn, mmn,
                                        TRNTENSOR_OP_TANH, dmn, mmn, TRNTENSOR_OP_ADD,
                                        TRNTENSOR_COMPUTE_DESC_32F));
    c->elementwise = plan_of(c->h, op);
    OK(trntensorCreatePermutation(c->h, &op, dmn, mmn, TRNTENSOR_OP_IDENTITY, dnm, mnm,
                                  TRNTENSOR_COMPUTE_DESC_32F));
    c->permute = plan_of(c->h, op);
    OK(trntensorCreateReduction(c->h, &op, dnm, mnm, TRNTENSOR_OP_IDENTITY, dn, mn,
                                TRNTENSOR_OP_IDENTITY, dn, mn, TRNTENSOR_OP_ADD,
                                TRNTENSOR_COMPUTE_DESC_32F));
    c->reduce = plan_of(c->h, op);
    trntensorDestroyTensorDescriptor(da);
    trntensorDestroyTensorDescriptor(db);
    trntensorDestroyTensorDescriptor(dmn);
    trntensorDestroyTensorDescriptor(dnm);
    trntensorDestroyTensorDescriptor(dn);
    return c;
}

static void tensor_close(void *ctx) {
    tensor_ctx *c = ctx;
    OK(trntensorDestroyPlan(c->contract));
    OK(trntensorDestroyPlan(c->elementwise));
    OK(trntensorDestroyPlan(c->permute));
    OK(trntensorDestroyPlan(c->reduce));
    OK(trntensorDestroy(c->h));
    free(c);
}

/* Execute calls take their stream: nothing to set. */
static void tensor_prepare(void *ctx, trnsciStream_t s) {
    (void)ctx;
    (void)s;
}

static void tensor_run(void *ctx, trnsciStream_t s, const bufset *b) {
    const tensor_ctx *c = ctx;
    void *const *d = b->dev;
    const float one = 1, half = 0.5f, two = 2, zero = 0;
    OK(trntensorContract(c->h, c->contract, &one, d[TS_A], d[TS_B], &zero, d[TS_D], d[TS_D], NULL,
                         0, s));
    OK(trntensorElementwiseBinaryExecute(c->h, c->elementwise, &one, d[TS_D], &half, d[TS_G],
                                         d[TS_E], s));
    OK(trntensorPermute(c->h, c->permute, &two, d[TS_E], d[TS_F], s));
    OK(trntensorReduce(c->h, c->reduce, &one, d[TS_F], &zero, d[TS_R], d[TS_R], NULL, 0, s));
}

static const family tensor_family = {
    .name = "tensor",
    .nbuf = TS_COUNT,
    .names = {"A", "B", "D", "G", "E", "F", "r"},
    .bytes = {sizeof(float) * TM * TK * TP, sizeof(float) * TK *TP *TNN, sizeof(float) * TM *TNN,
              sizeof(float) * TM *TNN, sizeof(float) * TM *TNN, sizeof(float) * TM *TNN,
              sizeof(float) * TNN},
    .written = 1u << TS_D | 1u << TS_E | 1u << TS_F | 1u << TS_R,
    .nodes = 4,
    .idempotent = 1,
    .fill = tensor_fill,
    .open = tensor_open,
    .close = tensor_close,
    .prepare = tensor_prepare,
    .run = tensor_run,
};

/* ---- the test: eager, captured, replayed ------------------------------------------- */

typedef struct fcase {
    const family *f;
    int grpc;
} fcase;

static void connect_to(int grpc) {
    trnsciDeviceReset();
    assert_int_equal(trnsciInit(grpc ? daemon_under_test.tcp_addr : daemon_under_test.unix_addr),
                     trnsciSuccess);
}

/* The sequence run eagerly on the default stream; its results in *want. */
static void run_eager(const family *f, void *ctx, const bufset *b, const snapshot *init,
                      snapshot *want) {
    f->prepare(ctx, NULL);
    f->run(ctx, NULL, b);
    OK(trnsciDeviceSynchronize());
    snap_read(f, b, want);
    /* The sequence did write what it writes (equality of two no-ops would
     * prove nothing). */
    for (int i = 0; i < f->nbuf; i++)
        if ((f->written >> i & 1u) && memcmp(want->buf[i], init->buf[i], f->bytes[i]) == 0)
            fail_msg("%s: the eager run left %s as it was", f->name, f->names[i]);
    if (f->check)
        f->check(want->buf);
}

/* The sequence captured on s into a graph of f->nodes kernel nodes in one
 * chain. */
static trnsciGraph_t capture(const family *f, void *ctx, trnsciStream_t s, const bufset *b) {
    f->prepare(ctx, s);
    OK(trnsciStreamBeginCapture(s, trnsciStreamCaptureModeGlobal));
    f->run(ctx, s, b);
    trnsciGraph_t g = NULL;
    OK(trnsciStreamEndCapture(s, &g));
    assert_non_null(g);
    trnsciStreamCaptureStatus cs;
    OK(trnsciStreamIsCapturing(s, &cs));
    assert_int_equal(cs, trnsciStreamCaptureStatusNone);

    size_t n = 0, roots = 0;
    OK(trnsciGraphGetNodes(g, NULL, &n));
    assert_int_equal(n, f->nodes);
    trnsciGraphNode_t nodes[16];
    assert_true(n <= 16);
    OK(trnsciGraphGetNodes(g, nodes, &n));
    for (size_t i = 0; i < n; i++) {
        trnsciGraphNodeType ty;
        OK(trnsciGraphNodeGetType(nodes[i], &ty));
        assert_int_equal(ty, trnsciGraphNodeTypeKernel);
    }
    OK(trnsciGraphGetRootNodes(g, NULL, &roots));
    assert_int_equal(roots, 1);
    return g;
}

/* Launches x count times on s (back to back), then compares. */
static void launch_and_compare(const family *f, trnsciGraphExec_t x, trnsciStream_t s,
                               const bufset *b, const snapshot *want, int count, const char *when) {
    for (int k = 0; k < count; k++)
        OK(trnsciGraphLaunch(x, s));
    OK(trnsciStreamSynchronize(s));
    snapshot got;
    snap_read(f, b, &got);
    snap_expect_equal(f, &got, want, when);
    snap_free(f, &got);
}

static void test_family(void **state) {
    const fcase *fc = *state;
    const family *f = fc->f;
    connect_to(fc->grpc);
    void *ctx = f->open();
    trnsciStream_t s;
    OK(trnsciStreamCreate(&s));
    bufset eager, graphed;
    set_make(f, ctx, &eager);
    set_make(f, ctx, &graphed);
    snapshot init, want, now;
    snap_initial(f, &init);
    run_eager(f, ctx, &eager, &init, &want);

    trnsciGraph_t g = capture(f, ctx, s, &graphed);
    snap_read(f, &graphed, &now);
    snap_expect_equal(f, &now, &init, "after EndCapture (capture ran the calls)");
    snap_free(f, &now);

    trnsciGraphExec_t x;
    OK(trnsciGraphInstantiate(&x, g, 0));
    launch_and_compare(f, x, s, &graphed, &want, 1, "after the first launch");
    if (f->idempotent) {
        launch_and_compare(f, x, s, &graphed, &want, 2, "after two more launches");
    } else {
        set_upload(f, &graphed);
        launch_and_compare(f, x, s, &graphed, &want, 1, "after a launch on reset inputs");
    }

    OK(trnsciGraphExecDestroy(x));
    OK(trnsciGraphDestroy(g));
    f->prepare(ctx, NULL);
    snap_free(f, &init);
    snap_free(f, &want);
    set_free(f, &eager);
    set_free(f, &graphed);
    f->close(ctx);
    OK(trnsciStreamDestroy(s));
}

int main(void) {
    const family *const families[] = {&blas_family,   &fft_family,    &rand_family,
                                      &solver_family, &sparse_family, &tensor_family};
    enum { NCASES = 2 * sizeof(families) / sizeof(families[0]) };
    static fcase cases[NCASES];
    static char names[NCASES][48];
    struct CMUnitTest tests[NCASES];
    for (int i = 0; i < NCASES; i++) {
        cases[i] = (fcase){families[i / 2], i % 2};
        snprintf(names[i], sizeof(names[i]), "%s (%s)", cases[i].f->name,
                 cases[i].grpc ? "grpc" : "local");
        tests[i] = (struct CMUnitTest){names[i], test_family, NULL, NULL, &cases[i]};
    }
    const char *const args[] = {"--cores", "2", NULL};
    if (th_daemon_start(&daemon_under_test, args) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    trnsciDeviceReset();
    failed += th_daemon_stop_checked(&daemon_under_test, "trnscid");
    return failed;
}
