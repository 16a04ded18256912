/*
 * gemm_modes.c — the GEMM precision modes through trnscid: their speed
 * against FP32 GEMM (and emulated FP64 against a naive long-double GEMM and
 * in-process DGEMM), and their accuracy against __float128 references.
 *
 * Speed (--part speed): for each size n (square, C = A B), each mode runs
 * through the daemon as trnblasGemmEx + trnsciStreamSynchronize on data
 * resident in the daemon; median of --reps repetitions after one warm-up,
 * the modes interleaved repetition by repetition so that a slow period hits
 * them alike. ratio_vs_32f = t(32F) / t(mode) (1.0: as fast as SGEMM).
 * In the same run, in this process on --openblas-cpu: OpenBLAS SGEMM and
 * DGEMM (one thread), and, for n <= --ld-max, a naive long-double GEMM
 * (j-p-i loops, the textbook reference) timed once: emulated_vs_naive_ld =
 * t(naive long double) / t(64F_EMULATED).
 *
 * Accuracy (--part accuracy): for each size and three inputs — uniform in
 * [-1, 1); "wide": rows of A and columns of B scaled by 2^-20 .. 2^20 and
 * entries spread over 2^-10 .. 2^10 within a row; "cancel": A = [X X],
 * B = [Y; -Y + E] with |E| ~ 2^-20 |Y|, so C = X E is 2^-20 of |A||B| —
 * every mode's C is compared with a __float128 dot product on up to
 * --samples entries (all of them for small n): componentwise error
 * max |c^ - c| / (|A||B|)_ij and normwise max |c^ - c| / max |c|. The 32F
 * modes get the inputs rounded to float (the reference uses exactly those),
 * the 64F modes the double values.
 *
 * usage: bench_gemm_modes ADDRESS [--part speed|accuracy|both] [--sizes 1024,2048]
 *                         [--reps 5] [--openblas-cpu CPU] [--ld-max 1024]
 *                         [--acc-sizes 64,256,1024,4096] [--samples 2048]
 * bench/run_gemm_modes.sh sets up the daemon and placement (docs/benchmarks.md).
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

#define MAX_SIZES 8

typedef struct mode {
    const char *name;
    trnblasComputeType_t ct;
    int f64; /* double data */
} mode;

static const mode modes[] = {
    {"32F", TRNBLAS_COMPUTE_32F_PEDANTIC, 0},
    {"32F_FAST_16BF", TRNBLAS_COMPUTE_32F_FAST_16BF, 0},
    {"32F_FAST_TF32", TRNBLAS_COMPUTE_32F_FAST_TF32, 0},
    {"32F_FAST_16F", TRNBLAS_COMPUTE_32F_FAST_16F, 0},
    {"32F_BF16X3", TRNBLAS_COMPUTE_32F_BF16X3, 0},
    {"32F_EMULATED_16BFX9", TRNBLAS_COMPUTE_32F_EMULATED_16BFX9, 0},
    {"64F", TRNBLAS_COMPUTE_64F_PEDANTIC, 1},
    {"64F_EMULATED", TRNBLAS_COMPUTE_64F_EMULATED, 1},
};
#define NMODES (sizeof(modes) / sizeof(modes[0]))

static void die(const char *what) {
    fprintf(stderr, "bench_gemm_modes: %s failed: %s\n", what, trnsciGetLastErrorMessage());
    exit(1);
}

static int parse_sizes(const char *s, int *out) {
    int n = 0;
    while (s && *s && n < MAX_SIZES) {
        out[n++] = atoi(s);
        s = strchr(s, ',');
        if (s)
            s++;
    }
    return n;
}

/* Deterministic values in [-1, 1) (64-bit LCG, 53 bits). */
static double next_unit(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) * 0x1p-52 - 1.0;
}

/* ---- device data -------------------------------------------------------------------- */

typedef struct operands {
    int n;
    double *a, *b;  /* host, double values (float modes use them rounded) */
    float *af, *bf; /* the same rounded to float */
    void *da, *db, *dc, *daf, *dbf, *dcf;
} operands;

static void *upload(const void *h, size_t bytes) {
    void *d = NULL;
    if (trnsciMalloc(&d, bytes) != trnsciSuccess)
        die("trnsciMalloc");
    if (h && trnsciMemcpy(d, h, bytes, trnsciMemcpyHostToDevice) != trnsciSuccess)
        die("trnsciMemcpy");
    return d;
}

typedef enum input { IN_UNIFORM, IN_WIDE, IN_CANCEL } input;
static const char *const input_names[] = {"uniform", "wide", "cancel"};

static void operands_init(operands *o, int n, input in, uint64_t seed) {
    const size_t nn = (size_t)n * (size_t)n;
    o->n = n;
    o->a = malloc(nn * sizeof(double));
    o->b = malloc(nn * sizeof(double));
    o->af = malloc(nn * sizeof(float));
    o->bf = malloc(nn * sizeof(float));
    if (!o->a || !o->b || !o->af || !o->bf)
        die("malloc");
    for (size_t i = 0; i < nn; i++) {
        o->a[i] = next_unit(&seed);
        o->b[i] = next_unit(&seed);
    }
    const int h = n / 2;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            double *a = &o->a[(size_t)i + (size_t)j * n], *b = &o->b[(size_t)i + (size_t)j * n];
            if (in == IN_WIDE) {
                *a = ldexp(*a, (i * 7) % 41 - 20 + (j * 3) % 21 - 10);
                *b = ldexp(*b, (j * 5) % 41 - 20 + (i * 11) % 21 - 10);
            } else if (in == IN_CANCEL && j >= h && j < 2 * h) {
                *a = o->a[(size_t)i + (size_t)(j - h) * n]; /* A = [X X] */
            }
        }
    if (in == IN_CANCEL) /* B = [Y; -Y + E] (rows h.. of every column) */
        for (int j = 0; j < n; j++)
            for (int i = h; i < 2 * h; i++)
                o->b[(size_t)i + (size_t)j * n] =
                    -o->b[(size_t)(i - h) + (size_t)j * n] + ldexp(next_unit(&seed), -20);
    for (size_t i = 0; i < nn; i++) {
        o->af[i] = (float)o->a[i];
        o->bf[i] = (float)o->b[i];
    }
    o->da = upload(o->a, nn * sizeof(double));
    o->db = upload(o->b, nn * sizeof(double));
    o->dc = upload(NULL, nn * sizeof(double));
    o->daf = upload(o->af, nn * sizeof(float));
    o->dbf = upload(o->bf, nn * sizeof(float));
    o->dcf = upload(NULL, nn * sizeof(float));
}

static void operands_free(operands *o) {
    void *d[] = {o->da, o->db, o->dc, o->daf, o->dbf, o->dcf};
    for (size_t i = 0; i < 6; i++)
        trnsciFree(d[i]);
    free(o->a);
    free(o->b);
    free(o->af);
    free(o->bf);
}

/* One mode's GEMM through the daemon, waited for. */
static void run_mode(trnblasHandle_t h, const operands *o, const mode *md) {
    const float one_f = 1, zero_f = 0;
    const double one = 1, zero = 0;
    const trnsciDataType_t t = md->f64 ? TRNSCI_R_64F : TRNSCI_R_32F;
    const int n = o->n;
    if (trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, md->f64 ? (const void *)&one : &one_f,
                      md->f64 ? o->da : o->daf, t, n, md->f64 ? o->db : o->dbf, t, n,
                      md->f64 ? (const void *)&zero : &zero_f, md->f64 ? o->dc : o->dcf, t, n,
                      md->ct, TRNBLAS_GEMM_DEFAULT) != TRNBLAS_STATUS_SUCCESS)
        die("trnblasGemmEx");
    if (trnsciStreamSynchronize(NULL) != trnsciSuccess)
        die("trnsciStreamSynchronize");
}

/* ---- speed ----------------------------------------------------------------------------- */

static void naive_ld(int n, const double *a, const double *b, long double *c) {
    memset(c, 0, (size_t)n * (size_t)n * sizeof(long double));
    for (int j = 0; j < n; j++)
        for (int p = 0; p < n; p++) {
            const long double bv = b[(size_t)p + (size_t)j * n];
            const double *ac = a + (size_t)p * n;
            long double *cc = c + (size_t)j * n;
            for (int i = 0; i < n; i++)
                cc[i] += (long double)ac[i] * bv;
        }
}

static void speed(trnblasHandle_t h, const int *sizes, int ns, int reps, int ob_cpu, int ld_max) {
    printf("  \"speed\": [\n");
    for (int si = 0; si < ns; si++) {
        const int n = sizes[si];
        operands o;
        operands_init(&o, n, IN_UNIFORM, 42 + (uint64_t)n);
        double t[NMODES][64], ts[64], td[64];
        for (size_t m = 0; m < NMODES; m++)
            run_mode(h, &o, &modes[m]); /* warm-up */
        const size_t nn = (size_t)n * (size_t)n;
        float *cf = malloc(nn * sizeof(float));
        double *cd = malloc(nn * sizeof(double));
        if (!cf || !cd)
            die("malloc");
        for (int r = 0; r < reps && r < 64; r++) {
            for (size_t m = 0; m < NMODES; m++) {
                const double t0 = bench_now_ms();
                run_mode(h, &o, &modes[m]);
                t[m][r] = bench_now_ms() - t0;
            }
            /* In-process OpenBLAS on the daemon's CPU, single-threaded. */
            if (ob_cpu >= 0)
                bench_pin_self(ob_cpu);
            double t0 = bench_now_ms();
            cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, o.af, n, o.bf, n,
                        0.0f, cf, n);
            ts[r] = bench_now_ms() - t0;
            t0 = bench_now_ms();
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, o.a, n, o.b, n,
                        0.0, cd, n);
            td[r] = bench_now_ms() - t0;
        }
        double ld_ms = -1;
        if (n <= ld_max) {
            long double *cl = malloc(nn * sizeof(long double));
            if (!cl)
                die("malloc");
            const double t0 = bench_now_ms();
            naive_ld(n, o.a, o.b, cl);
            ld_ms = bench_now_ms() - t0;
            free(cl);
        }
        const int rr = reps < 64 ? reps : 64;
        double med[NMODES];
        for (size_t m = 0; m < NMODES; m++)
            med[m] = bench_median(t[m], rr);
        const double ms = bench_median(ts, rr), md = bench_median(td, rr);
        const double flop = 2.0 * n * (double)n * n;
        printf("    {\"n\": %d, \"reps\": %d, \"modes\": {\n", n, rr);
        for (size_t m = 0; m < NMODES; m++)
            printf("      \"%s\": {\"ms\": %.3f, \"gflops\": %.2f, \"ratio_vs_32f\": %.4f}%s\n",
                   modes[m].name, med[m], flop / med[m] / 1e6, med[0] / med[m],
                   m + 1 < NMODES ? "," : "");
        printf("    },\n      \"openblas_sgemm_ms\": %.3f, \"openblas_dgemm_ms\": %.3f,\n", ms, md);
        printf("      \"daemon_32f_vs_openblas_sgemm\": %.4f,\n", ms / med[0]);
        if (ld_ms > 0)
            printf("      \"naive_long_double_ms\": %.1f, \"emulated_vs_naive_ld\": %.3f,\n", ld_ms,
                   ld_ms / med[NMODES - 1]);
        printf("      \"emulated_vs_openblas_dgemm\": %.4f}%s\n", md / med[NMODES - 1],
               si + 1 < ns ? "," : "");
        free(cf);
        free(cd);
        operands_free(&o);
        fflush(stdout);
    }
    printf("  ]");
}

/* ---- accuracy ------------------------------------------------------------------------- */

typedef struct errs {
    double comp, norm;
} errs;

/* The errors of C (downloaded from dev) on the sampled entries. */
static errs measure(const operands *o, const mode *md, const void *dev, int samples) {
    const int n = o->n;
    const size_t nn = (size_t)n * (size_t)n;
    void *c = malloc(nn * (md->f64 ? sizeof(double) : sizeof(float)));
    if (!c)
        die("malloc");
    if (trnsciMemcpy(c, dev, nn * (md->f64 ? sizeof(double) : sizeof(float)),
                     trnsciMemcpyDeviceToHost) != trnsciSuccess)
        die("trnsciMemcpy");
    const size_t count = nn <= (size_t)samples ? nn : (size_t)samples;
    double maxc = 0, maxerr = 0, comp = 0;
    uint64_t seed = 7;
    for (size_t s = 0; s < count; s++) {
        size_t at = count == nn ? s : (size_t)((next_unit(&seed) + 1.0) * 0.5 * (double)nn);
        if (at >= nn)
            at = nn - 1;
        const size_t i = at % (size_t)n, j = at / (size_t)n;
        /* __float128: a product of two doubles (106 bits) is exact, and n
         * sums add at most n 2^-113 S, far below any FP64 mode's error. */
        __float128 ref = 0;
        double mag = 0;
        for (int p = 0; p < n; p++) {
            const double a = md->f64 ? o->a[i + (size_t)p * n] : o->af[i + (size_t)p * n];
            const double b = md->f64 ? o->b[(size_t)p + j * n] : o->bf[(size_t)p + j * n];
            ref += (__float128)a * (__float128)b;
            mag += fabs(a * b);
        }
        const double got = md->f64 ? ((double *)c)[at] : ((float *)c)[at];
        const __float128 diff = (__float128)got - ref;
        const double err = (double)(diff < 0 ? -diff : diff);
        maxerr = bench_worse(maxerr, err);
        maxc = fmax(maxc, fabs((double)ref));
        comp = bench_worse(comp, mag > 0 ? err / (double)mag : err);
    }
    free(c);
    return (errs){comp, maxc > 0 ? maxerr / maxc : maxerr};
}

/* A number for JSON: null when not finite (binary16 overflows to infinity). */
static void json_num(double v, char *buf, size_t len) {
    if (isfinite(v))
        snprintf(buf, len, "%.3e", v);
    else
        snprintf(buf, len, "null");
}

static void accuracy(trnblasHandle_t h, const int *sizes, int ns, int samples) {
    printf("  \"accuracy\": [\n");
    for (int si = 0; si < ns; si++)
        for (int in = 0; in < 3; in++) {
            const int n = sizes[si];
            operands o;
            operands_init(&o, n, (input)in, 1000 + (uint64_t)n);
            printf("    {\"n\": %d, \"input\": \"%s\", \"samples\": %d, \"modes\": {\n", n,
                   input_names[in], (size_t)n * n <= (size_t)samples ? n * n : samples);
            for (size_t m = 0; m < NMODES; m++) {
                run_mode(h, &o, &modes[m]);
                const errs e = measure(&o, &modes[m], modes[m].f64 ? o.dc : o.dcf, samples);
                char cw[32], nw[32];
                json_num(e.comp, cw, sizeof(cw));
                json_num(e.norm, nw, sizeof(nw));
                printf("      \"%s\": {\"componentwise\": %s, \"normwise\": %s}%s\n", modes[m].name,
                       cw, nw, m + 1 < NMODES ? "," : "");
            }
            printf("    }}%s\n", si + 1 < ns || in < 2 ? "," : "");
            operands_free(&o);
            fflush(stdout);
        }
    printf("  ]");
}

int main(int argc, char **argv) {
    const char *addr = NULL, *part = "both", *sizes_s = "1024,2048", *acc_s = "64,256,1024,4096";
    int reps = 5, ob_cpu = -1, ld_max = 1024, samples = 2048;
    const bench_opt opts[] = {
        {"--part", BENCH_OPT_STR, &part},           {"--sizes", BENCH_OPT_STR, &sizes_s},
        {"--acc-sizes", BENCH_OPT_STR, &acc_s},     {"--reps", BENCH_OPT_INT, &reps},
        {"--openblas-cpu", BENCH_OPT_INT, &ob_cpu}, {"--ld-max", BENCH_OPT_INT, &ld_max},
        {"--samples", BENCH_OPT_INT, &samples},     {NULL, BENCH_OPT_FLAG, NULL}};
    if (bench_parse_args(opts, argc, argv, &addr) != 0) {
        fprintf(stderr, "usage: bench_gemm_modes ADDRESS [--part speed|accuracy|both] ...\n");
        return 2;
    }
    int sizes[MAX_SIZES], acc[MAX_SIZES];
    const int ns = parse_sizes(sizes_s, sizes), na = parse_sizes(acc_s, acc);
    openblas_set_num_threads(1);
    if (trnsciInit(addr) != trnsciSuccess)
        die("trnsciInit");
    trnblasHandle_t h;
    if (trnblasCreate(&h) != TRNBLAS_STATUS_SUCCESS)
        die("trnblasCreate");
    int cores = 0;
    trnsciDeviceGetAttribute(&cores, trnsciDevAttrMultiProcessorCount, 0);
    printf("{\n  \"bench\": \"gemm_modes\",\n");
    bench_json_host(",\n");
    printf("  \"daemon_cores\": %d, \"openblas_cpu\": %d,\n", cores, ob_cpu);
    const int do_speed = strcmp(part, "accuracy") != 0, do_acc = strcmp(part, "speed") != 0;
    if (do_speed)
        speed(h, sizes, ns, reps, ob_cpu, ld_max);
    if (do_speed && do_acc)
        printf(",\n");
    if (do_acc)
        accuracy(h, acc, na, samples);
    printf("\n}\n");
    trnblasDestroy(h);
    trnsciDeviceReset();
    return 0;
}
