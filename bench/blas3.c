/*
 * blas3.c — trnblas Level 3 beyond GEMM through trnscid versus in-process
 * OpenBLAS, in one run: dsymm, zhemm, dsyrk, zherk, dsyr2k, zher2k, dtrsm,
 * dtrmm, dgeam and ddgmm (real routines in double, Hermitian ones in double
 * complex), square sizes n (m = n = k).
 *
 *   trnsci:   operands live in the daemon (uploaded once); one timed
 *             repetition is the trnblas call + trnsciStreamSynchronize(NULL),
 *             everything a client waits for.
 *   OpenBLAS: the same operation in this process on the same inputs: the
 *             cblas routine; for cuBLAS's out-of-place trmm, a copy of B into
 *             C and cblas_dtrmm on C; for geam (C = A + 0.5 B^T),
 *             cblas_domatcopy (C = 0.5 B^T) then cblas_dgeadd (C = A + C); for dgmm (C = A
 * diag(x)), a dcopy and a dscal per column. One thread, pinned to the CPU the daemon's worker runs
 * on (--openblas-cpu), or N threads
 *             (--openblas-threads N, all-core mode, unpinned).
 * trsm overwrites B: before every repetition (outside the timed region) both
 * sides restore it. symm..her2k use beta = 0.5, so C stays bounded.
 * Repetitions alternate trnsci / OpenBLAS after a warm-up. Reported per
 * routine and size: median, min and max in ms, GFLOP/s (geam, dgmm: GB/s of
 * the bytes they touch), ratio = OpenBLAS median / trnsci median, and
 * max_rel_diff = max |trnsci - OpenBLAS| / max |OpenBLAS| of the final
 * outputs (not 0: the daemon computes in tiles, docs/benchmarks.md). One
 * JSON object on stdout.
 *
 * usage: bench_blas3 [ADDRESS] [--sizes 2048] [--reps N] [--warmup N]
 *                    [--routines dtrsm,dsyrk,...] [--openblas-cpu CPU]
 *                    [--openblas-threads N]
 * --tiles replaces the daemon by the daemon's own CPU kernel called in this
 * process on the same (mapped) buffers and the same CPU: the "trnsci" figures
 * are then the tiled kernel's, which separates what the output tiles cost
 * from what going through the daemon costs (local transport only).
 * bench/run_blas3.sh sets up the placement (docs/benchmarks.md).
 */
#define _GNU_SOURCE
#include <cblas.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trnsci/trnblas.h>
#include <trnsci/trnsci.h>

#include "bench_util.h"
#include "kernels/cpu/cpu_kernels.h"

#define MAX_SIZES 8
#define MAX_REPS 100

typedef enum {
    R_DSYMM,
    R_ZHEMM,
    R_DSYRK,
    R_ZHERK,
    R_DSYR2K,
    R_ZHER2K,
    R_DTRSM,
    R_DTRMM,
    R_DGEAM,
    R_DDGMM,
    R_COUNT
} routine;

static const char *const names[R_COUNT] = {"dsymm",  "zhemm", "dsyrk", "zherk", "dsyr2k",
                                           "zher2k", "dtrsm", "dtrmm", "dgeam", "ddgmm"};
static const char *const forms[R_COUNT] = {"left, lower, alpha 1, beta 0.5",
                                           "left, lower, alpha 1, beta 0.5",
                                           "lower, N, alpha 1, beta 0.5",
                                           "lower, N, alpha 1, beta 0.5",
                                           "lower, N, alpha 1, beta 0.5",
                                           "lower, N, alpha 1, beta 0.5",
                                           "left, lower, N, non-unit, alpha 1",
                                           "left, upper, N, non-unit, alpha 1, out of place",
                                           "C = A + 0.5 B^T",
                                           "right: C = A diag(x)"};

static int is_z(routine r) {
    return r == R_ZHEMM || r == R_ZHERK || r == R_ZHER2K;
}

static void die(const char *what) {
    fprintf(stderr, "bench_blas3: %s failed: %s\n", what, trnsciGetLastErrorMessage());
    exit(1);
}

/* Flops (or bytes touched, for geam and dgmm) of one call. */
static double work(routine r, double n) {
    switch (r) {
    case R_DSYMM: return 2 * n * n * n;
    case R_ZHEMM: return 8 * n * n * n;
    case R_DSYRK: return n * n * n;
    case R_ZHERK: return 4 * n * n * n;
    case R_DSYR2K: return 2 * n * n * n;
    case R_ZHER2K: return 8 * n * n * n;
    case R_DTRSM:
    case R_DTRMM: return n * n * n;
    case R_DGEAM: return 3 * n * n * 8;
    case R_DDGMM: return 2 * n * n * 8;
    case R_COUNT: break;
    }
    return 0;
}

/* The operands of one routine at one size, on both sides. */
typedef struct ops {
    routine r;
    int n;
    size_t elems, bytes;           /* of one n x n matrix */
    double *A, *B, *B0, *C, *x;    /* host (in-process side) */
    void *dA, *dB, *dB0, *dC, *dx; /* daemon */
} ops;

static void ops_init(ops *o, routine r, int n) {
    o->r = r;
    o->n = n;
    o->elems = (size_t)n * (size_t)n * (is_z(r) ? 2 : 1);
    o->bytes = o->elems * sizeof(double);
    o->A = malloc(o->bytes);
    o->B = malloc(o->bytes);
    o->B0 = malloc(o->bytes);
    o->C = malloc(o->bytes);
    o->x = malloc((size_t)n * sizeof(double));
    if (!o->A || !o->B || !o->B0 || !o->C || !o->x) {
        fprintf(stderr, "bench_blas3: out of host memory for n=%d\n", n);
        exit(1);
    }
    float *tmp = malloc(o->elems * sizeof(float));
    if (!tmp)
        exit(1);
    bench_fill(tmp, o->elems, 100u + (unsigned)r);
    for (size_t i = 0; i < o->elems; i++)
        o->A[i] = tmp[i];
    if (r == R_DTRSM || r == R_DTRMM) /* well conditioned: a heavy diagonal */
        for (int i = 0; i < n; i++)
            o->A[(size_t)i * (size_t)n + (size_t)i] += o->A[(size_t)i * (size_t)n + i] < 0 ? -n : n;
    bench_fill(tmp, o->elems, 200u + (unsigned)r);
    for (size_t i = 0; i < o->elems; i++)
        o->B0[i] = o->B[i] = tmp[i];
    bench_fill(tmp, o->elems, 300u + (unsigned)r);
    for (size_t i = 0; i < o->elems; i++)
        o->C[i] = tmp[i];
    bench_fill(tmp, (size_t)n, 400u + (unsigned)r);
    for (int i = 0; i < n; i++)
        o->x[i] = tmp[i];
    free(tmp);
    if (trnsciMalloc(&o->dA, o->bytes) || trnsciMalloc(&o->dB, o->bytes) ||
        trnsciMalloc(&o->dB0, o->bytes) || trnsciMalloc(&o->dC, o->bytes) ||
        trnsciMalloc(&o->dx, (size_t)n * sizeof(double)))
        die("trnsciMalloc");
    if (trnsciMemcpy(o->dA, o->A, o->bytes, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(o->dB, o->B, o->bytes, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(o->dB0, o->B, o->bytes, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(o->dC, o->C, o->bytes, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(o->dx, o->x, (size_t)n * sizeof(double), trnsciMemcpyHostToDevice))
        die("trnsciMemcpy (upload)");
}

static void ops_free(ops *o) {
    free(o->A);
    free(o->B);
    free(o->B0);
    free(o->C);
    free(o->x);
    if (trnsciFree(o->dA) || trnsciFree(o->dB) || trnsciFree(o->dB0) || trnsciFree(o->dC) ||
        trnsciFree(o->dx))
        die("trnsciFree");
}

/* Before a repetition, outside the timed region: trsm's B back to B0. */
static void restore(ops *o) {
    if (o->r != R_DTRSM)
        return;
    memcpy(o->B, o->B0, o->bytes);
    if (trnsciMemcpy(o->dB, o->dB0, o->bytes, trnsciMemcpyDeviceToDevice))
        die("trnsciMemcpy (restore)");
}

static const double one = 1.0, half = 0.5;
static const double zone[2] = {1.0, 0.0}, zhalf[2] = {0.5, 0.0};

/* One timed call through the daemon. */
static void run_trn(trnblasHandle_t h, ops *o) {
    const int n = o->n;
    const trnblasFillMode_t lo = TRNBLAS_FILL_MODE_LOWER;
    const trnblasOperation_t N = TRNBLAS_OP_N;
    trnblasStatus_t st = TRNBLAS_STATUS_INTERNAL_ERROR;
    switch (o->r) {
    case R_DSYMM:
        st =
            trnblasDsymm(h, TRNBLAS_SIDE_LEFT, lo, n, n, &one, o->dA, n, o->dB, n, &half, o->dC, n);
        break;
    case R_ZHEMM:
        st = trnblasZhemm(h, TRNBLAS_SIDE_LEFT, lo, n, n, (const void *)zone, o->dA, n, o->dB, n,
                          (const void *)zhalf, o->dC, n);
        break;
    case R_DSYRK: st = trnblasDsyrk(h, lo, N, n, n, &one, o->dA, n, &half, o->dC, n); break;
    case R_ZHERK: st = trnblasZherk(h, lo, N, n, n, &one, o->dA, n, &half, o->dC, n); break;
    case R_DSYR2K:
        st = trnblasDsyr2k(h, lo, N, n, n, &one, o->dA, n, o->dB, n, &half, o->dC, n);
        break;
    case R_ZHER2K:
        st = trnblasZher2k(h, lo, N, n, n, (const void *)zone, o->dA, n, o->dB, n, &half, o->dC, n);
        break;
    case R_DTRSM:
        st = trnblasDtrsm(h, TRNBLAS_SIDE_LEFT, lo, N, TRNBLAS_DIAG_NON_UNIT, n, n, &one, o->dA, n,
                          o->dB, n);
        break;
    case R_DTRMM:
        st = trnblasDtrmm(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, N, TRNBLAS_DIAG_NON_UNIT,
                          n, n, &one, o->dA, n, o->dB, n, o->dC, n);
        break;
    case R_DGEAM:
        st = trnblasDgeam(h, N, TRNBLAS_OP_T, n, n, &one, o->dA, n, &half, o->dB, n, o->dC, n);
        break;
    case R_DDGMM:
        st = trnblasDdgmm(h, TRNBLAS_SIDE_RIGHT, n, n, o->dA, n, o->dx, 1, o->dC, n);
        break;
    case R_COUNT: break;
    }
    if (st != TRNBLAS_STATUS_SUCCESS)
        die(names[o->r]);
    if (trnsciStreamSynchronize(NULL) != trnsciSuccess)
        die("trnsciStreamSynchronize");
}

/* --tiles: the daemon's CPU kernel (kernels/cpu/blas3.c, its output tiles)
 * called in this process, on the same buffers (local transport: device
 * memory is mapped here too), instead of through the daemon: what the tiles
 * cost against one OpenBLAS call, without the daemon. */
static void run_tiles(ops *o) {
    const int n = o->n;
    trn_blas3_desc d = {.type = TRN_DTYPE_R64F,
                        .m = n,
                        .n = n,
                        .k = n,
                        .alpha = {1.0, 0.0},
                        .beta = {0.5, 0.0},
                        .a = o->dA,
                        .lda = n,
                        .b = o->dB,
                        .ldb = n,
                        .c = o->dC,
                        .ldc = n,
                        .x = o->dx,
                        .incx = 1};
    switch (o->r) {
    case R_DSYMM: d.fn = TRN_BLAS3_SYMM; break;
    case R_ZHEMM: d.fn = TRN_BLAS3_HEMM, d.type = TRN_DTYPE_C64F; break;
    case R_DSYRK: d.fn = TRN_BLAS3_SYRK; break;
    case R_ZHERK: d.fn = TRN_BLAS3_HERK, d.type = TRN_DTYPE_C64F; break;
    case R_DSYR2K: d.fn = TRN_BLAS3_SYR2K; break;
    case R_ZHER2K: d.fn = TRN_BLAS3_HER2K, d.type = TRN_DTYPE_C64F; break;
    case R_DTRSM: d.fn = TRN_BLAS3_TRSM, d.c = NULL; break;
    case R_DTRMM: d.fn = TRN_BLAS3_TRMM, d.uplo = TRN_UPLO_UPPER; break;
    case R_DGEAM: d.fn = TRN_BLAS3_GEAM, d.transb = TRN_TRANS_T; break;
    case R_DDGMM: d.fn = TRN_BLAS3_DGMM, d.side = TRN_SIDE_RIGHT; break;
    case R_COUNT: return;
    }
    if (trn_cpu_blas3(&d, 0, 1) != TRN_KSTATUS_OK)
        die("trn_cpu_blas3");
}

/* The same operation with OpenBLAS in this process. */
static void run_ob(ops *o) {
    const int n = o->n;
    const enum CBLAS_ORDER cm = CblasColMajor;
    switch (o->r) {
    case R_DSYMM:
        cblas_dsymm(cm, CblasLeft, CblasLower, n, n, 1.0, o->A, n, o->B, n, 0.5, o->C, n);
        break;
    case R_ZHEMM:
        cblas_zhemm(cm, CblasLeft, CblasLower, n, n, zone, o->A, n, o->B, n, zhalf, o->C, n);
        break;
    case R_DSYRK:
        cblas_dsyrk(cm, CblasLower, CblasNoTrans, n, n, 1.0, o->A, n, 0.5, o->C, n);
        break;
    case R_ZHERK:
        cblas_zherk(cm, CblasLower, CblasNoTrans, n, n, 1.0, o->A, n, 0.5, o->C, n);
        break;
    case R_DSYR2K:
        cblas_dsyr2k(cm, CblasLower, CblasNoTrans, n, n, 1.0, o->A, n, o->B, n, 0.5, o->C, n);
        break;
    case R_ZHER2K:
        cblas_zher2k(cm, CblasLower, CblasNoTrans, n, n, zone, o->A, n, o->B, n, 0.5, o->C, n);
        break;
    case R_DTRSM:
        cblas_dtrsm(cm, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, n, n, 1.0, o->A, n, o->B,
                    n);
        break;
    case R_DTRMM:
        memcpy(o->C, o->B, o->bytes); /* cuBLAS's trmm is out of place */
        cblas_dtrmm(cm, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, n, n, 1.0, o->A, n, o->C,
                    n);
        break;
    case R_DGEAM:
        /* C = 0.5 B^T (a transposing copy), then C = A + C. */
        cblas_domatcopy(cm, CblasTrans, n, n, 0.5, o->B, n, o->C, n);
        cblas_dgeadd(cm, n, n, 1.0, o->A, n, 1.0, o->C, n);
        break;
    case R_DDGMM:
        for (int j = 0; j < n; j++) {
            cblas_dcopy(n, o->A + (size_t)j * (size_t)n, 1, o->C + (size_t)j * (size_t)n, 1);
            cblas_dscal(n, o->x[j], o->C + (size_t)j * (size_t)n, 1);
        }
        break;
    case R_COUNT: break;
    }
}

/* The output each side's calls leave: C, or B for trsm. */
static double rel_diff(ops *o) {
    double *got = malloc(o->bytes);
    if (!got)
        exit(1);
    const void *dout = o->r == R_DTRSM ? o->dB : o->dC;
    const double *ref = o->r == R_DTRSM ? o->B : o->C;
    if (trnsciMemcpy(got, dout, o->bytes, trnsciMemcpyDeviceToHost))
        die("trnsciMemcpy (download)");
    double num = 0, den = 0;
    const int tri = o->r >= R_DSYRK && o->r <= R_ZHER2K; /* lower triangle only */
    const int w = is_z(o->r) ? 2 : 1;
    for (size_t j = 0; j < (size_t)o->n; j++)
        for (size_t i = tri ? j : 0; i < (size_t)o->n; i++)
            for (int c = 0; c < w; c++) {
                const size_t k = (i + j * (size_t)o->n) * (size_t)w + (size_t)c;
                num = bench_worse(num, fabs(got[k] - ref[k]));
                den = fmax(den, fabs(ref[k]));
            }
    free(got);
    return den > 0 ? num / den : num;
}

typedef struct result {
    routine r;
    int n, reps;
    bench_stats trn, ob;
    double diff;
} result;

static void usage(void) {
    fputs("usage: bench_blas3 [ADDRESS] [--sizes 2048] [--reps N] [--warmup N]\n"
          "                   [--routines dtrsm,dsyrk,...] [--openblas-cpu CPU]\n"
          "                   [--openblas-threads N] [--tiles]\n",
          stderr);
    exit(2);
}

int main(int argc, char **argv) {
    const char *addr = NULL, *size_list = NULL, *routine_list = NULL;
    int reps = 5, warmup = 1, ob_cpu = -1, ob_threads = 1, tiles = 0;
    const bench_opt opts[] = {{"--sizes", BENCH_OPT_STR, &size_list},
                              {"--reps", BENCH_OPT_INT, &reps},
                              {"--warmup", BENCH_OPT_INT, &warmup},
                              {"--routines", BENCH_OPT_STR, &routine_list},
                              {"--openblas-cpu", BENCH_OPT_INT, &ob_cpu},
                              {"--openblas-threads", BENCH_OPT_INT, &ob_threads},
                              {"--tiles", BENCH_OPT_FLAG, &tiles},
                              {NULL, BENCH_OPT_FLAG, NULL}};
    if (bench_parse_args(opts, argc, argv, &addr) != 0 || reps < 1 || reps > MAX_REPS ||
        warmup < 0 || ob_threads < 1 || (tiles && ob_threads > 1))
        usage();
    int sizes[MAX_SIZES] = {2048}, nsizes = 1;
    char list[1024];
    if (size_list) {
        snprintf(list, sizeof(list), "%s", size_list);
        nsizes = 0;
        for (char *t = strtok(list, ","); t && nsizes < MAX_SIZES; t = strtok(NULL, ","))
            if ((sizes[nsizes++] = atoi(t)) < 1)
                usage();
    }
    int want[R_COUNT];
    for (int r = 0; r < R_COUNT; r++)
        want[r] = routine_list == NULL;
    if (routine_list) {
        snprintf(list, sizeof(list), "%s", routine_list);
        for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
            int found = 0;
            for (int r = 0; r < R_COUNT; r++)
                if (strcmp(t, names[r]) == 0)
                    want[r] = found = 1;
            if (!found)
                usage();
        }
    }
    if (!addr)
        addr = getenv("TRNSCI_ADDR");
    const int all_cores = ob_threads > 1;
    if (all_cores)
        ob_cpu = -1;
    openblas_set_num_threads(ob_threads);
    cpu_set_t start_set;
    CPU_ZERO(&start_set);
    sched_getaffinity(0, sizeof(start_set), &start_set);
    char start_cpus[256];
    bench_cpuset_str(&start_set, start_cpus, sizeof(start_cpus));

    if (trnsciInit(addr) != trnsciSuccess)
        die("trnsciInit");
    trnsciDaemonStatus st;
    if (trnsciDaemonGetStatus(addr, &st) != trnsciSuccess)
        die("trnsciDaemonGetStatus");
    trnblasHandle_t h;
    if (trnblasCreate(&h) != TRNBLAS_STATUS_SUCCESS)
        die("trnblasCreate");

    result res[R_COUNT * MAX_SIZES];
    int nres = 0;
    for (int r = 0; r < R_COUNT; r++) {
        if (!want[r])
            continue;
        for (int si = 0; si < nsizes; si++) {
            ops o;
            ops_init(&o, (routine)r, sizes[si]);
            for (int w = 0; w < warmup; w++) {
                restore(&o);
                if (tiles) {
                    if (ob_cpu >= 0 && bench_pin_self(ob_cpu) != 0)
                        die("pinning to --openblas-cpu");
                    run_tiles(&o);
                    sched_setaffinity(0, sizeof(start_set), &start_set);
                } else {
                    run_trn(h, &o);
                }
                if (ob_cpu >= 0 && bench_pin_self(ob_cpu) != 0)
                    die("pinning to --openblas-cpu");
                run_ob(&o);
                sched_setaffinity(0, sizeof(start_set), &start_set);
            }
            double t_trn[MAX_REPS], t_ob[MAX_REPS];
            for (int k = 0; k < reps; k++) {
                restore(&o);
                if (tiles && ob_cpu >= 0 && bench_pin_self(ob_cpu) != 0)
                    die("pinning to --openblas-cpu");
                double t0 = bench_now_ms();
                if (tiles)
                    run_tiles(&o);
                else
                    run_trn(h, &o);
                t_trn[k] = bench_now_ms() - t0;
                if (ob_cpu >= 0 && bench_pin_self(ob_cpu) != 0)
                    die("pinning to --openblas-cpu");
                t0 = bench_now_ms();
                run_ob(&o);
                t_ob[k] = bench_now_ms() - t0;
                sched_setaffinity(0, sizeof(start_set), &start_set);
            }
            result *x = &res[nres++];
            x->r = (routine)r;
            x->n = sizes[si];
            x->reps = reps;
            x->trn = bench_stats_of(t_trn, reps);
            x->ob = bench_stats_of(t_ob, reps);
            x->diff = rel_diff(&o);
            ops_free(&o);
        }
    }
    trnblasDestroy(h);

    printf("{\n  \"benchmark\": \"blas3\",\n");
    printf("  \"mode\": \"%s\",\n", all_cores ? "all-cores"
                                    : tiles   ? "tiles-in-process"
                                              : "one-core");
    printf("  \"address\": \"%s\",\n", addr ? addr : "(default)");
    printf("  \"daemon\": {\"version\": \"%s\", \"backend\": \"%s\", \"cores\": %u},\n",
           st.daemonVersion, st.backend, st.coreCount);
    printf("  \"openblas\": {\"config\": \"%s\", \"core\": \"%s\", \"threads\": %d},\n",
           openblas_get_config(), openblas_get_corename(), openblas_get_num_threads());
    printf("  \"placement\": {\"bench_process_cpus\": \"%s\", \"openblas_phase_cpu\": %d, "
           "\"order\": \"interleaved\"},\n",
           start_cpus, ob_cpu);
    bench_json_host(",\n");
    printf("  \"results\": [\n");
    for (int i = 0; i < nres; i++) {
        const result *x = &res[i];
        const double wk = work(x->r, x->n);
        const int bytes = x->r == R_DGEAM || x->r == R_DDGMM;
        printf("    {\"routine\": \"%s\", \"form\": \"%s\", \"n\": %d, \"reps\": %d,\n",
               names[x->r], forms[x->r], x->n, x->reps);
        printf("     \"trnsci_ms\": {\"median\": %.3f, \"min\": %.3f, \"max\": %.3f},\n",
               x->trn.median, x->trn.min, x->trn.max);
        printf("     \"openblas_ms\": {\"median\": %.3f, \"min\": %.3f, \"max\": %.3f},\n",
               x->ob.median, x->ob.min, x->ob.max);
        printf("     \"%s\": {\"trnsci\": %.2f, \"openblas\": %.2f},\n",
               bytes ? "gbytes_per_s" : "gflops", wk * 1e-9 / (x->trn.median * 1e-3),
               wk * 1e-9 / (x->ob.median * 1e-3));
        printf("     \"ratio\": %.4f, \"ratio_of_mins\": %.4f, \"max_rel_diff\": %.3g}%s\n",
               x->ob.median / x->trn.median, x->ob.min / x->trn.min, x->diff,
               i + 1 < nres ? "," : "");
    }
    printf("  ]\n}\n");
    return 0;
}
