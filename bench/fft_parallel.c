/*
 * fft_parallel.c — one large FFT on every core: a single C2C transform
 * through a 1-core and a 2-core trnscid (steps of tile tasks,
 * ops/fft_step.h) against FFTW in this process on 1 and on 2 threads
 * (FFTW's own threaded transform: the anchor to beat).
 *
 * Cases: 1D of 2^22 points and 3D of n^3 (default n = 512: a 1024^3
 * complex-float transform needs 8 GiB per buffer, and the two daemon
 * buffers plus the in-process baseline's two do not fit a 24 GiB machine).
 * Out of place, forward. The timed unit is trnfftExecC2C +
 * trnsciDeviceSynchronize (trnsci) or fftwf_execute (in process); a first
 * untimed run on each side prepares the plans. Repetitions go round the
 * four configurations in turn, so slow periods of a shared machine hit
 * each. Reported as JSON: medians (min, max) in ms, GFLOP/s (5 N log2 N),
 * the ratios 1-core daemon / 2-core daemon and FFTW 2 threads / 2-core
 * daemon (time of the other over ours: > 1 is faster), whether the 1-core
 * and 2-core results are bitwise equal, and the thread placement.
 *
 * usage: bench_fft_parallel ONE_CORE_ADDR TWO_CORE_ADDR [--reps N]
 *                           [--cases 1d,3d] [--log2n 22] [--n3 N]
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
} bcase;

/* One daemon's side: its buffers and plan. */
typedef struct side {
    void *in, *out;
    trnfftHandle plan;
} side;

static void daemon_open(const char *addr, const bcase *c, const float *x, side *s) {
    trnsciDeviceReset();
    if (trnsciInit(addr) != trnsciSuccess)
        die("trnsciInit");
    const size_t bytes = c->points * 8;
    if (trnsciMalloc(&s->in, bytes) != trnsciSuccess || trnsciMalloc(&s->out, bytes))
        die("trnsciMalloc");
    if (trnsciMemcpy(s->in, x, bytes, trnsciMemcpyHostToDevice) != trnsciSuccess)
        die("trnsciMemcpy");
    int n[3] = {c->n[0], c->n[1], c->n[2]};
    if (trnfftPlanMany(&s->plan, c->rank, n, NULL, 1, 0, NULL, 1, 0, TRNFFT_C2C, 1) !=
        TRNFFT_SUCCESS)
        die("trnfftPlanMany");
}

static double daemon_run(side *s) {
    const double t0 = bench_now_ms();
    if (trnfftExecC2C(s->plan, s->in, s->out, TRNFFT_FORWARD) != TRNFFT_SUCCESS)
        die("trnfftExecC2C");
    if (trnsciDeviceSynchronize() != trnsciSuccess)
        die("trnsciDeviceSynchronize");
    return bench_now_ms() - t0;
}

static void daemon_close(const bcase *c, side *s, float *result) {
    if (result && trnsciMemcpy(result, s->out, c->points * 8, trnsciMemcpyDeviceToHost))
        die("trnsciMemcpy back");
    trnfftDestroy(s->plan);
    trnsciFree(s->in);
    trnsciFree(s->out);
    trnsciDeviceReset();
}

static int parse_cases(const char *s, int *want1d, int *want3d) {
    *want1d = strstr(s, "1d") != NULL;
    *want3d = strstr(s, "3d") != NULL;
    return *want1d || *want3d ? 0 : -1;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr,
                "usage: %s ONE_CORE_ADDR TWO_CORE_ADDR [--reps N] [--cases 1d,3d] "
                "[--n3 N] [--effort estimate|measure]\n",
                argv[0]);
        return 2;
    }
    const char *addr[2] = {argv[1], argv[2]};
    int reps = 7, n3 = 512, log2n = 22, want1d = 1, want3d = 1;
    unsigned effort = FFTW_MEASURE;
    for (int i = 3; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--reps"))
            reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--log2n"))
            log2n = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--n3"))
            n3 = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--cases") && parse_cases(argv[i + 1], &want1d, &want3d) == 0)
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
    bcase cases[2];
    int ncases = 0;
    if (want1d)
        cases[ncases++] = (bcase){"c2c 1d 2^n", 1, {1 << log2n, 0, 0}, (size_t)1 << log2n};
    if (want3d)
        cases[ncases++] =
            (bcase){"c2c 3d n^3", 3, {n3, n3, n3}, (size_t)n3 * (size_t)n3 * (size_t)n3};
    char self_cpus[256];
    bench_self_cpus(self_cpus, sizeof(self_cpus));
    printf("{\n  \"bench\": \"fft_parallel\",\n  \"reps\": %d,\n  \"fftw_effort\": \"%s\",\n"
           "  \"placement\": {\"daemons\": \"one worker per core, pinned to CPU i for core i\", "
           "\"fftw_threads\": \"unpinned, bench process cpus %s\"},\n  \"cases\": [\n",
           reps, effort == FFTW_ESTIMATE ? "estimate" : "measure", self_cpus);
    for (int ci = 0; ci < ncases; ci++) {
        const bcase *c = &cases[ci];
        const size_t bytes = c->points * 8;
        float *x = fftwf_malloc(bytes), *y = fftwf_malloc(bytes);
        float *r1 = malloc(bytes), *r2 = malloc(bytes);
        if (!x || !y || !r1 || !r2) {
            fprintf(stderr, "bench_fft_parallel: out of memory for %zu-byte buffers\n", bytes);
            return 1;
        }
        bench_fill(x, 2 * c->points, 777u + (unsigned)ci);
        double t[NCONF][MAX_REPS];
        /* The in-process plans (planning overwrites the arrays: plan first). */
        fftwf_plan fp[2];
        float *xs = fftwf_malloc(bytes);
        if (!xs)
            return 1;
        memcpy(xs, x, bytes);
        for (int th = 0; th < 2; th++) {
            fftwf_plan_with_nthreads(th + 1);
            fp[th] = fftwf_plan_dft(c->rank, c->n, (fftwf_complex *)x, (fftwf_complex *)y,
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
        for (int th = 0; th < 2; th++)
            fftwf_execute(fp[th]);
        for (int rep = 0; rep < reps; rep++) {
            for (int d = 0; d < 2; d++) {
                daemon_open(addr[d], c, x, &s[d]);
                daemon_run(&s[d]); /* the buffers' first touch in the executors */
                t[d][rep] = daemon_run(&s[d]);
                daemon_close(c, &s[d], rep == 0 ? (d ? r2 : r1) : NULL);
            }
            for (int th = 0; th < 2; th++) {
                const double t0 = bench_now_ms();
                fftwf_execute(fp[th]);
                t[FFTW_1 + th][rep] = bench_now_ms() - t0;
            }
        }
        const int bitwise = memcmp(r1, r2, bytes) == 0;
        /* The 2-core result against FFTW's (1 thread), relative 2-norm. */
        fftwf_execute(fp[0]);
        double num = 0.0, den = 0.0;
        for (size_t i = 0; i < 2 * c->points; i++) {
            num += ((double)r2[i] - y[i]) * ((double)r2[i] - y[i]);
            den += (double)y[i] * y[i];
        }
        double med[NCONF];
        const double flop = 5.0 * (double)c->points * log2((double)c->points);
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
        fftwf_free(y);
        free(r1);
        free(r2);
    }
    printf("  ]\n}\n");
    fftwf_cleanup_threads();
    return 0;
}
