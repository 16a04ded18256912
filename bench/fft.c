/*
 * fft.c — trnfft complex-float FFTs through trnscid versus FFTW in this
 * process, in one run; and the cost of making a plan, cold, warm and after a
 * daemon restart.
 *
 * Exec mode (default, --mode exec). Complex float C2C, forward, out of place,
 * basic layout; for each case (--cases, default 1024x1,65536x1,1048576x1,
 * 1024x1024: size x batch):
 *   trnsci         input and output live in the daemon (trnsciMalloc, data
 *                  resident; over the local transport the buffers are shared
 *                  memory, zero copy). One execution = trnfftExecC2C +
 *                  trnsciStreamSynchronize(NULL), i.e. everything a client
 *                  observes. The plan is made (trnfftPlan1d) and executed once
 *                  untimed before the timed repetitions: the first Exec waits
 *                  for the daemon's planning.
 *   trnsci_queued  (only when a sample holds K > 1 executions) K
 *                  trnfftExecC2C, then one Synchronize: what queueing buys.
 *   fftw           FFTW in this process as the daemon runs it: one plan of a
 *                  single transform (FFTW_MEASURE, one thread), executed with
 *                  fftwf_execute_dft (new-array execute) once per transform
 *                  of the batch. This thread pins itself to --inproc-cpu, the
 *                  CPU of the one-core daemon's worker.
 *   fftw_many      (batch > 1) FFTW's own batched plan (fftwf_plan_many_dft
 *                  with howmany = batch, FFTW_MEASURE), executed once.
 *   fftw_daemon_plan (with --daemon-cache-dir) the plan the daemon chose:
 *                  the daemon's wisdom file is imported (after forgetting
 *                  this process's own wisdom) and the single-transform plan
 *                  is made with FFTW_WISDOM_ONLY, then run like "fftw". It
 *                  separates the daemon's overhead from a different choice of
 *                  algorithm by the two FFTW_MEASURE planners;
 *                  same_plan_as_daemon says whether the two plans print alike
 *                  (fftwf_sprint_plan).
 *   fftw_on_device_memory (local transport only) the "fftw" plan run by this
 *                  process on the daemon's buffers themselves (host-addressable
 *                  shared memory: the input buffer and a second output
 *                  buffer): the same memory the daemon computes on, without
 *                  the daemon.
 * Small transforms are timed K at a time (each sample at least --min-sample-ms
 * of in-process time, default 5 ms; K from a pre-measurement) and reported per
 * execution. After warm-up, repetitions are interleaved (one sample of each
 * side per round, the order rotating with the round) so slow periods of a
 * noisy machine hit all sides alike. Reported per case: median/min/max ms per
 * execution of each side, ratio = fftw_ms / trnsci_ms (1.0 = the daemon adds
 * nothing; the target is >= 0.95), ratio_many, ratio_daemon_plan, and with
 * --all-cores scaling = fftw_ms / (cores x trnsci_ms) (the daemon shards the
 * batch over its cores; the in-process side stays one thread).
 *
 * Plan mode (--mode plan --plan-phase cold|warm|restart), 2^20-point C2C
 * (--plan-n), against a daemon with --cache-dir (bench/run_fft.sh):
 *   cold     a fresh daemon with an empty cache: time of trnfftPlan1d, and of
 *            trnfftPlan1d + first Exec + Synchronize (the Exec waits for the
 *            planning). Then, in the same process, trnfftDestroy and the same
 *            plan again (warm, --plan-reps times), and this process's own
 *            FFTW_MEASURE planning of the same transform (pinned to
 *            --inproc-cpu, after the daemon is idle).
 *   warm     a second client process, while the daemon holds the plan: the
 *            same timings, --plan-reps times.
 *   restart  a new daemon on the same cache directory: waits until
 *            trnsciDaemonGetPlans reports prewarmDone, then the same timings
 *            (the first one reported apart).
 * Each phase also prints the daemon's trnsciPlanCacheStats and the plan's
 * entry in the cache.
 *
 * Correctness. Every trnsci result is compared with FFTW's in this process on
 * the same input: relative L2 error <= 8 log2(n) 2^-24, else the JSON says
 * "agree": false and the exit status is 3 (so the bench cannot time garbage).
 *
 * Output: JSON lines on stdout (a "host" line, then one line per case or
 * phase). bench/summarize_fft.py turns runs into the tables of
 * docs/benchmarks.md.
 *
 * usage: bench_fft [ADDRESS] [--mode exec|plan] [--cases NxB,...] [--reps N]
 *                  [--min-sample-ms MS] [--inproc-cpu CPU] [--daemon-pid PID]
 *                  [--daemon-cache-dir DIR] [--all-cores] [--plan-phase P]
 *                  [--plan-n N] [--plan-reps N] [--label TEXT]
 * bench/run_fft.sh sets up the daemons and the placement (docs/benchmarks.md).
 */
#define _GNU_SOURCE
#include <fftw3.h>

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trnsci/trnfft.h>
#include <trnsci/trnsci.h>
#include <unistd.h>

#include "bench_util.h"

#define MAX_CASES 8
#define MAX_REPS 400
#define MAX_PLAN_REPS 200

static const char *g_addr;
static int g_inproc_cpu = -1, g_daemon_pid;
static cpu_set_t g_start_set;

/* ---- small utilities ------------------------------------------------------------- */

static void die(const char *what) {
    fprintf(stderr, "bench_fft: %s failed: %s\n", what, trnsciGetLastErrorMessage());
    exit(1);
}

static void fft_check(trnfftResult r, const char *what) {
    if (r != TRNFFT_SUCCESS) {
        fprintf(stderr, "bench_fft: %s failed: %s (%s)\n", what, trnfftGetStatusName(r),
                trnsciGetLastErrorMessage());
        exit(1);
    }
}

static void sync_all(void) {
    if (trnsciStreamSynchronize(NULL) != trnsciSuccess)
        die("trnsciStreamSynchronize");
}

/* Pins this thread to the in-process CPU (if any) / gives back the start set. */
static void pin_inproc(void) {
    if (g_inproc_cpu >= 0 && bench_pin_self(g_inproc_cpu) != 0) {
        fprintf(stderr, "bench_fft: cannot pin to CPU %d: %s\n", g_inproc_cpu, strerror(errno));
        exit(1);
    }
}

static void unpin(void) {
    if (g_inproc_cpu >= 0)
        sched_setaffinity(0, sizeof(g_start_set), &g_start_set);
}

/* sqrt(sum |got - ref|^2) / sqrt(sum |ref|^2) over nf floats; INFINITY on NaN. */
static double rel_l2(const float *got, const float *ref, size_t nf) {
    double num = 0.0, den = 0.0;
    for (size_t i = 0; i < nf; i++) {
        const double d = (double)got[i] - (double)ref[i];
        num += d * d;
        den += (double)ref[i] * (double)ref[i];
    }
    if (isnan(num) || isnan(den))
        return INFINITY;
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

static double tolerance(int n) {
    return 8.0 * log2((double)n) * ldexp(1.0, -24);
}

static void json_stats(const char *key, bench_stats s, const char *end) {
    printf("\"%s\": {\"median\": %.5f, \"min\": %.5f, \"max\": %.5f}%s", key, s.median, s.min,
           s.max, end);
}

static fftwf_plan plan_single(int n, fftwf_complex *in, fftwf_complex *out, unsigned flags) {
    return fftwf_plan_many_dft(1, &n, 1, in, NULL, 1, 0, out, NULL, 1, 0, FFTW_FORWARD, flags);
}

/* One FFTW execution of the batch, as the daemon's kernel runs it. */
static void fftw_loop(fftwf_plan p, int n, int batch, fftwf_complex *in, fftwf_complex *out) {
    for (int b = 0; b < batch; b++)
        fftwf_execute_dft(p, in + (size_t)b * n, out + (size_t)b * n);
}

/* The daemon's busiest threads: sampled around the trnsci samples. */
static int sample_daemon(bench_thread_sample *s) {
    return g_daemon_pid ? bench_sample_threads(g_daemon_pid, s, BENCH_MAX_THREADS, 1) : 0;
}

/* ---- exec mode --------------------------------------------------------------------- */

typedef struct exec_case {
    int n, batch, k, reps;
    size_t elems, bytes;
    fftwf_complex *in, *out, *out_many, *out_wis;
    fftwf_plan own, many, wis;
    double own_plan_ms, many_plan_ms, first_exec_ms, plan_call_ms;
    int same_plan;
    trnfftHandle h;
    trnfftComplex *din, *dout, *dout2;
    int devmem; /* the in-process plan can run on the daemon's buffers */
    bench_stats trn, trnq, fw, fwm, fww, fwd;
    double err_trn, err_many, err_wis, err_dev;
    int bench_cpu_trn, bench_cpu_fftw;
    bench_acc_set dacc;
    double trn_wall_ms;
} exec_case;

static int parse_cases(const char *s, exec_case *c) {
    char list[512];
    snprintf(list, sizeof(list), "%s", s);
    int k = 0;
    char *save = NULL;
    for (char *tok = strtok_r(list, ",", &save); tok && k < MAX_CASES;
         tok = strtok_r(NULL, ",", &save)) {
        int n = 0, b = 1;
        if (sscanf(tok, "%dx%d", &n, &b) < 1 || n < 2 || b < 1)
            return -1;
        memset(&c[k], 0, sizeof(c[k]));
        c[k].n = n;
        c[k].batch = b;
        k++;
    }
    return k;
}

/* Imports the daemon's wisdom (forgetting ours) and makes WISDOM_ONLY plans for
 * every case; waits up to 15 s for the daemon to write it. 1 if all made. */
static int daemon_plans(const char *dir, exec_case *c, int nc) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/fftwf.wisdom", dir);
    for (int tries = 0; tries < 150; tries++) {
        fftwf_forget_wisdom();
        FILE *f = fopen(path, "r");
        int ok = 0;
        if (f) {
            ok = fftwf_import_wisdom_from_file(f);
            fclose(f);
        }
        int all = ok;
        for (int i = 0; ok && i < nc; i++) {
            if (c[i].wis)
                continue;
            /* Plan on the out_wis array and a scratch copy of it as input, so
             * no input is touched. */
            fftwf_complex *scratch = fftwf_malloc((size_t)c[i].n * sizeof(fftwf_complex));
            c[i].wis = plan_single(c[i].n, scratch, c[i].out_wis, FFTW_MEASURE | FFTW_WISDOM_ONLY);
            fftwf_free(scratch);
            if (!c[i].wis)
                all = 0;
        }
        if (all)
            return 1;
        usleep(100000);
    }
    return 0;
}

static int run_exec(exec_case *c, int nc, int all_cores, int reps_override, double min_sample_ms,
                    const char *cache_dir, const char *label, const trnsciDaemonStatus *st,
                    int devmem_ok) {
    char start_cpus[256];
    bench_cpuset_str(&g_start_set, start_cpus, sizeof(start_cpus));

    /* A. Every in-process plan first (FFTW_MEASURE overwrites the arrays, and
     * the daemon's wisdom must not be loaded yet). Pinned to the in-process CPU. */
    pin_inproc();
    for (int i = 0; i < nc; i++) {
        exec_case *e = &c[i];
        e->elems = (size_t)e->n * (size_t)e->batch;
        e->bytes = e->elems * sizeof(fftwf_complex);
        e->in = fftwf_malloc(e->bytes);
        e->out = fftwf_malloc(e->bytes);
        e->out_wis = fftwf_malloc(e->bytes);
        e->out_many = e->batch > 1 ? fftwf_malloc(e->bytes) : NULL;
        if (!e->in || !e->out || !e->out_wis || (e->batch > 1 && !e->out_many)) {
            fprintf(stderr, "bench_fft: out of host memory\n");
            return 1;
        }
        double t0 = bench_now_ms();
        e->own = plan_single(e->n, e->in, e->out, FFTW_MEASURE);
        e->own_plan_ms = bench_now_ms() - t0;
        if (e->batch > 1) {
            t0 = bench_now_ms();
            e->many = fftwf_plan_many_dft(1, &e->n, e->batch, e->in, NULL, 1, e->n, e->out_many,
                                          NULL, 1, e->n, FFTW_FORWARD, FFTW_MEASURE);
            e->many_plan_ms = bench_now_ms() - t0;
        }
        if (!e->own || (e->batch > 1 && !e->many)) {
            fprintf(stderr, "bench_fft: FFTW could not plan n=%d batch=%d\n", e->n, e->batch);
            return 1;
        }
    }
    unpin();

    /* B. Data (after planning), the daemon's side: upload, plan, one untimed
     * execution (it waits for the daemon's planning). */
    for (int i = 0; i < nc; i++) {
        exec_case *e = &c[i];
        bench_fill((float *)e->in, 2 * e->elems, 7000u + (unsigned)e->n + (unsigned)e->batch);
        if (trnsciMalloc((void **)&e->din, e->bytes) || trnsciMalloc((void **)&e->dout, e->bytes) ||
            trnsciMalloc((void **)&e->dout2, e->bytes))
            die("trnsciMalloc");
        /* Over the local transport device memory is host-addressable: the
         * in-process plan can also run on the daemon's own buffers (same
         * alignment class as the planning arrays required by new-array execute). */
        e->devmem = devmem_ok &&
                    fftwf_alignment_of((float *)e->din) == fftwf_alignment_of((float *)e->in) &&
                    fftwf_alignment_of((float *)e->dout2) == fftwf_alignment_of((float *)e->out);
        if (trnsciMemcpy(e->din, e->in, e->bytes, trnsciMemcpyHostToDevice))
            die("trnsciMemcpy (upload)");
        double t0 = bench_now_ms();
        fft_check(trnfftPlan1d(&e->h, e->n, TRNFFT_C2C, e->batch), "trnfftPlan1d");
        e->plan_call_ms = bench_now_ms() - t0;
        fft_check(trnfftExecC2C(e->h, e->din, e->dout, TRNFFT_FORWARD), "trnfftExecC2C");
        sync_all();
        e->first_exec_ms = bench_now_ms() - t0;
    }

    /* C. The daemon's own plans, from its wisdom. */
    int have_wis = 0;
    if (cache_dir) {
        pin_inproc();
        have_wis = daemon_plans(cache_dir, c, nc);
        unpin();
        if (!have_wis)
            fprintf(stderr, "bench_fft: could not make the daemon's plans from %s/fftwf.wisdom\n",
                    cache_dir);
        for (int i = 0; i < nc; i++) {
            c[i].same_plan = -1;
            if (c[i].wis) {
                char *a = fftwf_sprint_plan(c[i].own), *b = fftwf_sprint_plan(c[i].wis);
                c[i].same_plan = a && b && strcmp(a, b) == 0;
                free(a);
                free(b);
            }
        }
    }

    /* D. Timing. */
    int ok = 1;
    for (int i = 0; i < nc; i++) {
        exec_case *e = &c[i];
        const int has_many = e->batch > 1, has_wis = e->wis != NULL, has_dev = e->devmem;
        /* Warm-up of every side, and K from the in-process time. */
        pin_inproc();
        fftw_loop(e->own, e->n, e->batch, e->in, e->out);
        if (has_many)
            fftwf_execute(e->many);
        if (has_wis)
            fftw_loop(e->wis, e->n, e->batch, e->in, e->out_wis);
        if (has_dev)
            fftw_loop(e->own, e->n, e->batch, (fftwf_complex *)e->din, (fftwf_complex *)e->dout2);
        double pre[5];
        for (int r = 0; r < 5; r++) {
            const double t0 = bench_now_ms();
            fftw_loop(e->own, e->n, e->batch, e->in, e->out);
            pre[r] = bench_now_ms() - t0;
        }
        unpin();
        const double one = bench_median(pre, 5);
        e->k = one >= min_sample_ms ? 1 : (int)ceil(min_sample_ms / (one > 1e-6 ? one : 1e-6));
        if (e->k > 200000)
            e->k = 200000;
        for (int w = 0; w < 2; w++) {
            fft_check(trnfftExecC2C(e->h, e->din, e->dout, TRNFFT_FORWARD), "trnfftExecC2C");
            sync_all();
        }
        e->reps = reps_override ? reps_override : (e->n >= (1 << 20) || e->batch > 1 ? 15 : 21);
        if (e->reps > MAX_REPS)
            e->reps = MAX_REPS;
        const int K = e->k, queued = K > 1;
        double t_trn[MAX_REPS], t_q[MAX_REPS], t_fw[MAX_REPS], t_fwm[MAX_REPS], t_fww[MAX_REPS],
            t_fwd[MAX_REPS];
        int nsides = 2 + queued + has_many + has_wis + has_dev;
        int sides[6], ns = 0;
        sides[ns++] = 0;
        if (queued)
            sides[ns++] = 1;
        sides[ns++] = 2;
        if (has_many)
            sides[ns++] = 3;
        if (has_wis)
            sides[ns++] = 4;
        if (has_dev)
            sides[ns++] = 5;
        memset(&e->dacc, 0, sizeof(e->dacc));
        static bench_thread_sample d0[BENCH_MAX_THREADS], d1[BENCH_MAX_THREADS];
        e->trn_wall_ms = 0;
        for (int r = 0; r < e->reps; r++) {
            for (int j = 0; j < nsides; j++) {
                const int side = sides[(j + r) % nsides];
                if (side <= 1) {
                    const int nd0 = sample_daemon(d0);
                    const double t0 = bench_now_ms();
                    for (int k = 0; k < K; k++) {
                        fft_check(trnfftExecC2C(e->h, e->din, e->dout, TRNFFT_FORWARD),
                                  "trnfftExecC2C");
                        if (side == 0)
                            sync_all();
                    }
                    if (side == 1)
                        sync_all();
                    const double dt = bench_now_ms() - t0;
                    if (side == 0) {
                        t_trn[r] = dt / K;
                        e->trn_wall_ms += dt;
                        e->bench_cpu_trn = sched_getcpu();
                        const int nd1 = sample_daemon(d1);
                        if (g_daemon_pid)
                            bench_acc_add(&e->dacc, d0, nd0, d1, nd1);
                    } else {
                        t_q[r] = dt / K;
                    }
                } else {
                    pin_inproc();
                    const double t0 = bench_now_ms();
                    for (int k = 0; k < K; k++) {
                        if (side == 2)
                            fftw_loop(e->own, e->n, e->batch, e->in, e->out);
                        else if (side == 3)
                            fftwf_execute(e->many);
                        else if (side == 4)
                            fftw_loop(e->wis, e->n, e->batch, e->in, e->out_wis);
                        else
                            fftw_loop(e->own, e->n, e->batch, (fftwf_complex *)e->din,
                                      (fftwf_complex *)e->dout2);
                    }
                    const double dt = (bench_now_ms() - t0) / K;
                    e->bench_cpu_fftw = sched_getcpu();
                    unpin();
                    (side == 2 ? t_fw : side == 3 ? t_fwm : side == 4 ? t_fww : t_fwd)[r] = dt;
                }
            }
        }
        e->trn = bench_stats_of(t_trn, e->reps);
        if (queued)
            e->trnq = bench_stats_of(t_q, e->reps);
        e->fw = bench_stats_of(t_fw, e->reps);
        if (has_many)
            e->fwm = bench_stats_of(t_fwm, e->reps);
        if (has_wis)
            e->fww = bench_stats_of(t_fww, e->reps);
        if (has_dev)
            e->fwd = bench_stats_of(t_fwd, e->reps);

        /* E. Correctness: the daemon's output against this process's FFTW. */
        float *got = malloc(e->bytes);
        if (!got) {
            fprintf(stderr, "bench_fft: out of host memory\n");
            return 1;
        }
        if (trnsciMemcpy(got, e->dout, e->bytes, trnsciMemcpyDeviceToHost))
            die("trnsciMemcpy (download)");
        const double tol = tolerance(e->n);
        e->err_trn = rel_l2(got, (const float *)e->out, 2 * e->elems);
        e->err_many =
            has_many ? rel_l2((const float *)e->out_many, (const float *)e->out, 2 * e->elems) : 0;
        e->err_wis =
            has_wis ? rel_l2((const float *)e->out_wis, (const float *)e->out, 2 * e->elems) : 0;
        e->err_dev =
            has_dev ? rel_l2((const float *)e->dout2, (const float *)e->out, 2 * e->elems) : 0;
        free(got);
        const int agree =
            e->err_trn <= tol && e->err_many <= tol && e->err_wis <= tol && e->err_dev <= tol;
        ok &= agree;

        /* JSON: one line per case. */
        bench_acc_sort(&e->dacc);
        printf("{\"benchmark\": \"fft\", \"mode\": \"%s\", \"label\": \"%s\", "
               "\"transform\": \"c2c float forward out-of-place\", \"n\": %d, \"batch\": %d, "
               "\"execs_per_sample\": %d, \"reps\": %d, ",
               all_cores ? "all-cores" : "one-core", label, e->n, e->batch, K, e->reps);
        json_stats("trnsci_ms", e->trn, ", ");
        if (queued)
            json_stats("trnsci_queued_ms", e->trnq, ", ");
        json_stats("fftw_ms", e->fw, ", ");
        if (has_many)
            json_stats("fftw_many_ms", e->fwm, ", ");
        if (has_wis)
            json_stats("fftw_daemon_plan_ms", e->fww, ", ");
        if (has_dev)
            json_stats("fftw_on_device_memory_ms", e->fwd, ", ");
        printf("\"ratio\": %.4f, \"ratio_of_mins\": %.4f, ", e->fw.median / e->trn.median,
               e->fw.min / e->trn.min);
        if (!all_cores) /* the one-core target; all cores report scaling instead */
            printf("\"ratio_target\": 0.95, \"ratio_met\": %s, ",
                   e->fw.median / e->trn.median >= 0.95 ? "true" : "false");
        if (queued)
            printf("\"ratio_queued\": %.4f, ", e->fw.median / e->trnq.median);
        if (has_many)
            printf("\"ratio_many\": %.4f, ", e->fwm.median / e->trn.median);
        if (has_wis)
            printf("\"ratio_daemon_plan\": %.4f, \"same_plan_as_daemon\": %s, ",
                   e->fww.median / e->trn.median, e->same_plan ? "true" : "false");
        if (has_dev)
            printf("\"ratio_device_memory\": %.4f, ", e->fwd.median / e->trn.median);
        if (all_cores) {
            printf("\"cores\": %u, \"scaling\": %.4f, ", st->coreCount,
                   e->fw.median / (st->coreCount * e->trn.median));
            if (has_many)
                printf("\"scaling_vs_many\": %.4f, ",
                       e->fwm.median / (st->coreCount * e->trn.median));
            if (has_wis)
                printf("\"scaling_daemon_plan\": %.4f, ",
                       e->fww.median / (st->coreCount * e->trn.median));
        }
        printf("\"fftw_plan_ms\": %.1f, ", e->own_plan_ms);
        if (has_many)
            printf("\"fftw_many_plan_ms\": %.1f, ", e->many_plan_ms);
        printf("\"trnsci_plan_call_ms\": %.3f, \"trnsci_plan_and_first_exec_ms\": %.1f, ",
               e->plan_call_ms, e->first_exec_ms);
        printf("\"rel_l2_err\": %.3g, \"rel_l2_err_many\": %.3g, \"rel_l2_err_daemon_plan\": %.3g, "
               "\"rel_l2_err_device_memory\": %.3g, \"tolerance\": %.3g, \"agree\": %s, ",
               e->err_trn, e->err_many, e->err_wis, e->err_dev, tol, agree ? "true" : "false");
        printf("\"placement\": {\"bench_process_cpus\": \"%s\", \"bench_cpu_during_trnsci\": %d, "
               "\"inproc_cpu\": %d, \"bench_cpu_during_fftw\": %d, \"order\": \"interleaved\", "
               "\"daemon_threads_during_trnsci\": [",
               start_cpus, e->bench_cpu_trn, g_inproc_cpu, e->bench_cpu_fftw);
        for (int t = 0; t < e->dacc.n && t < 3; t++) {
            const bench_thread_acc *a = &e->dacc.t[t];
            printf("%s{\"tid\": %d, \"comm\": \"%s\", \"cpus_allowed\": \"%s\", \"last_cpu\": %d, "
                   "\"busy\": %.3f}",
                   t ? ", " : "", a->last.tid, a->last.comm, a->last.allowed, a->last.last_cpu,
                   e->trn_wall_ms > 0 ? (double)a->ns * 1e-6 / e->trn_wall_ms : 0.0);
        }
        printf("]}}\n");
        fflush(stdout);
    }

    for (int i = 0; i < nc; i++) {
        exec_case *e = &c[i];
        trnfftDestroy(e->h);
        trnsciFree(e->din);
        trnsciFree(e->dout);
        trnsciFree(e->dout2);
        fftwf_destroy_plan(e->own);
        if (e->many)
            fftwf_destroy_plan(e->many);
        if (e->wis)
            fftwf_destroy_plan(e->wis);
        fftwf_free(e->in);
        fftwf_free(e->out);
        fftwf_free(e->out_wis);
        fftwf_free(e->out_many);
    }
    return ok ? 0 : 3;
}

/* ---- plan mode ------------------------------------------------------------------------ */

static void json_cache(const char *addr, int n) {
    trnsciPlanInfo info[64];
    int count = 0;
    trnsciPlanCacheStats s;
    memset(&s, 0, sizeof(s));
    if (trnsciDaemonGetPlans(addr, info, 64, &count, &s) != trnsciSuccess)
        die("trnsciDaemonGetPlans");
    printf("\"plan_cache\": {\"hits\": %llu, \"misses\": %llu, \"entries\": %llu, "
           "\"bytes\": %llu, \"builds\": %llu, \"build_failures\": %llu, "
           "\"build_seconds\": %.4f, \"saved_seconds\": %.4f, \"prewarm_done\": %d}, ",
           (unsigned long long)s.hits, (unsigned long long)s.misses, (unsigned long long)s.entries,
           (unsigned long long)s.bytes, (unsigned long long)s.builds,
           (unsigned long long)s.buildFailures, s.buildSeconds, s.savedSeconds, s.prewarmDone);
    char want[64];
    snprintf(want, sizeof(want), "fft c2c %d basic", n);
    printf("\"plan_entry\": ");
    int found = 0;
    for (int i = 0; i < count && i < 64; i++)
        if (strncmp(info[i].key, want, strlen(want)) == 0) {
            printf("{\"key\": \"%s\", \"state\": \"%s\", \"hits\": %llu, \"uses\": %llu, "
                   "\"build_seconds\": %.4f}, ",
                   info[i].key, info[i].state, (unsigned long long)info[i].hits,
                   (unsigned long long)info[i].uses, info[i].buildSeconds);
            found = 1;
            break;
        }
    if (!found)
        printf("null, ");
}

/* One timed Plan + Exec + Synchronize; returns both times, leaves the handle. */
static void plan_and_exec(int n, trnfftComplex *din, trnfftComplex *dout, trnfftHandle *h,
                          double *plan_ms, double *total_ms) {
    const double t0 = bench_now_ms();
    fft_check(trnfftPlan1d(h, n, TRNFFT_C2C, 1), "trnfftPlan1d");
    const double t1 = bench_now_ms();
    fft_check(trnfftExecC2C(*h, din, dout, TRNFFT_FORWARD), "trnfftExecC2C");
    sync_all();
    const double t2 = bench_now_ms();
    *plan_ms = t1 - t0;
    *total_ms = t2 - t0;
}

static int run_plan(const char *phase, int n, int reps, const char *label) {
    const size_t bytes = (size_t)n * sizeof(fftwf_complex);
    double wait_ms = -1;
    if (!strcmp(phase, "restart")) {
        /* Wait until the restarted daemon has prepared its persisted plans. */
        const double t0 = bench_now_ms();
        for (;;) {
            trnsciPlanCacheStats s;
            int count = 0;
            if (trnsciDaemonGetPlans(g_addr, NULL, 0, &count, &s) != trnsciSuccess)
                die("trnsciDaemonGetPlans");
            if (s.prewarmDone)
                break;
            if (bench_now_ms() - t0 > 120000) {
                fprintf(stderr, "bench_fft: prewarmDone not reported within 120 s\n");
                return 1;
            }
            usleep(1000);
        }
        wait_ms = bench_now_ms() - t0;
    }
    if (trnsciInit(g_addr) != trnsciSuccess)
        die("trnsciInit");
    fftwf_complex *in = fftwf_malloc(bytes), *ref = fftwf_malloc(bytes), *got = fftwf_malloc(bytes);
    if (!in || !ref || !got) {
        fprintf(stderr, "bench_fft: out of host memory\n");
        return 1;
    }
    bench_fill((float *)in, 2 * (size_t)n, 9000u + (unsigned)n);
    trnfftComplex *din, *dout;
    if (trnsciMalloc((void **)&din, bytes) || trnsciMalloc((void **)&dout, bytes))
        die("trnsciMalloc");
    if (trnsciMemcpy(din, in, bytes, trnsciMemcpyHostToDevice))
        die("trnsciMemcpy (upload)");

    /* The first plan of this process (cold, warm or after restart). */
    trnfftHandle h;
    double first_plan, first_total;
    plan_and_exec(n, din, dout, &h, &first_plan, &first_total);
    if (trnsciMemcpy(got, dout, bytes, trnsciMemcpyDeviceToHost))
        die("trnsciMemcpy (download)");
    fft_check(trnfftDestroy(h), "trnfftDestroy");

    /* Then the same key again, reps times (the daemon holds it now). */
    double tp[MAX_PLAN_REPS], tt[MAX_PLAN_REPS];
    for (int r = 0; r < reps; r++) {
        plan_and_exec(n, din, dout, &h, &tp[r], &tt[r]);
        fft_check(trnfftDestroy(h), "trnfftDestroy");
    }
    const bench_stats sp = bench_stats_of(tp, reps), st = bench_stats_of(tt, reps);

    /* In-process FFTW planning of the same transform (cold, measure) — after
     * the daemon is idle, on its CPU — and the reference result. */
    double fftw_measure_ms = -1;
    fftwf_plan p;
    pin_inproc();
    if (!strcmp(phase, "cold")) {
        fftwf_complex *scratch = fftwf_malloc(bytes);
        const double t0 = bench_now_ms();
        p = plan_single(n, scratch, ref, FFTW_MEASURE);
        fftw_measure_ms = bench_now_ms() - t0;
        fftwf_free(scratch);
    } else {
        fftwf_complex *scratch = fftwf_malloc(bytes);
        p = plan_single(n, scratch, ref, FFTW_ESTIMATE);
        fftwf_free(scratch);
    }
    if (!p) {
        fprintf(stderr, "bench_fft: FFTW could not plan n=%d\n", n);
        return 1;
    }
    fftwf_execute_dft(p, in, ref);
    double exec_ms = -1;
    if (!strcmp(phase, "cold")) {
        double te[5];
        for (int r = 0; r < 5; r++) {
            const double t0 = bench_now_ms();
            fftwf_execute_dft(p, in, ref);
            te[r] = bench_now_ms() - t0;
        }
        exec_ms = bench_median(te, 5);
    }
    unpin();
    const double err = rel_l2((const float *)got, (const float *)ref, 2 * (size_t)n);
    const double tol = tolerance(n);
    const int agree = err <= tol;

    printf("{\"benchmark\": \"fft_plan\", \"phase\": \"%s\", \"label\": \"%s\", \"n\": %d, "
           "\"key\": \"fft c2c %d basic measure\", ",
           phase, label, n, n);
    if (wait_ms >= 0)
        printf("\"prewarm_wait_ms\": %.1f, ", wait_ms);
    printf("\"first_plan_ms\": %.4f, \"first_plan_and_exec_ms\": %.3f, ", first_plan, first_total);
    printf("\"again\": {\"reps\": %d, ", reps);
    json_stats("plan_ms", sp, ", ");
    json_stats("plan_and_exec_ms", st, "}, ");
    if (fftw_measure_ms >= 0)
        printf("\"fftw_measure_plan_ms\": %.1f, \"fftw_exec_ms\": %.3f, ", fftw_measure_ms,
               exec_ms);
    printf("\"warm_target_ms\": 1.0, ");
    json_cache(g_addr, n);
    printf("\"rel_l2_err\": %.3g, \"tolerance\": %.3g, \"agree\": %s}\n", err, tol,
           agree ? "true" : "false");
    fflush(stdout);
    fftwf_destroy_plan(p);
    trnsciFree(din);
    trnsciFree(dout);
    fftwf_free(in);
    fftwf_free(ref);
    fftwf_free(got);
    return agree ? 0 : 3;
}

/* ---- main ------------------------------------------------------------------------ */

static void usage(void) {
    fputs("usage: bench_fft [ADDRESS] [--mode exec|plan] [--cases NxB,...] [--reps N]\n"
          "                 [--min-sample-ms MS] [--inproc-cpu CPU] [--daemon-pid PID]\n"
          "                 [--daemon-cache-dir DIR] [--all-cores] [--plan-phase P]\n"
          "                 [--plan-n N] [--plan-reps N] [--label TEXT]\n",
          stderr);
    exit(2);
}

int main(int argc, char **argv) {
    const char *mode = "exec", *cases = "1024x1,65536x1,1048576x1,1024x1024", *cache_dir = NULL,
               *phase = "cold", *label = "";
    int reps = 0, all_cores = 0, plan_n = 1 << 20, plan_reps = 21;
    double min_sample_ms = 5.0;
    const bench_opt opts[] = {{"--mode", BENCH_OPT_STR, &mode},
                              {"--cases", BENCH_OPT_STR, &cases},
                              {"--reps", BENCH_OPT_INT, &reps},
                              {"--min-sample-ms", BENCH_OPT_DOUBLE, &min_sample_ms},
                              {"--inproc-cpu", BENCH_OPT_INT, &g_inproc_cpu},
                              {"--daemon-pid", BENCH_OPT_INT, &g_daemon_pid},
                              {"--daemon-cache-dir", BENCH_OPT_STR, &cache_dir},
                              {"--all-cores", BENCH_OPT_FLAG, &all_cores},
                              {"--plan-phase", BENCH_OPT_STR, &phase},
                              {"--plan-n", BENCH_OPT_INT, &plan_n},
                              {"--plan-reps", BENCH_OPT_INT, &plan_reps},
                              {"--label", BENCH_OPT_STR, &label},
                              {NULL, BENCH_OPT_FLAG, NULL}};
    if (bench_parse_args(opts, argc, argv, &g_addr) != 0)
        usage();
    if (!g_addr)
        g_addr = getenv("TRNSCI_ADDR");
    if (reps < 0 || reps > MAX_REPS || plan_reps < 1 || plan_reps > MAX_PLAN_REPS || plan_n < 2 ||
        min_sample_ms < 0)
        usage();
    CPU_ZERO(&g_start_set);
    sched_getaffinity(0, sizeof(g_start_set), &g_start_set);

    char model[128];
    bench_cpu_model(model, sizeof(model));
    if (!strcmp(mode, "plan")) {
        if (strcmp(phase, "cold") && strcmp(phase, "warm") && strcmp(phase, "restart"))
            usage();
        return run_plan(phase, plan_n, plan_reps, label);
    }
    if (strcmp(mode, "exec"))
        usage();
    exec_case c[MAX_CASES];
    const int nc = parse_cases(cases, c);
    if (nc < 1)
        usage();
    if (trnsciInit(g_addr) != trnsciSuccess)
        die("trnsciInit");
    trnsciDaemonStatus st;
    if (trnsciDaemonGetStatus(g_addr, &st) != trnsciSuccess)
        die("trnsciDaemonGetStatus");
    printf("{\"benchmark\": \"fft_host\", \"mode\": \"%s\", \"label\": \"%s\", "
           "\"address\": \"%s\", \"daemon\": {\"version\": \"%s\", \"backend\": \"%s\", "
           "\"cores\": %u}, \"fftw\": \"%s\", \"cpu_model\": \"%s\", \"online_cpus\": %ld}\n",
           all_cores ? "all-cores" : "one-core", label, g_addr ? g_addr : "(default)",
           st.daemonVersion, st.backend, st.coreCount, fftwf_version, model,
           sysconf(_SC_NPROCESSORS_ONLN));
    fflush(stdout);
    /* Device pointers are host-addressable on the local transport only. */
    const int devmem_ok = g_addr && strncmp(g_addr, "unix:", 5) == 0;
    return run_exec(c, nc, all_cores, reps, min_sample_ms, cache_dir, label, &st, devmem_ok);
}
