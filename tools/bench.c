/*
 * bench.c — `trnsci bench`: a quick self-check of every family against the
 * daemon, each with a figure, in a second or so. It opens a session (the
 * only command that does), runs one small op per family a few times, checks
 * the result against what it must be exactly (or, for random numbers, within
 * five standard deviations), and prints the median time as a rate:
 *
 *   blas    SGEMM 256^3 of all-ones matrices: every entry is 256    GFLOP/s
 *   fft     C2C 4096 x 16 of unit impulses: every output is 1+0i    GFLOP/s (5 n log2 n)
 *   rand    Philox uniform, 4M floats: mean within 5 sigma of 1/2   Gsamples/s
 *   solver  SPOTRF 256 of n I + ones: info 0, L00 = sqrt(n + 1)     GFLOP/s (n^3 / 3)
 *   sparse  SpMV with a 65536 identity (CSR): y = x                 GB/s (bytes touched)
 *
 * These are health figures (is every family answering, roughly at speed),
 * not benchmarks: bench/ has those. Exit status 1 when a check fails.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/cli.h"
#include "tools/fmt.h"
#include "trnsci/trnblas.h"
#include "trnsci/trnfft.h"
#include "trnsci/trnrand.h"
#include "trnsci/trnsci.h"
#include "trnsci/trnsolver.h"
#include "trnsci/trnsparse.h"

#define REPS 5

typedef struct result {
    const char *family, *what, *unit;
    int ok;
    double rate; /* unit per second, of the median run */
    char detail[160];
} result;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median of REPS timings of run(ctx) (after one untimed run). */
static double median_time(int (*run)(void *), void *ctx, int *ok) {
    double t[REPS];
    *ok = run(ctx) == 0;
    for (int i = 0; i < REPS && *ok; i++) {
        const double a = now_s();
        *ok = run(ctx) == 0 && trnsciDeviceSynchronize() == trnsciSuccess;
        t[i] = now_s() - a;
    }
    if (!*ok)
        return 0;
    qsort(t, REPS, sizeof(double), cmp);
    return t[REPS / 2];
}

/* ---- blas ------------------------------------------------------------------------ */

typedef struct gemm_ctx {
    trnblasHandle_t h;
    float *A, *B, *C;
    int n;
} gemm_ctx;

static int run_gemm(void *p) {
    gemm_ctx *g = p;
    const float one = 1.0f, zero = 0.0f;
    return trnblasSgemm(g->h, TRNBLAS_OP_N, TRNBLAS_OP_N, g->n, g->n, g->n, &one, g->A, g->n, g->B,
                        g->n, &zero, g->C, g->n) != TRNBLAS_STATUS_SUCCESS;
}

static void check_blas(result *r) {
    gemm_ctx g = {.n = 256};
    const size_t bytes = (size_t)g.n * g.n * sizeof(float);
    float *host = malloc(bytes);
    r->family = "blas", r->what = "SGEMM 256^3", r->unit = "GFLOP/s";
    if (!host || trnblasCreate(&g.h) != TRNBLAS_STATUS_SUCCESS ||
        trnsciMalloc((void **)&g.A, bytes) || trnsciMalloc((void **)&g.B, bytes) ||
        trnsciMalloc((void **)&g.C, bytes)) {
        snprintf(r->detail, sizeof(r->detail), "set-up failed: %s", trnsciGetLastErrorMessage());
        goto out;
    }
    for (int i = 0; i < g.n * g.n; i++)
        host[i] = 1.0f;
    trnsciMemcpy(g.A, host, bytes, trnsciMemcpyHostToDevice);
    trnsciMemcpy(g.B, host, bytes, trnsciMemcpyHostToDevice);
    const double t = median_time(run_gemm, &g, &r->ok);
    if (r->ok && trnsciMemcpy(host, g.C, bytes, trnsciMemcpyDeviceToHost) == trnsciSuccess) {
        int bad = 0;
        for (int i = 0; i < g.n * g.n; i++)
            bad += host[i] != (float)g.n;
        r->ok = bad == 0;
        r->rate = 2.0 * g.n * g.n * g.n / t * 1e-9;
        snprintf(r->detail, sizeof(r->detail), "%d of %d entries wrong", bad, g.n * g.n);
    } else {
        r->ok = 0;
        snprintf(r->detail, sizeof(r->detail), "%s", trnsciGetLastErrorMessage());
    }
out:
    trnsciFree(g.A), trnsciFree(g.B), trnsciFree(g.C);
    if (g.h)
        trnblasDestroy(g.h);
    free(host);
}

/* ---- fft ------------------------------------------------------------------------- */

typedef struct fft_ctx {
    trnfftHandle plan;
    trnfftComplex *in, *out;
} fft_ctx;

static int run_fft(void *p) {
    fft_ctx *f = p;
    return trnfftExecC2C(f->plan, f->in, f->out, TRNFFT_FORWARD) != TRNFFT_SUCCESS;
}

static void check_fft(result *r) {
    const int n = 4096, batch = 16;
    const size_t bytes = (size_t)n * batch * sizeof(trnfftComplex);
    fft_ctx f = {0};
    trnfftComplex *host = calloc((size_t)n * batch, sizeof(*host));
    r->family = "fft", r->what = "C2C 4096 x 16", r->unit = "GFLOP/s";
    int planned = 0;
    if (!host || trnsciMalloc((void **)&f.in, bytes) || trnsciMalloc((void **)&f.out, bytes) ||
        !(planned = trnfftPlan1d(&f.plan, n, TRNFFT_C2C, batch) == TRNFFT_SUCCESS)) {
        snprintf(r->detail, sizeof(r->detail), "set-up failed: %s", trnsciGetLastErrorMessage());
        goto out;
    }
    for (int b = 0; b < batch; b++)
        host[(size_t)b * n].x = 1.0f; /* a unit impulse per transform */
    trnsciMemcpy(f.in, host, bytes, trnsciMemcpyHostToDevice);
    const double t = median_time(run_fft, &f, &r->ok);
    if (r->ok && trnsciMemcpy(host, f.out, bytes, trnsciMemcpyDeviceToHost) == trnsciSuccess) {
        int bad = 0;
        for (int i = 0; i < n * batch; i++)
            bad += host[i].x != 1.0f || host[i].y != 0.0f;
        r->ok = bad == 0;
        r->rate = 5.0 * n * log2((double)n) * batch / t * 1e-9;
        snprintf(r->detail, sizeof(r->detail), "%d of %d outputs not 1+0i", bad, n * batch);
    } else {
        r->ok = 0;
        snprintf(r->detail, sizeof(r->detail), "%s", trnsciGetLastErrorMessage());
    }
out:
    if (planned)
        trnfftDestroy(f.plan);
    trnsciFree(f.in), trnsciFree(f.out);
    free(host);
}

/* ---- rand ------------------------------------------------------------------------ */

typedef struct rand_ctx {
    trnrandGenerator_t g;
    float *out;
    size_t n;
} rand_ctx;

static int run_rand(void *p) {
    rand_ctx *c = p;
    return trnrandGenerateUniform(c->g, c->out, c->n) != TRNRAND_STATUS_SUCCESS;
}

static void check_rand(result *r) {
    rand_ctx c = {.n = (size_t)4 << 20};
    float *host = malloc(c.n * sizeof(float));
    int created = 0;
    r->family = "rand", r->what = "Philox uniform 4M", r->unit = "Gsamples/s";
    if (!host || trnsciMalloc((void **)&c.out, c.n * sizeof(float)) ||
        !(created = trnrandCreateGenerator(&c.g, TRNRAND_RNG_PSEUDO_PHILOX4_32_10) ==
                    TRNRAND_STATUS_SUCCESS) ||
        trnrandSetPseudoRandomGeneratorSeed(c.g, 1234) != TRNRAND_STATUS_SUCCESS) {
        snprintf(r->detail, sizeof(r->detail), "set-up failed: %s", trnsciGetLastErrorMessage());
        goto out;
    }
    const double t = median_time(run_rand, &c, &r->ok);
    if (r->ok &&
        trnsciMemcpy(host, c.out, c.n * sizeof(float), trnsciMemcpyDeviceToHost) == trnsciSuccess) {
        double sum = 0;
        for (size_t i = 0; i < c.n; i++)
            sum += host[i];
        /* Uniform on (0, 1]: variance 1/12, so the mean of n has sigma
         * sqrt(1 / (12 n)); 5 sigma fails a correct generator ~1 in 10^6. */
        const double mean = sum / (double)c.n, sigma = sqrt(1.0 / (12.0 * (double)c.n));
        r->ok = fabs(mean - 0.5) < 5 * sigma;
        r->rate = (double)c.n / t * 1e-9;
        snprintf(r->detail, sizeof(r->detail), "mean %.6f (0.5 +- %.6f)", mean, 5 * sigma);
    } else {
        r->ok = 0;
        snprintf(r->detail, sizeof(r->detail), "%s", trnsciGetLastErrorMessage());
    }
out:
    if (created)
        trnrandDestroyGenerator(c.g);
    trnsciFree(c.out);
    free(host);
}

/* ---- solver ------------------------------------------------------------------------ */

typedef struct potrf_ctx {
    trnsolverDnHandle_t h;
    float *A, *work, *host;
    int *info, n, lwork;
} potrf_ctx;

static int run_potrf(void *p) {
    potrf_ctx *c = p;
    /* The factorisation overwrites A: restore it first (not timed apart). */
    const size_t bytes = (size_t)c->n * c->n * sizeof(float);
    if (trnsciMemcpy(c->A, c->host, bytes, trnsciMemcpyHostToDevice) != trnsciSuccess)
        return -1;
    return trnsolverDnSpotrf(c->h, TRNBLAS_FILL_MODE_LOWER, c->n, c->A, c->n, c->work, c->lwork,
                             c->info) != TRNSOLVER_STATUS_SUCCESS;
}

static void check_solver(result *r) {
    potrf_ctx c = {.n = 256};
    const size_t bytes = (size_t)c.n * c.n * sizeof(float);
    c.host = malloc(bytes);
    r->family = "solver", r->what = "SPOTRF 256", r->unit = "GFLOP/s";
    if (!c.host || trnsolverDnCreate(&c.h) != TRNSOLVER_STATUS_SUCCESS ||
        trnsciMalloc((void **)&c.A, bytes) || trnsciMalloc((void **)&c.info, sizeof(int)) ||
        trnsolverDnSpotrf_bufferSize(c.h, TRNBLAS_FILL_MODE_LOWER, c.n, c.A, c.n, &c.lwork) !=
            TRNSOLVER_STATUS_SUCCESS ||
        trnsciMalloc((void **)&c.work, (size_t)(c.lwork > 0 ? c.lwork : 1) * sizeof(float))) {
        snprintf(r->detail, sizeof(r->detail), "set-up failed: %s", trnsciGetLastErrorMessage());
        goto out;
    }
    /* n I + ones: symmetric positive definite; L00 = sqrt(n + 1) exactly
     * rounded. */
    for (int j = 0; j < c.n; j++)
        for (int i = 0; i < c.n; i++)
            c.host[(size_t)j * c.n + i] = 1.0f + (i == j ? (float)c.n : 0.0f);
    const double t = median_time(run_potrf, &c, &r->ok);
    int info = -1;
    float l00 = 0;
    if (r->ok && trnsciMemcpy(&info, c.info, sizeof(int), trnsciMemcpyDeviceToHost) == 0 &&
        trnsciMemcpy(&l00, c.A, sizeof(float), trnsciMemcpyDeviceToHost) == 0) {
        r->ok = info == 0 && l00 == sqrtf((float)c.n + 1.0f);
        r->rate = (double)c.n * c.n * c.n / 3.0 / t * 1e-9;
        snprintf(r->detail, sizeof(r->detail), "info %d, L00 %.7g (sqrt %d = %.7g)", info, l00,
                 c.n + 1, sqrtf((float)c.n + 1.0f));
    } else {
        r->ok = 0;
        snprintf(r->detail, sizeof(r->detail), "%s", trnsciGetLastErrorMessage());
    }
out:
    trnsciFree(c.A), trnsciFree(c.work), trnsciFree(c.info);
    if (c.h)
        trnsolverDnDestroy(c.h);
    free(c.host);
}

/* ---- sparse ------------------------------------------------------------------------ */

typedef struct spmv_ctx {
    trnsparseHandle_t h;
    trnsparseSpMatDescr_t A;
    trnsparseDnVecDescr_t x, y;
} spmv_ctx;

static int run_spmv(void *p) {
    spmv_ctx *c = p;
    const float one = 1.0f, zero = 0.0f;
    return trnsparseSpMV(c->h, TRNSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, c->x, &zero, c->y,
                         TRNSCI_R_32F, TRNSPARSE_SPMV_ALG_DEFAULT,
                         NULL) != TRNSPARSE_STATUS_SUCCESS;
}

static void check_sparse(result *r) {
    const int n = 65536;
    spmv_ctx c = {0};
    int *rows = NULL, *cols = NULL, *hrows = malloc((n + 1) * sizeof(int));
    float *vals = NULL, *x = NULL, *y = NULL, *hv = malloc(n * sizeof(float));
    r->family = "sparse", r->what = "SpMV CSR 65536 identity", r->unit = "GB/s";
    if (!hrows || !hv || trnsparseCreate(&c.h) != TRNSPARSE_STATUS_SUCCESS ||
        trnsciMalloc((void **)&rows, (n + 1) * sizeof(int)) ||
        trnsciMalloc((void **)&cols, n * sizeof(int)) ||
        trnsciMalloc((void **)&vals, n * sizeof(float)) ||
        trnsciMalloc((void **)&x, n * sizeof(float)) ||
        trnsciMalloc((void **)&y, n * sizeof(float))) {
        snprintf(r->detail, sizeof(r->detail), "set-up failed: %s", trnsciGetLastErrorMessage());
        goto out;
    }
    for (int i = 0; i <= n; i++)
        hrows[i] = i;
    trnsciMemcpy(rows, hrows, (n + 1) * sizeof(int), trnsciMemcpyHostToDevice);
    trnsciMemcpy(cols, hrows, n * sizeof(int), trnsciMemcpyHostToDevice);
    for (int i = 0; i < n; i++)
        hv[i] = 1.0f;
    trnsciMemcpy(vals, hv, n * sizeof(float), trnsciMemcpyHostToDevice);
    for (int i = 0; i < n; i++)
        hv[i] = (float)i;
    trnsciMemcpy(x, hv, n * sizeof(float), trnsciMemcpyHostToDevice);
    if (trnsparseCreateCsr(&c.A, n, n, n, rows, cols, vals, TRNSPARSE_INDEX_32I,
                           TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO,
                           TRNSCI_R_32F) != TRNSPARSE_STATUS_SUCCESS ||
        trnsparseCreateDnVec(&c.x, n, x, TRNSCI_R_32F) != TRNSPARSE_STATUS_SUCCESS ||
        trnsparseCreateDnVec(&c.y, n, y, TRNSCI_R_32F) != TRNSPARSE_STATUS_SUCCESS) {
        snprintf(r->detail, sizeof(r->detail), "descriptors: %s", trnsciGetLastErrorMessage());
        goto out;
    }
    const double t = median_time(run_spmv, &c, &r->ok);
    if (r->ok && trnsciMemcpy(hv, y, n * sizeof(float), trnsciMemcpyDeviceToHost) == 0) {
        int bad = 0;
        for (int i = 0; i < n; i++)
            bad += hv[i] != (float)i;
        r->ok = bad == 0;
        /* Row offsets, column indices, values, x and y. */
        r->rate = (double)n * (2 * sizeof(int) + 3 * sizeof(float)) / t * 1e-9;
        snprintf(r->detail, sizeof(r->detail), "%d of %d entries of y wrong", bad, n);
    } else {
        r->ok = 0;
        snprintf(r->detail, sizeof(r->detail), "%s", trnsciGetLastErrorMessage());
    }
out:
    if (c.A)
        trnsparseDestroySpMat(c.A);
    if (c.x)
        trnsparseDestroyDnVec(c.x);
    if (c.y)
        trnsparseDestroyDnVec(c.y);
    if (c.h)
        trnsparseDestroy(c.h);
    trnsciFree(rows), trnsciFree(cols), trnsciFree(vals), trnsciFree(x), trnsciFree(y);
    free(hrows);
    free(hv);
}

int trnsci_cmd_bench(const char *addr, int argc, char **argv, int json) {
    (void)argv;
    if (argc != 0) {
        fprintf(stderr, "usage: trnsci bench [--json]\n");
        return 2;
    }
    if (trnsciInit(addr) != trnsciSuccess) {
        fprintf(stderr, "trnsci bench: %s\n", trnsciGetLastErrorMessage());
        return 1;
    }
    void (*const checks[])(result *) = {check_blas, check_fft, check_rand, check_solver,
                                        check_sparse};
    enum { N = sizeof(checks) / sizeof(checks[0]) };
    result res[N];
    int failed = 0;
    for (int i = 0; i < N; i++) {
        memset(&res[i], 0, sizeof(res[i]));
        checks[i](&res[i]);
        (void)trnsciGetLastError();
        failed += !res[i].ok;
    }
    trnsciDeviceReset();
    if (json) {
        printf("{\"ok\": %s, \"checks\": [", failed ? "false" : "true");
        for (int i = 0; i < N; i++) {
            printf("%s\n  {\"family\": \"%s\", \"op\": \"%s\", \"ok\": %s, \"rate\": %.6g, "
                   "\"unit\": \"%s\", \"detail\": ",
                   i ? "," : "", res[i].family, res[i].what, res[i].ok ? "true" : "false",
                   res[i].rate, res[i].unit);
            cli_json_str(stdout, res[i].detail);
            printf("}");
        }
        printf("]}\n");
    } else {
        printf("%-7s %-24s %-5s %10s  %s\n", "FAMILY", "CHECK", "OK", "FIGURE", "UNIT");
        for (int i = 0; i < N; i++) {
            printf("%-7s %-24s %-5s %10.3g  %s", res[i].family, res[i].what,
                   res[i].ok ? "ok" : "FAIL", res[i].rate, res[i].unit);
            if (!res[i].ok)
                printf("  (%s)", res[i].detail);
            printf("\n");
        }
    }
    return failed ? 1 : 0;
}
