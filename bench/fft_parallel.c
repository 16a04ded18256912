/*
 * fft_parallel.c — one large FFT on every core: a single C2C transform
 * through a 1-core and a 2-core trnscid (steps of tile tasks,
 * ops/fft_step.h) against FFTW in this process on 1 and on 2 threads
 * (FFTW's own threaded transform: the anchor to beat).
 *
 * Cases: 1D of 2^22 points and 3D of n^3 (default n = 512: a 1024^3
 * complex-float transform needs 8 GiB per buffer, and the two daemon
 * buffers plus the in-process baseline's two do not fit a 24 GiB machine),
 * out of place, forward; and with --cases c2r3d, a 3D C2R of n^3 (the
 * Hermitian half n x n x (n/2 + 1) to n^3 reals), whose input every
 * execution overwrites (cuFFT's and FFTW's C2R may): it is restored
 * before each timed run, outside the timing; and with --cases r2c3dip, a
 * 3D R2C of n^3 in place (one array, the real rows padded to
 * 2 (n/2 + 1), cuFFT's in-place layout), its input restored the same way;
 * --cases r2c1dip, a 1D R2C of 2^log2n reals in place likewise. The timed unit is
 * trnfftExecC2C (C2R) + trnsciDeviceSynchronize (trnsci) or fftwf_execute
 * (in process); a first
 * untimed run on each side prepares the plans. Repetitions go round the
 * four configurations in turn, so slow periods of a shared machine hit
 * each. Reported as JSON: medians (min, max) in ms, GFLOP/s (5 N log2 N),
 * the ratios 1-core daemon / 2-core daemon and FFTW 2 threads / 2-core
 * daemon (time of the other over ours: > 1 is faster), whether the 1-core
 * and 2-core results are bitwise equal, and the thread placement.
 *
 * usage: bench_fft_parallel ONE_CORE_ADDR TWO_CORE_ADDR [--reps N]
 *                           [--cases 1d,3d,c2r3d,r2c3dip,r2c1dip] [--log2n 22] [--n3 N]
 *                           [--effort estimate|measure]
 * bench/run_fft_parallel.sh starts the two daemons.
 */
#define _GNU_SOURCE
#include <fftw3.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trnsci/trnfft.h>
#include <trnsci/trnsci.h>
#include <unistd.h>

#include "bench_util.h"

#define MAX_REPS 50
enum { ONE_CORE, TWO_CORES, FFTW_1, FFTW_2, NCONF };
static const char *const conf_name[NCONF] = {"trnsci_1core", "trnsci_2cores", "fftw_1thread",
                                             "fftw_2threads"};

static void die(const char *what) {
    fprintf(stderr, "bench_fft_parallel: %s failed: %s\n", what, trnsciGetLastErrorMessage());
    exit(1);
}

typedef struct bcase {
    const char *name;
    int rank, n[3];
    size_t points;
    int c2r;               /* C2R: the input the Hermitian half */
    int r2c_inplace;       /* R2C in place: one array, padded real rows */
    size_t ibytes, obytes; /* the arrays' bytes */
} bcase;

static bcase make_case(const char *name, int rank, int n0, int n1, int n2, int c2r,
                       int r2c_inplace) {
    bcase c = {name, rank, {n0, n1, n2}, 1, c2r, r2c_inplace, 0, 0};
    for (int d = 0; d < rank; d++)
        c.points *= (size_t)c.n[d];
    const size_t half = c.points / (size_t)c.n[rank - 1] * (size_t)(c.n[rank - 1] / 2 + 1);
    c.ibytes = c2r || r2c_inplace ? half * 8 : c.points * 8;
    c.obytes = c2r ? c.points * 4 : r2c_inplace ? half * 8 : c.points * 8;
    return c;
}

/* Whether an execution overwrites the case's input (restored before each
 * timed run). */
static int overwrites_input(const bcase *c) {
    return c->c2r || c->r2c_inplace;
}

/* One daemon's side: its buffers and plan, and (C2R) the input to restore. */
typedef struct side {
    void *in, *out;
    trnfftHandle plan;
    const bcase *c;
    const float *x;
} side;

static void daemon_open(const char *addr, const bcase *c, const float *x, side *s) {
    trnsciDeviceReset();
    if (trnsciInit(addr) != trnsciSuccess)
        die("trnsciInit");
    s->c = c;
    s->x = x;
    if (trnsciMalloc(&s->in, c->ibytes) != trnsciSuccess ||
        (c->r2c_inplace ? (s->out = s->in, 0) : trnsciMalloc(&s->out, c->obytes)))
        die("trnsciMalloc");
    if (trnsciMemcpy(s->in, x, c->ibytes, trnsciMemcpyHostToDevice) != trnsciSuccess)
        die("trnsciMemcpy");
    int n[3] = {c->n[0], c->n[1], c->n[2]};
    if (trnfftPlanMany(&s->plan, c->rank, n, NULL, 1, 0, NULL, 1, 0,
                       c->c2r           ? TRNFFT_C2R
                       : c->r2c_inplace ? TRNFFT_R2C
                                        : TRNFFT_C2C,
                       1) != TRNFFT_SUCCESS)
        die("trnfftPlanMany");
}

static double daemon_run(side *s) {
    if (overwrites_input(s->c) &&
        (trnsciMemcpy(s->in, s->x, s->c->ibytes, trnsciMemcpyHostToDevice) ||
         trnsciDeviceSynchronize()))
        die("trnsciMemcpy (restore)");
    const double t0 = bench_now_ms();
    if ((s->c->c2r ? trnfftExecC2R(s->plan, s->in, s->out)
         : s->c->r2c_inplace
             ? trnfftExecR2C(s->plan, s->in, s->out)
             : trnfftExecC2C(s->plan, s->in, s->out, TRNFFT_FORWARD)) != TRNFFT_SUCCESS)
        die("trnfftExec");
    if (trnsciDeviceSynchronize() != trnsciSuccess)
        die("trnsciDeviceSynchronize");
    return bench_now_ms() - t0;
}

static void daemon_close(const bcase *c, side *s, float *result) {
    if (result && trnsciMemcpy(result, s->out, c->obytes, trnsciMemcpyDeviceToHost))
        die("trnsciMemcpy back");
    trnfftDestroy(s->plan);
    trnsciFree(s->in);
    if (s->out != s->in)
        trnsciFree(s->out);
    trnsciDeviceReset();
}

static int parse_cases(const char *s, int *want1d, int *want3d, int *wantc2r, int *wantip,
                       int *wantip1d) {
    char buf[64];
    snprintf(buf, sizeof(buf), "%s", s);
    *want1d = *want3d = *wantc2r = *wantip = *wantip1d = 0;
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
        *want1d |= !strcmp(t, "1d");
        *want3d |= !strcmp(t, "3d");
        *wantc2r |= !strcmp(t, "c2r3d");
        *wantip |= !strcmp(t, "r2c3dip");
        *wantip1d |= !strcmp(t, "r2c1dip");
    }
    return *want1d || *want3d || *wantc2r || *wantip || *wantip1d ? 0 : -1;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr,
                "usage: %s ONE_CORE_ADDR TWO_CORE_ADDR [--reps N] [--cases "
                "1d,3d,c2r3d,r2c3dip,r2c1dip] "
                "[--n3 N] [--effort estimate|measure]\n",
                argv[0]);
        return 2;
    }
    const char *addr[2] = {argv[1], argv[2]};
    int reps = 7, n3 = 512, log2n = 22, want1d = 1, want3d = 1, wantc2r = 0, wantip = 0,
        wantip1d = 0;
    unsigned effort = FFTW_MEASURE;
    for (int i = 3; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--reps"))
            reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--log2n"))
            log2n = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--n3"))
            n3 = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--cases") &&
                 parse_cases(argv[i + 1], &want1d, &want3d, &wantc2r, &wantip, &wantip1d) == 0)
            continue;
        else if (!strcmp(argv[i], "--effort"))
            effort = !strcmp(argv[i + 1], "estimate") ? FFTW_ESTIMATE : FFTW_MEASURE;
        else {
            fprintf(stderr, "bench_fft_parallel: bad option %s\n", argv[i]);
            return 2;
        }
    }
    if (reps < 1 || reps > MAX_REPS || n3 < 16 || log2n < 10 || log2n > 28) {
        fprintf(stderr, "bench_fft_parallel: --reps 1..%d, --n3 >= 16, --log2n 10..28\n", MAX_REPS);
        return 2;
    }
    if (!fftwf_init_threads()) {
        fprintf(stderr, "bench_fft_parallel: fftwf_init_threads failed\n");
        return 1;
    }
    bcase cases[5];
    int ncases = 0;
    if (want1d)
        cases[ncases++] = make_case("c2c 1d 2^n", 1, 1 << log2n, 0, 0, 0, 0);
    if (want3d)
        cases[ncases++] = make_case("c2c 3d n^3", 3, n3, n3, n3, 0, 0);
    if (wantc2r)
        cases[ncases++] = make_case("c2r 3d n^3", 3, n3, n3, n3, 1, 0);
    if (wantip)
        cases[ncases++] = make_case("r2c 3d n^3 in place", 3, n3, n3, n3, 0, 1);
    if (wantip1d)
        cases[ncases++] = make_case("r2c 1d 2^n in place", 1, 1 << log2n, 0, 0, 0, 1);
    char self_cpus[256];
    bench_self_cpus(self_cpus, sizeof(self_cpus));
    printf("{\n  \"bench\": \"fft_parallel\",\n  \"reps\": %d,\n  \"fftw_effort\": \"%s\",\n"
           "  \"placement\": {\"daemons\": \"one worker per core, pinned to CPU i for core i\", "
           "\"fftw_threads\": \"unpinned, bench process cpus %s\"},\n  \"cases\": [\n",
           reps, effort == FFTW_ESTIMATE ? "estimate" : "measure", self_cpus);
    for (int ci = 0; ci < ncases; ci++) {
        const bcase *c = &cases[ci];
        const size_t bytes = c->ibytes, obytes = c->obytes;
        float *x = fftwf_malloc(bytes), *y = c->r2c_inplace ? x : fftwf_malloc(obytes);
        float *r1 = malloc(obytes), *r2 = malloc(obytes);
        if (!x || !y || !r1 || !r2) {
            fprintf(stderr, "bench_fft_parallel: out of memory for %zu-byte buffers\n", bytes);
            return 1;
        }
        bench_fill(x, bytes / sizeof(float), 777u + (unsigned)ci);
        if (c->c2r) { /* the Hermitian half of a real array's transform */
            float *re = fftwf_malloc(obytes);
            if (!re)
                return 1;
            bench_fill(re, c->points, 778u + (unsigned)ci);
            fftwf_plan r2c =
                fftwf_plan_dft_r2c(c->rank, c->n, re, (fftwf_complex *)x, FFTW_ESTIMATE);
            if (!r2c)
                return 1;
            fftwf_execute(r2c);
            fftwf_destroy_plan(r2c);
            fftwf_free(re);
        }
        double t[NCONF][MAX_REPS];
        /* The in-process plans (planning overwrites the arrays: plan first). */
        fftwf_plan fp[2];
        float *xs = fftwf_malloc(bytes);
        if (!xs)
            return 1;
        memcpy(xs, x, bytes);
        for (int th = 0; th < 2; th++) {
            fftwf_plan_with_nthreads(th + 1);
            fp[th] = c->c2r ? fftwf_plan_dft_c2r(c->rank, c->n, (fftwf_complex *)x, y, effort)
                     : c->r2c_inplace
                         ? fftwf_plan_dft_r2c(c->rank, c->n, x, (fftwf_complex *)x, effort)
                         : fftwf_plan_dft(c->rank, c->n, (fftwf_complex *)x, (fftwf_complex *)y,
                                          FFTW_FORWARD, effort);
            if (!fp[th])
                return 1;
        }
        memcpy(x, xs, bytes);
        fftwf_free(xs);
        side s[2];
        for (int d = 0; d < 2; d++) { /* plans prepared, pages touched */
            daemon_open(addr[d], c, x, &s[d]);
            daemon_run(&s[d]);
            daemon_close(c, &s[d], NULL);
        }
        float *x0 = NULL; /* the input to restore */
        if (overwrites_input(c) && !(x0 = malloc(bytes)))
            return 1;
        if (x0)
            memcpy(x0, x, bytes);
        for (int th = 0; th < 2; th++) {
            fftwf_execute(fp[th]);
            if (x0)
                memcpy(x, x0, bytes);
        }
        for (int rep = 0; rep < reps; rep++) {
            for (int d = 0; d < 2; d++) {
                daemon_open(addr[d], c, x, &s[d]);
                daemon_run(&s[d]); /* the buffers' first touch in the executors */
                t[d][rep] = daemon_run(&s[d]);
                daemon_close(c, &s[d], rep == 0 ? (d ? r2 : r1) : NULL);
            }
            for (int th = 0; th < 2; th++) {
                if (x0)
                    memcpy(x, x0, bytes);
                const double t0 = bench_now_ms();
                fftwf_execute(fp[th]);
                t[FFTW_1 + th][rep] = bench_now_ms() - t0;
            }
        }
        const int bitwise = memcmp(r1, r2, obytes) == 0;
        /* The 2-core result against FFTW's (1 thread), relative 2-norm. */
        if (x0)
            memcpy(x, x0, bytes);
        fftwf_execute(fp[0]);
        double num = 0.0, den = 0.0;
        for (size_t i = 0; i < obytes / sizeof(float); i++) {
            num += ((double)r2[i] - y[i]) * ((double)r2[i] - y[i]);
            den += (double)y[i] * y[i];
        }
        double med[NCONF];
        /* 5 N log2 N for a complex transform, half of it for a real one (C2R, R2C). */
        const double flop =
            (overwrites_input(c) ? 2.5 : 5.0) * (double)c->points * log2((double)c->points);
        printf("    {\"case\": \"%s\", \"dims\": [%d, %d, %d], \"points\": %zu,\n", c->name,
               c->n[0], c->n[1], c->n[2], c->points);
        for (int k = 0; k < NCONF; k++) {
            const bench_stats st = bench_stats_of(t[k], reps);
            med[k] = st.median;
            printf("     \"%s\": {\"median_ms\": %.3f, \"min_ms\": %.3f, \"max_ms\": %.3f, "
                   "\"gflops\": %.2f},\n",
                   conf_name[k], st.median, st.min, st.max, flop / (st.median * 1e6));
        }
        printf("     \"speedup_2cores_over_1core\": %.3f, \"ratio_2cores_vs_fftw_2threads\": %.3f,"
               "\n     \"bitwise_1core_eq_2cores\": %s, \"rel_diff_vs_fftw\": %.3g}%s\n",
               med[ONE_CORE] / med[TWO_CORES], med[FFTW_2] / med[TWO_CORES],
               bitwise ? "true" : "false", sqrt(num / den), ci + 1 < ncases ? "," : "");
        for (int th = 0; th < 2; th++)
            fftwf_destroy_plan(fp[th]);
        fftwf_free(x);
        if (y != x)
            fftwf_free(y);
        free(x0);
        free(r1);
        free(r2);
    }
    printf("  ]\n}\n");
    fftwf_cleanup_threads();
    return 0;
}
